/*
 * Graphviz export: nets as graphs (places as circles with their tokens,
 * transitions as boxes, arcs by kind), clusters for pages or warps, and
 * traces as space-time diagrams (an HTML-like table).
 */
#include <config.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include "dot.h"
#include "net_private.h"

#define DEFAULT_MAX_ELEMENTS 4000
#define SFDP_MAX_ELEMENTS 400000

void pn_dot_defaults(pn_dot_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->layout = "dot";
    o->clusters = 1;
}

static pn_status_t dfail(pn_error_t *err, pn_status_t code, const char *fmt,
                         ...)
{
    if (err && !err->code) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* "w12_p3" -> "w12" */
static int gpu_warp_key(const char *id, char *buf, size_t size)
{
    if (id[0] != 'w' || id[1] < '0' || id[1] > '9')
        return 0;
    const char *p = id + 1;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p != '_')
        return 0;
    size_t n = (size_t)(p - id);
    if (n + 1 > size)
        return 0;
    memcpy(buf, id, n);
    buf[n] = '\0';
    return 1;
}

int pn_dot_cluster_key(const char *id, const char *sep, char *buf,
                       size_t size)
{
    if (!id || !size)
        return 0;
    if (!sep)
        return gpu_warp_key(id, buf, size);
    const char *at = *sep ? strstr(id, sep) : NULL;
    if (!at || at == id)
        return 0;
    size_t n = (size_t)(at - id);
    if (n + 1 > size)
        return 0;
    memcpy(buf, id, n);
    buf[n] = '\0';
    return 1;
}

/* Whether every id is a GPU warp net id (w<i>_..., p0, t0, active). */
static int is_gpu_net(const pn_net_t *net)
{
    char key[64];
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    if (pn_net_find(net, "t0", NULL, NULL) != PN_OK || np == 0)
        return 0;
    for (size_t i = 0; i < np; i++) {
        const char *id = pn_net_place(net, i)->id;
        if (strcmp(id, "p0") && strcmp(id, "active") &&
            !gpu_warp_key(id, key, sizeof key))
            return 0;
    }
    for (size_t i = 0; i < nt; i++) {
        const char *id = pn_net_transition(net, i)->id;
        if (strcmp(id, "t0") && !gpu_warp_key(id, key, sizeof key))
            return 0;
    }
    return 1;
}

/* ---- nets -------------------------------------------------------------- */

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, "");
}

/* Tokens as dots up to four, a number beyond. */
static void token_label(uint64_t m, char *buf, size_t size)
{
    /* "\\n" is Graphviz's line break in a label */
    static const char *dots[] = {"", "\xe2\x80\xa2", "\xe2\x80\xa2\xe2\x80\xa2",
                                 "\xe2\x80\xa2\xe2\x80\xa2\\n\xe2\x80\xa2",
                                 "\xe2\x80\xa2\xe2\x80\xa2\\n\xe2\x80\xa2\xe2\x80\xa2"};
    if (m <= 4)
        snprintf(buf, size, "%s", dots[m]);
    else
        snprintf(buf, size, "%" PRIu64, m);
}

static void node_label(const char *name, const char *id, int ids, char *buf,
                       size_t size)
{
    if (!name)
        snprintf(buf, size, "%s", id);
    else if (ids && strcmp(name, id))
        snprintf(buf, size, "%s\\n[%s]", name, id);
    else
        snprintf(buf, size, "%s", name);
}

typedef struct {
    Agraph_t *root;
    Agraph_t **page_g;  /* subgraph of each page */
    char **keys;        /* cluster keys (prefix mode) */
    Agraph_t **key_g;
    size_t nkeys, cap_keys;
} clusters_t;

static Agraph_t *page_graph(clusters_t *c, const pn_net_t *net, size_t page)
{
    if (page == PN_NONE)
        return c->root;
    if (c->page_g[page])
        return c->page_g[page];
    const pn_page_t *pg = pn_net_page(net, page);
    Agraph_t *parent = page_graph(c, net, pg->parent);
    char name[64];
    snprintf(name, sizeof name, "cluster_page%zu", page);
    Agraph_t *g = agsubg(parent, name, 1);
    set(g, "label", pg->name ? pg->name : pg->id ? pg->id : "");
    set(g, "style", "rounded");
    set(g, "color", "#999999");
    c->page_g[page] = g;
    return g;
}

static Agraph_t *key_graph(clusters_t *c, const char *key)
{
    for (size_t i = 0; i < c->nkeys; i++)
        if (!strcmp(c->keys[i], key))
            return c->key_g[i];
    if (c->nkeys == c->cap_keys) {
        size_t n = c->cap_keys ? 2 * c->cap_keys : 16;
        char **k = realloc(c->keys, n * sizeof *k);
        if (k)
            c->keys = k;
        Agraph_t **g = realloc(c->key_g, n * sizeof *g);
        if (g)
            c->key_g = g;
        if (!k || !g)
            return c->root;
        c->cap_keys = n;
    }
    char name[300];
    snprintf(name, sizeof name, "cluster_%s", key);
    Agraph_t *g = agsubg(c->root, name, 1);
    set(g, "label", (char *)key);
    set(g, "style", "rounded");
    set(g, "color", "#999999");
    c->keys[c->nkeys] = strdup(key);
    c->key_g[c->nkeys++] = g;
    return g;
}

static void clusters_free(clusters_t *c)
{
    for (size_t i = 0; i < c->nkeys; i++)
        free(c->keys[i]);
    free(c->keys);
    free(c->key_g);
    free(c->page_g);
}

typedef enum { CL_NONE, CL_PAGES, CL_PREFIX } cl_mode_t;

static cl_mode_t cluster_mode(const pn_net_t *net, const pn_dot_options_t *o)
{
    if (!o->clusters)
        return CL_NONE;
    if (o->cluster_by)
        return CL_PREFIX;
    if (is_gpu_net(net))
        return CL_PREFIX;
    return pn_net_page_count(net) > 1 ? CL_PAGES : CL_NONE;
}

static Agraph_t *graph_of(clusters_t *c, const pn_net_t *net, cl_mode_t mode,
                          const pn_dot_options_t *o, const char *id,
                          size_t page)
{
    char key[256];
    if (mode == CL_PAGES)
        return page_graph(c, net, page);
    if (mode == CL_PREFIX &&
        pn_dot_cluster_key(id, o->cluster_by, key, sizeof key))
        return key_graph(c, key);
    return c->root;
}

/* One Graphviz context for the life of the process.  Graphviz 2.42's pango
 * text-layout plugin caches a pointer to the last font name it measured,
 * and that name lives in the context's font dictionary: freeing the
 * context (gvFreeContext) and rendering again reads freed memory.  Keeping
 * the context avoids it.  (Graphviz is not thread-safe: neither is
 * rendering.) */
static GVC_t *shared_gvc;

static GVC_t *gvc_get(void)
{
    if (!shared_gvc)
        shared_gvc = gvContext();
    return shared_gvc;
}

static pn_status_t render(GVC_t *gvc, Agraph_t *g, const char *layout,
                          const char *format, char **data, size_t *len,
                          pn_error_t *err)
{
    if (gvLayout(gvc, g, layout) != 0)
        return dfail(err, PN_ERENDER, "Graphviz could not lay out the graph "
                     "with '%s'", layout);
    char *out = NULL;
    unsigned int n = 0;
    int rc = gvRenderData(gvc, g, format, &out, &n);
    gvFreeLayout(gvc, g);
    if (rc != 0 || !out) {
        if (out)
            gvFreeRenderData(out);
        return dfail(err, PN_ERENDER, "Graphviz could not render '%s' (is "
                     "its plugin installed?)", format);
    }
    *data = malloc((size_t)n + 1);
    if (!*data) {
        gvFreeRenderData(out);
        return dfail(err, PN_ENOMEM, "out of memory");
    }
    memcpy(*data, out, n);
    (*data)[n] = '\0';
    *len = n;
    gvFreeRenderData(out);
    return PN_OK;
}

static int known(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

static const char *const formats[] = {"svg", "png", "pdf", "dot", NULL};

pn_status_t pn_dot_render(const pn_net_t *net, const pn_dot_options_t *opts,
                          const char *format, char **data, size_t *len,
                          pn_error_t *err)
{
    static const char *const layouts[] = {"dot", "neato", "fdp", "sfdp", NULL};
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_defaults(&o);
    if (!o.layout)
        o.layout = "dot";
    if (!net || !data || !len)
        return dfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    if (!known(o.layout, layouts))
        return dfail(err, PN_EINVAL, "unknown layout '%s' (dot, neato, fdp or "
                     "sfdp)", o.layout);
    if (!format || !known(format, formats))
        return dfail(err, PN_EINVAL, "unknown format '%s' (svg, png, pdf or "
                     "dot)", format ? format : "");
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net),
           na = pn_net_arc_count(net);
    size_t elements = np + nt + na;
    size_t limit = o.max_elements ? o.max_elements
                   : !strcmp(o.layout, "sfdp") ? SFDP_MAX_ELEMENTS
                                               : DEFAULT_MAX_ELEMENTS;
    if (!o.positions && elements > limit)
        return dfail(err, PN_ETOOBIG,
                     "the net has %zu nodes and arcs, too many for the '%s' "
                     "layout (at most %zu; it would take minutes): use "
                     "--positions to draw it where the PNML places it (GPU "
                     "nets are laid out by their generator), or --layout "
                     "sfdp", elements, o.layout, limit);
    if (o.positions && elements > SFDP_MAX_ELEMENTS)
        return dfail(err, PN_ETOOBIG, "the net has %zu nodes and arcs, too "
                     "many to draw (at most %d)", elements, SFDP_MAX_ELEMENTS);

    agseterr(AGMAX); /* the library never prints */
    Agraph_t *g = agopen((char *)(pn_net_id(net) ? pn_net_id(net) : "net"),
                         Agdirected, NULL);
    if (!g)
        return dfail(err, PN_ENOMEM, "out of memory");
    set(g, "rankdir", "TB");
    set(g, "fontname", "Helvetica");
    set(g, "forcelabels", "true");
    if (elements > 1500 && !strcmp(o.layout, "dot")) {
        /* less crossing minimisation and network simplex work on big nets:
         * minutes become seconds (64-warp GPU net: see make bench) */
        set(g, "mclimit", "0.2");
        set(g, "nslimit", "2");
        set(g, "nslimit1", "2");
        set(g, "searchsize", "10");
    }
    if (o.title || pn_net_name(net)) {
        set(g, "label", o.title ? o.title : pn_net_name(net));
        set(g, "labelloc", "t");
    }
    /* defaults of every node and edge; the label default is Graphviz's own
     * ("\\N", the node's name), so that an empty label is written out */
    agattr(g, AGNODE, "label", "\\N");
    if (o.positions)
        set(g, "notranslate", "true");
    agattr(g, AGNODE, "fontname", "Helvetica");
    agattr(g, AGNODE, "fontsize", "10");
    agattr(g, AGEDGE, "fontname", "Helvetica");
    agattr(g, AGEDGE, "fontsize", "9");
    clusters_t cl = {0};
    cl.root = g;
    cl.page_g = calloc(pn_net_page_count(net) + 1, sizeof *cl.page_g);
    Agnode_t **pn = malloc((np + 1) * sizeof *pn);
    Agnode_t **tn = malloc((nt + 1) * sizeof *tn);
    pn_status_t st = PN_OK;
    if (!cl.page_g || !pn || !tn) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    cl_mode_t mode = cluster_mode(net, &o);
    char name[64], label[1200], buf[64];
    for (size_t i = 0; i < np; i++) {
        const pn_place_t *p = pn_net_place(net, i);
        Agraph_t *sg = graph_of(&cl, net, mode, &o, p->id, p->page);
        snprintf(name, sizeof name, "p%zu", i);
        Agnode_t *n = agnode(sg, name, 1);
        pn[i] = n;
        uint64_t m = o.marking ? o.marking[i] : p->marking;
        token_label(m, buf, sizeof buf);
        set(n, "shape", "circle");
        set(n, "fixedsize", "true");
        set(n, "width", "0.45");
        set(n, "label", buf);
        set(n, "fontsize", m > 4 ? "10" : "12");
        node_label(p->name, p->id, o.ids, label, sizeof label);
        set(n, "xlabel", label);
        set(n, "id", (char *)p->id);
        if (p->capacity) {
            snprintf(buf, sizeof buf, "%" PRIu64, p->capacity);
            set(n, "tooltip", buf);
        }
        if (o.positions && p->has_position) {
            snprintf(label, sizeof label, "%.2f,%.2f!", p->x, -p->y);
            set(n, "pos", label);
        }
    }
    for (size_t i = 0; i < nt; i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        Agraph_t *sg = graph_of(&cl, net, mode, &o, t->id, t->page);
        snprintf(name, sizeof name, "t%zu", i);
        Agnode_t *n = agnode(sg, name, 1);
        tn[i] = n;
        set(n, "shape", "box");
        set(n, "label", "");
        set(n, "width", "0.15");
        set(n, "height", "0.45");
        set(n, "style", "filled");
        int hot = o.fired && o.fired[i];
        set(n, "fillcolor", hot ? "#e4572e" : "#333333");
        if (hot)
            set(n, "penwidth", "2");
        node_label(t->name, t->id, o.ids, label, sizeof label);
        set(n, "xlabel", label);
        set(n, "id", (char *)t->id);
        if (o.positions && t->has_position) {
            snprintf(label, sizeof label, "%.2f,%.2f!", t->x, -t->y);
            set(n, "pos", label);
        }
    }
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        Agnode_t *from = a->dir == PN_DIR_PT ? pn[a->place] : tn[a->transition];
        Agnode_t *to = a->dir == PN_DIR_PT ? tn[a->transition] : pn[a->place];
        snprintf(name, sizeof name, "a%zu", i);
        Agedge_t *e = agedge(g, from, to, name, 1);
        set(e, "class", (char *)pn_arc_kind_name(a->kind));
        if (a->weight > 1) {
            snprintf(buf, sizeof buf, "%" PRIu64, a->weight);
            set(e, "label", buf);
        }
        switch (a->kind) {
        case PN_ARC_NORMAL:
            break;
        case PN_ARC_INHIBITOR:
            set(e, "arrowhead", "odot");
            break;
        case PN_ARC_READ:
            set(e, "arrowhead", "none");
            set(e, "style", "dashed");
            break;
        case PN_ARC_RESET:
            set(e, "arrowhead", "normalnormal");
            set(e, "style", "bold");
            break;
        }
        if (o.fired && o.fired[a->transition])
            set(e, "color", "#e4572e");
    }
    GVC_t *gvc = gvc_get();
    if (!gvc) {
        st = dfail(err, PN_ENOMEM, "cannot start Graphviz");
        goto done;
    }
    st = render(gvc, g, o.positions ? "nop" : o.layout, format, data, len,
                err);
done:
    free(pn);
    free(tn);
    clusters_free(&cl);
    agclose(g);
    return st;
}

/* ---- timelines ---------------------------------------------------------- */

typedef enum { K_OTHER, K_CONTROL, K_ARITH, K_SHARED, K_GLOBAL, K_IDLE } kind_t;

static const char *const kind_color[] = {"#555555", "#d9d9d9", "#4e79a7",
                                         "#59a14f", "#f28e2b", "#bab0ac"};
static const char *const kind_name[] = {"fired", "control", "arithmetic",
                                        "shared", "global", "idle"};

/* The kind of a GPU warp net transition, from its id. */
static kind_t gpu_kind(const char *id)
{
    if (!strcmp(id, "t0"))
        return K_IDLE;
    const char *u = strrchr(id, '_');
    if (!u || u[1] != 't')
        return K_OTHER;
    int k = atoi(u + 2);
    switch (k) {
    case 7: case 15: return K_ARITH;
    case 6: case 12: case 14: case 17: return K_SHARED;
    case 5: case 8: case 9: case 11: return K_GLOBAL;
    default: return K_CONTROL;
    }
}

static int cmp_key(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    /* w2 before w10: compare the numbers of GPU warp keys */
    if (x[0] == 'w' && y[0] == 'w' && x[1] >= '0' && x[1] <= '9' &&
        y[1] >= '0' && y[1] <= '9')
        return atol(x + 1) < atol(y + 1) ? -1 : atol(x + 1) > atol(y + 1);
    return strcmp(x, y);
}

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} sbuf_t;

static void sb_printf(sbuf_t *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0,
                          fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t need = b->n + (size_t)k + 1;
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < need)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

static void html_escape(sbuf_t *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            sb_printf(b, "&lt;");
        else if (*s == '>')
            sb_printf(b, "&gt;");
        else if (*s == '&')
            sb_printf(b, "&amp;");
        else if (*s == '"')
            sb_printf(b, "&quot;");
        else
            sb_printf(b, "%c", *s);
    }
}

pn_status_t pn_dot_timeline(const pn_net_t *net, const pn_trace_t *trace,
                            uint64_t first, uint64_t last,
                            const pn_dot_options_t *opts, const char *format,
                            char **data, size_t *len, pn_error_t *err)
{
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_defaults(&o);
    if (!net || !trace || !data || !len)
        return dfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    if (!format || !known(format, formats))
        return dfail(err, PN_EINVAL, "unknown format '%s' (svg, png, pdf or "
                     "dot)", format ? format : "");
    uint64_t steps = pn_trace_steps(trace);
    if (first < 1 || last < first || last > steps)
        return dfail(err, PN_EINVAL, "steps %" PRIu64 "-%" PRIu64 " are not "
                     "in the trace (it has steps 1-%" PRIu64 ")", first, last,
                     steps);
    /* rows: clusters (GPU warps, or the id prefix rule), else transitions */
    size_t nt = pn_net_transition_count(net);
    int gpu = is_gpu_net(net);
    const char *sep = o.cluster_by;
    size_t *row_of = malloc((nt + 1) * sizeof *row_of);
    char **rows = calloc(nt + 2, sizeof *rows);
    kind_t *kinds = malloc((nt + 1) * sizeof *kinds);
    pn_status_t st = PN_OK;
    unsigned char *cells = NULL;
    sbuf_t b = {0};
    size_t nrows = 0;
    if (!row_of || !rows || !kinds) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    int by_cluster = o.clusters && (gpu || sep);
    for (size_t t = 0; t < nt; t++) {
        const char *id = pn_net_transition(net, t)->id;
        char key[256];
        kinds[t] = gpu ? gpu_kind(id) : K_OTHER;
        const char *rk;
        if (gpu && !strcmp(id, "t0"))
            rk = "idle";
        else if (by_cluster && pn_dot_cluster_key(id, sep, key, sizeof key))
            rk = key;
        else if (by_cluster)
            rk = "(other)";
        else
            rk = id;
        size_t r;
        for (r = 0; r < nrows && strcmp(rows[r], rk); r++)
            ;
        if (r == nrows)
            rows[nrows++] = strdup(rk);
        row_of[t] = r;
    }
    /* sorted rows (idle first for GPU nets) */
    size_t *order = malloc((nrows + 1) * sizeof *order);
    char **sorted = malloc((nrows + 1) * sizeof *sorted);
    if (!order || !sorted) {
        free(order);
        free(sorted);
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(sorted, rows, nrows * sizeof *sorted);
    if (by_cluster)
        qsort(sorted, nrows, sizeof *sorted, cmp_key);
    for (size_t i = 0; i < nrows; i++)
        for (size_t r = 0; r < nrows; r++)
            if (rows[r] == sorted[i])
                order[r] = i;
    if (gpu)
        for (size_t i = 0; i < nrows; i++)
            if (!strcmp(sorted[i], "idle") && i > 0) {
                char *idle = sorted[i];
                memmove(sorted + 1, sorted, i * sizeof *sorted);
                sorted[0] = idle;
                for (size_t r = 0; r < nrows; r++)
                    if (order[r] < i)
                        order[r]++;
                    else if (order[r] == i)
                        order[r] = 0;
                break;
            }
    uint64_t ncols = last - first + 1;
    if ((uint64_t)nrows * ncols > PN_TIMELINE_MAX_CELLS) {
        uint64_t fit = PN_TIMELINE_MAX_CELLS / (nrows ? nrows : 1);
        st = dfail(err, PN_ETOOBIG, "steps %" PRIu64 "-%" PRIu64 " over %zu "
                   "rows is %" PRIu64 " cells, more than %d: draw a window of "
                   "at most %" PRIu64 " steps (--steps %" PRIu64 "-%" PRIu64
                   ")", first, last, nrows, (uint64_t)nrows * ncols,
                   PN_TIMELINE_MAX_CELLS, fit, first, first + fit - 1);
        free(order);
        free(sorted);
        goto done;
    }
    /* the strongest kind fired per row and step (0: nothing) */
    cells = calloc((size_t)(nrows * ncols) + 1, 1);
    if (!cells) {
        free(order);
        free(sorted);
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    for (uint64_t s = first; s <= last; s++) {
        size_t n;
        const uint32_t *f = pn_trace_fired(trace, s, &n);
        for (size_t i = 0; i < n; i++) {
            size_t r = order[row_of[f[i]]];
            unsigned char *c = &cells[r * ncols + (s - first)];
            unsigned char k = (unsigned char)(kinds[f[i]] + 1);
            if (k > *c)
                *c = k;
        }
    }
    /* one node whose label is a table: rows x steps */
    sb_printf(&b, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\" "
                  "CELLPADDING=\"0\">");
    for (size_t r = 0; r < nrows; r++) {
        sb_printf(&b, "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\">");
        html_escape(&b, sorted[r]);
        sb_printf(&b, "</FONT></TD>");
        for (uint64_t c = 0; c < ncols; c++) {
            unsigned char k = cells[r * ncols + c];
            sb_printf(&b, "<TD WIDTH=\"6\" HEIGHT=\"12\" FIXEDSIZE=\"TRUE\" "
                      "BGCOLOR=\"%s\"></TD>", k ? kind_color[k - 1] : "#ffffff");
        }
        sb_printf(&b, "</TR>");
    }
    /* step numbers every 10 steps */
    sb_printf(&b, "<TR><TD></TD>");
    for (uint64_t s = first; s <= last;) {
        uint64_t span = (s % 10 == 0) ? 10 : 10 - s % 10;
        if (s + span - 1 > last)
            span = last - s + 1;
        if (s % 10 == 0)
            sb_printf(&b, "<TD COLSPAN=\"%" PRIu64 "\" ALIGN=\"LEFT\"><FONT "
                      "POINT-SIZE=\"8\">%" PRIu64 "</FONT></TD>", span, s);
        else
            sb_printf(&b, "<TD COLSPAN=\"%" PRIu64 "\"></TD>", span);
        s += span;
    }
    sb_printf(&b, "</TR></TABLE>");
    free(order);
    free(sorted);
    if (b.oom) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    agseterr(AGMAX);
    Agraph_t *g = agopen("timeline", Agdirected, NULL);
    char title[256];
    snprintf(title, sizeof title, "%s: steps %" PRIu64 "-%" PRIu64,
             o.title ? o.title : pn_net_id(net) ? pn_net_id(net) : "run",
             first, last);
    set(g, "label", title);
    set(g, "labelloc", "t");
    set(g, "fontname", "Helvetica");
    Agnode_t *n = agnode(g, "timeline", 1);
    set(n, "shape", "plain");
    agsafeset(n, "label", agstrdup_html(g, b.s), "");
    /* the legend */
    sbuf_t lg = {0};
    sb_printf(&lg, "<TABLE BORDER=\"0\" CELLSPACING=\"4\"><TR>");
    for (int k = gpu ? K_CONTROL : K_OTHER; k <= (gpu ? K_IDLE : K_OTHER); k++)
        sb_printf(&lg, "<TD WIDTH=\"10\" HEIGHT=\"10\" BGCOLOR=\"%s\"></TD>"
                  "<TD><FONT POINT-SIZE=\"9\">%s</FONT></TD>", kind_color[k],
                  kind_name[k]);
    sb_printf(&lg, "</TR></TABLE>");
    Agnode_t *legend = agnode(g, "legend", 1);
    set(legend, "shape", "plain");
    if (!lg.oom)
        agsafeset(legend, "label", agstrdup_html(g, lg.s), "");
    free(lg.s);
    set(agedge(g, n, legend, NULL, 1), "style", "invis");
    GVC_t *gvc = gvc_get();
    st = gvc ? render(gvc, g, "dot", format, data, len, err)
             : dfail(err, PN_ENOMEM, "cannot start Graphviz");
    agclose(g);
done:
    for (size_t i = 0; rows && i < nrows; i++)
        free(rows[i]);
    free(rows);
    free(row_of);
    free(kinds);
    free(cells);
    free(b.s);
    return st;
}
