package sim

import "github.com/gocann/gocann/hal"

// Physical allocations of the VMM take exactly their size out of a
// device's range, aligned to their page, and bypass the cache: they are
// counted as they are asked for, and their pages go back to the OS as soon
// as they are freed.

// allocExact reserves exactly size bytes, a multiple of page, aligned to
// page.
func (a *allocator) allocExact(size, page uint64) (uint64, error) {
	if size == 0 || size%page != 0 {
		return 0, hal.Errorf(hal.KindInvalidParam, "size %d is invalid, expected a positive multiple of %d", size, page)
	}
	if err := a.takeBudget(size, size); err != nil {
		return 0, err
	}
	if size <= a.size-a.usedBytes {
		addr, ok := a.take(size, page)
		if !ok && a.cache.bytes > 0 {
			a.flush()
			addr, ok = a.take(size, page)
		}
		if ok {
			a.addLive(newSpan(addr, size, size, page))
			return addr, nil
		}
	}
	a.giveBudget(size)
	return 0, hal.Errorf(hal.KindOutOfMemory,
		"out of memory: requested %d bytes of physical memory at %d-byte alignment, %d bytes free, largest free extent %d bytes",
		size, page, a.size-a.usedBytes, a.largestFree())
}

// freeExact frees an allocation of allocExact straight to the free list.
func (a *allocator) freeExact(addr uint64) error {
	i, found := a.find(addr)
	if !found {
		return a.badFree(addr)
	}
	s := a.live[i]
	a.live = append(a.live[:i], a.live[i+1:]...)
	a.usedBytes -= s.reserved
	a.giveBudget(s.reserved)
	a.giveBack(s.start, s.reserved)
	return nil
}
