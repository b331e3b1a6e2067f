package ckernel

/*
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>

// base_of is the load address of the object handle h names.
static void *base_of(void *h) {
	struct link_map *m = NULL;
	if (dlinfo(h, RTLD_DI_LINKMAP, &m) != 0 || m == NULL) {
		return NULL;
	}
	return (void *)m->l_addr;
}
*/
import "C"

import (
	"bytes"
	"debug/elf"
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
)

// Global is a global variable a binary exports: a data object of its
// dynamic symbol table, at its address in this process.
type Global struct {
	Name string
	Addr unsafe.Pointer
	Size uint64
}

// Globals lists the binary's exported variables: its device symbols. Their
// bytes are the loaded object's own, which its kernels read and write.
func (b *Binary) Globals() ([]Global, error) {
	f, err := elf.NewFile(bytes.NewReader(b.image))
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidFile, err, "reading the symbols of %s", b.name)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, nil // no dynamic symbols: no globals
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return nil, rterr.Errorf(rterr.KindInvalidHandle, "kernel binary %s was unloaded", b.name)
	}
	var out []Global
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_OBJECT || s.Section == elf.SHN_UNDEF || s.Size == 0 {
			continue
		}
		if bind := elf.ST_BIND(s.Info); bind != elf.STB_GLOBAL && bind != elf.STB_WEAK {
			continue
		}
		cname := C.CString(s.Name)
		p := C.dlsym(b.handle, cname)
		C.free(unsafe.Pointer(cname))
		if p != nil {
			out = append(out, Global{Name: s.Name, Addr: p, Size: s.Size})
		}
	}
	return out, nil
}

// Image is where the loaded object starts in this process and the size of
// its file (aclrtBinaryGetDevAddress): a host shared object is its own
// device image.
func (b *Binary) Image() (unsafe.Pointer, uint64, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return nil, 0, rterr.Errorf(rterr.KindInvalidHandle, "kernel binary %s was unloaded", b.name)
	}
	return C.base_of(b.handle), uint64(len(b.image)), nil
}
