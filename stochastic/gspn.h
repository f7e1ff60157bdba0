/*
 * pn/gspn.h - exact solution of generalized stochastic Petri nets (GSPN).
 *
 * The net's timing (pn_transition_t: timing, rate, priority, server) read
 * as a GSPN: exponential transitions fire after a delay of rate `rate`
 * (times the enabling degree under infinite-server semantics), immediate
 * ones in zero time, the highest priority first, with probability
 * weight / sum of the weights of the enabled ones of that priority.  A
 * transition without timing (PN_TIMING_NONE) is taken as exponential of
 * rate 1; a deterministic one is refused.
 *
 * pn_gspn_solve() builds the tangible reachability graph (the markings
 * that enable no immediate transition), the vanishing markings eliminated
 * as they are met, and the continuous-time Markov chain on it.  It finds
 * the chain's bottom strongly connected components first: a net that
 * reaches a dead marking is absorbing (its mean time to absorption and
 * the probability of each dead marking are computed, never a steady
 * state); one bottom component gets its steady state; several get none.
 * The steady state is solved by a direct sparse LU (UMFPACK, when libpn
 * is built with it) up to direct_max states, by Gauss-Seidel beyond, and
 * the true residual max_j |(pi Q)_j| is reported in both cases.
 *
 * Given times, it also computes the distribution at each time t from the
 * initial marking by uniformization: pi(t) = sum_k Poisson(k; q t)
 * alpha P^k, P = I + Q / q, the Poisson weights summed between a left
 * and a right truncation point chosen so that the two tails together
 * weigh less than epsilon (bounded by geometric series, not estimated).
 */
#ifndef PN_GSPN_H
#define PN_GSPN_H

#include <stddef.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_gspn_options {
    size_t max_states;   /* tangible plus vanishing markings met
                            (0: PN_GSPN_MAX_STATES) */
    size_t direct_max;   /* LU up to this many states (0: the default,
                            PN_GSPN_DIRECT_MAX) */
    double tolerance;    /* Gauss-Seidel stops below this relative
                            residual (0: 1e-12) */
    size_t max_iter;     /* Gauss-Seidel sweeps at most (0: 100000) */
    const double *times; /* the transient distribution at these times
                            (ntimes of them, each >= 0), by
                            uniformization; NULL: none */
    size_t ntimes;
    double epsilon;      /* the Poisson probability left out at each
                            time (0: 1e-12) */
} pn_gspn_options_t;

#define PN_GSPN_MAX_STATES 10000000
#define PN_GSPN_DIRECT_MAX 200000

/* What the chain is. */
typedef enum {
    PN_GSPN_ERGODIC = 0,    /* one bottom component: a steady state */
    PN_GSPN_ABSORBING = 1,  /* a dead marking is reachable: absorption */
    PN_GSPN_MULTIPLE = 2    /* several bottom components, none dead: the
                               long run depends on the path (not solved) */
} pn_gspn_kind_t;

typedef struct pn_gspn_result {
    size_t places, transitions;
    size_t tangible;        /* tangible markings (states of the chain) */
    size_t vanishing;       /* distinct vanishing markings met */
    size_t edges;           /* nonzero off-diagonal rates */
    size_t bottom;          /* bottom strongly connected components */
    size_t recurrent;       /* states in the solved bottom component */
    pn_gspn_kind_t kind;
    /* PN_GSPN_ERGODIC */
    const char *solver;     /* "lu" or "gauss-seidel" */
    size_t iterations;      /* Gauss-Seidel sweeps (0 for lu) */
    double residual;        /* max_j |(pi Q)_j| of the solution */
    double residual_relative; /* ||pi Q||_1 / ||pi D||_1, D the exit
                               rates: the share of the probability flow
                               left unbalanced (Gauss-Seidel's stopping
                               test) */
    int converged;          /* residual below the tolerance (gauss-seidel)
                               or a nonsingular factorization (lu) */
    double *throughput;     /* per transition, firings per unit of time */
    double *mean_tokens;    /* per place */
    /* PN_GSPN_ABSORBING */
    size_t dead;            /* dead tangible markings */
    int mtta_known;         /* every bottom component is a dead marking */
    double mtta;            /* mean time to absorption from the initial
                               marking (when mtta_known) */
    double *dead_probability; /* per dead marking, the probability it is
                                 the one reached (when mtta_known) */
    uint64_t *dead_marking; /* dead x places: each dead marking */
    /* the transient distribution (opt->ntimes > 0), whatever the kind */
    size_t ntimes;
    double *times;          /* ntimes: the times, as given */
    double *tr_throughput;  /* ntimes x transitions: the firings per unit
                               of time at that time */
    double *tr_mean_tokens; /* ntimes x places */
    double *tr_dead;        /* ntimes: the probability of being in a dead
                               marking at that time */
    double uniform_rate;    /* the uniformization rate q (>= every exit
                               rate) */
    size_t tr_steps;        /* products by the matrix I + Q / q */
    double tr_error;        /* a bound on the probability left out at any
                               time (the Poisson tails): every probability
                               is within it, below the exact one */
} pn_gspn_result_t;

/* Solves net.  Returns PN_OK and *out (pn_gspn_result_free()), or
 *   PN_EINVAL  net or out NULL; a deterministic transition, or one whose
 *              timing was not read (timing_lost); a vanishing
 *              loop that no timed transition leaves (the message names
 *              one of its markings and its transitions);
 *   PN_ETOOBIG more than max_states markings, or a place above
 *              PN_TOKENS_MAX (the net is not bounded);
 *   PN_ENOMEM.
 * opt may be NULL (every default).  The answer is in *out whatever the
 * kind; measures are filled only where the kind says. */
pn_status_t pn_gspn_solve(const pn_net_t *net, const pn_gspn_options_t *opt,
                          pn_gspn_result_t **out, pn_error_t *err);
void pn_gspn_result_free(pn_gspn_result_t *r);
/* Whether libpn solves with a direct LU (built with UMFPACK). */
int pn_gspn_has_lu(void);

#ifdef __cplusplus
}
#endif
#endif
