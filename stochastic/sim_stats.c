/* Estimates from GSPN runs (pn/sim_gspn.h): batch means after an MSER-5
 * warm-up for the steady state, independent runs for the transient and
 * for the time to absorption, each with a Student t interval. */
#include <config.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "sim_private.h"

/* ---- Student's t -------------------------------------------------------- */

/* The continued fraction of the regularized incomplete beta (Lentz). */
static double beta_cf(double a, double b, double x)
{
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < 1e-300)
        d = 1e-300;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
        d = 1 + aa * d;
        c = 1 + aa / c;
        if (fabs(d) < 1e-300)
            d = 1e-300;
        if (fabs(c) < 1e-300)
            c = 1e-300;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
        d = 1 + aa * d;
        c = 1 + aa / c;
        if (fabs(d) < 1e-300)
            d = 1e-300;
        if (fabs(c) < 1e-300)
            c = 1e-300;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

/* I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lb = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
                b * log(1 - x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lb) * beta_cf(a, b, x) / a;
    return 1 - exp(lb) * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= x), x >= 0. */
static double student_cdf(double x, double df)
{
    return 1 - 0.5 * beta_inc(df / 2, 0.5, df / (df + x * x));
}

double pni_student_quantile(double p, double df)
{
    double lo = 0, hi = 1;
    while (student_cdf(hi, df) < p && hi < 1e10)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (student_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* The interval of n values with sum s and sum of squares about the mean
 * q; tq the quantile. */
static pn_gspn_estimate_t interval(double mean, double ss, size_t n,
                                   double tq)
{
    pn_gspn_estimate_t e = {mean, INFINITY};
    if (n >= 2) {
        double var = ss / (double)(n - 1);
        e.half = tq * sqrt(var > 0 ? var : 0) / sqrt((double)n);
    }
    return e;
}

/* Whether every estimate of e (blocks of nt throughputs, np token means,
 * nc probabilities) is within the accuracy: a half-width at most acc
 * times the larger of its mean and a floor, 10^-3 times the largest mean
 * of its kind in its block (1 for probabilities), so that a place marked
 * once in a million time units does not hold the run forever. */
static int within_all(const pn_gspn_estimate_t *e, size_t blocks, size_t nt,
                      size_t np, size_t nc, double acc)
{
    size_t len[3] = {nt, np, nc};
    for (size_t b = 0; b < blocks; b++)
        for (size_t k = 0, off = b * (nt + np + nc); k < 3;
             off += len[k], k++) {
            double top = k == 2 ? 1 : 0;
            for (size_t i = 0; i < len[k]; i++)
                if (fabs(e[off + i].mean) > top)
                    top = fabs(e[off + i].mean);
            for (size_t i = 0; i < len[k]; i++) {
                double m = fabs(e[off + i].mean);
                if (!(e[off + i].half <= acc * (m > 1e-3 * top ? m
                                                              : 1e-3 * top)))
                    return 0;
            }
        }
    return 1;
}

/* ---- errors of a run ----------------------------------------------------- */

static pn_status_t run_error(const pni_sim_run_t *r, int rc, pn_error_t *err)
{
    const pn_net_t *net = r->md->net;
    if (rc == PNI_SIM_OVERFLOW)
        return pni_error(err, PN_ERANGE, 0, 0,
                         "place %s would pass 2^63-1 tokens at time %g: the "
                         "net is not bounded",
                         pn_net_place(net, r->overflow_place)->id, r->now);
    if (rc == PNI_SIM_BADRATE) {
        const pn_transition_t *t = pn_net_transition(net, r->overflow_place);
        return pni_error(err, PN_EINVAL, 0, 0,
                         "transition %s: its rate '%s' is not a finite "
                         "number >= 0 at the marking reached at time %g",
                         t->id, t->rate_expr ? t->rate_expr : "?", r->now);
    }
    return pni_error(err, PN_EINVAL, 0, 0,
                     "immediate transitions fired 10^7 times in a row at "
                     "time %g: time does not move on (a loop of vanishing "
                     "markings, or immediate firings without end)", r->now);
}

/* ---- steady state: batch means ------------------------------------------ */

enum { NBATCH = 1200, KBATCH = 30 };

typedef struct {
    size_t nm;          /* measures: transitions, places, conditions */
    double *b;          /* nb x nm batch means */
    size_t nb;
    double B;           /* the length of a small batch */
    double t0;          /* when the first batch began */
    double *prev;       /* the totals at the last boundary */
} batches_t;

/* The totals of the run now: counts, areas, condition times. */
static void totals(pni_sim_run_t *r, double *v)
{
    const pni_sim_model_t *md = r->md;
    pni_sim_flush(r);
    for (size_t t = 0; t < md->nt; t++)
        v[t] = (double)r->counts[t];
    for (size_t p = 0; p < md->np; p++)
        v[md->nt + p] = r->area[p];
    for (size_t c = 0; c < md->nc; c++)
        v[md->nt + md->np + c] = r->carea[c];
}

/* MSER-5: the warm-up in groups of 5 batches, the one d in 0..n5/2 that
 * minimizes the summed (over measures, each scaled by its d = 0 value)
 * statistic SSD(d..n5) / (n5 - d)^2. */
static size_t mser5(const batches_t *bt, double *s1, double *s2,
                    double *score)
{
    size_t n5 = bt->nb / 5, nm = bt->nm, half = n5 / 2;
    for (size_t d = 0; d <= half; d++)
        score[d] = 0;
    for (size_t k = 0; k < nm; k++) {
        double a = 0, q = 0;
        for (size_t g = n5; g-- > 0;) {
            double x = 0;
            for (size_t i = 0; i < 5; i++)
                x += bt->b[(5 * g + i) * nm + k];
            x /= 5;
            a += x;
            q += x * x;
            s1[g] = a;
            s2[g] = q;
        }
        double base = 0;
        for (size_t d = 0; d <= half; d++) {
            double n = (double)(n5 - d);
            double ssd = s2[d] - s1[d] * s1[d] / n;
            double v = (ssd > 0 ? ssd : 0) / (n * n);
            if (d == 0)
                base = v;
            if (base > 0)
                score[d] += v / base;
        }
    }
    size_t best = 0;
    for (size_t d = 1; d <= half; d++)
        if (score[d] < score[best])
            best = d;
    return best;
}

/* The estimates of the batches after the warm-up, into res.  Returns 1
 * when every interval is within the accuracy, the warm-up is over (MSER
 * not at its bound) and the batch means are not correlated. */
static int analyse(const batches_t *bt, const pn_gspn_sim_options_t *o,
                   double tq, double *work, pn_gspn_estimate_t *est,
                   pn_gspn_sim_result_t *res)
{
    size_t nm = bt->nm, nb = bt->nb;
    double *s1 = work, *s2 = work + nb, *score = work + 2 * nb;
    double *mk = work + 3 * nb;
    size_t d = mser5(bt, s1, s2, score);
    size_t first = 5 * d, size = (nb - first) / KBATCH;
    if (size < 1)
        return 0;
    first = nb - size * KBATCH; /* the rest of the earliest: warm-up too */
    int ok = d < (nb / 5) / 2 && size >= 2;
    double lagsum = 0;
    size_t nlag = 0;
    for (size_t k = 0; k < nm; k++) {
        double mean = 0;
        for (size_t j = 0; j < KBATCH; j++) {
            double x = 0;
            for (size_t i = 0; i < size; i++)
                x += bt->b[(first + j * size + i) * nm + k];
            mk[j] = x / (double)size;
            mean += mk[j];
        }
        mean /= KBATCH;
        double ss = 0, lag = 0;
        for (size_t j = 0; j < KBATCH; j++) {
            ss += (mk[j] - mean) * (mk[j] - mean);
            if (j)
                lag += (mk[j] - mean) * (mk[j - 1] - mean);
        }
        if (ss > 0) {
            lagsum += lag / ss;
            nlag++;
        }
        est[k] = interval(mean, ss, KBATCH, tq);
        size_t nt = res->transitions, np = res->places;
        if (k < nt)
            res->throughput[k] = est[k];
        else if (k < nt + np)
            res->mean_tokens[k - nt] = est[k];
        else
            res->probability[k - nt - np] = est[k];
    }
    ok = ok && within_all(est, 1, res->transitions, res->places,
                          res->conditions, o->accuracy);
    res->lag1 = nlag ? lagsum / (double)nlag : 0;
    res->warmup = bt->t0 + (double)first * bt->B;
    res->batch_time = (double)size * bt->B;
    return ok && res->lag1 < 0.3;
}

/* Pairs of batches merged: half as many, twice as long. */
static void merge(batches_t *bt)
{
    size_t nm = bt->nm;
    for (size_t i = 0; i < bt->nb / 2; i++)
        for (size_t k = 0; k < nm; k++)
            bt->b[i * nm + k] = (bt->b[2 * i * nm + k] +
                                 bt->b[(2 * i + 1) * nm + k]) / 2;
    bt->nb /= 2;
    bt->B *= 2;
}

/* The long run after the pilot, cut in batches.  Returns PN_OK (rc: the
 * run's end), or an error. */
static pn_status_t batch_run(pni_sim_run_t *r, batches_t *bt,
                             const pn_gspn_sim_options_t *o,
                             pn_gspn_sim_result_t *res, int *rc)
{
    size_t nm = bt->nm;
    double *cur = malloc(nm * sizeof *cur);
    double *work = malloc((3 * NBATCH + KBATCH + 1) * sizeof *work);
    pn_gspn_estimate_t *est = malloc((nm + 1) * sizeof *est);
    if (!cur || !work || !est) {
        free(cur);
        free(work);
        free(est);
        return PN_ENOMEM;
    }
    double tq = pni_student_quantile((1 + o->confidence) / 2, KBATCH - 1);
    double tnext = bt->t0 + bt->B, tlast = bt->t0, confirm = 0;
    for (;;) {
        *rc = pni_sim_until(r, tnext, o->max_firings);
        if (*rc != PNI_SIM_TIME)
            break;
        totals(r, cur);
        double *row = bt->b + bt->nb * nm;
        double len = r->now - tlast; /* B, but for rounding */
        tlast = r->now;
        for (size_t k = 0; k < nm; k++) {
            row[k] = (cur[k] - bt->prev[k]) / len;
            bt->prev[k] = cur[k];
        }
        bt->nb++;
        if (bt->nb == NBATCH)
            merge(bt);
        tnext += bt->B; /* the next batch as long as the merged ones */
        if (bt->nb < 300 || bt->nb % 50 != 0 || r->now < confirm)
            continue;
        if (!analyse(bt, o, tq, work, est, res)) {
            confirm = 0;
        } else if (confirm > 0) {
            res->accurate = 1;
            break;
        } else {
            /* stopping at the first success favours runs whose variance
             * came out low (the intervals then cover too rarely): the
             * run goes on to twice its length and must succeed again */
            confirm = 2 * r->now;
        }
    }
    if (*rc == PNI_SIM_LIMIT && bt->nb >= KBATCH)
        analyse(bt, o, tq, work, est, res);
    free(cur);
    free(work);
    free(est);
    return PN_OK;
}

static pn_status_t absorption(const pni_sim_model_t *md,
                              const pn_gspn_sim_options_t *o,
                              pn_gspn_sim_result_t *res, pn_error_t *err);

static pn_status_t steady(const pni_sim_model_t *md,
                          const pn_gspn_sim_options_t *o,
                          pn_gspn_sim_result_t *res, pn_error_t *err)
{
    pni_sim_run_t r;
    if (pni_sim_run_init(&r, md, o->seed, 0))
        return PN_ENOMEM;
    /* the pilot: 1,000 firings (more while time stands still) set the
     * length of a batch */
    int rc;
    uint64_t goal = 1000;
    do {
        rc = pni_sim_until(&r, INFINITY,
                           goal < o->max_firings ? goal : o->max_firings);
        goal += 1000;
    } while (rc == PNI_SIM_LIMIT && r.now == 0 && goal < o->max_firings);
    pn_status_t st = PN_OK;
    batches_t bt = {0};
    for (size_t t = 0; t < md->nt; t++)
        res->throughput[t] = (pn_gspn_estimate_t){NAN, INFINITY};
    for (size_t p = 0; p < md->np; p++)
        res->mean_tokens[p] = (pn_gspn_estimate_t){NAN, INFINITY};
    for (size_t c = 0; c < md->nc; c++)
        res->probability[c] = (pn_gspn_estimate_t){NAN, INFINITY};
    if (rc == PNI_SIM_LIMIT && r.now > 0) {
        bt.nm = md->nt + md->np + md->nc;
        bt.b = malloc((NBATCH + 1) * bt.nm * sizeof *bt.b);
        bt.prev = malloc((bt.nm + 1) * sizeof *bt.prev);
        if (!bt.b || !bt.prev)
            st = PN_ENOMEM;
        bt.B = r.now / 100;
        bt.t0 = r.now;
        if (!st) {
            totals(&r, bt.prev);
            st = batch_run(&r, &bt, o, res, &rc);
        }
    }
    res->firings = r.firings;
    res->sim_time = r.now;
    free(bt.b);
    free(bt.prev);
    if (!st && PNI_SIM_FAILED(rc))
        st = run_error(&r, rc, err);
    pni_sim_run_free(&r);
    if (!st && rc == PNI_SIM_DEAD) {
        res->absorbing = 1;
        res->accurate = 0;
        return absorption(md, o, res, err);
    }
    return st;
}

/* ---- independent runs ---------------------------------------------------- */

enum { ROUND = 100 };

typedef struct {
    const pni_sim_model_t *md;
    const pn_gspn_sim_options_t *o;
    size_t nv;          /* values a run gives */
    uint64_t base;      /* the first run of the round */
    double *v;          /* ROUND x nv */
    int *rc;
    uint64_t *firings;
    double *now;        /* where a run stopped (errors) */
    size_t *where;      /* the place that overflowed */
    pthread_mutex_t lock;
    size_t next;
} round_t;

/* Run i of the round: its values (transient: per time, the counts, the
 * marking, the conditions; absorption: the time of death). */
static void one(round_t *rd, size_t i)
{
    const pni_sim_model_t *md = rd->md;
    const pn_gspn_sim_options_t *o = rd->o;
    pni_sim_run_t r;
    double *v = rd->v + i * rd->nv;
    /* stream 0 is the long run's; run j draws stream j + 1 */
    if (pni_sim_run_init(&r, md, o->seed, rd->base + i + 1)) {
        rd->rc[i] = -1;
        return;
    }
    int rc = PNI_SIM_TIME;
    if (!o->ntimes) {
        rc = pni_sim_until(&r, INFINITY, o->max_firings);
        v[0] = r.now;
    }
    for (size_t k = 0; k < o->ntimes && rc != PNI_SIM_LIMIT &&
                       !PNI_SIM_FAILED(rc); k++) {
        rc = pni_sim_until(&r, o->times[k], o->max_firings);
        double *w = v + k * (md->nt + md->np + md->nc);
        for (size_t t = 0; t < md->nt; t++)
            w[t] = (double)r.counts[t];
        for (size_t p = 0; p < md->np; p++)
            w[md->nt + p] = (double)r.m[p];
        for (size_t c = 0; c < md->nc; c++)
            w[md->nt + md->np + c] = pni_sim_cond(&r, c);
    }
    rd->rc[i] = rc;
    rd->firings[i] = r.firings;
    rd->now[i] = r.now;
    rd->where[i] = r.overflow_place;
    pni_sim_run_free(&r);
}

static void *worker(void *arg)
{
    round_t *rd = arg;
    for (;;) {
        pthread_mutex_lock(&rd->lock);
        size_t i = rd->next++;
        pthread_mutex_unlock(&rd->lock);
        if (i >= ROUND)
            return NULL;
        one(rd, i);
    }
}

/* One round of ROUND runs on o->jobs threads. */
static void round_run(round_t *rd)
{
    unsigned jobs = rd->o->jobs ? rd->o->jobs : 1;
    if (jobs > ROUND)
        jobs = ROUND;
    pthread_t th[ROUND];
    unsigned started = 0;
    rd->next = 0;
    for (; jobs > 1 && started < jobs; started++)
        if (pthread_create(&th[started], NULL, worker, rd) != 0)
            break;
    worker(rd);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

/* Rounds of runs until every mean is within the accuracy, or max_runs.
 * sum, ss: the running means and sums of squares (Welford, in the order of
 * the runs, so that the threads change nothing); on a run that did not
 * reach its end (absorption: no death within max_firings), *lost grows. */
static pn_status_t rounds(const pni_sim_model_t *md,
                          const pn_gspn_sim_options_t *o, size_t nv,
                          const size_t len[3],
                          pn_gspn_sim_result_t *res, pn_gspn_estimate_t *est,
                          pn_error_t *err)
{
    round_t rd = {.md = md, .o = o, .nv = nv};
    double *mean = calloc(nv, sizeof *mean), *ss = calloc(nv, sizeof *ss);
    rd.v = malloc(ROUND * nv * sizeof *rd.v);
    rd.rc = malloc(ROUND * sizeof *rd.rc);
    rd.firings = malloc(ROUND * sizeof *rd.firings);
    rd.now = malloc(ROUND * sizeof *rd.now);
    rd.where = malloc(ROUND * sizeof *rd.where);
    pn_status_t st = mean && ss && rd.v && rd.rc && rd.firings && rd.now &&
                     rd.where ? PN_OK : PN_ENOMEM;
    if (!st)
        pthread_mutex_init(&rd.lock, NULL);
    uint64_t n = 0;
    while (!st && res->runs < o->max_runs) {
        rd.base = res->runs;
        round_run(&rd);
        for (size_t i = 0; i < ROUND && !st; i++) {
            int rc = rd.rc[i];
            res->firings += rd.firings[i];
            res->runs++;
            if (rc < 0) {
                st = PN_ENOMEM;
            } else if (PNI_SIM_FAILED(rc)) {
                pni_sim_run_t fake = {.md = md, .now = rd.now[i],
                                      .overflow_place = rd.where[i]};
                st = run_error(&fake, rc, err);
            } else if (rc == PNI_SIM_LIMIT && o->ntimes) {
                st = pni_error(err, PN_ETOOBIG, 0, 0,
                               "run %" PRIu64 " fired %" PRIu64 " times "
                               "before time %g", res->runs,
                               rd.firings[i], o->times[o->ntimes - 1]);
            } else if (rc == PNI_SIM_LIMIT) {
                continue; /* absorption: not absorbed within the limit */
            } else {
                n++;
                for (size_t k = 0; k < nv; k++) {
                    double x = rd.v[i * nv + k], dx = x - mean[k];
                    mean[k] += dx / (double)n;
                    ss[k] += dx * (x - mean[k]);
                }
            }
        }
        if (st || n < 2)
            continue;
        double tq = pni_student_quantile((1 + o->confidence) / 2,
                                         (double)(n - 1));
        for (size_t k = 0; k < nv; k++)
            est[k] = interval(mean[k], ss[k], (size_t)n, tq);
        if (within_all(est, nv / (len[0] + len[1] + len[2]), len[0], len[1],
                       len[2], o->accuracy)) {
            res->accurate = 1;
            break;
        }
    }
    res->absorbed = n;
    if (rd.rc)
        pthread_mutex_destroy(&rd.lock);
    free(mean);
    free(ss);
    free(rd.v);
    free(rd.rc);
    free(rd.firings);
    free(rd.now);
    free(rd.where);
    return st;
}

static pn_status_t absorption(const pni_sim_model_t *md,
                              const pn_gspn_sim_options_t *o,
                              pn_gspn_sim_result_t *res, pn_error_t *err)
{
    res->absorption = (pn_gspn_estimate_t){NAN, INFINITY};
    static const size_t one[3] = {1, 0, 0};
    return rounds(md, o, 1, one, res, &res->absorption, err);
}

static pn_status_t transient(const pni_sim_model_t *md,
                             const pn_gspn_sim_options_t *o,
                             pn_gspn_sim_result_t *res, pn_error_t *err)
{
    size_t per = md->nt + md->np + md->nc, nv = per * o->ntimes;
    pn_gspn_estimate_t *est = malloc((nv + 1) * sizeof *est);
    if (!est)
        return PN_ENOMEM;
    for (size_t k = 0; k < nv; k++)
        est[k] = (pn_gspn_estimate_t){NAN, INFINITY};
    size_t len[3] = {md->nt, md->np, md->nc};
    pn_status_t st = rounds(md, o, nv, len, res, est, err);
    for (size_t k = 0; k < o->ntimes; k++)
        for (size_t j = 0; j < per; j++) {
            pn_gspn_estimate_t e = est[k * per + j];
            if (j < md->nt)
                res->throughput[k * md->nt + j] = e;
            else if (j < md->nt + md->np)
                res->mean_tokens[k * md->np + j - md->nt] = e;
            else
                res->probability[k * md->nc + j - md->nt - md->np] = e;
        }
    free(est);
    return st;
}

/* ---- the entry point ----------------------------------------------------- */

void pn_gspn_sim_result_free(pn_gspn_sim_result_t *r)
{
    if (!r)
        return;
    free(r->throughput);
    free(r->mean_tokens);
    free(r->probability);
    free(r);
}

static int temporal(const pn_qformula_t *f)
{
    if (f->kind >= PN_QF_EX)
        return 1;
    for (size_t i = 0; i < f->nkids; i++)
        if (temporal(f->kids[i]))
            return 1;
    return 0;
}

static pn_status_t check_options(const pn_gspn_sim_options_t *o,
                                 pn_error_t *err)
{
    if (!(o->confidence > 0 && o->confidence < 1))
        return pni_error(err, PN_EINVAL, 0, 0,
                         "the confidence must lie between 0 and 1");
    if (!(o->accuracy > 0))
        return pni_error(err, PN_EINVAL, 0, 0,
                         "the accuracy must be above 0");
    for (size_t k = 0; k < o->ntimes; k++)
        if (!(o->times[k] > 0) || !isfinite(o->times[k]) ||
            (k && !(o->times[k] > o->times[k - 1])))
            return pni_error(err, PN_EINVAL, 0, 0,
                             "the times must be finite, above 0 and "
                             "increasing");
    for (size_t c = 0; c < o->nconditions; c++)
        if (!o->conditions[c] || temporal(o->conditions[c]))
            return pni_error(err, PN_EINVAL, 0, 0,
                             "condition %zu has a temporal operator", c + 1);
    return PN_OK;
}

pn_status_t pn_gspn_simulate(const pn_net_t *net,
                             const pn_gspn_sim_options_t *opt,
                             pn_gspn_sim_result_t **out, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (out)
        *out = NULL;
    if (!net || !opt || !out)
        return pni_error(err, PN_EINVAL, 0, 0, "net, opt or out is NULL");
    pn_gspn_sim_options_t o = *opt;
    if (o.confidence == 0)
        o.confidence = 0.95;
    if (o.accuracy == 0)
        o.accuracy = 0.05;
    if (!o.max_firings)
        o.max_firings = UINT64_C(100000000);
    if (!o.max_runs)
        o.max_runs = 100000;
    pn_status_t st = check_options(&o, err);
    if (st)
        return st;
    pn_gspn_sim_result_t *r = calloc(1, sizeof *r);
    size_t k = o.ntimes ? o.ntimes : 1;
    pni_sim_model_t md;
    st = pni_sim_model_init(&md, net, &o, err);
    if (!st && r) {
        r->places = md.np;
        r->transitions = md.nt;
        r->conditions = md.nc;
        r->times = o.ntimes;
        r->throughput = calloc(k * md.nt + 1, sizeof *r->throughput);
        r->mean_tokens = calloc(k * md.np + 1, sizeof *r->mean_tokens);
        r->probability = calloc(k * md.nc + 1, sizeof *r->probability);
    }
    if (!st && (!r || !r->throughput || !r->mean_tokens || !r->probability))
        st = pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    if (!st)
        st = o.ntimes ? transient(&md, &o, r, err) : steady(&md, &o, r, err);
    pni_sim_model_free(&md);
    if (st) {
        pn_gspn_sim_result_free(r);
        return st == PN_ENOMEM ? pni_error(err, st, 0, 0, "out of memory")
                               : st;
    }
    *out = r;
    return PN_OK;
}
