/* pn-dot: draw a PNML net, a step of a run, or a run's timeline. */
#include <config.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "pn.h"
#include "dot.h"

static const char *prog = "pn-dot";

enum { EXIT_TOOBIG = 4 };

/* Nodes and arcs above which a net in groups is folded unless --no-fold
 * says otherwise.  Measured on GPU nets (pn-gen-gpu's defaults) with the
 * dot layout: the warps are laid out apart and stand in one row, so the
 * drawing only grows wider: 16 warps (1447) are 9320 pt wide, 20 warps
 * (1807) 11500 pt, 32 warps 18104 x 1457 pt, where folded the 32-warp net
 * is 1312 x 2394 pt. */
#define FOLD_ABOVE 1500

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Draw the PNML net in FILE ('-' reads standard input) with Graphviz, or\n"
        "a run of it that pn-run --trace wrote.\n"
        "\n"
        "  -o, --output FILE    write to FILE, atomically; the format comes from\n"
        "                       its extension (.svg, .png, .pdf, .dot, .gv)\n"
        "                       (default: SVG on standard output)\n"
        "  -f, -T, --format FMT svg, png, pdf or dot\n"
        "  -l, --layout L       dot (default), neato, fdp or sfdp\n"
        "      --positions      draw nodes where the PNML places them (no layout)\n"
        "      --dpi N          pixels per inch of a PNG (default 96; lowered,\n"
        "                       with a note, to keep it within %d pixels\n"
        "                       a side; at most 100 megapixels are drawn)\n"
        "      --labels L       short (default): the id less its warp or group\n"
        "                       inside each node, the names in a legend and in\n"
        "                       tooltips; name: the names beside the nodes;\n"
        "                       id: the ids beside them; none\n"
        "      --ids            with --labels name: ids beside the names\n"
        "      --rankdir D      TB (default), LR, BT or RL: the direction of\n"
        "                       the dot layout\n"
        "      --cluster-by SEP group nodes by the part of their id before SEP\n"
        "                       (default: PNML pages; warps for GPU nets)\n"
        "      --no-clusters    no groups\n"
        "      --fold           the first group (warp) in full, every other one\n"
        "                       as a box of its marked places, joined to the\n"
        "                       rest by one arc per node and kind: the default\n"
        "                       for a net in groups of over %d nodes and arcs\n"
        "                       (a GPU net of over 16 warps), with a note\n"
        "      --no-fold        every group (warp) in full, at any size\n"
        "      --trace FILE     a trace written by pn-run --trace\n"
        "      --step K         with --trace: the marking after step K, the\n"
        "                       transitions fired in step K highlighted\n"
        "      --timeline       with --trace: the run as a space-time diagram\n"
        "      --steps A-B      with --timeline: the window of steps to draw\n"
        "      --html FILE      with --trace: write to FILE, atomically, one\n"
        "                       HTML page that replays the run in a browser\n"
        "                       (the net, a step slider, the marking, the\n"
        "                       fired transitions and the timeline)\n"
        "      --invariant K    highlight the K-th minimal P-semiflow as\n"
        "                       pn-struct numbers them (1 is the first): its\n"
        "                       places filled, each with its weight; tK: the\n"
        "                       K-th T-semiflow's transitions\n"
        "      --no-rates       no timing beside the transitions (by default\n"
        "                       a net with timing has its rates, delays,\n"
        "                       weights and priorities written there)\n"
        "      --solution FILE  a solution that pn-solve --format json wrote\n"
        "                       ('-': standard input): each transition's\n"
        "                       throughput (X=) and each place's mean tokens\n"
        "                       (N=) beside them; of a net with no steady\n"
        "                       state, what pn-solve found instead, in the\n"
        "                       title\n"
        "      --time T         with --solution: the measures at time T of\n"
        "                       pn-solve --time (transient), whatever the\n"
        "                       chain\n"
        "      --net ID         read the <net> with this id\n",
        prog, PN_DOT_MAX_SIDE, FOLD_ABOVE);
    cli_usage_common(out, 23);
    fprintf(out,
        "\n"
        "Exit status: 0 success, 1 the net, the trace or the solution could not\n"
        "be read (or belongs to another net), 2 bad command line (also: a step\n"
        "out of range), 3 the output could not be rendered or written, 4 too\n"
        "large to draw that way (the message says what to do instead).\n");
}

enum { OPT_POSITIONS = 128, OPT_IDS, OPT_CLUSTER_BY, OPT_NO_CLUSTERS,
       OPT_TRACE, OPT_STEP, OPT_TIMELINE, OPT_STEPS, OPT_NET, OPT_DPI,
       OPT_LABELS, OPT_RANKDIR, OPT_HTML };
enum { OPT_FOLD = 160, OPT_NO_FOLD, OPT_INVARIANT, OPT_NO_RATES,
       OPT_SOLUTION, OPT_TIME };

typedef struct {
    pn_dot_options_t dot;
    pn_read_options_t ro;
    const char *file;       /* the net ('-': standard input) */
    const char *output, *format, *trace_path, *steps_arg, *cluster_by;
    cli_common_t cc;        /* -o, -f, -q */
    const char *html;       /* --html: the page's path */
    uint64_t step;          /* --step */
    uint64_t first, last;   /* the --timeline window */
    int has_step, timeline;
    int no_fold;            /* --no-fold */
    const char *invariant;  /* --invariant: [p|t]K */
    const char *solution;   /* --solution: pn-solve's JSON */
    double time;            /* --time: a transient solution's time */
    int has_time;
} opts_t;

static const char *const format_names[CLI_NFORMATS] = {
    [CLI_SVG] = "svg", [CLI_PNG] = "png", [CLI_PDF] = "pdf", [CLI_DOT] = "dot"};

static const char *format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return NULL;
    if (!strcmp(dot, ".svg"))
        return "svg";
    if (!strcmp(dot, ".png"))
        return "png";
    if (!strcmp(dot, ".pdf"))
        return "pdf";
    if (!strcmp(dot, ".dot") || !strcmp(dot, ".gv"))
        return "dot";
    return NULL;
}

/* ---- the command line --------------------------------------------------- */

/* Takes option c with its argument.  Returns an exit code, or -1 to go on. */
static int set_option(opts_t *o, int c, const char *arg)
{
    switch (c) {
    case 'l': o->dot.layout = arg; break;
    case OPT_POSITIONS: o->dot.positions = 1; break;
    case OPT_IDS: o->dot.ids = 1; break;
    case OPT_LABELS:
        if (pn_dot_labels_parse(arg, &o->dot.labels)) {
            fprintf(stderr, "%s: --labels: '%s' is not short, name, id or "
                    "none\n", prog, arg);
            return CLI_EUSAGE;
        }
        break;
    case OPT_RANKDIR:
        if (strcmp(arg, "TB") && strcmp(arg, "LR") && strcmp(arg, "BT") &&
            strcmp(arg, "RL")) {
            fprintf(stderr, "%s: --rankdir: '%s' is not TB, LR, BT or RL\n",
                    prog, arg);
            return CLI_EUSAGE;
        }
        o->dot.rankdir = arg;
        break;
    case OPT_DPI: {
        uint64_t dpi;
        if (cli_uint("--dpi", arg, 1, PN_DOT_MAX_DPI, &dpi))
            return CLI_EUSAGE;
        o->dot.dpi = (double)dpi;
        break;
    }
    case OPT_CLUSTER_BY:
        if (!*arg) {
            fprintf(stderr, "%s: --cluster-by: an empty separator\n", prog);
            return CLI_EUSAGE;
        }
        o->cluster_by = arg;
        break;
    case OPT_NO_CLUSTERS: o->dot.no_clusters = 1; break;
    case OPT_FOLD: o->dot.fold = 1; break;
    case OPT_NO_FOLD: o->no_fold = 1; break;
    case OPT_INVARIANT: o->invariant = arg; break;
    case OPT_NO_RATES: o->dot.rates = 0; break;
    case OPT_SOLUTION: o->solution = arg; break;
    case OPT_TIME:
        if (cli_real("--time", arg, 0, INFINITY, &o->time))
            return CLI_EUSAGE;
        o->has_time = 1;
        break;
    case OPT_TRACE: o->trace_path = arg; break;
    case OPT_STEP:
        if (cli_uint("--step", arg, 0, UINT64_MAX, &o->step))
            return CLI_EUSAGE;
        o->has_step = 1;
        break;
    case OPT_TIMELINE: o->timeline = 1; break;
    case OPT_HTML: o->html = arg; break;
    case OPT_STEPS: o->steps_arg = arg; break;
    case OPT_NET: o->ro.net_id = arg; break;
    case 'T': return cli_option(&o->cc, 'f', arg); /* as Graphviz's dot */
    default: return cli_option(&o->cc, c, arg);
    }
    return -1;
}

/* --steps A-B into first and last.  Returns 0, or -1 unless 1 <= A <= B. */
static int parse_window(const char *arg, uint64_t *first, uint64_t *last)
{
    char *dash = strchr(arg, '-');
    char a[32] = "", b[32] = "";
    if (dash && (size_t)(dash - arg) < sizeof a && strlen(dash + 1) < sizeof b) {
        memcpy(a, arg, (size_t)(dash - arg));
        strcpy(b, dash + 1);
    }
    if (!dash || cli_parse_u64(a, 0, first) || cli_parse_u64(b, 0, last) ||
        *first == 0 || *last < *first)
        return -1;
    return 0;
}

/* Reads the command line into o.  Returns an exit code, or -1 to go on. */
static int parse_options(int argc, char **argv, opts_t *o)
{
    static const struct option longopts[] = {
        CLI_LONGOPT_OUTPUT,
        CLI_LONGOPT_FORMAT,
        {"layout", required_argument, NULL, 'l'},
        {"positions", no_argument, NULL, OPT_POSITIONS},
        {"ids", no_argument, NULL, OPT_IDS},
        {"labels", required_argument, NULL, OPT_LABELS},
        {"rankdir", required_argument, NULL, OPT_RANKDIR},
        {"dpi", required_argument, NULL, OPT_DPI},
        {"cluster-by", required_argument, NULL, OPT_CLUSTER_BY},
        {"no-clusters", no_argument, NULL, OPT_NO_CLUSTERS},
        {"fold", no_argument, NULL, OPT_FOLD},
        {"no-fold", no_argument, NULL, OPT_NO_FOLD},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"step", required_argument, NULL, OPT_STEP},
        {"timeline", no_argument, NULL, OPT_TIMELINE},
        {"html", required_argument, NULL, OPT_HTML},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"net", required_argument, NULL, OPT_NET},
        {"invariant", required_argument, NULL, OPT_INVARIANT},
        {"no-rates", no_argument, NULL, OPT_NO_RATES},
        {"solution", required_argument, NULL, OPT_SOLUTION},
        {"time", required_argument, NULL, OPT_TIME},
        CLI_LONGOPTS_COMMON};
    *o = (opts_t){.first = 1};
    o->cc = (cli_common_t){.prog = prog, .usage = usage,
                           .formats = CLI_FMT(CLI_SVG) | CLI_FMT(CLI_PNG) |
                                      CLI_FMT(CLI_PDF) | CLI_FMT(CLI_DOT),
                           .format = CLI_SVG};
    pn_dot_options_init(&o->dot);
    /* a PNG that common viewers open */
    o->dot.max_side = PN_DOT_MAX_SIDE;
    /* the timing of the transitions that have one */
    o->dot.rates = 1;
    int c, rc;
    while ((c = getopt_long(argc, argv, "o:f:T:l:qhV", longopts, NULL)) != -1)
        if ((rc = set_option(o, c, optarg)) >= 0)
            return rc;
    o->output = o->cc.output;
    if (o->cc.format_given)
        o->format = format_names[o->cc.format];
    if (!(o->file = cli_one_file(prog, argc, argv, optind)))
        return CLI_EUSAGE;
    if (o->html && (o->output || o->format || !o->trace_path ||
                    o->has_step || o->timeline)) {
        fprintf(stderr, "%s: --html FILE names the page to write and needs "
                "--trace, without -o, -f, --step or --timeline\n", prog);
        return CLI_EUSAGE;
    }
    if (o->html) {
        o->output = o->html;
        o->format = "svg";
    }
    if (!o->format)
        o->format = o->output && strcmp(o->output, "-") ? format_of(o->output)
                                                        : "svg";
    if (!o->format) {
        fprintf(stderr, "%s: cannot tell the format from '%s': use -f svg, "
                "png, pdf or dot\n", prog, o->output);
        return CLI_EUSAGE;
    }
    if ((o->has_step || o->timeline || o->steps_arg) && !o->trace_path) {
        fprintf(stderr, "%s: --step, --timeline and --steps need --trace\n",
                prog);
        return CLI_EUSAGE;
    }
    if (o->has_step && o->timeline) {
        fprintf(stderr, "%s: --step draws one step, --timeline a window: "
                "choose one\n", prog);
        return CLI_EUSAGE;
    }
    if (o->dot.fold && o->no_fold) {
        fprintf(stderr, "%s: --fold and --no-fold: choose one\n", prog);
        return CLI_EUSAGE;
    }
    if (o->dot.fold && (o->timeline || o->dot.positions)) {
        fprintf(stderr, "%s: --fold draws a net laid out by Graphviz: not "
                "with --timeline or --positions\n", prog);
        return CLI_EUSAGE;
    }
    if (o->invariant && (o->timeline || o->html)) {
        fprintf(stderr, "%s: --invariant draws the net: not with --timeline "
                "or --html\n", prog);
        return CLI_EUSAGE;
    }
    if (o->solution && (o->timeline || o->html)) {
        fprintf(stderr, "%s: --solution draws the net: not with --timeline "
                "or --html\n", prog);
        return CLI_EUSAGE;
    }
    if (o->has_time && !o->solution) {
        fprintf(stderr, "%s: --time goes with --solution\n", prog);
        return CLI_EUSAGE;
    }
    if (o->solution && !strcmp(o->solution, "-") && !strcmp(o->file, "-")) {
        fprintf(stderr, "%s: the net and --solution cannot both be standard "
                "input\n", prog);
        return CLI_EUSAGE;
    }
    if (o->steps_arg && !o->timeline) {
        fprintf(stderr, "%s: --steps goes with --timeline\n", prog);
        return CLI_EUSAGE;
    }
    if (o->steps_arg && parse_window(o->steps_arg, &o->first, &o->last)) {
        fprintf(stderr, "%s: --steps: '%s' is not a window A-B with "
                "1 <= A <= B\n", prog, o->steps_arg);
        return CLI_EUSAGE;
    }
    return -1;
}

/* ---- load, draw --------------------------------------------------------- */

/* Reads the --trace (if any) against net and checks the step or window
 * asked for; a timeline without --steps ends at the trace's last step. */
static int load_trace(const pn_net_t *net, opts_t *o, pn_trace_t **trace)
{
    pn_error_t err;
    if (!o->trace_path)
        return CLI_OK;
    if (pn_trace_read(o->trace_path, net, trace, &err)) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    uint64_t n = pn_trace_steps(*trace);
    if (o->has_step && o->step > n) {
        fprintf(stderr, "%s: --step %" PRIu64 ": the trace has steps 0-%"
                PRIu64 "\n", prog, o->step, n);
        return CLI_EUSAGE;
    }
    if (o->timeline && n == 0) {
        fprintf(stderr, "%s: the trace has no steps to draw\n", prog);
        return CLI_EUSAGE;
    }
    if (o->timeline && o->steps_arg && o->last > n) {
        fprintf(stderr, "%s: --steps %s: the trace has steps 1-%" PRIu64
                "\n", prog, o->steps_arg, n);
        return CLI_EUSAGE;
    }
    if (o->timeline && !o->steps_arg)
        o->last = n;
    return CLI_OK;
}

/* ---- the solution of --solution ------------------------------------------ */

/* What pn-solve's JSON gives the picture: a measure per node (NaN where
 * pn-solve wrote null: not a finite number), or, for a net without a
 * steady state, only what it found instead, in the title. */
typedef struct {
    double *throughput;  /* per transition; NULL: none */
    double *mean_tokens; /* per place; NULL: none */
    char title[256];     /* what the drawing says of the solution */
} solution_t;

static int solution_fail(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Says what is wrong with the solution file; returns the exit code. */
static int solution_fail(const char *path, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", prog, cli_input_name(path));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EINPUT;
}

/* The object key of root ({"id": number or null, ...}) into v, one value
 * per place or transition of net, every id one of the net's of that kind
 * and every node given.  Returns an exit code. */
static int solution_map(const char *path, const opts_t *o,
                        const pn_net_t *net, const json_t *root,
                        const char *key, pn_object_t kind, double **v)
{
    const char *what = kind == PN_PLACE ? "place" : "transition";
    size_t n = kind == PN_PLACE ? pn_net_place_count(net)
                                : pn_net_transition_count(net);
    json_t *map = json_object_get(root, key);
    if (!json_is_object(map))
        return solution_fail(path, "no \"%s\" object, as pn-solve writes "
                             "for a steady state", key);
    unsigned char *seen = calloc(n + 1, 1);
    *v = malloc((n + 1) * sizeof **v);
    if (!seen || !*v) {
        free(seen);
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EOUTPUT;
    }
    const char *id;
    json_t *val;
    int rc = CLI_OK;
    json_object_foreach(map, id, val) {
        pn_object_t k;
        size_t i;
        if (pn_net_find(net, id, &k, &i) || k != kind) {
            rc = solution_fail(path, "%s: '%s' is not a %s of %s: the "
                               "solution of another net", key, id, what,
                               cli_input_name(o->file));
            break;
        }
        if (!json_is_number(val) && !json_is_null(val)) {
            rc = solution_fail(path, "%s: the value of '%s' is not a number",
                               key, id);
            break;
        }
        (*v)[i] = json_is_null(val) ? NAN : json_number_value(val);
        seen[i] = 1;
    }
    for (size_t i = 0; rc == CLI_OK && i < n; i++)
        if (!seen[i])
            rc = solution_fail(path, "%s: no value for the %s '%s' of %s: "
                               "the solution of another net", key, what,
                               kind == PN_PLACE ? pn_net_place(net, i)->id
                                                : pn_net_transition(net, i)->id,
                               cli_input_name(o->file));
    free(seen);
    return rc;
}

/* The ids of an absorbing solution's dead markings, each a place of net.
 * Returns an exit code. */
static int solution_dead(const char *path, const opts_t *o,
                         const pn_net_t *net, const json_t *root)
{
    json_t *dead = json_object_get(root, "dead_markings"), *d;
    size_t i;
    json_array_foreach(dead, i, d) {
        const char *id;
        json_t *val;
        json_object_foreach(json_object_get(d, "marking"), id, val) {
            pn_object_t k;
            size_t p;
            if (pn_net_find(net, id, &k, &p) || k != PN_PLACE)
                return solution_fail(path, "dead_markings: '%s' is not a "
                                     "place of %s: the solution of another "
                                     "net", id, cli_input_name(o->file));
        }
    }
    return CLI_OK;
}

/* What the title says of a solution without a steady state. */
static void solution_no_steady(const json_t *root, const char *kind,
                               solution_t *s)
{
    if (!strcmp(kind, "absorbing")) {
        json_int_t dead = json_integer_value(json_object_get(root, "dead"));
        json_t *mtta = json_object_get(root, "mtta");
        int n = snprintf(s->title, sizeof s->title, "no steady state: %"
                         JSON_INTEGER_FORMAT " dead marking%s reachable",
                         dead, dead == 1 ? "" : "s");
        if (json_is_number(mtta))
            snprintf(s->title + n, sizeof s->title - (size_t)n, ", mean time "
                     "to absorption %.4g", json_number_value(mtta));
    } else
        snprintf(s->title, sizeof s->title, "no steady state: %"
                 JSON_INTEGER_FORMAT " bottom components (not solved)",
                 json_integer_value(json_object_get(root, "bottom")));
}

/* The transient measures at --time (the block of pn-solve --time with
 * that time) into s.  Returns an exit code: a time pn-solve was not asked
 * for is a usage error, as a step out of a trace's range. */
static int solution_at(const char *path, const opts_t *o,
                       const pn_net_t *net, const json_t *root,
                       solution_t *s)
{
    json_t *tr = json_object_get(root, "transient"), *b;
    size_t i;
    json_array_foreach(tr, i, b) {
        if (json_number_value(json_object_get(b, "time")) != o->time)
            continue;
        int rc = solution_map(path, o, net, b, "throughput", PN_TRANSITION,
                              &s->throughput);
        if (!rc)
            rc = solution_map(path, o, net, b, "mean_tokens", PN_PLACE,
                              &s->mean_tokens);
        json_t *dead = json_object_get(b, "dead");
        int n = snprintf(s->title, sizeof s->title, "at time %g: X "
                         "throughput, N mean tokens", o->time);
        if (json_is_number(json_object_get(root, "dead")))
            snprintf(s->title + n, sizeof s->title - (size_t)n, "; in a "
                     "dead marking with probability %.4g",
                     json_number_value(dead));
        return rc;
    }
    fprintf(stderr, "%s: --time %g: %s has no measures at that time (pn-solve "
            "--time gives them)\n", prog, o->time, cli_input_name(path));
    return CLI_EUSAGE;
}

/* Reads the --solution file (pn-solve --format json) into s, checked
 * against net.  Returns an exit code. */
static int read_solution(const pn_net_t *net, const opts_t *o,
                         solution_t *s)
{
    const char *path = o->solution;
    json_error_t je;
    json_t *root = !strcmp(path, "-")
                       ? json_loadf(stdin, JSON_REJECT_DUPLICATES, &je)
                       : json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        if (je.line <= 0)
            return solution_fail(path, "%s", je.text);
        fprintf(stderr, "%s: %s:%d:%d: %s\n", prog, cli_input_name(path),
                je.line, je.column, je.text);
        return CLI_EINPUT;
    }
    const char *kind = json_string_value(json_object_get(root, "kind"));
    json_t *np = json_object_get(root, "places"),
           *nt = json_object_get(root, "transitions");
    int rc = CLI_OK;
    if (!kind || !json_is_integer(np) || !json_is_integer(nt))
        rc = solution_fail(path, "not a solution that pn-solve --format json "
                           "wrote (no kind, places and transitions)");
    else if ((size_t)json_integer_value(np) != pn_net_place_count(net) ||
             (size_t)json_integer_value(nt) != pn_net_transition_count(net))
        rc = solution_fail(path, "the solution of a net of %" JSON_INTEGER_FORMAT
                           " places and %" JSON_INTEGER_FORMAT " transitions, "
                           "not of %s (%zu places, %zu transitions)",
                           json_integer_value(np), json_integer_value(nt),
                           cli_input_name(o->file), pn_net_place_count(net),
                           pn_net_transition_count(net));
    else if (strcmp(kind, "ergodic") && strcmp(kind, "absorbing") &&
             strcmp(kind, "multiple"))
        rc = solution_fail(path, "unknown kind '%s' (ergodic, absorbing or "
                           "multiple)", kind);
    else if (o->has_time) {
        if (!(rc = solution_dead(path, o, net, root)))
            rc = solution_at(path, o, net, root, s);
    } else if (!strcmp(kind, "ergodic")) {
        if (!(rc = solution_map(path, o, net, root, "throughput",
                                PN_TRANSITION, &s->throughput)))
            rc = solution_map(path, o, net, root, "mean_tokens", PN_PLACE,
                              &s->mean_tokens);
        int converged = json_is_true(json_object_get(root, "converged"));
        double rel = json_number_value(json_object_get(root,
                                                       "residual_relative"));
        if (converged)
            snprintf(s->title, sizeof s->title, "steady state: X throughput, "
                     "N mean tokens");
        else
            snprintf(s->title, sizeof s->title, "steady state NOT converged "
                     "(relative residual %.3g): X throughput, N mean tokens",
                     rel);
    } else {
        rc = solution_dead(path, o, net, root);
        solution_no_steady(root, kind, s);
    }
    json_decref(root);
    return rc;
}

/* The marking after the step and the transitions fired in it (a flag per
 * transition), for the picture of one step.  -1 when out of memory. */
static int step_state(const pn_net_t *net, const pn_trace_t *trace,
                      uint64_t step, uint64_t **marking, unsigned char **fired)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    *marking = malloc((np + 1) * sizeof **marking);
    *fired = calloc(nt + 1, 1);
    if (!*marking || !*fired || pn_trace_marking(trace, net, step, *marking))
        return -1;
    size_t nf;
    const uint32_t *f = pn_trace_fired(trace, step, &nf);
    for (size_t i = 0; i < nf; i++)
        (*fired)[f[i]] = 1;
    return 0;
}

/* Prints why rendering failed, with the options that help when the
 * picture is too large; returns the exit code.  The library's message
 * says what to do; this adds the options that do it.  With --positions it
 * says all (a position out of range; a bitmap too large; a net too large
 * for any drawing); without them a net is refused for the layout's sake,
 * or, as a PNG, perhaps for the bitmap's size. */
/* What draws a net too large for the layout readably, as measured with
 * the readability check (tests/svg-overlaps): a net in groups folded (a
 * 64-warp GPU net: no text covered); else sfdp without labels, the least
 * covered of what draws at all (Philosophers-PT-001000: 31253 texts over
 * texts, against 1368608 with the short labels and 67994000 at the
 * file's positions), or the file's positions where an editor placed the
 * nodes. */
static const char *too_big_advice(const opts_t *o)
{
    if (o->dot.groups && o->dot.groups->ngroups && !o->dot.fold)
        return "use --fold to draw the first group (warp) in full and the "
               "others as boxes, or --positions to draw it where the PNML "
               "places it";
    return "use --positions to draw it where the PNML places it (if an "
           "editor did), or --layout sfdp --labels none (at this size "
           "labels cover each other)";
}

static int render_failed(pn_status_t st, const pn_error_t *err,
                         const opts_t *o)
{
    fprintf(stderr, "%s: %s\n", prog, err->text);
    int png = !strcmp(o->format, "png");
    if (st == PN_ETOOBIG && o->timeline)
        fprintf(stderr, "%s: draw a smaller window with --steps A-B%s\n",
                prog, png ? ", or use -f svg or a lower --dpi" : "");
    else if (st == PN_ETOOBIG && !o->dot.positions && !png)
        fprintf(stderr, "%s: %s\n", prog, too_big_advice(o));
    else if (st == PN_ETOOBIG && !o->dot.positions)
        fprintf(stderr, "%s: a net too large to lay out: %s; a drawing too "
                "large for a PNG: use -f svg, -f pdf or a lower --dpi\n",
                prog, too_big_advice(o));
    return st == PN_ETOOBIG ? EXIT_TOOBIG
           : st == PN_EINVAL ? CLI_EUSAGE
                             : CLI_EOUTPUT;
}

/* Replaces the SVG in *data by the page that replays the trace (--html;
 * the net drawn with no tokens: the page draws them). */
static int html_page(const pn_net_t *net, const pn_trace_t *trace,
                     const opts_t *o, char **data, size_t *len)
{
    char *page;
    size_t n;
    pn_error_t err;
    pn_status_t st = pn_dot_html(net, trace, *data, *len, &o->dot, &page, &n,
                                 &err);
    free(*data);
    *data = NULL;
    if (st) {
        fprintf(stderr, "%s: %s\n", prog, err.text);
        return st == PN_ETOOBIG ? EXIT_TOOBIG
               : st == PN_ETRACE ? CLI_EINPUT
                                 : CLI_EOUTPUT;
    }
    *data = page;
    *len = n;
    return CLI_OK;
}

/* The groups that folding draws: those of two or more nodes (a GPU net's
 * warps, not t0's group "idle"), the first in full (*first: its index). */
static size_t foldable_groups(const pn_net_t *net, const pn_groups_t *g,
                              size_t *first)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t *size = calloc(g->ngroups + 1, sizeof *size), n = 0;
    for (size_t i = 0; size && i < np + nt; i++) {
        size_t k = i < np ? g->place_group[i] : g->transition_group[i - np];
        if (k < g->ngroups)
            size[k]++;
    }
    for (size_t k = g->ngroups; size && k-- > 0;)
        if (size[k] >= 2) {
            *first = k;
            n++;
        }
    free(size);
    return n;
}

/* Whether the net is folded without --fold: a net in groups drawn by a
 * layout as one picture (not at its positions, not as a timeline, not
 * the page of --html, which shows every place), above FOLD_ABOVE nodes
 * and arcs, unless --no-fold. */
static int fold_by_default(const pn_net_t *net, const pn_groups_t *groups,
                           const opts_t *o)
{
    size_t elements = pn_net_place_count(net) + pn_net_transition_count(net) +
                      pn_net_arc_count(net), first;
    return groups && !o->no_fold && !o->dot.fold && !o->dot.positions &&
           !o->timeline && !o->html && !o->dot.no_clusters &&
           elements > FOLD_ABOVE && foldable_groups(net, groups, &first) > 1;
}

/* The note of a net folded by default (not with --quiet). */
static void note_folded(const pn_net_t *net, const pn_groups_t *groups,
                        const opts_t *o)
{
    const char *what = o->cluster_by ? "group" : "warp";
    size_t first = 0, n = foldable_groups(net, groups, &first);
    if (!cli_quiet())
        fprintf(stderr, "%s: note: %zu %ss: %s drawn in full, the other %zu "
                "folded into boxes to keep the picture readable; --no-fold "
                "draws every %s\n", prog, n, what,
                groups->group_names[first], n - 1, what);
}

/* The note of a PNG drawn at a lower resolution than asked, to keep each
 * side within max_side pixels (not with --quiet); its size from its
 * header. */
static void note_dpi(const pn_dot_context_t *ctx, const opts_t *o,
                     const char *data, size_t len)
{
    /* 0: Graphviz's 96 */
    double used = pn_dot_last_dpi(ctx),
           asked = o->dot.dpi > 0 ? o->dot.dpi : 96;
    if (used <= 0 || used >= asked || len < 24 || cli_quiet())
        return;
    const unsigned char *d = (const unsigned char *)data;
    unsigned long w = (unsigned long)d[16] << 24 | (unsigned long)d[17] << 16 |
                      (unsigned long)d[18] << 8 | d[19];
    unsigned long h = (unsigned long)d[20] << 24 | (unsigned long)d[21] << 16 |
                      (unsigned long)d[22] << 8 | d[23];
    fprintf(stderr, "%s: note: drawn at %.0f dpi, not %.0f, to keep the PNG "
            "within %" PRIu64 " pixels a side (%lu x %lu); -f svg or -f pdf "
            "have no such limit\n", prog, used, asked, o->dot.max_side, w, h);
}

/* The weights of the --invariant asked for ([p|t]K: the K-th minimal P-
 * or T-semiflow, 1-based, in pn-struct's order), places first then
 * transitions, into *weight, with a title for the drawing.  Returns an
 * exit code. */
static int invariant_weights(const pn_net_t *net, const opts_t *o,
                             int64_t **weight, char *title, size_t size)
{
    const char *s = o->invariant;
    int by_t = *s == 't' || *s == 'T';
    if (by_t || *s == 'p' || *s == 'P')
        s++;
    char *end;
    unsigned long long k = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (!k || *end) {
        fprintf(stderr, "%s: --invariant: '%s' is not K, pK or tK with "
                "K >= 1\n", prog, o->invariant);
        return CLI_EUSAGE;
    }
    const char *what = by_t ? "T-semiflow" : "P-semiflow";
    pn_flows_t *f = NULL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    if (pn_flows_compute(net, by_t, 0, &f) ||
        !(*weight = calloc(np + nt + 1, sizeof **weight))) {
        fprintf(stderr, "%s: out of memory\n", prog);
        pn_flows_free(f);
        return CLI_EOUTPUT;
    }
    int rc = CLI_OK;
    if (f->end != PN_STRUCT_COMPLETE) {
        fprintf(stderr, "%s: --invariant: the minimal %ss of %s are not all "
                "known (pn-struct says why)\n", prog, what,
                cli_input_name(o->file));
        rc = CLI_EUSAGE;
    } else if (k > f->n) {
        fprintf(stderr, "%s: --invariant: %s has %zu minimal %s%s, not %llu\n",
                prog, cli_input_name(o->file), f->n, what,
                f->n == 1 ? "" : "s", k);
        rc = CLI_EUSAGE;
    } else {
        memcpy(*weight + (by_t ? np : 0), f->y[k - 1],
               f->dim * sizeof **weight);
        snprintf(title, size, "%s %llu of %zu", what, k, f->n);
    }
    pn_flows_free(f);
    return rc;
}

/* The title of one step of a lasso (a trace with a "# loop:" comment):
 * the step, and whether it is in the loop that repeats for ever; none for
 * another trace. */
static void loop_title(const pn_net_t *net, const pn_trace_t *trace,
                       uint64_t step, char *title, size_t size,
                       pn_dot_options_t *d)
{
    uint64_t from;
    int loop = pn_trace_loop(trace, &from);
    if (loop == PN_TRACE_NO_LOOP)
        return;
    const char *name = pn_net_name(net) ? pn_net_name(net)
                       : pn_net_id(net) ? pn_net_id(net) : "net";
    if (loop == PN_TRACE_DEAD_END)
        snprintf(title, size, "%.40s: step %" PRIu64 " (the dead marking "
                 "after step %" PRIu64 " repeats for ever)", name, step,
                 from);
    else
        snprintf(title, size, "%.40s: step %" PRIu64 " (%s the loop from "
                 "step %" PRIu64 ", for ever)", name, step,
                 step > from ? "in" : "before", from);
    d->title = title;
}

/* Renders the net, one step of the trace or its timeline (or the page of
 * --html) into *data. */
static int draw(const pn_net_t *net, const pn_trace_t *trace,
                const solution_t *sol, opts_t *o, char **data, size_t *len)
{
    pn_groups_t *groups = NULL;
    pn_dot_context_t *ctx = NULL;
    uint64_t *marking = NULL;
    unsigned char *fired = NULL;
    int64_t *weight = NULL;
    char title[192], both[512];
    pn_error_t err;
    int rc = CLI_OK;
    if (o->invariant &&
        (rc = invariant_weights(net, o, &weight, title, sizeof title)))
        goto done;
    /* clusters and colours: an id rule when asked, else the GPU net's own
     * groups and classes when the net is one (else none: pages) */
    pn_status_t st = o->cluster_by
                         ? pn_groups_by_prefix(net, o->cluster_by, &groups)
                         : pn_gpu_groups(net, &groups);
    if (st == PN_ENOMEM || !(ctx = pn_dot_context_new()) ||
        (trace && !o->timeline && !o->html &&
         step_state(net, trace, o->step, &marking, &fired)) ||
        (o->html && !(marking = calloc(pn_net_place_count(net) + 1,
                                       sizeof *marking)))) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = CLI_EOUTPUT;
        goto done;
    }
    if (o->dot.fold && !groups) {
        fprintf(stderr, "%s: --fold: %s is not a GPU warp net; give its "
                "groups with --cluster-by SEP\n", prog,
                cli_input_name(o->file));
        rc = CLI_EUSAGE;
        goto done;
    }
    int folded = fold_by_default(net, groups, o);
    if (folded)
        o->dot.fold = 1;
    o->dot.groups = groups;
    /* a GPU net's groups are its warps */
    if (groups && !o->cluster_by)
        o->dot.rows_title = "warp";
    o->dot.marking = marking;
    o->dot.fired = fired;
    if (weight) {
        o->dot.weight = weight;
        o->dot.title = title;
    }
    else if (trace && !o->timeline && !o->html)
        loop_title(net, trace, o->step, title, sizeof title, &o->dot);
    if (sol && o->solution) {
        o->dot.throughput = sol->throughput;
        o->dot.mean_tokens = sol->mean_tokens;
        /* the net's name (or the invariant, or the step of a lasso), then
         * the solution's line */
        const char *first = o->dot.title ? o->dot.title : pn_net_name(net);
        snprintf(both, sizeof both, "%s%s%s", first ? first : "",
                 first ? "\n" : "", sol->title);
        o->dot.title = both;
    }
    st = o->timeline ? pn_dot_timeline(ctx, net, trace, o->first, o->last,
                                       &o->dot, o->format, data, len, &err)
                     : pn_dot_render(ctx, net, &o->dot, o->format, data, len,
                                     &err);
    if (st)
        rc = render_failed(st, &err, o);
    else if (o->html)
        rc = html_page(net, trace, o, data, len);
    else {
        if (folded)
            note_folded(net, groups, o);
        note_dpi(ctx, o, *data, *len);
    }
done:
    free(marking);
    free(fired);
    free(weight);
    pn_dot_context_free(ctx);
    pn_groups_free(groups);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(prog, argc, argv);
    opts_t o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    /* the timing is drawn: no warning that it is not used */
    if (o.dot.rates)
        cli_timing_used();
    pn_net_t *net;
    if ((rc = cli_read_net(prog, o.file, &o.ro, &net)) != CLI_OK)
        return rc;
    pn_trace_t *trace = NULL;
    solution_t sol = {0};
    char *data = NULL, *tmp = NULL;
    size_t len = 0;
    FILE *out = NULL;
    const char *path = o.output ? o.output : "-";
    rc = load_trace(net, &o, &trace);
    if (rc == CLI_OK && o.solution)
        rc = read_solution(net, &o, &sol);
    /* the output is opened before drawing, which may take long: a path
     * that cannot be written is said at once */
    if (rc == CLI_OK && !(out = cli_output_open(path, &tmp)))
        rc = CLI_EOUTPUT;
    if (rc == CLI_OK)
        rc = draw(net, trace, &sol, &o, &data, &len);
    if (out) {
        /* a write error is found and reported by cli_output_close() */
        if (rc == CLI_OK)
            fwrite(data, 1, len, out);
        int wrc = cli_output_close(out, tmp, path, rc == CLI_OK);
        if (rc == CLI_OK)
            rc = wrc;
    }
    free(data);
    free(sol.throughput);
    free(sol.mean_tokens);
    pn_trace_free(trace);
    pn_net_free(net);
    return rc;
}
