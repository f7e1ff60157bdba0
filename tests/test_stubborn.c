/*
 * Stubborn sets (analysis/stubborn.c) against the full search on random
 * small nets of every arc kind, with and without capacities: the same
 * answers to deadlock, EF and AG formulas over random atoms and bounds,
 * never more markings, every witness a path that replays through the
 * firing rule (pn_sim_fire()); and a net where the reduction must cut the
 * state space down.
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

/* A random net of 3-8 places and 2-7 transitions: arcs normal 5 times in
 * 10, else inhibitor, read or reset (kinds: 0 normal only, 1 normal,
 * inhibitor and read, 2 every kind); capacities on a third of the nets
 * when caps.  Few arcs a transition, so that many transitions are
 * independent. */
static pn_net_t *random_net(pni_rng_t *rng, int kinds, int caps)
{
    tu_shape_t sh = {
        .id = "stubborn", .p_min = 3, .p_span = 6, .t_min = 2, .t_span = 6,
        .tokens = 3, .caps_in = caps ? 3 : 0, .cap_min = 2, .cap_span = 3,
        .a_mul = 2, .every_t = 1, .normal = 5, .inh = 7, .read = 8};
    return tu_random_net(rng, &sh, kinds);
}

/* A random formula as text over the places p0.. and transitions t0... */
static void random_formula(pni_rng_t *rng, size_t np, size_t nt, int depth,
                           char *buf, size_t size)
{
    static const tu_fshape_t fs = {
        .top = 10, .leaf = 5, .often = "deadlock", .rare = {"true", "false"},
        .odds = 3, .fireable = 2, .two_places = 1, .rhs_place = 1,
        .cmp_end = 4, .not_end = 6, .consts = 3};
    tu_random_formula(rng, &fs, np, nt, depth, buf, size);
}

/* The queries of one comparison: one formula (EF, AG, deadlock or a
 * bound), so that each answer's set is its own, or six at once. */
static pn_query_set_t *random_queries(pni_rng_t *rng, const pn_net_t *net,
                                      int many)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    for (int k = 0; k < (many ? 6 : 1); k++) {
        char text[2048] = "";
        uint64_t r = pni_rng_below(rng, 8);
        if (r == 0)
            strcpy(text, "EF deadlock");
        else if (r == 1)
            snprintf(text, sizeof text, "bound(p%u, p%u)",
                     (unsigned)pni_rng_below(rng, np),
                     (unsigned)pni_rng_below(rng, np));
        else {
            strcpy(text, r % 2 ? "AG " : "EF ");
            random_formula(rng, np, nt, 3, text, sizeof text);
        }
        ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                      "%s: column %lu: %s", text, err.column, err.text);
    }
    return qs;
}

static pn_reach_t *search(const pn_net_t *net, const pn_query_set_t *qs,
                          pn_query_answer_t *ans, int stubborn)
{
    return tu_search(net, qs, ans, 20000, stubborn);
}

/* The path to the answer's marking replays by pn_sim_fire() from the
 * initial marking, ends there, and decides the query there. */
static void check_witness(const pn_net_t *net, const pn_reach_t *r,
                          const pn_query_t *q, const pn_query_answer_t *a)
{
    pn_engine_t *e;
    pn_reach_path_t *p;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    ck_assert_int_eq(pn_reach_path(r, a->state, &p), PN_OK);
    pn_sim_t *s = pn_sim_new(e, 1, PN_SEM_INTERLEAVING, 0);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < p->nsteps; i++) {
        ck_assert_uint_eq(p->n_in_step[i], 1);
        ck_assert_int_eq(pn_sim_fire(s, p->steps[i], 1, NULL), PN_OK);
    }
    size_t np = pn_net_place_count(net);
    uint64_t *m = malloc((np + 1) * sizeof *m);
    ck_assert_int_eq(pn_reach_marking(r, a->state, m), PN_OK);
    ck_assert_mem_eq(m, pn_sim_marking(s), np * sizeof *m);
    if (q->kind == PN_QUERY_BOUND)
        ck_assert_uint_eq(pni_query_value(&q->bound, m), a->bound);
    else
        ck_assert_int_eq(pni_formula_holds(e, (uint32_t)
                                           pn_net_transition_count(net),
                                           q->formula, m),
                         q->kind == PN_QUERY_EF);
    free(m);
    pn_sim_free(s);
    pn_reach_path_free(p);
    pn_engine_free(e);
}

START_TEST(stubborn_against_full_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 1999);
    int reduced = 0, smaller = 0, compared = 0, witnesses = 0;
    int n = tu_count(450, 900);
    for (int i = 0; i < n; i++) {
        pn_net_t *net = random_net(&rng, i % 3, 1);
        pn_query_set_t *qs = random_queries(&rng, net, i % 4 == 0);
        pn_query_answer_t full[8], got[8];
        pn_reach_t *rf = search(net, qs, full, 0);
        pn_reach_t *rs = search(net, qs, got, 1);
        ck_assert_uint_eq(pn_reach_stubborn(rf), 0);
        reduced += pn_reach_stubborn(rs) > 0;
        pn_reach_end_t ef = pn_reach_end(rf), es = pn_reach_end(rs);
        if (ef == PN_REACH_COMPLETE) {
            /* a subset of the markings: within every limit */
            ck_assert(es == PN_REACH_COMPLETE || es == PN_REACH_DECIDED);
            ck_assert_uint_le(pn_reach_states(rs), pn_reach_states(rf));
            smaller += pn_reach_states(rs) < pn_reach_states(rf);
        }
        if ((ef == PN_REACH_COMPLETE || ef == PN_REACH_DECIDED) &&
            (es == PN_REACH_COMPLETE || es == PN_REACH_DECIDED)) {
            /* a complete search decides every query, reduced or not */
            for (size_t q = 0; q < qs->n; q++) {
                ck_assert_msg(got[q].known, "net %d, query %zu", i, q);
                compared++;
                if (qs->q[q].kind == PN_QUERY_BOUND)
                    ck_assert_msg(got[q].bound == full[q].bound,
                                  "net %d, query %zu: bound %llu, not %llu",
                                  i, q, (unsigned long long)got[q].bound,
                                  (unsigned long long)full[q].bound);
                else
                    ck_assert_msg(got[q].value == full[q].value,
                                  "net %d, query %zu: %d, not %d", i, q,
                                  got[q].value, full[q].value);
            }
        }
        for (size_t q = 0; q < qs->n; q++)
            if (got[q].known && got[q].state != PN_REACH_NO_STATE) {
                check_witness(net, rs, &qs->q[q], &got[q]);
                witnesses++;
            }
        pn_reach_free(rf);
        pn_reach_free(rs);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    printf("%d nets: %d reduced, %d smaller, %d compared, %d witnesses\n",
           n, reduced, smaller, compared, witnesses);
    /* the reduction happened, and cut markings, on a good share (at 900
     * nets: more than 100, 50, 800 and 300) */
    ck_assert_int_gt(reduced, n / 9);
    ck_assert_int_gt(smaller, n / 18);
    ck_assert_int_gt(compared, n * 8 / 9);
    ck_assert_int_gt(witnesses, n / 3);
}
END_TEST

/* Fires w[0..n) from m into out (NULL: some transition is disabled). */
static uint64_t *fire_seq(const pn_engine_t *e, size_t np, const uint64_t *m,
                          const uint32_t *w, size_t n, uint64_t *out)
{
    uint64_t *pend = calloc(np + 1, sizeof *pend);
    memcpy(out, m, np * sizeof *m);
    for (size_t i = 0; i < n; i++) {
        if (!pni_engine_enabled(e, out, w[i]) ||
            (pni_engine_take(e, out, pend, w[i]),
             pni_engine_give(e, out, w[i]))) {
            free(pend);
            return NULL;
        }
    }
    free(pend);
    return out;
}

typedef struct {
    const pn_reach_t *r;
    const pn_query_set_t *qs;
    const unsigned char *in; /* the stubborn set at m */
    const uint64_t *m;
    uint32_t w[4];
    uint64_t *a, *b, *c;
    int checks;
} cond_t;

/* W and R along every sequence w of up to 3 transitions outside the set
 * from m: no goal of an open query is met on the way, and each t of the
 * set fired after w is enabled at m and commutes to the front. */
static void check_from(cond_t *k, size_t n)
{
    const pn_reach_t *r = k->r;
    size_t np = r->np;
    if (!fire_seq(r->engine, np, k->m, k->w, n, k->a))
        return;
    for (size_t q = 0; n && q < k->qs->n; q++) {
        const pn_query_t *qq = &k->qs->q[q];
        if (qq->kind == PN_QUERY_BOUND)
            ck_assert_uint_le(pni_query_value(&qq->bound, k->a),
                              pni_query_value(&qq->bound, k->m));
        else
            ck_assert_int_eq(pni_formula_holds(r->engine, r->nt,
                                               qq->formula, k->a),
                             qq->kind == PN_QUERY_AG);
    }
    for (uint32_t t = 0; t < r->nt; t++) {
        if (!k->in[t] || !pni_engine_enabled(r->engine, k->a, t))
            continue;
        /* m -w t-> : then m -t w-> the same marking */
        ck_assert(pni_engine_enabled(r->engine, k->m, t));
        fire_seq(r->engine, np, k->a, &t, 1, k->b);
        ck_assert_ptr_nonnull(fire_seq(r->engine, np, k->m, &t, 1, k->c));
        memcpy(k->a, k->c, np * sizeof *k->a);
        ck_assert_ptr_nonnull(fire_seq(r->engine, np, k->a, k->w, n, k->c));
        ck_assert_mem_eq(k->b, k->c, np * sizeof *k->b);
        fire_seq(r->engine, np, k->m, k->w, n, k->a);
        k->checks++;
    }
    if (n == 3)
        return;
    for (uint32_t u = 0; u < r->nt; u++)
        if (!k->in[u]) {
            k->w[n] = u;
            check_from(k, n + 1);
        }
}

/* The stubborn set of every marking (queries open, none decided) checked
 * against the conditions W and R themselves, by brute force. */
START_TEST(stubborn_conditions)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 77);
    int checks = 0, cut = 0;
    int n = tu_count(300, 1000);
    for (int i = 0; i < n; i++) {
        pn_net_t *net = random_net(&rng, i % 3, 1);
        pn_query_set_t *qs = random_queries(&rng, net, i % 3 == 0);
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 300;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        pn_query_answer_t open[8];
        memset(open, 0, sizeof open);
        pni_por_t *s = pni_por_new(r, net, qs, open);
        ck_assert_ptr_nonnull(s);
        size_t np = r->np;
        uint64_t *m = malloc((np + 1) * sizeof *m);
        uint64_t *buf = malloc(3 * (np + 1) * sizeof *buf);
        uint32_t *en = malloc((r->nt + 1) * sizeof *en);
        unsigned char *in = calloc(r->nt + 1, 1);
        for (uint64_t st = 0; st < pn_reach_states(r); st++) {
            pn_reach_marking(r, st, m);
            /* only where no query is decided at m itself */
            int open_here = 1;
            for (size_t q = 0; q < qs->n; q++)
                if (qs->q[q].kind != PN_QUERY_BOUND &&
                    pni_formula_holds(r->engine, r->nt, qs->q[q].formula,
                                      m) == (qs->q[q].kind == PN_QUERY_EF))
                    open_here = 0;
            if (!open_here)
                continue;
            size_t ne = 0;
            for (uint32_t t = 0; t < r->nt; t++)
                if (pni_engine_enabled(r->engine, m, t))
                    en[ne++] = t;
            size_t k2 = pni_por_filter(s, r, m, en, ne);
            if (k2 == ne)
                continue; /* every enabled one: nothing to check */
            cut++;
            /* the set's disabled members are not returned: take every
             * transition not fired as outside, the strongest check of
             * W among enabled ones, and R */
            memset(in, 0, r->nt);
            for (size_t j = 0; j < k2; j++)
                in[en[j]] = 1;
            cond_t k = {r, qs, in, m, {0}, buf, buf + np + 1,
                        buf + 2 * (np + 1), 0};
            check_from(&k, 0);
            checks += k.checks;
        }
        free(m);
        free(buf);
        free(en);
        free(in);
        pni_por_free(s);
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    printf("%d nets: %d markings cut, %d checks\n", n, cut, checks);
    ck_assert_int_gt(cut, 200);
    ck_assert_int_gt(checks, 200);
}
END_TEST

/* n independent one-shot transitions (a_i -> b_i): 2^n markings, one
 * deadlock.  The stubborn set of EF deadlock fires one transition a
 * marking (n + 1 markings); of EF b_0 + b_1 >= 2, the two that raise it
 * first. */
START_TEST(independent_transitions)
{
    pn_net_t *net = pn_net_new("independent");
    char a[16], b[16];
    for (int i = 0; i < 12; i++) {
        snprintf(a, sizeof a, "a%d", i);
        snprintf(b, sizeof b, "b%d", i);
        pn_net_add_place(net, a, NULL, 1, NULL);
        pn_net_add_place(net, b, NULL, 0, NULL);
        snprintf(a, sizeof a, "t%d", i);
        pn_net_add_transition(net, a, NULL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, 2 * (size_t)i, (size_t)i, 1,
                          PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, 2 * (size_t)i + 1, (size_t)i,
                          1, PN_ARC_NORMAL, NULL);
    }
    const char *texts[] = {"EF deadlock", "EF b0 + b1 >= 2",
                           "AG b0 + b1 + b2 <= 2", "EF b0 + b1 >= 3"};
    const uint64_t most[] = {13, 4, 8, 4};
    const int value[] = {1, 1, 0, 0};
    /* no query: every marking, as without the option */
    pn_query_set_t *none = pn_query_set_new();
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.stubborn = 1;
    pn_reach_t *all;
    ck_assert_int_eq(pn_reach_solve(net, &o, NULL, none, NULL, &all), PN_OK);
    ck_assert_uint_eq(pn_reach_states(all), 4096);
    ck_assert_uint_eq(pn_reach_stubborn(all), 0);
    pn_reach_free(all);
    pn_query_set_free(none);
    for (int k = 0; k < 4; k++) {
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, texts[k], net, &err), PN_OK);
        pn_query_answer_t ans[1];
        pn_reach_t *r = search(net, qs, ans, 1);
        ck_assert_msg(pn_reach_states(r) <= most[k], "%s: %llu markings",
                      texts[k], (unsigned long long)pn_reach_states(r));
        ck_assert(ans[0].known);
        ck_assert_int_eq(ans[0].value, value[k]);
        pn_reach_free(r);
        r = search(net, qs, ans, 0);
        ck_assert_int_eq(ans[0].value, value[k]);
        pn_reach_free(r);
        pn_query_set_free(qs);
    }
    pn_net_free(net);
}
END_TEST

/* Maximal steps are never reduced. */
START_TEST(maximal_steps_not_reduced)
{
    pn_net_t *net = pn_net_new("maximal");
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 1, NULL);
    pn_net_add_transition(net, "ta", NULL, NULL);
    pn_net_add_transition(net, "tb", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "ta", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "tb", 1, PN_ARC_NORMAL, NULL);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF deadlock", net, &err), PN_OK);
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.semantics = PN_SEM_MAXIMAL;
    o.stubborn = 1;
    pn_query_answer_t ans[1];
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
    ck_assert_uint_eq(pn_reach_stubborn(r), 0);
    ck_assert(ans[0].known && ans[0].value);
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stubborn");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, stubborn_against_full_search);
    tcase_add_test(tc, stubborn_conditions);
    tcase_add_test(tc, independent_transitions);
    tcase_add_test(tc, maximal_steps_not_reduced);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
