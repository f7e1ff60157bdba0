/*
 * CTL (pn_reach_query() on CTL queries) against a textbook model checker
 * written here: the reachability graph by brute force from the firing
 * rule's text (every arc kind and capacities), and each operator's set by
 * plain iteration to its fixed point over maximal paths (a dead marking
 * ends its path: EX false and AX true there, EG f when f, AF f only when
 * f), on random nets and random formulas; the formulas go through the
 * inline parser and its canonical text.  The witnesses of EF g and the
 * counterexamples of AG g replay and end where g holds, resp. fails.
 */
#include <config.h>
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "analysis_private.h"
#include "engine_private.h"
#include "lib_private.h"
#include "testutil.h"

/* ---- the graph by brute force -------------------------------------------- */

/* The firing rule and the graph of tests/testutil.c, by the names used
 * here. */
typedef tu_graph_t graph_t;

static inline int bf_enabled(const pn_net_t *net, const uint64_t *m,
                             size_t t)
{
    return tu_bf_enabled(net, m, t);
}

static inline void bf_fire(const pn_net_t *net, const uint64_t *m, size_t t,
                           uint64_t *out)
{
    tu_bf_fire(net, m, t, out);
}

/* Every reachable marking (at most limit: 0 when there are more). */
static inline int build(graph_t *g, const pn_net_t *net, size_t limit)
{
    return tu_bf_graph(g, net, limit);
}

static inline void graph_free(graph_t *g)
{
    tu_graph_free(g);
}

/* ---- the textbook checker -------------------------------------------------- */

static int atom(const graph_t *g, const pn_qformula_t *f, size_t s)
{
    if (f->kind == PN_QF_DEADLOCK)
        return g->nsucc[s] == 0;
    return tu_bf_holds(g->net, f, g->m + s * g->np);
}

/* Some (all = 0) or every (all = 1) successor of s is in z; every one of
 * none is true, some one of none false. */
static int next_in(const graph_t *g, const unsigned char *z, size_t s,
                   int all)
{
    for (size_t k = 0; k < g->nsucc[s]; k++)
        if ((z[g->succ[s * g->nt + k]] != 0) != all)
            return !all;
    return all;
}

/* The set of f, one byte a state (the caller frees it). */
static unsigned char *check(const graph_t *g, const pn_qformula_t *f)
{
    unsigned char *v = calloc(g->n, 1), *a = NULL, *b = NULL;
    if (f->kind <= PN_QF_CMP) {
        for (size_t s = 0; s < g->n; s++)
            v[s] = (unsigned char)atom(g, f, s);
        return v;
    }
    a = check(g, f->kids[0]);
    if (f->kind == PN_QF_AND || f->kind == PN_QF_OR) {
        memcpy(v, a, g->n);
        for (size_t k = 1; k < f->nkids; k++) {
            free(b);
            b = check(g, f->kids[k]);
            for (size_t s = 0; s < g->n; s++)
                v[s] = f->kind == PN_QF_AND ? v[s] && b[s] : v[s] || b[s];
        }
        free(a);
        free(b);
        return v;
    }
    if (f->kind == PN_QF_EU || f->kind == PN_QF_AU)
        b = check(g, f->kids[1]);
    /* greatest fixed points start from every state, least from none */
    int greatest = f->kind == PN_QF_EG || f->kind == PN_QF_AG;
    memset(v, greatest, g->n);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t s = 0; s < g->n; s++) {
            int dead = g->nsucc[s] == 0, x;
            switch (f->kind) {
            case PN_QF_NOT: x = !a[s]; break;
            case PN_QF_EX: x = next_in(g, a, s, 0); break;
            case PN_QF_AX: x = next_in(g, a, s, 1); break;
            case PN_QF_EF: x = a[s] || next_in(g, v, s, 0); break;
            case PN_QF_AF: x = a[s] || (!dead && next_in(g, v, s, 1)); break;
            case PN_QF_EG: x = a[s] && (dead || next_in(g, v, s, 0)); break;
            case PN_QF_AG: x = a[s] && next_in(g, v, s, 1); break;
            case PN_QF_EU: x = b[s] || (a[s] && next_in(g, v, s, 0)); break;
            default:
                x = b[s] || (a[s] && !dead && next_in(g, v, s, 1));
            }
            if (x != v[s]) {
                v[s] = (unsigned char)x;
                changed = 1;
            }
        }
    }
    free(a);
    free(b);
    return v;
}

/* ---- random nets and formulas ---------------------------------------------- */

/* 2-4 places, every one with a capacity, 1-4 transitions */
static pn_net_t *random_net(pni_rng_t *rng)
{
    static const tu_shape_t sh = {
        .id = "ctl", .p_min = 2, .p_span = 3, .t_min = 1, .t_span = 4,
        .tokens = 3, .caps_in = 1, .cap_min = 2, .cap_span = 2, .a_min = 1,
        .a_mul = 3, .ends_last = 1, .normal = 7, .inh = 8, .read = 9};
    return tu_random_net(rng, &sh, 2);
}

/* A random formula's text, at most depth operators deep, onto buf. */
static void random_formula(pni_rng_t *rng, const pn_net_t *net, int depth,
                           char *buf, size_t size)
{
    size_t len = strlen(buf);
    char *at = buf + len;
    size_t room = size - len;
    uint64_t r = depth > 0 ? pni_rng_below(rng, 14) : 10 + pni_rng_below(rng, 4);
    static const char *const un[] = {"EX", "AX", "EF", "AF", "EG", "AG"};
    if (r < 6) {
        snprintf(at, room, "%s ", un[r]);
        random_formula(rng, net, depth - 1, buf, size);
    } else if (r < 8) {
        snprintf(at, room, "%s [ ", r == 6 ? "E" : "A");
        random_formula(rng, net, depth - 1, buf, size);
        strncat(buf, " U ", size - strlen(buf) - 1);
        random_formula(rng, net, depth - 1, buf, size);
        strncat(buf, " ]", size - strlen(buf) - 1);
    } else if (r < 10) {
        /* ! ( f ) or ( f && g ), ( f || g ) */
        snprintf(at, room, "%s(", r == 8 ? "!" : "");
        random_formula(rng, net, depth - 1, buf, size);
        if (r == 9) {
            static const char *const ops[] = {" && ", " || ", " -> "};
            strncat(buf, ops[pni_rng_below(rng, 3)], size - strlen(buf) - 1);
            random_formula(rng, net, depth - 1, buf, size);
        }
        strncat(buf, ")", size - strlen(buf) - 1);
    } else if (r == 10) {
        snprintf(at, room, "%s", pni_rng_below(rng, 3) ? "deadlock" : "true");
    } else if (r == 11) {
        snprintf(at, room, "fireable(t%llu)", (unsigned long long)
                 pni_rng_below(rng, pn_net_transition_count(net)));
    } else {
        static const char *const ops[] = {"<", "<=", "==", "!=", ">=", ">"};
        snprintf(at, room, "p%llu + p%llu %s %llu", (unsigned long long)
                 pni_rng_below(rng, pn_net_place_count(net)),
                 (unsigned long long)
                 pni_rng_below(rng, pn_net_place_count(net)),
                 ops[pni_rng_below(rng, 6)],
                 (unsigned long long)pni_rng_below(rng, 4));
    }
}

/* The query's answer by the textbook checker. */
static int textbook(const graph_t *g, const pn_query_t *q)
{
    pn_qformula_t wrap = {0};
    pn_qformula_t *kids[1] = {q->formula};
    const pn_qformula_t *f = q->formula;
    if (q->kind != PN_QUERY_CTL) {
        wrap.kind = q->kind == PN_QUERY_EF ? PN_QF_EF : PN_QF_AG;
        wrap.nkids = 1;
        wrap.kids = kids;
        f = &wrap;
    }
    unsigned char *v = check(g, f);
    int r = v[0];
    free(v);
    return r;
}

/* For a CTL query EF g (true) or AG g (false), the marking that decides
 * it: g holds (resp. fails) there, and the path the explorer gives
 * replays from the initial marking to it. */
static int check_witness(const graph_t *g, const pn_reach_t *r,
                         const pn_query_t *q, const pn_query_answer_t *a)
{
    const pn_qformula_t *f = q->formula;
    if (q->kind != PN_QUERY_CTL)
        return 0; /* the reachability queries' own (tests/test_reach.c) */
    int top = f->kind == PN_QF_EF || f->kind == PN_QF_AG;
    if (!top || a->value != (f->kind == PN_QF_EF)) {
        ck_assert(a->state == PN_REACH_NO_STATE);
        return 0;
    }
    ck_assert(a->state != PN_REACH_NO_STATE);
    uint64_t m[8], cur[8], next[8];
    ck_assert_int_eq(pn_reach_marking(r, a->state, m), PN_OK);
    size_t k = 0;
    while (k < g->n && memcmp(g->m + k * g->np, m, g->np * sizeof *m))
        k++;
    ck_assert(k < g->n);
    unsigned char *v = check(g, f->kids[0]);
    ck_assert_int_eq(v[k], f->kind == PN_QF_EF);
    free(v);
    pn_reach_path_t *path;
    ck_assert_int_eq(pn_reach_path(r, a->state, &path), PN_OK);
    memcpy(cur, g->m, g->np * sizeof *cur);
    for (size_t i = 0; i < path->nsteps; i++) {
        ck_assert_uint_eq(path->n_in_step[i], 1);
        ck_assert(bf_enabled(g->net, cur, path->steps[i][0]));
        bf_fire(g->net, cur, path->steps[i][0], next);
        memcpy(cur, next, g->np * sizeof *cur);
    }
    ck_assert(!memcmp(cur, m, g->np * sizeof *m));
    pn_reach_path_free(path);
    return 1;
}

START_TEST(random_ctl_against_textbook)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3030);
    int compared = 0, ctl = 0, dead_nets = 0, holds = 0, witnesses = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_net(&rng);
        graph_t g;
        if (!build(&g, net, 500)) {
            graph_free(&g);
            pn_net_free(net);
            continue;
        }
        int dead = 0;
        for (size_t s = 0; s < g.n; s++)
            dead |= g.nsucc[s] == 0;
        dead_nets += dead;
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 6; k++) {
            char text[4096] = "CTL ";
            random_formula(&rng, net, 1 + (int)pni_rng_below(&rng, 4), text,
                           sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        pn_query_answer_t ans[6];
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        ck_assert_uint_eq(pn_reach_states(r), g.n);
        for (size_t k = 0; k < qs->n; k++) {
            const pn_query_t *q = &qs->q[k];
            int want = textbook(&g, q);
            char *text = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&text, &len);
            pn_query_write(mem, q, net);
            fclose(mem);
            ck_assert_msg(ans[k].known && ans[k].value == want,
                          "net %d, '%s': %s, the textbook %d", i, text,
                          ans[k].known ? ans[k].value ? "true" : "false"
                                       : "unknown", want);
            /* the canonical text reads back as the same tree */
            pn_query_set_t *back = pn_query_set_new();
            pn_error_t err;
            ck_assert_msg(pn_query_parse(back, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
            ck_assert_int_eq(back->q[0].kind, q->kind);
            ck_assert_msg(pn_qformula_equal(back->q[0].formula, q->formula),
                          "'%s' reads back as another formula", text);
            pn_query_set_free(back);
            free(text);
            witnesses += check_witness(&g, r, q, &ans[k]);
            ctl += q->kind == PN_QUERY_CTL;
            holds += want;
            compared++;
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        graph_free(&g);
        pn_net_free(net);
    }
    /* most nets are small enough, many have dead markings, both answers
     * come up often */
    ck_assert_int_ge(compared, 1500);
    ck_assert_int_ge(ctl, 1000);
    ck_assert_int_ge(dead_nets, 50);
    ck_assert_int_ge(witnesses, 50);
    ck_assert_int_ge(holds, compared / 5);
    ck_assert_int_le(holds, compared * 4 / 5);
}
END_TEST

/* A search a state limit cuts short decides only what the markings it
 * found decide whatever the others lead to: every answer it gives is the
 * textbook's, and the rest are unknown, never guessed. */
START_TEST(partial_graph_never_guesses)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3131);
    int given = 0, unknown = 0, cut = 0;
    for (int i = 0; i < 600; i++) {
        pn_net_t *net = random_net(&rng);
        graph_t g;
        if (!build(&g, net, 500) || g.n < 3) {
            graph_free(&g);
            pn_net_free(net);
            continue;
        }
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 6; k++) {
            char text[4096] = "CTL ";
            random_formula(&rng, net, 1 + (int)pni_rng_below(&rng, 4), text,
                           sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        pn_query_answer_t ans[6];
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 1 + pni_rng_below(&rng, g.n - 1);
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        ck_assert_int_ne(pn_reach_end(r), PN_REACH_COMPLETE);
        cut++;
        for (size_t k = 0; k < qs->n; k++) {
            const pn_query_t *q = &qs->q[k];
            if (q->kind != PN_QUERY_CTL || !ans[k].known) {
                unknown += q->kind == PN_QUERY_CTL;
                continue;
            }
            int want = textbook(&g, q);
            char *text = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&text, &len);
            pn_query_write(mem, q, net);
            fclose(mem);
            ck_assert_msg(ans[k].value == want,
                          "net %d, %" PRIu64 " of %zu states, '%s': %s, "
                          "the textbook %d", i, o.max_states, g.n, text,
                          ans[k].value ? "true" : "false", want);
            free(text);
            check_witness(&g, r, q, &ans[k]);
            given++;
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        graph_free(&g);
        pn_net_free(net);
    }
    /* the cut graphs decide many formulas and leave many open */
    ck_assert_int_ge(cut, 100);
    ck_assert_int_ge(given, 300);
    ck_assert_int_ge(unknown, 100);
}
END_TEST

/* ---- CTL on the fly ------------------------------------------------------- */

/* The answers of pn_reach_solve() with no clock: every CTL query by the
 * local algorithm (no_local 0), or by the fixed points over the search's
 * graph (no_local 1). */
static void solve_ctl(const pn_net_t *net, const pn_query_set_t *qs,
                      pn_semantics_t sem, int no_local,
                      pn_query_answer_t *ans)
{
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.semantics = sem;
    pn_reach_solve_options_t so = {0};
    so.no_lp = so.no_walk = so.no_reduce = 1;
    so.no_local = no_local;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, ans, &r), PN_OK);
    pn_reach_free(r);
}

/* The local algorithm gives the global fixed points' answer on every
 * formula, under both semantics, and the textbook's under interleaving:
 * random nested formulas on random nets with dead markings, inhibitor,
 * read and reset arcs and capacities. */
START_TEST(local_against_global)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3232);
    int compared = 0, dead_nets = 0, holds = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_net(&rng);
        graph_t g;
        if (!build(&g, net, 500)) {
            graph_free(&g);
            pn_net_free(net);
            continue;
        }
        int dead = 0;
        for (size_t s = 0; s < g.n; s++)
            dead |= g.nsucc[s] == 0;
        dead_nets += dead;
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 6; k++) {
            char text[4096] = "CTL ";
            random_formula(&rng, net, 1 + (int)pni_rng_below(&rng, 5), text,
                           sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        for (int sem = 0; sem < 2; sem++) {
            pn_query_answer_t local[6], global[6];
            pn_semantics_t se = sem ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING;
            solve_ctl(net, qs, se, 0, local);
            solve_ctl(net, qs, se, 1, global);
            for (size_t k = 0; k < qs->n; k++) {
                const pn_query_t *q = &qs->q[k];
                if (q->kind != PN_QUERY_CTL)
                    continue;
                char *text = NULL;
                size_t len = 0;
                FILE *mem = open_memstream(&text, &len);
                pn_query_write(mem, q, net);
                fclose(mem);
                int want = sem ? global[k].value : textbook(&g, q);
                ck_assert_msg(local[k].known && global[k].known &&
                                  local[k].value == global[k].value &&
                                  local[k].value == want,
                              "net %d, %s, '%s': local %d, global %d, "
                              "textbook %d", i, sem ? "maximal" : "interleaving",
                              text, local[k].value, global[k].value, want);
                free(text);
                holds += want;
                compared++;
            }
        }
        pn_query_set_free(qs);
        graph_free(&g);
        pn_net_free(net);
    }
    ck_assert_int_ge(compared, 2000);
    ck_assert_int_ge(dead_nets, 50);
    ck_assert_int_ge(holds, compared / 5);
    ck_assert_int_le(holds, compared * 4 / 5);
}
END_TEST

/* On the fly, a formula is decided from the markings it needs: on a net
 * whose markings never end (six counters), formulas three steps deep
 * within a state limit that stops the breadth-first search at depth 2
 * (it then leaves them unknown); and the search that follows the local
 * algorithm stops at once (nothing is left to ask). */
START_TEST(local_stops_at_the_answer)
{
    pn_net_t *net = tu_counters_net(6);
    static const char *const texts[] = {"CTL EX EX EX p0 >= 3",
                                        "CTL E [ p1 == 0 U p0 >= 3 ]",
                                        "CTL !AX AX AX p0 < 3"};
    pn_query_set_t *qs = pn_query_set_new();
    for (size_t k = 0; k < 3; k++) {
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, texts[k], net, &err), PN_OK);
    }
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = 24;
    pn_reach_solve_options_t so = {0};
    so.no_lp = so.no_walk = so.no_reduce = 1;
    pn_query_answer_t ans[3];
    pn_reach_t *r;
    for (int no_local = 0; no_local < 2; no_local++) {
        so.no_local = no_local;
        ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, ans, &r), PN_OK);
        for (size_t k = 0; k < 3; k++) {
            ck_assert_msg(ans[k].known == !no_local, "'%s'", texts[k]);
            ck_assert(!ans[k].known || ans[k].value);
        }
        if (!no_local)
            ck_assert_uint_eq(pn_reach_states(r), 1);
        pn_reach_free(r);
    }
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* On the fly, a search closes a cycle (AF refuted, EG shown) before it
 * dives: a is marked, go moves it to b, and at b one transition (down)
 * starts a chain of 200 markings, c0 to c199, that ends where goal holds,
 * while another (back) returns to a, on the search's stack.  Whichever of
 * the two is listed first, EG goal == 0 and AF goal >= 1 are decided from
 * a, b and b's successors, never the chain (seen failing with the
 * successors taken as listed). */
static pn_net_t *dive_net(int back_first)
{
    enum { CHAIN = 200 };
    pn_net_t *net = pn_net_new("dive");
    char a[32], b[32], t[32];
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_place(net, "goal", NULL, 0, NULL);
    for (int i = 0; i < CHAIN; i++) {
        snprintf(a, sizeof a, "c%d", i);
        pn_net_add_place(net, a, NULL, 0, NULL);
    }
    for (int k = 0; k < 2; k++) {
        if (k == back_first) {
            pn_net_add_transition(net, "down", NULL, NULL);
            pn_net_add_arc(net, NULL, "b", "down", 1, PN_ARC_NORMAL, NULL);
            pn_net_add_arc(net, NULL, "down", "c0", 1, PN_ARC_NORMAL, NULL);
        } else {
            pn_net_add_transition(net, "back", NULL, NULL);
            pn_net_add_arc(net, NULL, "b", "back", 1, PN_ARC_NORMAL, NULL);
            pn_net_add_arc(net, NULL, "back", "a", 1, PN_ARC_NORMAL, NULL);
        }
    }
    pn_net_add_transition(net, "go", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "go", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "go", "b", 1, PN_ARC_NORMAL, NULL);
    for (int i = 0; i + 1 < CHAIN; i++) {
        snprintf(a, sizeof a, "c%d", i);
        snprintf(b, sizeof b, "c%d", i + 1);
        snprintf(t, sizeof t, "s%d", i);
        pn_net_add_transition(net, t, NULL, NULL);
        pn_net_add_arc(net, NULL, a, t, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc(net, NULL, t, b, 1, PN_ARC_NORMAL, NULL);
    }
    pn_net_add_transition(net, "end", NULL, NULL);
    snprintf(a, sizeof a, "c%d", CHAIN - 1);
    pn_net_add_arc(net, NULL, a, "end", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "end", "goal", 1, PN_ARC_NORMAL, NULL);
    return net;
}

START_TEST(local_closes_cycles_first)
{
    for (int back_first = 0; back_first < 2; back_first++) {
        pn_net_t *net = dive_net(back_first);
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, "CTL EG goal == 0", net, &err),
                         PN_OK);
        ck_assert_int_eq(pn_query_parse(qs, "CTL AF goal >= 1", net, &err),
                         PN_OK);
        pni_lctl_t *l;
        ck_assert_int_eq(pni_lctl_new(net, NULL, &l), PN_OK);
        for (size_t k = 0; k < 2; k++) {
            int known, value;
            ck_assert_int_eq(pni_lctl_holds(l, qs->q[k].formula, 0, &known,
                                            &value, NULL, NULL), PN_OK);
            ck_assert(known && value == (k == 0));
            /* a, b, c0 (b's successors are stored as it is expanded) */
            ck_assert_msg(pni_lctl_states(l) <= 3,
                          "back listed %s, %s: %" PRIu64 " markings",
                          back_first ? "first" : "second", k ? "AF" : "EG",
                          pni_lctl_states(l));
        }
        pni_lctl_free(l);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
}
END_TEST

/* ---- the paths of CTL answers ------------------------------------------- */

/* Whether one path shows f's answer v at its top operator. */
static int has_path(const pn_qformula_t *f, int v)
{
    switch (f->kind) {
    case PN_QF_EX: case PN_QF_EF: case PN_QF_EG: case PN_QF_EU:
        return v;
    case PN_QF_AX: case PN_QF_AF: case PN_QF_AG: case PN_QF_AU:
        return !v;
    default:
        return 0;
    }
}

/* The state of marking m in the brute-force graph. */
static size_t state_of(const graph_t *g, const uint64_t *m)
{
    size_t k = 0;
    while (k < g->n && memcmp(g->m + k * g->np, m, g->np * sizeof *m))
        k++;
    ck_assert(k < g->n);
    return k;
}

/* The path of pn_reach_ctl_path() replayed by the brute-force firing
 * rule from the initial marking: every step fires, and the operands hold
 * or fail at each marking (the textbook's sets) as the answer says; a
 * loop closes, a dead end is dead. */
static void ctl_path_replays(const graph_t *g, const pn_qformula_t *f,
                             int value, const pn_reach_path_t *p,
                             size_t loop, const char *text)
{
    size_t len = p->nsteps + 1;
    size_t *st = malloc((len + 1) * sizeof *st);
    uint64_t cur[8], next[8];
    memcpy(cur, g->m, g->np * sizeof *cur);
    st[0] = 0;
    for (size_t i = 0; i < p->nsteps; i++) {
        ck_assert_uint_eq(p->n_in_step[i], 1);
        ck_assert_msg(bf_enabled(g->net, cur, p->steps[i][0]),
                      "'%s': step %zu does not fire", text, i + 1);
        bf_fire(g->net, cur, p->steps[i][0], next);
        memcpy(cur, next, g->np * sizeof *cur);
        st[i + 1] = state_of(g, cur);
    }
    unsigned char *a = check(g, f->kids[0]);
    unsigned char *b = f->nkids > 1 ? check(g, f->kids[1]) : NULL;
    int looped = loop != PN_REACH_NO_LOOP;
    if (looped && loop == p->nsteps)
        ck_assert_msg(g->nsucc[st[loop]] == 0, "'%s': not dead", text);
    else if (looped)
        ck_assert_msg(loop < p->nsteps && st[loop] == st[p->nsteps],
                      "'%s': the loop does not close", text);
    switch (f->kind) {
    case PN_QF_EX:
    case PN_QF_AX:
        ck_assert(!looped && len == 2 && a[st[1]] == value);
        break;
    case PN_QF_EF:
    case PN_QF_AG:
        ck_assert(!looped && a[st[len - 1]] == value);
        break;
    case PN_QF_EU:
        ck_assert(!looped && b[st[len - 1]]);
        for (size_t i = 0; i + 1 < len; i++)
            ck_assert_msg(a[st[i]], "'%s': no left at %zu", text, i);
        break;
    case PN_QF_AU:
        ck_assert(looped || !a[st[len - 1]]);
        /* fall through: never the goal */
    default:
        for (size_t i = 0; i < len; i++)
            ck_assert_msg((f->kind == PN_QF_AU ? b : a)[st[i]] ==
                              (f->kind == PN_QF_EG),
                          "'%s': a marking says otherwise at %zu", text, i);
        ck_assert(looped || f->kind == PN_QF_AU);
    }
    free(a);
    free(b);
    free(st);
}

/* Eight CTL queries, one per top operator, of random operands (texts:
 * their texts, 4096 bytes each). */
static pn_query_set_t *top_queries(pni_rng_t *rng, const pn_net_t *net,
                                   char (*texts)[4096])
{
    pn_query_set_t *qs = pn_query_set_new();
    static const char *const top[] = {"EX ", "AX ", "EF ", "AF ",
                                      "EG ", "AG ", "E [ ", "A [ "};
    for (int k = 0; k < 8; k++) {
        char *text = texts[k];
        snprintf(text, 4096, "CTL %s", top[k]);
        random_formula(rng, net, (int)pni_rng_below(rng, 3), text, 4096);
        if (k >= 6) {
            strcat(text, " U ");
            random_formula(rng, net, (int)pni_rng_below(rng, 3), text, 4096);
            strcat(text, " ]");
        }
        pn_error_t err;
        ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK, "'%s': %s",
                      text, err.text);
    }
    return qs;
}

/* What the paths of a run came to: found, lassos, dead ends, answers
 * with none. */
typedef struct {
    int paths, loops, dead_ends, none;
} counts_t;

/* The paths of r's CTL answers (pn_reach_ctl_path()) against the
 * textbook: one where one path shows the answer, replaying and saying
 * what it claims; none elsewhere. */
static void paths_of(const graph_t *g, const pn_query_set_t *qs,
                     const pn_query_answer_t *ans, const pn_reach_t *r,
                     char (*texts)[4096], counts_t *n)
{
    for (size_t k = 0; k < qs->n; k++) {
        const pn_qformula_t *f = qs->q[k].formula;
        if (qs->q[k].kind != PN_QUERY_CTL)
            continue; /* EF or AG of a state formula: its own witness */
        ck_assert(ans[k].known);
        ck_assert_int_eq(ans[k].value, textbook(g, &qs->q[k]));
        pn_reach_path_t *p;
        size_t loop;
        pn_status_t st = pn_reach_ctl_path(r, f, &p, &loop);
        if (!has_path(f, ans[k].value)) {
            ck_assert_int_eq(st, PN_EINVAL);
            ck_assert(!p);
            n->none++;
            continue;
        }
        ck_assert_msg(st == PN_OK, "'%s': %s", texts[k], pn_status_name(st));
        ctl_path_replays(g, f, ans[k].value, p, loop, texts[k]);
        n->paths++;
        n->loops += loop != PN_REACH_NO_LOOP && loop < p->nsteps;
        n->dead_ends += loop != PN_REACH_NO_LOOP && loop == p->nsteps;
        pn_reach_path_free(p);
    }
}

/* Every CTL answer that one path shows gets one over the graph, that
 * path replays by the textbook firing rule and says what the answer
 * claims at each marking; every other answer gets none. */
START_TEST(ctl_paths_replay)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3232);
    counts_t n = {0};
    int maximal = 0;
    static char texts[8][4096];
    for (int i = 0; i < 200; i++) {
        pn_net_t *net = random_net(&rng);
        graph_t g;
        if (!build(&g, net, 500)) {
            graph_free(&g);
            pn_net_free(net);
            continue;
        }
        pn_query_set_t *qs = top_queries(&rng, net, texts);
        pn_query_answer_t ans[8];
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        paths_of(&g, qs, ans, r, texts, &n);
        pn_reach_free(r);
        /* maximal steps: a path where one shows the answer (replayed and
         * checked by the library itself), none elsewhere */
        o.semantics = PN_SEM_MAXIMAL;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        for (size_t k = 0; k < qs->n; k++) {
            pn_reach_path_t *p;
            size_t loop;
            if (qs->q[k].kind != PN_QUERY_CTL)
                continue;
            pn_status_t st = pn_reach_ctl_path(r, qs->q[k].formula, &p, &loop);
            ck_assert_msg(st == (has_path(qs->q[k].formula, ans[k].value)
                                     ? PN_OK : PN_EINVAL),
                          "'%s' (maximal): %s", texts[k], pn_status_name(st));
            pn_reach_path_free(p);
            maximal += st == PN_OK;
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        graph_free(&g);
        pn_net_free(net);
    }
    ck_assert_int_ge(n.paths, 400);
    ck_assert_int_ge(n.loops, 50);
    ck_assert_int_ge(n.dead_ends, 50);
    ck_assert_int_ge(n.none, 200);
    ck_assert_int_ge(maximal, 300);
}
END_TEST

/* The same of the answers the local algorithm decides on the fly: the
 * path its search decided on is kept with the result (no graph needed). */
START_TEST(ctl_paths_on_the_fly)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3333);
    counts_t n = {0};
    static char texts[8][4096];
    for (int i = 0; i < 200; i++) {
        pn_net_t *net = random_net(&rng);
        graph_t g;
        if (!build(&g, net, 500)) {
            graph_free(&g);
            pn_net_free(net);
            continue;
        }
        pn_query_set_t *qs = top_queries(&rng, net, texts);
        pn_query_answer_t ans[8];
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_reach_solve_options_t so = {0};
        /* the local algorithm decides: a formula simplified to a constant
         * would be answered before it, with no path */
        so.no_lp = so.no_walk = so.no_reduce = so.no_simplify = 1;
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, ans, &r), PN_OK);
        paths_of(&g, qs, ans, r, texts, &n);
        pn_reach_free(r);
        pn_query_set_free(qs);
        graph_free(&g);
        pn_net_free(net);
    }
    ck_assert_int_ge(n.paths, 400);
    ck_assert_int_ge(n.loops, 50);
    ck_assert_int_ge(n.dead_ends, 50);
    ck_assert_int_ge(n.none, 200);
}
END_TEST

/* ---- simplified formulas -------------------------------------------------- */

/* 2-4 places without capacities (the state equation holds where no reset
 * arc is), 1-4 transitions; kinds as tu_random_net()'s */
static pn_net_t *equation_net(pni_rng_t *rng, int kinds)
{
    static const tu_shape_t sh = {
        .id = "simp", .p_min = 2, .p_span = 3, .t_min = 1, .t_span = 4,
        .tokens = 3, .a_min = 1, .a_mul = 3, .ends_last = 1, .normal = 7,
        .inh = 8, .read = 9};
    return tu_random_net(rng, &sh, kinds);
}

typedef struct {
    unsigned tech[6];
} simp_told_t;

static void simp_on_answer(size_t i, const pn_query_answer_t *a,
                           unsigned tech, void *ctx)
{
    (void)a;
    ((simp_told_t *)ctx)->tech[i] = tech;
}

/* pn_reach_solve() with no clock, the formulas simplified first or not;
 * the search in *r (freed by the caller). */
static void solve_simp(const pn_net_t *net, const pn_query_set_t *qs,
                       pn_semantics_t sem, int no_simplify,
                       pn_query_answer_t *ans, simp_told_t *t,
                       pn_reach_t **r)
{
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.semantics = sem;
    pn_reach_solve_options_t so = {0};
    so.no_walk = so.no_reduce = 1;
    so.no_simplify = no_simplify;
    so.on_answer = simp_on_answer;
    so.ctx = t;
    ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, ans, r), PN_OK);
}

/* Random CTL formulas on random nets answered the same with the formulas
 * simplified first (by the state equation and exact rules) and without,
 * under both semantics, and as the textbook says under interleaving; a
 * marking given as the witness of EF g (AG g) is one where the formula
 * as given holds (fails). */
START_TEST(simplified_against_plain)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2929);
    int n = tu_count(120, 1200), compared = 0, simplified = 0, by_lp = 0;
    for (int i = 0; i < n; i++) {
        pn_net_t *net = equation_net(&rng, i % 3);
        graph_t g;
        if (!build(&g, net, 500)) {
            graph_free(&g);
            pn_net_free(net);
            continue;
        }
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 6; k++) {
            char text[4096] = "CTL ";
            random_formula(&rng, net, 1 + (int)pni_rng_below(&rng, 4), text,
                           sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        for (int sem = 0; sem < 2; sem++) {
            pn_query_answer_t with[6], plain[6];
            simp_told_t tw = {{0}}, tp = {{0}};
            pn_semantics_t se = sem ? PN_SEM_MAXIMAL : PN_SEM_INTERLEAVING;
            pn_reach_t *r;
            solve_simp(net, qs, se, 1, plain, &tp, &r);
            pn_reach_free(r);
            solve_simp(net, qs, se, 0, with, &tw, &r);
            for (size_t k = 0; k < qs->n; k++) {
                const pn_query_t *q = &qs->q[k];
                char *text = NULL;
                size_t len = 0;
                FILE *mem = open_memstream(&text, &len);
                pn_query_write(mem, q, net);
                fclose(mem);
                ck_assert_msg(with[k].known && plain[k].known,
                              "net %d: '%s' unknown", i, text);
                ck_assert_msg(with[k].value == plain[k].value,
                              "net %d, %s: '%s': %d simplified, %d as "
                              "given", i, sem ? "maximal" : "interleaving",
                              text, with[k].value, plain[k].value);
                ck_assert(!(tp.tech[k] & PN_TECH_QUERY_REDUCTION));
                if (!sem)
                    ck_assert_msg(with[k].value == textbook(&g, q),
                                  "net %d: '%s'", i, text);
                free(text);
                compared++;
                simplified += !!(tw.tech[k] & PN_TECH_QUERY_REDUCTION);
                by_lp += (tw.tech[k] & (PN_TECH_QUERY_REDUCTION |
                                        PN_TECH_STATE_EQUATION)) ==
                         (PN_TECH_QUERY_REDUCTION | PN_TECH_STATE_EQUATION);
                const pn_qformula_t *f = q->formula;
                int top = q->kind == PN_QUERY_CTL &&
                          (f->kind == PN_QF_EF || f->kind == PN_QF_AG);
                if (sem || !top || with[k].state == PN_REACH_NO_STATE)
                    continue;
                /* the witness: the formula under EF holds there (under
                 * AG fails) */
                uint64_t m[8];
                ck_assert_int_eq(pn_reach_marking(r, with[k].state, m),
                                 PN_OK);
                size_t s = 0;
                while (s < g.n && memcmp(g.m + s * g.np, m, g.np * sizeof *m))
                    s++;
                ck_assert(s < g.n);
                unsigned char *v = check(&g, f->kids[0]);
                ck_assert_int_eq(v[s], f->kind == PN_QF_EF);
                free(v);
            }
            pn_reach_free(r);
        }
        graph_free(&g);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    /* the test means something only if many formulas changed, some by
     * the state equation */
    ck_assert_int_ge(compared, 200);
    ck_assert_int_ge(simplified, compared / 5);
    ck_assert_int_ge(by_lp, 10);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ctl");
    TCase *tc = tcase_create("textbook");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_ctl_against_textbook);
    tcase_add_test(tc, partial_graph_never_guesses);
    tcase_add_test(tc, local_against_global);
    tcase_add_test(tc, local_stops_at_the_answer);
    tcase_add_test(tc, local_closes_cycles_first);
    tcase_add_test(tc, ctl_paths_replay);
    tcase_add_test(tc, ctl_paths_on_the_fly);
    tcase_add_test(tc, simplified_against_plain);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
