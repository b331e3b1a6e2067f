package kernel

// Parts: the stretches of one kernel run the device trace shows on lines
// of their own, a SuperKernel's sub-kernels. Block 0 of the run reports
// them; the backend reads them once the run has ended.

// Part is one reported stretch of a kernel run: what ran, and when, on
// the device clock (Block.Now).
type Part struct {
	Name       string
	Blocks     uint32
	Start, End int64
}

// Clock is implemented by the Memory of a backend whose blocks can read
// its device clock.
type Clock interface {
	// Now is the device clock, in nanoseconds.
	Now() int64
}

// Now is the device clock in nanoseconds, or 0 if the backend keeps none.
func (b *Block) Now() int64 {
	if c, ok := b.mem.(Clock); ok {
		return c.Now()
	}
	return 0
}

// AddPart reports a part of the run of b's kernel. Only a kernel whose
// Func sets Parts reports any, from its block 0.
func (b *Block) AddPart(p Part) { b.parts = append(b.parts, p) }

// Parts are the parts b reported, valid until the backend's next Reset of
// b, which keeps their storage for the next run.
func (b *Block) Parts() []Part { return b.parts }
