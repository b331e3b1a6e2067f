package sim

import (
	"os"
	"sync"

	"github.com/gocann/gocann/hal"
)

// A kernel's printed lines (kernel.Block.Print). The device shows what a
// kernel printed when its launch ends, a block's lines together and the
// blocks in order; here a one-block launch's lines are written as its
// block ends (the launches of a queue end in order), a larger launch's are
// kept by block and written when its last block ends, through the
// kernel's Emit.

// printed is what the blocks of a launch printed, by block.
type printed struct {
	mu  sync.Mutex
	out [][]byte
}

// output takes what part p of the launch it printed, if anything.
func (w *worker) output(it *item, p int32) {
	out := w.block.TakeOutput()
	if out == nil {
		return
	}
	if it.parts <= 1 {
		emitOut(it.t, out)
		return
	}
	it.printed.keep(p, it.parts, out)
}

func (pr *printed) keep(p, parts int32, out []byte) {
	pr.mu.Lock()
	if pr.out == nil {
		pr.out = make([][]byte, parts)
	}
	pr.out[p] = out
	pr.mu.Unlock()
}

// emit writes the kept lines of launch t in block order, and forgets them.
// Every block has ended.
func (pr *printed) emit(t *hal.Task) {
	if pr.out == nil {
		return
	}
	var all []byte
	for _, out := range pr.out {
		all = append(all, out...)
	}
	pr.out = nil
	emitOut(t, all)
}

func emitOut(t *hal.Task, out []byte) {
	if t != nil && t.Kernel != nil && t.Kernel.Emit != nil {
		t.Kernel.Emit(out)
		return
	}
	os.Stdout.Write(out) // a Go kernel's: nowhere else to say it
}
