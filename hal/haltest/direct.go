package haltest

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// Direct producers (hal.Direct): code outside the backend writing launches
// into a queue's SQ through hal.Produce, as the C ABI does.

// directProducer writes launches of its kernel into q's SQ; when Produce
// refuses one it falls back to Submit, as the C ABI falls back to Go.
type directProducer struct {
	q      hal.Queue
	dq     hal.Direct
	kernel *kernel.Func
	id     uint32 // the kernel's number for SQ entries
}

// lockSQ takes the submitters' lock as a producer in C does: spinning, then
// yielding.
func lockSQ(sq *hal.SQ) {
	for i := 0; !sq.Lock.CompareAndSwap(0, 1); i++ {
		if i >= 64 {
			runtime.Gosched()
		}
	}
}

// launch queues the kernel with args, directly or through Submit. It
// returns the task's sequence number and whether it went direct; seq 0
// with the error Submit gave if the queue took it neither way.
func (p *directProducer) launch(args ...uint64) (seq uint64, direct bool, err error) {
	sq := p.dq.SQ()
	e := hal.SQE{Kernel: p.id, Blocks: 1, NArgs: uint32(len(args))}
	copy(e.Args[:], args)
	lockSQ(sq)
	seq = hal.Produce(sq, hal.SQEntries, func(seq uint64) { sq.PutEntry(seq, &e) }, p.dq.Doorbell)
	sq.Lock.Store(0)
	if seq != 0 {
		return seq, true, nil
	}
	t := hal.Task{Kind: hal.TaskKernel, Kernel: p.kernel, Blocks: 1, NArgs: e.NArgs, Args: e.Args}
	seq, err = p.q.Submit(t)
	return seq, false, err
}

// raceLog records the launches of testDirectRace: what each producer had
// taken, and what ran, in order.
type raceLog struct {
	mu    sync.Mutex
	taken map[uint64]takenLaunch // by producer<<32 | n
	ran   []uint64               // producer<<32 | n, in the order the kernels ran
}

// takenLaunch is a launch the queue took: its sequence number, and how
// many aborts had ended before it was queued (the later ones may drop it).
type takenLaunch struct {
	seq, abortsBefore uint64
}

func (l *raceLog) take(key, seq, abortsBefore uint64) {
	l.mu.Lock()
	l.taken[key] = takenLaunch{seq, abortsBefore}
	l.mu.Unlock()
}

// testDirectRace runs two direct producers and a producer calling Submit on
// one queue while other goroutines abort it, then close it. Every launch
// the queue took runs once, in the order of its sequence number (so each
// producer's in its own order), unless an abort that began after it was
// queued dropped it; each Abort returns nil; Close returns nil once the
// last launch taken has run, and refuses nothing it left behind: after it,
// both ways in refuse.
func testDirectRace(e *env) {
	t := e.t
	q := e.queue()
	dq, ok := q.(hal.Direct)
	if !ok {
		t.Skip("the backend's queues take no direct producers (hal.Direct)")
	}
	log := &raceLog{taken: map[uint64]takenLaunch{}}
	k := &kernel.Func{Name: "haltest_direct_race", Fn: func(b *kernel.Block) {
		log.mu.Lock()
		log.ran = append(log.ran, b.Arg(0)<<32|b.Arg(1))
		log.mu.Unlock()
	}}
	kn, ok := q.(hal.KernelNumberer)
	if !ok {
		t.Skip("the backend's direct queues number no kernels (hal.KernelNumberer)")
	}
	p := &directProducer{q: q, dq: dq, kernel: k, id: kn.KernelID(k)}
	const producers = 3 // 0 and 1 direct, 2 through Submit alone
	var abortsEnded, directs atomic.Uint64
	var n [producers]uint64 // launches each producer has made
	// produce makes count launches from each producer at once; it reports
	// the first launch both ways refused, if any.
	produce := func(count int, untilRefused bool) {
		var wg sync.WaitGroup
		for i := range producers {
			wg.Go(func() {
				for range count {
					before := abortsEnded.Load()
					var seq uint64
					var err error
					if i < 2 {
						var direct bool
						if seq, direct, err = p.launch(uint64(i), n[i]); direct {
							directs.Add(1)
						}
					} else {
						seq, err = q.Submit(hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 1, NArgs: 2, Args: [hal.MaxArgs]uint64{uint64(i), n[i]}})
					}
					if hal.KindOf(err) == hal.KindStreamAborted && !untilRefused {
						continue // it waited for room in a full queue, and an abort ended the wait
					}
					if err != nil {
						if !untilRefused {
							t.Errorf("producer %d, launch %d: %v", i, n[i], err)
						} else {
							wantKind(t, err, hal.KindInvalidHandle, fmt.Sprintf("producer %d: a launch after Close", i))
						}
						return
					}
					log.take(uint64(i)<<32|n[i], seq, before)
					n[i]++
				}
			})
		}
		wg.Wait()
	}

	// Phase 1: the producers against a goroutine aborting the queue.
	stop := make(chan struct{})
	aborted := make(chan int)
	go func() {
		count := 0
		defer func() { aborted <- count }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for range 8 {
				runtime.Gosched() // let some launches in between
			}
			if err := q.Abort(); err != nil {
				t.Errorf("Abort %d: %v", count+1, err)
				return
			}
			count++
			abortsEnded.Store(uint64(count))
		}
	}()
	produce(2000, false)
	close(stop)
	aborts := <-aborted
	// Phase 2: no aborts; everything queued from now on runs.
	produce(500, false)
	e.wait(q)
	checkRaceLog(e, log, uint64(aborts))

	// Phase 3: the producers against a goroutine closing the queue, which
	// waits for what is pending and tries again until Close succeeds.
	closed := make(chan error, 1)
	var tries int
	go func() {
		deadline := time.Now().Add(patience)
		for {
			tries++
			err := q.Close()
			if hal.KindOf(err) != hal.KindNotReady || time.Now().After(deadline) {
				closed <- err
				return
			}
			waitSeq(q, q.Submitted(), patience)
		}
	}()
	produce(1000, true)
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close racing the producers: %v", err)
		}
	case <-time.After(2 * patience):
		t.Fatal("Close never returned")
	}
	// Close returned once nothing was pending: every launch taken ran.
	checkRaceLog(e, log, uint64(aborts))
	for i := range 2 {
		if _, direct, err := p.launch(uint64(i), n[i]); err == nil || direct {
			t.Errorf("producer %d: a launch after Close was taken (direct %v, error %v)", i, direct, err)
		}
	}
	if directs.Load() == 0 {
		t.Error("no launch went direct")
	}
	t.Logf("%d launches taken, %d direct; %d aborts; Close succeeded at try %d", len(log.taken), directs.Load(), aborts, tries)
}

// checkRaceLog checks that every launch that ran was taken and ran once,
// in the order of its sequence number, and that every launch taken ran,
// or was queued before one of the aborts ended and may have been dropped.
func checkRaceLog(e *env, log *raceLog, aborts uint64) {
	t := e.t
	log.mu.Lock()
	defer log.mu.Unlock()
	seen := make(map[uint64]bool, len(log.ran))
	var last uint64
	for i, key := range log.ran {
		l, ok := log.taken[key]
		switch {
		case !ok:
			t.Fatalf("launch %d of producer %d ran but was never taken", key&0xffffffff, key>>32)
		case seen[key]:
			t.Fatalf("launch %d of producer %d (task %d) ran twice", key&0xffffffff, key>>32, l.seq)
		case i > 0 && l.seq <= last:
			t.Fatalf("task %d (launch %d of producer %d) ran after task %d", l.seq, key&0xffffffff, key>>32, last)
		}
		seen[key] = true
		last = l.seq
	}
	lost := 0
	for key, l := range log.taken {
		if !seen[key] && l.abortsBefore >= aborts {
			lost++
			if lost <= 5 {
				t.Errorf("launch %d of producer %d (task %d, %d aborts before of %d) was taken after the last abort and never ran", key&0xffffffff, key>>32, l.seq, l.abortsBefore, aborts)
			}
		}
	}
	if lost > 0 {
		t.Fatalf("%d launches lost of %d taken", lost, len(log.taken))
	}
}
