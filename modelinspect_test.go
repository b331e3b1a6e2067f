package gocann_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann"
)

// Looking into a model and editing its tasks (aclmdlRIGetStreams,
// aclmdlRIGetTasksByStream, aclmdlRITaskGet*/SetParams, aclmdlRITaskDisable,
// aclmdlRIUpdate, aclmdlRIDebugPrint / DebugJsonPrint).

// inspected is a two-stream captured model with one task of each type.
type inspected struct {
	m         *gocann.ModelRI
	s1, s2    *gocann.Stream
	p, q, v   gocann.DevPtr
	ev0, ev1  *gocann.Event
	reset     *gocann.Event
	hostRuns  *atomic.Int32
	streams   []gocann.ModelStream
	t1, t2    []gocann.ModelTask
	typesWant [2][]gocann.TaskType
}

// inspectModel captures:
//
//	stream 0: store(p, 1)<<<3>>>, record ev0, wait ev1, reset, host function, add(q, 3)
//	stream 1: wait ev0, write v = 7, wait v == 7, memset q to 0, record ev1
func inspectModel(t *testing.T, e env, k kernels) *inspected {
	t.Helper()
	in := &inspected{s1: e.s, s2: e.newStream(t), p: word(t, e, 0), q: word(t, e, 0), v: word(t, e, 0), hostRuns: new(atomic.Int32)}
	evs := newEvents(t, e, 2)
	in.ev0, in.ev1 = evs[0], evs[1]
	var err error
	in.reset, err = e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	s1, s2 := in.s1, in.s2
	in.m, err = s1.Capture(gocann.CaptureGlobal, func(*gocann.Stream) error {
		check(t, s1.Launch(k.store, 3, gocann.Ptr(in.p), gocann.U64(1)))
		check(t, s1.Record(in.ev0))
		check(t, s2.WaitEvent(in.ev0))
		check(t, s2.WriteValue(in.v, 7))
		check(t, s2.WaitValue(in.v, 7, gocann.WaitEQ))
		check(t, s2.Memset(in.q, 0, 8))
		check(t, s2.Record(in.ev1))
		check(t, s1.WaitEvent(in.ev1))
		check(t, s1.ResetEvent(in.reset))
		check(t, s1.LaunchHostFunc(func() { in.hostRuns.Add(1) }))
		return s1.Launch(k.add, 1, gocann.Ptr(in.q), gocann.U64(3))
	})
	check(t, err)
	closeModel(t, in.m)
	in.streams, err = in.m.Streams()
	check(t, err)
	if len(in.streams) != 2 {
		t.Fatalf("model has %d streams, want 2", len(in.streams))
	}
	in.t1, in.t2 = in.streams[0].Tasks(), in.streams[1].Tasks()
	in.typesWant = [2][]gocann.TaskType{
		{gocann.TaskKernel, gocann.TaskEventRecord, gocann.TaskEventWait, gocann.TaskEventReset, gocann.TaskDefault, gocann.TaskKernel},
		{gocann.TaskEventWait, gocann.TaskValueWrite, gocann.TaskValueWait, gocann.TaskDefault, gocann.TaskEventRecord},
	}
	return in
}

func TestModelStreamsAndTasks(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	in := inspectModel(t, e, k)
	for i, ms := range in.streams {
		if ms.Index() != i || ms.Model() != in.m {
			t.Fatalf("stream %d reports index %d of model %p", i, ms.Index(), ms.Model())
		}
	}
	if in.streams[0].Source() != in.s1 || in.streams[1].Source() != in.s2 {
		t.Fatal("model streams do not name the captured streams")
	}
	for si, tasks := range [][]gocann.ModelTask{in.t1, in.t2} {
		if len(tasks) != len(in.typesWant[si]) {
			t.Fatalf("stream %d has %d tasks, want %d", si, len(tasks), len(in.typesWant[si]))
		}
		for i, tk := range tasks {
			if tk.Type() != in.typesWant[si][i] || tk.Seq() != uint32(i) || tk.Stream() != in.streams[si] {
				t.Fatalf("stream %d task %d: type %d, seq %d; want type %d, seq %d", si, i, tk.Type(), tk.Seq(), in.typesWant[si][i], i)
			}
			if tk.Params().Type != tk.Type() || tk.Params().Group != nil || tk.Disabled() {
				t.Fatalf("stream %d task %d: params %+v", si, i, tk.Params())
			}
		}
	}

	// Parameters of each type.
	kp := in.t1[0].Params()
	if kp.Kernel == nil || kp.Kernel.Name() != "model_store" || kp.Blocks != 3 ||
		len(kp.Args) != 2 || kp.Args[0] != gocann.Ptr(in.p) || kp.Args[1] != gocann.U64(1) || kp.ArgsDev != 0 {
		t.Fatalf("kernel task params %+v", kp)
	}
	for _, c := range []struct {
		task gocann.ModelTask
		ev   *gocann.Event
	}{{in.t1[1], in.ev0}, {in.t1[2], in.ev1}, {in.t1[3], in.reset}, {in.t2[0], in.ev0}, {in.t2[4], in.ev1}} {
		if got := c.task.Params().Event; got != c.ev {
			t.Fatalf("event task %d reports event %p, want %p", c.task.Seq(), got, c.ev)
		}
	}
	if vp := in.t2[1].Params(); vp.Addr != in.v || vp.Value != 7 {
		t.Fatalf("value write params %+v", vp)
	}
	if vp := in.t2[2].Params(); vp.Addr != in.v || vp.Value != 7 || vp.Flag != uint32(gocann.WaitEQ) {
		t.Fatalf("value wait params %+v", vp)
	}

	// A kernel task's inline argument slots, in device memory.
	a, err := in.t1[0].ArgsDevice()
	check(t, err)
	if readU64(t, e.c, a) != uint64(in.p) || readU64(t, e.c, a.Add(8)) != 1 {
		t.Fatal("ArgsDevice does not hold the kernel's argument slots")
	}
	_, err = in.t2[1].ArgsDevice()
	wantErr(t, err, gocann.CodeRTParamInvalid, "task 1 of stream 1", "not a kernel")

	// A model in capture has nothing to list yet.
	c, err := e.newStream(t).BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	_, err = c.Model().Streams()
	wantErr(t, err, gocann.CodeRTModelCaptured, "still being built or captured")
	_, err = c.Model().Describe(false)
	wantErr(t, err, gocann.CodeRTModelCaptured, "still being built or captured")
	wantErr(t, c.Model().Update(), gocann.CodeRTModelUpdateFailed, "cannot be updated")
	m, err := c.End()
	check(t, err)
	check(t, m.Close())
	_, err = m.Streams()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
}

func TestModelTaskSetParams(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	in := inspectModel(t, e, k)
	runOK(t, in.m, e.s)
	wantU64(t, e, in.p, 1, "the kernel before editing")
	wantU64(t, e, in.q, 3, "memset then add before editing")

	// Edits show in Params at once and take effect at Update.
	check(t, in.t1[0].SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Kernel: k.store, Blocks: 1, Args: []gocann.Arg{gocann.Ptr(in.p), gocann.U64(5)}}))
	check(t, in.t2[1].SetParams(gocann.TaskParams{Type: gocann.TaskValueWrite, Addr: in.v, Value: 9}))
	check(t, in.t2[2].SetParams(gocann.TaskParams{Type: gocann.TaskValueWait, Addr: in.v, Value: 9, Flag: uint32(gocann.WaitGEQ)}))
	if kp := in.t1[0].Params(); kp.Blocks != 1 || kp.Args[1] != gocann.U64(5) {
		t.Fatalf("Params after SetParams = %+v, want the edit", kp)
	}
	if vp := in.t2[2].Params(); vp.Value != 9 || vp.Flag != uint32(gocann.WaitGEQ) {
		t.Fatalf("Params after SetParams = %+v, want the edit", vp)
	}
	writeU64(t, e.c, in.v, 0)
	runOK(t, in.m, e.s)
	wantU64(t, e, in.p, 1, "a run before Update")
	wantU64(t, e, in.v, 7, "a run before Update")
	check(t, in.m.Update())
	runOK(t, in.m, e.s)
	wantU64(t, e, in.p, 5, "the edited kernel")
	wantU64(t, e, in.v, 9, "the edited value write (the edited wait let it through)")

	// Kernel arguments read from device memory when the task starts.
	blk := malloc(t, e.c, 16)
	writeU64(t, e.c, blk, uint64(in.p))
	writeU64(t, e.c, blk.Add(8), 42)
	check(t, in.t1[0].SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Kernel: k.store, Blocks: 1, ArgsDev: blk, NArgs: 2}))
	check(t, in.m.Update())
	if kp := in.t1[0].Params(); kp.ArgsDev != blk || kp.NArgs != 2 || kp.Args != nil {
		t.Fatalf("Params of a kernel reading its arguments from device memory = %+v", kp)
	}
	if a, err := in.t1[0].ArgsDevice(); err != nil || a != blk {
		t.Fatalf("ArgsDevice = %#x, %v; want the argument block", a, err)
	}
	runOK(t, in.m, e.s)
	wantU64(t, e, in.p, 42, "arguments from device memory")
	writeU64(t, e.c, blk.Add(8), 43)
	runOK(t, in.m, e.s)
	wantU64(t, e, in.p, 43, "arguments changed in device memory between runs")

	// Event tasks keep their event; SetParams accepts and ignores it.
	check(t, in.t1[1].SetParams(gocann.TaskParams{Type: gocann.TaskEventRecord}))
	if in.t1[1].Params().Event != in.ev0 {
		t.Fatal("SetParams changed an event task's event")
	}

	// Refusals.
	wantErr(t, in.t1[0].SetParams(gocann.TaskParams{Type: gocann.TaskValueWrite, Addr: in.v}), gocann.CodeRTParamInvalid, "type 5 is invalid", "own type 1")
	wantErr(t, in.t1[0].SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Blocks: 1}), gocann.CodeInvalidParam, "kernel is nil")
	wantErr(t, in.t1[0].SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Kernel: k.store}), gocann.CodeRTParamInvalid, "numBlocks 0 is invalid")
	wide := malloc(t, e.c, 16)
	wantErr(t, in.t2[1].SetParams(gocann.TaskParams{Type: gocann.TaskValueWrite, Addr: wide.Add(4)}), gocann.CodeRTAddrUnaligned, "8-byte alignment")
	wantErr(t, in.t2[1].SetParams(gocann.TaskParams{Type: gocann.TaskValueWrite, Addr: in.v, Flag: 1}), gocann.CodeRTParamInvalid, "flag 1 is invalid")
	wantErr(t, in.t2[2].SetParams(gocann.TaskParams{Type: gocann.TaskValueWait, Addr: in.v, Flag: 4}), gocann.CodeRTParamInvalid, "flag 4 is invalid")
	wantErr(t, in.t2[3].SetParams(gocann.TaskParams{Type: gocann.TaskDefault}), gocann.CodeRTTaskTypeNotSupport, "task 3", "no settable parameters")
	check(t, in.m.Update())
	runOK(t, in.m, e.s)
	wantU64(t, e, in.p, 43, "a run after refused edits")
	wantU64(t, e, in.v, 9, "a run after refused edits")
}

func TestModelTaskDisable(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	in := inspectModel(t, e, k)
	check(t, in.t2[3].Disable()) // the memset of q
	check(t, in.t1[4].Disable()) // the host function
	if !in.t2[3].Disabled() || in.t2[2].Disabled() {
		t.Fatal("Disabled does not report a pending disable")
	}
	writeU64(t, e.c, in.q, 100)
	runOK(t, in.m, e.s)
	wantU64(t, e, in.q, 3, "a run before Update still clears q")
	if in.hostRuns.Load() != 1 {
		t.Fatalf("host function ran %d times before Update, want 1", in.hostRuns.Load())
	}
	check(t, in.m.Update())
	writeU64(t, e.c, in.q, 100)
	runOK(t, in.m, e.s)
	runOK(t, in.m, e.s)
	wantU64(t, e, in.q, 106, "runs with the memset disabled")
	if in.hostRuns.Load() != 1 {
		t.Fatalf("host function ran %d times, want it disabled after the first run", in.hostRuns.Load())
	}
}

func TestModelUpdateWhileRunning(t *testing.T) {
	// "ACL_ERROR_RT_MODEL_UPDATE_FAILED covers: ... model executing".
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	release := make(chan struct{})
	var entered atomic.Int32
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.LaunchHostFunc(func() { entered.Add(1); <-release }))
		return s.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)
	ss, err := m.Streams()
	check(t, err)
	kt := ss[0].Tasks()[1]
	check(t, m.Run(e.s))
	eventually(t, "the run starts", func() bool { return entered.Load() == 1 })
	check(t, kt.SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Kernel: k.store, Blocks: 1, Args: []gocann.Arg{gocann.Ptr(p), gocann.U64(2)}}))
	wantErr(t, m.Update(), gocann.CodeRTModelUpdateFailed, "model "+utoa(m.ID()), "running")
	close(release)
	syncOK(t, e.s)
	wantU64(t, e, p, 1, "the run during which Update was refused")
	check(t, m.Update())
	runOK(t, m, e.s)
	wantU64(t, e, p, 2, "the edit published after the run")
}

func TestModelDescribe(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	in := inspectModel(t, e, k)
	check(t, in.m.SetName("inspected"))
	check(t, in.t2[3].Disable())
	check(t, in.m.Update())
	text, err := in.m.Describe(false)
	check(t, err)
	for _, want := range []string{
		"model " + utoa(in.m.ID()) + ` "inspected" (captured)`, "2 streams",
		"stream 0 (from stream " + itoa(in.s1.ID()) + ", head)", "stream 1 (from stream " + itoa(in.s2.ID()),
		"model_store<<<3>>>", "value write", "value wait", "memset 8 bytes (disabled)", "host func",
		"stream 0 task 1 -> stream 1 task 0", "stream 1 task 4 -> stream 0 task 2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Describe does not mention %q:\n%s", want, text)
		}
	}
	// Tasks appear in stream order.
	if i, j := strings.Index(text, "model_store<<<3>>>"), strings.Index(text, "model_add<<<1>>>"); i < 0 || j < i {
		t.Errorf("Describe lists the tasks out of order:\n%s", text)
	}
	verbose, err := in.m.Describe(true)
	check(t, err)
	for _, want := range []string{"model_store<<<3>>>(0x", ", 0x1)", "launched at", "modelinspect_test.go:"} {
		if strings.Contains(text, want) || !strings.Contains(verbose, want) {
			t.Errorf("only the verbose description should mention %q:\n%s", want, verbose)
		}
	}

	var buf bytes.Buffer
	check(t, in.m.WriteJSON(&buf, true))
	var doc struct {
		ID      uint32 `json:"model_id"`
		Name    string `json:"name"`
		Streams []struct {
			Index  int   `json:"index"`
			Source int32 `json:"source_stream_id"`
			Tasks  []struct {
				Seq      int      `json:"seq"`
				Type     string   `json:"type"`
				Kernel   string   `json:"kernel"`
				Args     []string `json:"args"`
				Site     string   `json:"launched_at"`
				Disabled bool     `json:"disabled"`
			} `json:"tasks"`
		} `json:"streams"`
		Deps []struct {
			Record struct{ Stream, Seq int } `json:"record"`
			Wait   struct{ Stream, Seq int } `json:"wait"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("WriteJSON wrote invalid JSON: %v\n%s", err, buf.String())
	}
	if doc.ID != in.m.ID() || doc.Name != "inspected" || len(doc.Streams) != 2 || doc.Streams[1].Source != in.s2.ID() {
		t.Fatalf("JSON model: %+v", doc)
	}
	t0 := doc.Streams[0].Tasks
	if len(t0) != 6 || t0[0].Kernel != "model_store" || len(t0[0].Args) != 2 || t0[0].Args[1] != "0x1" ||
		!strings.Contains(t0[0].Site, "modelinspect_test.go:") || t0[1].Type != "event record" || t0[5].Kernel != "model_add" {
		t.Fatalf("JSON tasks of stream 0: %+v", t0)
	}
	if !doc.Streams[1].Tasks[3].Disabled {
		t.Fatal("JSON does not mark the disabled task")
	}
	if len(doc.Deps) != 2 || doc.Deps[0].Record.Stream == doc.Deps[0].Wait.Stream {
		t.Fatalf("JSON dependencies: %+v", doc.Deps)
	}
	var short bytes.Buffer
	check(t, in.m.WriteJSON(&short, false))
	if strings.Contains(short.String(), "launched_at") || strings.Contains(short.String(), `"args"`) {
		t.Fatal("the summary JSON carries verbose fields")
	}
}
