package gocann

import "github.com/gocann/gocann/internal/rt"

// ProcState is the snapshot state of the process.
type ProcState = rt.ProcState

// The process states of a snapshot.
const (
	ProcRunning  = rt.ProcRunning  // RUNNING: calls run
	ProcLocked   = rt.ProcLocked   // LOCKED: calls that change device resources or submit work wait
	ProcBackedUp = rt.ProcBackedUp // BACKED_UP: locked, with a backup to restore
)

// SnapStage is the point of a snapshot at which a callback runs.
//
// CANN: aclrtSnapShotStage.
type SnapStage = rt.SnapStage

// The snapshot stages, with CANN's values.
const (
	SnapLockPre     = rt.SnapLockPre     // ACL_RT_SNAPSHOT_LOCK_PRE
	SnapBackupPre   = rt.SnapBackupPre   // ACL_RT_SNAPSHOT_BACKUP_PRE
	SnapBackupPost  = rt.SnapBackupPost  // ACL_RT_SNAPSHOT_BACKUP_POST
	SnapRestorePre  = rt.SnapRestorePre  // ACL_RT_SNAPSHOT_RESTORE_PRE
	SnapRestorePost = rt.SnapRestorePost // ACL_RT_SNAPSHOT_RESTORE_POST
	SnapUnlockPost  = rt.SnapUnlockPost  // ACL_RT_SNAPSHOT_UNLOCK_POST
)

// SnapCallback is called at its stage once for each open device, with the
// device's id; a non-zero result fails the snapshot call with
// ACL_ERROR_SNAPSHOT_CALLBACK_FAILED.
//
// CANN: aclrtSnapShotCallBack.
type SnapCallback = rt.SnapCallback

// SnapshotState reports the process's snapshot state.
//
// CANN: none (the state aclrtSnapShotProcess* move between).
func (r *Runtime) SnapshotState() ProcState { return r.rt.SnapshotState() }

// SnapshotLock locks the process for a snapshot: from now until
// SnapshotUnlock, calls that set or reset devices, allocate, free or copy
// memory, create or destroy contexts, streams, events and notifies, or
// submit tasks wait, as CANN's runtime blocks them. The LOCK_PRE callbacks
// run first; a process that is not RUNNING is refused with
// ACL_ERROR_SNAPSHOT_LOCK_FAILED. A goroutine that makes one of those
// calls while it holds the lock waits for ever.
//
// CANN: aclrtSnapShotProcessLock.
func (r *Runtime) SnapshotLock() error {
	const op = "Runtime.SnapshotLock (aclrtSnapShotProcessLock)"
	if err := r.require("aclrtSnapShotProcessLock"); err != nil {
		return err
	}
	return wrap(op, r.rt.SnapshotLock())
}

// SnapshotUnlock returns a LOCKED or BACKED_UP process to RUNNING,
// releasing the waiting calls, then runs the UNLOCK_POST callbacks. A
// RUNNING process is refused with ACL_ERROR_SNAPSHOT_UNLOCK_FAILED.
//
// CANN: aclrtSnapShotProcessUnlock.
func (r *Runtime) SnapshotUnlock() error {
	const op = "Runtime.SnapshotUnlock (aclrtSnapShotProcessUnlock)"
	if err := r.require("aclrtSnapShotProcessUnlock"); err != nil {
		return err
	}
	return wrap(op, r.rt.SnapshotUnlock())
}

// SnapshotBackup saves the bytes of every live allocation of every open
// device on the host, after the devices' tasks finish, between the
// BACKUP_PRE and BACKUP_POST callbacks; the process becomes BACKED_UP.
// Only a LOCKED process is backed up: otherwise
// ACL_ERROR_SNAPSHOT_BACKUP_FAILED.
//
// CANN: aclrtSnapShotProcessBackup.
func (r *Runtime) SnapshotBackup() error {
	const op = "Runtime.SnapshotBackup (aclrtSnapShotProcessBackup)"
	if err := r.require("aclrtSnapShotProcessBackup"); err != nil {
		return err
	}
	return wrap(op, r.rt.SnapshotBackup())
}

// SnapshotRestore writes the last backup back into device memory between
// the RESTORE_PRE and RESTORE_POST callbacks; the process becomes LOCKED.
// Only a BACKED_UP process is restored, and only while every allocation
// backed up is still there: otherwise ACL_ERROR_SNAPSHOT_RESTORE_FAILED.
//
// CANN: aclrtSnapShotProcessRestore.
func (r *Runtime) SnapshotRestore() error {
	const op = "Runtime.SnapshotRestore (aclrtSnapShotProcessRestore)"
	if err := r.require("aclrtSnapShotProcessRestore"); err != nil {
		return err
	}
	return wrap(op, r.rt.SnapshotRestore())
}

// RegisterSnapCallback registers fn for stage, identified by key
// (non-zero; C passes the function's address). Callbacks of a stage run
// in registration order. A stage out of range, a zero key or a nil fn is
// ACL_ERROR_RT_PARAM_INVALID; a key already registered for the stage is
// ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED.
//
// CANN: aclrtSnapShotCallbackRegister.
func (r *Runtime) RegisterSnapCallback(stage SnapStage, key uintptr, fn SnapCallback) error {
	const op = "Runtime.RegisterSnapCallback (aclrtSnapShotCallbackRegister)"
	if err := r.require("aclrtSnapShotCallbackRegister"); err != nil {
		return err
	}
	return wrap(op, r.rt.RegisterSnapCallback(stage, key, fn))
}

// UnregisterSnapCallback removes the callback key of stage; one not
// registered there is ACL_ERROR_RT_PARAM_INVALID.
//
// CANN: aclrtSnapShotCallbackUnregister.
func (r *Runtime) UnregisterSnapCallback(stage SnapStage, key uintptr) error {
	const op = "Runtime.UnregisterSnapCallback (aclrtSnapShotCallbackUnregister)"
	if err := r.require("aclrtSnapShotCallbackUnregister"); err != nil {
		return err
	}
	return wrap(op, r.rt.UnregisterSnapCallback(stage, key))
}

// SetSnapshotHook installs fn, told under every change between running
// and locked (LOCKED or BACKED_UP) whether the process is now locked; nil
// removes it. The C ABI's launch path, which queues without the runtime,
// declines while locked through it.
//
// CANN: none.
func (x RawRuntime) SetSnapshotHook(fn func(locked bool)) { x.r.rt.SetSnapshotHook(fn) }
