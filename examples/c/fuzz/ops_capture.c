/*
 * Captures: begin and end in each mode, the capture status, the thread's
 * capture mode (task groups and conditional tasks: ops_group.c). Which allocations a captured task touches is noted
 * for the model it goes into, so a model is only run while they live.
 */
#include "fuzz.h"

#include <string.h>


/* Notes that a task queued on stream s touches allocation a (or a trap),
 * for the model it goes into. */
static void note_touch(uint64_t *list, int *n, int *wide, uint64_t serial)
{
    for (int i = 0; i < *n; i++) {
        if (list[i] == serial) {
            return;
        }
    }
    if (*n < 16) {
        list[(*n)++] = serial;
    } else {
        *wide = 1;
    }
}

void cap_note_task(int s, int a)
{
    if (s < 0 || a < 0) {
        return;
    }
    obj *o = &fz.objs[s];
    if (o->capture >= 0 && fz.caps[o->capture].active) {
        capture *c = &fz.caps[o->capture];
        note_touch(c->touched, &c->ntouched, &c->wide, fz.allocs[a].serial);
        fz.allocs[a].model_refs++;
        c->group_tasks += c->in_group;
    } else if (o->bound >= 0) {
        obj *m = &fz.objs[o->bound];
        note_touch(m->touched, &m->ntouched, &m->wide, fz.allocs[a].serial);
        fz.allocs[a].model_refs++;
    } else if (o->persistent || o->weird) {
        fz.allocs[a].model_refs++; /* somewhere the model does not follow: keep it */
    }
}

void cap_note_trap(int s)
{
    if (s < 0) {
        return;
    }
    obj *o = &fz.objs[s];
    if (o->capture >= 0) {
        fz.caps[o->capture].has_trap = 1;
    } else if (o->bound >= 0) {
        fz.objs[o->bound].has_trap = 1;
    }
}

/* A stream that can start a capture or run a model: explicit, eager. */
int clean_stream(int ctx)
{
    for (int tries = 0; tries < 12; tries++) {
        int s = obj_pick(K_STREAM);
        if (s >= 0 && !fz.objs[s].is_default && stream_clean(s) && (ctx < 0 || fz.objs[s].ctx == ctx)) {
            return s;
        }
    }
    return -1;
}

static int free_cap(void)
{
    for (int c = 0; c < MAXCAP; c++) {
        if (!fz.caps[c].active) {
            return c;
        }
    }
    return -1;
}

static void op_capture_begin(void)
{
    int c = free_cap(), s = clean_stream(-1);
    if (c < 0) {
        return; /* a capture the model could not follow */
    }
    harg h = {NULL, s, VALID, "live"};
    if (s >= 0) {
        h.h = fz.objs[s].h;
    }
    if (c < 0 || s < 0 || one_in(6)) {
        h = pick_stream();
        if (h.v == VALID && (h.idx < 0 || !stream_clean(h.idx) || fz.objs[h.idx].is_default)) {
            h.v = UNSURE;
        }
    }
    enum validity v = queue_on(&h);
    int mode = one_in(10) ? int_any() : (int)below(3);
    callf("aclmdlRICaptureBegin(%s, %d)", hdesc(&h), mode);
    aclError rc = ret(aclmdlRICaptureBegin(h.h, (aclmdlRICaptureMode)mode));
    if (v == INVALID || (h.v == VALID && (mode < 0 || mode > 2))) {
        must_fail(rc, v == INVALID ? "an invalid stream" : "an invalid capture mode");
        if (rc == 0 && h.idx >= 0) {
            fz.objs[h.idx].weird = 1;
        }
        return;
    }
    if (v == VALID && c >= 0 && h.v == VALID) {
        must_pass(rc, allow_for_stream(h.idx));
    }
    if (rc != 0) {
        return;
    }
    if (h.idx < 0) {
        fz.untracked_capture = 1; /* the default stream capturing: expect nothing of captures from now */
        return;
    }
    if (fz.objs[h.idx].capture >= 0 || fz.objs[h.idx].weird) {
        fz.objs[h.idx].weird = 1;
        fz.untracked_capture = 1;
        return;
    }
    memset(&fz.caps[c], 0, sizeof fz.caps[c]);
    fz.caps[c].active = 1;
    fz.caps[c].stream = h.idx;
    fz.caps[c].mode = mode;
    fz.caps[c].model = -1;
    fz.objs[h.idx].capture = c;
}

/* The capture ends: its streams go back to running eagerly. */
static void cap_over(int c)
{
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_STREAM && fz.objs[i].capture == c) {
            fz.objs[i].capture = -1;
        }
    }
    fz.caps[c].active = 0;
}

int owning_model_on(int dev, int ctx)
{
    for (int c = 0; c < MAXCAP; c++) {
        obj *so = &fz.objs[fz.caps[c].stream];
        if (fz.caps[c].active && fz.caps[c].has_cond && (so->dev == dev || so->ctx == ctx)) {
            return 1;
        }
    }
    for (int i = 0; i < MAXOBJ; i++) {
        obj *m = &fz.objs[i];
        if ((m->kind == K_MODEL || (m->kind == K_CTX && m->live)) && m->owns_mem && (m->dev == dev || m->ctx == ctx)) {
            return 1; /* forgotten models too: the runtime may still hold them */
        }
    }
    return 0;
}

void cap_abandon(int c)
{
    fz.objs[fz.caps[c].stream].weird = 1;
    if (fz.caps[c].model >= 0) {
        model_killed(fz.caps[c].model);
        obj_kill(fz.caps[c].model);
    }
    cap_over(c);
}

int new_model(void *h, int ctx, int dev)
{
    if (obj_count(K_MODEL) > 24) {
        return -1;
    }
    return obj_learn(K_MODEL, h, ctx, dev);
}

static void op_capture_end(void)
{
    int c = (int)below(MAXCAP);
    harg h = fz.caps[c].active ? (harg){fz.objs[fz.caps[c].stream].h, fz.caps[c].stream, VALID, "live"} : pick_stream();
    /* Whichever way the stream was picked: the capture it began, if any. */
    c = -1;
    for (int i = 0; i < MAXCAP && h.v == VALID && h.idx >= 0; i++) {
        if (fz.caps[i].active && fz.caps[i].stream == h.idx) {
            c = i;
        }
    }
    int null = one_in(20);
    aclmdlRI m = NULL;
    callf("aclmdlRICaptureEnd(%s, %s)", hdesc(&h), null ? "NULL" : "&m");
    aclError rc = ret(aclmdlRICaptureEnd(h.h, null ? NULL : &m));
    if (null || h.v == INVALID) {
        must_fail(rc, null ? "a NULL modelRI" : "an invalid stream");
        return;
    }
    if (c < 0) {
        if (h.idx >= 0 && fz.objs[h.idx].capture < 0 && !fz.objs[h.idx].weird && !fz.objs[h.idx].persistent) {
            must_fail(rc, "a stream not capturing");
        }
        if (rc == 0 && h.idx >= 0) {
            fz.objs[h.idx].weird = 1;
        }
        return;
    }
    capture *cp = &fz.caps[c];
    obj *so = &fz.objs[cp->stream];
    if (rc != 0) {
        if (!(allow_for_stream(cp->stream) & AL_CAPTURE)) {
            must_pass(rc, allow_for_ctx(so->ctx));
        }
        so->weird = 1;
        /* On the stream that began it, on its own thread, any failure ends
         * the capture and clears its model, as CANN's StreamEndCapture
         * does (ClearCaptureModel): a task group left open, a stream not
         * joined back, an invalidated capture. What its model held is the
         * runtime's business now: a teardown of the context may still free
         * it. */
        if (cp->model >= 0) {
            fz.objs[cp->model].live = 0;
        }
        if (cp->has_cond && so->ctx >= 0) {
            fz.objs[so->ctx].owns_mem = 1;
        }
        cap_over(c);
        return;
    }
    int i = cp->model >= 0 && fz.objs[cp->model].live && fz.objs[cp->model].h == m ? cp->model
                                                                                  : new_model(m, so->ctx, so->dev);
    if (i >= 0) {
        obj *mo = &fz.objs[i];
        mo->from_capture = mo->built = 1;
        mo->building = 0;
        memcpy(mo->touched, cp->touched, sizeof cp->touched);
        mo->ntouched = cp->ntouched;
        mo->wide = cp->wide;
        mo->has_trap |= cp->has_trap;
        mo->owns_mem |= cp->has_cond;
        if (cp->in_group) {
            mo->noexec = 1;
        }
    }
    for (int t = 0; t < MAXOBJ; t++) {
        obj *g = &fz.objs[t];
        if (g->live && g->kind == K_TASKGRP && g->parent == -2 - c) {
            g->parent = i; /* the group now belongs to the model */
        }
    }
    cap_over(c);
}

static void op_capture_info(void)
{
    harg h = pick_stream();
    aclmdlRICaptureStatus st = (aclmdlRICaptureStatus)99;
    aclmdlRI m = NULL;
    int null = one_in(12);
    callf("aclmdlRICaptureGetInfo(%s, %s, &m)", hdesc(&h), null ? "NULL" : "&status");
    aclError rc = ret(aclmdlRICaptureGetInfo(h.h, null ? NULL : &st, &m));
    if (null || h.v == INVALID) {
        must_fail(rc, null ? "a NULL status" : "an invalid stream");
        return;
    }
    if (h.v != VALID || h.idx < 0 || fz.objs[h.idx].weird || rc != 0) {
        return;
    }
    obj *o = &fz.objs[h.idx];
    int capturing = o->capture >= 0 && fz.caps[o->capture].active;
    if (!capturing && st != ACL_MODEL_RI_CAPTURE_STATUS_NONE && !o->persistent) {
        finding("WRONG VALUE", "aclmdlRICaptureGetInfo: not capturing", "status %d for a stream not capturing", st);
    }
    if (capturing && st == ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
        finding("WRONG VALUE", "aclmdlRICaptureGetInfo: capturing", "status NONE for a capturing stream");
    }
    if (capturing && m != NULL && fz.caps[o->capture].model < 0) {
        int i = new_model(m, o->ctx, o->dev);
        if (i >= 0) {
            fz.objs[i].building = 1;
            fz.objs[i].from_capture = 1;
            fz.caps[o->capture].model = i;
        }
    }
}

static void op_exchange_mode(void)
{
    int null = one_in(10);
    int mode = one_in(8) ? int_any() : (int)below(3);
    aclmdlRICaptureMode m = (aclmdlRICaptureMode)mode;
    callf("aclmdlRICaptureThreadExchangeMode(%s) [%d]", null ? "NULL" : "&mode", mode);
    aclError rc = ret(aclmdlRICaptureThreadExchangeMode(null ? NULL : &m));
    if (null || mode < 0 || mode > 2) {
        must_fail(rc, null ? "a NULL mode" : "an invalid mode");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        if ((int)m != fz.capture_mode) {
            finding("WRONG VALUE", "aclmdlRICaptureThreadExchangeMode", "old mode %d, expected %d", m, fz.capture_mode);
        }
        fz.capture_mode = mode;
    }
}

const struct op ops_capture[] = {
    {"capture_begin", 4, op_capture_begin},
    {"capture_end", 5, op_capture_end},
    {"capture_info", 3, op_capture_info},
    {"exchange_mode", 2, op_exchange_mode},
    {NULL, 0, NULL},
};
