/*
 * Kernel binaries from files and memory (and bytes that are none),
 * functions and their names, unloading, the argument-list calls.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>


const char *const fk_names[NFK] = {"fz_fill", "fz_nop", "fz_trap", "fz_add", "fz_fault"};

void kernels_init(void)
{
    FILE *f = fopen(fz.kernel_path, "rb");
    if (f == NULL) {
        return;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    fz.bin_data = malloc((size_t)n);
    if (fz.bin_data && fread(fz.bin_data, 1, (size_t)n, f) == (size_t)n) {
        fz.bin_len = (size_t)n;
    }
    fclose(f);
}

static void op_load_binary(void)
{
    if (obj_count(K_BIN) >= 4 && !one_in(8)) {
        return;
    }
    aclrtBinaryLoadOption opt = {ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, {.isLazyLoad = 1}};
    aclrtBinaryLoadOptions opts = {&opt, 1};
    int o = (int)below(4); /* no options, lazy load, a bad option type, NULL options array */
    if (o == 2) {
        opt.type = (aclrtBinaryLoadOptionType)int_any();
    } else if (o == 3) {
        opts.options = NULL;
    }
    aclrtBinaryLoadOptions *op = o ? &opts : NULL;
    int null = one_in(20), v = (int)below(2), src = one_in(6) ? (int)below(3) + 1 : 0;
    aclrtBinHandle b = NULL;
    aclError rc;
    const char *why = null ? "a NULL binHandle" : o == 3 ? "a NULL options array" : NULL;
    if (v == 0) {
        char path[600];
        static const char *const bad[] = {NULL, "/nonexistent/libx.so", "not-elf"};
        const char *p = fz.kernel_path;
        if (src == 3) {
            snprintf(path, sizeof path, "%s/not-elf.so", fz.scratch_dir);
            FILE *f = fopen(path, "w");
            if (f) {
                fputs("not an ELF file\n", f);
                fclose(f);
            }
            p = path;
        } else if (src) {
            p = bad[src - 1];
        }
        why = why ? why : src == 1 ? "a NULL binPath" : src ? "a file that is no kernel binary" : NULL;
        callf("aclrtBinaryLoadFromFile(%s, %s, %s)", p ? p : "NULL", o ? "opts" : "NULL", null ? "NULL" : "&b");
        rc = ret(aclrtBinaryLoadFromFile(p, op, null ? NULL : &b));
    } else {
        const void *data = fz.bin_data;
        size_t len = fz.bin_len;
        static const char junk[64] = "\x7f" "ELF junk";
        if (src == 1) {
            data = NULL;
        } else if (src == 2) {
            len = 0;
        } else if (src == 3) {
            data = junk;
            len = sizeof junk;
        }
        why = why ? why : src == 1 ? "a NULL data" : src == 2 ? "length 0" : src ? "bytes that are no kernel binary" : NULL;
        callf("aclrtBinaryLoadFromData(%s, %zu, %s, %s)", src == 1 ? "NULL" : src == 3 ? "junk" : "lib", len,
              o ? "opts" : "NULL", null ? "NULL" : "&b");
        rc = ret(aclrtBinaryLoadFromData(data, len, op, null ? NULL : &b));
    }
    if (why) {
        must_fail(rc, why);
        return;
    }
    if (fz.inited && o < 2) {
        must_pass(rc, 0);
    }
    if (rc == 0) {
        obj_new(K_BIN, b, -1, -1);
    }
}

static void op_get_function(void)
{
    harg b = pick_handle(K_BIN, 0);
    int k = (int)below(NFK + 2), null = one_in(20);
    const char *name = k < NFK ? fk_names[k] : k == NFK ? "no_such_kernel" : NULL;
    aclrtFuncHandle f = NULL;
    callf("aclrtBinaryGetFunction(%s, %s, %s)", hdesc(&b), name ? name : "NULL", null ? "NULL" : "&f");
    aclError rc = ret(aclrtBinaryGetFunction(b.h, name, null ? NULL : &f));
    if (b.v != VALID || k >= NFK || null) {
        must_fail(rc, b.v != VALID ? "an invalid binHandle" : null ? "a NULL funcHandle" : "no kernel of that name");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    int i = obj_new(K_FUNC, f, -1, -1);
    if (i >= 0) {
        fz.objs[i].parent = b.idx;
        fz.objs[i].fk = k;
    }
}

static void op_unload(void)
{
    harg b = pick_handle(K_BIN, 0);
    if (b.v == VALID && !one_in(4)) {
        return;
    }
    callf("aclrtBinaryUnLoad(%s)", hdesc(&b));
    aclError rc = ret(aclrtBinaryUnLoad(b.h));
    if (b.v != VALID) {
        must_fail(rc, "an invalid binHandle");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        obj_kill(b.idx);
        /* Its kernels still queued or captured fail when they come to run. */
        for (int i = 0; i < MAXOBJ; i++) {
            if (fz.objs[i].live && fz.objs[i].kind == K_CTX) {
                ctx_taint(i);
            }
            if (fz.objs[i].live && fz.objs[i].kind == K_MODEL) {
                fz.objs[i].has_trap = 1;
            }
        }
    }
}

static void op_function_name(void)
{
    harg f = pick_handle(K_FUNC, 0);
    char name[64];
    memset(name, 'x', sizeof name);
    uint32_t maxLen = one_in(4) ? (uint32_t)below(4) : sizeof name;
    int null = one_in(10);
    callf("aclrtGetFunctionName(%s, %u, %s)", hdesc(&f), maxLen, null ? "NULL" : "buf");
    aclError rc = ret(aclrtGetFunctionName(f.h, maxLen, null ? NULL : name));
    if (f.v != VALID || null || maxLen == 0) {
        must_fail(rc, f.v != VALID ? "an invalid funcHandle" : null ? "a NULL name" : "maxLen 0");
        return;
    }
    const char *want = fk_names[fz.objs[f.idx].fk];
    if (maxLen > strlen(want)) {
        must_pass(rc, 0);
        if (rc == 0 && strcmp(name, want) != 0) {
            finding("WRONG VALUE", "aclrtGetFunctionName", "\"%.63s\", expected \"%s\"", name, want);
        }
    } else if (rc == 0 && memchr(name, 0, maxLen) == NULL) {
        finding("WRONG VALUE", "aclrtGetFunctionName: short buffer", "maxLen %u: no NUL within it", maxLen);
    }
}

/* The argument-list calls on their own, valid and not. */
static void op_args(void)
{
    harg f = pick_handle(K_FUNC, 0);
    size_t sz = 0;
    aclError rc;
    switch (below(5)) {
    case 0:
        callf("aclrtKernelArgsGetHandleMemSize(%s, &sz)", hdesc(&f));
        rc = ret(aclrtKernelArgsGetHandleMemSize(f.h, &sz));
        f.v == VALID ? must_pass(rc, 0) : must_fail(rc, "an invalid funcHandle");
        return;
    case 1: {
        size_t user = (size_t)(one_in(4) ? size_any() : below(64));
        callf("aclrtKernelArgsGetMemSize(%s, %zu, &sz)", hdesc(&f), user);
        rc = ret(aclrtKernelArgsGetMemSize(f.h, user, &sz));
        if (f.v != VALID) {
            must_fail(rc, "an invalid funcHandle");
        }
        return;
    }
    case 2: {
        /* An argument list in caller memory. */
        static char mem[8][1024] __attribute__((aligned(64)));
        static int next;
        char *m = mem[next++ % 8];
        size_t actual = one_in(4) ? (size_t)size_any() : 256;
        callf("aclrtKernelArgsInitByUserMem(%s, mem, mem+512, %zu)", hdesc(&f), actual);
        rc = ret(aclrtKernelArgsInitByUserMem(f.h, m, m + 512, actual > 512 ? 512 : actual));
        if (f.v != VALID) {
            must_fail(rc, "an invalid funcHandle");
        }
        return;
    }
    default: {
        harg a = pick_handle(K_ARGS, 0);
        uint64_t v = rnd();
        aclrtParamHandle ph = NULL;
        int which = (int)below(4);
        if (which == 0) {
            callf("aclrtKernelArgsAppend(%s, &v, 8, &ph)", hdesc(&a));
            rc = ret(aclrtKernelArgsAppend(a.h, &v, 8, &ph));
        } else if (which == 1) {
            callf("aclrtKernelArgsAppendPlaceHolder(%s, &ph)", hdesc(&a));
            rc = ret(aclrtKernelArgsAppendPlaceHolder(a.h, &ph));
        } else if (which == 2) {
            /* Only the pattern (parameter 2) changes: the list stays valid. */
            void *p2 = a.v == VALID && fz.objs[a.idx].nparams == 3 ? fz.objs[a.idx].params[2] : NULL;
            callf("aclrtKernelArgsParaUpdate(%s, param 2, &v, 8)", hdesc(&a));
            rc = ret(aclrtKernelArgsParaUpdate(a.h, p2, &v, 8));
            if (a.v == VALID) {
                must_pass(rc, 0);
                callf("aclrtKernelArgsFinalize(%s)", hdesc(&a));
                must_pass(ret(aclrtKernelArgsFinalize(a.h)), 0);
                return;
            }
        } else {
            void *buf = NULL;
            callf("aclrtKernelArgsGetPlaceHolderBuffer(%s, NULL, 64, &buf)", hdesc(&a));
            rc = ret(aclrtKernelArgsGetPlaceHolderBuffer(a.h, NULL, 64, &buf));
            if (a.v == VALID) {
                return;
            }
        }
        if (a.v != VALID) {
            must_fail(rc, "an invalid argsHandle");
        } else if (which < 2 && rc == 0) {
            fz.objs[a.idx].weird = 1; /* an extra parameter: not launched again */
        }
    }
    }
}

/* A kernel whose code faults on a clean stream fails its task with the
 * AI-core code of the fault, at the stream's synchronization: a read or
 * write of the NULL page, a division by zero, a write past the end of
 * device memory. Under STOP_ON_FAILURE the fault stops the context. */
static void op_fault(void)
{
    if (ensure_device() != 0 || fz.objs[fz.cur_ctx].tainted) {
        return;
    }
    int f = -1;
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_FUNC && fz.objs[i].fk == FK_FAULT) {
            f = i;
        }
    }
    int si = clean_stream(fz.cur_ctx);
    if (f < 0 || si < 0) {
        return;
    }
    static const aclError want[] = {507042, 507043, 507015, 507043}; /* read/write overflow, AI core exception */
    static const char *const what[] = {"reads the NULL page", "writes the NULL page", "divides by zero",
                                       "writes past the end of device memory"};
    uint64_t how = below(4), addr = 8 * below(512);
    if (how == 2) {
        addr = 0;
    } else if (how == 3) {
        int a = alloc_pick(1 << M_DEV);
        size_t freeb = 0, total = 0;
        if (a < 0 || fz.allocs[a].dev != cur_dev() || aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total) != 0) {
            return;
        }
        addr = (uint64_t)(uintptr_t)fz.allocs[a].p + total; /* in the guard after the device's range */
    }
    uint64_t args[2] = {how, addr};
    uint32_t blocks = 1 + (uint32_t)below(48);
    harg s = {fz.objs[si].h, si, VALID, "live"};
    callf("aclrtLaunchKernelWithHostArgs(%s, %u, %s, NULL, {%llu, %#llx}, 16, NULL, 0) [a kernel that %s]",
          hdesc(&(harg){fz.objs[f].h, f, VALID, "live"}), blocks, hdesc(&s), (unsigned long long)how,
          (unsigned long long)addr, what[how]);
    if (ret(aclrtLaunchKernelWithHostArgs(fz.objs[f].h, blocks, s.h, NULL, args, sizeof args, NULL, 0)) != 0) {
        must_pass(1, 0); /* a valid launch on a clean stream: reported as failed */
        return;
    }
    callf("aclrtSynchronizeStream(%s) [after a kernel that %s]", hdesc(&s), what[how]);
    aclError rc = ret(aclrtSynchronizeStream(s.h));
    must_fail(rc, what[how]);
    if (rc != 0 && rc != want[how]) {
        const char *msg = aclGetRecentErrMsg();
        finding("WRONG VALUE", "aclrtSynchronizeStream after a fault", "a kernel that %s: code %d, want %d: %s",
                what[how], rc, want[how], msg ? msg : "(no message)");
    }
    if (fz.objs[fz.cur_ctx].stop_mode) {
        ctx_taint(fz.cur_ctx);
    }
}

const struct op ops_kernel[] = {
    {"fault", 2, op_fault},
    {"load_binary", 4, op_load_binary},
    {"get_function", 6, op_get_function},
    {"unload", 2, op_unload},
    {"function_name", 2, op_function_name},
    {"args", 5, op_args},
    {NULL, 0, NULL},
};
