/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * lib/matmul_intf.h: Ascend C's Matmul high-level API runs on the cube
 * unit, which the simulated NPU does not model.
 */
#error "lib/matmul_intf.h: Matmul runs on the cube unit, which is not available on the simulated NPU"
