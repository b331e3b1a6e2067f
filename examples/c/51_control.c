/*
 * 51_control: the functions controlling execution.
 *
 * On the default chip (Atlas A2, 910B1): core resource limits of the
 * device and of a stream, their precedence (stream over device over the
 * chip's 24 cube and 48 vector cores), the limits a thread reports once
 * it uses a stream's, and their refusals; the scheduler keeping a kernel
 * of 48 blocks (peak, counting its blocks running at once) within them; aclrtReduceAsync of each kind
 * on float, float16, bfloat16 and the signed integers, and its refusals;
 * aclrtRandomNumAsync of each function with checked properties, its
 * reproducibility from seed and counter, the counter advancing, and its
 * refusals.
 *
 * Usage: 51_control <kernel binary with peak>
 *
 * On Ascend 950: aclrtRandomNumAsync refused.
 */
#include "common.h"

static aclrtStream s;

static aclrtFuncHandle peak;

static void *dmalloc(size_t n)
{
    void *p = NULL;
    CHECK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(p, n, 0, n));
    return p;
}

static void put(void *dev, const void *host, size_t n)
{
    CHECK(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void get(void *host, const void *dev, size_t n)
{
    CHECK(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
}

static void scheduler(void)
{
    aclrtStream s2;
    int64_t n = run_peak(peak, s);
    EXPECT(n > 4, "unlimited: %lld blocks of 48 ran at once, more than 4", (long long)n);
    CHECK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 4));
    n = run_peak(peak, s);
    EXPECT(n == 4, "device vector limit 4: %lld blocks at once", (long long)n);
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtSetStreamResLimit(s2, ACL_RT_DEV_RES_CUBE_CORE, 6));
    CHECK(aclrtSetStreamResLimit(s2, ACL_RT_DEV_RES_VECTOR_CORE, 8));
    n = run_peak(peak, s2);
    EXPECT(n == 6, "stream limits 6 cube, 8 vector over the device's 4: %lld blocks at once", (long long)n);
    CHECK(aclrtSetStreamResLimit(s2, ACL_RT_DEV_RES_CUBE_CORE, 0));
    n = run_peak(peak, s2);
    EXPECT(n == 1, "stream cube limit 0: %lld block at once", (long long)n);
    CHECK(aclrtResetStreamResLimit(s2));
    n = run_peak(peak, s2);
    EXPECT(n == 4, "after aclrtResetStreamResLimit: the device's 4 (%lld)", (long long)n);
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetDeviceResLimit(0));
    n = run_peak(peak, s);
    EXPECT(n > 4, "after aclrtResetDeviceResLimit: %lld at once, more than 4", (long long)n);
}

static void reslimits(void)
{
    uint32_t v = 0;
    aclrtStream s2;
    CHECK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 24, "default device cube limit %u", v);
    CHECK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
    EXPECT(v == 48, "default device vector limit %u", v);
    CHECK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 24, "a stream without limits reports the chip's %u cube cores", v);
    CHECK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8));
    CHECK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 8, "the device's limit applies to the stream: %u", v);
    CHECK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 4));
    CHECK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 4, "the stream's limit overrides the device's: %u", v);
    CHECK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 8, "the device keeps its own limit %u", v);
    CHECK(aclrtResetStreamResLimit(s));
    CHECK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 8, "after aclrtResetStreamResLimit the device's %u", v);
    CHECK(aclrtResetDeviceResLimit(0));
    CHECK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 24, "after aclrtResetDeviceResLimit the chip's %u", v);

    CHECK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 16));
    CHECK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 5));
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 24, "aclrtGetResInCurrentThread before using a stream: cube %u", v);
    CHECK(aclrtUseStreamResInCurrentThread(s));
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 5, "aclrtUseStreamResInCurrentThread: the stream's cube limit %u", v);
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
    EXPECT(v == 16, "vector, unset on the stream: the device's %u", v);
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtUnuseStreamResInCurrentThread(s2));
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 5, "unusing a stream not in use changes nothing: %u", v);
    CHECK(aclrtUnuseStreamResInCurrentThread(s));
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
    EXPECT(v == 24, "aclrtUnuseStreamResInCurrentThread: the chip's %u", v);
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetStreamResLimit(s));
    CHECK(aclrtResetDeviceResLimit(0));

    REFUSE(aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID, "type 2",
           "aclrtGetDeviceResLimit of type 2");
    REFUSE(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25), ACL_ERROR_RT_PARAM_INVALID, "value 25",
           "aclrtSetDeviceResLimit of 25 cube cores");
    REFUSE(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, 49), ACL_ERROR_RT_PARAM_INVALID, "value 49",
           "aclrtSetStreamResLimit of 49 vector cores");
    REFUSE(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)7, 1), ACL_ERROR_RT_PARAM_INVALID, "type 7",
           "aclrtSetStreamResLimit of type 7");
    REFUSE(aclrtGetResInCurrentThread((aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID, "type 2",
           "aclrtGetResInCurrentThread of type 2");
    REFUSE(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM, "value",
           "aclrtGetDeviceResLimit with value NULL");
    REFUSE(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM, "value",
           "aclrtGetStreamResLimit with value NULL");
    REFUSE(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM, "value",
           "aclrtGetResInCurrentThread with value NULL");
    REFUSE(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, 2), ACL_ERROR_RT_INVALID_DEVICEID, "",
           "aclrtSetDeviceResLimit of a device not set");
}

/* reduce1 reduces n bytes of b into a and returns a's bytes in out. */
static void reduce1(void *a, void *b, const void *x, const void *y, size_t n, aclrtReduceKind k, aclDataType t,
                    void *out)
{
    put(a, x, n);
    put(b, y, n);
    CHECK(aclrtReduceAsync(a, b, n, k, t, s, NULL));
    CHECK(aclrtSynchronizeStream(s));
    get(out, a, n);
}

static void reduces(void)
{
    void *a = dmalloc(64), *b = dmalloc(64);
    static const aclrtReduceKind kinds[4] = {ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX,
                                            ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL};
    static const char *names[4] = {"SUM", "MAX", "MIN", "EQUAL"};
    {
        float x[4] = {1, -2, 3, 5}, y[4] = {2, 4, -1, 5}, o[4];
        float want[4][4] = {{3, 2, 2, 10}, {2, 4, 3, 5}, {1, -2, -1, 5}, {2, 4, -1, 5}}; /* EQUAL stores src */
        for (int k = 0; k < 4; k++) {
            reduce1(a, b, x, y, sizeof x, kinds[k], ACL_FLOAT, o);
            EXPECT(memcmp(o, want[k], sizeof o) == 0, "float %s: %g %g %g %g", names[k], o[0], o[1], o[2], o[3]);
        }
    }
    {
        /* 1.0, 2.0, -1.0, 0.5 and 2.0, 2.0, 3.0, 0.5 as float16 */
        uint16_t x[4] = {0x3C00, 0x4000, 0xBC00, 0x3800}, y[4] = {0x4000, 0x4000, 0x4200, 0x3800}, o[4];
        uint16_t want[4][4] = {{0x4200, 0x4400, 0x4000, 0x3C00},
                               {0x4000, 0x4000, 0x4200, 0x3800},
                               {0x3C00, 0x4000, 0xBC00, 0x3800},
                               {0x4000, 0x4000, 0x4200, 0x3800}};
        for (int k = 0; k < 4; k++) {
            reduce1(a, b, x, y, sizeof x, kinds[k], ACL_FLOAT16, o);
            EXPECT(memcmp(o, want[k], sizeof o) == 0, "float16 %s: %#06x %#06x %#06x %#06x", names[k], o[0], o[1],
                   o[2], o[3]);
        }
    }
    {
        /* bfloat16: 1.0 = 0x3F80, 2.0 = 0x4000, 3.0 = 0x4040 */
        uint16_t x[2] = {0x3F80, 0x4000}, y[2] = {0x4000, 0x4000}, o[2];
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16, o);
        EXPECT(o[0] == 0x4040 && o[1] == 0x4080, "bfloat16 SUM: 1+2 = %#06x, 2+2 = %#06x", o[0], o[1]);
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_BF16, o);
        EXPECT(o[0] == 0x3F80 && o[1] == 0x4000, "bfloat16 MIN: %#06x %#06x", o[0], o[1]);
    }
    {
        int8_t x[4] = {1, -5, 100, 7}, y[4] = {2, 3, -100, 7}, o[4];
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT8, o);
        EXPECT(o[0] == 3 && o[1] == -2 && o[2] == 0 && o[3] == 14, "int8 SUM: %d %d %d %d", o[0], o[1], o[2], o[3]);
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT8, o);
        EXPECT(o[0] == 2 && o[1] == 3 && o[2] == 100 && o[3] == 7, "int8 MAX: %d %d %d %d", o[0], o[1], o[2], o[3]);
    }
    {
        int16_t x[2] = {-300, 1000}, y[2] = {200, 1000}, o[2];
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT16, o);
        EXPECT(o[0] == -300 && o[1] == 1000, "int16 MIN: %d %d", o[0], o[1]);
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_INT16, o);
        EXPECT(o[0] == 200 && o[1] == 1000, "int16 EQUAL stores src: %d %d", o[0], o[1]);
    }
    {
        int32_t x[2] = {-70000, 5}, y[2] = {30000, 6}, o[2];
        reduce1(a, b, x, y, sizeof x, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, o);
        EXPECT(o[0] == -40000 && o[1] == 11, "int32 SUM: %d %d", o[0], o[1]);
    }
    REFUSE(aclrtReduceAsync(NULL, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL), ACL_ERROR_INVALID_PARAM,
           "dst", "aclrtReduceAsync with dst NULL");
    REFUSE(aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, a), ACL_ERROR_INVALID_PARAM,
           "reserve", "aclrtReduceAsync with reserve not NULL");
    REFUSE(aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT64, s, NULL), ACL_ERROR_INVALID_PARAM,
           "type 9", "aclrtReduceAsync of ACL_INT64");
    REFUSE(aclrtReduceAsync(a, b, 0, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL), ACL_ERROR_RT_PARAM_INVALID,
           "count 0", "aclrtReduceAsync of 0 bytes");
    REFUSE(aclrtReduceAsync(a, b, 8, (aclrtReduceKind)9, ACL_FLOAT, s, NULL), ACL_ERROR_RT_PARAM_INVALID, "kind 9",
           "aclrtReduceAsync of kind 9");
    REFUSE(aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT32, s, NULL),
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "type 8", "aclrtReduceAsync of ACL_UINT32 on the Atlas A2");
    REFUSE(aclrtReduceAsync(a, (char *)b + 2, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL),
           ACL_ERROR_RT_ADDR_UNALIGNED, "src", "aclrtReduceAsync of a misaligned float src");
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
}

static aclrtRandomParaInfo value(uint64_t v, uint8_t size)
{
    aclrtRandomParaInfo p;
    memset(&p, 0, sizeof p);
    memcpy(p.valueOrAddr, &v, 8);
    p.size = size;
    return p;
}

static aclrtRandomParaInfo f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return value(b, 4);
}

static aclrtRandomNumTaskInfo task(aclrtRandomNumFuncType fn, aclrtRandomParaInfo p0, aclrtRandomParaInfo p1,
                                   uint64_t seed, uint64_t num, void *out, void *ctr)
{
    aclrtRandomNumTaskInfo t;
    memset(&t, 0, sizeof t);
    t.dataType = ACL_FLOAT;
    t.randomNumFuncParaInfo.funcType = fn;
    if (fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
        t.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation = p0;
    } else {
        t.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = p0;
        t.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = p1;
    }
    t.randomResultAddr = out;
    t.randomCounterAddr = ctr;
    t.randomSeed = value(seed, 8);
    t.randomNum = value(num, 8);
    return t;
}

#define NR 100000

static double absd(double x)
{
    return x < 0 ? -x : x;
}

static void run_random(const aclrtRandomNumTaskInfo *t, void *ctr, void *out, void *host, size_t n)
{
    static const uint8_t zero[16];
    put(ctr, zero, 16);
    CHECK(aclrtRandomNumAsync(t, s, NULL));
    CHECK(aclrtSynchronizeStream(s));
    get(host, out, n);
}

static void randoms(void)
{
    void *out = dmalloc(4 * NR), *ctr = dmalloc(16);
    float *v = malloc(4 * NR), *w = malloc(4 * NR);
    aclrtRandomParaInfo none;
    memset(&none, 0, sizeof none);

    aclrtRandomNumTaskInfo t = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, f32(-1), f32(3), 11, NR, out, ctr);
    run_random(&t, ctr, out, v, 4 * NR);
    int in = 1;
    for (int i = 0; i < NR; i++) {
        in &= v[i] >= -1 && v[i] < 3;
    }
    EXPECT(in, "uniform(-1, 3): %d float samples in [-1, 3)", NR);
    uint64_t c[2];
    get(c, ctr, 16);
    EXPECT(c[0] == NR / 4 && c[1] == 0, "the counter advanced by num/4 = %llu blocks", (unsigned long long)c[0]);
    run_random(&t, ctr, out, w, 4 * NR);
    EXPECT(memcmp(v, w, 4 * NR) == 0, "the same seed and counter give the same numbers");
    {
        /* a second task continues the counter where the first left it */
        aclrtRandomNumTaskInfo h = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, f32(-1), f32(3), 11, NR / 2, out, ctr);
        run_random(&h, ctr, out, w, 2 * NR);
        h.randomResultAddr = (char *)out + 2 * NR;
        CHECK(aclrtRandomNumAsync(&h, s, NULL));
        CHECK(aclrtSynchronizeStream(s));
        get(w, out, 4 * NR);
        EXPECT(memcmp(v, w, 4 * NR) == 0, "two tasks of num/2 continuing the counter equal one task of num");
    }
    t.randomSeed = value(12, 8);
    run_random(&t, ctr, out, w, 4 * NR);
    EXPECT(memcmp(v, w, 4 * NR) != 0, "another seed gives other numbers");

    t = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, f32(3), f32(2), 7, NR, out, ctr);
    run_random(&t, ctr, out, v, 4 * NR);
    double m = 0, sd = 0;
    for (int i = 0; i < NR; i++) {
        m += v[i];
    }
    m /= NR;
    for (int i = 0; i < NR; i++) {
        sd += (v[i] - m) * (v[i] - m);
    }
    sd /= NR; /* the variance: stddev within 0.05 of 2 */
    EXPECT(absd(m - 3) < 0.05 && sd > 1.95 * 1.95 && sd < 2.05 * 2.05, "normal(3, 2): mean %.3f variance %.3f", m, sd);

    t = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, f32(3), f32(2), 7, NR, out, ctr);
    run_random(&t, ctr, out, v, 4 * NR);
    in = 1;
    for (int i = 0; i < NR; i++) {
        in &= v[i] >= -1 && v[i] <= 7;
    }
    EXPECT(in, "truncated normal(3, 2): every sample within mean +- 2 stddev");

    const int nb = 80000;
    t = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, f32(0.25f), none, 9, nb, out, ctr);
    uint8_t *bits = (uint8_t *)v;
    run_random(&t, ctr, out, bits, nb / 8);
    int ones = 0;
    for (int i = 0; i < nb; i++) {
        ones += bits[i / 8] >> (i % 8) & 1;
    }
    EXPECT(absd((double)ones / nb - 0.75) < 0.01, "dropout 0.25 kept %.4f of the bits", (double)ones / nb);

    aclrtRandomNumTaskInfo ok = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, f32(0), f32(1), 1, 16, out, ctr), bad;
    REFUSE(aclrtRandomNumAsync(&ok, s, out), ACL_ERROR_RT_PARAM_INVALID, "reserve",
           "aclrtRandomNumAsync with reserve not NULL");
    bad = ok;
    bad.dataType = ACL_INT8;
    REFUSE(aclrtRandomNumAsync(&bad, s, NULL), ACL_ERROR_INVALID_PARAM, "dataType 2",
           "aclrtRandomNumAsync of ACL_INT8");
    bad = ok;
    bad.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)4;
    REFUSE(aclrtRandomNumAsync(&bad, s, NULL), ACL_ERROR_RT_PARAM_INVALID, "funcType 4",
           "aclrtRandomNumAsync of funcType 4");
    bad = ok;
    bad.randomCounterAddr = NULL;
    REFUSE(aclrtRandomNumAsync(&bad, s, NULL), ACL_ERROR_RT_PARAM_INVALID, "randomCounterAddr is NULL",
           "aclrtRandomNumAsync with the counter NULL");
    bad = ok;
    bad.randomSeed.isAddr = 2;
    REFUSE(aclrtRandomNumAsync(&bad, s, NULL), ACL_ERROR_RT_PARAM_INVALID, "isAddr 2",
           "aclrtRandomNumAsync with isAddr 2");
    CHECK(aclrtSynchronizeStream(s));
    free(v);
    free(w);
    CHECK(aclrtFree(out));
    CHECK(aclrtFree(ctr));
}

static void on_950(void)
{
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    init_chip("/tmp/51_control_950.json", "Ascend950PR_9599");
    CHECK(aclrtCreateStream(&s));
    void *out = dmalloc(64), *ctr = dmalloc(16);
    aclrtRandomParaInfo zero = f32(0);
    aclrtRandomNumTaskInfo t = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, zero, f32(1), 1, 16, out, ctr);
    REFUSE(aclrtRandomNumAsync(&t, s, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtRandomNumAsync",
           "aclrtRandomNumAsync on Ascend 950");
    CHECK(aclrtFree(out));
    CHECK(aclrtFree(ctr));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary with peak>\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    REFUSE(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 2), ACL_ERROR_RT_INVALID_DEVICEID, "",
           "aclrtSetDeviceResLimit before aclrtSetDevice");
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "peak", &peak));
    reslimits();
    scheduler();
    reduces();
    randoms();
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtBinaryUnLoad(bin));
    on_950();
    printf("PASS 51_control\n");
    return 0;
}
