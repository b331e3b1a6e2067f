package prof

import (
	"slices"

	"github.com/gocann/gocann/hal"
)

// Devices join a session as they open and leave as they close (the
// session is the runtime's DeviceWatcher): a device closing has its
// records drained first; one opening again starts a new trace. The
// session records the devices Config.Devices lists (all when nil);
// SetDevices changes the list while it runs.

// DeviceOpened adds device id.
func (s *Session) DeviceOpened(id int, hd hal.Device, p hal.Props) {
	d := Device{ID: id, SoC: p.SoCName, AICores: p.AICores, VectorCores: p.VectorCores, CubeCores: p.CubeCores}
	if tr, ok := hd.(hal.TraceReader); ok {
		d.Trace = tr
	}
	if dp, ok := hd.(hal.Depther); ok {
		d.Depths = dp
	}
	if mu, ok := hd.(hal.MemUser); ok {
		d.MemUsed = func() uint64 {
			var n uint64
			for _, u := range mu.MemUsage() {
				n += u.Bytes
			}
			return n
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.addDevice(d)
	s.tl.flush()
}

// DeviceClosing drains device id's records and drops it.
func (s *Session) DeviceClosing(id int, hd hal.Device) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return // Stop drained it; the files are closed
	}
	s.drainCalls() // the calls that queued its last tasks
	for i := range s.devs {
		d := &s.devs[i]
		if d.ID != id {
			continue
		}
		s.flushDevice(d)
		s.devs = append(s.devs[:i], s.devs[i+1:]...)
		s.tl.flush()
		return
	}
}

// SetDevices makes the session record the devices ids lists (all for
// nil) from now on: one that joins starts from its next record, one that
// leaves has what it recorded written first.
func (s *Session) SetDevices(ids []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.cfg.Devices = slices.Clone(ids)
	for i := range s.devs {
		d := &s.devs[i]
		switch want := s.wants(d.ID); {
		case want && !d.on:
			s.startDevice(d)
		case !want && d.on:
			s.flushDevice(d)
			d.on = false
		}
	}
	s.tl.flush()
}

// wants reports whether the session records device id. s.mu held.
func (s *Session) wants(id int) bool {
	return s.cfg.Devices == nil || slices.Contains(s.cfg.Devices, id)
}

// addDevice follows d, recording it if the session wants it. s.mu held.
func (s *Session) addDevice(d Device) {
	if d.Trace != nil && d.ClockBase == 0 {
		d.ClockBase = d.Trace.ClockBase()
	}
	s.devs = append(s.devs, devState{Device: d, streams: map[int32]bool{}})
	if ds := &s.devs[len(s.devs)-1]; s.wants(d.ID) {
		s.startDevice(ds)
	}
}

// startDevice records d from its next record on. s.mu held.
func (s *Session) startDevice(d *devState) {
	d.on, d.held = true, d.held[:0]
	if d.Trace != nil {
		d.Trace.TraceCapacity(1 << 17)
		_, d.next, _ = d.Trace.TraceFrom(^uint64(0)>>1, nil) // from now on
	}
	if !s.named[d.ID] {
		s.named[d.ID] = true
		s.deviceMetadata(d)
	}
}

// flushDevice writes what d recorded and has not written yet. s.mu held.
func (s *Session) flushDevice(d *devState) {
	if !d.on || d.Trace == nil {
		return
	}
	for _, r := range d.held {
		s.writeTask(d, r)
	}
	d.held = d.held[:0]
	d.buf, d.next, _ = d.Trace.TraceFrom(d.next, d.buf[:0])
	for _, r := range d.buf {
		s.writeTask(d, r)
	}
}
