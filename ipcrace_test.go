package gocann_test

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann"
)

// A handle asked for while its event is destroyed: the call fails, the
// event being destroyed, or its handle stops opening once both calls
// returned, the export ended with the event.
func TestIPCEventHandleRacesDestroy(t *testing.T) {
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	e := setup(t, ipcConfig(newMachine()))
	made := 0
	for i := range rounds {
		ev, err := e.c.NewEvent(gocann.EventIPC)
		check(t, err)
		var h gocann.IPCEventHandle
		var herr error
		var ready, start atomic.Bool
		done := make(chan struct{})
		go func() {
			defer close(done)
			ready.Store(true)
			for !start.Load() {
			}
			h, herr = ev.IPCHandle()
		}()
		for !ready.Load() {
			runtime.Gosched()
		}
		start.Store(true)
		busy(i % 100 * 10000)
		check(t, ev.Close())
		<-done
		if herr != nil {
			wantErr(t, herr, gocann.CodeRTInvalidHandle, "destroyed")
			continue
		}
		made++
		_, err = e.c.OpenIPCEvent(h)
		wantErr(t, err, gocann.CodeRTParamInvalid, "names no live export")
	}
	t.Logf("of %d rounds, %d handles made before the destroy", rounds, made)
}

var busySink int

// busy keeps the caller busy for about n steps.
func busy(n int) {
	for i := range n {
		busySink += i
	}
}
