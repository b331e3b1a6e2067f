package sim

import (
	"log/slog"
	"runtime"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// Config configures a simulated backend. Zero fields take defaults.
type Config struct {
	Devices int       // number of devices; default 2
	Profile hal.Props // chip profile of every device; zero fields take those of ProfileFor(Profile.SoCName)
	// Clock returns the device clock in nanoseconds; default: monotonic time
	// since the backend was created.
	Clock func() int64
	// Logger receives diagnostics; default: discard.
	Logger *slog.Logger
	// DMAWorkers is the number of copy workers per device; default: the
	// number of CPUs, at least 2.
	DMAWorkers int
	// Space keeps the devices' memory ranges reserved past the backend, for
	// the next backend given the same space; default: a space of the
	// backend's own, released when it closes.
	Space *AddressSpace
	// Topology is how the devices are connected and which pairs can
	// access each other's memory; default: every pair, over HCCS.
	Topology Topology
	// Visible are the logical devices (0..Devices-1) the backend shows, in
	// order, as ASCEND_RT_VISIBLE_DEVICES selects them: device id i is
	// logical device Visible[i]. Default: all of them.
	Visible []int
	// PhysicalIDs is the physical chip of each logical device, as in a
	// container; default: its own number.
	PhysicalIDs []int
	// VMMBase and VMMSize place the window virtual memory is reserved
	// from, ManagedBase and ManagedSize the one managed memory is; default:
	// where CANN documents them (DefaultVMMBase, DefaultManagedBase), or
	// out of the race detector's shadow memory in race builds.
	VMMBase, VMMSize         uint64
	ManagedBase, ManagedSize uint64

	// Machine names the simulated machine the backend's devices are part
	// of: processes (backends) naming the same one share its devices'
	// memory capacity and can share memory, events and notifies
	// (sim/shared). Empty: the devices are the backend's own.
	Machine string
	// MachineDir is where the machine's file lives; default shared.Dir.
	MachineDir string
	// MachineBestEffort keeps the devices the backend's own, with a
	// warning, when the machine cannot be joined (no usable /dev/shm).
	MachineBestEffort bool

	monoBase       int64 // CLOCK_MONOTONIC at clock 0 for the default clock, else 0
	managedDefault bool  // the managed window is the default one
}

// DefaultDevices is the device count of a Config that names none.
const DefaultDevices = 2

// withDefaults fills zero fields and checks the result.
func (c Config) withDefaults() (Config, error) {
	if c.Devices == 0 {
		c.Devices = DefaultDevices
	}
	if c.Devices < 1 || c.Devices > 64 {
		return c, hal.Errorf(hal.KindInvalidParam, "device count %d is invalid, expected 1..64", c.Devices)
	}
	p := &c.Profile
	d, err := ProfileFor(p.SoCName)
	if err != nil {
		return c, err
	}
	p.SoCName = d.SoCName
	fill := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&p.AICores, d.AICores)
	fill(&p.CubeCores, d.CubeCores)
	fill(&p.VectorCores, d.VectorCores)
	fill(&p.AICPUs, d.AICPUs)
	fill(&p.StreamLimit, d.StreamLimit)
	fill(&p.EventLimit, d.EventLimit)
	fill(&p.NotifyLimit, d.NotifyLimit)
	fill(&p.QueueDepth, d.QueueDepth)
	if p.HBMSize == 0 {
		p.HBMSize = d.HBMSize
	}
	if p.L2Size == 0 {
		p.L2Size = d.L2Size
	}
	if p.OpTimeoutInterval == 0 {
		p.OpTimeoutInterval = d.OpTimeoutInterval
	}
	if p.GreatestPriority == 0 && p.LeastPriority == 0 {
		p.GreatestPriority, p.LeastPriority = d.GreatestPriority, d.LeastPriority
	}
	switch {
	case p.AICores < 1 || p.AICores > 4096:
		return c, hal.Errorf(hal.KindInvalidParam, "AI core count %d is invalid, expected 1..4096", p.AICores)
	case p.HBMSize < 64<<20 || p.HBMSize > 1<<40:
		return c, hal.Errorf(hal.KindInvalidParam, "HBM size %d is invalid, expected 64 MiB..1 TiB", p.HBMSize)
	case p.StreamLimit < 2:
		return c, hal.Errorf(hal.KindInvalidParam, "stream limit %d is invalid, expected >= 2", p.StreamLimit)
	case p.QueueDepth < 2 || p.QueueDepth&(p.QueueDepth-1) != 0:
		return c, hal.Errorf(hal.KindInvalidParam, "queue depth %d is invalid, expected a power of two >= 2", p.QueueDepth)
	case p.GreatestPriority > p.LeastPriority:
		return c, hal.Errorf(hal.KindInvalidParam, "priority range [%d, %d] is invalid, expected greatest <= least", p.GreatestPriority, p.LeastPriority)
	case p.OpTimeoutInterval < time.Microsecond || p.OpTimeoutInterval > time.Hour:
		return c, hal.Errorf(hal.KindInvalidParam, "operator timeout interval %v is invalid, expected 1µs..1h", p.OpTimeoutInterval)
	case p.CubeCores < 0 || p.VectorCores < 0 || p.AICPUs < 0 || p.EventLimit < 1 || p.NotifyLimit < 1:
		return c, hal.Errorf(hal.KindInvalidParam, "profile %+v has a negative or zero limit", *p)
	}
	if err := checkGroups(p); err != nil {
		return c, err
	}
	if c.Clock == nil {
		start := time.Now()
		c.Clock = func() int64 { return int64(time.Since(start)) }
		// Go's monotonic time is CLOCK_MONOTONIC: producers in C stamp
		// launches with it (hal.SQ.ClockBase).
		var ts unix.Timespec
		if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) == nil {
			c.monoBase = max(1, ts.Nano()-c.Clock())
		}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.VMMBase == 0 && c.VMMSize == 0 {
		c.VMMBase, c.VMMSize = defaultVMMBase, defaultVMMSize
	}
	if c.ManagedBase == 0 && c.ManagedSize == 0 {
		c.ManagedBase, c.ManagedSize = defaultManagedBase, defaultManagedSize
		c.managedDefault = true
	}
	if err := checkVMMWindows(c.VMMBase, c.VMMSize, c.ManagedBase, c.ManagedSize); err != nil {
		return c, err
	}
	if c.DMAWorkers == 0 {
		c.DMAWorkers = max(2, runtime.GOMAXPROCS(0))
	}
	if c.DMAWorkers < 1 || c.DMAWorkers > 256 {
		return c, hal.Errorf(hal.KindInvalidParam, "DMA worker count %d is invalid, expected 1..256", c.DMAWorkers)
	}
	return c, nil
}

// clockBase returns CLOCK_MONOTONIC in ns at device clock 0, if the clock
// is the default one.
func (c *Config) clockBase() (int64, bool) { return c.monoBase, c.monoBase != 0 }

// checkGroups checks the capability groups fit the chip, as the driver
// creating them would: together no more cores of a kind than it has, at
// most one default group.
func checkGroups(p *hal.Props) error {
	var ai, vec, cpu uint32
	def := -1
	for id, g := range p.Groups {
		if !g.Exists() {
			if g != (hal.CoreGroup{}) {
				return hal.Errorf(hal.KindInvalidParam, "capability group %d has no AI cores, expected at least 1", id)
			}
			continue
		}
		ai, vec, cpu = ai+g.AICores, vec+g.VectorCores, cpu+g.AICPUs
		if g.Default {
			if def >= 0 {
				return hal.Errorf(hal.KindInvalidParam, "capability groups %d and %d are both the default, expected at most one", def, id)
			}
			def = id
		}
	}
	switch {
	case ai > uint32(p.AICores):
		return hal.Errorf(hal.KindInvalidParam, "capability groups take %d AI cores, expected at most the chip's %d", ai, p.AICores)
	case vec > uint32(p.VectorCores):
		return hal.Errorf(hal.KindInvalidParam, "capability groups take %d vector cores, expected at most the chip's %d", vec, p.VectorCores)
	case cpu > uint32(p.AICPUs):
		return hal.Errorf(hal.KindInvalidParam, "capability groups take %d AI CPUs, expected at most the chip's %d", cpu, p.AICPUs)
	}
	return nil
}
