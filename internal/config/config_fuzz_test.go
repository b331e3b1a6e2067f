package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gocann/gocann/internal/rterr"
)

// encode writes c, parsed from data, as a configuration Parse reads back
// as c but for Text: the dump section is data's own.
func encode(t *testing.T, c Config, data []byte) []byte {
	top := map[string]any{
		"StackSize":    map[string]any{"aicore_stack_size": c.StackSize},
		"err_msg_mode": c.ErrMsgMode,
		"simulator":    c.Simulator,
	}
	if c.DefaultDevice != -1 {
		top["defaultDevice"] = map[string]any{"default_device": c.DefaultDevice}
	}
	var orig map[string]json.RawMessage
	if json.Unmarshal(data, &orig) == nil && orig["dump"] != nil {
		top["dump"] = orig["dump"]
	}
	b, err := json.Marshal(top)
	if err != nil {
		t.Fatalf("encoding %v: %v", c, err)
	}
	return b
}

// FuzzParse: any bytes give a configuration or an error with a CANN file
// (or dump configuration) code, never a panic; the same bytes always give the same answer; a
// configuration has its fields in range and reads back as itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{`, `"x"`,
		`{"defaultDevice": {"default_device": "1"}, "StackSize": {"aicore_stack_size": 40000}, "err_msg_mode": "1"}`,
		`{"simulator": {"devices": 4, "aicore_num": 8, "hbm_size": 1073741824, "soc_name": "Ascend910B1"}}`,
		`{"dump": {"dump_path": "/tmp", "dump_list": [{"model_name": "m"}]}, "profiler": {}}`,
		`{"defaultDevice": {"default_device": 1e3}, "StackSize": {"aicore_stack_size": 1.5}}`,
		`{"defaultDevice": {"device": 0}, "simulator": {"cores": 3}}`,
		`{"a": [[[[[[[[[[[]]]]]]]]]]]}`,
		`{"err_msg_mode": " 1 ", "err_msg_mode": 0}`,
		`{"StackSize": {"aicore_stack_size": "-0"}, "simulator": null}`,
		`{"simulator": {"devices": 4, "topology": {"link": "sio", "pairs": [{"devices": [0, 3], "no_peer": true}]}, "physical_ids": [3, 2, 1, 0]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		c2, err2 := Parse(data)
		if fmt.Sprint(err) != fmt.Sprint(err2) || err == nil && !reflect.DeepEqual(c, c2) {
			t.Fatalf("two parses of %q differ: (%v, %v) and (%v, %v)", data, c, err, c2, err2)
		}
		if err != nil {
			var he *rterr.Error
			if !errors.As(err, &he) || he.Kind != rterr.KindParseFile && he.Kind != rterr.KindFileAttrInvalid && he.Kind != rterr.KindInvalidDumpConfig {
				t.Fatalf("Parse(%q): error %v (%T) carries no CANN file code", data, err, err)
			}
			return
		}
		if c.DefaultDevice < -1 || c.DefaultDevice > 1<<20 || c.ErrMsgMode < 0 || c.ErrMsgMode > 1 ||
			c.StackSize < DefaultStackSize || c.StackSize > MaxStackSize || c.StackSize%stackGranule != 0 {
			t.Fatalf("Parse(%q) = %v: a field is out of range", data, c)
		}
		again, err := Parse(encode(t, c, data))
		again.Text, c.Text = "", ""
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("Parse(%q) = %v, which reads back as (%v, %v)", data, c, again, err)
		}
	})
}
