/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * utils/debug/asc_assert.h: ascendc_assert(expr[, fmt, args...]). When
 * expr is false, the block prints the assertion as the device does,
 *
 *     [ASSERT] file:line: Assertion `expr' <fmt with args>
 *
 * (with the block's printf prefix) and stops with an AI core trap naming
 * it, which fails the launch; the other blocks and the process go on.
 * kernel_operator.h includes it.
 */
#ifndef GOCANN_ASCENDC_UTILS_DEBUG_ASC_ASSERT_H_
#define GOCANN_ASCENDC_UTILS_DEBUG_ASC_ASSERT_H_

#include <cstdio>

#include "../../gocann_tensor.h"

namespace AscendC {
namespace gocann {

[[noreturn]] inline void AssertFailed(const char *expr, const char *file, int line)
{
    ::gocann_kernel_printf("[ASSERT] %s:%d: Assertion `%s'\n", file, line, expr);
    Fail("ascendc_assert: %s:%d: Assertion `%s' failed", file, line, expr);
}

template <class... Args>
[[noreturn]] inline void AssertFailed(const char *expr, const char *file, int line, const char *fmt, Args... args)
{
    char text[512];
    snprintf(text, sizeof text, fmt, args...);
    ::gocann_kernel_printf("[ASSERT] %s:%d: Assertion `%s' %s", file, line, expr, text);
    Fail("ascendc_assert: %s:%d: Assertion `%s' failed", file, line, expr);
}

} // namespace gocann
} // namespace AscendC

#define ascendc_assert(expr, ...)                                                                        \
    ((expr) ? static_cast<void>(0)                                                                       \
            : ::AscendC::gocann::AssertFailed(#expr, __FILE__, __LINE__ __VA_OPT__(, ) __VA_ARGS__))

#endif
