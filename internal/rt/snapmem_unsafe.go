package rt

import (
	"context"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// openDevices lists the devices that are open now, in id order.
func (r *Runtime) openDevices() []*Device {
	r.mu.Lock()
	devices := r.devices
	r.mu.Unlock()
	var out []*Device
	for _, d := range devices {
		d.mu.Lock()
		open := d.hd != nil && !d.dead
		d.mu.Unlock()
		if open {
			out = append(out, d)
		}
	}
	return out
}

// saveDevices waits for the tasks of every open device, then copies each
// live allocation to the host.
func (r *Runtime) saveDevices() ([]savedAlloc, error) {
	var saved []savedAlloc
	for _, d := range r.openDevices() {
		if err := d.Synchronize(context.Background(), 0); err != nil && rterr.KindOf(err) != rterr.KindContextNull {
			return nil, rterr.Wrap(rterr.KindSnapshotBackup, err, "device %d: waiting for its tasks before the backup", d.id)
		}
		hd, err := d.halDevice()
		if err != nil {
			continue // closed meanwhile: nothing of it to save
		}
		l, ok := hd.(hal.AllocLister)
		if !ok {
			return nil, rterr.Errorf(rterr.KindNotSupported, "device %d cannot list its allocations, which a snapshot backup saves: the backend does not offer it", d.id)
		}
		for _, a := range l.Allocations() {
			b := make([]byte, a.Size)
			if a.Size > 0 {
				err := hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(unsafe.Pointer(&b[0])), Src: hal.DevLoc(a.Addr), Size: a.Size})
				if err != nil {
					return nil, rterr.Wrap(rterr.KindSnapshotBackup, err, "device %d: saving %d bytes at %#x", d.id, a.Size, a.Addr)
				}
			}
			saved = append(saved, savedAlloc{hd: hd, a: a, bytes: b})
		}
	}
	return saved, nil
}

// restoreDevices writes saved back. Every allocation must still be live,
// on the same opened device, with the same size; otherwise nothing is
// written.
func (r *Runtime) restoreDevices(saved []savedAlloc) error {
	synced := make(map[hal.Device]bool)
	for _, d := range r.openDevices() {
		if err := d.Synchronize(context.Background(), 0); err != nil && rterr.KindOf(err) != rterr.KindContextNull {
			return rterr.Wrap(rterr.KindSnapshotRestore, err, "device %d: waiting for its tasks before the restore", d.id)
		}
		if hd, err := d.halDevice(); err == nil {
			synced[hd] = true
		}
	}
	for _, s := range saved {
		if !synced[s.hd] {
			return rterr.Errorf(rterr.KindSnapshotRestore, "device %d is no longer the device that was backed up: it was reset or closed", s.a.Device)
		}
		a, ok := s.hd.Lookup(s.a.Addr)
		if !ok || a.Addr != s.a.Addr || a.Size != s.a.Size {
			return rterr.Errorf(rterr.KindSnapshotRestore, "device %d: the allocation of %d bytes at %#x that was backed up is gone", s.a.Device, s.a.Size, s.a.Addr)
		}
	}
	for _, s := range saved {
		if s.a.Size == 0 {
			continue
		}
		err := s.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(s.a.Addr), Src: hal.HostLoc(unsafe.Pointer(&s.bytes[0])), Size: s.a.Size})
		if err != nil {
			return rterr.Wrap(rterr.KindSnapshotRestore, err, "device %d: restoring %d bytes at %#x", s.a.Device, s.a.Size, s.a.Addr)
		}
	}
	return nil
}
