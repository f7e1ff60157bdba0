/* pn-run: run a PNML net to its dead marking with step semantics. */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "pn.h"

static const char *prog = "pn-run";

/* Exit codes beyond the common ones (cli.h). */
enum { EXIT_LIMIT = 4, EXIT_OVERFLOW = 5 };

#define DEFAULT_MAX_STEPS UINT64_C(100000000)

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Run the PNML net in FILE ('-' reads standard input) from its initial\n"
        "marking to the dead marking and print the number of steps.\n"
        "\n"
        "  -s, --seed S          random seed (default 1); the same seed gives the\n"
        "                        same run on any machine and with any --jobs\n"
        "      --semantics SEM   maximal (default): maximal concurrent steps in a\n"
        "                        random conflict order; interleaving: one random\n"
        "                        enabled transition per step\n"
        "      --max-steps N     stop after N steps (default 100000000)\n"
        "  -c, --count ID        print the firing count of transition ID (may be\n"
        "                        repeated, or IDs separated by commas)\n"
        "      --counts          print the firing count of every transition\n"
        "  -m, --marking         print the final marking (places with tokens)\n"
        "  -n, --runs N          N independent runs (seeds derived from --seed)\n"
        "  -j, --jobs J          threads for --runs (default: the number of cores)\n"
        "  -t, --trace FILE      write the transitions fired in every step to FILE\n"
        "                        (one run; format in pn-run(1))\n"
        "      --snapshot K      in the trace, the marking every K steps\n"
        "  -f, --format FMT      text (default), csv or json\n"
        "      --reference       use the reference engine (recomputes the enabled\n"
        "                        set every step; for checking, slow)\n"
        "      --net ID          read the <net> with this id\n"
        "  -q, --quiet           no progress line\n"
        "  -h, --help            show this help and exit\n"
        "  -V, --version         show the version and exit\n"
        "\n"
        "Exit status: 0 dead marking reached (every run), 1 the net could not be\n"
        "read, 2 bad command line, 3 an output could not be written, 4 the step\n"
        "limit came first, 5 a token count would exceed 2^63-1 (unbounded net).\n"
        "SIGINT or SIGTERM during --runs: the runs under way finish, the finished\n"
        "ones are printed, marked interrupted, and pn-run dies of the signal\n"
        "(status 130 or 143).\n",
        prog);
}

enum { OPT_SEMANTICS = 128, OPT_MAX_STEPS, OPT_COUNTS, OPT_SNAPSHOT,
       OPT_REFERENCE, OPT_NET };

typedef enum { FMT_TEXT, FMT_CSV, FMT_JSON } fmt_t;

typedef struct {
    uint64_t seed, max_steps, runs, snapshot;
    unsigned jobs;
    pn_semantics_t sem;
    int reference, all_counts, marking, quiet;
    fmt_t fmt;
    const char *trace;
    size_t *count_idx; /* transitions whose counts are printed */
    size_t ncount;
    const char *file;  /* the net ('-': standard input) */
    pn_read_options_t ro;
    const char **count_args; /* the --count lists, read once the net is */
    size_t ncount_args;
} opts_t;

/* ---- one run with a trace ---------------------------------------------- */

/* Runs sim to the end, writing the trace when f is not NULL. */
static pn_end_t run_traced(pn_sim_t *sim, const pn_net_t *net, const opts_t *o,
                           FILE *f)
{
    if (!f)
        return pn_sim_run(sim, o->max_steps);
    if (o->snapshot)
        pn_trace_write_marking(f, net, 0, pn_sim_marking(sim));
    pn_end_t end = PN_END_NONE;
    while (end == PN_END_NONE) {
        if (pn_sim_steps(sim) >= o->max_steps) {
            end = pn_sim_run(sim, o->max_steps);
            break;
        }
        pn_sim_step(sim, &end);
        if (end != PN_END_NONE)
            break;
        size_t n;
        const uint32_t *fired = pn_sim_fired(sim, &n);
        pn_trace_write_step(f, net, pn_sim_steps(sim), fired, n);
        if (o->snapshot && pn_sim_steps(sim) % o->snapshot == 0)
            pn_trace_write_marking(f, net, pn_sim_steps(sim),
                                   pn_sim_marking(sim));
    }
    pn_trace_write_end(f, end, pn_sim_steps(sim));
    return end;
}

/* ---- many runs on threads ---------------------------------------------- */

typedef struct {
    const pn_engine_t *engine;
    const opts_t *o;
    uint64_t next; /* next run index to take */
    uint64_t done;
    pthread_mutex_t lock;
    double *steps;  /* runs */
    double *counts; /* runs x ncount */
    pn_end_t *ends;
    int failed;     /* out of memory in a worker */
} pool_t;

static void *worker(void *arg)
{
    pool_t *pl = arg;
    const opts_t *o = pl->o;
    for (;;) {
        /* after SIGINT or SIGTERM, no new run: the ones under way finish */
        pthread_mutex_lock(&pl->lock);
        int stop = cli_signal_pending() != 0;
        uint64_t i = stop ? o->runs : pl->next++;
        pthread_mutex_unlock(&pl->lock);
        if (i >= o->runs)
            break;
        pn_sim_t *sim = pn_sim_new(pl->engine, pn_run_seed(o->seed, i), o->sem,
                                   o->reference);
        if (!sim) {
            pl->failed = 1;
            break;
        }
        pl->ends[i] = pn_sim_run(sim, o->max_steps);
        pl->steps[i] = (double)pn_sim_steps(sim);
        const uint64_t *c = pn_sim_counts(sim);
        for (size_t k = 0; k < o->ncount; k++)
            pl->counts[i * o->ncount + k] = (double)c[o->count_idx[k]];
        pn_sim_free(sim);
        pthread_mutex_lock(&pl->lock);
        pl->done++;
        pthread_mutex_unlock(&pl->lock);
    }
    return NULL;
}

static void print_stats_row(const char *name, const pn_stats_t *s, fmt_t fmt,
                            int first)
{
    if (fmt == FMT_CSV)
        printf("%s,%zu,%.6f,%.6f,%.17g,%.17g,%.17g,%.6f,%.6f\n", name, s->n,
               s->mean, s->sd, s->min, s->median, s->max, s->ci_low,
               s->ci_high);
    else if (fmt == FMT_JSON) {
        printf("%s    ", first ? "" : ",\n");
        cli_json_string(stdout, name);
        printf(": {\"mean\": %.6f, \"sd\": %.6f, \"min\": %.17g, "
               "\"median\": %.17g, \"max\": %.17g, \"ci95\": [%.6f, %.6f]}",
               s->mean, s->sd, s->min, s->median, s->max, s->ci_low,
               s->ci_high);
    } else
        printf("%-24s mean %.3f  sd %.3f  min %.17g  median %.17g  max %.17g  "
               "ci95 [%.3f, %.3f]\n", name, s->mean, s->sd, s->min, s->median,
               s->max, s->ci_low, s->ci_high);
}

static int many_runs(const pn_net_t *net, const pn_engine_t *engine,
                     const opts_t *o)
{
    cli_defer_signals(); /* a signal stops the runs; the finished are shown */
    pool_t pl = {0};
    pl.engine = engine;
    pl.o = o;
    pthread_mutex_init(&pl.lock, NULL);
    pl.steps = calloc(o->runs, sizeof *pl.steps);
    pl.counts = calloc(o->runs * (o->ncount ? o->ncount : 1),
                       sizeof *pl.counts);
    pl.ends = calloc(o->runs, sizeof *pl.ends);
    unsigned jobs = o->jobs;
    if ((uint64_t)jobs > o->runs)
        jobs = (unsigned)o->runs;
    pthread_t *th = calloc(jobs, sizeof *th);
    if (!pl.steps || !pl.counts || !pl.ends || !th) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    unsigned started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&th[started], NULL, worker, &pl) != 0)
            break;
    if (started == 0)
        worker(&pl);
    /* a progress line on a terminal, once the work takes a while */
    int tty = !o->quiet && isatty(2);
    double t0 = cli_now(), last = t0;
    int shown = 0;
    while (tty) {
        pthread_mutex_lock(&pl.lock);
        uint64_t done = pl.done;
        pthread_mutex_unlock(&pl.lock);
        if (done >= o->runs || cli_signal_pending())
            break;
        double t = cli_now();
        if (t - t0 > 1.0 && t - last > 0.25) {
            fprintf(stderr, "\r%s: %" PRIu64 "/%" PRIu64 " runs", prog, done,
                    o->runs);
            last = t;
            shown = 1;
        }
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
    }
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (shown)
        fprintf(stderr, "\r%*s\r", 40, "");
    free(th);
    pthread_mutex_destroy(&pl.lock);
    if (pl.failed) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    /* interrupted: the runs taken (0 to next - 1) are the runs finished */
    int sig = cli_signal_pending();
    uint64_t runs = sig && pl.next < o->runs ? pl.next : o->runs;
    uint64_t nd = 0, nl = 0, no = 0;
    for (uint64_t i = 0; i < runs; i++) {
        nd += pl.ends[i] == PN_END_DEAD;
        nl += pl.ends[i] == PN_END_LIMIT;
        no += pl.ends[i] == PN_END_OVERFLOW;
    }
    pn_stats_t st;
    pn_stats_compute(pl.steps, runs, &st);
    double *col = malloc((runs ? runs : 1) * sizeof *col);
    if (o->fmt == FMT_CSV)
        printf("measure,n,mean,sd,min,median,max,ci95_low,ci95_high\n");
    else if (o->fmt == FMT_JSON) {
        printf("{\"runs\": %" PRIu64, runs);
        if (sig)
            printf(", \"interrupted\": true, \"requested\": %" PRIu64,
                   o->runs);
        printf(", \"seed\": %" PRIu64 ", \"dead\": %" PRIu64 ", \"limit\": %"
               PRIu64 ", \"overflow\": %" PRIu64 ",\n  \"stats\": {\n",
               o->seed, nd, nl, no);
    } else {
        printf("runs: %" PRIu64, runs);
        if (sig)
            printf(" of %" PRIu64 ", interrupted", o->runs);
        printf(" (seed %" PRIu64 "): dead %" PRIu64 ", limit %" PRIu64
               ", overflow %" PRIu64 "\n", o->seed, nd, nl, no);
    }
    print_stats_row("steps", &st, o->fmt, 1);
    for (size_t k = 0; col && k < o->ncount; k++) {
        for (uint64_t i = 0; i < runs; i++)
            col[i] = pl.counts[i * o->ncount + k];
        pn_stats_compute(col, runs, &st);
        char name[600];
        snprintf(name, sizeof name, "count:%s",
                 pn_net_transition(net, o->count_idx[k])->id);
        print_stats_row(name, &st, o->fmt, 0);
    }
    if (o->fmt == FMT_JSON)
        printf("\n  }\n}\n");
    else if (o->fmt == FMT_CSV && sig)
        printf("interrupted,%" PRIu64 ",,,,,,,\n", runs);
    free(col);
    free(pl.steps);
    free(pl.counts);
    free(pl.ends);
    if (sig) {
        fprintf(stderr, "%s: interrupted: %" PRIu64 " of %" PRIu64 " runs "
                "finished\n", prog, runs, o->runs);
        return -sig;
    }
    return no ? EXIT_OVERFLOW : nl ? EXIT_LIMIT : CLI_OK;
}

/* ---- one run ------------------------------------------------------------ */

static int one_run(const pn_net_t *net, const pn_engine_t *engine,
                   const opts_t *o)
{
    pn_sim_t *sim = pn_sim_new(engine, o->seed, o->sem, o->reference);
    if (!sim) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    FILE *tf = NULL;
    char *tmp = NULL;
    if (o->trace) {
        if (!(tf = cli_output_open(o->trace, &tmp))) {
            pn_sim_free(sim);
            return CLI_EOUTPUT;
        }
        pn_trace_write_header(tf, net, o->seed, o->sem);
    }
    pn_end_t end = run_traced(sim, net, o, tf);
    int rc = tf ? cli_output_close(tf, tmp, o->trace, 1) : CLI_OK;
    uint64_t steps = pn_sim_steps(sim);
    if (end == PN_END_OVERFLOW) {
        size_t p = pn_sim_overflow_place(sim);
        fprintf(stderr, "%s: the count of place '%s' would exceed 2^63-1 in "
                "step %" PRIu64 ": the net is not bounded\n", prog,
                pn_net_place(net, p)->id, steps + 1);
        pn_sim_free(sim);
        return EXIT_OVERFLOW;
    }
    const uint64_t *c = pn_sim_counts(sim), *m = pn_sim_marking(sim);
    size_t nt = pn_net_transition_count(net), np = pn_net_place_count(net);
    if (o->fmt == FMT_JSON) {
        printf("{\"steps\": %" PRIu64 ", \"end\": \"%s\", \"seed\": %" PRIu64
               ", \"firings\": %" PRIu64, steps, pn_end_name(end), o->seed,
               pn_sim_firings(sim));
        if (o->ncount) {
            printf(", \"counts\": {");
            for (size_t k = 0; k < o->ncount; k++) {
                printf(k ? ", " : "");
                cli_json_string(stdout, pn_net_transition(net, o->count_idx[k])->id);
                printf(": %" PRIu64, c[o->count_idx[k]]);
            }
            printf("}");
        }
        if (o->marking) {
            printf(", \"marking\": {");
            int first = 1;
            for (size_t p = 0; p < np; p++)
                if (m[p]) {
                    printf(first ? "" : ", ");
                    first = 0;
                    cli_json_string(stdout, pn_net_place(net, p)->id);
                    printf(": %" PRIu64, m[p]);
                }
            printf("}");
        }
        printf("}\n");
    } else if (o->fmt == FMT_CSV) {
        printf("measure,value\nsteps,%" PRIu64 "\nend,%s\nfirings,%" PRIu64
               "\n", steps, pn_end_name(end), pn_sim_firings(sim));
        for (size_t k = 0; k < o->ncount; k++)
            printf("count:%s,%" PRIu64 "\n",
                   pn_net_transition(net, o->count_idx[k])->id,
                   c[o->count_idx[k]]);
        if (o->marking)
            for (size_t p = 0; p < np; p++)
                if (m[p])
                    printf("marking:%s,%" PRIu64 "\n",
                           pn_net_place(net, p)->id, m[p]);
    } else {
        printf("steps: %" PRIu64 "\n", steps);
        printf("end: %s\n", end == PN_END_DEAD ? "dead marking"
                            : "step limit reached (no dead marking)");
        printf("firings: %" PRIu64 "\n", pn_sim_firings(sim));
        for (size_t k = 0; k < o->ncount; k++)
            printf("count %s: %" PRIu64 "\n",
                   pn_net_transition(net, o->count_idx[k])->id,
                   c[o->count_idx[k]]);
        if (o->marking) {
            printf("marking:");
            int any = 0;
            for (size_t p = 0; p < np; p++)
                if (m[p]) {
                    printf(" %s=%" PRIu64, pn_net_place(net, p)->id, m[p]);
                    any = 1;
                }
            printf("%s\n", any ? "" : " (empty)");
        }
    }
    (void)nt;
    pn_sim_free(sim);
    if (rc)
        return rc;
    if (end == PN_END_LIMIT) {
        fprintf(stderr, "%s: no dead marking within %" PRIu64 " steps "
                "(pn-reach says whether one is reachable at all)\n", prog,
                o->max_steps);
        return EXIT_LIMIT;
    }
    return CLI_OK;
}

/* Adds the transitions named in a comma-separated list. */
static int add_counts(opts_t *o, const pn_net_t *net, const char *list)
{
    char *copy = strdup(list);
    char *save = NULL;
    for (char *id = strtok_r(copy, ",", &save); id;
         id = strtok_r(NULL, ",", &save)) {
        pn_object_t k;
        size_t i;
        if (pn_net_find(net, id, &k, &i) != PN_OK || k != PN_TRANSITION) {
            fprintf(stderr, "%s: --count: '%s' is not a transition of the "
                    "net\n", prog, id);
            free(copy);
            return -1;
        }
        o->count_idx[o->ncount++] = i;
    }
    free(copy);
    return 0;
}

/* The transitions whose counts are printed: every one with --counts, else
 * those of the --count lists.  Returns CLI_OK, or CLI_EUSAGE for a name that
 * is not a transition of the net. */
static int pick_counts(opts_t *o, const pn_net_t *net)
{
    size_t nt = pn_net_transition_count(net);
    size_t room = nt + 1;
    for (size_t i = 0; i < o->ncount_args; i++)
        room += strlen(o->count_args[i]) + 1;
    o->count_idx = calloc(room, sizeof *o->count_idx);
    if (o->all_counts)
        for (size_t i = 0; i < nt; i++)
            o->count_idx[o->ncount++] = i;
    for (size_t i = 0; i < o->ncount_args && !o->all_counts; i++)
        if (add_counts(o, net, o->count_args[i]) < 0)
            return CLI_EUSAGE;
    return CLI_OK;
}

static int compile(const pn_net_t *net, const char *file, pn_engine_t **engine)
{
    if (pn_engine_compile(net, engine) != PN_OK) {
        fprintf(stderr, "%s: %s: the net is too large to compile\n", prog,
                file);
        return CLI_EINPUT;
    }
    return CLI_OK;
}

/* ---- the command line --------------------------------------------------- */

/* A number option: arg, a whole number from min to max, into *out.  Returns
 * -1 to go on, or CLI_EUSAGE after "OPT: 'ARG' is not a number<range>", or
 * for a number out of the range, "OPT: ARG is not allowed: a number<range>".
 */
static int number(const char *opt, const char *arg, uint64_t min,
                  uint64_t max, const char *range, uint64_t *out)
{
    if (cli_parse_u64(arg, 0, out)) {
        fprintf(stderr, "%s: %s: '%s' is not a number%s\n", prog, opt, arg,
                range);
        return CLI_EUSAGE;
    }
    if (*out < min || *out > max) {
        fprintf(stderr, "%s: %s: %s is not allowed: a number%s\n", prog, opt,
                arg, range);
        return CLI_EUSAGE;
    }
    return -1;
}

/* Takes option c with its argument.  Returns an exit code, or -1 to go on. */
static int set_option(opts_t *o, int c, const char *arg)
{
    uint64_t v;
    int rc;
    switch (c) {
    case 's':
        return number("--seed", arg, 0, UINT64_MAX, " from 0 to 2^64-1",
                      &o->seed);
    case OPT_SEMANTICS:
        if (pn_semantics_parse(arg, &o->sem)) {
            fprintf(stderr, "%s: --semantics: '%s' (maximal or "
                    "interleaving)\n", prog, arg);
            return CLI_EUSAGE;
        }
        break;
    case OPT_MAX_STEPS:
        return number("--max-steps", arg, 0, UINT64_MAX, "", &o->max_steps);
    case 'c': o->count_args[o->ncount_args++] = arg; break;
    case OPT_COUNTS: o->all_counts = 1; break;
    case 'm': o->marking = 1; break;
    case 'n':
        return number("--runs", arg, 1, 100000000, " from 1 to 100000000",
                      &o->runs);
    case 'j':
        if ((rc = number("--jobs", arg, 1, 1024, " from 1 to 1024", &v)) < 0)
            o->jobs = (unsigned)v;
        return rc;
    case 't': o->trace = arg; break;
    case OPT_SNAPSHOT:
        return number("--snapshot", arg, 1, UINT64_MAX,
                      " from 1 to 2^64-1 (a marking every K steps)",
                      &o->snapshot);
    case 'f':
        if (!strcmp(arg, "text"))
            o->fmt = FMT_TEXT;
        else if (!strcmp(arg, "csv"))
            o->fmt = FMT_CSV;
        else if (!strcmp(arg, "json"))
            o->fmt = FMT_JSON;
        else {
            fprintf(stderr, "%s: --format: '%s' (text, csv or json)\n", prog,
                    arg);
            return CLI_EUSAGE;
        }
        break;
    case OPT_REFERENCE: o->reference = 1; break;
    case OPT_NET: o->ro.net_id = arg; break;
    case 'q': o->quiet = 1; break;
    default: return cli_common_option(prog, c, usage);
    }
    return -1;
}

/* Reads the command line into o (o->count_args: room for argc lists).
 * Returns an exit code, or -1 to go on. */
static int parse_options(int argc, char **argv, opts_t *o)
{
    static const struct option longopts[] = {
        {"seed", required_argument, NULL, 's'},
        {"semantics", required_argument, NULL, OPT_SEMANTICS},
        {"max-steps", required_argument, NULL, OPT_MAX_STEPS},
        {"count", required_argument, NULL, 'c'},
        {"counts", no_argument, NULL, OPT_COUNTS},
        {"marking", no_argument, NULL, 'm'},
        {"runs", required_argument, NULL, 'n'},
        {"jobs", required_argument, NULL, 'j'},
        {"trace", required_argument, NULL, 't'},
        {"snapshot", required_argument, NULL, OPT_SNAPSHOT},
        {"format", required_argument, NULL, 'f'},
        {"reference", no_argument, NULL, OPT_REFERENCE},
        {"net", required_argument, NULL, OPT_NET},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    o->seed = 1;
    o->max_steps = DEFAULT_MAX_STEPS;
    o->runs = 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (unsigned)cores : 1;
    int c, rc;
    while ((c = getopt_long(argc, argv, "s:c:mn:j:t:f:qhV", longopts, NULL)) !=
           -1)
        if ((rc = set_option(o, c, optarg)) >= 0)
            return rc;
    if (!(o->file = cli_one_file(prog, argc, argv, optind)))
        return CLI_EUSAGE;
    if (o->trace && o->runs) {
        fprintf(stderr, "%s: --trace records one run; leave out --runs\n",
                prog);
        return CLI_EUSAGE;
    }
    if (o->snapshot && !o->trace) {
        fprintf(stderr, "%s: --snapshot needs --trace\n", prog);
        return CLI_EUSAGE;
    }
    return -1;
}

int main(int argc, char **argv)
{
    /* on the stack: every early return below stays leak-free */
    const char *count_args[argc + 1];
    opts_t o = {.count_args = count_args};
    cli_init(prog);
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    pn_net_t *net;
    if ((rc = cli_read_net(prog, o.file, &o.ro, &net)) != CLI_OK)
        return rc;
    /* what the file says that the run cannot take into account (timing,
     * transport arcs, ...): said once, before the results */
    for (size_t i = 0; i < pn_net_warning_count(net); i++)
        fprintf(stderr, "%s: warning: %s\n", prog, pn_net_warning(net, i));
    pn_engine_t *engine = NULL;
    rc = pick_counts(&o, net);
    if (rc == CLI_OK)
        rc = compile(net, o.file, &engine);
    if (rc == CLI_OK)
        rc = o.runs ? many_runs(net, engine, &o) : one_run(net, engine, &o);
    pn_engine_free(engine);
    free(o.count_idx);
    pn_net_free(net);
    if (rc < 0) /* --runs stopped by a signal: dies of it, as asked */
        cli_die_of_signal(-rc);
    return rc;
}
