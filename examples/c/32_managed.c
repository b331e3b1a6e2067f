/*
 * 32_managed: managed memory, one address for the host and the device. A
 * kernel writes through a managed pointer and the host reads the bytes in
 * place; aclrtPointerGetAttributes reports a managed location; advice and
 * prefetches read back through the range attributes; aclrtFree frees it;
 * every refusal with its code.
 *
 * Usage: 32_managed <kernel binary with add_scalar>
 */
#include "common.h"

#define MIB2 ((size_t)2 << 20)

static int32_t attr1(aclrtMemManagedRangeAttribute a, const void *p, size_t size)
{
    int32_t v = 12345;
    CHECK(aclrtMemManagedGetAttr(a, p, size, &v, sizeof v));
    return v;
}

static void open_gate(void *arg)
{
    volatile int *gate = arg;
    while (*gate == 0) {
        sleep_ms(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary>\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle addk;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "add_scalar", &addk));

    size_t free0 = 0, total = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    int32_t *m = NULL;
    CHECK(aclrtMemAllocManaged((void **)&m, 4 * MIB2 - 100, ACL_RT_MEM_ATTACH_GLOBAL));
    size_t fr = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    EXPECT(free0 - fr == 4 * MIB2, "aclrtMemAllocManaged of 8 MiB - 100 bytes takes 8 MiB (rounded to 2 MiB)");

    /* The host writes in place, a kernel adds, the host reads in place. */
    const uint64_t n = MIB2 / 4;
    for (uint64_t i = 0; i < n; i++) {
        m[i] = (int32_t)i;
    }
    struct { void *x; int64_t k; uint64_t n; } args = {m, 1000, n};
    CHECK(aclrtLaunchKernel(addk, 8, &args, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));
    int bad = -1;
    for (uint64_t i = 0; i < n && bad < 0; i++) {
        if (m[i] != (int32_t)i + 1000) {
            bad = (int)i;
        }
    }
    EXPECT(bad < 0, "a kernel wrote through the managed pointer and the host reads all %llu words in place (first wrong %d)",
           (unsigned long long)n, bad);
    CHECK(aclrtLaunchKernelWithHostArgs(addk, 2, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(m[0] == 2000 && m[n - 1] == (int32_t)(n - 1) + 2000, "again through aclrtLaunchKernelWithHostArgs: %d", m[0]);

    /* Copies and memsets take it as device memory. */
    int32_t host[256];
    for (int i = 0; i < 256; i++) {
        host[i] = -i;
    }
    CHECK(aclrtMemcpy(m + n, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT(m[n] == 0 && m[n + 255] == -255, "aclrtMemcpy into managed memory is what the host reads there");
    CHECK(aclrtMemsetAsync(m + n, 16, 0x7f, 16, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(m[n] == 0x7f7f7f7f && m[n + 3] == 0x7f7f7f7f && m[n + 4] == -4, "aclrtMemsetAsync of managed memory");
    void *dev;
    CHECK(aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(dev, sizeof host, m + n, sizeof host, ACL_MEMCPY_DEVICE_TO_DEVICE));
    int32_t back[256];
    CHECK(aclrtMemcpy(back, sizeof back, dev, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(back, m + n, sizeof back) == 0, "aclrtMemcpy DEVICE_TO_DEVICE from managed memory");

    /* aclrtPointerGetAttributes: a managed location of the device it was
     * allocated on, wherever in the allocation; aclrtMalloc memory a device
     * location. */
    aclrtPtrAttributes pa;
    memset(&pa, 0xff, sizeof pa);
    CHECK(aclrtPointerGetAttributes(m + n + 7, &pa));
    EXPECT(pa.location.type == ACL_MEM_LOCATION_TYPE_MANAGED && pa.location.id == 0 && pa.pageSize == MIB2,
           "aclrtPointerGetAttributes of managed memory: type %d (MANAGED), id %u, page size %u", (int)pa.location.type,
           pa.location.id, pa.pageSize);
    CHECK(aclrtPointerGetAttributes(dev, &pa));
    EXPECT(pa.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && pa.location.id == 0,
           "aclrtPointerGetAttributes of aclrtMalloc memory: type %d (DEVICE), id %u", (int)pa.location.type, pa.location.id);
    void *m1 = NULL;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMemAllocManaged(&m1, MIB2, ACL_RT_MEM_ATTACH_GLOBAL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtPointerGetAttributes(m1, &pa));
    EXPECT(pa.location.type == ACL_MEM_LOCATION_TYPE_MANAGED && pa.location.id == 1,
           "managed memory allocated on device 1: type %d (MANAGED), id %u", (int)pa.location.type, pa.location.id);
    CHECK(aclrtFree(m1));
    CHECK(aclrtPointerGetAttributes(m1, &pa));
    EXPECT(pa.location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED, "freed managed memory: type %d (UNREGISTERED)",
           (int)pa.location.type);

    /* Advice and attributes. */
    aclrtMemManagedLocation dev0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    aclrtMemManagedLocation hostLoc = {ACL_MEM_LOCATIONTYPE_HOST, 0};
    aclrtMemManagedLocation none = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
    CHECK(aclrtMemManagedAdvise(m, 2 * MIB2, ACL_MEM_ADVISE_SET_READ_MOSTLY, none));
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MIB2) == 1, "READ_MOSTLY of advised pages: 1");
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4 * MIB2) == 0, "READ_MOSTLY of a half-advised range: 0");
    CHECK(aclrtMemManagedAdvise(m, 4 * MIB2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0));
    CHECK(aclrtMemManagedAdvise((char *)m + 2 * MIB2, 2 * MIB2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, hostLoc));
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, MIB2) == 0, "PREFERRED_LOCATION: device 0");
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, (char *)m + 2 * MIB2, MIB2) == -1, "PREFERRED_LOCATION: host (-1)");
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 4 * MIB2) == -2, "PREFERRED_LOCATION of a mixed range: -2");
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, MIB2) == ACL_MEM_LOCATIONTYPE_DEVICE, "PREFERRED_LOCATION_TYPE: DEVICE");
    CHECK(aclrtMemManagedAdvise(m, 4 * MIB2, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev0));
    int32_t by[3];
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, MIB2, by, sizeof by));
    EXPECT(by[0] == 0 && by[1] == -2 && by[2] == -2, "ACCESSED_BY: [%d %d %d]", by[0], by[1], by[2]);
    aclrtMemManagedRangeAttribute as[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID};
    int32_t v0 = 9, v1 = 9;
    void *outs[2] = {&v0, &v1};
    size_t sizes[2] = {4, 4};
    CHECK(aclrtMemManagedGetAttrs(as, 2, m, MIB2, outs, sizes));
    EXPECT(v0 == 1 && v1 == 0, "aclrtMemManagedGetAttrs: READ_MOSTLY %d, PREFERRED_LOCATION_ID %d", v0, v1);

    /* A prefetch is a stream task: the location changes when it runs. */
    volatile int gate = 0;
    CHECK(aclrtLaunchHostFunc(s, open_gate, (void *)&gate));
    CHECK(aclrtMemManagedPrefetchAsync(m, 2 * MIB2, dev0, 0, s));
    const void *ptrs[2] = {(char *)m + 2 * MIB2, (char *)m + 3 * MIB2};
    size_t psizes[2] = {MIB2, MIB2};
    aclrtMemManagedLocation locs[2] = {hostLoc, {ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0}};
    size_t idxs[2] = {0, 1};
    CHECK(aclrtMemManagedPrefetchBatchAsync(ptrs, psizes, 2, locs, idxs, 2, 0, s));
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, MIB2) == -2, "LAST_PREFETCH_LOCATION while the prefetch is queued: -2");
    gate = 1;
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * MIB2) == 0, "after the prefetch to device 0: 0");
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, ptrs[0], MIB2) == -1, "after the batch prefetch to the host: -1");
    EXPECT(attr1(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, ptrs[1], MIB2) == ACL_MEM_LOCATIONTYPE_HOST_NUMA,
           "after the batch prefetch to NUMA node 0: HOST_NUMA");

    /* Refusals. */
    void *p2;
    EXPECT_CODE(aclrtMemAllocManaged(&p2, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID, "size 0");
    EXPECT_CODE(aclrtMemAllocManaged(&p2, MIB2, 0), ACL_ERROR_INVALID_PARAM, "flag 0");
    EXPECT_CODE(aclrtMemAllocManaged(NULL, MIB2, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM, "NULL ptr");
    EXPECT_CODE(aclrtMemManagedAdvise(m, 100, ACL_MEM_ADVISE_SET_READ_MOSTLY, none), ACL_ERROR_RT_PARAM_INVALID, "advice on 100 bytes");
    EXPECT_CODE(aclrtMemManagedAdvise(dev, MIB2, ACL_MEM_ADVISE_SET_READ_MOSTLY, none), ACL_ERROR_RT_PARAM_INVALID, "advice on aclrtMalloc memory");
    EXPECT_CODE(aclrtMemManagedAdvise(m, MIB2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, none), ACL_ERROR_RT_PARAM_INVALID, "preferred location INVALID");
    int32_t two[2];
    EXPECT_CODE(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, MIB2, two, sizeof two), ACL_ERROR_RT_PARAM_INVALID, "READ_MOSTLY into 8 bytes");
    EXPECT_CODE(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, MIB2, NULL, 4), ACL_ERROR_INVALID_PARAM, "NULL data");
    EXPECT_CODE(aclrtMemManagedPrefetchAsync(m, MIB2, dev0, 1, s), ACL_ERROR_INVALID_PARAM, "prefetch flags 1");
    EXPECT_CODE(aclrtMemManagedPrefetchBatchAsync(ptrs, psizes, 2, locs, idxs, 2, 1, s), ACL_ERROR_INVALID_PARAM, "batch prefetch flags 1");
    EXPECT_CODE(aclrtMemManagedPrefetchAsync(m, 16 * MIB2, dev0, 0, s), ACL_ERROR_RT_PARAM_INVALID, "prefetch past the allocation");
    idxs[1] = 0;
    EXPECT_CODE(aclrtMemManagedPrefetchBatchAsync(ptrs, psizes, 2, locs, idxs, 2, 0, s), ACL_ERROR_RT_PARAM_INVALID, "prefetchLocIdxs not increasing");
    EXPECT_CODE(aclrtFree((char *)m + 4096), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree inside managed memory");

    CHECK(aclrtFree(m));
    CHECK(aclrtFree(dev));
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    EXPECT(fr == free0, "aclrtFree gives the managed memory back");
    EXPECT_CODE(aclrtFree(m), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree of freed managed memory");
    EXPECT_CODE(aclrtMemcpy(host, 16, m, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "a copy from freed managed memory");

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 32_managed\n");
    return 0;
}
