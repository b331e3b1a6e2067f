package ckernel

import (
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// Linked returns a kernel linked into the program itself, as a static
// kernel library's are (ascendc_library STATIC), launched with <<<>>>:
// fn is its entry, decl its GOCANN_KERNEL_PARAMS-style declaration, which
// the launch site builds from the kernel's parameter types, followed by a
// 0 byte and a flags byte for a gang kernel (gang.go). Such code is never
// unloaded.
func Linked(name string, fn unsafe.Pointer, decl []byte) (*kernel.Func, []Param, error) {
	if fn == nil {
		return nil, nil, rterr.Errorf(rterr.KindBadArgument, "kernel %q has no entry address", name)
	}
	const where = "the program"
	decl, flags, err := splitFlags(decl, name, where)
	if err != nil {
		return nil, nil, err
	}
	ps, err := declared(decl, name, where)
	if err != nil {
		return nil, nil, err
	}
	fp, err := floatMask(ps, name, where)
	if err != nil {
		return nil, nil, err
	}
	installFaults()
	k := &kernel.Func{Name: name, Fn: func(blk *kernel.Block) {
		if failure := callBlock(fn, blk, blk.Args(), fp); failure != nil {
			panic(failure)
		}
	}, Emit: emit}
	markGang(k, flags)
	return k, ps, nil
}
