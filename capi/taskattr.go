package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

//export gocann_aclmdlRIKernelTaskGetAttribute
func gocann_aclmdlRIKernelTaskGetAttribute(t *C.gocann_thread, p C.aclmdlRITask, id C.aclrtLaunchKernelAttrId, out *C.aclrtLaunchKernelAttrValue) C.aclError {
	const fn = "aclmdlRIKernelTaskGetAttribute"
	if out == nil {
		return nullArg(t, fn, "attrValue")
	}
	tk, code := taskOf(t, fn, p)
	if code != 0 {
		return code
	}
	lc, err := tk.t.LaunchConfig()
	if err != nil {
		return fail(t, fn, err)
	}
	v := unsafe.Pointer(out)
	switch id {
	case C.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
		*(*C.uint8_t)(v) = C.uint8_t(lc.SchedMode)
	case C.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
		*(*C.uint32_t)(v) = C.uint32_t(lc.DynUBufSize)
	case C.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
		var d C.uint8_t
		if lc.DataDump {
			d = 1
		}
		*(*C.uint8_t)(v) = d
	case C.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
		*(*C.uint16_t)(v) = C.uint16_t(lc.Timeout / time.Second)
	case C.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
		us := uint64(lc.Timeout / time.Microsecond)
		tu := (*C.aclrtTimeoutUs)(v)
		tu.timeoutLow, tu.timeoutHigh = C.uint32_t(us), C.uint32_t(us>>32)
	case C.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, C.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, C.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
		return failf(t, fn, gocann.KindInvalidParam, "attrId %d cannot be queried, expected SCHEM_MODE (1), DYN_UBUF_SIZE (2), DATA_DUMP (6), TIMEOUT (7) or TIMEOUT_US (8)", id)
	default:
		return failf(t, fn, gocann.KindInvalidParam, "attrId %d is invalid, expected SCHEM_MODE (1), DYN_UBUF_SIZE (2), DATA_DUMP (6), TIMEOUT (7) or TIMEOUT_US (8)", id)
	}
	return 0
}

//export gocann_aclrtTaskUpdateAsync
func gocann_aclrtTaskUpdateAsync(t *C.gocann_thread, taskStream C.aclrtStream, taskID C.uint32_t, info *C.aclrtTaskUpdateInfo, execStream C.aclrtStream) C.aclError {
	const fn = "aclrtTaskUpdateAsync"
	if info == nil {
		return nullArg(t, fn, "info")
	}
	if code := unsupported(t, "aclrtTaskUpdateAsync"); code != 0 {
		return code
	}
	if taskStream == nil {
		return nullArg(t, fn, "taskStream")
	}
	_, ms, code := modelStreamOf(t, fn, taskStream)
	if code != 0 {
		return code
	}
	tasks := ms.Tasks()
	if uint64(taskID) >= uint64(len(tasks)) {
		return failf(t, fn, gocann.KindInvalidParam, "taskId %d is invalid, expected 0..%d, a task of the %d of the stream's model stream", taskID, len(tasks)-1, len(tasks))
	}
	var attr C.aclrtAicAivTaskUpdateAttr
	switch info.id {
	case C.ACL_RT_UPDATE_AIC_AIV_TASK:
		attr = *(*C.aclrtAicAivTaskUpdateAttr)(unsafe.Pointer(&info.val))
	case C.ACL_RT_UPDATE_RANDOM_TASK:
		return failf(t, fn, gocann.KindNotSupported, "ACL_RT_UPDATE_RANDOM_TASK needs random-number tasks, which the simulator does not run")
	default:
		return failf(t, fn, gocann.KindInvalidParam, "info->id %d is invalid, expected ACL_RT_UPDATE_RANDOM_TASK (1) or ACL_RT_UPDATE_AIC_AIV_TASK (2)", info.id)
	}
	if attr.funcEntryAddr == nil || attr.blockDimAddr == nil {
		return nullArg(t, fn, "info->val.aicAivTaskAttr.funcEntryAddr or blockDimAddr")
	}
	b, code := binaryOf(t, fn, C.aclrtBinHandle(attr.binHandle))
	if code != 0 {
		return code
	}
	s, code := queueStream(t, fn, execStream)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.UpdateKernelTask(tasks[taskID], b.kernelAt, devPtr(attr.funcEntryAddr), devPtr(attr.blockDimAddr)))
}
