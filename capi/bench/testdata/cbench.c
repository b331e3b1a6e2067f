// Measures the C ABI from C: launch enqueue cost, empty-kernel throughput,
// launch + synchronize round trip, a cross-stream event round trip, and the
// cost per task of replaying 100 captured launches against queueing them.
// Prints one "name value unit" line per figure (the median of 5 runs).
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "acl/acl.h"

#define CHECK(x)                                                                          \
	do {                                                                              \
		aclError e_ = (x);                                                        \
		if (e_ != ACL_SUCCESS) {                                                  \
			fprintf(stderr, "%s failed: %d %s\n", #x, e_, aclGetRecentErrMsg()); \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
	qsort(v, n, sizeof v[0], cmp);
	return v[n / 2];
}

static aclrtFuncHandle kernel;
static uint64_t arg = 1;

static void launch(aclrtStream s) { CHECK(aclrtLaunchKernelWithHostArgs(kernel, 1, s, NULL, &arg, sizeof arg, NULL, 0)); }

enum { RUNS = 5 };

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: cbench kernels.so\n");
		return 2;
	}
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	aclrtBinHandle bin;
	CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
	CHECK(aclrtBinaryGetFunction(bin, "empty", &kernel));
	aclrtStream s1, s2, s3;
	CHECK(aclrtCreateStream(&s1));
	CHECK(aclrtCreateStream(&s2));
	CHECK(aclrtCreateStream(&s3));
	double v[RUNS];

	// Enqueue: the stream is held by a notify wait, so only the host cost
	// of queueing is timed.
	aclrtNotify hold;
	CHECK(aclrtCreateNotify(&hold, ACL_NOTIFY_DEFAULT));
	const int batch = 1000;
	for (int r = 0; r < RUNS; r++) {
		CHECK(aclrtWaitAndResetNotify(hold, s1, 0));
		double t0 = now();
		for (int i = 0; i < batch; i++) launch(s1);
		v[r] = (now() - t0) / batch;
		CHECK(aclrtRecordNotify(hold, s2));
		CHECK(aclrtSynchronizeStream(s1));
	}
	printf("c.enqueue %.1f ns\n", median(v, RUNS));

	// Throughput: empty kernels queued and run, one stream.
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		for (int i = 0; i < 20000; i++) launch(s1);
		CHECK(aclrtSynchronizeStream(s1));
		v[r] = (now() - t0) / 20000;
	}
	printf("c.throughput %.1f ns/task\n", median(v, RUNS));

	// Launch + synchronize round trip.
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		for (int i = 0; i < 20000; i++) {
			launch(s1);
			CHECK(aclrtSynchronizeStream(s1));
		}
		v[r] = (now() - t0) / 20000;
	}
	printf("c.launch_sync %.1f ns\n", median(v, RUNS));

	// Cross-stream: a record on one stream releases a wait on another,
	// whose kernel the host waits for.
	aclrtEvent ev;
	CHECK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		for (int i = 0; i < 20000; i++) {
			CHECK(aclrtRecordEvent(ev, s1));
			CHECK(aclrtStreamWaitEvent(s2, ev));
			launch(s2);
			CHECK(aclrtSynchronizeStream(s2));
		}
		v[r] = (now() - t0) / 20000;
	}
	printf("c.cross_stream %.1f ns\n", median(v, RUNS));

	// Replay: 100 launches captured once and replayed, against the same
	// 100 launches queued one by one; each batch ends with a synchronize.
	enum { TASKS = 100, BATCHES = 500 };
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		for (int i = 0; i < BATCHES; i++) {
			for (int k = 0; k < TASKS; k++) launch(s1);
			CHECK(aclrtSynchronizeStream(s1));
		}
		v[r] = (now() - t0) / (BATCHES * TASKS);
	}
	printf("c.eager %.1f ns/task\n", median(v, RUNS));
	aclmdlRI model;
	CHECK(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	for (int k = 0; k < TASKS; k++) launch(s3);
	CHECK(aclmdlRICaptureEnd(s3, &model));
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		for (int i = 0; i < BATCHES; i++) {
			CHECK(aclmdlRIExecuteAsync(model, s1));
			CHECK(aclrtSynchronizeStream(s1));
		}
		v[r] = (now() - t0) / (BATCHES * TASKS);
	}
	printf("c.replay %.1f ns/task\n", median(v, RUNS));
	CHECK(aclmdlRIDestroy(model));

	CHECK(aclrtDestroyEvent(ev));
	CHECK(aclrtDestroyNotify(hold));
	CHECK(aclrtDestroyStream(s1));
	CHECK(aclrtDestroyStream(s2));
	CHECK(aclrtDestroyStream(s3));
	CHECK(aclrtBinaryUnLoad(bin));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	return 0;
}
