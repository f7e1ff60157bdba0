/* The transient distribution of the tangible chain by uniformization
 * (Jensen's method): pi(t) = sum_k Poisson(k; q t) alpha P^k with
 * P = I + Q / q.  The Poisson weights are summed from a left to a right
 * truncation point found as Fox and Glynn do, from the mode outwards,
 * but each tail is bounded by a geometric series instead of estimated,
 * so the probability left out is known, not hoped for. */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gspn_private.h"
#include "lib_private.h"

/* A right truncation point past this many steps is refused: q t that
 * large is the steady state's business. */
#define MAX_STEPS 100000000

/* The Poisson weights w[k - left] for k in left..right, and a bound on
 * the probability outside. */
typedef struct {
    size_t left, right;
    double *w;
    double bound;
} poisson_t;

/* log Poisson(m; lambda) at the mode m = floor(lambda).  Below 100
 * lgamma is exact enough; above, Stirling's series with m ln(lambda / m)
 * written as m log1p(f / m), so that no two large terms cancel (lgamma
 * of 10^7 carries an absolute error near 10^-8). */
static double log_mode(double lambda, double m)
{
    if (m < 100)
        return -lambda + (m > 0 ? m * log(lambda) : 0) - lgamma(m + 1);
    double f = lambda - m;
    return -f + m * log1p(f / m) - 0.5 * log(6.283185307179586 * m) -
           1 / (12 * m) + 1 / (360 * m * m * m);
}

/* The weights of Poisson(lambda) with the two tails below eps / 2 each.
 * Right of the mode w_{k+1} = w_k lambda / (k + 1) and the tail past R
 * is at most w_{R+1} / (1 - lambda / (R + 2)); left of it w_{k-1} =
 * w_k k / lambda and the tail below L at most w_{L-1} / (1 - (L - 1) /
 * lambda). */
static pn_status_t poisson(double lambda, double eps, poisson_t *p)
{
    memset(p, 0, sizeof *p);
    if (lambda == 0) {
        if (!(p->w = malloc(sizeof *p->w)))
            return PN_ENOMEM;
        p->w[0] = 1;
        return PN_OK;
    }
    if (lambda > MAX_STEPS)
        return PN_ETOOBIG;
    double m = floor(lambda), wm = exp(log_mode(lambda, m));
    double w = wm, k = m, rb, lb = 0;
    for (;;) { /* right: w is w_k */
        double next = w * lambda / (k + 1);
        if (k + 2 > lambda) {
            rb = next / (1 - lambda / (k + 2));
            if (rb <= eps / 2)
                break;
        }
        w = next;
        if (++k > MAX_STEPS)
            return PN_ETOOBIG;
    }
    p->right = (size_t)k;
    w = wm;
    k = m;
    while (k > 0) { /* left: w is w_k */
        double prev = w * k / lambda;
        lb = prev / (1 - (k - 1) / lambda);
        if (lb <= eps / 2)
            break;
        w = prev;
        k--;
    }
    if (k == 0)
        lb = 0;
    p->left = (size_t)k;
    p->bound = rb + lb;
    size_t mi = (size_t)m;
    if (!(p->w = malloc((p->right - p->left + 1) * sizeof *p->w)))
        return PN_ENOMEM;
    p->w[mi - p->left] = wm;
    for (size_t j = mi; j < p->right; j++)
        p->w[j + 1 - p->left] = p->w[j - p->left] * lambda / (double)(j + 1);
    for (size_t j = mi; j > p->left; j--)
        p->w[j - 1 - p->left] = p->w[j - p->left] * (double)j / lambda;
    return PN_OK;
}

/* v P into out: out_j = v_j (1 - d_j / q) + sum_i v_i r_ij / q. */
static void step(const pni_gspn_sys_t *s, const double *stay,
                 const double *rq, const double *v, double *out)
{
    for (size_t j = 0; j < s->n; j++) {
        double x = v[j] * stay[j];
        for (size_t k = s->ioff[j]; k < s->ioff[j + 1]; k++)
            x += v[s->isrc[k]] * rq[k];
        out[j] = x;
    }
}

/* The measures at each time from its accumulated distribution. */
static pn_status_t report(pni_gspn_t *g, const double *acc,
                          pn_gspn_result_t *r)
{
    size_t n = g->ntang, nt = r->ntimes;
    r->tr_throughput = calloc(nt * g->nt + 1, sizeof *r->tr_throughput);
    r->tr_mean_tokens = calloc(nt * g->np + 1, sizeof *r->tr_mean_tokens);
    r->tr_dead = calloc(nt + 1, sizeof *r->tr_dead);
    if (!r->tr_throughput || !r->tr_mean_tokens || !r->tr_dead)
        return PN_ENOMEM;
    for (size_t i = 0; i < nt; i++)
        pni_gspn_measures(g, NULL, acc + i * n, r->tr_throughput + i * g->nt,
                          r->tr_mean_tokens + i * g->np);
    for (size_t s = 0; s < n; s++)
        if (pni_gspn_is_dead(g, s))
            for (size_t i = 0; i < nt; i++)
                r->tr_dead[i] += acc[i * n + s];
    return PN_OK;
}

pn_status_t pni_gspn_transient(pni_gspn_t *g, const pn_gspn_options_t *o,
                               pn_gspn_result_t *r)
{
    size_t n = g->ntang, nt = o->ntimes, K = 0;
    size_t *loc = calloc(n + 1, sizeof *loc);
    poisson_t *pw = calloc(nt, sizeof *pw);
    double *acc = NULL, *v = NULL, *v2 = NULL, *stay = NULL, *rq = NULL;
    pni_gspn_sys_t sy = {0};
    pn_status_t st = PN_ENOMEM;
    r->ntimes = nt;
    if (!loc || !pw || !(r->times = malloc(nt * sizeof *r->times)))
        goto out;
    memcpy(r->times, o->times, nt * sizeof *r->times);
    for (size_t s = 0; s < n; s++)
        loc[s] = s;
    if ((st = pni_gspn_sys_build(g, loc, n, 1, &sy)))
        goto out;
    double q = 0;
    for (size_t s = 0; s < n; s++)
        if (sy.d[s] > q)
            q = sy.d[s];
    /* a little above the largest exit rate, so that no state's self-loop
     * probability is 0 (any q >= max d is exact; this one is cheap) */
    q = q > 0 ? 1.02 * q : 1;
    r->uniform_rate = q;
    for (size_t i = 0; i < nt; i++) {
        if ((st = poisson(q * o->times[i], o->epsilon, &pw[i]))) {
            if (st == PN_ETOOBIG)
                pni_error(g->err, st, 0, 0,
                          "time %g is too long for uniformization (q t = "
                          "%g): the chain's steady state answers it",
                          o->times[i], q * o->times[i]);
            goto out;
        }
        if (pw[i].right > K)
            K = pw[i].right;
        if (pw[i].bound > r->tr_error)
            r->tr_error = pw[i].bound;
    }
    st = PN_ENOMEM;
    size_t nz = sy.ioff[n];
    acc = calloc(nt * n + 1, sizeof *acc);
    v = malloc((n + 1) * sizeof *v);
    v2 = malloc((n + 1) * sizeof *v2);
    stay = malloc((n + 1) * sizeof *stay);
    rq = malloc((nz + 1) * sizeof *rq);
    if (!acc || !v || !v2 || !stay || !rq)
        goto out;
    for (size_t j = 0; j < n; j++) {
        v[j] = sy.b[j];
        stay[j] = 1 - sy.d[j] / q;
    }
    for (size_t k = 0; k < nz; k++)
        rq[k] = sy.irate[k] / q;
    for (size_t k = 0;; k++) {
        for (size_t i = 0; i < nt; i++)
            if (k >= pw[i].left && k <= pw[i].right) {
                double w = pw[i].w[k - pw[i].left];
                double *a = acc + i * n;
                for (size_t j = 0; j < n; j++)
                    a[j] += w * v[j];
            }
        if (k == K)
            break;
        step(&sy, stay, rq, v, v2);
        double *tmp = v;
        v = v2;
        v2 = tmp;
    }
    r->tr_steps = K;
    st = report(g, acc, r);
out:
    for (size_t i = 0; pw && i < nt; i++)
        free(pw[i].w);
    free(pw);
    free(loc);
    free(acc);
    free(v);
    free(v2);
    free(stay);
    free(rq);
    pni_gspn_sys_free(&sy);
    return st;
}
