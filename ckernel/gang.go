package ckernel

/*
#include <dlfcn.h>
#include <stdlib.h>
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// Gang kernels (kernel.Func.Gang): kernels whose blocks wait for one
// another. The compiler driver marks them (internal/asc): a linked
// kernel's declaration, which its launch site builds, ends with a 0 byte
// and a flags byte; a kernel of a binary has the flags byte in the symbol
// gocann_gang_<kernel>, which GOCANN_GANG_KERNEL (gocann/ascendc/
// gocann_gang.h) defines.

// gangMarker is the prefix of the symbol holding a binary kernel's flags.
const gangMarker = "gocann_gang_"

// Flags: bit 0 marks a gang kernel, bits 4 and 5 hold its kernel.CoreKind.
const (
	flagGang      = 0x01
	flagCoreShift = 4
	flagCoreMask  = 0x30
)

// splitFlags splits a declaration into its parameter kinds and its flags
// byte (0 if it has none).
func splitFlags(decl []byte, name, where string) ([]byte, byte, error) {
	for i := 1; i < len(decl); i++ {
		if decl[i] != 0 {
			continue
		}
		if len(decl) != i+2 {
			return nil, 0, rterr.Errorf(rterr.KindInvalidParam,
				"the declaration of kernel %q in %s has %d bytes after its parameters, expected one flags byte", name, where, len(decl)-i-1)
		}
		return decl[:i], decl[i+1], nil
	}
	return decl, 0, nil
}

// markGang sets k's gang mark and core kind from flags.
func markGang(k *kernel.Func, flags byte) {
	k.Gang = flags&flagGang != 0
	k.Cores = kernel.CoreKind(flags & flagCoreMask >> flagCoreShift)
}

// gangFlags reads the flags byte of binary kernel name, 0 if it has none.
// b.mu must be held.
func (b *Binary) gangFlags(name string) byte {
	cname := C.CString(gangMarker + name)
	defer C.free(unsafe.Pointer(cname))
	p := C.dlsym(b.handle, cname)
	if p == nil {
		return 0
	}
	return *(*byte)(p)
}
