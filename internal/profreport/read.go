package profreport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// File is one timeline as read: its events in file order.
type File struct {
	Name string
	// Truncated is set when the file has no closing ']': the program that
	// wrote it did not end cleanly. A cut last event is dropped.
	Truncated bool
	// CutLine is the line of the dropped, cut event (0 when none was).
	CutLine int
	Events  []Event
}

// Event is one trace event. Times are nanoseconds (the file's microseconds
// have three decimals).
type Event struct {
	Line     int // where the event starts in its file, from 1
	Name     string
	Ph       string
	Cat      string
	TS, Dur  int64
	HasTS    bool
	Pid, Tid int64
	Args     map[string]any
}

// wire is an event as the file spells it; pointers tell absent from zero.
type wire struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Cat  string         `json:"cat"`
	TS   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Pid  *float64       `json:"pid"`
	Tid  *float64       `json:"tid"`
	Args map[string]any `json:"args"`
}

// maxMicros bounds times and durations (about 31 years in microseconds), so
// that nanoseconds fit an int64 with room for sums.
const maxMicros = 1e15

// ReadFile reads the timeline at path.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a timeline from data; name is what errors call it.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name}
	p := parser{name: name, data: data, line: 1}
	p.data = bytes.TrimPrefix(p.data, []byte("\xef\xbb\xbf"))
	p.space()
	if p.off == len(p.data) {
		return nil, fmt.Errorf("%s: empty file; a timeline is a JSON array of trace events starting with '['", name)
	}
	if c := p.data[p.off]; c != '[' {
		return nil, p.errorf("starts with %q; a timeline is a JSON array of trace events starting with '['", c)
	}
	p.off++
	for first := true; ; first = false {
		p.space()
		if !first && p.off < len(p.data) {
			switch p.data[p.off] {
			case ',':
				p.off++
				p.space()
			case ']':
			default:
				return nil, p.errorf("%q after an event; want ',' or ']'", p.data[p.off])
			}
		}
		if p.off == len(p.data) {
			f.Truncated = true
			return f, nil
		}
		switch c := p.data[p.off]; {
		case c == ']':
			p.off++
			p.space()
			if p.off < len(p.data) {
				return nil, p.errorf("%q after the closing ']'", p.data[p.off])
			}
			return f, nil
		case c != '{':
			return nil, p.errorf("%q where an event (a JSON object) should start", c)
		}
		ev, cut, err := p.event()
		if err != nil {
			return nil, err
		}
		if cut {
			f.Truncated, f.CutLine = true, ev.Line
			return f, nil
		}
		f.Events = append(f.Events, ev)
	}
}

type parser struct {
	name string
	data []byte
	off  int
	line int // the line of data[off]
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// space skips white space, counting lines.
func (p *parser) space() {
	for p.off < len(p.data) {
		switch p.data[p.off] {
		case '\n':
			p.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		p.off++
	}
}

// event decodes the object at p.off. cut reports an object the end of the
// file interrupts: the last line of a timeline whose writer died.
func (p *parser) event() (ev Event, cut bool, err error) {
	ev.Line = p.line
	dec := json.NewDecoder(bytes.NewReader(p.data[p.off:]))
	var w wire
	derr := dec.Decode(&w)
	end := p.off + int(dec.InputOffset())
	var typeErr *json.UnmarshalTypeError
	switch {
	case derr == nil:
	case errors.Is(derr, io.ErrUnexpectedEOF):
		return ev, true, nil
	case errors.As(derr, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "the event"
		}
		return ev, false, p.errorf("%s is a JSON %s; want %s", quoteField(field), typeErr.Value, want(field))
	default:
		var syn *json.SyntaxError
		if errors.As(derr, &syn) {
			p.advance(p.off + int(syn.Offset) - 1)
		}
		return ev, false, p.errorf("malformed event: %v", derr)
	}
	p.advance(end)
	if err := w.check(&ev); err != nil {
		return ev, false, fmt.Errorf("%s:%d: %w", p.name, ev.Line, err)
	}
	return ev, false, nil
}

// advance moves p.off to off, counting the lines passed.
func (p *parser) advance(off int) {
	off = min(max(off, p.off), len(p.data))
	p.line += bytes.Count(p.data[p.off:off], []byte{'\n'})
	p.off = off
}

func quoteField(f string) string {
	if f == "the event" {
		return f
	}
	return fmt.Sprintf("field %q", f)
}

func want(field string) string {
	switch field {
	case "ts", "dur", "pid", "tid":
		return "a number"
	case "args":
		return "an object"
	case "the event":
		return "an object"
	}
	return "a string"
}

// check validates w and fills ev from it.
func (w *wire) check(ev *Event) error {
	ev.Name, ev.Ph, ev.Cat, ev.Args = w.Name, w.Ph, w.Cat, w.Args
	if w.Ph == "" {
		return fmt.Errorf("event %q has no \"ph\" (its phase: X, i, C, s, f, M, ...)", w.Name)
	}
	if w.Pid == nil {
		return fmt.Errorf("event %q (ph %q) has no \"pid\"", w.Name, w.Ph)
	}
	var err error
	if ev.Pid, err = integer(w.Name, "pid", *w.Pid); err != nil {
		return err
	}
	if w.Tid != nil {
		if ev.Tid, err = integer(w.Name, "tid", *w.Tid); err != nil {
			return err
		}
	}
	if w.TS != nil {
		if ev.TS, err = micros(w.Name, "ts", *w.TS); err != nil {
			return err
		}
		ev.HasTS = true
	}
	if w.Dur != nil {
		if ev.Dur, err = micros(w.Name, "dur", *w.Dur); err != nil {
			return err
		}
		if ev.Dur < 0 {
			return fmt.Errorf("event %q: \"dur\" is %g; want a duration >= 0", w.Name, *w.Dur)
		}
	}
	switch w.Ph {
	case "X", "i", "I", "C", "s", "t", "f":
		if w.TS == nil {
			return fmt.Errorf("event %q (ph %q) has no \"ts\"", w.Name, w.Ph)
		}
	}
	if w.Ph == "X" && w.Dur == nil {
		return fmt.Errorf("event %q (ph \"X\") has no \"dur\"", w.Name)
	}
	if (w.Ph == "X" || w.Ph == "i") && w.Tid == nil {
		return fmt.Errorf("event %q (ph %q) has no \"tid\"", w.Name, w.Ph)
	}
	return nil
}

func integer(name, field string, v float64) (int64, error) {
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		return 0, fmt.Errorf("event %q: %q is %g; want an integer", name, field, v)
	}
	return int64(v), nil
}

func micros(name, field string, v float64) (int64, error) {
	if math.Abs(v) > maxMicros {
		return 0, fmt.Errorf("event %q: %q is %g µs, out of range (|%s| <= 1e15)", name, field, v, field)
	}
	return int64(math.Round(v * 1000)), nil
}
