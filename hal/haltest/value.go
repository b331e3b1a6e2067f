package haltest

import (
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

func testValueWrite(e *env) {
	t := e.t
	q := e.queue()
	a := e.malloc(e.d, 64)
	storeWord(t, e.d, a.Addr+8, 0x5555)
	e.submit(q, valueWrite(a.Addr+16, 0xfedcba9876543210))
	e.submit(q, valueWrite(a.Addr+24, 1))
	e.submit(q, valueWrite(a.Addr+24, 2))
	e.wait(q)
	for off, want := range map[uint64]uint64{0: 0, 8: 0x5555, 16: 0xfedcba9876543210, 24: 2, 32: 0} {
		if v := loadWord(t, e.d, a.Addr+off); v != want {
			t.Errorf("word at offset %d is %#x, want %#x", off, v, want)
		}
	}
}

// A value wait case: the word starts at init; miss is a later value that
// still does not satisfy the wait, hit one that does.
type valueCase struct {
	name            string
	flag            uint32
	value           uint64
	init, miss, hit uint64
}

const top = 1 << 63

func valueCases() []valueCase {
	return []valueCase{
		{"GEQ", hal.WaitGEQ, 10, 9, 3, 11},
		{"GEQ equal", hal.WaitGEQ, 10, 0, 9, 10},
		// The difference is taken as a signed number, so counters may wrap.
		{"GEQ wrapped past", hal.WaitGEQ, ^uint64(0) - 1, ^uint64(0) - 5, ^uint64(0) - 2, 3},
		{"GEQ far above", hal.WaitGEQ, 5, 0, 5 + top, 5 + top - 1},
		{"EQ", hal.WaitEQ, 42, 41, 43, 42},
		{"AND", hal.WaitAND, 0b1010, 0b0101, 0b0001, 0b1000},
		{"NOR", hal.WaitNOR, ^uint64(0xff), 0xff, 0xffff, 0x7f},
	}
}

// testValueWaitImmediate checks that a wait whose condition already holds
// does not wait.
func testValueWaitImmediate(e *env) {
	t := e.t
	sat := []struct {
		flag        uint32
		value, word uint64
	}{
		{hal.WaitGEQ, 10, 10}, {hal.WaitGEQ, 10, 11}, {hal.WaitGEQ, ^uint64(0) - 1, 1},
		{hal.WaitEQ, 42, 42}, {hal.WaitAND, 0b1010, 0b0010}, {hal.WaitNOR, ^uint64(0xff), 0},
		{hal.WaitNOR, 0, ^uint64(0) - 1},
	}
	q := e.queue()
	a := e.malloc(e.d, 8)
	for _, c := range sat {
		if !hal.ValueMatches(c.word, c.value, c.flag) {
			t.Fatalf("hal.ValueMatches(%#x, %#x, %d) is false", c.word, c.value, c.flag)
		}
		storeWord(t, e.d, a.Addr, c.word)
		e.submit(q, valueWait(a.Addr, c.value, c.flag))
		if err := waitSeq(q, q.Submitted(), patience); err != nil {
			t.Fatalf("value wait flag %d value %#x on word %#x: %v", c.flag, c.value, c.word, err)
		}
	}
	if fs := q.TakeFaults(q.Submitted()); fs != nil {
		t.Errorf("faults %+v", fs)
	}
}

// testValueWaitLater runs one wait per case, each on its own queue: none
// passes on its initial word, nor on a write of a value that does not match,
// and each passes on a write of one that does, written by a kernel on
// another queue (byKernel) or by the host through Device.Pointer.
func testValueWaitLater(e *env, byKernel bool) {
	t := e.t
	cs := valueCases()
	a := e.malloc(e.d, uint64(8*len(cs)))
	qs := make([]hal.Queue, len(cs))
	ran := make([]atomic.Bool, len(cs))
	for i, c := range cs {
		if hal.ValueMatches(c.init, c.value, c.flag) || hal.ValueMatches(c.miss, c.value, c.flag) || !hal.ValueMatches(c.hit, c.value, c.flag) {
			t.Fatalf("case %s disagrees with hal.ValueMatches", c.name)
		}
		storeWord(t, e.d, a.Addr+8*uint64(i), c.init)
		qs[i] = e.queue()
		e.submit(qs[i], valueWait(a.Addr+8*uint64(i), c.value, c.flag))
		e.submit(qs[i], hostTask(func() { ran[i].Store(true) }))
	}
	writer := e.queue()
	write := func(pick func(c valueCase) uint64) {
		if !byKernel {
			for i, c := range cs {
				storeWord(t, e.d, a.Addr+8*uint64(i), pick(c))
			}
			return
		}
		var args []uint64
		for i, c := range cs {
			args = append(args, a.Addr+8*uint64(i), pick(c))
		}
		e.submit(writer, kernelTask("haltest_store", len(cs), func(b *kernel.Block) {
			b.Store64(b.Arg(2*b.Idx()), b.Arg(2*b.Idx()+1))
		}, args...))
		e.wait(writer)
	}
	blocked := func(when string) {
		t.Helper()
		if !pendingAfterSettle(qs[0], 1) {
			t.Errorf("case %s: the wait passed %s", cs[0].name, when)
		}
		for i, q := range qs {
			if q.Completed() != 0 || ran[i].Load() {
				t.Errorf("case %s: the wait passed %s", cs[i].name, when)
			}
		}
	}
	blocked("on its initial value")
	write(func(c valueCase) uint64 { return c.miss })
	blocked("on a value that does not match")
	write(func(c valueCase) uint64 { return c.hit })
	for i, q := range qs {
		if err := waitSeq(q, 2, patience); err != nil {
			t.Errorf("case %s: %v", cs[i].name, err)
		}
		if !ran[i].Load() {
			t.Errorf("case %s: the task after the wait did not run", cs[i].name)
		}
	}
}
