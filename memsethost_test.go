package gocann_test

import (
	"bytes"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann"
)

// TestMemsetPageableHost: the synchronous memset sets pageable host
// memory at once, as CANN's driver does; an address the process cannot
// write is 107000, not a crash; the asynchronous memset still refuses it.
func TestMemsetPageableHost(t *testing.T) {
	e := setup(t)
	buf := make([]byte, 100)
	check(t, e.c.Raw().Memset(gocann.CaptureThread{}, unsafe.Pointer(&buf[10]), 80, 0x5a, 80))
	if want := append(append(make([]byte, 10), bytes.Repeat([]byte{0x5a}, 80)...), make([]byte, 10)...); !bytes.Equal(buf, want) {
		t.Errorf("pageable memory after aclrtMemset: %x", buf)
	}
	page, err := unix.Mmap(-1, 0, 4096, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(page)
	wantErr(t, e.c.Raw().Memset(gocann.CaptureThread{}, unsafe.Pointer(&page[0]), 64, 1, 64), gocann.CodeRTParamInvalid, "not writable host memory")
	wantErr(t, e.s.Raw().MemsetAsync(unsafe.Pointer(&buf[0]), 64, 1, 64), gocann.CodeRTParamInvalid, "pageable host memory")
}
