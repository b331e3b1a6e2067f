/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h (being written). Include kernel_operator.h,
 * not this.
 */
#ifndef GOCANN_ASCENDC_REDUCE_H_
#define GOCANN_ASCENDC_REDUCE_H_

#include "gocann_mask.h"

#endif /* GOCANN_ASCENDC_REDUCE_H_ */
