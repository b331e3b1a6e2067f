package rt

import (
	"slices"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// The importing side of IPC memory, and the rules for imported memory.

// physicalOf is the physical id of device id; without identities, id.
func (r *Runtime) physicalOf(id int) int {
	if x, err := r.Identity(id); err == nil {
		return x.Physical
	}
	return id
}

// userOf is the user id of the visible device with physical id phys.
func (r *Runtime) userOf(phys int) (int, bool) {
	b, err := r.live()
	if err != nil {
		return 0, false
	}
	for u := range b.DeviceCount() {
		if r.physicalOf(u) == phys {
			return u, true
		}
	}
	return 0, false
}

// peerFor makes sure d may reach memory of the device with physical id
// phys: nothing to do for d itself; with enable, turning peer access on
// (as CANN's import does); without, refusing unless it is on.
func (d *Device) peerFor(phys int, enable bool, what string) error {
	r := d.r
	if phys == r.physicalOf(d.id) {
		return nil
	}
	peer, ok := r.userOf(phys)
	if !ok {
		return rterr.Errorf(rterr.KindInvalidParam, "%s is memory of physical device %d, which this process cannot see", what, phys)
	}
	p, ok := d.b.(hal.Peer)
	if !ok {
		return rterr.Errorf(rterr.KindNotSupported, "this backend has no peer access between devices, needed to reach %s on device %d", what, peer)
	}
	if p.PeerAccess(d.id, peer) {
		return nil
	}
	if !enable {
		return rterr.Errorf(rterr.KindInvalidParam,
			"%s is memory of device %d: enable peer access from device %d first (aclrtDeviceEnablePeerAccess) or import with ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS",
			what, peer, d.id)
	}
	if _, ok, err := p.PeerLink(d.id, peer); err != nil || !ok {
		return rterr.Errorf(rterr.KindInvalidParam, "%s is memory of device %d, which device %d cannot reach (aclrtDeviceCanAccessPeer)", what, peer, d.id)
	}
	_, err := p.SetPeerAccess(d.id, peer, true)
	return err
}

// IpcMemImport maps the memory exported as k into this process for c's
// device and returns its address (aclrtIpcMemImportByKey); flags 1 turns
// on peer access to the exporter's device. Each import is a mapping of its
// own, closed by one aclrtIpcMemClose.
func (c *Context) IpcMemImport(k hal.IPCKey, flags uint64) (uint64, error) {
	if flags > 1 {
		return 0, rterr.Errorf(rterr.KindInvalidParam,
			"flags %d is invalid, expected ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) or _ENABLE_PEER_ACCESS (1)", flags)
	}
	x, err := c.ipc()
	if err != nil {
		return 0, err
	}
	info, err := memExportInfo(x, k)
	if err != nil {
		return 0, err
	}
	if err := c.d.peerFor(info.Physical, flags&1 != 0, "key "+KeyString(k)); err != nil {
		return 0, err
	}
	addr, size, err := x.ImportMemory(k)
	if err != nil {
		return 0, errExport("key "+KeyString(k), "the key of a live IPC memory export (aclrtIpcMemGetExportKey)", err)
	}
	r := c.d.r
	r.ipc.mu.Lock()
	r.ipc.imports[k] = append(r.ipc.imports[k], addr)
	r.ipc.byAddr[addr] = memImport{key: k, dev: c.d.id, peer: info.Physical, size: size, pageSize: max(info.PageSize, hal.PageSizeNormal)}
	r.ipc.mu.Unlock()
	return addr, nil
}

// IpcMemClose closes k (aclrtIpcMemClose): the oldest import of it this
// process still holds, else this process's export, which no process can
// import from then on.
func (c *Context) IpcMemClose(k hal.IPCKey) error {
	x, err := c.ipc()
	if err != nil {
		return err
	}
	s := &c.d.r.ipc
	s.mu.Lock()
	if addrs := s.imports[k]; len(addrs) > 0 {
		// Taken from the table first, so that closes racing each take
		// an import of their own.
		addr, m := addrs[0], s.byAddr[addrs[0]]
		s.dropImport(k, addr)
		s.mu.Unlock()
		// Unmapped by the device that mapped it.
		if err := c.d.r.ipcOf(m.dev, x).CloseImport(addr); err != nil {
			s.mu.Lock()
			s.imports[k] = append([]uint64{addr}, s.imports[k]...)
			s.byAddr[addr] = m
			s.mu.Unlock()
			return err
		}
		return nil
	}
	if _, ok := s.attrs[k]; ok {
		// Only aclrtIpcMemSetAttr named it: CANN forgets the key.
		delete(s.attrs, k)
		s.mu.Unlock()
		return nil
	}
	e, ok := s.exports[k]
	s.mu.Unlock()
	if !ok {
		return rterr.Errorf(rterr.KindInvalidParam,
			"key %s is invalid, expected a key this process exported (aclrtIpcMemGetExportKey) or imported (aclrtIpcMemImportByKey) and did not close", KeyString(k))
	}
	if err := c.d.r.ipcOf(e.dev, x).Withdraw(k); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.exports, k)
	s.mu.Unlock()
	return nil
}

// ipcOf is device id's sharing capability, else x.
func (r *Runtime) ipcOf(id int, x hal.IPC) hal.IPC {
	if d, err := r.Device(id); err == nil {
		if hd, err := d.halDevice(); err == nil {
			if y, ok := hd.(hal.IPC); ok {
				return y
			}
		}
	}
	return x
}

// dropImport forgets the import of k at addr. s.mu held.
func (s *ipcState) dropImport(k hal.IPCKey, addr uint64) {
	delete(s.byAddr, addr)
	if rest := slices.DeleteFunc(s.imports[k], func(a uint64) bool { return a == addr }); len(rest) > 0 {
		s.imports[k] = rest
	} else {
		delete(s.imports, k)
		delete(s.attrs, k)
	}
}

// closeDevice ends, as device id closes, the imports it mapped and the
// exports of its memory, which goes with it.
func (s *ipcState) closeDevice(id int, hd hal.Device) {
	x, ok := hd.(hal.IPC)
	if !ok {
		return
	}
	var addrs []uint64
	var keys []hal.IPCKey
	s.mu.Lock()
	for a, m := range s.byAddr {
		if m.dev != id {
			continue
		}
		addrs = append(addrs, a)
		s.dropImport(m.key, a)
	}
	for k, e := range s.exports {
		if e.dev == id {
			keys = append(keys, k)
			delete(s.exports, k)
		}
	}
	s.mu.Unlock()
	for _, a := range addrs {
		_ = x.CloseImport(a) // the device's close would drop it anyway
	}
	for _, k := range keys {
		_ = x.Withdraw(k)
	}
}

// errImported refuses aclrtFree of imported memory.
func (r *Runtime) errImported(addr uint64) error {
	m, a, ok := r.ipc.lookup(addr)
	if !ok {
		return nil
	}
	return rterr.Errorf(rterr.KindInvalidAddress,
		"devPtr %#x is memory imported from key %s (at %#x), not from aclrtMalloc; release it with aclrtIpcMemClose", addr, KeyString(m.key), a.Addr)
}

// errImportedRange refuses unmapping or releasing the range of an IPC
// import, which is the runtime's to end at aclrtIpcMemClose.
func (r *Runtime) errImportedRange(addr uint64) error {
	m, a, ok := r.ipc.lookup(addr)
	if !ok {
		return nil
	}
	return rterr.Errorf(rterr.KindInvalidParam,
		"virPtr %#x is memory imported from key %s (at %#x), not a range from aclrtReserveMemAddress; release it with aclrtIpcMemClose",
		addr, KeyString(m.key), a.Addr)
}

// checkRemote refuses what CANN's reference forbids on memory imported
// from another device: copies to or from the host, and synchronous copies
// between device memory (sync).
func (d *Device) checkRemote(dst, src hal.Loc, sync bool) error {
	r := d.r
	for _, end := range [...]struct {
		param string
		l     hal.Loc
	}{{"dst", dst}, {"src", src}} {
		if end.l.IsHost() {
			continue
		}
		m, _, ok := r.ipc.lookup(end.l.Dev)
		if !ok || m.peer == r.physicalOf(m.dev) {
			continue
		}
		if dst.IsHost() || src.IsHost() {
			return rterr.Errorf(rterr.KindInvalidParam,
				"%s %#x is memory imported from another device (key %s): it cannot be copied to or from the host, only by asynchronous device-to-device copies",
				end.param, end.l.Dev, KeyString(m.key))
		}
		if sync {
			return rterr.Errorf(rterr.KindInvalidParam,
				"%s %#x is memory imported from another device (key %s): it takes asynchronous device-to-device copies only (aclrtMemcpyAsync)",
				end.param, end.l.Dev, KeyString(m.key))
		}
	}
	return nil
}
