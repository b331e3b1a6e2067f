package rt

import (
	"sync"

	"github.com/gocann/gocann/internal/rterr"
)

// SysParam is a system parameter option (aclSysParamOpt), with the CANN
// values.
type SysParam int32

const (
	SysDeterministic          SysParam = 0 // 0 off, 1 deterministic, 2 strong consistency, 3 batch consistency
	SysEnableDebugKernel      SysParam = 1 // 0 or 1: check kernels' global memory accesses
	SysStrongConsistency      SysParam = 2 // 0 or 1 (deprecated: SysDeterministic 2)
	SysEnableKernelEarlyStart SysParam = 3 // 0 or 1, per process only
	numSysParams                       = 4
)

func (o SysParam) String() string {
	switch o {
	case SysDeterministic:
		return "ACL_OPT_DETERMINISTIC"
	case SysEnableDebugKernel:
		return "ACL_OPT_ENABLE_DEBUG_KERNEL"
	case SysStrongConsistency:
		return "ACL_OPT_STRONG_CONSISTENCY"
	case SysEnableKernelEarlyStart:
		return "ACL_OPT_ENABLE_KERNEL_EARLY_START"
	}
	return "unknown"
}

// sysParams holds the values of one scope.
type sysParams struct {
	// mu guards the fields below.
	mu  sync.Mutex
	set [numSysParams]bool
	v   [numSysParams]int64
}

func (p *sysParams) store(o SysParam, v int64) {
	p.mu.Lock()
	p.set[o], p.v[o] = true, v
	p.mu.Unlock()
}

func (p *sysParams) load(o SysParam) (int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.v[o], p.set[o]
}

// CheckSysParam checks an option for a scope: the process takes every
// option, a context all but ACL_OPT_ENABLE_KERNEL_EARLY_START. CANN refuses
// another option before it looks at the value, with ACL_ERROR_INVALID_PARAM.
func CheckSysParam(o SysParam, ctx bool) error {
	if o >= 0 && o < numSysParams && !(ctx && o == SysEnableKernelEarlyStart) {
		return nil
	}
	if ctx {
		return rterr.Errorf(rterr.KindBadArgument, "opt %d is invalid, expected ACL_OPT_DETERMINISTIC (0), ACL_OPT_ENABLE_DEBUG_KERNEL (1) or ACL_OPT_STRONG_CONSISTENCY (2)", int32(o))
	}
	return rterr.Errorf(rterr.KindBadArgument, "opt %d is invalid, expected ACL_OPT_DETERMINISTIC (0), ACL_OPT_ENABLE_DEBUG_KERNEL (1), ACL_OPT_STRONG_CONSISTENCY (2) or ACL_OPT_ENABLE_KERNEL_EARLY_START (3)", int32(o))
}

// checkSysValue checks a value: [0, 4) for ACL_OPT_DETERMINISTIC, 0 or 1
// for the others (the runtime's ACL_ERROR_RT_PARAM_INVALID).
func checkSysValue(o SysParam, v int64) error {
	limit := int64(2)
	if o == SysDeterministic {
		limit = 4
	}
	if v < 0 || v >= limit {
		return rterr.Errorf(rterr.KindInvalidParam, "value %d of %v is invalid, expected [0, %d)", v, o, limit)
	}
	return nil
}

// SetSysParam sets o for the process (aclrtSetSysParamOpt). The value
// outlives aclFinalize, as CANN's does.
func (r *Runtime) SetSysParam(o SysParam, v int64) error {
	if err := CheckSysParam(o, false); err != nil {
		return err
	}
	if err := checkSysValue(o, v); err != nil {
		return err
	}
	r.sys.store(o, v)
	return nil
}

// SysParam returns o's value for the process, 0 if never set
// (aclrtGetSysParamOpt).
func (r *Runtime) SysParam(o SysParam) (int64, error) {
	if err := CheckSysParam(o, false); err != nil {
		return 0, err
	}
	v, _ := r.sys.load(o)
	return v, nil
}

// SetSysParam sets o for c (aclrtCtxSetSysParamOpt). As in CANN's runtime,
// the value also becomes the process's.
func (c *Context) SetSysParam(o SysParam, v int64) error {
	if err := CheckSysParam(o, true); err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	if err := checkSysValue(o, v); err != nil {
		return err
	}
	c.sys.store(o, v)
	c.d.r.sys.store(o, v)
	return nil
}

// SysParam returns o's value for c (aclrtCtxGetSysParamOpt); an option
// never set on c has no value.
func (c *Context) SysParam(o SysParam) (int64, error) {
	if err := CheckSysParam(o, true); err != nil {
		return 0, err
	}
	if err := c.check(); err != nil {
		return 0, err
	}
	v, ok := c.sys.load(o)
	if !ok {
		return 0, rterr.Errorf(rterr.KindSysParamNotSet, "%v was never set on this context; set it with aclrtCtxSetSysParamOpt first", o)
	}
	return v, nil
}
