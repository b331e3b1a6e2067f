package gocann

import (
	"errors"
	"strconv"

	"github.com/gocann/gocann/internal/rterr"
)

// RegisterType names the component an init or finalize callback belongs
// to, with the CANN values; it decides when Init and Finalize call it.
//
// CANN: aclRegisterCallbackType.
type RegisterType int32

// The component types.
const (
	RegModel       RegisterType = 0      // ACL_REG_TYPE_ACL_MODEL
	RegOpExecutor  RegisterType = 1      // ACL_REG_TYPE_ACL_OP_EXECUTOR
	RegOpCBLAS     RegisterType = 2      // ACL_REG_TYPE_ACL_OP_CBLAS
	RegOpCompiler  RegisterType = 3      // ACL_REG_TYPE_ACL_OP_COMPILER
	RegTDTChannel  RegisterType = 4      // ACL_REG_TYPE_ACL_TDT_CHANNEL
	RegTDTQueue    RegisterType = 5      // ACL_REG_TYPE_ACL_TDT_QUEUE
	RegDVPP        RegisterType = 6      // ACL_REG_TYPE_ACL_DVPP
	RegRetr        RegisterType = 7      // ACL_REG_TYPE_ACL_RETR
	RegOther       RegisterType = 0xFFFF // ACL_REG_TYPE_OTHER: any number of callbacks
	initOrderCount              = 4
)

// initOrder is the types Init calls, in order (RegOpExecutor only when a
// configuration was given); finalizeOrder those Finalize calls. Callbacks
// of the other types are kept but never called, as in CANN.
func initOrder() [initOrderCount]RegisterType {
	return [...]RegisterType{RegModel, RegOpExecutor, RegDVPP, RegOther}
}

func finalizeOrder() [initOrderCount]RegisterType {
	return [...]RegisterType{RegOpCompiler, RegModel, RegDVPP, RegOther}
}

// InitCallback is called by Init with the configuration text as given
// (empty for none); an error fails Init with the error's code.
type InitCallback func(config string) error

// FinalizeCallback is called by Finalize; an error fails Finalize with the
// error's code, leaving the runtime initialized.
type FinalizeCallback func() error

// hook is one registered callback; key identifies it for unregistering (a
// C function's address).
type hook[F any] struct {
	typ RegisterType
	key uintptr
	fn  F
}

// hooks is one list of callbacks, in registration order.
type hooks[F any] []hook[F]

// add registers fn: one per type, any number of RegOther.
func (h *hooks[F]) add(op string, typ RegisterType, key uintptr, fn F, isNil bool) error {
	if key == 0 || isNil {
		return Errorf(op, KindBadArgument, "cbFunc is NULL, expected a callback")
	}
	if typ != RegOther {
		for _, e := range *h {
			if e.typ == typ {
				return Errorf(op, rterr.KindACLInternal, "a callback of type %d is already registered; unregister it first (only ACL_REG_TYPE_OTHER takes several)", typ)
			}
		}
	}
	*h = append(*h, hook[F]{typ, key, fn})
	return nil
}

// remove unregisters the first callback of typ with key.
func (h *hooks[F]) remove(op string, typ RegisterType, key uintptr) error {
	if key == 0 {
		return Errorf(op, KindBadArgument, "cbFunc is NULL, expected a registered callback")
	}
	for i, e := range *h {
		if e.typ == typ && e.key == key {
			*h = append((*h)[:i:i], (*h)[i+1:]...)
			return nil
		}
	}
	return Errorf(op, rterr.KindACLInternal, "callback %#x is not registered with type %d", key, typ)
}

// of lists the callbacks of typ, in order.
func (h hooks[F]) of(typ RegisterType) []F {
	var out []F
	for _, e := range h {
		if e.typ == typ {
			out = append(out, e.fn)
		}
	}
	return out
}

// RegisterInitCallback registers fn for component typ, identified by key
// (non-zero; C passes the function's address) for
// UnregisterInitCallback. If the runtime is initialized, fn is called at
// once with its configuration, its result ignored; otherwise the next Init
// calls it. Types other than RegOther take one callback each: a second
// fails with ACL_ERROR_INTERNAL_ERROR, as a nil fn or zero key fails with
// ACL_ERROR_INVALID_PARAM.
//
// CANN: aclInitCallbackRegister.
func (r *Runtime) RegisterInitCallback(typ RegisterType, key uintptr, fn InitCallback) error {
	if err := r.require("aclInitCallbackRegister"); err != nil {
		return err
	}
	const op = "Runtime.RegisterInitCallback (aclInitCallbackRegister)"
	r.mu.Lock()
	err := r.initHooks.add(op, typ, key, fn, fn == nil)
	r.mu.Unlock()
	if err != nil {
		return err
	}
	if r.rt.Initialized() {
		_ = fn(r.rt.Config().Text)
	}
	return nil
}

// UnregisterInitCallback removes the init callback registered with typ
// and key; one not registered fails with ACL_ERROR_INTERNAL_ERROR.
//
// CANN: aclInitCallbackUnRegister.
func (r *Runtime) UnregisterInitCallback(typ RegisterType, key uintptr) error {
	if err := r.require("aclInitCallbackUnRegister"); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.initHooks.remove("Runtime.UnregisterInitCallback (aclInitCallbackUnRegister)", typ, key)
}

// RegisterFinalizeCallback registers fn, called by the Finalize that ends
// the initialization, under the rules of RegisterInitCallback.
//
// CANN: aclFinalizeCallbackRegister.
func (r *Runtime) RegisterFinalizeCallback(typ RegisterType, key uintptr, fn FinalizeCallback) error {
	if err := r.require("aclFinalizeCallbackRegister"); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finHooks.add("Runtime.RegisterFinalizeCallback (aclFinalizeCallbackRegister)", typ, key, fn, fn == nil)
}

// UnregisterFinalizeCallback removes the finalize callback registered with
// typ and key; one not registered fails with ACL_ERROR_INTERNAL_ERROR.
//
// CANN: aclFinalizeCallbackUnRegister.
func (r *Runtime) UnregisterFinalizeCallback(typ RegisterType, key uintptr) error {
	if err := r.require("aclFinalizeCallbackUnRegister"); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finHooks.remove("Runtime.UnregisterFinalizeCallback (aclFinalizeCallbackUnRegister)", typ, key)
}

// NotifyInit calls the init callbacks as Init does once the runtime is up;
// the first error stops it. The C ABI, which initializes under a lock of
// its own, calls it after releasing that lock, so that callbacks may call
// the runtime.
//
// CANN: aclInit (init callbacks).
func (x RawRuntime) NotifyInit() error {
	r := x.r
	cfg := r.rt.Config()
	for _, typ := range initOrder() {
		if typ == RegOpExecutor && !cfg.Given {
			continue
		}
		r.mu.Lock()
		fns := r.initHooks.of(typ)
		r.mu.Unlock()
		for _, fn := range fns {
			if err := fn(cfg.Text); err != nil {
				return callbackError("aclInit", typ, err)
			}
		}
	}
	return nil
}

// NotifyFinalize calls the finalize callbacks as Finalize does before
// taking the runtime down; the first error stops it.
//
// CANN: aclFinalize (finalize callbacks).
func (x RawRuntime) NotifyFinalize() error {
	r := x.r
	for _, typ := range finalizeOrder() {
		r.mu.Lock()
		fns := r.finHooks.of(typ)
		r.mu.Unlock()
		for _, fn := range fns {
			if err := fn(); err != nil {
				return callbackError("aclFinalize", typ, err)
			}
		}
	}
	return nil
}

// callbackError is a callback's failure as the call it fails returns it:
// the callback's own code.
func callbackError(op string, typ RegisterType, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeOf(err), Op: op, Msg: "a callback of type " + strconv.Itoa(int(typ)) + " failed: " + err.Error(), Err: err, kind: rterr.KindInternal}
}
