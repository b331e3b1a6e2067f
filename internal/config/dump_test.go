package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gocann/gocann/internal/rterr"
)

// TestParseDumpAccepts: the configurations the API reference shows, and
// what each turns on.
func TestParseDumpAccepts(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, json string
		want       *Dump
	}{
		{"no section", `{"err_msg_mode": "1"}`, nil},
		{"empty section", `{"dump": {}}`, nil},
		{"path only", `{"dump": {"dump_path": "DIR"}}`, nil},
		{"model dump", `{"dump": {"dump_list": [{"model_name": "ResNet-101"},
			{"model_name": "ResNet-50", "layer": ["conv1", "pool1"]}],
			"dump_path": "DIR", "dump_mode": "output", "dump_op_switch": "off", "dump_data": "tensor"}}`,
			&Dump{Path: "DIR", Mode: "output", Level: "all", Data: "tensor", Models: []string{"ResNet-101", "ResNet-50"}}},
		{"single operator", `{"dump": {"dump_path": "DIR", "dump_list": [{}], "dump_op_switch": "on", "dump_data": "tensor"}}`,
			&Dump{Path: "DIR", Mode: "output", OpSwitch: true, Level: "all", Data: "tensor"}},
		{"layers only", `{"dump": {"dump_path": "DIR", "dump_mode": "all", "dump_list": [{"layer": ["b", "a"]}]}}`,
			&Dump{Path: "DIR", Mode: "all", Level: "all", Data: "tensor", Layers: []string{"a", "b"}}},
		{"exception needs no path", `{"dump": {"dump_path": "nowhere", "dump_scene": "aic_err_brief_dump"}}`,
			&Dump{Kind: DumpException, Path: "nowhere", Mode: "output", Level: "all", Scene: "aic_err_brief_dump", Data: "tensor"}},
		{"overflow", `{"dump": {"dump_path": "DIR", "dump_debug": "on"}}`,
			&Dump{Kind: DumpOverflow, Path: "DIR", Mode: "output", Level: "all", Data: "tensor"}},
		{"watcher", `{"dump": {"dump_list": [{"layer": ["A"], "watcher_nodes": ["C"]}], "dump_path": "DIR",
			"dump_mode": "output", "dump_level": "op", "dump_scene": "watcher"}}`,
			&Dump{Path: "DIR", Mode: "output", Level: "op", Scene: "watcher", Data: "tensor", Layers: []string{"A"}}},
		{"stats and steps", `{"dump": {"dump_path": "DIR", "dump_op_switch": "on", "dump_data": "stats",
			"dump_stats": ["Max", "Negative Inf"], "dump_step": "0|3-5|7", "dump_kernel_data": "printf,assert"}}`,
			&Dump{Path: "DIR", Mode: "output", OpSwitch: true, Level: "all", Data: "stats"}},
		{"remote path", `{"dump": {"dump_path": "10.0.0.1:/data", "dump_op_switch": "on"}}`,
			&Dump{Path: "10.0.0.1:/data", Mode: "output", OpSwitch: true, Level: "all", Data: "tensor"}},
	} {
		got, err := ParseDump([]byte(strings.ReplaceAll(tc.json, "DIR", dir)))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.want != nil && tc.want.Path == "DIR" {
			tc.want.Path = dir
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: ParseDump = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestParseDumpRefuses: every check of CANN's dump component refuses with
// ACL_ERROR_INVALID_DUMP_CONFIG's kind and names the field.
func TestParseDumpRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a", maxDumpPath+1)
	steps := strings.TrimSuffix(strings.Repeat("1|", maxDumpSteps+1), "|")
	black := `[` + strings.TrimSuffix(strings.Repeat(`{"name": "x"},`, maxDumpBlacklist+1), ",") + `]`
	for _, tc := range []struct{ json, field string }{
		{`{"dump": []}`, "dump is"},
		{`{"dump": {"dump_path": 5}}`, "dump_path is 5, expected a string"},
		{`{"dump": {"dump_mode": true}}`, "dump_mode is true"},
		{`{"dump": {"dump_stats": "Max"}}`, "dump_stats is"},
		{`{"dump": {"dump_stats": [1]}}`, "dump_stats[0]"},
		{`{"dump": {"dump_list": {}}}`, "dump_list is {}, expected an array"},
		{`{"dump": {"dump_list": ["m"]}}`, "dump_list[0]"},
		{`{"dump": {"dump_list": [{"model_name": 1}]}}`, "dump_list[0].model_name"},
		{`{"dump": {"dump_list": [{"layer": "a"}]}}`, "dump_list[0].layer"},
		{`{"dump": {"dump_list": [{"optype_blacklist": [{"pos": "x"}]}]}}`, "dump_list[0].optype_blacklist[0].pos"},
		{`{"dump": {"dump_list": [{"opname_range": [{"begin": 1}]}]}}`, "dump_list[0].opname_range[0].begin"},
		{`{"dump": {"dump_mode": "both"}}`, `dump_mode value "both" is invalid, expected all/input/output`},
		{`{"dump": {"dump_mode": ""}}`, "dump_mode is empty"},
		{`{"dump": {"dump_op_switch": "yes"}}`, "dump_op_switch"},
		{`{"dump": {"dump_level": "x"}}`, "dump_level"},
		{`{"dump": {"dump_debug": "1"}}`, "dump_debug"},
		{`{"dump": {"dump_data": "all"}}`, "dump_data"},
		{`{"dump": {"dump_scene": "crash"}}`, "dump_scene"},
		{`{"dump": {"dump_kernel_data": "printf,,assert"}}`, "dump_kernel_data is empty"},
		{`{"dump": {"dump_stats": ["Max", "Median"]}}`, "dump_stats[1]"},
		{`{"dump": {"dump_scene": "aic_err_norm_dump", "dump_debug": "on"}}`, "dump_debug on is not allowed with dump_scene"},
		{`{"dump": {"dump_scene": "watcher", "dump_op_switch": "on"}}`, "dump_op_switch on is not allowed with dump_scene"},
		{`{"dump": {"dump_scene": "watcher", "dump_mode": "input"}}`, "dump_mode input is not allowed with dump_scene watcher"},
		{`{"dump": {"dump_op_switch": "on"}}`, "dump_path is missing"},
		{`{"dump": {"dump_path": ""}}`, "dump_path is empty"},
		{`{"dump": {"dump_path": "` + long + `"}}`, "dump_path of 513 bytes"},
		{`{"dump": {"dump_path": "` + dir + `/none"}}`, "does not exist"},
		{`{"dump": {"dump_path": "` + file + `"}}`, "is not a directory"},
		{`{"dump": {"dump_path": "10.0.0.1:"}}`, "dump_path \"10.0.0.1:\" is invalid"},
		{`{"dump": {"dump_path": "DIR", "dump_debug": "on", "dump_op_switch": "on"}}`, "dump_op_switch on is not allowed with dump_debug on"},
		{`{"dump": {"dump_path": "DIR", "dump_step": "` + steps + `"}}`, "dump_step"},
		{`{"dump": {"dump_path": "DIR", "dump_step": "1-2-3"}}`, "dump_step[0]"},
		{`{"dump": {"dump_path": "DIR", "dump_step": "1|x"}}`, "dump_step[1]"},
		{`{"dump": {"dump_path": "DIR", "dump_step": "5-3"}}`, "dump_step[0] \"5-3\""},
		{`{"dump": {"dump_path": "DIR", "dump_list": [{"model_name": ""}]}}`, "dump_list[0].model_name is empty"},
		{`{"dump": {"dump_path": "DIR", "dump_list": [{"layer": []}]}}`, "dump_list[0].layer is empty"},
		{`{"dump": {"dump_path": "DIR", "dump_scene": "watcher", "dump_list": [{"layer": ["a"]}]}}`, "dump_list[0].watcher_nodes is missing"},
		{`{"dump": {"dump_path": "DIR", "dump_scene": "watcher", "dump_list": [{"watcher_nodes": []}]}}`, "dump_list[0].watcher_nodes is empty"},
		{`{"dump": {"dump_path": "DIR", "dump_scene": "watcher", "dump_list": [{"model_name": "m", "watcher_nodes": ["c"]}]}}`, "dump_list[0].model_name is not allowed"},
		{`{"dump": {"dump_path": "DIR", "dump_list": [{"watcher_nodes": ["c"]}]}}`, "dump_list[0].watcher_nodes is only allowed"},
		{`{"dump": {"dump_path": "DIR", "dump_level": "op", "dump_list": [{"opname_blacklist": ` + black + `}]}}`, "dump_list[0].opname_blacklist has 101 entries"},
		{`{"dump": {"dump_path": "DIR", "dump_list": [{"optype_blacklist": [{"name": "x"}]}]}}`, "dump_list[0].optype_blacklist is only allowed with dump_level op"},
		{`{"dump": {"dump_path": "DIR", "dump_list": [{"model_name": "m", "opname_range": [{"begin": "a", "end": "b"}]}]}}`, "opname_range is only allowed with dump_level op"},
		{`{"dump": {"dump_path": "DIR", "dump_level": "op", "dump_list": [{"opname_range": [{"begin": "a", "end": "b"}]}]}}`, "dump_list[0].model_name is missing"},
		{`{"dump": {"dump_path": "DIR", "dump_level": "op", "dump_op_switch": "on", "dump_list": [{"model_name": "", "opname_range": [{"begin": "a", "end": "b"}]}]}}`, "dump_list[0].model_name is empty"},
		{`{"dump": {"dump_path": "DIR", "dump_level": "op", "dump_list": [{"model_name": "m", "opname_range": [{"begin": "a"}]}]}}`, "dump_list[0].opname_range[0]"},
		{`{"dump": {"dump_path": "DIR", "dump_stats": []}}`, "dump_stats is empty"},
		{`{"dump": {"dump_path": "DIR", "dump_stats": ["Max"]}}`, "dump_stats is not allowed with dump_data tensor"},
	} {
		_, err := ParseDump([]byte(strings.ReplaceAll(tc.json, "DIR", dir)))
		var e *rterr.Error
		if !errors.As(err, &e) || e.Kind != rterr.KindInvalidDumpConfig {
			t.Errorf("ParseDump(%.80s) = %v, want an invalid dump configuration", tc.json, err)
			continue
		}
		if !strings.Contains(e.Msg, tc.field) {
			t.Errorf("ParseDump(%.80s): message %q does not name %q", tc.json, e.Msg, tc.field)
		}
	}
}

// TestParseKeepsDump: aclInit's configuration carries its dump section,
// its text and that it was given; a bad dump section fails the whole.
func TestParseKeepsDump(t *testing.T) {
	dir := t.TempDir()
	text := `{"dump": {"dump_path": "` + dir + `", "dump_op_switch": "on"}}`
	c, err := Parse([]byte(text))
	if err != nil || c.Dump == nil || !c.Dump.OpSwitch || c.Text != text || !c.Given {
		t.Fatalf("Parse = %+v, %v; want the dump, the text and Given", c, err)
	}
	if d := Default(); d.Dump != nil || d.Text != "" || d.Given {
		t.Errorf("Default() = %+v, want no dump, no text, not given", d)
	}
	_, err = Parse([]byte(`{"dump": {"dump_mode": "x"}}`))
	var e *rterr.Error
	if !errors.As(err, &e) || e.Kind != rterr.KindInvalidDumpConfig {
		t.Errorf("Parse(bad dump) = %v, want an invalid dump configuration", err)
	}
}

// TestCheckNesting: more than 10 levels of { or [ is a parse error.
func TestCheckNesting(t *testing.T) {
	if err := CheckNesting([]byte(strings.Repeat("[", 10) + strings.Repeat("{", 10))); err != nil {
		t.Errorf("10 levels: %v", err)
	}
	err := CheckNesting([]byte(strings.Repeat("{", 11)))
	var e *rterr.Error
	if !errors.As(err, &e) || e.Kind != rterr.KindParseFile {
		t.Errorf("11 levels: %v, want a parse error", err)
	}
}

// TestDumpWants: a tensor dump takes every kernel, or those its layers
// name; the other kinds write no tensors.
func TestDumpWants(t *testing.T) {
	all := &Dump{Mode: "all"}
	some := &Dump{Mode: "input", Layers: []string{"a"}}
	if !all.Wants("x") || !some.Wants("a") || some.Wants("b") || (&Dump{Kind: DumpOverflow}).Wants("x") {
		t.Error("Wants: wrong kernel choice")
	}
	if !all.Input() || !all.Output() || !some.Input() || some.Output() {
		t.Error("Input/Output: wrong ends")
	}
}
