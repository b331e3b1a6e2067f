package rt

// hwSyncSize is the size of the hardware synchronization word: one 64-bit
// counter, padded to the 32 bytes a device allocation is aligned to.
const hwSyncSize = 32

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
	return d.lend(&d.hwSync, hwSyncSize, "the hardware synchronization word")
}
