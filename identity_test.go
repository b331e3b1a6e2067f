package gocann_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// openVisible opens four logical devices on physical chips 4..7 with
// ASCEND_RT_VISIBLE_DEVICES set to visible.
func openVisible(t *testing.T, visible string) (*gocann.Runtime, error) {
	c, err := gocann.ParseConfig([]byte(`{"simulator":{"devices":4,"hbm_size":1073741824,"physical_ids":[4,5,6,7]}}`))
	check(t, err)
	c.VisibleDevices = &visible
	r := gocann.New()
	if err := r.InitConfig(c); err != nil {
		return nil, err
	}
	t.Cleanup(func() { check(t, r.Close()) })
	return r, nil
}

// TestVisibleDevices: ASCEND_RT_VISIBLE_DEVICES selects and renumbers the
// devices; the six id conversions map user, logical and physical ids.
func TestVisibleDevices(t *testing.T) {
	r, err := openVisible(t, "1,3")
	check(t, err)
	if n, _ := r.DeviceCount(); n != 2 {
		t.Fatalf("DeviceCount = %d with devices 1,3 visible, expected 2", n)
	}
	for _, c := range []struct {
		name string
		f    func(int) (int, error)
		in   int
		want int
	}{
		{"LogicalIDOfUser", r.LogicalIDOfUser, 0, 1},
		{"LogicalIDOfUser", r.LogicalIDOfUser, 1, 3},
		{"UserIDOfLogical", r.UserIDOfLogical, 3, 1},
		{"PhysicalIDOfUser", r.PhysicalIDOfUser, 1, 7},
		{"UserIDOfPhysical", r.UserIDOfPhysical, 5, 0},
		{"PhysicalIDOfLogical", r.PhysicalIDOfLogical, 0, 5},
		{"LogicalIDOfPhysical", r.LogicalIDOfPhysical, 7, 1},
	} {
		got, err := c.f(c.in)
		if err != nil || got != c.want {
			t.Errorf("%s(%d) = %d, %v; expected %d", c.name, c.in, got, err, c.want)
		}
	}
	_, err = r.UserIDOfLogical(0) // not visible
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "logical device id 0 is invalid")
	_, err = r.UserIDOfPhysical(4)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "physical device id 4 is invalid")
	_, err = r.LogicalIDOfUser(-1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "user device id -1 is invalid, expected >= 0")
	_, err = r.LogicalIDOfUser(2)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "user device id 2 is invalid")

	d1, err := r.SetDevice(1)
	check(t, err)
	bus, err := d1.PCIBusID()
	check(t, err)
	if bus != "0000:08:00.0" {
		t.Errorf("PCIBusID of physical device 7 = %q, expected 0000:08:00.0", bus)
	}
	for _, s := range []string{"0000:08:00.0", "08:00.0", "0000:08:00.0"} {
		if id, err := r.DeviceByPCIBusID(s); err != nil || id != 1 {
			t.Errorf("DeviceByPCIBusID(%q) = %d, %v; expected 1", s, id, err)
		}
	}
	_, err = r.DeviceByPCIBusID("0000:05:00.0") // logical device 0, not visible
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "is no visible device's")
	_, err = r.DeviceByPCIBusID("0000:zz:00.0")
	wantErr(t, err, gocann.CodeRTParamInvalid, "expected domain:bus:device.function")
	_, err = r.Raw().PCIBusID(0, 12)
	wantErr(t, err, gocann.CodeRTParamInvalid, "len 12 is invalid, expected >= 13")

	d0, err := r.Device(0)
	check(t, err)
	u0, err := d0.UUID()
	check(t, err)
	u1, err := d1.UUID()
	check(t, err)
	if u0 == u1 || u0 == [16]byte{} {
		t.Errorf("UUIDs %x and %x: expected two different non-zero ids", u0, u1)
	}
	// The same physical device has the same UUID in another runtime, as
	// another user id.
	r2, err := openVisible(t, "3")
	check(t, err)
	d, err := r2.Device(0)
	check(t, err)
	if u, _ := d.UUID(); u != u1 {
		t.Errorf("UUID of physical device 7 = %x in another runtime, expected %x", u, u1)
	}
}

// TestVisibleDevicesRefused: the lists CANN refuses.
func TestVisibleDevicesRefused(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"2,1", "expected ascending ids"},
		{"1,1", "repeats"},
		{"x", "names no device"},
		{"9", "names no device"},
	} {
		_, err := openVisible(t, c.env)
		wantErr(t, err, gocann.CodeRTNoDevice, c.want)
	}
	// Reading stops at the first id that is not one.
	r, err := openVisible(t, "0,2,x,3")
	check(t, err)
	if n, _ := r.DeviceCount(); n != 2 {
		t.Errorf("DeviceCount = %d for 0,2,x,3; expected 2", n)
	}
}

// TestDeviceCapabilities: features, atomics, architecture, limits.
func TestDeviceCapabilities(t *testing.T) {
	e := setup(t, `{"simulator":{"devices":3,"hbm_size":1073741824,"topology":{"pairs":[{"devices":[0,2],"link":"pix"}]}},"StackSize":{"aicore_stack_size":40000}}`)
	if ok, err := e.d.HasFeature(gocann.FeatureTaskUpdateAICAIV); err != nil || !ok {
		t.Errorf("HasFeature(task update) = %v, %v", ok, err)
	}
	if ok, err := e.d.HasFeature(gocann.FeatureMemQEventCrossDev); err != nil || ok {
		t.Errorf("HasFeature(memory queue events) = %v, %v", ok, err)
	}
	_, err := e.d.HasFeature(2)
	wantErr(t, err, gocann.CodeRTParamInvalid, "devFeatureType 2 is invalid")
	_, err = e.r.Raw().DeviceFeature(3, gocann.FeatureTaskUpdateAICAIV)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "deviceId 3 is invalid")

	caps, err := e.r.P2PAtomicCapabilities(0, 1, gocann.AtomicDMAAdd, 0, gocann.AtomicDMAMax)
	check(t, err)
	want := gocann.AtomicCapSigned | gocann.AtomicCapScalar8 | gocann.AtomicCapScalar16 | gocann.AtomicCapScalar32
	if caps[0] != want || caps[1] != 0 || caps[2] != want {
		t.Errorf("P2PAtomicCapabilities over HCCS = %#x, expected [%#x 0 %#x]", caps, want, want)
	}
	if caps, err := e.r.P2PAtomicCapabilities(2, 0, gocann.AtomicDMAAdd); err != nil || caps[0] != 0 {
		t.Errorf("P2PAtomicCapabilities over PCIe = %#x, %v; expected 0", caps, err)
	}
	_, err = e.r.P2PAtomicCapabilities(1, 1, gocann.AtomicDMAAdd)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "srcDeviceId 1 is invalid, expected a device other than dstDeviceId 1")
	_, err = e.r.P2PAtomicCapabilities(0, 1, 45)
	wantErr(t, err, gocann.CodeRTParamInvalid, "operations[0] 45 is invalid")
	_, err = e.r.P2PAtomicCapabilities(0, 1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "count 0 is invalid")
	if caps, err := e.r.HostAtomicCapabilities(0, gocann.AtomicDMAAdd, 0); err != nil || caps[0] != 0 || caps[1] != 0 {
		t.Errorf("HostAtomicCapabilities = %#x, %v; expected zeros (PCIe)", caps, err)
	}
	_, err = e.r.HostAtomicCapabilities(5, 0)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "deviceId 5 is invalid")

	for _, c := range []struct {
		soc  string
		want bool
	}{{"Ascend910B1", true}, {"Ascend910B4", true}, {"Ascend910_9391", true}, {"Ascend310P3", false}, {"Ascend950PR_9599", false},
		// The bare Ascend910B is the training chip (1001), not an Atlas A2
		// one; Ascend035 is an IPV350 (3505).
		{"Ascend910B", false}, {"Ascend910A", false}, {"Ascend035", false}} {
		if ok, err := e.r.CheckArchCompatibility(c.soc); err != nil || ok != c.want {
			t.Errorf("CheckArchCompatibility(%q) = %v, %v; expected %v", c.soc, ok, err, c.want)
		}
	}
	_, err = e.r.CheckArchCompatibility("Pentium")
	wantErr(t, err, gocann.CodeRTParamInvalid, `socVersion "Pentium" is invalid`)

	// Limits: aclInit's stack size rounded, then set and read back.
	if v, err := e.r.DeviceLimit(gocann.LimitSIMDStackSize); err != nil || v != 48<<10 {
		t.Errorf("DeviceLimit(SIMD stack) = %d, %v after StackSize 40000; expected 49152", v, err)
	}
	check(t, e.r.SetDeviceLimit(gocann.LimitSIMDStackSize, 100000))
	if v, _ := e.r.DeviceLimit(gocann.LimitSIMDStackSize); v != 112<<10 {
		t.Errorf("DeviceLimit(SIMD stack) = %d after setting 100000; expected 114688", v)
	}
	check(t, e.r.SetDeviceLimit(gocann.LimitSIMDStackSize, 1000))
	if v, _ := e.r.DeviceLimit(gocann.LimitSIMDStackSize); v != 32<<10 {
		t.Errorf("DeviceLimit(SIMD stack) = %d after setting 1000; expected 32768", v)
	}
	wantErr(t, e.r.SetDeviceLimit(gocann.LimitSIMDStackSize, 200000), gocann.CodeRTParamInvalid, "expected at most 196608")
	if v, _ := e.r.DeviceLimit(gocann.LimitSIMDPrintfFIFOPerCore); v != 32<<10 {
		t.Errorf("DeviceLimit(printf FIFO) = %d by default; expected 32768", v)
	}
	check(t, e.r.SetDeviceLimit(gocann.LimitSIMDPrintfFIFOPerCore, 1025))
	if v, _ := e.r.DeviceLimit(gocann.LimitSIMDPrintfFIFOPerCore); v != 1032 {
		t.Errorf("DeviceLimit(printf FIFO) = %d after 1025; expected 1032", v)
	}
	wantErr(t, e.r.SetDeviceLimit(gocann.LimitSIMDPrintfFIFOPerCore, 1023), gocann.CodeRTParamInvalid, "expected [1024, 67108864]")
	for _, l := range []gocann.DeviceLimit{gocann.LimitSIMTStackSize, gocann.LimitSIMTDvgWarpStackSize, gocann.LimitSIMTPrintfFIFOSize} {
		wantErr(t, e.r.SetDeviceLimit(l, 1024), gocann.CodeRTFeatureNotSupport, "no SIMT units")
		_, err := e.r.DeviceLimit(l)
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "no SIMT units")
	}
	wantErr(t, e.r.SetDeviceLimit(5, 1024), gocann.CodeInvalidParam, "limit 5 is invalid")
	wantErr(t, e.r.SetDeviceLimit(gocann.LimitSIMDStackSize, 1<<32), gocann.CodeInvalidParam, "expected [0, UINT32_MAX]")
	check(t, e.r.Raw().SetTsDevice(1))
	wantErr(t, e.r.Raw().SetTsDevice(2), gocann.CodeInvalidParam, "tsId 2 is invalid")
}

// TestStackLimitTakesEffect: the stack size set applies when a device is
// next set up, in the memory it reserves.
func TestStackLimitTakesEffect(t *testing.T) {
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(1)
	check(t, err)
	free32, total, err := d.MemInfo()
	check(t, err)
	check(t, d.Reset())
	check(t, r.SetDeviceLimit(gocann.LimitSIMDStackSize, 64<<10))
	d, err = r.SetDevice(1)
	check(t, err)
	free64, _, err := d.MemInfo()
	check(t, err)
	cores, _ := d.Info(gocann.AttrAICoreNum)
	if got := free32 - free64; got != 32<<10*cores {
		t.Errorf("a 64 KiB stack took %d more bytes than 32 KiB (of %d), expected %d", got, total, 32<<10*cores)
	}
}

// TestUtilization: a device running kernels on every core reads high, an
// idle one low; memory reads -1.
func TestUtilization(t *testing.T) {
	// Two cores, so that both blocks start at once however few CPUs run
	// the test.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"aicore_num":2}}`)
	u, err := e.d.Utilization()
	check(t, err)
	if u.Cube > 5 || u.Vector > 5 || u.AICPU > 5 || u.AICPU < 0 || u.Memory != -1 {
		t.Errorf("idle device: %+v, expected cube, vector and AI CPU near 0, memory -1", u)
	}
	cores, _ := e.d.Info(gocann.AttrAICoreNum)
	spin, err := e.r.RegisterKernel("spin", func(b *gocann.Block) {
		for end := time.Now().Add(400 * time.Millisecond); time.Now().Before(end); {
		}
	})
	check(t, err)
	check(t, e.s.Launch(spin, uint32(cores)))
	time.Sleep(300 * time.Millisecond)
	u, err = e.d.Utilization()
	check(t, err)
	if u.Cube < 60 || u.Vector != u.Cube {
		t.Errorf("device with every core busy for 300 ms: %+v, expected cube and vector above 60%%", u)
	}
	check(t, e.s.Synchronize(context.Background()))
	d1, err := e.r.Device(1)
	check(t, err)
	if u, err := d1.Utilization(); err != nil || u.Cube != 0 {
		t.Errorf("device 1, never set: %+v, %v; expected 0", u, err)
	}
}

// TestMemUsage: the caller's memory and the runtime's, now and at their
// peak, most in use first.
func TestMemUsage(t *testing.T) {
	e := setup(t)
	cores, _ := e.d.Info(gocann.AttrAICoreNum)
	p := malloc(t, e.c, 64<<20)
	comps, err := e.r.MemUsage(0)
	check(t, err)
	if len(comps) != 2 || comps[0].Name != "APP" || comps[0].Bytes < 64<<20 || comps[1].Name != "RUNTIME" ||
		comps[1].Bytes < uint64(cores)*32<<10 {
		t.Fatalf("MemUsage with 64 MiB allocated = %+v, expected APP >= 64 MiB, then RUNTIME >= the AI core stacks", comps)
	}
	check(t, e.c.Free(p))
	comps, err = e.r.MemUsage(0)
	check(t, err)
	for _, c := range comps {
		if c.Name == "APP" && (c.Bytes != 0 || c.Peak < 64<<20) {
			t.Errorf("APP after the free: %+v, expected 0 bytes and a peak >= 64 MiB", c)
		}
	}
	if comps[0].Name != "RUNTIME" {
		t.Errorf("MemUsage after the free = %+v, expected RUNTIME first", comps)
	}
	if comps, err := e.r.MemUsage(1); err != nil || len(comps) != 0 {
		t.Errorf("MemUsage of device 1, never set = %+v, %v; expected none", comps, err)
	}
	_, err = e.r.MemUsage(2)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "deviceId 2 is invalid")
}

// TestVisibleDevicesEnv: Open, as aclInit, reads ASCEND_RT_VISIBLE_DEVICES
// from the environment.
func TestVisibleDevicesEnv(t *testing.T) {
	t.Setenv("ASCEND_RT_VISIBLE_DEVICES", "2")
	r := newRuntime(t, `{"simulator":{"devices":3,"hbm_size":1073741824}}`)
	if n, _ := r.DeviceCount(); n != 1 {
		t.Errorf("DeviceCount = %d with ASCEND_RT_VISIBLE_DEVICES=2, expected 1", n)
	}
	if l, err := r.LogicalIDOfUser(0); err != nil || l != 2 {
		t.Errorf("LogicalIDOfUser(0) = %d, %v; expected 2", l, err)
	}
	t.Setenv("ASCEND_RT_VISIBLE_DEVICES", "1,0")
	_, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"devices":3,"hbm_size":1073741824}}`)))
	wantErr(t, err, gocann.CodeRTNoDevice, `ASCEND_RT_VISIBLE_DEVICES="1,0" is invalid`)
}
