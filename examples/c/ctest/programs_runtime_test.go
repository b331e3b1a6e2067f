package ctest_test

// runtimeExamples are the programs of the runtime's remaining calls (41
// on): shared buffers, data buffers and versions.
var runtimeExamples = []example{
	{"41_buffers", "", []string{
		"ok: before aclInit: package runtime is version 9.1.0, number 90100000",
		"ok: aclsysGetCANNVersion(ACL_PKG_NAME_CANN): 9.1.0 = 9.1.0.0",
		"ok: aclGetCannAttributeList: no feature available (0)",
		"ok: a size of 4 GiB + 5: aclGetDataBufferSizeV2 whole, the deprecated aclGetDataBufferSize cut to 32 bits",
		"ok: aclCreateDataBuffer(NULL, 16) is refused (NULL, last error 100000)",
		"ok: the data outlives two of its three buffers",
		"ok: the data area after its last buffer was freed (",
		"ok: user data past 96 bytes (8 at 89) (",
		"ok: aclrtAppendBufChain x3: 4 buffers, index 0 the head, the rest in order",
		"ok: freeing the head freed its chain (",
		"ok: a chain of 128 buffers",
		"ok: a data buffer made before aclInit still answers after aclFinalize",
	}},
}
