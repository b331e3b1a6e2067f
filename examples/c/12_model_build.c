/*
 * 12_model_build: model run instances built over persistent streams
 * (aclmdlRIBuildBegin, aclmdlRIBindStream, aclmdlRIEndTask,
 * aclmdlRIBuildEnd), run with aclmdlRIExecute and aclmdlRIExecuteAsync,
 * keeping their tasks across runs; unbinding, cleaning a persistent stream,
 * names, ids, destroy callbacks, and the calls refused on the way.
 *
 * Usage: 12_model_build <kernel binary with trace and add_word>
 */
#include "common.h"

#include <pthread.h>

static aclrtFuncHandle traceFn, addFn;
static uint64_t *word; /* device memory: the decimal trace of the tasks */

/* Queues trace(word, d): the word becomes word * 10 + d when it runs. */
static aclError trace(aclrtStream s, uint64_t d)
{
    struct { void *word; uint64_t d; } a = {word, d};
    return aclrtLaunchKernelWithHostArgs(traceFn, 1, s, NULL, &a, sizeof a, NULL, 0);
}

/* A host function that holds its stream until the main thread opens the
 * gate (or 10 s pass, so a broken run cannot hang the program). */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int entered, opened;

static void gate(void *arg)
{
    struct timespec until;
    (void)arg;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&mu);
    entered++;
    pthread_cond_broadcast(&cv);
    while (!opened && pthread_cond_timedwait(&cv, &mu, &until) == 0) {
    }
    pthread_mutex_unlock(&mu);
}

static int wait_entered(int n)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&mu);
    while (entered < n && pthread_cond_timedwait(&cv, &mu, &until) == 0) {
    }
    int ok = entered >= n;
    pthread_mutex_unlock(&mu);
    return ok;
}

static void open_gate(void)
{
    pthread_mutex_lock(&mu);
    opened = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void sleep_host(void *arg)
{
    sleep_ms((long)(intptr_t)arg);
}

/* Destroy callbacks count their calls in the int userData points to. */
static void count_cb(void *userData)
{
    (*(int *)userData)++;
}

static void other_cb(void *userData)
{
    (*(int *)userData) += 100;
}

int main(int argc, char **argv)
{
    aclrtStream run = NULL, run2 = NULL, head = NULL, side = NULL, spare = NULL;
    aclmdlRI m = NULL, m2 = NULL, m3 = NULL;
    aclrtBinHandle bin = NULL;
    uint32_t flags = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trace", &traceFn));
    CHECK(aclrtBinaryGetFunction(bin, "add_word", &addFn));
    CHECK(aclrtMalloc((void **)&word, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(word, 0);
    CHECK(aclrtCreateStream(&run));
    CHECK(aclrtCreateStream(&run2));

    /* Persistent streams keep their tasks for a model instead of running
     * them; unbound, they take none. */
    CHECK(aclrtCreateStreamWithConfig(&head, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclrtCreateStreamWithConfig(&side, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclrtStreamGetFlags(head, &flags));
    EXPECT(flags & ACL_STREAM_PERSISTENT, "aclrtCreateStreamWithConfig(ACL_STREAM_PERSISTENT): flags %#x", flags);
    EXPECT_CODE(trace(head, 1), ACL_ERROR_RT_STREAM_MODEL, "a kernel on a persistent stream bound to no model");
    EXPECT_CODE(aclrtMemsetAsync(word, 8, 0, 8, head), ACL_ERROR_RT_STREAM_MODEL, "a memset on it");
    /* Synchronizing a persistent stream does nothing and succeeds. */
    CHECK(aclrtSynchronizeStream(head));
    CHECK(aclrtSynchronizeStreamWithTimeout(head, 100));
    pass("aclrtSynchronizeStream of a persistent stream succeeds at once");

    /* Building: flag and reserve are reserved, only persistent streams
     * bind, each to one model, with a known flag. */
    EXPECT_CODE(aclmdlRIBuildBegin(&m, 1), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIBuildBegin flag must be 0");
    EXPECT_CODE(aclmdlRIBuildBegin(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclmdlRIBuildBegin(NULL)");
    CHECK(aclmdlRIBuildBegin(&m, 0));
    EXPECT_CODE(aclmdlRIBindStream(m, run, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID,
                "binding a stream created without ACL_STREAM_PERSISTENT");
    EXPECT_CODE(aclmdlRIBindStream(m, head, 5), ACL_ERROR_RT_PARAM_INVALID, "binding with flag 5");
    EXPECT_CODE(aclmdlRIBindStream(m, NULL, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_INVALID_PARAM,
                "binding the NULL stream");
    EXPECT_CODE(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIBuildEnd with no stream bound");
    CHECK(aclmdlRIBindStream(m, head, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(aclmdlRIBindStream(m, side, ACL_MODEL_STREAM_FLAG_DEFAULT));
    pass("aclmdlRIBindStream: one HEAD stream, one DEFAULT stream");
    EXPECT_CODE(aclmdlRIBindStream(m, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID,
                "binding a stream twice");
    CHECK(aclmdlRIBuildBegin(&m2, 0));
    EXPECT_CODE(aclmdlRIBindStream(m2, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID,
                "binding a stream already bound to another model");

    /* The head stream traces 1 and activates the DEFAULT stream, which
     * traces 2: one run writes 12. */
    CHECK(trace(head, 1));
    CHECK(aclrtActiveStream(side, head));
    CHECK(trace(side, 2));
    CHECK(aclmdlRIEndTask(m, head));
    CHECK(aclmdlRIEndTask(m, side));
    EXPECT_CODE(trace(head, 3), ACL_ERROR_RT_STREAM_MODEL, "a task after aclmdlRIEndTask on that stream");
    EXPECT_CODE(aclmdlRIEndTask(m, run), ACL_ERROR_RT_STREAM_MODEL, "aclmdlRIEndTask of a stream not bound to the model");
    /* The reference leaves running a model still being built open; it is
     * refused as a model still in capture state. */
    EXPECT_CODE(aclmdlRIExecute(m, -1), ACL_ERROR_RT_MODEL_CAPTURED, "aclmdlRIExecute before aclmdlRIBuildEnd");
    EXPECT_CODE(aclmdlRIBuildEnd(m, (void *)&flags), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIBuildEnd reserve must be NULL");
    CHECK(aclmdlRIBuildEnd(m, NULL));
    EXPECT(read_u64(word) == 0, "bound streams ran nothing before the first run");
    EXPECT_CODE(trace(head, 3), ACL_ERROR_RT_STREAM_MODEL, "a task on a bound stream after aclmdlRIBuildEnd");
    EXPECT_CODE(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIBuildEnd twice");
    /* A built model's streams are the persistent streams bound to it. */
    {
        aclrtStream ms[4];
        uint32_t n = 4;
        CHECK(aclmdlRIGetStreams(m, ms, &n));
        int found = 0;
        for (uint32_t i = 0; i < n; i++) {
            found += ms[i] == head;
        }
        EXPECT(found == 1, "aclmdlRIGetStreams of a built model lists the bound stream itself (%u streams)", n);
    }
    /* A model runs in its own context. */
    {
        aclrtContext home = NULL, away = NULL;
        CHECK(aclrtGetCurrentContext(&home));
        CHECK(aclrtCreateContext(&away, 0));
        EXPECT_CODE(aclmdlRIExecuteAsync(m, NULL), ACL_ERROR_RT_MODEL_CONTEXT,
                    "aclmdlRIExecuteAsync with another context current");
        EXPECT_CODE(aclmdlRIExecute(m, -1), ACL_ERROR_RT_MODEL_CONTEXT, "aclmdlRIExecute with another context current");
        CHECK(aclrtSetCurrentContext(home));
        CHECK(aclrtDestroyContext(away));
    }
    /* A bound stream names its tasks in the model: the kernel, the
     * activation and the end. */
    aclmdlRITask tasks[4];
    aclmdlRITaskType types[3];
    uint32_t nTasks = 4;
    CHECK(aclmdlRIGetTasksByStream(head, tasks, &nTasks));
    for (uint32_t i = 0; i < nTasks && i < 3; i++) {
        CHECK(aclmdlRITaskGetType(tasks[i], &types[i]));
    }
    EXPECT(nTasks == 3 && types[0] == ACL_MODEL_RI_TASK_KERNEL && types[1] == ACL_MODEL_RI_TASK_DEFAULT &&
               types[2] == ACL_MODEL_RI_TASK_DEFAULT,
           "aclmdlRIGetTasksByStream of a bound stream: a kernel, then two DEFAULT tasks (%u tasks)", nTasks);

    /* aclmdlRIExecute runs on the default stream and waits. */
    CHECK(aclmdlRIExecute(m, -1));
    EXPECT(read_u64(word) == 12, "aclmdlRIExecute(-1): the head stream, then the activated one (%llu)",
           (unsigned long long)read_u64(word));
    CHECK(aclmdlRIExecute(m, 5000));
    EXPECT(read_u64(word) == 1212, "aclmdlRIExecute(5000 ms) runs the same tasks again (%llu)",
           (unsigned long long)read_u64(word));
    EXPECT_CODE(aclmdlRIExecute(m, -2), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIExecute timeout -2");

    /* aclmdlRIExecuteAsync: a run is one task of its stream, after the
     * stream's earlier tasks and before its later ones; the tasks are kept
     * across runs, on any stream. */
    CHECK(aclrtMemsetAsync(word, 8, 0, 8, run));
    for (int i = 0; i < 3; i++) {
        CHECK(aclmdlRIExecuteAsync(m, run));
    }
    CHECK(trace(run, 9));
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 1212129, "three aclmdlRIExecuteAsync between a memset and a kernel of the stream (%llu)",
           (unsigned long long)read_u64(word));
    write_u64(word, 0);
    CHECK(aclmdlRIExecuteAsync(m, run2));
    CHECK(aclrtSynchronizeStream(run2));
    CHECK(aclmdlRIExecuteAsync(m, NULL));
    CHECK(aclrtSynchronizeStream(NULL));
    CHECK(aclmdlRIExecuteAsync(m, run));
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 121212, "runs on another stream, the default stream and the first again (%llu)",
           (unsigned long long)read_u64(word));
    /* A stream of the model cannot launch a model. */
    EXPECT_CODE(aclmdlRIExecuteAsync(m, head), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                "aclmdlRIExecuteAsync on a stream bound to a model");
    /* The reference says aclrtStreamAbort does not support bound streams. */
    EXPECT_CODE(aclrtStreamAbort(head), ACL_ERROR_RT_PARAM_INVALID, "aclrtStreamAbort of a bound stream");

    /* Unbinding keeps what the model recorded; the stream is free again,
     * and takes tasks only once bound to another model. */
    CHECK(aclmdlRIUnbindStream(m, side));
    EXPECT_CODE(aclmdlRIUnbindStream(m, side), ACL_ERROR_RT_STREAM_MODEL, "aclmdlRIUnbindStream twice");
    EXPECT_CODE(aclmdlRIUnbindStream(m, run), ACL_ERROR_RT_STREAM_MODEL, "aclmdlRIUnbindStream of a stream never bound");
    EXPECT_CODE(trace(side, 5), ACL_ERROR_RT_STREAM_MODEL, "a task on the unbound stream");
    write_u64(word, 0);
    CHECK(aclmdlRIExecute(m, -1));
    EXPECT(read_u64(word) == 12, "after aclmdlRIUnbindStream the model still runs both streams");
    CHECK(aclmdlRIBindStream(m2, side, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(trace(side, 7));
    CHECK(aclmdlRIEndTask(m2, side));
    CHECK(aclmdlRIBuildEnd(m2, NULL));
    write_u64(word, 0);
    CHECK(aclmdlRIExecute(m2, -1));
    EXPECT(read_u64(word) == 7, "the unbound stream bound to a second model");

    /* aclrtPersistentTaskClean drops what a stream queued so far for a
     * model being built. */
    CHECK(aclrtCreateStreamWithConfig(&spare, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclmdlRIBuildBegin(&m3, 0));
    CHECK(aclmdlRIBindStream(m3, spare, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(trace(spare, 4));
    CHECK(trace(spare, 4));
    CHECK(aclrtPersistentTaskClean(spare));
    CHECK(trace(spare, 6));
    CHECK(aclmdlRIEndTask(m3, spare));
    CHECK(aclmdlRIBuildEnd(m3, NULL));
    write_u64(word, 0);
    CHECK(aclmdlRIExecute(m3, -1));
    EXPECT(read_u64(word) == 6, "aclrtPersistentTaskClean dropped the two tasks queued before it (%llu)",
           (unsigned long long)read_u64(word));
    EXPECT_CODE(aclrtPersistentTaskClean(run), ACL_ERROR_RT_PARAM_INVALID, "aclrtPersistentTaskClean of a normal stream");

    /* Names and ids. */
    char name[1024];
    memset(name, 'x', sizeof name);
    CHECK(aclmdlRIGetName(m, sizeof name, name));
    EXPECT(name[0] == '\0', "aclmdlRIGetName of a model never named: \"\"");
    CHECK(aclmdlRISetName(m, "first"));
    CHECK(aclmdlRISetName(m, "resnet50"));
    CHECK(aclmdlRIGetName(m, sizeof name, name));
    EXPECT(strcmp(name, "resnet50") == 0, "aclmdlRISetName: the last name wins (\"%s\")", name);
    EXPECT_CODE(aclmdlRIGetName(m, 4, name), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIGetName with maxLen too small");
    EXPECT_CODE(aclmdlRISetName(m, NULL), ACL_ERROR_INVALID_PARAM, "aclmdlRISetName(NULL)");
    char longName[601];
    memset(longName, 'n', 600);
    longName[600] = '\0';
    CHECK(aclmdlRISetName(m2, longName));
    CHECK(aclmdlRIGetName(m2, sizeof name, name));
    EXPECT(strlen(name) == 512, "a 600-byte name keeps its first 512 bytes (%zu)", strlen(name));
    uint32_t id1 = 0, id2 = 0, id3 = 0;
    CHECK(aclmdlRIGetId(m, &id1));
    CHECK(aclmdlRIGetId(m2, &id2));
    CHECK(aclmdlRIGetId(m3, &id3));
    EXPECT(id1 != id2 && id2 != id3 && id1 != id3, "aclmdlRIGetId: %u, %u, %u", id1, id2, id3);

    /* A run that holds the model: neither destroy nor unbind while it
     * goes; aclmdlRIExecute with a timeout gives up waiting for it. */
    aclrtStream held = NULL;
    aclmdlRI mh = NULL;
    CHECK(aclrtCreateStreamWithConfig(&held, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclmdlRIBuildBegin(&mh, 0));
    CHECK(aclmdlRIBindStream(mh, held, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(aclrtLaunchHostFunc(held, gate, NULL));
    struct { void *word; uint64_t k; } add1 = {word, 1};
    CHECK(aclrtLaunchKernelWithHostArgs(addFn, 1, held, NULL, &add1, sizeof add1, NULL, 0));
    CHECK(aclmdlRIEndTask(mh, held));
    CHECK(aclmdlRIBuildEnd(mh, NULL));
    write_u64(word, 0);
    CHECK(aclmdlRIExecuteAsync(mh, run));
    EXPECT(wait_entered(1), "the run reached its host function");
    EXPECT_CODE(aclmdlRIDestroy(mh), ACL_ERROR_RT_MODEL_RUNNING, "aclmdlRIDestroy of a running model");
    EXPECT_CODE(aclmdlRIUnbindStream(mh, held), ACL_ERROR_RT_MODEL_RUNNING, "aclmdlRIUnbindStream of a running model");
    open_gate();
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 1, "the held run finished");
    CHECK(aclmdlRIUnbindStream(mh, held));
    CHECK(aclmdlRIDestroy(mh));
    pass("after the run: aclmdlRIUnbindStream and aclmdlRIDestroy");

    aclmdlRI slow = NULL;
    CHECK(aclmdlRIBuildBegin(&slow, 0));
    CHECK(aclmdlRIBindStream(slow, held, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(aclrtLaunchHostFunc(held, sleep_host, (void *)(intptr_t)300));
    CHECK(aclmdlRIBuildEnd(slow, NULL));
    double t0 = now_ms();
    /* The reference gives no code for an expired timeout; it is the
     * stream-synchronization timeout. */
    EXPECT_CODE(aclmdlRIExecute(slow, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "aclmdlRIExecute(50 ms) of a 300 ms model");
    double waited = now_ms() - t0;
    EXPECT(waited >= 40 && waited < 250, "it gave up after %.0f ms", waited);
    CHECK(aclrtSynchronizeStream(NULL));
    CHECK(aclmdlRIDestroy(slow));

    /* Destroy callbacks: each registered function runs once at destroy,
     * an unregistered one does not. */
    int calls = 0;
    CHECK(aclmdlRIDestroyRegisterCallback(m3, count_cb, &calls));
    CHECK(aclmdlRIDestroyRegisterCallback(m3, other_cb, &calls));
    CHECK(aclmdlRIDestroyUnregisterCallback(m3, other_cb));
    EXPECT_CODE(aclmdlRIDestroyUnregisterCallback(m3, other_cb), ACL_ERROR_RT_PARAM_INVALID,
                "unregistering a function not registered");
    EXPECT_CODE(aclmdlRIDestroyRegisterCallback(m3, NULL, NULL), ACL_ERROR_INVALID_PARAM, "registering NULL");
    EXPECT(calls == 0, "no callback before aclmdlRIDestroy");
    CHECK(aclmdlRIDestroy(m3));
    EXPECT(calls == 1, "aclmdlRIDestroy ran the registered callback once, not the unregistered one (%d)", calls);

    /* A destroyed model is gone; its streams are unbound. */
    EXPECT_CODE(aclmdlRIDestroy(m3), ACL_ERROR_RT_INVALID_HANDLE, "aclmdlRIDestroy twice");
    EXPECT_CODE(aclmdlRIExecute(m3, -1), ACL_ERROR_RT_INVALID_HANDLE, "aclmdlRIExecute of a destroyed model");
    EXPECT_CODE(aclmdlRIExecuteAsync(m3, run), ACL_ERROR_RT_INVALID_HANDLE, "aclmdlRIExecuteAsync of a destroyed model");
    EXPECT_CODE(trace(spare, 1), ACL_ERROR_RT_STREAM_MODEL, "its stream is unbound: a task on it");
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclmdlRIDestroy(m2));

    CHECK(aclrtDestroyStream(head));
    CHECK(aclrtDestroyStream(side));
    CHECK(aclrtDestroyStream(spare));
    CHECK(aclrtDestroyStream(held));
    CHECK(aclrtDestroyStream(run));
    CHECK(aclrtDestroyStream(run2));
    CHECK(aclrtFree(word));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 12_model_build\n");
    return 0;
}
