package gocann_test

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// buildOne builds a model over a new persistent stream whose tasks fill
// queues, returning the model and the stream.
func buildOne(t *testing.T, e env, fill func(s *gocann.Stream)) (*gocann.ModelRI, *gocann.Stream) {
	t.Helper()
	ps := e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(ps, true))
	fill(ps)
	check(t, m.EndTask(ps))
	check(t, m.BuildEnd())
	return m, ps
}

// aclmdlRIAbort: a run waiting for a word nobody writes ends, its stream
// reports ACL_ERROR_RT_MODEL_ABORT_NORMAL, and the model runs again.
func TestModelAbort(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	gate, after := word(t, e, 0), word(t, e, 0)
	m, _ := buildOne(t, e, func(ps *gocann.Stream) {
		check(t, ps.WaitValue(gate, 1, gocann.WaitEQ))
		check(t, ps.Launch(k.add, 1, gocann.Ptr(after), gocann.U64(1)))
	})
	check(t, m.Run(e.s))
	stays(t, 20*time.Millisecond, "the run waits for the gate", func() bool { return !isDone(t, e.s) })
	check(t, m.Abort())
	wantErr(t, e.s.Synchronize(context.Background()), gocann.CodeRTModelAbortNormal, "aborted", "aclmdlRIAbort")
	wantU64(t, e, after, 0, "the task after the aborted wait")

	// A later run is whole.
	writeU64(t, e.c, gate, 1)
	runOK(t, m, e.s)
	wantU64(t, e, after, 1, "the task after the wait, in the run after the abort")
	// An abort with no run going leaves later runs alone.
	check(t, m.Abort())
	runOK(t, m, e.s)
	wantU64(t, e, after, 2, "a run queued after an idle abort")

	check(t, m.Close())
	wantErr(t, m.Abort(), gocann.CodeRTInvalidHandle, "destroyed")
}

// Kernel tasks keep their launch configuration (aclmdlRIKernelTaskGetAttribute).
func TestKernelTaskLaunchConfig(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	lc := gocann.LaunchConfig{SchedMode: 1, DynUBufSize: 4096, DataDump: true, Timeout: 1500 * time.Millisecond}
	m, _ := buildOne(t, e, func(ps *gocann.Stream) {
		slots := []uint64{uint64(p), 5}
		check(t, ps.Raw().WithLaunchConfig(lc).LaunchArgs(k.store, 1, unsafe.Pointer(&slots[0]), 16, 0))
		check(t, ps.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
		check(t, ps.WriteValue(p, 3))
	})
	ss, err := m.Streams()
	check(t, err)
	tasks := ss[0].Tasks()
	got, err := tasks[0].LaunchConfig()
	check(t, err)
	if got != lc {
		t.Fatalf("LaunchConfig = %+v, want %+v", got, lc)
	}
	got, err = tasks[1].LaunchConfig()
	check(t, err)
	if got != (gocann.LaunchConfig{}) {
		t.Fatalf("LaunchConfig of a launch without one = %+v, want zero", got)
	}
	_, err = tasks[2].LaunchConfig()
	wantErr(t, err, gocann.CodeRTParamInvalid, "not a kernel task")
	runOK(t, m, e.s)
	wantU64(t, e, p, 3, "the model with a configured launch")

	p310 := setup(t, profileConfig("Ascend310B1"))
	k310 := registerKernels(t, p310)
	_, ps := buildOne(t, p310, func(ps *gocann.Stream) {
		check(t, ps.Launch(k310.store, 1, gocann.Ptr(word(t, p310, 0)), gocann.U64(1)))
	})
	ms, err := ps.BoundModelStream()
	check(t, err)
	_, err = ms.Tasks()[0].LaunchConfig()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclmdlRIKernelTaskGetAttribute", "Ascend310B1")
}

// aclrtTaskUpdateAsync: the update task reads the kernel entry and block
// count from device words when it runs and rewrites the task in place.
func TestUpdateKernelTask(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	out := malloc(t, e.c, 8*4)
	check(t, e.s.Memset(out, 0, 32))
	fillIdx, err := e.r.RegisterKernel("update_fill_idx", func(b *gocann.Block) {
		b.Store64(b.Arg(0).Ptr().Add(int64(8*b.Idx())), uint64(b.Idx())+b.Arg(1).U64())
	})
	check(t, err)
	m, _ := buildOne(t, e, func(ps *gocann.Stream) { check(t, ps.Launch(k.store, 1, gocann.Ptr(out), gocann.U64(7))) })
	ss, err := m.Streams()
	check(t, err)
	task := ss[0].Tasks()[0]
	entry, blocks := word(t, e, 42), word(t, e, 3)
	resolve := func(v uint64) (*gocann.Kernel, error) {
		if v != 42 {
			return nil, gocann.Errorf("resolve", gocann.KindSymbolNotFound, "no kernel has entry %d", v)
		}
		return fillIdx, nil
	}
	upd := e.newStream(t)
	// The words are read when the update runs, not when it is queued.
	writeU64(t, e.c, blocks, 0)
	g := block(t, upd)
	check(t, upd.UpdateKernelTask(task, resolve, entry, blocks))
	writeU64(t, e.c, blocks, 3)
	g.Open()
	syncOK(t, upd)
	runOK(t, m, e.s)
	for i := range 3 {
		wantU64(t, e, out.Add(int64(8*i)), uint64(i)+7, "block of the updated kernel, with the task's argument")
	}
	wantU64(t, e, out.Add(24), 0, "past the updated block count")
	if p := task.Params(); p.Kernel != fillIdx || p.Blocks != 3 {
		t.Fatalf("the task after the update: kernel %v, %d blocks; want update_fill_idx, 3", p.Kernel.Name(), p.Blocks)
	}

	// A bad entry or block count faults the update and leaves the task.
	for _, c := range []struct{ entry, blocks uint64 }{{43, 2}, {42, 0}, {42, 70000}} {
		writeU64(t, e.c, entry, c.entry)
		writeU64(t, e.c, blocks, c.blocks)
		check(t, upd.UpdateKernelTask(task, resolve, entry, blocks))
		if err := upd.Synchronize(context.Background()); err == nil {
			t.Fatalf("an update with entry %d and %d blocks succeeded", c.entry, c.blocks)
		}
		if p := task.Params(); p.Blocks != 3 {
			t.Fatalf("a failed update changed the task's blocks to %d", p.Blocks)
		}
	}
	wantErr(t, upd.UpdateKernelTask(task, nil, entry, blocks), gocann.CodeInvalidParam, "resolve is nil")
	wantErr(t, upd.UpdateKernelTask(task, resolve, 0, blocks), gocann.CodeRTParamInvalid, "funcEntryAddr")
	wantErr(t, upd.UpdateKernelTask(task, resolve, entry, 8), gocann.CodeRTParamInvalid, "blockDimAddr")

	p310 := setup(t, profileConfig("Ascend310B1"))
	wantErr(t, p310.s.UpdateKernelTask(task, resolve, entry, blocks), gocann.CodeRTFeatureNotSupport, "aclrtTaskUpdateAsync", "Ascend310B1")
}
