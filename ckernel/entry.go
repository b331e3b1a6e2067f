package ckernel

/*
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

// find_symbol describes the symbol at addr: the object holding it, the
// symbol's name and start. 0 if no symbol covers addr.
static int find_symbol(uintptr_t addr, const char **file, const char **name, uintptr_t *start, uintptr_t *base) {
	Dl_info info;
	if (dladdr((void *)addr, &info) == 0) {
		return 0;
	}
	*file = info.dli_fname;
	*name = info.dli_sname;
	*start = (uintptr_t)info.dli_saddr;
	*base = (uintptr_t)info.dli_fbase;
	return 1;
}

// is_loaded reports whether the shared object path is loaded, without
// loading it.
static int is_loaded(const char *path) {
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (h == NULL) {
		return 0;
	}
	dlclose(h);
	return 1;
}
// gocann_ckernel_probe is a function of the program itself, for the tests
// of Containing.
int gocann_ckernel_probe(void) { return 0; }
*/
import "C"

import (
	"bytes"
	"debug/elf"
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
)

// Entry returns the address of kernel name's code: the exported function
// itself.
func (b *Binary) Entry(name string) (uintptr, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return 0, rterr.Errorf(rterr.KindInvalidHandle, "kernel binary %s was unloaded", b.name)
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	fn := C.dlsym(b.handle, cname)
	if fn == nil {
		return 0, rterr.Errorf(rterr.KindSymbolNotFound, "kernel %q is not exported by %s", name, b.name)
	}
	return uintptr(fn), nil
}

// CodeSize returns the size in bytes of kernel name's code, as the
// binary's dynamic symbol table records it.
func (b *Binary) CodeSize(name string) (uint64, error) {
	ef, err := elf.NewFile(bytes.NewReader(b.image))
	if err != nil {
		return 0, rterr.Wrap(rterr.KindInvalidParam, err, "reading %s", b.name)
	}
	defer ef.Close()
	syms, err := ef.DynamicSymbols()
	if err != nil {
		return 0, rterr.Wrap(rterr.KindInvalidParam, err, "reading the symbols of %s", b.name)
	}
	for _, s := range syms {
		if s.Name == name && elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF {
			return s.Size, nil
		}
	}
	return 0, rterr.Errorf(rterr.KindSymbolNotFound, "kernel %q is not a function of %s", name, b.name)
}

// NameAt returns the name of the kernel of b whose code starts at entry.
func (b *Binary) NameAt(entry uintptr) (string, error) {
	var file, name *C.char
	var start, base C.uintptr_t
	if entry == 0 || C.find_symbol(C.uintptr_t(entry), &file, &name, &start, &base) == 0 || name == nil || uintptr(start) != entry {
		return "", rterr.Errorf(rterr.KindSymbolNotFound, "no function of %s starts at %#x", b.name, entry)
	}
	kname := C.GoString(name)
	if at, err := b.Entry(kname); err != nil || at != entry {
		return "", rterr.Errorf(rterr.KindSymbolNotFound, "the function at %#x (%s) is not a kernel of %s", entry, kname, b.name)
	}
	return kname, nil
}

// Containing names the loaded shared object whose exported function
// starts at addr, and the function. The program itself is not searched:
// its functions are not exported to dlsym, so its kernels are built into
// a shared object.
func Containing(addr uintptr) (path, name string, err error) {
	var file, sym *C.char
	var start, base C.uintptr_t
	if addr == 0 || C.find_symbol(C.uintptr_t(addr), &file, &sym, &start, &base) == 0 || file == nil {
		return "", "", rterr.Errorf(rterr.KindSymbolNotFound, "symbol %#x is not in the program or a shared object it loaded", addr)
	}
	path = C.GoString(file)
	if C.is_loaded(file) == 0 {
		return "", "", rterr.Errorf(rterr.KindNotSupported,
			"symbol %#x is in the program itself, not a shared object: build the kernel into a shared object (gcc -shared -fPIC) and load it", addr)
	}
	if sym == nil || uintptr(start) != addr {
		return "", "", rterr.Errorf(rterr.KindSymbolNotFound, "symbol %#x in %s is not the start of an exported function", addr, path)
	}
	return path, C.GoString(sym), nil
}

// programFunction is the address of a function of this package's C code,
// which is linked into the program itself: Containing refuses it.
func programFunction() uintptr { return uintptr(unsafe.Pointer(C.gocann_ckernel_probe)) }
