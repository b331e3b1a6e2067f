package rt

import "github.com/gocann/gocann/hal"

// Location types of aclrtPointerGetAttributes, with the CANN values.
const (
	LocationHost         = 0
	LocationDevice       = 1
	LocationUnregistered = 2
	LocationManaged      = 3
)

// PointerAttributes describes where addr lives (aclrtPointerGetAttributes).
// Managed memory is of its own type, with the id of the device it was
// allocated on, as CANN's runtime reports the driver's UVM memory.
func (r *Runtime) PointerAttributes(addr uint64) (loc int, id int, pageSize uint64, err error) {
	b, err := r.live()
	if err != nil {
		return 0, 0, 0, err
	}
	a, ok := r.lookup(b, addr)
	if s, sym := r.hostSymbol(addr); !ok && sym {
		return LocationDevice, s.dev, hal.PageSizeNormal, nil // a binary's global
	}
	switch {
	case !ok && r.regs.pinned(addr, 1):
		return LocationHost, 0, hal.PageSizeNormal, nil // registered host memory
	case !ok:
		return LocationUnregistered, 0, hal.PageSizeNormal, nil
	case a.Host:
		return LocationHost, 0, a.PageSize, nil
	case r.isManaged(addr):
		return LocationManaged, a.Device, a.PageSize, nil
	}
	return LocationDevice, a.Device, a.PageSize, nil
}
