/*
 * 15_task_update: changing a captured model. Task groups
 * (aclmdlRICaptureTaskGrpBegin/End) mark captured tasks that an update on
 * another stream (aclmdlRICaptureTaskUpdateBegin/End) replaces with tasks
 * of the same number and kinds; the guide's flow where the model waits for
 * an ACL_EVENT_EXTERNAL event that the update stream records. Then
 * inspection and editing: aclmdlRIGetStreams, aclmdlRIGetTasksByStream,
 * aclmdlRITaskGetType/GetSeqId/GetParams/SetParams, aclmdlRITaskDisable and
 * aclmdlRIUpdate, and the model's description (aclmdlRIDebugPrint,
 * aclmdlRIDebugJsonPrint).
 *
 * Usage: 15_task_update <kernel binary with axpb and add_word>
 */
#include "common.h"

#define N 257 /* int64 elements of x and y; not a multiple of the blocks */
#define BLOCKS 4

static aclrtFuncHandle axpbFn, addFn;
static int64_t *x, *y; /* device vectors: y = a * x + b */
static uint64_t *w, *z, *v; /* device words */

/* The argument block of axpb: one 8-byte slot per parameter. */
struct axpb_args {
    void *x, *y;
    int64_t a, b;
    uint64_t n;
};

/* Queues y = a * x + b. */
static aclError axpb(aclrtStream s, int64_t a, int64_t b)
{
    struct axpb_args args = {x, y, a, b, N};
    return aclrtLaunchKernelWithHostArgs(axpbFn, BLOCKS, s, NULL, &args, sizeof args, NULL, 0);
}

static aclError add_word(aclrtStream s, uint64_t *word, uint64_t k)
{
    struct { void *w; uint64_t k; } args = {word, k};
    return aclrtLaunchKernelWithHostArgs(addFn, 1, s, NULL, &args, sizeof args, NULL, 0);
}

/* y_is reports whether y[i] = a * i + b for every i (x[i] = i). */
static int y_is(int64_t a, int64_t b)
{
    static int64_t hy[N];
    CHECK(aclrtMemcpy(hy, sizeof hy, y, sizeof hy, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++) {
        if (hy[i] != a * i + b) {
            return 0;
        }
    }
    return 1;
}

static void run_sync(aclmdlRI m, aclrtStream s)
{
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
}

static int file_has(const char *path, const char *what)
{
    static char buf[65536];
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, what) != NULL;
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    aclrtStream s = NULL, s2 = NULL, upd = NULL, upd2 = NULL;
    aclmdlRI m = NULL, m2 = NULL, m3 = NULL, tmp = NULL;
    aclrtTaskGrp g = NULL, g2 = NULL, gx = NULL;
    aclrtEvent e0 = NULL, e1 = NULL, evSync = NULL, ext = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "axpb", &axpbFn));
    CHECK(aclrtBinaryGetFunction(bin, "add_word", &addFn));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateStream(&upd));
    CHECK(aclrtCreateStream(&upd2));
    CHECK(aclrtCreateEventExWithFlag(&e0, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventWithFlag(&evSync, ACL_EVENT_SYNC));
    CHECK(aclrtMalloc((void **)&x, N * 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&y, N * 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&w, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc((void **)&z, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc((void **)&v, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    static int64_t hx[N];
    for (int i = 0; i < N; i++) {
        hx[i] = i;
    }
    CHECK(aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(y, N * 8, 0, N * 8));
    write_u64(w, 0);
    write_u64(z, 0);
    write_u64(v, 0);

    /* A group of two tasks between two others: w += 1, {y = 2x + 1,
     * z = 0x11...}, w += 1. */
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(add_word(s, w, 1));
    CHECK(aclmdlRICaptureTaskGrpBegin(s));
    CHECK(axpb(s, 2, 1));
    CHECK(aclrtMemsetAsync(z, 8, 0x11, 8, s));
    CHECK(aclmdlRICaptureTaskGrpEnd(s, &g));
    CHECK(add_word(s, w, 1));
    CHECK(aclmdlRICaptureEnd(s, &m));
    run_sync(m, s);
    EXPECT(y_is(2, 1) && read_u64(z) == 0x1111111111111111ULL && read_u64(w) == 2,
           "a run with the captured group: y = 2x + 1, z = 0x11..., w = 2");

    /* The update's tasks replace the group's; they do not run on the
     * update stream. */
    CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g));
    CHECK(axpb(upd, 3, 5));
    CHECK(aclrtMemsetAsync(z, 8, 0x22, 8, upd));
    CHECK(aclmdlRICaptureTaskUpdateEnd(upd));
    CHECK(aclrtSynchronizeStream(upd));
    EXPECT(y_is(2, 1) && read_u64(z) == 0x1111111111111111ULL, "the update's tasks did not run by themselves");
    run_sync(m, s);
    run_sync(m, s);
    EXPECT(y_is(3, 5) && read_u64(z) == 0x2222222222222222ULL && read_u64(w) == 6,
           "runs after the update: y = 3x + 5, z = 0x22..., and the tasks around the group ran (w = %llu)",
           (unsigned long long)read_u64(w));
    CHECK(aclrtMemsetAsync(z, 8, 0x33, 8, upd));
    CHECK(aclrtSynchronizeStream(upd));
    EXPECT(read_u64(z) == 0x3333333333333333ULL, "after aclmdlRICaptureTaskUpdateEnd the update stream runs its tasks again");

    /* An update has the group's number and kinds of tasks. */
    CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g));
    CHECK(axpb(upd, 9, 9));
    EXPECT_CODE(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "an update with too few tasks");
    CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g));
    EXPECT_CODE(aclrtMemsetAsync(z, 8, 0x99, 8, upd), ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                "a memset where the group has a kernel");
    CHECK(axpb(upd, 9, 9));
    EXPECT_CODE(axpb(upd, 9, 9), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "a kernel where the group has a memset");
    EXPECT_CODE(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "so that update is short too");
    CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g));
    EXPECT_CODE(aclrtRecordEvent(e0, upd), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "an event record in an update");
    CHECK(aclmdlRICaptureTaskUpdateEnd(upd));
    CHECK(aclrtSynchronizeStream(upd));
    run_sync(m, s);
    EXPECT(y_is(3, 5) && read_u64(z) == 0x2222222222222222ULL, "the refused updates changed nothing");
    CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g));
    CHECK(axpb(upd, 4, 0));
    CHECK(aclrtMemsetAsync(z, 8, 0x44, 8, upd));
    EXPECT_CODE(aclrtMemsetAsync(z, 8, 0x99, 8, upd), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "a third task for a group of two");
    CHECK(aclmdlRICaptureTaskUpdateEnd(upd));
    CHECK(aclrtSynchronizeStream(upd)); /* the update is a task of upd */
    run_sync(m, s);
    EXPECT(y_is(4, 0) && read_u64(z) == 0x4444444444444444ULL, "the update whose extra task was refused took effect");

    /* Task group states. */
    EXPECT_CODE(aclmdlRICaptureTaskGrpBegin(upd), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "aclmdlRICaptureTaskGrpBegin on a stream not capturing");
    EXPECT_CODE(aclmdlRICaptureTaskGrpEnd(upd, &gx), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "aclmdlRICaptureTaskGrpEnd on a stream not capturing");
    EXPECT_CODE(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "aclmdlRICaptureTaskUpdateEnd without Begin");
    CHECK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_CODE(aclmdlRICaptureTaskGrpEnd(s2, &gx), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "aclmdlRICaptureTaskGrpEnd without Begin");
    EXPECT_CODE(aclmdlRICaptureTaskUpdateBegin(s2, g), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "an update on a capturing stream");
    CHECK(aclmdlRICaptureTaskGrpBegin(s2));
    EXPECT_CODE(aclmdlRICaptureTaskGrpBegin(s2), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "aclmdlRICaptureTaskGrpBegin twice");
    EXPECT_CODE(aclrtRecordEvent(e0, s2), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "an event record inside a task group");
    EXPECT_CODE(aclrtStreamWaitEvent(s2, e0), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "an event wait inside a task group");
    CHECK(add_word(s2, w, 1));
    EXPECT_CODE(aclmdlRICaptureEnd(s2, &tmp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "aclmdlRICaptureEnd with a task group open");
    CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g));
    EXPECT_CODE(aclmdlRICaptureTaskUpdateBegin(upd2, g), ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                "a second update of the group while one is open");
    EXPECT_CODE(aclmdlRICaptureTaskUpdateBegin(upd, g), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "aclmdlRICaptureTaskUpdateBegin twice");
    CHECK(aclmdlRICaptureTaskUpdateEnd(upd));
    /* In a cross-stream capture, no other captured stream queues work
     * while a group is open. */
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtRecordEvent(e0, s));
    CHECK(aclrtStreamWaitEvent(s2, e0));
    CHECK(aclmdlRICaptureTaskGrpBegin(s));
    EXPECT_CODE(add_word(s2, w, 10), ACL_ERROR_STREAM_TASK_GROUP_INTR, "a kernel on another captured stream while a group is open");
    EXPECT_CODE(aclrtRecordEvent(e1, s2), ACL_ERROR_STREAM_TASK_GROUP_INTR, "an event record there too");
    CHECK(add_word(s, w, 1));
    CHECK(aclmdlRICaptureTaskGrpEnd(s, &gx));
    CHECK(add_word(s2, w, 10));
    CHECK(aclrtRecordEvent(e1, s2));
    CHECK(aclrtStreamWaitEvent(s, e1));
    CHECK(aclmdlRICaptureEnd(s, &tmp));
    write_u64(w, 0);
    run_sync(tmp, upd);
    EXPECT(read_u64(w) == 11, "once the group is closed the other stream goes on; a run does both (w = %llu)",
           (unsigned long long)read_u64(w));
    CHECK(aclmdlRIDestroy(tmp));
    EXPECT_CODE(aclmdlRICaptureTaskUpdateBegin(upd, gx), ACL_ERROR_RT_INVALID_HANDLE, "updating a group of a destroyed model");

    /* The guide's flow: the model waits for an external event right before
     * the group and resets it; each iteration runs the model, updates the
     * group on another stream and records the event there, which lets the
     * run go on with the new parameters. */
    CHECK(aclrtCreateEventWithFlag(&ext, ACL_EVENT_EXTERNAL));
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(add_word(s, w, 1));
    CHECK(aclrtStreamWaitEvent(s, ext));
    CHECK(aclrtResetEvent(ext, s));
    CHECK(aclmdlRICaptureTaskGrpBegin(s));
    CHECK(axpb(s, 1, 0));
    CHECK(aclmdlRICaptureTaskGrpEnd(s, &g2));
    CHECK(add_word(s, w, 1));
    CHECK(aclmdlRICaptureEnd(s, &m2));
    write_u64(w, 0);
    int held = 0, right = 0;
    for (int i = 0; i < 4; i++) {
        CHECK(aclrtMemset(y, N * 8, 0, N * 8));
        CHECK(aclmdlRIExecuteAsync(m2, s));
        /* The run does its first task, then waits for the event. */
        double t0 = now_ms();
        while (read_u64(w) != (uint64_t)(2 * i + 1) && now_ms() - t0 < 5000) {
            sleep_ms(1);
        }
        sleep_ms(10);
        int64_t last = -1;
        CHECK(aclrtMemcpy(&last, 8, y + N - 1, 8, ACL_MEMCPY_DEVICE_TO_HOST));
        held += read_u64(w) == (uint64_t)(2 * i + 1) && last == 0;
        /* The first iteration updates nothing, as the guide's does. */
        CHECK(aclmdlRICaptureTaskUpdateBegin(upd, g2));
        if (i > 0) {
            CHECK(axpb(upd, i + 1, 10 * i));
        }
        CHECK(aclmdlRICaptureTaskUpdateEnd(upd));
        CHECK(aclrtRecordEvent(ext, upd));
        CHECK(aclrtSynchronizeStream(upd));
        CHECK(aclrtSynchronizeStream(s));
        right += (i == 0 ? y_is(1, 0) : y_is(i + 1, 10 * i)) && read_u64(w) == (uint64_t)(2 * i + 2);
    }
    EXPECT(held == 4, "each run waited for the external event before its group (%d of 4)", held);
    EXPECT(right == 4, "each run used the update made while it waited: y = x, 2x + 10, 3x + 20, 4x + 30 (%d of 4)", right);
    aclrtStream ms2[1];
    aclmdlRITask mt2[8];
    aclmdlRITaskParams ep;
    uint32_t nms2 = 1, nmt2 = 8;
    CHECK(aclmdlRIGetStreams(m2, ms2, &nms2));
    CHECK(aclmdlRIGetTasksByStream(ms2[0], mt2, &nmt2));
    CHECK(aclmdlRITaskGetParams(mt2[1], &ep));
    int waitOk = ep.type == ACL_MODEL_RI_TASK_EVENT_WAIT && ep.eventWaitTaskParams.event == ext &&
                 ep.eventWaitTaskParams.eventFlag == ACL_EVENT_EXTERNAL;
    CHECK(aclmdlRITaskGetParams(mt2[2], &ep));
    int resetOk = ep.type == ACL_MODEL_RI_TASK_EVENT_RESET && ep.eventResetTaskParams.event == ext;
    CHECK(aclmdlRITaskGetParams(mt2[3], &ep));
    EXPECT(nmt2 == 5 && waitOk && resetOk && ep.taskGrp == g2,
           "the model's tasks: a wait and a reset of the external event (flag %#x), then the group's kernel", ACL_EVENT_EXTERNAL);

    /* A model to look into: two streams, a task of each type.
     *   stream 0: add_word(w, 1), record e0, wait e1, reset evSync, axpb(2, 1), memset z
     *   stream 1: wait e0, value write v = 7, value wait v == 7, record e1 */
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(add_word(s, w, 1));
    CHECK(aclrtRecordEvent(e0, s));
    CHECK(aclrtStreamWaitEvent(s2, e0));
    CHECK(aclrtValueWrite(v, 7, 0, s2));
    CHECK(aclrtValueWait(v, 7, ACL_STREAM_WAIT_VALUE_EQ, s2));
    CHECK(aclrtRecordEvent(e1, s2));
    CHECK(aclrtStreamWaitEvent(s, e1));
    CHECK(aclrtResetEvent(evSync, s));
    CHECK(axpb(s, 2, 1));
    CHECK(aclrtMemsetAsync(z, 8, 0x55, 8, s));
    CHECK(aclmdlRICaptureEnd(s, &m3));

    /* The two-call protocol: count first, then an array that holds them. */
    aclrtStream streams[4] = {NULL};
    uint32_t ns = 99;
    CHECK(aclmdlRIGetStreams(m3, NULL, &ns));
    EXPECT(ns == 2, "aclmdlRIGetStreams with no array: 2 streams");
    ns = 1;
    EXPECT_CODE(aclmdlRIGetStreams(m3, streams, &ns), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "aclmdlRIGetStreams with room for 1");
    ns = 4;
    CHECK(aclmdlRIGetStreams(m3, streams, &ns));
    EXPECT(ns == 2 && streams[0] != NULL && streams[1] != NULL && streams[2] == NULL,
           "aclmdlRIGetStreams with room for 4 fills 2");
    aclmdlRITask t0[8] = {NULL}, t1[8] = {NULL};
    uint32_t n0 = 0, n1 = 0;
    CHECK(aclmdlRIGetTasksByStream(streams[0], NULL, &n0));
    CHECK(aclmdlRIGetTasksByStream(streams[1], NULL, &n1));
    EXPECT(n0 == 6 && n1 == 4, "aclmdlRIGetTasksByStream with no array: %u and %u tasks", n0, n1);
    n0 = 5;
    EXPECT_CODE(aclmdlRIGetTasksByStream(streams[0], t0, &n0), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                "aclmdlRIGetTasksByStream with room for 5 of 6");
    n0 = 8;
    n1 = 8;
    CHECK(aclmdlRIGetTasksByStream(streams[0], t0, &n0));
    CHECK(aclmdlRIGetTasksByStream(streams[1], t1, &n1));
    static const aclmdlRITaskType want0[6] = {ACL_MODEL_RI_TASK_KERNEL, ACL_MODEL_RI_TASK_EVENT_RECORD,
                                              ACL_MODEL_RI_TASK_EVENT_WAIT, ACL_MODEL_RI_TASK_EVENT_RESET,
                                              ACL_MODEL_RI_TASK_KERNEL, ACL_MODEL_RI_TASK_DEFAULT};
    static const aclmdlRITaskType want1[4] = {ACL_MODEL_RI_TASK_EVENT_WAIT, ACL_MODEL_RI_TASK_VALUE_WRITE,
                                              ACL_MODEL_RI_TASK_VALUE_WAIT, ACL_MODEL_RI_TASK_EVENT_RECORD};
    int typesOk = n0 == 6 && n1 == 4;
    for (uint32_t i = 0; typesOk && i < n0 + n1; i++) {
        aclmdlRITask tk = i < n0 ? t0[i] : t1[i - n0];
        aclmdlRITaskType ty;
        uint32_t seq = 99;
        CHECK(aclmdlRITaskGetType(tk, &ty));
        CHECK(aclmdlRITaskGetSeqId(tk, &seq));
        typesOk = ty == (i < n0 ? want0[i] : want1[i - n0]) && seq == (i < n0 ? i : i - n0);
    }
    EXPECT(typesOk, "aclmdlRITaskGetType and GetSeqId: kernel, record, wait, reset, kernel, memset (DEFAULT); "
                    "wait, value write, value wait, record; sequence ids from 0");
    aclmdlRITask again[8];
    n0 = 8;
    CHECK(aclmdlRIGetTasksByStream(streams[0], again, &n0));
    EXPECT(again[4] == t0[4], "asking again gives the same task handles");

    /* Parameters as queried: a kernel's arguments in device memory. */
    aclmdlRITaskParams tp;
    memset(&tp, 0xff, sizeof tp);
    CHECK(aclmdlRITaskGetParams(t0[4], &tp));
    aclmdlRIKernelTaskParams *kp = &tp.kernelTaskParams;
    struct axpb_args got;
    memset(&got, 0, sizeof got);
    if (kp->args != NULL && kp->argsSize == sizeof got) {
        CHECK(aclrtMemcpy(&got, sizeof got, kp->args, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    EXPECT(tp.type == ACL_MODEL_RI_TASK_KERNEL && tp.taskGrp == NULL && kp->funcHandle == axpbFn && kp->numBlocks == BLOCKS &&
               kp->isHostArgs == 0 && kp->argsSize == 40 && got.x == x && got.y == y && got.a == 2 && got.b == 1 && got.n == N,
           "aclmdlRITaskGetParams of the kernel: its function, %u blocks, %zu bytes of arguments in device memory", kp->numBlocks,
           kp->argsSize);
    CHECK(aclmdlRITaskGetParams(t0[2], &tp));
    EXPECT(tp.type == ACL_MODEL_RI_TASK_EVENT_WAIT && tp.eventWaitTaskParams.event == e1 &&
               tp.eventWaitTaskParams.eventFlag == ACL_EVENT_SYNC,
           "aclmdlRITaskGetParams of the wait: its event and the flag it was created with");
    CHECK(aclmdlRITaskGetParams(t1[1], &tp));
    EXPECT(tp.type == ACL_MODEL_RI_TASK_VALUE_WRITE && tp.valueWriteTaskParams.devAddr == v && tp.valueWriteTaskParams.value == 7,
           "aclmdlRITaskGetParams of the value write: address and value 7");
    aclmdlRITask gt[8];
    uint32_t ng = 8, nsm = 1;
    aclrtStream ms[1];
    CHECK(aclmdlRIGetStreams(m, ms, &nsm));
    CHECK(aclmdlRIGetTasksByStream(ms[0], gt, &ng));
    CHECK(aclmdlRITaskGetParams(gt[1], &tp));
    EXPECT(ng == 4 && tp.taskGrp == g, "a grouped task's parameters name its task group");

    /* Edits show at once and take effect at aclmdlRIUpdate. */
    write_u64(w, 0);
    run_sync(m3, s);
    EXPECT(y_is(2, 1) && read_u64(v) == 7 && read_u64(z) == 0x5555555555555555ULL && read_u64(w) == 1,
           "a run of the inspected model before any edit");
    CHECK(aclmdlRITaskGetParams(t0[4], &tp));
    struct axpb_args hostArgs = {x, y, 5, 2, N};
    tp.kernelTaskParams.args = &hostArgs;
    tp.kernelTaskParams.isHostArgs = 1;
    tp.kernelTaskParams.argsSize = sizeof hostArgs;
    tp.kernelTaskParams.numBlocks = 2;
    CHECK(aclmdlRITaskSetParams(t0[4], &tp));
    hostArgs.a = 99; /* the runtime took its copy */
    CHECK(aclmdlRITaskGetParams(t1[1], &tp));
    tp.valueWriteTaskParams.value = 9;
    CHECK(aclmdlRITaskSetParams(t1[1], &tp));
    CHECK(aclmdlRITaskGetParams(t1[2], &tp));
    tp.valueWaitTaskParams.value = 9;
    CHECK(aclmdlRITaskSetParams(t1[2], &tp));
    CHECK(aclmdlRITaskGetParams(t0[4], &tp));
    EXPECT(tp.kernelTaskParams.numBlocks == 2, "aclmdlRITaskGetParams shows the edit at once (%u blocks)",
           tp.kernelTaskParams.numBlocks);
    run_sync(m3, s);
    EXPECT(y_is(2, 1) && read_u64(v) == 7, "a run before aclmdlRIUpdate still uses the old parameters");
    CHECK(aclmdlRIUpdate(m3));
    run_sync(m3, s);
    EXPECT(y_is(5, 2) && read_u64(v) == 9,
           "after aclmdlRIUpdate: the kernel with host arguments (isHostArgs 1) gives y = 5x + 2, the value write 9");

    /* Arguments in device memory (isHostArgs 0) are read when the task
     * starts, at every run. */
    struct axpb_args *devArgs = NULL;
    struct axpb_args blk = {x, y, 6, 3, N};
    CHECK(aclrtMalloc((void **)&devArgs, sizeof blk, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(devArgs, sizeof blk, &blk, sizeof blk, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclmdlRITaskGetParams(t0[4], &tp));
    tp.kernelTaskParams.args = devArgs;
    tp.kernelTaskParams.isHostArgs = 0;
    tp.kernelTaskParams.argsSize = sizeof blk;
    CHECK(aclmdlRITaskSetParams(t0[4], &tp));
    CHECK(aclmdlRIUpdate(m3));
    run_sync(m3, s);
    int devOk = y_is(6, 3);
    blk.a = 7;
    CHECK(aclrtMemcpy(devArgs, sizeof blk, &blk, sizeof blk, ACL_MEMCPY_HOST_TO_DEVICE));
    run_sync(m3, s);
    EXPECT(devOk && y_is(7, 3), "the kernel with arguments in device memory (isHostArgs 0): y = 6x + 3, then 7x + 3 "
                                "after the block changed");

    /* Refused edits. */
    CHECK(aclmdlRITaskGetParams(t1[1], &tp));
    EXPECT_CODE(aclmdlRITaskSetParams(t0[4], &tp), ACL_ERROR_RT_PARAM_INVALID, "value-write parameters for a kernel task");
    CHECK(aclmdlRITaskGetParams(t0[4], &tp));
    tp.kernelTaskParams.argsSize = 12;
    EXPECT_CODE(aclmdlRITaskSetParams(t0[4], &tp), ACL_ERROR_RT_PARAM_INVALID, "argsSize 12, not a multiple of 8");
    CHECK(aclmdlRITaskGetParams(t0[5], &tp));
    EXPECT_CODE(aclmdlRITaskSetParams(t0[5], &tp), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "a memset task has no settable parameters");
    EXPECT_CODE(aclmdlRITaskSetParams(t0[4], NULL), ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams(NULL)");

    /* Disabled tasks leave later runs once aclmdlRIUpdate publishes it. */
    CHECK(aclmdlRITaskDisable(t0[5]));
    CHECK(aclmdlRITaskDisable(t0[0]));
    write_u64(z, 0);
    write_u64(w, 0);
    run_sync(m3, s);
    int before = read_u64(z) == 0x5555555555555555ULL && read_u64(w) == 1;
    CHECK(aclmdlRIUpdate(m3));
    write_u64(z, 0);
    run_sync(m3, s);
    run_sync(m3, s);
    EXPECT(before && read_u64(z) == 0 && read_u64(w) == 1 && y_is(7, 3),
           "aclmdlRITaskDisable: the memset and the add ran until aclmdlRIUpdate, not after; the rest still runs");

    /* An update is refused while the model runs. */
    aclmdlRI gated = NULL;
    uint64_t *gate = NULL;
    CHECK(aclrtMalloc((void **)&gate, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(gate, 0);
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    CHECK(aclmdlRICaptureEnd(s, &gated));
    CHECK(aclmdlRIExecuteAsync(gated, s));
    EXPECT_CODE(aclmdlRIUpdate(gated), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "aclmdlRIUpdate while the model runs");
    CHECK(aclrtValueWrite(gate, 1, 0, upd));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclmdlRIUpdate(gated));
    CHECK(aclmdlRIDestroy(gated));

    /* Descriptions. aclmdlRIDebugPrint is deprecated in CANN's header as
     * here; it prints to standard output. */
    CHECK(aclmdlRISetName(m3, "inspected"));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK(aclmdlRIDebugPrint(m3));
#pragma GCC diagnostic pop
    fflush(stdout);
    pass("aclmdlRIDebugPrint");
    CHECK(aclmdlRIDebugJsonPrint(m3, "inspected.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    EXPECT(file_has("inspected.json", "\"inspected\"") && file_has("inspected.json", "\"axpb\"") &&
               file_has("inspected.json", "\"add_word\"") && file_has("inspected.json", "value write"),
           "aclmdlRIDebugJsonPrint wrote inspected.json naming the model and its tasks");
    CHECK(aclmdlRIDebugJsonPrint(m3, "verbose.json", ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
    EXPECT(file_has("verbose.json", "\"args\""), "the VERBOSE description adds kernel arguments");
    EXPECT_CODE(aclmdlRIDebugJsonPrint(m3, "x.json", 2), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIDebugJsonPrint flags 2");
    EXPECT_CODE(aclmdlRIDebugJsonPrint(m3, "no_such_dir/x.json", 0), ACL_ERROR_INVALID_FILE,
                "aclmdlRIDebugJsonPrint into a directory that does not exist");

    /* A destroyed model's streams and tasks are gone with it. */
    CHECK(aclmdlRIDestroy(m3));
    aclmdlRITaskType ty;
    EXPECT_CODE(aclmdlRITaskGetType(t0[0], &ty), ACL_ERROR_RT_INVALID_HANDLE, "a task of a destroyed model");
    EXPECT_CODE(aclmdlRIGetTasksByStream(streams[0], NULL, &n0), ACL_ERROR_RT_INVALID_HANDLE, "a stream of a destroyed model");

    CHECK(aclmdlRIDestroy(m));
    CHECK(aclmdlRIDestroy(m2));
    CHECK(aclrtFree(devArgs));
    CHECK(aclrtFree(gate));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(w));
    CHECK(aclrtFree(z));
    CHECK(aclrtFree(v));
    CHECK(aclrtDestroyEvent(e0));
    CHECK(aclrtDestroyEvent(e1));
    CHECK(aclrtDestroyEvent(evSync));
    CHECK(aclrtDestroyEvent(ext));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtDestroyStream(upd));
    CHECK(aclrtDestroyStream(upd2));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 15_task_update\n");
    return 0;
}
