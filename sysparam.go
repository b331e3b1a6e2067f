package gocann

import "github.com/gocann/gocann/internal/rt"

// SysParamOpt is a system parameter option, with the CANN values.
//
// The simulator records the values and reads them back; none changes what
// it does: ACL_OPT_DETERMINISTIC selects among operator implementations,
// and the simulator runs only the caller's own kernels; it checks
// every device access of a kernel against the allocations whatever
// ACL_OPT_ENABLE_DEBUG_KERNEL says, and it starts a kernel once the task
// before it is done (ACL_OPT_ENABLE_KERNEL_EARLY_START is recorded only).
//
// CANN: aclSysParamOpt.
type SysParamOpt int32

// The options. Values: SysDeterministic 0 (off) to 3 (batch consistency);
// the others 0 or 1.
const (
	SysDeterministic          SysParamOpt = SysParamOpt(rt.SysDeterministic)          // ACL_OPT_DETERMINISTIC
	SysEnableDebugKernel      SysParamOpt = SysParamOpt(rt.SysEnableDebugKernel)      // ACL_OPT_ENABLE_DEBUG_KERNEL
	SysStrongConsistency      SysParamOpt = SysParamOpt(rt.SysStrongConsistency)      // ACL_OPT_STRONG_CONSISTENCY (deprecated)
	SysEnableKernelEarlyStart SysParamOpt = SysParamOpt(rt.SysEnableKernelEarlyStart) // ACL_OPT_ENABLE_KERNEL_EARLY_START (process only)
)

// SetSysParam sets opt for the process. An option other than the four
// fails with ACL_ERROR_INVALID_PARAM, a value out of its range with
// ACL_ERROR_RT_PARAM_INVALID. The runtime need not be initialized, and the
// value outlives Finalize, as in CANN.
//
// CANN: aclrtSetSysParamOpt.
func (r *Runtime) SetSysParam(opt SysParamOpt, value int64) error {
	if err := r.require("aclrtSetSysParamOpt"); err != nil {
		return err
	}
	return wrap("Runtime.SetSysParam (aclrtSetSysParamOpt)", r.rt.SetSysParam(rt.SysParam(opt), value))
}

// SysParam returns opt's value for the process: the last set, by
// SetSysParam or Context.SetSysParam, else 0.
//
// CANN: aclrtGetSysParamOpt.
func (r *Runtime) SysParam(opt SysParamOpt) (int64, error) {
	if err := r.require("aclrtGetSysParamOpt"); err != nil {
		return 0, err
	}
	v, err := r.rt.SysParam(rt.SysParam(opt))
	return v, wrap("Runtime.SysParam (aclrtGetSysParamOpt)", err)
}

// SetSysParam sets opt for the context, and, as CANN's runtime does, for
// the process too. SysEnableKernelEarlyStart, a process option, fails
// with ACL_ERROR_INVALID_PARAM; a value out of range with
// ACL_ERROR_RT_PARAM_INVALID.
//
// CANN: aclrtCtxSetSysParamOpt.
func (c *Context) SetSysParam(opt SysParamOpt, value int64) error {
	if err := c.r.require("aclrtCtxSetSysParamOpt"); err != nil {
		return err
	}
	return wrap("Context.SetSysParam (aclrtCtxSetSysParamOpt)", c.c.SetSysParam(rt.SysParam(opt), value))
}

// SysParam returns opt's value for the context; an option never set on it
// fails with ACL_ERROR_RT_SYSPARAMOPT_NOT_SET (a context has no defaults).
//
// CANN: aclrtCtxGetSysParamOpt.
func (c *Context) SysParam(opt SysParamOpt) (int64, error) {
	if err := c.r.require("aclrtCtxGetSysParamOpt"); err != nil {
		return 0, err
	}
	v, err := c.c.SysParam(rt.SysParam(opt))
	return v, wrap("Context.SysParam (aclrtCtxGetSysParamOpt)", err)
}

// CheckContextSysParam checks that opt is an option a context takes, as
// CANN does before it looks for the current context: another fails with
// ACL_ERROR_INVALID_PARAM.
//
// CANN: aclrtCtxSetSysParamOpt / aclrtCtxGetSysParamOpt (option check).
func CheckContextSysParam(op string, opt SysParamOpt) error {
	return wrap(op, rt.CheckSysParam(rt.SysParam(opt), true))
}
