package gocann

import "github.com/gocann/gocann/internal/rt"

// Buf is a shared buffer: a data area in device memory, the length of the
// valid data in it, a user data area of BufUserDataSize bytes for control
// information, and, for the first buffer of a chain, the buffers appended
// to it. CopyRef gives another Buf over the same data area, which lives
// until the last Buf over it is freed.
type Buf struct {
	r *Runtime
	b *rt.Mbuf
}

const (
	// BufUserDataSize is the size of a buffer's user data area.
	BufUserDataSize = rt.MbufUserDataSize
	// BufMaxSize is the largest data area a buffer may have, 4 GiB.
	BufMaxSize = rt.MbufMaxSize
	// BufMaxChain is the most buffers a chain holds, its first included.
	BufMaxChain = rt.MbufMaxChain
)

// buf returns the one *Buf for b.
func (r *Runtime) buf(b *rt.Mbuf) *Buf {
	if f, ok := b.Front.Load().(*Buf); ok {
		return f
	}
	b.Front.CompareAndSwap(nil, &Buf{r: r, b: b})
	return b.Front.Load().(*Buf)
}

// AllocBuf allocates a shared buffer whose data area, size bytes (1 to
// 4 GiB) of the context's device memory, holds no valid data yet.
//
// CANN: aclrtAllocBuf.
func (c *Context) AllocBuf(size uint64) (*Buf, error) {
	b, err := c.c.AllocMbuf(size)
	if err != nil {
		return nil, wrap("Context.AllocBuf (aclrtAllocBuf)", err)
	}
	return c.r.buf(b), nil
}

// Free frees the buffer and, if it heads a chain, every buffer of the
// chain. A data area is freed with the last buffer over it. A buffer
// appended to a chain is refused: it goes with the chain's first buffer.
//
// CANN: aclrtFreeBuf.
func (b *Buf) Free() error {
	_, err := b.b.Free()
	return wrap("Buf.Free (aclrtFreeBuf)", err)
}

// FreeChain is Free, returning the buffers it freed, b first.
//
// CANN: aclrtFreeBuf (with the buffers freed).
func (b *Buf) FreeChain() ([]*Buf, error) {
	freed, err := b.b.Free()
	if err != nil {
		return nil, wrap("Buf.FreeChain (aclrtFreeBuf)", err)
	}
	out := make([]*Buf, len(freed))
	for i, f := range freed {
		out[i] = b.r.buf(f)
	}
	return out, nil
}

// Data returns the device address and size of the data area.
//
// CANN: aclrtGetBufData.
func (b *Buf) Data() (DevPtr, uint64, error) {
	addr, size, err := b.b.Data()
	return DevPtr(addr), size, wrap("Buf.Data (aclrtGetBufData)", err)
}

// DataLen returns the length of the valid data, 0 until SetDataLen.
//
// CANN: aclrtGetBufDataLen.
func (b *Buf) DataLen() (uint64, error) {
	n, err := b.b.DataLen()
	return n, wrap("Buf.DataLen (aclrtGetBufDataLen)", err)
}

// SetDataLen sets the length of the valid data, at most the data area's
// size.
//
// CANN: aclrtSetBufDataLen.
func (b *Buf) SetDataLen(n uint64) error {
	return wrap("Buf.SetDataLen (aclrtSetBufDataLen)", b.b.SetDataLen(n))
}

// UserData copies len(dst) bytes of the user data area, from offset off,
// into dst; off + len(dst) is at most BufUserDataSize.
//
// CANN: aclrtGetBufUserData.
func (b *Buf) UserData(dst []byte, off uint64) error {
	return wrap("Buf.UserData (aclrtGetBufUserData)", b.b.UserData(dst, off))
}

// SetUserData copies src into the user data area at offset off;
// off + len(src) is at most BufUserDataSize.
//
// CANN: aclrtSetBufUserData.
func (b *Buf) SetUserData(src []byte, off uint64) error {
	return wrap("Buf.SetUserData (aclrtSetBufUserData)", b.b.SetUserData(src, off))
}

// CopyRef returns a new buffer over the same data area, with b's data
// length and a copy of its user data, in no chain. The data area lives
// until both are freed.
//
// CANN: aclrtCopyBufRef.
func (b *Buf) CopyRef() (*Buf, error) {
	n, err := b.b.CopyRef()
	if err != nil {
		return nil, wrap("Buf.CopyRef (aclrtCopyBufRef)", err)
	}
	return b.r.buf(n), nil
}

// Append appends other, a buffer in no chain, to the chain b is the first
// buffer of; a chain holds at most BufMaxChain buffers.
//
// CANN: aclrtAppendBufChain.
func (b *Buf) Append(other *Buf) error {
	return wrap("Buf.Append (aclrtAppendBufChain)", b.b.Append(other.b))
}

// ChainNum returns the number of buffers in the chain b is the first
// buffer of, b included (1 for a buffer nothing was appended to).
//
// CANN: aclrtGetBufChainNum.
func (b *Buf) ChainNum() (int, error) {
	n, err := b.b.ChainNum()
	return n, wrap("Buf.ChainNum (aclrtGetBufChainNum)", err)
}

// ChainAt returns buffer i of the chain b is the first buffer of; 0 is b.
//
// CANN: aclrtGetBufFromChain.
func (b *Buf) ChainAt(i uint32) (*Buf, error) {
	m, err := b.b.ChainAt(uint64(i))
	if err != nil {
		return nil, wrap("Buf.ChainAt (aclrtGetBufFromChain)", err)
	}
	return b.r.buf(m), nil
}
