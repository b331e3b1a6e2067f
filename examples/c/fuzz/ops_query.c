/*
 * Queries of devices and of the runtime that change nothing: device
 * attributes and capabilities, counts, versions, memory information, the
 * pure conversions, the thread's device and its last error; and the
 * operator timeouts, set only to values no fuzzed task reaches (the wait
 * timeout is set back to 0 at once).
 */
#include "fuzz.h"

#include <math.h>
#include <string.h>

static void op_get_device(void)
{
    int32_t d = -7;
    int null = one_in(8);
    callf("aclrtGetDevice(%s)", null ? "NULL" : "&d");
    aclError rc = ret(aclrtGetDevice(null ? NULL : &d));
    if (null) {
        must_fail(rc, "a NULL deviceId");
    } else if (fz.cur_ctx >= 0) {
        must_pass(rc, 0);
        if (rc == 0 && d != cur_dev()) {
            finding("WRONG VALUE", "aclrtGetDevice", "device %d, expected %d", d, cur_dev());
        }
    }
}

static void op_device_queries(void)
{
    static const int attrs[] = {1, 101, 102, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 301, 302,
                                401, 402, 403, 404, 405, 406, 407, 408, 409, 501, 601, 0, -1, 9999};
    int bad = one_in(5);
    int32_t d = bad ? bad_dev() : valid_dev();
    int64_t v = 0;
    aclError rc;
    switch (below(9)) {
    case 0: {
        int a = attrs[below(ARRAY_LEN(attrs))];
        callf("aclrtGetDeviceInfo(%d, %d, &v)", d, a);
        rc = ret(aclrtGetDeviceInfo((uint32_t)d, (aclrtDevAttr)a, &v));
        if (bad) {
            must_fail(rc, "an invalid device id");
        } else if (fz.inited && (a == 101 || a == 201 || a == 301 || a == 302)) {
            must_pass(rc, 0);
        }
        break;
    }
    case 1: {
        int32_t lo = 99, hi = 99;
        callf("aclrtDeviceGetStreamPriorityRange(&lo, &hi)");
        rc = ret(aclrtDeviceGetStreamPriorityRange(&lo, &hi));
        if (rc == 0 && lo < hi) {
            finding("WRONG VALUE", "aclrtDeviceGetStreamPriorityRange", "least %d < greatest %d", lo, hi);
        }
        break;
    }
    case 2: {
        aclrtDeviceStatus s = ACL_RT_DEVICE_STATUS_END;
        callf("aclrtQueryDeviceStatus(%d, &s)", d);
        rc = ret(aclrtQueryDeviceStatus(d, &s));
        if (bad) {
            must_fail(rc, "an invalid device id");
        } else if (fz.inited) {
            must_pass(rc, 0);
        }
        break;
    }
    case 3: {
        int info = (int)below(4) - 1;
        callf("aclGetDeviceCapability(%d, %d, &v)", d, info);
        rc = ret(aclGetDeviceCapability((uint32_t)d, (aclDeviceInfo)info, &v));
        if (bad || info < 0) {
            must_fail(rc, bad ? "an invalid device id" : "an invalid deviceInfo");
        } else if (fz.inited) {
            must_pass(rc, 0);
        }
        break;
    }
    case 4: {
        uint32_t n = 0;
        callf("aclrtGetDeviceCount(&n)");
        rc = ret(aclrtGetDeviceCount(&n));
        if (rc == 0 && fz.inited && (int)n != fz.ndev && n <= MAXDEV) {
            finding("WRONG VALUE", "aclrtGetDeviceCount", "%u devices, expected %d", n, fz.ndev);
        }
        aclrtRunMode m = ACL_DEVICE;
        callf("aclrtGetRunMode(&m)");
        rc = ret(aclrtGetRunMode(&m));
        break;
    }
    case 5: {
        size_t fr = 0, tot = 0;
        int attr = (int)below(20) - 1;
        callf("aclrtGetMemInfo(%d, &free, &total)", attr);
        rc = ret(aclrtGetMemInfo((aclrtMemAttr)attr, &fr, &tot));
        if (rc == 0 && fr > tot) {
            finding("WRONG VALUE", "aclrtGetMemInfo", "free %zu > total %zu", fr, tot);
        }
        break;
    }
    case 6: {
        uint32_t n = 0;
        callf("aclrtGetStreamAvailableNum(&n)");
        rc = ret(aclrtGetStreamAvailableNum(&n));
        if (fz.cur_ctx >= 0) {
            must_pass(rc, 0);
        }
        break;
    }
    case 7: {
        int32_t a = 0, b = 0, c = 0;
        callf("aclrtGetVersion(&a, &b, &c)");
        rc = ret(aclrtGetVersion(&a, &b, &c));
        must_pass(rc, 0);
        callf("aclrtGetSocName()");
        const char *s = aclrtGetSocName();
        ret(s ? 0 : -1);
        break;
    }
    default: {
        /* The conversions are pure: check exact values both ways. */
        static const struct {
            float f;
            uint16_t h;
        } exact[] = {{0.0f, 0x0000}, {1.0f, 0x3c00}, {-2.0f, 0xc000}, {65504.0f, 0x7bff}, {0.5f, 0x3800}};
        int i = (int)below(ARRAY_LEN(exact));
        callf("aclFloatToFloat16(%g) / aclFloat16ToFloat(%#x) / aclDataTypeSize", exact[i].f, exact[i].h);
        aclFloat16 h = aclFloatToFloat16(exact[i].f);
        float f = aclFloat16ToFloat(exact[i].h);
        ret(0);
        if (h != exact[i].h || f != exact[i].f) {
            finding("WRONG VALUE", "aclFloatToFloat16", "%g -> %#x and %#x -> %g", exact[i].f, h, exact[i].h, f);
        }
        if (aclDataTypeSize(ACL_FLOAT) != 4 || aclDataTypeSize(ACL_INT64) != 8 || aclDataTypeSize(ACL_FLOAT16) != 2) {
            finding("WRONG VALUE", "aclDataTypeSize", "float %zu int64 %zu float16 %zu", aclDataTypeSize(ACL_FLOAT),
                    aclDataTypeSize(ACL_INT64), aclDataTypeSize(ACL_FLOAT16));
        }
        (void)aclDataTypeSize((aclDataType)int_any());
        (void)aclFloat16ToFloat((aclFloat16)rnd());
        (void)aclFloatToFloat16(one_in(2) ? NAN : (float)(int64_t)rnd());
    }
    }
}

static void op_errors(void)
{
    switch (below(3)) {
    case 0:
        callf("aclGetRecentErrMsg()");
        ret(aclGetRecentErrMsg() != NULL);
        break;
    case 1: {
        int lvl = one_in(4) ? int_any() : 0;
        callf("aclrtPeekAtLastError(%d)", lvl);
        ret(aclrtPeekAtLastError((aclrtLastErrLevel)lvl));
        break;
    }
    default: {
        int lvl = one_in(4) ? int_any() : 0;
        callf("aclrtGetLastError(%d)", lvl);
        ret(aclrtGetLastError((aclrtLastErrLevel)lvl));
        if (lvl == 0) {
            callf("aclrtPeekAtLastError(0)");
            aclError rc = ret(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
            if (rc != 0) {
                finding("WRONG VALUE", "aclrtGetLastError: reset", "aclrtPeekAtLastError right after aclrtGetLastError returned %d", rc);
            }
        }
    }
    }
}

static void op_timeouts(void)
{
    static const uint64_t us[] = {0, 1, 20000000, UINT64_MAX};
    int null = one_in(8);
    int ctx = fz.inited && fz.cur_ctx >= 0;
    uint64_t v = 0;
    uint32_t ms = 0;
    aclError rc;
    switch (below(5)) {
    case 0:
        callf("aclrtGetOpTimeOutInterval(%s)", null ? "NULL" : "&v");
        rc = ret(aclrtGetOpTimeOutInterval(null ? NULL : &v));
        if (null) {
            must_fail(rc, "a NULL interval");
        } else if (ctx) {
            must_pass(rc, 0);
            if (rc == 0 && v == 0) {
                finding("WRONG VALUE", "aclrtGetOpTimeOutInterval", "interval 0");
            }
        }
        break;
    case 1:
        callf("aclrtGetOpExecuteTimeout(%s)", null ? "NULL" : "&ms");
        rc = ret(aclrtGetOpExecuteTimeout(null ? NULL : &ms));
        if (null) {
            must_fail(rc, "a NULL timeoutMs");
        } else if (fz.inited) {
            must_pass(rc, 0);
        }
        break;
    case 2: {
        uint64_t t = us[below(ARRAY_LEN(us))];
        if (t == 1) {
            t = 0; /* a timeout any kernel reaches is left out */
        }
        callf("aclrtSetOpExecuteTimeOutV2(%llu, %s)", (unsigned long long)t, null ? "NULL" : "&v");
        rc = ret(aclrtSetOpExecuteTimeOutV2(t, null ? NULL : &v));
        if (null) {
            must_fail(rc, "a NULL actualTimeout");
        } else if (ctx) {
            must_pass(rc, 0);
            if (rc == 0 && v < t && t != UINT64_MAX) {
                finding("WRONG VALUE", "aclrtSetOpExecuteTimeOutV2", "actual %llu below %llu", (unsigned long long)v,
                        (unsigned long long)t);
            }
        }
        break;
    }
    case 3:
        callf("aclrtSetOpExecuteTimeOutWithMs(100)");
        must_fail(ret(aclrtSetOpExecuteTimeOutWithMs(100)), "a function no product offers");
        break;
    default:
        callf("aclrtSetOpWaitTimeout(3600); aclrtSetOpWaitTimeout(0)");
        rc = ret(aclrtSetOpWaitTimeout(3600));
        if (fz.inited) {
            must_pass(rc, 0);
        }
        rc = ret(aclrtSetOpWaitTimeout(0));
        if (fz.inited) {
            must_pass(rc, 0);
        }
        break;
    }
}

/* Capability groups exist only on the Atlas inference chips: elsewhere
 * every group call is refused with 207000 whatever its arguments, and
 * aclrtCreateGroupInfo gives NULL; where they exist, the queries work. */
static void op_groups(void)
{
    const char *soc = aclrtGetSocName();
    int has = soc != NULL && strncmp(soc, "Ascend310P", 10) == 0;
    uint32_t n = 0, v = 0;
    size_t got = 0;
    aclrtGroupInfo *info = NULL;
    aclError rc = 0;
    int32_t id = int_any();
    switch (below(4)) {
    case 0:
        callf("aclrtGetGroupCount(&n)");
        rc = ret(aclrtGetGroupCount(&n));
        if (has && fz.cur_ctx >= 0) {
            must_pass(rc, 0);
            return;
        }
        break;
    case 1:
        callf("aclrtCreateGroupInfo()");
        info = aclrtCreateGroupInfo();
        if (info != NULL && !has) {
            finding("WRONG SUCCESS", "aclrtCreateGroupInfo", "an array on %s, which has no groups", soc ? soc : "?");
        }
        if (info != NULL) {
            callf("aclrtGetAllGroupInfo(info)");
            must_pass(ret(aclrtGetAllGroupInfo(info)), 0);
            callf("aclrtDestroyGroupInfo(info)");
            must_pass(ret(aclrtDestroyGroupInfo(info)), 0);
        }
        return;
    case 2:
        callf("aclrtGetGroupInfoDetail(&v, %d, 0, &v, 4, &got)", id);
        rc = ret(aclrtGetGroupInfoDetail((aclrtGroupInfo *)&v, id, ACL_GROUP_AICORE_INT, &v, sizeof v, &got));
        must_fail(rc, "memory aclrtCreateGroupInfo did not create");
        break;
    default:
        callf("aclrtSetGroup(%d)", id);
        rc = ret(aclrtSetGroup(id));
        if (has) {
            return;
        }
        must_fail(rc, "a chip without capability groups");
        break;
    }
    if (!has && fz.inited && rc != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        finding("WRONG VALUE", "group call", "code %d on %s, expected 207000", (int)rc, soc ? soc : "?");
    }
}

const struct op ops_query[] = {
    {"get_device", 3, op_get_device},
    {"device_queries", 8, op_device_queries},
    {"errors", 5, op_errors},
    {"timeouts", 2, op_timeouts},
    {"groups", 1, op_groups},
    {NULL, 0, NULL},
};
