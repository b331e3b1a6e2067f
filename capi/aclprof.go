package main

/*
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Collection by the aclprof calls, aclprofInit ... aclprofFinalize: the
// state CANN's profiling manager keeps for the process (whether
// aclprofInit ran and its path, aclprofSetConfig's settings, the session
// aclprofStart runs and its devices), and the rules between these calls,
// aclInit's profiling configuration and model subscriptions
// (docs/choices.md, "Profiling calls").

// profAPI is the state of the aclprof collection calls.
var profAPI struct {
	// mu guards the fields below.
	mu       sync.Mutex
	inited   bool
	path     string                         // aclprofInit's, made absolute
	settings map[C.aclprofConfigType]string // aclprofSetConfig's, kept for the process
	session  *gocann.Profiler               // the session aclprofStart started, until its devices stop
	devices  []int                          // the devices it profiles
	dataType uint64                         // its configuration's data types
}

// configuredSession reports whether r profiles by its configuration
// (aclInit's profiler section or the environment).
func configuredSession(r *gocann.Runtime) bool {
	if r == nil {
		return false
	}
	p := r.Profiling()
	return p != nil && p.Configured()
}

// collectCheck is the mode check of aclprofStart, aclprofStop and
// aclprofFinalize. profAPI.mu held.
func collectCheck(fn string, r *gocann.Runtime) error {
	switch {
	case profAPI.inited:
		return nil
	case configuredSession(r):
		return gocann.Errorf(fn, gocann.KindProfAlreadyRun, "profiling runs by aclInit's configuration or the environment; the aclprof calls cannot drive it")
	case subscribed():
		return gocann.Errorf(fn, gocann.KindProfAPIConflict, "a model is subscribed (aclprofModelSubscribe); collection calls are refused until it is unsubscribed")
	}
	return gocann.Errorf(fn, gocann.KindProfNotRun, "aclprofInit has not been called")
}

//export gocann_aclprofInit
func gocann_aclprofInit(t *C.gocann_thread, path *C.char, length C.size_t) C.aclError {
	const fn = "aclprofInit"
	if code := unsupported(t, "aclprofInit"); code != 0 {
		return code
	}
	if path == nil {
		return nullArg(t, fn, "profilerResultPath")
	}
	if length == 0 || length >= 4096 {
		return failf(t, fn, gocann.KindBadArgument, "length %d is invalid, expected 1 to 4095", length)
	}
	if n := C.strnlen(path, length+1); n != length {
		return failf(t, fn, gocann.KindBadArgument, "length %d is not the length of profilerResultPath (%d bytes), expected equal", length, n)
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	profAPI.mu.Lock()
	defer profAPI.mu.Unlock()
	switch {
	case configuredSession(r):
		return failf(t, fn, gocann.KindProfAlreadyRun, "profiling runs by aclInit's configuration or the environment; aclprofInit is refused")
	case profAPI.inited:
		return failf(t, fn, gocann.KindRepeatInit, "aclprofInit was already called (directory %s); call aclprofFinalize first", profAPI.path)
	case subscribed():
		return failf(t, fn, gocann.KindProfAPIConflict, "a model is subscribed (aclprofModelSubscribe); unsubscribe it before aclprofInit")
	}
	dir, err := filepath.Abs(C.GoStringN(path, C.int(length)))
	if err == nil {
		err = os.MkdirAll(dir, 0o750)
	}
	if err != nil {
		return failf(t, fn, gocann.KindInvalidFile, "profilerResultPath %q cannot be made a directory: %v", C.GoStringN(path, C.int(length)), err)
	}
	profAPI.inited, profAPI.path = true, dir
	return 0
}

//export gocann_aclprofFinalize
func gocann_aclprofFinalize(t *C.gocann_thread) C.aclError {
	const fn = "aclprofFinalize"
	if code := unsupported(t, "aclprofFinalize"); code != 0 {
		return code
	}
	profAPI.mu.Lock()
	defer profAPI.mu.Unlock()
	if err := collectCheck(fn, proc.runtime()); err != nil {
		return fail(t, fn, err)
	}
	var err error
	if profAPI.session != nil {
		err = profAPI.session.Stop()
	}
	profAPI.inited, profAPI.path, profAPI.session, profAPI.devices = false, "", nil, nil
	endStamps()
	return fail(t, fn, err)
}

// profTeardown forgets the collection state, as aclFinalize ends its
// session.
func profTeardown() {
	profAPI.mu.Lock()
	profAPI.inited, profAPI.path, profAPI.session, profAPI.devices = false, "", nil, nil
	profAPI.mu.Unlock()
	endStamps()
}

//export gocann_aclprofStart
func gocann_aclprofStart(t *C.gocann_thread, cfg *C.aclprofConfig) C.aclError {
	const fn = "aclprofStart"
	if code := unsupported(t, "aclprofStart"); code != 0 {
		return code
	}
	c, code := startConfig(t, fn, cfg)
	if code != 0 {
		return code
	}
	r := proc.runtime()
	profAPI.mu.Lock()
	defer profAPI.mu.Unlock()
	if err := collectCheck(fn, r); err != nil {
		return fail(t, fn, err)
	}
	if err := c.checkStart(fn, r); err != nil {
		return fail(t, fn, err)
	}
	if s := profAPI.session; s != nil {
		for _, d := range c.devices {
			if slices.Contains(profAPI.devices, d) {
				return failf(t, fn, gocann.KindProfAlreadyRun, "device %d is already being profiled (aclprofStart); stop it first", d)
			}
		}
		if c.dataType != profAPI.dataType {
			return failf(t, fn, gocann.KindInvalidProfilingConfig, "dataTypeConfig %#x differs from the running session's %#x, expected the same", c.dataType, profAPI.dataType)
		}
		devs := append(slices.Clone(profAPI.devices), c.devices...)
		if err := s.SetDevices(devs); err != nil {
			return fail(t, fn, err)
		}
		profAPI.devices = devs
		return 0
	}
	dir := profAPI.path
	if p := profAPI.settings[C.ACL_PROF_PATH]; p != "" {
		dir = p
	}
	s, err := r.StartProfiling(c.profileConfig(dir))
	if err != nil {
		return fail(t, fn, err)
	}
	profAPI.session, profAPI.devices, profAPI.dataType = s, slices.Clone(c.devices), c.dataType
	return 0
}

//export gocann_aclprofStop
func gocann_aclprofStop(t *C.gocann_thread, cfg *C.aclprofConfig) C.aclError {
	const fn = "aclprofStop"
	if code := unsupported(t, "aclprofStop"); code != 0 {
		return code
	}
	c, code := startConfig(t, fn, cfg)
	if code != 0 {
		return code
	}
	profAPI.mu.Lock()
	defer profAPI.mu.Unlock()
	if err := collectCheck(fn, proc.runtime()); err != nil {
		return fail(t, fn, err)
	}
	s := profAPI.session
	if s == nil {
		return failf(t, fn, gocann.KindProfNotRun, "no profiling session is running; call aclprofStart first")
	}
	if c.dataType != profAPI.dataType {
		return failf(t, fn, gocann.KindInvalidProfilingConfig, "dataTypeConfig %#x differs from aclprofStart's %#x, expected the configuration the session started with", c.dataType, profAPI.dataType)
	}
	left := slices.DeleteFunc(slices.Clone(profAPI.devices), func(d int) bool { return slices.Contains(c.devices, d) })
	if len(c.devices) > 0 && len(left) == len(profAPI.devices) {
		return failf(t, fn, gocann.KindProfNotRun, "devices %v are not being profiled (profiled: %v)", c.devices, profAPI.devices)
	}
	if len(left) > 0 {
		if err := s.SetDevices(left); err != nil {
			return fail(t, fn, err)
		}
		profAPI.devices = left
		return 0
	}
	profAPI.session, profAPI.devices = nil, nil
	return fail(t, fn, s.Stop())
}

// startConfig is the configuration aclprofStart or aclprofStop was given,
// with its data types checked as both check them.
func startConfig(t *C.gocann_thread, fn string, cfg *C.aclprofConfig) (*profConfig, C.aclError) {
	obj, code := profObj(t, fn, "profilerConfig", unsafe.Pointer(cfg), kindProfConfig)
	if code != 0 {
		return nil, code
	}
	c := obj.(*profConfig)
	if c.dataType == 0 {
		return nil, failf(t, fn, gocann.KindBadArgument, "the configuration's dataTypeConfig is 0, expected ACL_PROF_* bits")
	}
	if extra := c.dataType &^ profDataTypes; extra != 0 {
		return nil, failf(t, fn, gocann.KindProfModulesUnsupported, "dataTypeConfig %#x has bits %#x that name no data type, expected ACL_PROF_* bits (%#x)", c.dataType, extra, profDataTypes)
	}
	return c, 0
}
