/*
 * Streams and their configuration handles (refused on the fuzzer's chip),
 * host functions and report
 * callbacks, exception callbacks.
 */
#include "fuzz.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>


enum validity queue_on(harg *s)
{
    if (s->v != VALID) {
        return s->v;
    }
    if (s->idx < 0) {
        return fz.cur_ctx >= 0 ? VALID : UNSURE;
    }
    if (!one_in(16)) {
        use_ctx_of_stream(s->idx);
    }
    return fz.objs[s->idx].ctx == fz.cur_ctx ? VALID : INVALID;
}

int stream_dev(const harg *s) { return s->idx >= 0 ? fz.objs[s->idx].dev : cur_dev(); }

/* The stream object a handle argument names: NULL is the current context's
 * default stream, which may also be known by its own handle. */
int stream_obj(const harg *s)
{
    if (s->idx >= 0 || s->h != NULL) {
        return s->idx;
    }
    for (int i = 0; i < MAXOBJ; i++) {
        obj *o = &fz.objs[i];
        if (o->live && o->kind == K_STREAM && o->is_default && o->ctx == fz.cur_ctx) {
            return i;
        }
    }
    return -2; /* the default stream, never named by its handle */
}

int same_stream(const harg *a, const harg *b)
{
    int x = stream_obj(a), y = stream_obj(b);
    return x == y && x != -1;
}

int stream_clean(int s)
{
    if (s < 0) {
        return fz.cur_ctx >= 0 && !fz.objs[fz.cur_ctx].tainted;
    }
    obj *o = &fz.objs[s];
    return !o->weird && !o->persistent && o->capture < 0 && o->bound < 0 && o->ctx >= 0 && !fz.objs[o->ctx].tainted;
}

/* Flags whose effect the model knows: the rest make a stream weird. */
#define KNOWN_FLAGS (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_HUGE | ACL_STREAM_PERSISTENT)

static void new_stream(aclrtStream s, uint32_t prio, uint32_t flags)
{
    int i = obj_new(K_STREAM, s, fz.cur_ctx, cur_dev());
    if (i < 0) {
        return;
    }
    obj *o = &fz.objs[i];
    o->prio = prio;
    o->flags = flags;
    o->persistent = (flags & ACL_STREAM_PERSISTENT) != 0;
    o->weird = (flags & ~KNOWN_FLAGS) != 0 || prio > 7;
}

/* The stream configuration handle functions: the API reference offers
 * them on IPV350 alone, so on the fuzzer's chip (the default, an Atlas A2)
 * each is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT, whatever its
 * arguments, and aclrtCreateStreamConfigHandle returns NULL. */
static void refused(aclError rc, const char *fn)
{
    if (rc != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        finding(rc == 0 ? "WRONG SUCCESS" : "WRONG VALUE", fn, "returned %d, expected 207000: the chip does not offer it", rc);
    }
}

static void op_create_stream(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    if (obj_count(K_STREAM) > 48) {
        return;
    }
    aclrtStream s = NULL;
    int null = one_in(16), v = (int)below(3);
    uint32_t prio = one_in(4) ? (uint32_t)int_any() : (uint32_t)below(8);
    uint32_t flags = one_in(3) ? flags_any(0x3f) : (one_in(4) ? ACL_STREAM_PERSISTENT : 0);
    aclError rc;
    if (v == 0) {
        prio = flags = 0;
        callf("aclrtCreateStream(%s)", null ? "NULL" : "&s");
        rc = ret(aclrtCreateStream(null ? NULL : &s));
    } else if (v == 1) {
        callf("aclrtCreateStreamWithConfig(%s, %u, %#x)", null ? "NULL" : "&s", prio, flags);
        rc = ret(aclrtCreateStreamWithConfig(null ? NULL : &s, prio, flags));
    } else {
        aclrtStreamConfigHandle cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.priority = prio;
        cfg.flag = flags;
        callf("aclrtCreateStreamV2(%s, {prio %u flag %#x})", null ? "NULL" : "&s", prio, flags);
        refused(ret(aclrtCreateStreamV2(null ? NULL : &s, one_in(8) ? NULL : &cfg)), "aclrtCreateStreamV2");
        return;
    }
    if (null) {
        must_fail(rc, "a NULL stream");
        return;
    }
    if (fz.cur_ctx >= 0 && (flags & ~KNOWN_FLAGS) == 0 && prio <= 7) {
        must_pass(rc, AL_RESOURCE | AL_CAPTURE);
    }
    if (rc == 0) {
        new_stream(s, prio, flags);
    }
}

static void op_stream_config(void)
{
    aclrtStreamConfigHandle cfg;
    memset(&cfg, 0, sizeof cfg);
    switch (below(3)) {
    case 0: {
        callf("aclrtCreateStreamConfigHandle()");
        aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
        ret(h ? 0 : -1);
        if (h != NULL) {
            finding("WRONG SUCCESS", "aclrtCreateStreamConfigHandle", "returned a handle on a chip without it");
            return;
        }
        refused(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), "aclrtCreateStreamConfigHandle");
        return;
    }
    case 1: {
        int null = one_in(4);
        callf("aclrtDestroyStreamConfigHandle(%s)", null ? "NULL" : "&cfg");
        refused(ret(aclrtDestroyStreamConfigHandle(null ? NULL : &cfg)), "aclrtDestroyStreamConfigHandle");
        return;
    }
    default: {
        int attr = one_in(8) ? int_any() : (int)below(4);
        uint64_t v = below(8);
        int nullh = one_in(16), nullv = one_in(16);
        callf("aclrtSetStreamConfigOpt(%s, %d, %s, %zu)", nullh ? "NULL" : "&cfg", attr, nullv ? "NULL" : "&v", sizeof v);
        refused(ret(aclrtSetStreamConfigOpt(nullh ? NULL : &cfg, (aclrtStreamConfigAttr)attr, nullv ? NULL : &v, sizeof v)),
                "aclrtSetStreamConfigOpt");
        return;
    }
    }
}

static void op_destroy_stream(void)
{
    harg h = pick_handle(K_STREAM, 0);
    int force = one_in(5);
    callf("%s(%s)", force ? "aclrtDestroyStreamForce" : "aclrtDestroyStream", hdesc(&h));
    aclError rc = ret(force ? aclrtDestroyStreamForce(h.h) : aclrtDestroyStream(h.h));
    if (h.v != VALID) {
        must_fail(rc, "an invalid stream handle");
        return;
    }
    obj *o = &fz.objs[h.idx];
    if (o->is_default) {
        must_fail(rc, "a default stream");
        return;
    }
    must_pass(rc, allow_for_stream(h.idx) | AL_FAULT);
    if (force) {
        ctx_taint(o->ctx); /* dropped tasks: records and copies that never ran */
        records_dropped(h.idx);
    }
    if (rc == 0) {
        obj_kill(h.idx);
    }
}

static void op_sync_stream(void)
{
    harg h = pick_stream();
    int timed = one_in(3);
    int32_t t = one_in(2) ? -1 : (int32_t)below(30) + 1;
    if (timed) {
        callf("aclrtSynchronizeStreamWithTimeout(%s, %d)", hdesc(&h), t);
    } else {
        callf("aclrtSynchronizeStream(%s)", hdesc(&h));
    }
    aclError rc = ret(timed ? aclrtSynchronizeStreamWithTimeout(h.h, t) : aclrtSynchronizeStream(h.h));
    if (h.v == INVALID) {
        must_fail(rc, "an invalid stream handle");
    } else if (h.v == VALID) {
        must_pass(rc, allow_for_stream(h.idx) | (timed && t > 0 ? AL_NOTREADY : 0));
    }
}

static void op_stream_query(void)
{
    harg h = pick_stream();
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    int null = one_in(10);
    callf("aclrtStreamQuery(%s, %s)", hdesc(&h), null ? "NULL" : "&st");
    aclError rc = ret(aclrtStreamQuery(h.h, null ? NULL : &st));
    if (h.v == INVALID || null) {
        must_fail(rc, null ? "a NULL status" : "an invalid stream handle");
    } else if (h.v == VALID) {
        must_pass(rc, allow_for_stream(h.idx));
        if (rc == 0 && st != ACL_STREAM_STATUS_COMPLETE && st != ACL_STREAM_STATUS_NOT_READY) {
            finding("WRONG VALUE", "aclrtStreamQuery", "status %d", st);
        }
    }
}

static void op_stream_getters(void)
{
    harg h = pick_stream();
    uint32_t u = 0xdead;
    int32_t id = -1;
    int null = one_in(10);
    aclError rc;
    int which = (int)below(3);
    if (which == 0) {
        callf("aclrtStreamGetPriority(%s, %s)", hdesc(&h), null ? "NULL" : "&p");
        rc = ret(aclrtStreamGetPriority(h.h, null ? NULL : &u));
    } else if (which == 1) {
        callf("aclrtStreamGetFlags(%s, %s)", hdesc(&h), null ? "NULL" : "&f");
        rc = ret(aclrtStreamGetFlags(h.h, null ? NULL : &u));
    } else {
        callf("aclrtStreamGetId(%s, %s)", hdesc(&h), null ? "NULL" : "&id");
        rc = ret(aclrtStreamGetId(h.h, null ? NULL : &id));
    }
    if (h.v == INVALID || null) {
        must_fail(rc, null ? "a NULL result pointer" : "an invalid stream handle");
        return;
    }
    if (h.v != VALID) {
        return;
    }
    must_pass(rc, 0);
    obj *o = h.idx >= 0 ? &fz.objs[h.idx] : NULL;
    if (rc == 0 && which == 0 && o && !o->is_default && !o->weird && u != o->prio) {
        finding("WRONG VALUE", "aclrtStreamGetPriority", "priority %u, created with %u", u, o->prio);
    }
    if (rc == 0 && which == 1 && o && !o->is_default && !o->weird && u != o->flags) {
        finding("WRONG VALUE", "aclrtStreamGetFlags", "flags %#x, created with %#x", u, o->flags);
    }
}

static void op_stream_mode(void)
{
    harg h = pick_stream();
    if (one_in(3)) {
        uint64_t mode = one_in(5) ? (uint64_t)int_any() : below(2);
        callf("aclrtSetStreamFailureMode(%s, %llu)", hdesc(&h), (unsigned long long)mode);
        aclError rc = ret(aclrtSetStreamFailureMode(h.h, mode));
        if (h.v == INVALID) {
            must_fail(rc, "an invalid stream handle");
        } else if (rc == 0 && mode == 1) {
            int c = h.idx >= 0 ? fz.objs[h.idx].ctx : fz.cur_ctx;
            if (c >= 0) {
                fz.objs[c].stop_mode = 1;
            }
        }
        return;
    }
    int attr = one_in(6) ? int_any() : (int)below(5) + 1;
    aclrtStreamAttrValue v = {0};
    v.failureMode = below(2);
    if (attr == ACL_STREAM_ATTR_PRIORITY) {
        v.failureMode = 0;
        v.streamPriority = (uint32_t)below(8);
    }
    int set = one_in(3), null = one_in(10);
    callf("aclrt%sStreamAttribute(%s, %d, %s)", set ? "Set" : "Get", hdesc(&h), attr, null ? "NULL" : "&v");
    aclError rc = ret(set ? aclrtSetStreamAttribute(h.h, (aclrtStreamAttr)attr, null ? NULL : &v)
                          : aclrtGetStreamAttribute(h.h, (aclrtStreamAttr)attr, null ? NULL : &v));
    if (h.v == INVALID || null) {
        must_fail(rc, null ? "a NULL value" : "an invalid stream handle");
    }
    if (rc == 0 && set && attr == ACL_STREAM_ATTR_PRIORITY && h.idx >= 0) {
        fz.objs[h.idx].prio = v.streamPriority;
    }
    if (rc == 0 && !set && attr == ACL_STREAM_ATTR_PRIORITY && h.idx >= 0 && !fz.objs[h.idx].is_default &&
        !fz.objs[h.idx].weird && v.streamPriority != fz.objs[h.idx].prio) {
        finding("WRONG VALUE", "aclrtGetStreamAttribute: priority", "priority %u, expected %u", v.streamPriority,
                fz.objs[h.idx].prio);
    }
    if (rc == 0 && set && attr == ACL_STREAM_ATTR_FAILURE_MODE && v.failureMode == 1) {
        int c = h.idx >= 0 ? fz.objs[h.idx].ctx : fz.cur_ctx;
        ctx_taint(c); /* STOP_ON_FAILURE: later faults stop the whole context */
    }
}

static void op_stream_abort(void)
{
    harg h = pick_stream();
    callf("aclrtStreamAbort(%s)", hdesc(&h));
    aclError rc = ret(aclrtStreamAbort(h.h));
    if (h.v == INVALID) {
        must_fail(rc, "an invalid stream handle");
    } else if (h.v == VALID) {
        ctx_taint(h.idx >= 0 ? fz.objs[h.idx].ctx : fz.cur_ctx);
        records_dropped(stream_obj(&h) >= 0 ? stream_obj(&h) : -1);
    }
}

/* ---- host functions and report callbacks ------------------------------ */

static uint64_t host_calls;

void host_fn(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&host_calls, 1, __ATOMIC_RELAXED);
}

static void callback_fn(void *arg) { host_fn(arg); }

static volatile int report_stop;
static pthread_t report_thread;

static void *report_loop(void *arg)
{
    (void)arg;
    while (!report_stop) {
        aclError rc = aclrtProcessReport(50);
        if (rc != 0 && rc != ACL_ERROR_RT_REPORT_TIMEOUT) {
            usleep(2000);
        }
    }
    return NULL;
}

void report_thread_start(void)
{
    pthread_create(&report_thread, NULL, report_loop, NULL);
    fz.report_tid = (uint64_t)report_thread;
}

static void op_host_func(void)
{
    harg h = pick_stream();
    enum validity v = queue_on(&h);
    int nullfn = one_in(12);
    callf("aclrtLaunchHostFunc(%s, %s, NULL)", hdesc(&h), nullfn ? "NULL" : "fn");
    aclError rc = ret(aclrtLaunchHostFunc(h.h, nullfn ? NULL : host_fn, NULL));
    if (v == INVALID || nullfn) {
        must_fail(rc, nullfn ? "a NULL fn" : h.v == VALID ? "a stream of another context" : "an invalid stream handle");
    } else if (v == VALID) {
        must_pass(rc, allow_for_stream(h.idx));
    }
}

static void op_report(void)
{
    harg h = pick_stream();
    aclError rc;
    int si = stream_obj(&h); /* NULL and the default stream's handle are one stream */
    if (si >= 0) {
        h.idx = si;
    }
    switch (below(5)) {
    case 0:
        callf("aclrtSubscribeReport(report thread, %s)", hdesc(&h));
        rc = ret(aclrtSubscribeReport(fz.report_tid, h.h));
        if (h.v == INVALID) {
            must_fail(rc, "an invalid stream handle");
        } else if (rc == 0 && h.idx >= 0) {
            fz.objs[h.idx].subscribed = 1;
        }
        break;
    case 1:
        callf("aclrtUnSubscribeReport(report thread, %s)", hdesc(&h));
        rc = ret(aclrtUnSubscribeReport(fz.report_tid, h.h));
        if (h.v == INVALID) {
            must_fail(rc, "an invalid stream handle");
        } else if (rc == 0 && h.idx >= 0) {
            fz.objs[h.idx].subscribed = 2; /* was subscribed once */
        }
        break;
    case 2:
        callf("aclrtProcessReport(%d)", 1);
        ret(aclrtProcessReport(1));
        break;
    default: {
        enum validity v = queue_on(&h);
        int block = (int)below(3), nullfn = one_in(12);
        callf("aclrtLaunchCallback(%s, NULL, %d, %s)", nullfn ? "NULL" : "fn", block, hdesc(&h));
        rc = ret(aclrtLaunchCallback(nullfn ? NULL : callback_fn, NULL, (aclrtCallbackBlockType)block, h.h));
        if (v == INVALID || nullfn) {
            must_fail(rc, nullfn ? "a NULL fn" : h.v == VALID ? "a stream of another context" : "an invalid stream handle");
        } else if (v == VALID && h.idx >= 0 && fz.objs[h.idx].subscribed == 2) {
            must_fail(rc, "a stream no longer subscribed");
        } else if (v == VALID && h.idx >= 0 && fz.objs[h.idx].subscribed == 1 && block < 2) {
            must_pass(rc, allow_for_stream(h.idx));
        }
    }
    }
}

static void exc_cb(aclrtExceptionInfo *info)
{
    (void)aclrtGetTaskIdFromExceptionInfo(info);
    (void)aclrtGetStreamIdFromExceptionInfo(info);
    (void)aclrtGetThreadIdFromExceptionInfo(info);
    (void)aclrtGetDeviceIdFromExceptionInfo(info);
    (void)aclrtGetErrorCodeFromExceptionInfo(info);
}

static void op_exception_cb(void)
{
    int null = one_in(4);
    aclrtExceptionInfoCallback cb = null ? NULL : exc_cb;
    switch (below(4)) {
    case 0:
        callf("aclrtSetExceptionInfoCallback(%s)", null ? "NULL" : "cb");
        ret(aclrtSetExceptionInfoCallback(cb));
        break;
    case 1:
        callf("aclrtExceptionInfoCallbackRegister(%s)", null ? "NULL" : "cb");
        ret(aclrtExceptionInfoCallbackRegister(cb));
        break;
    case 2:
        callf("aclrtExceptionInfoCallbackUnregister(%s)", null ? "NULL" : "cb");
        ret(aclrtExceptionInfoCallbackUnregister(cb));
        break;
    default:
        callf("aclrtGet*FromExceptionInfo(NULL)");
        exc_cb(NULL);
        ret(0);
    }
}

const struct op ops_stream[] = {
    {"create_stream", 16, op_create_stream},
    {"stream_config", 4, op_stream_config},
    {"destroy_stream", 10, op_destroy_stream},
    {"sync_stream", 12, op_sync_stream},
    {"stream_query", 5, op_stream_query},
    {"stream_getters", 5, op_stream_getters},
    {"stream_mode", 3, op_stream_mode},
    {"stream_abort", 1, op_stream_abort},
    {"host_func", 5, op_host_func},
    {"report", 5, op_report},
    {"exception_cb", 2, op_exception_cb},
    {NULL, 0, NULL},
};
