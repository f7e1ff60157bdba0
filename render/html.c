/*
 * A run in a browser: one self-contained HTML page (pn_dot_html()) with
 * the net's SVG, a step slider, play and pause, the marking of every
 * place, the transitions fired in the step highlighted, and the timeline
 * with a cursor on the step.  Nothing is fetched: the style, the script
 * and the run's data are in the page.
 *
 * The run's data is compact: per step the transitions fired (sorted, as
 * gaps) and the places whose tokens changed with their new counts, as
 * unsigned LEB128 numbers in base64.  The script decodes it once, keeps
 * the full marking every K steps (so that a seek replays fewer than K
 * steps), and on a move changes only the nodes and cells that differ.
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dot.h"
#include "engine.h"
#include "lib_private.h"

#define hfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

/* ---- text into a growing string (pni_sb_t) ------------------------------- */

static void put_u64(pni_sb_t *b, uint64_t v)
{
    char num[24];
    pni_sb_put(b, num, (size_t)snprintf(num, sizeof num, "%" PRIu64, v));
}

/* An unsigned LEB128 number: 7 bits a byte, low first. */
static void put_uv(pni_sb_t *b, uint64_t v)
{
    char c[10];
    size_t n = 0;
    do {
        c[n] = (char)(v & 127);
        v >>= 7;
        if (v)
            c[n] |= (char)128;
        n++;
    } while (v);
    pni_sb_put(b, c, n);
}

/* Text as HTML (element content and quoted attribute values). */
static void put_html(pni_sb_t *b, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': pni_sb_puts(b, "&lt;"); break;
        case '>': pni_sb_puts(b, "&gt;"); break;
        case '&': pni_sb_puts(b, "&amp;"); break;
        case '"': pni_sb_puts(b, "&quot;"); break;
        default: pni_sb_put(b, s, 1);
        }
}

/* Text as a JSON string, safe inside a <script> element: no '<', '>' or
 * '&' is written as itself.  NULL: "". */
static void put_script_string(pni_sb_t *b, const char *s)
{
    pni_sb_json(b, s ? s : "", PNI_JSON_SCRIPT);
}

/* A number of a JSON array: -1 for none. */
static void put_index(pni_sb_t *b, size_t i, size_t n)
{
    if (i < n)
        put_u64(b, i);
    else
        pni_sb_puts(b, "-1");
}

static void put_base64(pni_sb_t *b, const unsigned char *d, size_t n)
{
    static const char a[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[80];
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)d[i + 1] << 8;
        if (i + 2 < n)
            v |= d[i + 2];
        out[k++] = a[v >> 18];
        out[k++] = a[(v >> 12) & 63];
        out[k++] = i + 1 < n ? a[(v >> 6) & 63] : '=';
        out[k++] = i + 2 < n ? a[v & 63] : '=';
        /* lines of 76 characters */
        if (k == 76 || i + 3 >= n) {
            out[k++] = '\n';
            pni_sb_put(b, out, k);
            k = 0;
        }
    }
}

/* ---- the page's style and script ------------------------------------------ */

/* the style and the script: render/viewer.css and render/viewer.js, made
 * C strings by render/embed.sh when the library is built */
#include "viewer.h"

/* ---- the run's data ------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* What encoding a run needs besides the output. */
typedef struct {
    size_t np, nt;
    size_t *arc_off, *arc_place; /* per transition: the places of its arcs */
    uint64_t *prev;              /* the marking before the step */
    uint64_t *stamp;             /* per place: the last step that touched it */
    size_t *touched;             /* the places the step's arcs touch */
    uint32_t *sorted;            /* the step's transitions, sorted */
    size_t cap_sorted;
    pn_engine_t *engine;
    pn_sim_t *sim;
} enc_t;

static void enc_free(enc_t *e)
{
    free(e->arc_off);
    free(e->arc_place);
    free(e->prev);
    free(e->stamp);
    free(e->touched);
    free(e->sorted);
    pn_sim_free(e->sim);
    pn_engine_free(e->engine);
}

/* The places of each transition's arcs, as offsets into one array. */
static pn_status_t enc_open(enc_t *e, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    e->np = pn_net_place_count(net);
    e->nt = pn_net_transition_count(net);
    e->arc_off = calloc(e->nt + 2, sizeof *e->arc_off);
    e->arc_place = malloc((na + 1) * sizeof *e->arc_place);
    e->prev = malloc((e->np + 1) * sizeof *e->prev);
    e->stamp = calloc(e->np + 1, sizeof *e->stamp);
    e->touched = malloc((na + 1) * sizeof *e->touched);
    if (!e->arc_off || !e->arc_place || !e->prev || !e->stamp || !e->touched)
        return PN_ENOMEM;
    for (size_t a = 0; a < na; a++)
        e->arc_off[pn_net_arc(net, a)->transition + 2]++;
    for (size_t t = 0; t < e->nt; t++)
        e->arc_off[t + 2] += e->arc_off[t + 1];
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        e->arc_place[e->arc_off[arc->transition + 1]++] = arc->place;
    }
    pn_status_t st = pn_engine_compile(net, &e->engine);
    if (st)
        return st;
    /* seed and semantics do not matter: the steps are given */
    e->sim = pn_sim_new(e->engine, 0, PN_SEM_MAXIMAL, 0);
    return e->sim ? PN_OK : PN_ENOMEM;
}

static pn_status_t check_tokens(const pn_net_t *net, size_t p, uint64_t m,
                                uint64_t step, pn_error_t *err)
{
    if (m <= PN_HTML_MAX_TOKENS)
        return PN_OK;
    return hfail(err, PN_ETOOBIG, "place '%s' holds %" PRIu64 " tokens after "
                 "step %" PRIu64 ", more than a page shows exactly (%" PRIu64
                 ")", pn_net_place(net, p)->id, m, step,
                 (uint64_t)PN_HTML_MAX_TOKENS);
}

/* One step: its transitions sorted (as gaps), then the places whose
 * tokens it changed (as gaps) with their new counts. */
static pn_status_t encode_step(enc_t *e, const pn_net_t *net,
                               const pn_trace_t *trace, uint64_t s, pni_sb_t *d,
                               pn_error_t *err)
{
    size_t n, bad, nt = 0;
    const uint32_t *f = pn_trace_fired(trace, s, &n);
    if (n > e->cap_sorted) {
        uint32_t *p = realloc(e->sorted, n * sizeof *p);
        if (!p)
            return hfail(err, PN_ENOMEM, "out of memory");
        e->sorted = p;
        e->cap_sorted = n;
    }
    if (n)
        memcpy(e->sorted, f, n * sizeof *f);
    qsort(e->sorted, n, sizeof *e->sorted, cmp_u32);
    put_uv(d, n);
    for (size_t i = 0; i < n; i++)
        put_uv(d, e->sorted[i] - (i ? e->sorted[i - 1] : 0));
    for (size_t i = 0; i < n; i++)
        for (size_t a = e->arc_off[f[i]]; a < e->arc_off[f[i] + 1]; a++) {
            size_t p = e->arc_place[a];
            if (e->stamp[p] != s) {
                e->stamp[p] = s;
                e->touched[nt++] = p;
            }
        }
    pn_status_t st = pn_sim_fire(e->sim, f, n, &bad);
    if (st == PN_EINVAL)
        return hfail(err, PN_ETRACE, "step %" PRIu64 " of the trace cannot "
                     "fire on this net", s);
    if (st)
        return hfail(err, st, "step %" PRIu64 ": a token count beyond the "
                     "engine's range", s);
    const uint64_t *m = pn_sim_marking(e->sim);
    size_t nchg = 0;
    qsort(e->touched, nt, sizeof *e->touched, cmp_size);
    for (size_t i = 0; i < nt; i++)
        if (m[e->touched[i]] != e->prev[e->touched[i]])
            e->touched[nchg++] = e->touched[i];
    put_uv(d, nchg);
    for (size_t i = 0; i < nchg; i++) {
        size_t p = e->touched[i];
        if ((st = check_tokens(net, p, m[p], s, err)))
            return st;
        put_uv(d, p - (i ? e->touched[i - 1] + 1 : 0));
        put_uv(d, m[p]);
        e->prev[p] = m[p];
    }
    return PN_OK;
}

static pn_status_t encode_run(const pn_net_t *net, const pn_trace_t *trace,
                              pni_sb_t *d, pn_error_t *err)
{
    enc_t e = {0};
    pn_status_t st = enc_open(&e, net);
    if (st) {
        enc_free(&e);
        return hfail(err, st, st == PN_ENOMEM ? "out of memory"
                                              : "the net cannot be run");
    }
    uint64_t steps = pn_trace_steps(trace);
    put_uv(d, e.np);
    put_uv(d, e.nt);
    put_uv(d, steps);
    const uint64_t *m = pn_sim_marking(e.sim);
    for (size_t p = 0; !st && p < e.np; p++) {
        st = check_tokens(net, p, m[p], 0, err);
        put_uv(d, m[p]);
        e.prev[p] = m[p];
    }
    for (uint64_t s = 1; !st && s <= steps; s++) {
        st = encode_step(&e, net, trace, s, d, err);
        if (!st && d->n > PN_HTML_MAX_DATA)
            st = hfail(err, PN_ETOOBIG, "the run's data passes %d MiB at "
                       "step %" PRIu64 " of %" PRIu64 ": a page holds a "
                       "shorter run (at most %" PRIu64 " steps)",
                       PN_HTML_MAX_DATA >> 20, s, steps, s - 1);
        if (!st && d->oom)
            st = hfail(err, PN_ENOMEM, "out of memory");
    }
    enc_free(&e);
    return st;
}

/* ---- the page ------------------------------------------------------------- */

/* The steps between two full markings the script keeps: at least 64, more
 * when the markings would take more than PN_HTML_MAX_KEPT numbers. */
static uint64_t keyframe_every(uint64_t steps, size_t np)
{
    uint64_t k = 64;
    while ((steps / k + 1) * (uint64_t)(np ? np : 1) > PN_HTML_MAX_KEPT)
        k *= 2;
    return k;
}

/* The net's names and the timeline's rows, as JSON. */
static void put_meta(pni_sb_t *b, const pn_net_t *net, const pn_trace_t *trace,
                     const pn_dot_options_t *o)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    const pn_groups_t *g = o->groups;
    int by_group = g && !o->no_clusters;
    /* the classes the timeline draws (as pn_dot_timeline()) */
    size_t nclasses = g && g->nclasses < 254 ? g->nclasses : 0;
    pni_sb_puts(b, "{\"title\":");
    put_script_string(b, o->title ? o->title : pn_net_id(net) ? pn_net_id(net) : "run");
    pni_sb_puts(b, ",\"steps\":");
    put_u64(b, pn_trace_steps(trace));
    pni_sb_puts(b, ",\"keyframe\":");
    put_u64(b, keyframe_every(pn_trace_steps(trace), np));
    /* a lasso (the "# loop:" comment): where it goes round for ever */
    uint64_t from;
    int loop = pn_trace_loop(trace, &from);
    if (loop != PN_TRACE_NO_LOOP) {
        pni_sb_puts(b, loop == PN_TRACE_CYCLE ? ",\"loop\":"
                                              : ",\"deadFrom\":");
        put_u64(b, from);
    }
    pni_sb_puts(b, ",\"countInside\":");
    pni_sb_puts(b, o->labels == PN_LABELS_SHORT ? "0" : "1");
    pni_sb_puts(b, ",\n\"places\":[");
    for (size_t p = 0; p < np; p++) {
        pni_sb_put(b, ",", p > 0);
        put_script_string(b, pn_net_place(net, p)->id);
    }
    pni_sb_puts(b, "],\n\"placeNames\":[");
    for (size_t p = 0; p < np; p++) {
        pni_sb_put(b, ",", p > 0);
        put_script_string(b, pn_net_place(net, p)->name ? pn_net_place(net, p)->name
                                               : "");
    }
    pni_sb_puts(b, "],\n\"transitions\":[");
    for (size_t t = 0; t < nt; t++) {
        pni_sb_put(b, ",", t > 0);
        put_script_string(b, pn_net_transition(net, t)->id);
    }
    /* rows: the groups that hold a transition, then "(other)"; or one
     * per transition */
    size_t *row_of_group = by_group ? malloc((g->ngroups + 1) *
                                             sizeof *row_of_group)
                                    : NULL;
    size_t nrows = 0, other = PN_NONE;
    if (by_group && !row_of_group) {
        b->oom = 1;
        return;
    }
    pni_sb_puts(b, "],\n\"rows\":[");
    if (by_group) {
        for (size_t k = 0; k < g->ngroups; k++)
            row_of_group[k] = PN_NONE;
        for (size_t t = 0; t < nt; t++)
            if (g->transition_group[t] < g->ngroups)
                row_of_group[g->transition_group[t]] = 0;
        for (size_t k = 0; k < g->ngroups; k++)
            if (row_of_group[k] == 0) {
                pni_sb_put(b, ",", nrows > 0);
                put_script_string(b, g->group_names[k]);
                row_of_group[k] = nrows++;
            }
        for (size_t t = 0; t < nt && other == PN_NONE; t++)
            if (g->transition_group[t] >= g->ngroups) {
                pni_sb_put(b, ",", nrows > 0);
                put_script_string(b, "(other)");
                other = nrows++;
            }
    } else
        for (size_t t = 0; t < nt; t++) {
            pni_sb_put(b, ",", t > 0);
            put_script_string(b, pn_net_transition(net, t)->id);
        }
    pni_sb_puts(b, "],\n\"rowOf\":[");
    for (size_t t = 0; t < nt; t++) {
        pni_sb_put(b, ",", t > 0);
        if (!by_group)
            put_u64(b, t);
        else if (g->transition_group[t] < g->ngroups)
            put_u64(b, row_of_group[g->transition_group[t]]);
        else
            put_u64(b, other);
    }
    free(row_of_group);
    pni_sb_puts(b, "],\n\"classOf\":[");
    for (size_t t = 0; t < nt; t++) {
        pni_sb_put(b, ",", t > 0);
        put_index(b, g ? g->transition_class[t] : PN_NONE, nclasses);
    }
    pni_sb_puts(b, "],\n\"classes\":[");
    for (size_t k = 0; k < nclasses; k++) {
        pni_sb_put(b, ",", k > 0);
        put_script_string(b, g->class_names[k]);
    }
    pni_sb_puts(b, "],\"colors\":[");
    for (size_t k = 0; k < nclasses; k++) {
        pni_sb_put(b, ",", k > 0);
        put_script_string(b, g->class_colors[k]);
    }
    pni_sb_puts(b, "],\"rowsTitle\":");
    put_script_string(b, o->rows_title ? o->rows_title
                : by_group    ? "group"
                              : "transition");
    pni_sb_puts(b, "}");
}

/* The SVG document less what comes before its <svg> element (the XML
 * declaration, the doctype, comments): what an HTML page may hold. */
static const char *svg_element(const char *svg, size_t len, size_t *n)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(svg + i, "<svg", 4)) {
            *n = len - i;
            return svg + i;
        }
    return NULL;
}

static void put_lines(pni_sb_t *b, const char *const *lines)
{
    for (; *lines; lines++)
        pni_sb_puts(b, *lines);
}

pn_status_t pn_dot_html(const pn_net_t *net, const pn_trace_t *trace,
                        const char *svg, size_t svg_len,
                        const pn_dot_options_t *opts, char **data, size_t *len,
                        pn_error_t *err)
{
    pni_error_begin(err, NULL);
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_options_init(&o);
    if (!net || !trace || !data || !len || (!svg && svg_len) ||
        (o.groups && (o.groups->nplaces != pn_net_place_count(net) ||
                      o.groups->ntransitions !=
                          pn_net_transition_count(net))))
        return hfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    size_t svg_n = 0;
    const char *svg_at = svg ? svg_element(svg, svg_len, &svg_n) : NULL;
    if (svg && !svg_at)
        return hfail(err, PN_EINVAL, "the net's picture is not SVG");
    if (svg_n > PN_HTML_MAX_SVG)
        return hfail(err, PN_ETOOBIG, "the net's picture is %zu MiB, more "
                     "than a page holds (%d MiB): draw it smaller", svg_n >> 20,
                     PN_HTML_MAX_SVG >> 20);
    pni_sb_t d = {0}, b = {0};
    pn_status_t st = encode_run(net, trace, &d, err);
    if (st) {
        pni_sb_free(&d);
        return st;
    }
    const char *title =
        o.title ? o.title : pn_net_id(net) ? pn_net_id(net) : "run";
    pni_sb_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                    "<meta charset=\"utf-8\">\n<title>");
    put_html(&b, title);
    pni_sb_puts(&b, ": a run of ");
    put_u64(&b, pn_trace_steps(trace));
    pni_sb_puts(&b, " steps</title>\n<style>\n");
    put_lines(&b, viewer_css);
    pni_sb_puts(&b, "</style>\n</head>\n<body>\n<header id=\"pnv-bar\"><h1>");
    put_html(&b, title);
    pni_sb_puts(&b, "</h1>\n"
        "<button id=\"pnv-first\" title=\"the initial marking\">"
        "|\xe2\x97\x80</button>"
        "<button id=\"pnv-back\" title=\"a step back (left arrow)\">"
        "\xe2\x97\x80</button>"
        "<button id=\"pnv-play\" title=\"play or pause (space)\">"
        "\xe2\x96\xb6 play</button>"
        "<button id=\"pnv-fwd\" title=\"a step forward (right arrow)\">"
        "\xe2\x96\xb6</button>"
        "<button id=\"pnv-last\" title=\"the last step\">\xe2\x96\xb6|</button>\n"
        "<input id=\"pnv-slider\" type=\"range\" min=\"0\" max=\"0\" "
        "value=\"0\" aria-label=\"step\">\n<span id=\"pnv-step\"></span>\n"
        "<label>steps a second <select id=\"pnv-speed\"><option>1</option>"
        "<option>4</option><option selected>10</option><option>30</option>"
        "<option>100</option><option>1000</option></select></label>\n"
        "<label>zoom <select id=\"pnv-zoom\"><option value=\"fit\" "
        "title=\"the net's width\">fit</option><option value=\"all\" "
        "title=\"the whole net\">all</option><option value=\"0.25\">25%</option><option value=\"0.5\">"
        "50%</option><option value=\"1\" selected>100%</option></select>"
        "</label>\n"
        "<details id=\"pnv-help\"><summary>help</summary><div>\n"
        "<p>Keys: the left and right arrows a step back and forward, space "
        "play and pause. A click in the timeline goes to its step.</p>\n"
        "<p>The address may name what to show: <code>#step=K</code> the "
        "step K (0: the initial marking); <code>#zoom=Z</code> the zoom: "
        "<code>fit</code> the net's width, <code>all</code> the whole net, "
        "<code>0.25</code>, <code>0.5</code> or <code>1</code>; "
        "both: <code>#step=30&amp;zoom=0.5</code>. Without a zoom the page "
        "opens at the largest of 1, 0.5 and 0.25 (or fit, for a net at "
        "most twice as wide as the view) that shows the transitions fired "
        "in the step (at step 0: in step 1), or else all; the view is centred on them when it "
        "opens, when the address changes and when the zoom does.</p>\n"
        "</div></details>\n</header>\n"
        "<p id=\"pnv-error\" hidden></p>\n<div id=\"pnv-main\">\n"
        "<section id=\"pnv-net\">\n");
    if (svg_at)
        pni_sb_put(&b, svg_at, svg_n);
    pni_sb_puts(&b, "\n</section>\n<aside id=\"pnv-side\">\n<h2>fired</h2>\n"
                    "<p id=\"pnv-fired\"></p>\n<h2>marking</h2>\n"
                    "<div id=\"pnv-marking\" role=\"table\"><div class=\"row "
                    "head\" role=\"row\"><span>place</span><span>name</span>"
                    "<span class=\"tok\">tokens</span></div></div>\n</aside>\n</div>\n<div id=\"pnv-tlbox\">\n"
                    "<div id=\"pnv-tlwrap\"><canvas id=\"pnv-timeline\"></canvas>"
                    "<div id=\"pnv-cursor\"></div></div>\n"
                    "<div id=\"pnv-legend\"></div>\n</div>\n"
                    "<p id=\"pnv-timing\"></p>\n"
                    "<script type=\"application/json\" id=\"pnv-meta\">");
    put_meta(&b, net, trace, &o);
    pni_sb_puts(&b, "</script>\n<script type=\"text/plain\" "
                    "id=\"pnv-data\">\n");
    put_base64(&b, (const unsigned char *)d.s, d.n);
    pni_sb_puts(&b, "</script>\n<script>\n");
    put_lines(&b, viewer_js);
    pni_sb_puts(&b, "</script>\n</body>\n</html>\n");
    pni_sb_free(&d);
    size_t n;
    char *page = pni_sb_take(&b, &n);
    if (!page)
        return hfail(err, PN_ENOMEM, "out of memory");
    *data = page;
    *len = n;
    return PN_OK;
}
