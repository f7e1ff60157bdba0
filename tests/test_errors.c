/* The error record's one contract (pn/status.h), for every function that
 * takes a pn_error_t: the record is fully reset on entry, so that nothing
 * of an earlier error survives a call, success or failure; on failure it
 * holds the returned code and a text; NULL is allowed.  Each function is
 * called with a record dirtied beforehand (every byte 0xA5, then an old
 * error's code, file, position and text), once succeeding and once
 * failing, and once with NULL. */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "dot.h"
#include "testutil.h"

#define DIRT 0xA5

static void dirty(pn_error_t *err)
{
    memset(err, DIRT, sizeof *err);
    err->code = PN_EDIALECT;
    err->line = 99;
    err->column = 7;
    memcpy(err->file, "old/file.pnml", sizeof "old/file.pnml");
    memcpy(err->text, "an earlier error", sizeof "an earlier error");
}

/* nothing of the dirt is left anywhere in the record: no byte 0xA5 (the
 * file and text buffers are zeroed past their strings), no old string */
static void no_dirt(const pn_error_t *err, const char *call)
{
    const unsigned char *b = (const unsigned char *)err;
    for (size_t i = 0; i < sizeof *err; i++)
        ck_assert_msg(b[i] != DIRT, "%s: byte %zu of the record is old", call,
                      i);
    ck_assert_msg(strcmp(err->file, "old/file.pnml") != 0,
                  "%s: the old file survived", call);
    ck_assert_msg(strstr(err->text, "earlier") == NULL,
                  "%s: the old text survived", call);
}

/* after a successful call: PN_OK, no position, no text */
static void success(pn_status_t st, const pn_error_t *err, const char *call)
{
    ck_assert_msg(st == PN_OK, "%s failed: %s", call, err->text);
    ck_assert_int_eq(err->code, PN_OK);
    ck_assert_uint_eq(err->line, 0);
    ck_assert_uint_eq(err->column, 0);
    ck_assert_str_eq(err->text, "");
    no_dirt(err, call);
}

/* after a failed call: its code, a text, none of the old record */
static void failure(pn_status_t st, pn_status_t want, const pn_error_t *err,
                    const char *call)
{
    ck_assert_msg(st == want, "%s returned %s, wanted %s", call,
                  pn_status_name(st), pn_status_name(want));
    ck_assert_int_eq(err->code, want);
    ck_assert_msg(err->text[0] != '\0', "%s: no text", call);
    no_dirt(err, call);
}

static const char net_xml[] =
    "<?xml version=\"1.0\"?>\n"
    "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n"
    "<net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\">\n"
    "<page id=\"g\">\n"
    "<place id=\"p\"><initialMarking><text>1</text></initialMarking></place>\n"
    "<place id=\"q\"/>\n"
    "<transition id=\"t\"/>\n"
    "<arc id=\"a1\" source=\"p\" target=\"t\"/>\n"
    "<arc id=\"a2\" source=\"t\" target=\"q\"/>\n"
    "</page></net></pnml>\n";

static pn_net_t *small_net(void)
{
    pn_net_t *net = NULL;
    ck_assert_int_eq(pn_pnml_read_memory(net_xml, sizeof net_xml - 1, "n",
                                         NULL, &net, NULL), PN_OK);
    return net;
}

/* a net the strict dialect cannot write (an inhibitor arc) */
static pn_net_t *inhibitor_net(void)
{
    pn_net_t *net = pn_net_new("i");
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(pn_net_add_place(net, "p", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "t", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "t", 1, PN_ARC_INHIBITOR,
                                    NULL), PN_OK);
    return net;
}

START_TEST(pnml_read)
{
    pn_error_t err;
    pn_net_t *net;
    char *path = tmp_file_with(net_xml);
    dirty(&err);
    success(pn_pnml_read_file(path, NULL, &net, &err), &err,
            "pn_pnml_read_file");
    pn_net_free(net);
    dirty(&err);
    failure(pn_pnml_read_file("/nonexistent/x.pnml", NULL, &net, &err),
            PN_EIO, &err, "pn_pnml_read_file");
    ck_assert_ptr_null(net);
    ck_assert_int_eq(pn_pnml_read_file(path, NULL, &net, NULL), PN_OK);
    pn_net_free(net);
    ck_assert_int_eq(pn_pnml_read_file("/nonexistent/x.pnml", NULL, &net,
                                       NULL), PN_EIO);
    unlink(path);
    free(path);

    dirty(&err);
    success(pn_pnml_read_memory(net_xml, sizeof net_xml - 1, NULL, NULL, &net,
                                &err), &err, "pn_pnml_read_memory");
    pn_net_free(net);
    dirty(&err);
    failure(pn_pnml_read_memory("<pnml>", 6, NULL, NULL, &net, &err), PN_EXML,
            &err, "pn_pnml_read_memory");
    ck_assert_int_eq(pn_pnml_read_memory("<pnml>", 6, NULL, NULL, &net, NULL),
                     PN_EXML);
}
END_TEST

START_TEST(pnml_write)
{
    pn_error_t err;
    pn_net_t *net = small_net(), *inh = inhibitor_net();
    pn_write_options_t strict = {.dialect = PN_DIALECT_STRICT};
    char *path = tmp_file_with("");
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);

    dirty(&err);
    success(pn_pnml_write_stream(net, f, NULL, &err), &err,
            "pn_pnml_write_stream");
    dirty(&err);
    failure(pn_pnml_write_stream(inh, f, &strict, &err), PN_EDIALECT, &err,
            "pn_pnml_write_stream");
    /* after a failed read, a failed write keeps none of the read's file,
     * line or column */
    pn_net_t *none;
    ck_assert_int_eq(pn_pnml_read_memory("<pnml>\n<net>", 12, "bad.pnml",
                                         NULL, &none, &err), PN_EXML);
    ck_assert_uint_ne(err.line, 0);
    failure(pn_pnml_write_stream(inh, f, &strict, &err), PN_EDIALECT, &err,
            "pn_pnml_write_stream after a failed read");
    ck_assert_str_eq(err.file, "");
    ck_assert_uint_eq(err.line, 0);
    ck_assert_uint_eq(err.column, 0);
    ck_assert_int_eq(pn_pnml_write_stream(net, f, NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_pnml_write_stream(inh, f, &strict, NULL),
                     PN_EDIALECT);

    dirty(&err);
    success(pn_pnml_write_file(net, path, NULL, &err), &err,
            "pn_pnml_write_file");
    dirty(&err);
    failure(pn_pnml_write_file(inh, path, &strict, &err), PN_EDIALECT, &err,
            "pn_pnml_write_file");
    dirty(&err);
    failure(pn_pnml_write_file(net, "/nonexistent/dir/x.pnml", NULL, &err),
            PN_EIO, &err, "pn_pnml_write_file");
    ck_assert_int_eq(pn_pnml_write_file(net, path, NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_pnml_write_file(inh, path, &strict, NULL),
                     PN_EDIALECT);
    fclose(f);
    unlink(path);
    free(path);
    pn_net_free(inh);
    pn_net_free(net);
}
END_TEST

/* a trace of small_net(): t fires in step 1, then the net is dead */
static char *trace_file(const pn_net_t *net)
{
    char *path = tmp_file_with("");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    uint32_t s1[] = {0};
    ck_assert_int_eq(pn_trace_write_header(f, net, 1, PN_SEM_MAXIMAL), 0);
    ck_assert_int_eq(pn_trace_write_step(f, net, 1, s1, 1), 0);
    ck_assert_int_eq(pn_trace_write_end(f, PN_END_DEAD, 1), 0);
    fclose(f);
    return path;
}

START_TEST(trace_read)
{
    pn_error_t err;
    pn_net_t *net = small_net();
    pn_trace_t *tr;
    char *path = trace_file(net);
    char *bad = tmp_file_with("# pn-run trace 2\nS 1 nosuch\nE dead 1\n");
    dirty(&err);
    success(pn_trace_read(path, net, &tr, &err), &err, "pn_trace_read");
    pn_trace_free(tr);
    dirty(&err);
    failure(pn_trace_read(bad, net, &tr, &err), PN_ETRACE, &err,
            "pn_trace_read");
    ck_assert_int_eq(pn_trace_read(path, net, &tr, NULL), PN_OK);
    pn_trace_free(tr);
    ck_assert_int_eq(pn_trace_read(bad, net, &tr, NULL), PN_ETRACE);
    unlink(path);
    unlink(bad);
    free(path);
    free(bad);
    pn_net_free(net);
}
END_TEST

START_TEST(gpu_workload)
{
    pn_error_t err;
    pn_gpu_warp_t *work;
    size_t warps;
    char *good = tmp_file_with("warp,arith,shared,global\n0,3,1,1\n");
    char *bad = tmp_file_with("0,3,1\n");
    dirty(&err);
    success(pn_gpu_workload_read(good, &work, &warps, &err), &err,
            "pn_gpu_workload_read");
    free(work);
    dirty(&err);
    failure(pn_gpu_workload_read(bad, &work, &warps, &err), PN_EVALUE, &err,
            "pn_gpu_workload_read");
    ck_assert_int_eq(pn_gpu_workload_read(good, &work, &warps, NULL), PN_OK);
    free(work);
    ck_assert_int_eq(pn_gpu_workload_read(bad, &work, &warps, NULL),
                     PN_EVALUE);
    unlink(good);
    unlink(bad);
    free(good);
    free(bad);
}
END_TEST

START_TEST(kernel)
{
    pn_error_t err;
    pn_kernel_t *k;
    pn_net_t *net;
    char *good = tmp_file_with("digraph g { a -> b [time=3]; }\n");
    char *bad = tmp_file_with("digraph g { a -> b; }\n");
    dirty(&err);
    success(pn_kernel_read_dot(good, NULL, &k, &err), &err,
            "pn_kernel_read_dot");
    dirty(&err);
    pn_kernel_t *k2;
    failure(pn_kernel_read_dot(bad, NULL, &k2, &err), PN_EVALUE, &err,
            "pn_kernel_read_dot");
    ck_assert_int_eq(pn_kernel_read_dot(bad, NULL, &k2, NULL), PN_EVALUE);

    pn_mp_params_t p = {.model = PN_MP_NAIVE, .executors = 1};
    dirty(&err);
    success(pn_kernel_event_graph(k, &p, &net, &err), &err,
            "pn_kernel_event_graph");
    pn_net_free(net);
    p.model = PN_MP_SERIALIZED;
    dirty(&err);
    failure(pn_kernel_event_graph(k, &p, &net, &err), PN_EINVAL, &err,
            "pn_kernel_event_graph");
    ck_assert_int_eq(pn_kernel_event_graph(k, &p, &net, NULL), PN_EINVAL);
    pn_kernel_free(k);
    unlink(good);
    unlink(bad);
    free(good);
    free(bad);
}
END_TEST

START_TEST(mcc_bounds)
{
    pn_error_t err;
    pn_net_t *net = small_net();
    pn_query_set_t *b;
    char *good = tmp_file_with(
        "<?xml version=\"1.0\"?>\n"
        "<property-set xmlns=\"http://mcc.lip6.fr/\">\n"
        "<property><id>x</id><formula><place-bound><place>q</place>"
        "</place-bound></formula></property>\n</property-set>\n");
    char *bad = tmp_file_with(
        "<?xml version=\"1.0\"?>\n"
        "<property-set xmlns=\"http://mcc.lip6.fr/\">\n"
        "<property><id>x</id><formula><place-bound><place>nosuch</place>"
        "</place-bound></formula></property>\n</property-set>\n");
    dirty(&err);
    success(pn_mcc_queries_read(good, net, &b, &err), &err,
            "pn_mcc_queries_read");
    pn_query_set_free(b);
    dirty(&err);
    failure(pn_mcc_queries_read(bad, net, &b, &err), PN_EUNKNOWN, &err,
            "pn_mcc_queries_read");
    ck_assert_int_eq(pn_mcc_queries_read(good, net, &b, NULL), PN_OK);
    pn_query_set_free(b);
    ck_assert_int_eq(pn_mcc_queries_read(bad, net, &b, NULL), PN_EUNKNOWN);
    unlink(good);
    unlink(bad);
    free(good);
    free(bad);
    pn_net_free(net);
}
END_TEST

START_TEST(gspn)
{
    pn_error_t err;
    pn_net_t *net = small_net();
    pn_gspn_result_t *r;
    dirty(&err);
    success(pn_gspn_solve(net, NULL, &r, &err), &err, "pn_gspn_solve");
    pn_gspn_result_free(r);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_DETERMINISTIC, 1, 1,
                                       PN_SERVER_SINGLE), PN_OK);
    dirty(&err);
    failure(pn_gspn_solve(net, NULL, &r, &err), PN_EINVAL, &err,
            "pn_gspn_solve");
    ck_assert_ptr_null(r);
    pn_net_free(net);
}
END_TEST

START_TEST(render)
{
    pn_error_t err;
    pn_net_t *net = small_net();
    pn_dot_context_t *ctx = pn_dot_context_new();
    ck_assert_ptr_nonnull(ctx);
    char *data;
    size_t len;
    dirty(&err);
    success(pn_dot_render(ctx, net, NULL, "dot", &data, &len, &err), &err,
            "pn_dot_render");
    free(data);
    dirty(&err);
    failure(pn_dot_render(ctx, net, NULL, "nosuch", &data, &len, &err),
            PN_EINVAL, &err, "pn_dot_render");
    ck_assert_int_eq(pn_dot_render(ctx, net, NULL, "dot", &data, &len, NULL),
                     PN_OK);
    free(data);
    ck_assert_int_eq(pn_dot_render(ctx, net, NULL, "nosuch", &data, &len,
                                   NULL), PN_EINVAL);

    char *path = trace_file(net);
    pn_trace_t *tr;
    ck_assert_int_eq(pn_trace_read(path, net, &tr, NULL), PN_OK);
    dirty(&err);
    success(pn_dot_timeline(ctx, net, tr, 1, 1, NULL, "dot", &data, &len,
                            &err), &err, "pn_dot_timeline");
    free(data);
    dirty(&err);
    failure(pn_dot_timeline(ctx, net, tr, 2, 9, NULL, "dot", &data, &len,
                            &err), PN_EINVAL, &err, "pn_dot_timeline");
    ck_assert_int_eq(pn_dot_timeline(ctx, net, tr, 2, 9, NULL, "dot", &data,
                                     &len, NULL), PN_EINVAL);
    pn_trace_free(tr);
    unlink(path);
    free(path);
    pn_dot_context_free(ctx);
    pn_net_free(net);
}
END_TEST

/* the helper itself */
START_TEST(clear)
{
    pn_error_t err;
    dirty(&err);
    pn_error_clear(&err);
    ck_assert_int_eq(err.code, PN_OK);
    no_dirt(&err, "pn_error_clear");
    pn_error_clear(NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("contract");
    tcase_add_test(tc, clear);
    tcase_add_test(tc, pnml_read);
    tcase_add_test(tc, pnml_write);
    tcase_add_test(tc, trace_read);
    tcase_add_test(tc, gpu_workload);
    tcase_add_test(tc, kernel);
    tcase_add_test(tc, mcc_bounds);
    tcase_add_test(tc, gspn);
    tcase_add_test(tc, render);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
