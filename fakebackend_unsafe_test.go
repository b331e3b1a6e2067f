package gocann_test

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// fakeBackend is a hal backend without the simulator, as database/sql's
// tests drive sql over a fake driver: one device whose memory is a Go
// byte slice at made-up addresses no host pointer has, and queues that
// each run their tasks in order on one goroutine. It implements what the
// runtime core needs for memory, copies, kernels, events and faults, and
// none of hal's optional capabilities (hal.Direct, hal.Tracer,
// hal.Sharer): a runtime that used a backend by anything but the hal
// interfaces would fail against it.
type fakeBackend struct {
	props hal.Props

	// mu guards the fields below.
	mu     sync.Mutex
	dev    *fakeDevice // nil while closed
	ran    []string    // tasks run, as "<kind> <kernel>", in order
	tick   int64       // the device clock: each reading advances it
	queues int32       // queues made
	events []*fakeEvent
}

// fakeBase is the fake device's first address: far from the Go heap and
// from where the system maps memory, so no host pointer is taken for it.
const fakeBase = 0x6000_0000_0000

func newFakeBackend() *fakeBackend {
	return &fakeBackend{props: hal.Props{SoCName: "FakeNPU", AICores: 2, CubeCores: 2, VectorCores: 2,
		HBMSize: 1 << 20, StreamLimit: 8, EventLimit: 8, QueueDepth: 16}}
}

// open is the factory gocann.WithBackend takes.
func (b *fakeBackend) open(gocann.Config) (hal.Backend, error) { return b, nil }

func (b *fakeBackend) DeviceCount() int { return 1 }

func (b *fakeBackend) Props(id int) (hal.Props, error) {
	if id != 0 {
		return hal.Props{}, hal.Errorf(hal.KindInvalidDevice, "device %d does not exist", id)
	}
	return b.props, nil
}

func (b *fakeBackend) Open(id int) (hal.Device, error) {
	if _, err := b.Props(id); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dev != nil {
		return nil, hal.Errorf(hal.KindNotReady, "device %d is open", id)
	}
	b.dev = &fakeDevice{b: b, mem: make([]byte, b.props.HBMSize), next: fakeBase, allocs: map[uint64]hal.Allocation{}}
	return b.dev, nil
}

func (b *fakeBackend) device() *fakeDevice {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dev
}

func (b *fakeBackend) Lookup(addr uint64) (hal.Allocation, bool) {
	if d := b.device(); d != nil {
		return d.Lookup(addr)
	}
	return hal.Allocation{}, false
}

func (b *fakeBackend) span() hal.Span {
	return hal.Span{Device: 0, Lo: fakeBase, Hi: fakeBase + b.props.HBMSize, Open: b.device() != nil}
}

func (b *fakeBackend) Owner(addr uint64) (hal.Span, bool) {
	sp := b.span()
	return sp, sp.Contains(addr)
}

func (b *fakeBackend) Spans() []hal.Span { return []hal.Span{b.span()} }

func (b *fakeBackend) MallocHost(size uint64) (unsafe.Pointer, error) {
	return nil, hal.Errorf(hal.KindOutOfMemory, "the fake backend has no page-locked host memory")
}

func (b *fakeBackend) FreeHost(p unsafe.Pointer) error {
	return hal.Errorf(hal.KindInvalidAddress, "%p is not page-locked memory of the fake backend", p)
}

func (b *fakeBackend) Close() error { return nil }

// now reads the device clock, which ticks once per reading.
func (b *fakeBackend) now() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tick++
	return b.tick
}

func (b *fakeBackend) noteRun(what string) {
	b.mu.Lock()
	b.ran = append(b.ran, what)
	b.mu.Unlock()
}

// tasks returns the tasks the device ran, in order.
func (b *fakeBackend) tasks() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.ran...)
}

// lastEvent is the event made last.
func (b *fakeBackend) lastEvent() *fakeEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.events[len(b.events)-1]
}

// bytes reads device memory straight from the fake, past the runtime.
func (b *fakeBackend) bytes(p gocann.DevPtr, n int) []byte {
	d := b.device()
	d.mu.Lock()
	defer d.mu.Unlock()
	off := uint64(p) - fakeBase
	return append([]byte(nil), d.mem[off:off+uint64(n)]...)
}

// fakeDevice is the fake's one device: a bump allocator over mem.
type fakeDevice struct {
	b *fakeBackend

	// mu guards the fields below and the bytes of mem.
	mu     sync.Mutex
	mem    []byte
	next   uint64 // first address never allocated
	allocs map[uint64]hal.Allocation
	onFail func(hal.Fault)
}

func (d *fakeDevice) ID() int          { return 0 }
func (d *fakeDevice) Props() hal.Props { return d.b.props }
func (d *fakeDevice) Now() int64       { return d.b.now() }

func (d *fakeDevice) Malloc(size uint64, p hal.MemPolicy) (hal.Allocation, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	rounded := (size + hal.PageSizeNormal - 1) &^ (hal.PageSizeNormal - 1)
	if rounded < size || d.next-fakeBase+rounded > uint64(len(d.mem)) {
		return hal.Allocation{}, hal.Errorf(hal.KindOutOfMemory, "fake device: %d bytes do not fit", size)
	}
	a := hal.Allocation{Device: 0, Addr: d.next, Size: size, PageSize: hal.PageSizeNormal, Tag: p.Tag}
	d.allocs[a.Addr] = a
	d.next += rounded
	return a, nil
}

func (d *fakeDevice) Free(addr uint64, tag uint8) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if a, ok := d.allocs[addr]; !ok || a.Tag != tag {
		return hal.Errorf(hal.KindInvalidAddress, "fake device: %#x is not an allocation", addr)
	}
	delete(d.allocs, addr)
	return nil
}

func (d *fakeDevice) Lookup(addr uint64) (hal.Allocation, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range d.allocs {
		if a.Contains(addr, 0) && addr < a.Addr+a.Size {
			return a, true
		}
	}
	return hal.Allocation{}, false
}

func (d *fakeDevice) MemInfo() (free, total uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return uint64(len(d.mem)) - (d.next - fakeBase), uint64(len(d.mem))
}

// Pointer is also the memory a kernel block reads (kernel.Memory).
func (d *fakeDevice) Pointer(addr, n uint64) (unsafe.Pointer, error) {
	a, ok := d.Lookup(addr)
	if !ok || !a.Contains(addr, n) || addr-fakeBase >= uint64(len(d.mem)) {
		return nil, hal.Errorf(hal.KindInvalidAddress, "fake device: [%#x, +%d) is not inside an allocation", addr, n)
	}
	return unsafe.Pointer(&d.mem[addr-fakeBase]), nil
}

// host returns the n bytes a copy end names.
func (d *fakeDevice) host(l hal.Loc, n uint64) ([]byte, error) {
	if l.IsHost() {
		return unsafe.Slice((*byte)(l.Host), n), nil
	}
	p, err := d.Pointer(l.Dev, n)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

func (d *fakeDevice) NewQueue(cfg hal.QueueConfig) (hal.Queue, error) {
	d.b.mu.Lock()
	d.b.queues++
	q := &fakeQueue{d: d, id: d.b.queues, changed: make(chan struct{})}
	d.b.mu.Unlock()
	q.cond = sync.NewCond(&q.mu)
	go q.run()
	return q, nil
}

func (d *fakeDevice) NewEvent(hal.EventConfig) (hal.Event, error) {
	e := &fakeEvent{}
	d.b.mu.Lock()
	d.b.events = append(d.b.events, e)
	d.b.mu.Unlock()
	return e, nil
}

func (d *fakeDevice) NewNotify() (hal.Notify, error) {
	return nil, hal.Errorf(hal.KindNoNotify, "the fake backend has no notifies")
}

// Run executes copies and memsets: the only tasks the runtime runs
// outside a queue.
func (d *fakeDevice) Run(t hal.Task) error {
	switch t.Kind {
	case hal.TaskCopy:
		dst, err := d.host(t.Dst, t.Size)
		if err != nil {
			return err
		}
		src, err := d.host(t.Src, t.Size)
		if err != nil {
			return err
		}
		d.mu.Lock()
		copy(dst, src)
		d.mu.Unlock()
	case hal.TaskMemset:
		dst, err := d.host(t.Dst, t.Size)
		if err != nil {
			return err
		}
		d.mu.Lock()
		for i := range dst {
			dst[i] = byte(t.Value)
		}
		d.mu.Unlock()
	default:
		return hal.Errorf(hal.KindNotSupported, "the fake backend does not run %v tasks synchronously", t.Kind)
	}
	d.b.noteRun("run " + t.Kind.String())
	return nil
}

func (d *fakeDevice) SetFaultHandler(fn func(hal.Fault)) {
	d.mu.Lock()
	d.onFail = fn
	d.mu.Unlock()
}

func (d *fakeDevice) Close() error {
	d.b.mu.Lock()
	d.b.dev = nil
	d.b.mu.Unlock()
	return nil
}
