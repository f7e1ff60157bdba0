/*
 * The compiled net's layout (struct pn_engine), for engine/'s own files:
 * compile.c fills it, the runs of engine.c read it.  Nothing above
 * engine/ includes this header: the folders above see the compiled net
 * through the primitives of engine_private.h.
 */
#ifndef PN_ENGINE_COMPILED_H
#define PN_ENGINE_COMPILED_H

#include "engine_private.h"

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

#endif
