package prof

import "github.com/gocann/gocann/hal"

// Marks on a stream (aclprofMarkEx, aclrtProfTrace, step marks) are tasks
// of their own, which the runtime queues and then names here by device,
// stream and sequence number: the timeline shows the task's record under
// the mark's name on the stream's track, when the stream reached it. A
// record may be drained before its name arrives (the two race); then the
// mark is written when the name does, from the record's times, which the
// session keeps a while for the purpose.

// StreamMark names mark task Seq of queue Queue of device Device.
type StreamMark struct {
	Device int
	Queue  int32
	Seq    uint64
	// Name is the event's name, Type its "Task Type".
	Name, Type string
	Args       []Arg
	// TID and Host are the calling thread and when it queued the mark
	// (CLOCK_MONOTONIC ns): with TID set, the thread's track shows an
	// instant then, tied to the stream's event by a flow.
	TID  uint32
	Host int64
	// TX says the mark is an msproftx one, which Config.NoTX leaves out.
	TX bool
}

// Arg is an argument of an event: its value a string, an int64, a
// uint64, a float64 or a bool.
type Arg struct {
	Key string
	Val any
}

type markKey struct {
	dev   int
	queue int32
	seq   uint64
}

// markTimes are the times of a mark task's record, on CLOCK_MONOTONIC.
type markTimes struct{ start, end int64 }

// AddStreamMark names the mark task m describes.
func (s *Session) AddStreamMark(m StreamMark) {
	if m.TX && s.cfg.NoTX {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || !s.wants(m.Device) {
		return
	}
	k := markKey{m.Device, m.Queue, m.Seq}
	if t, ok := s.markSeen[k]; ok {
		delete(s.markSeen, k)
		for i := range s.devs {
			if d := &s.devs[i]; d.ID == m.Device && d.on {
				s.writeStreamMark(d, m, t)
				break
			}
		}
		return
	}
	s.markNames[k] = m
}

// streamMark writes r as the mark it is, if it is one, and reports
// whether it was; otherwise a cache task's times are kept for a name that
// may come. s.mu held.
func (s *Session) streamMark(d *devState, r hal.Record) bool {
	if r.Kind != hal.TaskCmo || r.Op != 0 {
		return false
	}
	k := markKey{d.ID, r.Queue, r.Seq}
	t := markTimes{r.Start + d.ClockBase, r.End + d.ClockBase}
	m, ok := s.markNames[k]
	if !ok {
		s.markSeen[k] = t
		return false
	}
	delete(s.markNames, k)
	s.writeStreamMark(d, m, t)
	return true
}

// writeStreamMark writes mark m of device d, whose task ran over t. s.mu
// held.
func (s *Session) writeStreamMark(d *devState, m StreamMark, t markTimes) {
	pid := s.devicePID(m.Device)
	s.nameStream(d, m.Queue)
	e := s.tl.event("X", m.Name, pid, int64(m.Queue)).str("cat", "msproftx").us("ts", t.start).us("dur", t.end-t.start).
		args().arg("Task Type", m.Type).arg("Stream Id", int64(m.Queue)).arg("Task Id", m.Seq)
	for _, a := range m.Args {
		e.arg(a.Key, a.Val)
	}
	e.end(true)
	if m.TID == 0 {
		return
	}
	s.thread(m.TID)
	s.tl.event("i", m.Name, s.pid, int64(m.TID)).str("cat", "msproftx").str("s", "t").us("ts", m.Host).end(false)
	s.flowID++
	s.tl.event("s", "MsTx", s.pid, int64(m.TID)).str("cat", "MsTx").int("id", s.flowID).us("ts", m.Host).end(false)
	s.tl.event("f", "MsTx", pid, int64(m.Queue)).str("cat", "MsTx").int("id", s.flowID).str("bp", "e").us("ts", t.start).end(false)
}

// pruneMarks forgets cache tasks' times that no name claimed within
// spanKeep. s.mu held.
func (s *Session) pruneMarks(now int64) {
	for k, t := range s.markSeen {
		if t.end < now-spanKeep {
			delete(s.markSeen, k)
		}
	}
}

// Now is the session's clock: CLOCK_MONOTONIC in ns.
func (s *Session) Now() int64 { return s.cfg.Now() }
