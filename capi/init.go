package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "thread.h"

// soc_name_keep returns a copy of name[0:n] that stays valid for the
// process: callers of aclrtGetSocName may hold any string it returned, and
// the chip changes with each aclInit's configuration. Each distinct name
// is copied once and kept in a list held by this library, so none is lost
// (nor reported as a leak). Called under the core's process lock.
static const char *soc_name_keep(const char *name, size_t n) {
	static char **names;
	static size_t count, cap;
	for (size_t i = 0; i < count; i++) {
		if (strlen(names[i]) == n && memcmp(names[i], name, n) == 0) {
			return names[i];
		}
	}
	if (count == cap) {
		size_t more = cap ? 2 * cap : 4;
		char **grown = realloc(names, more * sizeof *grown);
		if (grown == NULL) {
			return NULL;
		}
		names = grown;
		cap = more;
	}
	char *copy = malloc(n + 1);
	if (copy == NULL) {
		return NULL;
	}
	memcpy(copy, name, n);
	copy[n] = 0;
	names[count++] = copy;
	return copy;
}
*/
import "C"

import (
	"os"
	"unsafe"

	"github.com/gocann/gocann"
)

// socEnv names the simulated chip for programs that cannot say so in their
// aclInit configuration: its value is a SoC name, as the "simulator"
// section's soc_name (which wins when both are given).
const socEnv = "GOCANN_SOC_NAME"

//export gocann_aclInit
func gocann_aclInit(t *C.gocann_thread, configPath *C.char) C.aclError {
	const fn = "aclInit"
	path := ""
	if configPath != nil {
		path = C.GoString(configPath)
	}
	// fail takes proc.mu (to read err_msg_mode), so errors are recorded
	// after it is released.
	fresh, err := initRuntime(path)
	if err != nil {
		return fail(t, fn, err)
	}
	if !fresh {
		return 0 // it took over aclrtSetDevice's start, whose callbacks ran
	}
	// The init callbacks run without proc.mu, so they may call the API;
	// one failing undoes the initialization, finalize callbacks not run.
	if err := proc.r.Raw().NotifyInit(); err != nil {
		teardown(t)
		return fail(t, fn, err)
	}
	return 0
}

// initRuntime is aclInit under proc.mu; fresh says it started the runtime.
func initRuntime(path string) (fresh bool, err error) {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if proc.implicit {
		// The first aclInit takes over the reference of the start
		// aclrtSetDevice made; a configuration comes too late.
		proc.implicit = false
		if path != "" {
			return false, gocann.Errorf("aclInit", gocann.KindRepeatInit,
				"the runtime was already started, without a configuration, by aclrtSetDevice before aclInit; %s was not applied (call aclInit before any other call to configure the runtime)", path)
		}
		return false, nil
	}
	if proc.inits > 0 {
		// CANN counts every aclInit; aclFinalizeReference undoes one.
		proc.inits++
		return false, gocann.Errorf("aclInit", gocann.KindRepeatInit, "aclInit was already called; this call only adds a reference")
	}
	return true, startLocked(path)
}

// startImplicitly starts the runtime as aclInit(NULL) would, if it is not
// running: CANN's runtime layer needs no aclInit before aclrtSetDevice,
// and programs (the Ascend C devkit's among them) set a device without
// one. The start counts as one aclInit reference: aclFinalize ends it, and
// the first aclInit takes it over.
func startImplicitly() error {
	proc.mu.Lock()
	if proc.inits > 0 {
		proc.mu.Unlock()
		return nil
	}
	err := startLocked("")
	if err == nil {
		proc.implicit = true
	}
	proc.mu.Unlock()
	if err != nil {
		return err
	}
	return proc.r.Raw().NotifyInit()
}

// startLocked initializes the runtime with the configuration at path;
// proc.mu held.
func startLocked(path string) error {
	if proc.r == nil {
		proc.r = newRuntime()
	}
	c, err := gocann.LoadConfig(path)
	if err != nil {
		return err
	}
	if c.Simulator.SoCName == "" {
		c.Simulator.SoCName = os.Getenv(socEnv)
	}
	if err := machineFromEnv(&c); err != nil {
		return err
	}
	if err := proc.r.Raw().InitCore(c); err != nil {
		return err
	}
	proc.inits = 1
	proc.cfg = proc.r.Config()
	startProfile()
	return nil
}

//export gocann_aclFinalize
func gocann_aclFinalize(t *C.gocann_thread) C.aclError {
	return finalize(t, "aclFinalize", true, nil)
}

//export gocann_aclFinalizeReference
func gocann_aclFinalizeReference(t *C.gocann_thread, refCount *C.uint64_t) C.aclError {
	if code := unsupported(t, "aclFinalizeReference"); code != 0 {
		return code
	}
	return finalize(t, "aclFinalizeReference", false, refCount)
}

// finalize drops one aclInit reference, or all of them, and ends the runtime
// when none is left.
func finalize(t *C.gocann_thread, fn string, all bool, refCount *C.uint64_t) C.aclError {
	proc.mu.Lock()
	if proc.inits == 0 {
		proc.mu.Unlock()
		return failf(t, fn, gocann.KindRepeatFinalize, "the runtime is not initialized; %s without a matching aclInit", fn)
	}
	left := proc.inits - 1
	if all {
		left = 0
	}
	if left > 0 {
		proc.inits = left
		if refCount != nil {
			*refCount = C.uint64_t(left)
		}
		proc.mu.Unlock()
		return 0
	}
	r := proc.r
	proc.mu.Unlock()
	// The finalize callbacks run first, without proc.mu; one failing fails
	// the call and leaves the runtime initialized, its count unchanged.
	if err := r.Raw().NotifyFinalize(); err != nil {
		if refCount != nil {
			*refCount = C.uint64_t(proc.runtimeInits())
		}
		return fail(t, fn, err)
	}
	if refCount != nil {
		*refCount = 0
	}
	return fail(t, fn, teardown(t))
}

// runtimeInits is the number of aclInit calls not yet finalized.
func (p *process) runtimeInits() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inits
}

// teardown ends the initialization: every handle, then the runtime,
// without the finalize callbacks.
func teardown(t *C.gocann_thread) error {
	proc.mu.Lock()
	proc.inits = 0
	proc.implicit = false
	defaults := proc.defaults
	proc.defaults = nil
	proc.msgs = nil // process-wide messages belong to this initialization
	r := proc.r
	proc.mu.Unlock()
	for _, c := range defaults {
		c.release()
	}
	// Explicit contexts, streams, events, binaries and the rest end with
	// the runtime too.
	proc.handles.clear()
	proc.fronts.Clear()
	userLists.Clear()
	t.device, t.context = -1, 0
	err := r.Raw().FinalizeCore()
	profTeardown()
	stopProfile()
	return err
}

// socName is the simulated chip's SoC name; before aclInit, that of the
// chip aclInit would simulate without a configuration, as CANN answers
// before aclInit too.
func socName() string {
	if r := proc.runtime(); r != nil {
		if d, err := r.Device(0); err == nil {
			return d.SoCName()
		}
	}
	return gocann.DefaultSoCName(os.Getenv(socEnv))
}

// unsupported is the product support check of the functions the C ABI
// implements without a Go method: 0 if the simulated chip offers fn, else
// the error's code, recorded as the call's (TestRequireCalled keeps it
// called).
func unsupported(t *C.gocann_thread, fn string) C.aclError {
	return fail(t, fn, gocann.CheckSupport(socName(), fn))
}

//export gocann_aclrtGetSocName
func gocann_aclrtGetSocName(t *C.gocann_thread) *C.char {
	if unsupported(t, "aclrtGetSocName") != 0 {
		return nil
	}
	name := socName()
	proc.mu.Lock()
	defer proc.mu.Unlock()
	// C reads the name's bytes, Go memory without pointers, during the
	// call only.
	return (*C.char)(unsafe.Pointer(C.soc_name_keep((*C.char)(unsafe.Pointer(unsafe.StringData(name))), C.size_t(len(name)))))
}

//export gocann_aclGetDeviceCapability
func gocann_aclGetDeviceCapability(t *C.gocann_thread, deviceID C.uint32_t, info C.aclDeviceInfo, value *C.int64_t) C.aclError {
	const fn = "aclGetDeviceCapability"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	d, err := r.Device(int(deviceID))
	if err != nil {
		return fail(t, fn, err)
	}
	// The chip's figures, as aclrtGetDeviceInfo reads them; read here, not
	// through it: IPV350 offers this function but not that one.
	p := d.Props()
	switch info {
	case C.ACL_DEVICE_INFO_AI_CORE_NUM:
		*value = C.int64_t(p.AICores)
	case C.ACL_DEVICE_INFO_VECTOR_CORE_NUM:
		*value = C.int64_t(p.VectorCores)
	case C.ACL_DEVICE_INFO_L2_SIZE:
		*value = C.int64_t(p.L2Size)
	default:
		return failf(t, fn, gocann.KindInvalidParam, "deviceInfo %d is invalid, expected ACL_DEVICE_INFO_AI_CORE_NUM (0), _VECTOR_CORE_NUM (1) or _L2_SIZE (2)", info)
	}
	return 0
}
