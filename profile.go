package gocann

import (
	"os"
	"slices"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/prof"
	"github.com/gocann/gocann/internal/rterr"
)

// ProfileConfig says where a profiling session writes and what it records
// (docs/profiling.md describes the files).
type ProfileConfig struct {
	// Dir is the output directory.
	Dir string
	// CANNLayout writes CANN's layout, Dir/PROF_*/mindstudio_profiler_output
	// with the timeline and the CSV summaries; otherwise the timeline is
	// Dir/profiling_<time>_<pid>.json, as ASCEND_PROFILING_OUTPUT_PATH asks.
	CANNLayout bool
	// NoTasks, NoAPI and NoMarks leave out the device tasks, the host API
	// calls and the msproftx marks.
	NoTasks, NoAPI, NoMarks bool
	// Devices lists the devices whose tasks are recorded; nil records
	// every device.
	Devices []int
}

// APICall is one host API call a C front recorded, on CLOCK_MONOTONIC.
type APICall = prof.APICall

// Profiler is a running profiling session: it records every device task
// of the runtime's devices as they open, and writes as it goes.
type Profiler struct {
	r   *Runtime
	s   *prof.Session
	cfg ProfileConfig
	// configured says the configuration (aclInit's profiler section or
	// the environment) started the session.
	configured bool
}

// profilers holds a runtime's session, one at a time, and the C front's
// API-call source and switch (SetProfilingAPI).
type profilers struct {
	cur    atomic.Pointer[Profiler]
	api    func(buf []APICall) ([]APICall, uint64)
	record func(on bool)
}

// SetProfilingAPI gives the runtime the C front's API-call records: api
// drains them, record turns their stamping on and off. Sessions started
// from then on record the calls.
//
// CANN: none.
func (x RawRuntime) SetProfilingAPI(api func(buf []APICall) ([]APICall, uint64), record func(on bool)) {
	x.r.prof.api, x.r.prof.record = api, record
}

// startConfiguredProfiling starts the session the configuration asks
// for (its profiler section), else the environment (PROFILING_MODE, else
// ASCEND_PROFILING_ENABLED), if any.
func (r *Runtime) startConfiguredProfiling(c Config) error {
	p := c.Profiler
	if p == nil {
		var err error
		if p, err = config.ProfilerFromEnv(os.Getenv); err != nil || p == nil {
			return err
		}
	}
	cfg := ProfileConfig{Dir: p.Output, CANNLayout: !p.Seed, NoTasks: !p.TaskTime, NoAPI: !p.RuntimeAPI, NoMarks: !p.TX}
	_, err := r.startProfiling(cfg, true)
	return err
}

// StartProfiling starts a profiling session, which Stop or Finalize ends;
// it records the C front's API calls too when there is one
// (SetProfilingAPI).
//
// CANN: aclInit's profiling configuration, or aclprofInit and aclprofStart.
func (r *Runtime) StartProfiling(cfg ProfileConfig) (*Profiler, error) {
	return r.startProfiling(cfg, false)
}

func (r *Runtime) startProfiling(cfg ProfileConfig, configured bool) (*Profiler, error) {
	const op = "Runtime.StartProfiling"
	api := r.prof.api
	if cur := r.prof.cur.Load(); cur != nil {
		return nil, wrap(op, rterr.Errorf(rterr.KindProfAlreadyRun, "a profiling session is already running (writing to %s)", cur.s.Dir()))
	}
	if !r.rt.Initialized() {
		return nil, wrap(op, rterr.Errorf(rterr.KindUninitialized, "the runtime is not initialized; profiling starts after aclInit"))
	}
	layout := prof.LayoutSeed
	if cfg.CANNLayout {
		layout = prof.LayoutCANN
	}
	s, err := prof.Start(prof.Config{Dir: cfg.Dir, Layout: layout, NoTasks: cfg.NoTasks, NoAPI: cfg.NoAPI, NoTX: cfg.NoMarks,
		Devices: cfg.Devices, Now: Monotonic, Logger: r.opts.logger}, nil, api)
	if err != nil {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidProfilingConfig, "%v", err))
	}
	cfg.Devices = slices.Clone(cfg.Devices)
	p := &Profiler{r: r, s: s, cfg: cfg, configured: configured}
	if !r.prof.cur.CompareAndSwap(nil, p) {
		s.Stop()
		return nil, wrap(op, rterr.Errorf(rterr.KindProfAlreadyRun, "a profiling session is already running (writing to %s)", r.prof.cur.Load().s.Dir()))
	}
	r.rt.WatchDevices(s)
	if api != nil && r.prof.record != nil && !cfg.NoAPI {
		r.prof.record(true)
	}
	return p, nil
}

// Profiling returns the runtime's running session, or nil.
//
// CANN: none.
func (r *Runtime) Profiling() *Profiler { return r.prof.cur.Load() }

// Dir is where the session's files are.
//
// CANN: none.
func (p *Profiler) Dir() string { return p.s.Dir() }

// Timeline is the session's timeline file.
//
// CANN: none.
func (p *Profiler) Timeline() string { return p.s.Timeline() }

// Config is the configuration the session started with.
//
// CANN: none.
func (p *Profiler) Config() ProfileConfig {
	c := p.cfg
	c.Devices = slices.Clone(c.Devices)
	return c
}

// Configured reports whether the runtime's configuration (aclInit's
// profiler section, or the environment) started the session, rather than
// a call.
//
// CANN: none.
func (p *Profiler) Configured() bool { return p.configured }

// SetDevices makes the session record the tasks of the devices ids lists
// (every device for nil) from now on.
//
// CANN: aclprofStart (its configuration's devices, as aclprofStop's).
func (p *Profiler) SetDevices(ids []int) error {
	if err := p.r.require("aclprofStart"); err != nil {
		return wrap("Profiler.SetDevices (aclprofStart)", err)
	}
	p.s.SetDevices(ids)
	return nil
}

// Mark records an msproftx mark (an instant) or, with start < end, a
// range, on thread tid, times on CLOCK_MONOTONIC in ns (Now's clock),
// with the arguments args.
//
// CANN: aclprofMark (and aclprofPop's and aclprofRangeStop's ranges).
func (p *Profiler) Mark(msg string, tid uint32, start, end int64, args ...MarkArg) error {
	if err := p.r.require("aclprofMark"); err != nil {
		return wrap("Profiler.Mark (aclprofMark)", err)
	}
	p.s.AddMark(prof.Mark{Msg: msg, TID: tid, Start: start, End: end, Instant: end <= start, Args: args})
	return nil
}

// MarkArg is an argument of a mark or range in the timeline: its value a
// string, an int64, a uint64, a float64 or a bool.
type MarkArg = prof.Arg

// Now is the clock of the session's times: CLOCK_MONOTONIC, in ns.
//
// CANN: MsprofSysCycleTime.
func (p *Profiler) Now() int64 { return p.s.Now() }

// Stop ends the session: what is left is drained and the files are
// completed.
//
// CANN: the end of a session, by aclprofStop, aclprofFinalize or aclFinalize.
func (p *Profiler) Stop() error {
	if !p.r.prof.cur.CompareAndSwap(p, nil) {
		return wrap("Profiler.Stop", rterr.Errorf(rterr.KindProfNotRun, "the profiling session was already stopped"))
	}
	p.r.rt.UnwatchDevices(p.s)
	if p.r.prof.record != nil {
		p.r.prof.record(false)
	}
	err := p.s.Stop()
	if err != nil {
		return wrap("Profiler.Stop", rterr.Errorf(rterr.KindProfilingFailure, "profiling output: %v", err))
	}
	return nil
}

// stopProfiling ends a running session, at Finalize.
func (r *Runtime) stopProfiling() error {
	if p := r.prof.cur.Load(); p != nil {
		return p.Stop()
	}
	return nil
}

// Monotonic is the host's CLOCK_MONOTONIC in nanoseconds: the clock
// profiling's timelines and the C front's call stamps use.
//
// CANN: none.
func Monotonic() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		return 0
	}
	return ts.Nano()
}
