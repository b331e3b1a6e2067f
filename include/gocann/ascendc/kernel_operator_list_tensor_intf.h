/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * The header Ascend C kernels include for ListTensorDesc and TensorDesc:
 * here kernel_operator.h has them (gocann_listtensor.h).
 */
#ifndef GOCANN_ASCENDC_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#define GOCANN_ASCENDC_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_

#include "kernel_operator.h"

#endif /* GOCANN_ASCENDC_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_ */
