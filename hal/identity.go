package hal

// Identity is where a device sits in the machine. A backend's device ids
// are the ids a program uses (CANN's user ids); the driver numbers every
// device it sees, visible to the program or not (logical ids), and the
// machine numbers its chips (physical ids).
type Identity struct {
	Logical  int
	Physical int
	// PCIBusID is domain:bus:device.function, as 0000:3d:00.0.
	PCIBusID string
	// UUID is the same for the same physical device every time.
	UUID [16]byte
}

// Identifier is implemented by backends that know their devices'
// identities.
type Identifier interface {
	// Identity is device id's identity; KindInvalidDevice for an id out of
	// range.
	Identity(id int) (Identity, error)
	// LogicalCount is how many devices the driver sees, visible or not.
	LogicalCount() int
}
