/*
 * Host memory the device can see: aclrtHostRegister / aclrtHostRegisterV2
 * with every flag, aclrtHostGetDevicePointer, aclrtHostUnregister, a
 * kernel writing registered memory in place, registered memory in
 * asynchronous copies, aclrtHostMemMapCapabilities, aclrtMallocHostWithCfg
 * (VA-consistent memory), the synchronizing frees and aclrtCheckMemType.
 * Usage: 33_hostreg libvadd.so
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "common.h"

#include <stdint.h>
#include <sys/mman.h>

#define PAGE 4096

static void *map_pages(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fail_exit(__FILE__, __LINE__, 0, "mmap of %zu bytes", n);
    }
    return p;
}

static void wait_gate(void *arg)
{
    volatile int *gate = arg;
    while (!__atomic_load_n(gate, __ATOMIC_ACQUIRE)) {
        sleep_ms(1);
    }
}

static void hold(aclrtStream s, volatile int *gate)
{
    *gate = 0;
    CHECK(aclrtLaunchHostFunc(s, wait_gate, (void *)gate));
}

static void kernel_in_place(const char *lib, aclrtStream s)
{
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle add = NULL;
    CHECK(aclrtBinaryLoadFromFile(lib, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "add_scalar", &add));

    const size_t n = 3 * PAGE / sizeof(int32_t);
    int32_t *host = map_pages(3 * PAGE);
    for (size_t i = 0; i < n; i++) {
        host[i] = (int32_t)i;
    }
    void *dev = NULL;
    CHECK(aclrtHostRegister(host, 3 * PAGE, ACL_HOST_REGISTER_MAPPED, &dev));
    EXPECT(dev == host, "aclrtHostRegister MAPPED: the device address is the host address");
    void *again = NULL;
    CHECK(aclrtHostGetDevicePointer(host, &again, 0));
    EXPECT(again == dev, "aclrtHostGetDevicePointer gives the same device address");

    struct { void *x; int64_t k; uint64_t n; } args = {dev, 1000, n};
    CHECK(aclrtLaunchKernel(add, 4, &args, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        ok = ok && host[i] == (int32_t)i + 1000;
    }
    EXPECT(ok, "a kernel wrote registered host memory in place: the host reads every element + 1000 with no copy");

    void *d = NULL;
    CHECK(aclrtMalloc(&d, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
    EXPECT_CODE(aclrtMemcpy(dev, PAGE, d, PAGE, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                "a copy to the device address of registered memory is refused");
    CHECK(aclrtMemcpy(d, PAGE, host, PAGE, ACL_MEMCPY_HOST_TO_DEVICE));
    pass("the host address of registered memory copies as host memory");
    CHECK(aclrtHostUnregister(host));
    EXPECT_CODE(aclrtHostGetDevicePointer(host, &again, 0), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtHostGetDevicePointer after aclrtHostUnregister");
    CHECK(aclrtFree(d));
    CHECK(aclrtBinaryUnLoad(bin));
    munmap(host, 3 * PAGE);
}

static void pinned_async(aclrtStream s)
{
    unsigned char *src = map_pages(PAGE), *dst = map_pages(PAGE);
    CHECK(aclrtHostRegisterV2(src, PAGE, ACL_HOST_REG_PINNED));
    CHECK(aclrtHostRegisterV2(dst, PAGE, ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED));
    void *d = NULL;
    CHECK(aclrtMalloc(&d, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
    volatile int gate;
    hold(s, &gate);
    memset(src, 1, PAGE);
    CHECK(aclrtMemcpyAsync(d, PAGE, src, PAGE, ACL_MEMCPY_HOST_TO_DEVICE, s));
    memset(src, 7, PAGE); /* before the copy runs: a staged copy would not see it */
    double t0 = now_ms();
    CHECK(aclrtMemcpyAsync(dst, PAGE, d, PAGE, ACL_MEMCPY_DEVICE_TO_HOST, s));
    EXPECT(now_ms() - t0 < 1000, "aclrtMemcpyAsync into registered memory returns while the stream is held");
    __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
    CHECK(aclrtSynchronizeStream(s));
    int same = 1;
    for (int i = 0; i < PAGE; i++) {
        same = same && dst[i] == 7;
    }
    EXPECT(same, "registered source read when the copy ran, not staged at the call");
    aclrtPtrAttributes attr;
    CHECK(aclrtPointerGetAttributes(src, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_HOST, "aclrtPointerGetAttributes of registered memory: host");
    CHECK(aclrtHostUnregister(src));
    CHECK(aclrtHostUnregister(dst));
    CHECK(aclrtFree(d));
    munmap(src, PAGE);
    munmap(dst, PAGE);
}

static void refusals(void)
{
    unsigned char *m = map_pages(3 * PAGE);
    void *dev = NULL;
    EXPECT_CODE(aclrtHostRegister(NULL, PAGE, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM, "aclrtHostRegister NULL ptr");
    EXPECT_CODE(aclrtHostRegister(m, PAGE, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM, "aclrtHostRegister NULL devPtr");
    EXPECT_CODE(aclrtHostRegister(m, 0, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM, "aclrtHostRegister size 0");
    EXPECT_CODE(aclrtHostRegister(m, PAGE, ACL_HOST_REGISTER_IOMEMORY, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostRegister IOMEMORY (reserved)");
    EXPECT_CODE(aclrtHostRegister(m, PAGE, ACL_HOST_REGISTER_READONLY, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostRegister READONLY (reserved)");
    EXPECT_CODE(aclrtHostRegister(m, PAGE, (aclrtHostRegisterType)1, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostRegister type 1");
    EXPECT_CODE(aclrtHostRegister(m + 16, PAGE, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegister unaligned ptr");
    EXPECT_CODE(aclrtHostRegisterV2(m, PAGE, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegisterV2 flag 0");
    EXPECT_CODE(aclrtHostRegisterV2(m, PAGE, 0x1), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegisterV2 flag 0x1");
    EXPECT_CODE(aclrtHostRegisterV2(m, PAGE, ACL_HOST_REG_IOMEMORY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostRegisterV2 IOMEMORY");
    EXPECT_CODE(aclrtHostRegisterV2(m, PAGE, ACL_HOST_REG_READONLY | ACL_HOST_REG_MAPPED), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostRegisterV2 READONLY");

    void *pinned = NULL;
    CHECK(aclrtMallocHost(&pinned, 2 * PAGE));
    EXPECT_CODE(aclrtHostRegisterV2(pinned, PAGE, ACL_HOST_REG_PINNED), ACL_ERROR_RT_PARAM_INVALID, "ACL_HOST_REG_PINNED of aclrtMallocHost memory");
    CHECK(aclrtHostRegisterV2(pinned, 2 * PAGE, ACL_HOST_REG_MAPPED));
    CHECK(aclrtFreeHost(pinned)); /* its registration ends with it */
    pass("aclrtHostRegisterV2 MAPPED of aclrtMallocHost memory, then aclrtFreeHost");

    CHECK(aclrtHostRegisterV2(m + PAGE, PAGE, ACL_HOST_REG_PINNED));
    EXPECT_CODE(aclrtHostRegisterV2(m + PAGE, PAGE, ACL_HOST_REG_MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "registering the same range twice");
    EXPECT_CODE(aclrtHostRegisterV2(m, 2 * PAGE, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "a range overlapping a registered one from below");
    EXPECT_CODE(aclrtHostRegisterV2(m + PAGE, 2 * PAGE, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "a range overlapping a registered one from its start");
    CHECK(aclrtHostRegisterV2(m, PAGE, ACL_HOST_REG_PINNED));
    CHECK(aclrtHostRegisterV2(m + 2 * PAGE, PAGE, ACL_HOST_REG_PINNED));
    pass("ranges next to a registered one register");
    EXPECT_CODE(aclrtHostGetDevicePointer(m, &dev, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostGetDevicePointer of pinned-only memory");
    EXPECT_CODE(aclrtHostGetDevicePointer(m, &dev, 1), ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer flag 1");
    EXPECT_CODE(aclrtHostGetDevicePointer(NULL, &dev, 0), ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer NULL pHost");
    EXPECT_CODE(aclrtHostUnregister(m + PAGE + 8), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister inside a registration");
    EXPECT_CODE(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister NULL");
    for (int i = 0; i < 3; i++) {
        CHECK(aclrtHostUnregister(m + i * PAGE));
    }
    EXPECT_CODE(aclrtHostUnregister(m), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister twice");
    munmap(m, 3 * PAGE);

    unsigned char *holed = map_pages(3 * PAGE);
    munmap(holed + PAGE, PAGE);
    EXPECT_CODE(aclrtHostRegisterV2(holed, 3 * PAGE, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID,
                "MAPPED registration of a range with an unmapped page");
    munmap(holed, 3 * PAGE);
}

static void helpers(aclrtStream s)
{
    aclrtHostMemMapCapability cap = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    CHECK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &cap));
    EXPECT(cap == ACL_RT_HOST_MEM_MAP_SUPPORTED, "aclrtHostMemMapCapabilities: AI cores reach registered memory");
    CHECK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_SDMA, &cap));
    EXPECT(cap == ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED, "aclrtHostMemMapCapabilities: SDMA does not");
    EXPECT_CODE(aclrtHostMemMapCapabilities(0, (aclrtHacType)10, &cap), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostMemMapCapabilities hacType 10");
    EXPECT_CODE(aclrtHostMemMapCapabilities(99, ACL_RT_HAC_TYPE_AIC, &cap), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtHostMemMapCapabilities device 99");
    EXPECT_CODE(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, NULL), ACL_ERROR_INVALID_PARAM, "aclrtHostMemMapCapabilities NULL");

    aclrtMallocAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attrs[0].value.moduleId = 33;
    attrs[1].attr = ACL_RT_MEM_ATTR_VA_FLAG;
    attrs[1].value.vaFlag = 1;
    aclrtMallocConfig cfg = {attrs, 2};
    void *h = NULL, *dev = NULL;
    CHECK(aclrtMallocHostWithCfg(&h, 2 * PAGE, &cfg));
    CHECK(aclrtHostRegister(h, 2 * PAGE, ACL_HOST_REGISTER_MAPPED, &dev));
    EXPECT(dev == h, "VA-consistent host memory: the registered device address equals the host address");
    CHECK(aclrtHostUnregister(h));
    CHECK(aclrtFreeHost(h));
    CHECK(aclrtMallocHostWithCfg(&h, 64, NULL));
    CHECK(aclrtFreeHost(h));
    pass("aclrtMallocHostWithCfg with no configuration");
    attrs[1].value.vaFlag = 2;
    EXPECT_CODE(aclrtMallocHostWithCfg(&h, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID, "aclrtMallocHostWithCfg vaFlag 2");
    attrs[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    EXPECT_CODE(aclrtMallocHostWithCfg(&h, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID, "aclrtMallocHostWithCfg ACL_RT_MEM_ATTR_DEVICE_ID");
    aclrtMallocConfig nocfg = {NULL, 0};
    EXPECT_CODE(aclrtMallocHostWithCfg(&h, 64, &nocfg), ACL_ERROR_RT_PARAM_INVALID, "aclrtMallocHostWithCfg cfg->attrs NULL");
    EXPECT_CODE(aclrtMallocHostWithCfg(&h, 0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg size 0");
    EXPECT_CODE(aclrtMallocHostWithCfg(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg NULL ptr");

    /* The synchronizing frees wait for the copies using the memory. */
    void *d = NULL;
    CHECK(aclrtMalloc(&d, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMallocHost(&h, PAGE));
    volatile int gate;
    hold(s, &gate);
    CHECK(aclrtMemcpyAsync(h, PAGE, d, PAGE, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtMemsetAsync(d, PAGE, 0, PAGE, s));
    __atomic_store_n(&gate, 1, __ATOMIC_RELEASE); /* released before the frees wait */
    CHECK(aclrtFreeHostWithDevSync(h));
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    CHECK(aclrtStreamQuery(s, &st));
    EXPECT(st == ACL_STREAM_STATUS_COMPLETE, "aclrtFreeHostWithDevSync returns with the stream's copy done");
    CHECK(aclrtFreeWithDevSync(d));
    EXPECT_CODE(aclrtFreeWithDevSync(d), ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeWithDevSync twice");
    EXPECT_CODE(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeWithDevSync NULL");
    EXPECT_CODE(aclrtFreeHostWithDevSync(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeHostWithDevSync NULL");

    void *a = NULL, *b = NULL;
    CHECK(aclrtMalloc(&a, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&b, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
    void *list[2] = {a, (char *)b + 100};
    uint32_t res = 9;
    CHECK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &res, 0));
    EXPECT(res == 1, "aclrtCheckMemType DEV of aclrtMalloc memory: 1");
    CHECK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP, &res, 0));
    EXPECT(res == 0, "aclrtCheckMemType DVPP of aclrtMalloc memory: 0");
    int host_word = 0;
    void *mixed[2] = {a, &host_word};
    CHECK(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_RSVD, &res, 0));
    EXPECT(res == 0, "aclrtCheckMemType with a host address in the list: 0");
    EXPECT_CODE(aclrtCheckMemType(list, 2, 0x4, &res, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCheckMemType memType 0x4");
    EXPECT_CODE(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &res, 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtCheckMemType reserve 1");
    EXPECT_CODE(aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &res, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCheckMemType size 0");
    EXPECT_CODE(aclrtCheckMemType(NULL, 2, ACL_RT_MEM_TYPE_DEV, &res, 0), ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType NULL addrList");
    EXPECT_CODE(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType NULL checkResult");
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s libvadd.so\n", argv[0]);
        return 2;
    }
    aclrtStream s = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    kernel_in_place(argv[1], s);
    pinned_async(s);
    refusals();
    helpers(s);
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 33_hostreg\n");
    return 0;
}
