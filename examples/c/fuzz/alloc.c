/*
 * The model of memory: live allocations (device, page-locked, pageable)
 * with their usable size and whether queued or captured tasks may still
 * use them, and the freed pointers, with whether their device was closed.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int alloc_new(enum mkind kind, void *p, uint64_t size, int dev)
{
    /* A new block must not share a byte with a live one. */
    for (int a = 0; a < MAXALLOC && kind != M_PAGEABLE; a++) {
        alloc *m = &fz.allocs[a];
        if (m->live && m->kind != M_PAGEABLE && (char *)p < m->p + m->size && m->p < (char *)p + size) {
            finding("OVERLAP", kind == M_DEV ? "aclrtMalloc" : "aclrtMallocHost",
                    "the new block [%p, +%llu) overlaps the live block [%p, +%llu)", p, (unsigned long long)size,
                    (void *)m->p, (unsigned long long)m->size);
        }
    }
    for (int a = 0; a < MAXALLOC; a++) {
        alloc *m = &fz.allocs[a];
        if (!m->live) {
            memset(m, 0, sizeof *m);
            m->live = 1;
            m->kind = kind;
            m->p = p;
            m->size = m->extent = size;
            m->dev = dev;
            m->ctx = fz.cur_ctx;
            m->serial = ++fz.serial;
            return a;
        }
    }
    return -1;
}

void alloc_free(int a)
{
    alloc *m = &fz.allocs[a];
    if (m->model_refs > 0) {
        for (int i = 0; i < MAXOBJ; i++) {
            obj *o = &fz.objs[i];
            if (!o->live || o->kind != K_MODEL) {
                continue;
            }
            for (int t = 0; t < o->ntouched; t++) {
                o->dangling |= o->touched[t] == m->serial;
            }
            o->dangling |= o->wide;
        }
    }
    if (m->kind == M_PAGEABLE) {
        free(m->p);
        m->live = 0;
        return;
    }
    for (int d = 0; d < MAXDEV; d++) {
        if (m->dirty >> d & 1) {
            /* A task queued on it may still run: on free memory it faults. */
            fz.dev_unsafe[d] = 1;
            for (int i = 0; i < MAXOBJ; i++) {
                if (fz.objs[i].live && fz.objs[i].kind == K_CTX && fz.objs[i].dev == d) {
                    fz.objs[i].tainted = 1;
                }
            }
        }
    }
    if (m->kind == M_DEV && m->dev >= 0) {
        fz.dev_bytes[m->dev] -= m->rounded < fz.dev_bytes[m->dev] ? m->rounded : fz.dev_bytes[m->dev];
    }
    freed_ptr *f = &fz.freed[fz.nfreed++ % NFREED];
    f->p = m->p;
    f->size = m->extent;
    f->kind = m->kind;
    f->dev = m->dev;
    f->closed = 0;
    m->live = 0;
}

int alloc_pick(int kindmask)
{
    int n = 0, pick = -1;
    for (int a = 0; a < MAXALLOC; a++) {
        if (fz.allocs[a].live && !fz.allocs[a].reserved && (kindmask >> fz.allocs[a].kind & 1) &&
            below((uint64_t)++n) == 0) {
            pick = a;
        }
    }
    return pick;
}

int alloc_of(const void *p)
{
    for (int a = 0; a < MAXALLOC; a++) {
        alloc *m = &fz.allocs[a];
        if (m->live && (const char *)p >= m->p && (const char *)p < m->p + m->extent) {
            return a;
        }
    }
    return -1;
}

int overlaps_live(const void *p, uint64_t n)
{
    const char *lo = p, *hi = lo + n;
    for (int a = 0; a < MAXALLOC; a++) {
        alloc *m = &fz.allocs[a];
        /* Rounding: an allocation may own a little past its extent. */
        if (m->live && lo < m->p + m->extent + 4096 && hi + 4096 > m->p) {
            return 1;
        }
    }
    return 0;
}

int freed_pick(int kindmask, int closed_ok)
{
    unsigned n = fz.nfreed < NFREED ? fz.nfreed : NFREED;
    for (int tries = 0; tries < 4 && n > 0; tries++) {
        int f = (int)below(n);
        freed_ptr *fp = &fz.freed[f];
        if ((kindmask >> fp->kind & 1) && (closed_ok || !fp->closed) && fp->p != NULL) {
            return f;
        }
    }
    return -1;
}

void allocs_synced(int dev)
{
    for (int a = 0; a < MAXALLOC; a++) {
        alloc *m = &fz.allocs[a];
        if (m->live && m->model_refs == 0) {
            m->dirty &= ~(1u << dev);
        }
    }
    fz.dev_unsafe[dev] = 0;
}

void alloc_touch(int a, int dev)
{
    if (a >= 0 && dev >= 0) {
        fz.allocs[a].dirty |= 1u << dev;
    }
}
