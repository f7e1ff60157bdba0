/* pn-struct: the structure of a net without its state space: P- and
 * T-semiflows, the classes of net, minimal siphons and traps
 * (pn/struct.h). */
#include <config.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lib_private.h"
#include "pn.h"

static const char *prog = "pn-struct";

/* the sets a text report lists of each kind, without --all */
#define SHOWN 20
/* the linear programs' seconds, without --time-limit */
#define LP_SECONDS 10.0

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Print the structure of the net in FILE ('-': standard input),\n"
        "found from its arcs without exploring its markings: its classes\n"
        "(state machine, marked graph, free-choice, ...), its minimal\n"
        "P-semiflows as equations over the initial marking, its minimal\n"
        "T-semiflows, its minimal siphons and traps, and what they decide\n"
        "(conservative, consistent, Commoner's property, liveness of a\n"
        "free-choice net), whether a workflow net is sound, and by linear\n"
        "programming each place's bound over the state equation and the\n"
        "structural properties (bounded, conservative, repetitive,\n"
        "consistent).\n"
        "\n"
        "      --max N           find at most N semiflows at once, and N\n"
        "                        siphons and N traps (default %d): past it\n"
        "                        pn-struct says \"more than N\" (exit 4)\n"
        "      --all             list every semiflow, siphon and trap (the\n"
        "                        text lists %d of each)\n"
        "      --time-limit S    give the linear programs (the places'\n"
        "                        bounds) S seconds in all (default %g):\n"
        "                        past it the places left are unknown (exit 4)\n"
        "  -f, --format FMT      text (default) or json\n"
        "      --net ID          read the <net> with this id\n",
        prog, PN_STRUCT_MAX_DEFAULT, SHOWN, LP_SECONDS);
    cli_usage_common(out, 24);
    fprintf(out,
        "\n"
        "Only the normal arcs are read: on a net with inhibitor, read or\n"
        "reset arcs everything is said of the net without them.\n"
        "\n"
        "Exit status: 0 complete, 1 the net could not be read, 2 bad\n"
        "command line, 3 the output could not be written, 4 a limit\n"
        "stopped a search (what was found is printed, marked incomplete).\n");
}

enum { OPT_MAX = 128, OPT_ALL, OPT_NET, OPT_TIME_LIMIT };

typedef struct {
    const pn_net_t *net;
    int json, all;
    size_t max;             /* --max */
    unsigned classes;
    pn_flows_t *pf, *tf;
    pn_siphons_t *sip, *trap;
    pn_workflow_t wf;
    pn_lp_bounds_t *lp;
} report_t;

static const char *end_word(pn_struct_end_t e)
{
    switch (e) {
    case PN_STRUCT_COMPLETE: return "complete";
    case PN_STRUCT_MAX: return "max";
    case PN_STRUCT_WORK: return "work";
    default: return "big";
    }
}

/* Why a search stopped, in words (text); asked: the --max given. */
static void say_end(pn_struct_end_t e, size_t limit, size_t asked,
                    const char *what)
{
    if (e == PN_STRUCT_MAX && limit < asked)
        printf("  stopped: more than %zu %s at once, as many as 2^24 "
               "coefficients hold on this net; they are not all known\n",
               limit, what);
    else if (e == PN_STRUCT_MAX)
        printf("  stopped: more than %zu %s at once (--max %zu); they are "
               "not all known\n", limit, what, limit);
    else if (e == PN_STRUCT_WORK)
        printf("  stopped: the budget of work ran out; the %s are not all "
               "known\n", what);
    else if (e == PN_STRUCT_BIG)
        printf("  stopped: a coefficient passed 2^62; the %s are not all "
               "known\n", what);
}

static const char *place_label(const pn_net_t *net, size_t p)
{
    const pn_place_t *pl = pn_net_place(net, p);
    return pl->name && *pl->name ? pl->name : pl->id;
}

static const char *node_label(const pn_net_t *net, int t, size_t i)
{
    if (!t)
        return place_label(net, i);
    const pn_transition_t *tr = pn_net_transition(net, i);
    return tr->name && *tr->name ? tr->name : tr->id;
}

static const char *node_id(const pn_net_t *net, int t, size_t i)
{
    return t ? pn_net_transition(net, i)->id : pn_net_place(net, i)->id;
}

/* An unsigned 128-bit number in decimal. */
static void put_u128(unsigned __int128 v)
{
    char buf[48];
    size_t n = sizeof buf;
    buf[--n] = '\0';
    do {
        buf[--n] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    fputs(buf + n, stdout);
}

/* y M0 of a P-semiflow. */
static unsigned __int128 weighted(const pn_net_t *net, const int64_t *y,
                                  size_t np)
{
    unsigned __int128 c = 0;
    for (size_t p = 0; p < np; p++)
        c += (unsigned __int128)(uint64_t)y[p] * pn_net_place(net, p)->marking;
    return c;
}

/* "p1 + p2 + 2 p5 = 3" (P) or "t1 + 2 t2" (T). */
static void put_equation(const report_t *r, const pn_flows_t *f, size_t i)
{
    int first = 1;
    for (size_t k = 0; k < f->dim; k++) {
        int64_t c = f->y[i][k];
        if (!c)
            continue;
        printf("%s", first ? "  " : " + ");
        if (c != 1)
            printf("%" PRId64 " ", c);
        fputs(node_label(r->net, f->transitions, k), stdout);
        first = 0;
    }
    if (!f->transitions) {
        fputs(" = ", stdout);
        put_u128(weighted(r->net, f->y[i], f->dim));
    }
    putchar('\n');
}

static void text_flows(const report_t *r, const pn_flows_t *f)
{
    const char *what = f->transitions ? "T-semiflows" : "P-semiflows";
    int pos = pn_flows_positive(f);
    if (f->end != PN_STRUCT_COMPLETE) {
        printf("%s: unknown\n", what);
        say_end(f->end, f->limit, r->max, "rows of Farkas' algorithm");
        return;
    }
    printf("%s: %zu", what, f->n);
    if (f->transitions)
        printf(pos ? " (consistent: a positive T-semiflow exists)\n"
                   : " (not consistent)\n");
    else
        printf(pos ? " (conservative: a positive P-semiflow exists, the "
                     "net is bounded)\n"
                   : " (not conservative)\n");
    size_t shown = r->all || f->n <= SHOWN ? f->n : SHOWN;
    for (size_t i = 0; i < shown; i++)
        put_equation(r, f, i);
    if (shown < f->n)
        printf("  ... and %zu more (--all lists them)\n", f->n - shown);
    if (!pos) {
        size_t n = 0;
        for (size_t k = 0; k < f->dim; k++)
            n += !f->covered[k];
        printf("  %s in no %.*s (%zu):",
               f->transitions ? "transitions" : "places", (int)strlen(what) - 1,
               what, n);
        size_t k = 0, listed = 0;
        for (; k < f->dim && (r->all || listed < SHOWN); k++)
            if (!f->covered[k]) {
                printf(" %s", node_label(r->net, f->transitions, k));
                listed++;
            }
        printf("%s\n", listed < n ? " ..." : "");
    }
}

static void put_set(const report_t *r, const pn_siphons_t *s, size_t i)
{
    printf("  {");
    for (size_t k = 0; k < s->len[i]; k++)
        printf("%s%s", k ? ", " : "", place_label(r->net, s->place[i][k]));
    printf("}");
}

static void text_sets(const report_t *r, const pn_siphons_t *s)
{
    const char *what = s->traps ? "traps" : "siphons";
    printf("minimal %s: %zu%s\n", what, s->n,
           s->end == PN_STRUCT_COMPLETE ? "" : " found");
    say_end(s->end, s->limit, r->max, what);
    size_t shown = r->all || s->n <= SHOWN ? s->n : SHOWN;
    for (size_t i = 0; i < shown; i++) {
        put_set(r, s, i);
        if (s->traps)
            printf("%s\n", s->marked[i] ? "  marked" : "  unmarked");
        else
            printf("%s\n", s->marked[i] ? "  holds a marked trap"
                                        : "  holds no marked trap");
    }
    if (shown < s->n)
        printf("  ... and %zu more (--all lists them)\n", s->n - shown);
}

/* A place on no normal arc: a siphon of its own, which breaks
 * Commoner's theorem without touching any transition. */
static int isolated_place(const pn_net_t *net, size_t *which)
{
    size_t np = pn_net_place_count(net);
    unsigned char *on = calloc(np + 1, 1);
    int found = 0;
    if (!on)
        return 1;
    for (size_t a = 0; a < pn_net_arc_count(net); a++)
        if (pn_net_arc(net, a)->kind == PN_ARC_NORMAL)
            on[pn_net_arc(net, a)->place] = 1;
    for (size_t p = 0; p < np && !found; p++)
        if (!on[p]) {
            *which = p;
            found = 1;
        }
    free(on);
    return found;
}

/* What the siphons decide about liveness, as a word ("live", "not live",
 * "deadlock-free", NULL: nothing) and the reason. */
static const char *liveness(const report_t *r, const char **why,
                            size_t *siphon)
{
    const pn_siphons_t *s = r->sip;
    size_t iso;
    *why = NULL;
    *siphon = (size_t)-1;
    if (r->classes & PN_CLASS_OTHER_ARCS) {
        *why = "the net has inhibitor, read or reset arcs";
        return NULL;
    }
    if (!pn_net_transition_count(r->net) || isolated_place(r->net, &iso))
        return NULL;
    /* an empty siphon stays empty: the transitions around it are dead */
    for (size_t i = 0; i < s->n; i++) {
        uint64_t m = 0;
        for (size_t k = 0; k < s->len[i]; k++)
            m += pn_net_place(r->net, s->place[i][k])->marking > 0;
        if (!m) {
            *siphon = i;
            *why = "a siphon is empty at the initial marking: the "
                   "transitions around it never fire";
            return "not live";
        }
    }
    if (!(r->classes & PN_CLASS_ORDINARY) || s->commoner < 0)
        return NULL;
    if (r->classes & PN_CLASS_EXTENDED_FREE_CHOICE) {
        *why = s->commoner ? "extended free-choice, every siphon holds a "
                             "marked trap: Commoner's theorem"
                           : "extended free-choice, a siphon holds no "
                             "marked trap: Commoner's theorem";
        return s->commoner ? "live" : "not live";
    }
    if (!s->commoner)
        return NULL;
    if (r->classes & PN_CLASS_ASYMMETRIC_CHOICE) {
        *why = "asymmetric choice, every siphon holds a marked trap";
        return "live";
    }
    *why = "ordinary, every siphon holds a marked trap: no reachable "
           "marking is dead";
    return "deadlock-free";
}

/* Whether the net has a reset arc (a firing then moves tokens that the
 * incidence matrix does not count). */
static int has_reset(const pn_net_t *net)
{
    for (size_t a = 0; a < pn_net_arc_count(net); a++)
        if (pn_net_arc(net, a)->kind == PN_ARC_RESET)
            return 1;
    return 0;
}

/* liveness(), and where it leaves liveness open (or says deadlock-free
 * only) what the linear programs show: a live net fires a sequence
 * holding every transition between two markings the second of which
 * covers the first (Dickson's lemma), so it is repetitive; bounded, it
 * comes back to a marking, so it is consistent. */
static const char *live_verdict(const report_t *r, const char **why,
                                size_t *siphon)
{
    const char *live = liveness(r, why, siphon);
    if ((live && strcmp(live, "deadlock-free")) || has_reset(r->net))
        return live;
    if (r->lp->repetitive == 0) {
        *why = "not structurally repetitive (LP): no initial marking makes "
               "the net live";
        *siphon = (size_t)-1;
        return "not live";
    }
    if (r->lp->bounded == 1 && r->lp->consistent == 0) {
        *why = "bounded and not consistent (LP): a live bounded net is "
               "consistent";
        *siphon = (size_t)-1;
        return "not live";
    }
    return live;
}

static const char *yes_no(int v, const char *yes, const char *no)
{
    return v < 0 ? "unknown" : v ? yes : no;
}

/* The places whose state and bound are (state, bound), as one line of
 * names ("  at most 5: p, q"), SHOWN of them unless --all. */
static void put_bound_line(const report_t *r, signed char state,
                           uint64_t bound, size_t n)
{
    const pn_lp_bounds_t *b = r->lp;
    if (state < 0)
        printf("  unknown (not solved in time):");
    else if (!state)
        printf("  no bound:");
    else
        printf("  at most %" PRIu64 ":", bound);
    size_t listed = 0;
    for (size_t p = 0; p < b->np && (r->all || listed < SHOWN); p++)
        if (b->state[p] == state && (state != 1 || b->bound[p] == bound)) {
            printf("%s %s", listed ? "," : "", place_label(r->net, p));
            listed++;
        }
    if (listed < n)
        printf(" ... (%zu in all)", n);
    putchar('\n');
}

/* The linear programs' answers: the structural properties, then the
 * places by bound (no bound first, then the largest bounds), SHOWN
 * lines unless --all. */
static void text_lp(const report_t *r)
{
    const pn_lp_bounds_t *b = r->lp;
    if (b->end == PN_STRUCT_MAX) {
        printf("bounds:      unknown (the net is too large for the linear "
               "programs)\n");
        return;
    }
    printf("structure:   %s, %s, %s, %s (LP)\n",
           yes_no(b->structurally_bounded, "structurally bounded",
                  "not structurally bounded"),
           yes_no(b->conservative, "conservative", "not conservative"),
           yes_no(b->repetitive, "repetitive", "not repetitive"),
           yes_no(b->consistent, "consistent", "not consistent"));
    printf("bounds:      %s (the state equation's largest value of each "
           "place, LP)\n",
           b->bounded == 1 ? "bounded"
           : b->bounded == 0 ? "some places have no bound"
                             : "not all known");
    size_t none = 0, unknown = 0, lines = 0;
    for (size_t p = 0; p < b->np; p++) {
        none += b->state[p] == 0;
        unknown += b->state[p] < 0;
    }
    if (unknown) {
        put_bound_line(r, -1, 0, unknown);
        lines++;
    }
    if (none) {
        put_bound_line(r, 0, 0, none);
        lines++;
    }
    /* the bounds met, largest first */
    uint64_t below = UINT64_MAX;
    for (;;) {
        uint64_t v = 0;
        size_t n = 0;
        for (size_t p = 0; p < b->np; p++)
            if (b->state[p] == 1 && b->bound[p] < below &&
                (!n || b->bound[p] >= v)) {
                n = !n || b->bound[p] > v ? 1 : n + 1;
                v = b->bound[p];
            }
        if (!n)
            break;
        if (!r->all && lines == SHOWN) {
            printf("  ... (--all lists them)\n");
            break;
        }
        put_bound_line(r, 1, v, n);
        lines++;
        below = v;
        if (!v)
            break;
    }
}

/* A workflow net and its soundness, in words. */
static void text_workflow(const report_t *r)
{
    const pn_workflow_t *w = &r->wf;
    if (!w->workflow)
        return;
    printf("workflow:    source %s, sink %s: ", place_label(r->net, w->source),
           place_label(r->net, w->sink));
    if (w->sound < 0) {
        printf("soundness unknown (the search stopped after %" PRIu64
               " markings)\n", w->states);
        return;
    }
    if (w->sound) {
        printf("sound (from [%s] the sink is always reached, cleanly, and "
               "every transition fires)\n", place_label(r->net, w->source));
        return;
    }
    printf("not sound: ");
    if (w->reason == PN_WORKFLOW_UNBOUNDED)
        printf("tokens pile up without end\n");
    else if (w->reason == PN_WORKFLOW_IMPROPER)
        printf("a reachable marking marks %s and holds other tokens "
               "(improper completion)\n", place_label(r->net, w->sink));
    else if (w->reason == PN_WORKFLOW_DEAD)
        printf("transition %s never fires\n",
               node_label(r->net, 1, (size_t)w->witness));
    else
        printf("from some reachable marking %s cannot be reached\n",
               place_label(r->net, w->sink));
}

static void text_report(const report_t *r, const char *file)
{
    const pn_net_t *net = r->net;
    printf("file:        %s\n", file);
    printf("net:         %s (%zu places, %zu transitions)\n",
           pn_net_name(net) ? pn_net_name(net)
                            : pn_net_id(net) ? pn_net_id(net) : "-",
           pn_net_place_count(net), pn_net_transition_count(net));
    printf("classes:     ");
    int n = 0;
    for (unsigned b = PN_CLASS_ORDINARY; b < PN_CLASS_OTHER_ARCS; b <<= 1)
        if (r->classes & b)
            printf("%s%s", n++ ? ", " : "", pn_net_class_name(b));
    printf("%s\n", n ? "" : "none of Murata's");
    if (r->classes & PN_CLASS_OTHER_ARCS)
        printf("             (of the net without its inhibitor, read and "
               "reset arcs: everything below is)\n");
    text_flows(r, r->pf);
    text_flows(r, r->tf);
    text_sets(r, r->sip);
    text_sets(r, r->trap);
    if (r->sip->commoner >= 0)
        printf("Commoner's property (every siphon holds a marked trap): "
               "%s\n", r->sip->commoner ? "yes" : "no");
    else
        printf("Commoner's property: unknown (not every siphon found)\n");
    text_workflow(r);
    text_lp(r);
    const char *why;
    size_t si;
    const char *live = live_verdict(r, &why, &si);
    if (live) {
        printf("liveness:    %s (%s)\n", live, why);
        if (si != (size_t)-1) {
            put_set(r, r->sip, si);
            putchar('\n');
        }
    } else
        printf("liveness:    not decided by the structure%s%s%s\n",
               why ? " (" : "", why ? why : "", why ? ")" : "");
}

/* JSON: a verdict that may be unknown. */
static const char *tristate(int v)
{
    return v < 0 ? "null" : v ? "true" : "false";
}

static void json_flows(const report_t *r, const pn_flows_t *f)
{
    int t = f->transitions;
    printf("{\"end\": \"%s\", \"limit\": %zu, \"count\": %zu, \"%s\": %s, "
           "\"flows\": [", end_word(f->end), f->limit, f->n,
           t ? "consistent" : "conservative", tristate(pn_flows_positive(f)));
    for (size_t i = 0; i < f->n; i++) {
        printf("%s{\"weights\": {", i ? ", " : "");
        int first = 1;
        for (size_t k = 0; k < f->dim; k++)
            if (f->y[i][k]) {
                printf("%s", first ? "" : ", ");
                pni_json_string(stdout, node_id(r->net, t, k), 0);
                printf(": %" PRId64, f->y[i][k]);
                first = 0;
            }
        printf("}");
        if (!t) {
            printf(", \"constant\": ");
            put_u128(weighted(r->net, f->y[i], f->dim));
        }
        printf("}");
    }
    printf("], \"uncovered\": [");
    int first = 1;
    for (size_t k = 0; f->end == PN_STRUCT_COMPLETE && k < f->dim; k++)
        if (!f->covered[k]) {
            printf("%s", first ? "" : ", ");
            pni_json_string(stdout, node_id(r->net, t, k), 0);
            first = 0;
        }
    printf("]}");
}

static void json_sets(const report_t *r, const pn_siphons_t *s)
{
    printf("{\"end\": \"%s\", \"limit\": %zu, \"count\": %zu, \"sets\": [",
           end_word(s->end), s->limit, s->n);
    for (size_t i = 0; i < s->n; i++) {
        printf("%s{\"places\": [", i ? ", " : "");
        for (size_t k = 0; k < s->len[i]; k++) {
            printf("%s", k ? ", " : "");
            pni_json_string(stdout, pn_net_place(r->net, s->place[i][k])->id,
                            0);
        }
        printf("], \"%s\": %s}", s->traps ? "marked" : "marked_trap",
               s->marked[i] ? "true" : "false");
    }
    printf("]");
    if (!s->traps)
        printf(", \"commoner\": %s", tristate(s->commoner));
    printf("}");
}

/* "lp": the structural properties and each place's bound (a number, or
 * "unbounded", or null: unknown) */
static void json_lp(const report_t *r)
{
    const pn_lp_bounds_t *b = r->lp;
    printf(", \"lp\": {\"end\": \"%s\", \"bounded\": %s, "
           "\"structurally_bounded\": %s, \"conservative\": %s, "
           "\"repetitive\": %s, \"consistent\": %s, \"bounds\": {",
           end_word(b->end), tristate(b->bounded),
           tristate(b->structurally_bounded), tristate(b->conservative),
           tristate(b->repetitive), tristate(b->consistent));
    for (size_t p = 0; p < b->np; p++) {
        printf("%s", p ? ", " : "");
        pni_json_string(stdout, pn_net_place(r->net, p)->id, 0);
        if (b->state[p] == 1)
            printf(": %" PRIu64, b->bound[p]);
        else
            printf(": %s", b->state[p] ? "null" : "\"unbounded\"");
    }
    printf("}}");
}

static void json_report(const report_t *r, const char *file)
{
    printf("{\"file\": ");
    pni_json_string(stdout, file, 0);
    printf(", \"places\": %zu, \"transitions\": %zu, \"classes\": [",
           pn_net_place_count(r->net), pn_net_transition_count(r->net));
    int n = 0;
    for (unsigned b = PN_CLASS_ORDINARY; b < PN_CLASS_OTHER_ARCS; b <<= 1)
        if (r->classes & b) {
            printf("%s", n++ ? ", " : "");
            pni_json_string(stdout, pn_net_class_name(b), 0);
        }
    printf("], \"other_arcs\": %s, \"p_semiflows\": ",
           r->classes & PN_CLASS_OTHER_ARCS ? "true" : "false");
    json_flows(r, r->pf);
    printf(", \"t_semiflows\": ");
    json_flows(r, r->tf);
    printf(", \"siphons\": ");
    json_sets(r, r->sip);
    printf(", \"traps\": ");
    json_sets(r, r->trap);
    const char *why;
    size_t si;
    const char *live = live_verdict(r, &why, &si);
    static const char *const reasons[] = {NULL, "unbounded",
                                          "improper completion",
                                          "dead transition", "no completion"};
    printf(", \"workflow\": ");
    if (r->wf.workflow) {
        printf("{\"source\": ");
        pni_json_string(stdout, pn_net_place(r->net, r->wf.source)->id, 0);
        printf(", \"sink\": ");
        pni_json_string(stdout, pn_net_place(r->net, r->wf.sink)->id, 0);
        printf(", \"sound\": %s, \"reason\": ", tristate(r->wf.sound));
        if (r->wf.sound == 0)
            pni_json_string(stdout, reasons[r->wf.reason], 0);
        else
            printf("null");
        printf("}");
    } else
        printf("null");
    json_lp(r);
    printf(", \"liveness\": ");
    if (live)
        pni_json_string(stdout, live, 0);
    else
        printf("null");
    printf(", \"liveness_reason\": ");
    if (why)
        pni_json_string(stdout, why, 0);
    else
        printf("null");
    printf("}\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_LONGOPT_FORMAT,
        {"max", required_argument, NULL, OPT_MAX},
        {"all", no_argument, NULL, OPT_ALL},
        {"net", required_argument, NULL, OPT_NET},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        CLI_LONGOPTS_COMMON};
    cli_init(prog, argc, argv);
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_TEXT) | CLI_FMT(CLI_JSON),
                       .format = CLI_TEXT};
    pn_read_options_t ro = {0};
    report_t r = {0};
    uint64_t max = PN_STRUCT_MAX_DEFAULT;
    double seconds = LP_SECONDS;
    int c, rc;
    while ((c = getopt_long(argc, argv, "f:qhV", longopts, NULL)) != -1) {
        rc = -1;
        if (c == OPT_MAX) {
            if (cli_uint("--max", optarg, 1, SIZE_MAX / 2, &max))
                return CLI_EUSAGE;
        } else if (c == OPT_ALL)
            r.all = 1;
        else if (c == OPT_NET)
            ro.net_id = optarg;
        else if (c == OPT_TIME_LIMIT) {
            if (cli_real("--time-limit", optarg, 0.001, 1e9, &seconds))
                return CLI_EUSAGE;
        }
        else
            rc = cli_option(&cc, c, optarg);
        if (rc >= 0)
            return rc;
    }
    const char *path = cli_one_file(prog, argc, argv, optind);
    if (!path)
        return CLI_EUSAGE;
    pn_net_t *net;
    if ((rc = cli_read_net(prog, path, &ro, &net)) != CLI_OK)
        return rc;
    r.net = net;
    r.max = (size_t)max;
    r.json = cc.format == CLI_JSON;
    r.classes = pn_net_classes(net);
    if (pn_flows_compute(net, 0, (size_t)max, &r.pf) ||
        pn_flows_compute(net, 1, (size_t)max, &r.tf) ||
        pn_siphons_compute(net, 0, (size_t)max, &r.sip) ||
        pn_siphons_compute(net, 1, (size_t)max, &r.trap) ||
        pn_workflow_check(net, 0, &r.wf) ||
        pn_lp_bounds_compute(net, seconds, &r.lp)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = CLI_EINPUT;
    } else {
        if (r.json)
            json_report(&r, cli_input_name(path));
        else
            text_report(&r, cli_input_name(path));
        rc = r.pf->end || r.tf->end || r.sip->end || r.trap->end ||
                     r.lp->end
                 ? 4
                 : CLI_OK;
    }
    pn_flows_free(r.pf);
    pn_flows_free(r.tf);
    pn_siphons_free(r.sip);
    pn_siphons_free(r.trap);
    pn_lp_bounds_free(r.lp);
    pn_net_free(net);
    return rc; /* standard output is checked at exit (cli_init()) */
}
