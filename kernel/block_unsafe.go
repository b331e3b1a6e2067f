package kernel

import (
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Memory is the view of device memory a running block has.
type Memory interface {
	// Pointer returns a pointer to n bytes at addr, or an error if
	// [addr, addr+n) is not inside one live allocation.
	Pointer(addr, n uint64) (unsafe.Pointer, error)
}

// Block is what a kernel body sees of its launch: its block index and count,
// the argument slots and device memory. A Block is only valid during the
// call; a backend reuses it for the next block.
type Block struct {
	idx, num   uint32
	overflowed bool
	tid        uint32 // this thread's index in its block, of a SIMT launch
	simt       *SIMT  // the launch's thread layout; nil outside SIMT launches
	args       []uint64
	mem        Memory
	out        []byte // what the block printed
	gang       *Gang  // what a gang launch's blocks share; nil otherwise
	sk         SKHook // a SuperKernel sub-kernel's calls (SetSK); nil otherwise
	parts      []Part // what block 0 of a Parts kernel reported (part.go)
	moved      uint64 // bytes of global memory its copies reached
}

// Reset prepares b for one block. Backends call it; kernels never do.
func (b *Block) Reset(idx, num uint32, args []uint64, mem Memory) {
	b.idx, b.num, b.args, b.mem, b.overflowed, b.simt, b.tid, b.out, b.gang = idx, num, args, mem, false, nil, 0, nil, nil
	b.parts = b.parts[:0]
	b.moved = 0
}

// AddMoved reports that the block's copies reached n bytes of global
// memory (Ascend C's DataCopy), for profiling.
func (b *Block) AddMoved(n uint64) { b.moved += n }

// Moved is what AddMoved reported since Reset.
func (b *Block) Moved() uint64 { return b.moved }

// Memory is the memory the block sees. Backends and kernels that call
// other kernels' blocks (a SuperKernel) read it.
func (b *Block) Memory() Memory { return b.mem }

// Print adds p to what the block printed. The device shows a kernel's
// printf output when its launch ends, a block's lines together and the
// blocks in order; the backend does the same with the launch's Emit.
func (b *Block) Print(p []byte) { b.out = append(b.out, p...) }

// TakeOutput returns what the block printed and forgets it. Backends call
// it; kernels never do.
func (b *Block) TakeOutput() []byte {
	out := b.out
	b.out = nil
	return out
}

// ReportOverflow records that this block produced a float overflow (an
// inf or NaN), as an AI core's overflow detection does; the launch's
// stream reports it if its overflow switch is on.
func (b *Block) ReportOverflow() { b.overflowed = true }

// Overflowed reports whether the block called ReportOverflow since Reset.
func (b *Block) Overflowed() bool { return b.overflowed }

// Idx is this block's index in [0, Num()).
func (b *Block) Idx() int { return int(b.idx) }

// Num is the number of blocks in the launch.
func (b *Block) Num() int { return int(b.num) }

// NArgs is the number of argument slots the launch passed.
func (b *Block) NArgs() int { return len(b.args) }

// Args returns the argument slots; the caller must not modify them.
func (b *Block) Args() []uint64 { return b.args }

// Arg returns argument slot i. An index past NArgs is a kernel fault.
func (b *Block) Arg(i int) uint64 {
	if i < 0 || i >= len(b.args) {
		panic(fmt.Sprintf("argument slot %d read, launch passed %d", i, len(b.args)))
	}
	return b.args[i]
}

// Span returns this block's even share [lo, hi) of n items.
func (b *Block) Span(n int) (lo, hi int) {
	per := n / int(b.num)
	rem := n % int(b.num)
	i := int(b.idx)
	lo = i*per + min(i, rem)
	hi = lo + per
	if i < rem {
		hi++
	}
	return lo, hi
}

// Pointer returns a pointer to n bytes of device memory at addr. An address
// outside a live allocation is a kernel fault, as an out-of-bounds access is
// an AI core exception on hardware.
func (b *Block) Pointer(addr, n uint64) unsafe.Pointer {
	p, err := b.mem.Pointer(addr, n)
	if err != nil {
		panic(err)
	}
	return p
}

// Bytes returns n bytes of device memory at addr as a slice.
func (b *Block) Bytes(addr uint64, n int) []byte {
	if n < 0 {
		panic(fmt.Sprintf("negative view length %d", n))
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(b.Pointer(addr, uint64(n))), n)
}

func (b *Block) word(addr uint64) *uint64 {
	if addr%8 != 0 {
		panic(fmt.Sprintf("64-bit access at %#x is not 8-byte aligned", addr))
	}
	return (*uint64)(b.Pointer(addr, 8))
}

// Load64 atomically loads the 64-bit word at addr, so a block polling memory
// sees other writers' stores.
func (b *Block) Load64(addr uint64) uint64 { return atomic.LoadUint64(b.word(addr)) }

// Store64 atomically stores v to the 64-bit word at addr.
func (b *Block) Store64(addr, v uint64) { atomic.StoreUint64(b.word(addr), v) }

// Add64 atomically adds d to the 64-bit word at addr and returns the new value.
func (b *Block) Add64(addr, d uint64) uint64 { return atomic.AddUint64(b.word(addr), d) }
