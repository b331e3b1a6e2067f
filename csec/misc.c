/* gets_s and GetHwSecureCVersion. */
#include "sec.h"

/*
 * gets_s reads a line of standard input as fgets does, at most destMax - 1
 * characters (the rest of a longer line stays unread), and drops its line
 * ending ("\n", or "\r\n"). At end of input with nothing read it stores an
 * empty string and returns NULL.
 */
char *gets_s(char *buffer, size_t destMax)
{
    if (buffer == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) {
        return NULL;
    }
    /* destMax <= SECUREC_STRING_MAX_LEN, so it fits fgets's int. */
    if (fgets(buffer, (int)destMax, stdin) == NULL) {
        buffer[0] = '\0';
        return NULL;
    }
    size_t n = strlen(buffer);
    if (n > 0 && buffer[n - 1] == '\n') {
        buffer[--n] = '\0';
        if (n > 0 && buffer[n - 1] == '\r') {
            buffer[--n] = '\0';
        }
    }
    return buffer;
}

/* The number encodes the version as that library does: 0x500 | 0x10 for 1.1.16. */
const char *GetHwSecureCVersion(unsigned short *verNumber)
{
    if (verNumber != NULL) {
        *verNumber = 0x510;
    }
    return "1.1.16";
}
