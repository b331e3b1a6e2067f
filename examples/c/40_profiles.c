/*
 * 40_profiles: the simulated chip, chosen by GOCANN_SOC_NAME (the harness
 * runs this program with GOCANN_SOC_NAME=Ascend910_9391, an Atlas A3) or by
 * the configuration's "simulator" section, which wins. aclrtGetSocName and
 * the device's figures follow it, and a function the API reference marks
 * unsupported on the chip's product fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) naming the chip, while a chip
 * that has it runs it: aclrtActiveStream and aclrtSwitchStream are not on
 * Atlas A3 and are on Atlas A2; the stream configuration handle functions
 * are on none of the chips the simulator models (IPV350 alone has them).
 */
#include "common.h"

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
    ran = 1;
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

    /* The stream configuration handle, which no modelled chip offers. */
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
