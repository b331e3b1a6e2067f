/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * cpu_debug_launch.h: what sources launching kernels with <<<>>> include
 * in CANN's CPU-debug mode (under ASCENDC_CPU_DEBUG). Here a <<<>>> launch
 * is the same in every run mode, a launch on the simulated NPU, so this
 * only brings the CPU-debug entry points (tikicpulib.h).
 */
#ifndef GOCANN_ASCENDC_CPU_DEBUG_LAUNCH_H_
#define GOCANN_ASCENDC_CPU_DEBUG_LAUNCH_H_

#include "tikicpulib.h"

#endif /* GOCANN_ASCENDC_CPU_DEBUG_LAUNCH_H_ */
