package rt

import (
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// writeDevice copies b into device memory at addr, synchronously, as CANN
// writes the descriptors it sets.
func (c *Context) writeDevice(addr uint64, b []byte) error {
	return c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(addr), Src: hal.HostLoc(unsafe.Pointer(&b[0])), Size: uint64(len(b))})
}

// readDevice copies n bytes of device memory at addr into a new slice,
// synchronously.
func (c *Context) readDevice(addr, n uint64) ([]byte, error) {
	b := make([]byte, n)
	if n == 0 {
		return b, nil
	}
	err := c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(unsafe.Pointer(&b[0])), Src: hal.DevLoc(addr), Size: n})
	return b, err
}
