package gocann_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gocann/gocann"
)

// Control flow inside models: labels and label switches, stream activation
// and stream switches in built models; conditional tasks (IF, WHILE,
// SWITCH) in captured ones. Each test checks the path taken through the
// bytes the tasks on it write.

// builder builds a model over persistent streams.
type builder struct {
	t       *testing.T
	e       env
	m       *gocann.ModelRI
	streams []*gocann.Stream
}

// build starts a model with n bound streams, the first one the head.
func build(t *testing.T, e env, n int) *builder {
	t.Helper()
	m := newBuild(t, e)
	b := &builder{t: t, e: e, m: m}
	for i := range n {
		s := e.persistent(t)
		check(t, m.Bind(s, i == 0))
		b.streams = append(b.streams, s)
	}
	return b
}

// end ends every stream and the build.
func (b *builder) end() *gocann.ModelRI {
	b.t.Helper()
	for _, s := range b.streams {
		check(b.t, b.m.EndTask(s))
	}
	check(b.t, b.m.BuildEnd())
	return b.m
}

// trace runs m once from a zeroed trace word and checks the digits it
// left.
func trace(t *testing.T, e env, m *gocann.ModelRI, p gocann.DevPtr, want uint64, what string) {
	t.Helper()
	writeU64(t, e.c, p, 0)
	runOK(t, m, e.s)
	wantU64(t, e, p, want, what)
}

func newLabels(t *testing.T, e env, n int) []*gocann.Label {
	t.Helper()
	ls := make([]*gocann.Label, n)
	for i := range ls {
		l, err := e.r.NewLabel()
		check(t, err)
		t.Cleanup(func() { l.Close() })
		ls[i] = l
	}
	return ls
}

func TestSwitchLabelByIndex(t *testing.T) {
	// "At run time the stream jumps to labelList[index] and executes the
	// tasks on that label's stream, and the current stream's tasks stop.
	// If the index is greater than the list's maximum index, it jumps to
	// the last label."
	e := setup(t)
	k := registerKernels(t, e)
	p, idx := word(t, e, 0), word(t, e, 0)
	b := build(t, e, 2)
	s1, s2 := b.streams[0], b.streams[1]
	ls := newLabels(t, e, 3)
	shift := func(s *gocann.Stream, d uint64) { check(t, s.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(d))) }
	shift(s1, 5)
	check(t, s1.SwitchLabel(idx, ls))
	shift(s1, 9) // never reached: the jump leaves s1
	check(t, s2.SetLabel(ls[0]))
	shift(s2, 1)
	check(t, s2.SetLabel(ls[1]))
	shift(s2, 2)
	check(t, s2.SetLabel(ls[2]))
	shift(s2, 3)
	m := b.end()
	for _, c := range []struct {
		index uint64
		want  uint64
	}{{0, 5123}, {1, 523}, {2, 53}, {3, 53}, {1 << 31, 53}, {1, 523}} {
		writeU64(t, e.c, idx, c.index)
		trace(t, e, m, p, c.want, "switch by index "+utoa(uint32(c.index)))
	}
	// A destroyed label does not change a model built with it.
	check(t, ls[1].Close())
	writeU64(t, e.c, idx, 1)
	trace(t, e, m, p, 523, "switch after its label was destroyed")
}

func TestLabelErrors(t *testing.T) {
	e := setup(t)
	p := word(t, e, 0)
	ls := newLabels(t, e, 2)
	plain := e.newStream(t)
	wantErr(t, plain.SetLabel(ls[0]), gocann.CodeRTStreamModel, "stream "+itoa(plain.ID()), "not bound")
	wantErr(t, plain.SwitchLabel(p, ls), gocann.CodeRTStreamModel, "not bound")
	wantErr(t, plain.SetLabel(nil), gocann.CodeInvalidParam, "label is nil")

	b := build(t, e, 2)
	s1, s2 := b.streams[0], b.streams[1]
	check(t, s2.SetLabel(ls[0]))
	wantErr(t, s2.SetLabel(ls[0]), gocann.CodeRTParamInvalid, "already set on stream "+itoa(s2.ID()))
	wantErr(t, s1.SetLabel(ls[0]), gocann.CodeRTParamInvalid, "already set")
	wantErr(t, s1.SwitchLabel(p, nil), gocann.CodeRTParamInvalid, "label list is empty")
	wantErr(t, s1.SwitchLabel(p, []*gocann.Label{ls[0], nil}), gocann.CodeInvalidParam, "label 1 is nil")
	wantErr(t, s1.SwitchLabel(p.Add(2), ls[:1]), gocann.CodeRTAddrUnaligned, "4-byte alignment")
	// A switch to a label that is never set fails the build.
	check(t, s1.SwitchLabel(p, ls))
	for _, s := range b.streams {
		check(t, b.m.EndTask(s))
	}
	wantErr(t, b.m.BuildEnd(), gocann.CodeRTParamInvalid, "label 1", "not set on a stream of model "+utoa(b.m.ID()))

	// A label destroyed before the build ends fails it too.
	b2 := build(t, e, 2)
	l := newLabels(t, e, 1)[0]
	check(t, b2.streams[1].SetLabel(l))
	check(t, b2.streams[0].SwitchLabel(p, []*gocann.Label{l}))
	check(t, l.Close())
	wantErr(t, l.Close(), gocann.CodeRTInvalidHandle, "already destroyed")
	wantErr(t, b2.streams[1].SetLabel(l), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, b2.m.BuildEnd(), gocann.CodeRTInvalidHandle, "label 0", "destroyed")
}

func TestActivateStreamRunsAlongside(t *testing.T) {
	// "The activated stream's tasks run in parallel with the current
	// stream's": host functions on the two streams wait for each other.
	e := setup(t)
	b := build(t, e, 3)
	s1, s2, s3 := b.streams[0], b.streams[1], b.streams[2]
	rv := newRendezvous()
	check(t, s1.ActivateStream(s2))
	check(t, s1.ActivateStream(s2)) // a second activation in a run starts nothing more
	check(t, s1.LaunchHostFunc(func() { rv.side(0)() }))
	check(t, s2.LaunchHostFunc(func() { rv.side(1)() }))
	wantErr(t, s1.ActivateStream(nil), gocann.CodeInvalidParam, "activeStream is nil")
	other := build(t, e, 1)
	wantErr(t, s1.ActivateStream(other.streams[0]), gocann.CodeRTStreamModel, "stream "+itoa(other.streams[0].ID()), "not bound to model "+utoa(b.m.ID()))
	wantErr(t, e.s.ActivateStream(s2), gocann.CodeRTStreamModel, "stream "+itoa(e.s.ID()), "not bound")
	_ = s3 // bound, never activated
	m := b.end()
	for i := range 3 {
		rv.reset()
		runOK(t, m, e.s)
		if rv.timedOut.Load() {
			t.Fatalf("run %d: the activated stream did not run alongside the head stream", i)
		}
	}
}

func TestSwitchStream(t *testing.T) {
	// "If the condition holds, execution jumps to trueStream. After the jump
	// only the target stream's tasks run and the current stream's tasks
	// stop"; otherwise the current stream goes on.
	e := setup(t)
	k := registerKernels(t, e)
	p, left, right := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	models := map[gocann.CompareType]*gocann.ModelRI{}
	for _, typ := range []gocann.CompareType{gocann.CompareInt32, gocann.CompareInt64} {
		b := build(t, e, 2)
		s1, s2 := b.streams[0], b.streams[1]
		check(t, s1.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1)))
		check(t, s1.SwitchStream(left, gocann.CondLess, right, typ, s2))
		check(t, s1.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(9)))
		check(t, s2.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(2)))
		models[typ] = b.end()
	}
	// Values are read when the switch runs, as signed integers of the
	// compare type: 0xFFFFFFFF is -1 as an int32, 4294967295 as an int64.
	for _, c := range []struct {
		left, right uint64
		want32      uint64
		want64      uint64
	}{
		{1, 2, 12, 12},
		{2, 1, 19, 19},
		{2, 2, 19, 19},
		{0xFFFFFFFF, 0, 12, 19},
		{1 << 32, 1, 12, 19}, // the low 32 bits of left are 0
		{0xFFFFFFFFFFFFFFFF, 0, 12, 12},
	} {
		writeU64(t, e.c, left, c.left)
		writeU64(t, e.c, right, c.right)
		trace(t, e, models[gocann.CompareInt32], p, c.want32, "INT32 "+utoa(uint32(c.left))+" < "+utoa(uint32(c.right)))
		trace(t, e, models[gocann.CompareInt64], p, c.want64, "INT64 compare")
	}

	// Every condition.
	writeU64(t, e.c, left, 3)
	writeU64(t, e.c, right, 3)
	for cond, taken := range map[gocann.Condition]bool{
		gocann.CondEqual: true, gocann.CondNotEqual: false, gocann.CondGreater: false,
		gocann.CondGreaterOrEqual: true, gocann.CondLess: false, gocann.CondLessOrEqual: true,
	} {
		b := build(t, e, 2)
		check(t, b.streams[0].SwitchStream(left, cond, right, gocann.CompareInt64, b.streams[1]))
		check(t, b.streams[0].Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(9)))
		check(t, b.streams[1].Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(2)))
		want := uint64(9)
		if taken {
			want = 2
		}
		trace(t, e, b.end(), p, want, "3 cond 3")
	}
}

func TestSwitchStreamErrors(t *testing.T) {
	e := setup(t)
	v := word(t, e, 0)
	b := build(t, e, 2)
	s1, s2 := b.streams[0], b.streams[1]
	wantErr(t, s1.SwitchStream(v, gocann.CondEqual, v, gocann.CompareType(2), s2), gocann.CodeRTParamInvalid, "dataType 2 is invalid")
	wantErr(t, s1.SwitchStream(v, gocann.Condition(6), v, gocann.CompareInt32, s2), gocann.CodeRTParamInvalid, "condition 6 is invalid")
	wantErr(t, s1.SwitchStream(v, gocann.CondEqual, v, gocann.CompareInt32, nil), gocann.CodeInvalidParam, "trueStream is nil")
	wantErr(t, s1.SwitchStream(v.Add(4), gocann.CondEqual, v, gocann.CompareInt64, s2), gocann.CodeRTParamInvalid, "leftValue")
	wantErr(t, e.s.SwitchStream(v, gocann.CondEqual, v, gocann.CompareInt32, s2), gocann.CodeRTStreamModel, "stream "+itoa(e.s.ID()), "not bound")
	wantErr(t, s1.SwitchStream(v, gocann.CondEqual, v, gocann.CompareInt32, e.s), gocann.CodeRTStreamModel, "stream "+itoa(e.s.ID()), "not bound to model")
}

// condModel captures a model whose one task is a conditional task of kind
// with n branches; branch i stores 10*(i+1) at p, or, for WHILE,
// decrements the condition and counts iterations at p.
func condModel(t *testing.T, e env, k kernels, kind gocann.CondKind, n int, def uint32, reset bool, p gocann.DevPtr) (*gocann.ModelRI, *gocann.CondHandle, []*gocann.ModelRI) {
	t.Helper()
	var h *gocann.CondHandle
	var subs []*gocann.ModelRI
	branch := e.newStream(t)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		var err error
		h, err = s.Capturing().Model().NewCond(def, reset)
		check(t, err)
		subs, err = s.AddCond(h, kind, n)
		check(t, err)
		for i, sub := range subs {
			c, err := branch.BeginCaptureInto(sub, gocann.CaptureGlobal)
			check(t, err)
			if kind == gocann.CondWhile {
				check(t, branch.Launch(k.dec, 1, gocann.Ptr(h.Ptr()), gocann.Ptr(p)))
			} else {
				check(t, branch.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(uint64(10*(i+1)))))
			}
			got, err := c.End()
			check(t, err)
			if got != sub {
				t.Fatalf("End of a branch capture returned model %d, want the branch %d", got.ID(), sub.ID())
			}
		}
		return nil
	})
	check(t, err)
	closeModel(t, m)
	if len(subs) != n {
		t.Fatalf("AddCond returned %d branches, want %d", len(subs), n)
	}
	return m, h, subs
}

// runCond sets the condition to v, runs m and checks the word at p.
func runCond(t *testing.T, e env, m *gocann.ModelRI, h *gocann.CondHandle, v uint64, p gocann.DevPtr, want uint64, what string) {
	t.Helper()
	writeU64(t, e.c, h.Ptr(), v)
	writeU64(t, e.c, p, 0)
	runOK(t, m, e.s)
	wantU64(t, e, p, want, what)
}

func TestCondIf(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	one, h1, _ := condModel(t, e, k, gocann.CondIf, 1, 0, false, p)
	runCond(t, e, one, h1, 0, p, 0, "IF with one branch, value 0")
	runCond(t, e, one, h1, 1, p, 10, "IF with one branch, value 1")
	runCond(t, e, one, h1, 1<<40, p, 10, "IF with one branch, a value beyond 32 bits")
	two, h2, _ := condModel(t, e, k, gocann.CondIf, 2, 0, false, p)
	runCond(t, e, two, h2, 7, p, 10, "IF with two branches, value 7")
	runCond(t, e, two, h2, 0, p, 20, "IF with two branches, value 0")
}

func TestCondResetEachRun(t *testing.T) {
	// ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT: "the condition variable is
	// set to defaultLaunchValue at the start of every model execution".
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, h, _ := condModel(t, e, k, gocann.CondIf, 2, 1, true, p)
	runCond(t, e, m, h, 0, p, 10, "the default value 1 replaced the 0 written before the run")
	wantU64(t, e, h.Ptr(), 1, "the condition after a run")
	// Without the flag the program's value is kept.
	m2, h2, _ := condModel(t, e, k, gocann.CondIf, 2, 1, false, p)
	wantU64(t, e, h2.Ptr(), 0, "a new condition without the default flag")
	runCond(t, e, m2, h2, 0, p, 20, "the program's 0")
}

func TestCondWhile(t *testing.T) {
	// WHILE runs its branch while the value is non-zero, checking before
	// each run; here the branch decrements the value and counts.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, h, _ := condModel(t, e, k, gocann.CondWhile, 1, 0, false, p)
	for _, n := range []uint64{0, 1, 5, 17} {
		runCond(t, e, m, h, n, p, n, "iterations for value "+utoa(uint32(n)))
		wantU64(t, e, h.Ptr(), 0, "the condition after the loop")
	}
}

func TestCondSwitch(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, h, subs := condModel(t, e, k, gocann.CondSwitch, 3, 0, false, p)
	for v, want := range map[uint64]uint64{0: 10, 1: 20, 2: 30, 3: 0, 1 << 33: 0} {
		runCond(t, e, m, h, v, p, want, "SWITCH value "+utoa(uint32(v)))
	}
	// The description names the condition and the branch models, which
	// it describes too.
	var buf bytes.Buffer
	check(t, m.WriteJSON(&buf, false))
	var doc struct {
		Streams []struct {
			Tasks []struct {
				Type     string   `json:"type"`
				Branches []uint32 `json:"branch_models"`
			} `json:"tasks"`
		} `json:"streams"`
		Conditions []struct {
			Addr string `json:"addr"`
		} `json:"conditions"`
		Branches []struct {
			ID   uint32 `json:"model_id"`
			Kind string `json:"kind"`
		} `json:"branches"`
	}
	check(t, json.Unmarshal(buf.Bytes(), &doc))
	task := doc.Streams[0].Tasks[0]
	if task.Type != "switch" || len(task.Branches) != 3 || task.Branches[2] != subs[2].ID() {
		t.Fatalf("JSON conditional task: %+v", task)
	}
	if len(doc.Conditions) != 1 || doc.Conditions[0].Addr != fmt.Sprintf("%#x", uint64(h.Ptr())) {
		t.Fatalf("JSON conditions: %+v", doc.Conditions)
	}
	if len(doc.Branches) != 3 || doc.Branches[0].ID != subs[0].ID() || doc.Branches[0].Kind != "branch" {
		t.Fatalf("JSON branches: %+v", doc.Branches)
	}
}

func TestCondErrors(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	branch := e.newStream(t)

	// A condition belongs to a model in capture.
	built := newBuild(t, e)
	check(t, built.Bind(e.persistent(t), true))
	check(t, built.BuildEnd())
	_, err := built.NewCond(0, false)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not being captured")

	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	h, err := c.Model().NewCond(0, false)
	check(t, err)
	for _, bad := range []struct {
		kind gocann.CondKind
		n    int
	}{{gocann.CondIf, 0}, {gocann.CondIf, 3}, {gocann.CondWhile, 0}, {gocann.CondWhile, 2}, {gocann.CondSwitch, 0}} {
		_, err := e.s.AddCond(h, bad.kind, bad.n)
		wantErr(t, err, gocann.CodeRTParamInvalid, "with "+itoa(int32(bad.n))+" branches is invalid", "IF 1..2, WHILE 1, SWITCH 1..65535")
	}
	_, err = e.s.AddCond(h, gocann.CondKind(3), 1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "kind 3 is invalid")
	_, err = e.s.AddCond(nil, gocann.CondIf, 1)
	wantErr(t, err, gocann.CodeInvalidParam, "condition handle is nil")
	_, err = branch.AddCond(h, gocann.CondIf, 1)
	wantErr(t, err, gocann.CodeRTStreamNotCaptured, "stream "+itoa(branch.ID()), "not capturing")
	other, err := e.newStream(t).BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	hOther, err := other.Model().NewCond(0, false)
	check(t, err)
	_, err = e.s.AddCond(hOther, gocann.CondIf, 1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "belongs to model "+utoa(other.Model().ID()))
	om, err := other.End()
	check(t, err)
	check(t, om.Close())

	subs, err := e.s.AddCond(h, gocann.CondIf, 1)
	check(t, err)
	sub := subs[0]
	// The parent's own capturing stream cannot capture a branch; the
	// branch stays capturable.
	_, err = e.s.BeginCaptureInto(sub, gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeRTStreamCaptured, "already capturing")
	_, err = branch.BeginCaptureInto(nil, gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeInvalidParam, "modelRI is nil")
	_, err = branch.BeginCaptureInto(c.Model(), gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not an uncaptured conditional branch")
	bc, err := branch.BeginCaptureInto(sub, gocann.CaptureGlobal)
	check(t, err)
	check(t, branch.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(1)))
	_, err = bc.End()
	check(t, err)
	_, err = branch.BeginCaptureInto(sub, gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not an uncaptured conditional branch")
	m, err := c.End()
	check(t, err)

	// Branches run only inside their model and go with it.
	wantErr(t, sub.Close(), gocann.CodeRTParamInvalid, "model "+utoa(sub.ID()), "conditional branch of model "+utoa(m.ID()))
	wantErr(t, sub.Run(e.s), gocann.CodeRTParamInvalid, "conditional branch")
	writeU64(t, e.c, h.Ptr(), 1)
	runOK(t, m, e.s)
	wantU64(t, e, p, 1, "the branch")
	var gone bool
	check(t, sub.OnDestroy(func() { gone = true }))
	check(t, m.Close())
	if !gone {
		t.Fatal("closing the model did not destroy its branch")
	}
	wantErr(t, sub.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
}

func TestCondBranchCaptureFails(t *testing.T) {
	// A branch whose capture fails is empty again and can be captured anew.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	branch := e.newStream(t)
	var sub *gocann.ModelRI
	var h *gocann.CondHandle
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		var err error
		h, err = s.Capturing().Model().NewCond(1, true)
		check(t, err)
		subs, err := s.AddCond(h, gocann.CondIf, 1)
		check(t, err)
		sub = subs[0]
		c, err := branch.BeginCaptureInto(sub, gocann.CaptureGlobal)
		check(t, err)
		check(t, branch.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(99)))
		wantErr(t, branch.SynchronizeTimeout(long), gocann.CodeRTCaptureModeNotSupport, "capturing")
		_, err = c.End()
		wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "invalidated")
		c, err = branch.BeginCaptureInto(sub, gocann.CaptureGlobal)
		check(t, err)
		check(t, branch.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(7)))
		_, err = c.End()
		return err
	})
	check(t, err)
	closeModel(t, m)
	runOK(t, m, e.s)
	wantU64(t, e, p, 7, "the branch captured the second time")
}
