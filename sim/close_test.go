package sim

import (
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// TestDeviceCloseIsPrompt closes a device whose engines have all run work
// and gone idle, and one whose only queue is blocked on a value wait that
// never matches: neither has a running task, so Close returns at once.
func TestDeviceCloseIsPrompt(t *testing.T) {
	for _, blocked := range []bool{false, true} {
		b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30}})
		if err != nil {
			t.Fatal(err)
		}
		d, err := b.Open(0)
		if err != nil {
			t.Fatal(err)
		}
		a, err := d.Malloc(1<<20, hal.MemPolicy{})
		if err != nil {
			t.Fatal(err)
		}
		q, err := d.NewQueue(hal.QueueConfig{})
		if err != nil {
			t.Fatal(err)
		}
		submit(t, q, hal.Task{Kind: hal.TaskKernel, Blocks: 8, Kernel: &kernel.Func{Name: "nop", Fn: func(*kernel.Block) {}}})
		submit(t, q, hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(a.Addr + 1<<19), Src: hal.DevLoc(a.Addr), Size: 1 << 19})
		submit(t, q, hal.Task{Kind: hal.TaskHostFunc, Host: func() {}})
		wait(t, q)
		if blocked {
			submit(t, q, hal.Task{Kind: hal.TaskValueWait, Dst: hal.DevLoc(a.Addr), Value: 1, Flag: hal.WaitEQ})
		} else if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // let the workers park
		start := time.Now()
		if err := d.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if el := time.Since(start); el > time.Second {
			t.Errorf("Close of a device with no running task (blocked queue %v) took %v", blocked, el)
		}
		if err := d.Close(); err == nil {
			t.Error("second Close succeeded")
		}
		if sp, ok := b.Owner(a.Addr); !ok || sp.Open || sp.Device != 0 {
			t.Errorf("Owner of a closed device's memory = %+v, %v; want its span, closed", sp, ok)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClosedHandleTouchesNothing: a device handle kept past its Close
// reaches nothing of the device's next opening, which has the same memory
// range.
func TestClosedHandleTouchesNothing(t *testing.T) {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	old, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.Malloc(4096, hal.MemPolicy{Page: normalOnly})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := old.Malloc(4096, hal.MemPolicy{Page: normalOnly}); err == nil {
		t.Errorf("Malloc on a closed handle = %+v, want an error", got)
	}
	if err := old.Free(a.Addr, 0); err == nil {
		t.Error("Free on a closed handle freed the reopened device's memory")
	}
	if got, ok := old.Lookup(a.Addr); ok {
		t.Errorf("Lookup on a closed handle = %+v, want nothing", got)
	}
	if _, err := old.Pointer(a.Addr, 8); err == nil {
		t.Error("Pointer on a closed handle reached the reopened device's memory")
	}
	buf := []byte("stale")
	if err := old.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(a.Addr), Src: hal.HostLoc(unsafe.Pointer(&buf[0])), Size: 5}); err == nil {
		t.Error("Run on a closed handle copied into the reopened device's memory")
	}
	if _, ok := d.Lookup(a.Addr); !ok {
		t.Error("the reopened device lost its allocation")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}
