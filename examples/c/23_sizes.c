/*
 * 23_sizes: sizes and counts far past what the memory behind them can be.
 * Every size_t the API takes is checked whole: a value above 2^31 or 2^32
 * is neither cut to a narrower integer (which made 2^32 + 8 read as 8)
 * nor used to size a copy or an allocation (which aborted the process),
 * and a sum or product of sizes that wraps does not pass a bounds check
 * as a small number. Each call is refused with its code and a message
 * naming the parameter, on an idle stream and, for the launch calls, on a
 * held one, where a valid launch goes straight into the stream's queue.
 * Launches whose argument block is shorter than the kernel's parameters,
 * which its debug information gives, are refused the same way.
 *
 * Usage: 23_sizes <kernel binary with append_log, count_up and trap_now>
 */
#include "direct.h"

static const size_t huge[] = {0x80000000u, 0x100000008ull, 1ull << 40, 1ull << 62, SIZE_MAX, 0xfffffffffffff000ull};
#define NHUGE (sizeof huge / sizeof huge[0])

/* check_refused: rc must be want, and the thread's message must name param
 * and, unless valueNamed is 0, the value v in decimal. */
static void check_refused(const char *file, int line, aclError rc, aclError want, const char *param, int valueNamed,
                          size_t v, const char *what)
{
    char num[32], msg[1024];
    const char *m = aclGetRecentErrMsg();
    snprintf(msg, sizeof msg, "%s", m ? m : "(null)"); /* fail_exit reads the message again, which ends m */
    snprintf(num, sizeof num, "%zu", v);
    if (rc != want) {
        fail_exit(file, line, rc, "%s with %#zx: returned %d, expected %d (message: %s)", what, v, rc, (int)want, msg);
    }
    if (m == NULL || strstr(msg, param) == NULL || (valueNamed && strstr(msg, num) == NULL)) {
        fail_exit(file, line, rc, "%s with %#zx: the message does not name %s%s%s: %s", what, v, param,
                  valueNamed ? " and " : "", valueNamed ? num : "", msg);
    }
}

/* EACH_REFUSED(call, want, param, named, what): call, which uses v, is
 * refused with want for each of the huge sizes v. */
#define EACH_REFUSED(call, want, param, named, what)                                                  \
    do {                                                                                            \
        for (size_t each_i_ = 0; each_i_ < NHUGE; each_i_++) {                                      \
            size_t v = huge[each_i_];                                                               \
            clear_errors();                                                                         \
            aclError each_rc_ = (call);                                                             \
            check_refused(__FILE__, __LINE__, each_rc_, (want), (param), (named), v, (what));       \
        }                                                                                           \
        pass("%s: each of the %zu sizes -> %d, the message naming %s", (what), NHUGE, (int)(want), (param)); \
    } while (0)

static uint64_t block[8]; /* a 64-byte host argument block */

/* ---- 1. Launch argument blocks --------------------------------------- */

static void launches(aclrtStream s, const char *state)
{
    char what[200];
    aclrtPlaceHolderInfo ph = {0, 8};
    void *slot = countDev;
    memcpy(block, &slot, sizeof slot);
#define W(text) (snprintf(what, sizeof what, "%s stream: %s", state, text), what)
    EACH_REFUSED(aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, block, v, NULL, 0), ACL_ERROR_RT_PARAM_INVALID,
                 "argsSize", 1, W("aclrtLaunchKernelWithHostArgs argsSize"));
    EACH_REFUSED(aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, block, v, &ph, 1), ACL_ERROR_RT_PARAM_INVALID,
                 "argsSize", 1, W("aclrtLaunchKernelWithHostArgs argsSize with a placeholder"));
    EACH_REFUSED(aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, block, 16, &ph, v), ACL_ERROR_RT_PARAM_INVALID,
                 "placeHolderNum", 1, W("aclrtLaunchKernelWithHostArgs placeHolderNum"));
    EACH_REFUSED(aclrtLaunchKernel(countFn, 1, block, v, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize", 1,
                 W("aclrtLaunchKernel argsSize"));
    EACH_REFUSED(aclrtLaunchKernelV2(countFn, 1, block, v, NULL, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize", 1,
                 W("aclrtLaunchKernelV2 argsSize"));

    /* Fewer argument bytes than the kernel's parameters take: count_up
     * takes one pointer, append_log four 8-byte parameters. */
    REFUSED(aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, block, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 0 for count_up's one parameter (aclrtLaunchKernelWithHostArgs)"));
    REFUSED(aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, NULL, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 0 and hostArgs NULL for count_up (aclrtLaunchKernelWithHostArgs)"));
    REFUSED(aclrtLaunchKernel(countFn, 1, NULL, 0, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 0 for count_up (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2(countFn, 1, block, 0, NULL, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 0 for count_up (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 1, s, NULL, block, 24, NULL, 0), ACL_ERROR_RT_PARAM_INVALID,
            "expected at least 32", W("argsSize 24 for append_log's 32 bytes of parameters"));
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 1, s, NULL, block, 64, &ph, 1), ACL_ERROR_RT_PARAM_INVALID,
            "expected at least 32", W("placeholder data at 8, inside append_log's 32 bytes of parameters"));
#undef W
}

static void launch_sizes(aclrtStream s)
{
    write_u64(countDev, 0);
    launches(s, "idle");
    hold(s);
    CHECK(count_via(s, countDev, 3)); /* s is busy: a valid launch goes direct */
    launches(s, "held");
    release();
    CHECK(aclrtSynchronizeStream(s));
    uint64_t c = read_u64(countDev);
    EXPECT(c == 1, "of the launches on the held stream only the valid one ran (count %llu)", (unsigned long long)c);

    /* An argument list without the parameter the kernel takes. */
    aclrtArgsHandle list = NULL;
    CHECK(aclrtKernelArgsInit(countFn, &list));
    CHECK(aclrtKernelArgsFinalize(list));
    REFUSED(aclrtLaunchKernelWithConfig(countFn, 1, s, NULL, list, NULL), ACL_ERROR_RT_PARAM_INVALID, "expected at least 8",
            "an empty argument list for count_up (aclrtLaunchKernelWithConfig)");
    clear_errors();
}

/* ---- 2. Binaries and argument lists ---------------------------------- */

static void *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read %s", path);
    }
    long len = ftell(f);
    void *p = malloc((size_t)len);
    rewind(f);
    if (len <= 0 || p == NULL || fread(p, 1, (size_t)len, f) != (size_t)len) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read %s", path);
    }
    fclose(f);
    *n = (size_t)len;
    return p;
}

static void binaries_and_lists(const char *kernels)
{
    size_t n = 0;
    void *image = read_all(kernels, &n);
    aclrtBinHandle b = NULL;
    EACH_REFUSED(aclrtBinaryLoadFromData(image, v, NULL, &b), ACL_ERROR_RT_PARAM_INVALID, "length", 1,
                 "aclrtBinaryLoadFromData length");
    CHECK(aclrtBinaryLoadFromData(image, n, NULL, &b));
    CHECK(aclrtBinaryUnLoad(b));
    pass("aclrtBinaryLoadFromData with the binary's own length (%zu bytes) loads it", n);
    free(image);

    /* The size an argument list needs is userArgsSize rounded up to 8:
     * exact for each of these but SIZE_MAX, whose rounding wraps to 0. */
    int exact = 0;
    for (size_t i = 0; i < NHUGE; i++) {
        size_t actual = 0;
        clear_errors();
        aclError rc = aclrtKernelArgsGetMemSize(countFn, huge[i], &actual);
        if (huge[i] == SIZE_MAX) {
            check_refused(__FILE__, __LINE__, rc, ACL_ERROR_RT_PARAM_INVALID, "userArgsSize", 1, huge[i],
                          "aclrtKernelArgsGetMemSize userArgsSize");
        } else {
            exact += rc == ACL_SUCCESS && actual == huge[i];
        }
    }
    EXPECT(exact == (int)NHUGE - 1, "aclrtKernelArgsGetMemSize: each size exact (%d of %zu), SIZE_MAX refused", exact,
           NHUGE - 1);

    uint64_t value = 7;
    aclrtArgsHandle list = NULL;
    aclrtParamHandle p = NULL, ph = NULL;
    void *buf = NULL;
    CHECK(aclrtKernelArgsInit(appendFn, &list));
    EACH_REFUSED(aclrtKernelArgsAppend(list, &value, v, &p), ACL_ERROR_RT_PARAM_INVALID, "paramSize", 1,
                 "aclrtKernelArgsAppend paramSize");
    CHECK(aclrtKernelArgsAppend(list, &value, sizeof value, &p));
    EACH_REFUSED(aclrtKernelArgsParaUpdate(list, p, &value, v), ACL_ERROR_RT_PARAM_INVALID, "paramSize", 1,
                 "aclrtKernelArgsParaUpdate paramSize");
    CHECK(aclrtKernelArgsAppendPlaceHolder(list, &ph));
    EACH_REFUSED(aclrtKernelArgsGetPlaceHolderBuffer(list, ph, v, &buf), ACL_ERROR_RT_PARAM_INVALID, "dataSize", 1,
                 "aclrtKernelArgsGetPlaceHolderBuffer dataSize (a list of 64 KiB)");
    EXPECT(buf == NULL, "no buffer was handed out for them");
    CHECK(aclrtKernelArgsGetPlaceHolderBuffer(list, ph, (64 << 10) - 16 /* the list holds 64 KiB */, &buf));
    EXPECT(buf != NULL, "aclrtKernelArgsGetPlaceHolderBuffer of the list's last 65520 bytes");
    REFUSED(aclrtKernelArgsGetPlaceHolderBuffer(list, ph, (64 << 10) - 15, &buf), ACL_ERROR_RT_PARAM_INVALID, "dataSize",
            "aclrtKernelArgsGetPlaceHolderBuffer of one byte more than the list holds");

    /* A list in caller memory holds what that memory holds: here a
     * parameter, a placeholder and 8 bytes of its data. */
    size_t memSize = 0, actual = 0;
    CHECK(aclrtKernelArgsGetHandleMemSize(appendFn, &memSize));
    CHECK(aclrtKernelArgsGetMemSize(appendFn, 24, &actual));
    void *handleMem = malloc(memSize), *argsMem = malloc(actual);
    aclrtArgsHandle user = (aclrtArgsHandle)handleMem;
    REFUSED(aclrtKernelArgsInitByUserMem(appendFn, user, argsMem, 0), ACL_ERROR_RT_PARAM_INVALID, "actualArgsSize",
            "aclrtKernelArgsInitByUserMem with actualArgsSize 0");
    CHECK(aclrtKernelArgsInitByUserMem(appendFn, user, argsMem, actual));
    CHECK(aclrtKernelArgsAppend(user, &value, sizeof value, &p));
    CHECK(aclrtKernelArgsAppendPlaceHolder(user, &ph));
    EACH_REFUSED(aclrtKernelArgsGetPlaceHolderBuffer(user, ph, v, &buf), ACL_ERROR_RT_PARAM_INVALID, "dataSize", 1,
                 "aclrtKernelArgsGetPlaceHolderBuffer dataSize (a list in 24 bytes of caller memory)");
    CHECK(aclrtKernelArgsGetPlaceHolderBuffer(user, ph, 8, &buf));
    REFUSED(aclrtKernelArgsAppend(user, &value, sizeof value, &p), ACL_ERROR_RT_PARAM_INVALID, "at most 24",
            "aclrtKernelArgsAppend past the caller's 24 bytes");
    clear_errors();
    free(handleMem);
    free(argsMem);
}

/* ---- 3. Copies ------------------------------------------------------- */

static void copies(aclrtStream s)
{
    void *dev = NULL, *dev2 = NULL, *pinned = NULL;
    char pageable[256];
    CHECK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&dev2, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMallocHost(&pinned, 4096));
    memset(pageable, 0, sizeof pageable);

    /* Rows v bytes apart: most run past the 4096 bytes, and the widest
     * wrap past 2^64 to a few bytes, which must not pass as in range. */
    EACH_REFUSED(aclrtMemcpy2dAsync(dev, v, dev2, 16, 16, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
                 "dpitch", 1, "aclrtMemcpy2dAsync dpitch");
    EACH_REFUSED(aclrtMemcpy2dAsync(dev, 16, dev2, v, 16, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
                 "spitch", 1, "aclrtMemcpy2dAsync spitch");
    EACH_REFUSED(aclrtMemcpy2d(dev, 16, pinned, v, 16, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "spitch",
                 1, "aclrtMemcpy2d spitch from page-locked memory");
    EACH_REFUSED(aclrtMemcpy2d(pinned, v, dev, 16, 16, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "dpitch",
                 1, "aclrtMemcpy2d dpitch into page-locked memory");
    EACH_REFUSED(aclrtMemcpy2d(dev, v, pageable, v, v, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "width",
                 1, "aclrtMemcpy2d width");
    EACH_REFUSED(aclrtMemcpy2d(dev, 16, pageable, 16, 16, v, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                 "height", 1, "aclrtMemcpy2d height");
    CHECK(aclrtSynchronizeStream(s));

    /* Counts past a buffer: page-locked and device memory are checked
     * against their allocations; pageable memory, which the runtime cannot
     * measure, at least against the end of the host address space. */
    EACH_REFUSED(aclrtMemcpy(pinned, v, pageable, v, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "dst", 0,
                 "aclrtMemcpy count into page-locked memory");
    EACH_REFUSED(aclrtMemcpyAsync(dev, v, pageable, v, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID, "dst",
                 0, "aclrtMemcpyAsync count into device memory");
    EACH_REFUSED(aclrtMemsetAsync(pinned, v, 0, v, s), ACL_ERROR_RT_PARAM_INVALID, "devPtr", 0,
                 "aclrtMemsetAsync count on page-locked memory");
    for (size_t i = 3; i < NHUGE; i++) { /* 2^62 and up */
        clear_errors();
        check_refused(__FILE__, __LINE__, aclrtMemcpy(pageable, huge[i], pageable + 128, huge[i], ACL_MEMCPY_HOST_TO_HOST),
                      ACL_ERROR_RT_PARAM_INVALID, "host address space", 0, huge[i], "aclrtMemcpy of pageable memory");
        clear_errors();
        check_refused(__FILE__, __LINE__,
                      aclrtMemcpyAsync(pageable, huge[i], pageable + 128, huge[i], ACL_MEMCPY_HOST_TO_HOST, s),
                      ACL_ERROR_RT_PARAM_INVALID, "host address space", 0, huge[i], "aclrtMemcpyAsync of pageable memory");
    }
    pass("aclrtMemcpy and aclrtMemcpyAsync of pageable memory, counts 2^62, SIZE_MAX and 2^64 - 4096: each -> %d",
         ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtSynchronizeStream(s));
    clear_errors();
    CHECK(aclrtFree(dev));
    CHECK(aclrtFree(dev2));
    CHECK(aclrtFreeHost(pinned));
}

/* ---- 4. Configuration arrays ----------------------------------------- */

/* Attribute arrays of one entry, given with counts whose arrays would
 * reach past the end of the host address space (2^62 and up). */
static void configs(const char *kernels, aclrtStream s)
{
    aclrtLaunchKernelAttr attr;
    aclrtBinaryLoadOption opt;
    aclrtMallocAttribute mattr;
    aclrtBinHandle b = NULL;
    void *dev = NULL;
    void *slot = countDev;
    memset(&attr, 0, sizeof attr);
    memset(&opt, 0, sizeof opt);
    memset(&mattr, 0, sizeof mattr);
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    opt.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    mattr.attr = ACL_RT_MEM_ATTR_RSV;
    for (size_t i = 3; i < NHUGE; i++) {
        aclrtLaunchKernelCfg cfg = {&attr, huge[i]};
        aclrtBinaryLoadOptions opts = {&opt, huge[i]};
        aclrtMallocConfig mcfg = {&mattr, huge[i]};
        clear_errors();
        check_refused(__FILE__, __LINE__, aclrtLaunchKernelV2(countFn, 1, &slot, sizeof slot, &cfg, s),
                      ACL_ERROR_RT_PARAM_INVALID, "cfg->numAttrs", 1, huge[i], "aclrtLaunchKernelV2 cfg->numAttrs");
        clear_errors();
        check_refused(__FILE__, __LINE__, aclrtLaunchKernelWithHostArgs(countFn, 1, s, &cfg, &slot, sizeof slot, NULL, 0),
                      ACL_ERROR_RT_PARAM_INVALID, "cfg->numAttrs", 1, huge[i], "aclrtLaunchKernelWithHostArgs cfg->numAttrs");
        clear_errors();
        check_refused(__FILE__, __LINE__, aclrtBinaryLoadFromFile(kernels, &opts, &b), ACL_ERROR_RT_PARAM_INVALID,
                      "options->numOpt", 1, huge[i], "aclrtBinaryLoadFromFile options->numOpt");
        clear_errors();
        check_refused(__FILE__, __LINE__, aclrtMallocWithCfg(&dev, 64, ACL_MEM_MALLOC_NORMAL_ONLY, &mcfg),
                      ACL_ERROR_RT_PARAM_INVALID, "cfg->numAttrs", 1, huge[i], "aclrtMallocWithCfg cfg->numAttrs");
    }
    pass("launch, load and malloc configurations with 2^62, SIZE_MAX and 2^64 - 4096 attributes: each -> %d, "
         "the message naming the count", ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(b == NULL && dev == NULL, "nothing was loaded or allocated for them");
    aclrtLaunchKernelCfg one = {&attr, 1};
    CHECK(aclrtLaunchKernelV2(countFn, 1, &slot, sizeof slot, &one, s));
    CHECK(aclrtSynchronizeStream(s));
    clear_errors();
}

/* ---- 5. Captured tasks ----------------------------------------------- */

static void captured(aclrtStream s)
{
    aclmdlRI m = NULL, branches[1];
    aclmdlRICondHandle cond = NULL;
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(count_via(s, countDev, 3));
    aclmdlRI capturing = NULL;
    aclmdlRICaptureStatus st;
    CHECK(aclmdlRICaptureGetInfo(s, &st, &capturing));
    CHECK(aclmdlRICondHandleCreate(capturing, 0, 0, &cond));
    /* Each branch is a model made at once. */
    uint32_t counts[] = {65536, UINT32_MAX};
    for (int i = 0; i < 2; i++) {
        aclmdlRICondTaskParams cp = {cond, ACL_MODEL_RI_COND_TYPE_SWITCH, counts[i], branches};
        clear_errors();
        check_refused(__FILE__, __LINE__, aclmdlRIAddCondTask(cp, s, 0), ACL_ERROR_RT_PARAM_INVALID, "branches", 1,
                      counts[i], "aclmdlRIAddCondTask SWITCH size");
    }
    pass("aclmdlRIAddCondTask SWITCH with 65536 and 2^32 - 1 branches -> %d", ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclmdlRICaptureEnd(s, &m));

    aclrtStream ms[1];
    aclmdlRITask tasks[2];
    uint32_t nms = 1, nt = 2;
    aclmdlRITaskParams tp;
    CHECK(aclmdlRIGetStreams(m, ms, &nms));
    CHECK(aclmdlRIGetTasksByStream(ms[0], tasks, &nt));
    CHECK(aclmdlRITaskGetParams(tasks[0], &tp));
    EXPECT(tp.type == ACL_MODEL_RI_TASK_KERNEL && tp.kernelTaskParams.argsSize == 8,
           "the captured count_up: a kernel task with 8 bytes of arguments");
    void *slot = countDev;
    tp.kernelTaskParams.args = &slot;
    tp.kernelTaskParams.isHostArgs = 1;
    EACH_REFUSED((tp.kernelTaskParams.argsSize = v, aclmdlRITaskSetParams(tasks[0], &tp)), ACL_ERROR_RT_PARAM_INVALID,
                 "argsSize", 1, "aclmdlRITaskSetParams kernelTaskParams.argsSize");
    tp.kernelTaskParams.argsSize = 0;
    REFUSED(aclmdlRITaskSetParams(tasks[0], &tp), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            "aclmdlRITaskSetParams with argsSize 0 for count_up's one parameter");
    clear_errors();
    CHECK(aclmdlRIDestroy(m));
}

int main(int argc, char **argv)
{
    aclrtStream s = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    aclrtBinHandle bin = direct_open(argv[1], &s);
    launch_sizes(s);
    binaries_and_lists(argv[1]);
    copies(s);
    configs(argv[1], s);
    captured(s);
    direct_close(bin, s);
    printf("PASS 23_sizes\n");
    return 0;
}
