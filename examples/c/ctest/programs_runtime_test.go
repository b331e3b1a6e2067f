package ctest_test

// runtimeExamples are the programs of the process-level runtime calls:
// init and finalize callbacks, system parameters, the data dump.
var runtimeExamples = []example{
	{"44_process", "vadd", []string{
		"ok: ACL_OPT_DETERMINISTIC set to 3 before aclInit reads back 3",
		"ok: ACL_OPT_DETERMINISTIC 4 (aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4) -> 107000)",
		"ok: option 4 (aclrtSetSysParamOpt((aclSysParamOpt)4, 0) -> 100000)",
		"ok: aclrtCtxSetSysParamOpt without a current context (aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1) -> 107002)",
		"ok: a process-only option, refused before the context is looked for (aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1) -> 100000)",
		"ok: a context option never set (aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v) -> 107021)",
		"ok: a context set also sets the process's value, as CANN's runtime does: 1",
		"ok: ACL_OPT_ENABLE_KERNEL_EARLY_START on a context (aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1) -> 100000)",
		"ok: the process's values outlive aclFinalize: ACL_OPT_DETERMINISTIC 3",
		"ok: a second init callback of one type (aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_fails, \"x\") -> 500000)",
		"ok: a NULL init callback (aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, NULL, NULL) -> 100000)",
		"ok: aclInit whose DVPP callback fails (aclInit(cfgPath) -> 500001)",
		"ok: callbacks before the failure ran, in order: model dvpp-fails",
		"ok: aclInit ran model, then the OTHER callbacks in order: model other1 other2",
		"ok: the init callbacks got the configuration file's text and its length (21)",
		"ok: an init callback registered after aclInit runs at once: late",
		"ok: aclFinalize whose model callback fails (aclFinalize() -> 500001)",
		"ok: aclFinalize ran op compiler, then OTHER: fin-compiler fin-other",
		"ok: aclInit(NULL) skips the op executor and passes an empty text: model other1 other2",
		"ok: aclmdlInitDump before aclInit (aclmdlInitDump() -> 100001)",
		"ok: aclmdlSetDump before aclmdlInitDump (aclmdlSetDump(path) -> 100045)",
		"ok: aclmdlInitDump twice (aclmdlInitDump() -> 100002)",
		"ok: a missing dump file (aclmdlSetDump(\"/nonexistent/dump.json\") -> 100003)",
		"ok: a dump file nested 11 deep (aclmdlSetDump(path) -> 100006)",
		"ok: a dump without dump_path (aclmdlSetDump(path) -> 100009)",
		"ok: the message names the field: ",
		"ok: 3 dumped vadd tasks: x, y and z before and after each, byte for byte (18 files, none for n)",
		"ok: a later aclmdlSetDump naming layer \"other\" dumps no vadd (18 files)",
		"ok: aclmdlInitDump with aclInit's dump on (aclmdlInitDump() -> 100044)",
		"ok: aclInit with an empty dump_path (aclInit(path) -> 100009)",
	}},
}
