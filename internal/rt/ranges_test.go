package rt

import (
	"math"
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

func TestExtent2D(t *testing.T) {
	for _, c := range []struct {
		pitch, width, height uint64
		n                    uint64
		ok                   bool
	}{
		{32, 16, 4, 3*32 + 16, true},
		{32, 0, 4, 0, true},
		{32, 16, 0, 0, true},
		{math.MaxUint64, 16, 1, 16, true}, // one row: the pitch is never stepped
		{math.MaxUint64 / 2, 1, 3, math.MaxUint64, true},
		{math.MaxUint64/2 + 1, 1, 3, 0, false},
		{1 << 32, 1 << 32, 1<<32 + 1, 0, false},
	} {
		n, ok := extent2D(c.pitch, c.width, c.height)
		if n != c.n || ok != c.ok {
			t.Errorf("extent2D(%d, %d, %d) = %d, %v; want %d, %v", c.pitch, c.width, c.height, n, ok, c.n, c.ok)
		}
	}
}

func TestPitchContext(t *testing.T) {
	if pitchContext(nil, "dpitch", 32, 4) != nil {
		t.Error("pitchContext(nil) is not nil")
	}
	err := pitchContext(hal.Errorf(hal.KindInvalidAddress, "dst range runs past its allocation"), "dpitch", 32, 4)
	k, msg, _, _ := rterr.Classify(err)
	if k != rterr.KindInvalidAddress || msg != "dpitch 32 over 4 rows: dst range runs past its allocation" {
		t.Errorf("pitchContext = %#v, want the kind kept and the pitch and rows first", err)
	}
}

func TestCopyKindNames(t *testing.T) {
	for k, want := range map[CopyKind]string{
		HostToHost:          "ACL_MEMCPY_HOST_TO_HOST",
		InterDeviceToDevice: "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE",
		8:                   "aclrtMemcpyKind(8)",
		1234:                "aclrtMemcpyKind(1234)",
		-10:                 "aclrtMemcpyKind(-10)",
	} {
		if got := k.String(); got != want {
			t.Errorf("CopyKind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
	for k, want := range map[CopyKind]string{HostToHost: "host to host", HostToDevice: "host to device",
		DeviceToHost: "device to host", DeviceToDevice: "device to device"} {
		if got := direction(k); got != want {
			t.Errorf("direction(%v) = %q, want %q", k, got, want)
		}
	}
}
