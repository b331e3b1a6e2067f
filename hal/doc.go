// Package hal is the contract between the gocann runtime core and a device
// backend: devices with a chip profile, device memory, hardware queues that
// accept typed task descriptors, events, notifies and a task trace.
//
// It follows the shape of database/sql/driver: a small mandatory interface
// (Backend, Device, Queue, Event, Notify) and optional capabilities that the
// front end discovers by type assertion. The runtime core owns the CANN
// semantics (contexts, lifetimes, fault reporting, error codes); a backend
// only executes what it is given, in order, per queue.
//
// Errors crossing this boundary are *Error values carrying a Kind, one of
// the device-level kinds a backend itself reports (invalid parameter,
// device, handle or address, exhausted memory or queues, timeouts, task
// faults, ...). The runtime's own kinds extend these in internal/rterr,
// keeping their values, and the root package maps every kind to a CANN
// code in one place.
//
// hal imports only the standard library. Backends (sim) and the runtime core
// (internal/...) import hal; hal imports neither.
package hal
