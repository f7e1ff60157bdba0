/*
 * What the two files of LTL on the product share: the product's search
 * record (prod_t: its states and their hash index, Couvreur's stack and
 * roots, the tables of the stubborn sets and of the heuristic order), the
 * markings on the fly (struct pni_fly), the search's frames and the
 * orders of their successors, and the helpers each file calls in the
 * other.
 *
 *   ltl.c       the product, built as it is searched: the markings on the
 *               fly, the stubborn sets, Couvreur's search, the lasso
 *   ltlorder.c  the order in which the search follows a product state's
 *               successors: the heuristic towards acceptance, the sets
 *               the automaton guides
 */
#ifndef PN_LTL_PRIVATE_H
#define PN_LTL_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include "analysis_private.h"

typedef struct {
    uint32_t p;         /* product state */
    uint32_t ti;        /* the automaton transition tried */
    uint64_t ei;        /* the graph edge tried */
    uint32_t ord;       /* its successors' order: the pairs (automaton
                           transition, graph edge) ord[ord .. ord + nsel),
                           ei the next (ORD_NONE: not decided yet;
                           ORD_NATURAL: as listed, by ti and ei) */
    uint32_t nsel;
} frame_t;

typedef struct {
    uint32_t ti, j;     /* the automaton transition (of its state), edge */
} opair_t;

#define ORD_NONE UINT32_MAX
#define ORD_NATURAL (UINT32_MAX - 1)
/* the most pairs the orders of the frames on the stack hold together
 * (the heuristic's orders leave half of it to the sets the automaton
 * guides, which are lost without one) */
#define ORD_MAX (UINT32_C(1) << 24)

typedef struct {
    uint32_t p;
    uint64_t acc, in;   /* the component's marks; those of the edge in */
} root_t;

/* The markings on the fly, kept from one formula of a net to the next:
 * r's store, and marking s's successors, edge[s_off[s] ..] (s_cnt[s] of
 * them; UINT32_MAX: not computed yet), for the n markings the arrays
 * hold. */
struct pni_fly {
    pn_reach_t *r;
    uint64_t *s_off;
    uint32_t *s_cnt;
    size_t n;
    uint32_t *edge;
    size_t nedge, cap_edge;
    uint32_t *etr;          /* interleaving: the transition of each edge */
    uint32_t *s_fired;      /* interleaving: marking s's edges whose
                               transition was fired (the others' targets
                               are UINT32_MAX, fired when needed) */
    size_t cap_etr;
    pni_por_t *por;         /* stubborn sets (NULL: every successor) */
    int aut_always;         /* the sets the automaton guides for every
                               formula (0: for those with next only) */
    int plain;              /* no set: every enabled transition */
    pni_dist_t dist;        /* the heuristic's distances (in NULL: none) */
    uint64_t *hm;           /* a marking, for them */
    size_t states;          /* the last formula's product states */
    uint64_t reduced;       /* those that fired a stubborn set */
};

typedef struct {
    pn_reach_t *r;
    const pni_buchi_t *b;
    size_t n;               /* markings values holds */
    unsigned char *values;  /* natoms a state; 2: not computed yet */
    pni_fly_t *g;           /* on the fly (NULL: r's complete graph) */
    pn_status_t err;        /* why the product stopped (on the fly) */
    uint64_t *key;          /* product state: graph state << 32 | q */
    uint32_t *slot;         /* hash index of the keys, UINT32_MAX empty */
    size_t np, cap, nslots;
    unsigned char *dead;    /* its component is done with */
    frame_t *stk;
    root_t *roots;
    uint32_t *live;         /* the states of open components, in order */
    size_t ns, nr, nl;
    int oom;
    double deadline;        /* pni_clock(), 0: none */
    pni_por_t *por;         /* stubborn sets for this formula (NULL: none) */
    pni_aut_t *aut;         /* or sets the automaton guides (NULL: none) */
    uint32_t *red, *red2;   /* per marking: its set's edges, first in its
                               list, and those of the set joined with the
                               visible transitions (UINT32_MAX: not
                               computed yet) */
    unsigned char *how;     /* per product state: 0 undecided, 1 red, 2
                               every successor, 3 red2, 4 the set the
                               automaton guides (its frame's order) */
    uint32_t *tmp;
    size_t cap_tmp;
    uint64_t reduced;       /* product states with how 1, 3 or 4 */
    unsigned char *univ;    /* per automaton state: it accepts every word
                               (NULL: none does) */
    int univ_hit;           /* search() stopped at such a state */
    int tracing;            /* the lasso is traced: no edge fired */
    int no_univ;            /* 1: search() goes on to a cycle there */
    uint32_t ticks;         /* the search's steps, for the clock */
    /* the heuristic order (on the fly): per automaton state, whether its
     * edges are ordered (1: towards acceptance; 2: towards the condition
     * of a self-loop with every mark); per automaton transition, its
     * weight (0: it does not lead there); the orders of the frames on the
     * stack, and room to sort one */
    unsigned char *heur;
    uint32_t *tw;
    opair_t *ord;
    size_t nord, cap_ord;
    struct scored { double s; uint32_t k; } *sc;
    opair_t *pairs;
    size_t cap_pairs;
    uint32_t *sel;
    size_t cap_sel;
    size_t cap_sc;
} prod_t;

/* Marking s's values of the automaton's atoms, computed the first time
 * they are asked for. */
static inline const unsigned char *pni_ltl_values_at(prod_t *c, uint32_t s)
{
    size_t na = c->b->natoms;
    unsigned char *v = c->values + (size_t)s * na;
    if (na && v[0] == 2) {
        pni_store_marking(c->r, s, c->r->gen.m);
        for (size_t k = 0; k < na; k++)
            v[k] = (unsigned char)pni_query_holds(c->r, c->b->atoms[k],
                                                  c->r->gen.m);
    }
    return v;
}

/* Whether marking s is dead (no successor). */
static inline int pni_ltl_is_dead(const prod_t *c, uint32_t s)
{
    if (c->g)
        return c->g->s_cnt[s] == 0;
    return c->r->graph.succ_off[s + 1] == c->r->graph.succ_off[s];
}

/* The target of marking s's successor k (s itself when s is dead;
 * UINT32_MAX: its transition not fired yet). */
static inline uint32_t pni_ltl_succ(const prod_t *c, uint32_t s, uint64_t k)
{
    if (pni_ltl_is_dead(c, s))
        return s;
    if (c->g)
        return c->g->edge[c->g->s_off[s] + k];
    return c->r->graph.succ[c->r->graph.succ_off[s] + k];
}

/* ---- ltl.c ------------------------------------------------------------ */

/* Marking s's edges js[0..k) (NULL: its first k) fired; nonzero: c->err. */
int pni_ltl_fire(prod_t *c, uint32_t s, const uint32_t *js, uint32_t k);
/* The product state of key k, added when add; UINT32_MAX: not there. */
uint32_t pni_ltl_find(prod_t *c, uint64_t k, int add);

/* ---- ltlorder.c ------------------------------------------------------- */

/* The heuristic's tables (heur, tw) for c's automaton; heur NULL: none. */
void pni_ltl_heuristic_init(prod_t *c);
/* The target of s's edge j, its transition fired when it is not yet. */
uint32_t pni_ltl_target(prod_t *c, uint32_t s, uint32_t j);
/* Frame f's order over s's first n edges (js: the edges js[0..n)). */
int pni_ltl_order(prod_t *c, frame_t *f, uint32_t s, uint32_t q,
                  const uint32_t *js, uint64_t n);
/* f's order from the set the automaton guides: 1, or 0: every successor. */
int pni_ltl_aut_order(prod_t *c, frame_t *f, uint32_t s, uint32_t q);

#endif
