// Package callsite records where an API call came from, cheaply enough for
// every kernel launch, so a fault can name its launch site. It imports only
// the standard library.
package callsite

import "runtime"

// Format renders a program counter from Caller as "file:line (function)";
// "" for 0.
func Format(pc uintptr) string {
	if pc == 0 {
		return ""
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if f.File == "" {
		return ""
	}
	return f.File + ":" + itoa(f.Line) + " (" + f.Function + ")"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
