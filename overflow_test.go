package gocann_test

import (
	"encoding/binary"
	"testing"

	"github.com/gocann/gocann"
)

// status reads the device's overflow status through s: the first word.
func status(t *testing.T, e env, s *gocann.Stream) uint32 {
	t.Helper()
	out := malloc(t, e.c, gocann.OverflowStatusSize)
	check(t, e.c.CopyToDevice(out, make([]byte, gocann.OverflowStatusSize)))
	check(t, s.OverflowStatus(out, gocann.OverflowStatusSize))
	syncOK(t, s)
	b := make([]byte, gocann.OverflowStatusSize)
	check(t, e.c.CopyFromDevice(b, out))
	check(t, e.c.Free(out))
	for _, x := range b[4:] {
		if x != 0 {
			t.Errorf("overflow status beyond its first word: % x", b)
			break
		}
	}
	return binary.LittleEndian.Uint32(b)
}

// f16Pair puts two float16 elements 60000 (0x7b53) at a new buffer.
func f16Pair(t *testing.T, e env) gocann.DevPtr {
	p := malloc(t, e.c, 4)
	check(t, e.c.CopyToDevice(p, []byte{0x53, 0x7b, 0x53, 0xfb})) // 60000, -60000
	return p
}

func f16At(t *testing.T, e env, p gocann.DevPtr) [2]uint16 {
	var b [4]byte
	check(t, e.c.CopyFromDevice(b[:], p))
	return [2]uint16{binary.LittleEndian.Uint16(b[:]), binary.LittleEndian.Uint16(b[2:])}
}

// TestSaturationModeChangesReduce: a float16 sum past 65504 is ±inf on a
// stream made in Inf/NaN mode (the Atlas A2 default) and ±65504 on one made
// after the device was set to saturation; streams keep the mode they were
// made in.
func TestSaturationModeChangesReduce(t *testing.T) {
	e := setup(t)
	if m := e.d.SatMode(); m != gocann.OverflowInfNaN {
		t.Fatalf("default mode %d, want Inf/NaN", m)
	}
	check(t, e.d.SetSatMode(gocann.OverflowSaturation))
	sat := e.newStream(t)
	if m := e.d.SatMode(); m != gocann.OverflowSaturation {
		t.Fatalf("mode after set %d, want saturation", m)
	}
	for _, c := range []struct {
		s    *gocann.Stream
		want [2]uint16
	}{{e.s, [2]uint16{0x7c00, 0xfc00}}, {sat, [2]uint16{0x7bff, 0xfbff}}} {
		dst, src := f16Pair(t, e), f16Pair(t, e)
		check(t, c.s.ReduceAsync(dst, src, 4, gocann.ReduceSum, gocann.DTFloat16))
		syncOK(t, c.s)
		if got := f16At(t, e, dst); got != c.want {
			t.Errorf("60000+60000, -60000-60000 = %#04x, want %#04x", got, c.want)
		}
	}
	wantErr(t, e.d.SetSatMode(2), gocann.CodeRTParamInvalid, "mode 2")

	e950 := setup(t, profileConfig("Ascend950PR_9599"))
	wantErr(t, e950.d.SetSatMode(gocann.OverflowSaturation), gocann.CodeRTFeatureNotSupport, "only the Inf/NaN mode")
	e310 := setup(t, profileConfig("Ascend310B1"))
	if m := e310.d.SatMode(); m != gocann.OverflowSaturation {
		t.Errorf("Atlas 200I/500 A2 mode %d, want saturation", m)
	}
	wantErr(t, e310.d.SetSatMode(gocann.OverflowInfNaN), gocann.CodeRTFeatureNotSupport, "only the saturation mode")
}

// TestOverflowStatus: with the switch on, a reduce or a kernel that
// overflows sets the device's status, which the status task copies out
// and the reset task clears; with it off nothing is flagged.
func TestOverflowStatus(t *testing.T) {
	e := setup(t)
	on, err := e.s.OverflowSwitch()
	check(t, err)
	if on {
		t.Fatal("overflow switch on by default")
	}
	dst, src := f16Pair(t, e), f16Pair(t, e)
	check(t, e.s.ReduceAsync(dst, src, 4, gocann.ReduceSum, gocann.DTFloat16))
	if st := status(t, e, e.s); st != 0 {
		t.Fatalf("status %d after an overflow with the switch off, want 0", st)
	}
	check(t, e.s.SetOverflowSwitch(true))
	if v, err := e.s.Attr(gocann.StreamAttrOverflowCheck); err != nil || v != 1 {
		t.Errorf("attribute after the switch: %d, %v; want 1", v, err)
	}
	dst, src = f16Pair(t, e), f16Pair(t, e)
	check(t, e.s.ReduceAsync(dst, src, 4, gocann.ReduceMax, gocann.DTFloat16))
	if st := status(t, e, e.s); st != 0 {
		t.Fatalf("status %d after a reduce without overflow, want 0", st)
	}
	check(t, e.s.ReduceAsync(dst, src, 4, gocann.ReduceSum, gocann.DTFloat16))
	other := e.newStream(t)
	if st := status(t, e, other); st != 1 {
		t.Fatalf("status %d through another stream after an overflow, want 1 (the device's)", st)
	}
	check(t, other.ResetOverflowStatus())
	syncOK(t, other) // the reset is queued on other, the status read on e.s
	if st := status(t, e, e.s); st != 0 {
		t.Fatalf("status %d after the reset, want 0", st)
	}

	// A kernel reports through its block.
	k, err := e.r.RegisterKernel("overflows", func(b *gocann.Block) {
		if b.Idx() == 3 {
			b.ReportOverflow()
		}
	})
	check(t, err)
	check(t, e.s.Launch(k, 8))
	if st := status(t, e, e.s); st != 1 {
		t.Fatalf("status %d after a kernel reported overflow, want 1", st)
	}
	check(t, e.s.NpuClearFloatOverflowStatus(0))
	check(t, e.s.SetAttr(gocann.StreamAttrOverflowCheck, 0))
	if on, _ := e.s.OverflowSwitch(); on {
		t.Error("switch still on after the attribute was set to 0")
	}
	check(t, e.s.Launch(k, 8))
	if st := status(t, e, e.s); st != 0 {
		t.Fatalf("status %d after a kernel overflowed with the switch off, want 0", st)
	}

	// The area is the context's overflow address, stable while the device
	// is open.
	a1, err := e.c.FloatOverflowAddr()
	check(t, err)
	a2, err := e.c.FloatOverflowAddr()
	check(t, err)
	if a1 == 0 || a1 != a2 {
		t.Errorf("FloatOverflowAddr %#x then %#x, want one non-zero address", a1, a2)
	}
	check(t, e.s.SetOverflowSwitch(true))
	check(t, e.s.Launch(k, 8))
	syncOK(t, e.s)
	if v := readU64(t, e.c, a1); uint32(v) != 1 {
		t.Errorf("overflow area word %#x after an overflow, want 1", v)
	}
}

// TestOverflowRefusals: the status tasks' size and capture rules, and the
// products without a stream overflow switch.
func TestOverflowRefusals(t *testing.T) {
	e := setup(t)
	out := malloc(t, e.c, 64)
	wantErr(t, e.s.OverflowStatus(out, 32), gocann.CodeRTParamInvalid, "outputSize 32")
	wantErr(t, e.s.FloatOverflowStatus(out, 65), gocann.CodeRTParamInvalid, "outputSize 65")
	wantErr(t, e.s.NpuFloatOverflowStatus(out.Add(40), 64, 0), gocann.CodeRTParamInvalid, "runs past")
	c, err := e.s.BeginCapture(gocann.CaptureRelaxed)
	check(t, err)
	wantErr(t, e.s.OverflowStatus(out, 64), gocann.CodeRTStreamCaptured, "capturing")
	wantErr(t, e.s.ResetFloatOverflowStatus(), gocann.CodeRTStreamCaptured, "capturing")
	wantErr(t, e.s.SetOverflowSwitch(true), gocann.CodeRTStreamCaptured, "capturing")
	m, err := c.End()
	check(t, err)
	check(t, m.Close())

	e310 := setup(t, profileConfig("Ascend310B1"))
	wantErr(t, e310.s.SetOverflowSwitch(true), gocann.CodeRTFeatureNotSupport, "aclrtSetStreamOverflowSwitch")
	_, err = e310.s.OverflowSwitch()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtGetStreamOverflowSwitch")
}
