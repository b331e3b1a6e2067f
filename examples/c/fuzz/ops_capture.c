/*
 * Captures: begin and end in each mode, the capture status, the thread's
 * capture mode, task groups and their updates, conditional tasks with
 * their branch models. Which allocations a captured task touches is noted
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
static int clean_stream(int ctx)
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

static int new_model(void *h, int ctx, int dev)
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

/* ---- task groups and their updates --------------------------------------- */

/* A fill kernel on stream s with host arguments; 0 if it was queued. */
static aclError group_kernel(int s, harg *sh)
{
    int a = -1;
    for (int tries = 0; tries < 8 && a < 0; tries++) {
        a = alloc_pick(1 << M_DEV);
        if (a >= 0 && fz.allocs[a].dev != fz.objs[s].dev) {
            a = -1;
        }
    }
    if (a < 0) {
        return -1;
    }
    aclError rc;
    if (kernel_fill(s, sh->h, fz.allocs[a].p, fz.allocs[a].extent < 256 ? fz.allocs[a].extent : 256, (uint8_t)rnd(),
                    &rc) != 0) {
        return -1;
    }
    if (rc == 0) {
        alloc_touch(a, fz.objs[s].dev);
        cap_note_task(s, a);
    }
    return rc;
}

static void op_task_group(void)
{
    int c = (int)below(MAXCAP);
    capture *cp = &fz.caps[c];
    if (!cp->active) {
        harg h = pick_stream();
        callf("aclmdlRICaptureTaskGrpBegin(%s)", hdesc(&h));
        aclError rc = ret(aclmdlRICaptureTaskGrpBegin(h.h));
        if (h.v == INVALID) {
            must_fail(rc, "an invalid stream");
        } else if (h.idx >= 0 && fz.objs[h.idx].capture < 0 && !fz.objs[h.idx].weird) {
            must_fail(rc, "a stream not capturing");
        }
        if (rc == 0 && h.idx >= 0) {
            fz.objs[h.idx].weird = 1;
        }
        return;
    }
    int s = cp->stream;
    harg sh = {fz.objs[s].h, s, VALID, "live"};
    use_ctx_of_stream(s);
    if (!cp->in_group) {
        callf("aclmdlRICaptureTaskGrpBegin(%s)", hdesc(&sh));
        aclError rc = ret(aclmdlRICaptureTaskGrpBegin(sh.h));
        must_pass(rc, AL_CAPTURE);
        if (rc == 0) {
            cp->in_group = 1;
            cp->group_tasks = 0;
            group_kernel(s, &sh);
        }
        return;
    }
    aclrtTaskGrp g = NULL;
    callf("aclmdlRICaptureTaskGrpEnd(%s, &g)", hdesc(&sh));
    aclError rc = ret(aclmdlRICaptureTaskGrpEnd(sh.h, &g));
    must_pass(rc, AL_CAPTURE);
    cp->in_group = 0;
    if (rc == 0 && g != NULL) {
        int i = obj_new(K_TASKGRP, g, fz.objs[s].ctx, fz.objs[s].dev);
        if (i >= 0) {
            fz.objs[i].parent = -2 - c; /* the capture's, until it ends */
            fz.objs[i].group_tasks = cp->group_tasks;
        }
    }
}

static void op_task_update(void)
{
    harg g = pick_handle(K_TASKGRP, 0);
    int s = clean_stream(g.v == VALID ? fz.objs[g.idx].ctx : -1);
    if (s < 0) {
        return;
    }
    harg sh = {fz.objs[s].h, s, VALID, "live"};
    use_ctx_of_stream(s);
    callf("aclmdlRICaptureTaskUpdateBegin(%s, %s)", hdesc(&sh), hdesc(&g));
    aclError rc = ret(aclmdlRICaptureTaskUpdateBegin(sh.h, g.h));
    if (g.v != VALID) {
        must_fail(rc, "an invalid task group");
        return;
    }
    int m = fz.objs[g.idx].parent;
    if (rc != 0) {
        return; /* the model may be running, gone, or the group still open */
    }
    /* The stream is in an update: its kernels go into the group. Same
     * count (a kernel each) or, now and then, one too many. */
    int n = fz.objs[g.idx].group_tasks + (one_in(6) ? 1 : 0);
    fz.objs[s].weird = 1; /* while updating */
    obj *so = &fz.objs[s];
    int saved_bound = so->bound;
    so->bound = m >= 0 ? m : -1;
    for (int i = 0; i < n; i++) {
        group_kernel(s, &sh);
    }
    so->bound = saved_bound;
    callf("aclmdlRICaptureTaskUpdateEnd(%s)", hdesc(&sh));
    rc = ret(aclmdlRICaptureTaskUpdateEnd(sh.h));
    so->weird = 0;
    if (rc != 0) {
        so->weird = 1;
    }
}

/* ---- conditional tasks ------------------------------------------------------ */

static void op_cond(void)
{
    int c = (int)below(MAXCAP);
    capture *cp = &fz.caps[c];
    if (!cp->active || cp->model < 0 || !fz.objs[cp->model].live) {
        harg m = pick_handle(K_MODEL, 0);
        aclmdlRICondHandle h = NULL;
        callf("aclmdlRICondHandleCreate(%s, 0, 0, &h)", hdesc(&m));
        aclError rc = ret(aclmdlRICondHandleCreate(m.h, 0, (aclmdlRICondHandleFlag)0, &h));
        if (m.v != VALID) {
            must_fail(rc, "an invalid modelRI");
        }
        return;
    }
    int s = cp->stream, mi = cp->model;
    use_ctx_of_stream(s);
    int type = (int)below(3);
    uint32_t def = type == ACL_MODEL_RI_COND_TYPE_WHILE ? 0 : (uint32_t)below(3);
    aclmdlRICondHandle h = NULL;
    callf("aclmdlRICondHandleCreate(obj#%llu, %u, ASSIGN_DEFAULT, &h)", (unsigned long long)fz.objs[mi].serial, def);
    aclError rc = ret(aclmdlRICondHandleCreate(fz.objs[mi].h, def, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
    must_pass(rc, AL_CAPTURE);
    if (rc != 0) {
        return;
    }
    cp->has_cond = 1;
    int hi = obj_new(K_COND, h, fz.objs[s].ctx, fz.objs[s].dev);
    if (hi >= 0) {
        fz.objs[hi].parent = mi;
    }
    uint64_t *ptr = NULL;
    callf("aclmdlRICondHandleGetCondPtr(h, &ptr)");
    must_pass(ret(aclmdlRICondHandleGetCondPtr(h, &ptr)), 0);
    uint32_t n = type == ACL_MODEL_RI_COND_TYPE_WHILE ? 1 : 1 + (uint32_t)below(2 + (type == 2));
    aclmdlRI br[4] = {NULL, NULL, NULL, NULL};
    aclmdlRICondTaskParams p = {h, (aclmdlRICondTaskType)type, n, br};
    harg sh = {fz.objs[s].h, s, VALID, "live"};
    callf("aclmdlRIAddCondTask({h, %d, %u, br}, %s, 0)", type, n, hdesc(&sh));
    rc = ret(aclmdlRIAddCondTask(p, sh.h, 0));
    must_pass(rc, AL_CAPTURE);
    if (rc != 0) {
        return;
    }
    /* Capture each branch on another clean stream of the context. */
    int sub = clean_stream(fz.objs[s].ctx);
    for (uint32_t b = 0; b < n; b++) {
        int bi = new_model(br[b], fz.objs[s].ctx, fz.objs[s].dev);
        if (bi >= 0) {
            fz.objs[bi].parent = mi;
            fz.objs[bi].is_branch = 1;
        }
        if (sub < 0 || sub == s) {
            continue;
        }
        harg subh = {fz.objs[sub].h, sub, VALID, "live"};
        callf("aclmdlRICaptureToModelRIBegin(%s, branch %u, %d)", hdesc(&subh), b, cp->mode);
        rc = ret(aclmdlRICaptureToModelRIBegin(subh.h, br[b], (aclmdlRICaptureMode)cp->mode));
        must_pass(rc, AL_CAPTURE);
        if (rc != 0) {
            continue;
        }
        int saved = fz.objs[sub].bound;
        fz.objs[sub].bound = mi; /* its tasks touch memory for mi's runs */
        group_kernel(sub, &subh);
        fz.objs[sub].bound = saved;
        aclmdlRI got = NULL;
        callf("aclmdlRICaptureEnd(%s, &got)", hdesc(&subh));
        rc = ret(aclmdlRICaptureEnd(subh.h, &got));
        must_pass(rc, AL_CAPTURE);
        if (rc == 0 && got != br[b]) {
            finding("WRONG VALUE", "aclmdlRICaptureEnd: branch", "ended with %p, expected the branch %p", got, br[b]);
        }
    }
}

const struct op ops_capture[] = {
    {"capture_begin", 4, op_capture_begin},
    {"capture_end", 5, op_capture_end},
    {"capture_info", 3, op_capture_info},
    {"exchange_mode", 2, op_exchange_mode},
    {"task_group", 3, op_task_group},
    {"task_update", 2, op_task_update},
    {"cond", 2, op_cond},
    {NULL, 0, NULL},
};
