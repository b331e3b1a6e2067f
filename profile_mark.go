package gocann

import (
	"encoding/binary"
	"fmt"

	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/prof"
	"github.com/gocann/gocann/internal/rterr"
)

// Marks on a stream: each is a task of the stream that changes nothing,
// and the running session's timeline shows it on the stream's track,
// named, when the stream reaches it (docs/profiling.md). Queued with no
// session running, a mark still keeps its place in the stream and shows
// nowhere. On a capturing stream, or a persistent one bound to a model,
// the mark becomes a task of the model and is not named.

// ProfTraceSize is the most bytes of aclrtProfTrace's user data: a
// little-endian uint64 id, uint64 model id and uint16 tag.
const ProfTraceSize = 18

// MarkStream marks this instant on the host thread tid with msg, and
// queues a mark on s that the timeline shows on s's track when s reaches
// it, tied to the host's by a flow.
//
// CANN: aclprofMarkEx.
func (p *Profiler) MarkStream(msg string, tid uint32, s *Stream) error {
	const op = "Profiler.MarkStream (aclprofMarkEx)"
	if err := p.r.require("aclprofMarkEx"); err != nil {
		return wrap(op, err)
	}
	if s == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "stream is nil, expected a stream"))
	}
	now := p.s.Now()
	seq, err := s.s.Mark(callsite.Caller())
	if err != nil || seq == 0 {
		return wrap(op, err)
	}
	p.s.AddStreamMark(prof.StreamMark{Device: s.s.Context().Device().ID(), Queue: s.s.ID(), Seq: seq,
		Name: msg, Type: "MARKEX", TID: tid, Host: now, TX: true})
	return nil
}

// ProfTrace queues a profiling mark on s carrying the user data of
// aclrtProfTrace: up to ProfTraceSize bytes (at least 1), read as a
// uint64 id, a uint64 model id and a uint16 tag after padding with zeros.
//
// CANN: aclrtProfTrace.
func (s *Stream) ProfTrace(data []byte) error {
	const op = "Stream.ProfTrace (aclrtProfTrace)"
	if err := s.r.require("aclrtProfTrace"); err != nil {
		return wrap(op, err)
	}
	if len(data) == 0 || len(data) > ProfTraceSize {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "length %d is invalid, expected 1 to %d bytes", len(data), ProfTraceSize))
	}
	var b [ProfTraceSize]byte
	copy(b[:], data)
	id, model, tag := binary.LittleEndian.Uint64(b[0:]), binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint16(b[16:])
	return wrap(op, s.mark(fmt.Sprintf("ProfTrace %d", id), "PROFILER_TRACE_EX",
		[]prof.Arg{{Key: "Id", Val: id}, {Key: "Model Id", Val: model}, {Key: "Tag Id", Val: int64(tag)}}))
}

// MarkStep queues the mark of the start (end false) or the end of step
// on s, which the timeline shows as "Step <step> Start" or "... End".
//
// CANN: aclprofGetStepTimestamp.
func (s *Stream) MarkStep(step uint64, end bool) error {
	if err := s.r.require("aclprofGetStepTimestamp"); err != nil {
		return wrap("Stream.MarkStep (aclprofGetStepTimestamp)", err)
	}
	name, tag := fmt.Sprintf("Step %d Start", step), int64(0)
	if end {
		name, tag = fmt.Sprintf("Step %d End", step), 1
	}
	return wrap("Stream.MarkStep (aclprofGetStepTimestamp)", s.mark(name, "STEP_TRACE",
		[]prof.Arg{{Key: "Step", Val: step}, {Key: "Tag", Val: tag}}))
}

// mark queues a mark named name on s for the running session, if any.
func (s *Stream) mark(name, typ string, args []prof.Arg) error {
	seq, err := s.s.Mark(callsite.Caller())
	if err != nil || seq == 0 {
		return err
	}
	if p := s.r.prof.cur.Load(); p != nil {
		p.s.AddStreamMark(prof.StreamMark{Device: s.s.Context().Device().ID(), Queue: s.s.ID(), Seq: seq,
			Name: name, Type: typ, Args: args})
	}
	return nil
}
