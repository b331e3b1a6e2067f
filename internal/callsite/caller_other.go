//go:build !amd64

package callsite

import "runtime"

// Caller returns the program counter of the call to the function that calls
// Caller. On this architecture it walks the stack, which costs a few hundred
// nanoseconds.
//
//go:noinline
func Caller() uintptr {
	var pc [1]uintptr
	if runtime.Callers(3, pc[:]) == 0 {
		return 0
	}
	return pc[0]
}
