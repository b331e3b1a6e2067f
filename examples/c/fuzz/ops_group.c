/*
 * Task groups and their updates, and conditional tasks with their branch
 * models, inside captures.
 */
#include "fuzz.h"

#include <string.h>

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

const struct op ops_group[] = {
    {"task_group", 3, op_task_group},
    {"task_update", 2, op_task_update},
    {"cond", 2, op_cond},
    {NULL, 0, NULL},
};
