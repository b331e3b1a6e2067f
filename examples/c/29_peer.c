/*
 * 29_peer: peer access between four devices. Every ordered pair copies
 * device to device, synchronously and asynchronously, issued on either
 * end: refused until peer access is on in the copy's direction, then the
 * exact bytes; aclrtDeviceCanAccessPeer, aclrtDeviceEnablePeerAccess,
 * aclrtDeviceDisablePeerAccess, aclrtDevicePeerAccessStatus and their
 * refusals; the configured topology (aclrtGetDevicesTopo) with a pair that
 * cannot reach each other; aclrtMemP2PMap; the guide's example.
 */
#include "common.h"

#define NDEV 4
#define SIZE (3u << 20) /* split over the DMA workers */

static unsigned char *want, *got;
static void *mem[NDEV];

/* fill writes a pattern of seed into device d's buffer (and want). */
static void fill(int d, unsigned seed)
{
    void *dev = mem[d];
    CHECK(aclrtSetDevice(d));
    for (size_t i = 0; i < SIZE; i++) {
        want[i] = (unsigned char)(i * 7 + seed * 31 + 1);
    }
    CHECK(aclrtMemcpy(dev, SIZE, want, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
}

/* same reports whether device d's buffer holds bytes. */
static int same(int d, const unsigned char *bytes)
{
    const void *dev = mem[d];
    CHECK(aclrtSetDevice(d));
    CHECK(aclrtMemcpy(got, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    return memcmp(got, bytes, SIZE) == 0;
}

/* copy copies src to dst on device on: synchronously, or on its stream. */
static aclError copy(void *dst, void *src, int on, int async, aclrtStream *streams)
{
    CHECK(aclrtSetDevice(on));
    if (!async) {
        return aclrtMemcpy(dst, SIZE, src, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE);
    }
    aclError rc = aclrtMemcpyAsync(dst, SIZE, src, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE, streams[on]);
    if (rc == ACL_SUCCESS) {
        rc = aclrtSynchronizeStream(streams[on]);
    }
    return rc;
}

static void enable(int dev, int peer, int on)
{
    CHECK(aclrtSetDevice(dev));
    CHECK(on ? aclrtDeviceEnablePeerAccess(peer, 0) : aclrtDeviceDisablePeerAccess(peer));
}

int main(void)
{
    write_file("29_peer.json",
               "{\"simulator\": {\"devices\": 4, \"hbm_size\": 1073741824, \"topology\": {\"pairs\": ["
               "{\"devices\": [0, 3], \"link\": \"sys\", \"no_peer\": true}, {\"devices\": [1, 2], \"link\": \"sio\"}]}}}");
    want = malloc(SIZE);
    got = malloc(SIZE);
    unsigned char *before = malloc(SIZE);
    if (want == NULL || got == NULL || before == NULL) {
        return 2;
    }
    CHECK(aclInit("29_peer.json"));
    aclrtStream streams[NDEV];
    for (int d = 0; d < NDEV; d++) {
        CHECK(aclrtSetDevice(d));
        CHECK(aclrtCreateStream(&streams[d]));
        CHECK(aclrtMalloc(&mem[d], SIZE, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    }

    /* The topology. */
    int32_t can = -1, status = -1;
    uint64_t link = 0;
    CHECK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    EXPECT(can == 1, "aclrtDeviceCanAccessPeer(0, 1) = %d", can);
    CHECK(aclrtDeviceCanAccessPeer(&can, 3, 0));
    EXPECT(can == 0, "aclrtDeviceCanAccessPeer(3, 0) = %d for the pair configured without peer access", can);
    CHECK(aclrtGetDevicesTopo(0, 1, &link));
    EXPECT(link == ACL_RT_DEVS_TOPOLOGY_HCCS, "aclrtGetDevicesTopo(0, 1) = HCCS (%#llx)", (unsigned long long)link);
    CHECK(aclrtGetDevicesTopo(3, 0, &link));
    EXPECT(link == ACL_RT_DEVS_TOPOLOGY_SYS, "aclrtGetDevicesTopo(3, 0) = SYS (%#llx)", (unsigned long long)link);
    CHECK(aclrtGetDevicesTopo(2, 1, &link));
    EXPECT(link == ACL_RT_DEVS_TOPOLOGY_SIO, "aclrtGetDevicesTopo(2, 1) = SIO (%#llx)", (unsigned long long)link);

    /* Refusals. */
    EXPECT_CODE(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer of a device and itself");
    EXPECT_CODE(aclrtDeviceCanAccessPeer(&can, 0, 4), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceCanAccessPeer with peer 4 of 4 devices");
    EXPECT_CODE(aclrtDeviceCanAccessPeer(&can, -1, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceCanAccessPeer with device -1");
    EXPECT_CODE(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer with a NULL result");
    EXPECT_CODE(aclrtGetDevicesTopo(0, 0, &link), ACL_ERROR_INVALID_PARAM, "aclrtGetDevicesTopo of a device and itself");
    EXPECT_CODE(aclrtGetDevicesTopo(0, 7, &link), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetDevicesTopo with device 7");
    EXPECT_CODE(aclrtGetDevicesTopo(0xffffffffu, 0, &link), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetDevicesTopo with device 0xffffffff");
    EXPECT_CODE(aclrtGetDevicesTopo(0, 1, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevicesTopo with a NULL result");
    CHECK(aclrtSetDevice(0));
    EXPECT_CODE(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtDeviceEnablePeerAccess with flags 1");
    EXPECT_CODE(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM, "aclrtDeviceEnablePeerAccess of the current device");
    EXPECT_CODE(aclrtDeviceEnablePeerAccess(4, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceEnablePeerAccess of device 4");
    EXPECT_CODE(aclrtDeviceEnablePeerAccess(3, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtDeviceEnablePeerAccess of a pair without peer access");
    EXPECT_CODE(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID, "aclrtDeviceDisablePeerAccess of a direction not enabled");
    EXPECT_CODE(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM, "aclrtDeviceDisablePeerAccess of the current device");
    CHECK(aclrtDeviceEnablePeerAccess(1, 0));
    EXPECT_CODE(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtDeviceEnablePeerAccess of a direction already on");
    {
        const char *msg = aclGetRecentErrMsg();
        EXPECT(msg != NULL && strstr(msg, "from device 0 to device 1 is already enabled") != NULL, "the message names the direction");
    }
    CHECK(aclrtDevicePeerAccessStatus(0, 1, &status));
    EXPECT(status == 1, "aclrtDevicePeerAccessStatus(0, 1) = %d after enabling", status);
    CHECK(aclrtDevicePeerAccessStatus(1, 0, &status));
    EXPECT(status == 0, "aclrtDevicePeerAccessStatus(1, 0) = %d: access is one direction", status);
    EXPECT_CODE(aclrtDevicePeerAccessStatus(0, 4, &status), ACL_ERROR_RT_PARAM_INVALID, "aclrtDevicePeerAccessStatus with peer 4");
    EXPECT_CODE(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM, "aclrtDevicePeerAccessStatus with a NULL result");
    CHECK(aclrtDeviceDisablePeerAccess(1));
    CHECK(aclrtDevicePeerAccessStatus(0, 1, &status));
    EXPECT(status == 0, "aclrtDevicePeerAccessStatus(0, 1) = %d after disabling", status);

    /* Every ordered pair, both issuing devices, sync and async. */
    int checked = 0;
    unsigned seed = 0;
    for (int s = 0; s < NDEV; s++) {
        for (int d = 0; d < NDEV; d++) {
            int noPeer = (s == 0 && d == 3) || (s == 3 && d == 0);
            if (s == d) {
                continue;
            }
            for (int k = 0; k < 4; k++) {
                int on = k < 2 ? s : d, async = k & 1;
                fill(s, ++seed);
                fill(d, seed + 1000);
                memcpy(before, want, SIZE);
                aclError rc = copy(mem[d], mem[s], on, async, streams);
                if (rc != ACL_ERROR_RT_PARAM_INVALID || !same(d, before)) {
                    fail_exit(__FILE__, __LINE__, rc, "copy %d->%d on %d async=%d without peer access: not refused cleanly", s, d, on, async);
                }
                if (noPeer) {
                    CHECK(aclrtSetDevice(s));
                    if (aclrtDeviceEnablePeerAccess(d, 0) != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
                        fail_exit(__FILE__, __LINE__, 0, "peer access %d->%d enabled on a pair without it", s, d);
                    }
                    checked++;
                    continue;
                }
                enable(d, s, 1); /* the other direction does not open this one */
                rc = copy(mem[d], mem[s], on, async, streams);
                if (rc != ACL_ERROR_RT_PARAM_INVALID) {
                    fail_exit(__FILE__, __LINE__, rc, "copy %d->%d with only %d->%d enabled", s, d, d, s);
                }
                enable(s, d, 1);
                fill(s, seed + 2000);
                CHECK(copy(mem[d], mem[s], on, async, streams));
                if (!same(d, want)) {
                    fail_exit(__FILE__, __LINE__, 0, "copy %d->%d on %d async=%d: bytes differ", s, d, on, async);
                }
                enable(s, d, 0);
                enable(d, s, 0);
                rc = copy(mem[d], mem[s], on, async, streams);
                if (rc != ACL_ERROR_RT_PARAM_INVALID) {
                    fail_exit(__FILE__, __LINE__, rc, "copy %d->%d after disabling", s, d);
                }
                checked++;
            }
        }
    }
    EXPECT(checked == 48, "all %d copies of the 12 ordered pairs: refused without peer access, exact bytes with it", checked);

    /* A copy issued on a third device is refused even with access on. */
    enable(1, 2, 1);
    EXPECT_CODE(copy(mem[2], mem[1], 0, 0, streams), ACL_ERROR_RT_PARAM_INVALID, "a copy from device 1 to device 2 issued on device 0");
    enable(1, 2, 0);

    /* aclrtMemP2PMap: the user's access to the memory's device. */
    CHECK(aclrtSetDevice(2));
    EXPECT_CODE(aclrtMemP2PMap(mem[1], SIZE, 2, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemP2PMap for device 2 without its peer access");
    CHECK(aclrtDeviceEnablePeerAccess(1, 0));
    fill(1, 77);
    CHECK(aclrtSetDevice(2));
    CHECK(aclrtMemP2PMap(mem[1], SIZE, 2, 0));
    EXPECT(same(1, want), "aclrtMemP2PMap with 2->1 enabled succeeds and changes no bytes");
    EXPECT_CODE(aclrtMemP2PMap(mem[1], SIZE, 2, 1), ACL_ERROR_INVALID_PARAM, "aclrtMemP2PMap with flags 1");
    EXPECT_CODE(aclrtMemP2PMap(NULL, SIZE, 2, 0), ACL_ERROR_INVALID_PARAM, "aclrtMemP2PMap of NULL");
    EXPECT_CODE(aclrtMemP2PMap(mem[1], 0, 2, 0), ACL_ERROR_INVALID_PARAM, "aclrtMemP2PMap of 0 bytes");
    EXPECT_CODE(aclrtMemP2PMap(mem[1], SIZE + 4096, 2, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemP2PMap past the allocation");
    EXPECT_CODE(aclrtMemP2PMap(mem[1], SIZE, 9, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtMemP2PMap for device 9");
    CHECK(aclrtSetDevice(2));
    CHECK(aclrtDeviceDisablePeerAccess(1));

    /* The guide's example: both directions, a copy on device 1. */
    CHECK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtDeviceEnablePeerAccess(1, 0));
    fill(0, 99);
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtDeviceEnablePeerAccess(0, 0));
    CHECK(aclrtMemcpy(mem[1], SIZE, mem[0], SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE));
    EXPECT(can == 1 && same(1, want), "the guide's example copies device 0 to device 1 on device 1");
    CHECK(aclrtDeviceDisablePeerAccess(0));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtDeviceDisablePeerAccess(1));

    for (int d = 0; d < NDEV; d++) {
        CHECK(aclrtSetDevice(d));
        CHECK(aclrtFree(mem[d]));
        CHECK(aclrtDestroyStream(streams[d]));
    }
    CHECK(aclFinalize());
    free(want);
    free(got);
    free(before);
    printf("PASS 29_peer\n");
    return 0;
}
