/*
 * Random walks (interleaving): from the initial marking, fire a random
 * enabled transition until none is or the walk is long enough, then start
 * again.  A marking met on the way where an EF formula holds (an AG
 * formula fails) decides it; the largest value of a bound's sum met is a
 * lower bound.  Every such find is replayed from the initial marking with
 * the engine's own firing rule (pn_sim_fire()) before it is believed.
 */
#include <config.h>
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
    uint32_t np, nt;
    const pn_query_set_t *qs;
    pn_query_answer_t *ans;
    const uint64_t *ub;
    pni_decided_fn decided;
    void *ctx;
    uint32_t *trace, *en;
    uint64_t *m, *pend;
    uint64_t *best;         /* per bound query: best value of this walk */
    size_t *best_at;        /* and the step it was met at */
    double deadline;
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
            if (w->decided)
                w->decided(i, w->ctx);
        }
        w->best_at[i] = SIZE_MAX;
    }
}

/* One walk of at most len steps; returns the open queries left. */
static size_t one_walk(walk_t *w, const pn_net_t *net, size_t len,
                       pni_rng_t *rng)
{
    for (uint32_t p = 0; p < w->np; p++)
        w->m[p] = pn_net_place(net, p)->marking;
    size_t open = look(w, 0);
    for (size_t n = 0; open && n < len; n++) {
        if ((n & 255) == 255 && pni_clock() > w->deadline)
            break;
        uint32_t ne = 0;
        for (uint32_t t = 0; t < w->nt; t++)
            if (pni_engine_enabled(w->e, w->m, t))
                w->en[ne++] = t;
        if (!ne)
            break;
        uint32_t t = w->en[pni_rng_below(rng, ne)];
        pni_engine_take(w->e, w->m, w->pend, t);
        if (pni_engine_give(w->e, w->m, t))
            break;
        if (pni_engine_has_capacity(w->e))
            memset(w->pend, 0, w->np * sizeof *w->pend);
        w->trace[n] = t;
        open = look(w, n + 1);
    }
    settle_bounds(w);
    return open;
}

#define WALK_MAX 100000

pn_status_t pni_walk(const pn_net_t *net, const pn_query_set_t *qs,
                     pn_query_answer_t *ans, const uint64_t *ub,
                     double deadline, uint64_t seed, pni_decided_fn decided,
                     void *ctx)
{
    walk_t w = {0};
    pn_engine_t *e = NULL;
    pn_status_t st = pn_engine_compile(net, &e);
    if (st)
        return st;
    w.e = e;
    w.np = (uint32_t)pn_net_place_count(net);
    w.nt = (uint32_t)pn_net_transition_count(net);
    w.qs = qs;
    w.ans = ans;
    w.ub = ub;
    w.decided = decided;
    w.ctx = ctx;
    w.deadline = deadline;
    w.trace = malloc((WALK_MAX + 1) * sizeof *w.trace);
    w.en = malloc((w.nt + 1) * sizeof *w.en);
    w.m = calloc(w.np + 1, sizeof *w.m);
    w.pend = calloc(w.np + 1, sizeof *w.pend);
    w.best = calloc(qs->n + 1, sizeof *w.best);
    w.best_at = malloc((qs->n + 1) * sizeof *w.best_at);
    if (!w.trace || !w.en || !w.m || !w.pend || !w.best || !w.best_at)
        st = PN_ENOMEM;
    for (size_t i = 0; !st && i < qs->n; i++)
        w.best_at[i] = SIZE_MAX;
    pni_rng_t rng;
    pni_rng_seed(&rng, seed);
    /* walks of growing lengths, from 100 to WALK_MAX steps, again and
     * again: short ones find what lies near, long ones what lies deep */
    for (unsigned k = 0; !st && pni_clock() < deadline; k++) {
        size_t len = (size_t)100 << (k % 10);
        if (!one_walk(&w, net, len < WALK_MAX ? len : WALK_MAX, &rng))
            break;
    }
    free(w.trace);
    free(w.en);
    free(w.m);
    free(w.pend);
    free(w.best);
    free(w.best_at);
    pn_engine_free(e);
    return st;
}
