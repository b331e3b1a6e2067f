package gocann_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func init() {
	syncRoles["exporter"] = exporterSyncPeer
	syncRoles["importer"] = importerSyncPeer
}

// exporterSyncPeer exports an IPC event whose record never runs, says its
// handle and waits to be killed.
func exporterSyncPeer(c *syncChild) error {
	ev, err := c.c.NewEvent(gocann.EventIPC)
	if err != nil {
		return err
	}
	never := make(chan struct{})
	if err := c.s.LaunchHostFunc(func() { <-never }); err != nil {
		return err
	}
	if err := c.s.Record(ev); err != nil {
		return err
	}
	h, err := ev.IPCHandle()
	if err != nil {
		return err
	}
	c.say("handle %s", hex.EncodeToString(h[:]))
	c.hear()
	return nil
}

// importerSyncPeer imports the notify of key arg, says so and waits to be
// killed.
func importerSyncPeer(c *syncChild) error {
	if _, err := c.c.ImportNotify(c.arg, 0); err != nil {
		return err
	}
	c.say("imported")
	c.hear()
	return nil
}

// syncBounded runs f, failing the test if it takes longer than d.
func syncBounded(t *testing.T, what string, d time.Duration, f func() error) error {
	t.Helper()
	ch := make(chan error, 1)
	start := time.Now()
	go func() { ch <- f() }()
	select {
	case err := <-ch:
		t.Logf("%s ended after %v: %v", what, time.Since(start).Round(time.Millisecond), err)
		return err
	case <-time.After(d):
		t.Fatalf("%s still blocked %v after the peer was killed", what, d)
	}
	return nil
}

func TestIPCEventExporterKilled(t *testing.T) {
	m := newMachine()
	e := setup(t, ipcConfig(m))
	p := startSyncPeer(t, "exporter", m, "")
	h, err := ipcEventHandleOf(p.expectPrefix("handle "))
	check(t, err)
	ev, err := e.c.OpenIPCEvent(h)
	check(t, err)
	check(t, e.s.WaitEvent(ev))
	if err := ev.SynchronizeTimeout(50 * time.Millisecond); gocann.CodeOf(err) != gocann.CodeRTEventSyncTimeout {
		t.Fatalf("SynchronizeTimeout while the exporter lives = %v, want %v", err, gocann.CodeRTEventSyncTimeout)
	}
	pid := fmt.Sprintf("process %d", p.cmd.Process.Pid)
	p.kill()
	err = syncBounded(t, "Event.Synchronize", 5*time.Second, func() error { return ev.SynchronizeTimeout(0) })
	wantErr(t, err, gocann.CodeRTParamInvalid, pid, "exited")
	err = syncBounded(t, "Stream.Synchronize", 5*time.Second, func() error { return e.s.SynchronizeTimeout(0) })
	if err == nil || !strings.Contains(err.Error(), pid) {
		t.Fatalf("stream waiting on the dead exporter's event: %v, want an error naming %s", err, pid)
	}
	if done, err := ev.Query(); err != nil || done {
		t.Fatalf("Query after the exporter died = %v, %v; want not done (its record never ran)", done, err)
	}
	check(t, ev.Close())
}

func TestIPCNotifyImporterKilled(t *testing.T) {
	m := newMachine()
	e := setup(t, ipcConfig(m))
	n, err := e.c.NewNotify()
	check(t, err)
	key, err := n.ExportKey(gocann.NotifyExportNoPidCheck)
	check(t, err)
	p := startSyncPeer(t, "importer", m, key)
	p.expect("imported")
	check(t, e.s.WaitNotify(n, 0))
	pid := fmt.Sprintf("%d", p.cmd.Process.Pid)
	p.kill()
	err = syncBounded(t, "Stream.Synchronize", 5*time.Second, func() error { return e.s.SynchronizeTimeout(0) })
	if err == nil || !strings.Contains(err.Error(), pid) || !strings.Contains(err.Error(), "exited") {
		t.Fatalf("stream waiting on a notify whose importer died: %v, want an error naming pid %s", err, pid)
	}
	check(t, n.Close())
}
