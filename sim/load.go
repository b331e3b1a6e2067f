package sim

import (
	"math"
	"time"

	"github.com/gocann/gocann/hal"
)

// loadWindow is the time constant of an engine's busy fraction: work older
// than a few windows hardly counts.
const loadWindow = 100 * time.Millisecond

// engineLoad is how busy an engine's workers are: the fraction of them running a
// part, averaged over time with an exponential window. Workers change it
// when they start finding work and when they park for want of it, not per
// part, so a busy engine pays nothing for it; a worker spinning a few
// microseconds between tasks counts as busy. Guarded by the scheduler's mu.
type engineLoad struct {
	active int     // workers running parts
	t      int64   // device clock of the last change
	avg    float64 // busy fraction averaged up to t
}

// at is the average at device time now, of workers workers.
func (l *engineLoad) at(now int64, workers int) float64 {
	dt := now - l.t
	if dt <= 0 || workers <= 0 {
		return l.avg
	}
	k := math.Exp(-float64(dt) / float64(loadWindow))
	return l.avg*k + min(1, float64(l.active)/float64(workers))*(1-k)
}

// busy records a worker of e starting (on) or ceasing (off) to run parts.
// s.mu must be held.
func (e *engine) busy(w *worker, on bool) {
	if w.busy == on {
		return
	}
	w.busy = on
	now := e.s.clock()
	e.load.avg, e.load.t = e.load.at(now, e.maxWorkers), now
	if on {
		e.load.active++
	} else {
		e.load.active--
	}
}

var _ hal.Utilizer = (*device)(nil)

// Utilization is how busy the device's engines were lately (hal.Utilizer).
// The AI core pool runs every AI core kernel, cube and vector alike; the
// AI CPU engine the kernels of AI CPU functions.
func (d *device) Utilization() hal.Utilization {
	s := d.s
	s.mu.Lock()
	now := s.clock()
	e, c := s.engines[hal.EngineAICore], s.engines[hal.EngineAICPU]
	u := e.load.at(now, e.maxWorkers)
	cpu := c.load.at(now, c.maxWorkers)
	s.mu.Unlock()
	if d.props.AICPUs == 0 {
		cpu = -1
	}
	return hal.Utilization{Cube: u, Vector: u, AICPU: cpu}
}
