// Package ctest builds libascendcl.so and runs the C programs of
// examples/c against it, as a CANN application would use the library: the
// programs, numbered as the chapters of the CANN guide, check their own
// results and print a line per check; the tests assert on their exit
// status and key lines. It also checks the public headers on their own
// and together (as C11 and C++17), that every function they declare is
// exported by the library, and that an installed tree (make install)
// builds and runs a program in a clean environment.
//
// The C sources live one directory up, where the go command does not
// treat them as part of a Go package. The tests fail, rather than skip,
// when gcc or make is missing.
package ctest
