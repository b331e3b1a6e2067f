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

// devMem is one device's memory: a sparse shared-memory file mapped over an
// address range reserved for it. Device addresses are the host virtual
// addresses of the mapping, so a device pointer is never also a Go heap
// pointer, kernels reach memory without translation, and another process
// can map the same file. The range outlives the mapping: close leaves it
// reserved and inaccessible, and open maps a fresh file at the same
// addresses, so stale pointers never meet other memory there.
type devMem struct {
	dev   int
	hbm   uint64
	start unsafe.Pointer      // the reserved range's first byte
	base  uint64              // device address of the first byte, fixed for the reservation
	open  atomic.Bool         // mapped; read without the lock by contains
	vm    atomic.Pointer[vmm] // the virtual memory of the backend using it, for kernels

	// mu guards the allocator and the mapping; lookups and pointer take it
	// shared so copies and kernels do not serialise on it.
	mu    sync.RWMutex
	fd    int
	mem   []byte // the mapping, hbm bytes; nil while closed
	alloc *allocator
	gone  bool // the reservation was released
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

// newDevMem reserves an address range for device dev's hbm bytes and maps
// fresh memory there.
func newDevMem(dev int, hbm uint64) (*devMem, error) {
	if hbm == 0 || hbm > maxHBM {
		return nil, hal.Errorf(hal.KindInvalidParam, "device %d memory size %d is invalid, expected 1 to %d bytes", dev, hbm, uint64(maxHBM))
	}
	base, err := reserve(reservedLength(hbm), mapAlign(hbm))
	if err != nil {
		return nil, hal.Wrap(errKind(err), err, "device %d: reserving %d bytes of address space", dev, hbm)
	}
	m := &devMem{dev: dev, hbm: hbm, start: base, base: uint64(uintptr(base)), fd: -1}
	if err := m.reopen(); err != nil {
		_ = unix.MunmapPtr(base, uintptr(reservedLength(hbm)))
		return nil, err
	}
	return m, nil
}

func mapLength(hbm uint64) uint64 {
	n, _ := roundUp(hbm, hal.PageSizeNormal)
	return n
}

// maxGuard bounds the guard after a device's range.
const maxGuard = 1 << 40

// guardLength is the inaccessible address space kept after a device's
// range, as large as the range up to maxGuard: a kernel indexing past the
// end of device memory faults there, with an address the fault report can
// place, instead of reaching whatever the process mapped next (another
// device's memory, say). It costs address space only.
func guardLength(hbm uint64) uint64 { return min(mapLength(hbm), maxGuard) }

// reservedLength is the range reserved for a device: its memory and its
// guard.
func reservedLength(hbm uint64) uint64 { return mapLength(hbm) + guardLength(hbm) }

func errKind(err error) hal.Kind {
	if errors.Is(err, unix.ENOMEM) {
		return hal.KindOutOfMemory
	}
	return hal.KindInternal
}

// reserve takes length bytes of inaccessible address space aligned to
// align: it maps align bytes of slack and returns the slack.
func reserve(length, align uint64) (unsafe.Pointer, error) {
	resv, err := unix.MmapPtr(-1, 0, nil, uintptr(length+align), unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, err
	}
	head := uintptr((align - uint64(uintptr(resv))%align) % align)
	p := unsafe.Add(resv, head)
	// Unmapping slack we just mapped cannot fail in a way worth reporting.
	if head > 0 {
		_ = unix.MunmapPtr(resv, head)
	}
	if tail := uintptr(align) - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(p, length), tail)
	}
	return p, nil
}

// reopen maps a fresh, sparse memory file over the closed range: it reads
// as zero and costs nothing until touched.
func (m *devMem) reopen() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.gone:
		return hal.Errorf(hal.KindInternal, "device %d memory was released", m.dev)
	case m.mem != nil:
		return nil
	}
	fd, err := unix.MemfdCreate(fmt.Sprintf("gocann-dev%d", m.dev), unix.MFD_CLOEXEC)
	if err != nil {
		return hal.Wrap(hal.KindInternal, err, "device %d: creating its memory file", m.dev)
	}
	if err := unix.Ftruncate(fd, int64(m.hbm)); err != nil {
		_ = unix.Close(fd)
		return hal.Wrap(hal.KindInternal, err, "device %d: sizing its memory file to %d bytes", m.dev, m.hbm)
	}
	p := m.start
	if _, err := unix.MmapPtr(fd, 0, p, uintptr(mapLength(m.hbm)), unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_SHARED|unix.MAP_NORESERVE|unix.MAP_FIXED); err != nil {
		_ = unix.Close(fd)
		return hal.Wrap(errKind(err), err, "device %d: mapping %d bytes of memory", m.dev, m.hbm)
	}
	m.fd, m.mem = fd, unsafe.Slice((*byte)(p), m.hbm)
	m.alloc = newAllocator(m.base, m.hbm, min(m.hbm/8, 4<<30))
	m.alloc.release = m.punch
	m.open.Store(true)
	return nil
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
	m.alloc.setTag(addr, p.Tag)
	if sp, ok := m.alloc.lookup(addr); ok {
		m.alloc.account(p.Tag, sp.reserved, true)
	}
	if page > hal.PageSizeNormal {
		// Huge pages are honoured as far as the OS allows; the page size
		// is reported and used for alignment either way.
		reserved, _ := reservedSize(size, page)
		off := addr - m.base
		m.alloc.stats.SysCalls++
		_ = unix.Madvise(m.mem[off:off+reserved], unix.MADV_HUGEPAGE)
	}
	return hal.Allocation{Device: m.dev, Addr: addr, Size: size, PageSize: page, Tag: p.Tag}, nil
}

func (m *devMem) free(addr uint64, tag uint8) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem == nil {
		return m.errClosed()
	}
	s, ok := m.alloc.lookup(addr)
	if ok && s.start == addr && s.tag() != tag {
		return hal.Errorf(hal.KindInvalidAddress, "the allocation at %#x carries tag %d, not %d", addr, s.tag(), tag)
	}
	if err := m.alloc.free(addr); err != nil {
		return err
	}
	m.alloc.account(s.tag(), s.reserved, false)
	return nil
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
	return hal.Allocation{Device: m.dev, Addr: s.start, Size: s.size, PageSize: s.page(), Tag: s.tag()}, true
}

// pointer returns a host pointer to n bytes at addr, which must lie inside
// one live allocation. The pointer stays valid until the memory is closed.
func (m *devMem) pointer(addr, n uint64) (unsafe.Pointer, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if _, err := m.holding(addr, n); err != nil {
		return nil, err
	}
	return unsafe.Pointer(&m.mem[addr-m.base]), nil
}

// span is pointer for the allocation holding [addr, addr+n): where the
// allocation starts in host memory and its bounds.
func (m *devMem) span(addr, n uint64) (base unsafe.Pointer, lo, hi uint64, err error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, err := m.holding(addr, n)
	if err != nil {
		return nil, 0, 0, err
	}
	return unsafe.Pointer(&m.mem[s.start-m.base]), s.start, s.start + s.size, nil
}

// holding returns the live allocation holding [addr, addr+n). m.mu must
// be held.
func (m *devMem) holding(addr, n uint64) (span, error) {
	if m.mem == nil {
		return span{}, m.errClosed()
	}
	s, ok := m.alloc.lookup(addr)
	if !ok {
		if addr-m.base >= m.hbm {
			return span{}, hal.Errorf(hal.KindInvalidAddress,
				"device address %#x (%d bytes) is not on device %d, expected an address in [%#x, %#x)",
				addr, n, m.dev, m.base, m.base+m.hbm)
		}
		return span{}, hal.Errorf(hal.KindInvalidAddress,
			"device address %#x (%d bytes): no live allocation on device %d", addr, n, m.dev)
	}
	if n > s.size-(addr-s.start) {
		return span{}, hal.Errorf(hal.KindInvalidAddress,
			"device address %#x (%d bytes) runs past its allocation [%#x, %#x), expected at most %d bytes",
			addr, n, s.start, s.start+s.size, s.size-(addr-s.start))
	}
	return s, nil
}

// info reports free and total device memory; cached blocks count as free.
func (m *devMem) info() (free, total uint64) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.alloc == nil {
		return 0, m.hbm
	}
	if b := m.alloc.budget; b != nil {
		return m.hbm - min(b.Used(), m.hbm), m.hbm
	}
	return m.hbm - m.alloc.used(), m.hbm
}

// contains reports whether addr is in this device's open memory at all.
func (m *devMem) contains(addr uint64) bool {
	return m.open.Load() && m.inRange(addr)
}

// inRange reports whether addr is in the reserved range, open or not.
func (m *devMem) inRange(addr uint64) bool { return addr-m.base < m.hbm }

// inGuard reports whether addr is in the guard after the range.
func (m *devMem) inGuard(addr uint64) bool {
	return addr-(m.base+mapLength(m.hbm)) < guardLength(m.hbm)
}

// below returns the live allocation starting nearest at or below addr.
func (m *devMem) below(addr uint64) (hal.Allocation, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.alloc == nil {
		return hal.Allocation{}, false
	}
	i, found := m.alloc.find(addr)
	if !found {
		if i == 0 {
			return hal.Allocation{}, false
		}
		i--
	}
	s := m.alloc.live[i]
	return hal.Allocation{Device: m.dev, Addr: s.start, Size: s.size, PageSize: s.page(), Tag: s.tag()}, true
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

// close drops the memory and closes its file, leaving the range reserved
// and inaccessible. Pointers handed out before are invalid afterwards.
func (m *devMem) close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem == nil {
		return nil
	}
	m.open.Store(false)
	// Mapping over the file replaces it in one step: the range is never
	// free for another mapping to take.
	_, err := unix.MmapPtr(-1, 0, m.start, uintptr(mapLength(m.hbm)), unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED)
	if err != nil {
		// The file stays mapped: memory is lost, the range is not.
		return hal.Wrap(hal.KindInternal, err, "device %d: releasing its memory", m.dev)
	}
	m.alloc.giveBudget(m.alloc.used())
	m.mem, m.alloc = nil, nil
	cerr := unix.Close(m.fd)
	m.fd = -1
	if cerr != nil {
		return hal.Wrap(hal.KindInternal, cerr, "device %d: closing its memory file", m.dev)
	}
	return nil
}

// release gives the range back to the process, once nothing can hold a
// pointer into it that a later mapping there would turn into other memory.
// Memory still mapped (a task never returned) stays, and leaks.
func (m *devMem) release() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem != nil || m.gone {
		return nil
	}
	m.gone = true
	if err := unix.MunmapPtr(m.start, uintptr(reservedLength(m.hbm))); err != nil {
		return hal.Wrap(hal.KindInternal, err, "device %d: releasing its address range", m.dev)
	}
	return nil
}

// mapped reports whether the memory is mapped: open, or left open by a
// close that could not finish.
func (m *devMem) mapped() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mem != nil
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
// through kernel.Memory; they see mapped virtual memory through it too.
func (m *devMem) Pointer(addr, n uint64) (unsafe.Pointer, error) {
	if v := m.vm.Load(); v != nil && !m.inRange(addr) && v.inWindow(addr) {
		return v.pointer(addr, n)
	}
	return m.pointer(addr, n)
}
