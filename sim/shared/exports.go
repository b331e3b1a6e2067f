package shared

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
)

// Errors of the export table; callers map them to their own codes.
var (
	ErrFull      = errors.New("every export slot of the machine is in use")
	ErrNoExport  = errors.New("no live export has this key")
	ErrOwnerGone = errors.New("the exporting process has exited")
	ErrDenied    = errors.New("the importing process is not on the export's whitelist")
	ErrWhitelist = errors.New("the export's whitelist is full")
)

// Desc describes an export; the machine fills in the exporter's slot.
type Desc = fields

// Export is a reference to one export, the exporter's or an importer's.
type Export struct {
	m   *Machine
	idx int
	gen uint32
	Desc
}

// Publish adds an export described by d and returns it with its fresh
// key: KeySize random bytes, or ShortKey of them (the rest zero).
func (m *Machine) Publish(d Desc, keyLen int) (Export, error) {
	e, err := m.publish(d, keyLen)
	if errors.Is(err, ErrFull) {
		m.reclaim()
		e, err = m.publish(d, keyLen)
	}
	return e, err
}

// ShortKey is the key length of exports named by one uint64.
const ShortKey = 8

func (m *Machine) publish(d Desc, keyLen int) (Export, error) {
	for i := range m.t.exports {
		en := &m.t.exports[i]
		if en.state.Load() != entryFree || !en.state.CompareAndSwap(entryFree, entryBusy) {
			continue
		}
		en.gen.Add(1)
		d.Slot, d.SlotGen, d.Pid = uint32(m.slot), m.gen, m.pid
		// The key is all that names an export: random bits, never zero.
		d.Key = [KeySize]byte{}
		for d.Key == ([KeySize]byte{}) {
			_, _ = rand.Read(d.Key[:min(max(keyLen, 1), KeySize)])
		}
		en.fields = d
		en.pending.Store(0)
		en.subm.Store(0)
		en.done.Store(0)
		en.npids.Store(0)
		for j := range en.imports {
			en.imports[j].slot.Store(0)
		}
		g := en.gen.Add(1)
		en.state.Store(entryLive)
		return Export{m: m, idx: i, gen: g, Desc: d}, nil
	}
	return Export{}, ErrFull
}

// Find returns the live export with key k. An export whose process has
// exited is ErrOwnerGone.
func (m *Machine) Find(k [KeySize]byte) (Export, error) {
	for i := range m.t.exports {
		en := &m.t.exports[i]
		if en.state.Load() != entryLive {
			continue
		}
		e, ok := m.read(i)
		if !ok || subtle.ConstantTimeCompare(e.Key[:], k[:]) != 1 {
			continue
		}
		if !m.alive(int(e.Slot), e.SlotGen) {
			return Export{}, ErrOwnerGone
		}
		return e, nil
	}
	return Export{}, ErrNoExport
}

// read copies entry i if it is live and the copy is whole.
func (m *Machine) read(i int) (Export, bool) {
	en := &m.t.exports[i]
	g := en.gen.Load()
	if en.state.Load() != entryLive {
		return Export{}, false
	}
	d := en.fields
	if en.gen.Load() != g || en.state.Load() != entryLive {
		return Export{}, false
	}
	return Export{m: m, idx: i, gen: g, Desc: d}, true
}

// Live reports whether the export still stands and its exporter lives.
func (e Export) Live() bool {
	en := &e.m.t.exports[e.idx]
	return en.gen.Load() == e.gen && en.state.Load() == entryLive && e.m.alive(int(e.Slot), e.SlotGen)
}

// Mine reports whether this attachment made the export.
func (e Export) Mine() bool { return int(e.Slot) == e.m.slot && e.SlotGen == e.m.gen }

// Allow adds pids to the whitelist; only the exporter calls it.
func (e Export) Allow(pids []int32) error {
	en := &e.m.t.exports[e.idx]
	if en.gen.Load() != e.gen {
		return ErrNoExport
	}
	n := int(en.npids.Load())
	for _, p := range pids {
		if e.permitted(p, n) {
			continue
		}
		if n == MaxPids {
			return fmt.Errorf("%w: %d processes at most", ErrWhitelist, MaxPids)
		}
		en.pids[n].Store(p)
		n++
	}
	en.npids.Store(uint32(n))
	return nil
}

// Permits reports whether process pid may import the export.
func (e Export) Permits(pid int32) bool {
	if e.Flags&FlagNoPidCheck != 0 || e.Mine() {
		return true
	}
	return e.permitted(pid, int(e.m.t.exports[e.idx].npids.Load()))
}

func (e Export) permitted(pid int32, n int) bool {
	en := &e.m.t.exports[e.idx]
	for i := range min(n, MaxPids) {
		if en.pids[i].Load() == pid {
			return true
		}
	}
	return false
}

// Withdraw ends an export this attachment made: later Finds miss it.
func (e Export) Withdraw() error {
	en := &e.m.t.exports[e.idx]
	if en.gen.Load() != e.gen || !en.state.CompareAndSwap(entryLive, entryBusy) {
		return ErrNoExport
	}
	e.m.free(en)
	e.m.mu.Lock()
	delete(e.m.notify, uint32(e.idx))
	e.m.mu.Unlock()
	return nil
}

// free clears a busy entry and makes it free.
func (m *Machine) free(en *entry) {
	en.gen.Add(1)
	en.fields = fields{}
	en.gen.Add(1)
	en.state.Store(entryFree)
}

// dropExports frees every export of slot i at generation gen.
func (m *Machine) dropExports(i int, gen uint64) {
	for j := range m.t.exports {
		en := &m.t.exports[j]
		if en.state.Load() != entryLive || en.Slot != uint32(i) || en.SlotGen != gen {
			continue
		}
		if en.state.CompareAndSwap(entryLive, entryBusy) {
			m.free(en)
		}
	}
}

// Register notes that this attachment imported e, so that its exporter
// can tell when every importer has gone (Abandoned). Past MaxImports
// importers, later ones are not noted.
func (e Export) Register() {
	en := &e.m.t.exports[e.idx]
	for i := range en.imports {
		im := &en.imports[i]
		if s := im.slot.Load(); s == int32(e.m.slot)+1 && im.gen.Load() == e.m.gen {
			return
		}
	}
	for i := range en.imports {
		im := &en.imports[i]
		old := im.slot.Load()
		if old != 0 && e.m.alive(int(old)-1, im.gen.Load()) {
			continue
		}
		// The pid and generation go first: a reader seeing the slot sees
		// whose it is.
		im.pid.Store(e.m.pid)
		im.gen.Store(e.m.gen)
		if im.slot.CompareAndSwap(old, int32(e.m.slot)+1) {
			return
		}
	}
}

// Abandoned reports whether processes imported e and every one of them
// has exited, with their pids.
func (e Export) Abandoned() (bool, []int32) {
	en := &e.m.t.exports[e.idx]
	var pids []int32
	for i := range en.imports {
		im := &en.imports[i]
		s := im.slot.Load()
		if s == 0 {
			continue
		}
		if e.m.alive(int(s)-1, im.gen.Load()) {
			return false, nil
		}
		pids = append(pids, im.pid.Load())
	}
	return len(pids) > 0, pids
}
