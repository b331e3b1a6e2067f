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
// Errors crossing this boundary are *Error values carrying a Kind; the root
// package maps kinds to CANN codes in one place.
//
// hal imports only the standard library. Backends (sim) and the runtime core
// (internal/...) import hal; hal imports neither.
package hal
