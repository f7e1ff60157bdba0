/* Arena, hash map and number parsing shared by libpn. */
#include <config.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "lib_private.h"

struct pni_chunk {
    pni_chunk_t *next;
    size_t size, used;
    int owned; /* from the arena's alloc: not freed here */
    char data[];
};

#define PNI_CHUNK 65536
/* memory from this size on is placed on transparent huge pages */
#define PNI_HUGE ((size_t)256 << 10)
static void *huge_alloc(size_t n);
/* Chunks double up to this size; from PNI_HUGE on they are placed on
 * transparent huge pages (see huge_alloc()). */
#define PNI_CHUNK_MAX ((size_t)2 << 20)
/* ... and up to this size when they come from the arena's alloc. */
#define PNI_CHUNK_OWNED ((size_t)1 << 20)

void pni_arena_init(pni_arena_t *a)
{
    a->head = NULL;
    a->alloc = NULL;
    a->ctx = NULL;
}

void pni_arena_free(pni_arena_t *a)
{
    pni_chunk_t *c = a ? a->head : NULL;
    while (c) {
        pni_chunk_t *n = c->next;
        if (!c->owned)
            free(c);
        c = n;
    }
    if (a)
        a->head = NULL;
}

char *pni_arena_strndup(pni_arena_t *a, const char *s, size_t n)
{
    pni_chunk_t *c = a->head;
    if (!c || c->size - c->used < n + 1) {
        int big = n + 1 > PNI_CHUNK / 4;
        size_t size = PNI_CHUNK;
        if (big) {
            size = n + 1;
        } else if (c) {
            /* twice the last chunk (the head is a big string's only when
             * it is the first), up to PNI_CHUNK_MAX with its header: the
             * many ids of a large net fill few pages */
            size_t total = 2 * (sizeof *c + c->size);
            if (a->alloc && total > PNI_CHUNK_OWNED)
                total = PNI_CHUNK_OWNED; /* the owner's blocks hold it */
            else if (!a->alloc && (total > PNI_CHUNK_MAX || total >= PNI_HUGE))
                total = PNI_CHUNK_MAX; /* a huge page, used whole */
            if (total > sizeof *c + PNI_CHUNK)
                size = total - sizeof *c;
        }
        pni_chunk_t *nc = NULL;
        int owned = 0;
        if (a->alloc && c && !big) {
            nc = a->alloc(a->ctx, sizeof *nc + size);
            owned = nc != NULL;
        }
        if (!nc)
            nc = sizeof *nc + size >= PNI_HUGE && !big
                     ? huge_alloc(sizeof *nc + size)
                     : malloc(sizeof *nc + size);
        if (!nc)
            return NULL;
        nc->owned = owned;
        nc->size = size;
        nc->used = 0;
        if (big && c) {
            /* a big string gets its own chunk behind the current one, so the
             * current chunk's free space stays usable */
            nc->next = c->next;
            c->next = nc;
        } else {
            nc->next = c;
            a->head = nc;
        }
        c = nc;
    }
    char *p = c->data + c->used;
    memcpy(p, s, n);
    p[n] = '\0';
    c->used += n + 1;
    return p;
}

char *pni_arena_strdup(pni_arena_t *a, const char *s)
{
    return s ? pni_arena_strndup(a, s, strlen(s)) : NULL;
}

void pni_hash_init(pni_hash_t *h)
{
    h->slots = NULL;
    h->cap = h->used = 0;
    h->entries = NULL;
    h->cap_entries = 0;
}

void pni_hash_free(pni_hash_t *h)
{
    if (h) {
        free(h->slots);
        free(h->entries);
        pni_hash_init(h);
    }
}

void pni_hash_clear(pni_hash_t *h)
{
    /* the slots of the entries, found as pni_hash_get() finds them (all
     * go, so no chain is cut for a later one), or all at once */
    if (h->used * 8 < h->cap) {
        size_t mask = h->cap - 1;
        for (size_t k = 0; k < h->used; k++) {
            size_t i = h->entries[k].hash & mask;
            while (h->slots[i].entry != k + 1)
                i = (i + 1) & mask;
            h->slots[i].entry = 0;
        }
    } else if (h->cap) {
        memset(h->slots, 0, h->cap * sizeof *h->slots);
    }
    h->used = 0;
}

uint32_t pni_hash_str(const char *s)
{
    uint32_t x = 2166136261u; /* FNV-1a */
    for (; *s; s++) {
        x ^= (unsigned char)*s;
        x *= 16777619u;
    }
    return x;
}

const pni_hentry_t *pni_hash_get(const pni_hash_t *h, const char *key)
{
    if (!h->cap)
        return NULL;
    uint32_t hv = pni_hash_str(key);
    size_t mask = h->cap - 1;
    for (size_t i = hv & mask;; i = (i + 1) & mask) {
        const pni_hslot_t *s = &h->slots[i];
        if (!s->entry)
            return NULL;
        if (s->hash == hv) {
            const pni_hentry_t *e = &h->entries[s->entry - 1];
            if (strcmp(e->key, key) == 0)
                return e;
        }
    }
}

/* Memory for n bytes (freed by free()): from PNI_HUGE on, on transparent
 * huge pages where the system has them (rounded up to 2 MiB).  On the
 * virtual machines this is measured on, a first touch of a 4 KiB page
 * costs 1.5-5 us, the one fault of a huge page 0.2-0.7 ms (lib/net.c). */
static void *huge_alloc(size_t n)
{
#if defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (n >= PNI_HUGE) {
        void *p = NULL;
        size_t size = (n + huge - 1) & ~(huge - 1);
        if (posix_memalign(&p, huge, size) != 0)
            return NULL;
        (void)madvise(p, size, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(n);
}

/* Zeroed memory for a table of n bytes.  A large table is placed on
 * transparent huge pages where the system has them: its slots are visited
 * at random, and with 4 KiB pages nearly every visit missed the TLB. */
static void *table_alloc(size_t n)
{
    if (n < PNI_HUGE)
        return calloc(1, n);
    void *p = huge_alloc(n);
    if (p)
        memset(p, 0, n);
    return p;
}

static pn_status_t rehash(pni_hash_t *h, size_t cap)
{
    if (cap > SIZE_MAX / sizeof(pni_hslot_t))
        return PN_ENOMEM;
    pni_hslot_t *slots = table_alloc(cap * sizeof *slots);
    if (!slots)
        return PN_ENOMEM;
    for (size_t i = 0; i < h->cap; i++) {
        const pni_hslot_t *s = &h->slots[i];
        if (!s->entry)
            continue;
        size_t j = s->hash & (cap - 1);
        while (slots[j].entry)
            j = (j + 1) & (cap - 1);
        slots[j] = *s;
    }
    free(h->slots);
    h->slots = slots;
    h->cap = cap;
    return PN_OK;
}

pn_status_t pni_hash_put(pni_hash_t *h, const char *key, uint32_t kind,
                         size_t index)
{
    if (h->used >= UINT32_MAX - 1)
        return PN_ENOMEM;
    if ((h->used + 1) * 4 > h->cap * 3) {
        pn_status_t st = rehash(h, h->cap ? h->cap * 2 : 64);
        if (st)
            return st;
    }
    uint32_t hv = pni_hash_str(key);
    size_t mask = h->cap - 1;
    size_t i = hv & mask;
    for (; h->slots[i].entry; i = (i + 1) & mask)
        if (h->slots[i].hash == hv &&
            strcmp(h->entries[h->slots[i].entry - 1].key, key) == 0)
            return PN_EDUPID;
    if (pni_grow((void **)&h->entries, &h->cap_entries, h->used + 1,
                 sizeof *h->entries))
        return PN_ENOMEM;
    pni_hentry_t e = {key, hv, kind, index};
    h->entries[h->used] = e;
    h->slots[i].hash = hv;
    h->slots[i].entry = (uint32_t)(h->used + 1);
    h->used++;
    return PN_OK;
}

int64_t pni_gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

pn_status_t pni_grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return PN_OK;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return PN_ENOMEM;
        n *= 2;
    }
    void *p = realloc(*buf, n * elem);
    if (!p)
        return PN_ENOMEM;
    *buf = p;
    *cap = n;
    return PN_OK;
}

static int xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

pn_status_t pni_parse_u64(const char *s, size_t len, uint64_t *out,
                          const char **what)
{
    size_t i = 0, end = len;
    while (i < end && xml_space(s[i]))
        i++;
    while (end > i && xml_space(s[end - 1]))
        end--;
    if (i == end) {
        *what = "empty number";
        return PN_EVALUE;
    }
    if (s[i] == '-') {
        /* "-0" is still a sign the file should not carry, but say what it is */
        *what = "negative number";
        for (size_t k = i + 1; k < end; k++)
            if (s[k] < '0' || s[k] > '9') {
                *what = "not an integer";
                break;
            }
        if (i + 1 == end)
            *what = "not an integer";
        return PN_EVALUE;
    }
    if (s[i] == '+')
        i++;
    if (i == end) {
        *what = "not an integer";
        return PN_EVALUE;
    }
    uint64_t v = 0;
    int big = 0;
    for (size_t k = i; k < end; k++) {
        if (s[k] < '0' || s[k] > '9') {
            *what = "not an integer";
            return PN_EVALUE;
        }
        unsigned d = (unsigned)(s[k] - '0');
        if (v > (PN_TOKENS_MAX - d) / 10)
            big = 1;
        else
            v = v * 10 + d;
    }
    if (big) {
        *what = "number above 2^63 - 1";
        return PN_ERANGE;
    }
    *out = v;
    *what = NULL;
    return PN_OK;
}

void pni_format_decimal(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.6f", v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *e = buf + strlen(buf) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
    if (!strcmp(buf, "-0"))
        strcpy(buf, "0");
}

void pni_format_exact(char *buf, size_t size, double v, int plain)
{
    if (!size)
        return;
    if (v == 0)
        v = 0; /* no "-0" */
    /* the fewest digits that read back equal: at most 17 significant ones
     * in %g; a plain decimal may need up to 340 after the point (the
     * smallest subnormals) */
    int max = plain ? 340 : 17;
    for (int p = 1; p <= max; p++) {
        snprintf(buf, size, plain ? "%.*f" : "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
}

char *pni_quote(char *buf, size_t size, const char *s, size_t n, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (!size)
        return buf;
    for (size_t i = 0; i < n && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        char piece[5];
        size_t len = 1;
        piece[0] = (char)c;
        if (c == '\\')
            piece[len++] = '\\';
        else if (c < 0x20 || c > 0x7e) {
            piece[0] = '\\';
            piece[1] = 'x';
            piece[2] = hex[c >> 4];
            piece[3] = hex[c & 15];
            len = 4;
        }
        if (o + len + 4 > size) { /* room for "..." and the NUL */
            n = i + 1; /* forces the "..." below */
            max = i;
            break;
        }
        memcpy(buf + o, piece, len);
        o += len;
    }
    if (n > max && o + 4 <= size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}
