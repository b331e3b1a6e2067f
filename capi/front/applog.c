// aclAppLog: application log lines, written where CANN's log writes them.
// It is variadic, so the front formats the line itself; it needs nothing
// of the runtime and works before aclInit and in a forked child.
//
// The environment decides, as for CANN's log: ASCEND_GLOBAL_LOG_LEVEL (0
// debug, 1 info, 2 warning, 3 error, 4 none; default 3), overridden for
// application logs by APP=<level> in ASCEND_MODULE_LOG_LEVEL; with
// ASCEND_SLOG_PRINT_TO_STDOUT=1 lines go to standard output, otherwise to
// debug/plog/plog-<pid>_<time>.log under ASCEND_PROCESS_LOG_PATH, or under
// $HOME/ascend/log.

#define _GNU_SOURCE
#include <errno.h> // program_invocation_short_name
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "front.h"

enum { MAX_LINE = 1024, LEVEL_NONE = 4 };

static const char truncated[] = "...[truncated]";

// mu guards the log file, opened on the first line written.
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *logf;
static pid_t logpid; // the process that opened logf; a forked child opens its own

// level returns the lowest level written: a number from the environment.
static int level(void) {
	const char *m = getenv("ASCEND_MODULE_LOG_LEVEL");
	const char *app = m ? strstr(m, "APP=") : NULL;
	if (app != NULL && (app == m || app[-1] == ':') && app[4] >= '0' && app[4] <= '4') {
		return app[4] - '0';
	}
	const char *g = getenv("ASCEND_GLOBAL_LOG_LEVEL");
	if (g != NULL && g[0] >= '0' && g[0] <= '4' && g[1] == '\0') {
		return g[0] - '0';
	}
	return ACL_ERROR;
}

// mkdirs creates each directory of path.
static void mkdirs(char *path) {
	for (char *p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0750);
			*p = '/';
		}
	}
	mkdir(path, 0750);
}

// open_log opens this process's plog file; NULL if it cannot. mu held.
static FILE *open_log(void) {
	if (logf != NULL && logpid == getpid()) {
		return logf;
	}
	char dir[4096];
	const char *base = getenv("ASCEND_PROCESS_LOG_PATH");
	const char *home = getenv("HOME");
	int n;
	if (base != NULL && base[0] != '\0') {
		n = snprintf(dir, sizeof dir, "%s/debug/plog", base);
	} else {
		n = snprintf(dir, sizeof dir, "%s/ascend/log/debug/plog", home ? home : "/tmp");
	}
	if (n <= 0 || (size_t)n >= sizeof dir - 64) {
		return NULL;
	}
	mkdirs(dir);
	struct timeval tv;
	gettimeofday(&tv, NULL);
	struct tm tm;
	localtime_r(&tv.tv_sec, &tm);
	char path[4096 + 64];
	snprintf(path, sizeof path, "%s/plog-%d_%04d%02d%02d%02d%02d%02d%03ld.log", dir, (int)getpid(),
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)(tv.tv_usec / 1000));
	logf = fopen(path, "a");
	logpid = getpid();
	return logf;
}

static void fork_prepare(void) { pthread_mutex_lock(&mu); }
static void fork_release(void) { pthread_mutex_unlock(&mu); }

// A child may log even when it forked while another thread was logging.
__attribute__((constructor)) static void applog_init(void) { pthread_atfork(fork_prepare, fork_release, fork_release); }

static const char *level_name(int l) {
	static const char *names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
	return l >= 0 && l < 4 ? names[l] : "EVENT";
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...) {
	if (fmt == NULL || func == NULL || file == NULL) {
		return;
	}
	int want = level();
	if (want >= LEVEL_NONE || (int)logLevel < want) {
		return;
	}
	char body[MAX_LINE], msg[MAX_LINE];
	va_list ap;
	va_start(ap, fmt);
	int nb = vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	if (nb < 0) {
		return;
	}
	int nm = snprintf(msg, sizeof msg, "%ld %s:%s:%u: \"%s\"", (long)syscall(SYS_gettid), func, file, line, body);
	if (nb >= MAX_LINE || nm >= MAX_LINE) {
		memcpy(msg + MAX_LINE - sizeof truncated, truncated, sizeof truncated);
	}
	struct timeval tv;
	gettimeofday(&tv, NULL);
	struct tm tm;
	localtime_r(&tv.tv_sec, &tm);
	const char *prog = program_invocation_short_name;
	const char *out = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
	pthread_mutex_lock(&mu);
	FILE *f = out != NULL && strcmp(out, "1") == 0 ? stdout : open_log();
	if (f != NULL) {
		fprintf(f, "[%s] APP(%d,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld %s\n", level_name((int)logLevel),
			(int)getpid(), prog, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
			(long)(tv.tv_usec / 1000), (long)(tv.tv_usec % 1000), msg);
		fflush(f);
	}
	pthread_mutex_unlock(&mu);
}
