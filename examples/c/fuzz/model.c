/*
 * The model: every object the program created (with its owning context and
 * device), every allocation (with its size and whether something may still
 * write it), the handles and pointers it destroyed or freed, and what dies
 * with a context, a device, a model or the runtime.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>


/* ---- stale handles ---------------------------------------------------- */

/* Every handle ever destroyed, until a new object gets the same value: an
 * open-addressing set (0 empty, 1 deleted), and per kind a ring of recent
 * ones to pick from. */
#define SET_BITS 21
#define SET_SIZE (1u << SET_BITS)
static uint64_t *set;
static unsigned set_used;

static unsigned slot_of(uint64_t h) { return (unsigned)((h * 0x9e3779b97f4a7c15ULL) >> (64 - SET_BITS)); }

static void set_add(uint64_t h)
{
    if (h <= 1) {
        return;
    }
    if (set == NULL) {
        set = calloc(SET_SIZE, sizeof *set);
    }
    if (set_used > SET_SIZE / 10 * 7) {
        memset(set, 0, SET_SIZE * sizeof *set); /* forget the oldest: rare */
        set_used = 0;
    }
    unsigned i = slot_of(h);
    while (set[i] > 1 && set[i] != h) {
        i = (i + 1) & (SET_SIZE - 1);
    }
    if (set[i] != h) {
        set[i] = h;
        set_used++;
    }
}

static int set_has(uint64_t h, int remove)
{
    if (set == NULL || h <= 1) {
        return 0;
    }
    for (unsigned i = slot_of(h);; i = (i + 1) & (SET_SIZE - 1)) {
        if (set[i] == 0) {
            return 0;
        }
        if (set[i] == h) {
            if (remove) {
                set[i] = 1;
            }
            return 1;
        }
    }
}

#define STALE_RING 64
static void *stale_ring[NKINDS][STALE_RING];
static unsigned stale_n[NKINDS];

int is_stale(void *h) { return set_has((uint64_t)(uintptr_t)h, 0); }

void *stale_handle(int kind)
{
    unsigned n = stale_n[kind] < STALE_RING ? stale_n[kind] : STALE_RING;
    if (n == 0) {
        return NULL;
    }
    void *h = stale_ring[kind][below(n)];
    return is_stale(h) ? h : NULL;
}

static const char *const kind_names[NKINDS] = {"context", "stream", "event", "notify", "binary", "function",
                                               "args", "model", "model stream", "task", "task group",
                                               "cond", "label", "label list"};

/* ---- objects ---------------------------------------------------------- */

int obj_new(int kind, void *h, int ctx, int dev)
{
    if (is_stale(h)) {
        set_has((uint64_t)(uintptr_t)h, 1);
        /* Only a create call's new handle is checked: a handle a query
         * returns may be of an object the model lost track of. */
        if (!(fz.avoid & AV_ALIAS) && !fz.learning) {
            finding("ALIAS", kind_names[kind],
                    "a new %s got handle %p, which a destroyed object had: the stale handle now names the new object",
                    kind_names[kind], h);
        }
    }
    int i = obj_find(kind, h);
    if (i >= 0) {
        return i; /* the same object again (a default stream or context) */
    }
    for (i = 0; i < MAXOBJ && fz.objs[i].live; i++) {
    }
    if (i == MAXOBJ) {
        return -1;
    }
    obj *o = &fz.objs[i];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->live = 1;
    o->h = h;
    o->serial = ++fz.serial;
    o->ctx = ctx;
    o->dev = dev;
    o->parent = o->bound = o->capture = o->captured_in = -1;
    return i;
}

int obj_learn(int kind, void *h, int ctx, int dev)
{
    fz.learning = 1;
    int i = obj_new(kind, h, ctx, dev);
    fz.learning = 0;
    return i;
}

/* forget drops an object whose handle may or may not still work. */
static void forget(int i) { fz.objs[i].live = 0; }

void obj_kill(int i)
{
    obj *o = &fz.objs[i];
    if (!o->live) {
        return;
    }
    o->live = 0;
    set_add((uint64_t)(uintptr_t)o->h);
    stale_ring[o->kind][stale_n[o->kind]++ % STALE_RING] = o->h;
    switch (o->kind) {
    case K_CTX:
        ctx_killed(i);
        break;
    case K_MODEL:
        model_killed(i);
        o->owns_mem = 0; /* destroyed: its memory went with it */
        break;
    case K_STREAM:
        for (int c = 0; c < MAXCAP; c++) {
            if (fz.caps[c].active && fz.caps[c].stream == i) {
                fz.caps[c].active = 0;
            }
        }
        break;
    case K_BIN:
        for (int j = 0; j < MAXOBJ; j++) {
            if (fz.objs[j].live && fz.objs[j].kind == K_FUNC && fz.objs[j].parent == i) {
                obj_kill(j);
            }
        }
        break;
    case K_FUNC:
        for (int j = 0; j < MAXOBJ; j++) {
            if (fz.objs[j].live && fz.objs[j].kind == K_ARGS && fz.objs[j].parent == i) {
                obj_kill(j);
            }
        }
        break;
    }
}

int obj_find(int kind, void *h)
{
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == kind && fz.objs[i].h == h) {
            return i;
        }
    }
    return -1;
}

int obj_count(int kind)
{
    int n = 0;
    for (int i = 0; i < MAXOBJ; i++) {
        n += fz.objs[i].live && fz.objs[i].kind == kind;
    }
    return n;
}

int obj_pick(int kind)
{
    int n = obj_count(kind);
    if (n == 0) {
        return -1;
    }
    int k = (int)below((uint64_t)n);
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == kind && k-- == 0) {
            return i;
        }
    }
    return -1;
}

int ctx_dev(int ctx) { return ctx >= 0 ? fz.objs[ctx].dev : -1; }
int cur_dev(void) { return ctx_dev(fz.cur_ctx); }

int device_open(int dev)
{
    if (fz.dev_set[dev] > 0) {
        return 1;
    }
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_CTX && fz.objs[i].dev == dev) {
            return 1;
        }
    }
    return 0;
}

/* What dies with a context: its streams (their handles go stale); its
 * events, notifies, models and labels end too, but their handles are not
 * promised to go, so they are forgotten rather than marked stale. */
void ctx_killed(int ctx)
{
    for (int i = 0; i < MAXOBJ; i++) {
        obj *o = &fz.objs[i];
        if (!o->live || o->ctx != ctx) {
            continue;
        }
        if (o->kind == K_STREAM) {
            obj_kill(i);
        } else if (o->kind == K_MODEL) {
            model_killed(i);
            forget(i);
        } else {
            forget(i);
        }
    }
    for (int d = 0; d < MAXDEV; d++) {
        if (fz.dev_default[d] == ctx) {
            fz.dev_default[d] = -1;
        }
    }
    if (fz.cur_ctx == ctx) {
        fz.cur_ctx = -1;
    }
}

/* A model's tasks, streams, groups and conditions die with it, and its
 * branch models; the allocations it touched are released. */
void model_killed(int m)
{
    obj *mo = &fz.objs[m];
    for (int i = 0; i < MAXOBJ; i++) {
        obj *o = &fz.objs[i];
        if (!o->live || o->parent != m) {
            continue;
        }
        if (o->kind == K_MODEL) {
            model_killed(i);
            forget(i);
        } else if (o->kind == K_MSTREAM || o->kind == K_TASK || o->kind == K_COND) {
            obj_kill(i);
        } else if (o->kind == K_TASKGRP) {
            forget(i);
        }
    }
    if (!mo->wide) {
        for (int t = 0; t < mo->ntouched; t++) {
            for (int a = 0; a < MAXALLOC; a++) {
                if (fz.allocs[a].live && fz.allocs[a].serial == mo->touched[t] && fz.allocs[a].model_refs > 0) {
                    fz.allocs[a].model_refs--;
                }
            }
        }
    }
    mo->ntouched = 0;
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_STREAM && fz.objs[i].bound == m) {
            fz.objs[i].bound = -1;
        }
    }
}

/* A closed device takes its memory with it; what was freed on it before
 * is now memory of a closed device too. */
void device_closed(int dev)
{
    for (unsigned f = 0; f < NFREED; f++) {
        if (fz.freed[f].kind == M_DEV && fz.freed[f].dev == dev) {
            fz.freed[f].closed = 1;
        }
    }
    for (int a = 0; a < MAXALLOC; a++) {
        alloc *m = &fz.allocs[a];
        if (m->live && m->kind == M_DEV && m->dev == dev) {
            alloc_free(a);
            fz.freed[(fz.nfreed - 1) % NFREED].closed = 1;
        }
    }
    fz.dev_bytes[dev] = 0;
    fz.dev_unsafe[dev] = 0;
    fz.dev_epoch[dev]++;
    fz.vword[dev] = NULL;
    fz.arena[dev] = NULL;
    vmm_device_closed(dev);
}

/* aclFinalize: every handle goes stale and all memory goes. */
void runtime_finalized(void)
{
    peer_model_reset();
    hostreg_forget();
    fz.rt_epoch++;
    for (int d = 0; d < MAXDEV; d++) {
        fz.dev_epoch[d]++;
    }
    vmm_finalized();
    for (int i = 0; i < MAXOBJ; i++) {
        fz.objs[i].owns_mem = 0;
        if (fz.objs[i].live) {
            int k = fz.objs[i].kind;
            if (k == K_MSTREAM || k == K_TASK || k == K_COND || k == K_TASKGRP || k == K_LABEL || k == K_LABELLIST) {
                forget(i);
            } else {
                fz.objs[i].live = 0;
                set_add((uint64_t)(uintptr_t)fz.objs[i].h);
                stale_ring[k][stale_n[k]++ % STALE_RING] = fz.objs[i].h;
            }
        }
    }
    for (int a = 0; a < MAXALLOC; a++) {
        if (fz.allocs[a].live && fz.allocs[a].kind != M_PAGEABLE) {
            alloc_free(a);
        }
    }
    for (unsigned f = 0; f < NFREED; f++) {
        fz.freed[f].closed = fz.freed[f].kind != M_PAGEABLE;
    }
    for (int d = 0; d < MAXDEV; d++) {
        fz.dev_set[d] = 0;
        fz.dev_default[d] = -1;
        fz.dev_bytes[d] = 0;
        fz.dev_unsafe[d] = 0;
        fz.vword[d] = NULL;
        fz.arena[d] = NULL;
    }
    memset(fz.caps, 0, sizeof fz.caps);
    fz.untracked_capture = 0;
    fz.cur_ctx = -1;
    fz.inited = 0;
}

/* Prints the live objects and allocations, for debugging a finding. */
void model_dump(FILE *f)
{
    for (int i = 0; i < MAXOBJ; i++) {
        obj *o = &fz.objs[i];
        if (!o->live) {
            continue;
        }
        fprintf(f, "obj#%llu %s %p dev %d ctx %lld%s%s%s%s%s flags %#x", (unsigned long long)o->serial,
                kind_names[o->kind], o->h, o->dev, o->ctx >= 0 ? (long long)fz.objs[o->ctx].serial : -1LL,
                o->is_default ? " default" : "", o->weird ? " weird" : "", o->persistent ? " persistent" : "",
                o->tainted ? " tainted" : "", o->in_model ? " in_model" : "", o->flags);
        if (o->capture >= 0) {
            fprintf(f, " capture %d", o->capture);
        }
        if (o->bound >= 0) {
            fprintf(f, " bound obj#%llu", (unsigned long long)fz.objs[o->bound].serial);
        }
        if (o->kind == K_STREAM) {
            aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
            aclError rc = aclrtStreamQuery(o->h, &st);
            fprintf(f, " query %d status %d", rc, st);
        }
        fprintf(f, "\n");
    }
    for (int c = 0; c < MAXCAP; c++) {
        if (fz.caps[c].active) {
            fprintf(f, "capture %d: stream obj#%llu mode %d\n", c, (unsigned long long)fz.objs[fz.caps[c].stream].serial,
                    fz.caps[c].mode);
        }
    }
    fprintf(f, "current context obj#%lld\n", fz.cur_ctx >= 0 ? (long long)fz.objs[fz.cur_ctx].serial : -1LL);
}
