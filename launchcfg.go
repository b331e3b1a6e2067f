package gocann

import (
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// LaunchConfig is what a kernel launch's configuration (aclrtLaunchKernelCfg)
// sets that its task keeps, to be read back from a model's kernel task.
// Timeout is the kernel's execute timeout, which takes precedence over
// Runtime.SetOpExecuteTimeout's (rounded the same way); the simulator runs a
// kernel the same whatever the other fields say: they tune hardware
// scheduling and dumps the simulator does not model.
type LaunchConfig struct {
	SchedMode   uint8         // ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE
	DynUBufSize uint32        // ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, bytes per block
	DataDump    bool          // ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP
	Timeout     time.Duration // ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT(_US), to the microsecond; 0: none
}

func (c LaunchConfig) attrs() hal.LaunchAttrs {
	return hal.LaunchAttrs{TimeoutUS: uint64(c.Timeout / time.Microsecond), DynUBufSize: c.DynUBufSize, SchemMode: c.SchedMode, DataDump: c.DataDump}
}

func launchConfig(a hal.LaunchAttrs) LaunchConfig {
	return LaunchConfig{SchedMode: a.SchemMode, DynUBufSize: a.DynUBufSize, DataDump: a.DataDump, Timeout: time.Duration(a.TimeoutUS) * time.Microsecond}
}

// WithLaunchConfig returns a view of the stream whose kernel launches
// (LaunchArgs, LaunchPlaceholders) carry c, as launches given an
// aclrtLaunchKernelCfg do.
//
// CANN: aclrtLaunchKernelV2 / aclrtLaunchKernelWithConfig (cfg).
func (x RawStream) WithLaunchConfig(c LaunchConfig) RawStream {
	x.attrs = c.attrs()
	return x
}

// LaunchConfig reports the launch configuration a kernel task was queued
// with (zero where its launch set nothing), edits not yet published by
// ModelRI.Update included. It is refused for other tasks.
//
// CANN: aclmdlRIKernelTaskGetAttribute.
func (t ModelTask) LaunchConfig() (LaunchConfig, error) {
	if err := t.r.require("aclmdlRIKernelTaskGetAttribute"); err != nil {
		return LaunchConfig{}, err
	}
	op := t.t.Op()
	if op.Kind != hal.OpTask || op.Task.Kind != hal.TaskKernel {
		return LaunchConfig{}, wrap("ModelTask.LaunchConfig (aclmdlRIKernelTaskGetAttribute)", rterr.Errorf(rterr.KindInvalidParam,
			"task %d is not a kernel task (aclmdlRITaskGetType says %d), expected ACL_MODEL_RI_TASK_KERNEL", t.Seq(), t.Type()))
	}
	return launchConfig(op.Task.Launch), nil
}
