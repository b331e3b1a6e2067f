package kernel

import (
	"fmt"
	"syscall"
)

// A block ends early in one of three ways, each a panic value its backend
// turns into the task's AI-core fault: Block.Trap (a TrapError), a Go
// panic, or a Fault raised while the block ran native code.

// TrapError is the panic value of Block.Trap: a kernel-raised trap, reported
// as an AI core trap exception rather than a generic one.
type TrapError struct{ Msg string }

func (e *TrapError) Error() string { return "trap: " + e.Msg }

// Trap stops this block and raises an AI core trap exception for the task,
// as a device trap instruction does.
func (b *Block) Trap(msg string) { panic(&TrapError{Msg: msg}) }

// Access is how a faulting instruction used memory.
type Access uint8

const (
	AccessUnknown Access = iota
	AccessRead
	AccessWrite
	AccessExec // an instruction fetch: a jump or call to a bad address
)

func (a Access) String() string {
	switch a {
	case AccessRead:
		return "read"
	case AccessWrite:
		return "write"
	case AccessExec:
		return "execution"
	}
	return "access"
}

// Fault is the panic value of a block whose native code faulted: a
// synchronous signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL) raised by the
// kernel's own instructions, or a C++ exception that left the kernel, as
// an AI core raises an exception for an access outside the memory mapped
// for it or an instruction it cannot execute.
type Fault struct {
	Signal syscall.Signal // 0 for an exception
	Code   int32          // the signal's si_code
	// Addr is the data address of a memory fault, when the host reports
	// it (AddrKnown): not for a fault on an address the processor cannot
	// translate at all, such as a non-canonical one.
	Addr      uint64
	AddrKnown bool
	Access    Access
	PC        uint64 // the faulting instruction, 0 if unknown
	Symbol    string // what holds PC: "function+0xoffset in object", if known
	// Exception is a C++ exception's type and what(): "type: what".
	Exception string
	// Where says what the memory at Addr is, as the backend that ran the
	// block knows it (freed device memory, past the end of an allocation,
	// no allocation); empty until the backend fills it in.
	Where string
}

func (f *Fault) Error() string {
	var s string
	switch {
	case f.Signal == 0:
		s = "a C++ exception left the kernel: " + f.Exception
	case f.AddrKnown:
		s = fmt.Sprintf("%s of address %#x faulted (%s)", f.Access, f.Addr, f.signalName())
	case f.Signal == syscall.SIGSEGV || f.Signal == syscall.SIGBUS:
		s = fmt.Sprintf("memory %s at an address the host did not report faulted (%s; a non-canonical address is one)", f.Access, f.signalName())
	default:
		s = f.signalName()
	}
	if f.PC != 0 {
		s += fmt.Sprintf(" at instruction %#x", f.PC)
		if f.Symbol != "" {
			s += " (" + f.Symbol + ")"
		}
	}
	if f.Where != "" {
		s += ": " + f.Where
	}
	return s
}

// signalName names the signal and, where Linux's si_code says more, why.
func (f *Fault) signalName() string {
	name := "signal " + f.Signal.String()
	switch f.Signal {
	case syscall.SIGSEGV:
		name = "SIGSEGV"
		switch f.Code {
		case 1:
			name += ", address not mapped"
		case 2:
			name += ", access not permitted"
		}
	case syscall.SIGBUS:
		name = "SIGBUS"
		switch f.Code {
		case 1:
			name += ", misaligned address"
		case 2:
			name += ", no such physical address"
		case 3:
			name += ", no memory behind the mapping"
		}
	case syscall.SIGFPE:
		name = "SIGFPE"
		switch f.Code {
		case 1:
			name += ", integer division by zero"
		case 2:
			name += ", integer overflow"
		case 3:
			name += ", floating-point division by zero"
		default:
			name += ", arithmetic exception"
		}
	case syscall.SIGILL:
		name = "SIGILL, illegal instruction"
	}
	return name
}
