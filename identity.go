package gocann

import "github.com/gocann/gocann/internal/rt"

// Device ids come in three kinds. The id every call takes is the user id:
// ASCEND_RT_VISIBLE_DEVICES selects and renumbers devices, so user id i is
// the i-th device it names. The driver numbers every device it sees
// (logical ids), and the machine numbers its chips (physical ids, equal to
// the logical ones outside containers; the simulator's physical_ids key
// sets them). A negative id is ACL_ERROR_RT_PARAM_INVALID, an id no visible
// device has ACL_ERROR_RT_INVALID_DEVICEID.

func (r *Runtime) convertID(op string, id int, from, to rt.DeviceIDKind) (int, error) {
	v, err := r.rt.ConvertDeviceID(id, from, to)
	return v, wrap(op, err)
}

// LogicalIDOfUser is the logical id of the device with user id user.
//
// CANN: aclrtGetLogicDevIdByUserDevId.
func (r *Runtime) LogicalIDOfUser(user int) (int, error) {
	if err := r.require("aclrtGetLogicDevIdByUserDevId"); err != nil {
		return 0, err
	}
	return r.convertID("Runtime.LogicalIDOfUser (aclrtGetLogicDevIdByUserDevId)", user, rt.UserID, rt.LogicalID)
}

// UserIDOfLogical is the user id of the device with logical id logical.
//
// CANN: aclrtGetUserDevIdByLogicDevId.
func (r *Runtime) UserIDOfLogical(logical int) (int, error) {
	if err := r.require("aclrtGetUserDevIdByLogicDevId"); err != nil {
		return 0, err
	}
	return r.convertID("Runtime.UserIDOfLogical (aclrtGetUserDevIdByLogicDevId)", logical, rt.LogicalID, rt.UserID)
}

// PhysicalIDOfUser is the physical id of the device with user id user.
//
// CANN: aclrtGetPhyDevIdByUserDevId.
func (r *Runtime) PhysicalIDOfUser(user int) (int, error) {
	if err := r.require("aclrtGetPhyDevIdByUserDevId"); err != nil {
		return 0, err
	}
	return r.convertID("Runtime.PhysicalIDOfUser (aclrtGetPhyDevIdByUserDevId)", user, rt.UserID, rt.PhysicalID)
}

// UserIDOfPhysical is the user id of the device with physical id phys.
//
// CANN: aclrtGetUserDevIdByPhyDevId.
func (r *Runtime) UserIDOfPhysical(phys int) (int, error) {
	if err := r.require("aclrtGetUserDevIdByPhyDevId"); err != nil {
		return 0, err
	}
	return r.convertID("Runtime.UserIDOfPhysical (aclrtGetUserDevIdByPhyDevId)", phys, rt.PhysicalID, rt.UserID)
}

// PhysicalIDOfLogical is aclrtGetPhyDevIdByLogicDevId, which takes the id
// as CANN's runtime reads it: the id aclrtSetDevice takes (the user id),
// the inverse of LogicalIDOfPhysical.
//
// CANN: aclrtGetPhyDevIdByLogicDevId.
func (r *Runtime) PhysicalIDOfLogical(id int) (int, error) {
	if err := r.require("aclrtGetPhyDevIdByLogicDevId"); err != nil {
		return 0, err
	}
	return r.convertID("Runtime.PhysicalIDOfLogical (aclrtGetPhyDevIdByLogicDevId)", id, rt.UserID, rt.PhysicalID)
}

// LogicalIDOfPhysical is aclrtGetLogicDevIdByPhyDevId, which, as its
// reference page says, gives the user id of the device with physical id
// phys.
//
// CANN: aclrtGetLogicDevIdByPhyDevId.
func (r *Runtime) LogicalIDOfPhysical(phys int) (int, error) {
	if err := r.require("aclrtGetLogicDevIdByPhyDevId"); err != nil {
		return 0, err
	}
	return r.convertID("Runtime.LogicalIDOfPhysical (aclrtGetLogicDevIdByPhyDevId)", phys, rt.PhysicalID, rt.UserID)
}

// PCIBusID is the device's PCI bus id, domain:bus:device.function as
// 0000:01:00.0.
//
// CANN: aclrtDeviceGetPCIBusId.
func (d *Device) PCIBusID() (string, error) {
	if err := d.r.require("aclrtDeviceGetPCIBusId"); err != nil {
		return "", err
	}
	s, err := d.r.rt.PCIBusID(d.ID(), 13)
	return s, wrap("Device.PCIBusID (aclrtDeviceGetPCIBusId)", err)
}

// PCIBusID is Device.PCIBusID for device id with a buffer of n bytes, as C
// passes them: n must hold the 12 characters and a NUL.
//
// CANN: aclrtDeviceGetPCIBusId (buffer length).
func (x RawRuntime) PCIBusID(id, n int) (string, error) {
	if err := x.r.require("aclrtDeviceGetPCIBusId"); err != nil {
		return "", err
	}
	s, err := x.r.rt.PCIBusID(id, n)
	return s, wrap("Device.PCIBusID (aclrtDeviceGetPCIBusId)", err)
}

// DeviceByPCIBusID is the user id of the device at PCI bus id bus
// (hexadecimal fields, the domain optional).
//
// CANN: aclrtDeviceGetByPCIBusId.
func (r *Runtime) DeviceByPCIBusID(bus string) (int, error) {
	if err := r.require("aclrtDeviceGetByPCIBusId"); err != nil {
		return 0, err
	}
	id, err := r.rt.DeviceByPCIBusID(bus)
	return id, wrap("Runtime.DeviceByPCIBusID (aclrtDeviceGetByPCIBusId)", err)
}

// UUID is the device's unique id; a simulated device's is the same in
// every run for the same physical id.
//
// CANN: aclrtDeviceGetUuid.
func (d *Device) UUID() ([16]byte, error) {
	if err := d.r.require("aclrtDeviceGetUuid"); err != nil {
		return [16]byte{}, err
	}
	x, err := d.r.rt.Identity(d.ID())
	return x.UUID, wrap("Device.UUID (aclrtDeviceGetUuid)", err)
}
