package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

func TestDataBufferDescribes(t *testing.T) {
	// A host-side descriptor: no runtime needed, the address and size come
	// back as given, and an update replaces both.
	d, err := gocann.NewDataBuffer(0x1000, 256)
	check(t, err)
	if d.Addr() != 0x1000 || d.Size() != 256 || d.Size32() != 256 {
		t.Fatalf("descriptor = %#x, %d, %d, want 0x1000, 256, 256", d.Addr(), d.Size(), d.Size32())
	}
	check(t, d.Update(0x2000, 1<<32+5))
	if d.Addr() != 0x2000 || d.Size() != 1<<32+5 {
		t.Fatalf("after Update = %#x, %d", d.Addr(), d.Size())
	}
	if d.Size32() != 5 {
		t.Fatalf("Size32 of 4 GiB + 5 = %d, want 5 (cut to 32 bits)", d.Size32())
	}
	check(t, d.Update(0, 0))
	if d.Addr() != 0 || d.Size() != 0 {
		t.Fatal("Update to an empty buffer did not take")
	}
}

func TestDataBufferEmptyAndRefusals(t *testing.T) {
	// "data may be NULL, an empty buffer; size must then be 0."
	d, err := gocann.NewDataBuffer(0, 0)
	check(t, err)
	if d.Addr() != 0 || d.Size() != 0 {
		t.Fatal("an empty buffer describes something")
	}
	_, err = gocann.NewDataBuffer(0, 16)
	wantErr(t, err, gocann.CodeInvalidParam, "data is NULL with size 16", "expected size 0")
	wantErr(t, d.Update(0, 1), gocann.CodeInvalidParam, "data is NULL with size 1")
	if d.Addr() != 0 || d.Size() != 0 {
		t.Fatal("a refused Update changed the descriptor")
	}
}
