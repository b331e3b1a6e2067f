/*
 * 25_library: how libascendcl.so finds and binds the runtime it loads.
 *
 * The program defines functions with the names of the core's own symbols;
 * linked with -rdynamic they sit in the global scope ahead of the core,
 * and each aborts: the core must keep calling its own. The test harness
 * also runs this program against copies of the libraries and against a
 * front library whose core cannot be found ("no-core": the first call
 * must fail with ACL_ERROR_INTERNAL_ERROR and say why).
 *
 * Usage: 25_library <libdirect.so> [no-core]
 */
#include "common.h"

#include <stddef.h>

/* Stand-ins for symbols of the core; none may ever run. */
#define STAND_IN(name)                                                                                                 \
    void name(void);                                                                                               \
    void name(void)                                                                                                \
    {                                                                                                              \
        fprintf(stderr, "FAIL: the program's %s ran in place of the runtime's\n", #name);                         \
        abort();                                                                                                   \
    }
STAND_IN(gocann_push_msg)
STAND_IN(gocann_take_msgs)
STAND_IN(gocann_direct_launch)
STAND_IN(gocann_direct_doorbell)
STAND_IN(gocann_go_aclrtLaunchKernel)
STAND_IN(gocann_aclrtLaunchKernel)
STAND_IN(gocann_aclInit)
STAND_IN(gocann_aclrtSetDevice)
STAND_IN(gocann_call_kernel)

static void no_core(void)
{
    aclError rc = aclInit(NULL);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_INTERNAL_ERROR && msg != NULL && strstr(msg, "libgocann_core.so") != NULL,
           "without its core: aclInit -> %d, and the message names libgocann_core.so", rc);
    void *p = NULL;
    EXPECT_CODE(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INTERNAL_ERROR, "without its core: aclrtMalloc");
    EXPECT_CODE(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INTERNAL_ERROR, "without its core: the last error");
    EXPECT(aclDataTypeSize(ACL_INT64) == 8, "without its core: aclDataTypeSize still answers");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <libdirect.so> [no-core]\n", argv[0]);
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "no-core") == 0) {
        no_core();
        printf("PASS 25_library\n");
        return 0;
    }
    void *counter = NULL;
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle count = NULL, trap = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&counter, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(counter, 8, 0, 8));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &count));
    CHECK(aclrtBinaryGetFunction(bin, "trap_now", &trap));
    /* The first launch takes the Go path, the rest the direct one. */
    for (int i = 0; i < 50; i++) {
        CHECK(aclrtLaunchKernel(count, 1, &counter, sizeof counter, s));
    }
    CHECK(aclrtSynchronizeStream(s));
    uint64_t n = read_u64(counter);
    EXPECT(n == 50, "50 launches through both launch paths counted %llu", (unsigned long long)n);

    /* An error records a message, through the core's own helpers. */
    EXPECT_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "an invalid device id");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "aclrtSetDevice") != NULL, "the error message names the call: %s", msg);

    /* Kernels reach GetBlockIdx and Trap through the global scope. */
    CHECK(aclrtLaunchKernel(trap, 1, NULL, 0, s));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "a kernel that calls Trap");
    CHECK(aclrtStreamAbort(s));

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(counter));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclFinalize());
    printf("PASS 25_library\n");
    return 0;
}
