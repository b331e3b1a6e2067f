// Package kernel is the kernel contract: what kernel code sees and gives
// the device that runs it, apart from the device contract (hal).
//
// It owns:
//   - Func, a kernel's code (a Go function per block, or a native entry
//     with its Batcher) and what kind of core runs it;
//   - Block, a running block's view of its launch (index, count, argument
//     slots, device memory through Memory), and for SIMT launches the
//     thread layout (Dim3, SIMT) and the block's Barrier;
//   - how a block ends early: a TrapError (Block.Trap, Trap in C) or a
//     Fault (a signal its native code raised, a C++ exception that left
//     it), which the backend running the block makes the task's AI-core
//     exception;
//   - a gang launch's shared words (Gang: Sync for SyncAll, Barrier for a
//     SuperKernel's runners), and a SuperKernel sub-kernel's view: Func.SK,
//     the SK_BIND sub-function a launch runs as a sub-kernel, and SKHook,
//     where its blocks' SetNextTaskStart and WaitPreTaskEnd go;
//   - Part and Clock: the parts of a run a kernel reports for the trace
//     (a SuperKernel's sub-kernels), timed on the device clock;
//   - DType, the element types of device data (CANN's aclDataType values);
//   - MaxArgs, the argument slots a launch passes at most.
//
// Kernel loaders (ckernel) and the Ascend C layer build on it without the
// device contract; hal's task descriptors carry a Func, and a backend (sim)
// runs Blocks.
//
// kernel imports only the standard library.
package kernel
