package prof

import (
	"bufio"
	"os"
	"strconv"
	"unicode/utf8"
)

// timeline writes Chrome trace events, one per line, as a JSON array
// whose closing bracket only a clean end writes (the format allows it to
// be missing), so a crash leaves a readable prefix.
type timeline struct {
	f   *os.File
	w   *bufio.Writer
	buf []byte
	err error
}

func newTimeline(path string) (*timeline, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	t := &timeline{f: f, w: bufio.NewWriterSize(f, 1<<20)}
	t.w.WriteString("[\n")
	return t, nil
}

// event starts an event of phase ph named name on pid/tid; the caller adds
// fields with the add methods and ends it with end.
func (t *timeline) event(ph, name string, pid, tid int64) *timeline {
	t.buf = append(t.buf[:0], `{"ph":"`...)
	t.buf = append(t.buf, ph...)
	t.buf = append(t.buf, `","name":`...)
	t.buf = appendString(t.buf, name)
	t.buf = append(t.buf, `,"pid":`...)
	t.buf = strconv.AppendInt(t.buf, pid, 10)
	t.buf = append(t.buf, `,"tid":`...)
	t.buf = strconv.AppendInt(t.buf, tid, 10)
	return t
}

// us adds a time field, ns given, in microseconds with three decimals.
func (t *timeline) us(key string, ns int64) *timeline {
	t.buf = append(t.buf, `,"`...)
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, `":`...)
	t.buf = appendUS(t.buf, ns)
	return t
}

func (t *timeline) str(key, v string) *timeline {
	t.buf = append(t.buf, `,"`...)
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, `":`...)
	t.buf = appendString(t.buf, v)
	return t
}

func (t *timeline) int(key string, v int64) *timeline {
	t.buf = append(t.buf, `,"`...)
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, `":`...)
	t.buf = strconv.AppendInt(t.buf, v, 10)
	return t
}

// args opens the args object; arg adds to it; end closes both.
func (t *timeline) args() *timeline {
	t.buf = append(t.buf, `,"args":{`...)
	return t
}

// arg adds one argument: a string, an int64, a float64 or a bool.
func (t *timeline) arg(key string, v any) *timeline {
	if n := len(t.buf); t.buf[n-1] != '{' {
		t.buf = append(t.buf, ',')
	}
	t.buf = appendString(t.buf, key)
	t.buf = append(t.buf, ':')
	switch v := v.(type) {
	case string:
		t.buf = appendString(t.buf, v)
	case int64:
		t.buf = strconv.AppendInt(t.buf, v, 10)
	case int:
		t.buf = strconv.AppendInt(t.buf, int64(v), 10)
	case uint64:
		t.buf = strconv.AppendUint(t.buf, v, 10)
	case float64:
		t.buf = strconv.AppendFloat(t.buf, v, 'f', 3, 64)
	case bool:
		t.buf = strconv.AppendBool(t.buf, v)
	}
	return t
}

// end finishes the event (closing args if open) and writes its line.
func (t *timeline) end(argsOpen bool) {
	if argsOpen {
		t.buf = append(t.buf, '}')
	}
	t.buf = append(t.buf, "},\n"...)
	if _, err := t.w.Write(t.buf); err != nil && t.err == nil {
		t.err = err
	}
}

// flush makes what was written readable in the file.
func (t *timeline) flush() {
	if err := t.w.Flush(); err != nil && t.err == nil {
		t.err = err
	}
}

// close writes the last event, the closing bracket, and closes the file.
func (t *timeline) close() error {
	t.buf = append(t.buf[:0], `{"ph":"M","name":"trace_end","pid":0,"tid":0}`+"\n]\n"...)
	t.w.Write(t.buf)
	t.flush()
	if err := t.f.Close(); err != nil && t.err == nil {
		t.err = err
	}
	return t.err
}

// appendUS appends ns as microseconds with three decimals.
func appendUS(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	frac := ns % 1000
	return append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	plain := true // most names need no escaping: one append
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\'
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return append(b, '"')
}
