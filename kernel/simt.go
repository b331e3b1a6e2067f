package kernel

// SIMT launches: a block of threads that run the kernel body together,
// each knowing its index in the block, meeting at block barriers.

// Dim3 is a three-dimensional extent or index (CANN's dim3).
type Dim3 struct{ X, Y, Z uint32 }

// Count is the number of points of extent d.
func (d Dim3) Count() uint64 { return uint64(d.X) * uint64(d.Y) * uint64(d.Z) }

// at is the index of linear position i in extent d, x fastest.
func (d Dim3) at(i uint32) Dim3 {
	return Dim3{X: i % d.X, Y: i / d.X % d.Y, Z: i / (d.X * d.Y)}
}

// Barrier is a block's thread barrier. Wait returns once every thread of
// the block still running has called it; Leave takes a thread that ends
// early (it failed) out of the count, so the others do not wait for it.
type Barrier interface {
	Wait()
	Leave()
}

// SIMT is the thread layout of one block of a SIMT launch, shared by its
// threads.
type SIMT struct {
	Grid, Block Dim3
	Barrier     Barrier
}

// Thread returns the view of b that thread tid of a SIMT launch with
// layout s has. Runtimes call it; kernels never do.
func (b *Block) Thread(s *SIMT, tid uint32) Block {
	t := *b
	t.simt, t.tid = s, tid
	return t
}

// SIMT is the block's thread layout, nil outside a SIMT launch.
func (b *Block) SIMT() *SIMT { return b.simt }

// ThreadIdx is this thread's index in its block (threadIdx); 0 outside a
// SIMT launch.
func (b *Block) ThreadIdx() Dim3 {
	if b.simt == nil {
		return Dim3{}
	}
	return b.simt.Block.at(b.tid)
}

// ThreadNum is the linear index of this thread in its block.
func (b *Block) ThreadNum() int { return int(b.tid) }

// BlockDim is the launch's block extent (blockDim); 1×1×1 outside a SIMT
// launch.
func (b *Block) BlockDim() Dim3 {
	if b.simt == nil {
		return Dim3{1, 1, 1}
	}
	return b.simt.Block
}

// GridDim is the launch's grid extent (gridDim); Num()×1×1 outside a SIMT
// launch.
func (b *Block) GridDim() Dim3 {
	if b.simt == nil {
		return Dim3{b.num, 1, 1}
	}
	return b.simt.Grid
}

// BlockIdx is this block's index in the grid (blockIdx).
func (b *Block) BlockIdx() Dim3 { return b.GridDim().at(b.idx) }

// SyncThreads waits until every thread of the block reaches it
// (asc_syncthreads); outside a SIMT launch a block is one thread and
// returns at once.
func (b *Block) SyncThreads() {
	if b.simt != nil {
		b.simt.Barrier.Wait()
	}
}
