package sim

import (
	"fmt"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// What a kernel's failure was: its kind, and for a fault of its native
// code, what the memory at the faulting address is, as the backend knows
// it. On the device an access outside what is mapped for the AI core
// raises a read or write overflow of that task; here the host's page
// tables stand in for the device's, so the address is only known to be
// unmapped, and the backend says whose memory it was or was next to.

// nullPage is the lowest page, which nothing maps.
const nullPage = 4096

// kernelFailure is the fault kind of kernel task t whose block failed with
// v (what it panicked with), describing a kernel.Fault's address in it.
func (b *Backend) kernelFailure(t *hal.Task, v any) hal.Kind {
	k := hal.KindAICoreException
	switch f := v.(type) {
	case *kernel.TrapError:
		k = hal.KindAICoreTrap
	case *kernel.Fault:
		if f.AddrKnown && f.Where == "" {
			f.Where = b.where(f.Addr, t.Args[:t.NArgs])
		}
		switch f.Access {
		case kernel.AccessRead:
			k = hal.KindAICoreReadOverflow
		case kernel.AccessWrite:
			k = hal.KindAICoreWriteOverflow
		}
	}
	if t.Kernel != nil && t.Kernel.CPU {
		k = hal.KindAICPUException
	}
	return k
}

// where says what addr is: inside an allocation, in freed device memory,
// past the end (or before the start) of an allocation, naming one of the
// kernel's arguments args where it can, or in no allocation.
func (b *Backend) where(addr uint64, args []uint64) string {
	if addr < nullPage {
		return "the NULL page, in no allocation"
	}
	if a, ok := b.Lookup(addr); ok {
		return "inside " + allocName(a, args)
	}
	set := b.spans.Load()
	if sp, ok := set.find(addr); ok && sp.d == nil {
		return fmt.Sprintf("freed device memory: memory of device %d, which was reset since", sp.m.dev)
	}
	if res, ok := b.vm.reservation(addr); ok {
		if res.Released {
			return "freed device memory: virtual memory whose reservation was released"
		}
		return fmt.Sprintf("unmapped device memory: reserved virtual memory [%#x, %#x) with nothing mapped at that address", res.Addr, res.Addr+res.Size)
	}
	sp, ok := set.guarding(addr)
	if !ok {
		if sp, ok = set.find(addr); !ok {
			return "in no allocation: not device memory of any device"
		}
	}
	if s := b.nearArgs(addr, sp.m.dev, args); s != "" {
		return s
	}
	if a, ok := sp.m.below(addr); ok {
		return fmt.Sprintf("%s past the end of %s: in no allocation", size(addr-(a.Addr+a.Size)), allocName(a, args))
	}
	if sp.m.inGuard(addr) {
		return fmt.Sprintf("%s past the end of device %d's memory: in no allocation", size(addr-(sp.m.base+mapLength(sp.m.hbm))), sp.m.dev)
	}
	return fmt.Sprintf("device %d's memory, in no allocation", sp.m.dev)
}

// nearArgs describes addr against the allocation of device dev one of
// args points into that addr lies past the end of, the nearest such; else
// the one it lies before the start of, the nearest; else "".
func (b *Backend) nearArgs(addr uint64, dev int, args []uint64) string {
	var past, before hal.Allocation
	for _, v := range args {
		a, ok := b.Lookup(v)
		switch {
		case !ok || a.Host || a.Device != dev:
		case addr >= a.Addr+a.Size && (past.Size == 0 || a.Addr > past.Addr):
			past = a
		case addr < a.Addr && (before.Size == 0 || a.Addr < before.Addr):
			before = a
		}
	}
	switch {
	case past.Size != 0:
		return fmt.Sprintf("%s past the end of %s", size(addr-(past.Addr+past.Size)), allocName(past, args))
	case before.Size != 0:
		return fmt.Sprintf("%s before the start of %s", size(before.Addr-addr), allocName(before, args))
	}
	return ""
}

// size says n bytes, and in binary units once that is shorter to read.
func size(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, i := float64(n)/unit, 0
	for ; v >= unit-0.05 && i < 3; i++ { // rounds to 1.0 of the next unit, not 1024.0
		v /= unit
	}
	return fmt.Sprintf("%d bytes (%.1f %s)", n, v, [...]string{"KiB", "MiB", "GiB", "TiB"}[i])
}

// allocName names allocation a, and the first argument slot pointing into
// it.
func allocName(a hal.Allocation, args []uint64) string {
	s := fmt.Sprintf("the %d-byte allocation at %#x (page-locked host memory)", a.Size, a.Addr)
	if !a.Host {
		s = fmt.Sprintf("the %d-byte allocation at %#x (memory of device %d)", a.Size, a.Addr, a.Device)
	}
	for i, v := range args {
		if v-a.Addr < a.Size {
			return fmt.Sprintf("argument %d, %s", i, s)
		}
	}
	return s
}
