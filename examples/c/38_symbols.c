/*
 * 38_symbols: device symbols. A kernel binary's exported variables are its
 * globals: aclrtBinaryGetGlobal finds them, aclrtGetSymbolAddress and
 * aclrtGetSymbolSize describe them, the symbol copies write and read them
 * (synchronously and in stream order), and the binary's kernels read what
 * the host wrote and write what the host reads back. Every refusal with its
 * code.
 *
 * Usage: 38_symbols <libsymbols.so>
 */
#include "common.h"

static void nap(void *ms) { sleep_ms((long)(intptr_t)ms); }

int main(int argc, char **argv)
{
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL, stale = NULL;
    aclrtFuncHandle scale = NULL, sum = NULL;
    void *coeff = NULL, *table = NULL, *p = NULL, *x = NULL, *dev = NULL, *pinned = NULL;
    size_t size = 0;
    uint64_t v = 0, xs[4] = {1, 2, 3, 4}, args[2];
    int32_t tab[16];
    int64_t total = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s libsymbols.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "scale_by_coeff", &scale));
    CHECK(aclrtBinaryGetFunction(bin, "sum_table", &sum));

    /* Finding and describing globals. */
    CHECK(aclrtBinaryGetGlobal(bin, "coeff", &coeff, &size));
    EXPECT(coeff != NULL && size == sizeof(uint64_t), "aclrtBinaryGetGlobal(coeff): %p, %zu bytes", coeff, size);
    CHECK(aclrtBinaryGetGlobal(bin, "table", &table, NULL));
    CHECK(aclrtBinaryGetGlobal(bin, "table", NULL, &size));
    EXPECT(table != NULL && size == sizeof tab, "aclrtBinaryGetGlobal(table): %zu bytes, address and size asked apart", size);
    CHECK(aclrtGetSymbolAddress(coeff, &p));
    EXPECT(p == coeff, "aclrtGetSymbolAddress of the global is its device address");
    CHECK(aclrtGetSymbolSize(table, &size));
    EXPECT(size == sizeof tab, "aclrtGetSymbolSize(table) = %zu", size);
    CHECK(aclrtBinaryGetDevAddress(bin, &p, &size));
    EXPECT(p != NULL && size > 0, "aclrtBinaryGetDevAddress: the loaded binary at %p, %zu bytes", p, size);
    CHECK(aclrtMemcpyFromSymbol(&v, sizeof v, coeff, sizeof v, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(v == 1, "the global reads its initial value 1");

    /* A kernel reads what the host wrote. */
    CHECK(aclrtMalloc(&x, sizeof xs, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(x, sizeof xs, xs, sizeof xs, ACL_MEMCPY_HOST_TO_DEVICE));
    v = 7;
    CHECK(aclrtMemcpyToSymbol(coeff, &v, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    args[0] = (uint64_t)(uintptr_t)x;
    args[1] = 4;
    CHECK(aclrtLaunchKernel(scale, 1, args, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(xs, sizeof xs, x, sizeof xs, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(xs[0] == 7 && xs[1] == 14 && xs[2] == 21 && xs[3] == 28, "the kernel scaled by the 7 written to its global");

    /* In stream order: a write, the kernel, a read of what it wrote. */
    for (int i = 0; i < 16; i++) {
        tab[i] = i * 10;
    }
    CHECK(aclrtMallocHost(&pinned, 64));
    memcpy(pinned, tab, sizeof tab);
    CHECK(aclrtLaunchHostFunc(s, nap, (void *)(intptr_t)30));
    CHECK(aclrtMemcpyToSymbolAsync(table, pinned, sizeof tab, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    args[0] = (uint64_t)(uintptr_t)dev;
    CHECK(aclrtLaunchKernel(sum, 1, args, sizeof(uint64_t), s));
    CHECK(aclrtMemcpyFromSymbolAsync(pinned, 64, coeff, sizeof v, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(&total, sizeof total, dev, sizeof total, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(total == 1200, "the kernel summed the table written before it on its stream (%lld)", (long long)total);
    memcpy(&v, pinned, sizeof v);
    EXPECT(v == 8, "the async read after the kernel sees the coeff it incremented (%llu)", (unsigned long long)v);

    /* At an offset, from device memory, and with ACL_MEMCPY_DEFAULT. */
    tab[0] = 555;
    CHECK(aclrtMemcpy(dev, 64, &tab[0], sizeof tab[0], ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpyToSymbol(table, dev, sizeof tab[0], 15 * sizeof tab[0], ACL_MEMCPY_DEFAULT));
    CHECK(aclrtMemcpyFromSymbol(tab, sizeof tab, table, sizeof tab, 0, ACL_MEMCPY_DEFAULT));
    EXPECT(tab[15] == 555 && tab[14] == 140 && tab[0] == 0, "a copy from device memory at offset 60 changed only the last entry");

    /* Refusals. */
    EXPECT_CODE(aclrtMemcpyToSymbol(NULL, &v, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "symbol NULL");
    EXPECT_CODE(aclrtMemcpyToSymbol(coeff, NULL, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "src NULL");
    EXPECT_CODE(aclrtMemcpyToSymbol(x, &v, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_INVALID_SYMBOL,
                "device memory is no symbol");
    EXPECT_CODE(aclrtMemcpyToSymbol((char *)coeff + 1, &v, 1, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_INVALID_SYMBOL,
                "an address inside a global is no symbol");
    EXPECT_CODE(aclrtMemcpyToSymbol(coeff, &v, sizeof v, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                "offset + count past the global");
    EXPECT_CODE(aclrtMemcpyToSymbol(coeff, &v, sizeof v, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                "a copy into a symbol with kind DEVICE_TO_HOST");
    EXPECT_CODE(aclrtMemcpyToSymbol(coeff, x, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                "device memory as the source of a HOST_TO_DEVICE copy");
    EXPECT_CODE(aclrtMemcpyFromSymbol(&v, 4, coeff, sizeof v, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                "count above dstMax");
    EXPECT_CODE(aclrtMemcpyFromSymbol(&v, sizeof v, coeff, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                "a copy out of a symbol with kind HOST_TO_DEVICE");
    EXPECT_CODE(aclrtMemcpyFromSymbolAsync(&v, sizeof v, table, sizeof v, 63, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_ERROR_INVALID_PARAM,
                "an async copy past the global");
    CHECK(aclrtMemcpyToSymbol(NULL, NULL, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    pass("zero bytes succeed whatever the other arguments");
    EXPECT_CODE(aclrtGetSymbolAddress(&v, &p), ACL_ERROR_RT_INVALID_SYMBOL, "the address of a host variable is no symbol");
    EXPECT_CODE(aclrtGetSymbolAddress(coeff, NULL), ACL_ERROR_INVALID_PARAM, "devPtr NULL");
    EXPECT_CODE(aclrtGetSymbolSize(NULL, &size), ACL_ERROR_INVALID_PARAM, "symbol NULL for its size");
    EXPECT_CODE(aclrtBinaryGetGlobal(bin, "nope", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "a global the binary lacks");
    EXPECT_CODE(aclrtBinaryGetGlobal(bin, "scale_by_coeff", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "a kernel is no global");
    EXPECT_CODE(aclrtBinaryGetGlobal(bin, "coeff", NULL, NULL), ACL_ERROR_INVALID_PARAM, "dptr and size both NULL");
    EXPECT_CODE(aclrtBinaryGetGlobal(NULL, "coeff", &p, &size), ACL_ERROR_INVALID_PARAM, "binHandle NULL");
    EXPECT_CODE(aclrtBinaryGetGlobal(bin, NULL, &p, &size), ACL_ERROR_INVALID_PARAM, "name NULL");
    EXPECT_CODE(aclrtBinaryGetDevAddress(bin, NULL, &size), ACL_ERROR_INVALID_PARAM, "binAddr NULL");

    /* A second load of the same file shares its globals; unloading one keeps them. */
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &stale));
    CHECK(aclrtBinaryGetGlobal(stale, "coeff", &p, NULL));
    EXPECT(p == coeff, "a second load of the file has the same globals");
    CHECK(aclrtBinaryUnLoad(stale));
    CHECK(aclrtGetSymbolSize(coeff, &size));
    pass("unloading the second load leaves the first one's symbols");
    EXPECT_CODE(aclrtBinaryGetGlobal(stale, "coeff", &p, &size), ACL_ERROR_RT_INVALID_HANDLE, "an unloaded binary");
    /* Unloading waits for the copies queued on its globals. */
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    CHECK(aclrtLaunchHostFunc(s, nap, (void *)(intptr_t)50));
    CHECK(aclrtMemcpyToSymbolAsync(coeff, pinned, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtStreamQuery(s, &st));
    EXPECT(st == ACL_STREAM_STATUS_COMPLETE, "aclrtBinaryUnLoad returned after the symbol copy queued behind a 50 ms task");
    EXPECT_CODE(aclrtGetSymbolSize(coeff, &size), ACL_ERROR_RT_INVALID_SYMBOL, "a global of an unloaded binary");

    CHECK(aclrtFreeHost(pinned));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 38_symbols\n");
    return 0;
}
