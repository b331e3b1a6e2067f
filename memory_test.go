package gocann_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

func TestMallocPolicies(t *testing.T) {
	// aclrtMemMallocPolicy: HUGE_FIRST uses 2M pages above 1M, normal pages
	// up to 1M; HUGE_ONLY 2M pages; NORMAL_ONLY 4K pages; an out-of-range
	// value gives huge pages from 2M up, normal below. The band-width hints
	// change nothing. Addresses are aligned to the page size.
	e := setup(t)
	const k, m = 4 << 10, 2 << 20
	for _, tc := range []struct {
		policy gocann.MallocPolicy
		size   int64
		page   int64
	}{
		{gocann.NormalOnly, 1, k},
		{gocann.NormalOnly, 8 << 20, k},
		{gocann.HugeOnly, 1, m},
		{gocann.HugeOnly, 3 << 20, m},
		{gocann.HugeFirst, 1 << 20, k},
		{gocann.HugeFirst, 1<<20 + 1, m},
		{gocann.HugeFirstP2P, 4 << 20, m},
		{gocann.HugeOnlyP2P, 100, m},
		{gocann.NormalOnlyP2P, 4 << 20, k},
		{gocann.HugeOnly | gocann.HighBandwidth, 100, m},
		{gocann.NormalOnly | gocann.LowBandwidth, 4 << 20, k},
		{gocann.MallocPolicy(99), 2 << 20, m},
		{gocann.MallocPolicy(99), 2<<20 - 1, k},
	} {
		p, err := e.c.Malloc(tc.size, tc.policy)
		check(t, err)
		loc, dev, page, err := e.r.PointerAttributes(uintptr(p))
		check(t, err)
		if loc != gocann.LocationDevice || dev != 0 || page != tc.page {
			t.Errorf("Malloc(%d, %#x): location %v, device %d, page %d; want device 0, page %d",
				tc.size, tc.policy, loc, dev, page, tc.page)
		}
		if int64(p)%tc.page != 0 {
			t.Errorf("Malloc(%d, %#x) = %#x, not aligned to its %d-byte page", tc.size, tc.policy, uint64(p), tc.page)
		}
		// The last byte is usable, the one after is not.
		check(t, e.c.Memset(p.Add(tc.size-1), 1, 1))
		wantErr(t, e.c.Memset(p.Add(tc.size), 1, 1), gocann.CodeRTParamInvalid, "devPtr")
	}
}

func TestMallocBadSize(t *testing.T) {
	// aclrtMalloc: "size must not be 0".
	e := setup(t)
	for _, n := range []int64{0, -1} {
		_, err := e.c.Malloc(n, gocann.HugeFirst)
		wantErr(t, err, gocann.CodeRTParamInvalid, fmt.Sprintf("size %d is invalid", n), "> 0")
	}
	// More than the device has: out of memory.
	_, err := e.c.Malloc(2<<30, gocann.HugeFirst)
	wantErr(t, err, gocann.CodeRTMemoryAllocation, "out of memory", "2147483648")
	if !errors.Is(err, gocann.ErrOutOfMemory) {
		t.Errorf("errors.Is(%v, ErrOutOfMemory) = false", err)
	}
}

func TestMallocCachingKeepsBytes(t *testing.T) {
	// "Never-used memory reads as zero; reused memory keeps its old bytes":
	// freeing and allocating the same size again returns the same block.
	e := setup(t)
	const n = 64 << 10
	p := malloc(t, e.c, n)
	fresh := make([]byte, n)
	check(t, e.c.CopyFromDevice(fresh, p))
	if !bytes.Equal(fresh, make([]byte, n)) {
		t.Fatal("never-used device memory does not read as zero")
	}
	pattern := bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, n/4)
	check(t, e.c.CopyToDevice(p, pattern))
	check(t, e.c.Free(p))
	q := malloc(t, e.c, n)
	if q != p {
		t.Fatalf("Malloc after Free of the same size: %#x, want the cached block %#x", uint64(q), uint64(p))
	}
	got := make([]byte, n)
	check(t, e.c.CopyFromDevice(got, q))
	if !bytes.Equal(got, pattern) {
		t.Fatal("reused memory lost its old bytes")
	}
}

func TestMemInfoTracksAllocations(t *testing.T) {
	e := setup(t)
	free0, total, err := e.d.MemInfo()
	check(t, err)
	const n = 16 << 20
	p, err := e.c.Malloc(n, gocann.HugeOnly)
	check(t, err)
	free1, total1, err := e.d.MemInfo()
	check(t, err)
	if total1 != total || free0-free1 < n || free0-free1 > n+2<<20 {
		t.Fatalf("free %d -> %d after a %d-byte Malloc (total %d -> %d)", free0, free1, n, total, total1)
	}
	check(t, e.c.Free(p))
	free2, _, err := e.d.MemInfo()
	check(t, err)
	if free2 != free0 {
		t.Fatalf("free %d after Free, want %d as before the Malloc", free2, free0)
	}
}

func TestMallocHost(t *testing.T) {
	// aclrtMallocHost: page-locked memory, "address 64-byte aligned".
	e := setup(t)
	h, err := e.r.MallocHost(100)
	check(t, err)
	if h.Len() != 100 || len(h.Bytes()) != 100 || uintptr(h.Pointer())%64 != 0 {
		t.Fatalf("MallocHost(100): len %d/%d, address %p", h.Len(), len(h.Bytes()), h.Pointer())
	}
	if n := len(gocann.HostView[uint32](h)); n != 25 {
		t.Errorf("HostView[uint32] has %d elements, want 25", n)
	}
	if n := len(gocann.Float32s(h)); n != 25 {
		t.Errorf("Float32s has %d elements, want 25", n)
	}
	if n := len(gocann.HostView[float64](h)); n != 12 {
		t.Errorf("HostView[float64] has %d elements, want 12", n)
	}
	loc, _, page, err := e.r.PointerAttributes(uintptr(h.Pointer()) + 99)
	check(t, err)
	if loc != gocann.LocationHost || page != 4<<10 {
		t.Errorf("host buffer: location %v, page %d; want host, 4096", loc, page)
	}
	for _, n := range []int{0, -5} {
		_, err := e.r.MallocHost(n)
		wantErr(t, err, gocann.CodeRTParamInvalid, fmt.Sprintf("size %d is invalid", n))
	}
	check(t, h.Close())
	check(t, h.Close()) // closing twice is a no-op
	p := malloc(t, e.c, 8)
	wantErr(t, e.s.CopyHostToDevice(p, h, 0, 8), gocann.CodeRTInvalidHandle, "src host buffer was closed")
	wantErr(t, e.s.CopyDeviceToHost(h, 0, p, 8), gocann.CodeRTInvalidHandle, "dst host buffer was closed")
	loc, _, _, err = e.r.PointerAttributes(uintptr(h.Pointer()))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("closed host buffer: location %v, want unregistered", loc)
	}
}

func TestPointerAttributes(t *testing.T) {
	// ACL_MEM_LOCATION_TYPE_UNREGISTERED: "memory not allocated via acl APIs".
	e := setup(t)
	d1, err := e.r.SetDevice(1)
	check(t, err)
	c1, err := d1.Context()
	check(t, err)
	p1 := malloc(t, c1, 64)
	loc, dev, _, err := e.r.PointerAttributes(uintptr(p1.Add(63)))
	check(t, err)
	if loc != gocann.LocationDevice || dev != 1 {
		t.Errorf("device 1 memory: location %v, device %d", loc, dev)
	}
	goMem := make([]byte, 64)
	loc, _, _, err = e.r.PointerAttributes(uintptr(unsafe.Pointer(&goMem[0])))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("Go memory: location %v, want unregistered", loc)
	}
}

func TestSyncCopies(t *testing.T) {
	// aclrtMemcpy / aclrtMemset copy at once, no stream involved.
	e := setup(t)
	const n = 3 << 20 // large enough to be split across DMA workers
	a, b := malloc(t, e.c, n), malloc(t, e.c, n)
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i * 7)
	}
	check(t, e.c.CopyToDevice(a, src))
	check(t, e.c.CopyDevice(b, a, n))
	check(t, e.c.Memset(b.Add(100), 0xAB, 50))
	got := make([]byte, n)
	check(t, e.c.CopyFromDevice(got, b))
	want := bytes.Clone(src)
	for i := 100; i < 150; i++ {
		want[i] = 0xAB
	}
	if !bytes.Equal(got, want) {
		t.Fatal("H2D, D2D, memset and D2H do not round-trip")
	}
	// Partial ranges at offsets.
	check(t, e.c.CopyToDevice(a.Add(n-3), []byte{1, 2, 3}))
	tail := make([]byte, 4)
	check(t, e.c.CopyFromDevice(tail, a.Add(n-4)))
	if !bytes.Equal(tail, []byte{src[n-4], 1, 2, 3}) {
		t.Fatalf("tail %v", tail)
	}
	// Zero-length copies do nothing and succeed.
	check(t, e.c.CopyToDevice(a, nil))
	check(t, e.c.CopyFromDevice([]byte{}, a))
	check(t, e.c.CopyDevice(a, b, 0))
	check(t, e.s.CopyToDevice(a, nil))
	check(t, e.s.CopyFromDevice(nil, a))
	check(t, e.c.Copy2DToDevice(a, 8, nil, 8, 0, 0))
	for _, err := range []error{e.c.CopyDevice(a, b, -1), e.c.Memset(a, 0, -1)} {
		wantErr(t, err, gocann.CodeRTParamInvalid, "count -1 is invalid", ">= 0")
	}
}

func TestAsyncCopies(t *testing.T) {
	// aclrtMemcpyAsync in every direction with page-locked memory, and
	// aclrtMemsetAsync, in stream order.
	e := setup(t)
	const n = 1 << 20
	h1, err := e.r.MallocHost(n)
	check(t, err)
	h2, err := e.r.MallocHost(n)
	check(t, err)
	a, b := malloc(t, e.c, n), malloc(t, e.c, n)
	for i := range h1.Bytes() {
		h1.Bytes()[i] = byte(i * 13)
	}
	src := bytes.Clone(h1.Bytes())
	check(t, e.s.CopyHostToDevice(a, h1, 0, n))
	check(t, e.s.CopyDeviceToDevice(b, a, n))
	check(t, e.s.Memset(b, 0x5A, 16))
	check(t, e.s.CopyDeviceToHost(h2, 0, b, n))
	// Offsets on both host ends.
	check(t, e.s.CopyHostToDevice(a.Add(8), h1, 100, 8))
	check(t, e.s.CopyDeviceToHost(h2, 200, a.Add(8), 8))
	check(t, e.s.CopyHostToHost(h1, 0, h2, 16, 32))
	syncOK(t, e.s)

	want := bytes.Clone(src)
	copy(want, bytes.Repeat([]byte{0x5A}, 16))
	copy(want[200:208], src[100:108])
	if !bytes.Equal(h2.Bytes(), want) {
		t.Fatal("H2D, D2D, memset, D2H chain gave wrong bytes")
	}
	if !bytes.Equal(h1.Bytes()[:32], want[16:48]) || !bytes.Equal(h1.Bytes()[32:64], src[32:64]) {
		t.Fatal("host-to-host copy gave wrong bytes")
	}

	// Pageable memory: the source is staged, the destination waited for.
	buf := []byte("pageable")
	check(t, e.s.CopyToDevice(a, buf))
	copy(buf, "XXXXXXXX") // the call staged the source: reuse is safe at once
	out := make([]byte, 8)
	check(t, e.s.CopyFromDevice(out, a))
	if string(out) != "pageable" {
		t.Fatalf("pageable round trip = %q", out)
	}
}

func TestHostBufferRanges(t *testing.T) {
	// The host side of an asynchronous copy must lie inside its buffer.
	e := setup(t)
	h, err := e.r.MallocHost(64)
	check(t, err)
	h2, err := e.r.MallocHost(64)
	check(t, err)
	p := malloc(t, e.c, 128)
	for _, tc := range []struct {
		err  error
		subs []string
	}{
		{e.s.CopyHostToDevice(p, h, 60, 8), []string{"src range [60, 68)", "64-byte buffer"}},
		{e.s.CopyHostToDevice(p, h, -1, 8), []string{"src range [-1, 7)"}},
		{e.s.CopyHostToDevice(p, h, 0, 65), []string{"src range [0, 65)"}},
		{e.s.CopyDeviceToHost(h, 57, p, 8), []string{"dst range [57, 65)"}},
		{e.s.CopyDeviceToHost(h, 0, p, -8), []string{"dst range [0, -8)"}},
		{e.s.CopyHostToHost(h, 0, h2, 32, 33), []string{"src range [32, 65)"}},
		{e.s.CopyHostToHost(h, 63, h2, 0, 2), []string{"dst range [63, 65)"}},
	} {
		wantErr(t, tc.err, gocann.CodeRTParamInvalid, tc.subs...)
	}
	check(t, e.s.CopyHostToDevice(p, h, 64, 0)) // empty range at the end is fine
}

func TestCopy2D(t *testing.T) {
	// aclrtMemcpy2d / aclrtMemcpy2dAsync: height rows of width bytes, rows
	// pitch bytes apart; bytes between rows are left alone.
	e := setup(t)
	const w, h, sp, dp = 5, 4, 8, 16
	src := make([]byte, sp*(h-1)+w)
	for i := range src {
		src[i] = byte(i + 1)
	}
	a := malloc(t, e.c, dp*h)
	b := malloc(t, e.c, 32*h)
	check(t, e.c.Memset(a, 0xEE, dp*h))
	check(t, e.c.Copy2DToDevice(a, dp, src, sp, w, h))
	got := make([]byte, dp*h)
	check(t, e.c.CopyFromDevice(got, a))
	for r := range h {
		for c := range dp {
			want := byte(0xEE)
			if c < w {
				want = src[r*sp+c]
			}
			if got[r*dp+c] != want {
				t.Fatalf("2-D H2D: row %d col %d = %#x, want %#x", r, c, got[r*dp+c], want)
			}
		}
	}
	// Device to device, asynchronously, to a wider pitch; then back to a
	// tight host layout.
	check(t, e.s.Memset(b, 0, 32*h))
	check(t, e.s.Copy2DDeviceToDevice(b, 32, a, dp, w, h))
	syncOK(t, e.s)
	back := make([]byte, w*h)
	check(t, e.c.Copy2DFromDevice(back, w, b, 32, w, h))
	for r := range h {
		if !bytes.Equal(back[r*w:(r+1)*w], src[r*sp:r*sp+w]) {
			t.Fatalf("2-D round trip row %d = %v, want %v", r, back[r*w:(r+1)*w], src[r*sp:r*sp+w])
		}
	}

	// "width ≤ dpitch and ≤ spitch", regions inside their buffers.
	wantErr(t, e.c.Copy2DToDevice(a, 4, src, sp, w, h), gocann.CodeRTParamInvalid, "width 5", "dpitch 4")
	wantErr(t, e.c.Copy2DFromDevice(back, w, a, 4, w, h), gocann.CodeRTParamInvalid, "width 5", "spitch 4")
	wantErr(t, e.s.Copy2DDeviceToDevice(b, 32, a, 3, w, h), gocann.CodeRTParamInvalid, "width 5", "spitch 3")
	wantErr(t, e.c.Copy2DToDevice(a, dp, src[:10], sp, w, h), gocann.CodeRTParamInvalid, "src holds 10 bytes", "at least 29")
	wantErr(t, e.c.Copy2DFromDevice(back[:3], w, a, dp, w, h), gocann.CodeRTParamInvalid, "dst holds 3 bytes")
	wantErr(t, e.c.Copy2DToDevice(a, dp, make([]byte, sp*h+w), sp, w, h+1), gocann.CodeRTParamInvalid, "dst range", "runs past")
	wantErr(t, e.s.Copy2DDeviceToDevice(a, dp, b, 32, w, h+1), gocann.CodeRTParamInvalid, "runs past")
	wantErr(t, e.s.Copy2DDeviceToDevice(a, -1, b, 32, w, h), gocann.CodeRTParamInvalid, "must not be negative")
	wantErr(t, e.c.Copy2DToDevice(a, dp, src, -8, w, h), gocann.CodeRTParamInvalid, "must not be negative")
	// aclrtMemcpy2dAsync: "height ≤ 5*1024*1024".
	wantErr(t, e.s.Copy2DDeviceToDevice(a, 1, b, 1, 1, 5<<20+1), gocann.CodeRTParamInvalid, "height 5242881")
	syncOK(t, e.s)
}

// pointerCall is one API call that takes a device pointer, made with p in
// the place under test and 8 bytes to touch.
type pointerCall struct {
	name string
	call func(p gocann.DevPtr) error
}

func pointerCalls(e env, good gocann.DevPtr, h *gocann.HostBuffer) []pointerCall {
	c, s := e.c, e.s
	buf := make([]byte, 8)
	return []pointerCall{
		{"Context.CopyToDevice", func(p gocann.DevPtr) error { return c.CopyToDevice(p, buf) }},
		{"Context.CopyFromDevice", func(p gocann.DevPtr) error { return c.CopyFromDevice(buf, p) }},
		{"Context.CopyDevice dst", func(p gocann.DevPtr) error { return c.CopyDevice(p, good, 8) }},
		{"Context.CopyDevice src", func(p gocann.DevPtr) error { return c.CopyDevice(good, p, 8) }},
		{"Context.Memset", func(p gocann.DevPtr) error { return c.Memset(p, 1, 8) }},
		{"Context.Copy2DToDevice", func(p gocann.DevPtr) error { return c.Copy2DToDevice(p, 8, buf, 8, 8, 1) }},
		{"Context.Copy2DFromDevice", func(p gocann.DevPtr) error { return c.Copy2DFromDevice(buf, 8, p, 8, 8, 1) }},
		{"Stream.CopyHostToDevice", func(p gocann.DevPtr) error { return s.CopyHostToDevice(p, h, 0, 8) }},
		{"Stream.CopyDeviceToHost", func(p gocann.DevPtr) error { return s.CopyDeviceToHost(h, 0, p, 8) }},
		{"Stream.CopyDeviceToDevice dst", func(p gocann.DevPtr) error { return s.CopyDeviceToDevice(p, good, 8) }},
		{"Stream.CopyDeviceToDevice src", func(p gocann.DevPtr) error { return s.CopyDeviceToDevice(good, p, 8) }},
		{"Stream.CopyToDevice", func(p gocann.DevPtr) error { return s.CopyToDevice(p, buf) }},
		{"Stream.CopyFromDevice", func(p gocann.DevPtr) error { return s.CopyFromDevice(buf, p) }},
		{"Stream.Memset", func(p gocann.DevPtr) error { return s.Memset(p, 1, 8) }},
		{"Stream.Copy2DDeviceToDevice dst", func(p gocann.DevPtr) error { return s.Copy2DDeviceToDevice(p, 8, good, 8, 8, 1) }},
		{"Stream.Copy2DDeviceToDevice src", func(p gocann.DevPtr) error { return s.Copy2DDeviceToDevice(good, 8, p, 8, 8, 1) }},
		{"Stream.WriteValue", func(p gocann.DevPtr) error { return s.WriteValue(p, 1) }},
		{"Stream.WaitValue", func(p gocann.DevPtr) error { return s.WaitValue(p, 0, gocann.WaitGEQ) }},
	}
}

func TestPointerChecks(t *testing.T) {
	// "Every pointer a call receives is checked against the allocation
	// table (device, bounds, liveness)": a bad one is ACL_ERROR_RT_PARAM_INVALID,
	// never a crash or a silent write.
	e := setup(t)
	d1, err := e.r.SetDevice(1)
	check(t, err)
	c1, err := d1.Context()
	check(t, err)
	h, err := e.r.MallocHost(8)
	check(t, err)
	good := malloc(t, e.c, 64)
	small := malloc(t, e.c, 12) // [8, 16) runs past its end
	freed := malloc(t, e.c, 64)
	check(t, e.c.Free(freed))
	other := malloc(t, c1, 64)
	for _, pc := range pointerCalls(e, good, h) {
		t.Run(pc.name, func(t *testing.T) {
			wantErr(t, pc.call(small.Add(8)), gocann.CodeRTParamInvalid, "runs past its allocation")
			wantErr(t, pc.call(freed), gocann.CodeRTParamInvalid, fmt.Sprintf("%#x", uint64(freed)), "not in a live device allocation")
			wantErr(t, pc.call(other), gocann.CodeRTParamInvalid, "memory of device 1", "expected device 0")
			wantErr(t, pc.call(0), gocann.CodeRTParamInvalid, " 0x0 ")
		})
	}
	syncOK(t, e.s)
	// Nothing was written anywhere: the freed block still reads zero.
	if v := readU64(t, c1, other); v != 0 {
		t.Errorf("device 1 memory changed to %#x by refused calls", v)
	}
}

func TestFreeChecks(t *testing.T) {
	// aclrtFree: the pointer must be the start of a live allocation.
	e := setup(t)
	p := malloc(t, e.c, 64)
	wantErr(t, e.c.Free(0), gocann.CodeInvalidParam, "devPtr is NULL")
	wantErr(t, e.c.Free(p.Add(8)), gocann.CodeRTParamInvalid, "inside the allocation", fmt.Sprintf("%#x", uint64(p)))
	check(t, e.c.Free(p))
	wantErr(t, e.c.Free(p), gocann.CodeRTParamInvalid, "not a live device allocation")
	h, err := e.r.MallocHost(64)
	check(t, err)
	wantErr(t, e.c.Free(gocann.DevPtr(uintptr(h.Pointer()))), gocann.CodeRTParamInvalid, "page-locked host memory", "aclrtFreeHost")
	goMem := make([]byte, 8)
	wantErr(t, e.c.Free(gocann.DevPtr(uintptr(unsafe.Pointer(&goMem[0])))), gocann.CodeRTParamInvalid, "not a live device allocation")
}

func TestFreeWhileTasksUseMemory(t *testing.T) {
	// aclrtFree "frees immediately ... does not wait for tasks using the
	// memory". Freeing memory a running kernel writes, or a queued copy
	// targets, must not crash the process.
	e := setup(t)
	const n = 1 << 20
	p := malloc(t, e.c, n)
	started, release := make(chan struct{}), make(chan struct{})
	k, err := e.r.RegisterKernel("writer", func(b *gocann.Block) {
		v := gocann.View[byte](b, b.Arg(0).Ptr(), n)
		close(started)
		<-release
		for i := range v {
			v[i] = 0x77
		}
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(p)))
	<-started
	check(t, e.c.Free(p))
	close(release)
	syncOK(t, e.s)

	// A copy queued behind a blocked task, its destination freed before it
	// runs. CANN frees at once, so the copy may fault on the device (a DMA
	// fault, reported at the next synchronize); a runtime that keeps the
	// block until queued work retires runs it. Either way nothing crashes.
	q := malloc(t, e.c, n)
	src := malloc(t, e.c, n)
	g := block(t, e.s)
	check(t, e.s.CopyDeviceToDevice(q, src, n))
	check(t, e.c.Free(q))
	g.Open()
	if err = e.s.SynchronizeTimeout(long); err != nil {
		wantErr(t, err, gocann.CodeRTSysDMA, "copy failed")
		if !errors.Is(err, gocann.ErrDevice) {
			t.Errorf("errors.Is(%v, ErrDevice) = false", err)
		}
	}
	syncOK(t, e.s)
}

func TestHostBufferCloseWhileQueued(t *testing.T) {
	// aclrtFreeHost "frees immediately; doesn't wait for tasks": copies
	// already queued on the buffer still run without crashing.
	e := setup(t)
	const n = 1 << 20
	h, err := e.r.MallocHost(n)
	check(t, err)
	p := malloc(t, e.c, n)
	g := block(t, e.s)
	check(t, e.s.CopyDeviceToHost(h, 0, p, n))
	check(t, e.s.CopyHostToDevice(p, h, 0, n))
	check(t, h.Close())
	g.Open()
	syncOK(t, e.s)
}

func TestShareMemory(t *testing.T) {
	// The file another process maps to see the device memory.
	e := setup(t)
	p := malloc(t, e.c, 4096)
	path, off, err := e.d.ShareMemory(p.Add(16))
	check(t, err)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("ShareMemory path %q: %v", path, err)
	}
	if off < 16 {
		t.Errorf("offset %d of a pointer 16 bytes into an allocation", off)
	}
	check(t, e.c.Free(p))
	_, _, err = e.d.ShareMemory(p)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not in a live allocation")
}
