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
	"github.com/gocann/gocann/ckernel"
)

// The kernels of a static kernel library (ascendc_library STATIC) are
// linked into the program, and their <<<>>> launches, written by
// gocann/ascendc/gocann_launch.h, ask gocann_linked_kernel for a function
// handle before they launch with gocann_linked_launch: an
// aclrtLaunchKernelWithHostArgs without placeholders or configuration,
// and without its support check (a <<<>>> is no CANN call; IPV350, which
// lacks that one, launches kernels too). A handle
// is made at a kernel's first launch and, like a loaded binary's, lives
// until aclFinalize; the next launch after that makes a new one. The
// declaration of a gang kernel (kernel.Func.Gang) ends with a 0 byte and
// its flags byte (ckernel/gang.go): two bytes more than its parameters.

// linkedTable holds the linked kernels' function handles by entry.
type linkedTable struct {
	mu    sync.Mutex
	funcs map[uintptr]*cFunc
}

//export gocann_linked_kernel
func gocann_linked_kernel(t *C.gocann_thread, fnp unsafe.Pointer, name *C.char, decl *C.uchar, n C.size_t) C.aclrtFuncHandle {
	const fn = "<<<>>> launch"
	if fnp == nil || name == nil || decl == nil || n == 0 || n > 1+gocann.MaxArgs+2 {
		failf(t, fn, gocann.KindInvalidParam, "kernel entry %p, name or parameter declaration (%d bytes) is invalid", fnp, uint64(n))
		return nil
	}
	if _, code := rt(t, fn); code != 0 {
		return nil
	}
	lt := &proc.linked
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if f := lt.funcs[uintptr(fnp)]; f != nil {
		if obj, ok := proc.handles.get(f.h, kindFunc); ok && obj == f {
			return C.aclrtFuncHandle(C.gocann_handle(C.uintptr_t(f.h)))
		}
	}
	kname := C.GoString(name)
	hk, ps, err := ckernel.Linked(kname, fnp, C.GoBytes(unsafe.Pointer(decl), C.int(n)))
	if err != nil {
		fail(t, fn, gocann.Wrap(fn, err))
		return nil
	}
	f := &cFunc{k: gocann.NewKernel(hk), name: kname}
	sizes := make([]int, len(ps))
	for i, p := range ps {
		sizes[i] = p.Size
	}
	f.paramsOnce.Do(func() { f.params = sizes })
	h, ok := proc.handles.add(kindFunc, f)
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many live handles")
		return nil
	}
	f.h = h
	if lt.funcs == nil {
		lt.funcs = map[uintptr]*cFunc{}
	}
	lt.funcs[uintptr(fnp)] = f
	proc.fronts.Store(f.k, h)
	return C.aclrtFuncHandle(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_go_linked_launch
func gocann_go_linked_launch(t *C.gocann_thread, fp C.aclrtFuncHandle, blocks C.uint32_t, sp C.aclrtStream, args unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "<<<>>> launch"
	f, s, lc, code := launchTarget(t, fn, unsafe.Pointer(fp), nil, sp)
	if code != 0 {
		return code
	}
	return launchHostArgs(t, fn, f, nil, s, lc, uint32(blocks), args, size, nil, 0)
}
