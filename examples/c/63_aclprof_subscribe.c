/*
 * 63_aclprof_subscribe: model subscription (acl/acl_prof.h). A captured
 * model of a vadd launch and a memset is subscribed with the write end of
 * a pipe; each run writes one record per operation, which a reader thread
 * takes until unsubscribing closes the pipe, and the aclprofGetOp* calls
 * read back. Also: a model the loader registered (profiling/aprof_pub.h),
 * the refusals with CANN's codes, the rules against aclprofInit and
 * against profiling by aclInit's configuration, aclFinalize ending a
 * subscription, and a chip without the profiling calls.
 *
 * Usage: 63_aclprof_subscribe <kernel binary with vadd>
 */
#include "common.h"

#include <pthread.h>
#include <unistd.h>

#include "acl/acl_prof.h"
#include "profiling/aprof_pub.h"

/* pipe_reader reads a pipe until its write end is closed. */
typedef struct {
    int fd;
    char buf[1 << 16];
    size_t n;
    pthread_t th;
} pipe_reader;

static void *read_all(void *arg)
{
    pipe_reader *r = arg;
    ssize_t got;
    while ((got = read(r->fd, r->buf + r->n, sizeof r->buf - r->n)) > 0) {
        r->n += (size_t)got;
    }
    return NULL;
}

/* start_reader makes a pipe, reads its read end on a thread and stores
 * the write end in *w. */
static void start_reader(pipe_reader *r, int *w)
{
    int fds[2];
    EXPECT(pipe(fds) == 0, "a pipe for the subscription");
    r->n = 0;
    r->fd = fds[0];
    *w = fds[1];
    pthread_create(&r->th, NULL, read_all, r);
}

static void join_reader(pipe_reader *r, const char *what)
{
    pthread_join(r->th, NULL);
    close(r->fd);
    pass("%s: the reader saw the pipe's end after %zu bytes", what, r->n);
}

/* capture_model captures a vadd launch and a memset of 64 bytes on s. */
static aclmdlRI capture_model(aclrtStream s, aclrtFuncHandle vadd, void *x)
{
    aclmdlRI m = NULL;
    uint64_t args[4] = {(uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)x, 16};
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtLaunchKernel(vadd, 1, args, sizeof args, s));
    CHECK(aclrtMemsetAsync(x, 64, 0, 64, s));
    CHECK(aclmdlRICaptureEnd(s, &m));
    return m;
}

/* read_records checks the n records a subscription of model id wrote. */
static void read_records(char *buf, size_t len, uint32_t id, uint32_t want)
{
    size_t size = 0;
    uint32_t n = 0;
    REFUSE(aclprofGetOpDescSize(NULL), ACL_ERROR_INVALID_PARAM, "opDescSize is NULL", "aclprofGetOpDescSize(NULL)");
    CHECK(aclprofGetOpDescSize(&size));
    REFUSE(aclprofGetOpNum(buf, len - 1, &n), ACL_ERROR_INVALID_PARAM, "multiple of 80", "aclprofGetOpNum of a cut record");
    REFUSE(aclprofGetOpNum(buf, len, NULL), ACL_ERROR_INVALID_PARAM, "opNumber is NULL", "aclprofGetOpNum(NULL)");
    CHECK(aclprofGetOpNum(buf, len, &n));
    EXPECT(size == 80 && n == want && len == n * size, "%u records of %zu bytes, one per operation of each run", n, size);
    int kernels = 0, memsets = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t tl = 0, nl = 0;
        char type[64], name[64];
        CHECK(aclprofGetOpTypeLen(buf, len, i, &tl));
        CHECK(aclprofGetOpType(buf, len, i, type, sizeof type));
        CHECK(aclprofGetOpNameLen(buf, len, i, &nl));
        CHECK(aclprofGetOpName(buf, len, i, name, nl));
        uint64_t start = aclprofGetOpStart(buf, len, i), end = aclprofGetOpEnd(buf, len, i);
        if (aclprofGetModelId(buf, len, i) != id || aclprofGetOpFlag(buf, len, i) != ACL_SUBSCRIBE_OP ||
            strlen(type) + 1 != tl || strlen(name) + 1 != nl || start == 0 || end < start ||
            aclprofGetOpDuration(buf, len, i) != end - start) {
            EXPECT(0, "record %u: model %zu, %s %s, %llu..%llu", i, aclprofGetModelId(buf, len, i), type, name,
                   (unsigned long long)start, (unsigned long long)end);
        }
        kernels += strcmp(name, "vadd") == 0 && strcmp(type, "AI_VECTOR_CORE") == 0;
        memsets += strcmp(name, "MEMSET_ASYNC") == 0;
    }
    EXPECT(kernels == (int)n / 2 && memsets == (int)n / 2, "each run wrote vadd (AI_VECTOR_CORE) and MEMSET_ASYNC with their times (%d, %d)", kernels, memsets);
    char small[4];
    REFUSE(aclprofGetOpType(buf, len, 0, small, sizeof small), ACL_ERROR_INVALID_PARAM, "read already", "reading a record's type twice");
    REFUSE(aclprofGetOpNameLen(buf, len, n, &size), ACL_ERROR_INVALID_PARAM, "index", "aclprofGetOpNameLen past the records");
    EXPECT(aclprofGetOpStart(buf, len, n) == 0 && aclprofGetModelId(buf, len, n) == 0 && aclprofGetOpFlag(buf, len, n) == ACL_SUBSCRIBE_NONE,
           "the number getters past the records give 0 and ACL_SUBSCRIBE_NONE");
    EXPECT(aclprofGetOpAttriValue(buf, len, 0, ACL_SUBSCRIBE_ATTRI_THREADID) == NULL,
           "aclprofGetOpAttriValue: an ACL_SUBSCRIBE_OP record has no thread attribute");
    buf[40] ^= 1;
    REFUSE(aclprofGetOpNum(buf, len, &n), ACL_ERROR_INVALID_PARAM, "wrong signature", "aclprofGetOpNum of a changed record");
}

static void errors(uint32_t id, aclprofSubscribeConfig *cfg, int wfd)
{
    int bad = -1;
    clear_errors();
    EXPECT(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL) == NULL && aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM,
           "aclprofCreateSubscribeConfig(NULL fd) is NULL, ACL_ERROR_INVALID_PARAM");
    EXPECT(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &wfd) == NULL, "aclprofCreateSubscribeConfig of timeInfoSwitch 2 is NULL");
    EXPECT(aclprofCreateSubscribeConfig(1, (aclprofAicoreMetrics)42, &wfd) == NULL, "aclprofCreateSubscribeConfig of metric 42 is NULL");
    aclprofSubscribeConfig *closed = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &bad);
    REFUSE(aclprofModelSubscribe(id + 1000, cfg), ACL_ERROR_INVALID_MODEL_ID, "modelId", "aclprofModelSubscribe of no model");
    REFUSE(aclprofModelSubscribe(id, NULL), ACL_ERROR_INVALID_PARAM, "profSubscribeConfig is NULL", "aclprofModelSubscribe(NULL)");
    REFUSE(aclprofModelSubscribe(id, closed), ACL_ERROR_INVALID_PARAM, "not an open file descriptor", "aclprofModelSubscribe to fd -1");
    REFUSE(aclprofModelUnSubscribe(id), ACL_ERROR_INVALID_MODEL_ID, "not subscribed", "aclprofModelUnSubscribe of a model not subscribed");
    REFUSE(aclprofDestroySubscribeConfig(NULL), ACL_ERROR_INVALID_PARAM, "is NULL", "aclprofDestroySubscribeConfig(NULL)");
    CHECK(aclprofDestroySubscribeConfig(closed));
}

int main(int argc, char **argv)
{
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle vadd = NULL;
    void *x = NULL;
    uint32_t id = 0;
    static pipe_reader r1, r2, r3;
    int w1, w2, w3;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernels.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
    CHECK(aclrtMalloc(&x, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlRI m = capture_model(s, vadd, x);
    CHECK(aclmdlRIGetId(m, &id));

    start_reader(&r1, &w1);
    aclprofSubscribeConfig *cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &w1);
    EXPECT(cfg != NULL, "aclprofCreateSubscribeConfig");
    errors(id, cfg, w1);
    int rd = r1.fd;
    aclprofSubscribeConfig *ro = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &rd);
    REFUSE(aclprofModelSubscribe(id, ro), ACL_ERROR_INVALID_PARAM, "read-only", "aclprofModelSubscribe to a pipe's read end");
    EXPECT_CODE(aclprofModelSubscribe(id, cfg), 0, "aclprofModelSubscribe of the captured model");
    REFUSE(aclprofModelSubscribe(id, cfg), ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "already subscribed", "aclprofModelSubscribe twice");
    EXPECT(MsprofSetDeviceIdByGeModelIdx(777, 0) == 0, "MsprofSetDeviceIdByGeModelIdx registers model 777 on device 0");
    start_reader(&r2, &w2);
    aclprofSubscribeConfig *notime = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &w2);
    REFUSE(aclprofModelSubscribe(777, notime), ACL_ERROR_INVALID_PROFILING_CONFIG, "expected the same",
           "a model of the same device with another configuration");
    REFUSE(aclprofInit("./prof_out", 10), ACL_ERROR_PROF_API_CONFLICT, "a model is subscribed", "aclprofInit while a model is subscribed");
    for (int i = 0; i < 3; i++) {
        CHECK(aclmdlRIExecuteAsync(m, s));
    }
    CHECK(aclrtSynchronizeStream(s));
    EXPECT_CODE(aclprofModelUnSubscribe(id), 0, "aclprofModelUnSubscribe writes what ran and closes the pipe");
    join_reader(&r1, "captured model");
    read_records(r1.buf, r1.n, id, 6);

    /* The registered model: subscribed, it has no runs here; its pipe
     * closes with the unsubscription, and unregistered it is gone. */
    aclprofSubscribeConfig *same = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &w2);
    EXPECT_CODE(aclprofModelSubscribe(777, same), 0, "aclprofModelSubscribe of the registered model");
    EXPECT_CODE(aclprofModelUnSubscribe(777), 0, "aclprofModelUnSubscribe of it");
    join_reader(&r2, "registered model");
    EXPECT(MsprofUnsetDeviceIdByGeModelIdx(777, 0) == 0, "MsprofUnsetDeviceIdByGeModelIdx");
    REFUSE(aclprofModelSubscribe(777, same), ACL_ERROR_INVALID_MODEL_ID, "modelId 777", "aclprofModelSubscribe of the unregistered model");
    EXPECT(MsprofGetHashId("MatMul_1", 8) == aclprofStr2Id("MatMul_1") && MsprofStr2Id("MatMul_1", 8) == aclprofStr2Id("MatMul_1"),
           "MsprofGetHashId and MsprofStr2Id are aclprofStr2Id");

    /* aclprofInit's mode refuses subscriptions until aclprofFinalize. */
    CHECK(aclprofInit("./prof_out", 10));
    REFUSE(aclprofModelSubscribe(id, cfg), ACL_ERROR_PROF_API_CONFLICT, "aclprofInit was called", "aclprofModelSubscribe after aclprofInit");
    REFUSE(aclprofModelUnSubscribe(id), ACL_ERROR_PROF_API_CONFLICT, "aclprofInit was called", "aclprofModelUnSubscribe after aclprofInit");
    CHECK(aclprofFinalize());

    /* aclFinalize ends a subscription, closing its pipe. */
    start_reader(&r3, &w3);
    aclprofSubscribeConfig *last = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &w3);
    CHECK(aclprofModelSubscribe(id, last));
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtFree(x));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    join_reader(&r3, "aclFinalize");
    EXPECT(r3.n == 2 * 80, "the run before aclFinalize wrote its 2 records (%zu bytes)", r3.n);

    /* Profiling by aclInit's configuration refuses the aclprof calls. */
    write_file("63_cmd.json", "{\"profiler\": {\"switch\": \"on\", \"output\": \"./cmd_out\", \"task_time\": \"on\"}}");
    CHECK(aclInit("63_cmd.json"));
    REFUSE(aclprofInit("./prof_out", 10), ACL_ERROR_PROF_ALREADY_RUN, "aclInit's configuration", "aclprofInit while aclInit's configuration profiles");
    aclprofConfig *pc = aclprofCreateConfig((uint32_t[]){0}, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API);
    REFUSE(aclprofStart(pc), ACL_ERROR_PROF_ALREADY_RUN, "aclInit's configuration", "aclprofStart while aclInit's configuration profiles");
    CHECK(MsprofSetDeviceIdByGeModelIdx(888, 0));
    REFUSE(aclprofModelSubscribe(888, cfg), ACL_ERROR_PROF_ALREADY_RUN, "aclInit's configuration", "aclprofModelSubscribe while it profiles");
    CHECK(aclprofDestroyConfig(pc));
    CHECK(aclFinalize());
    aclprofSubscribeConfig *cfgs[] = {cfg, ro, notime, same, last};
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        CHECK(aclprofDestroySubscribeConfig(cfgs[i]));
    }

    /* The IPV350 offers no profiling calls (nor aclGetRecentErrMsg). */
    init_chip("63_ipv350.json", "Ascend035");
    EXPECT_CODE(aclprofInit("./prof_out", 10), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclprofInit on an IPV350");
    EXPECT_CODE(aclprofPop(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclprofPop on an IPV350");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 63_aclprof_subscribe\n");
    return 0;
}
