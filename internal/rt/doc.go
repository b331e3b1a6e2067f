// Package rt is the gocann runtime core: the CANN semantics on top of a hal
// backend. It owns initialization, device reference counts, contexts and
// their default streams, stream lifetimes, fault reporting at synchronizing
// calls, failure modes, pointer validation, pageable-memory staging, events,
// notifies, the kernel registry, the system parameters and the data dump.
//
// Every task the runtime queues reaches a device through Stream.submit,
// the one point where later features (capture) divert work. A queue has a
// second producer: the C ABI's direct launch path (capi/direct.c) writes
// kernel launches from C straight into the queue's submission area
// (hal.SQ), through the protocol hal.Produce states, without entering rt.
// It may do so only while the stream runs eagerly: the area is open to it
// (hal.Direct.Update) exactly then, and a divert closes it under the
// queue's submitters' lock, so a capture never misses a launch. A data dump
// (dump.go) closes every stream's area while it is on, since its host tasks
// bracket each kernel the runtime queues.
//
// The backend's allocators hold the caller's memory and the runtime's own
// alike (staging buffers, AI core stacks, condition words, task argument
// blocks, placeholder copies), and hand a freed block straight back to the
// next allocation of its size. So the runtime records which allocations
// are the caller's (userHost; a device allocation carries it as its tag):
// only those are freed by aclrtFree and aclrtFreeHost, taken by copies,
// memsets and launches, or described by aclrtPointerGetAttributes and
// aclrtMemGetAddressRange. Device memory the runtime hands the caller to
// use (condition words, argument blocks from aclmdlRITaskGetParams) is
// lent: usable and described, never freed by the caller.
//
// A capture may mark SuperKernels (superkernel.go): the kernel launches
// queued in a range become one kernel task whose function runs them as
// sub-kernels, in order, with a barrier between each pair.
//
// Errors: rt reports what it finds itself as *rterr.Error values, of
// device-level or runtime-level kinds (internal/rterr), and passes a
// backend's *hal.Error up unchanged, its kind keeping its value; where CANN
// names a backend's failure differently it says so with an error of its
// own (an event's synchronize timing out is KindEventSyncTimeout, not the
// queue's timeout; queue faults become errors of the fault's kind at the
// synchronizing call). It maps no kind to a CANN code: the root package
// does, in one function. rt imports hal, internal packages and the
// standard library; never sim or the root package.
package rt
