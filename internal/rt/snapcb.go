package rt

import "github.com/gocann/gocann/internal/rterr"

// SnapStage is a point of a snapshot at which callbacks run
// (aclrtSnapShotStage).
type SnapStage int32

// The stages, with CANN's values.
const (
	SnapLockPre     SnapStage = iota // before the lock
	SnapBackupPre                    // before the backup
	SnapBackupPost                   // after the backup
	SnapRestorePre                   // before the restore
	SnapRestorePost                  // after the restore
	SnapUnlockPost                   // after the unlock
	NumSnapStages
)

var snapStageNames = [NumSnapStages]string{
	"ACL_RT_SNAPSHOT_LOCK_PRE", "ACL_RT_SNAPSHOT_BACKUP_PRE", "ACL_RT_SNAPSHOT_BACKUP_POST",
	"ACL_RT_SNAPSHOT_RESTORE_PRE", "ACL_RT_SNAPSHOT_RESTORE_POST", "ACL_RT_SNAPSHOT_UNLOCK_POST",
}

func (s SnapStage) String() string {
	if s >= 0 && s < NumSnapStages {
		return snapStageNames[s]
	}
	return "UNKNOWN"
}

// SnapCallback is called with a device id at its stage, once per open
// device; a non-zero result fails the snapshot call.
type SnapCallback func(dev int32) uint32

// snapHook is one registered callback; key identifies it (a C function's
// address).
type snapHook struct {
	key uintptr
	fn  SnapCallback
}

func checkSnapStage(stage SnapStage, key uintptr, fn SnapCallback) error {
	if stage < 0 || stage >= NumSnapStages {
		return rterr.Errorf(rterr.KindInvalidParam, "stage %d is invalid, expected 0..%d (aclrtSnapShotStage)", stage, NumSnapStages-1)
	}
	if key == 0 || fn == nil {
		return rterr.Errorf(rterr.KindInvalidParam, "callback is NULL, expected a function")
	}
	return nil
}

// RegisterSnapCallback registers fn, identified by key, for stage
// (aclrtSnapShotCallbackRegister). A key registers once per stage.
func (r *Runtime) RegisterSnapCallback(stage SnapStage, key uintptr, fn SnapCallback) error {
	if err := checkSnapStage(stage, key, fn); err != nil {
		return err
	}
	s := &r.snap
	s.cbMu.Lock()
	defer s.cbMu.Unlock()
	for _, h := range s.cbs[stage] {
		if h.key == key {
			return rterr.Errorf(rterr.KindSnapshotRegister, "callback %#x is already registered for stage %s and cannot be registered again", key, stage)
		}
	}
	s.cbs[stage] = append(s.cbs[stage], snapHook{key, fn})
	return nil
}

// UnregisterSnapCallback removes the callback key of stage
// (aclrtSnapShotCallbackUnregister).
func (r *Runtime) UnregisterSnapCallback(stage SnapStage, key uintptr) error {
	if err := checkSnapStage(stage, key, func(int32) uint32 { return 0 }); err != nil {
		return err
	}
	s := &r.snap
	s.cbMu.Lock()
	defer s.cbMu.Unlock()
	for i, h := range s.cbs[stage] {
		if h.key == key {
			s.cbs[stage] = append(s.cbs[stage][:i:i], s.cbs[stage][i+1:]...)
			return nil
		}
	}
	return rterr.Errorf(rterr.KindInvalidParam, "callback %#x is not registered for stage %s", key, stage)
}

// runSnapCallbacks calls stage's callbacks in registration order, each for
// every open device in id order, outside the registration lock. The first
// non-zero result ends the stage.
func (r *Runtime) runSnapCallbacks(stage SnapStage) error {
	s := &r.snap
	s.cbMu.Lock()
	hooks := append([]snapHook(nil), s.cbs[stage]...)
	s.cbMu.Unlock()
	if len(hooks) == 0 {
		return nil
	}
	devs := r.openDevices()
	for _, h := range hooks {
		for _, d := range devs {
			if rc := h.fn(int32(d.id)); rc != 0 {
				return rterr.Errorf(rterr.KindSnapshotCallback, "the %s callback %#x returned %d for device %d", stage, h.key, rc, d.id)
			}
		}
	}
	return nil
}
