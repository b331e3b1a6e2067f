package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// A physical memory handle (aclrtDrvMemHandle) is the runtime's number for
// the allocation under a kind byte of its own, past every address as the
// table's handles are (handles.go): numbers are never reused, so a freed
// handle stays refused, and a retained one is the same value.
const physTag = 0x3e << handleKindShift

func physHandle(h gocann.PhysicalMem) unsafe.Pointer {
	v := uintptr(h) | physTag
	return *(*unsafe.Pointer)(unsafe.Pointer(&v))
}

// physOf reads a physical memory handle; a NULL one is the caller's
// missing argument, one of another kind an invalid handle.
func physOf(t *C.gocann_thread, fn string, p C.aclrtDrvMemHandle) (gocann.PhysicalMem, C.aclError) {
	if p == nil {
		return 0, nullArg(t, fn, "handle")
	}
	v := uintptr(unsafe.Pointer(p))
	if v&^(1<<handleKindShift-1) != physTag {
		return 0, failf(t, fn, gocann.KindInvalidHandle, "handle %p is not a physical memory handle (aclrtMallocPhysical)", unsafe.Pointer(p))
	}
	return gocann.PhysicalMem(v &^ physTag), 0
}

// atAddr runs a call whose one argument is a virtual address: the runtime
// itself names an address that is NULL or not its own.
func atAddr(t *C.gocann_thread, fn string, p unsafe.Pointer, call func(*gocann.Runtime, gocann.DevPtr) error) C.aclError {
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, call(r, devPtr(p)))
}

// rtPhys is the runtime and the physical memory handle a call works on, in
// that order of checks: no runtime is refused before a bad handle.
func rtPhys(t *C.gocann_thread, fn string, p C.aclrtDrvMemHandle) (*gocann.Runtime, gocann.PhysicalMem, C.aclError) {
	r, code := rt(t, fn)
	if code != 0 {
		return nil, 0, code
	}
	h, code := physOf(t, fn, p)
	if code != 0 {
		return nil, 0, code
	}
	return r, h, 0
}

// addrPtr is a device address as the pointer C takes.
func addrPtr(a gocann.DevPtr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&a)) }

func devPtr(p unsafe.Pointer) gocann.DevPtr { return gocann.DevPtr(uintptr(p)) }

func physProp(p *C.aclrtPhysicalMemProp) gocann.PhysicalMemProp {
	return gocann.PhysicalMemProp{HandleType: uint32(p.handleType), AllocationType: uint32(p.allocationType),
		MemAttr: gocann.MemAttr(p.memAttr), LocType: uint32(p.location._type), LocID: uint32(p.location.id), Reserve: uint64(p.reserve)}
}

//export gocann_aclrtMemGetAllocationGranularity
func gocann_aclrtMemGetAllocationGranularity(t *C.gocann_thread, prop *C.aclrtPhysicalMemProp, option C.aclrtMemGranularityOptions, out *C.size_t) C.aclError {
	const fn = "aclrtMemGetAllocationGranularity"
	switch {
	case prop == nil:
		return nullArg(t, fn, "prop")
	case out == nil:
		return nullArg(t, fn, "granularity")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	g, err := r.MemAllocationGranularity(physProp(prop), uint32(option))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.size_t(g)
	return 0
}

func reserve(t *C.gocann_thread, fn string, out *unsafe.Pointer, size, alignment C.size_t, expect unsafe.Pointer, flags C.uint64_t, noUC bool) C.aclError {
	if out == nil {
		return nullArg(t, fn, "virPtr")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	reserveFn := r.ReserveMemAddress
	if noUC {
		reserveFn = r.ReserveMemAddressNoUC
	}
	p, err := reserveFn(uint64(size), uint64(alignment), devPtr(expect), uint64(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = addrPtr(p)
	return 0
}

//export gocann_aclrtReserveMemAddress
func gocann_aclrtReserveMemAddress(t *C.gocann_thread, out *unsafe.Pointer, size, alignment C.size_t, expect unsafe.Pointer, flags C.uint64_t) C.aclError {
	return reserve(t, "aclrtReserveMemAddress", out, size, alignment, expect, flags, false)
}

//export gocann_aclrtReserveMemAddressNoUCMemory
func gocann_aclrtReserveMemAddressNoUCMemory(t *C.gocann_thread, out *unsafe.Pointer, size, alignment C.size_t, expect unsafe.Pointer, flags C.uint64_t) C.aclError {
	return reserve(t, "aclrtReserveMemAddressNoUCMemory", out, size, alignment, expect, flags, true)
}

//export gocann_aclrtReleaseMemAddress
func gocann_aclrtReleaseMemAddress(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	return atAddr(t, "aclrtReleaseMemAddress", p, (*gocann.Runtime).ReleaseMemAddress)
}

//export gocann_aclrtMallocPhysical
func gocann_aclrtMallocPhysical(t *C.gocann_thread, out *C.aclrtDrvMemHandle, size C.size_t, prop *C.aclrtPhysicalMemProp, flags C.uint64_t) C.aclError {
	const fn = "aclrtMallocPhysical"
	switch {
	case out == nil:
		return nullArg(t, fn, "handle")
	case prop == nil:
		return nullArg(t, fn, "prop")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	h, err := r.MallocPhysical(uint64(size), physProp(prop), uint64(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.aclrtDrvMemHandle(physHandle(h))
	return 0
}

//export gocann_aclrtFreePhysical
func gocann_aclrtFreePhysical(t *C.gocann_thread, p C.aclrtDrvMemHandle) C.aclError {
	const fn = "aclrtFreePhysical"
	r, h, code := rtPhys(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.FreePhysical(h))
}

func mapMem(t *C.gocann_thread, fn string, p unsafe.Pointer, size, offset C.size_t, hp C.aclrtDrvMemHandle, flags C.uint64_t, access bool) C.aclError {
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	if p == nil {
		return nullArg(t, fn, "virPtr")
	}
	h, code := physOf(t, fn, hp)
	if code != 0 {
		return code
	}
	mapFn := r.MapMem
	if !access {
		mapFn = r.MemMapNoAccess
	}
	return fail(t, fn, mapFn(devPtr(p), uint64(size), uint64(offset), h, uint64(flags)))
}

//export gocann_aclrtMapMem
func gocann_aclrtMapMem(t *C.gocann_thread, p unsafe.Pointer, size, offset C.size_t, h C.aclrtDrvMemHandle, flags C.uint64_t) C.aclError {
	return mapMem(t, "aclrtMapMem", p, size, offset, h, flags, true)
}

//export gocann_aclrtMemMapNoAccess
func gocann_aclrtMemMapNoAccess(t *C.gocann_thread, p unsafe.Pointer, size, offset C.size_t, h C.aclrtDrvMemHandle, flags C.uint64_t) C.aclError {
	return mapMem(t, "aclrtMemMapNoAccess", p, size, offset, h, flags, false)
}

//export gocann_aclrtUnmapMem
func gocann_aclrtUnmapMem(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	return atAddr(t, "aclrtUnmapMem", p, (*gocann.Runtime).UnmapMem)
}

//export gocann_aclrtMemSetAccess
func gocann_aclrtMemSetAccess(t *C.gocann_thread, p unsafe.Pointer, size C.size_t, desc *C.aclrtMemAccessDesc, count C.size_t) C.aclError {
	const fn = "aclrtMemSetAccess"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	// CANN's runtime checks these, as invalid values (107000).
	switch {
	case p == nil:
		return failf(t, fn, gocann.KindInvalidParam, "virPtr is NULL, expected a mapped address")
	case desc == nil:
		return failf(t, fn, gocann.KindInvalidParam, "desc is NULL, expected %d access descriptors", count)
	}
	if code := checkArray(t, fn, "count", unsafe.Pointer(desc), count, unsafe.Sizeof(*desc)); code != 0 {
		return code
	}
	ds := make([]gocann.MemAccessDesc, count)
	for i, d := range unsafe.Slice(desc, count) {
		ds[i] = gocann.MemAccessDesc{Flags: gocann.MemAccess(d.flags), LocType: uint32(d.location._type), LocID: uint32(d.location.id)}
	}
	return fail(t, fn, r.MemSetAccess(devPtr(p), uint64(size), ds...))
}

//export gocann_aclrtMemGetAccess
func gocann_aclrtMemGetAccess(t *C.gocann_thread, p unsafe.Pointer, loc *C.aclrtMemLocation, flag *C.uint64_t) C.aclError {
	const fn = "aclrtMemGetAccess"
	switch {
	case p == nil:
		return nullArg(t, fn, "virPtr")
	case loc == nil:
		return nullArg(t, fn, "location")
	case flag == nil:
		return nullArg(t, fn, "flag")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	f, err := r.MemGetAccess(devPtr(p), uint32(loc._type), uint32(loc.id))
	if err != nil {
		return fail(t, fn, err)
	}
	*flag = C.uint64_t(f)
	return 0
}

//export gocann_aclrtMemRetainAllocationHandle
func gocann_aclrtMemRetainAllocationHandle(t *C.gocann_thread, p unsafe.Pointer, out *C.aclrtDrvMemHandle) C.aclError {
	const fn = "aclrtMemRetainAllocationHandle"
	switch {
	case p == nil:
		return nullArg(t, fn, "virPtr")
	case out == nil:
		return nullArg(t, fn, "handle")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	h, err := r.RetainAllocation(devPtr(p))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.aclrtDrvMemHandle(physHandle(h))
	return 0
}

//export gocann_aclrtMemGetAllocationPropertiesFromHandle
func gocann_aclrtMemGetAllocationPropertiesFromHandle(t *C.gocann_thread, hp C.aclrtDrvMemHandle, prop *C.aclrtPhysicalMemProp) C.aclError {
	const fn = "aclrtMemGetAllocationPropertiesFromHandle"
	r, h, code := rtPhys(t, fn, hp)
	if code != 0 {
		return code
	}
	if prop == nil {
		return nullArg(t, fn, "prop")
	}
	p, err := r.PhysicalMemProperties(h)
	if err != nil {
		return fail(t, fn, err)
	}
	prop.handleType = C.aclrtMemHandleType(p.HandleType)
	prop.allocationType = C.aclrtMemAllocationType(p.AllocationType)
	prop.memAttr = C.aclrtMemAttr(p.MemAttr)
	prop.location._type = C.aclrtMemLocationType(p.LocType)
	prop.location.id = C.uint32_t(p.LocID)
	prop.reserve = C.uint64_t(p.Reserve)
	return 0
}

//export gocann_aclrtMemMapSelectedLink
func gocann_aclrtMemMapSelectedLink(t *C.gocann_thread, dst unsafe.Pointer, size C.size_t, src unsafe.Pointer, link C.uint32_t) C.aclError {
	const fn = "aclrtMemMapSelectedLink"
	switch {
	case dst == nil:
		return nullArg(t, fn, "virPtrDst")
	case src == nil:
		return nullArg(t, fn, "virPtrSrc")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.MemMapSelectedLink(devPtr(dst), uint64(size), devPtr(src), uint32(link)))
}

//export gocann_aclrtMemMapSetLink
func gocann_aclrtMemMapSetLink(t *C.gocann_thread, hp C.aclrtDrvMemHandle, link C.aclrtMemLinkType) C.aclError {
	const fn = "aclrtMemMapSetLink"
	r, h, code := rtPhys(t, fn, hp)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.MemMapSetLink(h, uint32(link)))
}
