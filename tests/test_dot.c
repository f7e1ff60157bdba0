/*
 * Graphviz export: the DOT produced for small nets is parsed back with
 * cgraph and checked (nodes, shapes, arrowheads, labels, clusters); SVG is
 * well-formed XML with every node; PNG is a PNG; traces are read, checked
 * against their net and drawn with the right marking and highlights.
 */
#include <config.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <graphviz/cgraph.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "pn.h"
#include "dot.h"
#include "testutil.h"

static pn_net_t *small_net(void)
{
    pn_net_t *net = pn_net_new("small");
    ck_assert_int_eq(pn_net_add_place(net, "p", "input", 3, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "q", NULL, 7, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "r", "read me", 1, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "z", "reset me", 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "t", "fire", NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a1", "p", "t", 2, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a2", "q", "t", 1, PN_ARC_INHIBITOR,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a3", "r", "t", 1, PN_ARC_READ, NULL),
                     PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a4", "z", "t", 1, PN_ARC_RESET, NULL),
                     PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a5", "t", "q", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    return net;
}

/* One Graphviz context for the whole program (pn/dot.h says why). */
static pn_dot_context_t *ctx;

static Agraph_t *render_dot(const pn_net_t *net, const pn_dot_options_t *o)
{
    char *data;
    size_t len;
    pn_error_t err;
    pn_error_clear(&err);
    pn_status_t st = pn_dot_render(ctx, net, o, "dot", &data, &len, &err);
    ck_assert_msg(st == PN_OK, "render: %s", err.text);
    Agraph_t *g = agmemread(data);
    ck_assert_ptr_nonnull(g);
    free(data);
    return g;
}

static Agnode_t *node_with_id(Agraph_t *g, const char *id)
{
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
        char *v = agget(n, "id");
        if (v && !strcmp(v, id))
            return n;
    }
    return NULL;
}

static const char *attr(void *obj, const char *name)
{
    char *v = agget(obj, (char *)name);
    return v ? v : "";
}

static Agedge_t *edge_between(Agraph_t *g, Agnode_t *a, Agnode_t *b)
{
    return agedge(g, a, b, NULL, 0);
}

/* the options' init function: the defaults, reserved room zero; every
 * other field zero, so that a zeroed struct means the defaults too */
START_TEST(options_init)
{
    pn_dot_options_t a, b;
    memset(&a, 0xA5, sizeof a);
    memset(&b, 0, sizeof b);
    pn_dot_options_init(&a);
    ck_assert_str_eq(a.layout, "dot");
    b.layout = a.layout; /* NULL means dot */
    ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
    ck_assert_int_eq(a.no_clusters, 0);
    ck_assert(!a.positions && !a.ids && !a.groups && !a.marking && !a.fired);
    for (size_t i = 0; i < sizeof a.reserved / sizeof a.reserved[0]; i++)
        ck_assert_uint_eq(a.reserved[i], 0);
    pn_dot_options_init(NULL);
}
END_TEST

START_TEST(dot_nodes_shapes_arrowheads_labels)
{
    pn_net_t *net = small_net();
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.labels = PN_LABELS_NAME;
    Agraph_t *g = render_dot(net, &o);
    ck_assert_int_eq(agnnodes(g), 5);
    ck_assert_int_eq(agnedges(g), 5);
    Agnode_t *p = node_with_id(g, "p"), *q = node_with_id(g, "q"),
             *r = node_with_id(g, "r"), *z = node_with_id(g, "z"),
             *t = node_with_id(g, "t");
    ck_assert(p && q && r && z && t);
    ck_assert_str_eq(attr(p, "shape"), "circle");
    ck_assert_str_eq(attr(t, "shape"), "box");
    /* tokens: dots up to four, a number beyond */
    ck_assert_str_eq(attr(p, "label"), "\xe2\x80\xa2\xe2\x80\xa2\\n\xe2\x80\xa2");
    ck_assert_str_eq(attr(q, "label"), "7");
    ck_assert_str_eq(attr(z, "label"), "");
    /* names as labels; ids only on request */
    ck_assert_str_eq(attr(p, "xlabel"), "input");
    ck_assert_str_eq(attr(q, "xlabel"), "q");
    ck_assert_str_eq(attr(t, "xlabel"), "fire");
    /* arcs: weight labels above 1, kinds by arrowhead and style */
    Agedge_t *e = edge_between(g, p, t);
    ck_assert_str_eq(attr(e, "label"), "2");
    ck_assert_str_eq(attr(e, "class"), "normal");
    e = edge_between(g, q, t);
    ck_assert_str_eq(attr(e, "arrowhead"), "odot");
    ck_assert_str_eq(attr(e, "label"), "");
    e = edge_between(g, r, t);
    ck_assert_str_eq(attr(e, "arrowhead"), "none");
    ck_assert_str_eq(attr(e, "style"), "dashed");
    e = edge_between(g, z, t);
    ck_assert_str_eq(attr(e, "arrowhead"), "normalnormal");
    e = edge_between(g, t, q);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(attr(e, "arrowhead"), "");
    agclose(g);
    o.ids = 1;
    g = render_dot(net, &o);
    ck_assert_str_eq(attr(node_with_id(g, "p"), "xlabel"), "input\\n[p]");
    agclose(g);
    pn_net_free(net);
}
END_TEST

static int count_clusters(Agraph_t *g, const char *prefix)
{
    int n = 0;
    for (Agraph_t *s = agfstsubg(g); s; s = agnxtsubg(s)) {
        if (!strncmp(agnameof(s), prefix, strlen(prefix)))
            n++;
        n += count_clusters(s, prefix);
    }
    return n;
}

START_TEST(dot_clusters)
{
    /* GPU nets: one cluster per warp, p0 / t0 / active outside them */
    pn_gpu_params_t p = {.warps = 3, .schedulers = 2, .l1 = 20, .l2 = 2,
        .uniform = {1, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    pn_groups_t *gr;
    ck_assert_int_eq(pn_gpu_groups(net, &gr), PN_OK);
    o.groups = gr;
    Agraph_t *g = render_dot(net, &o);
    ck_assert_int_eq(count_clusters(g, "cluster_w"), 3);
    Agraph_t *w1 = agsubg(g, "cluster_w1", 0);
    ck_assert_ptr_nonnull(w1);
    /* its 33 nodes, and the copies of p0, active and t0 */
    ck_assert_int_eq(agnnodes(w1), 18 + 15 + 3);
    ck_assert_ptr_nonnull(node_with_id(w1, "w1_p5"));
    ck_assert_ptr_null(node_with_id(w1, "w0_p5"));
    ck_assert_ptr_null(node_with_id(w1, "p0"));
    ck_assert_ptr_null(node_with_id(w1, "t0"));
    ck_assert_ptr_nonnull(node_with_id(g, "active"));
    agclose(g);
    o.no_clusters = 1;
    g = render_dot(net, &o);
    ck_assert_int_eq(count_clusters(g, "cluster"), 0);
    agclose(g);
    /* a zeroed struct is the defaults: dot, clusters */
    pn_dot_options_t z = {.groups = gr};
    g = render_dot(net, &z);
    ck_assert_int_eq(count_clusters(g, "cluster_w"), 3);
    agclose(g);
    pn_groups_free(gr);
    pn_net_free(net);
    /* pages as clusters, nested */
    net = pn_net_new("pages");
    size_t top, sub;
    pn_net_add_page(net, "top", "Top", PN_NONE, &top);
    pn_net_add_page(net, "sub", "Sub", top, &sub);
    pn_net_add_place(net, "a", NULL, 0, NULL);
    pn_net_add_place(net, "b", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_set_page(net, PN_PLACE, 0, top);
    pn_net_set_page(net, PN_PLACE, 1, sub);
    pn_net_add_arc(net, NULL, "a", "t", 1, PN_ARC_NORMAL, NULL);
    pn_dot_options_init(&o);
    g = render_dot(net, &o);
    Agraph_t *ct = agsubg(g, "cluster_page0", 0);
    ck_assert_ptr_nonnull(ct);
    ck_assert_str_eq(attr(ct, "label"), "Top");
    Agraph_t *cs = agsubg(ct, "cluster_page1", 0);
    ck_assert_ptr_nonnull(cs);
    ck_assert_ptr_nonnull(node_with_id(cs, "b"));
    ck_assert_ptr_null(node_with_id(cs, "a"));
    agclose(g);
    /* a separator rule */
    pn_net_t *n2 = pn_net_new("prefix");
    pn_net_add_place(n2, "left_a", NULL, 0, NULL);
    pn_net_add_place(n2, "left_b", NULL, 0, NULL);
    pn_net_add_place(n2, "right_a", NULL, 0, NULL);
    pn_net_add_place(n2, "alone", NULL, 0, NULL);
    pn_net_add_place(n2, "_x", NULL, 0, NULL);
    pn_net_add_place(n2, "w10_a", NULL, 0, NULL);
    pn_net_add_place(n2, "w2_a", NULL, 0, NULL);
    ck_assert_int_eq(pn_groups_by_prefix(n2, "_", &gr), PN_OK);
    /* sorted with numbers as numbers: left, right, w2, w10 */
    ck_assert_int_eq(gr->ngroups, 4);
    ck_assert_str_eq(gr->group_names[2], "w2");
    ck_assert_str_eq(gr->group_names[3], "w10");
    ck_assert_int_eq(gr->place_group[0], 0);
    ck_assert_int_eq(gr->place_group[3], PN_NONE);
    ck_assert_int_eq(gr->place_group[4], PN_NONE); /* nothing before "_" */
    o.groups = gr;
    g = render_dot(n2, &o);
    /* a group of one node (right, w2, w10) gets no box */
    ck_assert_int_eq(count_clusters(g, "cluster_"), 1);
    ck_assert_int_eq(agnnodes(agsubg(g, "cluster_left", 0)), 2);
    agclose(g);
    /* groups that do not fit the net are refused */
    char *data;
    size_t len;
    pn_error_t err;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "dot", &data, &len, &err),
                     PN_EINVAL);
    pn_groups_free(gr);
    /* a GPU net's groups and classes, from its generator; other nets have
     * none */
    ck_assert_int_eq(pn_gpu_groups(n2, &gr), PN_EINVAL);
    pn_gpu_params_t p12 = {.warps = 13, .schedulers = 1, .l1 = 2, .l2 = 1,
        .uniform = {1, 1, 1}};
    pn_net_t *gpu;
    ck_assert_int_eq(pn_gpu_net(&p12, &gpu), PN_OK);
    ck_assert_int_eq(pn_gpu_groups(gpu, &gr), PN_OK);
    ck_assert_int_eq(gr->ngroups, 14);
    ck_assert_str_eq(gr->group_names[0], "idle");
    ck_assert_str_eq(gr->group_names[13], "w12");
    size_t t0, t7, t9, p0, w12p5;
    ck_assert_int_eq(pn_net_find(gpu, "t0", NULL, &t0), PN_OK);
    ck_assert_int_eq(pn_net_find(gpu, "w12_t7", NULL, &t7), PN_OK);
    ck_assert_int_eq(pn_net_find(gpu, "w3_t9", NULL, &t9), PN_OK);
    ck_assert_int_eq(pn_net_find(gpu, "p0", NULL, &p0), PN_OK);
    ck_assert_int_eq(pn_net_find(gpu, "w12_p5", NULL, &w12p5), PN_OK);
    ck_assert_int_eq(gr->transition_group[t0], 0);
    ck_assert_str_eq(gr->class_names[gr->transition_class[t0]], "idle");
    ck_assert_int_eq(gr->transition_group[t7], 13);
    ck_assert_str_eq(gr->class_names[gr->transition_class[t7]], "arithmetic");
    ck_assert_str_eq(gr->class_names[gr->transition_class[t9]], "global");
    ck_assert_int_eq(gr->place_group[p0], PN_NONE);
    ck_assert_int_eq(gr->place_group[w12p5], 13);
    pn_groups_free(gr);
    pn_net_free(gpu);
    pn_net_free(n2);
    pn_net_free(net);
}
END_TEST

START_TEST(svg_and_png)
{
    pn_gpu_params_t p = {.warps = 2, .schedulers = 2, .l1 = 3, .l2 = 1,
        .uniform = {1, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    char *data;
    size_t len;
    pn_error_t err;
    pn_error_clear(&err);
    ck_assert_int_eq(pn_dot_render(ctx, net, NULL, "svg", &data, &len, &err), PN_OK);
    xmlDocPtr doc = xmlReadMemory(data, (int)len, "net.svg", NULL, XML_PARSE_NONET);
    ck_assert_msg(doc != NULL, "SVG is not well-formed XML");
    xmlFreeDoc(doc);
    /* every node is in the SVG (Graphviz writes the id attribute) */
    for (size_t i = 0; i < pn_net_place_count(net); i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "id=\"%s\"", pn_net_place(net, i)->id);
        ck_assert_msg(strstr(data, needle), "SVG lacks %s", needle);
    }
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "id=\"%s\"",
                 pn_net_transition(net, i)->id);
        ck_assert_msg(strstr(data, needle), "SVG lacks %s", needle);
    }
    free(data);
    ck_assert_int_eq(pn_dot_render(ctx, net, NULL, "png", &data, &len, &err), PN_OK);
    ck_assert(len > 100);
    ck_assert(!memcmp(data, "\x89PNG\r\n\x1a\n", 8));
    ck_assert(!memcmp(data + 12, "IHDR", 4));
    free(data);
    ck_assert_int_eq(pn_dot_render(ctx, net, NULL, "pdf", &data, &len, &err), PN_OK);
    ck_assert(!memcmp(data, "%PDF", 4));
    free(data);
    /* positions from the PNML: the layout keeps them */
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.positions = 1;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "dot", &data, &len, &err), PN_OK);
    Agraph_t *g = agmemread(data);
    free(data);
    Agnode_t *n = node_with_id(g, "w0_p1");
    double x, y;
    ck_assert_int_eq(sscanf(attr(n, "pos"), "%lf,%lf", &x, &y), 2);
    const pn_place_t *pl = pn_net_place(net, 2); /* w0_p1 */
    ck_assert_str_eq(pl->id, "w0_p1");
    ck_assert(x > pl->x - 2 && x < pl->x + 2);
    agclose(g);
    /* bad layout and format */
    pn_error_clear(&err);
    o.positions = 0;
    o.layout = "circo-fancy";
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_EINVAL);
    ck_assert_int_eq(pn_dot_render(ctx, net, NULL, "bmpx", &data, &len, &err),
                     PN_EINVAL);
    /* too large for the layout: a clear message */
    pn_error_clear(&err);
    pn_dot_options_init(&o);
    o.max_elements = 10;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_ETOOBIG);
    ck_assert_ptr_nonnull(strstr(err.text, "sfdp"));
    pn_net_free(net);
}
END_TEST

START_TEST(traces)
{
    /* p(2) -> t -> q; u takes q */
    pn_net_t *net = pn_net_new("tr");
    pn_net_add_place(net, "p", NULL, 2, NULL);
    pn_net_add_place(net, "q", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "t", "q", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "q", "u", 1, PN_ARC_NORMAL, NULL);
    char *path = tmp_file_with("# pn-run trace 1\nM 0 p=2\nS 1 t\nS 2 t u\n"
                              "M 2 q=1\nS 3 u\nE dead 3\n");
    pn_trace_t *tr;
    pn_error_t err;
    ck_assert_int_eq(pn_trace_read(path, net, &tr, &err), PN_OK);
    ck_assert_int_eq(pn_trace_steps(tr), 3);
    size_t n;
    const uint32_t *f = pn_trace_fired(tr, 2, &n);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(f[0], 0);
    ck_assert_int_eq(f[1], 1);
    uint64_t m[2];
    ck_assert_int_eq(pn_trace_marking(tr, net, 1, m), PN_OK);
    ck_assert(m[0] == 1 && m[1] == 1);
    ck_assert_int_eq(pn_trace_marking(tr, net, 3, m), PN_OK);
    ck_assert(m[0] == 0 && m[1] == 0);
    ck_assert_int_eq(pn_trace_marking(tr, net, 4, m), PN_EINVAL);
    /* draw step 2: t and u highlighted, the marking after step 2 shown */
    uint64_t after[2];
    pn_trace_marking(tr, net, 2, after);
    unsigned char fired[2] = {1, 1};
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.labels = PN_LABELS_NAME;
    o.marking = after;
    o.fired = fired;
    Agraph_t *g = render_dot(net, &o);
    ck_assert_str_eq(attr(node_with_id(g, "p"), "label"), "");
    ck_assert_str_eq(attr(node_with_id(g, "q"), "label"), "\xe2\x80\xa2");
    ck_assert_str_eq(attr(node_with_id(g, "t"), "fillcolor"), "#e4572e");
    agclose(g);
    fired[1] = 0;
    g = render_dot(net, &o);
    ck_assert_str_ne(attr(node_with_id(g, "u"), "fillcolor"), "#e4572e");
    agclose(g);
    /* a timeline */
    char *data;
    size_t len;
    ck_assert_int_eq(pn_dot_timeline(ctx, net, tr, 1, 3, NULL, "svg", &data, &len,
                                     &err), PN_OK);
    ck_assert_ptr_nonnull(strstr(data, "<svg"));
    free(data);
    /* the axes' titles, and each row's share of the steps: t fired in
     * steps 1 and 2 of 3, u in 2 and 3; with a window of step 1 alone, t
     * fired in all of it and u in none */
    ck_assert_int_eq(pn_dot_timeline(ctx, net, tr, 1, 3, NULL, "dot", &data,
                                     &len, &err), PN_OK);
    ck_assert_ptr_nonnull(strstr(data, "<B>transition</B>"));
    ck_assert_ptr_nonnull(strstr(data, "<B>step</B>"));
    ck_assert_ptr_nonnull(strstr(data, "> fired <"));
    ck_assert_ptr_nonnull(strstr(data, "> none <"));
    const char *row_t = strstr(data, ">t<"), *row_u = strstr(data, ">u<");
    ck_assert(row_t && row_u);
    ck_assert_ptr_nonnull(strstr(row_t, "> 67%<"));
    ck_assert_ptr_nonnull(strstr(row_t, "> 33%<"));
    ck_assert(strstr(row_t, "> 67%<") < row_u);
    free(data);
    ck_assert_int_eq(pn_dot_timeline(ctx, net, tr, 1, 1, NULL, "dot", &data,
                                     &len, &err), PN_OK);
    row_t = strstr(data, ">t<"), row_u = strstr(data, ">u<");
    ck_assert(row_t && row_u);
    const char *full = strstr(row_t, "> 100%<");
    ck_assert(full && full < row_u);
    ck_assert_ptr_nonnull(strstr(row_u, "> 0%<"));
    ck_assert_ptr_nonnull(strstr(strstr(row_u, "> 0%<"), "> 100%<"));
    free(data);
    ck_assert_int_eq(pn_dot_timeline(ctx, net, tr, 2, 9, NULL, "svg", &data, &len,
                                     &err), PN_EINVAL);
    pn_trace_free(tr);
    unlink(path);
    free(path);
    /* traces that do not belong to the net */
    static const struct {
        const char *text;
        unsigned long line;
        const char *msg;
    } bad[] = {
        {"S 1 nosuch\n", 1, "'nosuch' is not a transition of the net"},
        {"S 1 t\nS 2 u\nS 3 u\n", 3, "'u' cannot fire"},
        {"S 1 t\nS 3 t\n", 2, "step 3 where step 2 was expected"},
        {"S 1 t\nM 1 p=2\n", 2, "the replay 1"},
        {"S 1 t\nE dead 7\n", 2, "says 7 steps"},
        {"<pnml/>\n", 1, "is this a pn-run trace?"},
        {"", 0, "no steps"},
        /* versions */
        {"# pn-run trace 7\nS 1 t\nE dead 1\n", 1, "version 7 is not known"},
        {"# pn-run trace x\nS 1 t\nE dead 1\n", 1, "version x is not"},
        /* numbers: no sign, no wrap to 2^64 - 5 */
        {"# pn-run trace 2\nS -5 t\n", 2, "step number '-5': negative"},
        {"S +1 t\n", 1, "step number '+1'"},
        {"S 1 t\nE dead -1\n", 2, "step count '-1': negative"},
        {"M 0 p=-2\n", 1, "token count '-2': negative"},
        {"M 0 p=x\n", 1, "token count 'x'"},
        {"S 99999999999999999999 t\n", 1, "above 2^63"},
        /* cut short: truncated, not another net */
        {"S 1 t\nS 2 t u\n", 2, "truncated: it stops after step 2, without "
                              "its end record"},
        {"# pn-run trace 2\n", 1, "truncated: it stops after step 0"},
        {"S 1 t\nS 2 t u\nE dead", 3, "truncated: line 3 stops without a "
                                     "line end"},
        {"S 1 t\nS 2 t u\nE dead 2\nS 3 u", 4, "text after the end"},
        /* escapes (version 2) */
        {"# pn-run trace 2\nS 1 t\\q\n", 2, "bad escape in the id 't\\q'"},
        {"# pn-run trace 2\nS 1 t\\x00\n", 2, "bad escape"},
        {"# pn-run trace 2\nS 1 t\\x4\n", 2, "bad escape"},
        {"# pn-run trace 2\nS 1 t\\\n", 2, "bad escape"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        path = tmp_file_with(bad[i].text);
        pn_trace_t *t2 = (pn_trace_t *)1;
        ck_assert_int_ne(pn_trace_read(path, net, &t2, &err), PN_OK);
        ck_assert_msg(strstr(err.text, bad[i].msg), "'%s': got '%s'",
                      bad[i].text, err.text);
        ck_assert_int_eq(err.line, bad[i].line);
        unlink(path);
        free(path);
    }
    ck_assert_int_eq(pn_trace_read("/nonexistent/t", net, &tr, &err), PN_EIO);
    /* good: an end record without its line end; \x74 is t in version 2 */
    static const char *const good[] = {
        "S 1 t\nS 2 t u\nS 3 u\nE dead 3",
        "# pn-run trace 2\nS 1 \\x74\nS 2 t u\nS 3 u\nE dead 3\n",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        path = tmp_file_with(good[i]);
        ck_assert_msg(pn_trace_read(path, net, &tr, &err) == PN_OK, "%s",
                      err.text);
        ck_assert_int_eq(pn_trace_steps(tr), 3);
        pn_trace_free(tr);
        unlink(path);
        free(path);
    }
    pn_net_free(net);
}
END_TEST

/* Any id is one token of the trace (blanks, newlines, backslashes,
 * control bytes encoded), and reads back against its net; version 1
 * traces, which wrote ids as they are, are still read. */
START_TEST(trace_any_id)
{
    static const char *const places[] = {"p 0\nq", "a\\b\tc=1"};
    static const char *const transitions[] = {"t 1", "u\nv\\x41\r\x7f \xc3\xa9"};
    pn_net_t *net = pn_net_new("n x\ny");
    pn_net_add_place(net, places[0], NULL, 2, NULL);
    pn_net_add_place(net, places[1], NULL, 0, NULL);
    pn_net_add_transition(net, transitions[0], NULL, NULL);
    pn_net_add_transition(net, transitions[1], NULL, NULL);
    pn_net_add_arc(net, NULL, places[0], transitions[0], 1, PN_ARC_NORMAL,
                   NULL);
    pn_net_add_arc(net, NULL, transitions[0], places[1], 1, PN_ARC_NORMAL,
                   NULL);
    pn_net_add_arc(net, NULL, places[1], transitions[1], 1, PN_ARC_NORMAL,
                   NULL);
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    uint64_t m0[2] = {2, 0}, m1[2] = {1, 1};
    uint32_t s1[] = {0}, s2[] = {0, 1}, s3[] = {1};
    pn_trace_write_header(f, net, 1, PN_SEM_MAXIMAL);
    pn_trace_write_marking(f, net, 0, m0);
    pn_trace_write_step(f, net, 1, s1, 1);
    pn_trace_write_marking(f, net, 1, m1);
    pn_trace_write_step(f, net, 2, s2, 2);
    pn_trace_write_step(f, net, 3, s3, 1);
    pn_trace_write_end(f, PN_END_DEAD, 3);
    fclose(f);
    /* one line per record: 4 comments, 2 snapshots, 3 steps, the end */
    size_t lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 10);
    ck_assert_ptr_nonnull(strstr(text, "# pn-run trace 2\n# net n\\x20x\\x0ay\n"));
    ck_assert_ptr_nonnull(strstr(text, "M 1 p\\x200\\x0aq=1 a\\\\b\\x09c=1=1\n"));
    ck_assert_ptr_nonnull(strstr(text, "S 3 u\\x0av\\\\x41\\x0d\\x7f\\x20\xc3\xa9\n"));
    char *path = tmp_file_with(text);
    free(text);
    pn_trace_t *tr;
    pn_error_t err;
    ck_assert_msg(pn_trace_read(path, net, &tr, &err) == PN_OK, "%s",
                  err.text);
    ck_assert_int_eq(pn_trace_steps(tr), 3);
    size_t n;
    const uint32_t *fired = pn_trace_fired(tr, 2, &n);
    ck_assert(n == 2 && fired[0] == 0 && fired[1] == 1);
    pn_trace_free(tr);
    unlink(path);
    free(path);
    /* version 1: ids as they are (a backslash is a backslash) */
    pn_net_t *v1 = pn_net_new("v1");
    pn_net_add_place(v1, "p", NULL, 1, NULL);
    pn_net_add_transition(v1, "t\\x41", NULL, NULL);
    pn_net_add_arc(v1, NULL, "p", "t\\x41", 1, PN_ARC_NORMAL, NULL);
    path = tmp_file_with("# pn-run trace 1\nM 0 p=1\nS 1 t\\x41\nE dead 1\n");
    ck_assert_msg(pn_trace_read(path, v1, &tr, &err) == PN_OK, "%s",
                  err.text);
    pn_trace_free(tr);
    unlink(path);
    free(path);
    pn_net_free(v1);
    pn_net_free(net);
}
END_TEST

/* The replay is the engine's own firing rule: every arc kind and capacity
 * is checked, so a forged step is refused whatever arc disables it. */
START_TEST(trace_replay_every_arc_kind)
{
    /* i inhibits t; r is read by u; z is reset by u; c (capacity 1) is
     * filled by v */
    pn_net_t *net = pn_net_new("kinds");
    pn_net_add_place(net, "a", NULL, 3, NULL);
    pn_net_add_place(net, "i", NULL, 0, NULL);
    pn_net_add_place(net, "r", NULL, 0, NULL);
    pn_net_add_place(net, "z", NULL, 5, NULL);
    pn_net_add_place(net, "c", NULL, 0, NULL);
    pn_net_set_capacity(net, 4, 1);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_transition(net, "u", NULL, NULL);
    pn_net_add_transition(net, "v", NULL, NULL);
    pn_net_add_transition(net, "w", NULL, NULL);
    pn_net_add_arc(net, NULL, "a", "t", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "i", "t", 1, PN_ARC_INHIBITOR, NULL);
    pn_net_add_arc(net, NULL, "t", "r", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "r", "u", 1, PN_ARC_READ, NULL);
    pn_net_add_arc(net, NULL, "z", "u", 1, PN_ARC_RESET, NULL);
    pn_net_add_arc(net, NULL, "u", "i", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "a", "v", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "v", "c", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "a", "w", 1, PN_ARC_NORMAL, NULL);
    pn_net_add_arc(net, NULL, "w", "c", 1, PN_ARC_NORMAL, NULL);
    static const struct {
        const char *text;
        unsigned long line; /* 0: the trace is good */
        const char *msg;
    } cases[] = {
        /* good: t, then u reads r (kept), empties z, marks i */
        {"S 1 t\nS 2 u\nM 2 a=2 i=1 r=1\nE dead 2\n", 0, NULL},
        /* the inhibitor: i is marked after u, so t cannot fire */
        {"S 1 t\nS 2 u\nS 3 t\n", 3, "'t' cannot fire"},
        /* the read arc: r is empty at the start */
        {"S 1 u\n", 1, "'u' cannot fire"},
        /* the reset arc empties z: a snapshot that keeps it is refused */
        {"S 1 t\nS 2 u\nM 2 a=2 i=1 r=1 z=5\n", 3, "the replay 0"},
        /* the capacity of c: v and w cannot both put a token there */
        {"S 1 v w\n", 1, "'w' cannot fire"},
        {"S 1 v\nS 2 w\n", 2, "'w' cannot fire"},
        /* one transition twice in a step */
        {"S 1 t t\n", 1, "'t' cannot fire"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *path = tmp_file_with(cases[k].text);
        pn_trace_t *tr = NULL;
        pn_error_t err;
        pn_status_t st = pn_trace_read(path, net, &tr, &err);
        if (!cases[k].line) {
            ck_assert_msg(st == PN_OK, "case %zu: %s", k, err.text);
            uint64_t m[5];
            ck_assert_int_eq(pn_trace_marking(tr, net, 2, m), PN_OK);
            ck_assert(m[0] == 2 && m[1] == 1 && m[2] == 1 && m[3] == 0 &&
                      m[4] == 0);
            pn_trace_free(tr);
        } else {
            ck_assert_int_eq(st, PN_ETRACE);
            ck_assert_msg(strstr(err.text, cases[k].msg), "case %zu: got '%s'",
                          k, err.text);
            ck_assert_int_eq(err.line, cases[k].line);
        }
        unlink(path);
        free(path);
    }
    pn_net_free(net);
}
END_TEST

START_TEST(real_run_trace)
{
    /* a trace of the real engine replays to the engine's own markings */
    pn_gpu_params_t p = {.warps = 3, .schedulers = 1, .l1 = 4, .l2 = 1,
        .uniform = {2, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    pn_engine_t *e;
    ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
    pn_sim_t *s = pn_sim_new(e, 11, PN_SEM_MAXIMAL, 0);
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    size_t np = pn_net_place_count(net);
    uint64_t *at10 = malloc(np * sizeof *at10);
    pn_end_t end = PN_END_NONE;
    while (1) {
        pn_sim_step(s, &end);
        if (end != PN_END_NONE)
            break;
        size_t n;
        const uint32_t *fr = pn_sim_fired(s, &n);
        fprintf(f, "S %llu", (unsigned long long)pn_sim_steps(s));
        for (size_t i = 0; i < n; i++)
            fprintf(f, " %s", pn_net_transition(net, fr[i])->id);
        fputc('\n', f);
        if (pn_sim_steps(s) == 10)
            memcpy(at10, pn_sim_marking(s), np * sizeof *at10);
    }
    fprintf(f, "E dead %llu\n", (unsigned long long)pn_sim_steps(s));
    fclose(f);
    char *path = tmp_file_with(buf);
    pn_trace_t *tr;
    pn_error_t err;
    ck_assert_int_eq(pn_trace_read(path, net, &tr, &err), PN_OK);
    ck_assert_int_eq(pn_trace_steps(tr), pn_sim_steps(s));
    uint64_t *m = malloc(np * sizeof *m);
    ck_assert_int_eq(pn_trace_marking(tr, net, 10, m), PN_OK);
    ck_assert(!memcmp(m, at10, np * sizeof *m));
    ck_assert_int_eq(pn_trace_marking(tr, net, pn_trace_steps(tr), m), PN_OK);
    ck_assert(!memcmp(m, pn_sim_marking(s), np * sizeof *m));
    pn_trace_free(tr);
    /* the same trace against another net is refused */
    pn_gpu_params_t p2 = {.warps = 2, .schedulers = 1, .l1 = 4, .l2 = 1,
        .uniform = {2, 1, 1}};
    pn_net_t *other;
    ck_assert_int_eq(pn_gpu_net(&p2, &other), PN_OK);
    ck_assert_int_eq(pn_trace_read(path, other, &tr, &err), PN_ETRACE);
    pn_net_free(other);
    unlink(path);
    free(path);
    free(m);
    free(at10);
    free(buf);
    pn_sim_free(s);
    pn_engine_free(e);
    pn_net_free(net);
}
END_TEST

/* Positions Graphviz cannot take (its label placement aborts beyond an
 * int) are refused before it sees them, naming the node; a bitmap too
 * large is refused from the laid-out size, before it is allocated. */
START_TEST(positions_and_bitmap_limits)
{
    pn_net_t *net = pn_net_new("far");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    ck_assert_int_eq(pn_net_set_position(net, PN_TRANSITION, 0, 0, 0), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.positions = 1;
    char *data = NULL;
    size_t len;
    pn_error_t err;
    static const double bad[][2] = {{3e9, 0}, {0, -1e20}, {1e300, 1e300},
                                    {INFINITY, 0}, {0, -INFINITY},
                                    {PN_DOT_MAX_POSITION * 1.001, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0, bad[i][0],
                                              bad[i][1]), PN_OK);
        ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len,
                                       &err), PN_ETOOBIG);
        ck_assert_msg(strstr(err.text, "place 'p' is at"), "%s", err.text);
        ck_assert_ptr_null(data);
        /* without positions they do not matter */
        o.positions = 0;
        ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len,
                                       &err), PN_OK);
        free(data);
        data = NULL;
        o.positions = 1;
    }
    /* at the limit, drawn */
    ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0,
                                          -PN_DOT_MAX_POSITION,
                                          PN_DOT_MAX_POSITION), PN_OK);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_OK);
    free(data);
    /* far apart: fine as svg, refused as png (133,000 pixels square) */
    ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0, 1e5, 1e5), PN_OK);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_OK);
    free(data);
    data = NULL;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_ETOOBIG);
    ck_assert_msg(strstr(err.text, "megapixels") && strstr(err.text, "svg"),
                  "%s", err.text);
    ck_assert_ptr_null(data);
    /* 8000 points square: 114 megapixels at 96 dpi, refused, with the
     * resolution that fits; 1.2 at 10 dpi, drawn; svg is not affected */
    ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0, 8000, 8000),
                     PN_OK);
    data = NULL;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_ETOOBIG);
    ck_assert_msg(strstr(err.text, "at 89 dpi or less (not 96)"), "%s",
                  err.text);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_OK);
    char *svg96 = data;
    o.dpi = 10;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    ck_assert(!memcmp(data + 12, "IHDR", 4));
    unsigned width = (unsigned)(unsigned char)data[16] << 24 |
                     (unsigned)(unsigned char)data[17] << 16 |
                     (unsigned)(unsigned char)data[18] << 8 |
                     (unsigned char)data[19];
    ck_assert_msg(width > 1050 && width < 1200, "width %u", width);
    free(data);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_OK);
    ck_assert_str_eq(data, svg96);
    free(data);
    free(svg96);
    static const double bad_dpi[] = {-1, NAN, PN_DOT_MAX_DPI + 1};
    for (size_t i = 0; i < sizeof bad_dpi / sizeof *bad_dpi; i++) {
        o.dpi = bad_dpi[i];
        ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len,
                                       &err), PN_EINVAL);
    }
    o.dpi = 0;
    /* within the limit, drawn: 2000 points square, 7 megapixels */
    ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0, 2000, 2000),
                     PN_OK);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    ck_assert(!memcmp(data, "\x89PNG", 4));
    free(data);
    pn_net_free(net);
}
END_TEST

/* A PNG's width and height from its header. */
static void png_size(const char *data, unsigned *w, unsigned *h)
{
    const unsigned char *d = (const unsigned char *)data;
    ck_assert(!memcmp(d, "\x89PNG", 4) && !memcmp(d + 12, "IHDR", 4));
    *w = (unsigned)d[16] << 24 | (unsigned)d[17] << 16 |
         (unsigned)d[18] << 8 | d[19];
    *h = (unsigned)d[20] << 24 | (unsigned)d[21] << 16 |
         (unsigned)d[22] << 8 | d[23];
}

/* max_side: a bitmap wider than it is drawn at the highest whole dpi at
 * which it fits, and pn_dot_last_dpi() says which; without it (0, the
 * default) the bitmap is as wide as the dpi makes it. */
START_TEST(bitmap_max_side)
{
    pn_net_t *net = pn_net_new("wide");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL, NULL);
    /* 20000 points wide: 26,700 pixels at 96 dpi, 4 megapixels */
    ck_assert_int_eq(pn_net_set_position(net, PN_TRANSITION, 0, 0, 0), PN_OK);
    ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0, 20000, 0), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.positions = 1;
    char *data = NULL;
    size_t len;
    unsigned w, h;
    pn_error_t err;
    ck_assert(pn_dot_last_dpi(NULL) == 0);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    png_size(data, &w, &h);
    ck_assert_msg(w > PN_DOT_MAX_SIDE, "width %u", w);
    ck_assert(pn_dot_last_dpi(ctx) == 96);
    free(data);
    o.max_side = PN_DOT_MAX_SIDE;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    png_size(data, &w, &h);
    double dpi = pn_dot_last_dpi(ctx);
    /* the highest whole dpi: one more would pass the side */
    ck_assert_msg(dpi == floor(dpi) && dpi >= 50 && dpi < 96, "%g dpi", dpi);
    ck_assert_msg(w <= PN_DOT_MAX_SIDE && w > PN_DOT_MAX_SIDE * dpi / (dpi + 1),
                  "width %u at %g dpi", w, dpi);
    free(data);
    /* a dpi asked for is lowered as well; one that fits is kept */
    o.dpi = 300;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    ck_assert(pn_dot_last_dpi(ctx) == dpi);
    free(data);
    o.dpi = 20;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    ck_assert(pn_dot_last_dpi(ctx) == 20);
    free(data);
    /* not a bitmap, or nothing drawn: 0 */
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_OK);
    ck_assert(pn_dot_last_dpi(ctx) == 0);
    free(data);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "png", &data, &len, &err),
                     PN_OK);
    free(data);
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "bmp", &data, &len, &err),
                     PN_EINVAL);
    ck_assert(pn_dot_last_dpi(ctx) == 0);
    pn_net_free(net);
}
END_TEST

/* ---- the readability check (tests/svgcheck.h) --------------------------- */
#include "svgcheck.h"

static overlaps_t svg_overlaps(const char *svg, size_t len)
{
    overlaps_t r;
    ck_assert_int_eq(svg_overlaps_of(svg, len, &r), 0);
    return r;
}

static overlaps_t overlaps_of(const pn_net_t *net, pn_dot_options_t *o)
{
    char *data;
    size_t len;
    pn_error_t err;
    pn_error_clear(&err);
    ck_assert_msg(pn_dot_render(ctx, net, o, "svg", &data, &len, &err) ==
                      PN_OK, "render: %s", err.text);
    overlaps_t r = svg_overlaps(data, len);
    free(data);
    return r;
}

/* The default picture of generated GPU nets (1 and 4 warps) and of the
 * small corpus nets has no text covered; the check itself finds the
 * overlaps of hand-made cases and of names beside the nodes. */
START_TEST(readable_pictures)
{
    /* the check can fail: two texts on each other, a text on a node, an
     * arc through a text */
    static const char bad[] =
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><g class=\"graph\">"
        "<text x=\"10\" y=\"10\" font-size=\"10\">hello</text>"
        "<text x=\"12\" y=\"12\" font-size=\"10\">world</text>"
        "<g class=\"node\"><ellipse cx=\"100\" cy=\"10\" rx=\"10\" "
        "ry=\"10\"/></g><text x=\"100\" y=\"10\" font-size=\"10\">x</text>"
        "<g class=\"edge\"><path d=\"M200,-20C200,0 200,20 200,40\"/></g>"
        "<text x=\"190\" y=\"10\" font-size=\"10\">crossed</text>"
        "</g></svg>";
    overlaps_t r = svg_overlaps(bad, sizeof bad - 1);
    ck_assert_int_eq(r.text_text, 1);
    ck_assert_int_eq(r.text_node, 1);
    ck_assert_int_eq(r.text_arc, 1);
    static const size_t warps[] = {1, 4};
    for (size_t k = 0; k < 2; k++) {
        pn_gpu_params_t gp = {.warps = warps[k], .schedulers = 2, .l1 = 20, .l2 = 2, .uniform = {1, 1, 1}};
        pn_net_t *net;
        ck_assert_int_eq(pn_gpu_net(&gp, &net), PN_OK);
        pn_groups_t *groups;
        ck_assert_int_eq(pn_gpu_groups(net, &groups), PN_OK);
        pn_dot_options_t o;
        pn_dot_options_init(&o);
        o.groups = groups;
        r = overlaps_of(net, &o);
        fprintf(stderr, "%zu warps: %zu text/text, %zu text/node, %zu "
                "text/arc overlaps\n", warps[k], r.text_text, r.text_node,
                r.text_arc);
        ck_assert_msg(r.text_text + r.text_node + r.text_arc == 0,
                      "%zu warps: %zu text/text, %zu text/node, %zu "
                      "text/arc overlaps", warps[k], r.text_text,
                      r.text_node, r.text_arc);
        if (warps[k] == 4) {
            /* the long names beside the nodes: what the default avoids */
            o.labels = PN_LABELS_NAME;
            r = overlaps_of(net, &o);
            fprintf(stderr, "4 warps, names beside the nodes: %zu text/text, "
                    "%zu text/node, %zu text/arc\n", r.text_text,
                    r.text_node, r.text_arc);
            ck_assert(r.text_text + r.text_node + r.text_arc > 0);
        }
        pn_groups_free(groups);
        pn_net_free(net);
    }
    /* folded nets of 1, 4 and 64 warps (the first in full, boxes for the
     * others) */
    static const size_t fwarps[] = {1, 4, 64};
    for (size_t k = 0; k < 3; k++) {
        pn_gpu_params_t gp;
        pn_gpu_params_init(&gp);
        gp.warps = fwarps[k];
        pn_net_t *net;
        ck_assert_int_eq(pn_gpu_net(&gp, &net), PN_OK);
        pn_groups_t *groups;
        ck_assert_int_eq(pn_gpu_groups(net, &groups), PN_OK);
        pn_dot_options_t o;
        pn_dot_options_init(&o);
        o.groups = groups;
        o.fold = 1;
        r = overlaps_of(net, &o);
        fprintf(stderr, "%zu warps folded: %zu text/text, %zu text/node, "
                "%zu text/arc overlaps\n", fwarps[k], r.text_text,
                r.text_node, r.text_arc);
        ck_assert_msg(r.text_text + r.text_node + r.text_arc == 0,
                      "%zu warps folded: %zu text/text, %zu text/node, %zu "
                      "text/arc overlaps", fwarps[k], r.text_text,
                      r.text_node, r.text_arc);
        pn_groups_free(groups);
        pn_net_free(net);
    }
    /* small corpus nets: asserted for those listed, counted for all */
    const char *corpus = getenv("PN_CORPUS");
    if (!corpus || !*corpus) {
        /* configure sets it empty when it finds no corpus */
        fprintf(stderr, "PN_CORPUS not set: corpus pictures skipped\n");
        return;
    }
    static const struct {
        const char *file;
        int clean; /* asserted to have no overlap (mutex: the label of
                      its page's box is crossed by an arc into the box) */
    } files[] = {
        {"pipe/Dining_philosophers.xml", 1},
        {"pipe/PIPECore_inhibitorArc.xml", 1},
        {"pipe/Producer_and_Consumer.xml", 1},
        {"pipe/Readers_and_Writers.xml", 1},
        {"greatspn/perpetuum_MakingWater.pnml", 1},
        {"epnk/mutex.pnml", 0},
        {"pnmlframework/samplePTnet.pnml", 1},
        {"pnmlframework/philo.pnml", 1},
        {"pm4py/running-example.pnml", 1},
        {"tapaal/verifypn_composition-prime-test001.pnml", 1},
        {"tapaal/verifypn_extra-test-004-burger.pnml", 1},
        {"pipe/Courier_Protocol.xml", 1},
        {"mcc/Philosophers-PT-000005.pnml", 1},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", corpus, files[i].file);
        pn_net_t *net;
        pn_error_t err;
        ck_assert_msg(pn_pnml_read_file(path, NULL, &net, &err) == PN_OK,
                      "%s: %s", path, err.text);
        pn_dot_options_t o;
        pn_dot_options_init(&o);
        r = overlaps_of(net, &o);
        fprintf(stderr, "%s: %zu text/text, %zu text/node, %zu text/arc\n",
                files[i].file, r.text_text, r.text_node, r.text_arc);
        if (files[i].clean)
            ck_assert_msg(r.text_text + r.text_node + r.text_arc == 0,
                          "%s: %zu text/text, %zu text/node, %zu text/arc",
                          files[i].file, r.text_text, r.text_node,
                          r.text_arc);
        pn_net_free(net);
    }
}
END_TEST

/* The warps of a large GPU net, laid out one at a time, are as clean as
 * those of a small one: a 64-warp net (above pn-dot's limit of nodes and
 * arcs for the dot layout, given here) has its arcs' curves of a few
 * points, none looping through its warp (tests/svg-layout.sh holds 24 and
 * 32 warps drawn by pn-dot to the same). */
START_TEST(large_nets_wiggle)
{
    pn_gpu_params_t gp;
    pn_gpu_params_init(&gp);
    gp.warps = 64;
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&gp, &net), PN_OK);
    pn_groups_t *groups;
    ck_assert_int_eq(pn_gpu_groups(net, &groups), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.groups = groups;
    o.max_elements = 10000;
    overlaps_t r = overlaps_of(net, &o);
    double mean = (double)r.arc_points / (double)r.arcs;
    fprintf(stderr, "64 warps: %zu arcs, %.1f curve points an arc, at most "
            "%zu\n", r.arcs, mean, r.arc_points_max);
    ck_assert_uint_eq(r.arcs, pn_net_arc_count(net));
    ck_assert_msg(mean <= 10 && r.arc_points_max <= 40, "64 warps: %.1f "
                  "curve points an arc, at most %zu", mean, r.arc_points_max);
    ck_assert_uint_eq(r.text_text + r.text_node + r.text_arc, 0);
    pn_groups_free(groups);
    pn_net_free(net);
}
END_TEST

/* The default labels: the id less its group inside the node ("w1_p1":
 * "p1"), the names in a legend (once per short label) and in tooltips;
 * groups left to right in their order; a two-way pair on two sides of
 * its nodes; the rank direction. */
START_TEST(short_labels_legend_order_pairs)
{
    pn_gpu_params_t gp = {.warps = 3, .schedulers = 2, .l1 = 20, .l2 = 2, .uniform = {1, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&gp, &net), PN_OK);
    pn_groups_t *groups;
    ck_assert_int_eq(pn_gpu_groups(net, &groups), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.groups = groups;
    Agraph_t *g = render_dot(net, &o);
    Agnode_t *n = node_with_id(g, "w1_p1");
    ck_assert_ptr_nonnull(n);
    ck_assert_str_eq(attr(n, "label"), "p1\\n\xe2\x80\xa2");
    ck_assert_str_eq(attr(n, "xlabel"), "");
    ck_assert_str_eq(attr(node_with_id(g, "w2_t16"), "label"), "t16");
    ck_assert_str_eq(attr(node_with_id(g, "p0"), "label"),
                     "p0\\n\xe2\x80\xa2\xe2\x80\xa2");
    ck_assert_ptr_nonnull(strstr(attr(n, "tooltip"), "w1 p1 active warp"));
    Agnode_t *legend = agnode(g, "legend", 0);
    ck_assert_ptr_nonnull(legend);
    const char *lg = attr(legend, "label");
    /* one row for p1 (not one per warp), the name less "w0 p1 " */
    ck_assert_ptr_nonnull(strstr(lg, "<B>p1</B></TD><TD ALIGN=\"LEFT\">"
                                     "active warp<"));
    ck_assert_ptr_null(strstr(strstr(lg, "<B>p1</B>") + 1, "<B>p1</B>"));
    ck_assert_ptr_null(strstr(lg, "w1"));
    /* the warps laid out apart and packed in a row in their order (w0,
     * w1, w2 left to right, top-aligned), then p0, active and t0, then
     * the legend: five parts */
    ck_assert_str_eq(attr(g, "packmode"), "array_it5");
    double x0 = -1, top = -1;
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "cluster_w%d", k);
        Agraph_t *w = agsubg(g, name, 0);
        ck_assert_ptr_nonnull(w);
        double llx, lly, urx, ury;
        ck_assert_int_eq(sscanf(attr(w, "bb"), "%lf,%lf,%lf,%lf", &llx, &lly,
                                &urx, &ury), 4);
        ck_assert_msg(llx > x0, "w%d at %g, left of the warp before", k, llx);
        ck_assert(k == 0 || fabs(ury - top) < 1);
        x0 = urx;
        top = ury;
    }
    /* p0, active and t0 have arcs into every warp: drawn once outside
     * and once, dashed, in each warp, where the warp's arcs end */
    Agnode_t *p0in1 = node_with_id(g, "p0@w1");
    ck_assert_ptr_nonnull(p0in1);
    ck_assert_str_eq(attr(p0in1, "style"), "dashed");
    ck_assert_ptr_nonnull(agsubnode(agsubg(g, "cluster_w1", 0), p0in1, 0));
    ck_assert_ptr_nonnull(agedge(g, p0in1, node_with_id(g, "w1_t1"), NULL,
                                 0));
    ck_assert_ptr_null(agedge(g, node_with_id(g, "p0"),
                              node_with_id(g, "w1_t1"), NULL, 0));
    ck_assert_ptr_nonnull(node_with_id(g, "t0@w2"));
    ck_assert_ptr_nonnull(node_with_id(g, "active@w0"));
    ck_assert_ptr_null(node_with_id(g, "w1_p1@w1"));
    /* p0 -> t0 and t0 -> p0: two sides */
    Agnode_t *p0 = node_with_id(g, "p0"), *t0 = node_with_id(g, "t0");
    ck_assert_str_eq(attr(agedge(g, p0, t0, NULL, 0), "tailport"), "e");
    ck_assert_str_eq(attr(agedge(g, t0, p0, NULL, 0), "headport"), "w");
    /* an arc with no reverse has no port */
    ck_assert_str_eq(attr(agedge(g, node_with_id(g, "w0_p2"),
                                 node_with_id(g, "w0_t1"), NULL, 0),
                          "tailport"), "");
    agclose(g);
    o.rankdir = "LR";
    g = render_dot(net, &o);
    ck_assert_str_eq(attr(g, "rankdir"), "LR");
    p0 = node_with_id(g, "p0"), t0 = node_with_id(g, "t0");
    ck_assert_str_eq(attr(agedge(g, p0, t0, NULL, 0), "tailport"), "n");
    ck_assert_str_eq(attr(agedge(g, t0, p0, NULL, 0), "headport"), "s");
    agclose(g);
    /* ids and no labels */
    o.rankdir = NULL;
    o.labels = PN_LABELS_ID;
    g = render_dot(net, &o);
    ck_assert_str_eq(attr(node_with_id(g, "w1_p1"), "xlabel"), "w1_p1");
    ck_assert_ptr_null(agnode(g, "legend", 0));
    agclose(g);
    o.labels = PN_LABELS_NONE;
    g = render_dot(net, &o);
    ck_assert_str_eq(attr(node_with_id(g, "w1_p1"), "xlabel"), "");
    ck_assert_str_eq(attr(node_with_id(g, "w1_t2"), "label"), "");
    agclose(g);
    /* refused */
    char *data;
    size_t len;
    pn_error_t err;
    o.rankdir = "UP";
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "rank direction 'UP'"));
    pn_dot_labels_t lb;
    ck_assert_int_eq(pn_dot_labels_parse("name", &lb), PN_OK);
    ck_assert_int_eq(lb, PN_LABELS_NAME);
    ck_assert_int_eq(pn_dot_labels_parse("long", &lb), PN_EINVAL);
    pn_groups_free(groups);
    pn_net_free(net);
}
END_TEST

/* Folded nets: the first warp in full, the others as boxes of their
 * marked places (at a step: the marking and the transitions fired), the
 * arcs into the shared part drawn once per node and kind; a net too
 * large to lay out is drawn when folded; refused without groups and with
 * positions. */
static Agedge_t *edge_with(Agraph_t *g, Agnode_t *a, Agnode_t *b,
                           const char *name, const char *value)
{
    for (Agedge_t *e = agfstout(g, a); e; e = agnxtout(g, e))
        if (aghead(e) == b && !strcmp(attr(e, name), value))
            return e;
    return NULL;
}

START_TEST(folded_nets)
{
    pn_gpu_params_t gp;
    pn_gpu_params_init(&gp);
    gp.warps = 64;
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&gp, &net), PN_OK);
    pn_groups_t *groups;
    ck_assert_int_eq(pn_gpu_groups(net, &groups), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.groups = groups;
    char *data;
    size_t len;
    pn_error_t err;
    /* unfolded: too large for dot */
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "dot", &data, &len, &err),
                     PN_ETOOBIG);
    o.fold = 1;
    Agraph_t *g = render_dot(net, &o);
    ck_assert_ptr_nonnull(node_with_id(g, "w0_p1"));
    ck_assert_ptr_nonnull(node_with_id(g, "w0_t16"));
    ck_assert_ptr_nonnull(node_with_id(g, "t0"));
    ck_assert_ptr_null(node_with_id(g, "w1_p1"));
    ck_assert_ptr_null(node_with_id(g, "w63_t16"));
    int nodes = 0;
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
        nodes++;
    /* p0, active, t0, w0's 18 + 15, 63 boxes, the legend */
    ck_assert_int_eq(nodes, 3 + 33 + 63 + 1);
    Agnode_t *w1 = node_with_id(g, "fold-w1"), *w5 = node_with_id(g, "fold-w5");
    ck_assert_ptr_nonnull(w1);
    ck_assert_ptr_nonnull(node_with_id(g, "fold-w63"));
    ck_assert_str_eq(attr(w5, "label"), "w5\\np1 p2 p3 p5:10\\np7:4 p9:4");
    Agraph_t *folded = agsubg(g, "cluster_folded", 0);
    ck_assert_ptr_nonnull(folded);
    ck_assert_ptr_nonnull(strstr(attr(folded, "label"), "w1"));
    ck_assert_ptr_nonnull(strstr(attr(folded, "label"), "w63"));
    /* an 8 x 8 grid, in the warps' order */
    Agraph_t *row0 = agsubg(folded, "fold_row0", 0);
    ck_assert_ptr_nonnull(row0);
    ck_assert_ptr_nonnull(agsubnode(row0, node_with_id(g, "fold-w8"), 0));
    ck_assert_ptr_null(agsubnode(row0, node_with_id(g, "fold-w9"), 0));
    ck_assert_ptr_nonnull(agedge(g, w1, node_with_id(g, "fold-w2"), NULL, 0));
    /* the scheduler: taken by 63 t1, given back by 63 t5, t14 and t15;
     * active taken by 63 t16; 63 p2 inhibit t0: one arc each, from the
     * cluster's edge */
    Agnode_t *p0 = node_with_id(g, "p0"), *active = node_with_id(g, "active"),
             *t0 = node_with_id(g, "t0");
    Agedge_t *e = edge_with(g, p0, w1, "lhead", "cluster_folded");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(attr(e, "label"), "63 arcs");
    e = edge_with(g, w1, p0, "ltail", "cluster_folded");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(attr(e, "label"), "189 arcs");
    ck_assert_ptr_nonnull(edge_with(g, active, w1, "label", "63 arcs"));
    e = edge_with(g, w1, t0, "label", "63 arcs");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(attr(e, "arrowhead"), "odot");
    ck_assert_str_eq(attr(g, "compound"), "true");
    /* w0's own arcs stay */
    ck_assert_ptr_nonnull(agedge(g, p0, node_with_id(g, "w0_t1"), NULL, 0));
    agclose(g);
    /* a step: the marking and the transitions fired shown in the boxes */
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    uint64_t *m = calloc(np, sizeof *m);
    unsigned char *fired = calloc(nt, 1);
    pn_object_t kind;
    size_t i15, i17, i2;
    ck_assert_int_eq(pn_net_find(net, "w2_p15", &kind, &i15), PN_OK);
    ck_assert_int_eq(pn_net_find(net, "w2_t17", &kind, &i17), PN_OK);
    ck_assert_int_eq(pn_net_find(net, "w3_p2", &kind, &i2), PN_OK);
    m[i15] = 3;
    m[i2] = 1;
    fired[i17] = 1;
    o.marking = m;
    o.fired = fired;
    g = render_dot(net, &o);
    ck_assert_str_eq(attr(node_with_id(g, "fold-w1"), "label"),
                     "w1\\nno tokens");
    Agnode_t *w2 = node_with_id(g, "fold-w2");
    ck_assert_str_eq(attr(w2, "label"), "w2\\np15:3\\nfired t17");
    ck_assert_str_eq(attr(w2, "color"), "#e4572e");
    ck_assert_str_eq(attr(node_with_id(g, "fold-w3"), "label"), "w3\\np2");
    ck_assert_str_eq(attr(node_with_id(g, "fold-w3"), "color"), "");
    agclose(g);
    free(m);
    free(fired);
    /* refused: with positions; without groups */
    o.marking = NULL;
    o.fired = NULL;
    o.positions = 1;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "no positions"));
    o.positions = 0;
    o.groups = NULL;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "in groups"));
    pn_groups_free(groups);
    pn_net_free(net);
}
END_TEST

/* Graphviz's escapes in names and ids (\\N, \\G, \\E, \\L, \\n, ...) are drawn
 * as written, in nets and in timelines. */
START_TEST(backslashes_drawn_as_written)
{
    pn_net_t *net = pn_net_new("n\\G");
    pn_net_set_name(net, "net \\G");
    pn_net_add_place(net, "p\\L", "a\\Nb", 1, NULL);
    pn_net_add_transition(net, "t\\E", "c\\\\d \\T\\H\\l\\n", NULL);
    pn_net_add_arc(net, NULL, "p\\L", "t\\E", 1, PN_ARC_NORMAL, NULL);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    o.labels = PN_LABELS_NAME;
    o.ids = 1;
    char *data;
    size_t len;
    pn_error_t err;
    ck_assert_int_eq(pn_dot_render(ctx, net, &o, "svg", &data, &len, &err),
                     PN_OK);
    static const char *const want[] = {
        ">a\\Nb<", ">[p\\L]<", ">c\\\\d \\T\\H\\l\\n<", ">[t\\E]<",
        "id=\"p\\L\"", "id=\"t\\E\"", ">net \\G<"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(data, want[i]), "the SVG lacks %s", want[i]);
    free(data);
    /* a timeline: the row of t\E and the title */
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    uint32_t t0 = 0;
    pn_trace_write_header(f, net, 1, PN_SEM_MAXIMAL);
    pn_trace_write_step(f, net, 1, &t0, 1);
    pn_trace_write_end(f, PN_END_DEAD, 1);
    fclose(f);
    char *path = tmp_file_with(text);
    free(text);
    pn_trace_t *tr;
    ck_assert_int_eq(pn_trace_read(path, net, &tr, &err), PN_OK);
    ck_assert_int_eq(pn_dot_timeline(ctx, net, tr, 1, 1, NULL, "svg", &data,
                                     &len, &err), PN_OK);
    ck_assert_msg(strstr(data, ">t\\E<"), "the timeline lacks t\\E");
    ck_assert_msg(strstr(data, ">n\\G: steps"), "the timeline lacks n\\G");
    free(data);
    pn_trace_free(tr);
    unlink(path);
    free(path);
    pn_net_free(net);
}
END_TEST

/* timing beside the transitions with options.rates (in words in their
 * tooltips), nothing without it or for an untimed transition; a
 * solution's measures beside every node but those given NaN */
START_TEST(timing_and_measures)
{
    pn_net_t *net = pn_net_new("timed");
    ck_assert_int_eq(pn_net_add_place(net, "p", NULL, 1, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "q", NULL, 0, NULL), PN_OK);
    const char *ids[] = {"e", "d", "i", "u"};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pn_net_add_transition(net, ids[i], NULL, NULL),
                         PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_EXPONENTIAL, 0.25, 1,
                                       PN_SERVER_INFINITE), PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 1, PN_TIMING_DETERMINISTIC, 4.5,
                                       1, PN_SERVER_K), PN_OK);
    ck_assert_int_eq(pn_net_set_servers(net, 1, 3), PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 2, PN_TIMING_IMMEDIATE, 1006.0362,
                                       2, PN_SERVER_SINGLE), PN_OK);
    pn_dot_options_t o;
    pn_dot_options_init(&o);
    Agraph_t *g = render_dot(net, &o);
    for (int i = 0; i < 4; i++)
        ck_assert_str_eq(attr(node_with_id(g, ids[i]), "xlabel"), "");
    ck_assert_str_eq(attr(node_with_id(g, "e"), "fontcolor"), "#ffffff");
    ck_assert_ptr_null(agattr(g, AGRAPH, "nodesep", NULL));
    agclose(g);
    o.rates = 1;
    g = render_dot(net, &o);
    /* room for the text beside the nodes; that text black, the short
     * label still white in its bar */
    ck_assert_str_eq(attr(g, "nodesep"), "0.5");
    ck_assert_str_eq(attr(node_with_id(g, "e"), "fontcolor"), "#000000");
    ck_assert_str_eq(attr(node_with_id(g, "e"), "label"),
                     "<FONT COLOR=\"#ffffff\">e</FONT>");
    ck_assert_str_eq(attr(node_with_id(g, "u"), "fontcolor"), "#ffffff");
    Agnode_t *e = node_with_id(g, "e"), *d = node_with_id(g, "d"),
             *i = node_with_id(g, "i"), *u = node_with_id(g, "u");
    ck_assert_str_eq(attr(e, "xlabel"), "\xce\xbb=0.25 \xe2\x88\x9e servers");
    ck_assert_str_eq(attr(e, "tooltip"), "e\\nexponential, rate 0.25, "
                     "infinite server");
    ck_assert_str_eq(attr(d, "xlabel"), "d=4.5 3 servers");
    ck_assert_str_eq(attr(d, "tooltip"), "d\\ndeterministic, delay 4.5, "
                     "3 servers");
    ck_assert_str_eq(attr(i, "xlabel"), "w=1006.04 \xcf\x80=2");
    ck_assert_str_eq(attr(i, "tooltip"), "i\\nimmediate, weight 1006.0362, "
                     "priority 2");
    ck_assert_str_eq(attr(u, "xlabel"), "");
    ck_assert_str_eq(attr(u, "tooltip"), "u");
    agclose(g);
    double x[4] = {1.0 / 3, NAN, 2, 0}, m[2] = {NAN, 1234.5678};
    o.throughput = x;
    o.mean_tokens = m;
    g = render_dot(net, &o);
    ck_assert_str_eq(attr(node_with_id(g, "e"), "xlabel"),
                     "\xce\xbb=0.25 \xe2\x88\x9e servers\\nX=0.3333");
    ck_assert_str_eq(attr(node_with_id(g, "d"), "xlabel"), "d=4.5 3 servers");
    ck_assert_str_eq(attr(node_with_id(g, "u"), "xlabel"), "X=0");
    ck_assert_str_eq(attr(node_with_id(g, "u"), "tooltip"),
                     "u\\nthroughput 0");
    ck_assert_str_eq(attr(node_with_id(g, "p"), "xlabel"), "");
    ck_assert_str_eq(attr(node_with_id(g, "q"), "xlabel"), "N=1235");
    ck_assert_str_eq(attr(node_with_id(g, "q"), "tooltip"),
                     "q\\nmean tokens 1234.5678");
    agclose(g);
    pn_net_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dot");
    TCase *tc = tcase_create("dot");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, options_init);
    tcase_add_test(tc, dot_nodes_shapes_arrowheads_labels);
    tcase_add_test(tc, dot_clusters);
    tcase_add_test(tc, svg_and_png);
    tcase_add_test(tc, traces);
    tcase_add_test(tc, trace_any_id);
    tcase_add_test(tc, real_run_trace);
    tcase_add_test(tc, trace_replay_every_arc_kind);
    tcase_add_test(tc, positions_and_bitmap_limits);
    tcase_add_test(tc, bitmap_max_side);
    tcase_add_test(tc, backslashes_drawn_as_written);
    tcase_add_test(tc, short_labels_legend_order_pairs);
    tcase_add_test(tc, readable_pictures);
    tcase_add_test(tc, large_nets_wiggle);
    tcase_add_test(tc, folded_nets);
    tcase_add_test(tc, timing_and_measures);
    suite_add_tcase(s, tc);
    ctx = pn_dot_context_new();
    if (!ctx)
        return 1;
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    pn_dot_context_free(ctx);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
