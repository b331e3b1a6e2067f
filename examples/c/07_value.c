/*
 * 07_value: aclrtValueWrite / aclrtValueWait with every compare flag, and
 * kernels that write or poll the same word of device memory.
 *
 * Usage: 07_value <kernel binary with store_word and poll_word>
 */
#include "common.h"

static aclrtStream waiter, writer;
static uint64_t *word; /* device memory */
static unsigned char *mark; /* device memory: one byte per case */

static int marked(int i)
{
    unsigned char b = 0;
    CHECK(aclrtMemcpy(&b, 1, mark + i, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    return b == 1;
}

/* One compare flag: with the word at start, a wait for v holds the waiter
 * stream; writing miss keeps it held, writing hit releases it. */
static void value_case(int i, const char *name, uint32_t flag, uint64_t start, uint64_t v, uint64_t miss, uint64_t hit)
{
    aclrtStreamStatus st;
    CHECK(aclrtValueWrite(word, start, 0, writer));
    CHECK(aclrtSynchronizeStream(writer));
    CHECK(aclrtValueWait(word, v, flag, waiter));
    CHECK(aclrtMemsetAsync(mark + i, 1, 1, 1, waiter));
    CHECK(aclrtValueWrite(word, miss, 0, writer));
    CHECK(aclrtSynchronizeStream(writer));
    sleep_ms(20);
    CHECK(aclrtStreamQuery(waiter, &st));
    EXPECT(st == ACL_STREAM_STATUS_NOT_READY && !marked(i), "%s: word %#llx does not satisfy the wait for %#llx", name,
           (unsigned long long)miss, (unsigned long long)v);
    CHECK(aclrtValueWrite(word, hit, 0, writer));
    CHECK(aclrtSynchronizeStream(waiter));
    EXPECT(marked(i) && read_u64(word) == hit, "%s: word %#llx releases it", name, (unsigned long long)hit);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&waiter));
    CHECK(aclrtCreateStream(&writer));
    CHECK(aclrtMalloc((void **)&word, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc((void **)&mark, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(mark, 64, 0, 64));

    /* aclrtValueWrite stores the 64-bit value. */
    CHECK(aclrtValueWrite(word, 0x0123456789abcdefULL, 0, writer));
    CHECK(aclrtSynchronizeStream(writer));
    EXPECT(read_u64(word) == 0x0123456789abcdefULL, "aclrtValueWrite stores all 64 bits");

    /* Each flag, as the reference defines it. */
    value_case(0, "GEQ ((int64_t)(*addr - value) >= 0)", ACL_STREAM_WAIT_VALUE_GEQ, 5, 10, 9, 11);
    value_case(1, "EQ (*addr == value)", ACL_STREAM_WAIT_VALUE_EQ, 0, 42, 41, 42);
    value_case(2, "AND ((*addr & value) != 0)", ACL_STREAM_WAIT_VALUE_AND, 0, 0x10, 0x0f, 0x11);
    value_case(3, "NOR (~(*addr | value) != 0)", ACL_STREAM_WAIT_VALUE_NOR, ~0ULL, 0xffffffffffffff00ULL, 0xff, 0x7f);

    /* GEQ compares the signed difference, so it survives wrap-around: 2 is
     * "after" UINT64_MAX - 1. A condition that already holds passes. */
    CHECK(aclrtValueWrite(word, 2, 0, writer));
    CHECK(aclrtSynchronizeStream(writer));
    CHECK(aclrtValueWait(word, UINT64_MAX - 1, ACL_STREAM_WAIT_VALUE_GEQ, waiter));
    CHECK(aclrtSynchronizeStreamWithTimeout(waiter, 5000));
    pass("GEQ across wrap-around: 2 counts as >= UINT64_MAX - 1");

    /* NULL is the default stream here too. */
    CHECK(aclrtValueWrite(word, 77, 0, NULL));
    CHECK(aclrtValueWait(word, 77, ACL_STREAM_WAIT_VALUE_EQ, NULL));
    CHECK(aclrtSynchronizeStream(NULL));
    pass("aclrtValueWrite / aclrtValueWait on the default stream (NULL)");

    EXPECT_CODE(aclrtValueWait(word, 1, 4, waiter), ACL_ERROR_RT_PARAM_INVALID, "unknown compare flag");
    EXPECT_CODE(aclrtValueWrite(word, 1, 1, writer), ACL_ERROR_RT_PARAM_INVALID, "aclrtValueWrite flag must be 0");
    /* The reference requires 8-byte alignment without naming the code. */
    EXPECT_CODE(aclrtValueWrite((char *)word + 4, 1, 0, writer), ACL_ERROR_RT_ADDR_UNALIGNED,
                "aclrtValueWrite to an address not 8-byte aligned");
    EXPECT_CODE(aclrtValueWait(NULL, 1, 0, waiter), ACL_ERROR_INVALID_PARAM, "aclrtValueWait with NULL address");
    clear_errors();

    /* A kernel writing the word releases a value wait on another stream. */
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle store = NULL, poll = NULL;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "store_word", &store));
    CHECK(aclrtBinaryGetFunction(bin, "poll_word", &poll));
    CHECK(aclrtValueWrite(word, 0, 0, writer));
    CHECK(aclrtSynchronizeStream(writer));
    CHECK(aclrtValueWait(word, 7, ACL_STREAM_WAIT_VALUE_EQ, waiter));
    CHECK(aclrtMemsetAsync(mark + 10, 1, 1, 1, waiter));
    sleep_ms(20);
    EXPECT(!marked(10), "the waiter is held before the kernel runs");
    struct { void *word; uint64_t v; } sargs = {word, 7};
    CHECK(aclrtLaunchKernelWithHostArgs(store, 1, writer, NULL, &sargs, sizeof sargs, NULL, 0));
    CHECK(aclrtSynchronizeStreamWithTimeout(waiter, 10000));
    EXPECT(marked(10), "a kernel storing the word released aclrtValueWait on another stream");

    /* A kernel polling the word is released by aclrtValueWrite on another
     * stream. */
    uint64_t *done = NULL;
    CHECK(aclrtMalloc((void **)&done, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(done, 8, 0, 8));
    struct { void *word; uint64_t want; void *done; uint64_t limit; } pargs = {word, 99, done, 20000000000ULL};
    CHECK(aclrtLaunchKernelWithHostArgs(poll, 1, waiter, NULL, &pargs, sizeof pargs, NULL, 0));
    sleep_ms(20);
    EXPECT(read_u64(done) == 0, "the polling kernel spins while the word is not 99");
    CHECK(aclrtValueWrite(word, 99, 0, writer));
    CHECK(aclrtSynchronizeStream(writer));
    CHECK(aclrtSynchronizeStreamWithTimeout(waiter, 20000));
    EXPECT(read_u64(done) == 1, "aclrtValueWrite on another stream released the polling kernel");

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(done));
    CHECK(aclrtFree(word));
    CHECK(aclrtFree(mark));
    CHECK(aclrtDestroyStream(waiter));
    CHECK(aclrtDestroyStream(writer));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 07_value\n");
    return 0;
}
