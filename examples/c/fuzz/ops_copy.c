/*
 * Copies of every direction, synchronous and asynchronous, 1-D and 2-D,
 * and memsets, with sizes and pointers valid and not. Pageable host memory
 * is the program's own (malloc), never passed short of the count.
 */
#include "fuzz.h"

static int on_dev(const parg *p, int d) { return p->kind != M_DEV || p->dev == d; }

/* One end of a copy: device memory or host memory (page-locked or not). */
/* queued_copy notes a copy queued on stream s of device d: both ends are in
 * use until it has run (freeing one faults the copy), and a capture
 * records them for its model. */
static void queued_copy(int s, const parg *dst, const parg *src, int d)
{
    alloc_touch(dst->a, d);
    alloc_touch(src->a, d);
    cap_note_task(s, dst->a);
    cap_note_task(s, src->a);
}

static parg copy_end(int dev, uint64_t count)
{
    return pick_ptr(dev ? 1 << M_DEV : (1 << M_PINNED | 1 << M_PAGEABLE), count);
}

/* p cannot take count bytes: freed, or too little room (page-locked and
 * device memory; the program never passes pageable memory that short). */
static int bad_range(const parg *p, uint64_t count)
{
    return p->p != NULL && p->kind != M_PAGEABLE && (p->a < 0 || count > p->room);
}

/* Why a copy of count bytes must fail, or NULL if it need not. skip is set
 * when the call would make the program itself write out of bounds. */
static const char *copy_fault(const parg *dst, uint64_t destMax, const parg *src, uint64_t count, int *skip)
{
    *skip = 0;
    if (count == 0) {
        return NULL; /* CANN returns at once, before looking at the pointers */
    }
    if ((dst->kind == M_PAGEABLE && dst->p && count > dst->room) || (src->kind == M_PAGEABLE && src->p && count > src->room)) {
        *skip = 1;
        return NULL;
    }
    if (dst->p == NULL || src->p == NULL) {
        return dst->p == NULL ? "a NULL dst" : "a NULL src";
    }
    if (count > destMax) {
        return "count larger than destMax";
    }
    const parg *b = bad_range(dst, count) ? dst : bad_range(src, count) ? src : NULL;
    if (b != NULL) {
        return b->a < 0 ? "freed device memory" : "a range past the end of its allocation";
    }
    return NULL;
}

static void op_memcpy(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    int dk = (int)below(4), async = one_in(2);
    uint64_t c0 = one_in(8) ? size_any() : 1 + below(4096);
    parg dst = copy_end(dk == 1 || dk == 3, c0), src = copy_end(dk == 2 || dk == 3, c0);
    uint64_t count = one_in(10) ? size_any() : c0;
    uint64_t destMax = one_in(8) ? (one_in(2) ? count - 1 : UINT64_MAX) : dst.room;
    if (destMax < count && !one_in(4)) {
        destMax = count;
    }
    int kind = one_in(3) ? ACL_MEMCPY_DEFAULT : one_in(8) ? (int)below(8) : dk;
    int skip;
    const char *why = copy_fault(&dst, destMax, &src, count, &skip);
    if (skip) {
        return;
    }
    harg s = {NULL, -1, VALID, "NULL(default)"};
    enum validity sv = VALID;
    aclError rc;
    if (async) {
        s = pick_stream();
        sv = queue_on(&s);
        callf("aclrtMemcpyAsync(%s %p, %s, %s %p, %s, %d, %s)", dst.what, (void *)dst.p, size_name(destMax), src.what,
              (void *)src.p, size_name(count), kind, hdesc(&s));
        rc = ret(aclrtMemcpyAsync(dst.p, destMax, src.p, count, (aclrtMemcpyKind)kind, s.h));
    } else {
        callf("aclrtMemcpy(%s %p, %s, %s %p, %s, %d)", dst.what, (void *)dst.p, size_name(destMax), src.what,
              (void *)src.p, size_name(count), kind);
        rc = ret(aclrtMemcpy(dst.p, destMax, src.p, count, (aclrtMemcpyKind)kind));
    }
    /* A count of 0 returns at once, before the stream is looked at, too. */
    if (why != NULL || (sv == INVALID && count != 0)) {
        must_fail(rc, why ? why : s.v == VALID ? "a stream of another context" : "an invalid stream handle");
        return;
    }
    int d = async ? stream_dev(&s) : cur_dev();
    /* The kind must match the pointers, or be DEFAULT (the reference calls
     * it reserved for aclrtMemcpy, but CANN hands it to the driver). No
     * asynchronous H2H. */
    int kind_ok = kind == ACL_MEMCPY_DEFAULT || kind == dk;
    if (d >= 0 && sv == VALID && on_dev(&dst, d) && on_dev(&src, d) && kind_ok && !(async && dk == 0) && count > 0) {
        must_pass(rc, async ? allow_for_stream(s.idx) : allow_for_ctx(fz.cur_ctx));
    } else if (d >= 0 && sv == VALID && dk == 3 && kind_ok && count > 0 && dst.v == VALID && src.v == VALID && dst.a >= 0 &&
               src.a >= 0 && dst.dev != src.dev && (dst.dev == d || src.dev == d)) {
        /* Between two devices: peer access in the copy's direction. */
        if (peer_on(src.dev, dst.dev)) {
            must_pass(rc, async ? allow_for_stream(s.idx) : allow_for_ctx(fz.cur_ctx));
        } else {
            must_fail(rc, "a copy between devices without peer access from the source's to the destination's");
        }
    }
    if (rc == 0 && async) {
        queued_copy(s.idx, &dst, &src, d);
    }
}

static void op_memset(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    int async = one_in(2);
    uint64_t c0 = one_in(8) ? size_any() : 1 + below(4096);
    parg dst = pick_ptr(one_in(10) ? 1 << M_PINNED : 1 << M_DEV, c0);
    uint64_t count = one_in(10) ? size_any() : c0;
    uint64_t maxCount = one_in(8) ? (one_in(2) ? count - 1 : UINT64_MAX) : dst.room;
    if (maxCount < count && !one_in(4)) {
        maxCount = count;
    }
    int32_t value = one_in(4) ? int_any() : (int32_t)below(256);
    harg s = {NULL, -1, VALID, "NULL(default)"};
    enum validity sv = VALID;
    aclError rc;
    if (async) {
        s = pick_stream();
        sv = queue_on(&s);
        callf("aclrtMemsetAsync(%s %p, %s, %d, %s, %s)", dst.what, (void *)dst.p, size_name(maxCount), value,
              size_name(count), hdesc(&s));
        rc = ret(aclrtMemsetAsync(dst.p, maxCount, value, count, s.h));
    } else {
        callf("aclrtMemset(%s %p, %s, %d, %s)", dst.what, (void *)dst.p, size_name(maxCount), value, size_name(count));
        rc = ret(aclrtMemset(dst.p, maxCount, value, count));
    }
    const char *why = count == 0 ? NULL : dst.p == NULL ? "a NULL devPtr" : count > maxCount ? "count larger than maxCount"
                      : count > 0 && bad_range(&dst, count) ? (dst.a < 0 ? "freed device memory" : "a range past the end of its allocation")
                      : sv == INVALID ? "an invalid stream" : NULL;
    if (why != NULL && !async && dst.kind != M_DEV && count <= maxCount && dst.p != NULL && sv == VALID) {
        /* A synchronous memset sets any host memory, as CANN's driver
         * does: freed page-locked memory is host memory like any other. */
        return;
    }
    if (why != NULL) {
        must_fail(rc, why);
        return;
    }
    int d = async ? stream_dev(&s) : cur_dev();
    if (d >= 0 && sv == VALID && dst.kind == M_DEV && dst.dev == d && count > 0) {
        must_pass(rc, async ? allow_for_stream(s.idx) : allow_for_ctx(fz.cur_ctx));
    }
    if (rc == 0 && async) {
        alloc_touch(dst.a, d);
        cap_note_task(s.idx, dst.a);
    }
}

static void op_memcpy2d(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    int dk = one_in(4) ? (int)below(4) : 1 + (int)below(2), async = one_in(2);
    uint64_t width = 1 + below(256), height = 1 + below(16);
    uint64_t dpitch = width + below(64), spitch = width + below(64);
    parg dst = copy_end(dk == 1 || dk == 3, (height - 1) * dpitch + width);
    parg src = copy_end(dk == 2 || dk == 3, (height - 1) * spitch + width);
    const char *why = NULL;
    switch (below(12)) {
    case 0:
        width = dpitch + 1 + below(8);
        why = "width larger than dpitch";
        break;
    case 1:
        height = 5242881 + below(1000);
        why = "height above 5242880";
        break;
    case 2:
        if (fz.avoid & AV_PITCH_OVERFLOW) {
            break;
        }
        dpitch = UINT64_MAX / 2 + below(1000);
        height = 3;
        why = "rows past the end of dst (pitch overflow)";
        break;
    }
    uint64_t dneed = height ? (height - 1) * dpitch + width : 0, sneed = height ? (height - 1) * spitch + width : 0;
    if (dpitch > UINT64_MAX / 4) {
        dneed = UINT64_MAX;
    }
    if ((dst.kind == M_PAGEABLE && dst.p && (dneed > dst.room || width > dpitch)) ||
        (src.kind == M_PAGEABLE && src.p && (sneed > src.room || width > spitch))) {
        return; /* would write outside the program's own buffers */
    }
    if (why == NULL) {
        why = dst.p == NULL ? "a NULL dst" : src.p == NULL ? "a NULL src"
              : bad_range(&dst, dneed) ? "rows past the end of dst"
              : bad_range(&src, sneed) ? "rows past the end of src" : NULL;
    }
    int kind = one_in(4) ? ACL_MEMCPY_DEFAULT : dk;
    harg s = {NULL, -1, VALID, "NULL(default)"};
    enum validity sv = VALID;
    aclError rc;
    if (async) {
        s = pick_stream();
        sv = queue_on(&s);
        callf("aclrtMemcpy2dAsync(%s %p, %llu, %s %p, %llu, %llu, %llu, %d, %s)", dst.what, (void *)dst.p,
              (unsigned long long)dpitch, src.what, (void *)src.p, (unsigned long long)spitch, (unsigned long long)width,
              (unsigned long long)height, kind, hdesc(&s));
        rc = ret(aclrtMemcpy2dAsync(dst.p, dpitch, src.p, spitch, width, height, (aclrtMemcpyKind)kind, s.h));
    } else {
        callf("aclrtMemcpy2d(%s %p, %llu, %s %p, %llu, %llu, %llu, %d)", dst.what, (void *)dst.p,
              (unsigned long long)dpitch, src.what, (void *)src.p, (unsigned long long)spitch, (unsigned long long)width,
              (unsigned long long)height, kind);
        rc = ret(aclrtMemcpy2d(dst.p, dpitch, src.p, spitch, width, height, (aclrtMemcpyKind)kind));
    }
    if (why != NULL || sv == INVALID) {
        must_fail(rc, why ? why : "an invalid stream");
        return;
    }
    int d = async ? stream_dev(&s) : cur_dev();
    if (d >= 0 && sv == VALID && (dk == 1 || dk == 2) && on_dev(&dst, d) && on_dev(&src, d) && kind == dk) {
        must_pass(rc, async ? allow_for_stream(s.idx) : allow_for_ctx(fz.cur_ctx));
    }
    if (rc == 0 && async) {
        queued_copy(s.idx, &dst, &src, d);
    }
}

const struct op ops_copy[] = {
    {"memcpy", 24, op_memcpy},
    {"memset", 12, op_memset},
    {"memcpy2d", 8, op_memcpy2d},
    {NULL, 0, NULL},
};
