/*
 * pn/engine.h - running bounded place/transition nets with inhibitor, read
 * and reset arcs, with maximal-step or interleaving semantics.
 *
 * Ownership: pn_engine_compile() returns an engine the caller frees with
 * pn_engine_free(); it is a flat copy, independent of the net (which may be
 * freed after).  pn_sim_new() returns a run state the caller frees with
 * pn_sim_free().  An engine is read-only once compiled: any number of runs
 * on any number of threads may share it; a run is used by one thread.
 * Pointers returned by getters are borrowed from the run.
 *
 * Semantics (see pn-run(1) for the full text):
 *  - a transition is enabled at M when every normal input place holds at
 *    least the arc weight, every read arc's place holds at least its
 *    weight, every inhibitor arc's place holds fewer tokens than its weight
 *    (weight 1: empty), and firing it keeps every output place with a
 *    capacity within that capacity;
 *  - maximal step: the enabled set E at M, in transition order, is shuffled
 *    uniformly (Fisher-Yates with the run's random stream); walking it with
 *    a budget B = M, a transition fires when its normal inputs are still
 *    within B (and its capacity outputs still fit), and then takes them
 *    from B; inhibitor and read arcs were tested on M; a reset arc empties
 *    its place in B when its transition fires; tokens produced in the step
 *    are added after the walk; each transition fires at most once a step;
 *  - interleaving: one uniformly chosen transition of E fires per step;
 *  - the run ends at the dead marking (E empty), at the step limit, or
 *    when a count would exceed PN_TOKENS_MAX (the net is not bounded).
 */
#ifndef PN_ENGINE_H
#define PN_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_engine pn_engine_t;
typedef struct pn_sim pn_sim_t;

typedef enum {
    PN_SEM_MAXIMAL = 0,     /* maximal concurrent steps, random conflict order */
    PN_SEM_INTERLEAVING = 1 /* one random enabled transition per step */
} pn_semantics_t;

/* Parses "maximal" or "interleaving"; PN_EINVAL otherwise. */
pn_status_t pn_semantics_parse(const char *name, pn_semantics_t *sem);

/* Compiles a net into flat arrays (CSR arcs, place -> dependent
 * transitions).  Returns PN_OK, PN_EINVAL (NULL) or PN_ENOMEM.
 * Cost: O(places + transitions + arcs). */
pn_status_t pn_engine_compile(const pn_net_t *net, pn_engine_t **out);
void pn_engine_free(pn_engine_t *engine);
size_t pn_engine_place_count(const pn_engine_t *engine);
size_t pn_engine_transition_count(const pn_engine_t *engine);

/* Why a run stopped. */
typedef enum {
    PN_END_NONE = 0,     /* still running */
    PN_END_DEAD = 1,     /* dead marking reached */
    PN_END_LIMIT = 2,    /* step limit reached first */
    PN_END_OVERFLOW = 3  /* a count would exceed PN_TOKENS_MAX */
} pn_end_t;
/* "dead", "limit", "overflow" ("running" for PN_END_NONE): the words of
 * the trace format and of pn-run's output.  Static storage. */
const char *pn_end_name(pn_end_t end);

/* A new run at the initial marking.  reference != 0 selects the reference
 * mode: the enabled set is recomputed from scratch at every step (slow,
 * for checking the incremental engine: both give the same trace for the
 * same seed).  Returns NULL when out of memory. */
pn_sim_t *pn_sim_new(const pn_engine_t *engine, uint64_t seed,
                     pn_semantics_t sem, int reference);
void pn_sim_free(pn_sim_t *sim);

/* One step.  Returns PN_OK and sets *end (PN_END_NONE, or PN_END_DEAD when
 * nothing was enabled: then no step was taken), or PN_ERANGE when a count
 * would exceed PN_TOKENS_MAX (*end = PN_END_OVERFLOW; the marking is the
 * one before the step; pn_sim_overflow_place() says where).  No
 * allocation. */
pn_status_t pn_sim_step(pn_sim_t *sim, pn_end_t *end);

/* Fires step[0..n) as one step, in that order: the replay of a recorded
 * step.  Each transition must be enabled at the current marking M (every
 * normal and read input, inhibitor and capacity, as pn_sim_step() tests
 * them), appear once, and still fit the budget B = M when its turn comes
 * (normal inputs taken in order, capacity outputs); under interleaving a
 * step holds at most one transition.  An empty step is allowed.  Returns
 * PN_OK; PN_EINVAL (*bad: the position in step of the first transition
 * that cannot fire there; the marking is unchanged); PN_ERANGE as
 * pn_sim_step().  Cost: O(arcs of the step's transitions). */
pn_status_t pn_sim_fire(pn_sim_t *sim, const uint32_t *step, size_t n,
                        size_t *bad);
/* Steps until the dead marking, an overflow, or until pn_sim_steps()
 * reaches max_steps (a bound on the total since the start, not on this
 * call: 0, or a bound already reached, takes no step and returns
 * PN_END_DEAD when nothing is enabled, else PN_END_LIMIT). */
pn_end_t pn_sim_run(pn_sim_t *sim, uint64_t max_steps);

/* Steps taken so far; transitions fired so far (sum of all counts). */
uint64_t pn_sim_steps(const pn_sim_t *sim);
uint64_t pn_sim_firings(const pn_sim_t *sim);
/* The current marking (one count per place, net order). */
const uint64_t *pn_sim_marking(const pn_sim_t *sim);
/* Firing count of each transition (net order). */
const uint64_t *pn_sim_counts(const pn_sim_t *sim);
/* The transitions fired in the last step, in firing order. */
const uint32_t *pn_sim_fired(const pn_sim_t *sim, size_t *n);
/* After PN_END_OVERFLOW: the place whose count would overflow. */
size_t pn_sim_overflow_place(const pn_sim_t *sim);

/* The seed of run i of a series started with seed (independent of how the
 * runs are spread over threads). */
uint64_t pn_run_seed(uint64_t seed, uint64_t i);

/* Summary statistics of a sample (the values are not changed). */
typedef struct pn_stats {
    size_t n;
    double mean, sd;       /* sd: sample standard deviation (n - 1) */
    double min, median, max;
    double ci_low, ci_high; /* 95% confidence interval of the mean
                               (Student's t) */
} pn_stats_t;
pn_status_t pn_stats_compute(const double *values, size_t n, pn_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
