package hal

// Copy is one copy of a TaskCopyBatch: Size bytes from Src to Dst.
type Copy struct {
	Dst, Src Loc
	Size     uint64
}

// Batch is the copies of a TaskCopyBatch.
type Batch struct {
	Copies []Copy
}

// copies returns the copies; a nil batch has none.
func (b *Batch) copies() []Copy {
	if b == nil {
		return nil
	}
	return b.Copies
}

// Len is the number of copies; a nil batch has none.
func (b *Batch) Len() int { return len(b.copies()) }

// Cache maintenance operations of a TaskCmo (Value), with the values of
// aclrtCmoType.
const (
	CmoPrefetch  uint64 = 0 // load memory into the cache
	CmoWriteback uint64 = 1 // write cached data back, keeping a copy
	CmoInvalid   uint64 = 2 // drop cached data
	CmoFlush     uint64 = 3 // write cached data back and drop it
)
