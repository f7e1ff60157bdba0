/*
 * pn/reach.h - the state space of a net: every reachable marking under
 * interleaving or maximal-step semantics, dead markings and the paths to
 * them, bounds, dead transitions, and the least and greatest number of
 * steps to a dead marking.
 *
 * Ownership: pn_reach_explore() returns a result the caller frees with
 * pn_reach_free(); pointers from getters are borrowed from it.  The
 * explorer compiles its own copy of the net (pn_engine_compile()) and fires
 * transitions with the engine's own rule: the successors of a marking are
 * exactly the markings pn_sim_step() can produce there.
 */
#ifndef PN_REACH_H
#define PN_REACH_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"
#include "engine.h"
#include "query.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_reach pn_reach_t;

typedef struct pn_reach_options {
    pn_semantics_t semantics; /* interleaving: one transition per edge;
                                 maximal: the successors of M are all the
                                 maximal steps some conflict order of
                                 pn_sim_step() produces at M */
    uint64_t max_states;      /* store at most this many markings: stop
                                 (incomplete) at a new one beyond, even
                                 among one marking's successors; 0: no
                                 limit */
    uint64_t token_bound;     /* stop (incomplete) at the first marking
                                 stored with more in a place; 0: no
                                 limit */
    int graph;                /* keep the edges (always with maximal steps):
                                 pn_reach_run_lengths() and
                                 pn_reach_longest_path() need them; 4 bytes
                                 an edge */
    uint64_t max_memory;      /* stop (incomplete) before the search's
                                 tables (pn_reach_memory()) would pass this
                                 many bytes; 0: no limit */
    int unbounded;            /* 1 (the default): with interleaving, on a
                                 net of normal and read arcs without
                                 capacities, stop at the first marking that
                                 strictly covers one of its ancestors (the
                                 net is then not bounded) */
    /* called every 4096 successors computed (maximal steps tried, within
     * one marking too) or markings expanded, with the search so far (its
     * getters work): a progress report that reads the clock; NULL: none */
    void (*progress)(const pn_reach_t *r, void *ctx);
    void *progress_ctx;
    int no_paths;             /* 1: keep no BFS parent per state (4 bytes
                                 a state less): pn_reach_path(),
                                 pn_reach_dead_path() and pn_reach_depth()
                                 then answer PN_EINVAL (0); the
                                 unboundedness check keeps them all the
                                 same.  0 (the default): kept */
    int stubborn;             /* 1: pn_reach_query() and pn_reach_solve()
                                 fire at each marking only a stubborn set
                                 of the queries still open (with
                                 interleaving, no CTL query): the answers
                                 are the full search's, the markings and
                                 figures those of a smaller graph
                                 (pn_reach_stubborn()).  0 (the default):
                                 every enabled transition */
    int symmetry;             /* 1: store one marking per orbit of the
                                 net's automorphisms that permute
                                 identical parts (blocks) of it, each
                                 checked to be an automorphism, where
                                 every query is invariant under them
                                 (pn_reach_symmetry()); no LTL query, no
                                 stubborn sets, no unboundedness check.
                                 The markings, edges and dead markings
                                 are then those of the quotient graph;
                                 the answers, the bounds, the transitions
                                 that fire and the lengths of paths are
                                 the full graph's.  0 (the default): none */
    uint64_t reserved[1];     /* zero (the init function sets it): room for
                                 fields of later versions */
} pn_reach_options_t;

/* Fills the defaults: interleaving, no limits, the unboundedness check.
 * A zeroed struct is not the defaults (zero is maximal steps and no
 * unboundedness check): call this first, then set what differs. */
void pn_reach_options_init(pn_reach_options_t *o);

/* Why an exploration stopped. */
typedef enum {
    PN_REACH_COMPLETE = 0,  /* every reachable marking was found */
    PN_REACH_MAX_STATES = 1,/* the state limit was reached */
    PN_REACH_TOKEN_BOUND = 2,/* a place passed the token bound */
    PN_REACH_OVERFLOW = 3,  /* a count would pass PN_TOKENS_MAX */
    PN_REACH_MAX_MEMORY = 4,/* the memory limit was reached */
    PN_REACH_UNBOUNDED = 5, /* a marking strictly covers one of its
                               ancestors: the net is not bounded
                               (pn_reach_unbounded()) */
    PN_REACH_DECIDED = 6,   /* pn_reach_query(): every query was decided
                               before every marking was found (the
                               markings found were all looked at: see
                               pn_reach_dead()) */
    PN_REACH_TIME_LIMIT = 7 /* pn_reach_solve(): its time limit came
                               first */
} pn_reach_end_t;

/* Explores breadth first from the initial marking.  Returns PN_OK with
 * *out (complete or not: pn_reach_end() says), PN_EINVAL, PN_ENOMEM.
 * Memory: one bit-packed marking per state, all in one block (each place
 * gets as many bits as the largest count the net lets it hold when that
 * is known from its capacity or because no transition changes it, else
 * as its initial count; a count that does not fit widens that place, at
 * least doubling its bits, and repacks the markings stored so far), an
 * open-addressing hash index of 4-byte state numbers, and the BFS parent
 * of each state (4 bytes, for shortest paths; none with no_paths).  Maximal
 * steps: the successors of a marking are enumerated as the maximal sets of
 * enabled transitions that fit its tokens together (exponential in the number
 * of conflicting transitions at worst); in a net with capacities, as the
 * results of every order of the engine's walk (a place emptied by one
 * transition can make room for another): up to n! orders of n enabled
 * transitions. */
pn_status_t pn_reach_explore(const pn_net_t *net, const pn_reach_options_t *o,
                             pn_reach_t **out);
void pn_reach_free(pn_reach_t *r);

pn_reach_end_t pn_reach_end(const pn_reach_t *r);
/* Markings found, and edges between them (distinct successor markings per
 * marking; interleaving: one per enabled transition). */
uint64_t pn_reach_states(const pn_reach_t *r);
uint64_t pn_reach_edges(const pn_reach_t *r);
/* The largest count of one place, and the largest total of one marking,
 * over the markings found (a total past 2^64 - 1 reads UINT64_MAX: that
 * or more). */
uint64_t pn_reach_max_tokens_in_place(const pn_reach_t *r);
uint64_t pn_reach_max_tokens_per_marking(const pn_reach_t *r);
/* The largest count of place p over the markings found. */
uint64_t pn_reach_place_bound(const pn_reach_t *r, size_t p);
/* Whether transition t fires on some edge found (0: it never can, when the
 * exploration is complete).  After PN_REACH_DECIDED: whether it is enabled
 * in some marking found (those whose successors the search did not compute
 * too, so that a witness where t is enabled never leaves it unfired). */
int pn_reach_transition_fires(const pn_reach_t *r, size_t t);
/* The marking of state i (0 .. pn_reach_states() - 1; 0 is the initial
 * marking) into m, one count per place.  PN_EINVAL for a bad i. */
pn_status_t pn_reach_marking(const pn_reach_t *r, uint64_t i, uint64_t *m);
/* Whether marking m (one count per place) was found.  O(places).  Uses the
 * result's scratch buffer: not from two threads at once. */
int pn_reach_contains(const pn_reach_t *r, const uint64_t *m);
/* Dead markings found (no transition enabled): among the markings whose
 * successors were computed; after PN_REACH_DECIDED, among every marking
 * found (a dead witness of EF deadlock is counted, and
 * pn_reach_dead_path() leads to the nearest). */
uint64_t pn_reach_dead(const pn_reach_t *r);
/* Whether some place is the same in every marking found (the MCC's
 * StableMarking). */
int pn_reach_stable_place(const pn_reach_t *r);

/* A path from the initial marking to the nearest dead marking, as steps
 * (each a list of transitions): steps[i] has n_in_step[i] transitions.
 * Returns PN_OK with a path the caller frees (pn_reach_path_free()),
 * PN_ENOMEM, or PN_EINVAL when no dead marking was found. */
typedef struct pn_reach_path {
    size_t nsteps;
    uint32_t **steps;
    size_t *n_in_step;
} pn_reach_path_t;
pn_status_t pn_reach_dead_path(const pn_reach_t *r, pn_reach_path_t **out);
void pn_reach_path_free(pn_reach_path_t *p);
/* A shortest path from the initial marking to state (a breadth-first
 * search finds each state by a shortest path).  PN_EINVAL for a bad
 * state. */
pn_status_t pn_reach_path(const pn_reach_t *r, uint64_t state,
                          pn_reach_path_t **out);
/* The number of steps of that path (0 for a bad state). */
uint64_t pn_reach_depth(const pn_reach_t *r, uint64_t state);

/* After PN_REACH_UNBOUNDED: 1, with the state that strictly covers
 * (*cover) one of its ancestors on its shortest path (*covered).  The
 * steps from *covered to *cover can fire again from *cover, forever,
 * adding tokens each time.  The check is exact and cheap: only the
 * records of the total along a path are compared (a marking with more
 * tokens than every marking before it on its shortest path, with the
 * records before it: at most one per value of the total).  An unbounded
 * net has an infinite path in the search tree (finitely many successors
 * each), with unbounded totals, so infinitely many records, two of which
 * cover one another (Dickson's lemma): the search stops there.  Costs 4
 * bytes a state, on nets where some transition adds tokens.  0
 * otherwise. */
int pn_reach_unbounded(const pn_reach_t *r, uint64_t *cover,
                       uint64_t *covered);

/* Whether state enables no transition.  Uses the result's scratch
 * buffer: not from two threads at once. */
int pn_reach_dead_state(const pn_reach_t *r, uint64_t state);

/* The markings where the search fired fewer transitions than were
 * enabled (a stubborn set; pn_reach_options_t's stubborn): 0 when it fired
 * every one everywhere.  Its markings, edges, dead markings, bounds and
 * transitions fired are then those of the reduced graph; the answers of
 * its queries are exact all the same. */
uint64_t pn_reach_stubborn(const pn_reach_t *r);

/* The symmetry the search used (pn_reach_options_t's symmetry): 0 when
 * it was not asked for, 1 when it was but none was found or a query is
 * not invariant under it, else the number of permutations of the group
 * (UINT64_MAX: that or more), each state standing for its orbit. */
uint64_t pn_reach_symmetry(const pn_reach_t *r);

/* Bytes held by the search's tables: the packed markings, their parents,
 * the hash index and the graph (what --max-memory limits). */
uint64_t pn_reach_memory(const pn_reach_t *r);

/* ---- queries (pn/query.h) -------------------------------------------- */

#define PN_REACH_NO_STATE UINT64_MAX

typedef struct pn_query_answer {
    int known;          /* decided (else a limit stopped the search first) */
    int value;          /* EF, AG: whether the query holds */
    uint64_t bound;     /* BOUND: the largest value found (exact when
                           known; UINT64_MAX: that or more, a sum past
                           2^64 - 1) */
    uint64_t state;     /* the marking that decides it (EF true: a witness;
                           AG false: a counterexample; BOUND: one where the
                           largest value is reached; a CTL formula EF g
                           true or AG g false: the nearest marking where g
                           holds, resp. fails; pn_reach_path() leads
                           there), or PN_REACH_NO_STATE */
} pn_query_answer_t;

/* Explores as pn_reach_explore() and answers every query of qs on the
 * way: answers[i] for qs->q[i].  EF and AG queries are decided as soon as
 * a marking proves them (true, resp. false); when every query is decided
 * and none is a bound or CTL, the search stops there (PN_REACH_DECIDED).
 * CTL queries are decided at the end, over the graph (kept whatever
 * o->graph says), on maximal paths: a finite one ends at a dead marking,
 * where EX f is false, AX f true, EG f holds when f does and AF f only
 * when f does (the Model Checking Contest's reading).  A complete search
 * decides every query.  Returns PN_OK with *out (freed by
 * pn_reach_free()), PN_EINVAL (a query names a place or transition beyond
 * the net's), PN_ENOMEM. */
pn_status_t pn_reach_query(const pn_net_t *net, const pn_reach_options_t *o,
                           const pn_query_set_t *qs,
                           pn_query_answer_t *answers, pn_reach_t **out);

/* Whether every run ends (the reachability graph has no cycle), and, when
 * it does (and the graph was kept), the least and greatest number of steps
 * from the initial marking to a dead marking.  PN_EINVAL when the exploration
 * is incomplete, the graph was not kept, or it has a cycle (*terminates = 0
 * then).  Cost: O(states + edges). */
pn_status_t pn_reach_run_lengths(const pn_reach_t *r, int *terminates,
                                 uint64_t *min_steps, uint64_t *max_steps);

/* Liveness (the MCC's): from every reachable marking, every transition can
 * still fire later.  Found from the strongly connected components of the
 * graph: live when every terminal component enables every transition.
 * Needs a complete exploration with the graph kept (PN_EINVAL otherwise).
 * Cost: O(states + edges) and the enabled sets of the terminal
 * components' markings. */
pn_status_t pn_reach_live(const pn_reach_t *r, int *live);

/* A path realising the greatest number of steps to a dead marking (on a
 * terminating net): the worst schedule.  As pn_reach_dead_path(). */
pn_status_t pn_reach_longest_path(const pn_reach_t *r, pn_reach_path_t **out);

/* A counterexample of an LTL formula f (a query of kind PN_QUERY_LTL that
 * pn_reach_query() answered false on r, a complete search with its graph,
 * or that pn_reach_solve() answered false on the fly, the lasso kept with
 * r): a path from the initial marking that goes round
 * for ever from the marking after step *loop (0: the initial marking) on:
 * the marking after the last step is that one again, or, when *loop is
 * the number of steps, a dead marking that repeats.  The path is one that
 * violates f, and the caller frees it (pn_reach_path_free()).  Returns
 * PN_OK, PN_EINVAL (f holds, is not an LTL formula, or r has no graph),
 * PN_ENOMEM, PN_ERANGE (f's automaton is too large).  Uses the result's
 * scratch buffer: not from two threads at once. */
pn_status_t pn_reach_lasso(const pn_reach_t *r, const pn_qformula_t *f,
                           pn_reach_path_t **out, size_t *loop);

/* A path that shows the answer of a CTL formula f at its top operator
 * (a query of kind PN_QUERY_CTL that pn_reach_solve() decided on the
 * fly: the path its search decided on, kept with r; else, on r a search
 * that kept its graph, f's value there computed again), when one path
 * shows it:
 * E [ a U b ] (and EF b) true: markings with a up to one with b;
 * AG b false: up to one without b; EX b true (AX b false): one step to
 * a marking with b (without b); A [ a U b ] (and AF b) false: markings
 * without b, up to one without a (A [ a U b ] only), a dead marking or
 * a cycle; EG b true: markings with b up to a dead marking or a cycle.
 * *loop is PN_REACH_NO_LOOP for a path that ends at the marking that
 * decides, else as pn_reach_lasso()'s: the path goes round for ever
 * from the marking after step *loop on (the marking after the last step
 * is that one again), or, when *loop is the number of steps, ends at a
 * dead marking.  Only the top operator gets a path: its operands, when
 * they are temporal, are taken at their value at each marking.  Before
 * it is returned the path is replayed from the initial marking by
 * pn_sim_fire() and checked: each step fires, the operands hold or fail
 * at each marking as said, a loop closes, a dead end is dead.  Returns
 * PN_OK (the caller frees the path: pn_reach_path_free()), PN_EINVAL
 * (no such path: the answer is one no single path shows, it is unknown
 * on a graph a limit cut short, f is not a CTL operator, or r has no
 * graph), PN_ETRACE (the replay disagrees: with symmetry, a cycle of
 * orbits that does not close on the net), PN_ENOMEM.  Cost: the fixed
 * points of f over the graph.  Uses the result's scratch buffer: not
 * from two threads at once. */
#define PN_REACH_NO_LOOP SIZE_MAX
pn_status_t pn_reach_ctl_path(const pn_reach_t *r, const pn_qformula_t *f,
                              pn_reach_path_t **out, size_t *loop);

/* ---- answers on a budget ---------------------------------------------- */

/* How an answer of pn_reach_solve() was found (or-ed). */
#define PN_TECH_EXPLICIT 1u       /* the search */
#define PN_TECH_STATE_EQUATION 2u /* the state equation, by integer linear
                                     programming */
#define PN_TECH_RANDOM_WALK 4u    /* a random or guided walk, replayed */
#define PN_TECH_STRUCTURAL_REDUCTION 8u /* the search or the state
                                           equation on a reduced net
                                           (pn_reach_reduce()) */
#define PN_TECH_STUBBORN 16u      /* the search fired stubborn sets
                                     (pn_reach_options_t's stubborn) */
#define PN_TECH_QUERY_REDUCTION 32u /* the formula simplified first (by
                                       the state equation and by rules
                                       exact over the net's paths) */
#define PN_TECH_TRAPS 64u         /* the state equation with trap cuts */
#define PN_TECH_SIPHON_TRAP 128u  /* no deadlock: every siphon holds a
                                     marked trap (Commoner) */

/* Called the moment query i is decided, with the techniques that decided
 * it (PN_TECH_*): an answer to print at once. */
typedef void (*pn_reach_answer_fn)(size_t i, const pn_query_answer_t *a,
                                   unsigned techniques, void *ctx);

typedef struct pn_reach_solve_options {
    double time_limit;    /* seconds for everything (0: none; then no
                             walks: the search is left to finish) */
    int no_lp;            /* 1: no state equation */
    int no_walk;          /* 1: no walks (random or guided) */
    uint64_t seed;        /* of the walks */
    pn_reach_answer_fn on_answer;
    void *ctx;
    int no_reduce;        /* 1: no search on reduced nets */
    int no_local;         /* 1: CTL by the fixed points over the
                             search's graph only, not on the fly */
    int no_simplify;      /* 1: the formulas as given, not simplified */
    int no_paths;         /* 1: an LTL answer without its lasso (none
                             searched past the answer: pn_reach_lasso()
                             may then have none to give) */
    uint64_t reserved[2]; /* zero */
} pn_reach_solve_options_t;

/* Answers the queries of qs as pn_reach_query() does, exactly or not at
 * all, but first by cheaper means and on a clock: the state equation
 * (every EF formula it proves unsatisfiable is false, every AG formula
 * whose negation it proves so true, and a bound's upper bound, on nets
 * without reset arcs or capacities), then the open formulas simplified
 * (simplify.c: the state equation's verdicts on their atoms and exact
 * rules; one that becomes a constant is answered, the others are what
 * the methods after see; off with so->no_simplify), then random and
 * guided walks (witnesses of EF, counterexamples of AG, lower bounds: each
 * replayed by pn_sim_fire() first; interleaving only), then, with a time
 * limit and interleaving,
 * the state equation and a search per query on the net reduced for it
 * (pn_reach_reduce(); a witness found there is replayed on the net
 * first; off with so->no_reduce), then CTL on the fly (a local algorithm
 * that explores only the markings a formula needs and stops at its
 * answer; within three fifths of the time limit, or 131,072 markings
 * without one; answers with no state; off with so->no_local), then each
 * LTL query on the fly (the
 * product of the net's successors with its negation's automaton, no graph
 * built first; all the time when only LTL queries are open, else half of
 * what is left, shared among them; a lasso found is kept with *out for
 * pn_reach_lasso()), then the search for what is left, which
 * also stops a bound query at its upper bound.  A quarter of the time
 * limit at most goes to each of the first two.  Each answer is passed to
 * so->on_answer when decided.  *out: the search (PN_REACH_TIME_LIMIT when
 * the clock stopped it; it stops at once when nothing is left to ask).
 * With no query, a search as pn_reach_explore() on the clock.  Returns
 * as pn_reach_query(). */
pn_status_t pn_reach_solve(const pn_net_t *net, const pn_reach_options_t *o,
                           const pn_reach_solve_options_t *so,
                           const pn_query_set_t *qs,
                           pn_query_answer_t *answers, pn_reach_t **out);

/* The net reduced for query q by structural rules that keep its answer
 * under interleaving (not maximal steps): every reachable marking of the
 * reduced net, restricted to the places q looks at, is one of the net's
 * and the other way round; with a deadlock in q (or a CTL query, or q
 * NULL: every place and transition looked at) only rules that keep the
 * reachability graph itself (dead and duplicate transitions, constant,
 * sink and parallel places, implicit places: by linear programming, one
 * problem per place, 10 seconds in all at most); else also transitions
 * that change nothing and pre- and post-agglomeration (a transition
 * of the reduced net then stands for two or more of the net's, its id
 * their ids joined by '.').  Places keep their ids.  Returns PN_OK with
 * *out (pn_net_free()), PN_EINVAL (q names a place or transition beyond
 * the net's), PN_ENOMEM.  pn-reach(1) lists the rules. */
pn_status_t pn_reach_reduce(const pn_net_t *net, const pn_query_t *q,
                            pn_net_t **out);

#ifdef __cplusplus
}
#endif
#endif
