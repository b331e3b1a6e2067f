package gocann

import (
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// AI CPU kernels: functions run on the device's AI CPU engine, which has
// its own cores (the chip profile's AI CPU count), rather than on its AI
// cores. They are ordered on their streams like any kernel, are captured
// like any kernel, and count in the AI CPU share of
// Device.UtilizationRate; a block that panics or traps is an AI CPU
// exception (ACL_ERROR_RT_AICPU_EXCEPTION).

// RegisterCPUKernel registers a Go function under name as an AI CPU
// kernel, for Stream.Launch and for C programs that look it up by name.
//
// CANN: aclrtRegisterCpuFunc (a Go function as the AI CPU operator).
func (r *Runtime) RegisterCPUKernel(name string, fn KernelFunc) (*Kernel, error) {
	const op = "Runtime.RegisterCPUKernel (aclrtRegisterCpuFunc)"
	if err := r.require("aclrtRegisterCpuFunc"); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "kernel %q function is nil, expected a function", name))
	}
	k, err := r.rt.RegisterCPUKernel(name, adaptKernel(fn))
	if err != nil {
		return nil, wrap(op, err)
	}
	return NewKernel(k), nil
}

// CPUKernel returns k as an AI CPU kernel named opType: the same code,
// run on the AI CPU engine. C's aclrtRegisterCpuFunc makes one from a
// function of a binary loaded in CPU kernel mode.
//
// CANN: aclrtRegisterCpuFunc (a function of a loaded binary).
func CPUKernel(k *kernel.Func, opType string) *Kernel {
	c := *k
	c.Name, c.CPU, c.Batch, c.Entry = opType, true, nil, 0
	return NewKernel(&c)
}

// IsCPU reports whether the kernel runs on the AI CPU engine.
//
// CANN: none.
func (k *Kernel) IsCPU() bool { return k.k.CPU }
