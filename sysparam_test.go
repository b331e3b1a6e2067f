package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

// TestSysParamProcess: every option reads back what was set, 0 before;
// options and values out of range are refused with CANN's codes; the
// values outlive Finalize and need no Init.
func TestSysParamProcess(t *testing.T) {
	r := gocann.New()
	defer r.Close()
	for _, o := range []gocann.SysParamOpt{gocann.SysDeterministic, gocann.SysEnableDebugKernel,
		gocann.SysStrongConsistency, gocann.SysEnableKernelEarlyStart} {
		if v, err := r.SysParam(o); err != nil || v != 0 {
			t.Errorf("SysParam(%d) before any set = %d, %v; want 0", o, v, err)
		}
		check(t, r.SetSysParam(o, 1))
		if v, err := r.SysParam(o); err != nil || v != 1 {
			t.Errorf("SysParam(%d) = %d, %v; want 1", o, v, err)
		}
	}
	check(t, r.SetSysParam(gocann.SysDeterministic, 3))
	wantErr(t, r.SetSysParam(gocann.SysDeterministic, 4), gocann.CodeRTParamInvalid, "value 4", "[0, 4)")
	wantErr(t, r.SetSysParam(gocann.SysEnableDebugKernel, 2), gocann.CodeRTParamInvalid, "value 2", "[0, 2)")
	wantErr(t, r.SetSysParam(gocann.SysStrongConsistency, -1), gocann.CodeRTParamInvalid, "value -1")
	wantErr(t, r.SetSysParam(4, 0), gocann.CodeInvalidParam, "opt 4", "ACL_OPT_ENABLE_KERNEL_EARLY_START (3)")
	wantErr(t, r.SetSysParam(-1, 0), gocann.CodeInvalidParam, "opt -1")
	_, err := r.SysParam(7)
	wantErr(t, err, gocann.CodeInvalidParam, "opt 7")
	if v, _ := r.SysParam(gocann.SysDeterministic); v != 3 {
		t.Errorf("a refused set changed the value: %d, want 3", v)
	}
	check(t, r.Init(""))
	check(t, r.Finalize())
	if v, _ := r.SysParam(gocann.SysDeterministic); v != 3 {
		t.Errorf("after Init and Finalize: %d, want 3", v)
	}
}

// TestSysParamContext: a context has no value until set, keeps its own,
// refuses ACL_OPT_ENABLE_KERNEL_EARLY_START, and a set also sets the
// process's value, as CANN's runtime does.
func TestSysParamContext(t *testing.T) {
	e := setup(t)
	c2, err := e.d.NewContext()
	check(t, err)
	defer c2.Close()
	_, err = e.c.SysParam(gocann.SysEnableDebugKernel)
	wantErr(t, err, gocann.CodeRTSysParamOptNotSet, "ACL_OPT_ENABLE_DEBUG_KERNEL", "never set")
	check(t, e.c.SetSysParam(gocann.SysEnableDebugKernel, 1))
	check(t, c2.SetSysParam(gocann.SysDeterministic, 2))
	if v, err := e.c.SysParam(gocann.SysEnableDebugKernel); err != nil || v != 1 {
		t.Errorf("context value = %d, %v; want 1", v, err)
	}
	if _, err := c2.SysParam(gocann.SysEnableDebugKernel); gocann.CodeOf(err) != gocann.CodeRTSysParamOptNotSet {
		t.Errorf("another context's value leaked: %v", err)
	}
	if v, _ := e.r.SysParam(gocann.SysEnableDebugKernel); v != 1 {
		t.Errorf("process value after a context set = %d, want 1", v)
	}
	if v, _ := e.r.SysParam(gocann.SysDeterministic); v != 2 {
		t.Errorf("process value after a context set = %d, want 2", v)
	}
	wantErr(t, e.c.SetSysParam(gocann.SysEnableKernelEarlyStart, 1), gocann.CodeInvalidParam, "opt 3", "ACL_OPT_STRONG_CONSISTENCY (2)")
	_, err = e.c.SysParam(gocann.SysEnableKernelEarlyStart)
	wantErr(t, err, gocann.CodeInvalidParam, "opt 3")
	wantErr(t, e.c.SetSysParam(gocann.SysDeterministic, 9), gocann.CodeRTParamInvalid, "value 9")
	wantErr(t, gocann.CheckContextSysParam("aclrtCtxGetSysParamOpt", gocann.SysEnableKernelEarlyStart), gocann.CodeInvalidParam, "opt 3")
	check(t, gocann.CheckContextSysParam("aclrtCtxGetSysParamOpt", gocann.SysStrongConsistency))
	check(t, c2.Close())
	wantErr(t, c2.SetSysParam(gocann.SysDeterministic, 1), gocann.CodeRTInvalidHandle, "destroyed")
}
