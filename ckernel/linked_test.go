package ckernel_test

import (
	"context"
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/ckernel"
	"github.com/gocann/gocann/internal/rterr"
)

// TestLinked: a kernel known by its entry and a launch site's declaration
// runs like a loaded one; bad declarations are refused.
func TestLinked(t *testing.T) {
	so := build(t)
	_, c, s := setup(t)
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Unload()
	put, err := bin.Kernel("put")
	if err != nil {
		t.Fatal(err)
	}
	// The entry is C code's address, not Go memory.
	entry := *(*unsafe.Pointer)(unsafe.Pointer(&put.Entry))
	hk, ps, err := ckernel.Linked("put", entry, []byte{'G', 0x18, 0x28, 0x28})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[0].Kind != ckernel.ParamPointer || ps[2].Size != 8 {
		t.Fatalf("parameters %+v, want a pointer and two 8-byte integers", ps)
	}
	out, _ := c.Malloc(8*4, gocann.NormalOnly)
	if err := s.Launch(gocann.NewKernel(hk), 1, gocann.Ptr(out), gocann.U64(2), gocann.U64(0xfeed)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8*4)
	c.CopyFromDevice(buf, out)
	if got := binary.LittleEndian.Uint64(buf[16:]); got != 0xfeed {
		t.Fatalf("the linked kernel wrote %#x to slot 2, want 0xfeed", got)
	}
	for _, bad := range []struct {
		decl []byte
		fn   unsafe.Pointer
		kind rterr.Kind
	}{
		{[]byte{'X', 0x18}, entry, rterr.KindInvalidParam},
		{[]byte{'G', 0x19}, entry, rterr.KindInvalidParam},
		{append([]byte{'G'}, make([]byte, 33)...), entry, rterr.KindInvalidParam},
		{[]byte{'G'}, nil, rterr.KindBadArgument},
	} {
		if _, _, err := ckernel.Linked("put", bad.fn, bad.decl); rterr.KindOf(err) != bad.kind {
			t.Errorf("Linked(%x, %p): %v, want kind %v", bad.decl, bad.fn, err, bad.kind)
		}
	}
}
