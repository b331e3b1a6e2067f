package haltest

import (
	"bytes"
	"os"

	"github.com/gocann/gocann/hal"
)

// testShare checks that Share names a file holding the device memory: bytes
// written through Pointer read back from the file at the offset, and bytes
// written to the file show through Pointer.
func testShare(e *env) {
	s, ok := e.d.(hal.Sharer)
	if !ok {
		e.t.Skip("device memory cannot be shared")
	}
	t := e.t
	a := e.malloc(e.d, 8192)
	want := pattern(1000, 5)
	copy(devBytes(t, e.d, a.Addr+100, 1000), want)
	path, off, err := s.Share(a.Addr + 100)
	if err != nil {
		t.Fatalf("Share: %v", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("opening shared memory %s: %v", path, err)
	}
	defer f.Close()
	got := make([]byte, len(want))
	if _, err := f.ReadAt(got, off); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("the shared file does not hold the bytes written through Pointer")
	}
	if _, err := f.WriteAt([]byte("through the file"), off+2000); err != nil {
		t.Fatal(err)
	}
	if got := string(devBytes(t, e.d, a.Addr+2100, 16)); got != "through the file" {
		t.Errorf("Pointer reads %q after a write to the shared file", got)
	}
	freed := e.malloc(e.d, 4096)
	if err := e.d.Free(freed.Addr, 0); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Share(freed.Addr)
	wantKind(t, err, hal.KindInvalidAddress, "Share of freed memory")
}
