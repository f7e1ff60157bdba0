/* pn-reach: the state space of a net; does it deadlock, is it bounded,
 * how few and how many steps to its end. */
#include <config.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pn.h"

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
        "  -s, --semantics S     interleaving (default: one transition per\n"
        "                        edge) or maximal (every maximal step that\n"
        "                        pn-run can take)\n"
        "      --max-states N    stop after N markings (the result is then\n"
        "                        incomplete, exit status 4)\n"
        "      --token-bound N   stop when a place would hold more than N\n"
        "      --bounds          print the bound of every place\n"
        "  -t, --trace FILE      write the shortest path to a dead marking\n"
        "                        as a trace (pn-dot --trace draws it)\n"
        "      --longest FILE    write the longest path to a dead marking\n"
        "                        as a trace (a terminating net)\n"
        "  -f, --format FMT      text (default) or json\n"
        "      --mcc EXAM DIR    answer as the Model Checking Contest asks:\n"
        "                        DIR/model.pnml; EXAM is StateSpace,\n"
        "                        ReachabilityDeadlock, OneSafe,\n"
        "                        QuasiLiveness, StableMarking, Liveness or\n"
        "                        UpperBounds (DIR/UpperBounds.xml)\n"
        "      --net ID          read the <net> with this id\n"
        "  -h, --help            show this help and exit\n"
        "  -V, --version         show the version and exit\n"
        "\n"
        "Exit status: 0 complete, 1 the net could not be read, 2 bad\n"
        "command line, 3 an output could not be written, 4 a limit stopped\n"
        "the search (what was found is printed, marked incomplete).\n",
        prog);
}

enum { OPT_MAX_STATES = 128, OPT_TOKEN_BOUND, OPT_BOUNDS, OPT_LONGEST,
       OPT_MCC, OPT_NET };

typedef struct {
    pn_reach_options_t ro;
    pn_read_options_t rd;
    int bounds, json;
    const char *trace, *longest, *mcc, *file;
} opts_t;

static int parse_options(int argc, char **argv, opts_t *o)
{
    static const struct option longopts[] = {
        {"semantics", required_argument, NULL, 's'},
        {"max-states", required_argument, NULL, OPT_MAX_STATES},
        {"token-bound", required_argument, NULL, OPT_TOKEN_BOUND},
        {"bounds", no_argument, NULL, OPT_BOUNDS},
        {"trace", required_argument, NULL, 't'},
        {"longest", required_argument, NULL, OPT_LONGEST},
        {"format", required_argument, NULL, 'f'},
        {"mcc", required_argument, NULL, OPT_MCC},
        {"net", required_argument, NULL, OPT_NET},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    pn_reach_options_init(&o->ro);
    o->ro.graph = 1;
    int c;
    while ((c = getopt_long(argc, argv, "s:t:f:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (pn_semantics_parse(optarg, &o->ro.semantics)) {
                fprintf(stderr, "%s: --semantics: '%s' (interleaving or "
                        "maximal)\n", prog, optarg);
                return CLI_EUSAGE;
            }
            break;
        case OPT_MAX_STATES:
        case OPT_TOKEN_BOUND:
            if (cli_parse_u64(optarg, 1, c == OPT_MAX_STATES
                                             ? &o->ro.max_states
                                             : &o->ro.token_bound)) {
                fprintf(stderr, "%s: --%s: '%s' is not a number >= 1\n",
                        prog, c == OPT_MAX_STATES ? "max-states"
                                                  : "token-bound", optarg);
                return CLI_EUSAGE;
            }
            break;
        case OPT_BOUNDS: o->bounds = 1; break;
        case 't': o->trace = optarg; break;
        case OPT_LONGEST: o->longest = optarg; break;
        case 'f':
            if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
                fprintf(stderr, "%s: --format: '%s' (text or json)\n", prog,
                        optarg);
                return CLI_EUSAGE;
            }
            o->json = !strcmp(optarg, "json");
            break;
        case OPT_MCC: o->mcc = optarg; break;
        case OPT_NET: o->rd.net_id = optarg; break;
        default: return cli_common_option(prog, c, usage);
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
        fprintf(stderr, "%s: %s: no %s path to a dead marking to write%s\n",
                prog, path, longest ? "longest" : "",
                longest ? " (the search is incomplete or a run never ends)"
                        : "");
        return CLI_EOUTPUT;
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
    default: return "incomplete: a count would pass 2^63-1 (not bounded)";
    }
}

static void print_text(const pn_net_t *net, const pn_reach_t *r,
                       const opts_t *o)
{
    size_t nt = pn_net_transition_count(net);
    printf("net:         %s\n", pn_net_id(net) ? pn_net_id(net) : "-");
    printf("semantics:   %s\n", o->ro.semantics == PN_SEM_MAXIMAL
                                    ? "maximal steps" : "interleaving");
    printf("search:      %s\n", end_text(pn_reach_end(r)));
    printf("states:      %" PRIu64 "\n", pn_reach_states(r));
    printf("edges:       %" PRIu64 "\n", pn_reach_edges(r));
    printf("max tokens:  %" PRIu64 " in a place, %" PRIu64 " in a marking\n",
           pn_reach_max_tokens_in_place(r),
           pn_reach_max_tokens_per_marking(r));
    printf("dead:        %" PRIu64 " dead marking%s\n", pn_reach_dead(r),
           pn_reach_dead(r) == 1 ? "" : "s");
    size_t never = 0;
    for (size_t t = 0; t < nt; t++)
        never += !pn_reach_transition_fires(r, t);
    printf("never fire:  %zu transition%s", never, never == 1 ? "" : "s");
    for (size_t t = 0, shown = 0; t < nt && shown < 20; t++)
        if (!pn_reach_transition_fires(r, t)) {
            printf("%s%s", shown ? " " : ": ", pn_net_transition(net, t)->id);
            shown++;
        }
    printf("%s\n", never > 20 ? " ..." : "");
    int term = 0;
    uint64_t lo = 0, hi = 0;
    if (pn_reach_end(r) == PN_REACH_COMPLETE) {
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
            printf("bound:       %s %" PRIu64 "\n", pn_net_place(net, p)->id,
                   pn_reach_place_bound(r, p));
}

static void print_json(const pn_net_t *net, const pn_reach_t *r,
                       const opts_t *o)
{
    size_t nt = pn_net_transition_count(net);
    printf("{\"net\": ");
    cli_json_string(stdout, pn_net_id(net));
    printf(", \"semantics\": \"%s\", \"complete\": %s, \"states\": %" PRIu64
           ", \"edges\": %" PRIu64 ", \"max_tokens_in_place\": %" PRIu64
           ", \"max_tokens_per_marking\": %" PRIu64 ", \"dead\": %" PRIu64,
           o->ro.semantics == PN_SEM_MAXIMAL ? "maximal" : "interleaving",
           pn_reach_end(r) == PN_REACH_COMPLETE ? "true" : "false",
           pn_reach_states(r), pn_reach_edges(r),
           pn_reach_max_tokens_in_place(r),
           pn_reach_max_tokens_per_marking(r), pn_reach_dead(r));
    printf(", \"never_fire\": [");
    for (size_t t = 0, k = 0; t < nt; t++)
        if (!pn_reach_transition_fires(r, t)) {
            printf("%s", k++ ? ", " : "");
            cli_json_string(stdout, pn_net_transition(net, t)->id);
        }
    printf("]");
    int term = 0;
    uint64_t lo = 0, hi = 0;
    if (pn_reach_end(r) == PN_REACH_COMPLETE &&
        pn_reach_run_lengths(r, &term, &lo, &hi) == PN_OK && term &&
        pn_reach_dead(r))
        printf(", \"terminates\": true, \"min_steps\": %" PRIu64
               ", \"max_steps\": %" PRIu64, lo, hi);
    else if (pn_reach_end(r) == PN_REACH_COMPLETE)
        printf(", \"terminates\": %s", term ? "true" : "false");
    if (o->bounds) {
        printf(", \"bounds\": {");
        for (size_t p = 0; p < pn_net_place_count(net); p++) {
            printf("%s", p ? ", " : "");
            cli_json_string(stdout, pn_net_place(net, p)->id);
            printf(": %" PRIu64, pn_reach_place_bound(r, p));
        }
        printf("}");
    }
    printf("}\n");
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
        printf("STATE_SPACE MAX_TOKEN_PER_MARKING %" PRIu64
               " TECHNIQUES EXPLICIT\n", pn_reach_max_tokens_per_marking(r));
        return CLI_OK;
    }
    if (!strcmp(exam, "ReachabilityDeadlock")) {
        /* a dead marking found is one for sure */
        mcc_formula(exam, complete || pn_reach_dead(r), pn_reach_dead(r) > 0);
    } else if (!strcmp(exam, "OneSafe")) {
        int unsafe = pn_reach_max_tokens_in_place(r) > 1;
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
        int stable = pn_reach_stable_place(r);
        mcc_formula(exam, complete || !stable, stable);
    }
    return complete ? CLI_OK : EXIT_INCOMPLETE;
}

/* UpperBounds: for each property of DIR/UpperBounds.xml, the largest
 * total of its places over the markings found. */
static int mcc_upper_bounds(const pn_net_t *net, const pn_reach_t *r,
                            const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/UpperBounds.xml", dir);
    pn_mcc_bounds_t *b;
    pn_error_t err;
    if (pn_mcc_bounds_read(path, net, &b, &err)) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    size_t np = pn_net_place_count(net), nb = pn_mcc_bounds_count(b);
    uint64_t *m = malloc((np + 1) * sizeof *m);
    uint64_t *best = calloc(nb + 1, sizeof *best);
    if (!m || !best) {
        free(m);
        free(best);
        pn_mcc_bounds_free(b);
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    for (uint64_t s = 0; s < pn_reach_states(r); s++) {
        pn_reach_marking(r, s, m);
        for (size_t i = 0; i < nb; i++) {
            size_t n;
            const size_t *pl = pn_mcc_bound_places(b, i, &n);
            uint64_t sum = 0;
            for (size_t k = 0; k < n; k++)
                sum = sum > UINT64_MAX - m[pl[k]] ? UINT64_MAX
                                                  : sum + m[pl[k]];
            if (sum > best[i])
                best[i] = sum;
        }
    }
    int complete = pn_reach_end(r) == PN_REACH_COMPLETE;
    for (size_t i = 0; i < nb; i++) {
        if (complete)
            printf("FORMULA %s %" PRIu64 " TECHNIQUES EXPLICIT\n",
                   pn_mcc_bound_id(b, i), best[i]);
        else
            printf("FORMULA %s CANNOT_COMPUTE\n", pn_mcc_bound_id(b, i));
    }
    free(m);
    free(best);
    pn_mcc_bounds_free(b);
    return complete ? CLI_OK : EXIT_INCOMPLETE;
}

static int is_mcc_exam(const char *e)
{
    static const char *const exams[] = {"StateSpace", "ReachabilityDeadlock",
                                        "OneSafe", "QuasiLiveness",
                                        "StableMarking", "Liveness",
                                        "UpperBounds", NULL};
    for (int i = 0; exams[i]; i++)
        if (!strcmp(e, exams[i]))
            return 1;
    return 0;
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

int main(int argc, char **argv)
{
    cli_init(prog);
    opts_t o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (o.mcc && !is_mcc_exam(o.mcc)) {
        fprintf(stderr, "%s: --mcc: '%s' is not an examination pn-reach "
                "answers (StateSpace, ReachabilityDeadlock, OneSafe, "
                "QuasiLiveness, StableMarking, Liveness, UpperBounds)\n",
                prog, o.mcc);
        return CLI_EUSAGE;
    }
    if (o.mcc)
        o.ro.graph = !strcmp(o.mcc, "Liveness"); /* its components */
    pn_net_t *net;
    if ((rc = load(&o, &net)))
        return rc;
    pn_reach_t *r = NULL;
    if (pn_reach_explore(net, &o.ro, &r)) {
        fprintf(stderr, "%s: out of memory exploring the state space\n",
                prog);
        pn_net_free(net);
        return CLI_EINPUT;
    }
    if (o.mcc && !strcmp(o.mcc, "UpperBounds"))
        rc = mcc_upper_bounds(net, r, o.file);
    else if (o.mcc)
        rc = mcc_answer(net, r, o.mcc);
    else {
        if (o.json)
            print_json(net, r, &o);
        else
            print_text(net, r, &o);
        if (o.trace)
            rc = write_trace(o.trace, 0, net, r, &o);
        if (!rc && o.longest)
            rc = write_trace(o.longest, 1, net, r, &o);
        if (!rc && pn_reach_end(r) != PN_REACH_COMPLETE)
            rc = EXIT_INCOMPLETE;
    }
    pn_reach_free(r);
    pn_net_free(net);
    return rc;
}
