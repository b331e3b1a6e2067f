package gocann_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// writeConfig writes configuration JSON to a file in a fresh directory.
func writeConfig(t *testing.T, json string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "acl.json")
	check(t, os.WriteFile(path, []byte(json), 0o600))
	return path
}

func TestOpenWithoutConfig(t *testing.T) {
	// aclInit(NULL): the defaults, at least two devices, no default device.
	r, err := gocann.Open()
	check(t, err)
	defer r.Close()
	n, err := r.DeviceCount()
	check(t, err)
	if n < 2 {
		t.Errorf("DeviceCount = %d, want >= 2", n)
	}
	cfg := r.Config()
	if cfg.DefaultDevice != -1 || cfg.StackSize != 32<<10 {
		t.Errorf("default config: default device %d, stack %d; want -1, 32768", cfg.DefaultDevice, cfg.StackSize)
	}
}

func TestInitFromFile(t *testing.T) {
	// The CANN keys and the simulator section, read from a file as
	// aclInit(path) does. CANN's own examples write numbers as strings.
	path := writeConfig(t, `{
		"defaultDevice": {"default_device": "2"},
		"StackSize": {"aicore_stack_size": 40000},
		"err_msg_mode": "1",
		"dump": {"dump_path": "/tmp"},
		"simulator": {"devices": 3, "aicore_num": 4, "hbm_size": 268435456,
			"soc_name": "Ascend910B3", "stream_limit": 16}
	}`)
	r := gocann.New()
	check(t, r.Init(path))
	defer r.Close()
	cfg := r.Config()
	if cfg.DefaultDevice != 2 || cfg.ErrMsgMode != 1 {
		t.Errorf("default device %d, err_msg_mode %d; want 2, 1", cfg.DefaultDevice, cfg.ErrMsgMode)
	}
	// "Rounded up to a multiple of 16K": 40000 -> 48K.
	if cfg.StackSize != 48<<10 {
		t.Errorf("StackSize = %d, want %d", cfg.StackSize, 48<<10)
	}
	n, err := r.DeviceCount()
	check(t, err)
	if n != 3 {
		t.Fatalf("DeviceCount = %d, want 3", n)
	}
	d, err := r.Device(2)
	check(t, err)
	p := d.Props()
	if p.AICores != 4 || p.HBMSize != 256<<20 || p.StreamLimit != 16 || d.SoCName() != "Ascend910B3" {
		t.Errorf("props %+v, want 4 AI cores, 256 MiB, 16 streams, Ascend910B3", p)
	}
}

func TestStackReservedAtSetDevice(t *testing.T) {
	// "At aclrtSetDevice, CANN allocates aicore_stack_size × aicore_num bytes
	// of device memory for stacks"; the size is rounded up to 16K, values
	// under 32K count as 32K.
	for _, tc := range []struct {
		stack string
		cores int64
		want  int64
	}{
		{`,"StackSize":{"aicore_stack_size":40000}`, 4, 48 << 10 * 4},
		{`,"StackSize":{"aicore_stack_size":1000}`, 3, 32 << 10 * 3},
		{`,"StackSize":{"aicore_stack_size":196608}`, 2, 192 << 10 * 2},
		{``, 24, 32 << 10 * 24}, // the default stack on the default core count
	} {
		cfg := fmt.Sprintf(`{"simulator":{"hbm_size":1073741824,"aicore_num":%d}%s}`, tc.cores, tc.stack)
		r := newRuntime(t, cfg)
		d, err := r.Device(0)
		check(t, err)
		if _, _, err := d.MemInfo(); err == nil {
			t.Errorf("%s: MemInfo before SetDevice succeeded, want an error (the device is not set)", cfg)
		}
		_, err = r.SetDevice(0)
		check(t, err)
		free, total, err := d.MemInfo()
		check(t, err)
		if total != 1<<30 || total-free != tc.want {
			t.Errorf("%s: MemInfo after SetDevice = free %d, total %d: %d used, want %d (the AI core stacks)",
				cfg, free, total, total-free, tc.want)
		}
	}
}

func TestInitConfigZeroStack(t *testing.T) {
	// A Config built in Go may leave StackSize 0; "values < 32K are treated
	// as 32K".
	r := gocann.New()
	check(t, r.InitConfig(gocann.Config{Simulator: gocann.SimConfig{HBMSize: 1 << 30, AICores: 2}}))
	defer r.Close()
	d, err := r.SetDevice(0)
	check(t, err)
	free, total, err := d.MemInfo()
	check(t, err)
	if total-free != 2*32<<10 {
		t.Fatalf("%d bytes used after SetDevice, want %d (two 32K stacks)", total-free, 2*32<<10)
	}
}

func TestInitBadFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.json")
	r := gocann.New()
	wantErr(t, r.Init(missing), gocann.CodeInvalidFile, missing, "does not exist")
	_, err := gocann.Open(gocann.WithConfigFile(missing))
	wantErr(t, err, gocann.CodeInvalidFile, missing)
	// A directory cannot be read as a file.
	wantErr(t, r.Init(t.TempDir()), gocann.CodeInvalidFile, "file open failed")
}

func TestInitBadJSON(t *testing.T) {
	for _, tc := range []struct{ json, sub string }{
		{`{"simulator":`, "unexpected end of JSON input"},
		{`[1, 2]`, "not a JSON object"},
		{`not json`, "not valid JSON"},
		// CANN limits "{" nesting to 10 levels.
		{`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":{"k":1}}}}}}}}}}}`, "nesting depth 11"},
	} {
		r := gocann.New()
		path := writeConfig(t, tc.json)
		wantErr(t, r.Init(path), gocann.CodeParseFile, path, tc.sub)
		_, err := gocann.Open(gocann.WithConfigJSON([]byte(tc.json)))
		wantErr(t, err, gocann.CodeParseFile, tc.sub)
	}
	_, err := gocann.Open(gocann.WithConfigJSON([]byte(strings.Repeat("[", 11) + strings.Repeat("]", 11))))
	wantErr(t, err, gocann.CodeParseFile, "nesting depth 11", "at most 10")
}

func TestInitBadValues(t *testing.T) {
	for _, tc := range []struct {
		json string
		subs []string
	}{
		{`{"defaultDevice":{"default_device":"x"}}`, []string{"defaultDevice.default_device", `"x"`}},
		{`{"defaultDevice":{"default_device":-1}}`, []string{"defaultDevice.default_device", "-1"}},
		// [0, deviceCount-1]: the default simulator has 2 devices.
		{`{"defaultDevice":{"default_device":2}}`, []string{"defaultDevice.default_device", "2", "expected 0..1"}},
		{`{"defaultDevice":{"device":0}}`, []string{"defaultDevice.device", "default_device"}},
		// Atlas A2 accepts at most 192K of AI core stack.
		{`{"StackSize":{"aicore_stack_size":196609}}`, []string{"StackSize.aicore_stack_size", "196609", "196608"}},
		{`{"StackSize":{"aicore_stack_size":1.5}}`, []string{"StackSize.aicore_stack_size", "1.5"}},
		{`{"err_msg_mode":"2"}`, []string{"err_msg_mode", "2"}},
		{`{"simulator":{"hbm":1}}`, []string{"simulator", "hbm"}},
		{`{"simulator":{"hbm_size":-1}}`, []string{"simulator"}},
		{`{"simulator":{"hbm_size":1000}}`, []string{"HBM size 1000"}},
		{`{"simulator":{"devices":65}}`, []string{"device count 65", "1..64"}},
		{`{"simulator":{"aicore_num":-2}}`, []string{"AI core count -2"}},
		{`{"simulator":{"stream_limit":1}}`, []string{"stream limit 1", ">= 2"}},
		{`{"simulator":{"queue_depth":3}}`, []string{"queue depth 3", "power of two"}},
	} {
		_, err := gocann.Open(gocann.WithConfigJSON([]byte(tc.json)))
		wantErr(t, err, gocann.CodeFileAttrInvalid, tc.subs...)
		r := gocann.New()
		wantErr(t, r.Init(writeConfig(t, tc.json)), gocann.CodeFileAttrInvalid, tc.subs...)
		if r.Close() != nil {
			t.Errorf("%s: Close after a failed Init: want nil (nothing to finalize)", tc.json)
		}
	}
}

func TestInitTwice(t *testing.T) {
	// "A repeated aclInit returns ACL_ERROR_REPEAT_INITIALIZE (100002); you
	// may ignore it and continue."
	r := newRuntime(t, smallConfig)
	wantErr(t, r.Init(""), gocann.CodeRepeatInitialize, "already initialized")
	wantErr(t, r.InitConfig(gocann.DefaultConfig()), gocann.CodeRepeatInitialize, "already initialized")
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.DefaultStream()
	check(t, err)
	ran := false
	check(t, s.LaunchHostFunc(func() { ran = true }))
	syncOK(t, s)
	if !ran {
		t.Error("runtime unusable after a repeated Init")
	}
	// The first configuration stays in effect.
	if r.Config().Simulator.HBMSize != 1<<30 {
		t.Errorf("HBM size %d after repeated Init, want the first configuration's", r.Config().Simulator.HBMSize)
	}
}

func TestFinalizeTwice(t *testing.T) {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(smallConfig)))
	check(t, err)
	check(t, r.Finalize())
	// ACL_ERROR_REPEAT_FINALIZE: "check for repeated aclFinalize".
	wantErr(t, r.Finalize(), gocann.CodeRepeatFinalize, "not initialized")
	check(t, r.Close()) // Close is idempotent
	wantErr(t, gocann.New().Finalize(), gocann.CodeRepeatFinalize, "without a matching aclInit")
}

func TestInitFinalizeInit(t *testing.T) {
	// "aclInit → work → aclFinalize → aclInit → work → aclFinalize", in
	// one process, on one Runtime. Each initialization starts afresh.
	r := gocann.New()
	defer r.Close()
	for round := range 3 {
		check(t, r.Init(writeConfig(t, smallConfig)))
		k, err := r.RegisterKernel(fmt.Sprintf("inc%d", round), func(b *gocann.Block) { b.Add64(b.Arg(0).Ptr(), 1) })
		check(t, err)
		d, err := r.SetDevice(1)
		check(t, err)
		if !d.IsSet() {
			t.Fatalf("round %d: device not set", round)
		}
		c, err := d.Context()
		check(t, err)
		s, err := c.NewStream()
		check(t, err)
		p := malloc(t, c, 4096)
		check(t, s.Launch(k, 1, gocann.Ptr(p)))
		syncOK(t, s)
		// Memory of the previous initialization is gone: this reads 1.
		if got := readU64(t, c, p); got != 1 {
			t.Errorf("round %d: counter %d, want 1", round, got)
		}
		check(t, r.Finalize())
	}
}

func TestCallsAfterFinalize(t *testing.T) {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(smallConfig)))
	check(t, err)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	ds, err := c.DefaultStream()
	check(t, err)
	ev, err := c.NewEvent(gocann.EventSync)
	check(t, err)
	n, err := c.NewNotify()
	check(t, err)
	p := malloc(t, c, 64)
	hb, err := r.MallocHost(64)
	check(t, err)
	k, err := r.RegisterKernel("noop", func(*gocann.Block) {})
	check(t, err)
	check(t, r.Finalize())

	uninit := []struct {
		name string
		err  error
	}{
		{"DeviceCount", func() error { _, err := r.DeviceCount(); return err }()},
		{"Device", func() error { _, err := r.Device(0); return err }()},
		{"SetDevice", func() error { _, err := r.SetDevice(0); return err }()},
		{"MallocHost", func() error { _, err := r.MallocHost(8); return err }()},
		{"Free", c.Free(p)},
		{"PointerAttributes", func() error { _, _, _, err := r.PointerAttributes(uintptr(p)); return err }()},
	}
	for _, tc := range uninit {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.err, gocann.CodeUninitialize, "not initialized") })
	}
	closed := []struct {
		name string
		err  error
	}{
		{"Stream.Launch", s.Launch(k, 1)},
		{"Stream.LaunchHostFunc", s.LaunchHostFunc(func() {})},
		{"Stream.Synchronize", s.SynchronizeTimeout(long)},
		{"Stream.Query", func() error { _, err := s.Query(); return err }()},
		{"default Stream.Synchronize", ds.SynchronizeTimeout(long)},
		{"Stream.Record", s.Record(ev)},
		{"Stream.RecordNotify", s.RecordNotify(n)},
		{"Stream.Memset", s.Memset(p, 0, 8)},
		{"Stream.CopyHostToDevice", s.CopyHostToDevice(p, hb, 0, 8)},
		{"Context.Malloc", func() error { _, err := c.Malloc(64, gocann.NormalOnly); return err }()},
		{"Context.NewStream", func() error { _, err := c.NewStream(); return err }()},
		{"Context.NewEvent", func() error { _, err := c.NewEvent(0); return err }()},
		{"Context.CopyToDevice", c.CopyToDevice(p, make([]byte, 8))},
		{"Context.DefaultStream", func() error { _, err := c.DefaultStream(); return err }()},
		{"Device.Context", func() error { _, err := d.Context(); return err }()},
		{"Device.NewContext", func() error { _, err := d.NewContext(); return err }()},
		{"Device.MemInfo", func() error { _, _, err := d.MemInfo(); return err }()},
		{"Device.Synchronize", d.SynchronizeTimeout(long)},
		{"Device.Reset", d.Reset()},
		{"Device.ResetForce", d.ResetForce()},
	}
	for _, tc := range closed {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, tc.err, gocann.CodeRTInvalidHandle)
			if msg := tc.err.Error(); !strings.Contains(msg, "destroyed") && !strings.Contains(msg, "finalized") {
				t.Errorf("error %q says neither destroyed nor finalized", msg)
			}
		})
	}
}
