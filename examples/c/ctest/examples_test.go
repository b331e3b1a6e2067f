package ctest_test

import (
	"strings"
	"testing"
	"time"
)

// example is one C program: the kernel binary it takes, if any, and lines
// its output must hold (each a substring of a line).
type example struct {
	name   string
	kernel string
	want   []string
}

// envs holds what a program adds to its environment.
var envs = map[string][]string{
	// A collection every 5% of heap growth: many collections run while
	// handles and the direct path's records are reused.
	"22_churn": {"GOGC=5"},
	// Devices 1 and 3 of four, as user devices 0 and 1.
	"30_identity": {"ASCEND_RT_VISIBLE_DEVICES=1,3"},
	// A chip other than the default one, an Atlas A3.
	"40_profiles": {"GOCANN_SOC_NAME=Ascend910_9391"},
}

var examples = []example{
	{"01_device", "", []string{
		"ok: aclrtGetSocName before aclInit: Ascend",
		"ok: repeated aclInit (aclInit(NULL) -> 100002)",
		"ok: aclrtGetDeviceCount = ",
		"ok: after one of two aclrtResetDevice(0), a stream of device 0 still works",
		"ok: after the last aclrtResetDevice(0), its streams are gone",
		"ok: second aclFinalize (aclFinalize() -> 100037)",
		"ok: aclInit / aclFinalize / aclInit again works",
		"ok: defaultDevice: aclrtMalloc without aclrtSetDevice",
		"ok: defaultDevice: aclrtCreateStream without aclrtSetDevice",
	}},
	{"02_context", "", []string{
		"ok: aclrtCreateContext(0) makes the new context current",
		"ok: aclrtSetCurrentContext(c0): device 0",
		"ok: default stream follows the current context",
		"ok: aclrtSetCurrentContext of a destroyed context (aclrtSetCurrentContext(c1) -> 107017)",
		"ok: queueing on a stream of another context (",
	}},
	{"03_stream", "vadd", []string{
		"ok: held stream: aclrtStreamQuery NOT_READY",
		"-> 507046)",
		"ok: the trap is reported at synchronization (aclrtSynchronizeStream(s) -> 507016)",
		"ok: the other stream of the context is stopped by it (507016)",
		"ok: after the aborts both streams run new work",
		"then 207008",
		"ok: after a destroy a stream can be created again",
		"ok: aclrtDestroyStreamForce dropped the queued memset",
	}},
	{"04_memory", "", []string{
		"ok: never-used device memory reads zero",
		"ok: aclrtMemcpy DEFAULT infers host to device and device to host",
		"ok: destMax smaller than count (",
		"ok: aclrtMemcpyAsync with pageable memory",
		"ok: aclrtMemcpyAsync with pinned memory",
		"ok: aclrtMemcpy2dAsync device to pinned host copies them back",
		"ok: aclrtMemcpy2d ACL_MEMCPY_DEFAULT from device memory to the host copies the rows",
		"ok: aclrtMemcpy2d ACL_MEMCPY_DEVICE_TO_DEVICE (the asynchronous call copies device to device) (",
		"ok: aclrtMemcpy2d ACL_MEMCPY_DEFAULT between device buffers (",
		"ok: copy from freed memory (",
		"ok: memset of device 1 memory on a device 0 stream (",
		"ok: a freed block allocated again keeps its old bytes",
	}},
	{"05_event", "", []string{
		"ok: aclrtStreamWaitEvent orders s2's copy after s1's memset",
		"ok: record behind a held stream: NOT_READY (0)",
		"-> 507047)",
		"ok: aclrtStreamWaitEventWithTimeout(1 s) times out",
		"ok: aclrtEventElapsedTime around a 50 ms sleep",
		"ok: after aclrtResetEvent it reads NOT_READY again",
		"ok: aclrtResetEvent of an aclrtCreateEventExWithFlag event (",
	}},
	{"06_notify", "", []string{
		"ok: one record released exactly one wait",
		"ok: a record on device 0 released the wait on device 1",
		"ok: aclrtWaitAndResetNotify(1 s) with no record (aclrtSynchronizeStream(b) -> 107019)",
		"ok: record of a destroyed notify (",
	}},
	{"07_value", "value", []string{
		"ok: GEQ ((int64_t)(*addr - value) >= 0): word 0xb releases it",
		"ok: EQ (*addr == value): word 0x2a releases it",
		"ok: AND ((*addr & value) != 0): word 0x11 releases it",
		"ok: NOR (~(*addr | value) != 0): word 0x7f releases it",
		"ok: a kernel storing the word released aclrtValueWait on another stream",
		"ok: aclrtValueWrite on another stream released the polling kernel",
	}},
	{"08_callback", "", []string{
		"ok: aclrtLaunchHostFunc: host functions run in stream order",
		"ok: aclrtProcessReport in a thread never subscribed (aclrtProcessReport(10) -> 107012)",
		"ok: aclrtProcessReport(50 ms) with nothing to run returns ACL_ERROR_RT_REPORT_TIMEOUT (507012)",
		"ok: BLOCK callbacks ran in order and the stream waited for them",
		"ok: the callbacks ran on the subscribed report thread",
		"ok: NO_BLOCK: the stream ran past the callback before it returned",
		"ok: aclrtLaunchCallback after aclrtUnSubscribeReport (",
	}},
	{"09_kernel", "vadd", []string{
		"ok: aclrtLaunchKernel (arguments in device memory): all 10007 sums right",
		"ok: aclrtLaunchKernelV2 (with a cfg): all 10007 sums right",
		"ok: aclrtLaunchKernelWithHostArgs: all 10007 sums right",
		"ok: aclrtLaunchKernelWithHostArgs with a placeholder for x: all 10007 sums right",
		"ok: aclrtLaunchKernelWithConfig (Append, AppendPlaceHolder, GetPlaceHolderBuffer, Finalize): all 10007 sums right",
		"after aclrtKernelArgsParaUpdate of z: all 10007 sums right",
		"ok: aclrtLaunchKernelWithArgsArray: all 10007 sums right",
		"ok: aclrtLaunchKernelWithArgsArray with a 4-byte parameter: all 10007 sums right",
		"ok: aclrtBinaryLoadFromData, 3 blocks: all 10007 sums right",
		`ok: aclrtGetFunctionName = "vadd"`,
		"kernel hello: tag 4242, 3 blocks", // printf in a kernel reaches stdout
		"ok: Trap() in block 2 (aclrtSynchronizeStream(s) -> 507016)",
		"is not an ELF shared object",
		"cannot run on the simulated NPU",
		"ok: aclrtBinaryUnLoad",
	}},
	{"10_error", "vadd", []string{
		"ok: aclGetRecentErrMsg with no failure: NULL",
		"ok: aclrtPeekAtLastError keeps it",
		"ok: and clears it",
		"ok: each names its parameter",
		"ok: 5001 unread failures leave 1000 messages pending (1000)",
		"ok: this thread does not see it",
		"ok: this thread's sync reports the trap",
		"ok: each callback ran once (set 1, registered 1)",
		"ok: getters: task 1,",
		"ok: an event handle passed as a stream (",
		"ok: a pointer to random memory as a stream (",
		"ok: the stale handle stays dead after a new stream (",
		"ok: a copy to address 0x10 (",
		"ok: the message names dst: aclrtMemcpy failed: 100000",
		"ok: aclrtCreateStream into address 0x8 (",
		"ok: context handle 0x1 (",
		"ok: aclrtCreateStream(NULL) (aclrtCreateStream(NULL) -> 100000)",
		"ok: err_msg_mode 1: another thread's message is visible",
	}},
	{"11_threads", "vadd", []string{
		"ok: thread 7 (own context on device 1)",
		"ok: thread 6: its last error is its own 507016",
		"ok: the main thread saw none of them",
	}},
	{"12_model_build", "model", []string{
		"ok: a kernel on a persistent stream bound to no model (trace(head, 1) -> 107005)",
		"ok: binding a stream created without ACL_STREAM_PERSISTENT (",
		"ok: aclmdlRIExecute(-1): the head stream, then the activated one (12)",
		"ok: three aclmdlRIExecuteAsync between a memset and a kernel of the stream (1212129)",
		"ok: after aclmdlRIUnbindStream the model still runs both streams",
		"ok: aclrtPersistentTaskClean dropped the two tasks queued before it (6)",
		`ok: aclmdlRISetName: the last name wins ("resnet50")`,
		"ok: aclmdlRIDestroy of a running model (aclmdlRIDestroy(mh) -> 107037)",
		"-> 507046)",
		"ok: aclmdlRIDestroy ran the registered callback once, not the unregistered one (1)",
	}},
	{"13_capture", "model", []string{
		"ok: nothing captured ran during the capture",
		"ok: 4 replays on 3 other streams and the origin each ran every captured task once (4 right)",
		"ok: GLOBAL capture, another thread in its default (GLOBAL) mode: aclrtMemcpy and aclrtMemset refused (107030, 107030)",
		"ok: GLOBAL capture, another thread in THREAD_LOCAL mode: aclrtMemcpy and aclrtMemset run at once, uncaptured",
		"ok: THREAD_LOCAL capture, the capturing thread in its default (GLOBAL) mode: aclrtMemcpy and aclrtMemset refused",
		"ok: RELAXED capture, another thread in its default (GLOBAL) mode: aclrtMemcpy and aclrtMemset run at once, uncaptured",
		"ok: aclrtQueryEventStatus of a captured event: refused (107030)",
		"ok: each synchronization and query is refused the same way in THREAD_LOCAL and RELAXED captures",
		"ok: aclmdlRICaptureBegin of the default stream (NULL) (",
		"ok: RELAXED capture: aclrtMemcpyAsync from pageable memory (",
		"ok: aclmdlRICaptureEnd of a stream not capturing (aclmdlRICaptureEnd(cap, &m) -> 107029)",
		"ok: GLOBAL capture: aclmdlRICaptureEnd on another thread: refused (107038)",
		"ok: RELAXED capture: aclmdlRICaptureEnd on another thread succeeds",
	}},
	{"14_cross_stream", "model", []string{
		"ok: aclrtStreamWaitEvent on a captured event pulled s2 into s1's capture",
		"ok: s3 joined too, by waiting for an event of s2",
		"ok: aclmdlRICaptureEnd on a joined stream (aclmdlRICaptureEnd(s2, &m) -> 107036)",
		"ok: 3 replays ran the chain in its order each time (123451234512345)",
		"ok: s2 never records an event: aclmdlRICaptureEnd -> 107025",
		"ok: s2 queues a task after joining back: aclmdlRICaptureEnd -> 107025",
		"ok: waiting in a capture for an event never recorded (aclrtStreamWaitEvent(s1, ev[i]) -> 107024)",
		"ok: s3's capture waiting for an event of s1's capture (aclrtStreamWaitEvent(to, ev[0]) -> 107032)",
		"ok: a wait for an external event recorded in a capture leaves the stream outside; the replay's record releases it (12)",
		"ok: in each of 3 replays the host functions of s1 and s2 met (3 times",
	}},
	{"15_task_update", "model", []string{
		"ok: runs after the update: y = 3x + 5, z = 0x22..., and the tasks around the group ran (w = 6)",
		"ok: a memset where the group has a kernel (aclrtMemsetAsync(z, 8, 0x99, 8, upd) -> 107040)",
		"ok: aclmdlRICaptureTaskGrpBegin twice (aclmdlRICaptureTaskGrpBegin(s2) -> 107033)",
		"ok: an event record inside a task group (aclrtRecordEvent(e0, s2) -> 507009)",
		"ok: a kernel on another captured stream while a group is open (add_word(s2, w, 10) -> 107034)",
		"ok: each run waited for the external event before its group (4 of 4)",
		"ok: each run used the update made while it waited: y = x, 2x + 10, 3x + 20, 4x + 30 (4 of 4)",
		"ok: aclmdlRIGetStreams with room for 1 (aclmdlRIGetStreams(m3, streams, &ns) -> 107039)",
		"ok: aclmdlRITaskGetParams of the kernel: its function, 4 blocks, 40 bytes of arguments in device memory",
		"ok: after aclmdlRIUpdate: the kernel with host arguments (isHostArgs 1) gives y = 5x + 2, the value write 9",
		"ok: the kernel with arguments in device memory (isHostArgs 0): y = 6x + 3, then 7x + 3",
		"ok: aclmdlRITaskDisable: the memset and the add ran until aclmdlRIUpdate, not after",
		`"inspected" (captured) on device 0: 2 streams`, // aclmdlRIDebugPrint
		"kernel axpb<<<2>>>",
		"ok: aclmdlRIDebugJsonPrint wrote inspected.json naming the model and its tasks",
	}},
	{"16_control", "model", []string{
		"ok: aclrtSetLabel of a label already set (aclrtSetLabel(labels[0], b.s[1]) -> 107000)",
		"ok: aclrtSwitchLabelByIndex: index 0, 1, 2 take labels 0, 1, 2 (5123, 523, 53); 3 and 2^31, past the end, the last (53) (6 of 6 right)",
		"ok: 65535 labels, then aclrtCreateLabel -> 207012",
		"ok: aclrtActiveStream: the activated stream ran alongside the head stream in both runs",
		"ok: aclrtSwitchStream 0xFFFFFFFF < 0: -1 as INT32, 4294967295 as INT64 (INT32 12, INT64 19)",
		"ok: each condition with 3 and 3: EQUAL, GREATER_OR_EQUAL, LESS_OR_EQUAL jump; the others go on",
		"ok: IF with two branches: 1 and 2^40 take branch 0 (718), 0 takes branch 1 (728)",
		"ok: ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT: each run starts from the default 1",
		"ok: WHILE whose body decrements the condition: 0, 3 and 6 iterations for 0, 3 and 6 (3 of 3 right)",
		"ok: SWITCH with 3 branches: 0, 1, 2 take branches 0, 1, 2; 3 and 2^33 take none",
		"ok: aclmdlRIDestroy of a branch (aclmdlRIDestroy(sel.branches[1]) -> 107000)",
	}},
	{"17_resources", "", []string{
		"ok: stream pool of 8: 3 one-stream models captured, then aclmdlRICaptureEnd -> 207008",
		"ok: with the pool used up a model built over a persistent stream builds and runs",
		"ok: after one aclmdlRIDestroy a model is captured again and runs",
		"ok: a two-stream capture with one stream free (capture(2, 0x20, &models[1]) -> 207008)",
		"ok: after the models are destroyed, 3 streams can be created again",
	}},
	{"18_graph_example", "model", []string{
		"ok: captured the step into a model; nothing ran yet",
		"ok: replay 1: output = 2 * input + 1",
		"  output: 140 142 144 146 148 150 152 154",
		"ok: replay 3: output = 2 * input + 100",
	}},
	{"19_direct", "direct", []string{
		"ok: order: 10000 launches from one thread, interleaved every 100 with aclrtMemcpyAsync and aclrtRecordEvent: 10000 entries, 0..9999 in order",
		"ok: order: each aclrtMemcpyAsync of the count ran between the launches queued before and after it (100 copies)",
		"ok: held stream: 1000 launches queued behind the wait, none ran (count 0, stream NOT_READY)",
		"ok: held stream: after aclrtRecordNotify on another stream: 1000 entries, 0..999 in order",
		"ok: held default stream (NULL): 1000 launches queued behind the wait, none ran (count 0, stream NOT_READY)",
		"ok: held default stream (NULL): after aclrtRecordNotify on another stream: 1000 entries, 0..999 in order",
		"ok: held stream of device 1: after the release the counter is 500",
		"ok: threads: 8 threads launching onto one held stream: nothing ran before the release (0)",
		"ok: threads: 8 threads x 2000 count_up launches onto one shared stream: counter 16000",
		"ok: threads: 8 threads, each with its own stream of the same context: each counter is 2000",
		"ok: destroy race: every launch was taken, or refused with 107017 or 107023 (other code: 0)",
		"ok: destroy race: 4 threads launching while the stream is destroyed: some taken, then all refused (107017 after the destroy)",
		"ok: capture: after the release only the 10 launches queued before aclmdlRICaptureBegin ran: 10 entries, 0..9 in order",
		"ok: capture: aclmdlRIExecuteAsync ran the 100 captured launches after them: 110 entries, 0..109 in order",
		"ok: capture: then the replay and the 10 launches behind it ran, in order (220 entries)",
	}},
	{"20_direct_refusals", "direct", []string{
		"ok: held stream: numBlocks 0 (aclrtLaunchKernel) -> 107000, and the message names numBlocks",
		"ok: held stream: numBlocks 0 (aclrtLaunchKernelWithHostArgs) -> 107000, and the message names numBlocks",
		"ok: held stream: argsSize 12 (aclrtLaunchKernelV2) -> 107000, and the message names argsSize",
		"ok: held stream: argsSize 264 (aclrtLaunchKernel) -> 107000, and the message names argsSize",
		"ok: held stream: argsData NULL with argsSize 8 (aclrtLaunchKernel) -> 100000, and the message names argsData",
		"ok: held stream: hostArgs NULL with argsSize 8 (aclrtLaunchKernelWithHostArgs) -> 100000, and the message names hostArgs",
		"ok: held stream: a NULL funcHandle (aclrtLaunchKernelV2) -> 100000, and the message names funcHandle",
		"ok: held stream: a made-up funcHandle 0x1234 (aclrtLaunchKernel) -> 107017, and the message names funcHandle",
		"ok: errors: aclrtLaunchKernelWithHostArgs with argsSize 264: held 0, idle 0 (both taken)",
		"ok: a destroyed stream (aclrtLaunchKernel) -> 107017, and the message names stream",
		"ok: a held stream of another context (aclrtLaunchKernelWithHostArgs) -> 107003, and the message names stream",
		"ok: errors: of the launches on the other context's stream only its own context's ran (count 1)",
		"ok: stop: the trap is reported on its stream (aclrtSynchronizeStream(t1) -> 507016)",
		"ok: stop: launch call 3, round 1: refused on the trapping stream (507016) and the held one (507016), the messages say STOP_ON_FAILURE",
		"ok: stop: after the aborts both streams take launches again: 10 entries, 0..9 in order",
		"ok: aclrtLaunchKernel with argsData in device memory on a held stream reads it when the kernel starts, after an earlier aclrtMemcpyAsync into it (value 43, expected 43)",
		"ok: a stream handle as funcHandle on a held stream -> 107017, and the message names funcHandle",
		"ok: a context handle as funcHandle on a held stream -> 107017, and the message names funcHandle",
		"ok: argsData in device 1 memory for a held stream of device 0 -> 107000, and the message names argsData",
		"ok: argsData of 32 bytes in a 16-byte allocation on a held stream -> 107000, and the message names argsData",
		"ok: freed device memory as argsData on a held stream -> 107000, and the message names argsData",
		"ok: reinit: after aclFinalize with live streams, 3000 streams created, launched on and destroyed (counter 6000)",
	}},
	{"21_stale_memory", "direct", []string{
		"ok: free host: a second aclrtFreeHost, after an aclrtMemcpyAsync from pageable memory -> 107000, and the message names hostPtr",
		"ok: free host: aclrtPointerGetAttributes of the freed pointer: unregistered (type 2)",
		"ok: free host: aclrtMemGetAddressRange of the freed pointer -> 107000, and the message names ptr",
		"ok: free host: the next aclrtMemcpyAsync from pageable memory copies its bytes",
		"ok: closed device: while device 1 is open, a device 0 model counts into its memory (1)",
		"ok: closed device: aclrtMemcpy DEFAULT from it -> 107000, naming src, memory of device 1, which is not open",
		"ok: closed device: aclrtMemcpy HOST_TO_HOST from it -> 107000, naming src",
		"ok: closed device: aclrtMemcpy DEVICE_TO_HOST from it -> 107000, naming src",
		"ok: closed device: aclrtMemcpy HOST_TO_DEVICE to it -> 107000, naming dst",
		"ok: closed device: aclrtMemcpy HOST_TO_HOST to it -> 107000, naming dst",
		"ok: closed device: aclrtMemcpy DEVICE_TO_DEVICE from it -> 107000, naming src",
		"ok: closed device: aclrtMemcpyAsync DEFAULT from it -> 107000, naming src",
		"ok: closed device: aclrtMemcpyAsync HOST_TO_HOST from it -> 107000, naming src",
		"ok: closed device: aclrtMemcpyAsync HOST_TO_BUF_TO_DEVICE to it -> 107000, naming dst",
		"ok: closed device: aclrtMemcpyAsync DEFAULT to it -> 107000, naming dst",
		"ok: closed device: aclrtMemcpy2d DEVICE_TO_HOST from it -> 107000, naming src",
		"ok: closed device: aclrtMemcpy2dAsync HOST_TO_DEVICE to it -> 107000, naming dst",
		"ok: closed device: aclrtMemset -> 107000, naming devPtr",
		"ok: closed device: aclrtMemsetAsync -> 107000, naming devPtr",
		"ok: closed device: aclrtValueWrite -> 107000, naming devAddr",
		"ok: closed device: aclrtValueWait -> 107000, naming devAddr",
		"ok: closed device: aclrtFree -> 107000, naming devPtr",
		"ok: closed device: a kernel argument, launch call 0, idle stream -> 107000, naming argument",
		"ok: closed device: a kernel argument, launch call 0, held stream -> 107000, naming argument",
		"ok: closed device: a kernel argument, launch call 1, held stream -> 107000, naming argument",
		"ok: closed device: a kernel argument, launch call 2, held stream -> 107000, naming argument",
		"ok: closed device: a kernel argument, launch call 3, held stream -> 107000, naming argument",
		"ok: closed device: a kernel argument, aclrtLaunchKernelWithArgsArray -> 107000, naming argument",
		"ok: closed device: a kernel whose argument block in device memory holds it faults at its start (aclrtSynchronizeStream(s) -> 507015)",
		"ok: closed device: the model captured before it closed faults at the kernel's start (aclrtSynchronizeStream(s) -> 507015)",
		"ok: closed device: the stream runs work afterwards",
		"ok: closed device: reopened, its first allocation is at the same address",
		"ok: zero bytes: aclrtMemcpy from a closed device (",
		"ok: zero bytes: aclrtMemcpy of NULL, kind 99 (",
		"ok: zero bytes: aclrtMemset of NULL (",
		"ok: zero bytes: aclrtMemcpy2dAsync of empty rows to the end of an allocation (",
		"ok: runtime memory: a condition word takes the freed block's address",
		"ok: runtime memory: a second aclrtFree at the condition word -> 107000, and the message names devPtr",
		"ok: runtime memory: the next allocation is elsewhere",
		"ok: runtime memory: destroying the model leaves the caller's allocation",
		"ok: runtime memory: a task's argument block takes the freed block's address",
		"ok: runtime memory: a second aclrtFree at a task's argument block -> 107000, and the message names devPtr",
		"ok: runtime memory: the caller's next allocation",
		"ok: runtime memory: a second aclrtFree while a launch's placeholder copy may be there -> 107000, and the message names devPtr",
		"ok: runtime memory: the kernel counted into its copy, not the caller's next allocation",
		"ok: runtime memory: the caller's allocation is freed once, by the caller",
		"ok: runtime memory: aclrtFree of the AI core stacks -> 107000, and the message names devPtr",
		"ok: runtime memory: aclrtMemGetAddressRange of the AI core stacks -> 107000, and the message names ptr",
		"ok: runtime memory: aclrtPointerGetAttributes of the AI core stacks: unregistered (type 2)",
		"ok: earlier init: after aclFinalize no other mapping can take device 0's addresses",
		"ok: earlier init: aclrtMemcpy DEFAULT from it -> 107000, naming src, memory of device 0, which is not open",
		"ok: earlier init: aclrtMemcpy HOST_TO_HOST from it -> 107000, naming src",
		"ok: earlier init: aclrtMemcpy HOST_TO_HOST to it -> 107000, naming dst",
		"ok: earlier init: aclrtMemcpyAsync DEFAULT from it -> 107000, naming src",
		"ok: earlier init: aclrtMemcpyAsync HOST_TO_HOST to it -> 107000, naming dst",
		"ok: earlier init: aclrtMemcpy2d from it -> 107000, naming src",
		"ok: earlier init: aclrtMemset -> 107000, naming devPtr",
		"ok: earlier init: aclrtMemsetAsync -> 107000, naming devPtr",
		"ok: earlier init: aclrtFree -> 107000, naming devPtr",
		"ok: earlier init: a kernel argument, idle stream -> 107000, naming argument",
		"ok: earlier init: a kernel argument, held stream -> 107000, naming argument",
		"ok: earlier init: device 0 open again, aclrtMemcpy DEFAULT from it -> 107000, and the message names src",
		"ok: earlier init: device 0 open again, aclrtFree -> 107000, and the message names devPtr",
		"ok: earlier init: device 0's first allocation is at the same address",
	}},
	{"22_churn", "direct", []string{
		"destroyed live;",
		"the launches made",
		"ok: ended: an event of a destroyed context (aclrtDestroyEvent(e) -> 107017)",
		"ok: ended: 20000 contexts destroyed with an event and a notify live: memory grew by",
		"ok: stale: a stream handle destroyed 65536 stream lifetimes ago (aclrtMemsetAsync(counter, 8, 0, 8, old) -> 107017)",
	}},
	{"23_sizes", "direct", []string{
		"ok: idle stream: aclrtLaunchKernelWithHostArgs argsSize: each of the 6 sizes -> 107000, the message naming argsSize",
		"ok: held stream: aclrtLaunchKernelWithHostArgs argsSize: each of the 6 sizes -> 107000, the message naming argsSize",
		"ok: held stream: aclrtLaunchKernelWithHostArgs argsSize with a placeholder: each of the 6 sizes -> 107000",
		"ok: held stream: aclrtLaunchKernelWithHostArgs placeHolderNum: each of the 6 sizes -> 107000, the message naming placeHolderNum",
		"ok: held stream: aclrtLaunchKernel argsSize: each of the 6 sizes -> 107000",
		"ok: held stream: aclrtLaunchKernelV2 argsSize: each of the 6 sizes -> 107000",
		"ok: idle stream: argsSize 0 for count_up's one parameter (aclrtLaunchKernelWithHostArgs) -> 107000",
		"ok: held stream: argsSize 0 for count_up's one parameter (aclrtLaunchKernelWithHostArgs) -> 107000",
		"ok: held stream: argsSize 0 for count_up (aclrtLaunchKernel) -> 107000",
		"ok: held stream: argsSize 24 for append_log's 32 bytes of parameters -> 107000",
		"ok: held stream: placeholder data at 8, inside append_log's 32 bytes of parameters -> 107000",
		"ok: of the launches on the held stream only the valid one ran (count 1)",
		"ok: an empty argument list for count_up (aclrtLaunchKernelWithConfig) -> 107000",
		"ok: aclrtBinaryLoadFromData length: each of the 6 sizes -> 107000, the message naming length",
		"ok: aclrtKernelArgsGetMemSize: each size exact (5 of 5), SIZE_MAX refused",
		"ok: aclrtKernelArgsGetPlaceHolderBuffer dataSize (a list of 64 KiB): each of the 6 sizes -> 107000",
		"ok: no buffer was handed out for them",
		"ok: aclrtKernelArgsGetPlaceHolderBuffer of one byte more than the list holds -> 107000",
		"ok: aclrtKernelArgsInitByUserMem with actualArgsSize 0 -> 107000",
		"ok: aclrtKernelArgsGetPlaceHolderBuffer dataSize (a list in 24 bytes of caller memory): each of the 6 sizes -> 107000",
		"ok: aclrtKernelArgsAppend past the caller's 24 bytes -> 107000",
		"ok: aclrtMemcpy2dAsync dpitch: each of the 6 sizes -> 107000, the message naming dpitch",
		"ok: aclrtMemcpy2dAsync spitch: each of the 6 sizes -> 107000, the message naming spitch",
		"ok: aclrtMemcpy2d spitch from page-locked memory: each of the 6 sizes -> 107000",
		"ok: aclrtMemcpy2d dpitch into page-locked memory: each of the 6 sizes -> 107000",
		"ok: aclrtMemcpy and aclrtMemcpyAsync of pageable memory, counts 2^62, SIZE_MAX and 2^64 - 4096: each -> 107000",
		"ok: launch, load and malloc configurations with 2^62, SIZE_MAX and 2^64 - 4096 attributes: each -> 107000",
		"ok: nothing was loaded or allocated for them",
		"ok: aclmdlRIAddCondTask SWITCH with 65536 and 2^32 - 1 branches -> 107000",
		"ok: aclmdlRITaskSetParams kernelTaskParams.argsSize: each of the 6 sizes -> 107000",
		"ok: aclmdlRITaskSetParams with argsSize 0 for count_up's one parameter -> 107000",
	}},
	{"24_fork", "direct", []string{
		"ok: before the first call the runtime is not loaded (one thread, no core mapped)",
		"ok: child forked before the first call: aclrtGetSocName = Ascend",
		"ok: child forked before the first call: 100 kernel launches counted 100",
		"ok: a child forked before the first runtime call used the runtime and exited 0",
		"ok: the first call loaded the core",
		"ok: a child forked after the runtime started: every call -> 207000 at once",
		"ok: the parent's stream ran its launches, and none of the child's (counter 10)",
	}},
	{"27_unload_race", "marks", []string{
		"ok: 100000 launches racing",
		"each ran its own kernel",
	}},
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

func TestExamples(t *testing.T) {
	runExamples(t, setup(t), examples, time.Minute)
}

// runExamples runs each program against the build tl and checks what it
// printed.
func runExamples(t *testing.T, tl *tools, list []example, timeout time.Duration) {
	start := time.Now()
	for _, ex := range list {
		t.Run(ex.name, func(t *testing.T) {
			var args []string
			if ex.kernel != "" {
				args = append(args, tl.kernel(t, ex.kernel))
			}
			exe := tl.program(t, ex.name)
			res := runProgramEnv(t, timeout, append(append([]string{}, tl.env...), envs[ex.name]...), exe, args...)
			if res.err != nil || !strings.Contains(res.stdout, "\nPASS "+ex.name+"\n") {
				t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", ex.name, res.err, res.stdout, res.stderr)
			}
			oks := 0
			for _, line := range strings.Split(res.stdout, "\n") {
				if strings.HasPrefix(line, "ok: ") {
					oks++
				}
				if strings.HasPrefix(line, "FAIL") {
					t.Errorf("%s printed %q", ex.name, line)
				}
			}
			for _, w := range ex.want {
				if !strings.Contains(res.stdout, w) {
					t.Errorf("%s: output lacks %q", ex.name, w)
				}
			}
			for _, bad := range []string{"WARNING: DATA RACE", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"} {
				if strings.Contains(res.stderr, bad) {
					t.Errorf("%s: stderr reports %q", ex.name, bad)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
			}
			t.Logf("%s: %d checks passed in %v", ex.name, oks, res.took.Round(time.Millisecond))
		})
	}
	t.Logf("all programs: %v", time.Since(start).Round(time.Millisecond))
}
