// Package asc reads Ascend C sources for the compiler driver (cmd/bisheng),
// which builds them with the host's C++ compiler into programs and
// libraries running on the simulated NPU: it rewrites the constructs that
// are the AI core's rather than C++'s (<<<>>> launches, a kernel's printf,
// the trap instruction) and finds the kernels a launch header declares.
//
// It imports only the standard library.
package asc
