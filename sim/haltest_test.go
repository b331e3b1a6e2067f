package sim

import (
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/hal/haltest"
)

func openConformance(p hal.Props) func(t *testing.T) hal.Backend {
	return func(t *testing.T) hal.Backend {
		b, err := New(Config{Devices: 2, Profile: p})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// TestConformance runs the hal conformance suite on the default chip with
// a small HBM.
func TestConformance(t *testing.T) {
	haltest.Run(t, openConformance(hal.Props{HBMSize: 1 << 30}))
}

// TestConformanceSmallChip runs it on a chip with few cores, streams, queue
// slots, events and notifies, so every limit is reached.
func TestConformanceSmallChip(t *testing.T) {
	haltest.Run(t, openConformance(hal.Props{HBMSize: 1 << 30, AICores: 2, StreamLimit: 16, QueueDepth: 8,
		EventLimit: 64, NotifyLimit: 64, GreatestPriority: 0, LeastPriority: 3}))
}
