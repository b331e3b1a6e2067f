package profreport

import (
	"fmt"
	"strconv"
)

// us formats nanoseconds as microseconds with three decimals.
func us(ns int64) string { return strconv.FormatFloat(float64(ns)/1e3, 'f', 3, 64) }

// usf formats fractional nanoseconds (a mean) as microseconds.
func usf(ns float64) string { return strconv.FormatFloat(ns/1e3, 'f', 3, 64) }

// ms formats nanoseconds as milliseconds with three decimals.
func ms(ns int64) string { return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64) + " ms" }

// at formats a time as its offset from the report's origin.
func (r *Report) at(ns int64) string { return "+" + ms(ns-r.Start) }

// percent formats a fraction, or "-" when it is not known.
func percent(v float64, known bool) string {
	if !known {
		return "-"
	}
	return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
}

// byteCount formats a byte count in decimal units, as bandwidths are.
func byteCount(n float64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", n/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2f MB", n/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.2f kB", n/1e3)
	}
	return fmt.Sprintf("%.0f B", n)
}

// depth formats a queue depth: whole for the max, two decimals for a mean.
func depth(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func mean(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
