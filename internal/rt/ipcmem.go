package rt

import (
	"os"
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// IPC memory (aclrtIpcMem*): device memory one process exports under a
// key and others of the same simulated machine import. The device does the
// sharing (hal.IPC); the runtime keeps, as CANN's does, which keys this
// process exported and which it imported, at which addresses: a Close
// unmaps one import of its key if there is one, else ends the export.

// ipcState is the process's exports and imports, reset with the backend.
type ipcState struct {
	mu      sync.Mutex
	exports map[hal.IPCKey]memExport // memory this process exported
	imports map[hal.IPCKey][]uint64  // addresses of this process's imports, oldest first
	byAddr  map[uint64]memImport     // the imports by address
	attrs   map[hal.IPCKey]uint64    // aclrtIpcMemSetAttr's links, for later imports
	phys    map[hal.IPCKey]uint64    // physical allocations this process exported, by key
	physKey map[uint64][]hal.IPCKey  // their keys, by allocation
}

type memExport struct {
	dev        int
	addr, size uint64
}

type memImport struct {
	key      hal.IPCKey
	dev      int // the importing device
	peer     int // the exporter's device (physical id)
	size     uint64
	pageSize uint64
}

func (s *ipcState) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exports = map[hal.IPCKey]memExport{}
	s.imports = map[hal.IPCKey][]uint64{}
	s.byAddr = map[uint64]memImport{}
	s.attrs = map[hal.IPCKey]uint64{}
	s.phys = map[hal.IPCKey]uint64{}
	s.physKey = map[uint64][]hal.IPCKey{}
}

// lookup finds the import holding addr, as an allocation of the importing
// device that calls take as the caller's device memory.
func (s *ipcState) lookup(addr uint64) (memImport, hal.Allocation, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for a, m := range s.byAddr {
		if addr >= a && addr-a < m.size {
			return m, hal.Allocation{Device: m.dev, Addr: a, Size: m.size, PageSize: m.pageSize, Tag: uint8(useLent)}, true
		}
	}
	return memImport{}, hal.Allocation{}, false
}

// errNoMachine is the refusal of a device that shares with no process.
func errNoMachine() error {
	return rterr.Errorf(rterr.KindNotSupported,
		"the devices are not on a shared machine (GOCANN_MACHINE / simulator.machine): IPC needs processes attached to one simulated machine")
}

// ipc is c's device's sharing capability, or the refusal.
func (c *Context) ipc() (hal.IPC, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	x, ok := c.hd.(hal.IPC)
	if !ok {
		return nil, errNoMachine()
	}
	return x, nil
}

// BareTgid is this process's id as the devices know it
// (aclrtDeviceGetBareTgid); without an open device on a shared machine,
// the process id.
func (r *Runtime) BareTgid() int32 {
	if b, err := r.live(); err == nil {
		for id := range b.DeviceCount() {
			d, err := r.Device(id)
			if err != nil {
				continue
			}
			d.mu.Lock()
			hd := d.hd
			d.mu.Unlock()
			if x, ok := hd.(hal.IPC); ok {
				return x.BareTgid()
			}
		}
	}
	return int32(os.Getpid())
}

// CheckExportArgs is what CANN checks of aclrtIpcMemGetExportKey's
// arguments before the context (ApiErrorDecorator::IpcSetMemoryName).
func CheckExportArgs(size, keyLen, flags uint64) error {
	switch {
	case size == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "size 0 is invalid, expected > 0")
	case keyLen == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "len 0 is invalid, expected at least %d (the key and its NUL)", KeyLen+1)
	case flags > 1:
		return rterr.Errorf(rterr.KindInvalidParam,
			"flags %d is invalid, expected ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (0) or _DISABLE_PID_VALIDATION (1)", flags)
	}
	return nil
}

// IpcMemExport exports [addr, addr+size) of an aclrtMalloc allocation of
// c's device (aclrtIpcMemGetExportKey); flags 1 lets any process import.
func (c *Context) IpcMemExport(addr, size, flags uint64) (hal.IPCKey, error) {
	if err := CheckExportArgs(size, uint64(KeyLen+1), flags); err != nil {
		return hal.IPCKey{}, err
	}
	x, err := c.ipc()
	if err != nil {
		return hal.IPCKey{}, err
	}
	r := c.d.r
	a, ok := r.lookup(c.d.b, addr)
	switch {
	case !ok || a.Host || devUse(a.Tag) != useOwned:
		if m, _, ok := r.ipc.lookup(addr); ok {
			return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam,
				"devPtr %#x is memory imported from key %s, expected memory from aclrtMalloc in this process", addr, KeyString(m.key))
		}
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "devPtr %#x is not in a live allocation from aclrtMalloc", addr)
	case a.Device != c.d.id:
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "devPtr %#x is memory of device %d, expected the current device %d", addr, a.Device, c.d.id)
	case (addr-a.Addr)%a.PageSize != 0:
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam,
			"devPtr %#x is invalid: %d bytes into its allocation at %#x, expected its start or a multiple of its page size %d",
			addr, addr-a.Addr, a.Addr, a.PageSize)
	case !a.Contains(addr, size):
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid: [%#x, %#x) runs past its allocation [%#x, %#x)",
			size, addr, addr+size, a.Addr, a.Addr+a.Size)
	}
	k, err := x.ExportMemory(addr, size, hal.ExportOpts{NoPidCheck: flags&1 != 0})
	if err != nil {
		return hal.IPCKey{}, err
	}
	r.ipc.mu.Lock()
	r.ipc.exports[k] = memExport{dev: c.d.id, addr: addr, size: size}
	r.ipc.mu.Unlock()
	return k, nil
}

// CheckPidCount is CANN's check of a whitelist's length, which it takes
// as an int32: checked whole here, not cut.
func CheckPidCount(n uint64) error {
	if n == 0 || n > 1<<31-1 {
		return rterr.Errorf(rterr.KindInvalidParam, "num %d is invalid, expected (0, 2147483647]", n)
	}
	return nil
}

// IpcMemSetImportPid lets processes pids import the memory this process
// exported as k (aclrtIpcMemSetImportPid).
func (c *Context) IpcMemSetImportPid(k hal.IPCKey, pids []int32) error {
	if err := CheckPidCount(uint64(len(pids))); err != nil {
		return err
	}
	x, err := c.ipc()
	if err != nil {
		return err
	}
	if err := c.d.r.ipc.exported(k); err != nil {
		return err
	}
	return x.AllowImport(k, pids)
}

// exported refuses a key that is not an export of this process's memory.
func (s *ipcState) exported(k hal.IPCKey) error {
	s.mu.Lock()
	_, ok := s.exports[k]
	s.mu.Unlock()
	if !ok {
		return rterr.Errorf(rterr.KindInvalidParam, "key %s is invalid, expected a key this process exported (aclrtIpcMemGetExportKey) and did not close", KeyString(k))
	}
	return nil
}

// ServerPids is aclrtServerPid: processes of one server of a SuperPOD
// (nil Pids: the entry's pid pointer is NULL).
type ServerPids struct {
	SDID uint32
	Pids []int32
}

// IpcMemImportPidInterServer lets processes of other servers import k
// (aclrtIpcMemImportPidInterServer). The simulated machine is one
// server, so every entry's processes join the whitelist, whatever its sdid.
func (c *Context) IpcMemImportPidInterServer(k hal.IPCKey, servers []ServerPids) error {
	if len(servers) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "num 0 is invalid, expected at least one server")
	}
	x, err := c.ipc()
	if err != nil {
		return err
	}
	if err := c.d.r.ipc.exported(k); err != nil {
		return err
	}
	for i, s := range servers {
		if len(s.Pids) == 0 {
			return rterr.Errorf(rterr.KindInvalidParam, "serverPids[%d].num 0 is invalid, expected (0, 2147483647]", i)
		}
		if err := x.AllowImport(k, s.Pids); err != nil {
			return err
		}
	}
	return nil
}

// IpcMemSetAttr sets how this process's later imports of k reach the
// memory (aclrtIpcMemSetAttr): type 0 (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)
// with a link, SIO or HCCS on the chips that have the call.
func (c *Context) IpcMemSetAttr(k hal.IPCKey, typ uint32, attr uint64) error {
	if err := CheckIpcAttr(typ, attr); err != nil {
		return err
	}
	x, err := c.ipc()
	if err != nil {
		return err
	}
	if attr > LinkHCCS {
		return rterr.Errorf(rterr.KindLinkTypeNotSupported,
			"attr %d (a UB link) is not supported: this chip reaches other dies over SIO (0) or HCCS (1)", attr)
	}
	if _, err := memExportInfo(x, k); err != nil {
		return err
	}
	r := c.d.r
	r.ipc.mu.Lock()
	r.ipc.attrs[k] = attr
	r.ipc.mu.Unlock()
	return nil
}

// CheckIpcAttr is CANN's check of aclrtIpcMemSetAttr's type and value,
// before the context.
func CheckIpcAttr(typ uint32, attr uint64) error {
	switch {
	case typ != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "type %d is invalid, expected ACL_RT_IPC_MEM_ATTR_ACCESS_LINK (0)", typ)
	case attr > LinkUBMultiPort:
		return rterr.Errorf(rterr.KindInvalidParam, "attr %d is invalid, expected an ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_* value 0..%d", attr, LinkUBMultiPort)
	}
	return nil
}

// errExport names, in the device's refusal of an export that is gone or
// never was, the argument and what was expected.
func errExport(arg, want string, err error) error {
	if rterr.KindOf(err) != rterr.KindInvalidParam {
		return err
	}
	return rterr.Wrap(rterr.KindInvalidParam, err, "%s is invalid, expected %s", arg, want)
}

// memExportInfo describes the memory export k, or refuses it.
func memExportInfo(x hal.IPC, k hal.IPCKey) (hal.ExportInfo, error) {
	info, err := x.Exported(k)
	if err != nil {
		return info, errExport("key "+KeyString(k), "the key of a live IPC memory export (aclrtIpcMemGetExportKey)", err)
	}
	if info.Kind != hal.ExportMemory {
		return info, rterr.Errorf(rterr.KindInvalidParam, "key %s is invalid: it names no memory export (aclrtIpcMemGetExportKey)", KeyString(k))
	}
	return info, nil
}
