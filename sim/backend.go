package sim

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
)

// Backend is the simulated NPU backend.
type Backend struct {
	cfg   Config
	space *AddressSpace // where the devices' memory ranges come from
	host  hostMem
	maps  hostMaps                  // host ranges kernels reach in place (hal.HostMapper)
	open  atomic.Pointer[[]*device] // open devices, for address lookups
	spans atomic.Pointer[spanSet]   // every reserved device range, for address lookups

	kernels kernelTable     // numbers kernels for direct launches (hal.SQ)
	peers   peers           // the topology and the peer accesses turned on
	ident   identities      // where each device sits
	vm      *vmm            // reserved ranges and physical memory (hal.VMM)
	machine *shared.Machine // the machine shared with other processes; nil if none
	ipc     ipcTable        // what this backend exported to them

	// mu guards the fields below.
	mu         sync.Mutex
	devs       []*device // by id; nil when not open
	mems       []*devMem // by id: the memory each device opens with; nil until its first Open
	retired    []*devMem // memory a device could not close (a task never returned), kept reserved
	closed     bool
	quarantine []quarantined // freed host memory queued tasks may still use
}

var _ hal.Backend = (*Backend)(nil)

// New creates a simulated backend.
func New(cfg Config) (*Backend, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ident, err := newIdentities(cfg.Devices, cfg.Visible, cfg.PhysicalIDs)
	if err != nil {
		return nil, err
	}
	show := make([]int, len(ident.ids))
	for i, id := range ident.ids {
		show[i] = id.Logical
	}
	pe, err := newPeers(cfg.Topology, cfg.Devices, show)
	if err != nil {
		return nil, err
	}
	cfg.Devices = len(show) // from here on, the devices shown
	machine, err := attachMachine(cfg)
	if err != nil {
		return nil, err
	}
	b := &Backend{cfg: cfg, space: cfg.Space, devs: make([]*device, cfg.Devices), mems: make([]*devMem, cfg.Devices),
		peers: pe, ident: ident, machine: machine}
	if b.space == nil {
		b.space = NewAddressSpace()
	}
	mbase := cfg.ManagedBase
	if cfg.managedDefault && occupied(mbase) && !b.space.vmGone.holds(mbase) {
		mbase = fallbackManagedBase
	}
	b.vm = newVMM(b, cfg.VMMBase, cfg.VMMBase+cfg.VMMSize, mbase, mbase+cfg.ManagedSize)
	b.mu.Lock()
	b.publish() // ranges an earlier backend left in the space
	b.mu.Unlock()
	return b, nil
}

func (b *Backend) DeviceCount() int { return b.cfg.Devices }

func (b *Backend) Props(id int) (hal.Props, error) {
	if id < 0 || id >= b.cfg.Devices {
		return hal.Props{}, hal.Errorf(hal.KindInvalidDevice, "device id %d is invalid, expected 0..%d", id, b.cfg.Devices-1)
	}
	return b.cfg.Profile, nil
}

func (b *Backend) Open(id int) (hal.Device, error) {
	props, err := b.Props(id)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, hal.Errorf(hal.KindInvalidDevice, "backend is closed")
	}
	if b.devs[id] != nil {
		return nil, hal.Errorf(hal.KindInvalidDevice, "device %d is already open", id)
	}
	mem, err := b.memFor(id, props.HBMSize)
	if err != nil {
		return nil, err
	}
	b.shareMemory(id, mem)
	d := &device{b: b, id: id, props: props, clock: b.cfg.Clock, mem: mem}
	d.kmem = blockMem{m: mem, maps: &b.maps, clock: b.cfg.Clock}
	d.s = newScheduler(d, b.cfg.DMAWorkers)
	b.devs[id] = d
	b.publish()
	return d, nil
}

// memFor returns device id's memory, opened: its range again, or one from
// the address space the first time (the range an earlier backend's device
// id had, if any), or when the old one is still mapped because its last
// close could not finish. b.mu must be held.
func (b *Backend) memFor(id int, hbm uint64) (*devMem, error) {
	if m := b.mems[id]; m != nil {
		if !m.mapped() {
			m.vm.Store(b.vm)
			return m, m.reopen()
		}
		b.retired = append(b.retired, m)
		b.mems[id] = nil
	}
	m, err := b.space.acquire(b, id, hbm)
	if err != nil {
		return nil, err
	}
	b.mems[id] = m
	m.vm.Store(b.vm)
	return m, nil
}

// publish refreshes the open-device and span snapshots. b.mu must be held.
func (b *Backend) publish() {
	var open []*device
	for _, d := range b.devs {
		if d != nil {
			open = append(open, d)
		}
	}
	b.open.Store(&open)
	// Every range of the space is a span: those of this backend's devices,
	// open or not, and those earlier backends left.
	set := &spanSet{}
	for _, m := range b.space.ranges() {
		var d *device
		if m.dev < len(b.mems) && b.mems[m.dev] == m {
			d = b.devs[m.dev]
		}
		set.all = append(set.all, spanOf{m: m, d: d})
		if d == nil {
			set.closed++
		}
	}
	b.spans.Store(set)
}

// detach forgets a closing device.
func (b *Backend) detach(d *device) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.devs[d.id] == d {
		b.devs[d.id] = nil
		b.publish()
	}
}

func (b *Backend) Lookup(addr uint64) (hal.Allocation, bool) {
	if a, ok := b.host.lookup(addr); ok {
		return a, true
	}
	if sp, ok := b.spans.Load().find(addr); ok && sp.d != nil {
		return sp.d.mem.lookup(addr)
	}
	return b.vm.lookup(addr)
}

func (b *Backend) Owner(addr uint64) (hal.Span, bool) {
	sp, ok := b.spans.Load().find(addr)
	if !ok {
		return hal.Span{}, false
	}
	return sp.span(), true
}

func (b *Backend) Spans() []hal.Span {
	set := b.spans.Load()
	out := make([]hal.Span, len(set.all))
	for i, sp := range set.all {
		out[i] = sp.span()
	}
	return out
}

func (b *Backend) MallocHost(size uint64) (unsafe.Pointer, error) {
	b.reclaimHost(false)
	return b.host.alloc(size)
}

func (b *Backend) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return hal.Errorf(hal.KindInvalidParam, "backend is already closed")
	}
	b.closed = true
	var open []*device
	for _, d := range b.devs {
		if d != nil {
			open = append(open, d)
		}
	}
	b.mu.Unlock()
	var first error
	for _, d := range open {
		if err := d.Close(); err != nil && first == nil {
			first = err
		}
	}
	b.vm.close()
	b.reclaimHost(true)
	b.host.close()
	b.mu.Lock()
	mems := append(slices.Clone(b.retired), b.mems...)
	b.mu.Unlock()
	// The ranges stay reserved in the space for the next backend; a space
	// of the backend's own goes with it.
	if err := b.space.put(b, mems); err != nil && first == nil {
		first = err
	}
	if b.cfg.Space == nil {
		if err := b.space.Close(); err != nil && first == nil {
			first = err
		}
	}
	if b.machine != nil {
		if err := b.machine.Detach(); err != nil && first == nil {
			first = hal.Wrap(hal.KindInternal, err, "leaving simulated machine %q", b.cfg.Machine)
		}
	}
	return first
}
