/*
 * 28_multidevice: the guide's rules for streams and events of several
 * devices ("Stream和Event的行为"), with the calling thread's current device:
 * work queued on another device's stream is refused, events and streams of
 * different devices do not mix in records and waits, while waiting for or
 * querying another device's event works; switching devices keeps each
 * device's default context and stream; a reset that leaves the device set
 * keeps the thread's device. Runs on four devices. Takes libvadd.so.
 */
#include "common.h"

#define NDEV 4
#define N 1024

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libvadd.so\n", argv[0]);
        return 2;
    }
    write_file("28_multidevice.json", "{\"simulator\": {\"devices\": 4, \"hbm_size\": 1073741824}}");
    CHECK(aclInit("28_multidevice.json"));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    EXPECT(count == NDEV, "aclrtGetDeviceCount = %u on the configured four devices", count);

    aclrtContext def[NDEV];
    aclrtStream defStream[NDEV], s[NDEV];
    aclrtEvent ev[NDEV];
    void *mem[NDEV];
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle vadd = NULL;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
    for (int d = 0; d < NDEV; d++) {
        CHECK(aclrtSetDevice(d));
        CHECK(aclrtGetCurrentContext(&def[d]));
        CHECK(aclrtCtxGetCurrentDefaultStream(&defStream[d]));
        CHECK(aclrtCreateStream(&s[d]));
        CHECK(aclrtCreateEvent(&ev[d]));
        CHECK(aclrtMalloc(&mem[d], 4 * N, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemsetAsync(mem[d], 4 * N, 0, 4 * N, s[d]));
        CHECK(aclrtRecordEvent(ev[d], s[d]));
    }
    pass("each of the four devices has its stream, event and memory");

    /* Device 0's argument block for aclrtLaunchKernel, in its memory. */
    void *dargs = NULL;
    {
        struct { void *x, *y, *z; uint64_t n; } a0 = {mem[0], mem[0], mem[0], N};
        CHECK(aclrtSetDevice(0));
        CHECK(aclrtMalloc(&dargs, sizeof a0, ACL_MEM_MALLOC_NORMAL_ONLY));
        CHECK(aclrtMemcpy(dargs, sizeof a0, &a0, sizeof a0, ACL_MEMCPY_HOST_TO_DEVICE));
    }

    /* Switching back keeps each device's default context and stream. */
    for (int d = 0; d < NDEV; d++) {
        aclrtContext c = NULL;
        aclrtStream ds = NULL;
        int32_t dev = -1;
        CHECK(aclrtSetDevice(d));
        CHECK(aclrtGetCurrentContext(&c));
        CHECK(aclrtCtxGetCurrentDefaultStream(&ds));
        CHECK(aclrtGetDevice(&dev));
        EXPECT(c == def[d] && ds == defStream[d] && dev == d,
               "aclrtSetDevice(%d) again: the same default context and stream", d);
    }

    /* The current device is 3: work on device 0's stream is refused. */
    struct { void *x, *y, *z; uint64_t n; } args = {mem[0], mem[0], mem[0], N};
    unsigned char host[16] = {0};
    EXPECT_CODE(aclrtMemcpyAsync(mem[0], 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, s[0]), ACL_ERROR_RT_STREAM_CONTEXT,
                "aclrtMemcpyAsync on device 0's stream with device 3 current");
    {
        const char *msg = aclGetRecentErrMsg();
        EXPECT(msg != NULL && strstr(msg, "of device 0, not to the thread's current context (device 3)") != NULL,
               "the refusal names both devices");
    }
    EXPECT_CODE(aclrtMemsetAsync(mem[0], 16, 1, 16, s[0]), ACL_ERROR_RT_STREAM_CONTEXT,
                "aclrtMemsetAsync on device 0's stream with device 3 current");
    EXPECT_CODE(aclrtLaunchKernelWithHostArgs(vadd, 2, s[0], NULL, &args, sizeof args, NULL, 0), ACL_ERROR_RT_STREAM_CONTEXT,
                "a kernel launch on device 0's stream with device 3 current");
    EXPECT_CODE(aclrtLaunchKernel(vadd, 2, dargs, sizeof args, s[0]), ACL_ERROR_RT_STREAM_CONTEXT,
                "aclrtLaunchKernel on device 0's stream with device 3 current");
    EXPECT_CODE(aclrtRecordEvent(ev[0], s[0]), ACL_ERROR_RT_STREAM_CONTEXT,
                "aclrtRecordEvent on device 0's stream with device 3 current");
    /* Events and streams of different devices. */
    EXPECT_CODE(aclrtRecordEvent(ev[0], s[3]), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtRecordEvent of device 0's event on device 3's stream");
    EXPECT_CODE(aclrtStreamWaitEvent(s[3], ev[1]), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtStreamWaitEvent of device 1's event on device 3's stream");
    EXPECT_CODE(aclrtStreamWaitEvent(NULL, ev[2]), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtStreamWaitEvent of device 2's event on device 3's default stream");
    /* Waiting for and querying another device's event work. */
    for (int d = 0; d < NDEV - 1; d++) {
        aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        CHECK(aclrtSynchronizeEvent(ev[d]));
        CHECK(aclrtQueryEventStatus(ev[d], &st));
        EXPECT(st == ACL_EVENT_RECORDED_STATUS_COMPLETE,
               "aclrtSynchronizeEvent and aclrtQueryEventStatus of device %d's event with device 3 current", d);
    }

    /* Back on device 0 its stream takes the same work again. */
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtMemcpyAsync(mem[0], 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, s[0]));
    CHECK(aclrtLaunchKernelWithHostArgs(vadd, 2, s[0], NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtLaunchKernel(vadd, 2, dargs, sizeof args, s[0]));
    CHECK(aclrtRecordEvent(ev[0], s[0]));
    CHECK(aclrtStreamWaitEvent(s[0], ev[0]));
    CHECK(aclrtSynchronizeStream(s[0]));
    pass("with device 0 current again, its stream takes copies, launches and records");

    /* A reset that leaves a reference keeps the thread's device and
     * context; the last one clears them. Device 0 is set four times now. */
    aclrtContext c = NULL;
    int32_t dev = -1;
    for (int i = 0; i < 3; i++) {
        CHECK(aclrtResetDevice(0));
    }
    CHECK(aclrtGetDevice(&dev));
    CHECK(aclrtGetCurrentContext(&c));
    EXPECT(dev == 0 && c == def[0], "after 3 of 4 aclrtResetDevice(0): aclrtGetDevice = %d, same context", dev);
    CHECK(aclrtMemsetAsync(mem[0], 16, 2, 16, NULL));
    CHECK(aclrtSynchronizeStream(NULL));
    pass("the default stream still works then");
    CHECK(aclrtFree(mem[0]));
    CHECK(aclrtFree(dargs));
    CHECK(aclrtDestroyEvent(ev[0]));
    CHECK(aclrtDestroyStream(s[0]));
    CHECK(aclrtResetDevice(0));
    EXPECT_CODE(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "after the last aclrtResetDevice(0) the thread has no device");

    /* A reset of the current device that leaves it set keeps it current. */
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtSetDevice(2));
    CHECK(aclrtResetDevice(2));
    CHECK(aclrtGetDevice(&dev));
    EXPECT(dev == 2, "aclrtResetDevice(2) leaving a reference keeps device %d current", dev);
    CHECK(aclrtResetDevice(1)); /* device 1 still has one reference: nothing changes */
    CHECK(aclrtGetDevice(&dev));
    EXPECT(dev == 2, "aclrtResetDevice of a device not current keeps the current one (%d)", dev);

    for (int d = 1; d < NDEV; d++) {
        CHECK(aclrtSetDevice(d));
        CHECK(aclrtSynchronizeStream(s[d]));
        CHECK(aclrtFree(mem[d]));
        CHECK(aclrtDestroyEvent(ev[d]));
        CHECK(aclrtDestroyStream(s[d]));
    }
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclFinalize());
    printf("PASS 28_multidevice\n");
    return 0;
}
