/*
 * Controlling execution: core resource limits of devices, streams and
 * the calling thread; aclrtReduceAsync and aclrtRandomNumAsync on a
 * stream of their own with checked results, and their refusals; the
 * saturation mode, the stream overflow switch and the overflow status.
 * The reduce, random and status tasks go on a stream the operation
 * creates and destroys, so that a fuzzed stream waiting for ever never
 * holds them.
 */
#include <string.h>

#include "fuzz.h"

static int soc_is(const char *prefix)
{
    const char *soc = aclrtGetSocName();
    return soc != NULL && strncmp(soc, prefix, strlen(prefix)) == 0;
}

/* Device limits: after a reset the chip's count, a value within it read
 * back, one past it refused, a bad type or device refused. */
static void op_dev_reslimit(void)
{
    int bad = one_in(6);
    int32_t d = bad ? bad_dev() : valid_dev();
    int open = !bad && fz.inited && device_open(d);
    aclrtDevResLimitType type = (aclrtDevResLimitType)(one_in(6) ? 2 + below(5) : below(2));
    uint32_t max = 0, v = 0;
    callf("aclrtResetDeviceResLimit(%d)", d);
    aclError rc = ret(aclrtResetDeviceResLimit(d));
    if (bad) {
        must_fail(rc, "an invalid device id");
        return;
    }
    if (open) {
        must_pass(rc, 0);
    }
    callf("aclrtGetDeviceResLimit(%d, %d, &max)", d, (int)type);
    rc = ret(aclrtGetDeviceResLimit(d, type, &max));
    if (type >= 2) {
        must_fail(rc, "a resource type >= 2");
        return;
    }
    if (!open) {
        return;
    }
    must_pass(rc, 0);
    if (rc != 0 || max == 0) {
        return;
    }
    uint32_t want = 1 + (uint32_t)below(max);
    callf("aclrtSetDeviceResLimit(%d, %d, %u)", d, (int)type, want);
    must_pass(ret(aclrtSetDeviceResLimit(d, type, want)), 0);
    callf("aclrtGetDeviceResLimit(%d, %d, &v)", d, (int)type);
    if (ret(aclrtGetDeviceResLimit(d, type, &v)) == 0 && v != want) {
        finding("WRONG VALUE", "aclrtGetDeviceResLimit", "%u, set %u", v, want);
    }
    callf("aclrtSetDeviceResLimit(%d, %d, %u) [chip count + 1]", d, (int)type, max + 1);
    must_fail(ret(aclrtSetDeviceResLimit(d, type, max + 1)), "a value above the chip's cores");
    callf("aclrtGetDeviceResLimit(%d, %d, NULL)", d, (int)type);
    must_fail(ret(aclrtGetDeviceResLimit(d, type, NULL)), "value NULL");
    callf("aclrtResetDeviceResLimit(%d)", d);
    must_pass(ret(aclrtResetDeviceResLimit(d)), 0);
}

/* Stream limits and the thread using a stream's: a stream's limit read
 * back from the stream and, while used, from the thread. */
static void op_stream_reslimit(void)
{
    if (ensure_device() != 0) {
        return;
    }
    aclrtStream s = NULL;
    callf("aclrtCreateStream(&own)");
    aclError rc = ret(aclrtCreateStream(&s));
    must_pass(rc, allow_for_ctx(fz.cur_ctx) | AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    aclrtDevResLimitType type = (aclrtDevResLimitType)below(2);
    uint32_t max = 0, v = 0;
    callf("aclrtGetStreamResLimit(own, %d, &max)", (int)type);
    rc = ret(aclrtGetStreamResLimit(s, type, &max));
    must_pass(rc, 0);
    if (rc == 0 && max > 0) {
        uint32_t want = 1 + (uint32_t)below(max);
        callf("aclrtSetStreamResLimit(own, %d, %u)", (int)type, want);
        must_pass(ret(aclrtSetStreamResLimit(s, type, want)), 0);
        callf("aclrtGetStreamResLimit(own, %d, &v)", (int)type);
        if (ret(aclrtGetStreamResLimit(s, type, &v)) == 0 && v != want) {
            finding("WRONG VALUE", "aclrtGetStreamResLimit", "%u, set %u", v, want);
        }
        callf("aclrtUseStreamResInCurrentThread(own)");
        must_pass(ret(aclrtUseStreamResInCurrentThread(s)), 0);
        v = 0;
        callf("aclrtGetResInCurrentThread(%d, &v)", (int)type);
        if (ret(aclrtGetResInCurrentThread(type, &v)) == 0 && v != want) {
            finding("WRONG VALUE", "aclrtGetResInCurrentThread", "%u, the used stream's %u", v, want);
        }
        callf("aclrtUnuseStreamResInCurrentThread(own)");
        must_pass(ret(aclrtUnuseStreamResInCurrentThread(s)), 0);
        callf("aclrtSetStreamResLimit(own, %d, %u) [above the chip]", (int)type, max + 1 + (uint32_t)below(100));
        must_fail(ret(aclrtSetStreamResLimit(s, type, max + 1 + (uint32_t)below(100))), "a value above the chip's cores");
    }
    uint32_t bt = 2 + (uint32_t)below(1000);
    callf("aclrtSetStreamResLimit(own, %u, 1)", bt);
    must_fail(ret(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)bt, 1)), "a resource type >= 2");
    callf("aclrtGetResInCurrentThread(%u, &v)", bt);
    must_fail(ret(aclrtGetResInCurrentThread((aclrtDevResLimitType)bt, &v)), "a resource type >= 2");
    callf("aclrtGetStreamResLimit(own, 0, NULL)");
    must_fail(ret(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, NULL)), "value NULL");
    callf("aclrtResetStreamResLimit(own)");
    must_pass(ret(aclrtResetStreamResLimit(s)), 0);
    callf("aclrtDestroyStream(own)");
    must_pass(ret(aclrtDestroyStream(s)), 0);
}

/* own_setup makes a stream and n bytes of device memory, twice. */
static int own_setup(aclrtStream *s, void **a, void **b, size_t n)
{
    *s = NULL;
    *a = *b = NULL;
    if (ensure_device() != 0) {
        return -1;
    }
    unsigned allow = allow_for_ctx(fz.cur_ctx) | AL_RESOURCE;
    callf("aclrtCreateStream(&own)");
    aclError rc = ret(aclrtCreateStream(s));
    must_pass(rc, allow);
    if (rc != 0) {
        return -1;
    }
    callf("aclrtMalloc(&a, %zu) [own]", n);
    rc = ret(aclrtMalloc(a, n, ACL_MEM_MALLOC_HUGE_FIRST));
    must_pass(rc, allow);
    if (rc == 0) {
        callf("aclrtMalloc(&b, %zu) [own]", n);
        rc = ret(aclrtMalloc(b, n, ACL_MEM_MALLOC_HUGE_FIRST));
        must_pass(rc, allow);
    }
    return rc == 0 ? 0 : -1;
}

static void own_teardown(aclrtStream s, void *a, void *b)
{
    if (a != NULL) {
        callf("aclrtFree(a) [own]");
        must_pass(ret(aclrtFree(a)), AL_ANY);
    }
    if (b != NULL) {
        callf("aclrtFree(b) [own]");
        must_pass(ret(aclrtFree(b)), AL_ANY);
    }
    if (s != NULL) {
        callf("aclrtDestroyStream(own)");
        must_pass(ret(aclrtDestroyStream(s)), AL_ANY);
    }
}

/* An int32 reduce of each kind checked element by element, or a refusal. */
static void op_reduce(void)
{
    enum { N = 64 };
    aclrtStream s;
    void *a, *b;
    if (own_setup(&s, &a, &b, 4 * N) != 0) {
        own_teardown(s, a, b);
        return;
    }
    unsigned allow = allow_for_ctx(fz.cur_ctx);
    int32_t x[N], y[N], got[N], want[N];
    pattern(x, sizeof x, rnd());
    pattern(y, sizeof y, rnd());
    int kind = 10 + (int)below(4);
    uint32_t n = 1 + (uint32_t)below(N);
    for (uint32_t i = 0; i < N; i++) {
        int32_t p = x[i], q = y[i];
        want[i] = i >= n ? p
                  : kind == 10 ? (int32_t)((uint32_t)p + (uint32_t)q)
                  : kind == 11 ? (p > q ? p : q)
                  : kind == 12 ? (p < q ? p : q)
                               : q;
    }
    callf("aclrtMemcpy(a, b) [own, %d words]", N);
    aclError rc = ret(aclrtMemcpy(a, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE));
    if (rc == 0) {
        rc = aclrtMemcpy(b, sizeof y, y, sizeof y, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    must_pass(rc, allow);
    if (rc != 0) {
        own_teardown(s, a, b);
        return;
    }
    switch (below(8)) {
    case 0:
        callf("aclrtReduceAsync(NULL, b, 8, SUM, INT32, own, NULL)");
        must_fail(ret(aclrtReduceAsync(NULL, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, NULL)), "dst NULL");
        break;
    case 1:
        callf("aclrtReduceAsync(a, b, 8, SUM, INT32, own, &x)");
        must_fail(ret(aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, x)), "reserve not NULL");
        break;
    case 2: {
        int k = one_in(2) ? 9 : 14 + (int)below(100);
        callf("aclrtReduceAsync(a, b, 8, kind %d, INT32, own, NULL)", k);
        must_fail(ret(aclrtReduceAsync(a, b, 8, (aclrtReduceKind)k, ACL_INT32, s, NULL)), "an invalid kind");
        break;
    }
    case 3: {
        uint64_t c = one_in(2) ? 0 : one_in(2) ? 6 : 4 * N + 4;
        callf("aclrtReduceAsync(a, b, %llu, SUM, INT32, own, NULL)", (unsigned long long)c);
        must_fail(ret(aclrtReduceAsync(a, b, c, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, NULL)),
                  "count 0, not a multiple of 4 or past the allocation");
        break;
    }
    case 4:
        callf("aclrtReduceAsync(a, b+2, 8, SUM, FLOAT, own, NULL)");
        must_fail(ret(aclrtReduceAsync(a, (char *)b + 2, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL)),
                  "a misaligned src");
        break;
    case 5:
        callf("aclrtReduceAsync(a, b, 8, SUM, INT64, own, NULL)");
        must_fail(ret(aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT64, s, NULL)), "ACL_INT64");
        break;
    default:
        callf("aclrtReduceAsync(a, b, %u, %d, INT32, own, NULL)", 4 * n, kind);
        rc = ret(aclrtReduceAsync(a, b, 4 * n, (aclrtReduceKind)kind, ACL_INT32, s, NULL));
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        callf("aclrtSynchronizeStream(own)");
        rc = ret(aclrtSynchronizeStream(s));
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        callf("aclrtMemcpy(got, a) [own]");
        rc = ret(aclrtMemcpy(got, sizeof got, a, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
        must_pass(rc, allow);
        if (rc == 0) {
            int i = first_diff(got, want, sizeof got);
            if (i >= 0) {
                mismatch("aclrtReduceAsync kind %d of %u int32: byte %d differs", kind, n, i);
            }
        }
    }
    own_teardown(s, a, b);
}

static aclrtRandomParaInfo rvalue(uint64_t v, uint8_t size)
{
    aclrtRandomParaInfo p;
    memset(&p, 0, sizeof p);
    memcpy(p.valueOrAddr, &v, 8);
    p.size = size;
    return p;
}

/* Uniform floats in [lo, lo+1), twice from the same seed and counter:
 * the same numbers, within the bounds; or a refusal. */
static void op_random(void)
{
    enum { N = 256 };
    aclrtStream s;
    void *out, *ctr;
    if (own_setup(&s, &out, &ctr, 4 * N) != 0) {
        own_teardown(s, out, ctr);
        return;
    }
    unsigned allow = allow_for_ctx(fz.cur_ctx);
    float lo = (float)((int)below(200) - 100), hi = lo + 1;
    uint32_t blo, bhi, n = 4 * (1 + (uint32_t)below(N / 4));
    memcpy(&blo, &lo, 4);
    memcpy(&bhi, &hi, 4);
    aclrtRandomNumTaskInfo t;
    memset(&t, 0, sizeof t);
    t.dataType = ACL_FLOAT;
    t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = rvalue(blo, 4);
    t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = rvalue(bhi, 4);
    t.randomResultAddr = out;
    t.randomCounterAddr = ctr;
    t.randomSeed = rvalue(rnd(), 8);
    t.randomNum = rvalue(n, 8);
    int refuse = (int)below(8);
    void *reserve = NULL;
    const char *why = NULL;
    switch (refuse) {
    case 0:
        reserve = &t, why = "reserve not NULL";
        break;
    case 1:
        t.dataType = ACL_INT8, why = "dataType ACL_INT8";
        break;
    case 2:
        t.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)(4 + below(100)), why = "funcType >= 4";
        break;
    case 3:
        t.randomCounterAddr = NULL, why = "counter NULL";
        break;
    case 4:
        t.randomSeed.isAddr = (uint8_t)(2 + below(254)), why = "isAddr > 1";
        break;
    }
    static const uint8_t zero[16];
    float a[N], b[N];
    for (int round = 0; round < (why ? 1 : 2); round++) {
        callf("aclrtMemcpy(counter, zero) [own]");
        aclError rc = ret(aclrtMemcpy(ctr, 16, zero, 16, ACL_MEMCPY_HOST_TO_DEVICE));
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        callf("aclrtRandomNumAsync(uniform [%g, %g) x %u%s%s, own)", lo, hi, n, why ? ", " : "", why ? why : "");
        rc = ret(aclrtRandomNumAsync(&t, s, reserve));
        if (why != NULL) {
            must_fail(rc, why);
            break;
        }
        if (soc_is("Ascend950")) {
            must_fail(rc, "no random number task on the Ascend 950");
            break;
        }
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        callf("aclrtSynchronizeStream(own)");
        rc = ret(aclrtSynchronizeStream(s));
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        callf("aclrtMemcpy(host, out) [own]");
        rc = ret(aclrtMemcpy(round ? b : a, 4 * n, out, 4 * n, ACL_MEMCPY_DEVICE_TO_HOST));
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        if (round == 0) {
            for (uint32_t i = 0; i < n; i++) {
                if (!(a[i] >= lo && a[i] < hi)) {
                    mismatch("aclrtRandomNumAsync uniform [%g, %g): sample %u = %g", lo, hi, i, a[i]);
                    break;
                }
            }
            uint64_t c[2];
            if (aclrtMemcpy(c, 16, ctr, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0 && (c[0] != n / 4 || c[1] != 0)) {
                finding("WRONG VALUE", "aclrtRandomNumAsync", "counter %llu after %u floats, expected %u",
                        (unsigned long long)c[0], n, n / 4);
            }
        } else if (memcmp(a, b, 4 * n) != 0) {
            mismatch("aclrtRandomNumAsync: the same seed and counter gave other numbers");
        }
    }
    own_teardown(s, out, ctr);
}

/* The saturation mode, the overflow switch of a stream of its own, the
 * status read through it and reset, and the context's status address. */
static void op_overflow(void)
{
    aclrtStream s;
    void *out, *unused;
    if (own_setup(&s, &out, &unused, 64) != 0) {
        own_teardown(s, out, unused);
        return;
    }
    unsigned allow = allow_for_ctx(fz.cur_ctx);
    aclError rc;
    switch (below(5)) {
    case 0: {
        aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
        callf("aclrtGetDeviceSatMode(&m)");
        rc = ret(aclrtGetDeviceSatMode(&m));
        must_pass(rc, 0);
        if (rc == 0 && m != ACL_RT_OVERFLOW_MODE_SATURATION && m != ACL_RT_OVERFLOW_MODE_INFNAN) {
            finding("WRONG VALUE", "aclrtGetDeviceSatMode", "mode %d", (int)m);
        }
        int mode = one_in(4) ? 2 + (int)below(100) : (int)below(2);
        callf("aclrtSetDeviceSatMode(%d)", mode);
        rc = ret(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)mode));
        if (mode >= 2) {
            must_fail(rc, "mode >= 2");
        } else if (rc == 0) {
            aclrtFloatOverflowMode g = ACL_RT_OVERFLOW_MODE_UNDEF;
            callf("aclrtGetDeviceSatMode(&g)");
            if (ret(aclrtGetDeviceSatMode(&g)) == 0 && (int)g != mode) {
                finding("WRONG VALUE", "aclrtGetDeviceSatMode", "mode %d, set %d", (int)g, mode);
            }
        } else if (!soc_is("Ascend950") && !soc_is("Ascend310B")) {
            must_pass(rc, 0);
        }
        break;
    }
    case 1: {
        uint32_t flag = (uint32_t)(one_in(4) ? 2 + below(100) : below(2)), g = 9;
        callf("aclrtSetStreamOverflowSwitch(own, %u)", flag);
        rc = ret(aclrtSetStreamOverflowSwitch(s, flag));
        if (flag >= 2) {
            must_fail(rc, "flag >= 2");
        } else if (rc == 0) {
            callf("aclrtGetStreamOverflowSwitch(own, &g)");
            if (ret(aclrtGetStreamOverflowSwitch(s, &g)) == 0 && g != flag) {
                finding("WRONG VALUE", "aclrtGetStreamOverflowSwitch", "%u, set %u", g, flag);
            }
        } else if (!soc_is("Ascend310B")) {
            must_pass(rc, 0);
        }
        break;
    }
    case 2: {
        int how = (int)below(3), small = one_in(4);
        size_t size = small ? 32 : 64;
        callf("%s(out, %zu, own)", how == 0 ? "aclrtGetOverflowStatus" : how == 1 ? "aclrtGetFloatOverflowStatus"
                                                                               : "aclrtNpuGetFloatOverFlowStatus",
              size);
        rc = ret(how == 0   ? aclrtGetOverflowStatus(out, size, s)
                 : how == 1 ? aclrtGetFloatOverflowStatus(out, size, s)
                            : aclrtNpuGetFloatOverFlowStatus(out, size, 0, s));
        if (small) {
            must_fail(rc, "outputSize 32");
            break;
        }
        must_pass(rc, allow);
        if (rc != 0) {
            break;
        }
        callf("aclrtSynchronizeStream(own)");
        rc = ret(aclrtSynchronizeStream(s));
        must_pass(rc, allow);
        uint32_t w = 7;
        if (rc == 0 && aclrtMemcpy(&w, 4, out, 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0 && w > 1) {
            finding("WRONG VALUE", "aclrtGetOverflowStatus", "status word %u, expected 0 or 1", w);
        }
        break;
    }
    case 3: {
        int how = (int)below(3);
        callf("%s(own)", how == 0 ? "aclrtResetOverflowStatus" : how == 1 ? "aclrtResetFloatOverflowStatus"
                                                                          : "aclrtNpuClearFloatOverFlowStatus");
        rc = ret(how == 0   ? aclrtResetOverflowStatus(s)
                 : how == 1 ? aclrtResetFloatOverflowStatus(s)
                            : aclrtNpuClearFloatOverFlowStatus(0, s));
        must_pass(rc, allow);
        if (rc == 0) {
            callf("aclrtSynchronizeStream(own)");
            must_pass(ret(aclrtSynchronizeStream(s)), allow);
        }
        break;
    }
    default: {
        void *p = NULL, *q = NULL;
        callf("aclrtCtxGetFloatOverflowAddr(&p) twice");
        rc = ret(aclrtCtxGetFloatOverflowAddr(&p));
        must_pass(rc, allow);
        if (rc == 0 && (aclrtCtxGetFloatOverflowAddr(&q) != 0 || p == NULL || p != q)) {
            finding("WRONG VALUE", "aclrtCtxGetFloatOverflowAddr", "%p then %p", p, q);
        }
        callf("aclrtCtxGetFloatOverflowAddr(NULL)");
        must_fail(ret(aclrtCtxGetFloatOverflowAddr(NULL)), "overflowAddr NULL");
    }
    }
    own_teardown(s, out, unused);
}

const struct op ops_control[] = {
    {"dev_reslimit", 2, op_dev_reslimit},
    {"stream_reslimit", 2, op_stream_reslimit},
    {"reduce", 2, op_reduce},
    {"random", 2, op_random},
    {"overflow", 2, op_overflow},
    {NULL, 0, NULL},
};
