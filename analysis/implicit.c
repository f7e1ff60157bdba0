/*
 * Implicit places, by linear programming (GLPK), for the structural
 * reductions (reduce.c): a place that is never the only one to disable
 * a transition can go.  The sufficient condition is the classic one of
 * Silva, Teruel and Colom ("Linear algebra and linear programming
 * techniques for the analysis of place/transition net systems", Lectures
 * on Petri Nets I, LNCS 1491, 1998; Garcia-Valles and Colom, "Implicit
 * places in net systems", PNPM 1999), the one the contest's tools apply
 * (Thierry-Mieg, "Structural reductions revisited", Petri Nets 2020):
 * place p is implicit when some y >= 0 over the other places and some
 * mu >= 0 have
 *   y.C[t] <= C[p][t]            for every transition t
 *   y.Pre[t] + mu >= Pre[p][t]   for every t that takes from or reads p
 *   y.m0 + mu <= m0[p]
 * (C the incidence matrix, Pre[q][t] what t needs in q: its normal input
 * or read weight, the larger).  Then every reachable m = m0 + C.x, x >= 0,
 * has m[p] - y.m = m0[p] - y.m0 + (C[p] - y.C).x >= m0[p] - y.m0 >= mu,
 * and where the other places enable t, y.m >= y.Pre[t], so m[p] >=
 * y.Pre[t] + mu >= Pre[p][t]: p enables t too.  Without p the net enables
 * the same transitions at every marking, its reachable markings are the
 * net's without p (dead ones included), and each of its paths fires on
 * the net as it is: no map back is needed.  With mu >= 0 (the classic
 * condition lets mu be any number; the contest's nets rarely need that),
 * m[p] >= y.m >= 0 follows from the others' counts for every solution of
 * the state equation too: the state equation of the net without p is
 * not weaker than the net's (solve.c tries it).
 *
 * Where it holds: C must count what happens to p and to the places y
 * weighs, so p has no reset arc and y is 0 on every place with one; p has
 * no inhibitor arc (more tokens there could disable) and no capacity (it
 * could refuse a transition's output).  Inhibitor arcs and capacities on
 * the other places only keep transitions from firing, in the net and in
 * the net without p alike.  Interleaving only, as every reduction.
 *
 * y is looked for over the places that share a transition with p (the
 * others count 0: still a certificate), one problem per place, each within
 * the time left.  GLPK's floating-point y is rounded to fractions over a
 * common denominator and checked again in exact integer arithmetic: only
 * a certificate that passes is believed.
 */
#include <config.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include "analysis_private.h"

/* the most places (columns) and transitions (rows) in one problem */
#define MAX_COLS 500
#define MAX_ROWS 5000
/* the largest common denominator tried when rounding y */
#define MAX_DEN 256
/* weights and initial counts past this are left alone (exact sums fit
 * in 128 bits) */
#define WEIGHT_MAX (UINT64_C(1) << 40)

typedef struct {
    pni_implicit_net_t *n;
    unsigned char *apart;     /* per place: a reset arc on it, or weights
                                 too large (left alone) */
    int32_t *col;             /* per place: its column (-1: none) */
    int32_t *row;             /* per transition: its row (-1: none) */
    uint32_t *cols, *rows;
    size_t ncols, nrows;
    int *ind;
    double *val;
    int64_t *y;               /* per column: y times den */
} imp_t;

static const pni_rarc_t *arc_on(const pni_implicit_net_t *n, size_t t,
                                size_t p)
{
    for (size_t i = 0; n->arcs[t] && i < n->narcs[t]; i++)
        if (n->arcs[t][i].p == p)
            return &n->arcs[t][i];
    return NULL;
}

static uint64_t need_of(const pni_rarc_t *a)
{
    return a ? (a->in > a->rd ? a->in : a->rd) : 0;
}

static int64_t change_of(const pni_rarc_t *a)
{
    return a ? (int64_t)a->out - (int64_t)a->in : 0;
}

/* Whether p may be tried: there, unobserved, no capacity, no inhibitor
 * or reset arc, some transition needs it (else it disables nothing: the
 * sink rule's). */
static int candidate(const imp_t *s, size_t p)
{
    const pni_implicit_net_t *n = s->n;
    if (!n->palive[p] || n->pvis[p] || n->cap[p] || n->tried[p] ||
        s->apart[p])
        return 0;
    int needed = 0;
    for (size_t k = n->off[p]; k < n->off[p + 1]; k++) {
        const pni_rarc_t *a = arc_on(n, n->adj[k], p);
        if (a && a->ih)
            return 0;
        needed |= need_of(a) > 0;
    }
    return needed;
}

static void add_row(imp_t *s, size_t t)
{
    if (s->row[t] < 0 && s->n->arcs[t]) {
        s->row[t] = (int32_t)s->nrows;
        s->rows[s->nrows++] = (uint32_t)t;
    }
}

/* The columns (the places sharing a transition with p that y may weigh)
 * and the rows (the transitions on p or on a column).  0 when too
 * large. */
static int gather(imp_t *s, size_t p)
{
    const pni_implicit_net_t *n = s->n;
    s->ncols = s->nrows = 0;
    for (size_t k = n->off[p]; k < n->off[p + 1]; k++) {
        size_t t = n->adj[k];
        for (size_t i = 0; n->arcs[t] && i < n->narcs[t]; i++) {
            size_t q = n->arcs[t][i].p;
            if (q == p || s->col[q] >= 0 || !n->palive[q] || s->apart[q])
                continue;
            if (s->ncols == MAX_COLS)
                return 0;
            s->col[q] = (int32_t)s->ncols;
            s->cols[s->ncols++] = (uint32_t)q;
        }
    }
    for (size_t c = 0; c <= s->ncols; c++) {
        size_t q = c < s->ncols ? s->cols[c] : p;
        for (size_t k = n->off[q]; k < n->off[q + 1]; k++) {
            if (s->nrows == MAX_ROWS)
                return 0;
            add_row(s, n->adj[k]);
        }
    }
    return 1;
}

static void ungather(imp_t *s)
{
    for (size_t c = 0; c < s->ncols; c++)
        s->col[s->cols[c]] = -1;
    for (size_t r = 0; r < s->nrows; r++)
        s->row[s->rows[r]] = -1;
}

/* Whether the problem of p has no solution for a reason seen at once:
 * a transition takes from p and from no column (y.C[t] < 0 needs one),
 * or needs more in p than p holds at first and, of the columns, only
 * places that hold as much as it needs of them (y.Pre[t] + mu >= Pre[p][t]
 * and y.m0 + mu <= m0[p] need one holding less). */
static int hopeless(const imp_t *s, size_t p)
{
    const pni_implicit_net_t *n = s->n;
    for (size_t k = n->off[p]; k < n->off[p + 1]; k++) {
        size_t t = n->adj[k];
        const pni_rarc_t *a = arc_on(n, t, p);
        if (!a)
            continue;
        int takes = change_of(a) >= 0, more = need_of(a) <= n->m0[p];
        for (size_t i = 0; (!takes || !more) && i < n->narcs[t]; i++) {
            const pni_rarc_t *b = &n->arcs[t][i];
            if (b->p >= n->np || s->col[b->p] < 0)
                continue;
            takes |= change_of(b) < 0;
            more |= need_of(b) > n->m0[b->p];
        }
        if (!takes || !more)
            return 1;
    }
    return 0;
}

/* Row of transition t in the problem: y.C[t] (pre: y.Pre[t] + mu), its
 * entries into ind/val from 1; how many. */
static int row_of(imp_t *s, size_t t, int pre)
{
    const pni_implicit_net_t *n = s->n;
    int len = 0;
    for (size_t i = 0; i < n->narcs[t]; i++) {
        const pni_rarc_t *a = &n->arcs[t][i];
        if (a->p >= n->np || s->col[a->p] < 0)
            continue;
        double v = pre ? (double)need_of(a) : (double)change_of(a);
        if (v != 0.0) {
            s->ind[++len] = s->col[a->p] + 1;
            s->val[len] = v;
        }
    }
    if (pre) {
        s->ind[++len] = (int)s->ncols + 1;
        s->val[len] = 1.0;
    }
    return len;
}

/* The problem of place p: columns y and mu (>= 0), the rows of
 * the condition, sum y minimised (a sparse y, small fractions). */
static glp_prob *problem(imp_t *s, size_t p)
{
    const pni_implicit_net_t *n = s->n;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, (int)s->ncols + 1);
    for (size_t c = 0; c < s->ncols; c++) {
        glp_set_col_bnds(P, (int)c + 1, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(P, (int)c + 1, 1.0);
    }
    glp_set_col_bnds(P, (int)s->ncols + 1, GLP_LO, 0.0, 0.0);
    for (size_t r = 0; r < s->nrows; r++) {
        size_t t = s->rows[r];
        const pni_rarc_t *a = arc_on(n, t, p);
        int len = row_of(s, t, 0);
        double cp = (double)change_of(a);
        if (len) {
            int i = glp_add_rows(P, 1);
            glp_set_row_bnds(P, i, GLP_UP, 0.0, cp);
            glp_set_mat_row(P, i, len, s->ind, s->val);
        } else if (cp < 0) { /* 0 <= C[p][t] < 0: no y */
            glp_delete_prob(P);
            return NULL;
        }
        if (need_of(a)) {
            int i = glp_add_rows(P, 1);
            len = row_of(s, t, 1);
            glp_set_row_bnds(P, i, GLP_LO, (double)need_of(a), 0.0);
            glp_set_mat_row(P, i, len, s->ind, s->val);
        }
    }
    int len = 0;
    for (size_t c = 0; c < s->ncols; c++)
        if (n->m0[s->cols[c]]) {
            s->ind[++len] = (int)c + 1;
            s->val[len] = (double)n->m0[s->cols[c]];
        }
    s->ind[++len] = (int)s->ncols + 1;
    s->val[len] = 1.0;
    int i = glp_add_rows(P, 1);
    glp_set_row_bnds(P, i, GLP_UP, 0.0, (double)n->m0[p]);
    glp_set_mat_row(P, i, len, s->ind, s->val);
    return P;
}

/* GLPK's y as integers over the smallest common denominator that fits
 * them all within rounding (s->y); 0 when none up to MAX_DEN does. */
static int64_t rounded(imp_t *s, glp_prob *P)
{
    for (int64_t den = 1; den <= MAX_DEN; den++) {
        size_t c;
        for (c = 0; c < s->ncols; c++) {
            double v = glp_get_col_prim(P, (int)c + 1) * (double)den;
            if (v < -1e-6 || fabs(v - nearbyint(v)) > 1e-6)
                break;
            s->y[c] = v < 0.5 ? 0 : (int64_t)nearbyint(v);
        }
        if (c == s->ncols)
            return den;
    }
    return 0;
}

/* The condition checked in exact arithmetic for y = s->y / den: y.C[t]
 * <= C[p][t] on every row, and the largest Pre[p][t] - y.Pre[t] over the
 * transitions needing p at most m0[p] - y.m0, which is not negative (mu
 * between them, or 0). */
static int certified(const imp_t *s, size_t p, int64_t den)
{
    const pni_implicit_net_t *n = s->n;
    __int128 slack = (__int128)den * n->m0[p];
    for (size_t c = 0; c < s->ncols; c++)
        slack -= (__int128)s->y[c] * n->m0[s->cols[c]];
    if (slack < 0)
        return 0;
    for (size_t r = 0; r < s->nrows; r++) {
        size_t t = s->rows[r];
        __int128 yc = 0, ypre = 0;
        for (size_t i = 0; i < n->narcs[t]; i++) {
            const pni_rarc_t *a = &n->arcs[t][i];
            if (a->p >= n->np || s->col[a->p] < 0)
                continue;
            yc += (__int128)s->y[s->col[a->p]] * change_of(a);
            ypre += (__int128)s->y[s->col[a->p]] * (__int128)need_of(a);
        }
        const pni_rarc_t *a = arc_on(n, t, p);
        if (yc > (__int128)den * change_of(a))
            return 0;
        if (need_of(a) &&
            (__int128)den * need_of(a) - ypre > slack)
            return 0;
    }
    return 1;
}

/* Whether p is implicit, within deadline. */
static int implicit_one(imp_t *s, size_t p, double deadline)
{
    int found = 0;
    if (!gather(s, p) || hopeless(s, p)) {
        ungather(s);
        return 0;
    }
    glp_prob *P = problem(s, p);
    if (P) {
        glp_smcp sp;
        glp_init_smcp(&sp);
        sp.msg_lev = GLP_MSG_OFF;
        sp.presolve = GLP_ON;
        double left = deadline - pni_clock();
        sp.tm_lim = left < 0.001 ? 1 : left > 1e6 ? 1000000000
                                                  : (int)(left * 1000);
        int64_t den;
        if (glp_simplex(P, &sp) == 0 && glp_get_status(P) == GLP_OPT &&
            (den = rounded(s, P)) > 0)
            found = certified(s, p, den);
        glp_delete_prob(P);
    }
    ungather(s);
    return found;
}

size_t pni_implicit_places(pni_implicit_net_t *n, double deadline)
{
    imp_t s = {n, calloc(n->np + 1, 1),
               malloc((n->np + 1) * sizeof *s.col),
               malloc((n->nt + 1) * sizeof *s.row),
               malloc((MAX_COLS + 1) * sizeof *s.cols),
               malloc((MAX_ROWS + 1) * sizeof *s.rows), 0, 0,
               malloc((MAX_COLS + 2) * sizeof *s.ind),
               malloc((MAX_COLS + 2) * sizeof *s.val),
               malloc((MAX_COLS + 1) * sizeof *s.y)};
    size_t found = 0;
    if (s.apart && s.col && s.row && s.cols && s.rows && s.ind && s.val &&
        s.y) {
        glp_term_out(GLP_OFF); /* standard output is the answers' */
        for (size_t p = 0; p < n->np; p++)
            s.col[p] = -1;
        for (size_t t = 0; t < n->nt; t++) {
            s.row[t] = -1;
            for (size_t i = 0; n->arcs[t] && i < n->narcs[t]; i++) {
                const pni_rarc_t *a = &n->arcs[t][i];
                if (a->p < n->np &&
                    (a->reset || a->in > WEIGHT_MAX || a->out > WEIGHT_MAX ||
                     a->rd > WEIGHT_MAX))
                    s.apart[a->p] = 1;
            }
        }
        for (size_t p = 0; p < n->np; p++)
            s.apart[p] |= n->m0[p] > WEIGHT_MAX;
        for (size_t p = 0; p < n->np && pni_clock() < deadline; p++) {
            if (!candidate(&s, p))
                continue;
            n->tried[p] = 1;
            if (implicit_one(&s, p, deadline)) {
                n->palive[p] = 0;
                found++;
            }
        }
    }
    free(s.apart);
    free(s.col);
    free(s.row);
    free(s.cols);
    free(s.rows);
    free(s.ind);
    free(s.val);
    free(s.y);
    return found;
}
