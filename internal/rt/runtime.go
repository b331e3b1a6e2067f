package rt

import (
	"time"

	"log/slog"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// BackendFactory opens the device backend for a configuration.
type BackendFactory func(cfg config.Config) (hal.Backend, error)

// Runtime is one CANN runtime instance: what aclInit creates and aclFinalize
// ends. It may be initialized again after Finalize.
type Runtime struct {
	newBackend  BackendFactory
	log         *slog.Logger
	faultHook   atomic.Pointer[func(hal.Fault)]
	threadRes   sync.Map                                                   // OS thread id -> *Stream whose core limits it uses (reslimit.go)
	lastTasks   sync.Map                                                   // OS thread id -> *lastTask (lasttask.go)
	streamHook  atomic.Pointer[func(*Stream, StreamState)]                 // streamstate.go
	devHook     atomic.Pointer[func(int, DeviceState)]                     // devstate.go
	abortHook   atomic.Pointer[func(int, AbortStage, time.Duration) error] // devstate.go
	nextCtxID   atomic.Uint64
	staging     stagingPool
	host        userHost                    // the caller's page-locked allocations
	regs        hostRegs                    // the caller's registered host memory
	closed      closedSpans                 // address ranges of devices that are not open
	watch       watchers                    // profilers' (profhook.go)
	runs        runWatch                    // a model subscriber's (profmark.go)
	models      sync.Map                    // model id -> *Model, captured and built ones (profmark.go)
	vmmMeta     vmmState                    // the virtual memory window and what CANN reports of it
	ipc         ipcState                    // IPC memory and shareable handles of this process (ipcmem.go)
	managed     managedState                // managed allocations (aclrtMemAllocManaged)
	current     atomic.Pointer[hal.Backend] // the backend while initialized, for lock-free reads
	nextModelID atomic.Uint32
	labels      atomic.Int32 // live labels, at most MaxLabels
	limits      limits       // aclrtDeviceSetLimit's values
	pools       poolRegistry // stream-ordered memory pools and their chunks
	symbols     symbolTable  // device globals (symbol.go)
	mbufs       mbufTable    // shared buffers (mbuf.go)
	hostFns     hostThreads  // host-function threads (hostfunc.go)
	sys         sysParams    // aclrtSetSysParamOpt's values, kept across Finalize
	dump        dumpState    // aclmdlInitDump / aclmdlSetDump and aclInit's dump section
	snap        snapshot     // the process's snapshot state and callbacks (snapshot.go)
	timeouts    opTimeouts   // the process's operator timeouts (timeout.go)

	// capMu guards captures.
	capMu    sync.Mutex
	captures map[*Capture]struct{} // captures in progress

	// mu guards the fields below.
	mu      sync.Mutex
	inited  bool
	cfg     config.Config
	backend hal.Backend
	devices []*Device
	kernels map[string]*kernel.Func
}

// New returns an uninitialized runtime.
func New(newBackend BackendFactory, log *slog.Logger) *Runtime {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runtime{newBackend: newBackend, log: log, kernels: make(map[string]*kernel.Func), captures: make(map[*Capture]struct{})}
}

// SetFaultHook installs the function told of every asynchronous fault, on
// the goroutine that ran the failing task.
func (r *Runtime) SetFaultHook(fn func(hal.Fault)) {
	if fn == nil {
		r.faultHook.Store(nil)
		return
	}
	r.faultHook.Store(&fn)
}

func (r *Runtime) reportFault(f hal.Fault) {
	if h := r.faultHook.Load(); h != nil {
		(*h)(f)
	}
}

// Init initializes the runtime with cfg (aclInit).
func (r *Runtime) Init(cfg config.Config) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inited {
		return rterr.Errorf(rterr.KindRepeatInit, "runtime is already initialized; call aclFinalize before initializing again")
	}
	b, err := r.newBackend(cfg)
	if err != nil {
		return err
	}
	n := b.DeviceCount()
	if cfg.DefaultDevice >= n {
		b.Close()
		return rterr.Errorf(rterr.KindFileAttrInvalid, "defaultDevice.default_device %d is invalid, expected 0..%d", cfg.DefaultDevice, n-1)
	}
	devices := make([]*Device, n)
	for i := range devices {
		props, err := b.Props(i)
		if err != nil {
			b.Close()
			return err
		}
		devices[i] = &Device{r: r, b: b, id: i, props: props, stack: config.RoundStack(cfg.StackSize), defGroup: defaultGroup(&props)}
		devices[i].satMode.Store(defaultSatMode(props.SoCName))
	}
	r.cfg, r.backend, r.devices, r.inited = cfg, b, devices, true
	r.limits.reset(cfg)
	r.host.reset()
	r.regs.reset()
	r.vmmMeta.reset(b)
	r.ipc.reset()
	r.current.Store(&b)
	// The backend may know device ranges from before, all closed now.
	r.closed.refresh(b)
	r.resetDump(cfg.Dump)
	r.log.Debug("runtime initialized", "config", cfg.String(), "devices", n)
	return nil
}

// Finalize releases every device and the backend (aclFinalize). Work not yet
// started is dropped; running tasks are waited for.
func (r *Runtime) Finalize() error {
	r.mu.Lock()
	if !r.inited {
		r.mu.Unlock()
		return rterr.Errorf(rterr.KindRepeatFinalize, "runtime is not initialized; aclFinalize called without a matching aclInit")
	}
	devices, b := r.devices, r.backend
	r.inited, r.backend, r.devices = false, nil, nil
	r.current.Store(nil)
	r.mu.Unlock()
	// Finalizing ends a snapshot lock: the calls waiting for it go on,
	// and find the runtime finalized.
	r.snap.forceRunning()
	for _, d := range devices {
		d.shutdown()
	}
	r.staging.drain(b)
	err := b.Close()
	r.host.reset()
	r.regs.reset()
	r.symbols.reset()
	r.vmmMeta.reset(nil)
	r.ipc.reset()
	r.managed.reset()
	r.closed.set(nil)
	r.resetDump(nil)
	return err
}

// Initialized reports whether Init has been called without Finalize.
func (r *Runtime) Initialized() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inited
}

// Config returns the configuration of the current initialization.
func (r *Runtime) Config() config.Config {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cfg
}

func errUninit() error {
	return rterr.Errorf(rterr.KindUninitialized, "runtime is not initialized; call aclInit first")
}

// live returns the backend, or an error if the runtime is not initialized.
func (r *Runtime) live() (hal.Backend, error) {
	if b := r.current.Load(); b != nil {
		return *b, nil
	}
	return nil, errUninit()
}

// DeviceCount is the number of devices (aclrtGetDeviceCount).
func (r *Runtime) DeviceCount() (int, error) {
	b, err := r.live()
	if err != nil {
		return 0, err
	}
	return b.DeviceCount(), nil
}

// Device returns device id's handle without setting it.
func (r *Runtime) Device(id int) (*Device, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.inited {
		return nil, errUninit()
	}
	if id < 0 || id >= len(r.devices) {
		return nil, rterr.Errorf(rterr.KindInvalidDevice, "device id %d is invalid, expected 0..%d", id, len(r.devices)-1)
	}
	return r.devices[id], nil
}

// SetDevice takes a reference on device id, opening it and creating its
// default context on the first (aclrtSetDevice).
func (r *Runtime) SetDevice(id int) (*Device, error) {
	d, err := r.Device(id)
	if err != nil {
		return nil, err
	}
	wasSet := d.IsSet()
	if !wasSet {
		r.deviceState(id, DeviceSetPre)
	}
	if err := d.set(); err != nil {
		return d, err
	}
	if !wasSet {
		if c, err := d.DefaultContext(); err == nil {
			r.streamState(c.defStream, StreamCreatePost)
		}
	}
	r.deviceState(id, DeviceSetPost)
	return d, nil
}

// RegisterKernel adds a Go kernel under name.
func (r *Runtime) RegisterKernel(name string, fn func(*kernel.Block)) (*kernel.Func, error) {
	return r.register(&kernel.Func{Name: name, Fn: fn})
}

// RegisterCPUKernel is RegisterKernel for an AI CPU kernel.
func (r *Runtime) RegisterCPUKernel(name string, fn func(*kernel.Block)) (*kernel.Func, error) {
	return r.register(&kernel.Func{Name: name, Fn: fn, CPU: true})
}

func (r *Runtime) register(k *kernel.Func) (*kernel.Func, error) {
	name, fn := k.Name, k.Fn
	if name == "" {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "kernel name is empty, expected a name")
	}
	if fn == nil {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "kernel %q function is nil, expected a function", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.kernels[name]; dup {
		return nil, rterr.Errorf(rterr.KindKernelDuplicate, "kernel %q is already registered", name)
	}
	r.kernels[name] = k
	return k, nil
}

// Kernel finds a registered kernel.
func (r *Runtime) Kernel(name string) (*kernel.Func, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k, ok := r.kernels[name]
	if !ok {
		return nil, rterr.Errorf(rterr.KindKernelNotFound, "kernel %q is not registered", name)
	}
	return k, nil
}

// Lookup finds the allocation holding addr, device or the caller's pinned
// host memory.
func (r *Runtime) Lookup(addr uint64) (hal.Allocation, bool) {
	b, err := r.live()
	if err != nil {
		return hal.Allocation{}, false
	}
	return r.lookup(b, addr)
}

// Loc classifies a pointer from C: an address in a device's range is device
// memory (live or not, its device open or not, so a stale device pointer is
// reported as such); anything else is host memory.
func (r *Runtime) Loc(p unsafe.Pointer) hal.Loc {
	addr := uint64(uintptr(p))
	if b, err := r.live(); err == nil {
		if _, ok := b.Owner(addr); ok || r.reserved(b, addr) {
			return hal.DevLoc(addr)
		}
	}
	return hal.HostLoc(p)
}

// DevicePointer maps a live device address to a pointer for C code.
func (r *Runtime) DevicePointer(addr uint64) (unsafe.Pointer, error) {
	b, err := r.live()
	if err != nil {
		return nil, err
	}
	a, ok := r.lookup(b, addr)
	if !ok || a.Host {
		return nil, rterr.Errorf(rterr.KindInvalidAddress, "address %#x is not live device memory", addr)
	}
	d, err := r.Device(a.Device)
	if err != nil {
		return nil, err
	}
	hd, err := d.halDevice()
	if err != nil {
		return nil, err
	}
	return hd.Pointer(addr, 0)
}
