package gocann_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

const ipcSize = 1 << 20

// exportPattern allocates ipcSize bytes, fills them with a pattern and
// exports them with flags.
func exportPattern(t *testing.T, e env, flags uint64) (gocann.DevPtr, []byte, string) {
	t.Helper()
	p, err := e.c.Malloc(ipcSize, gocann.HugeFirst)
	check(t, err)
	want := make([]byte, 64)
	for i := range want {
		want[i] = byte(i*7 + 3)
	}
	check(t, e.c.CopyToDevice(p, want))
	k, err := e.c.IPCMemExportKey(p, ipcSize, flags)
	check(t, err)
	if len(k) != gocann.IPCKeyLen || strings.Trim(k, "0123456789abcdef") != "" {
		t.Fatalf("key %q, want %d lowercase hexadecimal digits", k, gocann.IPCKeyLen)
	}
	return p, want, k
}

func TestIPCMemoryAcrossProcesses(t *testing.T) {
	e, m := ipcEnv(t)
	p, want, k := exportPattern(t, e, gocann.IPCMemExportDefault)
	child := startPeer(t, m)

	// Not on the whitelist yet: the driver's refusal.
	child.refused(gocann.CodeRTNoPermission, "import %s 0", k)
	check(t, e.c.IPCMemSetImportPid(k, child.pid))
	addr := child.ok("import %s 0", k)
	if got := child.ok("read %s %d", addr, len(want)); got != hex.EncodeToString(want) {
		t.Fatalf("the child read %s, want %x", got, want)
	}
	// The child writes in place; the exporter sees it.
	child.ok("write %s %s", addr, "c0ffee")
	got := make([]byte, 3)
	check(t, e.c.CopyFromDevice(got, p))
	if !bytes.Equal(got, []byte{0xc0, 0xff, 0xee}) {
		t.Fatalf("the exporter reads %x, want c0ffee", got)
	}
	// aclrtFree of an import is refused; a second import is a mapping of
	// its own, with a Close of its own.
	child.refused(gocann.CodeRTParamInvalid, "free %s", addr)
	child.refused(gocann.CodeRTParamInvalid, "unmap %s", addr)
	child.refused(gocann.CodeRTParamInvalid, "release %s", addr)
	second := child.ok("import %s 0", k)
	if second == addr {
		t.Fatalf("the second import is at %s too", addr)
	}
	child.ok("close %s", k)
	if got := child.ok("read %s 3", second); got != "c0ffee" {
		t.Fatalf("the second import reads %s after the first closed, want c0ffee", got)
	}
	child.ok("close %s", k)
	// Closing more than it imported: the key is not the child's.
	child.refused(gocann.CodeRTParamInvalid, "close %s", k)

	// A kernel of the importer writes the exporter's memory, the import
	// closed before it ran.
	kaddr := child.ok("import %s 0", k)
	child.ok("kstore %#x %d %s", num(kaddr)+8, 0x1234567890, k)
	if v := readU64(t, e.c, p.Add(8)); v != 0x1234567890 {
		t.Fatalf("the exporter reads %#x where the importer's kernel stored 0x1234567890", v)
	}

	// The exporter closes: imports made before keep working, later ones
	// are refused.
	held := child.ok("import %s 0", k)
	check(t, e.c.IPCMemClose(k))
	child.refused(gocann.CodeRTParamInvalid, "import %s 0", k)
	if got := child.ok("read %s 3", held); got != "c0ffee" {
		t.Fatalf("an import made before the exporter closed reads %s, want c0ffee", got)
	}
	child.ok("close %s", k)
	wantCode(t, e.c.IPCMemClose(k), gocann.CodeRTParamInvalid, "a second Close of the export")
	check(t, e.c.Free(p))
}

func TestIPCMemoryNoPidCheck(t *testing.T) {
	e, m := ipcEnv(t)
	_, want, k := exportPattern(t, e, gocann.IPCMemExportNoPidValidation)
	child := startPeer(t, m)
	addr := child.ok("import %s 1", k)
	if got := child.ok("read %s %d", addr, len(want)); got != hex.EncodeToString(want) {
		t.Fatalf("the child read %s, want %x", got, want)
	}
	child.ok("close %s", k)
	check(t, e.c.IPCMemClose(k))
}

func TestIPCMemoryKeys(t *testing.T) {
	e, m := ipcEnv(t)
	p, _, k := exportPattern(t, e, 0)
	forged := make([]byte, 32)
	_, _ = rand.Read(forged)
	for _, key := range []string{hex.EncodeToString(forged), "", "xyz", k[:63], k + "0", strings.Repeat("g", 64), strings.ToUpper(k[:2]) + "\x00" + k[3:]} {
		_, err := e.c.IPCMemImport(key, 0)
		wantCode(t, err, gocann.CodeRTParamInvalid, fmt.Sprintf("import of key %q", key))
		wantCode(t, e.c.IPCMemClose(key), gocann.CodeRTParamInvalid, fmt.Sprintf("close of key %q", key))
	}
	wantCode(t, e.c.IPCMemSetImportPid(hex.EncodeToString(forged), 1), gocann.CodeRTParamInvalid, "a whitelist of a key not exported")
	wantCode(t, e.c.IPCMemSetImportPid(k), gocann.CodeRTParamInvalid, "an empty whitelist")
	// The export's range, flags and alignment.
	_, err := e.c.IPCMemExportKey(p, ipcSize+1, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "export past the allocation")
	_, err = e.c.IPCMemExportKey(p, 0, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "export of 0 bytes")
	_, err = e.c.IPCMemExportKey(p, 16, 2)
	wantCode(t, err, gocann.CodeRTParamInvalid, "export with flags 2")
	_, err = e.c.IPCMemExportKey(p+8, 16, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "export inside a page")
	_, err = e.c.IPCMemImport(k, 2)
	wantCode(t, err, gocann.CodeRTParamInvalid, "import with flags 2")
	// Off the Atlas A3, the A3-only calls.
	wantCode(t, e.c.IPCMemSetAttr(k, 0, 0), gocann.CodeRTFeatureNotSupport, "SetAttr on the default chip")

	// A key whose exporter exited.
	child := startPeer(t, m)
	gone := child.ok("export %d 1", ipcSize)
	child.end()
	_, err = e.c.IPCMemImport(gone, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "import from an exporter that exited")
	check(t, e.c.IPCMemClose(k))
}

func TestIPCMemoryCapacityAndKill(t *testing.T) {
	e, m := ipcEnv(t)
	p, want, k := exportPattern(t, e, 1)
	child := startPeer(t, m)
	free0, _, err := e.d.MemInfo()
	check(t, err)
	const n = 64 << 20
	child.ok("malloc %d", n)
	free1, _, err := e.d.MemInfo()
	check(t, err)
	if free0-free1 < n {
		t.Fatalf("free memory %d after the child's %d bytes, want at most %d", free1, n, free0-n)
	}
	addr := child.ok("import %s 0", k)
	child.ok("read %s 4", addr)
	child.kill()
	// The parent goes on: its memory, its export, its device.
	got := make([]byte, len(want))
	check(t, e.c.CopyFromDevice(got, p))
	if !bytes.Equal(got, want) {
		t.Fatalf("after the child was killed the exporter reads %x, want %x", got, want)
	}
	free2, _, err := e.d.MemInfo()
	check(t, err)
	if free2 < free0 {
		t.Fatalf("free memory %d after the child was killed, want %d back", free2, free0)
	}
	// A new importer still can.
	again := startPeer(t, m)
	a := again.ok("import %s 0", k)
	if got := again.ok("read %s %d", a, len(want)); got != hex.EncodeToString(want) {
		t.Fatalf("a new child read %s, want %x", got, want)
	}
	again.ok("close %s", k)
	check(t, e.c.IPCMemClose(k))
	check(t, e.c.Free(p))
}

func TestIPCShareableHandle(t *testing.T) {
	e, m := ipcEnv(t)
	r := e.r
	prop := gocann.DeviceMemProp(0, gocann.MemAttr(5)) // ACL_HBM_MEM_NORMAL
	gran, err := r.MemAllocationGranularity(prop, 0)
	check(t, err)
	h, err := r.MallocPhysical(gran, prop, 0)
	check(t, err)
	va, err := r.ReserveMemAddress(gran, 0, 0, 0)
	check(t, err)
	check(t, r.MapMem(va, gran, 0, h, 0))
	want := []byte("physical memory across processes")
	check(t, e.c.CopyToDevice(va, want))
	sh, err := r.MemExportToShareableHandle(h, 0, gocann.VMMExportDefault)
	check(t, err)
	_, err = r.MemExportToShareableHandle(h, 0, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "a second export of one allocation")
	_, err = r.MemExportToShareableHandle(h, 2, 0)
	wantCode(t, err, gocann.CodeInvalidParam, "handleType 2")
	_, err = r.MemImportFromShareableHandle(sh, 0)
	wantCode(t, err, gocann.CodeRTParamInvalid, "an import of the process's own export")
	_, err = r.MemExportToFabricHandle(h, 0)
	wantCode(t, err, gocann.CodeRTFeatureNotSupport, "a fabric handle on the default chip")

	child := startPeer(t, m)
	child.refused(gocann.CodeRTNoPermission, "pimport %d %d", sh, len(want))
	check(t, r.MemSetPidToShareableHandle(sh, child.pid))
	if got := child.ok("pimport %d %d", sh, len(want)); got != hex.EncodeToString(want) {
		t.Fatalf("the child read %s through its mapping, want %x", got, want)
	}
	wantCode(t, r.MemSetPidToShareableHandle(sh+1, 1), gocann.CodeRTParamInvalid, "a whitelist of a handle not exported")
	check(t, r.UnmapMem(va))
	check(t, r.ReleaseMemAddress(va))
	check(t, r.FreePhysical(h))
	// Freed: the handle names nothing any more.
	child.refused(gocann.CodeRTParamInvalid, "pimport %d 1", sh)
}
