/*
 * 42_events: the rest of the event and notify chapters.
 *
 * On the default chip (Atlas A2): aclrtRecordEventWithFlag and
 * aclrtStreamWaitEventWithFlag, their EXTERNAL flags between a captured
 * model and the streams outside it, the flag an event keeps for its life;
 * aclrtGetEventId, aclrtGetEventAvailNum; aclrtResetEvent of an
 * aclrtCreateEvent event; aclrtNotifyBatchReset. Counting notifies are on
 * the Ascend 950 only and the host-function thread model
 * (aclrtSubscribeHostFunc) on none of the modelled chips: both refuse with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT here. On an Ascend 950: counting
 * notifies, every record and wait mode, reset, timeout; the plain event
 * reset that chip's runtime keeps a no-op. On an Atlas 200I/500 A2: the
 * flag calls and the batch reset refused.
 */
#include "common.h"

static volatile int gate_open;
static volatile int inside;
static volatile int seen = -1;
static volatile int marked;

static void wait_gate(void *arg)
{
    (void)arg;
    while (!gate_open) {
        sleep_ms(1);
    }
}

static void bump(void *arg)
{
    (void)arg;
    inside++;
}

static void snapshot(void *arg)
{
    (void)arg;
    seen = inside;
}

static void mark(void *arg)
{
    (void)arg;
    marked = 1;
}

static aclrtEventRecordedStatus status_of(aclrtEvent e)
{
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK(aclrtQueryEventStatus(e, &st));
    return st;
}

static void flags_and_refusals(aclrtStream s)
{
    aclrtEvent ex = NULL, plain = NULL, other = NULL;
    CHECK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEvent(&plain));
    CHECK(aclrtCreateEventExWithFlag(&other, ACL_EVENT_SYNC));
    REFUSE(aclrtRecordEventWithFlag(ex, s, 2), ACL_ERROR_INVALID_PARAM, "flag 2 is invalid", "aclrtRecordEventWithFlag with flag 2");
    REFUSE(aclrtStreamWaitEventWithFlag(s, ex, 0, 3), ACL_ERROR_INVALID_PARAM, "flag 3 is invalid", "aclrtStreamWaitEventWithFlag with flag 3");
    REFUSE(aclrtStreamWaitEventWithFlag(s, ex, 1, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM,
           "timeout 1s is invalid with ACL_EVENT_WAIT_EXTERNAL", "ACL_EVENT_WAIT_EXTERNAL with timeout 1");
    REFUSE(aclrtRecordEventWithFlag(NULL, s, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_INVALID_PARAM, "event", "aclrtRecordEventWithFlag of NULL");
    REFUSE(aclrtRecordEventWithFlag(plain, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "needs an event from aclrtCreateEventExWithFlag with ACL_EVENT_SYNC alone", "ACL_EVENT_RECORD_EXTERNAL of an aclrtCreateEvent event");
    REFUSE(aclrtStreamWaitEventWithFlag(s, plain, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "ACL_EVENT_WAIT_EXTERNAL needs", "ACL_EVENT_WAIT_EXTERNAL of an aclrtCreateEvent event");
    REFUSE(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "needs a capturing stream",
           "ACL_EVENT_RECORD_EXTERNAL on a stream not capturing");
    REFUSE(aclrtRecordEvent(ex, s), ACL_ERROR_RT_PARAM_INVALID, "took flag ACL_EVENT_RECORD_EXTERNAL first",
           "aclrtRecordEvent after that refused EXTERNAL record (the flag binds at the call)");
    /* The default flags are the plain calls. */
    CHECK(aclrtRecordEventWithFlag(other, s, ACL_EVENT_RECORD_DEFAULT));
    CHECK(aclrtStreamWaitEventWithFlag(s, other, 5, ACL_EVENT_WAIT_DEFAULT));
    CHECK(aclrtSynchronizeStream(s));
    REFUSE(aclrtStreamWaitEventWithFlag(s, other, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID,
           "took flag ACL_EVENT_WAIT_DEFAULT first", "ACL_EVENT_WAIT_EXTERNAL after a default wait");
    EXPECT(status_of(other) == ACL_EVENT_RECORDED_STATUS_COMPLETE, "aclrtRecordEventWithFlag DEFAULT and aclrtStreamWaitEventWithFlag DEFAULT ran");
    CHECK(aclrtDestroyEvent(ex));
    CHECK(aclrtDestroyEvent(plain));
    CHECK(aclrtDestroyEvent(other));
}

static void external_across_model(void)
{
    aclrtEvent in = NULL, out = NULL, third = NULL;
    CHECK(aclrtCreateEventExWithFlag(&in, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventExWithFlag(&out, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventExWithFlag(&third, ACL_EVENT_SYNC));
    aclrtStream cs = NULL, feeder = NULL, runner = NULL, consumer = NULL;
    CHECK(aclrtCreateStream(&cs));
    CHECK(aclrtCreateStream(&feeder));
    CHECK(aclrtCreateStream(&runner));
    CHECK(aclrtCreateStream(&consumer));

    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtStreamWaitEventWithFlag(cs, in, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK(aclrtLaunchHostFunc(cs, bump, NULL));
    CHECK(aclrtRecordEventWithFlag(out, cs, ACL_EVENT_RECORD_EXTERNAL));
    REFUSE(aclrtRecordEventWithFlag(out, cs, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID,
           "already has an ACL_EVENT_RECORD_EXTERNAL in this capture", "a second ACL_EVENT_RECORD_EXTERNAL of one event in one capture");
    CHECK(aclrtStreamWaitEventWithFlag(cs, third, 0, ACL_EVENT_WAIT_EXTERNAL));
    REFUSE(aclrtRecordEventWithFlag(third, cs, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID, "cannot both record and wait",
           "ACL_EVENT_RECORD_EXTERNAL of an event the capture waits for externally");
    CHECK(aclmdlRICaptureEnd(cs, &m));

    CHECK(aclrtLaunchHostFunc(feeder, wait_gate, NULL));
    CHECK(aclrtRecordEvent(in, feeder));
    CHECK(aclmdlRIExecuteAsync(m, runner));
    CHECK(aclrtStreamWaitEvent(consumer, out));
    CHECK(aclrtLaunchHostFunc(consumer, snapshot, NULL));
    sleep_ms(30);
    EXPECT(inside == 0 && status_of(out) == ACL_EVENT_RECORDED_STATUS_NOT_READY,
           "the model waits for the record outside it (ACL_EVENT_WAIT_EXTERNAL); its external record is not done");
    gate_open = 1;
    CHECK(aclrtSynchronizeStream(consumer));
    EXPECT(seen == 1, "a stream waiting for the model's ACL_EVENT_RECORD_EXTERNAL event ran after the model (%d)", seen);
    CHECK(aclrtSynchronizeEvent(out));
    CHECK(aclmdlRIExecuteAsync(m, runner));
    CHECK(aclrtSynchronizeStream(runner));
    EXPECT(inside == 2, "a second run waits for the latest outside record, already done (%d runs)", inside);

    CHECK(aclmdlRIDestroy(m));
    aclrtStream ss[] = {cs, feeder, runner, consumer};
    for (int i = 0; i < 4; i++) {
        CHECK(aclrtDestroyStream(ss[i]));
    }
    CHECK(aclrtDestroyEvent(in));
    CHECK(aclrtDestroyEvent(out));
    CHECK(aclrtDestroyEvent(third));
}

static void ids_and_counts(void)
{
    uint32_t before = 0, n = 0, a_id = 0, b_id = 0;
    aclrtEvent a = NULL, b = NULL;
    CHECK(aclrtGetEventAvailNum(&before));
    CHECK(aclrtCreateEvent(&a));
    CHECK(aclrtCreateEventWithFlag(&b, ACL_EVENT_TIME_LINE));
    CHECK(aclrtGetEventAvailNum(&n));
    EXPECT(before > 0 && n == before - 1, "aclrtGetEventAvailNum: %u, then %u after an aclrtCreateEvent (a TIME_LINE-only event is not counted)", before, n);
    CHECK(aclrtGetEventId(a, &a_id));
    CHECK(aclrtGetEventId(b, &b_id));
    EXPECT(a_id != b_id, "aclrtGetEventId: two events, ids %u and %u", a_id, b_id);
    REFUSE(aclrtGetEventId(a, NULL), ACL_ERROR_INVALID_PARAM, "eventId", "aclrtGetEventId with eventId NULL");
    REFUSE(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM, "eventCount", "aclrtGetEventAvailNum with eventCount NULL");
    CHECK(aclrtDestroyEvent(a));
    CHECK(aclrtGetEventAvailNum(&n));
    EXPECT(n == before, "aclrtGetEventAvailNum after aclrtDestroyEvent: %u", n);
    REFUSE(aclrtGetEventId(a, &a_id), ACL_ERROR_RT_INVALID_HANDLE, "not a live event handle", "aclrtGetEventId of a destroyed event");
    CHECK(aclrtDestroyEvent(b));
}

static void plain_reset(aclrtStream s, aclrtEventRecordedStatus want, const char *chip)
{
    aclrtEvent e = NULL;
    CHECK(aclrtCreateEvent(&e));
    CHECK(aclrtRecordEvent(e, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtResetEvent(e, s));
    CHECK(aclrtSynchronizeStream(s));
    aclrtEventRecordedStatus st = status_of(e);
    EXPECT(st == want, "aclrtResetEvent of an aclrtCreateEvent event on %s: status %d afterwards", chip, (int)st);
    CHECK(aclrtDestroyEvent(e));
}

static void batch_reset(aclrtStream s)
{
    aclrtNotify ns[2] = {NULL, NULL};
    CHECK(aclrtCreateNotify(&ns[0], ACL_NOTIFY_DEFAULT));
    CHECK(aclrtCreateNotify(&ns[1], ACL_NOTIFY_DEFAULT));
    CHECK(aclrtRecordNotify(ns[0], s));
    CHECK(aclrtRecordNotify(ns[1], s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtNotifyBatchReset(ns, 2));
    CHECK(aclrtWaitAndResetNotify(ns[0], s, 1));
    REFUSE(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT, "timed out after 1s", "a wait after aclrtNotifyBatchReset finds no record");
    CHECK(aclrtRecordNotify(ns[1], s));
    CHECK(aclrtWaitAndResetNotify(ns[1], s, 0));
    CHECK(aclrtSynchronizeStream(s));
    REFUSE(aclrtNotifyBatchReset(NULL, 1), ACL_ERROR_INVALID_PARAM, "notifies", "aclrtNotifyBatchReset with notifies NULL");
    REFUSE(aclrtNotifyBatchReset(ns, 0), ACL_ERROR_RT_PARAM_INVALID, "num 0 is invalid", "aclrtNotifyBatchReset with num 0");
    CHECK(aclrtDestroyNotify(ns[1]));
    REFUSE(aclrtNotifyBatchReset(ns, 2), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify handle", "aclrtNotifyBatchReset with a destroyed notify");
    CHECK(aclrtDestroyNotify(ns[0]));
}

static void host_threads_refused(aclrtStream s, const char *chip)
{
    char sub[128];
    snprintf(sub, sizeof sub, "aclrtSubscribeHostFunc is not supported on %s", chip);
    REFUSE(aclrtSubscribeHostFunc(1, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, sub, "aclrtSubscribeHostFunc");
    REFUSE(aclrtProcessHostFunc(10), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtProcessHostFunc is not supported", "aclrtProcessHostFunc");
    REFUSE(aclrtUnSubscribeHostFunc(1, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtUnSubscribeHostFunc is not supported",
           "aclrtUnSubscribeHostFunc");
}

static void cnt_wait(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyWaitMode mode, uint32_t v, uint32_t timeout, uint8_t clear)
{
    aclrtCntNotifyWaitInfo w;
    memset(&w, 0, sizeof w);
    w.mode = mode;
    w.value = v;
    w.timeout = timeout;
    w.isClear = clear;
    CHECK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
}

static void cnt_record(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyRecordMode mode, uint32_t v)
{
    aclrtCntNotifyRecordInfo r = {mode, v};
    CHECK(aclrtCntNotifyRecord(n, s, &r));
}

static void counting(aclrtStream s)
{
    aclrtCntNotify n = NULL;
    REFUSE(aclrtCntNotifyCreate(&n, 1), ACL_ERROR_RT_PARAM_INVALID, "flag 0x1 is invalid", "aclrtCntNotifyCreate with flag 1");
    REFUSE(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_INVALID_PARAM, "cntNotify", "aclrtCntNotifyCreate with cntNotify NULL");
    CHECK(aclrtCntNotifyCreate(&n, 0));
    uint32_t id = 0;
    CHECK(aclrtCntNotifyGetId(n, &id));
    EXPECT(id != 0, "aclrtCntNotifyGetId: %u", id);

    /* Each record mode, checked by an EQUAL wait on the same stream. */
    cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 5);
    cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, 2, 0);
    cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3);
    cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 8, 2, 0);
    cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x30);
    cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x38, 2, 0);
    cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x0f);
    cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 8, 2, 0);
    CHECK(aclrtSynchronizeStream(s));
    pass("record modes SET 5, ADD 3, BIT_OR 0x30, BIT_AND 0x0f: counts 5, 8, 0x38, 8");

    /* Each wait mode holds its stream until the count meets it. */
    struct {
        aclrtCntNotifyWaitMode mode;
        uint32_t value, holds, ends;
        const char *name;
    } modes[] = {
        {ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 4, 4, 3, "LESS"},
        {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, 5, 4, "EQUAL"},
        {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 4, 4, 5, "BIGGER"},
        {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 4, 3, 4, "BIGGER_OR_EQUAL"},
        {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x6, 0x4, 0xe, "EQUAL_WITH_BITMASK"},
    };
    aclrtStream w = NULL;
    CHECK(aclrtCreateStream(&w));
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        marked = 0;
        cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, modes[i].holds);
        CHECK(aclrtSynchronizeStream(s));
        cnt_wait(n, w, modes[i].mode, modes[i].value, 0, 1);
        CHECK(aclrtLaunchHostFunc(w, mark, NULL));
        sleep_ms(20);
        int held = !marked;
        cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, modes[i].ends);
        CHECK(aclrtSynchronizeStream(w));
        cnt_wait(n, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 2, 0); /* isClear zeroed it */
        CHECK(aclrtSynchronizeStream(w));
        EXPECT(held && marked, "wait mode %s %#x: held at %#x, released at %#x, cleared by isClear", modes[i].name, modes[i].value,
               modes[i].holds, modes[i].ends);
    }

    /* Reset, and a wait that times out. */
    cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 9);
    CHECK(aclrtCntNotifyReset(n, s));
    cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 2, 0);
    CHECK(aclrtSynchronizeStream(s));
    pass("aclrtCntNotifyReset sets the count to 0");
    cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0, 1, 0);
    REFUSE(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT, "count notify wait", "a count notify wait of 1 s that nothing releases");

    /* Refusals. */
    aclrtCntNotifyRecordInfo bad_rec = {(aclrtCntNotifyRecordMode)3, 1};
    aclrtCntNotifyWaitInfo bad_wait;
    memset(&bad_wait, 0, sizeof bad_wait);
    bad_wait.mode = (aclrtCntNotifyWaitMode)5;
    REFUSE(aclrtCntNotifyRecord(n, s, NULL), ACL_ERROR_INVALID_PARAM, "info", "aclrtCntNotifyRecord with info NULL");
    REFUSE(aclrtCntNotifyRecord(n, s, &bad_rec), ACL_ERROR_RT_PARAM_INVALID, "record mode 3 is invalid", "aclrtCntNotifyRecord with mode 3");
    REFUSE(aclrtCntNotifyWaitWithTimeout(n, s, NULL), ACL_ERROR_INVALID_PARAM, "info", "aclrtCntNotifyWaitWithTimeout with info NULL");
    REFUSE(aclrtCntNotifyWaitWithTimeout(n, s, &bad_wait), ACL_ERROR_RT_PARAM_INVALID, "wait mode 5 is invalid", "aclrtCntNotifyWaitWithTimeout with mode 5");
    bad_wait.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE;
    bad_wait.isClear = 2;
    REFUSE(aclrtCntNotifyWaitWithTimeout(n, s, &bad_wait), ACL_ERROR_RT_PARAM_INVALID, "isClear 2 is invalid", "aclrtCntNotifyWaitWithTimeout with isClear 2");
    REFUSE(aclrtCntNotifyGetId(n, NULL), ACL_ERROR_INVALID_PARAM, "notifyId", "aclrtCntNotifyGetId with notifyId NULL");
    aclrtEvent ev = NULL;
    CHECK(aclrtCreateEvent(&ev));
    REFUSE(aclrtCntNotifyReset((aclrtCntNotify)ev, s), ACL_ERROR_RT_INVALID_HANDLE, "is an event handle, expected a count notify handle",
           "aclrtCntNotifyReset of an event handle");
    CHECK(aclrtDestroyEvent(ev));
    CHECK(aclrtCntNotifyDestroy(n));
    REFUSE(aclrtCntNotifyDestroy(n), ACL_ERROR_RT_INVALID_HANDLE, "not a live count notify handle", "aclrtCntNotifyDestroy twice");
    CHECK(aclrtDestroyStream(w));
}

static void fini(aclrtStream s)
{
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

int main(void)
{
    aclrtStream s = NULL;

    /* ---- Atlas A2 ---------------------------------------------------- */
    init_chip("events_a2.json", "Ascend910B1");
    CHECK(aclrtCreateStream(&s));
    flags_and_refusals(s);
    external_across_model();
    ids_and_counts();
    plain_reset(s, ACL_EVENT_RECORDED_STATUS_NOT_READY, "an Atlas A2");
    batch_reset(s);
    aclrtCntNotify cn = NULL;
    REFUSE(aclrtCntNotifyCreate(&cn, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCntNotifyCreate is not supported on Ascend910B1",
           "aclrtCntNotifyCreate on an Atlas A2");
    host_threads_refused(s, "Ascend910B1");
    fini(s);

    /* ---- Ascend 950 -------------------------------------------------- */
    init_chip("events_950.json", "Ascend950PR_9599");
    CHECK(aclrtCreateStream(&s));
    counting(s);
    plain_reset(s, ACL_EVENT_RECORDED_STATUS_COMPLETE, "an Ascend 950 (a no-op)");
    host_threads_refused(s, "Ascend950PR_9599");
    fini(s);

    /* ---- Atlas 200I/500 A2 ------------------------------------------- */
    init_chip("events_310b.json", "Ascend310B1");
    CHECK(aclrtCreateStream(&s));
    aclrtEvent e = NULL;
    CHECK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    REFUSE(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtRecordEventWithFlag is not supported on Ascend310B1", "aclrtRecordEventWithFlag on an Atlas 200I/500 A2");
    REFUSE(aclrtStreamWaitEventWithFlag(s, e, 0, ACL_EVENT_WAIT_DEFAULT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtStreamWaitEventWithFlag is not supported on Ascend310B1", "aclrtStreamWaitEventWithFlag on an Atlas 200I/500 A2");
    aclrtNotify n = NULL;
    CHECK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    REFUSE(aclrtNotifyBatchReset(&n, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtNotifyBatchReset is not supported on Ascend310B1",
           "aclrtNotifyBatchReset on an Atlas 200I/500 A2");
    CHECK(aclrtDestroyNotify(n));
    CHECK(aclrtDestroyEvent(e));
    fini(s);
    printf("PASS 42_events\n");
    return 0;
}
