/*
 * 09_kernel: one vector addition through every launch call, kernel
 * binaries from a file and from memory, function names, traps, printf in
 * kernels, binaries that are refused, and unloading.
 *
 * Usage: 09_kernel <kernel binary built with -g, with vadd, vadd_n32,
 *                   trap_block and hello>
 */
#include "common.h"

#define N 10007   /* not a multiple of the block count */
#define BLOCKS 8

static aclrtStream s;
static float hx[N], hy[N], hz[N];
static void *x, *y, *z;

/* Clears z, runs launch(), then checks z = x + y. */
static void check_sum(const char *what, void *zdev)
{
    CHECK(aclrtSynchronizeStream(s));
    memset(hz, 0, sizeof hz);
    CHECK(aclrtMemcpy(hz, sizeof hz, zdev, sizeof hz, ACL_MEMCPY_DEVICE_TO_HOST));
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++) {
        if (hz[i] != hx[i] + hy[i]) {
            bad = i;
        }
    }
    EXPECT(bad < 0, "%s: all %d sums right (first wrong index %d)", what, N, bad);
    CHECK(aclrtMemset(zdev, sizeof hz, 0, sizeof hz));
}

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0 ||
        (buf = malloc((size_t)n)) == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read %s", path);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL, bin2 = NULL;
    aclrtFuncHandle vadd = NULL, vadd32 = NULL, trap = NULL, hello = NULL, vadd2 = NULL;
    const uint64_t n = N;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < N; i++) {
        hx[i] = (float)i;
        hy[i] = (float)(2 * i) + 0.5f;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&x, sizeof hx, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y, sizeof hy, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&z, sizeof hz, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, sizeof hy, hy, sizeof hy, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(z, sizeof hz, 0, sizeof hz));

    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
    CHECK(aclrtBinaryGetFunction(bin, "vadd_n32", &vadd32));
    CHECK(aclrtBinaryGetFunction(bin, "trap_block", &trap));
    CHECK(aclrtBinaryGetFunction(bin, "hello", &hello));
    pass("aclrtBinaryLoadFromFile and aclrtBinaryGetFunction");
    aclrtFuncHandle again = NULL;
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &again));
    EXPECT(again == vadd, "aclrtBinaryGetFunction of the same name gives the same handle");

    char name[32];
    CHECK(aclrtGetFunctionName(vadd, sizeof name, name));
    EXPECT(strcmp(name, "vadd") == 0, "aclrtGetFunctionName = \"%s\"", name);
    EXPECT_CODE(aclrtGetFunctionName(vadd, 4, name), ACL_ERROR_RT_PARAM_INVALID, "aclrtGetFunctionName with maxLen too small");

    /* The argument block: parameters in order, each in 8 bytes. */
    struct { void *x, *y, *z; uint64_t n; } args = {x, y, z, n};

    /* aclrtLaunchKernel: the block in device memory. */
    void *dargs = NULL;
    CHECK(aclrtMalloc(&dargs, sizeof args, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(dargs, sizeof args, &args, sizeof args, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtLaunchKernel(vadd, BLOCKS, dargs, sizeof args, s));
    check_sum("aclrtLaunchKernel (arguments in device memory)", z);

    /* aclrtLaunchKernelV2 with a launch configuration. */
    aclrtLaunchKernelAttr attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[0].value.schemMode = 1;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    attrs[1].value.timeout = 30;
    aclrtLaunchKernelCfg cfg = {attrs, 2};
    CHECK(aclrtLaunchKernelV2(vadd, BLOCKS, dargs, sizeof args, &cfg, s));
    check_sum("aclrtLaunchKernelV2 (with a cfg)", z);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    EXPECT_CODE(aclrtLaunchKernelV2(vadd, BLOCKS, dargs, sizeof args, &cfg, s), ACL_ERROR_RT_PARAM_INVALID,
                "a cfg with both TIMEOUT and TIMEOUT_US");
    attrs[0].id = (aclrtLaunchKernelAttrId)77;
    EXPECT_CODE(aclrtLaunchKernelV2(vadd, BLOCKS, dargs, sizeof args, &cfg, s), ACL_ERROR_RT_PARAM_INVALID,
                "a cfg with an unknown attribute");

    /* aclrtLaunchKernelWithHostArgs: the block in host memory ... */
    CHECK(aclrtLaunchKernelWithHostArgs(vadd, BLOCKS, s, NULL, &args, sizeof args, NULL, 0));
    check_sum("aclrtLaunchKernelWithHostArgs", z);
    /* ... and with a placeholder: x's data travels in the block, after the
     * parameters; the runtime copies it to the device and points x at it. */
    struct {
        void *x, *y, *z;
        uint64_t n;
        float data[N + 1]; /* rounded up to 8 bytes */
    } *ph = calloc(1, sizeof *ph);
    if (ph == NULL) {
        return 2;
    }
    ph->x = NULL;
    ph->y = y;
    ph->z = z;
    ph->n = n;
    memcpy(ph->data, hx, sizeof hx);
    aclrtPlaceHolderInfo info = {0, (uint32_t)offsetof(__typeof__(*ph), data)};
    CHECK(aclrtLaunchKernelWithHostArgs(vadd, BLOCKS, s, NULL, ph, sizeof *ph, &info, 1));
    memset(ph->data, 0, sizeof ph->data); /* the runtime took its copy */
    check_sum("aclrtLaunchKernelWithHostArgs with a placeholder for x", z);
    EXPECT(ph->x == NULL, "the caller's block is not modified");
    EXPECT_CODE(aclrtLaunchKernelWithHostArgs(vadd, BLOCKS, s, NULL, &args, sizeof args - 4, NULL, 0),
                ACL_ERROR_RT_PARAM_INVALID, "argsSize not a multiple of 8");
    info.addrOffset = (uint32_t)sizeof *ph;
    EXPECT_CODE(aclrtLaunchKernelWithHostArgs(vadd, BLOCKS, s, NULL, ph, sizeof *ph, &info, 1), ACL_ERROR_RT_PARAM_INVALID,
                "a placeholder slot outside the block");
    free(ph);

    /* aclrtLaunchKernelWithConfig: an argument list built by the runtime,
     * x as a placeholder filled through its buffer. */
    aclrtArgsHandle list = NULL;
    aclrtParamHandle px = NULL, py = NULL, pz = NULL, pn = NULL;
    void *xbuf = NULL;
    CHECK(aclrtKernelArgsInit(vadd, &list));
    CHECK(aclrtKernelArgsAppendPlaceHolder(list, &px));
    CHECK(aclrtKernelArgsAppend(list, &y, sizeof y, &py));
    CHECK(aclrtKernelArgsAppend(list, &z, sizeof z, &pz));
    CHECK(aclrtKernelArgsAppend(list, (void *)&n, sizeof n, &pn));
    CHECK(aclrtKernelArgsGetPlaceHolderBuffer(list, px, sizeof hx, &xbuf));
    memcpy(xbuf, hx, sizeof hx);
    CHECK(aclrtKernelArgsFinalize(list));
    CHECK(aclrtLaunchKernelWithConfig(vadd, BLOCKS, s, NULL, list, NULL));
    check_sum("aclrtLaunchKernelWithConfig (Append, AppendPlaceHolder, GetPlaceHolderBuffer, Finalize)", z);
    /* Update z to another buffer: launching needs a Finalize again. */
    void *z2 = NULL;
    CHECK(aclrtMalloc(&z2, sizeof hz, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(z2, sizeof hz, 0, sizeof hz));
    CHECK(aclrtKernelArgsParaUpdate(list, pz, &z2, sizeof z2));
    EXPECT_CODE(aclrtLaunchKernelWithConfig(vadd, BLOCKS, s, NULL, list, NULL), ACL_ERROR_RT_PARAM_INVALID,
                "launch after aclrtKernelArgsParaUpdate without Finalize");
    CHECK(aclrtKernelArgsFinalize(list));
    aclrtLaunchKernelCfg cfg1 = {&attrs[1], 1};
    CHECK(aclrtLaunchKernelWithConfig(vadd, BLOCKS, s, &cfg1, list, NULL));
    check_sum("aclrtLaunchKernelWithConfig (with a cfg) after aclrtKernelArgsParaUpdate of z", z2);
    EXPECT_CODE(aclrtKernelArgsParaUpdate(list, px, &z2, sizeof z2), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtKernelArgsParaUpdate of a placeholder");
    EXPECT_CODE(aclrtKernelArgsGetPlaceHolderBuffer(list, py, 8, &xbuf), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtKernelArgsGetPlaceHolderBuffer of an appended value");
    EXPECT_CODE(aclrtLaunchKernelWithConfig(vadd, BLOCKS, s, NULL, list, (void *)1), ACL_ERROR_RT_PARAM_INVALID,
                "reserve must be NULL");
    EXPECT_CODE(aclrtLaunchKernelWithConfig(trap, 1, s, NULL, list, NULL), ACL_ERROR_RT_PARAM_INVALID,
                "an argument list built for another kernel");

    /* aclrtLaunchKernelWithArgsArray: one pointer per parameter; the sizes
     * come from the binary's debug information. */
    void *arr[4] = {&x, &y, &z, (void *)&n};
    CHECK(aclrtLaunchKernelWithArgsArray(vadd, BLOCKS, s, NULL, arr));
    check_sum("aclrtLaunchKernelWithArgsArray", z);
    uint32_t n32 = N;
    void *arr32[4] = {&x, &y, &z, &n32};
    CHECK(aclrtLaunchKernelWithArgsArray(vadd32, BLOCKS, s, NULL, arr32));
    check_sum("aclrtLaunchKernelWithArgsArray with a 4-byte parameter", z);
    /* A 16-byte struct parameter takes two slots, in both layouts. */
    aclrtFuncHandle iota = NULL;
    struct { uint64_t first, count; } span = {1000, 300};
    int64_t seq[300];
    CHECK(aclrtBinaryGetFunction(bin, "iota", &iota));
    void *arrIota[2] = {&z, &span};
    CHECK(aclrtLaunchKernelWithArgsArray(iota, 4, s, NULL, arrIota));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(seq, sizeof seq, z, sizeof seq, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(seq[0] == 1000 && seq[299] == 1299, "aclrtLaunchKernelWithArgsArray with a 16-byte struct parameter (%lld..%lld)",
           (long long)seq[0], (long long)seq[299]);
    struct { void *out; uint64_t first, count; } iargs = {z, 2000, 300};
    CHECK(aclrtLaunchKernelWithHostArgs(iota, 4, s, NULL, &iargs, sizeof iargs, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(seq, sizeof seq, z, sizeof seq, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(seq[0] == 2000 && seq[299] == 2299, "aclrtLaunchKernelWithHostArgs with the same struct in two slots");
    CHECK(aclrtMemset(z, sizeof hz, 0, sizeof hz));
    arr[1] = NULL;
    EXPECT_CODE(aclrtLaunchKernelWithArgsArray(vadd, BLOCKS, s, NULL, arr), ACL_ERROR_INVALID_PARAM, "a NULL entry in args");

    /* aclrtBinaryLoadFromData: the same binary from memory. */
    size_t len = 0;
    unsigned char *image = read_all(argv[1], &len);
    CHECK(aclrtBinaryLoadFromData(image, len, NULL, &bin2));
    CHECK(aclrtBinaryGetFunction(bin2, "vadd", &vadd2));
    CHECK(aclrtLaunchKernelWithHostArgs(vadd2, 3, s, NULL, &args, sizeof args, NULL, 0));
    check_sum("aclrtBinaryLoadFromData, 3 blocks", z);

    /* printf from a kernel reaches the process's stdout. */
    uint64_t tag = 4242;
    CHECK(aclrtLaunchKernelWithHostArgs(hello, 3, s, NULL, &tag, sizeof tag, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    pass("hello kernel ran");

    /* Trap() fails the launch; the fault is reported at synchronization. */
    void *out = NULL;
    CHECK(aclrtMalloc(&out, 8 * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
    struct { void *out; uint64_t which; } targs = {out, 2};
    CHECK(aclrtLaunchKernelWithHostArgs(trap, 4, s, NULL, &targs, sizeof targs, NULL, 0));
    clear_errors();
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "Trap() in block 2");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "trap_block") != NULL, "the fault names the kernel: %s", msg ? msg : "(null)");
    CHECK(aclrtSynchronizeStream(s));
    pass("the trap is reported once; the stream goes on");

    /* Binaries that are not for this device are refused with a message. */
    write_file("not_a_kernel.o", "this is not an ELF file\n");
    clear_errors();
    EXPECT_CODE(aclrtBinaryLoadFromFile("not_a_kernel.o", NULL, &bin2), ACL_ERROR_RT_PARAM_INVALID, "a file that is not ELF");
    msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "not an ELF") != NULL, "message: %s", msg ? msg : "(null)");
    image[18] = 0x02; /* e_machine: an ELF for another machine */
    image[19] = 0x10;
    EXPECT_CODE(aclrtBinaryLoadFromData(image, len, NULL, &bin2), ACL_ERROR_RT_PARAM_INVALID, "an ELF for another machine");
    msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "machine") != NULL, "message: %s", msg ? msg : "(null)");
    free(image);
    EXPECT_CODE(aclrtBinaryLoadFromFile("no_such_kernel.o", NULL, &bin2), ACL_ERROR_INVALID_FILE, "a file that does not exist");
    EXPECT_CODE(aclrtBinaryGetFunction(bin, "no_such_kernel", &vadd2), ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                "a kernel the binary lacks");

    /* Unloading: the handle is gone, and so are its functions. */
    CHECK(aclrtBinaryUnLoad(bin));
    pass("aclrtBinaryUnLoad");
    EXPECT_CODE(aclrtBinaryGetFunction(bin, "vadd", &vadd2), ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction after unload");
    EXPECT_CODE(aclrtBinaryUnLoad(bin), ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryUnLoad twice");
    aclError rc = aclrtLaunchKernelWithHostArgs(vadd, BLOCKS, s, NULL, &args, sizeof args, NULL, 0);
    if (rc == ACL_SUCCESS) {
        rc = aclrtSynchronizeStream(s);
    }
    EXPECT(rc != ACL_SUCCESS, "a kernel of an unloaded binary does not run (%d)", rc);
    clear_errors();

    CHECK(aclrtFree(out));
    CHECK(aclrtFree(dargs));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(z));
    CHECK(aclrtFree(z2));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 09_kernel\n");
    return 0;
}
