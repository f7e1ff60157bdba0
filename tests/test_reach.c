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
#include "analysis_private.h"
#include "testutil.h"

static pn_reach_t *explore(const pn_net_t *net, pn_semantics_t sem,
                           uint64_t max_states)
{
    pn_reach_options_t o;
    pn_reach_options_init(&o);
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

/* k places f_i of one token, each taken by two transitions a_i, b_i (to
 * x_i or y_i): 2^k maximal steps from the initial marking, all distinct
 * and dead, and k * 2 successors of it with interleaving. */
static pn_net_t *forks_net(int k)
{
    pn_net_t *net = pn_net_new("forks");
    char a[32], b[32];
    for (int i = 0; i < k; i++) {
        snprintf(a, sizeof a, "f%d", i);
        pn_net_add_place(net, a, NULL, 1, NULL);
        snprintf(a, sizeof a, "x%d", i);
        pn_net_add_place(net, a, NULL, 0, NULL);
        snprintf(a, sizeof a, "y%d", i);
        pn_net_add_place(net, a, NULL, 0, NULL);
        for (int j = 0; j < 2; j++) {
            snprintf(a, sizeof a, "%c%d", j ? 'b' : 'a', i);
            pn_net_add_transition(net, a, NULL, NULL);
            snprintf(b, sizeof b, "f%d", i);
            pn_net_add_arc(net, NULL, b, a, 1, PN_ARC_NORMAL, NULL);
            snprintf(b, sizeof b, "%c%d", j ? 'y' : 'x', i);
            pn_net_add_arc(net, NULL, a, b, 1, PN_ARC_NORMAL, NULL);
        }
    }
    return net;
}

static void count_calls(const pn_reach_t *r, void *ctx)
{
    (void)r;
    (*(int *)ctx)++;
}

/* The limits hold within the successors of one marking: never more than
 * max_states markings stored, the token bound as soon as a marking passes
 * it, and the progress report called while one marking's many maximal
 * steps are enumerated. */
START_TEST(limits_within_one_marking)
{
    pn_reach_options_t o;
    pn_reach_t *r;
    for (int sem = 0; sem < 2; sem++) {
        pn_net_t *net = forks_net(16);
        pn_reach_options_init(&o);
        o.semantics = sem ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING;
        for (uint64_t n = 1; n <= 40; n += 13) {
            o.max_states = n;
            ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
            ck_assert_int_eq(pn_reach_end(r), PN_REACH_MAX_STATES);
            ck_assert_uint_eq(pn_reach_states(r), n);
            pn_reach_free(r);
        }
        pn_net_free(net);
    }
    /* a net of exactly N markings is complete under --max-states N */
    pn_net_t *net = forks_net(3);
    pn_reach_options_init(&o);
    o.semantics = PN_SEM_MAXIMAL;
    o.max_states = 9;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
    ck_assert_uint_eq(pn_reach_states(r), 9);
    pn_reach_free(r);
    pn_net_free(net);
    /* the progress report: 65,536 maximal steps of the initial marking */
    net = forks_net(16);
    int calls = 0;
    pn_reach_options_init(&o);
    o.semantics = PN_SEM_MAXIMAL;
    o.progress = count_calls;
    o.progress_ctx = &calls;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
    ck_assert_uint_eq(pn_reach_states(r), 65537);
    ck_assert_int_ge(calls, 10);
    pn_reach_free(r);
    pn_net_free(net);
    /* the token bound: t_i puts i tokens into q; t_6 passes 5 */
    net = pn_net_new("tb");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_place(net, "q", NULL, 0, NULL);
    for (int i = 1; i <= 50; i++) {
        char t[16];
        snprintf(t, sizeof t, "t%d", i);
        pn_net_add_transition(net, t, NULL, NULL);
        pn_net_add_arc(net, NULL, "p", t, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, t, "q", (uint64_t)i, PN_ARC_NORMAL, NULL);
    }
    for (int sem = 0; sem < 2; sem++) {
        pn_reach_options_init(&o);
        o.semantics = sem ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING;
        o.token_bound = 5;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_TOKEN_BOUND);
        ck_assert_uint_eq(pn_reach_states(r), 7);
        ck_assert_uint_eq(pn_reach_max_tokens_in_place(r), 6);
        pn_reach_free(r);
    }
    pn_net_free(net);
}
END_TEST

/* A ring of k philosophers, each taking one of its two forks (h_i and
 * f_i, or h_i and f_(i+1)): every maximal step of the initial marking
 * leads to a dead marking, and the sets that are not maximal are far
 * more.  The search must cut them early: the progress report, called
 * every 4096 sets tried, counts them. */
START_TEST(maximal_search_cuts_early)
{
    enum { K = 14 };
    pn_net_t *net = pn_net_new("ring");
    char a[32], b[32];
    for (int i = 0; i < K; i++) {
        snprintf(a, sizeof a, "f%d", i);
        pn_net_add_place(net, a, NULL, 1, NULL);
        snprintf(a, sizeof a, "h%d", i);
        pn_net_add_place(net, a, NULL, 1, NULL);
        snprintf(a, sizeof a, "e%d", i);
        pn_net_add_place(net, a, NULL, 0, NULL);
    }
    for (int i = 0; i < K; i++)
        for (int j = 0; j < 2; j++) {
            snprintf(a, sizeof a, "%c%d", j ? 'r' : 'l', i);
            pn_net_add_transition(net, a, NULL, NULL);
            snprintf(b, sizeof b, "h%d", i);
            pn_net_add_arc(net, NULL, b, a, 1, PN_ARC_NORMAL, NULL);
            snprintf(b, sizeof b, "f%d", (i + j) % K);
            pn_net_add_arc(net, NULL, b, a, 1, PN_ARC_NORMAL, NULL);
            snprintf(b, sizeof b, "e%d", i);
            pn_net_add_arc(net, NULL, a, b, 1, PN_ARC_NORMAL, NULL);
        }
    for (int reset = 0; reset < 2; reset++) {
        if (reset) /* the search of nets with reset arcs too */
            pn_net_add_arc(net, NULL, "e0", "l1", 1, PN_ARC_RESET, NULL);
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.semantics = PN_SEM_MAXIMAL;
        int calls = 0;
        o.progress = count_calls;
        o.progress_ctx = &calls;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        ck_assert_uint_eq(pn_reach_dead(r), pn_reach_states(r) - 1);
        /* sets tried: not many more than the steps found */
        ck_assert_msg((uint64_t)calls * 4096 <= 4 * pn_reach_states(r) + 4096,
                      "%d calls for %llu states", calls,
                      (unsigned long long)pn_reach_states(r));
        pn_reach_free(r);
    }
    pn_net_free(net);
}
END_TEST

/* ---- brute force, from the semantics' text ------------------------------- */

/* The graph of tests/testutil.c's firing rule: states (limit at the
 * most), edges and dead markings, and the markings (the caller frees
 * them). */
static void brute_force(const pn_net_t *net, size_t limit, size_t *states,
                        size_t *edges, size_t *dead, uint64_t **seen_out)
{
    tu_graph_t g;
    tu_bf_graph(&g, net, limit);
    *states = g.n;
    *edges = *dead = 0;
    for (size_t i = 0; i < g.n; i++) {
        *edges += g.nsucc[i];
        *dead += g.nsucc[i] == 0;
    }
    *seen_out = g.m;
    g.m = NULL;
    tu_graph_free(&g);
}

/* The explorer's states, edges and dead markings are the brute force's
 * (s, e, d), and it holds every marking the brute force saw (seen, s
 * markings of np places); i names the net in the message. */
static void same_as_brute(const pn_reach_t *r, int i, size_t np, size_t s,
                          size_t e, size_t d, const uint64_t *seen)
{
    ck_assert_msg(pn_reach_states(r) == s && pn_reach_edges(r) == e &&
                      pn_reach_dead(r) == d,
                  "net %d: explorer %llu/%llu/%llu, brute force "
                  "%zu/%zu/%zu", i,
                  (unsigned long long)pn_reach_states(r),
                  (unsigned long long)pn_reach_edges(r),
                  (unsigned long long)pn_reach_dead(r), s, e, d);
    for (size_t k = 0; k < s; k++)
        ck_assert(pn_reach_contains(r, seen + k * np));
}

/* capacities on every place keep most random nets finite */
static pn_net_t *random_net(pni_rng_t *rng)
{
    static const tu_shape_t sh = {
        .id = "rnd", .p_min = 2, .p_span = 4, .t_min = 1, .t_span = 4,
        .tokens = 3, .caps_in = 1, .cap_min = 2, .cap_span = 3, .a_min = 1,
        .a_mul = 3, .normal = 6, .inh = 8, .read = 9};
    return tu_random_net(rng, &sh, 2);
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
        same_as_brute(r, i, np, s, e, d, seen);
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


/* ---- maximal steps by brute force: every order of the walk ----------------
 * From the step rule's text: the enabled set E of m in some order, walked
 * with the budget B = m; a transition fires when its normal inputs are
 * within B and each capacity place it puts into has room (B less what it
 * takes there, plus what the step already promised the place, plus its
 * output, within the capacity); it takes its normal inputs from B and
 * empties its reset places in B; the outputs are added after the walk.
 * The successors of m are the markings of every order (n! of them). */

typedef struct {
    const pn_net_t *net;
    size_t np, nt;
    uint64_t *in, *out;     /* in[t * np + p], out[t * np + p]: weights */
    unsigned char *rs;      /* rs[t * np + p]: t resets p */
} bfnet_t;

static void bfnet_init(bfnet_t *b, const pn_net_t *net)
{
    b->net = net;
    b->np = pn_net_place_count(net);
    b->nt = pn_net_transition_count(net);
    b->in = calloc(b->nt * b->np + 1, sizeof *b->in);
    b->out = calloc(b->nt * b->np + 1, sizeof *b->out);
    b->rs = calloc(b->nt * b->np + 1, 1);
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t k = a->transition * b->np + a->place;
        if (a->dir == PN_DIR_TP)
            b->out[k] += a->weight;
        else if (a->kind == PN_ARC_NORMAL)
            b->in[k] += a->weight;
        else if (a->kind == PN_ARC_RESET)
            b->rs[k] = 1;
    }
}

static void bfnet_free(bfnet_t *b)
{
    free(b->in);
    free(b->out);
    free(b->rs);
}

/* Walks order[0..n) from m: the marking after the step, in next. */
static void bf_walk(const bfnet_t *b, const uint64_t *m, const size_t *order,
                    size_t n, uint64_t *budget, uint64_t *pend,
                    unsigned char *fired, uint64_t *next)
{
    size_t np = b->np;
    memcpy(budget, m, np * sizeof *m);
    memset(pend, 0, np * sizeof *pend);
    memset(fired, 0, b->nt);
    for (size_t i = 0; i < n; i++) {
        size_t t = order[i];
        const uint64_t *in = b->in + t * np, *out = b->out + t * np;
        int fits = 1;
        for (size_t p = 0; fits && p < np; p++)
            fits = budget[p] >= in[p];
        for (size_t p = 0; fits && p < np; p++) {
            uint64_t cap = pn_net_place(b->net, p)->capacity;
            if (cap && out[p])
                fits = budget[p] - in[p] + pend[p] + out[p] <= cap;
        }
        if (!fits)
            continue;
        fired[t] = 1;
        for (size_t p = 0; p < np; p++) {
            budget[p] -= in[p];
            if (b->rs[t * np + p])
                budget[p] = 0;
            if (pn_net_place(b->net, p)->capacity)
                pend[p] += out[p];
        }
    }
    memcpy(next, budget, np * sizeof *next);
    for (size_t t = 0; t < b->nt; t++)
        if (fired[t])
            for (size_t p = 0; p < np; p++)
                next[p] += b->out[t * np + p];
}

/* Next permutation of a[0..n) in lexicographic order; 0 after the last. */
static int next_perm(size_t *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    size_t x = a[i - 1];
    a[i - 1] = a[j];
    a[j] = x;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        x = a[l];
        a[l] = a[r];
        a[r] = x;
    }
    return 1;
}

/* Breadth first over maximal steps: states, edges (distinct successor
 * markings of each marking) and dead markings; returns 0 when the search
 * passed limit states (then nothing is counted). */
static int brute_force_maximal(const pn_net_t *net, size_t limit,
                               size_t *states, size_t *edges, size_t *dead,
                               uint64_t **seen_out)
{
    bfnet_t b;
    bfnet_init(&b, net);
    size_t np = b.np, nt = b.nt;
    uint64_t *seen = malloc((limit + 1) * np * sizeof *seen + 1);
    uint64_t *next = malloc((np + 1) * sizeof *next);
    uint64_t *budget = malloc((np + 1) * sizeof *budget);
    uint64_t *pend = malloc((np + 1) * sizeof *pend);
    uint64_t *succ = malloc(((size_t)120 * np + 1) * sizeof *succ);
    unsigned char *fired = malloc(nt + 1);
    size_t *order = malloc((nt + 1) * sizeof *order);
    size_t n = 1, ok = 1;
    *edges = *dead = 0;
    for (size_t p = 0; p < np; p++)
        seen[p] = pn_net_place(net, p)->marking;
    for (size_t i = 0; ok && i < n; i++) {
        size_t ne = 0, nsucc = 0;
        for (size_t t = 0; t < nt; t++)
            if (tu_bf_enabled(net, seen + i * np, t))
                order[ne++] = t;
        ck_assert_uint_le(ne, 5); /* 120 orders at most */
        if (ne == 0) {
            (*dead)++;
            continue;
        }
        do {
            bf_walk(&b, seen + i * np, order, ne, budget, pend, fired, next);
            size_t k;
            for (k = 0; k < nsucc && memcmp(succ + k * np, next,
                                            np * sizeof *next); k++)
                ;
            if (k < nsucc)
                continue;
            memcpy(succ + nsucc++ * np, next, np * sizeof *next);
            for (k = 0; k < n && memcmp(seen + k * np, next,
                                        np * sizeof *next); k++)
                ;
            if (k == n) {
                if (n == limit) {
                    ok = 0;
                    break;
                }
                memcpy(seen + n++ * np, next, np * sizeof *next);
            }
        } while (next_perm(order, ne));
        *edges += nsucc;
    }
    *states = n;
    free(next);
    free(budget);
    free(pend);
    free(succ);
    free(fired);
    free(order);
    bfnet_free(&b);
    if (!ok) {
        free(seen);
        *seen_out = NULL;
        return 0;
    }
    *seen_out = seen;
    return 1;
}

/* Random nets for the maximal steps: up to five transitions, reset arcs
 * more often, and capacities on some places or none (without capacities
 * the explorer enumerates sets of transitions, with them orders). */
static pn_net_t *random_net_max(pni_rng_t *rng)
{
    static const tu_shape_t sh = {
        .id = "rndmax", .p_min = 2, .p_span = 4, .t_min = 2, .t_span = 4,
        .tokens = 4, .caps_in = 3, .cap_min = 2, .cap_span = 3,
        .caps_half = 1, .a_min = 2, .a_mul = 3, .normal = 6, .inh = 7,
        .read = 8};
    return tu_random_net(rng, &sh, 2);
}

/* The maximal successors are exactly the markings of every order of the
 * walk: states, edges (distinct successors), dead markings and every
 * marking as the brute force's, on nets it explores in full. */
START_TEST(maximal_steps_against_brute_force)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3120);
    int compared = 0, with_reset = 0;
    for (int i = 0; i < 1500; i++) {
        pn_net_t *net = random_net_max(&rng);
        size_t np = pn_net_place_count(net);
        size_t s, e, d;
        uint64_t *seen;
        if (!brute_force_maximal(net, 300, &s, &e, &d, &seen)) {
            pn_net_free(net);
            continue;
        }
        pn_reach_t *r = explore(net, PN_SEM_MAXIMAL, 0);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        same_as_brute(r, i, np, s, e, d, seen);
        /* the path to a dead marking replays: each step's transitions,
         * walked in its order, all fire */
        if (pn_reach_dead(r)) {
            pn_reach_path_t *path;
            ck_assert_int_eq(pn_reach_dead_path(r, &path), PN_OK);
            bfnet_t b;
            bfnet_init(&b, net);
            uint64_t *m = malloc(3 * np * sizeof *m), *bud = m + np,
                     *pend = m + 2 * np;
            unsigned char *fired = malloc(b.nt);
            size_t *order = malloc(b.nt * sizeof *order);
            for (size_t p = 0; p < np; p++)
                m[p] = pn_net_place(net, p)->marking;
            for (size_t k = 0; k < path->nsteps; k++) {
                for (size_t j = 0; j < path->n_in_step[k]; j++) {
                    order[j] = path->steps[k][j];
                    ck_assert(tu_bf_enabled(net, m, order[j]));
                }
                bf_walk(&b, m, order, path->n_in_step[k], bud, pend, fired,
                        m);
                for (size_t j = 0; j < path->n_in_step[k]; j++)
                    ck_assert_msg(fired[order[j]], "net %d: step %zu", i, k);
            }
            ck_assert(tu_bf_dead(net, m));
            free(m);
            free(fired);
            free(order);
            bfnet_free(&b);
            pn_reach_path_free(path);
        }
        for (size_t a = 0; a < pn_net_arc_count(net); a++)
            if (pn_net_arc(net, a)->kind == PN_ARC_RESET) {
                with_reset++;
                break;
            }
        free(seen);
        pn_reach_free(r);
        pn_net_free(net);
        compared++;
    }
    ck_assert_int_ge(compared, 900);
    ck_assert_int_ge(with_reset, 300);
}
END_TEST

/* Nets with invariants: components, each a set of places holding one
 * token that transitions move within it (a one-hot group; a reset arc on
 * one makes it "one token at most"), and a pair of counters that
 * transitions trade at 1 for 2 (an exact semiflow with weights 2 and 1),
 * with read and inhibitor arcs and a free place with a capacity.  The
 * explorer stores groups as one code and derives places from the others:
 * its states, edges, dead markings and every marking it holds must be the
 * brute force's, and over the set every kind of layout is used. */
static pn_net_t *invariant_net(pni_rng_t *rng)
{
    pn_net_t *net = pn_net_new("inv");
    size_t nc = 1 + (size_t)pni_rng_below(rng, 3), np = 0;
    size_t first[4], size[4];
    char id[16];
    for (size_t c = 0; c < nc; c++) {
        first[c] = np;
        size[c] = 2 + (size_t)pni_rng_below(rng, 4);
        size_t at = (size_t)pni_rng_below(rng, size[c]);
        for (size_t k = 0; k < size[c]; k++, np++) {
            snprintf(id, sizeof id, "p%zu", np);
            pn_net_add_place(net, id, NULL, k == at, NULL);
        }
    }
    size_t ca = np, cb = np + 1, fr = np + 2;
    pn_net_add_place(net, "ca", NULL, pni_rng_below(rng, 3), NULL);
    pn_net_add_place(net, "cb", NULL, pni_rng_below(rng, 3), NULL);
    pn_net_add_place(net, "fr", NULL, 0, NULL);
    pn_net_set_capacity(net, fr, 2);
    np += 3;
    size_t nt = 2 + (size_t)pni_rng_below(rng, 5);
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
        for (size_t c = 0; c < nc; c++) {
            if (pni_rng_below(rng, 3) == 0)
                continue;
            size_t a = first[c] + (size_t)pni_rng_below(rng, size[c]);
            size_t b = first[c] + (size_t)pni_rng_below(rng, size[c]);
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, a, t, 1, PN_ARC_NORMAL,
                              NULL);
            pn_net_add_arc_at(net, NULL, PN_DIR_TP, b, t, 1, PN_ARC_NORMAL,
                              NULL);
        }
        uint64_t k = pni_rng_below(rng, 4);
        if (k == 1 || k == 2) { /* ca -> 2 cb, or back */
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, k == 1 ? ca : cb, t,
                              k == 1 ? 1 : 2, PN_ARC_NORMAL, NULL);
            pn_net_add_arc_at(net, NULL, PN_DIR_TP, k == 1 ? cb : ca, t,
                              k == 1 ? 2 : 1, PN_ARC_NORMAL, NULL);
        }
        if (pni_rng_below(rng, 3) == 0)
            pn_net_add_arc_at(net, NULL, pni_rng_below(rng, 2) ? PN_DIR_TP
                                                              : PN_DIR_PT,
                              fr, t, 1, PN_ARC_NORMAL, NULL);
        uint64_t x = pni_rng_below(rng, 12);
        size_t p = (size_t)pni_rng_below(rng, np);
        if (x < 2)
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, p, t, 1, PN_ARC_READ,
                              NULL);
        else if (x < 4)
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, p, t,
                              1 + pni_rng_below(rng, 2), PN_ARC_INHIBITOR,
                              NULL);
        else if (x < 5)
            pn_net_add_arc_at(net, NULL, PN_DIR_PT, p, t, 1, PN_ARC_RESET,
                              NULL);
        else if (x < 7) /* a component's token lost */
            pn_net_add_arc_at(net, NULL, PN_DIR_PT,
                              (size_t)pni_rng_below(rng, ca), t, 1,
                              PN_ARC_RESET, NULL);
    }
    return net;
}

START_TEST(invariants_against_brute_force)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 777);
    size_t groups = 0, exact = 0, derived = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = invariant_net(&rng);
        size_t np = pn_net_place_count(net);
        size_t s, e, d;
        uint64_t *seen;
        brute_force(net, 4000, &s, &e, &d, &seen);
        for (int sem = 0; sem < 2; sem++) {
            pn_reach_t *r = explore(net, sem ? PN_SEM_MAXIMAL
                                             : PN_SEM_INTERLEAVING, 0);
            ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
            size_t g, x, dv, stride;
            pni_reach_layout(r, &g, &x, &dv, &stride);
            if (sem) {
                /* every marking a maximal-step run visits was found */
                pn_engine_t *eng;
                ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
                for (uint64_t seed = 0; seed < 10; seed++) {
                    pn_sim_t *sim = pn_sim_new(eng, seed, PN_SEM_MAXIMAL, 0);
                    pn_end_t end = PN_END_NONE;
                    for (int k = 0; k < 30 && end == PN_END_NONE; k++) {
                        ck_assert(pn_reach_contains(r, pn_sim_marking(sim)));
                        pn_sim_step(sim, &end);
                    }
                    pn_sim_free(sim);
                }
                pn_engine_free(eng);
                pn_reach_free(r);
                continue;
            }
            groups += g;
            exact += x;
            derived += dv;
            same_as_brute(r, i, np, s, e, d, seen);
            /* each stored marking reads back as one of the brute force's,
             * and a marking off the invariants is not found */
            uint64_t *m = malloc(np * sizeof *m);
            for (size_t k = 0; k < s; k++) {
                ck_assert_int_eq(pn_reach_marking(r, k, m), PN_OK);
                size_t j = 0;
                while (j < s && memcmp(seen + j * np, m, np * sizeof *m))
                    j++;
                ck_assert_msg(j < s, "net %d: state %zu not reachable", i, k);
                m[0] ^= 1;
                for (j = 0; j < s && memcmp(seen + j * np, m,
                                            np * sizeof *m); j++)
                    ;
                ck_assert_int_eq(pn_reach_contains(r, m), j < s);
            }
            free(m);
            pn_reach_free(r);
        }
        free(seen);
        pn_net_free(net);
    }
    /* seed 777: 73 groups, 64 of them exact; 1370 places derived */
    ck_assert_uint_ge(groups, exact + 5);
    ck_assert_uint_gt(exact, 40);
    ck_assert_uint_gt(derived, 500);
}
END_TEST

/* A ring of 8 places with one token and a counter pair (2 a + b = 6):
 * the ring is one code of 3 bits, a is derived from b (3 bits): every
 * state takes one byte, and the 8 * 4 markings read back right. */
START_TEST(invariants_pack_small)
{
    pn_net_t *net = pn_net_new("ring");
    char id[16];
    for (int k = 0; k < 8; k++) {
        snprintf(id, sizeof id, "p%d", k);
        pn_net_add_place(net, id, NULL, k == 0, NULL);
    }
    pn_net_add_place(net, "a", NULL, 3, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    for (int k = 0; k < 8; k++) {
        snprintf(id, sizeof id, "t%d", k);
        pn_net_add_transition(net, id, NULL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, (size_t)k, (size_t)k, 1,
                          PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, (size_t)(k + 1) % 8,
                          (size_t)k, 1, PN_ARC_NORMAL, NULL);
    }
    pn_net_add_transition(net, "down", NULL, NULL);
    pn_net_add_transition(net, "up", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "down", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "down", "b", 2, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "b", "up", 2, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "up", "a", 1, PN_ARC_NORMAL, NULL);
    pn_reach_t *r = explore(net, PN_SEM_INTERLEAVING, 0);
    ck_assert_uint_eq(pn_reach_states(r), 32);
    size_t g, x, d, stride;
    pni_reach_layout(r, &g, &x, &d, &stride);
    ck_assert_uint_eq(g, 1);
    ck_assert_uint_eq(x, 1);
    ck_assert_uint_eq(d, 1);
    ck_assert_uint_eq(stride, 1);
    unsigned seen = 0;
    for (uint64_t i = 0; i < 32; i++) {
        uint64_t m[10], one = 0, at = 0;
        ck_assert_int_eq(pn_reach_marking(r, i, m), PN_OK);
        for (int k = 0; k < 8; k++)
            if (m[k]) {
                one += m[k];
                at = (uint64_t)k;
            }
        ck_assert_uint_eq(one, 1);
        ck_assert_uint_eq(2 * m[8] + m[9], 6);
        seen |= 1u << (at * 4 + m[8]);
    }
    ck_assert_uint_eq(seen, 0xffffffffu);
    pn_reach_free(r);
    pn_net_free(net);
}
END_TEST

/* The packed markings: src(40) feeds t (a += 1000) and u (b += 3); when
 * src is empty (an inhibitor arc), big adds 2^62 to a once.  a outgrows
 * its first layout several times, the last time with every other marking
 * stored: each must read back as it was.  c (7, read only) never
 * changes.  States: the (i, j) with i + j <= 40, 861, and the 41 where
 * big fired; edges 2 * 820 + 41; dead: 41.  Without parents (no_paths):
 * the same, less memory, and no paths. */
START_TEST(packed_markings_widen)
{
    pn_net_t *net = pn_net_new("w");
    pn_net_add_place(net, "src", NULL, 40, NULL);
    pn_net_add_place(net, "a", NULL, 0, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_place(net, "c", NULL, 7, NULL);
    pn_net_add_place(net, "once", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_transition(net, "big", NULL, NULL);
    pn_net_add_arc(net, NULL, "src", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "a", 1000, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "c", "t", 1, PN_ARC_READ, NULL);
    pn_net_add_arc(net, NULL, "src", "u", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "u", "b", 3, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "src", "big", 1, PN_ARC_INHIBITOR, NULL);
    pn_net_add_arc(net, NULL, "once", "big", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "big", "a", UINT64_C(1) << 62, PN_ARC_NORMAL,
                   NULL);
    uint64_t mem[2];
    for (int lean = 0; lean < 2; lean++) {
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.no_paths = lean;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        ck_assert_uint_eq(pn_reach_states(r), 902);
        ck_assert_uint_eq(pn_reach_edges(r), 1681);
        ck_assert_uint_eq(pn_reach_dead(r), 41);
        ck_assert_uint_eq(pn_reach_place_bound(r, 1),
                          (UINT64_C(1) << 62) + 40000);
        /* every (i, j, big) once, each marking read back whole */
        static unsigned char seen[41][41][2];
        memset(seen, 0, sizeof seen);
        for (uint64_t k = 0; k < 902; k++) {
            uint64_t m[5];
            ck_assert_int_eq(pn_reach_marking(r, k, m), PN_OK);
            uint64_t hi = m[1] >> 62, i = (m[1] & ((UINT64_C(1) << 62) - 1));
            ck_assert_uint_eq(i % 1000, 0);
            ck_assert_uint_eq(m[2] % 3, 0);
            i /= 1000;
            uint64_t j = m[2] / 3;
            ck_assert_uint_le(i + j, 40);
            ck_assert_uint_eq(m[0], 40 - i - j);
            ck_assert_uint_eq(m[3], 7);
            ck_assert_uint_eq(m[4] + hi, 1);
            ck_assert(hi == 0 || m[0] == 0);
            ck_assert(!seen[i][j][hi]);
            seen[i][j][hi] = 1;
            ck_assert(pn_reach_contains(r, m));
            m[2] += 1;
            ck_assert(!pn_reach_contains(r, m));
        }
        pn_reach_path_t *path = NULL;
        if (lean) {
            ck_assert_int_eq(pn_reach_dead_path(r, &path), PN_EINVAL);
            ck_assert_int_eq(pn_reach_path(r, 5, &path), PN_EINVAL);
        } else {
            ck_assert_int_eq(pn_reach_dead_path(r, &path), PN_OK);
            ck_assert_uint_eq(path->nsteps, 41);
            pn_reach_path_free(path);
        }
        mem[lean] = pn_reach_memory(r);
        pn_reach_free(r);
    }
    ck_assert_uint_lt(mem[1], mem[0]);
    /* the run lengths need no parents either: 40 steps to empty src, one
     * more for big */
    for (int lean = 0; lean < 2; lean++) {
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.no_paths = lean;
        o.graph = 1;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        int term = 0;
        uint64_t lo = 0, hi = 0;
        ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_OK);
        ck_assert(term);
        ck_assert_uint_eq(lo, 41);
        ck_assert_uint_eq(hi, 41);
        pn_reach_free(r);
    }
    pn_net_free(net);
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
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.unbounded = 0; /* the limits, not the proof */
    o.max_states = 1000;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_MAX_STATES);
    ck_assert_int_ge(pn_reach_states(r), 1000);
    int term;
    uint64_t lo, hi;
    ck_assert_int_eq(pn_reach_run_lengths(r, &term, &lo, &hi), PN_EINVAL);
    pn_reach_free(r);
    o.max_states = 0;
    o.token_bound = 300;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_TOKEN_BOUND);
    /* the packed markings widened past one byte on the way */
    ck_assert_int_gt(pn_reach_max_tokens_in_place(r), 255);
    uint64_t m[1] = {200};
    ck_assert(pn_reach_contains(r, m));
    pn_reach_free(r);
    /* the memory limit: stopped before the tables pass it */
    o.token_bound = 0;
    o.max_memory = 100000;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_MAX_MEMORY);
    ck_assert_uint_le(pn_reach_memory(r), 100000);
    ck_assert_uint_gt(pn_reach_states(r), 1000);
    pn_reach_free(r);
    /* and the proof: (2) covers (1) after one step */
    pn_reach_options_init(&o);
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_UNBOUNDED);
    uint64_t cover, covered;
    ck_assert(pn_reach_unbounded(r, &cover, &covered));
    ck_assert_uint_eq(pn_reach_depth(r, cover), 1);
    ck_assert_uint_eq(pn_reach_depth(r, covered), 0);
    pn_reach_free(r);
    pn_net_free(net);
}
END_TEST

/* ---- queries ------------------------------------------------------------- */

/* A random query as text (the inline form), over the places p0.. and the
 * transitions t0.. of a random net. */
static void random_formula(pni_rng_t *rng, size_t np, size_t nt, int depth,
                           char *buf, size_t size)
{
    static const tu_fshape_t fs = {
        .top = 9, .leaf = 5, .often = "deadlock", .rare = {"true", "false"},
        .odds = 2, .fireable = 2, .two_places = 1, .cmp_end = 4,
        .not_end = 5, .consts = 5};
    tu_random_formula(rng, &fs, np, nt, depth, buf, size);
}

START_TEST(random_queries_against_brute_force)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 777);
    int decided_early = 0, witnesses = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_net(&rng);
        size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
        size_t s, e, d;
        uint64_t *seen;
        brute_force(net, 4000, &s, &e, &d, &seen);
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        for (int k = 0; k < 4; k++) {
            char text[2048] = "";
            strcpy(text, k % 2 ? "AG " : "EF ");
            random_formula(&rng, np, nt, 3, text, sizeof text);
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "%s: column %lu: %s", text, err.column, err.text);
        }
        ck_assert_int_eq(pn_query_parse(qs, "bound(p0, p1)", net, &err),
                         PN_OK);
        if (i % 2)  /* half without a bound: the search may stop early */
            qs->n--, pn_qformula_free(qs->q[qs->n].formula),
                free(qs->q[qs->n].bound.places), free(qs->q[qs->n].id);
        /* the text form reads back as the same tree */
        for (size_t q = 0; q < qs->n; q++) {
            char *text = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&text, &len);
            pn_query_write(mem, &qs->q[q], net);
            fclose(mem);
            pn_query_set_t *again = pn_query_set_new();
            ck_assert_msg(pn_query_parse(again, text, net, &err) == PN_OK,
                          "%s: %s", text, err.text);
            ck_assert_int_eq(again->q[0].kind, qs->q[q].kind);
            ck_assert_msg(pn_qformula_equal(again->q[0].formula,
                                            qs->q[q].formula), "%s", text);
            pn_query_set_free(again);
            free(text);
        }
        pn_query_answer_t ans[5];
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        decided_early += pn_reach_end(r) == PN_REACH_DECIDED;
        ck_assert(pn_reach_end(r) == PN_REACH_COMPLETE ||
                  pn_reach_end(r) == PN_REACH_DECIDED);
        uint64_t *m = malloc((np + 1) * sizeof *m);
        for (size_t q = 0; q < qs->n; q++) {
            const pn_query_t *qq = &qs->q[q];
            ck_assert(ans[q].known);
            if (qq->kind == PN_QUERY_BOUND) {
                uint64_t best = 0;
                for (size_t k = 0; k < s; k++)
                    if (tu_bf_sum(&qq->bound, seen + k * np) > best)
                        best = tu_bf_sum(&qq->bound, seen + k * np);
                ck_assert_uint_eq(ans[q].bound, best);
            } else {
                int any = 0;
                for (size_t k = 0; k < s && !any; k++)
                    any = tu_bf_holds(net, qq->formula, seen + k * np) ==
                          (qq->kind == PN_QUERY_EF);
                ck_assert_int_eq(ans[q].value,
                                 qq->kind == PN_QUERY_EF ? any : !any);
            }
            if (ans[q].state == PN_REACH_NO_STATE)
                continue;
            /* the witness replays to the marking it claims, and that
             * marking decides the answer */
            witnesses++;
            pn_reach_path_t *path;
            ck_assert_int_eq(pn_reach_path(r, ans[q].state, &path), PN_OK);
            ck_assert_uint_eq(path->nsteps, pn_reach_depth(r, ans[q].state));
            pn_engine_t *eng;
            ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
            pn_sim_t *sim = pn_sim_new(eng, 0, PN_SEM_INTERLEAVING, 0);
            for (size_t k = 0; k < path->nsteps; k++) {
                size_t bad;
                ck_assert_int_eq(pn_sim_fire(sim, path->steps[k],
                                             path->n_in_step[k], &bad),
                                 PN_OK);
            }
            pn_reach_marking(r, ans[q].state, m);
            ck_assert_mem_eq(pn_sim_marking(sim), m, np * sizeof *m);
            if (qq->kind == PN_QUERY_BOUND)
                ck_assert_uint_eq(tu_bf_sum(&qq->bound, m), ans[q].bound);
            else
                ck_assert_int_eq(tu_bf_holds(net, qq->formula, m),
                                 qq->kind == PN_QUERY_EF);
            pn_sim_free(sim);
            pn_engine_free(eng);
            pn_reach_path_free(path);
        }
        /* every marking found was looked at, even when the answers
         * stopped the search: its dead markings are counted and what it
         * enables fires, so that no witness contradicts them */
        uint64_t dead = 0;
        for (uint64_t k = 0; k < pn_reach_states(r); k++) {
            pn_reach_marking(r, k, m);
            dead += tu_bf_dead(net, m);
            for (size_t t = 0; t < nt; t++)
                if (tu_bf_enabled(net, m, t))
                    ck_assert(pn_reach_transition_fires(r, t));
        }
        ck_assert_uint_eq(pn_reach_dead(r), dead);
        free(m);
        free(seen);
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_int_gt(decided_early, 10);
    ck_assert_int_gt(witnesses, 300);
}
END_TEST

/* Random nets of normal and read arcs without capacities: the search
 * says "not bounded" exactly when the brute force does not end, and the
 * marking it names covers its ancestor. */
START_TEST(unboundedness_is_exact)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 99);
    int unbounded = 0, bounded = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = pn_net_new("u");
        size_t np = 2 + (size_t)pni_rng_below(&rng, 3);
        size_t nt = 1 + (size_t)pni_rng_below(&rng, 3);
        char id[16];
        for (size_t p = 0; p < np; p++) {
            snprintf(id, sizeof id, "p%zu", p);
            pn_net_add_place(net, id, NULL, pni_rng_below(&rng, 2), NULL);
        }
        for (size_t t = 0; t < nt; t++) {
            snprintf(id, sizeof id, "t%zu", t);
            pn_net_add_transition(net, id, NULL, NULL);
        }
        size_t na = 2 + (size_t)pni_rng_below(&rng, 3 * nt);
        for (size_t k = 0; k < na; k++) {
            int read = pni_rng_below(&rng, 8) == 0;
            pn_net_add_arc_at(net, NULL, !read && pni_rng_below(&rng, 2)
                                             ? PN_DIR_TP : PN_DIR_PT,
                              (size_t)pni_rng_below(&rng, np),
                              (size_t)pni_rng_below(&rng, nt),
                              1 + pni_rng_below(&rng, 2),
                              read ? PN_ARC_READ : PN_ARC_NORMAL, NULL);
        }
        size_t s, e, d;
        uint64_t *seen;
        brute_force(net, 3000, &s, &e, &d, &seen);
        free(seen);
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 100000;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        if (s < 3000) {
            /* finite: never called unbounded */
            ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
            ck_assert_uint_eq(pn_reach_states(r), s);
            bounded++;
        } else {
            ck_assert_msg(pn_reach_end(r) == PN_REACH_UNBOUNDED,
                          "net %d: more than 3000 markings, end %d", i,
                          pn_reach_end(r));
            uint64_t cover, covered;
            ck_assert(pn_reach_unbounded(r, &cover, &covered));
            uint64_t *a = malloc(np * sizeof *a), *b = malloc(np * sizeof *b);
            pn_reach_marking(r, covered, a);
            pn_reach_marking(r, cover, b);
            int more = 0;
            for (size_t p = 0; p < np; p++) {
                ck_assert_uint_le(a[p], b[p]);
                more |= b[p] > a[p];
            }
            ck_assert(more);
            /* covered lies on the path to cover */
            pn_reach_path_t *path;
            ck_assert_int_eq(pn_reach_path(r, cover, &path), PN_OK);
            pn_engine_t *eng;
            ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
            pn_sim_t *sim = pn_sim_new(eng, 0, PN_SEM_INTERLEAVING, 0);
            uint64_t at = pn_reach_depth(r, covered);
            for (size_t k = 0; k < path->nsteps; k++) {
                if (k == at)
                    ck_assert_mem_eq(pn_sim_marking(sim), a, np * sizeof *a);
                size_t bad;
                ck_assert_int_eq(pn_sim_fire(sim, path->steps[k],
                                             path->n_in_step[k], &bad),
                                 PN_OK);
            }
            ck_assert_mem_eq(pn_sim_marking(sim), b, np * sizeof *b);
            /* and the loop fires again from there */
            for (size_t k = at; k < path->nsteps; k++) {
                size_t bad;
                ck_assert_int_eq(pn_sim_fire(sim, path->steps[k],
                                             path->n_in_step[k], &bad),
                                 PN_OK);
            }
            pn_sim_free(sim);
            pn_engine_free(eng);
            pn_reach_path_free(path);
            free(a);
            free(b);
            unbounded++;
        }
        pn_reach_free(r);
        pn_net_free(net);
    }
    ck_assert_int_gt(unbounded, 30);
    ck_assert_int_gt(bounded, 30);
}
END_TEST

/* A bound over no place (the contest's <place-bound/>) is the empty sum:
 * read from the XML and from bound(), written back as bound(), and its
 * value is 0 on a net whose places do hold tokens. */
START_TEST(empty_bound)
{
    pn_net_t *net = pn_net_new("x");
    pn_net_add_place(net, "p", NULL, 3, NULL);
    char dir[] = "/tmp/pn-reach-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/q.xml", dir);
    FILE *f = fopen(path, "w");
    fputs("<property-set xmlns=\"http://mcc.lip6.fr/\">\n<property><id>u"
          "</id>\n<formula><place-bound/></formula></property>\n"
          "</property-set>\n", f);
    fclose(f);
    pn_query_set_t *x, *in = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_mcc_queries_read(path, net, &x, &err), PN_OK);
    ck_assert_int_eq(x->q[0].kind, PN_QUERY_BOUND);
    ck_assert_uint_eq(x->q[0].bound.nplaces, 0);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    pn_query_write(mem, &x->q[0], net);
    fclose(mem);
    ck_assert_str_eq(text, "bound()");
    ck_assert_int_eq(pn_query_parse(in, text, net, &err), PN_OK);
    ck_assert_int_eq(in->q[0].kind, PN_QUERY_BOUND);
    ck_assert_uint_eq(in->q[0].bound.nplaces, 0);
    free(text);
    pn_query_answer_t ans[1];
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_query(net, &o, x, ans, &r), PN_OK);
    ck_assert(ans[0].known);
    ck_assert_uint_eq(ans[0].bound, 0);
    pn_reach_free(r);
    /* an empty set of transitions has no such reading */
    f = fopen(path, "w");
    fputs("<property-set>\n<property><id>u</id><formula><exists-path>"
          "<finally>\n<is-fireable/></finally></exists-path></formula>"
          "</property></property-set>\n", f);
    fclose(f);
    pn_query_set_free(x);
    ck_assert_int_eq(pn_mcc_queries_read(path, net, &x, &err), PN_EQUERY);
    ck_assert_uint_eq(err.line, 3);
    pn_query_set_free(in);
    unlink(path);
    rmdir(dir);
    pn_net_free(net);
}
END_TEST

/* The contest's XML and the inline form compile to the same tree; bad
 * files are refused with their line. */
START_TEST(xml_and_inline_agree)
{
    pn_net_t *net = pn_net_new("x");
    pn_net_add_place(net, "p1", NULL, 1, NULL);
    pn_net_add_place(net, "p3", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    char dir[] = "/tmp/pn-reach-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/q.xml", dir);
    FILE *f = fopen(path, "w");
    fputs("<?xml version=\"1.0\"?>\n"
          "<property-set xmlns=\"http://mcc.lip6.fr/\">\n"
          "<property><id>a</id><formula><exists-path><finally>\n"
          "<conjunction><integer-le><integer-constant>2</integer-constant>\n"
          "<tokens-count><place>p1</place></tokens-count></integer-le>\n"
          "<negation><is-fireable><transition>t</transition></is-fireable>"
          "</negation></conjunction>\n"
          "</finally></exists-path></formula></property>\n"
          "<property><id>b</id><formula><place-bound><place>p1</place>"
          "<place>p3</place></place-bound></formula></property>\n"
          "</property-set>\n", f);
    fclose(f);
    pn_query_set_t *x, *in = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_mcc_queries_read(path, net, &x, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(in, "EF (2 <= p1 && !fireable(t))", net,
                                    &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(in, "bound(p1, p3)", net, &err), PN_OK);
    ck_assert_uint_eq(x->n, 2);
    ck_assert_str_eq(x->q[0].id, "a");
    ck_assert_uint_eq(x->q[0].line, 3);
    ck_assert(pn_qformula_equal(x->q[0].formula, in->q[0].formula));
    ck_assert_int_eq(x->q[1].kind, PN_QUERY_BOUND);
    ck_assert_int_eq(in->q[1].kind, PN_QUERY_BOUND);
    ck_assert_uint_eq(x->q[1].bound.nplaces, 2);
    ck_assert_mem_eq(x->q[1].bound.places, in->q[1].bound.places,
                     2 * sizeof(size_t));
    /* not the same tree: another operator */
    ck_assert_int_eq(pn_query_parse(in, "EF (2 < p1 && !fireable(t))", net,
                                    &err), PN_OK);
    ck_assert(!pn_qformula_equal(x->q[0].formula, in->q[2].formula));
    pn_query_set_free(x);
    pn_query_set_free(in);
    /* refused with the line */
    f = fopen(path, "w");
    fputs("<property-set>\n<property><id>a</id><formula><exists-path>"
          "<finally>\n<integer-le><integer-constant>2</integer-constant>\n"
          "<tokens-count><place>nosuch</place></tokens-count></integer-le>"
          "</finally></exists-path></formula></property></property-set>\n",
          f);
    fclose(f);
    ck_assert_int_eq(pn_mcc_queries_read(path, net, &x, &err), PN_EUNKNOWN);
    ck_assert_uint_eq(err.line, 4);
    f = fopen(path, "w");
    fputs("<property-set>\n<property><id>a</id><formula><exists-path>"
          "<finally>\n\n<integer-sum/></finally></exists-path></formula>"
          "</property></property-set>\n", f);
    fclose(f);
    ck_assert_int_eq(pn_mcc_queries_read(path, net, &x, &err), PN_EQUERY);
    ck_assert_uint_eq(err.line, 4);
    unlink(path);
    rmdir(dir);
    /* the inline form: the column of what is wrong */
    in = pn_query_set_new();
    ck_assert_int_eq(pn_query_parse(in, "EF p1 >=", net, &err), PN_EQUERY);
    ck_assert_uint_eq(err.column, 9);
    ck_assert_int_eq(pn_query_parse(in, "EF (p1 > 1", net, &err), PN_EQUERY);
    ck_assert_int_eq(pn_query_parse(in, "AG p2 > 1", net, &err),
                     PN_EUNKNOWN);
    ck_assert_uint_eq(err.column, 4);
    ck_assert_int_eq(pn_query_parse(in, "EF p1 > 99999999999999999999", net,
                                    &err), PN_ERANGE);
    ck_assert_int_eq(pn_query_parse(in, "p1 > 0 junk", net, &err),
                     PN_EQUERY);
    ck_assert_uint_eq(in->n, 0);
    pn_query_set_free(in);
    pn_net_free(net);
}
END_TEST

/* Place bounds from the P-semiflows and subflows: a cycle (3 tokens
 * around p0, p1), weights (p2 --2--> t2 --> p3: 2 p3 + p2 stays 4), a
 * subflow (p4 -> t3 -> p5 -> t4 -> nothing: p4 + p5 only falls), a
 * source (t5 -> p6), a place only an inhibitor bounds (p7, at most 2:
 * no structure says so), and a reset that feeds another place (t7
 * empties p9 and puts a token in p8, as often as p8 allows).  Every
 * bound found holds on the explored state space.  A net too large for
 * the budget gets no bound. */
START_TEST(semiflow_bounds)
{
    pn_net_t *net = pn_net_new("sf");
    static const uint64_t m0[10] = {3, 0, 4, 0, 5, 0, 0, 0, 0, 1};
    char id[16];
    for (int p = 0; p < 10; p++) {
        snprintf(id, sizeof id, "p%d", p);
        pn_net_add_place(net, id, NULL, m0[p], NULL);
    }
    for (int t = 0; t < 8; t++) {
        snprintf(id, sizeof id, "t%d", t);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    pn_net_add_arc(net, NULL, "p0", "t0", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t0", "p1", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p1", "t1", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t1", "p0", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p2", "t2", 2, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t2", "p3", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p4", "t3", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t3", "p5", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p5", "t4", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t5", "p6", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p6", "t5", 1, PN_ARC_INHIBITOR, NULL);
    pn_net_add_arc(net, NULL, "t6", "p7", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p7", "t6", 2, PN_ARC_INHIBITOR, NULL);
    pn_net_add_arc(net, NULL, "p9", "t7", 1, PN_ARC_RESET, NULL);
    pn_net_add_arc(net, NULL, "t7", "p8", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "p8", "t7", 3, PN_ARC_INHIBITOR, NULL);
    uint64_t b[10];
    ck_assert_int_eq(pni_semiflow_bounds(net, b), 0);
    /* p9 only loses tokens (a reset): its own semiflow */
    static const uint64_t want[10] = {3, 3, 4, 2, 5, 5, UINT64_MAX,
                                      UINT64_MAX, UINT64_MAX, 1};
    for (int p = 0; p < 10; p++)
        ck_assert_uint_eq(b[p], want[p]);
    pn_reach_t *r = explore(net, PN_SEM_INTERLEAVING, 0);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
    for (int p = 0; p < 10; p++)
        ck_assert_uint_le(pn_reach_place_bound(r, (size_t)p), b[p]);
    ck_assert_uint_eq(pn_reach_place_bound(r, 3), 2);
    ck_assert_uint_eq(pn_reach_place_bound(r, 8), 3);
    pn_reach_free(r);
    pn_net_free(net);
    /* 3000 places and transitions: past the budget, no bounds */
    net = pn_net_new("big");
    for (size_t k = 0; k < 3000; k++) {
        snprintf(id, sizeof id, "p%zu", k);
        ck_assert_int_eq(pn_net_add_place(net, id, NULL, 1, NULL), PN_OK);
        snprintf(id, sizeof id, "t%zu", k);
        ck_assert_int_eq(pn_net_add_transition(net, id, NULL, NULL), PN_OK);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, k, k, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, (k + 1) % 3000, k, 1,
                          PN_ARC_NORMAL, NULL);
    }
    uint64_t *bb = malloc(3000 * sizeof *bb);
    ck_assert_int_eq(pni_semiflow_bounds(net, bb), 1);
    for (size_t k = 0; k < 3000; k++)
        ck_assert_uint_eq(bb[k], UINT64_MAX);
    free(bb);
    pn_net_free(net);
}
END_TEST

/* A net that the semiflows prove bounded, with a transition that adds
 * tokens (p -> t -> 2 q, 2 q -> u -> p): no marking can cover an
 * ancestor, so the search keeps no parents for that check (no_paths: no
 * paths either).  Without u's arc back to p, the net is unbounded and
 * the check finds it. */
START_TEST(structurally_bounded_keeps_no_parents)
{
    for (int back = 1; back >= 0; back--) {
        pn_net_t *net = pn_net_new("b");
        pn_net_add_place(net, "p", NULL, 3, NULL);
        pn_net_add_place(net, "q", NULL, 0, NULL);
        pn_net_add_transition(net, "t", NULL, NULL);
        pn_net_add_transition(net, "u", NULL, NULL);
        pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, "t", "q", 2, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, "q", "u", back ? 2 : 1, PN_ARC_NORMAL,
                       NULL);
        pn_net_add_arc(net, NULL, "u", "p", 1, PN_ARC_NORMAL, NULL);
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.no_paths = 1;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
        pn_reach_path_t *path = NULL;
        if (back) {
            ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
            /* (3-i, 2i) with the 2q -> p moves: p + q/2 = 3 */
            ck_assert_uint_eq(pn_reach_states(r), 4);
            ck_assert_int_eq(pn_reach_path(r, 1, &path), PN_EINVAL);
        } else {
            ck_assert_int_eq(pn_reach_end(r), PN_REACH_UNBOUNDED);
            ck_assert_int_eq(pn_reach_path(r, 1, &path), PN_OK);
            pn_reach_path_free(path);
        }
        pn_reach_free(r);
        pn_net_free(net);
    }
}
END_TEST

/* 3000 places of one token, each with a transition adding one more up
 * to 2 (an inhibitor: no structural bound, and too large for the
 * semiflows anyway): the first state's 3000 successors each outgrow a
 * different place.  The places are then widened together, not 3000
 * times one by one with every state repacked each time (minutes); every
 * marking reads back. */
START_TEST(many_places_widen_together)
{
    enum { N = 3000 };
    pn_net_t *net = pn_net_new("many");
    for (size_t k = 0; k < N; k++) {
        char id[16];
        snprintf(id, sizeof id, "p%zu", k);
        ck_assert_int_eq(pn_net_add_place(net, id, NULL, 1, NULL), PN_OK);
        snprintf(id, sizeof id, "t%zu", k);
        ck_assert_int_eq(pn_net_add_transition(net, id, NULL, NULL), PN_OK);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, k, k, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, k, k, 2, PN_ARC_INHIBITOR,
                          NULL);
    }
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = 2 * N; /* stored exactly */
    o.no_paths = 1;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_explore(net, &o, &r), PN_OK);
    ck_assert_int_eq(pn_reach_end(r), PN_REACH_MAX_STATES);
    /* the first state's N successors, then the second's N - 1 */
    ck_assert_uint_eq(pn_reach_states(r), 2 * N);
    /* counted, then asserted once (an assertion a place is slow) */
    uint64_t *m = malloc(N * sizeof *m), bad = 0;
    for (uint64_t s = 0; s < 2 * N; s++) {
        bad += pn_reach_marking(r, s, m) != PN_OK;
        size_t twos = 0;
        for (size_t k = 0; k < N; k++) {
            bad += m[k] != 1 && m[k] != 2;
            twos += m[k] == 2;
        }
        bad += twos != (s == 0 ? 0 : s <= N ? 1 : 2);
        bad += !pn_reach_contains(r, m);
    }
    ck_assert_uint_eq(bad, 0);
    free(m);
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
    tcase_add_test(tc, maximal_steps_against_brute_force);
    tcase_add_test(tc, invariants_against_brute_force);
    tcase_add_test(tc, invariants_pack_small);
    tcase_add_test(tc, gpu_schedules_bracket_runs);
    tcase_add_test(tc, limits_give_incomplete_results);
    tcase_add_test(tc, limits_within_one_marking);
    tcase_add_test(tc, maximal_search_cuts_early);
    tcase_add_test(tc, random_queries_against_brute_force);
    tcase_add_test(tc, unboundedness_is_exact);
    tcase_add_test(tc, xml_and_inline_agree);
    tcase_add_test(tc, empty_bound);
    tcase_add_test(tc, packed_markings_widen);
    tcase_add_test(tc, semiflow_bounds);
    tcase_add_test(tc, structurally_bounded_keeps_no_parents);
    suite_add_tcase(s, tc);
    /* seconds here; without the widening together, minutes */
    TCase *tw = tcase_create("widen");
    tcase_set_timeout(tw, 30);
    tcase_add_test(tw, many_places_widen_together);
    suite_add_tcase(s, tw);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
