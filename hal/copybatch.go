package hal

// Copy is one copy of a TaskCopyBatch: Size bytes from Src to Dst.
type Copy struct {
	Dst, Src Loc
	Size     uint64
}

// Cache maintenance operations of a TaskCmo (Value), with the values of
// aclrtCmoType.
const (
	CmoPrefetch  uint64 = 0 // load memory into the cache
	CmoWriteback uint64 = 1 // write cached data back, keeping a copy
	CmoInvalid   uint64 = 2 // drop cached data
	CmoFlush     uint64 = 3 // write cached data back and drop it
)
