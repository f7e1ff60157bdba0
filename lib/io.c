/* Whole-file input for the readers. */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib_private.h"

pn_status_t pni_slurp(const char *path, char **buf, size_t *len)
{
    FILE *f = path ? fopen(path, "rb") : stdin;
    if (!f)
        return PN_EIO;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        if (path)
            fclose(f);
        errno = EISDIR;
        return PN_EIO;
    }
    size_t cap = 0, n = 0;
    char *b = NULL;
    size_t want = 65536;
    if (S_ISREG(sb.st_mode) && sb.st_size > 0)
        want = (size_t)sb.st_size + 1; /* one read, no copy, for files */
    pn_status_t st = PN_OK;
    for (;;) {
        if (pni_grow((void **)&b, &cap, n + want, 1)) {
            st = PN_ENOMEM;
            break;
        }
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        want = 65536;
        if (got == 0) {
            if (ferror(f)) {
                st = PN_EIO;
            }
            break;
        }
    }
    int saved = errno;
    if (path)
        fclose(f);
    if (st) {
        free(b);
        errno = saved;
        return st;
    }
    *buf = b;
    *len = n;
    return PN_OK;
}
