/*
 * Symmetry (analysis/symmetry.c) against the full search: on GPU kernels
 * of 2 and 3 identical warps (and two programs of two warps each) and on
 * random nets made of identical copies of a random part, under both
 * semantics, the same answers, bounds, transitions fired and step counts,
 * as many markings and dead markings as the full search has orbits, and
 * paths that replay through pn_sim_fire(); a permutation that is not an
 * automorphism is refused, a net whose copies differ is not reduced, and
 * a query that tells the copies apart turns the symmetry off.
 */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "engine_private.h"
#include "analysis_private.h"

static size_t cmp_np;

static int marking_cmp(const void *a, const void *b)
{
    return memcmp(a, b, cmp_np * sizeof(uint64_t));
}

/* The orbits among the markings of the full search r0 (dead: among its
 * dead ones only), by the canonical form of the symmetric search r1;
 * each marking's orbit is a state of r1. */
static uint64_t orbits(const pn_reach_t *r0, const pn_reach_t *r1, int dead)
{
    size_t np = r0->np, n = 0;
    uint64_t *all = malloc((pn_reach_states(r0) + 1) * np * sizeof *all);
    uint64_t *m = malloc((np + 1) * sizeof *m);
    ck_assert(all && m);
    for (uint64_t i = 0; i < pn_reach_states(r0); i++) {
        if (dead && !pn_reach_dead_state(r0, i))
            continue;
        ck_assert(pn_reach_marking(r0, i, m) == PN_OK);
        ck_assert(pn_reach_contains(r1, m));
        pni_sym_canon(r1->sym, m, all + n++ * np);
    }
    cmp_np = np;
    qsort(all, n, np * sizeof *all, marking_cmp);
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += i == 0 || marking_cmp(all + i * np, all + (i - 1) * np);
    free(all);
    free(m);
    return k;
}

/* Replays path from the initial marking through pn_sim_fire(); returns the
 * simulation at its end (the caller frees it and its engine). */
static pn_sim_t *replay(const pn_net_t *net, pn_semantics_t sem,
                        const pn_reach_path_t *path, pn_engine_t **e)
{
    ck_assert(pn_engine_compile(net, e) == PN_OK);
    pn_sim_t *sim = pn_sim_new(*e, 1, sem, 0);
    ck_assert(sim);
    for (size_t i = 0; i < path->nsteps; i++) {
        size_t bad;
        ck_assert_msg(pn_sim_fire(sim, path->steps[i], path->n_in_step[i],
                                  &bad) == PN_OK,
                      "step %zu does not replay", i);
    }
    return sim;
}

static int dead_at(const pn_engine_t *e, size_t nt, const uint64_t *m)
{
    for (uint32_t t = 0; t < nt; t++)
        if (pni_engine_enabled(e, m, t))
            return 0;
    return 1;
}

/* A path of r1 (to state, or the longest) replays and ends in the orbit
 * of its state; at a dead marking when dead. */
static void check_path(const pn_net_t *net, const pn_reach_t *r1,
                       pn_semantics_t sem, pn_reach_path_t *path,
                       uint64_t state, int dead)
{
    pn_engine_t *e;
    pn_sim_t *sim = replay(net, sem, path, &e);
    size_t np = pn_net_place_count(net);
    uint64_t *c = malloc(np * sizeof *c), *s = malloc(np * sizeof *s);
    ck_assert(c && s);
    if (r1->sym)
        pni_sym_canon(r1->sym, pn_sim_marking(sim), c);
    else
        memcpy(c, pn_sim_marking(sim), np * sizeof *c);
    if (state != PN_REACH_NO_STATE) {
        ck_assert(pn_reach_marking(r1, state, s) == PN_OK);
        ck_assert(!memcmp(c, s, np * sizeof *c));
    }
    if (dead)
        ck_assert(dead_at(e, pn_net_transition_count(net),
                          pn_sim_marking(sim)));
    free(c);
    free(s);
    pn_sim_free(sim);
    pn_engine_free(e);
    pn_reach_path_free(path);
}

/* The full search and the symmetric one of net (qs may be NULL) agree;
 * returns the symmetric one's group order (0: the full one did not end
 * within the limit, nothing compared). */
static uint64_t compare(const pn_net_t *net, pn_semantics_t sem,
                        const pn_query_set_t *qs)
{
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.semantics = sem;
    o.graph = 1;
    o.max_states = 30000;
    size_t nq = qs ? qs->n : 0;
    pn_query_answer_t *a0 = calloc(nq + 1, sizeof *a0);
    pn_query_answer_t *a1 = calloc(nq + 1, sizeof *a1);
    pn_reach_t *r0, *r1;
    ck_assert(qs ? pn_reach_query(net, &o, qs, a0, &r0) == PN_OK
                 : pn_reach_explore(net, &o, &r0) == PN_OK);
    o.symmetry = 1;
    ck_assert(qs ? pn_reach_query(net, &o, qs, a1, &r1) == PN_OK
                 : pn_reach_explore(net, &o, &r1) == PN_OK);
    uint64_t order = pn_reach_symmetry(r1);
    ck_assert_uint_ge(order, 1);
    int complete = pn_reach_end(r0) == PN_REACH_COMPLETE ||
                   pn_reach_end(r0) == PN_REACH_DECIDED;
    if (!complete) {
        order = 0;
        goto out;
    }
    if (pn_reach_end(r0) == PN_REACH_COMPLETE)
        ck_assert_int_eq(pn_reach_end(r1), PN_REACH_COMPLETE);
    for (size_t i = 0; i < nq; i++) {
        if (!a0[i].known || !a1[i].known)
            continue;
        ck_assert_int_eq(a1[i].value, a0[i].value);
        ck_assert_uint_eq(a1[i].bound, a0[i].bound);
        if (a1[i].state != PN_REACH_NO_STATE && qs->q[i].kind == PN_QUERY_EF) {
            pn_reach_path_t *p;
            ck_assert(pn_reach_path(r1, a1[i].state, &p) == PN_OK);
            check_path(net, r1, sem, p, a1[i].state, 0);
        }
    }
    if (pn_reach_end(r0) != PN_REACH_COMPLETE || !r1->sym)
        goto out;
    ck_assert_uint_eq(pn_reach_states(r1), orbits(r0, r1, 0));
    ck_assert_uint_eq(pn_reach_dead(r1), orbits(r0, r1, 1));
    ck_assert_uint_eq(pn_reach_max_tokens_in_place(r1),
                      pn_reach_max_tokens_in_place(r0));
    ck_assert_uint_eq(pn_reach_max_tokens_per_marking(r1),
                      pn_reach_max_tokens_per_marking(r0));
    ck_assert_int_eq(pn_reach_stable_place(r1), pn_reach_stable_place(r0));
    for (size_t p = 0; p < pn_net_place_count(net); p++)
        ck_assert_uint_eq(pn_reach_place_bound(r1, p),
                          pn_reach_place_bound(r0, p));
    for (size_t t = 0; t < pn_net_transition_count(net); t++)
        ck_assert_int_eq(pn_reach_transition_fires(r1, t),
                         pn_reach_transition_fires(r0, t));
    int t0 = 0, t1 = 0;
    uint64_t lo0 = 0, hi0 = 0, lo1 = 0, hi1 = 0;
    pn_status_t s0 = pn_reach_run_lengths(r0, &t0, &lo0, &hi0);
    pn_status_t s1 = pn_reach_run_lengths(r1, &t1, &lo1, &hi1);
    ck_assert_int_eq(s1, s0);
    ck_assert_int_eq(t1, t0);
    if (!s0 && pn_reach_dead(r0)) {
        ck_assert_uint_eq(lo1, lo0);
        ck_assert_uint_eq(hi1, hi0);
        pn_reach_path_t *p;
        ck_assert(pn_reach_longest_path(r1, &p) == PN_OK);
        ck_assert_uint_eq(p->nsteps, hi0);
        check_path(net, r1, sem, p, PN_REACH_NO_STATE, 1);
    }
    if (pn_reach_dead(r0)) {
        pn_reach_path_t *p;
        ck_assert(pn_reach_dead_path(r1, &p) == PN_OK);
        check_path(net, r1, sem, p, PN_REACH_NO_STATE, 1);
        int live = 1;
        ck_assert(pn_reach_live(r1, &live) == PN_OK);
        ck_assert_int_eq(live, 0);
    }
out:
    pn_reach_free(r0);
    pn_reach_free(r1);
    free(a0);
    free(a1);
    return order;
}

static pn_net_t *gpu_mlp(size_t warps, uint64_t arith,
                         const pn_gpu_warp_t *work, uint64_t mlp)
{
    pn_gpu_params_t p;
    pn_gpu_params_init(&p);
    p.mlp = mlp;
    p.warps = warps;
    p.schedulers = 2;
    p.l1 = 2;
    p.l2 = 1;
    p.uniform = (pn_gpu_warp_t){arith, 1, 1};
    p.work = work;
    pn_net_t *net;
    ck_assert(pn_gpu_net(&p, &net) == PN_OK);
    return net;
}

static pn_net_t *gpu(size_t warps, uint64_t arith, const pn_gpu_warp_t *work)
{
    return gpu_mlp(warps, arith, work, 0);
}

static pn_query_set_t *parse(const pn_net_t *net, const char *const *text,
                             size_t n)
{
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(pn_query_parse(qs, text[i], net, &err) == PN_OK,
                      "%s: %s", text[i], err.text);
    return qs;
}

START_TEST(gpu_kernels)
{
    static const char *const q3[] = {
        "deadlock",
        "AF (w0_p1 + w1_p1 + w2_p1 == 0)",
        "AF (w2_p1 == 0 && w0_p1 == 0 && w1_p1 == 0)",
        "AG EF p0 >= 2",
        "EF (w0_p17 + w1_p17 + w2_p17 >= 2)",
        "bound(w0_p12, w1_p12, w2_p12)"};
    for (size_t w = 2; w <= 3; w++) {
        /* 3 warps: 6,776 markings under maximal steps, 252,673 under
         * interleaving (left out) */
        pn_net_t *net = gpu(w, w == 2 ? 2 : 1, NULL);
        uint64_t order = w == 2 ? 2 : 6;
        ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, NULL), order);
        if (w == 2)
            ck_assert_uint_eq(compare(net, PN_SEM_INTERLEAVING, NULL), order);
        else {
            pn_query_set_t *qs = parse(net, q3, 6);
            ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, qs), order);
            pn_query_set_free(qs);
        }
        pn_net_free(net);
    }
    /* two programs of two warps each: two classes, 2! * 2! */
    pn_gpu_warp_t work[4] = {{1, 0, 1}, {1, 1, 0}, {1, 0, 1}, {1, 1, 0}};
    pn_net_t *net = gpu(4, 1, work);
    ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, NULL), 4);
    pn_net_free(net);
    /* two load slots a warp: alike nodes within a warp, matched by the
     * backtracking search */
    net = gpu_mlp(2, 1, NULL, 2);
    ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, NULL), 2);
    pn_net_free(net);
}
END_TEST

START_TEST(asymmetric_queries)
{
    pn_net_t *net = gpu(3, 1, NULL);
    /* one warp named alone: no symmetry, the full search's answers */
    static const char *const one[] = {"EF w0_p17 >= 1 && w1_p17 == 0"};
    pn_query_set_t *qs = parse(net, one, 1);
    ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, qs), 1);
    pn_query_set_free(qs);
    /* an LTL query: none either */
    static const char *const ltl[] = {"LTL F p0 >= 2"};
    qs = parse(net, ltl, 1);
    ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, qs), 1);
    pn_query_set_free(qs);
    /* a transition of one warp alone */
    static const char *const fire[] = {"EF fireable(w1_t9)"};
    qs = parse(net, fire, 1);
    ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, qs), 1);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* k copies of a random part (places a<i>_p<j>, transitions a<i>_t<j>)
 * around shared places s0, s1; every arc kind, capacities on a third. */
static pn_net_t *copies(pni_rng_t *rng, size_t k, size_t *pp, size_t *pt)
{
    pn_net_t *net = pn_net_new("copies");
    size_t np = 2 + (size_t)pni_rng_below(rng, 3);
    size_t nt = 1 + (size_t)pni_rng_below(rng, 3);
    int caps = pni_rng_below(rng, 3) == 0;
    uint64_t m0[8], cap[8];
    for (size_t j = 0; j < np; j++) {
        m0[j] = pni_rng_below(rng, 2);
        cap[j] = caps ? 2 + pni_rng_below(rng, 2) : 0;
    }
    char id[32];
    for (size_t s = 0; s < 2; s++) {
        snprintf(id, sizeof id, "s%zu", s);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, 3), NULL);
    }
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < np; j++) {
            snprintf(id, sizeof id, "a%zu_p%zu", i, j);
            pn_net_add_place(net, id, NULL, m0[j], NULL);
            if (cap[j])
                pn_net_set_capacity(net, 2 + i * np + j, cap[j]);
        }
        for (size_t j = 0; j < nt; j++) {
            snprintf(id, sizeof id, "a%zu_t%zu", i, j);
            pn_net_add_transition(net, id, NULL, NULL);
        }
    }
    size_t na = nt + (size_t)pni_rng_below(rng, 2 * nt + 2);
    for (size_t a = 0; a < na; a++) {
        size_t p = (size_t)pni_rng_below(rng, np + 2); /* >= np: shared */
        size_t t = a < nt ? a : (size_t)pni_rng_below(rng, nt);
        uint64_t r = pni_rng_below(rng, 10), w = 1 + pni_rng_below(rng, 2);
        pn_arc_kind_t kind = r < 6 ? PN_ARC_NORMAL : r < 8 ? PN_ARC_INHIBITOR
                             : r < 9 ? PN_ARC_READ : PN_ARC_RESET;
        pn_arc_dir_t dir = kind == PN_ARC_NORMAL && pni_rng_below(rng, 2)
                               ? PN_DIR_TP : PN_DIR_PT;
        for (size_t i = 0; i < k; i++)
            pn_net_add_arc_at(net, NULL, dir,
                              p < np ? 2 + i * np + p : p - np, i * nt + t,
                              kind == PN_ARC_RESET ? 1 : w, kind, NULL);
    }
    *pp = np;
    *pt = nt;
    return net;
}

/* A query over the copies' sums, the shared places or every copy's
 * transition j: the same after any permutation of the copies. */
static void symmetric_atom(pni_rng_t *rng, size_t k, size_t np, size_t nt,
                           char *buf, size_t size)
{
    size_t n = strlen(buf);
    uint64_t r = pni_rng_below(rng, 4);
    if (r == 0) {
        snprintf(buf + n, size - n, "s%u >= %u",
                 (unsigned)pni_rng_below(rng, 2),
                 (unsigned)pni_rng_below(rng, 3));
        return;
    }
    unsigned j = (unsigned)pni_rng_below(rng, r == 1 ? nt : np);
    snprintf(buf + n, size - n, r == 1 ? "fireable(" : "");
    for (size_t i = 0; i < k; i++) {
        n = strlen(buf);
        snprintf(buf + n, size - n, r == 1 ? "%sa%zu_t%u" : "%sa%zu_p%u",
                 i ? (r == 1 ? ", " : " + ") : "", i, j);
    }
    n = strlen(buf);
    if (r == 1)
        snprintf(buf + n, size - n, ")");
    else
        snprintf(buf + n, size - n, " %s %u", r == 2 ? ">=" : "<=",
                 (unsigned)pni_rng_below(rng, 3));
}

START_TEST(random_copies)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2026);
    size_t used = 0, compared = 0, found = 0;
    for (int n = 0; n < 160; n++) {
        size_t k = 2 + (size_t)pni_rng_below(&rng, 2), np, nt;
        pn_net_t *net = copies(&rng, k, &np, &nt);
        static const char *const shapes[] = {
            "EF %s", "AG %s", "AG EF %s", "AF %s", "EG %s", "E [ %s U %s ]"};
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        for (int q = 0; q < 4; q++) {
            char a[512] = "", b[512] = "", text[1200];
            symmetric_atom(&rng, k, np, nt, a, sizeof a);
            symmetric_atom(&rng, k, np, nt, b, sizeof b);
            snprintf(text, sizeof text, shapes[pni_rng_below(&rng, 6)], a, b);
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "%s: %s", text, err.text);
        }
        pn_semantics_t sem = n % 2 ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING;
        uint64_t order = compare(net, sem, NULL);
        if (order) {
            compared++;
            /* the copies are identical: found (alike nodes within a
             * copy matched by backtracking) */
            uint64_t fact = k == 2 ? 2 : 6;
            found += order >= fact;
            /* the queries sum over the copies: kept, unless blocks of
             * another kind (alike places within a copy, say) are in the
             * same class as the copies, and the queries tell them apart */
            used += compare(net, sem, qs) >= fact;
        }
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_uint_ge(compared, 100);
    ck_assert_uint_eq(found, compared);
    ck_assert_uint_ge(used, found / 2);
    printf("random copies: %zu compared, symmetry found in %zu, kept by the "
           "queries in %zu\n", compared, found, used);
}
END_TEST

/* Two copies of p -> t -> q with s shared; differ says how the second
 * copy differs (0: not). */
static pn_net_t *pair(int differ)
{
    pn_net_t *net = pn_net_new("pair");
    pn_net_add_place(net, "s", NULL, 1, NULL);
    const char *ids[2][4] = {{"a_p", "a_q", "a_t"}, {"b_p", "b_q", "b_t"}};
    for (int i = 0; i < 2; i++) {
        pn_net_add_place(net, ids[i][0], NULL, differ == 1 && i ? 2 : 1,
                         NULL);
        pn_net_add_place(net, ids[i][1], NULL, 0, NULL);
        pn_net_add_transition(net, ids[i][2], NULL, NULL);
        size_t p = 1 + 2 * (size_t)i, q = p + 1, t = (size_t)i;
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, p, t, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, q, t, differ == 2 && i ? 2 : 1,
                          PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, 0, t, 1,
                          differ == 3 && i ? PN_ARC_INHIBITOR : PN_ARC_READ,
                          NULL);
    }
    if (differ == 4)
        pn_net_set_capacity(net, 4, 3);
    return net;
}

START_TEST(not_automorphisms)
{
    /* places s, a_p, a_q, b_p, b_q; transitions a_t, b_t */
    uint32_t id_p[] = {0, 1, 2, 3, 4}, id_t[] = {0, 1};
    uint32_t swap_p[] = {0, 3, 4, 1, 2}, swap_t[] = {1, 0};
    uint32_t wrong_p[] = {0, 4, 3, 2, 1}; /* p with q */
    uint32_t twice[] = {0, 1, 1, 3, 4};
    pn_net_t *net = pair(0);
    ck_assert(pni_sym_verify(net, id_p, id_t));
    ck_assert(pni_sym_verify(net, swap_p, swap_t));
    ck_assert(!pni_sym_verify(net, wrong_p, swap_t));
    ck_assert(!pni_sym_verify(net, swap_p, id_t));
    ck_assert(!pni_sym_verify(net, twice, id_t));
    ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, NULL), 2);
    pn_net_free(net);
    /* the swap of two copies that differ in an initial marking, a weight,
     * an arc kind, a capacity: refused, and the search not reduced */
    for (int d = 1; d <= 4; d++) {
        net = pair(d);
        ck_assert(pni_sym_verify(net, id_p, id_t));
        ck_assert_msg(!pni_sym_verify(net, swap_p, swap_t), "differ %d", d);
        ck_assert_uint_eq(compare(net, PN_SEM_MAXIMAL, NULL), 1);
        ck_assert_uint_eq(compare(net, PN_SEM_INTERLEAVING, NULL), 1);
        pn_net_free(net);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("symmetry");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, gpu_kernels);
    tcase_add_test(tc, asymmetric_queries);
    tcase_add_test(tc, random_copies);
    tcase_add_test(tc, not_automorphisms);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
