package sim

import (
	"runtime"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
)

// A reused area comes back cleared, the lock included, at the same address.
// Each test gives back every area before closing its arena: an arena
// dropped with areas out keeps them pinned, which the runtime reports.
func TestSQArenaReuseClears(t *testing.T) {
	var a sqArena
	defer a.close()
	sq, err := a.get()
	if err != nil {
		t.Fatal(err)
	}
	sq.Submitted.Store(5)
	sq.Open.Store(1)
	sq.Entries[3].Seq = 3
	sq.Completed.Store(4)
	a.put(sq)
	again, err := a.get()
	if err != nil {
		t.Fatal(err)
	}
	if again != sq {
		t.Fatalf("the freed area %p was not reused (got %p)", sq, again)
	}
	if again.Submitted.Load() != 0 || again.Open.Load() != 0 || again.Entries[3].Seq != 0 ||
		again.Completed.Load() != 0 || again.Lock.Load() != 0 {
		t.Errorf("a reused area keeps its last queue's state")
	}
	a.put(again)
}

// A producer that still holds an area's lock from its last queue keeps it:
// the area is cleared for the next queue only once the lock is free.
func TestSQArenaResetWaitsForHeldLock(t *testing.T) {
	var a sqArena
	defer a.close()
	sq, err := a.get()
	if err != nil {
		t.Fatal(err)
	}
	sq.Lock.Store(1) // a late producer holds it
	sq.Submitted.Store(9)
	a.put(sq)
	got := make(chan *hal.SQ)
	go func() {
		s, err := a.get()
		if err != nil {
			t.Error(err)
		}
		got <- s
	}()
	select {
	case <-got:
		t.Fatal("the area was handed out while a producer held its lock")
	case <-time.After(50 * time.Millisecond):
	}
	if sq.Submitted.Load() != 9 {
		t.Fatal("the area was cleared under the producer holding its lock")
	}
	sq.Lock.Store(0) // the producer leaves
	if s := <-got; s != sq || s.Submitted.Load() != 0 || s.Lock.Load() != 0 {
		t.Fatalf("after the producer left: area %p, submitted %d, lock %d; want %p cleared", s, s.Submitted.Load(), s.Lock.Load(), sq)
	}
	a.put(sq)
}

// Closing the arena keeps areas still out in place; they are released
// when the last comes back.
func TestSQArenaCloseWaitsForAreas(t *testing.T) {
	var a sqArena
	sq, err := a.get()
	if err != nil {
		t.Fatal(err)
	}
	a.close()
	sq.Submitted.Store(1) // still the arena's
	if _, err := a.get(); err == nil {
		t.Fatal("a closed arena handed out an area")
	}
	if len(a.all) != 1 {
		t.Fatal("closing released an area still out")
	}
	a.put(sq)
	if a.all != nil {
		t.Fatal("the areas stayed after the last came back")
	}
}

// A queue's area serves another queue only once the queue itself is
// garbage: Go code holding a closed queue never sees its area change hands.
func TestQueueAreaReusedOnlyWhenQueueIsGarbage(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	sq := q.(hal.Direct).SQ()
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	q2 := newQ(t, d, 0)
	if q2.(hal.Direct).SQ() == sq {
		t.Fatal("a closed queue still reachable lost its area to a new queue")
	}
	runtime.KeepAlive(q)
	q = nil
	reused := false
	for i := 0; i < 50 && !reused; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond) // cleanups run on their own goroutine
		q3 := newQ(t, d, 0)
		reused = q3.(hal.Direct).SQ() == sq
	}
	if !reused {
		t.Fatal("the area of a queue that became garbage was never reused")
	}
}
