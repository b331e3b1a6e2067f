package rt

import (
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Shared buffers (aclrtAllocBuf and the calls after it). A buffer is a
// header over a data area in device memory: the length of the valid data,
// a private user data area of MbufUserDataSize bytes, and, for the first
// buffer of a chain, the buffers appended to it. aclrtCopyBufRef makes a
// second header over the same data area; the area is counted and freed
// with its last header.

const (
	// MbufUserDataSize is the size of a buffer's user data area.
	MbufUserDataSize = 96
	// MbufMaxSize is the largest data area a buffer may have (4 GiB).
	MbufMaxSize = 4 << 30
	// MbufMaxChain is the most buffers a chain holds, its first included.
	MbufMaxChain = 128
)

// mbufTable serialises every change to buffers: their headers, chains and
// the counts of their data areas.
type mbufTable struct {
	mu sync.Mutex
}

// mbufData is a data area and the number of headers over it.
type mbufData struct {
	d    *Device
	hd   hal.Device // the device the area was allocated on; a reset ends it
	addr uint64
	size uint64
	refs int // guarded by the Runtime's mbufTable
}

// Mbuf is one buffer header.
type Mbuf struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	r *Runtime

	// The Runtime's mbufTable guards the fields below.
	data   *mbufData
	length uint64
	user   [MbufUserDataSize]byte
	head   *Mbuf   // the chain's first buffer if this one was appended to it
	chain  []*Mbuf // for a first buffer: the buffers appended, in order
	freed  bool
}

// AllocMbuf allocates a buffer whose data area of size bytes is device
// memory of c's device (aclrtAllocBuf).
func (c *Context) AllocMbuf(size uint64) (*Mbuf, error) {
	if size == 0 {
		return nil, rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	if size > MbufMaxSize {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected at most 4 GiB (%d)", size, uint64(MbufMaxSize))
	}
	a, err := c.lend(size)
	if err != nil {
		return nil, err
	}
	return &Mbuf{r: c.d.r, data: &mbufData{d: c.d, hd: c.hd, addr: a.Addr, size: size, refs: 1}}, nil
}

func (m *Mbuf) checkLocked() error {
	if m.freed {
		return rterr.Errorf(rterr.KindInvalidHandle, "buffer was freed")
	}
	return nil
}

// Data returns the address and size of the buffer's data area
// (aclrtGetBufData). A data area whose device was reset since is gone.
func (m *Mbuf) Data() (addr, size uint64, err error) {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkLocked(); err != nil {
		return 0, 0, err
	}
	if !m.data.live() {
		return 0, 0, rterr.Errorf(rterr.KindInvalidParam, "buf's data area at %#x went with device %d when it was reset", m.data.addr, m.data.d.id)
	}
	return m.data.addr, m.data.size, nil
}

// DataLen returns the length of the valid data (aclrtGetBufDataLen); 0
// until SetDataLen.
func (m *Mbuf) DataLen() (uint64, error) {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkLocked(); err != nil {
		return 0, err
	}
	return m.length, nil
}

// SetDataLen sets the length of the valid data (aclrtSetBufDataLen), at
// most the data area's size.
func (m *Mbuf) SetDataLen(n uint64) error {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkLocked(); err != nil {
		return err
	}
	if n > m.data.size {
		return rterr.Errorf(rterr.KindInvalidParam, "len %d is invalid, expected at most the data area's size %d", n, m.data.size)
	}
	m.length = n
	return nil
}

// CheckMbufUserRange refuses a user data range [off, off+n) past the area.
func CheckMbufUserRange(n, off uint64) error {
	if n > MbufUserDataSize || off > MbufUserDataSize-n {
		return rterr.Errorf(rterr.KindBadArgument, "size %d at offset %d is invalid, expected size + offset at most %d", n, off, MbufUserDataSize)
	}
	return nil
}

// UserData copies len(dst) bytes of the user data area from offset off
// into dst (aclrtGetBufUserData).
func (m *Mbuf) UserData(dst []byte, off uint64) error {
	return m.withUser(uint64(len(dst)), off, func(user []byte) { copy(dst, user) })
}

// SetUserData copies src into the user data area at offset off
// (aclrtSetBufUserData).
func (m *Mbuf) SetUserData(src []byte, off uint64) error {
	return m.withUser(uint64(len(src)), off, func(user []byte) { copy(user, src) })
}

// withUser checks the user data range [off, off+n) and calls f with it,
// the table locked.
func (m *Mbuf) withUser(n, off uint64, f func(user []byte)) error {
	if err := CheckMbufUserRange(n, off); err != nil {
		return err
	}
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkLocked(); err != nil {
		return err
	}
	f(m.user[off : off+n])
	return nil
}

// CopyRef returns a new header over m's data area (aclrtCopyBufRef), with
// m's data length and user data, in no chain.
func (m *Mbuf) CopyRef() (*Mbuf, error) {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkLocked(); err != nil {
		return nil, err
	}
	m.data.refs++
	return &Mbuf{r: m.r, data: m.data, length: m.length, user: m.user}, nil
}

// Append appends b to the chain m is the first buffer of
// (aclrtAppendBufChain). b must be a buffer in no chain.
func (m *Mbuf) Append(b *Mbuf) error {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkLocked(); err != nil {
		return err
	}
	if err := b.checkLocked(); err != nil {
		return rterr.Errorf(rterr.KindInvalidHandle, "buf was freed")
	}
	switch {
	case m.head != nil:
		return rterr.Errorf(rterr.KindInvalidParam, "headBuf is buffer %d of a chain, expected a chain's first buffer", m.head.indexLocked(m))
	case b == m:
		return rterr.Errorf(rterr.KindInvalidParam, "buf is headBuf itself, expected another buffer")
	case b.head != nil:
		return rterr.Errorf(rterr.KindInvalidParam, "buf is already buffer %d of a chain, expected a buffer in no chain", b.head.indexLocked(b))
	case len(b.chain) > 0:
		return rterr.Errorf(rterr.KindInvalidParam, "buf heads a chain of %d buffers, expected a buffer in no chain", len(b.chain)+1)
	case len(m.chain)+1 >= MbufMaxChain:
		return rterr.Errorf(rterr.KindInvalidParam, "the chain holds %d buffers, the most it may", MbufMaxChain)
	}
	m.chain = append(m.chain, b)
	b.head = m
	return nil
}

// indexLocked is the position of b in the chain m heads.
func (m *Mbuf) indexLocked(b *Mbuf) int {
	for i, x := range m.chain {
		if x == b {
			return i + 1
		}
	}
	return 0
}

// checkHeadLocked refuses a buffer that was appended to another's chain.
func (m *Mbuf) checkHeadLocked() error {
	if err := m.checkLocked(); err != nil {
		return err
	}
	if m.head != nil {
		return rterr.Errorf(rterr.KindInvalidParam, "headBuf is buffer %d of a chain, expected a chain's first buffer", m.head.indexLocked(m))
	}
	return nil
}

// ChainNum returns the number of buffers in the chain m heads, m included
// (aclrtGetBufChainNum).
func (m *Mbuf) ChainNum() (int, error) {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkHeadLocked(); err != nil {
		return 0, err
	}
	return len(m.chain) + 1, nil
}

// ChainAt returns buffer i of the chain m heads; 0 is m
// (aclrtGetBufFromChain).
func (m *Mbuf) ChainAt(i uint64) (*Mbuf, error) {
	t := &m.r.mbufs
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := m.checkHeadLocked(); err != nil {
		return nil, err
	}
	n := uint64(len(m.chain)) + 1
	switch {
	case i >= n:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "index %d is invalid, expected below the chain's %d buffers", i, n)
	case i == 0:
		return m, nil
	}
	return m.chain[i-1], nil
}

// Free frees the buffer and, if it heads a chain, every buffer appended to
// it (aclrtFreeBuf); a data area goes with its last header. It returns the
// buffers freed, m first. A buffer appended to a chain is freed with its
// first buffer only.
func (m *Mbuf) Free() ([]*Mbuf, error) {
	t := &m.r.mbufs
	t.mu.Lock()
	if err := m.checkHeadLocked(); err != nil {
		t.mu.Unlock()
		if m.head != nil {
			return nil, rterr.Errorf(rterr.KindInvalidParam, "buf is buffer %d of a chain, expected a buffer in no chain or a chain's first buffer (which frees the chain)", m.head.indexLocked(m))
		}
		return nil, err
	}
	freed := append([]*Mbuf{m}, m.chain...)
	var last []*mbufData
	for _, b := range freed {
		b.freed = true
		b.head, b.chain = nil, nil
		if b.data.refs--; b.data.refs == 0 {
			last = append(last, b.data)
		}
	}
	t.mu.Unlock()
	for _, d := range last {
		d.release()
	}
	return freed, nil
}

// live reports whether the data area's device is still the one it was
// allocated on.
func (d *mbufData) live() bool {
	hd, err := d.d.halDevice()
	return err == nil && hd == d.hd
}

// release frees the data area unless its device went first, taking it.
func (d *mbufData) release() {
	if d.live() {
		_ = d.hd.Free(d.addr, uint8(useLent)) // fails only if a reset took it meanwhile
	}
}
