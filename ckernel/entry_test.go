package ckernel_test

import (
	"testing"

	"github.com/gocann/gocann/ckernel"
	"github.com/gocann/gocann/internal/rterr"
)

// Entry, CodeSize and NameAt describe a kernel by its code; Containing
// finds the loaded shared object a function pointer is in.
func TestEntryAndCode(t *testing.T) {
	path := build(t)
	b, err := ckernel.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Unload()
	add, err := b.Entry("add")
	if err != nil || add == 0 {
		t.Fatalf("Entry(add) = %#x, %v", add, err)
	}
	nop, err := b.Entry("nop")
	if err != nil || nop == add {
		t.Fatalf("Entry(nop) = %#x, %v; want another address than add's %#x", nop, err, add)
	}
	if _, err := b.Entry("absent"); rterr.KindOf(err) != rterr.KindSymbolNotFound {
		t.Fatalf("Entry(absent) = %v, want KindSymbolNotFound", err)
	}
	n, err := b.CodeSize("add")
	if err != nil || n == 0 {
		t.Fatalf("CodeSize(add) = %d, %v; want the size of its code", n, err)
	}
	if _, err := b.CodeSize("absent"); rterr.KindOf(err) != rterr.KindSymbolNotFound {
		t.Fatalf("CodeSize(absent) = %v, want KindSymbolNotFound", err)
	}
	if name, err := b.NameAt(add); err != nil || name != "add" {
		t.Fatalf("NameAt(add's entry) = %q, %v", name, err)
	}
	for _, at := range []uintptr{0, add + 1} {
		if _, err := b.NameAt(at); rterr.KindOf(err) != rterr.KindSymbolNotFound {
			t.Fatalf("NameAt(%#x) = %v, want KindSymbolNotFound", at, err)
		}
	}
	file, sym, err := ckernel.Containing(add)
	if err != nil || sym != "add" || file == "" {
		t.Fatalf("Containing(add) = %q, %q, %v", file, sym, err)
	}
	if _, _, err := ckernel.Containing(add + 1); rterr.KindOf(err) != rterr.KindSymbolNotFound {
		t.Fatalf("Containing(inside add) = %v, want KindSymbolNotFound", err)
	}
	if _, _, err := ckernel.Containing(0); rterr.KindOf(err) != rterr.KindSymbolNotFound {
		t.Fatalf("Containing(0) = %v, want KindSymbolNotFound", err)
	}
	// The test program itself is not a shared object: its functions are
	// refused.
	if _, _, err := ckernel.Containing(ckernel.ProgramFunction()); rterr.KindOf(err) != rterr.KindNotSupported {
		t.Fatalf("Containing(a function of the program) = %v, want KindNotSupported", err)
	}
	if err := b.Unload(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Entry("add"); rterr.KindOf(err) != rterr.KindInvalidHandle {
		t.Fatalf("Entry after Unload = %v, want KindInvalidHandle", err)
	}
}
