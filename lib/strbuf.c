/* The growing string of lib_private.h (pni_sb_t). */
#include <config.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"

/* Room for need more bytes and the NUL after them; 0, or -1 after setting
 * oom. */
static int room(pni_sb_t *b, size_t need)
{
    if (b->oom)
        return -1;
    if (b->s && need < b->cap - b->n)
        return 0;
    /* doubled from 256 bytes (no helper of util.c: this file is also
     * compiled into libpn-render alone) */
    size_t cap = b->cap ? b->cap : 256;
    while (need >= cap - b->n) {
        if (cap > SIZE_MAX / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;
    }
    char *s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

pn_status_t pni_sb_grow_put(pni_sb_t *b, const char *s, size_t n)
{
    if (room(b, n))
        return PN_ENOMEM;
    if (n)
        memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
    return PN_OK;
}

pn_status_t pni_sb_printf(pni_sb_t *b, const char *fmt, ...)
{
    if (b->oom)
        return PN_ENOMEM;
    for (;;) {
        size_t left = b->s ? b->cap - b->n : 0;
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(left ? b->s + b->n : NULL, left, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return PN_ENOMEM;
        }
        if ((size_t)k < left) {
            b->n += (size_t)k;
            return PN_OK;
        }
        if (room(b, (size_t)k))
            return PN_ENOMEM;
    }
}

pn_status_t pni_sb_insert(pni_sb_t *b, size_t at, const char *s, size_t n)
{
    if (at > b->n)
        at = b->n;
    if (room(b, n))
        return PN_ENOMEM;
    memmove(b->s + at + n, b->s + at, b->n - at + 1);
    if (n)
        memcpy(b->s + at, s, n);
    b->n += n;
    return PN_OK;
}

char *pni_sb_take(pni_sb_t *b, size_t *len)
{
    if (!b->s && !b->oom)
        pni_sb_put(b, "", 0);
    char *s = b->oom ? NULL : b->s;
    if (len)
        *len = s ? b->n : 0;
    if (!s)
        free(b->s);
    memset(b, 0, sizeof *b);
    return s;
}

void pni_sb_free(pni_sb_t *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}
