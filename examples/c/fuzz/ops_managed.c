/*
 * Managed memory: allocations, the host writing in place and a copy
 * reading the bytes back, advice read back through a range attribute,
 * prefetches, frees. The model is exact: which allocations live, on which
 * device, and what a device closing or aclFinalize takes.
 */
#include "fuzz.h"

#include <string.h>

#define MIB2 ((uint64_t)2 << 20)
#define NMANAGED 4

typedef struct {
    int live;
    char *p;
    uint64_t size;
    int dev;
} vmanaged;

static vmanaged mgd[NMANAGED];

/* managed_device_closed: a device that closes takes its managed memory. */
void managed_device_closed(int dev)
{
    for (int i = 0; i < NMANAGED; i++) {
        if (mgd[i].live && mgd[i].dev == dev) {
            mgd[i].live = 0;
        }
    }
}

/* managed_finalized: aclFinalize takes it all. */
void managed_finalized(void) { memset(mgd, 0, sizeof mgd); }

static int free_managed(void)
{
    for (int i = 0; i < NMANAGED; i++) {
        if (!mgd[i].live) {
            return i;
        }
    }
    return -1;
}

static int pick_managed(void)
{
    int start = (int)below(NMANAGED);
    for (int k = 0; k < NMANAGED; k++) {
        if (mgd[(start + k) % NMANAGED].live) {
            return (start + k) % NMANAGED;
        }
    }
    return -1;
}

static void op_managed_alloc(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int slot = free_managed();
    uint64_t size = 1 + below(3 * MIB2);
    uint32_t flag = one_in(6) ? 0 : ACL_RT_MEM_ATTACH_GLOBAL;
    if (one_in(8)) {
        size = 0;
    }
    void *p = NULL;
    callf("aclrtMemAllocManaged(&p, %llu, %u)", (unsigned long long)size, flag);
    aclError rc = ret(aclrtMemAllocManaged(&p, size, flag));
    if (size == 0 || flag != ACL_RT_MEM_ATTACH_GLOBAL) {
        must_fail(rc, size == 0 ? "size 0" : "flag other than ACL_RT_MEM_ATTACH_GLOBAL");
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    if (slot < 0) {
        callf("aclrtFree(%p)", p);
        must_pass(ret(aclrtFree(p)), 0);
        return;
    }
    mgd[slot] = (vmanaged){1, p, (size + MIB2 - 1) / MIB2 * MIB2, cur_dev()};
    fz.dev_bytes[mgd[slot].dev] += mgd[slot].size;
}

/* op_managed_use: the host writes in place, a copy reads it back; advice,
 * an attribute and a prefetch on the default stream. */
static void op_managed_use(void)
{
    int i = pick_managed();
    if (i < 0 || fz.cur_ctx < 0) {
        return;
    }
    vmanaged *m = &mgd[i];
    uint64_t n = 1 + below(4096), off = below(m->size - n);
    pattern(m->p + off, n, fz.call);
    static unsigned char got[4096];
    callf("aclrtMemcpy(host, %llu, managed %p, %llu, D2H)", (unsigned long long)n, (void *)(m->p + off),
          (unsigned long long)n);
    aclError rc = ret(aclrtMemcpy(got, n, m->p + off, n, ACL_MEMCPY_DEVICE_TO_HOST));
    must_pass(rc, allow_for_ctx(fz.cur_ctx));
    int d;
    if (rc == 0 && (d = first_diff(m->p + off, got, n)) >= 0) {
        mismatch("byte %d of %llu the host wrote in managed memory at %p copies out as %#x", d, (unsigned long long)n,
                 (void *)(m->p + off), got[d]);
    }
    aclrtMemManagedLocation loc = {ACL_MEM_LOCATIONTYPE_DEVICE, m->dev};
    uint64_t size = one_in(6) ? MIB2 + 1 : MIB2;
    callf("aclrtMemManagedAdvise(%p, %llu, SET_PREFERRED_LOCATION, device %d)", (void *)m->p, (unsigned long long)size,
          m->dev);
    rc = ret(aclrtMemManagedAdvise(m->p, size, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, loc));
    if (size != MIB2) {
        must_fail(rc, "advice on a size off 2 MiB");
        return;
    }
    must_pass(rc, 0);
    int32_t v = 99;
    callf("aclrtMemManagedGetAttr(PREFERRED_LOCATION, %p, 2 MiB)", (void *)m->p);
    rc = ret(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m->p, MIB2, &v, sizeof v));
    must_pass(rc, 0);
    if (rc == 0 && v != m->dev) {
        finding("WRONG VALUE", "aclrtMemManagedGetAttr", "PREFERRED_LOCATION %d, advised device %d", v, m->dev);
    }
    if (cur_dev() == m->dev && !one_in(3)) {
        callf("aclrtMemManagedPrefetchAsync(%p, 2 MiB, device %d, 0, NULL)", (void *)m->p, m->dev);
        must_pass(ret(aclrtMemManagedPrefetchAsync(m->p, MIB2, loc, 0, NULL)), allow_for_ctx(fz.cur_ctx));
    }
}

static void op_managed_free(void)
{
    int i = pick_managed();
    if (i < 0) {
        return;
    }
    int inside = one_in(5);
    char *p = mgd[i].p + (inside ? 4096 : 0);
    callf("aclrtFree(managed %p)", (void *)p);
    aclError rc = ret(aclrtFree(p));
    if (inside) {
        must_fail(rc, "aclrtFree inside managed memory");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        mgd[i].live = 0;
        fz.dev_bytes[mgd[i].dev] -= mgd[i].size < fz.dev_bytes[mgd[i].dev] ? mgd[i].size : fz.dev_bytes[mgd[i].dev];
        callf("aclrtFree(managed %p) again", (void *)p);
        must_fail(ret(aclrtFree(p)), "aclrtFree of freed managed memory");
    }
}

const struct op ops_managed[] = {
    {"managed_alloc", 2, op_managed_alloc},
    {"managed_use", 3, op_managed_use},
    {"managed_free", 2, op_managed_free},
    {NULL, 0, NULL},
};
