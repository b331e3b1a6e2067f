/*
 * 52_groups: capability groups, on an Atlas inference chip (Ascend310P3,
 * 8 AI cores) whose cores the configuration splits into group 0 (2 AI
 * cores, the default) and group 1 (4 AI cores, 3 vector cores, 2 AI
 * CPUs, 2 SDMA engines, 16 active streams).
 *
 * The documented call order: aclrtCreateGroupInfo, aclrtGetAllGroupInfo,
 * aclrtGetGroupCount, aclrtGetGroupInfoDetail of every attribute, then
 * aclrtSetGroup; the scheduler keeping a kernel of 48 blocks (peak,
 * counting its blocks running at once) within the group it runs in: the
 * default group's before any is set, the group set on the default stream
 * and on new streams, a stream created under a group keeping it; two
 * streams of one group sharing its cores. The refusals: unknown and
 * out-of-range group ids, bad indexes, attributes and lengths, NULL
 * arguments, an array the runtime did not create; a stream created with
 * several groups and no default before aclrtSetGroup; no groups at all;
 * and every call refused on the Atlas A2.
 *
 * Usage: 52_groups <kernel binary with peak>
 */
#include "common.h"

static aclrtFuncHandle peak;

static uint32_t detail(const aclrtGroupInfo *info, int32_t index, aclrtGroupAttr attr)
{
    uint32_t v = 0xdeadbeef;
    size_t n = 0;
    CHECK(aclrtGetGroupInfoDetail(info, index, attr, &v, sizeof v, &n));
    EXPECT(n == 4, "attribute %d is 4 bytes (%zu)", (int)attr, n);
    return v;
}

static void queries(void)
{
    aclrtGroupInfo *info = aclrtCreateGroupInfo();
    EXPECT(info != NULL, "aclrtCreateGroupInfo: an array");
    CHECK(aclrtGetAllGroupInfo(info));
    uint32_t count = 0;
    CHECK(aclrtGetGroupCount(&count));
    EXPECT(count == 2, "aclrtGetGroupCount: %u", count);
    EXPECT(detail(info, 0, ACL_GROUP_GROUPID_INT) == 0 && detail(info, 0, ACL_GROUP_AICORE_INT) == 2,
           "group index 0: id 0, 2 AI cores");
    uint32_t id = detail(info, 1, ACL_GROUP_GROUPID_INT), ai = detail(info, 1, ACL_GROUP_AICORE_INT);
    uint32_t aiv = detail(info, 1, ACL_GROUP_AIV_INT), aic = detail(info, 1, ACL_GROUP_AIC_INT);
    uint32_t sdma = detail(info, 1, ACL_GROUP_SDMANUM_INT), asq = detail(info, 1, ACL_GROUP_ASQNUM_INT);
    EXPECT(id == 1 && ai == 4 && aiv == 3 && aic == 2 && sdma == 2 && asq == 16,
           "group index 1: id %u, %u AI cores, %u vector, %u AI CPUs, %u SDMA, %u streams", id, ai, aiv, aic, sdma, asq);

    uint32_t v;
    size_t n;
    REFUSE(aclrtGetGroupInfoDetail(info, 2, ACL_GROUP_AICORE_INT, &v, sizeof v, &n), ACL_ERROR_INVALID_PARAM,
           "groupIndex 2 is invalid", "aclrtGetGroupInfoDetail of index 2");
    REFUSE(aclrtGetGroupInfoDetail(info, -1, ACL_GROUP_AICORE_INT, &v, sizeof v, &n), ACL_ERROR_INVALID_PARAM,
           "groupIndex -1", "aclrtGetGroupInfoDetail of index -1");
    REFUSE(aclrtGetGroupInfoDetail(info, 0, (aclrtGroupAttr)6, &v, sizeof v, &n), ACL_ERROR_INVALID_PARAM,
           "attr 6 is invalid", "aclrtGetGroupInfoDetail of attribute 6");
    REFUSE(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &v, 3, &n), ACL_ERROR_INVALID_PARAM,
           "valueLen 3 is invalid", "aclrtGetGroupInfoDetail into 3 bytes");
    REFUSE(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, NULL, sizeof v, &n), ACL_ERROR_INVALID_PARAM,
           "attrValue is NULL", "aclrtGetGroupInfoDetail with attrValue NULL");
    REFUSE(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &v, sizeof v, NULL), ACL_ERROR_INVALID_PARAM,
           "paramRetSize is NULL", "aclrtGetGroupInfoDetail with paramRetSize NULL");
    REFUSE(aclrtGetGroupCount(NULL), ACL_ERROR_INVALID_PARAM, "count is NULL", "aclrtGetGroupCount(NULL)");
    REFUSE(aclrtGetAllGroupInfo(NULL), ACL_ERROR_INVALID_PARAM, "groupInfo is NULL", "aclrtGetAllGroupInfo(NULL)");
    aclrtGroupInfo *fake = (aclrtGroupInfo *)&v;
    REFUSE(aclrtGetAllGroupInfo(fake), ACL_ERROR_INVALID_PARAM, "expected an array of aclrtCreateGroupInfo",
           "aclrtGetAllGroupInfo of memory the runtime did not create");
    CHECK(aclrtDestroyGroupInfo(info));
    REFUSE(aclrtDestroyGroupInfo(info), ACL_ERROR_INVALID_PARAM, "not yet destroyed", "aclrtDestroyGroupInfo twice");
    REFUSE(aclrtDestroyGroupInfo(NULL), ACL_ERROR_INVALID_PARAM, "groupInfo is NULL", "aclrtDestroyGroupInfo(NULL)");

    REFUSE(aclrtSetGroup(2), ACL_ERROR_RT_GROUP_NOT_CREATE, "group 2 does not exist", "aclrtSetGroup(2)");
    REFUSE(aclrtSetGroup(4), ACL_ERROR_RT_PARAM_INVALID, "groupId 4 is invalid", "aclrtSetGroup(4)");
    REFUSE(aclrtSetGroup(-1), ACL_ERROR_RT_PARAM_INVALID, "groupId -1 is invalid", "aclrtSetGroup(-1)");
}

static void scheduling(void)
{
    aclrtStream early, bound, other;
    CHECK(aclrtCreateStream(&early));
    int64_t n = run_peak(peak, NULL);
    EXPECT(n == 2, "no group set: the default group's 2 cores on the default stream (%lld)", (long long)n);
    CHECK(aclrtSetGroup(1));
    n = run_peak(peak, NULL);
    EXPECT(n == 4, "group 1 set: 4 blocks at once on the default stream (%lld)", (long long)n);
    n = run_peak(peak, early);
    EXPECT(n == 4, "group 1 set: 4 on a stream created before (%lld)", (long long)n);
    CHECK(aclrtCreateStream(&bound));
    CHECK(aclrtCreateStream(&other));

    /* Two streams of group 1 share its 4 cores: one counter for both
     * kernels sees at most 4 of their blocks at once. */
    void *w;
    int64_t h[3];
    CHECK(aclrtMalloc(&w, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(w, sizeof h, 0, sizeof h));
    void *args[1] = {&w};
    CHECK(aclrtLaunchKernelWithArgsArray(peak, 48, bound, NULL, args));
    CHECK(aclrtLaunchKernelWithArgsArray(peak, 48, other, NULL, args));
    CHECK(aclrtSynchronizeStream(bound));
    CHECK(aclrtSynchronizeStream(other));
    CHECK(aclrtMemcpy(h, sizeof h, w, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(h[2] == 96 && h[1] == 4, "two streams of group 1: %lld blocks, at most %lld at once", (long long)h[2],
           (long long)h[1]);
    CHECK(aclrtFree(w));

    CHECK(aclrtSetGroup(0));
    n = run_peak(peak, bound);
    EXPECT(n == 4, "a stream created under group 1 keeps it after aclrtSetGroup(0) (%lld)", (long long)n);
    n = run_peak(peak, NULL);
    EXPECT(n == 2, "group 0 set: 2 on the default stream (%lld)", (long long)n);
    CHECK(aclrtDestroyStream(early));
    CHECK(aclrtDestroyStream(bound));
    CHECK(aclrtDestroyStream(other));
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary with peak>\n", argv[0]);
        return 2;
    }
    write_file("/tmp/52_groups.json",
               "{\"simulator\": {\"soc_name\": \"Ascend310P3\", \"core_groups\": ["
               "{\"group_id\": 0, \"aicore_num\": 2, \"default\": true},"
               "{\"group_id\": 1, \"aicore_num\": 4, \"aivector_num\": 3, \"aicpu_num\": 2, \"sdma_num\": 2,"
               " \"active_stream_num\": 16}]}}\n");
    CHECK(aclInit("/tmp/52_groups.json"));
    REFUSE(aclrtSetGroup(0), ACL_ERROR_RT_CONTEXT_NULL, "no current context", "aclrtSetGroup before aclrtSetDevice");
    EXPECT(aclrtCreateGroupInfo() == NULL, "aclrtCreateGroupInfo before aclrtSetDevice: NULL");
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "peak", &peak));
    queries();
    scheduling();
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* Two groups, neither the default: no stream before aclrtSetGroup. */
    write_file("/tmp/52_groups_nodefault.json",
               "{\"simulator\": {\"soc_name\": \"Ascend310P3\", \"core_groups\": ["
               "{\"group_id\": 0, \"aicore_num\": 2}, {\"group_id\": 3, \"aicore_num\": 2}]}}\n");
    CHECK(aclInit("/tmp/52_groups_nodefault.json"));
    CHECK(aclrtSetDevice(0));
    aclrtStream st;
    REFUSE(aclrtCreateStream(&st), ACL_ERROR_RT_GROUP_NOT_SET, "no default one",
           "aclrtCreateStream with two groups and none set");
    CHECK(aclrtSetGroup(3));
    CHECK(aclrtCreateStream(&st));
    CHECK(aclrtDestroyStream(st));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* No groups created. */
    init_chip("/tmp/52_groups_none.json", "Ascend310P3");
    uint32_t count = 7;
    CHECK(aclrtGetGroupCount(&count));
    EXPECT(count == 0, "no groups: aclrtGetGroupCount %u", count);
    EXPECT(aclrtCreateGroupInfo() == NULL, "no groups: aclrtCreateGroupInfo NULL");
    REFUSE(aclrtSetGroup(0), ACL_ERROR_RT_GROUP_NOT_CREATE, "groups none", "aclrtSetGroup(0) without groups");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* The Atlas A2 has no groups. */
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    REFUSE(aclrtSetGroup(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetGroup", "aclrtSetGroup on an Atlas A2");
    REFUSE(aclrtGetGroupCount(&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetGroupCount",
           "aclrtGetGroupCount on an Atlas A2");
    EXPECT(aclrtCreateGroupInfo() == NULL, "aclrtCreateGroupInfo on an Atlas A2: NULL");
    REFUSE(aclrtGetAllGroupInfo((aclrtGroupInfo *)&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetAllGroupInfo",
           "aclrtGetAllGroupInfo on an Atlas A2");
    REFUSE(aclrtDestroyGroupInfo((aclrtGroupInfo *)&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtDestroyGroupInfo",
           "aclrtDestroyGroupInfo on an Atlas A2");
    size_t n;
    REFUSE(aclrtGetGroupInfoDetail((aclrtGroupInfo *)&count, 0, ACL_GROUP_AICORE_INT, &count, 4, &n),
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetGroupInfoDetail", "aclrtGetGroupInfoDetail on an Atlas A2");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 52_groups\n");
    return 0;
}
