/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_mdl.h: the model (aclmdl) API. Not provided yet: this header
 * declares nothing and exists so that programs including it compile.
 * Model run instance (aclmdlRI) types live in acl_rt.h.
 */
#ifndef GOCANN_ACL_ACL_MDL_H_
#define GOCANN_ACL_ACL_MDL_H_

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* GOCANN_ACL_ACL_MDL_H_ */
