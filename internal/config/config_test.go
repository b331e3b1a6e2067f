package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocann/gocann/internal/rterr"
)

func TestParse(t *testing.T) {
	c, err := Parse([]byte(`{
		"defaultDevice": {"default_device": "1"},
		"StackSize": {"aicore_stack_size": 40000},
		"dump": {"dump_path": "/tmp", "dump_list": []},
		"err_msg_mode": "1",
		"simulator": {"devices": 4, "aicore_num": 8, "hbm_size": 1073741824}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.DefaultDevice != 1 || c.StackSize != 48<<10 || c.ErrMsgMode != 1 {
		t.Errorf("got %v", c)
	}
	if c.Simulator.Devices != 4 || c.Simulator.AICores != 8 || c.Simulator.HBMSize != 1<<30 {
		t.Errorf("simulator %+v", c.Simulator)
	}
}

func TestDefaults(t *testing.T) {
	for _, in := range []string{"", "{}", "  \n"} {
		c, err := Parse([]byte(in))
		if err != nil || c.DefaultDevice != -1 || c.StackSize != DefaultStackSize {
			t.Errorf("Parse(%q) = %v, %v", in, c, err)
		}
	}
}

func TestRoundStack(t *testing.T) {
	for in, want := range map[uint64]uint64{0: 32 << 10, 1: 32 << 10, 32 << 10: 32 << 10, 32<<10 + 1: 48 << 10, 64 << 10: 64 << 10} {
		if got := RoundStack(in); got != want {
			t.Errorf("RoundStack(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind rterr.Kind
		msg  string
	}{
		{`{`, rterr.KindParseFile, "not a JSON object"},
		{`[1]`, rterr.KindParseFile, "not a JSON object"},
		{`{"defaultDevice": {"default_device": "x"}}`, rterr.KindFileAttrInvalid, `value "x" of defaultDevice.default_device is invalid`},
		{`{"defaultDevice": {"device": 0}}`, rterr.KindFileAttrInvalid, "defaultDevice.device is unknown"},
		{`{"StackSize": {"aicore_stack_size": 999999999}}`, rterr.KindFileAttrInvalid, "expected [0, 196608]"},
		{`{"simulator": {"cores": 3}}`, rterr.KindFileAttrInvalid, "section simulator is invalid"},
		{`{"a":` + strings.Repeat("[", 11) + strings.Repeat("]", 11) + `}`, rterr.KindParseFile, "nesting depth 11"},
	} {
		_, err := Parse([]byte(tc.in))
		if rterr.KindOf(err) != tc.kind || err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Parse(%s) = %v (kind %v), want kind %v containing %q", tc.in, err, rterr.KindOf(err), tc.kind, tc.msg)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "acl.json")
	if err := os.WriteFile(p, []byte(`{"defaultDevice":{"default_device":0}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil || c.DefaultDevice != 0 {
		t.Fatalf("Load = %v, %v", c, err)
	}
	_, err = Load(filepath.Join(dir, "missing.json"))
	if rterr.KindOf(err) != rterr.KindInvalidFile || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(p, []byte(`{"StackSize": 5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(p)
	if rterr.KindOf(err) != rterr.KindFileAttrInvalid || !strings.Contains(err.Error(), p) {
		t.Errorf("bad section: %v", err)
	}
}

// Of several bad sections the one CANN handles first is reported, every
// time.
func TestErrorOrder(t *testing.T) {
	in := []byte(`{"simulator": {"cores": 3}, "defaultDevice": {"device": 0}, "StackSize": {"size": 1}, "err_msg_mode": 7}`)
	for range 20 {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), "value 7 of err_msg_mode is invalid") {
			t.Fatalf("Parse(%s) = %v, want the err_msg_mode error", in, err)
		}
	}
}
