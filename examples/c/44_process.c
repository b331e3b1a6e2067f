/*
 * 44_process: process-level settings (acl/acl_rt_process.h): callbacks
 * aclInit and aclFinalize run, with their order, arguments and failures;
 * system parameters of the process and of a context; the data dump, its
 * configuration checks and the files it writes after each kernel task,
 * read back and compared byte for byte; every refusal with its code.
 *
 * Usage: 44_process <kernel binary with vadd>
 */
#include "common.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 256

/* What the init and finalize callbacks saw, in order. */
static char calls[512];
static char seen_cfg[256];
static size_t seen_len;

static void note(const char *what)
{
    strncat(calls, what, sizeof calls - strlen(calls) - 1);
    strncat(calls, " ", sizeof calls - strlen(calls) - 1);
}

static aclError init_cb(const char *cfg, size_t len, void *user)
{
    note((const char *)user);
    snprintf(seen_cfg, sizeof seen_cfg, "%s", cfg);
    seen_len = len;
    return ACL_SUCCESS;
}

static aclError init_fails(const char *cfg, size_t len, void *user)
{
    (void)cfg;
    (void)len;
    note((const char *)user);
    return ACL_ERROR_FAILURE;
}

static aclError fin_cb(void *user)
{
    note((const char *)user);
    return ACL_SUCCESS;
}

static aclError fin_fails(void *user)
{
    note((const char *)user);
    return ACL_ERROR_FAILURE;
}

/* read_all reads a whole file into buf (at most max bytes); -1 if absent. */
static long read_all(const char *path, void *buf, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    size_t n = fread(buf, 1, max, f);
    fclose(f);
    return (long)n;
}

/* find_dump finds, in dir, the file of stream id's task for argument arg
 * of vadd at end ("input" or "output"), the task being the count-th
 * dumped one (lowest sequence number first, count from 0). */
static int find_dump(const char *dir, int32_t stream, int count, int arg, const char *end, char *out, size_t n)
{
    char prefix[64], suffix[64];
    unsigned long seqs[16];
    int nseq = 0;
    snprintf(prefix, sizeof prefix, "device0.stream%d.task", stream);
    snprintf(suffix, sizeof suffix, ".vadd.arg%d.%s.bin", arg, end);
    DIR *d = opendir(dir);
    if (d == NULL) {
        return 0;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < sl || strcmp(e->d_name + len - sl, suffix) != 0) {
            continue;
        }
        if (nseq < 16) {
            seqs[nseq++] = strtoul(e->d_name + strlen(prefix), NULL, 10);
        }
    }
    closedir(d);
    for (int i = 0; i < nseq; i++) {
        for (int j = i + 1; j < nseq; j++) {
            if (seqs[j] < seqs[i]) {
                unsigned long t = seqs[i];
                seqs[i] = seqs[j];
                seqs[j] = t;
            }
        }
    }
    if (count >= nseq) {
        return 0;
    }
    snprintf(out, n, "%s/%s%lu%s", dir, prefix, seqs[count], suffix);
    return 1;
}

static int count_files(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

static void callbacks(const char *cfgPath, const char *cfgText)
{
    /* Registration before aclInit; the refusals. */
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, "other1"));
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, "other2"));
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb, "model"));
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_CBLAS, init_cb, "cblas"));
    EXPECT_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_fails, "x"), ACL_ERROR_INTERNAL_ERROR,
                "a second init callback of one type");
    EXPECT_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "a NULL init callback");
    EXPECT_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, init_cb), ACL_ERROR_INTERNAL_ERROR,
                "unregistering an init callback not registered for the type");
    EXPECT_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, NULL), ACL_ERROR_INVALID_PARAM,
                "unregistering a NULL init callback");
    CHECK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_cb, "fin-other"));
    CHECK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fin_cb, "fin-compiler"));
    EXPECT_CODE(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fin_cb, "x"), ACL_ERROR_INTERNAL_ERROR,
                "a second finalize callback of one type");
    EXPECT_CODE(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "a NULL finalize callback");
    EXPECT_CODE(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb), ACL_ERROR_INTERNAL_ERROR,
                "unregistering a finalize callback not registered for the type");

    /* A failing callback fails aclInit with its code; later ones never run. */
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_fails, "dvpp-fails"));
    EXPECT_CODE(aclInit(cfgPath), ACL_ERROR_FAILURE, "aclInit whose DVPP callback fails");
    EXPECT(strcmp(calls, "model dvpp-fails ") == 0, "callbacks before the failure ran, in order: %s", calls);
    uint32_t count = 0;
    EXPECT_CODE(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE, "the runtime after the failed aclInit");
    CHECK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, init_fails));

    calls[0] = 0;
    CHECK(aclInit(cfgPath));
    EXPECT(strcmp(calls, "model other1 other2 ") == 0, "aclInit ran model, then the OTHER callbacks in order: %s",
           calls);
    EXPECT(strcmp(seen_cfg, cfgText) == 0 && seen_len == strlen(cfgText),
           "the init callbacks got the configuration file's text and its length (%zu)", seen_len);

    calls[0] = 0;
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_fails, "late"));
    EXPECT(strcmp(calls, "late ") == 0, "an init callback registered after aclInit runs at once: %s", calls);
    CHECK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, init_fails));

    /* A failing finalize callback fails aclFinalize and keeps the runtime. */
    CHECK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fin_fails, "fin-model-fails"));
    calls[0] = 0;
    EXPECT_CODE(aclFinalize(), ACL_ERROR_FAILURE, "aclFinalize whose model callback fails");
    CHECK(aclrtGetDeviceCount(&count));
    EXPECT(strcmp(calls, "fin-compiler fin-model-fails ") == 0 && count > 0,
           "the runtime is still initialized (%u devices) after: %s", count, calls);
    CHECK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fin_fails));
    calls[0] = 0;
    CHECK(aclFinalize());
    EXPECT(strcmp(calls, "fin-compiler fin-other ") == 0, "aclFinalize ran op compiler, then OTHER: %s", calls);

    /* aclInit(NULL): the op executor type is only for a given configuration. */
    CHECK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_cb, "executor"));
    calls[0] = 0;
    CHECK(aclInit(NULL));
    EXPECT(strcmp(calls, "model other1 other2 ") == 0 && seen_len == 0,
           "aclInit(NULL) skips the op executor and passes an empty text: %s", calls);
    CHECK(aclFinalize());
    CHECK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_cb));
    CHECK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_cb));
    CHECK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_cb));
    CHECK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_cb));
    EXPECT_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_cb), ACL_ERROR_INTERNAL_ERROR,
                "a third unregistration of the callback registered twice as OTHER");
    CHECK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, fin_cb));
    CHECK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fin_cb));
}

static void sysparams(void)
{
    int64_t v = -1;
    CHECK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v));
    EXPECT(v == 0, "ACL_OPT_ENABLE_KERNEL_EARLY_START before any set: %lld", (long long)v);
    CHECK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
    CHECK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
    CHECK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    EXPECT(v == 3, "ACL_OPT_DETERMINISTIC set to 3 before aclInit reads back %lld", (long long)v);
    EXPECT_CODE(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID,
                "ACL_OPT_DETERMINISTIC 4");
    EXPECT_CODE(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID,
                "ACL_OPT_ENABLE_DEBUG_KERNEL 2");
    EXPECT_CODE(aclrtSetSysParamOpt((aclSysParamOpt)4, 0), ACL_ERROR_INVALID_PARAM, "option 4");
    EXPECT_CODE(aclrtGetSysParamOpt((aclSysParamOpt)-1, &v), ACL_ERROR_INVALID_PARAM, "getting option -1");
    EXPECT_CODE(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM, "a NULL value");

    CHECK(aclInit(NULL));
    EXPECT_CODE(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtCtxSetSysParamOpt without a current context");
    EXPECT_CODE(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM,
                "a process-only option, refused before the context is looked for");
    CHECK(aclrtSetDevice(0));
    EXPECT_CODE(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                "a context option never set");
    CHECK(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    CHECK(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
    EXPECT(v == 1, "the context reads back ACL_OPT_ENABLE_DEBUG_KERNEL %lld", (long long)v);
    CHECK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
    EXPECT(v == 1, "a context set also sets the process's value, as CANN's runtime does: %lld", (long long)v);
    aclrtContext other = NULL, cur = NULL;
    CHECK(aclrtGetCurrentContext(&cur));
    CHECK(aclrtCreateContext(&other, 0));
    EXPECT_CODE(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                "another context has its own values");
    CHECK(aclrtDestroyContext(other));
    CHECK(aclrtSetCurrentContext(cur));
    EXPECT_CODE(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM,
                "ACL_OPT_ENABLE_KERNEL_EARLY_START on a context");
    /* ACL_OPT_STRONG_CONSISTENCY (2), deprecated, takes 0 or 1. */
    EXPECT_CODE(aclrtCtxSetSysParamOpt((aclSysParamOpt)2, 2), ACL_ERROR_RT_PARAM_INVALID,
                "ACL_OPT_STRONG_CONSISTENCY 2 on a context");
    EXPECT_CODE(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM,
                "a NULL context value");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    CHECK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    EXPECT(v == 3, "the process's values outlive aclFinalize: ACL_OPT_DETERMINISTIC %lld", (long long)v);
}

static void dump(const char *dir, const char *kernel)
{
    char path[512], cfg[1024], file[600];
    snprintf(path, sizeof path, "%s/dump.json", dir);
    EXPECT_CODE(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE, "aclmdlInitDump before aclInit");
    CHECK(aclInit(NULL));
    static float hx[N], hy[N], hz[N], back[N];
    void *x = NULL, *y = NULL, *z = NULL, *dargs = NULL;
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle vadd = NULL;
    int32_t sid = 0;
    const uint64_t n = N;
    for (int i = 0; i < N; i++) {
        hx[i] = (float)i;
        hy[i] = 0.5f * (float)i;
        hz[i] = -1.0f;
    }
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtStreamGetId(s, &sid));
    CHECK(aclrtMalloc(&x, sizeof hx, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&y, sizeof hy, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&z, sizeof hz, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, sizeof hy, hy, sizeof hy, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(z, sizeof hz, hz, sizeof hz, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtBinaryLoadFromFile(kernel, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &vadd));

    /* Launches before any dump: later ones may take the direct path, which
     * a dump must close. */
    struct { void *x, *y, *z; uint64_t n; } args = {x, y, z, n};
    for (int i = 0; i < 8; i++) {
        CHECK(aclrtLaunchKernelWithHostArgs(vadd, 4, s, NULL, &args, sizeof args, NULL, 0));
    }
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(z, sizeof hz, hz, sizeof hz, ACL_MEMCPY_HOST_TO_DEVICE));

    EXPECT_CODE(aclmdlSetDump(path), ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump before aclmdlInitDump");
    EXPECT_CODE(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump before aclmdlInitDump");
    CHECK(aclmdlInitDump());
    EXPECT_CODE(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE, "aclmdlInitDump twice");
    EXPECT_CODE(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM, "aclmdlSetDump(NULL)");
    EXPECT_CODE(aclmdlSetDump("/nonexistent/dump.json"), ACL_ERROR_INVALID_FILE, "a missing dump file");
    write_file(path, "[[[[[[[[[[[]]]]]]]]]]]");
    EXPECT_CODE(aclmdlSetDump(path), ACL_ERROR_PARSE_FILE, "a dump file nested 11 deep");
    write_file(path, "{\"dump\": {\"dump_op_switch\": \"on\"}}");
    EXPECT_CODE(aclmdlSetDump(path), ACL_ERROR_INVALID_DUMP_CONFIG, "a dump without dump_path");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "dump_path is missing") != NULL, "the message names the field: %s", msg);
    snprintf(cfg, sizeof cfg, "{\"dump\": {\"dump_path\": \"%s\", \"dump_mode\": \"both\"}}", dir);
    write_file(path, cfg);
    EXPECT_CODE(aclmdlSetDump(path), ACL_ERROR_INVALID_DUMP_CONFIG, "dump_mode both");
    snprintf(cfg, sizeof cfg, "{\"dump\": {\"dump_path\": \"%s\", \"dump_scene\": \"watcher\", \"dump_op_switch\": \"on\"}}",
             dir);
    write_file(path, cfg);
    EXPECT_CODE(aclmdlSetDump(path), ACL_ERROR_INVALID_DUMP_CONFIG, "dump_scene watcher with dump_op_switch on");

    char out[512];
    snprintf(out, sizeof out, "%s/out", dir);
    EXPECT(mkdir(out, 0700) == 0, "made the dump directory %s", out);
    snprintf(cfg, sizeof cfg,
             "{\"dump\": {\"dump_path\": \"%s\", \"dump_mode\": \"all\", \"dump_op_switch\": \"on\", "
             "\"dump_list\": [{\"layer\": [\"vadd\"]}]}}",
             out);
    write_file(path, cfg);
    CHECK(aclmdlSetDump(path));

    /* Twice with host arguments, once with the block in device memory. */
    CHECK(aclrtLaunchKernelWithHostArgs(vadd, 4, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtLaunchKernelWithHostArgs(vadd, 4, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtMalloc(&dargs, sizeof args, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemcpy(dargs, sizeof args, &args, sizeof args, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtLaunchKernel(vadd, 4, dargs, sizeof args, s));
    CHECK(aclrtSynchronizeStream(s));

    int good = 1;
    for (int task = 0; task < 3; task++) {
        for (int arg = 0; arg < 3; arg++) {
            for (int end = 0; end < 2; end++) {
                const char *e = end ? "output" : "input";
                const float *want = arg == 0 ? hx : arg == 1 ? hy : NULL;
                float sums[N];
                if (arg == 2) {
                    for (int i = 0; i < N; i++) {
                        sums[i] = (task == 0 && !end) ? -1.0f : hx[i] + hy[i];
                    }
                    want = sums;
                }
                if (!find_dump(out, sid, task, arg, e, file, sizeof file) ||
                    read_all(file, back, sizeof back + 1) != (long)sizeof back || memcmp(back, want, sizeof back) != 0) {
                    good = 0;
                    printf("  mismatch: task %d argument %d %s (%s)\n", task, arg, e, file);
                }
            }
        }
        if (find_dump(out, sid, task, 3, "output", file, sizeof file)) {
            good = 0;
        }
    }
    EXPECT(good && count_files(out) == 18,
           "3 dumped vadd tasks: x, y and z before and after each, byte for byte (%d files, none for n)",
           count_files(out));

    /* A configuration naming another layer dumps no vadd; FinalizeDump ends it. */
    snprintf(cfg, sizeof cfg, "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"layer\": [\"other\"]}]}}", out);
    write_file(path, cfg);
    CHECK(aclmdlSetDump(path));
    CHECK(aclrtLaunchKernelWithHostArgs(vadd, 4, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(count_files(out) == 18, "a later aclmdlSetDump naming layer \"other\" dumps no vadd (%d files)",
           count_files(out));
    CHECK(aclmdlFinalizeDump());
    EXPECT_CODE(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump twice");
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(dargs));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(z));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* A dump section in aclInit's configuration: on from the start. */
    snprintf(cfg, sizeof cfg, "{\"dump\": {\"dump_path\": \"%s\", \"dump_op_switch\": \"on\"}}", out);
    write_file(path, cfg);
    CHECK(aclInit(path));
    EXPECT_CODE(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN, "aclmdlInitDump with aclInit's dump on");
    CHECK(aclFinalize());
    write_file(path, "{\"dump\": {\"dump_path\": \"\", \"dump_op_switch\": \"on\"}}");
    EXPECT_CODE(aclInit(path), ACL_ERROR_INVALID_DUMP_CONFIG, "aclInit with an empty dump_path");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    char dir[] = "/tmp/gocann-44-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        fprintf(stderr, "mkdtemp failed\n");
        return 1;
    }
    char cfgPath[512];
    const char *cfgText = "{\"err_msg_mode\": \"0\"}";
    snprintf(cfgPath, sizeof cfgPath, "%s/init.json", dir);
    write_file(cfgPath, cfgText);

    sysparams();
    callbacks(cfgPath, cfgText);
    dump(dir, argv[1]);

    /* Leave no files behind. */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not remove %s\n", dir);
    }
    printf("PASS 44_process\n");
    return 0;
}
