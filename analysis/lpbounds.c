/*
 * Structural bounds and the structural properties by linear programming
 * (pn/struct.h, GLPK): the largest value of each place over the real
 * solutions of the state equation m = m0 + C x, x >= 0, m >= 0, and the
 * four cones of Murata (1989, section VII): structurally bounded (y >= 1,
 * y C <= 0), conservative (y >= 1, y C = 0), repetitive (x >= 1, C x >=
 * 0), consistent (x >= 1, C x = 0).  C is the incidence matrix of the
 * normal arcs.
 */
#include <config.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "struct.h"

/* a matrix larger than this (nonzero cells) is not handed to the solver */
#define LPB_CELLS ((size_t)1 << 22)

/* The incidence matrix in GLPK's triplets (1-based, ia[k] the place,
 * ja[k] the transition, ar[k] the value, k = 1 .. *nz), parallel arcs
 * added, zero cells left out.  0, -1 out of memory. */
static int triplets(const pni_flowrel_t *g, int **ia, int **ja, double **ar,
                    size_t *roff, size_t *nz)
{
    size_t cap = g->pout.off[g->np] + g->pin.off[g->np] + 1;
    *ia = malloc((cap + 1) * sizeof **ia);
    *ja = malloc((cap + 1) * sizeof **ja);
    *ar = malloc((cap + 1) * sizeof **ar);
    if (!*ia || !*ja || !*ar)
        return -1;
    size_t n = 0;
    for (size_t p = 0; p < g->np; p++) {
        roff[p] = n + 1;
        /* both lists are sorted by transition: merged */
        size_t i = g->pin.off[p], ie = g->pin.off[p + 1];
        size_t o = g->pout.off[p], oe = g->pout.off[p + 1];
        while (i < ie || o < oe) {
            uint32_t ti = i < ie ? g->pin.idx[i] : UINT32_MAX;
            uint32_t to = o < oe ? g->pout.idx[o] : UINT32_MAX;
            uint32_t t = ti < to ? ti : to;
            double v = 0;
            if (ti == t)
                v += (double)g->pin.w[i++];
            if (to == t)
                v -= (double)g->pout.w[o++];
            if (v != 0) {
                n++;
                (*ia)[n] = (int)p + 1;
                (*ja)[n] = (int)t + 1;
                (*ar)[n] = v;
            }
        }
    }
    roff[g->np] = n + 1;
    *nz = n;
    return 0;
}

static int ms_left(double deadline)
{
    double s = deadline - pni_clock();
    return s <= 0.001 ? 1 : s > 1e6 ? 1000000000 : (int)(s * 1000);
}

/* Whether the cone has a point: over the places (by_place: y >= 1, rows
 * the transitions, y C) or the transitions (x >= 1, rows the places, C
 * x), each row <= 0 (le, y C) or >= 0 (le, C x) or = 0.  1, 0, -1 no
 * answer in time. */
static int cone(const pni_flowrel_t *g, const int *ia, const int *ja,
                const double *ar, size_t nz, int by_place, int equal,
                double deadline)
{
    size_t nvar = by_place ? g->np : g->nt, nrow = by_place ? g->nt : g->np;
    if (!nvar || !nrow)
        return 1; /* the empty vector, or no row: the vector of ones */
    glp_prob *P = glp_create_prob();
    glp_add_cols(P, (int)nvar);
    for (size_t v = 0; v < nvar; v++)
        glp_set_col_bnds(P, (int)v + 1, GLP_LO, 1.0, 0.0);
    if (nrow)
        glp_add_rows(P, (int)nrow);
    for (size_t r = 0; r < nrow; r++)
        glp_set_row_bnds(P, (int)r + 1,
                         equal ? GLP_FX : by_place ? GLP_UP : GLP_LO, 0.0,
                         0.0);
    if (nz)
        glp_load_matrix(P, (int)nz, by_place ? ja : ia, by_place ? ia : ja,
                        ar);
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.presolve = GLP_ON;
    sp.tm_lim = ms_left(deadline);
    int rc = glp_simplex(P, &sp), verdict = -1;
    if (rc == GLP_ENOPFS || (rc == 0 && glp_get_status(P) == GLP_NOFEAS))
        verdict = 0;
    else if (rc == 0 && glp_get_status(P) == GLP_OPT)
        verdict = 1;
    glp_delete_prob(P);
    return verdict;
}

/* The bound of every place, one objective after the other on one
 * problem (each solve starts from the last basis), until deadline.  The
 * triplets are in the order of the places: place p's from roff[p] to
 * roff[p + 1] - 1. */
static void place_bounds(const pn_net_t *net, const pni_flowrel_t *g,
                         const int *ia, const int *ja, const double *ar,
                         const size_t *roff, size_t nz, double deadline,
                         pn_lp_bounds_t *b)
{
    size_t np = g->np, nt = g->nt;
    if (!np)
        return;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    if (nt)
        glp_add_cols(P, (int)nt);
    for (size_t t = 0; t < nt; t++)
        glp_set_col_bnds(P, (int)t + 1, GLP_LO, 0.0, 0.0);
    glp_add_rows(P, (int)np);
    /* row p: (C x)(p) >= -m0(p) */
    for (size_t p = 0; p < np; p++)
        glp_set_row_bnds(P, (int)p + 1, GLP_LO,
                         -(double)pn_net_place(net, p)->marking, 0.0);
    if (nz)
        glp_load_matrix(P, (int)nz, ia, ja, ar);
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    size_t last = np;
    for (size_t p = 0; p < np; p++) {
        uint64_t m0 = pn_net_place(net, p)->marking;
        if (roff[p] == roff[p + 1]) {
            b->state[p] = 1; /* no transition changes it */
            b->bound[p] = m0;
            b->solved++;
            continue;
        }
        if (pni_clock() > deadline)
            break;
        /* the objective: row p of C (the last one's cleared) */
        for (size_t k = last < np ? roff[last] : 1;
             last < np && k < roff[last + 1]; k++)
            glp_set_obj_coef(P, ja[k], 0.0);
        for (size_t k = roff[p]; k < roff[p + 1]; k++)
            glp_set_obj_coef(P, ja[k], ar[k]);
        last = p;
        sp.tm_lim = ms_left(deadline);
        int rc = glp_simplex(P, &sp);
        int st = rc == 0 ? glp_get_status(P) : -1;
        if (st == GLP_UNBND) {
            b->state[p] = 0;
            b->bound[p] = UINT64_MAX;
            b->solved++;
        } else if (st == GLP_OPT) {
            double v = floor(glp_get_obj_val(P) + (double)m0 + 1e-6);
            b->state[p] = 1;
            b->bound[p] = v >= 1.8e19 ? UINT64_MAX - 1
                        : v < (double)m0 ? m0 : (uint64_t)v;
            b->solved++;
        } else if (rc != 0 && rc != GLP_ETMLIM) {
            /* a numerical failure: start again from the slack basis */
            glp_std_basis(P);
        }
    }
    glp_delete_prob(P);
}

pn_status_t pn_lp_bounds_compute(const pn_net_t *net, double seconds,
                                 pn_lp_bounds_t **out)
{
    if (!out)
        return PN_EINVAL;
    *out = NULL;
    if (!net)
        return PN_EINVAL;
    pn_lp_bounds_t *b = calloc(1, sizeof *b);
    if (!b)
        return PN_ENOMEM;
    size_t np = pn_net_place_count(net);
    b->np = np;
    b->state = malloc(np + 1);
    b->bound = malloc((np + 1) * sizeof *b->bound);
    if (!b->state || !b->bound) {
        pn_lp_bounds_free(b);
        return PN_ENOMEM;
    }
    memset(b->state, -1, np + 1);
    for (size_t p = 0; p < np; p++)
        b->bound[p] = UINT64_MAX;
    b->bounded = b->structurally_bounded = b->conservative = -1;
    b->repetitive = b->consistent = -1;
    b->end = PN_STRUCT_MAX;
    pni_flowrel_t g;
    pn_status_t st = pni_flowrel_open(net, &g);
    if (st == PN_ETOOBIG) {
        *out = b; /* said too large */
        return PN_OK;
    }
    if (st) {
        pn_lp_bounds_free(b);
        return st;
    }
    int *ia = NULL, *ja = NULL;
    double *ar = NULL;
    size_t nz = 0, *roff = malloc((np + 1) * sizeof *roff);
    if (!roff || triplets(&g, &ia, &ja, &ar, roff, &nz)) {
        st = PN_ENOMEM;
        goto out;
    }
    if (nz > LPB_CELLS || np > INT32_MAX / 2 || g.nt > INT32_MAX / 2)
        goto out; /* said too large */
    glp_term_out(GLP_OFF); /* standard output is the caller's */
    double deadline = pni_clock() + (seconds > 0 ? seconds : 1e9);
    /* the four cones first (each one solve), then the places */
    b->structurally_bounded = cone(&g, ia, ja, ar, nz, 1, 0, deadline);
    b->conservative = cone(&g, ia, ja, ar, nz, 1, 1, deadline);
    b->repetitive = cone(&g, ia, ja, ar, nz, 0, 0, deadline);
    b->consistent = cone(&g, ia, ja, ar, nz, 0, 1, deadline);
    place_bounds(net, &g, ia, ja, ar, roff, nz, deadline, b);
    b->bounded = 1;
    for (size_t p = 0; p < np && b->bounded; p++)
        if (b->state[p] < 1)
            b->bounded = b->state[p];
    for (size_t p = 0; p < np; p++)
        if (!b->state[p])
            b->bounded = 0;
    b->end = b->solved == np && b->structurally_bounded >= 0 &&
                     b->conservative >= 0 && b->repetitive >= 0 &&
                     b->consistent >= 0
                 ? PN_STRUCT_COMPLETE
                 : PN_STRUCT_WORK;
out:
    free(ia);
    free(ja);
    free(ar);
    free(roff);
    pni_flowrel_close(&g);
    if (st) {
        pn_lp_bounds_free(b);
        return st;
    }
    *out = b;
    return PN_OK;
}

void pn_lp_bounds_free(pn_lp_bounds_t *b)
{
    if (!b)
        return;
    free(b->state);
    free(b->bound);
    free(b);
}
