/*
 * Peer access, the topology, device identity, capabilities and limits.
 * The model keeps which directions of peer access are on (copies between
 * devices need them, ops_copy.c) and the limits set; aclInit resets both
 * (peer_model_reset). The fuzzer's devices are the default topology: every
 * pair over HCCS, no ASCEND_RT_VISIBLE_DEVICES, so user, logical and
 * physical ids are equal.
 */
#include "fuzz.h"

#include <string.h>

static unsigned char peer[MAXDEV][MAXDEV];
static size_t limit_stack, limit_fifo; /* 0 until set: aclInit's values */

void peer_model_reset(void)
{
    memset(peer, 0, sizeof peer);
    limit_stack = limit_fifo = 0;
}

int peer_on(int from, int to)
{
    return from >= 0 && to >= 0 && from < MAXDEV && to < MAXDEV && peer[from][to];
}

/* A device id: valid mostly, sometimes out of range. */
static int32_t some_dev(int *bad)
{
    *bad = one_in(6);
    return *bad ? bad_dev() : valid_dev();
}

static void op_can_access(void)
{
    int b1, b2;
    int32_t d = some_dev(&b1), p = some_dev(&b2);
    int32_t can = -1;
    int null = one_in(10);
    callf("aclrtDeviceCanAccessPeer(%s, %d, %d)", null ? "NULL" : "&can", d, p);
    aclError rc = ret(aclrtDeviceCanAccessPeer(null ? NULL : &can, d, p));
    if (!fz.inited) {
        return;
    }
    if (null || b1 || b2 || d == p) {
        must_fail(rc, null ? "a NULL result" : d == p && !b1 ? "a device and itself" : "an invalid device id");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && can != 1) {
        finding("WRONG VALUE", "aclrtDeviceCanAccessPeer", "(%d, %d) = %d, expected 1", d, p, can);
    }
}

static void op_topo(void)
{
    int b1, b2;
    int32_t d = some_dev(&b1), p = some_dev(&b2);
    uint64_t v = 0;
    callf("aclrtGetDevicesTopo(%d, %d, &v)", d, p);
    aclError rc = ret(aclrtGetDevicesTopo((uint32_t)d, (uint32_t)p, &v));
    if (!fz.inited) {
        return;
    }
    if (b1 || b2 || d == p) {
        must_fail(rc, d == p && !b1 ? "a device and itself" : "an invalid device id");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && v != ACL_RT_DEVS_TOPOLOGY_HCCS) {
        finding("WRONG VALUE", "aclrtGetDevicesTopo", "(%d, %d) = %#llx, expected HCCS", d, p, (unsigned long long)v);
    }
}

static void op_enable(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int bad, on = one_in(2);
    int32_t p = some_dev(&bad);
    uint32_t flags = on && one_in(8) ? (uint32_t)int_any() : 0;
    int d = cur_dev();
    callf("%s(%d%s)", on ? "aclrtDeviceEnablePeerAccess" : "aclrtDeviceDisablePeerAccess", p, on ? (flags ? ", flags" : ", 0") : "");
    aclError rc = ret(on ? aclrtDeviceEnablePeerAccess(p, flags) : aclrtDeviceDisablePeerAccess(p));
    if (on && flags != 0) {
        must_fail(rc, "flags other than 0");
        return;
    }
    if (bad || p == d) {
        must_fail(rc, p == d ? "the current device" : "an invalid device id");
        return;
    }
    if (peer[d][p] == on) {
        must_fail(rc, on ? "access already enabled" : "access not enabled");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        peer[d][p] = (unsigned char)on;
    }
}

static void op_status(void)
{
    int b1, b2;
    int32_t d = some_dev(&b1), p = some_dev(&b2);
    int32_t st = -1;
    int null = one_in(10);
    callf("aclrtDevicePeerAccessStatus(%d, %d, %s)", d, p, null ? "NULL" : "&st");
    aclError rc = ret(aclrtDevicePeerAccessStatus(d, p, null ? NULL : &st));
    if (!fz.inited) {
        return;
    }
    if (null || b1 || b2) {
        must_fail(rc, null ? "a NULL status" : "an invalid device id");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && st != peer[d][p]) {
        finding("WRONG VALUE", "aclrtDevicePeerAccessStatus", "(%d, %d) = %d, expected %d", d, p, st, peer[d][p]);
    }
}

static void op_p2p_map(void)
{
    if (ensure_device() != 0) {
        return;
    }
    uint64_t n = one_in(8) ? size_any() : 1 + below(4096);
    parg m = pick_ptr(1 << M_DEV, n);
    int bad;
    int32_t dst = some_dev(&bad);
    uint64_t flags = one_in(8) ? 1 : 0;
    callf("aclrtMemP2PMap(%s %p, %llu, %d, %llu)", m.what, (void *)m.p, (unsigned long long)n, dst, (unsigned long long)flags);
    aclError rc = ret(aclrtMemP2PMap(m.p, n, dst, flags));
    const char *why = m.p == NULL ? "a NULL devPtr" : n == 0 ? "size 0" : flags ? "flags other than 0" : bad ? "an invalid device"
                      : m.v != VALID || m.a < 0 || n > m.room ? "memory that is not a live device range"
                      : m.dev != dst && !peer[dst][m.dev] ? "no peer access to the memory's device" : NULL;
    if (why != NULL) {
        if (m.v == VALID || m.p == NULL || n == 0 || flags || bad) {
            must_fail(rc, why);
        }
        return;
    }
    must_pass(rc, 0);
}

static void op_ids(void)
{
    static aclError (*const conv[])(const int32_t, int32_t *const) = {
        aclrtGetLogicDevIdByUserDevId, aclrtGetUserDevIdByLogicDevId, aclrtGetPhyDevIdByUserDevId,
        aclrtGetUserDevIdByPhyDevId, aclrtGetPhyDevIdByLogicDevId, aclrtGetLogicDevIdByPhyDevId};
    int k = (int)below(ARRAY_LEN(conv)), bad;
    int32_t id = some_dev(&bad), out = -5;
    int null = one_in(10);
    callf("aclrtGet...DevId[%d](%d, %s)", k, id, null ? "NULL" : "&out");
    aclError rc = ret(conv[k](id, null ? NULL : &out));
    if (!fz.inited) {
        return;
    }
    if (null || bad) {
        must_fail(rc, null ? "a NULL result" : "an invalid device id");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && out != id) {
        finding("WRONG VALUE", "device id conversion", "%d gives %d, expected the same id (no visible-device list)", id, out);
    }
}

static void op_bus_uuid(void)
{
    int bad;
    int32_t d = some_dev(&bad);
    char bus[20];
    int32_t len = one_in(6) ? (int32_t)below(13) : (int32_t)sizeof bus;
    callf("aclrtDeviceGetPCIBusId(%d, bus, %d)", d, len);
    aclError rc = ret(aclrtDeviceGetPCIBusId(d, bus, len));
    if (!fz.inited) {
        return;
    }
    if (bad || len < 13) {
        must_fail(rc, bad ? "an invalid device id" : "a buffer shorter than 13");
    } else {
        must_pass(rc, 0);
        if (rc == 0) {
            int32_t back = -1;
            callf("aclrtDeviceGetByPCIBusId(%s, &back)", bus);
            aclError rc2 = ret(aclrtDeviceGetByPCIBusId(bus, &back));
            must_pass(rc2, 0);
            if (rc2 == 0 && back != d) {
                finding("WRONG VALUE", "aclrtDeviceGetByPCIBusId", "%s gives device %d, expected %d", bus, back, d);
            }
        }
    }
    aclrtUuid u;
    callf("aclrtDeviceGetUuid(%d, &u)", d);
    rc = ret(aclrtDeviceGetUuid(d, &u));
    if (bad) {
        must_fail(rc, "an invalid device id");
    } else {
        must_pass(rc, 0);
    }
}

static void op_caps(void)
{
    int b1, b2;
    int32_t d = some_dev(&b1), p = some_dev(&b2);
    aclrtAtomicOperation ops[4];
    uint32_t caps[4];
    uint32_t n = one_in(10) ? 0 : 1 + (uint32_t)below(4);
    int badop = 0;
    for (uint32_t i = 0; i < 4; i++) {
        ops[i] = one_in(10) ? (aclrtAtomicOperation)int_any() : (aclrtAtomicOperation)below(45);
        badop |= i < n && (ops[i] < 0 || ops[i] > 44);
    }
    int host = one_in(2);
    aclError rc;
    if (host) {
        callf("aclrtDeviceGetHostAtomicCapabilities(caps, ops, %u, %d)", n, d);
        rc = ret(aclrtDeviceGetHostAtomicCapabilities(caps, ops, n, d));
    } else {
        callf("aclrtDeviceGetP2PAtomicCapabilities(caps, ops, %u, %d, %d)", n, d, p);
        rc = ret(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, n, d, p));
    }
    if (!fz.inited) {
        return;
    }
    if (n == 0 || b1 || badop || (!host && (b2 || d == p))) {
        must_fail(rc, n == 0 ? "no operations" : badop ? "an invalid operation" : "an invalid device pair");
        return;
    }
    must_pass(rc, 0);
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        uint32_t want = !host && ops[i] >= 30 && ops[i] <= 32 ? 0x39 : 0;
        if (caps[i] != want) {
            finding("WRONG VALUE", host ? "aclrtDeviceGetHostAtomicCapabilities" : "aclrtDeviceGetP2PAtomicCapabilities",
                    "operation %d: %#x, expected %#x", ops[i], caps[i], want);
        }
    }
}

static void op_limits(void)
{
    int limit = one_in(8) ? (int)int_any() : (int)below(5);
    int set = one_in(2);
    size_t v = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? (size_t)below(200000) : (size_t)below(70000);
    aclError rc;
    size_t got = 0;
    if (set) {
        callf("aclrtDeviceSetLimit(%d, %zu)", limit, v);
        rc = ret(aclrtDeviceSetLimit((aclrtDeviceLimit)limit, v));
    } else {
        callf("aclrtDeviceGetLimit(%d, &v)", limit);
        rc = ret(aclrtDeviceGetLimit((aclrtDeviceLimit)limit, &got));
    }
    if (!fz.inited) {
        return;
    }
    int simd = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE || limit == ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE;
    if (!simd) {
        must_fail(rc, limit >= 0 && limit <= 4 ? "a SIMT limit" : "an invalid limit");
        return;
    }
    size_t *model = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? &limit_stack : &limit_fifo;
    if (set) {
        int ok = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? v <= 196608 : v >= 1024 && v <= 67108864;
        if (!ok) {
            must_fail(rc, "a value out of range");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0) {
            *model = limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? (v <= 32768 ? 32768 : (v + 16383) / 16384 * 16384)
                                                             : (v + 7) / 8 * 8;
        }
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && *model != 0 && got != *model) {
        finding("WRONG VALUE", "aclrtDeviceGetLimit", "limit %d = %zu, expected %zu", limit, got, *model);
    }
}

static void op_misc(void)
{
    aclError rc;
    switch (below(5)) {
    case 4: {
        int bad;
        int32_t d = some_dev(&bad);
        aclrtMemUsageInfo mu[4];
        size_t in = one_in(8) ? 0 : 1 + below(4), out = 99;
        callf("aclrtGetMemUsageInfo(%d, mu, %zu, &out)", d, in);
        rc = ret(aclrtGetMemUsageInfo(d, mu, in, &out));
        if (fz.inited) {
            if (bad || in == 0) {
                must_fail(rc, bad ? "an invalid device id" : "inputNum 0");
            } else {
                must_pass(rc, 0);
                for (size_t i = 0; rc == 0 && i < out; i++) {
                    if (out > in || mu[i].curMemSize > mu[i].memPeakSize || (i > 0 && mu[i].curMemSize > mu[i - 1].curMemSize)) {
                        finding("WRONG VALUE", "aclrtGetMemUsageInfo", "%zu of %zu components, entry %zu: %llu bytes, peak %llu",
                                out, in, i, (unsigned long long)mu[i].curMemSize, (unsigned long long)mu[i].memPeakSize);
                        break;
                    }
                }
            }
        }
        break;
    }
    case 0: {
        int ts = one_in(4) ? (int)int_any() : (int)below(3);
        callf("aclrtSetTsDevice(%d)", ts);
        rc = ret(aclrtSetTsDevice((aclrtTsId)ts));
        if (fz.inited) {
            if (ts == 0 || ts == 1) {
                must_pass(rc, 0);
            } else {
                must_fail(rc, "an invalid tsId");
            }
        }
        break;
    }
    case 1: {
        static const char *const socs[] = {"Ascend910B1", "Ascend910B3", "Ascend310P3", "bogus", ""};
        int k = (int)below(ARRAY_LEN(socs));
        int32_t c = -1;
        callf("aclrtCheckArchCompatibility(%s, &c)", socs[k]);
        rc = ret(aclrtCheckArchCompatibility(socs[k], &c));
        if (fz.inited) {
            if (k >= 3) {
                must_fail(rc, "an unknown SoC");
            } else {
                must_pass(rc, 0);
                if (rc == 0 && c != (k < 2)) {
                    finding("WRONG VALUE", "aclrtCheckArchCompatibility", "%s: %d", socs[k], c);
                }
            }
        }
        break;
    }
    case 2: {
        int bad;
        int32_t d = some_dev(&bad);
        int feature = one_in(4) ? (int)int_any() : one_in(2) ? 1 : 21;
        int32_t v = -1;
        callf("aclrtGetDeviceCapability(%d, %d, &v)", d, feature);
        rc = ret(aclrtGetDeviceCapability(d, (aclrtDevFeatureType)feature, &v));
        if (fz.inited) {
            if (bad || (feature != 1 && feature != 21)) {
                must_fail(rc, bad ? "an invalid device id" : "an unknown feature");
            } else {
                must_pass(rc, 0);
                if (rc == 0 && v != (feature == 1)) {
                    finding("WRONG VALUE", "aclrtGetDeviceCapability", "feature %d = %d", feature, v);
                }
            }
        }
        break;
    }
    default: {
        int bad;
        int32_t d = some_dev(&bad);
        aclrtUtilizationInfo u;
        memset(&u, 0, sizeof u);
        callf("aclrtGetDeviceUtilizationRate(%d, &u)", d);
        rc = ret(aclrtGetDeviceUtilizationRate(d, &u));
        if (fz.inited) {
            if (bad) {
                must_fail(rc, "an invalid device id");
            } else {
                must_pass(rc, 0);
                if (rc == 0 && (u.cubeUtilization < 0 || u.cubeUtilization > 100 || u.aicpuUtilization < -1 || u.aicpuUtilization > 100 || u.memoryUtilization != -1)) {
                    finding("WRONG VALUE", "aclrtGetDeviceUtilizationRate", "cube %d, AI CPU %d, memory %d",
                            u.cubeUtilization, u.aicpuUtilization, u.memoryUtilization);
                }
            }
        }
    }
    }
}

const struct op ops_peer[] = {
    {"can_access", 2, op_can_access},
    {"topo", 1, op_topo},
    {"peer_enable", 4, op_enable},
    {"peer_status", 2, op_status},
    {"p2p_map", 2, op_p2p_map},
    {"dev_ids", 2, op_ids},
    {"bus_uuid", 1, op_bus_uuid},
    {"atomic_caps", 1, op_caps},
    {"limits", 2, op_limits},
    {"dev_misc", 2, op_misc},
    {NULL, 0, NULL},
};
