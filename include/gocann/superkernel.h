/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * gocann/superkernel.h: marking a SuperKernel in a captured stream, a
 * gocann extension (CANN builds SuperKernels in its graph compiler).
 */
#ifndef GOCANN_SUPERKERNEL_H_
#define GOCANN_SUPERKERNEL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * While stream is being captured (aclmdlRICaptureBegin), the kernel
 * launches queued on it between gocannSuperKernelBegin and
 * gocannSuperKernelEnd become one kernel task of the captured model, named
 * name: a SuperKernel, which calls them as sub-kernels in order, as wide
 * as its widest one, with a barrier of all its blocks between each pair,
 * so that a sub-kernel sees everything the one before it wrote.
 *
 * Refused with ACL_ERROR_RT_STREAM_NOT_CAPTURED: Begin or End on a stream
 * that is not capturing. With ACL_ERROR_INVALID_PARAM: a NULL name. With
 * ACL_ERROR_RT_PARAM_INVALID: a Begin while a range is open on the
 * stream, an End without one, an End whose SuperKernel is wider than the
 * chip's AI cores (its blocks all run at once), and any
 * task but a kernel launch (an AI-core kernel whose arguments are given
 * from the host) queued inside a range. aclmdlRICaptureEnd with a range
 * still open fails with ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED.
 *
 * A kernel whose Ascend C source binds an __sk__ function to it with
 * SK_BIND runs that function as a sub-kernel. On an Atlas A3 or Ascend
 * 950, SetNextTaskStart and WaitPreTaskEnd (gocann/kernel.h, Ascend C's)
 * take effect in sub-kernels: the next sub-kernel starts once every core
 * of one called SetNextTaskStart; WaitPreTaskEnd waits for the one before
 * to end everywhere. A sub-kernel that calls one on some cores only, or
 * twice on a core, or not as its SK_BIND cap declares, fails the run with
 * ACL_ERROR_RT_AICORE_EXCEPTION.
 */
aclError gocannSuperKernelBegin(aclrtStream stream, const char *name);
aclError gocannSuperKernelEnd(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* GOCANN_SUPERKERNEL_H_ */
