package shared

import (
	"sync/atomic"
	"unsafe"
)

// The table's dimensions. They are part of the layout: changing one
// changes layoutVersion, so processes built differently never share a file.
const (
	MaxSlots   = 128  // processes attached at once
	MaxDevices = 64   // physical devices of a machine
	MaxExports = 4096 // live exports of all processes
	MaxPids    = 64   // whitelist entries of one export
	MaxImports = 8    // importers of one notify whose exit a waiter notices
	KeySize    = 32   // random bytes of an export key
)

const (
	magic         = 0x31306e6e61636f67 // "gocann01"
	layoutVersion = 3
)

// table is the file's content.
type table struct {
	magic   uint64
	version uint64
	size    uint64 // unsafe.Sizeof(table{}) of the writer
	devs    [MaxDevices]devWords
	slots   [MaxSlots]slotWords
	exports [MaxExports]entry
}

// devWords is one physical device. The first process to use it fixes its
// capacity; one configured with another capacity keeps its own accounting
// for it.
type devWords struct {
	hbm atomic.Uint64
}

// slotWords is one attached process. state is the slot's generation while
// it is live (odd) or was left (even).
type slotWords struct {
	state atomic.Uint64
	pid   atomic.Int32
	bell  atomic.Uint32 // doorbell: bumped by importers signalling this process
	sleep atomic.Uint32 // 1 while the watcher sleeps on bell: only then is a ring a futex wake
	used  [MaxDevices]atomic.Uint64
}

// Entry states.
const (
	entryFree uint32 = iota
	entryBusy
	entryLive
)

// Kind is what an export is.
type Kind uint32

const (
	KindMemory   Kind = 1 + iota // a range of device memory (aclrtIpcMemGetExportKey)
	KindPhysical                 // a physical allocation (aclrtMemExportToShareableHandle)
	KindEvent                    // an event (aclrtIpcGetEventHandle)
	KindNotify                   // a notify (aclrtNotifyGetExportKey)
)

// entry is one export. gen moves at every change of state, so a reader can
// tell a consistent copy from one torn by a close and a new export.
type entry struct {
	state atomic.Uint32
	gen   atomic.Uint32
	fields
	// Signal words, written by either side.
	pending atomic.Uint64 // notify: records not yet delivered
	subm    atomic.Uint64 // event: last record submitted
	done    atomic.Uint64 // event: last record completed
	seq     atomic.Uint32 // event: futex word, bumped on every completion
	npids   atomic.Uint32
	pids    [MaxPids]atomic.Int32
	imports [MaxImports]importer
}

// importer is a process that imported a notify: slot+1 (0: none), the
// slot's generation then, and its pid.
type importer struct {
	slot atomic.Int32
	gen  atomic.Uint64
	pid  atomic.Int32
}

// fields are an export's description, written once by its exporter while
// the entry is busy.
type fields struct {
	Kind     Kind
	Flags    uint32 // FlagNoPidCheck, ...
	Key      [KeySize]byte
	Slot     uint32 // exporting slot
	SlotGen  uint64 // its generation when it exported
	Pid      int32  // exporter's pid
	Device   int32  // physical device of the memory, event or notify
	FD       int32  // memory file descriptor in the exporter
	Local    uint32 // exporter's own number for the object
	Off      uint64 // offset in the memory file
	Size     uint64 // bytes
	PageSize uint64
}

// Export flags.
const (
	FlagNoPidCheck uint32 = 1 << iota // any process may import
	FlagPeer                          // reserved for importers on other devices
)

var tableSize = int(unsafe.Sizeof(table{}))

// tableAt views the mapping as the table.
func tableAt(mem []byte) *table { return (*table)(unsafe.Pointer(&mem[0])) }

// word returns the address of a futex word.
func word(p *atomic.Uint32) *uint32 { return (*uint32)(unsafe.Pointer(p)) }
