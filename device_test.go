package gocann_test

import (
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/sim"
)

func TestDeviceCount(t *testing.T) {
	r := newRuntime(t, smallConfig)
	n, err := r.DeviceCount()
	check(t, err)
	if n < 2 {
		t.Fatalf("DeviceCount = %d, want at least 2 by default", n)
	}
	for id := range n {
		d, err := r.Device(id)
		check(t, err)
		if d.ID() != id || d.IsSet() {
			t.Errorf("Device(%d): ID %d, IsSet %v; want %d, false", id, d.ID(), d.IsSet(), id)
		}
	}
}

func TestInvalidDeviceID(t *testing.T) {
	// aclrtSetDevice: "deviceId range [0, aclrtGetDeviceCount()-1]";
	// ACL_ERROR_RT_INVALID_DEVICEID otherwise.
	r := newRuntime(t, smallConfig)
	for _, id := range []int{-1, 2, 1 << 20} {
		_, err := r.SetDevice(id)
		wantErr(t, err, gocann.CodeRTInvalidDeviceID, "device id "+strconv.Itoa(id), "expected 0..1")
		_, err = r.Device(id)
		wantErr(t, err, gocann.CodeRTInvalidDeviceID, "device id "+strconv.Itoa(id))
	}
}

func TestSetDeviceReferenceCount(t *testing.T) {
	// "Each aclrtSetDevice +1; aclrtResetDevice −1; resources released at 0":
	// the default context, its default stream, the streams created in it.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	d2, err := r.SetDevice(0)
	check(t, err)
	if d2 != d {
		t.Fatal("SetDevice returned a different *Device for the same id")
	}
	c, err := d.Context()
	check(t, err)
	if !c.IsDefault() || c.Device() != d {
		t.Fatalf("default context: IsDefault %v, Device %v", c.IsDefault(), c.Device())
	}
	ds, err := c.DefaultStream()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	p := malloc(t, c, 64<<20)

	check(t, d.Reset())
	if !d.IsSet() {
		t.Fatal("one Reset of two SetDevice calls left the device unset")
	}
	var ran atomic.Int32
	check(t, ds.LaunchHostFunc(func() { ran.Add(1) }))
	check(t, s.LaunchHostFunc(func() { ran.Add(1) }))
	syncOK(t, ds)
	syncOK(t, s)
	if ran.Load() != 2 {
		t.Fatalf("streams of the default context ran %d tasks after a partial reset, want 2", ran.Load())
	}

	// The last Reset waits for the default context's streams, then ends them.
	var late atomic.Bool
	check(t, s.LaunchHostFunc(func() { time.Sleep(20 * time.Millisecond); late.Store(true) }))
	check(t, d.Reset())
	if !late.Load() {
		t.Error("Reset returned before a task of a stream created in the default context finished")
	}
	if d.IsSet() {
		t.Error("device still set after the last Reset")
	}
	wantErr(t, ds.SynchronizeTimeout(long), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, s.LaunchHostFunc(func() {}), gocann.CodeRTInvalidHandle, "destroyed")
	_, err = c.Malloc(8, gocann.NormalOnly)
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
	_, err = d.Context()
	wantErr(t, err, gocann.CodeRTContextNull, "device 0 is not set")
	// The device closed with its memory: p is no longer an allocation.
	loc, _, _, err := r.PointerAttributes(uintptr(p))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("memory of a reset device: location %v, want unregistered", loc)
	}
	wantErr(t, c.Free(p), gocann.CodeRTParamInvalid, "memory of device 0, which is not open")

	// Setting it again gives a new default context with fresh memory.
	_, err = r.SetDevice(0)
	check(t, err)
	c2, err := d.Context()
	check(t, err)
	if c2 == c {
		t.Error("SetDevice after a full reset returned the old default context")
	}
	free, total, err := d.MemInfo()
	check(t, err)
	if total-free >= 64<<20 {
		t.Errorf("%d bytes used after reset and SetDevice, want the 64 MiB allocation released", total-free)
	}
}

func TestResetUnsetDevice(t *testing.T) {
	r := newRuntime(t, smallConfig)
	d, err := r.Device(1)
	check(t, err)
	wantErr(t, d.Reset(), gocann.CodeRTInvalidDeviceID, "device 1 is not set")
	wantErr(t, d.ResetForce(), gocann.CodeRTInvalidDeviceID, "device 1 is not set")
	_, err = d.Context()
	wantErr(t, err, gocann.CodeRTContextNull, "device 1 is not set")
}

func TestResetForceWaitsAndReleases(t *testing.T) {
	// aclrtResetDeviceForce ignores the reference count and releases the
	// default context, its default stream and every stream created in it,
	// waiting for their unfinished tasks first.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	for range 2 {
		_, err = r.SetDevice(0)
		check(t, err)
	}
	c, err := d.Context()
	check(t, err)
	ds, err := c.DefaultStream()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	var ranDefault, ranStream atomic.Bool
	check(t, ds.LaunchHostFunc(func() { time.Sleep(30 * time.Millisecond); ranDefault.Store(true) }))
	check(t, s.LaunchHostFunc(func() { time.Sleep(30 * time.Millisecond) }))
	check(t, s.LaunchHostFunc(func() { ranStream.Store(true) }))
	p := malloc(t, c, 1<<20)
	check(t, d.ResetForce())
	if !ranDefault.Load() || !ranStream.Load() {
		t.Errorf("ResetForce returned before queued work finished: default stream %v, created stream %v",
			ranDefault.Load(), ranStream.Load())
	}
	if d.IsSet() {
		t.Error("device still set after ResetForce of three references")
	}
	wantErr(t, ds.SynchronizeTimeout(long), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, s.SynchronizeTimeout(long), gocann.CodeRTInvalidHandle, "destroyed")
	_, err = c.DefaultStream()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
	if loc, _, _, err := r.PointerAttributes(uintptr(p)); err != nil || loc != gocann.LocationUnregistered {
		t.Errorf("memory after ResetForce: location %v, %v; want unregistered (freed with the device)", loc, err)
	}
	// "thread2's call returns an error (already released)".
	wantErr(t, d.ResetForce(), gocann.CodeRTInvalidDeviceID, "not set")
}

func TestResetForceMixedWithReset(t *testing.T) {
	// The documented legal and illegal orders of aclrtResetDevice and
	// aclrtResetDeviceForce after aclrtSetDevice calls.
	type step struct {
		op    string // "set", "reset" or "force"
		fails bool
	}
	for _, seq := range [][]step{
		{{"set", false}, {"reset", false}, {"set", false}, {"force", false}},
		{{"set", false}, {"set", false}, {"reset", false}, {"force", false}},
		{{"set", false}, {"set", false}, {"reset", false}, {"reset", false}, {"force", true}},
		{{"set", false}, {"set", false}, {"reset", false}, {"force", false}, {"force", true}},
		{{"set", false}, {"set", false}, {"force", false}, {"reset", true}},
	} {
		r := newRuntime(t, smallConfig)
		d, err := r.Device(0)
		check(t, err)
		for i, st := range seq {
			switch st.op {
			case "set":
				_, err = r.SetDevice(0)
			case "reset":
				err = d.Reset()
			case "force":
				err = d.ResetForce()
			}
			if st.fails {
				wantErr(t, err, gocann.CodeRTInvalidDeviceID, "not set")
			} else if err != nil {
				t.Errorf("%v: step %d (%s): %v", seq, i, st.op, err)
			}
		}
	}
}

func TestDeviceSynchronize(t *testing.T) {
	// aclrtSynchronizeDevice waits for every stream on the device, those of
	// explicit contexts included.
	e := setup(t)
	c2, err := e.d.NewContext()
	check(t, err)
	defer c2.Close()
	s2, err := c2.NewStream()
	check(t, err)
	g1, g2 := block(t, e.s), block(t, s2)
	var after atomic.Int32
	check(t, e.s.LaunchHostFunc(func() { after.Add(1) }))
	check(t, s2.LaunchHostFunc(func() { after.Add(1) }))

	start := time.Now()
	err = e.d.SynchronizeTimeout(30 * time.Millisecond)
	wantErr(t, err, gocann.CodeRTStreamSyncTimeout, "not done within")
	if !errors.Is(err, gocann.ErrTimeout) {
		t.Errorf("errors.Is(%v, ErrTimeout) = false", err)
	}
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Errorf("SynchronizeTimeout(30ms) returned after %v", el)
	}
	g1.Open()
	wantErr(t, e.d.SynchronizeTimeout(30*time.Millisecond), gocann.CodeRTStreamSyncTimeout, "not done within")
	g2.Open()
	check(t, e.d.SynchronizeTimeout(long))
	if after.Load() != 2 {
		t.Errorf("Device.Synchronize returned with %d of 2 streams' last tasks done", after.Load())
	}
}

func TestDeviceInfo(t *testing.T) {
	r := newRuntime(t, `{"simulator":{"hbm_size":268435456,"aicore_num":8,"soc_name":"Ascend910B4"}}`)
	d, err := r.Device(1) // attributes need no SetDevice
	check(t, err)
	for _, tc := range []struct {
		attr gocann.DeviceAttr
		want int64
	}{
		{gocann.AttrAICoreNum, 8},
		{gocann.AttrCubeCoreNum, 24},
		{gocann.AttrVectorCoreNum, 48},
		{gocann.AttrAICPUCoreNum, 6},
		{gocann.AttrTotalGlobalMem, 256 << 20},
		{gocann.AttrL2CacheSize, 192 << 20},
		{gocann.AttrPhyChipID, 1},
		{gocann.AttrNPUArch, 2201}, // Atlas A2
		{gocann.AttrIsVirtual, 0},
		{gocann.DeviceAttr(202), 0}, // SIMT attributes read 0 off the 950
		{gocann.DeviceAttr(212), 0},
	} {
		v, err := d.Info(tc.attr)
		if err != nil || v != tc.want {
			t.Errorf("Info(%d) = %d, %v; want %d", tc.attr, v, err, tc.want)
		}
	}
	for _, attr := range []gocann.DeviceAttr{0, 2, 103, 213, 408, 999} {
		_, err := d.Info(attr)
		wantErr(t, err, gocann.CodeRTParamInvalid, "attr "+strconv.Itoa(int(attr))+" is invalid", "601")
	}
	if d.SoCName() != "Ascend910B4" {
		t.Errorf("SoCName = %q", d.SoCName())
	}
	least, greatest := d.StreamPriorityRange()
	if least != 7 || greatest != 0 {
		t.Errorf("StreamPriorityRange = least %d, greatest %d; want 7, 0", least, greatest)
	}
	if p := d.Props(); p.AICores != 8 || p.StreamLimit != 2048 || p.QueueDepth == 0 {
		t.Errorf("Props = %+v", p)
	}

	def := newRuntime(t, smallConfig)
	d0, err := def.Device(0)
	check(t, err)
	if v, _ := d0.Info(gocann.AttrAICoreNum); v != 24 || d0.SoCName() != "Ascend910B1" {
		t.Errorf("default chip: %d AI cores, %q; want 24, Ascend910B1", v, d0.SoCName())
	}
}

// TestNPUArchOfEachChip: ACL_DEV_ATTR_NPU_ARCH is the chip's, by the
// reference's table (aclplatformNpuArch); IPV350, whose value is 3505,
// does not offer aclrtGetDeviceInfo.
func TestNPUArchOfEachChip(t *testing.T) {
	want := map[string]int64{"Ascend910B1": 2201, "Ascend910_9391": 2201, "Ascend950PR_9599": 3510,
		"Ascend310B1": 3002, "Ascend310P3": 2002, "Ascend910A": 1001}
	for _, p := range sim.Profiles() {
		r := newRuntime(t, `{"simulator":{"hbm_size":268435456,"soc_name":"`+p.SoCName+`"}}`)
		d, err := r.Device(0)
		check(t, err)
		v, err := d.Info(gocann.AttrNPUArch)
		if p.SoCName == "Ascend035" {
			wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtGetDeviceInfo is not supported on Ascend035 (IPV350)")
			continue
		}
		if w, ok := want[p.SoCName]; !ok || err != nil || v != w {
			t.Errorf("%s: Info(AttrNPUArch) = %d, %v; want %d", p.SoCName, v, err, w)
		}
	}
}
