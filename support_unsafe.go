package gocann

import (
	"sync/atomic"
	"unsafe"
)

// require runs on hot paths (event records and waits, launches, copies):
// its offered answers are cached by the function name's address. The
// names are literals, whose addresses stay, so a check after its first
// costs a few loads rather than a look-up in the support matrix; an entry
// holds the chip (product) it was answered for.

type offerEntry struct {
	p    *byte
	n    int
	chip int32
}

var offerCache [512]atomic.Pointer[offerEntry]

// offersCached is offers(fn) with the cache.
func (r *Runtime) offersCached(fn string) bool {
	c := r.chip.Load()
	p := unsafe.StringData(fn)
	slot := &offerCache[(uintptr(unsafe.Pointer(p))>>3)%uintptr(len(offerCache))]
	if e := slot.Load(); c != 0 && e != nil && e.p == p && e.n == len(fn) && e.chip == c {
		return true
	}
	if !r.offers(fn) {
		return false
	}
	if c = r.chip.Load(); c != 0 {
		slot.Store(&offerEntry{p: p, n: len(fn), chip: c})
	}
	return true
}
