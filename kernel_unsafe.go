package gocann

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/kernel"
)

// Kernel is device code registered with Runtime.RegisterKernel.
//
// It is the device-level kernel itself, seen as the API's type (NewKernel
// converts the pointer), so each kernel.Func has one *Kernel without the
// device layer holding a pointer back to it.
type Kernel struct{ k kernel.Func }

// MaxBlocks is the largest block count (numBlocks) a launch accepts.
const MaxBlocks = rt.MaxBlocks

// MaxArgs is the number of 8-byte argument slots a launch carries.
const MaxArgs = hal.MaxArgs

// Name is the kernel's registered name.
//
// CANN: aclrtGetFunctionName.
func (k *Kernel) Name() string { return k.k.Name }

// KernelFunc is a kernel body, run once per block, concurrently on up to
// the chip's AI core count.
type KernelFunc func(b *Block)

// Block is what a kernel body sees: its block index and count, the launch's
// argument slots and device memory.
type Block struct{ b kernel.Block }

// adaptKernel lets the simulator call fn with its own block type: Block
// wraps kernel.Block with the same memory layout, so this is a conversion.
func adaptKernel(fn KernelFunc) func(*kernel.Block) {
	return func(hb *kernel.Block) { fn((*Block)(unsafe.Pointer(hb))) }
}

// Idx is this block's index in [0, Num()).
//
// CANN: GetBlockIdx (Ascend C).
func (b *Block) Idx() int { return b.b.Idx() }

// Num is the launch's block count.
//
// CANN: GetBlockNum (Ascend C).
func (b *Block) Num() int { return b.b.Num() }

// NArgs is the number of argument slots passed.
//
// CANN: none.
func (b *Block) NArgs() int { return b.b.NArgs() }

// Arg returns argument slot i.
//
// CANN: none.
func (b *Block) Arg(i int) Arg { return Arg(b.b.Arg(i)) }

// Span returns this block's even share [lo, hi) of n items.
//
// CANN: none.
func (b *Block) Span(n int) (lo, hi int) { return b.b.Span(n) }

// Load64 atomically loads the 64-bit word at p, so a block polling memory
// sees stores by other blocks, streams and value writes.
//
// CANN: none.
func (b *Block) Load64(p DevPtr) uint64 { return b.b.Load64(uint64(p)) }

// Store64 atomically stores v to the 64-bit word at p.
//
// CANN: none.
func (b *Block) Store64(p DevPtr, v uint64) { b.b.Store64(uint64(p), v) }

// ReportOverflow records that the block produced a float overflow (an
// inf or a NaN), as an AI core's overflow detection does: if the launch's
// stream has its overflow switch on, the device's overflow status is set.
//
// CANN: none (the AI core's float status register).
func (b *Block) ReportOverflow() { b.b.ReportOverflow() }

// SetNextTaskStart, in a sub-kernel of a SuperKernel on an Atlas A3 or
// Ascend 950, lets the next sub-kernel start once every block of this one
// has called it, while this block's remaining work runs: call it once on
// every block, after its last data movement. Elsewhere it does nothing.
//
// CANN: SetNextTaskStart (Ascend C).
func (b *Block) SetNextTaskStart() { b.b.SetNextTaskStart() }

// WaitPreTaskEnd, in a sub-kernel of a SuperKernel on an Atlas A3 or
// Ascend 950, waits until the sub-kernel before it has ended on every
// core: call it once on every block, before its first data movement.
// Elsewhere it does nothing.
//
// CANN: WaitPreTaskEnd (Ascend C).
func (b *Block) WaitPreTaskEnd() { b.b.WaitPreTaskEnd() }

// Add64 atomically adds d to the 64-bit word at p and returns the new value.
//
// CANN: none.
func (b *Block) Add64(p DevPtr, d uint64) uint64 { return b.b.Add64(uint64(p), d) }

// Trap stops the block and raises an AI core trap exception for the task.
//
// CANN: trap (Ascend C).
func (b *Block) Trap(msg string) { b.b.Trap(msg) }

// View returns n elements of T at device address p, checked against p's
// allocation. An out-of-bounds, freed or misaligned view is a kernel fault,
// reported as an AI core exception.
//
// CANN: none.
func View[T Elem](b *Block, p DevPtr, n int) []T {
	var z T
	size := unsafe.Sizeof(z)
	if n < 0 || uint64(n) > math.MaxUint64/uint64(size) {
		panic(fmt.Sprintf("view of %d elements of %d bytes", n, size))
	}
	if uintptr(p)%unsafe.Alignof(z) != 0 {
		panic(fmt.Sprintf("view at %#x is not aligned for %T", uint64(p), z))
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(b.b.Pointer(uint64(p), uint64(n)*uint64(size))), n)
}

// Arg is one 8-byte kernel argument slot: a device pointer or a number.
type Arg uint64

// Ptr makes a slot of a device pointer.
//
// CANN: none.
func Ptr(p DevPtr) Arg { return Arg(p) }

// U64 makes a slot of an unsigned integer.
//
// CANN: none.
func U64(v uint64) Arg { return Arg(v) }

// I64 makes a slot of a signed integer.
//
// CANN: none.
func I64(v int64) Arg { return Arg(v) }

// F32 makes a slot of a float32 (in the low 32 bits).
//
// CANN: none.
func F32(v float32) Arg { return Arg(math.Float32bits(v)) }

// F64 makes a slot of a float64.
//
// CANN: none.
func F64(v float64) Arg { return Arg(math.Float64bits(v)) }

// Ptr reads the slot as a device pointer.
//
// CANN: none.
func (a Arg) Ptr() DevPtr { return DevPtr(a) }

// U64 reads the slot as an unsigned integer.
//
// CANN: none.
func (a Arg) U64() uint64 { return uint64(a) }

// I64 reads the slot as a signed integer.
//
// CANN: none.
func (a Arg) I64() int64 { return int64(a) }

// F32 reads the slot as a float32.
//
// CANN: none.
func (a Arg) F32() float32 { return math.Float32frombits(uint32(a)) }

// F64 reads the slot as a float64.
//
// CANN: none.
func (a Arg) F64() float64 { return math.Float64frombits(uint64(a)) }

// NewKernel wraps device code from elsewhere — a C kernel loaded by package
// ckernel — for Stream.Launch, without registering a name. It returns the
// one *Kernel of k.
//
// CANN: aclrtBinaryGetFunction (kernel from a loaded binary).
func NewKernel(k *kernel.Func) *Kernel {
	return (*Kernel)(unsafe.Pointer(k)) // Kernel's one field is a kernel.Func
}
