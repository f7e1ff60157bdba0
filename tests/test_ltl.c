/*
 * LTL: the tableau (analysis/buchi.c) alone, its automaton's language
 * against the formula's meaning on random ultimately periodic words
 * u v^omega; and the checker (pn_reach_query() on LTL queries,
 * analysis/ltl.c) on random nets (dead markings, inhibitor, read and
 * reset arcs, capacities) against lassos of the graph enumerated by brute
 * force, each one's meaning computed position by position.  The
 * counterexample the checker gives is a path of the graph that violates
 * the formula.  The inline form reads back from its canonical text, and
 * malformed formulas are refused at their column.
 */
#include <config.h>
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "analysis_private.h"
#include "lib_private.h"
#include "testutil.h"

/* ---- the meaning of a formula on a lasso ------------------------------ */

/* A lasso word: positions 0 .. len - 1, the last followed by loop; the
 * state formulas' values at each position by at(). */
typedef struct {
    size_t len, loop;
    int (*at)(const pn_qformula_t *f, size_t pos, void *ctx);
    void *ctx;
} word_t;

static size_t after(const word_t *w, size_t i)
{
    return i + 1 < w->len ? i + 1 : w->loop;
}

/* f's value at every position, into v (len bytes). */
static void meaning(const word_t *w, const pn_qformula_t *f, unsigned char *v)
{
    size_t n = w->len;
    if (!pni_qformula_temporal(f)) {
        for (size_t i = 0; i < n; i++)
            v[i] = (unsigned char)w->at(f, i, w->ctx);
        return;
    }
    unsigned char *a = malloc(n), *b = malloc(n);
    meaning(w, f->kids[0], a);
    switch (f->kind) {
    case PN_QF_NOT:
        for (size_t i = 0; i < n; i++)
            v[i] = !a[i];
        break;
    case PN_QF_AND:
    case PN_QF_OR:
        memcpy(v, a, n);
        for (size_t k = 1; k < f->nkids; k++) {
            meaning(w, f->kids[k], b);
            for (size_t i = 0; i < n; i++)
                v[i] = f->kind == PN_QF_AND ? v[i] && b[i] : v[i] || b[i];
        }
        break;
    case PN_QF_X:
        for (size_t i = 0; i < n; i++)
            v[i] = a[after(w, i)];
        break;
    default: {
        /* U and F least, R and G greatest fixed points, by sweeps */
        if (f->kind == PN_QF_U || f->kind == PN_QF_R)
            meaning(w, f->kids[1], b);
        else
            memcpy(b, a, n);
        memcpy(v, b, n); /* below the least, above the greatest */
        for (size_t sweep = 0; sweep <= n; sweep++)
            for (size_t i = n; i-- > 0;) {
                unsigned char nx = v[after(w, i)];
                if (f->kind == PN_QF_U)
                    v[i] = b[i] || (a[i] && nx);
                else if (f->kind == PN_QF_F)
                    v[i] = b[i] || nx;
                else if (f->kind == PN_QF_R)
                    v[i] = b[i] && (a[i] || nx);
                else
                    v[i] = b[i] && nx;
            }
    }
    }
    free(a);
    free(b);
}

static int holds_on(const word_t *w, const pn_qformula_t *f)
{
    unsigned char *v = malloc(w->len);
    meaning(w, f, v);
    int r = v[0];
    free(v);
    return r;
}

/* Whether automaton b accepts the word: some component of the product of
 * the lasso's positions with its states, reachable from (0, 0), has
 * transitions inside it with every mark. */
static int accepts(const pni_buchi_t *b, const word_t *w)
{
    size_t n = w->len * b->nstates;
    unsigned char *val = malloc(w->len * (b->natoms + 1));
    for (size_t i = 0; i < w->len; i++)
        for (size_t k = 0; k < b->natoms; k++)
            val[i * b->natoms + k] = (unsigned char)w->at(b->atoms[k], i,
                                                          w->ctx);
    unsigned char *reach = calloc(n * n, 1);
    size_t *q = malloc((n + 1) * sizeof *q);
    /* reach[u * n + v]: v reachable from u in one step or more */
    for (size_t u = 0; u < n; u++) {
        size_t qt = 0;
        q[qt++] = u;
        for (size_t qh = 0; qh < qt; qh++) {
            size_t i = q[qh] / b->nstates, s = q[qh] % b->nstates;
            for (uint32_t t = b->t_off[s]; t < b->t_off[s + 1]; t++) {
                if (!pni_buchi_label(b, &b->t[t], val + i * b->natoms))
                    continue;
                size_t v = after(w, i) * b->nstates + b->t[t].dst;
                if (!reach[u * n + v]) {
                    reach[u * n + v] = 1;
                    q[qt++] = v;
                }
            }
        }
    }
    int ok = 0;
    for (size_t u = 0; u < n && !ok; u++) {
        if (u && !reach[u]) /* reach[0 * n + u] */
            continue;
        uint64_t marks = 0;
        int inside = 0;
        for (size_t x = 0; x < n; x++) {
            if (!(x == u || (reach[u * n + x] && reach[x * n + u])))
                continue;
            size_t i = x / b->nstates, s = x % b->nstates;
            for (uint32_t t = b->t_off[s]; t < b->t_off[s + 1]; t++) {
                size_t y = after(w, i) * b->nstates + b->t[t].dst;
                if (pni_buchi_label(b, &b->t[t], val + i * b->natoms) &&
                    reach[u * n + y] && reach[y * n + u] && reach[x * n + y]) {
                    marks |= b->t[t].acc;
                    inside = 1;
                }
            }
        }
        ok = inside && (marks & b->all) == b->all;
    }
    free(val);
    free(reach);
    free(q);
    return ok;
}

/* ---- random formulas --------------------------------------------------- */

/* A random LTL path formula's text, at most depth operators deep, onto
 * buf; atoms over np places (and the net's transitions when nt). */
static void random_ltl(pni_rng_t *rng, size_t np, size_t nt, int depth,
                       char *buf, size_t size)
{
    size_t len = strlen(buf);
    char *at = buf + len;
    size_t room = size - len;
    uint64_t r = depth > 0 ? pni_rng_below(rng, 12) : 9 + pni_rng_below(rng, 3);
    static const char *const un[] = {"X", "F", "G"};
    if (r < 3) {
        snprintf(at, room, "%s ", un[r]);
        random_ltl(rng, np, nt, depth - 1, buf, size);
    } else if (r < 5) {
        snprintf(at, room, "[ ");
        random_ltl(rng, np, nt, depth - 1, buf, size);
        strncat(buf, r == 3 ? " U " : " R ", size - strlen(buf) - 1);
        random_ltl(rng, np, nt, depth - 1, buf, size);
        strncat(buf, " ]", size - strlen(buf) - 1);
    } else if (r < 9) {
        snprintf(at, room, "%s(", r == 5 ? "!" : "");
        random_ltl(rng, np, nt, depth - 1, buf, size);
        if (r > 5) {
            static const char *const ops[] = {" && ", " || ", " -> "};
            strncat(buf, ops[r - 6], size - strlen(buf) - 1);
            random_ltl(rng, np, nt, depth - 1, buf, size);
        }
        strncat(buf, ")", size - strlen(buf) - 1);
    } else if (r == 9 && nt) {
        if (pni_rng_below(rng, 3))
            snprintf(at, room, "fireable(t%llu)",
                     (unsigned long long)pni_rng_below(rng, nt));
        else
            snprintf(at, room, "deadlock");
    } else if (r == 9) {
        snprintf(at, room, "%s", pni_rng_below(rng, 2) ? "true" : "false");
    } else {
        static const char *const ops[] = {"<", ">=", "==", "!="};
        snprintf(at, room, "p%llu %s %llu",
                 (unsigned long long)pni_rng_below(rng, np),
                 ops[pni_rng_below(rng, 4)],
                 (unsigned long long)pni_rng_below(rng, 2));
    }
}

static char *text_of(const pn_query_t *q, const pn_net_t *net)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    pn_query_write(mem, q, net);
    fclose(mem);
    return text;
}

/* ---- the tableau alone ------------------------------------------------- */

/* a word of valuations: bit p of bits[pos], place p's count (0 or 1) */
static int word_at(const pn_qformula_t *f, size_t pos, void *ctx)
{
    const unsigned *bits = ctx;
    switch (f->kind) {
    case PN_QF_TRUE: return 1;
    case PN_QF_FALSE: return 0;
    case PN_QF_NOT: return !word_at(f->kids[0], pos, ctx);
    case PN_QF_AND:
    case PN_QF_OR:
        for (size_t i = 0; i < f->nkids; i++)
            if (word_at(f->kids[i], pos, ctx) != (f->kind == PN_QF_AND))
                return f->kind == PN_QF_OR;
        return f->kind == PN_QF_AND;
    default: {
        uint64_t l = f->lhs.constant, r = f->rhs.constant;
        for (size_t i = 0; i < f->lhs.nplaces; i++)
            l += (bits[pos] >> f->lhs.places[i]) & 1;
        for (size_t i = 0; i < f->rhs.nplaces; i++)
            r += (bits[pos] >> f->rhs.places[i]) & 1;
        static const int lt[] = {1, 1, 0, 1, 0, 0}, eq[] = {0, 1, 1, 0, 1, 0},
                         gt[] = {0, 0, 0, 1, 1, 1};
        return l < r ? lt[f->op] : l == r ? eq[f->op] : gt[f->op];
    }
    }
}

/* Three places, p0 .. p2, the atoms of the random words. */
static pn_net_t *words_net(void)
{
    pn_net_t *net = pn_net_new("words");
    pn_net_add_place(net, "p0", NULL, 0, NULL);
    pn_net_add_place(net, "p1", NULL, 0, NULL);
    pn_net_add_place(net, "p2", NULL, 0, NULL);
    return net;
}

/* A random lasso word of 1 .. max positions over bits (max at most 8). */
static word_t random_word(pni_rng_t *rng, unsigned *bits, size_t max)
{
    word_t w = {1 + (size_t)pni_rng_below(rng, max), 0, word_at, bits};
    w.loop = (size_t)pni_rng_below(rng, w.len);
    for (size_t p = 0; p < w.len; p++)
        bits[p] = (unsigned)pni_rng_below(rng, 8);
    return w;
}

START_TEST(tableau_against_meaning)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3131);
    pn_net_t *net = words_net();
    int words = 0, accepted = 0, automata = 0;
    for (int i = 0; i < 3000; i++) {
        char text[4096] = "LTL ";
        random_ltl(&rng, 3, 0, 1 + (int)pni_rng_below(&rng, 5), text,
                   sizeof text);
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK, "'%s': %s",
                      text, err.text);
        ck_assert_int_eq(qs->q[0].kind, PN_QUERY_LTL);
        const pn_qformula_t *f = qs->q[0].formula;
        pni_buchi_t *b[2];
        ck_assert_int_eq(pni_buchi_new(f, 0, &b[0]), PN_OK);
        ck_assert_int_eq(pni_buchi_new(f, 1, &b[1]), PN_OK);
        automata++;
        for (int k = 0; k < 20; k++) {
            unsigned bits[8];
            word_t w = random_word(&rng, bits, 6);
            int want = holds_on(&w, f);
            ck_assert_msg(accepts(b[0], &w) == want,
                          "'%s' on a word: the automaton %d, the meaning %d",
                          text, !want, want);
            ck_assert_msg(accepts(b[1], &w) == !want,
                          "'%s' negated: the automaton %d, the meaning %d",
                          text, want, !want);
            accepted += want;
            words++;
        }
        pni_buchi_free(b[0]);
        pni_buchi_free(b[1]);
        pn_query_set_free(qs);
    }
    ck_assert_int_ge(automata, 3000);
    ck_assert_int_ge(accepted, words / 10);
    ck_assert_int_le(accepted, words * 9 / 10);
    pn_net_free(net);
}
END_TEST

/* The contest's formulas nest F, G and X where they change nothing: the
 * automaton of the negation is that of the formula they mean (F p2 > 0,
 * F G p0 > 0, F G !(p1 > 0), ...), as small, with as few marks, and
 * still of the formula's language (on random words). */
START_TEST(tableau_simplifies)
{
    static const struct {
        const char *text;
        size_t states, marks; /* at most, for the negation */
    } cases[] = {
        /* F X f U (g U h): F h */
        {"LTL G ![ F X p0 > 0 U [ p1 > 0 U p2 > 0 ] ]", 2, 1},
        /* F G p0 implies F p0: F G p0 */
        {"LTL F X !(F (F G p0 > 0) && (X p1 > 0 || (F p0 > 0)))", 2, 1},
        /* G F X f, F G g: both suffix-invariant */
        {"LTL !(G F X p0 > 0) && (F G p1 > 0)", 1, 1},
        {"LTL X G F !(X F X X p0 > 0 || (G F p1 > 0 || p0 > 0))", 2, 1},
        {"LTL G X F p0 > 0", 2, 1},
        /* f or G f: f; F f or F g: F (f or g) */
        {"LTL !(p0 > 0 || G p0 > 0) || !((F p1 > 0) || (F p2 > 0))", 3, 1},
        /* F (f or F g): F (f or g) */
        {"LTL G !(p1 > 0 || F p2 > 0)", 2, 1},
        /* X f U X g: X (f U g) */
        {"LTL !([ X p0 > 0 U X p1 > 0 ])", 3, 1},
        /* G F f or G F g: G F (f or g) */
        {"LTL !(G F p0 > 0 || G F p1 > 0)", 2, 1},
    };
    pni_rng_t rng;
    pni_rng_seed(&rng, 4242);
    pn_net_t *net = words_net();
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_msg(pn_query_parse(qs, cases[c].text, net, &err) == PN_OK,
                      "'%s': %s", cases[c].text, err.text);
        const pn_qformula_t *f = qs->q[0].formula;
        pni_buchi_t *b;
        ck_assert_int_eq(pni_buchi_new(f, 1, &b), PN_OK);
        size_t marks = 0;
        for (uint64_t m = b->all; m; m &= m - 1)
            marks++;
        ck_assert_msg(b->nstates <= cases[c].states && marks <= cases[c].marks,
                      "'%s' negated: %zu states, %zu marks", cases[c].text,
                      b->nstates, marks);
        for (int k = 0; k < 200; k++) {
            unsigned bits[8];
            word_t w = random_word(&rng, bits, 8);
            ck_assert_msg(accepts(b, &w) == !holds_on(&w, f),
                          "'%s' negated on a word", cases[c].text);
        }
        pni_buchi_free(b);
        pn_query_set_free(qs);
    }
    pn_net_free(net);
}
END_TEST

/* ---- the checker against lassos of the graph -------------------------- */

/* 2-3 places, every one with a capacity, 1-3 transitions */
static pn_net_t *random_net(pni_rng_t *rng)
{
    static const tu_shape_t sh = {
        .id = "ltl", .p_min = 2, .p_span = 2, .t_min = 1, .t_span = 3,
        .tokens = 2, .caps_in = 1, .cap_min = 1, .cap_span = 2, .a_min = 1,
        .a_mul = 3, .ends_last = 1, .normal = 7, .inh = 8, .read = 9};
    return tu_random_net(rng, &sh, 2);
}

typedef struct {
    pn_reach_t *r;
    const uint32_t *states;   /* the lasso's graph states */
    uint64_t m[8];
} graph_word_t;

static int graph_at(const pn_qformula_t *f, size_t pos, void *ctx)
{
    graph_word_t *g = ctx;
    pn_reach_marking(g->r, g->states[pos], g->m);
    return pni_query_holds(g->r, f, g->m);
}

static int edge(const pn_reach_t *r, uint32_t s, uint32_t d)
{
    const pni_graph_t *g = &r->graph;
    if (g->succ_off[s] == g->succ_off[s + 1])
        return s == d; /* a dead marking repeats */
    for (uint64_t e = g->succ_off[s]; e < g->succ_off[s + 1]; e++)
        if (g->succ[e] == d)
            return 1;
    return 0;
}

/* Every lasso of the graph of at most max positions (paths from the
 * initial state, the last followed by one before it): whether one
 * violates f. */
static int violated(pn_reach_t *r, const pn_qformula_t *f, uint32_t *path,
                    size_t len, size_t max)
{
    graph_word_t gw = {r, path, {0}};
    for (size_t j = 0; j < len; j++) {
        if (!edge(r, path[len - 1], path[j]))
            continue;
        word_t w = {len, j, graph_at, &gw};
        if (!holds_on(&w, f))
            return 1;
    }
    if (len == max)
        return 0;
    const pni_graph_t *g = &r->graph;
    uint32_t s = path[len - 1];
    for (uint64_t e = g->succ_off[s]; e < g->succ_off[s + 1]; e++) {
        path[len] = g->succ[e];
        if (violated(r, f, path, len + 1, max))
            return 1;
    }
    return 0;
}

START_TEST(random_ltl_against_lassos)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3232);
    int compared = 0, dead_nets = 0, holds = 0, lassos = 0;
    for (int i = 0; i < 250; i++) {
        pn_net_t *net = random_net(&rng);
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 4; k++) {
            char text[4096] = "LTL ";
            random_ltl(&rng, pn_net_place_count(net),
                       pn_net_transition_count(net),
                       1 + (int)pni_rng_below(&rng, 3), text, sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        pn_query_answer_t ans[4];
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        /* paths, not markings: stubborn sets asked for change nothing */
        pn_query_answer_t again[4];
        pn_reach_options_t os = o;
        os.stubborn = 1;
        pn_reach_t *rs;
        ck_assert_int_eq(pn_reach_query(net, &os, qs, again, &rs), PN_OK);
        ck_assert_uint_eq(pn_reach_stubborn(rs), 0);
        for (size_t k = 0; k < qs->n; k++)
            ck_assert(again[k].known == ans[k].known &&
                      again[k].value == ans[k].value);
        pn_reach_free(rs);
        size_t n = pn_reach_states(r);
        int dead = 0;
        for (size_t s = 0; s < n; s++)
            dead |= r->graph.succ_off[s] == r->graph.succ_off[s + 1];
        dead_nets += dead;
        for (size_t k = 0; n <= 12 && k < qs->n; k++) {
            const pn_qformula_t *f = qs->q[k].formula;
            char *text = text_of(&qs->q[k], net);
            uint32_t path[8] = {0};
            int bad = violated(r, f, path, 1, 7);
            ck_assert(ans[k].known);
            ck_assert_msg(!(bad && ans[k].value),
                          "net %d, '%s': true, but a lasso violates it", i,
                          text);
            /* false: the counterexample is a lasso of the graph that
             * violates it */
            int value;
            uint32_t *lasso;
            size_t len, loop;
            ck_assert_int_eq(pni_ltl_holds(r, f, 0, &value, &lasso, &len, &loop),
                             PN_OK);
            ck_assert_int_eq(value, ans[k].value);
            if (!value) {
                ck_assert(len > 0 && loop < len && lasso[0] == 0);
                for (size_t j = 0; j + 1 < len; j++)
                    ck_assert(edge(r, lasso[j], lasso[j + 1]));
                graph_word_t gw = {r, lasso, {0}};
                word_t w = {len - 1, loop, graph_at, &gw};
                if (loop == len - 1) { /* a dead marking, or a self loop */
                    ck_assert(edge(r, lasso[len - 1], lasso[len - 1]));
                    w.len = len;
                } else {
                    ck_assert(lasso[len - 1] == lasso[loop]);
                }
                ck_assert_msg(!holds_on(&w, f), "net %d, '%s': the lasso "
                              "satisfies it", i, text);
                free(lasso);
                lassos++;
            }
            /* the canonical text reads back as the same tree */
            pn_query_set_t *back = pn_query_set_new();
            pn_error_t err;
            ck_assert_msg(pn_query_parse(back, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
            ck_assert_int_eq(back->q[0].kind, PN_QUERY_LTL);
            ck_assert_msg(pn_qformula_equal(back->q[0].formula, f),
                          "'%s' reads back as another formula", text);
            pn_query_set_free(back);
            free(text);
            holds += value;
            compared++;
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_int_ge(compared, 600);
    ck_assert_int_ge(dead_nets, 50);
    ck_assert_int_ge(lassos, compared / 5);
    ck_assert_int_ge(holds, compared / 5);
}
END_TEST

/* ---- the inline form ---------------------------------------------------- */

START_TEST(inline_form)
{
    pn_net_t *net = pn_net_new("inline");
    pn_net_add_place(net, "req", NULL, 0, NULL);
    pn_net_add_place(net, "served", NULL, 0, NULL);
    pn_net_add_place(net, "X", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    static const struct { const char *in, *out; } good[] = {
        {"A G (req > 0 -> F served > 0)",
         "LTL G !(req > 0) || (F served > 0)"},
        {"LTL G (req > 0 -> F served > 0)",
         "LTL G !(req > 0) || (F served > 0)"},
        {"LTL [ req == 0 U X X >= 1 ]", "LTL [ req == 0 U X \"X\" >= 1 ]"},
        {"LTL X > 0", "LTL \"X\" > 0"},
        {"A !(F G fireable(t))", "LTL !(F G fireable(t))"},
        {"LTL [ G true R X deadlock ]", "LTL [ G true R X deadlock ]"},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_msg(pn_query_parse(qs, good[i].in, net, &err) == PN_OK,
                      "'%s': %s", good[i].in, err.text);
        ck_assert_int_eq(qs->q[0].kind, PN_QUERY_LTL);
        char *text = text_of(&qs->q[0], net);
        ck_assert_str_eq(text, good[i].out);
        pn_query_set_t *back = pn_query_set_new();
        ck_assert_int_eq(pn_query_parse(back, text, net, &err), PN_OK);
        ck_assert(pn_qformula_equal(back->q[0].formula, qs->q[0].formula));
        free(text);
        pn_query_set_free(back);
        pn_query_set_free(qs);
    }
    /* A [ f U g ] stays CTL */
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "A [ req > 0 U served > 0 ]", net,
                                    &err), PN_OK);
    ck_assert_int_eq(qs->q[0].kind, PN_QUERY_CTL);
    pn_query_set_free(qs);
    static const struct { const char *in; unsigned long col; } bad[] = {
        {"LTL G (req > 0", 15},
        {"LTL AG req > 0", 5},
        {"LTL [ req > 0 W served > 0 ]", 15},
        {"LTL [ req > 0 U served > 0", 27},
        {"A G E [ req > 0 U served > 0 ]", 5},
        {"LTL G", 6},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        qs = pn_query_set_new();
        ck_assert_msg(pn_query_parse(qs, bad[i].in, net, &err) == PN_EQUERY,
                      "'%s' is read", bad[i].in);
        ck_assert_msg(err.column == bad[i].col, "'%s': column %lu: %s",
                      bad[i].in, err.column, err.text);
        pn_query_set_free(qs);
    }
    pn_net_free(net);
}
END_TEST

/* ---- on the fly against the complete graph ----------------------------- */

/* A lasso's markings: m[pos * np ..], one per position. */
typedef struct {
    const pn_engine_t *e;
    uint32_t nt;
    size_t np;
    const uint64_t *m;
} fly_word_t;

static int fly_at(const pn_qformula_t *f, size_t pos, void *ctx)
{
    fly_word_t *w = ctx;
    return pni_formula_holds(w->e, w->nt, f, w->m + pos * w->np);
}

/* The lasso path (the loop from the marking after step loop) replayed
 * from the initial marking: it fires, comes back to where it loops (or
 * ends at a dead marking when loop is its length), and violates f. */
static void lasso_replays(const pn_net_t *net, pn_semantics_t sem,
                          const pn_qformula_t *f, const pn_reach_path_t *p,
                          size_t loop, const char *text)
{
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    size_t np = pn_net_place_count(net);
    uint32_t nt = (uint32_t)pn_net_transition_count(net);
    pn_sim_t *sim = pn_sim_new(e, 1, sem, 0);
    uint64_t *m = malloc((p->nsteps + 1) * (np + 1) * sizeof *m);
    ck_assert(sim && m && loop <= p->nsteps);
    memcpy(m, pn_sim_marking(sim), np * sizeof *m);
    for (size_t i = 0; i < p->nsteps; i++) {
        size_t bad;
        ck_assert_msg(pn_sim_fire(sim, p->steps[i], p->n_in_step[i], &bad) ==
                          PN_OK, "'%s': step %zu does not fire", text, i + 1);
        memcpy(m + (i + 1) * np, pn_sim_marking(sim), np * sizeof *m);
    }
    fly_word_t fw = {e, nt, np, m};
    word_t w = {p->nsteps, loop, fly_at, &fw};
    if (loop == p->nsteps) { /* a dead marking that repeats */
        for (uint32_t t = 0; t < nt; t++)
            ck_assert(!pni_engine_enabled(e, m + loop * np, t));
        w.len = p->nsteps + 1;
    } else {
        ck_assert_msg(!memcmp(m + loop * np, m + p->nsteps * np,
                              np * sizeof *m),
                      "'%s': the lasso does not come back", text);
    }
    ck_assert_msg(!holds_on(&w, f), "'%s': the lasso satisfies it", text);
    free(m);
    pn_sim_free(sim);
    pn_engine_free(e);
}

START_TEST(fly_against_graph)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 3333);
    int compared = 0, dead_nets = 0, holds = 0, lassos = 0, maximal = 0;
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_net(&rng);
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 4; k++) {
            char text[4096] = "LTL ";
            random_ltl(&rng, pn_net_place_count(net),
                       pn_net_transition_count(net),
                       1 + (int)pni_rng_below(&rng, 3), text, sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        if (i % 3 == 2) {
            o.semantics = PN_SEM_MAXIMAL;
            maximal++;
        }
        pn_query_answer_t ans[4];
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        dead_nets += pn_reach_dead(r) > 0;
        /* the markings on the fly kept from one formula to the next */
        pni_fly_t *g;
        ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
        for (size_t k = 0; k < qs->n; k++) {
            char *text = text_of(&qs->q[k], net);
            int value = -1;
            pn_reach_path_t *p;
            size_t loop;
            ck_assert(ans[k].known);
            ck_assert_int_eq(pni_ltl_fly(g, qs->q[k].formula, 0, &value, &p,
                                         &loop), PN_OK);
            ck_assert_msg(value == ans[k].value, "net %d, '%s': on the fly "
                          "%d, over the graph %d", i, text, value,
                          ans[k].value);
            if (!value) {
                lasso_replays(net, o.semantics, qs->q[k].formula, p, loop,
                              text);
                pn_reach_path_free(p);
                lassos++;
            } else {
                ck_assert(p == NULL);
            }
            holds += value;
            compared++;
            free(text);
        }
        pni_fly_free(g);
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_int_ge(compared, 1200);
    ck_assert_int_ge(maximal, 100);
    ck_assert_int_ge(dead_nets, 50);
    ck_assert_int_ge(lassos, compared / 5);
    ck_assert_int_ge(holds, compared / 5);
}
END_TEST

/* pn_reach_solve() on a budget: LTL on the fly, the lasso kept with its
 * result (pn_reach_lasso() without a graph); a product the clock stops
 * leaves the formula unknown, in time. */
START_TEST(fly_on_a_budget)
{
    /* a ring of n places, one token going round; p0 is marked again and
     * again, and never with p1 */
    size_t n = 40;
    pn_net_t *net = tu_ring_net(n);
    char id[32];
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "LTL G F p0 > 0", net, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(qs, "LTL F G p0 > 0", net, &err), PN_OK);
    ck_assert_int_eq(pn_query_parse(qs, "LTL G !(p0 > 0 && p1 > 0)", net,
                                    &err), PN_OK);
    pn_reach_solve_options_t so = {0};
    so.time_limit = 30;
    pn_query_answer_t ans[3];
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_solve(net, NULL, &so, qs, ans, &r), PN_OK);
    ck_assert(ans[0].known && ans[0].value);
    ck_assert(ans[1].known && !ans[1].value);
    ck_assert(ans[2].known && ans[2].value);
    /* no graph was kept: the lasso is the one found on the fly */
    ck_assert(!r->graph.keep_graph);
    pn_reach_path_t *p;
    size_t loop;
    ck_assert_int_eq(pn_reach_lasso(r, qs->q[1].formula, &p, &loop), PN_OK);
    ck_assert_uint_ge(p->nsteps, n);
    lasso_replays(net, PN_SEM_INTERLEAVING, qs->q[1].formula, p, loop,
                  "F G p0 > 0");
    pn_reach_path_free(p);
    ck_assert_int_eq(pn_reach_lasso(r, qs->q[0].formula, &p, &loop),
                     PN_EINVAL);
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
    /* 2^24 markings: a true formula the clock stops */
    net = pn_net_new("bits");
    for (size_t k = 0; k < 24; k++) {
        snprintf(id, sizeof id, "on%zu", k);
        pn_net_add_place(net, id, NULL, 0, NULL);
        snprintf(id, sizeof id, "off%zu", k);
        pn_net_add_place(net, id, NULL, 1, NULL);
        snprintf(id, sizeof id, "up%zu", k);
        pn_net_add_transition(net, id, NULL, NULL);
        snprintf(id, sizeof id, "down%zu", k);
        pn_net_add_transition(net, id, NULL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, 2 * k + 1, 2 * k, 1,
                          PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, 2 * k, 2 * k, 1,
                          PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, 2 * k, 2 * k + 1, 1,
                          PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, 2 * k + 1, 2 * k + 1, 1,
                          PN_ARC_NORMAL, NULL);
    }
    qs = pn_query_set_new();
    ck_assert_int_eq(pn_query_parse(qs, "LTL G (on0 + off0 == 1)", net,
                                    &err), PN_OK);
    so.time_limit = 0.5;
    so.no_lp = 1;
    double t0 = pni_clock();
    ck_assert_int_eq(pn_reach_solve(net, NULL, &so, qs, ans, &r), PN_OK);
    ck_assert(!ans[0].known);
    ck_assert(pni_clock() - t0 < 5);
    pn_reach_free(r);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

/* ---- simplified formulas -------------------------------------------------- */

/* 2-3 places without capacities (the state equation holds where no reset
 * arc is), 1-3 transitions */
static pn_net_t *equation_net(pni_rng_t *rng, int kinds)
{
    static const tu_shape_t sh = {
        .id = "simp", .p_min = 2, .p_span = 2, .t_min = 1, .t_span = 3,
        .tokens = 2, .a_min = 1, .a_mul = 3, .ends_last = 1, .normal = 7,
        .inh = 8, .read = 9};
    return tu_random_net(rng, &sh, kinds);
}

static void simp_on_answer(size_t i, const pn_query_answer_t *a,
                           unsigned tech, void *ctx)
{
    (void)a;
    ((unsigned *)ctx)[i] = tech;
}

/* Random LTL formulas on random nets: pn_reach_solve(), the formulas
 * simplified first (by the state equation and exact rules), gives the
 * search's answers over the graph of the formulas as given, under both
 * semantics; the lasso it keeps for a formula found false violates the
 * formula as given. */
START_TEST(simplified_against_graph)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2930);
    int n = tu_count(150, 1500), compared = 0, simplified = 0, lassos = 0;
    for (int i = 0; i < n; i++) {
        pn_net_t *net = equation_net(&rng, i % 3);
        pn_query_set_t *qs = pn_query_set_new();
        for (int k = 0; k < 4; k++) {
            char text[4096] = "LTL ";
            random_ltl(&rng, pn_net_place_count(net),
                       pn_net_transition_count(net),
                       1 + (int)pni_rng_below(&rng, 3), text, sizeof text);
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        o.max_states = 2000;
        if (i % 2)
            o.semantics = PN_SEM_MAXIMAL;
        pn_query_answer_t plain[4], with[4];
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, plain, &r), PN_OK);
        int complete = pn_reach_end(r) == PN_REACH_COMPLETE;
        pn_reach_free(r);
        if (!complete) {
            pn_query_set_free(qs);
            pn_net_free(net);
            continue;
        }
        unsigned tech[4] = {0};
        pn_reach_solve_options_t so = {0};
        so.no_walk = so.no_reduce = 1;
        so.on_answer = simp_on_answer;
        so.ctx = tech;
        ck_assert_int_eq(pn_reach_solve(net, &o, &so, qs, with, &r), PN_OK);
        for (size_t k = 0; k < qs->n; k++) {
            char *text = text_of(&qs->q[k], net);
            ck_assert_msg(with[k].known, "net %d, '%s'", i, text);
            ck_assert_msg(with[k].value == plain[k].value,
                          "net %d, '%s': simplified %d, as given %d", i,
                          text, with[k].value, plain[k].value);
            simplified += !!(tech[k] & PN_TECH_QUERY_REDUCTION);
            compared++;
            pn_reach_path_t *p = NULL;
            size_t loop;
            if (!with[k].value && !(tech[k] & PN_TECH_QUERY_REDUCTION &&
                                    !(tech[k] & PN_TECH_EXPLICIT)) &&
                pn_reach_lasso(r, qs->q[k].formula, &p, &loop) == PN_OK) {
                lasso_replays(net, o.semantics, qs->q[k].formula, p, loop,
                              text);
                pn_reach_path_free(p);
                lassos++;
            }
            free(text);
        }
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    ck_assert_int_ge(compared, 300);
    ck_assert_int_ge(simplified, compared / 10);
    /* enough lassos to mean something (fewer as the state equation, with
     * its trap cuts, decides more atoms and makes more formulas
     * constants, which have none) */
    ck_assert_int_ge(lassos, compared / 20);
}
END_TEST

/* ---- stubborn sets on the fly ----------------------------------------- */

/* 3-6 places, every one with a capacity, 2-7 transitions with few arcs
 * each (independent ones), every arc kind */
static pn_net_t *random_loose_net(pni_rng_t *rng)
{
    static const tu_shape_t sh = {
        .id = "ltlpor", .p_min = 3, .p_span = 4, .t_min = 2, .t_span = 6,
        .tokens = 2, .caps_in = 1, .cap_min = 1, .cap_span = 2,
        .a_mul = 2, .every_t = 1, .normal = 6, .inh = 7, .read = 8};
    return tu_random_net(rng, &sh, 2);
}

typedef struct {
    int compared, reduced, next_reduced, lassos, holds;
} fly_counts_t;

/* 300 random nets, 4 random formulas each (with any: next and deadlock
 * too, and the sets the automaton guides for every formula on every other
 * net; else neither), on the fly with stubborn sets against the graph,
 * under interleaving: the same answers, lassos that replay. */
static void fly_sets_against_graph(uint64_t seed, int any, fly_counts_t *n)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, seed);
    memset(n, 0, sizeof *n);
    for (int i = 0; i < 300; i++) {
        pn_net_t *net = random_loose_net(&rng);
        pn_query_set_t *qs = pn_query_set_new();
        while (qs->n < 4) {
            char text[4096] = "LTL ";
            random_ltl(&rng, pn_net_place_count(net),
                       pn_net_transition_count(net),
                       1 + (int)pni_rng_below(&rng, 3), text, sizeof text);
            if (!any && (strstr(text, "X ") || strstr(text, "deadlock")))
                continue; /* Valmari's sets: without next */
            pn_error_t err;
            ck_assert_msg(pn_query_parse(qs, text, net, &err) == PN_OK,
                          "'%s': %s", text, err.text);
        }
        pn_reach_options_t o;
        pn_reach_options_init(&o);
        pn_query_answer_t ans[4];
        pn_reach_t *r;
        ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
        ck_assert_int_eq(pn_reach_end(r), PN_REACH_COMPLETE);
        o.stubborn = 1;
        pni_fly_t *g;
        ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
        pni_fly_aut_always(g, any && i % 2 == 0);
        for (size_t k = 0; k < qs->n; k++) {
            char *text = text_of(&qs->q[k], net);
            int value = -1;
            pn_reach_path_t *p;
            size_t loop, states;
            uint64_t red;
            ck_assert_int_eq(pni_ltl_fly(g, qs->q[k].formula, 0, &value, &p,
                                         &loop), PN_OK);
            ck_assert_msg(value == ans[k].value, "net %d, '%s': stubborn "
                          "sets on the fly %d, over the graph %d", i, text,
                          value, ans[k].value);
            pni_fly_last(g, &states, &red);
            n->reduced += red > 0;
            n->next_reduced += red > 0 && strstr(text, "X ") != NULL;
            if (!value) {
                lasso_replays(net, PN_SEM_INTERLEAVING, qs->q[k].formula, p,
                              loop, text);
                pn_reach_path_free(p);
                n->lassos++;
            }
            n->holds += value;
            n->compared++;
            free(text);
        }
        pni_fly_free(g);
        pn_reach_free(r);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
}

/* Formulas without next with Valmari's sets: the sets leave successors
 * out in many products. */
START_TEST(fly_stubborn_against_graph)
{
    fly_counts_t n;
    fly_sets_against_graph(4444, 0, &n);
    ck_assert_int_ge(n.compared, 1200);
    ck_assert_int_ge(n.reduced, n.compared / 10);
    ck_assert_int_ge(n.lassos, n.compared / 5);
    ck_assert_int_ge(n.holds, n.compared / 5);
}
END_TEST

/* Any formula with the sets the automaton guides (next and deadlock too):
 * they leave successors out in many products, formulas with next among
 * them. */
START_TEST(fly_aut_against_graph)
{
    fly_counts_t n;
    fly_sets_against_graph(5555, 1, &n);
    ck_assert_int_ge(n.compared, 1200);
    ck_assert_int_ge(n.reduced, n.compared / 20);
    ck_assert_int_ge(n.next_reduced, n.compared / 50);
    ck_assert_int_ge(n.lassos, n.compared / 5);
    ck_assert_int_ge(n.holds, n.compared / 5);
}
END_TEST

/* k rings of three places, a token in each, and a place q that t_go
 * fills from p: the rings are independent of one another and of p. */
static pn_net_t *rings_net(size_t k)
{
    pn_net_t *net = pn_net_new("rings");
    char id[32];
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < 3; j++) {
            snprintf(id, sizeof id, "r%zu_%zu", i, j);
            pn_net_add_place(net, id, NULL, j == 0, NULL);
            snprintf(id, sizeof id, "t%zu_%zu", i, j);
            pn_net_add_transition(net, id, NULL, NULL);
        }
    for (size_t i = 0; i < 3 * k; i++) {
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, i, i, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, i - i % 3 + (i + 1) % 3, i, 1,
                          PN_ARC_NORMAL, NULL);
    }
    size_t p = 3 * k, q = p + 1, t = 3 * k;
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_place(net, "q", NULL, 0, NULL);
    pn_net_add_transition(net, "t_go", NULL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_PT, p, t, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, q, t, 1, PN_ARC_NORMAL, NULL);
    return net;
}

/* The sets reduce where parts are independent: far fewer product states
 * for the same answers.  The cycle proviso: a ring's cycle never fires
 * t_go, and without the proviso the reduced product would close it for
 * ever and find G p > 0 true. */
START_TEST(fly_stubborn_reduces)
{
    pn_net_t *net = rings_net(6); /* 3^6 * 2 markings */
    static const char *const f[] = {
        "LTL G p > 0", "LTL F q > 0", "LTL G F r0_0 > 0",
        "LTL F G r0_0 > 0", "LTL G (p > 0 || q > 0)",
        "LTL [ p > 0 U q > 0 ]", "LTL G (fireable(t_go) -> F q > 0)",
        "LTL G (q > 0 -> G q > 0)", "LTL G (p + q == 1)",
        "LTL G (r0_0 + r0_1 + r0_2 == 1)", "LTL F G !fireable(t_go)"};
    static const int want[] = {0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0};
    size_t n = sizeof f / sizeof *f;
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    pni_fly_t *full, *red;
    ck_assert_int_eq(pni_fly_new(net, &o, &full), PN_OK);
    o.stubborn = 1;
    ck_assert_int_eq(pni_fly_new(net, &o, &red), PN_OK);
    for (size_t i = 0; i < n; i++) {
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, f[i], net, &err), PN_OK);
        const pn_qformula_t *fo = qs->q[0].formula;
        int v1 = -1, v2 = -1;
        pn_reach_path_t *p1, *p2;
        size_t l1, l2, s1, s2;
        uint64_t r1, r2;
        ck_assert_int_eq(pni_ltl_fly(full, fo, 0, &v1, &p1, &l1), PN_OK);
        pni_fly_last(full, &s1, &r1);
        ck_assert_int_eq(pni_ltl_fly(red, fo, 0, &v2, &p2, &l2), PN_OK);
        pni_fly_last(red, &s2, &r2);
        ck_assert_msg(v1 == want[i] && v2 == want[i],
                      "'%s': full %d, stubborn sets %d", f[i], v1, v2);
        ck_assert_uint_eq(r1, 0);
        if (!v2)
            lasso_replays(net, PN_SEM_INTERLEAVING, fo, p2, l2, f[i]);
        pn_reach_path_free(p1);
        pn_reach_path_free(p2);
        if (want[i]) { /* the whole product searched: the sets shrink it */
            ck_assert_uint_gt(r2, 0);
            ck_assert_msg(s2 * 10 < s1, "'%s': %zu product states with "
                          "stubborn sets, %zu without", f[i], s2, s1);
        }
        /* plain: the same markings, every successor, the whole product */
        pni_fly_plain(red, 1);
        int v3 = -1;
        size_t s3;
        uint64_t r3;
        ck_assert_int_eq(pni_ltl_fly(red, fo, 0, &v3, NULL, NULL), PN_OK);
        pni_fly_last(red, &s3, &r3);
        pni_fly_plain(red, 0);
        ck_assert_int_eq(v3, want[i]);
        ck_assert_uint_eq(r3, 0);
        if (want[i])
            ck_assert_uint_eq(s3, s1);
        pn_query_set_free(qs);
    }
    /* next: the sets the automaton guides (towards p == 0 && q == 0 only
     * t_go leads, then nothing: the rings are never fired), the same
     * answers from far fewer states */
    static const char *const fx[] = {"LTL G ((X q > 0) -> q > 0 || p > 0)",
                                     "LTL X X G p > 0",
                                     "LTL G (p > 0 -> X p > 0)"};
    static const int wantx[] = {1, 0, 0};
    for (size_t i = 0; i < 3; i++) {
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, fx[i], net, &err), PN_OK);
        int v1 = -1, v2 = -1;
        size_t s1, s2, l2;
        uint64_t r1, r2;
        pn_reach_path_t *p2;
        ck_assert_int_eq(pni_ltl_fly(full, qs->q[0].formula, 0, &v1, NULL,
                                     NULL), PN_OK);
        pni_fly_last(full, &s1, &r1);
        ck_assert_int_eq(pni_ltl_fly(red, qs->q[0].formula, 0, &v2, &p2,
                                     &l2), PN_OK);
        pni_fly_last(red, &s2, &r2);
        ck_assert_msg(v1 == wantx[i] && v2 == wantx[i],
                      "'%s': full %d, sets the automaton guides %d", fx[i],
                      v1, v2);
        if (!v2)
            lasso_replays(net, PN_SEM_INTERLEAVING, qs->q[0].formula, p2, l2,
                          fx[i]);
        pn_reach_path_free(p2);
        if (i == 0) {
            ck_assert_uint_gt(r2, 0);
            ck_assert_msg(s2 * 10 < s1, "'%s': %zu product states with the "
                          "sets, %zu without", fx[i], s2, s1);
        }
        pn_query_set_free(qs);
    }
    pni_fly_free(full);
    pni_fly_free(red);
    pn_net_free(net);
}
END_TEST

/* Two shortcuts to a counterexample on the fly.  An automaton state that
 * accepts every word (the negation's obligations all met) ends the search
 * at once: every marking has an infinite path.  And the successors nearest
 * to the automaton's way towards acceptance are tried first.  On a net
 * with two counters that grow for ever, the decoy listed first, neither
 * search closes a cycle: the one that follows the list counts the decoy up
 * until the state limit. */
START_TEST(fly_universal_and_guided)
{
    pn_net_t *net = pn_net_new("counters");
    pn_net_add_place(net, "d", NULL, 0, NULL);
    pn_net_add_place(net, "g", NULL, 0, NULL);
    pn_net_add_transition(net, "t_decoy", NULL, NULL);
    pn_net_add_transition(net, "t_goal", NULL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 0, 0, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 1, 1, 1, PN_ARC_NORMAL, NULL);
    static const char *const f[] = {
        "LTL G g < 3", "LTL X X X d < 3", "LTL G (d < 50 -> g < 4)",
        "LTL G (g > 3 -> X d > 0)", "LTL [ g < 2 U d > 5 ]"};
    static const int want[] = {0, 0, 0, 0, 0};
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = 200;
    pni_fly_t *g;
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, f[i], net, &err), PN_OK);
        int v = -1;
        pn_reach_path_t *p = NULL;
        size_t loop, states;
        uint64_t red;
        /* (a store of its own each time: the limit counts its markings) */
        ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
        pn_status_t st = pni_ltl_fly(g, qs->q[0].formula, 0, &v, NULL, NULL);
        ck_assert_msg(st == PN_OK, "'%s': not decided (%s)", f[i],
                      pn_status_name(st));
        pni_fly_last(g, &states, &red);
        ck_assert_msg(v == want[i], "'%s': %d", f[i], v);
        ck_assert_msg(states < 50, "'%s': %zu product states", f[i], states);
        pni_fly_free(g);
        /* the answer with a lasso asked for: none closes before the
         * limit, the answer stands without one */
        ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
        ck_assert_int_eq(pni_ltl_fly(g, qs->q[0].formula, 0, &v, &p, &loop),
                         PN_OK);
        ck_assert(!v && p == NULL);
        pni_fly_free(g);
        pn_query_set_free(qs);
    }
    pn_net_free(net);
    /* F G a > 0 fails on a run through a == 0 infinitely often: the
     * automaton of G F a == 0 is one state, its self-loop on a == 0
     * accepting, and the successors nearest to a == 0 come first (the
     * decoy, listed first, counts up while a is marked, for ever) */
    net = pn_net_new("loop");
    pn_net_add_place(net, "d", NULL, 0, NULL);
    pn_net_add_place(net, "a", NULL, 1, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_transition(net, "t_decoy", NULL, NULL);
    pn_net_add_transition(net, "t_ab", NULL, NULL);
    pn_net_add_transition(net, "t_ba", NULL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_PT, 1, 0, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 0, 0, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 1, 0, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_PT, 1, 1, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 2, 1, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_PT, 2, 2, 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc_at(net, NULL, PN_DIR_TP, 1, 2, 1, PN_ARC_NORMAL, NULL);
    {
        o.max_states = 200;
        pn_query_set_t *qs = pn_query_set_new();
        pn_error_t err;
        ck_assert_int_eq(pn_query_parse(qs, "LTL F G a > 0", net, &err),
                         PN_OK);
        ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
        int v = -1;
        pn_reach_path_t *p = NULL;
        size_t loop, states;
        uint64_t red;
        ck_assert_int_eq(pni_ltl_fly(g, qs->q[0].formula, 0, &v, &p, &loop),
                         PN_OK);
        pni_fly_last(g, &states, &red);
        ck_assert(!v && p != NULL);
        ck_assert_msg(states < 10, "%zu product states", states);
        lasso_replays(net, PN_SEM_INTERLEAVING, qs->q[0].formula, p, loop,
                      "F G a > 0");
        pn_reach_path_free(p);
        pni_fly_free(g);
        pn_query_set_free(qs);
        pn_net_free(net);
    }
    /* where a cycle follows, the lasso is found past the shortcut */
    net = tu_ring_net(5);
    pn_reach_options_init(&o);
    ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    ck_assert_int_eq(pn_query_parse(qs, "LTL X X p0 > 0", net, &err), PN_OK);
    int v = -1;
    pn_reach_path_t *p = NULL;
    size_t loop;
    ck_assert_int_eq(pni_ltl_fly(g, qs->q[0].formula, 0, &v, &p, &loop),
                     PN_OK);
    ck_assert(!v && p != NULL);
    ck_assert_uint_ge(p->nsteps, 5);
    lasso_replays(net, PN_SEM_INTERLEAVING, qs->q[0].formula, p, loop,
                  "X X p0 > 0");
    pn_reach_path_free(p);
    pn_query_set_free(qs);
    pni_fly_free(g);
    pn_net_free(net);
}
END_TEST

/* The markings on the fly widen ahead: a place that outgrows its width
 * doubles it, and every changed place as narrow goes with it, so that a
 * net of many counters repacks its markings a few times, not once per
 * place and per bit (each repack rewrites every marking stored). */
START_TEST(fly_widens_ahead)
{
    pn_net_t *net = tu_counters_net(32);
    pn_query_set_t *qs = pn_query_set_new();
    pn_error_t err;
    /* every counter counted up to 40 in turn (the heuristic aims at the
     * one behind) before the automaton's shortcut ends it */
    char text[4096] = "LTL G !(";
    for (size_t k = 0; k < 32; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 "%sp%zu >= 40", k ? " && " : "", k);
    strcat(text, ")");
    ck_assert_int_eq(pn_query_parse(qs, text, net, &err), PN_OK);
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    pni_fly_t *g;
    ck_assert_int_eq(pni_fly_new(net, &o, &g), PN_OK);
    int v = -1;
    ck_assert_int_eq(pni_ltl_fly(g, qs->q[0].formula, 0, &v, NULL, NULL),
                     PN_OK);
    ck_assert(!v);
    const pn_reach_t *r = pni_fly_store(g);
    ck_assert_uint_ge(r->store.nstates, 32 * 40);
    /* 1, 2, 4, 8 bits: three repacks (one at a time, 32 places from 1 to
     * 6 bits: 32 times 4) */
    ck_assert_msg(r->store.widenings <= 4, "%" PRIu64 " repacks",
                  r->store.widenings);
    pni_fly_free(g);
    pn_query_set_free(qs);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ltl");
    TCase *tc = tcase_create("ltl");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tableau_against_meaning);
    tcase_add_test(tc, tableau_simplifies);
    tcase_add_test(tc, random_ltl_against_lassos);
    tcase_add_test(tc, inline_form);
    tcase_add_test(tc, fly_against_graph);
    tcase_add_test(tc, fly_on_a_budget);
    tcase_add_test(tc, simplified_against_graph);
    tcase_add_test(tc, fly_stubborn_against_graph);
    tcase_add_test(tc, fly_stubborn_reduces);
    tcase_add_test(tc, fly_aut_against_graph);
    tcase_add_test(tc, fly_universal_and_guided);
    tcase_add_test(tc, fly_widens_ahead);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
