package gocann

import (
	"sync"

	"github.com/gocann/gocann/internal/rterr"
)

// DataBuffer describes memory by its address and size, as model and
// operator calls take their inputs and outputs. It is a host-side
// descriptor: it owns nothing, checks nothing about the memory and needs
// no runtime; the memory is the caller's to allocate and free. A nil
// address with size 0 is an empty buffer.
type DataBuffer struct {
	// mu guards the fields below.
	mu   sync.Mutex
	addr uintptr
	size uint64
}

func checkDataBuffer(op string, addr uintptr, size uint64) error {
	if addr == 0 && size != 0 {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "data is NULL with size %d, expected size 0 for an empty buffer", size))
	}
	return nil
}

// NewDataBuffer returns a descriptor of size bytes at addr (host or device
// memory); addr 0 needs size 0.
//
// CANN: aclCreateDataBuffer.
func NewDataBuffer(addr uintptr, size uint64) (*DataBuffer, error) {
	if err := checkDataBuffer("NewDataBuffer (aclCreateDataBuffer)", addr, size); err != nil {
		return nil, err
	}
	return &DataBuffer{addr: addr, size: size}, nil
}

// Addr returns the address described.
//
// CANN: aclGetDataBufferAddr.
func (d *DataBuffer) Addr() uintptr {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.addr
}

// Size returns the size described, in bytes.
//
// CANN: aclGetDataBufferSizeV2.
func (d *DataBuffer) Size() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.size
}

// Size32 returns the size described cut to 32 bits, as the deprecated
// call returns it (a size of 4 GiB or more comes back modulo 2^32).
//
// CANN: aclGetDataBufferSize.
func (d *DataBuffer) Size32() uint32 { return uint32(d.Size()) }

// Update makes the descriptor describe size bytes at addr instead; the
// memory described before is still the caller's to free. addr 0 needs
// size 0.
//
// CANN: aclUpdateDataBuffer.
func (d *DataBuffer) Update(addr uintptr, size uint64) error {
	if err := checkDataBuffer("DataBuffer.Update (aclUpdateDataBuffer)", addr, size); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.addr, d.size = addr, size
	return nil
}
