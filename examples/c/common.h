/*
 * Checking helpers shared by the C example programs.
 *
 * Every check prints one line: "ok: <what>" when it holds. The first check
 * that fails prints "FAIL: <what>" with the CANN code and the thread's
 * aclGetRecentErrMsg() text, and the program exits with status 1. A program
 * that gets to its end prints "PASS <program>" and exits with status 0.
 */
#ifndef GOCANN_EXAMPLES_COMMON_H
#define GOCANN_EXAMPLES_COMMON_H

/* Include this header first: it asks for POSIX (clocks, threads) under
 * -std=c11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

__attribute__((format(printf, 4, 5), noreturn)) static inline void
fail_exit(const char *file, int line, aclError code, const char *fmt, ...)
{
    va_list ap;
    const char *msg = aclGetRecentErrMsg();
    fflush(stdout);
    fprintf(stderr, "FAIL: %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  CANN code: %d\n  aclGetRecentErrMsg: %s\n", code, msg ? msg : "(none)");
    printf("FAIL\n");
    fflush(stdout);
    exit(1);
}

__attribute__((format(printf, 1, 2))) static inline void pass(const char *fmt, ...)
{
    va_list ap;
    printf("ok: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

__attribute__((format(printf, 4, 5), noreturn)) static inline void
expect_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    char what[512];
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fail_exit(file, line, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), "%s: condition %s does not hold", what, cond);
}

/* CHECK(call): the call must succeed. */
#define CHECK(call)                                                            \
    do {                                                                       \
        aclError check_rc_ = (call);                                           \
        if (check_rc_ != ACL_SUCCESS) {                                        \
            fail_exit(__FILE__, __LINE__, check_rc_, "%s returned %d", #call,  \
                      check_rc_);                                              \
        }                                                                      \
    } while (0)

/* EXPECT_CODE(call, want, what): the call must return want; prints a line. */
#define EXPECT_CODE(call, want, what)                                          \
    do {                                                                       \
        aclError check_rc_ = (call);                                           \
        if (check_rc_ != (aclError)(want)) {                                   \
            fail_exit(__FILE__, __LINE__, check_rc_,                           \
                      "%s: %s returned %d, expected %d", what, #call,          \
                      check_rc_, (int)(want));                                 \
        }                                                                      \
        pass("%s (%s -> %d)", what, #call, (int)(want));                        \
    } while (0)

/* EXPECT(cond, fmt, ...): a condition on results; prints a line. */
#define EXPECT(cond, ...)                                                      \
    do {                                                                       \
        if (!(cond)) {                                                         \
            expect_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);               \
        }                                                                      \
        pass(__VA_ARGS__);                                                     \
    } while (0)

/* clear_errors drops the thread's pending error state so a later check
 * sees only what it caused. */
static inline void clear_errors(void)
{
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    (void)aclGetRecentErrMsg();
}

/* now_ms is a monotonic clock in milliseconds. */
static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* sleep_ms sleeps the calling thread. */
static inline void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* write_file writes text to path, for aclInit configurations. */
static inline void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "cannot write %s", path);
    }
}

/* init_chip initializes the runtime on the simulated chip soc, through
 * the configuration file it writes to file, and sets device 0. */
static inline void init_chip(const char *file, const char *soc)
{
    char json[128];
    snprintf(json, sizeof json, "{\"simulator\": {\"soc_name\": \"%s\"}}\n", soc);
    write_file(file, json);
    CHECK(aclInit(file));
    CHECK(aclrtSetDevice(0));
}

/* REFUSE(call, want, sub, what): the call must return want with a
 * message containing sub; prints a line. */
#define REFUSE(call, want, sub, what)                                                                         \
    do {                                                                                                      \
        clear_errors();                                                                                       \
        aclError r_ = (call);                                                                                 \
        const char *m_ = aclGetRecentErrMsg();                                                                \
        EXPECT(r_ == (aclError)(want) && m_ != NULL && strstr(m_, (sub)) != NULL, "%s -> %d: %s", (what), r_, \
               m_ ? m_ : "(none)");                                                                           \
    } while (0)

/* read_u64 / write_u64: a 64-bit word of device memory, synchronously. */
static inline uint64_t read_u64(const void *dev)
{
    uint64_t v = 0;
    CHECK(aclrtMemcpy(&v, sizeof v, dev, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

static inline void write_u64(void *dev, uint64_t v)
{
    CHECK(aclrtMemcpy(dev, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE));
}

/* run_peak launches the peak kernel (kernels/kernels.c) with 48 blocks on
 * st and returns how many of them ran at once. */
static inline int64_t run_peak(aclrtFuncHandle peak, aclrtStream st)
{
    void *w = NULL;
    int64_t h[3];
    CHECK(aclrtMalloc(&w, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(w, sizeof h, 0, sizeof h));
    void *args[1] = {&w};
    CHECK(aclrtLaunchKernelWithArgsArray(peak, 48, st, NULL, args));
    CHECK(aclrtSynchronizeStream(st));
    CHECK(aclrtMemcpy(h, sizeof h, w, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtFree(w));
    EXPECT(h[2] == 48 && h[0] == 0, "peak: all 48 blocks ran (%lld)", (long long)h[2]);
    return h[1];
}

#endif /* GOCANN_EXAMPLES_COMMON_H */
