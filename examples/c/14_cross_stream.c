/*
 * 14_cross_stream: cross-stream capture. A stream that waits for an event
 * recorded on a captured stream joins the capture (and so, in turn, do the
 * streams that wait for its events); every joined stream must join back
 * to the origin stream, which alone ends the capture. Replays run the
 * captured streams concurrently. Also: waits with no captured record, two
 * captures linked by an event, the default stream, and ACL_EVENT_EXTERNAL
 * events, which link a capture to streams outside it.
 *
 * Usage: 14_cross_stream <kernel binary with trace>
 */
#include "meet.h"

static aclrtFuncHandle traceFn;
static uint64_t *word; /* device memory: the decimal trace of the tasks */
static aclrtStream s1, s2, s3;
static aclrtEvent ev[6];

/* Queues trace(word, d): the word becomes word * 10 + d when it runs. */
static aclError trace(aclrtStream s, uint64_t d)
{
    struct { void *word; uint64_t d; } a = {word, d};
    return aclrtLaunchKernelWithHostArgs(traceFn, 1, s, NULL, &a, sizeof a, NULL, 0);
}

static int capturing(aclrtStream s, aclmdlRI *model)
{
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureGetInfo(s, &st, &m));
    if (model != NULL) {
        *model = m;
    }
    return st == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
}

/* One join-back case: s2 joins a capture of s1 and ends in a way that does
 * not join back; aclmdlRICaptureEnd must fail with 107025. */
static void unjoined_case(const char *what, int recordOnS2, int originWaits, int taskAfter)
{
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtRecordEvent(ev[0], s1));
    CHECK(aclrtStreamWaitEvent(s2, ev[0]));
    CHECK(trace(s2, 2));
    if (recordOnS2) {
        CHECK(aclrtRecordEvent(ev[1], s2));
    }
    if (originWaits) {
        CHECK(aclrtStreamWaitEvent(s1, ev[1]));
    }
    if (taskAfter) {
        CHECK(trace(s2, 3));
    }
    aclError rc = aclmdlRICaptureEnd(s1, &m);
    EXPECT(rc == ACL_ERROR_RT_STREAM_UNJOINED && !capturing(s1, NULL) && !capturing(s2, NULL),
           "%s: aclmdlRICaptureEnd -> %d, and both streams are free", what, rc);
    clear_errors();
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    aclrtStream run = NULL, s4 = NULL;
    aclmdlRI m = NULL, m2 = NULL, seen = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trace", &traceFn));
    CHECK(aclrtMalloc((void **)&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(word, 0);
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateStream(&s3));
    CHECK(aclrtCreateStream(&s4));
    CHECK(aclrtCreateStream(&run));
    for (int i = 0; i < 6; i++) {
        CHECK(aclrtCreateEventExWithFlag(&ev[i], ACL_EVENT_SYNC));
    }

    /* origin s1 -> s2 -> s3 -> s2 -> s1: s2 joins by waiting for s1's
     * event, s3 by waiting for s2's, and each joins back. */
    CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(trace(s1, 1));
    CHECK(aclrtRecordEvent(ev[0], s1));
    EXPECT(!capturing(s2, NULL), "before its wait, s2 is not capturing");
    CHECK(aclrtStreamWaitEvent(s2, ev[0]));
    aclmdlRI origin = NULL;
    (void)capturing(s1, &origin);
    EXPECT(capturing(s2, &seen) && seen == origin, "aclrtStreamWaitEvent on a captured event pulled s2 into s1's capture");
    CHECK(trace(s2, 2));
    CHECK(aclrtRecordEvent(ev[1], s2));
    CHECK(aclrtStreamWaitEvent(s3, ev[1]));
    EXPECT(capturing(s3, &seen) && seen == origin, "s3 joined too, by waiting for an event of s2");
    CHECK(trace(s3, 3));
    CHECK(aclrtRecordEvent(ev[2], s3));
    CHECK(aclrtStreamWaitEvent(s2, ev[2]));
    CHECK(trace(s2, 4));
    CHECK(aclrtRecordEvent(ev[3], s2));
    CHECK(aclrtStreamWaitEvent(s1, ev[3]));
    CHECK(trace(s1, 5));
    EXPECT_CODE(aclmdlRICaptureEnd(s2, &m), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "aclmdlRICaptureEnd on a joined stream");
    EXPECT_CODE(aclmdlRICaptureEnd(s3, &m), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "aclmdlRICaptureEnd on the stream joined through s2");
    EXPECT(capturing(s1, NULL), "the capture goes on");
    CHECK(aclmdlRICaptureEnd(s1, &m));
    EXPECT(!capturing(s2, NULL) && !capturing(s3, NULL), "aclmdlRICaptureEnd on the origin released the joined streams");
    EXPECT(read_u64(word) == 0, "nothing ran during the capture");
    uint32_t nStreams = 0;
    CHECK(aclmdlRIGetStreams(m, NULL, &nStreams));
    EXPECT(nStreams == 3, "the model holds the 3 captured streams (%u)", nStreams);
    for (int i = 0; i < 3; i++) {
        CHECK(aclmdlRIExecuteAsync(m, run));
    }
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 123451234512345ULL, "3 replays ran the chain in its order each time (%llu)",
           (unsigned long long)read_u64(word));
    write_u64(word, 0);
    CHECK(trace(s2, 7));
    CHECK(aclrtSynchronizeStream(s2));
    CHECK(trace(s3, 8));
    CHECK(aclrtSynchronizeStream(s3));
    EXPECT(read_u64(word) == 78, "the joined streams run their own tasks again");
    CHECK(aclmdlRIDestroy(m));

    /* Joining back: the last task of a joined stream must be a record that
     * the origin waits for. */
    unjoined_case("s2 never records an event", 0, 0, 0);
    unjoined_case("s2 records an event the origin never waits for", 1, 0, 0);
    unjoined_case("s2 queues a task after joining back", 1, 1, 1);
    EXPECT(read_u64(word) == 78, "the failed captures ran nothing");

    /* A wait needs a record in the capture. */
    CHECK(aclrtRecordEvent(ev[4], s4)); /* recorded, but not in a capture */
    CHECK(aclrtSynchronizeStream(s4));
    for (int i = 4; i <= 5; i++) {
        CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        EXPECT_CODE(aclrtStreamWaitEvent(s1, ev[i]), ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                    i == 4 ? "waiting in a capture for an event recorded outside it" : "waiting in a capture for an event never recorded");
        EXPECT_CODE(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "that capture is invalidated");
    }

    /* The default stream cannot join a capture. */
    CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtRecordEvent(ev[0], s1));
    EXPECT_CODE(aclrtStreamWaitEvent(NULL, ev[0]), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                "the default stream waiting for a captured event");
    EXPECT_CODE(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "that capture is invalidated");

    /* Two captures at once are independent ... */
    CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(trace(s1, 1));
    CHECK(trace(s3, 3));
    CHECK(aclmdlRICaptureEnd(s3, &m2));
    CHECK(aclmdlRICaptureEnd(s1, &m));
    write_u64(word, 0);
    CHECK(aclmdlRIExecuteAsync(m, run));
    CHECK(aclmdlRIExecuteAsync(m2, run));
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 13, "two captures at once, on s1 and s3, make two models");
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclmdlRIDestroy(m2));
    /* ... and an event cannot link them, in either direction. The
     * reference does not say which capture fails: the wait is refused, so
     * the capture of the waiting stream is invalidated; the other ends. */
    for (int dir = 0; dir < 2; dir++) {
        aclrtStream from = dir == 0 ? s1 : s3, to = dir == 0 ? s3 : s1;
        CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        CHECK(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        CHECK(aclrtRecordEvent(ev[0], from));
        EXPECT_CODE(aclrtStreamWaitEvent(to, ev[0]), ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                    dir == 0 ? "s3's capture waiting for an event of s1's capture"
                             : "s1's capture waiting for an event of s3's capture");
        aclError rcTo = aclmdlRICaptureEnd(to, &m2);
        aclError rcFrom = aclmdlRICaptureEnd(from, &m);
        EXPECT(rcTo == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED && rcFrom == ACL_SUCCESS,
               "the waiting stream's capture is invalidated (%d), the recording one ends (%d)", rcTo, rcFrom);
        CHECK(aclmdlRIDestroy(m));
        clear_errors();
    }

    /* An ACL_EVENT_EXTERNAL event does not pull a stream in: a stream
     * that waits for its record in a capture stays outside, held until a
     * replay records the event. */
    aclrtEvent ext = NULL;
    CHECK(aclrtCreateEventWithFlag(&ext, ACL_EVENT_EXTERNAL));
    write_u64(word, 0);
    CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(trace(s1, 1));
    CHECK(aclrtRecordEvent(ext, s1));
    CHECK(aclrtStreamWaitEvent(s2, ext));
    int outside = !capturing(s2, NULL);
    CHECK(trace(s2, 2));
    CHECK(aclmdlRICaptureEnd(s1, &m));
    sleep_ms(20);
    uint64_t beforeRun = read_u64(word);
    CHECK(aclmdlRIExecuteAsync(m, run));
    CHECK(aclrtSynchronizeStream(run));
    CHECK(aclrtSynchronizeStream(s2));
    EXPECT(outside && beforeRun == 0 && read_u64(word) == 12,
           "a wait for an external event recorded in a capture leaves the stream outside; the replay's record releases it (%llu)",
           (unsigned long long)read_u64(word));
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtDestroyEvent(ext));

    /* A replay runs the captured streams concurrently: a host function on
     * s1 and one on s2 wait for each other. */
    CHECK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtRecordEvent(ev[0], s1));
    CHECK(aclrtStreamWaitEvent(s2, ev[0]));
    CHECK(aclrtLaunchHostFunc(s2, meet, (void *)1));
    CHECK(aclrtRecordEvent(ev[1], s2));
    CHECK(aclrtLaunchHostFunc(s1, meet, (void *)0));
    CHECK(aclrtStreamWaitEvent(s1, ev[1]));
    CHECK(aclmdlRICaptureEnd(s1, &m));
    int together = 0;
    double t0 = now_ms();
    for (int i = 0; i < 3; i++) {
        meet_reset();
        CHECK(aclmdlRIExecuteAsync(m, run));
        CHECK(aclrtSynchronizeStream(run));
        together += met();
    }
    double took = now_ms() - t0;
    EXPECT(together == 3 && took < 4000, "in each of 3 replays the host functions of s1 and s2 met (%d times, %.0f ms)",
           together, took);
    CHECK(aclmdlRIDestroy(m));

    for (int i = 0; i < 6; i++) {
        CHECK(aclrtDestroyEvent(ev[i]));
    }
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtDestroyStream(s3));
    CHECK(aclrtDestroyStream(s4));
    CHECK(aclrtDestroyStream(run));
    CHECK(aclrtFree(word));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 14_cross_stream\n");
    return 0;
}
