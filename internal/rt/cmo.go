package rt

import (
	"context"
	"encoding/binary"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Cache maintenance. The simulated memory is coherent: every operation is
// checked and, when it is a stream task, keeps its place in the stream
// and the trace, and changes no bytes.

// CmoDescSize is the size of a cache operation descriptor
// (aclrtCmoGetDescSize), as on Atlas A2 (rtCmoAddrInfo): the length at
// byte 12, the source address at byte 16.
const CmoDescSize = 32

const (
	cmoDescLen = 12
	cmoDescSrc = 16
	// maxBarriers is ACL_RT_CMO_MAX_BARRIER_NUM.
	maxBarriers = 6
)

var cmoNames = [...]string{"ACL_RT_CMO_TYPE_PREFETCH", "ACL_RT_CMO_TYPE_WRITEBACK", "ACL_RT_CMO_TYPE_INVALID", "ACL_RT_CMO_TYPE_FLUSH"}

func cmoName(t uint32) string {
	if int(t) < len(cmoNames) {
		return cmoNames[t]
	}
	return "aclrtCmoType(" + itoa(int(t)) + ")"
}

// prefetchOnly refuses every type but ACL_RT_CMO_TYPE_PREFETCH, the one the
// reference supports for aclrtCmoAsync and aclrtCmoAsyncWithDesc.
func prefetchOnly(t uint32) error {
	if uint64(t) != hal.CmoPrefetch {
		return rterr.Errorf(rterr.KindNotSupported, "cmoType %s is not supported here, expected ACL_RT_CMO_TYPE_PREFETCH", cmoName(t))
	}
	return nil
}

// MemFlush and MemInvalidate (aclrtMemFlush, aclrtMemInvalidate) check
// their range: device memory must be live; host memory is the caller's.
func (c *Context) MemFlush(addr hal.Loc, size uint64) error {
	if err := c.check(); err != nil {
		return err
	}
	if size == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	_, err := c.d.checkLoc("devPtr", addr, size)
	return err
}

// CmoAsync queues a cache operation over [src, src+size) of the stream's
// device (aclrtCmoAsync).
func (s *Stream) CmoAsync(src, size uint64, typ uint32, site uintptr) error {
	if err := s.cmoCheck(src, size); err != nil {
		return err
	}
	if err := prefetchOnly(typ); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCmo, Dst: hal.DevLoc(src), Size: size, Value: uint64(typ), Site: site})
	return err
}

func (s *Stream) cmoCheck(src, size uint64) error {
	if err := s.usable(); err != nil {
		return err
	}
	if size == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	return s.c.d.checkDevice("src", src, size)
}

// SetCmoDesc writes a cache operation descriptor for [src, src+size) into
// device memory at desc (aclrtCmoSetDesc).
func (c *Context) SetCmoDesc(desc, src, size uint64) error {
	if err := c.check(); err != nil {
		return err
	}
	if size == 0 || size > 1<<32-1 {
		return rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected 1..%d", size, uint64(1<<32-1))
	}
	if err := c.d.checkWords("cmoDesc", desc, CmoDescSize); err != nil {
		return err
	}
	if err := c.d.checkDevice("src", src, size); err != nil {
		return err
	}
	var b [CmoDescSize]byte
	binary.LittleEndian.PutUint16(b[8:], 1)  // one outer
	binary.LittleEndian.PutUint16(b[10:], 1) // one inner
	binary.LittleEndian.PutUint32(b[cmoDescLen:], uint32(size))
	binary.LittleEndian.PutUint64(b[cmoDescSrc:], src)
	return c.writeDevice(desc, b[:])
}

// CmoAsyncWithDesc queues the cache operation a descriptor describes
// (aclrtCmoAsyncWithDesc).
func (s *Stream) CmoAsyncWithDesc(desc uint64, typ uint32, site uintptr) error {
	if err := s.usable(); err != nil {
		return err
	}
	if typ > uint32(hal.CmoFlush) {
		return rterr.Errorf(rterr.KindInvalidParam, "cmoType %d is invalid, expected [0, 4)", typ)
	}
	if err := prefetchOnly(typ); err != nil {
		return err
	}
	if err := s.c.d.checkWords("cmoDesc", desc, CmoDescSize); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCmo, Dst: hal.DevLoc(desc), Size: CmoDescSize, Value: uint64(typ), Site: site})
	return err
}

// boundOnly refuses a stream not bound to a model (aclmdlRIBindStream).
func (s *Stream) boundOnly() error {
	if d := s.divert.Load(); d == nil || d.capture != nil || d.update != nil {
		return rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to a model; cache operations with barriers go on streams bound with aclmdlRIBindStream", s.id)
	}
	return nil
}

// CmoAsyncWithBarrier queues a cache operation carrying barrier id
// barrier (aclrtCmoAsyncWithBarrier): an invalidation takes an id above 0
// that CmoWaitBarrier waits for, the other types 0.
func (s *Stream) CmoAsyncWithBarrier(src, size uint64, typ, barrier uint32, site uintptr) error {
	if err := s.cmoCheck(src, size); err != nil {
		return err
	}
	switch {
	case typ > uint32(hal.CmoFlush):
		return rterr.Errorf(rterr.KindNotSupported, "cmoType %d is not supported, expected [0, 4)", typ)
	case uint64(typ) == hal.CmoInvalid && barrier == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "barrierId 0 is invalid for ACL_RT_CMO_TYPE_INVALID, expected > 0")
	case uint64(typ) != hal.CmoInvalid && barrier != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "barrierId %d is invalid for %s, expected 0", barrier, cmoName(typ))
	}
	if err := s.boundOnly(); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCmo, Dst: hal.DevLoc(src), Size: size, Value: uint64(typ), Flag: barrier, Site: site})
	return err
}

// Barrier is one entry of aclrtBarrierTaskInfo.
type Barrier struct{ Type, ID uint32 }

// CmoWaitBarrier queues a wait for the invalidations with the given
// barrier ids (aclrtCmoWaitBarrier). It keeps its place in the stream: an
// invalidation of coherent memory has nothing else to wait for.
func (s *Stream) CmoWaitBarrier(bs []Barrier, flag uint32, site uintptr) error {
	if err := s.usable(); err != nil {
		return err
	}
	if len(bs) == 0 || len(bs) > maxBarriers {
		return rterr.Errorf(rterr.KindInvalidParam, "taskInfo->barrierNum %d is invalid, expected 1..%d", len(bs), maxBarriers)
	}
	for i, b := range bs {
		switch {
		case uint64(b.Type) != hal.CmoInvalid:
			return rterr.Errorf(rterr.KindInvalidParam, "taskInfo->cmoInfo[%d].cmoType %s is invalid, expected ACL_RT_CMO_TYPE_INVALID", i, cmoName(b.Type))
		case b.ID == 0:
			return rterr.Errorf(rterr.KindInvalidParam, "taskInfo->cmoInfo[%d].barrierId 0 is invalid, expected > 0", i)
		}
	}
	if flag != 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "flag %d is invalid, expected 0", flag)
	}
	if err := s.boundOnly(); err != nil {
		return err
	}
	// A barrier wait is a cache task over no memory.
	_, err := s.submit(&hal.Task{Kind: hal.TaskCmo, Value: hal.CmoInvalid, Flag: bs[0].ID, Site: site})
	return err
}

// L2CacheFlush flushes the device's L2 cache (aclrtDeviceL2CacheFlush): a
// flush task on the context's default stream, waited for.
func (c *Context) L2CacheFlush() error {
	s, err := c.DefaultStream()
	if err != nil {
		return err
	}
	if err := s.check(); err != nil {
		return err
	}
	seq, err := s.submit(&hal.Task{Kind: hal.TaskCmo, Value: hal.CmoFlush})
	if err != nil {
		return err
	}
	return s.q.Wait(context.Background(), seq, 0)
}
