/*
 * Structural reductions (analysis/reduce.c) against the full search on
 * random small nets of every arc kind, with and without capacities: the
 * reduced net answers each random EF, AG, bound and deadlock query as the
 * net does, each witness found on the reduced net replays on the net, and
 * every rule fires often enough for that to mean something.
 */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "engine_private.h"
#include "analysis_private.h"
#include "testutil.h"

/* A random net of 3-8 places and 2-7 transitions, with chains h -> p ->
 * f (f taking only from p) and places nothing takes from, so that every
 * rule has something to find: arcs normal 6 times in 10, else inhibitor,
 * read or reset (kinds: 0 normal only, 1 normal, inhibitor and read, 2
 * every kind); capacities on a quarter of the nets when caps. */
static pn_net_t *random_net(pni_rng_t *rng, int kinds, int caps)
{
    pn_net_t *net = pn_net_new("red");
    size_t np = 3 + (size_t)pni_rng_below(rng, 6);
    size_t nt = 2 + (size_t)pni_rng_below(rng, 6);
    char id[32];
    caps = caps && pni_rng_below(rng, 4) == 0;
    for (size_t p = 0; p < np; p++) {
        snprintf(id, sizeof id, "p%zu", p);
        pn_net_add_place(net, id, NULL,
                         p < 2 ? 1 + pni_rng_below(rng, 2)
                               : pni_rng_below(rng, 4) == 0, NULL);
        if (caps && pni_rng_below(rng, 2))
            pn_net_set_capacity(net, p, 2 + pni_rng_below(rng, 3));
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    /* a chain: t0 puts w in place p2, one transition takes w from it
     * alone and puts it on */
    uint64_t w = 1 + pni_rng_below(rng, 2);
    pn_net_add_arc_at(net, NULL, PN_DIR_PT, 0, 0, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 2, 0, w, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_PT, 2, 1, w, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, (size_t)pni_rng_below(rng, np),
                      1, 1, PN_ARC_NORMAL, NULL);
    if (pni_rng_below(rng, 2))
        pn_net_add_arc_at(net, NULL, PN_DIR_TP,
                          (size_t)pni_rng_below(rng, np), 0, 1,
                          PN_ARC_NORMAL, NULL);
    static const tu_shape_t arcs = {.normal = 6, .inh = 8, .read = 9};
    size_t na = 1 + (size_t)pni_rng_below(rng, 2 * nt);
    for (size_t i = 0; i < na; i++) {
        size_t p = (size_t)pni_rng_below(rng, np);
        size_t t = 2 + (size_t)pni_rng_below(rng, nt + 1);
        if (t >= nt)
            t = (size_t)pni_rng_below(rng, nt);
        tu_random_arc(rng, net, &arcs, kinds, p, t);
    }
    /* sometimes a copy of a transition, or of a place */
    if (pni_rng_below(rng, 3) == 0) {
        size_t t = (size_t)pni_rng_below(rng, nt), c;
        snprintf(id, sizeof id, "t%zu", nt);
        pn_net_add_transition(net, id, NULL, &c);
        size_t n = pn_net_arc_count(net);
        for (size_t a = 0; a < n; a++) {
            pn_arc_t x = *pn_net_arc(net, a);
            if (x.transition == t)
                pn_net_add_arc_at(net, NULL, x.dir, x.place, c, x.weight,
                                  x.kind, NULL);
        }
    }
    return net;
}

/* A random formula as text over the places p0.. and transitions t0... */
static void random_formula(pni_rng_t *rng, size_t np, size_t nt, int depth,
                           char *buf, size_t size)
{
    static const tu_fshape_t fs = {
        .top = 10, .leaf = 6, .often = "true", .rare = {"deadlock", NULL},
        .odds = 3, .fireable = 1, .cmp_end = 5, .not_end = 6, .consts = 4};
    tu_random_formula(rng, &fs, np, nt, depth, buf, size);
}

/* Six queries: EF, AG, a bound of one place, EF deadlock, and two
 * more EF/AG. */
static pn_query_set_t *random_queries(pni_rng_t *rng, const pn_net_t *net)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    for (int k = 0; k < 6; k++) {
        char text[2048] = "";
        if (k == 2)
            snprintf(text, sizeof text, "bound(p%u)",
                     (unsigned)pni_rng_below(rng, np));
        else if (k == 3)
            strcpy(text, "EF deadlock");
        else {
            strcpy(text, k % 2 ? "AG " : "EF ");
            random_formula(rng, np, nt, 2, text, sizeof text);
        }
        ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                      "%s: column %lu: %s", text, err.column, err.text);
    }
    return qs;
}

static pn_reach_t *search(const pn_net_t *net, const pn_query_set_t *qs,
                          pn_query_answer_t *ans)
{
    return tu_search(net, qs, ans, 5000, 0);
}

/* Query q of net, answered on the net reduced for it and on the net:
 * the same answer when both are known; a witness on the reduced net
 * replays on the net.  Returns 1 when both were compared. */
static int compare(const pn_net_t *net, const pn_query_t *q,
                   const pn_engine_t *e, size_t *rules, int i)
{
    pn_query_set_t one = {1, (pn_query_t *)q};
    pn_query_answer_t a, b;
    pni_reduced_t *d;
    ck_assert_int_eq(pni_reduce(net, q, 0, &d), PN_OK);
    for (int k = 0; k < 7; k++)
        rules[k] += d->rules[k];
    pn_reach_t *r = search(net, &one, &a);
    pn_reach_t *rr = search(d->net, d->qs, &b);
    int both = a.known && b.known;
    if (both && q->kind == PN_QUERY_BOUND)
        ck_assert_msg(a.bound == b.bound, "net %d, %s: bound %llu, reduced "
                      "%llu", i, q->id, (unsigned long long)a.bound,
                      (unsigned long long)b.bound);
    else if (both)
        ck_assert_msg(a.value == b.value, "net %d, %s: %d, reduced %d", i,
                      q->id, a.value, b.value);
    /* a marking that decides it on the reduced net, replayed */
    if (b.known && b.state != PN_REACH_NO_STATE) {
        uint64_t m[16];
        ck_assert_int_eq(pni_reduced_replay(d, e, rr, b.state, m), 0);
        if (q->kind == PN_QUERY_BOUND)
            ck_assert_uint_eq(pni_query_value(&q->bound, m), b.bound);
        else
            ck_assert_int_eq(pni_formula_holds(e,
                (uint32_t)pn_net_transition_count(net), q->formula, m),
                q->kind == PN_QUERY_EF);
    }
    pn_reach_free(r);
    pn_reach_free(rr);
    pni_reduced_free(d);
    return both;
}

START_TEST(reductions_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 1987);
    size_t rules[7] = {0}, compared = 0, smaller = 0;
    int n = tu_count(450, 900);
    for (int i = 0; i < n; i++) {
        pn_net_t *net = random_net(&rng, i % 3, i % 2);
        pn_query_set_t *qs = random_queries(&rng, net);
        pn_engine_t *e;
        ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
        for (size_t q = 0; q < qs->n; q++)
            compared += (size_t)compare(net, &qs->q[q], e, rules, i);
        pn_net_t *red;
        ck_assert_int_eq(pn_reach_reduce(net, &qs->q[0], &red), PN_OK);
        smaller += pn_net_place_count(red) < pn_net_place_count(net);
        pn_net_free(red);
        pn_engine_free(e);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    printf("%d nets: compared %zu; rules: constant %zu, dead %zu, sink %zu, "
           "duplicate %zu, parallel %zu, post-agglomeration %zu, null %zu; "
           "%zu nets smaller\n", n, compared, rules[0], rules[1], rules[2],
           rules[3], rules[4], rules[5], rules[6], smaller);
    /* at 900 nets: more than 3000 compared, each rule more than 30 times */
    ck_assert_uint_gt(compared, (size_t)n * 10 / 3);
    for (int k = 0; k < 7; k++)
        ck_assert_msg(rules[k] > (size_t)n / 30, "rule %d fired %zu times", k,
                      rules[k]);
}
END_TEST

/* Places and transitions a query names stay, and a query naming a
 * place beyond the net is refused. */
START_TEST(observed_kept)
{
    pn_net_t *net = pn_net_new("n");
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_place(net, "c", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "b", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "u", "c", 1, PN_ARC_NORMAL, NULL);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF a == 0", net, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(qs, "EF b >= 1", net, &err), PN_OK);
    pn_net_t *red;
    /* a seen: t.u in one, b gone, then c (a sink) */
    ck_assert_int_eq(pn_reach_reduce(net, &qs->q[0], &red), PN_OK);
    ck_assert_uint_eq(pn_net_place_count(red), 1);
    ck_assert_uint_eq(pn_net_transition_count(red), 1);
    ck_assert_str_eq(pn_net_transition(red, 0)->id, "t.u");
    pn_net_free(red);
    /* b seen: it stays (c, a sink, goes) */
    ck_assert_int_eq(pn_reach_reduce(net, &qs->q[1], &red), PN_OK);
    ck_assert_str_eq(pn_net_place(red, 1)->id, "b");
    pn_net_free(red);
    /* no query: everything observed */
    ck_assert_int_eq(pn_reach_reduce(net, NULL, &red), PN_OK);
    ck_assert_uint_eq(pn_net_place_count(red), 3);
    pn_net_free(red);
    qs->q[0].formula->lhs.places[0] = 7;
    ck_assert_int_eq(pn_reach_reduce(net, &qs->q[0], &red), PN_EINVAL);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* h puts in p and r, f moves p to q, u takes r while q is empty (an
 * inhibitor arc; a reset arc on q, or a capacity of q, instead): u can
 * fire after h only while f has not, so h and f must not become one.
 * EF s >= 1 holds on the net and on every reduction of it. */
static void guarded_output(int how)
{
    pn_net_t *net = pn_net_new("g");
    const char *places[] = {"a", "p", "r", "q", "s"};
    for (int i = 0; i < 5; i++)
        pn_net_add_place(net, places[i], NULL, i == 0, NULL);
    pn_net_add_transition(net, "h", NULL, NULL);
    pn_net_add_transition(net, "f", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "h", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "h", "p", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "h", "r", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p", "f", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "f", "q", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "r", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "u", "s", 1, PN_ARC_NORMAL, NULL);
    if (how == 0) /* u waits for q empty */
        pn_net_add_arc(net, NULL, "q", "u", 1, PN_ARC_INHIBITOR, NULL);
    else if (how == 1) { /* u empties q into s: s holds 2 only if f first */
        pn_net_add_arc(net, NULL, "q", "u", 1, PN_ARC_RESET, NULL);
        pn_net_add_arc(net, NULL, "u", "q", 1, PN_ARC_NORMAL, NULL);
    } else { /* u fills q up to its capacity */
        pn_net_set_capacity(net, 3, 1);
        pn_net_add_arc(net, NULL, "u", "q", 1, PN_ARC_NORMAL, NULL);
    }
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, how == 1 ? "EF q == 1 && s == 1"
                                                 : "EF s >= 1", net, &err),
                     PN_OK);
    pn_query_answer_t a, b;
    pni_reduced_t *d;
    ck_assert_int_eq(pni_reduce(net, &qs->q[0], 0, &d), PN_OK);
    pn_reach_free(search(net, qs, &a));
    pn_reach_free(search(d->net, d->qs, &b));
    ck_assert(a.known && b.known);
    ck_assert_int_eq(a.value, b.value);
    ck_assert_uint_eq(d->rules[5], 0);
    pni_reduced_free(d);
    pn_query_set_free(qs);
    pn_net_free(net);
}

START_TEST(guarded_outputs_stay_apart)
{
    for (int how = 0; how < 3; how++)
        guarded_output(how);
}
END_TEST

/* Pre-agglomeration against the full search on random nets of every arc
 * kind, with and without capacities: the reduced net answers as the
 * net does and its witnesses replay (compare()), and the rule fires on
 * enough of them for that to mean something. */
START_TEST(pre_agglomeration_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2029);
    size_t rules[7] = {0}, compared = 0, pre = 0;
    for (int i = 0; i < 2000; i++) {
        pn_net_t *net = random_net(&rng, i % 3, i % 2);
        pn_query_set_t *qs = random_queries(&rng, net);
        pn_engine_t *e;
        ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
        for (size_t q = 0; q < qs->n; q++) {
            pni_reduced_t *d;
            ck_assert_int_eq(pni_reduce(net, &qs->q[q], 0, &d), PN_OK);
            size_t fired = d->rules[7];
            pni_reduced_free(d);
            if (!fired)
                continue;
            pre += fired;
            compared += (size_t)compare(net, &qs->q[q], e, rules, i);
        }
        pn_engine_free(e);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    printf("pre-agglomeration: fired %zu times, %zu queries compared\n",
           pre, compared);
    ck_assert_uint_gt(pre, 100);
    ck_assert_uint_gt(compared, 50);
}
END_TEST

/* h moves q to p, f takes p and s to o, g puts in s: g waits for q
 * empty (an inhibitor arc; a reset of q, or u filling q up to its
 * capacity, instead), so h must fire before f can: h may not wait for
 * f, no pre-agglomeration (g takes a's one token).  With no guard
 * (how 3) it fires.  EF o >= 1
 * holds on the net and on every reduction of it. */
static void waiting_producer(int how)
{
    pn_net_t *net = pn_net_new("w");
    const char *places[] = {"q", "p", "s", "o", "a"};
    for (int i = 0; i < 5; i++)
        pn_net_add_place(net, places[i], NULL, i == 0 || i == 4, NULL);
    pn_net_add_transition(net, "h", NULL, NULL);
    pn_net_add_transition(net, "f", NULL, NULL);
    pn_net_add_transition(net, "g", NULL, NULL);
    pn_net_add_arc(net, NULL, "q", "h", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "h", "p", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p", "f", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "s", "f", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "f", "o", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "a", "g", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "g", "s", 1, PN_ARC_NORMAL, NULL);
    if (how == 0)
        pn_net_add_arc(net, NULL, "q", "g", 1, PN_ARC_INHIBITOR, NULL);
    else if (how == 1)
        pn_net_add_arc(net, NULL, "q", "g", 1, PN_ARC_RESET, NULL);
    else if (how == 2) {
        pn_net_set_capacity(net, 0, 1);
        pn_net_add_arc(net, NULL, "g", "q", 1, PN_ARC_NORMAL, NULL);
    }
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF o >= 1", net, &err), PN_OK);
    pn_query_answer_t a, b;
    pni_reduced_t *d;
    ck_assert_int_eq(pni_reduce(net, &qs->q[0], 0, &d), PN_OK);
    pn_reach_free(search(net, qs, &a));
    pn_reach_free(search(d->net, d->qs, &b));
    ck_assert_msg(a.known && b.known && a.value && b.value, "how %d: %d %d %d %d", how, a.known, b.known, a.value, b.value);
    ck_assert_int_eq(d->rules[7] > 0, how == 3);
    pni_reduced_free(d);
    pn_query_set_free(qs);
    pn_net_free(net);
}

START_TEST(guarded_producers_stay_apart)
{
    for (int how = 0; how < 4; how++)
        waiting_producer(how);
}
END_TEST

/* The state equation of the reduced net: t moves c to d and puts in o,
 * u moves d back to c; c and d are never marked, so o never is, but
 * t and u firing once each solve the net's state equation with o = 1.
 * Reduced for EF o >= 1, t.u (post-agglomeration) never fires (a
 * dead transition): the state equation of the reduced net decides it,
 * before any search. */
static void on_tech(size_t i, const pn_query_answer_t *a, unsigned tech,
                    void *ctx)
{
    (void)i;
    (void)a;
    *(unsigned *)ctx = tech;
}

START_TEST(reduced_state_equation)
{
    pn_net_t *net = pn_net_new("se");
    pn_net_add_place(net, "c", NULL, 0, NULL);
    pn_net_add_place(net, "d", NULL, 0, NULL);
    pn_net_add_place(net, "o", NULL, 0, NULL);
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_transition(net, "v", NULL, NULL);
    pn_net_add_arc(net, NULL, "c", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "d", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "o", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "d", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "u", "c", 1, PN_ARC_NORMAL, NULL);
    /* v keeps the net alive: a marking to search */
    pn_net_add_arc(net, NULL, "a", "v", 1, PN_ARC_READ, NULL);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF o >= 1", net, &err), PN_OK);
    unsigned tech = 0;
    pn_reach_solve_options_t so = {0};
    so.time_limit = 20;
    so.no_walk = 1;
    so.on_answer = on_tech;
    so.ctx = &tech;
    pn_query_answer_t a;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_solve(net, NULL, &so, qs, &a, &r), PN_OK);
    ck_assert(a.known && !a.value);
    ck_assert_uint_eq(tech, PN_TECH_STATE_EQUATION |
                                PN_TECH_STRUCTURAL_REDUCTION);
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* a moves to b and q, b and q back to a: q holds b + 1, one more than b
 * at every marking, so it never disables u (an implicit place, though no
 * other rule sees it: its initial count is not b's).  With an inhibitor
 * arc on q (how 1) or a capacity (how 2) it may disable: it stays. */
static pn_net_t *implicit_net(int how)
{
    pn_net_t *net = pn_net_new("i");
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_place(net, "q", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "b", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "q", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "q", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "u", "a", 1, PN_ARC_NORMAL, NULL);
    if (how == 1) { /* v, with its own token, waits for q below 2 */
        pn_net_add_place(net, "c", NULL, 1, NULL);
        pn_net_add_transition(net, "v", NULL, NULL);
        pn_net_add_arc(net, NULL, "c", "v", 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, "q", "v", 2, PN_ARC_INHIBITOR, NULL);
    } else if (how == 2) {
        pn_net_set_capacity(net, 2, 2);
    }
    return net;
}

/* Query text on implicit_net(how) reduced: the places left, and the
 * same answer as the net's. */
static size_t implicit_reduced(int how, const char *text, size_t *fired)
{
    pn_net_t *net = implicit_net(how);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, text, net, &err), PN_OK);
    pni_reduced_t *d;
    ck_assert_int_eq(pni_reduce(net, &qs->q[0], 0, &d), PN_OK);
    pn_query_answer_t a, b;
    pn_reach_free(search(net, qs, &a));
    pn_reach_free(search(d->net, d->qs, &b));
    ck_assert(a.known && b.known);
    ck_assert_int_eq(a.value, b.value);
    size_t n = pn_net_place_count(d->net);
    *fired = d->rules[8];
    for (size_t p = 0; p < n; p++) /* q went, if anything did */
        ck_assert(*fired == 0 || strcmp(pn_net_place(d->net, p)->id, "q"));
    pni_reduced_free(d);
    pn_query_set_free(qs);
    pn_net_free(net);
    return n;
}

START_TEST(implicit_place_removed)
{
    size_t fired;
    /* b observed: q goes, a and b stay */
    ck_assert_uint_eq(implicit_reduced(0, "EF b >= 1", &fired), 2);
    ck_assert_uint_eq(fired, 1);
    ck_assert_uint_eq(implicit_reduced(0, "EF deadlock", &fired), 2);
    ck_assert_uint_eq(fired, 1);
    /* q observed: it stays, and b (q - 1) is not implicit */
    ck_assert_uint_eq(implicit_reduced(0, "EF q >= 2", &fired), 3);
    ck_assert_uint_eq(fired, 0);
    /* an inhibitor arc on q, a capacity on it: it stays */
    implicit_reduced(1, "EF b >= 1", &fired);
    ck_assert_uint_eq(fired, 0);
    implicit_reduced(2, "EF b >= 1", &fired);
    ck_assert_uint_eq(fired, 0);
}
END_TEST

/* Random nets of every arc kind, with and without capacities, each with
 * a place added that copies a place's normal arcs with one more token
 * at first (often implicit, never parallel): where the implicit places
 * fired, the reduced net answers as the net does and its witnesses
 * replay (compare()). */
START_TEST(implicit_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3041);
    size_t rules[7] = {0}, compared = 0, implicit = 0;
    int n = tu_count(600, 2000);
    for (int i = 0; i < n; i++) {
        pn_net_t *net = random_net(&rng, i % 3, i % 2);
        size_t np = pn_net_place_count(net), c;
        size_t q = (size_t)pni_rng_below(&rng, np);
        char id[32];
        snprintf(id, sizeof id, "p%zu", np);
        pn_net_add_place(net, id, NULL, pn_net_place(net, q)->marking + 1,
                         &c);
        size_t na = pn_net_arc_count(net);
        for (size_t k = 0; k < na; k++) {
            pn_arc_t x = *pn_net_arc(net, k);
            if (x.place == q && x.kind == PN_ARC_NORMAL)
                pn_net_add_arc_at(net, NULL, x.dir, c, x.transition,
                                  x.weight, PN_ARC_NORMAL, NULL);
        }
        pn_query_set_t *qs = random_queries(&rng, net);
        pn_engine_t *e;
        ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
        for (size_t k = 0; k < qs->n; k++) {
            pni_reduced_t *d;
            ck_assert_int_eq(pni_reduce(net, &qs->q[k], 0, &d), PN_OK);
            size_t fired = d->rules[8];
            pni_reduced_free(d);
            if (!fired)
                continue;
            implicit += fired;
            compared += (size_t)compare(net, &qs->q[k], e, rules, i);
        }
        pn_engine_free(e);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    printf("implicit places: %zu removed, %zu queries compared\n",
           implicit, compared);
    ck_assert_uint_gt(implicit, (size_t)n / 2);
    ck_assert_uint_gt(compared, (size_t)n / 4);
}
END_TEST

/* What one query's reduction learnt is used by the next: a place marked
 * tried is not tried again (q stays), and a place tried and found not
 * implicit is marked (a, which t needs and nothing else proves). */
START_TEST(implicit_learnt)
{
    pn_net_t *net = implicit_net(0);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF b >= 1", net, &err), PN_OK);
    unsigned char tried[3] = {0, 0, 0};
    pni_reduced_t *d;
    ck_assert_int_eq(pni_reduce_tried(net, &qs->q[0], 0, tried, &d), PN_OK);
    ck_assert_uint_eq(d->rules[8], 1);
    ck_assert(tried[0] && !tried[1] && !tried[2]);
    pni_reduced_free(d);
    tried[2] = 1;
    ck_assert_int_eq(pni_reduce_tried(net, &qs->q[0], 0, tried, &d), PN_OK);
    ck_assert_uint_eq(d->rules[8], 0);
    ck_assert_uint_eq(pn_net_place_count(d->net), 3);
    pni_reduced_free(d);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reduce");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, reductions_against_search);
    tcase_add_test(tc, observed_kept);
    tcase_add_test(tc, guarded_outputs_stay_apart);
    tcase_add_test(tc, pre_agglomeration_against_search);
    tcase_add_test(tc, guarded_producers_stay_apart);
    tcase_add_test(tc, reduced_state_equation);
    tcase_add_test(tc, implicit_place_removed);
    tcase_add_test(tc, implicit_against_search);
    tcase_add_test(tc, implicit_learnt);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
