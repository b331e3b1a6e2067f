/*
 * Initialization, devices, contexts, device queries and the error calls.
 */
#include "fuzz.h"

#include <string.h>


void ctx_taint(int ctx)
{
    if (ctx >= 0) {
        fz.objs[ctx].tainted = 1;
    }
}

int valid_dev(void) { return (int)below((uint64_t)fz.ndev); }

int32_t bad_dev(void)
{
    static const int32_t v[] = {-1, INT32_MIN, INT32_MAX, 64, 1 << 16};
    return one_in(3) ? fz.ndev : v[below(ARRAY_LEN(v))];
}

/* started notes that the runtime is initialized, with one reference. */
static void started(void)
{
    fz.inited = 1;
    fz.inits = 1;
    uint32_t n = 0;
    callf("aclrtGetDeviceCount(&n)");
    must_pass(ret(aclrtGetDeviceCount(&n)), 0);
    fz.ndev = n > MAXDEV ? MAXDEV : (int)n;
    if (fz.ndev < 1) {
        fz.ndev = 1;
    }
}

static void do_init(const char *path)
{
    callf("aclInit(%s)", path ? path : "NULL");
    aclError rc = ret(aclInit(path));
    if (fz.implicit) {
        /* The first aclInit takes over the start aclrtSetDevice made; a
         * configuration comes too late for it. */
        fz.implicit = 0;
        if (path == NULL) {
            must_pass(rc, 0);
        } else {
            must_fail(rc, "aclInit with a configuration after aclrtSetDevice started the runtime");
        }
        return;
    }
    if (fz.inited) {
        must_fail(rc, "aclInit when already initialized");
        fz.inits++;
        return;
    }
    if (path == NULL || strstr(path, "empty.json")) {
        must_pass(rc, 0);
    }
    if (rc == 0) {
        started();
    }
}

/* The current context made by aclrtSetDevice(dev): its default context. */
static void learn_default(int dev)
{
    aclrtContext c = NULL;
    callf("aclrtGetCurrentContext(&c)");
    aclError rc = ret(aclrtGetCurrentContext(&c));
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    int old = fz.dev_default[dev];
    if (old >= 0 && fz.objs[old].h != c) {
        finding("WRONG STATE", "aclrtSetDevice: default context",
                "aclrtSetDevice(%d) made %p current, but the device's default context is %p", dev, c, fz.objs[old].h);
    }
    int i = obj_learn(K_CTX, c, -1, dev);
    if (i >= 0) {
        fz.objs[i].is_default = 1;
        fz.objs[i].ctx = i;
        fz.dev_default[dev] = i;
        fz.cur_ctx = i;
    }
}

int ensure_device(void)
{
    if (!fz.inited) {
        do_init(NULL);
    }
    if (fz.cur_ctx >= 0 || !fz.inited) {
        return fz.cur_ctx >= 0 ? 0 : -1;
    }
    int d = valid_dev();
    callf("aclrtSetDevice(%d)", d);
    aclError rc = ret(aclrtSetDevice(d));
    must_pass(rc, AL_RESOURCE);
    if (rc == 0) {
        fz.dev_set[d]++;
        learn_default(d);
    }
    return fz.cur_ctx >= 0 ? 0 : -1;
}

int use_ctx_of_stream(int s) { return use_ctx(fz.objs[s].ctx); }

int use_ctx(int c)
{
    if (c < 0 || !fz.objs[c].live || fz.objs[c].kind != K_CTX) {
        return -1;
    }
    if (c == fz.cur_ctx) {
        return c < 0 ? -1 : 0;
    }
    callf("aclrtSetCurrentContext(obj#%llu)", (unsigned long long)fz.objs[c].serial);
    aclError rc = ret(aclrtSetCurrentContext(fz.objs[c].h));
    must_pass(rc, 0);
    if (rc == 0) {
        fz.cur_ctx = c;
    }
    return rc == 0 ? 0 : -1;
}

static void op_init(void)
{
    static const char *const cfgs[] = {NULL, "empty.json", "errmsg.json", "missing.json"};
    const char *c = cfgs[below(ARRAY_LEN(cfgs))];
    char path[600];
    if (c == NULL) {
        do_init(NULL);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", fz.scratch_dir, c);
    if (strcmp(c, "missing.json") != 0) {
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(strcmp(c, "empty.json") == 0 ? "{}\n" : "{\"err_msg_mode\": \"1\"}\n", f);
            fclose(f);
        }
    }
    do_init(path);
}

static void finalized(void)
{
    runtime_finalized();
    fz.inits = 0;
    fz.implicit = 0;
}

/* The default context of dev holds live streams or memory. */
static int busy_ctx(int ctx)
{
    for (int i = 0; i < MAXOBJ; i++) {
        obj *o = &fz.objs[i];
        if (o->live && o->ctx == ctx && i != ctx && (o->kind == K_STREAM || o->kind == K_EVENT || o->kind == K_NOTIFY ||
                                                     o->kind == K_MODEL) && !o->is_default) {
            return 1;
        }
    }
    for (int a = 0; a < MAXALLOC; a++) {
        if (fz.allocs[a].live && fz.allocs[a].ctx == ctx) {
            return 1;
        }
    }
    return 0;
}

/* Some context holds live streams, events, notifies, models or memory:
 * what aclFinalize ends with the contexts (the ctx-live class). */
static int any_busy_ctx(void)
{
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_CTX && busy_ctx(i)) {
            return 1;
        }
    }
    return 0;
}

static void op_finalize(void)
{
    if ((fz.avoid & AV_CTX_LIVE) && fz.inited && any_busy_ctx()) {
        return;
    }
    callf("aclFinalize()");
    aclError rc = ret(aclFinalize());
    if (!fz.inited) {
        return; /* the reference names no code for an extra aclFinalize */
    }
    must_pass(rc, AL_FAULT | AL_CAPTURE);
    finalized();
}

static void op_finalize_ref(void)
{
    uint64_t ref = 12345;
    int null = one_in(4);
    if ((fz.avoid & AV_CTX_LIVE) && fz.inited && fz.inits == 1 && any_busy_ctx()) {
        return;
    }
    callf("aclFinalizeReference(%s)", null ? "NULL" : "&ref");
    aclError rc = ret(aclFinalizeReference(null ? NULL : &ref));
    if (!fz.inited) {
        return;
    }
    must_pass(rc, AL_FAULT | AL_CAPTURE);
    if (rc != 0) {
        return;
    }
    fz.inits--;
    if (!null && ref != (uint64_t)fz.inits) {
        finding("WRONG VALUE", "aclFinalizeReference: refCount", "refCount %llu, expected %d",
                (unsigned long long)ref, fz.inits);
    }
    if (fz.inits == 0) {
        finalized();
    }
}

static void op_set_device(void)
{
    if (!fz.inited && !one_in(20)) {
        do_init(NULL);
    }
    int bad = one_in(6);
    int32_t d = bad ? bad_dev() : valid_dev();
    callf("aclrtSetDevice(%d)", d);
    aclError rc = ret(aclrtSetDevice(d));
    if (!fz.inited) {
        /* aclrtSetDevice starts the runtime as aclInit(NULL) would, valid
         * device or not. */
        started();
        fz.implicit = 1;
    }
    if (bad) {
        must_fail(rc, "an invalid device id");
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc == 0) {
        fz.dev_set[d]++;
        learn_default(d);
    }
}

static void after_reset(int d)
{
    if (fz.dev_default[d] >= 0) {
        obj_kill(fz.dev_default[d]);
    }
    if (!device_open(d)) {
        device_closed(d);
    }
}

static void op_reset_device(void)
{
    int bad = one_in(8), force = one_in(4);
    int32_t d = bad ? bad_dev() : valid_dev();
    if (!bad && (fz.avoid & AV_CTX_LIVE) && fz.dev_default[d] >= 0 && busy_ctx(fz.dev_default[d])) {
        return;
    }
    if (!bad && (fz.avoid & AV_TEARDOWN_FREE) && owning_model_on(d, -1)) {
        return;
    }
    callf("%s(%d)", force ? "aclrtResetDeviceForce" : "aclrtResetDevice", d);
    aclError rc = ret(force ? aclrtResetDeviceForce(d) : aclrtResetDevice(d));
    if (!fz.inited) {
        return;
    }
    if (bad) {
        must_fail(rc, "an invalid device id");
        return;
    }
    if (fz.dev_set[d] == 0) {
        return; /* a reset without a set: CANN tolerates it on some versions */
    }
    must_pass(rc, AL_FAULT | AL_CAPTURE);
    if (rc != 0 && rc < 500000) {
        return;
    }
    fz.dev_set[d] = force ? 0 : fz.dev_set[d] - 1;
    /* Only the reset that releases the device ends its default context,
     * and with it the current context of a thread that had it. */
    if (fz.dev_set[d] == 0 && fz.cur_ctx >= 0 && fz.cur_ctx == fz.dev_default[d]) {
        fz.cur_ctx = -1;
    }
    if (fz.dev_set[d] == 0) {
        after_reset(d);
    }
}

static void op_sync_device(void)
{
    int timed = one_in(3);
    int32_t t = timed ? (one_in(2) ? -1 : (int32_t)below(50) + 1) : 0;
    if (one_in(2)) {
        ensure_device();
    }
    int d = cur_dev();
    if (timed) {
        callf("aclrtSynchronizeDeviceWithTimeout(%d)", t);
    } else {
        callf("aclrtSynchronizeDevice()");
    }
    aclError rc = ret(timed ? aclrtSynchronizeDeviceWithTimeout(t) : aclrtSynchronizeDevice());
    if (d < 0) {
        return;
    }
    unsigned allow = (t > 0 ? AL_NOTREADY : 0) | allow_for_ctx(fz.cur_ctx);
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_CTX && fz.objs[i].dev == d && fz.objs[i].tainted) {
            allow |= AL_FAULT;
        }
    }
    must_pass(rc, allow);
    if (rc == 0) {
        allocs_synced(d);
        for (int i = 0; i < MAXOBJ; i++) {
            if (fz.objs[i].live && fz.objs[i].kind == K_NOTIFY && fz.objs[i].dev == d) {
                fz.objs[i].recorded = 0;
            }
            if (fz.objs[i].live && fz.objs[i].dev == d) {
                fz.objs[i].waiting = 0;
            }
        }
    }
}

static void op_create_context(void)
{
    if (obj_count(K_CTX) > 8) {
        return;
    }
    int bad = one_in(8), null = one_in(16);
    int32_t d = bad ? bad_dev() : valid_dev();
    aclrtContext c = NULL;
    callf("aclrtCreateContext(%s, %d)", null ? "NULL" : "&c", d);
    aclError rc = ret(aclrtCreateContext(null ? NULL : &c, d));
    if (!fz.inited) {
        return;
    }
    if (bad || null) {
        must_fail(rc, bad ? "an invalid device id" : "a NULL context");
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc == 0) {
        int i = obj_new(K_CTX, c, -1, d);
        if (i >= 0) {
            fz.objs[i].ctx = i;
            fz.cur_ctx = i;
        }
    }
}

static void op_destroy_context(void)
{
    harg h = pick_handle(K_CTX, 0);
    if (h.v == VALID && (fz.avoid & AV_CTX_LIVE) && busy_ctx(h.idx)) {
        return;
    }
    if (h.v == VALID && (fz.avoid & AV_TEARDOWN_FREE) && owning_model_on(-1, h.idx)) {
        return;
    }
    callf("aclrtDestroyContext(%s)", hdesc(&h));
    aclError rc = ret(aclrtDestroyContext(h.h));
    if (h.v != VALID) {
        must_fail(rc, "an invalid context handle");
        return;
    }
    if (fz.objs[h.idx].is_default) {
        must_fail(rc, "a device's default context");
        return;
    }
    must_pass(rc, AL_FAULT | AL_CAPTURE);
    if (rc == 0 || rc >= 500000) {
        int d = fz.objs[h.idx].dev;
        obj_kill(h.idx);
        if (!device_open(d)) {
            device_closed(d);
        }
    }
}

static void op_set_current_context(void)
{
    harg h = pick_handle(K_CTX, 0);
    callf("aclrtSetCurrentContext(%s)", hdesc(&h));
    aclError rc = ret(aclrtSetCurrentContext(h.h));
    if (h.v != VALID) {
        must_fail(rc, "an invalid context handle");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        fz.cur_ctx = h.idx;
    }
}

static void op_get_current_context(void)
{
    aclrtContext c = NULL;
    int null = one_in(8);
    callf("aclrtGetCurrentContext(%s)", null ? "NULL" : "&c");
    aclError rc = ret(aclrtGetCurrentContext(null ? NULL : &c));
    if (null) {
        must_fail(rc, "a NULL context");
    } else if (fz.cur_ctx >= 0) {
        must_pass(rc, 0);
        if (rc == 0 && c != fz.objs[fz.cur_ctx].h) {
            finding("WRONG VALUE", "aclrtGetCurrentContext", "%p, expected obj#%llu %p", c,
                    (unsigned long long)fz.objs[fz.cur_ctx].serial, fz.objs[fz.cur_ctx].h);
        }
    } else if (fz.inited) {
        must_fail(rc, "no current context");
    }
}

static void op_default_stream(void)
{
    aclrtStream s = NULL;
    callf("aclrtCtxGetCurrentDefaultStream(&s)");
    aclError rc = ret(aclrtCtxGetCurrentDefaultStream(&s));
    if (fz.cur_ctx < 0) {
        return;
    }
    must_pass(rc, 0);
    obj *c = &fz.objs[fz.cur_ctx];
    if (rc != 0) {
        return;
    }
    if (c->def_stream != NULL && c->def_stream != s) {
        finding("WRONG VALUE", "aclrtCtxGetCurrentDefaultStream", "%p, earlier %p", s, c->def_stream);
    }
    c->def_stream = s;
    int i = obj_learn(K_STREAM, s, fz.cur_ctx, c->dev);
    if (i >= 0) {
        fz.objs[i].is_default = 1;
    }
}

const struct op ops_dev[] = {
    {"init", 3, op_init},
    {"finalize", 1, op_finalize},
    {"finalize_ref", 1, op_finalize_ref},
    {"set_device", 25, op_set_device},
    {"reset_device", 6, op_reset_device},
    {"sync_device", 12, op_sync_device},
    {"create_context", 6, op_create_context},
    {"destroy_context", 5, op_destroy_context},
    {"set_current_context", 12, op_set_current_context},
    {"get_current_context", 3, op_get_current_context},
    {"default_stream", 4, op_default_stream},
    {NULL, 0, NULL},
};
