package gocann_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestWaitValueCompares(t *testing.T) {
	// aclrtValueWait unblocks when, for the word *p and the value v:
	// GEQ (int64)(*p - v) >= 0 (wrap-around safe), EQ *p == v,
	// AND (*p & v) != 0, NOR ^(*p | v) != 0.
	const top = ^uint64(0)
	for _, tc := range []struct {
		name      string
		cmp       gocann.WaitCompare
		v         uint64
		hold, let uint64 // a word that keeps the wait blocked, one that releases it
	}{
		{"GEQ", gocann.WaitGEQ, 10, 9, 10},
		{"GEQ above", gocann.WaitGEQ, 10, 0, 11},
		{"GEQ wrap-around", gocann.WaitGEQ, top - 4, top - 5, 3}, // 3 is 8 past top-4, modulo 2^64
		{"GEQ wrapped value", gocann.WaitGEQ, 3, top - 4, 3},     // top-4 is 8 before 3
		{"EQ", gocann.WaitEQ, 7, 8, 7},
		{"AND", gocann.WaitAND, 0b100, 0b011, 0b110},
		{"NOR", gocann.WaitNOR, 0xFFFF_FFFF_0000_0000, 0x0000_0000_FFFF_FFFF, 0x0000_0000_FFFF_FFFE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := setup(t)
			w := malloc(t, e.c, 8)
			writeU64(t, e.c, w, tc.hold)
			var passed atomic.Bool
			check(t, e.s.WaitValue(w, tc.v, tc.cmp))
			check(t, e.s.LaunchHostFunc(func() { passed.Store(true) }))
			stays(t, 20*time.Millisecond, fmt.Sprintf("wait held by %#x", tc.hold), func() bool { return !passed.Load() })
			s2 := e.newStream(t)
			check(t, s2.WriteValue(w, tc.let))
			syncOK(t, e.s)
			if !passed.Load() {
				t.Fatal("wait did not release")
			}
			// A word that already satisfies the condition does not hold.
			check(t, e.s.WaitValue(w, tc.v, tc.cmp))
			syncOK(t, e.s)
		})
	}
}

func TestValueOpsFollowStreamOrder(t *testing.T) {
	// Value writes and waits are stream tasks: a write runs after the tasks
	// queued before it, and a wait holds the tasks queued after it.
	e := setup(t)
	w := malloc(t, e.c, 8)
	out := malloc(t, e.c, 8)
	g := block(t, e.s)
	check(t, e.s.WriteValue(w, 1))
	s2 := e.newStream(t)
	check(t, s2.WaitValue(w, 1, gocann.WaitEQ))
	check(t, s2.WriteValue(out, 2))
	stays(t, 20*time.Millisecond, "write held behind the blocked task", func() bool { return readU64(t, e.c, w) == 0 })
	if readU64(t, e.c, out) != 0 {
		t.Fatal("the task after a pending wait ran")
	}
	g.Open()
	syncOK(t, s2)
	if readU64(t, e.c, w) != 1 || readU64(t, e.c, out) != 2 {
		t.Fatal("value write and wait did not run in order")
	}
}

func TestKernelStoreReleasesWaitValue(t *testing.T) {
	// "Kernels may write/poll the same memory."
	e := setup(t)
	w := malloc(t, e.c, 8)
	k, err := e.r.RegisterKernel("signal", func(b *gocann.Block) { b.Store64(b.Arg(0).Ptr(), 99) })
	check(t, err)
	s2 := e.newStream(t)
	var passed atomic.Bool
	check(t, s2.WaitValue(w, 99, gocann.WaitEQ))
	check(t, s2.LaunchHostFunc(func() { passed.Store(true) }))
	stays(t, 10*time.Millisecond, "wait held", func() bool { return !passed.Load() })
	check(t, e.s.Launch(k, 1, gocann.Ptr(w)))
	syncOK(t, s2)
	if !passed.Load() {
		t.Fatal("kernel store did not release the value wait")
	}
}

func TestWriteValueReleasesPollingKernel(t *testing.T) {
	// A kernel polling a word with Load64 sees a value write from another
	// stream while it runs.
	e := setup(t)
	w := malloc(t, e.c, 16)
	started := make(chan struct{})
	k, err := e.r.RegisterKernel("poll", func(b *gocann.Block) {
		close(started)
		deadline := time.Now().Add(long)
		for b.Load64(b.Arg(0).Ptr()) != 5 {
			if time.Now().After(deadline) {
				b.Trap("value never arrived")
			}
			time.Sleep(10 * time.Microsecond)
		}
		b.Store64(b.Arg(0).Ptr().Add(8), 6)
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(w)))
	<-started
	s2 := e.newStream(t)
	check(t, s2.WriteValue(w, 5))
	syncOK(t, e.s)
	if v := readU64(t, e.c, w.Add(8)); v != 6 {
		t.Fatalf("polling kernel wrote %d, want 6", v)
	}
}

func TestValueChecks(t *testing.T) {
	// aclrtValueWrite: "devAddr: 8-byte aligned"; flag values 0..3.
	e := setup(t)
	w := malloc(t, e.c, 16)
	wantErr(t, e.s.WriteValue(w.Add(4), 1), gocann.CodeRTAddrUnaligned, "8-byte alignment", fmt.Sprintf("%#x", uint64(w)+4))
	wantErr(t, e.s.WaitValue(w.Add(1), 1, gocann.WaitEQ), gocann.CodeRTAddrUnaligned, "8-byte alignment")
	wantErr(t, e.s.WaitValue(w, 1, gocann.WaitCompare(4)), gocann.CodeRTParamInvalid, "flag 4 is invalid", "3 (NOR)")
	// Out of bounds, freed and other-device words are covered with every
	// pointer-taking call in TestPointerChecks; the last word is in bounds.
	check(t, e.s.WriteValue(w.Add(8), 1))
	syncOK(t, e.s)
}
