/*
 * pn/struct.h - the structure of a net, read from its arcs without a
 * search of its markings: the minimal P- and T-semiflows (invariants),
 * the classes of net of Murata (1989), the minimal siphons and traps and
 * Commoner's property.
 *
 * Every function here reads the net's normal arcs only: inhibitor, read
 * and reset arcs are left out, and what is said is said of that
 * underlying place/transition net (pn_net_classes() tells when the net
 * has other arcs).  Each search has a limit and a budget of work: past
 * either it stops and says which (pn_struct_end_t), never hangs.
 *
 * Ownership: the results are the caller's (pn_flows_free(),
 * pn_siphons_free()).
 */
#ifndef PN_STRUCT_H
#define PN_STRUCT_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a search ended. */
typedef enum {
    PN_STRUCT_COMPLETE = 0, /* every minimal one was found */
    PN_STRUCT_MAX = 1,      /* more than the limit at once: stopped */
    PN_STRUCT_WORK = 2,     /* the budget of work ran out (about a few
                               seconds): stopped */
    PN_STRUCT_BIG = 3       /* a coefficient passed 2^62: stopped */
} pn_struct_end_t;

/* The limit a max of 0 stands for. */
#define PN_STRUCT_MAX_DEFAULT 10000

/* ---- semiflows ---------------------------------------------------------- */

/* The minimal-support semiflows: the non-negative integer vectors y with
 * y C = 0 (P-semiflows: y M is the same in every reachable marking M) or
 * C x = 0 (T-semiflows: a sequence firing each t x(t) times comes back
 * to its marking), C the incidence matrix of the normal arcs.  Each is
 * primitive (its coefficients have no common divisor) and its support
 * (the nodes where it is not zero) contains no other's; every
 * non-negative semiflow is a non-negative rational combination of
 * them. */
typedef struct pn_flows {
    int transitions;        /* 0: P-semiflows, one coefficient a place;
                               1: T-semiflows, one a transition */
    pn_struct_end_t end;
    size_t limit;           /* the limit in force: the N of "more than N
                               at once" (PN_STRUCT_MAX) */
    size_t dim;             /* coefficients a semiflow */
    size_t n;               /* the semiflows (none unless complete),
                               narrowest support first */
    int64_t **y;            /* y[i][0 .. dim), each >= 0 */
    unsigned char *covered; /* per node (dim): in some semiflow's
                               support (all 0 unless complete) */
} pn_flows_t;

/* The minimal semiflows of net, by Farkas' algorithm with the
 * minimal-support rule (Martinez and Silva): at most max rows at once (0:
 * PN_STRUCT_MAX_DEFAULT; lowered so that the matrix holds 2^24 cells at
 * most, f->limit says to what), and a budget of work.  Returns PN_OK with
 * *out (its end says whether it is complete), PN_EINVAL, PN_ENOMEM. */
pn_status_t pn_flows_compute(const pn_net_t *net, int transitions, size_t max,
                             pn_flows_t **out);
/* Whether a semiflow covers every node (their sum is then a positive
 * one): for P-semiflows, the net is conservative (a weighted sum of
 * tokens with every weight positive never changes, so the net is bounded
 * from every marking); for T-semiflows, consistent.  1 yes, 0 no, -1
 * unknown (incomplete). */
int pn_flows_positive(const pn_flows_t *f);
void pn_flows_free(pn_flows_t *f);

/* ---- classes ------------------------------------------------------------ */

/* The classes of Murata, Petri nets: properties, analysis and
 * applications (Proc. IEEE 77(4), 1989), as bits.  Every class but pure
 * asks for an ordinary net (every arc of weight 1).  With p. and .p the
 * output and input transitions of place p: */
enum {
    PN_CLASS_ORDINARY = 1u << 0,      /* every arc of weight 1 */
    PN_CLASS_PURE = 1u << 1,          /* no place both input and output
                                         of one transition (no self-loop) */
    PN_CLASS_STATE_MACHINE = 1u << 2, /* every transition: one input place
                                         and one output place */
    PN_CLASS_MARKED_GRAPH = 1u << 3,  /* every place: one input transition
                                         and one output transition */
    PN_CLASS_FREE_CHOICE = 1u << 4,   /* every arc from a place is its only
                                         output arc or its transition's
                                         only input arc */
    PN_CLASS_EXTENDED_FREE_CHOICE = 1u << 5, /* p. and q. meet: equal */
    PN_CLASS_ASYMMETRIC_CHOICE = 1u << 6,    /* p. and q. meet: one
                                                contains the other */
    PN_CLASS_OTHER_ARCS = 1u << 7     /* the net has inhibitor, read or
                                         reset arcs: the classes above
                                         are its underlying net's */
};

/* The classes net belongs to (PN_CLASS_ bits).  O(arcs log arcs). */
unsigned pn_net_classes(const pn_net_t *net);
/* The words of one class bit ("state machine", ...), NULL for another
 * value. */
const char *pn_net_class_name(unsigned class_bit);

/* ---- siphons and traps -------------------------------------------------- */

/* The minimal siphons (nonempty sets S of places with .S a subset of S.:
 * once unmarked, S stays unmarked) or the minimal traps (S. a subset of
 * .S: once marked, S stays marked). */
typedef struct pn_siphons {
    int traps;              /* 0: siphons, 1: traps */
    pn_struct_end_t end;
    size_t limit;           /* the most sets it would find */
    size_t n;               /* the minimal sets found (all of them when
                               complete) */
    size_t *len;            /* places of each */
    uint32_t **place;       /* place[i][0 .. len[i]), increasing */
    unsigned char *marked;  /* siphons: it contains a trap marked at the
                               initial marking; traps: it is marked */
    int commoner;           /* siphons: every siphon contains a marked
                               trap (Commoner's property) 1, 0 not, -1
                               unknown (incomplete and none found
                               without); traps: -1 */
} pn_siphons_t;

/* The minimal siphons (traps: the minimal traps) of net, at most max (0:
 * PN_STRUCT_MAX_DEFAULT) and a budget of work, by a search that splits
 * the sets left to find on each one found.  Commoner's property decides
 * liveness on a free-choice net (extended free-choice too) and implies it
 * on an asymmetric-choice one; on any ordinary net it implies that no
 * reachable marking is dead.  A siphon unmarked at the initial marking
 * stays so: the transitions around it never fire.  Returns PN_OK with
 * *out (its end says whether it is complete), PN_EINVAL, PN_ENOMEM. */
pn_status_t pn_siphons_compute(const pn_net_t *net, int traps, size_t max,
                               pn_siphons_t **out);
void pn_siphons_free(pn_siphons_t *s);

/* ---- bounds and properties by linear programming ----------------------- */

/* What the state equation m = m0 + C x (x >= 0 real, m >= 0) says without
 * a search, C the incidence matrix of the normal arcs, by GLPK's simplex.
 * Every reachable marking m solves it (read and inhibitor arcs and
 * capacities only forbid firings; a reset arc only takes tokens, which
 * the net without it would keep), so each place's bound is an upper
 * bound of the tokens it holds in every reachable marking.  The four
 * properties of the incidence matrix (Murata 1989, section VII): */
typedef struct pn_lp_bounds {
    pn_struct_end_t end;    /* COMPLETE; WORK: the time ran out (places
                               left unknown); MAX: the net is too large
                               for the solver (nothing known) */
    size_t np, solved;      /* places, and those whose state is known */
    signed char *state;     /* per place: 1 bounded (by bound), 0
                               unbounded, -1 unknown */
    uint64_t *bound;        /* per place: the largest value of m(p) over
                               the equation's solutions, rounded down
                               (UINT64_MAX unless state is 1) */
    int bounded;            /* every place bounded: 1, 0 not, -1 unknown */
    int structurally_bounded; /* y >= 1 with y C <= 0: bounded from every
                               initial marking */
    int conservative;       /* y >= 1 with y C = 0: a weighted sum of
                               tokens, every weight positive, is
                               constant */
    int repetitive;         /* x >= 1 with C x >= 0: without it no
                               initial marking makes the net live (a live
                               net fires a sequence holding every
                               transition that leaves a marking covered) */
    int consistent;         /* x >= 1 with C x = 0: without it the net is
                               not live and bounded from any marking */
} pn_lp_bounds_t;

/* The bounds and the four properties of net (each 1, 0, -1 unknown),
 * within about seconds (0: no limit).  Returns PN_OK with *out,
 * PN_EINVAL, PN_ENOMEM. */
pn_status_t pn_lp_bounds_compute(const pn_net_t *net, double seconds,
                                 pn_lp_bounds_t **out);
void pn_lp_bounds_free(pn_lp_bounds_t *b);

/* ---- workflow nets ------------------------------------------------------ */

/* Why a workflow net is not sound. */
typedef enum {
    PN_WORKFLOW_SOUND_OR_UNKNOWN = 0,
    PN_WORKFLOW_UNBOUNDED = 1,     /* tokens pile up without end */
    PN_WORKFLOW_IMPROPER = 2,      /* a reachable marking marks the sink and
                                      holds other tokens (witness: its
                                      state) */
    PN_WORKFLOW_DEAD = 3,          /* a transition never fires (witness:
                                      its index) */
    PN_WORKFLOW_NO_COMPLETION = 4  /* from some reachable marking the sink
                                      cannot be reached */
} pn_workflow_reason_t;

/* The markings searched at most when none is given. */
#define PN_WORKFLOW_MAX_STATES 1000000

typedef struct pn_workflow {
    int workflow;           /* a workflow net: normal arcs only, one place
                               with no input (the source), one with no
                               output (the sink), every node on a path
                               from the source to the sink (as WoPeD and
                               pm4py write them) */
    size_t source, sink;    /* their places, when workflow */
    int sound;              /* from [source]: every reachable marking can
                               reach [sink], [sink] is the only reachable
                               marking that marks the sink, every
                               transition can fire: 1 yes, 0 no, -1
                               unknown (not a workflow net, or the search
                               stopped at its limit) */
    pn_workflow_reason_t reason; /* when not sound */
    uint64_t witness;       /* see the reason */
    uint64_t states;        /* markings of the short-circuited net found */
} pn_workflow_t;

/* Whether net is a workflow net, and then whether it is sound, by van der
 * Aalst's theorem: the net short-circuited by a transition from the sink
 * to the source is live and bounded from [source], checked on its state
 * space (pn_reach_explore(), at most max_states markings, 0:
 * PN_WORKFLOW_MAX_STATES; the initial marking of net is not used).
 * Returns PN_OK (w filled), PN_EINVAL, PN_ENOMEM. */
pn_status_t pn_workflow_check(const pn_net_t *net, uint64_t max_states,
                              pn_workflow_t *w);

#ifdef __cplusplus
}
#endif

#endif
