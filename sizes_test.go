package gocann_test

import (
	"math"
	"strconv"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

// Sizes past what the address space or a uint64 holds are refused before
// anything is computed or copied with them: a product or sum that wraps
// must not pass a bounds check as a small number.

func TestCopy2DPitchOverflow(t *testing.T) {
	e := setup(t)
	const w, h = 5, 5
	a := malloc(t, e.c, 64)
	b := malloc(t, e.c, 64)
	src := make([]byte, 64)
	// 4 rows 2^62 apart span 2^64 + 5 bytes, which wraps to 5.
	const far = int64(1) << 62
	wantErr(t, e.s.Copy2DDeviceToDevice(a, far, b, 8, w, h), gocann.CodeRTParamInvalid, "dpitch 4611686018427387904 is invalid", "past the end")
	wantErr(t, e.s.Copy2DDeviceToDevice(a, 8, b, far, w, h), gocann.CodeRTParamInvalid, "spitch 4611686018427387904 is invalid", "past the end")
	wantErr(t, e.c.Copy2DToDevice(a, 8, src, far, w, h), gocann.CodeRTParamInvalid, "src holds 64 bytes", "more bytes than an int64 counts")
	wantErr(t, e.c.Copy2DFromDevice(src, far, a, 8, w, h), gocann.CodeRTParamInvalid, "dst holds 64 bytes", "more bytes than an int64 counts")
	// The pointer-level calls the C ABI uses, with pitches past int64.
	pa, err := e.r.Raw().DevicePointer(a)
	check(t, err)
	pb, err := e.r.Raw().DevicePointer(b)
	check(t, err)
	wantErr(t, e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, pa, math.MaxUint64, pb, 8, w, h, gocann.MemcpyDeviceToDevice),
		gocann.CodeRTParamInvalid, "dpitch 18446744073709551615 is invalid")
	wantErr(t, e.c.Raw().Memcpy2D(gocann.CaptureThread{}, pa, 8, unsafe.Pointer(&src[0]), 1<<62, w, h, gocann.MemcpyHostToDevice),
		gocann.CodeRTParamInvalid, "spitch 4611686018427387904 is invalid")
	syncOK(t, e.s)
}

func TestHostRangePastAddressSpace(t *testing.T) {
	// Pageable host memory cannot be checked against an allocation, but a
	// range past the end of the host address space cannot be memory.
	e := setup(t)
	buf := make([]byte, 64)
	p, q := unsafe.Pointer(&buf[0]), unsafe.Pointer(&buf[32])
	for _, n := range []uintptr{1 << 62, math.MaxUint64, 0xfffffffffffff000} {
		wantErr(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, p, n, q, n, gocann.MemcpyHostToHost), gocann.CodeRTParamInvalid, "range", "host address space")
		wantErr(t, e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, p, n, q, n, gocann.MemcpyHostToHost), gocann.CodeRTParamInvalid, "range", "host address space")
	}
	syncOK(t, e.s)
}

func TestCondSwitchBranchLimit(t *testing.T) {
	// Each branch is a model made at once: a count from a uint32 must not
	// make billions of them.
	e := setup(t)
	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	h, err := c.Model().NewCond(0, false)
	check(t, err)
	for _, n := range []int{gocann.MaxCondBranches + 1, math.MaxUint32} {
		_, err := e.s.AddCond(h, gocann.CondSwitch, n)
		wantErr(t, err, gocann.CodeRTParamInvalid, "with "+strconv.Itoa(n)+" branches is invalid", "SWITCH 1..65535")
	}
	m, err := c.End()
	check(t, err)
	check(t, m.Close())
}

func TestKernelViewOverflow(t *testing.T) {
	// n elements of 8 bytes for n = 2^61 is 2^64 bytes, which wraps to 0:
	// the view is a fault named as such, not a slice of 2^61 elements.
	e := setup(t)
	p := malloc(t, e.c, 16)
	k, err := e.r.RegisterKernel("huge", func(b *gocann.Block) { _ = gocann.View[uint64](b, b.Arg(0).Ptr(), 1<<61) })
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(p)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "huge"`, "view of 2305843009213693952 elements of 8 bytes")
}
