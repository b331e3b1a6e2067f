package hal

// Utilization is how busy a device's engines were over a recent window,
// each a fraction from 0 to 1, or -1 for an engine the device does not
// have.
type Utilization struct {
	Cube, Vector, AICPU float64
}

// Utilizer is implemented by devices that measure how busy they are.
type Utilizer interface {
	Utilization() Utilization
}
