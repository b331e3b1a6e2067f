package shared

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Dir is where machines' files live unless Attach is given another.
const Dir = "/dev/shm"

// lockBase is where the slots' liveness bytes start: past any table, so
// the locks never cover bytes anybody reads.
const lockBase = 1 << 40

// LivenessPeriod bounds how long a wait on another process's object goes
// without checking that the process is alive.
const LivenessPeriod = 100 * time.Millisecond

var validName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// Machine is one backend's attachment to a shared machine. Its methods are
// safe for concurrent use.
type Machine struct {
	path string
	f    *os.File
	mem  []byte
	t    *table
	slot int
	gen  uint64 // the slot's state while attached
	pid  int32

	gone atomic.Bool // detaching: waits end

	mu     sync.Mutex // guards the fields below
	closed bool
	notify map[uint32]func() // exported notifies by entry index: deliver one record
	watch  bool              // the doorbell watcher runs
	wg     sync.WaitGroup
}

// Path is the file of machine name for the current user in dir.
func Path(dir, name string) string {
	return filepath.Join(dir, fmt.Sprintf("gocann-%d-%s-v%d", os.Getuid(), name, layoutVersion))
}

// CheckName checks a machine name: 1 to 64 letters, digits, '.', '_' or '-'.
func CheckName(name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("machine name %q is invalid, expected 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	return nil
}

// Attach joins machine name, creating its file in dir ("" for Dir) if no
// process has it, and reclaims what crashed processes left there.
func Attach(dir, name string) (*Machine, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if dir == "" {
		dir = Dir
	}
	path := Path(dir, name)
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	m, err := attachLocked(path, f)
	// Unlocking cannot fail on an open file in a way worth reporting.
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
	if err != nil {
		f.Close()
		return nil, err
	}
	return m, nil
}

// openLocked opens and flocks the file at path, making it if needed,
// until the file it locked is still the one at the path.
func openLocked(path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return nil, fmt.Errorf("opening the machine file %s: %w", path, err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
			f.Close()
			return nil, fmt.Errorf("locking the machine file %s: %w", path, err)
		}
		var have, want unix.Stat_t
		if err := unix.Fstat(int(f.Fd()), &have); err != nil {
			f.Close()
			return nil, fmt.Errorf("reading the machine file %s: %w", path, err)
		}
		if err := unix.Stat(path, &want); err == nil && want.Ino == have.Ino && want.Dev == have.Dev {
			if have.Uid != uint32(os.Getuid()) || have.Mode&0o077 != 0 {
				f.Close()
				return nil, fmt.Errorf("the machine file %s is not private to user %d (owner %d, mode %#o)", path, os.Getuid(), have.Uid, have.Mode&0o777)
			}
			return f, nil
		}
		f.Close() // removed by the last process as we opened it: try again
	}
}

// attachLocked maps the file and takes a slot; the file is flocked.
func attachLocked(path string, f *os.File) (*Machine, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := (tableSize + os.Getpagesize() - 1) &^ (os.Getpagesize() - 1)
	fresh := fi.Size() == 0
	switch {
	case fresh:
		if err := f.Truncate(int64(size)); err != nil {
			return nil, fmt.Errorf("sizing the machine file %s: %w", path, err)
		}
	case fi.Size() != int64(size):
		return nil, fmt.Errorf("the machine file %s has %d bytes, expected %d: another gocann build uses it", path, fi.Size(), size)
	}
	mem, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mapping the machine file %s: %w", path, err)
	}
	t := tableAt(mem)
	if fresh {
		t.version, t.size, t.magic = layoutVersion, uint64(tableSize), magic
	}
	if t.magic != magic || t.version != layoutVersion || t.size != uint64(tableSize) {
		_ = unix.Munmap(mem)
		return nil, fmt.Errorf("the machine file %s has another layout: another gocann build uses it", path)
	}
	m := &Machine{path: path, f: f, mem: mem, t: t, slot: -1, pid: int32(os.Getpid()), notify: map[uint32]func(){}}
	for i := range MaxSlots {
		if m.lockSlot(i) {
			m.slot = i
			break
		}
	}
	if m.slot < 0 {
		_ = unix.Munmap(mem)
		return nil, fmt.Errorf("machine file %s: all %d process slots are in use", path, MaxSlots)
	}
	s := &t.slots[m.slot]
	if st := s.state.Load(); st&1 == 1 {
		m.clearSlot(m.slot, st) // a crashed process's slot
	}
	m.reclaimLocked()
	m.gen = s.state.Load()&^1 + 3 // odd: live, and never a generation it had
	s.pid.Store(m.pid)
	s.state.Store(m.gen)
	return m, nil
}

// lockSlot takes slot i's liveness byte.
func (m *Machine) lockSlot(i int) bool {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: lockBase + int64(i), Len: 1}
	return unix.FcntlFlock(m.f.Fd(), unix.F_OFD_SETLK, &lk) == nil
}

// held reports whether some attachment holds slot i's liveness byte; this
// attachment's own slot is always held.
func (m *Machine) held(i int) bool {
	if i == m.slot {
		return true
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: lockBase + int64(i), Len: 1}
	if err := unix.FcntlFlock(m.f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return true // cannot tell: keep it
	}
	return lk.Type != unix.F_UNLCK
}

// alive reports whether slot i is still the attachment of generation gen.
func (m *Machine) alive(i int, gen uint64) bool {
	return i >= 0 && i < MaxSlots && m.t.slots[i].state.Load() == gen && gen&1 == 1 && m.held(i)
}

// reclaimLocked frees what dead attachments left: their memory counts and
// exports. The file must be flocked, which orders it against every attach
// and detach.
func (m *Machine) reclaimLocked() {
	for i := range m.t.slots {
		s := &m.t.slots[i]
		st := s.state.Load()
		if i == m.slot || st&1 == 0 || m.held(i) {
			continue
		}
		m.clearSlot(i, st)
	}
}

// clearSlot drops what slot i left at state st and marks it left.
func (m *Machine) clearSlot(i int, st uint64) {
	s := &m.t.slots[i]
	for d := range s.used {
		s.used[d].Store(0)
	}
	s.pid.Store(0)
	m.dropExports(i, st)
	s.state.Store(st + 1)
}

// reclaim is reclaimLocked taking the lock.
func (m *Machine) reclaim() {
	if unix.Flock(int(m.f.Fd()), unix.LOCK_EX) != nil {
		return
	}
	m.reclaimLocked()
	_ = unix.Flock(int(m.f.Fd()), unix.LOCK_UN)
}

// enter counts a wait on the file in progress, which Detach waits for
// (wg.Done ends it); false once detaching.
func (m *Machine) enter() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	m.wg.Add(1)
	return true
}

// Pid is the attached process's id as the devices see it.
func (m *Machine) Pid() int32 { return m.pid }

// File is the machine's file.
func (m *Machine) File() string { return m.path }

// Detach leaves the machine: this attachment's memory counts and exports
// go, and the last attachment removes the file. Detaching twice is a no-op.
func (m *Machine) Detach() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.gone.Store(true)
	m.mu.Unlock()
	s := &m.t.slots[m.slot]
	s.bell.Add(1)
	wake(word(&s.bell), 1<<30)
	m.wg.Wait()
	fd := int(m.f.Fd())
	var errs []error
	if err := unix.Flock(fd, unix.LOCK_EX); err != nil {
		errs = append(errs, fmt.Errorf("locking the machine file %s: %w", m.path, err))
	}
	m.clearSlot(m.slot, m.gen)
	last := true
	for i := range m.t.slots {
		if i != m.slot && m.t.slots[i].state.Load()&1 == 1 && m.held(i) {
			last = false
			break
		}
	}
	if last {
		if err := os.Remove(m.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := unix.Munmap(m.mem); err != nil {
		errs = append(errs, err)
	}
	// Closing drops the flock and the slot's liveness byte together.
	if err := m.f.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
