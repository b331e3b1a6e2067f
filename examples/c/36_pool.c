/*
 * 36_pool: stream-ordered memory pools (acl/acl_rt_memory_soma.h): pool
 * creation and attributes, allocations used by their stream's tasks,
 * reuse on the same stream and across streams under each reuse attribute,
 * the reserved and used sizes, trimming, aclrtMemPoolFreeAsync of
 * aclrtMalloc memory, and every refusal with its code.
 */
#include "common.h"

#include <stdatomic.h>

#include "acl/acl_rt_memory_soma.h"

#define MIB (1u << 20)

/* A gate holds a stream in a host function until opened. */
static atomic_int gate_open;

static void gate_fn(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate_open)) {
        sleep_ms(1);
    }
}

static void hold(aclrtStream s)
{
    atomic_store(&gate_open, 0);
    CHECK(aclrtLaunchHostFunc(s, gate_fn, NULL));
}

static void release(void) { atomic_store(&gate_open, 1); }

static atomic_int ran;

static void mark_fn(void *arg)
{
    (void)arg;
    atomic_store(&ran, 1);
}

static uint64_t attr64(aclrtMemPool p, aclrtMemPoolAttr a)
{
    uint64_t v = 0;
    CHECK(aclrtMemPoolGetAttr(p, a, &v));
    return v;
}

static void set32(aclrtMemPool p, aclrtMemPoolAttr a, uint32_t v) { CHECK(aclrtMemPoolSetAttr(p, a, &v)); }

static aclrtMemPoolProps props(size_t maxSize)
{
    aclrtMemPoolProps p;
    memset(&p, 0, sizeof p);
    p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.location.id = 0;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.maxSize = maxSize;
    return p;
}

/* fresh_pool: a new pool of 64 MiB that keeps what is freed across
 * synchronizes, with reuse switch attr (if nonzero) on. */
static aclrtMemPool fresh_pool(aclrtMemPoolAttr attr)
{
    aclrtMemPool p = NULL;
    aclrtMemPoolProps pp = props(64 * MIB);
    uint64_t keep = 64 * MIB;
    CHECK(aclrtMemPoolCreate(&p, &pp));
    CHECK(aclrtMemPoolSetAttr(p, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    if (attr != 0) {
        set32(p, attr, 1);
    }
    return p;
}

/* alloc_free_on: allocate 1 MiB on s, free it on s, return it. */
static void *alloc_free_on(aclrtMemPool p, aclrtStream s)
{
    void *a = NULL;
    CHECK(aclrtMemPoolMallocAsync(&a, MIB, p, s));
    CHECK(aclrtMemPoolFreeAsync(a, s));
    return a;
}

int main(void)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtMemPool pool = NULL, dead = NULL;
    aclrtMemPoolProps pp = props(64 * MIB);
    aclrtEvent ev = NULL;
    void *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    uint64_t v64 = 0;
    uint32_t v32 = 7;
    static unsigned char in[3 * MIB / 2], out[3 * MIB / 2];

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));

    /* Creation and its refusals. */
    EXPECT_CODE(aclrtMemPoolCreate(NULL, &pp), ACL_ERROR_INVALID_PARAM, "memPool NULL");
    EXPECT_CODE(aclrtMemPoolCreate(&pool, NULL), ACL_ERROR_INVALID_PARAM, "poolProps NULL");
    pp.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    EXPECT_CODE(aclrtMemPoolCreate(&pool, &pp), ACL_ERROR_INVALID_PARAM, "a host location");
    pp = props(64 * MIB);
    pp.reserved[31] = 1;
    EXPECT_CODE(aclrtMemPoolCreate(&pool, &pp), ACL_ERROR_INVALID_PARAM, "reserved bytes set");
    pp = props(64 * MIB);
    pp.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
    EXPECT_CODE(aclrtMemPoolCreate(&pool, &pp), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "a shareable pool");
    pp = props(64 * MIB);
    pp.location.id = 99;
    EXPECT_CODE(aclrtMemPoolCreate(&pool, &pp), ACL_ERROR_RT_INVALID_DEVICEID, "device 99");
    pp = props((size_t)1 << 50);
    EXPECT_CODE(aclrtMemPoolCreate(&pool, &pp), ACL_ERROR_RT_PARAM_INVALID, "maxSize beyond the device's memory");
    pp = props(63 * MIB);
    CHECK(aclrtMemPoolCreate(&pool, &pp));
    pass("aclrtMemPoolCreate of 63 MiB");

    /* Attributes. */
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) == 0 && attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT) == 0,
           "a new pool reserves and uses nothing");
    CHECK(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v32));
    EXPECT(v32 == 0, "opportunistic reuse is off by default");
    v32 = 5;
    CHECK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v32));
    v32 = 9;
    CHECK(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v32));
    EXPECT(v32 == 1, "a reuse switch set to 5 reads 1");
    set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0);
    v64 = 64 * MIB;
    CHECK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v64));
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD) == 64 * MIB, "the release threshold reads back");
    v64 = 64 * MIB + 1;
    EXPECT_CODE(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v64), ACL_ERROR_RT_INTERNAL_ERROR,
                "a release threshold past the pool's size");
    EXPECT_CODE(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v64), ACL_ERROR_RT_PARAM_INVALID,
                "setting a read-only attribute");
    v64 = 1;
    EXPECT_CODE(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v64), ACL_ERROR_RT_INTERNAL_ERROR,
                "a high-water mark set to 1");
    EXPECT_CODE(aclrtMemPoolSetAttr(pool, (aclrtMemPoolAttr)9, &v64), ACL_ERROR_RT_INTERNAL_ERROR, "attribute 9");
    EXPECT_CODE(aclrtMemPoolGetAttr(pool, (aclrtMemPoolAttr)0, &v64), ACL_ERROR_RT_INTERNAL_ERROR, "reading attribute 0");
    EXPECT_CODE(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, NULL), ACL_ERROR_RT_PARAM_INVALID, "value NULL");
    EXPECT_CODE(aclrtMemPoolGetAttr(NULL, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v64), ACL_ERROR_INVALID_PARAM, "memPool NULL");

    /* An allocation its stream's tasks use; bytes compared. */
    EXPECT_CODE(aclrtMemPoolMallocAsync(NULL, 1, pool, s1), ACL_ERROR_INVALID_PARAM, "ptr NULL");
    EXPECT_CODE(aclrtMemPoolMallocAsync(&a, 1, NULL, s1), ACL_ERROR_INVALID_PARAM, "pool NULL");
    EXPECT_CODE(aclrtMemPoolMallocAsync(&a, 1, pool, NULL), ACL_ERROR_INVALID_PARAM, "stream NULL");
    a = (void *)1;
    CHECK(aclrtMemPoolMallocAsync(&a, 0, pool, s1));
    EXPECT(a == (void *)1, "zero bytes succeed and leave ptr alone");
    EXPECT_CODE(aclrtMemPoolMallocAsync(&a, 65 * MIB, pool, s1), ACL_ERROR_RT_INTERNAL_ERROR, "more than the pool holds");
    CHECK(aclrtMemPoolMallocAsync(&a, sizeof in, pool, s1));
    for (size_t i = 0; i < sizeof in; i++) {
        in[i] = (unsigned char)(i * 13u + 1);
    }
    CHECK(aclrtMemcpyAsync(a, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    CHECK(aclrtMemcpyAsync(out, sizeof out, a, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK(aclrtSynchronizeStream(s1));
    EXPECT(memcmp(in, out, sizeof in) == 0, "bytes copied into pool memory and back are equal");
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) == 2 * MIB && attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT) == 2 * MIB,
           "1.5 MiB reserves and uses 2 MiB");
    EXPECT_CODE(aclrtMemset((char *)a + sizeof in, 1, 1, 1), ACL_ERROR_RT_PARAM_INVALID, "a memset past the size asked for");
    EXPECT_CODE(aclrtFree(a), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree of pool memory");
    EXPECT_CODE(aclrtMemPoolFreeAsync(NULL, s1), ACL_ERROR_INVALID_PARAM, "FreeAsync of NULL");
    EXPECT_CODE(aclrtMemPoolFreeAsync(a, NULL), ACL_ERROR_RT_INTERNAL_ERROR, "FreeAsync on the NULL stream");
    EXPECT_CODE(aclrtMemPoolFreeAsync((char *)a + 64, s1), ACL_ERROR_RT_PARAM_INVALID, "FreeAsync inside an allocation");
    CHECK(aclrtMemPoolFreeAsync(a, s1));
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT) == 0 && attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) == 2 * MIB,
           "after the free the pool still reserves 2 MiB and uses none");
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH) == 2 * MIB, "the used high-water mark is 2 MiB");
    EXPECT_CODE(aclrtMemPoolFreeAsync(a, s1), ACL_ERROR_RT_PARAM_INVALID, "a second FreeAsync");
    EXPECT_CODE(aclrtMemset(a, 1, 1, 1), ACL_ERROR_RT_PARAM_INVALID, "a memset of freed pool memory");

    /* Same stream: reused at once, behind the stream's earlier tasks. */
    hold(s1);
    a = alloc_free_on(pool, s1);
    CHECK(aclrtMemPoolMallocAsync(&b, MIB, pool, s1));
    EXPECT(b == a, "memory freed on a stream is reused by its next allocation at once");
    CHECK(aclrtMemPoolFreeAsync(b, s1));
    /* Another stream, no reuse attribute: not even after the free ran. */
    CHECK(aclrtMemPoolMallocAsync(&c, MIB, pool, s2));
    EXPECT(c != a, "another stream does not reuse it while its free is pending");
    release();
    CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtMemPoolMallocAsync(&d, MIB, pool, s2));
    EXPECT(d != a, "nor once the free ran, with every reuse attribute off");
    CHECK(aclrtMemPoolFreeAsync(c, s2));
    CHECK(aclrtMemPoolFreeAsync(d, s2));
    CHECK(aclrtSynchronizeStream(s2));

    /* Opportunistic: after the free ran, not before. */
    CHECK(aclrtMemPoolDestroy(pool));
    pool = fresh_pool(ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC);
    hold(s1);
    a = alloc_free_on(pool, s1);
    CHECK(aclrtMemPoolMallocAsync(&b, MIB, pool, s2));
    EXPECT(b != a, "opportunistic: not reused while the free is pending");
    release();
    CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtMemPoolMallocAsync(&c, MIB, pool, s2));
    EXPECT(c == a, "opportunistic: reused by another stream once the free ran");
    CHECK(aclrtMemPoolFreeAsync(b, s2));
    CHECK(aclrtMemPoolFreeAsync(c, s2));
    CHECK(aclrtSynchronizeStream(s2));
    CHECK(aclrtMemPoolDestroy(pool));

    /* Event dependencies: a stream that waited for a record after the free. */
    pool = fresh_pool(ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES);
    CHECK(aclrtCreateEvent(&ev));
    hold(s1);
    a = alloc_free_on(pool, s1);
    CHECK(aclrtMemPoolMallocAsync(&b, MIB, pool, s2));
    EXPECT(b != a, "event dependencies: not reused by a stream that waited for nothing");
    CHECK(aclrtRecordEvent(ev, s1));
    CHECK(aclrtStreamWaitEvent(s2, ev));
    CHECK(aclrtMemPoolMallocAsync(&c, MIB, pool, s2));
    EXPECT(c == a, "event dependencies: reused after waiting for an event recorded behind the free");
    CHECK(aclrtMemPoolFreeAsync(b, s2));
    CHECK(aclrtMemPoolFreeAsync(c, s2));
    release();
    CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtSynchronizeStream(s2));
    CHECK(aclrtMemPoolDestroy(pool));

    /* Internal dependencies: reused at once; the new user waits for the free. */
    pool = fresh_pool(ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES);
    hold(s1);
    a = alloc_free_on(pool, s1);
    CHECK(aclrtMemPoolMallocAsync(&b, MIB, pool, s2));
    EXPECT(b == a, "internal dependencies: reused by another stream while the free is pending");
    atomic_store(&ran, 0);
    CHECK(aclrtLaunchHostFunc(s2, mark_fn, NULL));
    sleep_ms(50);
    EXPECT(!atomic_load(&ran), "the reusing stream's next task waits for the free");
    release();
    CHECK(aclrtSynchronizeStream(s2));
    EXPECT(atomic_load(&ran), "and runs once the freeing stream got there");
    CHECK(aclrtMemPoolFreeAsync(b, s2));
    CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtSynchronizeStream(s2));

    /* Trimming. */
    set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0);
    CHECK(aclrtMemPoolMallocAsync(&a, MIB, pool, s1));
    v64 = attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT);
    EXPECT(v64 > 2 * MIB, "the pool reserves %llu bytes before trimming", (unsigned long long)v64);
    EXPECT_CODE(aclrtMemPoolTrimTo(pool, 65 * MIB), ACL_ERROR_RT_INTERNAL_ERROR, "trimming to more than the pool's size");
    EXPECT_CODE(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM, "trimming a NULL pool");
    CHECK(aclrtMemset(a, MIB, 0x5a, MIB));
    /* Below the memory in use: the idle chunks go, the one in use stays. */
    CHECK(aclrtMemPoolTrimTo(pool, 0));
    v64 = attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT);
    EXPECT(v64 == 2 * MIB, "TrimTo(0) with 1 MiB in use gives back the idle chunks and keeps the one in use (%llu bytes)",
           (unsigned long long)v64);
    CHECK(aclrtMemcpy(out, MIB, a, MIB, ACL_MEMCPY_DEVICE_TO_HOST));
    for (v64 = 0; v64 < MIB && out[v64] == 0x5a; v64++) {
    }
    EXPECT(v64 == MIB, "the allocation in use keeps its bytes through the trim (%llu of %u)", (unsigned long long)v64, MIB);
    CHECK(aclrtMemPoolTrimTo(pool, MIB));
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) == 2 * MIB, "TrimTo(1 MiB) leaves the chunk in use");
    CHECK(aclrtMemPoolFreeAsync(a, s1));
    v64 = 0;
    CHECK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v64));
    CHECK(aclrtSynchronizeStream(s1));
    EXPECT(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) == 0, "a synchronize gives back what exceeds a threshold of 0");

    /* aclrtMemPoolFreeAsync of aclrtMalloc memory frees it in stream order. */
    CHECK(aclrtMalloc(&c, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    hold(s1);
    CHECK(aclrtMemPoolFreeAsync(c, s1));
    CHECK(aclrtMemset(c, 4096, 0, 16));
    pass("aclrtMalloc memory freed with aclrtMemPoolFreeAsync stays live behind the held stream");
    release();
    CHECK(aclrtSynchronizeStream(s1));
    EXPECT_CODE(aclrtMemset(c, 4096, 0, 16), ACL_ERROR_RT_PARAM_INVALID, "and is freed once the stream got there");

    /* Destroyed pools. */
    dead = pool;
    CHECK(aclrtMemPoolDestroy(pool));
    EXPECT_CODE(aclrtMemPoolDestroy(dead), ACL_ERROR_RT_INTERNAL_ERROR, "destroying a pool twice");
    EXPECT_CODE(aclrtMemPoolDestroy(NULL), ACL_ERROR_INVALID_PARAM, "destroying NULL");
    EXPECT_CODE(aclrtMemPoolMallocAsync(&a, 1, dead, s1), ACL_ERROR_RT_INTERNAL_ERROR, "allocating from a destroyed pool");
    EXPECT_CODE(aclrtMemPoolSetAttr(dead, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v64), ACL_ERROR_RT_PARAM_INVALID,
                "setting an attribute of a destroyed pool");
    EXPECT_CODE(aclrtMemPoolTrimTo(dead, 0), ACL_ERROR_RT_INTERNAL_ERROR, "trimming a destroyed pool");
    EXPECT_CODE(aclrtMemPoolMallocAsync(&a, 1, (aclrtMemPool)s1, s1), ACL_ERROR_RT_INTERNAL_ERROR, "a stream passed as a pool");

    CHECK(aclrtDestroyEvent(ev));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 36_pool\n");
    return 0;
}
