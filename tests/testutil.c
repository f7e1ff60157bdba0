/*
 * Helpers shared by the Check programs that compare the toolkit against
 * brute force on random nets (tests/testutil.h): the random nets and
 * formulas of a given shape, and the firing rule and reachability graph
 * written from the semantics' text, apart from the engine.
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "engine_private.h"
#include "lib_private.h"
#include "testutil.h"

/* ---- random nets ----------------------------------------------------------- */

/* One arc of t and p: normal r < normal (r in 0..9), inhibitor below inh,
 * read below read, else reset; kinds 0 keeps it normal, kinds 1 turns a
 * reset into a read.  A normal arc goes either way. */
static pn_arc_kind_t arc_kind(pni_rng_t *rng, const tu_shape_t *sh,
                              int kinds)
{
    uint64_t r = pni_rng_below(rng, 10);
    return r < sh->normal || kinds == 0 ? PN_ARC_NORMAL
           : r < sh->inh ? PN_ARC_INHIBITOR
           : r < sh->read || kinds == 1 ? PN_ARC_READ : PN_ARC_RESET;
}

void tu_random_arc(pni_rng_t *rng, pn_net_t *net, const tu_shape_t *sh,
                   int kinds, size_t p, size_t t)
{
    pn_arc_kind_t kind = arc_kind(rng, sh, kinds);
    pn_arc_dir_t dir = kind == PN_ARC_NORMAL && pni_rng_below(rng, 2)
                           ? PN_DIR_TP : PN_DIR_PT;
    pn_net_add_arc_at(net, NULL, dir, p, t, 1 + pni_rng_below(rng, 2), kind,
                      NULL);
}

pn_net_t *tu_random_net(pni_rng_t *rng, const tu_shape_t *sh, int kinds)
{
    pn_net_t *net = pn_net_new(sh->id);
    size_t np = sh->p_min + (size_t)pni_rng_below(rng, sh->p_span);
    size_t nt = sh->t_min + (size_t)pni_rng_below(rng, sh->t_span);
    char id[32];
    int caps = sh->caps_in == 1 ||
               (sh->caps_in > 1 && pni_rng_below(rng, sh->caps_in) == 0);
    for (size_t p = 0; p < np; p++) {
        snprintf(id, sizeof id, "p%zu", p);
        pn_net_add_place(net, id, NULL, pni_rng_below(rng, sh->tokens), NULL);
        if (caps && (!sh->caps_half || pni_rng_below(rng, 2)))
            pn_net_set_capacity(net, p,
                                sh->cap_min + pni_rng_below(rng, sh->cap_span));
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(id, sizeof id, "t%zu", t);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    /* every_t: one arc each transition first, then the rest at random */
    size_t na = (sh->every_t ? nt : sh->a_min) +
                (size_t)pni_rng_below(rng, sh->a_mul * nt);
    for (size_t i = 0; i < na; i++) {
        if (sh->ends_last) {
            /* the kind and way first, then weight, transition and place */
            pn_arc_kind_t kind = arc_kind(rng, sh, kinds);
            pn_arc_dir_t dir = kind == PN_ARC_NORMAL && pni_rng_below(rng, 2)
                                   ? PN_DIR_TP : PN_DIR_PT;
            uint64_t w = 1 + pni_rng_below(rng, 2);
            size_t t = (size_t)pni_rng_below(rng, nt);
            size_t p = (size_t)pni_rng_below(rng, np);
            pn_net_add_arc_at(net, NULL, dir, p, t, w, kind, NULL);
            continue;
        }
        size_t p = (size_t)pni_rng_below(rng, np);
        size_t t = sh->every_t && i < nt ? i : (size_t)pni_rng_below(rng, nt);
        tu_random_arc(rng, net, sh, kinds, p, t);
    }
    return net;
}

/* ---- random formulas ------------------------------------------------------- */

void tu_random_formula(pni_rng_t *rng, const tu_fshape_t *fs, size_t np,
                       size_t nt, int depth, char *buf, size_t size)
{
    size_t k = strlen(buf);
    uint64_t r = pni_rng_below(rng, depth > 0 ? fs->top : fs->leaf);
    if (r == 0) {
        const char *c = fs->often;
        if (!pni_rng_below(rng, fs->odds))
            c = !fs->rare[1] || pni_rng_below(rng, 2) ? fs->rare[0]
                                                      : fs->rare[1];
        snprintf(buf + k, size - k, "%s", c);
    } else if (r == 1 && fs->fireable == 1) {
        snprintf(buf + k, size - k, "fireable(t%u)",
                 (unsigned)pni_rng_below(rng, nt));
    } else if (r == 1) {
        /* numbers drawn from the last one written to the first, the
         * order the suites' formulas have always been drawn in */
        unsigned b = (unsigned)pni_rng_below(rng, nt);
        snprintf(buf + k, size - k, "fireable(t%u, t%u)",
                 (unsigned)pni_rng_below(rng, nt), b);
    } else if (r <= fs->cmp_end) {
        static const char *const ops[] = {"<", "<=", "==", "!=", ">=", ">"};
        unsigned c = (unsigned)pni_rng_below(rng, fs->consts);
        unsigned rhs = fs->rhs_place ? (unsigned)pni_rng_below(rng, np) : 0;
        const char *op = ops[pni_rng_below(rng, 6)];
        unsigned b = fs->two_places ? (unsigned)pni_rng_below(rng, np) : 0;
        unsigned a = (unsigned)pni_rng_below(rng, np);
        if (fs->two_places)
            k += (size_t)snprintf(buf + k, size - k, "p%u + ", a);
        k += (size_t)snprintf(buf + k, size - k, "p%u %s ",
                              fs->two_places ? b : a, op);
        if (fs->rhs_place)
            k += (size_t)snprintf(buf + k, size - k, "p%u + ", rhs);
        snprintf(buf + k, size - k, "%u", c);
    } else if (r <= fs->not_end) {
        snprintf(buf + k, size - k, "!(");
        tu_random_formula(rng, fs, np, nt, depth - 1, buf, size);
        k = strlen(buf);
        snprintf(buf + k, size - k, ")");
    } else {
        snprintf(buf + k, size - k, "(");
        tu_random_formula(rng, fs, np, nt, depth - 1, buf, size);
        k = strlen(buf);
        snprintf(buf + k, size - k, r <= fs->not_end + 1 ? " || " : " && ");
        tu_random_formula(rng, fs, np, nt, depth - 1, buf, size);
        k = strlen(buf);
        snprintf(buf + k, size - k, ")");
    }
}

/* ---- the search under test ------------------------------------------------- */

pn_reach_t *tu_search(const pn_net_t *net, const pn_query_set_t *qs,
                      pn_query_answer_t *ans, uint64_t max_states,
                      int stubborn)
{
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = max_states;
    o.stubborn = stubborn;
    pn_reach_t *r;
    ck_assert_int_eq(pn_reach_query(net, &o, qs, ans, &r), PN_OK);
    return r;
}

/* ---- the firing rule from the semantics' text ------------------------------ */

int tu_bf_enabled(const pn_net_t *net, const uint64_t *m, size_t t)
{
    size_t np = pn_net_place_count(net);
    for (size_t p = 0; p < np; p++) {
        /* parallel normal arcs from one place take the sum of weights */
        uint64_t need = 0, produced = 0;
        for (size_t i = 0; i < pn_net_arc_count(net); i++) {
            const pn_arc_t *a = pn_net_arc(net, i);
            if (a->transition != t || a->place != p)
                continue;
            if (a->dir == PN_DIR_TP)
                produced += a->weight;
            else if (a->kind == PN_ARC_NORMAL)
                need += a->weight;
            else if (a->kind == PN_ARC_READ && m[p] < a->weight)
                return 0;
            else if (a->kind == PN_ARC_INHIBITOR && m[p] >= a->weight)
                return 0;
        }
        if (m[p] < need)
            return 0;
        /* capacities: the place after firing t alone */
        uint64_t cap = pn_net_place(net, p)->capacity;
        if (cap && produced && m[p] - need + produced > cap)
            return 0;
    }
    return 1;
}

void tu_bf_fire(const pn_net_t *net, const uint64_t *m, size_t t,
                uint64_t *out)
{
    memcpy(out, m, pn_net_place_count(net) * sizeof *m);
    /* inputs taken, then reset places emptied, then outputs added */
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < pn_net_arc_count(net); i++) {
            const pn_arc_t *a = pn_net_arc(net, i);
            if (a->transition != t)
                continue;
            if (pass == 0 && a->dir == PN_DIR_PT && a->kind == PN_ARC_NORMAL)
                out[a->place] -= a->weight;
            else if (pass == 1 && a->kind == PN_ARC_RESET)
                out[a->place] = 0;
            else if (pass == 2 && a->dir == PN_DIR_TP)
                out[a->place] += a->weight;
        }
}

int tu_bf_dead(const pn_net_t *net, const uint64_t *m)
{
    for (size_t t = 0; t < pn_net_transition_count(net); t++)
        if (tu_bf_enabled(net, m, t))
            return 0;
    return 1;
}

uint64_t tu_bf_sum(const pn_qsum_t *s, const uint64_t *m)
{
    uint64_t v = s->constant;
    for (size_t i = 0; i < s->nplaces; i++)
        v += m[s->places[i]];
    return v;
}

int tu_bf_holds(const pn_net_t *net, const pn_qformula_t *f,
                const uint64_t *m)
{
    switch (f->kind) {
    case PN_QF_TRUE: return 1;
    case PN_QF_FALSE: return 0;
    case PN_QF_DEADLOCK: return tu_bf_dead(net, m);
    case PN_QF_FIREABLE:
        for (size_t i = 0; i < f->nitems; i++)
            if (tu_bf_enabled(net, m, f->items[i]))
                return 1;
        return 0;
    case PN_QF_CMP: {
        uint64_t a = tu_bf_sum(&f->lhs, m), b = tu_bf_sum(&f->rhs, m);
        return f->op == PN_QCMP_LT ? a < b : f->op == PN_QCMP_LE ? a <= b
             : f->op == PN_QCMP_EQ ? a == b : f->op == PN_QCMP_NE ? a != b
             : f->op == PN_QCMP_GE ? a >= b : a > b;
    }
    case PN_QF_NOT: return !tu_bf_holds(net, f->kids[0], m);
    case PN_QF_AND:
        for (size_t i = 0; i < f->nkids; i++)
            if (!tu_bf_holds(net, f->kids[i], m))
                return 0;
        return 1;
    default:
        for (size_t i = 0; i < f->nkids; i++)
            if (tu_bf_holds(net, f->kids[i], m))
                return 1;
        return 0;
    }
}

/* ---- the reachability graph by brute force --------------------------------- */

int tu_bf_graph(tu_graph_t *g, const pn_net_t *net, size_t limit)
{
    g->net = net;
    g->np = pn_net_place_count(net);
    g->nt = pn_net_transition_count(net);
    g->m = malloc(limit * g->np * sizeof *g->m + 1);
    g->succ = malloc(limit * g->nt * sizeof *g->succ + 1);
    g->nsucc = calloc(limit, sizeof *g->nsucc);
    uint64_t *next = malloc((g->np + 1) * sizeof *next);
    for (size_t p = 0; p < g->np; p++)
        g->m[p] = pn_net_place(net, p)->marking;
    g->n = 1;
    /* breadth first, each marking looked up in a linear list */
    for (size_t i = 0; i < g->n; i++)
        for (size_t t = 0; t < g->nt; t++) {
            if (!tu_bf_enabled(net, g->m + i * g->np, t))
                continue;
            tu_bf_fire(net, g->m + i * g->np, t, next);
            size_t k = 0;
            while (k < g->n &&
                   memcmp(g->m + k * g->np, next, g->np * sizeof *next))
                k++;
            if (k == g->n) {
                if (g->n == limit) {
                    free(next);
                    return 0;
                }
                memcpy(g->m + g->n++ * g->np, next, g->np * sizeof *next);
            }
            g->succ[i * g->nt + g->nsucc[i]++] = k;
        }
    free(next);
    return 1;
}

void tu_graph_free(tu_graph_t *g)
{
    free(g->m);
    free(g->succ);
    free(g->nsucc);
}

pn_net_t *tu_counters_net(size_t n)
{
    pn_net_t *net = pn_net_new("counters");
    char id[32];
    for (size_t k = 0; k < n; k++) {
        snprintf(id, sizeof id, "p%zu", k);
        pn_net_add_place(net, id, NULL, 0, NULL);
        snprintf(id, sizeof id, "t%zu", k);
        pn_net_add_transition(net, id, NULL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, k, k, 1, PN_ARC_NORMAL, NULL);
    }
    return net;
}

pn_net_t *tu_ring_net(size_t n)
{
    pn_net_t *net = pn_net_new("ring");
    char id[32];
    for (size_t k = 0; k < n; k++) {
        snprintf(id, sizeof id, "p%zu", k);
        pn_net_add_place(net, id, NULL, k == 0, NULL);
        snprintf(id, sizeof id, "t%zu", k);
        pn_net_add_transition(net, id, NULL, NULL);
    }
    for (size_t k = 0; k < n; k++) {
        pn_net_add_arc_at(net, NULL, PN_DIR_PT, k, k, 1, PN_ARC_NORMAL, NULL);
        pn_net_add_arc_at(net, NULL, PN_DIR_TP, (k + 1) % n, k, 1,
                          PN_ARC_NORMAL, NULL);
    }
    return net;
}
