package ckernel

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"

	"github.com/gocann/gocann/internal/rterr"
)

// Params returns the byte size of each parameter of kernel name, needed to
// pack arguments given one pointer per parameter
// (aclrtLaunchKernelWithArgsArray). It reads the binary's debug
// information (build with -g) or, failing that, a uint32 symbol
// gocann_params_<name> holding the count of 8-byte parameters
// (GOCANN_KERNEL_PARAMS in gocann/kernel.h).
func (b *Binary) Params(name string) ([]int, error) {
	ef, err := elf.NewFile(bytes.NewReader(b.image))
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidParam, err, "reading %s", b.name)
	}
	defer ef.Close()
	if sizes, ok := dwarfParams(ef, name); ok {
		return sizes, nil
	}
	if n, ok := symbolCount(ef, "gocann_params_"+name); ok {
		sizes := make([]int, n)
		for i := range sizes {
			sizes[i] = 8
		}
		return sizes, nil
	}
	return nil, rterr.Errorf(rterr.KindInvalidParam,
		"parameters of kernel %q in %s are unknown: build it with -g, or declare GOCANN_KERNEL_PARAMS(%s, n)", name, b.name, name)
}

// dwarfParams reads the parameter sizes of function name from DWARF.
func dwarfParams(ef *elf.File, name string) ([]int, bool) {
	d, err := ef.DWARF()
	if err != nil {
		return nil, false
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return nil, false
		}
		if e.Tag != dwarf.TagSubprogram || e.Val(dwarf.AttrName) != name {
			if e.Tag != dwarf.TagCompileUnit && e.Children {
				r.SkipChildren()
			}
			continue
		}
		if decl, _ := e.Val(dwarf.AttrDeclaration).(bool); decl {
			if e.Children {
				r.SkipChildren()
			}
			continue
		}
		if !e.Children {
			return []int{}, true // a definition with nothing inside: no parameters
		}
		var sizes []int
		for {
			c, err := r.Next()
			if err != nil || c == nil || c.Tag == 0 {
				return sizes, true
			}
			if c.Tag == dwarf.TagFormalParameter {
				size := 8
				if off, ok := c.Val(dwarf.AttrType).(dwarf.Offset); ok {
					if t, err := d.Type(off); err == nil && t.Size() > 0 {
						size = int(t.Size())
					}
				}
				sizes = append(sizes, size)
			}
			if c.Children {
				r.SkipChildren()
			}
		}
	}
}

// symbolCount reads a uint32 data symbol.
func symbolCount(ef *elf.File, sym string) (int, bool) {
	syms, err := ef.DynamicSymbols()
	if err != nil {
		return 0, false
	}
	for _, s := range syms {
		if s.Name != sym || s.Size < 4 {
			continue
		}
		for _, sec := range ef.Sections {
			if s.Value >= sec.Addr && s.Value+4 <= sec.Addr+sec.Size && sec.Type == elf.SHT_PROGBITS {
				data, err := sec.Data()
				if err != nil {
					return 0, false
				}
				off := s.Value - sec.Addr
				return int(binary.LittleEndian.Uint32(data[off : off+4])), true
			}
		}
	}
	return 0, false
}
