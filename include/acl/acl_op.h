/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_op.h: the single-operator (aclop) API. Not provided yet: this
 * header declares nothing and exists so that programs including it compile.
 */
#ifndef GOCANN_ACL_ACL_OP_H_
#define GOCANN_ACL_ACL_OP_H_

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* GOCANN_ACL_ACL_OP_H_ */
