/*
 * The step engine: the facts of doc/wpnm.md over a grid of parameters,
 * incremental == reference on WPNMs, random nets and every corpus net,
 * the distribution of steps drawn by stars against the definition
 * (chi-square), maximal and enabled steps, uniform conflicts, each arc
 * kind, unbounded nets, nets without a dead marking, empty nets.
 */
#include <config.h>
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "engine_private.h"

/* ---- helpers ----------------------------------------------------------- */

static pn_net_t *wpnm(size_t w, uint64_t s, uint64_t xa, uint64_t xs,
                      uint64_t xg, uint64_t l1, uint64_t l2)
{
    pn_gpu_params_t p = {0};
    p.warps = w;
    p.schedulers = s;
    p.l1 = l1;
    p.l2 = l2;
    p.uniform.arith = xa;
    p.uniform.shared = xs;
    p.uniform.global = xg;
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    return net;
}

typedef struct {
    uint64_t steps;
    pn_end_t end;
    uint64_t *marking; /* copy */
    uint64_t *counts;  /* copy */
} result_t;

static result_t run(const pn_net_t *net, uint64_t seed, pn_semantics_t sem,
                    int reference, uint64_t max_steps)
{
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *s = pn_sim_new(e, seed, sem, reference);
    ck_assert_ptr_nonnull(s);
    result_t r;
    r.end = pn_sim_run(s, max_steps);
    r.steps = pn_sim_steps(s);
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    r.marking = malloc((np + 1) * sizeof *r.marking);
    r.counts = malloc((nt + 1) * sizeof *r.counts);
    memcpy(r.marking, pn_sim_marking(s), np * sizeof *r.marking);
    memcpy(r.counts, pn_sim_counts(s), nt * sizeof *r.counts);
    pn_sim_free(s);
    pn_engine_free(e);
    return r;
}

static void result_free(result_t *r)
{
    free(r->marking);
    free(r->counts);
}

static size_t transition(const pn_net_t *net, const char *id)
{
    pn_object_t k;
    size_t i;
    ck_assert_msg(pn_net_find(net, id, &k, &i) == PN_OK && k == PN_TRANSITION,
                  "no transition %s", id);
    return i;
}

static uint64_t single_warp_steps(uint64_t xa, uint64_t xs, uint64_t xg,
                                  uint64_t l1, uint64_t l2)
{
    return 4 * xa + (5 + l2) * xs + (5 + l1) * xg + 1;
}

/* Every warp place and `active` empty, p0 back to s. */
static void check_final(const pn_net_t *net, const result_t *r, uint64_t s)
{
    for (size_t p = 0; p < pn_net_place_count(net); p++) {
        const char *id = pn_net_place(net, p)->id;
        uint64_t want = strcmp(id, "p0") == 0 ? s : 0;
        ck_assert_msg(r->marking[p] == want, "final marking of %s is %llu, "
                      "not %llu", id, (unsigned long long)r->marking[p],
                      (unsigned long long)want);
    }
}

/* ---- wpnm.md facts ----------------------------------------------------- */

START_TEST(single_warp_formula)
{
    static const uint64_t xas[] = {0, 1, 3, 7};
    static const uint64_t xss[] = {0, 1, 4};
    static const uint64_t xgs[] = {0, 1, 2, 5};
    static const uint64_t l1s[] = {0, 1, 5, 20};
    static const uint64_t l2s[] = {0, 1, 2, 6};
    static const uint64_t ss[] = {1, 2, 4};
    int cases = 0;
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 4; c++)
                for (size_t d = 0; d < 4; d++)
                    for (size_t e = 0; e < 4; e++)
                        for (size_t f = 0; f < 3; f++) {
                            uint64_t xa = xas[a], xs = xss[b], xg = xgs[c];
                            uint64_t l1 = l1s[d], l2 = l2s[e], s = ss[f];
                            pn_net_t *net = wpnm(1, s, xa, xs, xg, l1, l2);
                            uint64_t seed = (uint64_t)cases * 7919 + 1;
                            result_t r = run(net, seed, PN_SEM_MAXIMAL, 0,
                                             1000000);
                            ck_assert_int_eq(r.end, PN_END_DEAD);
                            ck_assert_msg(
                                r.steps == single_warp_steps(xa, xs, xg, l1, l2),
                                "xa=%llu xs=%llu xg=%llu l1=%llu l2=%llu s=%llu:"
                                " %llu steps, formula %llu",
                                (unsigned long long)xa, (unsigned long long)xs,
                                (unsigned long long)xg, (unsigned long long)l1,
                                (unsigned long long)l2, (unsigned long long)s,
                                (unsigned long long)r.steps,
                                (unsigned long long)single_warp_steps(
                                    xa, xs, xg, l1, l2));
                            check_final(net, &r, s);
                            if (s == 1) {
                                /* idle steps: t0 fires (l1 + 2) xg times */
                                uint64_t t0 = r.counts[transition(net, "t0")];
                                ck_assert_msg(t0 == (l1 + 2) * xg,
                                              "t0 fired %llu times, want %llu",
                                              (unsigned long long)t0,
                                              (unsigned long long)((l1 + 2) *
                                                                   xg));
                            }
                            result_free(&r);
                            pn_net_free(net);
                            cases++;
                        }
    ck_assert_int_eq(cases, 4 * 3 * 4 * 4 * 4 * 3);
}
END_TEST

START_TEST(no_instructions_one_step)
{
    static const size_t ws[] = {1, 2, 8, 64};
    for (size_t i = 0; i < 4; i++) {
        pn_net_t *net = wpnm(ws[i], 2, 0, 0, 0, 20, 2);
        result_t r = run(net, 5, PN_SEM_MAXIMAL, 0, 1000);
        ck_assert_int_eq(r.end, PN_END_DEAD);
        ck_assert_int_eq(r.steps, 1);
        check_final(net, &r, 2);
        result_free(&r);
        pn_net_free(net);
    }
}
END_TEST

START_TEST(the_507_case)
{
    /* xs = xa = 0, W = 8, s = 2, xg = 20, default latencies: 200 runs of an
     * independent implementation all took 507 steps; one warp takes 501 */
    pn_net_t *net = wpnm(8, 2, 0, 0, 20, 20, 2);
    for (uint64_t i = 0; i < 200; i++) {
        result_t r = run(net, pn_run_seed(42, i), PN_SEM_MAXIMAL, 0, 100000);
        ck_assert_int_eq(r.end, PN_END_DEAD);
        ck_assert_int_eq(r.steps, 507);
        check_final(net, &r, 2);
        result_free(&r);
    }
    pn_net_free(net);
    pn_net_t *one = wpnm(1, 2, 0, 0, 20, 20, 2);
    result_t r = run(one, 1, PN_SEM_MAXIMAL, 0, 100000);
    ck_assert_int_eq(r.steps, 501);
    result_free(&r);
    pn_net_free(one);
}
END_TEST

START_TEST(lower_bounds_many_warps)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2024);
    for (int k = 0; k < 60; k++) {
        size_t w = 1 + (size_t)pni_rng_below(&rng, 16);
        uint64_t s = 1 + pni_rng_below(&rng, 4);
        uint64_t l1 = pni_rng_below(&rng, 25), l2 = pni_rng_below(&rng, 5);
        pn_gpu_warp_t *work = calloc(w, sizeof *work);
        uint64_t sa = 0, ss = 0, sg = 0, slowest = 0;
        for (size_t i = 0; i < w; i++) {
            work[i].arith = pni_rng_below(&rng, 12);
            work[i].shared = pni_rng_below(&rng, 6);
            work[i].global = pni_rng_below(&rng, 6);
            sa += work[i].arith;
            ss += work[i].shared;
            sg += work[i].global;
            uint64_t one = single_warp_steps(work[i].arith, work[i].shared,
                                             work[i].global, l1, l2);
            if (one > slowest)
                slowest = one;
        }
        pn_gpu_params_t p = {.warps = w, .schedulers = s, .l1 = l1, .l2 = l2,
            .work = work, .uniform = {0, 0, 0}};
        pn_net_t *net;
        ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
        result_t r = run(net, (uint64_t)k + 100, PN_SEM_MAXIMAL, 0, 10000000);
        ck_assert_int_eq(r.end, PN_END_DEAD);
        uint64_t busy = 3 * sa + (4 + l2) * ss + 2 * sg;
        ck_assert_msg(r.steps >= slowest, "steps %llu < slowest warp %llu",
                      (unsigned long long)r.steps,
                      (unsigned long long)slowest);
        ck_assert_msg(r.steps * s >= busy, "steps %llu < %llu / %llu",
                      (unsigned long long)r.steps, (unsigned long long)busy,
                      (unsigned long long)s);
        check_final(net, &r, s);
        /* each warp issued every instruction once */
        char id[64];
        for (size_t i = 0; i < w; i++) {
            snprintf(id, sizeof id, "w%zu_t1", i);
            ck_assert_int_eq(r.counts[transition(net, id)],
                             work[i].arith + work[i].shared + work[i].global);
            snprintf(id, sizeof id, "w%zu_t16", i);
            ck_assert_int_eq(r.counts[transition(net, id)], 1);
        }
        result_free(&r);
        pn_net_free(net);
        free(work);
    }
}
END_TEST

/* ---- incremental == reference ----------------------------------------- */

/* Steps both engines side by side, comparing every fired list. */
static void same_trace_k(const pn_net_t *net, uint64_t seed,
                         pn_semantics_t sem, uint64_t max_steps,
                         const char *what, uint32_t kmin)
{
    pn_engine_t *e;
    ck_assert_int_eq(pni_engine_compile_stars(net, kmin, &e), PN_OK);
    pn_sim_t *a = pn_sim_new(e, seed, sem, 0), *b = pn_sim_new(e, seed, sem, 1);
    size_t np = pn_net_place_count(net);
    for (uint64_t step = 0; step < max_steps; step++) {
        pn_end_t ea, eb;
        pn_status_t sa = pn_sim_step(a, &ea), sb = pn_sim_step(b, &eb);
        ck_assert_int_eq(sa, sb);
        ck_assert_msg(ea == eb, "%s: step %llu: ends differ", what,
                      (unsigned long long)step);
        size_t na, nb;
        const uint32_t *fa = pn_sim_fired(a, &na), *fb = pn_sim_fired(b, &nb);
        ck_assert_msg(na == nb && !memcmp(fa, fb, na * sizeof *fa),
                      "%s: step %llu: fired sets differ", what,
                      (unsigned long long)step);
        ck_assert(!memcmp(pn_sim_marking(a), pn_sim_marking(b),
                          np * sizeof(uint64_t)));
        if (ea != PN_END_NONE)
            break;
    }
    pn_sim_free(a);
    pn_sim_free(b);
    pn_engine_free(e);
}

static void same_trace(const pn_net_t *net, uint64_t seed, pn_semantics_t sem,
                       uint64_t max_steps, const char *what)
{
    same_trace_k(net, seed, sem, max_steps, what, 16);
}

START_TEST(incremental_equals_reference_wpnm)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pn_net_t *net = wpnm(4 + seed, 1 + seed % 4, 3 + seed, seed % 3,
                             2 + seed % 2, seed * 3, seed % 3);
        same_trace(net, seed, PN_SEM_MAXIMAL, 1000000, "wpnm");
        same_trace(net, seed, PN_SEM_INTERLEAVING, 1000000, "wpnm inter");
        pn_net_free(net);
    }
}
END_TEST

/* A random net with every arc kind, capacities and weights. */
static pn_net_t *random_net(pni_rng_t *rng, int with_cap)
{
    pn_net_t *net = pn_net_new("random");
    size_t np = 2 + (size_t)pni_rng_below(rng, 10);
    size_t nt = 1 + (size_t)pni_rng_below(rng, 10);
    char id[32];
    for (size_t p = 0; p < np; p++) {
        snprintf(id, sizeof id, "p%zu", p);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, 5), NULL);
        if (with_cap && pni_rng_below(rng, 3) == 0)
            pn_net_set_capacity(net, p, 4 + pni_rng_below(rng, 4));
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    size_t na = (size_t)pni_rng_below(rng, 4 * nt + 1);
    for (size_t i = 0; i < na; i++) {
        size_t p = (size_t)pni_rng_below(rng, np), t = (size_t)pni_rng_below(rng, nt);
        uint64_t r = pni_rng_below(rng, 10);
        pn_arc_kind_t kind = r < 6 ? PN_ARC_NORMAL
                             : r < 8 ? PN_ARC_INHIBITOR
                             : r < 9 ? PN_ARC_READ
                                     : PN_ARC_RESET;
        pn_arc_dir_t dir = kind == PN_ARC_NORMAL && pni_rng_below(rng, 2)
                               ? PN_DIR_TP
                               : PN_DIR_PT;
        pn_net_add_arc_at(net, NULL, dir, p, t, 1 + pni_rng_below(rng, 3), kind,
                          NULL);
    }
    return net;
}

START_TEST(incremental_equals_reference_random)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 77);
    for (int k = 0; k < 300; k++) {
        pn_net_t *net = random_net(&rng, k % 2);
        same_trace(net, (uint64_t)k, k % 3 ? PN_SEM_MAXIMAL
                                           : PN_SEM_INTERLEAVING, 300, "random");
        pn_net_free(net);
    }
}
END_TEST

/* A net of hubs: a few places that many transitions take from, read, test
 * for emptiness or for fewer tokens (inhibitors), give back to and reset,
 * some with a capacity; and a place of many thresholds (weights 1 to 12).
 * The conditions on one place are then many (the engine keeps them by
 * class) and of many thresholds, and a step crosses them back and forth. */
static pn_net_t *hub_net(pni_rng_t *rng)
{
    pn_net_t *net = pn_net_new("hubs");
    size_t nh = 1 + (size_t)pni_rng_below(rng, 3);
    size_t nt = 60 + (size_t)pni_rng_below(rng, 300);
    char id[32];
    for (size_t h = 0; h < nh; h++) {
        snprintf(id, sizeof id, "h%zu", h);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, 6), NULL);
        if (pni_rng_below(rng, 3) == 0)
            pn_net_set_capacity(net, h, 6 + pni_rng_below(rng, 4));
    }
    pn_net_add_place(net, "multi", NULL, pni_rng_below(rng, 8), NULL);
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "l%zu", t);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, 2), NULL);
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    size_t multi = nh, local = nh + 1;
    for (size_t t = 0; t < nt; t++) {
        /* its own place: taken, and given back to it or to the next */
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, local + t, t, 1,
                          PN_ARC_NORMAL, NULL);
        size_t next = pni_rng_below(rng, 2) ? t : (t + 1) % nt;
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, local + next, t, 1,
                          PN_ARC_NORMAL, NULL);
        /* one to three arcs from hubs */
        for (int k = 1 + (int)pni_rng_below(rng, 3); k > 0; k--) {
            size_t h = (size_t)pni_rng_below(rng, nh);
            uint64_t r = pni_rng_below(rng, 20);
            uint64_t w = 1 + pni_rng_below(rng, r < 16 ? 2 : 3);
            pn_arc_kind_t kind = r < 6    ? PN_ARC_NORMAL
                                 : r < 10 ? PN_ARC_READ
                                 : r < 16 ? PN_ARC_INHIBITOR
                                 : r < 17 ? PN_ARC_RESET
                                          : PN_ARC_NORMAL;
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, h, t, w, kind, NULL);
        }
        /* tokens back to a hub (into a capacity: the room is tested) */
        if (pni_rng_below(rng, 3))
            pn_net_add_arc_at(net, NULL, PN_DIR_TP,
                              (size_t)pni_rng_below(rng, nh), t,
                              1 + pni_rng_below(rng, 2), PN_ARC_NORMAL, NULL);
        /* the place of many thresholds: read, taken, given */
        uint64_t r = pni_rng_below(rng, 6);
        if (r < 2)
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, multi, t,
                              1 + pni_rng_below(rng, 12),
                              r ? PN_ARC_READ : PN_ARC_INHIBITOR, NULL);
        else if (r < 4)
            pn_net_add_arc_at(net, NULL, PN_DIR_TP, multi, t,
                              1 + pni_rng_below(rng, 3), PN_ARC_NORMAL, NULL);
        else if (r < 5)
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, multi, t,
                              1 + pni_rng_below(rng, 2), PN_ARC_NORMAL, NULL);
    }
    return net;
}

/* Replays the steps of an incremental run with pn_sim_fire() on an
 * incremental and a reference run (the same markings), then lets both step
 * on their own: the incremental one's enabled set, kept through the
 * replay, must give the same steps. */
static void same_replay(const pn_net_t *net, uint64_t seed,
                        pn_semantics_t sem, uint64_t steps, const char *what)
{
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *a = pn_sim_new(e, seed, sem, 0), *b = pn_sim_new(e, 1, sem, 0),
             *c = pn_sim_new(e, 1, sem, 1);
    size_t np = pn_net_place_count(net);
    for (uint64_t step = 0; step < steps; step++) {
        pn_end_t end;
        if (pn_sim_step(a, &end) != PN_OK || end != PN_END_NONE)
            break;
        size_t n, bad;
        const uint32_t *f = pn_sim_fired(a, &n);
        ck_assert_int_eq(pn_sim_fire(b, f, n, &bad), PN_OK);
        ck_assert_int_eq(pn_sim_fire(c, f, n, &bad), PN_OK);
        ck_assert(!memcmp(pn_sim_marking(a), pn_sim_marking(b),
                          np * sizeof(uint64_t)));
        ck_assert(!memcmp(pn_sim_marking(a), pn_sim_marking(c),
                          np * sizeof(uint64_t)));
    }
    for (uint64_t step = 0; step < steps; step++) {
        pn_end_t eb, ec;
        ck_assert_int_eq(pn_sim_step(b, &eb), pn_sim_step(c, &ec));
        ck_assert_msg(eb == ec, "%s: replay, step %llu: ends differ", what,
                      (unsigned long long)step);
        size_t nb, nc;
        const uint32_t *fb = pn_sim_fired(b, &nb), *fc = pn_sim_fired(c, &nc);
        ck_assert_msg(nb == nc && !memcmp(fb, fc, nb * sizeof *fb),
                      "%s: replay, step %llu: fired sets differ", what,
                      (unsigned long long)step);
        if (eb != PN_END_NONE)
            break;
    }
    pn_sim_free(a);
    pn_sim_free(b);
    pn_sim_free(c);
    pn_engine_free(e);
}

/* An incremental run that computes its enabled set from scratch for a
 * while and keeps it again (rebuilding it from the marking), switched at
 * random steps, against the reference run. */
static void same_trace_switching(const pn_net_t *net, uint64_t seed,
                                 pn_semantics_t sem, uint64_t max_steps,
                                 pni_rng_t *rng)
{
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *a = pn_sim_new(e, seed, sem, 0), *b = pn_sim_new(e, seed, sem, 1);
    size_t np = pn_net_place_count(net);
    for (uint64_t step = 0; step < max_steps; step++) {
        if (pni_rng_below(rng, 8) == 0)
            pni_sim_set_scan(a, (int)pni_rng_below(rng, 2));
        pn_end_t ea, eb;
        ck_assert_int_eq(pn_sim_step(a, &ea), pn_sim_step(b, &eb));
        ck_assert_msg(ea == eb, "switching: step %llu: ends differ",
                      (unsigned long long)step);
        size_t na, nb;
        const uint32_t *fa = pn_sim_fired(a, &na), *fb = pn_sim_fired(b, &nb);
        ck_assert_msg(na == nb && !memcmp(fa, fb, na * sizeof *fa),
                      "switching: step %llu: fired sets differ",
                      (unsigned long long)step);
        ck_assert(!memcmp(pn_sim_marking(a), pn_sim_marking(b),
                          np * sizeof(uint64_t)));
        if (ea != PN_END_NONE)
            break;
    }
    pn_sim_free(a);
    pn_sim_free(b);
    pn_engine_free(e);
}

START_TEST(incremental_switching_modes)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 23);
    for (int k = 0; k < 40; k++) {
        pn_net_t *net = k % 2 ? hub_net(&rng) : random_net(&rng, k % 4 == 0);
        same_trace_switching(net, (uint64_t)k,
                             k % 3 ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING, 300,
                             &rng);
        pn_net_free(net);
    }
    pn_net_t *net = wpnm(12, 2, 20, 5, 5, 4, 2);
    same_trace_switching(net, 5, PN_SEM_MAXIMAL, 100000, &rng);
    pn_net_free(net);
}
END_TEST

START_TEST(incremental_equals_reference_hubs)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 17);
    for (int k = 0; k < 60; k++) {
        pn_net_t *net = hub_net(&rng);
        pn_semantics_t sem = k % 4 ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING;
        same_trace(net, (uint64_t)k, sem, 400, "hubs");
        same_replay(net, (uint64_t)k, sem, 100, "hubs");
        pn_net_free(net);
    }
}
END_TEST

/* A count near 2^63 - 1 given to by small weights: the step that would
 * pass it ends the run the same way in both modes (the place, the steps,
 * the counts, the marking left). */
START_TEST(overflow_by_small_outputs)
{
    pn_net_t *net = pn_net_new("near");
    pn_net_add_place(net, "src", NULL, 5, NULL);
    pn_net_add_place(net, "a", NULL, 0, NULL);
    pn_net_add_place(net, "big", NULL, PN_TOKENS_MAX - 4, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "src", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "a", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "big", 3, PN_ARC_NORMAL, NULL);
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *s[2] = {pn_sim_new(e, 1, PN_SEM_MAXIMAL, 0),
                      pn_sim_new(e, 1, PN_SEM_MAXIMAL, 1)};
    for (int ref = 0; ref < 2; ref++) {
        ck_assert_int_eq(pn_sim_run(s[ref], 1000), PN_END_OVERFLOW);
        ck_assert_int_eq(pn_sim_steps(s[ref]), 1);
        ck_assert_int_eq(pn_sim_overflow_place(s[ref]), 2);
        ck_assert(pn_sim_counts(s[ref])[0] == 1);
    }
    ck_assert(!memcmp(pn_sim_marking(s[0]), pn_sim_marking(s[1]),
                      3 * sizeof(uint64_t)));
    pn_sim_free(s[0]);
    pn_sim_free(s[1]);
    pn_engine_free(e);
    pn_net_free(net);
}
END_TEST

/* Whether t is enabled at m (the definition, written again here). */
static int enabled_at(const pn_net_t *net, const uint64_t *m, size_t t,
                      const uint64_t *budget)
{
    size_t np = pn_net_place_count(net);
    uint64_t *need = calloc(np + 1, sizeof *need);
    int ok = 1;
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->transition != t || a->dir != PN_DIR_PT)
            continue;
        if (a->kind == PN_ARC_NORMAL)
            need[a->place] += a->weight;
        else if (a->kind == PN_ARC_READ && m[a->place] < a->weight)
            ok = 0;
        else if (a->kind == PN_ARC_INHIBITOR && m[a->place] >= a->weight)
            ok = 0;
    }
    for (size_t p = 0; p < np; p++)
        if ((budget ? budget : m)[p] < need[p])
            ok = 0;
    free(need);
    return ok;
}

START_TEST(steps_are_enabled_and_maximal)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 99);
    for (int k = 0; k < 300; k++) {
        pn_net_t *net = random_net(&rng, 0);
        size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
        pn_engine_t *e;
        ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
        pn_sim_t *s = pn_sim_new(e, (uint64_t)k, PN_SEM_MAXIMAL, 1);
        uint64_t *before = malloc((np + 1) * sizeof *before);
        uint64_t *budget = malloc((np + 1) * sizeof *budget);
        char *fired = malloc(nt + 1);
        for (int step = 0; step < 100; step++) {
            memcpy(before, pn_sim_marking(s), np * sizeof *before);
            pn_end_t end;
            if (pn_sim_step(s, &end) != PN_OK || end != PN_END_NONE)
                break;
            size_t n;
            const uint32_t *f = pn_sim_fired(s, &n);
            memset(fired, 0, nt);
            memcpy(budget, before, np * sizeof *budget);
            for (size_t i = 0; i < n; i++) {
                ck_assert_msg(!fired[f[i]], "transition fired twice");
                fired[f[i]] = 1;
                /* enabled at M, and its inputs were still in the budget */
                ck_assert(enabled_at(net, before, f[i], NULL));
                ck_assert(enabled_at(net, before, f[i], budget));
                for (size_t a = 0; a < pn_net_arc_count(net); a++) {
                    const pn_arc_t *arc = pn_net_arc(net, a);
                    if (arc->transition == f[i] && arc->dir == PN_DIR_PT &&
                        arc->kind == PN_ARC_NORMAL)
                        budget[arc->place] -= arc->weight;
                }
                for (size_t a = 0; a < pn_net_arc_count(net); a++) {
                    const pn_arc_t *arc = pn_net_arc(net, a);
                    if (arc->transition == f[i] && arc->kind == PN_ARC_RESET)
                        budget[arc->place] = 0;
                }
            }
            ck_assert(n > 0);
            /* maximal: nothing else enabled at M fits in what is left */
            for (size_t t = 0; t < nt; t++)
                if (!fired[t] && enabled_at(net, before, t, NULL))
                    ck_assert_msg(!enabled_at(net, before, t, budget),
                                  "net %d step %d: t%zu could still fire", k,
                                  step, t);
        }
        free(before);
        free(budget);
        free(fired);
        pn_sim_free(s);
        pn_engine_free(e);
        pn_net_free(net);
    }
}
END_TEST

START_TEST(interleaving_one_per_step)
{
    pn_net_t *net = wpnm(4, 2, 3, 1, 1, 3, 1);
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *s = pn_sim_new(e, 3, PN_SEM_INTERLEAVING, 0);
    pn_end_t end = PN_END_NONE;
    while (end == PN_END_NONE) {
        ck_assert_int_eq(pn_sim_step(s, &end), PN_OK);
        size_t n;
        pn_sim_fired(s, &n);
        ck_assert_int_eq(n, end == PN_END_NONE ? 1 : 0);
    }
    ck_assert_int_eq(pn_sim_steps(s), pn_sim_firings(s));
    pn_sim_free(s);
    pn_engine_free(e);
    pn_net_free(net);
}
END_TEST

/* ---- conflicts, arc kinds, limits -------------------------------------- */

START_TEST(uniform_conflict)
{
    /* two transitions share one token; each wins about half of the runs.
     * 20000 runs: the count of wins of `a` is binomial (n = 20000, p = 1/2),
     * sd = 70.7; the tolerance of 400 is more than 5.6 sd, so a correct
     * engine fails this with probability below 1e-7 (and the seed is
     * fixed, so the outcome is the same on every machine) */
    pn_net_t *net = pn_net_new("conflict");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_place(net, "wa", NULL, 0, NULL);
    pn_net_add_place(net, "wb", NULL, 0, NULL);
    pn_net_add_transition(net, "a", NULL, NULL);
    pn_net_add_transition(net, "b", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "a", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p", "b", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "a", "wa", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "wb", 1, PN_ARC_NORMAL, NULL);
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    for (int sem = 0; sem < 2; sem++) {
        long wins = 0;
        const long n = 20000;
        for (long i = 0; i < n; i++) {
            pn_sim_t *s = pn_sim_new(e, pn_run_seed(12345, (uint64_t)i),
                                     (pn_semantics_t)sem, 0);
            ck_assert_int_eq(pn_sim_run(s, 10), PN_END_DEAD);
            ck_assert_int_eq(pn_sim_steps(s), 1);
            const uint64_t *m = pn_sim_marking(s);
            ck_assert_int_eq(m[1] + m[2], 1);
            wins += (long)m[1];
            pn_sim_free(s);
        }
        ck_assert_msg(labs(wins - n / 2) < 400, "a won %ld of %ld", wins, n);
    }
    pn_engine_free(e);
    pn_net_free(net);
}
END_TEST

static pn_net_t *one_transition(uint64_t m_p, uint64_t m_q, pn_arc_kind_t qk,
                                uint64_t qw)
{
    /* t takes p, tests q with an arc of kind qk and weight qw, gives r */
    pn_net_t *net = pn_net_new("k");
    pn_net_add_place(net, "p", NULL, m_p, NULL);
    pn_net_add_place(net, "q", NULL, m_q, NULL);
    pn_net_add_place(net, "r", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "q", "t", qw, qk, NULL);
    pn_net_add_arc(net, NULL, "t", "r", 1, PN_ARC_NORMAL, NULL);
    return net;
}

START_TEST(weighted_inhibitor)
{
    struct { uint64_t q, w, fires; } cases[] = {
        {0, 1, 1}, {1, 1, 0}, {2, 3, 1}, {3, 3, 0}, {4, 3, 0}, {2, 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pn_net_t *net = one_transition(1, cases[i].q, PN_ARC_INHIBITOR,
                                       cases[i].w);
        result_t r = run(net, 1, PN_SEM_MAXIMAL, 0, 100);
        ck_assert_int_eq(r.counts[0], cases[i].fires);
        ck_assert_int_eq(r.marking[1], cases[i].q); /* never consumed */
        result_free(&r);
        pn_net_free(net);
    }
}
END_TEST

START_TEST(read_arcs)
{
    /* a read arc tests without taking: t fires once per token of p */
    pn_net_t *net = one_transition(3, 2, PN_ARC_READ, 2);
    result_t r = run(net, 1, PN_SEM_MAXIMAL, 0, 100);
    ck_assert_int_eq(r.counts[0], 3);
    ck_assert_int_eq(r.marking[1], 2);
    ck_assert_int_eq(r.steps, 3);
    result_free(&r);
    pn_net_free(net);
    net = one_transition(3, 1, PN_ARC_READ, 2);
    r = run(net, 1, PN_SEM_MAXIMAL, 0, 100);
    ck_assert_int_eq(r.counts[0], 0);
    ck_assert_int_eq(r.end, PN_END_DEAD);
    result_free(&r);
    pn_net_free(net);
}
END_TEST

START_TEST(reset_arcs)
{
    pn_net_t *net = one_transition(1, 7, PN_ARC_RESET, 1);
    result_t r = run(net, 1, PN_SEM_MAXIMAL, 0, 100);
    ck_assert_int_eq(r.counts[0], 1);
    ck_assert_int_eq(r.marking[1], 0); /* emptied */
    ck_assert_int_eq(r.marking[2], 1);
    result_free(&r);
    pn_net_free(net);
}
END_TEST

START_TEST(capacity)
{
    /* two producers into a place of capacity 1: one token at most */
    pn_net_t *net = pn_net_new("cap");
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 1, NULL);
    pn_net_add_place(net, "c", NULL, 0, NULL);
    pn_net_set_capacity(net, 2, 1);
    pn_net_add_transition(net, "ta", NULL, NULL);
    pn_net_add_transition(net, "tb", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "ta", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "tb", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "ta", "c", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "tb", "c", 1, PN_ARC_NORMAL, NULL);
    for (uint64_t seed = 0; seed < 20; seed++) {
        result_t r = run(net, seed, PN_SEM_MAXIMAL, seed % 2, 100);
        ck_assert_int_eq(r.marking[2], 1);
        ck_assert_int_eq(r.counts[0] + r.counts[1], 1);
        ck_assert_int_eq(r.steps, 1);
        result_free(&r);
    }
    pn_net_free(net);
}
END_TEST

START_TEST(unbounded_net_overflows)
{
    /* a source transition adding 2^62 tokens: the third step would pass
     * 2^63 - 1 */
    pn_net_t *net = pn_net_new("unbounded");
    pn_net_add_place(net, "sink", NULL, 0, NULL);
    pn_net_add_transition(net, "src", NULL, NULL);
    pn_net_add_arc(net, NULL, "src", "sink", UINT64_C(1) << 62, PN_ARC_NORMAL,
                   NULL);
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *s = pn_sim_new(e, 1, PN_SEM_MAXIMAL, 0);
    ck_assert_int_eq(pn_sim_run(s, 1000), PN_END_OVERFLOW);
    ck_assert_int_eq(pn_sim_steps(s), 1);
    ck_assert_int_eq(pn_sim_overflow_place(s), 0);
    ck_assert(pn_sim_marking(s)[0] == UINT64_C(1) << 62);
    pn_sim_free(s);
    pn_engine_free(e);
    pn_net_free(net);
}
END_TEST

START_TEST(no_dead_marking)
{
    pn_net_t *net = pn_net_new("cycle");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "p", 1, PN_ARC_NORMAL, NULL);
    result_t r = run(net, 1, PN_SEM_MAXIMAL, 0, 250);
    ck_assert_int_eq(r.end, PN_END_LIMIT);
    ck_assert_int_eq(r.steps, 250);
    ck_assert_int_eq(r.counts[0], 250);
    result_free(&r);
    pn_net_free(net);
}
END_TEST

START_TEST(empty_nets)
{
    pn_net_t *net = pn_net_new("empty");
    result_t r = run(net, 1, PN_SEM_MAXIMAL, 0, 10);
    ck_assert_int_eq(r.end, PN_END_DEAD);
    ck_assert_int_eq(r.steps, 0);
    result_free(&r);
    pn_net_add_place(net, "p", NULL, 5, NULL);
    r = run(net, 1, PN_SEM_MAXIMAL, 1, 10);
    ck_assert_int_eq(r.end, PN_END_DEAD);
    ck_assert_int_eq(r.steps, 0);
    ck_assert_int_eq(r.marking[0], 5);
    result_free(&r);
    pn_net_free(net);
}
END_TEST

START_TEST(same_seed_same_run)
{
    pn_net_t *net = wpnm(8, 2, 5, 2, 3, 20, 2);
    result_t a = run(net, 9, PN_SEM_MAXIMAL, 0, 1000000);
    result_t b = run(net, 9, PN_SEM_MAXIMAL, 0, 1000000);
    ck_assert_int_eq(a.steps, b.steps);
    ck_assert(!memcmp(a.counts, b.counts,
                      pn_net_transition_count(net) * sizeof(uint64_t)));
    result_free(&a);
    result_free(&b);
    /* the random stream is fixed: these numbers are the same everywhere */
    pni_rng_t rng;
    pni_rng_seed(&rng, 1);
    uint64_t first = pni_rng_next(&rng);
    pni_rng_seed(&rng, 1);
    ck_assert(pni_rng_next(&rng) == first);
    ck_assert(pn_run_seed(1, 0) != pn_run_seed(1, 1));
    pn_net_free(net);
}
END_TEST

START_TEST(stats)
{
    double v[] = {4, 1, 3, 2, 5};
    pn_stats_t s;
    ck_assert_int_eq(pn_stats_compute(v, 5, &s), PN_OK);
    ck_assert_double_eq_tol(s.mean, 3, 1e-12);
    ck_assert_double_eq_tol(s.sd, 1.5811388300841898, 1e-12);
    ck_assert_double_eq(s.min, 1);
    ck_assert_double_eq(s.median, 3);
    ck_assert_double_eq(s.max, 5);
    /* t(0.975, 4) = 2.776 */
    ck_assert_double_eq_tol(s.ci_high - s.mean, 2.776 * s.sd / sqrt(5), 1e-9);
    double w[] = {7, 7};
    ck_assert_int_eq(pn_stats_compute(w, 2, &s), PN_OK);
    ck_assert_double_eq(s.sd, 0);
    ck_assert_double_eq(s.median, 7);
}
END_TEST

/* The result schema's statistics: limited runs apart, intervals of counts
 * never below zero, no interval under two values. */
START_TEST(results_stats)
{
    /* measures steps, count: 4 runs; run 2 stopped at the limit */
    double v[] = {10, 0, 12, 0, 100, 5, 14, 7}; /* run-major */
    pn_end_t ends[] = {PN_END_DEAD, PN_END_DEAD, PN_END_LIMIT, PN_END_DEAD};
    uint64_t seeds[] = {1, 2, 3, 4};
    const char *names[] = {"steps", "count:t"};
    pn_results_point_t p = {.runs = 4, .requested = 4, .nmeasures = 2,
                            .measures = names, .values = v, .ends = ends,
                            .seeds = seeds};
    pn_stats_t s;
    ck_assert_int_eq(pn_results_stats(&p, 0, &s), PN_OK);
    ck_assert_uint_eq(s.n, 3);
    ck_assert_double_eq(s.max, 14);
    ck_assert_double_eq(s.mean, 12);
    ck_assert_int_eq(pn_results_stats(&p, 1, &s), PN_OK);
    ck_assert_double_eq(s.max, 7);
    /* mean 7/3, sd 4.04: Student's t would go to -7.7; truncated at 0 */
    ck_assert_double_eq(s.ci_low, 0);
    ck_assert(s.ci_high > s.mean);
    p.include_limited = 1;
    ck_assert_int_eq(pn_results_stats(&p, 0, &s), PN_OK);
    ck_assert_uint_eq(s.n, 4);
    ck_assert_double_eq(s.max, 100);
    p.runs = 1;
    ck_assert_int_eq(pn_results_stats(&p, 0, &s), PN_OK);
    ck_assert(isnan(s.ci_low) && isnan(s.sd));
    ck_assert_double_eq(s.mean, 10);
    ck_assert(pn_point_seed(9, 0) == 9);
    ck_assert(pn_point_seed(9, 1) != pn_point_seed(9, 2));
    ck_assert(pn_results_param_ok("warps"));
    ck_assert(pn_results_param_ok("p_init:p3"));
    ck_assert(!pn_results_param_ok("mean"));
    ck_assert(!pn_results_param_ok("a,b"));
    ck_assert(!pn_results_param_ok(""));
}
END_TEST

/* The lines written by the results writers, read back by
 * pn_results_row_parse(): every field, in both formats. */
static char *written(const pn_results_layout_t *l, const pn_results_point_t *p,
                     size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pn_results_write_header(f, l), PN_OK);
    ck_assert_int_eq(pn_results_write_runs(f, l, p), PN_OK);
    ck_assert_int_eq(pn_results_write_point(f, l, p), PN_OK);
    fclose(f);
    return text;
}

START_TEST(results_rows_read_back)
{
    double v[] = {10, 3, 12.25, 0, 7, 1}; /* 3 runs, 2 measures */
    pn_end_t ends[] = {PN_END_DEAD, PN_END_LIMIT, PN_END_DEAD};
    uint64_t seeds[] = {11, 12, UINT64_MAX};
    const char *names[] = {"steps", "count:t,\"1\""};
    const char *params[] = {"warps", "label"};
    const char *values[] = {"32", "a, \"b\"\n\xc3\xa9\x01"};
    pn_results_point_t p = {.point = 7, .param_values = values, .seed = 5,
                            .requested = 4, .runs = 3, .nmeasures = 2,
                            .measures = names, .values = v, .ends = ends,
                            .seeds = seeds};
    pn_results_format_t fmts[] = {PN_RESULTS_CSV, PN_RESULTS_JSONL};
    for (int k = 0; k < 2; k++) {
        pn_results_layout_t l = {fmts[k], 2, params};
        size_t len;
        char *text = written(&l, &p, &len);
        pn_results_row_t row = {0};
        pn_error_t err;
        size_t nrun = 0, npoint = 0;
        const char *line = text;
        while (line < text + len) {
            /* a CSV line ends at a line break outside quotes */
            const char *e = line;
            int quoted = 0;
            while (*e && (quoted || *e != '\n'))
                quoted ^= *e++ == '"';
            ck_assert_int_eq(pn_results_row_parse(fmts[k], line,
                                                  (size_t)(e - line) + 1,
                                                  &row, &err), PN_OK);
            line = e + 1;
            ck_assert_uint_eq(row.nparams, 2);
            if (row.kind == PN_RESULTS_HEADER) {
                ck_assert_int_eq(fmts[k], PN_RESULTS_CSV);
                ck_assert_str_eq(row.params[0], "warps");
                ck_assert_str_eq(row.params[1], "label");
                continue;
            }
            if (fmts[k] == PN_RESULTS_JSONL)
                ck_assert_str_eq(row.params[1], "label");
            ck_assert_str_eq(row.param_values[0], "32");
            ck_assert_str_eq(row.param_values[1], values[1]);
            ck_assert(row.point == 7);
            if (row.kind == PN_RESULTS_RUN) {
                uint64_t r = nrun / 2;
                size_t m = nrun % 2;
                ck_assert(row.run == r);
                ck_assert(row.seed == seeds[r]);
                ck_assert_str_eq(row.measure, names[m]);
                ck_assert_int_eq(row.end, ends[r]);
                ck_assert_double_eq(row.value, v[r * 2 + m]);
                nrun++;
                continue;
            }
            ck_assert_int_eq(row.kind, PN_RESULTS_POINT);
            pn_stats_t s;
            ck_assert_int_eq(pn_results_stats(&p, npoint, &s), PN_OK);
            ck_assert_str_eq(row.measure, names[npoint]);
            ck_assert(row.seed == 5 && row.requested == 4 && row.runs == 3);
            ck_assert(row.dead == 2 && row.limit == 1 && row.overflow == 0);
            ck_assert_uint_eq(row.stats.n, s.n);
            /* written with 6 decimals (mean, sd, interval) or 17 digits */
            ck_assert_double_eq_tol(row.stats.mean, s.mean, 1e-6);
            ck_assert_double_eq_tol(row.stats.sd, s.sd, 1e-6);
            ck_assert_double_eq(row.stats.min, s.min);
            ck_assert_double_eq(row.stats.median, s.median);
            ck_assert_double_eq(row.stats.max, s.max);
            ck_assert_double_eq_tol(row.stats.ci_low, s.ci_low, 1e-6);
            ck_assert_double_eq_tol(row.stats.ci_high, s.ci_high, 1e-6);
            npoint++;
        }
        ck_assert_uint_eq(nrun, 6);
        ck_assert_uint_eq(npoint, 2);
        pn_results_row_free(&row);
        free(text);
    }
    /* a statistic that does not exist: empty (CSV), null (JSON) */
    p.runs = 1;
    for (int k = 0; k < 2; k++) {
        pn_results_layout_t l = {fmts[k], 0, NULL};
        p.param_values = NULL;
        char *text = NULL;
        size_t len;
        FILE *f = open_memstream(&text, &len);
        pn_results_write_point(f, &l, &p);
        fclose(f);
        pn_results_row_t row = {0};
        size_t first = (size_t)(strchr(text, '\n') - text) + 1;
        ck_assert_int_eq(pn_results_row_parse(fmts[k], text, first, &row,
                                              NULL), PN_OK);
        ck_assert(isnan(row.stats.sd) && isnan(row.stats.ci_low));
        ck_assert_double_eq(row.stats.mean, 10);
        ck_assert_uint_eq(row.nparams, 0);
        pn_results_row_free(&row);
        free(text);
    }
    /* what is not a row of ours */
    static const struct {
        pn_results_format_t f;
        const char *line;
        const char *msg;
    } bad[] = {
        {PN_RESULTS_CSV, "1,point,0,,5,steps", "fields"},
        {PN_RESULTS_CSV, "2,run,0,0,5,steps,dead,1,,,,,,,,,,,,,", "schema 2"},
        {PN_RESULTS_CSV, "1,walk,0,0,5,steps,dead,1,,,,,,,,,,,,,", "kind"},
        {PN_RESULTS_CSV, "1,run,0,x,5,steps,dead,1,,,,,,,,,,,,,", "run"},
        {PN_RESULTS_CSV, "1,run,0,0,5,steps,gone,1,,,,,,,,,,,,,", "end"},
        {PN_RESULTS_CSV, "1,run,0,0,5,steps,dead,1,1,,,,,,,,,,,,", "requested"},
        {PN_RESULTS_CSV, "1,run,0,0,5,steps,dead,1\n1,run", "more than one"},
        {PN_RESULTS_CSV, "1,run,0,0,5,\"steps,dead,1,,,,,,,,,,,,,", "closed"},
        {PN_RESULTS_CSV, "schema,kind,point,run,seed,measure,end,value,"
                         "requested,runs,dead,limit,overflow,n,mean,sd,min,"
                         "median,max,ci_low,high", "header"},
        {PN_RESULTS_JSONL, "{\"schema\": 1, \"kind\": \"run\"", "expected"},
        {PN_RESULTS_JSONL, "{\"schema\": 1, \"schema\": 1}", "twice"},
        {PN_RESULTS_JSONL, "{\"schema\": 1, \"colour\": 1}", "unknown"},
        {PN_RESULTS_JSONL, "{\"schema\": 1, \"kind\": \"run\", \"point\": 0, "
                           "\"seed\": 1, \"measure\": \"steps\", \"end\": "
                           "\"dead\", \"value\": 1}", "run: missing"},
        {PN_RESULTS_JSONL, "{\"schema\": \"1\"}", "schema"},
        {PN_RESULTS_JSONL, "{\"kind\": \"\\ud800\"}", "surrogate"},
        {PN_RESULTS_JSONL, "{} x", "empty"},
        {PN_RESULTS_JSONL, "[1]", "object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pn_results_row_t row = {0};
        pn_error_t err;
        ck_assert_int_eq(pn_results_row_parse(bad[i].f, bad[i].line,
                                              strlen(bad[i].line), &row, &err),
                         PN_EVALUE);
        ck_assert_msg(strstr(err.text, bad[i].msg) != NULL, "'%s': got '%s'",
                      bad[i].line, err.text);
        ck_assert_ptr_null(row.mem);
    }
    pn_results_row_t row = {0};
    ck_assert_int_eq(pn_results_row_parse(PN_RESULTS_CSV, NULL, 1, &row, NULL),
                     PN_EINVAL);
    pn_results_row_free(NULL);
}
END_TEST

/* ---- the corpus -------------------------------------------------------- */

START_TEST(corpus_nets_run)
{
    const char *corpus = getenv("PN_CORPUS");
    if (!corpus || !*corpus)
        return;
    static const char *dirs[] = {"pipe", "tapaal", "greatspn", "woped",
                                 "pm4py", "pnmlframework", "epnk", "mcc",
                                 "misc"};
    int ran = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", corpus, dirs[d]);
        DIR *dh = opendir(dir);
        if (!dh)
            continue;
        struct dirent *ent;
        while ((ent = readdir(dh))) {
            if (ent->d_name[0] == '.')
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
            pn_net_t *net;
            if (pn_pnml_read_file(path, NULL, &net, NULL) != PN_OK)
                continue;
            /* big nets: fewer reference steps (it is slow by design) */
            uint64_t max = pn_net_transition_count(net) > 5000 ? 20 : 400;
            same_trace(net, 7, PN_SEM_MAXIMAL, max, ent->d_name);
            result_t r = run(net, 7, PN_SEM_MAXIMAL, 0, 5000);
            ck_assert(r.end == PN_END_DEAD || r.end == PN_END_LIMIT);
            result_free(&r);
            pn_net_free(net);
            ran++;
        }
        closedir(dh);
    }
    ck_assert_int_ge(ran, 60);
}
END_TEST


/* ---- the order of a step: stars ---------------------------------------- */

/* Small stars (2 members and up) on random nets, hub nets and WPNMs: both
 * modes still make the same run. */
START_TEST(incremental_equals_reference_stars)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 78);
    size_t with_stars = 0;
    for (int k = 0; k < 300; k++) {
        pn_net_t *net = random_net(&rng, k % 2);
        pn_engine_t *e;
        ck_assert_int_eq(pni_engine_compile_stars(net, 2, &e), PN_OK);
        with_stars += pni_engine_stars(e) > 0;
        pn_engine_free(e);
        same_trace_k(net, (uint64_t)k, k % 3 ? PN_SEM_MAXIMAL
                                             : PN_SEM_INTERLEAVING, 300,
                     "random stars", 2);
        pn_net_free(net);
    }
    ck_assert_uint_ge(with_stars, 15);
    for (int k = 0; k < 20; k++) {
        pn_net_t *net = hub_net(&rng);
        same_trace_k(net, (uint64_t)k, PN_SEM_MAXIMAL, 300, "hub stars", 2);
        pn_net_free(net);
    }
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pn_net_t *net = wpnm(4 + seed, 1 + seed % 4, 3 + seed, seed % 3,
                             2 + seed % 2, seed * 3, seed % 3);
        same_trace_k(net, seed, PN_SEM_MAXIMAL, 1000000, "wpnm stars", 2);
        same_trace_k(net, seed, PN_SEM_INTERLEAVING, 1000000,
                     "wpnm stars inter", 2);
        pn_net_free(net);
    }
}
END_TEST

/* Stars count and pick their members with the popcnt instruction where
 * the processor has it, else without: the same runs either way. */
START_TEST(stars_popcount_either_way)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 91);
    size_t with_stars = 0;
    for (int k = 0; k < 210; k++) {
        pn_net_t *net = k < 200 ? random_net(&rng, k % 2)
                                : wpnm((size_t)k - 184, 1 + k % 4, 20, 5, 5,
                                       7, 2);
        pn_engine_t *e;
        ck_assert_int_eq(pni_engine_compile_stars(net, 2, &e), PN_OK);
        with_stars += pni_engine_stars(e) > 0;
        size_t nt = pn_engine_transition_count(e);
        uint64_t steps[2], firings[2], *counts[2];
        for (int hw = 0; hw < 2; hw++) {
            pni_engine_set_popcnt(e, hw);
            pn_sim_t *s = pn_sim_new(e, (uint64_t)k, PN_SEM_MAXIMAL, 0);
            ck_assert_ptr_nonnull(s);
            pn_sim_run(s, 2000);
            steps[hw] = pn_sim_steps(s);
            firings[hw] = pn_sim_firings(s);
            counts[hw] = malloc((nt + 1) * sizeof *counts[hw]);
            memcpy(counts[hw], pn_sim_counts(s), nt * sizeof *counts[hw]);
            pn_sim_free(s);
        }
        ck_assert_uint_eq(steps[0], steps[1]);
        ck_assert_uint_eq(firings[0], firings[1]);
        ck_assert_int_eq(memcmp(counts[0], counts[1], nt * sizeof **counts),
                         0);
        free(counts[0]);
        free(counts[1]);
        pn_engine_free(e);
        pn_net_free(net);
    }
    ck_assert_uint_ge(with_stars, 15);
}
END_TEST

/* The definition of a maximal step, apart from the engine: a uniform order
 * of the enabled set (Fisher-Yates with the test's own stream), walked with
 * the budget.  bias: with probability 1/4 the order is the transitions'
 * own, not shuffled (a wrong order, for the test of the test).  Returns the
 * fired set as bits (nt <= 64); m becomes the next marking. */
static uint64_t definition_step(const pn_engine_t *e, uint64_t *m,
                                uint32_t *E, uint64_t *pend, pni_rng_t *rng,
                                int bias)
{
    uint32_t nt = (uint32_t)pn_engine_transition_count(e), n = 0;
    size_t np = pn_engine_place_count(e);
    for (uint32_t t = 0; t < nt; t++)
        if (pni_engine_enabled(e, m, t))
            E[n++] = t;
    if (!bias || pni_rng_below(rng, 4))
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = (uint32_t)pni_rng_below(rng, i), x = E[i - 1];
            E[i - 1] = E[j];
            E[j] = x;
        }
    memset(pend, 0, (np + 1) * sizeof *pend);
    uint64_t fired = 0;
    for (uint32_t i = 0; i < n; i++)
        if (pni_engine_fits(e, m, pend, E[i])) {
            pni_engine_take(e, m, pend, E[i]);
            fired |= UINT64_C(1) << E[i];
        }
    for (uint32_t t = 0; t < nt; t++)
        if (fired >> t & 1)
            ck_assert_int_eq(pni_engine_give(e, m, t), 0);
    return fired;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Two samples of n outcomes each, from one distribution?  Pearson's
 * chi-square of homogeneity over the outcomes seen (sum of
 * (a - b)^2 / (a + b)); returns how many standard deviations of the
 * chi-square distribution (df = outcomes - 1) it lies above its mean. */
static double chi_square_z(uint64_t *a, uint64_t *b, size_t n, size_t *cats)
{
    qsort(a, n, sizeof *a, cmp_u64);
    qsort(b, n, sizeof *b, cmp_u64);
    double chi = 0;
    size_t i = 0, j = 0, k = 0;
    while (i < n || j < n) {
        uint64_t v = i < n && (j >= n || a[i] <= b[j]) ? a[i] : b[j];
        double ca = 0, cb = 0;
        while (i < n && a[i] == v)
            ca++, i++;
        while (j < n && b[j] == v)
            cb++, j++;
        chi += (ca - cb) * (ca - cb) / (ca + cb);
        k++;
    }
    *cats = k;
    if (k < 2)
        return 0;
    double df = (double)k - 1;
    return (chi - df) / sqrt(2 * df);
}

/* The outcome of the first steps from the initial marking: the fired sets,
 * hashed.  Engine: pn_sim_step() with stars of kmin members; else the
 * definition. */
static uint64_t outcome(const pn_engine_t *e, uint64_t seed, int engine,
                        int bias, int steps, uint64_t *m, uint32_t *E,
                        uint64_t *pend)
{
    uint64_t h = UINT64_C(1469598103934665603);
    size_t np = pn_engine_place_count(e);
    if (engine) {
        pn_sim_t *s = pn_sim_new(e, seed, PN_SEM_MAXIMAL, (int)(seed % 2));
        ck_assert_ptr_nonnull(s);
        for (int k = 0; k < steps; k++) {
            pn_end_t end;
            ck_assert_int_eq(pn_sim_step(s, &end), PN_OK);
            size_t n;
            const uint32_t *f = pn_sim_fired(s, &n);
            uint64_t bits = 0;
            for (size_t i = 0; i < n; i++)
                bits |= UINT64_C(1) << f[i];
            h = (h ^ bits) * UINT64_C(1099511628211);
        }
        pn_sim_free(s);
        return h;
    }
    pni_rng_t rng;
    pni_rng_seed(&rng, seed ^ UINT64_C(0x5DEECE66D));
    pn_sim_t *s0 = pn_sim_new(e, 0, PN_SEM_MAXIMAL, 1);
    memcpy(m, pn_sim_marking(s0), np * sizeof *m);
    pn_sim_free(s0);
    for (int k = 0; k < steps; k++)
        h = (h ^ definition_step(e, m, E, pend, &rng, bias)) *
            UINT64_C(1099511628211);
    return h;
}

/* A net of overlapping conflicts: a star s (3 tokens, members a0..a5 of
 * weight 1), a0 also taking from q (1 token) which b takes with r; c
 * empties s (reset) while it reads z, which d and e move back and forth;
 * an inhibitor on a2 from y; a second star s2 (5 tokens, members f1, f2 of
 * weight 2) which f0 takes from too, filling the capacity place k
 * (capacity 2) that g fills too.  Tokens come back (to s, q, r, z, s2), so
 * that later steps conflict again, in other ways: the first step's star s
 * is clean, later ones not always. */
static pn_net_t *conflict_net(void)
{
    pn_net_t *net = pn_net_new("conflicts");
    const char *pl[] = {"s", "q", "r", "z", "y", "s2", "k", "out"};
    uint64_t m0[] = {3, 1, 0, 0, 0, 5, 0, 0};
    for (size_t p = 0; p < 8; p++)
        pn_net_add_place(net, pl[p], NULL, m0[p], NULL);
    pn_net_set_capacity(net, 6, 2);
    const char *tr[] = {"a0", "a1", "a2", "a3", "a4", "a5", "b", "c",
                        "d", "e", "f0", "f1", "f2", "g"};
    for (size_t t = 0; t < 14; t++)
        pn_net_add_transition(net, tr[t], NULL, NULL);
    enum { S, Q, R, Z, Y, S2, K, OUT };
    enum { A0, A1, A2, A3, A4, A5, B, C, D, E, F0, F1, F2, G };
    const pn_arc_dir_t in = PN_DIR_PT, out = PN_DIR_TP;
    struct {
        size_t p, t;
        pn_arc_dir_t d;
        uint64_t w;
        pn_arc_kind_t k;
    } arcs[] = {
        {S, A0, in, 1, PN_ARC_NORMAL},  {S, A1, in, 1, PN_ARC_NORMAL},
        {S, A2, in, 1, PN_ARC_NORMAL},  {S, A3, in, 1, PN_ARC_NORMAL},
        {S, A4, in, 1, PN_ARC_NORMAL},  {S, A5, in, 1, PN_ARC_NORMAL},
        {Q, A0, in, 1, PN_ARC_NORMAL},  {Q, B, in, 1, PN_ARC_NORMAL},
        {R, B, in, 1, PN_ARC_NORMAL},   {S, C, in, 1, PN_ARC_RESET},
        {Z, C, in, 1, PN_ARC_READ},     {Z, D, in, 1, PN_ARC_NORMAL},
        {Y, D, out, 1, PN_ARC_NORMAL},  {Y, E, in, 1, PN_ARC_NORMAL},
        {Z, E, out, 1, PN_ARC_NORMAL},  {Y, A2, in, 1, PN_ARC_INHIBITOR},
        {S2, F0, in, 2, PN_ARC_NORMAL}, {S2, F1, in, 2, PN_ARC_NORMAL},
        {S2, F2, in, 2, PN_ARC_NORMAL}, {K, F0, out, 1, PN_ARC_NORMAL},
        {K, G, out, 2, PN_ARC_NORMAL},  {R, G, in, 1, PN_ARC_READ},
        {S, A3, out, 1, PN_ARC_NORMAL}, {S, B, out, 2, PN_ARC_NORMAL},
        {Q, A4, out, 1, PN_ARC_NORMAL}, {R, A5, out, 1, PN_ARC_NORMAL},
        {Z, A1, out, 1, PN_ARC_NORMAL}, {S2, F1, out, 1, PN_ARC_NORMAL},
        {S2, C, out, 3, PN_ARC_NORMAL}, {OUT, A0, out, 1, PN_ARC_NORMAL},
        {OUT, F2, out, 1, PN_ARC_NORMAL},
    };
    for (size_t i = 0; i < sizeof arcs / sizeof *arcs; i++)
        ck_assert_int_eq(pn_net_add_arc_at(net, NULL, arcs[i].d, arcs[i].p,
                                           arcs[i].t, arcs[i].w, arcs[i].k,
                                           NULL),
                         PN_OK);
    return net;
}

/* The distributions of the first steps, engine (with stars) against the
 * definition, over many seeds; returns the larger z of the two tests (and
 * of the definition against a biased one in *zbias). */
static double compare_steps(const pn_net_t *net, uint32_t kmin, int steps,
                            size_t n, double *zbias, size_t *cats)
{
    pn_engine_t *e;
    ck_assert_int_eq(pni_engine_compile_stars(net, kmin, &e), PN_OK);
    size_t np = pn_engine_place_count(e), nt = pn_engine_transition_count(e);
    ck_assert_uint_le(nt, 64);
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b),
             *c = malloc(n * sizeof *c), *m = malloc((np + 1) * sizeof *m),
             *pend = malloc((np + 1) * sizeof *pend);
    uint32_t *E = malloc((nt + 1) * sizeof *E);
    for (size_t i = 0; i < n; i++) {
        a[i] = outcome(e, 1000 + i, 1, 0, steps, m, E, pend);
        b[i] = outcome(e, 1000 + i, 0, 0, steps, m, E, pend);
        c[i] = outcome(e, 1000 + n + i, 0, 1, steps, m, E, pend);
    }
    double z = chi_square_z(a, b, n, cats);
    if (zbias) {
        size_t k;
        /* b is sorted now: the definition again, another sample */
        for (size_t i = 0; i < n; i++)
            b[i] = outcome(e, 9000000 + i, 0, 0, steps, m, E, pend);
        *zbias = chi_square_z(b, c, n, &k);
    }
    free(a);
    free(b);
    free(c);
    free(m);
    free(pend);
    free(E);
    pn_engine_free(e);
    return z;
}

/* The order drawn by stars and the rest has the distribution of a uniform
 * order of the whole enabled set: over three steps of nets of overlapping
 * conflicts (the net above, random nets with stars), Pearson's chi-square
 * of homogeneity between the engine's steps and the definition's stays
 * within 6 standard deviations; the same test tells a biased order (the
 * transitions' own order one time in four) by far. */
START_TEST(stars_same_distribution)
{
    pn_net_t *net = conflict_net();
    pn_engine_t *e;
    ck_assert_int_eq(pni_engine_compile_stars(net, 2, &e), PN_OK);
    ck_assert_uint_eq(pni_engine_stars(e), 2);
    pn_engine_free(e);
    size_t cats;
    for (int steps = 1; steps <= 3; steps += 2) {
        double zbias, z = compare_steps(net, 2, steps, 20000, &zbias, &cats);
        ck_assert_msg(cats >= 20, "conflicts: %zu outcomes", cats);
        ck_assert_msg(z < 6, "conflicts, %d steps: chi-square z = %.1f over "
                      "%zu outcomes", steps, z, cats);
        ck_assert_msg(zbias > 20, "conflicts, %d steps: a biased order "
                      "passes (z = %.1f)", steps, zbias);
    }
    pn_net_free(net);
    pni_rng_t rng;
    pni_rng_seed(&rng, 79);
    int tested = 0;
    for (int k = 0; k < 1000 && tested < 20; k++) {
        net = random_net(&rng, k % 2);
        ck_assert_int_eq(pni_engine_compile_stars(net, 2, &e), PN_OK);
        int stars = pni_engine_stars(e) > 0;
        pn_engine_free(e);
        if (stars) {
            double z = compare_steps(net, 2, 3, 3000, NULL, &cats);
            ck_assert_msg(z < 6, "random net %d: chi-square z = %.1f over "
                          "%zu outcomes", k, z, cats);
            tested += cats > 1;
        }
        pn_net_free(net);
    }
    ck_assert_int_eq(tested, 20);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("wpnm");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, single_warp_formula);
    tcase_add_test(tc, no_instructions_one_step);
    tcase_add_test(tc, the_507_case);
    tcase_add_test(tc, lower_bounds_many_warps);
    suite_add_tcase(s, tc);
    tc = tcase_create("engine");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, incremental_equals_reference_wpnm);
    tcase_add_test(tc, incremental_equals_reference_random);
    tcase_add_test(tc, incremental_equals_reference_hubs);
    tcase_add_test(tc, incremental_equals_reference_stars);
    tcase_add_test(tc, stars_same_distribution);
    tcase_add_test(tc, stars_popcount_either_way);
    tcase_add_test(tc, incremental_switching_modes);
    tcase_add_test(tc, steps_are_enabled_and_maximal);
    tcase_add_test(tc, interleaving_one_per_step);
    tcase_add_test(tc, uniform_conflict);
    tcase_add_test(tc, weighted_inhibitor);
    tcase_add_test(tc, read_arcs);
    tcase_add_test(tc, reset_arcs);
    tcase_add_test(tc, capacity);
    tcase_add_test(tc, unbounded_net_overflows);
    tcase_add_test(tc, overflow_by_small_outputs);
    tcase_add_test(tc, no_dead_marking);
    tcase_add_test(tc, empty_nets);
    tcase_add_test(tc, same_seed_same_run);
    tcase_add_test(tc, stats);
    tcase_add_test(tc, results_stats);
    tcase_add_test(tc, results_rows_read_back);
    suite_add_tcase(s, tc);
    tc = tcase_create("corpus");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, corpus_nets_run);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
