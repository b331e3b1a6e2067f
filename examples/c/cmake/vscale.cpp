// A kernel in C++, as CANN samples write them: C linkage, the Ascend C
// qualifiers, GetBlockIdx/GetBlockNum through the AscendC namespace.
#include <gocann/kernel.h>

// y[i] = x[i] * factor for n int32 elements.
extern "C" __global__ __aicore__ void vscale(GM_ADDR x, GM_ADDR y, int32_t factor, uint32_t n)
{
    const int32_t *in = reinterpret_cast<const int32_t *>(x);
    int32_t *out = reinterpret_cast<int32_t *>(y);
    uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < n; i += blocks) {
        out[i] = in[i] * factor;
    }
}
