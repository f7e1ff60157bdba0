/*
 * The WPNM generator against the table of doc/wpnm.md: the expected net is
 * written out here from the doc (not from the generator) as multisets of
 * places with markings, transitions, and arcs with kinds and weights.
 * Also: round trips in every dialect, workload files, the launch formula.
 */
#include <config.h>
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pn.h"
#include "testutil.h"

/* The generator lays names out for editors that draw about this many
 * pixels per character. */
#define LABEL_CHAR 7.0

typedef struct {
    char **v;
    size_t n, cap;
} list_t;

static void add(list_t *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add(list_t *l, const char *fmt, ...)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    l->v[l->n++] = strdup(buf);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_free(list_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* The doc's table, arc by arc. */
static void expected(list_t *l, size_t W, uint64_t s, const pn_gpu_warp_t *x,
                     uint64_t l1, uint64_t l2, int pipe, uint64_t la)
{
    int lat = pipe && la;   /* the arithmetic latency counter t18, p19 */
    add(l, "place p0 %llu", (unsigned long long)s);
    add(l, "place active %zu", W);
    add(l, "transition t0");
    add(l, "arc p0 t0 normal 1");
    add(l, "arc active t0 normal 1");
    add(l, "arc t0 p0 normal 1");
    add(l, "arc t0 active normal 1");
    for (size_t i = 0; i < W; i++) {
        unsigned long long xa = x[i].arith, xs = x[i].shared, xg = x[i].global;
        unsigned long long init[20] = {0, 1, 1, 1, 0, xa, 0, xs, 0, xg};
        for (int k = 1; k <= (lat ? 19 : 18); k++)
            add(l, "place w%zu_p%d %llu", i, k, init[k]);
        int ts[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17};
        for (int k = 0; k < 15; k++)
            add(l, "transition w%zu_t%d", i, ts[k]);
        if (lat)
            add(l, "transition w%zu_t18", i);
#define IN(p, t, w) add(l, "arc w%zu_p%d w%zu_t%d normal %llu", i, p, i, t, \
                        (unsigned long long)(w))
#define OUT(t, p, w) add(l, "arc w%zu_t%d w%zu_p%d normal %llu", i, t, i, p, \
                         (unsigned long long)(w))
        /* t1: p2, p4, p0 -> p11 */
        IN(2, 1, 1);
        IN(4, 1, 1);
        add(l, "arc p0 w%zu_t1 normal 1", i);
        OUT(1, 11, 1);
        /* t2, t3, t4: p3 + p5/p7/p9 -> p4 + p6/p8/p10 */
        IN(3, 2, 1); IN(5, 2, 1); OUT(2, 4, 1); OUT(2, 6, 1);
        IN(3, 3, 1); IN(7, 3, 1); OUT(3, 4, 1); OUT(3, 8, 1);
        IN(3, 4, 1); IN(9, 4, 1); OUT(4, 4, 1); OUT(4, 10, 1);
        /* t5: p11, p10 -> p0, p12 x (l1+1) */
        IN(11, 5, 1); IN(10, 5, 1);
        add(l, "arc w%zu_t5 p0 normal 1", i);
        OUT(5, 12, l1 + 1);
        /* t6: p11, p8 -> p15 x (l2+1), and p0 when pipelined */
        IN(11, 6, 1); IN(8, 6, 1); OUT(6, 15, l2 + 1);
        if (pipe)
            add(l, "arc w%zu_t6 p0 normal 1", i);
        /* t7: p11, p6 -> p17 (x (la+1) when pipelined), and p0 when pipelined */
        IN(11, 7, 1); IN(6, 7, 1); OUT(7, 17, pipe ? la + 1 : 1);
        if (pipe)
            add(l, "arc w%zu_t7 p0 normal 1", i);
        /* t8: p12 x2 -> p12, p13 */
        IN(12, 8, 2); OUT(8, 12, 1); OUT(8, 13, 1);
        /* t9: p12, p13 x l1 -> p14 (no arc for weight 0) */
        IN(12, 9, 1);
        if (l1)
            IN(13, 9, l1);
        OUT(9, 14, 1);
        /* t11: p14 -> p2, p3 */
        IN(14, 11, 1); OUT(11, 2, 1); OUT(11, 3, 1);
        /* t12: p15, p18 x l2 -> p16 */
        IN(15, 12, 1);
        if (l2)
            IN(18, 12, l2);
        OUT(12, 16, 1);
        /* t14, t15: -> p0 (not when pipelined), p2, p3 */
        IN(16, 14, 1); OUT(14, 2, 1); OUT(14, 3, 1);
        if (!pipe)
            add(l, "arc w%zu_t14 p0 normal 1", i);
        IN(17, 15, 1); OUT(15, 2, 1); OUT(15, 3, 1);
        if (!pipe)
            add(l, "arc w%zu_t15 p0 normal 1", i);
        /* pipelined with arithmetic latency: t18 counts as t8 does, t15
         * waits for la counts in p19 */
        if (lat) {
            IN(19, 15, la);
            IN(17, 18, 2); OUT(18, 17, 1); OUT(18, 19, 1);
        }
        /* t16: p1, p2, p3, active; inhibitors p5, p7, p9 */
        IN(1, 16, 1); IN(2, 16, 1); IN(3, 16, 1);
        add(l, "arc active w%zu_t16 normal 1", i);
        add(l, "arc w%zu_p5 w%zu_t16 inhibitor 1", i, i);
        add(l, "arc w%zu_p7 w%zu_t16 inhibitor 1", i, i);
        add(l, "arc w%zu_p9 w%zu_t16 inhibitor 1", i, i);
        /* t17: p15 x2 -> p15, p18 */
        IN(15, 17, 2); OUT(17, 15, 1); OUT(17, 18, 1);
        /* p2 inhibits t0 */
        add(l, "arc w%zu_p2 t0 inhibitor 1", i);
#undef IN
#undef OUT
    }
}

static void actual(list_t *l, const pn_net_t *net)
{
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        add(l, "place %s %llu", pn_net_place(net, i)->id,
            (unsigned long long)pn_net_place(net, i)->marking);
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        add(l, "transition %s", pn_net_transition(net, i)->id);
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        const char *p = pn_net_place(net, a->place)->id;
        const char *t = pn_net_transition(net, a->transition)->id;
        add(l, "arc %s %s %s %llu", a->dir == PN_DIR_PT ? p : t,
            a->dir == PN_DIR_PT ? t : p, pn_arc_kind_name(a->kind),
            (unsigned long long)a->weight);
    }
}

static void check_net_p(size_t W, uint64_t s, const pn_gpu_warp_t *work,
                        pn_gpu_warp_t uni, uint64_t l1, uint64_t l2, int pipe,
                        uint64_t la)
{
    pn_gpu_params_t p = {.warps = W, .schedulers = s, .l1 = l1, .l2 = l2,
        .work = work, .uniform = uni, .pipelined = pipe, .la = la};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    pn_gpu_warp_t *x = malloc(W * sizeof *x);
    for (size_t i = 0; i < W; i++)
        x[i] = work ? work[i] : uni;
    list_t want = {0}, got = {0};
    expected(&want, W, s, x, l1, l2, pipe, la);
    actual(&got, net);
    qsort(want.v, want.n, sizeof *want.v, cmp);
    qsort(got.v, got.n, sizeof *got.v, cmp);
    for (size_t i = 0; i < want.n && i < got.n; i++)
        ck_assert_msg(!strcmp(want.v[i], got.v[i]),
                      "W=%zu: first difference: want '%s', got '%s'", W,
                      want.v[i], got.v[i]);
    ck_assert_int_eq(want.n, got.n);
    /* 18 places and 15 transitions per warp, 61 - 4 arcs per warp when no
     * latency is 0 */
    ck_assert_int_eq(pn_net_place_count(net), 2 + (pipe && la ? 19 : 18) * W);
    ck_assert_int_eq(pn_net_transition_count(net),
                     1 + (pipe && la ? 16 : 15) * W);
    /* every node has a position; positions are distinct */
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        ck_assert(pn_net_place(net, i)->has_position);
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        ck_assert(pn_net_transition(net, i)->has_position);
    list_t pos = {0};
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        add(&pos, "%.1f,%.1f", pn_net_place(net, i)->x, pn_net_place(net, i)->y);
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        add(&pos, "%.1f,%.1f", pn_net_transition(net, i)->x,
            pn_net_transition(net, i)->y);
    qsort(pos.v, pos.n, sizeof *pos.v, cmp);
    for (size_t i = 1; i < pos.n; i++)
        ck_assert_msg(strcmp(pos.v[i - 1], pos.v[i]), "two nodes at %s",
                      pos.v[i]);
    list_free(&pos);
    list_free(&want);
    list_free(&got);
    free(x);
    pn_net_free(net);
}

static void check_net(size_t W, uint64_t s, const pn_gpu_warp_t *work,
                      pn_gpu_warp_t uni, uint64_t l1, uint64_t l2)
{
    check_net_p(W, s, work, uni, l1, l2, 0, 0);
}

START_TEST(matches_the_table)
{
    pn_gpu_warp_t u = {5, 3, 2};
    check_net(1, 2, NULL, u, 20, 2);
    check_net(1, 1, NULL, (pn_gpu_warp_t){0, 0, 0}, 20, 2);
    check_net(3, 4, NULL, u, 7, 1);
    check_net(64, 2, NULL, (pn_gpu_warp_t){2000, 500, 500}, 20, 2);
    check_net(2, 2, NULL, u, 0, 0); /* latency 0: arcs left out */
    check_net(2, 2, NULL, u, 0, 5);
    pn_gpu_warp_t work[5] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}, {9, 9, 9},
                             {0, 0, 0}};
    check_net(5, 3, work, u, 11, 4);
}
END_TEST

/* The pipelined net of doc/wpnm.md, arc by arc. */
START_TEST(pipelined_matches_the_table)
{
    pn_gpu_warp_t u = {5, 3, 2};
    check_net_p(1, 2, NULL, u, 20, 2, 1, 0);
    check_net_p(3, 4, NULL, u, 7, 1, 1, 6);
    check_net_p(2, 2, NULL, u, 0, 0, 1, 1);
    pn_gpu_warp_t work[3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
    check_net_p(3, 3, work, u, 11, 4, 1, 9);
}
END_TEST

static uint64_t run_steps(const pn_gpu_params_t *p, int check_schedulers)
{
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(p, &net), PN_OK);
    pn_engine_t *eng;
    ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
    size_t p0, *p11 = malloc(p->warps * sizeof *p11);
    pn_object_t kind;
    ck_assert_int_eq(pn_net_find(net, "p0", &kind, &p0), PN_OK);
    for (size_t w = 0; w < p->warps; w++) {
        char id[32];
        snprintf(id, sizeof id, "w%zu_p11", w);
        ck_assert_int_eq(pn_net_find(net, id, &kind, &p11[w]), PN_OK);
    }
    pn_sim_t *sim = pn_sim_new(eng, 7, PN_SEM_MAXIMAL, 0);
    pn_end_t end = PN_END_NONE;
    while (end == PN_END_NONE) {
        ck_assert_int_eq(pn_sim_step(sim, &end), PN_OK);
        if (!check_schedulers)
            continue;
        /* a scheduler is free (p0) or held by an issuing warp (p11) */
        const uint64_t *m = pn_sim_marking(sim);
        uint64_t held = m[p0];
        for (size_t w = 0; w < p->warps; w++)
            held += m[p11[w]];
        ck_assert_uint_eq(held, p->schedulers);
    }
    ck_assert_int_eq(end, PN_END_DEAD);
    uint64_t steps = pn_sim_steps(sim);
    pn_sim_free(sim);
    pn_engine_free(eng);
    pn_net_free(net);
    free(p11);
    return steps;
}

/* The facts doc/wpnm.md states for pipelined issue: schedulers are
 * conserved; an issue holds its scheduler two steps, so W warps of xa
 * arithmetic instructions on s schedulers take at least 2 W xa / s steps,
 * and a lone warp 4 + la steps per instruction; with enough warps the
 * issue bound is met within a few steps per warp. */
START_TEST(pipelined_facts)
{
    pn_gpu_params_t p = {.warps = 64, .schedulers = 4, .l1 = 20, .l2 = 2, .uniform = {100, 0, 0}, .pipelined = 1, .la = 0};
    uint64_t st = run_steps(&p, 1);
    ck_assert_uint_ge(st, 2 * 64 * 100 / 4);
    ck_assert_uint_le(st, 2 * 64 * 100 / 4 + 4 * 64 / 4 + 8);
    pn_gpu_params_t one = {.warps = 1, .schedulers = 2, .l1 = 20, .l2 = 2, .uniform = {100, 0, 0}, .pipelined = 1, .la = 10};
    st = run_steps(&one, 1);
    ck_assert_uint_ge(st, (4 + 10) * 100);
    ck_assert_uint_le(st, (4 + 10) * 100 + 2);
    /* shared accesses: 5 + l2 steps each for one warp; the paper's net
     * holds the scheduler through the latency, pipelined issue does not */
    pn_gpu_params_t sh = {.warps = 1, .schedulers = 1, .l1 = 20, .l2 = 10, .uniform = {0, 50, 0}, .pipelined = 1, .la = 0};
    st = run_steps(&sh, 1);
    ck_assert_uint_ge(st, (5 + 10) * 50);
    ck_assert_uint_le(st, (5 + 10) * 50 + 2);
    pn_gpu_params_t many = {.warps = 64, .schedulers = 4, .l1 = 20, .l2 = 10, .uniform = {0, 100, 0}, .pipelined = 1, .la = 0};
    pn_gpu_params_t paper = {.warps = 64, .schedulers = 4, .l1 = 20, .l2 = 10, .uniform = {0, 100, 0}, .pipelined = 0, .la = 0};
    uint64_t fast = run_steps(&many, 1), slow = run_steps(&paper, 0);
    ck_assert_uint_le(fast, 2 * 64 * 100 / 4 + 4 * 64 + 30);
    ck_assert_uint_ge(slow, (uint64_t)(10 + 3) * 64 * 100 / 4);
    /* mixed work: schedulers conserved throughout */
    pn_gpu_params_t mix = {.warps = 12, .schedulers = 3, .l1 = 15, .l2 = 4, .uniform = {7, 5, 3}, .pipelined = 1, .la = 3};
    run_steps(&mix, 1);
}
END_TEST

START_TEST(bad_parameters)
{
    pn_gpu_params_t p = {.schedulers = 2, .l1 = 20, .l2 = 2,
        .uniform = {1, 1, 1}};
    pn_net_t *net = (pn_net_t *)1;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_EINVAL);
    ck_assert_ptr_null(net);
    p.warps = 1;
    p.schedulers = 0;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_EINVAL);
    p.schedulers = 1;
    p.l1 = PN_TOKENS_MAX; /* l1 + 1 would not fit */
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_ERANGE);
    p.l1 = 20;
    p.uniform.arith = PN_TOKENS_MAX + 1;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_ERANGE);
    /* above the documented maximum: refused before anything is built */
    p.uniform.arith = 1;
    p.warps = PN_GPU_MAX_WARPS + 1;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_EINVAL);
    ck_assert_ptr_null(net);
}
END_TEST

typedef struct {
    double x0, y0, x1, y1;
} box_t;

static int overlap(box_t a, box_t b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

START_TEST(labels_do_not_overlap)
{
    /* the last: load slots, their frames in rows below each warp */
    static const size_t ws[] = {1, 8, 64, 100, 10};
    for (size_t k = 0; k < 5; k++) {
        pn_gpu_params_t p = {.warps = ws[k], .schedulers = 2, .l1 = 20,
            .l2 = 2,
            .uniform = {1, 1, 1}, .mlp = k == 4 ? PN_GPU_MAX_MLP : 1};
        pn_net_t *net;
        ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
        size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
        size_t n = np + nt;
        box_t *label = malloc(n * sizeof *label), *node = malloc(n * sizeof *node);
        for (size_t i = 0; i < n; i++) {
            const char *name;
            double x, y, dx, dy;
            int has;
            if (i < np) {
                const pn_place_t *pl = pn_net_place(net, i);
                name = pl->name; x = pl->x; y = pl->y;
                dx = pl->label_dx; dy = pl->label_dy; has = pl->has_label;
            } else {
                const pn_transition_t *tr = pn_net_transition(net, i - np);
                name = tr->name; x = tr->x; y = tr->y;
                dx = tr->label_dx; dy = tr->label_dy; has = tr->has_label;
            }
            ck_assert(has);
            node[i] = (box_t){x - 15, y - 15, x + 15, y + 15};
            label[i] = (box_t){x + dx, y + dy - 8,
                               x + dx + LABEL_CHAR * (double)strlen(name),
                               y + dy + 8};
        }
        /* one assertion for the whole net (an assertion a pair costs
         * Check a write each: millions for 64 warps) */
        size_t bad = 0, bi = 0, bj = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                if (i == j)
                    continue;
                if (overlap(label[i], node[j]) ||
                    (j > i && overlap(label[i], label[j]))) {
                    if (!bad++) {
                        bi = i;
                        bj = j;
                    }
                }
            }
        ck_assert_msg(bad == 0,
                      "W=%zu: %zu overlaps, the first: label %zu over node "
                      "or label %zu", ws[k], bad, bi, bj);
        free(label);
        free(node);
        pn_net_free(net);
    }
}
END_TEST

/* PIPE and TAPAAL snap nodes and labels to a 15-pixel grid when they save,
 * and draw a name ending at the node's position plus offset, clipping what
 * is left of 0: every position and offset is on the grid, so that a save
 * leaves the drawing as it is, and every name fits left of its node. */
START_TEST(layout_on_the_editors_grid)
{
    static const size_t ws[] = {1, 4, 64, 10};
    for (size_t k = 0; k < 4; k++) {
        pn_gpu_params_t p = {.warps = ws[k], .schedulers = 2, .l1 = 20, .l2 = 2, .uniform = {1, 1, 1},
            .mlp = k == 3 ? PN_GPU_MAX_MLP : 1};
        pn_net_t *net;
        ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
        size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
        for (size_t i = 0; i < np + nt; i++) {
            const char *name;
            double v[4];
            if (i < np) {
                const pn_place_t *pl = pn_net_place(net, i);
                name = pl->name;
                v[0] = pl->x, v[1] = pl->y, v[2] = pl->label_dx,
                v[3] = pl->label_dy;
            } else {
                const pn_transition_t *tr = pn_net_transition(net, i - np);
                name = tr->name;
                v[0] = tr->x, v[1] = tr->y, v[2] = tr->label_dx,
                v[3] = tr->label_dy;
            }
            for (int c = 0; c < 4; c++)
                ck_assert_msg(fmod(v[c], 15.0) == 0.0,
                              "W=%zu: %s: %g is off the 15-pixel grid", ws[k],
                              name, v[c]);
            ck_assert_msg(v[0] + v[2] >= LABEL_CHAR * (double)strlen(name),
                          "W=%zu: PIPE would clip the label of %s", ws[k],
                          name);
        }
        pn_net_free(net);
    }
}
END_TEST

static pn_net_t *reread(const pn_net_t *net, pn_dialect_t d, pn_status_t *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pn_write_options_t wo = {.dialect = d};
    pn_error_t err;
    *st = pn_pnml_write_stream(net, f, &wo, &err);
    fclose(f);
    pn_net_t *back = NULL;
    if (*st == PN_OK)
        ck_assert_int_eq(pn_pnml_read_memory(buf, len, "gen", NULL, &back,
                                             &err), PN_OK);
    free(buf);
    return back;
}

START_TEST(round_trips)
{
    pn_gpu_params_t p = {.warps = 4, .schedulers = 2, .l1 = 20, .l2 = 2,
        .uniform = {3, 2, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    list_t a = {0};
    actual(&a, net);
    for (int d = 0; d < 3; d++) {
        pn_status_t st;
        pn_net_t *back = reread(net, (pn_dialect_t)d, &st);
        if (d == PN_DIALECT_STRICT) {
            /* the grammar has no inhibitor arc */
            ck_assert_int_eq(st, PN_EDIALECT);
            continue;
        }
        ck_assert_int_eq(st, PN_OK);
        list_t b = {0};
        actual(&b, back);
        ck_assert_int_eq(a.n, b.n);
        for (size_t i = 0; i < a.n; i++)
            ck_assert_str_eq(a.v[i], b.v[i]);
        for (size_t i = 0; i < pn_net_place_count(net); i++)
            ck_assert_str_eq(pn_net_place(net, i)->name,
                             pn_net_place(back, i)->name);
        list_free(&b);
        pn_net_free(back);
    }
    list_free(&a);
    pn_net_free(net);
}
END_TEST

START_TEST(workload_files)
{
    char *path = tmp_file_with("# kernel\nwarp,arith,shared,global\n1, 4,0,2\n"
                           "0,1,2,3 # first\n\n2,0,0,0\n");
    pn_gpu_warp_t *w;
    size_t n;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_workload_read(path, &w, &n, &err), PN_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(w[0].arith, 1);
    ck_assert_int_eq(w[0].global, 3);
    ck_assert_int_eq(w[1].arith, 4);
    ck_assert_int_eq(w[2].shared, 0);
    free(w);
    unlink(path);
    free(path);
    static const struct {
        const char *text;
        unsigned long line;
        const char *msg;
    } bad[] = {
        {"0,1,2\n", 1, "expected 4 comma-separated fields"},
        {"0,1,2,3\n0,1,1,1\n", 2, "warp 0 is given twice"},
        {"0,1,-2,3\n", 1, "negative"},
        {"0,a,2,3\n", 1, "expected warp,arith,shared,global"},
        {"0,1,2,3,4\n", 1, "trailing text"},
        {"0,1,2,99999999999999999999\n", 1, "above 2^63-1"},
        {"1,1,1,1\n", 0, "warp 0 is missing"},
        {"# nothing\n", 1, "no warps"},
        {"0,1,1,1\n16384,1,1,1\n", 2, "warp number above 16383"},
        /* bytes outside printable ASCII are shown as \xHH, never raw */
        {"0,1,2,3\n\033[1m\001\377,1,1,1\r\n", 2,
         "got '\\x1b[1m\\x01\\xff,1,1,1'"},
        /* long text is cut after 60 bytes */
        {"0,1,2,3,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
         "\n", 1, "',xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        path = tmp_file_with(bad[i].text);
        ck_assert_int_ne(pn_gpu_workload_read(path, &w, &n, &err), PN_OK);
        ck_assert_msg(strstr(err.text, bad[i].msg) != NULL, "'%s': got '%s'",
                      bad[i].text, err.text);
        ck_assert_int_eq(err.line, bad[i].line);
        ck_assert_str_eq(err.file, path);
        unlink(path);
        free(path);
    }
    ck_assert_int_eq(pn_gpu_workload_read("/nonexistent/w.csv", &w, &n, &err),
                     PN_EIO);
}
END_TEST

/* The parameter table: what pn-gen-gpu's options and pn-sweep's --param
 * are made of. */
START_TEST(option_table)
{
    size_t n;
    const pn_gpu_option_t *t = pn_gpu_option_table(&n);
    ck_assert(n >= 11 && n <= 64);
    const char *want[] = {"warps", "schedulers", "arith", "shared", "global",
                          "l1", "l2", "workload", "threads-per-block",
                          "blocks", "sms"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert(pn_gpu_option_find(want[i]) >= 0);
    ck_assert(pn_gpu_option_find("nope") == -1);
    for (size_t i = 0; i < n; i++) {
        ck_assert(t[i].name && t[i].help && t[i].arg && t[i].unit);
        /* the help names parameters in braces ({blocks}), never a
         * program's options */
        ck_assert(!strstr(t[i].help, "--"));
        for (const char *b = strchr(t[i].help, '{'); b; b = strchr(b + 1, '{')) {
            const char *e = strchr(b, '}');
            ck_assert(e);
            char name[64];
            ck_assert((size_t)(e - b - 1) < sizeof name);
            memcpy(name, b + 1, (size_t)(e - b - 1));
            name[e - b - 1] = '\0';
            ck_assert_msg(pn_gpu_option_find(name) >= 0, "{%s}", name);
        }
    }
    pn_gpu_options_t o;
    pn_gpu_options_init(&o);
    ck_assert_uint_eq(o.warps, 32);
    ck_assert_uint_eq(o.l1, 20);
    pn_error_t err;
    size_t w = (size_t)pn_gpu_option_find("warps");
    ck_assert_int_eq(pn_gpu_option_set(&o, w, "0", &err), PN_ERANGE);
    ck_assert(strstr(err.text, "warps: 0 is out of range"));
    ck_assert_int_eq(pn_gpu_option_set(&o, w, "8x", &err), PN_EVALUE);
    ck_assert_int_eq(pn_gpu_option_set(&o, w, "8", &err), PN_OK);
    ck_assert_uint_eq(o.warps, 8);
    pn_gpu_params_t p;
    pn_gpu_warp_t *work;
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_OK);
    ck_assert_uint_eq(p.warps, 8);
    ck_assert_uint_eq(p.uniform.arith, 10);
    ck_assert_ptr_null(work);
    /* a launch: all three, and not with warps */
    pn_gpu_options_init(&o);
    pn_gpu_option_set(&o, (size_t)pn_gpu_option_find("blocks"), "160", &err);
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "go together"));
    pn_gpu_option_set(&o, (size_t)pn_gpu_option_find("sms"), "80", &err);
    pn_gpu_option_set(&o, (size_t)pn_gpu_option_find("threads-per-block"),
                      "256", &err);
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_OK);
    ck_assert_uint_eq(p.warps, 16);
    pn_gpu_option_set(&o, w, "16", &err);
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
}
END_TEST

START_TEST(launch_formula)
{
    uint64_t w;
    ck_assert_int_eq(pn_gpu_launch_warps(256, 80, 80, &w), PN_OK);
    ck_assert_int_eq(w, 8);
    ck_assert_int_eq(pn_gpu_launch_warps(100, 81, 80, &w), PN_OK);
    ck_assert_int_eq(w, 4 * 2);
    ck_assert_int_eq(pn_gpu_launch_warps(1, 1, 1, &w), PN_OK);
    ck_assert_int_eq(w, 1);
    ck_assert_int_eq(pn_gpu_launch_warps(0, 1, 1, &w), PN_EINVAL);
    ck_assert_int_eq(pn_gpu_launch_warps(UINT64_MAX, UINT64_MAX, 1, &w),
                     PN_ERANGE);
}
END_TEST

/* ---- the constructs beyond the paper's net (doc/wpnm.md) --------------- */

static int has_line(const list_t *l, const char *line)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], line))
            return 1;
    return 0;
}

#define WANT(...)                                                              \
    do {                                                                       \
        char w_[256];                                                          \
        snprintf(w_, sizeof w_, __VA_ARGS__);                                  \
        ck_assert_msg(has_line(&got, w_), "missing: %s", w_);                  \
    } while (0)
#define NOT(...)                                                               \
    do {                                                                       \
        char w_[256];                                                          \
        snprintf(w_, sizeof w_, __VA_ARGS__);                                  \
        ck_assert_msg(!has_line(&got, w_), "unexpected: %s", w_);              \
    } while (0)

/* The tables of doc/wpnm.md for the block scheduler, transactions,
 * bandwidth and cache hits, arc by arc, with the counts of nodes and arcs
 * the doc gives. */
START_TEST(constructs_arc_by_arc)
{
    /* T = 3, K = 5, 5 global accesses of which 1 hits L1 (latency 4) and
     * 2 hit L2 (latency 6); 3 blocks of 2 warps, 2 resident */
    pn_gpu_params_t p = {.warps = 4, .schedulers = 2, .l1 = 20, .l2 = 2,
        .uniform = {3, 1, 5}, .resident = 2, .blocks = 3,
        .warps_per_block = 2, .transactions = 3, .inflight = 5,
        .l1_hits = 1, .l2_hits = 2, .l1_hit_latency = 4,
        .l2_hit_latency = 6};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    list_t got = {0};
    actual(&got, net);
    WANT("place pending 3");
    WANT("place dram 5");
    WANT("place active 6");   /* B x WB */
    for (size_t j = 0; j < 2; j++) {
        WANT("place b%zu_free 1", j);
        WANT("place b%zu_run 0", j);
        WANT("place b%zu_done 0", j);
        WANT("arc b%zu_free b%zu_start normal 1", j, j);
        WANT("arc pending b%zu_start normal 1", j);
        WANT("arc b%zu_start b%zu_run normal 1", j, j);
        WANT("arc b%zu_run b%zu_end normal 1", j, j);
        WANT("arc b%zu_done b%zu_end normal 2", j, j);
        WANT("arc b%zu_end b%zu_free normal 1", j, j);
        for (size_t w = 2 * j; w < 2 * j + 2; w++) {
            WANT("arc w%zu_t16 b%zu_done normal 1", w, j);
            static const int k[] = {1, 2, 3, 5, 7, 9, 23, 26, 29};
            static const int m[] = {1, 1, 1, 3, 1, 5, 1, 2, 2};
            for (int i = 0; i < 9; i++)
                WANT("arc b%zu_start w%zu_p%d normal %d", j, w, k[i], m[i]);
        }
    }
    for (size_t w = 0; w < 4; w++) {
        for (int k = 1; k <= 29; k++)   /* every warp place starts empty */
            if (k != 19)                  /* (p19: pipelined with la) */
                WANT("place w%zu_p%d 0", w, k);
        /* t5: + p29 in; p20 out (waiting for bandwidth) */
        WANT("arc w%zu_p29 w%zu_t5 normal 1", w, w);
        WANT("arc w%zu_t5 w%zu_p20 normal 1", w, w);
        WANT("arc w%zu_t5 w%zu_p12 normal 21", w, w);
        NOT("arc w%zu_t5 w%zu_p21 normal 1", w, w);
        /* t19: p20, dram x T -> p21, p22 x (T-1) */
        WANT("arc w%zu_p20 w%zu_t19 normal 1", w, w);
        WANT("arc dram w%zu_t19 normal 3", w);
        WANT("arc w%zu_t19 w%zu_p21 normal 1", w, w);
        WANT("arc w%zu_t19 w%zu_p22 normal 2", w, w);
        /* t20: p22 -> p21 */
        WANT("arc w%zu_p22 w%zu_t20 normal 1", w, w);
        WANT("arc w%zu_t20 w%zu_p21 normal 1", w, w);
        /* t8 tests p21 x T; t9 takes p21 x T and gives dram x T back */
        WANT("arc w%zu_p21 w%zu_t8 normal 3", w, w);
        WANT("arc w%zu_t8 w%zu_p21 normal 3", w, w);
        WANT("arc w%zu_p21 w%zu_t9 normal 3", w, w);
        WANT("arc w%zu_t9 dram normal 3", w);
        /* L1 hit: t21, t22, t23 over p23, p24, p25 */
        WANT("arc w%zu_p11 w%zu_t21 normal 1", w, w);
        WANT("arc w%zu_p10 w%zu_t21 normal 1", w, w);
        WANT("arc w%zu_p23 w%zu_t21 normal 1", w, w);
        WANT("arc w%zu_t21 p0 normal 1", w);
        WANT("arc w%zu_t21 w%zu_p24 normal 5", w, w);
        WANT("arc w%zu_p24 w%zu_t22 normal 2", w, w);
        WANT("arc w%zu_t22 w%zu_p24 normal 1", w, w);
        WANT("arc w%zu_t22 w%zu_p25 normal 1", w, w);
        WANT("arc w%zu_p24 w%zu_t23 normal 1", w, w);
        WANT("arc w%zu_p25 w%zu_t23 normal 4", w, w);
        WANT("arc w%zu_t23 w%zu_p14 normal 1", w, w);
        /* L2 hit: t24, t25, t26 over p26, p27, p28 */
        WANT("arc w%zu_p11 w%zu_t24 normal 1", w, w);
        WANT("arc w%zu_p10 w%zu_t24 normal 1", w, w);
        WANT("arc w%zu_p26 w%zu_t24 normal 1", w, w);
        WANT("arc w%zu_t24 p0 normal 1", w);
        WANT("arc w%zu_t24 w%zu_p27 normal 7", w, w);
        WANT("arc w%zu_p27 w%zu_t25 normal 2", w, w);
        WANT("arc w%zu_t25 w%zu_p27 normal 1", w, w);
        WANT("arc w%zu_t25 w%zu_p28 normal 1", w, w);
        WANT("arc w%zu_p27 w%zu_t26 normal 1", w, w);
        WANT("arc w%zu_p28 w%zu_t26 normal 6", w, w);
        WANT("arc w%zu_t26 w%zu_p14 normal 1", w, w);
    }
    /* the doc's counts: places 3 + 1 + 3 slots + 29 W (p1 ... p29, no p19),
     * transitions 1 + 2 slots + 23 W, arcs 4 + 6 slots + 101 W */
    ck_assert_int_eq(pn_net_place_count(net), 3 + 1 + 3 * 2 + 28 * 4);
    ck_assert_int_eq(pn_net_transition_count(net), 1 + 2 * 2 + 23 * 4);
    ck_assert_int_eq(pn_net_arc_count(net), 4 + 6 * 2 + 101 * 4);
    list_free(&got);
    pn_net_free(net);
    /* transactions without bandwidth: t5 puts the first transaction in
     * flight and T-1 to send; no p20, t19, dram */
    pn_gpu_params_t q = {.warps = 1, .schedulers = 1, .l1 = 7, .l2 = 2,
        .uniform = {1, 1, 2}, .transactions = 4};
    ck_assert_int_eq(pn_gpu_net(&q, &net), PN_OK);
    got = (list_t){0};
    actual(&got, net);
    WANT("arc w0_t5 w0_p21 normal 1");
    WANT("arc w0_t5 w0_p22 normal 3");
    WANT("arc w0_p21 w0_t9 normal 4");
    WANT("place w0_p9 2");
    NOT("place dram 0");
    size_t idx;
    pn_object_t kind;
    ck_assert_int_ne(pn_net_find(net, "w0_p20", &kind, &idx), PN_OK);
    ck_assert_int_ne(pn_net_find(net, "w0_t19", &kind, &idx), PN_OK);
    ck_assert_int_ne(pn_net_find(net, "w0_p29", &kind, &idx), PN_OK);
    ck_assert_int_eq(pn_net_place_count(net), 2 + 20);
    list_free(&got);
    pn_net_free(net);
    /* bad combinations */
    pn_gpu_params_t bad = q;
    bad.inflight = 3;   /* below T */
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = q;
    bad.l1_hits = 2, bad.l2_hits = 1;   /* 3 hits of 2 accesses */
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = q;
    bad.resident = 2, bad.blocks = 3, bad.warps_per_block = 1; /* 2 warps */
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad.warps = 2;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_OK);
    pn_groups_t *gr = NULL;
    ck_assert_int_eq(pn_gpu_groups(net, &gr), PN_OK);
    pn_groups_free(gr);
    pn_net_free(net);
}
END_TEST

/* What a run sees at each step, for the facts of doc/wpnm.md. */
typedef struct {
    const pn_net_t *net;
    const pn_gpu_params_t *p;
    size_t *idx;   /* place index by name, looked up once */
} facts_t;

static size_t place_of(const pn_net_t *net, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static size_t place_of(const pn_net_t *net, const char *fmt, ...)
{
    char id[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(id, sizeof id, fmt, ap);
    va_end(ap);
    size_t i;
    pn_object_t kind;
    ck_assert_msg(pn_net_find(net, id, &kind, &i) == PN_OK, "no %s", id);
    return i;
}

/* Runs p's net with seed until it is dead, checking on every step the
 * conservation facts of the constructs it has; returns the steps. */
static uint64_t run_facts(const pn_gpu_params_t *p, uint64_t seed)
{
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(p, &net), PN_OK);
    pn_engine_t *eng;
    ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
    size_t W = p->warps, WB = p->warps_per_block;
    size_t slots = p->resident ? W / WB : 0;
    size_t p0 = place_of(net, "p0"), active = place_of(net, "active");
    size_t dram = p->inflight ? place_of(net, "dram") : 0;
    size_t pending = slots ? place_of(net, "pending") : 0;
    int tx = p->inflight || p->transactions > 1;
    int hits = p->l1_hits || p->l2_hits;
    size_t (*wp)[30] = calloc(W, sizeof *wp);
    for (size_t w = 0; w < W; w++)
        for (int k = 1; k <= 29; k++) {
            char id[64];
            snprintf(id, sizeof id, "w%zu_p%d", w, k);
            pn_object_t kind;
            if (pn_net_find(net, id, &kind, &wp[w][k]) != PN_OK)
                wp[w][k] = (size_t)-1;
        }
    size_t (*bp)[3] = calloc(slots + 1, sizeof *bp);
    for (size_t j = 0; j < slots; j++) {
        bp[j][0] = place_of(net, "b%zu_free", j);
        bp[j][1] = place_of(net, "b%zu_run", j);
        bp[j][2] = place_of(net, "b%zu_done", j);
    }
    uint64_t T = p->transactions > 1 ? p->transactions : 1;
    pn_sim_t *sim = pn_sim_new(eng, seed, PN_SEM_MAXIMAL, 0);
    pn_end_t end = PN_END_NONE;
    while (end == PN_END_NONE) {
        ck_assert_int_eq(pn_sim_step(sim, &end), PN_OK);
        const uint64_t *m = pn_sim_marking(sim);
        /* bandwidth: dram + the transactions held = K, so at most K are
         * in flight */
        if (p->inflight) {
            uint64_t held = m[dram];
            for (size_t w = 0; w < W; w++)
                held += m[wp[w][21]] + (T > 1 ? m[wp[w][22]] : 0);
            ck_assert_uint_eq(held, p->inflight);
            ck_assert_uint_le(p->inflight - m[dram], p->inflight);
        }
        /* transactions: an access has at most T out (p21 + p22) */
        for (size_t w = 0; tx && w < W; w++)
            ck_assert_uint_le(m[wp[w][21]] + (T > 1 ? m[wp[w][22]] : 0), T);
        /* cache hits: the kinds left equal the accesses not issued */
        for (size_t w = 0; hits && w < W; w++) {
            uint64_t kinds = m[wp[w][29]];
            if (p->l1_hits)
                kinds += m[wp[w][23]];
            if (p->l2_hits)
                kinds += m[wp[w][26]];
            ck_assert_uint_eq(kinds, m[wp[w][9]] + m[wp[w][10]]);
        }
        /* pipelined: a scheduler is free or held by an issuing warp */
        if (p->pipelined) {
            uint64_t s = m[p0];
            for (size_t w = 0; w < W; w++)
                s += m[wp[w][11]];
            ck_assert_uint_eq(s, p->schedulers);
        }
        /* blocks: a slot is free or runs a block; the active warps are the
         * pending blocks' and the running blocks' warps not yet ended */
        if (slots) {
            uint64_t act = m[pending] * WB;
            for (size_t j = 0; j < slots; j++) {
                ck_assert_uint_eq(m[bp[j][0]] + m[bp[j][1]], 1);
                act += m[bp[j][1]] * WB - m[bp[j][2]];
            }
            ck_assert_uint_eq(act, m[active]);
        }
    }
    ck_assert_int_eq(end, PN_END_DEAD);
    const uint64_t *m = pn_sim_marking(sim);
    ck_assert_uint_eq(m[active], 0);
    ck_assert_uint_eq(m[p0], p->schedulers);
    if (p->inflight)
        ck_assert_uint_eq(m[dram], p->inflight);
    if (slots)
        ck_assert_uint_eq(m[pending], 0);
    uint64_t steps = pn_sim_steps(sim);
    pn_sim_free(sim);
    pn_engine_free(eng);
    pn_net_free(net);
    free(wp);
    free(bp);
    return steps;
}

/* One warp alone (doc/wpnm.md): 4 xa + (5 + l2) xs + (5 + lh1) h1 +
 * (5 + lh2) h2 + (4 + T + l1 [+1 with K]) per DRAM access + 1. */
static uint64_t one_warp(const pn_gpu_params_t *p)
{
    uint64_t T = p->transactions > 1 ? p->transactions : 1;
    uint64_t dram = p->uniform.global - p->l1_hits - p->l2_hits;
    return 4 * p->uniform.arith + (5 + p->l2) * p->uniform.shared +
           (5 + p->l1_hit_latency) * p->l1_hits +
           (5 + p->l2_hit_latency) * p->l2_hits +
           (4 + T + p->l1 + (p->inflight != 0)) * dram + 1;
}

START_TEST(construct_facts)
{
    /* closed forms of one warp */
    pn_gpu_params_t one = {.warps = 1, .schedulers = 1, .l1 = 20, .l2 = 2,
        .uniform = {3, 2, 7}, .transactions = 4, .inflight = 4,
        .l1_hits = 2, .l2_hits = 1, .l1_hit_latency = 3,
        .l2_hit_latency = 9};
    for (uint64_t seed = 1; seed <= 5; seed++)
        ck_assert_uint_eq(run_facts(&one, seed), one_warp(&one));
    one.inflight = 0;
    ck_assert_uint_eq(run_facts(&one, 1), one_warp(&one));
    one.transactions = 1, one.l1_hits = 0, one.l2_hits = 0;
    ck_assert_uint_eq(run_facts(&one, 1), 4 * 3 + 7 * 2 + 25 * 7 + 1);
    /* bandwidth: K tokens, each access holds T of them for T + l1 steps,
     * so steps >= accesses T (T + l1) / K; 32 warps of 10 accesses of
     * 4 transactions on K = 16 are bound by it (steps within 10% of the
     * bound) and take over twice the steps of the net without the place;
     * at most K transactions in flight on every step of 20 runs */
    pn_gpu_params_t bw = {.warps = 32, .schedulers = 4, .l1 = 20, .l2 = 2,
        .uniform = {2, 0, 10}, .transactions = 4, .inflight = 16};
    uint64_t bound = 32 * 10 * 4 * (4 + 20) / 16;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        uint64_t st = run_facts(&bw, seed);
        ck_assert_uint_ge(st, bound);
        ck_assert_uint_le(st, bound + bound / 10);
    }
    pn_gpu_params_t free_bw = bw;
    free_bw.inflight = 0;
    ck_assert_uint_ge(run_facts(&bw, 1), 2 * run_facts(&free_bw, 1));
    /* the block scheduler: with a scheduler for every warp the blocks of a
     * slot run one after another, each one warp's steps plus 2 (start,
     * end): ceil(B / R) (X1 + 2) exactly */
    pn_gpu_params_t blk = {.schedulers = 64, .l1 = 20, .l2 = 2,
        .uniform = {3, 1, 2}, .resident = 3, .warps_per_block = 4};
    static const uint64_t B[] = {1, 2, 3, 4, 7, 9};
    for (size_t i = 0; i < 6; i++) {
        blk.blocks = B[i];
        blk.warps = (B[i] < 3 ? B[i] : 3) * 4;
        uint64_t waves = (B[i] + 2) / 3;
        ck_assert_uint_eq(run_facts(&blk, i + 1),
                          waves * (one_warp(&blk) + 2));
    }
    /* with 2 schedulers, pipelined issue, bandwidth and hits: the facts on
     * every step of 20 runs, and no fewer steps than the waves alone */
    pn_gpu_params_t all = {.warps = 8, .schedulers = 2, .l1 = 20, .l2 = 4,
        .uniform = {5, 2, 6}, .pipelined = 1, .la = 3, .resident = 2,
        .blocks = 5, .warps_per_block = 4, .transactions = 2, .inflight = 6,
        .l1_hits = 2, .l2_hits = 1, .l1_hit_latency = 3,
        .l2_hit_latency = 8};
    for (uint64_t seed = 1; seed <= 20; seed++)
        ck_assert_uint_ge(run_facts(&all, seed), 3 * (one_warp(&all) + 2));
}
END_TEST

/* Load slots (--mlp K, doc/wpnm.md): the arcs of the table, the facts on
 * every step (no warp has more than K accesses in flight), K = 1 as the
 * paper's net, and the overlapped closed form of one warp. */
static uint64_t run_slots(const pn_gpu_params_t *p, uint64_t seed)
{
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(p, &net), PN_OK);
    pn_engine_t *eng;
    ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
    size_t W = p->warps, K = p->mlp;
    size_t *slot = calloc(W, sizeof *slot), *cd = calloc(W * K, sizeof *cd);
    size_t *p1 = calloc(W, sizeof *p1);
    for (size_t w = 0; w < W; w++) {
        slot[w] = place_of(net, "w%zu_p30", w);
        p1[w] = place_of(net, "w%zu_p1", w);
        cd[w * K] = place_of(net, "w%zu_p12", w);
        for (size_t j = 1; j < K; j++)
            cd[w * K + j] = place_of(net, "w%zu_p%zu", w, 29 + 2 * j);
    }
    pn_sim_t *sim = pn_sim_new(eng, seed, PN_SEM_MAXIMAL, 0);
    pn_end_t end = PN_END_NONE;
    size_t most = 0;
    while (end == PN_END_NONE) {
        ck_assert_int_eq(pn_sim_step(sim, &end), PN_OK);
        const uint64_t *m = pn_sim_marking(sim);
        for (size_t w = 0; w < W; w++) {
            size_t busy = 0;
            for (size_t j = 0; j < K; j++)
                busy += m[cd[w * K + j]] > 0;
            /* while the warp runs (p1; t16 takes the K slots at its end) */
            ck_assert_uint_eq(m[slot[w]] + busy, m[p1[w]] ? K : 0);
            if (busy > most)
                most = busy;
        }
    }
    ck_assert_int_eq(end, PN_END_DEAD);
    const uint64_t *m = pn_sim_marking(sim);
    for (size_t w = 0; w < W; w++)
        ck_assert_uint_eq(m[slot[w]], 0);
    /* the slots are used: more than one access in flight at some step
     * (an issue every 3 steps at best, so with a latency over 2) */
    if (p->uniform.global > 1 && p->l1 > 2)
        ck_assert_uint_gt(most, 1);
    uint64_t steps = pn_sim_steps(sim);
    pn_sim_free(sim);
    pn_engine_free(eng);
    pn_net_free(net);
    free(slot);
    free(cd);
    free(p1);
    return steps;
}

START_TEST(load_slots)
{
    /* arc by arc: one warp, K = 3, l1 = 20 */
    pn_gpu_params_t p = {.warps = 2, .schedulers = 1, .l1 = 20, .l2 = 2,
        .uniform = {2, 1, 5}, .mlp = 3};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    list_t got = {0};
    actual(&got, net);
    for (size_t w = 0; w < 2; w++) {
        WANT("place w%zu_p30 3", w);
        NOT("place w%zu_p14 0", w);
        static const int issue[] = {5, 27, 30}, count[] = {8, 28, 31},
                         done[] = {9, 29, 32}, cdp[] = {12, 31, 33},
                         elp[] = {13, 32, 34};
        for (int j = 0; j < 3; j++) {
            int t = issue[j], c = cdp[j], e = elp[j];
            if (j) {
                WANT("place w%zu_p%d 0", w, c);
                WANT("place w%zu_p%d 0", w, e);
            }
            WANT("arc w%zu_p11 w%zu_t%d normal 1", w, w, t);
            WANT("arc w%zu_p10 w%zu_t%d normal 1", w, w, t);
            WANT("arc w%zu_p30 w%zu_t%d normal 1", w, w, t);
            WANT("arc w%zu_p%d w%zu_t%d inhibitor 1", w, c, w, t);
            WANT("arc w%zu_t%d p0 normal 1", w, t);
            WANT("arc w%zu_t%d w%zu_p%d normal 21", w, t, w, c);
            WANT("arc w%zu_t%d w%zu_p2 normal 1", w, t, w);
            WANT("arc w%zu_t%d w%zu_p3 normal 1", w, t, w);
            WANT("arc w%zu_p%d w%zu_t%d normal 2", w, c, w, count[j]);
            WANT("arc w%zu_t%d w%zu_p%d normal 1", w, count[j], w, c);
            WANT("arc w%zu_t%d w%zu_p%d normal 1", w, count[j], w, e);
            WANT("arc w%zu_p%d w%zu_t%d normal 1", w, c, w, done[j]);
            WANT("arc w%zu_p%d w%zu_t%d normal 20", w, e, w, done[j]);
            WANT("arc w%zu_t%d w%zu_p30 normal 1", w, done[j], w);
        }
        WANT("arc w%zu_p30 w%zu_t16 normal 3", w, w);
        NOT("arc w%zu_t9 w%zu_p14 normal 1", w, w);
    }
    list_free(&got);
    pn_net_free(net);
    /* the groups of pn-run's timeline still know every node */
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    pn_groups_t *gr;
    ck_assert_int_eq(pn_gpu_groups(net, &gr), PN_OK);
    pn_groups_free(gr);
    pn_net_free(net);
    /* K = 1 is the paper's net, node for node */
    pn_gpu_params_t a = {.warps = 3, .schedulers = 2, .l1 = 9, .l2 = 2,
        .uniform = {4, 2, 3}, .pipelined = 1, .la = 2};
    pn_gpu_params_t b = a;
    b.mlp = 1;
    pn_net_t *na, *nb;
    ck_assert_int_eq(pn_gpu_net(&a, &na), PN_OK);
    ck_assert_int_eq(pn_gpu_net(&b, &nb), PN_OK);
    list_t la = {0}, lb = {0};
    actual(&la, na);
    actual(&lb, nb);
    ck_assert_uint_eq(la.n, lb.n);
    for (size_t i = 0; i < la.n; i++)
        ck_assert_str_eq(la.v[i], lb.v[i]);
    list_free(&la);
    list_free(&lb);
    pn_net_free(na);
    pn_net_free(nb);
    ck_assert_uint_eq(run_steps(&a, 0), run_steps(&b, 0));
    /* one warp of global accesses, K >= xg: 3 xg + l1 + 2 steps (the
     * paper's net: (5 + l1) xg + 1) */
    static const uint64_t n[] = {1, 4, 8}, l[] = {0, 7, 20};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            pn_gpu_params_t o = {.warps = 1, .schedulers = 1, .l1 = l[k],
                .uniform = {0, 0, n[i]}, .mlp = n[i] < 2 ? 2 : n[i]};
            ck_assert_uint_eq(run_slots(&o, 1), 3 * n[i] + l[k] + 2);
            o.pipelined = 1;
            ck_assert_uint_eq(run_slots(&o, 2), 3 * n[i] + l[k] + 2);
            o.mlp = 1;
            ck_assert_uint_eq(run_steps(&o, 0), (5 + l[k]) * n[i] + 1);
        }
    /* many warps, blocks, pipelined: the facts on every step of 10 runs,
     * never more steps than the paper's frame */
    pn_gpu_params_t m = {.warps = 8, .schedulers = 2, .l1 = 30, .l2 = 3,
        .uniform = {6, 2, 8}, .pipelined = 1, .la = 2, .resident = 2,
        .blocks = 5, .warps_per_block = 4, .mlp = 4};
    pn_gpu_params_t m1 = m;
    m1.mlp = 1;
    uint64_t paper = run_facts(&m1, 1);
    for (uint64_t seed = 1; seed <= 10; seed++)
        ck_assert_uint_lt(run_slots(&m, seed), paper);
    /* the mixes it refuses, and the most slots */
    pn_gpu_params_t bad = p;
    bad.transactions = 2;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = p, bad.inflight = 4;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = p, bad.l1_hits = 1;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = p, bad.mlp = PN_GPU_MAX_MLP + 1;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = p, bad.mlp = PN_GPU_MAX_MLP;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_OK);
    ck_assert_int_eq(pn_gpu_groups(net, &gr), PN_OK);
    pn_groups_free(gr);
    pn_net_free(net);
    pn_gpu_options_t opt;
    pn_gpu_options_init(&opt);
    ck_assert_uint_eq(opt.mlp, 1);
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_option_set(&opt, (size_t)pn_gpu_option_find("mlp"),
                                       "4", &err), PN_OK);
    ck_assert_int_eq(pn_gpu_option_set(&opt,
                         (size_t)pn_gpu_option_find("inflight"), "8", &err),
                     PN_OK);
    pn_gpu_warp_t *work;
    ck_assert_int_eq(pn_gpu_options_resolve(&opt, &p, &work, &err), PN_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "mlp 4"));
}
END_TEST

/* Barriers (--barriers B, doc/wpnm.md): on every step no warp runs an
 * instruction past a barrier that a warp of its block has not reached,
 * every run ends with the barrier places empty; a block's phase takes as
 * long as its slowest warp; B = 0 is the net without barriers. */
static uint64_t run_barriers(const pn_gpu_params_t *p, uint64_t seed)
{
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(p, &net), PN_OK);
    pn_engine_t *eng;
    ck_assert_int_eq(pn_engine_compile(net, &eng), PN_OK);
    size_t W = p->warps, WB = p->warps_per_block ? p->warps_per_block : W;
    size_t *wait = calloc(W, sizeof *wait), *left = calloc(W, sizeof *left);
    size_t *p1 = calloc(W, sizeof *p1);
    for (size_t w = 0; w < W; w++) {
        wait[w] = place_of(net, "w%zu_p%d", w, PN_GPU_BAR_WAIT);
        left[w] = place_of(net, "w%zu_p%d", w, PN_GPU_BAR_LEFT);
        p1[w] = place_of(net, "w%zu_p1", w);
    }
    pn_sim_t *sim = pn_sim_new(eng, seed, PN_SEM_MAXIMAL, 0);
    pn_end_t end = PN_END_NONE;
    uint64_t met = 0;
    while (end == PN_END_NONE) {
        ck_assert_int_eq(pn_sim_step(sim, &end), PN_OK);
        const uint64_t *m = pn_sim_marking(sim);
        for (size_t w = 0; w < W; w++) {
            ck_assert_uint_le(m[left[w]], p->barriers);
            ck_assert_uint_le(m[wait[w]], 1);
            if (!m[p1[w]] || m[wait[w]])
                continue;
            /* w runs after its (B - left)-th barrier: every warp of its
             * block has reached that barrier */
            size_t b0 = w / WB * WB;
            for (size_t v = b0; v < b0 + WB; v++)
                if (m[p1[v]])
                    ck_assert_uint_le(m[left[v]], m[left[w]]);
            if (m[left[w]] < p->barriers)
                met = 1;
        }
    }
    ck_assert_int_eq(end, PN_END_DEAD);
    const uint64_t *m = pn_sim_marking(sim);
    for (size_t w = 0; w < W; w++)
        ck_assert_uint_eq(m[wait[w]] + m[left[w]] + m[p1[w]], 0);
    ck_assert_uint_eq(met, p->barriers > 0);
    uint64_t steps = pn_sim_steps(sim);
    pn_sim_free(sim);
    pn_engine_free(eng);
    pn_net_free(net);
    free(wait);
    free(left);
    free(p1);
    return steps;
}

START_TEST(barriers)
{
    /* arc by arc: 4 warps in blocks of 2, 2 barriers, 7 arithmetic
     * instructions: phases of 3, 2, 2 */
    pn_gpu_params_t p = {.warps = 4, .schedulers = 1, .l1 = 20, .l2 = 2,
        .uniform = {7, 1, 3}, .warps_per_block = 2, .barriers = 2};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    list_t got = {0};
    actual(&got, net);
    for (size_t w = 0; w < 4; w++) {
        WANT("place w%zu_p5 3", w);
        WANT("place w%zu_p7 1", w);
        WANT("place w%zu_p9 1", w);
        WANT("place w%zu_p100 0", w);
        WANT("place w%zu_p101 2", w);
        WANT("arc w%zu_p2 w%zu_t120 normal 1", w, w);
        WANT("arc w%zu_p3 w%zu_t120 normal 1", w, w);
        WANT("arc w%zu_p101 w%zu_t120 normal 1", w, w);
        WANT("arc w%zu_p5 w%zu_t120 inhibitor 1", w, w);
        WANT("arc w%zu_p7 w%zu_t120 inhibitor 1", w, w);
        WANT("arc w%zu_p9 w%zu_t120 inhibitor 1", w, w);
        WANT("arc w%zu_t120 w%zu_p100 normal 1", w, w);
        WANT("arc w%zu_p101 w%zu_t16 inhibitor 1", w, w);
        size_t b = w / 2;
        WANT("arc w%zu_p100 b%zu_sync normal 1", w, b);
        WANT("arc b%zu_sync w%zu_p2 normal 1", b, w);
        WANT("arc b%zu_sync w%zu_p3 normal 1", b, w);
        WANT("arc b%zu_sync w%zu_p5 normal 2", b, w);
        WANT("arc b%zu_sync w%zu_p9 normal 1", b, w);
        NOT("arc b%zu_sync w%zu_p7 normal 0", b, w);   /* 1 / 3 is 0 */
        NOT("arc w%zu_p100 b%zu_sync normal 1", w, 1 - b);
    }
    list_free(&got);
    pn_groups_t *gr;
    ck_assert_int_eq(pn_gpu_groups(net, &gr), PN_OK);
    pn_groups_free(gr);
    pn_net_free(net);
    /* the facts on every step, with and without blocks and load slots */
    for (uint64_t seed = 1; seed <= 10; seed++) {
        run_barriers(&p, seed);
        pn_gpu_params_t q = {.warps = 6, .schedulers = 2, .l1 = 15, .l2 = 3,
            .uniform = {9, 4, 5}, .pipelined = 1, .la = 2, .resident = 2,
            .blocks = 5, .warps_per_block = 3, .barriers = 3,
            .mlp = seed % 2 ? 3 : 1};
        run_barriers(&q, seed);
    }
    /* one warp (or W in lockstep): 2 steps a barrier (arrive, meet) */
    pn_gpu_params_t one = {.warps = 1, .schedulers = 1, .l1 = 20, .l2 = 2,
        .uniform = {8, 4, 8}};
    uint64_t base = 4 * 8 + 7 * 4 + 25 * 8 + 1;
    ck_assert_uint_eq(run_steps(&one, 0), base);
    for (uint64_t b = 1; b <= 7; b += 3) {
        one.barriers = b;
        ck_assert_uint_eq(run_barriers(&one, b), base + 2 * b);
    }
    /* a phase takes as long as the block's slowest warp: warp 0 has 8
     * arithmetic instructions (16 steps a phase of 4), warp 1 two global
     * accesses (25 steps a phase of 1): 2 * 25 + 2 + 1 steps, against
     * 2 * 25 + 1 without the barrier */
    pn_gpu_warp_t work[2] = {{8, 0, 0}, {0, 0, 2}};
    pn_gpu_params_t two = {.warps = 2, .schedulers = 2, .l1 = 20, .l2 = 2,
        .work = work};
    ck_assert_uint_eq(run_steps(&two, 0), 51);
    two.barriers = 1;
    ck_assert_uint_eq(run_barriers(&two, 3), 53);
    /* B = 0 is the net without barriers, node for node */
    pn_gpu_params_t a = p, z = p;
    a.barriers = 0, a.warps_per_block = 0;
    z.barriers = 0;
    pn_net_t *na, *nz;
    ck_assert_int_eq(pn_gpu_net(&a, &na), PN_OK);
    ck_assert_int_eq(pn_gpu_net(&z, &nz), PN_OK);
    list_t la = {0}, lz = {0};
    actual(&la, na);
    actual(&lz, nz);
    ck_assert_uint_eq(la.n, lz.n);
    for (size_t i = 0; i < la.n; i++)
        ck_assert_str_eq(la.v[i], lz.v[i]);
    list_free(&la);
    list_free(&lz);
    pn_net_free(na);
    pn_net_free(nz);
    /* what it refuses: hits, warps that are not whole blocks */
    pn_gpu_params_t bad = p;
    bad.l1_hits = 1;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    bad = p, bad.warps = 3;
    ck_assert_int_eq(pn_gpu_net(&bad, &net), PN_EINVAL);
    pn_gpu_options_t opt;
    pn_gpu_options_init(&opt);
    ck_assert_uint_eq(opt.barriers, 0);
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_option_set(&opt,
                         (size_t)pn_gpu_option_find("warps-per-block"), "5",
                         &err), PN_OK);
    pn_gpu_warp_t *wk;
    ck_assert_int_eq(pn_gpu_options_resolve(&opt, &p, &wk, &err), PN_EINVAL);
    ck_assert_int_eq(pn_gpu_option_set(&opt,
                         (size_t)pn_gpu_option_find("barriers"), "2", &err),
                     PN_OK);
    ck_assert_int_eq(pn_gpu_options_resolve(&opt, &p, &wk, &err), PN_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "whole blocks"));
    ck_assert_int_eq(pn_gpu_option_set(&opt,
                         (size_t)pn_gpu_option_find("warps-per-block"), "4",
                         &err), PN_OK);
    ck_assert_int_eq(pn_gpu_options_resolve(&opt, &p, &wk, &err), PN_OK);
    ck_assert_uint_eq(p.barriers, 2);
    ck_assert_uint_eq(p.warps_per_block, 4);
}
END_TEST

/* The options that make the constructs: names, ranges, what goes
 * together, and the warps they give. */
START_TEST(construct_options)
{
    pn_gpu_options_t o;
    pn_gpu_params_t p;
    pn_gpu_warp_t *work;
    pn_error_t err;
#define SET(n, v) ck_assert_int_eq(pn_gpu_option_set(&o, (size_t)pn_gpu_option_find(n), v, &err), PN_OK)
    pn_gpu_options_init(&o);
    ck_assert_uint_eq(o.transactions, 1);
    ck_assert_uint_eq(o.inflight, 0);
    ck_assert_uint_eq(o.resident, 0);
    SET("resident", "3");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "resident needs blocks"));
    SET("blocks", "100");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "warps-per-block or threads-per-block"));
    SET("threads-per-block", "100");   /* 4 warps */
    SET("sms", "30");                  /* ceil(100 / 30) = 4 blocks */
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_OK);
    ck_assert_uint_eq(p.blocks, 4);
    ck_assert_uint_eq(p.warps_per_block, 4);
    ck_assert_uint_eq(p.warps, 12);
    ck_assert_uint_eq(p.resident, 3);
    SET("warps-per-block", "2");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    pn_gpu_options_init(&o);
    SET("warps-per-block", "2");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "needs resident"));
    SET("resident", "8");
    SET("blocks", "3");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_OK);
    ck_assert_uint_eq(p.warps, 6);   /* min(8, 3) slots of 2 */
    SET("warps", "6");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    pn_gpu_options_init(&o);
    SET("transactions", "4");
    SET("inflight", "3");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "inflight 3 is below transactions 4"));
    SET("inflight", "4");
    SET("l1-hits", "3");
    SET("l2-hits", "2");   /* 5 of the 4 default global accesses */
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "l1-hits 3 and l2-hits 2"));
    SET("l2-hits", "1");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_OK);
    ck_assert_uint_eq(p.l1_hits, 3);
    ck_assert_uint_eq(p.l1_hit_latency, 5);
    ck_assert_uint_eq(p.l2_hit_latency, 10);
    ck_assert_uint_eq(p.inflight, 4);
    ck_assert_int_eq(pn_gpu_option_set(&o, (size_t)pn_gpu_option_find("inflight"), "0", &err), PN_ERANGE);
    /* a device's specification: the rows not given take the table's row
     * of the capability (gpu/device.c: sm_80 has 4 schedulers, DRAM 450,
     * L2 200, shared 29, arithmetic 4, L1 33 cycles) */
    pn_gpu_options_init(&o);
    SET("arch", "sm_80");
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "pn_gpu_options_arch"));
    SET("l2", "7");
    SET("pipelined", "1");
    ck_assert_int_eq(pn_gpu_options_arch(&o, &err), PN_OK);
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &p, &work, &err), PN_OK);
    const pn_gpu_arch_t *a = pn_gpu_arch_find(8, 0);
    ck_assert_uint_eq(p.schedulers, a->schedulers);
    ck_assert_uint_eq(p.schedulers, 4);
    ck_assert_uint_eq(p.l1, 450);
    ck_assert_uint_eq(p.l2, 7);   /* given: kept */
    ck_assert_uint_eq(p.la, 4);
    ck_assert_uint_eq(p.l1_hit_latency, 33);
    ck_assert_uint_eq(p.l2_hit_latency, 200);
    static const char *const same[] = {"sm80", "8.0"};
    for (int i = 0; i < 2; i++) {
        pn_gpu_options_init(&o);
        SET("arch", same[i]);
        ck_assert_int_eq(pn_gpu_options_arch(&o, &err), PN_OK);
        ck_assert_uint_eq(o.l1, 450);
    }
    pn_gpu_options_init(&o);
    SET("arch", "volta");
    ck_assert_int_eq(pn_gpu_options_arch(&o, &err), PN_EVALUE);
    ck_assert(strstr(err.text, "'volta' is not a compute capability"));
    pn_gpu_options_init(&o);
    SET("arch", "2.0");
    ck_assert_int_eq(pn_gpu_options_arch(&o, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "no row for compute capability 2.0"));
    pn_gpu_options_init(&o);   /* no arch: nothing to do */
    ck_assert_int_eq(pn_gpu_options_arch(&o, &err), PN_OK);
    ck_assert_uint_eq(o.l1, 20);
#undef SET
}
END_TEST

/* The timing of node id: its kind and rate. */
static void timing_is(const pn_net_t *net, const char *id, pn_timing_t k,
                      double rate)
{
    pn_object_t kind;
    size_t i;
    ck_assert_int_eq(pn_net_find(net, id, &kind, &i), PN_OK);
    ck_assert_int_eq(kind, PN_TRANSITION);
    const pn_transition_t *t = pn_net_transition(net, i);
    ck_assert_msg(t->timing == k && t->rate == rate,
                  "%s: %s %g, wanted %s %g", id, pn_timing_name(t->timing),
                  t->rate, pn_timing_name(k), rate);
    ck_assert_int_eq(t->server, PN_SERVER_SINGLE);
}

/* The weight of the arc from src to dst. */
static uint64_t weight_of(const pn_net_t *net, const char *id)
{
    pn_object_t kind;
    size_t i;
    ck_assert_int_eq(pn_net_find(net, id, &kind, &i), PN_OK);
    return pn_net_arc(net, i)->weight;
}

/* The net with time (doc/wpnm.md): selections immediate, the issue of
 * mean 2, every other step of mean 1, a latency L in min(K, L) stages of
 * rate min(K, L) / L; the timing survives a round trip. */
START_TEST(timed_net)
{
    pn_gpu_params_t p = {.warps = 2, .schedulers = 2, .l1 = 20, .l2 = 2,
        .uniform = {3, 2, 1}, .stochastic = 1};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    timing_is(net, "t0", PN_TIMING_EXPONENTIAL, 1.0);
    timing_is(net, "w1_t2", PN_TIMING_IMMEDIATE, 1.0);
    timing_is(net, "w1_t3", PN_TIMING_IMMEDIATE, 1.0);
    timing_is(net, "w0_t4", PN_TIMING_IMMEDIATE, 1.0);
    timing_is(net, "w0_t1", PN_TIMING_EXPONENTIAL, 0.5);
    timing_is(net, "w0_t8", PN_TIMING_EXPONENTIAL, 1.0);
    timing_is(net, "w1_t16", PN_TIMING_EXPONENTIAL, 1.0);
    ck_assert_uint_eq(weight_of(net, "a_w0_t5_w0_p12"), 21);
    pn_status_t st;
    pn_net_t *back = reread(net, PN_DIALECT_STANDARD, &st);
    ck_assert_int_eq(st, PN_OK);
    timing_is(back, "w1_t3", PN_TIMING_IMMEDIATE, 1.0);
    timing_is(back, "w0_t1", PN_TIMING_EXPONENTIAL, 0.5);
    pn_net_free(back);
    pn_net_free(net);
    /* 4 stages of the 20 steps of l1; l2 = 2 keeps its 2 */
    p.stages = 4;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    timing_is(net, "w1_t8", PN_TIMING_EXPONENTIAL, 0.2);
    timing_is(net, "w1_t17", PN_TIMING_EXPONENTIAL, 1.0);
    ck_assert_uint_eq(weight_of(net, "a_w1_t5_w1_p12"), 5);
    ck_assert_uint_eq(weight_of(net, "a_w1_p13_w1_t9"), 4);
    ck_assert_uint_eq(weight_of(net, "a_w1_t6_w1_p15"), 3);
    pn_net_free(net);
    /* the step net has no timing; stages need time; load slots and hits
     * would race */
    p.stochastic = 0;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_EINVAL);
    p.stages = 0;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    timing_is(net, "w0_t1", PN_TIMING_NONE, 1.0);
    pn_net_free(net);
    p.stochastic = 1;
    p.mlp = 2;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_EINVAL);
    p.mlp = 0;
    p.l2_hits = 1;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_EINVAL);
    /* the options say why */
    pn_gpu_options_t o;
    pn_gpu_params_t q;
    pn_gpu_warp_t *work;
    pn_error_t err;
    pn_gpu_options_init(&o);
    ck_assert_int_eq(pn_gpu_option_set(&o, (size_t)pn_gpu_option_find(
                         "stages"), "3", &err), PN_OK);
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &q, &work, &err), PN_EINVAL);
    ck_assert(strstr(err.text, "stages needs stochastic"));
    ck_assert_int_eq(pn_gpu_option_set(&o, (size_t)pn_gpu_option_find(
                         "stochastic"), "1", &err), PN_OK);
    ck_assert_int_eq(pn_gpu_options_resolve(&o, &q, &work, &err), PN_OK);
    ck_assert(q.stochastic == 1 && q.stages == 3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, matches_the_table);
    tcase_add_test(tc, pipelined_matches_the_table);
    tcase_add_test(tc, pipelined_facts);
    tcase_add_test(tc, bad_parameters);
    tcase_add_test(tc, labels_do_not_overlap);
    tcase_add_test(tc, layout_on_the_editors_grid);
    tcase_add_test(tc, round_trips);
    tcase_add_test(tc, option_table);
    tcase_add_test(tc, workload_files);
    tcase_add_test(tc, launch_formula);
    tcase_add_test(tc, constructs_arc_by_arc);
    tcase_add_test(tc, construct_facts);
    tcase_add_test(tc, construct_options);
    tcase_add_test(tc, load_slots);
    tcase_add_test(tc, barriers);
    tcase_add_test(tc, timed_net);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
