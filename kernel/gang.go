package kernel

import "sync/atomic"

// Gang is what the blocks of a gang launch (Func.Gang) share while they
// all run at once: a barrier over every block (Ascend C's SyncAll without
// a workspace), how many blocks have ended, and whether the launch failed,
// which makes blocks waiting for others give up instead of waiting for
// blocks that will never come. Native kernels read and write its words
// with atomics from C (ckernel/gang.c), in this order. A backend zeroes it
// before the launch starts.
type Gang struct {
	arrived atomic.Uint32 // blocks waiting at the barrier now
	gen     atomic.Uint32 // barriers passed
	ended   atomic.Uint32 // blocks that have returned or failed
	failed  atomic.Uint32 // 1 once a block failed or the launch timed out
}

// Reset readies g for a launch.
func (g *Gang) Reset() {
	g.arrived.Store(0)
	g.gen.Store(0)
	g.ended.Store(0)
	g.failed.Store(0)
}

// End records that a block of the launch ended; failed says it failed,
// which ends every wait of the others.
func (g *Gang) End(failed bool) {
	if failed {
		g.failed.Store(1)
	}
	g.ended.Add(1)
}

// Fail makes every block waiting for another give up: the launch failed
// (it timed out, say) and the blocks it waits for may never come.
func (g *Gang) Fail() { g.failed.Store(1) }

// Failed reports whether the launch failed (Fail, End(true)).
func (g *Gang) Failed() bool { return g.failed.Load() != 0 }

// Sync waits until every block of a launch of num blocks has called it
// as many times as the caller (a barrier); it returns false, without
// waiting any more, once the launch failed or a block ended without
// coming. pause is called between looks.
func (g *Gang) Sync(num int, pause func()) bool {
	gen := g.gen.Load()
	if g.arrived.Add(1) == uint32(num) {
		g.arrived.Store(0)
		g.gen.Add(1)
		return true
	}
	for g.gen.Load() == gen {
		if g.failed.Load() != 0 || g.ended.Load() != 0 && g.gen.Load() == gen {
			return false
		}
		pause()
	}
	return true
}

// Barrier waits until num blocks have called it as many times as the
// caller. Unlike Sync, blocks that ended do not release it: it returns
// false only once the launch failed (Fail, End(true)). It is for callers
// whose blocks each reach every barrier unless the launch fails, while
// other blocks of the launch may have ended (a SuperKernel's runners).
func (g *Gang) Barrier(num int, pause func()) bool {
	gen := g.gen.Load()
	if g.arrived.Add(1) == uint32(num) {
		g.arrived.Store(0)
		g.gen.Add(1)
		return true
	}
	for g.gen.Load() == gen {
		if g.failed.Load() != 0 {
			return false
		}
		pause()
	}
	return true
}

// SKHook takes the calls of a block running as a sub-kernel of a
// SuperKernel whose calls take effect (SetNextTaskStart, WaitPreTaskEnd).
type SKHook interface {
	SetNextTaskStart(b *Block)
	WaitPreTaskEnd(b *Block)
}

// SetSK gives b, a block of a SuperKernel's sub-kernel, the hook its
// SetNextTaskStart and WaitPreTaskEnd go to. Reset does not clear it: the
// blocks given one are the SuperKernel's own, never a worker's.
func (b *Block) SetSK(h SKHook) { b.sk = h }

// SK is b's SuperKernel hook, nil outside a SuperKernel whose calls take
// effect.
func (b *Block) SK() SKHook { return b.sk }

// SetNextTaskStart lets the next sub-kernel of a SuperKernel start once
// every block of this one has called it (or ended), while this block's
// remaining instructions run. Outside a SuperKernel, and on chips where
// the call has no effect, it does nothing.
func (b *Block) SetNextTaskStart() {
	if b.sk != nil {
		b.sk.SetNextTaskStart(b)
	}
}

// WaitPreTaskEnd waits until the sub-kernel before this one in a
// SuperKernel has ended on every core. Outside a SuperKernel, and on chips
// where the call has no effect, it does nothing.
func (b *Block) WaitPreTaskEnd() {
	if b.sk != nil {
		b.sk.WaitPreTaskEnd(b)
	}
}

// Gang is the launch's Gang, nil unless the kernel is a gang kernel (and
// its launch has more than one block).
func (b *Block) Gang() *Gang { return b.gang }

// SetGang gives b its launch's Gang. Backends call it after Reset.
func (b *Block) SetGang(g *Gang) { b.gang = g }
