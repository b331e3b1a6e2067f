// gocann/superkernel.h: SuperKernel ranges of a captured stream, a gocann
// extension the generated front (from the acl headers) does not cover.

#include "front.h"
#include "gocann/superkernel.h"

#define EXPORT __attribute__((visibility("default")))

static aclError (*core_sk_begin)(gocann_thread *, aclrtStream, const char *);
static aclError (*core_sk_end)(gocann_thread *, aclrtStream);

const gocann_core_sym gocann_superkernel_syms[] = {
	{"gocann_gocannSuperKernelBegin", &core_sk_begin},
	{"gocann_gocannSuperKernelEnd", &core_sk_end},
	{0, 0},
};

EXPORT aclError gocannSuperKernelBegin(aclrtStream stream, const char *name) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "gocannSuperKernelBegin", (aclError)e_);
	GOCANN_CHECK_PTR(t, "gocannSuperKernelBegin", "stream", stream, 1, (aclError)e_);
	return core_sk_begin(t, stream, name);
}

EXPORT aclError gocannSuperKernelEnd(aclrtStream stream) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "gocannSuperKernelEnd", (aclError)e_);
	GOCANN_CHECK_PTR(t, "gocannSuperKernelEnd", "stream", stream, 1, (aclError)e_);
	return core_sk_end(t, stream);
}
