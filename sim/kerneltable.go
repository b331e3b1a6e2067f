package sim

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

var _ hal.KernelNumberer = (*queue)(nil)

// KernelID numbers k for SQ entries; the numbering is the backend's, so an
// entry means the same kernel on every queue.
func (q *queue) KernelID(k *kernel.Func) uint32 { return q.s.dev.b.kernels.id(k) }

func (q *queue) ForgetKernel(k *kernel.Func) { q.s.dev.b.kernels.forget(k) }

// kernelTable numbers kernels for SQ entries, which cannot hold a
// *kernel.Func. Numbers start at 1 and are never reused; lookups take no
// lock, as the scheduler makes one per direct launch. A forgotten kernel's
// number maps to a stand-in that faults, so the table keeps nothing of the
// kernel's code alive.
type kernelTable struct {
	// mu guards ids and the replacing of list.
	mu   sync.Mutex
	ids  map[*kernel.Func]uint32
	list atomic.Pointer[[]*kernel.Func] // list[id-1]; replaced, never written in place
}

// id returns k's number, numbering it on first use.
func (t *kernelTable) id(k *kernel.Func) uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[k]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = make(map[*kernel.Func]uint32)
	}
	var list []*kernel.Func
	if p := t.list.Load(); p != nil {
		list = *p
	}
	list = append(list[:len(list):len(list)], k)
	t.list.Store(&list)
	id := uint32(len(list))
	t.ids[k] = id
	return id
}

// kernel returns the kernel numbered id, or nil.
func (t *kernelTable) kernel(id uint32) *kernel.Func {
	p := t.list.Load()
	if p == nil || id == 0 || int(id) > len(*p) {
		return nil
	}
	return (*p)[id-1]
}

// forget replaces k's entry by a stand-in that faults when run.
func (t *kernelTable) forget(k *kernel.Func) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, ok := t.ids[k]
	if !ok {
		return
	}
	delete(t.ids, k)
	name := k.Name
	list := slices.Clone(*t.list.Load())
	list[id-1] = &kernel.Func{Name: name, Fn: func(*kernel.Block) { panic(fmt.Sprintf("kernel %q: its binary was unloaded", name)) }}
	t.list.Store(&list)
}
