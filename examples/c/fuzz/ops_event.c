/*
 * Events: every creation call and flag, record, reset, wait, the three
 * queries, synchronization and timing.
 */
#include "fuzz.h"

/* An event the program may wait for from any stream: one never recorded
 * into a capture or a model (such a record happens only when the model
 * runs). */
static int waitable(const harg *e) { return e->v == VALID && !fz.objs[e->idx].in_model; }

#define KNOWN_EVENT_FLAGS (ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE)

/* What each creation call's events accept (as CANN's runtime rules it):
 * a stream waits only for an event with ACL_EVENT_SYNC (those of
 * aclrtCreateEvent have it), only an aclrtCreateEventWithFlag event with
 * ACL_EVENT_SYNC can be reset, the two older queries refuse
 * aclrtCreateEventExWithFlag events; and event and stream must be of one
 * device. */
static int ev_can_wait(const obj *e) { return e->api == 0 || (e->flags & ACL_EVENT_SYNC); }
static int ev_can_reset(const obj *e) { return e->api == 1 && (e->flags & ACL_EVENT_SYNC); }
static int ev_same_dev(const obj *e, const harg *s) { return e->dev == stream_dev(s); }

void records_dropped(int s)
{
    if (!(fz.avoid & AV_DROPPED_RECORD)) {
        return;
    }
    for (int i = 0; i < MAXOBJ; i++) {
        obj *e = &fz.objs[i];
        if (e->live && e->kind == K_EVENT && e->recorded && (s < 0 || e->last_rec == s || e->last_rec < 0)) {
            e->in_model = 1; /* a wait for it would wait for a record that never runs */
        }
    }
}

static void op_create_event(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    if (obj_count(K_EVENT) > 64) {
        return;
    }
    aclrtEvent e = NULL;
    int v = (int)below(3), null = one_in(16);
    uint32_t flag = v == 0 ? 0 : one_in(2) ? (uint32_t)below(16) & KNOWN_EVENT_FLAGS : flags_any(0x7b);
    aclError rc;
    if (v == 0) {
        callf("aclrtCreateEvent(%s)", null ? "NULL" : "&e");
        rc = ret(aclrtCreateEvent(null ? NULL : &e));
    } else {
        const char *fn = v == 1 ? "aclrtCreateEventWithFlag" : "aclrtCreateEventExWithFlag";
        callf("%s(%s, %#x)", fn, null ? "NULL" : "&e", flag);
        rc = ret(v == 1 ? aclrtCreateEventWithFlag(null ? NULL : &e, flag) : aclrtCreateEventExWithFlag(null ? NULL : &e, flag));
    }
    if (null) {
        must_fail(rc, "a NULL event");
        return;
    }
    if (fz.cur_ctx >= 0 && (flag & ~KNOWN_EVENT_FLAGS) == 0) {
        must_pass(rc, AL_RESOURCE);
    }
    if (rc == 0) {
        int i = obj_new(K_EVENT, e, fz.cur_ctx, cur_dev());
        if (i >= 0) {
            fz.objs[i].flags = flag;
            fz.objs[i].api = v;
            fz.objs[i].weird = (flag & ~KNOWN_EVENT_FLAGS) != 0;
            /* A wait for an ACL_EVENT_EXTERNAL event lasts until a record
             * of it runs, recorded or not before: not one to wait for. */
            fz.objs[i].in_model = (flag & ACL_EVENT_EXTERNAL) != 0;
        }
    }
}

/* What a call on event o may meet: the faults of its context, and of the
 * context of the stream that last recorded it (an event may be recorded on
 * a stream of another context of its device, and a query or destroy then
 * reports that stream's fault). */
static unsigned allow_for_event(const obj *o)
{
    unsigned a = allow_for_ctx(o->ctx);
    if (o->recorded && o->last_rec >= 0) {
        a |= allow_for_ctx(fz.objs[o->last_rec].ctx);
    }
    return a;
}

static void op_destroy_event(void)
{
    harg e = pick_handle(K_EVENT, 0);
    callf("aclrtDestroyEvent(%s)", hdesc(&e));
    aclError rc = ret(aclrtDestroyEvent(e.h));
    if (e.v != VALID) {
        must_fail(rc, "an invalid event handle");
        return;
    }
    obj *o = &fz.objs[e.idx];
    must_pass(rc, allow_for_event(o) | (o->in_model || o->weird ? AL_ANY : 0));
    if (rc == 0) {
        obj_kill(e.idx);
    }
}

/* Records or resets an event on a stream. */
static void op_record_event(void)
{
    harg e = pick_handle(K_EVENT, 0), s = pick_stream();
    enum validity v = queue_on(&s);
    int reset = one_in(5), flagged = !reset && one_in(4);
    aclError rc;
    if (flagged) {
        /* ACL_EVENT_RECORD_DEFAULT is aclrtRecordEvent. */
        callf("aclrtRecordEventWithFlag(%s, %s, DEFAULT)", hdesc(&e), hdesc(&s));
        rc = ret(aclrtRecordEventWithFlag(e.h, s.h, ACL_EVENT_RECORD_DEFAULT));
    } else {
        callf("%s(%s, %s)", reset ? "aclrtResetEvent" : "aclrtRecordEvent", hdesc(&e), hdesc(&s));
        rc = ret(reset ? aclrtResetEvent(e.h, s.h) : aclrtRecordEvent(e.h, s.h));
    }
    if (e.v != VALID || v == INVALID) {
        must_fail(rc, e.v != VALID ? "an invalid event handle"
                      : s.v == VALID ? "a stream of another context" : "an invalid stream handle");
        return;
    }
    obj *o = &fz.objs[e.idx];
    if (s.idx >= 0) {
        obj *so = &fz.objs[s.idx];
        if (so->capture >= 0 || so->persistent || so->bound >= 0) {
            o->in_model = 1; /* a wait for it could wait for a model run */
            o->captured_in = so->capture;
        }
    }
    if (v == VALID && ev_same_dev(o, &s) && (!reset || ev_can_reset(o))) {
        must_pass(rc, allow_for_stream(s.idx) | (o->weird ? AL_ANY : 0));
    }
    if (rc == 0 && !reset) {
        o->recorded = 1;
        o->last_rec = stream_obj(&s);
    }
}

static void op_wait_event(void)
{
    harg e = pick_handle(K_EVENT, 0), s = pick_stream();
    if (e.v == VALID && !waitable(&e)) {
        /* Only a stream of the same capture may wait for it. */
        int c = fz.objs[e.idx].captured_in;
        if (c < 0 || !fz.caps[c].active || fz.caps[c].stream < 0) {
            return;
        }
        s.idx = fz.caps[c].stream;
        s.h = fz.objs[s.idx].h;
        s.v = VALID;
        s.what = "live";
    }
    enum validity v = queue_on(&s);
    int timed = one_in(3), flagged = one_in(4);
    int32_t t = (int32_t)below(2) + 1;
    aclError rc;
    if (flagged) {
        /* ACL_EVENT_WAIT_DEFAULT is aclrtStreamWaitEventWithTimeout. */
        uint32_t ft = timed ? (uint32_t)t : 0;
        callf("aclrtStreamWaitEventWithFlag(%s, %s, %u, DEFAULT)", hdesc(&s), hdesc(&e), ft);
        rc = ret(aclrtStreamWaitEventWithFlag(s.h, e.h, ft, ACL_EVENT_WAIT_DEFAULT));
    } else if (timed) {
        callf("aclrtStreamWaitEventWithTimeout(%s, %s, %d)", hdesc(&s), hdesc(&e), t);
        rc = ret(aclrtStreamWaitEventWithTimeout(s.h, e.h, t));
    } else {
        callf("aclrtStreamWaitEvent(%s, %s)", hdesc(&s), hdesc(&e));
        rc = ret(aclrtStreamWaitEvent(s.h, e.h));
    }
    if (e.v != VALID || v == INVALID) {
        must_fail(rc, e.v != VALID ? "an invalid event handle"
                      : s.v == VALID ? "a stream of another context" : "an invalid stream handle");
        return;
    }
    if (v != VALID) {
        return;
    }
    obj *eo = &fz.objs[e.idx];
    if (ev_same_dev(eo, &s) && ev_can_wait(eo)) {
        must_pass(rc, allow_for_stream(s.idx) | (eo->weird ? AL_ANY : 0));
    }
    if (rc == 0 && s.idx >= 0 && eo->captured_in >= 0 && fz.caps[eo->captured_in].active) {
        fz.objs[s.idx].capture = eo->captured_in; /* joined the capture */
        fz.objs[s.idx].weird = 1;
    }
}

static void op_query_event(void)
{
    harg e = pick_handle(K_EVENT, 0);
    int null = one_in(10), which = (int)below(3);
    aclError rc;
    int st = 99;
    static const char *const fns[] = {"aclrtQueryEvent", "aclrtQueryEventStatus", "aclrtQueryEventWaitStatus"};
    callf("%s(%s, %s)", fns[which], hdesc(&e), null ? "NULL" : "&st");
    if (which == 0) {
        aclrtEventStatus x;
        rc = ret(aclrtQueryEvent(e.h, null ? NULL : &x));
        st = rc == 0 ? (int)x : st;
    } else if (which == 1) {
        aclrtEventRecordedStatus x;
        rc = ret(aclrtQueryEventStatus(e.h, null ? NULL : &x));
        st = rc == 0 ? (int)x : st;
    } else {
        aclrtEventWaitStatus x;
        rc = ret(aclrtQueryEventWaitStatus(e.h, null ? NULL : &x));
        st = rc == 0 ? (int)x : st;
    }
    if (e.v != VALID || null) {
        must_fail(rc, null ? "a NULL status" : "an invalid event handle");
        return;
    }
    obj *o = &fz.objs[e.idx];
    if (which == 1 || o->api != 2) {
        must_pass(rc, allow_for_event(o) | (o->weird || o->in_model ? AL_ANY : 0));
    }
    if (rc == 0 && st != 0 && st != 1) {
        finding("WRONG VALUE", fns[which], "status %d", st);
    }
}

static void op_sync_event(void)
{
    harg e = pick_handle(K_EVENT, 0);
    int timed = one_in(3) || (e.v == VALID && fz.objs[e.idx].in_model);
    int32_t t = (int32_t)below(20) + 1;
    if (timed) {
        callf("aclrtSynchronizeEventWithTimeout(%s, %d)", hdesc(&e), t);
    } else {
        callf("aclrtSynchronizeEvent(%s)", hdesc(&e));
    }
    aclError rc = ret(timed ? aclrtSynchronizeEventWithTimeout(e.h, t) : aclrtSynchronizeEvent(e.h));
    if (e.v != VALID) {
        must_fail(rc, "an invalid event handle");
        return;
    }
    obj *o = &fz.objs[e.idx];
    must_pass(rc, allow_for_event(o) | AL_FAULT | (timed ? AL_NOTREADY : 0) | (o->weird || o->in_model ? AL_ANY : 0));
}

static void op_event_time(void)
{
    harg a = pick_handle(K_EVENT, 0), b = pick_handle(K_EVENT, 0);
    int null = one_in(10);
    if (one_in(2)) {
        float ms = -1;
        callf("aclrtEventElapsedTime(%s, %s, %s)", null ? "NULL" : "&ms", hdesc(&a), hdesc(&b));
        aclError rc = ret(aclrtEventElapsedTime(null ? NULL : &ms, a.h, b.h));
        if (null || a.v != VALID || b.v != VALID) {
            must_fail(rc, null ? "a NULL ms" : "an invalid event handle");
        }
        return;
    }
    uint64_t ts = 0;
    callf("aclrtEventGetTimestamp(%s, %s)", hdesc(&a), null ? "NULL" : "&ts");
    aclError rc = ret(aclrtEventGetTimestamp(a.h, null ? NULL : &ts));
    if (null || a.v != VALID) {
        must_fail(rc, null ? "a NULL timestamp" : "an invalid event handle");
    }
}

/* Creates and destroys events over and over, so that one handle slot is
 * reused more than 2^16 times: a destroyed handle must never come back
 * as a new object's. Long, so rare, and skipped with the alias class. */
static void op_churn(void)
{
    if ((fz.avoid & AV_ALIAS) || fz.cur_ctx < 0 || !one_in(64)) {
        return;
    }
    void *first = NULL;
    for (int i = 0; i < 70000; i++) {
        aclrtEvent e = NULL;
        callf("aclrtCreateEvent(&e) [churn %d]", i);
        aclError rc = ret(aclrtCreateEvent(&e));
        if (rc != 0) {
            must_pass(rc, AL_RESOURCE | allow_for_ctx(fz.cur_ctx));
            return;
        }
        int alias = is_stale(e) && e == first;
        int k = obj_new(K_EVENT, e, fz.cur_ctx, cur_dev());
        if (first == NULL) {
            first = e;
        }
        callf("aclrtDestroyEvent(%p) [churn %d]", e, i);
        rc = ret(aclrtDestroyEvent(e));
        must_pass(rc, allow_for_ctx(fz.cur_ctx));
        if (k >= 0 && rc == 0) {
            obj_kill(k);
        }
        if (alias || rc != 0) {
            return;
        }
    }
}

/* Operation flags the call refuses before it binds them to the event:
 * a flag of neither value, WAIT_EXTERNAL with a timeout, an EXTERNAL flag
 * on an event not from aclrtCreateEventExWithFlag. */
static void op_event_flags(void)
{
    harg e = pick_handle(K_EVENT, 0), s = pick_stream();
    (void)queue_on(&s);
    int which = (int)below(3), wait = one_in(2);
    if (which == 2 && (e.v != VALID || fz.objs[e.idx].api == 2)) {
        which = 0;
    }
    if (which == 1 && !wait) {
        which = 0; /* records have no timeout */
    }
    uint32_t flag = which == 0 ? (uint32_t)below(1000) + 2 : 1, timeout = which == 1 ? (uint32_t)below(5) + 1 : 0;
    aclError rc;
    if (wait) {
        callf("aclrtStreamWaitEventWithFlag(%s, %s, %u, %u)", hdesc(&s), hdesc(&e), timeout, flag);
        rc = ret(aclrtStreamWaitEventWithFlag(s.h, e.h, timeout, flag));
    } else {
        callf("aclrtRecordEventWithFlag(%s, %s, %u)", hdesc(&e), hdesc(&s), flag);
        rc = ret(aclrtRecordEventWithFlag(e.h, s.h, flag));
    }
    must_fail(rc, which == 0 ? "an invalid flag" : which == 1 ? "ACL_EVENT_WAIT_EXTERNAL with a timeout"
                  : "an EXTERNAL flag on an event not from aclrtCreateEventExWithFlag");
}

static void op_event_id(void)
{
    if (one_in(3)) {
        uint32_t n = 0;
        int null = one_in(8);
        callf("aclrtGetEventAvailNum(%s)", null ? "NULL" : "&n");
        aclError rc = ret(aclrtGetEventAvailNum(null ? NULL : &n));
        if (null) {
            must_fail(rc, "a NULL eventCount");
        } else if (fz.cur_ctx >= 0) {
            must_pass(rc, allow_for_ctx(fz.cur_ctx));
        }
        if (rc == 0 && !null && n > 65536) {
            finding("WRONG VALUE", "aclrtGetEventAvailNum", "%u events available, more than the device's 65536", n);
        }
        return;
    }
    harg e = pick_handle(K_EVENT, 0);
    uint32_t id = 0;
    int null = one_in(8);
    callf("aclrtGetEventId(%s, %s)", hdesc(&e), null ? "NULL" : "&id");
    aclError rc = ret(aclrtGetEventId(e.h, null ? NULL : &id));
    if (e.v != VALID || null) {
        must_fail(rc, null ? "a NULL eventId" : "an invalid event handle");
        return;
    }
    obj *o = &fz.objs[e.idx];
    must_pass(rc, allow_for_event(o) | (o->weird ? AL_ANY : 0));
}

const struct op ops_event[] = {
    {"event_flags", 2, op_event_flags},
    {"event_id", 2, op_event_id},
    {"churn", 1, op_churn},
    {"create_event", 10, op_create_event},
    {"destroy_event", 7, op_destroy_event},
    {"record_event", 12, op_record_event},
    {"wait_event", 10, op_wait_event},
    {"query_event", 5, op_query_event},
    {"sync_event", 5, op_sync_event},
    {"event_time", 3, op_event_time},
    {NULL, 0, NULL},
};
