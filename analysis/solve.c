/*
 * Answers on a budget: the state equation first (lp.c), random walks
 * next (walk.c), a search per query on the net reduced for it
 * (reduce.c), the search last, on one clock; each answer handed to the
 * caller the moment it is decided, so that a run stopped from outside
 * keeps what it found.
 */
#include <config.h>
#include <stdlib.h>
#include "analysis_private.h"

/* the share of the time limit CTL on the fly may take, from the start
 * (the search and the fixed points over its graph get the rest) */
#define LOCAL_SHARE 0.6
/* with no clock, the most markings it stores (the rest is left to the
 * search, whose fixed points are faster over a large graph; on the clock
 * it answers more with no cap than with this one) */
#define LOCAL_MAX_STATES (UINT64_C(1) << 17)

typedef struct {
    const pn_query_set_t *qs;
    pn_query_answer_t *a;
    unsigned *tech;
    uint64_t *ub;          /* per query: the state equation's upper bound
                              (UINT64_MAX: none) */
    size_t open;
    double deadline;       /* 0: none */
    uint32_t calls;
    const pn_reach_solve_options_t *so;
    pn_reach_path_t **lasso; /* per LTL query found false: its lasso; per
                                CTL query decided on the fly: its path */
    size_t *loop;
} solve_t;

static void tell(solve_t *c, size_t i)
{
    c->open--;
    if (c->so->on_answer)
        c->so->on_answer(i, &c->a[i], c->tech[i], c->so->ctx);
}

static void walk_decided(size_t i, void *ctx)
{
    solve_t *c = ctx;
    c->tech[i] |= PN_TECH_RANDOM_WALK;
    tell(c, i);
}

/* The search's hook: the queries at each new marking, and the clock. */
static int on_state(pn_reach_t *r, uint32_t state, const uint64_t *m,
                    void *ctx)
{
    solve_t *c = ctx;
    for (size_t i = 0; i < c->qs->n && c->open; i++) {
        const pn_query_t *q = &c->qs->q[i];
        pn_query_answer_t *a = &c->a[i];
        /* CTL, LTL: over the whole graph, once the search is complete */
        if (a->known || q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL)
            continue;
        if (q->kind == PN_QUERY_BOUND) {
            uint64_t v = pni_query_value(&q->bound, m);
            if (v > a->bound || (a->state == PN_REACH_NO_STATE &&
                                 v == a->bound)) {
                a->bound = v;
                a->state = state;
            }
            if (v >= c->ub[i]) {
                a->known = 1;
                c->tech[i] |= pni_search_tech(r);
                tell(c, i);
            }
        } else if (pni_formula_holds(r->engine, r->nt, q->formula, m) ==
                   (q->kind == PN_QUERY_EF)) {
            a->known = 1;
            a->value = q->kind == PN_QUERY_EF;
            a->state = state;
            c->tech[i] |= pni_search_tech(r);
            tell(c, i);
        }
    }
    if (c->deadline > 0 && (c->calls++ & 255) == 0 &&
        pni_clock() > c->deadline) {
        r->limits.timed_out = 1;
        return 1;
    }
    return c->qs->n && !c->open;
}

/* The state equation on each query, within budget seconds in all. */
static void by_equation(const pn_net_t *net, solve_t *c, double budget)
{
    pni_lp_t *lp = pni_lp_new(net);
    if (!lp)
        return;
    double end = pni_clock() + budget;
    for (size_t i = 0; i < c->qs->n; i++) {
        double left = (end - pni_clock()) / (double)(c->qs->n - i);
        if (left <= 0)
            break;
        const pn_query_t *q = &c->qs->q[i];
        pn_query_answer_t *a = &c->a[i];
        if (q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL)
            continue; /* a question about paths, not markings */
        if (q->kind == PN_QUERY_BOUND) {
            uint64_t ub;
            if (pni_lp_bound(lp, &q->bound, left, &ub)) {
                c->ub[i] = ub;
                c->tech[i] |= PN_TECH_STATE_EQUATION;
            }
            continue;
        }
        /* EF f is false when f cannot be met; AG f true when !f cannot */
        int v = pni_lp_impossible(lp, q->formula, q->kind == PN_QUERY_AG,
                                  left);
        if (v) {
            a->known = 1;
            a->value = q->kind == PN_QUERY_AG;
            c->tech[i] |= pni_lp_tech(v);
            tell(c, i);
        }
    }
    pni_lp_free(lp);
}

/* The open formulas simplified (simplify.c) until end: those that
 * become constants are answered, and every method after this one sees
 * the others simplified (c->qs: *sq from then on).  Out of memory: the
 * formulas as given. */
static void by_simplifying(const pn_net_t *net, solve_t *c, double end,
                           pn_query_set_t **sq)
{
    unsigned *tech = calloc(c->qs->n + 1, sizeof *tech);
    if (!tech || pni_simplify(net, c->qs, c->a, !c->so->no_lp, end, tech,
                              sq)) {
        free(tech);
        return;
    }
    c->qs = *sq;
    for (size_t i = 0; i < c->qs->n; i++) {
        pn_query_answer_t *a = &c->a[i];
        if (a->known)
            continue;
        c->tech[i] |= tech[i];
        if (pni_simplified_value(&c->qs->q[i], &a->value)) {
            a->known = 1;
            c->tech[i] |= PN_TECH_QUERY_REDUCTION;
            a->state = PN_REACH_NO_STATE;
            tell(c, i);
        }
    }
    free(tech);
}

/* ---- searches on reduced nets ------------------------------------------- */

typedef struct {
    const pn_query_t *q;  /* on the reduced net */
    pn_query_answer_t a;  /* what its search found */
    uint64_t ub;
    double deadline;
    uint32_t calls;
} rsearch_t;

static int on_reduced(pn_reach_t *r, uint32_t state, const uint64_t *m,
                      void *ctx)
{
    rsearch_t *s = ctx;
    const pn_query_t *q = s->q;
    if (q->kind == PN_QUERY_BOUND) {
        uint64_t v = pni_query_value(&q->bound, m);
        if (v > s->a.bound || s->a.state == PN_REACH_NO_STATE) {
            s->a.bound = v;
            s->a.state = state;
        }
        if (v >= s->ub)
            return s->a.known = 1;
    } else if (pni_formula_holds(r->engine, r->nt, q->formula, m) ==
               (q->kind == PN_QUERY_EF)) {
        s->a.value = q->kind == PN_QUERY_EF;
        s->a.state = state;
        return s->a.known = 1;
    }
    if ((s->calls++ & 255) == 0 && pni_clock() > s->deadline) {
        r->limits.timed_out = 1;
        return 1;
    }
    return 0;
}

/* What the search on the reduced net decided, its witness replayed on
 * the net itself (e) first: a marking where the formula holds (EF) or
 * fails (AG), or that reaches the bound.  1 when it is an answer. */
static int believe(const pn_engine_t *e, uint32_t nt, const pn_query_t *q,
                   const pni_reduced_t *d, pn_reach_t *rr, rsearch_t *s,
                   uint64_t *m)
{
    int complete = rr->found.end == PN_REACH_COMPLETE;
    if (!s->a.known && !complete)
        return 0;
    if (!s->a.known && q->kind != PN_QUERY_BOUND) {
        s->a.value = q->kind == PN_QUERY_AG; /* no marking decided it */
        return 1;
    }
    if (s->a.state == PN_REACH_NO_STATE ||
        pni_reduced_replay(d, e, rr, s->a.state, m))
        return 0;
    if (q->kind == PN_QUERY_BOUND)
        return pni_query_value(&q->bound, m) >= s->a.bound;
    return pni_formula_holds(e, nt, q->formula, m) ==
           (q->kind == PN_QUERY_EF);
}

/* The state equation of the net reduced for query i (d), within the
 * seconds given: it has fewer rows and columns than the net's, and is
 * stronger where transitions were agglomerated or found dead (the
 * reduced net reaches the net's markings, on the places the query looks
 * at, and those only).  A bound's upper bound tightened; 1 when it
 * decided the query. */
static int reduced_equation(const pni_reduced_t *d, solve_t *c, size_t i,
                            double seconds)
{
    const pn_query_t *q = &d->qs->q[0];
    pn_query_answer_t *a = &c->a[i];
    if (!pni_lp_sound(d->net) || c->so->no_lp)
        return 0;
    pni_lp_t *lp = pni_lp_new(d->net);
    if (!lp)
        return 0;
    uint64_t ub;
    int v;
    if (q->kind == PN_QUERY_BOUND) {
        if (pni_lp_bound(lp, &q->bound, seconds, &ub) && ub < c->ub[i]) {
            c->ub[i] = ub;
            c->tech[i] |= PN_TECH_STATE_EQUATION |
                          PN_TECH_STRUCTURAL_REDUCTION;
            /* the walks' lower bound, replayed, may meet it */
            a->known = a->bound >= ub;
        }
    } else if ((v = pni_lp_impossible(lp, q->formula,
                                      q->kind == PN_QUERY_AG, seconds))) {
        a->known = 1;
        a->value = q->kind == PN_QUERY_AG;
        a->state = PN_REACH_NO_STATE;
        c->tech[i] |= pni_lp_tech(v) | PN_TECH_STRUCTURAL_REDUCTION;
    }
    pni_lp_free(lp);
    if (a->known)
        tell(c, i);
    return a->known;
}

/* Query i on the net reduced for it, within the seconds given, when the
 * reduction took something away: its state equation first, then its
 * search. */
static pn_status_t reduced_one(const pn_net_t *net, const pn_engine_t *e,
                               const pn_reach_options_t *o, solve_t *c,
                               size_t i, double seconds, uint64_t *m,
                               unsigned char *tried)
{
    const pn_query_t *q = &c->qs->q[i];
    double end = pni_clock() + seconds;
    pni_reduced_t *d;
    pn_status_t st = pni_reduce_tried(net, q, pni_clock() + seconds / 4,
                                      tried, &d);
    if (st)
        return st;
    if (pn_net_place_count(d->net) == pn_net_place_count(net) &&
        pn_net_transition_count(d->net) == pn_net_transition_count(net)) {
        pni_reduced_free(d);
        return PN_OK;
    }
    if (reduced_equation(d, c, i, seconds / 4)) {
        pni_reduced_free(d);
        return PN_OK;
    }
    rsearch_t s = {&d->qs->q[0], {0, 0, 0, PN_REACH_NO_STATE}, c->ub[i],
                   end, 0};
    pn_reach_options_t oc = *o;
    oc.graph = 0;
    oc.no_paths = 0;
    oc.progress = NULL;
    pn_reach_t *rr = NULL;
    st = pni_search(d->net, &oc, on_reduced, &s, &rr);
    if (!st && believe(e, (uint32_t)pn_net_transition_count(net), q, d, rr,
                       &s, m)) {
        pn_query_answer_t *a = &c->a[i];
        a->known = 1;
        a->value = s.a.value;
        a->bound = s.a.bound;
        a->state = PN_REACH_NO_STATE; /* a marking of another search */
        c->tech[i] |= PN_TECH_STRUCTURAL_REDUCTION | PN_TECH_EXPLICIT;
        tell(c, i);
    }
    pn_reach_free(rr);
    pni_reduced_free(d);
    return st;
}

/* Each open query on its reduced net, with an equal share of three
 * quarters of the time left (what one leaves goes to the next); the
 * places found not implicit for one are not tried again for the next. */
static pn_status_t by_reduction(const pn_net_t *net,
                                const pn_reach_options_t *o, solve_t *c)
{
    pn_reach_options_t def;
    if (!o) {
        pn_reach_options_init(&def);
        o = &def;
    }
    pn_engine_t *e;
    uint64_t *m = malloc((pn_net_place_count(net) + 1) * sizeof *m);
    unsigned char *tried = calloc(pn_net_place_count(net) + 1, 1);
    pn_status_t st = m && tried ? pn_engine_compile(net, &e) : PN_ENOMEM;
    if (st) {
        free(m);
        free(tried);
        return st == PN_ENOMEM ? st : PN_OK;
    }
    size_t left = 0;
    for (size_t i = 0; i < c->qs->n; i++)
        left += !c->a[i].known && c->qs->q[i].kind != PN_QUERY_CTL &&
                c->qs->q[i].kind != PN_QUERY_LTL;
    for (size_t i = 0; !st && i < c->qs->n && left; i++) {
        /* paths, not markings: the temporal queries keep the full net */
        if (c->a[i].known || c->qs->q[i].kind == PN_QUERY_CTL ||
            c->qs->q[i].kind == PN_QUERY_LTL)
            continue;
        double seconds = (c->deadline - pni_clock()) * 0.75 / (double)left;
        left--;
        if (seconds > 0.01)
            st = reduced_one(net, e, o, c, i, seconds, m, tried);
    }
    pn_engine_free(e);
    free(m);
    free(tried);
    return st;
}

/* ---- LTL on the fly ------------------------------------------------------ */

/* The open LTL queries on the fly (ltl.c), until end (0: no deadline),
 * in three rounds: first each with a short slice (an eighth of the time,
 * shared) and every successor in the heuristic's order, so that the
 * quick answers come before one hard formula takes its whole share; then
 * each with an equal share of the time left (what one leaves goes to the
 * next); then those still open once more with what is left.  The markings and their successors are kept from one
 * formula to the next (and from one round to the next). */
static void by_product(const pn_net_t *net, const pn_reach_options_t *o,
                       solve_t *c, double end)
{
    pni_fly_t *g;
    if (pni_fly_new(net, o, &g))
        return; /* (no room for the initial marking) */
    double slice = 0;
    for (int pass = end > 0 ? 0 : 1; pass < 3; pass++) {
        size_t left = 0;
        for (size_t i = 0; i < c->qs->n; i++)
            left += !c->a[i].known && c->qs->q[i].kind == PN_QUERY_LTL;
        if (!left || (pass == 2 && (end <= 0 ||
                                    (end - pni_clock()) / (double)left <
                                        0.01)))
            break;
        /* the first round without stubborn sets, on an eighth of the
         * time: the heuristic's order alone goes straight to some
         * counterexamples that the sets keep it from */
        pni_fly_plain(g, pass == 0);
        if (pass == 0)
            slice = (end - pni_clock()) / (8.0 * (double)left);
        for (size_t i = 0; i < c->qs->n; i++) {
            pn_query_answer_t *a = &c->a[i];
            if (a->known || c->qs->q[i].kind != PN_QUERY_LTL)
                continue;
            double seconds = end > 0 ? (end - pni_clock()) / (double)left : 0;
            left--;
            if (pass == 0 && seconds > slice)
                seconds = slice;
            if (end > 0 && seconds < 0.001)
                break;
            pn_status_t st = pni_ltl_fly(g, c->qs->q[i].formula,
                                         end > 0 ? pni_clock() + seconds : 0,
                                         &a->value,
                                         c->so->no_paths ? NULL
                                                         : &c->lasso[i],
                                         &c->loop[i]);
            /* out of time, memory or a limit: left unknown */
            if (st)
                continue;
            a->known = 1;
            a->state = PN_REACH_NO_STATE; /* a path, not a marking */
            size_t states;
            uint64_t reduced;
            pni_fly_last(g, &states, &reduced);
            c->tech[i] |= PN_TECH_EXPLICIT |
                          (reduced ? PN_TECH_STUBBORN : 0u);
            tell(c, i);
        }
    }
    pni_fly_free(g);
}

/* The CTL queries still open on the fly (ctllocal.c), all on the same
 * markings, each with an equal share of the time left until end (0: no
 * clock, LOCAL_MAX_STATES markings at most), what one leaves going to
 * the next. */
static pn_status_t by_local(const pn_net_t *net, const pn_reach_options_t *o,
                            solve_t *c, double end)
{
    size_t left = 0;
    for (size_t i = 0; i < c->qs->n; i++)
        left += !c->a[i].known && c->qs->q[i].kind == PN_QUERY_CTL;
    if (!left)
        return PN_OK;
    pn_reach_options_t ol;
    if (o)
        ol = *o;
    else
        pn_reach_options_init(&ol);
    if (end <= 0 && (!ol.max_states || ol.max_states > LOCAL_MAX_STATES))
        ol.max_states = LOCAL_MAX_STATES;
    pni_lctl_t *l;
    pn_status_t st = pni_lctl_new(net, &ol, &l);
    if (st)
        return st == PN_ENOMEM ? st : PN_OK;
    for (size_t i = 0; !st && i < c->qs->n && left; i++) {
        pn_query_answer_t *a = &c->a[i];
        if (a->known || c->qs->q[i].kind != PN_QUERY_CTL)
            continue;
        double now = pni_clock();
        if (end > 0 && now >= end)
            break;
        double deadline = end > 0 ? now + (end - now) / (double)left : 0;
        left--;
        /* the path of its answer, kept with the lassos */
        st = pni_lctl_holds(l, c->qs->q[i].formula, deadline, &a->known,
                            &a->value, &c->lasso[i], &c->loop[i]);
        if (!st && a->known) {
            c->tech[i] |= PN_TECH_EXPLICIT;
            tell(c, i);
        }
    }
    pni_lctl_free(l);
    return st;
}

/* Whether f names only places and transitions of the net. */
static int fits(const pn_qformula_t *f, size_t np, size_t nt)
{
    if (!f || (f->kind == PN_QF_NOT && f->nkids != 1))
        return 0;
    for (size_t i = 0; i < f->lhs.nplaces; i++)
        if (f->lhs.places[i] >= np)
            return 0;
    for (size_t i = 0; i < f->rhs.nplaces; i++)
        if (f->rhs.places[i] >= np)
            return 0;
    for (size_t i = 0; i < f->nitems; i++)
        if (f->items[i] >= nt)
            return 0;
    for (size_t i = 0; i < f->nkids; i++)
        if (!fits(f->kids[i], np, nt))
            return 0;
    return 1;
}

/* After the search: CTL queries by their fixed points over its graph
 * (on a graph a limit cut short, those it decides); when it is complete,
 * the EF queries never met false, the AG ones never failed true. */
static pn_status_t settle(solve_t *c, pn_reach_t *r)
{
    pn_status_t st = PN_OK;
    pni_ctl_t *ctl = NULL;
    int complete = r->found.end == PN_REACH_COMPLETE;
    int graph = r->graph.keep_graph && r->store.nstates;
    for (size_t i = 0; !st && i < c->qs->n; i++) {
        pn_query_answer_t *a = &c->a[i];
        if (a->known)
            continue;
        if (c->qs->q[i].kind == PN_QUERY_CTL) {
            if (!graph)
                continue;
            if (!ctl && !(ctl = pni_ctl_new(r)))
                st = PN_ENOMEM;
            else
                st = pni_ctl_holds(ctl, c->qs->q[i].formula, &a->known,
                                   &a->value, &a->state);
            if (st)
                break;
            if (!a->known)
                continue;
        } else if (c->qs->q[i].kind == PN_QUERY_LTL) {
            /* over a complete graph only: a marking not expanded would
             * read as a dead one */
            if (!complete || !graph)
                continue;
            st = pni_ltl_holds(r, c->qs->q[i].formula, c->deadline,
                               &a->value, NULL, NULL, NULL);
            if (st == PN_ERANGE) { /* too large, or out of time: unknown */
                st = PN_OK;
                continue;
            }
            if (st)
                break;
        } else if (!complete) {
            continue;
        } else {
            a->value = c->qs->q[i].kind == PN_QUERY_AG;
        }
        a->known = 1;
        c->tech[i] |= pni_search_tech(r);
        tell(c, i);
    }
    pni_ctl_free(ctl);
    return st;
}

pn_status_t pni_check_queries(const pn_net_t *net, const pn_query_set_t *qs)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    for (size_t i = 0; i < qs->n; i++) {
        const pn_query_t *q = &qs->q[i];
        if (q->kind != PN_QUERY_BOUND && !fits(q->formula, np, nt))
            return PN_EINVAL;
        if (q->kind == PN_QUERY_LTL && !pni_ltl_formula(q->formula))
            return PN_EINVAL;
        for (size_t k = 0; q->kind == PN_QUERY_BOUND &&
                           k < q->bound.nplaces; k++)
            if (q->bound.places[k] >= np)
                return PN_EINVAL;
    }
    return PN_OK;
}

pn_status_t pn_reach_solve(const pn_net_t *net, const pn_reach_options_t *o,
                           const pn_reach_solve_options_t *so,
                           const pn_query_set_t *qs,
                           pn_query_answer_t *answers, pn_reach_t **out)
{
    pn_reach_solve_options_t none = {0};
    pn_query_set_t empty = {0, NULL};
    if (!so)
        so = &none;
    if (!qs)
        qs = &empty;
    if (!net || (!answers && qs->n) || !out)
        return PN_EINVAL;
    pn_status_t st = qs->n ? pni_check_queries(net, qs) : PN_OK;
    if (st)
        return st;
    double t0 = pni_clock();
    solve_t c = {qs, answers, calloc(qs->n + 1, sizeof(unsigned)),
                 malloc((qs->n + 1) * sizeof(uint64_t)), qs->n,
                 so->time_limit > 0 ? t0 + so->time_limit : 0, 0, so,
                 calloc(qs->n + 1, sizeof(pn_reach_path_t *)),
                 calloc(qs->n + 1, sizeof(size_t))};
    if (!c.tech || !c.ub || !c.lasso || !c.loop) {
        free(c.tech);
        free(c.ub);
        free(c.lasso);
        free(c.loop);
        return PN_ENOMEM;
    }
    for (size_t i = 0; i < qs->n; i++) {
        answers[i].known = answers[i].value = 0;
        answers[i].bound = 0;
        answers[i].state = PN_REACH_NO_STATE;
        c.ub[i] = UINT64_MAX;
    }
    int maximal = o && o->semantics == PN_SEM_MAXIMAL;
    /* the state equation holds for every marking any step reaches */
    if (qs->n && !so->no_lp && pni_lp_sound(net))
        by_equation(net, &c, so->time_limit > 0 ? so->time_limit / 4
                                                : 0.5 * (double)qs->n);
    /* then the formulas simplified, an eighth of the time limit at most
     * (without one, a tenth of a second a query) */
    pn_query_set_t *sq = NULL;
    if (c.open && !so->no_simplify)
        by_simplifying(net, &c, pni_clock() + (so->time_limit > 0
                                                   ? so->time_limit / 8
                                                   : 0.1 * (double)qs->n),
                       &sq);
    if (c.open && !so->no_walk && !maximal && so->time_limit > 0)
        st = pni_walk(net, c.qs, answers, c.ub, t0 + so->time_limit / 2,
                      so->seed, walk_decided, &c);
    if (!st && c.open && !so->no_reduce && !maximal && so->time_limit > 0)
        st = by_reduction(net, o, &c);
    /* CTL on the fly first: it stops at each formula's answer */
    if (!st && c.open && !so->no_local)
        st = by_local(net, o, &c, c.deadline > 0
                                      ? t0 + LOCAL_SHARE * so->time_limit
                                      : 0);
    pn_reach_options_t oc;
    if (o)
        oc = *o;
    else
        pn_reach_options_init(&oc);
    /* LTL queries on the fly: the whole budget when they are all that is
     * open, else half of what is left */
    size_t ltl = 0;
    for (size_t i = 0; i < qs->n; i++)
        ltl += !answers[i].known && c.qs->q[i].kind == PN_QUERY_LTL;
    if (!st && ltl)
        by_product(net, &oc, &c,
                   c.deadline <= 0 ? 0
                   : ltl == c.open ? c.deadline
                                   : (pni_clock() + c.deadline) / 2);
    /* CTL queries need the graph of the search */
    for (size_t i = 0; i < qs->n; i++)
        if (c.qs->q[i].kind == PN_QUERY_CTL && !answers[i].known) {
            oc.graph = 1;
            /* a quarter of the budget left for the fixed points over the
             * graph the search leaves, complete or not */
            if (c.deadline > 0)
                c.deadline = pni_clock() +
                             0.75 * (t0 + so->time_limit - pni_clock());
        }
    if (!st)
        st = pni_search_queries(net, &oc, c.qs, answers, on_state, &c, out);
    /* the fixed points and the LTL products after it: the whole budget */
    if (c.deadline > 0)
        c.deadline = t0 + so->time_limit;
    if (!st && c.open)
        st = settle(&c, *out);
    /* the lassos, with the result (pn_reach_lasso()), under the
     * formulas as given (a lasso of the simplified formula is one of
     * it) */
    for (size_t i = 0; i < qs->n; i++) {
        if (c.lasso[i] && st)
            pn_reach_path_free(c.lasso[i]);
        else if (c.lasso[i]) /* (freed when there is no room) */
            pni_ltl_keep(*out, qs->q[i].formula, c.lasso[i], c.loop[i]);
    }
    /* a marking that decided a formula only once it was simplified into
     * a reachability query is no witness of the formula as given */
    for (size_t i = 0; sq && i < qs->n; i++)
        if (!pni_simplified_witness(&qs->q[i], &sq->q[i]))
            answers[i].state = PN_REACH_NO_STATE;
    /* (the search keeps no formula of sq past its end) */
    pn_query_set_free(sq);
    free(c.tech);
    free(c.ub);
    free(c.lasso);
    free(c.loop);
    return st;
}
