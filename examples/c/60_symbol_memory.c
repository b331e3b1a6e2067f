/*
 * 60_symbol_memory: a kernel binary's global is device memory at the
 * address aclrtBinaryGetGlobal and aclrtGetSymbolAddress give: plain
 * copies (synchronous and asynchronous, each direction and device to
 * device), memsets, value writes and waits and kernel pointer arguments
 * take it, and aclrtPointerGetAttributes reports a device location. A
 * range past its end and a kind naming it host memory are refused.
 *
 * Usage: 60_symbol_memory <libsymbols.so>
 */
#include "common.h"

int main(int argc, char **argv)
{
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle scale = NULL;
    void *coeff = NULL, *table = NULL, *sym = NULL, *x = NULL;
    uint64_t v = 0, args[2];
    int32_t tab[16], back[16];
    aclrtPtrAttributes attr;
    size_t size = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s libsymbols.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "scale_by_coeff", &scale));
    CHECK(aclrtBinaryGetGlobal(bin, "coeff", &coeff, &size));
    CHECK(aclrtBinaryGetGlobal(bin, "table", &table, &size));
    CHECK(aclrtGetSymbolAddress(table, &sym));
    CHECK(aclrtMalloc(&x, sizeof tab, ACL_MEM_MALLOC_HUGE_FIRST));

    /* Synchronous copies, with the kinds device memory takes. */
    v = 3;
    CHECK(aclrtMemcpy(coeff, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE));
    v = 0;
    CHECK(aclrtMemcpy(&v, sizeof v, coeff, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(v == 3, "aclrtMemcpy to and from the global's address, host to device and back (%llu)", (unsigned long long)v);
    for (int i = 0; i < 16; i++) {
        tab[i] = i * 10;
    }
    CHECK(aclrtMemcpy(x, sizeof tab, tab, sizeof tab, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(sym, sizeof tab, x, sizeof tab, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(aclrtMemset(x, sizeof tab, 0, sizeof tab));
    CHECK(aclrtMemcpy(x, sizeof tab, sym, sizeof tab, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(aclrtMemcpy(back, sizeof back, x, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(back[0] == 0 && back[7] == 70 && back[15] == 150, "device to device into the global and out again (%d %d %d)", back[0], back[7], back[15]);

    /* Memsets, synchronous and in stream order. */
    CHECK(aclrtMemset(sym, sizeof tab, 0xff, 8));
    CHECK(aclrtMemsetAsync((char *)sym + 8, sizeof tab - 8, 0x01, 4, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(back, sizeof back, sym, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(back[0] == -1 && back[1] == -1 && back[2] == 0x01010101 && back[3] == 30,
           "aclrtMemset and aclrtMemsetAsync on the global (%d %d %#x %d)", back[0], back[1], back[2], back[3]);

    /* Asynchronous copies in stream order. */
    v = 5;
    CHECK(aclrtMemcpyAsync(coeff, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpyAsync(x, sizeof v, coeff, sizeof v, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    v = 0;
    CHECK(aclrtMemcpyAsync(&v, sizeof v, x, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(v == 5, "aclrtMemcpyAsync into the global, then out of it device to device (%llu)", (unsigned long long)v);

    /* Value operations. */
    CHECK(aclrtValueWrite(coeff, 9, 0, s));
    CHECK(aclrtValueWait(coeff, 9, 1, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(&v, sizeof v, coeff, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(v == 9, "aclrtValueWrite and aclrtValueWait on the global (%llu)", (unsigned long long)v);

    /* A kernel pointer argument: coeff *= coeff. */
    args[0] = (uint64_t)(uintptr_t)coeff;
    args[1] = 1;
    CHECK(aclrtLaunchKernel(scale, 1, args, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(&v, sizeof v, coeff, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(v == 81, "a kernel given the global's address as an argument (%llu)", (unsigned long long)v);

    /* Its description. */
    memset(&attr, 0, sizeof attr);
    CHECK(aclrtPointerGetAttributes((char *)table + 4, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attr.location.id == 0,
           "aclrtPointerGetAttributes: a device location on device 0 (type %d, id %u)", (int)attr.location.type, attr.location.id);

    /* Refusals. */
    EXPECT_CODE(aclrtMemcpy(coeff, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
                "a host-to-host kind for the global");
    EXPECT_CODE(aclrtMemcpy((char *)table + 60, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                "a copy running past the global's end");
    EXPECT_CODE(aclrtMemset((char *)table + 60, 8, 0, 8), ACL_ERROR_RT_PARAM_INVALID, "a memset running past the global's end");
    EXPECT_CODE(aclrtValueWrite((char *)table + 60, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID, "a value word past the global's end");

    CHECK(aclrtFree(x));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 60_symbol_memory\n");
    return 0;
}
