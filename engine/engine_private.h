/*
 * engine/engine_private.h - internals of the engine shared with the
 * folders above it and the tests (not installed, never exported).
 */
#ifndef PN_ENGINE_PRIVATE_H
#define PN_ENGINE_PRIVATE_H

#include <stdint.h>
#include "engine.h"

/* ---- the firing rule, for the state-space explorer ---------------------
 * The same functions pn_sim_step() and pn_sim_fire() use. */

/* Whether t is enabled at m: normal and read inputs, inhibitors, room in
 * capacity places. */
int pni_engine_enabled(const pn_engine_t *e, const uint64_t *m, uint32_t t);
/* Whether t still fits the budget b of a step (normal inputs; capacity
 * places, given pend, the tokens the step already promised them). */
int pni_engine_fits(const pn_engine_t *e, const uint64_t *b,
                    const uint64_t *pend, uint32_t t);
/* Takes t's normal inputs from b, empties its reset places, promises its
 * capacity outputs in pend (all zero when the net has no capacities). */
void pni_engine_take(const pn_engine_t *e, uint64_t *b, uint64_t *pend,
                     uint32_t t);
/* Adds t's outputs to m; returns 0, or 1 + the place whose count would
 * pass PN_TOKENS_MAX. */
int pni_engine_give(const pn_engine_t *e, uint64_t *m, uint32_t t);
int pni_engine_has_capacity(const pn_engine_t *e);
/* Of the enabled transitions en[0..ne), which compete with another for
 * tokens (a normal input or reset place another one also takes from) or
 * for room (a capacity place another one also fills): competes[k].  A
 * transition that competes with none is in every maximal step.  use: one
 * zeroed counter per place, left zeroed. */
void pni_engine_competing(const pn_engine_t *e, const uint32_t *en, size_t ne,
                          uint32_t *use, unsigned char *competes);

/* Upper bounds of the places of net from its P-semiflows (the normal
 * arcs' incidence matrix; the bound holds with every arc kind and
 * capacity): bound[p] (np entries) gets the least y.M0 / y(p) over the
 * minimal semiflows y with y(p) > 0, UINT64_MAX where none.  Returns 0,
 * 1 when the search passed its budget (every bound then UINT64_MAX), -1
 * out of memory (likewise). */
int pni_semiflow_bounds(const pn_net_t *net, uint64_t *bound);

/* The minimal P-subflows the search above found: y[i] (np coefficients,
 * y >= 0, y C <= 0 on the normal arcs), exact[i] when y C = 0. */
typedef struct {
    size_t n;
    int64_t **y;
    unsigned char *exact;
} pni_flows_t;

/* pni_semiflow_bounds(), and the subflows into flows (none, n = 0, when
 * it returns nonzero); pni_flows_free() frees them. */
int pni_semiflows(const pn_net_t *net, uint64_t *bound, pni_flows_t *flows);
void pni_flows_free(pni_flows_t *f);

/* How the explorer stores a marking: its one-hot groups (exact ones:
 * exactly one token), places it derives from the others, bytes a state. */
struct pn_reach;
void pni_reach_layout(const struct pn_reach *r, size_t *groups,
                      size_t *exact, size_t *derived, size_t *stride);

/* pn_engine_compile() with stars of at least kmin members (see "the order
 * of a step" in engine.c; pn_engine_compile(): 16; 0: none), for the tests
 * of the distribution of steps on small nets. */
pn_status_t pni_engine_compile_stars(const pn_net_t *net, uint32_t kmin,
                                     pn_engine_t **out);
/* The number of stars of e. */
size_t pni_engine_stars(const pn_engine_t *e);
/* For the tests: whether e counts bits with the popcnt instruction (on,
 * where the processor has it; the default) or without (off); the run is
 * the same either way.  Returns whether it uses the instruction now. */
int pni_engine_set_popcnt(pn_engine_t *e, int on);

/* For the tests: from the next step on, the incremental run s keeps its
 * enabled set (scan 0) or computes it from scratch (scan 1), as the
 * reference mode does, whatever each costs; -1: it chooses again.  The run
 * is the same either way. */
void pni_sim_set_scan(pn_sim_t *s, int scan);

/* The random stream of the toolkit (xoshiro256** seeded by splitmix64):
 * the same seed gives the same numbers on every machine.  Inline: the step
 * loop draws one number per enabled transition. */
typedef struct pni_rng {
    uint64_t s[4];
} pni_rng_t;

static inline uint64_t pni_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline void pni_rng_seed(pni_rng_t *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = pni_splitmix64(&x);
}

static inline uint64_t pni_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t pni_rng_next(pni_rng_t *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = pni_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = pni_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias (Lemire's
 * multiply-and-reject: exact, and the same on every machine). */
static inline uint64_t pni_rng_below(pni_rng_t *rng, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)pni_rng_next(rng) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (unsigned __int128)pni_rng_next(rng) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* ---- the compiled net, for engine.c and compile.c only ---------------
 * The layout of struct pn_engine: compile.c fills it, the runs of engine.c
 * read it.  Seen only where PNI_ENGINE_LAYOUT is defined before this
 * header: nothing above engine/ depends on it. */
#ifdef PNI_ENGINE_LAYOUT

typedef struct {
    uint32_t *off; /* nt + 1 (or np + 1) offsets */
    uint32_t *idx;
    uint64_t *w;   /* NULL for reset arcs and dependents */
} csr_t;

/* A condition of enabledness on one place: "m < th" (up) or "m >= th".
 * It fails at m iff (m < th) ^ up. */
typedef struct {
    uint64_t th;
    uint32_t t;  /* the transition, or the wide class */
    uint32_t up;
} cond_t;

/* Per place (32 bytes: within one cache line): the range of the
 * thresholds of its narrow conditions, and where its conditions are. */
typedef struct {
    uint64_t min_th, max_th; /* no narrow condition: UINT64_MAX, 0 */
    uint32_t cond, ncond, wide, nwide;
} pinfo_t;

/* An arc of a transition's record: place and weight. */
typedef struct {
    uint32_t p, w;
} farc_t;

/* Per transition, what a step needs of it (16 bytes): its inputs and
 * outputs, in farc[arc .. arc + nin + nout), the ns inputs that another
 * transition also takes from first (the ones to test against the budget),
 * the first of them again in p1, w1 ((np, 0): none).  nin == SLOW: a reset
 * arc, a capacity output, a weight of 2^32 or more, more than 65534 inputs
 * or outputs: the general rule. */
typedef struct {
    uint32_t p1, w1;
    uint32_t arc;
    uint16_t nin, nout;
} trec_t;

#define SLOW UINT16_MAX

/* What the walk needs of the transition at a position (20 bytes): its
 * record's p1, w1, arc and nin, its shared inputs ns and the transition
 * t. */
typedef struct {
    uint32_t p1, w1;
    uint32_t arc, t;
    uint16_t nin, ns;
} wrec_t;

struct pn_engine {
    uint32_t np, nt;
    int popcnt;         /* pni_engine_set_popcnt() */
    uint64_t *m0;
    uint64_t *cap;     /* 0: unbounded */
    int has_cap;
    csr_t in, rd, ih, rs, out;
    uint64_t *out_self; /* for capacity: what t takes from its output place */
    /* Per transition, its normal inputs in in.idx are ordered with the
     * places that another transition also takes from first, the most
     * shared first, up to in_shared[t]: in a step, only these can have
     * lost tokens to an earlier transition. */
    uint32_t *in_shared;
    uint16_t *ns;       /* per transition: its shared inputs */
    trec_t *tr;
    farc_t *farc;
    /* Enabledness as conditions on single places, for the incremental mode:
     * "m >= th" (normal and read inputs) and "m < th" (inhibitors,
     * capacity outputs), per place sorted by threshold, so that a change of
     * m(p) from a to b flips exactly the conditions whose threshold lies in
     * (min(a, b), max(a, b)]. */
    pinfo_t *pinfo;     /* np + 1 */
    cond_t *conds;
    uint32_t *never;    /* per transition: conditions that never hold */
    uint32_t *ct;       /* per condition of conds: its transition's
                         * position */
    /* Wide classes: the conditions of one place with one threshold and one
     * sense, shared by many transitions in few words of the enabled set.
     * They flip together, so they are kept as masks over the words of the
     * enabled set rather than as one counter per transition.  Per place,
     * wconds[pinfo[p].wide ..] sorted by threshold, t: the class. */
    cond_t *wconds;
    uint32_t nclass;
    uint32_t *cls_off;  /* nclass + 1 offsets into cls_word, cls_mask */
    uint32_t *cls_word;
    uint64_t *cls_mask;
    uint32_t planes;    /* bits of the per-transition count of failing
                         * wide classes */
    uint64_t scan_cost; /* of a step's enabled set computed from scratch */
    /* Stars (see "the order of a step"): bit positions of the enabled set,
     * the members of each star in one range of them.  pos[t]: the position
     * of transition t; tat[i]: the transition at position i (conditions,
     * unsat and the bit sets are by position). */
    uint32_t *pos, *tat;
    int identity;       /* pos[t] == t */
    wrec_t *wr;         /* by position */
    /* per star k: its place, weight, members [sa[k], sa[k + 1]) by
     * position; the transitions that can make it unclean by position, as
     * (word, mask) pairs um_word/um_mask[um_off[k] .. um_off[k + 1]) */
    uint32_t nstar, swords_max;
    uint32_t *splace, *sw, *sa, *um_off, *um_word;
    uint64_t *um_mask;
    uint32_t *star_of;  /* per transition: its star, or UINT32_MAX */
    /* per transition, the places it can compete for (rel, CSR); per place,
     * the transitions that can compete for it (users, CSR) */
    uint32_t *rel_off, *rel, *use_off, *use;
};

/* a + b, or UINT64_MAX when it would pass it */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

#endif /* PNI_ENGINE_LAYOUT */

#endif
