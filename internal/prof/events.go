package prof

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// The timeline's events: docs/profiling.md names each process, track,
// event and argument.

// Engine tracks of a device process: tid engineTrack+n.
const engineTrack = 100000

var engineNames = [...]string{"AI Core", "AI Vector Core", "AI Cube Core", "DMA", "AI CPU", "Scheduler", "Host Function"}

// devicePID is the process of device d's hardware: above every Linux
// process id, so never the host's.
func (s *Session) devicePID(d int) int64 { return 10_000_000 + int64(d) }

func (s *Session) metadata() {
	t := s.tl
	t.event("M", "process_name", s.pid, 0).args().arg("name", "CANN").end(true)
	t.event("M", "process_sort_index", s.pid, 0).args().arg("sort_index", 0).end(true)
}

func (s *Session) deviceMetadata(d *devState) {
	t, pid := s.tl, s.devicePID(d.ID)
	t.event("M", "process_name", pid, 0).args().arg("name", "Ascend Hardware").end(true)
	t.event("M", "process_labels", pid, 0).args().arg("labels", fmt.Sprintf("Device %d", d.ID)).end(true)
	t.event("M", "process_sort_index", pid, 0).args().arg("sort_index", d.ID+1).end(true)
	for i, n := range engineNames {
		t.event("M", "thread_name", pid, engineTrack+int64(i)).args().arg("name", n).end(true)
		t.event("M", "thread_sort_index", pid, engineTrack+int64(i)).args().arg("sort_index", 1000+i).end(true)
	}
	t.event("M", "gocann_device", pid, 0).args().arg("device", d.ID).arg("soc", d.SoC).
		arg("ai_cores", d.AICores).arg("vector_cores", d.VectorCores).arg("cube_cores", d.CubeCores).
		arg("copy_bandwidth_GBps", copyBandwidth()).end(true)
}

// writeCall writes an API call on its thread's track and keeps its span
// for the flows of the tasks it submitted.
func (s *Session) writeCall(c APICall) {
	s.thread(c.TID)
	full, ok := s.apiNames[c.Name]
	if !ok {
		full = "AscendCL@" + c.Name
		s.apiNames[c.Name] = full
	}
	s.tl.event("X", full, s.pid, int64(c.TID)).us("ts", c.Start).us("dur", c.End-c.Start).
		args().arg("Thread Id", int64(c.TID)).arg("Mode", "ACL_RTS").arg("Return", int64(c.Ret)).end(true)
	s.threads[c.TID].add(c)
	s.csv.call(c)
}

func (s *Session) writeMark(m Mark) {
	s.thread(m.TID)
	if m.Instant {
		s.tl.event("i", m.Msg, s.pid, int64(m.TID)).str("cat", "msproftx").str("s", "t").us("ts", m.Start).end(false)
		return
	}
	e := s.tl.event("X", m.Msg, s.pid, int64(m.TID)).str("cat", "msproftx").us("ts", m.Start).us("dur", m.End-m.Start)
	if len(m.Args) == 0 {
		e.end(false)
		return
	}
	e.args()
	for _, a := range m.Args {
		e.arg(a.Key, a.Val)
	}
	e.end(true)
}

// thread names tid's track the first time it is seen.
func (s *Session) thread(tid uint32) {
	if s.threads[tid] != nil {
		return
	}
	s.threads[tid] = &threadSpans{}
	s.tl.event("M", "thread_name", s.pid, int64(tid)).args().arg("name", fmt.Sprintf("Thread %d", tid)).end(true)
}

// writeTask writes device task r: on its stream's track and its engine's,
// with the flow from the call that submitted it.
func (s *Session) writeTask(d *devState, r hal.Record) {
	if s.streamMark(d, r) || s.cfg.NoTasks {
		return
	}
	pid := s.devicePID(d.ID)
	s.nameStream(d, r.Queue)
	base := d.ClockBase
	start, end, submit := r.Start+base, r.End+base, r.Submit+base
	name, typ, kind, track := taskNames(r)
	t := s.tl.event("X", name, pid, int64(r.Queue)).us("ts", start).us("dur", end-start).args().
		arg("Task Type", typ).arg("Stream Id", int64(r.Queue)).arg("Task Id", r.Seq).
		arg("Submit Time(us)", float64(submit)/1e3).arg("Wait Time(us)", float64(start-submit)/1e3)
	if r.Kind == hal.TaskKernel {
		t.arg("Block Dim", int64(r.Blocks)).arg("Core Kind", kind)
	}
	if r.Bytes != 0 {
		t.arg("Bytes", r.Bytes)
	}
	if r.Op != 0 {
		t.arg("Op Index", int64(r.Op-1)).arg("Sub Index", int64(r.Sub))
	}
	if r.Failed {
		t.arg("Failed", true)
	}
	t.end(true)
	// The engine's track shows the same task, naming its stream only.
	s.tl.event("X", name, pid, engineTrack+int64(track)).us("ts", start).us("dur", end-start).args().
		arg("Stream Id", int64(r.Queue)).arg("Task Id", r.Seq).end(true)
	if c, ok := s.threads[r.Thread].find(submit); ok && r.Thread != 0 && r.Op == 0 {
		s.flowID++
		s.tl.event("s", "HostToDevice", s.pid, int64(r.Thread)).str("cat", "HostToDevice").int("id", s.flowID).us("ts", c.Start).end(false)
		s.tl.event("f", "HostToDevice", pid, int64(r.Queue)).str("cat", "HostToDevice").int("id", s.flowID).str("bp", "e").us("ts", start).end(false)
	}
	s.csv.task(d.ID, r, name, typ, start, end, submit)
}

// nameStream names the track of stream q of d the first time it is used.
func (s *Session) nameStream(d *devState, q int32) {
	if d.streams[q] {
		return
	}
	d.streams[q] = true
	pid := s.devicePID(d.ID)
	s.tl.event("M", "thread_name", pid, int64(q)).args().arg("name", fmt.Sprintf("Stream %d", q)).end(true)
	s.tl.event("M", "thread_sort_index", pid, int64(q)).args().arg("sort_index", int(q)).end(true)
}

// taskNames are a task's event name, msprof task type, core kind (kernels)
// and engine track.
func taskNames(r hal.Record) (name, typ, kind string, track int) {
	switch r.Kind {
	case hal.TaskKernel:
		name = r.Name
		switch {
		case r.Engine == hal.EngineAICPU:
			return name, "AI_CPU", "aicpu", 4
		case r.Cores == kernel.CoreCube:
			return name, "AI_CUBE_CORE", "cube", 2
		}
		// Vector kernels, and kernels that do not say (plain C ones).
		return name, "AI_VECTOR_CORE", "vector", 1
	case hal.TaskCopy, hal.TaskCopy2D, hal.TaskCopyBatch, hal.TaskCopyIndirect:
		return "MEMCPY_ASYNC", "MEMCPY_ASYNC", "", 3
	case hal.TaskMemset:
		return "MEMSET_ASYNC", "MEMSET_ASYNC", "", 3
	case hal.TaskHostFunc:
		return "HOST_FUNC", "HOST_FUNC", "", 6
	case hal.TaskGraph:
		return "MODEL_EXECUTE", "MODEL_EXECUTE", "", 5
	}
	n := strings.ToUpper(strings.ReplaceAll(r.Kind.String(), " ", "_")) // EVENT_RECORD
	return n, n, "", 5
}

// counters samples device d's memory in use and its queues' depths.
func (s *Session) counters(d *devState) {
	pid, now := s.devicePID(d.ID), s.cfg.Now()
	if d.MemUsed != nil {
		s.tl.event("C", "Device Memory", pid, 0).us("ts", now).args().arg("Used(MB)", float64(d.MemUsed())/(1<<20)).end(true)
	}
	if d.Depths == nil {
		return
	}
	d.depths = d.Depths.Depths(d.depths[:0])
	if len(d.depths) == 0 {
		return
	}
	sort.Slice(d.depths, func(i, j int) bool { return d.depths[i].Queue < d.depths[j].Queue })
	t := s.tl.event("C", "Queue Depth", pid, 0).us("ts", now).args()
	for _, q := range d.depths {
		t.arg(fmt.Sprintf("Stream %d", q.Queue), q.Depth)
	}
	t.end(true)
}
