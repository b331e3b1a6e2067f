package rt

import (
	"context"
	"slices"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// CopyKind is aclrtMemcpyKind, with the CANN values.
type CopyKind int

const (
	HostToHost          CopyKind = 0
	HostToDevice        CopyKind = 1
	DeviceToHost        CopyKind = 2
	DeviceToDevice      CopyKind = 3
	CopyDefault         CopyKind = 4 // direction inferred from the pointers
	HostToBufToDevice   CopyKind = 5 // host data staged at the call; the source may be reused at once
	InnerDeviceToDevice CopyKind = 6
	InterDeviceToDevice CopyKind = 7
)

var kindNames = [...]string{"ACL_MEMCPY_HOST_TO_HOST", "ACL_MEMCPY_HOST_TO_DEVICE", "ACL_MEMCPY_DEVICE_TO_HOST",
	"ACL_MEMCPY_DEVICE_TO_DEVICE", "ACL_MEMCPY_DEFAULT", "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
	"ACL_MEMCPY_INNER_DEVICE_TO_DEVICE", "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"}

func (k CopyKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "aclrtMemcpyKind(" + itoa(int(k)) + ")"
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// kindOf is the direction the pointers imply; a binary's global is
// device memory.
func (r *Runtime) kindOf(dst, src hal.Loc) CopyKind {
	h, d := r.onHost(src), r.onHost(dst)
	switch {
	case h && d:
		return HostToHost
	case h:
		return HostToDevice
	case d:
		return DeviceToHost
	}
	return DeviceToDevice
}

// resolveKind checks the kind a caller gave against the pointers. An end
// in memory of a closed device is named as such, rather than as the wrong
// side.
func (d *Device) resolveKind(dst, src hal.Loc, kind CopyKind, allowed ...CopyKind) (CopyKind, error) {
	ok := false
	for _, a := range allowed {
		ok = ok || a == kind
	}
	if !ok {
		// A copy for the message keeps allowed, and so every copy call's
		// list of kinds, off the heap.
		return 0, rterr.Errorf(rterr.KindInvalidParam, "kind %s is invalid here, expected one of %v", kind, slices.Clone(allowed))
	}
	actual := d.r.kindOf(dst, src)
	switch kind {
	case CopyDefault:
		return actual, nil
	case HostToBufToDevice:
		kind = HostToDevice
	case InnerDeviceToDevice, InterDeviceToDevice:
		kind = DeviceToDevice
	}
	if kind != actual {
		if err := d.r.mappedEnd(dst, src, kind); err != nil {
			return 0, err
		}
		for _, end := range []struct {
			param string
			l     hal.Loc
		}{{"dst", dst}, {"src", src}} {
			if !end.l.IsHost() {
				if err := errClosed(d.b, end.param, end.l.Dev); err != nil {
					return 0, err
				}
			}
		}
		return 0, rterr.Errorf(rterr.KindInvalidParam, "kind %s is invalid for a %s memory destination and a %s memory source, expected %s",
			kind, d.r.side(dst), d.r.side(src), actual)
	}
	return actual, nil
}

func (r *Runtime) side(l hal.Loc) string {
	if r.onHost(l) {
		return "host"
	}
	return "device"
}

// checkDevice checks that [addr, addr+n) lies in one live allocation of
// device d.
func (d *Device) checkDevice(param string, addr, n uint64) error {
	_, err := d.checkDeviceOf(param, addr, n, true)
	return err
}

// checkDeviceOf checks that [addr, addr+n) lies in one live device
// allocation, of device d if own, and returns its device.
func (d *Device) checkDeviceOf(param string, addr, n uint64, own bool) (int, error) {
	if d.r.reserved(d.b, addr) {
		// Mapped memory another device may reach is the device's own to
		// a copy: the mapping's access, not peer access, decides.
		return d.id, d.checkMapped(param, addr, n, param != "src")
	}
	a, ok := d.r.lookup(d.b, addr)
	switch {
	case !ok:
		if s, ok := d.r.hostSymbol(addr); ok {
			return d.id, s.inside(param, addr, n) // a binary's global: every device's
		}
		if err := errClosed(d.b, param, addr); err != nil {
			return 0, err
		}
		return 0, rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is not in a live device allocation (never allocated, or freed)", param, addr)
	case a.Host:
		return 0, rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is page-locked host memory, expected device memory", param, addr)
	case own && a.Device != d.id:
		return 0, rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is memory of device %d, expected device %d", param, addr, a.Device, d.id)
	case !a.Contains(addr, n):
		return 0, rterr.Errorf(rterr.KindInvalidAddress, "%s range [%#x, %#x) runs past its allocation [%#x, %#x)",
			param, addr, addr+n, a.Addr, a.Addr+a.Size)
	}
	return a.Device, nil
}

// checkCopyEnds checks both ends of a copy on d, as checkLoc does; a copy
// between device memory may have one end on another device, with peer
// access in the copy's direction (checkPeerCopy).
func (d *Device) checkCopyEnds(dst, src hal.Loc, n uint64) (dstPinned, srcPinned bool, err error) {
	if dst.IsHost() || src.IsHost() {
		if dstPinned, err = d.checkLoc("dst", dst, n); err != nil {
			return false, false, err
		}
		srcPinned, err = d.checkLoc("src", src, n)
		return dstPinned, srcPinned, err
	}
	t, err := d.checkDeviceOf("dst", dst.Dev, n, false)
	if err != nil {
		return false, false, err
	}
	s, err := d.checkDeviceOf("src", src.Dev, n, false)
	if err != nil || (t == d.id && s == d.id) {
		return false, false, err
	}
	if t == s {
		return false, false, rterr.Errorf(rterr.KindInvalidAddress, "dst %#x is memory of device %d, expected device %d", dst.Dev, t, d.id)
	}
	return false, false, d.checkPeerCopy(dst.Dev, src.Dev, t, s)
}

// checkLoc checks a copy end: device memory must be live on d; host
// memory is the caller's. pinned reports page-locked host memory of the
// caller's.
func (d *Device) checkLoc(param string, l hal.Loc, n uint64) (pinned bool, err error) {
	if !l.IsHost() {
		return false, d.checkDevice(param, l.Dev, n)
	}
	if err := checkHostRange(param, l.Addr(), n); err != nil {
		return false, err
	}
	if s, ok := d.r.hostSymbol(l.Addr()); ok {
		return true, s.inside(param, l.Addr(), n) // device memory to the copy: never staged
	}
	a, ok := d.r.lookup(d.b, l.Addr())
	if !ok || !a.Host {
		return d.r.regs.pinned(l.Addr(), n), nil // registered memory counts as page-locked
	}
	if !a.Contains(l.Addr(), n) {
		return false, rterr.Errorf(rterr.KindInvalidAddress, "%s range [%#x, %#x) runs past its page-locked allocation [%#x, %#x)",
			param, l.Addr(), l.Addr()+n, a.Addr, a.Addr+a.Size)
	}
	return true, nil
}

func (c *Context) backend() (hal.Backend, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return c.d.b, nil
}

// Free frees device memory (aclrtFree). It does not wait for tasks using it.
func (r *Runtime) Free(addr uint64) error {
	r.waitUnlocked()
	b, err := r.live()
	if err != nil {
		return err
	}
	if addr == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "devPtr is NULL, expected memory from aclrtMalloc")
	}
	if err := r.freeManaged(addr); err != errNotManaged {
		return err
	}
	if err := r.errImported(addr); err != nil {
		return err
	}
	a, ok := r.lookup(b, addr)
	switch {
	case !ok:
		if err := errClosed(b, "devPtr", addr); err != nil {
			return err
		}
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is not a live device allocation (never allocated, or already freed)", addr)
	case a.Host:
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is page-locked host memory; free it with aclrtFreeHost", addr)
	case a.Addr != addr:
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is inside the allocation at %#x, expected its start", addr, a.Addr)
	}
	if devUse(a.Tag) == usePool {
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is memory from a pool; free it with aclrtMemPoolFreeAsync", addr)
	}
	if devUse(a.Tag) == useLent {
		return rterr.Errorf(rterr.KindInvalidAddress,
			"devPtr %#x is memory the runtime owns (a condition word, a task's argument block or a shared buffer's data), not from aclrtMalloc; it goes with what holds it", addr)
	}
	d, err := r.Device(a.Device)
	if err != nil {
		return err
	}
	hd, err := d.halDevice()
	if err != nil {
		return err
	}
	// Only an allocation still the caller's: one freed by another call
	// since the lookup, and maybe the runtime's by now, is refused.
	if err := hd.Free(addr, uint8(useOwned)); err != nil {
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is not a live device allocation (never allocated, or already freed)", addr)
	}
	return nil
}

// Memcpy copies synchronously (aclrtMemcpy); capture modes may refuse it.
// Zero bytes succeed at once, whatever the other arguments: CANN's
// runtime checks nothing else then.
func (c *Context) Memcpy(caller Caller, dst hal.Loc, destMax uint64, src hal.Loc, count uint64, kind CopyKind) error {
	c.d.r.waitUnlocked()
	if count == 0 {
		return nil
	}
	if err := c.checkSync(caller, "a synchronous copy"); err != nil {
		return err
	}
	if _, err := c.d.resolveKind(dst, src, kind, HostToHost, HostToDevice, DeviceToHost, DeviceToDevice, CopyDefault); err != nil {
		return err
	}
	if err := checkCount(count, destMax); err != nil {
		return err
	}
	if _, _, err := c.d.checkCopyEnds(dst, src, count); err != nil {
		return err
	}
	if err := c.d.checkRemote(dst, src, true); err != nil {
		return err
	}
	c.settle(dst, src)
	return c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: dst, Src: src, Size: count})
}

func checkCount(count, destMax uint64) error {
	if count > destMax {
		return rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected <= destMax %d", count, destMax)
	}
	return nil
}

// MemcpyAsync queues a copy (aclrtMemcpyAsync). With pageable host memory
// it degrades as the guide allows: a pageable source is staged into
// page-locked memory before the call returns; a pageable destination makes
// the call wait for the copy. Zero bytes succeed at once, as for Memcpy.
func (s *Stream) MemcpyAsync(caller Caller, dst hal.Loc, destMax uint64, src hal.Loc, count uint64, kind CopyKind, site uintptr) error {
	if count == 0 {
		return nil
	}
	b, err := s.c.backend()
	if err != nil {
		return err
	}
	if err := s.check(); err != nil {
		return err
	}
	d := s.c.d
	if _, err := d.resolveKind(dst, src, kind, HostToHost, HostToDevice, DeviceToHost, DeviceToDevice, CopyDefault, HostToBufToDevice); err != nil {
		return err
	}
	if err := checkCount(count, destMax); err != nil {
		return err
	}
	dstPinned, srcPinned, err := d.checkCopyEnds(dst, src, count)
	if err != nil {
		return err
	}
	if err := d.checkRemote(dst, src, false); err != nil {
		return err
	}
	t := hal.Task{Kind: hal.TaskCopy, Dst: dst, Src: src, Size: count, Site: site}
	on := d.r.symbolsOf(dst, src)
	if (src.IsHost() && !srcPinned) || (dst.IsHost() && !dstPinned) || kind == HostToBufToDevice {
		if bound, err := s.pageableDiverted(caller, "an asynchronous copy"); bound || err != nil {
			if err != nil {
				return err
			}
			_, err = s.submitOn(&t, on)
			return err
		}
	}
	var st staged
	if src.IsHost() && (!srcPinned || kind == HostToBufToDevice) {
		if st, err = s.stage(b, src, count); err != nil {
			return err
		}
		t.Src = hal.HostLoc(st.p)
	}
	seq, err := s.submitOn(&t, on)
	if err != nil {
		if st.p != nil {
			s.c.d.r.staging.put(b, st)
		}
		return err
	}
	if st.p != nil {
		st.seq = seq
		s.mu.Lock()
		s.staged = append(s.staged, st)
		s.mu.Unlock()
	}
	if dst.IsHost() && !dstPinned {
		return s.q.Wait(context.Background(), seq, 0)
	}
	return nil
}

// checkSync is what every synchronous copy or memset checks first: the
// context is not destroyed, then the capture-mode rules allow what (it
// would break a capture, see CheckUnsafe).
func (c *Context) checkSync(caller Caller, what string) error {
	if err := c.check(); err != nil {
		return err
	}
	return c.d.r.CheckUnsafe(caller, what)
}

// Memset sets count bytes at dst to byte(value), synchronously
// (aclrtMemset); capture modes may refuse it. Zero bytes succeed at once,
// as for Memcpy.
func (c *Context) Memset(caller Caller, dst hal.Loc, maxCount uint64, value int32, count uint64) error {
	c.d.r.waitUnlocked()
	if count == 0 {
		return nil
	}
	if err := c.checkSync(caller, "a synchronous memset"); err != nil {
		return err
	}
	pageable, err := c.checkMemset(dst, maxCount, count, true)
	if err != nil {
		return err
	}
	if pageable {
		return hostMemset(dst.Host, byte(value), count)
	}
	c.settle(dst, hal.Loc{})
	return c.hd.Run(hal.Task{Kind: hal.TaskMemset, Dst: dst, Size: count, Value: uint64(byte(value))})
}

// checkMemset checks a memset's range and reports whether it is pageable
// host memory, which only the synchronous call (allowPageable) takes: CANN's
// driver sets any host address (a sample clears a stack structure so).
func (c *Context) checkMemset(dst hal.Loc, maxCount, count uint64, allowPageable bool) (pageable bool, err error) {
	if count > maxCount {
		return false, rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected <= maxCount %d", count, maxCount)
	}
	pinned, err := c.d.checkLoc("devPtr", dst, count)
	if err != nil {
		return false, err
	}
	pageable = dst.IsHost() && !pinned
	if pageable && !allowPageable {
		return false, rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is pageable host memory, expected device memory or memory from aclrtMallocHost", dst.Addr())
	}
	return pageable, nil
}

// MemsetAsync queues a memset (aclrtMemsetAsync); zero bytes succeed at
// once, as for Memcpy.
func (s *Stream) MemsetAsync(dst hal.Loc, maxCount uint64, value int32, count uint64, site uintptr) error {
	if count == 0 {
		return nil
	}
	if err := s.usable(); err != nil {
		return err
	}
	if _, err := s.c.checkMemset(dst, maxCount, count, false); err != nil {
		return err
	}
	_, err := s.submitOn(&hal.Task{Kind: hal.TaskMemset, Dst: dst, Size: count, Value: uint64(byte(value)), Site: site}, s.c.d.r.symbolsOf(dst))
	return err
}

// pageableDiverted applies the rules for an asynchronous copy with
// pageable host memory (what) on s: refused in a capture or a task-group
// update, which need memory from aclrtMallocHost, and subject to the
// capture modes elsewhere. On a persistent stream bound to a model it is
// recorded as given (bound is true): each run of the model reads or writes
// that host memory, as the device's DMA would, so it must outlive the
// model.
func (s *Stream) pageableDiverted(caller Caller, what string) (bound bool, err error) {
	if cp := s.Capture(); cp != nil {
		err := rterr.Errorf(rterr.KindCaptureBlockAsync, "%s with pageable host memory cannot be captured (stream %d); use memory from aclrtMallocHost", what, s.id)
		cp.Invalidate(err)
		return false, err
	}
	if d := s.divert.Load(); d != nil {
		if d.update != nil {
			return false, rterr.Errorf(rterr.KindCaptureBlockAsync, "%s with pageable host memory cannot update a captured task (stream %d); use memory from aclrtMallocHost", what, s.id)
		}
		return true, nil
	}
	return false, s.c.d.r.CheckUnsafe(caller, what+" with pageable host memory")
}
