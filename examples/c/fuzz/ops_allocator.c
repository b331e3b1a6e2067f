/*
 * Custom allocator descriptors (acl_rt_allocator.h) and the device symbols
 * of the fuzz binary (its global fz_global). Descriptors and the streams'
 * registrations are modelled here; the runtime's finalization ends both
 * (fz.rt_epoch).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define NDESC 4

typedef struct desc {
    int used;
    aclrtAllocatorDesc h;
    uint64_t rt_epoch;
    void *obj, *fn[4];    /* alloc, free, advise, getAddr */
} desc;

/* A registration: what a stream (by object and serial) holds. */
typedef struct reg {
    int live, stream;
    uint64_t serial;
    aclrtAllocatorDesc h;
    void *obj, *fn[4];
} reg;

static desc descs[NDESC];
static reg regs[16];

/* ---- device symbols ------------------------------------------------------ */

/* The fuzz binary's global fz_global (64 bytes): found, described, written
 * and read back at random offsets, synchronously; addresses that are no
 * symbol are refused. */
static void op_symbol(void)
{
    int b = obj_pick(K_BIN);
    if (b < 0 || ensure_device() != 0) {
        return;
    }
    void *g = NULL, *p = NULL;
    size_t size = 0;
    int bad = one_in(6);
    callf("aclrtBinaryGetGlobal(obj#%llu, \"%s\", &g, &size)", (unsigned long long)fz.objs[b].serial, bad ? "fz_fill" : "fz_global");
    aclError rc = ret(aclrtBinaryGetGlobal(fz.objs[b].h, bad ? "fz_fill" : "fz_global", &g, &size));
    if (bad) {
        must_fail(rc, "a kernel is no global");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    fz.checks++;
    if (size != 64) {
        finding("WRONG VALUE", "aclrtBinaryGetGlobal", "fz_global has size %zu, want 64", size);
    }
    callf("aclrtGetSymbolAddress(%p, &p)", g);
    rc = ret(aclrtGetSymbolAddress(g, &p));
    must_pass(rc, 0);
    if (rc == 0 && p != g) {
        finding("WRONG VALUE", "aclrtGetSymbolAddress", "symbol %p has address %p", g, p);
    }
    uint64_t off = below(72), count = below(72);
    uint8_t in[72], out[72];
    pattern(in, count, fz.call);
    callf("aclrtMemcpyToSymbol(%p, in, %llu, %llu, H2D)", g, (unsigned long long)count, (unsigned long long)off);
    rc = ret(aclrtMemcpyToSymbol(g, in, count, off, ACL_MEMCPY_HOST_TO_DEVICE));
    if (count == 0) {
        must_pass(rc, 0);
        return;
    }
    if (off + count > 64) {
        must_fail(rc, "offset + count past the global");
        return;
    }
    must_pass(rc, allow_for_ctx(fz.cur_ctx) & AL_CAPTURE);
    if (rc != 0) {
        return;
    }
    callf("aclrtMemcpyFromSymbol(out, %llu, %p, %llu, %llu, DEFAULT)", (unsigned long long)count, g,
          (unsigned long long)count, (unsigned long long)off);
    rc = ret(aclrtMemcpyFromSymbol(out, count, g, count, off, ACL_MEMCPY_DEFAULT));
    must_pass(rc, allow_for_ctx(fz.cur_ctx) & AL_CAPTURE);
    fz.checks++;
    if (rc == 0 && memcmp(in, out, count) != 0) {
        mismatch("fz_global: %llu bytes at %llu read back differ at %d", (unsigned long long)count, (unsigned long long)off,
                 first_diff(in, out, count));
    }
    parg q = pick_ptr(1 << M_DEV | 1 << M_PINNED | 1 << M_PAGEABLE, 1);
    if (q.p != NULL && q.p != (char *)g) {
        callf("aclrtGetSymbolSize(%s %p, &size)", q.what, (void *)q.p);
        must_fail(ret(aclrtGetSymbolSize(q.p, &size)), "memory that is no symbol");
    }
}

/* ---- allocator descriptors --------------------------------------------- */

static void *fake_fn(int k) { return (void *)(uintptr_t)(0x7f0000001000ULL + (uint64_t)k * 0x100); }

static int desc_alive(int i) { return descs[i].used && descs[i].rt_epoch == fz.rt_epoch; }

static void op_alloc_desc(void)
{
    int i = (int)below(NDESC);
    desc *d = &descs[i];
    if (!d->used || one_in(10)) {
        if (d->used && desc_alive(i) && one_in(2)) {
            callf("aclrtAllocatorDestroyDesc(desc%d)", i);
            must_pass(ret(aclrtAllocatorDestroyDesc(d->h)), 0);
            callf("aclrtAllocatorDestroyDesc(desc%d) again", i);
            must_fail(ret(aclrtAllocatorDestroyDesc(d->h)), "a destroyed descriptor");
            d->used = 0;
            return;
        }
        callf("aclrtAllocatorCreateDesc()");
        aclrtAllocatorDesc h = aclrtAllocatorCreateDesc();
        fz.checks++;
        if (h == NULL) {
            finding("UNEXPECTED FAILURE", "aclrtAllocatorCreateDesc", "NULL descriptor");
            return;
        }
        memset(d, 0, sizeof *d);
        d->used = 1;
        d->h = h;
        d->rt_epoch = fz.rt_epoch;
        return;
    }
    int which = (int)below(5), nullv = one_in(8);
    void *v = nullv ? NULL : which == 0 ? (void *)&descs[i] : fake_fn(which + (int)below(3) * 8);
    callf("aclrtAllocatorSet%sToDesc(desc%d, %p)", which == 0 ? "Obj" : which == 1 ? "AllocFunc" : which == 2 ? "FreeFunc"
                                                  : which == 3 ? "AllocAdviseFunc" : "GetAddrFromBlockFunc", i, v);
    aclError rc;
    switch (which) {
    case 0: rc = aclrtAllocatorSetObjToDesc(d->h, v); break;
    case 1: rc = aclrtAllocatorSetAllocFuncToDesc(d->h, (aclrtAllocatorAllocFunc)v); break;
    case 2: rc = aclrtAllocatorSetFreeFuncToDesc(d->h, (aclrtAllocatorFreeFunc)v); break;
    case 3: rc = aclrtAllocatorSetAllocAdviseFuncToDesc(d->h, (aclrtAllocatorAllocAdviseFunc)v); break;
    default: rc = aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d->h, (aclrtAllocatorGetAddrFromBlockFunc)v);
    }
    ret(rc);
    if (nullv || !desc_alive(i)) {
        must_fail(rc, nullv ? "a NULL value" : "a descriptor of before aclFinalize");
        if (!desc_alive(i)) {
            d->used = 0;
        }
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && which == 0) {
        d->obj = v;
    } else if (rc == 0) {
        d->fn[which - 1] = v;
    }
}

static reg *reg_of(int s)
{
    for (size_t r = 0; r < ARRAY_LEN(regs); r++) {
        if (regs[r].live && regs[r].stream == s && regs[r].serial == fz.objs[s].serial) {
            return &regs[r];
        }
    }
    return NULL;
}

static void op_alloc_register(void)
{
    int s = obj_pick(K_STREAM), i = (int)below(NDESC);
    if (s < 0 || !descs[i].used) {
        return;
    }
    desc *d = &descs[i];
    reg *g = reg_of(s);
    switch (below(3)) {
    case 0: {
        callf("aclrtAllocatorRegister(obj#%llu, desc%d)", (unsigned long long)fz.objs[s].serial, i);
        aclError rc = ret(aclrtAllocatorRegister(fz.objs[s].h, d->h));
        if (!desc_alive(i) || d->obj == NULL || d->fn[0] == NULL || d->fn[1] == NULL || d->fn[3] == NULL) {
            must_fail(rc, !desc_alive(i) ? "a stale descriptor" : "a descriptor missing its object or a callback");
            return;
        }
        must_pass(rc, 0);
        if (rc != 0) {
            return;
        }
        if (g == NULL) {
            for (size_t r = 0; r < ARRAY_LEN(regs) && g == NULL; r++) {
                if (!regs[r].live || !fz.objs[regs[r].stream].live || fz.objs[regs[r].stream].serial != regs[r].serial) {
                    g = &regs[r];
                }
            }
        }
        if (g == NULL) {
            return; /* table full: the registration is not followed */
        }
        *g = (reg){1, s, fz.objs[s].serial, d->h, d->obj, {d->fn[0], d->fn[1], d->fn[2], d->fn[3]}};
        return;
    }
    case 1: {
        aclrtAllocatorDesc h = NULL;
        void *obj = NULL, *fn[4] = {0};
        callf("aclrtAllocatorGetByStream(obj#%llu, ...)", (unsigned long long)fz.objs[s].serial);
        aclError rc = ret(aclrtAllocatorGetByStream(fz.objs[s].h, &h, &obj, (aclrtAllocatorAllocFunc *)&fn[0],
                                                    (aclrtAllocatorFreeFunc *)&fn[1], (aclrtAllocatorAllocAdviseFunc *)&fn[2],
                                                    (aclrtAllocatorGetAddrFromBlockFunc *)&fn[3]));
        if (g == NULL) {
            must_fail(rc, "a stream with no allocator registered");
            return;
        }
        must_pass(rc, 0);
        fz.checks++;
        if (rc == 0 && (h != g->h || obj != g->obj || memcmp(fn, g->fn, sizeof fn) != 0)) {
            finding("WRONG VALUE", "aclrtAllocatorGetByStream", "stream obj#%llu: desc %p obj %p, registered %p %p",
                    (unsigned long long)fz.objs[s].serial, h, obj, g->h, g->obj);
        }
        return;
    }
    default:
        callf("aclrtAllocatorUnregister(obj#%llu)", (unsigned long long)fz.objs[s].serial);
        must_pass(ret(aclrtAllocatorUnregister(fz.objs[s].h)), 0);
        if (g != NULL) {
            g->live = 0;
        }
    }
}

const struct op ops_allocator[] = {
    {"alloc_desc", 2, op_alloc_desc},
    {"alloc_register", 3, op_alloc_register},
    {"symbol", 3, op_symbol},
    {NULL, 0, NULL},
};
