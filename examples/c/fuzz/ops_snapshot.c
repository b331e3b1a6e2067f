/*
 * Process snapshots: lock and unlock round trips, the refusals of the
 * state machine and of bad arguments, and snapshot callbacks. A backup
 * waits for every task of the process, and the fuzzer's streams may wait
 * for ever on a notify never recorded, so no backup or restore that
 * could succeed is made; the process is never left locked, which would
 * make the next call wait.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

/* has_snapshot: the chip offers the snapshot calls (not the Atlas
 * 200I/500 A2 nor the Ascend 950DT). */
static int has_snapshot(void)
{
    const char *soc = aclrtGetSocName();
    return soc == NULL || (strncmp(soc, "Ascend310B", 10) != 0 && strncmp(soc, "Ascend950DT", 11) != 0);
}

static volatile int snap_calls;

static uint32_t count_snap(int32_t dev, void *args)
{
    (void)dev;
    (void)args;
    snap_calls++;
    return 0;
}

static int lock_pre_kept; /* count_snap is registered for LOCK_PRE */

/* A lock, maybe a refused restore or second lock, and the unlock. */
static void op_snap_cycle(void)
{
    int pid = getpid();
    int before = snap_calls;
    callf("aclrtSnapShotProcessLock(self, NULL)");
    aclError rc = ret(aclrtSnapShotProcessLock(pid, NULL));
    if (!has_snapshot()) {
        must_fail(rc, "no snapshots on the chip");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    if (lock_pre_kept && fz.inited && snap_calls == before) {
        finding("WRONG STATE", "snapshot", "the LOCK_PRE callback did not run");
    }
    if (one_in(2)) {
        callf("aclrtSnapShotProcessRestore(self, NULL) [LOCKED, not backed up]");
        must_fail(ret(aclrtSnapShotProcessRestore(pid, NULL)), "a process not backed up");
    }
    if (one_in(2)) {
        callf("aclrtSnapShotProcessLock(self, NULL) [LOCKED]");
        must_fail(ret(aclrtSnapShotProcessLock(pid, NULL)), "a locked process");
    }
    callf("aclrtSnapShotProcessUnlock(self, NULL)");
    must_pass(ret(aclrtSnapShotProcessUnlock(pid, NULL)), 0);
}

/* Calls refused whatever the chip: another process, a reserved pointer
 * not NULL, or a running process's unlock, backup or restore. */
static void op_snap_refused(void)
{
    int pid = getpid();
    static aclrtSnapShotBackupArgs ba;
    static aclrtSnapShotRestoreArgs ra;
    int other = one_in(2);
    int p = other ? pid + 1 + (int)below(1000) : pid;
    aclError rc;
    switch (below(4)) {
    case 0:
        callf("aclrtSnapShotProcessLock(%s, &ba)", other ? "other" : "self");
        rc = ret(aclrtSnapShotProcessLock(p, &ba));
        break;
    case 1:
        callf("aclrtSnapShotProcessUnlock(%s, NULL) [RUNNING]", other ? "other" : "self");
        rc = ret(aclrtSnapShotProcessUnlock(p, NULL));
        break;
    case 2:
        callf("aclrtSnapShotProcessBackup(%s, %s) [RUNNING]", other ? "other" : "self", other ? "NULL" : "&ba");
        rc = ret(aclrtSnapShotProcessBackup(p, other ? NULL : &ba));
        break;
    default:
        callf("aclrtSnapShotProcessRestore(%s, %s) [RUNNING]", other ? "other" : "self", other ? "NULL" : "&ra");
        rc = ret(aclrtSnapShotProcessRestore(p, other ? NULL : &ra));
    }
    must_fail(rc, "another process, a reserved argument or a running process");
}

/* Register count_snap for a stage (maybe one out of range), once more
 * (which must fail), and unregister it, or keep LOCK_PRE's for a while. */
static void op_snap_callback(void)
{
    static const int stages[] = {0, 1, 2, 3, 4, 5, 0, 5, -1, 6, 99};
    int st = stages[below(ARRAY_LEN(stages))];
    int valid = st >= 0 && st <= 5;
    aclError rc;
    if (st == 0 && lock_pre_kept) {
        callf("aclrtSnapShotCallbackUnregister(LOCK_PRE, count) [kept]");
        rc = ret(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, count_snap));
        if (has_snapshot()) {
            must_pass(rc, 0);
            lock_pre_kept = rc != 0;
        }
        return;
    }
    callf("aclrtSnapShotCallbackRegister(%d, count, NULL)", st);
    rc = ret(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)st, count_snap, NULL));
    if (!valid || !has_snapshot()) {
        must_fail(rc, !valid ? "a stage out of range" : "no snapshots on the chip");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    callf("aclrtSnapShotCallbackRegister(%d, count, NULL) [again]", st);
    must_fail(ret(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)st, count_snap, NULL)), "a callback registered");
    if (st == 0 && one_in(2)) {
        lock_pre_kept = 1;
        return;
    }
    callf("aclrtSnapShotCallbackUnregister(%d, count)", st);
    must_pass(ret(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)st, count_snap)), 0);
    callf("aclrtSnapShotCallbackUnregister(%d, count) [again]", st);
    must_fail(ret(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)st, count_snap)), "a callback not registered");
}

const struct op ops_snapshot[] = {
    {"snap_cycle", 2, op_snap_cycle},
    {"snap_refused", 1, op_snap_refused},
    {"snap_callback", 1, op_snap_callback},
    {NULL, 0, NULL},
};
