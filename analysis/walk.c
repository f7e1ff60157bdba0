/*
 * Walks (interleaving): from the initial marking, fire an enabled
 * transition until none is or the walk is long enough, then start again.
 * A marking met on the way where an EF formula holds (an AG formula
 * fails) decides it; the largest value of a bound's sum met is a lower
 * bound.  Every such find is replayed from the initial marking with the
 * engine's own firing rule (pn_sim_fire()) before it is believed.
 *
 * Three kinds of walk take turns.  Random ones choose uniformly.  Guided
 * ones aim at one open query: at each step the successor nearest to
 * satisfying it, by a distance over its atoms (an atom a >= b is
 * max(0, b - a) away, a conjunction the sum of its parts, a disjunction
 * the nearest, "t enabled" the tokens t's inputs lack), as verifypn's
 * best-first search ranks markings by its distance to the query
 * (TAPAAL's verifypn, PetriEngine/PQL, DistanceContext) and a bound's sum
 * the larger the better; ties and a small share of steps at random, so
 * that a walk does not repeat itself.  Parikh walks fire first the
 * transitions a solution of the state equation that satisfies the query
 * fires, each as often as it says (lp.c, pni_lp_parikh()), as ITS-tools'
 * walks guided by a Parikh vector do (RandomExplorer,
 * runGuidedReachabilityDetection).  The guides choose where to go only:
 * every answer is still a replayed marking.
 */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis_private.h"

double pni_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A sum's value, exact: counts are below 2^63 and a net has fewer than
 * 2^32 places, so 128 bits cannot overflow. */
static unsigned __int128 sum_at(const pn_qsum_t *s, const uint64_t *m)
{
    unsigned __int128 v = s->constant;
    for (size_t i = 0; i < s->nplaces; i++)
        v += m[s->places[i]];
    return v;
}

int pni_formula_holds(const pn_engine_t *e, uint32_t nt,
                      const pn_qformula_t *f, const uint64_t *m)
{
    switch (f->kind) {
    case PN_QF_TRUE: return 1;
    case PN_QF_FALSE: return 0;
    case PN_QF_DEADLOCK:
        for (uint32_t t = 0; t < nt; t++)
            if (pni_engine_enabled(e, m, t))
                return 0;
        return 1;
    case PN_QF_FIREABLE:
        for (size_t i = 0; i < f->nitems; i++)
            if (f->items[i] < nt &&
                pni_engine_enabled(e, m, (uint32_t)f->items[i]))
                return 1;
        return 0;
    case PN_QF_CMP: {
        unsigned __int128 a = sum_at(&f->lhs, m), b = sum_at(&f->rhs, m);
        switch (f->op) {
        case PN_QCMP_LT: return a < b;
        case PN_QCMP_LE: return a <= b;
        case PN_QCMP_EQ: return a == b;
        case PN_QCMP_NE: return a != b;
        case PN_QCMP_GE: return a >= b;
        default: return a > b;
        }
    }
    case PN_QF_NOT: return !pni_formula_holds(e, nt, f->kids[0], m);
    case PN_QF_AND:
        for (size_t i = 0; i < f->nkids; i++)
            if (!pni_formula_holds(e, nt, f->kids[i], m))
                return 0;
        return 1;
    default:
        for (size_t i = 0; i < f->nkids; i++)
            if (pni_formula_holds(e, nt, f->kids[i], m))
                return 1;
        return 0;
    }
}

uint64_t pni_query_value(const pn_qsum_t *s, const uint64_t *m)
{
    return pni_saturated(sum_at(s, m));
}

/* The marking after firing trace[0..n) from the initial marking, one
 * transition a step, by pn_sim_fire() (which checks each is enabled):
 * the sim, or NULL when the trace does not replay. */
static pn_sim_t *replay(const pn_engine_t *e, const uint32_t *trace,
                        size_t n)
{
    pn_sim_t *s = pn_sim_new(e, 1, PN_SEM_INTERLEAVING, 0);
    for (size_t i = 0; s && i < n; i++)
        if (pn_sim_fire(s, &trace[i], 1, NULL) != PN_OK) {
            pn_sim_free(s);
            return NULL;
        }
    return s;
}

typedef struct {
    const pn_engine_t *e;
    const pn_net_t *net;
    uint32_t np, nt;
    const pn_query_set_t *qs;
    pn_query_answer_t *ans;
    const uint64_t *ub;
    pni_decided_fn decided;
    void *ctx;
    pni_walk_options_t *wo;
    uint32_t *trace, *en;
    uint64_t *m, *pend;
    uint64_t *best;         /* per bound query: best value of this walk */
    size_t *best_at;        /* and the step it was met at */
    double deadline;
    int out_of_steps;
    /* the guides: the distances to a formula, and the places each
     * transition's firing may change (touch_off), to undo a firing */
    pni_dist_t dist;
    size_t *touch_off;
    uint32_t *touch;
    uint64_t *saved, *rem;
    uint32_t *plan, nplan;  /* the transitions a Parikh walk counts on */
    double *score;
    pni_lp_t *lp;
    uint64_t **parikh;      /* per query: its firing counts, or NULL */
    uint64_t *parikh_at;    /* the bound they aim past (UINT64_MAX: not
                               tried yet) */
} walk_t;

/* The EF and AG queries that marking m (after trace[0..n)) decides,
 * replayed before they are taken.  Returns how many are left open. */
static size_t look(walk_t *w, size_t n)
{
    size_t open = 0;
    for (size_t i = 0; i < w->qs->n; i++) {
        const pn_query_t *q = &w->qs->q[i];
        pn_query_answer_t *a = &w->ans[i];
        /* a CTL formula is a question about paths: not for a walk */
        if (a->known || q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL)
            continue;
        if (q->kind == PN_QUERY_BOUND) {
            uint64_t v = pni_query_value(&q->bound, w->m);
            if (v > w->best[i] || w->best_at[i] == SIZE_MAX) {
                w->best[i] = v;
                w->best_at[i] = n;
            }
            open++;
            continue;
        }
        int ef = q->kind == PN_QUERY_EF;
        if (pni_formula_holds(w->e, w->nt, q->formula, w->m) != ef) {
            open++;
            continue;
        }
        pn_sim_t *s = replay(w->e, w->trace, n);
        if (s && pni_formula_holds(w->e, w->nt, q->formula,
                                   pn_sim_marking(s)) == ef) {
            a->known = 1;
            a->value = ef;
            a->state = PN_REACH_NO_STATE;
            if (w->wo->on_witness)
                w->wo->on_witness(i, w->trace, n, w->wo->ctx);
            if (w->decided)
                w->decided(i, w->ctx);
        } else {
            open++;
        }
        pn_sim_free(s);
    }
    return open;
}

/* The walk's best value of each bound query, replayed: a lower bound,
 * exact when it meets the upper bound ub[i]. */
static void settle_bounds(walk_t *w)
{
    for (size_t i = 0; i < w->qs->n; i++) {
        const pn_query_t *q = &w->qs->q[i];
        pn_query_answer_t *a = &w->ans[i];
        if (q->kind != PN_QUERY_BOUND || a->known ||
            w->best_at[i] == SIZE_MAX)
            continue;
        if (w->best[i] > a->bound || (a->state == PN_REACH_NO_STATE &&
                                      a->bound == 0)) {
            pn_sim_t *s = replay(w->e, w->trace, w->best_at[i]);
            if (s) {
                uint64_t v = pni_query_value(&q->bound, pn_sim_marking(s));
                if (v > a->bound)
                    a->bound = v;
                pn_sim_free(s);
            }
        }
        if (w->ub && w->ub[i] != UINT64_MAX && a->bound >= w->ub[i]) {
            a->known = 1;
            if (w->wo->on_witness)
                w->wo->on_witness(i, w->trace, w->best_at[i], w->wo->ctx);
            if (w->decided)
                w->decided(i, w->ctx);
        }
        w->best_at[i] = SIZE_MAX;
    }
}

/* The walk back at the initial marking; the queries left open. */
static size_t restart(walk_t *w)
{
    for (uint32_t p = 0; p < w->np; p++)
        w->m[p] = pn_net_place(w->net, p)->marking;
    return look(w, 0);
}

/* The enabled transitions, into w->en; their number. */
static uint32_t enabled(walk_t *w)
{
    uint32_t ne = 0;
    for (uint32_t t = 0; t < w->nt; t++)
        if (pni_engine_enabled(w->e, w->m, t))
            w->en[ne++] = t;
    return ne;
}

/* Fires t at step n, enabled; 0, or 1 when a count would overflow. */
static int fire(walk_t *w, uint32_t t, size_t n)
{
    pni_engine_take(w->e, w->m, w->pend, t);
    if (pni_engine_give(w->e, w->m, t))
        return 1;
    if (pni_engine_has_capacity(w->e))
        memset(w->pend, 0, w->np * sizeof *w->pend);
    w->trace[n] = t;
    w->wo->steps++;
    return 0;
}

/* Whether the walks may go on: time and steps left. */
static int may_go_on(walk_t *w, size_t n)
{
    if (w->wo->max_steps && w->wo->steps >= w->wo->max_steps)
        w->out_of_steps = 1;
    return !w->out_of_steps &&
           ((n & 255) != 255 || pni_clock() <= w->deadline);
}

/* One random walk of at most len steps; returns the open queries left. */
static size_t one_walk(walk_t *w, size_t len, pni_rng_t *rng)
{
    size_t open = restart(w);
    for (size_t n = 0; open && n < len && may_go_on(w, n); n++) {
        uint32_t ne = enabled(w);
        if (!ne || fire(w, w->en[pni_rng_below(rng, ne)], n))
            break;
        open = look(w, n + 1);
    }
    settle_bounds(w);
    return open;
}

/* ---- distances to a formula (the guided walks, LTL's heuristic) -------- */

pn_status_t pni_dist_init(pni_dist_t *d, const pn_net_t *net,
                          const pn_engine_t *e)
{
    size_t na = pn_net_arc_count(net);
    d->e = e;
    d->nt = (uint32_t)pn_net_transition_count(net);
    d->in_off = calloc(d->nt + 2, sizeof *d->in_off);
    d->in = malloc((na + 1) * sizeof *d->in);
    if (!d->in_off || !d->in) {
        pni_dist_free(d);
        return PN_ENOMEM;
    }
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir == PN_DIR_PT && arc->kind != PN_ARC_RESET)
            d->in_off[arc->transition + 2]++;
    }
    for (uint32_t t = 0; t < d->nt; t++)
        d->in_off[t + 2] += d->in_off[t + 1];
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir == PN_DIR_PT && arc->kind != PN_ARC_RESET)
            d->in[d->in_off[arc->transition + 1]++] = (pni_darc_t){
                (uint32_t)arc->place, arc->kind == PN_ARC_INHIBITOR,
                arc->weight};
    }
    return PN_OK;
}

void pni_dist_free(pni_dist_t *d)
{
    free(d->in_off);
    free(d->in);
    d->in_off = NULL;
    d->in = NULL;
}

double pni_enable_distance(const pni_dist_t *d, size_t t, int dis,
                           const uint64_t *m)
{
    double n = 0, least = INFINITY;
    for (size_t k = d->in_off[t]; k < d->in_off[t + 1]; k++) {
        double have = (double)m[d->in[k].p], need = (double)d->in[k].w;
        if (d->in[k].inh) { /* enabled while have < need */
            n += have >= need ? have - need + 1 : 0;
            least = fmin(least, have < need ? need - have : 0);
        } else {
            n += have < need ? need - have : 0;
            least = fmin(least, have >= need ? have - need + 1 : 0);
        }
    }
    return dis ? (n > 0 ? 0 : least) : n;
}

double pni_distance(const pni_dist_t *dd, const pn_qformula_t *f, int neg,
                    const uint64_t *m)
{
    double d;
    switch (f->kind) {
    case PN_QF_TRUE:
    case PN_QF_FALSE:
        return (f->kind == PN_QF_TRUE) != neg ? 0 : INFINITY;
    case PN_QF_NOT:
        return pni_distance(dd, f->kids[0], !neg, m);
    case PN_QF_DEADLOCK: {
        /* the transitions left to disable (on large nets only whether
         * some is: the count would cost a pass over them at each step) */
        double en = 0;
        for (uint32_t t = 0; t < dd->nt && (en == 0 || dd->nt <= 1024); t++)
            en += pni_engine_enabled(dd->e, m, t);
        return neg ? en == 0 : en;
    }
    case PN_QF_FIREABLE:
        d = neg ? 0 : INFINITY;
        for (size_t i = 0; i < f->nitems; i++) {
            double e = pni_enable_distance(dd, f->items[i], neg, m);
            d = neg ? d + e : fmin(d, e);
        }
        return d;
    case PN_QF_CMP: {
        double a = (double)sum_at(&f->lhs, m);
        double b = (double)sum_at(&f->rhs, m);
        static const pn_qcmp_t flip[] = {PN_QCMP_GE, PN_QCMP_GT, PN_QCMP_NE,
                                         PN_QCMP_EQ, PN_QCMP_LT, PN_QCMP_LE};
        switch (neg ? flip[f->op] : f->op) {
        case PN_QCMP_LT: return a < b ? 0 : a - b + 1;
        case PN_QCMP_LE: return a <= b ? 0 : a - b;
        case PN_QCMP_EQ: return fabs(a - b);
        case PN_QCMP_NE: return a != b ? 0 : 1;
        case PN_QCMP_GE: return a >= b ? 0 : b - a;
        default: return a > b ? 0 : b - a + 1;
        }
    }
    default: {
        /* a conjunction sums, a disjunction takes the nearest */
        int sum = (f->kind == PN_QF_AND) != neg;
        d = sum ? 0 : INFINITY;
        for (size_t i = 0; i < f->nkids; i++) {
            double e = pni_distance(dd, f->kids[i], neg, m);
            d = sum ? d + e : fmin(d, e);
        }
        return d;
    }
    }
}

/* ---- the guides ---------------------------------------------------------- */

/* The distances, and the places each transition's firing may change. */
static int guide_init(walk_t *w)
{
    size_t na = pn_net_arc_count(w->net);
    w->touch_off = calloc(w->nt + 2, sizeof *w->touch_off);
    w->touch = malloc((na + 1) * sizeof *w->touch);
    w->saved = malloc((na + 1) * sizeof *w->saved);
    w->rem = calloc(w->nt + 1, sizeof *w->rem);
    w->plan = malloc((w->nt + 1) * sizeof *w->plan);
    w->score = malloc((w->nt + 1) * sizeof *w->score);
    w->parikh = calloc(w->qs->n + 1, sizeof *w->parikh);
    w->parikh_at = malloc((w->qs->n + 1) * sizeof *w->parikh_at);
    if (pni_dist_init(&w->dist, w->net, w->e) || !w->touch_off ||
        !w->touch || !w->saved || !w->rem || !w->plan || !w->score ||
        !w->parikh || !w->parikh_at)
        return -1;
    for (size_t i = 0; i < w->qs->n; i++)
        w->parikh_at[i] = UINT64_MAX;
    for (size_t a = 0; a < na; a++)
        w->touch_off[pn_net_arc(w->net, a)->transition + 2]++;
    for (uint32_t t = 0; t < w->nt; t++)
        w->touch_off[t + 2] += w->touch_off[t + 1];
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(w->net, a);
        w->touch[w->touch_off[arc->transition + 1]++] = (uint32_t)arc->place;
    }
    return 0;
}

static void guide_free(walk_t *w)
{
    pni_dist_free(&w->dist);
    free(w->touch_off);
    free(w->touch);
    free(w->saved);
    free(w->rem);
    free(w->plan);
    free(w->score);
    for (size_t i = 0; w->parikh && i < w->qs->n; i++)
        free(w->parikh[i]);
    free(w->parikh);
    free(w->parikh_at);
    pni_lp_free(w->lp);
}

/* How far m is from deciding query i (a bound: the larger its sum, the
 * nearer). */
static double query_distance(const walk_t *w, size_t i)
{
    const pn_query_t *q = &w->qs->q[i];
    if (q->kind == PN_QUERY_BOUND)
        return -(double)sum_at(&q->bound, w->m);
    return pni_distance(&w->dist, q->formula, q->kind == PN_QUERY_AG, w->m);
}

/* How far m is from enabling one of the transitions a Parikh walk still
 * counts on. */
static double plan_distance(const walk_t *w)
{
    double d = INFINITY;
    for (uint32_t k = 0; k < w->nplan && d > 0; k++)
        if (w->rem[w->plan[k]])
            d = fmin(d, pni_enable_distance(&w->dist, w->plan[k], 0, w->m));
    return d;
}

/* query_distance() (plan: plan_distance()) after firing t (enabled) at m,
 * m left as it was; INFINITY when a count would overflow. */
static double distance_after(walk_t *w, uint32_t t, size_t i, int plan)
{
    size_t a = w->touch_off[t], b = w->touch_off[t + 1];
    for (size_t k = a; k < b; k++)
        w->saved[k - a] = w->m[w->touch[k]];
    pni_engine_take(w->e, w->m, w->pend, t);
    double d = pni_engine_give(w->e, w->m, t) ? INFINITY
               : plan                         ? plan_distance(w)
                                              : query_distance(w, i);
    for (size_t k = b; k-- > a;) {
        w->m[w->touch[k]] = w->saved[k - a];
        w->pend[w->touch[k]] = 0;
    }
    return d;
}

/* The firing counts that guide the Parikh walks to query i (a bound: past
 * its best value yet), worked out once (a bound: once per value); NULL
 * when the state equation gave none. */
static const uint64_t *parikh_of(walk_t *w, size_t i)
{
    const pn_query_t *q = &w->qs->q[i];
    uint64_t level = q->kind == PN_QUERY_BOUND ? w->ans[i].bound : 0;
    if (w->parikh_at[i] == level || level == UINT64_MAX)
        return w->parikh[i];
    w->parikh_at[i] = level;
    if (!w->lp && !(w->lp = pni_lp_new(w->net)))
        return NULL;
    if (!w->parikh[i] &&
        !(w->parikh[i] = malloc((w->nt + 1) * sizeof *w->parikh[i])))
        return NULL;
    /* a share of the time left, for each query that may ask */
    size_t asking = 0;
    for (size_t k = 0; k < w->qs->n; k++)
        asking += !w->ans[k].known && w->qs->q[k].kind != PN_QUERY_CTL &&
                  w->qs->q[k].kind != PN_QUERY_LTL;
    double seconds = fmin(1.0, (w->deadline - pni_clock()) /
                                   (8.0 * (double)(asking ? asking : 1)));
    pn_qformula_t above = {.kind = PN_QF_CMP, .op = PN_QCMP_GE};
    above.lhs = q->bound;
    above.rhs.constant = level + 1;
    int found = seconds > 0 &&
                (q->kind == PN_QUERY_BOUND
                     ? pni_lp_parikh(w->lp, &above, 0, seconds, w->parikh[i])
                     : pni_lp_parikh(w->lp, q->formula,
                                     q->kind == PN_QUERY_AG, seconds,
                                     w->parikh[i]));
    if (!found) {
        free(w->parikh[i]);
        w->parikh[i] = NULL;
    }
    return w->parikh[i];
}

/* Of the enabled transitions en[0..ne), the one to fire on a walk guided
 * to query i: one of those nearest to it (with rem, of those it still
 * counts on when any; when none is enabled, one of those that bring one
 * nearest to enabled: the tokens a solution of the state equation
 * borrows), one in per_mille at random. */
static uint32_t choose(walk_t *w, uint32_t ne, size_t i, const uint64_t *rem,
                       unsigned per_mille, pni_rng_t *rng)
{
    if (pni_rng_below(rng, 1000) < per_mille)
        return w->en[pni_rng_below(rng, ne)];
    uint32_t nc = 0;
    for (uint32_t k = 0; rem && k < ne; k++)
        if (rem[w->en[k]]) {
            uint32_t t = w->en[nc];
            w->en[nc++] = w->en[k];
            w->en[k] = t;
        }
    int plan = rem && !nc && w->nplan;
    if (!nc)
        nc = ne;
    double least = INFINITY;
    uint32_t ties = 0;
    for (uint32_t k = 0; k < nc; k++) {
        w->score[k] = distance_after(w, w->en[k], i, plan);
        if (w->score[k] < least) {
            least = w->score[k];
            ties = 0;
        }
        ties += w->score[k] == least;
    }
    if (least == INFINITY)
        return w->en[pni_rng_below(rng, nc)];
    uint64_t r = pni_rng_below(rng, ties);
    for (uint32_t k = 0;; k++)
        if (w->score[k] == least && !r--)
            return w->en[k];
}

/* One walk of at most len steps guided to query i, by the distance alone
 * or (parikh) by the state equation's firing counts first; the open
 * queries left. */
static size_t guided_walk(walk_t *w, size_t len, pni_rng_t *rng, size_t i,
                          int parikh, unsigned per_mille)
{
    const uint64_t *x = parikh ? parikh_of(w, i) : NULL;
    w->nplan = 0;
    for (uint32_t t = 0; x && t < w->nt; t++)
        if ((w->rem[t] = x[t]))
            w->plan[w->nplan++] = t;
    size_t open = restart(w);
    for (size_t n = 0; open && !w->ans[i].known && n < len &&
                       may_go_on(w, n); n++) {
        uint32_t ne = enabled(w);
        if (!ne)
            break;
        uint32_t t = choose(w, ne, i, x ? w->rem : NULL, per_mille, rng);
        if (fire(w, t, n))
            break;
        if (x && w->rem[t])
            w->rem[t]--;
        open = look(w, n + 1);
    }
    settle_bounds(w);
    return open;
}

/* The next open query a walk can aim at from i on (qs->n: none). */
static size_t next_target(const walk_t *w, size_t i)
{
    for (size_t k = 0; k < w->qs->n; k++) {
        size_t j = (i + k) % w->qs->n;
        const pn_query_t *q = &w->qs->q[j];
        if (!w->ans[j].known && q->kind != PN_QUERY_CTL &&
            q->kind != PN_QUERY_LTL)
            return j;
    }
    return w->qs->n;
}

#define WALK_MAX 100000

/* Walks of each kind in turn, of growing lengths, from 100 to WALK_MAX
 * steps, again and again: short ones find what lies near, long ones what
 * lies deep; the guided ones aim at each open query in turn, at first
 * greedily, then with more and more steps at random. */
static void walks(walk_t *w, unsigned kinds, pni_rng_t *rng)
{
    static const unsigned per_mille[] = {0, 20, 100};
    unsigned list[3], nk = 0;
    for (unsigned b = 0; b < 3; b++)
        if (kinds & (1u << b))
            list[nk++] = 1u << b;
    size_t target = 0;
    for (unsigned k = 0; nk && pni_clock() < w->deadline; k++) {
        unsigned round = k / nk;
        size_t len = (size_t)100 << (round % 10), open;
        if (len > WALK_MAX)
            len = WALK_MAX;
        if (list[k % nk] == PNI_WALK_RANDOM) {
            open = one_walk(w, len, rng);
        } else {
            target = next_target(w, target);
            if (target == w->qs->n)
                break;
            open = guided_walk(w, len, rng, target,
                               list[k % nk] == PNI_WALK_PARIKH,
                               per_mille[round % 3]);
            target++;
        }
        if (!open || w->out_of_steps)
            break;
    }
}

pn_status_t pni_walk_with(const pn_net_t *net, const pn_query_set_t *qs,
                          pn_query_answer_t *ans, const uint64_t *ub,
                          pni_walk_options_t *wo, pni_decided_fn decided,
                          void *ctx)
{
    walk_t w = {0};
    pn_engine_t *e = NULL;
    pn_status_t st = pn_engine_compile(net, &e);
    if (st)
        return st;
    unsigned kinds = wo->kinds ? wo->kinds
                               : PNI_WALK_RANDOM | PNI_WALK_DISTANCE |
                                     PNI_WALK_PARIKH;
    w.e = e;
    w.net = net;
    w.np = (uint32_t)pn_net_place_count(net);
    w.nt = (uint32_t)pn_net_transition_count(net);
    w.qs = qs;
    w.ans = ans;
    w.ub = ub;
    w.decided = decided;
    w.ctx = ctx;
    w.wo = wo;
    w.deadline = wo->deadline;
    w.trace = malloc((WALK_MAX + 1) * sizeof *w.trace);
    w.en = malloc((w.nt + 1) * sizeof *w.en);
    w.m = calloc(w.np + 1, sizeof *w.m);
    w.pend = calloc(w.np + 1, sizeof *w.pend);
    w.best = calloc(qs->n + 1, sizeof *w.best);
    w.best_at = malloc((qs->n + 1) * sizeof *w.best_at);
    if (!w.trace || !w.en || !w.m || !w.pend || !w.best || !w.best_at ||
        ((kinds & ~PNI_WALK_RANDOM) && guide_init(&w)))
        st = PN_ENOMEM;
    for (size_t i = 0; !st && i < qs->n; i++)
        w.best_at[i] = SIZE_MAX;
    pni_rng_t rng;
    pni_rng_seed(&rng, wo->seed);
    if (!st)
        walks(&w, kinds, &rng);
    free(w.trace);
    free(w.en);
    free(w.m);
    free(w.pend);
    free(w.best);
    free(w.best_at);
    guide_free(&w);
    pn_engine_free(e);
    return st;
}

pn_status_t pni_walk(const pn_net_t *net, const pn_query_set_t *qs,
                     pn_query_answer_t *ans, const uint64_t *ub,
                     double deadline, uint64_t seed, pni_decided_fn decided,
                     void *ctx)
{
    pni_walk_options_t wo = {0};
    wo.deadline = deadline;
    wo.seed = seed;
    return pni_walk_with(net, qs, ans, ub, &wo, decided, ctx);
}
