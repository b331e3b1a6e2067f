package sim

import "unsafe"

func ptr(b []byte) unsafe.Pointer { return unsafe.Pointer(&b[0]) }

func unsafeBytes(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }
