#!/bin/sh
# Checks of the C/C++ headers in include/ (run from anywhere; exits non-zero
# on the first failure):
#
#  1. every header compiles on its own, as C11 and as C++17, with warnings
#     as errors; acl/acl.h and gocann/kernel.h compile together; acl/acl.h
#     also compiles with only include/acl on the include path; kernel.h
#     accepts a kernel definition and a user's own GM_ADDR; the Ascend C
#     subset (gocann/ascendc/) compiles as C++17 with -Wextra;
#  2. the functions declared are exactly those in FUNCS, and the deprecated
#     names are exactly those in DEPRECATED;
#  3. every numeric macro, enumerator and static constant has the value,
#     size and signedness in TABLE, every type the size and alignment, and
#     every struct/union member the offset and size (LP64), checked with
#     static assertions in C and C++; TABLE must cover every such name the
#     headers declare; every C++ overload of acl/acl_rt_api.h exists at its
#     exact type;
#  4. if ACL_REF_INCLUDE names a directory holding CANN's acl/ headers, the
#     same names, C prototypes (gcc -aux-info), C++ type identities
#     (typeid of every type, member and function) and deprecation warnings
#     (names and texts) are produced from both header sets and must be
#     identical, the acl/acl_rt_api.h overloads of step 3 have the same
#     types in the reference, which has only one more, and
#     internal/cannmap/runtime.txt lists the functions of the reference's
#     runtime headers.
#
# "check.sh --table" prints TABLE computed from the headers in
# ACL_REF_INCLUDE, for updating this file.
#
# Environment: CC (default gcc), CXX (default g++), ACL_REF_INCLUDE.

set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
inc=$here
CC=${CC:-gcc}
CXX=${CXX:-g++}
CFLAGS="-std=c11 -Wall -Wextra -Werror"
CXXFLAGS="-std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fail() {
    echo "check.sh: FAIL: $*" >&2
    exit 1
}

# Functions the library exports, hence the only ones the headers declare.
FUNCS="
aclAppLog aclDataTypeSize aclFloat16ToFloat aclFloatToFloat16 aclGetDeviceCapability aclrtGetSocName
aclInit aclFinalize aclFinalizeReference aclGetRecentErrMsg aclrtGetVersion aclrtPeekAtLastError
aclrtGetLastError
aclrtSetExceptionInfoCallback aclrtExceptionInfoCallbackRegister aclrtExceptionInfoCallbackUnregister
aclrtGetTaskIdFromExceptionInfo aclrtGetStreamIdFromExceptionInfo aclrtGetThreadIdFromExceptionInfo
aclrtGetDeviceIdFromExceptionInfo aclrtGetErrorCodeFromExceptionInfo
aclrtSubscribeReport aclrtLaunchCallback aclrtProcessReport aclrtUnSubscribeReport aclrtLaunchHostFunc
aclrtCreateContext aclrtDestroyContext aclrtSetCurrentContext aclrtGetCurrentContext
aclrtCtxGetCurrentDefaultStream
aclrtSetDevice aclrtResetDevice aclrtResetDeviceForce aclrtGetDevice aclrtGetDeviceCount aclrtGetRunMode
aclrtSynchronizeDevice aclrtSynchronizeDeviceWithTimeout aclrtGetDeviceInfo
aclrtDeviceGetStreamPriorityRange aclrtQueryDeviceStatus aclrtGetMemInfo
aclrtCreateStream aclrtCreateStreamWithConfig aclrtCreateStreamV2 aclrtCreateStreamConfigHandle
aclrtDestroyStreamConfigHandle aclrtSetStreamConfigOpt aclrtDestroyStream aclrtDestroyStreamForce
aclrtSynchronizeStream aclrtSynchronizeStreamWithTimeout aclrtStreamQuery aclrtStreamGetPriority
aclrtStreamGetFlags aclrtStreamGetId aclrtSetStreamFailureMode aclrtSetStreamAttribute
aclrtGetStreamAttribute aclrtStreamAbort aclrtStreamWaitEvent aclrtStreamWaitEventWithTimeout
aclrtGetArgsFromExceptionInfo aclrtGetFuncHandleFromExceptionInfo aclrtGetErrorVerbose
aclrtGetThreadLastTaskId aclrtCacheLastTaskOpInfo aclrtCacheLastTaskExtendInfo
aclrtStreamStop aclrtRegStreamStateCallback aclrtRegDeviceStateCallback aclrtSetDeviceTaskAbortCallback aclrtDeviceTaskAbort aclrtGetPrimaryCtxState
aclrtMalloc aclrtMallocAlign32 aclrtMallocCached aclrtMallocWithCfg aclrtFree aclrtMallocHost
aclrtFreeHost aclrtMemcpy aclrtMemcpyAsync aclrtMemset aclrtMemsetAsync aclrtMemcpy2d
aclrtMemcpy2dAsync aclrtPointerGetAttributes aclrtMemGetAddressRange
aclrtCreateEvent aclrtCreateEventWithFlag aclrtCreateEventExWithFlag aclrtDestroyEvent aclrtRecordEvent
aclrtResetEvent aclrtQueryEvent aclrtQueryEventStatus aclrtQueryEventWaitStatus aclrtSynchronizeEvent
aclrtSynchronizeEventWithTimeout aclrtEventElapsedTime aclrtEventGetTimestamp
aclrtCreateNotify aclrtDestroyNotify aclrtRecordNotify aclrtWaitAndResetNotify aclrtGetNotifyId
aclrtRecordEventWithFlag aclrtStreamWaitEventWithFlag aclrtGetEventId aclrtGetEventAvailNum aclrtNotifyBatchReset
aclrtIpcGetEventHandle aclrtIpcOpenEventHandle aclrtNotifyGetExportKey aclrtNotifyImportByKey
aclrtNotifySetImportPid aclrtNotifySetImportPidInterServer
aclrtCntNotifyCreate aclrtCntNotifyDestroy aclrtCntNotifyRecord aclrtCntNotifyWaitWithTimeout aclrtCntNotifyReset aclrtCntNotifyGetId
aclrtSubscribeHostFunc aclrtProcessHostFunc aclrtUnSubscribeHostFunc
aclrtValueWrite aclrtValueWait
aclrtBinaryLoadFromFile aclrtBinaryLoadFromData aclrtBinaryGetFunction aclrtBinaryUnLoad
aclrtGetFunctionName aclrtLaunchKernel aclrtLaunchKernelV2 aclrtLaunchKernelWithConfig
aclrtLaunchKernelWithHostArgs aclrtLaunchKernelWithArgsArray
aclrtKernelArgsGetHandleMemSize aclrtKernelArgsGetMemSize aclrtKernelArgsInit
aclrtKernelArgsInitByUserMem aclrtKernelArgsAppend aclrtKernelArgsAppendPlaceHolder
aclrtKernelArgsGetPlaceHolderBuffer aclrtKernelArgsParaUpdate aclrtKernelArgsFinalize
aclmdlRIBindStream aclmdlRIUnbindStream aclmdlRIBuildBegin aclmdlRIBuildEnd aclmdlRIEndTask
aclmdlRIExecute aclmdlRIExecuteAsync aclmdlRIDestroy aclmdlRIDestroyRegisterCallback
aclmdlRIDestroyUnregisterCallback aclmdlRIGetId aclmdlRIGetName aclmdlRISetName aclmdlRIGetStreams
aclmdlRIGetTasksByStream aclmdlRIUpdate aclmdlRIDebugPrint aclmdlRIDebugJsonPrint
aclmdlRICaptureBegin aclmdlRICaptureEnd aclmdlRICaptureGetInfo aclmdlRICaptureThreadExchangeMode
aclmdlRICaptureToModelRIBegin aclmdlRICaptureTaskGrpBegin aclmdlRICaptureTaskGrpEnd
aclmdlRICaptureTaskUpdateBegin aclmdlRICaptureTaskUpdateEnd
aclmdlRIAddCondTask aclmdlRICondHandleCreate aclmdlRICondHandleGetCondPtr
aclmdlRITaskDisable aclmdlRITaskGetParams aclmdlRITaskSetParams aclmdlRITaskGetSeqId aclmdlRITaskGetType
aclrtCreateLabel aclrtCreateLabelList aclrtDestroyLabel aclrtDestroyLabelList aclrtSetLabel
aclrtSwitchLabelByIndex aclrtActiveStream aclrtSwitchStream aclrtGetStreamAvailableNum aclrtPersistentTaskClean
aclrtDeviceCanAccessPeer aclrtDeviceEnablePeerAccess aclrtDeviceDisablePeerAccess aclrtDevicePeerAccessStatus
aclrtGetDevicesTopo aclrtMemP2PMap
aclrtGetLogicDevIdByUserDevId aclrtGetUserDevIdByLogicDevId aclrtGetPhyDevIdByUserDevId aclrtGetUserDevIdByPhyDevId
aclrtGetPhyDevIdByLogicDevId aclrtGetLogicDevIdByPhyDevId aclrtDeviceGetPCIBusId aclrtDeviceGetByPCIBusId
aclrtDeviceGetUuid aclrtDeviceGetHostAtomicCapabilities aclrtDeviceGetP2PAtomicCapabilities aclrtGetDeviceCapability
aclrtCheckArchCompatibility aclrtGetDeviceUtilizationRate aclrtDeviceSetLimit aclrtDeviceGetLimit aclrtSetTsDevice
aclrtGetMemUsageInfo
aclrtMallocHostWithCfg aclrtHostRegister aclrtHostRegisterV2 aclrtHostGetDevicePointer aclrtHostUnregister
aclrtHostMemMapCapabilities aclrtFreeWithDevSync aclrtFreeHostWithDevSync aclrtCheckMemType
aclrtMemcpyBatch aclrtMemcpyBatchV2 aclrtMemcpyBatchAsync aclrtMemcpyBatchAsyncV2 aclrtMemsetD32
aclrtMemsetD32Async aclrtMemcpyAsyncWithCondition aclrtGetMemcpyDescSize aclrtSetMemcpyDesc
aclrtMemcpyAsyncWithOffset aclrtMemcpyAsyncWithDesc aclrtMemFlush aclrtMemInvalidate aclrtDeviceL2CacheFlush
aclrtCmoAsync aclrtCmoAsyncWithBarrier aclrtCmoWaitBarrier aclrtCmoGetDescSize aclrtCmoSetDesc aclrtCmoAsyncWithDesc
aclrtMemPoolCreate aclrtMemPoolDestroy aclrtMemPoolSetAttr aclrtMemPoolGetAttr aclrtMemPoolMallocAsync
aclrtMemPoolFreeAsync aclrtMemPoolTrimTo
aclrtAllocatorCreateDesc aclrtAllocatorDestroyDesc aclrtAllocatorSetObjToDesc aclrtAllocatorSetAllocFuncToDesc
aclrtAllocatorSetFreeFuncToDesc aclrtAllocatorSetAllocAdviseFuncToDesc aclrtAllocatorSetGetAddrFromBlockFuncToDesc
aclrtAllocatorRegister aclrtAllocatorGetByStream aclrtAllocatorUnregister
aclrtBinaryGetDevAddress aclrtBinaryGetGlobal aclrtGetSymbolAddress aclrtGetSymbolSize aclrtMemcpyFromSymbol
aclrtMemcpyFromSymbolAsync aclrtMemcpyToSymbol aclrtMemcpyToSymbolAsync
aclrtMemGetAllocationGranularity aclrtReserveMemAddress aclrtReserveMemAddressNoUCMemory
aclrtReleaseMemAddress aclrtMallocPhysical aclrtFreePhysical aclrtMapMem aclrtMemMapNoAccess aclrtUnmapMem
aclrtMemSetAccess aclrtMemGetAccess aclrtMemRetainAllocationHandle aclrtMemGetAllocationPropertiesFromHandle
aclrtMemMapSelectedLink aclrtMemMapSetLink
aclrtMemAllocManaged aclrtMemManagedAdvise aclrtMemManagedGetAttr aclrtMemManagedGetAttrs
aclrtMemManagedPrefetchAsync aclrtMemManagedPrefetchBatchAsync
aclrtAllocBuf aclrtFreeBuf aclrtGetBufData aclrtGetBufDataLen aclrtSetBufDataLen aclrtGetBufUserData
aclrtSetBufUserData aclrtAppendBufChain aclrtGetBufChainNum aclrtGetBufFromChain aclrtCopyBufRef
aclCreateDataBuffer aclDestroyDataBuffer aclGetDataBufferAddr aclGetDataBufferSize aclGetDataBufferSizeV2
aclUpdateDataBuffer
aclsysGetVersionStr aclsysGetVersionNum aclsysGetCANNVersion aclGetCannAttribute aclGetCannAttributeList
aclInitCallbackRegister aclInitCallbackUnRegister aclFinalizeCallbackRegister aclFinalizeCallbackUnRegister
aclrtSetSysParamOpt aclrtGetSysParamOpt aclrtCtxSetSysParamOpt aclrtCtxGetSysParamOpt
aclmdlInitDump aclmdlSetDump aclmdlFinalizeDump
aclrtSnapShotProcessLock aclrtSnapShotProcessUnlock aclrtSnapShotProcessBackup aclrtSnapShotProcessRestore
aclrtSnapShotCallbackRegister aclrtSnapShotCallbackUnregister
aclrtCreateBinary aclrtDestroyBinary aclrtBinaryLoad aclrtBinaryGetFunctionByEntry aclrtGetFuncBySymbol
aclrtGetFunctionAddr aclrtGetFunctionSize aclrtGetFunctionAttribute aclrtFunctionGetBinary aclrtFunctionGetParamCount
aclrtFunctionGetParamInfo aclrtFunctionGetAvailDynUbufPerBlock aclrtBinarySetExceptionCallback aclrtGetHardwareSyncAddr
aclrtMallocForTaskScheduler aclmdlRIKernelTaskGetAttribute aclmdlRIAbort aclrtTaskUpdateAsync
aclrtGetDeviceResLimit aclrtSetDeviceResLimit aclrtResetDeviceResLimit aclrtGetStreamResLimit aclrtSetStreamResLimit
aclrtResetStreamResLimit aclrtUseStreamResInCurrentThread aclrtUnuseStreamResInCurrentThread aclrtGetResInCurrentThread
aclrtSetGroup aclrtGetGroupCount aclrtCreateGroupInfo aclrtDestroyGroupInfo aclrtGetAllGroupInfo aclrtGetGroupInfoDetail
aclrtIpcMemGetExportKey aclrtIpcMemSetImportPid aclrtIpcMemImportPidInterServer aclrtIpcMemImportByKey
aclrtIpcMemSetAttr aclrtIpcMemClose aclrtDeviceGetBareTgid
aclrtMemExportToShareableHandle aclrtMemExportToShareableHandleV2 aclrtMemImportFromShareableHandle
aclrtMemImportFromShareableHandleV2 aclrtMemSetPidToShareableHandle aclrtMemSetPidToShareableHandleV2
aclrtLaunchSIMTKernelWithArgsArray aclrtLaunchSIMTKernelWithHostArgs aclrtRegisterCpuFunc aclrtReduceAsync aclrtRandomNumAsync aclrtSetDeviceSatMode aclrtGetDeviceSatMode aclrtSetStreamOverflowSwitch
aclrtGetStreamOverflowSwitch aclrtGetOverflowStatus aclrtResetOverflowStatus aclrtCtxGetFloatOverflowAddr
aclrtGetFloatOverflowStatus aclrtResetFloatOverflowStatus aclrtNpuGetFloatOverFlowStatus aclrtNpuClearFloatOverFlowStatus
aclrtSetOpWaitTimeout aclrtSetOpExecuteTimeOut aclrtSetOpExecuteTimeOutWithMs aclrtSetOpExecuteTimeOutV2
aclrtGetOpTimeOutInterval aclrtGetOpExecuteTimeout aclrtProfTrace
aclprofInit aclprofFinalize aclprofStart aclprofCreateConfig aclprofDestroyConfig aclprofStop aclprofSetConfig
aclprofModelSubscribe aclprofModelUnSubscribe aclprofCreateSubscribeConfig aclprofDestroySubscribeConfig
aclprofGetOpDescSize aclprofGetOpNum aclprofGetOpTypeLen aclprofGetOpType aclprofGetOpNameLen aclprofGetOpName
aclprofGetOpStart aclprofGetOpEnd aclprofGetOpDuration aclprofGetModelId aclprofGetOpFlag aclprofGetOpAttriValue
aclprofGetStepTimestamp aclprofCreateStepInfo aclprofDestroyStepInfo aclprofCreateStamp aclprofDestroyStamp
aclprofPush aclprofPop aclprofRangeStart aclprofRangeStop aclprofSetStampTraceMessage aclprofMark aclprofMarkEx
aclprofStr2Id aclprofRangePushEx aclprofRangePop
"

# Names that carry a deprecation attribute (functions, enumerators,
# members).
DEPRECATED="
aclrtGetVersion aclrtSetExceptionInfoCallback aclrtQueryEvent aclmdlRIDebugPrint
ACL_OPT_STRONG_CONSISTENCY ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE
ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE localMemorySize
aclrtMemcpyAsyncWithCondition
aclGetDataBufferSize aclsysGetCANNVersion
"

# Macros the API reference documents (and CANN's own examples use) but
# CANN's headers leave out: checked against TABLE, skipped when comparing
# with the reference headers.
DOC_ONLY="ACL_MODEL_STREAM_FLAG_HEAD ACL_MODEL_STREAM_FLAG_DEFAULT"

# Headers whose names TABLE covers.
TABLE_HEADERS="acl/acl_base_rt.h acl/acl_rt.h acl/acl_rt_callback.h acl/acl_rt_event.h acl/acl_rt_memory.h acl/acl_rt_kernel.h acl/acl_rt_graph.h acl/acl_rt_allocator.h acl/acl_rt_memory_soma.h acl/acl_rt_process.h acl/acl_rt_control.h acl/acl_prof.h acl/error_codes/rt_error_codes.h acl/error_codes/ge_error_codes.h"

# ---------------------------------------------------------------------------
# Name extraction. Prints one line per declaration in the given headers:
#   v NAME        numeric #define or enumerator
#   c NAME        static const variable
#   s TYPE        complete type (typedef name, or enum:TAG / struct:TAG)
#   d TYPE        typedef of an incomplete struct
#   o TYPE PATH   member of a struct or union (PATH may be a.b)
# It relies on the layout of these headers: one enumerator or member per
# line, and no one-line struct, union or enum definitions.
# ---------------------------------------------------------------------------
cat > "$tmp/extract.awk" <<'AWK'
function ident_at_end(s,   m) {
    gsub(/\[[^\[]*\]/, "", s)
    sub(/[ \t]*;.*$/, "", s)
    if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) return substr(s, RSTART, RLENGTH)
    return ""
}
{
    line = $0
    while (1) {
        if (incomment) {
            e = index(line, "*/")
            if (e == 0) { line = ""; break }
            line = substr(line, e + 2); incomment = 0
        }
        s = index(line, "/*")
        if (s == 0) break
        rest = substr(line, s + 2)
        e = index(rest, "*/")
        if (e == 0) { line = substr(line, 1, s - 1); incomment = 1; break }
        line = substr(line, 1, s - 1) " " substr(rest, e + 2)
    }
    sub(/\/\/.*$/, "", line)
    if (line ~ /^[ \t]*$/) next
    if (line ~ /^[ \t]*#/) {
        if (line ~ /^#define[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+\(?[ \t]*-?(0[xX][0-9A-Fa-f]+|[0-9]+)[uUlL]*[ \t]*\)?[ \t]*$/) {
            split(line, f, /[ \t]+/); print "v " f[2]
        }
        next
    }
    if (line ~ /dim3\(/) next
    if (line ~ /^[ \t]*extern "C" \{/) next
    if (depth == 0) {
        if (line ~ /^static const /) { split(line, f, /[ \t]+/); print "c " f[4]; next }
        if (line ~ /^(typedef[ \t]+)?(enum|struct|union)([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*\{/) {
            if (line ~ /\}/) { print "unsupported one-line definition: " line > "/dev/stderr"; bad = 1; next }
            istd = (line ~ /^typedef/)
            t = line; sub(/^typedef[ \t]+/, "", t); sub(/[ \t]*\{.*$/, "", t)
            split(t, f, /[ \t]+/); kind = f[1]; tag = f[2]
            depth = 1; ne = 0; n[1] = 0
            next
        }
        if (line ~ /^typedef[ \t].*\([ \t]*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/) {
            t = line; sub(/^[^(]*\([ \t]*\*[ \t]*/, "", t); sub(/[ \t]*\).*$/, "", t); print "s " t; next
        }
        if (line ~ /^typedef[ \t]+(struct|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;/) {
            print "d " ident_at_end(line); next
        }
        if (line ~ /^typedef[ \t][^{(]*;/) { print "s " ident_at_end(line); next }
        next
    }
    if (kind == "enum") {
        if (line ~ /^[ \t]*\}/) {
            t = line; sub(/^[ \t]*\}[ \t]*/, "", t); sub(/[ \t]*;.*$/, "", t)
            name = istd ? t : "enum:" tag
            print "s " name
            for (i = 1; i <= ne; i++) print "v " en[i]
            depth = 0; next
        }
        if (match(line, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
            t = substr(line, RSTART, RLENGTH); gsub(/[ \t]/, "", t); en[++ne] = t
        }
        next
    }
    # struct or union body; m[d, i] are the member paths found at depth d
    if (line ~ /(struct|union)([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*\{/) { depth++; n[depth] = 0; next }
    if (line ~ /^[ \t]*\}/) {
        t = line; sub(/^[ \t]*\}[ \t]*/, "", t); sub(/[ \t]*;.*$/, "", t)
        if (depth == 1) {
            name = istd ? t : kind ":" tag
            print "s " name
            for (i = 1; i <= n[1]; i++) print "o " name " " m[1, i]
            depth = 0; next
        }
        p = depth - 1
        if (t != "") m[p, ++n[p]] = t
        for (i = 1; i <= n[depth]; i++) m[p, ++n[p]] = (t != "" ? t "." : "") m[depth, i]
        depth--; next
    }
    if (line ~ /;/) { t = ident_at_end(line); if (t != "") m[depth, ++n[depth]] = t }
}
END { exit bad }
AWK

extract() {
    (cd "$inc" && awk -f "$tmp/extract.awk" $TABLE_HEADERS)
}

# ---------------------------------------------------------------------------
# Program printing, for each name in a list (the first fields of TABLE
# lines), its value, size and signedness, or size and alignment, or
# offset and size. Compiled as C++ it also prints the typeid names of the
# types, of the members' types and of the functions in FUNCS.
# ---------------------------------------------------------------------------
gen_printer() {
    {
        cat <<'C'
#include <stdio.h>
#include <stddef.h>
#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>
#include <acl/acl_prof.h>
#ifdef __cplusplus
#include <typeinfo>
#define ALIGNOF(t) alignof(t)
#else
#define ALIGNOF(t) _Alignof(t)
#endif
#define SIGNED(x) ((int)(((x) - (x) - 1) < 0))
C
        printf 'int main(void)\n{\n'
        awk '
        { t = $2; gsub(/:/, " ", t) }
        $1 == "v" || $1 == "c" {
            printf "    printf(\"%s %s %%lld %%d %%d\\n\", (long long)(%s), (int)sizeof(%s), SIGNED(%s));\n", $1, $2, $2, $2, $2
        }
        $1 == "s" {
            printf "    printf(\"s %s %%d %%d\\n\", (int)sizeof(%s), (int)ALIGNOF(%s));\n", $2, t, t
            printf "#ifdef __cplusplus\n    printf(\"t %s %%s\\n\", typeid(%s).name());\n#endif\n", $2, t
        }
        $1 == "d" {
            printf "    printf(\"d %s\\n\");\n", $2
            printf "#ifdef __cplusplus\n    printf(\"t %s %%s\\n\", typeid(%s*).name());\n#endif\n", $2, t
        }
        $1 == "o" {
            printf "    printf(\"o %s %s %%d %%d\\n\", (int)offsetof(%s, %s), (int)sizeof(((%s*)0)->%s));\n", $2, $3, t, $3, t, $3
            printf "#ifdef __cplusplus\n    printf(\"m %s %s %%s\\n\", typeid(decltype(((%s*)0)->%s)).name());\n#endif\n", $2, $3, t, $3
        }' "$1"
        printf '#ifdef __cplusplus\n'
        for f in $FUNCS; do
            printf '    printf("f %s %%s\\n", typeid(decltype(&%s)).name());\n' "$f" "$f"
        done
        printf '#endif\n    return 0;\n}\n'
    } > "$2"
}

# Translation unit that takes the address of every function in FUNCS, so
# that deprecated ones draw warnings. Compiled, not linked.
gen_probe() {
    {
        printf '#include <acl/acl.h>\n#include <acl/acl_rt_memory_soma.h>\n#include <acl/acl_prof.h>\ntypedef void (*anyfn)(void);\nanyfn gocann_fns[] = {\n'
        for f in $FUNCS; do printf '    (anyfn)&%s,\n' "$f"; done
        printf '};\n'
    } > "$1"
}

# Builds and runs the printer for names list $1 against include dir $2,
# as C and as C++. Writes $3.c.out, $3.cc.out, the deprecated names in
# $3.dep (with their warning texts in $3.depmsg) and the C prototypes of
# FUNCS in $3.proto.
run_printer() {
    gen_printer "$1" "$tmp/printer.c"
    cp "$tmp/printer.c" "$tmp/printer.cc"
    gen_probe "$tmp/probe.c"
    $CC -std=c11 -Wdeprecated-declarations -I"$2" -aux-info "$3.aux" \
        -c -o "$tmp/probe.o" "$tmp/probe.c" 2> "$3.p.err" || { head -n 40 "$3.p.err" >&2; fail "probe does not build against $2"; }
    $CC -std=c11 -Wdeprecated-declarations -I"$2" \
        -o "$3.c.bin" "$tmp/printer.c" 2> "$3.c.err" || { head -n 40 "$3.c.err" >&2; fail "printer (C) does not build against $2"; }
    $CXX -std=c++17 -Wdeprecated-declarations -D_GLIBCXX_USE_CXX11_ABI=0 -I"$2" \
        -o "$3.cc.bin" "$tmp/printer.cc" 2> "$3.cc.err" || { head -n 40 "$3.cc.err" >&2; fail "printer (C++) does not build against $2"; }
    "$3.c.bin" > "$3.c.out"
    "$3.cc.bin" > "$3.cc.out"
    cat "$3.p.err" "$3.c.err" "$3.cc.err" | grep -o "'[A-Za-z_0-9]*' is deprecated[^[]*" |
        tr -d "'" | sort -u > "$3.depmsg"
    awk '{ print $1 }' "$3.depmsg" | sort -u > "$3.dep"
    # -aux-info lines look like "/* file:line:NC */ extern T f (args);".
    # CANN declares a few parameterless functions as f() where these
    # headers say f(void) (same ABI; warning-free under
    # -Wstrict-prototypes), so an unprototyped list counts as (void).
    : > "$3.proto"
    for f in $FUNCS; do
        grep "[ *]$f (" "$3.aux" > "$tmp/line" || fail "no prototype of $f in the headers in $2"
        sed -e 's|^/\*[^*]*\*/ *||' -e 's| (/\* ??? \*/)| (void)|' "$tmp/line" >> "$3.proto"
    done
}

# ---------------------------------------------------------------------------
# Static assertions from TABLE lines (with values).
# ---------------------------------------------------------------------------
gen_asserts() {
    {
        cat <<'C'
#include <stddef.h>
#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>
#include <acl/acl_prof.h>
#ifdef __cplusplus
#define CHECK(e) static_assert(e, #e)
#define ALIGNOF(t) alignof(t)
#else
#define CHECK(e) _Static_assert(e, #e)
#define ALIGNOF(t) _Alignof(t)
#endif
#define SIGNED(x) ((int)(((x) - (x) - 1) < 0))
C
        awk '
        { t = $2; gsub(/:/, " ", t) }
        $1 == "v" {
            printf "CHECK((%s) == %s);\nCHECK(sizeof(%s) == %s);\nCHECK(SIGNED(%s) == %s);\n", $2, $3, $2, $4, $2, $5
        }
        $1 == "c" {
            printf "CHECK(sizeof(%s) == %s);\n", $2, $4
            printf "#ifdef __cplusplus\nCHECK((%s) == %s);\nCHECK(SIGNED(%s) == %s);\n#endif\n", $2, $3, $2, $5
        }
        $1 == "s" { printf "CHECK(sizeof(%s) == %s);\nCHECK(ALIGNOF(%s) == %s);\n", t, $3, t, $4 }
        $1 == "d" { printf "CHECK(sizeof(%s*) == sizeof(void*));\n", t }
        $1 == "o" { printf "CHECK(offsetof(%s, %s) == %s);\nCHECK(sizeof(((%s*)0)->%s) == %s);\n", t, $3, $4, t, $3, $5 }' "$1"
    } > "$2"
}

# Runs a compiler command; on failure shows the first errors and fails
# with message $1.
compile() {
    msg=$1
    shift
    "$@" 2> "$tmp/err" || { head -n 40 "$tmp/err" >&2; fail "$msg"; }
}

table() {
    sed -n '/^# BEGIN TABLE$/,/^# END TABLE$/p' "$here/$(basename "$0")" | sed -e '1d' -e '$d'
}

# ---------------------------------------------------------------------------
if [ "${1:-}" = "--table" ]; then
    [ -n "${ACL_REF_INCLUDE:-}" ] && [ -d "$ACL_REF_INCLUDE/acl" ] ||
        fail "--table needs ACL_REF_INCLUDE set to a directory holding acl/"
    extract | awk '{ print $1, $2, $3 }' > "$tmp/names"
    run_printer "$tmp/names" "$ACL_REF_INCLUDE" "$tmp/ref"
    grep -v '^t ' "$tmp/ref.c.out"
    exit 0
fi

# 1. Each header alone, as C and as C++ (the Ascend C subset as C++ only,
# below); all together; other include paths.
headers=$(cd "$inc" && find . -name '*.h' ! -path './gocann/ascendc/*' | sed 's|^\./||' | sort)
[ -n "$headers" ] || fail "no headers found"
for h in $headers; do
    printf '#include <%s>\n' "$h" > "$tmp/one.c"
    cp "$tmp/one.c" "$tmp/one.cc"
    compile "$h does not compile as C" $CC $CFLAGS -I"$inc" -c "$tmp/one.c" -o "$tmp/one.o"
    compile "$h does not compile as C++" $CXX $CXXFLAGS -I"$inc" -c "$tmp/one.cc" -o "$tmp/one.o"
done

cat > "$tmp/both.c" <<'C'
#include <acl/acl.h>
#include <gocann/kernel.h>
#ifdef __cplusplus
extern "C"
#endif
__global__ __aicore__ void gocann_check_kernel(GM_ADDR x, __gm__ uint8_t* y, uint64_t n)
{
    if (GetBlockIdx() >= GetBlockNum() || n == 0) {
        Trap();
    }
    x[0] = y[0];
}
#ifdef __cplusplus
int64_t gocann_check_ns(void) { return AscendC::GetBlockIdx() + AscendC::GetBlockNum(); }
#endif
C
cp "$tmp/both.c" "$tmp/both.cc"
compile "acl/acl.h with gocann/kernel.h (C)" $CC $CFLAGS -I"$inc" -c "$tmp/both.c" -o "$tmp/both.o"
compile "acl/acl.h with gocann/kernel.h (C++)" $CXX $CXXFLAGS -I"$inc" -c "$tmp/both.cc" -o "$tmp/both.o"

# The Ascend C subset: its parts on their own and all of it with acl.h,
# with every warning (kernels are C++ only).
for h in kernel_operator.h gocann_tensor.h gocann_pipe.h gocann_vector.h gocann_launch.h; do
    printf '#include "%s"\n' "$h" > "$tmp/asc.cc"
    compile "gocann/ascendc/$h does not compile as C++" $CXX $CXXFLAGS -Wextra -I"$inc/gocann/ascendc" -c "$tmp/asc.cc" -o "$tmp/asc.o"
done
printf '#include <acl/acl.h>\n#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) { AscendC::GlobalTensor<half> g; g.SetGlobalBuffer((__gm__ half *)x, 16); g.SetValue(0, g.GetValue(1)); }\n' > "$tmp/asc.cc"
compile "acl/acl.h with kernel_operator.h" $CXX $CXXFLAGS -Wextra -I"$inc" -I"$inc/gocann/ascendc" -c "$tmp/asc.cc" -o "$tmp/asc.o"

printf '#include "acl.h"\nint main(void) { return ACL_SUCCESS + ACL_ERROR_RT_PARAM_INVALID * 0; }\n' > "$tmp/short.c"
compile "acl.h with only include/acl on the path" $CC $CFLAGS -I"$inc/acl" -c "$tmp/short.c" -o "$tmp/short.o"

printf '#define GM_ADDR __gm__ uint8_t*\n#include <gocann/kernel.h>\nvoid f(GM_ADDR p);\n' > "$tmp/gm1.c"
compile "kernel.h with a user GM_ADDR macro" $CC $CFLAGS -I"$inc" -c "$tmp/gm1.c" -o "$tmp/gm1.o"
printf '#include <stdint.h>\ntypedef uint8_t *GM_ADDR;\n#include <gocann/kernel.h>\nvoid f(GM_ADDR p);\n' > "$tmp/gm2.c"
compile "kernel.h with GOCANN_NO_GM_ADDR" $CC $CFLAGS -DGOCANN_NO_GM_ADDR -I"$inc" -c "$tmp/gm2.c" -o "$tmp/gm2.o"

# A program that calls no deprecated function must build warning-free even
# with stricter warnings than above.
cat > "$tmp/strict.c" <<'C'
#include <acl/acl.h>
int main(void)
{
    aclrtStream s = NULL;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    if (aclrtCreateStream(&s) != ACL_SUCCESS) return 1;
    (void)aclrtSynchronizeStream(s);
    (void)aclrtDestroyStream(s);
    (void)aclrtResetDevice(0);
    return aclFinalize();
}
C
cp "$tmp/strict.c" "$tmp/strict.cc"
compile "strict C build" $CC -std=c11 -Wall -Wextra -Wpedantic -Wstrict-prototypes -Wshadow -Werror \
    -I"$inc" -c "$tmp/strict.c" -o "$tmp/strict.o"
compile "strict C++11 build" $CXX -std=c++11 -Wall -Wextra -Wpedantic -Wshadow -Werror \
    -I"$inc" -c "$tmp/strict.cc" -o "$tmp/strict.o"

# 2. Declared functions and deprecated names.
declared=$(cd "$inc" && cat $(printf '%s\n' $headers | grep '^acl/') | grep -E '^(ACL_FUNC_VISIBILITY|MSVP_PROF_API)' | sed 's/[ \t]*(.*$//; s/.*[ *]//' | sort)
want=$(printf '%s\n' $FUNCS | sort)
[ "$declared" = "$want" ] || {
    printf '%s\n' "$declared" > "$tmp/declared"; printf '%s\n' "$want" > "$tmp/want"
    diff "$tmp/want" "$tmp/declared" >&2 || true
    fail "declared functions differ from FUNCS (< FUNCS only, > headers only)"
}

# 3. TABLE against the headers.
table > "$tmp/table"
[ -s "$tmp/table" ] || fail "TABLE is empty"
extract > "$tmp/names" || fail "cannot list the names declared by the headers"
awk '{ print $1, $2, $3 }' "$tmp/names" | sed 's/ *$//' | sort > "$tmp/names.have"
awk '{ if ($1 == "o") print $1, $2, $3; else print $1, $2 }' "$tmp/table" | sort > "$tmp/names.table"
if ! cmp -s "$tmp/names.have" "$tmp/names.table"; then
    diff "$tmp/names.table" "$tmp/names.have" >&2 || true
    fail "TABLE and the headers list different names (< TABLE only, > headers only)"
fi
gen_asserts "$tmp/table" "$tmp/asserts.c"
cp "$tmp/asserts.c" "$tmp/asserts.cc"
compile "values or layouts differ from TABLE (C)" $CC $CFLAGS -Wno-deprecated-declarations -Wno-type-limits \
    -I"$inc" -c "$tmp/asserts.c" -o "$tmp/asserts.o"
compile "values or layouts differ from TABLE (C++)" $CXX $CXXFLAGS -Wno-deprecated-declarations -Wno-type-limits \
    -I"$inc" -c "$tmp/asserts.cc" -o "$tmp/asserts.o"

run_printer "$tmp/names" "$inc" "$tmp/ours"
printf '%s\n' $DEPRECATED | sort > "$tmp/dep.want"
cmp -s "$tmp/dep.want" "$tmp/ours.dep" || {
    diff "$tmp/dep.want" "$tmp/ours.dep" >&2 || true
    fail "deprecated names differ from DEPRECATED (< DEPRECATED only, > headers only)"
}

# The C++ overloads of acl/acl_rt_api.h, each taken at its exact type: the
# same file must compile against the reference headers (below).
cat > "$tmp/rtapi.cc" <<'CC'
#include <acl/acl_rt_api.h>
typedef int T;
typedef char U;
aclError (*const rtapi_overloads[])() = {
    (aclError (*)())static_cast<aclError (*)(int32_t)>(&aclrtSynchronizeDevice),
    (aclError (*)())static_cast<aclError (*)(aclrtStream, int32_t)>(&aclrtSynchronizeStream),
    (aclError (*)())static_cast<aclError (*)(aclrtEvent, int32_t)>(&aclrtSynchronizeEvent),
    (aclError (*)())static_cast<aclError (*)(aclrtStream, aclrtEvent, int32_t)>(&aclrtStreamWaitEvent),
    (aclError (*)())static_cast<aclError (*)(uint64_t, uint64_t *)>(&aclrtSetOpExecuteTimeOut),
    (aclError (*)())static_cast<aclError (*)(aclrtStream *, uint32_t, uint32_t)>(&aclrtCreateStream),
    (aclError (*)())static_cast<aclError (*)(aclrtEvent *, uint32_t)>(&aclrtCreateEvent),
    (aclError (*)())static_cast<aclError (*)(T **, size_t, aclrtMallocConfig *)>(&aclrtMalloc<T>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *)>(&aclrtMalloc<T>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t, aclrtMallocConfig *)>(&aclrtMallocHost<T>),
    (aclError (*)())static_cast<aclError (*)(T *, size_t, const U *, size_t, aclrtMemcpyKind)>(&aclrtMemcpy<T, U>),
    (aclError (*)())static_cast<aclError (*)(T *, size_t, const U *, size_t, aclrtMemcpyKind, aclrtStream)>(&aclrtMemcpyAsync<T, U>),
    (aclError (*)())static_cast<aclError (*)(T *, size_t, const U *, size_t, size_t, size_t, aclrtMemcpyKind)>(&aclrtMemcpy2d<T, U>),
    (aclError (*)())static_cast<aclError (*)(T *, size_t, const U *, size_t, size_t, size_t, aclrtMemcpyKind, aclrtStream)>(&aclrtMemcpy2dAsync<T, U>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t *, U **, size_t *, size_t, aclrtMemcpyBatchAttr, size_t *)>(&aclrtMemcpyBatch<T, U>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t *, U **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *)>(&aclrtMemcpyBatch<T, U>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t *, U **, size_t *, size_t, aclrtMemcpyBatchAttr, aclrtStream)>(&aclrtMemcpyBatchAsync<T, U>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t *, U **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, aclrtStream)>(&aclrtMemcpyBatchAsync<T, U>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t *, U **, size_t *, size_t, aclrtMemcpyBatchAttr, size_t *, aclrtStream)>(&aclrtMemcpyBatchAsync<T, U>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t *, U **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *, aclrtStream)>(&aclrtMemcpyBatchAsync<T, U>),
    (aclError (*)())static_cast<aclError (*)(const T *, aclrtPtrAttributes *)>(&aclrtPointerGetAttributes<T>),
    (aclError (*)())static_cast<aclError (*)(T *, uint64_t, aclrtHostRegisterType, T **)>(&aclrtHostRegister<T>),
    (aclError (*)())static_cast<aclError (*)(T *, uint64_t, uint32_t)>(&aclrtHostRegister<T>),
    (aclError (*)())static_cast<aclError (*)(T *, T **, uint32_t)>(&aclrtHostGetDevicePointer<T>),
    (aclError (*)())static_cast<aclError (*)(T *)>(&aclrtHostUnregister<T>),
    (aclError (*)())static_cast<aclError (*)(T **, size_t, uint32_t)>(&aclrtMemAllocManaged<T>),
    (aclError (*)())static_cast<aclError (*)(const T *, size_t, aclrtMemManagedLocation, uint32_t, aclrtStream)>(&aclrtMemManagedPrefetchAsync<T>),
    (aclError (*)())static_cast<aclError (*)(const T **, size_t *, size_t, aclrtMemManagedLocation, uint64_t, aclrtStream)>(&aclrtMemManagedPrefetchBatchAsync<T>),
    (aclError (*)())static_cast<aclError (*)(const T **, size_t *, size_t, aclrtMemManagedLocation *, size_t *, size_t, uint64_t, aclrtStream)>(&aclrtMemManagedPrefetchBatchAsync<T>),
    (aclError (*)())static_cast<aclError (*)(const T &, void **)>(&aclrtGetSymbolAddress<T>),
    (aclError (*)())static_cast<aclError (*)(const T &, size_t *)>(&aclrtGetSymbolSize<T>),
    (aclError (*)())static_cast<aclError (*)(void *, size_t, const T &, size_t, size_t, aclrtMemcpyKind)>(&aclrtMemcpyFromSymbol<T>),
    (aclError (*)())static_cast<aclError (*)(void *, size_t, const T &, size_t, size_t, aclrtMemcpyKind, aclrtStream)>(&aclrtMemcpyFromSymbolAsync<T>),
    (aclError (*)())static_cast<aclError (*)(const T &, const void *, size_t, size_t, aclrtMemcpyKind)>(&aclrtMemcpyToSymbol<T>),
    (aclError (*)())static_cast<aclError (*)(const T &, const void *, size_t, size_t, aclrtMemcpyKind, aclrtStream)>(&aclrtMemcpyToSymbolAsync<T>),
};
CC
compile "acl/acl_rt_api.h: an overload is missing or has another type" $CXX $CXXFLAGS -Wno-cast-function-type -I"$inc" -c "$tmp/rtapi.cc" -o "$tmp/rtapi.o"

# 4. Against the reference headers, when present.
if [ -n "${ACL_REF_INCLUDE:-}" ] && [ -d "$ACL_REF_INCLUDE/acl" ]; then
    compile "acl/acl_rt_api.h overloads against the reference" $CXX $CXXFLAGS -Wno-cast-function-type -I"$ACL_REF_INCLUDE" -c "$tmp/rtapi.cc" -o "$tmp/rtapi.o"
    grep -c 'static inline' "$ACL_REF_INCLUDE/acl/acl_rt_api.h" > "$tmp/rtapi.ref"
    grep -c 'static inline' "$inc/acl/acl_rt_api.h" > "$tmp/rtapi.ours"
    [ "$(cat "$tmp/rtapi.ref")" -eq "$(cat "$tmp/rtapi.ours")" ] ||
        fail "acl/acl_rt_api.h has $(cat "$tmp/rtapi.ours") overloads, the reference $(cat "$tmp/rtapi.ref")"
    printf '%s\n' $DOC_ONLY > "$tmp/doconly"
    awk 'NR == FNR { skip[$1] = 1; next } !skip[$2]' "$tmp/doconly" "$tmp/names" > "$tmp/names.ref"
    run_printer "$tmp/names.ref" "$inc" "$tmp/ours"
    run_printer "$tmp/names.ref" "$ACL_REF_INCLUDE" "$tmp/ref"
    for x in c.out cc.out depmsg proto; do
        if ! cmp -s "$tmp/ref.$x" "$tmp/ours.$x"; then
            diff "$tmp/ref.$x" "$tmp/ours.$x" >&2 || true
            fail "headers differ from the reference ($x; < reference, > ours)"
        fi
    done
    # The runtime functions the coverage table counts are those the
    # reference's runtime headers declare.
    for h in acl_rt.h acl_base_rt.h acl_rt_allocator.h acl_rt_memory_soma.h; do
        tr -d '\r' < "$ACL_REF_INCLUDE/acl/$h"
    done | grep -E '^ACL_FUNC_VISIBILITY' | sed -E 's/\(.*//' | awk '{ print $NF }' | tr -d '*' | sort -u > "$tmp/rtfuncs.ref"
    grep -v '^#' "$here/../internal/cannmap/runtime.txt" | cut -f1 | sort > "$tmp/rtfuncs.ours"
    if ! cmp -s "$tmp/rtfuncs.ref" "$tmp/rtfuncs.ours"; then
        diff "$tmp/rtfuncs.ref" "$tmp/rtfuncs.ours" >&2 || true
        fail "internal/cannmap/runtime.txt differs from the functions of the reference's runtime headers (< reference, > ours)"
    fi
    echo "check.sh: compared $(wc -l < "$tmp/ours.cc.out") values, layouts and types and $(wc -l < "$tmp/ours.proto") prototypes with $ACL_REF_INCLUDE"
else
    echo "check.sh: ACL_REF_INCLUDE not set; skipped the comparison with the reference headers"
fi
echo "check.sh: ok"
exit 0

# Expected values (LP64): v/c NAME VALUE SIZE SIGNED, s TYPE SIZE ALIGN,
# d TYPE, o TYPE MEMBER OFFSET SIZE. Regenerate with --table.
# BEGIN TABLE
s aclrtStream 8 8
s aclmdlRITask 8 8
s aclrtEvent 8 8
s aclrtContext 8 8
s aclrtNotify 8 8
s aclrtCntNotify 8 8
s aclrtLabel 8 8
s aclrtLabelList 8 8
s aclrtMbuf 8 8
s aclError 4 4
s aclFloat16 2 2
d aclDataBuffer
s aclrtAllocatorDesc 8 8
s aclrtAllocator 8 8
s aclrtAllocatorBlock 8 8
s aclrtAllocatorAddr 8 8
s aclrtTaskGrp 8 8
c ACL_ERROR_NONE 0 4 1
c ACL_SUCCESS 0 4 1
c ACL_ERROR_INVALID_PARAM 100000 4 1
c ACL_ERROR_UNINITIALIZE 100001 4 1
c ACL_ERROR_REPEAT_INITIALIZE 100002 4 1
c ACL_ERROR_INVALID_FILE 100003 4 1
c ACL_ERROR_WRITE_FILE 100004 4 1
c ACL_ERROR_INVALID_FILE_SIZE 100005 4 1
c ACL_ERROR_PARSE_FILE 100006 4 1
c ACL_ERROR_FILE_MISSING_ATTR 100007 4 1
c ACL_ERROR_FILE_ATTR_INVALID 100008 4 1
c ACL_ERROR_INVALID_DUMP_CONFIG 100009 4 1
c ACL_ERROR_INVALID_PROFILING_CONFIG 100010 4 1
c ACL_ERROR_INVALID_MODEL_ID 100011 4 1
c ACL_ERROR_DESERIALIZE_MODEL 100012 4 1
c ACL_ERROR_PARSE_MODEL 100013 4 1
c ACL_ERROR_READ_MODEL_FAILURE 100014 4 1
c ACL_ERROR_MODEL_SIZE_INVALID 100015 4 1
c ACL_ERROR_MODEL_MISSING_ATTR 100016 4 1
c ACL_ERROR_MODEL_INPUT_NOT_MATCH 100017 4 1
c ACL_ERROR_MODEL_OUTPUT_NOT_MATCH 100018 4 1
c ACL_ERROR_MODEL_NOT_DYNAMIC 100019 4 1
c ACL_ERROR_OP_TYPE_NOT_MATCH 100020 4 1
c ACL_ERROR_OP_INPUT_NOT_MATCH 100021 4 1
c ACL_ERROR_OP_OUTPUT_NOT_MATCH 100022 4 1
c ACL_ERROR_OP_ATTR_NOT_MATCH 100023 4 1
c ACL_ERROR_OP_NOT_FOUND 100024 4 1
c ACL_ERROR_OP_LOAD_FAILED 100025 4 1
c ACL_ERROR_UNSUPPORTED_DATA_TYPE 100026 4 1
c ACL_ERROR_FORMAT_NOT_MATCH 100027 4 1
c ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED 100028 4 1
c ACL_ERROR_KERNEL_NOT_FOUND 100029 4 1
c ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED 100030 4 1
c ACL_ERROR_KERNEL_ALREADY_REGISTERED 100031 4 1
c ACL_ERROR_INVALID_QUEUE_ID 100032 4 1
c ACL_ERROR_REPEAT_SUBSCRIBE 100033 4 1
c ACL_ERROR_STREAM_NOT_SUBSCRIBE 100034 4 1
c ACL_ERROR_THREAD_NOT_SUBSCRIBE 100035 4 1
c ACL_ERROR_WAIT_CALLBACK_TIMEOUT 100036 4 1
c ACL_ERROR_REPEAT_FINALIZE 100037 4 1
c ACL_ERROR_NOT_STATIC_AIPP 100038 4 1
c ACL_ERROR_COMPILING_STUB_MODE 100039 4 1
c ACL_ERROR_GROUP_NOT_SET 100040 4 1
c ACL_ERROR_GROUP_NOT_CREATE 100041 4 1
c ACL_ERROR_PROF_ALREADY_RUN 100042 4 1
c ACL_ERROR_PROF_NOT_RUN 100043 4 1
c ACL_ERROR_DUMP_ALREADY_RUN 100044 4 1
c ACL_ERROR_DUMP_NOT_RUN 100045 4 1
c ACL_ERROR_PROF_REPEAT_SUBSCRIBE 148046 4 1
c ACL_ERROR_PROF_API_CONFLICT 148047 4 1
c ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG 148048 4 1
c ACL_ERROR_INVALID_OPP_PATH 148049 4 1
c ACL_ERROR_OP_UNSUPPORTED_DYNAMIC 148050 4 1
c ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED 148051 4 1
c ACL_ERROR_UNSUPPORTED_JPEG 148052 4 1
c ACL_ERROR_INVALID_BUNDLE_MODEL_ID 148053 4 1
c ACL_ERROR_BAD_ALLOC 200000 4 1
c ACL_ERROR_API_NOT_SUPPORT 200001 4 1
c ACL_ERROR_INVALID_DEVICE 200002 4 1
c ACL_ERROR_MEMORY_ADDRESS_UNALIGNED 200003 4 1
c ACL_ERROR_RESOURCE_NOT_MATCH 200004 4 1
c ACL_ERROR_INVALID_RESOURCE_HANDLE 200005 4 1
c ACL_ERROR_FEATURE_UNSUPPORTED 200006 4 1
c ACL_ERROR_PROF_MODULES_UNSUPPORTED 200007 4 1
c ACL_ERROR_STORAGE_OVER_LIMIT 300000 4 1
c ACL_ERROR_INTERNAL_ERROR 500000 4 1
c ACL_ERROR_FAILURE 500001 4 1
c ACL_ERROR_GE_FAILURE 500002 4 1
c ACL_ERROR_RT_FAILURE 500003 4 1
c ACL_ERROR_DRV_FAILURE 500004 4 1
c ACL_ERROR_PROFILING_FAILURE 500005 4 1
s aclDataType 4 4
v ACL_DT_UNDEFINED -1 4 1
v ACL_FLOAT 0 4 1
v ACL_FLOAT16 1 4 1
v ACL_INT8 2 4 1
v ACL_INT32 3 4 1
v ACL_UINT8 4 4 1
v ACL_INT16 6 4 1
v ACL_UINT16 7 4 1
v ACL_UINT32 8 4 1
v ACL_INT64 9 4 1
v ACL_UINT64 10 4 1
v ACL_DOUBLE 11 4 1
v ACL_BOOL 12 4 1
v ACL_STRING 13 4 1
v ACL_COMPLEX64 16 4 1
v ACL_COMPLEX128 17 4 1
v ACL_BF16 27 4 1
v ACL_INT4 29 4 1
v ACL_UINT1 30 4 1
v ACL_COMPLEX32 33 4 1
v ACL_HIFLOAT8 34 4 1
v ACL_FLOAT8_E5M2 35 4 1
v ACL_FLOAT8_E4M3FN 36 4 1
v ACL_FLOAT8_E8M0 37 4 1
v ACL_FLOAT6_E3M2 38 4 1
v ACL_FLOAT6_E2M3 39 4 1
v ACL_FLOAT4_E2M1 40 4 1
v ACL_FLOAT4_E1M2 41 4 1
s aclFormat 4 4
v ACL_FORMAT_UNDEFINED -1 4 1
v ACL_FORMAT_NCHW 0 4 1
v ACL_FORMAT_NHWC 1 4 1
v ACL_FORMAT_ND 2 4 1
v ACL_FORMAT_NC1HWC0 3 4 1
v ACL_FORMAT_FRACTAL_Z 4 4 1
v ACL_FORMAT_NC1HWC0_C04 12 4 1
v ACL_FORMAT_HWCN 16 4 1
v ACL_FORMAT_NDHWC 27 4 1
v ACL_FORMAT_FRACTAL_NZ 29 4 1
v ACL_FORMAT_NCDHW 30 4 1
v ACL_FORMAT_NDC1HWC0 32 4 1
v ACL_FRACTAL_Z_3D 33 4 1
v ACL_FORMAT_NC 35 4 1
v ACL_FORMAT_NCL 47 4 1
v ACL_FORMAT_FRACTAL_NZ_C0_16 50 4 1
v ACL_FORMAT_FRACTAL_NZ_C0_32 51 4 1
v ACL_FORMAT_FRACTAL_NZ_C0_2 52 4 1
v ACL_FORMAT_FRACTAL_NZ_C0_4 53 4 1
v ACL_FORMAT_FRACTAL_NZ_C0_8 54 4 1
s aclLogLevel 4 4
v ACL_DEBUG 0 4 1
v ACL_INFO 1 4 1
v ACL_WARNING 2 4 1
v ACL_ERROR 3 4 1
s aclMemType 4 4
v ACL_MEMTYPE_DEVICE 0 4 1
v ACL_MEMTYPE_HOST 1 4 1
v ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT 2 4 1
s aclSysParamOpt 4 4
v ACL_OPT_DETERMINISTIC 0 4 1
v ACL_OPT_ENABLE_DEBUG_KERNEL 1 4 1
v ACL_OPT_STRONG_CONSISTENCY 2 4 1
v ACL_OPT_ENABLE_KERNEL_EARLY_START 3 4 1
s aclCannAttr 4 4
v ACL_CANN_ATTR_UNDEFINED -1 4 1
v ACL_CANN_ATTR_INF_NAN 0 4 1
v ACL_CANN_ATTR_BF16 1 4 1
v ACL_CANN_ATTR_JIT_COMPILE 2 4 1
s aclDeviceInfo 4 4
v ACL_DEVICE_INFO_UNDEFINED -1 4 1
v ACL_DEVICE_INFO_AI_CORE_NUM 0 4 1
v ACL_DEVICE_INFO_VECTOR_CORE_NUM 1 4 1
v ACL_DEVICE_INFO_L2_SIZE 2 4 1
v ACL_MAJOR_VERSION 1 4 1
v ACL_MINOR_VERSION 17 4 1
v ACL_PATCH_VERSION 0 4 1
v ACL_EVENT_SYNC 1 4 0
v ACL_EVENT_CAPTURE_STREAM_PROGRESS 2 4 0
v ACL_EVENT_TIME_LINE 8 4 0
v ACL_EVENT_DEVICE_USE_ONLY 16 4 0
v ACL_EVENT_EXTERNAL 32 4 0
v ACL_EVENT_IPC 64 4 0
v ACL_EVENT_RECORD_DEFAULT 0 4 0
v ACL_EVENT_RECORD_EXTERNAL 1 4 0
v ACL_EVENT_WAIT_DEFAULT 0 4 0
v ACL_EVENT_WAIT_EXTERNAL 1 4 0
v ACL_STREAM_FAST_LAUNCH 1 4 0
v ACL_STREAM_FAST_SYNC 2 4 0
v ACL_STREAM_PERSISTENT 4 4 0
v ACL_STREAM_HUGE 8 4 0
v ACL_STREAM_CPU_SCHEDULE 16 4 0
v ACL_STREAM_DEVICE_USE_ONLY 32 4 0
v ACL_STREAM_WAIT_VALUE_GEQ 0 4 0
v ACL_STREAM_WAIT_VALUE_EQ 1 4 0
v ACL_STREAM_WAIT_VALUE_AND 2 4 0
v ACL_STREAM_WAIT_VALUE_NOR 3 4 0
v ACL_CONTINUE_ON_FAILURE 0 4 0
v ACL_STOP_ON_FAILURE 1 4 0
v ACL_NOTIFY_DEFAULT 0 4 0
v ACL_NOTIFY_DEVICE_USE_ONLY 1 4 0
v ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0 8 0
v ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 2 8 0
v ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0 8 0
v ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 2 8 0
v ACL_DEV_FEATURE_SUPPORT 1 4 1
v ACL_DEV_FEATURE_NOT_SUPPORT 0 4 1
v ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0 4 1
v ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1 4 1
v ACL_HOST_DEVICE_CONNECT_TYPE_UB 2 4 1
v ACL_DEVICE_FORM_FACTOR_POD 0 4 1
v ACL_DEVICE_FORM_FACTOR_A_K 1 4 1
v ACL_DEVICE_FORM_FACTOR_A_X 2 4 1
v ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3 4 1
v ACL_RT_DEVS_TOPOLOGY_HCCS 1 8 0
v ACL_RT_DEVS_TOPOLOGY_PIX 2 8 0
v ACL_RT_DEVS_TOPOLOGY_PIB 4 8 0
v ACL_RT_DEVS_TOPOLOGY_PHB 8 8 0
v ACL_RT_DEVS_TOPOLOGY_SYS 16 8 0
v ACL_RT_DEVS_TOPOLOGY_SIO 32 8 0
v ACL_RT_DEVS_TOPOLOGY_HCCS_SW 64 8 0
v ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0 8 0
v ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 1 8 0
v ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0 8 0
v ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 1 8 0
v ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0 8 0
v ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 1 8 0
v ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0 4 1
v ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1 4 1
v ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2 4 1
v ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3 4 1
v ACL_HOST_REG_MAPPED 2 8 0
v ACL_HOST_REG_IOMEMORY 4 8 0
v ACL_HOST_REG_READONLY 8 8 0
v ACL_HOST_REG_PINNED 268435456 8 0
v ACL_RT_MEM_ATTACH_GLOBAL 1 4 0
v ACL_RT_MEM_LINK_IDX_0 0 4 0
v ACL_RT_MEM_LINK_IDX_1 1 4 0
v ACL_RT_MEM_TYPE_DEV 2 4 0
v ACL_RT_MEM_TYPE_DVPP 8 4 0
v ACL_RT_MEM_TYPE_RSVD 16 4 0
v ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20 4 0
v ACL_IPC_EVENT_HANDLE_SIZE 64 4 0
v ACL_RT_CMO_MAX_BARRIER_NUM 6 4 0
v MAX_MEM_UCE_INFO_ARRAY_SIZE 128 4 1
v UCE_INFO_RESERVED_SIZE 14 4 1
v ACL_RT_MEM_UCE_INFO_MAX_NUM 20 4 1
v ACL_RT_BINARY_MAGIC_ELF_AICORE 1129660997 4 0
v ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 1094799942 4 0
v ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 1095320387 4 0
v ACL_MODEL_STREAM_FLAG_HEAD 0 4 0
v ACL_MODEL_STREAM_FLAG_DEFAULT 2147483647 4 0
v ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0 8 0
v ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 1 8 0
v ACL_PKG_VERSION_MAX_SIZE 128 4 1
v ACL_PKG_VERSION_PARTS_MAX_SIZE 64 4 1
s aclrtRunMode 4 4
v ACL_DEVICE 0 4 1
v ACL_HOST 1 4 1
s aclrtTsId 4 4
v ACL_TS_ID_AICORE 0 4 1
v ACL_TS_ID_AIVECTOR 1 4 1
v ACL_TS_ID_RESERVED 2 4 1
s aclrtDeviceStatus 4 4
v ACL_RT_DEVICE_STATUS_NORMAL 0 4 1
v ACL_RT_DEVICE_STATUS_ABNORMAL 1 4 1
v ACL_RT_DEVICE_STATUS_END 65535 4 1
s aclrtDevAttr 4 4
v ACL_DEV_ATTR_AICPU_CORE_NUM 1 4 1
v ACL_DEV_ATTR_AICORE_CORE_NUM 101 4 1
v ACL_DEV_ATTR_CUBE_CORE_NUM 102 4 1
v ACL_DEV_ATTR_VECTOR_CORE_NUM 201 4 1
v ACL_DEV_ATTR_WARP_SIZE 202 4 1
v ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE 203 4 1
v ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE 204 4 1
v ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE 204 4 1
v ACL_DEV_ATTR_MAX_GRID_DIM_X 205 4 1
v ACL_DEV_ATTR_MAX_GRID_DIM_Y 206 4 1
v ACL_DEV_ATTR_MAX_GRID_DIM_Z 207 4 1
v ACL_DEV_ATTR_MAX_BLOCK_PER_GRID 208 4 1
v ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK 209 4 1
v ACL_DEV_ATTR_MAX_BLOCK_DIM_X 210 4 1
v ACL_DEV_ATTR_MAX_BLOCK_DIM_Y 211 4 1
v ACL_DEV_ATTR_MAX_BLOCK_DIM_Z 212 4 1
v ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE 301 4 1
v ACL_DEV_ATTR_L2_CACHE_SIZE 302 4 1
v ACL_DEV_ATTR_SMP_ID 401 4 1
v ACL_DEV_ATTR_PHY_CHIP_ID 402 4 1
v ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID 403 4 1
v ACL_DEV_ATTR_SUPER_POD_DEVICE_ID 403 4 1
v ACL_DEV_ATTR_SUPER_POD_SERVER_ID 404 4 1
v ACL_DEV_ATTR_SUPER_POD_ID 405 4 1
v ACL_DEV_ATTR_CUST_OP_PRIVILEGE 406 4 1
v ACL_DEV_ATTR_MAINBOARD_ID 407 4 1
v ACL_DEV_ATTR_HD_CONNECT_TYPE 408 4 1
v ACL_DEV_ATTR_DEVICE_FORM_FACTOR 409 4 1
v ACL_DEV_ATTR_IS_VIRTUAL 501 4 1
v ACL_DEV_ATTR_NPU_ARCH 601 4 1
s aclrtDevFeatureType 4 4
v ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV 1 4 1
v ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV 21 4 1
s aclrtDeviceLimit 4 4
v ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE 0 4 1
v ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE 1 4 1
v ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE 2 4 1
v ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE 3 4 1
v ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE 4 4 1
s aclrtDevResLimitType 4 4
v ACL_RT_DEV_RES_CUBE_CORE 0 4 1
v ACL_RT_DEV_RES_VECTOR_CORE 1 4 1
s aclrtFloatOverflowMode 4 4
v ACL_RT_OVERFLOW_MODE_SATURATION 0 4 1
v ACL_RT_OVERFLOW_MODE_INFNAN 1 4 1
v ACL_RT_OVERFLOW_MODE_UNDEF 2 4 1
d aclrtUtilizationExtendInfo
s aclrtUtilizationInfo 24 8
o aclrtUtilizationInfo cubeUtilization 0 4
o aclrtUtilizationInfo vectorUtilization 4 4
o aclrtUtilizationInfo aicpuUtilization 8 4
o aclrtUtilizationInfo memoryUtilization 12 4
o aclrtUtilizationInfo utilizationExtend 16 8
s aclrtUuid 16 1
o aclrtUuid bytes 0 16
s aclrtDeviceState 4 4
v ACL_RT_DEVICE_STATE_SET_PRE 0 4 1
v ACL_RT_DEVICE_STATE_SET_POST 1 4 1
v ACL_RT_DEVICE_STATE_RESET_PRE 2 4 1
v ACL_RT_DEVICE_STATE_RESET_POST 3 4 1
s aclrtDeviceStateCallback 8 8
s aclrtDeviceTaskAbortStage 4 4
v ACL_RT_DEVICE_TASK_ABORT_PRE 0 4 1
v ACL_RT_DEVICE_TASK_ABORT_POST 1 4 1
s aclrtDeviceTaskAbortCallback 8 8
d aclrtGroupInfo
s aclrtGroupAttr 4 4
v ACL_GROUP_AICORE_INT 0 4 1
v ACL_GROUP_AIV_INT 1 4 1
v ACL_GROUP_AIC_INT 2 4 1
v ACL_GROUP_SDMANUM_INT 3 4 1
v ACL_GROUP_ASQNUM_INT 4 4 1
v ACL_GROUP_GROUPID_INT 5 4 1
s aclrtHacType 4 4
v ACL_RT_HAC_TYPE_STARS 0 4 1
v ACL_RT_HAC_TYPE_AICPU 1 4 1
v ACL_RT_HAC_TYPE_AIC 2 4 1
v ACL_RT_HAC_TYPE_AIV 3 4 1
v ACL_RT_HAC_TYPE_PCIEDMA 4 4 1
v ACL_RT_HAC_TYPE_RDMA 5 4 1
v ACL_RT_HAC_TYPE_SDMA 6 4 1
v ACL_RT_HAC_TYPE_DVPP 7 4 1
v ACL_RT_HAC_TYPE_UDMA 8 4 1
v ACL_RT_HAC_TYPE_CCU 9 4 1
s aclrtAtomicOperationCapability 4 4
v ACL_RT_ATOMIC_CAPABILITY_SIGNED 1 4 1
v ACL_RT_ATOMIC_CAPABILITY_UNSIGNED 2 4 1
v ACL_RT_ATOMIC_CAPABILITY_REDUCATION 4 4 1
v ACL_RT_ATOMIC_CAPABILITY_REDUCTION 4 4 1
v ACL_RT_ATOMIC_CAPABILITY_SCALAR8 8 4 1
v ACL_RT_ATOMIC_CAPABILITY_SCALAR16 16 4 1
v ACL_RT_ATOMIC_CAPABILITY_SCALAR32 32 4 1
v ACL_RT_ATOMIC_CAPABILITY_SCALAR64 64 4 1
v ACL_RT_ATOMIC_CAPABILITY_SCALAR128 128 4 1
v ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 256 4 1
s aclrtAtomicOperation 4 4
v ACL_RT_ATOMIC_OPERATION_INTEGER_ADD 0 4 1
v ACL_RT_ATOMIC_OPERATION_INTEGER_MIN 1 4 1
v ACL_RT_ATOMIC_OPERATION_INTEGER_MAX 2 4 1
v ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT 3 4 1
v ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT 4 4 1
v ACL_RT_ATOMIC_OPERATION_AND 5 4 1
v ACL_RT_ATOMIC_OPERATION_OR 6 4 1
v ACL_RT_ATOMIC_OPERATION_XOR 7 4 1
v ACL_RT_ATOMIC_OPERATION_EXCHANGE 8 4 1
v ACL_RT_ATOMIC_OPERATION_CAS 9 4 1
v ACL_RT_ATOMIC_OPERATION_FLOAT_ADD 10 4 1
v ACL_RT_ATOMIC_OPERATION_FLOAT_MIN 11 4 1
v ACL_RT_ATOMIC_OPERATION_FLOAT_MAX 12 4 1
v ACL_RT_ATOMIC_OPERATION_DMA_ADD 30 4 1
v ACL_RT_ATOMIC_OPERATION_DMA_MIN 31 4 1
v ACL_RT_ATOMIC_OPERATION_DMA_MAX 32 4 1
v ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD 40 4 1
v ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN 41 4 1
v ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX 42 4 1
v ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS 43 4 1
v ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH 44 4 1
s aclrtProcessState 4 4
v ACL_RT_PROCESS_STATE_RUNNING 0 4 1
v ACL_RT_PROCESS_STATE_LOCKED 1 4 1
s aclrtLastErrLevel 4 4
v ACL_RT_THREAD_LEVEL 0 4 1
s aclrtStreamStatus 4 4
v ACL_STREAM_STATUS_COMPLETE 0 4 1
v ACL_STREAM_STATUS_NOT_READY 1 4 1
v ACL_STREAM_STATUS_RESERVED 65535 4 1
s aclrtStreamConfigAttr 4 4
v ACL_RT_STREAM_WORK_ADDR_PTR 0 4 1
v ACL_RT_STREAM_WORK_SIZE 1 4 1
v ACL_RT_STREAM_FLAG 2 4 1
v ACL_RT_STREAM_PRIORITY 3 4 1
s aclrtStreamConfigHandle 32 8
o aclrtStreamConfigHandle workptr 0 8
o aclrtStreamConfigHandle workSize 8 8
o aclrtStreamConfigHandle flag 16 8
o aclrtStreamConfigHandle priority 24 4
s aclrtStreamAttr 4 4
v ACL_STREAM_ATTR_FAILURE_MODE 1 4 1
v ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK 2 4 1
v ACL_STREAM_ATTR_USER_CUSTOM_TAG 3 4 1
v ACL_STREAM_ATTR_CACHE_OP_INFO 4 4 1
v ACL_STREAM_ATTR_PRIORITY 5 4 1
s aclrtStreamAttrValue 16 8
o aclrtStreamAttrValue failureMode 0 8
o aclrtStreamAttrValue overflowSwitch 0 4
o aclrtStreamAttrValue userCustomTag 0 4
o aclrtStreamAttrValue cacheOpInfoSwitch 0 4
o aclrtStreamAttrValue streamPriority 0 4
o aclrtStreamAttrValue reserve 0 16
s aclrtStreamState 4 4
v ACL_RT_STREAM_STATE_CREATE_POST 1 4 1
v ACL_RT_STREAM_STATE_DESTROY_PRE 2 4 1
s aclrtStreamStateCallback 8 8
s aclrtEventStatus 4 4
v ACL_EVENT_STATUS_COMPLETE 0 4 1
v ACL_EVENT_STATUS_NOT_READY 1 4 1
v ACL_EVENT_STATUS_RESERVED 2 4 1
s aclrtEventRecordedStatus 4 4
v ACL_EVENT_RECORDED_STATUS_NOT_READY 0 4 1
v ACL_EVENT_RECORDED_STATUS_COMPLETE 1 4 1
s aclrtEventWaitStatus 4 4
v ACL_EVENT_WAIT_STATUS_COMPLETE 0 4 1
v ACL_EVENT_WAIT_STATUS_NOT_READY 1 4 1
v ACL_EVENT_WAIT_STATUS_RESERVED 65535 4 1
s aclrtIpcEventHandle 64 1
o aclrtIpcEventHandle reserved 0 64
s aclrtCntNotifyRecordMode 4 4
v ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE 0 4 1
v ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE 1 4 1
v ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE 2 4 1
v ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE 4 4 1
s aclrtCntNotifyRecordInfo 8 4
o aclrtCntNotifyRecordInfo mode 0 4
o aclrtCntNotifyRecordInfo value 4 4
s aclrtCntNotifyWaitMode 4 4
v ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE 0 4 1
v ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE 1 4 1
v ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE 2 4 1
v ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE 3 4 1
v ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE 4 4 1
s aclrtCntNotifyWaitInfo 16 4
o aclrtCntNotifyWaitInfo mode 0 4
o aclrtCntNotifyWaitInfo value 4 4
o aclrtCntNotifyWaitInfo timeout 8 4
o aclrtCntNotifyWaitInfo isClear 12 1
o aclrtCntNotifyWaitInfo rsv 13 3
s aclrtCallbackBlockType 4 4
v ACL_CALLBACK_NO_BLOCK 0 4 1
v ACL_CALLBACK_BLOCK 1 4 1
s aclrtCallback 8 8
s aclrtHostFunc 8 8
d aclrtExceptionInfo
s aclrtExceptionInfoCallback 8 8
s aclrtOpExceptionCallback 8 8
s aclrtErrorType 4 4
v ACL_RT_NO_ERROR 0 4 1
v ACL_RT_ERROR_MEMORY 1 4 1
v ACL_RT_ERROR_L2 2 4 1
v ACL_RT_ERROR_AICORE 3 4 1
v ACL_RT_ERROR_LINK 4 4 1
v ACL_RT_ERROR_L3_PORT 5 4 1
v ACL_RT_ERROR_OTHERS 65535 4 1
s aclrtAicoreErrorType 4 4
v ACL_RT_AICORE_ERROR_UNKNOWN 0 4 1
v ACL_RT_AICORE_ERROR_SW 1 4 1
v ACL_RT_AICORE_ERROR_HW_LOCAL 2 4 1
s aclrtMemUceInfo 128 8
o aclrtMemUceInfo addr 0 8
o aclrtMemUceInfo len 8 8
o aclrtMemUceInfo reserved 16 112
s aclrtMemUceInfoArray 2568 8
o aclrtMemUceInfoArray arraySize 0 8
o aclrtMemUceInfoArray memUceInfoArray 8 2560
s aclrtErrorInfoDetail 2568 8
o aclrtErrorInfoDetail uceInfo 0 2568
o aclrtErrorInfoDetail aicoreErrType 0 4
s aclrtErrorInfo 2576 8
o aclrtErrorInfo tryRepair 0 1
o aclrtErrorInfo hasDetail 1 1
o aclrtErrorInfo reserved 2 2
o aclrtErrorInfo errorType 4 4
o aclrtErrorInfo detail 8 2568
s aclrtMemcpyKind 4 4
v ACL_MEMCPY_HOST_TO_HOST 0 4 1
v ACL_MEMCPY_HOST_TO_DEVICE 1 4 1
v ACL_MEMCPY_DEVICE_TO_HOST 2 4 1
v ACL_MEMCPY_DEVICE_TO_DEVICE 3 4 1
v ACL_MEMCPY_DEFAULT 4 4 1
v ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE 5 4 1
v ACL_MEMCPY_INNER_DEVICE_TO_DEVICE 6 4 1
v ACL_MEMCPY_INTER_DEVICE_TO_DEVICE 7 4 1
s aclrtMemMallocPolicy 4 4
v ACL_MEM_MALLOC_HUGE_FIRST 0 4 1
v ACL_MEM_MALLOC_HUGE_ONLY 1 4 1
v ACL_MEM_MALLOC_NORMAL_ONLY 2 4 1
v ACL_MEM_MALLOC_HUGE_FIRST_P2P 3 4 1
v ACL_MEM_MALLOC_HUGE_ONLY_P2P 4 4 1
v ACL_MEM_MALLOC_NORMAL_ONLY_P2P 5 4 1
v ACL_MEM_MALLOC_HUGE1G_ONLY 6 4 1
v ACL_MEM_MALLOC_HUGE1G_ONLY_P2P 7 4 1
v ACL_MEM_TYPE_LOW_BAND_WIDTH 256 4 1
v ACL_MEM_TYPE_HIGH_BAND_WIDTH 4096 4 1
v ACL_MEM_ACCESS_USER_SPACE_READONLY 1048576 4 1
s aclrtMemAttr 4 4
v ACL_DDR_MEM 0 4 1
v ACL_HBM_MEM 1 4 1
v ACL_DDR_MEM_HUGE 2 4 1
v ACL_DDR_MEM_NORMAL 3 4 1
v ACL_HBM_MEM_HUGE 4 4 1
v ACL_HBM_MEM_NORMAL 5 4 1
v ACL_DDR_MEM_P2P_HUGE 6 4 1
v ACL_DDR_MEM_P2P_NORMAL 7 4 1
v ACL_HBM_MEM_P2P_HUGE 8 4 1
v ACL_HBM_MEM_P2P_NORMAL 9 4 1
v ACL_HBM_MEM_HUGE1G 10 4 1
v ACL_HBM_MEM_P2P_HUGE1G 11 4 1
v ACL_MEM_NORMAL 12 4 1
v ACL_MEM_HUGE 13 4 1
v ACL_MEM_HUGE1G 14 4 1
v ACL_MEM_P2P_NORMAL 15 4 1
v ACL_MEM_P2P_HUGE 16 4 1
v ACL_MEM_P2P_HUGE1G 17 4 1
s enum:aclrtMemPgType 4 4
v NORMAL_PAGE_TYPE 0 4 1
v HUGE_PAGE_TYPE 1 4 1
v HUGE1G_PAGE_TYPE 2 4 1
s enum:aclrtMemType 4 4
v HBM_TYPE 0 4 1
v DDR_TYPE 1 4 1
v P2P_HBM_TYPE 2 4 1
v P2P_DDR_TYPE 3 4 1
s struct:MemAttrMapping 16 4
o struct:MemAttrMapping pgType 0 4
o struct:MemAttrMapping memType 4 4
o struct:MemAttrMapping isHostAlloc 8 1
o struct:MemAttrMapping memAttr 12 4
s aclrtMallocAttrType 4 4
v ACL_RT_MEM_ATTR_RSV 0 4 1
v ACL_RT_MEM_ATTR_MODULE_ID 1 4 1
v ACL_RT_MEM_ATTR_DEVICE_ID 2 4 1
v ACL_RT_MEM_ATTR_VA_FLAG 3 4 1
s aclrtMallocAttrValue 8 4
o aclrtMallocAttrValue moduleId 0 2
o aclrtMallocAttrValue deviceId 0 4
o aclrtMallocAttrValue vaFlag 0 4
o aclrtMallocAttrValue rsv 0 8
s aclrtMallocAttribute 12 4
o aclrtMallocAttribute attr 0 4
o aclrtMallocAttribute value 4 8
s aclrtMallocConfig 16 8
o aclrtMallocConfig attrs 0 8
o aclrtMallocConfig numAttrs 8 8
s aclrtHostRegisterType 4 4
v ACL_HOST_REGISTER_MAPPED 0 4 1
v ACL_HOST_REGISTER_IOMEMORY 4 4 1
v ACL_HOST_REGISTER_READONLY 8 4 1
s aclrtMemLocationType 4 4
v ACL_MEM_LOCATION_TYPE_HOST 0 4 1
v ACL_MEM_LOCATION_TYPE_DEVICE 1 4 1
v ACL_MEM_LOCATION_TYPE_UNREGISTERED 2 4 1
v ACL_MEM_LOCATION_TYPE_MANAGED 3 4 1
v ACL_MEM_LOCATION_TYPE_HOST_NUMA 4 4 1
s aclrtMemLocation 8 4
o aclrtMemLocation id 0 4
o aclrtMemLocation type 4 4
s aclrtPtrAttributes 28 4
o aclrtPtrAttributes location 0 8
o aclrtPtrAttributes pageSize 8 4
o aclrtPtrAttributes rsv 12 16
s aclrtMemUsageInfo 112 8
o aclrtMemUsageInfo name 0 32
o aclrtMemUsageInfo curMemSize 32 8
o aclrtMemUsageInfo memPeakSize 40 8
o aclrtMemUsageInfo reserved 48 64
s aclrtMemManagedAdviseType 4 4
v ACL_MEM_ADVISE_SET_READ_MOSTLY 0 4 1
v ACL_MEM_ADVISE_UNSET_READ_MOSTLY 1 4 1
v ACL_MEM_ADVISE_SET_PREFERRED_LOCATION 2 4 1
v ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION 3 4 1
v ACL_MEM_ADVISE_SET_ACCESSED_BY 4 4 1
v ACL_MEM_ADVISE_UNSET_ACCESSED_BY 5 4 1
s aclrtMemManagedLocationType 4 4
v ACL_MEM_LOCATIONTYPE_INVALID 0 4 1
v ACL_MEM_LOCATIONTYPE_DEVICE 1 4 1
v ACL_MEM_LOCATIONTYPE_HOST 2 4 1
v ACL_MEM_LOCATIONTYPE_HOST_NUMA 3 4 1
v ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT 4 4 1
s aclrtMemManagedLocation 8 4
o aclrtMemManagedLocation type 0 4
o aclrtMemManagedLocation id 4 4
s aclrtMemManagedRangeAttribute 4 4
v ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY 1 4 1
v ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION 2 4 1
v ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY 3 4 1
v ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE 4 4 1
v ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID 5 4 1
v ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION 6 4 1
v ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE 7 4 1
v ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID 8 4 1
s aclrtMemAllocationType 4 4
v ACL_MEM_ALLOCATION_TYPE_PINNED 0 4 1
s aclrtMemHandleType 4 4
v ACL_MEM_HANDLE_TYPE_NONE 0 4 1
v ACL_MEM_HANDLE_TYPE_POSIX 2 4 1
s aclrtMemSharedHandleType 4 4
v ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT 1 4 1
v ACL_MEM_SHARE_HANDLE_TYPE_FABRIC 2 4 1
s aclrtMemFabricHandle 128 1
o aclrtMemFabricHandle data 0 128
s aclrtPhysicalMemProp 32 8
o aclrtPhysicalMemProp handleType 0 4
o aclrtPhysicalMemProp allocationType 4 4
o aclrtPhysicalMemProp memAttr 8 4
o aclrtPhysicalMemProp location 12 8
o aclrtPhysicalMemProp reserve 24 8
s aclrtMemGranularityOptions 4 4
v ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM 0 4 1
v ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED 1 4 1
v ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF 65535 4 1
s aclrtDrvMemHandle 8 8
s aclrtMemAccessFlags 4 4
v ACL_RT_MEM_ACCESS_FLAGS_NONE 0 4 1
v ACL_RT_MEM_ACCESS_FLAGS_READ 1 4 1
v ACL_RT_MEM_ACCESS_FLAGS_READWRITE 3 4 1
s aclrtMemAccessDesc 24 4
o aclrtMemAccessDesc flags 0 4
o aclrtMemAccessDesc location 4 8
o aclrtMemAccessDesc rsv 12 12
s aclrtMemLinkType 4 4
v ACL_RT_MEM_ACCESS_LINK_SIO 0 4 1
v ACL_RT_MEM_ACCESS_LINK_HCCS 1 4 1
v ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH 2 4 1
v ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH 3 4 1
s aclrtHostMemMapCapability 4 4
v ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED 0 4 1
v ACL_RT_HOST_MEM_MAP_SUPPORTED 1 4 1
s aclrtIpcMemAttrType 4 4
v ACL_RT_IPC_MEM_ATTR_ACCESS_LINK 0 4 1
s aclrtServerPid 24 8
o aclrtServerPid sdid 0 4
o aclrtServerPid pid 8 8
o aclrtServerPid num 16 8
s aclrtMemcpyBatchAttr 32 4
o aclrtMemcpyBatchAttr dstLoc 0 8
o aclrtMemcpyBatchAttr srcLoc 8 8
o aclrtMemcpyBatchAttr rsv 16 16
s aclrtReduceKind 4 4
v ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM 10 4 1
v ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX 11 4 1
v ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN 12 4 1
v ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL 13 4 1
s aclrtCmoType 4 4
v ACL_RT_CMO_TYPE_PREFETCH 0 4 1
v ACL_RT_CMO_TYPE_WRITEBACK 1 4 1
v ACL_RT_CMO_TYPE_INVALID 2 4 1
v ACL_RT_CMO_TYPE_FLUSH 3 4 1
s aclrtBarrierCmoInfo 8 4
o aclrtBarrierCmoInfo cmoType 0 4
o aclrtBarrierCmoInfo barrierId 4 4
s aclrtBarrierTaskInfo 56 8
o aclrtBarrierTaskInfo barrierNum 0 8
o aclrtBarrierTaskInfo cmoInfo 8 48
s aclrtBinary 8 8
s aclrtBinHandle 8 8
s aclrtFuncHandle 8 8
s aclrtArgsHandle 8 8
s aclrtParamHandle 8 8
s aclrtBinaryLoadOptionType 4 4
v ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD 1 4 1
v ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC 2 4 1
v ACL_RT_BINARY_LOAD_OPT_MAGIC 2 4 1
v ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE 3 4 1
s aclrtBinaryLoadOptionValue 16 4
o aclrtBinaryLoadOptionValue isLazyLoad 0 4
o aclrtBinaryLoadOptionValue magic 0 4
o aclrtBinaryLoadOptionValue cpuKernelMode 0 4
o aclrtBinaryLoadOptionValue rsv 0 16
s aclrtBinaryLoadOption 20 4
o aclrtBinaryLoadOption type 0 4
o aclrtBinaryLoadOption value 4 16
s aclrtBinaryLoadOptions 16 8
o aclrtBinaryLoadOptions options 0 8
o aclrtBinaryLoadOptions numOpt 8 8
s aclrtEngineType 4 4
v ACL_RT_ENGINE_TYPE_AIC 0 4 1
v ACL_RT_ENGINE_TYPE_AIV 1 4 1
s dim3 12 4
o dim3 x 0 4
o dim3 y 4 4
o dim3 z 8 4
s aclrtLaunchKernelAttrId 4 4
v ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE 1 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE 2 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE 2 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE 3 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET 4 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH 5 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP 6 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT 7 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US 8 4 1
v ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING 9 4 1
s aclrtTimeoutUs 8 4
o aclrtTimeoutUs timeoutLow 0 4
o aclrtTimeoutUs timeoutHigh 4 4
s aclrtLaunchKernelAttrValue 16 4
o aclrtLaunchKernelAttrValue schemMode 0 1
o aclrtLaunchKernelAttrValue localMemorySize 0 4
o aclrtLaunchKernelAttrValue dynUBufSize 0 4
o aclrtLaunchKernelAttrValue engineType 0 4
o aclrtLaunchKernelAttrValue blockDimOffset 0 4
o aclrtLaunchKernelAttrValue isBlockTaskPrefetch 0 1
o aclrtLaunchKernelAttrValue isDataDump 0 1
o aclrtLaunchKernelAttrValue timeout 0 2
o aclrtLaunchKernelAttrValue timeoutUs 0 8
o aclrtLaunchKernelAttrValue enableProfiling 0 1
o aclrtLaunchKernelAttrValue rsv 0 16
s aclrtLaunchKernelAttr 20 4
o aclrtLaunchKernelAttr id 0 4
o aclrtLaunchKernelAttr value 4 16
s aclrtLaunchKernelCfg 16 8
o aclrtLaunchKernelCfg attrs 0 8
o aclrtLaunchKernelCfg numAttrs 8 8
s aclrtPlaceHolderInfo 8 4
o aclrtPlaceHolderInfo addrOffset 0 4
o aclrtPlaceHolderInfo dataOffset 4 4
s aclrtFuncAttribute 4 4
v ACL_FUNC_ATTR_KERNEL_TYPE 1 4 1
v ACL_FUNC_ATTR_KERNEL_RATIO 2 4 1
v ACL_FUNC_ATTR_KERNEL_SCHED_MODE 3 4 1
s aclrtKernelType 4 4
v ACL_KERNEL_TYPE_AICORE 0 4 1
v ACL_KERNEL_TYPE_CUBE 1 4 1
v ACL_KERNEL_TYPE_VECTOR 2 4 1
v ACL_KERNEL_TYPE_MIX 3 4 1
v ACL_KERNEL_TYPE_AICPU 100 4 1
s aclmdlRI 8 8
s aclmdlRICaptureMode 4 4
v ACL_MODEL_RI_CAPTURE_MODE_GLOBAL 0 4 1
v ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL 1 4 1
v ACL_MODEL_RI_CAPTURE_MODE_RELAXED 2 4 1
s aclmdlRICaptureStatus 4 4
v ACL_MODEL_RI_CAPTURE_STATUS_NONE 0 4 1
v ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE 1 4 1
v ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED 2 4 1
s aclmdlRITaskType 4 4
v ACL_MODEL_RI_TASK_DEFAULT 0 4 1
v ACL_MODEL_RI_TASK_KERNEL 1 4 1
v ACL_MODEL_RI_TASK_EVENT_RECORD 2 4 1
v ACL_MODEL_RI_TASK_EVENT_WAIT 3 4 1
v ACL_MODEL_RI_TASK_EVENT_RESET 4 4 1
v ACL_MODEL_RI_TASK_VALUE_WRITE 5 4 1
v ACL_MODEL_RI_TASK_VALUE_WAIT 6 4 1
s aclmdlRIKernelTaskParams 88 8
o aclmdlRIKernelTaskParams funcHandle 0 8
o aclmdlRIKernelTaskParams cfg 8 8
o aclmdlRIKernelTaskParams args 16 8
o aclmdlRIKernelTaskParams isHostArgs 24 4
o aclmdlRIKernelTaskParams argsSize 32 8
o aclmdlRIKernelTaskParams numBlocks 40 4
o aclmdlRIKernelTaskParams rsv 44 40
s aclmdlRIEventRecordTaskParams 16 8
o aclmdlRIEventRecordTaskParams event 0 8
o aclmdlRIEventRecordTaskParams eventFlag 8 4
o aclmdlRIEventRecordTaskParams recordFlag 12 4
s aclmdlRIEventWaitTaskParams 16 8
o aclmdlRIEventWaitTaskParams event 0 8
o aclmdlRIEventWaitTaskParams eventFlag 8 4
o aclmdlRIEventWaitTaskParams waitFlag 12 4
s aclmdlRIEventResetTaskParams 16 8
o aclmdlRIEventResetTaskParams event 0 8
o aclmdlRIEventResetTaskParams eventFlag 8 4
o aclmdlRIEventResetTaskParams resetFlag 12 4
s aclmdlRIValueWriteTaskParams 16 8
o aclmdlRIValueWriteTaskParams devAddr 0 8
o aclmdlRIValueWriteTaskParams value 8 8
s aclmdlRIValueWaitTaskParams 24 8
o aclmdlRIValueWaitTaskParams devAddr 0 8
o aclmdlRIValueWaitTaskParams value 8 8
o aclmdlRIValueWaitTaskParams flag 16 4
s aclmdlRITaskParams 200 8
o aclmdlRITaskParams type 0 4
o aclmdlRITaskParams rsv0 4 12
o aclmdlRITaskParams taskGrp 16 8
o aclmdlRITaskParams opInfoPtr 24 8
o aclmdlRITaskParams opInfoSize 32 8
o aclmdlRITaskParams rsv1 40 32
o aclmdlRITaskParams rsv2 72 128
o aclmdlRITaskParams kernelTaskParams 72 88
o aclmdlRITaskParams eventRecordTaskParams 72 16
o aclmdlRITaskParams eventWaitTaskParams 72 16
o aclmdlRITaskParams eventResetTaskParams 72 16
o aclmdlRITaskParams valueWriteTaskParams 72 16
o aclmdlRITaskParams valueWaitTaskParams 72 24
s aclmdlRICondHandle 8 8
s aclmdlRICondHandleFlag 4 4
v ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT 1 4 1
s aclmdlRICondTaskType 4 4
v ACL_MODEL_RI_COND_TYPE_IF 0 4 1
v ACL_MODEL_RI_COND_TYPE_WHILE 1 4 1
v ACL_MODEL_RI_COND_TYPE_SWITCH 2 4 1
s aclmdlRICondTaskParams 24 8
o aclmdlRICondTaskParams handle 0 8
o aclmdlRICondTaskParams type 8 4
o aclmdlRICondTaskParams size 12 4
o aclmdlRICondTaskParams modelRIArray 16 8
s aclrtCondition 4 4
v ACL_RT_EQUAL 0 4 1
v ACL_RT_NOT_EQUAL 1 4 1
v ACL_RT_GREATER 2 4 1
v ACL_RT_GREATER_OR_EQUAL 3 4 1
v ACL_RT_LESS 4 4 1
v ACL_RT_LESS_OR_EQUAL 5 4 1
s aclrtCompareDataType 4 4
v ACL_RT_SWITCH_INT32 0 4 1
v ACL_RT_SWITCH_INT64 1 4 1
s aclrtRandomParaInfo 16 1
o aclrtRandomParaInfo isAddr 0 1
o aclrtRandomParaInfo valueOrAddr 1 8
o aclrtRandomParaInfo size 9 1
o aclrtRandomParaInfo rsv 10 6
s aclrtDropoutBitmaskInfo 16 1
o aclrtDropoutBitmaskInfo dropoutRation 0 16
s aclrtUniformDisInfo 32 1
o aclrtUniformDisInfo min 0 16
o aclrtUniformDisInfo max 16 16
s aclrtNormalDisInfo 32 1
o aclrtNormalDisInfo mean 0 16
o aclrtNormalDisInfo stddev 16 16
s aclrtRandomNumFuncType 4 4
v ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK 0 4 1
v ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS 1 4 1
v ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS 2 4 1
v ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS 3 4 1
s aclrtRandomNumFuncParaInfo 36 4
o aclrtRandomNumFuncParaInfo funcType 0 4
o aclrtRandomNumFuncParaInfo paramInfo 4 32
o aclrtRandomNumFuncParaInfo paramInfo.dropoutBitmaskInfo 4 16
o aclrtRandomNumFuncParaInfo paramInfo.uniformDisInfo 4 32
o aclrtRandomNumFuncParaInfo paramInfo.normalDisInfo 4 32
s aclrtRandomNumTaskInfo 104 8
o aclrtRandomNumTaskInfo dataType 0 4
o aclrtRandomNumTaskInfo randomNumFuncParaInfo 4 36
o aclrtRandomNumTaskInfo randomParaAddr 40 8
o aclrtRandomNumTaskInfo randomResultAddr 48 8
o aclrtRandomNumTaskInfo randomCounterAddr 56 8
o aclrtRandomNumTaskInfo randomSeed 64 16
o aclrtRandomNumTaskInfo randomNum 80 16
o aclrtRandomNumTaskInfo rsv 96 8
s aclrtUpdateTaskAttrId 4 4
v ACL_RT_UPDATE_RANDOM_TASK 1 4 1
v ACL_RT_UPDATE_AIC_AIV_TASK 2 4 1
s aclrtRandomTaskUpdateAttr 32 8
o aclrtRandomTaskUpdateAttr srcAddr 0 8
o aclrtRandomTaskUpdateAttr size 8 8
o aclrtRandomTaskUpdateAttr rsv 16 16
s aclrtAicAivTaskUpdateAttr 40 8
o aclrtAicAivTaskUpdateAttr binHandle 0 8
o aclrtAicAivTaskUpdateAttr funcEntryAddr 8 8
o aclrtAicAivTaskUpdateAttr blockDimAddr 16 8
o aclrtAicAivTaskUpdateAttr rsv 24 16
s aclrtUpdateTaskAttrVal 40 8
o aclrtUpdateTaskAttrVal randomTaskAttr 0 32
o aclrtUpdateTaskAttrVal aicAivTaskAttr 0 40
s aclrtTaskUpdateInfo 48 8
o aclrtTaskUpdateInfo id 0 4
o aclrtTaskUpdateInfo val 8 40
s aclrtSnapShotStage 4 4
v ACL_RT_SNAPSHOT_LOCK_PRE 0 4 1
v ACL_RT_SNAPSHOT_BACKUP_PRE 1 4 1
v ACL_RT_SNAPSHOT_BACKUP_POST 2 4 1
v ACL_RT_SNAPSHOT_RESTORE_PRE 3 4 1
v ACL_RT_SNAPSHOT_RESTORE_POST 4 4 1
v ACL_RT_SNAPSHOT_UNLOCK_POST 5 4 1
s aclrtSnapShotCallBack 8 8
s aclrtSnapShotBackupArgs 64 4
o aclrtSnapShotBackupArgs backupFlags 0 4
o aclrtSnapShotBackupArgs reserved 4 60
s aclrtSnapShotRestoreArgs 64 4
o aclrtSnapShotRestoreArgs restoreFlags 0 4
o aclrtSnapShotRestoreArgs reserved 4 60
s aclCANNPackageName 4 4
v ACL_PKG_NAME_CANN 0 4 1
v ACL_PKG_NAME_RUNTIME 1 4 1
v ACL_PKG_NAME_COMPILER 2 4 1
v ACL_PKG_NAME_HCCL 3 4 1
v ACL_PKG_NAME_TOOLKIT 4 4 1
v ACL_PKG_NAME_OPP 5 4 1
v ACL_PKG_NAME_OPP_KERNEL 6 4 1
v ACL_PKG_NAME_DRIVER 7 4 1
s aclCANNPackageVersion 512 1
o aclCANNPackageVersion version 0 128
o aclCANNPackageVersion majorVersion 128 64
o aclCANNPackageVersion minorVersion 192 64
o aclCANNPackageVersion releaseVersion 256 64
o aclCANNPackageVersion patchVersion 320 64
o aclCANNPackageVersion reserved 384 128
s aclRegisterCallbackType 4 4
v ACL_REG_TYPE_ACL_MODEL 0 4 1
v ACL_REG_TYPE_ACL_OP_EXECUTOR 1 4 1
v ACL_REG_TYPE_ACL_OP_CBLAS 2 4 1
v ACL_REG_TYPE_ACL_OP_COMPILER 3 4 1
v ACL_REG_TYPE_ACL_TDT_CHANNEL 4 4 1
v ACL_REG_TYPE_ACL_TDT_QUEUE 5 4 1
v ACL_REG_TYPE_ACL_DVPP 6 4 1
v ACL_REG_TYPE_ACL_RETR 7 4 1
v ACL_REG_TYPE_OTHER 65535 4 1
s aclInitCallbackFunc 8 8
s aclFinalizeCallbackFunc 8 8
s aclrtAllocatorAllocFunc 8 8
s aclrtAllocatorFreeFunc 8 8
s aclrtAllocatorAllocAdviseFunc 8 8
s aclrtAllocatorGetAddrFromBlockFunc 8 8
s aclrtMemPool 8 8
s aclrtMemPoolAttr 4 4
v ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES 1 4 1
v ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC 2 4 1
v ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES 3 4 1
v ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD 4 4 1
v ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT 5 4 1
v ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH 6 4 1
v ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT 7 4 1
v ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH 8 4 1
s aclrtMemPoolProps 56 8
o aclrtMemPoolProps allocType 0 4
o aclrtMemPoolProps handleType 4 4
o aclrtMemPoolProps location 8 8
o aclrtMemPoolProps maxSize 16 8
o aclrtMemPoolProps reserved 24 32
v ACL_RT_SUCCESS 0 4 1
v ACL_ERROR_RT_PARAM_INVALID 107000 4 1
v ACL_ERROR_RT_INVALID_DEVICEID 107001 4 1
v ACL_ERROR_RT_CONTEXT_NULL 107002 4 1
v ACL_ERROR_RT_STREAM_CONTEXT 107003 4 1
v ACL_ERROR_RT_MODEL_CONTEXT 107004 4 1
v ACL_ERROR_RT_STREAM_MODEL 107005 4 1
v ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID 107006 4 1
v ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL 107007 4 1
v ACL_ERROR_RT_ADDR_UNALIGNED 107008 4 1
v ACL_ERROR_RT_FILE_OPEN 107009 4 1
v ACL_ERROR_RT_FILE_WRITE 107010 4 1
v ACL_ERROR_RT_STREAM_SUBSCRIBE 107011 4 1
v ACL_ERROR_RT_THREAD_SUBSCRIBE 107012 4 1
v ACL_ERROR_RT_GROUP_NOT_SET 107013 4 1
v ACL_ERROR_RT_GROUP_NOT_CREATE 107014 4 1
v ACL_ERROR_RT_STREAM_NO_CB_REG 107015 4 1
v ACL_ERROR_RT_INVALID_MEMORY_TYPE 107016 4 1
v ACL_ERROR_RT_INVALID_HANDLE 107017 4 1
v ACL_ERROR_RT_INVALID_MALLOC_TYPE 107018 4 1
v ACL_ERROR_RT_WAIT_TIMEOUT 107019 4 1
v ACL_ERROR_RT_TASK_TIMEOUT 107020 4 1
v ACL_ERROR_RT_SYSPARAMOPT_NOT_SET 107021 4 1
v ACL_ERROR_RT_DEVICE_TASK_ABORT 107022 4 1
v ACL_ERROR_RT_STREAM_ABORT 107023 4 1
v ACL_ERROR_RT_CAPTURE_DEPENDENCY 107024 4 1
v ACL_ERROR_RT_STREAM_UNJOINED 107025 4 1
v ACL_ERROR_RT_MODEL_CAPTURED 107026 4 1
v ACL_ERROR_RT_STREAM_CAPTURED 107027 4 1
v ACL_ERROR_RT_EVENT_CAPTURED 107028 4 1
v ACL_ERROR_RT_STREAM_NOT_CAPTURED 107029 4 1
v ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT 107030 4 1
v ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT 107031 4 1
v ACL_ERROR_STREAM_CAPTURE_CONFLICT 107032 4 1
v ACL_ERROR_STREAM_TASK_GROUP_STATUS 107033 4 1
v ACL_ERROR_STREAM_TASK_GROUP_INTR 107034 4 1
v ACL_ERROR_RT_TASK_ABORT_STOP 107035 4 1
v ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED 107036 4 1
v ACL_ERROR_RT_MODEL_RUNNING 107037 4 1
v ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD 107038 4 1
v ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY 107039 4 1
v ACL_ERROR_RT_MODEL_UPDATE_FAILED 107040 4 1
v ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC 107041 4 1
v ACL_ERROR_RT_SYMBOL_NOT_FOUND 107042 4 1
v ACL_ERROR_RT_INVALID_SYMBOL 107043 4 1
v ACL_ERROR_RT_INVALID_DEVICE_FUNCTION 107044 4 1
v ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING 107045 4 1
v ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000 4 1
v ACL_ERROR_RT_MEMORY_ALLOCATION 207001 4 1
v ACL_ERROR_RT_MEMORY_FREE 207002 4 1
v ACL_ERROR_RT_AICORE_OVER_FLOW 207003 4 1
v ACL_ERROR_RT_NO_DEVICE 207004 4 1
v ACL_ERROR_RT_RESOURCE_ALLOC_FAIL 207005 4 1
v ACL_ERROR_RT_NO_PERMISSION 207006 4 1
v ACL_ERROR_RT_NO_EVENT_RESOURCE 207007 4 1
v ACL_ERROR_RT_NO_STREAM_RESOURCE 207008 4 1
v ACL_ERROR_RT_NO_NOTIFY_RESOURCE 207009 4 1
v ACL_ERROR_RT_NO_MODEL_RESOURCE 207010 4 1
v ACL_ERROR_RT_NO_CDQ_RESOURCE 207011 4 1
v ACL_ERROR_RT_OVER_LIMIT 207012 4 1
v ACL_ERROR_RT_QUEUE_EMPTY 207013 4 1
v ACL_ERROR_RT_QUEUE_FULL 207014 4 1
v ACL_ERROR_RT_REPEATED_INIT 207015 4 1
v ACL_ERROR_RT_AIVEC_OVER_FLOW 207016 4 1
v ACL_ERROR_RT_OVER_FLOW 207017 4 1
v ACL_ERROR_RT_DEVICE_OOM 207018 4 1
v ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP 207019 4 1
v ACL_ERROR_RT_TIMEOUT 207020 4 1
v ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED 207021 4 1
v ACL_ERROR_RT_INTERNAL_ERROR 507000 4 1
v ACL_ERROR_RT_TS_ERROR 507001 4 1
v ACL_ERROR_RT_STREAM_TASK_FULL 507002 4 1
v ACL_ERROR_RT_STREAM_TASK_EMPTY 507003 4 1
v ACL_ERROR_RT_STREAM_NOT_COMPLETE 507004 4 1
v ACL_ERROR_RT_END_OF_SEQUENCE 507005 4 1
v ACL_ERROR_RT_EVENT_NOT_COMPLETE 507006 4 1
v ACL_ERROR_RT_CONTEXT_RELEASE_ERROR 507007 4 1
v ACL_ERROR_RT_SOC_VERSION 507008 4 1
v ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT 507009 4 1
v ACL_ERROR_RT_LOST_HEARTBEAT 507010 4 1
v ACL_ERROR_RT_MODEL_EXECUTE 507011 4 1
v ACL_ERROR_RT_REPORT_TIMEOUT 507012 4 1
v ACL_ERROR_RT_SYS_DMA 507013 4 1
v ACL_ERROR_RT_AICORE_TIMEOUT 507014 4 1
v ACL_ERROR_RT_AICORE_EXCEPTION 507015 4 1
v ACL_ERROR_RT_AICORE_TRAP_EXCEPTION 507016 4 1
v ACL_ERROR_RT_AICPU_TIMEOUT 507017 4 1
v ACL_ERROR_RT_AICPU_EXCEPTION 507018 4 1
v ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR 507019 4 1
v ACL_ERROR_RT_AICPU_MODEL_RSP_ERR 507020 4 1
v ACL_ERROR_RT_PROFILING_ERROR 507021 4 1
v ACL_ERROR_RT_IPC_ERROR 507022 4 1
v ACL_ERROR_RT_MODEL_ABORT_NORMAL 507023 4 1
v ACL_ERROR_RT_KERNEL_UNREGISTERING 507024 4 1
v ACL_ERROR_RT_RINGBUFFER_NOT_INIT 507025 4 1
v ACL_ERROR_RT_RINGBUFFER_NO_DATA 507026 4 1
v ACL_ERROR_RT_KERNEL_LOOKUP 507027 4 1
v ACL_ERROR_RT_KERNEL_DUPLICATE 507028 4 1
v ACL_ERROR_RT_DEBUG_REGISTER_FAIL 507029 4 1
v ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL 507030 4 1
v ACL_ERROR_RT_LABEL_CONTEXT 507031 4 1
v ACL_ERROR_RT_PROGRAM_USE_OUT 507032 4 1
v ACL_ERROR_RT_DEV_SETUP_ERROR 507033 4 1
v ACL_ERROR_RT_VECTOR_CORE_TIMEOUT 507034 4 1
v ACL_ERROR_RT_VECTOR_CORE_EXCEPTION 507035 4 1
v ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION 507036 4 1
v ACL_ERROR_RT_CDQ_BATCH_ABNORMAL 507037 4 1
v ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR 507038 4 1
v ACL_ERROR_RT_DIE_SET_ERROR 507039 4 1
v ACL_ERROR_RT_INVALID_DIEID 507040 4 1
v ACL_ERROR_RT_DIE_MODE_NOT_SET 507041 4 1
v ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW 507042 4 1
v ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW 507043 4 1
v ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW 507044 4 1
v ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW 507045 4 1
v ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046 4 1
v ACL_ERROR_RT_EVENT_SYNC_TIMEOUT 507047 4 1
v ACL_ERROR_RT_FFTS_PLUS_TIMEOUT 507048 4 1
v ACL_ERROR_RT_FFTS_PLUS_EXCEPTION 507049 4 1
v ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION 507050 4 1
v ACL_ERROR_RT_SEND_MSG 507051 4 1
v ACL_ERROR_RT_COPY_DATA 507052 4 1
v ACL_ERROR_RT_DEVICE_MEM_ERROR 507053 4 1
v ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR 507054 4 1
v ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR 507055 4 1
v ACL_ERROR_RT_LINK_ERROR 507056 4 1
v ACL_ERROR_RT_SUSPECT_REMOTE_ERROR 507057 4 1
v ACL_ERROR_RT_DRV_INTERNAL_ERROR 507899 4 1
v ACL_ERROR_RT_AICPU_INTERNAL_ERROR 507900 4 1
v ACL_ERROR_RT_SOCKET_CLOSE 507901 4 1
v ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR 507902 4 1
v ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED 507903 4 1
v ACL_ERROR_RT_COMM_OP_RETRY_FAIL 507904 4 1
v ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT 507905 4 1
v ACL_ERROR_SNAPSHOT_LOCK_FAILED 507906 4 1
v ACL_ERROR_SNAPSHOT_UNLOCK_FAILED 507907 4 1
v ACL_ERROR_SNAPSHOT_BACKUP_FAILED 507908 4 1
v ACL_ERROR_SNAPSHOT_RESTORE_FAILED 507909 4 1
v ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED 507910 4 1
v ACL_ERROR_HOST_MEMORY_NOT_REGISTERED 507911 4 1
v ACL_ERROR_SNAPSHOT_CALLBACK_FAILED 507912 4 1
v ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED 507913 4 1
v ACL_ERROR_RT_L3_PORT_ERROR 507914 4 1
v ACL_ERROR_RT_CCU_TIMEOUT 507915 4 1
v ACL_ERROR_RT_CCU_EXCEPTION 507916 4 1
c ACL_ERROR_GE_PARAM_INVALID 145000 4 0
c ACL_ERROR_GE_EXEC_NOT_INIT 145001 4 0
c ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID 145002 4 0
c ACL_ERROR_GE_EXEC_MODEL_ID_INVALID 145003 4 0
c ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID 145006 4 0
c ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID 145007 4 0
c ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID 145008 4 0
c ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED 145009 4 0
c ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID 145011 4 0
c ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID 145012 4 0
c ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID 145013 4 0
c ACL_ERROR_GE_AIPP_BATCH_EMPTY 145014 4 0
c ACL_ERROR_GE_AIPP_NOT_EXIST 145015 4 0
c ACL_ERROR_GE_AIPP_MODE_INVALID 145016 4 0
c ACL_ERROR_GE_OP_TASK_TYPE_INVALID 145017 4 0
c ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID 145018 4 0
c ACL_ERROR_GE_PLGMGR_PATH_INVALID 145019 4 0
c ACL_ERROR_GE_FORMAT_INVALID 145020 4 0
c ACL_ERROR_GE_SHAPE_INVALID 145021 4 0
c ACL_ERROR_GE_DATATYPE_INVALID 145022 4 0
c ACL_ERROR_GE_MEMORY_ALLOCATION 245000 4 0
c ACL_ERROR_GE_MEMORY_OPERATE_FAILED 245001 4 0
c ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED 245002 4 0
c ACL_ERROR_GE_SUBHEALTHY 345102 4 0
c ACL_ERROR_GE_USER_RAISE_EXCEPTION 345103 4 0
c ACL_ERROR_GE_DATA_NOT_ALIGNED 345104 4 0
c ACL_ERROR_GE_INTERNAL_ERROR 545000 4 0
c ACL_ERROR_GE_LOAD_MODEL 545001 4 0
c ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED 545002 4 0
c ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED 545003 4 0
c ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED 545004 4 0
c ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED 545005 4 0
c ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA 545006 4 0
c ACL_ERROR_GE_COMMAND_HANDLE 545007 4 0
c ACL_ERROR_GE_GET_TENSOR_INFO 545008 4 0
c ACL_ERROR_GE_UNLOAD_MODEL 545009 4 0
c ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT 545601 4 0
c ACL_ERROR_GE_REDEPLOYING 545602 4 0
v ACL_PROF_ACL_API 1 8 0
v ACL_PROF_TASK_TIME 2 8 0
v ACL_PROF_AICORE_METRICS 4 8 0
v ACL_PROF_AICPU 8 8 0
v ACL_PROF_L2CACHE 16 8 0
v ACL_PROF_HCCL_TRACE 32 8 0
v ACL_PROF_TRAINING_TRACE 64 8 0
v ACL_PROF_MSPROFTX 128 8 0
v ACL_PROF_RUNTIME_API 256 8 0
v ACL_PROF_GE_API_L0 512 8 0
v ACL_PROF_TASK_TIME_L0 2048 8 0
v ACL_PROF_TASK_MEMORY 4096 8 0
v ACL_PROF_GE_API_L1 16777216 8 0
v ACL_PROF_TASK_TIME_L2 8192 8 0
v ACL_PROF_OP_ATTR 16384 8 0
v ACL_PROF_TASK_TIME_L3 32768 8 0
v ACL_PROF_API_STATS 17179869184 8 0
v ACL_PROF_AICORE_SHAPE 34359738368 8 0
v ACL_PROF_MAX_OP_NAME_LEN 257 4 1
v ACL_PROF_MAX_OP_TYPE_LEN 65 4 1
v ACL_PROF_TENSOR_DATA_SHAPE_LEN 8 4 1
s aclprofAicoreMetrics 4 4
v ACL_AICORE_ARITHMETIC_UTILIZATION 0 4 1
v ACL_AICORE_PIPE_UTILIZATION 1 4 1
v ACL_AICORE_MEMORY_BANDWIDTH 2 4 1
v ACL_AICORE_L0B_AND_WIDTH 3 4 1
v ACL_AICORE_RESOURCE_CONFLICT_RATIO 4 4 1
v ACL_AICORE_MEMORY_UB 5 4 1
v ACL_AICORE_L2_CACHE 6 4 1
v ACL_AICORE_PIPE_EXECUTE_UTILIZATION 7 4 1
v ACL_AICORE_MEMORY_ACCESS 8 4 1
v ACL_AICORE_NONE 255 4 1
s aclprofStepTag 4 4
v ACL_STEP_START 0 4 1
v ACL_STEP_END 1 4 1
s aclprofSubscribeOpFlag 4 4
v ACL_SUBSCRIBE_OP 0 4 1
v ACL_SUBSCRIBE_SUBGRAPH 1 4 1
v ACL_SUBSCRIBE_OP_THREAD 2 4 1
v ACL_SUBSCRIBE_NONE 255 4 1
s aclprofSubscribeOpAttri 4 4
v ACL_SUBSCRIBE_ATTRI_THREADID 0 4 1
v ACL_SUBSCRIBE_ATTRI_NONE 1 4 1
s aclprofConfigType 4 4
v ACL_PROF_ARGS_MIN 0 4 1
v ACL_PROF_STORAGE_LIMIT 1 4 1
v ACL_PROF_SYS_HARDWARE_MEM_FREQ 3 4 1
v ACL_PROF_LLC_MODE 4 4 1
v ACL_PROF_SYS_IO_FREQ 5 4 1
v ACL_PROF_SYS_INTERCONNECTION_FREQ 6 4 1
v ACL_PROF_DVPP_FREQ 7 4 1
v ACL_PROF_HOST_SYS 8 4 1
v ACL_PROF_HOST_SYS_USAGE 9 4 1
v ACL_PROF_HOST_SYS_USAGE_FREQ 10 4 1
v ACL_PROF_LOW_POWER_FREQ 11 4 1
v ACL_PROF_SYS_MEM_SERVICEFLOW 12 4 1
v ACL_PROF_SYS_CPU_FREQ 13 4 1
v ACL_PROF_OPTYPE 14 4 1
v ACL_PROF_NTS_METRICS 15 4 1
v ACL_PROF_PATH 16 4 1
v ACL_PROF_ARGS_MAX 17 4 1
s aclprofMessageType 4 4
v ACL_PROF_MESSAGE_TYPE_TENSOR_INFO 0 4 1
d aclprofConfig
d aclprofStopConfig
d aclprofAicoreEvents
d aclprofSubscribeConfig
d aclprofStepInfo
v ACL_PROF_EVENT_ATTR_VERSION 1 4 1
s aclprofTensor 48 4
o aclprofTensor type 0 4
o aclprofTensor format 4 4
o aclprofTensor dataType 8 4
o aclprofTensor shapeDim 12 4
o aclprofTensor shape 16 32
s aclprofTensorInfo 48 8
o aclprofTensorInfo opNameId 0 8
o aclprofTensorInfo opTypeId 8 8
o aclprofTensorInfo resv 16 4
o aclprofTensorInfo tensorNum 20 4
o aclprofTensorInfo kernelType 24 4
o aclprofTensorInfo blockNums 28 4
o aclprofTensorInfo stream 32 8
o aclprofTensorInfo tensors 40 8
s aclprofEventAttributes 16 8
o aclprofEventAttributes version 0 2
o aclprofEventAttributes size 2 2
o aclprofEventAttributes messageType 4 4
o aclprofEventAttributes message 8 8
o aclprofEventAttributes message.tensorInfo 8 8
# END TABLE
