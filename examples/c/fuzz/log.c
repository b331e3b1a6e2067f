/*
 * Call descriptions and findings. Each call is described in a ring of the
 * last RING calls before it is made, in memory the parent process reads
 * after a crash; a finding is printed with the seed and the call, once per
 * distinct signature in full and then only counted.
 */
#include "fuzz.h"

#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>


static struct ring local_ring;
struct ring *ring = &local_ring;

void ring_init(int fd)
{
    if (fd < 0) {
        return;
    }
    void *p = mmap(NULL, sizeof(struct ring), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p != MAP_FAILED) {
        ring = p;
    }
}

static char *cur_slot(void) { return ring->slot[(ring->head - 1) % RING]; }

void callf(const char *fmt, ...)
{
    char *s = ring->slot[ring->head % RING];
    int n = snprintf(s, SLOT, "#%llu ", (unsigned long long)++fz.call);
    ring->call = fz.call;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s + n, SLOT - (size_t)n, fmt, ap);
    va_end(ap);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ring->stamp = ts.tv_sec;
    __atomic_store_n(&ring->head, ring->head + 1, __ATOMIC_SEQ_CST);
    if (fz.verbose) {
        fprintf(stderr, "%s\n", s);
    }
}

aclError ret(aclError rc)
{
    char *s = cur_slot();
    size_t n = strnlen(s, SLOT);
    snprintf(s + n, SLOT - n, " -> %d", rc);
    if (fz.verbose) {
        fprintf(stderr, "   -> %d\n", rc);
    }
    return rc;
}

void note(const char *fmt, ...)
{
    char *s = cur_slot();
    size_t n = strnlen(s, SLOT);
    if (n + 3 >= SLOT) {
        return;
    }
    s[n++] = ' ';
    s[n++] = '[';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s + n, SLOT - n - 1, fmt, ap);
    va_end(ap);
    n = strnlen(s, SLOT);
    if (n + 1 < SLOT) {
        s[n] = ']';
        s[n + 1] = 0;
    }
}

/* ---- findings --------------------------------------------------------- */

#define MAXSIG 512
static struct {
    char sig[160];
    uint64_t count;
} sigs[MAXSIG];
static int nsig;

/* The function name a call description starts with. */
static void fn_of(char *out, size_t n)
{
    const char *s = strchr(cur_slot(), ' ');
    s = s ? s + 1 : "";
    size_t k = strcspn(s, "( ");
    snprintf(out, n, "%.*s", (int)(k < n ? k : n - 1), s);
}

void finding(const char *cls, const char *sig, const char *fmt, ...)
{
    char key[160];
    snprintf(key, sizeof key, "%s: %s", cls, sig);
    int i;
    for (i = 0; i < nsig && strcmp(sigs[i].sig, key) != 0; i++) {
    }
    if (i == nsig && nsig < MAXSIG) {
        snprintf(sigs[nsig++].sig, sizeof sigs[0].sig, "%s", key);
    }
    uint64_t seen = i < MAXSIG ? ++sigs[i].count : 99;
    if (strcmp(cls, "WRONG SUCCESS") != 0 && strcmp(cls, "UNEXPECTED FAILURE") != 0 && strcmp(cls, "DATA MISMATCH") != 0) {
        fz.others++;
    }
    if (seen <= 2) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        printf("fuzz: %s (seed %llu, call #%llu): %s\n    call: %s\n", cls, (unsigned long long)fz.seed,
               (unsigned long long)fz.call, msg, cur_slot());
        if (seen == 1 && fz.verbose == 0) {
            printf("    before it:\n");
            for (uint64_t k = ring->head > 9 ? ring->head - 9 : 0; k + 1 < ring->head; k++) {
                printf("      %s\n", ring->slot[k % RING]);
            }
        }
        fflush(stdout);
    }
}

void must_fail(aclError rc, const char *why)
{
    fz.checks++;
    if (rc != 0) {
        return;
    }
    fz.wrong_successes++;
    char fn[64], sig[160];
    fn_of(fn, sizeof fn);
    snprintf(sig, sizeof sig, "%s: %s", fn, why);
    finding("WRONG SUCCESS", sig, "returned 0, expected a failure: %s", why);
    /* The call did something the model does not know: expect nothing
     * more of the context. */
    if (fz.cur_ctx >= 0) {
        ctx_taint(fz.cur_ctx);
    }
}

static int in_range(aclError rc, int lo, int hi) { return rc >= lo && rc <= hi; }

static int allowed(aclError rc, unsigned allow)
{
    if (allow & AL_ANY) {
        return 1;
    }
    if ((allow & AL_FAULT) && (in_range(rc, 507000, 507999) || rc == 107019 || rc == 107020 || rc == 107022 ||
                               rc == 107023 || rc == 107035 || rc == 207020)) {
        return 1;
    }
    if ((allow & AL_CAPTURE) && (in_range(rc, 107024, 107045) || rc == 507009 || rc == 107005 || rc == 507903)) {
        return 1;
    }
    if ((allow & AL_RESOURCE) && (in_range(rc, 207000, 207020) || rc == 200000)) {
        return 1;
    }
    if ((allow & AL_NOTREADY) && (rc == 507046 || rc == 507047 || rc == 107019 || rc == 507012)) {
        return 1;
    }
    return 0;
}

void must_pass(aclError rc, unsigned allow)
{
    fz.checks++;
    if (rc == 0 || allowed(rc, allow)) {
        return;
    }
    fz.unexpected_failures++;
    const char *msg = aclGetRecentErrMsg();
    char fn[64], sig[160];
    fn_of(fn, sizeof fn);
    snprintf(sig, sizeof sig, "%s: %d", fn, rc);
    finding("UNEXPECTED FAILURE", sig, "valid arguments, failed with %d: %s", rc, msg ? msg : "(no message)");
    if (fz.cur_ctx >= 0) {
        ctx_taint(fz.cur_ctx);
    }
}

void mismatch(const char *fmt, ...)
{
    char msg[400], fn[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fz.mismatches++;
    fn_of(fn, sizeof fn);
    finding("DATA MISMATCH", fn, "%s", msg);
}

unsigned allow_for_ctx(int ctx)
{
    unsigned a = 0;
    if (ctx >= 0 && fz.objs[ctx].tainted) {
        a |= AL_FAULT;
    }
    for (int c = 0; c < MAXCAP; c++) {
        if (fz.caps[c].active || fz.untracked_capture) {
            a |= AL_CAPTURE;
        }
    }
    return a;
}

unsigned allow_for_stream(int s)
{
    if (s < 0) {
        return allow_for_ctx(fz.cur_ctx);
    }
    obj *o = &fz.objs[s];
    unsigned a = allow_for_ctx(o->ctx);
    if (o->weird || o->persistent || o->capture >= 0 || o->bound >= 0) {
        a |= AL_ANY;
    }
    return a;
}

void print_summary(FILE *f, const char *who)
{
    fprintf(f, "%s: seed %llu calls %llu checks %llu wrong_successes %llu unexpected_failures %llu mismatches %llu other_findings %llu\n", who,
            (unsigned long long)fz.seed, (unsigned long long)fz.call, (unsigned long long)fz.checks,
            (unsigned long long)fz.wrong_successes, (unsigned long long)fz.unexpected_failures,
            (unsigned long long)fz.mismatches, (unsigned long long)fz.others);
    for (int i = 0; i < nsig; i++) {
        fprintf(f, "  %6llu x %s\n", (unsigned long long)sigs[i].count, sigs[i].sig);
    }
}
