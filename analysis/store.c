/*
 * The store of the state space: markings bit-packed in one arena, the
 * layout of a state and its widening, the hash index.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

/* Bytes a state takes beside its packed marking: parent, record. */
static uint64_t per_state_extra(const pn_reach_t *r)
{
    return (r->graph.keep_parent ? 4 : 0) + (r->cov.check ? 4 : 0);
}

/* Bytes held by the search's growing tables (states, parents, index,
 * graph). */
static uint64_t store_bytes(const pn_reach_t *r)
{
    return (uint64_t)r->store.cap_states *
               (r->lay.stride + per_state_extra(r)) +
           (r->store.cap_states ? PACK_PAD : 0) +
           (uint64_t)r->store.nslots * r->store.slot_w +
           (uint64_t)r->graph.cap_off * 8 + (uint64_t)r->graph.cap_succ * 4;
}

/* Whether growing by extra bytes would pass the memory limit. */
int pni_over_memory(const pn_reach_t *r, uint64_t extra)
{
    return r->limits.max_memory &&
           store_bytes(r) + extra > r->limits.max_memory;
}

/* ---- packed markings ---------------------------------------------------- */

static uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

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
    for (uint32_t k = r->lay.g_off[g]; k < r->lay.g_off[g + 1]; k++)
        if (m[r->lay.g_pl[k]])
            return k - r->lay.g_off[g] + !r->lay.g_exact[g];
    return 0;
}

/* m into dst: the counts' bits one after the other (bits[p] of place p),
 * then the groups' codes, whole words (the bits past the state's are
 * zero); r->lay.stride bytes of it are the state. */
static void pack_bits(const pn_reach_t *r, const uint8_t *bits, uint64_t *dst,
                      const uint64_t *m)
{
    bitwr_t b = {dst, 0, 0, 0};
    for (uint32_t p = 0; p < r->np; p++)
        if (bits[p])
            bitwr_put(&b, m[p], bits[p]);
    for (uint32_t g = 0; g < r->lay.ngroups; g++)
        bitwr_put(&b, group_code(r, g, m), r->lay.g_w[g]);
    dst[b.o] = b.acc;
}

static void pack(const pn_reach_t *r, uint64_t *dst, const uint64_t *m)
{
    pack_bits(r, r->lay.bits, dst, m);
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
    return v & pni_bits_max(w);
}

/* The derived places of m from the others. */
static void derive(const pn_reach_t *r, uint64_t *m)
{
    for (uint32_t k = 0; k < r->lay.nder; k++) {
        __int128 v = r->lay.d_c[k];
        for (uint32_t j = r->lay.d_off[k]; j < r->lay.d_off[k + 1]; j++)
            v -= (__int128)r->lay.d_a[j] * (__int128)m[r->lay.d_q[j]];
        m[r->lay.d_place[k]] = (uint64_t)(v / r->lay.d_div[k]);
    }
}

/* The marking of the packed state src (counts bits[p] wide). */
static void unpack_bits(const pn_reach_t *r, const uint8_t *bits,
                        uint64_t *m, const uint8_t *src)
{
    bitrd_t b = bitrd_open(src);
    for (uint32_t p = 0; p < r->np; p++)
        m[p] = bits[p] ? bitrd_next(&b, bits[p]) : 0;
    for (uint32_t g = 0; g < r->lay.ngroups; g++) {
        uint64_t c = r->lay.g_w[g] ? bitrd_next(&b, r->lay.g_w[g]) : 0;
        if (!r->lay.g_exact[g]) {
            if (!c)
                continue;
            c--;
        }
        m[r->lay.g_pl[r->lay.g_off[g] + c]] = 1;
    }
    derive(r, m);
}

static void unpack(const pn_reach_t *r, uint64_t *m, const uint8_t *src)
{
    unpack_bits(r, r->lay.bits, m, src);
}

static const uint8_t *state_at(const pn_reach_t *r, size_t i)
{
    return r->store.data + i * r->lay.stride;
}

void pni_store_marking(const pn_reach_t *r, size_t i, uint64_t *m)
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
    return i == n ||
           !((load64(s + i) ^ key[i / 8]) & pni_bits_max(8 * (n - i)));
}

/* The index: a slot for every hash (its high bits scaled to the table,
 * so that the table can grow by half), and a tag of its low bits beside
 * the state's number, so that most slots of other states are passed
 * without reading their states. */
static inline size_t slot_of(const pn_reach_t *r, uint64_t h)
{
    return (size_t)(((unsigned __int128)h * r->store.nslots) >> 64);
}

static inline uint32_t index_mask(const pn_reach_t *r)
{
    return r->store.slot_bits >= 32 ? UINT32_MAX
                              : (UINT32_C(1) << r->store.slot_bits) - 1;
}

static inline uint32_t tag_of(const pn_reach_t *r, uint64_t h)
{
    return r->store.slot_bits >= 32
               ? 0
               : (uint32_t)h & ~index_mask(r) & r->store.slot_empty;
}

/* Slot i (readable 4 bytes: the index has one byte more at its end). */
static inline uint32_t slot_get(const pn_reach_t *r, size_t i)
{
    uint32_t v;
    memcpy(&v, r->store.slots + i * r->store.slot_w, 4);
    return v & r->store.slot_empty;
}

static inline void slot_set(pn_reach_t *r, size_t i, uint32_t v)
{
    memcpy(r->store.slots + i * r->store.slot_w, &v,
           r->store.slot_w); /* little-endian */
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
        if (e == r->store.slot_empty) {
            *found = NO_STATE;
            return i;
        }
        if ((e & ~mask) == tag &&
            same_state(state_at(r, e & mask), key, r->lay.stride)) {
            *found = e & mask;
            return i;
        }
        if (++i == r->store.nslots)
            i = 0;
    }
}

/* Rebuilds the hash index with nslots slots from the stored states (the
 * old index is freed first: it is never needed beside the new one). */
pn_status_t pni_store_rehash(pn_reach_t *r, size_t nslots)
{
    free(r->store.slots);
    unsigned sb = pni_bits_for(nslots - 1), w = sb + 4 <= 24 ? 3 : 4;
    r->store.slots = malloc(nslots * w + 1);
    if (!r->store.slots) {
        r->store.nslots = 0;
        return PN_ENOMEM;
    }
    memset(r->store.slots, 0xff, nslots * w + 1);
    r->store.nslots = nslots;
    r->store.slot_bits = sb;
    r->store.slot_w = w;
    r->store.slot_empty = w == 3 ? UINT32_C(0xffffff) : UINT32_MAX;
    uint32_t mask = index_mask(r);
    for (size_t i = 0; i < r->store.nstates; i++) {
        uint64_t h = hash_bytes(state_at(r, i), r->lay.stride);
        size_t s = slot_of(r, h);
        while (slot_get(r, s) != r->store.slot_empty)
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
        r->lay.bits[p] = bits[p];
        r->lay.lim[p] = r->lay.kind[p] == PK_PLAIN   ? pni_bits_max(bits[p])
                    : r->lay.kind[p] == PK_GROUP ? 1
                                             : UINT64_MAX;
        r->lay.off[p] = total;
        total += bits[p];
    }
    for (uint32_t g = 0; g < r->lay.ngroups; g++) {
        r->lay.g_bit[g] = total;
        total += r->lay.g_w[g];
    }
    r->lay.stride = total ? (total + 7) / 8 : 1;
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
    int all =
        r->store.repacked >
        (4 * (uint64_t)r->store.nstates + 1) * r->np + (UINT64_C(1) << 24);
    size_t total = 0;
    for (uint32_t p = 0; p < r->np; p++) {
        unsigned w = r->lay.bits[p];
        old[p] = (uint8_t)w;
        if (r->lay.kind[p] == PK_PLAIN && m[p] > r->lay.lim[p]) {
            unsigned need = pni_bits_for(m[p]);
            w = r->store.eager ? 2 * w : w + (w > 1 ? w / 2 : 1);
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
        if ((all || r->store.eager) && r->lay.kind[p] == PK_PLAIN &&
            r->lay.changed[p] &&
            (r->store.eager ? nb[p] <= from : nb[p] == from) && nb[p] < to)
            nb[p] = (uint8_t)to;
        total += nb[p];
    }
    for (uint32_t g = 0; g < r->lay.ngroups; g++)
        total += r->lay.g_w[g];
    size_t stride = total ? (total + 7) / 8 : 1, old_stride = r->lay.stride;
    pn_status_t st = PN_OK;
    size_t cap = r->store.cap_states ? r->store.cap_states : 1;
    if (pni_over_memory(r, (uint64_t)r->store.cap_states *
                               (stride - r->lay.stride)))
        st = PN_ETOOBIG;
    else if (stride > old_stride || !r->store.data) {
        uint8_t *data = realloc(r->store.data, cap * stride + PACK_PAD);
        if (data)
            r->store.data = data;
        else
            st = PN_ENOMEM;
    }
    if (st) {
        free(old);
        free(nb);
        return st;
    }
    /* past the last state: zeros, and no state is read there */
    memset(r->store.data + cap * stride, 0, PACK_PAD);
    set_layout(r, nb);
    uint64_t *mm = r->gen.tmp;
    for (size_t i = r->store.nstates; i-- > 0;) {
        unpack_bits(r, old, mm, r->store.data + i * old_stride);
        pack(r, r->store.key, mm);
        memcpy(r->store.data + i * stride, r->store.key, stride);
    }
    free(old);
    free(nb);
    r->store.widenings++;
    r->store.repacked += (uint64_t)r->store.nstates * r->np;
    r->store.pkey_for = NO_STATE;
    return pni_store_rehash(r, r->store.nslots);
}

/* Sets the w > 0 bits at bit o of the packed marking key to v (which
 * fits). */
static inline void set_bits(uint64_t *key, size_t o, unsigned w, uint64_t v)
{
    size_t k = o / 64;
    unsigned s = (unsigned)(o % 64);
    uint64_t mask = pni_bits_max(w);
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
    return v & pni_bits_max(w);
}

/* Sets place p to v (which fits) in the packed marking key of a marking
 * that differs from the one key holds in some of the places set so (in
 * any order; the others unchanged). */
static inline void set_field(const pn_reach_t *r, uint64_t *key, uint32_t p,
                             uint64_t v)
{
    if (r->lay.kind[p] == PK_PLAIN) {
        if (r->lay.bits[p])
            set_bits(key, r->lay.off[p], r->lay.bits[p], v);
        return;
    }
    if (r->lay.kind[p] != PK_GROUP)
        return; /* derived: not stored */
    uint32_t g = r->lay.grp[p];
    unsigned w = r->lay.g_w[g];
    if (!w)
        return;
    uint64_t own = r->lay.gidx[p] + !r->lay.g_exact[g];
    if (v)
        set_bits(key, r->lay.g_bit[g], w, own);
    else if (!r->lay.g_exact[g] && get_bits(key, r->lay.g_bit[g], w) == own)
        set_bits(key, r->lay.g_bit[g], w, 0);
    /* exact: the member that takes the token is set too */
}

/* The packed form of m, parent's successor by a transition that changes
 * the places chg[0..nchg) only, into the store's key: the parent's with
 * those fields rewritten. */
static void child_key(pn_reach_t *r, const uint64_t *m, uint32_t parent,
                      const uint32_t *chg, size_t nchg)
{
    size_t bytes = r->lay.stride, words = (bytes + 7) / 8;
    if (r->store.pkey_for != parent) {
        r->store.pkey[words - 1] = 0;
        memcpy(r->store.pkey, state_at(r, parent), bytes);
        r->store.pkey_for = parent;
    }
    memcpy(r->store.key, r->store.pkey, words * 8);
    for (size_t k = 0; k < nchg; k++)
        set_field(r, r->store.key, chg[k], m[chg[k]]);
}

uint32_t pni_store_find_child(pn_reach_t *r, const uint64_t *m,
                              uint32_t parent, const uint32_t *chg,
                              size_t nchg)
{
    if (r->sym)
        return pni_store_find(r, m);
    for (size_t k = 0; k < nchg; k++)
        if (m[chg[k]] > r->lay.lim[chg[k]])
            return NO_STATE;
    if (!r->store.slots)
        return NO_STATE;
    child_key(r, m, parent, chg, nchg);
    uint32_t found;
    probe(r, r->store.key,
          hash_bytes((const uint8_t *)r->store.key, r->lay.stride), &found);
    return found;
}

/* Finds marking m, or adds it as a new state with the given parent;
 * *index gets its number, *added whether it is new.  With chg (a
 * successor of parent by a transition changing the places chg[0..nchg)
 * only), its packed form is the parent's with those fields rewritten. */
pn_status_t pni_store_find_or_add(pn_reach_t *r, const uint64_t *m,
                               uint32_t parent, const uint32_t *chg,
                               size_t nchg, uint32_t *index, int *added)
{
    int fits = 1;
    pn_status_t st;
    if (r->sym) {
        /* one marking per orbit: its representative, packed whole */
        pni_sym_canon(r->sym, m, r->sym_m);
        m = r->sym_m;
        chg = NULL;
    }
    if (chg) {
        for (size_t k = 0; k < nchg; k++)
            if (m[chg[k]] > r->lay.lim[chg[k]])
                fits = 0;
    } else {
        for (uint32_t p = 0; p < r->np; p++)
            if (m[p] > r->lay.lim[p])
                fits = 0;
    }
    if (!fits && (st = widen(r, m)))
        return st;
    size_t bytes = r->lay.stride;
    if (chg && fits) {
        child_key(r, m, parent, chg, nchg);
    } else {
        pack(r, r->store.key, m);
    }
    const uint8_t *key = (const uint8_t *)r->store.key;
    uint64_t hash = hash_bytes(key, bytes);
    uint32_t found;
    size_t h = probe(r, r->store.key, hash, &found);
    if (found != NO_STATE) {
        *index = found;
        *added = 0;
        return PN_OK;
    }
    if (r->store.nstates == STATES_MAX ||
        (r->limits.max_states && r->store.nstates >= r->limits.max_states))
        return PN_ERANGE; /* the state limit: never more stored */
    if (r->store.nstates == r->store.cap_states) {
        /* grown by half: less room held unused than by doubling */
        size_t cap = r->store.cap_states
                         ? r->store.cap_states + r->store.cap_states / 2
                         : 1024;
        if (cap > STATES_MAX)
            cap = STATES_MAX;
        if (pni_over_memory(r, (uint64_t)(cap - r->store.cap_states) *
                               (r->lay.stride + per_state_extra(r)) +
                               (r->store.cap_states ? 0 : PACK_PAD)))
            return PN_ETOOBIG;
        uint8_t *d = realloc(r->store.data, cap * r->lay.stride + PACK_PAD);
        if (!d)
            return PN_ENOMEM;
        memset(d + cap * r->lay.stride, 0, PACK_PAD);
        r->store.data = d;
        if (r->graph.keep_parent) {
            uint32_t *pa = realloc(r->graph.parent, cap * sizeof *pa);
            if (!pa)
                return PN_ENOMEM;
            r->graph.parent = pa;
        }
        if (r->cov.check) {
            uint32_t *rc = realloc(r->cov.record, cap * sizeof *rc);
            if (!rc)
                return PN_ENOMEM;
            r->cov.record = rc;
        }
        r->store.cap_states = cap;
    }
    size_t i = r->store.nstates;
    /* the index is never full: one slot stays empty */
    if (16 * (i + 1) > LOAD_NUM * r->store.nslots || i + 2 > r->store.nslots) {
        size_t n = r->store.nslots + r->store.nslots / 2;
        if (n > (size_t)UINT32_MAX)
            n = UINT32_MAX;
        if (n > r->store.nslots) {
            if (pni_over_memory(r, (uint64_t)(n - r->store.nslots) * 4))
                return PN_ETOOBIG;
            if ((st = pni_store_rehash(r, n)))
                return st;
            h = probe(r, r->store.key, hash, &found);
        }
    }
    r->store.nstates++;
    memcpy(r->store.data + i * bytes, key, bytes);
    if (r->graph.keep_parent)
        r->graph.parent[i] = parent;
    slot_set(r, h, ((uint32_t)i & index_mask(r)) | tag_of(r, hash));
    unsigned __int128 total = 0;
    uint64_t top = 0;
    for (uint32_t p = 0; p < r->np; p++) {
        if (m[p] > r->found.bound[p])
            r->found.bound[p] = m[p];
        if (m[p] < r->found.lowest[p])
            r->found.lowest[p] = m[p];
        if (m[p] > top)
            top = m[p];
        total += m[p];
    }
    if (top > r->found.max_place)
        r->found.max_place = top;
    if (pni_saturated(total) > r->found.max_total)
        r->found.max_total = pni_saturated(total);
    *index = (uint32_t)i;
    *added = 1;
    return PN_OK;
}

/* The first layout: each place as wide as the largest count the net lets
 * it hold when that is known (its capacity; its initial count when no
 * transition changes it), else as its initial count (at least one bit).
 * A count that does not fit later widens the layout (widen()): this is
 * only where the search starts. */
pn_status_t pni_store_first_layout(pn_reach_t *r, const pn_net_t *net)
{
    size_t np = r->np, na = pn_net_arc_count(net);
    /* changed[p]: some transition changes p (a reset arc, or normal arcs
     * whose weights in and out differ); found per transition from its
     * arcs, grouped by a counting sort */
    unsigned char *changed = r->lay.changed = calloc(np + 1, 1);
    int64_t *d = calloc(np + 1, sizeof *d);
    size_t *first = calloc((size_t)r->nt + 2, sizeof *first);
    size_t *order = malloc((na + 1) * sizeof *order);
    uint8_t *nb = malloc(np + 1);
    uint64_t *sb = malloc((np + 1) * sizeof *sb);
    pni_flows_t fl = {0, NULL, NULL};
    r->lay.kind = calloc(np + 1, 1);
    r->gen.chg_off = malloc(((size_t)r->nt + 1) * sizeof *r->gen.chg_off);
    r->gen.chg_idx = malloc((na + 1) * sizeof *r->gen.chg_idx);
    pn_status_t st = changed && d && first && order && nb && sb &&
                             r->gen.chg_off && r->lay.kind && r->gen.chg_idx &&
                             na < UINT32_MAX
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
            r->gen.chg_off[t] = (uint32_t)nchg;
            for (size_t k = first[t]; k < first[t + 1]; k++) {
                const pn_arc_t *arc = pn_net_arc(net, order[k]);
                if (d[arc->place]) {
                    changed[arc->place] = 1;
                    r->gen.chg_idx[nchg++] = (uint32_t)arc->place;
                }
                d[arc->place] = 0;
            }
        }
        r->gen.chg_off[r->nt] = (uint32_t)nchg;
        /* the bounds the P-semiflows give (none when they are too costly
         * to find) */
        if (pni_semiflows(net, sb, &fl) < 0)
            st = PN_ENOMEM;
        r->cov.bounded = 1;
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
                r->cov.bounded = 0;
            nb[p] = (uint8_t)pni_bits_for(top);
        }
        if (!st)
            st = pni_compress(r, net, &fl, nb);
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

pn_status_t pn_reach_marking(const pn_reach_t *r, uint64_t i, uint64_t *m)
{
    if (!r || !m || i >= r->store.nstates)
        return PN_EINVAL;
    pni_store_marking(r, (size_t)i, m);
    return PN_OK;
}

uint32_t pni_store_find(const pn_reach_t *rc, const uint64_t *m)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    if (!r || !m)
        return NO_STATE;
    if (r->sym) {
        pni_sym_canon(r->sym, m, r->sym_m);
        m = r->sym_m;
    }
    for (uint32_t p = 0; p < r->np; p++)
        if (m[p] > r->lay.lim[p])
            return NO_STATE;
    if (!r->store.slots)
        return NO_STATE;
    /* m must keep the invariants that the packed form leaves out */
    for (uint32_t g = 0; g < r->lay.ngroups; g++) {
        uint64_t n = 0;
        for (uint32_t k = r->lay.g_off[g]; k < r->lay.g_off[g + 1]; k++)
            n += m[r->lay.g_pl[k]];
        if (n > 1 || (r->lay.g_exact[g] && n != 1))
            return NO_STATE;
    }
    memcpy(r->store.cmp, m, r->np * sizeof *m);
    derive(r, r->store.cmp);
    if (memcmp(r->store.cmp, m, r->np * sizeof *m))
        return NO_STATE;
    pack(r, r->store.key, m);
    uint32_t found;
    probe(r, r->store.key,
          hash_bytes((const uint8_t *)r->store.key, r->lay.stride), &found);
    return found;
}

int pn_reach_contains(const pn_reach_t *r, const uint64_t *m)
{
    return pni_store_find(r, m) != NO_STATE;
}

void pni_reach_layout(const pn_reach_t *r, size_t *groups, size_t *exact,
                      size_t *derived, size_t *stride)
{
    *groups = r->lay.ngroups;
    *exact = 0;
    for (uint32_t g = 0; g < r->lay.ngroups; g++)
        *exact += r->lay.g_exact[g];
    *derived = r->lay.nder;
    *stride = r->lay.stride;
}

uint64_t pn_reach_memory(const pn_reach_t *r)
{
    return r ? store_bytes(r) : 0;
}
