package gocann

import (
	"os"
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
}

// APICall is one host API call a C front recorded, on CLOCK_MONOTONIC.
type APICall = prof.APICall

// Profiler is a running profiling session: it records every device task
// of the runtime's devices as they open, and writes as it goes.
type Profiler struct {
	r *Runtime
	s *prof.Session
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
	_, err := r.StartProfiling(cfg)
	return err
}

// StartProfiling starts a profiling session, which Stop or Finalize ends;
// it records the C front's API calls too when there is one
// (SetProfilingAPI).
//
// CANN: aclprofInit and aclprofStart, or the profiling configuration.
func (r *Runtime) StartProfiling(cfg ProfileConfig) (*Profiler, error) {
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
		Now: Monotonic, Logger: r.opts.logger}, nil, api)
	if err != nil {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidProfilingConfig, "%v", err))
	}
	p := &Profiler{r: r, s: s}
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

// Mark records an msproftx mark (an instant) or, with start < end, a
// range, on thread tid, times on CLOCK_MONOTONIC in ns.
//
// CANN: aclprofMark, aclprofPush/aclprofPop, aclprofRangeStart/Stop.
func (p *Profiler) Mark(msg string, tid uint32, start, end int64) {
	p.s.AddMark(prof.Mark{Msg: msg, TID: tid, Start: start, End: end, Instant: end <= start})
}

// Stop ends the session: what is left is drained and the files are
// completed.
//
// CANN: aclprofStop and aclprofFinalize.
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
