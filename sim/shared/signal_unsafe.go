package shared

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// futex operations on words in the shared file: not FUTEX_PRIVATE, so a
// wake in one process reaches a waiter in another.
const (
	futexWait = 0
	futexWake = 1
)

// sleep blocks while *w == v, at most d (d > 0).
func sleep(w *uint32, v uint32, d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	// EAGAIN (the word moved), EINTR and ETIMEDOUT all mean: look again.
	_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(w)), futexWait, uintptr(v), uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// wake wakes up to n waiters on w.
func wake(w *uint32, n int) {
	_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(w)), futexWake, uintptr(n), 0, 0, 0)
}

// OnSignal registers deliver as the receiver of the records importers
// make on notify export e, which this attachment made; a watcher
// goroutine calls it once per record, until e is withdrawn or the machine
// detached.
func (e Export) OnSignal(deliver func()) {
	m := e.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.notify[uint32(e.idx)] = deliver
	if !m.watch {
		m.watch = true
		m.wg.Add(1)
		go m.watcher()
	}
}

// watcher sleeps on the slot's doorbell and delivers pending records.
func (m *Machine) watcher() {
	defer m.wg.Done()
	bell := &m.t.slots[m.slot].bell
	for {
		v := bell.Load()
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return
		}
		for idx, deliver := range m.notify {
			for n := m.t.exports[idx].pending.Swap(0); n > 0; n-- {
				deliver()
			}
		}
		m.mu.Unlock()
		sleep(word(bell), v, time.Second)
	}
}

// Signal records notify export e once for its exporter.
func (e Export) Signal() bool {
	en := &e.m.t.exports[e.idx]
	if en.gen.Load() != e.gen {
		return false
	}
	en.pending.Add(1)
	bell := &e.m.t.slots[e.Slot].bell
	bell.Add(1)
	wake(word(bell), 1)
	return true
}

// Submitted publishes that event export e's record n was submitted.
func (e Export) Submitted(n uint64) {
	if en := &e.m.t.exports[e.idx]; en.gen.Load() == e.gen {
		en.subm.Store(n)
	}
}

// Completed publishes that the event's record n completed and wakes its
// waiters.
func (e Export) Completed(n uint64) {
	en := &e.m.t.exports[e.idx]
	if en.gen.Load() != e.gen || n <= en.done.Load() {
		return
	}
	en.done.Store(n)
	en.seq.Add(1)
	wake(word(&en.seq), 1<<30)
}

// Records returns the event's last submitted and completed record.
func (e Export) Records() (submitted, done uint64) {
	en := &e.m.t.exports[e.idx]
	return en.subm.Load(), en.done.Load()
}

// WaitDone blocks until the event's record n completed (true), the
// exporter is gone or the export withdrawn (false), or until deadline
// passes (false) if it is not zero.
func (e Export) WaitDone(n uint64, deadline time.Time) bool {
	if !e.m.enter() {
		return false
	}
	defer e.m.wg.Done()
	en := &e.m.t.exports[e.idx]
	for {
		s := en.seq.Load()
		if en.done.Load() >= n {
			return true
		}
		if !e.Live() || e.m.gone.Load() {
			return false
		}
		d := LivenessPeriod
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				return false
			}
			d = min(d, left)
		}
		sleep(word(&en.seq), s, d)
	}
}
