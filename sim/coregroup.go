package sim

import "github.com/gocann/gocann/hal"

// Capability groups: the AI cores of a group are a pool its kernels share
// (hal.Task.Group). A part of a grouped kernel takes a core of the pool as
// it starts and gives it back as it ends; while every core of a pool is
// busy its kernels are parked off the engine's heap, so a full group never
// holds back a kernel of another group or of the whole device.

// corePool is one group's cores. Guarded by the scheduler's mu.
type corePool struct {
	cores   int32   // the group's AI cores
	running int32   // parts of its kernels running now
	parked  []*item // its items with parts left, off the heap while running == cores
}

func (p *corePool) full() bool { return p.running >= p.cores }

// initPools sizes the pools of the device's groups.
func (s *scheduler) initPools(groups *[hal.MaxCoreGroups]hal.CoreGroup) {
	for i, g := range groups {
		s.pools[i].cores = int32(g.AICores)
	}
}

// poolOf is the pool whose cores t's blocks run on, nil for the whole
// device: an AI core kernel of an existing group.
func (s *scheduler) poolOf(t *hal.Task) *corePool {
	if t.Kind != hal.TaskKernel || t.Group == 0 || int(t.Group) > hal.MaxCoreGroups || (t.Kernel != nil && t.Kernel.CPU) {
		return nil
	}
	if p := &s.pools[t.Group-1]; p.cores > 0 {
		return p
	}
	return nil
}

// parkPool parks every item of p in the heap: p's cores are all busy.
// s.mu must be held.
func (e *engine) parkPool(p *corePool) {
	start := len(p.parked)
	for _, it := range e.heap {
		if it.pool == p {
			p.parked = append(p.parked, it)
		}
	}
	for _, it := range p.parked[start:] {
		e.remove(it)
		it.parked = true
	}
}

// releasePool gives back the core a part of one of p's kernels held, and
// returns p's parked items to the heap. s.mu must be held.
func (e *engine) releasePool(p *corePool) {
	p.running--
	if g := e.gang; g != nil && g.pool == p {
		e.admit(g, nil, 0)
	}
	if len(p.parked) == 0 {
		return
	}
	for i, it := range p.parked {
		p.parked[i] = nil
		it.parked = false
		e.push(it)
	}
	p.parked = p.parked[:0]
}

// withdraw takes an item that has not started off the engine, whether in
// the heap or parked. s.mu must be held.
func (e *engine) withdraw(it *item) {
	if e.gang == it {
		e.dropGang(it)
		return
	}
	if it.parked {
		p := it.pool
		for i, o := range p.parked {
			if o == it {
				p.parked = append(p.parked[:i], p.parked[i+1:]...)
				break
			}
		}
		it.parked = false
		return
	}
	if it.hidx >= 0 {
		e.remove(it)
	}
}
