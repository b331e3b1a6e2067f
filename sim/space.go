package sim

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
)

// AddressSpace keeps the address ranges of simulated devices' memory
// reserved across backends. A backend given one (Config.Space) takes each
// device's range from it, the same range for the same device id and size
// as an earlier backend had, and gives the ranges back, reserved and
// inaccessible, when it closes. A pointer into device memory kept from an
// earlier backend then still lies in a device's range, known as such by
// every later backend, and never in other memory the process mapped since.
//
// A program that opens backends one after another (aclInit, aclFinalize,
// aclInit) keeps one AddressSpace for all of them, and closes it once no
// pointer it handed out can be used again. One space serves one backend at
// a time; a second open at once reserves ranges of its own.
type AddressSpace struct {
	sqs sqArena // the queues' submission areas, which C producers may hold
	// physIDs numbers physical allocations (hal.VMM) across the space's
	// backends, so a handle from before a re-initialization is never a
	// new allocation's.
	physIDs atomic.Uint64
	vmGone  vmRetired // released virtual memory, kept inaccessible

	// mu guards the fields below.
	mu     sync.Mutex
	mems   []*devMem            // every range reserved, in order
	held   map[*devMem]*Backend // ranges a backend is using
	closed bool
}

// NewAddressSpace returns an empty address space; it reserves nothing until
// a backend opens a device.
func NewAddressSpace() *AddressSpace {
	s := &AddressSpace{held: make(map[*devMem]*Backend)}
	s.sqs.pinUntilGarbage(s)
	return s
}

// acquire returns device dev's memory of hbm bytes for b, mapped fresh: a
// range dev had before that nothing holds, or a new one.
func (s *AddressSpace) acquire(b *Backend, dev int, hbm uint64) (*devMem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, hal.Errorf(hal.KindInvalidDevice, "device %d: the address space of its memory was closed", dev)
	}
	for _, m := range s.mems {
		if m.dev != dev || m.hbm != hbm || s.held[m] != nil || m.mapped() {
			continue
		}
		if err := m.reopen(); err != nil {
			return nil, err
		}
		s.held[m] = b
		return m, nil
	}
	m, err := newDevMem(dev, hbm)
	if err != nil {
		return nil, err
	}
	s.mems = append(s.mems, m)
	s.held[m] = b
	return m, nil
}

// put takes back the ranges b held. Memory still mapped (a device whose
// close could not finish) is never reused; its range stays reserved. Once
// the space is closed, ranges come back only to be released.
func (s *AddressSpace) put(b *Backend, ms []*devMem) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, m := range ms {
		if m == nil || s.held[m] != b {
			continue
		}
		delete(s.held, m)
		if s.closed {
			errs = append(errs, s.release(m))
		}
	}
	return errors.Join(errs...)
}

// ranges returns every range reserved, for a backend's span set.
func (s *AddressSpace) ranges() []*devMem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.mems)
}

// Close gives back to the process the ranges no backend holds; ranges a
// backend holds go when it closes. Pointers into them must not be used
// afterwards: other memory may come to lie there. Closing twice is a no-op.
func (s *AddressSpace) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.sqs.close()
	s.vmGone.close()
	var errs []error
	for _, m := range slices.Clone(s.mems) {
		if s.held[m] == nil {
			errs = append(errs, s.release(m))
		}
	}
	return errors.Join(errs...)
}

// release unmaps m's range, unless it is still mapped, and forgets it.
// s.mu must be held.
func (s *AddressSpace) release(m *devMem) error {
	if m.mapped() {
		return nil // leaks, as the memory a task may still use
	}
	s.mems = slices.DeleteFunc(s.mems, func(x *devMem) bool { return x == m })
	return m.release()
}
