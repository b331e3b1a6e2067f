package gocann_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func init() { syncRoles["notify"] = notifySyncPeer }

// notifySyncPeer imports the notify whose key is its argument, first before
// the test whitelists it, then after, and records it when told.
func notifySyncPeer(c *syncChild) error {
	_, err := c.c.ImportNotify(c.arg, gocann.NotifyImportDefault)
	c.say("import %d", syncCode(err))
	c.hear()
	n, err := c.c.ImportNotify(c.arg, gocann.NotifyImportPeerAccess)
	c.say("import %d imported=%v", syncCode(err), err == nil && n.Imported())
	if err != nil {
		return nil
	}
	err = c.s.WaitNotify(n, 0)
	c.say("wait %d creator-only=%v", syncCode(err), err != nil && strings.Contains(err.Error(), "只能在创建端Wait"))
	_, err = n.ExportKey(gocann.NotifyExportNoPidCheck)
	c.say("export %d reset %d allow %d", syncCode(err), syncCode(c.r.ResetNotifies(n)), syncCode(n.AllowImport(1)))
	for {
		switch c.hear() {
		case "record":
			err := c.s.RecordNotify(n)
			if err == nil {
				err = c.s.SynchronizeTimeout(long)
			}
			c.say("recorded %d", syncCode(err))
		case "destroy":
			c.say("destroy %d", syncCode(n.Close()))
		default:
			return nil
		}
	}
}

// waitSyncCount waits until n holds want, for at most long.
func waitSyncCount(t *testing.T, n *atomic.Int32, want int32) {
	t.Helper()
	for end := time.Now().Add(long); n.Load() < want; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("count is %d after %v, want %d", n.Load(), long, want)
		}
	}
}

func TestIPCNotifyAcrossProcesses(t *testing.T) {
	m := newMachine()
	e := setup(t, ipcConfig(m))
	n, err := e.c.NewNotify()
	check(t, err)
	key, err := n.ExportKey(gocann.NotifyExportDefault)
	check(t, err)
	if len(key) != gocann.NotifyKeyLen || strings.Trim(key, "0123456789abcdef") != "" {
		t.Fatalf("key %q: want %d lowercase hex digits", key, gocann.NotifyKeyLen)
	}
	_, err = n.ExportKey(gocann.NotifyExportDefault)
	wantErr(t, err, gocann.CodeRTInternalError, "already", "exported")
	wantErr(t, e.r.ResetNotifies(n), gocann.CodeRTTaskTypeNotSupport, "IPC notify")

	p := startSyncPeer(t, "notify", m, key)
	// The whitelist does not name the peer yet.
	p.expect("import 207006")
	check(t, n.AllowImport(int32(p.cmd.Process.Pid)))
	p.send("again")
	p.expect("import 0 imported=true")
	p.expect("wait 107000 creator-only=true")
	p.expect("export 507000 reset 507009 allow 107000")

	// Each record of the importer releases exactly one wait here.
	var count atomic.Int32
	for range 2 {
		check(t, e.s.WaitNotify(n, 0))
		check(t, e.s.LaunchHostFunc(func() { count.Add(1) }))
	}
	time.Sleep(100 * time.Millisecond)
	if c := count.Load(); c != 0 {
		t.Fatalf("count %d before any record, want 0", c)
	}
	p.send("record")
	p.expect("recorded 0")
	waitSyncCount(t, &count, 1)
	time.Sleep(100 * time.Millisecond)
	if c := count.Load(); c != 1 {
		t.Fatalf("count %d after one record, want 1", c)
	}
	p.send("record")
	p.expect("recorded 0")
	waitSyncCount(t, &count, 2)
	check(t, e.s.SynchronizeTimeout(long))

	p.send("destroy")
	p.expect("destroy 0")
	check(t, n.Close())
	p.finish()
}

func TestIPCNotifyChecks(t *testing.T) {
	e := setup(t, ipcConfig(newMachine()))
	n, err := e.c.NewNotify()
	check(t, err)
	wantErr(t, n.AllowImport(7), gocann.CodeRTParamInvalid, "not exported", "aclrtNotifyGetExportKey")
	for _, f := range []gocann.NotifyExportFlags{1, 3, 4} {
		_, err = n.ExportKey(f)
		wantErr(t, err, gocann.CodeRTParamInvalid, "flags", "ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION (0x2)")
	}
	key, err := n.ExportKey(gocann.NotifyExportNoPidCheck)
	check(t, err)
	wantErr(t, n.AllowImport(), gocann.CodeRTParamInvalid, "num is 0")
	_, err = e.c.ImportNotify(key, 4)
	wantErr(t, err, gocann.CodeRTParamInvalid, "flags 0x4", "at most 0x3")
	for _, k := range []string{"", "xyz", strings.ToUpper(key), key + "0", key[:63]} {
		_, err = e.c.ImportNotify(k, 0)
		wantErr(t, err, gocann.CodeRTParamInvalid, "64 lowercase hexadecimal digits")
	}
	_, err = e.c.ImportNotify(strings.Repeat("ab", 32), 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "names no live export")
	wantErr(t, n.AllowImportInterServer(gocann.ServerPids{Pids: []int32{1}}), gocann.CodeRTFeatureNotSupport, "aclrtNotifySetImportPidInterServer")

	// The creating process imports its own notify; the imported one
	// signals the creator's.
	imp, err := e.c.ImportNotify(key, 0)
	check(t, err)
	check(t, e.s.RecordNotify(imp))
	check(t, e.s.WaitNotify(n, 0))
	check(t, e.s.SynchronizeTimeout(long))
	check(t, imp.Close())
	// An exported notify is waited on from its own device only.
	_, s1 := onDevice(t, e.r, 1)
	wantErr(t, s1.WaitNotify(n, 0), gocann.CodeRTParamInvalid, "device where the IPC notify was created (device 0)")
	// Destroying the creator's notify ends the export.
	check(t, n.Close())
	_, err = e.c.ImportNotify(key, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "names no live export")

	// Not on a shared machine.
	u := setup(t)
	un, err := u.c.NewNotify()
	check(t, err)
	_, err = un.ExportKey(0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "shared machine")

	// Products without IPC notifies.
	p := setup(t, `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend310B1"}}`)
	pn, err := p.c.NewNotify()
	check(t, err)
	_, err = pn.ExportKey(0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtNotifyGetExportKey", "Ascend310B1")
}

func TestIPCNotifyInterServer(t *testing.T) {
	m := newMachine()
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend910_9391","machine":"`+m+`"}}`)
	n, err := e.c.NewNotify()
	check(t, err)
	key, err := n.ExportKey(gocann.NotifyExportDefault)
	check(t, err)
	wantErr(t, n.AllowImportInterServer(), gocann.CodeRTParamInvalid, "num is 0")
	wantErr(t, n.AllowImportInterServer(gocann.ServerPids{SDID: 1}), gocann.CodeRTParamInvalid, "serverPids[0].pid is NULL")
	wantErr(t, n.AllowImportInterServer(gocann.ServerPids{SDID: 1, Pids: []int32{1}}, gocann.ServerPids{SDID: 2, Pids: []int32{1, 2}}),
		gocann.CodeRTParamInvalid, "serverPids[1].num is 2", "expected 1")

	p := startSyncPeer(t, "notify", m, key)
	p.expect("import 207006")
	check(t, n.AllowImportInterServer(gocann.ServerPids{SDID: 5, Pids: []int32{int32(p.cmd.Process.Pid)}}))
	p.send("again")
	p.expect("import 0 imported=true")
	p.expect("wait 107000 creator-only=true")
	p.expect("export 507000 reset 507009 allow 107000")
	p.finish()
}
