/*
 * baseline.c: what the Ascend C kernel of vadd.asc is measured against,
 * the plain C loop on both host cores, each thread adding its half. Built
 * on its own with -O2, whatever the kernel is built with.
 */
#include <pthread.h>
#include <stddef.h>

#include "baseline.h"

struct half_args {
    const float *x, *y;
    float *z;
    size_t n;
};

static void *add_half(void *arg)
{
    struct half_args *h = arg;
    for (size_t i = 0; i < h->n; i++) {
        h->z[i] = h->x[i] + h->y[i];
    }
    return NULL;
}

void baseline_add(const float *x, const float *y, float *z, size_t n)
{
    struct half_args halves[2] = {{x, y, z, n / 2}, {x + n / 2, y + n / 2, z + n / 2, n - n / 2}};
    pthread_t t;
    pthread_create(&t, NULL, add_half, &halves[1]);
    add_half(&halves[0]);
    pthread_join(t, NULL);
}
