//go:build !race

package sim

// The windows virtual and managed memory come from, by default.
const (
	defaultVMMBase, defaultVMMSize         = DefaultVMMBase, DefaultVMMSize
	defaultManagedBase, defaultManagedSize = DefaultManagedBase, DefaultManagedSize
)
