package rt

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// staged is a page-locked buffer holding a pageable source until the copy
// task seq that reads it is done.
type staged struct {
	p     unsafe.Pointer
	class int // size class: 1<<class bytes
	seq   uint64
}

// stagingPool keeps page-locked staging buffers by power-of-two size class
// so async copies from pageable memory make no allocation in steady state.
type stagingPool struct {
	// mu guards the fields below.
	mu    sync.Mutex
	free  [64][]unsafe.Pointer
	bytes uint64 // bytes held in free
}

// stagingKeep bounds the bytes the pool keeps for reuse.
const stagingKeep = 256 << 20

func sizeClass(n uint64) int {
	if n <= 4096 {
		return 12
	}
	return bits.Len64(n - 1)
}

func (p *stagingPool) get(b hal.Backend, n uint64) (staged, error) {
	c := sizeClass(n)
	p.mu.Lock()
	if k := len(p.free[c]); k > 0 {
		ptr := p.free[c][k-1]
		p.free[c] = p.free[c][:k-1]
		p.bytes -= 1 << c
		p.mu.Unlock()
		return staged{p: ptr, class: c}, nil
	}
	p.mu.Unlock()
	ptr, err := b.MallocHost(1 << c)
	if err != nil {
		return staged{}, err
	}
	return staged{p: ptr, class: c}, nil
}

func (p *stagingPool) put(b hal.Backend, st staged) {
	size := uint64(1) << st.class
	if size > stagingKeep {
		b.FreeHost(st.p)
		return
	}
	// Keep the buffer just used; to stay within stagingKeep, free buffers
	// of other sizes, largest first.
	var evict []unsafe.Pointer
	p.mu.Lock()
	for c := len(p.free) - 1; c >= 0 && p.bytes+size > stagingKeep; c-- {
		for len(p.free[c]) > 0 && p.bytes+size > stagingKeep {
			k := len(p.free[c]) - 1
			evict = append(evict, p.free[c][k])
			p.free[c] = p.free[c][:k]
			p.bytes -= 1 << c
		}
	}
	p.free[st.class] = append(p.free[st.class], st.p)
	p.bytes += size
	p.mu.Unlock()
	for _, ptr := range evict {
		b.FreeHost(ptr)
	}
}

// drain frees every pooled buffer.
func (p *stagingPool) drain(b hal.Backend) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.free {
		for _, ptr := range p.free[c] {
			b.FreeHost(ptr)
		}
		p.free[c] = nil
	}
	p.bytes = 0
}

// stage copies n bytes of pageable host memory into a staging buffer.
func (s *Stream) stage(b hal.Backend, src hal.Loc, n uint64) (staged, error) {
	s.reclaim()
	st, err := s.c.d.r.staging.get(b, n)
	if err != nil {
		return staged{}, err
	}
	if err := s.c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(st.p), Src: src, Size: n}); err != nil {
		s.c.d.r.staging.put(b, st)
		return staged{}, err
	}
	return st, nil
}

// reclaim returns staging buffers of finished copies to the pool.
func (s *Stream) reclaim() {
	s.mu.Lock()
	if len(s.staged) == 0 {
		s.mu.Unlock()
		return
	}
	done := s.q.Completed()
	var back []staged
	kept := s.staged[:0]
	for _, st := range s.staged {
		if st.seq <= done {
			back = append(back, st)
		} else {
			kept = append(kept, st)
		}
	}
	clear(s.staged[len(kept):])
	s.staged = kept
	s.mu.Unlock()
	s.putBack(back)
}

// reclaimAll returns every staging buffer; the queue must be idle.
func (s *Stream) reclaimAll() {
	s.mu.Lock()
	back := s.staged
	s.staged = nil
	s.mu.Unlock()
	s.putBack(back)
}

func (s *Stream) putBack(back []staged) {
	if len(back) == 0 {
		return
	}
	b := s.c.d.b
	for _, st := range back {
		s.c.d.r.staging.put(b, st)
	}
}
