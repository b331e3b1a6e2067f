package gocann

import (
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/sim"
)

// Config is the configuration aclInit reads from its JSON file: the CANN
// keys gocann honours (defaultDevice.default_device,
// StackSize.aicore_stack_size, err_msg_mode) and a "simulator" section
// describing the simulated devices. See SimConfig for that section's keys.
type Config = config.Config

// SimConfig is the "simulator" section of the configuration: devices,
// soc_name, aicore_num, cube_core_num, vector_core_num, hbm_size,
// stream_limit, event_limit, notify_limit, queue_depth, dma_workers,
// least_priority, op_timeout_interval_us (the tick of operator timeouts),
// and the windows of virtual and managed memory (vmm_base,
// vmm_size, managed_base, managed_size; by default where CANN documents
// them). soc_name picks the simulated chip: Ascend910B1 (Atlas A2,
// the default), Ascend910_9391 (Atlas A3), Ascend950PR_9599 (Ascend 950),
// Ascend310B1 (Atlas 200I/500 A2), Ascend310P3 (Atlas inference series),
// Ascend910A (Atlas training series), Ascend035 (IPV350), or another SoC of
// those families; zero fields keep that chip's figures. The
// functions the API reference marks unsupported on the chip's product fail
// with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
type SimConfig = config.Simulator

// DefaultConfig is the configuration of aclInit(NULL).
//
// CANN: aclInit (NULL configuration).
func DefaultConfig() Config { return config.Default() }

// ParseConfig parses configuration JSON as aclInit does.
//
// CANN: aclInit (configuration parsing).
func ParseConfig(data []byte) (Config, error) {
	c, err := config.Parse(data)
	return c, wrap("ParseConfig (aclInit)", err)
}

// Runtime is a CANN runtime instance. New makes one; Init and Finalize (or
// Open and Close) bracket its use. It may be initialized again after
// Finalize, with device memory at the same addresses; Close ends it for
// good. Everything else hangs off it: there is no package-level state.
type Runtime struct {
	rt   *rt.Runtime
	opts options
	// space keeps the simulated devices' address ranges reserved from one
	// initialization to the next, so pointers kept across Finalize and
	// Init are refused rather than taken for other memory. Close, or the
	// collector once the Runtime is garbage, gives them back.
	space  *sim.AddressSpace
	closed atomic.Bool // closed for good
	// chip caches the product of the devices' chip for require: 0 not
	// known yet (set again by each Init and Finalize), -1 a chip of no
	// known product, else the support.Product plus 1.
	chip atomic.Int32
	prof profilers     // the profiling session (profile.go)
	subs subscriptions // the model subscriptions (profile_subscribe.go)

	// mu guards the fields below.
	mu       sync.Mutex
	excSet   func(ExceptionInfo)
	excHooks map[int]func(ExceptionInfo)
	excNext  int
	// The init and finalize callbacks, kept across Finalize.
	initHooks hooks[InitCallback]
	finHooks  hooks[FinalizeCallback]

	hooks stateHooks // device state and task abort callbacks (devstate.go)
}

// Option configures a Runtime.
type Option func(*options)

type options struct {
	configPath string
	configJSON []byte
	logger     *slog.Logger
	clock      func() int64
	backend    func(Config) (hal.Backend, error)
}

// WithConfigFile makes Open initialize from a JSON file, as aclInit(path).
//
// CANN: aclInit (configPath).
func WithConfigFile(path string) Option { return func(o *options) { o.configPath = path } }

// WithConfigJSON makes Open initialize from JSON text.
//
// CANN: none.
func WithConfigJSON(data []byte) Option { return func(o *options) { o.configJSON = data } }

// WithLogger sends the runtime's diagnostics to l.
//
// CANN: none.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithClock sets the simulated devices' clock, in nanoseconds; event
// timestamps and the trace read it.
//
// CANN: none.
func WithClock(now func() int64) Option { return func(o *options) { o.clock = now } }

// WithBackend replaces the simulated NPU with another hal backend.
//
// CANN: none.
func WithBackend(open func(Config) (hal.Backend, error)) Option {
	return func(o *options) { o.backend = open }
}

// New returns a runtime that is not initialized yet.
//
// CANN: none.
func New(opts ...Option) *Runtime {
	r := &Runtime{excHooks: make(map[int]func(ExceptionInfo)), space: sim.NewAddressSpace()}
	for _, o := range opts {
		o(&r.opts)
	}
	// A Runtime dropped without Close gives its address ranges back when it
	// is collected; none of them is in use by then (an initialized
	// Runtime's devices keep it reachable), and Close twice is harmless.
	runtime.AddCleanup(r, func(s *sim.AddressSpace) { _ = s.Close() }, r.space)
	open := r.opts.backend
	if open == nil {
		open = r.simBackend
	}
	r.rt = rt.New(func(c config.Config) (hal.Backend, error) { return open(c) }, r.opts.logger)
	r.rt.SetFaultHook(r.onFault)
	r.installStateHooks()
	return r
}

func (r *Runtime) logger() *slog.Logger {
	if r.opts.logger != nil {
		return r.opts.logger
	}
	return slog.New(slog.DiscardHandler)
}

// simBackend opens the simulated NPU the configuration describes.
func (r *Runtime) simBackend(c Config) (b hal.Backend, err error) {
	s := c.Simulator
	cfg := sim.Config{
		Devices: s.Devices,
		Profile: hal.Props{SoCName: s.SoCName, AICores: s.AICores, CubeCores: s.CubeCores,
			VectorCores: s.VectorCores, HBMSize: s.HBMSize, StreamLimit: s.StreamLimit,
			EventLimit: s.EventLimit, NotifyLimit: s.NotifyLimit, QueueDepth: s.QueueDepth,
			LeastPriority: s.LeastPriority, OpTimeoutInterval: hal.DurationUS(s.OpTimeoutIntervalUS)},
		Clock:      r.opts.clock,
		Logger:     r.opts.logger,
		DMAWorkers: s.DMAWorkers,
		Space:      r.space,
		VMMBase:    s.VMMBase, VMMSize: s.VMMSize, ManagedBase: s.ManagedBase, ManagedSize: s.ManagedSize,
	}
	if s.Machine != config.NoMachine {
		cfg.Machine = s.Machine
		cfg.MachineBestEffort = s.Machine == config.DefaultMachine
	}
	cfg.PhysicalIDs = s.PhysicalIDs
	for _, g := range s.CoreGroups {
		cfg.Profile.Groups[g.ID] = hal.CoreGroup{AICores: g.AICores, VectorCores: g.VectorCores, AICPUs: g.AICPUs,
			SDMAs: g.SDMAs, ActiveStreams: g.ActiveStreams, Default: g.Default}
	}
	if c.VisibleDevices != nil {
		n := s.Devices
		if n == 0 {
			n = sim.DefaultDevices
		}
		if cfg.Visible, err = config.VisibleDevices(*c.VisibleDevices, n); err != nil {
			return nil, err
		}
	}
	topo, err := simTopology(s.Topology)
	if err == nil {
		cfg.Topology = topo
		b, err = sim.New(cfg)
	}
	if err == nil && len(s.CoreGroups) > 0 {
		err = checkGroupChip(b)
	}
	if err != nil {
		if k, msg, cause, _ := rterr.Classify(err); k == rterr.KindInvalidParam {
			// The simulator's settings are the "simulator" section of the
			// configuration: a value it refuses is a bad attribute of the
			// file.
			return nil, &rterr.Error{Kind: rterr.KindFileAttrInvalid, Msg: msg, Err: cause}
		}
		return nil, err
	}
	return b, nil
}

// Open creates and initializes a runtime: New followed by Init with the
// configuration WithConfigFile or WithConfigJSON gave (default otherwise).
//
// CANN: aclInit (New, then Init).
func Open(opts ...Option) (*Runtime, error) {
	r := New(opts...)
	var err error
	switch {
	case r.opts.configJSON != nil:
		var c Config
		if c, err = ParseConfig(r.opts.configJSON); err == nil {
			err = r.InitConfig(withEnv(c))
		}
	default:
		err = r.Init(r.opts.configPath)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Init initializes the runtime from the JSON file at configPath ("" for the
// defaults). Initializing twice without Finalize fails with
// ACL_ERROR_REPEAT_INITIALIZE. As aclInit, it takes ASCEND_RT_VISIBLE_DEVICES
// from the environment (so does Open): the devices it names, in order, are
// devices 0, 1, ...; a list CANN refuses fails with ACL_ERROR_RT_NO_DEVICE.
//
// CANN: aclInit.
func (r *Runtime) Init(configPath string) error {
	c, err := config.Load(configPath)
	if err != nil {
		return wrap("Runtime.Init (aclInit)", err)
	}
	return r.InitConfig(withEnv(c))
}

// DefaultMachine is the simulated machine C programs join when neither
// their configuration nor GOCANN_MACHINE names one. Joining it is best
// effort: where its state cannot be kept (no usable /dev/shm), the
// devices are the process's own, with a warning in the log.
//
// CANN: none.
const DefaultMachine = config.DefaultMachine

// withEnv takes into c what aclInit reads from the environment:
// ASCEND_RT_VISIBLE_DEVICES and GOCANN_MACHINE, unless c already has them.
func withEnv(c Config) Config {
	if v, ok := os.LookupEnv(config.VisibleEnv); ok && c.VisibleDevices == nil {
		c.VisibleDevices = &v
	}
	if c.Simulator.Machine == "" {
		c.Simulator.Machine = os.Getenv(config.MachineEnv)
	}
	return c
}

// InitConfig initializes the runtime from a parsed configuration; it reads
// no environment (Config.VisibleDevices stands for ASCEND_RT_VISIBLE_DEVICES).
// Once the runtime is up it calls the init callbacks
// (RegisterInitCallback): one failing fails Init with its code, the
// runtime finalized again (its finalize callbacks not called).
//
// CANN: aclInit (parsed configuration).
func (r *Runtime) InitConfig(c Config) error {
	x := r.Raw()
	if err := x.InitCore(c); err != nil {
		return err
	}
	if err := x.NotifyInit(); err != nil {
		_ = x.FinalizeCore()
		return err
	}
	return nil
}

// InitCore is InitConfig without the init callbacks (NotifyInit calls
// them).
//
// CANN: aclInit (without callbacks).
func (x RawRuntime) InitCore(c Config) error {
	const op = "Runtime.Init (aclInit)"
	r := x.r
	if r.closed.Load() {
		return wrap(op, rterr.Errorf(rterr.KindInvalidHandle, "the runtime was closed for good; make another with New or Open"))
	}
	r.chip.Store(0)
	if err := r.rt.Init(c); err != nil {
		return wrap(op, err)
	}
	if err := r.startConfiguredProfiling(c); err != nil {
		r.rt.Finalize()
		return wrap(op, err)
	}
	return nil
}

// Finalize releases every device, context, stream and allocation. Queued
// work that has not started is dropped. Finalizing a runtime that is not
// initialized fails with ACL_ERROR_REPEAT_FINALIZE. The finalize callbacks
// (RegisterFinalizeCallback) run first: one failing fails Finalize with
// its code, and the runtime stays initialized.
//
// CANN: aclFinalize.
func (r *Runtime) Finalize() error {
	x := r.Raw()
	if r.rt.Initialized() {
		if err := x.NotifyFinalize(); err != nil {
			return err
		}
	}
	return x.FinalizeCore()
}

// FinalizeCore is Finalize without the finalize callbacks (NotifyFinalize
// calls them).
//
// CANN: aclFinalize (without callbacks).
func (x RawRuntime) FinalizeCore() error {
	x.r.chip.Store(0)
	perr := x.r.stopProfiling()
	x.r.endSubscriptions()
	if err := x.r.rt.Finalize(); err != nil {
		return wrap("Runtime.Finalize (aclFinalize)", err)
	}
	return perr
}

// Close finalizes the runtime if it is initialized and ends it for good:
// the address ranges its simulated devices' memory took are given back to
// the process, so no later Init is taken (it fails with
// ACL_ERROR_RT_INVALID_HANDLE). Finalize keeps them, for the next Init.
// Close is idempotent. It runs the finalize callbacks as Finalize does, but
// one failing does not keep the runtime up: Close finalizes all the same
// and returns that error.
//
// CANN: aclFinalize (idempotent).
func (r *Runtime) Close() error {
	var err error
	if r.rt.Initialized() {
		err = r.Raw().NotifyFinalize()
		if ferr := r.Raw().FinalizeCore(); err == nil {
			err = ferr
		}
	}
	if !r.closed.Swap(true) {
		if serr := r.space.Close(); err == nil && serr != nil {
			err = wrap("Runtime.Close (aclFinalize)", serr)
		}
	}
	return err
}

// Config returns the configuration the runtime was initialized with.
//
// CANN: none.
func (r *Runtime) Config() Config { return r.rt.Config() }

// DeviceCount is the number of devices.
//
// CANN: aclrtGetDeviceCount.
func (r *Runtime) DeviceCount() (int, error) {
	n, err := r.rt.DeviceCount()
	return n, wrap("Runtime.DeviceCount (aclrtGetDeviceCount)", err)
}

// Device returns device id without taking a reference on it.
//
// CANN: none.
func (r *Runtime) Device(id int) (*Device, error) {
	d, err := r.device(id)
	return d, wrap("Runtime.Device", err)
}

func (r *Runtime) device(id int) (*Device, error) {
	rd, err := r.rt.Device(id)
	if err != nil {
		return nil, err
	}
	if f, ok := rd.Front.Load().(*Device); ok {
		return f, nil
	}
	rd.Front.CompareAndSwap(nil, &Device{r: r, d: rd})
	return rd.Front.Load().(*Device), nil
}

// SetDevice takes a reference on device id, bringing it up and creating its
// default context and default stream on the first reference. Each
// SetDevice is balanced by a Device.Reset.
//
// CANN: aclrtSetDevice.
func (r *Runtime) SetDevice(id int) (*Device, error) {
	const op = "Runtime.SetDevice (aclrtSetDevice)"
	d, err := r.device(id)
	if err != nil {
		return nil, wrap(op, err)
	}
	if _, err := r.rt.SetDevice(id); err != nil {
		return nil, wrap(op, err)
	}
	return d, nil
}

// RegisterKernel registers a Go kernel under name, for Stream.Launch and
// for C programs that look it up by name.
//
// C programs load kernel binaries instead (aclrtBinaryLoadFromFile).
//
// CANN: none.
func (r *Runtime) RegisterKernel(name string, fn KernelFunc) (*Kernel, error) {
	if fn == nil {
		return nil, wrap("Runtime.RegisterKernel", rterr.Errorf(rterr.KindInvalidParam, "kernel %q function is nil, expected a function", name))
	}
	k, err := r.rt.RegisterKernel(name, adaptKernel(fn))
	if err != nil {
		return nil, wrap("Runtime.RegisterKernel", err)
	}
	return NewKernel(k), nil
}

// Kernel finds a registered kernel by name.
//
// CANN: aclrtBinaryGetFunction.
func (r *Runtime) Kernel(name string) (*Kernel, error) {
	if err := r.require("aclrtBinaryGetFunction"); err != nil {
		return nil, err
	}
	k, err := r.rt.Kernel(name)
	if err != nil {
		return nil, wrap("Runtime.Kernel (aclrtBinaryGetFunction)", err)
	}
	return NewKernel(k), nil
}
