package rt

import (
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// closedSpans holds the address ranges of the devices that are not open,
// whose memory is gone: stale pointers into them must never reach a copy
// or a kernel. They change only when a device opens or closes, so checks
// on hot paths cost one load while no device has closed.
type closedSpans struct {
	list atomic.Pointer[[]hal.Span] // nil while none

	// mu orders refreshes, so the last one stored saw the latest state.
	mu   sync.Mutex
	hook func([]hal.Span)
}

// SetClosedHook installs fn, told of the closed devices' address ranges
// each time they change (nil when none is left); the C ABI mirrors them
// for launches that do not enter Go. fn runs with device locks held and
// must not call the runtime.
func (r *Runtime) SetClosedHook(fn func([]hal.Span)) {
	r.closed.mu.Lock()
	r.closed.hook = fn
	r.closed.mu.Unlock()
}

// refresh reads the closed spans from b after a device opened or closed.
func (c *closedSpans) refresh(b hal.Backend) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var closed []hal.Span
	for _, sp := range b.Spans() {
		if !sp.Open {
			closed = append(closed, sp)
		}
	}
	c.store(closed)
}

// set replaces the closed spans, as when the backend ends.
func (c *closedSpans) set(closed []hal.Span) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(closed)
}

func (c *closedSpans) store(closed []hal.Span) {
	if len(closed) == 0 {
		c.list.Store(nil)
	} else {
		c.list.Store(&closed)
	}
	if c.hook != nil {
		c.hook(closed)
	}
}

// checkSlots refuses kernel argument slots holding an address in the
// memory of a device that is not open: the kernel would touch memory that
// is gone.
func (c *closedSpans) checkSlots(args []uint64) error {
	list := c.list.Load()
	if list == nil {
		return nil
	}
	for i, v := range args {
		for _, sp := range *list {
			if sp.Contains(v) {
				return rterr.Errorf(rterr.KindInvalidAddress, "argument slot %d holds %#x, memory of device %d, which is not open", i, v, sp.Device)
			}
		}
	}
	return nil
}

// errClosed describes addr if it is memory of a device that is not open.
func errClosed(b hal.Backend, param string, addr uint64) error {
	if sp, ok := b.Owner(addr); ok && !sp.Open {
		return rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is memory of device %d, which is not open", param, addr, sp.Device)
	}
	return nil
}
