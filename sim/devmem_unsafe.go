package sim

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// devMem is one device's memory: a sparse shared-memory file mapped once.
// Device addresses are the host virtual addresses of the mapping, so a
// device pointer is never also a Go heap pointer, kernels reach memory
// without translation, and another process can map the same file.
type devMem struct {
	dev  int
	hbm  uint64
	fd   int
	base uint64      // device address of the first byte
	open atomic.Bool // mapped; read without the lock by contains

	// mu guards the allocator and the mapping; lookups and pointer take it
	// shared so copies and kernels do not serialise on it.
	mu    sync.RWMutex
	mem   []byte // the mapping, hbm bytes; nil once closed
	alloc *allocator
}

// mapAlign aligns the mapping so that 1 GiB (and 2 MiB) pages can be
// placed from its first byte instead of wasting up to a page of the range.
func mapAlign(hbm uint64) uint64 {
	if hbm >= hal.PageSizeHuge1G {
		return hal.PageSizeHuge1G
	}
	return hal.PageSizeHuge
}

// maxHBM keeps a device's mapping well inside the 128 TiB of user address
// space that 4-level page tables give a process.
const maxHBM = 1 << 46

func newDevMem(dev int, hbm uint64) (*devMem, error) {
	if hbm == 0 || hbm > maxHBM {
		return nil, hal.Errorf(hal.KindInvalidParam, "device %d memory size %d is invalid, expected 1 to %d bytes", dev, hbm, uint64(maxHBM))
	}
	fd, err := unix.MemfdCreate(fmt.Sprintf("gocann-dev%d", dev), unix.MFD_CLOEXEC)
	if err != nil {
		return nil, hal.Wrap(hal.KindInternal, err, "device %d: creating its memory file", dev)
	}
	// ftruncate makes the file sparse: pages cost nothing until touched.
	if err := unix.Ftruncate(fd, int64(hbm)); err != nil {
		_ = unix.Close(fd)
		return nil, hal.Wrap(hal.KindInternal, err, "device %d: sizing its memory file to %d bytes", dev, hbm)
	}
	mem, err := mapAligned(fd, hbm, mapAlign(hbm))
	if err != nil {
		_ = unix.Close(fd)
		k := hal.KindInternal
		if errors.Is(err, unix.ENOMEM) {
			k = hal.KindOutOfMemory
		}
		return nil, hal.Wrap(k, err, "device %d: mapping %d bytes of memory", dev, hbm)
	}
	m := &devMem{dev: dev, hbm: hbm, fd: fd, mem: mem}
	m.open.Store(true)
	m.base = uint64(uintptr(unsafe.Pointer(&mem[0])))
	m.alloc = newAllocator(m.base, hbm, min(hbm/8, 4<<30))
	m.alloc.release = m.punch
	return m, nil
}

// mapAligned maps the first size bytes of the file at an address aligned to
// align: it reserves align bytes of slack with an inaccessible mapping, maps
// the file over the aligned part and returns the slack.
func mapAligned(fd int, size, align uint64) ([]byte, error) {
	length, _ := roundUp(size, hal.PageSizeNormal)
	resv, err := unix.MmapPtr(-1, 0, nil, uintptr(length+align), unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, err
	}
	head := uintptr((align - uint64(uintptr(resv))%align) % align)
	p := unsafe.Add(resv, head)
	if _, err := unix.MmapPtr(fd, 0, p, uintptr(length), unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_SHARED|unix.MAP_NORESERVE|unix.MAP_FIXED); err != nil {
		_ = unix.MunmapPtr(resv, uintptr(length+align))
		return nil, err
	}
	// Unmapping slack we just mapped cannot fail in a way worth reporting.
	if head > 0 {
		_ = unix.MunmapPtr(resv, head)
	}
	if tail := uintptr(align) - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(p, length), tail)
	}
	return unsafe.Slice((*byte)(p), size), nil
}

// punch gives freed pages back to the OS; they read as zero afterwards. It
// is the allocator's release hook and runs with mu held.
func (m *devMem) punch(addr, n uint64) {
	// Failure only means the pages stay resident; nothing is wrong.
	_ = unix.Fallocate(m.fd, unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, int64(addr-m.base), int64(n))
}

// pageSize is the page size policy p implies for size bytes.
func pageSize(size uint64, p hal.PagePolicy) (uint64, error) {
	switch p {
	case hal.PageHugeFirst:
		if size > 1<<20 {
			return hal.PageSizeHuge, nil
		}
		return hal.PageSizeNormal, nil
	case hal.PageHugeOnly:
		return hal.PageSizeHuge, nil
	case hal.PageNormalOnly:
		return hal.PageSizeNormal, nil
	case hal.PageHuge1GOnly:
		return hal.PageSizeHuge1G, nil
	}
	return 0, hal.Errorf(hal.KindInvalidParam, "page policy %d is invalid, expected %d to %d", p, hal.PageHugeFirst, hal.PageHuge1GOnly)
}

func (m *devMem) errClosed() error {
	return hal.Errorf(hal.KindInternal, "device %d memory used after close", m.dev)
}

func (m *devMem) malloc(size uint64, p hal.MemPolicy) (hal.Allocation, error) {
	page, err := pageSize(size, p.Page)
	if err != nil {
		return hal.Allocation{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem == nil {
		return hal.Allocation{}, m.errClosed()
	}
	addr, err := m.alloc.alloc(size, page)
	if err != nil {
		return hal.Allocation{}, err
	}
	if page > hal.PageSizeNormal {
		// Huge pages are honoured as far as the OS allows; the page size
		// is reported and used for alignment either way.
		reserved, _ := reservedSize(size, page)
		off := addr - m.base
		_ = unix.Madvise(m.mem[off:off+reserved], unix.MADV_HUGEPAGE)
	}
	return hal.Allocation{Device: m.dev, Addr: addr, Size: size, PageSize: page}, nil
}

func (m *devMem) free(addr uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem == nil {
		return m.errClosed()
	}
	return m.alloc.free(addr)
}

func (m *devMem) lookup(addr uint64) (hal.Allocation, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.mem == nil {
		return hal.Allocation{}, false
	}
	s, ok := m.alloc.lookup(addr)
	if !ok {
		return hal.Allocation{}, false
	}
	return hal.Allocation{Device: m.dev, Addr: s.start, Size: s.size, PageSize: s.page}, true
}

// pointer returns a host pointer to n bytes at addr, which must lie inside
// one live allocation. The pointer stays valid until the memory is closed.
func (m *devMem) pointer(addr, n uint64) (unsafe.Pointer, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.mem == nil {
		return nil, m.errClosed()
	}
	s, ok := m.alloc.lookup(addr)
	if !ok {
		if addr-m.base >= m.hbm {
			return nil, hal.Errorf(hal.KindInvalidAddress,
				"device address %#x (%d bytes) is not on device %d, expected an address in [%#x, %#x)",
				addr, n, m.dev, m.base, m.base+m.hbm)
		}
		return nil, hal.Errorf(hal.KindInvalidAddress,
			"device address %#x (%d bytes): no live allocation on device %d", addr, n, m.dev)
	}
	if n > s.size-(addr-s.start) {
		return nil, hal.Errorf(hal.KindInvalidAddress,
			"device address %#x (%d bytes) runs past its allocation [%#x, %#x), expected at most %d bytes",
			addr, n, s.start, s.start+s.size, s.size-(addr-s.start))
	}
	return unsafe.Pointer(&m.mem[addr-m.base]), nil
}

// info reports free and total device memory; cached blocks count as free.
func (m *devMem) info() (free, total uint64) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.hbm - m.alloc.used(), m.hbm
}

// contains reports whether addr is in this device's address range at all.
func (m *devMem) contains(addr uint64) bool {
	return m.open.Load() && addr-m.base < m.hbm
}

// share returns a path another process can open to map the memory at addr,
// which must be in a live allocation, and addr's offset in that file.
func (m *devMem) share(addr uint64) (path string, off int64, err error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.mem == nil {
		return "", 0, m.errClosed()
	}
	if _, ok := m.alloc.lookup(addr); !ok {
		return "", 0, hal.Errorf(hal.KindInvalidAddress,
			"device address %#x is not in a live allocation on device %d, expected one to share", addr, m.dev)
	}
	return fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), m.fd), int64(addr - m.base), nil
}

// close unmaps the memory and closes its file. Pointers handed out before
// are invalid afterwards.
func (m *devMem) close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem == nil {
		return nil
	}
	m.open.Store(false)
	err := unix.MunmapPtr(unsafe.Pointer(&m.mem[0]), uintptr(len(m.mem)))
	m.mem = nil
	if cerr := unix.Close(m.fd); err == nil {
		err = cerr
	}
	if err != nil {
		return hal.Wrap(hal.KindInternal, err, "device %d: releasing its memory", m.dev)
	}
	return nil
}

// bytes is pointer as a slice, for host-side copies.
func (m *devMem) bytes(addr, n uint64) ([]byte, error) {
	p, err := m.pointer(addr, n)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

// Pointer is pointer, exported so running kernel blocks see device memory
// through hal.Memory.
func (m *devMem) Pointer(addr, n uint64) (unsafe.Pointer, error) { return m.pointer(addr, n) }
