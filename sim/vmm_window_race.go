//go:build race

package sim

// The race detector's shadow covers the windows CANN documents, so race
// builds take virtual and managed memory from the 128 GiB below the Go
// heap instead.
const (
	defaultVMMBase, defaultVMMSize         = 0x9000000000, 64 << 30
	defaultManagedBase, defaultManagedSize = 0xa000000000, 64 << 30
)
