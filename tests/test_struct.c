/* pn/struct.h: minimal siphons and traps against brute force on small
 * random nets, the semiflows' defining properties, classes, limits. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "pn.h"

/* A random net of np places and nt transitions: each pair joined in and
 * out with probability 1/4 each, weights 1 or 2 (a ninth of the arcs),
 * about half the places marked. */
static pn_net_t *random_net(unsigned *seed, size_t np, size_t nt)
{
    pn_net_t *net = pn_net_new("r");
    char a[32], b[32];
    for (size_t p = 0; p < np; p++) {
        snprintf(a, sizeof a, "p%zu", p);
        pn_net_add_place(net, a, NULL, rand_r(seed) % 2 ? 1 : 0, NULL);
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(a, sizeof a, "t%zu", t);
        pn_net_add_transition(net, a, NULL, NULL);
    }
    for (size_t p = 0; p < np; p++)
        for (size_t t = 0; t < nt; t++)
            for (int dir = 0; dir < 2; dir++)
                if (rand_r(seed) % 4 == 0) {
                    snprintf(a, sizeof a, "p%zu", p);
                    snprintf(b, sizeof b, "t%zu", t);
                    uint64_t w = rand_r(seed) % 9 ? 1 : 2;
                    pn_net_add_arc(net, NULL, dir ? b : a, dir ? a : b, w,
                                   PN_ARC_NORMAL, NULL);
                }
    return net;
}

/* The places each transition takes from (in) and puts into (out), as
 * masks. */
static void masks(const pn_net_t *net, unsigned *in, unsigned *out)
{
    size_t nt = pn_net_transition_count(net);
    for (size_t t = 0; t < nt; t++)
        in[t] = out[t] = 0;
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->dir == PN_DIR_PT)
            in[a->transition] |= 1u << a->place;
        else
            out[a->transition] |= 1u << a->place;
    }
}

/* Whether S is a siphon (every transition putting into S takes from S),
 * or with in and out swapped a trap. */
static int closed(unsigned s, const unsigned *in, const unsigned *out,
                  size_t nt)
{
    for (size_t t = 0; t < nt; t++)
        if ((out[t] & s) && !(in[t] & s))
            return 0;
    return 1;
}

static int by_mask(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* The minimal siphons (traps) of the net by brute force, sorted masks;
 * returns how many. */
static size_t brute(size_t np, size_t nt, const unsigned *in,
                    const unsigned *out, unsigned *found)
{
    size_t n = 0;
    for (unsigned s = 1; s < 1u << np; s++) {
        if (!closed(s, in, out, nt))
            continue;
        int minimal = 1;
        /* every nonempty proper subset */
        for (unsigned u = (s - 1) & s; u && minimal; u = (u - 1) & s)
            if (closed(u, in, out, nt))
                minimal = 0;
        if (minimal)
            found[n++] = s;
    }
    return n;
}

static unsigned marking_mask(const pn_net_t *net)
{
    unsigned m = 0;
    for (size_t p = 0; p < pn_net_place_count(net); p++)
        if (pn_net_place(net, p)->marking)
            m |= 1u << p;
    return m;
}

START_TEST(siphons_and_traps_against_brute_force)
{
    unsigned seed = 31;
    for (int round = 0; round < 400; round++) {
        size_t np = 1 + rand_r(&seed) % 8, nt = rand_r(&seed) % 7;
        pn_net_t *net = random_net(&seed, np, nt);
        unsigned in[8], out[8], want[256], got[256];
        masks(net, in, out);
        unsigned marked = marking_mask(net);
        for (int traps = 0; traps < 2; traps++) {
            size_t nw = traps ? brute(np, nt, out, in, want)
                              : brute(np, nt, in, out, want);
            pn_siphons_t *s;
            ck_assert_int_eq(pn_siphons_compute(net, traps, 0, &s), PN_OK);
            ck_assert_int_eq(s->end, PN_STRUCT_COMPLETE);
            ck_assert_uint_eq(s->n, nw);
            int commoner = 1;
            for (size_t i = 0; i < s->n; i++) {
                unsigned m = 0;
                for (size_t k = 0; k < s->len[i]; k++) {
                    if (k)
                        ck_assert_uint_lt(s->place[i][k - 1], s->place[i][k]);
                    m |= 1u << s->place[i][k];
                }
                got[i] = m;
                /* marked: the trap itself, or a marked trap inside */
                int want_marked = 0;
                if (traps)
                    want_marked = (m & marked) != 0;
                else
                    for (unsigned u = m; u && !want_marked; u = (u - 1) & m)
                        want_marked = (u & marked) && closed(u, out, in, nt);
                ck_assert_int_eq(s->marked[i], want_marked);
                commoner &= want_marked;
            }
            ck_assert_int_eq(s->commoner, traps ? -1 : commoner);
            qsort(got, s->n, sizeof *got, by_mask);
            for (size_t i = 0; i < nw; i++)
                ck_assert_uint_eq(got[i], want[i]);
            pn_siphons_free(s);
        }
        pn_net_free(net);
    }
}
END_TEST

/* Every semiflow found is one (y C = 0 or C x = 0, y >= 0, not zero, no
 * common divisor), no support holds another's, and covered says which
 * nodes they cover. */
START_TEST(semiflows_are_minimal_semiflows)
{
    unsigned seed = 7;
    for (int round = 0; round < 300; round++) {
        size_t np = 1 + rand_r(&seed) % 8, nt = rand_r(&seed) % 7;
        pn_net_t *net = random_net(&seed, np, nt);
        for (int tr = 0; tr < 2; tr++) {
            pn_flows_t *f;
            ck_assert_int_eq(pn_flows_compute(net, tr, 0, &f), PN_OK);
            ck_assert_int_eq(f->end, PN_STRUCT_COMPLETE);
            ck_assert_uint_eq(f->dim, tr ? nt : np);
            unsigned cover = 0, sup[512];
            ck_assert_uint_le(f->n, 512);
            for (size_t i = 0; i < f->n; i++) {
                int64_t sum[8] = {0}, g = 0;
                unsigned s = 0;
                for (size_t k = 0; k < f->dim; k++) {
                    ck_assert_int_ge(f->y[i][k], 0);
                    if (f->y[i][k])
                        s |= 1u << k;
                    int64_t a = f->y[i][k], b = g;
                    while (b) {
                        int64_t r = a % b;
                        a = b;
                        b = r;
                    }
                    g = a;
                }
                ck_assert_uint_ne(s, 0);
                ck_assert_int_eq(g, 1);
                for (size_t j = 0; j < pn_net_arc_count(net); j++) {
                    const pn_arc_t *a = pn_net_arc(net, j);
                    int64_t w = a->dir == PN_DIR_TP ? (int64_t)a->weight
                                                    : -(int64_t)a->weight;
                    if (tr)
                        sum[a->place] += w * f->y[i][a->transition];
                    else
                        sum[a->transition] += w * f->y[i][a->place];
                }
                for (size_t k = 0; k < (tr ? np : nt); k++)
                    ck_assert_int_eq(sum[k], 0);
                for (size_t j = 0; j < i; j++)
                    ck_assert((sup[j] & s) != sup[j] && (sup[j] & s) != s);
                sup[i] = s;
                cover |= s;
            }
            for (size_t k = 0; k < f->dim; k++)
                ck_assert_int_eq(f->covered[k], (cover >> k) & 1);
            ck_assert_int_eq(pn_flows_positive(f),
                             cover == (1u << f->dim) - 1);
            pn_flows_free(f);
        }
        pn_net_free(net);
    }
}
END_TEST

START_TEST(classes_and_other_arcs)
{
    pn_net_t *net = pn_net_new("n");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_place(net, "q", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "q", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "q", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "u", "p", 1, PN_ARC_NORMAL, NULL);
    unsigned all = PN_CLASS_ORDINARY | PN_CLASS_PURE |
                   PN_CLASS_STATE_MACHINE | PN_CLASS_MARKED_GRAPH |
                   PN_CLASS_FREE_CHOICE | PN_CLASS_EXTENDED_FREE_CHOICE |
                   PN_CLASS_ASYMMETRIC_CHOICE;
    ck_assert_uint_eq(pn_net_classes(net), all);
    /* a read arc: the same classes, of the net without it */
    pn_net_add_arc(net, NULL, "q", "t", 1, PN_ARC_READ, NULL);
    ck_assert_uint_eq(pn_net_classes(net), all | PN_CLASS_OTHER_ARCS);
    /* a second arc p -> t: weight 2 in all, no longer ordinary */
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    ck_assert_uint_eq(pn_net_classes(net),
                      PN_CLASS_PURE | PN_CLASS_OTHER_ARCS);
    ck_assert_str_eq(pn_net_class_name(PN_CLASS_MARKED_GRAPH),
                     "marked graph");
    ck_assert_ptr_null(pn_net_class_name(3));
    pn_net_free(net);
}
END_TEST

/* Past the limit: stopped, said so, nothing claimed. */
START_TEST(limits_say_more_than_n)
{
    pn_net_t *net = pn_net_new("n");
    char a[32], b[32];
    /* four places in a ring through four transitions, each place also
     * with a private loop: many siphons and semiflows */
    for (int i = 0; i < 4; i++) {
        snprintf(a, sizeof a, "p%d", i);
        pn_net_add_place(net, a, NULL, 1, NULL);
    }
    for (int i = 0; i < 4; i++) {
        snprintf(b, sizeof b, "t%d", i);
        pn_net_add_transition(net, b, NULL, NULL);
        snprintf(a, sizeof a, "p%d", i);
        pn_net_add_arc(net, NULL, a, b, 1, PN_ARC_NORMAL, NULL);
        snprintf(a, sizeof a, "p%d", (i + 1) % 4);
        pn_net_add_arc(net, NULL, b, a, 1, PN_ARC_NORMAL, NULL);
        snprintf(b, sizeof b, "u%d", i);
        pn_net_add_transition(net, b, NULL, NULL);
        snprintf(a, sizeof a, "p%d", i);
        pn_net_add_arc(net, NULL, a, b, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, b, a, 1, PN_ARC_NORMAL, NULL);
    }
    pn_flows_t *f;
    ck_assert_int_eq(pn_flows_compute(net, 1, 2, &f), PN_OK);
    ck_assert_int_eq(f->end, PN_STRUCT_MAX);
    ck_assert_uint_eq(f->limit, 2);
    ck_assert_uint_eq(f->n, 0);
    ck_assert_int_eq(pn_flows_positive(f), -1);
    pn_flows_free(f);
    ck_assert_int_eq(pn_flows_compute(net, 1, 0, &f), PN_OK);
    ck_assert_int_eq(f->end, PN_STRUCT_COMPLETE);
    ck_assert_uint_eq(f->n, 5);
    pn_flows_free(f);
    pn_siphons_t *s;
    ck_assert_int_eq(pn_siphons_compute(net, 1, 1, &s), PN_OK);
    ck_assert_int_eq(s->end, PN_STRUCT_COMPLETE);
    ck_assert_uint_eq(s->n, 1);
    pn_siphons_free(s);
    ck_assert_int_eq(pn_flows_compute(NULL, 0, 0, &f), PN_EINVAL);
    ck_assert_int_eq(pn_siphons_compute(net, 0, 0, NULL), PN_EINVAL);
    pn_net_free(net);
}
END_TEST

/* The LP's bounds against the full search on random nets: each place's
 * bound at least the largest count found on a bounded net, no bound
 * somewhere on every unbounded one; the cones against the semiflows (a positive P-semiflow
 * exactly when conservative, a positive T-semiflow exactly when
 * consistent); structurally bounded nets bounded. */
START_TEST(lp_bounds_against_the_search)
{
    unsigned seed = 11;
    int bounded = 0, unbounded = 0;
    for (int round = 0; round < 300; round++) {
        size_t np = 1 + rand_r(&seed) % 6, nt = 1 + rand_r(&seed) % 5;
        pn_net_t *net = random_net(&seed, np, nt);
        pn_lp_bounds_t *b;
        ck_assert_int_eq(pn_lp_bounds_compute(net, 0, &b), PN_OK);
        ck_assert_int_eq(b->end, PN_STRUCT_COMPLETE);
        ck_assert_uint_eq(b->solved, np);
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 20000;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        if (pn_reach_end(r) == PN_REACH_COMPLETE) {
            /* a place with no bound from the LP may still be bounded
             * (the equation's solutions include markings no firing
             * reaches) */
            for (size_t p = 0; p < np; p++) {
                ck_assert_int_ge(b->state[p], 0);
                if (b->state[p])
                    ck_assert_uint_ge(b->bound[p],
                                      pn_reach_place_bound(r, p));
            }
            bounded += b->bounded == 1;
        } else if (pn_reach_end(r) == PN_REACH_UNBOUNDED) {
            unbounded++;
            ck_assert_int_eq(b->bounded, 0);
            ck_assert_int_eq(b->structurally_bounded, 0);
            ck_assert_int_eq(b->conservative, 0);
        }
        if (b->structurally_bounded == 1)
            ck_assert_int_eq(b->bounded, 1);
        for (int tr = 0; tr < 2; tr++) {
            pn_flows_t *f;
            ck_assert_int_eq(pn_flows_compute(net, tr, 0, &f), PN_OK);
            ck_assert_int_eq(pn_flows_positive(f),
                             tr ? b->consistent : b->conservative);
            pn_flows_free(f);
        }
        pn_reach_free(r);
        pn_lp_bounds_free(b);
        pn_net_free(net);
    }
    /* both kinds met often enough to mean something */
    ck_assert_int_ge(bounded, 50);
    ck_assert_int_ge(unbounded, 50);
}
END_TEST

/* On a strongly connected state machine of weight-1 arcs every token can
 * reach every place: the bound of each is the tokens in all, and the LP
 * finds exactly that (the search's own bound). */
START_TEST(lp_bounds_tight_on_state_machines)
{
    unsigned seed = 5;
    char a[32], b[32];
    for (int round = 0; round < 100; round++) {
        size_t np = 1 + rand_r(&seed) % 6, chords = rand_r(&seed) % 6;
        pn_net_t *net = pn_net_new("sm");
        uint64_t total = 0;
        for (size_t p = 0; p < np; p++) {
            uint64_t m = rand_r(&seed) % 3;
            total += m;
            snprintf(a, sizeof a, "p%zu", p);
            pn_net_add_place(net, a, NULL, m, NULL);
        }
        /* a ring through every place, then chords */
        for (size_t t = 0; t < np + chords; t++) {
            size_t from = t < np ? t : rand_r(&seed) % np;
            size_t to = t < np ? (t + 1) % np : rand_r(&seed) % np;
            snprintf(b, sizeof b, "t%zu", t);
            pn_net_add_transition(net, b, NULL, NULL);
            snprintf(a, sizeof a, "p%zu", from);
            pn_net_add_arc(net, NULL, a, b, 1, PN_ARC_NORMAL, NULL);
            snprintf(a, sizeof a, "p%zu", to);
            pn_net_add_arc(net, NULL, b, a, 1, PN_ARC_NORMAL, NULL);
        }
        pn_lp_bounds_t *lb;
        ck_assert_int_eq(pn_lp_bounds_compute(net, 0, &lb), PN_OK);
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        for (size_t p = 0; p < np; p++) {
            ck_assert_int_eq(lb->state[p], 1);
            ck_assert_uint_eq(lb->bound[p], total);
            ck_assert_uint_eq(lb->bound[p], pn_reach_place_bound(r, p));
        }
        ck_assert_int_eq(lb->conservative, 1);
        ck_assert_int_eq(lb->consistent, 1);
        pn_reach_free(r);
        pn_lp_bounds_free(lb);
        pn_net_free(net);
    }
}
END_TEST

/* A semiflow with a coefficient past 2^40 is found, not given up: t0
 * takes one token of p0 and puts 2^21 in p1, t1 the same from p1 to p2,
 * so 2^42 p0 + 2^21 p1 + p2 is constant. */
START_TEST(wide_coefficients)
{
    pn_net_t *net = pn_net_new("w");
    pn_net_add_place(net, "p0", NULL, 1, NULL);
    pn_net_add_place(net, "p1", NULL, 0, NULL);
    pn_net_add_place(net, "p2", NULL, 0, NULL);
    pn_net_add_transition(net, "t0", NULL, NULL);
    pn_net_add_transition(net, "t1", NULL, NULL);
    pn_net_add_arc(net, NULL, "p0", "t0", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t0", "p1", 1u << 21, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p1", "t1", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t1", "p2", 1u << 21, PN_ARC_NORMAL, NULL);
    pn_flows_t *f;
    ck_assert_int_eq(pn_flows_compute(net, 0, 0, &f), PN_OK);
    ck_assert_int_eq(f->end, PN_STRUCT_COMPLETE);
    ck_assert_uint_eq(f->n, 1);
    ck_assert_int_eq(f->y[0][0], (int64_t)1 << 42);
    ck_assert_int_eq(f->y[0][1], (int64_t)1 << 21);
    ck_assert_int_eq(f->y[0][2], 1);
    pn_flows_free(f);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("struct");
    TCase *tc = tcase_create("struct");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, siphons_and_traps_against_brute_force);
    tcase_add_test(tc, semiflows_are_minimal_semiflows);
    tcase_add_test(tc, classes_and_other_arcs);
    tcase_add_test(tc, limits_say_more_than_n);
    tcase_add_test(tc, lp_bounds_against_the_search);
    tcase_add_test(tc, lp_bounds_tight_on_state_machines);
    tcase_add_test(tc, wide_coefficients);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
