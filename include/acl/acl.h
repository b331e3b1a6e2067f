/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl.h: the header applications include; it pulls in the runtime,
 * operator and model headers.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
