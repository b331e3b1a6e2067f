package gocann

import "github.com/gocann/gocann/hal"

// Direct returns the stream's queue as producers outside Go write it: the C
// ABI writes kernel launches into its hal.SQ without entering Go, as a host
// driver writes into a hardware queue. It is nil if the device has no such
// queues. Go programs have no use for it: Launch is the Go way in.
//
// CANN: none.
func (s *Stream) Direct() hal.Direct { return s.s.Direct() }

// HAL returns the device-level kernel, which hal.Direct.KernelID numbers;
// nil for a nil k.
//
// CANN: none.
func (k *Kernel) HAL() *hal.Kernel {
	if k == nil {
		return nil
	}
	return k.k
}
