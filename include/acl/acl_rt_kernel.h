/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_kernel.h: kernel binaries, launch and argument lists. Part of
 * acl/acl_rt.h, which includes it; it may also be included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_KERNEL_H_
#define INC_GOCANN_ACL_ACL_RT_KERNEL_H_

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Kernel binaries and launch
 * ------------------------------------------------------------------------ */

/* Opaque handles: binary description, loaded binary, kernel function,
 * argument list under construction, one argument of such a list. */
typedef void* aclrtBinary;
typedef void* aclrtBinHandle;
typedef void* aclrtFuncHandle;
typedef void* aclrtArgsHandle;
typedef void* aclrtParamHandle;

/* Options when loading a binary. LAZY_MAGIC is an old name of MAGIC. */
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

/* isLazyLoad: 1 defers the copy to the device until a function is looked
 * up; magic: one of ACL_RT_BINARY_MAGIC_*; cpuKernelMode: how AI CPU
 * kernels are found (0, 1 or 2). */
typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

/* numOpt entries at options. */
typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption* options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

/* Core type a launch targets. */
typedef enum {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

/* Grid or block extent of a SIMT launch; each dimension defaults to 1 in
 * C++. */
#ifndef __BISHENG_CCEC__
typedef struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
#ifdef __cplusplus
#if __cplusplus >= 201103L
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#else
    dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
#endif
} dim3;
#endif

/* Per-launch attributes carried in an aclrtLaunchKernelCfg. TIMEOUT and
 * TIMEOUT_US are mutually exclusive. */
typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE ACL_DEPRECATED_MESSAGE(
        "Use ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE instead") = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

/* A 64-bit microsecond timeout split into two 32-bit halves; both zero
 * means no timeout. */
typedef struct {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
} aclrtTimeoutUs;

/* Value of a launch attribute; the member used follows the attribute id.
 * timeout is in seconds (0: none), timeoutUs in microseconds. */
typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode;
    ACL_DEPRECATED_MESSAGE("Use dynUbufSize instead")
    uint32_t localMemorySize;
    uint32_t dynUBufSize;
    aclrtEngineType engineType;
    uint32_t blockDimOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;
    aclrtTimeoutUs timeoutUs;
    uint8_t enableProfiling;
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

/* numAttrs entries at attrs. */
typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr* attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

/* A pointer slot in a host argument block (addrOffset, bytes from the
 * start of the block) that the runtime rewrites at launch to the device
 * address of the data found at dataOffset in the same block. */
typedef struct {
    uint32_t addrOffset;
    uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* Kernel function attributes (aclrtGetFunctionAttribute) and kernel
 * kinds. */
typedef enum {
    ACL_FUNC_ATTR_KERNEL_TYPE = 1,
    ACL_FUNC_ATTR_KERNEL_RATIO = 2,
    ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

typedef enum {
    ACL_KERNEL_TYPE_AICORE = 0,
    ACL_KERNEL_TYPE_CUBE = 1,
    ACL_KERNEL_TYPE_VECTOR = 2,
    ACL_KERNEL_TYPE_MIX = 3,
    ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

/* ------------------------------------------------------------------------
 * Kernel binaries and launch
 * ------------------------------------------------------------------------ */

/* Launches are asynchronous: success means the task was queued. numBlocks is
 * the number of cores (blocks) the kernel runs on. An argument block holds
 * the kernel's parameters in order, each padded to 8 bytes. */

/* Load the kernel binary file binPath; options may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(
    const char* binPath, aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle);

/* Load a kernel binary from length bytes of host memory at data onto the
 * current device; options may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(
    const void* data, size_t length, const aclrtBinaryLoadOptions* options,
    aclrtBinHandle* binHandle);

/* Look up the kernel named kernelName in a loaded binary. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(
    const aclrtBinHandle binHandle, const char* kernelName, aclrtFuncHandle* funcHandle);

/* Register the function funcName of a binary loaded by
 * aclrtBinaryLoadFromData with ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE 2 as
 * the AI CPU operator kernelName: its launches run on the device's AI CPU
 * engine, with the calling convention of every gocann kernel. Another
 * binary is refused with ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(
    const aclrtBinHandle handle, const char* funcName, const char* kernelName, aclrtFuncHandle* funcHandle);

/* Launch func, a SIMT kernel (GOCANN_SIMT_KERNEL in its source), over
 * gridDim blocks of blockDim threads each (at most 2048 a block; every
 * extent at least 1), its parameters given by pointer as for
 * aclrtLaunchKernelWithArgsArray. Only chips with SIMT units (Ascend 950)
 * take it. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(
    void* func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize, aclrtStream stream,
    aclrtLaunchKernelCfg* cfg, void** args);

/* The same, its parameters in a host argument block as for
 * aclrtLaunchKernelWithHostArgs. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(
    void* func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize, aclrtStream stream,
    aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray,
    size_t placeHolderNum);

/* Unload a binary, freeing its host and device copies; its function
 * handles become invalid. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/* Copy the kernel name of funcHandle, NUL-terminated, into name, a buffer
 * of maxLen bytes. */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(
    aclrtFuncHandle funcHandle, uint32_t maxLen, char* name);

/* Exception reports of kernels: store in *devArgsPtr the argument slots of the kernel whose failure info
 * describes, and their size in bytes in *devArgsLen; they live in info. */
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(
    const aclrtExceptionInfo* info, void** devArgsPtr, uint32_t* devArgsLen);

/* Store in *func the function handle of the kernel whose failure info
 * describes. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func);

/* Enqueue funcHandle on stream over numBlocks blocks, with an argument
 * block of argsSize bytes already in device memory at argsData. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
    aclrtStream stream);

/* As aclrtLaunchKernel, with launch attributes in cfg (may be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
    aclrtLaunchKernelCfg* cfg, aclrtStream stream);

/* Enqueue funcHandle on stream over numBlocks blocks, with arguments built
 * by the aclrtKernelArgs* calls; reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
    aclrtArgsHandle argsHandle, void* reserve);

/* Enqueue funcHandle with an argument block of argsSize bytes in host
 * memory; placeHolderArray (placeHolderNum entries) names pointer slots to fill. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
    void* hostArgs, size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum);

/* Enqueue func over numBlocks blocks; args[i] points at the host copy of
 * parameter i. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(
    void* func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg, void** args);

/* ------------------------------------------------------------------------
 * Kernel argument lists
 * ------------------------------------------------------------------------ */

/* Built with these calls and launched with aclrtLaunchKernelWithConfig. */

/* Store how many bytes of host memory an argument handle for funcHandle
 * needs (for aclrtKernelArgsInitByUserMem). */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(
    aclrtFuncHandle funcHandle, size_t* memSize);

/* Store how many bytes of host memory the arguments need, given
 * userArgsSize bytes of parameters each padded to 8 bytes. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(
    aclrtFuncHandle funcHandle, size_t userArgsSize, size_t* actualArgsSize);

/* Start an argument list for funcHandle in runtime-owned memory. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(
    aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle);

/* Start an argument list for funcHandle in caller memory: argsHandle is
 * the handle memory, userHostMem holds actualArgsSize bytes of arguments. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(
    aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void* userHostMem,
    size_t actualArgsSize);

/* Append a copy of the paramSize bytes at param as the next parameter and
 * store its handle. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(
    aclrtArgsHandle argsHandle, void* param, size_t paramSize, aclrtParamHandle* paramHandle);

/* Append a pointer parameter that will point at a device copy of the
 * buffer from aclrtKernelArgsGetPlaceHolderBuffer. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(
    aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle);

/* Store a runtime-owned host buffer of dataSize bytes for placeholder
 * paramHandle; its contents are copied to the device at launch. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(
    aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize, void** bufferAddr);

/* Replace the value of appended parameter paramHandle with the paramSize
 * bytes at param. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(
    aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void* param, size_t paramSize);

/* Mark the argument list complete; call it again after any later update. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/* Device symbols of a binary. A kernel binary for the simulated NPU is a
 * host shared object: its exported variables are its globals, and their
 * device address is the variable itself, which its kernels read. */

/* Store where the loaded binary starts and the size of its file. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize);

/* Store the device address and the size of the binary's global name; at
 * least one of dptr and size must be given. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(
    aclrtBinHandle binHandle, const char* name, void** dptr, size_t* size);

/* ------------------------------------------------------------------------
 * Binary descriptions, function lookups and function information
 * ------------------------------------------------------------------------ */

/* Describe dataLen bytes of a kernel binary at data, which the caller keeps
 * until the description is destroyed; NULL on failure. */
ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen);

/* Destroy a description from aclrtCreateBinary; its data stays the
 * caller's. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary);

/* Load the binary a description names, as aclrtBinaryLoadFromData does. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle);

/* Look up the kernel of a loaded binary whose entry point is funcEntry (the
 * address aclrtGetFunctionAddr stores). */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(
    aclrtBinHandle binHandle, uint64_t funcEntry, aclrtFuncHandle* funcHandle);

/* Look up the kernel whose code symbol points at, in the program or a
 * library it loaded. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle);

/* Store the entry points of funcHandle's kernel: aicAddr for the core it
 * runs on, aivAddr NULL (no separate vector code). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr);

/* Store the size of the kernel's code: aicSize, and aivSize 0. */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize);

/* Store attribute attrType of funcHandle's kernel in attrValue. */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAttribute(
    aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType, int64_t* attrValue);

/* Store the loaded binary funcHandle belongs to. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle);

/* Store how many parameters the kernel takes. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount);

/* Store where parameter paramIndex lies in an argument block and its size;
 * one of paramOffset and paramSize may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(
    const void* func, size_t paramIndex, size_t* paramOffset, size_t* paramSize);

/* Store the dynamic unified buffer a block of a SIMT kernel may be given;
 * 0 for other kernels. flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize);

/* Have callback called with userData when a kernel of binHandle faults;
 * the last call wins, a NULL callback removes it. */
ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(
    aclrtBinHandle binHandle, aclrtOpExceptionCallback callback, void* userData);

/* Store the address of the device's word that blocks on different cores
 * synchronize through. */
ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void** addr);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_KERNEL_H_ */
