/*
 * Control tasks of models built over persistent streams: labels, label
 * lists and switches by index, stream activation and stream switches. A
 * model that gets one is never run: a jump back loops forever, as it would
 * on a device.
 */
#include "fuzz.h"

static void op_label(void)
{
    aclError rc;
    switch (below(6)) {
    case 0: {
        if (obj_count(K_LABEL) > 32) {
            return;
        }
        aclrtLabel l = NULL;
        int null = one_in(10);
        callf("aclrtCreateLabel(%s)", null ? "NULL" : "&l");
        rc = ret(aclrtCreateLabel(null ? NULL : &l));
        if (null) {
            must_fail(rc, "a NULL label");
        } else if (rc == 0) {
            obj_new(K_LABEL, l, fz.cur_ctx, cur_dev());
        }
        return;
    }
    case 1: {
        harg l = pick_handle(K_LABEL, 0);
        callf("aclrtDestroyLabel(%s)", hdesc(&l));
        rc = ret(aclrtDestroyLabel(l.h));
        if (l.v != VALID) {
            must_fail(rc, "an invalid label");
        } else if (rc == 0) {
            obj_kill(l.idx);
        }
        return;
    }
    case 2: {
        aclrtLabel ls[4];
        size_t n = below(5);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            harg l = pick_handle(K_LABEL, 0);
            ls[i] = l.h;
            bad |= l.v != VALID;
        }
        aclrtLabelList list = NULL;
        callf("aclrtCreateLabelList(labels, %zu, &list)%s", n, bad ? " [a bad label]" : "");
        rc = ret(aclrtCreateLabelList(ls, n, &list));
        if (n == 0 || bad) {
            must_fail(rc, n == 0 ? "0 labels" : "an invalid label in the list");
        } else if (rc == 0) {
            obj_new(K_LABELLIST, list, fz.cur_ctx, cur_dev());
        }
        return;
    }
    case 3: {
        harg l = pick_handle(K_LABELLIST, 0);
        callf("aclrtDestroyLabelList(%s)", hdesc(&l));
        rc = ret(aclrtDestroyLabelList(l.h));
        if (l.v != VALID) {
            must_fail(rc, "an invalid label list");
        } else if (rc == 0) {
            obj_kill(l.idx);
        }
        return;
    }
    case 4: {
        harg l = pick_handle(K_LABEL, 0), s = pick_stream();
        callf("aclrtSetLabel(%s, %s)", hdesc(&l), hdesc(&s));
        rc = ret(aclrtSetLabel(l.h, s.h));
        if (l.v != VALID || s.v == INVALID) {
            must_fail(rc, l.v != VALID ? "an invalid label" : "an invalid stream");
        }
        if (rc == 0 && s.idx >= 0 && fz.objs[s.idx].bound >= 0) {
            fz.objs[fz.objs[s.idx].bound].noexec = 1;
        }
        return;
    }
    default: {
        harg l = pick_handle(K_LABELLIST, 0), s = pick_stream();
        parg p = pick_ptr(1 << M_DEV, 4);
        uint32_t max = one_in(4) ? (uint32_t)int_any() : 1 + (uint32_t)below(4);
        callf("aclrtSwitchLabelByIndex(%s %p, %u, %s, %s)", p.what, (void *)p.p, max, hdesc(&l), hdesc(&s));
        rc = ret(aclrtSwitchLabelByIndex(p.p, max, l.h, s.h));
        if (l.v != VALID || s.v == INVALID || p.p == NULL) {
            must_fail(rc, l.v != VALID ? "an invalid label list" : p.p ? "an invalid stream" : "a NULL ptr");
        }
        if (rc == 0 && s.idx >= 0 && fz.objs[s.idx].bound >= 0) {
            fz.objs[fz.objs[s.idx].bound].noexec = 1;
            cap_note_task(s.idx, p.a);
        }
    }
    }
}

static void op_stream_control(void)
{
    harg a = pick_stream(), s = pick_stream();
    aclError rc;
    if (one_in(2)) {
        callf("aclrtActiveStream(%s, %s)", hdesc(&a), hdesc(&s));
        rc = ret(aclrtActiveStream(a.h, s.h));
        if (a.v == INVALID || s.v == INVALID || a.h == NULL) {
            must_fail(rc, a.h == NULL ? "a NULL activeStream" : "an invalid stream");
        }
    } else {
        parg l = pick_ptr(1 << M_DEV, 8), r = pick_ptr(1 << M_DEV, 8);
        int cond = one_in(6) ? int_any() : (int)below(6), type = (int)below(2);
        callf("aclrtSwitchStream(%s %p, %d, %s %p, %d, %s, NULL, %s)", l.what, (void *)l.p, cond, r.what, (void *)r.p,
              type, hdesc(&a), hdesc(&s));
        rc = ret(aclrtSwitchStream(l.p, (aclrtCondition)cond, r.p, (aclrtCompareDataType)type, a.h, NULL, s.h));
        if (a.v == INVALID || s.v == INVALID || a.h == NULL || l.p == NULL || r.p == NULL) {
            must_fail(rc, a.h == NULL ? "a NULL trueStream" : l.p && r.p ? "an invalid stream" : "a NULL value pointer");
        }
        if (rc == 0 && s.idx >= 0) {
            cap_note_task(s.idx, l.a);
            cap_note_task(s.idx, r.a);
        }
    }
    if (rc == 0 && s.idx >= 0 && fz.objs[s.idx].bound >= 0) {
        fz.objs[fz.objs[s.idx].bound].noexec = 1;
    }
}

const struct op ops_label[] = {
    {"label", 3, op_label},
    {"stream_control", 2, op_stream_control},
    {NULL, 0, NULL},
};
