/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Kernel launches written with <<<>>>, in Ascend C sources the compiler
 * driver (bisheng) builds, by hand or for CMake. It rewrites
 *
 *     kernel<<<numBlocks, dynUBufSize, stream>>>(args...)
 *
 * into AscendC::gocann::Launch(kernel, [] {}, "kernel", numBlocks,
 * dynUBufSize, stream)(args...): the kernel's parameter kinds come from
 * its type, each argument goes into an 8-byte slot (a struct passed by
 * value, into as many as its bytes take, through an entry of the launch
 * site's own), and the launch is gocann_linked_launch, an
 * aclrtLaunchKernelWithHostArgs of the kernel's function handle (made at
 * its first launch) that every chip offers. As with CANN's compiler, the launch's value is its
 * code: 0, or why it was refused, which aclrtGetLastError and
 * aclGetRecentErrMsg also tell; a fault is reported when the stream is
 * synchronized. dynUBufSize is not used: a block's unified buffer is
 * always whole. A gang kernel's tag is [] { return flags; }: its
 * gocann_gang.h flags follow its parameters in what the runtime gets.
 * The driver includes this with its prelude; elsewhere include
 * kernel_operator.h.
 */
#ifndef GOCANN_ASCENDC_LAUNCH_H_
#define GOCANN_ASCENDC_LAUNCH_H_

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "../../acl/acl.h"
#include "../kernel.h"
#include "gocann_gang.h"

extern "C" void *gocann_linked_kernel(const void *fn, const char *name, const unsigned char *decl, size_t n);
extern "C" aclError gocann_linked_launch(void *f, uint32_t numBlocks, void *stream, void *args, size_t argsSize);

namespace AscendC {
namespace gocann {

/* Scalar is whether a parameter of type T fits one 8-byte slot the
 * runtime passes as it is: a pointer, an integer, an enum, float, double.
 * Anything else (a tiling struct passed by value) goes through Thunk. */
template <typename T>
constexpr bool Scalar()
{
    using U = std::remove_cv_t<T>;
    return std::is_pointer_v<U> || std::is_same_v<U, float> || std::is_same_v<U, double> ||
           ((std::is_integral_v<U> || std::is_enum_v<U>) && sizeof(U) <= 8);
}

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
    } else {
        return static_cast<unsigned char>(0x20 | sizeof(U));
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

/* Slots is how many 8-byte slots a parameter's bytes take when it goes
 * through Thunk. */
template <typename T>
constexpr size_t Slots()
{
    static_assert(std::is_trivially_copyable_v<T>,
                  "a <<<>>> launch passes pointers, scalars and trivially copyable structs (tiling data) by value");
    return (sizeof(T) + 7) / 8;
}

/* Thunk is the entry the runtime calls for a kernel with a parameter of
 * struct type: the kernel's address in the first slot, then every
 * parameter's bytes laid out in 8-byte slots, which it puts back together
 * before it calls the kernel. Tag is the launch site's own type (a
 * lambda's), so each site has its own entry, function handle and name. */
template <typename Tag, typename Sig, typename Seq>
struct Thunk;

template <typename Tag, typename... P, size_t... I>
struct Thunk<Tag, void (*)(P...), std::index_sequence<I...>> {
    static constexpr size_t kSlots = sizeof...(I);

    static void Entry(void (*fn)(P...), decltype(I, uint64_t())... s)
    {
        const uint64_t slots[kSlots + 1] = {s..., 0};
        Call(fn, slots, std::index_sequence_for<P...>());
    }

    /* Pack lays the arguments into slots, as Entry reads them. */
    static void Pack(uint64_t *slots, const P &...args)
    {
        size_t at = 0;
        ((memcpy(slots + at, &args, sizeof(P)), at += Slots<P>()), ...);
    }

private:
    template <size_t... J>
    static void Call(void (*fn)(P...), const uint64_t *slots, std::index_sequence<J...>)
    {
        constexpr size_t sizes[] = {Slots<P>()..., 0};
        size_t offsets[sizeof...(P) + 1] = {};
        for (size_t k = 0; k < sizeof...(P); k++) {
            offsets[k + 1] = offsets[k] + sizes[k];
        }
        fn(Read<P>(slots + offsets[J])...);
    }

    template <typename T>
    static T Read(const uint64_t *at)
    {
        alignas(T) unsigned char bytes[sizeof(T)];
        memcpy(bytes, at, sizeof(T));
        return *std::launder(reinterpret_cast<T *>(bytes));
    }
};

/* FlagsOf is the kernel's gocann_gang.h flags a launch site's tag holds:
 * the driver writes [] { return flags; } for a gang kernel, [] {} for the
 * others. */
template <typename Tag>
inline unsigned char FlagsOf(Tag tag)
{
    if constexpr (std::is_invocable_r_v<int, Tag>) {
        return static_cast<unsigned char>(tag());
    } else {
        return 0;
    }
}

/* Launcher is one <<<>>> launch, waiting for its arguments. */
template <typename Tag, typename... P>
class Launcher {
public:
    Launcher(void (*fn)(P...), const char *name, uint32_t blockDim, void *stream, unsigned char flags = 0)
        : fn_(fn), name_(name), blockDim_(blockDim), stream_(stream), flags_(flags)
    {
    }

    /* The launch; its value is the launch's code. */
    aclError operator()(P... args) const
    {
        if constexpr ((Scalar<P>() && ...)) {
            static const unsigned char decl[] = {'G', Kind<P>()...};
            uint64_t slots[sizeof...(P) + 1] = {Slot<P>(args)..., 0};
            return Run(reinterpret_cast<const void *>(fn_), decl, sizeof decl, slots, sizeof...(P));
        } else {
            using T = Thunk<Tag, void (*)(P...), std::make_index_sequence<(Slots<P>() + ... + 0)>>;
            static_assert(T::kSlots < 64, "a <<<>>> launch passes at most 504 bytes of arguments");
            static const auto decl = [] {
                struct {
                    unsigned char b[T::kSlots + 2];
                } d{};
                d.b[0] = 'G';
                d.b[1] = GOCANN_PARAM_PTR;
                for (size_t i = 2; i < sizeof d.b; i++) {
                    d.b[i] = GOCANN_PARAM_INT64;
                }
                return d;
            }();
            uint64_t slots[T::kSlots + 1] = {Slot(fn_)};
            T::Pack(slots + 1, args...);
            return Run(reinterpret_cast<const void *>(&T::Entry), decl.b, sizeof decl.b, slots, T::kSlots + 1);
        }
    }

private:
    aclError Run(const void *entry, const unsigned char *decl, size_t n, uint64_t *slots, size_t count) const
    {
        unsigned char marked[72];
        if (flags_ != 0 && n + 2 <= sizeof marked) {
            /* A gang kernel's declaration ends with a 0 and its flags. */
            memcpy(marked, decl, n);
            marked[n] = 0;
            marked[n + 1] = flags_;
            decl = marked;
            n += 2;
        }
        void *f = gocann_linked_kernel(entry, name_, decl, n);
        if (f == nullptr) {
            return aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        }
        return gocann_linked_launch(f, blockDim_, stream_, slots, count * sizeof(uint64_t));
    }

    void (*fn_)(P...);
    const char *name_;
    uint32_t blockDim_;
    void *stream_;
    unsigned char flags_;
};

/* Launch is a launch's configuration: the kernel, the launch site's tag
 * (an empty lambda), the kernel's name, numBlocks, then dynUBufSize (the
 * dynamic unified buffer's bytes, a number or a pointer as older launches
 * pass it: the unified buffer here is the block's whole), then the
 * stream. */
template <typename Tag, typename D, typename... P>
inline Launcher<Tag, P...> Launch(void (*fn)(P...), Tag tag, const char *name, uint32_t numBlocks, D dynUBufSize,
                                  void *stream)
{
    (void)dynUBufSize;
    return Launcher<Tag, P...>(fn, name, numBlocks, stream, FlagsOf(tag));
}

/* LaunchFrom is the launch an aclrtlaunch_<kernel> function makes (the
 * driver writes it into the kernel's source when GEN_ACLRT names the
 * directory for its header): pointers come as void *. */
template <typename Tag, typename... P, typename... A>
inline aclError LaunchFrom(void (*fn)(P...), Tag tag, const char *name, uint32_t numBlocks, void *stream, A... args)
{
    static_assert(sizeof...(P) == sizeof...(A), "a launch function passes each of the kernel's parameters");
    return Launcher<Tag, P...>(fn, name, numBlocks, stream, FlagsOf(tag))(static_cast<P>(args)...);
}

} // namespace gocann
} // namespace AscendC

#endif /* GOCANN_ASCENDC_LAUNCH_H_ */
