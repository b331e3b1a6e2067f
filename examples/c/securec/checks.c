/*
 * checks: every function of libc_sec.so (securec.h), its success and each
 * documented error: the code or value returned and what is left in the
 * destination (reset to zeros, to c, to an empty string, or untouched).
 * Prints one "ok:" line per check, "FAIL:" for a failed one, and
 * "PASS securec" when all passed.
 *
 *   gcc checks.c checks_input.c -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 -lc_sec
 */
#define _GNU_SOURCE
#include "checks.h"

int failed;

static void macros(void)
{
    CHECK(EOK == 0 && EINVAL == 22 && ERANGE == 34, "EOK 0, EINVAL 22, ERANGE 34");
    CHECK(EINVAL_AND_RESET == 150 && ERANGE_AND_RESET == 162 && EOVERLAP_AND_RESET == 182,
          "EINVAL_AND_RESET 150, ERANGE_AND_RESET 162, EOVERLAP_AND_RESET 182");
    CHECK(SECUREC_STRING_MAX_LEN == 0x7fffffffUL && SECUREC_MEM_MAX_LEN == 0x7fffffffUL,
          "SECUREC_STRING_MAX_LEN and SECUREC_MEM_MAX_LEN are 0x7fffffff");
    CHECK(SECUREC_WCHAR_STRING_MAX_LEN == SECUREC_STRING_MAX_LEN / sizeof(wchar_t) &&
              SECUREC_WCHAR_MEM_MAX_LEN == SECUREC_MEM_MAX_LEN / sizeof(wchar_t),
          "the wide limits are the byte limits over sizeof(wchar_t)");
    errno_t e = EOK;
    CHECK(sizeof e == sizeof(int), "errno_t is an int");
    unsigned short v = 0;
    const char *s = GetHwSecureCVersion(&v);
    CHECK(s != NULL && strcmp(s, "1.1.16") == 0 && v == 0x510, "GetHwSecureCVersion: %s, 0x%x", s, v);
    CHECK(GetHwSecureCVersion(NULL) != NULL, "GetHwSecureCVersion(NULL) still names the version");
}

static void memsets(void)
{
    unsigned char b[16];
    memset(b, 0xAA, sizeof b);
    CHECK(memset_s(b, sizeof b, 0x11, 8) == EOK && all(b, 8, 0x11) && all(b + 8, 8, 0xAA), "memset_s sets count bytes");
    CHECK(memset_s(b, sizeof b, 0, 0) == EOK && all(b, 8, 0x11), "memset_s of 0 bytes: EOK, nothing set");
    CHECK(memset_s(b, 0, 0, 0) == EOK, "memset_s(dest, 0, c, 0): EOK");
    memset(b, 0xAA, sizeof b);
    CHECK(memset_s(b, 8, 0x22, 9) == ERANGE_AND_RESET && all(b, 8, 0x22) && all(b + 8, 8, 0xAA),
          "memset_s count > destMax: ERANGE_AND_RESET, destMax bytes set to c");
    CHECK(memset_s(NULL, 8, 0, 4) == EINVAL, "memset_s(NULL, 8, ...): EINVAL");
    CHECK(memset_s(NULL, 0, 0, 0) == ERANGE, "memset_s(NULL, 0, ...): ERANGE");
    memset(b, 0xAA, sizeof b);
    CHECK(memset_s(b, 0, 0, 1) == ERANGE && all(b, sizeof b, 0xAA), "memset_s destMax 0, count 1: ERANGE, untouched");
    CHECK(memset_s(b, SECUREC_MEM_MAX_LEN + 1, 0, 1) == ERANGE && all(b, sizeof b, 0xAA),
          "memset_s destMax > SECUREC_MEM_MAX_LEN: ERANGE, untouched");
}

/* copies checks memcpy_s and memmove_s (move 1) alike, then what differs. */
static void copies(const char *name, errno_t (*copy)(void *, size_t, const void *, size_t), int move)
{
    unsigned char d[16], s[16];
    for (int i = 0; i < 16; i++) {
        s[i] = (unsigned char)(i + 1);
    }
    memset(d, 0xAA, sizeof d);
    CHECK(copy(d, sizeof d, s, 10) == EOK && memcmp(d, s, 10) == 0 && all(d + 10, 6, 0xAA), "%s copies count bytes", name);
    CHECK(copy(d, sizeof d, s, 0) == EOK, "%s of 0 bytes: EOK", name);
    CHECK(copy(d, sizeof d, s, sizeof d) == EOK && memcmp(d, s, 16) == 0, "%s of exactly destMax bytes", name);
    CHECK(copy(d, 0, s, 0) == ERANGE, "%s destMax 0: ERANGE", name);
    memset(d, 0xAA, sizeof d);
    CHECK(copy(d, SECUREC_MEM_MAX_LEN + 1, s, 1) == ERANGE && all(d, sizeof d, 0xAA),
          "%s destMax > SECUREC_MEM_MAX_LEN: ERANGE, untouched", name);
    CHECK(copy(NULL, 8, s, 4) == EINVAL, "%s NULL dest: EINVAL", name);
    CHECK(copy(d, 8, NULL, 4) == EINVAL_AND_RESET && all(d, 8, 0) && all(d + 8, 8, 0xAA),
          "%s NULL src: EINVAL_AND_RESET, destMax bytes zeroed", name);
    memset(d, 0xAA, sizeof d);
    CHECK(copy(d, 8, s, 9) == ERANGE_AND_RESET && all(d, 8, 0) && all(d + 8, 8, 0xAA),
          "%s count > destMax: ERANGE_AND_RESET, destMax bytes zeroed", name);
    memcpy(d, s, 16);
    CHECK(copy(d, 16, d, 16) == EOK && memcmp(d, s, 16) == 0, "%s with dest == src: EOK", name);
    memcpy(d, s, 16);
    if (move) {
        CHECK(copy(d + 2, 14, d, 8) == EOK && d[2] == 1 && d[9] == 8 && d[0] == 1, "%s of overlapping regions moves them", name);
    } else {
        CHECK(copy(d + 2, 14, d, 8) == EOVERLAP_AND_RESET && all(d + 2, 14, 0) && d[0] == 1,
              "%s of overlapping regions: EOVERLAP_AND_RESET, dest zeroed", name);
        memcpy(d, s, 16);
        CHECK(copy(d + 8, 8, d, 8) == EOK && memcmp(d + 8, s, 8) == 0, "%s of adjacent regions copies", name);
    }
}

static void wmem(void)
{
    wchar_t d[8], s[8] = {L'a', L'b', L'c', L'd', L'e', L'f', L'g', L'h'};
    CHECK(wmemcpy_s(d, 8, s, 8) == EOK && wmemcmp(d, s, 8) == 0, "wmemcpy_s copies wide characters");
    CHECK(wmemcpy_s(d, 4, s, 5) == ERANGE_AND_RESET && all(d, 4 * sizeof(wchar_t), 0) && d[4] == L'e',
          "wmemcpy_s count > destMax: ERANGE_AND_RESET, destMax characters zeroed");
    CHECK(wmemcpy_s(NULL, 4, s, 5) == ERANGE, "wmemcpy_s NULL dest, count > destMax: ERANGE");
    CHECK(wmemcpy_s(NULL, 4, s, 4) == EINVAL, "wmemcpy_s NULL dest: EINVAL");
    wmemcpy(d, s, 8);
    CHECK(wmemcpy_s(d, 4, NULL, 4) == EINVAL_AND_RESET && all(d, 4 * sizeof(wchar_t), 0), "wmemcpy_s NULL src: EINVAL_AND_RESET");
    CHECK(wmemcpy_s(d, SECUREC_WCHAR_MEM_MAX_LEN + 1, s, 1) == ERANGE, "wmemcpy_s destMax > SECUREC_WCHAR_MEM_MAX_LEN: ERANGE");
    wmemcpy(d, s, 8);
    CHECK(wmemcpy_s(d + 1, 7, d, 4) == EOVERLAP_AND_RESET && all(d + 1, 7 * sizeof(wchar_t), 0),
          "wmemcpy_s of overlapping regions: EOVERLAP_AND_RESET");
    wmemcpy(d, s, 8);
    CHECK(wmemmove_s(d + 1, 7, d, 4) == EOK && d[1] == L'a' && d[4] == L'd', "wmemmove_s moves overlapping regions");
    CHECK(wmemmove_s(d, 0, s, 0) == ERANGE, "wmemmove_s destMax 0: ERANGE");
    CHECK(wmemmove_s(d, 2, s, 3) == ERANGE_AND_RESET && d[0] == 0 && d[1] == 0, "wmemmove_s count > destMax: ERANGE_AND_RESET");
}

static void strcpys(void)
{
    char d[8];
    CHECK(strcpy_s(d, sizeof d, "abc") == EOK && strcmp(d, "abc") == 0, "strcpy_s copies");
    CHECK(strcpy_s(d, sizeof d, "1234567") == EOK && strcmp(d, "1234567") == 0, "strcpy_s of destMax - 1 characters");
    strcpy(d, "keep");
    CHECK(strcpy_s(d, sizeof d, "12345678") == ERANGE_AND_RESET && d[0] == '\0' && d[1] == 'e',
          "strcpy_s too long: ERANGE_AND_RESET, strDest[0] = '\\0'");
    strcpy(d, "keep");
    CHECK(strcpy_s(d, 0, "a") == ERANGE && strcmp(d, "keep") == 0, "strcpy_s destMax 0: ERANGE, untouched");
    CHECK(strcpy_s(d, SECUREC_STRING_MAX_LEN + 1, "a") == ERANGE && strcmp(d, "keep") == 0,
          "strcpy_s destMax > SECUREC_STRING_MAX_LEN: ERANGE, untouched");
    CHECK(strcpy_s(NULL, 8, "a") == EINVAL, "strcpy_s NULL dest: EINVAL");
    CHECK(strcpy_s(d, sizeof d, NULL) == EINVAL_AND_RESET && d[0] == '\0', "strcpy_s NULL src: EINVAL_AND_RESET");
    strcpy(d, "abc");
    CHECK(strcpy_s(d, sizeof d, d) == EOK && strcmp(d, "abc") == 0, "strcpy_s with dest == src: EOK");
    char o[16] = "abcdef";
    CHECK(strcpy_s(o + 2, 14, o) == EOVERLAP_AND_RESET && o[2] == '\0', "strcpy_s of overlapping strings: EOVERLAP_AND_RESET");

    CHECK(strncpy_s(d, sizeof d, "abcdef", 3) == EOK && strcmp(d, "abc") == 0, "strncpy_s copies count characters");
    CHECK(strncpy_s(d, sizeof d, "ab", 5) == EOK && strcmp(d, "ab") == 0, "strncpy_s stops at the source's end");
    CHECK(strncpy_s(d, sizeof d, "abcdefghij", 7) == EOK && strcmp(d, "abcdefg") == 0, "strncpy_s count = destMax - 1");
    CHECK(strncpy_s(d, sizeof d, "abc", 0) == EOK && d[0] == '\0', "strncpy_s count 0: an empty string");
    strcpy(d, "keep");
    CHECK(strncpy_s(d, sizeof d, "abcdefghij", 8) == ERANGE_AND_RESET && d[0] == '\0',
          "strncpy_s count >= destMax, source too long: ERANGE_AND_RESET");
    strcpy(d, "keep");
    CHECK(strncpy_s(d, sizeof d, "abc", SECUREC_STRING_MAX_LEN + 1) == ERANGE_AND_RESET && d[0] == '\0',
          "strncpy_s count > SECUREC_STRING_MAX_LEN: ERANGE_AND_RESET");
    CHECK(strncpy_s(NULL, 8, "a", 1) == EINVAL, "strncpy_s NULL dest: EINVAL");
    strcpy(d, "keep");
    CHECK(strncpy_s(d, sizeof d, NULL, 1) == EINVAL_AND_RESET && d[0] == '\0', "strncpy_s NULL src: EINVAL_AND_RESET");
    CHECK(strncpy_s(d, 0, "a", 1) == ERANGE, "strncpy_s destMax 0: ERANGE");
    strcpy(d, "abcdef");
    CHECK(strncpy_s(d, sizeof d, d, 3) == EOK && strcmp(d, "abc") == 0, "strncpy_s with dest == src truncates at count");
    strcpy(o, "abcdef");
    CHECK(strncpy_s(o + 1, 15, o, 4) == EOVERLAP_AND_RESET && o[1] == '\0', "strncpy_s of overlapping strings: EOVERLAP_AND_RESET");
}

static void strcats(void)
{
    char d[8] = "ab";
    CHECK(strcat_s(d, sizeof d, "cde") == EOK && strcmp(d, "abcde") == 0, "strcat_s appends");
    CHECK(strcat_s(d, sizeof d, "fg") == EOK && strcmp(d, "abcdefg") == 0, "strcat_s filling destMax - 1");
    strcpy(d, "abcd");
    CHECK(strcat_s(d, sizeof d, "efgh") == ERANGE_AND_RESET && d[0] == '\0', "strcat_s too long: ERANGE_AND_RESET");
    memset(d, 'x', sizeof d);
    CHECK(strcat_s(d, sizeof d, "a") == EINVAL_AND_RESET && d[0] == '\0', "strcat_s unterminated dest: EINVAL_AND_RESET");
    strcpy(d, "ab");
    CHECK(strcat_s(d, sizeof d, NULL) == EINVAL_AND_RESET && d[0] == '\0', "strcat_s NULL src: EINVAL_AND_RESET");
    CHECK(strcat_s(NULL, 8, "a") == EINVAL, "strcat_s NULL dest: EINVAL");
    strcpy(d, "ab");
    CHECK(strcat_s(d, 0, "a") == ERANGE && strcmp(d, "ab") == 0, "strcat_s destMax 0: ERANGE, untouched");
    CHECK(strcat_s(d, SECUREC_STRING_MAX_LEN + 1, "a") == ERANGE && strcmp(d, "ab") == 0,
          "strcat_s destMax > SECUREC_STRING_MAX_LEN: ERANGE");
    strcpy(d, "ab");
    CHECK(strcat_s(d, sizeof d, d) == ERANGE_AND_RESET && d[0] == '\0', "strcat_s with dest == src: ERANGE_AND_RESET");
    char o[16] = "abcdef";
    CHECK(strcat_s(o, sizeof o, o + 3) == EOVERLAP_AND_RESET && o[0] == '\0', "strcat_s of overlapping strings: EOVERLAP_AND_RESET");

    strcpy(d, "ab");
    CHECK(strncat_s(d, sizeof d, "cdefgh", 3) == EOK && strcmp(d, "abcde") == 0, "strncat_s appends count characters");
    CHECK(strncat_s(d, sizeof d, "f", 5) == EOK && strcmp(d, "abcdef") == 0, "strncat_s stops at the source's end");
    CHECK(strncat_s(d, sizeof d, "xyz", 0) == EOK && strcmp(d, "abcdef") == 0, "strncat_s count 0 appends nothing");
    CHECK(strncat_s(d, sizeof d, "gh", 2) == ERANGE_AND_RESET && d[0] == '\0', "strncat_s too long: ERANGE_AND_RESET");
    strcpy(d, "ab");
    CHECK(strncat_s(d, sizeof d, "c", SECUREC_STRING_MAX_LEN + 1) == ERANGE_AND_RESET && d[0] == '\0',
          "strncat_s count > SECUREC_STRING_MAX_LEN: ERANGE_AND_RESET");
    memset(d, 'x', sizeof d);
    CHECK(strncat_s(d, sizeof d, "a", 1) == EINVAL_AND_RESET && d[0] == '\0', "strncat_s unterminated dest: EINVAL_AND_RESET");
    strcpy(d, "ab");
    CHECK(strncat_s(d, sizeof d, NULL, 1) == EINVAL_AND_RESET && d[0] == '\0', "strncat_s NULL src: EINVAL_AND_RESET");
    CHECK(strncat_s(NULL, 8, "a", 1) == EINVAL, "strncat_s NULL dest: EINVAL");
    CHECK(strncat_s(d, 0, "a", 1) == ERANGE, "strncat_s destMax 0: ERANGE");
    strcpy(o, "abcdef");
    CHECK(strncat_s(o, sizeof o, o + 1, 2) == EOVERLAP_AND_RESET && o[0] == '\0', "strncat_s of overlapping strings: EOVERLAP_AND_RESET");
}

static void wcs(void)
{
    wchar_t d[8];
    CHECK(wcscpy_s(d, 8, L"abc") == EOK && wcscmp(d, L"abc") == 0, "wcscpy_s copies");
    CHECK(wcscpy_s(d, 8, L"abcdefgh") == ERANGE_AND_RESET && d[0] == 0, "wcscpy_s too long: ERANGE_AND_RESET");
    CHECK(wcscpy_s(d, SECUREC_WCHAR_STRING_MAX_LEN + 1, L"a") == ERANGE, "wcscpy_s destMax > SECUREC_WCHAR_STRING_MAX_LEN: ERANGE");
    CHECK(wcscpy_s(NULL, 8, L"a") == EINVAL, "wcscpy_s NULL dest: EINVAL");
    wcscpy(d, L"ab");
    CHECK(wcscpy_s(d, 8, NULL) == EINVAL_AND_RESET && d[0] == 0, "wcscpy_s NULL src: EINVAL_AND_RESET");
    wchar_t o[16] = L"abcdef";
    CHECK(wcscpy_s(o + 1, 15, o) == EOVERLAP_AND_RESET && o[1] == 0, "wcscpy_s of overlapping strings: EOVERLAP_AND_RESET");
    CHECK(wcsncpy_s(d, 8, L"abcdef", 2) == EOK && wcscmp(d, L"ab") == 0, "wcsncpy_s copies count characters");
    CHECK(wcsncpy_s(d, 8, L"abcdefghij", 9) == ERANGE_AND_RESET && d[0] == 0, "wcsncpy_s too long: ERANGE_AND_RESET");
    CHECK(wcsncpy_s(d, 8, L"a", SECUREC_WCHAR_STRING_MAX_LEN + 1) == ERANGE_AND_RESET, "wcsncpy_s count too large: ERANGE_AND_RESET");
    CHECK(wcsncpy_s(d, 0, L"a", 1) == ERANGE, "wcsncpy_s destMax 0: ERANGE");
    wcscpy(d, L"ab");
    CHECK(wcscat_s(d, 8, L"cd") == EOK && wcscmp(d, L"abcd") == 0, "wcscat_s appends");
    CHECK(wcscat_s(d, 8, L"efgh") == ERANGE_AND_RESET && d[0] == 0, "wcscat_s too long: ERANGE_AND_RESET");
    wmemset(d, L'x', 8);
    CHECK(wcscat_s(d, 8, L"a") == EINVAL_AND_RESET && d[0] == 0, "wcscat_s unterminated dest: EINVAL_AND_RESET");
    CHECK(wcscat_s(NULL, 8, L"a") == EINVAL, "wcscat_s NULL dest: EINVAL");
    wcscpy(d, L"ab");
    CHECK(wcsncat_s(d, 8, L"cdef", 2) == EOK && wcscmp(d, L"abcd") == 0, "wcsncat_s appends count characters");
    CHECK(wcsncat_s(d, 8, L"efgh", 4) == ERANGE_AND_RESET && d[0] == 0, "wcsncat_s too long: ERANGE_AND_RESET");
    wcscpy(o, L"abcdef");
    CHECK(wcsncat_s(o, 16, o + 2, 2) == EOVERLAP_AND_RESET && o[0] == 0, "wcsncat_s of overlapping strings: EOVERLAP_AND_RESET");
    CHECK(wcsncat_s(d, 8, NULL, 1) == EINVAL_AND_RESET && d[0] == 0, "wcsncat_s NULL src: EINVAL_AND_RESET");
}

static void tokens(void)
{
    char s[] = ",,a,bb;;c,", *ctx = NULL;
    char *t1 = strtok_s(s, ",;", &ctx);
    char *t2 = strtok_s(NULL, ",;", &ctx);
    char *t3 = strtok_s(NULL, ",;", &ctx);
    char *t4 = strtok_s(NULL, ",;", &ctx);
    CHECK(t1 && strcmp(t1, "a") == 0 && t2 && strcmp(t2, "bb") == 0 && t3 && strcmp(t3, "c") == 0 && t4 == NULL,
          "strtok_s splits a, bb, c and then returns NULL");
    CHECK(strtok_s(NULL, ",", &ctx) == NULL && ctx != NULL && *ctx == '\0', "strtok_s after the end: NULL, context at the end");
    char e[] = ",,,";
    ctx = NULL;
    CHECK(strtok_s(e, ",", &ctx) == NULL, "strtok_s of delimiters only: NULL");
    char x[] = "a b";
    CHECK(strtok_s(x, " ", NULL) == NULL, "strtok_s NULL context: NULL");
    CHECK(strtok_s(x, NULL, &ctx) == NULL, "strtok_s NULL delimiters: NULL");
    ctx = NULL;
    CHECK(strtok_s(NULL, " ", &ctx) == NULL, "strtok_s NULL string and NULL *context: NULL");
    wchar_t w[] = L"x y", *wctx = NULL;
    wchar_t *w1 = wcstok_s(w, L" ", &wctx), *w2 = wcstok_s(NULL, L" ", &wctx);
    CHECK(w1 && wcscmp(w1, L"x") == 0 && w2 && wcscmp(w2, L"y") == 0 && wcstok_s(NULL, L" ", &wctx) == NULL,
          "wcstok_s splits x and y");
    CHECK(wcstok_s(w, L" ", NULL) == NULL, "wcstok_s NULL context: NULL");
}

static int vsp(char *d, size_t m, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vsprintf_s(d, m, f, ap);
    va_end(ap);
    return r;
}

static int vsnp(char *d, size_t m, size_t c, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vsnprintf_s(d, m, c, f, ap);
    va_end(ap);
    return r;
}

static int vtrunc(char *d, size_t m, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vsnprintf_truncated_s(d, m, f, ap);
    va_end(ap);
    return r;
}

static int vswp(wchar_t *d, size_t m, const wchar_t *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vswprintf_s(d, m, f, ap);
    va_end(ap);
    return r;
}

static void prints(void)
{
    char d[8];
    CHECK(sprintf_s(d, sizeof d, "%d-%s", 42, "ab") == 5 && strcmp(d, "42-ab") == 0, "sprintf_s formats, returns 5");
    CHECK(sprintf_s(d, sizeof d, "%s", "1234567") == 7 && strcmp(d, "1234567") == 0, "sprintf_s of destMax - 1 characters");
    strcpy(d, "keep");
    CHECK(sprintf_s(d, sizeof d, "%s", "12345678") == -1 && d[0] == '\0', "sprintf_s too long: -1, strDest[0] = '\\0'");
    strcpy(d, "keep");
    CHECK(sprintf_s(d, 0, "%d", 1) == -1 && strcmp(d, "keep") == 0, "sprintf_s destMax 0: -1, untouched");
    CHECK(sprintf_s(d, SECUREC_STRING_MAX_LEN + 1, "%d", 1) == -1 && strcmp(d, "keep") == 0,
          "sprintf_s destMax > SECUREC_STRING_MAX_LEN: -1, untouched");
    CHECK(sprintf_s(NULL, 8, "%d", 1) == -1, "sprintf_s NULL dest: -1");
    CHECK(sprintf_s(d, sizeof d, NULL) == -1 && d[0] == '\0', "sprintf_s NULL format: -1, reset");
    int n = 0;
    strcpy(d, "keep");
    CHECK(sprintf_s(d, sizeof d, "ab%n", &n) == -1 && d[0] == '\0' && n == 0,
          "sprintf_s refuses %%n: -1, reset, nothing stored");
    CHECK(vsp(d, sizeof d, "%c%c", 'x', 'y') == 2 && strcmp(d, "xy") == 0, "vsprintf_s formats");
    strcpy(d, "keep");
    CHECK(vsp(d, 3, "%s", "abc") == -1 && d[0] == '\0', "vsprintf_s too long: -1, reset");

    CHECK(snprintf_s(d, sizeof d, 3, "%s", "ab") == 2 && strcmp(d, "ab") == 0, "snprintf_s that fits count: its length");
    CHECK(snprintf_s(d, sizeof d, 3, "%s", "abc") == 3 && strcmp(d, "abc") == 0, "snprintf_s of exactly count characters");
    CHECK(snprintf_s(d, sizeof d, 3, "%s", "abcdef") == -1 && strcmp(d, "abc") == 0,
          "snprintf_s truncated at count < destMax: -1, the first count characters kept");
    strcpy(d, "keep");
    CHECK(snprintf_s(d, sizeof d, 8, "%s", "abcdefgh") == -1 && d[0] == '\0',
          "snprintf_s count >= destMax, too long: -1, strDest[0] = '\\0'");
    CHECK(snprintf_s(d, sizeof d, (size_t)-1, "%s", "abcdefg") == 7 && strcmp(d, "abcdefg") == 0,
          "snprintf_s count (size_t)-1: bounded by destMax");
    strcpy(d, "keep");
    CHECK(snprintf_s(d, 0, 1, "%d", 1) == -1 && strcmp(d, "keep") == 0, "snprintf_s destMax 0: -1, untouched");
    CHECK(snprintf_s(NULL, 8, 1, "%d", 1) == -1, "snprintf_s NULL dest: -1");
    CHECK(snprintf_s(d, sizeof d, 7, NULL) == -1 && d[0] == '\0', "snprintf_s NULL format: -1, reset");
    CHECK(vsnp(d, sizeof d, 2, "%d", 123) == -1 && strcmp(d, "12") == 0, "vsnprintf_s truncated: -1, truncation kept");
    CHECK(vsnp(d, sizeof d, 7, "%d", 123) == 3 && strcmp(d, "123") == 0, "vsnprintf_s formats");

    CHECK(snprintf_truncated_s(d, sizeof d, "%s", "abc") == 3 && strcmp(d, "abc") == 0, "snprintf_truncated_s formats");
    CHECK(snprintf_truncated_s(d, sizeof d, "%s", "abcdefghij") == 7 && strcmp(d, "abcdefg") == 0,
          "snprintf_truncated_s too long: destMax - 1, truncation kept");
    CHECK(snprintf_truncated_s(d, 0, "%s", "a") == -1, "snprintf_truncated_s destMax 0: -1");
    CHECK(snprintf_truncated_s(d, sizeof d, NULL) == -1 && d[0] == '\0', "snprintf_truncated_s NULL format: -1, reset");
    CHECK(vtrunc(d, 4, "%d", 12345) == 3 && strcmp(d, "123") == 0, "vsnprintf_truncated_s too long: destMax - 1");

    wchar_t w[8];
    CHECK(swprintf_s(w, 8, L"%d%ls", 7, L"ab") == 3 && wcscmp(w, L"7ab") == 0, "swprintf_s formats");
    wcscpy(w, L"keep");
    CHECK(swprintf_s(w, 8, L"%ls", L"abcdefgh") == -1 && w[0] == 0, "swprintf_s too long: -1, reset");
    CHECK(swprintf_s(NULL, 8, L"x") == -1, "swprintf_s NULL dest: -1");
    CHECK(swprintf_s(w, SECUREC_WCHAR_STRING_MAX_LEN + 1, L"x") == -1, "swprintf_s destMax too large: -1");
    CHECK(vswp(w, 8, L"%d", 12) == 2 && wcscmp(w, L"12") == 0, "vswprintf_s formats");
    wcscpy(w, L"keep");
    CHECK(vswp(w, 8, L"a%n", &n) == -1 && w[0] == 0, "vswprintf_s refuses %%n");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    macros();
    memsets();
    copies("memcpy_s", memcpy_s, 0);
    copies("memmove_s", memmove_s, 1);
    wmem();
    strcpys();
    strcats();
    wcs();
    tokens();
    prints();
    scans();
    streams();
    stdins();
    if (failed) {
        return 1;
    }
    printf("PASS securec\n");
    return 0;
}
