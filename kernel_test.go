package gocann_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestRegisterKernel(t *testing.T) {
	r := newRuntime(t, smallConfig)
	k, err := r.RegisterKernel("vadd", func(*gocann.Block) {})
	check(t, err)
	if k.Name() != "vadd" {
		t.Errorf("Name() = %q", k.Name())
	}
	found, err := r.Kernel("vadd")
	check(t, err)
	if found.Name() != "vadd" {
		t.Errorf("Kernel(vadd).Name() = %q", found.Name())
	}
	// One *Kernel per kernel, however it is reached.
	if found != k || gocann.NewKernel(k.Raw()) != k {
		t.Errorf("Kernel(vadd) and NewKernel(Raw()) give %p and %p, want RegisterKernel's %p", found, gocann.NewKernel(k.Raw()), k)
	}
	_, err = r.RegisterKernel("vadd", func(*gocann.Block) {})
	wantErr(t, err, gocann.CodeKernelAlreadyRegistered, `"vadd"`, "already registered")
	_, err = r.RegisterKernel("", func(*gocann.Block) {})
	wantErr(t, err, gocann.CodeRTParamInvalid, "name is empty")
	_, err = r.RegisterKernel("nil", nil)
	wantErr(t, err, gocann.CodeRTParamInvalid, `"nil"`, "function is nil")
	_, err = r.Kernel("missing")
	wantErr(t, err, gocann.CodeKernelNotFound, `"missing"`, "not registered")
}

func TestLaunchArgSlots(t *testing.T) {
	// Arguments are 8-byte slots: pointers, integers and floats go in and
	// come out unchanged.
	e := setup(t)
	out := malloc(t, e.c, 8*8)
	k, err := e.r.RegisterKernel("args", func(b *gocann.Block) {
		v := gocann.View[uint64](b, b.Arg(0).Ptr(), 8)
		v[0] = uint64(b.NArgs())
		v[1] = b.Arg(1).U64()
		v[2] = uint64(b.Arg(2).I64())
		v[3] = uint64(math.Float32bits(b.Arg(3).F32()))
		v[4] = math.Float64bits(b.Arg(4).F64())
		v[5] = uint64(b.Arg(0).Ptr())
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(out), gocann.U64(math.MaxUint64), gocann.I64(-5),
		gocann.F32(1.5), gocann.F64(-2.25)))
	syncOK(t, e.s)
	want := []uint64{5, math.MaxUint64, uint64(1<<64 - 5), uint64(math.Float32bits(1.5)), math.Float64bits(-2.25), uint64(out)}
	for i, w := range want {
		if got := readU64(t, e.c, out.Add(int64(8*i))); got != w {
			t.Errorf("slot %d read back %#x, want %#x", i, got, w)
		}
	}
	// The typed accessors invert the constructors.
	if gocann.I64(-5).I64() != -5 || gocann.F32(-0.5).F32() != -0.5 || gocann.F64(math.Pi).F64() != math.Pi ||
		gocann.Ptr(out).Ptr() != out || gocann.U64(7).U64() != 7 {
		t.Error("Arg accessors do not invert the constructors")
	}
}

func TestLaunchLimits(t *testing.T) {
	e := setup(t)
	var got sync.Map
	k, err := e.r.RegisterKernel("count", func(b *gocann.Block) { got.Store(b.NArgs(), b.Arg(b.NArgs()-1).U64()) })
	check(t, err)
	args := make([]gocann.Arg, 33)
	for i := range args {
		args[i] = gocann.U64(uint64(i))
	}
	check(t, e.s.Launch(k, 1, args[:32]...)) // MaxArgs slots fit
	wantErr(t, e.s.Launch(k, 1, args...), gocann.CodeRTParamInvalid, "33 argument slots", "at most 32")
	wantErr(t, e.s.Launch(k, 0), gocann.CodeRTParamInvalid, "numBlocks 0 is invalid", "1..65535")
	wantErr(t, e.s.Launch(k, 65536), gocann.CodeRTParamInvalid, "numBlocks 65536")
	wantErr(t, e.s.Launch(nil, 1), gocann.CodeInvalidParam, "kernel is nil")
	syncOK(t, e.s)
	if v, ok := got.Load(32); !ok || v.(uint64) != 31 {
		t.Fatalf("32-slot launch: kernel saw last slot %v, %v; want 31", v, ok)
	}
}

func TestBlockIndexAndSpan(t *testing.T) {
	// GetBlockIdx / GetBlockNum; Span splits [0, n) evenly over the blocks.
	e := setup(t)
	const n, blocks = 100, 7
	idx := malloc(t, e.c, n*8)
	num := malloc(t, e.c, blocks*8)
	check(t, e.c.Memset(idx, 0xFF, n*8))
	k, err := e.r.RegisterKernel("span", func(b *gocann.Block) {
		out := gocann.View[int64](b, b.Arg(0).Ptr(), n)
		nums := gocann.View[int64](b, b.Arg(1).Ptr(), blocks)
		nums[b.Idx()] = int64(b.Num())
		lo, hi := b.Span(n)
		for i := lo; i < hi; i++ {
			out[i] = int64(b.Idx())
		}
	})
	check(t, err)
	check(t, e.s.Launch(k, blocks, gocann.Ptr(idx), gocann.Ptr(num)))
	syncOK(t, e.s)
	got := make([]int64, n)
	for i := range got {
		got[i] = int64(readU64(t, e.c, idx.Add(int64(8*i))))
	}
	// Every element covered once, by blocks in order, shares differing by
	// at most one.
	count := make([]int, blocks)
	for i, b := range got {
		if b < 0 || b >= blocks || (i > 0 && b < got[i-1]) {
			t.Fatalf("element %d written by block %d (previous %d)", i, b, got[max(i-1, 0)])
		}
		count[b]++
	}
	for b, c := range count {
		if c != n/blocks && c != n/blocks+1 {
			t.Errorf("block %d covered %d elements, want %d or %d", b, c, n/blocks, n/blocks+1)
		}
		if v := readU64(t, e.c, num.Add(int64(8*b))); v != blocks {
			t.Errorf("block %d saw Num() = %d", b, v)
		}
	}
}

func TestBlocksRunConcurrentlyUpToCoreCount(t *testing.T) {
	// "A kernel's blocks run concurrently up to the chip profile's core
	// count": four blocks on four cores meet at a barrier in device memory;
	// nine blocks on two cores never run more than two at once.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"aicore_num":4}}`)
	w := malloc(t, e.c, 8)
	barrier, err := e.r.RegisterKernel("barrier", func(b *gocann.Block) {
		p := b.Arg(0).Ptr()
		b.Add64(p, 1)
		deadline := time.Now().Add(long)
		for b.Load64(p) != uint64(b.Num()) {
			if time.Now().After(deadline) {
				b.Trap("barrier never filled")
			}
			time.Sleep(10 * time.Microsecond)
		}
	})
	check(t, err)
	check(t, e.s.Launch(barrier, 4, gocann.Ptr(w)))
	syncOK(t, e.s)

	e2 := setup(t, `{"simulator":{"hbm_size":1073741824,"aicore_num":2}}`)
	var running, most, ran atomic.Int32
	k, err := e2.r.RegisterKernel("count", func(*gocann.Block) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(2 * time.Millisecond)
		running.Add(-1)
		ran.Add(1)
	})
	check(t, err)
	check(t, e2.s.Launch(k, 9))
	syncOK(t, e2.s)
	if ran.Load() != 9 || most.Load() > 2 {
		t.Fatalf("%d of 9 blocks ran, at most %d at once; want 9, at most 2", ran.Load(), most.Load())
	}
}

func TestKernelViewBounds(t *testing.T) {
	// "An out-of-bounds, freed or misaligned view is a kernel fault,
	// reported as an AI core exception."
	e := setup(t)
	p := malloc(t, e.c, 16)
	k, err := e.r.RegisterKernel("overrun", func(b *gocann.Block) {
		_ = gocann.View[uint32](b, b.Arg(0).Ptr(), int(b.Arg(1).U64()))
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(4))) // exactly fits
	syncOK(t, e.s)
	check(t, e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(5)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "overrun"`, "runs past its allocation")
	check(t, e.s.Launch(k, 1, gocann.Ptr(p.Add(2)), gocann.U64(1)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "overrun"`, "not aligned")
	check(t, e.c.Free(p))
	check(t, e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(1)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "overrun"`, "no live allocation")
	// Memory of another device is out of reach too.
	_, s1 := onDevice(t, e.r, 1)
	q := malloc(t, e.c, 16)
	check(t, s1.Launch(k, 1, gocann.Ptr(q), gocann.U64(1)))
	wantErr(t, s1.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "overrun"`, "not on device 1")
	// Reading a slot past the launch's is a fault too.
	k2, err := e.r.RegisterKernel("slot", func(b *gocann.Block) { b.Arg(3) })
	check(t, err)
	check(t, e.s.Launch(k2, 1, gocann.U64(1)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "argument slot 3", "passed 1")
}

func TestKernelPanic(t *testing.T) {
	// A panicking kernel is an AI core exception (507015) reported at the
	// first synchronizing call, naming the kernel and the Launch call site,
	// and handed to the exception callbacks; the process keeps running.
	e := setup(t)
	cause := errors.New("kernel cause")
	k, err := e.r.RegisterKernel("explode", func(b *gocann.Block) {
		if b.Idx() == 2 {
			panic(fmt.Errorf("block 2: %w", cause))
		}
	})
	check(t, err)

	var mu sync.Mutex
	var set, added []gocann.ExceptionInfo
	e.r.SetExceptionCallback(func(i gocann.ExceptionInfo) { mu.Lock(); set = append(set, i); mu.Unlock() })
	remove := e.r.AddExceptionCallback(func(i gocann.ExceptionInfo) { mu.Lock(); added = append(added, i); mu.Unlock() })
	count := func() (int, int) { mu.Lock(); defer mu.Unlock(); return len(set), len(added) }

	check(t, e.s.LaunchHostFunc(func() {})) // task 1
	_, _, line, _ := runtime.Caller(0)
	check(t, e.s.Launch(k, 4)) // task 2; the line after the Caller call
	site := fmt.Sprintf("kernel_test.go:%d", line+1)
	err = e.s.SynchronizeTimeout(long)
	ge := wantErr(t, err, gocann.CodeRTAICoreException, `kernel "explode"`, site, "TestKernelPanic", "kernel cause")
	if !errors.Is(err, gocann.ErrDevice) || !errors.Is(err, cause) {
		t.Errorf("errors.Is(err, ErrDevice) = %v, errors.Is(err, cause) = %v; want both", errors.Is(err, gocann.ErrDevice), errors.Is(err, cause))
	}
	if ge.Op != "Stream.SynchronizeTimeout (aclrtSynchronizeStreamWithTimeout)" {
		t.Errorf("Op = %q", ge.Op)
	}
	syncOK(t, e.s) // reported once

	eventually(t, "exception callbacks", func() bool { a, b := count(); return a == 1 && b == 1 })
	mu.Lock()
	info := set[0]
	if added[0].TaskID != info.TaskID || added[0].Kernel != info.Kernel {
		t.Errorf("the two callbacks saw different faults: %+v / %+v", info, added[0])
	}
	mu.Unlock()
	if info.Code != gocann.CodeRTAICoreException || info.DeviceID != 0 || info.StreamID != e.s.ID() ||
		info.TaskID != 2 || info.Kernel != "explode" || !strings.Contains(info.Site, site) ||
		!strings.Contains(info.Msg, "block 2") || !errors.Is(info.Err, cause) {
		t.Errorf("ExceptionInfo = %+v; want code 507015, device 0, stream %d, task 2, kernel explode, site %s",
			info, e.s.ID(), site)
	}

	// Removed and cleared callbacks are not called again.
	remove()
	e.r.SetExceptionCallback(nil)
	check(t, e.s.Launch(k, 4))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "explode"`)
	time.Sleep(20 * time.Millisecond)
	if a, b := count(); a != 1 || b != 1 {
		t.Errorf("callbacks called %d and %d times, want once each: removal did not stick", a, b)
	}
	// A nil callback adds nothing, and its remove function does nothing.
	e.r.AddExceptionCallback(nil)()
	e.r.AddExceptionCallback(nil)
	check(t, e.s.Launch(k, 4))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "explode"`)
	time.Sleep(20 * time.Millisecond) // a nil callback would crash the process now
	// The process and the stream carry on.
	check(t, e.s.LaunchHostFunc(func() {}))
	syncOK(t, e.s)
}

func TestKernelTrap(t *testing.T) {
	// Block.Trap is an AI core trap exception (507016).
	e := setup(t)
	k, err := e.r.RegisterKernel("trapper", func(b *gocann.Block) { b.Trap("assertion x > 0") })
	check(t, err)
	check(t, e.s.Launch(k, 3))
	err = e.s.SynchronizeTimeout(long)
	wantErr(t, err, gocann.CodeRTAICoreTrapException, `kernel "trapper"`, "assertion x > 0")
	if !errors.Is(err, gocann.ErrDevice) {
		t.Errorf("errors.Is(%v, ErrDevice) = false", err)
	}
}

func TestLaunchAllocatesNothing(t *testing.T) {
	// "Arguments ... passed without per-launch heap allocation."
	e := setup(t)
	p := malloc(t, e.c, 8)
	k, err := e.r.RegisterKernel("trivial", func(*gocann.Block) {})
	check(t, err)
	// Warm up: grow the stream's task ring to its full depth, so the
	// measured launches reuse it whatever their pace.
	for range 2 * e.d.Props().QueueDepth {
		check(t, e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(1)))
	}
	syncOK(t, e.s)
	var launchErr error
	allocs := testing.AllocsPerRun(200, func() {
		if err := e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(1), gocann.F32(2)); err != nil {
			launchErr = err
		}
	})
	check(t, launchErr)
	syncOK(t, e.s)
	if allocs != 0 {
		t.Fatalf("Stream.Launch allocates %v times per call, want 0", allocs)
	}
}
