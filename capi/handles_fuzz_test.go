package main

import (
	"encoding/binary"
	"testing"
)

// tableModel checks a table against a map of its live handles and the set
// of every handle that was live once.
type tableModel struct {
	t     *testing.T
	tb    *table
	live  map[handle]int
	stale map[handle]bool
	order []handle          // every handle handed out, for picking one
	gens  map[uint32]uint32 // the last generation each slot handed out
	n     int
}

func (m *tableModel) add(k kind) {
	m.n++
	h, ok := m.tb.add(k, m.n)
	if !ok {
		m.t.Fatalf("add failed with %d live handles", len(m.live))
	}
	if _, dup := m.live[h]; dup || m.stale[h] {
		m.t.Fatalf("add returned %#x, which was handed out before", uintptr(h))
	}
	if h.kind() != k || uintptr(h) < 1<<56 {
		m.t.Fatalf("add(%d) returned %#x", k, uintptr(h))
	}
	// A slot's generations only go up, from 1: one that wrapped would
	// hand out its first generation's handles again.
	if last, reused := m.gens[h.index()]; h.gen() == 0 || reused && h.gen() <= last {
		m.t.Fatalf("add returned slot %d generation %#x; its last was %#x", h.index(), h.gen(), last)
	}
	m.gens[h.index()] = h.gen()
	m.live[h] = m.n
	m.order = append(m.order, h)
}

// check looks h up as kind k and compares with the model.
func (m *tableModel) check(h handle, k kind) {
	obj, ok := m.tb.get(h, k)
	want, live := m.live[h]
	live = live && h.kind() == k
	if ok != live || ok && obj != want {
		m.t.Fatalf("get(%#x, %d) = (%v, %v), model says live %v (%d)", uintptr(h), k, obj, ok, live, want)
	}
}

func (m *tableModel) remove(h handle, k kind) {
	_, live := m.live[h]
	live = live && h.kind() == k
	if got := m.tb.remove(h, k); got != live {
		m.t.Fatalf("remove(%#x, %d) = %v, model says %v", uintptr(h), k, got, live)
	}
	if live {
		delete(m.live, h)
		m.stale[h] = true
	}
}

func (m *tableModel) clear() {
	m.tb.clear()
	for h := range m.live {
		m.stale[h] = true
	}
	clear(m.live)
}

// pick returns a handle handed out before, chosen by b.
func (m *tableModel) pick(b byte) (handle, bool) {
	if len(m.order) == 0 {
		return 0, false
	}
	return m.order[int(b)%len(m.order)], true
}

// FuzzTable drives the handle table with add, get, remove and clear in any
// order, and with made-up handles: no stale handle ever resolves or
// removes, no live one ever fails, a new handle was never handed out
// before, and a slot's generations only increase (so a slot at its last
// generation is retired, never reused). Ops are 2 bytes: an op and an
// argument; op 6 takes 8 more bytes, a word looked up as a handle; op 7
// moves a free slot near its last generation.
func FuzzTable(f *testing.F) {
	f.Add([]byte{0, 2, 0, 2, 2, 0, 1, 0, 0, 2, 2, 1, 3, 0, 2, 0})
	f.Add([]byte{7, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0, 2, 2, 0, 2, 1, 2, 2})
	f.Add(append([]byte{0, 3, 6, 0}, binary.LittleEndian.AppendUint64(nil, uint64(makeHandle(kindEvent, 2, 0)))...))
	f.Add([]byte{0, 1, 0, 2, 4, 0, 4, 1, 5, 0, 0, 1, 3, 0, 0, 1, 4, 1})
	// A slot freed, moved to its last generation, used and freed again
	// (retired), then a new slot; and one that takes three more uses to
	// wrap.
	f.Add([]byte{0, 2, 1, 0, 7, 0, 0, 2, 1, 1, 0, 2, 2, 0, 2, 1, 2, 2})
	f.Add([]byte{0, 4, 1, 0, 7, 2, 0, 4, 1, 1, 0, 4, 1, 2, 0, 4, 1, 3, 0, 4, 2, 0, 2, 4})
	// Clear with a freed slot among live ones; a handle whose slot lies in
	// a chunk never allocated.
	f.Add([]byte{0, 1, 0, 1, 0, 1, 1, 1, 3, 0, 0, 1, 2, 0, 2, 3})
	f.Add(append([]byte{0, 1, 6, 1}, binary.LittleEndian.AppendUint64(nil, uint64(makeHandle(kindStream, 1, 5*chunkSize)))...))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := &tableModel{t: t, tb: new(table), live: map[handle]int{}, stale: map[handle]bool{}, gens: map[uint32]uint32{}}
		for len(data) >= 2 {
			op, arg := data[0], data[1]
			data = data[2:]
			k := kind(arg%uint8(numKinds-1)) + 1
			switch op % 8 {
			case 0:
				m.add(k)
			case 1:
				if h, ok := m.pick(arg); ok {
					m.remove(h, h.kind())
				}
			case 2:
				if h, ok := m.pick(arg); ok {
					m.check(h, h.kind())
				}
			case 3:
				m.clear()
			case 4: // the right slot, the wrong kind
				if h, ok := m.pick(arg); ok {
					m.check(h, h.kind()%(numKinds-1)+1)
					m.remove(h, h.kind()%(numKinds-1)+1)
				}
			case 5: // the right slot and kind, another generation
				if h, ok := m.pick(arg); ok {
					m.check(makeHandle(h.kind(), h.gen()+uint32(arg)+1, h.index()), h.kind())
				}
			case 6:
				if len(data) >= 8 {
					h := handle(binary.LittleEndian.Uint64(data))
					data = data[8:]
					m.check(h, k)
					m.check(h, h.kind())
				}
			case 7:
				if n := len(m.tb.free); n > 0 {
					idx := m.tb.free[int(arg)%n]
					// Only forward: an earlier generation would hand out
					// a handle again by the test's own doing.
					m.tb.gens[idx] = max(m.tb.gens[idx], ^uint32(0)-uint32(arg%3))
				}
			}
		}
		for _, h := range m.order {
			m.check(h, h.kind())
		}
	})
}
