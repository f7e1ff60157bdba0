/*
 * The GSPN simulator (pn_gspn_simulate()): its random stream against
 * Random123's known answers, Student's t against tables, deterministic
 * delays, immediate priorities and weights, enabling memory, and the same
 * answer for any number of threads.
 */
#include <config.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "sim_private.h"

START_TEST(philox_known_answers)
{
    /* kat_vectors of Random123 1.09: philox4x32 10 rounds */
    static const uint32_t ctr[3][4] = {
        {0, 0, 0, 0},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}};
    static const uint32_t key[3][2] = {
        {0, 0}, {0xffffffff, 0xffffffff}, {0xa4093822, 0x299f31d0}};
    static const uint32_t want[3][4] = {
        {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};
    for (int i = 0; i < 3; i++) {
        uint32_t out[4];
        pni_philox4x32(key[i], ctr[i], out);
        for (int j = 0; j < 4; j++)
            ck_assert_uint_eq(out[j], want[i][j]);
    }
}
END_TEST

START_TEST(student_table)
{
    /* two-sided 95% and 99% points of t tables */
    ck_assert_double_eq_tol(pni_student_quantile(0.975, 1), 12.7062, 1e-4);
    ck_assert_double_eq_tol(pni_student_quantile(0.975, 29), 2.04523, 1e-5);
    ck_assert_double_eq_tol(pni_student_quantile(0.995, 29), 2.75639, 1e-5);
    ck_assert_double_eq_tol(pni_student_quantile(0.975, 1e6), 1.95996, 1e-5);
}
END_TEST

/* A cycle P0 -> A -> P1 -> B -> P0 with one token; kinds and rates of A
 * and B given. */
static pn_net_t *cycle(pn_timing_t ka, double ra, pn_timing_t kb, double rb)
{
    pn_net_t *net = pn_net_new("cycle");
    ck_assert_int_eq(pn_net_add_place(net, "P0", NULL, 1, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "P1", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "A", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "B", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "P0", "A", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "A", "P1", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "P1", "B", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "B", "P0", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 0, ka, ra, 1, PN_SERVER_SINGLE),
                     PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 1, kb, rb, 1, PN_SERVER_SINGLE),
                     PN_OK);
    return net;
}

static pn_gspn_sim_result_t *simulate(const pn_net_t *net,
                                      pn_gspn_sim_options_t *o)
{
    pn_gspn_sim_result_t *r = NULL;
    pn_error_t err;
    pn_status_t st = pn_gspn_simulate(net, o, &r, &err);
    if (st)
        fprintf(stderr, "%s\n", err.text);
    ck_assert_int_eq(st, PN_OK);
    return r;
}

START_TEST(deterministic_cycle)
{
    /* A takes 2, B takes 3: one turn every 5 time units, P0 full 2/5 */
    pn_net_t *net = cycle(PN_TIMING_DETERMINISTIC, 2, PN_TIMING_DETERMINISTIC,
                          3);
    pn_gspn_sim_options_t o = {.seed = 7, .accuracy = 0.01};
    pn_gspn_sim_result_t *r = simulate(net, &o);
    ck_assert_int_eq(r->absorbing, 0);
    ck_assert_double_eq_tol(r->throughput[0].mean, 0.2, 0.002);
    ck_assert_double_eq_tol(r->throughput[1].mean, 0.2, 0.002);
    ck_assert_double_eq_tol(r->mean_tokens[0].mean, 0.4, 0.004);
    pn_gspn_sim_result_free(r);
    pn_net_free(net);
}
END_TEST

START_TEST(immediate_weights_and_priority)
{
    /* A (rate 2) then one of three immediate ways back: B (weight 1) and
     * W3 (weight 3) at priority 1, L (weight 100) at priority 0, never */
    pn_net_t *net = cycle(PN_TIMING_EXPONENTIAL, 2, PN_TIMING_IMMEDIATE, 1);
    const char *ids[2] = {"W3", "L"};
    double w[2] = {3, 100};
    int prio[2] = {1, 0};
    for (int i = 0; i < 2; i++) {
        size_t t;
        ck_assert_int_eq(pn_net_add_transition(net, ids[i], NULL, &t), PN_OK);
        ck_assert_int_eq(pn_net_add_arc(net, NULL, "P1", ids[i], 1,
                                        PN_ARC_NORMAL, NULL), PN_OK);
        ck_assert_int_eq(pn_net_add_arc(net, NULL, ids[i], "P0", 1,
                                        PN_ARC_NORMAL, NULL), PN_OK);
        ck_assert_int_eq(pn_net_set_timing(net, t, PN_TIMING_IMMEDIATE, w[i],
                                           prio[i], PN_SERVER_SINGLE), PN_OK);
    }
    pn_gspn_sim_options_t o = {.seed = 3, .accuracy = 0.02};
    pn_gspn_sim_result_t *r = simulate(net, &o);
    ck_assert_double_eq_tol(r->throughput[0].mean, 2, 0.06);
    ck_assert_double_eq_tol(r->throughput[1].mean, 0.5, 0.03);
    ck_assert_double_eq_tol(r->throughput[2].mean, 1.5, 0.06);
    ck_assert_double_eq(r->throughput[3].mean, 0);
    /* the vanishing marking takes no time: P0 holds the token always */
    ck_assert_double_eq_tol(r->mean_tokens[0].mean, 1, 1e-12);
    pn_gspn_sim_result_free(r);
    pn_net_free(net);
}
END_TEST

START_TEST(enabling_memory)
{
    /* P0 -> D (deterministic 1) -> P1, and P0 -> E <-> P2 (exponential
     * rate 1 that takes P0's token and R gives it back at once, an
     * immediate): each visit of E disables D, whose clock starts again.
     * D fires at the first gap of length 1 between E's firings: mean time
     * (e^1 - 1) / 1 = 1.71828 (the waiting time for a gap in a Poisson
     * process of rate 1). */
    pn_net_t *net = pn_net_new("memory");
    ck_assert_int_eq(pn_net_add_place(net, "P0", NULL, 1, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "P1", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "P2", NULL, 0, NULL), PN_OK);
    const char *ids[3] = {"D", "E", "R"};
    pn_timing_t k[3] = {PN_TIMING_DETERMINISTIC, PN_TIMING_EXPONENTIAL,
                        PN_TIMING_IMMEDIATE};
    for (size_t t = 0; t < 3; t++) {
        ck_assert_int_eq(pn_net_add_transition(net, ids[t], NULL, NULL),
                         PN_OK);
        ck_assert_int_eq(pn_net_set_timing(net, t, k[t], 1, 1,
                                           PN_SERVER_SINGLE), PN_OK);
    }
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "P0", "D", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "D", "P1", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "P0", "E", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "E", "P2", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "P2", "R", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "R", "P0", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    pn_gspn_sim_options_t o = {.seed = 5, .accuracy = 0.01};
    pn_gspn_sim_result_t *r = simulate(net, &o);
    ck_assert_int_eq(r->absorbing, 1);
    ck_assert_int_eq(r->accurate, 1);
    ck_assert_double_eq_tol(r->absorption.mean, exp(1) - 1, 0.03);
    ck_assert(fabs(r->absorption.mean - (exp(1) - 1)) <=
              2 * r->absorption.half);
    pn_gspn_sim_result_free(r);
    pn_net_free(net);
}
END_TEST

START_TEST(same_for_any_jobs)
{
    pn_net_t *net = cycle(PN_TIMING_EXPONENTIAL, 2, PN_TIMING_EXPONENTIAL, 3);
    double times[2] = {0.5, 2};
    pn_gspn_sim_result_t *r[3];
    unsigned jobs[3] = {1, 3, 8};
    for (int i = 0; i < 3; i++) {
        pn_gspn_sim_options_t o = {.seed = 11, .accuracy = 0.02,
                                   .times = times, .ntimes = 2,
                                   .jobs = jobs[i]};
        r[i] = simulate(net, &o);
    }
    for (int i = 1; i < 3; i++) {
        ck_assert_uint_eq(r[i]->runs, r[0]->runs);
        ck_assert_uint_eq(r[i]->firings, r[0]->firings);
        ck_assert(!memcmp(r[i]->throughput, r[0]->throughput,
                          4 * sizeof *r[0]->throughput));
        ck_assert(!memcmp(r[i]->mean_tokens, r[0]->mean_tokens,
                          4 * sizeof *r[0]->mean_tokens));
    }
    /* P(token in P0 at t) = 3/5 + 2/5 e^{-5t} */
    ck_assert_double_eq_tol(r[0]->mean_tokens[2].mean,
                            0.6 + 0.4 * exp(-10), 0.02);
    for (int i = 0; i < 3; i++)
        pn_gspn_sim_result_free(r[i]);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gspn_sim");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, philox_known_answers);
    tcase_add_test(tc, student_table);
    tcase_add_test(tc, deterministic_cycle);
    tcase_add_test(tc, immediate_weights_and_priority);
    tcase_add_test(tc, enabling_memory);
    tcase_add_test(tc, same_for_any_jobs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
