package prof

import "github.com/gocann/gocann/hal"

// Devices join a session as they open and leave as they close (the
// session is the runtime's DeviceWatcher): a device closing has its
// records drained first; one opening again starts a new trace.

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
	s.drainCalls() // the calls that queued its last tasks
	for i := range s.devs {
		d := &s.devs[i]
		if d.ID != id || d.Trace == nil {
			continue
		}
		for _, r := range d.held {
			s.writeTask(d, r)
		}
		d.buf, d.next, _ = d.Trace.TraceFrom(d.next, d.buf[:0])
		for _, r := range d.buf {
			s.writeTask(d, r)
		}
		s.devs = append(s.devs[:i], s.devs[i+1:]...)
		s.tl.flush()
		return
	}
}

// addDevice starts recording d. s.mu held.
func (s *Session) addDevice(d Device) {
	if d.Trace != nil && d.ClockBase == 0 {
		d.ClockBase = d.Trace.ClockBase()
	}
	ds := devState{Device: d, streams: map[int32]bool{}}
	if d.Trace != nil {
		d.Trace.TraceCapacity(1 << 17)
		_, ds.next, _ = d.Trace.TraceFrom(^uint64(0)>>1, nil) // from now on
	}
	named := false
	for i := range s.devs {
		named = named || s.devs[i].ID == d.ID
	}
	s.devs = append(s.devs, ds)
	if !named {
		s.deviceMetadata(&s.devs[len(s.devs)-1])
	}
}
