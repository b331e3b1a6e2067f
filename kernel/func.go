package kernel

// Func is a kernel's code for the simulated NPU: a host function run once
// per block of a launch (or once per thread of a SIMT launch's blocks).
type Func struct {
	Name string
	Fn   func(b *Block)

	// Batch, if set, runs one-block launches of this kernel and of others
	// with the same Batch several to a call: a backend running a run of
	// such launches back to back may use it instead of Fn. Kernels in C
	// then cost one crossing from Go per batch rather than per launch.
	Batch Batcher
	// Entry is the kernel's entry point for its Batcher; 0 without one.
	Entry uintptr
	// CPU makes it an AI CPU kernel: its blocks run on the device's AI
	// CPU engine (Props.AICPUs cores) instead of its AI cores.
	CPU bool
	// SIMT marks a kernel written for SIMT launches, whose blocks are
	// blocks of threads (Block.ThreadIdx, Block.SyncThreads).
	SIMT bool
	// Emit writes what a launch's blocks printed (Block.Print), in block
	// order, when the launch ends; nil writes it to standard output. A
	// native kernel's goes through the C library's stdout, in order with
	// the program's own printf.
	Emit func(out []byte)
	// Gang marks a kernel whose blocks wait for one another (Ascend C's
	// SyncAll, IBSet/IBWait, GroupBarrier, WaitPreBlock/NotifyNextBlock,
	// or __schedmode__(1)): a backend starts a launch of it only when it
	// can run all its blocks at once, and refuses one wider than the cores
	// that can ever be its. The blocks share a Gang while they run.
	Gang bool
	// Cores is the kind of core its blocks run on, which bounds a gang
	// launch's width: vector kernels (AIV) have the chip's vector cores,
	// cube kernels its cube cores, the rest its AI cores.
	Cores CoreKind
	// SK, if set, is what a launch of the kernel runs as a sub-kernel of a
	// SuperKernel: a native kernel's SK_BIND-bound sub-function. Its
	// blocks see the launch's arguments and block count.
	SK *Func
	// SKCap is an SK's SK_BIND cap: bit 0 declares that it calls
	// WaitPreTaskEnd, bit 1 SetNextTaskStart.
	SKCap uint64
	// Parts marks a kernel whose block 0 reports the parts of its run
	// (Block.AddPart): a SuperKernel, whose sub-kernels the trace shows.
	Parts bool
}

// CoreKind is the kind of core a kernel's blocks run on.
type CoreKind uint8

const (
	CoreAI     CoreKind = iota // an AI core, cube and vector units alike (mixed kernels, or not said)
	CoreVector                 // a vector core (AIV)
	CoreCube                   // a cube core (AIC)
)

func (k CoreKind) String() string {
	switch k {
	case CoreVector:
		return "vector"
	case CoreCube:
		return "cube"
	}
	return "AI"
}

// Batcher runs block 0 of 1 of several kernel launches in one call.
type Batcher interface {
	// RunBatch runs calls in order, every kernel's Batch being this
	// Batcher. It stops at the first that fails, returning how many
	// completed and that one's failure: a *TrapError for a trap, a
	// *Fault for a fault, or what the kernel panicked with.
	RunBatch(calls []BatchCall) (done int, failure any)
}

// BatchCall is one launch of a batch.
type BatchCall struct {
	Kernel *Func
	Args   []uint64
}

// MaxBatch bounds the launches a backend hands a Batcher at once.
const MaxBatch = 16

// MaxArgs is the number of 8-byte argument slots a launch passes a kernel
// at most.
const MaxArgs = 32
