/*
 * 48_snapshot: process snapshots.
 *
 * On the default chip (Atlas A2), with devices 0 and 1 set: the state
 * machine of aclrtSnapShotProcessLock / Backup / Restore / Unlock and its
 * refusals; the callbacks of each stage, once per open device, in the
 * documented order, and a failing one failing its call; calls that wait
 * while the process is locked (an allocation, a copy, a kernel launch)
 * and run once it is unlocked; the bytes of device memory brought back
 * by a restore. The simulated device memory is host memory, which the
 * program overwrites directly to play the device memory lost between a
 * backup and a restore.
 *
 * Usage: 48_snapshot <kernel binary with add_scalar>
 *
 * On an Atlas 200I/500 A2: the snapshot calls refused.
 */
#include <pthread.h>
#include <unistd.h>
#include "common.h"

static char trail[512];

static void note(const char *s)
{
    size_t n = strlen(trail);
    snprintf(trail + n, sizeof trail - n, "%s%s", n ? " " : "", s);
}

/* on_stage notes its tag (args) and the device; fail_with makes it
 * return that instead of 0 once. */
static uint32_t fail_with;

static uint32_t on_stage(int32_t dev, void *args)
{
    char s[32];
    snprintf(s, sizeof s, "%s%d", (const char *)args, dev);
    note(s);
    uint32_t r = fail_with;
    fail_with = 0;
    return r;
}

static uint32_t other(int32_t dev, void *args)
{
    (void)dev;
    (void)args;
    return 0;
}

static void refusals(void)
{
    int pid = getpid();
    static int word;
    aclrtSnapShotBackupArgs ba = {0};
    aclrtSnapShotRestoreArgs ra = {0};
    REFUSE(aclrtSnapShotProcessLock(pid + 1, NULL), ACL_ERROR_INVALID_PARAM, "this process's id",
           "aclrtSnapShotProcessLock of another process");
    REFUSE(aclrtSnapShotProcessLock(pid, &word), ACL_ERROR_INVALID_PARAM, "reserve",
           "aclrtSnapShotProcessLock with reserve not NULL");
    REFUSE(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "RUNNING",
           "aclrtSnapShotProcessUnlock of a running process");
    REFUSE(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "RUNNING",
           "aclrtSnapShotProcessBackup of a running process");
    REFUSE(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "RUNNING",
           "aclrtSnapShotProcessRestore of a running process");
    CHECK(aclrtSnapShotProcessLock(pid, NULL));
    REFUSE(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED, "LOCKED",
           "aclrtSnapShotProcessLock of a locked process");
    REFUSE(aclrtSnapShotProcessBackup(pid, &ba), ACL_ERROR_INVALID_PARAM, "args",
           "aclrtSnapShotProcessBackup with args not NULL");
    REFUSE(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "LOCKED",
           "aclrtSnapShotProcessRestore of a process not backed up");
    CHECK(aclrtSnapShotProcessBackup(pid, NULL));
    REFUSE(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "BACKED_UP",
           "aclrtSnapShotProcessBackup of a backed-up process");
    REFUSE(aclrtSnapShotProcessRestore(pid + 1, &ra), ACL_ERROR_INVALID_PARAM, "this process's id",
           "aclrtSnapShotProcessRestore of another process");
    REFUSE(aclrtSnapShotProcessRestore(pid, &ra), ACL_ERROR_INVALID_PARAM, "args",
           "aclrtSnapShotProcessRestore with args not NULL");
    CHECK(aclrtSnapShotProcessUnlock(pid, NULL));
    pass("lock, backup, unlock from BACKED_UP: the process runs again");

    REFUSE(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)6, on_stage, NULL), ACL_ERROR_RT_PARAM_INVALID, "stage 6",
           "aclrtSnapShotCallbackRegister of stage 6");
    REFUSE(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "NULL",
           "aclrtSnapShotCallbackRegister of NULL");
    CHECK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, other, NULL));
    REFUSE(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, other, &word), ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED,
           "already", "aclrtSnapShotCallbackRegister of a callback registered for the stage");
    CHECK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, other, NULL)); /* another stage: allowed */
    CHECK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, other));
    CHECK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_UNLOCK_POST, other));
    REFUSE(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, other), ACL_ERROR_RT_PARAM_INVALID, "not registered",
           "aclrtSnapShotCallbackUnregister of a callback not registered");
    REFUSE(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)-1, other), ACL_ERROR_RT_PARAM_INVALID, "stage -1",
           "aclrtSnapShotCallbackUnregister of stage -1");
}

static void callbacks(void)
{
    static char tags[6][2] = {"L", "B", "b", "R", "r", "U"};
    int pid = getpid();
    for (int st = ACL_RT_SNAPSHOT_LOCK_PRE; st <= ACL_RT_SNAPSHOT_UNLOCK_POST; st++) {
        CHECK(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)st, on_stage, tags[st]));
    }
    trail[0] = 0;
    CHECK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK(aclrtSnapShotProcessBackup(pid, NULL));
    CHECK(aclrtSnapShotProcessRestore(pid, NULL));
    CHECK(aclrtSnapShotProcessUnlock(pid, NULL));
    EXPECT(strcmp(trail, "L0 L1 B0 B1 b0 b1 R0 R1 r0 r1 U0 U1") == 0,
           "callbacks: each stage in order, once per open device (%s)", trail);

    fail_with = 5;
    REFUSE(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, "returned 5",
           "aclrtSnapShotProcessLock with a LOCK_PRE callback returning 5");
    CHECK(aclrtSnapShotProcessLock(pid, NULL)); /* the failed lock left the process running */
    CHECK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_UNLOCK_POST, on_stage));
    trail[0] = 0;
    fail_with = 7;
    REFUSE(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, "returned 7",
           "aclrtSnapShotProcessBackup with a BACKUP_PRE callback returning 7");
    REFUSE(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "LOCKED",
           "aclrtSnapShotProcessRestore after the failed backup (still LOCKED)");
    CHECK(aclrtSnapShotProcessUnlock(pid, NULL));
    EXPECT(strcmp(trail, "B0") == 0, "the failing callback stopped the backup at its first call, none run after unregistering (%s)",
           trail);
    for (int st = ACL_RT_SNAPSHOT_LOCK_PRE; st < ACL_RT_SNAPSHOT_UNLOCK_POST; st++) {
        CHECK(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)st, on_stage));
    }
}

/* ---- Calls that wait while locked ----------------------------------- */

typedef struct waiter {
    const char *what;
    aclError (*call)(struct waiter *);
    int32_t *dev; /* device words the calls use */
    aclrtFuncHandle add;
    aclrtStream s;
    void *got;
    volatile int done;
    aclError rc;
} waiter;

static aclError do_malloc(waiter *w) { return aclrtMalloc(&w->got, 64, ACL_MEM_MALLOC_NORMAL_ONLY); }

static aclError do_copy(waiter *w)
{
    int32_t v = 40;
    return aclrtMemcpy(w->dev, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE);
}

static aclError do_launch(waiter *w)
{
    struct {
        void *x;
        int64_t k;
        uint64_t n;
    } args = {w->dev + 1, 2, 1};
    return aclrtLaunchKernel(w->add, 1, &args, sizeof args, w->s);
}

static void *run_waiter(void *p)
{
    waiter *w = p;
    CHECK(aclrtSetDevice(0));
    w->rc = w->call(w);
    __atomic_store_n(&w->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void waits(const char *kernels)
{
    int pid = getpid();
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle add = NULL;
    aclrtStream s = NULL;
    int32_t *dev = NULL;
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "add_scalar", &add));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc((void **)&dev, 2 * sizeof *dev, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(dev, 2 * sizeof *dev, 0, 2 * sizeof *dev));
    /* Launched once before, so the launch under the lock is one the
     * direct path would take. */
    struct {
        void *x;
        int64_t k;
        uint64_t n;
    } args = {dev + 1, 1, 1};
    CHECK(aclrtLaunchKernel(add, 1, &args, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));

    waiter ws[] = {
        {.what = "aclrtMalloc", .call = do_malloc},
        {.what = "aclrtMemcpy", .call = do_copy},
        {.what = "aclrtLaunchKernel", .call = do_launch},
    };
    enum { N = sizeof ws / sizeof ws[0] };
    pthread_t th[N];
    CHECK(aclrtSnapShotProcessLock(pid, NULL));
    for (int i = 0; i < N; i++) {
        ws[i].dev = dev;
        ws[i].add = add;
        ws[i].s = s;
        if (pthread_create(&th[i], NULL, run_waiter, &ws[i]) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "no thread for %s", ws[i].what);
        }
    }
    sleep_ms(50);
    for (int i = 0; i < N; i++) {
        EXPECT(!__atomic_load_n(&ws[i].done, __ATOMIC_SEQ_CST), "%s waits while the process is locked", ws[i].what);
    }
    /* Read behind the runtime's back: no copy may run while locked. */
    EXPECT(dev[0] == 0 && dev[1] == 1, "nothing written while locked (words %d %d)", dev[0], dev[1]);
    CHECK(aclrtSnapShotProcessUnlock(pid, NULL));
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        EXPECT(ws[i].rc == ACL_SUCCESS, "%s ran after the unlock (%d)", ws[i].what, ws[i].rc);
    }
    CHECK(aclrtSynchronizeStream(s));
    int32_t got[2];
    CHECK(aclrtMemcpy(got, sizeof got, dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(got[0] == 40 && got[1] == 3, "the copy and the launch wrote their words (%d %d)", got[0], got[1]);
    CHECK(aclrtFree(ws[0].got));
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtBinaryUnLoad(bin));
}

/* ---- Bytes ------------------------------------------------------------ */

static void bytes(void)
{
    enum { SMALL = 100, BIG = 3 << 20 };
    int pid = getpid();
    unsigned char *a = NULL, *b = NULL, *host = malloc(BIG), *back = malloc(BIG);
    if (host == NULL || back == NULL) {
        fail_exit(__FILE__, __LINE__, 0, "no host memory");
    }
    CHECK(aclrtMalloc((void **)&a, SMALL, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMalloc((void **)&b, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < BIG; i++) {
        host[i] = (unsigned char)(i * 7 + 3);
    }
    CHECK(aclrtMemcpy(b, BIG, host, BIG, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtMemcpy(a, SMALL, host, SMALL, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK(aclrtSnapShotProcessBackup(pid, NULL));
    memset(a, 0xEE, SMALL); /* the device memory lost */
    memset(b, 0xEE, BIG);
    CHECK(aclrtSnapShotProcessRestore(pid, NULL));
    CHECK(aclrtSnapShotProcessUnlock(pid, NULL));

    CHECK(aclrtMemcpy(back, SMALL, a, SMALL, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(back, host, SMALL) == 0, "restore: device 0's 100 bytes are back");
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMemcpy(back, BIG, b, BIG, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(back, host, BIG) == 0, "restore: device 1's 3 MiB are back");
    CHECK(aclrtFree(b));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtFree(a));

    /* Unlocking drops the backup: there is nothing left to restore. */
    CHECK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK(aclrtSnapShotProcessBackup(pid, NULL));
    CHECK(aclrtSnapShotProcessUnlock(pid, NULL));
    REFUSE(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "RUNNING",
           "aclrtSnapShotProcessRestore after the unlock (the backup is gone)");
    free(back);
    free(host);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    int pid = getpid();

    /* ---- Atlas A2 ---------------------------------------------------- */
    init_chip("snapshot_a2.json", "Ascend910B1");
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtSetDevice(0));
    refusals();
    callbacks();
    waits(argv[1]);
    bytes();
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* ---- Atlas 200I/500 A2 ------------------------------------------- */
    init_chip("snapshot_310b.json", "Ascend310B1");
    REFUSE(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtSnapShotProcessLock is not supported on Ascend310B1", "aclrtSnapShotProcessLock on an Atlas 200I/500 A2");
    REFUSE(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, other, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtSnapShotCallbackRegister is not supported on Ascend310B1",
           "aclrtSnapShotCallbackRegister on an Atlas 200I/500 A2");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 48_snapshot\n");
    return 0;
}
