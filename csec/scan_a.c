/* Formatted input from char strings and streams: sscanf_s, fscanf_s, scanf_s and their va_list forms. */
#include "sec.h"

#include <ctype.h>
#include <limits.h>

#define CH char
#define CINT int
#define CEOF EOF
#define TOINT(c) ((int)(unsigned char)(c))
#define ISSPACE(c) isspace(c)
#define GETC getc
#define UNGETC ungetc
#define LIB_SSCANF sscanf
#define LIB_FSCANF fscanf
#define WIDE 0
#define VS vsscanf_s
#define VF vfscanf_s
#include "scan.inc"

int sscanf_s(const char *buffer, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vsscanf_s(buffer, format, ap);
    va_end(ap);
    return r;
}

int fscanf_s(FILE *stream, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfscanf_s(stream, format, ap);
    va_end(ap);
    return r;
}

int vscanf_s(const char *format, va_list argList)
{
    return vfscanf_s(stdin, format, argList);
}

int scanf_s(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfscanf_s(stdin, format, ap);
    va_end(ap);
    return r;
}
