package sim

import (
	"crypto/sha256"
	"fmt"

	"github.com/gocann/gocann/hal"
)

// identities is the identity of each device of a backend, by device id.
type identities struct {
	logicalCount int
	ids          []hal.Identity
}

// newIdentities lays out the devices a program sees: logical devices
// 0..n-1 of which visible selects some (all if nil), in order, each on the
// physical chip physical names (its own number if nil). The caller has
// checked visible; this checks physical.
func newIdentities(n int, visible, physical []int) (identities, error) {
	if physical != nil {
		if len(physical) != n {
			return identities{}, hal.Errorf(hal.KindInvalidParam, "physical id list has %d entries, expected one per device (%d)", len(physical), n)
		}
		seen := make(map[int]bool, n)
		for _, p := range physical {
			if p < 0 || p > 255 || seen[p] {
				return identities{}, hal.Errorf(hal.KindInvalidParam, "physical id %d is invalid, expected distinct ids 0..255", p)
			}
			seen[p] = true
		}
	}
	if visible != nil && len(visible) == 0 {
		return identities{}, hal.Errorf(hal.KindInvalidParam, "the visible device list is empty, expected at least one device")
	}
	if visible == nil {
		visible = make([]int, n)
		for i := range visible {
			visible[i] = i
		}
	}
	id := identities{logicalCount: n}
	for _, l := range visible {
		if l < 0 || l >= n {
			return identities{}, hal.Errorf(hal.KindInvalidParam, "visible device %d is invalid, expected 0..%d", l, n-1)
		}
		p := l
		if physical != nil {
			p = physical[l]
		}
		sum := sha256.Sum256(fmt.Appendf(nil, "gocann simulated NPU, physical device %d", p))
		var u [16]byte
		copy(u[:], sum[:])
		u[6] = u[6]&0x0f | 0x50 // an RFC 4122 name-based UUID
		u[8] = u[8]&0x3f | 0x80
		id.ids = append(id.ids, hal.Identity{Logical: l, Physical: p, PCIBusID: fmt.Sprintf("0000:%02x:00.0", p+1), UUID: u})
	}
	return id, nil
}

var _ hal.Identifier = (*Backend)(nil)

// Identity is device id's identity (hal.Identifier).
func (b *Backend) Identity(id int) (hal.Identity, error) {
	if id < 0 || id >= len(b.ident.ids) {
		return hal.Identity{}, hal.Errorf(hal.KindInvalidDevice, "device id %d is invalid, expected 0..%d", id, len(b.ident.ids)-1)
	}
	return b.ident.ids[id], nil
}

// LogicalCount is how many devices the driver sees (hal.Identifier).
func (b *Backend) LogicalCount() int { return b.ident.logicalCount }
