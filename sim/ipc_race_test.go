package sim

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann/hal"
)

// An export of an event or notify racing the object's close, or another
// export of it: whichever comes first, no export outlives the object,
// and an object has one export.

var spinSink int

// spin busies the caller for about n steps, so that two goroutines meet
// at varying points of each other's call.
func spin(n int) {
	for i := range n {
		spinSink += i
	}
}

// raceExportClose runs export and close of one object at once, close
// started late by delay steps, and returns export's result.
func raceExportClose(delay int, export func() (hal.IPCKey, error), close func() error) (hal.IPCKey, error, error) {
	var k hal.IPCKey
	var kerr error
	var ready, start atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ready.Store(true)
		for !start.Load() {
		}
		k, kerr = export()
	}()
	for !ready.Load() {
		runtime.Gosched()
	}
	start.Store(true)
	spin(delay)
	cerr := close()
	wg.Wait()
	return k, kerr, cerr
}

func TestIPCExportRacesClose(t *testing.T) {
	dir, machine := t.TempDir(), fmt.Sprintf("simrace-%d", os.Getpid())
	b, d := ipcBackend(t, machine, dir)
	defer b.Close()
	rounds := 600
	if testing.Short() {
		rounds = 100
	}
	exported := map[string]int{}
	for i := range rounds {
		ev, err := d.NewEvent(hal.EventConfig{})
		if err != nil {
			t.Fatal(err)
		}
		k, kerr, cerr := raceExportClose((i%100)*4000, func() (hal.IPCKey, error) {
			return d.ExportEvent(ev, hal.ExportOpts{NoPidCheck: true})
		}, ev.Close)
		if cerr != nil {
			t.Fatalf("round %d: closing the event: %v", i, cerr)
		}
		switch {
		case kerr == nil:
			exported["event"]++
			if _, err := d.OpenEvent(k); hal.KindOf(err) != hal.KindInvalidParam {
				t.Fatalf("round %d: the export of a closed event opens: %v, want no live export", i, err)
			}
		case hal.KindOf(kerr) != hal.KindInvalidHandle:
			t.Fatalf("round %d: exporting an event as it closes: %v, want an invalid handle", i, kerr)
		}

		hn, err := d.NewNotify()
		if err != nil {
			t.Fatal(err)
		}
		k, kerr, cerr = raceExportClose((i%100)*4000, func() (hal.IPCKey, error) {
			return d.ExportNotify(hn, hal.ExportOpts{NoPidCheck: true})
		}, hn.Close)
		if cerr != nil {
			t.Fatalf("round %d: closing the notify: %v", i, cerr)
		}
		switch {
		case kerr == nil:
			exported["notify"]++
			if _, err := d.ImportNotify(k); hal.KindOf(err) != hal.KindInvalidParam {
				t.Fatalf("round %d: the export of a closed notify imports: %v, want no live export", i, err)
			}
		case hal.KindOf(kerr) != hal.KindInternal:
			t.Fatalf("round %d: exporting a notify as it closes: %v, want the refusal of a closed notify", i, kerr)
		}
	}
	t.Logf("of %d rounds, exports made before the close: %v", rounds, exported)
	if n := len(d.b.ipc.own); n != 0 {
		t.Errorf("%d exports left after every object closed, want none", n)
	}
}

func TestIPCExportRacesExport(t *testing.T) {
	dir, machine := t.TempDir(), fmt.Sprintf("simrace2-%d", os.Getpid())
	b, d := ipcBackend(t, machine, dir)
	defer b.Close()
	for i := range 500 {
		ev, err := d.NewEvent(hal.EventConfig{})
		if err != nil {
			t.Fatal(err)
		}
		var keys [2]hal.IPCKey
		var errs [2]error
		var wg sync.WaitGroup
		for j := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				spin(j * (i % 200))
				keys[j], errs[j] = d.ExportEvent(ev, hal.ExportOpts{NoPidCheck: true})
			}()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil || keys[0] != keys[1] {
			t.Fatalf("round %d: two exports of one event at once: %x, %v and %x, %v; want one key twice", i, keys[0][:4], errs[0], keys[1][:4], errs[1])
		}
		if n := len(d.b.ipc.own); n != 1 {
			t.Fatalf("round %d: %d exports of one event, want 1", i, n)
		}
		if err := ev.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := d.OpenEvent(keys[0]); hal.KindOf(err) != hal.KindInvalidParam {
			t.Fatalf("round %d: the export of a closed event opens: %v, want no live export", i, err)
		}
	}
}
