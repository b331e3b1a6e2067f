package rt

import (
	"context"
	"time"

	"github.com/gocann/gocann/internal/rterr"
)

// A force-destroyed stream's tasks still run, as they would in a device's
// queue; its queue closes behind them. Meanwhile the stream is gone from
// the API, but device and context synchronization and device resets still
// wait for its tasks, which are the device's work.

// drainLater closes s's queue once its tasks are done, on a goroutine of
// its own. A device reset waits for it (teardown); aclFinalize ends the
// wait, and the queue with it.
func (c *Context) drainLater(s *Stream) {
	c.mu.Lock()
	c.draining[s] = struct{}{}
	c.mu.Unlock()
	c.drains.Add(1)
	go func() {
		defer c.drains.Done()
		if err := s.end(true); err != nil {
			c.d.r.log.Debug("closing a force-destroyed stream", "stream", s.id, "err", err)
		}
		c.mu.Lock()
		delete(c.draining, s)
		c.mu.Unlock()
	}()
}

// drainingStreams returns the context's force-destroyed streams whose
// queues are still open.
func (c *Context) drainingStreams() []*Stream {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Stream, 0, len(c.draining))
	for s := range c.draining {
		out = append(out, s)
	}
	return out
}

// syncOrDrain synchronizes a live stream; for a force-destroyed one it
// waits for the tasks submitted before it went (their faults are no one's
// to report any more, but a timeout is the caller's).
func (s *Stream) syncOrDrain(ctx context.Context, timeout time.Duration) error {
	if !s.dead.Load() {
		return s.Synchronize(ctx, timeout)
	}
	err := s.q.Wait(ctx, s.q.Submitted(), timeout)
	if rterr.KindOf(err) == rterr.KindStreamSyncTimeout {
		return err
	}
	return nil
}
