package gocann_test

import (
	"encoding/binary"
	"testing"

	"github.com/gocann/gocann"
)

// TestSIMTLaunch: on an Ascend 950 each block runs blockDim threads that
// see their indices and meet at SyncThreads: every thread writes its slot,
// then after the barrier reads the slot of its mirror thread, which only a
// working barrier guarantees is written.
func TestSIMTLaunch(t *testing.T) {
	e := setup(t, profileConfig("Ascend950PR_9599"))
	grid, block := gocann.Dim3{X: 2, Y: 3, Z: 1}, gocann.Dim3{X: 8, Y: 4, Z: 2}
	const threads, blocks = 64, 6
	in, out := malloc(t, e.c, 8*threads*blocks), malloc(t, e.c, 8*threads*blocks)
	k, err := e.r.RegisterSIMTKernel("mirror", func(b *gocann.Block) {
		ti, bd, bi, gd := b.ThreadIdx(), b.BlockDim(), b.BlockIdx(), b.GridDim()
		tid := ti.X + ti.Y*bd.X + ti.Z*bd.X*bd.Y
		blk := bi.X + bi.Y*gd.X
		base := gocann.DevPtr(b.Arg(0))
		slot := base.Add(int64(8 * (uint32(threads)*blk + tid)))
		b.Store64(slot, uint64(blk)<<32|uint64(tid)+1)
		b.SyncThreads()
		mirror := base.Add(int64(8 * (uint32(threads)*blk + threads - 1 - tid)))
		o := gocann.DevPtr(b.Arg(1)).Add(int64(8 * (uint32(threads)*blk + tid)))
		b.Store64(o, b.Load64(mirror))
	})
	check(t, err)
	check(t, e.c.CopyToDevice(in, make([]byte, 8*threads*blocks)))
	for range 3 {
		check(t, e.s.LaunchSIMT(k, grid, block, gocann.Ptr(in), gocann.Ptr(out)))
		syncOK(t, e.s)
		got := make([]byte, 8*threads*blocks)
		check(t, e.c.CopyFromDevice(got, out))
		for blk := range blocks {
			for tid := range threads {
				v := binary.LittleEndian.Uint64(got[8*(threads*blk+tid):])
				if want := uint64(blk)<<32 | uint64(threads-1-tid) + 1; v != want {
					t.Fatalf("block %d thread %d read %#x from its mirror, want %#x", blk, tid, v, want)
				}
			}
		}
	}

	// A thread that traps fails the launch; its block's others do not
	// wait for it at the barrier.
	bad, err := e.r.RegisterSIMTKernel("bad", func(b *gocann.Block) {
		if b.ThreadIdx().X == 3 {
			b.Trap("thread 3")
		}
		b.SyncThreads()
		b.SyncThreads()
	})
	check(t, err)
	check(t, e.s.LaunchSIMT(bad, gocann.Dim3{X: 1, Y: 1, Z: 1}, gocann.Dim3{X: 16, Y: 1, Z: 1}))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTrapException, "thread 3")

	// Refusals.
	plain, err := e.r.RegisterKernel("plain", func(*gocann.Block) {})
	check(t, err)
	one := gocann.Dim3{X: 1, Y: 1, Z: 1}
	e2 := setup(t, profileConfig("Ascend950PR_9599"))
	wantErr(t, e2.s.LaunchSIMT(plain, one, one), gocann.CodeRTParamInvalid, "not a SIMT kernel")
	wantErr(t, e.s.LaunchSIMT(k, gocann.Dim3{X: 1, Y: 0, Z: 1}, one), gocann.CodeRTParamInvalid, "gridDim [1,0,1]")
	wantErr(t, e.s.LaunchSIMT(k, one, gocann.Dim3{X: 0, Y: 1, Z: 1}), gocann.CodeRTParamInvalid, "blockDim [0,1,1]")
	wantErr(t, e.s.LaunchSIMT(k, one, gocann.Dim3{X: 64, Y: 64, Z: 1}), gocann.CodeRTParamInvalid, "4096 threads")
	syncOK(t, e.s)

	// The Atlas A2 has no SIMT units.
	a2 := setup(t)
	k2, err := a2.r.RegisterSIMTKernel("mirror", func(*gocann.Block) {})
	check(t, err)
	wantErr(t, a2.s.LaunchSIMT(k2, one, one), gocann.CodeRTFeatureNotSupport, "aclrtLaunchSIMTKernelWithHostArgs")
}
