/*
 * checks_input: the input functions of libc_sec.so (the scanf_s family,
 * from strings, streams and standard input), for checks.c.
 */
#define _GNU_SOURCE
#include "checks.h"

static int vss(const char *b, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vsscanf_s(b, f, ap);
    va_end(ap);
    return r;
}

static int vsws(const wchar_t *b, const wchar_t *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vswscanf_s(b, f, ap);
    va_end(ap);
    return r;
}

void scans(void)
{
    int i = 0, j = 0, n = 0;
    unsigned long long u = 0, v = 0;
    double f = 0;
    char s[8], c[4];
    CHECK(sscanf_s("summary: 12 34", "summary: %llu %llu", &u, &v) == 2 && u == 12 && v == 34,
          "sscanf_s reads numbers after a literal (a CANN source's call)");
    CHECK(sscanf_s("  -5 2.5 abc", "%d%lf%s", &i, &f, s, (size_t)sizeof s) == 3 && i == -5 && f == 2.5 && strcmp(s, "abc") == 0,
          "sscanf_s %%d %%lf %%s");
    CHECK(sscanf_s("xyz", "%c", c, (size_t)1) == 1 && c[0] == 'x', "sscanf_s %%c with its size");
    CHECK(sscanf_s("xyz", "%3c", c, (size_t)3) == 1 && memcmp(c, "xyz", 3) == 0, "sscanf_s %%3c filling its size");
    strcpy(c, "ab");
    CHECK(sscanf_s("xyz", "%3c", c, (size_t)2) == 0 && c[0] == '\0', "sscanf_s %%3c into 2: 0 assigned, emptied");
    CHECK(sscanf_s("1234567", "%s", s, (size_t)sizeof s) == 1 && strcmp(s, "1234567") == 0, "sscanf_s %%s of size - 1 characters");
    strcpy(s, "keep");
    CHECK(sscanf_s("1 12345678", "%d %s", &i, s, (size_t)sizeof s) == 1 && i == 1 && s[0] == '\0',
          "sscanf_s %%s too long: the fields before it counted, the buffer emptied");
    CHECK(sscanf_s("12345678", "%3s%d", s, (size_t)sizeof s, &i) == 2 && strcmp(s, "123") == 0 && i == 45678,
          "sscanf_s %%3s: the width within the size");
    CHECK(sscanf_s("abcdefgh z", "%7s", s, (size_t)8) == 1 && strcmp(s, "abcdefg") == 0, "sscanf_s %%7s into 8 stops at the width");
    CHECK(sscanf_s("a", "%s", s, 1u) == 0 && s[0] == '\0', "sscanf_s %%s into 1 (an unsigned int size): too long");
    CHECK(sscanf_s("aab:x", "%[ab]:%c", s, (size_t)sizeof s, c, (size_t)1) == 2 && strcmp(s, "aab") == 0 && c[0] == 'x',
          "sscanf_s %%[ab] and %%c");
    strcpy(s, "keep");
    CHECK(sscanf_s("aaaaaaaaaa", "%[a]", s, (size_t)4) == 0 && s[0] == '\0', "sscanf_s %%[ too long: emptied");
    CHECK(sscanf_s("aaab", "%[a]", s, (size_t)4) == 1 && strcmp(s, "aaa") == 0, "sscanf_s %%[ filling its size exactly");
    CHECK(sscanf_s("12 34", "%*d %d%n", &i, &n) == 1 && i == 34 && n == 5, "sscanf_s %%*d and %%n");
    CHECK(sscanf_s("5%", "%d%%", &i) == 1 && i == 5, "sscanf_s %%%%");
    CHECK(sscanf_s("", "%d", &i) == -1, "sscanf_s of empty input: -1 (EOF)");
    CHECK(sscanf_s("x", "%d", &i) == 0, "sscanf_s matching failure: 0");
    CHECK(sscanf_s("1 x", "%d %d", &i, &j) == 1, "sscanf_s stops at the first failure");
    CHECK(sscanf_s(NULL, "%d", &i) == -1 && sscanf_s("1", NULL) == -1, "sscanf_s NULL buffer or format: -1");
    CHECK(sscanf_s("1", "%d", (int *)NULL) == -1, "sscanf_s NULL argument: -1");
    CHECK(sscanf_s("a", "%s", s, (size_t)0) == -1, "sscanf_s size 0: -1");
    CHECK(sscanf_s("1", "%1$d", &i) == -1, "sscanf_s positional argument: -1");
    CHECK(vss("7 ab", "%d %2c", &i, c, (size_t)2) == 2 && i == 7 && c[0] == 'a' && c[1] == 'b', "vsscanf_s");
    wchar_t ws[4];
    CHECK(sscanf_s("hi", "%ls", ws, (size_t)4) == 1 && wcscmp(ws, L"hi") == 0, "sscanf_s %%ls stores wide characters");

    wchar_t wb[4];
    char nb[4];
    CHECK(swscanf_s(L"12 abc", L"%d %ls", &i, wb, (size_t)4) == 2 && i == 12 && wcscmp(wb, L"abc") == 0, "swscanf_s %%d %%ls");
    CHECK(swscanf_s(L"abc", L"%s", wb, (size_t)4) == 1 && wcscmp(wb, L"abc") == 0, "swscanf_s %%s stores wide characters");
    CHECK(swscanf_s(L"abcd", L"%s", wb, (size_t)4) == 0 && wb[0] == 0, "swscanf_s %%s too long: emptied");
    CHECK(swscanf_s(L"abc", L"%hs", nb, (size_t)4) == 1 && strcmp(nb, "abc") == 0, "swscanf_s %%hs stores multibyte characters");
    CHECK(swscanf_s(L"abcd", L"%hs", nb, (size_t)4) == 0 && nb[0] == '\0', "swscanf_s %%hs too long: emptied");
    CHECK(swscanf_s(L"xy", L"%hc", nb, (size_t)1) == 1 && nb[0] == 'x', "swscanf_s %%hc");
    CHECK(vsws(L"3", L"%d", &i) == 1 && i == 3, "vswscanf_s");
    CHECK(swscanf_s(NULL, L"%d", &i) == -1, "swscanf_s NULL buffer: -1");
}

static int vfs(FILE *fp, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vfscanf_s(fp, f, ap);
    va_end(ap);
    return r;
}

static int vfws(FILE *fp, const wchar_t *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vfwscanf_s(fp, f, ap);
    va_end(ap);
    return r;
}

void streams(void)
{
    int i = 0;
    char s[4];
    FILE *fp = tmpfile();
    fputs("10 abc 123456 7 x", fp);
    rewind(fp);
    CHECK(fscanf_s(fp, "%d %s", &i, s, (size_t)sizeof s) == 2 && i == 10 && strcmp(s, "abc") == 0, "fscanf_s %%d %%s");
    strcpy(s, "kp");
    CHECK(fscanf_s(fp, "%s", s, (size_t)sizeof s) == 0 && s[0] == '\0', "fscanf_s %%s too long: 0, emptied");
    int j = 0;
    CHECK(vfs(fp, "%d %d", &i, &j) == 2 && i == 456 && j == 7, "vfscanf_s reads on from the first character not taken");
    CHECK(fscanf_s(fp, " %c", s, (size_t)1) == 1 && s[0] == 'x', "fscanf_s %%c");
    CHECK(fscanf_s(fp, "%s", s, (size_t)1) == -1 && s[0] == 'x', "fscanf_s at end of input leaves the buffer");
    fclose(fp);
    fp = tmpfile();
    fputs(" yz", fp);
    rewind(fp);
    CHECK(fscanf_s(fp, "%s", s, (size_t)1) == 0 && s[0] == '\0' && fscanf_s(fp, "%2s", s, (size_t)sizeof s) == 1 && strcmp(s, "yz") == 0,
          "fscanf_s %%s into 1: too long, the item left in the stream");
    CHECK(fscanf_s(fp, "%d", &i) == -1, "fscanf_s at end of input: -1 (EOF)");
    CHECK(fscanf_s(NULL, "%d", &i) == -1, "fscanf_s NULL stream: -1");
    fclose(fp);

    wchar_t w[4];
    fp = tmpfile();
    fputws(L"5 ab", fp);
    rewind(fp);
    CHECK(fwscanf_s(fp, L"%d", &i) == 1 && i == 5, "fwscanf_s %%d");
    CHECK(vfws(fp, L"%s", w, (size_t)4) == 1 && wcscmp(w, L"ab") == 0, "vfwscanf_s %%s");
    fclose(fp);
}

static int vsc(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vscanf_s(f, ap);
    va_end(ap);
    return r;
}

static int vwsc(const wchar_t *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vwscanf_s(f, ap);
    va_end(ap);
    return r;
}

/* with_stdin runs fn in a child whose standard input holds text; it returns fn's result. */
static int with_stdin(const char *text, int (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *fp = tmpfile();
        fputs(text, fp);
        fflush(fp);
        rewind(fp);
        dup2(fileno(fp), 0);
        _exit(fn());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

/* Each reads standard input and exits with 0 when it read what with_stdin gave it. */
static int read_gets(void)
{
    char b[8], s[4];
    int ok = gets_s(b, sizeof b) == b && strcmp(b, "line") == 0;       /* "line\n" */
    ok = ok && gets_s(b, sizeof b) == b && strcmp(b, "crlf") == 0;     /* "crlf\r\n" */
    ok = ok && gets_s(b, 4) == b && strcmp(b, "abc") == 0;             /* "abcdef\n": 3 */
    ok = ok && gets_s(b, sizeof b) == b && strcmp(b, "def") == 0;      /* the rest */
    ok = ok && gets_s(NULL, 8) == NULL && gets_s(b, 0) == NULL;
    ok = ok && scanf_s("%d %3s", &(int){0}, s, (size_t)sizeof s) == 2 && strcmp(s, "abc") == 0;
    ok = ok && vsc("%s", s, (size_t)sizeof s) == 1 && strcmp(s, "de") == 0;
    strcpy(b, "keep");
    ok = ok && gets_s(b, sizeof b) == b && b[0] == '\0'; /* the rest of "de"'s line */
    ok = ok && gets_s(b, sizeof b) == NULL && b[0] == '\0';
    return ok ? 0 : 1;
}

static int read_wide(void)
{
    int i = 0;
    wchar_t w[4];
    int ok = wscanf_s(L"%d", &i) == 1 && i == 9;
    ok = ok && vwsc(L"%ls", w, (size_t)4) == 1 && wcscmp(w, L"xyz") == 0;
    return ok ? 0 : 1;
}

void stdins(void)
{
    CHECK(with_stdin("line\ncrlf\r\nabcdef\n12 abc de\n", read_gets) == 0,
          "gets_s reads lines without their endings, truncates at destMax - 1, NULL at the end; scanf_s, vscanf_s");
    CHECK(with_stdin("9 xyz", read_wide) == 0, "wscanf_s and vwscanf_s read standard input");
}
