/*
 * Binary descriptions (aclrtCreateBinary, aclrtBinaryLoad), what a function
 * handle tells (its binary, entry, code size, attributes, parameters), the
 * lookups by entry and by symbol, a binary's exception callback, memory for
 * the task scheduler and the hardware synchronization word.
 */
#include "fuzz.h"

#include <dlfcn.h>
#include <string.h>

/* Each fuzz kernel's parameter count (from the binary's debug information). */
static const size_t fk_params[NFK] = {3, 0, 0, 2, 2};

static int soc_is(const char *prefix)
{
    const char *soc = aclrtGetSocName();
    return soc != NULL && strncmp(soc, prefix, strlen(prefix)) == 0;
}

static void op_binary_desc(void)
{
    if (obj_count(K_BIN) >= 4 && !one_in(8)) {
        return;
    }
    int null = one_in(10), zero = one_in(10);
    callf("aclrtCreateBinary(%s, %zu)", null ? "NULL" : "lib", zero ? (size_t)0 : fz.bin_len);
    aclrtBinary d = aclrtCreateBinary(null ? NULL : fz.bin_data, zero ? 0 : fz.bin_len);
    if (null) {
        if (d != NULL) {
            finding("WRONG SUCCESS", "aclrtCreateBinary", "NULL data gave a description");
        }
        return;
    }
    if (d == NULL) {
        finding("UNEXPECTED FAILURE", "aclrtCreateBinary", "valid data gave NULL");
        return;
    }
    aclrtBinHandle b = NULL;
    int nullout = one_in(16);
    callf("aclrtBinaryLoad(desc, %s)", nullout ? "NULL" : "&b");
    aclError rc = ret(aclrtBinaryLoad(d, nullout ? NULL : &b));
    if (nullout || zero) {
        must_fail(rc, nullout ? "a NULL binHandle" : "dataLen 0");
    } else if (fz.inited) {
        must_pass(rc, 0);
    }
    if (rc == 0 && !nullout) {
        obj_new(K_BIN, b, -1, -1);
    }
    callf("aclrtDestroyBinary(desc)");
    must_pass(ret(aclrtDestroyBinary(d)), 0);
    callf("aclrtDestroyBinary(desc) [again]");
    must_fail(ret(aclrtDestroyBinary(d)), "a destroyed binary description");
    callf("aclrtBinaryLoad(destroyed desc, &b)");
    must_fail(ret(aclrtBinaryLoad(d, &b)), "a destroyed binary description");
}

static void on_exception(aclrtExceptionInfo *info, void *user)
{
    (void)info;
    (void)user;
}

/* One call about a function handle, valid or not. */
static void op_func_info(void)
{
    harg f = pick_handle(K_FUNC, 0);
    obj *o = f.v == VALID ? &fz.objs[f.idx] : NULL;
    aclError rc;
    switch (below(7)) {
    case 0: {
        aclrtBinHandle b = NULL;
        callf("aclrtFunctionGetBinary(%s, &b)", hdesc(&f));
        rc = ret(aclrtFunctionGetBinary(f.h, &b));
        if (!o) {
            must_fail(rc, "an invalid funcHandle");
        } else {
            must_pass(rc, 0);
            if (rc == 0 && o->parent >= 0 && b != fz.objs[o->parent].h) {
                finding("WRONG VALUE", "aclrtFunctionGetBinary", "a binary other than the function's");
            }
        }
        return;
    }
    case 1: {
        void *aic = NULL, *aiv = (void *)1;
        aclrtFuncHandle again = NULL;
        callf("aclrtGetFunctionAddr(%s, &aic, &aiv)", hdesc(&f));
        rc = ret(aclrtGetFunctionAddr(f.h, &aic, &aiv));
        if (!o) {
            must_fail(rc, "an invalid funcHandle");
            return;
        }
        must_pass(rc, 0);
        if (rc != 0 || o->parent < 0) {
            return;
        }
        if (aic == NULL || aiv != NULL) {
            finding("WRONG VALUE", "aclrtGetFunctionAddr", "aic %p, aiv %p", aic, aiv);
        }
        uint64_t off = one_in(4) ? below(8) + 1 : 0;
        callf("aclrtBinaryGetFunctionByEntry(bin, entry+%llu, &f)", (unsigned long long)off);
        rc = ret(aclrtBinaryGetFunctionByEntry(fz.objs[o->parent].h, (uint64_t)(uintptr_t)aic + off, &again));
        if (off) {
            must_fail(rc, "an entry inside a function");
        } else {
            must_pass(rc, 0);
            if (rc == 0 && again != f.h) {
                finding("WRONG VALUE", "aclrtBinaryGetFunctionByEntry", "another handle for the function's own entry");
            }
        }
        return;
    }
    case 2: {
        size_t aic = 0, aiv = 1;
        callf("aclrtGetFunctionSize(%s, &aic, &aiv)", hdesc(&f));
        rc = ret(aclrtGetFunctionSize(f.h, &aic, &aiv));
        if (soc_is("Ascend310B") && rc != ACL_ERROR_RT_FEATURE_NOT_SUPPORT && (uintptr_t)f.h - 1 >= 4095) {
            finding("WRONG CODE", "aclrtGetFunctionSize", "returned %d on an Atlas 200I/500 A2, want 207000", rc);
        } else if (!o) {
            must_fail(rc, "an invalid funcHandle");
        } else if (!soc_is("Ascend310B")) {
            must_pass(rc, 0);
            if (rc == 0 && (aic == 0 || aiv != 0)) {
                finding("WRONG VALUE", "aclrtGetFunctionSize", "aic %zu, aiv %zu", aic, aiv);
            }
        }
        return;
    }
    case 3: {
        int64_t v = -1;
        int attr = (int)below(5);
        callf("aclrtGetFunctionAttribute(%s, %d, &v)", hdesc(&f), attr);
        rc = ret(aclrtGetFunctionAttribute(f.h, (aclrtFuncAttribute)attr, &v));
        if (!o || attr < 1 || attr > 3) {
            must_fail(rc, !o ? "an invalid funcHandle" : "attrType out of 1..3");
        } else {
            must_pass(rc, 0);
        }
        return;
    }
    case 4: {
        size_t n = 99, off = 0, size = 0;
        size_t idx = (size_t)below(4);
        callf("aclrtFunctionGetParamCount(%s, &n); aclrtFunctionGetParamInfo(.., %zu, ..)", hdesc(&f), idx);
        rc = ret(aclrtFunctionGetParamCount(f.h, &n));
        if (!o) {
            must_fail(rc, "an invalid funcHandle");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0 && n != fk_params[o->fk]) {
            finding("WRONG VALUE", "aclrtFunctionGetParamCount", "%zu for %s, want %zu", n, fk_names[o->fk], fk_params[o->fk]);
        }
        rc = ret(aclrtFunctionGetParamInfo(f.h, idx, &off, &size));
        if (idx >= fk_params[o->fk]) {
            must_fail(rc, "paramIndex past the last parameter");
        } else {
            must_pass(rc, 0);
            if (rc == 0 && (off != 8 * idx || size != 8)) {
                finding("WRONG VALUE", "aclrtFunctionGetParamInfo", "parameter %zu at %zu, %zu bytes; want %zu, 8", idx, off, size, 8 * idx);
            }
        }
        return;
    }
    case 5: {
        size_t ub = 1;
        uint32_t flags = one_in(4) ? (uint32_t)rnd() | 1 : 0;
        callf("aclrtFunctionGetAvailDynUbufPerBlock(%s, %u, &ub)", hdesc(&f), flags);
        rc = ret(aclrtFunctionGetAvailDynUbufPerBlock(f.h, flags, &ub));
        if (flags || !o) {
            must_fail(rc, flags ? "flags not 0" : "an invalid funcHandle");
        } else {
            must_pass(rc, 0);
        }
        return;
    }
    default: {
        harg b = pick_handle(K_BIN, 0);
        int clear = one_in(3);
        callf("aclrtBinarySetExceptionCallback(%s, %s, NULL)", hdesc(&b), clear ? "NULL" : "cb");
        rc = ret(aclrtBinarySetExceptionCallback(b.h, clear ? NULL : on_exception, NULL));
        b.v == VALID ? must_pass(rc, 0) : must_fail(rc, "an invalid binHandle");
        return;
    }
    }
}

/* aclrtGetFuncBySymbol of a fuzz kernel of the library, loaded by this
 * program, or of a function of the program. */
static void op_func_by_symbol(void)
{
    if (!fz.inited) {
        return;
    }
    static void *lib;
    if (lib == NULL) {
        lib = dlopen(fz.kernel_path, RTLD_LAZY | RTLD_GLOBAL);
    }
    int own = one_in(4), k = (int)below(NFK);
    const void *sym = own ? (const void *)op_func_by_symbol : lib ? dlsym(lib, fk_names[k]) : NULL;
    if (sym == NULL) {
        return;
    }
    aclrtFuncHandle f = NULL;
    callf("aclrtGetFuncBySymbol(%s, &f)", own ? "a function of the program" : fk_names[k]);
    aclError rc = ret(aclrtGetFuncBySymbol(sym, &f));
    if (soc_is("Ascend310B")) {
        if (rc != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
            finding("WRONG CODE", "aclrtGetFuncBySymbol", "returned %d on an Atlas 200I/500 A2, want 207000", rc);
        }
    } else if (own) {
        must_fail(rc, "a function of the program, not of a shared object");
    } else {
        must_pass(rc, 0);
    }
}

/* Memory for the task scheduler, freed at once; the synchronization word. */
static void op_sched_mem(void)
{
    if (ensure_device() != 0) {
        return;
    }
    if (one_in(2)) {
        void *p = NULL;
        size_t n = one_in(8) ? 0 : (size_t)below(4096) + 1;
        callf("aclrtMallocForTaskScheduler(&p, %zu, HUGE_FIRST, NULL)", n);
        aclError rc = ret(aclrtMallocForTaskScheduler(&p, n, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
        if (n == 0) {
            must_fail(rc, "size 0");
            return;
        }
        must_pass(rc, AL_RESOURCE);
        if (rc == 0) {
            callf("aclrtFree(p)");
            must_pass(ret(aclrtFree(p)), 0);
        }
        return;
    }
    void *a = NULL, *b = NULL;
    callf("aclrtGetHardwareSyncAddr(&a) x2");
    aclError rc = ret(aclrtGetHardwareSyncAddr(&a));
    if (!soc_is("Ascend910B") && !soc_is("Ascend910_93")) {
        if (rc != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
            finding("WRONG CODE", "aclrtGetHardwareSyncAddr", "returned %d on %s, want 207000", rc, aclrtGetSocName());
        }
        return;
    }
    must_pass(rc, 0);
    rc = ret(aclrtGetHardwareSyncAddr(&b));
    must_pass(rc, 0);
    if (rc == 0 && (a == NULL || a != b)) {
        finding("WRONG VALUE", "aclrtGetHardwareSyncAddr", "%p then %p", a, b);
    }
}

const struct op ops_binary[] = {
    {"binary_desc", 2, op_binary_desc},
    {"func_info", 4, op_func_info},
    {"func_by_symbol", 1, op_func_by_symbol},
    {"sched_mem", 2, op_sched_mem},
    {NULL, 0, NULL},
};
