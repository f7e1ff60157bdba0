/* The net model: places, transitions, arcs, pages, tool-specific data. */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lib_private.h"

/*
 * The index of node and arc ids.  Most generated nets number their ids
 * ("p0", "t17", "arc4711", "Eat_12"): such an id, a prefix and a decimal
 * number with no leading zero (at most 9 digits), is kept in its prefix's
 * family, an array indexed by the number, so that the ids of a net read in
 * order are stored and found with sequential memory accesses and 4 bytes
 * each.  Every other id goes to a hash table whose slots hold the key's
 * hash and the node it names (the key itself is the node's id): 8 bytes a
 * slot, no entry beside it.
 *
 * A family's array starts at its first number (rounded down to a multiple
 * of 16; at 0 below 64), its base: many nets number their arcs from where
 * their nodes stopped ("a10700"), or number each kind of arc in a range
 * of its own.  Where a numbered id goes: to its family when the family
 * exists and the number is at least the base and less than the base plus
 * four times the family's count plus 64 (so a family's array stays within
 * a few times its ids: 4 bytes a slot, a hash slot takes 8 and the table
 * is at most three quarters full); else to the hash table, and the family
 * is marked spilled.  A family is created by its first id, unless
 * too many exist already (more than 64 + ids / 4): from then on no family
 * is created, and ids without one go to the hash table.  So an id with a
 * family that is not in its array is in the hash table only if the
 * family is spilled: a look-up checks the array, then the hash table when
 * the family is spilled or there is no family.
 *
 * A reference is 1 + (kind << 30 | index): 0 marks an empty slot.
 */
#define REF_INDEX_MAX (((size_t)1 << 30) - 2)
typedef struct {
    const char *prefix; /* in the net's arena */
    size_t plen;
    uint32_t *slot;     /* slot[number - base]: a reference or 0 */
    uint32_t base;      /* the number of slot[0] (set by the first id) */
    size_t cap, count;
    int spilled;
} fam_t;

typedef struct {
    uint32_t hash, ref;
} hslot_t;

/* A chunk of the net's strings that the net maps (see chunk_alloc()). */
typedef struct {
    void *base;
    size_t size;
} pchunk_t;

/* Free room in the net's pool (see pool_alloc()). */
typedef struct {
    char *p;
    size_t n;
} phole_t;
#define POOL_BLOCKS 1

struct pn_net {
    pni_arena_t strings;
    pchunk_t *chunks;
    size_t nchunks, cap_chunks;
    char *pool[POOL_BLOCKS]; /* the pool's blocks, the current one last */
    size_t npool, pool_used; /* blocks; bytes used of the current one */
    phole_t *holes;
    size_t nholes, cap_holes;
    /* the id index */
    hslot_t *hslots;
    size_t hcap, hused;
    fam_t *fams;
    size_t nfams, cap_fams;
    uint32_t *fslots;   /* the families by prefix: 1 + index, 0 empty */
    size_t fcap;
    int fams_closed;
    size_t nids;
    const char *id, *name, *type;
    pn_place_t *places;
    size_t nplaces, cap_places;
    pn_transition_t *transitions;
    size_t ntransitions, cap_transitions;
    pn_arc_t *arcs;
    size_t narcs, cap_arcs;
    pn_page_t *pages;
    size_t npages, cap_pages;
    pn_toolspecific_t *tools;
    size_t ntools, cap_tools;
    const char **warnings;
    size_t nwarnings, cap_warnings;
    const char **params; /* PIPE's rate parameters: id, name, expression,
                            the element as read */
    size_t nparams, cap_params;
};

/*
 * The net's memory.  Where an array of the net (places, transitions, arcs,
 * the id index's tables, the chunks of its strings after the first) lives
 * follows from its size in bytes:
 *  - below MAP_MIN, on the heap;
 *  - from MAP_MIN to below BIG_MIN, in the net's pool while it has room:
 *    at most POOL_BLOCKS blocks of 2 MiB, aligned on 2 MiB and on
 *    transparent huge pages where the system has them, shared by such
 *    arrays (an array at the end of the current block grows in place; one
 *    that moves leaves a hole that later ones reuse).  So the arrays of a
 *    small or mid-size net share a few huge pages instead of rounding each
 *    up to 2 MiB resident or faulting page by page;
 *  - else, below BIG_MIN, in a mapping of its own of ordinary pages: only
 *    the pages it has touched are resident, and it grows by mremap (the
 *    pages move, nothing is copied, no old copy stays behind): the pool
 *    stays small, and so do its holes, in a large net;
 *  - from BIG_MIN on, in a mapping of its own rounded up to 2 MiB, aligned
 *    on 2 MiB and on huge pages as well (copied there once, so that all of
 *    it is on huge pages); it grows by mremap onto a new aligned mapping
 *    where the system can, else it is copied into a mapping twice its
 *    size.
 * Why: on the machines this is measured on, a first touch of a 4 KiB page
 * costs 1.5-5 us, the one fault of a 2 MiB huge page 0.2-0.7 ms (where
 * the kernel must compact memory first, far more): a huge page is cheaper
 * once a third of it or so is used, and it is resident whole.
 */
#define BIG_BYTES ((size_t)2 << 20)
#define MAP_MIN ((size_t)256 << 10)
#define BIG_MIN ((size_t)2 << 20)
#define POOL_ALIGN ((size_t)64)

static size_t big_round(size_t bytes)
{
    return (bytes + BIG_BYTES - 1) & ~(BIG_BYTES - 1);
}

/* bytes rounded up to whole pages of the system. */
static size_t page_round(size_t bytes)
{
    long pg = sysconf(_SC_PAGESIZE);
    size_t p = pg > 0 ? (size_t)pg : 4096;
    return (bytes + p - 1) / p * p;
}

/* The size of the mapping that holds an array of bytes bytes (from
 * MAP_MIN on, outside the pool). */
static size_t map_size(size_t bytes)
{
    return bytes < BIG_MIN ? page_round(bytes) : big_round(bytes);
}

static size_t pool_round(size_t bytes)
{
    return (bytes + POOL_ALIGN - 1) & ~(POOL_ALIGN - 1);
}

/* A zeroed mapping of big_round(bytes) bytes aligned on BIG_BYTES. */
static void *big_map(size_t bytes)
{
    size_t size = big_round(bytes);
    char *p = mmap(NULL, size + BIG_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    size_t head = (BIG_BYTES - ((uintptr_t)p & (BIG_BYTES - 1))) &
                  (BIG_BYTES - 1);
    if (head)
        munmap(p, head);
    munmap(p + head + size, BIG_BYTES - head);
    p += head;
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

/* A zeroed mapping of ordinary pages, page_round(bytes) bytes. */
static void *page_map(size_t bytes)
{
    void *p = mmap(NULL, page_round(bytes), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Whether p is in the net's pool. */
static int in_pool(const pn_net_t *net, const void *p)
{
    for (size_t i = 0; i < net->npool; i++)
        if ((const char *)p >= net->pool[i] &&
            (const char *)p < net->pool[i] + BIG_BYTES)
            return 1;
    return 0;
}

/* Gives n bytes at p back to the pool: the current block's end is bumped
 * back, anything else becomes a hole (out of memory: the hole is lost
 * until the net is freed, nothing worse). */
static void pool_hole(pn_net_t *net, char *p, size_t n)
{
    if (!n)
        return;
    if (net->npool && p + n == net->pool[net->npool - 1] + net->pool_used) {
        net->pool_used -= n; /* the end of the current block: bumped back */
        return;
    }
    if (pni_grow((void **)&net->holes, &net->cap_holes, net->nholes + 1,
                 sizeof *net->holes) == PN_OK) {
        phole_t h = {p, n};
        net->holes[net->nholes++] = h;
    }
}

/* n bytes (a multiple of POOL_ALIGN, below BIG_MIN) of the pool, not
 * cleared: the first hole they fit in, else the current block's end, else
 * a new block while there may be one; NULL when the pool has no room. */
static void *pool_alloc(pn_net_t *net, size_t n)
{
    for (size_t i = 0; i < net->nholes; i++) {
        phole_t *h = &net->holes[i];
        if (h->n < n)
            continue;
        char *p = h->p;
        h->p += n;
        h->n -= n;
        if (!h->n)
            *h = net->holes[--net->nholes];
        return p;
    }
    if (!net->npool || BIG_BYTES - net->pool_used < n) {
        if (net->npool == POOL_BLOCKS)
            return NULL;
        char *base = big_map(BIG_BYTES);
        if (!base)
            return NULL;
        if (net->npool) /* the rest of the full block is a hole */
            pool_hole(net, net->pool[net->npool - 1] + net->pool_used,
                      BIG_BYTES - net->pool_used);
        net->pool[net->npool++] = base;
        net->pool_used = 0;
    }
    char *p = net->pool[net->npool - 1] + net->pool_used;
    net->pool_used += n;
    return p;
}

/* Memory for an array of bytes bytes (not cleared, but a mapping of its
 * own comes zeroed), where its size says. */
static void *mem_alloc(pn_net_t *net, size_t bytes)
{
    if (bytes < MAP_MIN)
        return malloc(bytes ? bytes : 1);
    if (bytes < BIG_MIN) {
        void *p = pool_alloc(net, pool_round(bytes));
        return p ? p : page_map(bytes);
    }
    return big_map(bytes);
}

/* Gives back what mem_alloc(net, bytes) gave. */
static void mem_free(pn_net_t *net, void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < MAP_MIN)
        free(p);
    else if (in_pool(net, p))
        pool_hole(net, p, pool_round(bytes));
    else
        munmap(p, map_size(bytes));
}

/* The same when the net is freed: the pool goes whole afterwards. */
static void mem_drop(pn_net_t *net, void *p, size_t bytes)
{
    if (p && !(bytes >= MAP_MIN && in_pool(net, p)))
        mem_free(net, p, bytes);
}

/* Whether what mem_grow() adds to an array of bytes bytes at p must be
 * cleared by the caller that needs zeroes (a mapping of its own comes
 * zeroed, the heap and the pool do not). */
static int mem_dirty(const pn_net_t *net, const void *p, size_t bytes)
{
    return bytes < MAP_MIN || in_pool(net, p);
}

/* Grows *buf (*cap elements of elem bytes, from mem_alloc) to hold at
 * least need elements, keeping what it holds; what is added is not
 * cleared (see mem_dirty()). */
static pn_status_t mem_grow(pn_net_t *net, void **buf, size_t *cap,
                            size_t need, size_t elem)
{
    if (need <= *cap)
        return PN_OK;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 4 / elem)
            return PN_ENOMEM;
        n *= 2;
    }
    size_t oldb = *cap * elem, newb = n * elem;
    if (newb < MAP_MIN)
        return pni_grow(buf, cap, need, elem);
    int pooled = oldb >= MAP_MIN && in_pool(net, *buf);
    if (pooled && newb < BIG_MIN) {
        /* the array at the end of the current block grows in place */
        size_t ro = pool_round(oldb), rn = pool_round(newb);
        if ((char *)*buf + ro == net->pool[net->npool - 1] + net->pool_used &&
            BIG_BYTES - net->pool_used >= rn - ro) {
            net->pool_used += rn - ro;
            *cap = n;
            return PN_OK;
        }
    }
#if defined(MREMAP_MAYMOVE)
    if (oldb >= MAP_MIN && !pooled && newb < BIG_MIN) {
        /* its pages move to where the mapping can grow */
        void *q = mremap(*buf, page_round(oldb), page_round(newb),
                         MREMAP_MAYMOVE);
        if (q == MAP_FAILED)
            return PN_ENOMEM;
        *buf = q;
        *cap = n;
        return PN_OK;
    }
#endif
#if defined(MREMAP_FIXED)
    if (oldb >= BIG_MIN) {
        /* the huge pages move whole onto a new aligned mapping's start:
         * nothing is copied or cleared again */
        void *p = big_map(newb);
        if (!p)
            return PN_ENOMEM;
        void *q = mremap(*buf, big_round(oldb), big_round(newb),
                         MREMAP_MAYMOVE | MREMAP_FIXED, p);
        if (q == MAP_FAILED) {
            munmap(p, big_round(newb));
            return PN_ENOMEM;
        }
        *buf = q;
        *cap = n;
        return PN_OK;
    }
#endif
    /* from the heap or the pool, or from ordinary pages to huge ones (not
     * moved: the ordinary pages would stay where huge ones should be) */
    void *p = mem_alloc(net, newb);
    if (!p)
        return PN_ENOMEM;
    if (oldb)
        memcpy(p, *buf, oldb);
    mem_free(net, *buf, oldb);
    *buf = p;
    *cap = n;
    return PN_OK;
}

/* Zeroed memory for a table of bytes bytes (mem_free() it). */
static void *mem_table(pn_net_t *net, size_t bytes)
{
    void *p = mem_alloc(net, bytes);
    if (p && mem_dirty(net, p, bytes))
        memset(p, 0, bytes);
    return p;
}

/* The chunks of the net's strings after the first: from the pool while it
 * has room, else mappings of ordinary pages of their own (a chunk fills
 * as strings come: a huge page would be resident whole from its first
 * string on), kept in the net's list to be unmapped with it. */
static void *chunk_alloc(void *ctx, size_t bytes)
{
    pn_net_t *net = ctx;
    if (bytes > BIG_BYTES)
        return NULL;
    if (bytes < BIG_MIN) {
        void *p = pool_alloc(net, pool_round(bytes));
        if (p)
            return p;
    }
    if (pni_grow((void **)&net->chunks, &net->cap_chunks, net->nchunks + 1,
                 sizeof *net->chunks))
        return NULL;
    void *p = page_map(bytes);
    if (p) {
        pchunk_t c = {p, page_round(bytes)};
        net->chunks[net->nchunks++] = c;
    }
    return p;
}

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t x = 2166136261u; /* FNV-1a, then mixed: the table takes the
                                 low bits */
    for (size_t i = 0; i < n; i++) {
        x ^= (unsigned char)s[i];
        x *= 16777619u;
    }
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return x;
}

/* The id of what a reference names. */
static const char *ref_key(const pn_net_t *net, uint32_t ref)
{
    uint32_t kind = (ref - 1) >> 30;
    size_t i = (ref - 1) & (((uint32_t)1 << 30) - 1);
    return kind == PN_PLACE ? net->places[i].id
           : kind == PN_TRANSITION ? net->transitions[i].id
                                   : net->arcs[i].id;
}

/* A numbered id: its prefix length and number; 0 when id is none. */
static int numbered(const char *id, size_t len, size_t *plen, uint32_t *num)
{
    size_t d = 0;
    while (d < len && d < 10 && id[len - 1 - d] >= '0' &&
           id[len - 1 - d] <= '9')
        d++;
    if (d == 0 || d > 9 || (d > 1 && id[len - d] == '0') ||
        (d < len && id[len - 1 - d] >= '0' && id[len - 1 - d] <= '9'))
        return 0;
    uint32_t v = 0;
    for (size_t i = len - d; i < len; i++)
        v = v * 10 + (uint32_t)(id[i] - '0');
    *plen = len - d;
    *num = v;
    return 1;
}

/* memcmp(a, b, n) == 0 for the few bytes of a prefix, without a call. */
static int same_bytes(const char *a, const char *b, size_t n)
{
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    while (n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

/* The slot of number num in family f; NULL when its array has none. */
static uint32_t *fam_slot(const fam_t *f, uint32_t num)
{
    return num >= f->base && num - f->base < f->cap ? &f->slot[num - f->base]
                                                    : NULL;
}

static fam_t *fam_find(const pn_net_t *net, const char *p, size_t n,
                       uint32_t h)
{
    if (!net->fcap)
        return NULL;
    size_t mask = net->fcap - 1;
    for (size_t i = h & mask; net->fslots[i]; i = (i + 1) & mask) {
        fam_t *f = &net->fams[net->fslots[i] - 1];
        if (f->plen == n && same_bytes(f->prefix, p, n))
            return f;
    }
    return NULL;
}

static uint32_t hash_find(const pn_net_t *net, const char *id, uint32_t h)
{
    if (!net->hcap)
        return 0;
    size_t mask = net->hcap - 1;
    for (size_t i = h & mask; net->hslots[i].ref; i = (i + 1) & mask)
        if (net->hslots[i].hash == h &&
            !strcmp(ref_key(net, net->hslots[i].ref), id))
            return net->hslots[i].ref;
    return 0;
}

/* The reference of id, 0 when none.  *f gets its family (NULL: none),
 * *num its number. */
static uint32_t idx_find(const pn_net_t *net, const char *id, fam_t **fp,
                         uint32_t *num)
{
    size_t len = strlen(id), plen;
    fam_t *f = NULL;
    if (numbered(id, len, &plen, num)) {
        f = fam_find(net, id, plen, hash_bytes(id, plen));
        const uint32_t *s = f ? fam_slot(f, *num) : NULL;
        if (s && *s)
            return *s;
    }
    if (fp)
        *fp = f;
    if (f && !f->spilled)
        return 0;
    return net->hused ? hash_find(net, id, hash_bytes(id, len)) : 0;
}

static pn_status_t hash_grow(pn_net_t *net)
{
    size_t cap = net->hcap ? net->hcap * 2 : 64;
    if (cap > SIZE_MAX / sizeof(hslot_t))
        return PN_ENOMEM;
    hslot_t *slots = mem_table(net, cap * sizeof *slots);
    if (!slots)
        return PN_ENOMEM;
    for (size_t i = 0; i < net->hcap; i++) {
        if (!net->hslots[i].ref)
            continue;
        size_t j = net->hslots[i].hash & (cap - 1);
        while (slots[j].ref)
            j = (j + 1) & (cap - 1);
        slots[j] = net->hslots[i];
    }
    mem_free(net, net->hslots, net->hcap * sizeof *net->hslots);
    net->hslots = slots;
    net->hcap = cap;
    return PN_OK;
}

/* A new family for the prefix p (n bytes); NULL when out of memory. */
static fam_t *fam_new(pn_net_t *net, const char *p, size_t n)
{
    if ((net->nfams + 1) * 2 > net->fcap) {
        size_t cap = net->fcap ? net->fcap * 2 : 16;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return NULL;
        for (size_t k = 0; k < net->nfams; k++) {
            const fam_t *f = &net->fams[k];
            size_t j = hash_bytes(f->prefix, f->plen) & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = (uint32_t)(k + 1);
        }
        free(net->fslots);
        net->fslots = slots;
        net->fcap = cap;
    }
    if (pni_grow((void **)&net->fams, &net->cap_fams, net->nfams + 1,
                 sizeof *net->fams))
        return NULL;
    const char *c = pni_arena_strndup(&net->strings, p, n);
    if (!c)
        return NULL;
    fam_t *f = &net->fams[net->nfams];
    memset(f, 0, sizeof *f);
    f->prefix = c;
    f->plen = n;
    size_t j = hash_bytes(p, n) & (net->fcap - 1);
    while (net->fslots[j])
        j = (j + 1) & (net->fcap - 1);
    net->fslots[j] = (uint32_t)(++net->nfams);
    return f;
}

/* Adds a copy of id for kind and index, the copy in *out: PN_EDUPID when
 * the id is taken (nothing is copied then). */
static pn_status_t idx_put(pn_net_t *net, const char *id, pn_object_t kind,
                           size_t index, const char **out)
{
    if (index > REF_INDEX_MAX)
        return PN_ENOMEM;
    uint32_t ref = 1 + ((uint32_t)kind << 30 | (uint32_t)index), num = 0;
    size_t len = strlen(id), plen = 0;
    int isnum = numbered(id, len, &plen, &num);
    fam_t *f = isnum ? fam_find(net, id, plen, hash_bytes(id, plen)) : NULL;
    const uint32_t *s0 = f ? fam_slot(f, num) : NULL;
    if (s0 && *s0)
        return PN_EDUPID;
    uint32_t h = 0;
    int hashed = 0;
    if ((!f || f->spilled) && net->hused) {
        h = hash_bytes(id, len);
        hashed = 1;
        if (hash_find(net, id, h))
            return PN_EDUPID;
    }
    const char *c = pni_arena_strndup(&net->strings, id, len);
    if (!c)
        return PN_ENOMEM;
    if (isnum && !f && !net->fams_closed) {
        if (net->nfams >= 64 + net->nids / 4)
            net->fams_closed = 1;
        else if (!(f = fam_new(net, id, plen)))
            return PN_ENOMEM;
    }
    if (f && !f->cap)
        f->base = num < 64 ? 0 : num & ~(uint32_t)15;
    size_t rel = f && num >= f->base ? num - f->base : SIZE_MAX;
    if (f && rel >= f->cap && rel < 4 * f->count + 64) {
        size_t old = f->cap;
        if (mem_grow(net, (void **)&f->slot, &f->cap, rel + 1,
                     sizeof *f->slot))
            return PN_ENOMEM;
        if (mem_dirty(net, f->slot, f->cap * sizeof *f->slot))
            memset(f->slot + old, 0, (f->cap - old) * sizeof *f->slot);
    }
    if (f && rel < f->cap) {
        f->slot[rel] = ref;
        f->count++;
    } else {
        if ((net->hused + 1) * 4 > net->hcap * 3 && hash_grow(net))
            return PN_ENOMEM;
        if (!hashed)
            h = hash_bytes(id, len);
        size_t mask = net->hcap - 1, i = h & mask;
        while (net->hslots[i].ref)
            i = (i + 1) & mask;
        net->hslots[i].hash = h;
        net->hslots[i].ref = ref;
        net->hused++;
        if (f)
            f->spilled = 1;
    }
    net->nids++;
    *out = c;
    return PN_OK;
}

/* Frees the id index (when the net is freed). */
static void idx_free(pn_net_t *net)
{
    for (size_t i = 0; i < net->nfams; i++)
        mem_drop(net, net->fams[i].slot,
                 net->fams[i].cap * sizeof *net->fams[i].slot);
    free(net->fams);
    free(net->fslots);
    mem_drop(net, net->hslots, net->hcap * sizeof *net->hslots);
}

const char *pn_arc_kind_name(pn_arc_kind_t kind)
{
    switch (kind) {
    case PN_ARC_NORMAL: return "normal";
    case PN_ARC_INHIBITOR: return "inhibitor";
    case PN_ARC_READ: return "read";
    case PN_ARC_RESET: return "reset";
    }
    return "?";
}

const char *pn_timing_name(pn_timing_t timing)
{
    switch (timing) {
    case PN_TIMING_NONE: return "none";
    case PN_TIMING_IMMEDIATE: return "immediate";
    case PN_TIMING_EXPONENTIAL: return "exponential";
    case PN_TIMING_DETERMINISTIC: return "deterministic";
    }
    return "?";
}

const char *pn_server_name(pn_server_t server)
{
    switch (server) {
    case PN_SERVER_SINGLE: return "single";
    case PN_SERVER_INFINITE: return "infinite";
    case PN_SERVER_K: return "k";
    }
    return "?";
}

pn_status_t pn_timing_parse(const char *name, pn_timing_t *timing)
{
    for (int k = 0; name && k < PN_TIMING_KINDS; k++)
        if (!strcmp(name, pn_timing_name((pn_timing_t)k))) {
            if (timing)
                *timing = (pn_timing_t)k;
            return PN_OK;
        }
    return PN_EINVAL;
}

pn_status_t pn_server_parse(const char *name, pn_server_t *server)
{
    for (int k = 0; name && k <= PN_SERVER_K; k++)
        if (!strcmp(name, pn_server_name((pn_server_t)k))) {
            if (server)
                *server = (pn_server_t)k;
            return PN_OK;
        }
    return PN_EINVAL;
}

pn_net_t *pn_net_new(const char *id)
{
    pn_net_t *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    pni_arena_init(&net->strings);
    net->strings.alloc = chunk_alloc;
    net->strings.ctx = net;
    if ((id && pn_net_set_id(net, id) != PN_OK) ||
        pn_net_set_type(net, PN_PTNET_TYPE) != PN_OK) {
        pn_net_free(net);
        return NULL;
    }
    return net;
}

void pn_net_free(pn_net_t *net)
{
    if (!net)
        return;
    idx_free(net);
    pni_arena_free(&net->strings);
    mem_drop(net, net->places, net->cap_places * sizeof *net->places);
    mem_drop(net, net->transitions,
             net->cap_transitions * sizeof *net->transitions);
    mem_drop(net, net->arcs, net->cap_arcs * sizeof *net->arcs);
    for (size_t i = 0; i < net->nchunks; i++)
        munmap(net->chunks[i].base, net->chunks[i].size);
    free(net->chunks);
    for (size_t i = 0; i < net->npool; i++)
        munmap(net->pool[i], BIG_BYTES);
    free(net->holes);
    free(net->pages);
    free(net->tools);
    free(net->warnings);
    free(net->params);
    free(net);
}

static pn_status_t set_str(pn_net_t *net, const char **field, const char *s)
{
    if (!s) {
        *field = NULL;
        return PN_OK;
    }
    const char *c = pni_arena_strdup(&net->strings, s);
    if (!c)
        return PN_ENOMEM;
    *field = c;
    return PN_OK;
}

pn_status_t pn_net_set_id(pn_net_t *net, const char *id)
{
    return net ? set_str(net, &net->id, id) : PN_EINVAL;
}
pn_status_t pn_net_set_name(pn_net_t *net, const char *name)
{
    return net ? set_str(net, &net->name, name) : PN_EINVAL;
}
pn_status_t pn_net_set_type(pn_net_t *net, const char *type)
{
    return net ? set_str(net, &net->type, type) : PN_EINVAL;
}
const char *pn_net_id(const pn_net_t *net) { return net ? net->id : NULL; }
const char *pn_net_name(const pn_net_t *net) { return net ? net->name : NULL; }
const char *pn_net_type(const pn_net_t *net) { return net ? net->type : NULL; }

/* Copies id into the arena and reserves it; *out gets the copy. */
static pn_status_t reserve_id(pn_net_t *net, const char *id, pn_object_t kind,
                              size_t index, const char **out)
{
    if (!id || !*id)
        return PN_EINVAL;
    return idx_put(net, id, kind, index, out);
}

pn_status_t pn_net_add_place(pn_net_t *net, const char *id, const char *name,
                             uint64_t marking, size_t *index)
{
    if (!net)
        return PN_EINVAL;
    if (marking > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (mem_grow(net, (void **)&net->places, &net->cap_places,
                 net->nplaces + 1, sizeof *net->places))
        return PN_ENOMEM;
    pn_place_t p = {0};
    p.marking = marking;
    p.page = PN_NONE;
    /* a name that repeats the id (as most generated nets have) is the
     * id's copy */
    int same = name && id && !strcmp(name, id);
    if (name && !same && !(p.name = pni_arena_strdup(&net->strings, name)))
        return PN_ENOMEM;
    pn_status_t st = reserve_id(net, id, PN_PLACE, net->nplaces, &p.id);
    if (st)
        return st;
    if (same)
        p.name = p.id;
    net->places[net->nplaces] = p;
    if (index)
        *index = net->nplaces;
    net->nplaces++;
    return PN_OK;
}

pn_status_t pn_net_add_transition(pn_net_t *net, const char *id,
                                  const char *name, size_t *index)
{
    if (!net)
        return PN_EINVAL;
    if (mem_grow(net, (void **)&net->transitions, &net->cap_transitions,
                 net->ntransitions + 1, sizeof *net->transitions))
        return PN_ENOMEM;
    pn_transition_t t = {0};
    t.page = PN_NONE;
    t.timing = PN_TIMING_NONE;
    t.rate = PN_DEFAULT_RATE;
    t.priority = PN_DEFAULT_PRIORITY;
    t.server = PN_SERVER_SINGLE;
    t.servers = 1;
    int same = name && id && !strcmp(name, id);
    if (name && !same && !(t.name = pni_arena_strdup(&net->strings, name)))
        return PN_ENOMEM;
    pn_status_t st = reserve_id(net, id, PN_TRANSITION, net->ntransitions,
                                &t.id);
    if (st)
        return st;
    if (same)
        t.name = t.id;
    net->transitions[net->ntransitions] = t;
    if (index)
        *index = net->ntransitions;
    net->ntransitions++;
    return PN_OK;
}

pn_status_t pn_net_add_arc_at(pn_net_t *net, const char *id, pn_arc_dir_t dir,
                              size_t place, size_t transition, uint64_t weight,
                              pn_arc_kind_t kind, size_t *index)
{
    if (!net || (dir != PN_DIR_PT && dir != PN_DIR_TP) ||
        (unsigned)kind > PN_ARC_RESET)
        return PN_EINVAL;
    if (place >= net->nplaces || transition >= net->ntransitions)
        return PN_EUNKNOWN;
    if (kind != PN_ARC_NORMAL && dir != PN_DIR_PT)
        return PN_EARC;
    if (kind == PN_ARC_RESET)
        weight = 1;
    if (weight == 0)
        return PN_EINVAL;
    if (weight > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (mem_grow(net, (void **)&net->arcs, &net->cap_arcs, net->narcs + 1,
                 sizeof *net->arcs))
        return PN_ENOMEM;
    pn_arc_t a = {0};
    a.kind = kind;
    a.dir = dir;
    a.place = place;
    a.transition = transition;
    a.weight = weight;
    if (id) {
        pn_status_t st = reserve_id(net, id, PN_ARC, net->narcs, &a.id);
        if (st)
            return st;
    }
    net->arcs[net->narcs] = a;
    if (index)
        *index = net->narcs;
    net->narcs++;
    return PN_OK;
}

pn_status_t pn_net_add_arc(pn_net_t *net, const char *id, const char *source,
                           const char *target, uint64_t weight,
                           pn_arc_kind_t kind, size_t *index)
{
    if (!net || !source || !target)
        return PN_EINVAL;
    pn_object_t ks, kt;
    size_t is, it;
    if (pn_net_find(net, source, &ks, &is) || pn_net_find(net, target, &kt, &it) ||
        (ks != PN_PLACE && ks != PN_TRANSITION) ||
        (kt != PN_PLACE && kt != PN_TRANSITION))
        return PN_EUNKNOWN;
    if (ks == kt)
        return PN_EARC;
    if (ks == PN_PLACE)
        return pn_net_add_arc_at(net, id, PN_DIR_PT, is, it, weight, kind,
                                 index);
    return pn_net_add_arc_at(net, id, PN_DIR_TP, it, is, weight, kind,
                             index);
}

pn_status_t pn_net_add_page(pn_net_t *net, const char *id, const char *name,
                            size_t parent, size_t *index)
{
    if (!net || (parent != PN_NONE && parent >= net->npages))
        return PN_EINVAL;
    if (pni_grow((void **)&net->pages, &net->cap_pages, net->npages + 1,
                 sizeof *net->pages))
        return PN_ENOMEM;
    pn_page_t pg = {0};
    pg.parent = parent;
    if (name && !(pg.name = pni_arena_strdup(&net->strings, name)))
        return PN_ENOMEM;
    /* page ids are a grouping only: kept, but outside the node namespace
     * (tools reuse them, e.g. WoPeD names a subprocess page after its
     * transition) */
    if (id && !(pg.id = pni_arena_strdup(&net->strings, id)))
        return PN_ENOMEM;
    net->pages[net->npages] = pg;
    if (index)
        *index = net->npages;
    net->npages++;
    return PN_OK;
}

static int owner_ok(const pn_net_t *net, pn_object_t kind, size_t index)
{
    switch (kind) {
    case PN_NET: return 1;
    case PN_PAGE: return index < net->npages;
    case PN_PLACE: return index < net->nplaces;
    case PN_TRANSITION: return index < net->ntransitions;
    case PN_ARC: return index < net->narcs;
    }
    return 0;
}

pn_status_t pn_net_add_toolspecific(pn_net_t *net, pn_object_t owner,
                                    size_t index, const char *tool,
                                    const char *version, const char *xml)
{
    if (!net || !xml || !owner_ok(net, owner, index))
        return PN_EINVAL;
    if (pni_grow((void **)&net->tools, &net->cap_tools, net->ntools + 1,
                 sizeof *net->tools))
        return PN_ENOMEM;
    pn_toolspecific_t t = {0};
    t.owner = owner;
    t.index = owner == PN_NET ? 0 : index;
    if ((tool && !(t.tool = pni_arena_strdup(&net->strings, tool))) ||
        (version && !(t.version = pni_arena_strdup(&net->strings, version))) ||
        !(t.xml = pni_arena_strdup(&net->strings, xml)))
        return PN_ENOMEM;
    net->tools[net->ntools++] = t;
    return PN_OK;
}

pn_status_t pn_net_set_marking(pn_net_t *net, size_t place, uint64_t marking)
{
    if (!net || place >= net->nplaces)
        return PN_EINVAL;
    if (marking > PN_TOKENS_MAX)
        return PN_ERANGE;
    net->places[place].marking = marking;
    return PN_OK;
}

pn_status_t pn_net_set_arc_weight(pn_net_t *net, size_t arc, uint64_t weight)
{
    if (!net || arc >= net->narcs || weight == 0)
        return PN_EINVAL;
    if (weight > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (net->arcs[arc].kind == PN_ARC_RESET)
        return PN_EINVAL;
    net->arcs[arc].weight = weight;
    return PN_OK;
}

pn_status_t pn_net_set_capacity(pn_net_t *net, size_t place, uint64_t capacity)
{
    if (!net || place >= net->nplaces)
        return PN_EINVAL;
    if (capacity > PN_TOKENS_MAX)
        return PN_ERANGE;
    net->places[place].capacity = capacity;
    return PN_OK;
}

pn_status_t pn_net_set_timing(pn_net_t *net, size_t transition,
                              pn_timing_t timing, double rate, int priority,
                              pn_server_t server)
{
    if (!net || transition >= net->ntransitions ||
        (unsigned)timing >= PN_TIMING_KINDS ||
        (unsigned)server > PN_SERVER_K || !isfinite(rate) ||
        rate < 0 || priority < 0)
        return PN_EINVAL;
    pn_transition_t *t = &net->transitions[transition];
    if (timing == PN_TIMING_NONE) {
        rate = PN_DEFAULT_RATE;
        priority = PN_DEFAULT_PRIORITY;
        server = PN_SERVER_SINGLE;
    }
    t->timing = timing;
    t->rate = rate == 0 ? 0 : rate; /* no -0 */
    t->priority = priority;
    t->server = server;
    t->servers = server == PN_SERVER_INFINITE ? 0
                 : server == PN_SERVER_K      ? 2
                                              : 1;
    t->timing_lost = 0;
    t->rate_expr = NULL;
    return PN_OK;
}

pn_status_t pn_net_set_servers(pn_net_t *net, size_t transition,
                               unsigned servers)
{
    if (!net || transition >= net->ntransitions)
        return PN_EINVAL;
    pn_transition_t *t = &net->transitions[transition];
    if (t->timing != PN_TIMING_EXPONENTIAL &&
        t->timing != PN_TIMING_DETERMINISTIC)
        return servers == 1 ? PN_OK : PN_EINVAL;
    t->servers = servers;
    t->server = servers == 0   ? PN_SERVER_INFINITE
                : servers == 1 ? PN_SERVER_SINGLE
                               : PN_SERVER_K;
    return PN_OK;
}

void pni_net_timing_lost(pn_net_t *net, size_t transition)
{
    if (net && transition < net->ntransitions)
        net->transitions[transition].timing_lost = 1;
}

pn_status_t pni_net_set_rate_expr(pn_net_t *net, size_t transition,
                                  const char *expr)
{
    if (!net || transition >= net->ntransitions)
        return PN_EINVAL;
    return set_str(net, &net->transitions[transition].rate_expr, expr);
}

pn_status_t pni_net_add_rate_param(pn_net_t *net, const char *id,
                                   const char *name, const char *expr,
                                   const char *xml)
{
    const char *v[4] = {NULL, NULL, NULL, NULL};
    if (pni_grow((void **)&net->params, &net->cap_params,
                 4 * (net->nparams + 1), sizeof *net->params) ||
        set_str(net, &v[0], id) || set_str(net, &v[1], name) ||
        set_str(net, &v[2], expr ? expr : "") || set_str(net, &v[3], xml))
        return PN_ENOMEM;
    memcpy(net->params + 4 * net->nparams++, v, sizeof v);
    return PN_OK;
}

size_t pni_net_rate_param_count(const pn_net_t *net)
{
    return net->nparams;
}

void pni_net_rate_param(const pn_net_t *net, size_t i, const char **id,
                        const char **name, const char **expr,
                        const char **xml)
{
    *id = net->params[4 * i];
    *name = net->params[4 * i + 1];
    *expr = net->params[4 * i + 2];
    *xml = net->params[4 * i + 3];
}

pn_status_t pn_net_set_position(pn_net_t *net, pn_object_t kind, size_t index,
                                double x, double y)
{
    if (!net || !(x == x) || !(y == y)) /* NaN is no position */
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces) {
        net->places[index].has_position = 1;
        net->places[index].x = x;
        net->places[index].y = y;
    } else if (kind == PN_TRANSITION && index < net->ntransitions) {
        net->transitions[index].has_position = 1;
        net->transitions[index].x = x;
        net->transitions[index].y = y;
    } else
        return PN_EINVAL;
    return PN_OK;
}

pn_status_t pn_net_set_label_offset(pn_net_t *net, pn_object_t kind,
                                    size_t index, double dx, double dy)
{
    if (!net || !(dx == dx) || !(dy == dy))
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces) {
        net->places[index].has_label = 1;
        net->places[index].label_dx = dx;
        net->places[index].label_dy = dy;
    } else if (kind == PN_TRANSITION && index < net->ntransitions) {
        net->transitions[index].has_label = 1;
        net->transitions[index].label_dx = dx;
        net->transitions[index].label_dy = dy;
    } else
        return PN_EINVAL;
    return PN_OK;
}

pn_status_t pn_net_set_page(pn_net_t *net, pn_object_t kind, size_t index,
                            size_t page)
{
    if (!net || (page != PN_NONE && page >= net->npages))
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces)
        net->places[index].page = page;
    else if (kind == PN_TRANSITION && index < net->ntransitions)
        net->transitions[index].page = page;
    else
        return PN_EINVAL;
    return PN_OK;
}

pn_status_t pn_net_set_node_name(pn_net_t *net, pn_object_t kind,
                                 size_t index, const char *name)
{
    if (!net)
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces)
        return set_str(net, &net->places[index].name, name);
    if (kind == PN_TRANSITION && index < net->ntransitions)
        return set_str(net, &net->transitions[index].name, name);
    if (kind == PN_PAGE && index < net->npages)
        return set_str(net, &net->pages[index].name, name);
    return PN_EINVAL;
}

size_t pn_net_place_count(const pn_net_t *net) { return net ? net->nplaces : 0; }
size_t pn_net_transition_count(const pn_net_t *net)
{
    return net ? net->ntransitions : 0;
}
size_t pn_net_arc_count(const pn_net_t *net) { return net ? net->narcs : 0; }
size_t pn_net_page_count(const pn_net_t *net) { return net ? net->npages : 0; }
size_t pn_net_toolspecific_count(const pn_net_t *net)
{
    return net ? net->ntools : 0;
}

const pn_place_t *pn_net_place(const pn_net_t *net, size_t i)
{
    return net && i < net->nplaces ? &net->places[i] : NULL;
}
const pn_transition_t *pn_net_transition(const pn_net_t *net, size_t i)
{
    return net && i < net->ntransitions ? &net->transitions[i] : NULL;
}
const pn_arc_t *pn_net_arc(const pn_net_t *net, size_t i)
{
    return net && i < net->narcs ? &net->arcs[i] : NULL;
}
const pn_page_t *pn_net_page(const pn_net_t *net, size_t i)
{
    return net && i < net->npages ? &net->pages[i] : NULL;
}
const pn_toolspecific_t *pn_net_toolspecific(const pn_net_t *net, size_t i)
{
    return net && i < net->ntools ? &net->tools[i] : NULL;
}

pn_status_t pn_net_find(const pn_net_t *net, const char *id,
                        pn_object_t *kind, size_t *index)
{
    if (!net || !id)
        return PN_EINVAL;
    uint32_t num, ref = idx_find(net, id, NULL, &num);
    if (!ref)
        return PN_EUNKNOWN;
    if (kind)
        *kind = (pn_object_t)((ref - 1) >> 30);
    if (index)
        *index = (ref - 1) & (((uint32_t)1 << 30) - 1);
    return PN_OK;
}

void pn_net_count_arcs(const pn_net_t *net, size_t counts[PN_ARC_KINDS])
{
    for (int k = 0; k < PN_ARC_KINDS; k++)
        counts[k] = 0;
    for (size_t i = 0; net && i < net->narcs; i++)
        counts[net->arcs[i].kind]++;
}

void pn_net_count_timing(const pn_net_t *net,
                         size_t counts[PN_TIMING_KINDS])
{
    for (int k = 0; k < PN_TIMING_KINDS; k++)
        counts[k] = 0;
    for (size_t i = 0; net && i < net->ntransitions; i++)
        counts[net->transitions[i].timing]++;
}

uint64_t pn_net_total_tokens(const pn_net_t *net)
{
    uint64_t sum = 0;
    for (size_t i = 0; net && i < net->nplaces; i++) {
        uint64_t m = net->places[i].marking;
        sum = sum > UINT64_MAX - m ? UINT64_MAX : sum + m;
    }
    return sum;
}

size_t pn_net_warning_count(const pn_net_t *net)
{
    return net ? net->nwarnings : 0;
}
const char *pn_net_warning(const pn_net_t *net, size_t i)
{
    return net && i < net->nwarnings ? net->warnings[i] : NULL;
}
pn_status_t pn_net_add_warning(pn_net_t *net, const char *text)
{
    if (!net || !text)
        return PN_EINVAL;
    if (pni_grow((void **)&net->warnings, &net->cap_warnings,
                 net->nwarnings + 1, sizeof *net->warnings))
        return PN_ENOMEM;
    const char *c = pni_arena_strdup(&net->strings, text);
    if (!c)
        return PN_ENOMEM;
    net->warnings[net->nwarnings++] = c;
    return PN_OK;
}

void pni_net_clear_pages(pn_net_t *net)
{
    net->npages = 0;
    for (size_t i = 0; i < net->nplaces; i++)
        net->places[i].page = PN_NONE;
    for (size_t i = 0; i < net->ntransitions; i++)
        net->transitions[i].page = PN_NONE;
    for (size_t i = 0; i < net->ntools; i++)
        if (net->tools[i].owner == PN_PAGE) {
            net->tools[i].owner = PN_NET;
            net->tools[i].index = 0;
        }
}
