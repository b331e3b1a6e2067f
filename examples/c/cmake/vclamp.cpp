// A kernel written with Ascend C's kernel_operator.h, as the CANN samples
// include it: y = max(x, lo) for n int32 elements (n * 4 a multiple of 32),
// in one block, through a queue of the unified buffer.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void vclamp(GM_ADDR x, GM_ADDR y, int32_t lo, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
    AscendC::GlobalTensor<int32_t> in, out;
    in.SetGlobalBuffer((__gm__ int32_t *)x, n);
    out.SetGlobalBuffer((__gm__ int32_t *)y, n);
    pipe.InitBuffer(q, 1, n * sizeof(int32_t));
    AscendC::LocalTensor<int32_t> t = q.AllocTensor<int32_t>();
    AscendC::DataCopy(t, in, n);
    q.EnQue(t);
    t = q.DeQue<int32_t>();
    AscendC::Maxs(t, t, lo, int32_t(n));
    AscendC::DataCopy(out, t, n);
    q.FreeTensor(t);
}
