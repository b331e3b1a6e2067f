package asc

import "fmt"

// The scanner splits C++ source into the tokens the rewriter looks at. It
// knows enough of the language not to be fooled: comments, string and
// character literals (raw strings included), preprocessor lines with their
// continuations; everything else is identifiers, numbers and punctuation,
// one character a token except "::" (the rewriter finds "<<<" and ">>>"
// by looking at neighbouring tokens).

type kind uint8

const (
	tIdent kind = iota
	tNumber
	tString // a string or character literal
	tPunct
	tDirective // a whole preprocessor line
)

type token struct {
	kind       kind
	start, end int // byte offsets in the source
	line, col  int // 1-based, of start
}

func (t token) text(src []byte) string { return string(src[t.start:t.end]) }

// Error is a problem in a source, at a line and column.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Line, e.Col, e.Msg)
}

type scanner struct {
	file      string
	src       []byte
	pos       int
	line, col int
	lineStart bool // only white space since the line began
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// scan returns the tokens of src.
func scan(file string, src []byte) ([]token, error) {
	s := &scanner{file: file, src: src, line: 1, col: 1, lineStart: true}
	var toks []token
	for {
		t, ok, err := s.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return toks, nil
		}
		toks = append(toks, t)
	}
}

func (s *scanner) errorf(line, col int, format string, args ...any) error {
	return &Error{File: s.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// advance moves over n bytes, keeping the line and column.
func (s *scanner) advance(n int) {
	for ; n > 0 && s.pos < len(s.src); n-- {
		if s.src[s.pos] == '\n' {
			s.line++
			s.col = 1
			s.lineStart = true
		} else {
			s.col++
		}
		s.pos++
	}
}

func (s *scanner) peek(off int) byte {
	if s.pos+off < len(s.src) {
		return s.src[s.pos+off]
	}
	return 0
}

// next returns the next token; false at the end.
func (s *scanner) next() (token, bool, error) {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.advance(1)
		case c == '\n':
			s.advance(1)
		case c == '\\' && s.peek(1) == '\n':
			s.advance(2)
		case c == '/' && s.peek(1) == '/':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				if s.src[s.pos] == '\\' && s.peek(1) == '\n' {
					s.advance(1)
				}
				s.advance(1)
			}
		case c == '/' && s.peek(1) == '*':
			line, col := s.line, s.col
			s.advance(2)
			for s.pos < len(s.src) && !(s.src[s.pos] == '*' && s.peek(1) == '/') {
				s.advance(1)
			}
			if s.pos >= len(s.src) {
				return token{}, false, s.errorf(line, col, "unterminated comment")
			}
			s.advance(2)
		case c == '#' && s.lineStart:
			return s.directive(), true, nil
		default:
			s.lineStart = false
			return s.token()
		}
	}
	return token{}, false, nil
}

// directive takes a preprocessor line whole, with its continuations and
// the comments on it.
func (s *scanner) directive() token {
	t := token{kind: tDirective, start: s.pos, line: s.line, col: s.col}
	for s.pos < len(s.src) && s.src[s.pos] != '\n' {
		switch {
		case s.src[s.pos] == '\\' && s.peek(1) == '\n':
			s.advance(2)
		case s.src[s.pos] == '/' && s.peek(1) == '*':
			s.advance(2)
			for s.pos < len(s.src) && !(s.src[s.pos] == '*' && s.peek(1) == '/') {
				s.advance(1)
			}
			s.advance(2)
		default:
			s.advance(1)
		}
	}
	t.end = s.pos
	return t
}

func (s *scanner) token() (token, bool, error) {
	t := token{start: s.pos, line: s.line, col: s.col}
	c := s.src[s.pos]
	switch {
	case c == 'R' && s.peek(1) == '"', (c == 'u' || c == 'U' || c == 'L') && s.peek(1) == 'R' && s.peek(2) == '"',
		c == 'u' && s.peek(1) == '8' && s.peek(2) == 'R' && s.peek(3) == '"':
		for s.src[s.pos] != '"' {
			s.advance(1)
		}
		if err := s.rawString(t); err != nil {
			return token{}, false, err
		}
		t.kind = tString
	case isIdentStart(c):
		for s.pos < len(s.src) && isIdentChar(s.src[s.pos]) {
			s.advance(1)
		}
		// An encoding prefix glued to a literal (u8"x", L'c') is the literal.
		if s.pos < len(s.src) && (s.src[s.pos] == '"' || s.src[s.pos] == '\'') {
			switch string(s.src[t.start:s.pos]) {
			case "u8", "u", "U", "L":
				if err := s.quoted(t); err != nil {
					return token{}, false, err
				}
				t.kind = tString
			default:
				t.kind = tIdent
			}
		} else {
			t.kind = tIdent
		}
	case c >= '0' && c <= '9' || c == '.' && s.peek(1) >= '0' && s.peek(1) <= '9':
		// A pp-number: digits, letters, dots, digit separators and signed
		// exponents.
		for s.pos < len(s.src) {
			d := s.src[s.pos]
			if isIdentChar(d) || d == '.' || d == '\'' && isIdentChar(s.peek(1)) {
				s.advance(1)
				continue
			}
			if (d == '+' || d == '-') && s.pos > t.start {
				if p := s.src[s.pos-1] | 0x20; p == 'e' || p == 'p' {
					s.advance(1)
					continue
				}
			}
			break
		}
		t.kind = tNumber
	case c == '"' || c == '\'':
		if err := s.quoted(t); err != nil {
			return token{}, false, err
		}
		t.kind = tString
	case c == ':' && s.peek(1) == ':':
		s.advance(2)
		t.kind = tPunct
	default:
		s.advance(1)
		t.kind = tPunct
	}
	t.end = s.pos
	return t, true, nil
}

// quoted moves over a string or character literal from its opening quote.
func (s *scanner) quoted(t token) error {
	q := s.src[s.pos]
	s.advance(1)
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\\':
			s.advance(2)
			continue
		case '\n':
			return s.errorf(t.line, t.col, "missing terminating %c character", q)
		case q:
			s.advance(1)
			return nil
		}
		s.advance(1)
	}
	return s.errorf(t.line, t.col, "missing terminating %c character", q)
}

// rawString moves over R"delim( ... )delim" from its opening quote.
func (s *scanner) rawString(t token) error {
	s.advance(1)
	open := s.pos
	for s.pos < len(s.src) && s.src[s.pos] != '(' {
		if s.src[s.pos] == '\n' || s.pos-open > 16 {
			return s.errorf(t.line, t.col, "invalid raw string delimiter")
		}
		s.advance(1)
	}
	end := ")" + string(s.src[open:s.pos]) + `"`
	for s.pos < len(s.src) {
		if s.src[s.pos] == ')' && len(s.src)-s.pos >= len(end) && string(s.src[s.pos:s.pos+len(end)]) == end {
			s.advance(len(end))
			return nil
		}
		s.advance(1)
	}
	return s.errorf(t.line, t.col, "unterminated raw string")
}
