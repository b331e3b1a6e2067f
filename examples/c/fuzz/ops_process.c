/*
 * Process-level calls (acl_rt_process.h): system parameters of the
 * process and of the current context, init and finalize callbacks, and
 * the data dump session. The process's parameters are modelled (they
 * outlive aclFinalize, and a context's set reaches them); the callbacks
 * registered are modelled, and only callbacks that succeed are registered,
 * so the fuzzer's own aclInit and aclFinalize still work. A dump is only
 * ever turned on for fz_nop and fz_add, whose arguments are at most one
 * word, so its files stay small; they are removed whenever no session is
 * open.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <acl/acl_rt_process.h>

/* ---- system parameters ------------------------------------------------ */

static int64_t sys_value[4]; /* the process's values, 0 until set */

static int sys_opt_ok(int64_t opt, int ctx) { return opt >= 0 && opt < (ctx ? 3 : 4); }

static int sys_value_ok(int64_t opt, int64_t v) { return v >= 0 && v < (opt == 0 ? 4 : 2); }

static int64_t pick_opt(void)
{
    static const int64_t v[] = {0, 1, 2, 3, 0, 1, 3, -1, 4, 7, INT32_MAX};
    return v[below(ARRAY_LEN(v))];
}

static int64_t pick_value(void)
{
    static const int64_t v[] = {0, 1, 2, 3, 0, 1, -1, 4, 99, INT64_MIN, INT64_MAX};
    return v[below(ARRAY_LEN(v))];
}

static void op_sys_set(void)
{
    int64_t opt = pick_opt(), v = pick_value();
    callf("aclrtSetSysParamOpt(%lld, %lld)", (long long)opt, (long long)v);
    aclError rc = ret(aclrtSetSysParamOpt((aclSysParamOpt)opt, v));
    if (!sys_opt_ok(opt, 0) || !sys_value_ok(opt, v)) {
        must_fail(rc, !sys_opt_ok(opt, 0) ? "an unknown option" : "a value out of range");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        sys_value[opt] = v;
    }
}

static void op_sys_get(void)
{
    int64_t opt = pick_opt(), v = -7;
    int null = one_in(8);
    callf("aclrtGetSysParamOpt(%lld, %s)", (long long)opt, null ? "NULL" : "&v");
    aclError rc = ret(aclrtGetSysParamOpt((aclSysParamOpt)opt, null ? NULL : &v));
    if (null || !sys_opt_ok(opt, 0)) {
        must_fail(rc, null ? "a NULL value" : "an unknown option");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && v != sys_value[opt]) {
        finding("WRONG VALUE", "sysparam", "aclrtGetSysParamOpt(%lld) = %lld, set %lld", (long long)opt,
                (long long)v, (long long)sys_value[opt]);
    }
}

/* A context's values are checked within one operation: a set, then a get
 * that must read it back. */
static void op_ctx_sys(void)
{
    int64_t opt = pick_opt(), v = pick_value(), got = -7;
    int have = fz.inited && fz.cur_ctx >= 0 && fz.objs[fz.cur_ctx].live;
    callf("aclrtCtxSetSysParamOpt(%lld, %lld) [current context %d]", (long long)opt, (long long)v, fz.cur_ctx);
    aclError rc = ret(aclrtCtxSetSysParamOpt((aclSysParamOpt)opt, v));
    if (!fz.inited || !sys_opt_ok(opt, 1) || !sys_value_ok(opt, v)) {
        must_fail(rc, !fz.inited ? "not initialized" : !sys_opt_ok(opt, 1) ? "an option contexts lack" : "a value out of range");
        return;
    }
    if (!have) {
        /* No context the model knows of: a default device may make one. */
        if (rc == 0) {
            sys_value[opt] = v;
        }
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    sys_value[opt] = v;
    callf("aclrtCtxGetSysParamOpt(%lld, &v)", (long long)opt);
    rc = ret(aclrtCtxGetSysParamOpt((aclSysParamOpt)opt, &got));
    must_pass(rc, 0);
    if (rc == 0 && got != v) {
        finding("WRONG VALUE", "ctx-sysparam", "aclrtCtxGetSysParamOpt(%lld) = %lld right after setting %lld",
                (long long)opt, (long long)got, (long long)v);
    }
}

/* ---- init and finalize callbacks --------------------------------------- */

static int init_calls[2], fin_calls[2];

static aclError init_a(const char *c, size_t n, void *u) { (void)c; (void)n; (void)u; init_calls[0]++; return 0; }
static aclError init_b(const char *c, size_t n, void *u) { (void)c; (void)n; (void)u; init_calls[1]++; return 0; }
static aclError fin_a(void *u) { (void)u; fin_calls[0]++; return 0; }
static aclError fin_b(void *u) { (void)u; fin_calls[1]++; return 0; }

static aclInitCallbackFunc const init_fns[2] = {init_a, init_b};
static aclFinalizeCallbackFunc const fin_fns[2] = {fin_a, fin_b};
static const aclRegisterCallbackType cb_types[] = {ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_OP_EXECUTOR,
                                                   ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_DVPP,
                                                   ACL_REG_TYPE_OTHER};
#define NTYPES (sizeof cb_types / sizeof cb_types[0])

/* How many times each (list, type, function) is registered. */
static int reg[2][NTYPES][2];

static int type_count(int list, size_t t) { return reg[list][t][0] + reg[list][t][1]; }

static void op_callback(void)
{
    int list = (int)below(2), fn = (int)below(2), unreg = one_in(3), null = one_in(10);
    size_t t = below(NTYPES);
    aclRegisterCallbackType typ = cb_types[t];
    aclError rc;
    int before = list == 0 ? init_calls[fn] : fin_calls[fn];
    callf("acl%sCallback%s(%d, %s%c)", list == 0 ? "Init" : "Finalize", unreg ? "UnRegister" : "Register", (int)typ,
          null ? "NULL" : "fn_", null ? ' ' : (char)('a' + fn));
    if (list == 0) {
        aclInitCallbackFunc f = null ? NULL : init_fns[fn];
        rc = ret(unreg ? aclInitCallbackUnRegister(typ, f) : aclInitCallbackRegister(typ, f, NULL));
    } else {
        aclFinalizeCallbackFunc f = null ? NULL : fin_fns[fn];
        rc = ret(unreg ? aclFinalizeCallbackUnRegister(typ, f) : aclFinalizeCallbackRegister(typ, f, NULL));
    }
    if (null) {
        must_fail(rc, "a NULL callback");
        return;
    }
    if (unreg) {
        if (reg[list][t][fn] == 0) {
            must_fail(rc, "a callback not registered for the type");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0) {
            reg[list][t][fn]--;
        }
        return;
    }
    if (typ != ACL_REG_TYPE_OTHER && type_count(list, t) > 0) {
        must_fail(rc, "a second callback of one type");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    reg[list][t][fn]++;
    int after = list == 0 ? init_calls[fn] : fin_calls[fn];
    if (list == 0 && fz.inited && after != before + 1) {
        finding("WRONG VALUE", "init-callback", "an init callback registered after aclInit ran %d times, want once",
                after - before);
    }
    if (list == 1 && after != before) {
        finding("WRONG VALUE", "fin-callback", "a finalize callback ran when registered");
    }
}

/* ---- data dump ---------------------------------------------------------- */

static int dump_open;          /* aclmdlInitDump succeeded ... */
static uint64_t dump_epoch;    /* ... in this initialization */

static int session(void) { return dump_open && dump_epoch == fz.rt_epoch && fz.inited; }

static void dump_dir(char *buf, size_t n) { snprintf(buf, n, "%s/dump", fz.scratch_dir); }

/* remove_dumps deletes the files a closed session left. */
static void remove_dumps(void)
{
    char dir[600], file[900];
    dump_dir(dir, sizeof dir);
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] != '.') {
            snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
            (void)unlink(file);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
}

/* write_config writes a dump configuration: valid, or one CANN refuses. */
static int write_config(char *path, size_t n, int *valid)
{
    char dir[600], text[1200];
    static const char *const modes[] = {"input", "output", "all"};
    static const char *const layers[] = {"fz_nop", "fz_add", "fz_none"};
    static const char *const bad[] = {
        "{\"dump\": {\"dump_op_switch\": \"on\"}}",
        "{\"dump\": {\"dump_path\": \"/nonexistent/x\", \"dump_op_switch\": \"on\"}}",
        "{\"dump\": {\"dump_path\": \"DIR\", \"dump_mode\": \"both\"}}",
        "{\"dump\": {\"dump_path\": \"DIR\", \"dump_scene\": \"watcher\", \"dump_op_switch\": \"on\"}}",
        "{\"dump\": {\"dump_path\": \"DIR\", \"dump_list\": [{\"model_name\": \"\"}]}}",
        "{\"dump\": {\"dump_path\": \"DIR\", \"dump_stats\": [\"Max\"]}}",
        "{\"dump\": [1]}",
        "{\"dump\": ",
    };
    dump_dir(dir, sizeof dir);
    (void)mkdir(dir, 0700);
    *valid = !one_in(3);
    if (*valid) {
        snprintf(text, sizeof text,
                 "{\"dump\": {\"dump_path\": \"%s\", \"dump_mode\": \"%s\", \"dump_list\": [{\"layer\": [\"%s\"]}]}}", dir,
                 modes[below(3)], layers[below(3)]);
    } else {
        const char *b = bad[below(ARRAY_LEN(bad))];
        const char *at = strstr(b, "DIR");
        if (at != NULL) {
            snprintf(text, sizeof text, "%.*s%s%s", (int)(at - b), b, dir, at + 3);
        } else {
            snprintf(text, sizeof text, "%s", b);
        }
    }
    snprintf(path, n, "%s/dump.json", fz.scratch_dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    fputs(text, f);
    fclose(f);
    return 0;
}

static void op_dump(void)
{
    char path[700];
    int valid = 0;
    aclError rc;
    if (!session()) {
        dump_open = 0;
        remove_dumps();
    }
    switch (below(3)) {
    case 0:
        callf("aclmdlInitDump()");
        rc = ret(aclmdlInitDump());
        if (!fz.inited || session()) {
            must_fail(rc, !fz.inited ? "not initialized" : "a session is open");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0) {
            dump_open = 1;
            dump_epoch = fz.rt_epoch;
        }
        return;
    case 1:
        if (write_config(path, sizeof path, &valid) != 0) {
            return;
        }
        callf("aclmdlSetDump(%s) [%s]", path, valid ? "valid" : "refused");
        rc = ret(aclmdlSetDump(path));
        if (!session() || !valid) {
            must_fail(rc, !session() ? "no dump session" : "a configuration CANN refuses");
            return;
        }
        must_pass(rc, 0);
        return;
    default:
        callf("aclmdlFinalizeDump()");
        rc = ret(aclmdlFinalizeDump());
        if (!session()) {
            must_fail(rc, "no dump session");
            return;
        }
        must_pass(rc, 0);
        dump_open = 0;
        remove_dumps();
    }
}

const struct op ops_process[] = {
    {"sys_set", 2, op_sys_set},
    {"sys_get", 2, op_sys_get},
    {"ctx_sys", 2, op_ctx_sys},
    {"callback", 2, op_callback},
    {"dump", 2, op_dump},
    {NULL, 0, NULL},
};
