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
#include "lib_private.h"

#define DEFAULT_MAX_ELEMENTS 4000
#define SFDP_MAX_ELEMENTS 400000

void pn_dot_defaults(pn_dot_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->layout = "dot";
    o->clusters = 1;
}

#define dfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

struct pn_dot_context {
    GVC_t *gvc;
};

pn_dot_context_t *pn_dot_context_new(void)
{
    pn_dot_context_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->gvc = gvContext();
    if (!c->gvc) {
        free(c);
        return NULL;
    }
    return c;
}

void pn_dot_context_free(pn_dot_context_t *c)
{
    if (!c)
        return;
    gvFreeContext(c->gvc);
    free(c);
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
    const pn_groups_t *groups;
    Agraph_t **group_g; /* subgraph of each group */
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

static Agraph_t *group_graph(clusters_t *c, size_t group)
{
    if (group == PN_NONE || group >= c->groups->ngroups)
        return c->root;
    if (c->group_g[group])
        return c->group_g[group];
    char name[300];
    snprintf(name, sizeof name, "cluster_%s", c->groups->group_names[group]);
    Agraph_t *g = agsubg(c->root, name, 1);
    set(g, "label", c->groups->group_names[group]);
    set(g, "style", "rounded");
    set(g, "color", "#999999");
    c->group_g[group] = g;
    return g;
}

static void clusters_free(clusters_t *c)
{
    free(c->group_g);
    free(c->page_g);
}

typedef enum { CL_NONE, CL_PAGES, CL_GROUPS } cl_mode_t;

static cl_mode_t cluster_mode(const pn_net_t *net, const pn_dot_options_t *o)
{
    if (!o->clusters)
        return CL_NONE;
    if (o->groups)
        return CL_GROUPS;
    return pn_net_page_count(net) > 1 ? CL_PAGES : CL_NONE;
}

/* The subgraph a node goes into. */
static Agraph_t *graph_of(clusters_t *c, const pn_net_t *net, cl_mode_t mode,
                          size_t group, size_t page)
{
    if (mode == CL_PAGES)
        return page_graph(c, net, page);
    if (mode == CL_GROUPS)
        return group_graph(c, group);
    return c->root;
}

/* Whether groups fit the net (one entry per node). */
static int groups_fit(const pn_groups_t *g, const pn_net_t *net)
{
    return !g || (g->nplaces == pn_net_place_count(net) &&
                  g->ntransitions == pn_net_transition_count(net));
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

pn_status_t pn_dot_render(pn_dot_context_t *ctx, const pn_net_t *net,
                          const pn_dot_options_t *opts, const char *format,
                          char **data, size_t *len, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    static const char *const layouts[] = {"dot", "neato", "fdp", "sfdp", NULL};
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_defaults(&o);
    if (!o.layout)
        o.layout = "dot";
    if (!ctx || !net || !data || !len || !groups_fit(o.groups, net))
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
                     "layout (at most %zu; it would take minutes): draw it "
                     "at the positions its file gives (GPU nets are laid "
                     "out by their generator), or with the sfdp layout",
                     elements, o.layout, limit);
    if (o.positions && elements > SFDP_MAX_ELEMENTS)
        return dfail(err, PN_ETOOBIG, "the net has %zu nodes and arcs, too "
                     "many to draw (at most %d)", elements, SFDP_MAX_ELEMENTS);

    /* the library never prints; cgraph's error level is process-wide, so it
     * is set back before returning */
    agerrlevel_t level = agseterr(AGMAX);
    Agraph_t *g = agopen((char *)(pn_net_id(net) ? pn_net_id(net) : "net"),
                         Agdirected, NULL);
    if (!g) {
        agseterr(level);
        return dfail(err, PN_ENOMEM, "out of memory");
    }
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
    cl.groups = o.groups;
    cl.group_g = calloc((o.groups ? o.groups->ngroups : 0) + 1,
                        sizeof *cl.group_g);
    Agnode_t **pn = malloc((np + 1) * sizeof *pn);
    Agnode_t **tn = malloc((nt + 1) * sizeof *tn);
    pn_status_t st = PN_OK;
    if (!cl.page_g || !cl.group_g || !pn || !tn) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    cl_mode_t mode = cluster_mode(net, &o);
    char name[64], label[1200], buf[64];
    for (size_t i = 0; i < np; i++) {
        const pn_place_t *p = pn_net_place(net, i);
        Agraph_t *sg = graph_of(&cl, net, mode,
                                o.groups ? o.groups->place_group[i] : PN_NONE,
                                p->page);
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
        Agraph_t *sg = graph_of(&cl, net, mode,
                                o.groups ? o.groups->transition_group[i]
                                         : PN_NONE,
                                t->page);
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
    st = render(ctx->gvc, g, o.positions ? "nop" : o.layout, format, data,
                len, err);
done:
    free(pn);
    free(tn);
    clusters_free(&cl);
    agclose(g);
    agseterr(level);
    return st;
}

/* ---- timelines ---------------------------------------------------------- */

/* Transitions in no class are drawn in this colour, and when the options
 * give no classes the legend says "fired". */
#define FIRED_COLOR "#555555"

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

/* The timeline's rows: one per group (in the groups' order, then
 * "(other)" for the transitions in none), or one per transition. */
static size_t timeline_rows(const pn_net_t *net, const pn_groups_t *gr,
                            size_t *row_of, const char **names)
{
    size_t nt = pn_net_transition_count(net), nrows = 0;
    if (!gr) {
        for (size_t t = 0; t < nt; t++) {
            row_of[t] = t;
            names[t] = pn_net_transition(net, t)->id;
        }
        return nt;
    }
    /* only the groups that hold a transition get a row */
    size_t *row_of_group = malloc((gr->ngroups + 1) * sizeof *row_of_group);
    if (!row_of_group)
        return (size_t)-1;
    for (size_t k = 0; k < gr->ngroups; k++)
        row_of_group[k] = PN_NONE;
    for (size_t t = 0; t < nt; t++)
        if (gr->transition_group[t] < gr->ngroups)
            row_of_group[gr->transition_group[t]] = 0;
    for (size_t k = 0; k < gr->ngroups; k++)
        if (row_of_group[k] == 0) {
            row_of_group[k] = nrows;
            names[nrows++] = gr->group_names[k];
        }
    size_t other = PN_NONE;
    for (size_t t = 0; t < nt; t++) {
        size_t k = gr->transition_group[t];
        if (k < gr->ngroups)
            row_of[t] = row_of_group[k];
        else {
            if (other == PN_NONE) {
                other = nrows;
                names[nrows++] = "(other)";
            }
            row_of[t] = other;
        }
    }
    free(row_of_group);
    return nrows;
}

pn_status_t pn_dot_timeline(pn_dot_context_t *ctx, const pn_net_t *net,
                            const pn_trace_t *trace, uint64_t first,
                            uint64_t last, const pn_dot_options_t *opts,
                            const char *format, char **data, size_t *len,
                            pn_error_t *err)
{
    pni_error_begin(err, NULL);
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_defaults(&o);
    if (!ctx || !net || !trace || !data || !len || !groups_fit(o.groups, net))
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
    /* rows, then the window's size is checked before any work per cell */
    size_t nt = pn_net_transition_count(net);
    const pn_groups_t *gr = o.groups;
    size_t *row_of = malloc((nt + 1) * sizeof *row_of);
    const char **rows = malloc((nt + 2) * sizeof *rows);
    pn_status_t st = PN_OK;
    unsigned char *cells = NULL;
    sbuf_t b = {0};
    size_t nrows = row_of && rows
                       ? timeline_rows(net, o.clusters ? gr : NULL, row_of,
                                       rows)
                       : (size_t)-1;
    if (nrows == (size_t)-1) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    uint64_t ncols = last - first + 1;
    if ((uint64_t)nrows * ncols > PN_TIMELINE_MAX_CELLS) {
        uint64_t fit = PN_TIMELINE_MAX_CELLS / (nrows ? nrows : 1);
        st = dfail(err, PN_ETOOBIG, "steps %" PRIu64 "-%" PRIu64 " over %zu "
                   "rows is %" PRIu64 " cells, more than %d: draw a window of "
                   "at most %" PRIu64 " steps (steps %" PRIu64 "-%" PRIu64
                   ")", first, last, nrows, (uint64_t)nrows * ncols,
                   PN_TIMELINE_MAX_CELLS, fit, first, first + fit - 1);
        goto done;
    }
    /* the strongest class fired per row and step (0: nothing, 1: a
     * transition in no class, 2 + c: class c); classes beyond 253 are
     * drawn as none */
    size_t nclasses = gr && gr->nclasses < 254 ? gr->nclasses : 0;
    cells = calloc((size_t)(nrows * ncols) + 1, 1);
    if (!cells) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    for (uint64_t s = first; s <= last; s++) {
        size_t n;
        const uint32_t *f = pn_trace_fired(trace, s, &n);
        for (size_t i = 0; i < n; i++) {
            size_t r = row_of[f[i]];
            unsigned char *c = &cells[r * ncols + (s - first)];
            size_t cls = gr ? gr->transition_class[f[i]] : PN_NONE;
            unsigned char k = (unsigned char)(cls < nclasses ? cls + 2 : 1);
            if (k > *c)
                *c = k;
        }
    }
    /* one node whose label is a table: rows x steps */
    sb_printf(&b, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\" "
                  "CELLPADDING=\"0\">");
    for (size_t r = 0; r < nrows; r++) {
        sb_printf(&b, "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\">");
        html_escape(&b, rows[r]);
        sb_printf(&b, "</FONT></TD>");
        for (uint64_t c = 0; c < ncols; c++) {
            unsigned char k = cells[r * ncols + c];
            sb_printf(&b, "<TD WIDTH=\"6\" HEIGHT=\"12\" FIXEDSIZE=\"TRUE\" "
                      "BGCOLOR=\"%s\"></TD>",
                      k == 0 ? "#ffffff" : k == 1 ? FIRED_COLOR
                                                  : gr->class_colors[k - 2]);
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
    if (b.oom) {
        st = dfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    agerrlevel_t level = agseterr(AGMAX);
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
    for (size_t k = 0; k < (nclasses ? nclasses : 1); k++) {
        sb_printf(&lg, "<TD WIDTH=\"10\" HEIGHT=\"10\" BGCOLOR=\"%s\"></TD>"
                  "<TD><FONT POINT-SIZE=\"9\">",
                  nclasses ? gr->class_colors[k] : FIRED_COLOR);
        html_escape(&lg, nclasses ? gr->class_names[k] : "fired");
        sb_printf(&lg, "</FONT></TD>");
    }
    sb_printf(&lg, "</TR></TABLE>");
    Agnode_t *legend = agnode(g, "legend", 1);
    set(legend, "shape", "plain");
    if (!lg.oom)
        agsafeset(legend, "label", agstrdup_html(g, lg.s), "");
    free(lg.s);
    set(agedge(g, n, legend, NULL, 1), "style", "invis");
    st = render(ctx->gvc, g, "dot", format, data, len, err);
    agclose(g);
    agseterr(level);
done:
    free(rows);
    free(row_of);
    free(cells);
    free(b.s);
    return st;
}
