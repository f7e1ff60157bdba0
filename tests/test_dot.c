/*
 * Graphviz export: the DOT produced for small nets is parsed back with
 * cgraph and checked (nodes, shapes, arrowheads, labels, clusters); SVG is
 * well-formed XML with every node; PNG is a PNG; traces are read, checked
 * against their net and drawn with the right marking and highlights.
 */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <graphviz/cgraph.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "pn.h"
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

static Agraph_t *render_dot(const pn_net_t *net, const pn_dot_options_t *o)
{
    char *data;
    size_t len;
    pn_error_t err;
    pn_error_clear(&err);
    pn_status_t st = pn_dot_render(net, o, "dot", &data, &len, &err);
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

START_TEST(dot_nodes_shapes_arrowheads_labels)
{
    pn_net_t *net = small_net();
    pn_dot_options_t o;
    pn_dot_defaults(&o);
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
    pn_gpu_params_t p = {3, 2, 20, 2, NULL, {1, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    pn_dot_options_t o;
    pn_dot_defaults(&o);
    Agraph_t *g = render_dot(net, &o);
    ck_assert_int_eq(count_clusters(g, "cluster_w"), 3);
    Agraph_t *w1 = agsubg(g, "cluster_w1", 0);
    ck_assert_ptr_nonnull(w1);
    ck_assert_int_eq(agnnodes(w1), 18 + 15);
    ck_assert_ptr_nonnull(node_with_id(w1, "w1_p5"));
    ck_assert_ptr_null(node_with_id(w1, "w0_p5"));
    ck_assert_ptr_null(node_with_id(w1, "p0"));
    ck_assert_ptr_null(node_with_id(w1, "t0"));
    ck_assert_ptr_nonnull(node_with_id(g, "active"));
    agclose(g);
    o.clusters = 0;
    g = render_dot(net, &o);
    ck_assert_int_eq(count_clusters(g, "cluster"), 0);
    agclose(g);
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
    pn_dot_defaults(&o);
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
    o.cluster_by = "_";
    pn_net_t *n2 = pn_net_new("prefix");
    pn_net_add_place(n2, "left_a", NULL, 0, NULL);
    pn_net_add_place(n2, "left_b", NULL, 0, NULL);
    pn_net_add_place(n2, "right_a", NULL, 0, NULL);
    pn_net_add_place(n2, "alone", NULL, 0, NULL);
    g = render_dot(n2, &o);
    ck_assert_int_eq(count_clusters(g, "cluster_"), 2);
    ck_assert_int_eq(agnnodes(agsubg(g, "cluster_left", 0)), 2);
    agclose(g);
    char key[32];
    ck_assert(pn_dot_cluster_key("w12_t3", NULL, key, sizeof key));
    ck_assert_str_eq(key, "w12");
    ck_assert(!pn_dot_cluster_key("p0", NULL, key, sizeof key));
    ck_assert(!pn_dot_cluster_key("_x", "_", key, sizeof key));
    pn_net_free(n2);
    pn_net_free(net);
}
END_TEST

START_TEST(svg_and_png)
{
    pn_gpu_params_t p = {2, 2, 3, 1, NULL, {1, 1, 1}};
    pn_net_t *net;
    ck_assert_int_eq(pn_gpu_net(&p, &net), PN_OK);
    char *data;
    size_t len;
    pn_error_t err;
    pn_error_clear(&err);
    ck_assert_int_eq(pn_dot_render(net, NULL, "svg", &data, &len, &err), PN_OK);
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
    ck_assert_int_eq(pn_dot_render(net, NULL, "png", &data, &len, &err), PN_OK);
    ck_assert(len > 100);
    ck_assert(!memcmp(data, "\x89PNG\r\n\x1a\n", 8));
    ck_assert(!memcmp(data + 12, "IHDR", 4));
    free(data);
    ck_assert_int_eq(pn_dot_render(net, NULL, "pdf", &data, &len, &err), PN_OK);
    ck_assert(!memcmp(data, "%PDF", 4));
    free(data);
    /* positions from the PNML: the layout keeps them */
    pn_dot_options_t o;
    pn_dot_defaults(&o);
    o.positions = 1;
    ck_assert_int_eq(pn_dot_render(net, &o, "dot", &data, &len, &err), PN_OK);
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
    ck_assert_int_eq(pn_dot_render(net, &o, "svg", &data, &len, &err),
                     PN_EINVAL);
    ck_assert_int_eq(pn_dot_render(net, NULL, "bmpx", &data, &len, &err),
                     PN_EINVAL);
    /* too large for the layout: a clear message */
    pn_error_clear(&err);
    pn_dot_defaults(&o);
    o.max_elements = 10;
    ck_assert_int_eq(pn_dot_render(net, &o, "svg", &data, &len, &err),
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
    pn_dot_defaults(&o);
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
    ck_assert_int_eq(pn_dot_timeline(net, tr, 1, 3, NULL, "svg", &data, &len,
                                     &err), PN_OK);
    ck_assert_ptr_nonnull(strstr(data, "<svg"));
    free(data);
    ck_assert_int_eq(pn_dot_timeline(net, tr, 2, 9, NULL, "svg", &data, &len,
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
    pn_net_free(net);
}
END_TEST

START_TEST(real_run_trace)
{
    /* a trace of the real engine replays to the engine's own markings */
    pn_gpu_params_t p = {3, 1, 4, 1, NULL, {2, 1, 1}};
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
    pn_gpu_params_t p2 = {2, 1, 4, 1, NULL, {2, 1, 1}};
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

int main(void)
{
    Suite *s = suite_create("dot");
    TCase *tc = tcase_create("dot");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, dot_nodes_shapes_arrowheads_labels);
    tcase_add_test(tc, dot_clusters);
    tcase_add_test(tc, svg_and_png);
    tcase_add_test(tc, traces);
    tcase_add_test(tc, real_run_trace);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
