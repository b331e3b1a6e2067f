/*
 * 21_stale_memory: pointers that outlive what they point at. A second
 * aclrtFreeHost is refused whatever the runtime has done with the address
 * since (an asynchronous copy from pageable memory stages it through
 * page-locked buffers of the runtime's own, which are never the caller's).
 * Memory of a device that has closed is refused by every call that can take
 * it: copies of every kind, memsets, value operations, kernel arguments on
 * both launch paths; a kernel that meets it at its start (an argument block
 * in device memory, a model captured before the device closed) faults
 * instead of touching it. A reopened device has the same addresses. Copies
 * and memsets of zero bytes succeed without looking at their arguments, as
 * CANN's runtime does. Device memory of the runtime's own (condition words,
 * task argument blocks, placeholder copies, AI core stacks) is never the
 * caller's, even where a freed allocation of the caller's was. Device
 * memory kept from before an aclFinalize is refused after the next aclInit,
 * never taken for other memory.
 *
 * Usage: 21_stale_memory <kernel binary with append_log, count_up and trap_now>
 */
#include "direct.h"

#include <sys/mman.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS 0x20
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17 */
#endif

#define N 4096

static unsigned char pageable[N], back[N];

/* expect_stale: a call refused with ACL_ERROR_RT_PARAM_INVALID whose
 * message names param and says that the memory is of device dev, which is
 * not open. */
static void expect_stale(const char *file, int line, aclError rc, const char *param, int dev, const char *what)
{
    const char *msg = aclGetRecentErrMsg();
    char gone[64];
    snprintf(gone, sizeof gone, "device %d, which is not open", dev);
    if (rc != ACL_ERROR_RT_PARAM_INVALID) {
        fail_exit(file, line, rc, "%s: returned %d, expected %d (message: %s)", what, rc, ACL_ERROR_RT_PARAM_INVALID,
                  msg ? msg : "(null)");
    }
    if (msg == NULL || strstr(msg, param) == NULL || strstr(msg, gone) == NULL) {
        fail_exit(file, line, rc, "%s: aclGetRecentErrMsg does not name %s and %s: %s", what, param, gone,
                  msg ? msg : "(null)");
    }
    pass("%s -> %d, naming %s, memory of %s", what, ACL_ERROR_RT_PARAM_INVALID, param, gone);
}

#define STALE_ON(dev, call, param, what)                                       \
    do {                                                                       \
        clear_errors();                                                        \
        aclError stale_rc_ = (call);                                           \
        expect_stale(__FILE__, __LINE__, stale_rc_, (param), (dev), (what));   \
    } while (0)

#define STALE(call, param, what) STALE_ON(1, call, param, what)

/* ---- 1. A second aclrtFreeHost ----------------------------------------- */

static void free_host_twice(aclrtStream s)
{
    void *p = NULL, *dev = NULL, *base = NULL;
    aclrtPtrAttributes attr;
    CHECK(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMallocHost(&p, N));
    CHECK(aclrtFreeHost(p));
    /* The staging buffer of this copy is page-locked memory of the
     * runtime's; it may well sit where p was. */
    memset(pageable, 0x11, N);
    CHECK(aclrtMemcpyAsync(dev, N, pageable, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtSynchronizeStream(s));
    REFUSED(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID, "hostPtr",
            "free host: a second aclrtFreeHost, after an aclrtMemcpyAsync from pageable memory");
    CHECK(aclrtPointerGetAttributes(p, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED,
           "free host: aclrtPointerGetAttributes of the freed pointer: unregistered (type %d)", (int)attr.location.type);
    REFUSED(aclrtMemGetAddressRange(p, &base, NULL), ACL_ERROR_RT_PARAM_INVALID, "ptr",
            "free host: aclrtMemGetAddressRange of the freed pointer");
    memset(pageable, 0x22, N);
    CHECK(aclrtMemcpyAsync(dev, N, pageable, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    memset(pageable, 0x33, N); /* staged at the call: reusing it at once is fine */
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(back, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST));
    int same = 1;
    for (int i = 0; i < N; i++) {
        same = same && back[i] == 0x22;
    }
    EXPECT(same, "free host: the next aclrtMemcpyAsync from pageable memory copies its bytes");
    CHECK(aclrtFree(dev));
}

/* ---- 2. Memory of a closed device -------------------------------------- */

static void closed_device(aclrtStream s)
{
    aclrtContext c1 = NULL;
    void *p1 = NULL, *d0 = NULL, *argsDev = NULL, *again = NULL;
    aclmdlRI model = NULL;
    unsigned char host[64];
    uint64_t value = 0;

    CHECK(aclrtMalloc(&d0, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&argsDev, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtCreateContext(&c1, 1)); /* device 1's only context */
    CHECK(aclrtMalloc(&p1, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(p1, N, 0, N));
    CHECK(aclrtSetCurrentContext(ctxA));
    /* A model of device 0 that counts into device 1's memory. */
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(count_via(s, p1, 0));
    CHECK(aclmdlRICaptureEnd(s, &model));
    CHECK(aclmdlRIExecuteAsync(model, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtSetCurrentContext(c1));
    value = read_u64(p1);
    EXPECT(value == 1, "closed device: while device 1 is open, a device 0 model counts into its memory (%llu)",
           (unsigned long long)value);
    CHECK(aclrtDestroyContext(c1)); /* device 1 closes: its last context went */
    CHECK(aclrtSetDevice(0));

    STALE(aclrtMemcpy(host, 64, p1, 64, ACL_MEMCPY_DEFAULT), "src", "closed device: aclrtMemcpy DEFAULT from it");
    STALE(aclrtMemcpy(host, 64, p1, 64, ACL_MEMCPY_HOST_TO_HOST), "src", "closed device: aclrtMemcpy HOST_TO_HOST from it");
    STALE(aclrtMemcpy(host, 64, p1, 64, ACL_MEMCPY_DEVICE_TO_HOST), "src", "closed device: aclrtMemcpy DEVICE_TO_HOST from it");
    STALE(aclrtMemcpy(p1, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), "dst", "closed device: aclrtMemcpy HOST_TO_DEVICE to it");
    STALE(aclrtMemcpy(p1, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), "dst", "closed device: aclrtMemcpy HOST_TO_HOST to it");
    STALE(aclrtMemcpy(d0, 64, p1, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), "src",
          "closed device: aclrtMemcpy DEVICE_TO_DEVICE from it");
    STALE(aclrtMemcpyAsync(host, 64, p1, 64, ACL_MEMCPY_DEFAULT, s), "src", "closed device: aclrtMemcpyAsync DEFAULT from it");
    STALE(aclrtMemcpyAsync(host, 64, p1, 64, ACL_MEMCPY_HOST_TO_HOST, s), "src",
          "closed device: aclrtMemcpyAsync HOST_TO_HOST from it");
    STALE(aclrtMemcpyAsync(p1, 64, host, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s), "dst",
          "closed device: aclrtMemcpyAsync HOST_TO_BUF_TO_DEVICE to it");
    STALE(aclrtMemcpyAsync(p1, 64, d0, 64, ACL_MEMCPY_DEFAULT, s), "dst", "closed device: aclrtMemcpyAsync DEFAULT to it");
    STALE(aclrtMemcpy2d(host, 16, p1, 16, 16, 4, ACL_MEMCPY_DEVICE_TO_HOST), "src",
          "closed device: aclrtMemcpy2d DEVICE_TO_HOST from it");
    STALE(aclrtMemcpy2dAsync(p1, 16, host, 16, 16, 4, ACL_MEMCPY_HOST_TO_DEVICE, s), "dst",
          "closed device: aclrtMemcpy2dAsync HOST_TO_DEVICE to it");
    STALE(aclrtMemset(p1, 64, 1, 64), "devPtr", "closed device: aclrtMemset");
    STALE(aclrtMemsetAsync(p1, 64, 1, 64, s), "devPtr", "closed device: aclrtMemsetAsync");
    STALE(aclrtValueWrite(p1, 1, 0, s), "devAddr", "closed device: aclrtValueWrite");
    STALE(aclrtValueWait(p1, 1, ACL_STREAM_WAIT_VALUE_GEQ, s), "devAddr", "closed device: aclrtValueWait");
    STALE(aclrtFree(p1), "devPtr", "closed device: aclrtFree");

    /* As a kernel argument: refused on an idle stream (the checked path)
     * and on a held one (where a launch could go direct), by every call. */
    void *slot = (char *)p1 + 8;
    void *arr[1] = {&slot};
    for (int how = 0; how < 4; how++) {
        char what[160];
        snprintf(what, sizeof what, "closed device: a kernel argument, launch call %d, idle stream", how);
        STALE(launch_via(countFn, &slot, sizeof slot, s, how), "argument", what);
        hold(s);
        snprintf(what, sizeof what, "closed device: a kernel argument, launch call %d, held stream", how);
        STALE(launch_via(countFn, &slot, sizeof slot, s, how), "argument", what);
        release();
        CHECK(aclrtSynchronizeStream(s));
    }
    STALE(aclrtLaunchKernelWithArgsArray(countFn, 1, s, NULL, arr), "argument",
          "closed device: a kernel argument, aclrtLaunchKernelWithArgsArray");

    /* Met at the kernel's start: a fault, not a crash. */
    write_u64(argsDev, (uint64_t)(uintptr_t)p1);
    CHECK(aclrtLaunchKernel(countFn, 1, argsDev, 8, s));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION,
                "closed device: a kernel whose argument block in device memory holds it faults at its start");
    CHECK(aclmdlRIExecuteAsync(model, s));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION,
                "closed device: the model captured before it closed faults at the kernel's start");
    CHECK(aclmdlRIDestroy(model));
    CHECK(count_via(s, countDev, 0));
    CHECK(aclrtSynchronizeStream(s));
    pass("closed device: the stream runs work afterwards");

    /* Reopened, the device has the same address range: the same first
     * allocation, which reads as never-used memory. */
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMalloc(&again, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    value = read_u64(again);
    EXPECT(again == p1 && value == 0, "closed device: reopened, its first allocation is at the same address (%p, %p) and reads 0",
           again, p1);
    CHECK(aclrtFree(again));
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtSetCurrentContext(ctxA));
    CHECK(aclrtResetDevice(0)); /* the aclrtSetDevice(0) above */
    CHECK(aclrtFree(d0));
    CHECK(aclrtFree(argsDev));
}

/* ---- 3. Zero bytes ------------------------------------------------------ */

static void zero_bytes(aclrtStream s)
{
    aclrtContext c1 = NULL;
    void *p1 = NULL, *d = NULL;
    unsigned char host[8];
    CHECK(aclrtCreateContext(&c1, 1));
    CHECK(aclrtMalloc(&p1, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtDestroyContext(c1));
    CHECK(aclrtSetCurrentContext(ctxA));
    CHECK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    void *end = (char *)d + N;
    EXPECT_CODE(aclrtMemcpy(host, 0, p1, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS, "zero bytes: aclrtMemcpy from a closed device");
    EXPECT_CODE(aclrtMemcpy(end, 0, host, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS,
                "zero bytes: aclrtMemcpy to the end of an allocation");
    EXPECT_CODE(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)99), ACL_SUCCESS, "zero bytes: aclrtMemcpy of NULL, kind 99");
    EXPECT_CODE(aclrtMemcpyAsync(host, 0, p1, 0, ACL_MEMCPY_DEFAULT, s), ACL_SUCCESS,
                "zero bytes: aclrtMemcpyAsync from a closed device");
    EXPECT_CODE(aclrtMemcpyAsync(end, 0, d, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS,
                "zero bytes: aclrtMemcpyAsync to the end of an allocation");
    EXPECT_CODE(aclrtMemset(p1, 0, 1, 0), ACL_SUCCESS, "zero bytes: aclrtMemset of a closed device's memory");
    EXPECT_CODE(aclrtMemset(NULL, 0, 1, 0), ACL_SUCCESS, "zero bytes: aclrtMemset of NULL");
    EXPECT_CODE(aclrtMemsetAsync(end, 0, 1, 0, s), ACL_SUCCESS, "zero bytes: aclrtMemsetAsync at the end of an allocation");
    EXPECT_CODE(aclrtMemcpy2d(host, 8, p1, 8, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS,
                "zero bytes: aclrtMemcpy2d of no rows from a closed device");
    EXPECT_CODE(aclrtMemcpy2dAsync(end, 8, host, 8, 0, 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS,
                "zero bytes: aclrtMemcpy2dAsync of empty rows to the end of an allocation");
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtFree(d));
}

/* ---- 4. Device memory of the runtime's -------------------------------- */

/* The runtime's own device memory comes from the device's allocator, which
 * hands a freed block straight back to the next allocation of its size: it
 * may sit where memory of the caller's was. A second aclrtFree there is
 * refused, and the caller's next allocation goes elsewhere. */
static void runtime_memory(aclrtStream s)
{
    void *p = NULL, *q = NULL;
    aclmdlRI model = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondHandle h = NULL;
    uint64_t *cond = NULL;
    aclrtPtrAttributes attr;

    /* A condition word. */
    CHECK(aclrtMalloc(&p, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtFree(p));
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK(aclmdlRICaptureGetInfo(s, &st, &model));
    CHECK(aclmdlRICondHandleCreate(model, 0, 0, &h));
    CHECK(aclmdlRICondHandleGetCondPtr(h, &cond));
    CHECK(count_via(s, countDev, 0));
    CHECK(aclmdlRICaptureEnd(s, &model));
    EXPECT((void *)cond == p, "runtime memory: a condition word takes the freed block's address (%p, %p)", (void *)cond, p);
    REFUSED(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "devPtr", "runtime memory: a second aclrtFree at the condition word");
    CHECK(aclrtMalloc(&q, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(q, 99);
    write_u64(cond, 5);
    CHECK(aclrtPointerGetAttributes(cond, &attr));
    EXPECT(q != p && read_u64(cond) == 5 && read_u64(q) == 99 && attr.location.type == ACL_MEM_LOCATION_TYPE_DEVICE,
           "runtime memory: the next allocation is elsewhere (%p); the condition word stays device memory to read and write", q);
    CHECK(aclmdlRIDestroy(model));
    EXPECT(read_u64(q) == 99, "runtime memory: destroying the model leaves the caller's allocation");
    CHECK(aclrtFree(q));

    /* A kernel task's argument block, handed out by aclmdlRITaskGetParams. */
    aclrtStream ms[1];
    aclmdlRITask mt[4];
    aclmdlRITaskParams tp;
    uint32_t nms = 1, nmt = 4;
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK(count_via(s, countDev, 0));
    CHECK(aclmdlRICaptureEnd(s, &model));
    CHECK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtFree(p));
    CHECK(aclmdlRIGetStreams(model, ms, &nms));
    CHECK(aclmdlRIGetTasksByStream(ms[0], mt, &nmt));
    CHECK(aclmdlRITaskGetParams(mt[0], &tp));
    EXPECT(tp.type == ACL_MODEL_RI_TASK_KERNEL && tp.kernelTaskParams.args == p,
           "runtime memory: a task's argument block takes the freed block's address (%p, %p)", tp.kernelTaskParams.args, p);
    REFUSED(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "devPtr", "runtime memory: a second aclrtFree at a task's argument block");
    CHECK(aclrtMalloc(&q, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(q, 7);
    CHECK(aclmdlRIDestroy(model));
    EXPECT(q != p && read_u64(q) == 7, "runtime memory: the caller's next allocation (%p) outlives the model", q);
    CHECK(aclrtFree(q));

    /* The device copy of a launch's placeholder block, while the kernel
     * waits on a held stream: count_up counts into the copy. */
    struct {
        uint64_t *counter;
        uint64_t data;
    } ph = {NULL, 0};
    aclrtPlaceHolderInfo info = {0, (uint32_t)offsetof(__typeof__(ph), data)};
    CHECK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtFree(p));
    hold(s);
    CHECK(aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, &ph, sizeof ph, &info, 1));
    REFUSED(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "devPtr",
            "runtime memory: a second aclrtFree while a launch's placeholder copy may be there");
    CHECK(aclrtMalloc(&q, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(q, 64, 0, 64));
    release();
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(read_u64((char *)q + 8) == 0, "runtime memory: the kernel counted into its copy, not the caller's next allocation");
    EXPECT_CODE(aclrtFree(q), ACL_SUCCESS, "runtime memory: the caller's allocation is freed once, by the caller");

    /* The AI core stacks, first in a device's memory when it opens. */
    aclrtContext c1 = NULL;
    size_t freeMem = 0, total = 0;
    void *base = NULL;
    size_t size = 0;
    CHECK(aclrtCreateContext(&c1, 1));
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeMem, &total));
    CHECK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    void *stack = (char *)p - (total - freeMem);
    REFUSED(aclrtFree(stack), ACL_ERROR_RT_PARAM_INVALID, "devPtr", "runtime memory: aclrtFree of the AI core stacks");
    REFUSED(aclrtMemGetAddressRange(stack, &base, &size), ACL_ERROR_RT_PARAM_INVALID, "ptr",
            "runtime memory: aclrtMemGetAddressRange of the AI core stacks");
    CHECK(aclrtPointerGetAttributes(stack, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED,
           "runtime memory: aclrtPointerGetAttributes of the AI core stacks: unregistered (type %d)", (int)attr.location.type);
    CHECK(aclrtFree(p));
    CHECK(aclrtDestroyContext(c1));
    CHECK(aclrtSetCurrentContext(ctxA));
}

/* ---- 5. Pointers from before aclFinalize ------------------------------ */

/* Device memory kept from one initialization into the next: its address
 * range stays reserved, so it is memory of a device that is not open, and
 * once that device opens again, memory at the same addresses that is not
 * allocated. No other mapping of the process can take it meanwhile. */
static void earlier_init(const char *kernels)
{
    void *p = NULL, *again = NULL;
    uint64_t *counter = NULL;
    aclrtStream s = NULL, rel = NULL;
    aclrtNotify n = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle count = NULL;
    unsigned char host[64];

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtMalloc(&p, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclFinalize());
    void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);
    void *q = mmap(page, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    EXPECT(q != page, "earlier init: after aclFinalize no other mapping can take device 0's addresses");
    if (q != MAP_FAILED) {
        munmap(q, 4096);
    }

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtCreateStream(&rel));
    CHECK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &count));
    CHECK(aclrtMalloc((void **)&counter, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    void *slot = counter;
    CHECK(aclrtLaunchKernel(count, 1, &slot, sizeof slot, s)); /* the function goes direct from now on */
    CHECK(aclrtSynchronizeStream(s));

    STALE_ON(0, aclrtMemcpy(host, 64, p, 64, ACL_MEMCPY_DEFAULT), "src", "earlier init: aclrtMemcpy DEFAULT from it");
    STALE_ON(0, aclrtMemcpy(host, 64, p, 64, ACL_MEMCPY_HOST_TO_HOST), "src", "earlier init: aclrtMemcpy HOST_TO_HOST from it");
    STALE_ON(0, aclrtMemcpy(p, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), "dst", "earlier init: aclrtMemcpy HOST_TO_HOST to it");
    STALE_ON(0, aclrtMemcpyAsync(host, 64, p, 64, ACL_MEMCPY_DEFAULT, s), "src", "earlier init: aclrtMemcpyAsync DEFAULT from it");
    STALE_ON(0, aclrtMemcpyAsync(p, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST, s), "dst",
             "earlier init: aclrtMemcpyAsync HOST_TO_HOST to it");
    STALE_ON(0, aclrtMemcpy2d(host, 16, p, 16, 16, 4, ACL_MEMCPY_DEVICE_TO_HOST), "src", "earlier init: aclrtMemcpy2d from it");
    STALE_ON(0, aclrtMemset(p, 64, 1, 64), "devPtr", "earlier init: aclrtMemset");
    STALE_ON(0, aclrtMemsetAsync(p, 64, 1, 64, s), "devPtr", "earlier init: aclrtMemsetAsync");
    STALE_ON(0, aclrtFree(p), "devPtr", "earlier init: aclrtFree");
    slot = p;
    STALE_ON(0, aclrtLaunchKernel(count, 1, &slot, sizeof slot, s), "argument", "earlier init: a kernel argument, idle stream");
    CHECK(aclrtWaitAndResetNotify(n, s, 0));
    STALE_ON(0, aclrtLaunchKernelWithHostArgs(count, 1, s, NULL, &slot, sizeof slot, NULL, 0), "argument",
             "earlier init: a kernel argument, held stream");
    CHECK(aclrtRecordNotify(n, rel));
    CHECK(aclrtSynchronizeStream(s));

    /* Device 0 opens with the same addresses: p is memory not allocated
     * there, until an allocation takes it again. */
    CHECK(aclrtSetDevice(0));
    REFUSED(aclrtMemcpy(host, 64, p, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID, "src",
            "earlier init: device 0 open again, aclrtMemcpy DEFAULT from it");
    REFUSED(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "devPtr", "earlier init: device 0 open again, aclrtFree");
    CHECK(aclrtMalloc(&again, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    EXPECT(again == p && read_u64(again) == 0, "earlier init: device 0's first allocation is at the same address (%p, %p), fresh",
           again, p);
    CHECK(aclrtFree(again));
    CHECK(aclrtResetDevice(0));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtFree(counter));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyNotify(n));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(rel));
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtResetDevice(1));
    CHECK(aclFinalize());
}

int main(int argc, char **argv)
{
    aclrtStream s = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    aclrtBinHandle bin = direct_open(argv[1], &s);
    free_host_twice(s);
    closed_device(s);
    zero_bytes(s);
    runtime_memory(s);
    direct_close(bin, s);
    earlier_init(argv[1]);
    printf("PASS 21_stale_memory\n");
    return 0;
}
