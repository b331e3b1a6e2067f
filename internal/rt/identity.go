package rt

import (
	"fmt"
	"strings"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// identifier returns the backend's identity capability, or refuses.
func (r *Runtime) identifier() (hal.Identifier, int, error) {
	b, err := r.live()
	if err != nil {
		return nil, 0, err
	}
	id, ok := b.(hal.Identifier)
	if !ok {
		return nil, 0, rterr.Errorf(rterr.KindNotSupported, "this backend does not know its devices' logical and physical ids")
	}
	return id, b.DeviceCount(), nil
}

// Identity is device id's identity (a user id, as every call takes).
func (r *Runtime) Identity(id int) (hal.Identity, error) {
	idr, _, err := r.identifier()
	if err != nil {
		return hal.Identity{}, err
	}
	if err := r.checkDeviceID("deviceId", id); err != nil {
		return hal.Identity{}, err
	}
	return idr.Identity(id)
}

// DeviceID kinds for the id conversions.
type DeviceIDKind int

const (
	UserID DeviceIDKind = iota
	LogicalID
	PhysicalID
)

var idNames = [...]string{"user", "logical", "physical"}

// ConvertDeviceID converts a device id of one kind into another
// (aclrtGetLogicDevIdByUserDevId and its five siblings). A negative id is
// ACL_ERROR_RT_PARAM_INVALID and an id no visible device has
// ACL_ERROR_RT_INVALID_DEVICEID, as in CANN's runtime.
func (r *Runtime) ConvertDeviceID(id int, from, to DeviceIDKind) (int, error) {
	idr, n, err := r.identifier()
	if err != nil {
		return 0, err
	}
	if id < 0 {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "%s device id %d is invalid, expected >= 0", idNames[from], id)
	}
	for u := range n {
		x, err := idr.Identity(u)
		if err != nil {
			return 0, err
		}
		ids := [...]int{u, x.Logical, x.Physical}
		if ids[from] == id {
			return ids[to], nil
		}
	}
	return 0, rterr.Errorf(rterr.KindInvalidDevice, "%s device id %d is invalid, expected the id of one of the %d visible devices", idNames[from], id, n)
}

// pciBusIDLen is a PCI bus id's length with its terminating NUL.
const pciBusIDLen = 13

// PCIBusID is device id's PCI bus id (aclrtDeviceGetPCIBusId); buf is the
// length of the caller's buffer, at least 13.
func (r *Runtime) PCIBusID(id, buf int) (string, error) {
	if id < 0 {
		return "", rterr.Errorf(rterr.KindInvalidDevice, "deviceId %d is invalid, expected >= 0", id)
	}
	if buf < pciBusIDLen {
		return "", rterr.Errorf(rterr.KindInvalidParam, "len %d is invalid, expected >= %d (12 characters and a NUL)", buf, pciBusIDLen)
	}
	x, err := r.Identity(id)
	return x.PCIBusID, err
}

// DeviceByPCIBusID is the device whose PCI bus id is bus
// (aclrtDeviceGetByPCIBusId): domain:bus:device.function in hexadecimal,
// the domain optional, any case.
func (r *Runtime) DeviceByPCIBusID(bus string) (int, error) {
	idr, n, err := r.identifier()
	if err != nil {
		return 0, err
	}
	want, ok := parseBusID(bus)
	if !ok {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "pciBusId %q is invalid, expected domain:bus:device.function such as 0000:3d:00.0", bus)
	}
	for u := range n {
		x, err := idr.Identity(u)
		if err != nil {
			return 0, err
		}
		if have, _ := parseBusID(x.PCIBusID); have == want {
			return u, nil
		}
	}
	return 0, rterr.Errorf(rterr.KindInvalidDevice, "pciBusId %q is no visible device's, expected one aclrtDeviceGetPCIBusId gives", bus)
}

// parseBusID reads [domain:]bus:device.function.
func parseBusID(s string) ([4]uint64, bool) {
	var f [4]uint64
	parts := strings.Split(s, ":")
	if len(parts) == 2 {
		parts = append([]string{"0"}, parts...)
	}
	if len(parts) != 3 {
		return f, false
	}
	df := strings.Split(parts[2], ".")
	if len(df) != 2 {
		return f, false
	}
	for i, p := range [...]string{parts[0], parts[1], df[0], df[1]} {
		var v uint64
		if _, err := fmt.Sscanf(p, "%x", &v); err != nil || p == "" || strings.TrimLeft(strings.ToLower(p), "0123456789abcdef") != "" {
			return f, false
		}
		f[i] = v
	}
	return f, f[0] <= 0xffff && f[1] <= 0xff && f[2] <= 0x1f && f[3] <= 0x7
}
