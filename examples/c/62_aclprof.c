/*
 * 62_aclprof: collection through the aclprof calls (acl/acl_prof.h):
 * aclprofInit after aclInit, configurations, aclprofSetConfig, the call
 * order's codes, aclprofStart and aclprofStop over two devices, and the
 * msproftx calls (stamps, marks, pushed ranges, ranges by id, marks on a
 * stream, tensor ranges, step marks, aclrtProfTrace), each bad input
 * refused with CANN's code and a message naming it. It then reads the
 * timeline of the PROF_ directory it wrote for its marks.
 */
#include "common.h"

#include <dirent.h>
#include <pthread.h>

#include "acl/acl_prof.h"

#define OUT "./prof_out"
#define TYPES (ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)

/* CREATE_FAILS(call, sub, what): a create call returns NULL, the thread's
 * last error ACL_ERROR_INVALID_PARAM with a message containing sub. */
#define CREATE_FAILS(call, sub, what)                                                                          \
    do {                                                                                                       \
        clear_errors();                                                                                        \
        const void *p_ = (call);                                                                               \
        aclError e_ = aclrtGetLastError(ACL_RT_THREAD_LEVEL);                                                  \
        const char *m_ = aclGetRecentErrMsg();                                                                 \
        EXPECT(p_ == NULL && e_ == ACL_ERROR_INVALID_PARAM && m_ != NULL && strstr(m_, (sub)) != NULL,       \
               "%s: NULL, %d: %s", (what), e_, m_ ? m_ : "(none)");                                           \
    } while (0)

/* timeline reads the one timeline under OUT into buf. */
static void timeline(char *buf, size_t size)
{
    char path[1024];
    DIR *d = opendir(OUT);
    struct dirent *e;
    int found = 0;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "PROF_", 5) != 0) {
            continue;
        }
        snprintf(path, sizeof path, OUT "/%s/mindstudio_profiler_output", e->d_name);
        DIR *m = opendir(path);
        struct dirent *f;
        while (m != NULL && (f = readdir(m)) != NULL) {
            if (strncmp(f->d_name, "msprof_", 7) == 0) {
                size_t n = strlen(path);
                snprintf(path + n, sizeof path - n, "/%s", f->d_name);
                found++;
                break;
            }
        }
        if (m != NULL) {
            closedir(m);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    EXPECT(found == 1, "the session wrote one PROF_ directory with its timeline under " OUT " (%d)", found);
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(buf, 1, size - 1, fp) : 0;
    buf[n] = 0;
    if (fp != NULL) {
        fclose(fp);
    }
    EXPECT(n > 0 && strstr(buf, "\n]") != NULL, "the timeline is complete (%zu bytes, closed)", n);
}

static void *pop_elsewhere(void *arg)
{
    (void)arg;
    REFUSE(aclprofPop(), ACL_ERROR_PROF_NOT_RUN, "no range was pushed on this thread", "aclprofPop on a thread that pushed nothing");
    return NULL;
}

static void configs(uint32_t *devs)
{
    CREATE_FAILS(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, TYPES), "deviceIdList is NULL", "aclprofCreateConfig(NULL list)");
    CREATE_FAILS(aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, (const aclprofAicoreEvents *)devs, TYPES), "expected NULL",
                 "aclprofCreateConfig with aicoreEvents");
    CREATE_FAILS(aclprofCreateConfig(devs, 65, ACL_AICORE_NONE, NULL, TYPES), "deviceNums 65", "aclprofCreateConfig of 65 devices");
    CREATE_FAILS(aclprofCreateConfig(devs, 0, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API), "deviceNums is 0",
                 "aclprofCreateConfig of no device without ACL_PROF_MSPROFTX");
    uint32_t bad[2] = {7, 0}, twice[2] = {0, 0};
    CREATE_FAILS(aclprofCreateConfig(bad, 1, ACL_AICORE_NONE, NULL, TYPES), "device id 7", "aclprofCreateConfig of device 7 of 2");
    CREATE_FAILS(aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, NULL, TYPES), "twice", "aclprofCreateConfig of device 0 twice");
    REFUSE(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM, "profilerConfig is NULL", "aclprofDestroyConfig(NULL)");
    REFUSE(aclprofDestroyConfig((const aclprofConfig *)(uintptr_t)0x10000), ACL_ERROR_INVALID_PARAM, "not a live profiling configuration",
           "aclprofDestroyConfig of no configuration");
}

static void settings(void)
{
    REFUSE(aclprofSetConfig(ACL_PROF_ARGS_MIN, "15", 2), ACL_ERROR_INVALID_PARAM, "configType 0", "aclprofSetConfig(ACL_PROF_ARGS_MIN)");
    REFUSE(aclprofSetConfig(ACL_PROF_ARGS_MAX, "15", 2), ACL_ERROR_INVALID_PARAM, "configType 17", "aclprofSetConfig(ACL_PROF_ARGS_MAX)");
    REFUSE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 257), ACL_ERROR_INVALID_PARAM, "configLength 257", "aclprofSetConfig of 257 bytes");
    REFUSE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, NULL, 2), ACL_ERROR_INVALID_PARAM, "config is NULL", "aclprofSetConfig(NULL)");
    REFUSE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 3), ACL_ERROR_INVALID_PARAM, "not the length", "aclprofSetConfig with a wrong length");
    REFUSE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "101", 3), ACL_ERROR_INVALID_PROFILING_CONFIG, "1 to 100",
           "aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, 101)");
    REFUSE(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG, "200MB", "aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, 100MB)");
    REFUSE(aclprofSetConfig(ACL_PROF_LLC_MODE, "both", 4), ACL_ERROR_INVALID_PROFILING_CONFIG, "\"read\" or \"write\"", "aclprofSetConfig(ACL_PROF_LLC_MODE, both)");
    REFUSE(aclprofSetConfig(ACL_PROF_OPTYPE, "MatMul", 6), ACL_ERROR_INVALID_PROFILING_CONFIG, "Ascend910B1", "aclprofSetConfig(ACL_PROF_OPTYPE) on an Atlas A2");
    REFUSE(aclprofSetConfig(ACL_PROF_NTS_METRICS, "Memory", 6), ACL_ERROR_INVALID_PARAM, "PipeUtilization", "aclprofSetConfig(ACL_PROF_NTS_METRICS, Memory)");
    EXPECT_CODE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), 0, "aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, 15)");
    EXPECT_CODE(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "500MB", 5), 0, "aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, 500MB)");
    EXPECT_CODE(aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu,mem", 7), 0, "aclprofSetConfig(ACL_PROF_HOST_SYS, cpu,mem)");
}

static void stamps(aclrtStream s)
{
    void *st = aclprofCreateStamp();
    EXPECT(st != NULL, "aclprofCreateStamp in a session with ACL_PROF_MSPROFTX");
    REFUSE(aclprofSetStampTraceMessage(NULL, "x", 1), ACL_ERROR_INVALID_PARAM, "stamp is NULL", "aclprofSetStampTraceMessage(NULL stamp)");
    REFUSE(aclprofSetStampTraceMessage(st, NULL, 1), ACL_ERROR_INVALID_PARAM, "msg is NULL", "aclprofSetStampTraceMessage(NULL msg)");
    REFUSE(aclprofSetStampTraceMessage(st, "x", 128), ACL_ERROR_INVALID_PARAM, "msgLen 128", "aclprofSetStampTraceMessage of 128 bytes");
    CHECK(aclprofSetStampTraceMessage(st, "c_mark", 6));
    REFUSE(aclprofMark(NULL), ACL_ERROR_INVALID_PARAM, "stamp is NULL", "aclprofMark(NULL)");
    EXPECT_CODE(aclprofMark(st), 0, "aclprofMark");
    REFUSE(aclprofPush(NULL), ACL_ERROR_INVALID_PARAM, "stamp is NULL", "aclprofPush(NULL)");
    EXPECT_CODE(aclprofPush(st), 0, "aclprofPush");
    pthread_t th;
    pthread_create(&th, NULL, pop_elsewhere, NULL);
    pthread_join(th, NULL);
    sleep_ms(2);
    EXPECT_CODE(aclprofPop(), 0, "aclprofPop on the pushing thread");
    REFUSE(aclprofPop(), ACL_ERROR_PROF_NOT_RUN, "no range was pushed", "a second aclprofPop");
    uint32_t id = 0;
    REFUSE(aclprofRangeStart(st, NULL), ACL_ERROR_INVALID_PARAM, "rangeId is NULL", "aclprofRangeStart(NULL id)");
    EXPECT_CODE(aclprofRangeStart(st, &id), 0, "aclprofRangeStart");
    REFUSE(aclprofRangeStop(id + 100), ACL_ERROR_INVALID_PARAM, "rangeId", "aclprofRangeStop of an unknown id");
    EXPECT_CODE(aclprofRangeStop(id), 0, "aclprofRangeStop");
    REFUSE(aclprofRangeStop(id), ACL_ERROR_INVALID_PARAM, "rangeId", "aclprofRangeStop of a stopped range");
    REFUSE(aclprofMarkEx(NULL, 1, s), ACL_ERROR_INVALID_PARAM, "msg is NULL", "aclprofMarkEx(NULL msg)");
    REFUSE(aclprofMarkEx("x", 1, NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL", "aclprofMarkEx(NULL stream)");
    REFUSE(aclprofMarkEx("x", 0, s), ACL_ERROR_INVALID_PARAM, "msgLen 0", "aclprofMarkEx of 0 bytes");
    REFUSE(aclprofMarkEx("x", 128, s), ACL_ERROR_INVALID_PARAM, "msgLen 128", "aclprofMarkEx of 128 bytes");
    REFUSE(aclprofMarkEx("xy", 1, s), ACL_ERROR_INVALID_PARAM, "not the length", "aclprofMarkEx with a wrong length");
    EXPECT_CODE(aclprofMarkEx("c_stream_mark", 13, s), 0, "aclprofMarkEx on a stream");
    void *more[100];
    int n = 0;
    while (n < 100 && (more[n] = aclprofCreateStamp()) != NULL) {
        n++;
    }
    EXPECT(n == 99, "at most 100 stamps live (%d more than the first)", n);
    while (n > 0) {
        aclprofDestroyStamp(more[--n]);
    }
    aclprofDestroyStamp(st);
    clear_errors();
    aclprofDestroyStamp(st);
    EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM, "aclprofDestroyStamp of a destroyed stamp is refused");
}

static void tensors(void)
{
    uint64_t id = aclprofStr2Id("MatMul_1");
    EXPECT(id != UINT64_MAX && aclprofStr2Id("MatMul_1") == id, "aclprofStr2Id gives one id per string (%llu)", (unsigned long long)id);
    EXPECT(aclprofStr2Id(NULL) == UINT64_MAX && aclprofStr2Id("") == UINT64_MAX, "aclprofStr2Id of NULL or \"\" is UINT64_MAX");
    aclprofTensor t[2] = {{0, ACL_FORMAT_ND, ACL_FLOAT16, 2, {2, 3}}, {1, ACL_FORMAT_ND, ACL_FLOAT16, 1, {6}}};
    aclprofTensorInfo info = {id, aclprofStr2Id("MatMul"), 0, 2, 0, 8, NULL, t};
    aclprofEventAttributes attr = {ACL_PROF_EVENT_ATTR_VERSION, sizeof attr, ACL_PROF_MESSAGE_TYPE_TENSOR_INFO, {&info}};
    REFUSE(aclprofRangePushEx(NULL), ACL_ERROR_INVALID_PARAM, "attr is NULL", "aclprofRangePushEx(NULL)");
    attr.messageType = 3;
    REFUSE(aclprofRangePushEx(&attr), ACL_ERROR_INVALID_PARAM, "messageType 3", "aclprofRangePushEx of message type 3");
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    aclprofEventAttributes wild = attr;
    wild.message.tensorInfo = (aclprofTensorInfo *)(uintptr_t)16;
    REFUSE(aclprofRangePushEx(&wild), ACL_ERROR_INVALID_PARAM, "tensorInfo is 0x10", "aclprofRangePushEx of a tensor information at 0x10");
    t[1].shapeDim = 9;
    REFUSE(aclprofRangePushEx(&attr), ACL_ERROR_INVALID_PARAM, "shapeDim 9", "aclprofRangePushEx of a 9-dimension tensor");
    t[1].shapeDim = 1;
    EXPECT_CODE(aclprofRangePushEx(&attr), 0, "aclprofRangePushEx");
    EXPECT_CODE(aclprofRangePop(), 0, "aclprofRangePop");
    REFUSE(aclprofRangePop(), ACL_ERROR_INVALID_PARAM, "no tensor range", "a second aclprofRangePop");
}

static void steps(aclrtStream s)
{
    aclprofStepInfo *si = aclprofCreateStepInfo();
    EXPECT(si != NULL, "aclprofCreateStepInfo");
    REFUSE(aclprofGetStepTimestamp(NULL, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM, "stepInfo is NULL", "aclprofGetStepTimestamp(NULL)");
    REFUSE(aclprofGetStepTimestamp(si, (aclprofStepTag)5, s), ACL_ERROR_INVALID_PARAM, "tag 5", "aclprofGetStepTimestamp of tag 5");
    EXPECT_CODE(aclprofGetStepTimestamp(si, ACL_STEP_START, s), 0, "aclprofGetStepTimestamp(ACL_STEP_START)");
    REFUSE(aclprofGetStepTimestamp(si, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM, "already has its start", "a second ACL_STEP_START");
    EXPECT_CODE(aclprofGetStepTimestamp(si, ACL_STEP_END, NULL), 0, "aclprofGetStepTimestamp(ACL_STEP_END) on the default stream");
    REFUSE(aclprofGetStepTimestamp(si, ACL_STEP_END, s), ACL_ERROR_INVALID_PARAM, "already has its end", "a second ACL_STEP_END");
    aclprofDestroyStepInfo(si);
    uint8_t data[19] = {42};
    REFUSE(aclrtProfTrace(NULL, 18, s), ACL_ERROR_INVALID_PARAM, "userdata is NULL", "aclrtProfTrace(NULL)");
    REFUSE(aclrtProfTrace(data, 0, s), ACL_ERROR_RT_PARAM_INVALID, "length 0", "aclrtProfTrace of 0 bytes");
    REFUSE(aclrtProfTrace(data, 19, s), ACL_ERROR_RT_PARAM_INVALID, "length 19", "aclrtProfTrace of 19 bytes");
    EXPECT_CODE(aclrtProfTrace(data, 18, s), 0, "aclrtProfTrace of 18 bytes");
}

int main(void)
{
    aclrtStream s = NULL;
    uint32_t devs[2] = {0, 1};
    static char buf[1 << 20];

    REFUSE(aclprofInit(OUT, strlen(OUT)), ACL_ERROR_UNINITIALIZE, "aclInit", "aclprofInit before aclInit");
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    configs(devs);
    aclprofConfig *cfg = aclprofCreateConfig(devs, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, NULL, TYPES);
    aclprofConfig *dev1 = aclprofCreateConfig(devs + 1, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, NULL, TYPES);
    aclprofConfig *other = aclprofCreateConfig(devs + 1, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API);
    aclprofConfig *none = aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, 0);
    aclprofConfig *alien = aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, 1ULL << 40);
    aclprofConfig *metric = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_EXECUTE_UTILIZATION, NULL, ACL_PROF_AICORE_METRICS);
    EXPECT(cfg && dev1 && other && none && alien && metric, "aclprofCreateConfig of valid configurations");
    REFUSE(aclprofStart(cfg), ACL_ERROR_PROF_NOT_RUN, "aclprofInit has not been called", "aclprofStart before aclprofInit");
    REFUSE(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN, "aclprofInit has not been called", "aclprofStop before aclprofInit");
    REFUSE(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN, "aclprofInit has not been called", "aclprofFinalize before aclprofInit");
    REFUSE(aclprofInit(NULL, 4), ACL_ERROR_INVALID_PARAM, "profilerResultPath is NULL", "aclprofInit(NULL)");
    REFUSE(aclprofInit(OUT, 0), ACL_ERROR_INVALID_PARAM, "length 0", "aclprofInit of length 0");
    REFUSE(aclprofInit(OUT, 4096), ACL_ERROR_INVALID_PARAM, "length 4096", "aclprofInit of length 4096");
    REFUSE(aclprofInit(OUT, 3), ACL_ERROR_INVALID_PARAM, "not the length", "aclprofInit with a wrong length");
    EXPECT_CODE(aclprofInit(OUT, strlen(OUT)), 0, "aclprofInit after aclInit");
    REFUSE(aclprofInit(OUT, strlen(OUT)), ACL_ERROR_REPEAT_INITIALIZE, "already called", "a second aclprofInit");
    settings();
    EXPECT(aclprofCreateStamp() == NULL && aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_PROF_NOT_RUN,
           "aclprofCreateStamp before aclprofStart is NULL, ACL_ERROR_PROF_NOT_RUN");
    REFUSE(aclprofStart(NULL), ACL_ERROR_INVALID_PARAM, "profilerConfig is NULL", "aclprofStart(NULL)");
    REFUSE(aclprofStart(none), ACL_ERROR_INVALID_PARAM, "dataTypeConfig is 0", "aclprofStart of no data type");
    REFUSE(aclprofStart(alien), ACL_ERROR_PROF_MODULES_UNSUPPORTED, "bits 0x10000000000", "aclprofStart of an unknown data type");
    REFUSE(aclprofStart(metric), ACL_ERROR_INVALID_PARAM, "aicoreMetrics 7", "aclprofStart of a metric the Atlas A2 lacks");
    REFUSE(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN, "no profiling session", "aclprofStop before aclprofStart");
    EXPECT_CODE(aclprofStart(cfg), 0, "aclprofStart on device 0");
    REFUSE(aclprofStart(cfg), ACL_ERROR_PROF_ALREADY_RUN, "device 0 is already being profiled", "aclprofStart of device 0 again");
    REFUSE(aclprofStart(other), ACL_ERROR_INVALID_PROFILING_CONFIG, "differs", "aclprofStart of device 1 with other data types");
    EXPECT_CODE(aclprofStart(dev1), 0, "aclprofStart adds device 1 to the session");
    REFUSE(aclprofStop(other), ACL_ERROR_INVALID_PROFILING_CONFIG, "differs from aclprofStart", "aclprofStop with other data types");
    EXPECT_CODE(aclprofStop(dev1), 0, "aclprofStop of device 1 leaves device 0 profiled");
    REFUSE(aclprofStop(dev1), ACL_ERROR_PROF_NOT_RUN, "not being profiled", "aclprofStop of device 1 again");
    stamps(s);
    tensors();
    steps(s);
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtSynchronizeDevice());
    EXPECT_CODE(aclprofStop(cfg), 0, "aclprofStop of the last device ends the session");
    void *late = aclprofCreateStamp();
    EXPECT(late == NULL, "aclprofCreateStamp after aclprofStop is NULL");
    REFUSE(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN, "no profiling session", "a second aclprofStop");
    EXPECT_CODE(aclprofFinalize(), 0, "aclprofFinalize");
    REFUSE(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN, "aclprofInit has not been called", "a second aclprofFinalize");
    aclprofConfig *all[] = {cfg, dev1, other, none, alien, metric};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK(aclprofDestroyConfig(all[i]));
    }
    REFUSE(aclprofDestroyConfig(cfg), ACL_ERROR_INVALID_PARAM, "not a live", "aclprofDestroyConfig twice");

    timeline(buf, sizeof buf);
    EXPECT(strstr(buf, "\"ph\":\"i\",\"name\":\"c_mark\"") != NULL, "the timeline has the aclprofMark instant c_mark");
    EXPECT(strstr(buf, "\"ph\":\"X\",\"name\":\"c_mark\"") != NULL, "and the aclprofPush/Pop and aclprofRangeStart/Stop ranges of c_mark");
    EXPECT(strstr(buf, "\"ph\":\"X\",\"name\":\"c_stream_mark\"") != NULL && strstr(buf, "\"MARKEX\"") != NULL,
           "the aclprofMarkEx mark on the stream's track, on the device");
    EXPECT(strstr(buf, "\"MatMul_1\"") != NULL && strstr(buf, "input format 2 type 1 [2,3]") != NULL,
           "the tensor range named by aclprofStr2Id's string, with its tensors");
    EXPECT(strstr(buf, "\"Step 1 Start\"") != NULL && strstr(buf, "\"Step 1 End\"") != NULL, "the step marks");
    EXPECT(strstr(buf, "\"ProfTrace 42\"") != NULL, "the aclrtProfTrace mark, id 42");
    EXPECT(strstr(buf, "AscendCL@aclprofMark") != NULL, "the aclprof calls themselves, as API calls");

    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 62_aclprof\n");
    return 0;
}
