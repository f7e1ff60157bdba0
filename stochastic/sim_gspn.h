/*
 * pn/sim_gspn.h - simulation of generalized stochastic Petri nets (GSPN),
 * in continuous time, with confidence intervals.
 *
 * The net's timing read as pn/gspn.h reads it (a transition without
 * timing is exponential of rate 1), with deterministic transitions too:
 *  - race policy with enabling memory: each enabled timed transition has
 *    a clock; the first to run out fires; a clock is kept while its
 *    transition stays enabled and dropped when it is disabled.  An
 *    exponential clock needs no memory (its rate times the enabling
 *    degree under infinite-server semantics); a deterministic one runs
 *    out `rate` time units after the transition became enabled (single
 *    server only);
 *  - immediate transitions fire first, in zero time: among the enabled
 *    ones of the highest priority, one is drawn with probability weight /
 *    sum of their weights.
 *
 * Steady state (ntimes 0): one long run.  After a pilot of 1,000 firings
 * the time is cut in batches of equal length; MSER-5 on the batch series
 * finds the warm-up, deleted; the rest is grouped into 30 batches whose
 * means give a Student t interval.  The run goes on, the batches growing,
 * until every measure's half-width is within accuracy times its mean and
 * the lag-1 correlation of the 30 batch means is below 0.3, and again
 * once the run has doubled its length, or until max_firings.  A run that reaches a dead marking has no steady state:
 * then independent runs estimate the mean time to absorption instead.
 *
 * Transient (times t1 < t2 < ...): independent runs to the last time, in
 * rounds of 100, until every measure is within accuracy (or max_runs).
 *
 * The random stream is Philox4x32-10 (Salmon et al., "Parallel random
 * numbers: as easy as 1, 2, 3", SC 2011; Random123's generator): counter
 * based, keyed by the seed, one counter range per run, so run i draws the
 * same numbers whichever thread runs it, and the runs are independent
 * streams with no seeding between them.  The answer is the same for any
 * number of threads.
 */
#ifndef PN_SIM_GSPN_H
#define PN_SIM_GSPN_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"
#include "query.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_gspn_sim_options {
    uint64_t seed;
    double confidence;      /* of the intervals (0: 0.95) */
    double accuracy;        /* relative half-width wanted (0: 0.05) */
    const double *times;    /* transient at these times, increasing */
    size_t ntimes;          /* 0: steady state */
    uint64_t max_firings;   /* steady state: the long run's firings at most;
                               each run: firings at most (0: 10^8) */
    uint64_t max_runs;      /* transient, absorption: runs at most
                               (0: 100000) */
    unsigned jobs;          /* threads for independent runs (0: 1) */
    size_t nconditions;     /* conditions whose probability is estimated */
    const pn_qformula_t *const *conditions; /* no temporal operator */
} pn_gspn_sim_options_t;

/* A confidence interval: mean - half .. mean + half. */
typedef struct pn_gspn_estimate {
    double mean, half;
} pn_gspn_estimate_t;

typedef struct pn_gspn_sim_result {
    size_t places, transitions, conditions, times;
    int absorbing;          /* steady state asked, a dead marking reached:
                               no steady state; absorption is filled */
    int accurate;           /* every interval within the accuracy */
    uint64_t firings;       /* firings simulated, all runs */
    uint64_t runs;          /* independent runs (transient, absorption) */
    /* steady state */
    double sim_time;        /* the long run's simulated time */
    double warmup;          /* the time deleted as warm-up */
    double batch_time;      /* the length of one of the 30 batches */
    double lag1;            /* lag-1 correlation of the batch means */
    /* measures: times (1 in steady state) blocks of transitions, places,
     * conditions.  Steady state: firings per unit of time, mean tokens,
     * the fraction of time the condition holds.  Transient at time t_k:
     * the mean number of firings in [0, t_k], the mean tokens at t_k, the
     * probability that the condition holds at t_k. */
    pn_gspn_estimate_t *throughput;   /* [k * transitions + t] */
    pn_gspn_estimate_t *mean_tokens;  /* [k * places + p] */
    pn_gspn_estimate_t *probability;  /* [k * conditions + c] */
    /* absorbing */
    uint64_t absorbed;      /* runs that reached a dead marking */
    pn_gspn_estimate_t absorption; /* mean time to absorption (over the
                                      absorbed runs) */
} pn_gspn_sim_result_t;

/* Simulates net.  Returns PN_OK and *out (pn_gspn_sim_result_free()),
 * whether or not the accuracy was reached, or
 *   PN_EINVAL  a NULL argument, a bad option (times not increasing and
 *              > 0, confidence not in (0, 1), accuracy <= 0, a temporal
 *              condition), a timing that was not read, a deterministic
 *              transition with infinite server, an immediate loop that
 *              time never leaves (10^7 firings in zero time);
 *   PN_ERANGE  a place would pass PN_TOKENS_MAX (the net is not bounded);
 *   PN_ENOMEM. */
pn_status_t pn_gspn_simulate(const pn_net_t *net,
                             const pn_gspn_sim_options_t *opt,
                             pn_gspn_sim_result_t **out, pn_error_t *err);
void pn_gspn_sim_result_free(pn_gspn_sim_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
