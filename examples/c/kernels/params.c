/*
 * Kernels whose parameters only their GOCANN_KERNEL_PARAMS declarations
 * tell: the harness builds this file with -g0, so the binary has no debug
 * information to read them from.
 * Build: gcc -g0 -O2 -shared -fPIC -I<include> params.c -o libparams.so
 */
#include <gocann/kernel.h>

/* pack stores each integer parameter, widened to 64 bits as its own type
 * says, in out[0..3]: the runtime must pass each in its declared size. */
__global__ __aicore__ void pack(GM_ADDR out, uint32_t a, int16_t b, int8_t c, uint64_t d)
{
    int64_t *o = (int64_t *)out;
    if (GetBlockIdx() == 0) {
        o[0] = a;
        o[1] = b;
        o[2] = c;
        o[3] = (int64_t)d;
    }
}
GOCANN_KERNEL_PARAMS(pack, GOCANN_PARAM_PTR, GOCANN_PARAM_INT32, GOCANN_PARAM_INT16, GOCANN_PARAM_INT8,
                     GOCANN_PARAM_INT64);

static int64_t ticks;

/* tick counts its blocks into the binary's own counter. */
__global__ __aicore__ void tick(void)
{
    __atomic_add_fetch(&ticks, 1, __ATOMIC_SEQ_CST);
}
GOCANN_KERNEL_PARAMS(tick);

/* read_ticks stores the counter in out[0]. */
__global__ __aicore__ void read_ticks(GM_ADDR out)
{
    *(int64_t *)out = __atomic_load_n(&ticks, __ATOMIC_SEQ_CST);
}
GOCANN_KERNEL_PARAMS(read_ticks, GOCANN_PARAM_PTR);

/* undeclared has no declaration: its parameters are unknown. */
__global__ __aicore__ void undeclared(GM_ADDR out)
{
    *(int64_t *)out = 7;
}

/* fmix stores its float and double parameters, widened to double, in
 * out[0..9], and n in out[10]: ten floating-point parameters are more than
 * the eight registers either convention passes them in, so the last two
 * travel on the stack, after the integers that fit in registers. */
__global__ __aicore__ void fmix(GM_ADDR out, float a, int32_t n, double b, float c, double d, double e, double f,
                                double g, double h, float i, double j)
{
    double *o = (double *)out;
    if (GetBlockIdx() == 0) {
        double v[11] = {a, b, c, d, e, f, g, h, i, j, n};
        for (int k = 0; k < 11; k++) {
            o[k] = v[k];
        }
    }
}
GOCANN_KERNEL_PARAMS(fmix, GOCANN_PARAM_PTR, GOCANN_PARAM_FLOAT, GOCANN_PARAM_INT32, GOCANN_PARAM_DOUBLE,
                     GOCANN_PARAM_FLOAT, GOCANN_PARAM_DOUBLE, GOCANN_PARAM_DOUBLE, GOCANN_PARAM_DOUBLE, GOCANN_PARAM_DOUBLE,
                     GOCANN_PARAM_DOUBLE, GOCANN_PARAM_FLOAT, GOCANN_PARAM_DOUBLE);
