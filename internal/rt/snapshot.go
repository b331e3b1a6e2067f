package rt

import (
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// ProcState is the snapshot state of the process (CANN's
// RUNNING / LOCKED / BACKED_UP).
type ProcState int32

// The process states.
const (
	ProcRunning ProcState = iota
	ProcLocked
	ProcBackedUp
)

func (s ProcState) String() string {
	switch s {
	case ProcRunning:
		return "RUNNING"
	case ProcLocked:
		return "LOCKED"
	case ProcBackedUp:
		return "BACKED_UP"
	}
	return "UNKNOWN"
}

// snapshot is the process's snapshot state. While the state is not
// RUNNING the calls that change device resources or submit work wait in
// waitUnlocked until aclrtSnapShotProcessUnlock, as CANN's runtime blocks
// them; the only cost on those paths while running is one atomic load.
type snapshot struct {
	state atomic.Int32 // ProcState

	// op serializes lock, unlock, backup and restore.
	op sync.Mutex
	// mu guards released and saved.
	mu       sync.Mutex
	released chan struct{} // closed by the unlock that ends the current lock
	saved    []savedAlloc  // the last backup's device memory

	// hook, if set, is told of every change between running and not.
	hook atomic.Pointer[func(locked bool)]

	cbMu sync.Mutex
	cbs  [NumSnapStages][]snapHook
}

// savedAlloc is one device allocation's bytes, saved on the host.
type savedAlloc struct {
	hd    hal.Device
	a     hal.Allocation
	bytes []byte
}

// waitUnlocked blocks the caller while the process is locked for a
// snapshot. Running, it is one atomic load.
func (r *Runtime) waitUnlocked() {
	if r.snap.state.Load() != int32(ProcRunning) {
		r.snap.wait()
	}
}

func (s *snapshot) wait() {
	for {
		s.mu.Lock()
		ch := s.released
		locked := s.state.Load() != int32(ProcRunning)
		s.mu.Unlock()
		if !locked || ch == nil {
			return
		}
		<-ch
	}
}

// SnapshotState reports the process's snapshot state.
func (r *Runtime) SnapshotState() ProcState { return ProcState(r.snap.state.Load()) }

// SetSnapshotHook installs the function told, under the state change,
// whether the process is now locked (LOCKED or BACKED_UP) or running.
func (r *Runtime) SetSnapshotHook(fn func(locked bool)) {
	if fn == nil {
		r.snap.hook.Store(nil)
		return
	}
	r.snap.hook.Store(&fn)
}

func (s *snapshot) setState(st ProcState) {
	s.mu.Lock()
	was := ProcState(s.state.Load())
	s.state.Store(int32(st))
	switch {
	case was == ProcRunning && st != ProcRunning:
		s.released = make(chan struct{})
	case was != ProcRunning && st == ProcRunning:
		if s.released != nil {
			close(s.released)
			s.released = nil
		}
		s.saved = nil
	}
	s.mu.Unlock()
	if h := s.hook.Load(); h != nil && (was == ProcRunning) != (st == ProcRunning) {
		(*h)(st != ProcRunning)
	}
}

// forceRunning ends any lock without callbacks (aclFinalize).
func (s *snapshot) forceRunning() {
	s.op.Lock()
	defer s.op.Unlock()
	if ProcState(s.state.Load()) != ProcRunning {
		s.setState(ProcRunning)
	}
}

// SnapshotLock locks the process (aclrtSnapShotProcessLock): the
// LOCK_PRE callbacks run first, then a process that is not RUNNING is
// refused, as in CANN.
func (r *Runtime) SnapshotLock() error {
	s := &r.snap
	s.op.Lock()
	defer s.op.Unlock()
	if err := r.runSnapCallbacks(SnapLockPre); err != nil {
		return err
	}
	if st := ProcState(s.state.Load()); st != ProcRunning {
		return rterr.Errorf(rterr.KindSnapshotLock, "the process is %s, expected RUNNING: it is already locked for a snapshot", st)
	}
	s.setState(ProcLocked)
	r.log.Info("process locked for a snapshot")
	return nil
}

// SnapshotUnlock unlocks the process (aclrtSnapShotProcessUnlock),
// releasing the calls waiting for it, then runs the UNLOCK_POST callbacks.
func (r *Runtime) SnapshotUnlock() error {
	s := &r.snap
	s.op.Lock()
	defer s.op.Unlock()
	if st := ProcState(s.state.Load()); st == ProcRunning {
		return rterr.Errorf(rterr.KindSnapshotUnlock, "the process is RUNNING, expected LOCKED or BACKED_UP: call aclrtSnapShotProcessLock first")
	}
	s.setState(ProcRunning)
	r.log.Info("process unlocked after a snapshot")
	return r.runSnapCallbacks(SnapUnlockPost)
}

// SnapshotBackup saves the bytes of every live device allocation of every
// open device on the host (aclrtSnapShotProcessBackup), after their tasks
// finish. Only a LOCKED process is backed up; it becomes BACKED_UP.
func (r *Runtime) SnapshotBackup() error {
	s := &r.snap
	s.op.Lock()
	defer s.op.Unlock()
	if st := ProcState(s.state.Load()); st != ProcLocked {
		return rterr.Errorf(rterr.KindSnapshotBackup, "the process is %s, expected LOCKED: call aclrtSnapShotProcessLock first (a backed-up process is restored or unlocked before the next backup)", st)
	}
	if err := r.runSnapCallbacks(SnapBackupPre); err != nil {
		return err
	}
	saved, err := r.saveDevices()
	if err != nil {
		return err
	}
	if err := r.runSnapCallbacks(SnapBackupPost); err != nil {
		return err
	}
	s.mu.Lock()
	s.saved = saved
	s.mu.Unlock()
	s.setState(ProcBackedUp)
	return nil
}

// SnapshotRestore writes the last backup back into device memory
// (aclrtSnapShotProcessRestore). Only a BACKED_UP process is restored; it
// becomes LOCKED.
func (r *Runtime) SnapshotRestore() error {
	s := &r.snap
	s.op.Lock()
	defer s.op.Unlock()
	if st := ProcState(s.state.Load()); st != ProcBackedUp {
		return rterr.Errorf(rterr.KindSnapshotRestore, "the process is %s, expected BACKED_UP: call aclrtSnapShotProcessBackup first", st)
	}
	if err := r.runSnapCallbacks(SnapRestorePre); err != nil {
		return err
	}
	s.mu.Lock()
	saved := s.saved
	s.mu.Unlock()
	if err := r.restoreDevices(saved); err != nil {
		return err
	}
	if err := r.runSnapCallbacks(SnapRestorePost); err != nil {
		return err
	}
	s.mu.Lock()
	s.saved = nil
	s.mu.Unlock()
	s.setState(ProcLocked)
	return nil
}
