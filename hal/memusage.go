package hal

// MemUse is the device memory allocated with one tag (MemPolicy.Tag):
// bytes reserved now and at most since the device was opened.
type MemUse struct {
	Tag         uint8
	Bytes, Peak uint64
}

// MemUser is implemented by devices that count their memory by tag.
type MemUser interface {
	// MemUsage lists the tags that ever had memory, in tag order.
	MemUsage() []MemUse
}
