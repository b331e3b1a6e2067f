package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// hwSyncSize is the size of the hardware synchronization word: one 64-bit
// counter, padded to the 32 bytes a device allocation is aligned to.
const hwSyncSize = 32

// hwSyncWord is a device's inter-core synchronization word: lent device
// memory taken the first time it is asked for while the device is open,
// and gone with the device's memory when it closes (hd tells whether the
// address still belongs to the open device).
type hwSyncWord struct {
	addr uint64
	hd   hal.Device
}

// HardwareSyncAddr returns the address of c's device's synchronization word
// (aclrtGetHardwareSyncAddr). Every call while the device stays open
// returns the same address; kernels on different cores meet through it
// with atomic operations. The word is zero when first handed out.
func (c *Context) HardwareSyncAddr() (uint64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	d := c.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.hd == nil {
		return 0, rterr.Errorf(rterr.KindInvalidDevice, "device %d is not open; call aclrtSetDevice", d.id)
	}
	if d.hwSync.hd == d.hd {
		return d.hwSync.addr, nil
	}
	a, err := d.hd.Malloc(hwSyncSize, hal.MemPolicy{Page: hal.PageNormalOnly, Tag: uint8(useLent)})
	if err != nil {
		return 0, rterr.Wrap(rterr.KindOutOfMemory, err, "device %d: allocating the hardware synchronization word", d.id)
	}
	// Reused memory keeps old bytes: the word starts at zero.
	if err := d.hd.Run(hal.Task{Kind: hal.TaskMemset, Dst: hal.Loc{Dev: a.Addr}, Size: hwSyncSize}); err != nil {
		d.hd.Free(a.Addr, uint8(useLent))
		return 0, rterr.Wrap(rterr.KindInternal, err, "device %d: clearing the hardware synchronization word", d.id)
	}
	d.hwSync = hwSyncWord{addr: a.Addr, hd: d.hd}
	return a.Addr, nil
}
