#include "textflag.h"

// func Caller() uintptr
// With no frame of its own, BP is the caller's frame pointer and 8(BP) the
// caller's return address: the call site in the caller's caller.
TEXT ·Caller(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ 8(BP), AX
	MOVQ AX, ret+0(FP)
	RET
