/*
 * Data checks: bytes written into device memory through one path and read
 * back through another must be the bytes expected. Each check runs in a
 * clean state (no capture, no fault, nothing queued that may still write
 * the memory) on an allocation no queued or captured task touches, so any
 * difference is the runtime's.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>


static int clean_alloc(int dev, uint64_t min)
{
    int n = 0, pick = -1;
    for (int a = 0; a < MAXALLOC; a++) {
        alloc *m = &fz.allocs[a];
        if (m->live && !m->reserved && m->kind == M_DEV && m->dev == dev && !m->dirty && !m->model_refs && m->extent >= min &&
            below((uint64_t)++n) == 0) {
            pick = a;
        }
    }
    return pick;
}

static int fresh_alloc(uint64_t size)
{
    void *p = NULL;
    unsigned policy = (unsigned)below(3);
    callf("aclrtMalloc(&p, %llu, %u) [data check]", (unsigned long long)size, policy);
    aclError rc = ret(aclrtMalloc(&p, size, (aclrtMemMallocPolicy)policy));
    must_pass(rc, 0);
    if (rc != 0) {
        return -1;
    }
    int a = alloc_new(M_DEV, p, size, cur_dev());
    if (a < 0) {
        callf("aclrtFree(%p)", p);
        ret(aclrtFree(p));
        return -1;
    }
    fz.allocs[a].rounded = size >= (1 << 20) ? (size + (2 << 20) - 1) & ~(uint64_t)((2 << 20) - 1) : (size + 4095) & ~4095ULL;
    fz.dev_bytes[cur_dev()] += fz.allocs[a].rounded;
    return a;
}

/* A clean explicit stream of the current context, or the default one. */
static harg clean_stream_here(void)
{
    harg s = {NULL, -1, VALID, "NULL(default)"};
    for (int tries = 0; tries < 6; tries++) {
        int i = obj_pick(K_STREAM);
        if (i >= 0 && fz.objs[i].ctx == fz.cur_ctx && stream_clean(i)) {
            s.h = fz.objs[i].h;
            s.idx = i;
            s.what = "live";
            break;
        }
    }
    return s;
}

static int ok(aclError rc)
{
    must_pass(rc, 0);
    return rc == 0;
}

static int compare(const uint8_t *got, const uint8_t *want, uint64_t n, const char *how, const void *dev)
{
    int i = first_diff(got, want, n);
    if (i >= 0) {
        mismatch("%s: %llu bytes at device %p: byte %d is %#x, expected %#x", how, (unsigned long long)n, dev, i, got[i],
                 want[i]);
        return 0;
    }
    return 1;
}

/* Writes src through an asynchronous chain on a clean stream, then reads
 * it back. */
static void async_chain(char *dp, uint64_t room, uint64_t n, uint8_t *want)
{
    harg s = clean_stream_here();
    if (s.idx >= 0 && use_ctx_of_stream(s.idx) != 0) {
        return;
    }
    void *h = NULL, *g = NULL;
    callf("aclrtMallocHost(&h, %llu) [data check]", (unsigned long long)n);
    if (!ok(ret(aclrtMallocHost(&h, n)))) {
        return;
    }
    int pageable = one_in(3);
    uint8_t *pg = NULL;
    if (pageable) {
        pg = malloc(n);
        g = pg;
    } else {
        callf("aclrtMallocHost(&g, %llu) [data check]", (unsigned long long)n);
        if (!ok(ret(aclrtMallocHost(&g, n)))) {
            g = NULL;
        }
    }
    if (g == NULL) {
        goto out;
    }
    memcpy(h, want, n);
    memset(g, 0xee, n);
    callf("aclrtMemcpyAsync(%p, %llu, pinned, %llu, H2D, %s)", (void *)dp, (unsigned long long)room,
          (unsigned long long)n, hdesc(&s));
    if (!ok(ret(aclrtMemcpyAsync(dp, room, h, n, ACL_MEMCPY_HOST_TO_DEVICE, s.h)))) {
        goto out;
    }
    if (one_in(2)) {
        uint64_t off = below(n), k = 1 + below(n - off);
        int v = (int)below(256);
        callf("aclrtMemsetAsync(%p, %llu, %d, %llu, %s)", (void *)(dp + off), (unsigned long long)(room - off), v,
              (unsigned long long)k, hdesc(&s));
        if (!ok(ret(aclrtMemsetAsync(dp + off, room - off, v, k, s.h)))) {
            goto out;
        }
        memset(want + off, v, k);
    }
    if (one_in(2)) {
        uint64_t off = below(n), k = 1 + below(n - off);
        uint8_t pat = (uint8_t)rnd();
        aclError rc;
        if (kernel_fill(s.idx, s.h, dp + off, k, pat, &rc) == 0) {
            if (!ok(rc)) {
                goto out;
            }
            for (uint64_t i = 0; i < k; i++) {
                want[off + i] = (uint8_t)(pat + i);
            }
        }
    }
    callf("aclrtMemcpyAsync(%s, %llu, %p, %llu, D2H, %s)", pageable ? "pageable" : "pinned", (unsigned long long)n,
          (void *)dp, (unsigned long long)n, hdesc(&s));
    if (!ok(ret(aclrtMemcpyAsync(g, n, dp, n, one_in(2) ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_HOST, s.h)))) {
        goto out;
    }
    callf("aclrtSynchronizeStream(%s)", hdesc(&s));
    if (ok(ret(aclrtSynchronizeStream(s.h)))) {
        compare(g, want, n, "asynchronous copies, memset and kernel on one stream", dp);
    }
out:
    if (g != NULL && !pageable) {
        callf("aclrtFreeHost(%p)", g);
        ok(ret(aclrtFreeHost(g)));
    }
    free(pg);
    callf("aclrtFreeHost(%p)", h);
    ok(ret(aclrtFreeHost(h)));
}

void data_check(void)
{
    if (ensure_device() != 0 || fz.objs[fz.cur_ctx].tainted) {
        return;
    }
    for (int c = 0; c < MAXCAP; c++) {
        if (fz.caps[c].active || fz.untracked_capture) {
            return;
        }
    }
    int d = cur_dev();
    if (fz.dev_unsafe[d]) {
        callf("aclrtSynchronizeDevice() [before a data check]");
        aclError rc = ret(aclrtSynchronizeDevice());
        if (rc != 0) {
            return;
        }
        allocs_synced(d);
    }
    int a = one_in(4) ? -1 : clean_alloc(d, 1);
    if (a < 0) {
        a = fresh_alloc(1 + below(one_in(8) ? 1 << 20 : 65536));
        if (a < 0) {
            return;
        }
    }
    alloc *m = &fz.allocs[a];
    uint64_t n = 1 + below(m->extent < 65536 ? m->extent : 65536), off = below(m->extent - n + 1);
    char *dp = m->p + off;
    uint64_t room = m->extent - off;
    uint8_t *src = malloc(n), *got = malloc(n), *want = malloc(n);
    if (!src || !got || !want) {
        goto out;
    }
    pattern(src, n, rnd());
    memcpy(want, src, n);
    memset(got, 0xee, n);
    int kind = one_in(3) ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_HOST_TO_DEVICE;
    switch (below(5)) {
    case 0: /* host to device to host */
        callf("aclrtMemcpy(%p, %llu, host, %llu, %d) [data check]", (void *)dp, (unsigned long long)room,
              (unsigned long long)n, kind);
        if (ok(ret(aclrtMemcpy(dp, room, src, n, (aclrtMemcpyKind)kind)))) {
            callf("aclrtMemcpy(host, %llu, %p, %llu, D2H)", (unsigned long long)n, (void *)dp, (unsigned long long)n);
            if (ok(ret(aclrtMemcpy(got, n, dp, n, ACL_MEMCPY_DEVICE_TO_HOST)))) {
                compare(got, want, n, "aclrtMemcpy there and back", dp);
            }
        }
        break;
    case 1: { /* memset, a copy over part of it, read back */
        int v = (int)below(256);
        uint64_t o2 = below(n), k = below(n - o2 + 1);
        callf("aclrtMemset(%p, %llu, %d, %llu) [data check]", (void *)dp, (unsigned long long)room, v, (unsigned long long)n);
        if (!ok(ret(aclrtMemset(dp, room, v, n)))) {
            break;
        }
        memset(want, v, n);
        if (k > 0) {
            callf("aclrtMemcpy(%p, %llu, host, %llu, H2D)", (void *)(dp + o2), (unsigned long long)(room - o2),
                  (unsigned long long)k);
            if (!ok(ret(aclrtMemcpy(dp + o2, room - o2, src, k, ACL_MEMCPY_HOST_TO_DEVICE)))) {
                break;
            }
            memcpy(want + o2, src, k);
        }
        callf("aclrtMemcpy(host, %llu, %p, %llu, DEFAULT)", (unsigned long long)n, (void *)dp, (unsigned long long)n);
        if (ok(ret(aclrtMemcpy(got, n, dp, n, ACL_MEMCPY_DEFAULT)))) {
            compare(got, want, n, "aclrtMemset then aclrtMemcpy", dp);
        }
        break;
    }
    case 2: { /* device to device, into another clean allocation */
        int b = clean_alloc(d, n);
        if (b < 0 || b == a) {
            break;
        }
        alloc *mb = &fz.allocs[b];
        uint64_t ob = below(mb->extent - n + 1);
        char *bp = mb->p + ob;
        callf("aclrtMemcpy(%p, %llu, host, %llu, H2D) [data check]", (void *)dp, (unsigned long long)room,
              (unsigned long long)n);
        if (!ok(ret(aclrtMemcpy(dp, room, src, n, ACL_MEMCPY_HOST_TO_DEVICE)))) {
            break;
        }
        callf("aclrtMemcpy(%p, %llu, %p, %llu, D2D)", (void *)bp, (unsigned long long)(mb->extent - ob), (void *)dp,
              (unsigned long long)n);
        if (!ok(ret(aclrtMemcpy(bp, mb->extent - ob, dp, n, one_in(2) ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_DEVICE)))) {
            break;
        }
        callf("aclrtMemcpy(host, %llu, %p, %llu, D2H)", (unsigned long long)n, (void *)bp, (unsigned long long)n);
        if (ok(ret(aclrtMemcpy(got, n, bp, n, ACL_MEMCPY_DEVICE_TO_HOST)))) {
            compare(got, want, n, "host to device, device to device, device to host", bp);
        }
        break;
    }
    case 3:
        async_chain(dp, room, n, want);
        break;
    default: { /* 2-D: rows of width bytes, pitch apart, over a zeroed range */
        uint64_t width = 1 + below(n < 64 ? n : 64), pitch = width + below(16);
        uint64_t height = pitch ? 1 + below((n - width) / pitch + 1) : 1;
        if (height > 64) {
            height = 64;
        }
        uint64_t span = (height - 1) * pitch + width;
        callf("aclrtMemset(%p, %llu, 0, %llu) [data check]", (void *)dp, (unsigned long long)room, (unsigned long long)span);
        if (!ok(ret(aclrtMemset(dp, room, 0, span)))) {
            break;
        }
        memset(want, 0, span);
        for (uint64_t r = 0; r < height; r++) {
            memcpy(want + r * pitch, src + r * width, width);
        }
        int async = one_in(2);
        harg s = clean_stream_here();
        if (async && s.idx >= 0 && use_ctx_of_stream(s.idx) != 0) {
            break;
        }
        callf("aclrtMemcpy2d%s(%p, %llu, host, %llu, %llu, %llu, H2D%s%s)", async ? "Async" : "", (void *)dp,
              (unsigned long long)pitch, (unsigned long long)width, (unsigned long long)width, (unsigned long long)height,
              async ? ", " : "", async ? hdesc(&s) : "");
        aclError rc = async ? aclrtMemcpy2dAsync(dp, pitch, src, width, width, height, ACL_MEMCPY_HOST_TO_DEVICE, s.h)
                            : aclrtMemcpy2d(dp, pitch, src, width, width, height, ACL_MEMCPY_HOST_TO_DEVICE);
        if (!ok(ret(rc))) {
            break;
        }
        if (async) {
            callf("aclrtSynchronizeStream(%s)", hdesc(&s));
            if (!ok(ret(aclrtSynchronizeStream(s.h)))) {
                break;
            }
        }
        callf("aclrtMemcpy(host, %llu, %p, %llu, D2H)", (unsigned long long)span, (void *)dp, (unsigned long long)span);
        if (ok(ret(aclrtMemcpy(got, span, dp, span, ACL_MEMCPY_DEVICE_TO_HOST)))) {
            compare(got, want, span, "aclrtMemcpy2d rows", dp);
        }
    }
    }
out:
    free(src);
    free(got);
    free(want);
}
