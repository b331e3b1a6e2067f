/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * gocann/host.h: what a host function can tell the runtime that CANN's
 * C API has no words for.
 */
#ifndef GOCANN_HOST_H_
#define GOCANN_HOST_H_

#ifdef __cplusplus
extern "C" {
#endif

/*
 * gocann_host_func_fail, called from inside a host function
 * (aclrtLaunchHostFunc) or a blocking callback (aclrtLaunchCallback with
 * ACL_CALLBACK_BLOCK), fails the task it runs as once the function
 * returns: the stream reports a host function fault (ACL_ERROR_RT_INTERNAL_ERROR, 507000) with message,
 * and its failure mode applies, as when the function had crashed. Language
 * bindings use it for a callable that raised. Outside such a function it
 * does nothing.
 */
void gocann_host_func_fail(const char *message);

#ifdef __cplusplus
}
#endif

#endif /* GOCANN_HOST_H_ */
