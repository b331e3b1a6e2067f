/* baseline.h: the host baseline of vadd.asc (baseline.c). */
#ifndef ASCBENCH_BASELINE_H_
#define ASCBENCH_BASELINE_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* baseline_add sets z[i] = x[i] + y[i] for i < n on two threads. */
void baseline_add(const float *x, const float *y, float *z, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* ASCBENCH_BASELINE_H_ */
