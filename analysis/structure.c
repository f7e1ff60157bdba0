/*
 * The structure of a net (pn/struct.h): its minimal semiflows (the
 * elimination itself is invariants.c's), its classes, and the flow
 * relation of its normal arcs that siphons.c also reads.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "struct.h"

/* the budget of the semiflows' search: matrix cells at once (128 MiB of
 * coefficients), steps of work (a few seconds) */
#define FLOW_CELLS ((uint64_t)1 << 24)
#define FLOW_WORK ((uint64_t)1 << 31)

/* ---- the flow relation -------------------------------------------------- */

typedef struct {
    uint32_t node, other;
    uint64_t weight;
} pair_t;

static int by_pair(const void *a, const void *b)
{
    const pair_t *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->other < y->other ? -1 : x->other > y->other;
}

/* pairs[0 .. n) sorted and merged (weights added, saturated), as lists:
 * off[0 .. nodes], idx and w.  Frees pairs.  0 or -1. */
static int as_lists(pair_t *pairs, size_t n, size_t nodes, pni_adj_t *a)
{
    qsort(pairs, n, sizeof *pairs, by_pair);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && pairs[m - 1].node == pairs[i].node &&
            pairs[m - 1].other == pairs[i].other) {
            uint64_t *w = &pairs[m - 1].weight;
            *w = *w + pairs[i].weight < *w ? UINT64_MAX : *w + pairs[i].weight;
        } else
            pairs[m++] = pairs[i];
    }
    a->off = calloc(nodes + 1, sizeof *a->off);
    a->idx = malloc((m + 1) * sizeof *a->idx);
    a->w = malloc((m + 1) * sizeof *a->w);
    if (!a->off || !a->idx || !a->w) {
        free(pairs);
        return -1;
    }
    for (size_t i = 0; i < m; i++) {
        a->off[pairs[i].node + 1]++;
        a->idx[i] = pairs[i].other;
        a->w[i] = pairs[i].weight;
    }
    for (size_t v = 0; v < nodes; v++)
        a->off[v + 1] += a->off[v];
    free(pairs);
    return 0;
}

static void adj_free(pni_adj_t *a)
{
    free(a->off);
    free(a->idx);
    free(a->w);
}

pn_status_t pni_flowrel_open(const pn_net_t *net, pni_flowrel_t *g)
{
    memset(g, 0, sizeof *g);
    g->np = pn_net_place_count(net);
    g->nt = pn_net_transition_count(net);
    size_t na = pn_net_arc_count(net);
    if (g->np >= UINT32_MAX || g->nt >= UINT32_MAX)
        return PN_ETOOBIG;
    /* the four lists, each from its own copy of the pairs */
    for (int k = 0; k < 4; k++) {
        pair_t *pairs = malloc((na + 1) * sizeof *pairs);
        size_t n = 0;
        if (!pairs) {
            pni_flowrel_close(g);
            return PN_ENOMEM;
        }
        /* k: 0 p's outputs (p.), 1 p's inputs (.p), 2 t's inputs (.t), 3
         * t's outputs (t.) */
        pn_arc_dir_t dir = k == 0 || k == 2 ? PN_DIR_PT : PN_DIR_TP;
        for (size_t i = 0; i < na; i++) {
            const pn_arc_t *arc = pn_net_arc(net, i);
            if (arc->kind != PN_ARC_NORMAL) {
                g->other_arcs = 1;
                continue;
            }
            if (arc->dir != dir)
                continue;
            pair_t pr = {(uint32_t)arc->place, (uint32_t)arc->transition,
                         arc->weight};
            if (k >= 2) {
                pr.node = (uint32_t)arc->transition;
                pr.other = (uint32_t)arc->place;
            }
            pairs[n++] = pr;
        }
        pni_adj_t *a = k == 0 ? &g->pout : k == 1 ? &g->pin
                     : k == 2 ? &g->tin : &g->tout;
        if (as_lists(pairs, n, k < 2 ? g->np : g->nt, a)) {
            pni_flowrel_close(g);
            return PN_ENOMEM;
        }
    }
    return PN_OK;
}

void pni_flowrel_close(pni_flowrel_t *g)
{
    adj_free(&g->pout);
    adj_free(&g->pin);
    adj_free(&g->tin);
    adj_free(&g->tout);
    memset(g, 0, sizeof *g);
}

/* ---- semiflows ---------------------------------------------------------- */

pn_status_t pn_flows_compute(const pn_net_t *net, int transitions, size_t max,
                             pn_flows_t **out)
{
    if (!out)
        return PN_EINVAL;
    *out = NULL;
    if (!net)
        return PN_EINVAL;
    pn_flows_t *f = calloc(1, sizeof *f);
    if (!f)
        return PN_ENOMEM;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    f->transitions = !!transitions;
    f->dim = transitions ? nt : np;
    f->covered = calloc(f->dim + 1, 1);
    if (!f->covered) {
        free(f);
        return PN_ENOMEM;
    }
    if (!max)
        max = PN_STRUCT_MAX_DEFAULT;
    /* the row limit as the search lowers it to fit the cells */
    size_t cols = np + nt;
    f->limit = cols && max > FLOW_CELLS / cols ? (size_t)(FLOW_CELLS / cols)
                                               : max;
    pni_flows_t fl;
    int r = pni_minimal_flows(net, f->transitions, max, FLOW_CELLS, FLOW_WORK,
                              &fl);
    if (r < 0) {
        pn_flows_free(f);
        return PN_ENOMEM;
    }
    f->end = r == 0 ? PN_STRUCT_COMPLETE
           : r == 1 ? PN_STRUCT_MAX
           : r == 2 ? PN_STRUCT_WORK : PN_STRUCT_BIG;
    /* the flows move to the result as they are */
    f->n = fl.n;
    f->y = fl.y;
    free(fl.exact);
    for (size_t i = 0; i < f->n; i++)
        for (size_t k = 0; k < f->dim; k++)
            if (f->y[i][k])
                f->covered[k] = 1;
    *out = f;
    return PN_OK;
}

int pn_flows_positive(const pn_flows_t *f)
{
    if (!f || f->end != PN_STRUCT_COMPLETE)
        return -1;
    for (size_t k = 0; k < f->dim; k++)
        if (!f->covered[k])
            return 0;
    return 1;
}

void pn_flows_free(pn_flows_t *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->y[i]);
    free(f->y);
    free(f->covered);
    free(f);
}

/* ---- classes ------------------------------------------------------------ */

/* Whether the sorted lists a[0 .. na) and b[0 .. nb) share an element
 * (sub 0), or a is a subset of b (sub 1). */
static int lists(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
                 int sub)
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i] == b[j]) {
            if (!sub)
                return 1;
            i++;
            j++;
        } else if (a[i] < b[j]) {
            if (sub)
                return 0;
            i++;
        } else
            j++;
    }
    return sub ? i == na : 0;
}

/* The choice classes over the inputs of each transition: every two of
 * them share t, so their output sets must be equal (extended free
 * choice) or form a chain (asymmetric choice); sorted by size, each
 * within the next makes a chain. */
static unsigned choice_classes(const pni_flowrel_t *g)
{
    unsigned c = PN_CLASS_EXTENDED_FREE_CHOICE | PN_CLASS_ASYMMETRIC_CHOICE;
    const pni_adj_t *po = &g->pout;
    uint32_t *in = malloc((g->tin.off[g->nt] + 1) * sizeof *in);
    pair_t *by = malloc((g->tin.off[g->nt] + 1) * sizeof *by);
    if (!in || !by) {
        free(in);
        free(by);
        return 0; /* out of memory: neither claimed */
    }
    for (size_t t = 0; t < g->nt && c; t++) {
        size_t n = 0;
        for (size_t k = g->tin.off[t]; k < g->tin.off[t + 1]; k++) {
            uint32_t p = g->tin.idx[k];
            pair_t pr = {(uint32_t)(po->off[p + 1] - po->off[p]), p, 0};
            by[n++] = pr;
        }
        qsort(by, n, sizeof *by, by_pair);
        for (size_t i = 0; i < n; i++)
            in[i] = by[i].other;
        for (size_t i = 1; i < n; i++) {
            uint32_t a = in[i - 1], b = in[i];
            size_t la = po->off[a + 1] - po->off[a],
                   lb = po->off[b + 1] - po->off[b];
            int sub = lists(po->idx + po->off[a], la, po->idx + po->off[b],
                            lb, 1);
            if (!sub || la != lb)
                c &= ~(unsigned)PN_CLASS_EXTENDED_FREE_CHOICE;
            if (!sub)
                c &= ~(unsigned)PN_CLASS_ASYMMETRIC_CHOICE;
        }
    }
    free(in);
    free(by);
    return c;
}

unsigned pn_net_classes(const pn_net_t *net)
{
    pni_flowrel_t g;
    if (!net || pni_flowrel_open(net, &g))
        return 0;
    unsigned c = PN_CLASS_ORDINARY | PN_CLASS_PURE | PN_CLASS_STATE_MACHINE |
                 PN_CLASS_MARKED_GRAPH | PN_CLASS_FREE_CHOICE;
    if (g.other_arcs)
        c |= PN_CLASS_OTHER_ARCS;
    for (size_t p = 0; p < g.np; p++) {
        size_t nout = g.pout.off[p + 1] - g.pout.off[p],
               nin = g.pin.off[p + 1] - g.pin.off[p];
        if (nout != 1 || nin != 1)
            c &= ~(unsigned)PN_CLASS_MARKED_GRAPH;
        for (size_t k = g.pout.off[p]; k < g.pout.off[p + 1]; k++) {
            uint32_t t = g.pout.idx[k];
            if (g.pout.w[k] != 1)
                c &= ~(unsigned)PN_CLASS_ORDINARY;
            /* free choice: p's only output, or t's only input */
            if (nout != 1 && g.tin.off[t + 1] - g.tin.off[t] != 1)
                c &= ~(unsigned)PN_CLASS_FREE_CHOICE;
        }
        for (size_t k = g.pin.off[p]; k < g.pin.off[p + 1]; k++)
            if (g.pin.w[k] != 1)
                c &= ~(unsigned)PN_CLASS_ORDINARY;
        if (lists(g.pout.idx + g.pout.off[p], nout, g.pin.idx + g.pin.off[p],
                  nin, 0))
            c &= ~(unsigned)PN_CLASS_PURE;
    }
    for (size_t t = 0; t < g.nt; t++)
        if (g.tin.off[t + 1] - g.tin.off[t] != 1 ||
            g.tout.off[t + 1] - g.tout.off[t] != 1)
            c &= ~(unsigned)PN_CLASS_STATE_MACHINE;
    c |= choice_classes(&g);
    if (!(c & PN_CLASS_ORDINARY))
        c &= PN_CLASS_ORDINARY | PN_CLASS_PURE | PN_CLASS_OTHER_ARCS;
    pni_flowrel_close(&g);
    return c;
}

const char *pn_net_class_name(unsigned class_bit)
{
    switch (class_bit) {
    case PN_CLASS_ORDINARY: return "ordinary";
    case PN_CLASS_PURE: return "pure";
    case PN_CLASS_STATE_MACHINE: return "state machine";
    case PN_CLASS_MARKED_GRAPH: return "marked graph";
    case PN_CLASS_FREE_CHOICE: return "free-choice";
    case PN_CLASS_EXTENDED_FREE_CHOICE: return "extended free-choice";
    case PN_CLASS_ASYMMETRIC_CHOICE: return "asymmetric choice";
    case PN_CLASS_OTHER_ARCS: return "inhibitor, read or reset arcs";
    default: return NULL;
    }
}
