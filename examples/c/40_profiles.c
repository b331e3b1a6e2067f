/*
 * 40_profiles: the simulated chip, chosen by GOCANN_SOC_NAME (the harness
 * runs this program with GOCANN_SOC_NAME=Ascend910_9391, an Atlas A3) or by
 * the configuration's "simulator" section, which wins. aclrtGetSocName and
 * the device's figures follow it, and a function the API reference marks
 * unsupported on the chip's product fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) naming the chip, while a chip
 * that has it runs it: aclrtActiveStream and aclrtSwitchStream are not on
 * Atlas A3 and are on Atlas A2; the stream configuration handle functions
 * are on IPV350 alone, whose streams come only from them, and which lacks
 * aclrtCreateStream, aclrtLaunchHostFunc and aclrtGetSocName; an Atlas
 * training chip has NPU architecture 1001 and no capture.
 */
#include "common.h"

#include <pthread.h>

struct built {
    aclmdlRI m;
    aclrtStream s[2];
};

static struct built build_begin(void)
{
    struct built b;
    CHECK(aclmdlRIBuildBegin(&b.m, 0));
    for (int i = 0; i < 2; i++) {
        CHECK(aclrtCreateStreamWithConfig(&b.s[i], 0, ACL_STREAM_PERSISTENT));
        CHECK(aclmdlRIBindStream(b.m, b.s[i], i == 0 ? ACL_MODEL_STREAM_FLAG_HEAD : ACL_MODEL_STREAM_FLAG_DEFAULT));
    }
    return b;
}

static void build_free(struct built *b)
{
    CHECK(aclmdlRIDestroy(b->m));
    for (int i = 0; i < 2; i++) {
        CHECK(aclrtDestroyStream(b->s[i]));
    }
}

static volatile int ran;

static void mark(void *arg)
{
    (void)arg;
    ran++;
}

/* The report thread of the IPV350 section. */
static volatile int reporting = 1;

static void *report_loop(void *arg)
{
    (void)arg;
    while (reporting) {
        (void)aclrtProcessReport(20);
    }
    return NULL;
}

/* ipv350 runs what an IPV350 offers, and is refused what it lacks. */
static void ipv350(void)
{
    write_file("profile_ipv350.json", "{\"simulator\": {\"soc_name\": \"Ascend035\"}}\n");
    CHECK(aclInit("profile_ipv350.json"));
    clear_errors();
    const char *soc = aclrtGetSocName();
    aclError rc = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    EXPECT(soc == NULL && rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetSocName on an IPV350: NULL, last error %d", rc);
    CHECK(aclrtSetDevice(0));
    int64_t cores = 0;
    CHECK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &cores));
    EXPECT(cores == 1, "aclGetDeviceCapability on an IPV350: %lld AI core", (long long)cores);
    EXPECT_CODE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtGetDeviceInfo on an IPV350");
    aclrtStream s = NULL;
    EXPECT_CODE(aclrtCreateStream(&s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCreateStream on an IPV350");
    aclrtStreamConfigHandle *cfg = aclrtCreateStreamConfigHandle();
    EXPECT(cfg != NULL, "aclrtCreateStreamConfigHandle on an IPV350");
    uint32_t prio = 3;
    CHECK(aclrtSetStreamConfigOpt(cfg, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
    CHECK(aclrtCreateStreamV2(&s, cfg));
    CHECK(aclrtDestroyStreamConfigHandle(cfg));

    /* Callbacks through a report thread; host functions it lacks. */
    pthread_t reporter;
    if (pthread_create(&reporter, NULL, report_loop, NULL) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pthread_create");
    }
    CHECK(aclrtSubscribeReport((uint64_t)reporter, s));
    ran = 0;
    CHECK(aclrtLaunchCallback(mark, NULL, ACL_CALLBACK_BLOCK, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(ran == 1, "aclrtLaunchCallback on an aclrtCreateStreamV2 stream of an IPV350: the report thread ran it");
    EXPECT_CODE(aclrtLaunchHostFunc(s, mark, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtLaunchHostFunc on an IPV350");
    CHECK(aclrtSubscribeHostFunc((uint64_t)pthread_self(), s));
    EXPECT_CODE(aclrtProcessHostFunc(10), ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessHostFunc on an IPV350, nothing to run");
    CHECK(aclrtUnSubscribeHostFunc((uint64_t)pthread_self(), s));
    CHECK(aclrtUnSubscribeReport((uint64_t)reporter, s));
    reporting = 0;
    pthread_join(reporter, NULL);

    /* Memory: synchronous copies and sets, no asynchronous ones. */
    void *word = NULL;
    CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(word, 8, 7, 8));
    EXPECT(read_u64(word) == 0x0707070707070707ULL, "aclrtMemset and aclrtMemcpy on an IPV350");
    uint64_t v = 0;
    EXPECT_CODE(aclrtMemcpyAsync(&v, sizeof v, word, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtMemcpyAsync on an IPV350");
    CHECK(aclrtFree(word));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

/* training reads an Atlas training chip's figures; it has no capture. */
static void training(void)
{
    init_chip("profile_910.json", "Ascend910A");
    const char *soc = aclrtGetSocName();
    int64_t arch = 0, cores = 0, vectors = -1;
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &arch));
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vectors));
    EXPECT(soc != NULL && strcmp(soc, "Ascend910A") == 0 && arch == 1001 && cores == 32 && vectors == 0,
           "Ascend910A: NPU architecture %lld, %lld AI cores, %lld vector cores", (long long)arch, (long long)cores,
           (long long)vectors);
    aclrtStream s = NULL;
    CHECK(aclrtCreateStream(&s));
    REFUSE(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclmdlRICaptureBegin is not supported on Ascend910A (Atlas training series)", "aclmdlRICaptureBegin on an Atlas training chip");
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

int main(void)
{
    const char *env = getenv("GOCANN_SOC_NAME");
    if (env == NULL || strcmp(env, "Ascend910_9391") != 0) {
        fprintf(stderr, "run with GOCANN_SOC_NAME=Ascend910_9391\n");
        return 2;
    }
    const char *soc = aclrtGetSocName();
    EXPECT(soc != NULL && strcmp(soc, "Ascend910_9391") == 0, "aclrtGetSocName before aclInit follows GOCANN_SOC_NAME: %s", soc ? soc : "NULL");

    /* ---- Atlas A3, from the environment --------------------------- */
    CHECK(aclInit(NULL));
    soc = aclrtGetSocName();
    EXPECT(soc != NULL && strcmp(soc, "Ascend910_9391") == 0, "after aclInit(NULL): %s", soc ? soc : "NULL");
    CHECK(aclrtSetDevice(0));
    struct built b = build_begin();
    clear_errors();
    aclError rc = aclrtActiveStream(b.s[1], b.s[0]);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT && msg != NULL && strstr(msg, "aclrtActiveStream is not supported on Ascend910_9391") != NULL,
           "aclrtActiveStream on an Atlas A3 -> %d: %s", rc, msg ? msg : "(none)");
    void *word = NULL;
    CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    clear_errors();
    rc = aclrtSwitchStream(word, ACL_RT_EQUAL, word, ACL_RT_SWITCH_INT32, b.s[1], NULL, b.s[0]);
    msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT && msg != NULL && strstr(msg, "aclrtSwitchStream is not supported on Ascend910_9391") != NULL,
           "aclrtSwitchStream on an Atlas A3 -> %d: %s", rc, msg ? msg : "(none)");
    CHECK(aclrtFree(word));
    build_free(&b);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* ---- Atlas A2, from the configuration ------------------------- */
    write_file("profile_a2.json", "{\"simulator\": {\"soc_name\": \"Ascend910B1\"}}\n");
    CHECK(aclInit("profile_a2.json"));
    soc = aclrtGetSocName();
    EXPECT(soc != NULL && strcmp(soc, "Ascend910B1") == 0, "soc_name in the configuration wins over GOCANN_SOC_NAME: %s", soc ? soc : "NULL");
    aclrtStream s = NULL;
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    b = build_begin();
    CHECK(aclrtActiveStream(b.s[1], b.s[0]));
    CHECK(aclrtLaunchHostFunc(b.s[1], mark, NULL));
    for (int i = 0; i < 2; i++) {
        CHECK(aclmdlRIEndTask(b.m, b.s[i]));
    }
    CHECK(aclmdlRIBuildEnd(b.m, NULL));
    CHECK(aclmdlRIExecuteAsync(b.m, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(ran == 1, "aclrtActiveStream on an Atlas A2: the activated stream ran in the model");

    /* The stream configuration handle, which IPV350 alone offers. */
    clear_errors();
    aclrtStreamConfigHandle *cfg = aclrtCreateStreamConfigHandle();
    rc = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    msg = aclGetRecentErrMsg();
    EXPECT(cfg == NULL && rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT && msg != NULL &&
               strstr(msg, "aclrtCreateStreamConfigHandle is not supported on Ascend910B1") != NULL,
           "aclrtCreateStreamConfigHandle on an Atlas A2: NULL, last error %d: %s", rc, msg ? msg : "(none)");
    aclrtStreamConfigHandle local;
    memset(&local, 0, sizeof local);
    uint32_t prio = 0;
    aclrtStream v2 = NULL;
    EXPECT_CODE(aclrtSetStreamConfigOpt(&local, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtSetStreamConfigOpt on an Atlas A2");
    EXPECT_CODE(aclrtCreateStreamV2(&v2, &local), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCreateStreamV2 on an Atlas A2");
    EXPECT_CODE(aclrtDestroyStreamConfigHandle(&local), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtDestroyStreamConfigHandle on an Atlas A2");
    build_free(&b);
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* ---- Ascend 950: its figures ---------------------------------- */
    write_file("profile_950.json", "{\"simulator\": {\"soc_name\": \"Ascend950PR_9599\"}}\n");
    CHECK(aclInit("profile_950.json"));
    soc = aclrtGetSocName();
    int64_t cores = 0, vectors = 0;
    size_t free = 0, total = 0;
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vectors));
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    EXPECT(soc != NULL && strcmp(soc, "Ascend950PR_9599") == 0 && cores == 36 && vectors == 72 && total == (size_t)128 << 30,
           "Ascend950PR_9599: %lld AI cores, %lld vector cores, %zu GiB of HBM", (long long)cores, (long long)vectors, total >> 30);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* ---- IPV350 and an Atlas training chip ------------------------ */
    ipv350();
    training();

    /* ---- a chip the simulator does not model ---------------------- */
    write_file("profile_bad.json", "{\"simulator\": {\"soc_name\": \"Ascend310\"}}\n");
    clear_errors();
    rc = aclInit("profile_bad.json");
    msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_FILE_ATTR_INVALID && msg != NULL && strstr(msg, "\"Ascend310\" is not a chip the simulator models") != NULL,
           "aclInit with soc_name Ascend310 -> %d: %s", rc, msg ? msg : "(none)");
    printf("PASS 40_profiles\n");
    return 0;
}
