package rt

import (
	"time"

	"github.com/gocann/gocann/hal"
)

// A synchronous copy or memset first lets the device work already
// submitted that touches its allocations run (hal.Settler), as the
// hardware's timing gives programs that copy a kernel's output without
// synchronizing (docs/choices.md). The wait orders nothing: it is not
// synchronization.

// settleLimit bounds that wait: past it the transfer goes ahead, as it
// would on the device.
const settleLimit = time.Second

// settle waits for the device work touching the allocations of the
// transfer's ends.
func (c *Context) settle(dst, src hal.Loc) {
	st, ok := c.hd.(hal.Settler)
	if !ok || !st.Busy() {
		return
	}
	a, b := c.d.r.allocationOf(dst), c.d.r.allocationOf(src)
	if a.Size == 0 && b.Size == 0 {
		return
	}
	st.Settle(a, b, settleLimit)
}

// allocationOf is the device memory l lies in, as a range: its device
// allocation, or the binary global holding it; Size 0 if neither.
func (r *Runtime) allocationOf(l hal.Loc) hal.Range {
	if l.IsHost() {
		if s, ok := r.hostSymbol(l.Addr()); ok {
			return hal.Range{Addr: s.addr, Size: max(s.size, 1)}
		}
		return hal.Range{}
	}
	b, err := r.live()
	if err != nil {
		return hal.Range{}
	}
	if a, ok := r.lookup(b, l.Dev); ok && !a.Host {
		return hal.Range{Addr: a.Addr, Size: a.Size}
	}
	return hal.Range{}
}
