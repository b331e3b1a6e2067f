// Kernels for 56_faults whose code faults, as kernel bugs do: a wild
// pointer read or written, a division by zero, an illegal instruction, an
// Ascend C kernel
// indexing far past its GlobalTensor, a C++ exception left to escape.
// Each fails its own task with an AI-core exception; the process goes on.
// And one that works, to check the device after each fault.
#include <stdexcept>
#include <string>

#include "kernel_operator.h"

// read_at copies the word at addr to out.
extern "C" __global__ __aicore__ void read_at(GM_ADDR out, uint64_t addr)
{
    *(uint64_t *)out = *(volatile uint64_t *)addr;
}

// write_at stores v at addr, from every block or, with odd set, from the
// odd blocks only; block b writes addr + b * stride.
extern "C" __global__ __aicore__ void write_at(uint64_t addr, uint64_t v, uint64_t stride, uint64_t odd)
{
    int64_t b = AscendC::GetBlockIdx();
    if (!odd || b % 2 == 1) {
        *(volatile uint64_t *)(addr + (uint64_t)b * stride) = v;
    }
}

// divide stores a / b at out: SIGFPE when b is 0.
extern "C" __global__ __aicore__ void divide(GM_ADDR out, int32_t a, int32_t b)
{
    volatile int32_t x = a, y = b;
    *(int32_t *)out = x / y;
}

// illegal runs an instruction no processor defines: SIGILL, as an AI core
// meeting one it cannot execute raises an exception.
extern "C" __global__ __aicore__ void illegal(GM_ADDR out)
{
    *(volatile uint64_t *)out = 1;
#if defined(__x86_64__)
    __asm__ volatile("ud2");
#elif defined(__aarch64__)
    __asm__ volatile(".inst 0x00000000"); // udf #0
#else
    __builtin_trap();
#endif
}

// far_index stores 1.0 at element i of a GlobalTensor over x set without a
// size, as kernels given a raw pointer do: nothing checks the index, and
// one past the end of device memory faults.
extern "C" __global__ __aicore__ void far_index(GM_ADDR x, uint64_t i)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    xGm.SetValue(i, 1.0f);
}

// throws throws a std::runtime_error naming v.
extern "C" __global__ __aicore__ void throws(uint64_t v)
{
    throw std::runtime_error("bad tiling " + std::to_string(v));
}

// fill stores v at out[block].
extern "C" __global__ __aicore__ void fill(GM_ADDR out, uint64_t v)
{
    ((uint64_t *)out)[AscendC::GetBlockIdx()] = v;
}
