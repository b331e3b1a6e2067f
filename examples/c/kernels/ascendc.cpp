// Kernels written with the Ascend C subset of kernel_operator.h, as the
// CANN samples write theirs: a double-buffered vector addition on half,
// a float pipeline through a working buffer, and kernels that misuse the
// API, which must fail their launch with a message saying how.
#include "kernel_operator.h"

namespace {

constexpr int32_t kBufferNum = 2;

// AddHalf adds total halves of x and y into z, each block its share in
// tiles of tile elements, with two buffers per queue so copies and
// compute alternate as on hardware.
class AddHalf {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
    {
        uint32_t per = total / AscendC::GetBlockNum();
        uint64_t at = uint64_t(per) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + at, per);
        yGm.SetGlobalBuffer((__gm__ half *)y + at, per);
        zGm.SetGlobalBuffer((__gm__ half *)z + at, per);
        tiles = per / tile;
        this->tile = tile;
        pipe.InitBuffer(inX, kBufferNum, tile * sizeof(half));
        pipe.InitBuffer(inY, kBufferNum, tile * sizeof(half));
        pipe.InitBuffer(outZ, kBufferNum, tile * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            AscendC::LocalTensor<half> xl = inX.AllocTensor<half>();
            AscendC::LocalTensor<half> yl = inY.AllocTensor<half>();
            AscendC::DataCopy(xl, xGm[i * tile], tile);
            AscendC::DataCopy(yl, yGm[i * tile], tile);
            inX.EnQue(xl);
            inY.EnQue(yl);

            xl = inX.DeQue<half>();
            yl = inY.DeQue<half>();
            AscendC::LocalTensor<half> zl = outZ.AllocTensor<half>();
            AscendC::Add(zl, xl, yl, tile);
            outZ.EnQue<half>(zl);
            inX.FreeTensor(xl);
            inY.FreeTensor(yl);

            zl = outZ.DeQue<half>();
            AscendC::DataCopy(zGm[i * tile], zl, tile);
            outZ.FreeTensor(zl);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outZ;
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    uint32_t tiles = 0, tile = 0;
};

} // namespace

extern "C" __global__ __aicore__ void add_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    AddHalf op;
    op.Init(x, y, z, total, tile);
    op.Process();
}

// y = max(relu(x * scale + 1), floor), 64 floats per block through one
// working buffer, with scale and floor the two floats at params.
extern "C" __global__ __aicore__ void pipeline_float(GM_ADDR x, GM_ADDR y, GM_ADDR params)
{
    constexpr uint32_t n = 64;
    AscendC::GlobalTensor<float> p;
    p.SetGlobalBuffer((__gm__ float *)params, 2);
    float scale = p.GetValue(0), floor = p.GetValue(1);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    pipe.InitBuffer(work, 2 * n * sizeof(float));
    AscendC::LocalTensor<float> a = work.Get<float>(n);
    AscendC::LocalTensor<float> b = work.GetWithOffset<float>(n, n * sizeof(float));
    AscendC::GlobalTensor<float> in, out;
    in.SetGlobalBuffer((__gm__ float *)x + n * AscendC::GetBlockIdx(), n);
    out.SetGlobalBuffer((__gm__ float *)y + n * AscendC::GetBlockIdx(), n);
    AscendC::DataCopy(a, in, n);
    AscendC::Muls(b, a, scale, n);
    AscendC::Adds(b, b, 1.0f, n);
    AscendC::Relu(b, b, n);
    AscendC::Duplicate(a, floor, n);
    AscendC::Max(b, b, a, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(out, b, n);
}

// The misuses, one per value of which.
extern "C" __global__ __aicore__ void misuse(GM_ADDR x, uint32_t which)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> q;
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)x, 1024);
    if (which == 5) {
        AscendC::TBuf<> big;
        pipe.InitBuffer(q, 2, 64 * 1024);
        pipe.InitBuffer(big, 128 * 1024); // 256 KiB in all
        return;
    }
    pipe.InitBuffer(q, 2, 512);
    AscendC::LocalTensor<half> t = q.AllocTensor<half>();
    switch (which) {
    case 0:
        AscendC::DataCopy(t, g, 17); // 34 bytes
        break;
    case 1:
        q.AllocTensor<half>();
        q.AllocTensor<half>(); // a third buffer of two
        break;
    case 2:
        q.DeQue<half>(); // nothing queued
        break;
    case 3: {
        AscendC::LocalTensor<half> view = t[16];
        q.FreeTensor(view);
        break;
    }
    case 4:
        AscendC::Add(t, t, t, 257); // 256 halves in the buffer
        break;
    case 6:
        q.FreeTensor(t);
        q.FreeTensor(t);
        break;
    case 7:
        AscendC::DataCopy(t, g[1024 - 16], 32); // past the global view
        break;
    }
}
