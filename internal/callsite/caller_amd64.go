package callsite

// Caller returns the program counter of the call to the function that calls
// Caller: the user's call site of an API method. The API method must not be
// inlined (mark it //go:noinline). It costs a few nanoseconds.
func Caller() uintptr
