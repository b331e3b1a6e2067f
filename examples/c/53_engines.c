/*
 * 53_engines: float overflow, and the engines besides the AI cores.
 *
 * On the default chip (Atlas A2, 910B1): the saturation mode, the stream
 * overflow switch and the overflow status under each of its names;
 * aclrtRegisterCpuFunc refusing a
 * binary loaded from a file, and registering a function of a binary
 * loaded from data in CPU kernel mode 2 as an AI CPU operator whose 24
 * blocks run on the 6 AI CPU cores (peak counting them); a kernel
 * reporting overflow (gocann_report_overflow) setting the overflow status
 * only with the stream's switch on; SIMT launches refused.
 *
 * On Ascend 950: SIMT launches (aclrtLaunchSIMTKernelWithArgsArray and
 * WithHostArgs) of mirror, whose threads read each other's slots after
 * asc_syncthreads, and their refusals.
 *
 * Usage: 53_engines <kernel binary with peak, mirror and overflows>
 */
#include "common.h"

static aclrtStream s;

static void *dmalloc(size_t n)
{
    void *p = NULL;
    CHECK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(p, n, 0, n));
    return p;
}

static void get(void *host, const void *dev, size_t n)
{
    CHECK(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
}

static void put(void *dev, const void *host, size_t n)
{
    CHECK(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE));
}

/* f16sum sums 60000 + 60000 as float16 on stream st. */
static uint16_t f16sum(aclrtStream st)
{
    void *a = dmalloc(2), *b = dmalloc(2);
    uint16_t x = 0x7B53, r; /* 60000 */
    put(a, &x, 2);
    put(b, &x, 2);
    CHECK(aclrtReduceAsync(a, b, 2, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, st, NULL));
    CHECK(aclrtSynchronizeStream(st));
    get(&r, a, 2);
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
    return r;
}

static uint32_t status(aclrtStream st, void *out, int how)
{
    uint32_t w[16];
    CHECK(aclrtMemset(out, 64, 0xff, 64));
    if (how == 0) {
        CHECK(aclrtGetOverflowStatus(out, 64, st));
    } else if (how == 1) {
        CHECK(aclrtGetFloatOverflowStatus(out, 64, st));
    } else {
        CHECK(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, st));
    }
    CHECK(aclrtSynchronizeStream(st));
    get(w, out, 64);
    return w[0];
}

static void overflow(void)
{
    aclrtFloatOverflowMode mode;
    aclrtStream sat;
    uint32_t flag = 9;
    void *out = dmalloc(64);

    CHECK(aclrtGetDeviceSatMode(&mode));
    EXPECT(mode == ACL_RT_OVERFLOW_MODE_INFNAN, "default saturation mode INFNAN (%d)", mode);
    CHECK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    CHECK(aclrtCreateStream(&sat));
    CHECK(aclrtGetDeviceSatMode(&mode));
    EXPECT(mode == ACL_RT_OVERFLOW_MODE_SATURATION, "aclrtSetDeviceSatMode(SATURATION) reads back (%d)", mode);
    uint16_t r = f16sum(sat);
    EXPECT(r == 0x7BFF, "a stream created after it saturates 60000+60000 to %#06x", r);
    r = f16sum(s);
    EXPECT(r == 0x7C00, "an older stream gives %#06x (inf)", r);
    CHECK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    REFUSE(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)2), ACL_ERROR_RT_PARAM_INVALID, "mode 2",
           "aclrtSetDeviceSatMode(2)");

    CHECK(aclrtGetStreamOverflowSwitch(s, &flag));
    EXPECT(flag == 0, "the overflow switch is off by default (%u)", flag);
    (void)f16sum(s);
    EXPECT(status(s, out, 0) == 0, "an overflow with the switch off is not flagged");
    CHECK(aclrtSetStreamOverflowSwitch(s, 1));
    CHECK(aclrtGetStreamOverflowSwitch(s, &flag));
    EXPECT(flag == 1, "aclrtSetStreamOverflowSwitch(1) reads back (%u)", flag);
    (void)f16sum(s);
    EXPECT(status(s, out, 0) == 1, "aclrtGetOverflowStatus: 1 after an overflowing reduce");
    EXPECT(status(sat, out, 1) == 1, "aclrtGetFloatOverflowStatus through another stream: the device's status");
    EXPECT(status(s, out, 2) == 1, "aclrtNpuGetFloatOverFlowStatus: the same status");
    void *addr = NULL, *addr2 = NULL;
    uint32_t word = 0;
    CHECK(aclrtCtxGetFloatOverflowAddr(&addr));
    CHECK(aclrtCtxGetFloatOverflowAddr(&addr2));
    get(&word, addr, 4);
    EXPECT(addr != NULL && addr == addr2 && word == 1, "aclrtCtxGetFloatOverflowAddr: stable %p, first word %u",
           addr, word);
    CHECK(aclrtResetOverflowStatus(s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(status(s, out, 0) == 0, "aclrtResetOverflowStatus clears it");
    (void)f16sum(s);
    CHECK(aclrtResetFloatOverflowStatus(s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(status(s, out, 1) == 0, "aclrtResetFloatOverflowStatus clears it");
    (void)f16sum(s);
    CHECK(aclrtNpuClearFloatOverFlowStatus(0, s));
    CHECK(aclrtSynchronizeStream(s));
    get(&word, addr, 4);
    EXPECT(status(s, out, 2) == 0 && word == 0, "aclrtNpuClearFloatOverFlowStatus clears it");

    REFUSE(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM, "flag 2", "aclrtSetStreamOverflowSwitch(2)");
    REFUSE(aclrtGetOverflowStatus(out, 32, s), ACL_ERROR_RT_PARAM_INVALID, "outputSize 32",
           "aclrtGetOverflowStatus of 32 bytes");
    CHECK(aclrtSetStreamOverflowSwitch(s, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtDestroyStream(sat));
    CHECK(aclrtFree(out));
}

static char *binary_path;

/* read_file returns the bytes of path and their count in *n. */
static void *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    void *b = NULL;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
        *n = (size_t)ftell(f);
        b = malloc(*n);
        if (b != NULL && (fseek(f, 0, SEEK_SET) != 0 || fread(b, 1, *n, f) != *n)) {
            free(b);
            b = NULL;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    if (b == NULL) {
        fprintf(stderr, "FAIL: cannot read %s\n", path);
        exit(1);
    }
    return b;
}

static void engines(aclrtBinHandle fileBin)
{
    aclrtFuncHandle f = NULL;
    REFUSE(aclrtRegisterCpuFunc(fileBin, "peak", "PeakOp", &f), ACL_ERROR_RT_PARAM_INVALID, "not an AI CPU binary",
           "aclrtRegisterCpuFunc of a binary loaded from a file");
    size_t n = 0;
    void *data = read_file(binary_path, &n);
    aclrtBinaryLoadOption opt = {.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE};
    opt.value.cpuKernelMode = 2;
    aclrtBinaryLoadOptions opts = {.options = &opt, .numOpt = 1};
    aclrtBinHandle bin = NULL;
    CHECK(aclrtBinaryLoadFromData(data, n, &opts, &bin));
    free(data);
    REFUSE(aclrtRegisterCpuFunc(bin, NULL, "PeakOp", &f), ACL_ERROR_INVALID_PARAM, "funcName",
           "aclrtRegisterCpuFunc with funcName NULL");
    CHECK(aclrtRegisterCpuFunc(bin, "peak", "PeakOp", &f));
    char name[32] = {0};
    CHECK(aclrtGetFunctionName(f, sizeof name, name));
    void *words = dmalloc(24);
    void *args[] = {&words};
    CHECK(aclrtLaunchKernelWithArgsArray(f, 24, s, NULL, args));
    CHECK(aclrtSynchronizeStream(s));
    int64_t w[3];
    get(w, words, sizeof w);
    EXPECT(strcmp(name, "PeakOp") == 0 && w[2] == 24 && w[1] >= 2 && w[1] <= 6,
           "AI CPU operator %s: 24 blocks ran, at most %lld at once (the 6 AI CPU cores)", name, (long long)w[1]);

    /* A kernel reporting overflow on a stream with the switch on. */
    aclrtFuncHandle ov = NULL;
    CHECK(aclrtBinaryGetFunction(fileBin, "overflows", &ov));
    void *out = dmalloc(64);
    CHECK(aclrtSetStreamOverflowSwitch(s, 1));
    CHECK(aclrtResetOverflowStatus(s));
    CHECK(aclrtLaunchKernelWithArgsArray(ov, 4, s, NULL, NULL));
    EXPECT(status(s, out, 0) == 1, "gocann_report_overflow sets the overflow status");
    CHECK(aclrtSetStreamOverflowSwitch(s, 0));
    CHECK(aclrtResetOverflowStatus(s));
    CHECK(aclrtLaunchKernelWithArgsArray(ov, 4, s, NULL, NULL));
    EXPECT(status(s, out, 0) == 0, "with the switch off it does not");

    aclrtFuncHandle m = NULL;
    CHECK(aclrtBinaryGetFunction(fileBin, "mirror", &m));
    dim3 one = {1, 1, 1};
    REFUSE(aclrtLaunchSIMTKernelWithArgsArray(m, one, one, 0, s, NULL, args), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtLaunchSIMTKernelWithArgsArray", "aclrtLaunchSIMTKernelWithArgsArray on an Atlas A2");
    CHECK(aclrtFree(words));
    CHECK(aclrtFree(out));
    CHECK(aclrtBinaryUnLoad(bin));
}

static void simt_950(void)
{
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle m = NULL, p = NULL;
    CHECK(aclrtBinaryLoadFromFile(binary_path, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "mirror", &m));
    CHECK(aclrtBinaryGetFunction(bin, "peak", &p));
    enum { T = 128, B = 3 };
    void *in = dmalloc(8 * T * B), *out = dmalloc(8 * T * B);
    void *args[] = {&in, &out};
    dim3 grid = {B, 1, 1}, block = {T, 1, 1};
    CHECK(aclrtLaunchSIMTKernelWithArgsArray(m, grid, block, 0, s, NULL, args));
    CHECK(aclrtSynchronizeStream(s));
    uint64_t o[T * B];
    get(o, out, sizeof o);
    int good = 1;
    for (int i = 0; i < T * B; i++) {
        good &= o[i] == (uint64_t)(T - i % T);
    }
    EXPECT(good, "SIMT mirror: %d blocks of %d threads each read their mirror's slot after asc_syncthreads", B, T);
    uint64_t host[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    CHECK(aclrtMemset(out, 8 * T * B, 0, 8 * T * B));
    CHECK(aclrtLaunchSIMTKernelWithHostArgs(m, grid, block, 0, s, NULL, host, sizeof host, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    get(o, out, sizeof o);
    EXPECT(o[0] == T && o[T * B - 1] == 1, "aclrtLaunchSIMTKernelWithHostArgs: the same");
    dim3 zero = {0, 1, 1}, big = {4096, 1, 1};
    REFUSE(aclrtLaunchSIMTKernelWithArgsArray(m, zero, block, 0, s, NULL, args), ACL_ERROR_RT_PARAM_INVALID,
           "gridDim", "aclrtLaunchSIMTKernelWithArgsArray with gridDim.x 0");
    REFUSE(aclrtLaunchSIMTKernelWithArgsArray(m, grid, big, 0, s, NULL, args), ACL_ERROR_RT_PARAM_INVALID,
           "4096 threads", "aclrtLaunchSIMTKernelWithArgsArray of 4096 threads a block");
    REFUSE(aclrtLaunchSIMTKernelWithArgsArray(p, grid, block, 0, s, NULL, args), ACL_ERROR_RT_PARAM_INVALID,
           "not a SIMT kernel", "aclrtLaunchSIMTKernelWithArgsArray of a kernel that is not SIMT");
    CHECK(aclrtFree(in));
    CHECK(aclrtFree(out));
    CHECK(aclrtBinaryUnLoad(bin));
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary with peak, mirror and overflows>\n", argv[0]);
        return 2;
    }
    binary_path = argv[1];
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(binary_path, NULL, &bin));
    overflow();
    engines(bin);
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    init_chip("/tmp/53_engines_950.json", "Ascend950PR_9599");
    CHECK(aclrtCreateStream(&s));
    simt_950();
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 53_engines\n");
    return 0;
}
