/*
 * Notifies (every wait bounded, records paired with waits) and value writes
 * and waits (waits only on a word whose value is known, so every wait
 * ends).
 */
#include "fuzz.h"

static void op_create_notify(void)
{
    if (!one_in(10)) {
        ensure_device();
    }
    if (obj_count(K_NOTIFY) > 32) {
        return;
    }
    aclrtNotify n = NULL;
    int null = one_in(16);
    uint64_t flag = one_in(6) ? (uint64_t)int_any() : below(2);
    callf("aclrtCreateNotify(%s, %llu)", null ? "NULL" : "&n", (unsigned long long)flag);
    aclError rc = ret(aclrtCreateNotify(null ? NULL : &n, flag));
    if (null) {
        must_fail(rc, "a NULL notify");
        return;
    }
    if (fz.cur_ctx >= 0 && flag == 0) {
        must_pass(rc, AL_RESOURCE);
    }
    if (rc == 0) {
        int i = obj_new(K_NOTIFY, n, fz.cur_ctx, cur_dev());
        if (i >= 0) {
            fz.objs[i].weird = flag != 0;
        }
    }
}

static void op_destroy_notify(void)
{
    harg n = pick_handle(K_NOTIFY, 0);
    callf("aclrtDestroyNotify(%s)", hdesc(&n));
    aclError rc = ret(aclrtDestroyNotify(n.h));
    if (n.v != VALID) {
        must_fail(rc, "an invalid notify handle");
        return;
    }
    must_pass(rc, allow_for_ctx(fz.objs[n.idx].ctx) | AL_FAULT);
    if (rc == 0) {
        obj_kill(n.idx);
    }
}

static aclError record_notify(harg *n, harg *s, enum validity *v)
{
    *v = queue_on(s);
    callf("aclrtRecordNotify(%s, %s)", hdesc(n), hdesc(s));
    return ret(aclrtRecordNotify(n->h, s->h));
}

static aclError wait_notify(harg *n, harg *s, uint32_t timeout, enum validity *v)
{
    *v = queue_on(s);
    callf("aclrtWaitAndResetNotify(%s, %s, %u)", hdesc(n), hdesc(s), timeout);
    return ret(aclrtWaitAndResetNotify(n->h, s->h, timeout));
}

static void check_queue(aclError rc, const harg *n, const harg *s, enum validity v)
{
    if (n->v != VALID || v == INVALID) {
        must_fail(rc, n->v != VALID ? "an invalid notify handle"
                      : s->v == VALID ? "a stream of another context" : "an invalid stream handle");
    } else if (v == VALID) {
        must_pass(rc, allow_for_stream(s->idx) | (fz.objs[n->idx].weird ? AL_ANY : 0));
    }
}

/* The flag of queued notify waits of s's stream, or NULL. */
static int *waiting_of(const harg *s)
{
    int i = s->idx >= 0 ? s->idx : fz.cur_ctx;
    return i >= 0 ? &fz.objs[i].waiting : NULL;
}

/* A record and the wait it releases, on two streams of one context (or a
 * lone record or wait; a lone wait times out, a fault of its stream). */
static void op_notify(void)
{
    harg n = pick_handle(K_NOTIFY, 0), s1 = pick_stream(), s2 = s1;
    enum validity v1, v2;
    aclError rc;
    int lone = one_in(100);
    if (s1.v == VALID && one_in(2)) {
        int c = s1.idx >= 0 ? fz.objs[s1.idx].ctx : fz.cur_ctx;
        for (int tries = 0; tries < 8; tries++) {
            int j = obj_pick(K_STREAM);
            harg cand = {j >= 0 ? fz.objs[j].h : NULL, j, VALID, "live"};
            if (j >= 0 && fz.objs[j].ctx == c && !same_stream(&cand, &s1)) {
                s2 = cand;
                break;
            }
        }
    }
    if (lone && one_in(2)) {
        rc = record_notify(&n, &s1, &v1);
        check_queue(rc, &n, &s1, v1);
        return;
    }
    if (lone) {
        rc = wait_notify(&n, &s1, 1, &v1);
        check_queue(rc, &n, &s1, v1);
        if (rc == 0 && v1 == VALID) {
            ctx_taint(s1.idx >= 0 ? fz.objs[s1.idx].ctx : fz.cur_ctx);
        }
        return;
    }
    int wait_first = !same_stream(&s1, &s2) && one_in(2);
    int released = 1;
    if (wait_first) {
        rc = wait_notify(&n, &s1, 2, &v1);
        check_queue(rc, &n, &s1, v1);
        rc = record_notify(&n, &s2, &v2);
        check_queue(rc, &n, &s2, v2);
        released = rc == 0;
    } else {
        rc = record_notify(&n, &s2, &v2);
        check_queue(rc, &n, &s2, v2);
        if (rc != 0) {
            return;
        }
        rc = wait_notify(&n, &s1, 2, &v1);
        check_queue(rc, &n, &s1, v1);
    }
    int c1 = s1.idx >= 0 ? fz.objs[s1.idx].ctx : fz.cur_ctx, c2 = s2.idx >= 0 ? fz.objs[s2.idx].ctx : fz.cur_ctx;
    if (n.v != VALID) {
        return;
    }
    /* A notify is a flag, not a count: two records that both run before
     * either wait release only one of them. And a record may never run. */
    /* A record behind a wait of its own stream may come after this wait's
     * timeout: the chain of waits is not modelled. */
    obj *no = &fz.objs[n.idx];
    int *w1 = waiting_of(&s1), *w2 = waiting_of(&s2);
    if (no->recorded || c1 != c2 || !stream_clean(s2.idx) || no->weird || !released || (w2 && *w2)) {
        ctx_taint(c1);
    }
    no->recorded = 1; /* a pair in flight until the device is synchronized */
    if (w1) {
        *w1 = 1;
    }
}

static void op_notify_id(void)
{
    harg n = pick_handle(K_NOTIFY, 0);
    uint32_t id = 0;
    int null = one_in(8);
    callf("aclrtGetNotifyId(%s, %s)", hdesc(&n), null ? "NULL" : "&id");
    aclError rc = ret(aclrtGetNotifyId(n.h, null ? NULL : &id));
    if (n.v != VALID || null) {
        must_fail(rc, null ? "a NULL notifyId" : "an invalid notify handle");
    } else {
        must_pass(rc, 0);
    }
}

static void op_value_write(void)
{
    harg s = pick_stream();
    enum validity v = queue_on(&s);
    parg p = pick_ptr(one_in(12) ? 1 << M_PINNED | 1 << M_PAGEABLE : 1 << M_DEV, 8);
    if (p.kind != M_DEV && p.p != NULL) {
        if (p.room < 8) {
            return; /* a wrong success would write past the program's buffer */
        }
        p.v = INVALID; /* host memory: the word must be device memory */
        p.a = -1;
    }
    uint64_t val = rnd();
    uint32_t flag = one_in(8) ? (uint32_t)int_any() : 0;
    int misaligned = ((uintptr_t)p.p & 7) != 0;
    callf("aclrtValueWrite(%s %p, %#llx, %u, %s)", p.what, p.p, (unsigned long long)val, flag, hdesc(&s));
    aclError rc = ret(aclrtValueWrite(p.p, val, flag, s.h));
    if (v == INVALID || p.v == INVALID) {
        must_fail(rc, v == INVALID ? "an invalid stream" : p.p == NULL ? "a NULL devAddr"
                      : p.kind != M_DEV ? "host memory" : p.a < 0 ? "freed device memory"
                      : "8 bytes past the end of the allocation");
        return;
    }
    if (v == VALID && p.v == VALID && !misaligned && flag == 0 && p.dev == stream_dev(&s)) {
        must_pass(rc, allow_for_stream(s.idx));
    }
    if (rc == 0) {
        alloc_touch(p.a, stream_dev(&s));
        cap_note_task(s.idx, p.a);
    }
}

/* The word of dev that value waits use, with a known value. */
static void *value_word(int dev)
{
    if (fz.vword[dev] != NULL || allow_for_ctx(fz.cur_ctx)) {
        return fz.vword[dev];
    }
    void *p = NULL;
    callf("aclrtMalloc(&p, 64, NORMAL_ONLY) [value word]");
    if (ret(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY)) != 0) {
        return NULL;
    }
    uint64_t z[8] = {0};
    callf("aclrtMemcpy(word %p, 64, zeros, 64, H2D)", p);
    if (ret(aclrtMemcpy(p, 64, z, 64, ACL_MEMCPY_HOST_TO_DEVICE)) != 0) {
        return NULL;
    }
    fz.vword[dev] = p;
    fz.vval[dev] = 0;
    int a = alloc_new(M_DEV, p, 64, dev);
    if (a >= 0) {
        fz.allocs[a].reserved = 1;
    }
    return p;
}

static void op_value_wait(void)
{
    harg s = pick_stream();
    enum validity v = queue_on(&s);
    int d = stream_dev(&s);
    if (one_in(6) || d < 0 || v != VALID) {
        /* Refusals: a bad address or stream. */
        parg p = pick_ptr(1 << M_DEV, 8);
        if (p.v == VALID) {
            p.p = NULL;
        }
        callf("aclrtValueWait(%s %p, 0, 0, %s)", p.p ? p.what : "NULL", p.p, hdesc(&s));
        aclError rc = ret(aclrtValueWait(p.p, 0, 0, s.h));
        if (rc == 0 && v == VALID) {
            /* Accepted: it may wait forever. */
            ctx_taint(s.idx >= 0 ? fz.objs[s.idx].ctx : fz.cur_ctx);
        }
        must_fail(rc, v == INVALID ? "an invalid stream" : p.p == NULL ? "a NULL devAddr"
                      : p.a < 0 ? "freed device memory" : "8 bytes past the end of the allocation");
        return;
    }
    uint64_t *w = value_word(d), x = fz.vval[d], val;
    if (w == NULL || !stream_clean(s.idx)) {
        return;
    }
    uint32_t flag = (uint32_t)below(4);
    switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
        val = x - below(3);
        break;
    case ACL_STREAM_WAIT_VALUE_EQ:
        val = x;
        break;
    case ACL_STREAM_WAIT_VALUE_AND:
        val = x ? x : 1;
        if (x == 0) {
            flag = ACL_STREAM_WAIT_VALUE_NOR;
        }
        break;
    default:
        val = 0;
        if (~x == 0) {
            flag = ACL_STREAM_WAIT_VALUE_EQ;
            val = x;
        }
    }
    /* Released at once (the word passes the test), or by a write on another
     * clean stream of the context, which is synchronized right away. */
    int release = one_in(3);
    harg s2 = s;
    if (release) {
        for (int tries = 0; tries < 8 && same_stream(&s2, &s); tries++) {
            int j = obj_pick(K_STREAM);
            harg c = {j >= 0 ? fz.objs[j].h : NULL, j, VALID, "live"};
            if (j >= 0 && fz.objs[j].ctx == fz.cur_ctx && !same_stream(&c, &s) && stream_clean(j)) {
                s2 = c;
            }
        }
        if (same_stream(&s2, &s) || x + 1 == 0) {
            release = 0;
        } else {
            flag = ACL_STREAM_WAIT_VALUE_GEQ;
            val = x + 1;
        }
    }
    callf("aclrtValueWait(word %p, %#llx, %u, %s) [word %#llx]", (void *)w, (unsigned long long)val, flag, hdesc(&s),
          (unsigned long long)x);
    aclError rc = ret(aclrtValueWait(w, val, flag, s.h));
    must_pass(rc, allow_for_stream(s.idx));
    if (!release) {
        return;
    }
    callf("aclrtValueWrite(word %p, %#llx, 0, %s)", (void *)w, (unsigned long long)val, hdesc(&s2));
    rc = ret(aclrtValueWrite(w, val, 0, s2.h));
    must_pass(rc, allow_for_stream(s2.idx));
    callf("aclrtSynchronizeStream(%s)", hdesc(&s2));
    must_pass(ret(aclrtSynchronizeStream(s2.h)), allow_for_stream(s2.idx));
    if (rc == 0) {
        fz.vval[d] = val;
    } else if (!allow_for_stream(s.idx)) {
        ctx_taint(fz.cur_ctx);
    }
}

const struct op ops_notify[] = {
    {"create_notify", 4, op_create_notify},
    {"destroy_notify", 3, op_destroy_notify},
    {"notify", 8, op_notify},
    {"notify_id", 2, op_notify_id},
    {"value_write", 4, op_value_write},
    {"value_wait", 4, op_value_wait},
    {NULL, 0, NULL},
};
