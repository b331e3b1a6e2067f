/*
 * Formatted output: sprintf_s, snprintf_s, snprintf_truncated_s, their
 * va_list forms, and swprintf_s / vswprintf_s. The C library formats; this
 * file bounds what it may write and decides what a too long result is:
 *
 *   whole      the result must fit in destMax - 1 characters, else the
 *              destination is reset and the call returns -1 (sprintf_s,
 *              and snprintf_s when count >= destMax);
 *   count      at most count characters are written; more is truncation,
 *              kept, and -1 (snprintf_s when count < destMax);
 *   truncated  at most destMax - 1 characters are written; more is
 *              truncation, kept, and destMax - 1 (snprintf_truncated_s).
 *
 * Every error that leaves strDest and destMax usable resets the
 * destination (a null character at strDest[0]). A format holding %n,
 * which would write through an argument, is refused as an error.
 */
#include "sec.h"

enum mode { WHOLE, COUNT, TRUNCATED };

/*
 * HAS_N defines a function telling whether a format has a %n conversion:
 * after each '%' come flags, width, precision, positions and length
 * modifiers, then the conversion.
 */
#define HAS_N(name, CH)                                                  \
    static int name(const CH *f)                                         \
    {                                                                    \
        while (*f != 0) {                                                \
            if (*f++ != '%') {                                           \
                continue;                                                \
            }                                                            \
            while (*f != 0 && sec_inert((unsigned long)*f)) {            \
                f++;                                                     \
            }                                                            \
            if (*f == 'n') {                                             \
                return 1;                                                \
            }                                                            \
            if (*f != 0) {                                               \
                f++;                                                     \
            }                                                            \
        }                                                                \
        return 0;                                                        \
    }

/* sec_inert tells whether c may stand between a '%' and its conversion. */
static int sec_inert(unsigned long c)
{
    return c < 128 && c != 0 && strchr("0123456789.*$-+ #'hlLqjztI", (int)c) != NULL;
}

HAS_N(has_n, char)
HAS_N(whas_n, wchar_t)

static int vformat(char *strDest, size_t destMax, size_t count, enum mode m, const char *format, va_list ap)
{
    if (strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) {
        return -1;
    }
    if (format == NULL || has_n(format)) {
        strDest[0] = '\0';
        return -1;
    }
    if (m == COUNT && count >= destMax) {
        m = WHOLE;
    }
    size_t limit = m == COUNT ? count : destMax - 1; /* characters that may be written */
    int r = vsnprintf(strDest, limit + 1, format, ap);
    if (r < 0) {
        strDest[0] = '\0';
        return -1;
    }
    if ((size_t)r <= limit) {
        return r;
    }
    switch (m) {
    case WHOLE:
        strDest[0] = '\0';
        return -1;
    case COUNT:
        return -1;
    default:
        return (int)limit;
    }
}

int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList)
{
    return vformat(strDest, destMax, 0, WHOLE, format, argList);
}

int sprintf_s(char *strDest, size_t destMax, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vformat(strDest, destMax, 0, WHOLE, format, ap);
    va_end(ap);
    return r;
}

int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList)
{
    return vformat(strDest, destMax, count, COUNT, format, argList);
}

int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vformat(strDest, destMax, count, COUNT, format, ap);
    va_end(ap);
    return r;
}

int vsnprintf_truncated_s(char *strDest, size_t destMax, const char *format, va_list argList)
{
    return vformat(strDest, destMax, 0, TRUNCATED, format, argList);
}

int snprintf_truncated_s(char *strDest, size_t destMax, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vformat(strDest, destMax, 0, TRUNCATED, format, ap);
    va_end(ap);
    return r;
}

/* The C library's vswprintf fails alike for a result too long and an encoding error. */
int vswprintf_s(wchar_t *strDest, size_t destMax, const wchar_t *format, va_list argList)
{
    if (strDest == NULL || destMax == 0 || destMax > SECUREC_WCHAR_STRING_MAX_LEN) {
        return -1;
    }
    if (format == NULL || whas_n(format)) {
        strDest[0] = L'\0';
        return -1;
    }
    int r = vswprintf(strDest, destMax, format, argList);
    if (r < 0 || (size_t)r >= destMax) {
        strDest[0] = L'\0';
        return -1;
    }
    return r;
}

int swprintf_s(wchar_t *strDest, size_t destMax, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vswprintf_s(strDest, destMax, format, ap);
    va_end(ap);
    return r;
}
