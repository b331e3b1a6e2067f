/*
 * Batch copies (aclrtMemcpyBatch and its three other forms), 32-bit
 * memsets and queued cache operations, with pointers, sizes, attributes
 * and streams valid and not. The model: a batch is checked whole before
 * anything runs, so it fails if any copy is bad, and the failure index
 * names the first bad copy (SIZE_MAX for a size or attribute-array
 * problem); a valid batch on the current device passes.
 */
#include "fuzz.h"

#include <string.h>

#define MAXB 6

/* A copy end of a batch: device memory, or host memory of either kind. */
static parg batch_end(int dev, uint64_t count)
{
    return pick_ptr(dev ? 1 << M_DEV : (1 << M_PINNED | 1 << M_PAGEABLE), count);
}

/* bad_entry reports whether a copy of count bytes between dst and src
 * (direction dk: 1 host to device, 2 device to host, else invalid) fails
 * the per-copy checks on device d with an attribute for direction dk0 and
 * device id attrDev. */
static int bad_entry(const parg *dst, const parg *src, uint64_t count, int dk, int dk0, int d, int attrDev)
{
    if ((dk != 1 && dk != 2) || dk != dk0) {
        return 1;
    }
    const parg *dev = dk == 1 ? dst : src, *host = dk == 1 ? src : dst;
    if (host->p == NULL || dev->p == NULL || dev->a < 0 || count > dev->room || dev->dev != d || dev->dev != attrDev) {
        return 1;
    }
    return host->kind == M_PINNED && (host->a < 0 || count > host->room);
}

static void op_batch(void)
{
    if (ensure_device() != 0) {
        return; /* which device a batch without a context lands on is not modelled */
    }
    int n = 1 + (int)below(MAXB), async = one_in(2), v2 = one_in(3);
    int dk0 = 1 + (int)below(2);
    void *dsts[MAXB], *srcs[MAXB];
    size_t maxs[MAXB], sizes[MAXB];
    parg pd[MAXB], ps[MAXB];
    int dks[MAXB];
    const char *why = NULL; /* a problem of the whole batch: failIndex SIZE_MAX */
    for (int i = 0; i < n; i++) {
        dks[i] = one_in(10) ? (int)below(4) : dk0;
        uint64_t c = 1 + below(4096);
        pd[i] = batch_end(dks[i] == 1 || dks[i] == 3, c);
        ps[i] = batch_end(dks[i] == 2 || dks[i] == 3, c);
        if ((pd[i].kind == M_PAGEABLE && pd[i].p && c > pd[i].room) || (ps[i].kind == M_PAGEABLE && ps[i].p && c > ps[i].room)) {
            return; /* the program's own buffers are never passed short */
        }
        dsts[i] = pd[i].p;
        srcs[i] = ps[i].p;
        sizes[i] = c;
        maxs[i] = one_in(20) ? c - 1 : c;
        if (maxs[i] < c && why == NULL) {
            why = "sizes[i] above destMaxs[i]";
        }
    }
    int d = cur_dev();
    harg s = {NULL, -1, VALID, "NULL(default)"};
    enum validity sv = VALID;
    if (async) {
        s = pick_stream();
        sv = queue_on(&s);
        d = stream_dev(&s);
    }
    /* The attribute: both ends where copy 0 says, its device's id. */
    const parg *dev0 = dk0 == 1 ? &pd[0] : &ps[0];
    int attrDev = dev0->dev >= 0 ? dev0->dev : d;
    aclrtMemcpyBatchAttr attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].dstLoc.type = dk0 == 1 ? ACL_MEM_LOCATION_TYPE_DEVICE : (one_in(4) ? ACL_MEM_LOCATION_TYPE_HOST_NUMA : ACL_MEM_LOCATION_TYPE_HOST);
    attrs[0].srcLoc.type = dk0 == 2 ? ACL_MEM_LOCATION_TYPE_DEVICE : ACL_MEM_LOCATION_TYPE_HOST;
    (dk0 == 1 ? &attrs[0].dstLoc : &attrs[0].srcLoc)->id = (uint32_t)attrDev;
    size_t idx[2] = {0, 0}, numAttrs = 1;
    if (one_in(20) && why == NULL) {
        attrs[0].rsv[below(16)] = 1;
        why = "attrs[0].rsv not 0";
    }
    if (n > 1 && one_in(8) && why == NULL) {
        /* The second attribute names another device for its run. */
        attrs[1] = attrs[0];
        (dk0 == 1 ? &attrs[1].dstLoc : &attrs[1].srcLoc)->id = (uint32_t)attrDev + 1;
        idx[1] = 1 + below((uint64_t)n - 1);
        numAttrs = 2;
    }
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++) {
        int id = numAttrs == 2 && (size_t)i >= idx[1] ? attrDev + 1 : attrDev;
        if (bad_entry(&pd[i], &ps[i], sizes[i], dks[i], dk0, d, id)) {
            bad = i;
        }
    }
    size_t fail = 12345;
    aclError rc;
    if (async) {
        callf("aclrtMemcpyBatchAsync%s(%d copies, dir %d, %zu attrs, %s)", v2 ? "V2" : "", n, dk0, numAttrs, hdesc(&s));
        rc = ret(v2 ? aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, (size_t)n, attrs, idx, numAttrs, s.h)
                    : aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, (size_t)n, attrs, idx, numAttrs, &fail, s.h));
    } else {
        callf("aclrtMemcpyBatch%s(%d copies, dir %d, %zu attrs)", v2 ? "V2" : "", n, dk0, numAttrs);
        rc = ret(v2 ? aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, (size_t)n, attrs, idx, numAttrs)
                    : aclrtMemcpyBatch(dsts, maxs, srcs, sizes, (size_t)n, attrs, idx, numAttrs, &fail));
    }
    unsigned allow = async ? allow_for_stream(s.idx) : allow_for_ctx(fz.cur_ctx);
    if (why != NULL || bad >= 0 || sv == INVALID) {
        must_fail(rc, why ? why : bad >= 0 ? "a bad copy in the batch" : "an invalid stream");
        if (!v2 && rc != 0 && sv == VALID && fz.cur_ctx >= 0 && !(allow & (AL_CAPTURE | AL_ANY))) {
            size_t want = why != NULL ? SIZE_MAX : (size_t)bad;
            fz.checks++;
            if (fail != want) {
                finding("WRONG VALUE", "batch-failindex", "failIndex %zu after a refused batch, expected %zu", fail, want);
            }
        }
        return;
    }
    if (d >= 0 && sv == VALID && fz.cur_ctx >= 0) {
        must_pass(rc, allow);
        if (rc == 0 && !v2 && fail != SIZE_MAX) {
            finding("WRONG VALUE", "batch-failindex", "failIndex %zu after a successful batch, expected SIZE_MAX", fail);
        }
    }
    if (rc == 0 && async) {
        for (int i = 0; i < n; i++) {
            alloc_touch(pd[i].a, d);
            alloc_touch(ps[i].a, d);
            cap_note_task(s.idx, pd[i].a);
            cap_note_task(s.idx, ps[i].a);
        }
    }
}

static void op_memsetd32(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    int async = one_in(2);
    uint64_t words = one_in(8) ? size_any() / 4 : 1 + below(1024);
    parg dst = pick_ptr(one_in(10) ? 1 << M_PINNED : 1 << M_DEV, words * 4);
    if (dst.p != NULL && one_in(8)) {
        dst.p += 1 + below(3); /* unaligned */
        dst.room = dst.room > 3 ? dst.room - 3 : 0;
    }
    uint64_t memSize = one_in(8) ? words * 4 - 1 : dst.room;
    harg s = {NULL, -1, VALID, "NULL(default)"};
    enum validity sv = VALID;
    aclError rc;
    uint32_t value = (uint32_t)rnd();
    if (async) {
        s = pick_stream();
        sv = queue_on(&s);
        callf("aclrtMemsetD32Async(%s %p, %s, %#x, %s, %s)", dst.what, (void *)dst.p, size_name(memSize), value, size_name(words), hdesc(&s));
        rc = ret(aclrtMemsetD32Async(dst.p, memSize, value, words, s.h));
    } else {
        callf("aclrtMemsetD32(%s %p, %s, %#x, %s)", dst.what, (void *)dst.p, size_name(memSize), value, size_name(words));
        rc = ret(aclrtMemsetD32(dst.p, memSize, value, words));
    }
    const char *why = words == 0 ? NULL : dst.p == NULL ? "a NULL ptr" : (uintptr_t)dst.p % 4 ? "an unaligned ptr"
                      : words > UINT64_MAX / 4 || memSize < words * 4 ? "memSize below N * 4"
                      : dst.a < 0 || words * 4 > dst.room ? "a range past the end of its allocation"
                      : sv == INVALID ? "an invalid stream" : NULL;
    if (why != NULL) {
        must_fail(rc, why);
        return;
    }
    int d = async ? stream_dev(&s) : cur_dev();
    if (d >= 0 && sv == VALID && dst.kind == M_DEV && dst.dev == d && words > 0 && fz.cur_ctx >= 0) {
        must_pass(rc, async ? allow_for_stream(s.idx) : allow_for_ctx(fz.cur_ctx));
    }
    if (rc == 0 && async && dst.kind == M_DEV) {
        alloc_touch(dst.a, d);
        cap_note_task(s.idx, dst.a);
    }
}

static void op_cmo(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    uint64_t n = one_in(8) ? size_any() : 1 + below(8192);
    parg p = pick_ptr(one_in(10) ? 1 << M_PINNED : 1 << M_DEV, n);
    int type = one_in(4) ? (int)below(6) : ACL_RT_CMO_TYPE_PREFETCH;
    harg s = pick_stream();
    enum validity sv = queue_on(&s);
    callf("aclrtCmoAsync(%s %p, %s, %d, %s)", p.what, (void *)p.p, size_name(n), type, hdesc(&s));
    aclError rc = ret(aclrtCmoAsync(p.p, n, (aclrtCmoType)type, s.h));
    int d = stream_dev(&s);
    const char *why = p.p == NULL ? "a NULL src" : n == 0 ? "size 0" : sv == INVALID ? "an invalid stream"
                      : p.kind != M_DEV || p.a < 0 || n > p.room || p.dev != d ? "not device memory of the stream's device"
                      : type != ACL_RT_CMO_TYPE_PREFETCH ? "a type other than PREFETCH" : NULL;
    if (why != NULL) {
        must_fail(rc, why);
        return;
    }
    if (d >= 0 && fz.cur_ctx >= 0) {
        must_pass(rc, allow_for_stream(s.idx));
    }
}

static void op_desc_sizes(void)
{
    size_t n = 0;
    int kind = (int)below(10);
    callf("aclrtGetMemcpyDescSize(%d)", kind);
    aclError rc = ret(aclrtGetMemcpyDescSize((aclrtMemcpyKind)kind, &n));
    if (!fz.inited || kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
        must_fail(rc, !fz.inited ? "not initialized" : "a kind other than INNER_DEVICE_TO_DEVICE");
    } else {
        must_pass(rc, 0);
        fz.checks++;
        if (rc == 0 && n != 32) {
            finding("WRONG VALUE", "memcpy-desc-size", "aclrtGetMemcpyDescSize = %zu, expected 32", n);
        }
    }
    callf("aclrtCmoGetDescSize()");
    rc = ret(aclrtCmoGetDescSize(&n));
    if (!fz.inited) {
        must_fail(rc, "not initialized");
    } else {
        must_pass(rc, 0);
        fz.checks++;
        if (rc == 0 && n != 32) {
            finding("WRONG VALUE", "cmo-desc-size", "aclrtCmoGetDescSize = %zu, expected 32", n);
        }
    }
}

const struct op ops_batch[] = {
    {"memcpy_batch", 6, op_batch},
    {"memset_d32", 4, op_memsetd32},
    {"cmo_async", 3, op_cmo},
    {"desc_sizes", 1, op_desc_sizes},
    {NULL, 0, NULL},
};
