// Package haltest is a conformance suite for hal backends, in the spirit of
// the driver tests of database/sql: a backend's own tests call Run with a
// function that opens a fresh backend, and every subtest checks one
// behaviour of the contract through the hal interfaces alone — bytes moved,
// order of execution, counts, error kinds and time bounds.
//
// Optional capabilities (hal.Tracer, hal.Sharer) are discovered by type
// assertion; their subtests are skipped when a device lacks them. Tests size
// themselves from the device's hal.Props (AI cores, stream limit, queue
// depth), so a small chip profile exercises the limits quickly.
//
// Time bounds are generous, for a loaded CI machine with few CPUs: what must
// happen is given seconds, and what must not happen is watched for tens of
// milliseconds, so a slow machine can only hide a bug, never fail a correct
// backend.
//
// haltest imports only hal and the standard library.
package haltest
