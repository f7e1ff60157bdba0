/* The Markov chain of the tangible reachability graph: its bottom
 * strongly connected components (Tarjan), then the steady state of the
 * one bottom component, or absorption in the dead markings; by a direct
 * sparse LU (UMFPACK) up to a size, by Gauss-Seidel beyond, the true
 * residual checked on the result either way. */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_UMFPACK
#include <suitesparse/umfpack.h>
#endif
#include "gspn_private.h"
#include "lib_private.h"

typedef pni_gspn_sys_t sys_t;

void pni_gspn_sys_free(sys_t *s)
{
    free(s->ioff);
    free(s->isrc);
    free(s->irate);
    free(s->d);
    free(s->b);
}

pn_status_t pni_gspn_sys_build(const pni_gspn_t *g, const size_t *loc,
                               size_t n, int absorbing, sys_t *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->ioff = calloc(n + 1, sizeof *s->ioff);
    s->d = calloc(n ? n : 1, sizeof *s->d);
    if (absorbing)
        s->b = calloc(n ? n : 1, sizeof *s->b);
    if (!s->ioff || !s->d || (absorbing && !s->b))
        return PN_ENOMEM;
    for (size_t e = 0; e < g->nedges; e++) {
        const pni_gspn_edge_t *ed = &g->edges[e];
        if (ed->from == SIZE_MAX) {
            if (absorbing && loc[ed->to] != SIZE_MAX)
                s->b[loc[ed->to]] += ed->rate;
            continue;
        }
        if (loc[ed->from] == SIZE_MAX)
            continue;
        s->d[loc[ed->from]] += ed->rate;
        if (loc[ed->to] != SIZE_MAX)
            s->ioff[loc[ed->to] + 1]++;
    }
    for (size_t j = 0; j < n; j++)
        s->ioff[j + 1] += s->ioff[j];
    size_t nz = s->ioff[n];
    s->isrc = malloc((nz ? nz : 1) * sizeof *s->isrc);
    s->irate = malloc((nz ? nz : 1) * sizeof *s->irate);
    size_t *at = calloc(n ? n : 1, sizeof *at);
    if (!s->isrc || !s->irate || !at) {
        free(at);
        return PN_ENOMEM;
    }
    for (size_t e = 0; e < g->nedges; e++) {
        const pni_gspn_edge_t *ed = &g->edges[e];
        if (ed->from == SIZE_MAX || loc[ed->from] == SIZE_MAX ||
            loc[ed->to] == SIZE_MAX)
            continue;
        size_t j = loc[ed->to], k = s->ioff[j] + at[j]++;
        s->isrc[k] = loc[ed->from];
        s->irate[k] = ed->rate;
    }
    free(at);
    return PN_OK;
}

/* max_j |(x A - b)_j| into r->residual, and the relative residual
 * ||x A - b||_1 / ||x D||_1 (the share of the probability flow left
 * unbalanced; the initial mass ||b||_1 when that is larger) into
 * r->residual_relative; returns the relative one. */
static double residual(const sys_t *s, const double *x, pn_gspn_result_t *r)
{
    double mx = 0, sum = 0, flow = 0, mass = 0;
    for (size_t j = 0; j < s->n; j++) {
        double bj = s->b ? s->b[j] : 0, v = x[j] * s->d[j] - bj;
        flow += fabs(x[j] * s->d[j]);
        mass += fabs(bj);
        for (size_t k = s->ioff[j]; k < s->ioff[j + 1]; k++)
            v -= x[s->isrc[k]] * s->irate[k];
        sum += fabs(v);
        if (fabs(v) > mx || isnan(v))
            mx = isnan(v) ? INFINITY : fabs(v);
    }
    if (mass > flow)
        flow = mass;
    r->residual = mx;
    r->residual_relative = isfinite(mx) ? (flow > 0 ? sum / flow : sum)
                                        : INFINITY;
    return r->residual_relative;
}

static void normalize(double *x, size_t n)
{
    double sum = 0;
    for (size_t j = 0; j < n; j++)
        sum += x[j];
    if (sum > 0)
        for (size_t j = 0; j < n; j++)
            x[j] /= sum;
}

/* Gauss-Seidel: x_j = (b_j + sum_i x_i r_ij) / d_j, normalized each sweep
 * for the steady state; stops at a relative residual below tol, looked at
 * every few sweeps (it costs a sweep). */
static void gauss_seidel(const sys_t *s, double *x, double tol,
                         size_t max_iter, pn_gspn_result_t *r)
{
    for (size_t j = 0; j < s->n; j++)
        x[j] = s->b ? 0 : 1.0 / (double)s->n;
    r->iterations = 0;
    double rel = residual(s, x, r);
    while (!(rel < tol) && r->iterations < max_iter) {
        for (size_t j = 0; j < s->n; j++) {
            double v = s->b ? s->b[j] : 0;
            for (size_t k = s->ioff[j]; k < s->ioff[j + 1]; k++)
                v += x[s->isrc[k]] * s->irate[k];
            if (s->d[j] > 0)
                x[j] = v / s->d[j];
        }
        if (!s->b)
            normalize(x, s->n);
        r->iterations++;
        if (r->iterations % 8 == 0 || r->iterations == max_iter)
            rel = residual(s, x, r);
    }
    r->solver = "gauss-seidel";
    r->converged = rel < tol;
}

#ifdef HAVE_UMFPACK
/* The direct solution: A^T x^T = b^T by UMFPACK; for the steady state the
 * last equation is replaced by x_last = 1 (the others determine the rest
 * on an irreducible chain), and x normalized.  0, 1 when the matrix is
 * singular, -1 when out of memory. */
static int lu(const sys_t *s, double *x)
{
    size_t n = s->n, nz = s->ioff[n] + n;
    long *ti = malloc(nz * sizeof *ti), *tj = malloc(nz * sizeof *tj);
    long *ap = malloc((n + 1) * sizeof *ap), *ai = malloc(nz * sizeof *ai);
    double *tx = malloc(nz * sizeof *tx), *ax = malloc(nz * sizeof *ax);
    double *rhs = calloc(n, sizeof *rhs);
    void *sym = NULL, *num = NULL;
    int ret = -1;
    size_t k = 0;
    if (!ti || !tj || !ap || !ai || !tx || !ax || !rhs)
        goto out;
    size_t last = s->b ? n : n - 1; /* the row replaced, if any */
    for (size_t j = 0; j < n; j++) {
        if (j != last) {
            ti[k] = (long)j, tj[k] = (long)j, tx[k++] = s->d[j];
            for (size_t q = s->ioff[j]; q < s->ioff[j + 1]; q++)
                ti[k] = (long)j, tj[k] = (long)s->isrc[q],
                tx[k++] = -s->irate[q];
        } else /* x_last = 1, normalized afterwards: a row of ones
                  would fill the factors in */
            ti[k] = (long)j, tj[k] = (long)j, tx[k++] = 1;
        rhs[j] = s->b ? s->b[j] : j == last;
    }
    if (umfpack_dl_triplet_to_col((long)n, (long)n, (long)k, ti, tj, tx, ap,
                                  ai, ax, NULL) != UMFPACK_OK)
        goto out;
    int st = (int)umfpack_dl_symbolic((long)n, (long)n, ap, ai, ax, &sym,
                                      NULL, NULL);
    if (st == UMFPACK_OK)
        st = (int)umfpack_dl_numeric(ap, ai, ax, sym, &num, NULL, NULL);
    if (st == UMFPACK_OK)
        st = (int)umfpack_dl_solve(UMFPACK_A, ap, ai, ax, x, rhs, num, NULL,
                                   NULL);
    ret = st == UMFPACK_OK ? 0
          : st == UMFPACK_ERROR_out_of_memory ? -1 : 1;
    if (!s->b)
        normalize(x, n);
out:
    umfpack_dl_free_symbolic(&sym);
    umfpack_dl_free_numeric(&num);
    free(ti);
    free(tj);
    free(ap);
    free(ai);
    free(tx);
    free(ax);
    free(rhs);
    return ret;
}
#endif

/* x solved, by LU up to direct_max states, by Gauss-Seidel beyond. */
static pn_status_t solve(const sys_t *s, double *x,
                         const pn_gspn_options_t *o, pn_gspn_result_t *r)
{
#ifdef HAVE_UMFPACK
    if (s->n <= o->direct_max) {
        int ret = lu(s, x);
        if (ret < 0)
            return PN_ENOMEM;
        r->solver = "lu";
        r->iterations = 0;
        r->converged = ret == 0 && isfinite(residual(s, x, r));
        return PN_OK;
    }
#endif
    gauss_seidel(s, x, o->tolerance, o->max_iter, r);
    return PN_OK;
}

/* Tarjan's strongly connected components of the chain (iterative):
 * comp[s], and how many. */
static pn_status_t components(const pni_gspn_t *g, size_t *comp,
                             size_t *ncomp)
{
    size_t n = g->ntang, *off = calloc(n + 1, sizeof *off);
    size_t *adj = malloc((g->nedges ? g->nedges : 1) * sizeof *adj);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    size_t *low = malloc((n ? n : 1) * sizeof *low);
    size_t *stk = malloc((n ? n : 1) * sizeof *stk);
    size_t *call = malloc((n ? n : 1) * sizeof *call);
    size_t *pos = malloc((n ? n : 1) * sizeof *pos);
    pn_status_t st = PN_ENOMEM;
    if (!off || !adj || !idx || !low || !stk || !call || !pos)
        goto out;
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].from != SIZE_MAX)
            off[g->edges[e].from + 1]++;
    for (size_t s = 0; s < n; s++)
        off[s + 1] += off[s];
    memcpy(pos, off, n * sizeof *pos);
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].from != SIZE_MAX)
            adj[pos[g->edges[e].from]++] = g->edges[e].to;
    for (size_t s = 0; s < n; s++)
        idx[s] = SIZE_MAX, comp[s] = SIZE_MAX;
    size_t next = 0, sp = 0, cp = 0;
    *ncomp = 0;
    for (size_t root = 0; root < n; root++) {
        if (idx[root] != SIZE_MAX)
            continue;
        call[cp++] = root;
        idx[root] = low[root] = next++;
        pos[root] = off[root];
        stk[sp++] = root;
        while (cp) {
            size_t v = call[cp - 1];
            if (pos[v] < off[v + 1]) {
                size_t w = adj[pos[v]++];
                if (idx[w] == SIZE_MAX) {
                    idx[w] = low[w] = next++;
                    pos[w] = off[w];
                    stk[sp++] = w;
                    call[cp++] = w;
                } else if (comp[w] == SIZE_MAX && idx[w] < low[v])
                    low[v] = idx[w];
                continue;
            }
            cp--;
            if (cp && low[v] < low[call[cp - 1]])
                low[call[cp - 1]] = low[v];
            if (low[v] == idx[v]) {
                size_t w;
                do {
                    w = stk[--sp];
                    comp[w] = *ncomp;
                } while (w != v);
                (*ncomp)++;
            }
        }
    }
    st = PN_OK;
out:
    free(off);
    free(adj);
    free(idx);
    free(low);
    free(stk);
    free(call);
    free(pos);
    return st;
}

int pni_gspn_is_dead(pni_gspn_t *g, size_t s)
{
    const uint64_t *m = g->marks + g->tang[s] * g->np;
    for (size_t t = 0; t < g->nt; t++)
        if (pni_gspn_fire(g, t, m, g->probe) > 0 &&
            pni_gspn_rate(g, t, m) > 0)
            return 0;
    return 1;
}

void pni_gspn_measures(pni_gspn_t *g, const size_t *loc, const double *pi,
                       double *thr, double *tokens)
{
    for (size_t s = 0; s < g->ntang; s++) {
        if (loc && loc[s] == SIZE_MAX)
            continue;
        double p = pi[loc ? loc[s] : s];
        if (p == 0)
            continue;
        const uint64_t *m = g->marks + g->tang[s] * g->np;
        for (size_t q = 0; q < g->np; q++)
            tokens[q] += p * (double)m[q];
        for (size_t t = 0; t < g->nt; t++) {
            pn_timing_t k = pn_net_transition(g->net, t)->timing;
            if ((k == PN_TIMING_NONE || k == PN_TIMING_EXPONENTIAL) &&
                pni_gspn_fire(g, t, m, g->probe) > 0)
                thr[t] += p * pni_gspn_rate(g, t, m);
        }
    }
    for (size_t i = 0; i < g->nimm; i++) {
        size_t s = g->imm[i].state;
        if (!loc || loc[s] != SIZE_MAX)
            thr[g->imm[i].transition] +=
                pi[loc ? loc[s] : s] * g->imm[i].value;
    }
}

/* Throughputs and mean tokens from pi over the states with loc set. */
static pn_status_t measures(pni_gspn_t *g, const size_t *loc,
                            const double *pi, pn_gspn_result_t *r)
{
    r->throughput = calloc(g->nt + 1, sizeof *r->throughput);
    r->mean_tokens = calloc(g->np + 1, sizeof *r->mean_tokens);
    if (!r->throughput || !r->mean_tokens)
        return PN_ENOMEM;
    pni_gspn_measures(g, loc, pi, r->throughput, r->mean_tokens);
    return PN_OK;
}

/* Absorption: every bottom component a dead marking.  The mean time in
 * each transient state x solves x (D - R) = alpha; the time to absorption
 * is their sum, and each dead marking is reached with probability
 * alpha_d + sum_i x_i r_id. */
static pn_status_t absorption(pni_gspn_t *g, const unsigned char *dead,
                              size_t *loc, const pn_gspn_options_t *o,
                              pn_gspn_result_t *r)
{
    size_t n = 0, nd = 0, *dl = malloc((g->ntang + 1) * sizeof *dl);
    if (!dl)
        return PN_ENOMEM;
    for (size_t s = 0; s < g->ntang; s++) {
        loc[s] = dead[s] ? SIZE_MAX : n++;
        dl[s] = dead[s] ? nd++ : SIZE_MAX;
    }
    r->dead_probability = calloc(nd + 1, sizeof *r->dead_probability);
    r->dead_marking = malloc((nd * g->np + 1) * sizeof *r->dead_marking);
    sys_t sy = {0};
    double *x = calloc(n + 1, sizeof *x);
    pn_status_t st = PN_ENOMEM;
    if (!r->dead_probability || !r->dead_marking || !x ||
        (st = pni_gspn_sys_build(g, loc, n, 1, &sy)))
        goto out;
    if (n && (st = solve(&sy, x, o, r)))
        goto out;
    if (!n) { /* the initial marking is dead */
        r->solver = "none";
        r->converged = 1;
    }
    for (size_t s = 0; s < g->ntang; s++)
        if (dead[s])
            memcpy(r->dead_marking + dl[s] * g->np,
                   g->marks + g->tang[s] * g->np,
                   g->np * sizeof *r->dead_marking);
    r->mtta = 0;
    for (size_t j = 0; j < n; j++)
        r->mtta += x[j];
    for (size_t e = 0; e < g->nedges; e++) {
        const pni_gspn_edge_t *ed = &g->edges[e];
        if (!dead[ed->to])
            continue;
        if (ed->from == SIZE_MAX)
            r->dead_probability[dl[ed->to]] += ed->rate;
        else if (loc[ed->from] != SIZE_MAX)
            r->dead_probability[dl[ed->to]] += x[loc[ed->from]] * ed->rate;
    }
    r->mtta_known = 1;
out:
    pni_gspn_sys_free(&sy);
    free(x);
    free(dl);
    return st;
}

pn_status_t pni_gspn_ctmc(pni_gspn_t *g, const pn_gspn_options_t *o,
                          pn_gspn_result_t *r)
{
    size_t n = g->ntang, ncomp = 0, chosen = SIZE_MAX;
    size_t *comp = malloc((n + 1) * sizeof *comp);
    size_t *loc = malloc((n + 1) * sizeof *loc);
    unsigned char *notbottom = NULL, *dead = calloc(n + 1, 1);
    pn_status_t st = PN_ENOMEM;
    double *pi = NULL;
    if (!comp || !loc || !dead || (st = components(g, comp, &ncomp)))
        goto out;
    st = PN_ENOMEM;
    if (!(notbottom = calloc(ncomp + 1, 1)))
        goto out;
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].from != SIZE_MAX &&
            comp[g->edges[e].from] != comp[g->edges[e].to])
            notbottom[comp[g->edges[e].from]] = 1;
    int live_bottom = 0;
    for (size_t s = 0; s < n; s++) {
        if (notbottom[comp[s]])
            continue;
        dead[s] = (unsigned char)pni_gspn_is_dead(g, s);
        r->dead += dead[s];
    }
    for (size_t c = 0; c < ncomp; c++)
        r->bottom += !notbottom[c];
    for (size_t s = 0; s < n; s++)
        if (!notbottom[comp[s]] && !dead[s]) {
            live_bottom = 1;
            chosen = comp[s];
        }
    st = PN_OK;
    if (r->dead) {
        r->kind = PN_GSPN_ABSORBING;
        if (!live_bottom)
            st = absorption(g, dead, loc, o, r);
        goto out;
    }
    if (r->bottom > 1) {
        r->kind = PN_GSPN_MULTIPLE;
        goto out;
    }
    r->kind = PN_GSPN_ERGODIC;
    size_t m = 0;
    for (size_t s = 0; s < n; s++)
        loc[s] = comp[s] == chosen ? m++ : SIZE_MAX;
    r->recurrent = m;
    sys_t sy;
    st = PN_ENOMEM;
    if (!(pi = calloc(m + 1, sizeof *pi)) ||
        (st = pni_gspn_sys_build(g, loc, m, 0, &sy)))
        goto out;
    if (!(st = solve(&sy, pi, o, r)))
        st = measures(g, loc, pi, r);
    pni_gspn_sys_free(&sy);
out:
    free(pi);
    free(comp);
    free(loc);
    free(dead);
    free(notbottom);
    return st;
}
