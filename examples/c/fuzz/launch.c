/*
 * Launches: every launch call (arguments in device memory, in host memory
 * with placeholders, as an argument list, as an array), valid and not.
 * Kernels only ever get valid pointers: a kernel is the program's own code,
 * and a wild pointer in it is the program's fault, not the runtime's.
 */
#include "fuzz.h"

#include <string.h>

/* The device argument area of dev: 32-byte slots, reused round-robin after
 * a device synchronization, so a slot is never rewritten before the launch
 * that reads it has started. */
static char *arg_slot(int dev, const void *args, size_t n)
{
    enum { ARENA = 1 << 20 };
    if (fz.arena[dev] == NULL) {
        void *p = NULL;
        callf("aclrtMalloc(&p, %d, NORMAL_ONLY) [argument area]", ARENA);
        if (ret(aclrtMalloc(&p, ARENA, ACL_MEM_MALLOC_NORMAL_ONLY)) != 0) {
            return NULL;
        }
        fz.arena[dev] = p;
        fz.arena_next[dev] = 0;
        int a = alloc_new(M_DEV, p, ARENA, dev);
        if (a >= 0) {
            fz.allocs[a].reserved = 1;
        }
    }
    if (fz.arena_next[dev] + n > ARENA) {
        callf("aclrtSynchronizeDevice() [argument area wraps]");
        if (ret(aclrtSynchronizeDevice()) != 0) {
            return NULL;
        }
        fz.arena_next[dev] = 0;
    }
    char *p = fz.arena[dev] + fz.arena_next[dev];
    callf("aclrtMemcpy(args %p, %zu, host, %zu, H2D)", (void *)p, n, n);
    if (ret(aclrtMemcpy(p, n, args, n, ACL_MEMCPY_HOST_TO_DEVICE)) != 0) {
        return NULL;
    }
    fz.arena_next[dev] += (n + 31) / 32 * 32;
    return p;
}

/* A finalized fz_fill argument list for func writing n bytes at dst: one
 * made earlier for the same range (with the pattern updated), or a new one.
 * Lists are never destroyed (there is no call for it): keep few. */
static aclrtArgsHandle fill_list(int func, char *dst, uint64_t n, uint64_t pattern)
{
    int al = alloc_of(dst);
    uint64_t serial = al >= 0 ? fz.allocs[al].serial : 0;
    for (int i = 0; i < MAXOBJ; i++) {
        obj *o = &fz.objs[i];
        if (o->live && o->kind == K_ARGS && o->parent == func && !o->weird && o->dst == dst && o->n == n &&
            o->dst_serial == serial) {
            callf("aclrtKernelArgsParaUpdate(obj#%llu, param 2, &pattern, 8)", (unsigned long long)o->serial);
            if (ret(aclrtKernelArgsParaUpdate(o->h, o->params[2], &pattern, 8)) != 0) {
                return NULL;
            }
            callf("aclrtKernelArgsFinalize(obj#%llu)", (unsigned long long)o->serial);
            return ret(aclrtKernelArgsFinalize(o->h)) == 0 ? o->h : NULL;
        }
    }
    if (obj_count(K_ARGS) >= 24) {
        int old = obj_pick(K_ARGS);
        if (old >= 0) {
            fz.objs[old].live = 0; /* still valid in the runtime: just forgotten */
        }
    }
    aclrtArgsHandle a = NULL;
    aclrtParamHandle ph[3] = {NULL, NULL, NULL};
    callf("aclrtKernelArgsInit(obj#%llu, &a)", (unsigned long long)fz.objs[func].serial);
    if (ret(aclrtKernelArgsInit(fz.objs[func].h, &a)) != 0) {
        return NULL;
    }
    uint64_t vals[3] = {(uint64_t)(uintptr_t)dst, n, pattern};
    for (int i = 0; i < 3; i++) {
        callf("aclrtKernelArgsAppend(a, &v%d, 8, &ph)", i);
        if (ret(aclrtKernelArgsAppend(a, &vals[i], 8, &ph[i])) != 0) {
            return NULL;
        }
    }
    callf("aclrtKernelArgsFinalize(a)");
    if (ret(aclrtKernelArgsFinalize(a)) != 0) {
        return NULL;
    }
    int i = obj_new(K_ARGS, a, -1, -1);
    if (i >= 0) {
        obj *o = &fz.objs[i];
        o->parent = func;
        o->finalized = 1;
        o->nparams = 3;
        memcpy(o->params, ph, sizeof ph);
        o->dst = dst;
        o->n = n;
        o->dst_serial = serial;
    }
    return a;
}

/* Launches func (an fz_* kernel) with arguments args (argc 8-byte words)
 * through one of the launch calls. */
static aclError launch_with(int variant, harg *f, uint32_t blocks, harg *s, const uint64_t *args, int argc,
                            int *why_set, const char **why)
{
    size_t size = (size_t)argc * 8;
    aclError rc;
    int d = stream_dev(s);
    switch (variant) {
    case 0:
    case 1: {
        char *dev = d >= 0 && size ? arg_slot(d, args, size) : NULL;
        if (size && dev == NULL) {
            *why_set = -1;
            return -1;
        }
        if (variant == 0) {
            callf("aclrtLaunchKernel(%s, %u, args %p, %zu, %s)", hdesc(f), blocks, (void *)dev, size, hdesc(s));
            return ret(aclrtLaunchKernel(f->h, blocks, dev, size, s->h));
        }
        aclrtLaunchKernelAttr attr = {ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, {.schemMode = 0}};
        aclrtLaunchKernelCfg cfg = {&attr, 1};
        callf("aclrtLaunchKernelV2(%s, %u, args %p, %zu, cfg, %s)", hdesc(f), blocks, (void *)dev, size, hdesc(s));
        return ret(aclrtLaunchKernelV2(f->h, blocks, dev, size, one_in(2) ? &cfg : NULL, s->h));
    }
    case 2: {
        /* A placeholder: one more pointer slot, pointing at a copy of
         * 64 bytes of data at the end of the block. */
        uint64_t block[3 + 1 + 8] = {0};
        memcpy(block, args, size);
        int ph = one_in(3) && !(fz.avoid & AV_TEARDOWN_FREE);
        aclrtPlaceHolderInfo info = {(uint32_t)size, (uint32_t)size + 8};
        size_t total = ph ? size + 8 + 64 : size;
        callf("aclrtLaunchKernelWithHostArgs(%s, %u, %s, NULL, host, %zu, %s, %d)", hdesc(f), blocks, hdesc(s), total,
              ph ? "&ph" : "NULL", ph);
        return ret(aclrtLaunchKernelWithHostArgs(f->h, blocks, s->h, NULL, block, total, ph ? &info : NULL, (size_t)ph));
    }
    case 3: {
        if (argc != 3 || f->v != VALID) {
            return launch_with(2, f, blocks, s, args, argc, why_set, why);
        }
        aclrtArgsHandle a = fill_list(f->idx, (char *)(uintptr_t)args[0], args[1], args[2]);
        if (a == NULL) {
            *why_set = -1;
            return -1;
        }
        callf("aclrtLaunchKernelWithConfig(%s, %u, %s, NULL, a, NULL)", hdesc(f), blocks, hdesc(s));
        return ret(aclrtLaunchKernelWithConfig(f->h, blocks, s->h, NULL, a, NULL));
    }
    default: {
        if (argc == 0 && (fz.avoid & AV_ZERO_PARAMS)) {
            return launch_with(2, f, blocks, s, args, argc, why_set, why);
        }
        void *ptrs[3] = {(void *)&args[0], (void *)&args[1], (void *)&args[2]};
        callf("aclrtLaunchKernelWithArgsArray(%s, %u, %s, NULL, %s)", hdesc(f), blocks, hdesc(s), argc ? "args" : "NULL");
        rc = ret(aclrtLaunchKernelWithArgsArray(f->h, blocks, s->h, NULL, argc ? ptrs : NULL));
        return rc;
    }
    }
}

/* Notes a successful launch of kernel fk writing n bytes at dst. */
static void launched(int fk, const harg *s, char *dst)
{
    int c = s->idx >= 0 ? fz.objs[s->idx].ctx : fz.cur_ctx, a = dst ? alloc_of(dst) : -1;
    alloc_touch(a, stream_dev(s));
    cap_note_task(s->idx, a);
    if (fk == FK_TRAP || fk == FK_FAULT) {
        ctx_taint(c);
        cap_note_trap(s->idx);
    }
}

int kernel_fill(int s_idx, void *stream, char *dst, uint64_t n, uint8_t pattern, aclError *rc)
{
    int f = -1;
    for (int i = 0; i < MAXOBJ; i++) {
        if (fz.objs[i].live && fz.objs[i].kind == K_FUNC && fz.objs[i].fk == FK_FILL) {
            f = i;
        }
    }
    if (f < 0) {
        return -1;
    }
    harg fh = {fz.objs[f].h, f, VALID, "live"}, s = {stream, s_idx, VALID, "live"};
    uint64_t args[3] = {(uint64_t)(uintptr_t)dst, n, pattern};
    int ws = 0;
    const char *why = NULL;
    int variant = (int)below(5);
    if (variant < 2 && !stream_clean(s_idx)) {
        variant = 2 + (int)below(3); /* replays must not read the argument area later */
    }
    *rc = launch_with(variant, &fh, 1 + (uint32_t)below(24), &s, args, 3, &ws, &why);
    return ws < 0 ? -1 : 0;
}

static void op_launch(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    harg f = pick_handle(K_FUNC, 0), s = pick_stream();
    enum validity sv = queue_on(&s);
    int fk = f.v == VALID ? fz.objs[f.idx].fk : FK_NOP;
    if ((fk == FK_TRAP || fk == FK_FAULT) && !one_in(6)) {
        return; /* traps and faults taint a context: keep them rare */
    }
    int d = stream_dev(&s), variant = (int)below(5);
    uint32_t blocks = 1 + (uint32_t)below(32);
    const char *why = f.v != VALID ? "an invalid funcHandle" : sv == INVALID ? "an invalid stream or one of another context" : NULL;
    if (one_in(16)) {
        blocks = 0;
        why = why ? why : "numBlocks 0";
    }
    /* Arguments in device memory must be read when the kernel starts: not
     * for captured or bound streams, whose replays would read them later. */
    if (variant < 2 && s.idx >= 0 && !stream_clean(s.idx)) {
        variant = 2;
    }
    uint64_t args[3] = {0, 0, 0};
    int argc = 0;
    char *dst = NULL;
    if (fk == FK_FILL || fk == FK_ADD) {
        int a = -1;
        for (int tries = 0; tries < 8; tries++) {
            a = alloc_pick(1 << M_DEV);
            if (a >= 0 && fz.allocs[a].dev == d && fz.allocs[a].extent >= 8) {
                break;
            }
            a = -1;
        }
        if (a < 0) {
            return;
        }
        alloc *m = &fz.allocs[a];
        uint64_t n = fk == FK_ADD ? 8 : 1 + below(m->extent < 65536 ? m->extent : 65536);
        uint64_t off = fk == FK_ADD ? below(m->extent / 8) * 8 : below(m->extent - n + 1);
        dst = m->p + off;
        args[0] = (uint64_t)(uintptr_t)dst;
        args[1] = fk == FK_ADD ? 1 : n;
        args[2] = rnd();
        argc = fk == FK_ADD ? 2 : 3;
        if (fk == FK_ADD) {
            variant = variant == 3 ? 2 : variant;
        }
    } else if (fk == FK_FAULT) {
        args[0] = below(3); /* read, write or divide: the NULL page, or by 0 */
        args[1] = args[0] == 2 ? 0 : 8 * below(512);
        argc = 2;
    } else if (one_in(6) && variant == 2 && !(fz.avoid & AV_HOSTARGS_HUGE) && why == NULL) {
        /* A kernel without parameters, given an argument block of a size
         * no host can have. */
        static uint64_t block[4];
        uint64_t size = one_in(2) ? 0x80000000ULL : one_in(2) ? 0x100000008ULL : size_huge();
        callf("aclrtLaunchKernelWithHostArgs(%s, %u, %s, NULL, host, %s, NULL, 0)", hdesc(&f), blocks, hdesc(&s),
              size_name(size));
        must_fail(ret(aclrtLaunchKernelWithHostArgs(f.h, blocks, s.h, NULL, block, size, NULL, 0)), "a huge argsSize");
        return;
    } else if (one_in(8) && why == NULL) {
        static uint64_t block[4];
        int nullargs = one_in(2);
        uint64_t size = nullargs ? 8 : size_huge();
        callf("aclrtLaunchKernel(%s, %u, %s, %s, %s)", hdesc(&f), blocks, nullargs ? "NULL" : "host", size_name(size),
              hdesc(&s));
        must_fail(ret(aclrtLaunchKernel(f.h, blocks, nullargs ? NULL : block, size, s.h)),
                  nullargs ? "argsData NULL with argsSize 8" : "a huge argsSize");
        return;
    }
    int ws = 0;
    const char *w2 = NULL;
    aclError rc = launch_with(variant, &f, blocks, &s, args, argc, &ws, &w2);
    if (ws < 0) {
        return;
    }
    if (why != NULL) {
        must_fail(rc, why);
        return;
    }
    if (sv == VALID) {
        must_pass(rc, allow_for_stream(s.idx));
    }
    if (rc == 0) {
        launched(fk, &s, dst);
    }
}

const struct op ops_launch[] = {
    {"launch", 24, op_launch},
    {NULL, 0, NULL},
};
