package shared

import (
	"runtime"
	"sync/atomic"
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
// detached. It also calls tick at least every LivenessPeriod while e is
// registered, so the receiver can look at its importers' liveness.
func (e Export) OnSignal(deliver, tick func()) {
	m := e.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.notify[uint32(e.idx)] = receiver{deliver, tick}
	if !m.watch {
		m.watch = true
		m.wg.Add(1)
		go m.watcher()
	}
}

// receiver is a registered notify export's callbacks.
type receiver struct{ deliver, tick func() }

// watcher sleeps on the slot's doorbell and delivers pending records.
func (m *Machine) watcher() {
	defer m.wg.Done()
	bell := &m.t.slots[m.slot].bell
	last := time.Now()
	for {
		v := bell.Load()
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return
		}
		var ticks []func()
		if time.Since(last) >= LivenessPeriod {
			last = time.Now()
			for _, r := range m.notify {
				ticks = append(ticks, r.tick)
			}
		}
		for idx, r := range m.notify {
			for n := m.t.exports[idx].pending.Swap(0); n > 0; n-- {
				r.deliver()
			}
		}
		m.mu.Unlock()
		for _, t := range ticks {
			t()
		}
		if spinWhile(bell, v, watchSpin) {
			continue
		}
		// Ringers wake the watcher only when it says it sleeps; the
		// look at the bell after saying so closes the race with a ring.
		sl := &m.t.slots[m.slot].sleep
		sl.Store(1)
		if bell.Load() == v {
			sleep(word(bell), v, LivenessPeriod)
		}
		sl.Store(0)
	}
}

// watchSpin is how long the watcher polls its doorbell before it sleeps:
// a ring within it costs no wake-up of a sleeping thread, which is most
// of a round trip between processes.
const watchSpin = 50 * time.Microsecond

// spinWhile polls *w while it is v, at most d, yielding now and then; it
// reports whether w moved.
func spinWhile(w *atomic.Uint32, v uint32, d time.Duration) bool {
	start := time.Now()
	for i := 1; ; i++ {
		for range 64 {
			if w.Load() != v {
				return true
			}
		}
		if i%8 == 0 {
			runtime.Gosched()
		}
		if time.Since(start) > d {
			return w.Load() != v
		}
	}
}

// Signal records notify export e once for its exporter.
func (e Export) Signal() bool {
	en := &e.m.t.exports[e.idx]
	if en.gen.Load() != e.gen {
		return false
	}
	en.pending.Add(1)
	slot := &e.m.t.slots[e.Slot]
	slot.bell.Add(1)
	if slot.sleep.Load() != 0 {
		wake(word(&slot.bell), 1)
	}
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
