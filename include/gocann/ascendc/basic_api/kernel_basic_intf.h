/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * basic_api/kernel_basic_intf.h: the basic Ascend C API, as the devkit
 * offers it under this name: what kernel_operator.h holds.
 */
#ifndef GOCANN_ASCENDC_BASIC_API_KERNEL_BASIC_INTF_H_
#define GOCANN_ASCENDC_BASIC_API_KERNEL_BASIC_INTF_H_

#include "../kernel_operator.h"

#endif
