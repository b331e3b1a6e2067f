/*
 * The engines besides the AI cores. AI CPU operators: fz_fill registered
 * with aclrtRegisterCpuFunc on a binary loaded from data in CPU kernel
 * mode 2, launched with its bytes checked, and the refusals (NULL
 * arguments, empty or unknown names, binaries of another kind, destroyed
 * binaries and the functions they took with them). SIMT launches: refused
 * with 207000 on every chip but the Ascend 950, whatever the arguments;
 * there, fz_simt run with checked results and the refusals of bad
 * dimensions, kernels that are not SIMT and bad arguments. Each operation
 * loads, makes and destroys its own binary, stream and memory, so that a
 * fuzzed stream waiting for ever never holds its tasks.
 */
#include <string.h>

#include "fuzz.h"

static int soc_is(const char *prefix)
{
    const char *soc = aclrtGetSocName();
    return soc != NULL && strncmp(soc, prefix, strlen(prefix)) == 0;
}

/* A refusal with the exact code the runtime gives: fn and why name it. */
static void want_code(aclError rc, aclError want, const char *fn, const char *why)
{
    must_fail(rc, why);
    if (rc != 0 && rc != want) {
        char sig[160];
        snprintf(sig, sizeof sig, "%s: %s", fn, why);
        finding("WRONG CODE", sig, "returned %d, want %d", rc, want);
    }
}

/* A binary of the fuzz kernels of its own: from data in CPU kernel mode
 * mode (-1: no options), or from the file with mode 2 (file set). */
static aclrtBinHandle own_binary(int mode, int file, unsigned allow)
{
    aclrtBinaryLoadOption opt = {ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, {.cpuKernelMode = mode}};
    aclrtBinaryLoadOptions opts = {&opt, 1};
    aclrtBinHandle b = NULL;
    aclError rc;
    if (file) {
        callf("aclrtBinaryLoadFromFile(lib, cpu mode %d, &b) [own]", mode);
        rc = ret(aclrtBinaryLoadFromFile(fz.kernel_path, &opts, &b));
    } else {
        callf("aclrtBinaryLoadFromData(lib, %zu, %s%d, &b) [own]", fz.bin_len, mode < 0 ? "NULL " : "cpu mode ", mode);
        rc = ret(aclrtBinaryLoadFromData(fz.bin_data, fz.bin_len, mode < 0 ? NULL : &opts, &b));
    }
    must_pass(rc, allow);
    return rc == 0 ? b : NULL;
}

static void own_unload(aclrtBinHandle b)
{
    callf("aclrtBinaryUnLoad(own)");
    must_pass(ret(aclrtBinaryUnLoad(b)), 0);
}

/* A stream and n bytes of zeroed device memory, once or twice. */
static int own_setup(aclrtStream *s, void **a, void **b, size_t n, unsigned allow)
{
    *s = NULL;
    *a = NULL;
    if (b != NULL) {
        *b = NULL;
    }
    callf("aclrtCreateStream(&own)");
    aclError rc = ret(aclrtCreateStream(s));
    must_pass(rc, allow | AL_RESOURCE);
    if (rc != 0) {
        *s = NULL;
        return -1;
    }
    for (int i = 0; i < (b != NULL ? 2 : 1); i++) {
        void **p = i ? b : a;
        callf("aclrtMalloc(&%c, %zu) [own]", "ab"[i], n);
        rc = ret(aclrtMalloc(p, n, ACL_MEM_MALLOC_HUGE_FIRST));
        must_pass(rc, allow | AL_RESOURCE);
        if (rc != 0) {
            *p = NULL;
            return -1;
        }
        callf("aclrtMemset(%c, %zu, 0) [own]", "ab"[i], n);
        rc = ret(aclrtMemset(*p, n, 0, n));
        must_pass(rc, allow);
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}

static void own_teardown(aclrtStream s, void *a, void *b)
{
    void *p[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        if (p[i] != NULL) {
            callf("aclrtFree(%c) [own]", "ab"[i]);
            must_pass(ret(aclrtFree(p[i])), AL_ANY);
        }
    }
    if (s != NULL) {
        callf("aclrtDestroyStream(own)");
        must_pass(ret(aclrtDestroyStream(s)), AL_ANY);
    }
}

/* Synchronizes s and reads n bytes of dev into host: 0 when they came. */
static int sync_get(aclrtStream s, void *host, const void *dev, size_t n, unsigned allow)
{
    callf("aclrtSynchronizeStream(own)");
    aclError rc = ret(aclrtSynchronizeStream(s));
    must_pass(rc, allow);
    if (rc == 0) {
        callf("aclrtMemcpy(host, %zu, dev) [own]", n);
        rc = ret(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
        must_pass(rc, allow);
    }
    return rc;
}

/* aclrtRegisterCpuFunc of a handle of the model: NULL, a binary loaded
 * without CPU kernel mode 2, a destroyed one, another kind, garbage. */
static void cpu_refuse_model(void)
{
    harg b = pick_handle(K_BIN, 0);
    aclrtFuncHandle f = NULL;
    callf("aclrtRegisterCpuFunc(%s, fz_fill, FzFill, &f)", hdesc(&b));
    aclError rc = ret(aclrtRegisterCpuFunc(b.h, "fz_fill", "FzFill", &f));
    if (b.h == NULL) {
        want_code(rc, ACL_ERROR_INVALID_PARAM, "aclrtRegisterCpuFunc", "a NULL handle");
    } else if (!fz.inited) {
        must_fail(rc, "no runtime");
    } else if (b.v == VALID) {
        want_code(rc, ACL_ERROR_RT_PARAM_INVALID, "aclrtRegisterCpuFunc", "a binary not loaded in CPU kernel mode 2");
    } else {
        want_code(rc, ACL_ERROR_RT_INVALID_HANDLE, "aclrtRegisterCpuFunc", "an invalid binary handle");
    }
}

/* Refusals of a live binary of its own: NULL or empty names, a NULL
 * output, an entry the binary lacks, a binary of another kind. */
static void cpu_refuse_own(unsigned allow)
{
    int k = (int)below(7);
    int mode = k == 6 ? (int)below(4) - 1 : 2, file = k == 6 && one_in(2);
    if (mode == 2 && k == 6) {
        file = 1;
    }
    aclrtBinHandle b = own_binary(mode, file, allow);
    if (b == NULL) {
        return;
    }
    static const char *const entry[] = {NULL, "fz_fill", "fz_fill", "", "fz_fill", "no_such_kernel", "fz_fill"};
    static const char *const op[] = {"FzFill", NULL, "FzFill", "FzFill", "", "FzNone", "FzFill"};
    static const char *const why[] = {"funcName NULL", "kernelName NULL", "funcHandle NULL", "funcName empty",
                                      "kernelName empty", "no such entry", "a binary not loaded in CPU kernel mode 2"};
    static const aclError code[] = {ACL_ERROR_INVALID_PARAM, ACL_ERROR_INVALID_PARAM, ACL_ERROR_INVALID_PARAM,
                                    ACL_ERROR_INVALID_PARAM, ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                                    ACL_ERROR_RT_PARAM_INVALID};
    aclrtFuncHandle f = NULL;
    callf("aclrtRegisterCpuFunc(own, %s, %s, %s) [%s]", entry[k] ? entry[k] : "NULL", op[k] ? op[k] : "NULL",
          k == 2 ? "NULL" : "&f", why[k]);
    aclError rc = ret(aclrtRegisterCpuFunc(b, entry[k], op[k], k == 2 ? NULL : &f));
    want_code(rc, code[k], "aclrtRegisterCpuFunc", why[k]);
    own_unload(b);
}

/* fz_fill as an AI CPU operator: registered (twice: the same handle),
 * named, launched and its bytes checked; after the binary is unloaded,
 * the binary and the function are refused. */
static void op_cpu_func(void)
{
    enum { N = 512 };
    if (one_in(4)) {
        cpu_refuse_model();
        return;
    }
    if (ensure_device() != 0) {
        return;
    }
    unsigned allow = allow_for_ctx(fz.cur_ctx);
    if (one_in(3)) {
        cpu_refuse_own(allow);
        return;
    }
    aclrtBinHandle b = own_binary(2, 0, allow);
    if (b == NULL) {
        return;
    }
    char op[24], name[64];
    snprintf(op, sizeof op, "FzFill%u", (unsigned)below(1000));
    aclrtFuncHandle f = NULL, again = NULL;
    callf("aclrtRegisterCpuFunc(own, fz_fill, %s, &f)", op);
    aclError rc = ret(aclrtRegisterCpuFunc(b, "fz_fill", op, &f));
    must_pass(rc, 0);
    if (rc != 0) {
        own_unload(b);
        return;
    }
    callf("aclrtGetFunctionName(cpu f, 64, name)");
    rc = ret(aclrtGetFunctionName(f, sizeof name, name));
    must_pass(rc, 0);
    if (rc == 0 && strcmp(name, op) != 0) {
        finding("WRONG VALUE", "aclrtGetFunctionName: AI CPU operator", "\"%.63s\", expected \"%s\"", name, op);
    }
    callf("aclrtRegisterCpuFunc(own, fz_fill, %s, &again)", op);
    rc = ret(aclrtRegisterCpuFunc(b, "fz_fill", op, &again));
    must_pass(rc, 0);
    if (rc == 0 && again != f) {
        finding("WRONG VALUE", "aclrtRegisterCpuFunc: again", "%p, the first registration gave %p", again, f);
    }
    aclrtStream s;
    char *dst;
    if (own_setup(&s, (void **)&dst, NULL, N, allow) == 0) {
        uint64_t n = 1 + below(N), pat = below(256);
        uint32_t blocks = 1 + (uint32_t)below(12);
        uint64_t args[3] = {(uint64_t)(uintptr_t)dst, n, pat};
        void *ptrs[3] = {&args[0], &args[1], &args[2]};
        int host = one_in(2);
        if (host) {
            callf("aclrtLaunchKernelWithHostArgs(cpu f, %u, own, NULL, {dst, %llu, %llu}, 24, NULL, 0)", blocks,
                  (unsigned long long)n, (unsigned long long)pat);
            rc = ret(aclrtLaunchKernelWithHostArgs(f, blocks, s, NULL, args, sizeof args, NULL, 0));
        } else {
            callf("aclrtLaunchKernelWithArgsArray(cpu f, %u, own, NULL, {dst, %llu, %llu})", blocks,
                  (unsigned long long)n, (unsigned long long)pat);
            rc = ret(aclrtLaunchKernelWithArgsArray(f, blocks, s, NULL, ptrs));
        }
        must_pass(rc, allow);
        uint8_t got[N], want[N];
        memset(want, 0, sizeof want);
        for (uint64_t i = 0; i < n; i++) {
            want[i] = (uint8_t)(pat + i);
        }
        if (rc == 0 && sync_get(s, got, dst, N, allow) == 0) {
            int i = first_diff(got, want, N);
            if (i >= 0) {
                mismatch("AI CPU fz_fill of %llu bytes in %u blocks: byte %d is %#x, want %#x", (unsigned long long)n,
                         blocks, i, got[i], want[i]);
            }
        }
    }
    own_unload(b);
    callf("aclrtRegisterCpuFunc(unloaded, fz_fill, %s, &f)", op);
    want_code(ret(aclrtRegisterCpuFunc(b, "fz_fill", op, &again)), ACL_ERROR_RT_INVALID_HANDLE,
              "aclrtRegisterCpuFunc", "an unloaded binary");
    callf("aclrtGetFunctionName(cpu f of an unloaded binary, 64, name)");
    want_code(ret(aclrtGetFunctionName(f, sizeof name, name)), ACL_ERROR_RT_INVALID_HANDLE, "aclrtGetFunctionName",
              "a function of an unloaded binary");
    if (s != NULL) {
        void *ptrs[3] = {&dst, &dst, &dst};
        callf("aclrtLaunchKernelWithArgsArray(cpu f of an unloaded binary, 1, own, NULL, args)");
        want_code(ret(aclrtLaunchKernelWithArgsArray(f, 1, s, NULL, ptrs)), ACL_ERROR_RT_INVALID_HANDLE,
                  "aclrtLaunchKernelWithArgsArray", "a function of an unloaded binary");
    }
    own_teardown(s, dst, NULL);
}

static dim3 d3(uint32_t x, uint32_t y, uint32_t z)
{
    dim3 d = {x, y, z};
    return d;
}

static uint32_t dim_any(void)
{
    return one_in(8) ? 0 : one_in(8) ? (uint32_t)rnd() : 1 + (uint32_t)below(64);
}

/* A pointer the C front refuses before the call (the first page). */
static int low(const void *p) { return (uintptr_t)p - 1 < 4095; }

/* On a chip without SIMT units every SIMT launch is refused with 207000,
 * whatever its arguments (but pointers the front refuses first). */
static void simt_refused(void)
{
    harg f = pick_handle(K_FUNC, 0);
    harg s = pick_stream();
    dim3 grid = d3(dim_any(), 1, 1), block = d3(dim_any(), one_in(4) ? dim_any() : 1, 1);
    uint64_t args[3] = {0, 0, rnd()};
    void *ptrs[3] = {&args[0], &args[1], &args[2]};
    aclError rc;
    if (one_in(2)) {
        callf("aclrtLaunchSIMTKernelWithArgsArray(%s, [%u], [%u,%u], 0, %s, NULL, args)", hdesc(&f), grid.x, block.x,
              block.y, hdesc(&s));
        rc = ret(aclrtLaunchSIMTKernelWithArgsArray(f.h, grid, block, 0, s.h, NULL, one_in(4) ? NULL : ptrs));
    } else {
        int null = one_in(4);
        callf("aclrtLaunchSIMTKernelWithHostArgs(%s, [%u], [%u,%u], 0, %s, NULL, %s, 24, NULL, 0)", hdesc(&f), grid.x,
              block.x, block.y, hdesc(&s), null ? "NULL" : "host");
        rc = ret(aclrtLaunchSIMTKernelWithHostArgs(f.h, grid, block, 0, s.h, NULL, null ? NULL : args, sizeof args,
                                                   NULL, 0));
    }
    if (low(f.h) || low(s.h)) {
        /* The front refuses a pointer into the first page before anything. */
        must_fail(rc, "a handle in the first page");
        return;
    }
    fz.checks++;
    if (rc != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        finding(rc == 0 ? "WRONG SUCCESS" : "WRONG CODE", "SIMT launch on a chip without SIMT",
                "returned %d on %s, want 207000", rc, aclrtGetSocName());
        if (rc == 0) {
            fz.wrong_successes++;
            if (fz.cur_ctx >= 0) {
                ctx_taint(fz.cur_ctx);
            }
        }
    }
}

/* On the Ascend 950: fz_simt run and checked, or a refusal. */
static void simt_run(void)
{
    enum { T = 256, B = 4 };
    if (ensure_device() != 0) {
        return;
    }
    unsigned allow = allow_for_ctx(fz.cur_ctx);
    aclrtBinHandle bin = own_binary(-1, 0, allow);
    if (bin == NULL) {
        return;
    }
    aclrtFuncHandle m = NULL, fill = NULL;
    callf("aclrtBinaryGetFunction(own, fz_simt / fz_fill, &f)");
    aclError rc = ret(aclrtBinaryGetFunction(bin, "fz_simt", &m));
    if (rc == 0) {
        rc = ret(aclrtBinaryGetFunction(bin, "fz_fill", &fill));
    }
    must_pass(rc, 0);
    aclrtStream s = NULL;
    uint64_t *in = NULL, *out = NULL;
    if (rc != 0 || own_setup(&s, (void **)&in, (void **)&out, 8 * T * B, allow) != 0) {
        own_teardown(s, in, out);
        own_unload(bin);
        return;
    }
    uint32_t t = 1 + (uint32_t)below(T), nb = 1 + (uint32_t)below(B);
    uint64_t pat = rnd() >> 8, args[3] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, pat};
    void *ptrs[3] = {&args[0], &args[1], &args[2]};
    dim3 grid = d3(nb, 1, 1), block = d3(t, 1, 1);
    aclrtFuncHandle f = m;
    int k = (int)below(10), host = one_in(2);
    static const char *const why[] = {"a gridDim extent 0", "a blockDim extent 0", "more than 2048 threads a block",
                                      "a kernel that is not SIMT", "func NULL", "hostArgs NULL", "argsSize 0"};
    static const aclError code[] = {ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_PARAM_INVALID,
                                    ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_INVALID_PARAM,    ACL_ERROR_INVALID_PARAM,
                                    ACL_ERROR_RT_PARAM_INVALID};
    void *hargs = args;
    size_t hsize = sizeof args;
    switch (k) {
    case 0:
        *(one_in(2) ? &grid.x : one_in(2) ? &grid.y : &grid.z) = 0;
        break;
    case 1:
        *(one_in(2) ? &block.x : &block.y) = 0;
        break;
    case 2:
        block = one_in(2) ? d3(2049 + (uint32_t)below(4096), 1, 1) : d3(64, 33 + (uint32_t)below(64), 1);
        break;
    case 3:
        f = fill;
        break;
    case 4:
        f = NULL;
        break;
    case 5:
        host = 1, hargs = NULL;
        break;
    case 6:
        host = 1, hsize = 0;
        break;
    }
    if (host) {
        callf("aclrtLaunchSIMTKernelWithHostArgs(%s, [%u,%u,%u], [%u,%u,%u], 0, own, NULL, %s, %zu, NULL, 0)",
              f == m ? "fz_simt" : f ? "fz_fill" : "NULL", grid.x, grid.y, grid.z, block.x, block.y, block.z,
              hargs ? "{in, out, pat}" : "NULL", hsize);
        rc = ret(aclrtLaunchSIMTKernelWithHostArgs(f, grid, block, 0, s, NULL, hargs, hsize, NULL, 0));
    } else {
        callf("aclrtLaunchSIMTKernelWithArgsArray(%s, [%u,%u,%u], [%u,%u,%u], 0, own, NULL, {in, out, pat})",
              f == m ? "fz_simt" : f ? "fz_fill" : "NULL", grid.x, grid.y, grid.z, block.x, block.y, block.z);
        rc = ret(aclrtLaunchSIMTKernelWithArgsArray(f, grid, block, 0, s, NULL, ptrs));
    }
    if (k < 7) {
        want_code(rc, code[k], host ? "aclrtLaunchSIMTKernelWithHostArgs" : "aclrtLaunchSIMTKernelWithArgsArray",
                  why[k]);
    } else {
        must_pass(rc, allow);
        static uint64_t got[T * B];
        if (rc == 0 && sync_get(s, got, out, 8 * (size_t)(t * nb), allow) == 0) {
            for (uint32_t i = 0; i < t * nb; i++) {
                uint64_t want = pat + (i - i % t) + (t - 1 - i % t);
                if (got[i] != want) {
                    mismatch("SIMT fz_simt [%u] x [%u]: slot %u is %#llx, want %#llx", nb, t, i,
                             (unsigned long long)got[i], (unsigned long long)want);
                    break;
                }
            }
        }
    }
    own_unload(bin);
    callf("aclrtLaunchSIMTKernelWithArgsArray(fz_simt of an unloaded binary, [1], [1], 0, own, NULL, args)");
    want_code(ret(aclrtLaunchSIMTKernelWithArgsArray(m, d3(1, 1, 1), d3(1, 1, 1), 0, s, NULL, ptrs)),
              ACL_ERROR_RT_INVALID_HANDLE, "aclrtLaunchSIMTKernelWithArgsArray", "a function of an unloaded binary");
    own_teardown(s, in, out);
}

static void op_simt(void)
{
    if (soc_is("Ascend950") && fz.inited) {
        simt_run();
    } else if (!soc_is("Ascend950")) {
        simt_refused();
    }
}

const struct op ops_engines[] = {
    {"cpu_func", 3, op_cpu_func},
    {"simt", 3, op_simt},
    {NULL, 0, NULL},
};
