package sim

import (
	"os"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
)

// budget is a device's memory capacity shared with the other processes of
// a machine (shared.Device): an allocation's bytes are taken from it before
// the allocator looks for room, and given back when it is freed.
type budget interface {
	Take(n uint64) bool
	Give(n uint64)
	Used() uint64
}

// takeBudget takes reserved bytes for an allocation of size bytes from the
// shared capacity, if there is one.
func (a *allocator) takeBudget(size, reserved uint64) error {
	if a.budget == nil || a.budget.Take(reserved) {
		return nil
	}
	used := a.budget.Used()
	return hal.Errorf(hal.KindOutOfMemory,
		"out of memory: requested %d bytes (%d reserved), the device's processes hold %d of its %d bytes (%d by this one)",
		size, reserved, used, a.size, a.usedBytes)
}

func (a *allocator) giveBudget(n uint64) {
	if a.budget != nil {
		a.budget.Give(n)
	}
}

// attachMachine joins the machine cfg names, if any.
func attachMachine(cfg Config) (*shared.Machine, error) {
	if cfg.Machine == "" {
		return nil, nil
	}
	m, err := shared.Attach(cfg.MachineDir, cfg.Machine)
	switch {
	case err != nil && cfg.MachineBestEffort:
		cfg.Logger.Warn("the devices are this process's own: the simulated machine cannot be joined", "machine", cfg.Machine, "err", err)
		return nil, nil
	case err != nil:
		return nil, hal.Wrap(hal.KindInternal, err, "joining simulated machine %q", cfg.Machine)
	}
	return m, nil
}

// shareMemory makes device d's memory count against its physical device's
// capacity on the machine, when the machine has that device with the same
// capacity. b.mu must be held.
func (b *Backend) shareMemory(id int, m *devMem) {
	if b.machine == nil {
		return
	}
	acct, ok := b.machine.Device(b.ident.ids[id].Physical, m.hbm)
	if !ok {
		b.cfg.Logger.Warn("device memory not shared: the machine has this physical device with another capacity",
			"device", id, "physical", b.ident.ids[id].Physical, "hbm", m.hbm)
		return
	}
	m.mu.Lock()
	if m.alloc != nil {
		m.alloc.budget = acct
	}
	m.mu.Unlock()
}

// BareTgid is the process id the devices know this process by
// (aclrtDeviceGetBareTgid): the one other processes put on whitelists.
func (b *Backend) BareTgid() int32 {
	if b.machine != nil {
		return b.machine.Pid()
	}
	return int32(os.Getpid())
}
