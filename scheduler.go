package gocann

import "github.com/gocann/gocann/internal/rterr"

// MallocForTaskScheduler allocates n bytes of device memory for the
// device's task scheduler to use: value writes and waits
// (Stream.WriteValue, Stream.WaitValue) and model tasks may name it, as
// they may any device memory of the caller's. It is freed with Free.
//
// CANN: aclrtMallocForTaskScheduler.
func (c *Context) MallocForTaskScheduler(n int64, policy MallocPolicy) (DevPtr, error) {
	if err := c.r.require("aclrtMallocForTaskScheduler"); err != nil {
		return 0, err
	}
	const op = "Context.MallocForTaskScheduler (aclrtMallocForTaskScheduler)"
	if n <= 0 {
		return 0, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected > 0", n))
	}
	a, err := c.c.Malloc(uint64(n), halPolicy(policy, uint64(n)))
	if err != nil {
		return 0, wrap(op, err)
	}
	return DevPtr(a.Addr), nil
}

// HardwareSyncAddr returns the address of the context's device's
// inter-core synchronization word: 8 bytes of device memory, zero when the
// device first hands it out, that the blocks of a kernel running on
// different cores synchronize through with atomic operations (pass it as a
// kernel argument). The runtime owns it: it is not freed with Free, and it
// goes when the device is reset.
//
// CANN: aclrtGetHardwareSyncAddr.
func (c *Context) HardwareSyncAddr() (DevPtr, error) {
	const op = "Context.HardwareSyncAddr (aclrtGetHardwareSyncAddr)"
	if err := c.r.require("aclrtGetHardwareSyncAddr"); err != nil {
		return 0, err
	}
	a, err := c.c.HardwareSyncAddr()
	if err != nil {
		return 0, wrap(op, err)
	}
	return DevPtr(a), nil
}
