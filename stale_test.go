package gocann_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

func TestFreeHostTwiceAfterStagedCopy(t *testing.T) {
	// A pageable asynchronous copy stages its source in page-locked memory
	// of the runtime's, which may take the address of page-locked memory
	// the caller freed. That address is never the caller's again: a second
	// free is refused, it is not described as the caller's, and the
	// runtime's buffer keeps working.
	e := setup(t)
	const n = 4096
	dev := malloc(t, e.c, n)
	dp, err := e.r.DevicePointer(dev)
	check(t, err)
	p, err := e.r.MallocHostPointer(n)
	check(t, err)
	check(t, e.r.FreeHostPointer(p))
	src := bytes.Repeat([]byte{1}, n)
	check(t, e.s.MemcpyAsync(gocann.Caller{}, dp, n, unsafe.Pointer(&src[0]), n, gocann.MemcpyHostToDevice))
	syncOK(t, e.s)

	wantErr(t, e.r.FreeHostPointer(p), gocann.CodeRTParamInvalid, "hostPtr", "not memory from aclrtMallocHost")
	loc, _, _, err := e.r.PointerAttributes(uintptr(p))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("freed page-locked memory: location %v, want unregistered", loc)
	}
	_, _, err = e.r.AddressRange(p)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not in a live allocation")

	copy(src, bytes.Repeat([]byte{2}, n))
	check(t, e.s.MemcpyAsync(gocann.Caller{}, dp, n, unsafe.Pointer(&src[0]), n, gocann.MemcpyHostToDevice))
	syncOK(t, e.s)
	got := make([]byte, n)
	check(t, e.c.CopyFromDevice(got, dev))
	if !bytes.Equal(got, src) {
		t.Error("a pageable copy after the refused free copied the wrong bytes")
	}
	// The caller's own page-locked memory is still freed once, by its start.
	q, err := e.r.MallocHostPointer(n)
	check(t, err)
	wantErr(t, e.r.FreeHostPointer(unsafe.Add(q, 64)), gocann.CodeRTParamInvalid, "inside the allocation")
	check(t, e.r.FreeHostPointer(q))
}
