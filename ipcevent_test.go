package gocann_test

import (
	"encoding/hex"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func init() { syncRoles["event"] = eventSyncPeer }

// eventSyncPeer opens the event whose handle is its argument, waits for it on
// a stream while the test holds the exporter's record back, then tries
// what an opened event refuses.
func eventSyncPeer(c *syncChild) error {
	h, err := ipcEventHandleOf(c.arg)
	if err != nil {
		return err
	}
	ev, err := c.c.OpenIPCEvent(h)
	if err != nil {
		return err
	}
	c.say("opened %v", ev.Opened())
	var ran atomic.Bool
	if err := c.s.WaitEvent(ev); err != nil {
		return err
	}
	if err := c.s.LaunchHostFunc(func() { ran.Store(true) }); err != nil {
		return err
	}
	time.Sleep(200 * time.Millisecond)
	sdone, _ := c.s.Query()
	edone, _ := ev.Query()
	c.say("waiting stream=%v event=%v ran=%v", sdone, edone, ran.Load())
	err = c.s.SynchronizeTimeout(long)
	c.say("released %d ran=%v", syncCode(err), ran.Load())
	c.say("sync %d", syncCode(ev.SynchronizeTimeout(time.Second)))
	done, err := ev.Query()
	c.say("query %v %d", done, syncCode(err))
	c.say("%s", refusedOnIPC(c.c, c.s, ev))

	// A record made here is this process's: waits here see it.
	g := make(chan struct{})
	if err := c.s.LaunchHostFunc(func() { <-g }); err != nil {
		return err
	}
	err = c.s.Record(ev)
	done, _ = ev.Query()
	c.say("local record %d done=%v", syncCode(err), done)
	close(g)
	err = ev.SynchronizeTimeout(long)
	done, _ = ev.Query()
	c.say("local sync %d done=%v", syncCode(err), done)
	h2, err := ev.IPCHandle()
	c.say("handle %d same=%v", syncCode(err), h2 == h)

	c.hear() // the exporter destroyed its event
	_, err = c.c.OpenIPCEvent(h)
	c.say("reopen %d", syncCode(err))
	c.say("destroy %d", syncCode(ev.Close()))
	c.hear()
	return nil
}

// refusedOnIPC is the code of each operation CANN refuses on IPC events, on
// event ev of c and stream s.
func refusedOnIPC(c *gocann.Context, s *gocann.Stream, ev *gocann.Event) string {
	_, err := ev.QueryLegacy()
	return fmt.Sprintf("refused reset=%d query=%d wait=%d timestamp=%d elapsed=%d id=%d capture=%s",
		syncCode(s.ResetEvent(ev)), syncCode(err), syncCode(errOf(ev.QueryWait())), syncCode(errOf(ev.Timestamp())),
		syncCode(errOf(gocann.Elapsed(ev, ev))), syncCode(errOf(ev.ID())), capturedIPCOps(c, ev))
}

func errOf[T any](_ T, err error) error { return err }

// capturedIPCOps tries a record and a wait of ev on a capturing stream of c.
func capturedIPCOps(c *gocann.Context, ev *gocann.Event) string {
	s, err := c.NewStream()
	if err != nil {
		return err.Error()
	}
	defer s.Close()
	cp, err := s.BeginCapture(gocann.CaptureRelaxed)
	if err != nil {
		return err.Error()
	}
	rec, wait := syncCode(s.Record(ev)), syncCode(s.WaitEvent(ev))
	if m, err := cp.End(); err == nil {
		m.Close()
	}
	return fmt.Sprintf("%d/%d", rec, wait)
}

const refusedOnIPCLine = "refused reset=207000 query=207000 wait=207000 timestamp=207000 elapsed=207000 id=207000 capture=207000/207000"

func TestIPCEventAcrossProcesses(t *testing.T) {
	m := newMachine()
	e := setup(t, ipcConfig(m))
	ev, err := e.c.NewEvent(gocann.EventIPC)
	check(t, err)
	g := block(t, e.s)
	check(t, e.s.Record(ev)) // held back by g
	h, err := ev.IPCHandle()
	check(t, err)
	if h2, err := ev.IPCHandle(); err != nil || h2 != h {
		t.Fatalf("second IPCHandle = %x, %v; want the first, %x", h2, err, h)
	}
	if [32]byte(h[:32]) == ([32]byte{}) || [32]byte(h[32:]) != ([32]byte{}) {
		t.Fatalf("handle %x: want a key in the first 32 bytes, zeros after", h)
	}
	p := startSyncPeer(t, "event", m, hex.EncodeToString(h[:]))
	p.expect("opened true")
	// The peer's stream stays behind the exporter's pending record.
	p.expect("waiting stream=false event=false ran=false")
	g.Open()
	p.expect("released 0 ran=true")
	p.expect("sync 0")
	p.expect("query true 0")
	p.expect(refusedOnIPCLine)
	p.expect("local record 0 done=false")
	p.expect("local sync 0 done=true")
	p.expect("handle 0 same=true")
	// Destroying the exported event ends the export.
	check(t, ev.Close())
	p.send("reopen")
	p.expect("reopen 107000")
	p.expect("destroy 0")
	p.finish()
}

func TestIPCEventChecks(t *testing.T) {
	e := setup(t)
	_, err := e.c.NewEventWithFlag(gocann.EventIPC)
	wantErr(t, err, gocann.CodeRTParamInvalid, "ACL_EVENT_IPC", "aclrtCreateEventExWithFlag")
	_, err = e.c.NewEvent(gocann.EventIPC | gocann.EventSync)
	wantErr(t, err, gocann.CodeRTParamInvalid, "0x41", "cannot be combined")

	// An IPC event works in its own process like any event.
	ev, err := e.c.NewEvent(gocann.EventIPC)
	check(t, err)
	s2 := e.newStream(t)
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	check(t, s2.WaitEvent(ev))
	if done, err := ev.Query(); err != nil || done {
		t.Fatalf("Query before the record ran = %v, %v; want false", done, err)
	}
	g.Open()
	check(t, ev.SynchronizeTimeout(long))
	check(t, s2.SynchronizeTimeout(long))
	if out := refusedOnIPC(e.c, e.s, ev); out != refusedOnIPCLine {
		t.Errorf("refused on a created IPC event:\n%s\nwant\n%s", out, refusedOnIPCLine)
	}
	// Not on a shared machine: the handle is refusedOnIPC.
	_, err = ev.IPCHandle()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "shared machine")
	// Only IPC events have handles.
	plain, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	_, err = plain.IPCHandle()
	wantErr(t, err, gocann.CodeRTParamInvalid, "0x1", "ACL_EVENT_IPC")
	check(t, ev.Close())
	_, err = ev.IPCHandle()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")

	// Products without IPC events refuse the flag and the calls.
	p := setup(t, `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend310P3"}}`)
	_, err = p.c.NewEvent(gocann.EventIPC)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "ACL_EVENT_IPC", "Ascend310P3")
	_, err = p.c.OpenIPCEvent(gocann.IPCEventHandle{})
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtIpcOpenEventHandle")
}

func TestIPCEventOpenUnknown(t *testing.T) {
	e := setup(t, ipcConfig(newMachine()))
	_, err := e.c.OpenIPCEvent(gocann.IPCEventHandle{1, 2, 3})
	wantErr(t, err, gocann.CodeRTParamInvalid, "names no live export")
	_, err = e.c.OpenIPCEvent(gocann.IPCEventHandle{})
	wantErr(t, err, gocann.CodeRTParamInvalid, "handle's first 32 bytes", "all zeros", "aclrtIpcGetEventHandle")
	// A handle names its exporter's process: this one's own opens too.
	ev, err := e.c.NewEvent(gocann.EventIPC)
	check(t, err)
	h, err := ev.IPCHandle()
	check(t, err)
	op, err := e.c.OpenIPCEvent(h)
	check(t, err)
	check(t, e.s.WaitEvent(op))
	check(t, e.s.SynchronizeTimeout(long))
	check(t, op.Close())
	// Opened on another device, it is waited on there, and only there.
	c1, s1 := onDevice(t, e.r, 1)
	op1, err := c1.OpenIPCEvent(h)
	check(t, err)
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	check(t, s1.WaitEvent(op1))
	if done, err := s1.Query(); err != nil || done {
		t.Fatalf("device 1 stream behind device 0's pending record: done %v, %v; want not done", done, err)
	}
	g.Open()
	check(t, s1.SynchronizeTimeout(long))
	wantErr(t, e.s.WaitEvent(op1), gocann.CodeRTParamInvalid, "device 1")
	check(t, op1.Close())
	check(t, ev.Close())
}
