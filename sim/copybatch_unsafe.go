package sim

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// batchParts splits a batch copy by its copies: a part takes a run of
// whole copies, and only a batch big enough to split at all is split.
func batchParts(t *hal.Task, workers int) int32 {
	var total uint64
	n := t.Batch.Len()
	for i := range n {
		total += t.Batch.Copies[i].Size
	}
	return max(1, min(splitCount(total, workers), int32(min(n, 1<<30))))
}

// copyBatch runs part p of a batch copy: its share of the copies, each
// resolved and moved in one go. The first copy that cannot be resolved
// ends the part; the task faults.
func (b *Backend) copyBatch(t *hal.Task, p, parts int32) error {
	lo, hi := share(uint64(t.Batch.Len()), p, parts, 1)
	var dc, sc spanCache
	for i := lo; i < hi; i++ {
		c := &t.Batch.Copies[i]
		if c.Size == 0 {
			continue
		}
		dst, err := b.resolveIn(&dc, c.Dst, c.Size)
		if err != nil {
			return err
		}
		src, err := b.resolveIn(&sc, c.Src, c.Size)
		if err != nil {
			return err
		}
		copy(unsafe.Slice((*byte)(dst), c.Size), unsafe.Slice((*byte)(src), c.Size))
	}
	return nil
}

// spanCache is the device allocation a batch part's last copy end was
// in. The copies of a batch mostly walk one buffer, and each lookup takes
// the device memory's read lock, which the DMA workers would otherwise
// pass between them once per copy. Like the lookup of one large copy, it
// is made when a run of copies into the allocation starts.
type spanCache struct {
	lo, hi uint64 // hi == 0: none
	base   unsafe.Pointer
}

// resolveIn is resolve, remembering in c the device allocation found.
func (b *Backend) resolveIn(c *spanCache, l hal.Loc, n uint64) (unsafe.Pointer, error) {
	if l.Host != nil {
		return l.Host, nil
	}
	if a := l.Dev; c.hi != 0 && a >= c.lo && a < c.hi && n <= c.hi-a {
		return unsafe.Add(c.base, a-c.lo), nil
	}
	for _, d := range *b.open.Load() {
		if d.mem.contains(l.Dev) {
			base, lo, hi, err := d.mem.span(l.Dev, n)
			if err != nil {
				return nil, err
			}
			*c = spanCache{lo: lo, hi: hi, base: base}
			return unsafe.Add(base, l.Dev-lo), nil
		}
	}
	return b.resolve(l, n)
}

// fill32 sets b to the 32-bit little-endian pattern v; len(b) is a
// multiple of 4 (parts split on 4 KiB).
func fill32(b []byte, v uint32) {
	if len(b) < 4 {
		return
	}
	binary.LittleEndian.PutUint32(b, v)
	for n := 4; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// copyIndirect runs a TaskCopyIndirect: its ends, and its size when Value
// names a word, are read now, from device memory. Both ends must be
// device memory.
func (b *Backend) copyIndirect(t *hal.Task) error {
	word := func(addr uint64) (uint64, error) {
		p, err := b.resolve(hal.DevLoc(addr), 8)
		if err != nil {
			return 0, err
		}
		return atomic.LoadUint64((*uint64)(p)), nil
	}
	dst, err := word(t.Dst.Dev)
	if err != nil {
		return err
	}
	src, err := word(t.Src.Dev)
	if err != nil {
		return err
	}
	n := t.Size
	if t.Value != 0 {
		if n, err = word(t.Value); err != nil {
			return err
		}
	}
	if n == 0 {
		return nil
	}
	dst, src = dst+t.DPitch, src+t.SPitch
	dp, err := b.resolve(hal.DevLoc(dst), n)
	if err != nil {
		return err
	}
	sp, err := b.resolve(hal.DevLoc(src), n)
	if err != nil {
		return err
	}
	copy(unsafe.Slice((*byte)(dp), n), unsafe.Slice((*byte)(sp), n))
	return nil
}
