/*
 * 39_params: kernel parameters declared with GOCANN_KERNEL_PARAMS
 * (gocann/kernel.h) in a binary built without debug information. The
 * declared sizes pack aclrtLaunchKernelWithArgsArray's arguments and bound
 * the argument blocks of the other launch calls; a kernel declaring none is
 * launched with an empty block; a kernel with no declaration runs
 * unchecked, and aclrtLaunchKernelWithArgsArray refuses it, naming the
 * macro.
 *
 * Usage: 39_params libparams.so
 */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libparams.so\n", argv[0]);
        return 2;
    }
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle pack = NULL, tick = NULL, readTicks = NULL, undeclared = NULL;
    void *out = NULL;
    int64_t host[4] = {0};

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&out, sizeof host, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "pack", &pack));
    CHECK(aclrtBinaryGetFunction(bin, "tick", &tick));
    CHECK(aclrtBinaryGetFunction(bin, "read_ticks", &readTicks));
    CHECK(aclrtBinaryGetFunction(bin, "undeclared", &undeclared));

    /* One pointer per declared parameter, each to a value of the declared
     * size: without the declaration the runtime could not pack them. */
    uint32_t a = 0xFFFFFFF0u;
    int16_t b = -2;
    int8_t c = -3;
    uint64_t d = 1ull << 40;
    void *args[5] = {&out, &a, &b, &c, &d};
    CHECK(aclrtLaunchKernelWithArgsArray(pack, 2, s, NULL, args));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0xFFFFFFF0ll && host[1] == -2 && host[2] == -3 && host[3] == (int64_t)(1ll << 40),
           "aclrtLaunchKernelWithArgsArray packs the declared INT32, INT16, INT8 and INT64 parameters (%lld %lld %lld %lld)",
           (long long)host[0], (long long)host[1], (long long)host[2], (long long)host[3]);

    /* The declared parameters take 5 slots of 8 bytes: a shorter block is
     * refused, a full one runs. */
    struct {
        void *out;
        uint64_t a, b, c, d;
    } block = {out, 5, 6, 7, 8};
    EXPECT_CODE(aclrtLaunchKernelWithHostArgs(pack, 1, s, NULL, &block, 32, NULL, 0), ACL_ERROR_RT_PARAM_INVALID,
                "a 32-byte block for pack's 40 bytes of declared parameters");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "argsSize 32") != NULL && strstr(msg, "the 5 parameters of kernel \"pack\" take 40 bytes") != NULL,
           "the message names argsSize and the declared parameters: %s", msg ? msg : "(none)");
    CHECK(aclrtLaunchKernelWithHostArgs(pack, 1, s, NULL, &block, sizeof block, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 5 && host[1] == 6 && host[2] == 7 && host[3] == 8, "aclrtLaunchKernelWithHostArgs with the full 40-byte block");

    /* GOCANN_KERNEL_PARAMS(tick): no parameters, an empty block. */
    void *none[1] = {NULL};
    CHECK(aclrtLaunchKernelWithArgsArray(tick, 3, s, NULL, none));
    CHECK(aclrtLaunchKernelWithHostArgs(tick, 4, s, NULL, NULL, 0, NULL, 0));
    void *rargs[1] = {&out};
    CHECK(aclrtLaunchKernelWithArgsArray(readTicks, 1, s, NULL, rargs));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(host, sizeof host[0], out, sizeof host[0], ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 7, "a kernel declared with no parameters runs with an empty argument list and block (%lld blocks counted)",
           (long long)host[0]);

    /* No declaration and no debug information: the launch with a block
     * runs unchecked; the one that must know the sizes is refused. */
    CHECK(aclrtLaunchKernelWithHostArgs(undeclared, 1, s, NULL, &block, sizeof block.out, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(host, sizeof host[0], out, sizeof host[0], ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 7, "an undeclared kernel runs with the block it is given, unchecked");
    clear_errors();
    aclError rc = aclrtLaunchKernelWithArgsArray(undeclared, 1, s, NULL, rargs);
    msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_PARAM_INVALID && msg != NULL &&
               strstr(msg, "build it with -g, or declare them with GOCANN_KERNEL_PARAMS(undeclared, GOCANN_PARAM_...)") != NULL,
           "aclrtLaunchKernelWithArgsArray of an undeclared kernel -> %d, naming the macro: %s", rc, msg ? msg : "(none)");

    /* Declared float and double parameters reach the kernel in the
     * floating-point registers and, past eight, on the stack. */
    aclrtFuncHandle fmix = NULL;
    void *fout = NULL;
    double fhost[11] = {0};
    CHECK(aclrtBinaryGetFunction(bin, "fmix", &fmix));
    CHECK(aclrtMalloc(&fout, sizeof fhost, ACL_MEM_MALLOC_NORMAL_ONLY));
    float fa = 1.5f, fc = -2.25f, fi = 1e-3f;
    int32_t fn = -42;
    double fb = 3.125, fd = 4.5, fe = -5.75, ff = 6e10, fg = 7.0625, fh = -8.5, fj = 9.25;
    void *fargs[12] = {&fout, &fa, &fn, &fb, &fc, &fd, &fe, &ff, &fg, &fh, &fi, &fj};
    CHECK(aclrtLaunchKernelWithArgsArray(fmix, 1, s, NULL, fargs));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(fhost, sizeof fhost, fout, sizeof fhost, ACL_MEMCPY_DEVICE_TO_HOST));
    double fwant[11] = {fa, fb, fc, fd, fe, ff, fg, fh, fi, fj, fn};
    int fright = 0;
    for (int k = 0; k < 11; k++) {
        fright += fhost[k] == fwant[k];
    }
    EXPECT(fright == 11, "aclrtLaunchKernelWithArgsArray passes 3 floats and 7 doubles among pointer and int32 parameters (%d of 11 right)",
           fright);
    /* The same through an argument block of 8-byte slots, a float in the
     * low half of its slot. */
    union slot {
        uint64_t u;
        float f;
        double d;
        int32_t i;
        void *p;
    } block2[12];
    memset(block2, 0, sizeof block2);
    block2[0].p = fout;
    block2[1].f = 0.5f;
    block2[2].i = 7;
    block2[3].d = -1.0;
    block2[4].f = 2.5f;
    for (int k = 5; k < 10; k++) {
        block2[k].d = k * 10.0;
    }
    block2[10].f = 0.25f;
    block2[11].d = 1e-9;
    CHECK(aclrtLaunchKernelWithHostArgs(fmix, 2, s, NULL, block2, sizeof block2, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(fhost, sizeof fhost, fout, sizeof fhost, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(fhost[0] == 0.5 && fhost[1] == -1.0 && fhost[2] == 2.5 && fhost[3] == 50.0 && fhost[7] == 90.0 &&
               fhost[8] == 0.25 && fhost[9] == 1e-9 && fhost[10] == 7,
           "aclrtLaunchKernelWithHostArgs: the floats and doubles of a block of 8-byte slots, %g .. %g", fhost[0], fhost[9]);
    CHECK(aclrtFree(fout));

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(out));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 39_params\n");
    return 0;
}
