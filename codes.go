package gocann

// Code is a CANN error code (aclError). It implements error, so
// errors.Is(err, gocann.CodeRTStreamSyncTimeout) matches an *Error with that
// code.
type Code int32

// The CANN error codes, with their public values: 1xxxxx caller errors,
// 2xxxxx unsupported features and exhausted resources, 3xxxxx business
// errors, 5xxxxx device and internal failures.
const (
	CodeSuccess                        Code = 0      // ACL_SUCCESS
	CodeInvalidParam                   Code = 100000 // ACL_ERROR_INVALID_PARAM
	CodeUninitialize                   Code = 100001 // ACL_ERROR_UNINITIALIZE
	CodeRepeatInitialize               Code = 100002 // ACL_ERROR_REPEAT_INITIALIZE
	CodeInvalidFile                    Code = 100003 // ACL_ERROR_INVALID_FILE
	CodeWriteFile                      Code = 100004 // ACL_ERROR_WRITE_FILE
	CodeInvalidFileSize                Code = 100005 // ACL_ERROR_INVALID_FILE_SIZE
	CodeParseFile                      Code = 100006 // ACL_ERROR_PARSE_FILE
	CodeFileMissingAttr                Code = 100007 // ACL_ERROR_FILE_MISSING_ATTR
	CodeFileAttrInvalid                Code = 100008 // ACL_ERROR_FILE_ATTR_INVALID
	CodeInvalidDumpConfig              Code = 100009 // ACL_ERROR_INVALID_DUMP_CONFIG
	CodeInvalidProfilingConfig         Code = 100010 // ACL_ERROR_INVALID_PROFILING_CONFIG
	CodeInvalidModelID                 Code = 100011 // ACL_ERROR_INVALID_MODEL_ID
	CodeDeserializeModel               Code = 100012 // ACL_ERROR_DESERIALIZE_MODEL
	CodeParseModel                     Code = 100013 // ACL_ERROR_PARSE_MODEL
	CodeReadModelFailure               Code = 100014 // ACL_ERROR_READ_MODEL_FAILURE
	CodeModelSizeInvalid               Code = 100015 // ACL_ERROR_MODEL_SIZE_INVALID
	CodeModelMissingAttr               Code = 100016 // ACL_ERROR_MODEL_MISSING_ATTR
	CodeModelInputNotMatch             Code = 100017 // ACL_ERROR_MODEL_INPUT_NOT_MATCH
	CodeModelOutputNotMatch            Code = 100018 // ACL_ERROR_MODEL_OUTPUT_NOT_MATCH
	CodeModelNotDynamic                Code = 100019 // ACL_ERROR_MODEL_NOT_DYNAMIC
	CodeOpTypeNotMatch                 Code = 100020 // ACL_ERROR_OP_TYPE_NOT_MATCH
	CodeOpInputNotMatch                Code = 100021 // ACL_ERROR_OP_INPUT_NOT_MATCH
	CodeOpOutputNotMatch               Code = 100022 // ACL_ERROR_OP_OUTPUT_NOT_MATCH
	CodeOpAttrNotMatch                 Code = 100023 // ACL_ERROR_OP_ATTR_NOT_MATCH
	CodeOpNotFound                     Code = 100024 // ACL_ERROR_OP_NOT_FOUND
	CodeOpLoadFailed                   Code = 100025 // ACL_ERROR_OP_LOAD_FAILED
	CodeUnsupportedDataType            Code = 100026 // ACL_ERROR_UNSUPPORTED_DATA_TYPE
	CodeFormatNotMatch                 Code = 100027 // ACL_ERROR_FORMAT_NOT_MATCH
	CodeBinSelectorNotRegistered       Code = 100028 // ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED
	CodeKernelNotFound                 Code = 100029 // ACL_ERROR_KERNEL_NOT_FOUND
	CodeBinSelectorAlreadyRegistered   Code = 100030 // ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED
	CodeKernelAlreadyRegistered        Code = 100031 // ACL_ERROR_KERNEL_ALREADY_REGISTERED
	CodeInvalidQueueID                 Code = 100032 // ACL_ERROR_INVALID_QUEUE_ID
	CodeRepeatSubscribe                Code = 100033 // ACL_ERROR_REPEAT_SUBSCRIBE
	CodeStreamNotSubscribe             Code = 100034 // ACL_ERROR_STREAM_NOT_SUBSCRIBE
	CodeThreadNotSubscribe             Code = 100035 // ACL_ERROR_THREAD_NOT_SUBSCRIBE
	CodeWaitCallbackTimeout            Code = 100036 // ACL_ERROR_WAIT_CALLBACK_TIMEOUT
	CodeRepeatFinalize                 Code = 100037 // ACL_ERROR_REPEAT_FINALIZE
	CodeNotStaticAipp                  Code = 100038 // ACL_ERROR_NOT_STATIC_AIPP
	CodeCompilingStubMode              Code = 100039 // ACL_ERROR_COMPILING_STUB_MODE
	CodeGroupNotSet                    Code = 100040 // ACL_ERROR_GROUP_NOT_SET
	CodeGroupNotCreate                 Code = 100041 // ACL_ERROR_GROUP_NOT_CREATE
	CodeProfAlreadyRun                 Code = 100042 // ACL_ERROR_PROF_ALREADY_RUN
	CodeProfNotRun                     Code = 100043 // ACL_ERROR_PROF_NOT_RUN
	CodeDumpAlreadyRun                 Code = 100044 // ACL_ERROR_DUMP_ALREADY_RUN
	CodeDumpNotRun                     Code = 100045 // ACL_ERROR_DUMP_NOT_RUN
	CodeProfRepeatSubscribe            Code = 148046 // ACL_ERROR_PROF_REPEAT_SUBSCRIBE
	CodeProfAPIConflict                Code = 148047 // ACL_ERROR_PROF_API_CONFLICT
	CodeInvalidMaxOpqueueNumConfig     Code = 148048 // ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG
	CodeInvalidOppPath                 Code = 148049 // ACL_ERROR_INVALID_OPP_PATH
	CodeOpUnsupportedDynamic           Code = 148050 // ACL_ERROR_OP_UNSUPPORTED_DYNAMIC
	CodeRelativeResourceNotCleared     Code = 148051 // ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED
	CodeUnsupportedJpeg                Code = 148052 // ACL_ERROR_UNSUPPORTED_JPEG
	CodeInvalidBundleModelID           Code = 148053 // ACL_ERROR_INVALID_BUNDLE_MODEL_ID
	CodeBadAlloc                       Code = 200000 // ACL_ERROR_BAD_ALLOC
	CodeAPINotSupport                  Code = 200001 // ACL_ERROR_API_NOT_SUPPORT
	CodeInvalidDevice                  Code = 200002 // ACL_ERROR_INVALID_DEVICE
	CodeMemoryAddressUnaligned         Code = 200003 // ACL_ERROR_MEMORY_ADDRESS_UNALIGNED
	CodeResourceNotMatch               Code = 200004 // ACL_ERROR_RESOURCE_NOT_MATCH
	CodeInvalidResourceHandle          Code = 200005 // ACL_ERROR_INVALID_RESOURCE_HANDLE
	CodeFeatureUnsupported             Code = 200006 // ACL_ERROR_FEATURE_UNSUPPORTED
	CodeProfModulesUnsupported         Code = 200007 // ACL_ERROR_PROF_MODULES_UNSUPPORTED
	CodeStorageOverLimit               Code = 300000 // ACL_ERROR_STORAGE_OVER_LIMIT
	CodeInternalError                  Code = 500000 // ACL_ERROR_INTERNAL_ERROR
	CodeFailure                        Code = 500001 // ACL_ERROR_FAILURE
	CodeGEFailure                      Code = 500002 // ACL_ERROR_GE_FAILURE
	CodeRTFailure                      Code = 500003 // ACL_ERROR_RT_FAILURE
	CodeDRVFailure                     Code = 500004 // ACL_ERROR_DRV_FAILURE
	CodeProfilingFailure               Code = 500005 // ACL_ERROR_PROFILING_FAILURE
	CodeRTParamInvalid                 Code = 107000 // ACL_ERROR_RT_PARAM_INVALID
	CodeRTInvalidDeviceID              Code = 107001 // ACL_ERROR_RT_INVALID_DEVICEID
	CodeRTContextNull                  Code = 107002 // ACL_ERROR_RT_CONTEXT_NULL
	CodeRTStreamContext                Code = 107003 // ACL_ERROR_RT_STREAM_CONTEXT
	CodeRTModelContext                 Code = 107004 // ACL_ERROR_RT_MODEL_CONTEXT
	CodeRTStreamModel                  Code = 107005 // ACL_ERROR_RT_STREAM_MODEL
	CodeRTEventTimestampInvalid        Code = 107006 // ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
	CodeRTEventTimestampReversal       Code = 107007 // ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL
	CodeRTAddrUnaligned                Code = 107008 // ACL_ERROR_RT_ADDR_UNALIGNED
	CodeRTFileOpen                     Code = 107009 // ACL_ERROR_RT_FILE_OPEN
	CodeRTFileWrite                    Code = 107010 // ACL_ERROR_RT_FILE_WRITE
	CodeRTStreamSubscribe              Code = 107011 // ACL_ERROR_RT_STREAM_SUBSCRIBE
	CodeRTThreadSubscribe              Code = 107012 // ACL_ERROR_RT_THREAD_SUBSCRIBE
	CodeRTGroupNotSet                  Code = 107013 // ACL_ERROR_RT_GROUP_NOT_SET
	CodeRTGroupNotCreate               Code = 107014 // ACL_ERROR_RT_GROUP_NOT_CREATE
	CodeRTStreamNoCbReg                Code = 107015 // ACL_ERROR_RT_STREAM_NO_CB_REG
	CodeRTInvalidMemoryType            Code = 107016 // ACL_ERROR_RT_INVALID_MEMORY_TYPE
	CodeRTInvalidHandle                Code = 107017 // ACL_ERROR_RT_INVALID_HANDLE
	CodeRTInvalidMallocType            Code = 107018 // ACL_ERROR_RT_INVALID_MALLOC_TYPE
	CodeRTWaitTimeout                  Code = 107019 // ACL_ERROR_RT_WAIT_TIMEOUT
	CodeRTTaskTimeout                  Code = 107020 // ACL_ERROR_RT_TASK_TIMEOUT
	CodeRTSysParamOptNotSet            Code = 107021 // ACL_ERROR_RT_SYSPARAMOPT_NOT_SET
	CodeRTDeviceTaskAbort              Code = 107022 // ACL_ERROR_RT_DEVICE_TASK_ABORT
	CodeRTStreamAbort                  Code = 107023 // ACL_ERROR_RT_STREAM_ABORT
	CodeRTCaptureDependency            Code = 107024 // ACL_ERROR_RT_CAPTURE_DEPENDENCY
	CodeRTStreamUnjoined               Code = 107025 // ACL_ERROR_RT_STREAM_UNJOINED
	CodeRTModelCaptured                Code = 107026 // ACL_ERROR_RT_MODEL_CAPTURED
	CodeRTStreamCaptured               Code = 107027 // ACL_ERROR_RT_STREAM_CAPTURED
	CodeRTEventCaptured                Code = 107028 // ACL_ERROR_RT_EVENT_CAPTURED
	CodeRTStreamNotCaptured            Code = 107029 // ACL_ERROR_RT_STREAM_NOT_CAPTURED
	CodeRTCaptureModeNotSupport        Code = 107030 // ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
	CodeRTStreamCaptureImplicit        Code = 107031 // ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
	CodeStreamCaptureConflict          Code = 107032 // ACL_ERROR_STREAM_CAPTURE_CONFLICT
	CodeStreamTaskGroupStatus          Code = 107033 // ACL_ERROR_STREAM_TASK_GROUP_STATUS
	CodeStreamTaskGroupIntr            Code = 107034 // ACL_ERROR_STREAM_TASK_GROUP_INTR
	CodeRTTaskAbortStop                Code = 107035 // ACL_ERROR_RT_TASK_ABORT_STOP
	CodeRTStreamCaptureUnmatched       Code = 107036 // ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED
	CodeRTModelRunning                 Code = 107037 // ACL_ERROR_RT_MODEL_RUNNING
	CodeRTStreamCaptureWrongThread     Code = 107038 // ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD
	CodeRTInsufficientInputArray       Code = 107039 // ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY
	CodeRTModelUpdateFailed            Code = 107040 // ACL_ERROR_RT_MODEL_UPDATE_FAILED
	CodeRTCaptureModeBlockAsync        Code = 107041 // ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
	CodeRTSymbolNotFound               Code = 107042 // ACL_ERROR_RT_SYMBOL_NOT_FOUND
	CodeRTInvalidSymbol                Code = 107043 // ACL_ERROR_RT_INVALID_SYMBOL
	CodeRTInvalidDeviceFunction        Code = 107044 // ACL_ERROR_RT_INVALID_DEVICE_FUNCTION
	CodeRTSubACLGraphIsCapturing       Code = 107045 // ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING
	CodeRTFeatureNotSupport            Code = 207000 // ACL_ERROR_RT_FEATURE_NOT_SUPPORT
	CodeRTMemoryAllocation             Code = 207001 // ACL_ERROR_RT_MEMORY_ALLOCATION
	CodeRTMemoryFree                   Code = 207002 // ACL_ERROR_RT_MEMORY_FREE
	CodeRTAICoreOverFlow               Code = 207003 // ACL_ERROR_RT_AICORE_OVER_FLOW
	CodeRTNoDevice                     Code = 207004 // ACL_ERROR_RT_NO_DEVICE
	CodeRTResourceAllocFail            Code = 207005 // ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
	CodeRTNoPermission                 Code = 207006 // ACL_ERROR_RT_NO_PERMISSION
	CodeRTNoEventResource              Code = 207007 // ACL_ERROR_RT_NO_EVENT_RESOURCE
	CodeRTNoStreamResource             Code = 207008 // ACL_ERROR_RT_NO_STREAM_RESOURCE
	CodeRTNoNotifyResource             Code = 207009 // ACL_ERROR_RT_NO_NOTIFY_RESOURCE
	CodeRTNoModelResource              Code = 207010 // ACL_ERROR_RT_NO_MODEL_RESOURCE
	CodeRTNoCDQResource                Code = 207011 // ACL_ERROR_RT_NO_CDQ_RESOURCE
	CodeRTOverLimit                    Code = 207012 // ACL_ERROR_RT_OVER_LIMIT
	CodeRTQueueEmpty                   Code = 207013 // ACL_ERROR_RT_QUEUE_EMPTY
	CodeRTQueueFull                    Code = 207014 // ACL_ERROR_RT_QUEUE_FULL
	CodeRTRepeatedInit                 Code = 207015 // ACL_ERROR_RT_REPEATED_INIT
	CodeRTAIVecOverFlow                Code = 207016 // ACL_ERROR_RT_AIVEC_OVER_FLOW
	CodeRTOverFlow                     Code = 207017 // ACL_ERROR_RT_OVER_FLOW
	CodeRTDeviceOOM                    Code = 207018 // ACL_ERROR_RT_DEVICE_OOM
	CodeRTFeatureNotSupportUpdateOp    Code = 207019 // ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP
	CodeRTTimeout                      Code = 207020 // ACL_ERROR_RT_TIMEOUT
	CodeRTLinkTypeNotSupported         Code = 207021 // ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED
	CodeRTInternalError                Code = 507000 // ACL_ERROR_RT_INTERNAL_ERROR
	CodeRTTSError                      Code = 507001 // ACL_ERROR_RT_TS_ERROR
	CodeRTStreamTaskFull               Code = 507002 // ACL_ERROR_RT_STREAM_TASK_FULL
	CodeRTStreamTaskEmpty              Code = 507003 // ACL_ERROR_RT_STREAM_TASK_EMPTY
	CodeRTStreamNotComplete            Code = 507004 // ACL_ERROR_RT_STREAM_NOT_COMPLETE
	CodeRTEndOfSequence                Code = 507005 // ACL_ERROR_RT_END_OF_SEQUENCE
	CodeRTEventNotComplete             Code = 507006 // ACL_ERROR_RT_EVENT_NOT_COMPLETE
	CodeRTContextReleaseError          Code = 507007 // ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
	CodeRTSoCVersion                   Code = 507008 // ACL_ERROR_RT_SOC_VERSION
	CodeRTTaskTypeNotSupport           Code = 507009 // ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
	CodeRTLostHeartbeat                Code = 507010 // ACL_ERROR_RT_LOST_HEARTBEAT
	CodeRTModelExecute                 Code = 507011 // ACL_ERROR_RT_MODEL_EXECUTE
	CodeRTReportTimeout                Code = 507012 // ACL_ERROR_RT_REPORT_TIMEOUT
	CodeRTSysDMA                       Code = 507013 // ACL_ERROR_RT_SYS_DMA
	CodeRTAICoreTimeout                Code = 507014 // ACL_ERROR_RT_AICORE_TIMEOUT
	CodeRTAICoreException              Code = 507015 // ACL_ERROR_RT_AICORE_EXCEPTION
	CodeRTAICoreTrapException          Code = 507016 // ACL_ERROR_RT_AICORE_TRAP_EXCEPTION
	CodeRTAICPUTimeout                 Code = 507017 // ACL_ERROR_RT_AICPU_TIMEOUT
	CodeRTAICPUException               Code = 507018 // ACL_ERROR_RT_AICPU_EXCEPTION
	CodeRTAICPUDatadumpRspErr          Code = 507019 // ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR
	CodeRTAICPUModelRspErr             Code = 507020 // ACL_ERROR_RT_AICPU_MODEL_RSP_ERR
	CodeRTProfilingError               Code = 507021 // ACL_ERROR_RT_PROFILING_ERROR
	CodeRTIPCError                     Code = 507022 // ACL_ERROR_RT_IPC_ERROR
	CodeRTModelAbortNormal             Code = 507023 // ACL_ERROR_RT_MODEL_ABORT_NORMAL
	CodeRTKernelUnregistering          Code = 507024 // ACL_ERROR_RT_KERNEL_UNREGISTERING
	CodeRTRingbufferNotInit            Code = 507025 // ACL_ERROR_RT_RINGBUFFER_NOT_INIT
	CodeRTRingbufferNoData             Code = 507026 // ACL_ERROR_RT_RINGBUFFER_NO_DATA
	CodeRTKernelLookup                 Code = 507027 // ACL_ERROR_RT_KERNEL_LOOKUP
	CodeRTKernelDuplicate              Code = 507028 // ACL_ERROR_RT_KERNEL_DUPLICATE
	CodeRTDebugRegisterFail            Code = 507029 // ACL_ERROR_RT_DEBUG_REGISTER_FAIL
	CodeRTDebugUnregisterFail          Code = 507030 // ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL
	CodeRTLabelContext                 Code = 507031 // ACL_ERROR_RT_LABEL_CONTEXT
	CodeRTProgramUseOut                Code = 507032 // ACL_ERROR_RT_PROGRAM_USE_OUT
	CodeRTDevSetupError                Code = 507033 // ACL_ERROR_RT_DEV_SETUP_ERROR
	CodeRTVectorCoreTimeout            Code = 507034 // ACL_ERROR_RT_VECTOR_CORE_TIMEOUT
	CodeRTVectorCoreException          Code = 507035 // ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
	CodeRTVectorCoreTrapException      Code = 507036 // ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION
	CodeRTCDQBatchAbnormal             Code = 507037 // ACL_ERROR_RT_CDQ_BATCH_ABNORMAL
	CodeRTDieModeChangeError           Code = 507038 // ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR
	CodeRTDieSetError                  Code = 507039 // ACL_ERROR_RT_DIE_SET_ERROR
	CodeRTInvalidDieID                 Code = 507040 // ACL_ERROR_RT_INVALID_DIEID
	CodeRTDieModeNotSet                Code = 507041 // ACL_ERROR_RT_DIE_MODE_NOT_SET
	CodeRTAICoreTrapReadOverflow       Code = 507042 // ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW
	CodeRTAICoreTrapWriteOverflow      Code = 507043 // ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW
	CodeRTVectorCoreTrapReadOverflow   Code = 507044 // ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW
	CodeRTVectorCoreTrapWriteOverflow  Code = 507045 // ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW
	CodeRTStreamSyncTimeout            Code = 507046 // ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
	CodeRTEventSyncTimeout             Code = 507047 // ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
	CodeRTFFTSPlusTimeout              Code = 507048 // ACL_ERROR_RT_FFTS_PLUS_TIMEOUT
	CodeRTFFTSPlusException            Code = 507049 // ACL_ERROR_RT_FFTS_PLUS_EXCEPTION
	CodeRTFFTSPlusTrapException        Code = 507050 // ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION
	CodeRTSendMsg                      Code = 507051 // ACL_ERROR_RT_SEND_MSG
	CodeRTCopyData                     Code = 507052 // ACL_ERROR_RT_COPY_DATA
	CodeRTDeviceMemError               Code = 507053 // ACL_ERROR_RT_DEVICE_MEM_ERROR
	CodeRTHBMMultiBitECCError          Code = 507054 // ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR
	CodeRTSuspectDeviceMemError        Code = 507055 // ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR
	CodeRTLinkError                    Code = 507056 // ACL_ERROR_RT_LINK_ERROR
	CodeRTSuspectRemoteError           Code = 507057 // ACL_ERROR_RT_SUSPECT_REMOTE_ERROR
	CodeRTDRVInternalError             Code = 507899 // ACL_ERROR_RT_DRV_INTERNAL_ERROR
	CodeRTAICPUInternalError           Code = 507900 // ACL_ERROR_RT_AICPU_INTERNAL_ERROR
	CodeRTSocketClose                  Code = 507901 // ACL_ERROR_RT_SOCKET_CLOSE
	CodeRTAICPUInfoLoadRspErr          Code = 507902 // ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR
	CodeRTStreamCaptureInvalidated     Code = 507903 // ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
	CodeRTCommOpRetryFail              Code = 507904 // ACL_ERROR_RT_COMM_OP_RETRY_FAIL
	CodeSnapshotLockTimeout            Code = 507905 // ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT
	CodeSnapshotLockFailed             Code = 507906 // ACL_ERROR_SNAPSHOT_LOCK_FAILED
	CodeSnapshotUnlockFailed           Code = 507907 // ACL_ERROR_SNAPSHOT_UNLOCK_FAILED
	CodeSnapshotBackupFailed           Code = 507908 // ACL_ERROR_SNAPSHOT_BACKUP_FAILED
	CodeSnapshotRestoreFailed          Code = 507909 // ACL_ERROR_SNAPSHOT_RESTORE_FAILED
	CodeHostMemoryAlreadyRegistered    Code = 507910 // ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED
	CodeHostMemoryNotRegistered        Code = 507911 // ACL_ERROR_HOST_MEMORY_NOT_REGISTERED
	CodeSnapshotCallbackFailed         Code = 507912 // ACL_ERROR_SNAPSHOT_CALLBACK_FAILED
	CodeSnapshotRegisterCallbackFailed Code = 507913 // ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED
	CodeRTL3PortError                  Code = 507914 // ACL_ERROR_RT_L3_PORT_ERROR
	CodeRTCCUTimeout                   Code = 507915 // ACL_ERROR_RT_CCU_TIMEOUT
	CodeRTCCUException                 Code = 507916 // ACL_ERROR_RT_CCU_EXCEPTION
)

var codeNames = map[Code]string{
	CodeSuccess:                        "ACL_SUCCESS",
	CodeInvalidParam:                   "ACL_ERROR_INVALID_PARAM",
	CodeUninitialize:                   "ACL_ERROR_UNINITIALIZE",
	CodeRepeatInitialize:               "ACL_ERROR_REPEAT_INITIALIZE",
	CodeInvalidFile:                    "ACL_ERROR_INVALID_FILE",
	CodeWriteFile:                      "ACL_ERROR_WRITE_FILE",
	CodeInvalidFileSize:                "ACL_ERROR_INVALID_FILE_SIZE",
	CodeParseFile:                      "ACL_ERROR_PARSE_FILE",
	CodeFileMissingAttr:                "ACL_ERROR_FILE_MISSING_ATTR",
	CodeFileAttrInvalid:                "ACL_ERROR_FILE_ATTR_INVALID",
	CodeInvalidDumpConfig:              "ACL_ERROR_INVALID_DUMP_CONFIG",
	CodeInvalidProfilingConfig:         "ACL_ERROR_INVALID_PROFILING_CONFIG",
	CodeInvalidModelID:                 "ACL_ERROR_INVALID_MODEL_ID",
	CodeDeserializeModel:               "ACL_ERROR_DESERIALIZE_MODEL",
	CodeParseModel:                     "ACL_ERROR_PARSE_MODEL",
	CodeReadModelFailure:               "ACL_ERROR_READ_MODEL_FAILURE",
	CodeModelSizeInvalid:               "ACL_ERROR_MODEL_SIZE_INVALID",
	CodeModelMissingAttr:               "ACL_ERROR_MODEL_MISSING_ATTR",
	CodeModelInputNotMatch:             "ACL_ERROR_MODEL_INPUT_NOT_MATCH",
	CodeModelOutputNotMatch:            "ACL_ERROR_MODEL_OUTPUT_NOT_MATCH",
	CodeModelNotDynamic:                "ACL_ERROR_MODEL_NOT_DYNAMIC",
	CodeOpTypeNotMatch:                 "ACL_ERROR_OP_TYPE_NOT_MATCH",
	CodeOpInputNotMatch:                "ACL_ERROR_OP_INPUT_NOT_MATCH",
	CodeOpOutputNotMatch:               "ACL_ERROR_OP_OUTPUT_NOT_MATCH",
	CodeOpAttrNotMatch:                 "ACL_ERROR_OP_ATTR_NOT_MATCH",
	CodeOpNotFound:                     "ACL_ERROR_OP_NOT_FOUND",
	CodeOpLoadFailed:                   "ACL_ERROR_OP_LOAD_FAILED",
	CodeUnsupportedDataType:            "ACL_ERROR_UNSUPPORTED_DATA_TYPE",
	CodeFormatNotMatch:                 "ACL_ERROR_FORMAT_NOT_MATCH",
	CodeBinSelectorNotRegistered:       "ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED",
	CodeKernelNotFound:                 "ACL_ERROR_KERNEL_NOT_FOUND",
	CodeBinSelectorAlreadyRegistered:   "ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED",
	CodeKernelAlreadyRegistered:        "ACL_ERROR_KERNEL_ALREADY_REGISTERED",
	CodeInvalidQueueID:                 "ACL_ERROR_INVALID_QUEUE_ID",
	CodeRepeatSubscribe:                "ACL_ERROR_REPEAT_SUBSCRIBE",
	CodeStreamNotSubscribe:             "ACL_ERROR_STREAM_NOT_SUBSCRIBE",
	CodeThreadNotSubscribe:             "ACL_ERROR_THREAD_NOT_SUBSCRIBE",
	CodeWaitCallbackTimeout:            "ACL_ERROR_WAIT_CALLBACK_TIMEOUT",
	CodeRepeatFinalize:                 "ACL_ERROR_REPEAT_FINALIZE",
	CodeNotStaticAipp:                  "ACL_ERROR_NOT_STATIC_AIPP",
	CodeCompilingStubMode:              "ACL_ERROR_COMPILING_STUB_MODE",
	CodeGroupNotSet:                    "ACL_ERROR_GROUP_NOT_SET",
	CodeGroupNotCreate:                 "ACL_ERROR_GROUP_NOT_CREATE",
	CodeProfAlreadyRun:                 "ACL_ERROR_PROF_ALREADY_RUN",
	CodeProfNotRun:                     "ACL_ERROR_PROF_NOT_RUN",
	CodeDumpAlreadyRun:                 "ACL_ERROR_DUMP_ALREADY_RUN",
	CodeDumpNotRun:                     "ACL_ERROR_DUMP_NOT_RUN",
	CodeProfRepeatSubscribe:            "ACL_ERROR_PROF_REPEAT_SUBSCRIBE",
	CodeProfAPIConflict:                "ACL_ERROR_PROF_API_CONFLICT",
	CodeInvalidMaxOpqueueNumConfig:     "ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG",
	CodeInvalidOppPath:                 "ACL_ERROR_INVALID_OPP_PATH",
	CodeOpUnsupportedDynamic:           "ACL_ERROR_OP_UNSUPPORTED_DYNAMIC",
	CodeRelativeResourceNotCleared:     "ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED",
	CodeUnsupportedJpeg:                "ACL_ERROR_UNSUPPORTED_JPEG",
	CodeInvalidBundleModelID:           "ACL_ERROR_INVALID_BUNDLE_MODEL_ID",
	CodeBadAlloc:                       "ACL_ERROR_BAD_ALLOC",
	CodeAPINotSupport:                  "ACL_ERROR_API_NOT_SUPPORT",
	CodeInvalidDevice:                  "ACL_ERROR_INVALID_DEVICE",
	CodeMemoryAddressUnaligned:         "ACL_ERROR_MEMORY_ADDRESS_UNALIGNED",
	CodeResourceNotMatch:               "ACL_ERROR_RESOURCE_NOT_MATCH",
	CodeInvalidResourceHandle:          "ACL_ERROR_INVALID_RESOURCE_HANDLE",
	CodeFeatureUnsupported:             "ACL_ERROR_FEATURE_UNSUPPORTED",
	CodeProfModulesUnsupported:         "ACL_ERROR_PROF_MODULES_UNSUPPORTED",
	CodeStorageOverLimit:               "ACL_ERROR_STORAGE_OVER_LIMIT",
	CodeInternalError:                  "ACL_ERROR_INTERNAL_ERROR",
	CodeFailure:                        "ACL_ERROR_FAILURE",
	CodeGEFailure:                      "ACL_ERROR_GE_FAILURE",
	CodeRTFailure:                      "ACL_ERROR_RT_FAILURE",
	CodeDRVFailure:                     "ACL_ERROR_DRV_FAILURE",
	CodeProfilingFailure:               "ACL_ERROR_PROFILING_FAILURE",
	CodeRTParamInvalid:                 "ACL_ERROR_RT_PARAM_INVALID",
	CodeRTInvalidDeviceID:              "ACL_ERROR_RT_INVALID_DEVICEID",
	CodeRTContextNull:                  "ACL_ERROR_RT_CONTEXT_NULL",
	CodeRTStreamContext:                "ACL_ERROR_RT_STREAM_CONTEXT",
	CodeRTModelContext:                 "ACL_ERROR_RT_MODEL_CONTEXT",
	CodeRTStreamModel:                  "ACL_ERROR_RT_STREAM_MODEL",
	CodeRTEventTimestampInvalid:        "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID",
	CodeRTEventTimestampReversal:       "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL",
	CodeRTAddrUnaligned:                "ACL_ERROR_RT_ADDR_UNALIGNED",
	CodeRTFileOpen:                     "ACL_ERROR_RT_FILE_OPEN",
	CodeRTFileWrite:                    "ACL_ERROR_RT_FILE_WRITE",
	CodeRTStreamSubscribe:              "ACL_ERROR_RT_STREAM_SUBSCRIBE",
	CodeRTThreadSubscribe:              "ACL_ERROR_RT_THREAD_SUBSCRIBE",
	CodeRTGroupNotSet:                  "ACL_ERROR_RT_GROUP_NOT_SET",
	CodeRTGroupNotCreate:               "ACL_ERROR_RT_GROUP_NOT_CREATE",
	CodeRTStreamNoCbReg:                "ACL_ERROR_RT_STREAM_NO_CB_REG",
	CodeRTInvalidMemoryType:            "ACL_ERROR_RT_INVALID_MEMORY_TYPE",
	CodeRTInvalidHandle:                "ACL_ERROR_RT_INVALID_HANDLE",
	CodeRTInvalidMallocType:            "ACL_ERROR_RT_INVALID_MALLOC_TYPE",
	CodeRTWaitTimeout:                  "ACL_ERROR_RT_WAIT_TIMEOUT",
	CodeRTTaskTimeout:                  "ACL_ERROR_RT_TASK_TIMEOUT",
	CodeRTSysParamOptNotSet:            "ACL_ERROR_RT_SYSPARAMOPT_NOT_SET",
	CodeRTDeviceTaskAbort:              "ACL_ERROR_RT_DEVICE_TASK_ABORT",
	CodeRTStreamAbort:                  "ACL_ERROR_RT_STREAM_ABORT",
	CodeRTCaptureDependency:            "ACL_ERROR_RT_CAPTURE_DEPENDENCY",
	CodeRTStreamUnjoined:               "ACL_ERROR_RT_STREAM_UNJOINED",
	CodeRTModelCaptured:                "ACL_ERROR_RT_MODEL_CAPTURED",
	CodeRTStreamCaptured:               "ACL_ERROR_RT_STREAM_CAPTURED",
	CodeRTEventCaptured:                "ACL_ERROR_RT_EVENT_CAPTURED",
	CodeRTStreamNotCaptured:            "ACL_ERROR_RT_STREAM_NOT_CAPTURED",
	CodeRTCaptureModeNotSupport:        "ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT",
	CodeRTStreamCaptureImplicit:        "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT",
	CodeStreamCaptureConflict:          "ACL_ERROR_STREAM_CAPTURE_CONFLICT",
	CodeStreamTaskGroupStatus:          "ACL_ERROR_STREAM_TASK_GROUP_STATUS",
	CodeStreamTaskGroupIntr:            "ACL_ERROR_STREAM_TASK_GROUP_INTR",
	CodeRTTaskAbortStop:                "ACL_ERROR_RT_TASK_ABORT_STOP",
	CodeRTStreamCaptureUnmatched:       "ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED",
	CodeRTModelRunning:                 "ACL_ERROR_RT_MODEL_RUNNING",
	CodeRTStreamCaptureWrongThread:     "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD",
	CodeRTInsufficientInputArray:       "ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY",
	CodeRTModelUpdateFailed:            "ACL_ERROR_RT_MODEL_UPDATE_FAILED",
	CodeRTCaptureModeBlockAsync:        "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC",
	CodeRTSymbolNotFound:               "ACL_ERROR_RT_SYMBOL_NOT_FOUND",
	CodeRTInvalidSymbol:                "ACL_ERROR_RT_INVALID_SYMBOL",
	CodeRTInvalidDeviceFunction:        "ACL_ERROR_RT_INVALID_DEVICE_FUNCTION",
	CodeRTSubACLGraphIsCapturing:       "ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING",
	CodeRTFeatureNotSupport:            "ACL_ERROR_RT_FEATURE_NOT_SUPPORT",
	CodeRTMemoryAllocation:             "ACL_ERROR_RT_MEMORY_ALLOCATION",
	CodeRTMemoryFree:                   "ACL_ERROR_RT_MEMORY_FREE",
	CodeRTAICoreOverFlow:               "ACL_ERROR_RT_AICORE_OVER_FLOW",
	CodeRTNoDevice:                     "ACL_ERROR_RT_NO_DEVICE",
	CodeRTResourceAllocFail:            "ACL_ERROR_RT_RESOURCE_ALLOC_FAIL",
	CodeRTNoPermission:                 "ACL_ERROR_RT_NO_PERMISSION",
	CodeRTNoEventResource:              "ACL_ERROR_RT_NO_EVENT_RESOURCE",
	CodeRTNoStreamResource:             "ACL_ERROR_RT_NO_STREAM_RESOURCE",
	CodeRTNoNotifyResource:             "ACL_ERROR_RT_NO_NOTIFY_RESOURCE",
	CodeRTNoModelResource:              "ACL_ERROR_RT_NO_MODEL_RESOURCE",
	CodeRTNoCDQResource:                "ACL_ERROR_RT_NO_CDQ_RESOURCE",
	CodeRTOverLimit:                    "ACL_ERROR_RT_OVER_LIMIT",
	CodeRTQueueEmpty:                   "ACL_ERROR_RT_QUEUE_EMPTY",
	CodeRTQueueFull:                    "ACL_ERROR_RT_QUEUE_FULL",
	CodeRTRepeatedInit:                 "ACL_ERROR_RT_REPEATED_INIT",
	CodeRTAIVecOverFlow:                "ACL_ERROR_RT_AIVEC_OVER_FLOW",
	CodeRTOverFlow:                     "ACL_ERROR_RT_OVER_FLOW",
	CodeRTDeviceOOM:                    "ACL_ERROR_RT_DEVICE_OOM",
	CodeRTFeatureNotSupportUpdateOp:    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP",
	CodeRTTimeout:                      "ACL_ERROR_RT_TIMEOUT",
	CodeRTLinkTypeNotSupported:         "ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED",
	CodeRTInternalError:                "ACL_ERROR_RT_INTERNAL_ERROR",
	CodeRTTSError:                      "ACL_ERROR_RT_TS_ERROR",
	CodeRTStreamTaskFull:               "ACL_ERROR_RT_STREAM_TASK_FULL",
	CodeRTStreamTaskEmpty:              "ACL_ERROR_RT_STREAM_TASK_EMPTY",
	CodeRTStreamNotComplete:            "ACL_ERROR_RT_STREAM_NOT_COMPLETE",
	CodeRTEndOfSequence:                "ACL_ERROR_RT_END_OF_SEQUENCE",
	CodeRTEventNotComplete:             "ACL_ERROR_RT_EVENT_NOT_COMPLETE",
	CodeRTContextReleaseError:          "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR",
	CodeRTSoCVersion:                   "ACL_ERROR_RT_SOC_VERSION",
	CodeRTTaskTypeNotSupport:           "ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT",
	CodeRTLostHeartbeat:                "ACL_ERROR_RT_LOST_HEARTBEAT",
	CodeRTModelExecute:                 "ACL_ERROR_RT_MODEL_EXECUTE",
	CodeRTReportTimeout:                "ACL_ERROR_RT_REPORT_TIMEOUT",
	CodeRTSysDMA:                       "ACL_ERROR_RT_SYS_DMA",
	CodeRTAICoreTimeout:                "ACL_ERROR_RT_AICORE_TIMEOUT",
	CodeRTAICoreException:              "ACL_ERROR_RT_AICORE_EXCEPTION",
	CodeRTAICoreTrapException:          "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION",
	CodeRTAICPUTimeout:                 "ACL_ERROR_RT_AICPU_TIMEOUT",
	CodeRTAICPUException:               "ACL_ERROR_RT_AICPU_EXCEPTION",
	CodeRTAICPUDatadumpRspErr:          "ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR",
	CodeRTAICPUModelRspErr:             "ACL_ERROR_RT_AICPU_MODEL_RSP_ERR",
	CodeRTProfilingError:               "ACL_ERROR_RT_PROFILING_ERROR",
	CodeRTIPCError:                     "ACL_ERROR_RT_IPC_ERROR",
	CodeRTModelAbortNormal:             "ACL_ERROR_RT_MODEL_ABORT_NORMAL",
	CodeRTKernelUnregistering:          "ACL_ERROR_RT_KERNEL_UNREGISTERING",
	CodeRTRingbufferNotInit:            "ACL_ERROR_RT_RINGBUFFER_NOT_INIT",
	CodeRTRingbufferNoData:             "ACL_ERROR_RT_RINGBUFFER_NO_DATA",
	CodeRTKernelLookup:                 "ACL_ERROR_RT_KERNEL_LOOKUP",
	CodeRTKernelDuplicate:              "ACL_ERROR_RT_KERNEL_DUPLICATE",
	CodeRTDebugRegisterFail:            "ACL_ERROR_RT_DEBUG_REGISTER_FAIL",
	CodeRTDebugUnregisterFail:          "ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL",
	CodeRTLabelContext:                 "ACL_ERROR_RT_LABEL_CONTEXT",
	CodeRTProgramUseOut:                "ACL_ERROR_RT_PROGRAM_USE_OUT",
	CodeRTDevSetupError:                "ACL_ERROR_RT_DEV_SETUP_ERROR",
	CodeRTVectorCoreTimeout:            "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT",
	CodeRTVectorCoreException:          "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION",
	CodeRTVectorCoreTrapException:      "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION",
	CodeRTCDQBatchAbnormal:             "ACL_ERROR_RT_CDQ_BATCH_ABNORMAL",
	CodeRTDieModeChangeError:           "ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR",
	CodeRTDieSetError:                  "ACL_ERROR_RT_DIE_SET_ERROR",
	CodeRTInvalidDieID:                 "ACL_ERROR_RT_INVALID_DIEID",
	CodeRTDieModeNotSet:                "ACL_ERROR_RT_DIE_MODE_NOT_SET",
	CodeRTAICoreTrapReadOverflow:       "ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW",
	CodeRTAICoreTrapWriteOverflow:      "ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW",
	CodeRTVectorCoreTrapReadOverflow:   "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW",
	CodeRTVectorCoreTrapWriteOverflow:  "ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW",
	CodeRTStreamSyncTimeout:            "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT",
	CodeRTEventSyncTimeout:             "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT",
	CodeRTFFTSPlusTimeout:              "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT",
	CodeRTFFTSPlusException:            "ACL_ERROR_RT_FFTS_PLUS_EXCEPTION",
	CodeRTFFTSPlusTrapException:        "ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION",
	CodeRTSendMsg:                      "ACL_ERROR_RT_SEND_MSG",
	CodeRTCopyData:                     "ACL_ERROR_RT_COPY_DATA",
	CodeRTDeviceMemError:               "ACL_ERROR_RT_DEVICE_MEM_ERROR",
	CodeRTHBMMultiBitECCError:          "ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR",
	CodeRTSuspectDeviceMemError:        "ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR",
	CodeRTLinkError:                    "ACL_ERROR_RT_LINK_ERROR",
	CodeRTSuspectRemoteError:           "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR",
	CodeRTDRVInternalError:             "ACL_ERROR_RT_DRV_INTERNAL_ERROR",
	CodeRTAICPUInternalError:           "ACL_ERROR_RT_AICPU_INTERNAL_ERROR",
	CodeRTSocketClose:                  "ACL_ERROR_RT_SOCKET_CLOSE",
	CodeRTAICPUInfoLoadRspErr:          "ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR",
	CodeRTStreamCaptureInvalidated:     "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED",
	CodeRTCommOpRetryFail:              "ACL_ERROR_RT_COMM_OP_RETRY_FAIL",
	CodeSnapshotLockTimeout:            "ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT",
	CodeSnapshotLockFailed:             "ACL_ERROR_SNAPSHOT_LOCK_FAILED",
	CodeSnapshotUnlockFailed:           "ACL_ERROR_SNAPSHOT_UNLOCK_FAILED",
	CodeSnapshotBackupFailed:           "ACL_ERROR_SNAPSHOT_BACKUP_FAILED",
	CodeSnapshotRestoreFailed:          "ACL_ERROR_SNAPSHOT_RESTORE_FAILED",
	CodeHostMemoryAlreadyRegistered:    "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
	CodeHostMemoryNotRegistered:        "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED",
	CodeSnapshotCallbackFailed:         "ACL_ERROR_SNAPSHOT_CALLBACK_FAILED",
	CodeSnapshotRegisterCallbackFailed: "ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED",
	CodeRTL3PortError:                  "ACL_ERROR_RT_L3_PORT_ERROR",
	CodeRTCCUTimeout:                   "ACL_ERROR_RT_CCU_TIMEOUT",
	CodeRTCCUException:                 "ACL_ERROR_RT_CCU_EXCEPTION",
}

// Name is the CANN name of the code, such as ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
//
// CANN: none.
func (c Code) Name() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return "ACL_ERROR_UNKNOWN"
}

// Error renders the code and its name, as in "507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT".
func (c Code) Error() string { return itoa(int64(c)) + " " + c.Name() }

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
