package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// RawBuf is a Buf's raw dialect: its data area as a pointer and its user
// data copied from and to bare memory, as C code calls them.
type RawBuf struct{ b *Buf }

// Raw returns the buffer's raw dialect.
//
// CANN: none.
func (b *Buf) Raw() RawBuf { return RawBuf{b} }

// Data returns the data area as a pointer, as aclrtGetBufData hands it to
// C code, and its size.
//
// CANN: aclrtGetBufData (by pointer).
func (x RawBuf) Data() (unsafe.Pointer, uint64, error) {
	const op = "RawBuf.Data (aclrtGetBufData)"
	addr, size, err := x.b.b.Data()
	if err != nil {
		return nil, 0, wrap(op, err)
	}
	p, err := x.b.r.rt.DevicePointer(addr)
	return p, size, wrap(op, err)
}

// UserData copies size bytes of the user data area, from offset off, to
// dst. The range is checked before dst.
//
// CANN: aclrtGetBufUserData (by pointer).
func (x RawBuf) UserData(dst unsafe.Pointer, size, off uint64) error {
	const op = "RawBuf.UserData (aclrtGetBufUserData)"
	if err := rt.CheckMbufUserRange(size, off); err != nil {
		return wrap(op, err)
	}
	if dst == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "dataPtr is NULL, expected a valid pointer"))
	}
	return wrap(op, x.b.b.UserData(unsafe.Slice((*byte)(dst), size), off))
}

// SetUserData copies size bytes at src into the user data area at offset
// off. The range is checked before src.
//
// CANN: aclrtSetBufUserData (by pointer).
func (x RawBuf) SetUserData(src unsafe.Pointer, size, off uint64) error {
	const op = "RawBuf.SetUserData (aclrtSetBufUserData)"
	if err := rt.CheckMbufUserRange(size, off); err != nil {
		return wrap(op, err)
	}
	if src == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "dataPtr is NULL, expected a valid pointer"))
	}
	return wrap(op, x.b.b.SetUserData(unsafe.Slice((*byte)(src), size), off))
}
