/*
 * Graphviz export: nets as graphs (places as circles with their tokens,
 * transitions as boxes, arcs by kind), clusters for pages or warps, and
 * traces as space-time diagrams (an HTML-like table).
 */
#include <config.h>
#include <inttypes.h>
#include <ctype.h>
#include <math.h>
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

#define dfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

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

/* ---- text of HTML-like labels ------------------------------------------- */

/* Appends s to b with Graphviz's escapes doubled (drawn as written). */
static void sb_escaped(pni_sb_t *b, const char *s)
{
    for (; *s; s++)
        if (*s == '\\')
            pni_sb_puts(b, "\\\\");
        else
            pni_sb_putc(b, *s);
}

static void html_escape(pni_sb_t *b, const char *s)
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
    set(obj, name, buf);
    if (buf != small)
        free(buf);
}

static void set_text(void *obj, const char *name, const char *text)
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
} clusters_t;

/* Whether group k is one drawn as a box. */
static int in_folded(const unsigned char *folded, const pn_groups_t *gr,
                     size_t k)
{
    return folded && gr && k < gr->ngroups && folded[k];
}

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
    set_text(g, "label", pg->name ? pg->name : pg->id ? pg->id : "");
    set(g, "style", "rounded");
    set(g, "color", "#999999");
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
    set_text(g, "label", c->groups->group_names[group]);
    set(g, "style", "rounded");
    set(g, "color", "#999999");
    c->group_g[group] = g;
    return g;
}

static void clusters_free(clusters_t *c)
{
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
static int groups_fit(const pn_groups_t *g, const pn_net_t *net)
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
static void set_dpi(Agraph_t *g, const char *format, double dpi)
{
    char buf[32];
    if (is_bitmap(format) && dpi > 0) {
        snprintf(buf, sizeof buf, "%g", dpi);
        set(g, "dpi", buf);
    }
}

/* A bitmap's size from the laid-out drawing (its bounding box in points,
 * the pad around it, the resolution), checked before Graphviz allocates
 * it. */
static pn_status_t check_bitmap(Agraph_t *g, const char *format,
                                pn_error_t *err)
{
    if (!is_bitmap(format))
        return PN_OK;
    boxf bb = GD_bb(g);
    double dpi = GD_drawing(g) && GD_drawing(g)->dpi > 0
                     ? GD_drawing(g)->dpi : BITMAP_DPI;
    double w, h;
    bitmap_size(bb, dpi, &w, &h);
    if (w * h <= PN_DOT_MAX_PIXELS)
        return PN_OK;
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

static pn_status_t render(GVC_t *gvc, Agraph_t *g, const char *layout,
                          const char *format, char **data, size_t *len,
                          pn_error_t *err)
{
    if (gvLayout(gvc, g, layout) != 0)
        return dfail(err, PN_ERENDER, "Graphviz could not lay out the graph "
                     "with '%s'", layout);
    pn_status_t st = check_bitmap(g, format, err);
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

/* The options given, or the defaults. */
static pn_dot_options_t options_or_defaults(const pn_dot_options_t *opts)
{
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_options_init(&o);
    return o;
}

/* The format, and the resolution of bitmaps. */
static pn_status_t check_format(const char *format, double dpi,
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
    pn_status_t st = check_format(format, o->dpi, err);
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
                               const pn_dot_options_t *o, size_t elements)
{
    set(g, "rankdir", o->rankdir ? o->rankdir : "TB");
    set(g, "fontname", "Helvetica");
    set(g, "forcelabels", "true");
    if (elements > 1500 && !strcmp(o->layout, "dot")) {
        /* less crossing minimisation and network simplex work on big nets:
         * minutes become seconds (64-warp GPU net: see make bench); the
         * x coordinates (nslimit) take a dozen iterations instead of
         * thousands: a 32-warp net 2.3 s instead of 5.1 s of CPU, the
         * drawing the same size and as readable (pn-dot(1)) */
        set(g, "mclimit", "0.2");
        set(g, "nslimit", "0.01");
        set(g, "nslimit1", "2");
        set(g, "searchsize", "10");
    }
    if (o->title || pn_net_name(net)) {
        set_text(g, "label", o->title ? o->title : pn_net_name(net));
        set(g, "labelloc", "t");
    }
    /* the label default is Graphviz's own ("\\N", the node's name), so
     * that an empty label is written out */
    agattr(g, AGNODE, "label", "\\N");
    if (o->positions)
        set(g, "notranslate", "true");
    agattr(g, AGNODE, "fontname", "Helvetica");
    agattr(g, AGNODE, "fontsize", "10");
    agattr(g, AGEDGE, "fontname", "Helvetica");
    agattr(g, AGEDGE, "fontsize", "9");
}

/* A node's short label: its id less the name of its group and what
 * separates them ("w3_p1" in group "w3": "p1"), else its id. */
static const char *short_of(const char *id, const char *group)
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
            set_text(n, "xlabel", id);
        else
            set_text2(n, "xlabel", name,
                      o->ids && strcmp(name, id) ? id : NULL);
    } else if (o->labels == PN_LABELS_ID)
        set_text(n, "xlabel", id);
    if (name && strcmp(name, id))
        set_text2(n, "tooltip", name, id);
    else
        set_text(n, "tooltip", id);
    set_text(n, "id", id);
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
    set(n, "label", buf);
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
        set(n, "pos", pos);
    }
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
        if (in_folded(cl->folded, o->groups, k)) {
            nodes[i] = NULL; /* drawn in its group's box */
            continue;
        }
        Agraph_t *sg = graph_of(cl, net, mode, k, p->page);
        snprintf(name, sizeof name, "p%zu", i);
        Agnode_t *n = agnode(sg, name, 1);
        nodes[i] = n;
        uint64_t m = o->marking ? o->marking[i] : p->marking;
        token_label(m, buf, sizeof buf);
        set(n, "shape", "circle");
        set(n, "width", "0.45");
        set_names(n, p->name, p->id, o);
        if (o->labels == PN_LABELS_SHORT) {
            /* the short name above the tokens, inside the circle (which
             * grows to hold them) */
            set(n, "margin", "0.02");
            set_short_label(n, short_of(p->id, group_name_of(o, 1, i)), buf);
        } else {
            set(n, "fixedsize", "true");
            set(n, "label", buf);
            set(n, "fontsize", m > 4 ? "10" : "12");
        }
        if (p->capacity) {
            char cap[160];
            snprintf(cap, sizeof cap, "%s (capacity %" PRIu64 ")",
                     agget(n, "tooltip"), p->capacity);
            set(n, "tooltip", cap);
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
        if (in_folded(cl->folded, o->groups, k)) {
            nodes[i] = NULL;
            continue;
        }
        Agraph_t *sg = graph_of(cl, net, mode, k, t->page);
        snprintf(name, sizeof name, "t%zu", i);
        Agnode_t *n = agnode(sg, name, 1);
        nodes[i] = n;
        set(n, "shape", "box");
        set(n, "style", "filled");
        int hot = o->fired && o->fired[i];
        set(n, "fillcolor", hot ? "#e4572e" : "#333333");
        if (hot)
            set(n, "penwidth", "2");
        set_names(n, t->name, t->id, o);
        if (o->labels == PN_LABELS_SHORT) {
            /* the short name inside the bar, white on it */
            set(n, "width", "0.3");
            set(n, "height", "0.3");
            set(n, "margin", "0.04,0.02");
            set(n, "fontcolor", "#ffffff");
            set_short_label(n, short_of(t->id, group_name_of(o, 0, i)), "");
        } else {
            set(n, "label", "");
            set(n, "width", "0.15");
            set(n, "height", "0.45");
        }
        set_position(n, o, t->has_position, t->x, t->y);
    }
}

/* The arrowhead and line of an arc kind. */
static void set_arc_style(Agedge_t *e, pn_arc_kind_t kind)
{
    switch (kind) {
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
}

/* Two-way pairs: an arc from p to t and one from t to p are drawn on two
 * sides of the nodes (ports), so that they are two distinct lines and both
 * directions show.  key: place, transition and direction of an arc. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

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
    qsort(k, na, sizeof *k, cmp_u64);
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
    set(e, "tailport", side);
    set(e, "headport", side);
}

/* ---- shared nodes ---------------------------------------------------------
 * A node outside the clusters with arcs into two or more of them (a GPU
 * net's p0, active and t0: every warp's) is drawn once outside and once,
 * dashed, inside each cluster it has arcs into (the same label, its id
 * with "@" and the cluster's name), and those arcs end at the copy: no arc
 * crosses the picture from every warp to the shared place (a 32-warp net
 * in the dot layout: 1,025 arc crossings instead of 6,072). */

/* The cluster a node of group k is drawn in, or PN_NONE. */
static size_t drawn_cluster(const clusters_t *cl, cl_mode_t mode, size_t k)
{
    if (mode != CL_GROUPS || k >= cl->groups->ngroups ||
        cl->group_size[k] < 2 || in_folded(cl->folded, cl->groups, k))
        return PN_NONE;
    return k;
}

/* Per node (places, then transitions): PN_NONE, or SIZE_MAX for a shared
 * node (outside the clusters, arcs into two or more); NULL: none. */
static size_t *shared_nodes(const clusters_t *cl, const pn_net_t *net,
                            const pn_dot_options_t *o, cl_mode_t mode)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    if (mode != CL_GROUPS || o->positions)
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
    sb_escaped(&id, agget(node, "id"));
    pni_sb_printf(&id, "@");
    sb_escaped(&id, cl->groups->group_names[k]);
    if (!id.oom)
        set(n, "id", id.s);
    free(id.s);
    set(n, "style", place ? "dashed" : "filled,dashed");
    if (!place)
        set(n, "fillcolor", "#777777");
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
        if (!p || !t) /* an end in a folded group: add_fold_arcs() */
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
        if (keys && bsearch(&rev, keys, na, sizeof *keys, cmp_u64))
            set_pair_ports(e, net, o, a);
        set(e, "class", (char *)pn_arc_kind_name(a->kind));
        if (a->weight > 1) {
            snprintf(buf, sizeof buf, "%" PRIu64, a->weight);
            set(e, "label", buf);
        }
        set_arc_style(e, a->kind);
        if (o->fired && o->fired[a->transition])
            set(e, "color", "#e4572e");
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
        full = legend_add(rows, &n, short_of(p->id, gname),
                          p->name ? name_in_group(p->name, gname) : NULL) < 0;
    }
    for (size_t i = 0; !full && i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        const char *gname = group_name_of(o, 0, i);
        full = legend_add(rows, &n, short_of(t->id, gname),
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
        html_escape(&b, rows[k].shortname);
        pni_sb_printf(&b, "</B></TD><TD ALIGN=\"LEFT\">");
        html_escape(&b, rows[k].name);
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
    set(n0, "shape", "plain");
    set(n0, "id", "legend");
    set(n0, "fontsize", "10");
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
        set(n0, "pos", pos);
    }
}

/* Warps (groups) left to right in their order: dot otherwise orders the
 * clusters as its crossing minimisation finds best (w1 before w0).  The
 * first node of each group goes in one rank, joined by invisible edges
 * in the groups' order, which dot keeps left to right. */
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
        set(g, "newrank", "true");
        Agraph_t *r = agsubg(g, "group_order", 1);
        set(r, "rank", "same");
        Agnode_t *prev = NULL;
        for (size_t k = 0; k < gr->ngroups; k++) {
            if (!first[k])
                continue;
            agsubnode(r, first[k], 1);
            if (prev) {
                Agedge_t *e = agedge(r, prev, first[k], NULL, 1);
                set(e, "style", "invis");
            }
            prev = first[k];
        }
    }
    free(first);
}

/* ---- folded groups --------------------------------------------------------
 * With o->fold, the first group of two or more nodes is drawn in full and
 * every later one as a single box: its name, its marked places by short
 * label (":n" for more than one token) and the transitions fired, in a
 * grid of boxes in one cluster.  The arcs between a folded group and a
 * node outside it are drawn once per node, direction and kind, from the
 * cluster's edge (Graphviz's compound edges), labelled with the number of
 * arcs they stand for: a 64-warp GPU net is one warp, 63 boxes and four
 * arcs into the scheduler part. */

/* Nodes per group (ngroups + 1 entries); NULL when out of memory. */
static size_t *group_sizes(const pn_net_t *net, const pn_groups_t *gr)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t *size = calloc(gr->ngroups + 1, sizeof *size);
    for (size_t i = 0; size && i < np + nt; i++) {
        size_t k = i < np ? gr->place_group[i] : gr->transition_group[i - np];
        if (k < gr->ngroups)
            size[k]++;
    }
    return size;
}

/* Marks the groups folded (one flag per group); returns how many. */
static size_t fold_plan(const pn_groups_t *gr, const size_t *size,
                        unsigned char *folded)
{
    size_t n = 0;
    int full = 0;
    for (size_t k = 0; k < gr->ngroups; k++) {
        folded[k] = 0;
        if (size[k] < 2)
            continue;
        if (!full)
            full = 1; /* the first: drawn in full */
        else {
            folded[k] = 1;
            n++;
        }
    }
    return n;
}

/* The nodes and arcs drawn when the groups marked are folded: the boxes,
 * the other nodes, the arcs with an end outside every box (an upper
 * bound of what is drawn: arcs into the boxes are drawn once per node). */
static size_t folded_elements(const pn_net_t *net, const pn_groups_t *gr,
                              const unsigned char *folded, size_t boxes)
{
    size_t n = boxes;
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        n += !in_folded(folded, gr, gr->place_group[i]);
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        n += !in_folded(folded, gr, gr->transition_group[i]);
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t pg = gr->place_group[a->place],
               tg = gr->transition_group[a->transition];
        n += !in_folded(folded, gr, pg) || !in_folded(folded, gr, tg) ||
             pg != tg;
    }
    return n;
}

/* A box's text: the group's name, then its marked places (four to a
 * line), then "fired" and the transitions fired; "no tokens" when none
 * is marked. */
typedef struct {
    pni_sb_t text;
    size_t items; /* on the current line */
    int marked, fired;
} box_text_t;

static void box_item(box_text_t *bt, const char *shortname, uint64_t count)
{
    pni_sb_printf(&bt->text, bt->items % 4 ? " " : "\\n");
    sb_escaped(&bt->text, shortname);
    if (count > 1)
        pni_sb_printf(&bt->text, ":%" PRIu64, count);
    bt->items++;
}

#define FOLD_COLOR "#e4572e"

/* The boxes of the folded groups, in a grid in one cluster (invisible
 * arcs down the columns and along the rows keep the groups' order); box[k]
 * gets group k's box. */
static void add_fold_boxes(Agraph_t *g, const pn_net_t *net,
                           const pn_dot_options_t *o, const size_t *size,
                           const unsigned char *folded, size_t nboxes,
                           Agnode_t **box)
{
    const pn_groups_t *gr = o->groups;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    box_text_t *bt = calloc(gr->ngroups + 1, sizeof *bt);
    if (!bt)
        return;
    const char *firstname = NULL, *lastname = NULL;
    for (size_t k = 0; k < gr->ngroups; k++)
        if (folded[k]) {
            sb_escaped(&bt[k].text, gr->group_names[k]);
            firstname = firstname ? firstname : gr->group_names[k];
            lastname = gr->group_names[k];
        }
    for (size_t i = 0; i < np; i++) {
        size_t k = gr->place_group[i];
        const pn_place_t *p = pn_net_place(net, i);
        uint64_t m = o->marking ? o->marking[i] : p->marking;
        if (in_folded(folded, gr, k) && m) {
            box_item(&bt[k], short_of(p->id, gr->group_names[k]), m);
            bt[k].marked = 1;
        }
    }
    for (size_t i = 0; o->fired && i < nt; i++) {
        size_t k = gr->transition_group[i];
        if (!in_folded(folded, gr, k) || !o->fired[i])
            continue;
        if (!bt[k].fired) {
            if (!bt[k].marked)
                pni_sb_printf(&bt[k].text, "\\nno tokens");
            bt[k].items = 0;
            pni_sb_printf(&bt[k].text, "\\nfired");
            bt[k].items = 1;
            bt[k].fired = 1;
        }
        box_item(&bt[k], short_of(pn_net_transition(net, i)->id,
                                  gr->group_names[k]), 1);
    }
    char name[300];
    pni_sb_t label = {0};
    pni_sb_printf(&label, "folded: ");
    sb_escaped(&label, firstname ? firstname : "");
    if (nboxes > 1) {
        pni_sb_printf(&label, " \xe2\x80\xa6 ");
        sb_escaped(&label, lastname);
    }
    Agraph_t *c = agsubg(g, "cluster_folded", 1);
    if (!label.oom)
        set(c, "label", label.s);
    free(label.s);
    set(c, "style", "rounded,dashed");
    set(c, "color", "#999999");
    set(c, "id", "folded");
    /* a grid about as wide as it is high */
    size_t cols = 1;
    while (cols * cols < nboxes)
        cols++;
    Agraph_t *row = NULL;
    Agnode_t *prev = NULL;
    Agnode_t **above = calloc(cols + 1, sizeof *above);
    size_t j = 0;
    for (size_t k = 0; k < gr->ngroups; k++) {
        if (!folded[k])
            continue;
        snprintf(name, sizeof name, "fold%zu", k);
        Agnode_t *n = agnode(c, name, 1);
        box[k] = n;
        if (!bt[k].marked && !bt[k].fired)
            pni_sb_printf(&bt[k].text, "\\nno tokens");
        if (!bt[k].text.oom)
            set(n, "label", bt[k].text.s);
        set(n, "shape", "box");
        set(n, "style", "rounded,filled");
        set(n, "fillcolor", "#f2f2f2");
        set(n, "fontsize", "9");
        set(n, "margin", "0.06,0.03");
        if (bt[k].fired) {
            set(n, "color", FOLD_COLOR);
            set(n, "penwidth", "2");
        }
        snprintf(name, sizeof name, "fold-%s", gr->group_names[k]);
        set_text(n, "id", name);
        pni_sb_t tip = {0};
        sb_escaped(&tip, gr->group_names[k]);
        pni_sb_printf(&tip, ": %zu nodes folded", size[k]);
        if (!tip.oom)
            set(n, "tooltip", tip.s);
        free(tip.s);
        if (j % cols == 0) {
            snprintf(name, sizeof name, "fold_row%zu", j / cols);
            row = agsubg(c, name, 1);
            set(row, "rank", "same");
            prev = NULL;
        }
        agsubnode(row, n, 1);
        if (prev)
            set(agedge(row, prev, n, NULL, 1), "style", "invis");
        if (above && above[j % cols])
            set(agedge(c, above[j % cols], n, NULL, 1), "style", "invis");
        if (above)
            above[j % cols] = n;
        prev = n;
        j++;
    }
    free(above);
    for (size_t k = 0; k < gr->ngroups; k++)
        free(bt[k].text.s);
    free(bt);
}

/* One bundle of arcs between the folded groups and a node outside them. */
typedef struct {
    uint64_t key; /* (outside node << 3 | kind << 1 | into the boxes) */
    size_t count;
    uint64_t weight;
    int fired;
} bundle_t;

static int cmp_bundle(const void *a, const void *b)
{
    return cmp_u64(&((const bundle_t *)a)->key, &((const bundle_t *)b)->key);
}

/* The arcs with an end in a folded group: between two boxes, one arc per
 * pair and kind; between the boxes and another node, one compound arc per
 * node, direction and kind, from the cluster's edge, labelled with the
 * number of arcs it stands for. */
static void add_fold_arcs(Agraph_t *g, const pn_net_t *net,
                          const pn_dot_options_t *o,
                          const unsigned char *folded, Agnode_t **box,
                          Agnode_t **pn, Agnode_t **tn)
{
    const pn_groups_t *gr = o->groups;
    size_t np = pn_net_place_count(net), na = pn_net_arc_count(net), nb = 0;
    bundle_t *bundles = malloc((na + 1) * sizeof *bundles);
    if (!bundles)
        return;
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t pg = gr->place_group[a->place],
               tg = gr->transition_group[a->transition];
        int pf = in_folded(folded, gr, pg), tf = in_folded(folded, gr, tg);
        int hot = o->fired && o->fired[a->transition];
        if (pf && tf) {
            Agnode_t *from = box[a->dir == PN_DIR_PT ? pg : tg],
                     *to = box[a->dir == PN_DIR_PT ? tg : pg];
            if (pg == tg || !from || !to || agedge(g, from, to, NULL, 0))
                continue;
            Agedge_t *e = agedge(g, from, to, NULL, 1);
            set_arc_style(e, a->kind);
            if (hot)
                set(e, "color", FOLD_COLOR);
        } else if (pf || tf) {
            uint64_t node = pf ? np + a->transition : a->place;
            int into = (a->dir == PN_DIR_PT) == (pf == 0);
            bundles[nb++] = (bundle_t){
                node << 3 | (uint64_t)a->kind << 1 | (uint64_t)into, 1,
                a->weight, hot};
        }
    }
    qsort(bundles, nb, sizeof *bundles, cmp_bundle);
    /* the box the compound arcs leave from: the first (one further along
     * its row is drawn first in it) */
    Agnode_t *rep = NULL;
    for (size_t k = 0; k < gr->ngroups && !rep; k++)
        if (folded[k])
            rep = box[k];
    char buf[64];
    for (size_t i = 0; rep && i < nb;) {
        size_t k = i;
        bundle_t b = bundles[i++];
        for (; i < nb && bundles[i].key == b.key; i++) {
            b.count++;
            b.fired |= bundles[i].fired;
        }
        uint64_t node = b.key >> 3;
        int into = (int)(b.key & 1);
        Agnode_t *other = node < np ? pn[node] : tn[node - np];
        if (!other)
            continue;
        Agedge_t *e = into ? agedge(g, other, rep, NULL, 1)
                           : agedge(g, rep, other, NULL, 1);
        set(e, into ? "lhead" : "ltail", "cluster_folded");
        set_arc_style(e, (pn_arc_kind_t)(b.key >> 1 & 3));
        set(e, "class", (char *)pn_arc_kind_name((pn_arc_kind_t)(b.key >> 1 & 3)));
        if (b.count > 1) {
            snprintf(buf, sizeof buf, "%zu arcs", b.count);
            set(e, "label", buf);
        } else if (bundles[k].weight > 1) {
            snprintf(buf, sizeof buf, "%" PRIu64, bundles[k].weight);
            set(e, "label", buf);
        }
        if (b.fired)
            set(e, "color", FOLD_COLOR);
    }
    free(bundles);
}

/* Adds the net's nodes and arcs to g, in clusters, and renders it. */
static pn_status_t draw_net(GVC_t *gvc, Agraph_t *g, const pn_net_t *net,
                            const pn_dot_options_t *o,
                            const unsigned char *folded, size_t nboxes,
                            const char *format, char **data, size_t *len,
                            pn_error_t *err)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    clusters_t cl = {0};
    cl.root = g;
    cl.page_g = calloc(pn_net_page_count(net) + 1, sizeof *cl.page_g);
    cl.groups = o->groups;
    cl.group_g = calloc((o->groups ? o->groups->ngroups : 0) + 1,
                        sizeof *cl.group_g);
    cl.group_size = o->groups ? group_sizes(net, o->groups)
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
            set(g, "compound", "true");
            add_fold_boxes(g, net, o, cl.group_size, folded, nboxes, box);
            add_fold_arcs(g, net, o, folded, box, pn, tn);
        }
        if (o->labels == PN_LABELS_SHORT)
            add_legend(g, net, o);
        if (mode == CL_GROUPS && !o->positions && !strcmp(o->layout, "dot"))
            order_groups(g, net, o, pn, tn);
        st = render(gvc, g, o->positions ? "nop" : o->layout, format, data,
                    len, err);
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
    pn_dot_options_t o = options_or_defaults(opts);
    if (!o.layout)
        o.layout = "dot";
    if (!ctx || !net || !data || !len || !groups_fit(o.groups, net))
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
        gsize = group_sizes(net, o.groups);
        folded = calloc(o.groups->ngroups + 1, 1);
        if (!gsize || !folded) {
            free(gsize);
            free(folded);
            return dfail(err, PN_ENOMEM, "out of memory");
        }
        nboxes = fold_plan(o.groups, gsize, folded);
        elements = folded_elements(net, o.groups, folded, nboxes);
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
    Agraph_t *g = agopen((char *)(pn_net_id(net) ? pn_net_id(net) : "net"),
                         Agdirected, NULL);
    if (!g) {
        agseterr(level);
        free(folded);
        return dfail(err, PN_ENOMEM, "out of memory");
    }
    set_graph_defaults(g, net, &o, elements);
    set_dpi(g, format, o.dpi);
    st = draw_net(ctx->gvc, g, net, &o, folded, nboxes, format, data, len,
                  err);
    agclose(g);
    agseterr(level);
    free(folded);
    return st;
}

/* ---- timelines ---------------------------------------------------------- */

/* Transitions in no class are drawn in this colour, and when the options
 * give no classes the legend says "fired". */
#define FIRED_COLOR "#555555"

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

/* A timeline being drawn: rows by transition (or group) and steps
 * first..last as columns. */
typedef struct {
    const pn_groups_t *gr; /* classes colour the cells; NULL: none */
    size_t nclasses;       /* the classes drawn: those beyond 253 are not */
    uint64_t first, last, ncols;
    size_t nrows;
    size_t *row_of;        /* per transition: its row */
    const char **rows;     /* per row: its name */
    unsigned char *cells;  /* nrows x ncols, see fill_cells() */
    uint32_t *issued;      /* per column: see mark_issue(); NULL: none */
} timeline_t;

static pn_status_t check_window(const pn_trace_t *trace, uint64_t first,
                                uint64_t last, pn_error_t *err)
{
    uint64_t steps = pn_trace_steps(trace);
    if (first < 1 || last < first || last > steps)
        return dfail(err, PN_EINVAL, "steps %" PRIu64 "-%" PRIu64 " are not "
                     "in the trace (it has steps 1-%" PRIu64 ")", first, last,
                     steps);
    return PN_OK;
}

/* The rows (by group when clusters are on), then the window's size,
 * checked before any work per cell. */
static pn_status_t layout_rows(timeline_t *tl, const pn_net_t *net,
                               int clusters, pn_error_t *err)
{
    size_t nt = pn_net_transition_count(net);
    tl->row_of = malloc((nt + 1) * sizeof *tl->row_of);
    tl->rows = malloc((nt + 2) * sizeof *tl->rows);
    tl->nrows = tl->row_of && tl->rows
                    ? timeline_rows(net, clusters ? tl->gr : NULL,
                                    tl->row_of, tl->rows)
                    : (size_t)-1;
    if (tl->nrows == (size_t)-1)
        return dfail(err, PN_ENOMEM, "out of memory");
    uint64_t cells = (uint64_t)tl->nrows * tl->ncols;
    if (cells > PN_TIMELINE_MAX_CELLS) {
        uint64_t fit = PN_TIMELINE_MAX_CELLS / (tl->nrows ? tl->nrows : 1);
        return dfail(err, PN_ETOOBIG, "steps %" PRIu64 "-%" PRIu64 " over "
                     "%zu rows is %" PRIu64 " cells, more than %d: draw a "
                     "window of at most %" PRIu64 " steps (steps %" PRIu64
                     "-%" PRIu64 ")", tl->first, tl->last, tl->nrows, cells,
                     PN_TIMELINE_MAX_CELLS, fit, tl->first,
                     tl->first + fit - 1);
    }
    return PN_OK;
}

/* An issue: a transition of a group that takes a resource from outside
 * its group, a place in no group (or another's) to which a transition of
 * the same group gives tokens back: a GPU warp's t1 takes the scheduler
 * p0, which the warp's t5, t14, t15 give back (t16 takes the place
 * "active" for good: not an issue), the class "idle" aside (t0, the idle
 * step).  Per transition, in is: 1 for an issue.  Returns how many
 * transitions are issues, or (size_t)-1 without memory. */
typedef struct {
    size_t place, group;
} given_t;

static int cmp_given(const void *a, const void *b)
{
    const given_t *x = a, *y = b;
    if (x->place != y->place)
        return x->place < y->place ? -1 : 1;
    return x->group < y->group ? -1 : x->group > y->group;
}

static size_t mark_issue(const pn_net_t *net, const pn_groups_t *gr,
                         unsigned char *is)
{
    size_t nt = pn_net_transition_count(net), na = pn_net_arc_count(net),
           n = 0, ng = 0;
    given_t *given = malloc((na + 1) * sizeof *given);
    if (!given)
        return (size_t)-1;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        size_t g = gr->transition_group[arc->transition];
        if (arc->dir == PN_DIR_TP && g != PN_NONE &&
            gr->place_group[arc->place] != g)
            given[ng++] = (given_t){arc->place, g};
    }
    qsort(given, ng, sizeof *given, cmp_given);
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        size_t t = arc->transition, g = gr->transition_group[t],
               c = gr->transition_class[t];
        given_t key = {arc->place, g};
        if (arc->dir != PN_DIR_PT || arc->kind != PN_ARC_NORMAL ||
            g == PN_NONE || gr->place_group[arc->place] == g ||
            (c < gr->nclasses && !strcmp(gr->class_names[c], "idle")) ||
            !bsearch(&key, given, ng, sizeof *given, cmp_given))
            continue;
        is[t] = 1;
    }
    free(given);
    for (size_t t = 0; t < nt; t++)
        n += is[t];
    return n;
}

/* The strongest class fired per row and step (0: nothing, 1: a transition
 * in no class, 2 + c: class c). */
static pn_status_t fill_cells(timeline_t *tl, const pn_net_t *net,
                              const pn_trace_t *trace, pn_error_t *err)
{
    tl->cells = calloc((size_t)(tl->nrows * tl->ncols) + 1, 1);
    if (!tl->cells)
        return dfail(err, PN_ENOMEM, "out of memory");
    unsigned char *is = NULL;
    if (tl->gr) {
        is = calloc(pn_net_transition_count(net) + 1, 1);
        tl->issued = calloc(tl->ncols + 1, sizeof *tl->issued);
        if (!is || !tl->issued) {
            free(is);
            return dfail(err, PN_ENOMEM, "out of memory");
        }
        size_t issues = mark_issue(net, tl->gr, is);
        if (issues == (size_t)-1) {
            free(is);
            return dfail(err, PN_ENOMEM, "out of memory");
        }
        if (!issues) {
            free(tl->issued);
            tl->issued = NULL;
        }
    }
    for (uint64_t s = tl->first; s <= tl->last; s++) {
        size_t n;
        const uint32_t *f = pn_trace_fired(trace, s, &n);
        for (size_t i = 0; i < n; i++) {
            if (tl->issued && is[f[i]])
                tl->issued[s - tl->first]++;
            size_t r = tl->row_of[f[i]];
            unsigned char *c = &tl->cells[r * tl->ncols + (s - tl->first)];
            size_t cls = tl->gr ? tl->gr->transition_class[f[i]] : PN_NONE;
            unsigned char k =
                (unsigned char)(cls < tl->nclasses ? cls + 2 : 1);
            if (k > *c)
                *c = k;
        }
    }
    free(is);
    return PN_OK;
}

/* The last row of the table: step numbers every 10 steps. */
static void write_step_numbers(pni_sb_t *b, uint64_t first, uint64_t last)
{
    pni_sb_printf(b, "<TR><TD></TD>");
    for (uint64_t s = first; s <= last;) {
        uint64_t span = (s % 10 == 0) ? 10 : 10 - s % 10;
        if (s + span - 1 > last)
            span = last - s + 1;
        if (s % 10 == 0)
            pni_sb_printf(b, "<TD COLSPAN=\"%" PRIu64 "\" ALIGN=\"LEFT\"><FONT "
                      "POINT-SIZE=\"8\">%" PRIu64 "</FONT></TD>", span, s);
        else
            pni_sb_printf(b, "<TD COLSPAN=\"%" PRIu64 "\"></TD>", span);
        s += span;
    }
}

/* The kinds counted at a row's end: each class drawn (or "fired" when
 * there are none), then "none" (steps in which the row fired nothing). */
static size_t share_kinds(const timeline_t *tl)
{
    return (tl->nclasses ? tl->nclasses : 1) + 1;
}

static const char *share_name(const timeline_t *tl, size_t k)
{
    size_t n = tl->nclasses ? tl->nclasses : 1;
    if (k == n)
        return "none";
    return tl->nclasses ? tl->gr->class_names[k] : "fired";
}

/* The share of the window's steps in which the row's strongest firing was
 * of kind k, in whole percent. */
static unsigned share_of(const timeline_t *tl, size_t r, size_t k)
{
    size_t n = tl->nclasses ? tl->nclasses : 1;
    uint64_t count = 0;
    for (uint64_t c = 0; c < tl->ncols; c++) {
        unsigned char v = tl->cells[r * tl->ncols + c];
        size_t kind = v == 0 ? n : v == 1 ? (tl->nclasses ? n + 1 : 0)
                                          : (size_t)(v - 2);
        count += kind == k;
    }
    return (unsigned)((200 * count + tl->ncols) / (2 * tl->ncols));
}

/* What the timeline's last row counts in column c: the issues of the step
 * (see mark_issue()) or, in a net without them, the rows that fired. */
static size_t active_rows(const timeline_t *tl, uint64_t c)
{
    if (tl->issued)
        return tl->issued[c];
    size_t n = 0;
    for (size_t r = 0; r < tl->nrows; r++)
        n += tl->cells[r * tl->ncols + c] != 0;
    return n;
}

/* The timeline's last row, under the others: per step, a bar as high as
 * the issues of the step (for a GPU net: the warps issued on the SM, at
 * most its schedulers; fewer while the warps wait on memory), or the rows
 * that fired, and at the row's end their mean and the most in one step. */
static void write_activity(pni_sb_t *b, const timeline_t *tl,
                           const char *rows_title)
{
    size_t most = 0;
    uint64_t sum = 0;
    for (uint64_t c = 0; c < tl->ncols; c++) {
        size_t n = active_rows(tl, c);
        sum += n;
        if (n > most)
            most = n;
    }
    pni_sb_printf(b, "<TR><TD ALIGN=\"RIGHT\" VALIGN=\"BOTTOM\"><FONT "
              "POINT-SIZE=\"9\"><B>");
    html_escape(b, rows_title);
    pni_sb_printf(b, tl->issued ? "s issued</B></FONT></TD>"
                            : "s firing</B></FONT></TD>");
    for (uint64_t c = 0; c < tl->ncols; c++) {
        size_t n = active_rows(tl, c);
        /* 1 to 24 points high, 0 for none */
        unsigned h = most ? (unsigned)((24 * n + most - 1) / most) : 0;
        if (h == 0)
            pni_sb_printf(b, "<TD WIDTH=\"6\" HEIGHT=\"24\" FIXEDSIZE=\"TRUE\">"
                      "</TD>");
        else
            pni_sb_printf(b, "<TD WIDTH=\"6\" HEIGHT=\"24\" FIXEDSIZE=\"TRUE\" "
                      "VALIGN=\"BOTTOM\" TOOLTIP=\"%zu\"><TABLE BORDER=\"0\" "
                      "CELLSPACING=\"0\" CELLPADDING=\"0\"><TR><TD WIDTH=\"6\" "
                      "HEIGHT=\"%u\" FIXEDSIZE=\"TRUE\" BGCOLOR=\"%s\"></TD>"
                      "</TR></TABLE></TD>", n, h, FIRED_COLOR);
    }
    pni_sb_printf(b, "<TD COLSPAN=\"%zu\" ALIGN=\"LEFT\" VALIGN=\"BOTTOM\">"
              "<FONT POINT-SIZE=\"8\"> mean %.1f, most %zu</FONT></TD></TR>",
              share_kinds(tl),
              tl->ncols ? (double)sum / (double)tl->ncols : 0.0, most);
}

/* The label of the timeline's one node: an HTML table, rows x steps, with
 * the axes' titles (the rows' kind over their names, "step" under the
 * step numbers) and at each row's end the share of the steps by kind of
 * firing (for a GPU net: how long each warp computed, waited on shared
 * or global memory, or stood idle). */
static void write_table(pni_sb_t *b, const timeline_t *tl,
                        const char *rows_title)
{
    size_t nk = share_kinds(tl);
    pni_sb_printf(b, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\" "
                 "CELLPADDING=\"0\">");
    pni_sb_printf(b, "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\"><B>");
    html_escape(b, rows_title);
    pni_sb_printf(b, "</B></FONT></TD><TD COLSPAN=\"%" PRIu64 "\"></TD>",
              tl->ncols);
    for (size_t k = 0; k < nk; k++) {
        pni_sb_printf(b, "<TD><FONT POINT-SIZE=\"8\"> ");
        html_escape(b, share_name(tl, k));
        pni_sb_printf(b, " </FONT></TD>");
    }
    pni_sb_printf(b, "</TR>");
    for (size_t r = 0; r < tl->nrows; r++) {
        pni_sb_printf(b, "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\">");
        html_escape(b, tl->rows[r]);
        pni_sb_printf(b, "</FONT></TD>");
        for (uint64_t c = 0; c < tl->ncols; c++) {
            unsigned char k = tl->cells[r * tl->ncols + c];
            pni_sb_printf(b, "<TD WIDTH=\"6\" HEIGHT=\"12\" FIXEDSIZE=\"TRUE\" "
                      "BGCOLOR=\"%s\"></TD>",
                      k == 0   ? "#ffffff"
                      : k == 1 ? FIRED_COLOR
                               : tl->gr->class_colors[k - 2]);
        }
        for (size_t k = 0; k < nk; k++)
            pni_sb_printf(b, "<TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"8\"> %u%%"
                      "</FONT></TD>", share_of(tl, r, k));
        pni_sb_printf(b, "</TR>");
    }
    write_activity(b, tl, rows_title);
    write_step_numbers(b, tl->first, tl->last);
    pni_sb_printf(b, "</TR><TR><TD></TD><TD COLSPAN=\"%" PRIu64 "\"><FONT "
              "POINT-SIZE=\"9\"><B>step</B></FONT></TD></TR></TABLE>",
              tl->ncols);
}

/* The legend: a swatch per class, or one "fired" when there are none. */
static void write_legend(pni_sb_t *b, const timeline_t *tl)
{
    size_t nclasses = tl->nclasses;
    pni_sb_printf(b, "<TABLE BORDER=\"0\" CELLSPACING=\"4\"><TR>");
    for (size_t k = 0; k < (nclasses ? nclasses : 1); k++) {
        pni_sb_printf(b, "<TD WIDTH=\"10\" HEIGHT=\"10\" BGCOLOR=\"%s\"></TD>"
                  "<TD><FONT POINT-SIZE=\"9\">",
                  nclasses ? tl->gr->class_colors[k] : FIRED_COLOR);
        html_escape(b, nclasses ? tl->gr->class_names[k] : "fired");
        pni_sb_printf(b, "</FONT></TD>");
    }
    pni_sb_printf(b, "</TR></TABLE>");
}

/* The graph: a title, the table and the legend below it; rendered. */
static pn_status_t draw_timeline(GVC_t *gvc, const timeline_t *tl,
                                 const char *title, const char *table,
                                 const char *format, double dpi, char **data,
                                 size_t *len, pn_error_t *err)
{
    /* cgraph's error level is process-wide: set back before returning */
    agerrlevel_t level = agseterr(AGMAX);
    Agraph_t *g = agopen("timeline", Agdirected, NULL);
    set_dpi(g, format, dpi);
    set_text(g, "label", title);
    set(g, "labelloc", "t");
    set(g, "fontname", "Helvetica");
    Agnode_t *n = agnode(g, "timeline", 1);
    set(n, "shape", "plain");
    agsafeset(n, "label", agstrdup_html(g, (char *)table), "");
    pni_sb_t lg = {0};
    write_legend(&lg, tl);
    Agnode_t *legend = agnode(g, "legend", 1);
    set(legend, "shape", "plain");
    if (!lg.oom)
        agsafeset(legend, "label", agstrdup_html(g, lg.s), "");
    free(lg.s);
    set(agedge(g, n, legend, NULL, 1), "style", "invis");
    pn_status_t st = render(gvc, g, "dot", format, data, len, err);
    agclose(g);
    agseterr(level);
    return st;
}

pn_status_t pn_dot_timeline(pn_dot_context_t *ctx, const pn_net_t *net,
                            const pn_trace_t *trace, uint64_t first,
                            uint64_t last, const pn_dot_options_t *opts,
                            const char *format, char **data, size_t *len,
                            pn_error_t *err)
{
    pni_error_begin(err, NULL);
    pn_dot_options_t o = options_or_defaults(opts);
    if (!ctx || !net || !trace || !data || !len || !groups_fit(o.groups, net))
        return dfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    pn_status_t st = check_format(format, o.dpi, err);
    if (!st)
        st = check_window(trace, first, last, err);
    if (st)
        return st;
    const pn_groups_t *gr = o.groups;
    timeline_t tl = {.gr = gr,
                     .nclasses = gr && gr->nclasses < 254 ? gr->nclasses : 0,
                     .first = first, .last = last, .ncols = last - first + 1};
    pni_sb_t b = {0};
    st = layout_rows(&tl, net, !o.no_clusters, err);
    if (!st)
        st = fill_cells(&tl, net, trace, err);
    if (!st) {
        write_table(&b, &tl,
                    o.rows_title ? o.rows_title
                    : !o.no_clusters && gr ? "group"
                                       : "transition");
        if (b.oom)
            st = dfail(err, PN_ENOMEM, "out of memory");
    }
    if (!st) {
        char title[256];
        snprintf(title, sizeof title, "%s: steps %" PRIu64 "-%" PRIu64,
                 o.title ? o.title : pn_net_id(net) ? pn_net_id(net) : "run",
                 first, last);
        st = draw_timeline(ctx->gvc, &tl, title, b.s, format, o.dpi, data,
                           len, err);
    }
    free(tl.rows);
    free(tl.row_of);
    free(tl.cells);
    free(tl.issued);
    free(b.s);
    return st;
}
