package gocann_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// batchFixture is n device buffers of size bytes and a pinned host buffer
// holding n patterned chunks of that size.
type batchFixture struct {
	dev  []gocann.DevPtr
	ptr  []unsafe.Pointer
	host *gocann.HostBuffer
	size int
}

func newBatchFixture(t *testing.T, e env, n, size int) *batchFixture {
	t.Helper()
	f := &batchFixture{size: size}
	h, err := e.r.MallocHost(n * size)
	check(t, err)
	t.Cleanup(func() { h.Close() })
	f.host = h
	for i, b := range h.Bytes() {
		b = byte(i*7 + i/size)
		h.Bytes()[i] = b
	}
	for range n {
		p := malloc(t, e.c, int64(size))
		f.dev = append(f.dev, p)
		f.ptr = append(f.ptr, devPtr(t, e, p))
	}
	return f
}

func (f *batchFixture) chunk(i int) []byte { return f.host.Bytes()[i*f.size : (i+1)*f.size] }

// h2d is the batch copying chunk i to device buffer i.
func (f *batchFixture) h2d() []gocann.BatchCopy {
	cs := make([]gocann.BatchCopy, len(f.dev))
	for i := range cs {
		cs[i] = gocann.BatchCopy{Dst: f.ptr[i], Src: unsafe.Pointer(&f.chunk(i)[0]), DestMax: uintptr(f.size), Size: uintptr(f.size)}
	}
	return cs
}

func h2dAttr(dev int) []gocann.BatchAttr {
	return []gocann.BatchAttr{{Dst: gocann.MemLoc{ID: uint32(dev), Type: gocann.MemLocDevice}, Src: gocann.MemLoc{Type: gocann.MemLocHost}}}
}

func (f *batchFixture) checkDevice(t *testing.T, e env, what string) {
	t.Helper()
	got := make([]byte, f.size)
	for i, p := range f.dev {
		check(t, e.c.CopyFromDevice(got, p))
		if !bytes.Equal(got, f.chunk(i)) {
			t.Fatalf("%s: device buffer %d does not hold chunk %d", what, i, i)
		}
	}
}

// TestMemcpyBatch: a synchronous and an asynchronous batch land every
// copy's bytes; the asynchronous one is one task in the trace.
func TestMemcpyBatch(t *testing.T) {
	e := setup(t)
	f := newBatchFixture(t, e, 40, 4096)
	fail, err := e.c.Raw().MemcpyBatch(gocann.CaptureThread{}, f.h2d(), h2dAttr(0), []uint64{0})
	check(t, err)
	if fail != gocann.NoFailIndex {
		t.Errorf("fail index %d after success", fail)
	}
	f.checkDevice(t, e, "MemcpyBatch")

	// Back to the host in one queued task, the attribute split in two runs.
	out, err := e.r.MallocHost(40 * 4096)
	check(t, err)
	defer out.Close()
	cs := make([]gocann.BatchCopy, 40)
	for i := range cs {
		cs[i] = gocann.BatchCopy{Dst: unsafe.Pointer(&out.Bytes()[i*4096]), Src: f.ptr[i], DestMax: 4096, Size: 4096}
	}
	d2h := gocann.BatchAttr{Dst: gocann.MemLoc{Type: gocann.MemLocHostNUMA}, Src: gocann.MemLoc{Type: gocann.MemLocDevice}}
	_, err = e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, []gocann.BatchAttr{d2h, d2h}, []uint64{0, 17})
	check(t, err)
	syncOK(t, e.s)
	if !bytes.Equal(out.Bytes(), f.host.Bytes()) {
		t.Error("MemcpyBatchAsync device to host: bytes differ")
	}
	if rs := records(t, e.d, e.s, hal.TaskCopyBatch); len(rs) != 1 {
		t.Errorf("%d copy batch tasks in the trace, want 1", len(rs))
	}
}

// TestMemcpyBatchRefusals: each refusal with its code and failure index;
// a refused batch copies nothing, the entries before the bad one
// included.
func TestMemcpyBatchRefusals(t *testing.T) {
	e := setup(t)
	f := newBatchFixture(t, e, 4, 4096)
	for _, p := range f.dev {
		check(t, e.s.Memset(p, 0xEE, 4096))
	}
	syncOK(t, e.s)
	attr := h2dAttr(0)
	bad := func(mod func(cs []gocann.BatchCopy, attrs []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64),
		code gocann.Code, wantFail int, msg string) {
		t.Helper()
		for _, async := range []bool{false, true} {
			cs, as, idx := mod(f.h2d(), append([]gocann.BatchAttr(nil), attr...), []uint64{0})
			var fail int
			var err error
			if async {
				fail, err = e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, as, idx)
			} else {
				fail, err = e.c.Raw().MemcpyBatch(gocann.CaptureThread{}, cs, as, idx)
			}
			wantErr(t, err, code, msg)
			if fail != wantFail {
				t.Errorf("%s (async %v): fail index %d, want %d", msg, async, fail, wantFail)
			}
		}
	}
	other := gocann.BatchAttr{Dst: gocann.MemLoc{ID: 1, Type: gocann.MemLocDevice}, Src: gocann.MemLoc{Type: gocann.MemLocHost}}
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return cs, append(as, other), []uint64{0, 3}
	}, gocann.CodeRTParamInvalid, 3, "memory of device 0, but its attribute says memory of device 1")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		cs[2].Src = f.ptr[3]
		return cs, as, idx
	}, gocann.CodeRTParamInvalid, 2, "srcs[2]")
	hostDst := make([]byte, 4096)
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		cs[1].Dst = unsafe.Pointer(&hostDst[0])
		return cs, []gocann.BatchAttr{{Src: gocann.MemLoc{Type: gocann.MemLocHost}}}, idx
	}, gocann.CodeRTParamInvalid, 0, "is memory of device 0, but its attribute says host memory")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		cs[1].Dst = unsafe.Pointer(&hostDst[0])
		return cs, append(as, gocann.BatchAttr{Src: gocann.MemLoc{Type: gocann.MemLocHost}}), []uint64{0, 1}
	}, gocann.CodeRTParamInvalid, 1, "copy 1 is host to host")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		cs[3].DestMax = 100
		return cs, as, idx
	}, gocann.CodeInvalidParam, gocann.NoFailIndex, "sizes[3] 4096 is invalid, expected <= destMaxs[3] 100")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		as[0].Rsv[3] = 1
		return cs, as, idx
	}, gocann.CodeInvalidParam, gocann.NoFailIndex, "attrs[0].rsv")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return cs, nil, nil
	}, gocann.CodeRTParamInvalid, gocann.NoFailIndex, "numAttrs 0")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return cs[:1], append(as, as[0]), []uint64{0, 1}
	}, gocann.CodeRTParamInvalid, gocann.NoFailIndex, "numAttrs 2 is invalid, expected <= numBatches 1")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return cs, as, []uint64{1}
	}, gocann.CodeRTParamInvalid, gocann.NoFailIndex, "attrsIndexes[0] 1")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return cs, append(as, as[0], as[0]), []uint64{0, 2, 2}
	}, gocann.CodeRTParamInvalid, gocann.NoFailIndex, "attrsIndexes[2] 2 is invalid")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return cs, append(as, as[0]), []uint64{0, 4}
	}, gocann.CodeRTParamInvalid, gocann.NoFailIndex, "attrsIndexes[1] 4 is invalid")
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		return nil, as, idx
	}, gocann.CodeInvalidParam, gocann.NoFailIndex, "numBatches 0")
	freed := malloc(t, e.c, 4096)
	fp := devPtr(t, e, freed)
	check(t, e.c.Free(freed))
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		cs[2].Dst = fp
		return cs, as, idx
	}, gocann.CodeRTParamInvalid, 2, "not in a live device allocation")
	// Copies into one allocation are checked once for the allocation; one
	// running past its end is still refused and named.
	bad(func(cs []gocann.BatchCopy, as []gocann.BatchAttr, idx []uint64) ([]gocann.BatchCopy, []gocann.BatchAttr, []uint64) {
		d0 := devPtr(t, e, f.dev[0])
		for i := range 3 {
			cs[i].Dst, cs[i].Size, cs[i].DestMax = unsafe.Add(d0, i*1536), 1024, 1024
		}
		cs[2].Size, cs[2].DestMax = 1600, 1600
		return cs, as, idx
	}, gocann.CodeRTParamInvalid, 2, "runs past its allocation")
	// Nothing of the refused batches landed.
	got := make([]byte, 4096)
	for i, p := range f.dev {
		check(t, e.c.CopyFromDevice(got, p))
		if !bytes.Equal(got, bytes.Repeat([]byte{0xEE}, 4096)) {
			t.Fatalf("device buffer %d changed by refused batches", i)
		}
	}
	// Async refuses a zero-byte copy among others; all-zero batches do nothing.
	cs := f.h2d()
	cs[1].Size = 0
	fail, err := e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, attr, []uint64{0})
	wantErr(t, err, gocann.CodeRTParamInvalid, "sizes[1] 0 is invalid")
	if fail != 1 {
		t.Errorf("zero-byte async copy: fail index %d, want 1", fail)
	}
	fail, err = e.c.Raw().MemcpyBatch(gocann.CaptureThread{}, cs, attr, []uint64{0})
	check(t, err)
	if fail != gocann.NoFailIndex {
		t.Errorf("fail index %d after success", fail)
	}
	for i := range cs {
		cs[i].Size = 0
	}
	_, err = e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, nil, nil)
	check(t, err)
}

// TestMemcpyBatchPageableAndCapture: pageable host memory makes the async
// batch wait for its copies; a capture records a batch as one task whose
// replays copy again; pageable memory is refused in a capture.
func TestMemcpyBatchPageableAndCapture(t *testing.T) {
	e := setup(t)
	f := newBatchFixture(t, e, 3, 4096)
	page := make([]byte, 3*4096)
	copy(page, f.host.Bytes())
	cs := f.h2d()
	for i := range cs {
		cs[i].Src = unsafe.Pointer(&page[i*4096])
	}
	_, err := e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, h2dAttr(0), []uint64{0})
	check(t, err)
	if !isDone(t, e.s) {
		t.Error("an asynchronous batch with pageable memory returned before its copies ran")
	}
	f.checkDevice(t, e, "pageable batch")

	for _, p := range f.dev {
		check(t, e.s.Memset(p, 0, 4096))
	}
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		_, err := s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, f.h2d(), h2dAttr(0), []uint64{0})
		return err
	})
	check(t, err)
	defer m.Close()
	syncOK(t, e.s)
	got := make([]byte, 4096)
	check(t, e.c.CopyFromDevice(got, f.dev[0]))
	if !bytes.Equal(got, make([]byte, 4096)) {
		t.Fatal("a captured batch ran at capture")
	}
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	f.checkDevice(t, e, "replayed batch")

	_, err = e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		_, err := s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, h2dAttr(0), []uint64{0})
		return err
	})
	wantErr(t, err, gocann.CodeRTCaptureModeBlockAsync, "pageable host memory cannot be captured")
}

// TestMemcpyBatchOneBuffer: copies walking one host and one device buffer,
// where every copy after the first is checked against the allocations the
// one before it was found in. The bytes land, and a bad copy after good
// ones is still refused with its index: a zero size, a range past the
// allocation's end, an attribute that moves the buffer to another device.
func TestMemcpyBatchOneBuffer(t *testing.T) {
	const n, size = 16, 256
	e := setup(t)
	h, err := e.r.MallocHost(n * size)
	check(t, err)
	defer h.Close()
	for i := range h.Bytes() {
		h.Bytes()[i] = byte(i*5 + i/size)
	}
	dev := malloc(t, e.c, n*size)
	dp := devPtr(t, e, dev)
	batch := func() []gocann.BatchCopy {
		cs := make([]gocann.BatchCopy, n)
		for i := range cs {
			cs[i] = gocann.BatchCopy{Dst: unsafe.Add(dp, i*size), Src: unsafe.Add(h.Pointer(), i*size), DestMax: size, Size: size}
		}
		return cs
	}
	attr := h2dAttr(0)
	_, err = e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, batch(), attr, []uint64{0})
	check(t, err)
	syncOK(t, e.s)
	got := make([]byte, n*size)
	check(t, e.c.CopyFromDevice(got, dev))
	if !bytes.Equal(got, h.Bytes()) {
		t.Fatal("the batch over one buffer copied other bytes")
	}

	check(t, e.s.Memset(dev, 0xEE, n*size))
	syncOK(t, e.s)
	other := gocann.BatchAttr{Dst: gocann.MemLoc{ID: 1, Type: gocann.MemLocDevice}, Src: gocann.MemLoc{Type: gocann.MemLocHost}}
	for _, c := range []struct {
		mod   func(cs []gocann.BatchCopy) ([]gocann.BatchAttr, []uint64)
		fail  int
		words string
	}{
		{func(cs []gocann.BatchCopy) ([]gocann.BatchAttr, []uint64) { cs[9].Size = 0; return attr, []uint64{0} },
			9, "sizes[9] 0 is invalid"},
		{func(cs []gocann.BatchCopy) ([]gocann.BatchAttr, []uint64) {
			cs[n-1].Size, cs[n-1].DestMax = 2*size, 2*size
			return attr, []uint64{0}
		}, n - 1, "dsts"},
		{func(cs []gocann.BatchCopy) ([]gocann.BatchAttr, []uint64) {
			return append(append([]gocann.BatchAttr(nil), attr...), other), []uint64{0, 5}
		}, 5, "but its attribute says memory of device 1"},
	} {
		cs := batch()
		as, idx := c.mod(cs)
		fail, err := e.s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, as, idx)
		wantErr(t, err, gocann.CodeRTParamInvalid, c.words)
		if fail != c.fail {
			t.Errorf("%q: fail index %d, want %d", c.words, fail, c.fail)
		}
	}
	syncOK(t, e.s)
	check(t, e.c.CopyFromDevice(got, dev))
	if !bytes.Equal(got, bytes.Repeat([]byte{0xEE}, n*size)) {
		t.Error("a refused batch copied bytes")
	}
}
