/*
 * Formatted input from wide strings and streams: swscanf_s, fwscanf_s,
 * wscanf_s and their va_list forms. %s, %c and %[ store wide characters;
 * %hs, %hc and %h[ store multibyte ones.
 */
#include "sec.h"

#include <limits.h>
#include <wctype.h>

#define CH wchar_t
#define CINT wint_t
#define CEOF WEOF
#define TOINT(c) ((wint_t)(c))
#define ISSPACE(c) iswspace(c)
#define GETC getwc
#define UNGETC ungetwc
#define LIB_SSCANF swscanf
#define LIB_FSCANF fwscanf
#define WIDE 1
#define VS vswscanf_s
#define VF vfwscanf_s
#include "scan.inc"

int swscanf_s(const wchar_t *buffer, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vswscanf_s(buffer, format, ap);
    va_end(ap);
    return r;
}

int fwscanf_s(FILE *stream, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwscanf_s(stream, format, ap);
    va_end(ap);
    return r;
}

int vwscanf_s(const wchar_t *format, va_list argList)
{
    return vfwscanf_s(stdin, format, argList);
}

int wscanf_s(const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwscanf_s(stdin, format, ap);
    va_end(ap);
    return r;
}
