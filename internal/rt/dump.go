package rt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// dumpState is the data dump: turned on by aclInit's "dump" section, or
// by aclmdlInitDump, aclmdlSetDump and ended by aclmdlFinalizeDump.
//
// With a tensor dump on, every kernel launched on a stream (not captured
// into a model) is followed by a host task of its stream that writes each
// of its pointer arguments' allocations to a file (dumpFile names it); in
// input or all mode the bytes are also taken by a host task just before
// the kernel.
type dumpState struct {
	// on is the dump in force, nil for none; read on every launch.
	on atomic.Pointer[config.Dump]

	// mu guards the fields below.
	mu       sync.Mutex
	inited   bool  // aclmdlInitDump called, aclmdlFinalizeDump not yet
	fromInit bool  // aclInit's configuration turned dumping on
	failed   error // the first file that could not be written
}

// reset puts the dump in the state aclInit with cfg leaves it.
func (r *Runtime) resetDump(cfg *config.Dump) {
	d := &r.dump
	d.mu.Lock()
	d.inited, d.fromInit, d.failed = false, cfg != nil, nil
	d.on.Store(cfg)
	d.mu.Unlock()
}

// InitDump starts a dump session (aclmdlInitDump).
func (r *Runtime) InitDump() error {
	if !r.Initialized() {
		return rterr.Errorf(rterr.KindUninitialized, "aclInit must be called before aclmdlInitDump")
	}
	d := &r.dump
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.inited:
		return rterr.Errorf(rterr.KindRepeatInit, "aclmdlInitDump was already called; call aclmdlFinalizeDump first")
	case d.fromInit:
		return rterr.Errorf(rterr.KindDumpAlreadyRun, "the aclInit configuration already turned dumping on (its dump section); aclmdlInitDump cannot start another")
	}
	d.inited, d.failed = true, nil
	return nil
}

// SetDump applies the dump configuration in the JSON file at path
// (aclmdlSetDump); a later call replaces it. A file with no "dump"
// section, or one turning nothing on, turns dumping off.
func (r *Runtime) SetDump(path string) error {
	if !r.Initialized() {
		return rterr.Errorf(rterr.KindUninitialized, "aclInit must be called before aclmdlSetDump")
	}
	d := &r.dump
	d.mu.Lock()
	inited := d.inited
	d.mu.Unlock()
	if !inited {
		return rterr.Errorf(rterr.KindDumpNotRun, "aclmdlInitDump must be called before aclmdlSetDump")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		reason := "cannot be read"
		if errors.Is(err, fs.ErrNotExist) {
			reason = "does not exist"
		}
		return rterr.Wrap(rterr.KindInvalidFile, err, "dumpCfgPath %s is invalid: the file %s", path, reason)
	}
	if len(data) == 0 {
		return nil // CANN takes an empty file as no change
	}
	if err := config.CheckNesting(data); err != nil {
		return err
	}
	cfg, err := config.ParseDump(data)
	if err != nil {
		return err
	}
	d.mu.Lock()
	if !d.inited {
		d.mu.Unlock()
		return rterr.Errorf(rterr.KindDumpNotRun, "aclmdlFinalizeDump ended the dump session during aclmdlSetDump")
	}
	d.on.Store(cfg)
	d.mu.Unlock()
	r.refreshDirect()
	return nil
}

// FinalizeDump ends the dump session (aclmdlFinalizeDump). Dump tasks
// already queued still write their files; the first file that could not
// be written since aclmdlInitDump is reported here (an argument freed
// before its task's dump ran is skipped, not an error).
func (r *Runtime) FinalizeDump() error {
	if !r.Initialized() {
		return rterr.Errorf(rterr.KindUninitialized, "aclInit must be called before aclmdlFinalizeDump")
	}
	d := &r.dump
	d.mu.Lock()
	if !d.inited {
		d.mu.Unlock()
		return rterr.Errorf(rterr.KindDumpNotRun, "aclmdlInitDump must be called before aclmdlFinalizeDump")
	}
	d.inited = false
	d.on.Store(nil)
	failed := d.failed
	d.failed = nil
	d.mu.Unlock()
	r.refreshDirect()
	if failed != nil {
		return rterr.Wrap(rterr.KindACLInternal, failed, "a dump file could not be written")
	}
	return nil
}

// Dump returns the dump in force, nil for none.
func (r *Runtime) Dump() *config.Dump { return r.dump.on.Load() }

// refreshDirect has every stream take direct launches only while no dump
// is on (those would bypass the dump tasks), after the dump changed.
func (r *Runtime) refreshDirect() {
	r.mu.Lock()
	devices := r.devices
	r.mu.Unlock()
	for _, dev := range devices {
		dev.refreshDirect()
	}
}

// dumpTarget returns the dump a kernel launch of k on s is written under,
// nil if none.
func (s *Stream) dumpTarget(k *kernel.Func) *config.Dump {
	d := s.c.d.r.dump.on.Load()
	if d == nil || s.persistent || s.diverted() || !d.Wants(k.Name) {
		return nil
	}
	return d
}

// dumpJob is one dumped kernel task.
type dumpJob struct {
	s      *Stream
	d      *config.Dump
	t      hal.Task // the kernel task as submitted
	seq    uint64   // its sequence number on the stream, set before finish is queued
	inputs [][]byte // input bytes by argument slot, nil where no allocation
}

// submitDumped queues kernel task t between the dump's host tasks.
func (s *Stream) submitDumped(d *config.Dump, t *hal.Task) error {
	j := &dumpJob{s: s, d: d, t: *t}
	if d.Input() {
		if _, err := s.submit(&hal.Task{Kind: hal.TaskHostFunc, Host: j.takeInputs, Site: t.Site}); err != nil {
			return err
		}
	}
	seq, err := s.submit(t)
	if err != nil {
		return err
	}
	j.seq = seq
	_, err = s.submit(&hal.Task{Kind: hal.TaskHostFunc, Host: j.finish, Site: t.Site})
	return err
}

// slots returns the task's argument slots, read from device memory for a
// launch with an argument block there.
func (j *dumpJob) slots() []uint64 {
	n := int(j.t.NArgs)
	if j.t.ArgsDev == 0 {
		return j.t.Args[:n]
	}
	out := make([]uint64, n)
	if n > 0 {
		buf, err := j.s.c.readDevice(j.t.ArgsDev, uint64(8*n))
		if err != nil {
			return nil // the argument block is gone: no argument to dump
		}
		for i := range out {
			for b := 7; b >= 0; b-- {
				out[i] = out[i]<<8 | uint64(buf[8*i+b])
			}
		}
	}
	return out
}

// argBytes reads the allocation of each pointer slot.
func (j *dumpJob) argBytes() [][]byte {
	c := j.s.c
	b, err := c.backend()
	if err != nil {
		return nil
	}
	slots := j.slots()
	out := make([][]byte, len(slots))
	for i, v := range slots {
		a, ok := c.d.r.lookup(b, v)
		if !ok || a.Host || a.Device != c.d.id {
			continue
		}
		data, err := c.readDevice(a.Addr, a.Size)
		if err != nil {
			// Freed (or its device closed) since the lookup: an argument
			// that is no longer there has nothing to dump.
			c.d.r.log.Debug("dump argument gone", "arg", i, "err", err)
			continue
		}
		out[i] = data
	}
	return out
}

func (j *dumpJob) takeInputs() { j.inputs = j.argBytes() }

func (j *dumpJob) finish() {
	r := j.s.c.d.r
	if j.d.Input() {
		j.write("input", j.inputs)
	}
	if j.d.Output() {
		j.write("output", j.argBytes())
	}
	r.log.Debug("dumped kernel task", "kernel", j.t.Kernel.Name, "stream", j.s.id, "task", j.seq)
}

func (j *dumpJob) write(end string, args [][]byte) {
	for i, data := range args {
		if data == nil {
			continue
		}
		name := filepath.Join(j.d.Path, DumpFile(j.s.c.d.id, j.s.id, j.seq, j.t.Kernel.Name, i, end))
		if err := os.WriteFile(name, data, 0o640); err != nil {
			j.s.c.d.r.dumpFailed(err)
		}
	}
}

func (r *Runtime) dumpFailed(err error) {
	r.log.Warn("dump file not written", "err", err)
	r.dump.mu.Lock()
	if r.dump.failed == nil {
		r.dump.failed = err
	}
	r.dump.mu.Unlock()
}

// DumpFile is the name, under dump_path, of the file holding argument arg
// of the kernel task numbered seq on stream of device dev, as it was
// before the kernel ran (end "input") or after (end "output"). Characters
// of the kernel name other than letters, digits, '_', '-' and '.' become
// '_'.
func DumpFile(dev int, stream int32, seq uint64, kernel string, arg int, end string) string {
	safe := strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
			return c
		}
		return '_'
	}, kernel)
	return fmt.Sprintf("device%d.stream%d.task%d.%s.arg%d.%s.bin", dev, stream, seq, safe, arg, end)
}
