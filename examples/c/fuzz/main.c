/*
 * fuzz: the driver. The parent process runs each seed in a child (this
 * program again, started with exec so the runtime starts fresh), watches
 * it for a crash or a hang, and prints the seed and the last calls from
 * the ring the child keeps in shared memory. The child makes the calls.
 *
 * Usage: fuzz [options] libfuzzk.so
 *   -s SEED[,SEED...]  seeds to run (default 1)
 *   -r                 also run one time-based seed (printed)
 *   -n CALLS           API calls per seed (default 10000)
 *   -x CLASS[,...]     avoid a known defect class: hostargs-huge,
 *                      freehost-twice, closed-dev, ctx-live, alias,
 *                      teardown-free, zero-params, pitch-overflow,
 *                      dropped-record, or all
 *   -t SECONDS         time limit per seed (default 120 + CALLS/1000)
 *   -v                 print every call to stderr
 *   -1                 one process: make the calls here (for a debugger)
 *   -d CALL            with -1: print the model before call CALL
 * Exit status: 0 if nothing was found, 1 on any finding.
 */
#include "fuzz.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


struct fz fz;

static const struct {
    const char *name;
    unsigned bit;
} classes[] = {
    {"hostargs-huge", AV_HOSTARGS_HUGE}, {"freehost-twice", AV_FREEHOST_TWICE}, {"closed-dev", AV_CLOSED_DEV},
    {"ctx-live", AV_CTX_LIVE},           {"alias", AV_ALIAS},
    {"teardown-free", AV_TEARDOWN_FREE}, {"zero-params", AV_ZERO_PARAMS},
    {"pitch-overflow", AV_PITCH_OVERFLOW}, {"dropped-record", AV_DROPPED_RECORD},
};

static unsigned parse_avoid(const char *s)
{
    unsigned v = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        size_t i;
        for (i = 0; i < ARRAY_LEN(classes) && strcmp(classes[i].name, tok) != 0; i++) {
        }
        if (strcmp(tok, "all") == 0) {
            v = ~0u;
        } else if (i < ARRAY_LEN(classes)) {
            v |= classes[i].bit;
        } else {
            fprintf(stderr, "fuzz: unknown class %s\n", tok);
            exit(2);
        }
    }
    return v;
}

/* ---- the child: make the calls ---------------------------------------- */

static struct op table[256];
static int nops, total_weight;

/* FUZZ_SKIP=name,name,... leaves those operations out: for narrowing a
 * finding down to the calls it needs. */
static int skipped(const char *name)
{
    const char *skip = getenv("FUZZ_SKIP");
    size_t n = strlen(name);
    for (const char *p = skip; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == 0)) {
            return 1;
        }
    }
    return 0;
}

static void add_ops(const struct op *ops)
{
    for (; ops->name != NULL; ops++) {
        if (skipped(ops->name)) {
            continue;
        }
        table[nops++] = *ops;
        total_weight += ops->weight;
    }
}

static void publish(void)
{
    ring->call = fz.call;
    ring->wrong_successes = fz.wrong_successes;
    ring->unexpected_failures = fz.unexpected_failures;
    ring->mismatches = fz.mismatches;
    ring->others = fz.others;
    ring->checks = fz.checks;
}

/* A call that does not return within HANG_SECONDS makes the watchdog
 * fault inside the runtime's Go code (an out-parameter at 0x1000, which
 * nothing maps and which the library, refusing only addresses below 4096,
 * passes on):
 * with GOTRACEBACK=all, which the parent sets, the Go runtime then prints
 * the stack of every goroutine, which shows where the call waits. */
#define HANG_SECONDS 45

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        sleep(1);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t stamp = __atomic_load_n(&ring->stamp, __ATOMIC_SEQ_CST);
        if (stamp > 0 && now.tv_sec - stamp > HANG_SECONDS && !ring->done) {
            fprintf(stderr, "fuzz: call #%llu has not returned in %d s; the goroutines:\n",
                    (unsigned long long)ring->call, HANG_SECONDS);
            ring->hung = 1;
            aclrtGetDeviceCount((uint32_t *)(uintptr_t)0x1000);
        }
    }
    return NULL;
}

static int child(uint64_t seed, uint64_t ncalls, const char *kernel)
{
    fz.seed = seed;
    fz.ncalls = ncalls;
    fz.cur_ctx = -1;
    fz.ndev = 1; /* until aclInit tells */
    for (int d = 0; d < MAXDEV; d++) {
        fz.dev_default[d] = -1;
    }
    ring->seed = seed;
    rng_seed(seed);
    if (realpath(kernel, fz.kernel_path) == NULL) {
        fprintf(stderr, "fuzz: %s: %s\n", kernel, strerror(errno));
        return 2;
    }
    snprintf(fz.scratch_dir, sizeof fz.scratch_dir, "fuzz-scratch-XXXXXX");
    if (mkdtemp(fz.scratch_dir) == NULL) {
        fprintf(stderr, "fuzz: mkdtemp: %s\n", strerror(errno));
        return 2;
    }
    /* The cross-process IPC area's second process forks before the first call. */
    if (peer_start() != 0) {
        fprintf(stderr, "fuzz: could not start the IPC peer\n");
    }
    kernels_init();
    static const struct op *const areas[] = {ops_dev,    ops_query,   ops_stream, ops_event,
                                             ops_notify, ops_mem,     ops_copy,   ops_kernel,
                                             ops_launch, ops_capture, ops_group,  ops_model, ops_label,
                                             ops_peer, ops_hostreg, ops_batch, ops_pool, ops_allocator, ops_vmm, ops_vmm_use, ops_managed, ops_buf, ops_cntnotify, ops_process, ops_binary, ops_streamctl, ops_snapshot, ops_control, ops_engines, ops_ipc, ops_ipc_peer};
    for (size_t i = 0; i < ARRAY_LEN(areas); i++) {
        add_ops(areas[i]);
    }
    report_thread_start();
    pthread_t wd;
    pthread_create(&wd, NULL, watchdog, NULL);

    while (fz.call < ncalls) {
        int w = (int)below((uint64_t)total_weight), i = 0;
        while (w >= table[i].weight) {
            w -= table[i++].weight;
        }
        if (fz.dump_at && fz.call + 1 >= fz.dump_at) {
            model_dump(stderr);
            fz.dump_at = 0;
        }
        table[i].fn();
        publish();
    }
    if (fz.inited) {
        callf("aclFinalize()");
        must_pass(ret(aclFinalize()), AL_FAULT | AL_CAPTURE);
        runtime_finalized();
    }
    peer_stop();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fz.scratch_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "fuzz: could not remove %s\n", fz.scratch_dir);
    }
    publish();
    ring->done = 1;
    print_summary(stdout, "fuzz child");
    fflush(stdout);
    return fz.wrong_successes + fz.unexpected_failures + fz.mismatches + fz.others ? 1 : 0;
}

/* ---- the parent: run the seeds ---------------------------------------- */

struct totals {
    uint64_t calls, wrong, unexpected, mismatches, others, crashes, hangs, checks;
};

static void print_ring(const struct ring *r)
{
    uint64_t head = r->head, from = head > 50 ? head - 50 : 0;
    printf("    last %llu calls:\n", (unsigned long long)(head - from));
    for (uint64_t k = from; k < head; k++) {
        printf("      %.*s\n", SLOT, r->slot[k % RING]);
    }
}

static void run_seed(uint64_t seed, char **cargv, int timeout, int call_timeout, struct totals *t)
{
    int fd = memfd_create("fuzz-ring", 0);
    if (fd < 0 || ftruncate(fd, sizeof(struct ring)) != 0) {
        perror("fuzz: memfd");
        exit(2);
    }
    struct ring *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (r == MAP_FAILED) {
        perror("fuzz: mmap");
        exit(2);
    }
    char fdarg[16], seedarg[24];
    snprintf(fdarg, sizeof fdarg, "%d", fd);
    snprintf(seedarg, sizeof seedarg, "%llu", (unsigned long long)seed);
    cargv[2] = fdarg;
    cargv[3] = seedarg;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execv("/proc/self/exe", cargv);
        _exit(127);
    }
    int status = 0, hung = 0;
    struct timespec start, now, tick = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t stamp = __atomic_load_n(&r->stamp, __ATOMIC_SEQ_CST);
        if (now.tv_sec - start.tv_sec > timeout || (stamp > 0 && now.tv_sec - stamp > call_timeout)) {
            /* SIGQUIT first: the Go runtime prints every goroutine's stack. */
            hung = now.tv_sec - start.tv_sec > timeout ? 1 : 2;
            kill(pid, SIGQUIT);
            for (int i = 0; i < 250 && waitpid(pid, &status, WNOHANG) != pid; i++) {
                nanosleep(&tick, NULL);
            }
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        nanosleep(&tick, NULL);
    }
    t->calls += r->call;
    t->wrong += r->wrong_successes;
    t->unexpected += r->unexpected_failures;
    t->mismatches += r->mismatches;
    t->others += r->others;
    t->checks += r->checks;
    int clean = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1) && r->done;
    if (r->hung && !hung) {
        hung = 2;
    }
    if (hung) {
        t->hangs++;
        if (hung == 1) {
            printf("fuzz: HANG (seed %llu): no end after %d s, at call #%llu\n", (unsigned long long)seed, timeout,
                   (unsigned long long)r->call);
        } else {
            printf("fuzz: HANG (seed %llu): call #%llu did not return in %d s\n", (unsigned long long)seed,
                   (unsigned long long)r->call, call_timeout);
        }
        print_ring(r);
    } else if (!clean) {
        t->crashes++;
        if (WIFSIGNALED(status)) {
            printf("fuzz: CRASH (seed %llu): killed by signal %d (%s) at call #%llu\n", (unsigned long long)seed,
                   WTERMSIG(status), strsignal(WTERMSIG(status)), (unsigned long long)r->call);
        } else {
            printf("fuzz: CRASH (seed %llu): exit status %d at call #%llu\n", (unsigned long long)seed,
                   WEXITSTATUS(status), (unsigned long long)r->call);
        }
        print_ring(r);
    }
    fflush(stdout);
    munmap(r, sizeof *r);
    close(fd);
}

int main(int argc, char **argv)
{
    uint64_t seeds[64], ncalls = 10000;
    int nseeds = 0, timeout = -1, one = 0, randseed = 0;
    unsigned avoid = 0;

    if (argc >= 8 && strcmp(argv[1], "--child") == 0) {
        ring_init(atoi(argv[2]));
        fz.avoid = (unsigned)strtoul(argv[5], NULL, 0);
        fz.verbose = atoi(argv[6]);
        return child(strtoull(argv[3], NULL, 0), strtoull(argv[4], NULL, 0), argv[7]);
    }
    int opt;
    while ((opt = getopt(argc, argv, "s:rn:x:t:v1d:")) != -1) {
        switch (opt) {
        case 's':
            for (char *tok = strtok(optarg, ","); tok && nseeds < 63; tok = strtok(NULL, ",")) {
                seeds[nseeds++] = strtoull(tok, NULL, 0);
            }
            break;
        case 'r':
            randseed = 1;
            break;
        case 'n':
            ncalls = strtoull(optarg, NULL, 0);
            break;
        case 'x':
            avoid |= parse_avoid(optarg);
            break;
        case 't':
            timeout = atoi(optarg);
            break;
        case 'v':
            fz.verbose = 1;
            break;
        case '1':
            one = 1;
            break;
        case 'd':
            fz.dump_at = strtoull(optarg, NULL, 0);
            break;
        default:
            fprintf(stderr, "usage: %s [-s seeds] [-r] [-n calls] [-x classes] [-t seconds] [-v] [-1] libfuzzk.so\n",
                    argv[0]);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "fuzz: the kernel binary (libfuzzk.so) is missing\n");
        return 2;
    }
    if (randseed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seeds[nseeds++] = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
        printf("fuzz: random seed %llu\n", (unsigned long long)seeds[nseeds - 1]);
    }
    if (nseeds == 0) {
        seeds[nseeds++] = 1;
    }
    if (timeout < 0) {
        timeout = 120 + (int)(ncalls / 1000);
    }
    if (one) {
        fz.avoid = avoid;
        int rc = 0;
        for (int i = 0; i < nseeds; i++) {
            rc |= child(seeds[i], ncalls, argv[optind]);
        }
        return rc;
    }
    char callsarg[24], avoidarg[16], verbosearg[4];
    snprintf(callsarg, sizeof callsarg, "%llu", (unsigned long long)ncalls);
    snprintf(avoidarg, sizeof avoidarg, "%u", avoid);
    snprintf(verbosearg, sizeof verbosearg, "%d", fz.verbose);
    setenv("GOTRACEBACK", "all", 0);
    char *cargv[] = {argv[0], "--child", NULL, NULL, callsarg, avoidarg, verbosearg, argv[optind], NULL};
    struct totals t = {0};
    for (int i = 0; i < nseeds; i++) {
        run_seed(seeds[i], cargv, timeout, 60, &t);
    }
    printf("fuzz: seeds %d calls %llu checks %llu wrong_successes %llu unexpected_failures %llu mismatches %llu "
           "other_findings %llu crashes %llu hangs %llu avoid %#x\n",
           nseeds, (unsigned long long)t.calls, (unsigned long long)t.checks, (unsigned long long)t.wrong,
           (unsigned long long)t.unexpected, (unsigned long long)t.mismatches, (unsigned long long)t.others,
           (unsigned long long)t.crashes, (unsigned long long)t.hangs, avoid);
    return t.wrong + t.unexpected + t.mismatches + t.others + t.crashes + t.hangs ? 1 : 0;
}
