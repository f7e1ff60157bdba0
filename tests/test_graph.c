/*
 * The graph of markings and the coverability graph: on random nets of
 * normal and read arcs, a coverability graph without omega is the
 * reachability graph (same nodes and edges), the bounds of its other
 * places hold over every marking the search finds, and a net with omega
 * is one whose search does not finish; the written graphs have the
 * search's counts; the arcs Karp and Miller's construction is not sound
 * with are refused.
 */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "testutil.h"

/* A random net of np places and nt transitions, its arcs of weight 1 or
 * 2, some of them read arcs. */
static pn_net_t *random_net(unsigned *seed, size_t np, size_t nt)
{
    pn_net_t *net = pn_net_new("r");
    char id[16], id2[16];
    for (size_t p = 0; p < np; p++) {
        snprintf(id, sizeof id, "p%zu", p);
        pn_net_add_place(net, id, NULL, (uint64_t)(rand_r(seed) % 3), NULL);
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
        for (size_t p = 0; p < np; p++) {
            snprintf(id2, sizeof id2, "p%zu", p);
            int r = rand_r(seed) % 6;
            uint64_t w = 1 + (uint64_t)(rand_r(seed) % 2);
            if (r == 0)
                pn_net_add_arc(net, NULL, id2, id, w, PN_ARC_NORMAL, NULL);
            else if (r == 1)
                pn_net_add_arc(net, NULL, id, id2, w, PN_ARC_NORMAL, NULL);
            else if (r == 2)
                pn_net_add_arc(net, NULL, id2, id, w, PN_ARC_READ, NULL);
        }
    }
    return net;
}

/* The lines of text that hold what. */
static size_t count_lines(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *s = text; (s = strstr(s, what)); s++)
        n++;
    return n;
}

START_TEST(coverability_against_reachability)
{
    unsigned seed = 31;
    size_t bounded = 0, unbounded = 0;
    for (int k = 0; k < 300; k++) {
        pn_net_t *net = random_net(&seed, 2 + (size_t)k % 3,
                                   2 + (size_t)(k / 3) % 3);
        size_t np = pn_net_place_count(net);
        pn_cover_t *c;
        ck_assert_int_eq(pn_cover_build(net, 0, &c), PN_OK);
        ck_assert(pn_cover_complete(c));
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.unbounded = 0;
        o.max_states = 3000;
        o.graph = 1;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        int omega = 0;
        for (size_t p = 0; p < np; p++)
            omega |= pn_cover_place_bound(c, p) == PN_OMEGA;
        uint64_t m[8];
        for (uint64_t s = 0; s < pn_reach_states(r); s++) {
            pn_reach_marking(r, s, m);
            for (size_t p = 0; p < np; p++)
                ck_assert(m[p] <= pn_cover_place_bound(c, p));
        }
        if (!omega) {
            bounded++;
            ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
            ck_assert_int_eq(pn_cover_nodes(c), pn_reach_states(r));
            ck_assert_int_eq(pn_cover_edges(c), pn_reach_edges(r));
            for (size_t p = 0; p < np; p++)
                ck_assert_int_eq(pn_cover_place_bound(c, p),
                                 pn_reach_place_bound(r, p));
            uint64_t dead = 0;
            for (uint64_t i = 0; i < pn_cover_nodes(c); i++)
                dead += pn_cover_dead(c, i) != 0;
            ck_assert_int_eq(dead, pn_reach_dead(r));
        } else {
            unbounded++;
            ck_assert_int_ne(pn_reach_end(r), PN_REACH_COMPLETE);
        }
        /* the written graphs: one node and one edge line each */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        ck_assert_int_eq(pn_cover_graph_write(c, net, f, PN_GRAPH_DOT),
                         PN_OK);
        fclose(f);
        ck_assert_int_eq(count_lines(text, " [label="),
                         pn_cover_nodes(c) + pn_cover_edges(c));
        ck_assert_int_eq(count_lines(text, " -> "), pn_cover_edges(c));
        free(text);
        f = open_memstream(&text, &len);
        pn_status_t st = pn_reach_graph_write(r, net, f, PN_GRAPH_JSON);
        fclose(f);
        if (pn_reach_end(r) == PN_REACH_COMPLETE) {
            ck_assert_int_eq(st, PN_OK);
            ck_assert_int_eq(count_lines(text, "{\"id\": "),
                             pn_reach_states(r));
            ck_assert_int_eq(count_lines(text, "{\"from\": "),
                             pn_reach_edges(r));
        } else {
            ck_assert_int_eq(st, PN_EINVAL);
        }
        free(text);
        pn_reach_free(r);
        pn_cover_free(c);
        pn_net_free(net);
    }
    /* both kinds were met */
    ck_assert(bounded > 20 && unbounded > 20);
}
END_TEST

START_TEST(unsound_arcs_refused)
{
    for (int kind = 0; kind < 3; kind++) {
        pn_net_t *net = pn_net_new("u");
        pn_net_add_place(net, "p", NULL, 1, NULL);
        pn_net_add_transition(net, "t", NULL, NULL);
        if (kind == 0)
            pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_INHIBITOR, NULL);
        else if (kind == 1)
            pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_RESET, NULL);
        else
            pn_net_set_capacity(net, 0, 3);
        pn_cover_t *c = NULL;
        ck_assert_int_eq(pn_cover_build(net, 0, &c), PN_EUNSUPPORTED);
        ck_assert_ptr_null(c);
        pn_net_free(net);
    }
    ck_assert_int_eq(pn_cover_build(NULL, 0, NULL), PN_EINVAL);
    pn_cover_free(NULL);
}
END_TEST

START_TEST(node_limit)
{
    /* t adds to p forever; u moves it on: omega after one step */
    pn_net_t *net = pn_net_new("l");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_place(net, "q", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "p", 2, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "q", 1, PN_ARC_NORMAL, NULL);
    pn_cover_t *c;
    ck_assert_int_eq(pn_cover_build(net, 1, &c), PN_OK);
    ck_assert(!pn_cover_complete(c));
    ck_assert_int_eq(pn_cover_graph_write(c, net, stdout, PN_GRAPH_DOT),
                     PN_EINVAL);
    pn_cover_free(c);
    ck_assert_int_eq(pn_cover_build(net, 0, &c), PN_OK);
    ck_assert(pn_cover_complete(c));
    ck_assert_int_eq(pn_cover_nodes(c), 2);
    ck_assert_int_eq(pn_cover_place_bound(c, 0), PN_OMEGA);
    ck_assert_int_eq(pn_cover_place_bound(c, 1), PN_OMEGA);
    ck_assert_ptr_null(pn_cover_marking(c, 2));
    ck_assert_int_eq(pn_cover_marking(c, 1)[0], PN_OMEGA);
    pn_cover_free(c);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("graph");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, coverability_against_reachability);
    tcase_add_test(tc, unsound_arcs_refused);
    tcase_add_test(tc, node_limit);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
