/*
 * The state space: breadth-first search over packed markings, with the
 * engine's own firing rule (engine_private.h) for the successors.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "engine_private.h"
#include "lib_private.h"
#include "reach.h"

#define NO_STATE UINT32_MAX
/* the most states one exploration holds (indices are 32-bit) */
#define STATES_MAX (UINT32_MAX - 1)
/* bytes after the last packed state, so that a whole word can be read
 * wherever a state's bits end */
#define PACK_PAD 16
/* the hash index is grown by half past this load (numerator over 16) */
#define LOAD_NUM 13
/* the progress report is called every TICKS successors computed: often
 * enough for a report twice a second, for a clock read a few microseconds
 * apart at least */
#define TICKS 4096

/* A sum as an answer: its value, or UINT64_MAX ("that or more") past
 * it. */
static uint64_t saturated(unsigned __int128 v)
{
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

struct pn_reach {
    pn_engine_t *engine;
    uint32_t np, nt;
    pn_semantics_t sem;
    /* markings, bit-packed: place p takes bits[p] bits (0 .. 64; a count
     * up to lim[p]), the places one after the other, stride bytes a
     * state, every state in one arena (data) */
    uint8_t *bits;
    uint64_t *lim;
    size_t *off;            /* bit offset of each place in a state */
    /* what the net's invariants let go unstored (kind[p]): a count of
     * bits[p] bits (PK_PLAIN); a member of a one-hot group, a set of
     * places that the net's structure proves hold one token at most
     * together (PK_GROUP: grp[p] its group, gidx[p] its index in it),
     * stored as one code after the counts; a count that an exact
     * P-semiflow gives from the others (PK_DERIVED) */
    unsigned char *kind;
    uint32_t *grp, *gidx;
    uint32_t ngroups;
    uint32_t *g_off, *g_pl; /* group g: places g_pl[g_off[g] .. g_off[g+1]) */
    uint8_t *g_w;           /* bits of its code */
    unsigned char *g_exact; /* exactly one token: the code is the marked
                               member's index; else 0 none, index + 1 */
    size_t *g_bit;          /* bit offset of its code */
    /* the derived places, in the order they are computed (each from the
     * stored places and those before it): d_place[k] = (d_c[k] - sum of
     * d_a[j] * M(d_q[j]), j in d_off[k] .. d_off[k + 1]) / d_div[k] */
    uint32_t nder;
    uint32_t *d_place, *d_off, *d_q;
    int64_t *d_a, *d_c, *d_div;
    size_t stride;
    uint8_t *data;
    size_t nstates, cap_states;
    uint64_t widenings;     /* times the stored markings were repacked */
    uint64_t repacked;      /* fields repacked, over all those times */
    unsigned char *changed; /* per place: some transition changes it */
    int keep_parent;
    uint32_t *parent;       /* BFS parent of each state (keep_parent) */
    uint8_t *slots;         /* hash index of the states (open addressing,
                               linear probing): slot_w bytes a slot, all
                               ones when empty, else the state's number
                               in the low slot_bits bits and a tag of its
                               hash above (3 bytes a slot while the
                               numbers leave a tag of 4 bits there) */
    size_t nslots;
    unsigned slot_bits, slot_w;
    uint32_t slot_empty;
    /* interleaving: the places each transition changes (normal arcs of
     * unequal weights in and out, reset arcs), chg_idx[chg_off[t] ..
     * chg_off[t + 1]); a successor's packed marking is its parent's
     * (pkey, of state pkey_for) with these fields rewritten */
    uint32_t *chg_off, *chg_idx;
    uint64_t *pkey, *undo;
    uint32_t pkey_for;
    /* the graph, when kept: successors of state i are
     * succ[succ_off[i] .. succ_off[i + 1]) */
    int keep_graph;
    uint64_t *succ_off;
    size_t cap_off;
    uint32_t *succ;
    size_t nsucc, cap_succ;
    /* what was found */
    pn_reach_end_t end;
    uint64_t edges, dead;
    uint32_t first_dead;
    uint64_t max_place, max_total;
    uint64_t *bound, *lowest; /* per place: largest and smallest count */
    unsigned char *fires;     /* per transition */
    /* scratch */
    uint64_t *m, *pend, *next, *tmp, *cmp;
    uint64_t *key;          /* a packed marking, whole words */
    uint32_t *en, *set, *use;
    unsigned char *competes;
    uint64_t *stack;        /* maximal steps: a budget and pend per level */
    /* maximal steps on a net with reset arcs (and no capacities): the
     * normal inputs of each transition, merged (ni_idx, ni_w from
     * ni_off[t] to ni_off[t + 1]), its reset places (rs_idx from
     * rs_off[t]), a zeroed counter per place (ucons) and a firing order
     * (order) for each set */
    int resets;
    uint32_t *ni_off, *ni_idx, *rs_off, *rs_idx, *ucons, *order;
    uint64_t *ni_w;
    /* the cut of both (no capacities): last[k], the last position of the
     * enabled list that takes from or empties a place en[k] takes from
     * or empties; cl_idx[cl_off[i] .. cl_off[i + 1]): the k whose last
     * is i; skipped[k]: en[k] is left out on the current branch; rz[p]:
     * transitions of the branch's set that empty p (a zeroed counter per
     * place) */
    uint32_t *last, *cl_off, *cl_idx, *rz;
    unsigned char *skipped;
    /* a hook on each new state (the queries): nonzero stops the search */
    int (*hook)(pn_reach_t *r, uint32_t state, const uint64_t *m, void *ctx);
    void *hook_ctx;
    int stopped;
    uint64_t max_memory;    /* 0: no limit */
    uint64_t max_states;    /* 0: no limit; never more states stored */
    uint64_t token_bound;   /* 0: no limit */
    pn_reach_end_t limit;   /* the limit that stopped a marking's
                               successors (PN_REACH_COMPLETE: none) */
    /* the progress report, called every TICKS successors computed (the
     * sets tried too, with maximal steps) or markings expanded */
    void (*progress)(const pn_reach_t *r, void *ctx);
    void *progress_ctx;
    uint32_t ticks;
    /* unboundedness: with interleaving and only normal and read arcs, a
     * new marking that strictly covers one of its BFS ancestors proves
     * the net unbounded.  Only the records of the total along a path are
     * compared (see pn_reach_unbounded()): record[i] is the last state on
     * the path to i (i included) whose total passes every total before it
     * on that path; delta[t]: what t adds to the total */
    int cover_check;
    int64_t *delta;
    uint32_t *record;
    uint32_t cover, covered;
    int bounded;            /* every place has a bound the net's structure
                               proves (a capacity, a semiflow, no
                               transition changing it) */
};

void pn_reach_options_init(pn_reach_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->semantics = PN_SEM_INTERLEAVING;
    o->unbounded = 1;
}

/* Bytes held by the search's growing tables (states, parents, index,
 * graph). */
/* Bytes a state takes beside its packed marking: parent, record. */
static uint64_t per_state_extra(const pn_reach_t *r)
{
    return (r->keep_parent ? 4 : 0) + (r->cover_check ? 4 : 0);
}

static uint64_t bytes_used(const pn_reach_t *r)
{
    return (uint64_t)r->cap_states * (r->stride + per_state_extra(r)) +
           (r->cap_states ? PACK_PAD : 0) +
           (uint64_t)r->nslots * r->slot_w + (uint64_t)r->cap_off * 8 +
           (uint64_t)r->cap_succ * 4;
}

/* Whether growing by extra bytes would pass the memory limit. */
static int over_memory(const pn_reach_t *r, uint64_t extra)
{
    return r->max_memory && bytes_used(r) + extra > r->max_memory;
}

void pn_reach_defaults(pn_reach_options_t *o) { pn_reach_options_init(o); }

void pn_reach_free(pn_reach_t *r)
{
    if (!r)
        return;
    pn_engine_free(r->engine);
    free(r->data);
    free(r->bits);
    free(r->lim);
    free(r->off);
    free(r->kind);
    free(r->grp);
    free(r->gidx);
    free(r->g_off);
    free(r->g_pl);
    free(r->g_w);
    free(r->g_exact);
    free(r->g_bit);
    free(r->d_place);
    free(r->d_off);
    free(r->d_q);
    free(r->d_a);
    free(r->d_c);
    free(r->d_div);
    free(r->changed);
    free(r->chg_off);
    free(r->chg_idx);
    free(r->pkey);
    free(r->undo);
    free(r->cmp);
    free(r->parent);
    free(r->slots);
    free(r->succ_off);
    free(r->succ);
    free(r->bound);
    free(r->lowest);
    free(r->fires);
    free(r->m);
    free(r->pend);
    free(r->next);
    free(r->tmp);
    free(r->key);
    free(r->en);
    free(r->set);
    free(r->use);
    free(r->competes);
    free(r->stack);
    free(r->ni_off);
    free(r->ni_idx);
    free(r->ni_w);
    free(r->rs_off);
    free(r->rs_idx);
    free(r->ucons);
    free(r->order);
    free(r->last);
    free(r->cl_off);
    free(r->cl_idx);
    free(r->skipped);
    free(r->rz);
    free(r->delta);
    free(r->record);
    free(r);
}

/* ---- packed markings ---------------------------------------------------- */

static uint64_t bits_max(unsigned w)
{
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

static unsigned bits_for(uint64_t v)
{
    unsigned w = 0;
    while (w < 64 && v > bits_max(w))
        w++;
    return w;
}

static uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

enum { PK_PLAIN, PK_GROUP, PK_DERIVED };

/* A writer of fields one after the other into whole words. */
typedef struct {
    uint64_t *dst, acc;
    unsigned fill;
    size_t o;
} bitwr_t;

static inline void bitwr_put(bitwr_t *b, uint64_t v, unsigned w)
{
    b->acc |= v << b->fill;
    if (b->fill + w >= 64) {
        b->dst[b->o++] = b->acc;
        b->acc = b->fill ? v >> (64 - b->fill) : 0;
        b->fill = b->fill + w - 64;
    } else {
        b->fill += w;
    }
}

/* The code of group g in marking m. */
static uint64_t group_code(const pn_reach_t *r, uint32_t g, const uint64_t *m)
{
    for (uint32_t k = r->g_off[g]; k < r->g_off[g + 1]; k++)
        if (m[r->g_pl[k]])
            return k - r->g_off[g] + !r->g_exact[g];
    return 0;
}

/* m into dst: the counts' bits one after the other (bits[p] of place p),
 * then the groups' codes, whole words (the bits past the state's are
 * zero); r->stride bytes of it are the state. */
static void pack_bits(const pn_reach_t *r, const uint8_t *bits, uint64_t *dst,
                      const uint64_t *m)
{
    bitwr_t b = {dst, 0, 0, 0};
    for (uint32_t p = 0; p < r->np; p++)
        if (bits[p])
            bitwr_put(&b, m[p], bits[p]);
    for (uint32_t g = 0; g < r->ngroups; g++)
        bitwr_put(&b, group_code(r, g, m), r->g_w[g]);
    dst[b.o] = b.acc;
}

static void pack(const pn_reach_t *r, uint64_t *dst, const uint64_t *m)
{
    pack_bits(r, r->bits, dst, m);
}

/* A reader of the fields of a packed state, in place order (the state can
 * be read PACK_PAD bytes past its end). */
typedef struct {
    const uint8_t *src;
    uint64_t word;
    unsigned pos;
} bitrd_t;

static inline bitrd_t bitrd_open(const uint8_t *src)
{
    bitrd_t b = {src, load64(src), 0};
    return b;
}

/* The next field, w > 0 bits wide. */
static inline uint64_t bitrd_next(bitrd_t *b, unsigned w)
{
    uint64_t v = b->word >> b->pos;
    if (b->pos + w >= 64) {
        b->src += 8;
        b->word = load64(b->src);
        if (b->pos)
            v |= b->word << (64 - b->pos);
        b->pos = b->pos + w - 64;
    } else {
        b->pos += w;
    }
    return v & bits_max(w);
}

/* The derived places of m from the others. */
static void derive(const pn_reach_t *r, uint64_t *m)
{
    for (uint32_t k = 0; k < r->nder; k++) {
        __int128 v = r->d_c[k];
        for (uint32_t j = r->d_off[k]; j < r->d_off[k + 1]; j++)
            v -= (__int128)r->d_a[j] * (__int128)m[r->d_q[j]];
        m[r->d_place[k]] = (uint64_t)(v / r->d_div[k]);
    }
}

/* The marking of the packed state src (counts bits[p] wide). */
static void unpack_bits(const pn_reach_t *r, const uint8_t *bits,
                        uint64_t *m, const uint8_t *src)
{
    bitrd_t b = bitrd_open(src);
    for (uint32_t p = 0; p < r->np; p++)
        m[p] = bits[p] ? bitrd_next(&b, bits[p]) : 0;
    for (uint32_t g = 0; g < r->ngroups; g++) {
        uint64_t c = r->g_w[g] ? bitrd_next(&b, r->g_w[g]) : 0;
        if (!r->g_exact[g]) {
            if (!c)
                continue;
            c--;
        }
        m[r->g_pl[r->g_off[g] + c]] = 1;
    }
    derive(r, m);
}

static void unpack(const pn_reach_t *r, uint64_t *m, const uint8_t *src)
{
    unpack_bits(r, r->bits, m, src);
}

static const uint8_t *state_at(const pn_reach_t *r, size_t i)
{
    return r->data + i * r->stride;
}

static void marking_of(const pn_reach_t *r, size_t i, uint64_t *m)
{
    unpack(r, m, state_at(r, i));
}

/* A hash of the n bytes at s, a word at a time. */
static uint64_t hash_bytes(const uint8_t *s, size_t n)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        h = (h ^ load64(s + i)) * UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 32;
    }
    if (i < n) {
        uint64_t v = 0;
        memcpy(&v, s + i, n - i);
        h = (h ^ v) * UINT64_C(0xff51afd7ed558ccd);
    }
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    return h ^ (h >> 33);
}

/* Whether the stored state s (n bytes; readable PACK_PAD bytes past its
 * end) is the packed marking key (whole words, zero past n bytes). */
static inline int same_state(const uint8_t *s, const uint64_t *key, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        if (load64(s + i) != key[i / 8])
            return 0;
    return i == n || !((load64(s + i) ^ key[i / 8]) & bits_max(8 * (n - i)));
}

/* The index: a slot for every hash (its high bits scaled to the table,
 * so that the table can grow by half), and a tag of its low bits beside
 * the state's number, so that most slots of other states are passed
 * without reading their states. */
static inline size_t slot_of(const pn_reach_t *r, uint64_t h)
{
    return (size_t)(((unsigned __int128)h * r->nslots) >> 64);
}

static inline uint32_t index_mask(const pn_reach_t *r)
{
    return r->slot_bits >= 32 ? UINT32_MAX
                              : (UINT32_C(1) << r->slot_bits) - 1;
}

static inline uint32_t tag_of(const pn_reach_t *r, uint64_t h)
{
    return r->slot_bits >= 32 ? 0
                              : (uint32_t)h & ~index_mask(r) & r->slot_empty;
}

/* Slot i (readable 4 bytes: the index has one byte more at its end). */
static inline uint32_t slot_get(const pn_reach_t *r, size_t i)
{
    uint32_t v;
    memcpy(&v, r->slots + i * r->slot_w, 4);
    return v & r->slot_empty;
}

static inline void slot_set(pn_reach_t *r, size_t i, uint32_t v)
{
    memcpy(r->slots + i * r->slot_w, &v, r->slot_w); /* little-endian */
}

/* The slot of the packed marking key (hash h): the one holding its state
 * (*found its number), else the empty one where it goes (*found
 * NO_STATE).  A state's number is below nslots - 1 (the table is never
 * full), so no slot in use reads as NO_STATE. */
static size_t probe(const pn_reach_t *r, const uint64_t *key, uint64_t h,
                    uint32_t *found)
{
    uint32_t mask = index_mask(r), tag = tag_of(r, h);
    size_t i = slot_of(r, h);
    for (;;) {
        uint32_t e = slot_get(r, i);
        if (e == r->slot_empty) {
            *found = NO_STATE;
            return i;
        }
        if ((e & ~mask) == tag &&
            same_state(state_at(r, e & mask), key, r->stride)) {
            *found = e & mask;
            return i;
        }
        if (++i == r->nslots)
            i = 0;
    }
}

/* Rebuilds the hash index with nslots slots from the stored states (the
 * old index is freed first: it is never needed beside the new one). */
static pn_status_t rehash(pn_reach_t *r, size_t nslots)
{
    free(r->slots);
    unsigned sb = bits_for(nslots - 1), w = sb + 4 <= 24 ? 3 : 4;
    r->slots = malloc(nslots * w + 1);
    if (!r->slots) {
        r->nslots = 0;
        return PN_ENOMEM;
    }
    memset(r->slots, 0xff, nslots * w + 1);
    r->nslots = nslots;
    r->slot_bits = sb;
    r->slot_w = w;
    r->slot_empty = w == 3 ? UINT32_C(0xffffff) : UINT32_MAX;
    uint32_t mask = index_mask(r);
    for (size_t i = 0; i < r->nstates; i++) {
        uint64_t h = hash_bytes(state_at(r, i), r->stride);
        size_t s = slot_of(r, h);
        while (slot_get(r, s) != r->slot_empty)
            if (++s == nslots)
                s = 0;
        slot_set(r, s, ((uint32_t)i & mask) | tag_of(r, h));
    }
    return PN_OK;
}

/* Sets the layout to bits (one width per place): lim, off and stride. */
static void set_layout(pn_reach_t *r, const uint8_t *bits)
{
    size_t total = 0;
    for (uint32_t p = 0; p < r->np; p++) {
        r->bits[p] = bits[p];
        r->lim[p] = r->kind[p] == PK_PLAIN   ? bits_max(bits[p])
                    : r->kind[p] == PK_GROUP ? 1
                                             : UINT64_MAX;
        r->off[p] = total;
        total += bits[p];
    }
    for (uint32_t g = 0; g < r->ngroups; g++) {
        r->g_bit[g] = total;
        total += r->g_w[g];
    }
    r->stride = total ? (total + 7) / 8 : 1;
}

/* Widens the places of m that do not fit (by half their width at least,
 * so that a place is widened a few times only, while the width stays
 * close to what its counts need) and repacks every stored marking into
 * the new layout, in place: the arena grows, and the states are moved
 * from the last one down (a state's new place is never before its old
 * one). */
static pn_status_t widen(pn_reach_t *r, const uint64_t *m)
{
    uint8_t *old = malloc((size_t)r->np + 1), *nb = malloc((size_t)r->np + 1);
    if (!old || !nb) {
        free(old);
        free(nb);
        return PN_ENOMEM;
    }
    /* when repacking has cost much more than the search (many places,
     * each widened on its own while few states are stored), every
     * changed place as wide as a widened one was is widened with it */
    unsigned from = 0, to = 0;
    int all = r->repacked > (4 * (uint64_t)r->nstates + 1) * r->np +
                                (UINT64_C(1) << 24);
    size_t total = 0;
    for (uint32_t p = 0; p < r->np; p++) {
        unsigned w = r->bits[p];
        old[p] = (uint8_t)w;
        if (r->kind[p] == PK_PLAIN && m[p] > r->lim[p]) {
            unsigned need = bits_for(m[p]);
            w = w + (w > 1 ? w / 2 : 1);
            if (w < need)
                w = need;
            if (w > 64)
                w = 64;
            if (w > to) {
                to = w;
                from = old[p];
            }
        }
        nb[p] = (uint8_t)w;
    }
    for (uint32_t p = 0; p < r->np; p++) {
        if (all && r->kind[p] == PK_PLAIN && r->changed[p] &&
            nb[p] == from && nb[p] < to)
            nb[p] = (uint8_t)to;
        total += nb[p];
    }
    for (uint32_t g = 0; g < r->ngroups; g++)
        total += r->g_w[g];
    size_t stride = total ? (total + 7) / 8 : 1, old_stride = r->stride;
    pn_status_t st = PN_OK;
    size_t cap = r->cap_states ? r->cap_states : 1;
    if (over_memory(r, (uint64_t)r->cap_states * (stride - r->stride)))
        st = PN_ETOOBIG;
    else if (stride > old_stride || !r->data) {
        uint8_t *data = realloc(r->data, cap * stride + PACK_PAD);
        if (data)
            r->data = data;
        else
            st = PN_ENOMEM;
    }
    if (st) {
        free(old);
        free(nb);
        return st;
    }
    /* past the last state: zeros, and no state is read there */
    memset(r->data + cap * stride, 0, PACK_PAD);
    set_layout(r, nb);
    uint64_t *mm = r->tmp;
    for (size_t i = r->nstates; i-- > 0;) {
        unpack_bits(r, old, mm, r->data + i * old_stride);
        pack(r, r->key, mm);
        memcpy(r->data + i * stride, r->key, stride);
    }
    free(old);
    free(nb);
    r->widenings++;
    r->repacked += (uint64_t)r->nstates * r->np;
    r->pkey_for = NO_STATE;
    return rehash(r, r->nslots);
}

/* Sets the w > 0 bits at bit o of the packed marking key to v (which
 * fits). */
static inline void set_bits(uint64_t *key, size_t o, unsigned w, uint64_t v)
{
    size_t k = o / 64;
    unsigned s = (unsigned)(o % 64);
    uint64_t mask = bits_max(w);
    key[k] = (key[k] & ~(mask << s)) | (v << s);
    if (s + w > 64) {
        unsigned lo = 64 - s; /* bits in key[k] */
        key[k + 1] = (key[k + 1] & ~(mask >> lo)) | (v >> lo);
    }
}

/* The w > 0 bits at bit o of the packed marking key. */
static inline uint64_t get_bits(const uint64_t *key, size_t o, unsigned w)
{
    size_t k = o / 64;
    unsigned s = (unsigned)(o % 64);
    uint64_t v = key[k] >> s;
    if (s + w > 64)
        v |= key[k + 1] << (64 - s);
    return v & bits_max(w);
}

/* Sets place p to v (which fits) in the packed marking key of a marking
 * that differs from the one key holds in some of the places set so (in
 * any order; the others unchanged). */
static inline void set_field(const pn_reach_t *r, uint64_t *key, uint32_t p,
                             uint64_t v)
{
    if (r->kind[p] == PK_PLAIN) {
        if (r->bits[p])
            set_bits(key, r->off[p], r->bits[p], v);
        return;
    }
    if (r->kind[p] != PK_GROUP)
        return; /* derived: not stored */
    uint32_t g = r->grp[p];
    unsigned w = r->g_w[g];
    if (!w)
        return;
    uint64_t own = r->gidx[p] + !r->g_exact[g];
    if (v)
        set_bits(key, r->g_bit[g], w, own);
    else if (!r->g_exact[g] && get_bits(key, r->g_bit[g], w) == own)
        set_bits(key, r->g_bit[g], w, 0);
    /* exact: the member that takes the token is set too */
}

/* Finds marking m, or adds it as a new state with the given parent;
 * *index gets its number, *added whether it is new.  With chg (a
 * successor of parent by a transition changing the places chg[0..nchg)
 * only), its packed form is the parent's with those fields rewritten. */
static pn_status_t find_or_add(pn_reach_t *r, const uint64_t *m,
                               uint32_t parent, const uint32_t *chg,
                               size_t nchg, uint32_t *index, int *added)
{
    int fits = 1;
    pn_status_t st;
    if (chg) {
        for (size_t k = 0; k < nchg; k++)
            if (m[chg[k]] > r->lim[chg[k]])
                fits = 0;
    } else {
        for (uint32_t p = 0; p < r->np; p++)
            if (m[p] > r->lim[p])
                fits = 0;
    }
    if (!fits && (st = widen(r, m)))
        return st;
    size_t bytes = r->stride;
    if (chg && fits) {
        size_t words = (bytes + 7) / 8;
        if (r->pkey_for != parent) {
            r->pkey[words - 1] = 0;
            memcpy(r->pkey, state_at(r, parent), bytes);
            r->pkey_for = parent;
        }
        memcpy(r->key, r->pkey, words * 8);
        for (size_t k = 0; k < nchg; k++)
            set_field(r, r->key, chg[k], m[chg[k]]);
    } else {
        pack(r, r->key, m);
    }
    const uint8_t *key = (const uint8_t *)r->key;
    uint64_t hash = hash_bytes(key, bytes);
    uint32_t found;
    size_t h = probe(r, r->key, hash, &found);
    if (found != NO_STATE) {
        *index = found;
        *added = 0;
        return PN_OK;
    }
    if (r->nstates == STATES_MAX ||
        (r->max_states && r->nstates >= r->max_states))
        return PN_ERANGE; /* the state limit: never more stored */
    if (r->nstates == r->cap_states) {
        /* grown by half: less room held unused than by doubling */
        size_t cap = r->cap_states ? r->cap_states + r->cap_states / 2
                                   : 1024;
        if (cap > STATES_MAX)
            cap = STATES_MAX;
        if (over_memory(r, (uint64_t)(cap - r->cap_states) *
                               (r->stride + per_state_extra(r)) +
                               (r->cap_states ? 0 : PACK_PAD)))
            return PN_ETOOBIG;
        uint8_t *d = realloc(r->data, cap * r->stride + PACK_PAD);
        if (!d)
            return PN_ENOMEM;
        memset(d + cap * r->stride, 0, PACK_PAD);
        r->data = d;
        if (r->keep_parent) {
            uint32_t *pa = realloc(r->parent, cap * sizeof *pa);
            if (!pa)
                return PN_ENOMEM;
            r->parent = pa;
        }
        if (r->cover_check) {
            uint32_t *rc = realloc(r->record, cap * sizeof *rc);
            if (!rc)
                return PN_ENOMEM;
            r->record = rc;
        }
        r->cap_states = cap;
    }
    size_t i = r->nstates;
    /* the index is never full: one slot stays empty */
    if (16 * (i + 1) > LOAD_NUM * r->nslots || i + 2 > r->nslots) {
        size_t n = r->nslots + r->nslots / 2;
        if (n > (size_t)UINT32_MAX)
            n = UINT32_MAX;
        if (n > r->nslots) {
            if (over_memory(r, (uint64_t)(n - r->nslots) * 4))
                return PN_ETOOBIG;
            if ((st = rehash(r, n)))
                return st;
            h = probe(r, r->key, hash, &found);
        }
    }
    r->nstates++;
    memcpy(r->data + i * bytes, key, bytes);
    if (r->keep_parent)
        r->parent[i] = parent;
    slot_set(r, h, ((uint32_t)i & index_mask(r)) | tag_of(r, hash));
    unsigned __int128 total = 0;
    uint64_t top = 0;
    for (uint32_t p = 0; p < r->np; p++) {
        if (m[p] > r->bound[p])
            r->bound[p] = m[p];
        if (m[p] < r->lowest[p])
            r->lowest[p] = m[p];
        if (m[p] > top)
            top = m[p];
        total += m[p];
    }
    if (top > r->max_place)
        r->max_place = top;
    if (saturated(total) > r->max_total)
        r->max_total = saturated(total);
    *index = (uint32_t)i;
    *added = 1;
    return PN_OK;
}

/* ---- successors ----------------------------------------------------------
 * Each successor of m is reported to a visitor with the transitions fired
 * (in a firing order the engine could take) and the marking reached. */

typedef int (*visit_fn)(pn_reach_t *r, const uint32_t *set, size_t n,
                        const uint64_t *next, void *ctx);

/* One more successor (or set of transitions tried): every TICKS, the
 * progress report. */
static inline void tick(pn_reach_t *r)
{
    if (r->progress && --r->ticks == 0) {
        r->ticks = TICKS;
        r->progress(r, r->progress_ctx);
    }
}

/* Fires set[0..n) from m (each fits when its turn comes): r->next. */
static int step_to(pn_reach_t *r, const uint64_t *m, const uint32_t *set,
                   size_t n)
{
    memcpy(r->next, m, r->np * sizeof *m);
    if (pni_engine_has_capacity(r->engine)) /* pend is only used then */
        memset(r->pend, 0, r->np * sizeof *r->pend);
    for (size_t i = 0; i < n; i++)
        pni_engine_take(r->engine, r->next, r->pend, set[i]);
    for (size_t i = 0; i < n; i++) {
        int over = pni_engine_give(r->engine, r->next, set[i]);
        if (over)
            return over;
    }
    return 0;
}

/* The cut of the search without capacities: a transition left out of the
 * set must not fit the budget at the end of the walk.  Once every
 * transition that competes with it for a place has been decided (at
 * position last[k] of the list), its places keep their final budget: if
 * it fits then, every set below the branch is not maximal.  Computes
 * last[] and the lists cl_* for en[0..ne); r->use is left zeroed. */
static void cut_setup(pn_reach_t *r, size_t ne)
{
    uint32_t *lu = r->use; /* the last position + 1 that uses p */
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = r->en[k];
        for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
            lu[r->ni_idx[j]] = (uint32_t)k + 1;
        for (uint32_t j = r->rs_off[t]; j < r->rs_off[t + 1]; j++)
            lu[r->rs_idx[j]] = (uint32_t)k + 1;
    }
    memset(r->cl_off, 0, (ne + 2) * sizeof *r->cl_off);
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = r->en[k], l = (uint32_t)k + 1;
        for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
            if (lu[r->ni_idx[j]] > l)
                l = lu[r->ni_idx[j]];
        for (uint32_t j = r->rs_off[t]; j < r->rs_off[t + 1]; j++)
            if (lu[r->rs_idx[j]] > l)
                l = lu[r->rs_idx[j]];
        r->last[k] = l - 1;
        r->cl_off[l + 1]++;
    }
    for (size_t i = 0; i < ne; i++)
        r->cl_off[i + 1] += r->cl_off[i];
    for (size_t k = 0; k < ne; k++)
        r->cl_idx[r->cl_off[r->last[k] + 1]++] = (uint32_t)k;
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = r->en[k];
        for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
            lu[r->ni_idx[j]] = 0;
        for (uint32_t j = r->rs_off[t]; j < r->rs_off[t + 1]; j++)
            lu[r->rs_idx[j]] = 0;
    }
}

/* Whether a transition left out before position i (all its competitors
 * decided) fits the final budget: b, with the places the set empties at 0
 * (rz). */
static int cut(const pn_reach_t *r, size_t i, const uint64_t *b)
{
    for (uint32_t c = r->cl_off[i]; c < r->cl_off[i + 1]; c++) {
        uint32_t k = r->cl_idx[c];
        if (!r->skipped[k])
            continue;
        uint32_t t = r->en[k];
        int fits = 1;
        for (uint32_t j = r->ni_off[t]; fits && j < r->ni_off[t + 1]; j++)
            fits = !r->rz[r->ni_idx[j]] && b[r->ni_idx[j]] >= r->ni_w[j];
        if (fits)
            return 1;
    }
    return 0;
}

/* Maximal steps: the sets S of enabled transitions that fit m together
 * and leave no other enabled transition room (every conflict order of the
 * engine's walk ends in one, and each is the result of the order that
 * fires S first; without reset arcs the order within S does not matter,
 * with them see maximal_sets_rs()).  Depth-first over the enabled list: include or skip; a
 * transition that competes with no other is always included (it fits
 * whatever the others take).  level: the depth, for the scratch stack. */
static int maximal_sets(pn_reach_t *r, const uint64_t *m, size_t ne,
                        size_t i, size_t nset, const uint64_t *b,
                        const uint64_t *pend, visit_fn fn, void *ctx)
{
    size_t np = r->np;
    if (i == ne) {
        tick(r);
        for (size_t k = 0, j = 0; k < ne; k++) {
            if (j < nset && r->set[j] == r->en[k]) {
                j++;
                continue;
            }
            if (pni_engine_fits(r->engine, b, pend, r->en[k]))
                return 0; /* not maximal: en[k] still fits */
        }
        int over = step_to(r, m, r->set, nset);
        if (over)
            return -over;
        return fn(r, r->set, nset, r->next, ctx);
    }
    if (i > 0 && cut(r, i - 1, b))
        return 0;
    uint32_t t = r->en[i];
    if (pni_engine_fits(r->engine, b, pend, t)) {
        uint64_t *b2 = r->stack + 2 * (i + 1) * np, *p2 = b2 + np;
        memcpy(b2, b, np * sizeof *b);
        memcpy(p2, pend, np * sizeof *pend);
        pni_engine_take(r->engine, b2, p2, t);
        r->set[nset] = t;
        int ret = maximal_sets(r, m, ne, i + 1, nset + 1, b2, p2, fn, ctx);
        if (ret || !r->competes[i])
            return ret;
    }
    r->skipped[i] = 1;
    int ret = maximal_sets(r, m, ne, i + 1, nset, b, pend, fn, ctx);
    r->skipped[i] = 0;
    return ret;
}

/* Maximal steps with reset arcs.  The engine's walk takes a transition's
 * inputs and empties its reset places as it goes, so a set that fits in
 * one order may not fit in another: a transition that takes from p must
 * come before one that empties p (every weight is at least 1), and a
 * cycle of such constraints (t takes from p and empties q, u takes from q
 * and empties p) makes the set impossible.  So the search includes or
 * skips each enabled transition against a budget b of the normal inputs
 * alone (the inputs of the set within m, whatever the order), and at the
 * end of the list orders the set: the transitions that empty no place
 * first, then those that do, each once every other transition of the set
 * that takes from the places it empties has fired (none: the set fits in
 * no order).  Every order that fits leaves the same budget (the places
 * the set empties at 0, the others at b), and the set is maximal when no
 * other enabled transition fits it: one that did would have fitted at its
 * turn too, whatever the order (the budget only shrinks). */
static int rs_fits(const pn_reach_t *r, const uint64_t *b, uint32_t t)
{
    for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
        if (b[r->ni_idx[j]] < r->ni_w[j])
            return 0;
    return 1;
}

/* Orders set[0..n) for the walk into r->order; 0 when no order fits. */
static int rs_order(pn_reach_t *r, size_t n)
{
    size_t k = 0, nr = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = r->set[i];
        if (r->rs_off[t] == r->rs_off[t + 1])
            r->order[k++] = t;
    }
    /* the transitions that empty a place, after the others: ucons[p]
     * counts those of them not yet ordered that take from p */
    uint32_t *rest = r->order + n; /* room for n more */
    for (size_t i = 0; i < n; i++) {
        uint32_t t = r->set[i];
        if (r->rs_off[t] == r->rs_off[t + 1])
            continue;
        rest[nr++] = t;
        for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
            r->ucons[r->ni_idx[j]]++;
    }
    int progress = 1;
    while (nr && progress) {
        progress = 0;
        for (size_t i = 0; i < nr; i++) {
            uint32_t t = rest[i];
            int ready = 1;
            for (uint32_t j = r->rs_off[t]; ready && j < r->rs_off[t + 1];
                 j++) {
                uint32_t p = r->rs_idx[j], own = 0;
                for (uint32_t q = r->ni_off[t]; q < r->ni_off[t + 1]; q++)
                    own += r->ni_idx[q] == p;
                ready = r->ucons[p] == own;
            }
            if (!ready)
                continue;
            for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
                r->ucons[r->ni_idx[j]]--;
            r->order[k++] = t;
            rest[i--] = rest[--nr];
            progress = 1;
        }
    }
    /* a cycle: leave the counters zeroed */
    for (size_t i = 0; i < nr; i++)
        for (uint32_t j = r->ni_off[rest[i]]; j < r->ni_off[rest[i] + 1]; j++)
            r->ucons[r->ni_idx[j]] = 0;
    return nr == 0;
}

static int maximal_sets_rs(pn_reach_t *r, const uint64_t *m, size_t ne,
                           size_t i, size_t nset, const uint64_t *b,
                           visit_fn fn, void *ctx)
{
    size_t np = r->np;
    if (i == ne) {
        tick(r);
        if (!rs_order(r, nset))
            return 0;
        uint64_t *f = r->tmp; /* the budget at the end of the walk */
        memcpy(f, b, np * sizeof *b);
        for (size_t k = 0; k < nset; k++)
            for (uint32_t j = r->rs_off[r->set[k]];
                 j < r->rs_off[r->set[k] + 1]; j++)
                f[r->rs_idx[j]] = 0;
        for (size_t k = 0, j = 0; k < ne; k++) {
            if (j < nset && r->set[j] == r->en[k]) {
                j++;
                continue;
            }
            if (rs_fits(r, f, r->en[k]))
                return 0; /* not maximal: en[k] still fits */
        }
        int over = step_to(r, m, r->order, nset);
        if (over)
            return -over;
        return fn(r, r->order, nset, r->next, ctx);
    }
    if (i > 0 && cut(r, i - 1, b))
        return 0;
    uint32_t t = r->en[i];
    if (rs_fits(r, b, t)) {
        uint64_t *b2 = r->stack + 2 * (i + 1) * np;
        memcpy(b2, b, np * sizeof *b);
        for (uint32_t j = r->ni_off[t]; j < r->ni_off[t + 1]; j++)
            b2[r->ni_idx[j]] -= r->ni_w[j];
        r->set[nset] = t;
        for (uint32_t j = r->rs_off[t]; j < r->rs_off[t + 1]; j++)
            r->rz[r->rs_idx[j]]++;
        int ret = maximal_sets_rs(r, m, ne, i + 1, nset + 1, b2, fn, ctx);
        for (uint32_t j = r->rs_off[t]; j < r->rs_off[t + 1]; j++)
            r->rz[r->rs_idx[j]]--;
        if (ret || !r->competes[i])
            return ret;
    }
    r->skipped[i] = 1;
    int ret = maximal_sets_rs(r, m, ne, i + 1, nset, b, fn, ctx);
    r->skipped[i] = 0;
    return ret;
}

/* With capacities, a transition that found no room at its turn may find
 * room later (another one emptied the place), so the engine's greedy walk
 * need not end in a maximal set: every order is tried.  taken[k]: en[k]
 * has had its turn.  Cost: up to ne! orders (nets with capacities and
 * many conflicting transitions enabled together are slow to explore). */
static int greedy_orders(pn_reach_t *r, const uint64_t *m, size_t ne,
                         size_t level, size_t nset, unsigned char *taken,
                         const uint64_t *b, const uint64_t *pend,
                         visit_fn fn, void *ctx)
{
    size_t np = r->np;
    if (level == ne) {
        tick(r);
        int over = step_to(r, m, r->set, nset);
        if (over)
            return -over;
        return fn(r, r->set, nset, r->next, ctx);
    }
    for (size_t k = 0; k < ne; k++) {
        if (taken[k])
            continue;
        taken[k] = 1;
        int ret;
        if (pni_engine_fits(r->engine, b, pend, r->en[k])) {
            uint64_t *b2 = r->stack + 2 * (level + 1) * np, *p2 = b2 + np;
            memcpy(b2, b, np * sizeof *b);
            memcpy(p2, pend, np * sizeof *pend);
            pni_engine_take(r->engine, b2, p2, r->en[k]);
            r->set[nset] = r->en[k];
            ret = greedy_orders(r, m, ne, level + 1, nset + 1, taken, b2, p2,
                                fn, ctx);
        } else {
            ret = greedy_orders(r, m, ne, level + 1, nset, taken, b, pend,
                                fn, ctx);
        }
        taken[k] = 0;
        if (ret)
            return ret;
    }
    return 0;
}

static int on_successor(pn_reach_t *r, const uint32_t *set, size_t n,
                        const uint64_t *next, void *ctx);

/* Calls fn for every successor of m; returns 0, fn's nonzero return, or
 * -(1 + place) when a count would pass PN_TOKENS_MAX. */
static int successors(pn_reach_t *r, const uint64_t *m, visit_fn fn,
                      void *ctx)
{
    size_t ne = 0;
    for (uint32_t t = 0; t < r->nt; t++)
        if (pni_engine_enabled(r->engine, m, t))
            r->en[ne++] = t;
    if (r->sem == PN_SEM_INTERLEAVING && fn == on_successor &&
        !pni_engine_has_capacity(r->engine)) {
        /* each transition fired on m itself and undone (only the places it
         * changes: undo keeps their counts), with no copy of the marking;
         * without capacities, pend is not touched */
        for (size_t k = 0; k < ne; k++) {
            uint32_t t = r->en[k];
            const uint32_t *chg = r->chg_idx + r->chg_off[t];
            size_t nchg = r->chg_off[t + 1] - r->chg_off[t];
            uint64_t *mm = (uint64_t *)m;
            for (size_t j = 0; j < nchg; j++)
                r->undo[j] = mm[chg[j]];
            pni_engine_take(r->engine, mm, r->pend, t);
            int over = pni_engine_give(r->engine, mm, t);
            int ret = over ? 0 : on_successor(r, &r->en[k], 1, mm, ctx);
            for (size_t j = 0; j < nchg; j++)
                mm[chg[j]] = r->undo[j];
            if (over)
                return -over;
            if (ret)
                return ret;
        }
        return 0;
    }
    if (r->sem == PN_SEM_INTERLEAVING) {
        for (size_t k = 0; k < ne; k++) {
            int over = step_to(r, m, &r->en[k], 1);
            if (over)
                return -over;
            int ret = fn(r, &r->en[k], 1, r->next, ctx);
            if (ret)
                return ret;
        }
        return 0;
    }
    if (ne == 0)
        return 0;
    uint64_t *b = r->stack, *pend = b + r->np;
    memcpy(b, m, r->np * sizeof *m);
    memset(pend, 0, r->np * sizeof *pend);
    if (pni_engine_has_capacity(r->engine)) {
        memset(r->competes, 0, ne);
        return greedy_orders(r, m, ne, 0, 0, r->competes, b, pend, fn, ctx);
    }
    /* without capacities the budget only shrinks: a transition that did
     * not fit at its turn fits no later, and the walk ends in a maximal
     * set */
    pni_engine_competing(r->engine, r->en, ne, r->use, r->competes);
    cut_setup(r, ne);
    if (r->resets)
        return maximal_sets_rs(r, m, ne, 0, 0, b, fn, ctx);
    return maximal_sets(r, m, ne, 0, 0, b, pend, fn, ctx);
}

/* ---- breadth-first search ------------------------------------------------ */

typedef struct {
    uint32_t from;
    size_t nsucc0;   /* graph: where this state's successors start */
    pn_status_t st;
    uint64_t nedges; /* successors of this state */
} expand_t;

/* Whether state s holds at most m in every place (m strictly covers it
 * when they differ). */
static int covered_by(const pn_reach_t *r, uint32_t s, const uint64_t *m)
{
    uint64_t *c = r->cmp;
    marking_of(r, s, c);
    for (uint32_t p = 0; p < r->np; p++)
        if (c[p] > m[p])
            return 0;
    return 1;
}

static uint64_t total_of(const pn_reach_t *r, uint32_t s)
{
    uint64_t *c = r->cmp, t = 0;
    marking_of(r, s, c);
    for (uint32_t p = 0; p < r->np; p++)
        t += c[p];
    return t;
}

/* The new state 'to' (marking m, reached by firing set): when it is a
 * record of the total along its path, does it strictly cover one of the
 * records before it? */
static void check_cover(pn_reach_t *r, uint32_t to, const uint64_t *m,
                        const uint32_t *set, size_t n)
{
    uint32_t from = r->parent[to];
    if (from == NO_STATE) {
        r->record[to] = to;
        return;
    }
    uint32_t last = r->record[from];
    r->record[to] = last;
    int64_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += r->delta[set[i]];
    if (d <= 0)
        return; /* no more than its parent: no record */
    uint64_t t = 0;
    for (uint32_t p = 0; p < r->np; p++)
        t += m[p];
    if (t <= total_of(r, last))
        return;
    r->record[to] = to;
    for (uint32_t s = last; s != NO_STATE;
         s = r->parent[s] == NO_STATE ? NO_STATE : r->record[r->parent[s]])
        if (covered_by(r, s, m)) {
            r->cover = to;
            r->covered = s;
            return;
        }
}

static int on_successor(pn_reach_t *r, const uint32_t *set, size_t n,
                        const uint64_t *next, void *ctx)
{
    expand_t *x = ctx;
    for (size_t i = 0; i < n; i++)
        r->fires[set[i]] = 1;
    uint32_t to;
    int added;
    if (r->sem == PN_SEM_INTERLEAVING) /* differs in set[0]'s places */
        x->st = find_or_add(r, next, x->from,
                            r->chg_idx + r->chg_off[set[0]],
                            r->chg_off[set[0] + 1] - r->chg_off[set[0]],
                            &to, &added);
    else
        x->st = find_or_add(r, next, x->from, NULL, 0, &to, &added);
    if (x->st)
        return 1;
    if (r->sem == PN_SEM_INTERLEAVING)
        tick(r);
    /* a search that stops at a marking just stored counts its edge */
    if (added && r->token_bound && r->max_place > r->token_bound) {
        r->limit = PN_REACH_TOKEN_BOUND;
        x->nedges++;
        return 1;
    }
    if (added && r->cover_check) {
        check_cover(r, to, next, set, n);
        if (r->cover != NO_STATE) {
            x->nedges++;
            return 1;
        }
    }
    if (added && r->hook && r->hook(r, to, next, r->hook_ctx)) {
        r->stopped = 1;
        x->nedges++;
        return 1;
    }
    if (r->keep_graph) {
        /* maximal: distinct successor markings (several sets may reach the
         * same one; a marking just added is new); interleaving: one edge
         * per transition */
        if (r->sem == PN_SEM_MAXIMAL && !added)
            for (size_t k = x->nsucc0; k < r->nsucc; k++)
                if (r->succ[k] == to)
                    return 0;
        if (r->nsucc == r->cap_succ && over_memory(r, 4 * (r->cap_succ + 16))) {
            x->st = PN_ETOOBIG;
            return 1;
        }
        if (pni_grow((void **)&r->succ, &r->cap_succ, r->nsucc + 1,
                     sizeof *r->succ)) {
            x->st = PN_ENOMEM;
            return 1;
        }
        r->succ[r->nsucc++] = to;
    }
    x->nedges++;
    return 0;
}

/* ---- invariants: groups and derived places ------------------------------ */

typedef struct {
    const pn_net_t *net;
    size_t *aoff, *aidx;    /* normal arcs of place p: aidx[aoff[p] ..
                               aoff[p + 1]) */
    unsigned char *reset;   /* per place: a reset arc */
    __int128 *acc;          /* per transition, zero between calls */
    unsigned char *seen;    /* per transition, zero between calls */
    uint32_t *touched;
} flowck_t;

/* Whether the weights y over places pl[0..n) (none zero) make a subflow
 * of the net: y C_t <= 0 for every transition t over the normal arcs (no
 * firing raises y M: resets only take tokens), or, exact, y C_t = 0 with
 * no reset arc on those places (no firing changes y M).  Checked here on
 * the arcs themselves, whatever found y. */
static int flow_holds(flowck_t *f, const uint32_t *pl, const int64_t *y,
                      size_t n, int exact)
{
    size_t nt = 0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = pl[i];
        if (f->reset[p] && exact)
            ok = 0;
        for (size_t k = f->aoff[p]; k < f->aoff[p + 1]; k++) {
            const pn_arc_t *arc = pn_net_arc(f->net, f->aidx[k]);
            size_t t = arc->transition;
            __int128 w = (__int128)arc->weight * y[i];
            if (!f->seen[t]) {
                f->seen[t] = 1;
                f->touched[nt++] = (uint32_t)t;
            }
            f->acc[t] += arc->dir == PN_DIR_TP ? w : -w;
        }
    }
    for (size_t k = 0; k < nt; k++) {
        size_t t = f->touched[k];
        if (f->acc[t] > 0 || (exact && f->acc[t] != 0))
            ok = 0;
        f->acc[t] = 0;
        f->seen[t] = 0;
    }
    return ok;
}

typedef struct {
    size_t row, n;
    unsigned width, saving;
    int exact;
} cand_t;

static int by_saving(const void *a, const void *b)
{
    const cand_t *x = a, *y = b;
    if (x->saving != y->saving)
        return x->saving > y->saving ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* a coefficient past this leaves its row out */
#define ELIM_BIG ((int64_t)1 << 40)

/* kernel(): matrix cells and steps of work at most */
#define KER_CELLS ((uint64_t)1 << 20)
#define KER_WORK ((uint64_t)1 << 27)

/* A basis of the exact invariants (y C = 0 over the places with no reset
 * arc), by fraction-free Gaussian elimination over the rows [C(p) | e_p]:
 * each transition's column is cleared with one pivot row, which leaves
 * (its place stored); the rows left have C-part zero: y, with y(p) != 0
 * for its own place p and its other places pivots, so p = (y M0 - the
 * rest) / y(p) in every reachable marking.  The pivots are group members
 * first (stored anyway), then the narrowest places.  *rows (np + nt
 * columns a row, y at nt) and kp[0..*nk) their places; 0, 1 past the
 * budget, -1 out of memory. */
static int kernel(const pn_reach_t *r, const pn_net_t *net,
                  const flowck_t *f, const uint8_t *nb, int64_t **rows,
                  uint32_t *kp, size_t *nk)
{
    size_t np = r->np, nt = r->nt, cols = nt + np;
    *rows = NULL;
    *nk = 0;
    if (!np || (uint64_t)np * cols > KER_CELLS)
        return 1;
    int64_t *a = calloc(np * cols, sizeof *a);
    unsigned char *live = malloc(np);
    if (!a || !live) {
        free(a);
        free(live);
        return -1;
    }
    int ret = 0;
    for (size_t p = 0; p < np; p++) {
        live[p] = !f->reset[p];
        a[p * cols + nt + p] = 1;
    }
    for (size_t k = 0; k < pn_net_arc_count(net); k++) {
        const pn_arc_t *arc = pn_net_arc(net, k);
        if (arc->kind != PN_ARC_NORMAL)
            continue;
        int64_t *c = &a[arc->place * cols + arc->transition];
        int64_t w = arc->weight > (uint64_t)ELIM_BIG ? ELIM_BIG
                                                     : (int64_t)arc->weight;
        *c += arc->dir == PN_DIR_TP ? w : -w;
        if (*c >= ELIM_BIG || *c <= -ELIM_BIG)
            live[arc->place] = 0; /* in no invariant */
    }
    uint64_t work = 0;
    for (size_t t = 0; !ret && t < nt; t++) {
        size_t best = np;
        for (size_t p = 0; p < np; p++) {
            int64_t v = a[p * cols + t];
            if (!live[p] || !v)
                continue;
            if (best == np) {
                best = p;
                continue;
            }
            int gp = r->kind[p] == PK_GROUP, gb = r->kind[best] == PK_GROUP;
            int64_t vb = a[best * cols + t];
            if (gp != gb ? gp
                         : nb[p] != nb[best] ? nb[p] < nb[best]
                                             : llabs(v) < llabs(vb))
                best = p;
        }
        if (best == np)
            continue;
        live[best] = 0;
        const int64_t *pr = a + best * cols;
        int64_t x = pr[t];
        for (size_t q = 0; q < np; q++) {
            int64_t *z = a + q * cols, v = z[t], g = 0;
            if (!live[q] || !v)
                continue;
            work += cols - t;
            if (work > KER_WORK) {
                ret = 1;
                break;
            }
            for (size_t c = t; c < cols; c++) {
                int64_t u, w;
                if (__builtin_mul_overflow(x, z[c], &u) ||
                    __builtin_mul_overflow(v, pr[c], &w) ||
                    __builtin_sub_overflow(u, w, &z[c]) ||
                    z[c] > ELIM_BIG || z[c] < -ELIM_BIG) {
                    live[q] = 0; /* too large: in no invariant */
                    break;
                }
                g = pni_gcd64(g, z[c]);
            }
            if (live[q] && g > 1)
                for (size_t c = t; c < cols; c++)
                    z[c] /= g;
        }
    }
    if (!ret)
        for (size_t p = 0; p < np; p++)
            if (live[p])
                kp[(*nk)++] = (uint32_t)p;
    free(live);
    if (ret)
        free(a);
    else
        *rows = a;
    return ret;
}

/* What the net's invariants let go unstored, on the first widths nb
 * (set to 0 for what is not stored as a count): groups of places
 * holding one token at most together (from the unit subflows of y M0 =
 * 1), stored as one code; places that an exact invariant gives from
 * the stored ones (a basis of them, kernel(); a place no transition
 * changes is one), not stored.  Every flow used is checked on the net's
 * arcs. */
static pn_status_t compress(pn_reach_t *r, const pn_net_t *net,
                            pni_flows_t *fl, uint8_t *nb)
{
    size_t np = r->np, nt = r->nt, na = pn_net_arc_count(net);
    pn_status_t st = PN_ENOMEM;
    flowck_t f = {net, calloc(np + 2, sizeof(size_t)),
                  malloc((na + 1) * sizeof(size_t)), calloc(np + 1, 1),
                  calloc(nt + 1, sizeof(__int128)), calloc(nt + 1, 1),
                  malloc((nt + 1) * sizeof(uint32_t))};
    cand_t *cand = malloc((fl->n + 1) * sizeof *cand);
    uint32_t *pl = malloc((np + 1) * sizeof *pl);
    int64_t *co = malloc((np + 1) * sizeof *co);
    size_t nmax = (fl->n > np ? fl->n : np) + 1;
    uint32_t *piv = malloc(nmax * sizeof *piv);
    int64_t **prow = malloc(nmax * sizeof *prow);
    int64_t *kbuf = NULL;
    r->grp = malloc((np + 1) * sizeof *r->grp);
    r->gidx = malloc((np + 1) * sizeof *r->gidx);
    if (!f.aoff || !f.aidx || !f.reset || !f.acc || !f.seen || !f.touched ||
        !cand || !pl || !co || !piv || !prow || !r->grp ||
        !r->gidx)
        goto out;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind == PN_ARC_RESET)
            f.reset[arc->place] = 1;
        else if (arc->kind == PN_ARC_NORMAL)
            f.aoff[arc->place + 1]++;
    }
    for (size_t p = 0; p < np; p++)
        f.aoff[p + 1] += f.aoff[p];
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind == PN_ARC_NORMAL)
            f.aidx[f.aoff[arc->place]++] = a;
    }
    for (size_t p = np; p > 0; p--)
        f.aoff[p] = f.aoff[p - 1];
    f.aoff[0] = 0;

    /* groups: the unit subflows with y M0 = 1, the most bits saved first,
     * each on places no group chosen before has */
    size_t nc = 0;
    for (size_t i = 0; i < fl->n; i++) {
        const int64_t *y = fl->y[i];
        size_t n = 0;
        uint64_t sum = 0;
        int unit = 1, exact = fl->exact[i];
        for (size_t p = 0; unit && p < np; p++) {
            if (!y[p])
                continue;
            if (y[p] != 1 || !r->changed[p] || nb[p] != 1)
                unit = 0;
            sum += pn_net_place(net, p)->marking;
            if (f.reset[p])
                exact = 0;
            n++;
        }
        if (!unit || sum != 1 || n < 2)
            continue;
        unsigned width = bits_for(exact ? n - 1 : n);
        if (width >= n)
            continue;
        cand_t c = {i, n, width, (unsigned)n - width, exact};
        cand[nc++] = c;
    }
    qsort(cand, nc, sizeof *cand, by_saving);
    size_t ng = 0, nmem = 0;
    for (size_t c = 0; c < nc; c++) {
        const int64_t *y = fl->y[cand[c].row];
        size_t n = 0;
        int free_ = 1;
        for (size_t p = 0; free_ && p < np; p++)
            if (y[p]) {
                if (r->kind[p] != PK_PLAIN)
                    free_ = 0;
                pl[n] = (uint32_t)p;
                co[n++] = 1;
            }
        if (!free_ || !flow_holds(&f, pl, co, n, cand[c].exact))
            continue;
        for (size_t k = 0; k < n; k++) {
            r->kind[pl[k]] = PK_GROUP;
            r->grp[pl[k]] = (uint32_t)ng;
            r->gidx[pl[k]] = (uint32_t)k;
            nb[pl[k]] = 0;
        }
        cand[ng++] = cand[c];
        nmem += n;
    }
    r->g_off = malloc((ng + 1) * sizeof *r->g_off);
    r->g_pl = malloc((nmem + 1) * sizeof *r->g_pl);
    r->g_w = malloc(ng + 1);
    r->g_exact = malloc(ng + 1);
    r->g_bit = malloc((ng + 1) * sizeof *r->g_bit);
    if (!r->g_off || !r->g_pl || !r->g_w || !r->g_exact || !r->g_bit)
        goto out;
    r->ngroups = (uint32_t)ng;
    r->g_off[0] = 0;
    for (size_t g = 0; g < ng; g++) {
        r->g_w[g] = (uint8_t)cand[g].width;
        r->g_exact[g] = (unsigned char)cand[g].exact;
        r->g_off[g + 1] = r->g_off[g] + (uint32_t)cand[g].n;
    }
    for (size_t p = 0; p < np; p++)
        if (r->kind[p] == PK_GROUP)
            r->g_pl[r->g_off[r->grp[p]] + r->gidx[p]] = (uint32_t)p;

    /* derived: a basis of the exact invariants (kernel()), each row giving
     * its own place from stored ones; past kernel()'s budget, the places
     * no transition changes only */
    size_t nconst = 0, npiv = 0, nterms = 0, nk = 0;
    int kst = kernel(r, net, &f, nb, &kbuf, piv, &nk);
    if (kst < 0)
        goto out;
    for (size_t i = 0; !kst && i < nk; i++) {
        /* a basis of the exact invariants: each its own place, from the
         * stored ones */
        uint32_t p = piv[i];
        const int64_t *y = kbuf + (size_t)p * (np + nt) + nt;
        size_t n = 0;
        __int128 c = 0;
        if (r->kind[p] != PK_PLAIN)
            continue;
        for (size_t q = 0; q < np; q++)
            if (y[q]) {
                pl[n] = (uint32_t)q;
                co[n++] = y[q];
                c += (__int128)y[q] * pn_net_place(net, q)->marking;
            }
        if (c > ((__int128)1 << 62) || c < -((__int128)1 << 62) ||
            !flow_holds(&f, pl, co, n, 1))
            continue;
        r->kind[p] = PK_DERIVED;
        nb[p] = 0;
        piv[npiv] = p;
        prow[npiv++] = (int64_t *)y;
        nterms += n - 1;
    }
    for (size_t p = 0; kst && p < np; p++)
        if (!r->changed[p] && r->kind[p] == PK_PLAIN) {
            r->kind[p] = PK_DERIVED;
            nb[p] = 0;
            nconst++;
        }
    size_t nd = nconst + npiv;
    r->d_place = malloc((nd + 1) * sizeof *r->d_place);
    r->d_off = malloc((nd + 1) * sizeof *r->d_off);
    r->d_q = malloc((nterms + 1) * sizeof *r->d_q);
    r->d_a = malloc((nterms + 1) * sizeof *r->d_a);
    r->d_c = malloc((nd + 1) * sizeof *r->d_c);
    r->d_div = malloc((nd + 1) * sizeof *r->d_div);
    if (!r->d_place || !r->d_off || !r->d_q || !r->d_a || !r->d_c ||
        !r->d_div)
        goto out;
    size_t k = 0, t = 0;
    r->d_off[0] = 0;
    for (size_t p = 0; nconst && p < np; p++)
        if (!r->changed[p] && r->kind[p] == PK_DERIVED) {
            r->d_place[k] = (uint32_t)p;
            r->d_c[k] = (int64_t)pn_net_place(net, p)->marking;
            r->d_div[k] = 1;
            r->d_off[++k] = (uint32_t)t;
        }
    for (size_t i = npiv; i-- > 0;) {
        const int64_t *y = prow[i];
        uint32_t p = piv[i];
        int64_t sign = y[p] < 0 ? -1 : 1;
        __int128 c = 0;
        for (size_t q = 0; q < np; q++) {
            if (!y[q])
                continue;
            c += (__int128)y[q] * pn_net_place(net, q)->marking;
            if (q != p) {
                r->d_q[t] = (uint32_t)q;
                r->d_a[t++] = sign * y[q];
            }
        }
        r->d_place[k] = p;
        r->d_c[k] = (int64_t)(sign * c);
        r->d_div[k] = sign * y[p];
        r->d_off[++k] = (uint32_t)t;
    }
    r->nder = (uint32_t)nd;
    st = PN_OK;
out:
    free(f.aoff);
    free(f.aidx);
    free(f.reset);
    free(f.acc);
    free(f.seen);
    free(f.touched);
    free(cand);
    free(pl);
    free(co);
    free(piv);
    free(prow);
    free(kbuf);
    return st;
}

/* The first layout: each place as wide as the largest count the net lets
 * it hold when that is known (its capacity; its initial count when no
 * transition changes it), else as its initial count (at least one bit).
 * A count that does not fit later widens the layout (widen()): this is
 * only where the search starts. */
static pn_status_t first_layout(pn_reach_t *r, const pn_net_t *net)
{
    size_t np = r->np, na = pn_net_arc_count(net);
    /* changed[p]: some transition changes p (a reset arc, or normal arcs
     * whose weights in and out differ); found per transition from its
     * arcs, grouped by a counting sort */
    unsigned char *changed = r->changed = calloc(np + 1, 1);
    int64_t *d = calloc(np + 1, sizeof *d);
    size_t *first = calloc((size_t)r->nt + 2, sizeof *first);
    size_t *order = malloc((na + 1) * sizeof *order);
    uint8_t *nb = malloc(np + 1);
    uint64_t *sb = malloc((np + 1) * sizeof *sb);
    pni_flows_t fl = {0, NULL, NULL};
    r->kind = calloc(np + 1, 1);
    r->chg_off = malloc(((size_t)r->nt + 1) * sizeof *r->chg_off);
    r->chg_idx = malloc((na + 1) * sizeof *r->chg_idx);
    pn_status_t st = changed && d && first && order && nb && sb && r->chg_off &&
                             r->kind &&
                             r->chg_idx && na < UINT32_MAX
                         ? PN_OK
                         : PN_ENOMEM;
    if (!st) {
        for (size_t a = 0; a < na; a++)
            first[pn_net_arc(net, a)->transition + 1]++;
        for (size_t t = 0; t < r->nt; t++)
            first[t + 1] += first[t];
        for (size_t a = 0; a < na; a++)
            order[first[pn_net_arc(net, a)->transition]++] = a;
        for (size_t t = r->nt; t > 0; t--)
            first[t] = first[t - 1];
        first[0] = 0;
        size_t nchg = 0;
        for (size_t t = 0; t < r->nt; t++) {
            for (size_t k = first[t]; k < first[t + 1]; k++) {
                const pn_arc_t *arc = pn_net_arc(net, order[k]);
                if (arc->kind == PN_ARC_RESET)
                    d[arc->place] = INT64_MAX; /* changed, whatever else */
                else if (arc->kind == PN_ARC_NORMAL &&
                         d[arc->place] != INT64_MAX) {
                    int64_t w = arc->weight > INT64_MAX / 4
                                    ? INT64_MAX / 4 : (int64_t)arc->weight;
                    d[arc->place] += arc->dir == PN_DIR_TP ? w : -w;
                }
            }
            /* t's changed places, each once */
            r->chg_off[t] = (uint32_t)nchg;
            for (size_t k = first[t]; k < first[t + 1]; k++) {
                const pn_arc_t *arc = pn_net_arc(net, order[k]);
                if (d[arc->place]) {
                    changed[arc->place] = 1;
                    r->chg_idx[nchg++] = (uint32_t)arc->place;
                }
                d[arc->place] = 0;
            }
        }
        r->chg_off[r->nt] = (uint32_t)nchg;
        /* the bounds the P-semiflows give (none when they are too costly
         * to find) */
        if (pni_semiflows(net, sb, &fl) < 0)
            st = PN_ENOMEM;
        r->bounded = 1;
        for (size_t p = 0; p < np; p++) {
            const pn_place_t *pl = pn_net_place(net, p);
            uint64_t top = pl->marking;
            if (pl->capacity && pl->capacity > top)
                top = pl->capacity;
            else if (changed[p] && !pl->capacity && top < 1)
                top = 1;
            if (sb[p] != UINT64_MAX) {
                top = sb[p];
                if (pl->capacity && pl->capacity < top)
                    top = pl->capacity;
            } else if (changed[p] && !pl->capacity)
                r->bounded = 0;
            nb[p] = (uint8_t)bits_for(top);
        }
        if (!st)
            st = compress(r, net, &fl, nb);
        if (!st)
            set_layout(r, nb);
    }
    pni_flows_free(&fl);
    free(d);
    free(first);
    free(order);
    free(nb);
    free(sb);
    return st;
}

/* Maximal steps on a net without capacities (see maximal_sets() and
 * maximal_sets_rs()): the normal inputs and reset places of each
 * transition, and the scratch of the search's cut. */
static pn_status_t setup_resets(pn_reach_t *r, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net), nt = r->nt;
    if (pni_engine_has_capacity(r->engine))
        return PN_OK;
    for (size_t a = 0; a < na && !r->resets; a++)
        r->resets = pn_net_arc(net, a)->kind == PN_ARC_RESET;
    r->last = malloc((nt + 1) * sizeof *r->last);
    r->cl_off = malloc((nt + 2) * sizeof *r->cl_off);
    r->cl_idx = malloc((nt + 1) * sizeof *r->cl_idx);
    r->skipped = calloc(nt + 1, 1);
    r->rz = calloc((size_t)r->np + 1, sizeof *r->rz);
    if (!r->last || !r->cl_off || !r->cl_idx || !r->skipped || !r->rz)
        return PN_ENOMEM;
    r->ni_off = calloc(nt + 2, sizeof *r->ni_off);
    r->rs_off = calloc(nt + 2, sizeof *r->rs_off);
    r->ni_idx = malloc((na + 1) * sizeof *r->ni_idx);
    r->ni_w = malloc((na + 1) * sizeof *r->ni_w);
    r->rs_idx = malloc((na + 1) * sizeof *r->rs_idx);
    r->ucons = calloc((size_t)r->np + 1, sizeof *r->ucons);
    r->order = malloc(2 * (nt + 1) * sizeof *r->order);
    if (!r->ni_off || !r->rs_off || !r->ni_idx || !r->ni_w || !r->rs_idx ||
        !r->ucons || !r->order)
        return PN_ENOMEM;
    /* count, place, then merge each transition's arcs in place */
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir != PN_DIR_PT)
            continue;
        if (arc->kind == PN_ARC_NORMAL)
            r->ni_off[arc->transition + 2]++;
        else if (arc->kind == PN_ARC_RESET)
            r->rs_off[arc->transition + 2]++;
    }
    for (size_t t = 0; t < nt; t++) {
        r->ni_off[t + 2] += r->ni_off[t + 1];
        r->rs_off[t + 2] += r->rs_off[t + 1];
    }
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir != PN_DIR_PT)
            continue;
        if (arc->kind == PN_ARC_NORMAL) {
            uint32_t j = r->ni_off[arc->transition + 1]++;
            r->ni_idx[j] = (uint32_t)arc->place;
            r->ni_w[j] = arc->weight;
        } else if (arc->kind == PN_ARC_RESET) {
            r->rs_idx[r->rs_off[arc->transition + 1]++] =
                (uint32_t)arc->place;
        }
    }
    uint32_t ni = 0, nr = 0;
    for (size_t t = 0; t < nt; t++) {
        uint32_t i0 = r->ni_off[t], i1 = r->ni_off[t + 1];
        uint32_t r0 = r->rs_off[t], r1 = r->rs_off[t + 1];
        r->ni_off[t] = ni;
        r->rs_off[t] = nr;
        for (uint32_t j = i0; j < i1; j++) {
            uint32_t k = r->ni_off[t];
            while (k < ni && r->ni_idx[k] != r->ni_idx[j])
                k++;
            if (k == ni) {
                r->ni_idx[ni] = r->ni_idx[j];
                r->ni_w[ni++] = r->ni_w[j];
            } else {
                r->ni_w[k] = r->ni_w[k] > UINT64_MAX - r->ni_w[j]
                                 ? UINT64_MAX : r->ni_w[k] + r->ni_w[j];
            }
        }
        for (uint32_t j = r0; j < r1; j++) {
            uint32_t k = r->rs_off[t];
            while (k < nr && r->rs_idx[k] != r->rs_idx[j])
                k++;
            if (k == nr)
                r->rs_idx[nr++] = r->rs_idx[j];
        }
    }
    r->ni_off[nt] = ni;
    r->rs_off[nt] = nr;
    return PN_OK;
}

static pn_status_t setup(pn_reach_t *r, const pn_net_t *net,
                         const pn_reach_options_t *o)
{
    pn_status_t st = pn_engine_compile(net, &r->engine);
    if (st)
        return st;
    r->np = (uint32_t)pn_net_place_count(net);
    r->nt = (uint32_t)pn_net_transition_count(net);
    r->sem = o->semantics;
    r->keep_graph = o->graph || o->semantics == PN_SEM_MAXIMAL;
    r->first_dead = NO_STATE;
    size_t np = r->np + 1, nt = r->nt + 1;
    r->bound = calloc(np, sizeof *r->bound);
    r->lowest = malloc(np * sizeof *r->lowest);
    r->fires = calloc(nt, 1);
    r->m = malloc(np * sizeof *r->m);
    r->pend = calloc(np, sizeof *r->pend);
    r->next = malloc(np * sizeof *r->next);
    r->tmp = malloc(np * sizeof *r->tmp);
    r->key = malloc(np * sizeof(uint64_t));
    r->cmp = malloc(np * sizeof *r->cmp);
    r->bits = malloc(np);
    r->lim = malloc(np * sizeof *r->lim);
    r->off = malloc(np * sizeof *r->off);
    r->pkey = malloc(np * sizeof *r->pkey);
    r->undo = malloc(np * sizeof *r->undo);
    r->pkey_for = NO_STATE;
    r->en = malloc(nt * sizeof *r->en);
    r->set = malloc(nt * sizeof *r->set);
    r->use = calloc(np, sizeof *r->use);
    r->competes = malloc(nt);
    if (!r->bound || !r->lowest || !r->fires || !r->m ||
        !r->pend || !r->next || !r->tmp || !r->key || !r->en || !r->set ||
        !r->use || !r->competes || !r->cmp || !r->bits || !r->lim ||
        !r->off || !r->pkey || !r->undo)
        return PN_ENOMEM;
    if ((st = first_layout(r, net)))
        return st;
    if (r->sem == PN_SEM_MAXIMAL) {
        /* a budget and its promises for each level of the search */
        size_t words = 2 * (nt + 1) * np;
        if (words / np != 2 * (nt + 1) ||
            !(r->stack = malloc(words * sizeof *r->stack)))
            return PN_ENOMEM;
        if ((st = setup_resets(r, net)))
            return st;
    }
    for (size_t p = 0; p < np; p++)
        r->lowest[p] = UINT64_MAX;
    r->max_memory = o->max_memory;
    r->max_states = o->max_states;
    r->token_bound = o->token_bound;
    r->progress = o->progress;
    r->progress_ctx = o->progress_ctx;
    r->ticks = TICKS;
    r->cover = r->covered = NO_STATE;
    if (o->unbounded && o->semantics == PN_SEM_INTERLEAVING) {
        /* monotone nets only: normal and read arcs, no capacities */
        int monotone = 1;
        if (!(r->delta = calloc(nt, sizeof *r->delta)))
            return PN_ENOMEM;
        for (size_t a = 0; a < pn_net_arc_count(net); a++) {
            const pn_arc_t *arc = pn_net_arc(net, a);
            if (arc->kind == PN_ARC_INHIBITOR || arc->kind == PN_ARC_RESET)
                monotone = 0;
            else if (arc->kind == PN_ARC_NORMAL) {
                int64_t w = arc->weight > INT64_MAX / 4 ? INT64_MAX / 4
                                                        : (int64_t)arc->weight;
                r->delta[arc->transition] += arc->dir == PN_DIR_TP ? w : -w;
            }
        }
        for (size_t p = 0; p < r->np; p++)
            if (pn_net_place(net, p)->capacity)
                monotone = 0;
        int grows = 0;
        for (size_t t = 0; t < r->nt; t++)
            grows |= r->delta[t] > 0;
        /* no transition adds tokens: the total never grows, bounded;
         * every place within a semiflow's bound: bounded */
        r->cover_check = monotone && grows && !r->bounded;
    }
    r->keep_parent = !o->no_paths || r->cover_check;
    return rehash(r, 1024);
}

static pn_status_t explore(const pn_net_t *net, const pn_reach_options_t *o,
                           int (*hook)(pn_reach_t *, uint32_t,
                                       const uint64_t *, void *),
                           void *ctx, pn_reach_t **out)
{
    pn_reach_options_t defaults;
    if (!o) {
        pn_reach_defaults(&defaults);
        o = &defaults;
    }
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    pn_reach_t *r = calloc(1, sizeof *r);
    if (!r)
        return PN_ENOMEM;
    r->hook = hook;
    r->hook_ctx = ctx;
    pn_status_t st = setup(r, net, o);
    uint32_t first;
    int added;
    for (size_t p = 0; !st && p < r->np; p++)
        r->m[p] = pn_net_place(net, p)->marking;
    if (!st)
        st = find_or_add(r, r->m, NO_STATE, NULL, 0, &first, &added);
    if (!st && r->cover_check)
        r->record[0] = 0;
    if (st == PN_ETOOBIG) {
        st = PN_OK;
        r->end = PN_REACH_MAX_MEMORY;
        *out = r;
        return PN_OK;
    }
    if (!st && hook && hook(r, 0, r->m, ctx)) {
        r->end = PN_REACH_DECIDED;
        *out = r;
        return PN_OK;
    }
    if (!st && pni_grow((void **)&r->succ_off, &r->cap_off, 1,
                        sizeof *r->succ_off))
        st = PN_ENOMEM;
    if (!st)
        r->succ_off[0] = 0;
    for (size_t i = 0; !st && i < r->nstates; i++) {
        marking_of(r, i, r->m);
        expand_t x = {(uint32_t)i, r->nsucc, PN_OK, 0};
        int ret = successors(r, r->m, on_successor, &x);
        if (ret < 0) {
            r->end = PN_REACH_OVERFLOW;
            break;
        }
        if (ret > 0) {
            /* the edges to the markings stored before the search stopped
             * within this one's successors */
            r->edges += x.nedges;
            if (r->limit != PN_REACH_COMPLETE) {
                r->end = r->limit;
                break;
            }
            if (r->cover != NO_STATE) {
                r->end = PN_REACH_UNBOUNDED;
                break;
            }
            if (r->stopped) {
                r->end = PN_REACH_DECIDED;
                break;
            }
            st = x.st ? x.st : PN_ENOMEM;
            if (st == PN_ERANGE) {
                st = PN_OK;
                r->end = PN_REACH_MAX_STATES;
            } else if (st == PN_ETOOBIG) {
                st = PN_OK;
                r->end = PN_REACH_MAX_MEMORY;
            }
            break;
        }
        if (r->keep_graph) {
            if (pni_grow((void **)&r->succ_off, &r->cap_off, i + 2,
                         sizeof *r->succ_off)) {
                st = PN_ENOMEM;
                break;
            }
            r->succ_off[i + 1] = r->nsucc;
        }
        r->edges += x.nedges;
        if (x.nedges == 0) {
            if (r->first_dead == NO_STATE)
                r->first_dead = (uint32_t)i;
            r->dead++;
        }
        if (o->token_bound && r->max_place > o->token_bound) {
            r->end = PN_REACH_TOKEN_BOUND;
            break;
        }
        tick(r);
    }
    if (st) {
        pn_reach_free(r);
        return st;
    }
    *out = r;
    return PN_OK;
}

pn_status_t pn_reach_explore(const pn_net_t *net, const pn_reach_options_t *o,
                             pn_reach_t **out)
{
    return explore(net, o, NULL, NULL, out);
}

/* ---- results ------------------------------------------------------------- */

pn_reach_end_t pn_reach_end(const pn_reach_t *r) { return r->end; }
uint64_t pn_reach_states(const pn_reach_t *r) { return r->nstates; }
uint64_t pn_reach_edges(const pn_reach_t *r) { return r->edges; }
uint64_t pn_reach_dead(const pn_reach_t *r) { return r->dead; }
uint64_t pn_reach_max_tokens_in_place(const pn_reach_t *r)
{
    return r->max_place;
}
uint64_t pn_reach_max_tokens_per_marking(const pn_reach_t *r)
{
    return r->max_total;
}
uint64_t pn_reach_place_bound(const pn_reach_t *r, size_t p)
{
    return p < r->np ? r->bound[p] : 0;
}
int pn_reach_transition_fires(const pn_reach_t *r, size_t t)
{
    return t < r->nt && r->fires[t];
}
int pn_reach_stable_place(const pn_reach_t *r)
{
    for (uint32_t p = 0; p < r->np; p++)
        if (r->bound[p] == r->lowest[p])
            return 1;
    return 0;
}

pn_status_t pn_reach_marking(const pn_reach_t *r, uint64_t i, uint64_t *m)
{
    if (!r || !m || i >= r->nstates)
        return PN_EINVAL;
    marking_of(r, (size_t)i, m);
    return PN_OK;
}

int pn_reach_contains(const pn_reach_t *r, const uint64_t *m)
{
    if (!r || !m)
        return 0;
    for (uint32_t p = 0; p < r->np; p++)
        if (m[p] > r->lim[p])
            return 0;
    if (!r->slots)
        return 0;
    /* m must keep the invariants that the packed form leaves out */
    for (uint32_t g = 0; g < r->ngroups; g++) {
        uint64_t n = 0;
        for (uint32_t k = r->g_off[g]; k < r->g_off[g + 1]; k++)
            n += m[r->g_pl[k]];
        if (n > 1 || (r->g_exact[g] && n != 1))
            return 0;
    }
    memcpy(r->cmp, m, r->np * sizeof *m);
    derive(r, r->cmp);
    if (memcmp(r->cmp, m, r->np * sizeof *m))
        return 0;
    pack(r, r->key, m);
    uint32_t found;
    probe(r, r->key, hash_bytes((const uint8_t *)r->key, r->stride), &found);
    return found != NO_STATE;
}

void pn_reach_path_free(pn_reach_path_t *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nsteps; i++)
        free(p->steps[i]);
    free(p->steps);
    free(p->n_in_step);
    free(p);
}

typedef struct {
    const uint64_t *want;
    uint32_t *found;
    size_t n;
} match_t;

static int on_match(pn_reach_t *r, const uint32_t *set, size_t n,
                    const uint64_t *next, void *ctx)
{
    match_t *mt = ctx;
    if (memcmp(next, mt->want, r->np * sizeof *next))
        return 0;
    mt->found = malloc((n + 1) * sizeof *mt->found);
    if (mt->found)
        memcpy(mt->found, set, n * sizeof *set);
    mt->n = n;
    return 1;
}

/* The path through the states chain[0..len) (each a successor of the one
 * before): the step between each pair is found again by recomputing the
 * successors, so no step is stored per state. */
static pn_status_t path_of(const pn_reach_t *rc, const uint32_t *chain,
                           size_t len, pn_reach_path_t **out)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    pn_reach_path_t *p = calloc(1, sizeof *p);
    if (!p)
        return PN_ENOMEM;
    size_t n = len ? len - 1 : 0;
    p->steps = calloc(n + 1, sizeof *p->steps);
    p->n_in_step = calloc(n + 1, sizeof *p->n_in_step);
    if (!p->steps || !p->n_in_step) {
        pn_reach_path_free(p);
        return PN_ENOMEM;
    }
    uint64_t *want = malloc((r->np + 1) * sizeof *want);
    if (!want) {
        pn_reach_path_free(p);
        return PN_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        marking_of(r, chain[i + 1], want);
        marking_of(r, chain[i], r->m);
        match_t mt = {want, NULL, 0};
        successors(r, r->m, on_match, &mt);
        if (!mt.found) {
            free(want);
            pn_reach_path_free(p);
            return PN_ENOMEM;
        }
        p->steps[i] = mt.found;
        p->n_in_step[i] = mt.n;
        p->nsteps++;
    }
    free(want);
    *out = p;
    return PN_OK;
}

pn_status_t pn_reach_path(const pn_reach_t *r, uint64_t state,
                          pn_reach_path_t **out)
{
    if (!r || !out || state >= r->nstates || !r->keep_parent)
        return PN_EINVAL;
    size_t len = 0;
    for (uint32_t s = (uint32_t)state; s != NO_STATE; s = r->parent[s])
        len++;
    uint32_t *chain = malloc((len + 1) * sizeof *chain);
    if (!chain)
        return PN_ENOMEM;
    size_t k = len;
    for (uint32_t s = (uint32_t)state; s != NO_STATE; s = r->parent[s])
        chain[--k] = s;
    pn_status_t st = path_of(r, chain, len, out);
    free(chain);
    return st;
}

pn_status_t pn_reach_dead_path(const pn_reach_t *r, pn_reach_path_t **out)
{
    if (!r || !out || r->first_dead == NO_STATE)
        return PN_EINVAL;
    return pn_reach_path(r, r->first_dead, out);
}

uint64_t pn_reach_depth(const pn_reach_t *r, uint64_t state)
{
    uint64_t d = 0;
    if (!r || state >= r->nstates || !r->keep_parent)
        return 0;
    for (uint32_t s = r->parent[state]; s != NO_STATE; s = r->parent[s])
        d++;
    return d;
}

int pn_reach_unbounded(const pn_reach_t *r, uint64_t *cover,
                       uint64_t *covered)
{
    if (!r || r->end != PN_REACH_UNBOUNDED)
        return 0;
    if (cover)
        *cover = r->cover;
    if (covered)
        *covered = r->covered;
    return 1;
}

int pn_reach_dead_state(const pn_reach_t *r, uint64_t state)
{
    if (!r || state >= r->nstates)
        return 0;
    pn_reach_t *w = (pn_reach_t *)r; /* scratch buffer only */
    marking_of(w, (size_t)state, w->tmp);
    for (uint32_t t = 0; t < r->nt; t++)
        if (pni_engine_enabled(r->engine, w->tmp, t))
            return 0;
    return 1;
}

void pni_reach_layout(const pn_reach_t *r, size_t *groups, size_t *exact,
                      size_t *derived, size_t *stride)
{
    *groups = r->ngroups;
    *exact = 0;
    for (uint32_t g = 0; g < r->ngroups; g++)
        *exact += r->g_exact[g];
    *derived = r->nder;
    *stride = r->stride;
}

uint64_t pn_reach_memory(const pn_reach_t *r)
{
    return r ? bytes_used(r) : 0;
}

/* ---- queries ------------------------------------------------------------- */

/* A sum's value, exact: counts are below 2^63 and a net has fewer than
 * 2^32 places, so 128 bits cannot overflow. */
static unsigned __int128 sum_of(const pn_qsum_t *s, const uint64_t *m)
{
    unsigned __int128 v = s->constant;
    for (size_t i = 0; i < s->nplaces; i++)
        v += m[s->places[i]];
    return v;
}

static int holds(const pn_reach_t *r, const pn_qformula_t *f,
                 const uint64_t *m)
{
    switch (f->kind) {
    case PN_QF_TRUE: return 1;
    case PN_QF_FALSE: return 0;
    case PN_QF_DEADLOCK:
        for (uint32_t t = 0; t < r->nt; t++)
            if (pni_engine_enabled(r->engine, m, t))
                return 0;
        return 1;
    case PN_QF_FIREABLE:
        for (size_t i = 0; i < f->nitems; i++)
            if (f->items[i] < r->nt &&
                pni_engine_enabled(r->engine, m, (uint32_t)f->items[i]))
                return 1;
        return 0;
    case PN_QF_CMP: {
        unsigned __int128 a = sum_of(&f->lhs, m), b = sum_of(&f->rhs, m);
        switch (f->op) {
        case PN_QCMP_LT: return a < b;
        case PN_QCMP_LE: return a <= b;
        case PN_QCMP_EQ: return a == b;
        case PN_QCMP_NE: return a != b;
        case PN_QCMP_GE: return a >= b;
        default: return a > b;
        }
    }
    case PN_QF_NOT: return !holds(r, f->kids[0], m);
    case PN_QF_AND:
        for (size_t i = 0; i < f->nkids; i++)
            if (!holds(r, f->kids[i], m))
                return 0;
        return 1;
    default:
        for (size_t i = 0; i < f->nkids; i++)
            if (holds(r, f->kids[i], m))
                return 1;
        return 0;
    }
}

typedef struct {
    const pn_query_set_t *qs;
    pn_query_answer_t *a;
    size_t open;       /* EF and AG queries not decided yet */
    int bounds;        /* some query is a bound: every marking is needed */
} query_ctx_t;

static int on_state(pn_reach_t *r, uint32_t state, const uint64_t *m,
                    void *ctx)
{
    query_ctx_t *c = ctx;
    for (size_t i = 0; i < c->qs->n; i++) {
        const pn_query_t *q = &c->qs->q[i];
        pn_query_answer_t *a = &c->a[i];
        if (q->kind == PN_QUERY_BOUND) {
            uint64_t v = saturated(sum_of(&q->bound, m));
            if (a->state == PN_REACH_NO_STATE || v > a->bound) {
                a->bound = v;
                a->state = state;
            }
        } else if (!a->known &&
                   holds(r, q->formula, m) == (q->kind == PN_QUERY_EF)) {
            a->known = 1;
            a->value = q->kind == PN_QUERY_EF;
            a->state = state;
            c->open--;
        }
    }
    return c->open == 0 && !c->bounds;
}

static int formula_fits(const pn_qformula_t *f, size_t np, size_t nt)
{
    if (!f)
        return 0;
    for (size_t i = 0; i < f->lhs.nplaces; i++)
        if (f->lhs.places[i] >= np)
            return 0;
    for (size_t i = 0; i < f->rhs.nplaces; i++)
        if (f->rhs.places[i] >= np)
            return 0;
    for (size_t i = 0; i < f->nitems; i++)
        if (f->items[i] >= nt)
            return 0;
    if (f->kind == PN_QF_NOT && f->nkids != 1)
        return 0;
    for (size_t i = 0; i < f->nkids; i++)
        if (!formula_fits(f->kids[i], np, nt))
            return 0;
    return 1;
}

pn_status_t pn_reach_query(const pn_net_t *net, const pn_reach_options_t *o,
                           const pn_query_set_t *qs,
                           pn_query_answer_t *answers, pn_reach_t **out)
{
    if (!net || !qs || (!answers && qs->n) || !out)
        return PN_EINVAL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    query_ctx_t c = {qs, answers, 0, 0};
    for (size_t i = 0; i < qs->n; i++) {
        const pn_query_t *q = &qs->q[i];
        if (q->kind == PN_QUERY_BOUND) {
            for (size_t k = 0; k < q->bound.nplaces; k++)
                if (q->bound.places[k] >= np)
                    return PN_EINVAL;
            c.bounds = 1;
        } else if (!formula_fits(q->formula, np, nt)) {
            return PN_EINVAL;
        } else {
            c.open++;
        }
        answers[i].known = answers[i].value = 0;
        answers[i].bound = 0;
        answers[i].state = PN_REACH_NO_STATE;
    }
    pn_status_t st = explore(net, o, on_state, &c, out);
    if (st)
        return st;
    if ((*out)->end == PN_REACH_COMPLETE)
        for (size_t i = 0; i < qs->n; i++) {
            pn_query_answer_t *a = &answers[i];
            if (!a->known) {
                a->known = 1;
                a->value = qs->q[i].kind == PN_QUERY_AG;
            }
        }
    return PN_OK;
}

/* Longest distances from the initial state over the graph, in a
 * topological order (Kahn); *acyclic = 0 when a cycle remains.  dist and
 * via get one entry per state. */
static pn_status_t longest(const pn_reach_t *r, uint64_t *dist,
                           uint32_t *via, int *acyclic)
{
    size_t n = r->nstates;
    uint32_t *indeg = calloc(n + 1, sizeof *indeg);
    uint32_t *queue = malloc((n + 1) * sizeof *queue);
    if (!indeg || !queue) {
        free(indeg);
        free(queue);
        return PN_ENOMEM;
    }
    for (size_t k = 0; k < r->nsucc; k++)
        indeg[r->succ[k]]++;
    size_t qh = 0, qt = 0;
    for (size_t i = 0; i < n; i++) {
        dist[i] = 0;
        via[i] = NO_STATE;
        if (indeg[i] == 0)
            queue[qt++] = (uint32_t)i;
    }
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint64_t k = r->succ_off[u]; k < r->succ_off[u + 1]; k++) {
            uint32_t v = r->succ[k];
            if (dist[u] + 1 > dist[v]) {
                dist[v] = dist[u] + 1;
                via[v] = u;
            }
            if (--indeg[v] == 0)
                queue[qt++] = v;
        }
    }
    *acyclic = qt == n;
    free(indeg);
    free(queue);
    return PN_OK;
}

pn_status_t pn_reach_run_lengths(const pn_reach_t *r, int *terminates,
                                 uint64_t *min_steps, uint64_t *max_steps)
{
    *terminates = 0;
    if (!r || r->end != PN_REACH_COMPLETE || !r->keep_graph)
        return PN_EINVAL;
    uint64_t *dist = malloc((r->nstates + 1) * sizeof *dist);
    uint32_t *via = malloc((r->nstates + 1) * sizeof *via);
    int acyclic = 0;
    pn_status_t st = dist && via ? longest(r, dist, via, &acyclic) : PN_ENOMEM;
    if (!st && acyclic) {
        /* BFS found states by depth: the first dead one is the nearest */
        uint64_t lo = 0, hi = 0;
        for (size_t i = 0; i < r->nstates; i++)
            if (r->succ_off[i] == r->succ_off[i + 1] && dist[i] > hi)
                hi = dist[i];
        if (r->keep_parent) {
            for (uint32_t s = r->first_dead;
                 s != NO_STATE && r->parent[s] != NO_STATE; s = r->parent[s])
                lo++;
        } else if (r->first_dead != NO_STATE) {
            /* no parents: the BFS depths again, from the graph (a state
             * was found by the first state before it with an edge to
             * it) */
            for (size_t i = 0; i < r->nstates; i++)
                dist[i] = UINT64_MAX;
            dist[0] = 0;
            for (size_t u = 0; u < r->nstates; u++)
                for (uint64_t k = r->succ_off[u]; k < r->succ_off[u + 1];
                     k++)
                    if (dist[r->succ[k]] == UINT64_MAX)
                        dist[r->succ[k]] = dist[u] + 1;
            lo = dist[r->first_dead];
        }
        *terminates = 1;
        *min_steps = lo;
        *max_steps = hi;
    }
    free(dist);
    free(via);
    if (st)
        return st;
    return acyclic ? PN_OK : PN_EINVAL;
}

pn_status_t pn_reach_longest_path(const pn_reach_t *r, pn_reach_path_t **out)
{
    if (!r || !out || r->end != PN_REACH_COMPLETE || !r->keep_graph)
        return PN_EINVAL;
    uint64_t *dist = malloc((r->nstates + 1) * sizeof *dist);
    uint32_t *via = malloc((r->nstates + 1) * sizeof *via);
    int acyclic = 0;
    pn_status_t st = dist && via ? longest(r, dist, via, &acyclic) : PN_ENOMEM;
    uint32_t end = NO_STATE;
    for (size_t i = 0; !st && acyclic && i < r->nstates; i++)
        if (r->succ_off[i] == r->succ_off[i + 1] &&
            (end == NO_STATE || dist[i] > dist[end]))
            end = (uint32_t)i;
    if (!st && (!acyclic || end == NO_STATE))
        st = PN_EINVAL;
    uint32_t *chain = NULL;
    if (!st) {
        size_t len = (size_t)dist[end] + 1, k = len;
        chain = malloc((len + 1) * sizeof *chain);
        if (!chain)
            st = PN_ENOMEM;
        for (uint32_t s = end; !st && s != NO_STATE; s = via[s])
            chain[--k] = s;
        if (!st)
            st = path_of(r, chain, len, out);
    }
    free(chain);
    free(dist);
    free(via);
    return st;
}

/* ---- liveness: strongly connected components (Tarjan, iterative) -------- */

typedef struct {
    uint32_t *index, *low, *stack, *comp, *call;
    uint64_t *pos;
    unsigned char *on;
} tarjan_t;

static void tarjan_free(tarjan_t *t)
{
    free(t->index);
    free(t->low);
    free(t->stack);
    free(t->comp);
    free(t->call);
    free(t->pos);
    free(t->on);
}

/* comp[v]: the component of each state; returns the number of components,
 * or -1 when out of memory. */
static long components(const pn_reach_t *r, tarjan_t *t)
{
    size_t n = r->nstates;
    t->index = malloc((n + 1) * sizeof *t->index);
    t->low = malloc((n + 1) * sizeof *t->low);
    t->stack = malloc((n + 1) * sizeof *t->stack);
    t->comp = malloc((n + 1) * sizeof *t->comp);
    t->call = malloc((n + 1) * sizeof *t->call);
    t->pos = malloc((n + 1) * sizeof *t->pos);
    t->on = calloc(n + 1, 1);
    if (!t->index || !t->low || !t->stack || !t->comp || !t->call ||
        !t->pos || !t->on)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->index[i] = NO_STATE;
    uint32_t next = 0, ncomp = 0;
    size_t sp = 0;
    for (size_t root = 0; root < n; root++) {
        if (t->index[root] != NO_STATE)
            continue;
        size_t depth = 0;
        t->call[depth] = (uint32_t)root;
        t->index[root] = t->low[root] = next++;
        t->pos[root] = r->succ_off[root];
        t->stack[sp++] = (uint32_t)root;
        t->on[root] = 1;
        for (;;) {
            uint32_t v = t->call[depth];
            if (t->pos[v] < r->succ_off[v + 1]) {
                uint32_t w = r->succ[t->pos[v]++];
                if (t->index[w] == NO_STATE) {
                    t->index[w] = t->low[w] = next++;
                    t->pos[w] = r->succ_off[w];
                    t->stack[sp++] = w;
                    t->on[w] = 1;
                    t->call[++depth] = w;
                } else if (t->on[w] && t->index[w] < t->low[v]) {
                    t->low[v] = t->index[w];
                }
                continue;
            }
            if (t->low[v] == t->index[v]) {
                uint32_t w;
                do {
                    w = t->stack[--sp];
                    t->on[w] = 0;
                    t->comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            if (depth == 0)
                break;
            uint32_t u = t->call[--depth];
            if (t->low[v] < t->low[u])
                t->low[u] = t->low[v];
        }
    }
    return (long)ncomp;
}

pn_status_t pn_reach_live(const pn_reach_t *rc, int *live)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    *live = 0;
    if (!r || r->end != PN_REACH_COMPLETE || !r->keep_graph)
        return PN_EINVAL;
    tarjan_t t = {0};
    long nc = components(r, &t);
    size_t n = r->nstates;
    /* exits[c]: an edge leaves component c (it is not terminal); first and
     * order: the states grouped by component (counting sort) */
    unsigned char *exits = nc >= 0 ? calloc((size_t)nc + 1, 1) : NULL;
    size_t *first = nc >= 0 ? calloc((size_t)nc + 2, sizeof *first) : NULL;
    uint32_t *order = malloc((n + 1) * sizeof *order);
    unsigned char *enabled = calloc((size_t)r->nt + 1, 1);
    pn_status_t st = exits && first && order && enabled ? PN_OK : PN_ENOMEM;
    if (!st) {
        for (size_t v = 0; v < n; v++) {
            first[t.comp[v] + 1]++;
            for (uint64_t k = r->succ_off[v]; k < r->succ_off[v + 1]; k++)
                if (t.comp[r->succ[k]] != t.comp[v])
                    exits[t.comp[v]] = 1;
        }
        for (long c = 0; c < nc; c++)
            first[c + 1] += first[c];
        /* t.low is free now: the fill position of each component */
        for (long c = 0; c < nc; c++)
            t.low[c] = (uint32_t)first[c];
        for (size_t v = 0; v < n; v++)
            order[t.low[t.comp[v]]++] = (uint32_t)v;
        /* live: every terminal component enables every transition */
        int ok = 1;
        for (long c = 0; ok && c < nc; c++) {
            if (exits[c])
                continue;
            memset(enabled, 0, r->nt);
            size_t count = 0;
            for (size_t k = first[c]; k < first[c + 1]; k++) {
                marking_of(r, order[k], r->m);
                for (uint32_t tr = 0; tr < r->nt; tr++)
                    if (!enabled[tr] &&
                        pni_engine_enabled(r->engine, r->m, tr)) {
                        enabled[tr] = 1;
                        count++;
                    }
            }
            ok = count == r->nt;
        }
        *live = ok;
    }
    free(exits);
    free(first);
    free(order);
    free(enabled);
    tarjan_free(&t);
    return st;
}
