/*
 * Stream-ordered memory pools (acl_rt_memory_soma.h). Pools and their
 * allocations are modelled here: a pool lives while its device has not
 * closed since it was made (fz.dev_epoch) and the runtime has not been
 * finalized (fz.rt_epoch). Pool memory is only touched by synchronous
 * copies, so no queued task writes it when a trim or destroy gives it back.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include <acl/acl_rt_memory_soma.h>

#define MIB (1ULL << 20)
#define NPOOL 3
#define NPALLOC 32

typedef struct pool {
    int used;             /* slot holds a handle made here */
    aclrtMemPool h;
    int dev;
    uint64_t dev_epoch, rt_epoch;
    uint64_t size;        /* maxSize rounded to 2 MiB */
    uint32_t reuse[4];
    uint64_t threshold;
} pool;

typedef struct palloc {
    int live, pool;
    char *p;
    uint64_t size, rounded;
} palloc;


static pool pools[NPOOL];
static palloc pallocs[NPALLOC];

static int pool_alive(int i)
{
    pool *p = &pools[i];
    return p->used && p->rt_epoch == fz.rt_epoch && p->dev_epoch == fz.dev_epoch[p->dev];
}

static uint64_t pool_used(int i)
{
    uint64_t n = 0;
    for (int a = 0; a < NPALLOC; a++) {
        if (pallocs[a].live && pallocs[a].pool == i) {
            n += pallocs[a].rounded;
        }
    }
    return n;
}

/* The allocations of dead pools are gone with their memory. */
static void forget_dead(void)
{
    for (int a = 0; a < NPALLOC; a++) {
        if (pallocs[a].live && !pool_alive(pallocs[a].pool)) {
            pallocs[a].live = 0;
        }
    }
}

static int pick_pool(void)
{
    int i = (int)below(NPOOL);
    return pools[i].used ? i : -1;
}

/* A stream for a pool call on device dev: a live explicit stream of dev
 * made current, whose expectation *ok says is certain (0: expect nothing). */
static int pool_stream(int dev, int *ok)
{
    int s = obj_pick(K_STREAM);
    *ok = 0;
    if (s < 0 || fz.objs[s].dev != dev || use_ctx_of_stream(s) != 0) {
        return -1;
    }
    *ok = !(allow_for_stream(s) & AL_ANY);
    return s;
}

static void op_pool_create(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int slot = (int)below(NPOOL);
    if (pools[slot].used && pool_alive(slot)) {
        return; /* keep the live one */
    }
    pools[slot].used = 0;
    forget_dead();
    aclrtMemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    pp.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    pp.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    pp.location.id = (uint32_t)cur_dev();
    pp.maxSize = (1 + below(16)) * MIB + (one_in(2) ? below(MIB) : 0);
    int bad = one_in(4) ? 1 + (int)below(7) : 0;
    static const char *const why[] = {"", "memPool NULL", "poolProps NULL", "allocType 1", "a host location",
                                      "a reserved byte set", "a POSIX handle type", "a device id out of range"};
    switch (bad) {
    case 3: pp.allocType = (aclrtMemAllocationType)1; break;
    case 4: pp.location.type = ACL_MEM_LOCATION_TYPE_HOST; break;
    case 5: pp.reserved[below(32)] = 1; break;
    case 6: pp.handleType = ACL_MEM_HANDLE_TYPE_POSIX; break;
    case 7: pp.location.id = (uint32_t)bad_dev(); break;
    }
    aclrtMemPool h = NULL;
    callf("aclrtMemPoolCreate(%s, {alloc %d, handle %d, dev %u type %d, max %llu}) [%s]", bad == 1 ? "NULL" : "&p",
          pp.allocType, pp.handleType, pp.location.id, pp.location.type, (unsigned long long)pp.maxSize, why[bad]);
    aclError rc = ret(aclrtMemPoolCreate(bad == 1 ? NULL : &h, bad == 2 ? NULL : &pp));
    if (bad) {
        must_fail(rc, why[bad]);
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    pool *p = &pools[slot];
    memset(p, 0, sizeof *p);
    p->used = 1;
    p->h = h;
    p->dev = cur_dev();
    p->dev_epoch = fz.dev_epoch[p->dev];
    p->rt_epoch = fz.rt_epoch;
    p->size = (pp.maxSize + 2 * MIB - 1) / (2 * MIB) * (2 * MIB);
}

static void op_pool_destroy(void)
{
    int i = pick_pool();
    if (i < 0 || one_in(10)) {
        callf("aclrtMemPoolDestroy(NULL)");
        must_fail(ret(aclrtMemPoolDestroy(NULL)), "a NULL pool");
        return;
    }
    int alive = pool_alive(i);
    callf("aclrtMemPoolDestroy(pool%d %p)%s", i, pools[i].h, alive ? "" : " [dead]");
    aclError rc = ret(aclrtMemPoolDestroy(pools[i].h));
    if (alive) {
        must_pass(rc, 0);
    } else {
        must_fail(rc, "a destroyed pool, or one whose device closed");
    }
    pools[i].used = 0; /* its handle is gone either way, and its allocations */
    forget_dead();
}

static void op_pool_attr(void)
{
    int i = pick_pool();
    if (i < 0) {
        return;
    }
    pool *p = &pools[i];
    int alive = pool_alive(i), set = one_in(2), attr = one_in(10) ? (int)below(10) : 1 + (int)below(8);
    int flag = attr >= 1 && attr <= 3, nullv = one_in(15);
    uint32_t v32 = one_in(3) ? (uint32_t)rnd() : (uint32_t)below(2);
    if (attr == 3) {
        /* Internal dependencies make a stream wait for another's free, which
         * the streams' model does not follow: only ever turned off here. */
        v32 = 0;
    }
    uint64_t v64 = one_in(3) ? p->size + below(2) * 2 * MIB : one_in(2) ? 0 : below(p->size + 1);
    void *value = nullv ? NULL : flag ? (void *)&v32 : (void *)&v64;
    callf("aclrtMemPool%sAttr(pool%d, %d, %s %llu)", set ? "Set" : "Get", i, attr, nullv ? "NULL" : "&",
          (unsigned long long)(flag ? v32 : v64));
    aclError rc = ret(set ? aclrtMemPoolSetAttr(p->h, (aclrtMemPoolAttr)attr, value)
                          : aclrtMemPoolGetAttr(p->h, (aclrtMemPoolAttr)attr, value));
    if (!alive || nullv || attr < 1 || attr > 8) {
        must_fail(rc, !alive ? "a dead pool" : nullv ? "value NULL" : "an unknown attribute");
        return;
    }
    if (set) {
        int ok = flag || (attr == 4 && v64 <= p->size) || ((attr == 6 || attr == 8) && v64 == 0);
        if (!ok) {
            must_fail(rc, attr == 5 || attr == 7 ? "a read-only attribute" : "a value out of range");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0 && flag) {
            p->reuse[attr] = v32 != 0;
        } else if (rc == 0 && attr == 4) {
            p->threshold = v64;
        }
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    fz.checks++;
    if ((flag && v32 != p->reuse[attr]) || (attr == 4 && v64 != p->threshold) || (attr == 7 && v64 != pool_used(i)) ||
        (attr == 5 && (v64 < pool_used(i) || v64 > p->size))) {
        finding("WRONG VALUE", "aclrtMemPoolGetAttr", "pool%d attribute %d reads %llu; reuse %u/%u/%u, threshold %llu, used %llu",
                i, attr, (unsigned long long)(flag ? v32 : v64), p->reuse[1], p->reuse[2], p->reuse[3],
                (unsigned long long)p->threshold, (unsigned long long)pool_used(i));
    }
}

static uint64_t reserved_of(int i)
{
    uint64_t v = 0;
    callf("aclrtMemPoolGetAttr(pool%d, RESERVED_MEM_CURRENT)", i);
    must_pass(ret(aclrtMemPoolGetAttr(pools[i].h, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v)), 0);
    return v;
}

static void op_pool_malloc(void)
{
    int i = pick_pool(), slot = -1, ok = 0;
    if (i < 0) {
        return;
    }
    for (int a = 0; a < NPALLOC && slot < 0; a++) {
        slot = pallocs[a].live ? -1 : a;
    }
    if (slot < 0) {
        return;
    }
    pool *p = &pools[i];
    int alive = pool_alive(i), s = alive ? pool_stream(p->dev, &ok) : -1;
    if (alive && s < 0) {
        return;
    }
    uint64_t size = one_in(10) ? 0 : one_in(10) ? size_any() : 1 + below(3 * MIB);
    uint64_t n = size > UINT64_MAX - 2 * MIB ? UINT64_MAX : (size + 2 * MIB - 1) / (2 * MIB) * (2 * MIB);
    uint64_t resv = alive ? reserved_of(i) : 0, used = pool_used(i);
    void *ptr = NULL;
    void *sh = s >= 0 ? fz.objs[s].h : fz.objs[obj_pick(K_STREAM) >= 0 ? obj_pick(K_STREAM) : 0].h;
    callf("aclrtMemPoolMallocAsync(&ptr, %s, pool%d, %s)", size_name(size), i, s >= 0 ? "stream" : "any stream");
    aclError rc = ret(aclrtMemPoolMallocAsync(&ptr, size, p->h, sh));
    if (!alive) {
        if (size != 0) {
            must_fail(rc, "a dead pool");
        }
        return;
    }
    if (!ok || size == 0) {
        if (size == 0) {
            must_pass(rc, ok ? 0 : AL_ANY);
        } else if (rc == 0) {
            pallocs[slot] = (palloc){1, i, ptr, size, n};
        }
        return;
    }
    if (n > p->size - used) {
        must_fail(rc, "more than the pool has left");
        return;
    }
    if (n <= p->size - resv) {
        must_pass(rc, allow_for_stream(s) & AL_FAULT);
    }
    if (rc != 0) {
        return;
    }
    pallocs[slot] = (palloc){1, i, ptr, size, n};
    /* Bytes through the allocation, synchronously. */
    uint64_t m = size < 4096 ? size : 4096;
    char in[4096], out[4096];
    pattern(in, m, fz.call);
    callf("aclrtMemcpy(pool ptr %p, %llu, in) + back", ptr, (unsigned long long)m);
    rc = ret(aclrtMemcpy((char *)ptr + (size - m), m, in, m, ACL_MEMCPY_HOST_TO_DEVICE));
    if (rc == 0 && ret(aclrtMemcpy(out, m, (char *)ptr + (size - m), m, ACL_MEMCPY_DEVICE_TO_HOST)) == 0) {
        fz.checks++;
        if (memcmp(in, out, m) != 0) {
            mismatch("pool allocation %p: %llu bytes read back differ at %d", ptr, (unsigned long long)m, first_diff(in, out, m));
        }
    } else {
        must_pass(rc, allow_for_ctx(fz.cur_ctx) & (AL_FAULT | AL_CAPTURE));
    }
    if (size % (2 * MIB) != 0) { /* else the next allocation may start there */
        callf("aclrtMemset(pool ptr %p + %llu, 1, 0, 1)", ptr, (unsigned long long)size);
        must_fail(ret(aclrtMemset((char *)ptr + size, 1, 0, 1)), "a memset past the pool allocation");
    }
}

static void op_pool_free(void)
{
    int a = (int)below(NPALLOC), ok = 0;
    palloc *m = &pallocs[a];
    forget_dead();
    if (!m->live || one_in(8)) {
        callf("aclrtMemPoolFreeAsync(NULL, stream)");
        int s = obj_pick(K_STREAM);
        must_fail(ret(aclrtMemPoolFreeAsync(NULL, s >= 0 ? fz.objs[s].h : NULL)), "ptr NULL");
        return;
    }
    int s = pool_stream(pools[m->pool].dev, &ok), inside = one_in(8);
    if (s < 0) {
        return;
    }
    callf("aclrtMemPoolFreeAsync(%p%s, stream)", (void *)m->p, inside ? " + 64" : "");
    aclError rc = ret(aclrtMemPoolFreeAsync(m->p + (inside ? 64 : 0), fz.objs[s].h));
    if (!ok) {
        if (rc == 0 && !inside) {
            m->live = 0;
        }
        return;
    }
    if (inside) {
        must_fail(rc, "a pointer inside a pool allocation");
        return;
    }
    must_pass(rc, allow_for_stream(s) & AL_FAULT);
    if (rc != 0) {
        return;
    }
    m->live = 0;
    /* Freed again, unless the address went to another allocation. */
    for (int b = 0; b < NPALLOC; b++) {
        if (pallocs[b].live && pallocs[b].p == m->p) {
            return;
        }
    }
    if (one_in(3)) {
        callf("aclrtMemPoolFreeAsync(%p, stream) again", (void *)m->p);
        must_fail(ret(aclrtMemPoolFreeAsync(m->p, fz.objs[s].h)), "a second free of pool memory");
    }
}

static void op_pool_trim(void)
{
    int i = pick_pool();
    if (i < 0) {
        return;
    }
    int alive = pool_alive(i);
    uint64_t resv = alive ? reserved_of(i) : 0, used = pool_used(i);
    uint64_t keep = one_in(8) ? pools[i].size + 1 : below(pools[i].size + 1);
    callf("aclrtMemPoolTrimTo(pool%d, %llu) [reserved %llu, used %llu]", i, (unsigned long long)keep,
          (unsigned long long)resv, (unsigned long long)used);
    aclError rc = ret(aclrtMemPoolTrimTo(pools[i].h, keep));
    /* Below the memory in use is no error: the trim stops at it. */
    if (!alive || keep > pools[i].size) {
        must_fail(rc, !alive ? "a dead pool" : "minBytesToKeep above the pool's size");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        uint64_t after = reserved_of(i);
        fz.checks++;
        if (after < used) {
            finding("WRONG VALUE", "aclrtMemPoolTrimTo", "pool%d reserves %llu bytes after the trim, below the %llu in use",
                    i, (unsigned long long)after, (unsigned long long)used);
        }
    }
}

const struct op ops_pool[] = {
    {"pool_create", 2, op_pool_create},
    {"pool_destroy", 1, op_pool_destroy},
    {"pool_attr", 3, op_pool_attr},
    {"pool_malloc", 4, op_pool_malloc},
    {"pool_free", 4, op_pool_free},
    {"pool_trim", 2, op_pool_trim},
    {NULL, 0, NULL},
};
