package config

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/gocann/gocann/internal/rterr"
)

// DumpKind is what a dump configuration asks for.
type DumpKind uint8

// The dump kinds, as CANN's dump component tells them apart.
const (
	DumpTensor    DumpKind = iota // model and single-operator dump: the tasks' inputs and outputs
	DumpOverflow                  // dump_debug on: operators that overflow
	DumpException                 // dump_scene set to an exception scene: failing operators
)

// Dump is a valid "dump" section that turns dumping on (aclInit's
// configuration or aclmdlSetDump's file).
type Dump struct {
	Kind     DumpKind
	Path     string // dump_path
	Mode     string // dump_mode: input, output or all (default output)
	OpSwitch bool   // dump_op_switch on: operators run outside models
	Level    string // dump_level: op, kernel or all (default all)
	Scene    string // dump_scene, "" if not set
	Data     string // dump_data: tensor (the default) or stats
	// Layers lists the kernel names the dump_list entries restrict
	// dumping to; nil when an entry names no layer (everything is dumped).
	Layers []string
	// Models lists the model_name values of dump_list.
	Models []string
}

// Input and Output report which ends of a task the dump writes.
func (d *Dump) Input() bool  { return d.Mode == "input" || d.Mode == "all" }
func (d *Dump) Output() bool { return d.Mode == "output" || d.Mode == "all" }

// Wants reports whether a kernel of that name is dumped.
func (d *Dump) Wants(kernel string) bool {
	if d.Kind != DumpTensor {
		return false
	}
	if d.Layers == nil {
		return true
	}
	for _, l := range d.Layers {
		if l == kernel {
			return true
		}
	}
	return false
}

// dumpErr is a refused dump configuration, naming the field.
func dumpErr(format string, args ...any) error {
	return rterr.Errorf(rterr.KindInvalidDumpConfig, "dump configuration: "+format, args...)
}

// ParseDump reads the "dump" section of configuration JSON: nil when there
// is none or it turns nothing on, else the dump it asks for. It checks the
// section as CANN's dump component does, in the same order, so the same
// field is named when several are wrong; every refusal is
// KindInvalidDumpConfig (ACL_ERROR_INVALID_DUMP_CONFIG).
func ParseDump(data []byte) (*Dump, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, dumpErr("content is not a JSON object: %v", err)
	}
	raw, ok := top["dump"]
	if !ok {
		return nil, nil
	}
	var sec map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&sec); err != nil || sec == nil {
		return nil, dumpErr("dump is %s, expected an object", raw)
	}
	if len(sec) == 0 {
		return nil, nil
	}
	c := dumpSection(sec)
	if err := c.checkTypes(); err != nil {
		return nil, err
	}
	if err := c.checkValues(); err != nil {
		return nil, err
	}
	if err := c.checkConstraints(); err != nil {
		return nil, err
	}
	return c.result(), nil
}

// dumpSection is the decoded section.
type dumpSection map[string]any

// str is the string value of key, with ok false when it is absent.
func (c dumpSection) str(key string) (string, bool) {
	v, ok := c[key].(string)
	return v, ok
}

func (c dumpSection) strOr(key, def string) string {
	if v, ok := c.str(key); ok {
		return v
	}
	return def
}

func (c dumpSection) list() []map[string]any {
	l, _ := c["dump_list"].([]any)
	out := make([]map[string]any, len(l))
	for i, it := range l {
		out[i], _ = it.(map[string]any)
	}
	return out
}

// result is the dump a checked section asks for, nil if none.
func (c dumpSection) result() *Dump {
	list := c.list()
	scene, _ := c.str("dump_scene")
	debug := c.is("dump_debug", "on")
	d := &Dump{Path: c.strOr("dump_path", ""), Mode: c.strOr("dump_mode", "output"),
		OpSwitch: c.is("dump_op_switch", "on"), Level: c.strOr("dump_level", "all"), Scene: scene,
		Data: c.strOr("dump_data", "tensor")}
	if len(list) == 0 && !d.OpSwitch && !debug && scene == "" {
		return nil
	}
	switch {
	case scene != "" && scene != "watcher":
		d.Kind = DumpException
	case debug:
		d.Kind = DumpOverflow
	}
	all := false
	for _, it := range list {
		if n, ok := it["model_name"].(string); ok {
			d.Models = append(d.Models, n)
		}
		l, ok := it["layer"].([]any)
		if !ok {
			all = true
			continue
		}
		for _, e := range l {
			d.Layers = append(d.Layers, e.(string))
		}
	}
	if all || len(list) == 0 {
		d.Layers = nil
	} else {
		sort.Strings(d.Layers)
	}
	return d
}

// CheckNesting applies CANN's nesting limit to a dump configuration file
// as its file reader does, before any parsing: "{" and "[" each nest at
// most 10 deep, counted over the raw bytes. Deeper is KindParseFile
// (ACL_ERROR_PARSE_FILE); malformed JSON is left to ParseDump.
func CheckNesting(data []byte) error {
	obj, arr, maxObj, maxArr := 0, 0, 0, 0
	for _, b := range data {
		switch b {
		case '{':
			obj++
			maxObj = max(maxObj, obj)
		case '}':
			obj--
		case '[':
			arr++
			maxArr = max(maxArr, arr)
		case ']':
			arr--
		}
	}
	if maxObj > maxDepth || maxArr > maxDepth {
		return rterr.Errorf(rterr.KindParseFile, "nesting depth of %d objects and %d arrays is invalid, expected at most %d of each", maxObj, maxArr, maxDepth)
	}
	return nil
}
