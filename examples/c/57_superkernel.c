/*
 * 57_superkernel: SuperKernels, a gocann extension (gocann/superkernel.h).
 *
 * The kernel launches a capturing stream queues between
 * gocannSuperKernelBegin and gocannSuperKernelEnd become one kernel task
 * of the model: one task to aclmdlRIGetTasksByStream, of type KERNEL, and
 * the debug print lists its sub-kernels. Each run calls the sub-kernels in
 * order with a barrier between them, so the second one's block j reads
 * what the first one's block j + 1 wrote, whatever the block counts; 1000
 * replays keep it so. Every misuse is refused, naming what.
 *
 * Usage: 57_superkernel <kernel binary with sk_fill and sk_shift>
 */
#include "common.h"

#include <gocann/superkernel.h>

static aclrtStream s;
static aclrtFuncHandle fill, shift;

static aclError launch_fill(void *out, uint32_t blocks, int64_t base)
{
    void *args[2] = {&out, &base};
    return aclrtLaunchKernelWithArgsArray(fill, blocks, s, NULL, args);
}

static aclError launch_shift(void *in, void *out, uint32_t blocks)
{
    void *args[2] = {&in, &out};
    return aclrtLaunchKernelWithArgsArray(shift, blocks, s, NULL, args);
}

/* capture_pair captures sk_fill of nf blocks then sk_shift of ns blocks as
 * one SuperKernel. */
static aclmdlRI capture_pair(void *a, void *b, uint32_t nf, uint32_t ns)
{
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(gocannSuperKernelBegin(s, "fill_shift"));
    CHECK(launch_fill(a, nf, 100));
    CHECK(launch_shift(a, b, ns));
    CHECK(gocannSuperKernelEnd(s));
    CHECK(aclmdlRICaptureEnd(s, &m));
    return m;
}

static int shifted(void *b, uint32_t ns)
{
    int64_t out[64];
    CHECK(aclrtMemcpy(out, sizeof out, b, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t j = 0; j < ns; j++) {
        if (out[j] != 100 + (int64_t)j + 1) {
            printf("block %u read %lld, want %lld\n", j, (long long)out[j], (long long)(100 + j + 1));
            return 0;
        }
    }
    return 1;
}

static void ordering(void *a, void *b)
{
    static const uint32_t counts[][2] = {{2, 1}, {4, 3}, {8, 7}, {5, 2}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        uint32_t nf = counts[i][0], ns = counts[i][1];
        CHECK(aclrtMemset(a, 512, 0, 512));
        CHECK(aclrtMemset(b, 512, 0, 512));
        aclmdlRI m = capture_pair(a, b, nf, ns);
        aclrtStream streams[4];
        uint32_t n = 4;
        CHECK(aclmdlRIGetStreams(m, streams, &n));
        aclmdlRITask tasks[4];
        uint32_t nt = 4;
        CHECK(aclmdlRIGetTasksByStream(streams[0], tasks, &nt));
        aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
        CHECK(aclmdlRITaskGetType(tasks[0], &type));
        EXPECT(nt == 1 && type == ACL_MODEL_RI_TASK_KERNEL, "%u+%u blocks: the SuperKernel is one kernel task (%u tasks, type %d)", nf,
               ns, nt, (int)type);
        CHECK(aclmdlRIExecuteAsync(m, s));
        CHECK(aclrtSynchronizeStream(s));
        EXPECT(shifted(b, ns), "%u+%u blocks: sub-kernel 2's block j read what sub-kernel 1's block j+1 wrote", nf, ns);
        if (i == 0) {
            CHECK(aclmdlRIDebugJsonPrint(m, "57_superkernel.json", 0));
            FILE *f = fopen("57_superkernel.json", "r");
            char text[8192] = {0};
            size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
            if (f) {
                fclose(f);
            }
            remove("57_superkernel.json");
            EXPECT(got > 0 && strstr(text, "\"sub_kernels\"") && strstr(text, "sk_fill") && strstr(text, "sk_shift"),
                   "aclmdlRIDebugJsonPrint lists the sub-kernels");
        }
        CHECK(aclmdlRIDestroy(m));
    }
    CHECK(aclrtMemset(b, 512, 0, 512));
    aclmdlRI m = capture_pair(a, b, 8, 8);
    for (int i = 0; i < 1000; i++) {
        CHECK(aclmdlRIExecuteAsync(m, s));
    }
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(shifted(b, 7), "1000 replays of an 8+8-block SuperKernel: still ordered");
    CHECK(aclmdlRIDestroy(m));
}

static void refusals(void *a)
{
    aclmdlRI m = NULL;
    REFUSE(gocannSuperKernelBegin(s, "idle"), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing", "gocannSuperKernelBegin on a stream not capturing");
    REFUSE(gocannSuperKernelEnd(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing", "gocannSuperKernelEnd on a stream not capturing");
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    REFUSE(gocannSuperKernelEnd(s), ACL_ERROR_RT_PARAM_INVALID, "no SuperKernel range is open", "gocannSuperKernelEnd without Begin");
    REFUSE(gocannSuperKernelBegin(s, NULL), ACL_ERROR_INVALID_PARAM, "name", "gocannSuperKernelBegin with a NULL name");
    CHECK(gocannSuperKernelBegin(s, "outer"));
    REFUSE(gocannSuperKernelBegin(s, "inner"), ACL_ERROR_RT_PARAM_INVALID, "do not nest", "a nested gocannSuperKernelBegin");
    REFUSE(aclrtMemsetAsync(a, 64, 0, 64, s), ACL_ERROR_RT_PARAM_INVALID, "kernel launches only; a memset",
           "a memset inside a SuperKernel");
    aclrtEvent ev;
    CHECK(aclrtCreateEvent(&ev));
    REFUSE(aclrtRecordEvent(ev, s), ACL_ERROR_RT_PARAM_INVALID, "kernel launches only; an event record",
           "an event record inside a SuperKernel");
    CHECK(launch_fill(a, 2, 1));
    REFUSE(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "\"outer\" on stream",
           "aclmdlRICaptureEnd inside a SuperKernel range");
    CHECK(aclrtDestroyEvent(ev));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary>\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "sk_fill", &fill));
    CHECK(aclrtBinaryGetFunction(bin, "sk_shift", &shift));
    void *a = NULL, *b = NULL;
    CHECK(aclrtMalloc(&a, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&b, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ordering(a, b);
    refusals(a);
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 57_superkernel\n");
    return 0;
}
