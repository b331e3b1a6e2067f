package gocann_test

import (
	"bytes"
	"testing"

	"github.com/gocann/gocann"
)

func TestMemPoolTrim(t *testing.T) {
	e := setup(t)
	p := newPool(t, e, 64*mib)
	s2 := e.newStream(t)
	var ptrs []gocann.DevPtr
	for _, n := range []int64{mib, 3 * mib, 5 * mib} {
		a, err := e.s.MallocAsync(p, n)
		check(t, err)
		ptrs = append(ptrs, a)
	}
	wantSizes(t, p, 12*mib, 12*mib)
	wantErr(t, p.TrimTo(64*mib+1), gocann.CodeRTInternalError, "minBytesToKeep 67108865", "<= the pool's size")
	// Below the memory in use: nothing idle, nothing to give back.
	check(t, p.TrimTo(mib))
	wantSizes(t, p, 12*mib, 12*mib)
	check(t, p.TrimTo(12*mib)) // nothing to do
	free0, _, _ := e.d.MemInfo()
	g := block(t, s2)
	check(t, s2.FreeAsync(ptrs[0]))
	check(t, e.s.FreeAsync(ptrs[1]))
	wantSizes(t, p, 12*mib, 6*mib)
	syncOK(t, e.s)
	// The block freed on the blocked stream stays; the other goes.
	check(t, p.TrimTo(6*mib))
	wantSizes(t, p, 8*mib, 6*mib)
	g.Open()
	syncOK(t, s2)
	check(t, p.TrimTo(6*mib))
	wantSizes(t, p, 6*mib, 6*mib)
	// Each chunk is a device allocation with aclrtMalloc's 32-byte tail,
	// which takes one more 4 KiB page.
	if free1, _, _ := e.d.MemInfo(); free1 != free0+6*mib+2*4096 {
		t.Errorf("device free memory went from %d to %d after trimming two chunks of 6 MiB", free0, free1)
	}
	if h := poolAttr(t, p, gocann.MemPoolReservedHigh); h != 12*mib {
		t.Errorf("reserved high-water mark %d, want %d", h, 12*mib)
	}
	check(t, p.SetAttr(gocann.MemPoolReservedHigh, 0))
	if h := poolAttr(t, p, gocann.MemPoolReservedHigh); h != 6*mib {
		t.Errorf("reserved high-water mark after reset %d, want the current %d", h, 6*mib)
	}
	// A stream synchronize gives back what exceeds the release threshold.
	check(t, p.SetAttr(gocann.MemPoolReleaseThreshold, 0))
	check(t, e.s.FreeAsync(ptrs[2]))
	wantSizes(t, p, 6*mib, 0)
	syncOK(t, e.s)
	wantSizes(t, p, 0, 0)
}

func TestMemPoolTrimInUse(t *testing.T) {
	// "Releases unused memory without affecting the memory in use": a
	// target below the bytes in use trims to them, 0 gives back every idle
	// chunk, and the live allocations keep their bytes.
	e := setup(t)
	p := newPool(t, e, 64*mib)
	check(t, p.SetAttr(gocann.MemPoolReleaseThreshold, 64*mib)) // synchronizes keep everything
	var ptrs []gocann.DevPtr
	for _, n := range []int64{2 * mib, 4 * mib, 6 * mib} {
		a, err := e.s.MallocAsync(p, n)
		check(t, err)
		ptrs = append(ptrs, a)
	}
	want := bytes.Repeat([]byte{0xa5, 0x3c}, mib)
	check(t, e.s.CopyToDevice(ptrs[0], want))
	check(t, e.s.FreeAsync(ptrs[1]))
	syncOK(t, e.s)
	wantSizes(t, p, 12*mib, 8*mib)
	check(t, p.TrimTo(0))
	wantSizes(t, p, 8*mib, 8*mib)
	check(t, e.s.FreeAsync(ptrs[2]))
	syncOK(t, e.s)
	check(t, p.TrimTo(mib))
	wantSizes(t, p, 2*mib, 2*mib)
	got := make([]byte, len(want))
	check(t, e.s.CopyFromDevice(got, ptrs[0]))
	if !bytes.Equal(got, want) {
		t.Fatal("the allocation in use lost its bytes to a trim below it")
	}
	// Above the pool's size is still refused, live allocations or not.
	wantErr(t, p.TrimTo(64*mib+1), gocann.CodeRTInternalError, "minBytesToKeep 67108865", "<= the pool's size 67108864")
	wantErr(t, p.TrimTo(-1), gocann.CodeRTParamInvalid, "minBytesToKeep -1", ">= 0")
	check(t, e.s.FreeAsync(ptrs[0]))
	syncOK(t, e.s)
	check(t, p.TrimTo(0))
	wantSizes(t, p, 0, 0)
}
