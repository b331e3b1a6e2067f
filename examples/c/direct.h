/*
 * Shared by the programs that check the direct launch path (19_direct,
 * 20_direct_refusals): a device log that one-block kernels append to, the
 * four launch calls the path serves, a notify that holds a stream busy,
 * and the checks of refused calls.
 */
#ifndef GOCANN_EXAMPLES_DIRECT_H
#define GOCANN_EXAMPLES_DIRECT_H

#include "common.h"

#define LOG_CAP 10000 /* entries of the device log */
#define THREADS 8

static aclrtFuncHandle appendFn, countFn, trapFn;
static aclrtContext ctxA;
static aclrtNotify hold_n; /* holds a stream of ctxA until recorded */
static aclrtStream releaser; /* a stream of ctxA that records hold_n */
static uint64_t *logDev, *countDev; /* the device log and its entry count */
static uint64_t hostLog[LOG_CAP];

/* append_log's argument block: four 8-byte slots. */
struct append_args {
    void *log, *count;
    uint64_t value, cap;
};

/* Launches f with the argument block args on s through one of the calls
 * the direct path serves, chosen by how: 0 aclrtLaunchKernel, 1
 * aclrtLaunchKernelV2 with no cfg, 2 aclrtLaunchKernelV2 with a cfg of no
 * attributes, 3 aclrtLaunchKernelWithHostArgs. Callers keep the block on
 * the stack: each call must take its copy before returning. */
static inline aclError launch_via(aclrtFuncHandle f, void *args, size_t size, aclrtStream s, int how)
{
    aclrtLaunchKernelCfg none = {NULL, 0};
    switch (how & 3) {
    case 0:
        return aclrtLaunchKernel(f, 1, args, size, s);
    case 1:
        return aclrtLaunchKernelV2(f, 1, args, size, NULL, s);
    case 2:
        return aclrtLaunchKernelV2(f, 1, args, size, &none, s);
    default:
        return aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, args, size, NULL, 0);
    }
}

/* Launches append_log(log, count, value) on s through call how. */
static inline aclError append_via(aclrtStream s, uint64_t value, int how)
{
    struct append_args a = {logDev, countDev, value, LOG_CAP};
    return launch_via(appendFn, &a, sizeof a, s, how);
}

static inline aclError append(aclrtStream s, uint64_t value) { return append_via(s, value, (int)(value & 3)); }

/* Launches count_up(counter) on s through call how. */
static inline aclError count_via(aclrtStream s, uint64_t *counter, int how)
{
    void *slot = counter;
    return launch_via(countFn, &slot, sizeof slot, s, how);
}

/* Clears the log and its count (synchronously; no stream is running). */
static inline void reset_log(void)
{
    CHECK(aclrtMemset(logDev, LOG_CAP * 8, 0, LOG_CAP * 8));
    write_u64(countDev, 0);
}

/* Checks the log holds exactly n entries first, first+1, ..., with
 * synchronous copies (which do not wait for any stream). */
static inline void check_log(const char *what, uint64_t n, uint64_t first)
{
    uint64_t count = read_u64(countDev);
    if (count != n) {
        fail_exit(__FILE__, __LINE__, 0, "%s: the log has %llu entries, expected %llu", what, (unsigned long long)count,
                  (unsigned long long)n);
    }
    long bad = -1;
    if (n > 0) {
        CHECK(aclrtMemcpy(hostLog, n * 8, logDev, n * 8, ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint64_t i = 0; i < n && bad < 0; i++) {
            if (hostLog[i] != first + i) {
                bad = (long)i;
            }
        }
    }
    if (bad >= 0) {
        fail_exit(__FILE__, __LINE__, 0, "%s: entry %ld is %llu, expected %llu", what, bad, (unsigned long long)hostLog[bad],
                  (unsigned long long)(first + (uint64_t)bad));
    }
    pass("%s: %llu entries, %llu..%llu in order", what, (unsigned long long)n, (unsigned long long)first,
         (unsigned long long)(first + n - 1));
}

/* hold queues a wait for hold_n on s: s runs nothing after it until
 * release records hold_n on another stream of ctxA. */
static inline void hold(aclrtStream s) { CHECK(aclrtWaitAndResetNotify(hold_n, s, 0)); }

static inline void release(void) { CHECK(aclrtRecordNotify(hold_n, releaser)); }

static inline aclrtStreamStatus status_of(aclrtStream s)
{
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    CHECK(aclrtStreamQuery(s, &st));
    return st;
}

static inline void sleep_host(void *arg) { sleep_ms((long)(intptr_t)arg); }

/* expect_refused: a call refused with code want whose message (the
 * thread's aclGetRecentErrMsg) names param. */
static inline void expect_refused(const char *file, int line, aclError rc, aclError want, const char *param, const char *what)
{
    /* A copy: fail_exit asks for the messages again, which frees these. */
    char buf[4096];
    const char *got = aclGetRecentErrMsg();
    const char *msg = got ? buf : NULL;
    if (got != NULL) {
        snprintf(buf, sizeof buf, "%s", got);
    }
    if (rc != want) {
        fail_exit(file, line, rc, "%s: returned %d, expected %d (message: %s)", what, rc, (int)want, msg ? msg : "(null)");
    }
    if (msg == NULL || strstr(msg, param) == NULL) {
        fail_exit(file, line, rc, "%s: aclGetRecentErrMsg does not name %s: %s", what, param, msg ? msg : "(null)");
    }
    pass("%s -> %d, and the message names %s", what, (int)want, param);
}

#define REFUSED(call, want, param, what)                                       \
    do {                                                                       \
        clear_errors();                                                        \
        aclError refused_rc_ = (call);                                         \
        expect_refused(__FILE__, __LINE__, refused_rc_, (want), (param), (what)); \
    } while (0)

/* direct_open initializes the runtime on device 0 with stream s, loads the
 * kernels and launches each function once on the idle stream s: a function
 * goes direct once it has been launched. */
static inline aclrtBinHandle direct_open(const char *kernels, aclrtStream *s)
{
    aclrtBinHandle bin = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&ctxA));
    CHECK(aclrtCreateStream(s));
    CHECK(aclrtCreateStream(&releaser));
    CHECK(aclrtCreateNotify(&hold_n, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "append_log", &appendFn));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &countFn));
    CHECK(aclrtBinaryGetFunction(bin, "trap_now", &trapFn));
    CHECK(aclrtMalloc((void **)&logDev, LOG_CAP * 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&countDev, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    reset_log();
    CHECK(append(*s, 0));
    CHECK(count_via(*s, countDev, 0));
    CHECK(aclrtSynchronizeStream(*s));
    EXPECT(read_u64(countDev) == 2, "a first launch of each function on an idle stream");
    return bin;
}

/* direct_close undoes direct_open. */
static inline void direct_close(aclrtBinHandle bin, aclrtStream s)
{
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(logDev));
    CHECK(aclrtFree(countDev));
    CHECK(aclrtDestroyNotify(hold_n));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(releaser));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

#endif
