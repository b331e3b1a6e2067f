/*
 * 17_resources: captured models hold device streams. With a pool of 8
 * streams (stream_limit in the aclInit configuration), each stream of a
 * captured model takes one from aclmdlRICaptureEnd until the model is
 * destroyed; once the pool is used up, aclmdlRICaptureEnd fails with
 * ACL_ERROR_RT_NO_STREAM_RESOURCE. A model built over persistent streams
 * takes none beyond them.
 */
#include "common.h"

#define MAX_MODELS 16

static uint64_t *word; /* device memory */
static aclrtStream cap, s2;
static aclrtEvent ev[2];

/* Captures a memset of the word to byte b on cap alone (streams = 1), or
 * on cap and s2 joined through events (streams = 2). */
static aclError capture(int streams, int b, aclmdlRI *m)
{
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    if (streams == 2) {
        CHECK(aclrtRecordEvent(ev[0], cap));
        CHECK(aclrtStreamWaitEvent(s2, ev[0]));
        CHECK(aclrtMemsetAsync(word, 8, b, 8, s2));
        CHECK(aclrtRecordEvent(ev[1], s2));
        CHECK(aclrtStreamWaitEvent(cap, ev[1]));
    } else {
        CHECK(aclrtMemsetAsync(word, 8, b, 8, cap));
    }
    return aclmdlRICaptureEnd(cap, m);
}

static int capturing(aclrtStream s)
{
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureGetInfo(s, &st, &m));
    return st != ACL_MODEL_RI_CAPTURE_STATUS_NONE;
}

int main(void)
{
    aclrtStream run = NULL, persistent = NULL, extra[MAX_MODELS];
    aclmdlRI models[MAX_MODELS];
    int n = 0;
    aclError rc = ACL_SUCCESS;

    write_file("stream_limit.json", "{\"simulator\": {\"stream_limit\": 8}}\n");
    CHECK(aclInit("stream_limit.json"));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtMalloc((void **)&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtCreateEventExWithFlag(&ev[0], ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventExWithFlag(&ev[1], ACL_EVENT_SYNC));
    /* The default stream and these four leave 3 of the 8. */
    CHECK(aclrtCreateStream(&cap));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateStream(&run));
    CHECK(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT));
    uint32_t avail = 0;
    CHECK(aclrtGetStreamAvailableNum(&avail));
    EXPECT(avail == 3, "aclrtGetStreamAvailableNum: %u of the 8 streams left", avail);
    EXPECT_CODE(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAvailableNum(NULL)");

    /* Capture one-stream models until the pool runs out. */
    clear_errors();
    while (n < MAX_MODELS && (rc = capture(1, n + 1, &models[n])) == ACL_SUCCESS) {
        n++;
    }
    EXPECT(rc == ACL_ERROR_RT_NO_STREAM_RESOURCE && n == 3,
           "stream pool of 8: %d one-stream models captured, then aclmdlRICaptureEnd -> %d", n, rc);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "aclmdlRICaptureEnd") != NULL, "the error names the call: %s", msg ? msg : "(null)");
    EXPECT(!capturing(cap), "the failed aclmdlRICaptureEnd ended the capture");
    EXPECT_CODE(aclrtCreateStream(&extra[0]), ACL_ERROR_RT_NO_STREAM_RESOURCE, "aclrtCreateStream with the pool used up");
    CHECK(aclrtGetStreamAvailableNum(&avail));
    EXPECT(avail == 0, "aclrtGetStreamAvailableNum with the models holding the rest: %u", avail);

    /* The models still run, each with its own streams. */
    CHECK(aclmdlRIExecuteAsync(models[n - 1], run));
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 0x0303030303030303ULL, "the last model captured still runs");

    /* A model built over a persistent stream takes no stream of its own. */
    aclmdlRI built = NULL;
    CHECK(aclmdlRIBuildBegin(&built, 0));
    CHECK(aclmdlRIBindStream(built, persistent, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(aclrtMemsetAsync(word, 8, 0x7e, 8, persistent));
    CHECK(aclmdlRIEndTask(built, persistent));
    CHECK(aclmdlRIBuildEnd(built, NULL));
    CHECK(aclmdlRIExecute(built, -1));
    EXPECT(read_u64(word) == 0x7e7e7e7e7e7e7e7eULL, "with the pool used up a model built over a persistent stream builds and runs");
    CHECK(aclmdlRIDestroy(built));

    /* Destroying a model gives its stream back. */
    CHECK(aclmdlRIDestroy(models[0]));
    CHECK(capture(1, 0x10, &models[0]));
    CHECK(aclmdlRIExecuteAsync(models[0], run));
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 0x1010101010101010ULL, "after one aclmdlRIDestroy a model is captured again and runs");

    /* A two-stream model needs two: with one free its capture fails and
     * takes none; with two it succeeds. */
    CHECK(aclmdlRIDestroy(models[1]));
    EXPECT_CODE(capture(2, 0x20, &models[1]), ACL_ERROR_RT_NO_STREAM_RESOURCE, "a two-stream capture with one stream free");
    EXPECT(!capturing(cap) && !capturing(s2), "both streams left the failed capture");
    CHECK(aclmdlRIDestroy(models[2]));
    CHECK(capture(2, 0x20, &models[1]));
    CHECK(aclmdlRIExecuteAsync(models[1], run));
    CHECK(aclrtSynchronizeStream(run));
    EXPECT(read_u64(word) == 0x2020202020202020ULL, "after a second destroy the two-stream capture succeeds and runs");
    EXPECT_CODE(capture(1, 0x30, &models[2]), ACL_ERROR_RT_NO_STREAM_RESOURCE, "and the pool is used up again");

    /* Destroying the rest frees all three streams. */
    CHECK(aclmdlRIDestroy(models[0]));
    CHECK(aclmdlRIDestroy(models[1]));
    int created = 0;
    while (created < MAX_MODELS && aclrtCreateStream(&extra[created]) == ACL_SUCCESS) {
        created++;
    }
    clear_errors();
    EXPECT(created == 3, "after the models are destroyed, %d streams can be created again", created);
    for (int i = 0; i < created; i++) {
        CHECK(aclrtDestroyStream(extra[i]));
    }

    CHECK(aclrtDestroyEvent(ev[0]));
    CHECK(aclrtDestroyEvent(ev[1]));
    CHECK(aclrtDestroyStream(cap));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtDestroyStream(run));
    CHECK(aclrtDestroyStream(persistent));
    CHECK(aclrtFree(word));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 17_resources\n");
    return 0;
}
