/*
 * 47_rt_api: the C++ conveniences of acl/acl_rt_api.h, each called with
 * typed pointers and checked by what it did: the short-named timeout and
 * configuration overloads, typed allocations and copies (plain, 2-D, the
 * six batch forms), pointer attributes, registered and managed memory,
 * and device symbols by the variable itself.
 *
 * Usage: 47_rt_api libsymbols.so
 */
#include <sys/mman.h>

#include "acl/acl_rt_api.h"
#include "common.h"

namespace {

constexpr size_t N = 1024;
constexpr size_t MIB2 = 2u << 20;

aclrtMemcpyBatchAttr hostToDevice()
{
    aclrtMemcpyBatchAttr a = {};
    a.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    a.dstLoc.id = 0;
    a.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    return a;
}

// readBack copies n ints of dev to out.
void readBack(int32_t *out, const int32_t *dev, size_t n)
{
    CHECK(aclrtMemcpy(out, n * sizeof(int32_t), dev, n * sizeof(int32_t), ACL_MEMCPY_DEVICE_TO_HOST));
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libsymbols.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));

    aclrtStream s = nullptr;
    CHECK(aclrtCreateStream(&s, 0, ACL_STREAM_FAST_LAUNCH));
    aclrtEvent e = nullptr;
    CHECK(aclrtCreateEvent(&e, ACL_EVENT_SYNC));
    pass("aclrtCreateStream(stream, priority, flag) and aclrtCreateEvent(event, flag)");

    int32_t *d = nullptr, *d2 = nullptr, *h = nullptr;
    CHECK(aclrtMalloc(&d, N * sizeof(int32_t)));
    CHECK(aclrtMalloc(&d2, N * sizeof(int32_t), ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMallocHost(&h, N * sizeof(int32_t)));
    aclrtPtrAttributes attr = {};
    CHECK(aclrtPointerGetAttributes(d, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attr.location.id == 0,
           "typed aclrtMalloc, both forms, and aclrtMallocHost; aclrtPointerGetAttributes(int32_t *): device 0");

    static int32_t in[N], out[N];
    for (size_t i = 0; i < N; i++) {
        in[i] = int32_t(i * 3 + 1);
        h[i] = int32_t(i) - 7;
    }
    CHECK(aclrtMemcpy(d, N * sizeof(int32_t), in, N * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpyAsync(d2, N * sizeof(int32_t), h, N * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtRecordEvent(e, s));
    CHECK(aclrtSynchronizeEvent(e, 1000));
    CHECK(aclrtStreamWaitEvent(s, e, 1000));
    CHECK(aclrtSynchronizeStream(s, 1000));
    CHECK(aclrtSynchronizeDevice(1000));
    readBack(out, d2, N);
    EXPECT(out[0] == -7 && out[N - 1] == int32_t(N) - 8,
           "typed aclrtMemcpy and aclrtMemcpyAsync; the four timeout overloads of synchronization and waits");

    // 2-D: 8 rows of 16 ints from a pitch of 32 ints.
    CHECK(aclrtMemcpy2d(d2, 16 * sizeof(int32_t), in, 32 * sizeof(int32_t), 16 * sizeof(int32_t), 8,
                        ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy2dAsync(out, 32 * sizeof(int32_t), d2, 16 * sizeof(int32_t), 16 * sizeof(int32_t), 8,
                             ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(out[0] == in[0] && out[32 + 15] == in[32 + 15], "typed aclrtMemcpy2d and aclrtMemcpy2dAsync");

    // Batches: 4 copies of 256 ints each, through every form.
    int32_t *dsts[4];
    int32_t *srcs[4];
    size_t maxs[4], sizes[4];
    for (int i = 0; i < 4; i++) {
        dsts[i] = d + i * 256;
        srcs[i] = h + i * 256;
        maxs[i] = sizes[i] = 256 * sizeof(int32_t);
    }
    aclrtMemcpyBatchAttr one = hostToDevice();
    aclrtMemcpyBatchAttr two[2] = {hostToDevice(), hostToDevice()};
    size_t at[2] = {0, 2};
    size_t failIndex = 77;
    int rounds = 0;
    for (int form = 0; form < 6; form++) {
        for (size_t i = 0; i < N; i++) {
            h[i] = int32_t(i) * (form + 2);
        }
        switch (form) {
        case 0:
            CHECK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, one));
            break;
        case 1:
            CHECK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, two, at, 2, &failIndex));
            break;
        case 2:
            CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 4, one, s));
            break;
        case 3:
            CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 4, two, at, 2, s));
            break;
        case 4:
            CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 4, one, &failIndex, s));
            break;
        case 5:
            CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 4, two, at, 2, &failIndex, s));
            break;
        }
        if (form == 1) {
            // The synchronous forms go through V2, which reports no index.
            EXPECT(failIndex == 77, "typed aclrtMemcpyBatch leaves failIndex as it was");
        }
        CHECK(aclrtSynchronizeStream(s));
        readBack(out, d, N);
        rounds += out[5] == 5 * (form + 2) && out[N - 1] == int32_t(N - 1) * (form + 2);
    }
    EXPECT(rounds == 6,
           "the six typed batch forms (one attribute or runs of them, with and without failIndex): %d of 6 copied",
           rounds);

    // Registered host memory.
    const size_t page = 4096;
    void *m = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        fail_exit(__FILE__, __LINE__, 0, "mmap");
    }
    int64_t *reg = static_cast<int64_t *>(m), *regDev = nullptr, *regDev2 = nullptr;
    CHECK(aclrtHostRegister(reg, 2 * page, ACL_HOST_REGISTER_MAPPED, &regDev));
    CHECK(aclrtHostGetDevicePointer(reg, &regDev2, 0));
    EXPECT(regDev != nullptr && regDev == regDev2, "typed aclrtHostRegister and aclrtHostGetDevicePointer: one device address");
    CHECK(aclrtHostUnregister(reg));
    CHECK(aclrtHostRegister(reg, 2 * page, ACL_HOST_REG_MAPPED));
    CHECK(aclrtHostUnregister(reg));
    pass("aclrtHostRegister(ptr, size, flag), the V2 form, and typed aclrtHostUnregister");
    munmap(m, 2 * page);

    // Managed memory.
    double *mg = nullptr;
    CHECK(aclrtMemAllocManaged(&mg, 2 * MIB2));
    mg[0] = 2.5;
    aclrtMemManagedLocation dev0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    aclrtMemManagedLocation host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
    CHECK(aclrtMemManagedPrefetchAsync(mg, MIB2, dev0, 0, s));
    const double *parts[2] = {mg, mg + MIB2 / sizeof(double)};
    size_t psizes[2] = {MIB2, MIB2};
    CHECK(aclrtMemManagedPrefetchBatchAsync(parts, psizes, 2, host, 0, s));
    aclrtMemManagedLocation locs[2] = {dev0, host};
    size_t idxs[2] = {0, 1};
    CHECK(aclrtMemManagedPrefetchBatchAsync(parts, psizes, 2, locs, idxs, 2, 0, s));
    CHECK(aclrtSynchronizeStream(s));
    int32_t last = 9;
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, mg, MIB2, &last, sizeof last));
    EXPECT(mg[0] == 2.5 && last == 0,
           "typed aclrtMemAllocManaged and the three prefetch forms: the last prefetch of the first half went to device %d",
           last);
    CHECK(aclrtFree(mg));

    // Device symbols, named by the variable itself.
    aclrtBinHandle bin = nullptr;
    void *coeffAddr = nullptr;
    CHECK(aclrtBinaryLoadFromFile(argv[1], nullptr, &bin));
    CHECK(aclrtBinaryGetGlobal(bin, "coeff", &coeffAddr, nullptr));
    uint64_t &coeff = *static_cast<uint64_t *>(coeffAddr);
    void *p = nullptr;
    size_t size = 0;
    CHECK(aclrtGetSymbolAddress(coeff, &p));
    CHECK(aclrtGetSymbolSize(coeff, &size));
    uint64_t v = 41, back = 0;
    CHECK(aclrtMemcpyToSymbol(coeff, &v, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpyFromSymbol(&back, sizeof back, coeff, sizeof back, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    v = 42;
    CHECK(aclrtMemcpyToSymbolAsync(coeff, &v, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    uint64_t back2 = 0;
    CHECK(aclrtMemcpyFromSymbolAsync(&back2, sizeof back2, coeff, sizeof back2, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(p == coeffAddr && size == sizeof(uint64_t) && back == 41 && back2 == 42,
           "the symbol templates by reference: address, size, synchronous and queued copies both ways");
    CHECK(aclrtBinaryUnLoad(bin));

    CHECK(aclrtFreeHost(h));
    CHECK(aclrtFree(d2));
    CHECK(aclrtFree(d));
    CHECK(aclrtDestroyEvent(e));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 47_rt_api\n");
    return 0;
}
