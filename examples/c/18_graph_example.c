/*
 * 18_graph_example: capture a step of work once, replay it for each new
 * input, and change one of its kernels between replays: the ACL Graph flow
 * of the CANN guide, written out for reading.
 *
 * The step computes, for 8 int64 values,
 *
 *     hidden = 2 * input            (layer 1)
 *     output = hidden + bias        (layer 2, in a task group)
 *
 * copying the input from pinned host memory and the output back to it.
 *
 * 1. Capture: between aclmdlRICaptureBegin and aclmdlRICaptureEnd the
 *    tasks queued on the stream are recorded into a model run instance
 *    (aclmdlRI) instead of running.
 * 2. Replay: aclmdlRIExecuteAsync queues the whole step as one task; the
 *    copies read and write the pinned buffers as they are at that time.
 * 3. Update: layer 2 was captured inside a task group. To change its bias,
 *    the same kernel is queued with new arguments on another stream between
 *    aclmdlRICaptureTaskUpdateBegin and aclmdlRICaptureTaskUpdateEnd. The
 *    model waits for an ACL_EVENT_EXTERNAL event just before the group, and
 *    the update stream records that event after the update, so a replay
 *    that is already running picks up the new bias.
 *
 * Usage: 18_graph_example <kernel binary with axpb>
 */
#include "common.h"

#define N 8
#define BLOCKS 2

static aclrtFuncHandle axpb; /* y[i] = a * x[i] + b */

/* Queues axpb on stream: y = a * x + b for N elements. */
static aclError launch_axpb(aclrtStream stream, int64_t *x, int64_t *y, int64_t a, int64_t b)
{
    /* The argument block: one 8-byte slot per kernel parameter. */
    struct { void *x, *y; int64_t a, b; uint64_t n; } args = {x, y, a, b, N};
    return aclrtLaunchKernelWithHostArgs(axpb, BLOCKS, stream, NULL, &args, sizeof args, NULL, 0);
}

static void print_array(const char *name, const int64_t *v)
{
    printf("  %s:", name);
    for (int i = 0; i < N; i++) {
        printf(" %lld", (long long)v[i]);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }

    /* Setup: the device, a stream, the kernel, and the buffers. Copies
     * that a model replays need pinned host memory (aclrtMallocHost). */
    aclrtStream stream = NULL, updateStream = NULL;
    aclrtBinHandle bin = NULL;
    int64_t *inHost = NULL, *outHost = NULL;   /* pinned host memory */
    int64_t *input = NULL, *hidden = NULL, *output = NULL; /* device memory */
    const size_t size = N * sizeof(int64_t);
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "axpb", &axpb));
    CHECK(aclrtMallocHost((void **)&inHost, size));
    CHECK(aclrtMallocHost((void **)&outHost, size));
    memset(outHost, 0, size);
    CHECK(aclrtMalloc((void **)&input, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&hidden, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&output, size, ACL_MEM_MALLOC_HUGE_FIRST));

    /* The event the model waits for before layer 2. ACL_EVENT_EXTERNAL is
     * the flag meant for task update in captured models. */
    aclrtEvent ready = NULL;
    CHECK(aclrtCreateEventWithFlag(&ready, ACL_EVENT_EXTERNAL));

    /* 1. Capture the step. GLOBAL mode refuses synchronous copies and
     *    memsets anywhere in the process while capturing, so nothing
     *    sneaks in uncaptured. */
    aclmdlRI model = NULL;
    aclrtTaskGrp layer2 = NULL;
    int64_t bias = 1;
    CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtMemcpyAsync(input, size, inHost, size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(launch_axpb(stream, input, hidden, 2, 0));           /* layer 1 */
    CHECK(aclrtStreamWaitEvent(stream, ready));                /* wait for the update, if any */
    CHECK(aclrtResetEvent(ready, stream));                     /* and make the event reusable */
    CHECK(aclmdlRICaptureTaskGrpBegin(stream));
    CHECK(launch_axpb(stream, hidden, output, 1, bias));       /* layer 2: the task to update */
    CHECK(aclmdlRICaptureTaskGrpEnd(stream, &layer2));
    CHECK(aclrtMemcpyAsync(outHost, size, output, size, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK(aclmdlRICaptureEnd(stream, &model));
    EXPECT(outHost[N - 1] == 0, "captured the step into a model; nothing ran yet");

    /* The model can be described as JSON, to look at its tasks. */
    CHECK(aclmdlRIDebugJsonPrint(model, "graph_example.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    pass("aclmdlRIDebugJsonPrint wrote graph_example.json");

    /* 2 and 3. Replay the step for four inputs; before the third, change
     *    the bias of layer 2 to 100. Every iteration records the event
     *    the model waits for, updated or not. */
    CHECK(aclrtCreateStream(&updateStream));
    for (int iter = 0; iter < 4; iter++) {
        for (int i = 0; i < N; i++) {
            inHost[i] = 10 * iter + i; /* a new input, read by the replay */
        }
        CHECK(aclmdlRIExecuteAsync(model, stream));
        if (iter == 2) {
            /* The update: the same kind and number of tasks as the
             * group, with new arguments. They do not run on
             * updateStream; they replace the group's tasks. */
            bias = 100;
            CHECK(aclmdlRICaptureTaskUpdateBegin(updateStream, layer2));
            CHECK(launch_axpb(updateStream, hidden, output, 1, bias));
            CHECK(aclmdlRICaptureTaskUpdateEnd(updateStream));
        }
        /* Let the replay past its wait: after the update, when there is one. */
        CHECK(aclrtRecordEvent(ready, updateStream));
        CHECK(aclrtSynchronizeStream(updateStream));
        CHECK(aclrtSynchronizeStream(stream));

        printf("replay %d (bias %lld):\n", iter, (long long)bias);
        print_array("input ", inHost);
        print_array("output", outHost);
        int right = 1;
        for (int i = 0; i < N; i++) {
            right = right && outHost[i] == 2 * inHost[i] + bias;
        }
        EXPECT(right, "replay %d: output = 2 * input + %lld", iter, (long long)bias);
    }

    /* Cleanup. The buffers the model uses must stay valid until it is
     * destroyed. */
    CHECK(aclmdlRIDestroy(model));
    CHECK(aclrtDestroyEvent(ready));
    CHECK(aclrtDestroyStream(updateStream));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtFree(input));
    CHECK(aclrtFree(hidden));
    CHECK(aclrtFree(output));
    CHECK(aclrtFreeHost(inHost));
    CHECK(aclrtFreeHost(outHost));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 18_graph_example\n");
    return 0;
}
