package sim

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// directLaunch writes a launch into q's SQ as a producer outside Go does
// (capi/direct.c), reporting false where that producer falls back to Submit.
func directLaunch(q hal.Queue, kernel uint32, blocks uint32, args ...uint64) bool {
	dq := q.(hal.Direct)
	sq := dq.SQ()
	for !sq.Lock.CompareAndSwap(0, 1) {
	}
	defer sq.Lock.Store(0)
	e := hal.SQE{Kernel: kernel, Blocks: blocks, NArgs: uint32(len(args)), Thread: 7}
	copy(e.Args[:], args)
	return hal.Produce(sq, hal.SQEntries, func(seq uint64) { sq.PutEntry(seq, &e) }, dq.Doorbell) != 0
}

// logKernel appends its argument to a log, in the order launches run.
type logKernel struct {
	mu  sync.Mutex
	got []uint64
	k   kernel.Func
}

func newLogKernel() *logKernel {
	l := &logKernel{}
	l.k = kernel.Func{Name: "log", Fn: func(b *kernel.Block) {
		l.mu.Lock()
		l.got = append(l.got, b.Args()[0])
		l.mu.Unlock()
	}}
	return l
}

func (l *logKernel) launch(t *testing.T, q hal.Queue, v uint64) {
	t.Helper()
	submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: &l.k, Blocks: 1, NArgs: 1, Args: [hal.MaxArgs]uint64{v}})
}

func (l *logKernel) check(t *testing.T, n int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	want := make([]uint64, n)
	for i := range want {
		want[i] = uint64(i)
	}
	if !slices.Equal(l.got, want) {
		t.Fatalf("kernels ran with arguments %v, want 0..%d in order", l.got, n-1)
	}
}

// hold blocks q behind a notify wait and returns the function that releases it.
func hold(t *testing.T, d hal.Device, q hal.Queue) func() {
	t.Helper()
	n, err := d.NewNotify()
	if err != nil {
		t.Fatal(err)
	}
	submit(t, q, hal.Task{Kind: hal.TaskNotifyWait, Notify: n})
	other := newQ(t, d, 0)
	return func() { submit(t, other, hal.Task{Kind: hal.TaskNotifyRecord, Notify: n}) }
}

// TestDirectKeepsOrder mixes direct launches with Submit on a queue held by
// a notify wait: every task runs once, in the order submitted, though the
// entries outnumber the SQ (Submit takes them in to make room).
func TestDirectKeepsOrder(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	l := newLogKernel()
	id := q.(hal.KernelNumberer).KernelID(&l.k)
	if id == 0 || q.(hal.KernelNumberer).KernelID(&l.k) != id {
		t.Fatalf("KernelID gave %d, then another number: want one non-zero number per kernel", id)
	}
	release := hold(t, d, q)
	direct := 0
	for i := range 1000 {
		if directLaunch(q, id, 1, uint64(i)) {
			direct++
		} else {
			l.launch(t, q, uint64(i))
		}
	}
	if direct < 900 {
		t.Errorf("%d of 1000 launches behind a held queue went direct, want most", direct)
	}
	release()
	wait(t, q)
	l.check(t, 1000)
}

// TestDirectStress launches from a producer that falls back to Submit while
// a worker drains the queue, so the queue runs dry between entries: an
// entry written as it does must be taken in by the doorbell, never lost.
func TestDirectStress(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	l := newLogKernel()
	id := q.(hal.KernelNumberer).KernelID(&l.k)
	const n = 20000
	for i := range n {
		if !directLaunch(q, id, 1, uint64(i)) {
			l.launch(t, q, uint64(i))
		}
	}
	wait(t, q)
	l.check(t, n)
	if got := q.Completed(); got != n {
		t.Fatalf("completed %d tasks, want %d", got, n)
	}
}

// TestDirectRefused checks what closes the SQ to direct launches: a closed
// Open (a stream that captures, say), a stop. A launch on an idle queue is
// taken, and the doorbell starts the queue.
func TestDirectRefused(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	l := newLogKernel()
	dq := q.(hal.Direct)
	id := q.(hal.KernelNumberer).KernelID(&l.k)
	if dq.SQ().Busy.Load() != 0 || !directLaunch(q, id, 1, 0) {
		t.Fatal("a direct launch on an idle queue was refused")
	}
	wait(t, q)
	l.check(t, 1)
	release := hold(t, d, q)
	dq.Update(func() bool { return false })
	if directLaunch(q, id, 1, 0) {
		t.Fatal("a direct launch was taken with Open 0")
	}
	dq.Update(func() bool { return true })
	if !directLaunch(q, id, 1, 1) {
		t.Fatal("a direct launch behind a held queue with Open 1 was refused")
	}
	release()
	wait(t, q)
	l.check(t, 2)

	// A stopped queue refuses until the stop is cleared.
	q.SetStopOnFailure(true)
	release = hold(t, d, q)
	submit(t, q, hal.Task{Kind: hal.TaskKernel, Blocks: 1, Kernel: &kernel.Func{Name: "bad", Fn: func(*kernel.Block) { panic("bad") }}})
	release()
	q.Wait(t.Context(), q.Submitted(), 0)
	if _, stopped := q.Stopped(); !stopped {
		t.Fatal("a faulting kernel in STOP_ON_FAILURE mode did not stop the queue")
	}
	if dq.SQ().Stopped.Load() != 1 {
		t.Fatal("the SQ does not show the stop")
	}
	release = hold(t, d, newQ(t, d, 0))
	defer release()
	if directLaunch(q, id, 1, 1) {
		t.Fatal("a direct launch on a stopped queue was taken")
	}
	if err := q.Abort(); err != nil {
		t.Fatal(err)
	}
	if dq.SQ().Stopped.Load() != 0 {
		t.Fatal("the SQ still shows a stop after Abort")
	}
}

// TestDirectUnknownKernel: an entry naming no kernel, or a forgotten one,
// faults when it runs; the scheduler goes on, and a forgotten kernel's
// number is not given out again.
func TestDirectUnknownKernel(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	kn := q.(hal.KernelNumberer)
	l := newLogKernel()
	id := kn.KernelID(&l.k)
	gone := &kernel.Func{Name: "gone", Fn: func(*kernel.Block) { t.Error("a forgotten kernel ran") }}
	goneID := kn.KernelID(gone)
	kn.ForgetKernel(gone)
	release := hold(t, d, q)
	if !directLaunch(q, 999, 1, 0) || !directLaunch(q, id, 1, 0) || !directLaunch(q, goneID, 1, 0) {
		t.Fatal("direct launches behind a held queue were refused")
	}
	release()
	wait(t, q)
	faults := q.TakeFaults(q.Submitted())
	if len(faults) != 2 || faults[0].Kind != hal.KindAICoreException || faults[1].Kernel != "gone" ||
		!strings.Contains(faults[1].Msg, "unloaded") {
		t.Fatalf("faults %+v, want AI core exceptions for the unknown kernel and for gone, unloaded", faults)
	}
	l.check(t, 1)
	if again := kn.KernelID(gone); again == goneID || again == id {
		t.Fatalf("a forgotten kernel numbered again got %d, a number in use (%d, %d)", again, goneID, id)
	}
}
