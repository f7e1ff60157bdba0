/*
 * The coverability graph (Karp and Miller): breadth first from the initial
 * marking, a successor that strictly covers one of its ancestors in the
 * tree gets omega where it has more; a marking met again (anywhere) is an
 * edge to its node, which folds the tree into a graph.  Only for normal
 * and read arcs without capacities: there the firing rule is monotone, and
 * the construction ends and is exact about which places are bounded.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "graph_private.h"
#include "lib_private.h"

struct pn_cover {
    const pn_net_t *net;
    pn_engine_t *engine;    /* enabling: an omega count passes every test */
    size_t np, nt;
    size_t *t_off;          /* the normal arcs of transition t:
                               t_arc[t_off[t] .. t_off[t + 1]) */
    size_t *t_arc;
    uint64_t *marks;        /* np counts a node */
    uint32_t *parent;       /* the node it was first reached from */
    size_t nnodes, cap;
    uint32_t *slots;        /* hash index of the nodes (NO_STATE: empty) */
    size_t nslots;
    pni_gview_t g;          /* the edges */
    int complete;
    uint64_t *bound;
};

void pn_cover_free(pn_cover_t *c)
{
    if (!c)
        return;
    pn_engine_free(c->engine);
    free(c->t_off);
    free(c->t_arc);
    free(c->marks);
    free(c->parent);
    free(c->slots);
    free(c->bound);
    pni_gview_free(&c->g);
    free(c);
}

static uint64_t hash_marking(const uint64_t *m, size_t np)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t p = 0; p < np; p++) {
        h ^= m[p];
        h *= UINT64_C(1099511628211);
        h ^= h >> 29;
    }
    return h;
}

/* The slot of marking m: its node's, or the empty one where it goes. */
static size_t probe(const pn_cover_t *c, const uint64_t *m)
{
    size_t i = (size_t)hash_marking(m, c->np) & (c->nslots - 1);
    while (c->slots[i] != NO_STATE &&
           memcmp(c->marks + (size_t)c->slots[i] * c->np, m,
                  c->np * sizeof *m))
        i = (i + 1) & (c->nslots - 1);
    return i;
}

static pn_status_t rehash(pn_cover_t *c, size_t nslots)
{
    uint32_t *s = malloc(nslots * sizeof *s);
    if (!s)
        return PN_ENOMEM;
    free(c->slots);
    c->slots = s;
    c->nslots = nslots;
    for (size_t i = 0; i < nslots; i++)
        s[i] = NO_STATE;
    for (size_t n = 0; n < c->nnodes; n++)
        s[probe(c, c->marks + n * c->np)] = (uint32_t)n;
    return PN_OK;
}

/* The node of marking m, added (with parent) when new: *node gets it.
 * PN_ERANGE at the node limit. */
static pn_status_t find_or_add(pn_cover_t *c, const uint64_t *m,
                               uint32_t parent, uint64_t max_nodes,
                               uint32_t *node)
{
    size_t i = probe(c, m);
    if (c->slots[i] != NO_STATE) {
        *node = c->slots[i];
        return PN_OK;
    }
    if ((max_nodes && c->nnodes >= max_nodes) || c->nnodes >= STATES_MAX)
        return PN_ERANGE;
    if (c->nnodes == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        if (cap > SIZE_MAX / sizeof(uint64_t) / (c->np + 1))
            return PN_ENOMEM;
        uint64_t *mk = realloc(c->marks, cap * (c->np + 1) * sizeof *mk);
        if (!mk)
            return PN_ENOMEM;
        c->marks = mk;
        uint32_t *pa = realloc(c->parent, cap * sizeof *pa);
        if (!pa)
            return PN_ENOMEM;
        c->parent = pa;
        c->cap = cap;
    }
    memcpy(c->marks + c->nnodes * c->np, m, c->np * sizeof *m);
    c->parent[c->nnodes] = parent;
    *node = (uint32_t)c->nnodes++;
    c->slots[i] = *node;
    if (2 * c->nnodes > c->nslots)
        return rehash(c, 2 * c->nslots);
    return PN_OK;
}

/* m = what t makes of node's marking; -1 when a count would pass
 * PN_TOKENS_MAX.  Omega stays omega. */
static int fire(const pn_cover_t *c, const uint64_t *from, size_t t,
                uint64_t *m)
{
    memcpy(m, from, c->np * sizeof *m);
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = c->t_off[t]; k < c->t_off[t + 1]; k++) {
            const pn_arc_t *a = pn_net_arc(c->net, c->t_arc[k]);
            if (m[a->place] == PN_OMEGA)
                continue;
            /* the inputs first: enabling proved their sum is there */
            if (pass == 0 && a->dir == PN_DIR_PT)
                m[a->place] -= a->weight;
            else if (pass == 1 && a->dir == PN_DIR_TP) {
                if (a->weight > PN_TOKENS_MAX - m[a->place])
                    return -1;
                m[a->place] += a->weight;
            }
        }
    return 0;
}

/* Karp and Miller's acceleration: while m strictly covers an ancestor of
 * it (node from and the nodes it was first reached from), omega where m
 * has more. */
static void accelerate(const pn_cover_t *c, uint32_t from, uint64_t *m)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t a = from; a != NO_STATE; a = c->parent[a]) {
            const uint64_t *am = c->marks + (size_t)a * c->np;
            int le = 1, lt = 0;
            for (size_t p = 0; le && p < c->np; p++) {
                le = am[p] <= m[p];
                lt |= am[p] < m[p];
            }
            if (!le || !lt)
                continue;
            for (size_t p = 0; p < c->np; p++)
                if (am[p] < m[p] && m[p] != PN_OMEGA) {
                    m[p] = PN_OMEGA;
                    changed = 1;
                }
        }
    }
}

/* The net's arcs by transition; PN_EUNSUPPORTED for an arc or a capacity
 * the construction is not sound with. */
static pn_status_t setup(pn_cover_t *c, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    for (size_t a = 0; a < na; a++) {
        pn_arc_kind_t k = pn_net_arc(net, a)->kind;
        if (k == PN_ARC_INHIBITOR || k == PN_ARC_RESET)
            return PN_EUNSUPPORTED;
    }
    for (size_t p = 0; p < c->np; p++)
        if (pn_net_place(net, p)->capacity)
            return PN_EUNSUPPORTED;
    c->t_off = calloc(c->nt + 2, sizeof *c->t_off);
    c->t_arc = malloc((na + 1) * sizeof *c->t_arc);
    c->bound = calloc(c->np + 1, sizeof *c->bound);
    if (!c->t_off || !c->t_arc || !c->bound)
        return PN_ENOMEM;
    for (size_t a = 0; a < na; a++)
        if (pn_net_arc(net, a)->kind == PN_ARC_NORMAL)
            c->t_off[pn_net_arc(net, a)->transition + 1]++;
    for (size_t t = 0; t < c->nt; t++)
        c->t_off[t + 1] += c->t_off[t];
    size_t *fill = malloc((c->nt + 1) * sizeof *fill);
    if (!fill)
        return PN_ENOMEM;
    memcpy(fill, c->t_off, (c->nt + 1) * sizeof *fill);
    for (size_t a = 0; a < na; a++)
        if (pn_net_arc(net, a)->kind == PN_ARC_NORMAL)
            c->t_arc[fill[pn_net_arc(net, a)->transition]++] = a;
    free(fill);
    pn_status_t st = pn_engine_compile(net, &c->engine);
    return st ? st : rehash(c, 1024);
}

/* Expands every node breadth first; PN_ERANGE when a limit stopped it. */
static pn_status_t expand(pn_cover_t *c, uint64_t max_nodes)
{
    uint64_t *m = malloc((c->np + 1) * sizeof *m);
    uint64_t *cur = malloc((c->np + 1) * sizeof *cur);
    if (!m || !cur) {
        free(m);
        free(cur);
        return PN_ENOMEM;
    }
    pn_status_t st = PN_OK;
    for (size_t i = 0; !st && i < c->nnodes; i++) {
        /* the arena moves when it grows: a copy of the node's marking */
        memcpy(cur, c->marks + i * c->np, c->np * sizeof *cur);
        for (size_t t = 0; !st && t < c->nt; t++) {
            if (!pni_engine_enabled(c->engine, cur, (uint32_t)t))
                continue;
            if (fire(c, cur, t, m)) {
                st = PN_ERANGE;
                break;
            }
            accelerate(c, (uint32_t)i, m);
            uint32_t to, tr = (uint32_t)t;
            st = find_or_add(c, m, (uint32_t)i, max_nodes, &to);
            if (!st)
                st = pni_gview_edge(&c->g, (uint32_t)i, to, &tr, 1);
        }
    }
    free(m);
    free(cur);
    return st;
}

pn_status_t pn_cover_build(const pn_net_t *net, uint64_t max_nodes,
                           pn_cover_t **out)
{
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    pn_cover_t *c = calloc(1, sizeof *c);
    if (!c)
        return PN_ENOMEM;
    c->net = net;
    c->np = pn_net_place_count(net);
    c->nt = pn_net_transition_count(net);
    pn_status_t st = setup(c, net);
    uint64_t *m0 = st ? NULL : malloc((c->np + 1) * sizeof *m0);
    if (!st && !m0)
        st = PN_ENOMEM;
    uint32_t root;
    for (size_t p = 0; !st && p < c->np; p++)
        m0[p] = pn_net_place(net, p)->marking;
    if (!st)
        st = find_or_add(c, m0, NO_STATE, 0, &root);
    free(m0);
    if (!st) {
        st = expand(c, max_nodes);
        c->complete = st == PN_OK;
        if (st == PN_ERANGE)
            st = PN_OK;
    }
    if (st) {
        pn_cover_free(c);
        return st;
    }
    for (size_t n = 0; n < c->nnodes; n++)
        for (size_t p = 0; p < c->np; p++)
            if (c->marks[n * c->np + p] > c->bound[p])
                c->bound[p] = c->marks[n * c->np + p];
    c->g.kind = "coverability";
    c->g.nnodes = c->nnodes;
    c->g.np = c->np;
    c->g.src = c;
    *out = c;
    return PN_OK;
}

int pn_cover_complete(const pn_cover_t *c) { return c && c->complete; }
uint64_t pn_cover_nodes(const pn_cover_t *c) { return c ? c->nnodes : 0; }
uint64_t pn_cover_edges(const pn_cover_t *c) { return c ? c->g.nedges : 0; }

const uint64_t *pn_cover_marking(const pn_cover_t *c, uint64_t i)
{
    return c && i < c->nnodes ? c->marks + (size_t)i * c->np : NULL;
}

uint64_t pn_cover_place_bound(const pn_cover_t *c, size_t p)
{
    return c && p < c->np ? c->bound[p] : 0;
}

int pn_cover_dead(const pn_cover_t *c, uint64_t i)
{
    if (!c || i >= c->nnodes)
        return 0;
    for (size_t t = 0; t < c->nt; t++)
        if (pni_engine_enabled(c->engine, c->marks + (size_t)i * c->np,
                               (uint32_t)t))
            return 0;
    return 1;
}

static void cover_marking(const void *src, size_t i, uint64_t *m)
{
    const pn_cover_t *c = src;
    memcpy(m, c->marks + i * c->np, c->np * sizeof *m);
}

pn_status_t pn_cover_graph_write(const pn_cover_t *c, const pn_net_t *net,
                                 FILE *out, pn_graph_format_t fmt)
{
    if (!c || !net || !out || !c->complete ||
        pn_net_place_count(net) != c->np)
        return PN_EINVAL;
    pni_gview_t g = c->g;
    g.net = net;
    g.marking = cover_marking; /* c->g's edges, borrowed */
    return pni_gview_write(&g, out, fmt);
}
