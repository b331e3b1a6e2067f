package sim

import "github.com/gocann/gocann/hal"

// spanSet is a snapshot of every reserved device range, read without a
// lock by lookups and by the checks of kernel arguments.
type spanSet struct {
	all    []spanOf
	closed int // entries whose device is not open
}

// spanOf is one reserved range and the open device using it, if any.
type spanOf struct {
	m *devMem
	d *device // nil while the device is closed
}

func (sp spanOf) span() hal.Span {
	return hal.Span{Device: sp.m.dev, Lo: sp.m.base, Hi: sp.m.base + sp.m.hbm, Open: sp.d != nil}
}

// find returns the range holding addr.
func (s *spanSet) find(addr uint64) (spanOf, bool) {
	for _, sp := range s.all {
		if sp.m.inRange(addr) {
			return sp, true
		}
	}
	return spanOf{}, false
}

// guarding returns the range whose guard holds addr.
func (s *spanSet) guarding(addr uint64) (spanOf, bool) {
	for _, sp := range s.all {
		if sp.m.inGuard(addr) {
			return sp, true
		}
	}
	return spanOf{}, false
}

// closedIn reports the first of args that is an address in the range of a
// device that is not open, or in reserved virtual memory device dev has no
// access to: a kernel given one would touch memory that is gone. It costs
// two loads while no device has closed and nothing is reserved.
func (b *Backend) closedIn(dev int, args []uint64) error {
	if err := b.vm.kernelArgs(dev, args); err != nil {
		return err
	}
	set := b.spans.Load()
	if set.closed == 0 {
		return nil
	}
	for i, v := range args {
		if sp, ok := set.find(v); ok && sp.d == nil {
			return hal.Errorf(hal.KindInvalidAddress, "argument slot %d holds %#x, memory of device %d, which is not open", i, v, sp.m.dev)
		}
	}
	return nil
}

// closedKernel is closedIn for a task about to start: a kernel faults
// instead of running on such an argument.
func (b *Backend) closedKernel(dev int, t *hal.Task) error {
	if t.Kind != hal.TaskKernel {
		return nil
	}
	return b.closedIn(dev, t.Args[:t.NArgs])
}
