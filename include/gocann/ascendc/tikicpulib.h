/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * tikicpulib.h: the entry points of CANN's CPU-debug mode, for mains
 * written against them. Where CANN runs a kernel on the host in a child
 * process per core, with no streams around it, here the same kernel runs
 * on the simulated NPU, inside the runtime:
 *
 *   ICPU_RUN_KF(kernel, numBlocks, args...)  launches kernel on the
 *                                          current device's default stream
 *                                          (device 0's, started if need be)
 *                                          and waits for it; a failure is
 *                                          printed on stderr
 *   ICPU_SET_TILING_KEY(key)               the key TILING_KEY_IS tests
 *   AscendC::GmAlloc(size), GmFree(p)       device memory, which host code
 *                                          reads and writes in place
 *   AscendC::SetKernelMode(mode)           accepted: a block runs on one
 *                                          core whatever its mode
 */
#ifndef GOCANN_ASCENDC_TIKICPULIB_H_
#define GOCANN_ASCENDC_TIKICPULIB_H_

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "../../acl/acl.h"
#include "gocann_builtin.h"
#include "gocann_launch.h"

/* The kernel modes of CPU debug: which cores of a mixed architecture a
 * kernel runs on. */
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {

namespace gocann {

/* Ready makes sure the calling thread has a device: device 0, with the
 * runtime started, unless one is current. */
inline bool Ready(const char *what)
{
    int32_t dev = -1;
    if (aclrtGetDevice(&dev) == ACL_SUCCESS) {
        return true;
    }
    aclError rc = aclrtSetDevice(0);
    if (rc != ACL_SUCCESS) {
        std::fprintf(stderr, "[ERROR] %s: aclrtSetDevice(0) failed with %d: %s\n", what, rc, aclGetRecentErrMsg());
        return false;
    }
    return true;
}

/* As converts an argument to its kernel parameter's type: GmAlloc'd
 * pointers are cast as the kernel's pointer types take them. */
template <typename P, typename A>
inline P As(A a)
{
    if constexpr (std::is_pointer_v<P> && std::is_pointer_v<A>) {
        return reinterpret_cast<P>(a);
    } else {
        return static_cast<P>(a);
    }
}

/* RunKernel launches kernel and waits for it, as ICPU_RUN_KF does. */
template <typename Tag, typename... P, typename... A>
inline void RunKernel(void (*kernel)(P...), Tag tag, const char *name, uint32_t numBlocks, A... args)
{
    if (!Ready("ICPU_RUN_KF")) {
        return;
    }
    aclError rc = Launch(kernel, tag, name, numBlocks, 0, nullptr)(As<P>(args)...);
    if (rc == ACL_SUCCESS) {
        rc = aclrtSynchronizeStream(nullptr);
    }
    if (rc != ACL_SUCCESS) {
        std::fprintf(stderr, "[ERROR] ICPU_RUN_KF(%s, %u): %d: %s\n", name, numBlocks, rc, aclGetRecentErrMsg());
    }
}

} // namespace gocann

inline void *GmAlloc(size_t size)
{
    void *p = nullptr;
    if (!gocann::Ready("GmAlloc")) {
        return nullptr;
    }
    aclError rc = aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc != ACL_SUCCESS) {
        std::fprintf(stderr, "[ERROR] GmAlloc(%zu): %d: %s\n", size, rc, aclGetRecentErrMsg());
        return nullptr;
    }
    return p;
}

inline void GmFree(void *p)
{
    aclError rc = aclrtFree(p);
    if (rc != ACL_SUCCESS) {
        std::fprintf(stderr, "[ERROR] GmFree(%p): %d: %s\n", p, rc, aclGetRecentErrMsg());
    }
}

inline void SetKernelMode(KernelMode mode) { (void)mode; }

} // namespace AscendC

#define ICPU_SET_TILING_KEY(key)                       \
    do {                                               \
        ::g_tilingKey = static_cast<uint64_t>(key);    \
    } while (0)

#define ICPU_RUN_KF(kernel, numBlocks, ...)                                         \
    do {                                                                            \
        ::AscendC::gocann::RunKernel(kernel, [] {}, #kernel, (numBlocks), ##__VA_ARGS__); \
    } while (0)

#endif /* GOCANN_ASCENDC_TIKICPULIB_H_ */
