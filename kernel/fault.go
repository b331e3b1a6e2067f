package kernel

// A block ends early in one of two ways, each a panic value its backend
// turns into the task's AI-core fault: Block.Trap (a TrapError) or a Go
// panic.

// TrapError is the panic value of Block.Trap: a kernel-raised trap, reported
// as an AI core trap exception rather than a generic one.
type TrapError struct{ Msg string }

func (e *TrapError) Error() string { return "trap: " + e.Msg }

// Trap stops this block and raises an AI core trap exception for the task,
// as a device trap instruction does.
func (b *Block) Trap(msg string) { panic(&TrapError{Msg: msg}) }
