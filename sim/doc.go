// Package sim is the simulated NPU: a hal backend that runs on the host CPU.
//
// A device has a chip profile (hal.Props), device memory in a sparse shared
// memory file mapped into the process over an address range that stays
// reserved for the device, open or closed, while the backend lives (so
// stale pointers never meet other memory, and a reopened device has the
// same addresses), and one scheduler. The ranges come from an
// AddressSpace (Config.Space), which can outlive the backend: a later
// backend given the same space gives each device id the range it had, and
// knows the others as closed devices' memory, so pointers kept from an
// earlier backend are refused too. The scheduler keeps
// an in-order queue per stream, picks ready queue heads by priority and hands
// them to engines: an AI-core pool (one goroutine per core, a kernel's blocks
// spread over the free cores), DMA workers (large copies split across CPUs)
// and host-function workers. Synchronization tasks (events, notifies, value
// write/wait) are handled inside the scheduler itself.
//
// A queue has two producers: Submit, and a direct producer outside Go (the
// C ABI's capi/direct.c) writing kernel launches into the queue's
// submission area (hal.SQ, from the address space's arena). Both publish
// through hal.Produce under the area's lock, so their tasks keep one
// order; the scheduler takes direct entries into the ring as it steps the
// queue, and a producer that finds the queue idle rings its doorbell.
//
// Idle workers and waiting hosts spin a few microseconds before they park, so
// a submit-run-complete round trip costs about a goroutine hand-off.
//
// The device-memory allocator has two fuzzers checked against a model of
// its blocks: FuzzAllocator (sizes and pages a program uses) and
// FuzzAllocatorInputs (any range, size, page and address). go test runs
// their seeds; go test -fuzz=FuzzAllocatorInputs -fuzztime=10m ./sim
// explores.
//
// A kernel block's fault (a kernel.Fault its native code raised) becomes
// its task's AI-core exception, the faulting address placed against the
// device memory the backend knows (faultaddr.go); each device's range has
// an inaccessible guard after it, so an index past the end of device
// memory faults there.
//
// sim imports only hal, kernel, the standard library and golang.org/x/sys;
// never the gocann root package or internal/.
package sim
