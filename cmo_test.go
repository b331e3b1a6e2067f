package gocann_test

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// TestMemsetD32: the 32-bit pattern lands in device and page-locked host
// memory, synchronously and queued, and nowhere else.
func TestMemsetD32(t *testing.T) {
	e := setup(t)
	d := malloc(t, e.c, 4096)
	check(t, e.s.Memset(d, 0, 4096))
	syncOK(t, e.s)
	dp := devPtr(t, e, d)
	check(t, e.c.Raw().MemsetD32(gocann.CaptureThread{}, unsafe.Add(dp, 4), 4092, 0xDEADBEEF, 100))
	check(t, e.s.Raw().MemsetD32Async(gocann.CaptureThread{}, unsafe.Add(dp, 404), 400, 0x01020304, 10))
	syncOK(t, e.s)
	got := make([]byte, 4096)
	check(t, e.c.CopyFromDevice(got, d))
	for i := 0; i < 1024; i++ {
		w := binary.LittleEndian.Uint32(got[4*i:])
		want := uint32(0)
		switch {
		case i >= 1 && i <= 100:
			want = 0xDEADBEEF
		case i >= 101 && i <= 110:
			want = 0x01020304
		}
		if w != want {
			t.Fatalf("word %d = %#x, want %#x", i, w, want)
		}
	}
	h, err := e.r.MallocHost(64)
	check(t, err)
	defer h.Close()
	check(t, e.s.Raw().MemsetD32Async(gocann.CaptureThread{}, h.Pointer(), 64, 7, 16))
	if v := binary.LittleEndian.Uint32(h.Bytes()[60:]); v != 7 {
		t.Errorf("MemsetD32Async of host memory: last word %d right after the call, want 7 (host memory is filled at once)", v)
	}
	wantErr(t, e.c.Raw().MemsetD32(gocann.CaptureThread{}, unsafe.Add(dp, 2), 64, 1, 1), gocann.CodeInvalidParam, "4-byte aligned")
	wantErr(t, e.c.Raw().MemsetD32(gocann.CaptureThread{}, dp, 7, 1, 2), gocann.CodeInvalidParam, "N 2 is invalid, expected N * 4 <= memSize 7")
	wantErr(t, e.c.Raw().MemsetD32(gocann.CaptureThread{}, dp, 1<<62, 1, 1<<62), gocann.CodeInvalidParam, "N 4611686018427387904")
	wantErr(t, e.c.Raw().MemsetD32(gocann.CaptureThread{}, dp, 8192, 1, 2048), gocann.CodeRTParamInvalid, "runs past its allocation")
	page := make([]uint32, 16)
	wantErr(t, e.s.Raw().MemsetD32Async(gocann.CaptureThread{}, unsafe.Pointer(&page[0]), 64, 1, 16), gocann.CodeRTParamInvalid, "pageable host memory")
	check(t, e.c.Raw().MemsetD32(gocann.CaptureThread{}, nil, 0, 1, 0)) // zero words: nothing checked
}

// TestIndirectCopies: copies whose ends the device reads when they start,
// by offset words and by descriptor; a captured descriptor copy follows
// the descriptor's contents at each replay.
func TestIndirectCopies(t *testing.T) {
	e := setup(t)
	src, dst := malloc(t, e.c, 8192), malloc(t, e.c, 8192)
	pattern := make([]byte, 8192)
	for i := range pattern {
		pattern[i] = byte(i*13 + 5)
	}
	check(t, e.c.CopyToDevice(src, pattern))
	words := malloc(t, e.c, 64)
	wp := devPtr(t, e, words)
	// The words are written by a queued memset and copy: read when the copy starts.
	g := block(t, e.s)
	var w [16]byte
	binary.LittleEndian.PutUint64(w[0:], uint64(dst))
	binary.LittleEndian.PutUint64(w[8:], uint64(src))
	hb, err := e.r.MallocHost(16)
	check(t, err)
	defer hb.Close()
	copy(hb.Bytes(), w[:])
	check(t, e.s.CopyHostToDevice(words, hb, 0, 16))
	check(t, e.s.Raw().MemcpyAsyncWithOffset(wp, 4096, 100, unsafe.Add(wp, 8), 1000, 200, gocann.MemcpyInnerDeviceToDevice))
	g.Open()
	syncOK(t, e.s)
	got := make([]byte, 8192)
	check(t, e.c.CopyFromDevice(got, dst))
	if !bytes.Equal(got[100:1100], pattern[200:1200]) || got[99] != 0 || got[1100] != 0 {
		t.Fatal("MemcpyAsyncWithOffset: bytes wrong")
	}
	wantErr(t, e.s.Raw().MemcpyAsyncWithOffset(wp, 4096, 0, unsafe.Add(wp, 8), 16, 0, gocann.MemcpyDeviceToDevice), gocann.CodeRTParamInvalid, "expected ACL_MEMCPY_INNER_DEVICE_TO_DEVICE")
	wantErr(t, e.s.Raw().MemcpyAsyncWithOffset(unsafe.Add(wp, 4), 4096, 0, unsafe.Add(wp, 8), 16, 0, gocann.MemcpyInnerDeviceToDevice), gocann.CodeRTParamInvalid, "8-byte aligned")
	wantErr(t, e.s.Raw().MemcpyAsyncWithOffset(wp, 8, 0, unsafe.Add(wp, 8), 16, 0, gocann.MemcpyInnerDeviceToDevice), gocann.CodeRTParamInvalid, "count 16 is invalid, expected <= destMax 8")
	// An offset past the allocation faults the copy when it starts.
	check(t, e.s.Raw().MemcpyAsyncWithOffset(wp, 4096, 8000, unsafe.Add(wp, 8), 1000, 0, gocann.MemcpyInnerDeviceToDevice))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTSysDMA)

	n, err := e.r.MemcpyDescSizeOf(gocann.MemcpyInnerDeviceToDevice)
	check(t, err)
	if n != 32 {
		t.Errorf("MemcpyDescSizeOf = %d, want 32", n)
	}
	_, err = e.r.MemcpyDescSizeOf(gocann.MemcpyDeviceToDevice)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "not supported for copy descriptors")
	_, err = e.r.MemcpyDescSizeOf(9)
	wantErr(t, err, gocann.CodeInvalidParam, "kind")
	desc := malloc(t, e.c, int64(n))
	dsc := devPtr(t, e, desc)
	sp, dpp := devPtr(t, e, src), devPtr(t, e, dst)
	check(t, e.c.Raw().SetMemcpyDesc(dsc, gocann.MemcpyInnerDeviceToDevice, sp, dpp, 64))
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Raw().MemcpyAsyncWithDesc(dsc, gocann.MemcpyInnerDeviceToDevice)
	})
	check(t, err)
	defer m.Close()
	check(t, e.s.Memset(dst, 0, 8192))
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	check(t, e.c.CopyFromDevice(got, dst))
	if !bytes.Equal(got[:64], pattern[:64]) || got[64] != 0 {
		t.Fatal("replayed descriptor copy: bytes wrong")
	}
	// A new descriptor, the same model: the replay copies what it now says.
	check(t, e.c.Raw().SetMemcpyDesc(dsc, gocann.MemcpyInnerDeviceToDevice, unsafe.Add(sp, 1000), unsafe.Add(dpp, 2000), 300))
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	check(t, e.c.CopyFromDevice(got, dst))
	if !bytes.Equal(got[2000:2300], pattern[1000:1300]) {
		t.Fatal("replay after aclrtSetMemcpyDesc did not follow the new descriptor")
	}
	wantErr(t, e.c.Raw().SetMemcpyDesc(dsc, gocann.MemcpyInnerDeviceToDevice, sp, dpp, 0), gocann.CodeInvalidParam, "count 0")
	wantErr(t, e.c.Raw().SetMemcpyDesc(dsc, gocann.MemcpyInnerDeviceToDevice, sp, dpp, 9000), gocann.CodeRTParamInvalid, "srcAddr")
	wantErr(t, e.c.Raw().SetMemcpyDesc(unsafe.Add(dsc, 8), gocann.MemcpyInnerDeviceToDevice, sp, dpp, 8), gocann.CodeRTParamInvalid, "desc")
	wantErr(t, e.s.Raw().MemcpyAsyncWithDesc(dsc, gocann.MemcpyHostToDevice), gocann.CodeRTFeatureNotSupport, "ACL_MEMCPY_HOST_TO_DEVICE")

	hx := make([]byte, 8)
	wantErr(t, e.s.Raw().MemcpyAsyncWithCondition(gocann.CaptureThread{}, unsafe.Pointer(&hx[0]), 8, unsafe.Pointer(&hx[4]), 4, gocann.MemcpyHostToHost), gocann.CodeRTFeatureNotSupport, "ACL_MEMCPY_HOST_TO_HOST")
	check(t, e.s.Raw().MemcpyAsyncWithCondition(gocann.CaptureThread{}, dpp, 8, unsafe.Pointer(&hx[0]), 8, gocann.MemcpyHostToDevice))
	syncOK(t, e.s)
}

// TestCacheOperations: every cache operation is checked; the queued ones
// keep their place in the stream and the trace, are captured like any
// task, and change no bytes.
func TestCacheOperations(t *testing.T) {
	e := setup(t)
	d := malloc(t, e.c, 8192)
	check(t, e.s.Memset(d, 0x5A, 8192))
	check(t, e.s.Cmo(d, 8192, gocann.CmoPrefetch))
	desc := malloc(t, e.c, gocann.CmoDescSize)
	check(t, e.c.SetCmoDesc(desc, d.Add(100), 1000))
	check(t, e.s.CmoWithDesc(desc, gocann.CmoPrefetch))
	check(t, e.s.Memset(d, 0x11, 16))
	syncOK(t, e.s)
	got := make([]byte, 8192)
	check(t, e.c.CopyFromDevice(got, d))
	if got[0] != 0x11 || got[16] != 0x5A || got[8191] != 0x5A {
		t.Errorf("bytes after memset, cache operations, memset: %#x %#x %#x", got[0], got[16], got[8191])
	}
	var kinds []hal.TaskKind
	all, err := e.d.Trace()
	check(t, err)
	for _, r := range all {
		if r.Queue == e.s.ID() {
			kinds = append(kinds, r.Kind)
		}
	}
	want := []hal.TaskKind{hal.TaskMemset, hal.TaskCmo, hal.TaskCmo, hal.TaskMemset}
	if len(kinds) < 4 || !equalKinds(kinds[len(kinds)-4:], want) {
		t.Errorf("trace of the stream ends %v, want %v", kinds, want)
	}
	var raw [gocann.CmoDescSize]byte
	check(t, e.c.CopyFromDevice(raw[:], desc))
	if binary.LittleEndian.Uint64(raw[16:]) != uint64(d.Add(100)) || binary.LittleEndian.Uint32(raw[12:]) != 1000 {
		t.Errorf("cache descriptor holds %x, want the source and length", raw)
	}

	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error { return s.Cmo(d, 64, gocann.CmoPrefetch) })
	check(t, err)
	defer m.Close()
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	check(t, e.c.L2CacheFlush())

	for _, typ := range []gocann.CmoType{gocann.CmoWriteback, gocann.CmoInvalid, gocann.CmoFlush, 4} {
		wantErr(t, e.s.Cmo(d, 64, typ), gocann.CodeRTFeatureNotSupport, "expected ACL_RT_CMO_TYPE_PREFETCH")
	}
	wantErr(t, e.s.Cmo(d, 0, gocann.CmoPrefetch), gocann.CodeInvalidParam, "size 0")
	wantErr(t, e.s.Cmo(d, 9000, gocann.CmoPrefetch), gocann.CodeRTParamInvalid, "runs past its allocation")
	wantErr(t, e.c.SetCmoDesc(desc, d, 0), gocann.CodeRTParamInvalid, "size 0")
	wantErr(t, e.c.SetCmoDesc(desc.Add(8), d, 8), gocann.CodeRTParamInvalid, "cmoDesc")
	wantErr(t, e.s.CmoWithDesc(desc, 4), gocann.CodeRTParamInvalid, "cmoType 4 is invalid")
	wantErr(t, e.s.CmoWithDesc(desc, gocann.CmoFlush), gocann.CodeRTFeatureNotSupport, "ACL_RT_CMO_TYPE_FLUSH")
	wantErr(t, e.c.Raw().MemFlush(devPtr(t, e, d), 0), gocann.CodeInvalidParam, "size 0")
	wantErr(t, e.c.Raw().MemInvalidate(devPtr(t, e, d), 9000), gocann.CodeRTParamInvalid, "runs past its allocation")
	check(t, e.c.Raw().MemFlush(devPtr(t, e, d), 8192))
	check(t, e.c.Raw().MemInvalidate(unsafe.Pointer(&got[0]), 100))

	// Barriers are not on an Atlas A2: TestCmoBarriers runs them on a chip
	// that has them.
	wantErr(t, e.s.CmoWithBarrier(d, 64, gocann.CmoInvalid, 1), gocann.CodeRTFeatureNotSupport, "aclrtCmoAsyncWithBarrier is not supported on Ascend910B1")
	wantErr(t, e.s.CmoWaitBarrier([]gocann.Barrier{{Type: uint32(gocann.CmoInvalid), ID: 1}}, 0), gocann.CodeRTFeatureNotSupport, "aclrtCmoWaitBarrier is not supported on Ascend910B1")
}

// TestCmoBarriers runs the barrier forms of cache operations on an
// Atlas 200I/500 A2 (Ascend310B1), the one modelled chip that has them.
func TestCmoBarriers(t *testing.T) {
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend310B1"}}`)
	d := malloc(t, e.c, 8192)
	got := make([]byte, 8)
	// Barriers go on streams bound to a model.
	wantErr(t, e.s.CmoWithBarrier(d, 64, gocann.CmoInvalid, 1), gocann.CodeRTStreamModel, "not bound to a model")
	wantErr(t, e.s.CmoWaitBarrier([]gocann.Barrier{{Type: uint32(gocann.CmoInvalid), ID: 1}}, 0), gocann.CodeRTStreamModel, "not bound to a model")
	ps := e.persistent(t)
	b := newBuild(t, e)
	check(t, b.Bind(ps, true))
	check(t, ps.Memset(d, 0x22, 8))
	check(t, ps.CmoWithBarrier(d, 64, gocann.CmoInvalid, 3))
	check(t, ps.CmoWithBarrier(d, 64, gocann.CmoFlush, 0))
	check(t, ps.CmoWaitBarrier([]gocann.Barrier{{Type: uint32(gocann.CmoInvalid), ID: 3}}, 0))
	check(t, ps.Memset(d, 0x33, 4))
	wantErr(t, ps.CmoWithBarrier(d, 64, gocann.CmoInvalid, 0), gocann.CodeRTParamInvalid, "barrierId 0 is invalid")
	wantErr(t, ps.CmoWithBarrier(d, 64, gocann.CmoPrefetch, 2), gocann.CodeRTParamInvalid, "barrierId 2 is invalid")
	wantErr(t, ps.CmoWaitBarrier(nil, 0), gocann.CodeRTParamInvalid, "barrierNum 0")
	wantErr(t, ps.CmoWaitBarrier(make([]gocann.Barrier, 7), 0), gocann.CodeRTParamInvalid, "barrierNum 7")
	wantErr(t, ps.CmoWaitBarrier([]gocann.Barrier{{Type: uint32(gocann.CmoFlush), ID: 1}}, 0), gocann.CodeRTParamInvalid, "ACL_RT_CMO_TYPE_FLUSH")
	wantErr(t, ps.CmoWaitBarrier([]gocann.Barrier{{Type: uint32(gocann.CmoInvalid)}}, 0), gocann.CodeRTParamInvalid, "barrierId 0")
	wantErr(t, ps.CmoWaitBarrier([]gocann.Barrier{{Type: uint32(gocann.CmoInvalid), ID: 1}}, 1), gocann.CodeRTParamInvalid, "flag 1")
	check(t, b.EndTask(ps))
	check(t, b.BuildEnd())
	check(t, b.ExecuteTimeout(long)) // no aclmdlRIExecuteAsync on this chip
	check(t, e.c.CopyFromDevice(got[:8], d))
	if !bytes.Equal(got[:8], []byte{0x33, 0x33, 0x33, 0x33, 0x22, 0x22, 0x22, 0x22}) {
		t.Errorf("model with barrier cache operations: bytes %x", got[:8])
	}
}

func equalKinds(a, b []hal.TaskKind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
