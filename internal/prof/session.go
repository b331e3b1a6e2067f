package prof

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gocann/gocann/hal"
)

// Config configures a session. Zero fields take defaults.
type Config struct {
	Dir    string
	Layout Layout
	// Devices lists the devices recorded; nil records them all.
	Devices []int
	// NoTasks, NoAPI and NoTX leave out the device tasks (task_time),
	// the API calls (runtime_api) and the msproftx marks.
	NoTasks, NoAPI, NoTX bool
	// Interval is how often the collector drains; default 10 ms.
	Interval time.Duration
	// Now is CLOCK_MONOTONIC in ns, the clock the C front stamps with
	// (required).
	Now    func() int64
	Logger *slog.Logger
}

// Device is a device the session records.
type Device struct {
	ID                              int
	SoC                             string
	AICores, VectorCores, CubeCores int
	Trace                           hal.TraceReader
	Depths                          hal.Depther   // may be nil
	MemUsed                         func() uint64 // may be nil
	// ClockBase is CLOCK_MONOTONIC in ns at device clock 0.
	ClockBase int64
}

// APICall is one host API call, on CLOCK_MONOTONIC.
type APICall struct {
	Name       string
	Start, End int64
	TID        uint32
	Ret        int32
}

// APISource appends the API calls made since its last call to buf and
// returns how many were lost.
type APISource func(buf []APICall) ([]APICall, uint64)

// Mark is an msproftx mark (Instant) or range, on CLOCK_MONOTONIC.
type Mark struct {
	Msg        string
	Start, End int64
	TID        uint32
	Instant    bool
	Args       []Arg
}

// Session is a running profiler.
type Session struct {
	cfg   Config
	devs  []devState
	api   APISource
	paths paths
	pid   int64

	mu       sync.Mutex // guards what the collector and AddMark share
	tl       *timeline
	csv      *csvs
	marks    []Mark
	calls    []APICall         // drainCalls' buffer
	apiNames map[string]string // function -> its event name
	named    map[int]bool      // devices whose metadata is written
	// markNames and markSeen match stream marks and their tasks' records
	// (streammark.go).
	markNames map[markKey]StreamMark
	markSeen  map[markKey]markTimes
	threads   map[uint32]*threadSpans
	flowID    int64
	lost      uint64
	stopped   bool

	stop chan struct{}
	done chan struct{}
}

type devState struct {
	Device
	on      bool         // recorded (Config.Devices)
	next    uint64       // trace position read up to
	held    []hal.Record // drained last tick, written this one (flows need their calls)
	buf     []hal.Record
	streams map[int32]bool // stream tracks named so far
	depths  []hal.QueueDepth
}

// Start starts a session recording devs (and the API calls api gives, if
// not nil), writing as it goes.
func Start(cfg Config, devs []Device, api APISource) (*Session, error) {
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Millisecond
	}
	if cfg.Now == nil {
		return nil, fmt.Errorf("profiling needs the host's monotonic clock (Config.Now)")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Devices = slices.Clone(cfg.Devices)
	p, err := layOut(cfg.Dir, cfg.Layout, time.Now())
	if err != nil {
		return nil, err
	}
	tl, err := newTimeline(p.timeline)
	if err != nil {
		return nil, fmt.Errorf("timeline %q cannot be written: %w", p.timeline, err)
	}
	s := &Session{cfg: cfg, api: api, paths: p, pid: int64(os.Getpid()), tl: tl,
		named: map[int]bool{}, markNames: map[markKey]StreamMark{}, markSeen: map[markKey]markTimes{},
		threads: map[uint32]*threadSpans{}, apiNames: map[string]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	if s.csv, err = newCSVs(p); err != nil {
		tl.close()
		return nil, err
	}
	if cfg.NoAPI {
		s.api = nil
	}
	s.metadata()
	for _, d := range devs {
		s.addDevice(d)
	}
	if s.api != nil {
		s.api(nil) // calls before the start are not the session's
	}
	tl.flush()
	go s.collect()
	return s, nil
}

// Dir is where the session's files are.
func (s *Session) Dir() string { return s.paths.dir }

// Timeline is the timeline file's path.
func (s *Session) Timeline() string { return s.paths.timeline }

// AddMark records an msproftx mark or range.
func (s *Session) AddMark(m Mark) {
	if s.cfg.NoTX {
		return
	}
	s.mu.Lock()
	if !s.stopped {
		s.marks = append(s.marks, m)
	}
	s.mu.Unlock()
}

// Stop drains what is left, completes the files and ends the session.
func (s *Session) Stop() error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	s.mu.Unlock()
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drain(true)
	if s.lost != 0 {
		s.cfg.Logger.Warn("profiling lost records", "count", s.lost)
	}
	err := s.csv.close()
	if terr := s.tl.close(); err == nil {
		err = terr
	}
	return err
}

// drainCalls writes the API calls made since the last drain. s.mu held.
func (s *Session) drainCalls() {
	if s.api == nil {
		return
	}
	var lost uint64
	s.calls, lost = s.api(s.calls[:0])
	s.lost += lost
	for _, c := range s.calls {
		s.writeCall(c)
	}
}

// collect drains every Interval until Stop. (Not on a thread of low
// priority: draining takes the device scheduler's lock, which such a
// thread would hold while the program's threads wait for it.)
func (s *Session) collect() {
	defer close(s.done)
	tick := time.NewTicker(s.cfg.Interval)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.mu.Lock()
			s.drain(false)
			s.mu.Unlock()
		}
	}
}

// drain writes what arrived: API calls first, so the tasks they submitted
// find them, then the device records held from the last tick (and, at the
// end, the ones just drained), marks and counters. s.mu held.
func (s *Session) drain(final bool) {
	s.drainCalls()
	for _, m := range s.marks {
		s.writeMark(m)
	}
	s.marks = s.marks[:0]
	for i := range s.devs {
		d := &s.devs[i]
		if d.Trace == nil || !d.on {
			continue
		}
		// Held records are written unless their call may still arrive.
		keep := d.buf[:0]
		for _, r := range d.held {
			if !final && s.callPending(d, r) {
				keep = append(keep, r)
				continue
			}
			s.writeTask(d, r)
		}
		var lost uint64
		keep, d.next, lost = d.Trace.TraceFrom(d.next, keep)
		s.lost += lost
		d.held, d.buf = keep, d.held[:0]
		if final {
			for _, r := range d.held {
				s.writeTask(d, r)
			}
			d.held = d.held[:0]
		}
		s.counters(d)
	}
	s.pruneSpans()
	s.tl.flush()
	s.csv.flush()
}
