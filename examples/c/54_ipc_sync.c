/*
 * 54_ipc_sync: events and notifies shared between two processes of one
 * simulated machine (the one GOCANN_MACHINE names; a forked child
 * inherits it). The program forks before aclInit; parent and child pass
 * handles, keys and steps over two pipes.
 *
 * An IPC event: the parent records it behind a held stream and exports
 * it (aclrtIpcGetEventHandle); the child opens it (aclrtIpcOpenEventHandle)
 * and its stream waiting on it stays behind the parent's record until the
 * parent lets it run; aclrtSynchronizeEvent and aclrtQueryEventStatus
 * follow it; the operations CANN refuses on IPC events are refused
 * (207000); a record on the opened event is the child's own; destroying
 * the parent's event ends the export. An IPC notify: exported with the
 * whitelist on (aclrtNotifyGetExportKey), refused to the child until
 * aclrtNotifySetImportPid names it (207006), imported
 * (aclrtNotifyImportByKey), each of the child's records releasing exactly
 * one of the parent's waits, a wait on the imported notify refused. The
 * argument checks of each call. Last, the child exports an event whose
 * record never runs and is killed with SIGKILL while the parent waits on
 * it: the waits end with an error naming the child.
 */
#include "common.h"

#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int to_peer = -1, from_peer = -1;

/* send_msg and recv_msg move n bytes to and from the other process;
 * recv_msg fails if the other process ends or stays silent 20 s. */
static void send_msg(const void *p, size_t n)
{
    if (write(to_peer, p, n) != (ssize_t)n) {
        fail_exit(__FILE__, __LINE__, 0, "cannot write to the other process");
    }
}

static void recv_msg(void *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        struct pollfd pf = {from_peer, POLLIN, 0};
        if (poll(&pf, 1, 20000) != 1) {
            fail_exit(__FILE__, __LINE__, 0, "the other process said nothing in 20 s");
        }
        ssize_t r = read(from_peer, (char *)p + got, n - got);
        if (r <= 0) {
            fail_exit(__FILE__, __LINE__, 0, "the other process ended");
        }
        got += (size_t)r;
    }
}

static void step(char c) { send_msg(&c, 1); }

static void await(char want)
{
    char c = 0;
    recv_msg(&c, 1);
    if (c != want) {
        fail_exit(__FILE__, __LINE__, 0, "step '%c' from the other process, expected '%c'", c, want);
    }
}

/* A host function that holds its stream until *gate is set. */
static void hold(void *gate)
{
    while (!atomic_load((atomic_int *)gate)) {
        sleep_ms(1);
    }
}

static void count(void *n) { atomic_fetch_add((atomic_int *)n, 1); }

static aclrtStream init_process(void)
{
    aclrtStream s = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    return s;
}

/* ---- the child ---------------------------------------------------------- */

static void child_event(aclrtStream s)
{
    aclrtIpcEventHandle h;
    aclrtEvent ev = NULL, x = NULL;
    atomic_int ran = 0;
    recv_msg(&h, sizeof h);
    CHECK(aclrtIpcOpenEventHandle(h, &ev));
    CHECK(aclrtStreamWaitEvent(s, ev));
    CHECK(aclrtLaunchHostFunc(s, count, &ran));
    sleep_ms(200);
    aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
    aclrtEventRecordedStatus es = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHECK(aclrtStreamQuery(s, &ss));
    CHECK(aclrtQueryEventStatus(ev, &es));
    EXPECT(ss == ACL_STREAM_STATUS_NOT_READY && es == ACL_EVENT_RECORDED_STATUS_NOT_READY && ran == 0,
           "child: a stream waiting on the opened event stays behind the parent's pending record");
    step('w');
    CHECK(aclrtSynchronizeStreamWithTimeout(s, 20000));
    EXPECT(ran == 1, "child: the stream goes on once the parent's record ran");
    CHECK(aclrtSynchronizeEvent(ev));
    CHECK(aclrtQueryEventStatus(ev, &es));
    EXPECT(es == ACL_EVENT_RECORDED_STATUS_COMPLETE, "child: aclrtSynchronizeEvent and aclrtQueryEventStatus of the opened event");

    aclrtEventStatus old;
    aclrtEventWaitStatus ws;
    float ms;
    uint64_t ts;
    uint32_t id;
    REFUSE(aclrtResetEvent(ev, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "opened", "child: aclrtResetEvent of an opened event");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* the old call is still exported */
    REFUSE(aclrtQueryEvent(ev, &old), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "opened", "child: aclrtQueryEvent");
#pragma GCC diagnostic pop
    REFUSE(aclrtQueryEventWaitStatus(ev, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "opened", "child: aclrtQueryEventWaitStatus");
    REFUSE(aclrtEventElapsedTime(&ms, ev, ev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "opened", "child: aclrtEventElapsedTime");
    REFUSE(aclrtEventGetTimestamp(ev, &ts), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "opened", "child: aclrtEventGetTimestamp");
    REFUSE(aclrtGetEventId(ev, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC", "child: aclrtGetEventId");
    aclrtStream cs = NULL;
    aclmdlRI m = NULL;
    CHECK(aclrtCreateStream(&cs));
    CHECK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    REFUSE(aclrtRecordEvent(ev, cs), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "capturing", "child: aclrtRecordEvent in a capture");
    REFUSE(aclrtStreamWaitEvent(cs, ev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "capturing", "child: aclrtStreamWaitEvent in a capture");
    CHECK(aclmdlRICaptureEnd(cs, &m));
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtDestroyStream(cs));
    CHECK(aclrtRecordEvent(ev, s));
    CHECK(aclrtSynchronizeEvent(ev));
    CHECK(aclrtQueryEventStatus(ev, &es));
    EXPECT(es == ACL_EVENT_RECORDED_STATUS_COMPLETE, "child: a record of the opened event on its own stream");
    REFUSE(aclrtIpcOpenEventHandle(h, NULL), ACL_ERROR_INVALID_PARAM, "event is NULL", "child: aclrtIpcOpenEventHandle(NULL)");
    step('e');
    await('d');
    REFUSE(aclrtIpcOpenEventHandle(h, &x), ACL_ERROR_RT_PARAM_INVALID, "no live export",
           "child: opening the handle after the parent destroyed its event");
    CHECK(aclrtDestroyEvent(ev));
    pass("child: aclrtDestroyEvent of the opened event");
}

static void child_notify(aclrtStream s)
{
    char key[65], bad[65], out[65];
    aclrtNotify n = NULL, x = NULL;
    recv_msg(key, sizeof key);
    REFUSE(aclrtNotifyImportByKey(&n, key, 0), ACL_ERROR_RT_NO_PERMISSION, "whitelist",
           "child: aclrtNotifyImportByKey before the parent whitelists it");
    step('r');
    await('a');
    CHECK(aclrtNotifyImportByKey(&n, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    pass("child: aclrtNotifyImportByKey once whitelisted");
    memset(bad, 'z', 64);
    bad[64] = 0;
    REFUSE(aclrtNotifyImportByKey(&x, bad, 0), ACL_ERROR_RT_PARAM_INVALID, "hexadecimal", "child: a key that is not hex");
    REFUSE(aclrtNotifyImportByKey(&x, key, 4), ACL_ERROR_RT_PARAM_INVALID, "flags 0x4", "child: import flags 4");
    REFUSE(aclrtNotifyImportByKey(NULL, key, 0), ACL_ERROR_INVALID_PARAM, "notify is NULL", "child: aclrtNotifyImportByKey(NULL)");
    REFUSE(aclrtWaitAndResetNotify(n, s, 0), ACL_ERROR_RT_PARAM_INVALID, "只能在创建端Wait",
           "child: aclrtWaitAndResetNotify of an imported notify");
    REFUSE(aclrtNotifyGetExportKey(n, out, sizeof out, 0), ACL_ERROR_RT_INTERNAL_ERROR, "imported",
           "child: exporting an imported notify");
    REFUSE(aclrtNotifyBatchReset(&n, 1), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "IPC notify", "child: resetting an imported notify");
    step('i');
    for (int i = 0; i < 2; i++) {
        await('r');
        CHECK(aclrtRecordNotify(n, s));
        CHECK(aclrtSynchronizeStream(s));
        step('k');
    }
    CHECK(aclrtDestroyNotify(n));
    pass("child: aclrtDestroyNotify of the imported notify");
}

/* child_doomed exports an event whose record never runs and waits for
 * SIGKILL. */
static void child_doomed(aclrtStream s)
{
    static atomic_int never = 0;
    aclrtEvent ev = NULL;
    aclrtIpcEventHandle h;
    CHECK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC));
    CHECK(aclrtLaunchHostFunc(s, hold, &never));
    CHECK(aclrtRecordEvent(ev, s));
    CHECK(aclrtIpcGetEventHandle(ev, &h));
    send_msg(&h, sizeof h);
    for (;;) {
        pause();
    }
}

static void child(void)
{
    aclrtStream s = init_process();
    child_event(s);
    child_notify(s);
    child_doomed(s);
}

/* ---- the parent --------------------------------------------------------- */

static void parent_event(aclrtStream s)
{
    static atomic_int gate = 0;
    aclrtEvent ev = NULL, plain = NULL, x = NULL;
    aclrtIpcEventHandle h, h2;
    REFUSE(aclrtCreateEventWithFlag(&x, ACL_EVENT_IPC), ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateEventExWithFlag",
           "aclrtCreateEventWithFlag(ACL_EVENT_IPC)");
    REFUSE(aclrtCreateEventExWithFlag(&x, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID, "cannot be combined",
           "aclrtCreateEventExWithFlag(ACL_EVENT_IPC | ACL_EVENT_SYNC)");
    CHECK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC));
    CHECK(aclrtCreateEventExWithFlag(&plain, ACL_EVENT_SYNC));
    REFUSE(aclrtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID, "ACL_EVENT_IPC", "aclrtIpcGetEventHandle of an event without ACL_EVENT_IPC");
    REFUSE(aclrtIpcGetEventHandle(ev, NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL", "aclrtIpcGetEventHandle(ev, NULL)");
    REFUSE(aclrtIpcGetEventHandle(NULL, &h), ACL_ERROR_INVALID_PARAM, "event is NULL", "aclrtIpcGetEventHandle(NULL, h)");
    CHECK(aclrtDestroyEvent(plain));
    CHECK(aclrtLaunchHostFunc(s, hold, &gate));
    CHECK(aclrtRecordEvent(ev, s));
    CHECK(aclrtIpcGetEventHandle(ev, &h));
    CHECK(aclrtIpcGetEventHandle(ev, &h2));
    EXPECT(memcmp(&h, &h2, sizeof h) == 0, "aclrtIpcGetEventHandle twice: the same handle");
    send_msg(&h, sizeof h);
    await('w');
    atomic_store(&gate, 1);
    await('e');
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtDestroyEvent(ev));
    step('d');
}

static void parent_notify(aclrtStream s, pid_t kid)
{
    static atomic_int n_ran = 0;
    char key[65], key2[65];
    aclrtNotify n = NULL;
    int32_t pid = (int32_t)kid;
    CHECK(aclrtCreateNotify(&n, 0));
    REFUSE(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_PARAM_INVALID, "not exported", "aclrtNotifySetImportPid before the export");
    REFUSE(aclrtNotifyGetExportKey(n, key, 64, 0), ACL_ERROR_RT_PARAM_INVALID, "len 64", "aclrtNotifyGetExportKey into 64 bytes");
    REFUSE(aclrtNotifyGetExportKey(n, key, sizeof key, 1), ACL_ERROR_RT_PARAM_INVALID, "flags 0x1", "aclrtNotifyGetExportKey flags 1");
    REFUSE(aclrtNotifyGetExportKey(n, NULL, sizeof key, 0), ACL_ERROR_INVALID_PARAM, "key is NULL", "aclrtNotifyGetExportKey(key NULL)");
    CHECK(aclrtNotifyGetExportKey(n, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
    EXPECT(strlen(key) == 64 && strspn(key, "0123456789abcdef") == 64, "aclrtNotifyGetExportKey: 64 hex digits");
    REFUSE(aclrtNotifyGetExportKey(n, key2, sizeof key2, 0), ACL_ERROR_RT_INTERNAL_ERROR, "already", "aclrtNotifyGetExportKey twice");
    REFUSE(aclrtNotifyBatchReset(&n, 1), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "IPC notify", "aclrtNotifyBatchReset of an exported notify");
    aclrtServerPid sp = {0, &pid, 1};
    REFUSE(aclrtNotifySetImportPidInterServer(n, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtNotifySetImportPidInterServer",
           "aclrtNotifySetImportPidInterServer on an Atlas A2");
    send_msg(key, sizeof key);
    await('r');
    REFUSE(aclrtNotifySetImportPid(n, NULL, 1), ACL_ERROR_INVALID_PARAM, "pid is NULL", "aclrtNotifySetImportPid(pid NULL)");
    REFUSE(aclrtNotifySetImportPid(n, &pid, 0), ACL_ERROR_RT_PARAM_INVALID, "num 0", "aclrtNotifySetImportPid(num 0)");
    CHECK(aclrtNotifySetImportPid(n, &pid, 1));
    step('a');
    await('i');
    for (int i = 0; i < 2; i++) {
        CHECK(aclrtWaitAndResetNotify(n, s, 0));
        CHECK(aclrtLaunchHostFunc(s, count, &n_ran));
    }
    sleep_ms(100);
    EXPECT(atomic_load(&n_ran) == 0, "the parent's waits hold before any record");
    for (int i = 1; i <= 2; i++) {
        step('r');
        await('k');
        double start = now_ms();
        while (atomic_load(&n_ran) < i && now_ms() - start < 20000) {
            sleep_ms(1);
        }
        sleep_ms(100);
        EXPECT(atomic_load(&n_ran) == i, "record %d of the child released exactly one wait (%d ran)", i, atomic_load(&n_ran));
    }
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtDestroyNotify(n));
}

static void parent_kill(aclrtStream s, pid_t kid)
{
    aclrtIpcEventHandle h;
    aclrtEvent ev = NULL;
    char who[32];
    recv_msg(&h, sizeof h);
    CHECK(aclrtIpcOpenEventHandle(h, &ev));
    CHECK(aclrtStreamWaitEvent(s, ev));
    EXPECT_CODE(aclrtSynchronizeEventWithTimeout(ev, 50), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                "aclrtSynchronizeEventWithTimeout while the exporter lives");
    kill(kid, SIGKILL);
    int status = 0;
    waitpid(kid, &status, 0);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child is killed with SIGKILL");
    snprintf(who, sizeof who, "process %d", (int)kid);
    double start = now_ms();
    REFUSE(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_PARAM_INVALID, who, "aclrtSynchronizeEvent once the exporter died");
    REFUSE(aclrtSynchronizeStreamWithTimeout(s, 20000), ACL_ERROR_RT_WAIT_TIMEOUT, who,
           "the stream waiting on the dead exporter's event faults");
    EXPECT(now_ms() - start < 5000, "both end within 5 s of the kill (%.0f ms)", now_ms() - start);
    CHECK(aclrtDestroyEvent(ev));
}

int main(void)
{
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pipe");
    }
    fflush(stdout);
    pid_t kid = fork();
    if (kid < 0) {
        fail_exit(__FILE__, __LINE__, 0, "fork");
    }
    if (kid == 0) {
        to_peer = up[1];
        from_peer = down[0];
        child();
        return 1;
    }
    to_peer = down[1];
    from_peer = up[0];
    aclrtStream s = init_process();
    parent_event(s);
    parent_notify(s, kid);
    parent_kill(s, kid);
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 54_ipc_sync\n");
    return 0;
}
