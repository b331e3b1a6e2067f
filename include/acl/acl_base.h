/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_base.h: base types, macros and result codes shared by all acl
 * headers.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_H_
#define INC_EXTERNAL_ACL_ACL_BASE_H_

/*
 * The acl/ prefixed names below resolve when the directory that contains
 * acl/ is on the include path (-I<prefix>/include), which is how CANN
 * programs are built. If only the acl/ directory itself is on the path,
 * the unprefixed names are used instead.
 */
#ifdef __has_include
#if __has_include("acl/acl_base_rt.h")
#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#else
#include "acl_base_rt.h"
#include "acl_base_mdl.h"
#endif
#else
#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#endif
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* INC_EXTERNAL_ACL_ACL_BASE_H_ */
