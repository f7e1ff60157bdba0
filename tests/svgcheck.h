/*
 * tests/svgcheck.h - the readability check of pictures: parses an SVG that
 * Graphviz wrote and counts text that other things cover, and how much
 * the arcs wiggle (the points of their curves).  Used by
 * tests/test_dot.c and by tests/svg-overlaps (the same check on SVG files,
 * for measuring pictures of large nets).
 */
#ifndef SVGCHECK_H
#define SVGCHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

/* ---- the readability check ---------------------------------------------
 * Parses an SVG that Graphviz wrote and counts text that other things
 * cover: text boxes (approximated from the font size and the number of
 * characters: Helvetica is about 0.55 em wide a character, its glyphs
 * from 0.75 em above the baseline to 0.25 em below) against each other,
 * against the shapes of other nodes, and against arcs (their Bezier
 * curves, sampled).  A node's own lines of text (its label over its
 * tokens) and an arc's own label do not count against it. */
typedef struct {
    double x0, y0, x1, y1;
    int owner;
    char text[40]; /* the text, for the report */
} sbox_t;

typedef struct {
    sbox_t *text, *node;
    size_t ntext, nnode;
    double *pts; /* x, y pairs of sampled arc points */
    int *pt_owner;
    size_t npts;
    int owners;
    int legend;  /* the owner of the legend (a node with id "legend") */
    size_t arcs, arc_points, arc_points_max; /* the curve points of arcs */
} svg_t;

static double num_attr(xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    double d = v ? atof((const char *)v) : 0;
    xmlFree(v);
    return d;
}

/* The arrays grow to twice their size when they hold a power of two: a
 * picture of thousands of arcs is not copied over at every point (which
 * took minutes under AddressSanitizer). */
static size_t room_for(size_t n)
{
    return (n & (n - 1)) == 0 ? (n ? 2 * n : 1) : 0;
}

static void add_box(sbox_t **a, size_t *n, sbox_t b)
{
    size_t cap = room_for(*n);
    if (cap)
        *a = realloc(*a, cap * sizeof **a);
    (*a)[(*n)++] = b;
}

static void add_pt(svg_t *s, double x, double y, int owner)
{
    size_t cap = room_for(s->npts);
    if (cap) {
        s->pts = realloc(s->pts, cap * 2 * sizeof *s->pts);
        s->pt_owner = realloc(s->pt_owner, cap * sizeof *s->pt_owner);
    }
    s->pts[2 * s->npts] = x;
    s->pts[2 * s->npts + 1] = y;
    s->pt_owner[s->npts++] = owner;
}

/* "M x,y C x1,y1 x2,y2 x3,y3 ..." sampled 20 times a segment; its points
 * (x,y pairs: 1 + 3 a segment) counted for the wiggle */
static void sample_path(svg_t *s, const char *d, int owner)
{
    double v[8192];
    size_t n = 0;
    for (const char *p = d; *p && n < 8192;) {
        if (strchr("0123456789-.", *p)) {
            char *end;
            v[n++] = strtod(p, &end);
            p = end;
        } else
            p++;
    }
    s->arcs++;
    s->arc_points += n / 2;
    if (n / 2 > s->arc_points_max)
        s->arc_points_max = n / 2;
    for (size_t k = 0; k + 7 < n; k += 6)
        for (int i = 0; i <= 20; i++) {
            double t = i / 20.0, u = 1 - t;
            double x = u * u * u * v[k] + 3 * u * u * t * v[k + 2] +
                       3 * u * t * t * v[k + 4] + t * t * t * v[k + 6];
            double y = u * u * u * v[k + 1] + 3 * u * u * t * v[k + 3] +
                       3 * u * t * t * v[k + 5] + t * t * t * v[k + 7];
            add_pt(s, x, y, owner);
        }
}

static size_t utf8_chars(const char *t)
{
    size_t n = 0;
    for (; *t; t++)
        n += ((unsigned char)*t & 0xc0) != 0x80;
    return n;
}

static void walk_svg(svg_t *s, xmlNodePtr n, int owner, int kind)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *name = (const char *)n->name;
        int o = owner, k = kind;
        if (!strcmp(name, "g")) {
            xmlChar *cls = xmlGetProp(n, (const xmlChar *)"class");
            if (cls && (!strncmp((char *)cls, "node", 4) ||
                        !strncmp((char *)cls, "edge", 4) ||
                        !strncmp((char *)cls, "cluster", 7))) {
                o = ++s->owners;
                k = cls[0];
                xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
                if (id && !strcmp((char *)id, "legend"))
                    s->legend = o;
                xmlFree(id);
            }
            xmlFree(cls);
        } else if (!strcmp(name, "text")) {
            xmlChar *t = xmlNodeGetContent(n);
            double fs = num_attr(n, "font-size"), x = num_attr(n, "x"),
                   y = num_attr(n, "y");
            double w = 0.55 * fs * (double)utf8_chars((char *)t);
            xmlChar *anchor = xmlGetProp(n, (const xmlChar *)"text-anchor");
            double x0 = !anchor || !strcmp((char *)anchor, "start") ? x
                        : !strcmp((char *)anchor, "end")            ? x - w
                                                                    : x - w / 2;
            xmlFree(anchor);
            if (t && *t) {
                sbox_t b = {x0, y - 0.75 * fs, x0 + w, y + 0.25 * fs, o, ""};
                snprintf(b.text, sizeof b.text, "%s", (char *)t);
                add_box(&s->text, &s->ntext, b);
            }
            xmlFree(t);
        } else if (k == 'n' && !strcmp(name, "ellipse")) {
            double cx = num_attr(n, "cx"), cy = num_attr(n, "cy"),
                   rx = num_attr(n, "rx"), ry = num_attr(n, "ry");
            add_box(&s->node, &s->nnode,
                    (sbox_t){cx - rx, cy - ry, cx + rx, cy + ry, o, ""});
        } else if (k == 'n' && !strcmp(name, "polygon")) {
            xmlChar *pts = xmlGetProp(n, (const xmlChar *)"points");
            sbox_t b = {1e300, 1e300, -1e300, -1e300, o, ""};
            for (char *p = (char *)pts; p && *p;) {
                char *end;
                double x = strtod(p, &end);
                if (end == p || *end != ',')
                    break;
                double y = strtod(end + 1, &end);
                b.x0 = fmin(b.x0, x), b.x1 = fmax(b.x1, x);
                b.y0 = fmin(b.y0, y), b.y1 = fmax(b.y1, y);
                p = end;
            }
            xmlFree(pts);
            if (b.x0 < b.x1)
                add_box(&s->node, &s->nnode, b);
        } else if (k == 'e' && !strcmp(name, "path")) {
            xmlChar *d = xmlGetProp(n, (const xmlChar *)"d");
            if (d)
                sample_path(s, (char *)d, o);
            xmlFree(d);
        }
        walk_svg(s, n->children, o, k);
    }
}

/* Texts covered; the labels (every text but the legend's rows) and those
 * an arc crosses; the arcs' curves: how many, their points in all and
 * the most points of one (a straight arc has 4, a smooth bend 7 to 10; an
 * arc that loops around its neighbours dozens). */
typedef struct {
    size_t text_text, text_node, text_arc;
    size_t labels, labels_crossed;
    size_t arcs, arc_points, arc_points_max;
} overlaps_t;

/* boxes that overlap by more than half a point each way */
static int boxes_meet(sbox_t a, sbox_t b)
{
    return a.x0 + 0.5 < b.x1 && b.x0 + 0.5 < a.x1 && a.y0 + 0.5 < b.y1 &&
           b.y0 + 0.5 < a.y1;
}

/* The overlaps in svg into *r; -1 when it is not XML. */
static int svg_overlaps_of(const char *svg, size_t len, overlaps_t *r_out)
{
    xmlDocPtr doc = xmlReadMemory(svg, (int)len, "svg", NULL,
                                  XML_PARSE_NONET | XML_PARSE_HUGE);
    if (!doc)
        return -1;
    svg_t s = {0};
    walk_svg(&s, xmlDocGetRootElement(doc), 0, 0);
    overlaps_t r = {0};
    /* PN_SVGCHECK_VERBOSE=1: every overlap named */
    int verbose = getenv("PN_SVGCHECK_VERBOSE") != NULL;
    for (size_t i = 0; i < s.ntext; i++) {
        sbox_t a = s.text[i];
        for (size_t j = i + 1; j < s.ntext; j++)
            if ((a.owner == 0 || s.text[j].owner != a.owner) &&
                boxes_meet(a, s.text[j])) {
                if (verbose)
                    fprintf(stderr, "  '%s' meets '%s'\n", a.text,
                            s.text[j].text);
                r.text_text++;
            }
        for (size_t j = 0; j < s.nnode; j++)
            if (s.node[j].owner != a.owner && boxes_meet(a, s.node[j])) {
                if (verbose)
                    fprintf(stderr, "  '%s' meets a node\n", a.text);
                r.text_node++;
            }
        int label = !s.legend || a.owner != s.legend;
        r.labels += label;
        for (size_t j = 0; j < s.npts; j++) {
            double x = s.pts[2 * j], y = s.pts[2 * j + 1];
            if (s.pt_owner[j] != a.owner && x > a.x0 + 0.5 &&
                x < a.x1 - 0.5 && y > a.y0 + 0.5 && y < a.y1 - 0.5) {
                if (verbose)
                    fprintf(stderr, "  an arc crosses '%s'\n", a.text);
                r.text_arc++;
                r.labels_crossed += label;
                break;
            }
        }
    }
    r.arcs = s.arcs;
    r.arc_points = s.arc_points;
    r.arc_points_max = s.arc_points_max;
    free(s.text);
    free(s.node);
    free(s.pts);
    free(s.pt_owner);
    xmlFreeDoc(doc);
    *r_out = r;
    return 0;
}

#endif
