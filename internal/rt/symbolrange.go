package rt

import (
	"cmp"
	"slices"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// A loaded C binary's globals are process memory, yet on the device they
// are device memory: copies, memsets and value operations take their
// addresses as device ends, and aclrtPointerGetAttributes reports a device
// location for them. hostSymbols finds the global holding an address.

// hostSymbols are the live host symbols, sorted by address. The symbol
// table's mu guards list; n is len(list), read without it so that a check
// of an ordinary host pointer costs a load while no binary with globals
// is loaded.
type hostSymbols struct {
	n    atomic.Int32
	list []*Symbol
}

func (h *hostSymbols) find(addr uint64) (int, bool) {
	return slices.BinarySearchFunc(h.list, addr, func(s *Symbol, a uint64) int { return cmp.Compare(s.addr, a) })
}

func (h *hostSymbols) add(s *Symbol) {
	i, _ := h.find(s.addr)
	h.list = slices.Insert(h.list, i, s)
	h.n.Store(int32(len(h.list)))
}

func (h *hostSymbols) remove(s *Symbol) {
	if i, ok := h.find(s.addr); ok && h.list[i] == s {
		h.list = slices.Delete(h.list, i, i+1)
		h.n.Store(int32(len(h.list)))
	}
}

func (h *hostSymbols) reset() {
	h.list = nil
	h.n.Store(0)
}

// hostSymbol returns the host symbol holding addr, if any.
func (r *Runtime) hostSymbol(addr uint64) (*Symbol, bool) {
	t := &r.symbols
	if t.hosts.n.Load() == 0 {
		return nil, false
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	i, ok := t.hosts.find(addr)
	if !ok {
		if i == 0 {
			return nil, false
		}
		i--
	}
	s := t.hosts.list[i]
	if addr-s.addr < max(s.size, 1) {
		return s, true
	}
	return nil, false
}

// inside checks that [addr, addr+n), which starts in host symbol s, lies
// inside it.
func (s *Symbol) inside(param string, addr, n uint64) error {
	if off := addr - s.addr; n > s.size-off {
		return rterr.Errorf(rterr.KindInvalidAddress, "%s range [%#x, %#x) runs past device symbol %q [%#x, %#x)",
			param, addr, addr+n, s.name, s.addr, s.addr+s.size)
	}
	return nil
}

// onHost reports whether l is host memory to a copy's direction: host
// memory that is no binary's global.
func (r *Runtime) onHost(l hal.Loc) bool {
	if !l.IsHost() {
		return false
	}
	_, sym := r.hostSymbol(l.Addr())
	return !sym
}

// onSymbols are the host symbols a task's ends fall in; the zero value,
// none, is what every task not touching a binary's global has.
type onSymbols [2]*Symbol

// symbolsOf finds the host symbols holding the task ends given.
func (r *Runtime) symbolsOf(ends ...hal.Loc) (on onSymbols) {
	if r.symbols.hosts.n.Load() == 0 {
		return on
	}
	for i, l := range ends[:min(len(ends), 2)] {
		on[i], _ = r.hostSymbol(l.Addr())
	}
	// Locked in address order (submitOn), once each.
	switch {
	case on[0] == on[1]:
		on[1] = nil
	case on[0] != nil && on[1] != nil && on[1].addr < on[0].addr:
		on[0], on[1] = on[1], on[0]
	}
	return on
}

// submitOn submits t, whose ends fall in the host symbols on, as the
// symbol copies are: refused on a capturing or model-bound stream, since a
// model could replay it after the binary is unloaded, and remembered by
// each symbol so that the unload waits for it.
func (st *Stream) submitOn(t *hal.Task, on onSymbols) (uint64, error) {
	if on == (onSymbols{}) {
		return st.submit(t)
	}
	if st.divert.Load() != nil || st.persistent {
		return 0, rterr.Errorf(rterr.KindNotSupported, "a task on the global %q of a kernel binary on stream %d, which is capturing or bound to a model, is not supported: a model could run it after the binary is unloaded",
			cmp.Or(on[0], on[1]).name, st.id)
	}
	for _, s := range on {
		if s != nil {
			s.mu.Lock()
			defer s.mu.Unlock()
			if err := s.check(); err != nil {
				return 0, err
			}
		}
	}
	seq, err := st.submit(t)
	if err != nil {
		return 0, err
	}
	for _, s := range on {
		if s != nil {
			if s.pending == nil {
				s.pending = make(map[*Stream]uint64)
			}
			s.pending[st] = seq
		}
	}
	return seq, nil
}
