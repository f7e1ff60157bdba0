/*
 * Timelines (pn_dot_timeline()): a trace as a space-time diagram, one
 * HTML-like table of rows (groups or transitions) by steps, coloured by
 * the class fired, with the share of each kind per row and the activity
 * of each step.
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_private.h"

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
    int loop;              /* the trace's loop (pn_trace_loop()) */
    uint64_t loop_from;    /* ... from the marking after this step */
} timeline_t;

/* The colour of the steps of a loop (a lasso's steps that repeat). */
#define LOOP_COLOR "#e07b00"

/* Under the steps of a trace that goes round a loop (a lasso), a row
 * that marks the steps that repeat for ever: those after step loop_from,
 * the first of them labelled. */
static void write_loop_row(pni_sb_t *b, const timeline_t *tl)
{
    pni_sb_printf(b, "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\" "
                  "COLOR=\"%s\"><B>loop from step %" PRIu64 "</B></FONT>"
                  "</TD>", LOOP_COLOR, tl->loop_from);
    for (uint64_t c = 0; c < tl->ncols; c++)
        pni_sb_printf(b, tl->first + c > tl->loop_from
                             ? "<TD WIDTH=\"6\" HEIGHT=\"6\" FIXEDSIZE=\"TRUE\" "
                               "BGCOLOR=\"" LOOP_COLOR "\" TOOLTIP=\"loop\"></TD>"
                             : "<TD WIDTH=\"6\" HEIGHT=\"6\" FIXEDSIZE=\"TRUE\">"
                               "</TD>");
    pni_sb_printf(b, "</TR>");
}

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
    pni_dot_html_escape(b, rows_title);
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
    pni_dot_html_escape(b, rows_title);
    pni_sb_printf(b, "</B></FONT></TD><TD COLSPAN=\"%" PRIu64 "\"></TD>",
              tl->ncols);
    for (size_t k = 0; k < nk; k++) {
        pni_sb_printf(b, "<TD><FONT POINT-SIZE=\"8\"> ");
        pni_dot_html_escape(b, share_name(tl, k));
        pni_sb_printf(b, " </FONT></TD>");
    }
    pni_sb_printf(b, "</TR>");
    for (size_t r = 0; r < tl->nrows; r++) {
        pni_sb_printf(b, "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\">");
        pni_dot_html_escape(b, tl->rows[r]);
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
    if (tl->loop == PN_TRACE_CYCLE)
        write_loop_row(b, tl);
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
        pni_dot_html_escape(b, nclasses ? tl->gr->class_names[k] : "fired");
        pni_sb_printf(b, "</FONT></TD>");
    }
    pni_sb_printf(b, "</TR></TABLE>");
}

/* The graph: a title, the table and the legend below it; rendered. */
static pn_status_t draw_timeline(pn_dot_context_t *ctx,
                                 const timeline_t *tl, const char *title,
                                 const char *table, const char *format,
                                 const pn_dot_options_t *o, char **data,
                                 size_t *len, pn_error_t *err)
{
    /* cgraph's error level is process-wide: set back before returning */
    agerrlevel_t level = agseterr(AGMAX);
    Agraph_t *g = agopen("timeline", Agdirected, NULL);
    pni_dot_set_dpi(g, format, o->dpi);
    pni_dot_set_text(g, "label", title);
    pni_dot_set(g, "labelloc", "t");
    pni_dot_set(g, "fontname", "Helvetica");
    Agnode_t *n = agnode(g, "timeline", 1);
    pni_dot_set(n, "shape", "plain");
    agsafeset(n, "label", agstrdup_html(g, (char *)table), "");
    pni_sb_t lg = {0};
    write_legend(&lg, tl);
    Agnode_t *legend = agnode(g, "legend", 1);
    pni_dot_set(legend, "shape", "plain");
    if (!lg.oom)
        agsafeset(legend, "label", agstrdup_html(g, lg.s), "");
    free(lg.s);
    pni_dot_set(agedge(g, n, legend, NULL, 1), "style", "invis");
    pn_status_t st = pni_dot_render(ctx, g, "dot", format, o->max_side, data,
                                    len, err);
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
    if (ctx)
        ctx->dpi = 0;
    pn_dot_options_t o = pni_dot_options_or_defaults(opts);
    if (!ctx || !net || !trace || !data || !len ||
        !pni_dot_groups_fit(o.groups, net))
        return dfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    pn_status_t st = pni_dot_check_format(format, o.dpi, err);
    if (!st)
        st = check_window(trace, first, last, err);
    if (st)
        return st;
    const pn_groups_t *gr = o.groups;
    timeline_t tl = {.gr = gr,
                     .nclasses = gr && gr->nclasses < 254 ? gr->nclasses : 0,
                     .first = first, .last = last, .ncols = last - first + 1};
    tl.loop = pn_trace_loop(trace, &tl.loop_from);
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
        char title[384];
        snprintf(title, 256, "%s: steps %" PRIu64 "-%" PRIu64,
                 o.title ? o.title : pn_net_id(net) ? pn_net_id(net) : "run",
                 first, last);
        size_t k = strlen(title);
        /* a lasso: where it goes round for ever */
        if (tl.loop == PN_TRACE_CYCLE)
            snprintf(title + k, sizeof title - k, ", loop from "
                     "step %" PRIu64 " for ever", tl.loop_from);
        else if (tl.loop == PN_TRACE_DEAD_END)
            snprintf(title + k, sizeof title - k, ", the dead "
                     "marking after step %" PRIu64 " for ever",
                     tl.loop_from);
        st = draw_timeline(ctx, &tl, title, b.s, format, &o, data, len, err);
    }
    free(tl.rows);
    free(tl.row_of);
    free(tl.cells);
    free(tl.issued);
    free(b.s);
    return st;
}
