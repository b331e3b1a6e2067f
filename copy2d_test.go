package gocann_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

func TestCopy2DKinds(t *testing.T) {
	// CANN's CheckMemcpy2dParam takes HOST_TO_DEVICE, DEVICE_TO_HOST,
	// DEVICE_TO_DEVICE and DEFAULT (ACL_ERROR_INVALID_PARAM otherwise); its
	// runtime infers DEFAULT from the pointers, then holds the synchronous
	// copy to host to device or device to host and the asynchronous one to
	// those or device to device (ACL_ERROR_RT_PARAM_INVALID otherwise), and
	// has no synchronous DEVICE_TO_DEVICE (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
	e := setup(t)
	const w, h, pitch = 16, 4, 32
	a, err := e.c.Raw().Malloc(pitch*h, gocann.NormalOnly)
	check(t, err)
	b, err := e.c.Raw().Malloc(pitch*h, gocann.NormalOnly)
	check(t, err)
	src := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuv"), h)
	got := make([]byte, pitch*h)
	sp, gp := unsafe.Pointer(&src[0]), unsafe.Pointer(&got[0])
	pin, err := e.r.MallocHost(pitch * h)
	check(t, err)
	defer pin.Close()
	pp := pin.Pointer()
	rows := func(what string, buf []byte) {
		t.Helper()
		for r := range h {
			if !bytes.Equal(buf[r*pitch:r*pitch+w], src[r*pitch:r*pitch+w]) {
				t.Fatalf("%s: row %d is %q, want %q", what, r, buf[r*pitch:r*pitch+w], src[r*pitch:r*pitch+w])
			}
		}
	}
	def := gocann.MemcpyDefault
	check(t, e.c.Raw().Memcpy2D(gocann.CaptureThread{}, a, pitch, sp, pitch, w, h, def))
	check(t, e.c.Raw().Memcpy2D(gocann.CaptureThread{}, gp, pitch, a, pitch, w, h, def))
	rows("Memcpy2D DEFAULT, host to device and back", got)
	check(t, e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, b, pitch, a, pitch, w, h, def))
	check(t, e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, pp, pitch, b, pitch, w, h, def))
	syncOK(t, e.s)
	rows("Memcpy2DAsync DEFAULT, device to device and to page-locked host", pin.Bytes())

	for _, c := range []struct {
		what string
		err  error
		code gocann.Code
		subs []string
	}{
		{"Memcpy2D DEFAULT between device buffers", e.c.Raw().Memcpy2D(gocann.CaptureThread{}, b, pitch, a, pitch, w, h, def),
			gocann.CodeRTParamInvalid, []string{"ACL_MEMCPY_DEFAULT", "device to device", "host to device or device to host"}},
		{"Memcpy2D DEFAULT between host buffers", e.c.Raw().Memcpy2D(gocann.CaptureThread{}, gp, pitch, sp, pitch, w, h, def),
			gocann.CodeRTParamInvalid, []string{"ACL_MEMCPY_DEFAULT", "host to host"}},
		{"Memcpy2DAsync DEFAULT between host buffers", e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, pp, pitch, sp, pitch, w, h, def),
			gocann.CodeRTParamInvalid, []string{"ACL_MEMCPY_DEFAULT", "host to host"}},
		{"Memcpy2D DEVICE_TO_DEVICE", e.c.Raw().Memcpy2D(gocann.CaptureThread{}, b, pitch, a, pitch, w, h, gocann.MemcpyDeviceToDevice),
			gocann.CodeRTFeatureNotSupport, []string{"ACL_MEMCPY_DEVICE_TO_DEVICE", "aclrtMemcpy2dAsync"}},
		{"Memcpy2D HOST_TO_HOST", e.c.Raw().Memcpy2D(gocann.CaptureThread{}, gp, pitch, sp, pitch, w, h, gocann.MemcpyHostToHost),
			gocann.CodeInvalidParam, []string{"ACL_MEMCPY_HOST_TO_HOST", "not supported for a 2-D copy"}},
		{"Memcpy2DAsync INNER_DEVICE_TO_DEVICE", e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, b, pitch, a, pitch, w, h, gocann.MemcpyInnerDeviceToDevice),
			gocann.CodeInvalidParam, []string{"ACL_MEMCPY_INNER_DEVICE_TO_DEVICE", "not supported for a 2-D copy"}},
	} {
		t.Run(c.what, func(t *testing.T) { wantErr(t, c.err, c.code, c.subs...) })
	}
	syncOK(t, e.s)
}
