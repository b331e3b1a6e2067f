package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Data buffers (aclDataBuffer in acl/acl_base_rt.h). They are host-side
// descriptors that need no runtime: made before aclInit, they still serve
// after aclFinalize, so they live in a table of their own that aclFinalize
// leaves alone. Each is a handle of kindDataBuffer, never reused.

type dataBufTable struct {
	// mu guards the fields below.
	mu   sync.Mutex
	next uint64 // handles handed out
	live map[handle]*gocann.DataBuffer
}

// add returns a new handle for d; ok is false once every handle value of
// the kind was handed out.
func (t *dataBufTable) add(d *gocann.DataBuffer) (handle, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.next == 1<<handleKindShift-1 {
		return 0, false
	}
	t.next++
	h := handle(uintptr(kindDataBuffer)<<handleKindShift | uintptr(t.next))
	if t.live == nil {
		t.live = map[handle]*gocann.DataBuffer{}
	}
	t.live[h] = d
	return h, true
}

func (t *dataBufTable) get(h handle) (*gocann.DataBuffer, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d, ok := t.live[h]
	return d, ok
}

func (t *dataBufTable) remove(h handle) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.live[h]
	delete(t.live, h)
	return ok
}

func dataBufOf(t *C.gocann_thread, fn string, p *C.aclDataBuffer) (*gocann.DataBuffer, C.aclError) {
	if d, ok := proc.dataBufs.get(handleOf(unsafe.Pointer(p))); ok {
		return d, 0
	}
	return nil, badHandle(t, fn, "dataBuffer", unsafe.Pointer(p), kindDataBuffer)
}

// addr is the address of p as a number; a data buffer keeps it so.
func addr(p unsafe.Pointer) uintptr { return uintptr(p) }

//export gocann_aclCreateDataBuffer
func gocann_aclCreateDataBuffer(t *C.gocann_thread, data unsafe.Pointer, size C.size_t) *C.aclDataBuffer {
	const fn = "aclCreateDataBuffer"
	d, err := gocann.NewDataBuffer(addr(data), uint64(size))
	if err != nil {
		fail(t, fn, err)
		return nil
	}
	h, ok := proc.dataBufs.add(d)
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many data buffers created")
		return nil
	}
	return (*C.aclDataBuffer)(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclDestroyDataBuffer
func gocann_aclDestroyDataBuffer(t *C.gocann_thread, p *C.aclDataBuffer) C.aclError {
	const fn = "aclDestroyDataBuffer"
	if !proc.dataBufs.remove(handleOf(unsafe.Pointer(p))) {
		return badHandle(t, fn, "dataBuffer", unsafe.Pointer(p), kindDataBuffer)
	}
	return 0
}

//export gocann_aclUpdateDataBuffer
func gocann_aclUpdateDataBuffer(t *C.gocann_thread, p *C.aclDataBuffer, data unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclUpdateDataBuffer"
	if code := unsupported(t, "aclUpdateDataBuffer"); code != 0 {
		return code
	}
	d, code := dataBufOf(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, d.Update(addr(data), uint64(size)))
}

// dataBufQuery returns the descriptor p for a getter: NULL answers
// nothing (as CANN, a NULL or zero answer, no error), a dead one records
// the error.
func dataBufQuery(t *C.gocann_thread, fn string, p *C.aclDataBuffer) *gocann.DataBuffer {
	if p == nil {
		return nil
	}
	d, _ := dataBufOf(t, fn, p)
	return d
}

//export gocann_aclGetDataBufferAddr
func gocann_aclGetDataBufferAddr(t *C.gocann_thread, p *C.aclDataBuffer) unsafe.Pointer {
	d := dataBufQuery(t, "aclGetDataBufferAddr", p)
	if d == nil {
		return nil
	}
	return C.gocann_handle(C.uintptr_t(d.Addr()))
}

//export gocann_aclGetDataBufferSize
func gocann_aclGetDataBufferSize(t *C.gocann_thread, p *C.aclDataBuffer) C.uint32_t {
	d := dataBufQuery(t, "aclGetDataBufferSize", p)
	if d == nil {
		return 0
	}
	return C.uint32_t(d.Size32())
}

//export gocann_aclGetDataBufferSizeV2
func gocann_aclGetDataBufferSizeV2(t *C.gocann_thread, p *C.aclDataBuffer) C.size_t {
	d := dataBufQuery(t, "aclGetDataBufferSizeV2", p)
	if d == nil {
		return 0
	}
	return C.size_t(d.Size())
}
