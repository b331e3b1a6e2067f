package prof

import (
	"log/slog"
	"sync"
	"time"

	"github.com/gocann/gocann/hal"
)

// A Subscriber collects the operations of model runs (model
// subscriptions, aclprofModelSubscribe): the runtime tells it of each run
// of a subscribed model, and it reads the operations' records of the run
// from the device's trace, on its own positions, and hands them over as
// they complete. It is the runtime's DeviceWatcher, as a Session is, and
// runs beside one.

// OpRecord is one operation of a model run.
type OpRecord struct {
	Model  uint32
	Device int
	Stream int32 // the stream the run was queued on
	Seq    uint64
	Index  int // the operation's index in its model stream
	// Name is a kernel's name or the task's kind (MEMCPY_ASYNC, ...);
	// Type the timeline's Task Type (AI_VECTOR_CORE, ...).
	Name, Type string
	// Start and End are on CLOCK_MONOTONIC, in ns.
	Start, End int64
	Thread     uint32 // the thread that queued the run
	Failed     bool
}

// Run is a model run to follow: the model task is task Seq of queue
// Queue of device Device.
type Run struct {
	Model  uint32
	Device int
	Queue  int32
	Seq    uint64
	Thread uint32
}

// Subscriber follows model runs.
type Subscriber struct {
	deliver func([]OpRecord)
	logger  *slog.Logger

	mu   sync.Mutex // guards the fields below and serializes deliveries
	devs []subDevice
	runs map[markKey]Run
	out  []OpRecord
	lost uint64

	stop chan struct{}
	done chan struct{}
}

type subDevice struct {
	id    int
	trace hal.TraceReader
	ops   hal.OpTracer // nil if the device records no operations of graph runs
	base  int64
	next  uint64
	buf   []hal.Record
}

// NewSubscriber starts a subscriber that hands deliver the operations of
// the runs it follows, every interval (10 ms if 0), from its own
// goroutine; deliver must not call the subscriber.
func NewSubscriber(interval time.Duration, logger *slog.Logger, deliver func([]OpRecord)) *Subscriber {
	if interval <= 0 {
		interval = 10 * time.Millisecond
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Subscriber{deliver: deliver, logger: logger, runs: map[markKey]Run{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go s.collect(interval)
	return s
}

// AddRun follows run r.
func (s *Subscriber) AddRun(r Run) {
	s.mu.Lock()
	s.runs[markKey{r.Device, r.Queue, r.Seq}] = r
	s.mu.Unlock()
}

// Flush hands over, before it returns, the operations completed so far.
func (s *Subscriber) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drain()
}

// Stop flushes and ends the subscriber.
func (s *Subscriber) Stop() {
	select {
	case <-s.stop:
		return
	default:
	}
	close(s.stop)
	<-s.done
	s.mu.Lock()
	s.drain()
	for i := range s.devs {
		s.devs[i].untrace()
	}
	s.devs = nil
	s.mu.Unlock()
	if s.lost != 0 {
		s.logger.Warn("model subscription lost operation records", "count", s.lost)
	}
}

func (s *Subscriber) collect(interval time.Duration) {
	defer close(s.done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.Flush()
		}
	}
}

// DeviceOpened follows device id's trace from now on.
func (s *Subscriber) DeviceOpened(id int, hd hal.Device, _ hal.Props) {
	tr, ok := hd.(hal.TraceReader)
	if !ok {
		return
	}
	tr.TraceCapacity(1 << 16)
	ops, _ := hd.(hal.OpTracer)
	if ops != nil {
		ops.TraceOps(true)
	}
	_, next, _ := tr.TraceFrom(^uint64(0)>>1, nil)
	s.mu.Lock()
	s.devs = append(s.devs, subDevice{id: id, trace: tr, ops: ops, base: tr.ClockBase(), next: next})
	s.mu.Unlock()
}

// DeviceClosing hands over device id's last operations and forgets its
// runs.
func (s *Subscriber) DeviceClosing(id int, _ hal.Device) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drain()
	for i := range s.devs {
		if s.devs[i].id == id {
			s.devs[i].untrace()
			s.devs = append(s.devs[:i], s.devs[i+1:]...)
			break
		}
	}
	for k := range s.runs {
		if k.dev == id {
			delete(s.runs, k)
		}
	}
}

// untrace withdraws the request for operation records.
func (d *subDevice) untrace() {
	if d.ops != nil {
		d.ops.TraceOps(false)
		d.ops = nil
	}
}

// drain reads the traces and delivers the operations of followed runs;
// a run is forgotten once its model task's own record arrives, the last
// of the run. s.mu held.
func (s *Subscriber) drain() {
	s.out = s.out[:0]
	for i := range s.devs {
		d := &s.devs[i]
		var lost uint64
		d.buf, d.next, lost = d.trace.TraceFrom(d.next, d.buf[:0])
		s.lost += lost
		for _, r := range d.buf {
			k := markKey{d.id, r.Queue, r.Seq}
			run, ok := s.runs[k]
			switch {
			case !ok:
			case r.Op == 0:
				delete(s.runs, k)
			default:
				name, typ, _, _ := taskNames(r)
				s.out = append(s.out, OpRecord{Model: run.Model, Device: d.id, Stream: r.Queue, Seq: r.Seq,
					Index: int(r.Op - 1), Name: name, Type: typ, Start: r.Start + d.base, End: r.End + d.base,
					Thread: run.Thread, Failed: r.Failed})
			}
		}
	}
	if len(s.out) > 0 {
		s.deliver(s.out)
	}
}
