package gocann_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// aclrtMallocForTaskScheduler: memory value writes and waits work on.
func TestMallocForTaskScheduler(t *testing.T) {
	e := setup(t)
	p, err := e.c.MallocForTaskScheduler(64, gocann.HugeFirst)
	check(t, err)
	writeU64(t, e.c, p, 0)
	w := e.newStream(t)
	check(t, w.WaitValue(p, 7, gocann.WaitEQ))
	check(t, w.WriteValue(p.Add(8), 9))
	stays(t, 20*time.Millisecond, "the wait holds before the write", func() bool { return !isDone(t, w) })
	check(t, e.s.WriteValue(p, 7))
	syncOK(t, w)
	wantU64(t, e, p.Add(8), 9, "the write behind the released wait")
	check(t, e.c.Free(p))
	_, err = e.c.MallocForTaskScheduler(0, gocann.HugeFirst)
	wantErr(t, err, gocann.CodeRTParamInvalid, "aclrtMallocForTaskScheduler", "size 0 is invalid")
}

// aclrtGetHardwareSyncAddr: one zeroed word per open device, which the
// blocks of one launch meet on; not the caller's to free.
func TestHardwareSyncAddr(t *testing.T) {
	e := setup(t)
	a, err := e.c.HardwareSyncAddr()
	check(t, err)
	b, err := e.c.HardwareSyncAddr()
	check(t, err)
	if a == 0 || a != b {
		t.Fatalf("HardwareSyncAddr = %#x then %#x, want one non-zero address", a, b)
	}
	wantU64(t, e, a, 0, "a fresh synchronization word")
	const blocks = 4
	met := malloc(t, e.c, 8*blocks)
	meet, err := e.r.RegisterKernel("hwsync_meet", func(blk *gocann.Block) {
		word := blk.Arg(0).Ptr()
		n := uint64(blk.Num())
		target := ((blk.Add64(word, 1)-1)/n + 1) * n
		deadline := time.Now().Add(long)
		for blk.Load64(word) < target && time.Now().Before(deadline) {
			runtime.Gosched()
		}
		if blk.Load64(word) >= target {
			blk.Store64(blk.Arg(1).Ptr().Add(int64(8*blk.Idx())), 1)
		}
	})
	check(t, err)
	for round := 1; round <= 2; round++ {
		check(t, e.s.Memset(met, 0, 8*blocks))
		check(t, e.s.Launch(meet, blocks, gocann.Ptr(a), gocann.Ptr(met)))
		syncOK(t, e.s)
		for i := range blocks {
			wantU64(t, e, met.Add(int64(8*i)), 1, "block met the others")
		}
		wantU64(t, e, a, uint64(blocks*round), "the word after the launches")
	}
	wantErr(t, e.c.Free(a), gocann.CodeRTParamInvalid, "the runtime owns")

	// A reset device takes the word; the next one is fresh.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	w1, err := c.HardwareSyncAddr()
	check(t, err)
	check(t, c.CopyToDevice(w1, []byte{1, 2, 3, 4, 5, 6, 7, 8}))
	check(t, d.Reset())
	d, err = r.SetDevice(0)
	check(t, err)
	c, err = d.Context()
	check(t, err)
	w2, err := c.HardwareSyncAddr()
	check(t, err)
	got := make([]byte, 8)
	check(t, c.CopyFromDevice(got, w2))
	for _, x := range got {
		if x != 0 {
			t.Fatalf("the word after a reset holds %v, want zeros", got)
		}
	}
}

// The Atlas A2 and A3 offer the word; the Ascend 950 and the Atlas
// 200I/500 A2 do not.
func TestHardwareSyncAddrSupport(t *testing.T) {
	for _, soc := range []string{"Ascend950PR_9599", "Ascend310B1"} {
		e := setup(t, profileConfig(soc))
		_, err := e.c.HardwareSyncAddr()
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtGetHardwareSyncAddr", soc)
	}
	e := setup(t, profileConfig("Ascend910_9391"))
	_, err := e.c.HardwareSyncAddr()
	check(t, err)
}
