package config

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// The checks of a "dump" section, as CANN's dump component makes them:
// the types of the fields, the enumerated values, then the constraints
// between fields. Each names the field it refuses, as a path
// (dump_list[0].layer).

// choices lists the values an enumerated key accepts.
func choices(key string) []string {
	switch key {
	case "dump_mode":
		return []string{"all", "input", "output"}
	case "dump_data":
		return []string{"stats", "tensor"}
	case "dump_op_switch", "dump_debug":
		return []string{"off", "on"}
	case "dump_level":
		return []string{"all", "kernel", "op"}
	case "dump_scene":
		return []string{"aic_err_brief_dump", "aic_err_detail_dump", "aic_err_norm_dump", "lite_exception", "watcher"}
	case "dump_kernel_data":
		return []string{"all", "assert", "printf", "tensor", "timestamp"}
	case "dump_stats":
		return []string{"Avg", "L2norm", "Max", "Min", "Nan", "Negative Inf", "Positive Inf"}
	}
	return nil
}

// Limits CANN's dump component sets.
const (
	maxDumpPath      = 512
	maxDumpSteps     = 100
	maxDumpBlacklist = 100
)

func (c dumpSection) checkTypes() error {
	for _, k := range [...]string{"dump_path", "dump_mode", "dump_op_switch", "dump_level", "dump_scene",
		"dump_data", "dump_debug", "dump_kernel_data", "dump_step"} {
		if err := wantString(c, k, k); err != nil {
			return err
		}
	}
	if v, ok := c["dump_stats"]; ok {
		if err := wantArray(v, "dump_stats", true); err != nil {
			return err
		}
	}
	v, ok := c["dump_list"]
	if !ok {
		return nil
	}
	if err := wantArray(v, "dump_list", false); err != nil {
		return err
	}
	for i, it := range v.([]any) {
		if err := checkListItemTypes(it.(map[string]any), fmt.Sprintf("dump_list[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

func checkListItemTypes(item map[string]any, at string) error {
	if err := wantString(item, "model_name", at+".model_name"); err != nil {
		return err
	}
	for _, k := range [...]string{"layer", "watcher_nodes"} {
		if v, ok := item[k]; ok {
			if err := wantArray(v, at+"."+k, true); err != nil {
				return err
			}
		}
	}
	for _, k := range [...]string{"optype_blacklist", "opname_blacklist", "opname_range"} {
		v, ok := item[k]
		if !ok {
			continue
		}
		if err := wantArray(v, at+"."+k, false); err != nil {
			return err
		}
		for j, e := range v.([]any) {
			eat := fmt.Sprintf("%s.%s[%d]", at, k, j)
			obj := e.(map[string]any)
			fields := [...]string{"name", "pos"}
			if k == "opname_range" {
				fields = [...]string{"begin", "end"}
			}
			if err := wantString(obj, fields[0], eat+"."+fields[0]); err != nil {
				return err
			}
			if k == "opname_range" {
				if err := wantString(obj, "end", eat+".end"); err != nil {
					return err
				}
			} else if p, ok := obj["pos"]; ok {
				if err := wantArray(p, eat+".pos", true); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func wantString(m map[string]any, key, at string) error {
	if v, ok := m[key]; ok {
		if _, ok := v.(string); !ok {
			return dumpErr("%s is %s, expected a string", at, jsonText(v))
		}
	}
	return nil
}

// wantArray checks v is an array of strings (strs) or of objects.
func wantArray(v any, at string, strs bool) error {
	l, ok := v.([]any)
	if !ok {
		return dumpErr("%s is %s, expected an array", at, jsonText(v))
	}
	for i, e := range l {
		_, isStr := e.(string)
		_, isObj := e.(map[string]any)
		switch {
		case strs && !isStr:
			return dumpErr("%s[%d] is %s, expected a string", at, i, jsonText(e))
		case !strs && !isObj:
			return dumpErr("%s[%d] is %s, expected an object", at, i, jsonText(e))
		}
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (c dumpSection) checkValues() error {
	for _, k := range [...]string{"dump_mode", "dump_data", "dump_op_switch", "dump_level", "dump_debug", "dump_scene"} {
		if v, ok := c.str(k); ok {
			if err := oneOf(k, k, v); err != nil {
				return err
			}
		}
	}
	if v, ok := c.str("dump_kernel_data"); ok {
		for _, part := range strings.Split(v, ",") {
			if err := oneOf("dump_kernel_data", "dump_kernel_data", part); err != nil {
				return err
			}
		}
	}
	if l, ok := c["dump_stats"].([]any); ok {
		for i, e := range l {
			if err := oneOf("dump_stats", fmt.Sprintf("dump_stats[%d]", i), e.(string)); err != nil {
				return err
			}
		}
	}
	return nil
}

// oneOf checks v is one of key's values; at names the field.
func oneOf(key, at, v string) error {
	if v == "" {
		return dumpErr("%s is empty, expected %s", at, strings.Join(choices(key), "/"))
	}
	for _, ok := range choices(key) {
		if v == ok {
			return nil
		}
	}
	return dumpErr("%s value %q is invalid, expected %s", at, v, strings.Join(choices(key), "/"))
}

func (c dumpSection) is(key, v string) bool {
	got, ok := c.str(key)
	return ok && got == v
}

func (c dumpSection) checkConstraints() error {
	if scene, ok := c.str("dump_scene"); ok {
		for _, k := range [...]string{"dump_debug", "dump_op_switch"} {
			if c.is(k, "on") {
				return dumpErr("%s on is not allowed with dump_scene %s", k, scene)
			}
		}
		if scene != "watcher" {
			return nil
		}
		if m := c.strOr("dump_mode", "output"); m != "output" {
			return dumpErr("dump_mode %s is not allowed with dump_scene watcher, expected output", m)
		}
	}
	if err := c.checkPath(); err != nil {
		return err
	}
	if c.is("dump_debug", "on") {
		if c.is("dump_op_switch", "on") {
			return dumpErr("dump_op_switch on is not allowed with dump_debug on")
		}
		return nil
	}
	if err := c.checkStep(); err != nil {
		return err
	}
	if err := c.checkList(); err != nil {
		return err
	}
	if l, ok := c["dump_stats"].([]any); ok {
		if len(l) == 0 {
			return dumpErr("dump_stats is empty, expected at least one statistic")
		}
		if c.strOr("dump_data", "tensor") == "tensor" {
			return dumpErr("dump_stats is not allowed with dump_data tensor, expected dump_data stats")
		}
	}
	return nil
}

// checkPath checks dump_path: a directory the process may read and write,
// or ip:path with an IPv4 address (a path on another host).
func (c dumpSection) checkPath() error {
	p, ok := c.str("dump_path")
	switch {
	case !ok:
		return dumpErr("dump_path is missing, expected the directory to dump to")
	case p == "":
		return dumpErr("dump_path is empty, expected the directory to dump to")
	case len(p) > maxDumpPath:
		return dumpErr("dump_path of %d bytes is invalid, expected at most %d", len(p), maxDumpPath)
	}
	if host, rest, found := strings.Cut(p, ":"); found {
		if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
			if rest == "" || strings.ContainsAny(rest, "\x00\n\r\t;|&$`<>*?\"'") {
				return dumpErr("dump_path %q is invalid, expected ip:directory with plain characters", p)
			}
			return nil
		}
	}
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return dumpErr("dump_path %s does not exist, expected an existing directory", p)
	case !st.IsDir():
		return dumpErr("dump_path %s is not a directory, expected an existing directory", p)
	case syscall.Access(p, 0x4|0x2) /* R_OK|W_OK */ != nil:
		return dumpErr("dump_path %s is not readable and writable, expected read and write permission", p)
	}
	return nil
}

// checkStep checks dump_step: up to 100 steps or ranges a-b, split by |.
func (c dumpSection) checkStep() error {
	s, _ := c.str("dump_step")
	if s == "" {
		return nil
	}
	parts := strings.Split(s, "|")
	if len(parts) > maxDumpSteps {
		return dumpErr("dump_step %q has %d parts, expected at most %d", s, len(parts), maxDumpSteps)
	}
	for i, part := range parts {
		ends := strings.Split(part, "-")
		if len(ends) > 2 {
			return dumpErr("dump_step[%d] %q is invalid, expected N or N-M", i, part)
		}
		var n [2]uint64
		for j, e := range ends {
			v, err := strconv.ParseUint(e, 10, 64)
			if err != nil || strings.TrimLeft(e, "0123456789") != "" {
				return dumpErr("dump_step[%d] %q is invalid, expected decimal step numbers", i, part)
			}
			n[j] = v
		}
		if len(ends) == 2 && n[0] > n[1] {
			return dumpErr("dump_step[%d] %q is invalid, expected the first step not after the last", i, part)
		}
	}
	return nil
}

func (c dumpSection) checkList() error {
	scene, _ := c.str("dump_scene")
	level := c.strOr("dump_level", "all")
	switchOff := c.strOr("dump_op_switch", "off") == "off"
	for i, it := range c.list() {
		at := fmt.Sprintf("dump_list[%d]", i)
		name, hasName := it["model_name"].(string)
		layers, hasLayer := it["layer"].([]any)
		watch, hasWatch := it["watcher_nodes"].([]any)
		if switchOff && hasName && name == "" {
			return dumpErr("%s.model_name is empty, expected a model name", at)
		}
		if switchOff && hasLayer && len(layers) == 0 {
			return dumpErr("%s.layer is empty, expected operator names", at)
		}
		switch {
		case scene == "watcher" && !hasWatch:
			return dumpErr("%s.watcher_nodes is missing, expected it with dump_scene watcher", at)
		case scene == "watcher" && len(watch) == 0:
			return dumpErr("%s.watcher_nodes is empty, expected operator names", at)
		case scene == "watcher" && hasName:
			return dumpErr("%s.model_name is not allowed with dump_scene watcher", at)
		case scene != "watcher" && len(watch) > 0:
			return dumpErr("%s.watcher_nodes is only allowed with dump_scene watcher", at)
		}
		for _, k := range [...]string{"optype_blacklist", "opname_blacklist"} {
			if l, _ := it[k].([]any); len(l) > maxDumpBlacklist {
				return dumpErr("%s.%s has %d entries, expected at most %d", at, k, len(l), maxDumpBlacklist)
			}
		}
		for _, k := range [...]string{"optype_blacklist", "opname_blacklist"} {
			if l, _ := it[k].([]any); len(l) > 0 && level != "op" {
				return dumpErr("%s.%s is only allowed with dump_level op", at, k)
			}
		}
		ranges, _ := it["opname_range"].([]any)
		if len(ranges) == 0 {
			continue
		}
		switch {
		case level != "op":
			return dumpErr("%s.opname_range is only allowed with dump_level op", at)
		case !hasName:
			return dumpErr("%s.model_name is missing, expected it with opname_range", at)
		case name == "":
			return dumpErr("%s.model_name is empty, expected a model name", at)
		}
		for j, r := range ranges {
			m := r.(map[string]any)
			b, _ := m["begin"].(string)
			e, _ := m["end"].(string)
			if b == "" || e == "" {
				return dumpErr("%s.opname_range[%d] begin=%q end=%q is invalid, expected both set", at, j, b, e)
			}
		}
	}
	return nil
}
