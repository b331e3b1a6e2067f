/*
 * 24_fork: processes that fork around the runtime. Linking libascendcl.so
 * starts nothing: a child forked before the first runtime call uses the
 * runtime as any process does. A child forked after the runtime started in
 * its parent cannot use it (its threads do not survive fork): every call
 * fails at once with ACL_ERROR_RT_FEATURE_NOT_SUPPORT, and the parent goes
 * on unharmed.
 *
 * Usage: 24_fork <libdirect.so>
 */
#include "common.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* maps_has reports whether this process has a mapping of a file whose
 * name contains name. */
static int maps_has(const char *name)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read /proc/self/maps");
    }
    while (!found && fgets(line, sizeof line, f) != NULL) {
        found = strstr(line, name) != NULL;
    }
    fclose(f);
    return found;
}

/* threads returns the number of threads of this process. */
static int threads(void)
{
    char line[256];
    int n = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read /proc/self/status");
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "Threads: %d", &n) == 1) {
            break;
        }
    }
    fclose(f);
    return n;
}

/* wait_child waits up to limit_ms for pid and returns its exit status, or
 * kills it and fails the check named what. */
static int wait_child(pid_t pid, double limit_ms, const char *what)
{
    double start = now_ms();
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            break;
        }
        if (r < 0 || now_ms() - start > limit_ms) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fail_exit(__FILE__, __LINE__, 0, "%s: the child did not finish within %.0f ms", what, limit_ms);
        }
        sleep_ms(5);
    }
    if (!WIFEXITED(status)) {
        fail_exit(__FILE__, __LINE__, 0, "%s: the child died with signal %d", what, WTERMSIG(status));
    }
    return WEXITSTATUS(status);
}

/* use_runtime is a whole program's use of the runtime: a copy to the
 * device and back, a memset on a stream, and a launch counted by the
 * kernel. Checks print as they pass; a failure exits. */
static void use_runtime(const char *who, const char *kernels)
{
    enum { N = 1 << 16 };
    static uint8_t in[N], out[N];
    void *dev = NULL, *counter = NULL;
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle count = NULL;
    for (int i = 0; i < N; i++) {
        in[i] = (uint8_t)(i * 7 + 3);
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&counter, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dev, N, in, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(out, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(in, out, N) == 0, "%s: 64 KiB copied to the device and back", who);
    CHECK(aclrtMemsetAsync(counter, 8, 0, 8, s));
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &count));
    for (int i = 0; i < 100; i++) {
        CHECK(aclrtLaunchKernel(count, 1, &counter, sizeof counter, s));
    }
    CHECK(aclrtSynchronizeStream(s));
    uint64_t n = read_u64(counter);
    EXPECT(n == 100, "%s: 100 kernel launches counted %llu", who, (unsigned long long)n);
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(counter));
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

/* refused_in_child runs in a child forked after the runtime started: every
 * call fails at once, the pure helpers still answer, and nothing touches
 * the parent's objects (a launch with the parent's handles is refused too,
 * not written into the copy of its queue). Exit status 0 when all held. */
static int refused_in_child(aclrtFuncHandle f, aclrtStream s, void *counter)
{
    const int no = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    double start = now_ms();
    aclrtStream s2 = NULL;
    void *p = NULL;
    int32_t dev = -1;
    int bad = 0;
    bad |= aclInit(NULL) != no;
    bad |= aclrtSetDevice(0) != no;
    bad |= aclrtGetDevice(&dev) != no;
    bad |= aclrtCreateStream(&s2) != no || s2 != NULL;
    bad |= aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) != no || p != NULL;
    bad |= aclrtLaunchKernel(f, 1, &counter, sizeof counter, s) != no;
    bad |= aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, &counter, sizeof counter, NULL, 0) != no;
    bad |= aclrtSynchronizeStream(s) != no;
    bad |= aclrtCreateStreamConfigHandle() != NULL;
    bad |= aclrtGetSocName() != NULL;
    bad |= aclrtGetLastError(ACL_RT_THREAD_LEVEL) != no;
    const char *msg = aclGetRecentErrMsg();
    bad |= msg == NULL || strstr(msg, "forked") == NULL || strstr(msg, "aclrtLaunchKernel failed: 207000") == NULL;
    bad |= aclDataTypeSize(ACL_FLOAT16) != 2;
    bad |= aclFloat16ToFloat(aclFloatToFloat16(1.5f)) != 1.5f;
    bad |= now_ms() - start > 2000; /* nothing waited on the lost threads */
    if (bad) {
        fprintf(stderr, "child: unexpected results; recent message: %s\n", msg ? msg : "(none)");
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <libdirect.so>\n", argv[0]);
        return 2;
    }
    const char *kernels = argv[1];

    /* Nothing has started: no core mapped, one thread. */
    EXPECT(!maps_has("libgocann_core.so") && threads() == 1,
           "before the first call the runtime is not loaded (one thread, no core mapped)");

    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        const char *soc = aclrtGetSocName(); /* first call, before aclInit */
        EXPECT(soc != NULL && strncmp(soc, "Ascend", 6) == 0, "child forked before the first call: aclrtGetSocName = %s", soc);
        use_runtime("child forked before the first call", kernels);
        fflush(stdout);
        _exit(0);
    }
    EXPECT(wait_child(pid, 60000, "child forked before the first call") == 0,
           "a child forked before the first runtime call used the runtime and exited 0");

    /* The parent starts the runtime itself afterwards. */
    use_runtime("parent after its child", kernels);
    EXPECT(maps_has("libgocann_core.so"), "the first call loaded the core");

    /* Started: a child now cannot use it. */
    void *counter = NULL;
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle count = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&counter, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(counter, 8, 0, 8));
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &count));
    /* Numbered by a first launch, so later launches of it go direct. */
    CHECK(aclrtLaunchKernel(count, 1, &counter, sizeof counter, s));
    CHECK(aclrtSynchronizeStream(s));

    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        _exit(refused_in_child(count, s, counter));
    }
    EXPECT(wait_child(pid, 30000, "child forked after the runtime started") == 0,
           "a child forked after the runtime started: every call -> 207000 at once, the message says why, "
           "aclDataTypeSize and the float16 conversions still answer");

    for (int i = 0; i < 9; i++) {
        CHECK(aclrtLaunchKernel(count, 1, &counter, sizeof counter, s));
    }
    CHECK(aclrtSynchronizeStream(s));
    uint64_t n = read_u64(counter);
    EXPECT(n == 10, "the parent's stream ran its launches, and none of the child's (counter %llu)", (unsigned long long)n);

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(counter));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 24_fork\n");
    return 0;
}
