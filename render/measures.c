/*
 * What a stochastic net adds to its picture: the timing of each
 * transition (its rate, delay or weight and priority, its servers), and
 * the measures of a solution (throughputs, mean tokens), written beside
 * the nodes one per line and in words in their tooltips.
 */
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_private.h"

#define LAMBDA "\xce\xbb"   /* U+03BB */
#define PI "\xcf\x80"       /* U+03C0 */
#define INFINITY_SIGN "\xe2\x88\x9e" /* U+221E */

/* Appends a line to the node's label beside it (xlabel) and one to its
 * tooltip; both are Graphviz text (backslashes already doubled). */
static void append_lines(Agnode_t *n, const char *beside, const char *tip)
{
    const char *attr[2] = {"xlabel", "tooltip"}, *text[2] = {beside, tip};
    for (int i = 0; i < 2; i++) {
        pni_sb_t b = {0};
        const char *old = agget(n, (char *)attr[i]);
        if (old && *old) {
            pni_sb_puts(&b, old);
            pni_sb_puts(&b, "\\n");
        }
        pni_sb_puts(&b, text[i]);
        if (!b.oom) /* out of memory: the line is left out */
            pni_dot_set(n, attr[i], b.s);
        free(b.s);
    }
}

/* A number: with six digits beside a node ("1006.04"), whole in a
 * tooltip (the fewest digits that read back as v: "1006.0362"). */
static void put_number(pni_sb_t *b, double v, int whole)
{
    char buf[40];
    int digits = 6;
    if (whole)
        for (digits = 1; digits < 17; digits++) {
            snprintf(buf, sizeof buf, "%.*g", digits, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    pni_sb_puts(b, buf);
}

/* The rate (weight) as the file gave it: its expression of the marking,
 * or the number. */
static void put_rate(pni_sb_t *b, const pn_transition_t *t, int whole)
{
    if (t->rate_expr)
        pni_dot_sb_escaped(b, t->rate_expr);
    else
        put_number(b, t->rate, whole);
}

/* The servers of a timed transition that is not single-server. */
static void put_servers(pni_sb_t *beside, pni_sb_t *tip,
                        const pn_transition_t *t)
{
    if (t->server == PN_SERVER_INFINITE) {
        pni_sb_puts(beside, " " INFINITY_SIGN " servers");
        pni_sb_puts(tip, ", infinite server");
    } else if (t->server == PN_SERVER_K) {
        pni_sb_printf(beside, " %u servers", t->servers);
        pni_sb_printf(tip, ", %u servers", t->servers);
    }
}

/* A transition's timing beside it ("λ=2", "λ=#(P0)*2 ∞ servers", "d=5",
 * "w=1 π=2") and in words in its tooltip; nothing for one without
 * timing. */
void pni_dot_timing_label(Agnode_t *n, const pn_transition_t *t)
{
    pni_sb_t beside = {0}, tip = {0};
    switch (t->timing) {
    case PN_TIMING_EXPONENTIAL:
        pni_sb_puts(&beside, LAMBDA "=");
        put_rate(&beside, t, 0);
        pni_sb_puts(&tip, "exponential, rate ");
        put_rate(&tip, t, 1);
        put_servers(&beside, &tip, t);
        break;
    case PN_TIMING_DETERMINISTIC:
        pni_sb_puts(&beside, "d=");
        put_number(&beside, t->rate, 0);
        pni_sb_puts(&tip, "deterministic, delay ");
        put_number(&tip, t->rate, 1);
        put_servers(&beside, &tip, t);
        break;
    case PN_TIMING_IMMEDIATE:
        pni_sb_puts(&beside, "w=");
        put_rate(&beside, t, 0);
        pni_sb_printf(&beside, " " PI "=%d", t->priority);
        pni_sb_puts(&tip, "immediate, weight ");
        put_rate(&tip, t, 1);
        pni_sb_printf(&tip, ", priority %d", t->priority);
        break;
    default:
        return;
    }
    if (!beside.oom && !tip.oom)
        append_lines(n, beside.s, tip.s);
    free(beside.s);
    free(tip.s);
}

/* A measure of a solution beside a node ("X=0.8333": four digits) and in
 * its tooltip with ten, as pn-solve prints it; nothing for NaN. */
void pni_dot_measure_label(Agnode_t *n, const char *symbol,
                           const char *words, double v)
{
    char beside[64], tip[96];
    if (isnan(v))
        return;
    snprintf(beside, sizeof beside, "%s=%.4g", symbol, v);
    snprintf(tip, sizeof tip, "%s %.10g", words, v);
    append_lines(n, beside, tip);
}

/* A transition drawn with its short label in white inside its bar and
 * something written beside it: the text beside in black (Graphviz draws
 * a node's labels in one colour), the short label white by its own font
 * (an HTML-like label).  A highlighted bar (black text) is left as it
 * is. */
void pni_dot_dark_bar_text(Agnode_t *n, const char *shortname)
{
    const char *x = agget(n, "xlabel"), *fc = agget(n, "fontcolor");
    if (!x || !*x || !fc || strcmp(fc, "#ffffff"))
        return;
    pni_sb_t b = {0};
    pni_sb_puts(&b, "<FONT COLOR=\"#ffffff\">");
    pni_dot_html_escape(&b, shortname);
    pni_sb_puts(&b, "</FONT>");
    if (!b.oom) {
        agsafeset(n, "label", agstrdup_html(agroot(n), b.s), "");
        pni_dot_set(n, "fontcolor", "#000000");
    }
    free(b.s);
}

/* Whether anything is written beside the nodes for time: the timing of a
 * transition that has one, or a solution's measures. */
int pni_dot_measures_shown(const pn_net_t *net, const pn_dot_options_t *o)
{
    size_t c[PN_TIMING_KINDS];
    pn_net_count_timing(net, c);
    return o->throughput || o->mean_tokens ||
           (o->rates && c[PN_TIMING_NONE] < pn_net_transition_count(net));
}
