package gocann_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/gocann/gocann"
)

func TestGlobalRoundTrip(t *testing.T) {
	// A Go kernel reads what the host wrote to its global, and the host
	// reads back what the kernel wrote.
	e := setup(t)
	g, err := e.c.NewGlobal("scale", 16)
	check(t, err)
	t.Cleanup(func() { g.Close() })
	if got, err := e.r.Global("scale"); err != nil || got != g {
		t.Fatalf("Global(scale) = %v, %v; want the global made", got, err)
	}
	if g.Size() != 16 || g.Name() != "scale" || g.Ptr() == 0 {
		t.Errorf("global: name %q, size %d, address %#x", g.Name(), g.Size(), uint64(g.Ptr()))
	}
	k, err := e.r.RegisterKernel("scale_by_global", func(b *gocann.Block) {
		v := gocann.View[uint64](b, b.Arg(0).Ptr(), 2)
		v[1] = v[0] * 3
	})
	check(t, err)
	var in [8]byte
	binary.LittleEndian.PutUint64(in[:], 14)
	check(t, e.c.CopyToSymbol(g, 0, in[:]))
	check(t, e.s.Launch(k, 1, gocann.Ptr(g.Ptr())))
	syncOK(t, e.s)
	out := make([]byte, 8)
	check(t, e.c.CopyFromSymbol(out, g, 8))
	if v := binary.LittleEndian.Uint64(out); v != 42 {
		t.Fatalf("the kernel wrote %d after reading the global, want 42", v)
	}

	// Asynchronous copies, in stream order, bytes compared.
	h, err := e.r.MallocHost(16)
	check(t, err)
	defer h.Close()
	copy(h.Bytes(), "0123456789abcdef")
	check(t, e.s.CopyToSymbol(g, 4, h, 0, 12))
	back, err := e.r.MallocHost(16)
	check(t, err)
	defer back.Close()
	check(t, e.s.CopyFromSymbol(back, 0, g, 0, 16))
	syncOK(t, e.s)
	want := append(append([]byte{}, in[:4]...), "0123456789ab"...)
	if !bytes.Equal(back.Bytes(), want) {
		t.Fatalf("global reads %q after the async copies, want %q", back.Bytes(), want)
	}

	// Refusals.
	wantErr(t, e.c.CopyToSymbol(g, 10, in[:]), gocann.CodeInvalidParam, "offset 10 + count 8", "size 16")
	wantErr(t, e.c.CopyFromSymbol(out, g, 9), gocann.CodeInvalidParam, "offset 9 + count 8")
	wantErr(t, e.c.CopyToSymbol(g, -1, in[:]), gocann.CodeInvalidParam, "offset -1")
	wantErr(t, e.s.CopyToSymbol(g, 8, h, 0, 16), gocann.CodeInvalidParam, "offset 8 + count 16")
	_, err = e.r.Global("nope")
	wantErr(t, err, gocann.CodeRTSymbolNotFound, `"nope"`)
	_, err = e.c.NewGlobal("scale", 8)
	wantErr(t, err, gocann.CodeRTParamInvalid, `"scale"`, "already registered")
	_, err = e.c.NewGlobal("x", 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "size 0")
	wantErr(t, e.c.Free(g.Ptr()), gocann.CodeRTParamInvalid, "runtime owns")

	check(t, g.Close())
	wantErr(t, g.Close(), gocann.CodeRTInvalidSymbol, "already dropped")
	wantErr(t, e.c.CopyToSymbol(g, 0, in[:]), gocann.CodeRTInvalidSymbol, "dropped")
	_, err = e.r.Global("scale")
	wantErr(t, err, gocann.CodeRTSymbolNotFound, "scale")
}
