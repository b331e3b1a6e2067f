/*
 * 30_identity: device identity and capabilities, run with
 * ASCEND_RT_VISIBLE_DEVICES=1,3 over four devices on physical chips 4..7:
 * the six id conversions, PCI bus ids, UUIDs, atomic capabilities,
 * features, architecture compatibility, limits, aclrtSetTsDevice, the
 * utilization of a device whose one AI core runs a polling kernel, and its
 * memory by component. Takes
 * libvalue.so.
 */
#include "common.h"

static int32_t conv(aclError (*f)(const int32_t, int32_t *const), int32_t in)
{
    int32_t out = -100;
    CHECK(f(in, &out));
    return out;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libvalue.so\n", argv[0]);
        return 2;
    }
    const char *vis = getenv("ASCEND_RT_VISIBLE_DEVICES");
    if (vis == NULL || strcmp(vis, "1,3") != 0) {
        fprintf(stderr, "run with ASCEND_RT_VISIBLE_DEVICES=1,3\n");
        return 2;
    }
    write_file("30_identity.json", "{\"simulator\": {\"devices\": 4, \"hbm_size\": 1073741824, \"aicore_num\": 1,"
                                   " \"physical_ids\": [4, 5, 6, 7]}, \"StackSize\": {\"aicore_stack_size\": 40000}}");
    CHECK(aclInit("30_identity.json"));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    EXPECT(count == 2, "ASCEND_RT_VISIBLE_DEVICES=1,3: aclrtGetDeviceCount = %u", count);

    /* Ids: user 0 is logical 1 on chip 5, user 1 logical 3 on chip 7. */
    EXPECT(conv(aclrtGetLogicDevIdByUserDevId, 1) == 3, "aclrtGetLogicDevIdByUserDevId(1) = 3");
    EXPECT(conv(aclrtGetUserDevIdByLogicDevId, 1) == 0, "aclrtGetUserDevIdByLogicDevId(1) = 0");
    EXPECT(conv(aclrtGetPhyDevIdByUserDevId, 1) == 7, "aclrtGetPhyDevIdByUserDevId(1) = 7");
    EXPECT(conv(aclrtGetUserDevIdByPhyDevId, 5) == 0, "aclrtGetUserDevIdByPhyDevId(5) = 0");
    EXPECT(conv(aclrtGetPhyDevIdByLogicDevId, 0) == 5, "aclrtGetPhyDevIdByLogicDevId(0) = 5 (the id read as a user id)");
    EXPECT(conv(aclrtGetLogicDevIdByPhyDevId, 7) == 1, "aclrtGetLogicDevIdByPhyDevId(7) = 1 (a user id, as documented)");
    int32_t out = 0;
    EXPECT_CODE(aclrtGetUserDevIdByLogicDevId(0, &out), ACL_ERROR_RT_INVALID_DEVICEID, "logical device 0 is not visible");
    EXPECT_CODE(aclrtGetUserDevIdByPhyDevId(4, &out), ACL_ERROR_RT_INVALID_DEVICEID, "physical chip 4 is not visible");
    EXPECT_CODE(aclrtGetLogicDevIdByUserDevId(2, &out), ACL_ERROR_RT_INVALID_DEVICEID, "user device 2 of 2");
    EXPECT_CODE(aclrtGetLogicDevIdByUserDevId(-1, &out), ACL_ERROR_RT_PARAM_INVALID, "a negative user id");
    EXPECT_CODE(aclrtGetPhyDevIdByUserDevId(0, NULL), ACL_ERROR_INVALID_PARAM, "a NULL result");
    /* Device 1 is logical device 3: a stream and memory there work. */
    CHECK(aclrtSetDevice(1));
    void *p = NULL;
    CHECK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtPtrAttributes attr;
    CHECK(aclrtPointerGetAttributes(p, &attr));
    EXPECT(attr.location.id == 1, "memory of user device 1 is on device %u", attr.location.id);
    CHECK(aclrtFree(p));

    /* PCI bus ids and UUIDs. */
    char bus[16], bus0[16];
    CHECK(aclrtDeviceGetPCIBusId(1, bus, sizeof bus));
    CHECK(aclrtDeviceGetPCIBusId(0, bus0, 13));
    EXPECT(strcmp(bus, "0000:08:00.0") == 0 && strcmp(bus0, "0000:06:00.0") == 0,
           "aclrtDeviceGetPCIBusId: %s (chip 7), %s (chip 5)", bus, bus0);
    EXPECT_CODE(aclrtDeviceGetPCIBusId(0, bus, 12), ACL_ERROR_RT_PARAM_INVALID, "a 12-byte buffer");
    EXPECT_CODE(aclrtDeviceGetPCIBusId(0, NULL, 13), ACL_ERROR_INVALID_PARAM, "a NULL buffer");
    EXPECT_CODE(aclrtDeviceGetPCIBusId(2, bus, 13), ACL_ERROR_RT_INVALID_DEVICEID, "device 2 of 2");
    int32_t dev = -1;
    CHECK(aclrtDeviceGetByPCIBusId("0000:08:00.0", &dev));
    EXPECT(dev == 1, "aclrtDeviceGetByPCIBusId(0000:08:00.0) = %d", dev);
    CHECK(aclrtDeviceGetByPCIBusId("06:00.0", &dev));
    EXPECT(dev == 0, "aclrtDeviceGetByPCIBusId without the domain = %d", dev);
    EXPECT_CODE(aclrtDeviceGetByPCIBusId("0000:05:00.0", &dev), ACL_ERROR_RT_INVALID_DEVICEID, "the bus id of a device not visible");
    EXPECT_CODE(aclrtDeviceGetByPCIBusId("not a bus", &dev), ACL_ERROR_RT_PARAM_INVALID, "a malformed bus id");
    EXPECT_CODE(aclrtDeviceGetByPCIBusId(NULL, &dev), ACL_ERROR_INVALID_PARAM, "a NULL bus id");
    aclrtUuid u0, u1, again;
    CHECK(aclrtDeviceGetUuid(0, &u0));
    CHECK(aclrtDeviceGetUuid(1, &u1));
    CHECK(aclrtDeviceGetUuid(1, &again));
    EXPECT(memcmp(u0.bytes, u1.bytes, 16) != 0 && memcmp(u1.bytes, again.bytes, 16) == 0,
           "aclrtDeviceGetUuid: two devices, two ids, each the same every time");
    EXPECT_CODE(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetUuid with NULL");
    EXPECT_CODE(aclrtDeviceGetUuid(-1, &u0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceGetUuid of device -1");

    /* Atomic capabilities. */
    aclrtAtomicOperation ops[3] = {ACL_RT_ATOMIC_OPERATION_DMA_ADD, ACL_RT_ATOMIC_OPERATION_INTEGER_ADD,
                                   ACL_RT_ATOMIC_OPERATION_DMA_MAX};
    uint32_t caps[3] = {9, 9, 9};
    const uint32_t dma = ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_SCALAR8 |
                         ACL_RT_ATOMIC_CAPABILITY_SCALAR16 | ACL_RT_ATOMIC_CAPABILITY_SCALAR32;
    CHECK(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 1));
    EXPECT(caps[0] == dma && caps[1] == 0 && caps[2] == dma, "P2P atomics over HCCS: DMA add and max (%#x %#x %#x)", caps[0], caps[1], caps[2]);
    CHECK(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0));
    EXPECT(caps[0] == 0 && caps[1] == 0 && caps[2] == 0, "host atomics over PCIe: none");
    EXPECT_CODE(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 1, 1), ACL_ERROR_RT_INVALID_DEVICEID, "P2P atomics of a device with itself");
    EXPECT_CODE(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 0, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "P2P atomics of 0 operations");
    EXPECT_CODE(aclrtDeviceGetHostAtomicCapabilities(NULL, ops, 3, 0), ACL_ERROR_RT_PARAM_INVALID, "host atomics into NULL");
    ops[1] = (aclrtAtomicOperation)45;
    EXPECT_CODE(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0), ACL_ERROR_RT_PARAM_INVALID, "host atomics of operation 45");
    EXPECT_CODE(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 1, 2), ACL_ERROR_RT_INVALID_DEVICEID, "host atomics of device 2 of 2");

    /* Features and architecture. */
    int32_t v = -1;
    CHECK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
    EXPECT(v == 1, "aclrtGetDeviceCapability(task update) = %d", v);
    CHECK(aclrtGetDeviceCapability(1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v));
    EXPECT(v == 0, "aclrtGetDeviceCapability(memory-queue events across devices) = %d", v);
    EXPECT_CODE(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)2, &v), ACL_ERROR_RT_PARAM_INVALID, "feature 2");
    EXPECT_CODE(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, NULL), ACL_ERROR_INVALID_PARAM, "feature into NULL");
    CHECK(aclrtCheckArchCompatibility("Ascend910B4", &v));
    EXPECT(v == 1, "aclrtCheckArchCompatibility(Ascend910B4) = %d on an Ascend910B1", v);
    CHECK(aclrtCheckArchCompatibility("Ascend310P3", &v));
    EXPECT(v == 0, "aclrtCheckArchCompatibility(Ascend310P3) = %d", v);
    EXPECT_CODE(aclrtCheckArchCompatibility("Z80", &v), ACL_ERROR_RT_PARAM_INVALID, "an unknown SoC");
    EXPECT_CODE(aclrtCheckArchCompatibility(NULL, &v), ACL_ERROR_RT_PARAM_INVALID, "a NULL SoC");

    /* Limits. */
    size_t lim = 0;
    CHECK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &lim));
    EXPECT(lim == 49152, "the SIMD stack limit is aclInit's StackSize 40000, rounded: %zu", lim);
    CHECK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 70000));
    CHECK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &lim));
    EXPECT(lim == 81920, "aclrtDeviceSetLimit(SIMD stack, 70000) reads back %zu", lim);
    CHECK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4097));
    CHECK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &lim));
    EXPECT(lim == 4104, "aclrtDeviceSetLimit(printf FIFO, 4097) reads back %zu", lim);
    EXPECT_CODE(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 1024), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "a SIMT limit");
    EXPECT_CODE(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &lim), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "reading a SIMT limit");
    EXPECT_CODE(aclrtDeviceSetLimit((aclrtDeviceLimit)5, 1024), ACL_ERROR_INVALID_PARAM, "limit 5");
    EXPECT_CODE(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 300000), ACL_ERROR_RT_PARAM_INVALID, "a stack past 192 KiB");
    EXPECT_CODE(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 100), ACL_ERROR_RT_PARAM_INVALID, "a printf buffer below 1 KiB");
    EXPECT_CODE(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL), ACL_ERROR_INVALID_PARAM, "a limit into NULL");
    CHECK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
    CHECK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
    EXPECT_CODE(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM, "aclrtSetTsDevice(ACL_TS_ID_RESERVED)");

    /* Utilization: a kernel polling a word keeps the one AI core busy. */
    aclrtUtilizationInfo ui;
    memset(&ui, 0, sizeof ui);
    CHECK(aclrtGetDeviceUtilizationRate(0, &ui));
    EXPECT(ui.cubeUtilization <= 5 && ui.aicpuUtilization == -1 && ui.memoryUtilization == -1,
           "device 0, never set: cube %d%%, AI CPU %d, memory %d", ui.cubeUtilization, ui.aicpuUtilization, ui.memoryUtilization);
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle poll = NULL;
    aclrtStream s = NULL;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "poll_word", &poll));
    CHECK(aclrtCreateStream(&s));
    void *word = NULL, *done = NULL;
    CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&done, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(word, 0);
    write_u64(done, 0);
    struct { void *word; uint64_t want; void *done; uint64_t limit; } args = {word, 1, done, 1ull << 40};
    CHECK(aclrtLaunchKernelWithHostArgs(poll, 1, s, NULL, &args, sizeof args, NULL, 0));
    sleep_ms(400);
    CHECK(aclrtGetDeviceUtilizationRate(1, &ui));
    int busy = ui.cubeUtilization;
    write_u64(word, 1);
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(busy >= 60 && ui.vectorUtilization == busy && read_u64(done) == 1,
           "device 1 polling for 400 ms: cube and vector %d%%", busy);
    ui.utilizationExtend = (aclrtUtilizationExtendInfo *)&ui;
    EXPECT_CODE(aclrtGetDeviceUtilizationRate(1, &ui), ACL_ERROR_INVALID_PARAM, "a utilizationExtend that is not NULL");
    EXPECT_CODE(aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM, "utilization into NULL");
    ui.utilizationExtend = NULL;
    EXPECT_CODE(aclrtGetDeviceUtilizationRate(5, &ui), ACL_ERROR_RT_INVALID_DEVICEID, "utilization of device 5");

    /* Memory by component: the program's and the runtime's. */
    aclrtMemUsageInfo mu[8];
    size_t nmu = 0;
    CHECK(aclrtGetMemUsageInfo(1, mu, 8, &nmu));
    int app = -1, rtm = -1, sorted = 1;
    for (size_t i = 0; i < nmu; i++) {
        app = strcmp(mu[i].name, "APP") == 0 ? (int)i : app;
        rtm = strcmp(mu[i].name, "RUNTIME") == 0 ? (int)i : rtm;
        sorted &= mu[i].curMemSize <= mu[i].memPeakSize && (i == 0 || mu[i].curMemSize <= mu[i - 1].curMemSize);
    }
    EXPECT(nmu >= 2 && app >= 0 && rtm >= 0 && sorted && mu[app].curMemSize >= 8192 && mu[rtm].curMemSize >= 49152,
           "aclrtGetMemUsageInfo: %zu components, APP %llu bytes, RUNTIME %llu bytes, most first", nmu,
           app >= 0 ? (unsigned long long)mu[app].curMemSize : 0ull, rtm >= 0 ? (unsigned long long)mu[rtm].curMemSize : 0ull);
    CHECK(aclrtGetMemUsageInfo(1, mu, 1, &nmu));
    EXPECT(nmu == 1, "aclrtGetMemUsageInfo with inputNum 1 stores %zu", nmu);
    EXPECT_CODE(aclrtGetMemUsageInfo(1, mu, 0, &nmu), ACL_ERROR_RT_PARAM_INVALID, "aclrtGetMemUsageInfo with inputNum 0");
    EXPECT_CODE(aclrtGetMemUsageInfo(1, NULL, 8, &nmu), ACL_ERROR_INVALID_PARAM, "aclrtGetMemUsageInfo into NULL");
    EXPECT_CODE(aclrtGetMemUsageInfo(1, mu, 8, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetMemUsageInfo with a NULL count");
    EXPECT_CODE(aclrtGetMemUsageInfo(5, mu, 8, &nmu), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetMemUsageInfo of device 5");

    CHECK(aclrtFree(word));
    CHECK(aclrtFree(done));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclFinalize());
    printf("PASS 30_identity\n");
    return 0;
}
