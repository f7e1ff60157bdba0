/* The parts of the GSPN simulator (sim.c: the net compiled for time, one
 * run, the random stream; sim_stats.c: steady state, transient and
 * absorption estimates over runs). */
#ifndef PN_SIM_PRIVATE_H
#define PN_SIM_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"
#include "query.h"
#include "sim_gspn.h"

/* Philox4x32-10 (Random123): the block of counter ctr under key. */
void pni_philox4x32(const uint32_t key[2], const uint32_t ctr[4],
                    uint32_t out[4]);

/* An enabling test: m[place] >= w (GE), m[place] < w (LT), or
 * m[place] <= w (LE, a capacity). */
enum { PNI_SIM_GE = 0, PNI_SIM_LT = 1, PNI_SIM_LE = 2 };
typedef struct {
    uint32_t place;
    uint32_t kind;
    uint64_t w;
    int degree;        /* a normal input arc: counts in the degree */
} pni_sim_test_t;

/* What firing does to a place: m = (reset ? 0 : m - pre) + post. */
typedef struct {
    uint32_t place;
    uint32_t reset;
    uint64_t pre, post;
} pni_sim_effect_t;

typedef struct {
    const pn_net_t *net;
    size_t np, nt, nc;
    uint64_t *m0;
    size_t *toff;              /* tests of t: tests[toff[t]..toff[t+1]) */
    pni_sim_test_t *tests;
    unsigned char *never;      /* t can never fire (a capacity) */
    size_t *eoff;              /* effects of t */
    pni_sim_effect_t *eff;
    size_t *doff;              /* transitions to look at again after t */
    uint32_t *dep;
    unsigned char *kind;       /* pn_timing_t, NONE read as exponential */
    double *rate;              /* rate, weight or delay */
    struct pni_rate **expr;    /* the rate (weight) as an expression of the
                                  marking, NULL: rate[t] */
    uint64_t *inf;             /* firings under way at most: 1 single
                                  server, k (PN_SERVER_K), UINT64_MAX
                                  infinite server */
    uint32_t *pos;             /* t -> position in its kind's list */
    uint32_t *exps, nexp;      /* exponential transitions */
    uint32_t *imms, nimm;      /* immediate, by decreasing priority */
    int *iprio;                /* the priority of imms[i] */
    uint32_t *dets, ndet;      /* deterministic */
    const pn_qformula_t *const *conds;
} pni_sim_model_t;

pn_status_t pni_sim_model_init(pni_sim_model_t *md, const pn_net_t *net,
                               const pn_gspn_sim_options_t *o,
                               pn_error_t *err);
void pni_sim_model_free(pni_sim_model_t *md);

/* The exponential rates are summed by blocks of 2^PNI_SIM_BLOCK. */
#define PNI_SIM_BLOCK 5

/* Why pni_sim_until() returned. */
enum { PNI_SIM_TIME = 0, PNI_SIM_DEAD = 1, PNI_SIM_LIMIT = 2,
       PNI_SIM_OVERFLOW = 3, PNI_SIM_LOOP = 4, PNI_SIM_BADRATE = 5 };
/* The reasons that end a simulation with an error (run_error()). */
#define PNI_SIM_FAILED(rc) \
    ((rc) == PNI_SIM_OVERFLOW || (rc) == PNI_SIM_LOOP || \
     (rc) == PNI_SIM_BADRATE)

typedef struct {
    const pni_sim_model_t *md;
    uint32_t key[2], ctr[4], buf[4];
    int nbuf;
    double now;
    uint64_t *m;
    unsigned char *on;          /* enabled */
    double *er, tot;            /* rates of the exponentials, their sum */
    double *bs;                 /* the sums of blocks of 2^BLOCK rates */
    uint32_t nexp_on, nimm_on, ndet_on;
    double *dl;                 /* deadlines of the deterministics */
    uint64_t *counts, firings;
    double *area, *last;        /* place areas up to last[p] */
    unsigned char *cv;          /* condition values now */
    double *carea;              /* time the condition held */
    uint64_t since_sum;         /* firings since tot was summed afresh */
    uint64_t zero;              /* immediate firings in a row */
    size_t overflow_place;      /* PNI_SIM_BADRATE: the transition */
    int bad;                    /* a rate expression gave a value that is
                                   not a finite number >= 0 */
} pni_sim_run_t;

/* A run at the initial marking, drawing stream `stream` of the seed. */
pn_status_t pni_sim_run_init(pni_sim_run_t *r, const pni_sim_model_t *md,
                             uint64_t seed, uint64_t stream);
void pni_sim_run_free(pni_sim_run_t *r);
/* Fires until the next event would come after t_end (now = t_end then),
 * a dead marking (now: when it was reached), or firings reaching
 * max_firings.  Returns one of PNI_SIM_*. */
int pni_sim_until(pni_sim_run_t *r, double t_end, uint64_t max_firings);
/* The place areas brought up to now. */
void pni_sim_flush(pni_sim_run_t *r);
/* Whether condition c holds now. */
int pni_sim_cond(const pni_sim_run_t *r, size_t c);

/* The Student t quantile: P(T <= x) = p with df degrees of freedom. */
double pni_student_quantile(double p, double df);

#endif
