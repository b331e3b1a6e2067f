/*
 * Inter-process calls: IPC memory keys, IPC notifies, IPC events and
 * shareable physical memory handles, each exported to the peer process
 * (ipc_peer.c) with or without its pid on the whitelist, and bad inputs
 * of every export and import call. Each operation makes and frees what it
 * shares, so the model of the rest of the fuzzer is untouched; what the
 * peer reads and writes is checked byte for byte.
 */
#include "ipc.h"

#include <string.h>
#include <unistd.h>

#define KEY_LEN 65
#define SHARE_SIZE (64u << 10)

static int32_t peer_tgid = -1;

/* usable: a context is current and nothing is being captured, so every
 * valid call must pass. */
static int usable(void)
{
    if (!fz.inited || fz.cur_ctx < 0 || fz.capture_mode != 0 || fz.untracked_capture) {
        return 0;
    }
    for (int i = 0; i < MAXCAP; i++) {
        if (fz.caps[i].active) {
            return 0;
        }
    }
    return 1;
}

/* The Atlas 200I/500 A2 has neither IPC memory nor IPC notifies. */
static int ipc_here(void)
{
    const char *soc = aclrtGetSocName();
    return soc == NULL || strncmp(soc, "Ascend310B", 10) != 0;
}

static int32_t peer_pid(void)
{
    if (peer_tgid < 0) {
        struct peer_req q = {.op = PEER_PID, .dev = cur_dev()};
        struct peer_rep r;
        if (peer_ask(&q, &r) == 0 && r.rc == 0) {
            peer_tgid = r.pid;
        }
    }
    return peer_tgid;
}

/* expect checks an import the peer made: it had to work iff allowed. */
static int expect(aclError rc, int allowed, const char *what)
{
    if (allowed && rc != 0) {
        finding("UNEXPECTED FAILURE", what, "the peer's import returned %d", rc);
    } else if (!allowed && rc == 0) {
        finding("WRONG SUCCESS", what, "a process off the whitelist imported");
    } else if (!allowed && rc != ACL_ERROR_RT_NO_PERMISSION) {
        finding("WRONG CODE", what, "a process off the whitelist got %d, want %d", rc, ACL_ERROR_RT_NO_PERMISSION);
    }
    fz.checks++;
    return allowed && rc == 0;
}

/* whitelist picks who may import: 1 if the peer may. */
static int whitelist(aclError (*set)(void *, int32_t *, size_t), void *obj, int checked)
{
    if (!checked) {
        return 1;
    }
    int32_t pids[2] = {peer_pid(), getpid() + 100000};
    switch (below(4)) {
    case 0:
        return 0;
    case 1:
        callf("set whitelist(other pid %d)", pids[1]);
        must_pass(ret(set(obj, &pids[1], 1)), 0);
        return 0;
    default:
        callf("set whitelist(peer %d)", pids[0]);
        must_pass(ret(set(obj, pids, 1 + below(2))), 0);
        return pids[0] > 0;
    }
}

static aclError mem_pid(void *key, int32_t *pid, size_t n) { return aclrtIpcMemSetImportPid(key, pid, n); }
static aclError notify_pid(void *n, int32_t *pid, size_t k) { return aclrtNotifySetImportPid(n, pid, k); }

static void forged_keys(void)
{
    static const char *const bad[] = {"", "0123", "zz", "not a key at all, but sixty-four characters long enough ok"};
    char key[KEY_LEN];
    void *p = NULL;
    for (int i = 0; i < 64; i++) {
        key[i] = "0123456789abcdef"[below(16)];
    }
    key[64] = 0;
    const char *k = one_in(2) ? key : bad[below(ARRAY_LEN(bad))];
    callf("aclrtIpcMemImportByKey(&p, \"%.16s...\", 0) [forged]", k);
    must_fail(ret(aclrtIpcMemImportByKey(&p, k, 0)), "a forged key");
    callf("aclrtIpcMemClose(\"%.16s...\") [forged]", k);
    must_fail(ret(aclrtIpcMemClose(k)), "a forged key");
}

static void mem_bad_inputs(char *p, char *key)
{
    uint64_t flags = 0;
    size_t size = SHARE_SIZE, len = KEY_LEN;
    void *ptr = p;
    const char *why;
    switch (below(5)) {
    case 0:
        ptr = NULL, why = "a NULL devPtr";
        break;
    case 1:
        size = 0, why = "size 0";
        break;
    case 2:
        size = size_huge(), why = "a size past the allocation";
        break;
    case 3:
        len = below(KEY_LEN), why = "a key buffer shorter than 65";
        break;
    default:
        flags = 2 + below(7), why = "unknown flags";
    }
    callf("aclrtIpcMemGetExportKey(%p, %s, key, %zu, %llu)", ptr, size_name(size), len, (unsigned long long)flags);
    must_fail(ret(aclrtIpcMemGetExportKey(ptr, size, key, len, flags)), why);
}

static void op_ipc_mem(void)
{
    if (!usable()) {
        forged_keys();
        return;
    }
    char *p = NULL, key[KEY_LEN];
    unsigned char want[PEER_DATA], got[PEER_DATA];
    callf("aclrtMalloc(&p, %u, 0) [to share]", SHARE_SIZE);
    if (ret(aclrtMalloc((void **)&p, SHARE_SIZE, ACL_MEM_MALLOC_HUGE_FIRST)) != 0) {
        return;
    }
    pattern(want, sizeof want, fz.call);
    must_pass(ret(aclrtMemcpy(p, sizeof want, want, sizeof want, ACL_MEMCPY_HOST_TO_DEVICE)), AL_FAULT);
    if (!ipc_here()) {
        callf("aclrtIpcMemGetExportKey(%p, %u, key, 65, 0) [no IPC on the chip]", (void *)p, SHARE_SIZE);
        must_fail(ret(aclrtIpcMemGetExportKey(p, SHARE_SIZE, key, KEY_LEN, 0)), "IPC memory on a chip without it");
    } else if (one_in(3)) {
        mem_bad_inputs(p, key);
    } else {
        int checked = one_in(2);
        callf("aclrtIpcMemGetExportKey(%p, %u, key, 65, %d)", (void *)p, SHARE_SIZE, !checked);
        aclError rc = ret(aclrtIpcMemGetExportKey(p, SHARE_SIZE, key, KEY_LEN, checked ? 0 : 1));
        must_pass(rc, 0);
        if (rc == 0) {
            int allowed = whitelist(mem_pid, key, checked);
            struct peer_req q = {.op = PEER_MEM, .dev = cur_dev(), .n = sizeof want};
            struct peer_rep r;
            memcpy(q.key, key, KEY_LEN);
            callf("peer: aclrtIpcMemImportByKey(key) + read + write + close [allowed %d]", allowed);
            if (peer_ask(&q, &r) == 0 && expect(r.rc, allowed, "aclrtIpcMemImportByKey")) {
                if (r.rc2 != 0 || r.rc3 != 0) {
                    finding("UNEXPECTED FAILURE", "imported memory", "peer copy %d, close %d", r.rc2, r.rc3);
                } else if (first_diff(r.data, want, sizeof want) >= 0) {
                    mismatch("the peer read other bytes than the exporter wrote (byte %d)", first_diff(r.data, want, sizeof want));
                }
                must_pass(ret(aclrtMemcpy(got, sizeof got, p, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST)), AL_FAULT);
                for (size_t i = 0; r.rc2 == 0 && i < sizeof got; i++) {
                    if (got[i] != (unsigned char)~want[i]) {
                        mismatch("the exporter reads %#x at byte %zu after the peer wrote %#x in place", got[i], i,
                                 (unsigned char)~want[i]);
                        break;
                    }
                }
            }
            callf("aclrtIpcMemClose(key) [exporter]");
            must_pass(ret(aclrtIpcMemClose(key)), 0);
            callf("aclrtIpcMemClose(key) [again]");
            must_fail(ret(aclrtIpcMemClose(key)), "a key already closed");
            callf("peer: aclrtIpcMemImportByKey(closed key)");
            if (peer_ask(&q, &r) == 0 && r.rc == 0) {
                finding("WRONG SUCCESS", "aclrtIpcMemImportByKey", "a key its exporter closed imported");
            }
        }
    }
    callf("aclrtFree(%p) [shared]", (void *)p);
    must_pass(ret(aclrtFree(p)), AL_FAULT);
}

static void op_ipc_notify(void)
{
    if (!usable()) {
        return;
    }
    aclrtNotify n = NULL;
    callf("aclrtCreateNotify(&n, 0) [to share]");
    if (ret(aclrtCreateNotify(&n, 0)) != 0) {
        return;
    }
    static const uint64_t flags[] = {0, 2, 0, 2, 1, 3, 0x10, UINT64_MAX};
    uint64_t f = flags[below(ARRAY_LEN(flags))];
    char key[KEY_LEN];
    size_t len = one_in(8) ? below(KEY_LEN) : KEY_LEN;
    callf("aclrtNotifyGetExportKey(n, key, %zu, %#llx)", len, (unsigned long long)f);
    aclError rc = ret(aclrtNotifyGetExportKey(n, key, len, f));
    if (!ipc_here() || (f != 0 && f != 2) || len < KEY_LEN) {
        must_fail(rc, !ipc_here() ? "IPC notifies on a chip without them" : len < KEY_LEN ? "a key buffer shorter than 65" : "unknown flags");
    } else if (must_pass(rc, 0), rc == 0) {
        callf("aclrtNotifyGetExportKey(n) [again]");
        must_fail(ret(aclrtNotifyGetExportKey(n, key, KEY_LEN, f)), "a notify already exported");
        int allowed = whitelist(notify_pid, n, f == 0);
        struct peer_req q = {.op = PEER_NOTIFY, .dev = cur_dev()};
        struct peer_rep r;
        memcpy(q.key, key, KEY_LEN);
        callf("peer: aclrtNotifyImportByKey + wait (refused) + record [allowed %d]", allowed);
        if (peer_ask(&q, &r) == 0 && expect(r.rc, allowed, "aclrtNotifyImportByKey")) {
            if (r.rc2 == 0) {
                finding("WRONG SUCCESS", "aclrtWaitAndResetNotify", "an importer waited on an imported notify");
            }
            if (r.rc3 != 0) {
                finding("UNEXPECTED FAILURE", "aclrtRecordNotify", "the peer's record returned %d", r.rc3);
            } else {
                aclrtStream s = NULL;
                if (ret(aclrtCreateStream(&s)) == 0) {
                    callf("aclrtWaitAndResetNotify(n, s, 10) [the peer recorded]");
                    must_pass(ret(aclrtWaitAndResetNotify(n, s, 10)), 0);
                    callf("aclrtSynchronizeStream(s)");
                    must_pass(ret(aclrtSynchronizeStream(s)), 0);
                    must_pass(ret(aclrtDestroyStream(s)), 0);
                }
            }
        }
    }
    callf("aclrtDestroyNotify(n) [shared]");
    must_pass(ret(aclrtDestroyNotify(n)), 0);
}

static int ipc_events_here(void)
{
    const char *soc = aclrtGetSocName();
    return soc && (strncmp(soc, "Ascend910B", 10) == 0 || strncmp(soc, "Ascend910_93", 12) == 0 ||
                   strncmp(soc, "Ascend950PR", 11) == 0);
}

static void op_ipc_event(void)
{
    if (!usable()) {
        return;
    }
    aclrtEvent e = NULL;
    callf("aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC)");
    aclError rc = ret(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    if (!ipc_events_here()) {
        must_fail(rc, "IPC events on a chip without them");
        if (rc == 0) {
            (void)aclrtDestroyEvent(e);
        }
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    aclrtIpcEventHandle h;
    callf("aclrtIpcGetEventHandle(e, %s)", one_in(8) ? "NULL" : "&h");
    if (one_in(8)) {
        must_fail(ret(aclrtIpcGetEventHandle(e, NULL)), "a NULL handle");
    } else if (must_pass(rc = ret(aclrtIpcGetEventHandle(e, &h)), 0), rc == 0) {
        aclrtStream s = NULL;
        if (ret(aclrtCreateStream(&s)) == 0) {
            callf("aclrtRecordEvent(e, s)");
            must_pass(ret(aclrtRecordEvent(e, s)), 0);
            callf("aclrtResetEvent(e, s) [IPC]");
            must_fail(ret(aclrtResetEvent(e, s)), "a reset of an IPC event");
            struct peer_req q = {.op = PEER_EVENT, .dev = cur_dev()};
            struct peer_rep r;
            memcpy(q.key, &h, sizeof h);
            callf("peer: aclrtIpcOpenEventHandle + synchronize + query");
            if (peer_ask(&q, &r) == 0 && expect(r.rc, 1, "aclrtIpcOpenEventHandle")) {
                if (r.rc2 != 0 || r.rc3 != 0 || r.data[0] != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
                    finding("UNEXPECTED FAILURE", "opened IPC event", "synchronize %d, query %d, status %d", r.rc2,
                            r.rc3, r.data[0]);
                }
            }
            must_pass(ret(aclrtSynchronizeStream(s)), 0);
            must_pass(ret(aclrtDestroyStream(s)), 0);
        }
    }
    callf("aclrtDestroyEvent(e) [IPC]");
    must_pass(ret(aclrtDestroyEvent(e)), 0);
}

static aclError share_pid(void *h, int32_t *pid, size_t n)
{
    return aclrtMemSetPidToShareableHandle(*(uint64_t *)h, pid, n);
}

static void op_ipc_share(void)
{
    if (!usable()) {
        return;
    }
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = (uint32_t)cur_dev();
    aclrtDrvMemHandle h = NULL;
    const uint64_t size = 2u << 20;
    callf("aclrtMallocPhysical(&h, 2 MiB) [to share]");
    if (ret(aclrtMallocPhysical(&h, size, &prop, 0)) != 0) {
        return;
    }
    uint64_t sh = 0;
    int bad = one_in(4);
    uint64_t flags = bad ? 2 + below(5) : below(2);
    int type = one_in(8) ? 2 : 0;
    callf("aclrtMemExportToShareableHandle(h, %d, %llu, &sh)", type, (unsigned long long)flags);
    aclError rc = ret(aclrtMemExportToShareableHandle(h, (aclrtMemHandleType)type, flags, &sh));
    if (bad || type != 0) {
        must_fail(rc, type ? "handle type POSIX" : "unknown flags");
    } else if (must_pass(rc, 0), rc == 0) {
        int allowed = whitelist(share_pid, &sh, flags == 0);
        struct peer_req q = {.op = PEER_SHARE, .dev = cur_dev(), .u64 = sh, .size = size, .n = PEER_DATA};
        struct peer_rep r;
        callf("peer: aclrtMemImportFromShareableHandle + map + read [allowed %d]", allowed);
        if (peer_ask(&q, &r) == 0 && expect(r.rc, allowed, "aclrtMemImportFromShareableHandle")) {
            if (r.rc2 != 0 || r.rc3 != 0) {
                finding("UNEXPECTED FAILURE", "imported physical memory", "peer map/read %d, free %d", r.rc2, r.rc3);
            }
        }
        aclrtDrvMemHandle mine = NULL;
        callf("aclrtMemImportFromShareableHandle(sh, %d, &h2) [own export]", cur_dev());
        rc = ret(aclrtMemImportFromShareableHandle(sh, cur_dev(), &mine));
        must_fail(rc, "an import of this process's own export");
        if (rc == 0) {
            (void)aclrtFreePhysical(mine);
        }
    }
    callf("aclrtFreePhysical(h) [shared]");
    must_pass(ret(aclrtFreePhysical(h)), 0);
}

static void op_bare_tgid(void)
{
    int32_t pid = -1;
    int null = one_in(6);
    callf("aclrtDeviceGetBareTgid(%s)", null ? "NULL" : "&pid");
    aclError rc = ret(aclrtDeviceGetBareTgid(null ? NULL : &pid));
    if (null) {
        must_fail(rc, "a NULL pid");
    } else if (must_pass(rc, 0), rc == 0 && pid != getpid()) {
        finding("WRONG VALUE", "aclrtDeviceGetBareTgid", "%d, expected the process id %d", pid, getpid());
    }
}

const struct op ops_ipc_peer[] = {
    {"ipc_mem", 3, op_ipc_mem},     {"ipc_notify", 2, op_ipc_notify}, {"ipc_event", 2, op_ipc_event},
    {"ipc_share", 2, op_ipc_share}, {"bare_tgid", 1, op_bare_tgid},   {NULL, 0, NULL},
};
