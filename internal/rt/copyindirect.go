package rt

import (
	"encoding/binary"
	"math"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// MemcpyDescSize is the size of a copy descriptor (aclrtGetMemcpyDescSize),
// as on Atlas A2: the source, destination and byte count as 64-bit words,
// then a reserved word.
const MemcpyDescSize = 32

// Offsets of a copy descriptor's words.
const (
	descSrc   = 0
	descDst   = 8
	descCount = 16
)

// MemsetD32 fills n 32-bit words at dst with value, synchronously
// (aclrtMemsetD32). Zero words succeed at once.
func (c *Context) MemsetD32(caller Caller, dst hal.Loc, memSize uint64, value uint32, n uint64) error {
	if n == 0 {
		return nil
	}
	if err := c.checkSync(caller, "a synchronous memset"); err != nil {
		return err
	}
	size, err := c.checkD32(dst, memSize, n)
	if err != nil {
		return err
	}
	return c.hd.Run(hal.Task{Kind: hal.TaskMemset, Dst: dst, Size: size, Value: uint64(value), Width: 4})
}

// MemsetD32Async queues the fill of MemsetD32 (aclrtMemsetD32Async). Host
// memory is filled at once, as the reference says: that fill is no stream
// task.
func (s *Stream) MemsetD32Async(caller Caller, dst hal.Loc, memSize uint64, value uint32, n uint64, site uintptr) error {
	if n == 0 {
		return nil
	}
	if err := s.usable(); err != nil {
		return err
	}
	size, err := s.c.checkD32(dst, memSize, n)
	if err != nil {
		return err
	}
	t := hal.Task{Kind: hal.TaskMemset, Dst: dst, Size: size, Value: uint64(value), Width: 4, Site: site}
	if dst.IsHost() {
		return s.c.hd.Run(t)
	}
	_, err = s.submit(&t)
	return err
}

func (c *Context) checkD32(dst hal.Loc, memSize, n uint64) (uint64, error) {
	switch {
	case dst.Addr()%4 != 0:
		return 0, rterr.Errorf(rterr.KindBadArgument, "ptr %#x is invalid, expected 4-byte aligned", dst.Addr())
	case n > math.MaxUint64/4 || memSize < n*4:
		return 0, rterr.Errorf(rterr.KindBadArgument, "N %d is invalid, expected N * 4 <= memSize %d", n, memSize)
	}
	_, err := c.checkMemset(dst, memSize, n*4, false)
	return n * 4, err
}

// MemcpyAsyncWithOffset queues a copy of count bytes between addresses the
// device reads when the copy starts (aclrtMemcpyAsyncWithOffset): the
// 64-bit words at dst and src hold base addresses, to which the offsets
// are added. Zero bytes succeed at once.
func (s *Stream) MemcpyAsyncWithOffset(dst uint64, destMax, dstOff uint64, src uint64, count, srcOff uint64, kind CopyKind, site uintptr) error {
	if count == 0 {
		return nil
	}
	if err := s.usable(); err != nil {
		return err
	}
	if kind != InnerDeviceToDevice {
		return rterr.Errorf(rterr.KindInvalidParam, "kind %s is invalid, expected ACL_MEMCPY_INNER_DEVICE_TO_DEVICE", kind)
	}
	if err := checkCount(count, destMax); err != nil {
		return err
	}
	if err := s.c.d.checkWords("dst", dst, 8); err != nil {
		return err
	}
	if err := s.c.d.checkWords("src", src, 8); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCopyIndirect, Dst: hal.DevLoc(dst), Src: hal.DevLoc(src), DPitch: dstOff, SPitch: srcOff, Size: count, Site: site})
	return err
}

// checkWords checks that [addr, addr+n) is device memory of d, 8-byte
// aligned, as words the device reads must be.
func (d *Device) checkWords(param string, addr, n uint64) error {
	if addr%8 != 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "%s %#x is invalid, expected an 8-byte aligned device address", param, addr)
	}
	return d.checkDevice(param, addr, n)
}

// checkDescKind checks a descriptor copy's kind: valid, and the one kind
// descriptors support.
func checkDescKind(kind CopyKind) error {
	switch {
	case kind < 0 || kind > InterDeviceToDevice:
		return rterr.Errorf(rterr.KindBadArgument, "kind %s is invalid, expected one of the aclrtMemcpyKind values", kind)
	case kind != InnerDeviceToDevice:
		return rterr.Errorf(rterr.KindNotSupported, "kind %s is not supported for copy descriptors, expected ACL_MEMCPY_INNER_DEVICE_TO_DEVICE", kind)
	}
	return nil
}

// MemcpyDescSizeOf is aclrtGetMemcpyDescSize.
func MemcpyDescSizeOf(kind CopyKind) (uint64, error) {
	if err := checkDescKind(kind); err != nil {
		return 0, err
	}
	return MemcpyDescSize, nil
}

// SetMemcpyDesc writes a copy descriptor into device memory at desc
// (aclrtSetMemcpyDesc): count bytes from src to dst, both device memory of
// the context's device.
func (c *Context) SetMemcpyDesc(desc uint64, kind CopyKind, src, dst, count uint64) error {
	if err := c.check(); err != nil {
		return err
	}
	if err := checkDescKind(kind); err != nil {
		return err
	}
	if count == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "count 0 is invalid, expected > 0")
	}
	if err := c.d.checkWords("desc", desc, MemcpyDescSize); err != nil {
		return err
	}
	if err := c.d.checkDevice("srcAddr", src, count); err != nil {
		return err
	}
	if err := c.d.checkDevice("dstAddr", dst, count); err != nil {
		return err
	}
	var b [MemcpyDescSize]byte
	binary.LittleEndian.PutUint64(b[descSrc:], src)
	binary.LittleEndian.PutUint64(b[descDst:], dst)
	binary.LittleEndian.PutUint64(b[descCount:], count)
	return c.writeDevice(desc, b[:])
}

// MemcpyAsyncWithDesc queues the copy a descriptor describes, read by the
// device when the copy starts (aclrtMemcpyAsyncWithDesc).
func (s *Stream) MemcpyAsyncWithDesc(desc uint64, kind CopyKind, site uintptr) error {
	if err := s.usable(); err != nil {
		return err
	}
	if err := checkDescKind(kind); err != nil {
		return err
	}
	if err := s.c.d.checkWords("desc", desc, MemcpyDescSize); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCopyIndirect, Dst: hal.DevLoc(desc + descDst), Src: hal.DevLoc(desc + descSrc), Value: desc + descCount, Site: site})
	return err
}
