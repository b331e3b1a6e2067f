package rt

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rterr"
)

// Stream flags, with the CANN values.
const (
	StreamFastLaunch   uint32 = 0x01
	StreamFastSync     uint32 = 0x02
	StreamPersistent   uint32 = 0x04
	StreamHuge         uint32 = 0x08
	StreamCPUSchedule  uint32 = 0x10
	StreamDeviceOnly   uint32 = 0x20
	streamFlagsKnown          = StreamFastLaunch | StreamFastSync | StreamPersistent | StreamHuge | StreamCPUSchedule | StreamDeviceOnly
	streamFlagsHandled        = StreamFastLaunch | StreamFastSync | StreamHuge | StreamPersistent
)

// StreamConfig configures a new stream.
type StreamConfig struct {
	Priority int    // clamped to the device's range, as CANN does
	Flags    uint32 // ACL_STREAM_* flags
}

// Stream is a CANN stream: an in-order task queue on a device.
type Stream struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	c          *Context
	q          hal.Queue
	id         int32
	flags      uint32
	isDefault  bool
	persistent bool // tasks are recorded for the model it is bound to
	dead       atomic.Bool
	divert     atomic.Pointer[divert] // capture, binding or update taking its tasks
	modeSet    atomic.Bool            // SetFailureMode was called
	overflow   atomic.Bool            // overflow detection switch (overflow.go)
	sat        bool                   // float results saturate: the device's mode when s was created

	// mu guards the fields below.
	mu        sync.Mutex
	prio      int
	customTag uint32
	cacheInfo uint32
	staged    []staged // pageable-memory staging buffers in flight

	pool streamPool // what pool reuse knows of its ordering (poolasync.go)
	res  resLimits  // its own core limits (reslimit.go)
	// group is 1 + the capability group it is bound to, 0 when it takes
	// the device's at each launch (coregroup.go).
	group uint8
}

// NewStream creates an explicit stream in c (aclrtCreateStreamWithConfig).
func (c *Context) NewStream(cfg StreamConfig) (*Stream, error) {
	c.d.r.waitUnlocked()
	if err := c.check(); err != nil {
		return nil, err
	}
	if cfg.Flags&^streamFlagsKnown != 0 {
		// CANN treats unknown flag values as no flags.
		cfg.Flags &= streamFlagsKnown
	}
	if unsupported := cfg.Flags &^ streamFlagsHandled; unsupported != 0 {
		return nil, rterr.Errorf(rterr.KindNotSupported, "stream flag %#x is not supported by this runtime yet", unsupported)
	}
	p := c.d.props
	cfg.Priority = max(p.GreatestPriority, min(p.LeastPriority, cfg.Priority))
	if err := c.d.checkGroupSet(); err != nil {
		return nil, err
	}
	s, err := c.newStream(cfg, false)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.streams == nil {
		c.mu.Unlock()
		s.release(false)
		return nil, rterr.Errorf(rterr.KindInvalidHandle, "context %d was destroyed", c.id)
	}
	c.streams[s] = struct{}{}
	c.mu.Unlock()
	c.d.r.streamState(s, StreamCreatePost)
	return s, nil
}

func (c *Context) newStream(cfg StreamConfig, isDefault bool) (*Stream, error) {
	q, err := c.hd.NewQueue(hal.QueueConfig{Priority: cfg.Priority, Group: c.id})
	if err != nil {
		return nil, err
	}
	s := &Stream{c: c, q: q, id: q.ID(), flags: cfg.Flags, prio: cfg.Priority, isDefault: isDefault, sat: c.d.satMode.Load() == SatSaturation,
		persistent: cfg.Flags&StreamPersistent != 0}
	if !isDefault {
		s.group = uint8(c.d.group.Load())
	}
	if c.stopMode {
		q.SetStopOnFailure(true)
	}
	s.withDirect(s.eager)
	return s, nil
}

func (s *Stream) Context() *Context { return s.c }
func (s *Stream) ID() int32         { return s.id }
func (s *Stream) Flags() uint32     { return s.flags }
func (s *Stream) IsDefault() bool   { return s.isDefault }

func (s *Stream) check() error {
	if s.dead.Load() {
		return rterr.Errorf(rterr.KindInvalidHandle, "stream %d was destroyed", s.id)
	}
	return nil
}

// usable is what a call queueing on s checks first: its context, then the
// stream itself, so a destroyed context is reported as such.
func (s *Stream) usable() error {
	if err := s.c.check(); err != nil {
		return err
	}
	return s.check()
}

// submit is the one point where every task enters a device queue; a
// capture, a model binding or a task-group update diverts it here. A
// diverted task has no sequence number (0).
func (s *Stream) submit(t *hal.Task) (uint64, error) {
	s.c.d.r.waitUnlocked()
	if s.dead.Load() {
		return 0, s.check()
	}
	switch t.Kind {
	case hal.TaskKernel:
		t.Cores = s.coreBound()
		t.Group = s.groupOf()
		t.Overflow = s.overflowArea()
	case hal.TaskReduce, hal.TaskRandom:
		t.Overflow = s.overflowArea()
	}
	if d := s.divert.Load(); d != nil {
		return 0, d.add(s, t)
	}
	if s.persistent {
		return 0, rterr.Errorf(rterr.KindStreamModel, "persistent stream %d is not bound to a model; call aclmdlRIBindStream first", s.id)
	}
	noted := t.Thread != 0 // a launch whose thread's last task is kept
	s.c.d.r.stampThread(t)
	seq, err := s.q.Submit(*t)
	if err == nil && noted && !s.isDefault {
		s.c.d.r.noteQueued(t.Thread, seq)
	}
	return seq, err
}

// Synchronize waits for every task submitted so far and reports the first
// fault among them not reported before (aclrtSynchronizeStream). timeout > 0
// bounds the wait, < 0 checks once.
func (s *Stream) Synchronize(ctx context.Context, timeout time.Duration) error {
	if err := s.check(); err != nil {
		return err
	}
	if c := s.Capture(); c != nil {
		return refuseInCapture(c, "synchronizing a capturing stream")
	}
	if s.persistent {
		return nil // its tasks run with its model, never on their own
	}
	seq := s.q.Submitted()
	if err := s.q.Wait(ctx, seq, timeout); err != nil {
		return s.stopFault(err, seq)
	}
	s.reclaim()
	if s.c.d.r.pools.live.Load() > 0 {
		s.c.d.r.pools.synced(s.c.d)
	}
	return s.takeFault(seq)
}

// stopFault is what a wait for the tasks up to seq that failed with err
// reports. If the stream is stopped by STOP_ON_FAILURE and a fault of its own
// among those tasks stopped it, that fault is reported, and taken so that no
// later call reports it again (after an abort, say); otherwise err, which
// names the fault that stopped it. The stop is published after the fault is
// recorded, but the completed count may lag both, so it does not bound the
// faults to take.
func (s *Stream) stopFault(err error, seq uint64) error {
	if _, stopped := s.q.Stopped(); !stopped {
		return err
	}
	if ferr := s.takeFault(seq); ferr != nil {
		return ferr
	}
	return err
}

// takeFault reports, once, the faults of tasks up to seq.
func (s *Stream) takeFault(seq uint64) error {
	faults := s.q.TakeFaults(seq)
	if len(faults) == 0 {
		return nil
	}
	return faultError(faults)
}

// faultError turns reported faults into the error a synchronizing call
// returns: the first one, noting how many more there were.
func faultError(faults []hal.Fault) error {
	f := faults[0]
	msg := fmt.Sprintf("%s on device %d stream %d task %d", f.Kind, f.Device, f.Queue, f.Seq)
	if f.Kernel != "" {
		msg += fmt.Sprintf(" (kernel %q", f.Kernel)
		if site := callsite.Format(f.Site); site != "" {
			msg += " launched at " + site
		}
		msg += ")"
	}
	msg += ": " + f.Msg
	if len(faults) > 1 {
		msg += fmt.Sprintf(" (and %d more faults)", len(faults)-1)
	}
	return &rterr.Error{Kind: rterr.Kind(f.Kind), Msg: msg, Err: f.Err}
}

// Query reports whether every submitted task is done (aclrtStreamQuery); a
// fault among them is reported as an error, once.
func (s *Stream) Query() (bool, error) {
	if err := s.check(); err != nil {
		return false, err
	}
	if c := s.Capture(); c != nil {
		return false, refuseInCapture(c, "querying a capturing stream")
	}
	if s.persistent {
		return true, nil
	}
	seq := s.q.Submitted()
	if s.q.Completed() < seq {
		if f, stopped := s.q.Stopped(); stopped {
			return false, s.stopFault(faultError([]hal.Fault{f}), seq)
		}
		return false, nil
	}
	return true, s.takeFault(seq)
}

// Destroy waits for the stream's tasks, then destroys it (aclrtDestroyStream).
func (s *Stream) Destroy() error { return s.destroy(true) }

// DestroyForce destroys the stream without waiting for its tasks
// (aclrtDestroyStreamForce). Tasks already submitted still run, as on
// hardware, where they are in the device's queue; the queue closes once
// they are done. Only an abort drops tasks.
func (s *Stream) DestroyForce() error { return s.destroy(false) }

func (s *Stream) destroy(wait bool) error {
	s.c.d.r.waitUnlocked()
	if s.isDefault {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is a default stream; it ends with its context or device reset", s.id)
	}
	c := s.c
	c.mu.Lock()
	_, ok := c.streams[s]
	c.mu.Unlock()
	if !ok {
		return rterr.Errorf(rterr.KindInvalidHandle, "stream %d was already destroyed", s.id)
	}
	c.d.r.streamState(s, StreamDestroyPre)
	c.mu.Lock()
	if _, ok := c.streams[s]; !ok {
		c.mu.Unlock()
		return rterr.Errorf(rterr.KindInvalidHandle, "stream %d was already destroyed", s.id)
	}
	delete(c.streams, s)
	c.mu.Unlock()
	return s.release(wait)
}

// release ends the stream: with wait its tasks finish first; without, it
// returns at once and the queue closes behind its tasks (drain), or at
// once if they are done. A stream stopped by a fault is always dropped.
func (s *Stream) release(wait bool) error {
	if s.dead.Swap(true) {
		return nil
	}

	s.withDirect(s.eager)
	if d := s.divert.Load(); d != nil {
		switch {
		case d.capture != nil:
			d.capture.lose(s)
		case d.update != nil:
			s.dropUpdate(d.update)
		default:
			s.unbind(d.ms)
		}
	}
	if !wait {
		if _, stopped := s.q.Stopped(); !stopped && s.q.Completed() < s.q.Submitted() {
			s.c.drainLater(s)
			return nil
		}
	}
	return s.end(wait)
}

// end closes the queue of a dead stream: with wait after its tasks,
// otherwise dropping those not started. A submit that checked dead before
// it was set may still land; each lands once, so the close is tried again
// until none is left behind.
func (s *Stream) end(wait bool) error {
	for {
		if wait {
			if _, stopped := s.q.Stopped(); !stopped {
				s.q.Wait(context.Background(), s.q.Submitted(), 0)
			}
		}
		s.q.Abort()
		s.reclaimAll()
		if err := s.q.Close(); err == nil || rterr.KindOf(err) != rterr.KindNotReady {
			return err
		}
	}
}

// Abort drops the stream's tasks not yet started and clears a stop
// (aclrtStreamAbort).
func (s *Stream) Abort() error {
	if err := s.check(); err != nil {
		return err
	}
	if d := s.divert.Load(); d != nil && d.capture == nil && d.update == nil {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is bound to model %d; aborting bound streams is not supported", s.id, d.ms.m.id)
	}
	return s.q.Abort()
}

// SetStopOnFailure sets the failure mode, which applies to the whole context.
func (s *Stream) SetStopOnFailure(stop bool) error {
	if err := s.check(); err != nil {
		return err
	}
	s.c.setStopMode(stop)
	return nil
}

// StopOnFailure reports the failure mode.
func (s *Stream) StopOnFailure() bool { return s.c.StopOnFailure() }

// Priority reports the stream's priority.
func (s *Stream) Priority() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prio
}

// SetPriority changes the priority of tasks not yet started.
func (s *Stream) SetPriority(p int) error {
	if err := s.check(); err != nil {
		return err
	}
	props := s.c.d.props
	if p < props.GreatestPriority || p > props.LeastPriority {
		return rterr.Errorf(rterr.KindInvalidParam, "priority %d is invalid, expected %d..%d", p, props.GreatestPriority, props.LeastPriority)
	}
	s.mu.Lock()
	s.prio = p
	s.mu.Unlock()
	s.q.SetPriority(p)
	return nil
}

// SetFailureMode sets the failure mode once, as aclrtSetStreamFailureMode
// allows; aclrtSetStreamAttribute may change it again.
func (s *Stream) SetFailureMode(mode uint64) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.modeSet.Load() {
		return rterr.Errorf(rterr.KindInvalidParam, "the failure mode of stream %d was already set; aclrtSetStreamFailureMode is called once per stream", s.id)
	}
	if err := s.SetAttr(AttrFailureMode, mode); err != nil {
		return err
	}
	s.modeSet.Store(true)
	return nil
}

// Attr names the stream attributes with the CANN values.
type Attr int

const (
	AttrFailureMode   Attr = 1
	AttrOverflowCheck Attr = 2
	AttrUserTag       Attr = 3
	AttrCacheOpInfo   Attr = 4
	AttrPriority      Attr = 5
)

// SetAttr sets a stream attribute (aclrtSetStreamAttribute).
func (s *Stream) SetAttr(a Attr, v uint64) error {
	if err := s.check(); err != nil {
		return err
	}
	switch a {
	case AttrFailureMode:
		if v > 1 {
			return rterr.Errorf(rterr.KindInvalidParam, "failure mode %d is invalid, expected 0 (ACL_CONTINUE_ON_FAILURE) or 1 (ACL_STOP_ON_FAILURE)", v)
		}
		return s.SetStopOnFailure(v == 1)
	case AttrPriority:
		if v > uint64(s.c.d.props.LeastPriority) {
			return rterr.Errorf(rterr.KindInvalidParam, "priority %d is invalid, expected %d..%d", v, s.c.d.props.GreatestPriority, s.c.d.props.LeastPriority)
		}
		return s.SetPriority(int(v))
	case AttrOverflowCheck, AttrCacheOpInfo:
		if v > 1 {
			return rterr.Errorf(rterr.KindInvalidParam, "attribute %d value %d is invalid, expected 0 or 1", a, v)
		}
	case AttrUserTag:
		if v > 0xFFFFFFFF {
			return rterr.Errorf(rterr.KindInvalidParam, "user tag %d is invalid, expected a 32-bit value", v)
		}
	default:
		return rterr.Errorf(rterr.KindInvalidParam, "stream attribute %d is invalid, expected 1..5", a)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch a {
	case AttrOverflowCheck:
		s.setOverflow(v == 1)
	case AttrCacheOpInfo:
		s.cacheInfo = uint32(v)
	case AttrUserTag:
		s.customTag = uint32(v)
	}
	return nil
}

// Attr reads a stream attribute (aclrtGetStreamAttribute).
func (s *Stream) Attr(a Attr) (uint64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch a {
	case AttrFailureMode:
		if s.c.StopOnFailure() {
			return 1, nil
		}
		return 0, nil
	case AttrPriority:
		return uint64(s.prio), nil
	case AttrOverflowCheck:
		if s.overflow.Load() {
			return 1, nil
		}
		return 0, nil
	case AttrCacheOpInfo:
		return uint64(s.cacheInfo), nil
	case AttrUserTag:
		return uint64(s.customTag), nil
	}
	return 0, rterr.Errorf(rterr.KindInvalidParam, "stream attribute %d is invalid, expected 1..5", a)
}
