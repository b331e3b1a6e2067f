package ckernel

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// ParamKind is what a kernel parameter holds, as GOCANN_KERNEL_PARAMS
// (gocann/kernel.h) declares it or the binary's debug information types it.
type ParamKind uint8

// Parameter kinds: the high four bits of GOCANN_PARAM_*.
const (
	ParamPointer ParamKind = 1 // GOCANN_PARAM_PTR
	ParamInt     ParamKind = 2 // GOCANN_PARAM_INT8 .. GOCANN_PARAM_INT64
	ParamFloat   ParamKind = 3 // GOCANN_PARAM_FLOAT
	ParamDouble  ParamKind = 4 // GOCANN_PARAM_DOUBLE
)

// Param is one kernel parameter.
type Param struct {
	Kind ParamKind
	Size int // bytes
}

// declMagic starts every gocann_params_<kernel> symbol.
const declMagic = 'G'

// Params returns the byte size of each parameter of kernel name, needed to
// pack arguments given one pointer per parameter
// (aclrtLaunchKernelWithArgsArray).
func (b *Binary) Params(name string) ([]int, error) {
	ps, err := b.Parameters(name)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(ps))
	for i, p := range ps {
		sizes[i] = p.Size
	}
	return sizes, nil
}

// Parameters returns kernel name's parameters: from its declaration, the
// symbol gocann_params_<name> that GOCANN_KERNEL_PARAMS defines, or failing
// that from the binary's debug information (built with -g).
func (b *Binary) Parameters(name string) ([]Param, error) {
	ef, err := elf.NewFile(bytes.NewReader(b.image))
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidParam, err, "reading %s", b.name)
	}
	defer ef.Close()
	if decl, ok := symbolBytes(ef, "gocann_params_"+name); ok {
		return declared(decl, name, b.name)
	}
	if ps, ok := dwarfParams(ef, name); ok {
		return ps, nil
	}
	return nil, rterr.Errorf(rterr.KindInvalidParam,
		"parameters of kernel %q in %s are unknown: build it with -g, or declare them with GOCANN_KERNEL_PARAMS(%s, GOCANN_PARAM_...) from gocann/kernel.h", name, b.name, name)
}

// declared decodes a GOCANN_KERNEL_PARAMS declaration.
func declared(decl []byte, name, bin string) ([]Param, error) {
	sym := "gocann_params_" + name
	if len(decl) == 0 || decl[0] != declMagic {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "%s in %s is not a GOCANN_KERNEL_PARAMS declaration (expected it to start with 'G')", sym, bin)
	}
	decl = decl[1:]
	if len(decl) > kernel.MaxArgs {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "%s in %s declares %d parameters, expected at most %d", sym, bin, len(decl), kernel.MaxArgs)
	}
	ps := make([]Param, len(decl))
	for i, c := range decl {
		p := Param{Kind: ParamKind(c >> 4), Size: int(c & 0xf)}
		ok := false
		switch p.Kind {
		case ParamPointer:
			ok = p.Size == 8
		case ParamInt:
			ok = p.Size == 1 || p.Size == 2 || p.Size == 4 || p.Size == 8
		case ParamFloat:
			ok = p.Size == 4
		case ParamDouble:
			ok = p.Size == 8
		}
		if !ok {
			return nil, rterr.Errorf(rterr.KindInvalidParam, "%s in %s declares parameter %d as %#x, expected a GOCANN_PARAM_* kind", sym, bin, i, c)
		}
		ps[i] = p
	}
	return ps, nil
}

// dwarfParams reads the parameters of function name from DWARF.
func dwarfParams(ef *elf.File, name string) ([]Param, bool) {
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
			return []Param{}, true // a definition with nothing inside: no parameters
		}
		var ps []Param
		for {
			c, err := r.Next()
			if err != nil || c == nil || c.Tag == 0 {
				return ps, true
			}
			if c.Tag == dwarf.TagFormalParameter {
				p := Param{Kind: ParamInt, Size: 8}
				if off, ok := c.Val(dwarf.AttrType).(dwarf.Offset); ok {
					if t, err := d.Type(off); err == nil {
						p = dwarfParam(t)
					}
				}
				ps = append(ps, p)
			}
			if c.Children {
				r.SkipChildren()
			}
		}
	}
}

// dwarfParam is the kind and size of a parameter of type t.
func dwarfParam(t dwarf.Type) Param {
	for {
		switch u := t.(type) {
		case *dwarf.TypedefType:
			t = u.Type
			continue
		case *dwarf.QualType:
			t = u.Type
			continue
		case *dwarf.PtrType:
			return Param{Kind: ParamPointer, Size: 8}
		case *dwarf.FloatType:
			if u.Size() == 4 {
				return Param{Kind: ParamFloat, Size: 4}
			}
			return Param{Kind: ParamDouble, Size: int(u.Size())}
		}
		size := 8
		if t != nil && t.Size() > 0 {
			size = int(t.Size())
		}
		return Param{Kind: ParamInt, Size: size}
	}
}

// symbolBytes returns the contents of an exported data symbol.
func symbolBytes(ef *elf.File, sym string) ([]byte, bool) {
	syms, err := ef.DynamicSymbols()
	if err != nil {
		return nil, false
	}
	for _, s := range syms {
		if s.Name != sym || s.Size == 0 {
			continue
		}
		for _, sec := range ef.Sections {
			if sec.Type == elf.SHT_PROGBITS && s.Value >= sec.Addr && s.Value-sec.Addr <= sec.Size && s.Size <= sec.Addr+sec.Size-s.Value {
				data, err := sec.Data()
				if err != nil {
					return nil, false
				}
				off := s.Value - sec.Addr
				return data[off : off+s.Size], true
			}
		}
	}
	return nil, false
}
