package profreport

import (
	"fmt"
	"math"
)

// argReader reads an event's args, keeping the first error, which names
// the file, the line, the event and the arg: reading goes on and the caller
// checks err once.
type argReader struct {
	file string
	ev   *Event
	err  error
}

func (a *argReader) fail(key, format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf("%s:%d: event %q: arg %q %s", a.file, a.ev.Line, a.ev.Name, key, fmt.Sprintf(format, v...))
	}
}

func (a *argReader) has(key string) bool {
	_, ok := a.ev.Args[key]
	return ok
}

// num is a numeric arg; ok is false when it is absent.
func (a *argReader) num(key string) (v float64, ok bool) {
	x, ok := a.ev.Args[key]
	if !ok {
		return 0, false
	}
	v, ok = x.(float64)
	if !ok {
		a.fail(key, "is %s; want a number", jsonKind(x))
		return 0, false
	}
	return v, true
}

// count is a non-negative integral arg.
func (a *argReader) count(key string) (int64, bool) {
	v, ok := a.num(key)
	if !ok {
		return 0, false
	}
	if v < 0 || v != math.Trunc(v) || v > 1<<53 {
		a.fail(key, "is %g; want a whole number >= 0", v)
		return 0, false
	}
	return int64(v), true
}

// micros is an arg in microseconds, as nanoseconds.
func (a *argReader) micros(key string) (int64, bool) {
	v, ok := a.num(key)
	if !ok {
		return 0, false
	}
	if math.Abs(v) > maxMicros {
		a.fail(key, "is %g µs, out of range", v)
		return 0, false
	}
	return int64(math.Round(v * 1000)), true
}

func (a *argReader) str(key string) string {
	x, ok := a.ev.Args[key]
	if !ok {
		return ""
	}
	s, ok := x.(string)
	if !ok {
		a.fail(key, "is %s; want a string", jsonKind(x))
	}
	return s
}

// flag is a boolean arg; absent is false.
func (a *argReader) flag(key string) bool {
	x, ok := a.ev.Args[key]
	if !ok {
		return false
	}
	b, ok := x.(bool)
	if !ok {
		a.fail(key, "is %s; want true or false", jsonKind(x))
	}
	return b
}

func jsonKind(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}
