/*
 * Memory: every allocation call and policy, device and page-locked host,
 * frees (valid, twice, inside an allocation, of the other kind), the
 * program's own pageable buffers, pointer queries.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>


#define DEV_BUDGET (16ULL << 30) /* well inside a 64 GiB device */

static uint64_t rounded(uint64_t size, unsigned policy)
{
    uint64_t page = 4096;
    switch (policy & 0xff) {
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
        page = 2 << 20;
        break;
    case ACL_MEM_MALLOC_HUGE1G_ONLY:
    case ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
        page = 1 << 30;
        break;
    default:
        page = size >= (1 << 20) ? 2 << 20 : 4096;
    }
    return size > UINT64_MAX - page ? UINT64_MAX : (size + page - 1) / page * page;
}

/* Learns the usable size of a new device allocation. */
static void learn_extent(int a)
{
    alloc *m = &fz.allocs[a];
    void *base = NULL;
    size_t size = 0;
    callf("aclrtMemGetAddressRange(%p, &base, &size)", (void *)m->p);
    aclError rc = ret(aclrtMemGetAddressRange(m->p, &base, &size));
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    if (base != m->p || size < m->size) {
        finding("WRONG VALUE", "aclrtMemGetAddressRange: new allocation",
                "allocation %p of %llu bytes: base %p, size %zu", (void *)m->p, (unsigned long long)m->size, base, size);
        return;
    }
    m->extent = size;
}

static void op_malloc(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    int live = 0;
    for (int a = 0; a < MAXALLOC; a++) {
        live += fz.allocs[a].live;
    }
    if (live > MAXALLOC - 16) {
        return;
    }
    static const unsigned policies[] = {0, 1, 2, 3, 4, 5, 6, 7, 0x100, 0x1000, 0x100002, 0x1001};
    unsigned policy = one_in(10) ? (unsigned)rnd() : policies[below(ARRAY_LEN(policies))];
    if ((policy & 0xff) == 6 || (policy & 0xff) == 7) {
        policy = one_in(8) ? policy : 2; /* 1 GiB pages: rarely */
    }
    uint64_t size = one_in(10) ? size_any() : one_in(20) ? (1 << 20) + below(4 << 20) : 1 + below(65536);
    int null = one_in(20), v = (int)below(4);
    void *p = NULL;
    aclError rc;
    static const char *const fns[] = {"aclrtMalloc", "aclrtMallocAlign32", "aclrtMallocCached", "aclrtMallocWithCfg"};
    aclrtMallocAttribute attrs[2];
    aclrtMallocConfig cfg = {attrs, 0};
    int cfgkind = v == 3 ? (int)below(4) : 0; /* NULL cfg, empty, module id, NULL attrs */
    if (cfgkind == 2) {
        attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
        memset(&attrs[0].value, 0, sizeof attrs[0].value);
        attrs[0].value.moduleId = 7;
        cfg.numAttrs = 1;
    } else if (cfgkind == 3) {
        cfg.attrs = NULL;
        cfg.numAttrs = 1;
    }
    callf("%s(%s, %s, %#x%s)", fns[v], null ? "NULL" : "&p", size_name(size), policy,
          v == 3 ? (cfgkind == 0 ? ", NULL" : cfgkind == 3 ? ", {NULL, 1}" : ", cfg") : "");
    switch (v) {
    case 0:
        rc = aclrtMalloc(null ? NULL : &p, size, (aclrtMemMallocPolicy)policy);
        break;
    case 1:
        rc = aclrtMallocAlign32(null ? NULL : &p, size, (aclrtMemMallocPolicy)policy);
        break;
    case 2:
        rc = aclrtMallocCached(null ? NULL : &p, size, (aclrtMemMallocPolicy)policy);
        break;
    default:
        rc = aclrtMallocWithCfg(null ? NULL : &p, size, (aclrtMemMallocPolicy)policy, cfgkind ? &cfg : NULL);
    }
    ret(rc);
    int d = cur_dev();
    uint64_t r = rounded(size, policy);
    if (null || size == 0 || size >= (1ULL << 40) || cfgkind == 3) {
        must_fail(rc, null ? "a NULL devPtr" : size == 0 ? "size 0" : cfgkind == 3 ? "cfg->attrs NULL with numAttrs 1"
                                                                                    : "a size larger than the device");
        if (rc == 0 && p != NULL) {
            callf("aclrtFree(%p)", p);
            ret(aclrtFree(p));
        }
        return;
    }
    if (d >= 0 && fz.dev_bytes[d] + r <= DEV_BUDGET && size <= (8ULL << 30)) {
        must_pass(rc, allow_for_ctx(fz.cur_ctx) & AL_FAULT);
    }
    if (rc != 0) {
        return;
    }
    if (((uintptr_t)p & 63) != 0) {
        finding("WRONG VALUE", "aclrtMalloc: alignment", "%p is not 64-byte aligned", p);
    }
    int a = alloc_new(M_DEV, p, size, d);
    if (a < 0) {
        return;
    }
    fz.allocs[a].rounded = r;
    if (d >= 0) {
        fz.dev_bytes[d] += r;
    }
    learn_extent(a);
}

/* check_free checks what a free of p returned: NULL, freed memory, memory
 * of the other kind (wrong) and a pointer inside an allocation must fail,
 * the start of a live allocation must pass (allow: the failures it may
 * meet); the model forgets whatever the free released. */
static void check_free(const parg *p, aclError rc, enum mkind wrong, const char *null_what, const char *gone_what,
                       const char *wrong_what, unsigned allow)
{
    if (p->p == NULL || p->a < 0) {
        must_fail(rc, p->p == NULL ? null_what : gone_what);
        return;
    }
    alloc *m = &fz.allocs[p->a];
    if (m->kind == wrong) {
        must_fail(rc, wrong_what);
        return;
    }
    if (p->p != m->p) {
        must_fail(rc, "a pointer inside an allocation, not its start");
    } else {
        must_pass(rc, allow);
    }
    if (rc == 0) {
        alloc_free(p->a);
    }
}

static void op_free(void)
{
    parg p = pick_ptr(1 << M_DEV | 1 << M_PINNED | 1 << M_PAGEABLE, 0);
    if (p.kind == M_PAGEABLE && p.v == VALID) {
        return; /* the program's own malloc memory: passing it is fine, but skip */
    }
    callf("aclrtFree(%s %p)", p.what, (void *)p.p);
    aclError rc = ret(aclrtFree(p.p));
    check_free(&p, rc, M_PINNED, "a NULL devPtr", "freed device memory", "page-locked host memory",
               AL_FAULT & allow_for_ctx(fz.cur_ctx));
}

static void op_malloc_host(void)
{
    uint64_t size = one_in(10) ? size_any() : 1 + below(65536);
    int null = one_in(20);
    void *p = NULL;
    callf("aclrtMallocHost(%s, %s)", null ? "NULL" : "&p", size_name(size));
    aclError rc = ret(aclrtMallocHost(null ? NULL : &p, size));
    if (null || size == 0 || size >= (1ULL << 62)) {
        must_fail(rc, null ? "a NULL hostPtr" : size == 0 ? "size 0" : "a size no host has");
        if (rc == 0 && p != NULL) {
            callf("aclrtFreeHost(%p)", p);
            ret(aclrtFreeHost(p));
        }
        return;
    }
    if (fz.inited && size <= (64 << 20)) {
        must_pass(rc, 0);
    }
    if (rc == 0 && alloc_new(M_PINNED, p, size, -1) < 0) {
        callf("aclrtFreeHost(%p)", p);
        ret(aclrtFreeHost(p));
    }
}

static void op_free_host(void)
{
    parg p = pick_ptr(1 << M_DEV | 1 << M_PINNED, 0);
    int f = -1;
    if (one_in(4) && (f = freed_pick(1 << M_PINNED, 0)) >= 0 && !(fz.avoid & AV_FREEHOST_TWICE) &&
        !overlaps_live(fz.freed[f].p, 1)) {
        p.p = fz.freed[f].p;
        p.a = -1;
        p.what = "freed page-locked";
    }
    callf("aclrtFreeHost(%s %p)", p.what, (void *)p.p);
    aclError rc = ret(aclrtFreeHost(p.p));
    check_free(&p, rc, M_DEV, "a NULL hostPtr", "memory already freed", "device memory", 0);
}

static void op_pageable(void)
{
    int a = alloc_pick(1 << M_PAGEABLE);
    int n = 0;
    for (int i = 0; i < MAXALLOC; i++) {
        n += fz.allocs[i].live && fz.allocs[i].kind == M_PAGEABLE;
    }
    if (a >= 0 && (n > 16 || one_in(3))) {
        alloc_free(a);
        return;
    }
    uint64_t size = 1 + below(65536);
    void *p = malloc(size);
    if (p != NULL) {
        memset(p, 0x5a, size);
        if (alloc_new(M_PAGEABLE, p, size, -1) < 0) {
            free(p);
        }
    }
}

static void op_ptr_query(void)
{
    parg p = pick_ptr(1 << M_DEV | 1 << M_PINNED | 1 << M_PAGEABLE, 1);
    if (one_in(2)) {
        aclrtPtrAttributes at;
        memset(&at, 0xff, sizeof at);
        int null = one_in(10);
        callf("aclrtPointerGetAttributes(%s %p, %s)", p.what, (void *)p.p, null ? "NULL" : "&attr");
        aclError rc = ret(aclrtPointerGetAttributes(p.p, null ? NULL : &at));
        if (null) {
            must_fail(rc, "a NULL attributes");
            return;
        }
        if (p.a < 0 || p.v != VALID || !fz.inited) {
            return;
        }
        must_pass(rc, 0);
        if (rc == 0 && p.kind == M_DEV &&
            (at.location.type != ACL_MEM_LOCATION_TYPE_DEVICE || (int)at.location.id != p.dev)) {
            finding("WRONG VALUE", "aclrtPointerGetAttributes: device memory", "location type %d id %u, expected device %d",
                    at.location.type, at.location.id, p.dev);
        }
        if (rc == 0 && p.kind == M_PINNED && at.location.type != ACL_MEM_LOCATION_TYPE_HOST) {
            finding("WRONG VALUE", "aclrtPointerGetAttributes: page-locked memory", "location type %d, expected host",
                    at.location.type);
        }
        return;
    }
    void *base = NULL;
    size_t size = 0;
    callf("aclrtMemGetAddressRange(%s %p, &base, &size)", p.what, (void *)p.p);
    aclError rc = ret(aclrtMemGetAddressRange(p.p, &base, &size));
    if (p.p == NULL || (p.a < 0 && p.kind == M_DEV)) {
        must_fail(rc, p.p == NULL ? "a NULL ptr" : "freed device memory");
        return;
    }
    if (p.a >= 0 && fz.allocs[p.a].kind == M_DEV && p.v == VALID) {
        alloc *m = &fz.allocs[p.a];
        must_pass(rc, 0);
        if (rc == 0 && (base != m->p || size != m->extent)) {
            finding("WRONG VALUE", "aclrtMemGetAddressRange", "for %p: base %p size %zu, expected %p size %llu", (void *)p.p,
                    base, size, (void *)m->p, (unsigned long long)m->extent);
        }
    }
}

const struct op ops_mem[] = {
    {"malloc", 14, op_malloc},
    {"free", 10, op_free},
    {"malloc_host", 5, op_malloc_host},
    {"free_host", 4, op_free_host},
    {"pageable", 3, op_pageable},
    {"ptr_query", 4, op_ptr_query},
    {"data_check", 10, data_check},
    {NULL, 0, NULL},
};
