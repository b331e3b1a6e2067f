// Package hal is the contract between the gocann runtime core and a device
// backend, and nothing more: devices with a chip profile, device memory,
// hardware queues that accept typed task descriptors, events, notifies, a
// task trace, and the device-level error kinds.
//
// It follows the shape of database/sql/driver: a small mandatory interface
// (Backend, Device, Queue, Event, Notify) and optional capabilities that the
// front end discovers by type assertion (Tracer, Settler, Sharer, Direct,
// KernelNumberer, Peer, Identifier, Utilizer, MemUser, VMM). The
// runtime core owns the CANN semantics (contexts, lifetimes, fault
// reporting, error codes); a backend only
// executes what it is given, in order, per queue. hal types hold no
// pointer back to the layers above, which keep what they know about a
// device object themselves: a model stream names the runtime event of
// each of its event operations, and the API's Kernel is the kernel.Func
// itself, seen as the API's type.
//
// hal owns:
//   - the interfaces a backend implements, and the values crossing them:
//     Task (whose kernel tasks carry a kernel.Func), Graph and its
//     operations, Props, Allocation, Span, Fault, Record;
//   - SQ, the submission area producers outside Go (the C ABI's launch
//     path) write; how a backend numbers kernels for it is the backend's
//     (KernelNumberer);
//   - Error and Kind: the kinds a backend itself reports (invalid
//     parameter, device, handle or address, exhausted memory or queues,
//     queue and device-side wait timeouts, task faults, aborts). The
//     runtime's own kinds extend these in internal/rterr, keeping their
//     values, and the root package maps every kind to a CANN code in one
//     place.
//
// What a kernel sees of its launch (kernel.Block) and how it fails
// (kernel.TrapError, kernel.Fault) are the kernel contract, package
// kernel, which hal's task descriptors refer to.
//
// hal imports only the standard library and kernel. Backends (sim) and the
// runtime core (internal/...) import hal; hal imports neither.
package hal
