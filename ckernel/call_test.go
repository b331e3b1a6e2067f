package ckernel_test

import (
	"testing"

	"github.com/gocann/gocann/ckernel"
	"github.com/gocann/gocann/kernel"
)

// TestBlockCallAllocatesNothing: running a block of a C kernel, and a batch
// of them, allocates nothing: the failure record stays on the caller's
// stack until a block fails.
func TestBlockCallAllocatesNothing(t *testing.T) {
	bin, err := ckernel.LoadFile(build(t))
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Unload()
	nop, err := bin.Kernel("nop")
	if err != nil {
		t.Fatal(err)
	}
	var blk kernel.Block
	blk.Reset(0, 1, nil, nil)
	if n := testing.AllocsPerRun(100, func() { nop.Fn(&blk) }); n != 0 {
		t.Errorf("a block's call allocates %v times", n)
	}
	calls := []kernel.BatchCall{{Kernel: nop}, {Kernel: nop}, {Kernel: nop}}
	bin.RunBatch(calls) // fills the binary's buffer pool
	if n := testing.AllocsPerRun(100, func() { bin.RunBatch(calls) }); n != 0 {
		t.Errorf("a batch's call allocates %v times", n)
	}
}
