package profreport

import (
	"strings"
	"testing"
)

const okEvent = `{"name":"vadd","ph":"X","ts":1.000,"dur":2.500,"pid":10001,"tid":3,"args":{"Task Type":"AI_VECTOR_CORE","Block Dim":8,"Core Kind":"vector"}}`

// TestParseTruncated: docs/profiling.md, "a program that crashes leaves a
// readable prefix (the format allows the ']' to be missing)"; its last
// line may be cut anywhere.
func TestParseTruncated(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		events     int
		cutLine    int
		truncated  bool
	}{
		{"clean", "[\n" + okEvent + ",\n" + okEvent + "\n]\n", 2, 0, false},
		{"comma before the end", "[\n" + okEvent + ",\n" + okEvent + ",\n]", 2, 0, false},
		{"no events", "[]", 0, 0, false},
		{"only the bracket", "[", 0, 0, true},
		{"no closing bracket", "[\n" + okEvent + ",\n" + okEvent + ",\n", 2, 0, true},
		{"no comma either", "[\n" + okEvent + ",\n" + okEvent, 2, 0, true},
		{"last line cut in a string", "[\n" + okEvent + ",\n" + okEvent[:20], 1, 3, true},
		{"last line cut in a number", "[\n" + okEvent + ",\n" + okEvent[:strings.Index(okEvent, "2.5")+2], 1, 3, true},
		{"last line cut after the brace", "[\n" + okEvent + ",\n{", 1, 3, true},
		{"byte-order mark", "\xef\xbb\xbf[" + okEvent + "]", 1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("t.json", []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Events) != tc.events || f.Truncated != tc.truncated || f.CutLine != tc.cutLine {
				t.Errorf("events %d, truncated %v, cut line %d; want %d, %v, %d", len(f.Events), f.Truncated, f.CutLine, tc.events, tc.truncated, tc.cutLine)
			}
		})
	}
}

func TestParseTimes(t *testing.T) {
	f, err := Parse("t.json", []byte("["+okEvent+"]"))
	if err != nil {
		t.Fatal(err)
	}
	e := f.Events[0]
	if e.TS != 1000 || e.Dur != 2500 || e.Pid != 10001 || e.Tid != 3 || e.Line != 1 {
		t.Errorf("event %+v; want ts 1000 ns, dur 2500 ns, pid 10001, tid 3, line 1", e)
	}
}

// TestParseErrors: every malformed input is an error naming the file, the
// line and what is wrong.
func TestParseErrors(t *testing.T) {
	x := func(fields string) string { return `[{"name":"e","ph":"X",` + fields + `}]` }
	for _, tc := range []struct{ data, want string }{
		{"", "t.json: empty file"},
		{"  \n ", "t.json: empty file"},
		{`{"traceEvents":[]}`, `t.json:1: starts with '{'`},
		{"[1]", `t.json:1: '1' where an event`},
		{"[\n" + okEvent + ",\n\n[]", `t.json:4: '[' where an event`},
		{"[" + okEvent + "] x", `t.json:1: 'x' after the closing ']'`},
		{"[\n" + okEvent + "\n" + okEvent + "]", `t.json:3: '{' after an event; want ',' or ']'`},
		{"[\n" + okEvent + ",\n{\"name\" \"x\"},\n" + okEvent + "]", "t.json:3: malformed event"},
		{"[\n" + okEvent + ",\n{\"name\":\"x\",\n\"ph\":}\n]", "t.json:4: malformed event"},
		{`[{"name":"e","pid":1}]`, `t.json:1: event "e" has no "ph"`},
		{`[{"name":"e","ph":"X","ts":1,"dur":1,"tid":1}]`, `event "e" (ph "X") has no "pid"`},
		{x(`"pid":1,"tid":1,"ts":"1","dur":1`), `t.json:1: field "ts" is a JSON string; want a number`},
		{x(`"pid":1,"tid":1,"ts":1,"dur":1,"args":[1]`), `field "args" is a JSON array; want an object`},
		{x(`"pid":1,"tid":1,"ts":1,"dur":1,"name":7`), `field "name" is a JSON number; want a string`},
		{x(`"pid":1,"tid":1,"ts":1`), `event "e" (ph "X") has no "dur"`},
		{x(`"pid":1,"tid":1,"dur":1`), `event "e" (ph "X") has no "ts"`},
		{x(`"pid":1,"ts":1,"dur":1`), `event "e" (ph "X") has no "tid"`},
		{x(`"pid":1,"tid":1,"ts":1,"dur":-1`), `"dur" is -1; want a duration >= 0`},
		{x(`"pid":1.5,"tid":1,"ts":1,"dur":1`), `"pid" is 1.5; want an integer`},
		{x(`"pid":1,"tid":1,"ts":1e300,"dur":1`), `"ts" is 1e+300 µs, out of range`},
	} {
		_, err := Parse("t.json", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q): %v; want an error containing %q", tc.data, err, tc.want)
		}
	}
}

// TestBuildErrors: args of the wrong type, and a device process that says
// not which device it is, are errors naming the file, line and arg.
func TestBuildErrors(t *testing.T) {
	task := func(args string) string {
		return "[\n" + `{"name":"vadd","ph":"X","ts":1,"dur":1,"pid":10001,"tid":3,"args":{` + args + `}}` + "\n]"
	}
	for _, tc := range []struct{ data, want string }{
		{task(`"Task Type":"AI_CORE","Block Dim":"8"`), `t.json:2: event "vadd": arg "Block Dim" is a string; want a number`},
		{task(`"Task Type":"AI_CORE","Block Dim":-8`), `arg "Block Dim" is -8; want a whole number >= 0`},
		{task(`"Task Type":7`), `arg "Task Type" is a number; want a string`},
		{task(`"Task Type":"MEMCPY_ASYNC","Bytes":-1`), `arg "Bytes" is -1; want a byte count >= 0`},
		{task(`"Task Type":"AI_CORE","Failed":"yes"`), `arg "Failed" is a string; want true or false`},
		{task(`"Task Type":"AI_CORE","Submit Time(us)":null`), `arg "Submit Time(us)" is null; want a number`},
		{`[{"name":"Queue Depth","ph":"C","ts":1,"pid":10001,"args":{"Stream 1":"x"}}]`, `arg "Stream 1" is a string; want a number`},
		{`[{"name":"gocann_device","ph":"M","pid":10001,"args":{"device":0,"vector_cores":-1}}]`, `arg "vector_cores" is -1`},
		{`[{"name":"gocann_device","ph":"M","pid":10001,"args":{"device":0,"copy_bandwidth_GBps":-1}}]`, `arg "copy_bandwidth_GBps" is -1; want a bandwidth >= 0`},
		{`[{"name":"vadd","ph":"X","ts":1,"dur":1,"pid":5,"tid":3,"args":{"Task Type":"AI_CORE"}}]`, `t.json: process 5 holds device tasks but no gocann_device event or "Device <d>" label says which device`},
	} {
		f, err := Parse("t.json", []byte(tc.data))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.data, err)
		}
		_, err = Build(f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build(%q): %v; want an error containing %q", tc.data, err, tc.want)
		}
	}
}
