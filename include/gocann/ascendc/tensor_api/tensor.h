/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * tensor_api/tensor.h: the tensor API of Ascend 950 (dav-3510), which the
 * simulated NPU (an Atlas A2) does not have.
 */
#error "tensor_api/tensor.h: the tensor API is for Ascend 950 (dav-3510) and is not available on the simulated NPU"
