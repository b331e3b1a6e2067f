/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_base_mdl.h: base types of the model (aclmdl) API. The model API
 * is not provided yet, so this header declares nothing; it exists so that
 * programs and other headers that include it still compile.
 */
#ifndef GOCANN_ACL_ACL_BASE_MDL_H_
#define GOCANN_ACL_ACL_BASE_MDL_H_

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* GOCANN_ACL_ACL_BASE_MDL_H_ */
