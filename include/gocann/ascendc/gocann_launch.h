/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Kernel launches written with <<<>>>, in Ascend C sources the compiler
 * driver (bisheng) builds, by hand or for CMake. It rewrites
 *
 *     kernel<<<numBlocks, dynUBufSize, stream>>>(args...)
 *
 * into AscendC::gocann::Launch(kernel, "kernel", numBlocks, dynUBufSize,
 * stream)(args...): the kernel's parameter kinds come from its type, each
 * argument goes into an 8-byte slot, and the launch is an
 * aclrtLaunchKernelWithHostArgs of the kernel's function handle (made at
 * its first launch). As with CANN's compiler, the launch's value is its
 * code: 0, or why it was refused, which aclrtGetLastError and
 * aclGetRecentErrMsg also tell; a fault is reported when the stream is
 * synchronized. dynUBufSize is not used: a block's unified buffer is
 * always whole. The driver includes this with its prelude; elsewhere
 * include kernel_operator.h.
 */
#ifndef GOCANN_ASCENDC_LAUNCH_H_
#define GOCANN_ASCENDC_LAUNCH_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../../acl/acl.h"
#include "../kernel.h"

extern "C" void *gocann_linked_kernel(const void *fn, const char *name, const unsigned char *decl, size_t n);

namespace AscendC {
namespace gocann {

template <typename T>
struct Unsupported : std::false_type {
};

/* Kind is T's GOCANN_PARAM_* kind (gocann/kernel.h). */
template <typename T>
constexpr unsigned char Kind()
{
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_pointer_v<U>) {
        return GOCANN_PARAM_PTR;
    } else if constexpr (std::is_same_v<U, float>) {
        return GOCANN_PARAM_FLOAT;
    } else if constexpr (std::is_same_v<U, double>) {
        return GOCANN_PARAM_DOUBLE;
    } else if constexpr ((std::is_integral_v<U> || std::is_enum_v<U>) && sizeof(U) <= 8) {
        return static_cast<unsigned char>(0x20 | sizeof(U));
    } else {
        static_assert(Unsupported<T>::value,
                      "a <<<>>> launch passes pointers, integers of at most 8 bytes, float and double parameters");
        return 0;
    }
}

/* Slot is v as its 8-byte argument slot holds it: an integer widened as
 * its type says, a float in the low four bytes. */
template <typename T>
inline uint64_t Slot(T v)
{
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_pointer_v<U>) {
        return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v));
    } else if constexpr (std::is_floating_point_v<U>) {
        uint64_t s = 0;
        memcpy(&s, &v, sizeof v);
        return s;
    } else if constexpr (std::is_enum_v<U>) {
        return Slot(static_cast<std::underlying_type_t<U>>(v));
    } else if constexpr (std::is_signed_v<U>) {
        return static_cast<uint64_t>(static_cast<int64_t>(v));
    } else {
        return static_cast<uint64_t>(v);
    }
}

/* Launcher is one <<<>>> launch, waiting for its arguments. */
template <typename... P>
class Launcher {
public:
    Launcher(void (*fn)(P...), const char *name, uint32_t blockDim, void *stream)
        : fn_(fn), name_(name), blockDim_(blockDim), stream_(stream)
    {
    }

    /* The launch; its value is the launch's code. */
    aclError operator()(P... args) const
    {
        static const unsigned char decl[] = {'G', Kind<P>()...};
        uint64_t slots[sizeof...(P) + 1] = {Slot<P>(args)..., 0};
        void *f = gocann_linked_kernel(reinterpret_cast<const void *>(fn_), name_, decl, sizeof decl);
        if (f == nullptr) {
            return aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        }
        return aclrtLaunchKernelWithHostArgs(f, blockDim_, stream_, nullptr, slots, sizeof...(P) * sizeof(uint64_t),
                                             nullptr, 0);
    }

private:
    void (*fn_)(P...);
    const char *name_;
    uint32_t blockDim_;
    void *stream_;
};

/* Launch is a launch's configuration: numBlocks, then dynUBufSize (the
 * dynamic unified buffer's bytes, a number or a pointer as older launches
 * pass it: the unified buffer here is the block's whole), then the
 * stream. */
template <typename D, typename... P>
inline Launcher<P...> Launch(void (*fn)(P...), const char *name, uint32_t numBlocks, D dynUBufSize, void *stream)
{
    (void)dynUBufSize;
    return Launcher<P...>(fn, name, numBlocks, stream);
}

/* LaunchFrom is the launch an aclrtlaunch_<kernel> function makes (the
 * driver writes it into the kernel's source when GEN_ACLRT names the
 * directory for its header): pointers come as void *. */
template <typename... P, typename... A>
inline aclError LaunchFrom(void (*fn)(P...), const char *name, uint32_t numBlocks, void *stream, A... args)
{
    static_assert(sizeof...(P) == sizeof...(A), "a launch function passes each of the kernel's parameters");
    return Launcher<P...>(fn, name, numBlocks, stream)(static_cast<P>(args)...);
}

} // namespace gocann
} // namespace AscendC

#endif /* GOCANN_ASCENDC_LAUNCH_H_ */
