package haltest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

const (
	// patience bounds anything that must happen.
	patience = 10 * time.Second
	// settle is how long a test watches for something that must not happen.
	settle = 30 * time.Millisecond
)

// Run runs the conformance suite. open returns a fresh backend for each
// subtest; the subtest closes it.
func Run(t *testing.T, open func(t *testing.T) hal.Backend) {
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) { c.fn(newEnv(t, open)) })
	}
}

type testCase struct {
	name string
	fn   func(e *env)
}

func cases() []testCase {
	return []testCase{
		{"Backend/DeviceCount", testDeviceCount},
		{"Backend/Props", testProps},
		{"Backend/Open", testOpen},
		{"Backend/LookupDevice", testLookupDevice},
		{"Backend/LookupTwoDevices", testLookupTwoDevices},
		{"Backend/MallocHost", testMallocHost},
		{"Backend/ClosedSpan", testClosedSpan},
		{"Backend/ClosedSpanUse", testClosedSpanUse},

		{"Memory/Alignment", testMallocAlignment},
		{"Memory/NeverUsedReadsZero", testNeverUsedReadsZero},
		{"Memory/MemInfo", testMemInfo},
		{"Memory/OutOfMemory", testOutOfMemory},
		{"Memory/FreeErrors", testFreeErrors},
		{"Memory/PointerBounds", testPointerBounds},

		{"Queue/InOrderMixedKinds", testInOrderMixed},
		{"Queue/SubmittedCompletedWait", testSubmittedCompletedWait},
		{"Queue/Limit", testQueueLimit},
		{"Queue/ClosePending", testQueueClosePending},
		{"Queue/Depth", testQueueDepth},
		{"Queue/DirectProducersRace", testDirectRace},

		{"Kernel/BlocksAndArgs", testKernelBlocksAndArgs},
		{"Kernel/CoreBound", testKernelCoreBound},
		{"Kernel/PollReleasedByValueWrite", testKernelPoll},
		{"Kernel/Faults", testKernelFaults},
		{"Kernel/BadAccess", testKernelBadAccess},
		{"HostFunc/Fault", testHostFuncFault},

		{"Copy/Directions", testCopyDirections},
		{"Copy/2D", testCopy2D},
		{"Copy/2DLarge", testCopy2DLarge},
		{"Copy/Memset", testMemset},
		{"Copy/Overlapping", testCopyOverlapping},
		{"Copy/Fault", testCopyFault},
		{"Copy/RunRefusesOtherKinds", testRunRefuses},
		{"Copy/OverlapsKernel", testCopyOverlapsKernel},

		{"Event/RecordWaitOrders", testEventOrders},
		{"Event/NeverRecorded", testEventNeverRecorded},
		{"Event/OneRecordTwoWaits", testEventTwoWaits},
		{"Event/Reset", testEventReset},
		{"Event/WaitIgnoresLaterRecords", testEventLaterRecord},
		{"Event/Timestamp", testEventTimestamp},
		{"Event/CloseWithQueuedWait", testEventClose},
		{"Event/Limit", testEventLimit},

		{"Notify/OneRecordOneWait", testNotifyOneShot},
		{"Notify/RecordBeforeWait", testNotifyRecordFirst},
		{"Notify/Timeout", testNotifyTimeout},
		{"Notify/TimeoutCountsFromWaitStart", testNotifyTimeoutStart},
		{"Notify/CrossDevice", testNotifyCrossDevice},
		{"Notify/Limit", testNotifyLimit},

		{"Value/Write", testValueWrite},
		{"Value/WaitImmediate", testValueWaitImmediate},
		{"Value/WaitHostWrite", func(e *env) { testValueWaitLater(e, false) }},
		{"Value/WaitKernelWrite", func(e *env) { testValueWaitLater(e, true) }},

		{"Priority/UrgentFirst", testPriority},
		{"Priority/SetPriority", testSetPriority},

		{"Failure/StopOnFailure", testStopOnFailure},
		{"Failure/StopOnSyncFault", testStopOnSyncFault},
		{"Failure/AbortDropsPending", testAbortDropsPending},
		{"Failure/AbortWakesWaiter", testAbortWakesWaiter},

		{"Trace/Records", testTrace},
		{"Share/File", testShare},
		{"Task/Accesses", testAccesses},
		{"Peer/Access", testPeer},
		{"Identity/Devices", testIdentity},
		{"Utilization/Busy", testUtilization},
		{"Memory/UsageByTag", testMemUsage},

		{"HostMap/KernelInPlace", testHostMap},
		{"Copy/Batch", testCopyBatch},
		{"Copy/Memset32", testMemset32},
		{"Copy/Indirect", testCopyIndirect},
		{"Cmo/OrderedNoBytes", testCmo},
		{"VMM/Reserve", testVMMReserve},
		{"VMM/DoubleMap", testVMMDoubleMap},
		{"VMM/Access", testVMMAccess},
	}
}

// env is one subtest's backend, its device 0 and what the tests share.
type env struct {
	t     *testing.T
	b     hal.Backend
	d     hal.Device
	props hal.Props

	quit atomic.Bool // set at cleanup: waiting kernels and host functions give up

	// mu guards the fields below.
	mu      sync.Mutex
	gates   []*gate
	devs    map[int]hal.Device
	faults  []hal.Fault
	atClose []func() // run after the devices closed, before the backend closes
}

func newEnv(t *testing.T, open func(t *testing.T) hal.Backend) *env {
	b := open(t)
	if b == nil {
		t.Fatal("open returned a nil backend")
	}
	e := &env{t: t, b: b, devs: map[int]hal.Device{}}
	t.Cleanup(func() {
		e.release()
		e.mu.Lock()
		fns := e.atClose
		e.mu.Unlock()
		for _, fn := range fns {
			fn()
		}
		if err := b.Close(); err != nil {
			t.Errorf("Backend.Close: %v", err)
		}
	})
	e.d = e.device(0)
	e.props = e.d.Props()
	return e
}

// device opens device id (once) with a fault handler collecting its faults;
// cleanup closes it.
func (e *env) device(id int) hal.Device {
	e.t.Helper()
	e.mu.Lock()
	d := e.devs[id]
	e.mu.Unlock()
	if d != nil {
		return d
	}
	d, err := e.b.Open(id)
	if err != nil {
		e.t.Fatalf("Open(%d): %v", id, err)
	}
	d.SetFaultHandler(e.onFault)
	e.mu.Lock()
	e.devs[id] = d
	e.mu.Unlock()
	e.t.Cleanup(func() { e.closeDevice(id) })
	return d
}

// closeDevice closes device id if this env opened it and it is still open.
func (e *env) closeDevice(id int) {
	e.mu.Lock()
	d := e.devs[id]
	delete(e.devs, id)
	e.mu.Unlock()
	if d == nil {
		return
	}
	e.release()
	if err := d.Close(); err != nil {
		e.t.Errorf("device %d Close: %v", id, err)
	}
}

func (e *env) onFault(f hal.Fault) {
	e.mu.Lock()
	e.faults = append(e.faults, f)
	e.mu.Unlock()
}

// handled returns the faults the fault handlers have seen so far.
func (e *env) handled() []hal.Fault {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]hal.Fault(nil), e.faults...)
}

// waitHandled waits until the handlers saw n faults, then watches a little
// longer for extra ones, and returns what they saw.
func (e *env) waitHandled(n int) []hal.Fault {
	e.t.Helper()
	e.until(func() bool { return len(e.handled()) >= n })
	time.Sleep(settle)
	fs := e.handled()
	if len(fs) != n {
		e.t.Errorf("fault handler called %d times, want %d: %+v", len(fs), n, fs)
	}
	return fs
}

// release opens every gate and tells waiting kernels and host functions to
// give up, so cleanup never waits on a test that failed half way.
func (e *env) release() {
	e.quit.Store(true)
	e.mu.Lock()
	gs := e.gates
	e.mu.Unlock()
	for _, g := range gs {
		g.open()
	}
}

// until polls cond until it holds or patience runs out, and reports whether
// it holds.
func (e *env) until(cond func() bool) bool {
	deadline := time.Now().Add(patience)
	for !cond() {
		if e.quit.Load() || time.Now().After(deadline) {
			return cond()
		}
		time.Sleep(50 * time.Microsecond)
	}
	return true
}

// gate holds host functions until it is opened.
type gate struct {
	once sync.Once
	ch   chan struct{}
}

func (e *env) gate() *gate {
	g := &gate{ch: make(chan struct{})}
	e.mu.Lock()
	e.gates = append(e.gates, g)
	e.mu.Unlock()
	return g
}

func (g *gate) open() { g.once.Do(func() { close(g.ch) }) }

// blocker is a host function task that returns once g opens.
func (e *env) blocker(g *gate) hal.Task {
	return hostTask(func() {
		select {
		case <-g.ch:
		case <-time.After(patience):
			e.t.Errorf("a host function waited %v for a gate that never opened", patience)
		}
	})
}

// queueOn creates a queue on device d; cleanup aborts and closes it.
func (e *env) queueOn(d hal.Device, cfg hal.QueueConfig) hal.Queue {
	e.t.Helper()
	q, err := d.NewQueue(cfg)
	if err != nil {
		e.t.Fatalf("NewQueue(%+v): %v", cfg, err)
	}
	e.t.Cleanup(func() {
		e.release()
		// The test may have closed it already; errors here mean nothing.
		_ = q.Abort()
		_ = q.Close()
	})
	return q
}

// queue creates a queue of the most urgent priority on device 0.
func (e *env) queue() hal.Queue {
	e.t.Helper()
	return e.queueOn(e.d, hal.QueueConfig{Priority: e.props.GreatestPriority})
}

func (e *env) submit(q hal.Queue, t hal.Task) uint64 {
	e.t.Helper()
	seq, err := q.Submit(t)
	if err != nil {
		e.t.Fatalf("Submit(%s) on queue %d: %v", t.Kind, q.ID(), err)
	}
	return seq
}

// wait waits for everything submitted to q and checks that nothing faulted.
func (e *env) wait(q hal.Queue) {
	e.t.Helper()
	seq := q.Submitted()
	if err := waitSeq(q, seq, patience); err != nil {
		e.t.Fatalf("Wait(%d) on queue %d: %v", seq, q.ID(), err)
	}
	if fs := q.TakeFaults(seq); fs != nil {
		e.t.Fatalf("queue %d faulted: %+v", q.ID(), fs)
	}
}

// pendingAfterSettle reports whether task seq of q is still not done after
// settle.
func pendingAfterSettle(q hal.Queue, seq uint64) bool {
	time.Sleep(settle)
	return q.Completed() < seq
}

func (e *env) malloc(d hal.Device, size uint64) hal.Allocation {
	e.t.Helper()
	a, err := d.Malloc(size, hal.MemPolicy{Page: hal.PageHugeFirst})
	if err != nil {
		e.t.Fatalf("Malloc(%d): %v", size, err)
	}
	return a
}

func wantKind(t *testing.T, err error, k hal.Kind, what string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s", what, k)
		return
	}
	if got := hal.KindOf(err); got != k {
		t.Errorf("%s: error %q of kind %s, want %s", what, err, got, k)
	}
}

func hostTask(fn func()) hal.Task { return hal.Task{Kind: hal.TaskHostFunc, Host: fn} }

func kernelTask(name string, blocks int, fn func(b *kernel.Block), args ...uint64) hal.Task {
	t := hal.Task{Kind: hal.TaskKernel, Kernel: &kernel.Func{Name: name, Fn: fn}, Blocks: uint32(blocks), NArgs: uint32(len(args))}
	copy(t.Args[:], args)
	return t
}

func copyTask(dst, src hal.Loc, n uint64) hal.Task {
	return hal.Task{Kind: hal.TaskCopy, Dst: dst, Src: src, Size: n}
}

func memsetTask(dst uint64, v byte, n uint64) hal.Task {
	return hal.Task{Kind: hal.TaskMemset, Dst: hal.DevLoc(dst), Value: uint64(v), Size: n}
}

func valueWrite(addr, v uint64) hal.Task {
	return hal.Task{Kind: hal.TaskValueWrite, Dst: hal.DevLoc(addr), Value: v}
}

func valueWait(addr, v uint64, flag uint32) hal.Task {
	return hal.Task{Kind: hal.TaskValueWait, Dst: hal.DevLoc(addr), Value: v, Flag: flag}
}

// order records the order in which tasks ran.
type order struct {
	mu   sync.Mutex
	tags []string
}

func (o *order) add(tag string) {
	o.mu.Lock()
	o.tags = append(o.tags, tag)
	o.mu.Unlock()
}

func (o *order) get() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.tags...)
}

func (o *order) task(tag string) hal.Task { return hostTask(func() { o.add(tag) }) }

// pattern returns n bytes that differ with seed and position.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	x := uint32(seed)*2654435761 + 1
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	return b
}

// waitSeq waits for task seq of q with no context, bounded by timeout alone.
func waitSeq(q hal.Queue, seq uint64, timeout time.Duration) error {
	//lint:ignore SA1012 hal.Queue.Wait takes a nil context as "no context"
	return q.Wait(nil, seq, timeout)
}
