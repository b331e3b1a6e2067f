/*
 * Counting notifies and the batch notify reset. Counting notifies exist on
 * the Ascend 950 only: on any other chip every call must answer
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT, whatever its arguments. On a 950 a
 * notify lives within one op: created, recorded, waited for with a bound,
 * reset and destroyed, so the model needs to know nothing of it.
 */
#include <string.h>

#include "fuzz.h"

static int has_cnt(void)
{
    const char *soc = aclrtGetSocName();
    return soc != NULL && strncmp(soc, "Ascend950", 9) == 0;
}

/* A handle to pass as a counting notify: NULL, garbage or another kind's. */
static aclrtCntNotify odd_cnt(const char **what)
{
    harg h = pick_handle(one_in(2) ? K_NOTIFY : K_EVENT, 1);
    *what = hdesc(&h);
    return (aclrtCntNotify)h.h;
}

/* An arbitrary call, on a chip without counting notifies. */
static void refused_call(void)
{
    const char *what = NULL;
    aclrtCntNotify n = odd_cnt(&what);
    harg s = pick_stream();
    aclrtCntNotifyRecordInfo rec = {(aclrtCntNotifyRecordMode)below(6), (uint32_t)rnd()};
    aclrtCntNotifyWaitInfo w;
    memset(&w, 0, sizeof w);
    w.mode = (aclrtCntNotifyWaitMode)below(6);
    w.value = (uint32_t)rnd();
    w.timeout = (uint32_t)below(3);
    w.isClear = (uint8_t)below(3);
    uint32_t id = 0;
    int null = one_in(6);
    aclError rc;
    const char *fn;
    /* The front refuses a handle below 4096 before anything else
     * (docs/choices.md). */
    int small_n = (uintptr_t)n - 1 < 4095, small_s = (uintptr_t)s.h - 1 < 4095, small = 0;
    switch (below(6)) {
    case 0:
        fn = "aclrtCntNotifyCreate";
        callf("aclrtCntNotifyCreate(%s, 0)", null ? "NULL" : "&n");
        rc = ret(aclrtCntNotifyCreate(null ? NULL : &n, 0));
        break;
    case 1:
        fn = "aclrtCntNotifyRecord";
        callf("aclrtCntNotifyRecord(%s, %s, %s)", what, hdesc(&s), null ? "NULL" : "&rec");
        rc = ret(aclrtCntNotifyRecord(n, s.h, null ? NULL : &rec));
        small = small_n || small_s;
        break;
    case 2:
        fn = "aclrtCntNotifyWaitWithTimeout";
        callf("aclrtCntNotifyWaitWithTimeout(%s, %s, %s)", what, hdesc(&s), null ? "NULL" : "&w");
        rc = ret(aclrtCntNotifyWaitWithTimeout(n, s.h, null ? NULL : &w));
        small = small_n || small_s;
        break;
    case 3:
        fn = "aclrtCntNotifyReset";
        callf("aclrtCntNotifyReset(%s, %s)", what, hdesc(&s));
        rc = ret(aclrtCntNotifyReset(n, s.h));
        small = small_n || small_s;
        break;
    case 4:
        fn = "aclrtCntNotifyGetId";
        callf("aclrtCntNotifyGetId(%s, %s)", what, null ? "NULL" : "&id");
        rc = ret(aclrtCntNotifyGetId(n, null ? NULL : &id));
        small = small_n;
        break;
    default:
        fn = "aclrtCntNotifyDestroy";
        callf("aclrtCntNotifyDestroy(%s)", what);
        rc = ret(aclrtCntNotifyDestroy(n));
        small = small_n;
    }
    aclError want = small ? ACL_ERROR_RT_INVALID_HANDLE : ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    if (rc != want) {
        finding("WRONG CODE", fn, "returned %d on a chip without counting notifies, want %d", rc, want);
    }
}

/* One counting notify's life on a chip that has them. */
static void cnt_life(void)
{
    harg s = pick_stream();
    if (fz.cur_ctx < 0 || queue_on(&s) != VALID || !stream_clean(s.idx)) {
        return;
    }
    aclrtCntNotify n = NULL;
    callf("aclrtCntNotifyCreate(&n, 0)");
    aclError rc = ret(aclrtCntNotifyCreate(&n, 0));
    must_pass(rc, AL_RESOURCE | allow_for_ctx(fz.cur_ctx));
    if (rc != 0) {
        return;
    }
    uint32_t v = (uint32_t)below(8) + 1;
    aclrtCntNotifyRecordInfo rec = {ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, v};
    aclrtCntNotifyWaitInfo w;
    memset(&w, 0, sizeof w);
    w.mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE;
    w.value = v;
    w.timeout = 2;
    w.isClear = (uint8_t)below(2);
    callf("aclrtCntNotifyRecord(n, %s, ADD %u)", hdesc(&s), v);
    must_pass(ret(aclrtCntNotifyRecord(n, s.h, &rec)), allow_for_stream(s.idx));
    callf("aclrtCntNotifyWaitWithTimeout(n, %s, >= %u, 2 s, clear %d)", hdesc(&s), v, w.isClear);
    must_pass(ret(aclrtCntNotifyWaitWithTimeout(n, s.h, &w)), allow_for_stream(s.idx));
    callf("aclrtCntNotifyReset(n, %s)", hdesc(&s));
    must_pass(ret(aclrtCntNotifyReset(n, s.h)), allow_for_stream(s.idx));
    if (one_in(4)) {
        aclrtCntNotifyRecordInfo bad = {(aclrtCntNotifyRecordMode)3, 1};
        callf("aclrtCntNotifyRecord(n, %s, mode 3)", hdesc(&s));
        must_fail(ret(aclrtCntNotifyRecord(n, s.h, &bad)), "record mode 3");
    }
    uint32_t id = 0;
    callf("aclrtCntNotifyGetId(n, &id)");
    must_pass(ret(aclrtCntNotifyGetId(n, &id)), 0);
    callf("aclrtCntNotifyDestroy(n)");
    must_pass(ret(aclrtCntNotifyDestroy(n)), allow_for_ctx(fz.cur_ctx));
    callf("aclrtCntNotifyDestroy(n) [again]");
    must_fail(ret(aclrtCntNotifyDestroy(n)), "a destroyed count notify");
}

static void op_cnt_notify(void)
{
    if (has_cnt()) {
        cnt_life();
    } else {
        refused_call();
    }
}

/* aclrtNotifyBatchReset of one to three handles, any of them bad. */
static void op_notify_batch_reset(void)
{
    harg h[3];
    aclrtNotify ns[3];
    size_t num = (size_t)below(3) + 1;
    int bad = 0, null = one_in(16), zero = one_in(16);
    for (size_t i = 0; i < num; i++) {
        h[i] = pick_handle(K_NOTIFY, 0);
        ns[i] = h[i].h;
        bad |= h[i].v != VALID;
    }
    callf("aclrtNotifyBatchReset(%s, %zu) [%s ...]", null ? "NULL" : "ns", zero ? 0 : num, hdesc(&h[0]));
    aclError rc = ret(aclrtNotifyBatchReset(null ? NULL : ns, zero ? 0 : num));
    if (null || zero || bad) {
        must_fail(rc, null ? "a NULL notifies" : zero ? "num 0" : "an invalid notify handle");
        return;
    }
    unsigned allow = 0;
    for (size_t i = 0; i < num; i++) {
        obj *o = &fz.objs[h[i].idx];
        allow |= allow_for_ctx(o->ctx);
        if (o->recorded) {
            /* A record in flight may be cleared before its wait takes it:
             * that wait then times out. */
            ctx_taint(o->ctx);
        }
    }
    must_pass(rc, allow);
}

const struct op ops_cntnotify[] = {
    {"cnt_notify", 4, op_cnt_notify},
    {"notify_batch_reset", 2, op_notify_batch_reset},
    {NULL, 0, NULL},
};
