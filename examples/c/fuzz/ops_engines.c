/*
 * The engines besides the AI cores. AI CPU operators: fz_fill registered
 * with aclrtRegisterCpuFunc on a binary loaded from data in CPU kernel
 * mode 2, launched with its bytes checked, and the refusals (NULL
 * arguments, empty or unknown names, binaries of another kind, destroyed
 * binaries and the functions they took with them). Each operation loads,
 * makes and destroys its own binary, stream and memory, so that a fuzzed
 * stream waiting for ever never holds its tasks.
 */
#include <string.h>

#include "fuzz.h"

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

const struct op ops_engines[] = {
    {"cpu_func", 3, op_cpu_func},
    {NULL, 0, NULL},
};
