package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann/hal"
)

// fakeQueue stands in for a queue a stream's record held.
type fakeQueue struct {
	hal.Direct
	freed atomic.Bool // dropped by the holds
}

// testEpochs are epochs over n slots in Go memory, announced as C
// threads announce them (direct.c: enter, leave).
type testEpochs struct {
	now   uint64
	slots []atomic.Uint64
}

func newTestEpochs(n int) *testEpochs { return &testEpochs{now: 1, slots: make([]atomic.Uint64, n)} }

// epochs reads te; Go's atomics are sequentially consistent, so the fence
// has nothing to do.
func (te *testEpochs) epochs() epochs {
	return epochs{now: &te.now, n: func() int { return len(te.slots) }, slot: func(i int) *atomic.Uint64 { return &te.slots[i] },
		fence: func() bool { return true }}
}

func (te *testEpochs) enter(i int) { te.slots[i].Store(atomic.LoadUint64(&te.now)) }
func (te *testEpochs) leave(i int) { te.slots[i].Store(0) }

func heldIs(t *testing.T, h *holds, want ...*fakeQueue) {
	t.Helper()
	if len(h.held) != len(want) {
		t.Fatalf("%d queues held, want %d", len(h.held), len(want))
	}
	for i, q := range want {
		if h.held[i].q != q {
			t.Fatalf("held queue %d is not the one retired %d-th", i, i)
		}
	}
}

// A queue retired while a thread is inside the path is held until that
// thread has left; threads that entered after the retirement do not hold
// it, and one that left and entered again holds it no longer.
func TestHoldsReleaseOnceThreadsPass(t *testing.T) {
	te := newTestEpochs(3)
	h := &holds{e: te.epochs()}
	q1, q2, q3 := &fakeQueue{}, &fakeQueue{}, &fakeQueue{}

	h.retire(q1)
	heldIs(t, h) // nobody inside

	te.enter(0)
	h.retire(q2)
	heldIs(t, h, q2)
	te.enter(1) // after q2, before q3
	h.retire(q3)
	heldIs(t, h, q2, q3)

	te.leave(0)
	te.enter(0) // again, after both
	h.release()
	heldIs(t, h, q3) // slot 1 entered before q3 was retired
	te.leave(1)
	h.release()
	heldIs(t, h)
	if h.held != nil {
		t.Error("the held list keeps its array once empty")
	}
	te.leave(0)
}

// A queue whose record ended when the fence failed is kept for good: a
// thread's announcement may not have been seen.
func TestHoldsKeepWhenTheFenceFails(t *testing.T) {
	te := newTestEpochs(1)
	e := te.epochs()
	e.fence = func() bool { return false }
	h := &holds{e: e}
	q := &fakeQueue{}
	h.retire(q)
	h.release()
	if len(h.kept) != 1 || h.kept[0] != q || len(h.held) != 0 {
		t.Fatalf("after a failed fence: %d kept, %d held; want the queue kept", len(h.kept), len(h.held))
	}
}

// Threads read a record and use the queue it names while another thread
// replaces the queue and retires the old one, dropping what the holds
// release: no thread ever uses a queue after it was dropped.
func TestHoldsNeverDropUnderAThread(t *testing.T) {
	const threads, rounds = 4, 20000
	te := newTestEpochs(threads)
	h := &holds{e: te.epochs()}
	var mu sync.Mutex // guards h, as directState.mu does
	var rec atomic.Pointer[fakeQueue]
	rec.Store(&fakeQueue{})
	var stop atomic.Bool
	var used atomic.Int64
	var wg sync.WaitGroup
	for i := range threads {
		wg.Go(func() {
			for !stop.Load() {
				te.enter(i)
				q := rec.Load()
				for range 4 {
					if q.freed.Load() {
						t.Error("a thread inside the path used a queue the holds had dropped")
						stop.Store(true)
					}
				}
				used.Add(1)
				te.leave(i)
			}
		})
	}
	// On a loaded machine the rounds could end before any thread ran.
	for used.Load() < threads && !stop.Load() {
		runtime.Gosched()
	}
	for range rounds {
		old := rec.Swap(&fakeQueue{}) // the record ends before the epoch moves
		mu.Lock()
		before := append([]heldQueue(nil), h.held...)
		h.retire(old)
		// What left the list is dropped.
		kept := map[hal.Direct]bool{}
		for _, x := range h.held {
			kept[x.q] = true
		}
		for _, x := range append(before, heldQueue{q: old}) {
			if !kept[x.q] {
				x.q.(*fakeQueue).freed.Store(true)
			}
		}
		mu.Unlock()
	}
	stop.Store(true)
	wg.Wait()
	if used.Load() == 0 {
		t.Fatal("no thread used a queue")
	}
}
