package rt

import (
	"context"
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
)

// syncDevice waits for every stream of device d, if it has a context; a
// device nobody set has nothing running.
func (d *Device) syncIfUsed() error {
	d.mu.Lock()
	used := !d.dead && len(d.contextsLocked()) > 0
	d.mu.Unlock()
	if !used {
		return nil
	}
	return d.Synchronize(context.Background(), 0)
}

// FreeWithDevSync waits for the device holding devPtr, then frees it
// (aclrtFreeWithDevSync). A fault the wait reports is returned after the
// free.
func (r *Runtime) FreeWithDevSync(addr uint64) error {
	b, err := r.live()
	if err != nil {
		return err
	}
	var serr error
	if a, ok := r.lookup(b, addr); ok && !a.Host {
		if d, err := r.Device(a.Device); err == nil {
			serr = d.syncIfUsed()
		}
	}
	if err := r.Free(addr); err != nil {
		return err
	}
	return serr
}

// FreeHostWithDevSync waits for every device in use, since any may copy
// from or to host memory, then frees p (aclrtFreeHostWithDevSync).
func (r *Runtime) FreeHostWithDevSync(p unsafe.Pointer) error {
	if _, err := r.live(); err != nil {
		return err
	}
	if p == nil {
		return rterr.Errorf(rterr.KindBadArgument, "hostPtr is NULL, expected memory from aclrtMallocHost")
	}
	r.mu.Lock()
	devs := r.devices
	r.mu.Unlock()
	var serr error
	for _, d := range devs {
		if err := d.syncIfUsed(); err != nil && serr == nil {
			serr = err
		}
	}
	if err := r.FreeHost(p); err != nil {
		return err
	}
	return serr
}

// Memory types of aclrtCheckMemType, with the CANN values.
const (
	MemTypeDev  uint32 = 0x2
	MemTypeDVPP uint32 = 0x8
	MemTypeRsvd uint32 = 0x10
)

// CheckMemType reports whether every address is memory of one of the
// types in memType (aclrtCheckMemType): ACL_RT_MEM_TYPE_DEV, a device
// allocation of device id; ACL_RT_MEM_TYPE_RSVD, an address in a range
// from aclrtReserveMemAddress (mapped or not). The simulator has no DVPP
// memory.
func (r *Runtime) CheckMemType(id int, addrs []uint64, memType uint32) (bool, error) {
	b, err := r.live()
	if err != nil {
		return false, err
	}
	const all = MemTypeDev | MemTypeDVPP | MemTypeRsvd
	switch {
	case len(addrs) == 0:
		return false, rterr.Errorf(rterr.KindInvalidParam, "size 0 is invalid, expected > 0")
	case memType&^all != 0 || memType == 0:
		return false, rterr.Errorf(rterr.KindInvalidParam, "memType %#x is invalid, expected an OR of ACL_RT_MEM_TYPE_DEV (0x2), ACL_RT_MEM_TYPE_DVPP (0x8) and ACL_RT_MEM_TYPE_RSVD (0x10)", memType)
	}
	for _, addr := range addrs {
		if memType&MemTypeRsvd != 0 && r.liveReserved(b, addr) {
			continue
		}
		a, ok := r.lookup(b, addr)
		if !ok || a.Host || a.Device != id || memType&MemTypeDev == 0 {
			return false, nil
		}
	}
	return true, nil
}
