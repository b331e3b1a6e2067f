package main

/*
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Model subscriptions from C: each subscription writes its model's
// operation records (aclprofop.go) to the pipe its configuration names,
// through the writer of that descriptor, shared by the subscriptions
// naming the same one and closed with the last of them.

// subConfig is an aclprofSubscribeConfig.
type subConfig struct {
	timeInfo bool
	metrics  int
	fd       *C.int // where the write end's descriptor is, read at subscription
}

// profSubs are the subscriptions made from C.
var profSubs struct {
	// mu guards the fields below.
	mu      sync.Mutex
	models  map[uint32]*opWriter // subscribed model -> its writer
	writers map[int]*opWriter    // descriptor -> its writer
}

// subscribed reports whether a model is subscribed.
func subscribed() bool {
	profSubs.mu.Lock()
	defer profSubs.mu.Unlock()
	return len(profSubs.models) > 0
}

//export gocann_aclprofCreateSubscribeConfig
func gocann_aclprofCreateSubscribeConfig(t *C.gocann_thread, timeInfo C.int8_t, metrics C.aclprofAicoreMetrics, fd unsafe.Pointer) *C.aclprofSubscribeConfig {
	const fn = "aclprofCreateSubscribeConfig"
	if unsupported(t, "aclprofCreateSubscribeConfig") != 0 {
		return nil
	}
	switch {
	case fd == nil:
		nullArg(t, fn, "fd")
		return nil
	case timeInfo != 0 && timeInfo != 1:
		failf(t, fn, gocann.KindBadArgument, "timeInfoSwitch %d is invalid, expected 0 or 1", timeInfo)
		return nil
	case metrics != C.ACL_AICORE_NONE && uint64(metrics) > C.ACL_AICORE_MEMORY_ACCESS: // a negative value too
		failf(t, fn, gocann.KindBadArgument, "aicoreMetrics %d is invalid, expected 0 to %d or ACL_AICORE_NONE", metrics, C.ACL_AICORE_MEMORY_ACCESS)
		return nil
	}
	h, ok := profObjs.add(kindProfSubConfig, &subConfig{timeInfo: timeInfo == 1, metrics: int(metrics), fd: (*C.int)(fd)})
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many subscription configurations created")
		return nil
	}
	return (*C.aclprofSubscribeConfig)(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclprofDestroySubscribeConfig
func gocann_aclprofDestroySubscribeConfig(t *C.gocann_thread, cfg *C.aclprofSubscribeConfig) C.aclError {
	const fn = "aclprofDestroySubscribeConfig"
	if code := unsupported(t, "aclprofDestroySubscribeConfig"); code != 0 {
		return code
	}
	if _, ok := profObjs.remove(handleOf(unsafe.Pointer(cfg)), kindProfSubConfig); !ok {
		return fail(t, fn, profObjError(fn, "profSubscribeConfig", unsafe.Pointer(cfg), kindProfSubConfig))
	}
	return 0
}

// subscribeCheck is the mode check of the subscription calls.
func subscribeCheck(fn string, r *gocann.Runtime) error {
	profAPI.mu.Lock()
	defer profAPI.mu.Unlock()
	switch {
	case profAPI.inited:
		return gocann.Errorf(fn, gocann.KindProfAPIConflict, "aclprofInit was called; subscription calls are refused until aclprofFinalize")
	case configuredSession(r):
		return gocann.Errorf(fn, gocann.KindProfAlreadyRun, "profiling runs by aclInit's configuration or the environment; model subscription is refused")
	}
	return nil
}

//export gocann_aclprofModelSubscribe
func gocann_aclprofModelSubscribe(t *C.gocann_thread, model C.uint32_t, cfg *C.aclprofSubscribeConfig) C.aclError {
	const fn = "aclprofModelSubscribe"
	if code := unsupported(t, "aclprofModelSubscribe"); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	if !r.ModelExists(uint32(model)) {
		return failf(t, fn, gocann.KindInvalidModelID, "modelId %d is invalid, expected the id of a model run instance or of a registered model", model)
	}
	obj, code := profObj(t, fn, "profSubscribeConfig", unsafe.Pointer(cfg), kindProfSubConfig)
	if code != 0 {
		return code
	}
	c := obj.(*subConfig)
	if err := subscribeCheck(fn, r); err != nil {
		return fail(t, fn, err)
	}
	fd := int(*c.fd)
	switch fdWritable(fd) {
	case -1:
		return failf(t, fn, gocann.KindBadArgument, "*fd %d is not an open file descriptor, expected the write end of a pipe", fd)
	case 0:
		return failf(t, fn, gocann.KindBadArgument, "*fd %d is open read-only, expected the write end of a pipe", fd)
	}
	// The subscription is recorded first (subscribed() answers for it) and
	// undone if the runtime refuses it; profSubs.mu is not held across the
	// runtime's call, whose unsubscriptions call back into endSubscription.
	profSubs.mu.Lock()
	if profSubs.models == nil {
		profSubs.models, profSubs.writers = map[uint32]*opWriter{}, map[int]*opWriter{}
	}
	if _, dup := profSubs.models[uint32(model)]; dup {
		profSubs.mu.Unlock()
		return failf(t, fn, gocann.KindProfRepeatSubscribe, "model %d is already subscribed; unsubscribe it first", model)
	}
	w := profSubs.writers[fd]
	if w == nil {
		w = newOpWriter(fd)
		profSubs.writers[fd] = w
	} else {
		w.retain()
	}
	profSubs.models[uint32(model)] = w
	profSubs.mu.Unlock()
	sub := gocann.ModelSubscription{TimeInfo: c.timeInfo, Metrics: c.metrics,
		Ops:  func(ops []gocann.OpRecord) { w.add(encodeOps(ops)) },
		Done: func() { endSubscription(uint32(model), fd, w) }}
	if err := r.SubscribeModel(uint32(model), sub); err != nil {
		profSubs.mu.Lock()
		delete(profSubs.models, uint32(model))
		if w.abandon() && profSubs.writers[fd] == w {
			delete(profSubs.writers, fd)
		}
		profSubs.mu.Unlock()
		return fail(t, fn, err)
	}
	return 0
}

// endSubscription forgets model's subscription, which wrote to fd through
// w, and lets the writer finish; the last subscription of fd has it
// closed.
func endSubscription(model uint32, fd int, w *opWriter) {
	profSubs.mu.Lock()
	delete(profSubs.models, model)
	if w.lastRef() && profSubs.writers[fd] == w {
		delete(profSubs.writers, fd)
	}
	profSubs.mu.Unlock()
	w.release()
}

//export gocann_aclprofModelUnSubscribe
func gocann_aclprofModelUnSubscribe(t *C.gocann_thread, model C.uint32_t) C.aclError {
	const fn = "aclprofModelUnSubscribe"
	if code := unsupported(t, "aclprofModelUnSubscribe"); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	if err := subscribeCheck(fn, r); err != nil {
		return fail(t, fn, err)
	}
	return fail(t, fn, r.UnsubscribeModel(uint32(model)))
}
