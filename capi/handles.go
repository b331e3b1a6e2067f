package main

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// kind is the type of object a handle refers to.
type kind uint8

const (
	kindContext kind = iota + 1
	kindStream
	kindEvent
	kindNotify
	kindBinary
	kindFunc
	kindArgs
	kindParam
	kindModel
	kindModelStream
	kindModelTask
	kindTaskGroup
	kindCond
	kindLabel
	kindLabelList
	kindMemPool
	kindAllocDesc
	kindBuf
	kindDataBuffer
	kindCntNotify
	kindBinaryDesc
	kindProfConfig
	kindProfSubConfig
	kindProfStepInfo
	kindProfStamp
	numKinds
)

var kindNames = [numKinds]string{"", "context", "stream", "event", "notify", "binary", "function", "kernel args", "kernel parameter",
	"model run instance", "model stream", "model task", "task group", "condition", "label", "label list",
	"memory pool", "allocator descriptor", "shared buffer", "data buffer", "count notify", "binary description",
	"profiling configuration", "subscription configuration", "step information", "msproftx stamp"}

// A handle is what C code holds: kind (the top 8 bits), generation (the
// 32 bits below) and slot index + 1 (the low 24 bits) packed in one word.
// It is never a valid address: the kind sets a bit at or above 56, past
// user space even with 5-level paging and outside the canonical forms, so
// the garbage collector ignores it and a wild dereference faults.
type handle uintptr

const (
	handleKindShift = 56
	handleGenShift  = 24
	handleIndexBits = 24
	handleIndexMask = 1<<handleIndexBits - 1
)

func makeHandle(k kind, gen uint32, idx uint32) handle {
	return handle(uintptr(k)<<handleKindShift | uintptr(gen)<<handleGenShift | uintptr(idx+1)&handleIndexMask)
}

func (h handle) kind() kind    { return kind(uintptr(h) >> handleKindShift) }
func (h handle) gen() uint32   { return uint32(uintptr(h) >> handleGenShift) }
func (h handle) index() uint32 { return uint32(uintptr(h)&handleIndexMask) - 1 }

func handleOf(p unsafe.Pointer) handle { return handle(uintptr(p)) }

// entry is one live object in the table.
type entry struct {
	kind kind
	gen  uint32
	obj  any
}

const (
	chunkBits = 10
	chunkSize = 1 << chunkBits
	maxChunks = 1 << 12 // 4M live handles
)

// The largest index + 1 fits the handle's index bits (a negative constant
// does not convert to uint).
const _ = uint(1<<handleIndexBits - 1 - maxChunks*chunkSize)

type chunk [chunkSize]atomic.Pointer[entry]

// table maps handles to objects. Lookups take no lock: slots live in
// chunks that never move, and a slot's entry is replaced atomically.
type table struct {
	chunks [maxChunks]atomic.Pointer[chunk]

	// mu guards the fields below.
	mu   sync.Mutex
	used uint32   // slots ever handed out
	free []uint32 // released slots
	// gens is the next generation of each slot, from 1. A slot whose
	// generation would wrap to 0 is retired instead of freed: a handle of
	// its first generation could otherwise name its next object, and one
	// slot in 2^32 - 1 reuses is a small price.
	gens []uint32
}

// add stores obj and returns its new handle; ok is false when full.
func (t *table) add(k kind, obj any) (handle, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var idx uint32
	if n := len(t.free); n > 0 {
		idx = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		if t.used == maxChunks*chunkSize {
			return 0, false
		}
		idx = t.used
		t.used++
		if idx%chunkSize == 0 {
			t.chunks[idx/chunkSize].Store(new(chunk))
		}
		t.gens = append(t.gens, 1)
	}
	gen := t.gens[idx]
	t.chunks[idx/chunkSize].Load()[idx%chunkSize].Store(&entry{kind: k, gen: gen, obj: obj})
	return makeHandle(k, gen, idx), true
}

// get returns the object of h if h is live and of kind k.
func (t *table) get(h handle, k kind) (any, bool) {
	idx := h.index()
	if h.kind() != k || idx >= maxChunks*chunkSize {
		return nil, false
	}
	c := t.chunks[idx/chunkSize].Load()
	if c == nil {
		return nil, false
	}
	e := c[idx%chunkSize].Load()
	if e == nil || e.kind != k || e.gen != h.gen() {
		return nil, false
	}
	return e.obj, true
}

// remove releases h; it reports whether h was live and of kind k.
func (t *table) remove(h handle, k kind) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	idx := h.index()
	if h.kind() != k || idx >= t.used {
		return false
	}
	slot := &t.chunks[idx/chunkSize].Load()[idx%chunkSize]
	e := slot.Load()
	if e == nil || e.kind != k || e.gen != h.gen() {
		return false
	}
	slot.Store(nil)
	proc.direct.clear(idx) // the direct launch path forgets it too
	t.release(idx)
	return true
}

// release moves slot idx to its next generation and frees it, unless the
// generation wraps. t.mu held.
func (t *table) release(idx uint32) {
	t.gens[idx]++
	if t.gens[idx] != 0 {
		t.free = append(t.free, idx)
	}
}

// clear releases every live handle, as aclFinalize ends every object: a
// handle from before stays invalid after the next aclInit.
func (t *table) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for idx := uint32(0); idx < t.used; idx++ {
		slot := &t.chunks[idx/chunkSize].Load()[idx%chunkSize]
		if slot.Load() == nil {
			continue
		}
		slot.Store(nil)
		proc.direct.clear(idx)
		t.release(idx)
	}
}
