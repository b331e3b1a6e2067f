package gocann_test

import (
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// symbolBytes stands for a loaded C binary's global: process memory that
// lives as long as the program.
var symbolBytes [64]uint64

// TestHostSymbolIsDeviceMemory checks that a C binary's global, process
// memory registered as a device symbol, is device memory to copies,
// memsets, value operations, Go kernels and PointerAttributes, and that
// ranges past its end are refused.
func TestHostSymbolIsDeviceMemory(t *testing.T) {
	e := setup(t)
	p := unsafe.Pointer(&symbolBytes[0])
	sym, err := e.r.Raw().RegisterSymbol("table", p, unsafe.Sizeof(symbolBytes), 0)
	check(t, err)
	raw, sraw, th := e.c.Raw(), e.s.Raw(), gocann.CaptureThread{}
	d := malloc(t, e.c, 64)
	dp, err := e.r.Raw().DevicePointer(d)
	check(t, err)

	v := uint64(11)
	check(t, raw.Memcpy(th, p, 8, unsafe.Pointer(&v), 8, gocann.MemcpyHostToDevice))
	check(t, raw.Memcpy(th, dp, 8, p, 8, gocann.MemcpyDeviceToDevice))
	var back uint64
	check(t, raw.Memcpy(th, unsafe.Pointer(&back), 8, dp, 8, gocann.MemcpyDeviceToHost))
	if back != 11 || symbolBytes[0] != 11 {
		t.Fatalf("host to device into the symbol, device to device out: %d (symbol %d), want 11", back, symbolBytes[0])
	}
	check(t, sraw.MemsetAsync(unsafe.Add(p, 8), 8, 0x7f, 8))
	syncOK(t, e.s)
	if symbolBytes[1] != 0x7f7f7f7f7f7f7f7f {
		t.Errorf("memset on the symbol: %#x", symbolBytes[1])
	}
	at := gocann.DevPtr(uintptr(p))
	check(t, e.s.WriteValue(at+16, 99))
	k, err := e.r.RegisterKernel("double_word", func(b *gocann.Block) {
		w := gocann.View[uint64](b, b.Arg(0).Ptr(), 1)
		w[0] *= 2
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(at+16)))
	syncOK(t, e.s)
	if symbolBytes[2] != 198 {
		t.Errorf("value write then a Go kernel on the symbol: %d, want 198", symbolBytes[2])
	}
	loc, dev, _, err := e.r.PointerAttributes(uintptr(p) + 8)
	check(t, err)
	if loc != gocann.LocationDevice || dev != 0 {
		t.Errorf("PointerAttributes inside the symbol: location %d on device %d, want device memory of device 0", loc, dev)
	}

	end := unsafe.Add(p, len(symbolBytes)*8-4)
	wantErr(t, raw.Memcpy(th, end, 8, unsafe.Pointer(&v), 8, gocann.MemcpyHostToDevice), gocann.CodeRTParamInvalid, "runs past device symbol \"table\"")
	wantErr(t, raw.Memcpy(th, p, 8, unsafe.Pointer(&v), 8, gocann.MemcpyHostToHost), gocann.CodeRTParamInvalid, "device memory destination")
	wantErr(t, e.s.WriteValue(at+gocann.DevPtr(len(symbolBytes)*8-4), 1), gocann.CodeRTParamInvalid, "runs past device symbol")

	_, err = e.s.Capture(gocann.CaptureGlobal, func(c *gocann.Stream) error {
		err := c.Raw().MemsetAsync(p, 8, 0, 8)
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "is capturing or bound to a model")
		return err
	})
	if err == nil {
		t.Errorf("a capture holding a memset into a binary's global ended without an error")
	}

	// Dropping the symbol (its binary unloading) waits for the tasks
	// queued on it.
	check(t, e.s.LaunchHostFunc(func() { time.Sleep(50 * time.Millisecond) }))
	check(t, sraw.MemsetAsync(unsafe.Add(p, 24), 8, 0x11, 8))
	check(t, sym.Close())
	if symbolBytes[3] != 0x1111111111111111 {
		t.Errorf("after the symbol was dropped, the memset queued on it behind 50 ms had not run: %#x", symbolBytes[3])
	}
	wantErr(t, raw.Memcpy(th, p, 8, unsafe.Pointer(&v), 8, gocann.MemcpyHostToDevice), gocann.CodeRTParamInvalid, "host memory destination")
	if loc, _, _, _ := e.r.PointerAttributes(uintptr(p)); loc != gocann.LocationUnregistered {
		t.Errorf("PointerAttributes after the symbol is dropped: %d, want unregistered host memory", loc)
	}
}
