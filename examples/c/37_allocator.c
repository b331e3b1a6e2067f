/*
 * 37_allocator: custom allocator descriptors (acl/acl_rt_allocator.h):
 * building a descriptor, registering it on streams, reading back exactly
 * what was registered, replacing and unregistering it, and every refusal
 * with its code.
 */
#include "common.h"

static int obj_a, obj_b;

static void *alloc_a(aclrtAllocator a, size_t n) { (void)a; (void)n; return NULL; }
static void *alloc_b(aclrtAllocator a, size_t n) { (void)a; (void)n; return NULL; }
static void free_a(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a; (void)b; }
static void *advise_a(aclrtAllocator a, size_t n, aclrtAllocatorAddr p) { (void)a; (void)n; return p; }
static void *addr_a(aclrtAllocatorBlock b) { return b; }

int main(void)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtAllocatorDesc d = NULL, d2 = NULL, got = NULL;
    aclrtAllocator obj = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    aclrtAllocatorFreeFunc ff = NULL;
    aclrtAllocatorAllocAdviseFunc vf = NULL;
    aclrtAllocatorGetAddrFromBlockFunc gf = NULL;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));

    d = aclrtAllocatorCreateDesc();
    EXPECT(d != NULL, "aclrtAllocatorCreateDesc gives a descriptor");
    EXPECT_CODE(aclrtAllocatorRegister(s1, d), ACL_ERROR_INVALID_PARAM, "registering a descriptor with no object");
    EXPECT_CODE(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "a NULL allocator object");
    EXPECT_CODE(aclrtAllocatorSetObjToDesc(NULL, &obj_a), ACL_ERROR_INVALID_PARAM, "a NULL descriptor");
    CHECK(aclrtAllocatorSetObjToDesc(d, &obj_a));
    EXPECT_CODE(aclrtAllocatorSetAllocFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "a NULL alloc function");
    CHECK(aclrtAllocatorSetAllocFuncToDesc(d, alloc_a));
    EXPECT_CODE(aclrtAllocatorRegister(s1, d), ACL_ERROR_INVALID_PARAM, "registering without a free function");
    CHECK(aclrtAllocatorSetFreeFuncToDesc(d, free_a));
    EXPECT_CODE(aclrtAllocatorRegister(s1, d), ACL_ERROR_INVALID_PARAM, "registering without getAddrFromBlock");
    CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, addr_a));
    EXPECT_CODE(aclrtAllocatorGetByStream(s1, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "GetByStream before any registration");
    CHECK(aclrtAllocatorRegister(s1, d));
    CHECK(aclrtAllocatorGetByStream(s1, &got, &obj, &af, &ff, &vf, &gf));
    EXPECT(got == d && obj == &obj_a && af == alloc_a && ff == free_a && vf == NULL && gf == addr_a,
           "GetByStream returns the descriptor, object and callbacks as registered (no advise function)");

    /* The registration is a copy: changing the descriptor changes nothing. */
    CHECK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, advise_a));
    CHECK(aclrtAllocatorSetAllocFuncToDesc(d, alloc_b));
    CHECK(aclrtAllocatorGetByStream(s1, &got, &obj, &af, NULL, &vf, NULL));
    EXPECT(af == alloc_a && vf == NULL, "a descriptor changed after registering leaves the registration as it was");
    CHECK(aclrtAllocatorRegister(s1, d));
    CHECK(aclrtAllocatorGetByStream(s1, &got, NULL, &af, NULL, &vf, NULL));
    EXPECT(af == alloc_b && vf == advise_a, "registering again replaces it");

    /* Per stream. */
    d2 = aclrtAllocatorCreateDesc();
    CHECK(aclrtAllocatorSetObjToDesc(d2, &obj_b));
    CHECK(aclrtAllocatorSetAllocFuncToDesc(d2, alloc_a));
    CHECK(aclrtAllocatorSetFreeFuncToDesc(d2, free_a));
    CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d2, addr_a));
    CHECK(aclrtAllocatorRegister(s2, d2));
    CHECK(aclrtAllocatorGetByStream(s2, &got, &obj, NULL, NULL, NULL, NULL));
    EXPECT(got == d2 && obj == &obj_b, "each stream keeps its own allocator");
    CHECK(aclrtAllocatorGetByStream(s1, &got, &obj, NULL, NULL, NULL, NULL));
    EXPECT(got == d && obj == &obj_a, "and the other stream's is unchanged");

    /* Destroying the descriptor leaves the registration. */
    CHECK(aclrtAllocatorDestroyDesc(d2));
    CHECK(aclrtAllocatorGetByStream(s2, &got, &obj, NULL, NULL, NULL, NULL));
    EXPECT(got == d2 && obj == &obj_b, "a destroyed descriptor's registration stays");
    EXPECT_CODE(aclrtAllocatorDestroyDesc(d2), ACL_ERROR_RT_INVALID_HANDLE, "destroying a descriptor twice");
    EXPECT_CODE(aclrtAllocatorSetObjToDesc(d2, &obj_a), ACL_ERROR_RT_INVALID_HANDLE, "setting into a destroyed descriptor");
    EXPECT_CODE(aclrtAllocatorRegister(s2, d2), ACL_ERROR_RT_INVALID_HANDLE, "registering a destroyed descriptor");
    EXPECT_CODE(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM, "destroying NULL");
    EXPECT_CODE(aclrtAllocatorRegister((aclrtStream)d, d), ACL_ERROR_RT_INVALID_HANDLE, "a descriptor passed as a stream");

    /* NULL arguments. */
    EXPECT_CODE(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM, "registering on the NULL stream");
    EXPECT_CODE(aclrtAllocatorRegister(s1, NULL), ACL_ERROR_INVALID_PARAM, "registering NULL");
    EXPECT_CODE(aclrtAllocatorGetByStream(s1, NULL, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "GetByStream with allocatorDesc NULL");
    EXPECT_CODE(aclrtAllocatorGetByStream(NULL, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "GetByStream of the NULL stream");
    EXPECT_CODE(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM, "unregistering the NULL stream");

    /* Unregistering. */
    CHECK(aclrtAllocatorUnregister(s1));
    EXPECT_CODE(aclrtAllocatorGetByStream(s1, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "GetByStream after unregistering");
    CHECK(aclrtAllocatorUnregister(s1));
    pass("unregistering twice succeeds");
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtAllocatorUnregister(s2));
    pass("unregistering a destroyed stream succeeds");
    EXPECT_CODE(aclrtAllocatorGetByStream(s2, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE,
                "GetByStream of a destroyed stream");

    CHECK(aclrtAllocatorDestroyDesc(d));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 37_allocator\n");
    return 0;
}
