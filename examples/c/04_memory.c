/*
 * 04_memory: device and host allocations, pointer attributes, synchronous
 * and asynchronous copies of every kind, memsets, pitched copies, address
 * ranges, and what bad pointers and sizes return.
 */
#include "common.h"

#define N 4096

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != v) {
            return 0;
        }
    }
    return 1;
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (unsigned char)(i * 31u + seed);
    }
}

int main(void)
{
    aclrtPtrAttributes attr;
    void *d = NULL, *d2 = NULL, *huge = NULL, *pinned = NULL, *pinned2 = NULL;
    unsigned char *pageable = malloc(N), *check = malloc(N);
    aclrtStream s = NULL;

    if (pageable == NULL || check == NULL) {
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));

    /* Allocation policies and pointer attributes. */
    CHECK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    EXPECT(((uintptr_t)d & 63) == 0, "aclrtMalloc returns 64-byte aligned memory (%p)", d);
    CHECK(aclrtPointerGetAttributes(d, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attr.location.id == 0 && attr.pageSize == 4096,
           "NORMAL_ONLY: device memory of device %u, page size %u", attr.location.id, attr.pageSize);
    CHECK(aclrtMalloc(&huge, 4u << 20, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK(aclrtPointerGetAttributes((char *)huge + 12345, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attr.pageSize == (2u << 20),
           "HUGE_ONLY: page size %u, also for an inner pointer", attr.pageSize);
    CHECK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtPointerGetAttributes(d2, &attr));
    EXPECT(attr.pageSize == 4096, "HUGE_FIRST of 4 KiB takes normal pages (page size %u)", attr.pageSize);
    CHECK(aclrtFree(d2));
    CHECK(aclrtMalloc(&d2, 3u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtPointerGetAttributes(d2, &attr));
    EXPECT(attr.pageSize == (2u << 20), "HUGE_FIRST of 3 MiB takes huge pages (page size %u)", attr.pageSize);
    CHECK(aclrtFree(d2));
    CHECK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK(aclrtFree(d2));
    pass("HUGE_FIRST_P2P allocates");
    EXPECT_CODE(aclrtMalloc(&d2, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_PARAM_INVALID, "aclrtMalloc of 0 bytes");
    EXPECT_CODE(aclrtMalloc(NULL, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc with NULL devPtr");

    CHECK(aclrtMallocHost(&pinned, N));
    CHECK(aclrtMallocHost(&pinned2, N));
    EXPECT(((uintptr_t)pinned & 63) == 0, "aclrtMallocHost returns 64-byte aligned memory");
    /* The header calls ACL_MEM_LOCATION_TYPE_HOST reserved; the reference
     * uses it for memory from aclrtMallocHost, as the runtime does. */
    CHECK(aclrtPointerGetAttributes(pinned, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_HOST, "aclrtMallocHost memory is HOST (type %d)", (int)attr.location.type);
    CHECK(aclrtPointerGetAttributes(pageable, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED, "malloc memory is UNREGISTERED (type %d)",
           (int)attr.location.type);

    /* Never-used device memory reads as zero. */
    memset(check, 0xee, N);
    CHECK(aclrtMemcpy(check, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(all_bytes(check, N, 0), "never-used device memory reads zero");

    /* aclrtMemcpy of every kind. */
    fill_pattern(pageable, N, 1);
    CHECK(aclrtMemcpy(d, N, pageable, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(check, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(check, pageable, N) == 0, "aclrtMemcpy HOST_TO_DEVICE then DEVICE_TO_HOST round-trips");
    CHECK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(d2, N, d, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
    memset(check, 0, N);
    CHECK(aclrtMemcpy(check, N, d2, N, ACL_MEMCPY_DEFAULT));
    EXPECT(memcmp(check, pageable, N) == 0, "aclrtMemcpy DEVICE_TO_DEVICE, then DEFAULT (device to host)");
    fill_pattern(pageable, N, 2);
    CHECK(aclrtMemcpy(d2, N, pageable, N, ACL_MEMCPY_DEFAULT));
    CHECK(aclrtMemcpy(pinned, N, d2, N, ACL_MEMCPY_DEFAULT));
    EXPECT(memcmp(pinned, pageable, N) == 0, "aclrtMemcpy DEFAULT infers host to device and device to host");
    CHECK(aclrtMemcpy(pinned2, N, pinned, N, ACL_MEMCPY_HOST_TO_HOST));
    EXPECT(memcmp(pinned2, pageable, N) == 0, "aclrtMemcpy HOST_TO_HOST");
    CHECK(aclrtMemcpy(check, N, d2, 100, ACL_MEMCPY_DEVICE_TO_HOST));
    pass("aclrtMemcpy of part of a buffer");

    clear_errors();
    EXPECT_CODE(aclrtMemcpy(check, N / 2, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
                "destMax smaller than count");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "aclrtMemcpy") != NULL, "the message names the call: %s", msg ? msg : "(null)");
    EXPECT_CODE(aclrtMemcpy(check, N, d, N + 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
                "count past the end of the allocation");
    EXPECT_CODE(aclrtMemcpy(check, N, (char *)d + N, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
                "source one past the end of the allocation");
    EXPECT_CODE(aclrtMemcpy(NULL, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM, "NULL destination");
    /* The reference calls the kind reserved and derived from the pointers,
     * yet its error reference shows kinds being checked: the runtime
     * derives the direction and refuses a kind that contradicts it. */
    EXPECT_CODE(aclrtMemcpy(check, N, d, N, (aclrtMemcpyKind)42), ACL_ERROR_RT_PARAM_INVALID, "unknown copy kind");
    EXPECT_CODE(aclrtMemcpy(check, N, d, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                "a kind contradicting the pointers");

    /* aclrtMemcpyAsync with pageable memory: the source is taken before
     * the call returns, and a pageable destination is filled by then. */
    fill_pattern(pageable, N, 3);
    memcpy(check, pageable, N);
    CHECK(aclrtMemcpyAsync(d, N, pageable, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    memset(pageable, 0, N); /* allowed at once for pageable memory */
    unsigned char *back = malloc(N);
    if (back == NULL) {
        return 2;
    }
    memset(back, 0, N);
    CHECK(aclrtMemcpyAsync(back, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    EXPECT(memcmp(back, check, N) == 0, "aclrtMemcpyAsync with pageable memory: staged source, filled destination on return");

    /* ... with pinned memory: the copy happens in stream order. */
    fill_pattern(pinned, N, 4);
    CHECK(aclrtMemcpyAsync(d2, N, pinned, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtMemcpyAsync(d, N, d2, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    memset(pinned2, 0, N);
    CHECK(aclrtMemcpyAsync(pinned2, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(memcmp(pinned2, pinned, N) == 0, "aclrtMemcpyAsync with pinned memory, host to device to device to host");
    CHECK(aclrtMemcpyAsync(pinned2, N, pinned, N, ACL_MEMCPY_HOST_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    pass("aclrtMemcpyAsync HOST_TO_HOST between pinned buffers");
    EXPECT_CODE(aclrtMemcpyAsync(back, N / 2, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtMemcpyAsync with destMax smaller than count");

    /* Memsets. */
    CHECK(aclrtMemset(d, N, 0x5a, N));
    CHECK(aclrtMemcpy(check, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(all_bytes(check, N, 0x5a), "aclrtMemset sets every byte");
    CHECK(aclrtMemsetAsync((char *)d + 100, N - 100, 0x1c3, 50, s)); /* the value is taken as a byte */
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(check, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(all_bytes(check, 100, 0x5a) && all_bytes(check + 100, 50, 0xc3) && all_bytes(check + 150, N - 150, 0x5a),
           "aclrtMemsetAsync sets exactly the range, with the low byte of the value");
    EXPECT_CODE(aclrtMemset(d, 10, 0, 20), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset with maxCount smaller than count");
    EXPECT_CODE(aclrtMemset(d, N + 64, 0, N + 64), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset past the allocation");

    /* Pitched copies: 8 rows of 20 bytes out of rows of 32, into rows of 24. */
    enum { W = 20, H = 8, SP = 32, DP = 24 };
    unsigned char src2d[SP * H], dst2d[DP * H];
    fill_pattern(src2d, sizeof src2d, 5);
    CHECK(aclrtMemset(d2, N, 0, N));
    CHECK(aclrtMemcpy2d(d2, DP, src2d, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(dst2d, 0xff, sizeof dst2d);
    CHECK(aclrtMemcpy(dst2d, sizeof dst2d, d2, sizeof dst2d, ACL_MEMCPY_DEVICE_TO_HOST));
    int ok2d = 1;
    for (int r = 0; r < H; r++) {
        ok2d = ok2d && memcmp(dst2d + r * DP, src2d + r * SP, W) == 0 && all_bytes(dst2d + r * DP + W, DP - W, 0);
    }
    EXPECT(ok2d, "aclrtMemcpy2d host to device copies the rows and leaves the padding");
    unsigned char *pin2d = pinned2;
    memset(pin2d, 0, SP * H);
    CHECK(aclrtMemcpy2dAsync(pin2d, SP, d2, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    ok2d = 1;
    for (int r = 0; r < H; r++) {
        ok2d = ok2d && memcmp(pin2d + r * SP, src2d + r * SP, W) == 0 && all_bytes(pin2d + r * SP + W, SP - W, 0);
    }
    EXPECT(ok2d, "aclrtMemcpy2dAsync device to pinned host copies them back");
    EXPECT_CODE(aclrtMemcpy2d(d2, 16, src2d, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtMemcpy2d with width larger than dpitch");
    /* ACL_MEMCPY_DEFAULT: the direction comes from the pointers. */
    memset(dst2d, 0xff, sizeof dst2d);
    CHECK(aclrtMemcpy2d(dst2d, DP, d2, DP, W, H, ACL_MEMCPY_DEFAULT));
    ok2d = 1;
    for (int r = 0; r < H; r++) {
        ok2d = ok2d && memcmp(dst2d + r * DP, src2d + r * SP, W) == 0 && all_bytes(dst2d + r * DP + W, DP - W, 0xff);
    }
    EXPECT(ok2d, "aclrtMemcpy2d ACL_MEMCPY_DEFAULT from device memory to the host copies the rows");
    EXPECT_CODE(aclrtMemcpy2d(d2, DP, (char *)d2 + DP * H, DP, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtMemcpy2d ACL_MEMCPY_DEVICE_TO_DEVICE (the asynchronous call copies device to device)");
    EXPECT_CODE(aclrtMemcpy2d(d2, DP, (char *)d2 + DP * H, DP, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtMemcpy2d ACL_MEMCPY_DEFAULT between device buffers");
    CHECK(aclrtMemcpy2dAsync((char *)d2 + DP * H, DP, d2, DP, W, H, ACL_MEMCPY_DEFAULT, s));
    CHECK(aclrtSynchronizeStream(s));

    /* Address ranges. */
    void *base = NULL;
    size_t size = 0;
    CHECK(aclrtMemGetAddressRange((char *)huge + 100000, &base, &size));
    EXPECT(base == huge && size >= (4u << 20), "aclrtMemGetAddressRange of an inner pointer: base %p, size %zu", base, size);
    CHECK(aclrtMemGetAddressRange((char *)pinned + 10, &base, NULL));
    EXPECT(base == pinned, "aclrtMemGetAddressRange of pinned host memory");
    EXPECT_CODE(aclrtMemGetAddressRange(pageable, &base, &size), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtMemGetAddressRange of malloc memory");

    /* Freed memory and memory of another device. */
    void *gone = d2;
    CHECK(aclrtFree(d2));
    EXPECT_CODE(aclrtMemcpy(check, N, gone, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "copy from freed memory");
    EXPECT_CODE(aclrtMemset(gone, N, 0, N), ACL_ERROR_RT_PARAM_INVALID, "memset of freed memory");
    EXPECT_CODE(aclrtFree(gone), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree twice");
    EXPECT_CODE(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFree(NULL): a NULL pointer argument");
    /* A freed address belongs to no allocation: it reads as unregistered
     * memory, as any address the runtime did not hand out does. */
    CHECK(aclrtPointerGetAttributes(gone, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED, "attributes of freed memory: UNREGISTERED (type %d)",
           (int)attr.location.type);

    void *other = NULL;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMalloc(&other, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtPointerGetAttributes(other, &attr));
    EXPECT(attr.location.id == 1, "memory of device 1 reports device %u", attr.location.id);
    EXPECT_CODE(aclrtMemsetAsync(other, N, 0, N, s), ACL_ERROR_RT_PARAM_INVALID,
                "memset of device 1 memory on a device 0 stream");
    EXPECT_CODE(aclrtMemcpyAsync(d, N, other, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
                "device-to-device copy from device 1 memory on a device 0 stream");

    /* Reused memory keeps its old bytes (allocations are not cleared). */
    void *r1 = NULL, *r2 = NULL;
    CHECK(aclrtMalloc(&r1, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(r1, N, 0xab, N));
    CHECK(aclrtFree(r1));
    CHECK(aclrtMalloc(&r2, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(check, N, r2, N, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(r2 == r1 && all_bytes(check, N, 0xab), "a freed block allocated again keeps its old bytes");

    CHECK(aclrtFree(r2));
    CHECK(aclrtFree(d));
    CHECK(aclrtFree(huge));
    CHECK(aclrtFreeHost(pinned));
    CHECK(aclrtFreeHost(pinned2));
    EXPECT_CODE(aclrtFreeHost(pinned), ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost twice");
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclrtResetDevice(1));
    CHECK(aclFinalize());
    free(pageable);
    free(check);
    free(back);
    printf("PASS 04_memory\n");
    return 0;
}
