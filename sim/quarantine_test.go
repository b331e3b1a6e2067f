package sim

import (
	"context"
	"testing"

	"github.com/gocann/gocann/hal"
)

// Freeing page-locked memory that a queued copy still writes must not crash
// the process: the pages stay mapped until the copy is done.
func TestFreeHostWhileQueued(t *testing.T) {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	hd, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	d := hd.(*device)
	a, err := d.Malloc(1<<20, hal.MemPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue(hal.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := d.NewNotify()
	if err != nil {
		t.Fatal(err)
	}
	h, err := b.MallocHost(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Submit(hal.Task{Kind: hal.TaskNotifyWait, Notify: n}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Submit(hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(h), Src: hal.DevLoc(a.Addr), Size: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	if err := b.FreeHost(h); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Lookup(uint64(uintptr(h))); ok {
		t.Fatal("freed host memory still found")
	}
	if err := b.FreeHost(h); hal.KindOf(err) != hal.KindInvalidAddress {
		t.Fatalf("second free: %v", err)
	}
	b.mu.Lock()
	held := len(b.quarantine)
	b.mu.Unlock()
	if held != 1 {
		t.Fatalf("%d quarantined, want 1", held)
	}
	q2, _ := d.NewQueue(hal.QueueConfig{})
	q2.Submit(hal.Task{Kind: hal.TaskNotifyRecord, Notify: n})
	if err := q.Wait(context.Background(), q.Submitted(), 0); err != nil {
		t.Fatal(err)
	}
	b.reclaimHost(false)
	b.mu.Lock()
	held = len(b.quarantine)
	b.mu.Unlock()
	if held != 0 {
		t.Fatalf("%d still quarantined after the copy", held)
	}
}
