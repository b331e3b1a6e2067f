/*
 * 31_vmm: virtual memory management. Physical memory mapped into reserved
 * address ranges, one handle at two addresses showing the same bytes,
 * copies, memsets, value writes and kernels through mapped memory, access
 * per device, links, and every refusal with its code.
 *
 * Usage: 31_vmm <kernel binary with add_scalar>
 */
#include "common.h"

#define MIB2 ((size_t)2 << 20)

static aclrtPhysicalMemProp prop(aclrtMemAttr attr)
{
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof p);
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = attr;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

static int same(const unsigned char *a, const unsigned char *b, size_t n)
{
    return memcmp(a, b, n) == 0;
}

static size_t free_mem(void)
{
    size_t fr = 0, total = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    return fr;
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

    aclrtPhysicalMemProp p = prop(ACL_MEM_HUGE);
    size_t g = 0;
    CHECK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    EXPECT(g == MIB2, "aclrtMemGetAllocationGranularity of ACL_MEM_HUGE: %zu bytes", g);

    size_t free0 = free_mem();
    aclrtDrvMemHandle h, other;
    CHECK(aclrtMallocPhysical(&h, 2 * MIB2, &p, 0));
    CHECK(aclrtMallocPhysical(&other, MIB2, &p, 0));
    EXPECT(free0 - free_mem() == 3 * MIB2, "6 MiB of physical memory is counted by aclrtGetMemInfo");

    void *a = NULL, *b = NULL;
    CHECK(aclrtReserveMemAddress(&a, 3 * MIB2, 0, NULL, 0));
    CHECK(aclrtReserveMemAddress(&b, 2 * MIB2, 0, NULL, 0));
    EXPECT((uintptr_t)a % MIB2 == 0 && (uintptr_t)b % MIB2 == 0, "reserved ranges at %p and %p, 2 MiB aligned", a, b);
    {
        void *rl[2] = {a, (char *)b + MIB2};
        uint32_t res = 0;
        CHECK(aclrtCheckMemType(rl, 2, ACL_RT_MEM_TYPE_RSVD, &res, 0));
        EXPECT(res == 1, "aclrtCheckMemType RSVD of two reserved addresses: 1");
        CHECK(aclrtCheckMemType(rl, 2, ACL_RT_MEM_TYPE_DEV, &res, 0));
        EXPECT(res == 0, "aclrtCheckMemType DEV of reserved addresses: 0");
    }
    unsigned char *A = (unsigned char *)a + MIB2;
    CHECK(aclrtMapMem(a, MIB2, 0, other, 0));
    CHECK(aclrtMapMem(A, 2 * MIB2, 0, h, 0));
    CHECK(aclrtMapMem(b, 2 * MIB2, 0, h, 0));
    pass("one handle mapped at %p (an offset of a range holding a second handle) and at %p", (void *)A, b);

    /* Bytes in through one mapping, out through the other. */
    static unsigned char want[3 << 20], got[3 << 20];
    for (size_t i = 0; i < sizeof want; i++) {
        want[i] = (unsigned char)(i * 7 + 1);
    }
    CHECK(aclrtMemcpy(A, 2 * MIB2, want, sizeof want, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(got, sizeof got, b, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(same(got, want, sizeof want), "aclrtMemcpy in through one mapping reads back through the other (3 MiB)");

    unsigned char *host;
    CHECK(aclrtMallocHost((void **)&host, 4096));
    for (int i = 0; i < 4096; i++) {
        host[i] = (unsigned char)(i ^ 0x5a);
    }
    CHECK(aclrtMemcpyAsync((char *)b + 8192, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
    void *plain;
    CHECK(aclrtMalloc(&plain, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(plain, 4096, want + 5, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpyAsync(A + 16384, 4096, plain, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK(aclrtMemsetAsync((char *)b + 100, 10, 0xee, 10, s));
    CHECK(aclrtValueWrite(A + 200, 0x0102030405060708ULL, 0, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(got, 4096, A + 8192, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(same(got, host, 4096), "aclrtMemcpyAsync from pinned memory into one mapping reads back through the other");
    CHECK(aclrtMemcpy(got, 4096, (char *)b + 16384, 4096, ACL_MEMCPY_DEFAULT));
    EXPECT(same(got, want + 5, 4096), "a device-to-device copy from aclrtMalloc memory into one mapping reads back through the other");
    CHECK(aclrtMemcpy(got, 16, A + 96, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(got[3] == want[99] && got[4] == 0xee && got[13] == 0xee && got[14] == want[110],
           "aclrtMemsetAsync of 10 bytes through one mapping shows through the other, bytes around it kept");
    EXPECT(read_u64((char *)b + 200) == 0x0102030405060708ULL, "aclrtValueWrite through one mapping shows through the other");
    CHECK(aclrtMemcpy2d(got, 64, (char *)b + 8192, 128, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(same(got, host, 64) && same(got + 64, host + 128, 64), "aclrtMemcpy2d out of mapped memory copies the rows");

    /* A kernel through one mapping: add 5 to 1024 int32 elements. */
    int32_t words[1024];
    memset(words, 0, sizeof words);
    words[1023] = 37;
    CHECK(aclrtMemcpy(A + MIB2, sizeof words, words, sizeof words, ACL_MEMCPY_HOST_TO_DEVICE));
    struct { void *x; int64_t k; uint64_t n; } args = {A + MIB2, 5, 1024};
    CHECK(aclrtLaunchKernel(addk, 4, &args, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(words, sizeof words, (char *)b + MIB2, sizeof words, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(words[0] == 5 && words[1023] == 42, "a kernel adding through one mapping: the other reads %d and %d", words[0], words[1023]);
    void *base = NULL;
    size_t size = 0;
    CHECK(aclrtMemGetAddressRange((char *)b + 5, &base, &size));
    EXPECT(base == b && size == 2 * MIB2, "aclrtMemGetAddressRange of mapped memory: the mapping (%p, %zu bytes)", base, size);
    aclrtPtrAttributes attrs;
    CHECK(aclrtPointerGetAttributes(b, &attrs));
    EXPECT(attrs.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attrs.location.id == 0, "aclrtPointerGetAttributes: device 0 memory");

    /* Retain, properties. */
    aclrtDrvMemHandle again;
    CHECK(aclrtMemRetainAllocationHandle(b, &again));
    EXPECT(again == h, "aclrtMemRetainAllocationHandle gives back the handle mapped there");
    aclrtPhysicalMemProp back;
    CHECK(aclrtMemGetAllocationPropertiesFromHandle(h, &back));
    EXPECT(back.memAttr == ACL_HBM_MEM_HUGE && back.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && back.location.id == 0,
           "aclrtMemGetAllocationPropertiesFromHandle: ACL_MEM_HUGE reads back as ACL_HBM_MEM_HUGE on device 0");
    CHECK(aclrtFreePhysical(again));

    /* Misuse. */
    EXPECT_CODE(aclrtMapMem(b, 2 * MIB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "mapping over a mapping");
    EXPECT_CODE(aclrtUnmapMem((char *)b + MIB2), ACL_ERROR_RT_PARAM_INVALID, "unmapping inside a mapping");
    EXPECT_CODE(aclrtReleaseMemAddress(b), ACL_ERROR_RT_PARAM_INVALID, "releasing a range that still has a mapping");
    EXPECT_CODE(aclrtFree(b), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree of mapped memory");
    EXPECT_CODE(aclrtMapMem(b, MIB2, MIB2, other, 0), ACL_ERROR_RT_PARAM_INVALID, "offset other than 0");
    EXPECT_CODE(aclrtMapMem(NULL, MIB2, 0, other, 0), ACL_ERROR_INVALID_PARAM, "NULL virPtr");
    EXPECT_CODE(aclrtMapMem(b, MIB2, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "NULL handle");
    EXPECT_CODE(aclrtMapMem(b, MIB2, 0, (aclrtDrvMemHandle)s, 0), ACL_ERROR_RT_INVALID_HANDLE, "a stream as a physical handle");
    EXPECT_CODE(aclrtMapMem(b, MIB2, 0, other, 1), ACL_ERROR_INVALID_PARAM, "flags 1");
    EXPECT_CODE(aclrtReserveMemAddress(&a, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "reserving 0 bytes");
    void *r2 = NULL;
    EXPECT_CODE(aclrtReserveMemAddress(&r2, MIB2, 4096, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "alignment other than 0");
    EXPECT_CODE(aclrtReserveMemAddress(&r2, MIB2 + 1, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "a size off the granularity");
    EXPECT_CODE(aclrtReserveMemAddress(&r2, MIB2, 0, (void *)0x1000000, 0), ACL_ERROR_RT_PARAM_INVALID, "expectPtr outside the window");
    EXPECT_CODE(aclrtReserveMemAddress(&r2, MIB2, 0, b, 0), ACL_ERROR_RT_PARAM_INVALID, "expectPtr of a reserved range");
    EXPECT_CODE(aclrtReserveMemAddressNoUCMemory(&r2, 1 << 30, 0, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "NoUCMemory without expectPtr");
    aclrtPhysicalMemProp ddr = prop(ACL_DDR_MEM_NORMAL);
    aclrtDrvMemHandle bad;
    EXPECT_CODE(aclrtMallocPhysical(&bad, MIB2, &ddr, 0), ACL_ERROR_INVALID_PARAM, "DDR memory on a device");
    aclrtPhysicalMemProp far = prop(ACL_MEM_HUGE);
    far.location.id = 77;
    EXPECT_CODE(aclrtMallocPhysical(&bad, MIB2, &far, 0), ACL_ERROR_RT_INVALID_DEVICEID, "a device id out of range");
    EXPECT_CODE(aclrtMallocPhysical(&bad, (size_t)64 << 30, &p, 0), ACL_ERROR_RT_MEMORY_ALLOCATION, "more physical memory than the device has");
    EXPECT_CODE(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_SIO), ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, "a SIO link (the devices have HCCS)");
    CHECK(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_HCCS));
    pass("aclrtMemMapSetLink(HCCS)");

    /* The expected address is honoured when free. */
    void *want_at = (char *)b + ((size_t)16 << 30);
    CHECK(aclrtReserveMemAddress(&r2, MIB2, 0, want_at, 0));
    EXPECT(r2 == want_at, "aclrtReserveMemAddress honours a free expectPtr %p (got %p)", want_at, r2);

    /* Access: a mapping without access is refused, then granted. */
    aclrtDrvMemHandle na;
    CHECK(aclrtMallocPhysical(&na, MIB2, &p, 0));
    CHECK(aclrtMemMapNoAccess(r2, MIB2, 0, na, 0));
    aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flag = 99;
    CHECK(aclrtMemGetAccess(r2, &loc, &flag));
    EXPECT(flag == ACL_RT_MEM_ACCESS_FLAGS_NONE, "aclrtMemGetAccess after aclrtMemMapNoAccess: NONE");
    EXPECT_CODE(aclrtMemcpy(r2, 64, want, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "a copy into memory without access");
    EXPECT_CODE(aclrtMemset(r2, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID, "a memset of memory without access");
    struct { void *x; int64_t k; uint64_t n; } na_args = {r2, 1, 16};
    CHECK(aclrtLaunchKernel(addk, 1, &na_args, sizeof na_args, s));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "a kernel on memory without access faults at its start");
    aclrtMemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = 0;
    CHECK(aclrtMemSetAccess(r2, MIB2, &d, 1));
    CHECK(aclrtMemcpy(got, 64, r2, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    pass("with READ access a copy out works");
    EXPECT_CODE(aclrtMemcpy(r2, 64, want, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "a copy into READ-only memory");
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    CHECK(aclrtMemSetAccess(r2, MIB2, &d, 1));
    CHECK(aclrtMemset(r2, 64, 0, 64));
    CHECK(aclrtLaunchKernel(addk, 1, &na_args, sizeof na_args, s));
    CHECK(aclrtSynchronizeStream(s));
    int32_t one[16];
    CHECK(aclrtMemcpy(one, sizeof one, r2, sizeof one, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(one[0] == 1 && one[15] == 1, "after aclrtMemSetAccess(READWRITE) the kernel ran: %d", one[0]);
    d.flags = 2;
    EXPECT_CODE(aclrtMemSetAccess(r2, MIB2, &d, 1), ACL_ERROR_RT_PARAM_INVALID, "access flags 2");
    EXPECT_CODE(aclrtMemSetAccess(NULL, MIB2, &d, 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemSetAccess of NULL");
    loc.type = ACL_MEM_LOCATION_TYPE_MANAGED;
    EXPECT_CODE(aclrtMemGetAccess(r2, &loc, &flag), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemGetAccess of a MANAGED location");

    /* aclrtMemMapSelectedLink is an Atlas A3 function; the default chip is
     * an Atlas A2 (the Go tests run it on an A3). */
    void *sel = NULL;
    CHECK(aclrtReserveMemAddress(&sel, 2 * MIB2, 0, NULL, 0));
    EXPECT_CODE(aclrtMemMapSelectedLink(sel, 2 * MIB2, b, ACL_RT_MEM_LINK_IDX_1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtMemMapSelectedLink on an Atlas A2");
    CHECK(aclrtReleaseMemAddress(sel));

    /* Freeing a mapped handle keeps its memory until the last unmap. */
    CHECK(aclrtFree(plain));
    size_t before = free_mem();
    CHECK(aclrtFreePhysical(h));
    EXPECT(free_mem() == before, "aclrtFreePhysical of a mapped handle keeps the memory while it is mapped");
    CHECK(aclrtMemcpy(got, 16, b, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(same(got, want, 16), "and its bytes stay readable");
    CHECK(aclrtUnmapMem(A));
    CHECK(aclrtUnmapMem(b));
    EXPECT(free_mem() - before == 2 * MIB2, "the last aclrtUnmapMem gives the 4 MiB back");
    EXPECT_CODE(aclrtUnmapMem(b), ACL_ERROR_RT_PARAM_INVALID, "unmapping what is not mapped");
    EXPECT_CODE(aclrtMemcpy(got, 16, b, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "a copy from unmapped memory");
    EXPECT_CODE(aclrtFreePhysical(h), ACL_ERROR_RT_INVALID_HANDLE, "freeing a freed handle");
    CHECK(aclrtUnmapMem(a));
    CHECK(aclrtUnmapMem(r2));
    CHECK(aclrtFreePhysical(other));
    CHECK(aclrtFreePhysical(na));
    CHECK(aclrtReleaseMemAddress(a));
    CHECK(aclrtReleaseMemAddress(b));
    CHECK(aclrtReleaseMemAddress(r2));
    EXPECT(free_mem() == free0, "everything freed: free memory is back to %zu", free0);
    EXPECT_CODE(aclrtReleaseMemAddress(b), ACL_ERROR_RT_PARAM_INVALID, "releasing a released range");

    CHECK(aclrtFreeHost(host));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 31_vmm\n");
    return 0;
}
