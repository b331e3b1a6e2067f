/*
 * Models built over persistent streams (binding, ending, labels, stream
 * activation and switches), and the calls on any model: running, naming,
 * ids, destroy callbacks, descriptions, its streams and tasks. A model
 * with jumps is never run (a jump back loops forever, as on a device).
 */
#include "fuzz.h"

#include <string.h>


static int building_model(void)
{
    for (int tries = 0; tries < 8; tries++) {
        int m = obj_pick(K_MODEL);
        if (m >= 0 && fz.objs[m].building && !fz.objs[m].from_capture) {
            return m;
        }
    }
    return -1;
}

static void op_build_begin(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    if (obj_count(K_MODEL) > 24) {
        return;
    }
    aclmdlRI m = NULL;
    int null = one_in(16);
    uint32_t flag = one_in(8) ? (uint32_t)int_any() : 0;
    callf("aclmdlRIBuildBegin(%s, %u)", null ? "NULL" : "&m", flag);
    aclError rc = ret(aclmdlRIBuildBegin(null ? NULL : &m, flag));
    if (null) {
        must_fail(rc, "a NULL modelRI");
        return;
    }
    if (fz.cur_ctx >= 0 && flag == 0) {
        must_pass(rc, AL_RESOURCE | allow_for_ctx(fz.cur_ctx));
    }
    if (rc == 0) {
        int i = obj_new(K_MODEL, m, fz.cur_ctx, cur_dev());
        if (i >= 0) {
            fz.objs[i].building = 1;
        }
    }
}

static int persistent_stream(int ctx)
{
    for (int tries = 0; tries < 8; tries++) {
        int s = obj_pick(K_STREAM);
        if (s >= 0 && fz.objs[s].persistent && fz.objs[s].ctx == ctx) {
            return s;
        }
    }
    if (fz.objs[ctx].kind != K_CTX || ctx != fz.cur_ctx) {
        return -1;
    }
    aclrtStream s = NULL;
    callf("aclrtCreateStreamWithConfig(&s, 0, PERSISTENT)");
    aclError rc = ret(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    must_pass(rc, AL_RESOURCE | allow_for_ctx(ctx));
    if (rc != 0) {
        return -1;
    }
    int i = obj_new(K_STREAM, s, ctx, fz.objs[ctx].dev);
    if (i >= 0) {
        fz.objs[i].persistent = 1;
        fz.objs[i].flags = ACL_STREAM_PERSISTENT;
    }
    return i;
}

static void op_bind(void)
{
    int m = building_model();
    harg mh = m >= 0 ? (harg){fz.objs[m].h, m, VALID, "live"} : pick_handle(K_MODEL, 0);
    harg s;
    if (m >= 0 && !one_in(8)) {
        use_ctx(fz.objs[m].ctx);
        int p = persistent_stream(fz.objs[m].ctx);
        s = p >= 0 ? (harg){fz.objs[p].h, p, VALID, "live"} : pick_stream();
    } else {
        s = pick_stream();
    }
    int unbind = one_in(5);
    uint32_t flag = one_in(2) ? ACL_MODEL_STREAM_FLAG_HEAD : ACL_MODEL_STREAM_FLAG_DEFAULT;
    callf("%s(%s, %s%s)", unbind ? "aclmdlRIUnbindStream" : "aclmdlRIBindStream", hdesc(&mh), hdesc(&s),
          unbind ? "" : flag ? ", DEFAULT" : ", HEAD");
    aclError rc = ret(unbind ? aclmdlRIUnbindStream(mh.h, s.h) : aclmdlRIBindStream(mh.h, s.h, flag));
    if (mh.v != VALID || s.v == INVALID) {
        must_fail(rc, mh.v != VALID ? "an invalid modelRI" : "an invalid stream");
        return;
    }
    if (!unbind && s.idx >= 0 && !fz.objs[s.idx].persistent && !fz.objs[s.idx].weird) {
        must_fail(rc, "a stream created without ACL_STREAM_PERSISTENT");
        return;
    }
    if (rc == 0 && s.idx >= 0) {
        fz.objs[s.idx].bound = unbind ? -1 : mh.idx;
    }
}

static void op_build_end(void)
{
    int m = building_model();
    if (m < 0) {
        harg mh = pick_handle(K_MODEL, 0);
        callf("aclmdlRIBuildEnd(%s, NULL)", hdesc(&mh));
        aclError rc = ret(aclmdlRIBuildEnd(mh.h, NULL));
        if (mh.v != VALID) {
            must_fail(rc, "an invalid modelRI");
        }
        return;
    }
    obj *mo = &fz.objs[m];
    for (int i = 0; i < MAXOBJ; i++) {
        obj *s = &fz.objs[i];
        if (s->live && s->kind == K_STREAM && s->bound == m && !one_in(10)) {
            callf("aclmdlRIEndTask(obj#%llu, obj#%llu)", (unsigned long long)mo->serial, (unsigned long long)s->serial);
            ret(aclmdlRIEndTask(mo->h, s->h));
        }
    }
    callf("aclmdlRIBuildEnd(obj#%llu, NULL)", (unsigned long long)mo->serial);
    aclError rc = ret(aclmdlRIBuildEnd(mo->h, NULL));
    if (rc == 0) {
        mo->building = 0;
        mo->built = 1;
    }
}

static void op_persistent_clean(void)
{
    harg s = pick_stream();
    callf("aclrtPersistentTaskClean(%s)", hdesc(&s));
    aclError rc = ret(aclrtPersistentTaskClean(s.h));
    if (s.v == INVALID) {
        must_fail(rc, "an invalid stream");
    }
}

/* ---- running and destroying ----------------------------------------------- */

static int runnable(int m)
{
    obj *o = &fz.objs[m];
    return o->built && !o->dangling && !o->noexec && !o->is_branch && o->ctx >= 0 && !o->wide;
}

static void op_model_exec(void)
{
    harg mh = pick_handle(K_MODEL, 0);
    if (mh.v == VALID && !runnable(mh.idx)) {
        return;
    }
    obj *mo = mh.v == VALID ? &fz.objs[mh.idx] : NULL;
    aclError rc;
    harg s = {NULL, -1, VALID, "NULL(default)"};
    int sync = one_in(3);
    if (mo != NULL) {
        int c = mo->ctx;
        use_ctx(c);
        int si = -1;
        for (int tries = 0; tries < 8 && si < 0; tries++) {
            si = obj_pick(K_STREAM);
            if (si >= 0 && (fz.objs[si].ctx != c || !stream_clean(si))) {
                si = -1;
            }
        }
        if (si >= 0) {
            s = (harg){fz.objs[si].h, si, VALID, "live"};
        }
    } else {
        s = pick_stream();
    }
    if (sync) {
        callf("aclmdlRIExecute(%s, 2000)", hdesc(&mh));
        rc = ret(aclmdlRIExecute(mh.h, 2000));
    } else {
        callf("aclmdlRIExecuteAsync(%s, %s)", hdesc(&mh), hdesc(&s));
        rc = ret(aclmdlRIExecuteAsync(mh.h, s.h));
    }
    if (mh.v != VALID) {
        must_fail(rc, "an invalid modelRI");
        return;
    }
    if (mo->from_capture && !mo->has_trap && mo->ctx == fz.cur_ctx) {
        must_pass(rc, allow_for_ctx(mo->ctx) | AL_NOTREADY | (sync ? 0 : allow_for_stream(s.idx)));
    }
    if (mo->has_trap || rc != 0) {
        ctx_taint(mo->ctx);
    }
    for (int t = 0; t < mo->ntouched; t++) {
        for (int a = 0; a < MAXALLOC; a++) {
            if (fz.allocs[a].live && fz.allocs[a].serial == mo->touched[t]) {
                alloc_touch(a, mo->dev);
            }
        }
    }
}

static void op_model_destroy(void)
{
    harg mh = pick_handle(K_MODEL, 0);
    callf("aclmdlRIDestroy(%s)", hdesc(&mh));
    aclError rc = ret(aclmdlRIDestroy(mh.h));
    if (mh.v != VALID) {
        must_fail(rc, "an invalid modelRI");
        return;
    }
    obj *mo = &fz.objs[mh.idx];
    if (mo->is_branch) {
        if (rc == 0) {
            model_killed(mh.idx);
            obj_kill(mh.idx);
        }
        return;
    }
    for (int c = 0; c < MAXCAP; c++) {
        if (fz.caps[c].active && fz.caps[c].model == mh.idx) {
            if (rc == 0) {
                cap_abandon(c);
            }
            return;
        }
    }
    if (rc == 0) {
        model_killed(mh.idx);
        obj_kill(mh.idx);
    }
}

static void destroy_cb(void *arg) { (void)arg; }

static void op_model_misc(void)
{
    harg mh = pick_handle(K_MODEL, 0);
    aclError rc;
    switch (below(6)) {
    case 0: {
        char name[600];
        rand_name(name, one_in(10) ? sizeof name : 40);
        int null = one_in(10);
        callf("aclmdlRISetName(%s, \"%.40s\"%s)", hdesc(&mh), null ? "NULL" : name, strlen(name) > 40 ? "..." : "");
        rc = ret(aclmdlRISetName(mh.h, null ? NULL : name));
        if (mh.v != VALID || null) {
            must_fail(rc, null ? "a NULL name" : "an invalid modelRI");
        } else if (rc == 0 && strlen(name) < sizeof fz.objs[0].name) {
            strcpy(fz.objs[mh.idx].name, name);
            fz.objs[mh.idx].name_set = 1;
        } else {
            fz.objs[mh.idx].name_set = 0;
        }
        return;
    }
    case 1: {
        char name[64];
        uint32_t maxLen = one_in(4) ? (uint32_t)below(4) : sizeof name;
        int null = one_in(10);
        callf("aclmdlRIGetName(%s, %u, %s)", hdesc(&mh), maxLen, null ? "NULL" : "buf");
        rc = ret(aclmdlRIGetName(mh.h, maxLen, null ? NULL : name));
        if (mh.v != VALID || null) {
            must_fail(rc, null ? "a NULL name" : "an invalid modelRI");
        } else if (rc == 0 && fz.objs[mh.idx].name_set && maxLen > strlen(fz.objs[mh.idx].name) &&
                   strcmp(name, fz.objs[mh.idx].name) != 0) {
            finding("WRONG VALUE", "aclmdlRIGetName", "\"%.60s\", set \"%s\"", name, fz.objs[mh.idx].name);
        }
        return;
    }
    case 2: {
        uint32_t id = 0;
        callf("aclmdlRIGetId(%s, &id)", hdesc(&mh));
        rc = ret(aclmdlRIGetId(mh.h, &id));
        if (mh.v != VALID) {
            must_fail(rc, "an invalid modelRI");
        }
        return;
    }
    case 3: {
        int un = one_in(2), nullfn = one_in(8);
        callf("%s(%s, %s%s)", un ? "aclmdlRIDestroyUnregisterCallback" : "aclmdlRIDestroyRegisterCallback", hdesc(&mh),
              nullfn ? "NULL" : "cb", un ? "" : ", NULL");
        rc = ret(un ? aclmdlRIDestroyUnregisterCallback(mh.h, nullfn ? NULL : destroy_cb)
                    : aclmdlRIDestroyRegisterCallback(mh.h, nullfn ? NULL : destroy_cb, NULL));
        if (mh.v != VALID || (nullfn && !un)) {
            must_fail(rc, nullfn ? "a NULL func" : "an invalid modelRI");
        }
        return;
    }
    case 4: {
        char path[600];
        snprintf(path, sizeof path, "%s/model.json", fz.scratch_dir);
        uint32_t flags = (uint32_t)below(3);
        if (one_in(40)) {
            callf("aclmdlRIDebugPrint(%s)", hdesc(&mh));
            rc = ret(aclmdlRIDebugPrint(mh.h));
        } else {
            callf("aclmdlRIDebugJsonPrint(%s, model.json, %u)", hdesc(&mh), flags);
            rc = ret(aclmdlRIDebugJsonPrint(mh.h, path, flags));
        }
        if (mh.v != VALID) {
            must_fail(rc, "an invalid modelRI");
        }
        return;
    }
    default:
        callf("aclmdlRIUpdate(%s)", hdesc(&mh));
        rc = ret(aclmdlRIUpdate(mh.h));
        if (mh.v != VALID) {
            must_fail(rc, "an invalid modelRI");
        }
    }
}

/* The model's streams and their tasks: listed, read, written back
 * unchanged, now and then disabled. */
static void op_model_tasks(void)
{
    harg mh = pick_handle(K_MODEL, 0);
    uint32_t n = 0;
    callf("aclmdlRIGetStreams(%s, NULL, &n)", hdesc(&mh));
    aclError rc = ret(aclmdlRIGetStreams(mh.h, NULL, &n));
    if (mh.v != VALID) {
        must_fail(rc, "an invalid modelRI");
        return;
    }
    if (rc != 0 || n == 0) {
        return;
    }
    aclrtStream ss[8];
    uint32_t cap = n > 8 ? 8 : n;
    if (one_in(8) && n > 1) {
        cap = n - 1;
    }
    uint32_t got = cap;
    callf("aclmdlRIGetStreams(%s, streams, &%u)", hdesc(&mh), cap);
    rc = ret(aclmdlRIGetStreams(mh.h, ss, &got));
    if (cap < n) {
        must_fail(rc, "room for fewer streams than the model has");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    int ms = -1;
    for (uint32_t i = 0; i < got && i < 8; i++) {
        if (obj_count(K_MSTREAM) < 32) {
            int j = obj_learn(K_MSTREAM, ss[i], fz.objs[mh.idx].ctx, fz.objs[mh.idx].dev);
            if (j >= 0) {
                fz.objs[j].parent = mh.idx;
                ms = j;
            }
        }
    }
    harg sh = ms >= 0 ? (harg){fz.objs[ms].h, ms, VALID, "live"} : pick_handle(K_MSTREAM, 0);
    uint32_t nt = 0;
    callf("aclmdlRIGetTasksByStream(%s, NULL, &n)", hdesc(&sh));
    rc = ret(aclmdlRIGetTasksByStream(sh.h, NULL, &nt));
    if (sh.v != VALID) {
        must_fail(rc, "an invalid model stream");
        return;
    }
    if (rc != 0 || nt == 0) {
        return;
    }
    aclmdlRITask ts[8];
    uint32_t tn = nt > 8 ? 8 : nt;
    callf("aclmdlRIGetTasksByStream(%s, tasks, &%u)", hdesc(&sh), tn);
    rc = ret(aclmdlRIGetTasksByStream(sh.h, ts, &tn));
    if (nt > 8) {
        must_fail(rc, "room for fewer tasks than the stream has");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0 || tn == 0) {
        return;
    }
    aclmdlRITask t = ts[below(tn)];
    if (obj_count(K_TASK) < 48) {
        int j = obj_learn(K_TASK, t, fz.objs[mh.idx].ctx, fz.objs[mh.idx].dev);
        if (j >= 0) {
            fz.objs[j].parent = mh.idx;
        }
    }
    harg th = pick_handle(K_TASK, 0);
    aclmdlRITaskType type;
    uint32_t seq;
    aclmdlRITaskParams p;
    memset(&p, 0, sizeof p);
    switch (below(4)) {
    case 0:
        callf("aclmdlRITaskGetType(%s, &type)", hdesc(&th));
        rc = ret(aclmdlRITaskGetType(th.h, &type));
        break;
    case 1:
        callf("aclmdlRITaskGetSeqId(%s, &id)", hdesc(&th));
        rc = ret(aclmdlRITaskGetSeqId(th.h, &seq));
        break;
    case 2:
        callf("aclmdlRITaskGetParams(%s, &p)", hdesc(&th));
        rc = ret(aclmdlRITaskGetParams(th.h, &p));
        if (rc == 0 && th.v == VALID && fz.objs[th.idx].parent >= 0) {
            fz.objs[fz.objs[th.idx].parent].owns_mem = 1; /* a kernel's arguments copied to device memory */
        }
        if (rc == 0 && th.v == VALID && one_in(2)) {
            callf("aclmdlRITaskSetParams(%s, &p) [as read]", hdesc(&th));
            aclError r2 = ret(aclmdlRITaskSetParams(th.h, &p));
            if (r2 == 0) {
                callf("aclmdlRIUpdate(obj#%llu)", (unsigned long long)fz.objs[mh.idx].serial);
                ret(aclmdlRIUpdate(mh.h));
            }
        }
        break;
    default:
        callf("aclmdlRITaskDisable(%s)", hdesc(&th));
        rc = ret(aclmdlRITaskDisable(th.h));
    }
    if (th.v != VALID) {
        must_fail(rc, "an invalid task");
    }
}

const struct op ops_model[] = {
    {"build_begin", 3, op_build_begin},
    {"bind", 4, op_bind},
    {"build_end", 3, op_build_end},
    {"persistent_clean", 1, op_persistent_clean},
    {"model_exec", 6, op_model_exec},
    {"model_destroy", 4, op_model_destroy},
    {"model_misc", 5, op_model_misc},
    {"model_tasks", 3, op_model_tasks},
    {NULL, 0, NULL},
};
