// Package rt is the gocann runtime core: the CANN semantics on top of a hal
// backend. It owns initialization, device reference counts, contexts and
// their default streams, stream lifetimes, fault reporting at synchronizing
// calls, failure modes, pointer validation, pageable-memory staging, events,
// notifies and the kernel registry.
//
// Every task reaches a device through Stream.submit, the one point where
// later features (capture) divert work.
//
// Errors are *hal.Error values; the root package maps their kinds to CANN
// codes. rt imports hal, internal packages and the standard library; never
// sim or the root package.
package rt
