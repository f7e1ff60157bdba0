/* pn-reach: the state space of a net; does it deadlock, is it bounded,
 * how few and how many steps to its end. */
#include <config.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "lib_private.h"
#include "pn.h"
#include "reach-graph.h"

static const char *prog = "pn-reach";

/* Exit status when a limit stopped the search (the answer is incomplete). */
#define EXIT_INCOMPLETE 4

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Explore every reachable marking of the net in FILE ('-': standard\n"
        "input) and report: markings and edges, the largest counts, dead\n"
        "markings and the shortest path to one, transitions that never\n"
        "fire, whether every run ends, and the least and greatest number of\n"
        "steps to a dead marking.\n"
        "\n"
        "      --semantics S     interleaving (default: one transition per\n"
        "                        edge, the Model Checking Contest's graph)\n"
        "                        or maximal (every maximal step that pn-run\n"
        "                        can take: pn-run's default; pn-reach(1)\n"
        "                        says why the two differ)\n"
        "      --max-states N    stop after N markings (the result is then\n"
        "                        incomplete, exit status 4)\n"
        "      --token-bound N   stop when a place would hold more than N\n"
        "      --max-memory M    stop before the search's tables pass M\n"
        "                        bytes (suffix K, M or G: 1024s)\n"
        "      --no-unbounded    do not look for a marking that covers an\n"
        "                        ancestor (the proof that a net is not\n"
        "                        bounded)\n"
        "      --query Q         answer the query Q (repeatable): 'EF f',\n"
        "                        'AG f', 'bound(p1, p2)' or 'deadlock'; f\n"
        "                        compares sums of places and numbers\n"
        "                        (< <= == != >= >), fireable(t1, t2),\n"
        "                        deadlock, true, false, with ! && || ( );\n"
        "                        CTL: EX AX EF AF EG AG f, E [ f U g ],\n"
        "                        A [ f U g ] nested ('AG EF p >= 1');\n"
        "                        LTL: 'LTL G (p > 0 -> F q > 0)' or 'A G ...'\n"
        "                        with X F G f, [ f U g ], [ f R g ]\n"
        "      --witness DIR     write a trace to every marking that decides\n"
        "                        an answer (DIR/ID.trace: EF true, AG false,\n"
        "                        a bound, a deadlock, unboundedness; the\n"
        "                        lasso of an LTL formula that fails)\n"
        "      --progress        a progress line on standard error (the\n"
        "                        default on a terminal, after a second)\n"
        "      --bounds          print the bound of every place\n"
        "      --all-dead        list every dead marking found\n"
        "      --graph FILE      write the graph of markings to FILE.dot\n"
        "                        (Graphviz: dot -Tsvg draws it) or\n"
        "                        FILE.json\n"
        "      --graph-limit N   refuse a graph of more than N markings\n"
        "                        (default 10000; exit status 5)\n"
        "      --coverability    the coverability graph (Karp-Miller) of a\n"
        "                        net of normal and read arcs: the places\n"
        "                        that are not bounded (\xcf\x89) and the\n"
        "                        bounds of the others\n"
        "  -t, --trace FILE      write the shortest path to a dead marking\n"
        "                        as a trace (pn-dot --trace draws it)\n"
        "      --longest FILE    write the longest path to a dead marking\n"
        "                        as a trace (a terminating net)\n"
        "  -f, --format FMT      text (default) or json\n"
        "      --mcc EXAM DIR    answer as the Model Checking Contest asks:\n"
        "                        DIR/model.pnml; EXAM is StateSpace,\n"
        "                        ReachabilityDeadlock, OneSafe,\n"
        "                        QuasiLiveness, StableMarking, Liveness,\n"
        "                        UpperBounds, ReachabilityCardinality,\n"
        "                        ReachabilityFireability, CTLCardinality,\n"
        "                        CTLFireability, LTLCardinality or\n"
        "                        LTLFireability (DIR/EXAM.xml)\n"
        "      --net ID          read the <net> with this id\n"
        "      --time-limit S    answer within S seconds (default with --mcc:\n"
        "                        the contest's BK_TIME_CONFINEMENT): the\n"
        "                        state equation, random walks, then the\n"
        "                        search; each answer printed the moment it\n"
        "                        is decided, CANNOT_COMPUTE (unknown) for\n"
        "                        what the time left open\n"
        "      --no-reduce       with --time-limit, no search on the net\n"
        "                        reduced for each query (structural\n"
        "                        reductions: pn-reach(1) lists them)\n"
        "      --no-simplify     with --time-limit, the formulas as given\n"
        "                        (default: simplified first, by the state\n"
        "                        equation and exact rules)\n"
        "      --reduced FILE    write the net reduced for the first query\n"
        "                        (none: for every place and transition) to\n"
        "                        FILE as PNML (interleaving only)\n"
        "      --no-stubborn     with --mcc or --time-limit, fire every\n"
        "                        enabled transition (default: only a\n"
        "                        stubborn set of the open queries, with\n"
        "                        interleaving: the same answers from fewer\n"
        "                        markings; LTL on the fly too)\n"
        "      --symmetry        store one marking per orbit of the net's\n"
        "                        automorphisms that permute identical parts\n"
        "                        (the warps of one program), each checked\n"
        "                        first, where every query is invariant\n"
        "                        under them: the same answers and step\n"
        "                        counts from fewer markings (no LTL)\n",
        prog);
    cli_usage_common(out, 24);
    fprintf(out,
        "\n"
        "Exit status: 0 complete (or every query decided), 1 the net or a\n"
        "query file could not be read, 2 bad command line or query, 3 an\n"
        "output could not be written, 4 a limit stopped the search or the\n"
        "net is not bounded (what was found is printed, marked incomplete),\n"
        "5 the graph of --graph has more markings than --graph-limit (no\n"
        "file written).\n");
}

enum { OPT_MAX_STATES = 128, OPT_TOKEN_BOUND, OPT_BOUNDS, OPT_LONGEST,
       OPT_MCC, OPT_NET, OPT_MAX_MEMORY, OPT_PROGRESS, OPT_NO_UNBOUNDED,
       OPT_SEMANTICS, OPT_QUERY, OPT_WITNESS, OPT_GRAPH, OPT_GRAPH_LIMIT,
       OPT_ALL_DEAD, OPT_COVERABILITY, OPT_TIME_LIMIT, OPT_NO_REDUCE,
       OPT_REDUCED, OPT_NO_STUBBORN, OPT_SYMMETRY, OPT_NO_SIMPLIFY };

typedef struct {
    pn_reach_options_t ro;
    pn_read_options_t rd;
    int bounds, json, progress, coverability, no_stubborn;
    reach_graph_t graph;
    const char *trace, *longest, *mcc, *file, *witness, *reduced;
    int no_reduce, no_simplify;
    const char **queries;
    size_t nqueries;
    double time_limit;      /* seconds; 0: none */
} opts_t;

/* A byte count with an optional K, M or G suffix (powers of 1024). */
static int parse_bytes(const char *s, uint64_t *out)
{
    size_t n = strlen(s);
    unsigned shift = 0;
    if (n && strchr("KMG", s[n - 1])) {
        shift = s[n - 1] == 'K' ? 10 : s[n - 1] == 'M' ? 20 : 30;
        n--;
    }
    char buf[32];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    uint64_t v;
    if (cli_parse_u64(buf, 1, &v) || v > (UINT64_MAX >> shift))
        return -1;
    *out = v << shift;
    return 0;
}

/* Takes option c with its argument.  Returns an exit code, or -1 to go on. */
static int set_option(opts_t *o, cli_common_t *cc, int c, const char *arg)
{
    switch (c) {
    case OPT_SEMANTICS:
        return cli_semantics(arg, &o->ro.semantics) ? CLI_EUSAGE : -1;
    case OPT_MAX_STATES:
        return cli_uint("--max-states", arg, 1, UINT64_MAX,
                        &o->ro.max_states) ? CLI_EUSAGE : -1;
    case OPT_TOKEN_BOUND:
        return cli_uint("--token-bound", arg, 1, UINT64_MAX,
                        &o->ro.token_bound) ? CLI_EUSAGE : -1;
    case OPT_BOUNDS: o->bounds = 1; break;
    case OPT_MAX_MEMORY:
        if (parse_bytes(arg, &o->ro.max_memory)) {
            fprintf(stderr, "%s: --max-memory: '%s' is not a byte count "
                    ">= 1 (digits, then K, M or G)\n", prog, arg);
            return CLI_EUSAGE;
        }
        break;
    case OPT_NO_UNBOUNDED: o->ro.unbounded = 0; break;
    case OPT_NO_STUBBORN: o->no_stubborn = 1; break;
    case OPT_SYMMETRY: o->ro.symmetry = 1; break;
    case OPT_PROGRESS: o->progress = 1; break;
    case OPT_QUERY: {
        const char **v = realloc(o->queries, (o->nqueries + 1) * sizeof *v);
        if (!v) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return CLI_EUSAGE;
        }
        o->queries = v;
        o->queries[o->nqueries++] = arg;
        break;
    }
    case OPT_WITNESS: o->witness = arg; break;
    case OPT_GRAPH: o->graph.graph = arg; break;
    case OPT_GRAPH_LIMIT:
        return cli_uint("--graph-limit", arg, 1, GRAPH_LIMIT_MAX,
                        &o->graph.limit) ? CLI_EUSAGE : -1;
    case OPT_ALL_DEAD: o->graph.all_dead = 1; break;
    case OPT_COVERABILITY: o->coverability = 1; break;
    case OPT_NO_REDUCE: o->no_reduce = 1; break;
    case OPT_NO_SIMPLIFY: o->no_simplify = 1; break;
    case OPT_REDUCED: o->reduced = arg; break;
    case OPT_TIME_LIMIT:
        return cli_real("--time-limit", arg, 0.001, 1e9, &o->time_limit)
                   ? CLI_EUSAGE : -1;
    case 't': o->trace = arg; break;
    case OPT_LONGEST: o->longest = arg; break;
    case OPT_MCC: o->mcc = arg; break;
    case OPT_NET: o->rd.net_id = arg; break;
    default: return cli_option(cc, c, arg);
    }
    return -1;
}

/* What --graph and --coverability allow with them.  Returns an exit code,
 * or -1 to go on. */
static int graph_options(opts_t *o)
{
    if (o->graph.graph && reach_graph_format(prog, &o->graph) >= 0)
        return CLI_EUSAGE;
    const char *what = o->coverability ? "--coverability"
                       : o->graph.graph ? "--graph" : NULL;
    if (!what)
        return -1;
    const char *other = o->mcc ? "--mcc" : o->nqueries ? "--query"
                        : o->ro.symmetry ? "--symmetry" : NULL;
    if (!other && o->coverability)
        other = o->trace ? "--trace" : o->longest ? "--longest"
                : o->witness ? "--witness"
                : o->ro.semantics == PN_SEM_MAXIMAL ? "--semantics maximal"
                : !o->ro.unbounded ? "--no-unbounded"
                : o->ro.token_bound ? "--token-bound" : NULL;
    if (other) {
        fprintf(stderr, "%s: %s and %s: one or the other (%s)\n", prog, what,
                other, o->coverability
                           ? "the coverability graph is built on its own, "
                             "with interleaving"
                           : "the graph is the whole state space's");
        return CLI_EUSAGE;
    }
    return -1;
}

static int parse_options(int argc, char **argv, opts_t *o)
{
    static const struct option longopts[] = {
        {"semantics", required_argument, NULL, OPT_SEMANTICS},
        {"max-states", required_argument, NULL, OPT_MAX_STATES},
        {"token-bound", required_argument, NULL, OPT_TOKEN_BOUND},
        {"bounds", no_argument, NULL, OPT_BOUNDS},
        {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
        {"no-unbounded", no_argument, NULL, OPT_NO_UNBOUNDED},
        {"query", required_argument, NULL, OPT_QUERY},
        {"witness", required_argument, NULL, OPT_WITNESS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"graph", required_argument, NULL, OPT_GRAPH},
        {"graph-limit", required_argument, NULL, OPT_GRAPH_LIMIT},
        {"all-dead", no_argument, NULL, OPT_ALL_DEAD},
        {"coverability", no_argument, NULL, OPT_COVERABILITY},
        {"trace", required_argument, NULL, 't'},
        {"longest", required_argument, NULL, OPT_LONGEST},
        CLI_LONGOPT_FORMAT,
        {"mcc", required_argument, NULL, OPT_MCC},
        {"net", required_argument, NULL, OPT_NET},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        {"no-reduce", no_argument, NULL, OPT_NO_REDUCE},
        {"no-simplify", no_argument, NULL, OPT_NO_SIMPLIFY},
        {"reduced", required_argument, NULL, OPT_REDUCED},
        {"no-stubborn", no_argument, NULL, OPT_NO_STUBBORN},
        {"symmetry", no_argument, NULL, OPT_SYMMETRY},
        CLI_LONGOPTS_COMMON};
    memset(o, 0, sizeof *o);
    pn_reach_options_init(&o->ro);
    o->ro.graph = 1;
    o->graph.limit = GRAPH_LIMIT_DEFAULT;
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_TEXT) | CLI_FMT(CLI_JSON),
                       .format = CLI_TEXT};
    int c, rc;
    while ((c = getopt_long(argc, argv, "t:f:qhV", longopts, NULL)) != -1)
        if ((rc = set_option(o, &cc, c, optarg)) >= 0)
            return rc;
    o->json = o->graph.json = cc.format == CLI_JSON;
    if ((rc = graph_options(o)) >= 0)
        return rc;
    if (o->reduced && o->ro.semantics == PN_SEM_MAXIMAL) {
        fprintf(stderr, "%s: --reduced and --semantics maximal: one or the "
                "other (the reductions keep interleaving's markings, not "
                "maximal steps)\n", prog);
        return CLI_EUSAGE;
    }
    if (o->mcc) {
        const char *other = o->trace ? "--trace" : o->longest ? "--longest"
                            : o->json ? "--format json"
                            : o->bounds ? "--bounds" : NULL;
        if (other) {
            fprintf(stderr, "%s: --mcc answers in the contest's lines "
                    "only: %s does not apply\n", prog, other);
            return CLI_EUSAGE;
        }
        if (optind != argc - 1) {
            fprintf(stderr, "%s: --mcc %s: expected one DIR (the folder of "
                    "model.pnml)\nTry '%s --help'.\n", prog, o->mcc, prog);
            return CLI_EUSAGE;
        }
    }
    o->file = cli_one_file(prog, argc, argv, optind);
    return o->file ? -1 : CLI_EUSAGE;
}

/* ---- traces --------------------------------------------------------------- */

static int write_path(const char *path, const pn_net_t *net,
                      const pn_reach_path_t *p, const opts_t *o)
{
    char *tmp;
    FILE *f = cli_output_open(path, &tmp);
    if (!f)
        return CLI_EOUTPUT;
    pn_trace_write_header(f, net, 0, o->ro.semantics);
    for (size_t i = 0; i < p->nsteps; i++)
        pn_trace_write_step(f, net, i + 1, p->steps[i], p->n_in_step[i]);
    pn_trace_write_end(f, PN_END_DEAD, p->nsteps);
    return cli_output_close(f, tmp, path, 1);
}

/* The shortest (or the longest) path to a dead marking into path. */
static int write_trace(const char *path, int longest, const pn_net_t *net,
                       const pn_reach_t *r, const opts_t *o)
{
    pn_reach_path_t *p = NULL;
    pn_status_t st = longest ? pn_reach_longest_path(r, &p)
                             : pn_reach_dead_path(r, &p);
    if (st == PN_EINVAL) {
        /* no such path is an answer, not a failed output: no file, a
         * note, and the exit status of the search */
        int complete = pn_reach_end(r) == PN_REACH_COMPLETE;
        if (!cli_quiet())
            fprintf(stderr, "%s: %s: %s: no %strace written\n", prog, path,
                    pn_reach_end(r) == PN_REACH_DECIDED
                        ? "no dead marking found (the search stopped when "
                          "every query was decided)"
                    : !complete ? "no dead marking found (the search did not "
                                  "finish)"
                    : !pn_reach_dead(r) ? "no dead marking"
                                        : "some run never ends",
                    longest ? "longest " : "");
        return CLI_OK;
    }
    if (st) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EOUTPUT;
    }
    int rc = write_path(path, net, p, o);
    pn_reach_path_free(p);
    return rc;
}

/* ---- reports -------------------------------------------------------------- */

static const char *end_text(pn_reach_end_t end)
{
    switch (end) {
    case PN_REACH_COMPLETE: return "complete";
    case PN_REACH_MAX_STATES: return "incomplete: the state limit was reached";
    case PN_REACH_TOKEN_BOUND: return "incomplete: a place passed the token "
                                      "bound";
    case PN_REACH_MAX_MEMORY: return "incomplete: the memory limit was "
                                      "reached";
    case PN_REACH_UNBOUNDED: return "incomplete: the net is not bounded";
    case PN_REACH_DECIDED: return "stopped: every query was decided";
    case PN_REACH_TIME_LIMIT: return "incomplete: the time limit was "
                                      "reached";
    default: return "incomplete: a count would pass 2^63-1 (not bounded)";
    }
}

/* The search's end as JSON's "end" says it: why it stopped. */
static const char *end_word(pn_reach_end_t end)
{
    switch (end) {
    case PN_REACH_COMPLETE: return "complete";
    case PN_REACH_MAX_STATES: return "max_states";
    case PN_REACH_TOKEN_BOUND: return "token_bound";
    case PN_REACH_MAX_MEMORY: return "max_memory";
    case PN_REACH_UNBOUNDED: return "unbounded";
    case PN_REACH_DECIDED: return "decided";
    case PN_REACH_TIME_LIMIT: return "time_limit";
    default: return "overflow";
    }
}

/* The exit status of a search: 0 when its answers are final. */
static int end_status(const pn_reach_t *r)
{
    pn_reach_end_t e = pn_reach_end(r);
    return e == PN_REACH_COMPLETE || e == PN_REACH_DECIDED ? CLI_OK
                                                            : EXIT_INCOMPLETE;
}

/* ---- witnesses ------------------------------------------------------------ */

/* DIR/NAME.trace, with '/', '%' and a leading '.' of the name written
 * %2F, %25 and %2E, so that two ids never share a file. */
static char *witness_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + 3 * strlen(name) + 8;
    char *path = malloc(n);
    if (!path)
        return NULL;
    size_t k = (size_t)snprintf(path, n, "%s/", dir);
    for (size_t i = 0; name[i]; i++) {
        if (name[i] == '/' || name[i] == '%' || (i == 0 && name[i] == '.'))
            k += (size_t)snprintf(path + k, n - k, "%%%02X",
                                  (unsigned char)name[i]);
        else
            path[k++] = name[i];
    }
    strcpy(path + k, ".trace");
    return path;
}

/* A trace of the shortest path to state, its marking as the last
 * snapshot (pn_trace_read() checks that the replay ends there); what:
 * one line said in a comment. */
static int write_witness(const char *dir, const char *name, const char *what,
                         const pn_net_t *net, const pn_reach_t *r,
                         uint64_t state, const opts_t *o)
{
    char *path = witness_path(dir, name);
    pn_reach_path_t *p = NULL;
    uint64_t *m = malloc((pn_net_place_count(net) + 1) * sizeof *m);
    if (!path || !m || pn_reach_path(r, state, &p) ||
        pn_reach_marking(r, state, m)) {
        free(path);
        free(m);
        pn_reach_path_free(p);
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EOUTPUT;
    }
    char *tmp;
    FILE *f = cli_output_open(path, &tmp);
    int rc = CLI_EOUTPUT;
    if (f) {
        pn_trace_write_header(f, net, 0, o->ro.semantics);
        fputs("# witness: ", f);
        for (const char *c = what; *c; c++)
            fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
        fputc('\n', f);
        for (size_t i = 0; i < p->nsteps; i++)
            pn_trace_write_step(f, net, i + 1, p->steps[i], p->n_in_step[i]);
        pn_trace_write_marking(f, net, p->nsteps, m);
        pn_trace_write_end(f, pn_reach_dead_state(r, state) ? PN_END_DEAD
                                                            : PN_END_LIMIT,
                           p->nsteps);
        rc = cli_output_close(f, tmp, path, 1);
    }
    free(path);
    free(m);
    pn_reach_path_free(p);
    return rc;
}

/* A path's trace: its header and comment lines (what, then the loop
 * comment when loop is not PN_REACH_NO_LOOP: the marking at the end is
 * that of the loop's start again, or a dead one that repeats), its steps;
 * a path with no loop ends with a snapshot of its last marking (m), as
 * the witness of a marking does, and says whether that one is dead. */
static int write_path_trace(const char *dir, const char *id,
                            const char *what, const pn_net_t *net,
                            const pn_reach_path_t *p, size_t loop,
                            const uint64_t *m, int dead, const opts_t *o)
{
    char *path = witness_path(dir, id);
    if (!path) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EOUTPUT;
    }
    char *tmp;
    FILE *f = cli_output_open(path, &tmp);
    int rc = CLI_EOUTPUT;
    if (loop != PN_REACH_NO_LOOP)
        dead = loop == p->nsteps;
    if (f) {
        pn_trace_write_header(f, net, 0, o->ro.semantics);
        fprintf(f, "# witness: %s\n", what);
        if (loop != PN_REACH_NO_LOOP)
            fprintf(f, "# loop: %s %zu%s\n",
                    dead ? "the dead marking after step" : "from the marking "
                    "after step", loop, dead ? " repeats for ever"
                                             : " round to it again, for ever");
        for (size_t i = 0; i < p->nsteps; i++)
            pn_trace_write_step(f, net, i + 1, p->steps[i], p->n_in_step[i]);
        if (loop == PN_REACH_NO_LOOP)
            pn_trace_write_marking(f, net, p->nsteps, m);
        pn_trace_write_end(f, dead ? PN_END_DEAD : PN_END_LIMIT, p->nsteps);
        rc = cli_output_close(f, tmp, path, 1);
    }
    free(path);
    return rc;
}

/* The counterexample of an LTL query answered false: a lasso, the loop's
 * start said in a comment. */
static int write_lasso(const char *dir, const pn_query_t *q,
                       const pn_net_t *net, const pn_reach_t *r,
                       const opts_t *o)
{
    pn_reach_path_t *p = NULL;
    size_t loop = 0;
    pn_status_t st = pn_reach_lasso(r, q->formula, &p, &loop);
    if (st == PN_EINVAL) /* false, and none kept: see pn-reach(1), LTL */
        fprintf(stderr, "%s: %s: no lasso written: the answer came without "
                "one (the formula simplified to a constant, or it fails "
                "whatever follows a path found and no cycle closed before "
                "the time or a limit)\n", prog, q->id);
    else if (st)
        fprintf(stderr, "%s: %s: no lasso written: %s\n", prog, q->id,
                pn_status_name(st));
    if (st)
        return st == PN_ENOMEM ? CLI_EOUTPUT : CLI_OK;
    char what[160];
    snprintf(what, sizeof what, "query %.80s is false (a counterexample)",
             q->id);
    int rc = write_path_trace(dir, q->id, what, net, p, loop, NULL, 0, o);
    pn_reach_path_free(p);
    return rc;
}

/* What a CTL path shows, by its top operator and answer (NULL: no single
 * path shows it). */
static const char *ctl_path_what(const pn_qformula_t *f, int value,
                                 int looped)
{
    switch (f->kind) {
    case PN_QF_EX:
        return value ? "true: a successor where the formula under EX holds"
                     : NULL;
    case PN_QF_AX:
        return value ? NULL : "false (a counterexample): a successor where "
                              "the formula under AX fails";
    case PN_QF_EF:
        return value ? "true: the formula under EF holds here" : NULL;
    case PN_QF_AG:
        return value ? NULL : "false (a counterexample): the formula under "
                              "AG fails here";
    case PN_QF_EU:
        return value ? "true: the left of U holds all along, the right at "
                       "the end" : NULL;
    case PN_QF_AU:
        return value ? NULL
               : looped ? "false (a counterexample): the right of U fails "
                          "all along, for ever"
                        : "false (a counterexample): the right of U fails "
                          "all along, and the left too at the end";
    case PN_QF_AF:
        return value ? NULL : "false (a counterexample): the formula under "
                              "AF fails all along, for ever";
    case PN_QF_EG:
        return value ? "true: the formula under EG holds all along, for "
                       "ever" : NULL;
    default:
        return NULL;
    }
}

/* The marking after the path's last step, replayed, and whether it is
 * dead (-1: out of memory). */
static int path_end(const pn_net_t *net, const pn_reach_path_t *p,
                    uint64_t *m, int *dead)
{
    pn_engine_t *e;
    if (pn_engine_compile(net, &e))
        return -1;
    pn_sim_t *sim = pn_sim_new(e, 0, PN_SEM_MAXIMAL, 0);
    int rc = sim ? 0 : -1;
    for (size_t i = 0; !rc && i < p->nsteps; i++) {
        size_t bad;
        if (pn_sim_fire(sim, p->steps[i], p->n_in_step[i], &bad))
            rc = -1;
    }
    pn_end_t end = PN_END_NONE;
    if (!rc) {
        memcpy(m, pn_sim_marking(sim), pn_net_place_count(net) * sizeof *m);
        pn_sim_step(sim, &end); /* no step taken when dead */
    }
    *dead = end == PN_END_DEAD;
    pn_sim_free(sim);
    pn_engine_free(e);
    return rc;
}

/* The path that shows a CTL query's answer at its top operator, when one
 * does and the graph was kept (an answer found on the fly may have
 * none). */
static int write_ctl_path(const char *dir, const pn_query_t *q,
                          const pn_query_answer_t *a, const pn_net_t *net,
                          const pn_reach_t *r, const opts_t *o)
{
    if (!ctl_path_what(q->formula, a->value, 0))
        return CLI_OK;
    pn_reach_path_t *p = NULL;
    size_t loop = 0;
    pn_status_t st = pn_reach_ctl_path(r, q->formula, &p, &loop);
    if (st == PN_EINVAL)
        return CLI_OK;
    if (st) {
        fprintf(stderr, "%s: %s: no witness written: %s\n", prog, q->id,
                pn_status_name(st));
        return st == PN_ENOMEM ? CLI_EOUTPUT : CLI_OK;
    }
    char what[200];
    snprintf(what, sizeof what, "query %.80s is %s", q->id,
             ctl_path_what(q->formula, a->value, loop != PN_REACH_NO_LOOP));
    uint64_t *m = malloc((pn_net_place_count(net) + 1) * sizeof *m);
    int dead = 0, rc = CLI_EOUTPUT;
    if (!m || (loop == PN_REACH_NO_LOOP && path_end(net, p, m, &dead)))
        fprintf(stderr, "%s: out of memory\n", prog);
    else
        rc = write_path_trace(dir, q->id, what, net, p, loop, m, dead, o);
    free(m);
    pn_reach_path_free(p);
    return rc;
}

/* The witness folder, made when missing. */
static int witness_dir(const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
        return CLI_OK;
    if (mkdir(dir, 0777) == 0)
        return CLI_OK;
    fprintf(stderr, "%s: %s: cannot make the witness folder: %s\n", prog, dir,
            strerror(errno));
    return CLI_EOUTPUT;
}

/* When the net was found not bounded: what grows, and its witness. */
static int report_unbounded(const pn_net_t *net, const pn_reach_t *r,
                            const opts_t *o, FILE *out)
{
    uint64_t cover, covered;
    if (!pn_reach_unbounded(r, &cover, &covered))
        return CLI_OK;
    size_t np = pn_net_place_count(net);
    uint64_t *a = malloc((np + 1) * sizeof *a), *b = malloc((np + 1) *
                                                            sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EOUTPUT;
    }
    pn_reach_marking(r, covered, a);
    pn_reach_marking(r, cover, b);
    uint64_t i = pn_reach_depth(r, covered), k = pn_reach_depth(r, cover);
    if (out) {
        fprintf(out, "unbounded:   the marking after step %" PRIu64
                " covers the one after step %" PRIu64 " with more in",
                k, i);
        for (size_t p = 0, shown = 0; p < np; p++)
            if (b[p] > a[p] && shown++ < 10)
                fprintf(out, " %s (%" PRIu64 " > %" PRIu64 ")",
                        pn_net_place(net, p)->id, b[p], a[p]);
        fprintf(out, ": steps %" PRIu64 "..%" PRIu64 " repeat forever\n",
                i + 1, k);
    }
    free(a);
    free(b);
    if (!o->witness)
        return CLI_OK;
    char what[128];
    snprintf(what, sizeof what, "not bounded: steps %" PRIu64 "..%" PRIu64
             " can repeat forever, adding tokens", i + 1, k);
    return write_witness(o->witness, "unbounded", what, net, r, cover, o);
}

/* Whether the net is bounded: 1, 0, or -1 when the search cannot say
 * (a limit, or the last query decided, stopped it first). */
static int bounded(const pn_reach_t *r)
{
    pn_reach_end_t e = pn_reach_end(r);
    if (e == PN_REACH_UNBOUNDED || e == PN_REACH_OVERFLOW)
        return 0;
    /* a reduced graph keeps the answers, not the markings */
    return e == PN_REACH_COMPLETE && !pn_reach_stubborn(r) ? 1 : -1;
}

static void print_text(const pn_net_t *net, const pn_reach_t *r,
                       const opts_t *o)
{
    size_t nt = pn_net_transition_count(net);
    /* an unfinished search only knows the markings it found; one that
     * stopped at its answers looked at each of them (the witnesses too),
     * so that its lists say what it saw without contradicting them */
    int reduced = pn_reach_stubborn(r) != 0;
    int full = pn_reach_end(r) == PN_REACH_COMPLETE && !reduced;
    int decided = pn_reach_end(r) == PN_REACH_DECIDED;
    const char *sofar = full ? "" : " (in the markings found)";
    printf("net:         %s\n", pn_net_id(net) ? pn_net_id(net) : "-");
    /* pn-run's default is the other semantics: its runs may end where
     * these interleavings do not, or the reverse */
    printf("semantics:   %s\n", o->ro.semantics == PN_SEM_MAXIMAL
                                    ? "maximal steps"
                                    : "interleaving (pn-run runs maximal "
                                      "steps by default: pn-reach "
                                      "--semantics maximal explores those)");
    printf("search:      %s\n", end_text(pn_reach_end(r)));
    if (reduced)
        printf("reduced:     stubborn sets at %" PRIu64 " marking%s (the "
               "figures are the reduced graph's, the answers exact)\n",
               pn_reach_stubborn(r), pn_reach_stubborn(r) == 1 ? "" : "s");
    if (pn_reach_symmetry(r) > 1)
        printf("symmetry:    %" PRIu64 "%s permutations of identical parts "
               "(markings, edges and dead markings up to symmetry; the "
               "rest exact)\n", pn_reach_symmetry(r),
               pn_reach_symmetry(r) == UINT64_MAX ? " or more" : "");
    else if (pn_reach_symmetry(r))
        printf("symmetry:    none used (no identical parts, or a query they "
               "do not keep)\n");
    printf("states:      %" PRIu64 "\n", pn_reach_states(r));
    printf("edges:       %" PRIu64 "\n", pn_reach_edges(r));
    printf("max tokens:  %" PRIu64 " in a place, %" PRIu64 "%s in a marking%s\n",
           pn_reach_max_tokens_in_place(r),
           pn_reach_max_tokens_per_marking(r),
           pn_reach_max_tokens_per_marking(r) == UINT64_MAX ? " or more" : "",
           sofar);
    printf("bounded:     %s\n", bounded(r) > 0 ? "yes" : !bounded(r) ? "no"
                                 : decided ? "unknown (the search stopped "
                                             "when every query was decided)"
                                 : reduced ? "unknown (a reduced graph)"
                                           : "unknown (the search did not "
                                             "finish)");
    /* a search a limit stopped looked for dead markings only among the
     * markings it expanded: the last ones found were not looked at */
    printf("dead:        %" PRIu64 " dead marking%s%s\n", pn_reach_dead(r),
           pn_reach_dead(r) == 1 ? "" : "s",
           full || decided || pn_reach_end(r) == PN_REACH_COMPLETE
               ? sofar
               : " (in the markings expanded: those found last were not "
                 "looked at)");
    size_t never = 0;
    for (size_t t = 0; t < nt; t++)
        never += !pn_reach_transition_fires(r, t);
    printf(full ? "never fire:  %zu transition%s"
           : decided ? "not fired:   %zu transition%s (enabled in no marking "
                       "found: the search stopped when every query was "
                       "decided)"
                     : reduced ? "not fired:   %zu transition%s (in the "
                                 "reduced graph)"
                     : "not fired:   %zu transition%s (yet: the search did "
                       "not finish)",
           never, never == 1 ? "" : "s");
    for (size_t t = 0, shown = 0; t < nt && shown < 20; t++)
        if (!pn_reach_transition_fires(r, t)) {
            printf("%s%s", shown ? " " : ": ", pn_net_transition(net, t)->id);
            shown++;
        }
    printf("%s\n", never > 20 ? " ..." : "");
    int term = 0;
    uint64_t lo = 0, hi = 0;
    int graph = o->ro.graph || o->ro.semantics == PN_SEM_MAXIMAL;
    if (full && graph) {
        pn_status_t st = pn_reach_run_lengths(r, &term, &lo, &hi);
        if (!st && term && pn_reach_dead(r))
            printf("terminates:  yes; steps to a dead marking: min %" PRIu64
                   ", max %" PRIu64 "\n", lo, hi);
        else if (st == PN_EINVAL)
            printf("terminates:  no (some run never ends)\n");
        int live = 0;
        if (pn_reach_live(r, &live) == PN_OK)
            printf("live:        %s\n", live ? "yes (every transition can "
                   "always fire again)" : "no");
    }
    if (o->bounds)
        for (size_t p = 0; p < pn_net_place_count(net); p++)
            printf("bound:       %s %s%" PRIu64 "\n",
                   pn_net_place(net, p)->id, full ? "" : ">= ",
                   pn_reach_place_bound(r, p));
}

static void print_json(const pn_net_t *net, const pn_reach_t *r,
                       const opts_t *o)
{
    size_t nt = pn_net_transition_count(net);
    /* an unfinished search says what it saw, under keys that say so */
    int full = pn_reach_end(r) == PN_REACH_COMPLETE && !pn_reach_stubborn(r);
    printf("{\"net\": ");
    pni_json_string(stdout, pn_net_id(net), 0);
    printf(", \"semantics\": \"%s\", \"complete\": %s, \"end\": \"%s\""
           ", \"states\": %" PRIu64
           ", \"edges\": %" PRIu64 ", \"max_tokens_in_place\": %" PRIu64
           ", \"max_tokens_per_marking\": %" PRIu64 ", \"%s\": %" PRIu64,
           o->ro.semantics == PN_SEM_MAXIMAL ? "maximal" : "interleaving",
           full ? "true" : "false", end_word(pn_reach_end(r)),
           pn_reach_states(r), pn_reach_edges(r),
           pn_reach_max_tokens_in_place(r),
           pn_reach_max_tokens_per_marking(r),
           full ? "dead" : "dead_found", pn_reach_dead(r));
    if (pn_reach_max_tokens_per_marking(r) == UINT64_MAX)
        printf(", \"max_tokens_per_marking_or_more\": true");
    if (pn_reach_stubborn(r))
        printf(", \"stubborn_markings\": %" PRIu64, pn_reach_stubborn(r));
    if (pn_reach_symmetry(r))
        printf(", \"symmetry\": %" PRIu64, pn_reach_symmetry(r));
    if (bounded(r) >= 0)
        printf(", \"bounded\": %s", bounded(r) ? "true" : "false");
    printf(", \"%s\": [", full ? "never_fire" : "never_fired_so_far");
    for (size_t t = 0, k = 0; t < nt; t++)
        if (!pn_reach_transition_fires(r, t)) {
            printf("%s", k++ ? ", " : "");
            pni_json_string(stdout, pn_net_transition(net, t)->id, 0);
        }
    printf("]");
    int term = 0;
    uint64_t lo = 0, hi = 0;
    int graph = o->ro.graph || o->ro.semantics == PN_SEM_MAXIMAL;
    if (full && graph &&
        pn_reach_run_lengths(r, &term, &lo, &hi) == PN_OK && term &&
        pn_reach_dead(r))
        printf(", \"terminates\": true, \"min_steps\": %" PRIu64
               ", \"max_steps\": %" PRIu64, lo, hi);
    else if (full && graph)
        printf(", \"terminates\": %s", term ? "true" : "false");
    int live = 0;
    if (full && graph &&
        pn_reach_live(r, &live) == PN_OK)
        printf(", \"live\": %s", live ? "true" : "false");
    if (o->bounds) {
        printf(", \"bounds\": {");
        for (size_t p = 0; p < pn_net_place_count(net); p++) {
            printf("%s", p ? ", " : "");
            pni_json_string(stdout, pn_net_place(net, p)->id, 0);
            printf(": %" PRIu64, pn_reach_place_bound(r, p));
        }
        printf("}");
    }
}

/* ---- queries -------------------------------------------------------------- */

/* A query's answer as the contest writes it: TRUE, FALSE, a number, or
 * NULL when unknown; a bound past 2^64 - 1 is NULL for the contest (mcc),
 * else "18446744073709551615 or more". */
static const char *answer_word(const pn_query_t *q, const pn_query_answer_t *a,
                               int mcc, char *buf, size_t size)
{
    if (!a->known)
        return NULL;
    if (q->kind == PN_QUERY_BOUND) {
        if (a->bound == UINT64_MAX && mcc)
            return NULL;
        snprintf(buf, size, "%" PRIu64 "%s", a->bound,
                 a->bound == UINT64_MAX ? " or more" : "");
        return buf;
    }
    return a->value ? "TRUE" : "FALSE";
}

/* The witness of answer a, when it has one: DIR/ID.trace. */
static int query_witness(const pn_net_t *net, const pn_reach_t *r,
                         const pn_query_t *q, const pn_query_answer_t *a,
                         const opts_t *o)
{
    if (o->witness && q->kind == PN_QUERY_LTL && a->known && !a->value)
        return write_lasso(o->witness, q, net, r, o);
    if (o->witness && q->kind == PN_QUERY_CTL && a->known &&
        a->state == PN_REACH_NO_STATE)
        return write_ctl_path(o->witness, q, a, net, r, o);
    if (!o->witness || a->state == PN_REACH_NO_STATE ||
        (q->kind == PN_QUERY_BOUND && !a->known))
        return CLI_OK;
    char what[160];
    if (q->kind == PN_QUERY_CTL) /* EF g true or AG g false */
        snprintf(what, sizeof what, "query %.80s is %s: the formula under "
                 "%s here", q->id, a->value ? "true" : "false (a "
                 "counterexample)", a->value ? "EF holds" : "AG fails");
    else
        snprintf(what, sizeof what, "query %.80s is %s here", q->id,
                 q->kind == PN_QUERY_EF ? "true"
                 : q->kind == PN_QUERY_AG ? "false (a counterexample)"
                                          : "at its bound");
    return write_witness(o->witness, q->id, what, net, r, a->state, o);
}

/* The answers of the inline queries: one line each (text), or the
 * report's "queries" array (json). */
static void print_answers(const pn_net_t *net, const pn_reach_t *r,
                          const pn_query_set_t *qs,
                          const pn_query_answer_t *ans, int json,
                          const unsigned char *printed)
{
    char buf[32];
    if (json)
        printf(", \"queries\": [");
    for (size_t i = 0; i < qs->n; i++) {
        const pn_query_t *q = &qs->q[i];
        const char *w = answer_word(q, &ans[i], 0, buf, sizeof buf);
        int has_witness = ans[i].state != PN_REACH_NO_STATE &&
                          (q->kind != PN_QUERY_BOUND || ans[i].known);
        if (json) {
            printf("%s{\"id\": ", i ? ", " : "");
            pni_json_string(stdout, q->id, 0);
            printf(", \"query\": \"");
            /* the text has no control bytes but may hold quotes */
            char *text = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&text, &len);
            if (mem) {
                pn_query_write(mem, q, net);
                fclose(mem);
                for (size_t k = 0; text && k < len; k++) {
                    if (text[k] == '"' || text[k] == '\\')
                        putchar('\\');
                    putchar(text[k]);
                }
                free(text);
            }
            printf("\", \"answer\": ");
            if (!w)
                printf("null");
            else if (q->kind == PN_QUERY_BOUND)
                printf("%" PRIu64 "%s", ans[i].bound,
                       ans[i].bound == UINT64_MAX ? ", \"or_more\": true"
                                                  : "");
            else
                printf("%s", ans[i].value ? "true" : "false");
            if (has_witness)
                printf(", \"witness_steps\": %" PRIu64,
                       pn_reach_depth(r, ans[i].state));
            printf("}");
            continue;
        }
        if (printed && printed[i])
            continue;
        printf("query %s:%*s", q->id, q->id[0] && strlen(q->id) < 8
                                          ? (int)(8 - strlen(q->id)) : 1, "");
        pn_query_write(stdout, q, net);
        printf(": %s", w ? w : "unknown (the search stopped first)");
        if (has_witness)
            printf(" (%s in %" PRIu64 " step%s)",
                   q->kind == PN_QUERY_AG ||
                           (q->kind == PN_QUERY_CTL && !ans[i].value)
                       ? "counterexample"
                   : q->kind == PN_QUERY_BOUND ? "reached" : "witness",
                   pn_reach_depth(r, ans[i].state),
                   pn_reach_depth(r, ans[i].state) == 1 ? "" : "s");
        printf("\n");
    }
    if (json)
        printf("]");
}

/* ---- answers as they come ------------------------------------------------ */

/* What was printed the moment it was decided, and how each answer was
 * found (PN_TECH_*). */
typedef struct {
    const pn_net_t *net;
    const pn_query_set_t *qs;
    const opts_t *o;
    unsigned char *printed;
    unsigned *tech;
} live_t;

/* The contest's TECHNIQUES words of an answer. */
static void techniques(unsigned t, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s",
             t & PN_TECH_EXPLICIT || !t ? "EXPLICIT " : "",
             t & PN_TECH_STUBBORN ? "STUBBORN_SETS " : "",
             t & PN_TECH_STATE_EQUATION ? "STATE_EQUATION "
                                          "LINEAR_PROGRAMMING " : "",
             t & PN_TECH_RANDOM_WALK ? "RANDOM_WALK " : "");
    if (t & PN_TECH_STRUCTURAL_REDUCTION && strlen(buf) + 22 < n)
        strcat(buf, "STRUCTURAL_REDUCTION ");
    if (t & PN_TECH_QUERY_REDUCTION && strlen(buf) + 17 < n)
        strcat(buf, "QUERY_REDUCTION ");
    /* trap cuts; Commoner's property as TAPAAL's verifypn names it */
    if (t & PN_TECH_TRAPS && strlen(buf) + 7 < n)
        strcat(buf, "TRAPS ");
    if (t & PN_TECH_SIPHON_TRAP && strlen(buf) + 25 < n)
        strcat(buf, "TOPOLOGICAL SIPHON_TRAP ");
    size_t k = strlen(buf);
    if (k)
        buf[k - 1] = '\0';
}

/* pn_reach_solve()'s report of one answer: its line now (the contest's,
 * or the text report's, without the witness's length, not known yet),
 * flushed, so that a run stopped from outside keeps it. */
static void on_answer(size_t i, const pn_query_answer_t *a, unsigned tech,
                      void *ctx)
{
    live_t *l = ctx;
    const pn_query_t *q = &l->qs->q[i];
    char buf[32], words[128];
    l->tech[i] = tech;
    const char *w = answer_word(q, a, l->o->mcc != NULL, buf, sizeof buf);
    if (!w || l->o->json)
        return;
    if (l->o->mcc) {
        techniques(tech, words, sizeof words);
        printf("FORMULA %s %s TECHNIQUES %s\n", q->id, w, words);
    } else {
        printf("query %s:%*s", q->id, q->id[0] && strlen(q->id) < 8
                                          ? (int)(8 - strlen(q->id)) : 1, "");
        pn_query_write(stdout, q, l->net);
        printf(": %s\n", w);
    }
    fflush(stdout);
    l->printed[i] = 1;
}

/* ---- the Model Checking Contest's answers --------------------------------- */

/* The answer line of a global property: a verdict a partial search can
 * still give for sure, or CANNOT_COMPUTE. */
static void mcc_formula(const char *exam, int known, int value)
{
    if (known)
        printf("FORMULA %s %s TECHNIQUES EXPLICIT\n", exam,
               value ? "TRUE" : "FALSE");
    else
        printf("CANNOT_COMPUTE\n");
}

static int mcc_answer(const pn_net_t *net, const pn_reach_t *r,
                      const char *exam)
{
    int complete = pn_reach_end(r) == PN_REACH_COMPLETE;
    if (!strcmp(exam, "StateSpace")) {
        if (!complete) {
            printf("CANNOT_COMPUTE\n");
            return EXIT_INCOMPLETE;
        }
        printf("STATE_SPACE STATES %" PRIu64 " TECHNIQUES EXPLICIT\n",
               pn_reach_states(r));
        printf("STATE_SPACE TRANSITIONS %" PRIu64 " TECHNIQUES EXPLICIT\n",
               pn_reach_edges(r));
        printf("STATE_SPACE MAX_TOKEN_IN_PLACE %" PRIu64
               " TECHNIQUES EXPLICIT\n", pn_reach_max_tokens_in_place(r));
        /* a total past 2^64 - 1 has no line: the contest's is exact */
        if (pn_reach_max_tokens_per_marking(r) != UINT64_MAX)
            printf("STATE_SPACE MAX_TOKEN_PER_MARKING %" PRIu64
                   " TECHNIQUES EXPLICIT\n",
                   pn_reach_max_tokens_per_marking(r));
        return CLI_OK;
    }
    if (!strcmp(exam, "OneSafe")) {
        /* a net that is not bounded is not one-safe */
        int unsafe = pn_reach_max_tokens_in_place(r) > 1 ||
                     pn_reach_end(r) == PN_REACH_UNBOUNDED;
        mcc_formula(exam, complete || unsafe, !unsafe);
    } else if (!strcmp(exam, "Liveness")) {
        int live = 0;
        int known = complete && pn_reach_live(r, &live) == PN_OK;
        mcc_formula(exam, known, live);
    } else if (!strcmp(exam, "QuasiLiveness")) {
        int all = 1;
        for (size_t t = 0; t < pn_net_transition_count(net); t++)
            all &= pn_reach_transition_fires(r, t) != 0;
        mcc_formula(exam, complete || all, all);
    } else {
        /* every place seen to change proves FALSE, if any was seen */
        int stable = pn_reach_stable_place(r);
        mcc_formula(exam, complete || (!stable && pn_reach_states(r) > 0),
                    stable);
    }
    return complete ? CLI_OK : EXIT_INCOMPLETE;
}

/* The examinations answered from a property file (DIR/EXAM.xml) or as a
 * query (ReachabilityDeadlock: EF deadlock). */
static int is_query_exam(const char *e)
{
    return !strcmp(e, "UpperBounds") ||
           !strcmp(e, "ReachabilityCardinality") ||
           !strcmp(e, "CTLCardinality") || !strcmp(e, "CTLFireability") ||
           !strcmp(e, "LTLCardinality") || !strcmp(e, "LTLFireability") ||
           !strcmp(e, "ReachabilityFireability") ||
           !strcmp(e, "ReachabilityDeadlock");
}

static int is_mcc_exam(const char *e)
{
    static const char *const exams[] = {"StateSpace", "OneSafe",
                                        "QuasiLiveness", "StableMarking",
                                        "Liveness", NULL};
    for (int i = 0; exams[i]; i++)
        if (!strcmp(e, exams[i]))
            return 1;
    return is_query_exam(e);
}

/* The contest's answer lines of a query examination. */
static int mcc_queries(const pn_net_t *net, const pn_reach_t *r,
                       const pn_query_set_t *qs, const pn_query_answer_t *ans,
                       const opts_t *o, const live_t *live)
{
    int rc = CLI_OK, deadlock = !strcmp(o->mcc, "ReachabilityDeadlock");
    char buf[32], tech[128];
    for (size_t i = 0; i < qs->n; i++) {
        const char *w = answer_word(&qs->q[i], &ans[i], 1, buf, sizeof buf);
        techniques(live->tech[i], tech, sizeof tech);
        if (live->printed[i])
            ;
        else if (!w)
            printf(deadlock ? "CANNOT_COMPUTE\n"
                            : "FORMULA %s CANNOT_COMPUTE\n", qs->q[i].id);
        else
            printf("FORMULA %s %s TECHNIQUES %s\n", qs->q[i].id, w, tech);
        int wr = query_witness(net, r, &qs->q[i], &ans[i], o);
        if (!rc)
            rc = wr;
    }
    return rc;
}

/* ---- main ----------------------------------------------------------------- */

/* The net: FILE, or DIR/model.pnml for --mcc. */
static int load(const opts_t *o, pn_net_t **net)
{
    char path[4096];
    if (o->mcc)
        snprintf(path, sizeof path, "%s/model.pnml", o->file);
    return cli_read_net(prog, o->mcc ? path : o->file, &o->rd, net);
}

/* The queries: --mcc's property file, or the --query texts. */
static int load_queries(const opts_t *o, const pn_net_t *net,
                        pn_query_set_t **qs)
{
    pn_error_t err;
    *qs = NULL;
    if (o->mcc && !strcmp(o->mcc, "ReachabilityDeadlock")) {
        pn_query_set_t *s = pn_query_set_new();
        if (!s || pn_query_parse(s, "EF deadlock", net, &err)) {
            pn_query_set_free(s);
            fprintf(stderr, "%s: out of memory\n", prog);
            return CLI_EINPUT;
        }
        free(s->q[0].id);
        if (!(s->q[0].id = strdup("ReachabilityDeadlock"))) {
            pn_query_set_free(s);
            fprintf(stderr, "%s: out of memory\n", prog);
            return CLI_EINPUT;
        }
        *qs = s;
        return CLI_OK;
    }
    if (o->mcc) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.xml", o->file, o->mcc);
        if (pn_mcc_queries_read(path, net, qs, &err)) {
            cli_error(prog, &err);
            return CLI_EINPUT;
        }
        for (size_t i = 0; i < (*qs)->n; i++)
            if (((*qs)->q[i].kind == PN_QUERY_BOUND) !=
                !strcmp(o->mcc, "UpperBounds")) {
                fprintf(stderr, "%s: %s:%lu: property '%s': %s [PN_EQUERY]\n",
                        prog,
                        path, (*qs)->q[i].line, (*qs)->q[i].id,
                        !strcmp(o->mcc, "UpperBounds")
                            ? "not a <place-bound> (UpperBounds asks "
                              "for bounds only)"
                            : "a <place-bound> (that is UpperBounds' "
                              "question)");
                pn_query_set_free(*qs);
                *qs = NULL;
                return CLI_EINPUT;
            }
        /* each id names one answer line and one witness file */
        for (size_t i = 1; i < (*qs)->n; i++)
            for (size_t j = 0; j < i; j++)
                if (!strcmp((*qs)->q[i].id, (*qs)->q[j].id)) {
                    fprintf(stderr, "%s: %s:%lu: property '%s': the id of "
                            "the property of line %lu too [PN_EQUERY]\n",
                            prog, path, (*qs)->q[i].line, (*qs)->q[i].id,
                            (*qs)->q[j].line);
                    pn_query_set_free(*qs);
                    *qs = NULL;
                    return CLI_EINPUT;
                }
        return CLI_OK;
    }
    pn_query_set_t *s = pn_query_set_new();
    if (!s) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    for (size_t i = 0; i < o->nqueries; i++) {
        const char *text = o->queries[i];
        if (!strcmp(text, "deadlock"))
            text = "EF deadlock";
        if (pn_query_parse(s, text, net, &err)) {
            if (err.code == PN_ENOMEM)
                fprintf(stderr, "%s: out of memory\n", prog);
            else
                fprintf(stderr, "%s: --query '%s': column %lu: %s\n", prog,
                        o->queries[i], err.column, err.text);
            pn_query_set_free(s);
            return err.code == PN_ENOMEM ? CLI_EINPUT : CLI_EUSAGE;
        }
    }
    *qs = s;
    return CLI_OK;
}

/* --reduced: the net reduced for the first query (for none: every
 * place and transition kept in view), with what went on stderr. */
static int write_reduced(const pn_net_t *net, const pn_query_set_t *qs,
                         const char *path)
{
    pn_net_t *red = NULL;
    pn_status_t st = pn_reach_reduce(net, qs && qs->n ? &qs->q[0] : NULL,
                                     &red);
    if (st) {
        fprintf(stderr, "%s: --reduced: out of memory\n", prog);
        return CLI_EINPUT;
    }
    pn_write_options_t wo;
    pn_write_options_init(&wo);
    if (cli_write_net(red, path, &wo)) {
        pn_net_free(red);
        return CLI_EOUTPUT;
    }
    if (!cli_quiet())
        fprintf(stderr, "%s: %s: %zu of %zu places, %zu of %zu transitions"
                "%s%s\n", prog, path, pn_net_place_count(red),
                pn_net_place_count(net), pn_net_transition_count(red),
                pn_net_transition_count(net),
                qs && qs->n ? " for query " : "",
                qs && qs->n ? qs->q[0].id : "");
    pn_net_free(red);
    return CLI_OK;
}

/* The contest's harness gives the time (BK_TIME_CONFINEMENT, seconds)
 * and memory (BK_MEMORY_CONFINEMENT, MiB) it allows: a time limit with
 * room to print, and a memory limit with room for what the search's
 * tables do not count, unless the command line set them. */
static void mcc_confinement(opts_t *o)
{
    const char *t = getenv("BK_TIME_CONFINEMENT");
    const char *m = getenv("BK_MEMORY_CONFINEMENT");
    uint64_t v;
    if (o->time_limit <= 0 && t && !cli_parse_u64(t, 1, &v) && v < 1000000)
        o->time_limit = (double)v * 0.9;
    if (!o->ro.max_memory && m && !cli_parse_u64(m, 1, &v) && v < (1u << 30))
        o->ro.max_memory = v * 1048576 / 10 * 6;
}

/* The progress line: states, states per second, memory. */
typedef struct {
    double t0, last;
    int always, shown;
} progress_t;

static void on_progress(const pn_reach_t *r, void *ctx)
{
    progress_t *p = ctx;
    double t = cli_now();
    if ((!p->always && t - p->t0 < 1.0) || t - p->last < 0.5)
        return;
    p->last = t;
    p->shown = 1;
    fprintf(stderr, "\r%s: %" PRIu64 " states, %.0f states/s, %.1f MiB ",
            prog, pn_reach_states(r), pn_reach_states(r) / (t - p->t0),
            pn_reach_memory(r) / 1048576.0);
}

/* Whether the search on a budget may fire stubborn sets: they keep the
 * answers, not the shortest paths, the graph or its run lengths. */
static int stubborn_ok(const opts_t *o)
{
    return !o->no_stubborn && !o->trace && !o->longest && !o->graph.graph;
}

int main(int argc, char **argv)
{
    cli_init(prog, argc, argv);
    opts_t o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0) {
        free(o.queries);
        return rc;
    }
    if (o.mcc && !is_mcc_exam(o.mcc)) {
        fprintf(stderr, "%s: --mcc: '%s' is not an examination pn-reach "
                "answers (StateSpace, ReachabilityDeadlock, OneSafe, "
                "QuasiLiveness, StableMarking, Liveness, UpperBounds, "
                "ReachabilityCardinality, ReachabilityFireability, "
                "CTLCardinality, CTLFireability)\n",
                prog, o.mcc);
        free(o.queries);
        return CLI_EUSAGE;
    }
    if (o.mcc && o.nqueries) {
        fprintf(stderr, "%s: --query and --mcc: one or the other\n", prog);
        free(o.queries);
        return CLI_EUSAGE;
    }
    if (o.mcc) {
        mcc_confinement(&o);
        o.ro.graph = !strcmp(o.mcc, "Liveness"); /* its components */
        /* the state space's figures need no path to any state */
        o.ro.no_paths = !strcmp(o.mcc, "StateSpace");
    }
    else if (o.nqueries)
        o.ro.graph = o.longest != NULL; /* the longest path needs it */
    progress_t pr = {cli_now(), 0, o.progress, 0};
    if (!cli_quiet() && (o.progress || isatty(2))) {
        o.ro.progress = on_progress;
        o.ro.progress_ctx = &pr;
    }
    pn_net_t *net;
    if ((rc = load(&o, &net))) {
        free(o.queries);
        return rc;
    }
    if (o.coverability) {
        rc = reach_coverability(prog, &o.graph, net, o.ro.max_states,
                                o.ro.max_memory);
        pn_net_free(net);
        free(o.queries);
        return rc;
    }
    /* the graph's size guard: the search stops just past the limit */
    int capped = o.graph.graph &&
                 (!o.ro.max_states || o.ro.max_states > o.graph.limit);
    if (capped)
        o.ro.max_states = o.graph.limit;
    pn_query_set_t *qs = NULL;
    pn_query_answer_t *ans = NULL;
    if ((o.nqueries || (o.mcc && is_query_exam(o.mcc))) &&
        (rc = load_queries(&o, net, &qs))) {
        pn_net_free(net);
        free(o.queries);
        return rc;
    }
    if ((o.reduced && (rc = write_reduced(net, qs, o.reduced))) ||
        (o.witness && (rc = witness_dir(o.witness)))) {
        pn_query_set_free(qs);
        pn_net_free(net);
        free(o.queries);
        return rc;
    }
    pn_reach_t *r = NULL;
    pn_status_t st;
    size_t nq = qs ? qs->n : 0;
    live_t live = {net, qs, &o, calloc(nq + 1, 1),
                   calloc(nq + 1, sizeof *live.tech)};
    ans = calloc(nq + 1, sizeof *ans);
    if (!ans || !live.printed || !live.tech)
        st = PN_ENOMEM;
    else if ((qs && o.mcc) || o.time_limit > 0) {
        /* the contest's way: cheap methods first, on the clock, each
         * answer printed as it comes */
        pn_reach_solve_options_t so = {.time_limit = o.time_limit,
                                       .seed = 1, .no_reduce = o.no_reduce,
                                       .no_simplify = o.no_simplify,
                                       .no_paths = !o.witness};
        so.on_answer = on_answer;
        so.ctx = &live;
        o.ro.stubborn = stubborn_ok(&o);
        st = pn_reach_solve(net, &o.ro, &so, qs, ans, &r);
    } else if (qs) {
        st = pn_reach_query(net, &o.ro, qs, ans, &r);
    } else {
        st = pn_reach_explore(net, &o.ro, &r);
    }
    if (pr.shown)
        fprintf(stderr, "\r%*s\r", 60, "");
    if (st) {
        fprintf(stderr, "%s: out of memory exploring the state space\n",
                prog);
        free(live.printed);
        free(live.tech);
        free(ans);
        pn_query_set_free(qs);
        pn_net_free(net);
        free(o.queries);
        return CLI_EINPUT;
    }
    if (capped && pn_reach_end(r) == PN_REACH_MAX_STATES)
        rc = reach_graph_write(prog, &o.graph, net, r, 1);
    else if (o.mcc && qs)
        rc = mcc_queries(net, r, qs, ans, &o, &live);
    else if (o.mcc)
        rc = mcc_answer(net, r, o.mcc);
    else {
        if (o.json) {
            print_json(net, r, &o);
            if (o.graph.all_dead)
                reach_all_dead(net, r, 1);
            if (qs)
                print_answers(net, r, qs, ans, 1, NULL);
            printf("}\n");
        } else {
            print_text(net, r, &o);
            if (o.graph.all_dead)
                reach_all_dead(net, r, 0);
            if (qs)
                print_answers(net, r, qs, ans, 0, live.printed);
        }
        rc = report_unbounded(net, r, &o, o.json ? NULL : stdout);
        for (size_t i = 0; !rc && qs && i < qs->n; i++)
            rc = query_witness(net, r, &qs->q[i], &ans[i], &o);
        if (!rc && o.trace)
            rc = write_trace(o.trace, 0, net, r, &o);
        if (!rc && o.longest)
            rc = write_trace(o.longest, 1, net, r, &o);
        if (!rc && o.graph.graph)
            rc = reach_graph_write(prog, &o.graph, net, r, 0);
    }
    if (o.mcc && !rc)
        rc = report_unbounded(net, r, &o, NULL);
    if (!rc)
        rc = end_status(r);
    free(live.printed);
    free(live.tech);
    free(ans);
    pn_query_set_free(qs);
    pn_reach_free(r);
    pn_net_free(net);
    free(o.queries);
    return rc;
}
