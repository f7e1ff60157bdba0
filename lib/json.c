/* JSON strings (RFC 8259), the one escaper of the library and programs. */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "lib_private.h"

typedef void put_fn(void *to, const char *s, size_t n);

/* The length of the valid UTF-8 sequence (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF) at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || c > 0xF4)
        return 0;
    /* the second byte's range narrows the first byte's forms */
    unsigned char lo = 0x80, hi = 0xBF;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

static void json_string(put_fn *put, void *to, const char *s, unsigned flags)
{
    if (!s) {
        put(to, "null", 4);
        return;
    }
    const unsigned char *p = (const unsigned char *)s, *run = p;
    put(to, "\"", 1);
    while (*p) {
        unsigned char c = *p;
        const char *esc = NULL;
        char u[8];
        size_t skip = 1;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default:
            if (c < 0x20 || ((flags & PNI_JSON_SCRIPT) &&
                             (c == '<' || c == '>' || c == '&'))) {
                snprintf(u, sizeof u, "\\u%04x", c);
                esc = u;
            } else if (c >= 0x80 && !(skip = utf8_len(p))) {
                esc = "\\ufffd"; /* not UTF-8: the replacement character */
                skip = 1;
            }
        }
        if (!esc) {
            p += skip;
            continue;
        }
        put(to, (const char *)run, (size_t)(p - run));
        put(to, esc, strlen(esc));
        p += skip;
        run = p;
    }
    put(to, (const char *)run, (size_t)(p - run));
    put(to, "\"", 1);
}

static void put_file(void *to, const char *s, size_t n)
{
    if (n)
        fwrite(s, 1, n, (FILE *)to);
}

static void put_sb(void *to, const char *s, size_t n)
{
    pni_sb_put((pni_sb_t *)to, s, n);
}

void pni_json_string(FILE *out, const char *s, unsigned flags)
{
    json_string(put_file, out, s, flags);
}

void pni_sb_json(pni_sb_t *b, const char *s, unsigned flags)
{
    json_string(put_sb, b, s, flags);
}
