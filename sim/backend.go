package sim

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// Backend is the simulated NPU backend.
type Backend struct {
	cfg  Config
	host hostMem
	open atomic.Pointer[[]*device] // open devices, for address lookups

	kernels hal.KernelTable // numbers kernels for direct launches (hal.SQ)

	// mu guards the fields below.
	mu         sync.Mutex
	devs       []*device // by id; nil when not open
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
	b := &Backend{cfg: cfg, devs: make([]*device, cfg.Devices)}
	b.open.Store(&[]*device{})
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
	mem, err := newDevMem(id, props.HBMSize)
	if err != nil {
		return nil, err
	}
	d := &device{b: b, id: id, props: props, clock: b.cfg.Clock, mem: mem}
	d.s = newScheduler(d, b.cfg.DMAWorkers)
	b.devs[id] = d
	b.publish()
	return d, nil
}

// publish refreshes the open-device snapshot. b.mu held.
func (b *Backend) publish() {
	var open []*device
	for _, d := range b.devs {
		if d != nil {
			open = append(open, d)
		}
	}
	b.open.Store(&open)
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
	for _, d := range *b.open.Load() {
		if d.mem.contains(addr) {
			return d.mem.lookup(addr)
		}
	}
	return hal.Allocation{}, false
}

func (b *Backend) Owner(addr uint64) (int, bool) {
	for _, d := range *b.open.Load() {
		if d.mem.contains(addr) {
			return d.id, true
		}
	}
	return 0, false
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
	b.reclaimHost(true)
	b.host.close()
	return first
}
