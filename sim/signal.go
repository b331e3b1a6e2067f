package sim

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// signal is a monotonically increasing counter hosts can wait on: a queue's
// completed sequence number. Waiters spin briefly, then park on a channel.
type signal struct {
	v          atomic.Uint64
	hasWaiters atomic.Bool

	// mu guards waiters.
	mu      sync.Mutex
	waiters []*waiter

	spare sync.Pool // *waiter, reused so a parked wait allocates nothing
}

// waiter is a parked host. Its channel holds at most one wake-up, sent
// while the waiter is listed; it is drained before the waiter is reused.
type waiter struct {
	target uint64
	ch     chan struct{}
}

func (w *waiter) wake() {
	select {
	case w.ch <- struct{}{}:
	default:
	}
}

func (w *waiter) drain() {
	select {
	case <-w.ch:
	default:
	}
}

// advance publishes v and wakes the waiters it satisfies.
func (g *signal) advance(v uint64) {
	g.v.Store(v)
	if !g.hasWaiters.Load() {
		return
	}
	g.mu.Lock()
	kept := g.waiters[:0]
	for _, w := range g.waiters {
		if w.target <= v {
			w.wake()
		} else {
			kept = append(kept, w)
		}
	}
	clear(g.waiters[len(kept):])
	g.waiters = kept
	g.hasWaiters.Store(len(kept) > 0)
	g.mu.Unlock()
}

// interrupt wakes every waiter so it re-checks its exit conditions.
func (g *signal) interrupt() {
	g.mu.Lock()
	for _, w := range g.waiters {
		w.wake()
	}
	clear(g.waiters)
	g.waiters = g.waiters[:0]
	g.hasWaiters.Store(false)
	g.mu.Unlock()
}

// wait blocks until the counter reaches target, q stops or is aborted after
// generation gen, timeout passes (if > 0; < 0 checks once) or ctx (if
// non-nil) ends.
func (g *signal) wait(ctx context.Context, target uint64, timeout time.Duration, q *queue, gen uint64) error {
	if g.v.Load() >= target {
		return nil
	}
	if err := q.brokenSince(gen); err != nil {
		return err
	}
	if timeout < 0 {
		return q.timeoutError(nil, target, timeout)
	}
	spin := hostSpin
	if timeout > 0 && timeout < spin {
		spin = timeout
	}
	if l := q.long.Load(); l > g.v.Load() && l <= target {
		spin = 0 // behind a long copy: park at once (noteLong)
	}
	// Hosts spin without yielding: a goroutine serving a C thread is locked
	// to it, and yielding would put the thread to sleep for microseconds.
	if spinHot(spin, func() bool { return g.v.Load() >= target || q.abortGen.Load() != gen || q.stop.Load() != nil }) {
		if err := q.brokenSince(gen); err != nil {
			return err
		}
		return nil
	}
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout - spin)
		defer t.Stop()
		deadline = t.C
	}
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	w, _ := g.spare.Get().(*waiter)
	if w == nil {
		w = &waiter{ch: make(chan struct{}, 1)}
	}
	w.target = target
	defer func() {
		w.drain()
		g.spare.Put(w)
	}()
	for {
		if err := q.brokenSince(gen); err != nil {
			return err
		}
		if g.v.Load() >= target {
			return nil
		}
		g.mu.Lock()
		g.waiters = append(g.waiters, w)
		g.hasWaiters.Store(true)
		g.mu.Unlock()
		if g.v.Load() >= target || q.abortGen.Load() != gen || q.stop.Load() != nil {
			g.remove(w)
			w.drain()
			continue
		}
		select {
		case <-w.ch:
		case <-deadline:
			g.remove(w)
			if g.v.Load() >= target {
				return nil
			}
			return q.timeoutError(nil, target, timeout)
		case <-done:
			g.remove(w)
			return q.timeoutError(ctx.Err(), target, timeout)
		}
	}
}

func (g *signal) remove(w *waiter) {
	g.mu.Lock()
	for i, x := range g.waiters {
		if x == w {
			g.waiters = append(g.waiters[:i], g.waiters[i+1:]...)
			break
		}
	}
	g.hasWaiters.Store(len(g.waiters) > 0)
	g.mu.Unlock()
}
