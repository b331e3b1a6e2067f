package gocann_test

import (
	"encoding/hex"
	"testing"

	"github.com/gocann/gocann"
)

// Imports onto another device than the exporter's, and the calls of the
// Atlas A3 only.

func TestIPCMemoryAcrossDevices(t *testing.T) {
	e, m := ipcEnv(t)
	_, want, k := exportPattern(t, e, gocann.IPCMemExportNoPidValidation)
	child := startPeer(t, m)
	child.ok("dev 1")
	// Memory of device 0 on device 1: peer access first, or the flag.
	child.refused(gocann.CodeRTParamInvalid, "import %s 0", k)
	addr := child.ok("import %s %d", k, gocann.IPCMemImportEnablePeerAccess)
	// Asynchronous device-to-device copies only.
	child.refused(gocann.CodeRTParamInvalid, "read %s 8", addr)
	child.refused(gocann.CodeRTParamInvalid, "write %s 00", addr)
	if got := child.ok("d2d %s %d", addr, len(want)); got != hex.EncodeToString(want) {
		t.Fatalf("an asynchronous copy on device 1 of the import read %s, want %x", got, want)
	}
	// The flag turned peer access on: a second import needs no flag.
	child.ok("import %s 0", k)
	child.ok("close %s", k)
	child.ok("close %s", k)
	check(t, e.c.IPCMemClose(k))
}

func TestIPCMemoryAtlasA3(t *testing.T) {
	const soc = "Ascend910_9391"
	e, m := ipcEnv(t, soc)
	_, want, k := exportPattern(t, e, gocann.IPCMemExportDefault)
	child := startPeer(t, m, soc)
	wantCode(t, e.c.IPCMemSetAttr(k, 1, 0), gocann.CodeRTParamInvalid, "SetAttr of type 1")
	wantCode(t, e.c.IPCMemSetAttr(k, 0, 4), gocann.CodeRTParamInvalid, "SetAttr of link 4")
	wantCode(t, e.c.IPCMemSetAttr(k, 0, 2), gocann.CodeRTLinkTypeNotSupported, "SetAttr of a UB link")
	check(t, e.c.IPCMemSetAttr(k, 0, 1))
	wantCode(t, e.c.IPCMemImportPidInterServer(k, nil), gocann.CodeRTParamInvalid, "no servers")
	wantCode(t, e.c.IPCMemImportPidInterServer(k, []gocann.ServerPids{{SDID: 1}}), gocann.CodeRTParamInvalid, "a server with no processes")
	child.refused(gocann.CodeRTNoPermission, "import %s 0", k)
	check(t, e.c.IPCMemImportPidInterServer(k, []gocann.ServerPids{{SDID: 7, Pids: []int32{child.pid}}}))
	addr := child.ok("import %s 0", k)
	if got := child.ok("read %s %d", addr, len(want)); got != hex.EncodeToString(want) {
		t.Fatalf("the child read %s, want %x", got, want)
	}
	child.ok("close %s", k)

	// A fabric handle.
	r := e.r
	prop := gocann.DeviceMemProp(0, gocann.MemAttr(5))
	gran, err := r.MemAllocationGranularity(prop, 0)
	check(t, err)
	h, err := r.MallocPhysical(gran, prop, 0)
	check(t, err)
	va, err := r.ReserveMemAddress(gran, 0, 0, 0)
	check(t, err)
	check(t, r.MapMem(va, gran, 0, h, 0))
	check(t, e.c.CopyToDevice(va, []byte("fabric")))
	f, err := r.MemExportToFabricHandle(h, gocann.VMMExportNoPidValidation)
	check(t, err)
	var bad gocann.FabricHandle
	_, err = r.MemImportFromFabricHandle(bad, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "an empty fabric handle")
	if got := child.ok("fimport %x 6", f[:]); got != hex.EncodeToString([]byte("fabric")) {
		t.Fatalf("the child read %s through a fabric handle, want %x", got, "fabric")
	}
	check(t, r.UnmapMem(va))
	check(t, r.ReleaseMemAddress(va))
	check(t, r.FreePhysical(h))
	check(t, e.c.IPCMemClose(k))
}

func TestIPCMemoryUnsupported(t *testing.T) {
	// IPC memory is not on the Atlas 200I/500 A2.
	e, _ := ipcEnv(t, "Ascend310B1")
	p, err := e.c.Malloc(ipcSize, gocann.HugeFirst)
	check(t, err)
	_, err = e.c.IPCMemExportKey(p, ipcSize, 0)
	wantCode(t, err, gocann.CodeRTFeatureNotSupport, "export on an Ascend310B1")
	check(t, e.c.Free(p))
	// Without a machine the devices share nothing.
	t.Setenv("GOCANN_MACHINE", "")
	n := setup(t)
	p, err = n.c.Malloc(ipcSize, gocann.HugeFirst)
	check(t, err)
	_, err = n.c.IPCMemExportKey(p, ipcSize, 0)
	wantCode(t, err, gocann.CodeRTFeatureNotSupport, "export without a machine")
	pid, err := n.r.BareTgid()
	check(t, err)
	if pid <= 0 {
		t.Fatalf("BareTgid %d, want the process id", pid)
	}
}

func TestIPCMemoryDeviceReset(t *testing.T) {
	e, m := ipcEnv(t)
	_, _, k := exportPattern(t, e, gocann.IPCMemExportNoPidValidation)
	child := startPeer(t, m)
	child.ok("import %s 0", k)
	gone := child.ok("export %d 1", ipcSize)
	// A reset ends the device's imports and the exports of its memory.
	child.ok("reset")
	child.ok("dev 0")
	child.refused(gocann.CodeRTParamInvalid, "close %s", k)
	_, err := e.c.IPCMemImport(gone, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "an import of memory of a device reset since")
	addr := child.ok("import %s 0", k)
	child.ok("read %s 4", addr)
	child.ok("close %s", k)
	check(t, e.c.IPCMemClose(k))
}
