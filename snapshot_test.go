package gocann_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim"
)

func TestSnapshotStateMachine(t *testing.T) {
	e := setup(t)
	r := e.r
	wantErr(t, r.SnapshotUnlock(), gocann.CodeSnapshotUnlockFailed, "RUNNING, expected LOCKED or BACKED_UP")
	wantErr(t, r.SnapshotBackup(), gocann.CodeSnapshotBackupFailed, "RUNNING, expected LOCKED")
	wantErr(t, r.SnapshotRestore(), gocann.CodeSnapshotRestoreFailed, "RUNNING, expected BACKED_UP")
	check(t, r.SnapshotLock())
	if st := r.SnapshotState(); st != gocann.ProcLocked {
		t.Fatalf("state after Lock = %v, want LOCKED", st)
	}
	wantErr(t, r.SnapshotLock(), gocann.CodeSnapshotLockFailed, "LOCKED, expected RUNNING")
	wantErr(t, r.SnapshotRestore(), gocann.CodeSnapshotRestoreFailed, "LOCKED, expected BACKED_UP")
	check(t, r.SnapshotBackup())
	if st := r.SnapshotState(); st != gocann.ProcBackedUp {
		t.Fatalf("state after Backup = %v, want BACKED_UP", st)
	}
	wantErr(t, r.SnapshotBackup(), gocann.CodeSnapshotBackupFailed, "BACKED_UP, expected LOCKED")
	wantErr(t, r.SnapshotLock(), gocann.CodeSnapshotLockFailed, "BACKED_UP, expected RUNNING")
	check(t, r.SnapshotRestore())
	if st := r.SnapshotState(); st != gocann.ProcLocked {
		t.Fatalf("state after Restore = %v, want LOCKED", st)
	}
	check(t, r.SnapshotBackup()) // backed up again from LOCKED
	check(t, r.SnapshotUnlock()) // unlocked from BACKED_UP
	if st := r.SnapshotState(); st != gocann.ProcRunning {
		t.Fatalf("state after Unlock = %v, want RUNNING", st)
	}
	wantErr(t, r.SnapshotRestore(), gocann.CodeSnapshotRestoreFailed, "RUNNING")
	check(t, r.SnapshotLock())
	check(t, r.SnapshotUnlock())
}

func TestSnapshotLockBlocksCallsUntilUnlock(t *testing.T) {
	e := setup(t)
	p := malloc(t, e.c, 64)
	q := malloc(t, e.c, 64) // freed while the others use p: after unlock they run in any order
	check(t, e.r.SnapshotLock())
	calls := []struct {
		name string
		fn   func() error
	}{
		{"Malloc", func() error { _, err := e.c.Malloc(64, gocann.NormalOnly); return err }},
		{"Free", func() error { return e.c.Free(q) }},
		{"CopyToDevice", func() error { return e.c.CopyToDevice(p, []byte{1}) }},
		{"NewStream", func() error { _, err := e.c.NewStream(); return err }},
		{"NewEvent", func() error { _, err := e.c.NewEvent(0); return err }},
		{"NewNotify", func() error { _, err := e.c.NewNotify(); return err }},
		{"Memset", func() error { return e.s.Memset(p, 7, 8) }},
		{"SetDevice", func() error { _, err := e.r.SetDevice(0); return err }},
	}
	done := make([]chan error, len(calls))
	for i, c := range calls {
		done[i] = make(chan error, 1)
		go func() { done[i] <- c.fn() }()
	}
	time.Sleep(30 * time.Millisecond)
	for i, c := range calls {
		select {
		case err := <-done[i]:
			t.Errorf("%s returned (%v) while the process is locked, want it to wait", c.name, err)
		default:
		}
	}
	check(t, e.r.SnapshotUnlock())
	for i, c := range calls {
		select {
		case err := <-done[i]:
			if err != nil {
				t.Errorf("%s after unlock: %v", c.name, err)
			}
		case <-time.After(long):
			t.Fatalf("%s still waits after unlock", c.name)
		}
	}
}

// recordingBackend is the simulator, remembering the devices it opened so
// a test can write their memory behind the runtime's back.
type recordingBackend struct {
	hal.Backend
	mu   sync.Mutex
	devs map[int]hal.Device
}

func (b *recordingBackend) Open(id int) (hal.Device, error) {
	d, err := b.Backend.Open(id)
	if err == nil {
		b.mu.Lock()
		b.devs[id] = d
		b.mu.Unlock()
	}
	return d, err
}

func (b *recordingBackend) scribble(t *testing.T, dev int, addr gocann.DevPtr, n int) {
	t.Helper()
	b.mu.Lock()
	d := b.devs[dev]
	b.mu.Unlock()
	junk := bytes.Repeat([]byte{0xEE}, n)
	check(t, d.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(uint64(addr)), Src: hal.HostLoc(unsafe.Pointer(&junk[0])), Size: uint64(n)}))
}

func TestSnapshotBackupRestoreBytesOnEveryDevice(t *testing.T) {
	rb := &recordingBackend{devs: make(map[int]hal.Device)}
	r, err := gocann.Open(gocann.WithBackend(func(gocann.Config) (hal.Backend, error) {
		b, err := sim.New(sim.Config{Devices: 2, Profile: hal.Props{HBMSize: 1 << 30}})
		rb.Backend = b
		return rb, err
	}))
	check(t, err)
	t.Cleanup(func() { check(t, r.Close()) })
	type buf struct {
		dev  int
		c    *gocann.Context
		p    gocann.DevPtr
		want []byte
	}
	var bufs []buf
	for dev := range 2 {
		d, err := r.SetDevice(dev)
		check(t, err)
		c, err := d.Context()
		check(t, err)
		for i, n := range []int{100, 3 << 20} {
			want := make([]byte, n)
			for j := range want {
				want[j] = byte(j*7 + i + 13*dev)
			}
			p := malloc(t, c, int64(n))
			check(t, c.CopyToDevice(p, want))
			bufs = append(bufs, buf{dev, c, p, want})
		}
	}
	check(t, r.SnapshotLock())
	check(t, r.SnapshotBackup())
	for _, b := range bufs {
		rb.scribble(t, b.dev, b.p, len(b.want))
	}
	check(t, r.SnapshotRestore())
	check(t, r.SnapshotUnlock())
	for _, b := range bufs {
		got := make([]byte, len(b.want))
		check(t, b.c.CopyFromDevice(got, b.p))
		if !bytes.Equal(got, b.want) {
			t.Errorf("device %d, %d bytes at %#x: restored bytes differ from the backup", b.dev, len(b.want), uint64(b.p))
		}
	}
}

func TestSnapshotRestoreRefusedWhenAnAllocationIsGone(t *testing.T) {
	// Memory that went away after the backup (here freed on the device
	// itself, as a call already past the lock could) fails the restore,
	// which then writes nothing.
	rb := &recordingBackend{devs: make(map[int]hal.Device)}
	r, err := gocann.Open(gocann.WithBackend(func(gocann.Config) (hal.Backend, error) {
		b, err := sim.New(sim.Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30}})
		rb.Backend = b
		return rb, err
	}))
	check(t, err)
	t.Cleanup(func() { check(t, r.Close()) })
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	p, q := malloc(t, c, 64), malloc(t, c, 64)
	check(t, c.CopyToDevice(q, []byte{42}))
	check(t, r.SnapshotLock())
	check(t, r.SnapshotBackup())
	rb.scribble(t, 0, q, 1)
	hd := rb.devs[0]
	a, ok := hd.Lookup(uint64(p))
	if !ok {
		t.Fatal("the allocation is not on the device")
	}
	check(t, hd.Free(a.Addr, a.Tag))
	wantErr(t, r.SnapshotRestore(), gocann.CodeSnapshotRestoreFailed, fmt.Sprintf("allocation of %d bytes at %#x that was backed up is gone", a.Size, a.Addr))
	if st := r.SnapshotState(); st != gocann.ProcBackedUp {
		t.Errorf("state after a failed restore = %v, want BACKED_UP", st)
	}
	check(t, r.SnapshotUnlock())
	got := make([]byte, 1)
	check(t, c.CopyFromDevice(got, q))
	if got[0] != 0xEE {
		t.Errorf("a failed restore wrote %#x back, want nothing written", got[0])
	}
}

func TestSnapshotCallbacksRunInOrderPerOpenDevice(t *testing.T) {
	r := newRuntime(t, `{"simulator":{"devices":3,"hbm_size":1073741824}}`)
	for _, id := range []int{0, 2} {
		_, err := r.SetDevice(id)
		check(t, err)
	}
	var rec recorder
	for stage := gocann.SnapLockPre; stage <= gocann.SnapUnlockPost; stage++ {
		for _, k := range []uintptr{1, 2} {
			check(t, r.RegisterSnapCallback(stage, k, func(dev int32) uint32 {
				rec.add(fmt.Sprintf("%v/%d/dev%d", stage, k, dev))
				return 0
			}))
		}
	}
	check(t, r.SnapshotLock())
	check(t, r.SnapshotBackup())
	check(t, r.SnapshotRestore())
	check(t, r.SnapshotUnlock())
	var want []string
	for stage := gocann.SnapLockPre; stage <= gocann.SnapUnlockPost; stage++ {
		for _, k := range []int{1, 2} {
			for _, dev := range []int{0, 2} {
				want = append(want, fmt.Sprintf("%v/%d/dev%d", stage, k, dev))
			}
		}
	}
	if got := rec.String(); got != strings.Join(want, ",") {
		t.Errorf("callbacks ran as\n %s\nwant\n %s", got, strings.Join(want, ","))
	}
}

func TestSnapshotCallbackFailureStopsTheCall(t *testing.T) {
	e := setup(t)
	r := e.r
	var ran []string
	check(t, r.RegisterSnapCallback(gocann.SnapLockPre, 1, func(int32) uint32 { ran = append(ran, "lock1"); return 5 }))
	check(t, r.RegisterSnapCallback(gocann.SnapLockPre, 2, func(int32) uint32 { ran = append(ran, "lock2"); return 0 }))
	wantErr(t, r.SnapshotLock(), gocann.CodeSnapshotCallbackFailed, "ACL_RT_SNAPSHOT_LOCK_PRE callback 0x1 returned 5 for device 0")
	if st := r.SnapshotState(); st != gocann.ProcRunning || len(ran) != 1 {
		t.Fatalf("after a failed LOCK_PRE callback: state %v, ran %v; want RUNNING and only the first", st, ran)
	}
	check(t, r.UnregisterSnapCallback(gocann.SnapLockPre, 1))
	check(t, r.RegisterSnapCallback(gocann.SnapBackupPost, 3, func(int32) uint32 { return 1 }))
	check(t, r.SnapshotLock())
	wantErr(t, r.SnapshotBackup(), gocann.CodeSnapshotCallbackFailed, "ACL_RT_SNAPSHOT_BACKUP_POST")
	if st := r.SnapshotState(); st != gocann.ProcLocked {
		t.Errorf("after a failed BACKUP_POST callback the state is %v, want LOCKED", st)
	}
	check(t, r.RegisterSnapCallback(gocann.SnapUnlockPost, 4, func(int32) uint32 { return 2 }))
	wantErr(t, r.SnapshotUnlock(), gocann.CodeSnapshotCallbackFailed, "ACL_RT_SNAPSHOT_UNLOCK_POST")
	if st := r.SnapshotState(); st != gocann.ProcRunning {
		t.Errorf("an UNLOCK_POST callback's failure leaves %v, want RUNNING (it runs after the unlock)", st)
	}
}

func TestSnapshotCallbackRegistrationRefusals(t *testing.T) {
	r := newRuntime(t, smallConfig)
	fn := func(int32) uint32 { return 0 }
	wantErr(t, r.RegisterSnapCallback(6, 1, fn), gocann.CodeRTParamInvalid, "stage 6 is invalid, expected 0..5")
	wantErr(t, r.RegisterSnapCallback(-1, 1, fn), gocann.CodeRTParamInvalid, "stage -1 is invalid")
	wantErr(t, r.RegisterSnapCallback(gocann.SnapLockPre, 0, fn), gocann.CodeRTParamInvalid, "callback is NULL")
	wantErr(t, r.RegisterSnapCallback(gocann.SnapLockPre, 1, nil), gocann.CodeRTParamInvalid, "callback is NULL")
	check(t, r.RegisterSnapCallback(gocann.SnapLockPre, 1, fn))
	wantErr(t, r.RegisterSnapCallback(gocann.SnapLockPre, 1, fn), gocann.CodeSnapshotRegisterCallbackFailed, "already registered for stage ACL_RT_SNAPSHOT_LOCK_PRE")
	check(t, r.RegisterSnapCallback(gocann.SnapBackupPre, 1, fn)) // another stage takes it
	wantErr(t, r.UnregisterSnapCallback(gocann.SnapUnlockPost, 1), gocann.CodeRTParamInvalid, "not registered for stage ACL_RT_SNAPSHOT_UNLOCK_POST")
	wantErr(t, r.UnregisterSnapCallback(9, 1), gocann.CodeRTParamInvalid, "stage 9 is invalid")
	wantErr(t, r.UnregisterSnapCallback(gocann.SnapLockPre, 0), gocann.CodeRTParamInvalid, "callback is NULL")
	check(t, r.UnregisterSnapCallback(gocann.SnapLockPre, 1))
	wantErr(t, r.UnregisterSnapCallback(gocann.SnapLockPre, 1), gocann.CodeRTParamInvalid, "not registered")
	check(t, r.RegisterSnapCallback(gocann.SnapLockPre, 1, fn)) // registered again after unregistering
}

func TestSnapshotNeedsAllocationListing(t *testing.T) {
	fb := newFakeBackend()
	r, err := gocann.Open(gocann.WithBackend(fb.open))
	check(t, err)
	t.Cleanup(func() { check(t, r.Close()) })
	_, err = r.SetDevice(0)
	check(t, err)
	check(t, r.SnapshotLock())
	wantErr(t, r.SnapshotBackup(), gocann.CodeRTFeatureNotSupport, "cannot list its allocations")
	check(t, r.SnapshotUnlock())
}

func TestSnapshotUnsupportedChip(t *testing.T) {
	r := newRuntime(t, profileConfig("Ascend310B1"))
	wantErr(t, r.SnapshotLock(), gocann.CodeRTFeatureNotSupport, "aclrtSnapShotProcessLock")
	wantErr(t, r.RegisterSnapCallback(gocann.SnapLockPre, 1, func(int32) uint32 { return 0 }), gocann.CodeRTFeatureNotSupport)
}

func TestSnapshotFinalizeEndsTheLock(t *testing.T) {
	r := newRuntime(t, smallConfig)
	check(t, r.SnapshotLock())
	check(t, r.Finalize())
	if st := r.SnapshotState(); st != gocann.ProcRunning {
		t.Errorf("state after Finalize = %v, want RUNNING", st)
	}
	check(t, r.Init(""))
}
