/*
 * The graph of markings as data: the edges of a finished search found
 * again with their transitions, the strongly connected components, and the
 * graph written as Graphviz DOT or JSON (the coverability graph of
 * coverability.c too).
 */
#include <config.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "graph_private.h"
#include "lib_private.h"

pn_status_t pni_gview_edge(pni_gview_t *g, uint32_t from, uint32_t to,
                           const uint32_t *set, size_t n)
{
    if (g->nedges + 2 > UINT32_MAX || g->cap_l + n > UINT32_MAX)
        return PN_ENOMEM;
    size_t nl = g->nedges ? g->loff[g->nedges] : 0;
    size_t cap0 = g->cap_e;
    if (pni_grow((void **)&g->from, &g->cap_e, g->nedges + 1,
                 sizeof *g->from))
        return PN_ENOMEM;
    if (g->cap_e != cap0) {
        /* to and loff follow from's capacity (loff one more) */
        uint32_t *t = realloc(g->to, g->cap_e * sizeof *t);
        if (t)
            g->to = t;
        uint32_t *o = t ? realloc(g->loff, (g->cap_e + 1) * sizeof *o) : NULL;
        if (o)
            g->loff = o;
        if (!t || !o) {
            g->cap_e = cap0; /* from is larger: harmless */
            return PN_ENOMEM;
        }
    }
    size_t cap = g->cap_l;
    if (pni_grow((void **)&g->lab, &cap, nl + n + 1, sizeof *g->lab))
        return PN_ENOMEM;
    g->cap_l = cap;
    if (g->nedges == 0)
        g->loff[0] = 0;
    memcpy(g->lab + nl, set, n * sizeof *set);
    g->from[g->nedges] = from;
    g->to[g->nedges] = to;
    g->loff[g->nedges + 1] = (uint32_t)(nl + n);
    g->nedges++;
    return PN_OK;
}

void pni_gview_free(pni_gview_t *g)
{
    free(g->from);
    free(g->to);
    free(g->loff);
    free(g->lab);
    memset(g, 0, sizeof *g);
}

/* ---- strongly connected components (Tarjan, iterative) ------------------ */

/* comp[v]: the component of each node; kind[c]: 0 a single node with no
 * edge to itself, 1 a cycle, 2 a terminal component with a cycle or a
 * single dead node (no edge leaves it).  CSR adjacency (off, adj) given. */
static pn_status_t components(size_t n, const size_t *off,
                              const uint32_t *adj, uint32_t *comp,
                              unsigned char *kind)
{
    uint32_t *index = malloc((n + 1) * sizeof *index);
    uint32_t *low = malloc((n + 1) * sizeof *low);
    uint32_t *stack = malloc((n + 1) * sizeof *stack);
    uint32_t *call = malloc((n + 1) * sizeof *call);
    size_t *pos = malloc((n + 1) * sizeof *pos);
    unsigned char *on = calloc(n + 1, 1);
    pn_status_t st = index && low && stack && call && pos && on ? PN_OK
                                                               : PN_ENOMEM;
    uint32_t next = 0, ncomp = 0;
    size_t sp = 0;
    for (size_t i = 0; !st && i < n; i++)
        index[i] = NO_STATE;
    for (size_t root = 0; !st && root < n; root++) {
        if (index[root] != NO_STATE)
            continue;
        size_t depth = 0;
        call[0] = (uint32_t)root;
        index[root] = low[root] = next++;
        pos[root] = off[root];
        stack[sp++] = (uint32_t)root;
        on[root] = 1;
        for (;;) {
            uint32_t v = call[depth];
            if (pos[v] < off[v + 1]) {
                uint32_t w = adj[pos[v]++];
                if (index[w] == NO_STATE) {
                    index[w] = low[w] = next++;
                    pos[w] = off[w];
                    stack[sp++] = w;
                    on[w] = 1;
                    call[++depth] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            if (depth == 0)
                break;
            uint32_t u = call[--depth];
            if (low[v] < low[u])
                low[u] = low[v];
        }
    }
    if (!st) {
        /* a cycle: two nodes in one component, or an edge to itself;
         * terminal: no edge leaves it (components close in reverse
         * topological order, so one pass over the edges does) */
        unsigned char *leaves = calloc(ncomp + 1, 1);
        uint32_t *size = calloc(ncomp + 1, sizeof *size);
        if (!leaves || !size)
            st = PN_ENOMEM;
        for (size_t v = 0; !st && v < n; v++) {
            size[comp[v]]++;
            for (size_t k = off[v]; k < off[v + 1]; k++)
                if (comp[adj[k]] != comp[v])
                    leaves[comp[v]] = 1;
                else
                    kind[comp[v]] = 1;
        }
        for (uint32_t c = 0; !st && c < ncomp; c++) {
            if (size[c] > 1)
                kind[c] = 1;
            if (!leaves[c])
                kind[c] = 2;
        }
        free(leaves);
        free(size);
    }
    free(index);
    free(low);
    free(stack);
    free(call);
    free(pos);
    free(on);
    return st;
}

/* ---- writing -------------------------------------------------------------- */

/* s as a DOT string's contents: '"' and '\\' escaped, control bytes as a
 * space. */
static void dot_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
    }
}

static void dot_marking(FILE *out, const pni_gview_t *g, const uint64_t *m)
{
    int any = 0;
    for (size_t p = 0; p < g->np; p++) {
        if (!m[p])
            continue;
        /* three counts a line keep a node narrow */
        fputs(!any ? "" : any % 3 ? ", " : "\\n", out);
        dot_text(out, pn_net_place(g->net, p)->id);
        if (m[p] == PN_OMEGA)
            fputs("=\xcf\x89", out); /* ω */
        else
            fprintf(out, "=%" PRIu64, m[p]);
        any++;
    }
    if (!any)
        fputs("(empty)", out);
}

static void json_marking(FILE *out, const pni_gview_t *g, const uint64_t *m)
{
    fputc('{', out);
    for (size_t p = 0, k = 0; p < g->np; p++) {
        if (!m[p])
            continue;
        fputs(k++ ? ", " : "", out);
        pni_json_string(out, pn_net_place(g->net, p)->id, 0);
        if (m[p] == PN_OMEGA)
            fputs(": \"\xcf\x89\"", out);
        else
            fprintf(out, ": %" PRIu64, m[p]);
    }
    fputc('}', out);
}

/* The transitions of edge e, joined by '+' (DOT) or as a JSON array. */
static void edge_label(FILE *out, const pni_gview_t *g, size_t e, int json)
{
    for (uint32_t k = g->loff[e]; k < g->loff[e + 1]; k++) {
        const char *id = pn_net_transition(g->net, g->lab[k])->id;
        fputs(k == g->loff[e] ? "" : json ? ", " : "+", out);
        if (json)
            pni_json_string(out, id, 0);
        else
            dot_text(out, id);
    }
}

static void write_dot(const pni_gview_t *g, FILE *out, uint64_t *m,
                      const size_t *off, const uint32_t *comp,
                      const unsigned char *kind)
{
    fputs("digraph \"", out);
    dot_text(out, pn_net_id(g->net) ? pn_net_id(g->net) : "net");
    fprintf(out, "\" {\n"
            "  // the %s graph: %zu markings, %zu edges; double border: the\n"
            "  // initial marking; red: dead; blue: a terminal strongly\n"
            "  // connected component; yellow: another cycle\n"
            "  node [shape=box, style=\"rounded,filled\", fillcolor=white,"
            " fontname=\"Helvetica\", fontsize=10];\n"
            "  edge [fontname=\"Helvetica\", fontsize=9];\n",
            g->kind, g->nnodes, g->nedges);
    for (size_t i = 0; i < g->nnodes; i++) {
        g->marking(g->src, i, m);
        fprintf(out, "  s%zu [label=\"", i);
        dot_marking(out, g, m);
        fputc('"', out);
        if (off[i] == off[i + 1])
            fputs(", fillcolor=\"#f4a6a6\"", out);
        else if (kind[comp[i]] == 2)
            fputs(", fillcolor=\"#a6d0f4\"", out);
        else if (kind[comp[i]] == 1)
            fputs(", fillcolor=\"#f4ecb0\"", out);
        if (i == 0)
            fputs(", peripheries=2", out);
        fputs("];\n", out);
    }
    for (size_t e = 0; e < g->nedges; e++) {
        fprintf(out, "  s%" PRIu32 " -> s%" PRIu32 " [label=\"", g->from[e],
                g->to[e]);
        edge_label(out, g, e, 0);
        fputs("\"];\n", out);
    }
    fputs("}\n", out);
}

static void write_json(const pni_gview_t *g, FILE *out, uint64_t *m,
                       const size_t *off, const uint32_t *comp,
                       const unsigned char *kind)
{
    fputs("{\"net\": ", out);
    pni_json_string(out, pn_net_id(g->net), 0);
    fprintf(out, ", \"graph\": \"%s\", \"nodes\": [", g->kind);
    for (size_t i = 0; i < g->nnodes; i++) {
        g->marking(g->src, i, m);
        fprintf(out, "%s\n  {\"id\": %zu, \"marking\": ", i ? "," : "", i);
        json_marking(out, g, m);
        fprintf(out, ", \"initial\": %s, \"dead\": %s, \"scc\": %" PRIu32
                ", \"terminal\": %s}", i ? "false" : "true",
                off[i] == off[i + 1] ? "true" : "false", comp[i],
                kind[comp[i]] == 2 ? "true" : "false");
    }
    fputs("],\n \"edges\": [", out);
    for (size_t e = 0; e < g->nedges; e++) {
        fprintf(out, "%s\n  {\"from\": %" PRIu32 ", \"to\": %" PRIu32
                ", \"transitions\": [", e ? "," : "", g->from[e], g->to[e]);
        edge_label(out, g, e, 1);
        fputs("]}", out);
    }
    fputs("]}\n", out);
}

pn_status_t pni_gview_write(const pni_gview_t *g, FILE *out,
                            pn_graph_format_t fmt)
{
    size_t n = g->nnodes;
    size_t *off = calloc(n + 2, sizeof *off);
    uint32_t *adj = malloc((g->nedges + 1) * sizeof *adj);
    uint32_t *comp = malloc((n + 1) * sizeof *comp);
    unsigned char *kind = calloc(n + 1, 1);
    uint64_t *m = malloc((g->np + 1) * sizeof *m);
    pn_status_t st = off && adj && comp && kind && m ? PN_OK : PN_ENOMEM;
    if (!st) {
        /* the edges grouped by their source (counting sort) */
        for (size_t e = 0; e < g->nedges; e++)
            off[g->from[e] + 1]++;
        for (size_t i = 0; i < n; i++)
            off[i + 1] += off[i];
        size_t *fill = malloc((n + 1) * sizeof *fill);
        if (!fill)
            st = PN_ENOMEM;
        else {
            memcpy(fill, off, (n + 1) * sizeof *fill);
            for (size_t e = 0; e < g->nedges; e++)
                adj[fill[g->from[e]]++] = g->to[e];
            free(fill);
            st = components(n, off, adj, comp, kind);
        }
    }
    if (!st) {
        if (fmt == PN_GRAPH_JSON)
            write_json(g, out, m, off, comp, kind);
        else
            write_dot(g, out, m, off, comp, kind);
        if (ferror(out))
            st = PN_EIO;
    }
    free(off);
    free(adj);
    free(comp);
    free(kind);
    free(m);
    return st;
}

/* ---- the reachability graph ----------------------------------------------- */

typedef struct {
    pni_gview_t *g;
    const pn_reach_t *r;
    uint32_t from;
    uint64_t k;         /* interleaving: the successor's rank */
    size_t e0;          /* maximal: this state's first edge */
    uint64_t *want;
    pn_status_t st;
} edges_t;

static void reach_marking(const void *src, size_t i, uint64_t *m)
{
    pni_store_marking(src, i, m);
}

/* Each successor as the search visited it: under interleaving, its k-th
 * edge; under maximal steps, the successor marking it equals, once (the
 * first step found names the edge). */
static int on_successor(pn_reach_t *r, const uint32_t *set, size_t n,
                        const uint64_t *next, void *ctx)
{
    edges_t *x = ctx;
    uint64_t a = r->graph.succ_off[x->from], b = r->graph.succ_off[x->from + 1];
    uint32_t to = NO_STATE;
    if (r->sem == PN_SEM_INTERLEAVING) {
        if (a + x->k < b)
            to = r->graph.succ[a + x->k++];
    } else {
        for (uint64_t k = a; k < b && to == NO_STATE; k++) {
            pni_store_marking(r, r->graph.succ[k], x->want);
            if (!memcmp(x->want, next, r->np * sizeof *next))
                to = r->graph.succ[k];
        }
        for (size_t e = x->e0; to != NO_STATE && e < x->g->nedges; e++)
            if (x->g->to[e] == to)
                return 0;
    }
    if (to == NO_STATE) {
        x->st = PN_EINVAL; /* not the search's graph: cannot happen */
        return 1;
    }
    x->st = pni_gview_edge(x->g, x->from, to, set, n);
    return x->st != PN_OK;
}

pn_status_t pn_reach_graph_write(const pn_reach_t *rc, const pn_net_t *net,
                                 FILE *out, pn_graph_format_t fmt)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    if (!r || !net || !out || r->found.end != PN_REACH_COMPLETE ||
        !r->graph.keep_graph || pn_net_place_count(net) != r->np)
        return PN_EINVAL;
    pni_gview_t g = {"reachability", net, r->store.nstates, r->np,
                     reach_marking, r, 0, NULL, NULL, NULL, NULL, 0, 0};
    edges_t x = {&g, r, 0, 0, 0, malloc((r->np + 1) * sizeof *x.want),
                 PN_OK};
    if (!x.want)
        return PN_ENOMEM;
    for (size_t i = 0; !x.st && i < r->store.nstates; i++) {
        x.from = (uint32_t)i;
        x.k = 0;
        x.e0 = g.nedges;
        pni_store_marking(r, i, r->gen.m);
        if (pni_successors(r, r->gen.m, on_successor, &x) < 0 && !x.st)
            x.st = PN_EINVAL;
    }
    free(x.want);
    if (!x.st && g.nedges != r->found.edges)
        x.st = PN_EINVAL;
    if (!x.st)
        x.st = pni_gview_write(&g, out, fmt);
    pni_gview_free(&g);
    return x.st;
}
