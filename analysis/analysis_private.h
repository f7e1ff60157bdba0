/*
 * The state-space explorer's private interface: the search's record
 * (struct pn_reach, in parts: the packed layout, the store and its index,
 * the successor generator's tables, the graph, what was found, the limits
 * and the unboundedness check) and what its files share.
 *
 *   store.c       packed markings, the layout and its widening, the hash
 *                 index (find or add a marking)
 *   successors.c  the successors of a marking under interleaving and
 *                 maximal steps, over the engine's firing primitives
 *   search.c      the breadth-first search, its limits, progress and
 *                 unboundedness check; paths to states (witnesses)
 *   invariants.c  P-semiflows (Farkas), a basis of the exact invariants,
 *                 and what they let the store leave out (compression);
 *                 the minimal P- and T-semiflows (pn/struct.h)
 *   structure.c   pn/struct.h: semiflows, net classes
 *   siphons.c     pn/struct.h: minimal siphons and traps
 *   properties.c  queries on each marking, the global properties over the
 *                 graph (run lengths, liveness by Tarjan's components)
 *   ctl.c         CTL queries by fixed points over the graph
 *   ctllocal.c    CTL queries on the fly: local fixed points from the
 *                 initial marking, the markings explored as asked for
 *   reduce.c      structural reductions that keep a query's answer
 *   implicit.c    implicit places for them, by linear programming
 *   stubborn.c    stubborn sets: the enabled transitions the search needs
 *                 to fire for the open queries (interleaving)
 *   buchi.c       LTL to generalized Büchi automata (a tableau)
 *   ltl.c         LTL queries: the graph times the automaton, searched
 *                 for an accepting cycle
 *   ltlorder.c    the order in which that search follows a product
 *                 state's successors (ltl_private.h: what the two share)
 *   symmetry.c    automorphisms that permute identical parts of the net,
 *                 and the canonical form of a marking under them
 *   traps.c       trap cuts of the state equation (lp.c), deadlock
 *                 freedom from the equation and from siphons and traps
 *
 * A new temporal logic, reduction, solver or structural check gets a file
 * of its own here (doc/architecture.md), over these parts.
 */
#ifndef PN_ANALYSIS_PRIVATE_H
#define PN_ANALYSIS_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "engine_private.h"
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

/* how a place is stored (pni_layout_t.kind) */
enum { PK_PLAIN, PK_GROUP, PK_DERIVED };

/* Markings, bit-packed: place p takes bits[p] bits (0 .. 64; a count up
 * to lim[p]), the places one after the other, stride bytes a state. */
typedef struct {
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
    unsigned char *changed; /* per place: some transition changes it */
} pni_layout_t;

/* The states, every one in one arena (data), and their hash index. */
typedef struct {
    uint8_t *data;
    size_t nstates, cap_states;
    uint64_t widenings;     /* times the stored markings were repacked */
    uint64_t repacked;      /* fields repacked, over all those times */
    int eager;              /* widen ahead: a place to twice its width,
                               every changed place as narrow as it with
                               it (the markings on the fly of LTL, where
                               a late repack of millions of markings of
                               a net of thousands of places costs more
                               than the room) */
    uint8_t *slots;         /* hash index of the states (open addressing,
                               linear probing): slot_w bytes a slot, all
                               ones when empty, else the state's number
                               in the low slot_bits bits and a tag of its
                               hash above (3 bytes a slot while the
                               numbers leave a tag of 4 bits there) */
    size_t nslots;
    unsigned slot_bits, slot_w;
    uint32_t slot_empty;
    uint64_t *key;          /* a packed marking, whole words */
    /* interleaving: a successor's packed marking is its parent's (pkey,
     * of state pkey_for) with the fields its transition changes
     * rewritten */
    uint64_t *pkey;
    uint32_t pkey_for;
    uint64_t *cmp;          /* scratch: a marking compared */
} pni_store_t;

/* The successor generator's tables and scratch. */
typedef struct {
    /* interleaving: the places each transition changes (normal arcs of
     * unequal weights in and out, reset arcs), chg_idx[chg_off[t] ..
     * chg_off[t + 1]); undo keeps their counts while a transition is
     * fired on the marking itself */
    uint32_t *chg_off, *chg_idx;
    uint64_t *undo;
    uint64_t *m, *pend, *next, *tmp;
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
    size_t enabled;         /* transitions enabled at the last marking
                               whose successors were computed */
} pni_succgen_t;

/* The graph: each state's BFS parent, and when kept the edges (the
 * successors of state i are succ[succ_off[i] .. succ_off[i + 1])). */
typedef struct {
    int keep_parent;
    uint32_t *parent;
    int keep_graph;
    uint64_t *succ_off;
    size_t cap_off;
    uint32_t *succ;
    size_t nsucc, cap_succ;
} pni_graph_t;

/* What was found. */
typedef struct {
    pn_reach_end_t end;
    /* states [0, expanded) had all their successors computed (the rest
     * of a search a limit stopped were found only) */
    size_t expanded;
    uint64_t edges, dead;
    uint32_t first_dead;
    uint64_t max_place, max_total;
    uint64_t *bound, *lowest; /* per place: largest and smallest count */
    unsigned char *fires;     /* per transition */
} pni_found_t;

/* The limits, the progress report and the hook on each new state. */
typedef struct {
    /* a hook on each new state (the queries): nonzero stops the search */
    int (*hook)(pn_reach_t *r, uint32_t state, const uint64_t *m, void *ctx);
    void *hook_ctx;
    int stopped;
    int timed_out;          /* the hook stopped it at its time limit */
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
} pni_limits_t;

/* Unboundedness: with interleaving and only normal and read arcs, a new
 * marking that strictly covers one of its BFS ancestors proves the net
 * unbounded.  Only the records of the total along a path are compared
 * (see pn_reach_unbounded()): record[i] is the last state on the path to
 * i (i included) whose total passes every total before it on that path;
 * delta[t]: what t adds to the total. */
typedef struct {
    int check;
    int64_t *delta;
    uint32_t *record;
    uint32_t cover, covered;
    int bounded;            /* every place has a bound the net's structure
                               proves (a capacity, a semiflow, no
                               transition changing it) */
} pni_cover_t;

typedef struct pni_por pni_por_t;
typedef struct pni_sym pni_sym_t;

/* An LTL counterexample found on the fly (ltl.c), kept with the result
 * whose queries it answered: formula f's lasso, the loop from the marking
 * after step loop on (pn_reach_lasso()). */
typedef struct {
    const pn_qformula_t *f;
    pn_reach_path_t *path;
    size_t loop;
} pni_lasso_t;

struct pn_reach {
    pn_engine_t *engine;
    uint32_t np, nt;
    pn_semantics_t sem;
    pni_layout_t lay;
    pni_store_t store;
    pni_succgen_t gen;
    pni_graph_t graph;
    pni_found_t found;
    pni_limits_t limits;
    pni_cover_t cov;
    pni_por_t *por;         /* stubborn sets (NULL: every successor) */
    pni_lasso_t *lassos;    /* LTL counterexamples found on the fly */
    size_t nlassos;
    /* symmetry: the store holds one marking per orbit (NULL: none used);
     * sym_m a marking in canonical form; sym_asked: the options asked for
     * it */
    pni_sym_t *sym;
    uint64_t *sym_m;
    int sym_asked;
};

/* A sum as an answer: its value, or UINT64_MAX ("that or more") past
 * it. */
static inline uint64_t pni_saturated(unsigned __int128 v)
{
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static inline uint64_t pni_bits_max(unsigned w)
{
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

static inline unsigned pni_bits_for(uint64_t v)
{
    unsigned w = 0;
    while (w < 64 && v > pni_bits_max(w))
        w++;
    return w;
}

/* One more successor (or set of transitions tried): every TICKS, the
 * progress report. */
static inline void pni_tick(pn_reach_t *r)
{
    if (r->limits.progress && --r->limits.ticks == 0) {
        r->limits.ticks = TICKS;
        r->limits.progress(r, r->limits.progress_ctx);
    }
}

/* ---- store.c ------------------------------------------------------------ */

/* Whether growing the search's tables (states, parents, index, graph) by
 * extra bytes would pass the memory limit. */
int pni_over_memory(const pn_reach_t *r, uint64_t extra);
/* The first layout (the places each transition changes, the widths the
 * net's bounds give, what the invariants let go unstored). */
pn_status_t pni_store_first_layout(pn_reach_t *r, const pn_net_t *net);
/* Rebuilds the hash index with nslots slots from the stored states. */
pn_status_t pni_store_rehash(pn_reach_t *r, size_t nslots);
/* The number of marking m in the store, NO_STATE when it is not there
 * (its scratch buffers used). */
uint32_t pni_store_find(const pn_reach_t *r, const uint64_t *m);
/* The same for m, parent's successor by a transition that changes the
 * places chg[0..nchg) only (quicker: the parent's packed form). */
uint32_t pni_store_find_child(pn_reach_t *r, const uint64_t *m,
                              uint32_t parent, const uint32_t *chg,
                              size_t nchg);
/* Finds marking m, or adds it as a new state with the given parent;
 * *index gets its number, *added whether it is new.  With chg (a
 * successor of parent by a transition changing the places chg[0..nchg)
 * only), its packed form is the parent's with those fields rewritten.
 * PN_ERANGE at the state limit, PN_ETOOBIG at the memory limit. */
pn_status_t pni_store_find_or_add(pn_reach_t *r, const uint64_t *m,
                                  uint32_t parent, const uint32_t *chg,
                                  size_t nchg, uint32_t *index, int *added);
/* The marking of state i into m. */
void pni_store_marking(const pn_reach_t *r, size_t i, uint64_t *m);

/* ---- successors.c ------------------------------------------------------- */

/* A successor: the transitions fired (in a firing order the engine could
 * take) and the marking reached; nonzero stops the enumeration. */
typedef int (*pni_visit_fn)(pn_reach_t *r, const uint32_t *set, size_t n,
                            const uint64_t *next, void *ctx);
/* Calls fn for every successor of m; returns 0, fn's nonzero return, or
 * -(1 + place) when a count would pass PN_TOKENS_MAX.  With the search's
 * own visitor (pni_search_visit) under interleaving and no capacities,
 * each transition is fired on m itself and undone (m is restored). */
int pni_successors(pn_reach_t *r, const uint64_t *m, pni_visit_fn fn,
                   void *ctx);
/* Under interleaving: fn called for the successor of m by transition t
 * (enabled at m); returns fn's return, or -(1 + place) when a count would
 * pass PN_TOKENS_MAX. */
int pni_successor_by(pn_reach_t *r, const uint64_t *m, uint32_t t,
                     pni_visit_fn fn, void *ctx);
/* The tables of maximal steps on a net without capacities. */
pn_status_t pni_successors_setup(pn_reach_t *r, const pn_net_t *net);

/* ---- search.c ----------------------------------------------------------- */

/* The search's visitor of each successor (stores it, counts the edge,
 * calls the hook, checks the limits and unboundedness). */
int pni_search_visit(pn_reach_t *r, const uint32_t *set, size_t n,
                     const uint64_t *next, void *ctx);
/* The search, with hook called on each new state (nonzero: decided). */
pn_status_t pni_search(const pn_net_t *net, const pn_reach_options_t *o,
                       int (*hook)(pn_reach_t *, uint32_t, const uint64_t *,
                                   void *),
                       void *ctx, pn_reach_t **out);
/* The options of a store opened at the initial marking and grown on
 * demand (the LTL product and CTL on the fly): o's semantics and limits
 * (NULL: the defaults), no graph, paths, unboundedness check, stubborn
 * sets or progress line. */
void pni_fly_options(const pn_reach_options_t *o, pn_reach_options_t *oc);
/* pni_search(), answering the queries qs (answers: their answers so far,
 * which the hook fills): with o->stubborn, the search fires only the
 * stubborn sets of the queries still open (stubborn.c). */
pn_status_t pni_search_queries(const pn_net_t *net,
                               const pn_reach_options_t *o,
                               const pn_query_set_t *qs,
                               const pn_query_answer_t *answers,
                               int (*hook)(pn_reach_t *, uint32_t,
                                           const uint64_t *, void *),
                               void *ctx, pn_reach_t **out);
/* The path through the states chain[0..len) (each a successor of the one
 * before). */
pn_status_t pni_path_of(const pn_reach_t *r, const uint32_t *chain,
                        size_t len, pn_reach_path_t **out);

/* ---- stubborn.c -------------------------------------------------------- */

/* The stubborn sets of the queries qs (answers: the open ones are those
 * not known), over the search r's net; NULL when there is no query, a
 * query is CTL, or out of memory (then the full search). */
pni_por_t *pni_por_new(const pn_reach_t *r, const pn_net_t *net,
                       const pn_query_set_t *qs,
                       const pn_query_answer_t *answers);
void pni_por_free(pni_por_t *s);
/* How the search r decides: PN_TECH_EXPLICIT, with PN_TECH_STUBBORN when
 * it fires stubborn sets. */
unsigned pni_search_tech(const pn_reach_t *r);
/* Keeps in en[0..ne) (the transitions enabled at m) those of a stubborn
 * set of m, in order; returns how many. */
size_t pni_por_filter(pni_por_t *s, const pn_reach_t *r, const uint64_t *m,
                      uint32_t *en, size_t ne);
/* Sets that keep LTL without next (the product on the fly, ltl.c): the
 * tables of the search r's net (NULL out of memory); the formula f they
 * serve next (-1: none may be reduced for f, every successor is fired);
 * and the transitions of en[0..ne) (those enabled at m) a set of m keeps,
 * in order, their number returned (ne: every one); with all_visible, a
 * set that holds every visible transition (the cycle proviso). */
pni_por_t *pni_por_ltl_new(const pn_reach_t *r, const pn_net_t *net);
int pni_por_ltl_formula(pni_por_t *s, const pn_qformula_t *f);
size_t pni_por_ltl_filter(pni_por_t *s, const uint64_t *m, uint32_t *en,
                          size_t ne, int all_visible);

/* ---- symmetry.c --------------------------------------------------------- */

/* The automorphisms of net that permute identical blocks of places and
 * transitions, kept where they keep every query of qs (NULL: none): *out
 * NULL when there is none.  PN_OK, PN_ENOMEM. */
pn_status_t pni_sym_new(const pn_net_t *net, const pn_query_set_t *qs,
                        pni_sym_t **out);
void pni_sym_free(pni_sym_t *s);
/* The number of permutations (UINT64_MAX: that or more). */
uint64_t pni_sym_order(const pni_sym_t *s);
/* The representative of m's orbit into out (out may be m). */
void pni_sym_canon(pni_sym_t *s, const uint64_t *m, uint64_t *out);
/* Per place and transition, what the representatives found give over
 * every marking: the largest and smallest counts, whether it fires. */
void pni_sym_close(const pni_sym_t *s, uint64_t *bound, uint64_t *lowest,
                   unsigned char *fires);
/* Whether the permutation pp of the places and tp of the transitions is an
 * automorphism of net: bijections that keep each place's initial marking
 * and capacity and the arcs (kind, direction, weight, parallel ones
 * counted). */
int pni_sym_verify(const pn_net_t *net, const uint32_t *pp,
                   const uint32_t *tp);

/* ---- properties.c, ctl.c ------------------------------------------------ */

/* Whether marking m satisfies f (no temporal operator in it). */
int pni_query_holds(const pn_reach_t *r, const pn_qformula_t *f,
                    const uint64_t *m);
/* CTL over the graph of an exploration that kept it: the checker (the
 * graph's predecessors, built once for all its formulas; NULL when out of
 * memory or there is no graph), and whether formula f holds at the
 * initial marking: PN_OK, PN_ENOMEM.  On a complete graph *known is
 * always 1; on one a limit cut short, 1 only where the markings found
 * decide f whatever the unexpanded ones lead to.  *state: for EF g true,
 * the nearest marking where g holds; for AG g false, the nearest where it
 * fails; else PN_REACH_NO_STATE. */
typedef struct pni_ctl pni_ctl_t;
pni_ctl_t *pni_ctl_new(pn_reach_t *r);
pn_status_t pni_ctl_holds(pni_ctl_t *c, const pn_qformula_t *f, int *known,
                          int *value, uint64_t *state);
void pni_ctl_free(pni_ctl_t *c);
/* A path p through the states chain[0..len) of r that is to show CTL
 * formula f's answer value at its top operator (as pn_reach_ctl_path()
 * says, loop included), replayed from the initial marking by
 * pn_sim_fire() and checked: PN_OK, PN_ETRACE (a step that does not fire
 * or reaches another marking, a claim that fails, a loop that does not
 * close, a dead end that is not dead), PN_ENOMEM.  An operand with a
 * temporal operator is asked of kid(ctx, k, s, want): 1 when operand k
 * is surely want at state s. */
typedef int (*pni_ctl_kid_fn)(void *ctx, size_t k, uint32_t s, int want);
pn_status_t pni_ctl_path_check(pn_reach_t *r, const pn_qformula_t *f,
                               int value, const uint32_t *chain, size_t len,
                               const pn_reach_path_t *p, size_t loop,
                               pni_ctl_kid_fn kid, void *ctx);

/* CTL on the fly: a checker over markings it explores only as a formula
 * asks for them (a search opened at net's initial marking under o's
 * semantics and limits, shared by all the formulas it checks), and
 * whether f holds at the initial marking: *known 0 when the clock passed
 * deadline (a pni_clock() time; 0: none), a limit of o or an overflow
 * stopped it.  PN_OK, PN_ENOMEM. */
typedef struct pni_lctl pni_lctl_t;
pn_status_t pni_lctl_new(const pn_net_t *net, const pn_reach_options_t *o,
                         pni_lctl_t **out);
/* With path not NULL, the path of the answer at f's top operator when
 * one path shows it (as pn_reach_ctl_path() says, *loop too), the one
 * the search decided on, replayed and checked; else *path NULL. */
pn_status_t pni_lctl_holds(pni_lctl_t *c, const pn_qformula_t *f,
                           double deadline, int *known, int *value,
                           pn_reach_path_t **path, size_t *loop);
/* The markings it stored so far. */
uint64_t pni_lctl_states(const pni_lctl_t *c);
void pni_lctl_free(pni_lctl_t *c);

/* ---- buchi.c, ltl.c ----------------------------------------------------- */

/* A transition of a generalized Büchi automaton: taken at a position
 * whose marking satisfies its literals (lits[lit_off ..] nlits of them,
 * each atom * 2 + 1 when negated), it leads to state dst and fulfils the
 * acceptance marks acc. */
typedef struct {
    uint32_t dst;
    uint64_t acc;
    uint32_t lit_off, nlits;
} pni_btrans_t;

/* The automaton (state 0 initial): a word is accepted by a run that
 * takes, for every mark of all, infinitely many transitions with it.
 * Transitions of state q: t[t_off[q] .. t_off[q + 1]).  atoms: the
 * formula's greatest subformulas with no temporal operator (owned by the
 * formula). */
typedef struct {
    size_t nstates;
    uint32_t *t_off;
    pni_btrans_t *t;
    uint32_t *lits;
    uint64_t all;
    const pn_qformula_t **atoms;
    size_t natoms;
} pni_buchi_t;

/* The automaton of LTL formula f (its negation when negate): PN_OK,
 * PN_ENOMEM, PN_ERANGE (more than 64 untils or 100,000 states). */
pn_status_t pni_buchi_new(const pn_qformula_t *f, int negate,
                          pni_buchi_t **out);
void pni_buchi_free(pni_buchi_t *b);
/* Whether t's literals hold, value[k] the value of atom k. */
int pni_buchi_label(const pni_buchi_t *b, const pni_btrans_t *t,
                    const unsigned char *value);

/* Stubborn sets the automaton guides (stubborn.c): for the automaton b of
 * an LTL formula (with or without next) over the net of s's tables, NULL
 * when no state of b qualifies or out of memory; and the transitions of
 * en[0..ne) (those enabled at m) the set of product state (m, q) keeps,
 * in order, their number returned (ne: every one; 0: none, the state has
 * no successor), value the values of b's atoms at m. */
typedef struct pni_aut pni_aut_t;
pni_aut_t *pni_por_aut_new(pni_por_t *s, const pni_buchi_t *b);
void pni_por_aut_free(pni_aut_t *a);
size_t pni_por_aut_set(pni_aut_t *a, const pn_reach_t *r, const uint64_t *m,
                       uint32_t q, const unsigned char *value, uint32_t *en,
                       size_t ne);

/* LTL over the graph of a complete exploration that kept it, a dead
 * marking repeated for ever: whether every path from the initial marking
 * satisfies f (*value), by the product of the graph with the automaton of
 * not f, searched for an accepting cycle (Couvreur's algorithm), stopped
 * at the first.  When one is found and lasso is not NULL, *lasso gets the
 * graph states of a path from the initial state, *len of them, the last
 * one also at (*lasso)[*loop] (the path goes round from there for ever;
 * *loop == *len - 1 at a dead marking, which repeats); the caller frees
 * it.  PN_OK, PN_ENOMEM, PN_ERANGE (the automaton is too large, or the
 * clock passed deadline, a pni_clock() time; 0: none), PN_EINVAL (f is
 * not an LTL formula). */
pn_status_t pni_ltl_holds(pn_reach_t *r, const pn_qformula_t *f,
                          double deadline, int *value, uint32_t **lasso,
                          size_t *len, size_t *loop);
/* Whether f is an LTL path formula: LTL operators and connectives over
 * state formulas, no CTL operator. */
int pni_ltl_formula(const pn_qformula_t *f);
/* The same on the fly: the product of the net's successors with the
 * automaton of not f, each marking's successors computed the first time
 * a product reaches it, stopped at the first accepting cycle.  g keeps
 * the markings and their successors from one formula to the next
 * (pni_fly_new(): o's semantics and memory and state limits).  When f
 * fails and path is not NULL, *path gets the lasso from the initial
 * marking (the caller frees it), round for ever from the marking after
 * step *loop (*loop == nsteps: a dead marking that repeats).  PN_OK,
 * PN_ENOMEM, PN_ERANGE (the automaton is too large, a count passed
 * PN_TOKENS_MAX, the memory or state limit, or the deadline, a
 * pni_clock() time, 0: none), PN_EINVAL. */
typedef struct pni_fly pni_fly_t;
pn_status_t pni_fly_new(const pn_net_t *net, const pn_reach_options_t *o,
                        pni_fly_t **out);
void pni_fly_free(pni_fly_t *g);
pn_status_t pni_ltl_fly(pni_fly_t *g, const pn_qformula_t *f,
                        double deadline, int *value, pn_reach_path_t **path,
                        size_t *loop);
/* Whether g's products fire the sets the automaton guides for every
 * formula (on), or the sets of LTL without next where they apply and
 * those for the formulas with next (the default). */
void pni_fly_aut_always(pni_fly_t *g, int on);
/* Whether g's products fire every enabled transition (on: no stubborn
 * set, the heuristic's order alone, which finds some counterexamples
 * the sets hide from it), or the sets (the default). */
void pni_fly_plain(pni_fly_t *g, int on);
/* With o->stubborn under interleaving (pni_fly_new()), a formula without
 * next fires at each product state only a stubborn set that keeps it
 * (stubborn.c, ltl.c): the answer is the full product's.  The last
 * formula's product states, and how many of them fired a stubborn set
 * (0: none was reduced). */
void pni_fly_last(const pni_fly_t *g, size_t *states, uint64_t *reduced);
/* The search record that holds its markings (its store). */
const pn_reach_t *pni_fly_store(const pni_fly_t *g);
/* Keeps f's lasso (path, owned from then on) with r for pn_reach_lasso()
 * (PN_ENOMEM: path freed, not kept); pni_ltl_lassos_free() frees them.
 * A CTL formula's path (loop PN_REACH_NO_LOOP: none) is kept the same
 * way for pn_reach_ctl_path(). */
pn_status_t pni_ltl_keep(pn_reach_t *r, const pn_qformula_t *f,
                         pn_reach_path_t *path, size_t loop);
void pni_ltl_lassos_free(pn_reach_t *r);
/* A copy of the path kept with r for f: PN_OK, PN_ENOMEM, PN_EINVAL
 * (none). */
pn_status_t pni_kept_path(const pn_reach_t *r, const pn_qformula_t *f,
                          pn_reach_path_t **out, size_t *loop);

/* ---- invariants.c ------------------------------------------------------- */

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
/* The minimal-support semiflows of net: y >= 0, y C = 0 on the normal
 * arcs' incidence matrix C (by_transition: the T-semiflows, C x = 0),
 * each primitive and once, narrowest support first, into out (exact[i]
 * all 1).  Farkas' algorithm under a budget: at most max_rows rows at
 * once (and max_cells matrix cells: the row limit is lowered to fit),
 * max_work steps.  Returns 0; 1 past the rows, 2 past the work, 3 a
 * coefficient past 2^62 (out then empty); -1 out of memory. */
int pni_minimal_flows(const pn_net_t *net, int by_transition,
                      size_t max_rows, uint64_t max_cells,
                      uint64_t max_work, pni_flows_t *out);
/* What the net's invariants let the store leave out, on the first widths
 * nb (set to 0 for what is not stored as a count): the groups, then the
 * derived places (r->lay). */
pn_status_t pni_compress(pn_reach_t *r, const pn_net_t *net,
                         const pni_flows_t *fl, uint8_t *nb);

/* The layout the store chose (for the tests): one-hot groups, those of
 * them exact, derived places, bytes a state. */
void pni_reach_layout(const pn_reach_t *r, size_t *groups, size_t *exact,
                      size_t *derived, size_t *stride);

/* ---- structure.c -------------------------------------------------------- */

/* Adjacency lists: the neighbours of node v are idx[off[v] .. off[v + 1]),
 * increasing, each with the weight of its arcs (parallel ones added). */
typedef struct {
    size_t *off;
    uint32_t *idx;
    uint64_t *w;
} pni_adj_t;

/* The flow relation of the normal arcs: each place's output transitions
 * (pout) and input ones (pin), each transition's input places (tin) and
 * output ones (tout); other_arcs: the net has arcs of other kinds (left
 * out). */
typedef struct {
    size_t np, nt;
    pni_adj_t pout, pin, tin, tout;
    int other_arcs;
} pni_flowrel_t;

/* PN_OK, PN_ENOMEM, PN_ETOOBIG (2^32 - 1 nodes or more); closed (freed
 * with pni_flowrel_close()) either way. */
pn_status_t pni_flowrel_open(const pn_net_t *net, pni_flowrel_t *g);
void pni_flowrel_close(pni_flowrel_t *g);
/* x (a set of places, by place) becomes the largest trap inside it
 * (siphons.c), on the normal arcs of g; cnt and queue: room for g->nt
 * counts each.  Returns its size. */
size_t pni_largest_trap(const pni_flowrel_t *g, unsigned char *x,
                        uint32_t *cnt, uint32_t *queue);
/* 1 when every minimal siphon of net contains a trap marked at the
 * initial marking, found within max_work steps of the siphons' search
 * (siphons.c; about 2^28 a second); 0 when one does not or the work ran
 * out. */
int pni_siphons_commoner(const pn_net_t *net, uint64_t max_work);

/* ---- walk.c, lp.c, solve.c: answers past the state explosion --------- */

/* Seconds on a monotonic clock. */
double pni_clock(void);
/* Whether formula f holds at marking m (e: the compiled net, nt its
 * transitions). */
int pni_formula_holds(const pn_engine_t *e, uint32_t nt,
                      const pn_qformula_t *f, const uint64_t *m);
/* A bound query's sum at m (UINT64_MAX: that or more). */
uint64_t pni_query_value(const pn_qsum_t *s, const uint64_t *m);
/* Called when query i is decided. */
typedef void (*pni_decided_fn)(size_t i, void *ctx);
/* Random walks until deadline (pni_clock()) or every query of qs is
 * decided: an EF query whose formula holds (AG: fails) at a marking met
 * is decided (state PN_REACH_NO_STATE); a bound query's answer gets the
 * largest value met as a lower bound, known when it reaches ub[i] (ub:
 * NULL, or UINT64_MAX where none).  Every find replays by pn_sim_fire()
 * from the initial marking first.  Interleaving only. */
pn_status_t pni_walk(const pn_net_t *net, const pn_query_set_t *qs,
                     pn_query_answer_t *ans, const uint64_t *ub,
                     double deadline, uint64_t seed, pni_decided_fn decided,
                     void *ctx);
/* How far a marking is from satisfying a state formula (walk.c): an atom
 * a >= b is max(0, b - a) away, a conjunction the sum of its parts, a
 * disjunction the nearest, "t enabled" the tokens t's inputs lack, as
 * verifypn's DistanceContext measures (PetriEngine/PQL).  The arcs that
 * decide each transition's enabling: in[in_off[t] .. in_off[t + 1]). */
typedef struct {
    uint32_t p;
    unsigned char inh;  /* enabled while M(p) < w (else M(p) >= w) */
    uint64_t w;
} pni_darc_t;
typedef struct {
    const pn_engine_t *e;
    uint32_t nt;
    size_t *in_off;
    pni_darc_t *in;
} pni_dist_t;
/* PN_OK or PN_ENOMEM (d then freed); pni_dist_free() frees it. */
pn_status_t pni_dist_init(pni_dist_t *d, const pn_net_t *net,
                          const pn_engine_t *e);
void pni_dist_free(pni_dist_t *d);
/* The distance of m to f (neg: to !f): 0 where it holds, INFINITY where
 * nothing brings it nearer (false). */
double pni_distance(const pni_dist_t *d, const pn_qformula_t *f, int neg,
                    const uint64_t *m);
/* The tokens t lacks to be enabled at m (dis: the fewest to take away or
 * add to one of its places for it to be disabled). */
double pni_enable_distance(const pni_dist_t *d, size_t t, int dis,
                           const uint64_t *m);
/* The kinds of walk (pni_walk() takes turns at all three): uniformly
 * random; guided by a distance to the formula (or a bound's sum); guided
 * by the firing counts of a solution of the state equation. */
#define PNI_WALK_RANDOM 1u
#define PNI_WALK_DISTANCE 2u
#define PNI_WALK_PARIKH 4u
typedef struct {
    double deadline;      /* pni_clock() */
    uint64_t seed;
    uint64_t max_steps;   /* firings in all (0: no limit) */
    unsigned kinds;       /* PNI_WALK_* or-ed (0: every kind) */
    /* called with each witness once it replayed (query i, its trace) */
    void (*on_witness)(size_t i, const uint32_t *trace, size_t n, void *ctx);
    void *ctx;            /* on_witness's */
    uint64_t steps;       /* out: the firings made */
} pni_walk_options_t;
/* pni_walk() with the options of wo. */
pn_status_t pni_walk_with(const pn_net_t *net, const pn_query_set_t *qs,
                          pn_query_answer_t *ans, const uint64_t *ub,
                          pni_walk_options_t *wo, pni_decided_fn decided,
                          void *ctx);

/* The state equation of a net (lp.c). */
typedef struct pni_lp pni_lp_t;
/* Whether the state equation over-approximates the net's reachable
 * markings: no reset arcs, no capacities. */
int pni_lp_sound(const pn_net_t *net);
pni_lp_t *pni_lp_new(const pn_net_t *net);
void pni_lp_free(pni_lp_t *lp);
/* 1 when no solution of the state equation (m = m0 + C.x, x >= 0
 * integer, m >= 0) satisfies f (neg: !f), within about seconds (2: the
 * equation and trap cuts; 3: f is a deadlock, excluded by siphons and
 * traps); 0 when one does or the solver did not finish (no
 * conclusion). */
int pni_lp_impossible(const pni_lp_t *lp, const pn_qformula_t *f, int neg,
                      double seconds);
/* The PN_TECH_ bits of pni_lp_impossible()'s nonzero answer. */
unsigned pni_lp_tech(int verdict);
/* 1 with *ub, an upper bound of sum s over the state equation's
 * solutions, found within about seconds; 0 when none (unbounded, or not
 * in time). */
int pni_lp_bound(const pni_lp_t *lp, const pn_qsum_t *s, double seconds,
                 uint64_t *ub);
/* 1 with x[t] (one per transition), the firing counts of a solution of
 * the state equation where f (neg: !f) holds, as small in sum as the
 * solver found within about seconds (an integer solution, else the
 * relaxation's rounded up); 0 when none was found.  A guide for the
 * walks, never an answer. */
int pni_lp_parikh(const pni_lp_t *lp, const pn_qformula_t *f, int neg,
                  double seconds, uint64_t *x);

/* The queries of qs simplified (simplify.c): *out (freed with
 * pn_query_set_free()) holds a copy of each, same order, the formula of
 * each one not known in answers rewritten into one with the same answer
 * on net, by the state equation (when use_lp and the net is sound for
 * it, until deadline, a pni_clock() time) and by exact rules; a CTL
 * query of the form EF f or AG f with f left without temporal operator
 * becomes an EF or AG query.  tech[i] gets PN_TECH_QUERY_REDUCTION when
 * query i changed (and PN_TECH_STATE_EQUATION when the equation helped).
 * PN_OK or PN_ENOMEM. */
pn_status_t pni_simplify(const pn_net_t *net, const pn_query_set_t *qs,
                         const pn_query_answer_t *answers, int use_lp,
                         double deadline, unsigned *tech,
                         pn_query_set_t **out);
/* Whether the marking that decides sq, q simplified (pni_simplify()), is
 * one q's own witness names: 0 for a CTL formula that became a
 * reachability query but did not stand under EF or AG at the top (the
 * marking decides it, but is no EF or AG witness of it). */
int pni_simplified_witness(const pn_query_t *q, const pn_query_t *sq);
/* 1 with *value when q's formula is a constant (its answer), else 0. */
int pni_simplified_value(const pn_query_t *q, int *value);

/* Traps against the state equation (traps.c). */
typedef struct pni_traps pni_traps_t;
struct glp_prob;
/* NULL out of memory, or where the net has reset arcs or capacities. */
pni_traps_t *pni_traps_new(const pn_net_t *net);
void pni_traps_free(pni_traps_t *t);
/* Sets the trap cuts lp uses (NULL: none, the plain equation; the tests
 * compare), returning those it had; lp frees what it holds. */
pni_traps_t *pni_lp_set_traps(pni_lp_t *lp, pni_traps_t *traps);
/* P, a problem whose first columns are the net's transitions (x) and
 * whose rows include the state equation's, its relaxation just solved to
 * an optimum: whether no integer solution is left once the initially
 * marked traps that a solution empties are cut off, proven before
 * deadline (pni_clock()): 0 not proven, 1 proven with no cut, 2 proven
 * with trap cuts. */
int pni_traps_infeasible(pni_traps_t *t, struct glp_prob *P,
                         double deadline);
/* Whether no reachable marking is dead, within about seconds: 0 not
 * proven, 2 by the state equation with a disjunction of disabled
 * transitions and trap cuts, 3 every siphon holds an initially marked
 * trap (an ordinary net). */
int pni_traps_no_deadlock(pni_traps_t *t, double seconds);

/* PN_OK when every query of qs names only places and transitions of net
 * (solve.c), else PN_EINVAL. */
pn_status_t pni_check_queries(const pn_net_t *net, const pn_query_set_t *qs);

/* ---- reduce.c: structural reductions ------------------------------------ */

/* One transition's arcs on one place, merged by kind (reduce.c). */
typedef struct {
    uint32_t p;
    uint64_t in, out, rd, ih; /* normal in, out, read, inhibitor (0: none) */
    unsigned char reset;
} pni_rarc_t;

/* A net as the reductions hold it, for the implicit places (implicit.c):
 * transition t's arcs arcs[t][0 .. narcs[t]), by increasing place (NULL:
 * t is gone); the transitions with an arc on place p, adj[off[p] ..
 * off[p + 1]) (some of them gone). */
typedef struct {
    size_t np, nt;
    const uint64_t *m0, *cap;
    const unsigned char *pvis;   /* per place: the query observes it */
    unsigned char *palive;       /* per place: still there (cleared for
                                    each place found implicit) */
    unsigned char *tried;        /* per place: tried before (set for each
                                    place tried) */
    pni_rarc_t *const *arcs;
    const size_t *narcs;
    const size_t *off;
    const uint32_t *adj;
} pni_implicit_net_t;

/* The implicit places of n (implicit.c), tried one after the other
 * until deadline (pni_clock()), each found removed at once (palive) so
 * that the next is implicit in the net without it.  Returns how many
 * were found. */
size_t pni_implicit_places(pni_implicit_net_t *n, double deadline);

/* A net reduced for one query: its reachable markings restricted to the
 * places the query looks at are the original's (interleaving). */
typedef struct {
    pn_net_t *net;
    pn_query_set_t *qs;          /* the query on it (none: empty) */
    size_t np, nt;               /* the original's places, transitions */
    size_t *place_new;           /* original place -> its index, PN_NONE */
    size_t *trans_new;           /* (the original's first nt entries) */
    /* reduced transition t stands for the original transitions
     * seq[seq_off[t] .. seq_off[t + 1]), fired in that order */
    size_t *seq_off;
    uint32_t *seq;
    size_t rules[9];             /* how often each rule fired: constant
                                    places, dead transitions, sink
                                    places, duplicate transitions,
                                    parallel places, post-agglomerations,
                                    null transitions,
                                    pre-agglomerations, implicit places */
} pni_reduced_t;

/* The net reduced for q (EF, AG, bound; a CTL query or NULL: only the
 * rules that keep the graph, with everything observed), the rules
 * applied until none fires or deadline (pni_clock(); 0: none).  q must
 * name only the net's places and transitions. */
pn_status_t pni_reduce(const pn_net_t *net, const pn_query_t *q,
                       double deadline, pni_reduced_t **out);
/* pni_reduce(), with what the implicit places learnt from one query to
 * the next: the net's places marked in tried (NULL: none) are not tried
 * as implicit places, and each place tried and found not implicit (or not
 * in time) is marked there. */
pn_status_t pni_reduce_tried(const pn_net_t *net, const pn_query_t *q,
                             double deadline, unsigned char *tried,
                             pni_reduced_t **out);
void pni_reduced_free(pni_reduced_t *d);
/* A path of the reduced net as the original's transitions (*out: *n of
 * them, freed by the caller). */
pn_status_t pni_reduced_expand(const pni_reduced_t *d,
                               const pn_reach_path_t *path, uint32_t **out,
                               size_t *n);
/* Replays the reduced search rr's path to state on the original net (e,
 * compiled), one transition at a time through pn_sim_fire(): 0 with the
 * marking reached in m, 1 when it does not replay, -1 out of memory. */
int pni_reduced_replay(const pni_reduced_t *d, const pn_engine_t *e,
                       const pn_reach_t *rr, uint64_t state, uint64_t *m);

#endif
