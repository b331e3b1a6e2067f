/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * utils/debug/asc_printf.h: a kernel's printf, as the Ascend C devkit
 * offers it under this name (gocann_print.h).
 */
#ifndef GOCANN_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H_
#define GOCANN_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H_

#include "../../gocann_print.h"

#endif
