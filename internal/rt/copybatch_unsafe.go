package rt

import (
	"context"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// BatchCopy is one copy of aclrtMemcpyBatch: Size bytes from Src to Dst,
// which has room for DestMax. The ends are addresses as C passes them,
// host or device; the batch's check tells which.
type BatchCopy struct {
	Dst, Src      unsafe.Pointer
	DestMax, Size uintptr
}

// Memory location types of aclrtMemLocation, with the CANN values.
const (
	MemLocHost         uint32 = 0
	MemLocDevice       uint32 = 1
	MemLocUnregistered uint32 = 2
	MemLocManaged      uint32 = 3
	MemLocHostNUMA     uint32 = 4
)

// MemLoc is aclrtMemLocation: where memory is, by type and device id.
type MemLoc struct{ ID, Type uint32 }

// BatchAttr is aclrtMemcpyBatchAttr: where a run of copies' ends are. Rsv
// must be zero.
type BatchAttr struct {
	Dst, Src MemLoc
	Rsv      [16]byte
}

// maxSyncBatch is the most copies a synchronous batch takes, as CANN's
// driver (DEVMM_MEMCPY_BATCH_MAX_COUNT).
const maxSyncBatch = 4096

// NoFailIndex is the failure index of an error no one copy caused
// (SIZE_MAX in C).
const NoFailIndex = -1

// MemcpyBatch runs a batch of copies synchronously (aclrtMemcpyBatch): all
// are checked, then all run as one task; a refusal copies nothing. fail
// names the copy whose locations or direction were refused.
func (c *Context) MemcpyBatch(caller Caller, copies []BatchCopy, attrs []BatchAttr, attrIdx []uint64) (fail int, err error) {
	c.d.r.waitUnlocked()
	if err := c.checkSync(caller, "a synchronous batch copy"); err != nil {
		return NoFailIndex, err
	}
	t, _, fail, err := c.d.batchTask(copies, attrs, attrIdx, false)
	if err != nil || t.Batch.Len() == 0 {
		return fail, err
	}
	return NoFailIndex, c.hd.Run(t)
}

// MemcpyBatchAsync queues a batch of copies as one task
// (aclrtMemcpyBatchAsync). With pageable host memory in the batch the call
// waits for it, as the reference says; the copies are checked first and
// a refusal queues nothing.
func (s *Stream) MemcpyBatchAsync(caller Caller, copies []BatchCopy, attrs []BatchAttr, attrIdx []uint64, site uintptr) (fail int, err error) {
	if err := s.usable(); err != nil {
		return NoFailIndex, err
	}
	t, pageable, fail, err := s.c.d.batchTask(copies, attrs, attrIdx, true)
	if err != nil || t.Batch.Len() == 0 {
		return fail, err
	}
	t.Site = site
	if pageable {
		bound, err := s.pageableDiverted(caller, "an asynchronous batch copy")
		if err != nil {
			return NoFailIndex, err
		}
		if !bound {
			seq, err := s.submit(&t)
			if err != nil {
				return NoFailIndex, err
			}
			return NoFailIndex, s.q.Wait(context.Background(), seq, 0)
		}
	}
	_, err = s.submit(&t)
	return NoFailIndex, err
}

// batchTask checks a batch as CANN does, in its order, and builds its
// task. Zero-byte copies of a synchronous batch are skipped; a batch of
// only zero-byte copies is no task and no error.
func (d *Device) batchTask(copies []BatchCopy, attrs []BatchAttr, attrIdx []uint64, async bool) (t hal.Task, pageable bool, fail int, err error) {
	fail = NoFailIndex
	if len(copies) == 0 {
		return t, false, fail, rterr.Errorf(rterr.KindBadArgument, "numBatches 0 is invalid, expected > 0")
	}
	zero := true
	for i := range copies {
		zero = zero && copies[i].Size == 0
	}
	if zero {
		return t, false, fail, nil
	}
	for i := range copies {
		if copies[i].DestMax < copies[i].Size {
			return t, false, fail, rterr.Errorf(rterr.KindBadArgument, "sizes[%d] %d is invalid, expected <= destMaxs[%d] %d", i, copies[i].Size, i, copies[i].DestMax)
		}
	}
	for i := range attrs {
		if attrs[i].Rsv != [16]byte{} {
			return t, false, fail, rterr.Errorf(rterr.KindBadArgument, "attrs[%d].rsv is invalid, expected all 0", i)
		}
	}
	if err := checkAttrIdx(len(copies), attrs, attrIdx, async); err != nil {
		return t, false, fail, err
	}
	b := &hal.Batch{Copies: make([]hal.Copy, 0, len(copies))}
	t = hal.Task{Kind: hal.TaskCopyBatch, Batch: b}
	a := 0
	var memo [2]memoRange // the last allocation each end was found in
	for i := range copies {
		for a+1 < len(attrs) && uint64(i) >= attrIdx[a+1] {
			a++
		}
		in := &copies[i]
		n := max(uint64(in.Size), 1)
		// The common case, a copy wholly inside the allocations the
		// copies before it were checked in, under the same attribute,
		// passes the checks they passed (checkBatchCopy) without a call.
		if m0, m1 := &memo[0], &memo[1]; in.Size > 0 && m0.holds(in.Dst, n) && m1.holds(in.Src, n) &&
			m0.host != m1.host && m0.want == attrs[a].Dst && m1.want == attrs[a].Src {
			b.Copies = append(b.Copies, hal.Copy{Dst: m0.loc(in.Dst), Src: m1.loc(in.Src), Size: uint64(in.Size)})
			pageable = pageable || (m0.host && !m0.pinned) || (m1.host && !m1.pinned)
			continue
		}
		c := hal.Copy{Dst: d.batchLoc(&memo[0], in.Dst, n), Src: d.batchLoc(&memo[1], in.Src, n), Size: uint64(in.Size)}
		pg, err := d.checkBatchCopy(i, &c, uint64(in.DestMax), &attrs[a], async, &memo)
		if err != nil {
			return hal.Task{}, false, i, err
		}
		pageable = pageable || pg
		if c.Size > 0 {
			b.Copies = append(b.Copies, c)
		}
	}
	return t, pageable, fail, nil
}

func checkAttrIdx(n int, attrs []BatchAttr, attrIdx []uint64, async bool) error {
	switch {
	case len(attrs) == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "numAttrs 0 is invalid, expected > 0")
	case len(attrs) > n:
		return rterr.Errorf(rterr.KindInvalidParam, "numAttrs %d is invalid, expected <= numBatches %d", len(attrs), n)
	case !async && n > maxSyncBatch:
		return rterr.Errorf(rterr.KindInvalidParam, "numBatches %d is invalid, expected <= %d", n, maxSyncBatch)
	case attrIdx[0] != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "attrsIndexes[0] %d is invalid, expected 0", attrIdx[0])
	}
	for i := 1; i < len(attrs); i++ {
		if attrIdx[i] <= attrIdx[i-1] || attrIdx[i] >= uint64(n) {
			return rterr.Errorf(rterr.KindInvalidParam, "attrsIndexes[%d] %d is invalid, expected > attrsIndexes[%d] %d and < numBatches %d",
				i, attrIdx[i], i-1, attrIdx[i-1], n)
		}
	}
	return nil
}

// batchLoc is where the n bytes at p are: inside the allocation an end's
// last copy was found in, as found then; else as the runtime finds it.
func (d *Device) batchLoc(m *memoRange, p unsafe.Pointer, n uint64) hal.Loc {
	if addr := uint64(uintptr(p)); m.hi != 0 && addr >= m.lo && addr < m.hi && n <= m.hi-addr {
		if m.host {
			return hal.HostLoc(p)
		}
		return hal.DevLoc(addr)
	}
	return d.r.Loc(p)
}

// checkBatchCopy checks copy i, of room destMax, against its attribute:
// each end where the attribute says, one end on the host and one on this
// device, both live.
func (d *Device) checkBatchCopy(i int, c *hal.Copy, destMax uint64, a *BatchAttr, async bool, memo *[2]memoRange) (pageable bool, err error) {
	if async {
		switch {
		case c.Size == 0 || c.Size > destMax:
			return false, rterr.Errorf(rterr.KindInvalidParam, "sizes[%d] %d is invalid, expected > 0 and <= destMaxs[%d] %d", i, c.Size, i, destMax)
		case c.Src.Addr() == 0:
			return false, rterr.Errorf(rterr.KindInvalidParam, "srcs[%d] is NULL, expected memory", i)
		case c.Dst.Addr() == 0:
			return false, rterr.Errorf(rterr.KindInvalidParam, "dsts[%d] is NULL, expected memory", i)
		}
	}
	if c.Dst.IsHost() == c.Src.IsHost() {
		if err := d.checkBatchAttr(i, c, a); err != nil {
			return false, err
		}
		return false, rterr.Errorf(rterr.KindInvalidParam, "copy %d is %s to %s, expected host to device or device to host", i, d.r.side(c.Src), d.r.side(c.Dst))
	}
	// batchTask took the copies inside the allocations memo holds: this
	// one is looked up, and its allocations remembered for the next.
	n := max(c.Size, 1)
	if err := d.checkBatchAttr(i, c, a); err != nil {
		return false, err
	}
	dp, err := d.checkLoc("dsts", c.Dst, n)
	if err != nil {
		return false, err
	}
	sp, err := d.checkLoc("srcs", c.Src, n)
	if err != nil {
		return false, err
	}
	d.remember(&memo[0], c.Dst, n, a.Dst, dp)
	d.remember(&memo[1], c.Src, n, a.Src, sp)
	return (c.Dst.IsHost() && !dp) || (c.Src.IsHost() && !sp), nil
}

// checkBatchAttr checks that each end of copy i is where its attribute says.
func (d *Device) checkBatchAttr(i int, c *hal.Copy, a *BatchAttr) error {
	for _, end := range [2]struct {
		param string
		l     hal.Loc
		want  MemLoc
	}{{"dsts", c.Dst, a.Dst}, {"srcs", c.Src, a.Src}} {
		actual := d.memLoc(end.l)
		want := end.want.Type
		if want == MemLocHostNUMA {
			want = MemLocHost
		}
		if actual.Type != want || (actual.Type == MemLocDevice && actual.ID != end.want.ID) {
			return rterr.Errorf(rterr.KindInvalidParam, "%s[%d] %#x is %s, but its attribute says %s",
				end.param, i, end.l.Addr(), locName(actual), locName(end.want))
		}
	}
	return nil
}

// memoRange is an allocation a batch's copies were checked in: a later
// copy of the batch wholly inside it, under the same attribute, passes the
// same checks, so consecutive copies of one buffer cost one lookup. Memory
// freed meanwhile is no different from memory freed after the call.
type memoRange struct {
	host   bool
	lo, hi uint64 // hi == 0: nothing remembered
	want   MemLoc // the attribute it was checked under
	pinned bool
}

// holds reports whether the n bytes at p lie in m.
func (m *memoRange) holds(p unsafe.Pointer, n uint64) bool {
	addr := uint64(uintptr(p))
	return m.hi != 0 && addr >= m.lo && addr < m.hi && n <= m.hi-addr
}

// loc is the Loc of p, which m holds.
func (m *memoRange) loc(p unsafe.Pointer) hal.Loc {
	if m.host {
		return hal.HostLoc(p)
	}
	return hal.DevLoc(uint64(uintptr(p)))
}

// remember records the allocation holding the checked range [l, l+n), if
// the allocation table has one (pageable and registered host memory is
// looked up again each time).
func (d *Device) remember(m *memoRange, l hal.Loc, n uint64, want MemLoc, pinned bool) {
	addr := l.Addr()
	al, ok := d.r.lookup(d.b, addr)
	if !ok || al.Host != l.IsHost() || !al.Contains(addr, n) {
		m.hi = 0
		return
	}
	*m = memoRange{host: l.IsHost(), lo: al.Addr, hi: al.Addr + al.Size, want: want, pinned: pinned}
}

// memLoc is where l is, as aclrtPointerGetAttributes says, with pageable
// memory counted as host memory.
func (d *Device) memLoc(l hal.Loc) MemLoc {
	if l.IsHost() {
		return MemLoc{Type: MemLocHost}
	}
	if a, ok := d.r.lookup(d.b, l.Dev); ok && !a.Host {
		return MemLoc{ID: uint32(a.Device), Type: MemLocDevice}
	}
	if sp, ok := d.b.Owner(l.Dev); ok {
		return MemLoc{ID: uint32(sp.Device), Type: MemLocDevice}
	}
	return MemLoc{Type: MemLocHost}
}

func locName(l MemLoc) string {
	switch l.Type {
	case MemLocHost, MemLocHostNUMA:
		return "host memory"
	case MemLocDevice:
		return "memory of device " + itoa(int(l.ID))
	case MemLocUnregistered:
		return "unregistered memory"
	case MemLocManaged:
		return "managed memory"
	}
	return "location type " + itoa(int(l.Type))
}
