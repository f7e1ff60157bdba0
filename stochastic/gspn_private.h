/* The parts of the GSPN solver (gspn.c: the store and the firing rule;
 * trg.c: the tangible reachability graph; ctmc.c: the chain solved). */
#ifndef PN_GSPN_PRIVATE_H
#define PN_GSPN_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include "gspn.h"
#include "net.h"

/* A rate between two tangible states (indices into tang). */
typedef struct {
    size_t from, to;
    double rate;
} pni_gspn_edge_t;

/* An immediate transition's firings per unit of time spent in a tangible
 * state: the rate of the timed firings out of it times the mean number of
 * times the vanishing markings after them fire it. */
typedef struct {
    size_t state, transition;
    double value;
} pni_gspn_imm_t;

/* A step out of a vanishing marking in the local search. */
typedef struct {
    size_t from;       /* position in lv */
    size_t to;         /* marking index */
    size_t transition;
    double prob;
} pni_gspn_step_t;

typedef struct {
    const pn_net_t *net;
    pn_error_t *err;
    size_t np, nt, max_states;
    size_t *aoff;                 /* the arcs of t: arcs[aoff[t]..aoff[t+1]) */
    struct pni_rate **expr;       /* t's rate as an expression of the
                                     marking, NULL: its number */
    const pn_arc_t **arcs;
    uint64_t *marks;              /* nm markings of np places */
    size_t nm, capm;
    size_t *tab, tabcap;          /* open addressing, index + 1 */
    size_t *tid, captid;          /* marking -> tangible state or SIZE_MAX */
    size_t *stamp, capstamp;      /* marking -> local search number */
    size_t *lpos, caplpos;        /* marking -> position in lv */
    size_t *tang, ntang, captang; /* tangible state -> marking */
    size_t nvan;
    pni_gspn_edge_t *edges;
    size_t nedges, capedges;
    pni_gspn_imm_t *imm;
    size_t nimm, capimm;
    /* edges from SIZE_MAX: the initial distribution over tangible states */
    uint64_t *scratch, *scratch2, *probe, *cur;
    /* the local search through vanishing markings */
    size_t search;
    size_t *lv, nlv, caplv;
    double *lpend;                /* mass waiting at lv[i] */
    size_t *lsb;                  /* the steps of lv[i]: lsb[i]..lsb[i+1] */
    unsigned char *good;          /* lv[i] reaches a tangible marking */
    size_t caplpend, caplsb, capgood;
    pni_gspn_step_t *lsucc;
    size_t nlsucc, caplsucc;
} pni_gspn_t;

pn_status_t pni_gspn_init(pni_gspn_t *g, const pn_net_t *net,
                          size_t max_states, pn_error_t *err);
void pni_gspn_free(pni_gspn_t *g);
int pni_gspn_fire(const pni_gspn_t *g, size_t t, const uint64_t *m,
                  uint64_t *out);
double pni_gspn_rate(const pni_gspn_t *g, size_t t, const uint64_t *m);
/* t's rate (weight) at m for one server: its number, or its expression's
 * value there (which may be negative or not finite: pni_gspn_bad_rate()). */
double pni_gspn_weight(const pni_gspn_t *g, size_t t, const uint64_t *m);
/* The error of a rate v of t at m that is not a finite number >= 0:
 * PN_EINVAL naming t, its expression and m; PN_OK when v is fine. */
pn_status_t pni_gspn_bad_rate(const pni_gspn_t *g, size_t t,
                              const uint64_t *m, double v);
pn_status_t pni_gspn_find(pni_gspn_t *g, const uint64_t *m, size_t *idx);
/* The tangible reachability graph from the initial marking: edges, imm,
 * alpha. */
pn_status_t pni_gspn_explore(pni_gspn_t *g);
/* The chain solved into r (kind, measures). */
pn_status_t pni_gspn_ctmc(pni_gspn_t *g, const pn_gspn_options_t *opt,
                          pn_gspn_result_t *r);

/* A linear system over a set of states, x A = b with A = D - R: D the
 * states' exit rates, R the rates between them (nonnegative), kept by
 * target so that an iteration and the residual read a column at once.
 * b NULL: the steady state (x A = 0, sum x = 1). */
typedef struct {
    size_t n;
    size_t *ioff, *isrc; /* the rates into j: ioff[j]..ioff[j+1] */
    double *irate, *d, *b;
} pni_gspn_sys_t;

/* The system of the states with loc[s] != SIZE_MAX (numbered loc[s]);
 * d counts every rate out of a state, to any state; b (absorbing) the
 * initial distribution. */
pn_status_t pni_gspn_sys_build(const pni_gspn_t *g, const size_t *loc,
                               size_t n, int absorbing, pni_gspn_sys_t *s);
void pni_gspn_sys_free(pni_gspn_sys_t *s);
/* Whether tangible state s lets nothing fire. */
int pni_gspn_is_dead(pni_gspn_t *g, size_t s);
/* Adds to thr (per transition) and tokens (per place) the measures of
 * the distribution pi over the states with loc set (loc NULL: every
 * state, pi indexed by state). */
void pni_gspn_measures(pni_gspn_t *g, const size_t *loc, const double *pi,
                       double *thr, double *tokens);
/* The transient distribution at opt->times by uniformization, into r. */
pn_status_t pni_gspn_transient(pni_gspn_t *g, const pn_gspn_options_t *opt,
                               pn_gspn_result_t *r);

#endif
