package main

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// launch is a simulated call of gocann_direct_launch: it reads the phase,
// then counts itself in it, then (inside) may hold any area whose pin was
// retired after it counted itself, until it leaves.
type launch struct {
	phase   uint32
	counted int // step at which it counted itself; 0 until then
	left    bool
}

// graceModel drives a graceState against a launch count of its own.
type graceModel struct {
	t        *testing.T
	in       launchCount
	g        graceState
	step     int
	launches []*launch
	retired  map[*runtime.Pinner]int // pin -> step of its retirement
}

func newGraceModel(t *testing.T) *graceModel {
	m := &graceModel{t: t, retired: make(map[*runtime.Pinner]int)}
	m.g.in = &m.in
	return m
}

func (m *graceModel) read() *launch {
	l := &launch{phase: m.in.phase}
	m.launches = append(m.launches, l)
	return l
}

func (m *graceModel) count(l *launch) {
	m.step++
	l.counted = m.step
	m.in.n[l.phase]++
}

func (m *graceModel) leave(l *launch) {
	l.left = true
	m.in.n[l.phase]--
}

func (m *graceModel) enter() *launch {
	l := m.read()
	m.count(l)
	return l
}

// retire retires a pin of a new object and checks that no pin was released
// while a launch that counted itself before its retirement is inside.
func (m *graceModel) retire() *runtime.Pinner {
	m.t.Helper()
	m.step++
	p := new(runtime.Pinner)
	p.Pin(new([64]byte))
	m.retired[p] = m.step
	m.g.retire(p)
	m.check()
	return p
}

// reclaim lets the state release what it can, retiring nothing.
func (m *graceModel) reclaim() {
	m.t.Helper()
	m.g.retire(nil)
	m.check()
}

// check fails if a pin was released while a launch that counted itself
// before the pin's retirement is inside.
func (m *graceModel) check() {
	m.t.Helper()
	for q, at := range m.retired {
		if m.held(q) {
			continue
		}
		delete(m.retired, q)
		for _, l := range m.launches {
			if l.counted != 0 && l.counted < at && !l.left {
				m.t.Fatalf("step %d: the pin retired at step %d was released while a launch counted at step %d is inside", m.step, at, l.counted)
			}
		}
	}
}

// held reports whether p is retired and not yet released.
func (m *graceModel) held(p *runtime.Pinner) bool {
	return slices.ContainsFunc(m.g.retired, func(r retiredPin) bool { return r.p == p })
}

func (m *graceModel) inside() bool { return m.in.n[0]+m.in.n[1] != 0 }

// finish lets every launch leave; then a retirement releases every pin.
func (m *graceModel) finish() {
	m.t.Helper()
	for _, l := range m.launches {
		if l.counted != 0 && !l.left {
			m.leave(l)
		}
	}
	m.retire()
	if n := len(m.g.retired); n != 0 {
		m.t.Fatalf("with no launch inside, %d pins stay retired after a retirement", n)
	}
}

func TestGraceReleasesAtOnceWithNoLaunchInside(t *testing.T) {
	m := newGraceModel(t)
	for i := range 10 {
		p := m.retire()
		if m.held(p) {
			t.Fatalf("retirement %d: with no launch inside, the pin is still held", i)
		}
		l := m.enter() // launches in between do not hold later pins back
		m.leave(l)
	}
}

func TestGraceHoldsWhileALaunchIsInside(t *testing.T) {
	m := newGraceModel(t)
	l := m.enter()
	first := m.retire()
	for range 1000 { // far more than any fixed number of retirements
		m.retire()
	}
	if !m.held(first) || len(m.g.retired) != 1001 {
		t.Fatalf("with a launch inside since before them, %d of 1001 pins are held (the first: %v)", len(m.g.retired), m.held(first))
	}
	m.leave(l)
	m.finish()
}

// A launch that read the phase before a grace period ended and counted
// itself in it after, with the phase moved on: the next period does not
// wait for it, the one after must.
func TestGraceHoldsForALaunchOfTheOldPhase(t *testing.T) {
	m := newGraceModel(t)
	c := m.enter()
	m.retire() // period 1 begins; c holds it open
	d := m.enter()
	m.leave(c)
	m.retire() // period 1 ends, period 2 begins; d holds it open
	b := m.read()
	m.leave(d)
	m.reclaim() // periods 2 and 3 end: nothing is left retired
	if m.in.phase == b.phase || len(m.g.retired) != 0 {
		t.Fatalf("the scenario did not set up: phase %d (b read %d), %d pins retired", m.in.phase, b.phase, len(m.g.retired))
	}
	m.count(b) // in the phase the next period does not wait on
	p := m.retire()
	if !m.held(p) {
		t.Fatal("a pin retired after a launch counted itself in the old phase was released while it is inside")
	}
	m.leave(b)
	m.finish()
}

func TestGraceRandom(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 1))
		m := newGraceModel(t)
		var reading, in []*launch
		for range 2000 {
			switch r.IntN(4) {
			case 0:
				reading = append(reading, m.read())
			case 1:
				if len(reading) > 0 {
					i := r.IntN(len(reading))
					m.count(reading[i])
					in = append(in, reading[i])
					reading = slices.Delete(reading, i, i+1)
				}
			case 2:
				if len(in) > 0 {
					i := r.IntN(len(in))
					m.leave(in[i])
					in = slices.Delete(in, i, i+1)
				}
			default:
				m.retire()
				if !m.inside() && len(m.g.retired) != 0 {
					t.Fatalf("seed %d: with no launch inside, %d pins stay retired", seed, len(m.g.retired))
				}
			}
		}
		for _, l := range reading {
			m.count(l)
		}
		m.finish()
	}
}
