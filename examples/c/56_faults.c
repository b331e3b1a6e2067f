/*
 * 56_faults: kernels whose code faults fail their own task, as an AI
 * core's exception does on the device, and the process goes on. A read of
 * the NULL page, of an inaccessible page, a write to one from one block
 * and from every block at once, a division by zero, an illegal
 * instruction, an Ascend C kernel
 * indexing far past its GlobalTensor and a C++ exception each come back at
 * the stream's synchronization with the AI-core code of the access
 * (ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW / WRITE_OVERFLOW, else
 * ACL_ERROR_RT_AICORE_EXCEPTION), a message naming the kernel, the block
 * and where the address lies, and an exception report; correct work runs
 * on a new stream after each. Then twenty faults in a row, a fault inside
 * a captured model replayed three times, and STOP_ON_FAILURE.
 *
 * With a second argument the program goes on to a fault in its own code,
 * which must end it as it would without the runtime: "own" installs a
 * SIGSEGV handler before aclInit, "late" after aclInit (before the first
 * kernel binary loads), and either must be called (it exits 42);
 * "default" installs none, and the process dies of SIGSEGV.
 *
 * Usage: 56_faults libfaults.so [own|late|default]
 */
#define _GNU_SOURCE
#include "common.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

static aclrtFuncHandle readAt, writeAt, divide, illegal, farIndex, throws, fill;
static aclrtStream s;

/* What the exception callback saw last. */
static pthread_mutex_t exc_mu = PTHREAD_MUTEX_INITIALIZER;
static int exc_calls;
static uint32_t exc_code;
static aclrtFuncHandle exc_func;

static void on_exception(aclrtExceptionInfo *info)
{
    aclrtFuncHandle f = NULL;
    (void)aclrtGetFuncHandleFromExceptionInfo(info, &f);
    pthread_mutex_lock(&exc_mu);
    exc_calls++;
    exc_code = aclrtGetErrorCodeFromExceptionInfo(info);
    exc_func = f;
    pthread_mutex_unlock(&exc_mu);
}

/* launch runs fn on blocks blocks with the argument block args and
 * returns what synchronizing the stream reports. */
static aclError launch(aclrtFuncHandle fn, uint32_t blocks, void *args, size_t size)
{
    clear_errors();
    CHECK(aclrtLaunchKernelWithHostArgs(fn, blocks, s, NULL, args, size, NULL, 0));
    return aclrtSynchronizeStream(s);
}

/* faulted checks that the last launch of fn failed with want, that the
 * thread's message holds each of the NULL-ended parts, and that the
 * exception callback reported it. */
static void faulted(const char *what, aclError rc, aclError want, aclrtFuncHandle fn, ...)
{
    const char *msg = aclGetRecentErrMsg();
    int ok = rc == want && msg != NULL;
    va_list ap;
    va_start(ap, fn);
    for (const char *part; ok && (part = va_arg(ap, const char *)) != NULL;) {
        ok = strstr(msg, part) != NULL;
    }
    va_end(ap);
    EXPECT(ok, "%s fails its task: %d, %s", what, rc, msg ? msg : "(none)");
    pthread_mutex_lock(&exc_mu);
    int calls = exc_calls;
    uint32_t code = exc_code;
    aclrtFuncHandle f = exc_func;
    exc_calls = 0;
    pthread_mutex_unlock(&exc_mu);
    EXPECT(calls >= 1 && code == (uint32_t)want && f == fn, "%s: the exception callback reported %u for the kernel (%d calls)",
           what, code, calls);
}

/* works runs fill on a new stream and checks what it stored. */
static void works(const char *after)
{
    aclrtStream s2 = NULL;
    void *out = NULL;
    uint64_t host[8];
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtMalloc(&out, sizeof host, ACL_MEM_MALLOC_NORMAL_ONLY));
    struct {
        void *out;
        uint64_t v;
    } args = {out, 0xfeed};
    CHECK(aclrtLaunchKernelWithHostArgs(fill, 8, s2, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtSynchronizeStream(s2));
    CHECK(aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    int ok = 1;
    for (int i = 0; i < 8; i++) {
        ok = ok && host[i] == 0xfeed;
    }
    EXPECT(ok, "after %s, a new stream runs correct work", after);
    CHECK(aclrtFree(out));
    CHECK(aclrtDestroyStream(s2));
}

/* page returns 64 pages mapped with prot, kept for the process: an
 * unmapped page would be taken by the next mapping the process makes,
 * and a kernel's stray write would land there. */
static uint64_t page(int prot)
{
    void *p = mmap(NULL, 64 * 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fail_exit(__FILE__, __LINE__, 0, "mmap failed");
    }
    return (uint64_t)(uintptr_t)p;
}

struct rw {
    void *out;
    uint64_t addr;
};
struct wr {
    uint64_t addr, v, stride, odd;
};

static void contained(void *out, void *x)
{
    char want[128];
    struct rw r = {out, 8};
    faulted("reading the NULL page", launch(readAt, 1, &r, sizeof r), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, readAt,
            "kernel \"read_at\" block 0 of 1", "read of address 0x8 faulted (SIGSEGV", "the NULL page", NULL);
    works("reading the NULL page");

    r.addr = page(PROT_NONE);
    snprintf(want, sizeof want, "read of address %#llx faulted", (unsigned long long)r.addr);
    faulted("reading an inaccessible page", launch(readAt, 1, &r, sizeof r), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, readAt, want,
            "in no allocation", NULL);
    works("reading an inaccessible page");

    struct wr w = {r.addr, 1, 0, 0};
    snprintf(want, sizeof want, "write of address %#llx faulted", (unsigned long long)r.addr);
    faulted("writing an inaccessible page", launch(writeAt, 1, &w, sizeof w), ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, writeAt,
            want, NULL);
    works("writing an inaccessible page");

    w.addr = page(PROT_READ);
    w.stride = 4096;
    w.odd = 1;
    faulted("the odd blocks of 8 writing read-only pages", launch(writeAt, 8, &w, sizeof w),
            ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, writeAt, "of 8: write of address", "access not permitted", NULL);
    w.odd = 0;
    faulted("all 48 blocks writing read-only pages at once", launch(writeAt, 48, &w, sizeof w),
            ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, writeAt, "of 48: write of address", NULL);
    works("48 blocks faulting at once");

    struct {
        void *out;
        int64_t a, b;
    } d = {out, 7, 0};
#if defined(__x86_64__)
    faulted("dividing by zero", launch(divide, 1, &d, sizeof d), ACL_ERROR_RT_AICORE_EXCEPTION, divide,
            "kernel \"divide\" block 0 of 1", "SIGFPE, integer division by zero", NULL);
#else
    EXPECT_CODE(launch(divide, 1, &d, sizeof d), ACL_SUCCESS, "dividing by zero (this host's division does not trap)");
#endif
    works("a division by zero");
    faulted("an illegal instruction", launch(illegal, 2, &r, sizeof r), ACL_ERROR_RT_AICORE_EXCEPTION, illegal,
            "kernel \"illegal\" block ", "SIGILL, illegal instruction", NULL);
    works("an illegal instruction");

    size_t freeb = 0, total = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    struct {
        void *x;
        uint64_t i;
    } f = {x, total / sizeof(float)};
    snprintf(want, sizeof want, "past the end of argument 0, the 4096-byte allocation at %p", x);
    faulted("an Ascend C kernel indexing past device memory", launch(farIndex, 1, &f, sizeof f),
            ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, farIndex, "kernel \"far_index\"", want, NULL);
    works("indexing far past a GlobalTensor");

    uint64_t v = 7;
    faulted("a C++ exception", launch(throws, 1, &v, sizeof v), ACL_ERROR_RT_AICORE_EXCEPTION, throws,
            "a C++ exception left the kernel: std::runtime_error: bad tiling 7", NULL);
    works("a C++ exception");
}

/* inARow: twenty faulting launches, each reported by its own
 * synchronization. */
static void inARow(void)
{
    struct rw r = {NULL, 16};
    int reported = 0;
    for (int i = 0; i < 20; i++) {
        clear_errors();
        CHECK(aclrtLaunchKernelWithHostArgs(readAt, 2, s, NULL, &r, sizeof r, NULL, 0));
        reported += aclrtSynchronizeStream(s) == ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW;
    }
    EXPECT(reported == 20, "20 faulting launches in a row each report 507042 (%d did)", reported);
    works("20 faults in a row");
}

/* inModel: a fault in a captured model fails each replay; the kernels
 * before it ran. */
static void inModel(void *out)
{
    aclmdlRI m = NULL;
    struct {
        void *out;
        uint64_t v;
    } a = {out, 3};
    struct rw r = {out, 24};
    CHECK(aclrtMemset(out, 64, 0, 64));
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtLaunchKernelWithHostArgs(fill, 1, s, NULL, &a, sizeof a, NULL, 0));
    CHECK(aclrtLaunchKernelWithHostArgs(readAt, 1, s, NULL, &r, sizeof r, NULL, 0));
    CHECK(aclmdlRICaptureEnd(s, &m));
    int reported = 0;
    for (int i = 0; i < 3; i++) {
        clear_errors();
        CHECK(aclmdlRIExecuteAsync(m, s));
        aclError rc = aclrtSynchronizeStream(s);
        const char *msg = aclGetRecentErrMsg();
        reported += rc == ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW && msg != NULL && strstr(msg, "read of address 0x18") != NULL;
    }
    EXPECT(reported == 3 && read_u64(out) == 3, "a fault in a captured model fails each of 3 replays (%d), after its first kernel ran",
           reported);
    CHECK(aclmdlRIDestroy(m));
    works("faulting model replays");
}

/* stopOnFailure: under ACL_STOP_ON_FAILURE a fault stops the context's
 * streams until they are aborted. */
static void stopOnFailure(void *out)
{
    aclrtStream s3 = NULL;
    CHECK(aclrtCreateStream(&s3));
    CHECK(aclrtSetStreamFailureMode(s3, ACL_STOP_ON_FAILURE));
    struct rw r = {NULL, 32};
    CHECK(aclrtLaunchKernelWithHostArgs(readAt, 1, s3, NULL, &r, sizeof r, NULL, 0));
    EXPECT_CODE(aclrtSynchronizeStream(s3), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, "STOP_ON_FAILURE: the fault is reported");
    aclError rc = aclrtMemsetAsync(out, 8, 0, 8, s);
    EXPECT(rc != ACL_SUCCESS, "STOP_ON_FAILURE: the context's other stream is stopped too, taking no new task (%d)", rc);
    clear_errors();
    CHECK(aclrtStreamAbort(s3));
    CHECK(aclrtStreamAbort(s));
    CHECK(aclrtDestroyStream(s3));
    works("a fault under STOP_ON_FAILURE and the aborts");
}

static void own_handler(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    char line[96];
    int n = snprintf(line, sizeof line, "own handler: signal %d at %p\n", sig, si->si_addr);
    if (write(1, line, (size_t)n) < 0) {
        _exit(43);
    }
    _exit(42);
}

static void install_own(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = own_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s libfaults.so [own|late|default]\n", argv[0]);
        return 2;
    }
    const char *host = argc > 2 ? argv[2] : NULL;
    if (host != NULL && strcmp(host, "own") == 0) {
        install_own();
    }
    aclrtBinHandle bin = NULL;
    void *out = NULL, *x = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    if (host != NULL && strcmp(host, "late") == 0) {
        install_own();
    }
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtExceptionInfoCallbackRegister(on_exception));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "read_at", &readAt));
    CHECK(aclrtBinaryGetFunction(bin, "write_at", &writeAt));
    CHECK(aclrtBinaryGetFunction(bin, "divide", &divide));
    CHECK(aclrtBinaryGetFunction(bin, "illegal", &illegal));
    CHECK(aclrtBinaryGetFunction(bin, "far_index", &farIndex));
    CHECK(aclrtBinaryGetFunction(bin, "throws", &throws));
    CHECK(aclrtBinaryGetFunction(bin, "fill", &fill));
    CHECK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&x, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));

    if (host != NULL) {
        struct rw r = {out, 8};
        EXPECT_CODE(launch(readAt, 1, &r, sizeof r), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                    "a kernel's fault is contained with the program's handler installed");
        printf("host fault next\n");
        fflush(stdout);
        *(volatile uint64_t *)(uintptr_t)page(PROT_NONE) = 1; /* the program's own bug */
        printf("FAIL: the process went on after a fault in its own code\n");
        return 1;
    }

    contained(out, x);
    inARow();
    inModel(out);
    stopOnFailure(out);

    CHECK(aclrtExceptionInfoCallbackUnregister(on_exception));
    CHECK(aclrtFree(out));
    CHECK(aclrtFree(x));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 56_faults\n");
    return 0;
}
