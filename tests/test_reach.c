/*
 * The state-space explorer: hand-counted nets, every arc kind and
 * capacities against a brute-force search written here from the
 * semantics' text, every marking pn_sim visits is one the explorer found,
 * the GPU net's best and worst schedules bracket every run, paths that
 * replay, and the limits.
 */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pn.h"
#include "engine_private.h"
#include "testutil.h"

static pn_reach_t *explore(const pn_net_t *net, pn_semantics_t sem,
                           uint64_t max_states)
{
    pn_reach_options_t o;
    pn_reach_defaults(&o);
    o.semantics = sem;
    o.max_states = max_states;
    o.graph = 1;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    return r;
}

/* p(2) -> t -> q, q -> u -> (nothing): markings (2,0) (1,1) (0,2) (1,0)
 * (0,1) (0,0); dead: (0,0) only. */
START_TEST(hand_counted)
{
    pn_net_t *net = pn_net_new("h");
    pn_net_add_place(net, "p", NULL, 2, NULL);
    pn_net_add_place(net, "q", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_transition(net, "never", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "q", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "q", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p", "never", 3, PN_ARC_NORMAL, NULL);
    pn_reach_t *r = explore(net, PN_SEM_INTERLEAVING, 0);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
    ck_assert_int_eq(pn_reach_states(r), 6);
    /* edges: (2,0):t (1,1):t,u (0,2):u (1,0):t (0,1):u */
    ck_assert_int_eq(pn_reach_edges(r), 6);
    ck_assert_int_eq(pn_reach_dead(r), 1);
    ck_assert_int_eq(pn_reach_max_tokens_in_place(r), 2);
    ck_assert_int_eq(pn_reach_max_tokens_per_marking(r), 2);
    ck_assert_int_eq(pn_reach_place_bound(r, 1), 2);
    ck_assert(pn_reach_transition_fires(r, 0));
    ck_assert(!pn_reach_transition_fires(r, 2));
    int term;
    uint64_t lo, hi;
    ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_OK);
    ck_assert(term && lo == 4 && hi == 4);
    pn_reach_path_t *path;
    ck_assert_int_eq(pn_reach_dead_path(r, &path), PN_OK);
    ck_assert_int_eq(path->nsteps, 4);
    pn_reach_path_free(path);
    uint64_t m[2] = {1, 1};
    ck_assert(pn_reach_contains(r, m));
    m[1] = 5;
    ck_assert(!pn_reach_contains(r, m));
    pn_reach_free(r);
    /* maximal steps: t and u fire together when both are enabled */
    r = explore(net, PN_SEM_MAXIMAL, 0);
    /* (2,0) -t-> (1,1) -tu-> (0,1) -u-> (0,0) */
    ck_assert_int_eq(pn_reach_states(r), 4);
    ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_OK);
    ck_assert(term && lo == 3 && hi == 3);
    int live = 1;
    ck_assert_int_eq(pn_reach_live(r, &live), PN_OK);
    ck_assert(!live);
    pn_reach_free(r);
    /* a cycle: the net does not terminate; "never" still never fires */
    pn_net_add_arc(net, NULL, "u", "p", 1, PN_ARC_NORMAL, NULL);
    r = explore(net, PN_SEM_INTERLEAVING, 0);
    ck_assert_int_eq(pn_reach_live(r, &live), PN_OK);
    ck_assert(!live);
    pn_reach_free(r);
    /* without it, t and u can always fire again: live */
    pn_net_t *cyc = pn_net_new("c");
    pn_net_add_place(cyc, "p", NULL, 2, NULL);
    pn_net_add_place(cyc, "q", NULL, 0, NULL);
    pn_net_add_transition(cyc, "t", NULL, NULL);
    pn_net_add_transition(cyc, "u", NULL, NULL);
    pn_net_add_arc(cyc, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(cyc, NULL, "t", "q", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(cyc, NULL, "q", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(cyc, NULL, "u", "p", 1, PN_ARC_NORMAL, NULL);
    r = explore(cyc, PN_SEM_INTERLEAVING, 0);
    ck_assert_int_eq(pn_reach_live(r, &live), PN_OK);
    ck_assert(live);
    pn_reach_free(r);
    pn_net_free(cyc);
    r = explore(net, PN_SEM_INTERLEAVING, 0);
    ck_assert_int_eq(pn_reach_dead(r), 0);
    ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_EINVAL);
    ck_assert(!term);
    ck_assert_int_eq(pn_reach_dead_path(r, &path), PN_EINVAL);
    pn_reach_free(r);
    pn_net_free(net);
}
END_TEST

/* ---- brute force, from the semantics' text ------------------------------- */

static int bf_enabled(const pn_net_t *net, const uint64_t *m, size_t t)
{
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->transition != t)
            continue;
        uint64_t have = m[a->place], need = 0;
        /* parallel normal arcs from one place take the sum of weights */
        for (size_t j = 0; j < pn_net_arc_count(net); j++) {
            const pn_arc_t *b = pn_net_arc(net, j);
            if (b->transition == t && b->place == a->place &&
                b->dir == PN_DIR_PT && b->kind == PN_ARC_NORMAL)
                need += b->weight;
        }
        if (have < need)
            return 0;
        if (a->kind == PN_ARC_READ && have < a->weight)
            return 0;
        if (a->kind == PN_ARC_INHIBITOR && have >= a->weight)
            return 0;
    }
    /* capacities: the place after firing t alone */
    for (size_t p = 0; p < pn_net_place_count(net); p++) {
        uint64_t cap = pn_net_place(net, p)->capacity;
        if (!cap)
            continue;
        int64_t after = (int64_t)m[p], produced = 0;
        for (size_t i = 0; i < pn_net_arc_count(net); i++) {
            const pn_arc_t *a = pn_net_arc(net, i);
            if (a->transition != t || a->place != p)
                continue;
            if (a->dir == PN_DIR_TP)
                produced += (int64_t)a->weight;
            else if (a->kind == PN_ARC_NORMAL)
                after -= (int64_t)a->weight;
        }
        if (produced && after + produced > (int64_t)cap)
            return 0;
    }
    return 1;
}

static void bf_fire(const pn_net_t *net, const uint64_t *m, size_t t,
                    uint64_t *out)
{
    size_t np = pn_net_place_count(net);
    memcpy(out, m, np * sizeof *m);
    /* inputs are taken, then reset places emptied, then outputs added */
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->transition == t && a->dir == PN_DIR_PT &&
            a->kind == PN_ARC_NORMAL)
            out[a->place] -= a->weight;
    }
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->transition == t && a->kind == PN_ARC_RESET)
            out[a->place] = 0;
    }
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->transition == t && a->dir == PN_DIR_TP)
            out[a->place] += a->weight;
    }
}

/* Breadth-first with a linear list: states, edges and dead markings. */
static void brute_force(const pn_net_t *net, size_t limit, size_t *states,
                        size_t *edges, size_t *dead, uint64_t **seen_out)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    uint64_t *seen = malloc(limit * np * sizeof *seen);
    uint64_t *next = malloc((np + 1) * sizeof *next);
    size_t n = 1;
    *edges = *dead = 0;
    for (size_t p = 0; p < np; p++)
        seen[p] = pn_net_place(net, p)->marking;
    for (size_t i = 0; i < n; i++) {
        size_t out = 0;
        for (size_t t = 0; t < nt; t++) {
            if (!bf_enabled(net, seen + i * np, t))
                continue;
            out++;
            bf_fire(net, seen + i * np, t, next);
            size_t k;
            for (k = 0; k < n && memcmp(seen + k * np, next,
                                        np * sizeof *next); k++)
                ;
            if (k == n && n < limit)
                memcpy(seen + n++ * np, next, np * sizeof *next);
        }
        *edges += out;
        *dead += out == 0;
    }
    *states = n;
    free(next);
    *seen_out = seen;
}

static pn_net_t *random_net(pni_rng_t *rng)
{
    pn_net_t *net = pn_net_new("rnd");
    size_t np = 2 + (size_t)pni_rng_below(rng, 4);
    size_t nt = 1 + (size_t)pni_rng_below(rng, 4);
    char id[16];
    for (size_t p = 0; p < np; p++) {
        snprintf(id, sizeof id, "p%zu", p);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, 3), NULL);
        /* capacities keep most random nets finite */
        pn_net_set_capacity(net, p, 2 + pni_rng_below(rng, 3));
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    size_t na = 1 + (size_t)pni_rng_below(rng, 3 * nt);
    for (size_t i = 0; i < na; i++) {
        size_t p = (size_t)pni_rng_below(rng, np);
        size_t t = (size_t)pni_rng_below(rng, nt);
        uint64_t r = pni_rng_below(rng, 10);
        pn_arc_kind_t kind = r < 6 ? PN_ARC_NORMAL : r < 8 ? PN_ARC_INHIBITOR
                             : r < 9 ? PN_ARC_READ : PN_ARC_RESET;
        pn_arc_dir_t dir = kind == PN_ARC_NORMAL && pni_rng_below(rng, 2)
                               ? PN_DIR_TP : PN_DIR_PT;
        pn_net_add_arc_at(net, NULL, dir, p, t, 1 + pni_rng_below(rng, 2),
                          kind, NULL);
    }
    return net;
}

START_TEST(random_nets_against_brute_force)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 4242);
    int compared = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_net(&rng);
        size_t np = pn_net_place_count(net);
        size_t s, e, d;
        uint64_t *seen;
        brute_force(net, 4000, &s, &e, &d, &seen);
        pn_reach_t *r = explore(net, PN_SEM_INTERLEAVING, 0);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        ck_assert_msg(pn_reach_states(r) == s && pn_reach_edges(r) == e &&
                          pn_reach_dead(r) == d,
                      "net %d: explorer %llu/%llu/%llu, brute force "
                      "%zu/%zu/%zu", i,
                      (unsigned long long)pn_reach_states(r),
                      (unsigned long long)pn_reach_edges(r),
                      (unsigned long long)pn_reach_dead(r), s, e, d);
        for (size_t k = 0; k < s; k++)
            ck_assert(pn_reach_contains(r, seen + k * np));
        free(seen);
        pn_reach_free(r);
        /* every marking a maximal-step run visits was found */
        r = explore(net, PN_SEM_MAXIMAL, 0);
        pn_engine_t *eng;
        ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
        for (uint64_t seed = 0; seed < 20; seed++) {
            pn_sim_t *sim = pn_sim_new(eng, seed, PN_SEM_MAXIMAL, 0);
            pn_end_t end = PN_END_NONE;
            ck_assert(pn_reach_contains(r, pn_sim_marking(sim)));
            for (int step = 0; step < 50 && end == PN_END_NONE; step++) {
                pn_sim_step(sim, &end);
                ck_assert(pn_reach_contains(r, pn_sim_marking(sim)));
            }
            pn_sim_free(sim);
        }
        pn_engine_free(eng);
        pn_reach_free(r);
        pn_net_free(net);
        compared++;
    }
    ck_assert_int_eq(compared, 300);
}
END_TEST

/* The GPU net: the best and the worst schedule bracket every run. */
START_TEST(gpu_schedules_bracket_runs)
{
    pn_gpu_params_t p = {.warps = 3, .schedulers = 2, .l1 = 3, .l2 = 1,
        .uniform = {2, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    pn_reach_t *r = explore(net, PN_SEM_MAXIMAL, 0);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
    int term;
    uint64_t lo, hi;
    ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_OK);
    ck_assert(term);
    ck_assert_int_le(lo, hi);
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    uint64_t seen_lo = UINT64_MAX, seen_hi = 0;
    for (uint64_t seed = 0; seed < 300; seed++) {
        pn_sim_t *s = pn_sim_new(e, seed, PN_SEM_MAXIMAL, 0);
        ck_assert_int_eq(pn_sim_run(s, 100000), PN_END_DEAD);
        uint64_t steps = pn_sim_steps(s);
        ck_assert_msg(steps >= lo && steps <= hi, "seed %llu: %llu steps "
                      "outside [%llu, %llu]", (unsigned long long)seed,
                      (unsigned long long)steps, (unsigned long long)lo,
                      (unsigned long long)hi);
        if (steps < seen_lo)
            seen_lo = steps;
        if (steps > seen_hi)
            seen_hi = steps;
        pn_sim_free(s);
    }
    /* the paths realise the bounds, and replay as traces */
    pn_reach_path_t *path;
    ck_assert_int_eq(pn_reach_dead_path(r, &path), PN_OK);
    ck_assert_int_eq(path->nsteps, lo);
    pn_reach_path_free(path);
    ck_assert_int_eq(pn_reach_longest_path(r, &path), PN_OK);
    ck_assert_int_eq(path->nsteps, hi);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pn_trace_write_header(f, net, 0, PN_SEM_MAXIMAL);
    for (size_t i = 0; i < path->nsteps; i++)
        pn_trace_write_step(f, net, i + 1, path->steps[i],
                            path->n_in_step[i]);
    pn_trace_write_end(f, PN_END_DEAD, path->nsteps);
    fclose(f);
    char *tpath = tmp_file_with(buf);
    pn_trace_t *tr;
    pn_error_t err;
    ck_assert_msg(pn_trace_read(tpath, net, &tr, &err) == PN_OK, "%s",
                  err.text);
    ck_assert_int_eq(pn_trace_steps(tr), hi);
    pn_trace_free(tr);
    unlink(tpath);
    free(tpath);
    free(buf);
    pn_reach_path_free(path);
    pn_engine_free(e);
    pn_reach_free(r);
    pn_net_free(net);
}
END_TEST

START_TEST(limits_give_incomplete_results)
{
    /* an unbounded net: t puts a token back and one more */
    pn_net_t *net = pn_net_new("u");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "p", 2, PN_ARC_NORMAL, NULL);
    pn_reach_t *r = explore(net, PN_SEM_INTERLEAVING, 1000);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_MAX_STATES);
    ck_assert_int_ge(pn_reach_states(r), 1000);
    int term;
    uint64_t lo, hi;
    ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_EINVAL);
    pn_reach_free(r);
    pn_reach_options_t o;
    pn_reach_defaults(&o);
    o.token_bound = 300;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_TOKEN_BOUND);
    /* the packed markings widened past one byte on the way */
    ck_assert_int_gt(pn_reach_max_tokens_in_place(r), 255);
    uint64_t m[1] = {200};
    ck_assert(pn_reach_contains(r, m));
    pn_reach_free(r);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reach");
    TCase *tc = tcase_create("reach");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, hand_counted);
    tcase_add_test(tc, random_nets_against_brute_force);
    tcase_add_test(tc, gpu_schedules_bracket_runs);
    tcase_add_test(tc, limits_give_incomplete_results);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
