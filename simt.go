package gocann

import (
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// SIMT launches (single instruction, multiple threads): each block of the
// grid is a block of threads running the kernel body together, each with
// its index in the block, meeting at Block.SyncThreads. Only chips with
// SIMT units (Ascend 950) take them.

// Dim3 is CANN's dim3: an extent or index in three dimensions.
type Dim3 struct{ X, Y, Z uint32 }

func (d Dim3) kernelDim() kernel.Dim3 { return kernel.Dim3{X: d.X, Y: d.Y, Z: d.Z} }

func dim3(d kernel.Dim3) Dim3 { return Dim3{X: d.X, Y: d.Y, Z: d.Z} }

// MaxSIMTThreads is the most threads a SIMT block may have.
const MaxSIMTThreads = rt.MaxSIMTThreads

// RegisterSIMTKernel registers a Go SIMT kernel under name, for
// Stream.LaunchSIMT.
//
// CANN: none (C kernels are marked with GOCANN_SIMT_KERNEL).
func (r *Runtime) RegisterSIMTKernel(name string, fn KernelFunc) (*Kernel, error) {
	if fn == nil {
		return nil, wrap("Runtime.RegisterSIMTKernel", rterr.Errorf(rterr.KindInvalidParam, "kernel %q function is nil, expected a function", name))
	}
	k, err := r.rt.RegisterKernel(name, adaptKernel(fn))
	if err != nil {
		return nil, wrap("Runtime.RegisterSIMTKernel", err)
	}
	k.SIMT = true
	return NewKernel(k), nil
}

// IsSIMT reports whether the kernel is written for SIMT launches.
//
// CANN: none.
func (k *Kernel) IsSIMT() bool { return k.k.SIMT }

// SIMTLaunch returns the kernel and block count one SIMT launch of k over
// grid blocks of block threads runs, for any launch call; gridDim and
// blockDim extents are all at least 1, at most MaxSIMTThreads threads a
// block. The C ABI's SIMT launches go through it.
//
// CANN: none.
func (k *Kernel) SIMTLaunch(grid, block Dim3) (*Kernel, uint32, error) {
	sk, n, err := rt.SIMTKernel(&k.k, grid.kernelDim(), block.kernelDim())
	if err != nil {
		return nil, 0, wrap("Kernel.SIMTLaunch", err)
	}
	return NewKernel(sk), n, nil
}

// LaunchSIMT queues a SIMT launch of k: grid blocks of block threads
// each, with args in every thread.
//
// CANN: aclrtLaunchSIMTKernelWithHostArgs.
func (s *Stream) LaunchSIMT(k *Kernel, grid, block Dim3, args ...Arg) error {
	if err := s.r.require("aclrtLaunchSIMTKernelWithHostArgs"); err != nil {
		return err
	}
	sk, n, err := rt.SIMTKernel(&k.k, grid.kernelDim(), block.kernelDim())
	if err != nil {
		return wrap("Stream.LaunchSIMT (aclrtLaunchSIMTKernelWithHostArgs)", err)
	}
	return s.Launch(NewKernel(sk), n, args...)
}

// ThreadIdx is this thread's index in its block (threadIdx); 0 outside a
// SIMT launch.
//
// CANN: threadIdx (Ascend C SIMT).
func (b *Block) ThreadIdx() Dim3 { return dim3(b.b.ThreadIdx()) }

// BlockDim is the launch's block extent (blockDim).
//
// CANN: blockDim (Ascend C SIMT).
func (b *Block) BlockDim() Dim3 { return dim3(b.b.BlockDim()) }

// GridDim is the launch's grid extent (gridDim).
//
// CANN: gridDim (Ascend C SIMT).
func (b *Block) GridDim() Dim3 { return dim3(b.b.GridDim()) }

// BlockIdx is this block's index in the grid (blockIdx).
//
// CANN: blockIdx (Ascend C SIMT).
func (b *Block) BlockIdx() Dim3 { return dim3(b.b.BlockIdx()) }

// SyncThreads waits until every thread of the block still running reaches
// it; outside a SIMT launch it returns at once.
//
// CANN: asc_syncthreads (Ascend C SIMT).
func (b *Block) SyncThreads() { b.b.SyncThreads() }
