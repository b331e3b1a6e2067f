package profreport

import (
	"io"
	"strings"
	"unicode/utf8"
)

// table lays out columns: the first left-aligned (names), the rest
// right-aligned (figures), two spaces apart.
type table struct {
	indent string
	rows   [][]string // the first is the heading
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) error {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		b.WriteString(t.indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				b.WriteString(c)
				if len(r) > 1 {
					b.WriteString(pad)
				}
			default:
				b.WriteString("  ")
				b.WriteString(pad)
				b.WriteString(c)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
