/*
 * 16_control: control flow inside models. In models built over persistent
 * streams: labels and aclrtSwitchLabelByIndex, aclrtActiveStream and
 * aclrtSwitchStream. In captured models: conditional tasks
 * (aclmdlRICondHandleCreate, aclmdlRIAddCondTask,
 * aclmdlRICaptureToModelRIBegin) of kind IF, WHILE and SWITCH. Each run
 * leaves a decimal trace of the tasks on the path it took.
 *
 * Usage: 16_control <kernel binary with trace and countdown>
 */
#include "meet.h"

static aclrtFuncHandle traceFn, countdownFn;
static uint64_t *word; /* device memory: the decimal trace of the tasks */
static aclrtStream run;  /* runs the models */

/* Queues trace(word, d): the word becomes word * 10 + d when it runs. */
static aclError trace(aclrtStream s, uint64_t d)
{
    struct { void *word; uint64_t d; } a = {word, d};
    return aclrtLaunchKernelWithHostArgs(traceFn, 1, s, NULL, &a, sizeof a, NULL, 0);
}

/* Runs m once from a zeroed trace and returns the trace. */
static uint64_t trace_run(aclmdlRI m)
{
    write_u64(word, 0);
    CHECK(aclmdlRIExecuteAsync(m, run));
    CHECK(aclrtSynchronizeStream(run));
    return read_u64(word);
}

/* A model over n persistent streams, the first the head. */
struct built {
    aclmdlRI m;
    aclrtStream s[3];
    int n;
};

static struct built build_begin(int n)
{
    struct built b = {NULL, {NULL}, n};
    CHECK(aclmdlRIBuildBegin(&b.m, 0));
    for (int i = 0; i < n; i++) {
        CHECK(aclrtCreateStreamWithConfig(&b.s[i], 0, ACL_STREAM_PERSISTENT));
        CHECK(aclmdlRIBindStream(b.m, b.s[i], i == 0 ? ACL_MODEL_STREAM_FLAG_HEAD : ACL_MODEL_STREAM_FLAG_DEFAULT));
    }
    return b;
}

static aclError build_end(struct built *b)
{
    for (int i = 0; i < b->n; i++) {
        CHECK(aclmdlRIEndTask(b->m, b->s[i]));
    }
    return aclmdlRIBuildEnd(b->m, NULL);
}

static void build_free(struct built *b)
{
    CHECK(aclmdlRIDestroy(b->m));
    for (int i = 0; i < b->n; i++) {
        CHECK(aclrtDestroyStream(b->s[i]));
    }
}

/* A captured model whose middle task is a conditional task: trace 7, the
 * task, trace 8. Branch i traces i + 1; a WHILE body counts down the
 * condition and counts its iterations in *count. */
struct cond_model {
    aclmdlRI m;
    uint64_t *cond; /* the condition word (device) */
    aclmdlRI branches[4];
};

static aclrtStream cap, sub; /* the captured stream and the branches' */

static struct cond_model cond_model(aclmdlRICondTaskType type, uint32_t n, uint32_t def, int assignDefault, uint64_t *count)
{
    struct cond_model c;
    memset(&c, 0, sizeof c);
    aclmdlRICaptureStatus st;
    aclmdlRICondHandle h = NULL;
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK(aclmdlRICaptureGetInfo(cap, &st, &c.m));
    CHECK(aclmdlRICondHandleCreate(c.m, def, assignDefault ? ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT : 0, &h));
    CHECK(aclmdlRICondHandleGetCondPtr(h, &c.cond));
    CHECK(trace(cap, 7));
    aclmdlRICondTaskParams params = {h, type, n, c.branches};
    CHECK(aclmdlRIAddCondTask(params, cap, 0));
    for (uint32_t i = 0; i < n; i++) {
        CHECK(aclmdlRICaptureToModelRIBegin(sub, c.branches[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
        if (type == ACL_MODEL_RI_COND_TYPE_WHILE) {
            struct { void *cond, *count; } a = {c.cond, count};
            CHECK(aclrtLaunchKernelWithHostArgs(countdownFn, 1, sub, NULL, &a, sizeof a, NULL, 0));
        } else {
            CHECK(trace(sub, i + 1));
        }
        aclmdlRI got = NULL;
        CHECK(aclmdlRICaptureEnd(sub, &got));
        if (got != c.branches[i]) {
            fail_exit(__FILE__, __LINE__, 0, "the branch capture ended with another model");
        }
    }
    CHECK(trace(cap, 8));
    CHECK(aclmdlRICaptureEnd(cap, &c.m));
    return c;
}

/* Runs a conditional model with the condition set to v first. */
static uint64_t cond_run(struct cond_model *c, uint64_t v)
{
    write_u64(c->cond, v);
    return trace_run(c->m);
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    aclrtStream plain = NULL;
    uint32_t *idx = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trace", &traceFn));
    CHECK(aclrtBinaryGetFunction(bin, "countdown", &countdownFn));
    CHECK(aclrtMalloc((void **)&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc((void **)&idx, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtCreateStream(&run));
    CHECK(aclrtCreateStream(&plain));

    /* ---- Labels ---------------------------------------------------- */
    aclrtLabel labels[3], lone = NULL;
    aclrtLabelList list = NULL;
    for (int i = 0; i < 3; i++) {
        CHECK(aclrtCreateLabel(&labels[i]));
    }
    CHECK(aclrtCreateLabel(&lone));
    EXPECT_CODE(aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateLabel(NULL)");
    EXPECT_CODE(aclrtCreateLabelList(labels, 0, &list), ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateLabelList of 0 labels");
    CHECK(aclrtCreateLabelList(labels, 3, &list));
    /* A label belongs to the context it was created in. */
    {
        aclrtContext home = NULL, away = NULL;
        CHECK(aclrtGetCurrentContext(&home));
        CHECK(aclrtCreateContext(&away, 0));
        EXPECT_CODE(aclrtSetLabel(labels[0], NULL), ACL_ERROR_RT_LABEL_CONTEXT, "aclrtSetLabel with another context current");
        CHECK(aclrtSetCurrentContext(home));
        CHECK(aclrtDestroyContext(away));
    }
    EXPECT_CODE(aclrtSetLabel(labels[0], plain), ACL_ERROR_RT_STREAM_MODEL, "aclrtSetLabel on a stream bound to no model");
    EXPECT_CODE(aclrtSwitchLabelByIndex(idx, 3, list, plain), ACL_ERROR_RT_STREAM_MODEL,
                "aclrtSwitchLabelByIndex on a stream bound to no model");

    /* s0: trace 5, switch by the index at idx, trace 9 (never reached);
     * s1: label 0, trace 1, label 1, trace 2, label 2, trace 3. */
    struct built b = build_begin(2);
    CHECK(trace(b.s[0], 5));
    EXPECT_CODE(aclrtSwitchLabelByIndex(idx, 4, list, b.s[0]), ACL_ERROR_RT_PARAM_INVALID, "maxValue 4 for a list of 3 labels");
    EXPECT_CODE(aclrtSwitchLabelByIndex(idx, 0, list, b.s[0]), ACL_ERROR_RT_PARAM_INVALID, "maxValue 0");
    EXPECT_CODE(aclrtSwitchLabelByIndex((char *)idx + 2, 3, list, b.s[0]), ACL_ERROR_RT_ADDR_UNALIGNED,
                "an index address not 4-byte aligned");
    EXPECT_CODE(aclrtSwitchLabelByIndex(NULL, 3, list, b.s[0]), ACL_ERROR_INVALID_PARAM, "a NULL index address");
    CHECK(aclrtSwitchLabelByIndex(idx, 3, list, b.s[0]));
    CHECK(trace(b.s[0], 9));
    for (int i = 0; i < 3; i++) {
        CHECK(aclrtSetLabel(labels[i], b.s[1]));
        CHECK(trace(b.s[1], (uint64_t)i + 1));
    }
    EXPECT_CODE(aclrtSetLabel(labels[0], b.s[1]), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetLabel of a label already set");
    EXPECT_CODE(aclrtSetLabel(labels[1], b.s[0]), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetLabel of it on another stream");
    CHECK(build_end(&b));
    static const struct {
        uint32_t index;
        uint64_t want;
    } jumps[] = {{0, 5123}, {1, 523}, {2, 53}, {3, 53}, {1u << 31, 53}, {1, 523}};
    int jumped = 0;
    for (size_t i = 0; i < sizeof jumps / sizeof jumps[0]; i++) {
        uint64_t idx64 = jumps[i].index; /* the low 4 bytes hold the uint32 index */
        write_u64(idx, idx64);
        jumped += trace_run(b.m) == jumps[i].want;
    }
    EXPECT(jumped == 6, "aclrtSwitchLabelByIndex: index 0, 1, 2 take labels 0, 1, 2 (5123, 523, 53); "
                        "3 and 2^31, past the end, the last (53) (%d of 6 right)", jumped);
    /* Destroying labels and the list does not change a built model. */
    CHECK(aclrtDestroyLabel(labels[1]));
    CHECK(aclrtDestroyLabelList(list));
    write_u64(idx, 1);
    EXPECT(trace_run(b.m) == 523, "after aclrtDestroyLabel and aclrtDestroyLabelList the model jumps the same way");
    EXPECT_CODE(aclrtDestroyLabel(labels[1]), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyLabel twice");
    EXPECT_CODE(aclrtDestroyLabelList(list), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyLabelList twice");
    build_free(&b);
    /* A switch to a label set nowhere fails the build. */
    CHECK(aclrtCreateLabelList(&lone, 1, &list));
    b = build_begin(1);
    CHECK(aclrtSwitchLabelByIndex(idx, 1, list, b.s[0]));
    EXPECT_CODE(build_end(&b), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIBuildEnd with a switch to a label never set");
    CHECK(aclmdlRIDestroy(b.m));
    CHECK(aclrtDestroyStream(b.s[0]));
    CHECK(aclrtDestroyLabelList(list));
    CHECK(aclrtDestroyLabel(labels[0]));
    CHECK(aclrtDestroyLabel(labels[2]));
    CHECK(aclrtDestroyLabel(lone));

    /* A process holds at most 65535 labels; the reference names no code
     * for one more, and ACL_ERROR_RT_OVER_LIMIT is used. */
    static aclrtLabel many[65536];
    int made = 0;
    aclError rc = ACL_SUCCESS;
    while (made < 65536 && (rc = aclrtCreateLabel(&many[made])) == ACL_SUCCESS) {
        made++;
    }
    EXPECT(made == 65535 && rc == ACL_ERROR_RT_OVER_LIMIT, "%d labels, then aclrtCreateLabel -> %d", made, rc);
    CHECK(aclrtDestroyLabel(many[0]));
    CHECK(aclrtCreateLabel(&many[0]));
    pass("after aclrtDestroyLabel one more can be created");
    for (int i = 0; i < made; i++) {
        CHECK(aclrtDestroyLabel(many[i]));
    }

    /* ---- Stream activation ---------------------------------------- */
    /* The activated stream runs alongside the one that activated it: a
     * host function on each waits for the other. */
    b = build_begin(2);
    EXPECT_CODE(aclrtActiveStream(plain, b.s[0]), ACL_ERROR_RT_STREAM_MODEL, "aclrtActiveStream of a stream bound to no model");
    EXPECT_CODE(aclrtActiveStream(b.s[1], plain), ACL_ERROR_RT_STREAM_MODEL, "aclrtActiveStream from a stream bound to no model");
    EXPECT_CODE(aclrtActiveStream(NULL, b.s[0]), ACL_ERROR_INVALID_PARAM, "aclrtActiveStream(NULL, ...)");
    CHECK(aclrtActiveStream(b.s[1], b.s[0]));
    CHECK(aclrtLaunchHostFunc(b.s[0], meet, (void *)0));
    CHECK(aclrtLaunchHostFunc(b.s[1], meet, (void *)1));
    CHECK(build_end(&b));
    int together = 0;
    for (int i = 0; i < 2; i++) {
        meet_reset();
        trace_run(b.m);
        together += met();
    }
    EXPECT(together == 2, "aclrtActiveStream: the activated stream ran alongside the head stream in both runs");
    build_free(&b);

    /* ---- Stream switches ------------------------------------------ */
    /* s0: trace 1, switch to s1 if *left < *right, trace 9; s1: trace 2.
     * Taken: 12; not taken: 19. */
    int64_t *left = NULL, *right = NULL;
    CHECK(aclrtMalloc((void **)&left, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc((void **)&right, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    struct built sw[2];
    for (int t = 0; t < 2; t++) {
        aclrtCompareDataType type = t == 0 ? ACL_RT_SWITCH_INT32 : ACL_RT_SWITCH_INT64;
        sw[t] = build_begin(2);
        CHECK(trace(sw[t].s[0], 1));
        CHECK(aclrtSwitchStream(left, ACL_RT_LESS, right, type, sw[t].s[1], NULL, sw[t].s[0]));
        CHECK(trace(sw[t].s[0], 9));
        CHECK(trace(sw[t].s[1], 2));
        CHECK(build_end(&sw[t]));
    }
    static const struct {
        uint64_t left, right, want32, want64;
        const char *what;
    } cmp[] = {
        {1, 2, 12, 12, "1 < 2: jumps"},
        {2, 1, 19, 19, "2 < 1: goes on"},
        {2, 2, 19, 19, "2 < 2: goes on"},
        {0xFFFFFFFFULL, 0, 12, 19, "0xFFFFFFFF < 0: -1 as INT32, 4294967295 as INT64"},
        {1ULL << 32, 1, 12, 19, "2^32 < 1: 0 as INT32 (the low 32 bits)"},
    };
    for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
        write_u64(left, cmp[i].left);
        write_u64(right, cmp[i].right);
        uint64_t got32 = trace_run(sw[0].m), got64 = trace_run(sw[1].m);
        EXPECT(got32 == cmp[i].want32 && got64 == cmp[i].want64, "aclrtSwitchStream %s (INT32 %llu, INT64 %llu)", cmp[i].what,
               (unsigned long long)got32, (unsigned long long)got64);
    }
    EXPECT_CODE(aclrtSwitchStream(left, ACL_RT_EQUAL, right, ACL_RT_SWITCH_INT32, sw[0].s[1], NULL, plain),
                ACL_ERROR_RT_STREAM_MODEL, "aclrtSwitchStream on a stream bound to no model");
    build_free(&sw[0]);
    build_free(&sw[1]);
    /* Every condition, with 3 against 3. */
    write_u64(left, 3);
    write_u64(right, 3);
    static const int taken[6] = {1, 0, 0, 1, 0, 1}; /* EQUAL, NOT_EQUAL, GREATER, GREATER_OR_EQUAL, LESS, LESS_OR_EQUAL */
    int conds = 0;
    for (int c = ACL_RT_EQUAL; c <= ACL_RT_LESS_OR_EQUAL; c++) {
        b = build_begin(2);
        CHECK(aclrtSwitchStream(left, (aclrtCondition)c, right, ACL_RT_SWITCH_INT64, b.s[1], NULL, b.s[0]));
        CHECK(trace(b.s[0], 9));
        CHECK(trace(b.s[1], 2));
        CHECK(build_end(&b));
        conds += trace_run(b.m) == (taken[c] ? 2u : 9u);
        build_free(&b);
    }
    EXPECT(conds == 6, "each condition with 3 and 3: EQUAL, GREATER_OR_EQUAL, LESS_OR_EQUAL jump; the others go on");
    b = build_begin(2);
    EXPECT_CODE(aclrtSwitchStream(left, ACL_RT_EQUAL, right, ACL_RT_SWITCH_INT32, b.s[1], b.s[1], b.s[0]),
                ACL_ERROR_RT_PARAM_INVALID, "falseStream must be NULL");
    EXPECT_CODE(aclrtSwitchStream(left, (aclrtCondition)6, right, ACL_RT_SWITCH_INT32, b.s[1], NULL, b.s[0]),
                ACL_ERROR_RT_PARAM_INVALID, "condition 6");
    EXPECT_CODE(aclrtSwitchStream(left, ACL_RT_EQUAL, right, (aclrtCompareDataType)2, b.s[1], NULL, b.s[0]),
                ACL_ERROR_RT_PARAM_INVALID, "compare type 2");
    EXPECT_CODE(aclrtSwitchStream(NULL, ACL_RT_EQUAL, right, ACL_RT_SWITCH_INT32, b.s[1], NULL, b.s[0]),
                ACL_ERROR_INVALID_PARAM, "a NULL leftValue");
    EXPECT_CODE(aclrtSwitchStream(left, ACL_RT_EQUAL, right, ACL_RT_SWITCH_INT32, NULL, NULL, b.s[0]),
                ACL_ERROR_INVALID_PARAM, "a NULL trueStream");
    EXPECT_CODE(aclrtSwitchStream(left, ACL_RT_EQUAL, right, ACL_RT_SWITCH_INT32, plain, NULL, b.s[0]),
                ACL_ERROR_RT_STREAM_MODEL, "a trueStream bound to no model");
    CHECK(build_end(&b));
    build_free(&b);

    /* ---- Conditional tasks ---------------------------------------- */
    /* The reference leaves their semantics open; they follow CUDA's
     * conditional nodes: IF runs branch 0 on a non-zero value, else branch
     * 1 if there is one; WHILE runs its body while the value is non-zero,
     * checking first; SWITCH runs branch value if there is one. */
    uint64_t *count = NULL;
    CHECK(aclrtMalloc((void **)&count, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtCreateStream(&cap));
    CHECK(aclrtCreateStream(&sub));

    struct cond_model ifTwo = cond_model(ACL_MODEL_RI_COND_TYPE_IF, 2, 0, 0, NULL);
    EXPECT(cond_run(&ifTwo, 1) == 718 && cond_run(&ifTwo, 1ULL << 40) == 718 && cond_run(&ifTwo, 0) == 728,
           "IF with two branches: 1 and 2^40 take branch 0 (718), 0 takes branch 1 (728)");
    struct cond_model ifOne = cond_model(ACL_MODEL_RI_COND_TYPE_IF, 1, 0, 0, NULL);
    EXPECT(cond_run(&ifOne, 5) == 718 && cond_run(&ifOne, 0) == 78, "IF with one branch: 5 takes it (718), 0 skips it (78)");
    struct cond_model ifDefault = cond_model(ACL_MODEL_RI_COND_TYPE_IF, 2, 1, 1, NULL);
    EXPECT(cond_run(&ifDefault, 0) == 718 && read_u64(ifDefault.cond) == 1,
           "ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT: each run starts from the default 1, not the 0 written before it");

    struct cond_model loop = cond_model(ACL_MODEL_RI_COND_TYPE_WHILE, 1, 0, 0, count);
    int loops = 0;
    for (uint64_t n = 0; n <= 6; n += 3) {
        write_u64(count, 0);
        loops += cond_run(&loop, n) == 78 && read_u64(count) == n && read_u64(loop.cond) == 0;
    }
    EXPECT(loops == 3, "WHILE whose body decrements the condition: 0, 3 and 6 iterations for 0, 3 and 6 (%d of 3 right)", loops);
    struct cond_model loopDefault = cond_model(ACL_MODEL_RI_COND_TYPE_WHILE, 1, 4, 1, count);
    write_u64(count, 0);
    trace_run(loopDefault.m);
    trace_run(loopDefault.m);
    EXPECT(read_u64(count) == 8, "WHILE with the default 4 assigned at each run: 4 iterations per run (%llu in 2 runs)",
           (unsigned long long)read_u64(count));

    struct cond_model sel = cond_model(ACL_MODEL_RI_COND_TYPE_SWITCH, 3, 0, 0, NULL);
    EXPECT(cond_run(&sel, 0) == 718 && cond_run(&sel, 1) == 728 && cond_run(&sel, 2) == 738 && cond_run(&sel, 3) == 78 &&
               cond_run(&sel, 1ULL << 33) == 78,
           "SWITCH with 3 branches: 0, 1, 2 take branches 0, 1, 2; 3 and 2^33 take none");

    /* Branches run only inside their model and go with it. */
    EXPECT_CODE(aclmdlRIExecuteAsync(sel.branches[1], run), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIExecuteAsync of a branch");
    EXPECT_CODE(aclmdlRIDestroy(sel.branches[1]), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIDestroy of a branch");
    EXPECT_CODE(aclmdlRICaptureToModelRIBegin(sub, sel.branches[1], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_PARAM_INVALID,
                "aclmdlRICaptureToModelRIBegin of a branch already captured");
    EXPECT_CODE(aclmdlRICaptureToModelRIBegin(sub, sel.m, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_PARAM_INVALID,
                "aclmdlRICaptureToModelRIBegin of a model that is no branch");
    CHECK(aclmdlRIDestroy(sel.m));
    EXPECT_CODE(aclmdlRIExecuteAsync(sel.branches[1], run), ACL_ERROR_RT_INVALID_HANDLE, "a branch after its model's destroy");

    /* Refused conditional tasks. */
    aclmdlRICondHandle h = NULL;
    aclmdlRI m = NULL, br[4] = {NULL};
    aclmdlRICaptureStatus st;
    EXPECT_CODE(aclmdlRICondHandleCreate(ifOne.m, 0, 0, &h), ACL_ERROR_RT_PARAM_INVALID,
                "aclmdlRICondHandleCreate for a model whose capture has ended");
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclmdlRICaptureGetInfo(cap, &st, &m));
    EXPECT_CODE(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)2, &h), ACL_ERROR_RT_PARAM_INVALID,
                "aclmdlRICondHandleCreate flag 2");
    CHECK(aclmdlRICondHandleCreate(m, 0, 0, &h));
    static const struct {
        aclmdlRICondTaskType type;
        uint32_t size;
        const char *what;
    } bad[] = {
        {ACL_MODEL_RI_COND_TYPE_IF, 0, "IF with 0 branches"},
        {ACL_MODEL_RI_COND_TYPE_IF, 3, "IF with 3 branches"},
        {ACL_MODEL_RI_COND_TYPE_WHILE, 2, "WHILE with 2 branches"},
        {ACL_MODEL_RI_COND_TYPE_SWITCH, 0, "SWITCH with 0 branches"},
        {(aclmdlRICondTaskType)3, 1, "conditional type 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        aclmdlRICondTaskParams p = {h, bad[i].type, bad[i].size, br};
        EXPECT_CODE(aclmdlRIAddCondTask(p, cap, 0), ACL_ERROR_RT_PARAM_INVALID, bad[i].what);
    }
    aclmdlRICondTaskParams p = {h, ACL_MODEL_RI_COND_TYPE_IF, 1, br};
    EXPECT_CODE(aclmdlRIAddCondTask(p, cap, 1), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIAddCondTask flags 1");
    EXPECT_CODE(aclmdlRIAddCondTask(p, plain, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "aclmdlRIAddCondTask on a stream not capturing");
    p.modelRIArray = NULL;
    EXPECT_CODE(aclmdlRIAddCondTask(p, cap, 0), ACL_ERROR_INVALID_PARAM, "aclmdlRIAddCondTask with no modelRIArray");
    CHECK(aclmdlRICaptureEnd(cap, &m));
    CHECK(aclmdlRIDestroy(m));

    CHECK(aclmdlRIDestroy(ifTwo.m));
    CHECK(aclmdlRIDestroy(ifOne.m));
    CHECK(aclmdlRIDestroy(ifDefault.m));
    CHECK(aclmdlRIDestroy(loop.m));
    CHECK(aclmdlRIDestroy(loopDefault.m));
    CHECK(aclrtFree(count));
    CHECK(aclrtFree(left));
    CHECK(aclrtFree(right));
    CHECK(aclrtFree(idx));
    CHECK(aclrtFree(word));
    CHECK(aclrtDestroyStream(cap));
    CHECK(aclrtDestroyStream(sub));
    CHECK(aclrtDestroyStream(run));
    CHECK(aclrtDestroyStream(plain));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 16_control\n");
    return 0;
}
