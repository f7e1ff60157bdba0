/*
 * The state equation (analysis/lp.c), the random walks (walk.c) and
 * pn_reach_solve() against the full search on random small nets of every
 * arc kind, with and without capacities: never a conclusion the search
 * contradicts, never a conclusion on a net where the equation does not
 * hold.
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

/* A random net of 2-5 places and 1-4 transitions: arcs normal 6 times in
 * 10, else inhibitor, read or reset (kinds: 0 normal only, 1 normal,
 * inhibitor and read, 2 every kind); capacities on a third of the nets
 * when caps. */
static pn_net_t *random_net(pni_rng_t *rng, int kinds, int caps)
{
    tu_shape_t sh = {
        .id = "lp", .p_min = 2, .p_span = 4, .t_min = 1, .t_span = 4,
        .tokens = 3, .caps_in = caps ? 3 : 0, .cap_min = 2, .cap_span = 3,
        .a_min = 1, .a_mul = 3, .normal = 6, .inh = 8, .read = 9};
    return tu_random_net(rng, &sh, kinds);
}

/* A random formula as text over the places p0.. and transitions t0... */
static void random_formula(pni_rng_t *rng, size_t np, size_t nt, int depth,
                           char *buf, size_t size)
{
    static const tu_fshape_t fs = {
        .top = 9, .leaf = 5, .often = "deadlock", .rare = {"true", "false"},
        .odds = 2, .fireable = 2, .two_places = 1, .cmp_end = 4,
        .not_end = 5, .consts = 6};
    tu_random_formula(rng, &fs, np, nt, depth, buf, size);
}

/* Four EF/AG queries and two bounds on a random net. */
static pn_query_set_t *random_queries(pni_rng_t *rng, const pn_net_t *net)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    for (int k = 0; k < 4; k++) {
        char text[2048] = "";
        strcpy(text, k % 2 ? "AG " : "EF ");
        random_formula(rng, np, nt, 3, text, sizeof text);
        ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                      "%s: column %lu: %s", text, err.column, err.text);
    }
    ck_assert_int_eq(pn_query_parse(qs, "bound(p0, p1)", net, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(qs, "bound(p1)", net, &err), PN_OK);
    return qs;
}

/* The full search's answers (a limit of states keeps unbounded nets
 * short: what it leaves unknown is not compared). */
static pn_reach_t *full_search(const pn_net_t *net, const pn_query_set_t *qs,
                               pn_query_answer_t *ans)
{
    return tu_search(net, qs, ans, 3000, 0);
}

START_TEST(state_equation_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2021);
    int conclusions = 0, bounds = 0, skipped = 0, exact = 0;
    for (int i = 0; i < 600; i++) {
        pn_net_t *net = random_net(&rng, i % 3, 1);
        pn_query_set_t *qs = random_queries(&rng, net);
        pn_query_answer_t ans[6];
        pn_reach_t *r = full_search(net, qs, ans);
        int complete = pn_reach_end(r) == PN_REACH_COMPLETE;
        if (!pni_lp_sound(net)) {
            /* reset arcs or capacities: the equation is never used */
            int special = 0;
            for (size_t a = 0; a < pn_net_arc_count(net); a++)
                special |= pn_net_arc(net, a)->kind == PN_ARC_RESET;
            for (size_t p = 0; p < pn_net_place_count(net); p++)
                special |= pn_net_place(net, p)->capacity != 0;
            ck_assert(special);
            skipped++;
        } else {
            pni_lp_t *lp = pni_lp_new(net);
            ck_assert_ptr_nonnull(lp);
            for (size_t q = 0; q < qs->n; q++) {
                const pn_query_t *qq = &qs->q[q];
                if (qq->kind == PN_QUERY_BOUND) {
                    uint64_t ub;
                    if (!pni_lp_bound(lp, &qq->bound, 0.1, &ub))
                        continue;
                    bounds++;
                    /* above every value found; the exact bound when
                     * the search is complete */
                    ck_assert_msg(ub >= ans[q].bound, "net %d: ub %llu, "
                                  "found %llu", i, (unsigned long long)ub,
                                  (unsigned long long)ans[q].bound);
                    exact += complete && ub == ans[q].bound;
                    continue;
                }
                int ag = qq->kind == PN_QUERY_AG;
                if (!pni_lp_impossible(lp, qq->formula, ag, 0.1))
                    continue;
                conclusions++;
                /* EF false, AG true: the search must not have found a
                 * witness (EF) or a counterexample (AG) */
                ck_assert_msg(!ans[q].known || ans[q].value == ag,
                              "net %d, query %zu: the state equation says "
                              "%s, the search %s", i, q,
                              ag ? "true" : "false",
                              ans[q].value ? "true" : "false");
            }
            pni_lp_free(lp);
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    /* the test means something only if the equation concluded often */
    ck_assert_int_gt(conclusions, 200);
    ck_assert_int_gt(bounds, 200);
    ck_assert_int_gt(exact, 100);
    ck_assert_int_gt(skipped, 100);
}
END_TEST

/* pn_reach_solve() on a short clock: every answer it gives is the
 * search's, and every answer it passes on is passed once. */
typedef struct {
    int told[6];
} told_t;

static void on_answer(size_t i, const pn_query_answer_t *a, unsigned tech,
                      void *ctx)
{
    told_t *t = ctx;
    ck_assert(a->known);
    ck_assert(tech != 0);
    ck_assert_int_lt(i, 6);
    t->told[i]++;
}

START_TEST(solve_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 77);
    int walked = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_net(&rng, i % 3, 1);
        pn_query_set_t *qs = random_queries(&rng, net);
        pn_query_answer_t full[6], got[6];
        pn_reach_t *r = full_search(net, qs, full);
        pn_reach_free(r);
        told_t t = {{0}};
        pn_reach_solve_options_t so = {0};
        so.time_limit = 0.02;
        so.seed = (uint64_t)i;
        so.on_answer = on_answer;
        so.ctx = &t;
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 3000;
        ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, got, &r), PN_OK);
        for (size_t q = 0; q < qs->n; q++) {
            ck_assert_int_eq(t.told[q], got[q].known);
            if (!got[q].known || !full[q].known)
                continue;
            if (qs->q[q].kind == PN_QUERY_BOUND)
                ck_assert_uint_eq(got[q].bound, full[q].bound);
            else
                ck_assert_msg(got[q].value == full[q].value,
                              "net %d, query %zu", i, q);
            walked += got[q].state == PN_REACH_NO_STATE &&
                      qs->q[q].kind == PN_QUERY_EF && got[q].value;
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_int_gt(walked, 0);
}
END_TEST

/* A walk's witness on a net too large to search: a counter that reaches
 * 500 only after 500 firings of t, which the walk finds and the search
 * with 100 states cannot. */
START_TEST(walk_finds_deep_witness)
{
    pn_net_t *net = pn_net_new("deep");
    pn_net_add_place(net, "src", NULL, 1000, NULL);
    pn_net_add_place(net, "dst", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "src", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "dst", 1, PN_ARC_NORMAL, NULL);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF dst >= 500", net, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(qs, "EF dst >= 1001", net, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(qs, "bound(dst)", net, &err), PN_OK);
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = 100;
    pn_reach_solve_options_t so = {0};
    so.time_limit = 5;
    pn_query_answer_t a[3];
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, a, &r), PN_OK);
    ck_assert(a[0].known && a[0].value);   /* the walk */
    ck_assert(a[1].known && !a[1].value);  /* the state equation */
    ck_assert(a[2].known);                 /* 1000 both ways */
    ck_assert_uint_eq(a[2].bound, 1000);
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* ---- simplified formulas -------------------------------------------------- */

static void simp_tech(size_t i, const pn_query_answer_t *a, unsigned tech,
                      void *ctx)
{
    (void)a;
    ((unsigned *)ctx)[i] = tech;
}

/* Atoms the state equation proves false in every reachable marking, under
 * temporal operators (deadlock among them: the net never stops): the
 * formulas become constants, answered at once by query reduction (a
 * limit of one marking, with which the search alone cannot decide
 * them); without simplification they are not. */
START_TEST(simplify_impossible_atoms)
{
    /* p1 + 2 p2 == 3 in every reachable marking: p2 >= 2 never holds */
    pn_net_t *net = pn_net_new("simp");
    pn_net_add_place(net, "p1", NULL, 3, NULL);
    pn_net_add_place(net, "p2", NULL, 0, NULL);
    pn_net_add_transition(net, "t1", NULL, NULL);
    pn_net_add_transition(net, "t2", NULL, NULL);
    pn_net_add_arc(net, NULL, "p1", "t1", 2, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t1", "p2", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p2", "t2", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t2", "p1", 2, PN_ARC_NORMAL, NULL);
    static const char *const texts[] = {
        "AG (p2 <= 1 || EX p1 > 5)",           /* AG true */
        "E [ p1 >= 1 U p2 >= 2 ]",             /* false */
        "LTL G F (p2 >= 2 || p1 + p2 <= 3)",   /* true */
        "AF (p2 > 3 || AX false)",             /* AF deadlock: false */
        "EF (p2 >= 1 && p1 >= 2)",             /* false */
    };
    static const int value[] = {1, 0, 1, 0};
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    for (size_t k = 0; k < 5; k++)
        ck_assert_msg(pn_query_parse(qs, texts[k], net, &err) == PN_OK,
                      "%s: %s", texts[k], err.text);
    for (int no_simplify = 0; no_simplify < 2; no_simplify++) {
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 1;
        pn_reach_solve_options_t so = {0};
        so.time_limit = 5;
        so.no_walk = so.no_reduce = so.no_local = 1;
        so.no_simplify = no_simplify;
        unsigned tech[5] = {0};
        so.on_answer = simp_tech;
        so.ctx = tech;
        pn_query_answer_t a[5];
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, a, &r), PN_OK);
        for (size_t k = 0; k < 4; k++) {
            ck_assert_msg(a[k].known == !no_simplify, "%s", texts[k]);
            if (no_simplify)
                continue;
            ck_assert_int_eq(a[k].value, value[k]);
            ck_assert_uint_eq(tech[k], PN_TECH_QUERY_REDUCTION |
                                           PN_TECH_STATE_EQUATION);
        }
        /* an EF query: the state equation alone, before */
        ck_assert(a[4].known && !a[4].value);
        ck_assert_uint_eq(tech[4], PN_TECH_STATE_EQUATION);
        pn_reach_free(r);
    }
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* Random EF and AG formulas on random nets: pn_reach_solve() with no
 * clock gives the full search's answers with the formulas simplified
 * first and without. */
START_TEST(simplified_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2931);
    int n = tu_count(200, 2000), compared = 0, simplified = 0;
    for (int i = 0; i < n; i++) {
        pn_net_t *net = random_net(&rng, i % 3, 0);
        pn_query_set_t *qs = random_queries(&rng, net);
        pn_query_answer_t full[6];
        pn_reach_t *r = full_search(net, qs, full);
        pn_reach_free(r);
        for (int no_simplify = 0; no_simplify < 2; no_simplify++) {
            pn_query_answer_t got[6];
            unsigned tech[6] = {0};
            pn_reach_solve_options_t so = {0};
            so.no_simplify = no_simplify;
            so.on_answer = simp_tech;
            so.ctx = tech;
            pn_reach_options_t o;
            pn_reach_options_init(&o);
            o.max_states = 3000;
            ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, got, &r),
                             PN_OK);
            for (size_t q = 0; q < qs->n; q++) {
                simplified += !!(tech[q] & PN_TECH_QUERY_REDUCTION);
                if (qs->q[q].kind == PN_QUERY_BOUND || !got[q].known ||
                    !full[q].known)
                    continue;
                ck_assert_msg(got[q].value == full[q].value,
                              "net %d, query %zu, no_simplify %d", i, q,
                              no_simplify);
                compared++;
            }
            pn_reach_free(r);
        }
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_int_ge(compared, 1000);
    ck_assert_int_ge(simplified, 100);
}
END_TEST

/* A net of two markings, (3, 0) then (1, 1), dead: t1 takes two from p1
 * and puts one on p2. */
static pn_net_t *two_markings_net(void)
{
    pn_net_t *net = pn_net_new("two");
    pn_net_add_place(net, "p1", NULL, 3, NULL);
    pn_net_add_place(net, "p2", NULL, 0, NULL);
    pn_net_add_transition(net, "t1", NULL, NULL);
    pn_net_add_arc(net, NULL, "p1", "t1", 2, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t1", "p2", 1, PN_ARC_NORMAL, NULL);
    return net;
}

/* The rules one by one, on a net of two markings, (3, 0) then (1, 1),
 * dead (p1 + 2 p2 == 3 in every solution of the state equation: p2 >= 2
 * and p1 == 0 never hold, p1 >= 1 always does): each formula simplified,
 * against the text given. */
START_TEST(simplify_rules)
{
    pn_net_t *net = two_markings_net();
    static const char *const rules[][2] = {
        /* the state equation, anywhere */
        {"EF p2 >= 2", "EF false"},
        {"LTL X X (p1 == 0 || p2 >= 1)", "LTL X X p2 >= 1"},
        {"EX EX (p1 >= 1 && p2 >= 2)", "CTL false"},
        {"AG (p1 >= 1 || p2 >= 1)", "AG true"},
        /* without the net: comparisons, booleans */
        {"EF p1 + p2 >= p2 + 2", "EF p1 >= 2"},
        {"EF p1 + 2 < 1", "EF false"},
        {"EF (p1 >= 2 && !(p1 >= 2))", "EF false"},
        {"EF ((p1 >= 2 || p2 == 0) || p1 >= 2)", "EF p1 >= 2 || p2 == 0"},
        {"LTL !!(G p1 == 1)", "LTL G p1 == 1"},
        /* temporal identities */
        {"CTL EX (p2 >= 3 || true)", "CTL !deadlock"},
        {"CTL AX false", "CTL deadlock"},
        {"CTL EF EF AF p1 == 1", "EF p1 == 1"},
        {"CTL AG EG p1 == 1", "AG p1 == 1"},
        {"CTL AF EF p1 == 1", "EF p1 == 1"},
        {"CTL E [ true U p1 == 1 ]", "EF p1 == 1"},
        {"CTL A [ deadlock U p1 == 1 ]", "CTL p1 == 1"},
        {"CTL A [ !deadlock U p1 == 1 ]", "AF p1 == 1"},
        {"CTL E [ p2 == 1 U EF p1 == 1 ]", "EF p1 == 1"},
        {"LTL [ p1 == 1 U F p2 == 1 ]", "LTL F p2 == 1"},
        {"LTL [ false R p1 == 1 ]", "LTL G p1 == 1"},
        {"LTL [ true R p1 == 1 ]", "LTL p1 == 1"},
        {"LTL G G F F p1 == 1", "LTL G F p1 == 1"},
        {"LTL F [ p2 == 1 U X p1 == 1 ]", "LTL F X p1 == 1"},
        {"LTL F G F p1 == 1", "LTL G F p1 == 1"},
        {"LTL G F G p1 == 1", "LTL F G p1 == 1"},
        {"LTL X X p1 == 1", "LTL X X p1 == 1"},
        {"CTL EX EX p1 == 1", "CTL EX EX p1 == 1"},
    };
    size_t n = sizeof rules / sizeof *rules;
    pn_query_set_t *qs = pn_query_set_new(), *want = pn_query_set_new();
    pn_error_t err;
    for (size_t k = 0; k < n; k++) {
        ck_assert_msg(pn_query_parse(qs, rules[k][0], net, &err) == PN_OK,
                      "%s: %s", rules[k][0], err.text);
        ck_assert_msg(pn_query_parse(want, rules[k][1], net, &err) == PN_OK,
                      "%s: %s", rules[k][1], err.text);
    }
    pn_query_answer_t *open = calloc(n, sizeof *open);
    unsigned *tech = calloc(n, sizeof *tech);
    pn_query_set_t *got;
    ck_assert_int_eq(pni_simplify(net, qs, open, 1, pni_clock() + 10, tech,
                                  &got), PN_OK);
    for (size_t k = 0; k < n; k++) {
        char *text = NULL, *wtext = NULL;
        size_t len = 0, wlen = 0;
        FILE *mem = open_memstream(&text, &len);
        pn_query_write(mem, &got->q[k], net);
        fclose(mem);
        mem = open_memstream(&wtext, &wlen);
        pn_query_write(mem, &want->q[k], net);
        fclose(mem);
        ck_assert_msg(!strcmp(text, wtext), "'%s' became '%s', not '%s'",
                      rules[k][0], text, wtext);
        free(wtext);
        /* changed, except the nexts */
        ck_assert_int_eq(!!(tech[k] & PN_TECH_QUERY_REDUCTION), k < n - 2);
        free(text);
    }
    pn_query_set_free(got);
    free(open);
    free(tech);
    pn_query_set_free(want);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* A CTL formula the simplifier turns into EF or AG of a state formula is
 * answered as a reachability query (the walks, the reductions and the
 * search's own check take it); the marking that decides it is kept as its
 * witness only where the formula stood under that EF or AG at the top:
 * !AG p2 == 0 is true at (1, 1), but (1, 1) is no "EF holds here" of it.
 * On two_markings_net(). */
START_TEST(simplified_reachability_witness)
{
    pn_net_t *net = two_markings_net();
    static const char *const texts[] = {
        "CTL !AG p2 == 0",                /* EF p2 != 0: true */
        "CTL EF (p2 == 1 && EF p1 >= 1)", /* EF p2 == 1: true */
        "CTL !EF (p2 >= 2 || p1 == 1)",   /* AG p1 != 1: false */
        "CTL AG (p2 == 0 || EF p2 >= 2)", /* AG p2 == 0: false */
    };
    static const int ef[] = {1, 1, 0, 0};
    static const int value[] = {1, 1, 0, 0};
    static const int witness[] = {0, 1, 0, 1};
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    for (size_t k = 0; k < 4; k++)
        ck_assert_msg(pn_query_parse(qs, texts[k], net, &err) == PN_OK,
                      "%s: %s", texts[k], err.text);
    for (size_t k = 0; k < 4; k++)
        ck_assert_int_eq(qs->q[k].kind, PN_QUERY_CTL);
    pn_query_answer_t *open = calloc(4, sizeof *open);
    unsigned tech[4] = {0};
    pn_query_set_t *sq;
    ck_assert_int_eq(pni_simplify(net, qs, open, 1, pni_clock() + 10, tech,
                                  &sq), PN_OK);
    for (size_t k = 0; k < 4; k++) {
        ck_assert_msg(sq->q[k].kind == (ef[k] ? PN_QUERY_EF : PN_QUERY_AG),
                      "%s: kind %d", texts[k], (int)sq->q[k].kind);
        ck_assert_int_eq(pni_simplified_witness(&qs->q[k], &sq->q[k]),
                         witness[k]);
    }
    pn_query_set_free(sq);
    free(open);
    pn_reach_solve_options_t so = {0};
    pn_query_answer_t a[4];
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_solve(net, NULL, &so, qs, a, &r), PN_OK);
    for (size_t k = 0; k < 4; k++) {
        ck_assert_msg(a[k].known && a[k].value == value[k], "%s", texts[k]);
        ck_assert_msg((a[k].state != PN_REACH_NO_STATE) == witness[k],
                      "%s: state %u", texts[k], (unsigned)a[k].state);
    }
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* A chain of 40 steps, each with three decoys that lead the token
 * astray for good: c0 -> c1 -> ... -> c40, or c_i -> lost.  A random walk
 * reaches c40 once in 4^40 tries; the Parikh walk, guided by the state
 * equation (which fires the right step of each link once), at once. */
static pn_net_t *decoy_chain(void)
{
    pn_net_t *net = pn_net_new("chain");
    char a[32], b[32], t[32];
    pn_net_add_place(net, "lost", NULL, 0, NULL);
    for (int i = 0; i <= 40; i++) {
        snprintf(a, sizeof a, "c%d", i);
        pn_net_add_place(net, a, NULL, i == 0, NULL);
    }
    for (int i = 0; i < 40; i++) {
        snprintf(a, sizeof a, "c%d", i);
        snprintf(b, sizeof b, "c%d", i + 1);
        for (int k = 0; k < 4; k++) {
            snprintf(t, sizeof t, "t%d_%d", i, k);
            pn_net_add_transition(net, t, NULL, NULL);
            pn_net_add_arc(net, NULL, a, t, 1, PN_ARC_NORMAL, NULL);
            /* the right one is not always the first */
            pn_net_add_arc(net, NULL, t, k == i % 4 ? b : "lost", 1,
                           PN_ARC_NORMAL, NULL);
        }
    }
    return net;
}

/* A pool of 100 tokens and a counter: one transition moves a token up,
 * five move one back.  A random walk drifts down and reaches 60 once in
 * some 10^40 walks; a walk guided by the distance to "up >= 60" goes
 * straight there. */
static pn_net_t *drift(void)
{
    pn_net_t *net = pn_net_new("drift");
    pn_net_add_place(net, "pool", NULL, 100, NULL);
    pn_net_add_place(net, "up", NULL, 0, NULL);
    pn_net_add_transition(net, "inc", NULL, NULL);
    pn_net_add_arc(net, NULL, "pool", "inc", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "inc", "up", 1, PN_ARC_NORMAL, NULL);
    for (int k = 0; k < 5; k++) {
        char t[16];
        snprintf(t, sizeof t, "dec%d", k);
        pn_net_add_transition(net, t, NULL, NULL);
        pn_net_add_arc(net, NULL, "up", t, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, t, "pool", 1, PN_ARC_NORMAL, NULL);
    }
    return net;
}

/* What the walks' witnesses are checked against: replayed here by
 * pn_sim_fire(), one transition a step, from the initial marking. */
typedef struct {
    const pn_net_t *net;
    const pn_query_set_t *qs;
    int witnesses;
    size_t len;
} replayed_t;

static void on_witness(size_t i, const uint32_t *trace, size_t n, void *ctx)
{
    replayed_t *r = ctx;
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(r->net, &e), PN_OK);
    pn_sim_t *s = pn_sim_new(e, 1, PN_SEM_INTERLEAVING, 0);
    for (size_t k = 0; k < n; k++)
        ck_assert_int_eq(pn_sim_fire(s, &trace[k], 1, NULL), PN_OK);
    const pn_query_t *q = &r->qs->q[i];
    const uint64_t *m = pn_sim_marking(s);
    if (q->kind == PN_QUERY_BOUND)
        ck_assert_uint_ge(pni_query_value(&q->bound, m), 1);
    else
        ck_assert_int_eq(pni_formula_holds(e, (uint32_t)pn_net_transition_count(
                                                  r->net),
                                           q->formula, m),
                         q->kind == PN_QUERY_EF);
    r->witnesses++;
    r->len = n;
    pn_sim_free(s);
    pn_engine_free(e);
}

/* The walks of the kinds given on query text over net, max_steps firings
 * at most: whether it was decided, and the firings made. */
static int walk_kinds(const pn_net_t *net, const char *text, unsigned kinds,
                      uint64_t max_steps, uint64_t seed, uint64_t *steps,
                      size_t *len)
{
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, text, net, &err), PN_OK);
    replayed_t r = {net, qs, 0, 0};
    pni_walk_options_t wo = {0};
    wo.deadline = pni_clock() + 30;
    wo.seed = seed;
    wo.max_steps = max_steps;
    wo.kinds = kinds;
    wo.on_witness = on_witness;
    wo.ctx = &r;
    pn_query_answer_t a[1];
    memset(a, 0, sizeof a);
    a[0].state = PN_REACH_NO_STATE;
    uint64_t ub = 1;
    ck_assert_int_eq(pni_walk_with(net, qs, a, &ub, &wo, NULL, NULL), PN_OK);
    ck_assert_int_eq(r.witnesses, a[0].known);
    *steps = wo.steps;
    *len = r.len;
    pn_query_set_free(qs);
    return a[0].known;
}

START_TEST(guided_walks_find_what_random_ones_miss)
{
    pn_net_t *chain = decoy_chain(), *up = drift();
    uint64_t steps, again;
    size_t len;
    static const char *chain_q[] = {"EF c40 >= 1", "AG c40 == 0",
                                    "EF lost == 0 && c40 == 1"};
    for (int q = 0; q < 3; q++) {
        /* random walks: 100,000 firings and not there */
        ck_assert(!walk_kinds(chain, chain_q[q], PNI_WALK_RANDOM, 100000, 1,
                              &steps, &len));
        ck_assert_uint_eq(steps, 100000);
        /* the Parikh walk: the first walk, 40 steps */
        ck_assert_msg(walk_kinds(chain, chain_q[q], PNI_WALK_PARIKH, 1000, 1,
                                 &steps, &len), "%s", chain_q[q]);
        ck_assert_uint_eq(len, 40);
        ck_assert_uint_le(steps, 1000);
        ck_assert(walk_kinds(chain, chain_q[q], PNI_WALK_PARIKH, 1000, 1,
                             &again, &len));
        ck_assert_uint_eq(again, steps); /* the same seed, the same walk */
    }
    /* the lower bound of a bound query, decided when it meets ub = 1 */
    ck_assert(walk_kinds(chain, "bound(c40)", PNI_WALK_PARIKH, 1000, 1,
                         &steps, &len));
    ck_assert(!walk_kinds(up, "EF up >= 60", PNI_WALK_RANDOM, 100000, 2,
                          &steps, &len));
    ck_assert(walk_kinds(up, "EF up >= 60", PNI_WALK_DISTANCE, 1000, 2,
                         &steps, &len));
    ck_assert_uint_eq(len, 60);
    ck_assert(walk_kinds(up, "AG !(up >= 60 || fireable(inc) && pool == 0)",
                         PNI_WALK_DISTANCE, 1000, 2, &steps, &len));
    /* every kind in turn, from different seeds: still found, and the
     * same seed walks the same way */
    for (uint64_t seed = 0; seed < 5; seed++) {
        ck_assert(walk_kinds(chain, "EF c40 >= 1", 0, 200000, seed, &steps,
                             &len));
        ck_assert(walk_kinds(chain, "EF c40 >= 1", 0, 200000, seed, &again,
                             &len));
        ck_assert_uint_eq(again, steps);
    }
    pn_net_free(chain);
    pn_net_free(up);
}
END_TEST

/* ---- traps: cuts of the state equation, and Commoner's property ---------- */

/* a (1 token) and b pass a token back and forth (t1: a -> b, t2: b ->
 * a); t4: a + b -> a.  {a, b} is a trap marked at m0, so a + b >= 1
 * always and the net never deadlocks; the state equation alone has the
 * dead solution a = b = 0 (t1 once, t4 once).  extra: a place c, empty,
 * and t3: c -(w)-> a, whose siphon {c} is never marked (Commoner's
 * property fails) and whose weight w > 1 makes the net not ordinary. */
static pn_net_t *trap_net(int extra, uint64_t w)
{
    pn_net_t *net = pn_net_new("trap");
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_transition(net, "t1", NULL, NULL);
    pn_net_add_transition(net, "t2", NULL, NULL);
    pn_net_add_transition(net, "t4", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "t1", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t1", "b", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "t2", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t2", "a", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "a", "t4", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "t4", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t4", "a", 1, PN_ARC_NORMAL, NULL);
    if (extra) {
        pn_net_add_place(net, "c", NULL, 0, NULL);
        pn_net_add_transition(net, "t3", NULL, NULL);
        pn_net_add_arc(net, NULL, "c", "t3", w, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, "t3", "a", 1, PN_ARC_NORMAL, NULL);
    }
    return net;
}

/* What pni_lp_impossible() says of query text on net (0: no conclusion),
 * with the trap cuts (traps 1) or the plain equation. */
static int lp_says(const pn_net_t *net, const char *text, int traps)
{
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, text, net, &err), PN_OK);
    pni_lp_t *lp = pni_lp_new(net);
    ck_assert_ptr_nonnull(lp);
    pni_traps_t *keep = pni_lp_set_traps(lp, NULL);
    if (traps)
        pni_lp_set_traps(lp, keep);
    else
        pni_traps_free(keep);
    int v = pni_lp_impossible(lp, qs->q[0].formula,
                              qs->q[0].kind == PN_QUERY_AG, 5);
    pni_lp_free(lp);
    pn_query_set_free(qs);
    return v;
}

START_TEST(traps_prove_deadlock_freedom)
{
    /* ordinary, every siphon holds a marked trap: the cuts (2) and
     * Commoner (3) */
    pn_net_t *net = trap_net(0, 1);
    ck_assert_int_eq(lp_says(net, "EF deadlock", 0), 0);
    ck_assert_int_ge(lp_says(net, "EF deadlock", 1), 2);
    ck_assert_int_ge(lp_says(net, "AG !deadlock", 1), 2);
    pni_traps_t *traps = pni_traps_new(net);
    ck_assert_int_eq(pni_traps_no_deadlock(traps, 5), 3);
    pni_traps_free(traps);
    /* a marking the equation reaches, not the net: the cut removes it */
    ck_assert_int_eq(lp_says(net, "EF (a == 0 && b == 0)", 0), 0);
    ck_assert_int_eq(lp_says(net, "EF (a == 0 && b == 0)", 1), 2);
    ck_assert_int_eq(lp_says(net, "AG a + b >= 1", 1), 2);
    /* a reachable marking is never excluded */
    ck_assert_int_eq(lp_says(net, "EF (a == 0 && b == 1)", 1), 0);
    pn_net_free(net);
    /* the empty siphon {c}: Commoner fails, the cuts still prove it;
     * weight 2: not ordinary, the same */
    for (uint64_t w = 1; w <= 2; w++) {
        net = trap_net(1, w);
        ck_assert_int_eq(lp_says(net, "EF deadlock", 0), 0);
        ck_assert_int_eq(lp_says(net, "EF deadlock", 1), 2);
        traps = pni_traps_new(net);
        ck_assert_int_eq(pni_traps_no_deadlock(traps, 5), 2);
        pni_traps_free(traps);
        /* and pn_reach_solve() answers it, the full search agreeing */
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, "EF deadlock", net, &err), PN_OK);
        pn_query_answer_t full, got;
        pn_reach_t *r = full_search(net, qs, &full);
        ck_assert(full.known && !full.value);
        pn_reach_free(r);
        told_t t = {{0}};
        pn_reach_solve_options_t so = {0};
        so.time_limit = 5;
        so.on_answer = on_answer;
        so.ctx = &t;
        so.no_walk = so.no_reduce = 1;
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 1; /* the search cannot decide it */
        ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, &got, &r), PN_OK);
        ck_assert(got.known && !got.value);
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
}
END_TEST

/* A real deadlock is never proven away: a (1 token) -> b -> c, and c a
 * sink; with the trap {a, b} of trap_net() beside it, marked. */
START_TEST(traps_keep_real_deadlock)
{
    pn_net_t *net = trap_net(0, 1);
    pn_net_add_place(net, "d", NULL, 0, NULL);
    pn_net_add_transition(net, "t5", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "t5", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t5", "d", 1, PN_ARC_NORMAL, NULL);
    ck_assert_int_eq(lp_says(net, "EF deadlock", 1), 0);
    ck_assert_int_eq(lp_says(net, "AG !deadlock", 1), 0);
    pni_traps_t *traps = pni_traps_new(net);
    ck_assert_int_eq(pni_traps_no_deadlock(traps, 5), 0);
    pni_traps_free(traps);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "EF deadlock", net, &err), PN_OK);
    pn_query_answer_t got;
    pn_reach_solve_options_t so = {0};
    so.time_limit = 5;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_solve(net, NULL, &so, qs, &got, &r), PN_OK);
    ck_assert(got.known && got.value);
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* A random net for deadlock: 2-6 places, half of them marked, 1-5
 * transitions, each with 1-2 inputs and 0-2 outputs, weight 1 (ordinary)
 * or, in kinds 1, now and then a weight 2, a read or an inhibitor
 * arc. */
static pn_net_t *random_dead_net(pni_rng_t *rng, int kinds)
{
    pn_net_t *net = pn_net_new("dead");
    size_t np = 2 + (size_t)pni_rng_below(rng, 5);
    size_t nt = 1 + (size_t)pni_rng_below(rng, 5);
    char id[16];
    for (size_t p = 0; p < np; p++) {
        snprintf(id, sizeof id, "p%zu", p);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, 2), NULL);
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
        /* as many outputs as inputs two times in three: tokens kept,
         * nets that live longer */
        uint64_t nin = 1 + pni_rng_below(rng, 2), nout = nin;
        if (pni_rng_below(rng, 3) == 0)
            nout = pni_rng_below(rng, 3);
        for (uint64_t k = 0; k < nin + nout; k++) {
            size_t p = (size_t)pni_rng_below(rng, np);
            uint64_t w = 1, r = kinds ? pni_rng_below(rng, 8) : 7;
            pn_arc_kind_t kind = r == 0   ? PN_ARC_INHIBITOR
                                 : r == 1 ? PN_ARC_READ
                                          : PN_ARC_NORMAL;
            if (r == 2)
                w = 2;
            pn_net_add_arc_at(net, NULL, k < nin ? PN_DIR_PT : PN_DIR_TP, p,
                              t, w, k < nin ? kind : PN_ARC_NORMAL, NULL);
        }
    }
    return net;
}

/* Every "no deadlock" the traps prove (cuts or Commoner) is the full
 * search's answer, on random nets. */
START_TEST(traps_against_search)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 29);
    int n = tu_count(400, 4000), cuts = 0, commoner = 0, plain = 0;
    for (int i = 0; i < n; i++) {
        pn_net_t *net = random_dead_net(&rng, i % 2);
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, "EF deadlock", net, &err), PN_OK);
        ck_assert_int_eq(pn_query_parse(qs, "EF (p0 == 0 && p1 == 0)", net,
                                        &err), PN_OK);
        pn_query_answer_t full[2];
        pn_reach_t *r = full_search(net, qs, full);
        pni_lp_t *lp = pni_lp_new(net);
        ck_assert_ptr_nonnull(lp);
        for (size_t q = 0; q < 2; q++) {
            int v = pni_lp_impossible(lp, qs->q[q].formula, 0, 1);
            if (!v)
                continue;
            ck_assert_msg(!full[q].known || !full[q].value,
                          "net %d, query %zu: proven %d, the search found "
                          "it", i, q, v);
            cuts += v == 2;
            plain += v == 1;
        }
        /* the deadlock problem whole and the siphons, on their own */
        pni_traps_t *traps = pni_traps_new(net);
        ck_assert_ptr_nonnull(traps);
        int v = pni_traps_no_deadlock(traps, 1);
        ck_assert_msg(!v || !full[0].known || !full[0].value,
                      "net %d: proven %d, the search found a deadlock", i, v);
        commoner += v == 3;
        cuts += v == 2;
        pni_traps_free(traps);
        pni_lp_free(lp);
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    /* the test means something only if each way concluded */
    ck_assert_int_gt(cuts, n / 40);
    ck_assert_int_gt(commoner, n / 100);
    ck_assert_int_gt(plain, n / 40);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lp");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, state_equation_against_search);
    tcase_add_test(tc, solve_against_search);
    tcase_add_test(tc, walk_finds_deep_witness);
    tcase_add_test(tc, simplify_impossible_atoms);
    tcase_add_test(tc, simplified_against_search);
    tcase_add_test(tc, simplify_rules);
    tcase_add_test(tc, simplified_reachability_witness);
    tcase_add_test(tc, guided_walks_find_what_random_ones_miss);
    tcase_add_test(tc, traps_prove_deadlock_freedom);
    tcase_add_test(tc, traps_keep_real_deadlock);
    tcase_add_test(tc, traps_against_search);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
