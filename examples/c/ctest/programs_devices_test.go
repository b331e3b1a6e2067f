package ctest_test

// deviceExamples are the programs of many devices and the rest of device
// memory (28 on): peer access, identity, virtual, managed and registered
// memory, more copies, pools, allocators, symbols, kernel parameters and
// chip profiles.
var deviceExamples = []example{
	{"28_multidevice", "vadd", []string{
		"ok: aclrtSetDevice(3) again: the same default context and stream",
		"ok: a kernel launch on device 0's stream with device 3 current (",
		"ok: aclrtLaunchKernel on device 0's stream with device 3 current (",
		"ok: aclrtStreamWaitEvent of device 1's event on device 3's stream (",
		"ok: aclrtSynchronizeEvent and aclrtQueryEventStatus of device 2's event with device 3 current",
		"ok: after 3 of 4 aclrtResetDevice(0): aclrtGetDevice = 0, same context",
		"ok: after the last aclrtResetDevice(0) the thread has no device (",
	}},
	{"29_peer", "", []string{
		"ok: aclrtGetDevicesTopo(3, 0) = SYS",
		"ok: aclrtDeviceEnablePeerAccess with flags 1 (aclrtDeviceEnablePeerAccess(1, 1) -> 200006)",
		"ok: all 48 copies of the 12 ordered pairs",
		"ok: aclrtMemP2PMap with 2->1 enabled succeeds and changes no bytes",
		"ok: the guide's example copies device 0 to device 1 on device 1",
	}},
	{"30_identity", "value", []string{
		"ok: ASCEND_RT_VISIBLE_DEVICES=1,3: aclrtGetDeviceCount = 2",
		"ok: aclrtGetLogicDevIdByPhyDevId(7) = 1 (a user id, as documented)",
		"ok: aclrtDeviceGetPCIBusId: 0000:08:00.0 (chip 7), 0000:06:00.0 (chip 5)",
		"ok: P2P atomics over HCCS: DMA add and max",
		"ok: aclrtDeviceSetLimit(SIMD stack, 70000) reads back 81920",
		"ok: device 1 polling for 400 ms: cube and vector",
		"ok: aclrtGetMemUsageInfo: ",
	}},
	{"33_hostreg", "vadd", []string{
		"ok: a kernel wrote registered host memory in place: the host reads every element + 1000 with no copy",
		"ok: registered source read when the copy ran, not staged at the call",
		"ok: registering the same range twice (",
		"ok: VA-consistent host memory: the registered device address equals the host address",
		"ok: aclrtFreeHostWithDevSync returns with the stream's copy done",
		"ok: aclrtCheckMemType DEV of aclrtMalloc memory: 1",
	}},
	{"34_copies", "", []string{
		"ok: aclrtMemcpyBatch: each of 16 copies landed, failIndex SIZE_MAX",
		"ok: aclrtMemcpyBatchAsync device to host, two attribute runs: every byte back",
		"ok: failIndex 9 (the first copy of the bad attribute's run), nothing copied",
		"ok: no refused batch copied a byte",
		"ok: aclrtMemsetD32 and aclrtMemsetD32Async fill their words and nothing else",
		"ok: after aclrtSetMemcpyDesc the same model copies what the descriptor now says",
	}},
	{"35_cmo", "", []string{
		"ok: memset, aclrtCmoAsync, aclrtCmoAsyncWithDesc, memset: the cache operations ran in order and changed nothing",
		"ok: a captured aclrtCmoAsync replays with the memset after it",
		"ok: the model's barrier operations ran in order between its memsets",
	}},
	{"36_pool", "", []string{
		"ok: memory freed on a stream is reused by its next allocation at once",
		"ok: opportunistic: reused by another stream once the free ran",
		"ok: event dependencies: reused after waiting for an event recorded behind the free",
		"ok: the reusing stream's next task waits for the free",
		"ok: a synchronize gives back what exceeds a threshold of 0",
		"ok: and is freed once the stream got there",
	}},
	{"37_allocator", "", []string{
		"ok: GetByStream returns the descriptor, object and callbacks as registered (no advise function)",
		"ok: a descriptor changed after registering leaves the registration as it was",
		"ok: each stream keeps its own allocator",
		"ok: unregistering a destroyed stream succeeds",
	}},
	{"38_symbols", "symbols", []string{
		"ok: aclrtGetSymbolAddress of the global is its device address",
		"ok: the kernel scaled by the 7 written to its global",
		"ok: the kernel summed the table written before it on its stream (1200)",
		"ok: the async read after the kernel sees the coeff it incremented (8)",
		"ok: a global of an unloaded binary",
	}},
	{"39_params", "params", []string{
		"ok: aclrtLaunchKernelWithArgsArray packs the declared INT32, INT16, INT8 and INT64 parameters (4294967280 -2 -3 1099511627776)",
		"ok: a 32-byte block for pack's 40 bytes of declared parameters (",
		"ok: a kernel declared with no parameters runs with an empty argument list and block (7 blocks counted)",
		"ok: aclrtLaunchKernelWithArgsArray of an undeclared kernel -> 107000, naming the macro",
	}},
	{"40_profiles", "", []string{
		"ok: aclrtGetSocName before aclInit follows GOCANN_SOC_NAME: Ascend910_9391",
		"ok: aclrtActiveStream on an Atlas A3 -> 207000: ",
		"ok: aclrtSwitchStream on an Atlas A3 -> 207000: ",
		"ok: soc_name in the configuration wins over GOCANN_SOC_NAME: Ascend910B1",
		"ok: aclrtActiveStream on an Atlas A2: the activated stream ran in the model",
		"ok: aclrtCreateStreamConfigHandle on an Atlas A2: NULL, last error 207000: ",
		"ok: aclrtCreateStreamV2 on an Atlas A2 (",
		"ok: Ascend950PR_9599: 36 AI cores, 72 vector cores, 128 GiB of HBM",
		"ok: aclInit with soc_name Ascend310P3 -> 100008: ",
	}},
	{"31_vmm", "vadd", []string{
		"ok: aclrtCheckMemType RSVD of two reserved addresses: 1",
		"ok: aclrtMemcpy in through one mapping reads back through the other (3 MiB)",
		"ok: a kernel adding through one mapping: the other reads 5 and 42",
		"ok: mapping over a mapping (aclrtMapMem(b, 2 * MIB2, 0, h, 0) -> 107000)",
		"ok: a kernel on memory without access faults at its start (aclrtSynchronizeStream(s) -> 507015)",
		"ok: aclrtFreePhysical of a mapped handle keeps the memory while it is mapped",
		"ok: aclrtMemMapSelectedLink on an Atlas A2 (",
		"ok: everything freed: free memory is back to",
	}},
	{"32_managed", "vadd", []string{
		"ok: a kernel wrote through the managed pointer and the host reads all 524288 words in place (first wrong -1)",
		"ok: LAST_PREFETCH_LOCATION while the prefetch is queued: -2",
		"ok: after the prefetch to device 0: 0",
		"ok: aclrtFree gives the managed memory back",
	}},
}
