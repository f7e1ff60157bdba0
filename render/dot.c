/*
 * Graphviz export: nets as graphs (places as circles with their tokens,
 * transitions as boxes, arcs by kind), clusters for pages or warps, and
 * what the files of render/ share (render_private.h): the text of labels,
 * the options' checks, the rendering.  Folded groups are drawn by fold.c,
 * traces as space-time diagrams by timeline.c.
 */
#include <config.h>
#include <inttypes.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_private.h"

#define DEFAULT_MAX_ELEMENTS 4000
#define SFDP_MAX_ELEMENTS 400000
/* Graphviz's bitmaps: pixels per inch (the cairo renderer's default) and
 * the pad around the drawing, in points (72 to the inch). */
#define BITMAP_DPI 96.0
#define BITMAP_PAD 4.0

void pn_dot_options_init(pn_dot_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->layout = "dot";
}

pn_status_t pn_dot_labels_parse(const char *name, pn_dot_labels_t *labels)
{
    static const char *const names[] = {"short", "name", "id", "none"};
    for (int i = 0; name && i < 4; i++)
        if (!strcmp(name, names[i])) {
            *labels = (pn_dot_labels_t)i;
            return PN_OK;
        }
    return PN_EINVAL;
}

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

/* ---- text of HTML-like labels ------------------------------------------- */

/* Appends s to b with Graphviz's escapes doubled (drawn as written). */
void pni_dot_sb_escaped(pni_sb_t *b, const char *s)
{
    for (; *s; s++)
        if (*s == '\\')
            pni_sb_puts(b, "\\\\");
        else
            pni_sb_putc(b, *s);
}

void pni_dot_html_escape(pni_sb_t *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            pni_sb_puts(b, "&lt;");
        else if (*s == '>')
            pni_sb_puts(b, "&gt;");
        else if (*s == '&')
            pni_sb_puts(b, "&amp;");
        else if (*s == '"')
            pni_sb_puts(b, "&quot;");
        else if (*s == '\\') /* Graphviz's escapes, as in plain labels */
            pni_sb_puts(b, "\\\\");
        else
            pni_sb_putc(b, *s);
    }
}

/* ---- nets -------------------------------------------------------------- */

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

/* Graphviz reads backslashes in labels, tooltips and ids as escapes (\N:
 * the node's name, \G: the graph's, \n: a line break, ...); text from
 * the net is drawn as written with every backslash doubled.  The length
 * of s so escaped: */
static size_t escaped_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\\' ? 2 : 1;
    return n;
}

/* Writes s escaped at p; returns the end. */
static char *put_escaped(char *p, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            *p++ = '\\';
        *p++ = *s;
    }
    return p;
}

/* Sets attribute name to text from the net, drawn as written: text, or
 * with a second text, "text\n[second]" (a line break between them). */
static void set_text2(void *obj, const char *name, const char *text,
                      const char *second)
{
    size_t n = escaped_len(text) + (second ? escaped_len(second) + 4 : 0);
    char small[512];
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf) /* out of memory: the text is left out */
        return;
    char *p = put_escaped(buf, text);
    if (second) {
        memcpy(p, "\\n[", 3);
        p = put_escaped(p + 3, second);
        *p++ = ']';
    }
    *p = '\0';
    pni_dot_set(obj, name, buf);
    if (buf != small)
        free(buf);
}

void pni_dot_set_text(void *obj, const char *name, const char *text)
{
    set_text2(obj, name, text, NULL);
}

typedef struct {
    Agraph_t *root;
    Agraph_t **page_g;  /* subgraph of each page */
    const pn_groups_t *groups;
    Agraph_t **group_g; /* subgraph of each group */
    size_t *group_size; /* nodes in each group */
    const unsigned char *folded; /* per group: drawn as one box (NULL:
                                    none is) */
    Agnode_t **copies;  /* the copies of shared nodes made */
    size_t ncopies, copies_cap;
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
    pni_dot_set_text(g, "label", pg->name ? pg->name : pg->id ? pg->id : "");
    pni_dot_set(g, "style", "rounded");
    pni_dot_set(g, "color", "#999999");
    c->page_g[page] = g;
    return g;
}

static Agraph_t *group_graph(clusters_t *c, size_t group)
{
    /* a group of one node is drawn without a box: the box would only
     * crowd the node (its label crossed by the arcs into it) */
    if (group == PN_NONE || group >= c->groups->ngroups ||
        (c->group_size && c->group_size[group] < 2))
        return c->root;
    if (c->group_g[group])
        return c->group_g[group];
    char name[300];
    snprintf(name, sizeof name, "cluster_%s", c->groups->group_names[group]);
    Agraph_t *g = agsubg(c->root, name, 1);
    pni_dot_set_text(g, "label", c->groups->group_names[group]);
    pni_dot_set(g, "style", "rounded");
    pni_dot_set(g, "color", "#999999");
    c->group_g[group] = g;
    return g;
}

static void clusters_free(clusters_t *c)
{
    free(c->copies);
    free(c->group_size);
    free(c->group_g);
    free(c->page_g);
}

typedef enum { CL_NONE, CL_PAGES, CL_GROUPS } cl_mode_t;

static cl_mode_t cluster_mode(const pn_net_t *net, const pn_dot_options_t *o)
{
    if (o->no_clusters)
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
int pni_dot_groups_fit(const pn_groups_t *g, const pn_net_t *net)
{
    return !g || (g->nplaces == pn_net_place_count(net) &&
                  g->ntransitions == pn_net_transition_count(net));
}

/* The formats drawn as bitmaps (Graphviz allocates width x height pixels
 * at once). */
static int is_bitmap(const char *format)
{
    return !strcmp(format, "png");
}

/* The pixels of a bitmap of a drawing with bounding box bb (in points),
 * as Graphviz reckons them. */
static void bitmap_size(boxf bb, double dpi, double *w, double *h)
{
    *w = floor((bb.UR.x - bb.LL.x + 2 * BITMAP_PAD) * dpi / 72.0 + 0.5);
    *h = floor((bb.UR.y - bb.LL.y + 2 * BITMAP_PAD) * dpi / 72.0 + 0.5);
}

/* A bitmap's resolution: set on the graph when the options give one. */
void pni_dot_set_dpi(Agraph_t *g, const char *format, double dpi)
{
    char buf[32];
    if (is_bitmap(format) && dpi > 0) {
        snprintf(buf, sizeof buf, "%g", dpi);
        pni_dot_set(g, "dpi", buf);
    }
}

/* The highest whole dpi, from dpi down, at which the larger side of a
 * bitmap of bb is at most max_side pixels; 0 when none is. */
static double side_fit(boxf bb, double dpi, double max_side)
{
    double w, h;
    bitmap_size(bb, dpi, &w, &h);
    double fit = floor(dpi * max_side / fmax(w, h));
    while (fit >= 1 && (bitmap_size(bb, fit, &w, &h), fmax(w, h) > max_side))
        fit--;
    return fit >= 1 ? fit : 0;
}

/* A bitmap's size from the laid-out drawing (its bounding box in points,
 * the pad around it, the resolution), checked before Graphviz allocates
 * it: a side above max_side (when nonzero) lowers the resolution, which
 * is set on the graph and told in *used; above PN_DOT_MAX_PIXELS it is
 * refused, the message reckoned at the resolution asked. */
static pn_status_t check_bitmap(Agraph_t *g, const char *format,
                                uint64_t max_side, double *used,
                                pn_error_t *err)
{
    *used = 0;
    if (!is_bitmap(format))
        return PN_OK;
    boxf bb = GD_bb(g);
    double dpi = GD_drawing(g) && GD_drawing(g)->dpi > 0
                     ? GD_drawing(g)->dpi : BITMAP_DPI;
    double w, h, lw, lh, low = dpi;
    bitmap_size(bb, dpi, &w, &h);
    if (max_side && GD_drawing(g) && fmax(w, h) > (double)max_side) {
        low = side_fit(bb, dpi, (double)max_side);
        if (low < 1)
            return dfail(err, PN_ETOOBIG, "a %s of this drawing would be "
                         "more than %" PRIu64 " pixels a side even at 1 "
                         "dpi: draw it as svg or pdf", format, max_side);
        /* Graphviz renders at the drawing's dpi, read when the job starts */
        GD_drawing(g)->dpi = low;
    }
    bitmap_size(bb, low, &lw, &lh);
    if (lw * lh <= PN_DOT_MAX_PIXELS) {
        *used = low;
        return PN_OK;
    }
    /* the resolution at which it fits, if any */
    double fit = floor(dpi * sqrt(PN_DOT_MAX_PIXELS / (w * h)));
    double fw = 0, fh = 0;
    while (fit >= 1 && (bitmap_size(bb, fit, &fw, &fh),
                        fw * fh > PN_DOT_MAX_PIXELS))
        fit--;
    char also[80] = "";
    if (fit >= 1)
        snprintf(also, sizeof also, ", or at %.0f dpi or less (not %g)", fit,
                 dpi);
    return dfail(err, PN_ETOOBIG, "a %s of this drawing would be %.0f x %.0f "
                 "pixels (%.0f megapixels), more than %d: draw it as svg or "
                 "pdf, which have no such limit%s", format, w, h, w * h / 1e6,
                 PN_DOT_MAX_PIXELS / 1000000, also);
}

/* Lays out g and renders it; a bitmap's resolution as check_bitmap()
 * leaves it is kept in ctx (pn_dot_last_dpi()). */
pn_status_t pni_dot_render(pn_dot_context_t *ctx, Agraph_t *g,
                           const char *layout, const char *format,
                           uint64_t max_side, char **data, size_t *len,
                           pn_error_t *err)
{
    GVC_t *gvc = ctx->gvc;
    double used;
    if (gvLayout(gvc, g, layout) != 0)
        return dfail(err, PN_ERENDER, "Graphviz could not lay out the graph "
                     "with '%s'", layout);
    pn_status_t st = check_bitmap(g, format, max_side, &used, err);
    if (st) {
        gvFreeLayout(gvc, g);
        return st;
    }
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
    ctx->dpi = used;
    return PN_OK;
}

double pn_dot_last_dpi(const pn_dot_context_t *ctx)
{
    return ctx ? ctx->dpi : 0;
}

static int known(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

static const char *const formats[] = {"svg", "png", "pdf", "dot", NULL};

/* The options given, or the defaults. */
pn_dot_options_t pni_dot_options_or_defaults(const pn_dot_options_t *opts)
{
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_options_init(&o);
    return o;
}

/* The format, and the resolution of bitmaps. */
pn_status_t pni_dot_check_format(const char *format, double dpi,
                                 pn_error_t *err)
{
    if (!format || !known(format, formats))
        return dfail(err, PN_EINVAL, "unknown format '%s' (svg, png, pdf or "
                     "dot)", format ? format : "");
    if (!(dpi >= 0 && dpi <= PN_DOT_MAX_DPI))
        return dfail(err, PN_EINVAL, "a resolution of %g dpi (from 1 to %d; "
                     "0: the default)", dpi, PN_DOT_MAX_DPI);
    return PN_OK;
}

/* The layout, the format, and the net's size (nodes and arcs): dot, neato
 * and fdp take minutes on big nets. */
static pn_status_t check_render_options(const pn_dot_options_t *o,
                                        const char *format, size_t elements,
                                        pn_error_t *err)
{
    static const char *const layouts[] = {"dot", "neato", "fdp", "sfdp", NULL};
    static const char *const rankdirs[] = {"TB", "LR", "BT", "RL", NULL};
    if (!known(o->layout, layouts))
        return dfail(err, PN_EINVAL, "unknown layout '%s' (dot, neato, fdp or "
                     "sfdp)", o->layout);
    if (o->rankdir && !known(o->rankdir, rankdirs))
        return dfail(err, PN_EINVAL, "unknown rank direction '%s' (TB, LR, BT "
                     "or RL)", o->rankdir);
    if ((unsigned)o->labels > PN_LABELS_NONE)
        return dfail(err, PN_EINVAL, "unknown labels %d", (int)o->labels);
    pn_status_t st = pni_dot_check_format(format, o->dpi, err);
    if (st)
        return st;
    size_t limit = o->max_elements ? o->max_elements
                   : !strcmp(o->layout, "sfdp") ? SFDP_MAX_ELEMENTS
                                                : DEFAULT_MAX_ELEMENTS;
    if (!o->positions && elements > limit)
        return dfail(err, PN_ETOOBIG,
                     "the net has %zu nodes and arcs, too many for the '%s' "
                     "layout (at most %zu; it would take minutes): draw it "
                     "at the positions its file gives (GPU nets are laid "
                     "out by their generator), fold its groups, or use the "
                     "sfdp layout",
                     elements, o->layout, limit);
    if (o->positions && elements > SFDP_MAX_ELEMENTS)
        return dfail(err, PN_ETOOBIG, "the net has %zu nodes and arcs, too "
                     "many to draw (at most %d)", elements, SFDP_MAX_ELEMENTS);
    return PN_OK;
}

/* With positions, every node where Graphviz can draw it: a finite x and y
 * within PN_DOT_MAX_POSITION points (its label placement keeps boxes in
 * ints and aborts beyond them).  Nodes without a position are left to
 * Graphviz. */
static pn_status_t check_position(const char *kind, const char *id,
                                  int has_position, double x, double y,
                                  pn_error_t *err)
{
    if (!has_position || (fabs(x) <= PN_DOT_MAX_POSITION &&
                          fabs(y) <= PN_DOT_MAX_POSITION))
        return PN_OK;
    return dfail(err, PN_ETOOBIG, "%s '%s' is at (%g, %g), outside the "
                 "positions that can be drawn (x and y from -%.0f to %.0f): "
                 "draw the net without its positions (a layout places the "
                 "nodes), or move the node", kind, id, x, y,
                 PN_DOT_MAX_POSITION, PN_DOT_MAX_POSITION);
}

static pn_status_t check_positions(const pn_net_t *net, pn_error_t *err)
{
    pn_status_t st = PN_OK;
    for (size_t i = 0; !st && i < pn_net_place_count(net); i++) {
        const pn_place_t *p = pn_net_place(net, i);
        st = check_position("place", p->id, p->has_position, p->x, p->y,
                            err);
    }
    for (size_t i = 0; !st && i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        st = check_position("transition", t->id, t->has_position, t->x, t->y,
                            err);
    }
    return st;
}

/* Attributes of the graph and defaults of every node and edge. */
static void set_graph_defaults(Agraph_t *g, const pn_net_t *net,
                               const pn_dot_options_t *o)
{
    pni_dot_set(g, "rankdir", o->rankdir ? o->rankdir : "TB");
    pni_dot_set(g, "fontname", "Helvetica");
    pni_dot_set(g, "forcelabels", "true");
    if (o->title || pn_net_name(net)) {
        pni_dot_set_text(g, "label", o->title ? o->title : pn_net_name(net));
        pni_dot_set(g, "labelloc", "t");
    }
    /* the label default is Graphviz's own ("\\N", the node's name), so
     * that an empty label is written out */
    agattr(g, AGNODE, "label", "\\N");
    if (o->positions)
        pni_dot_set(g, "notranslate", "true");
    agattr(g, AGNODE, "fontname", "Helvetica");
    agattr(g, AGNODE, "fontsize", "10");
    agattr(g, AGEDGE, "fontname", "Helvetica");
    agattr(g, AGEDGE, "fontsize", "9");
    /* room between nodes for the text beside them, which Graphviz places
     * after the layout: on PIPE's Courier protocol (short labels), 5 texts
     * crossed by an arc where Graphviz's 0.25 inch leaves 19 */
    if (pni_dot_measures_shown(net, o))
        pni_dot_set(g, "nodesep", "0.5");
}

/* A node's short label: its id less the name of its group and what
 * separates them ("w3_p1" in group "w3": "p1"), else its id. */
const char *pni_dot_short_of(const char *id, const char *group)
{
    size_t n = group ? strlen(group) : 0;
    if (n && !strncmp(id, group, n) && id[n] && !isalnum((unsigned char)id[n])) {
        const char *s = id + n;
        while (*s && !isalnum((unsigned char)*s))
            s++;
        if (*s)
            return s;
    }
    return id;
}

/* A name less its group's prefix ("w3 p1 selection of the warp" in group
 * "w3": "p1 selection of the warp"), for the legend. */
static const char *name_in_group(const char *name, const char *group)
{
    size_t n = group ? strlen(group) : 0;
    if (n && !strncmp(name, group, n) && (name[n] == ' ' || name[n] == '_'))
        return name + n + 1;
    return name;
}

/* The group a node is drawn in, by name (NULL: none). */
static const char *group_name_of(const pn_dot_options_t *o, int place,
                                 size_t i)
{
    if (!o->groups)
        return NULL;
    size_t k = place ? o->groups->place_group[i]
                     : o->groups->transition_group[i];
    return k < o->groups->ngroups ? o->groups->group_names[k] : NULL;
}

/* The label beside a node (its name, and its id with o->ids; or its id),
 * its tooltip (name and id) and its id. */
static void set_names(Agnode_t *n, const char *name, const char *id,
                      const pn_dot_options_t *o)
{
    if (o->labels == PN_LABELS_NAME) {
        if (!name)
            pni_dot_set_text(n, "xlabel", id);
        else
            set_text2(n, "xlabel", name,
                      o->ids && strcmp(name, id) ? id : NULL);
    } else if (o->labels == PN_LABELS_ID)
        pni_dot_set_text(n, "xlabel", id);
    if (name && strcmp(name, id))
        set_text2(n, "tooltip", name, id);
    else
        pni_dot_set_text(n, "tooltip", id);
    pni_dot_set_text(n, "id", id);
}

/* A node's label with its short name on the first line: "p1\n" + rest. */
static void set_short_label(Agnode_t *n, const char *shortname,
                            const char *rest)
{
    size_t k = escaped_len(shortname);
    char small[256];
    char *buf = k + strlen(rest) + 3 < sizeof small
                    ? small
                    : malloc(k + strlen(rest) + 3);
    if (!buf)
        return;
    char *p = put_escaped(buf, shortname);
    if (*rest) {
        memcpy(p, "\\n", 2);
        strcpy(p + 2, rest);
    } else
        *p = '\0';
    pni_dot_set(n, "label", buf);
    if (buf != small)
        free(buf);
}

/* With o->positions, pins the node where the PNML places it (Graphviz's y
 * axis points up). */
static void set_position(Agnode_t *n, const pn_dot_options_t *o,
                         int has_position, double x, double y)
{
    char pos[1200];
    if (o->positions && has_position) {
        snprintf(pos, sizeof pos, "%.2f,%.2f!", x, -y);
        pni_dot_set(n, "pos", pos);
    }
}

/* Node k of o->weight (places first, then transitions) highlighted when
 * its weight is not zero: filled gold, a thick border, the weight beside
 * it ("2x") and in its tooltip. */
static void highlight(Agnode_t *n, const pn_dot_options_t *o, size_t k)
{
    if (!o->weight || !o->weight[k])
        return;
    char buf[512];
    pni_dot_set(n, "style", "filled");
    pni_dot_set(n, "fillcolor", "#ffd166");
    pni_dot_set(n, "color", "#b8860b");
    pni_dot_set(n, "penwidth", "2.5");
    /* after the name when --labels put one beside the node */
    const char *x = agget(n, "xlabel");
    snprintf(buf, sizeof buf, "%s%s%" PRId64 "x", x ? x : "",
             x && *x ? "  " : "", o->weight[k]);
    pni_dot_set(n, "xlabel", buf);
    pni_dot_set(n, "fontcolor", "#000000");
    snprintf(buf, sizeof buf, "%s (weight %" PRId64 ")", agget(n, "tooltip"),
             o->weight[k]);
    pni_dot_set(n, "tooltip", buf);
}

/* Places as circles with their tokens. */
static void add_places(clusters_t *cl, const pn_net_t *net,
                       const pn_dot_options_t *o, cl_mode_t mode,
                       Agnode_t **nodes)
{
    char name[64], buf[64];
    for (size_t i = 0; i < pn_net_place_count(net); i++) {
        const pn_place_t *p = pn_net_place(net, i);
        size_t k = o->groups ? o->groups->place_group[i] : PN_NONE;
        if (pni_dot_in_folded(cl->folded, o->groups, k)) {
            nodes[i] = NULL; /* drawn in its group's box */
            continue;
        }
        Agraph_t *sg = graph_of(cl, net, mode, k, p->page);
        snprintf(name, sizeof name, "p%zu", i);
        Agnode_t *n = agnode(sg, name, 1);
        nodes[i] = n;
        uint64_t m = o->marking ? o->marking[i] : p->marking;
        token_label(m, buf, sizeof buf);
        pni_dot_set(n, "shape", "circle");
        pni_dot_set(n, "width", "0.45");
        set_names(n, p->name, p->id, o);
        if (o->labels == PN_LABELS_SHORT) {
            /* the short name above the tokens, inside the circle (which
             * grows to hold them) */
            pni_dot_set(n, "margin", "0.02");
            set_short_label(n, pni_dot_short_of(p->id, group_name_of(o, 1, i)),
                            buf);
        } else {
            pni_dot_set(n, "fixedsize", "true");
            pni_dot_set(n, "label", buf);
            pni_dot_set(n, "fontsize", m > 4 ? "10" : "12");
        }
        if (o->mean_tokens)
            pni_dot_measure_label(n, "N", "mean tokens", o->mean_tokens[i]);
        highlight(n, o, i);
        if (p->capacity) {
            char cap[160];
            snprintf(cap, sizeof cap, "%s (capacity %" PRIu64 ")",
                     agget(n, "tooltip"), p->capacity);
            pni_dot_set(n, "tooltip", cap);
        }
        set_position(n, o, p->has_position, p->x, p->y);
    }
}

/* Transitions as bars, the fired ones red. */
static void add_transitions(clusters_t *cl, const pn_net_t *net,
                            const pn_dot_options_t *o, cl_mode_t mode,
                            Agnode_t **nodes)
{
    char name[64];
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        size_t k = o->groups ? o->groups->transition_group[i] : PN_NONE;
        if (pni_dot_in_folded(cl->folded, o->groups, k)) {
            nodes[i] = NULL;
            continue;
        }
        Agraph_t *sg = graph_of(cl, net, mode, k, t->page);
        snprintf(name, sizeof name, "t%zu", i);
        Agnode_t *n = agnode(sg, name, 1);
        nodes[i] = n;
        pni_dot_set(n, "shape", "box");
        pni_dot_set(n, "style", "filled");
        int hot = o->fired && o->fired[i];
        pni_dot_set(n, "fillcolor", hot ? "#e4572e" : "#333333");
        if (hot)
            pni_dot_set(n, "penwidth", "2");
        set_names(n, t->name, t->id, o);
        if (o->labels == PN_LABELS_SHORT) {
            /* the short name inside the bar, white on it */
            pni_dot_set(n, "width", "0.3");
            pni_dot_set(n, "height", "0.3");
            pni_dot_set(n, "margin", "0.04,0.02");
            pni_dot_set(n, "fontcolor", "#ffffff");
            set_short_label(n, pni_dot_short_of(t->id, group_name_of(o, 0, i)),
                            "");
        } else {
            pni_dot_set(n, "label", "");
            pni_dot_set(n, "width", "0.15");
            pni_dot_set(n, "height", "0.45");
        }
        if (o->rates)
            pni_dot_timing_label(n, t);
        if (o->throughput)
            pni_dot_measure_label(n, "X", "throughput", o->throughput[i]);
        highlight(n, o, pn_net_place_count(net) + i);
        if (o->labels == PN_LABELS_SHORT)
            pni_dot_dark_bar_text(n, pni_dot_short_of(t->id,
                                                      group_name_of(o, 0, i)));
        set_position(n, o, t->has_position, t->x, t->y);
    }
}

/* The arrowhead and line of an arc kind. */
void pni_dot_set_arc_style(Agedge_t *e, pn_arc_kind_t kind)
{
    switch (kind) {
    case PN_ARC_NORMAL:
        break;
    case PN_ARC_INHIBITOR:
        pni_dot_set(e, "arrowhead", "odot");
        break;
    case PN_ARC_READ:
        pni_dot_set(e, "arrowhead", "none");
        pni_dot_set(e, "style", "dashed");
        break;
    case PN_ARC_RESET:
        pni_dot_set(e, "arrowhead", "normalnormal");
        pni_dot_set(e, "style", "bold");
        break;
    }
}

/* Two-way pairs: an arc from p to t and one from t to p are drawn on two
 * sides of the nodes (ports), so that they are two distinct lines and both
 * directions show.  key: place, transition and direction of an arc. */
static uint64_t arc_key(const pn_arc_t *a, int reverse)
{
    int dir = a->dir == PN_DIR_PT;
    if (reverse)
        dir = !dir;
    return (((uint64_t)a->place << 31 | (uint64_t)a->transition) << 1) |
           (uint64_t)dir;
}

/* The sorted keys of all arcs (NULL when out of memory: no ports). */
static uint64_t *arc_keys(const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    uint64_t *k = malloc((na + 1) * sizeof *k);
    if (!k)
        return NULL;
    for (size_t i = 0; i < na; i++)
        k[i] = arc_key(pn_net_arc(net, i), 0);
    qsort(k, na, sizeof *k, pni_dot_cmp_u64);
    return k;
}

/* Ports for an arc of a two-way pair: the sides across the line between
 * the nodes (east and west when the layout runs top to bottom, north and
 * south when it runs left to right or the nodes lie side by side). */
static void set_pair_ports(Agedge_t *e, const pn_net_t *net,
                           const pn_dot_options_t *o, const pn_arc_t *a)
{
    int across_ns;
    if (o->positions) {
        const pn_place_t *p = pn_net_place(net, a->place);
        const pn_transition_t *t = pn_net_transition(net, a->transition);
        across_ns = fabs(p->x - t->x) >= fabs(p->y - t->y);
    } else
        across_ns = o->rankdir && (!strcmp(o->rankdir, "LR") ||
                                   !strcmp(o->rankdir, "RL"));
    const char *side = a->dir == PN_DIR_PT ? (across_ns ? "n" : "e")
                                           : (across_ns ? "s" : "w");
    pni_dot_set(e, "tailport", side);
    pni_dot_set(e, "headport", side);
}

/* ---- shared nodes ---------------------------------------------------------
 * A node outside the clusters with arcs into two or more of them (a GPU
 * net's p0, active and t0: every warp's) is drawn once outside and once,
 * dashed, inside each cluster it has arcs into (the same label, its id
 * with "@" and the cluster's name), and those arcs end at the copy: no arc
 * crosses the picture from every warp to the shared place (a 32-warp net
 * in the dot layout: 1,025 arc crossings instead of 6,072).  At the
 * file's positions the copies go near the nodes they have arcs with
 * (pni_dot_place_copies()). */

/* The cluster a node of group k is drawn in, or PN_NONE. */
static size_t drawn_cluster(const clusters_t *cl, cl_mode_t mode, size_t k)
{
    if (mode != CL_GROUPS || k >= cl->groups->ngroups ||
        cl->group_size[k] < 2 || pni_dot_in_folded(cl->folded, cl->groups, k))
        return PN_NONE;
    return k;
}

/* Per node (places, then transitions): PN_NONE, or SIZE_MAX for a shared
 * node (outside the clusters, arcs into two or more); NULL: none. */
static size_t *shared_nodes(const clusters_t *cl, const pn_net_t *net,
                            const pn_dot_options_t *o, cl_mode_t mode)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    if (mode != CL_GROUPS)
        return NULL;
    size_t *first = malloc((np + nt + 1) * sizeof *first);
    for (size_t i = 0; first && i < np + nt; i++)
        first[i] = PN_NONE - 1; /* no cluster seen yet */
    for (size_t i = 0; first && i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t pk = drawn_cluster(cl, mode, o->groups->place_group[a->place]),
               tk = drawn_cluster(cl, mode,
                                  o->groups->transition_group[a->transition]);
        size_t node = pk == PN_NONE ? a->place : np + a->transition;
        size_t k = pk == PN_NONE ? tk : pk;
        if ((pk == PN_NONE) == (tk == PN_NONE) || first[node] == SIZE_MAX)
            continue; /* both in or both out, or known shared */
        if (first[node] == PN_NONE - 1)
            first[node] = k;
        else if (first[node] != k)
            first[node] = SIZE_MAX;
    }
    return first;
}

/* The copy of a shared node in cluster k. */
static Agnode_t *shared_copy(clusters_t *cl, Agnode_t *node, int place,
                             size_t idx, size_t k)
{
    char name[64];
    snprintf(name, sizeof name, "%c%zu_in%zu", place ? 'p' : 't', idx, k);
    Agnode_t *n = agnode(cl->root, name, 0);
    if (n)
        return n;
    n = agnode(group_graph(cl, k), name, 1);
    agcopyattr(node, n);
    pni_sb_t id = {0};
    pni_dot_sb_escaped(&id, agget(node, "id"));
    pni_sb_printf(&id, "@");
    pni_dot_sb_escaped(&id, cl->groups->group_names[k]);
    if (!id.oom)
        pni_dot_set(n, "id", id.s);
    free(id.s);
    pni_dot_set(n, "style", place ? "dashed" : "filled,dashed");
    if (!place)
        pni_dot_set(n, "fillcolor", "#777777");
    /* kept for pni_dot_place_copies() (out of memory: at the original) */
    if (cl->ncopies == cl->copies_cap) {
        size_t cap = cl->copies_cap ? 2 * cl->copies_cap : 64;
        Agnode_t **c = realloc(cl->copies, cap * sizeof *c);
        if (c)
            cl->copies = c, cl->copies_cap = cap;
    }
    if (cl->ncopies < cl->copies_cap)
        cl->copies[cl->ncopies++] = n;
    return n;
}

/* Arcs by kind, with their weights; those of fired transitions red; the
 * arcs between a shared node and a cluster end at its copy there. */
static void add_arcs(clusters_t *cl, const pn_net_t *net,
                     const pn_dot_options_t *o, cl_mode_t mode,
                     Agnode_t **pn, Agnode_t **tn)
{
    Agraph_t *g = cl->root;
    char name[64], buf[64];
    size_t na = pn_net_arc_count(net), np = pn_net_place_count(net);
    uint64_t *keys = arc_keys(net);
    size_t *shared = shared_nodes(cl, net, o, mode);
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        Agnode_t *p = pn[a->place], *t = tn[a->transition];
        if (!p || !t) /* an end in a folded group: pni_dot_add_fold_arcs() */
            continue;
        size_t pk = shared ? drawn_cluster(cl, mode,
                                           o->groups->place_group[a->place])
                           : PN_NONE,
               tk = shared ? drawn_cluster(cl, mode, o->groups->transition_group
                                                         [a->transition])
                           : PN_NONE;
        if (shared && shared[a->place] == SIZE_MAX && tk != PN_NONE)
            p = shared_copy(cl, p, 1, a->place, tk);
        else if (shared && shared[np + a->transition] == SIZE_MAX &&
                 pk != PN_NONE)
            t = shared_copy(cl, t, 0, a->transition, pk);
        Agnode_t *from = a->dir == PN_DIR_PT ? p : t;
        Agnode_t *to = a->dir == PN_DIR_PT ? t : p;
        snprintf(name, sizeof name, "a%zu", i);
        Agedge_t *e = agedge(g, from, to, name, 1);
        uint64_t rev = arc_key(a, 1);
        if (keys && bsearch(&rev, keys, na, sizeof *keys, pni_dot_cmp_u64))
            set_pair_ports(e, net, o, a);
        pni_dot_set(e, "class", (char *)pn_arc_kind_name(a->kind));
        if (a->weight > 1) {
            snprintf(buf, sizeof buf, "%" PRIu64, a->weight);
            pni_dot_set(e, "label", buf);
        }
        pni_dot_set_arc_style(e, a->kind);
        if (o->fired && o->fired[a->transition])
            pni_dot_set(e, "color", "#e4572e");
    }
    free(shared);
    free(keys);
}

/* ---- the legend of short labels ------------------------------------------
 * One row per short label (the first node that has it), with the node's
 * name less its group's prefix: for a GPU net the paper's p1..p18 and
 * t0..t17 once, not once per warp. */
#define LEGEND_MAX_ROWS 120

typedef struct {
    const char *shortname, *name;
} legend_row_t;

/* Adds a row unless one has that short label; returns -1 when the legend
 * is too long to draw. */
static int legend_add(legend_row_t *rows, size_t *n, const char *shortname,
                      const char *name)
{
    if (!name || !strcmp(name, shortname))
        return 0;
    /* "p1 active warp" for p1: "active warp" */
    size_t k0 = strlen(shortname);
    if (!strncmp(name, shortname, k0) && name[k0] == ' ' && name[k0 + 1])
        name += k0 + 1;
    for (size_t k = 0; k < *n; k++)
        if (!strcmp(rows[k].shortname, shortname))
            return 0;
    if (*n == LEGEND_MAX_ROWS)
        return -1;
    rows[(*n)++] = (legend_row_t){shortname, name};
    return 0;
}

/* The legend node (no legend when every name is its short label, or when
 * there are too many: the names are in the tooltips). */
static void add_legend(Agraph_t *g, const pn_net_t *net,
                       const pn_dot_options_t *o)
{
    legend_row_t rows[LEGEND_MAX_ROWS];
    size_t n = 0, np = pn_net_place_count(net);
    int full = 0;
    for (size_t i = 0; !full && i < np; i++) {
        const pn_place_t *p = pn_net_place(net, i);
        const char *gname = group_name_of(o, 1, i);
        full = legend_add(rows, &n, pni_dot_short_of(p->id, gname),
                          p->name ? name_in_group(p->name, gname) : NULL) < 0;
    }
    for (size_t i = 0; !full && i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        const char *gname = group_name_of(o, 0, i);
        full = legend_add(rows, &n, pni_dot_short_of(t->id, gname),
                          t->name ? name_in_group(t->name, gname) : NULL) < 0;
    }
    if (full || n == 0)
        return;
    pni_sb_t b = {0};
    size_t widest = 0;
    pni_sb_printf(&b, "<TABLE BORDER=\"1\" COLOR=\"#999999\" CELLBORDER=\"0\" "
                  "CELLSPACING=\"0\" CELLPADDING=\"2\">");
    for (size_t k = 0; k < n; k++) {
        pni_sb_printf(&b, "<TR><TD ALIGN=\"LEFT\"><B>");
        pni_dot_html_escape(&b, rows[k].shortname);
        pni_sb_printf(&b, "</B></TD><TD ALIGN=\"LEFT\">");
        pni_dot_html_escape(&b, rows[k].name);
        pni_sb_printf(&b, "</TD></TR>");
        size_t w = strlen(rows[k].shortname) + strlen(rows[k].name) + 2;
        if (w > widest)
            widest = w;
    }
    pni_sb_printf(&b, "</TABLE>");
    if (b.oom) {
        free(b.s);
        return;
    }
    Agnode_t *n0 = agnode(g, "legend", 1);
    pni_dot_set(n0, "shape", "plain");
    pni_dot_set(n0, "id", "legend");
    pni_dot_set(n0, "fontsize", "10");
    agsafeset(n0, "label", agstrdup_html(g, b.s), "");
    free(b.s);
    if (o->positions) {
        /* right of the drawing, its top level with the top node */
        double maxx = 0, miny = 0;
        int any = 0;
        for (size_t i = 0; i < np; i++) {
            const pn_place_t *p = pn_net_place(net, i);
            if (p->has_position) {
                maxx = any && maxx > p->x ? maxx : p->x;
                miny = any && miny < p->y ? miny : p->y;
                any = 1;
            }
        }
        for (size_t i = 0; i < pn_net_transition_count(net); i++) {
            const pn_transition_t *t = pn_net_transition(net, i);
            if (t->has_position) {
                maxx = any && maxx > t->x ? maxx : t->x;
                miny = any && miny < t->y ? miny : t->y;
                any = 1;
            }
        }
        /* Helvetica 10: about 6 points a character, 14 a row */
        double w = 6.0 * (double)widest + 20, h = 14.0 * (double)n + 10;
        char pos[128];
        snprintf(pos, sizeof pos, "%.2f,%.2f!", maxx + 80 + w / 2,
                 -(miny + h / 2 - 20));
        pni_dot_set(n0, "pos", pos);
    }
}

/* Warps (groups) left to right in their order, where dot lays them out
 * together (folded, or clusters joined by arcs; else pack_groups()): dot
 * otherwise orders the clusters as its crossing minimisation finds best
 * (w1 before w0).  The first node of each group goes in one rank, joined
 * by invisible edges in the groups' order, which dot keeps left to
 * right. */
static void order_groups(Agraph_t *g, const pn_net_t *net,
                         const pn_dot_options_t *o, Agnode_t **pn,
                         Agnode_t **tn)
{
    const pn_groups_t *gr = o->groups;
    Agnode_t **first = calloc(gr->ngroups + 1, sizeof *first);
    if (!first)
        return;
    size_t ngroups = 0;
    for (size_t i = 0; i < pn_net_place_count(net); i++) {
        size_t k = gr->place_group[i];
        if (k < gr->ngroups && !first[k] && pn[i]) {
            first[k] = pn[i];
            ngroups++;
        }
    }
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        size_t k = gr->transition_group[i];
        if (k < gr->ngroups && !first[k] && tn[i]) {
            first[k] = tn[i];
            ngroups++;
        }
    }
    if (ngroups > 1) {
        pni_dot_set(g, "newrank", "true");
        Agraph_t *r = agsubg(g, "group_order", 1);
        pni_dot_set(r, "rank", "same");
        Agnode_t *prev = NULL;
        for (size_t k = 0; k < gr->ngroups; k++) {
            if (!first[k])
                continue;
            agsubnode(r, first[k], 1);
            if (prev) {
                Agedge_t *e = agedge(r, prev, first[k], NULL, 1);
                pni_dot_set(e, "style", "invis");
            }
            prev = first[k];
        }
    }
    free(first);
}

/* ---- groups laid out apart ------------------------------------------------
 * When no arc joins two clusters (a GPU net's warps, once the shared nodes
 * have their copies in each), dot lays out each part of the graph on its
 * own and packs the parts in a row, in the order the clusters were made:
 * the network simplex that places nodes left to right costs about the
 * square of the nodes it places at once, so a warp at a time keeps every
 * warp as clean as in a small net (a 64-warp net in under a second of
 * CPU, its arcs 6.4 curve points on average, at most 16; in one piece the
 * same took 42 s, and the cheaper settings that made it 4 to 8 s drew
 * arcs looping through every warp, 21 points on average, up to 157). */

static size_t uf_find(size_t *up, size_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* The parts the arcs make of the clusters and of the nodes outside them
 * (a shared node's arcs into a cluster end at its copy there): 1 when no
 * part holds two clusters, with *largest the nodes and arcs of the largest
 * part and *parts their number; 0 otherwise (or out of memory). */
static int groups_apart(const clusters_t *cl, const pn_net_t *net,
                        const pn_dot_options_t *o, size_t *largest,
                        size_t *parts)
{
    size_t ng = o->groups->ngroups, np = pn_net_place_count(net),
           nt = pn_net_transition_count(net), n = ng + np + nt;
    size_t *up = malloc((n + 1) * sizeof *up),
           *size = calloc(n + 1, sizeof *size),
           *nclusters = calloc(n + 1, sizeof *nclusters);
    size_t *shared = shared_nodes(cl, net, o, CL_GROUPS);
    int apart = up && size && nclusters && shared;
    for (size_t i = 0; apart && i < n; i++)
        up[i] = i;
    /* each node's element: its cluster, or itself */
    for (size_t i = 0; apart && i < np + nt; i++) {
        size_t k = drawn_cluster(cl, CL_GROUPS,
                                 i < np ? o->groups->place_group[i]
                                        : o->groups->transition_group[i - np]);
        size[k != PN_NONE ? k : ng + i]++;
    }
    for (size_t i = 0; apart && i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t pk = drawn_cluster(cl, CL_GROUPS,
                                  o->groups->place_group[a->place]),
               tk = drawn_cluster(cl, CL_GROUPS, o->groups->transition_group
                                                     [a->transition]);
        size_t pe = pk != PN_NONE ? pk : ng + a->place,
               te = tk != PN_NONE ? tk : ng + np + a->transition;
        if (shared[a->place] == SIZE_MAX && tk != PN_NONE)
            pe = tk;
        else if (shared[np + a->transition] == SIZE_MAX && pk != PN_NONE)
            te = pk;
        pe = uf_find(up, pe);
        te = uf_find(up, te);
        size[pe]++; /* the arc */
        if (pe != te) {
            up[te] = pe;
            size[pe] += size[te];
        }
    }
    *largest = *parts = 0;
    for (size_t k = 0; apart && k < ng; k++)
        if (drawn_cluster(cl, CL_GROUPS, k) != PN_NONE &&
            ++nclusters[uf_find(up, k)] > 1)
            apart = 0;
    for (size_t i = 0; apart && i < n; i++)
        if (up[i] == i && size[i]) {
            (*parts)++;
            if (size[i] > *largest)
                *largest = size[i];
        }
    free(shared);
    free(nclusters);
    free(size);
    free(up);
    return apart;
}

/* The parts packed in one row, top-aligned, in the order made (then the
 * legend).  dot lays out each part as a graph of its own, and Graphviz
 * 2.42 then places an arc's label only on an arc that spans two ranks or
 * more (the whole graph's labels double every arc's length, a part's do
 * not): every arc is made two ranks long, half as far apart, as dot does
 * for a graph with labels. */
static void pack_groups(Agraph_t *g, const pn_net_t *net, size_t parts)
{
    char buf[64];
    pni_dot_set(g, "pack", "16");
    snprintf(buf, sizeof buf, "array_it%zu", parts + 1);
    pni_dot_set(g, "packmode", buf);
    for (size_t i = 0; i < pn_net_arc_count(net); i++)
        if (pn_net_arc(net, i)->weight > 1) {
            agattr(g, AGEDGE, "minlen", "2");
            pni_dot_set(g, "ranksep", "0.25");
            break;
        }
}

/* How hard dot works at a graph, by the nodes and arcs it lays out at once
 * (all of them, or the largest part packed). */
static void set_effort(Agraph_t *g, size_t elements)
{
    if (elements > 1500) {
        /* less crossing minimisation and network simplex work on big nets:
         * minutes become seconds (64-warp GPU net: see make bench); the
         * x coordinates (nslimit) take a dozen iterations instead of
         * thousands: a 32-warp net 2.3 s instead of 5.1 s of CPU */
        pni_dot_set(g, "mclimit", "0.2");
        pni_dot_set(g, "nslimit", "0.01");
        pni_dot_set(g, "nslimit1", "2");
        pni_dot_set(g, "searchsize", "10");
    }
}

/* Adds the net's nodes and arcs to g, in clusters, and renders it. */
static pn_status_t draw_net(pn_dot_context_t *ctx, Agraph_t *g,
                            const pn_net_t *net, const pn_dot_options_t *o,
                            const unsigned char *folded, size_t nboxes,
                            size_t elements, const char *format, char **data,
                            size_t *len, pn_error_t *err)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    clusters_t cl = {0};
    cl.root = g;
    cl.page_g = calloc(pn_net_page_count(net) + 1, sizeof *cl.page_g);
    cl.groups = o->groups;
    cl.group_g = calloc((o->groups ? o->groups->ngroups : 0) + 1,
                        sizeof *cl.group_g);
    cl.group_size = o->groups ? pni_dot_group_sizes(net, o->groups)
                              : calloc(1, sizeof *cl.group_size);
    cl.folded = folded;
    Agnode_t **pn = malloc((np + 1) * sizeof *pn);
    Agnode_t **tn = malloc((nt + 1) * sizeof *tn);
    Agnode_t **box = folded ? calloc(o->groups->ngroups + 1, sizeof *box)
                            : NULL;
    pn_status_t st;
    if (!cl.page_g || !cl.group_g || !cl.group_size || !pn || !tn ||
        (folded && !box))
        st = dfail(err, PN_ENOMEM, "out of memory");
    else {
        cl_mode_t mode = cluster_mode(net, o);
        add_places(&cl, net, o, mode, pn);
        add_transitions(&cl, net, o, mode, tn);
        add_arcs(&cl, net, o, mode, pn, tn);
        if (folded && nboxes) {
            pni_dot_set(g, "compound", "true");
            pni_dot_add_fold_boxes(g, net, o, cl.group_size, folded, nboxes,
                                   box);
            pni_dot_add_fold_arcs(g, net, o, folded, box, pn, tn);
        }
        if (o->labels == PN_LABELS_SHORT)
            add_legend(g, net, o);
        int dot = !strcmp(o->layout, "dot") && !o->positions;
        size_t largest = elements, parts = 0;
        if (dot && mode == CL_GROUPS && !folded &&
            groups_apart(&cl, net, o, &largest, &parts))
            pack_groups(g, net, parts);
        else if (dot && mode == CL_GROUPS) {
            largest = elements;
            order_groups(g, net, o, pn, tn);
        }
        if (dot)
            set_effort(g, largest);
        if (o->positions) {
            pni_dot_place_copies(g, cl.copies, cl.ncopies);
            pni_dot_route_arcs(ctx->gvc, g);
        }
        st = pni_dot_render(ctx, g, o->positions ? "nop2" : o->layout, format,
                            o->max_side, data, len, err);
    }
    free(box);
    free(pn);
    free(tn);
    clusters_free(&cl);
    return st;
}

pn_status_t pn_dot_render(pn_dot_context_t *ctx, const pn_net_t *net,
                          const pn_dot_options_t *opts, const char *format,
                          char **data, size_t *len, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (ctx)
        ctx->dpi = 0;
    pn_dot_options_t o = pni_dot_options_or_defaults(opts);
    if (!o.layout)
        o.layout = "dot";
    if (!ctx || !net || !data || !len || !pni_dot_groups_fit(o.groups, net))
        return dfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    size_t elements = pn_net_place_count(net) +
                      pn_net_transition_count(net) + pn_net_arc_count(net);
    if (o.fold && (!o.groups || o.positions))
        return dfail(err, PN_EINVAL, o.positions
                     ? "a folded net is laid out: it has no positions"
                     : "only a net in groups can be folded (the warps of a "
                       "GPU net, or groups by id)");
    /* folded: the groups drawn as boxes, and what is left to draw */
    size_t *gsize = NULL, nboxes = 0;
    unsigned char *folded = NULL;
    if (o.fold) {
        gsize = pni_dot_group_sizes(net, o.groups);
        folded = calloc(o.groups->ngroups + 1, 1);
        if (!gsize || !folded) {
            free(gsize);
            free(folded);
            return dfail(err, PN_ENOMEM, "out of memory");
        }
        nboxes = pni_dot_fold_plan(o.groups, gsize, folded);
        elements = pni_dot_folded_elements(net, o.groups, folded, nboxes);
        free(gsize);
    }
    pn_status_t st = check_render_options(&o, format, elements, err);
    if (!st && o.positions)
        st = check_positions(net, err);
    if (st) {
        free(folded);
        return st;
    }
    /* the library never prints; cgraph's error level is process-wide, so it
     * is set back before returning */
    agerrlevel_t level = agseterr(AGMAX);
    /* a net in groups that dot may pack: its objects' ids in order */
    pni_seq_ids_t ids;
    pni_dot_seq_ids_init(&ids);
    int packable = o.groups && !o.no_clusters && !o.positions && !o.fold &&
                   !strcmp(o.layout, "dot");
    Agraph_t *g = agopen((char *)(pn_net_id(net) ? pn_net_id(net) : "net"),
                         Agdirected, packable ? &ids.disc : NULL);
    if (!g) {
        agseterr(level);
        free(folded);
        return dfail(err, PN_ENOMEM, "out of memory");
    }
    set_graph_defaults(g, net, &o);
    pni_dot_set_dpi(g, format, o.dpi);
    st = draw_net(ctx, g, net, &o, folded, nboxes, elements, format,
                  data, len, err);
    agclose(g);
    agseterr(level);
    free(folded);
    return st;
}
