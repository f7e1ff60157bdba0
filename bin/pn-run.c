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
#include "run-stochastic.h"

static const char *prog = "pn-run";

/* Exit codes beyond the common ones (cli.h). */
enum { EXIT_LIMIT = 4, EXIT_OVERFLOW = 5 };

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Run the PNML net in FILE ('-' reads standard input) from its initial\n"
        "marking to the dead marking and print the number of steps.\n"
        "\n"
        "  -s, --seed S          random seed (default 1); the same seed gives the\n"
        "                        same run on any machine and with any --jobs\n"
        "      --semantics SEM   maximal (default: a step is a clock tick):\n"
        "                        maximal concurrent steps in a random conflict\n"
        "                        order; interleaving (pn-reach's default;\n"
        "                        pn-run(1) says why the two differ): one\n"
        "                        random enabled transition per step;\n"
        "                        stochastic: the net's timing (GSPN) in\n"
        "                        continuous time, estimates with confidence\n"
        "                        intervals (the options below)\n"
        "      --time T1,T2,...  stochastic: the transient at these times, by\n"
        "                        independent runs (default: the steady state,\n"
        "                        by batch means after an MSER-5 warm-up)\n"
        "      --confidence C    stochastic: of the intervals (default 0.95)\n"
        "      --accuracy R      stochastic: simulate until every half-width\n"
        "                        is within R times its mean (default 0.05)\n"
        "      --condition F     stochastic: estimate the probability of F, a\n"
        "                        condition on the marking in pn-reach's query\n"
        "                        form (\"P1 >= 2 && !fireable(T3)\"); may be\n"
        "                        repeated\n"
        "      --max-steps N     stop after N steps (default 100000000); a run\n"
        "                        stopped there is a limited run (exit 4);\n"
        "                        stochastic: the firings of a run at most\n"
        "      --steps N         run exactly N steps (for nets that never die):\n"
        "                        reaching N is success; limited runs are counted\n"
        "                        in the statistics\n"
        "      --include-limited with --runs: the statistics take the runs stopped\n"
        "                        at the step limit too (default: dead runs only)\n"
        "  -c, --count ID        print the firing count of transition ID (may be\n"
        "                        repeated, or IDs separated by commas)\n"
        "      --counts          print the firing count of every transition\n"
        "      --marking         print the final marking (places with tokens)\n"
        "  -n, --runs N          N independent runs (seeds derived from --seed);\n"
        "                        stochastic: the runs at most (default 100000)\n"
        "      --per-run         with --runs and csv or json: a row for each run\n"
        "                        too\n"
        "  -j, --jobs J          threads for --runs (default: the number of cores);\n"
        "                        stochastic: for the independent runs (the\n"
        "                        answer is the same for any J)\n"
        "  -t, --trace FILE      write the transitions fired in every step to FILE\n"
        "                        (one run; format in pn-run(1))\n"
        "      --snapshot K      in the trace, the marking every K steps\n"
        "  -f, --format FMT      text (default), csv or json (JSON Lines; jsonl\n"
        "                        too): the result schema of pn-sweep(1)\n"
        "      --reference       use the reference engine (recomputes the enabled\n"
        "                        set every step; for checking, slow)\n"
        "      --net ID          read the <net> with this id\n",
        prog);
    cli_usage_common(out, 24);
    fprintf(out,
        "\n"
        "Exit status: 0 dead marking reached (every run), 1 the net could not be\n"
        "read, 2 bad command line, 3 an output could not be written, 4 the step\n"
        "limit came first (not with --steps; stochastic: the accuracy was not\n"
        "reached), 5 a token count would exceed 2^63-1 (unbounded net).\n"
        "SIGINT or SIGTERM during --runs: the runs under way finish, the finished\n"
        "ones are printed, marked interrupted, and pn-run dies of the signal\n"
        "(status 130 or 143).\n");
}

enum { OPT_COUNTS = 128, OPT_SNAPSHOT, OPT_REFERENCE, OPT_NET, OPT_MARKING };

typedef struct {
    cli_run_t run;       /* the run options, shared with pn-sweep */
    uint64_t snapshot;
    int reference, all_counts, marking, quiet;
    cli_format_t fmt;
    const char *trace;
    size_t *count_idx; /* transitions whose counts are printed */
    size_t ncount;
    const char *file;  /* the net ('-': standard input) */
    pn_read_options_t ro;
    stoch_opts_t st;   /* --semantics stochastic */
} opts_t;

/* ---- one run with a trace ---------------------------------------------- */

/* Runs sim to the end, writing the trace when f is not NULL. */
static pn_end_t run_traced(pn_sim_t *sim, const pn_net_t *net, const opts_t *o,
                           FILE *f)
{
    if (!f)
        return pn_sim_run(sim, o->run.max_steps);
    if (o->snapshot)
        pn_trace_write_marking(f, net, 0, pn_sim_marking(sim));
    pn_end_t end = PN_END_NONE;
    while (end == PN_END_NONE) {
        if (pn_sim_steps(sim) >= o->run.max_steps) {
            end = pn_sim_run(sim, o->run.max_steps);
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
    double *values; /* runs x (steps, firings, counts) */
    uint64_t *seeds;
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
        uint64_t i = stop ? o->run.runs : pl->next++;
        pthread_mutex_unlock(&pl->lock);
        if (i >= o->run.runs)
            break;
        pn_sim_t *sim = pn_sim_new(pl->engine, pn_run_seed(o->run.seed, i),
                                   o->run.sem, o->reference);
        if (!sim) {
            pl->failed = 1;
            break;
        }
        pl->ends[i] = pn_sim_run(sim, o->run.max_steps);
        pl->seeds[i] = pn_run_seed(o->run.seed, i);
        size_t nm = o->ncount + 2;
        double *row = pl->values + i * nm;
        row[0] = (double)pn_sim_steps(sim);
        row[1] = (double)pn_sim_firings(sim);
        const uint64_t *c = pn_sim_counts(sim);
        for (size_t k = 0; k < o->ncount; k++)
            row[k + 2] = (double)c[o->count_idx[k]];
        pn_sim_free(sim);
        pthread_mutex_lock(&pl->lock);
        pl->done++;
        pthread_mutex_unlock(&pl->lock);
    }
    return NULL;
}

/* A statistic for the text output ("-" when it does not exist). */
static void text_num(const char *label, double v, const char *fmt)
{
    printf("  %s ", label);
    if (v != v)
        printf("-");
    else
        printf(fmt, v);
}

static void print_text_stats(const char *name, const pn_stats_t *s)
{
    printf("%-24s n %zu", name, s->n);
    text_num("mean", s->mean, "%.3f");
    text_num("sd", s->sd, "%.3f");
    text_num("min", s->min, "%.17g");
    text_num("median", s->median, "%.17g");
    text_num("max", s->max, "%.17g");
    if (s->ci_low != s->ci_low)
        printf("  ci95 -\n");
    else
        printf("  ci95 [%.3f, %.3f]\n", s->ci_low, s->ci_high);
}

/* The names of the measures: steps, firings, count:ID...; NULL when out of
 * memory.  Freed with free_measures(). */
static char **measure_names(const pn_net_t *net, const opts_t *o)
{
    char **m = calloc(o->ncount + 2, sizeof *m);
    if (!m)
        return NULL;
    m[0] = strdup("steps");
    m[1] = strdup("firings");
    int bad = !m[0] || !m[1];
    for (size_t k = 0; k < o->ncount && !bad; k++) {
        const char *id = pn_net_transition(net, o->count_idx[k])->id;
        size_t len = strlen(id) + 7;
        if (!(m[k + 2] = malloc(len)))
            bad = 1;
        else
            snprintf(m[k + 2], len, "count:%s", id);
    }
    if (bad) {
        for (size_t k = 0; k < o->ncount + 2; k++)
            free(m[k]);
        free(m);
        return NULL;
    }
    return m;
}

static void free_measures(char **m, size_t n)
{
    for (size_t k = 0; m && k < n; k++)
        free(m[k]);
    free(m);
}

static int many_runs(const pn_net_t *net, const pn_engine_t *engine,
                     const opts_t *o)
{
    cli_defer_signals(); /* a signal stops the runs; the finished are shown */
    pool_t pl = {0};
    pl.engine = engine;
    pl.o = o;
    pthread_mutex_init(&pl.lock, NULL);
    pl.values = calloc(o->run.runs * (o->ncount + 2), sizeof *pl.values);
    pl.seeds = calloc(o->run.runs, sizeof *pl.seeds);
    pl.ends = calloc(o->run.runs, sizeof *pl.ends);
    unsigned jobs = o->run.jobs;
    if ((uint64_t)jobs > o->run.runs)
        jobs = (unsigned)o->run.runs;
    pthread_t *th = calloc(jobs, sizeof *th);
    if (!pl.values || !pl.seeds || !pl.ends || !th) {
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
        if (done >= o->run.runs || cli_signal_pending())
            break;
        double t = cli_now();
        if (t - t0 > 1.0 && t - last > 0.25) {
            fprintf(stderr, "\r%s: %" PRIu64 "/%" PRIu64 " runs", prog, done,
                    o->run.runs);
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
    uint64_t runs = sig && pl.next < o->run.runs ? pl.next : o->run.runs;
    uint64_t nd = 0, nl = 0, no = 0;
    for (uint64_t i = 0; i < runs; i++) {
        nd += pl.ends[i] == PN_END_DEAD;
        nl += pl.ends[i] == PN_END_LIMIT;
        no += pl.ends[i] == PN_END_OVERFLOW;
    }
    size_t nm = o->ncount + 2;
    char **names = measure_names(net, o);
    if (!names) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    pn_results_point_t pt = {
        .point = 0, .seed = o->run.seed, .requested = o->run.runs,
        .runs = runs,
        .nmeasures = nm, .measures = (const char *const *)names,
        .values = pl.values, .ends = pl.ends, .seeds = pl.seeds,
        .include_limited = o->run.include_limited};
    pn_status_t st = PN_OK;
    if (o->fmt == CLI_TEXT) {
        printf("runs: %" PRIu64, runs);
        if (sig)
            printf(" of %" PRIu64 ", interrupted", o->run.runs);
        printf(" (seed %" PRIu64 "): dead %" PRIu64 ", limit %" PRIu64
               ", overflow %" PRIu64 "\n", o->run.seed, nd, nl, no);
        printf("statistics of the %s runs:\n",
               o->run.include_limited ? "dead and limited" : "dead");
        for (size_t k = 0; k < nm && !st; k++) {
            pn_stats_t s;
            if (!(st = pn_results_stats(&pt, k, &s)))
                print_text_stats(names[k], &s);
        }
    } else {
        pn_results_layout_t lay = {
            o->fmt == CLI_CSV ? PN_RESULTS_CSV : PN_RESULTS_JSONL, 0, NULL};
        st = pn_results_write_header(stdout, &lay);
        if (!st && o->run.per_run)
            st = pn_results_write_runs(stdout, &lay, &pt);
        if (!st)
            st = pn_results_write_point(stdout, &lay, &pt);
    }
    free_measures(names, nm);
    free(pl.values);
    free(pl.seeds);
    free(pl.ends);
    if (st == PN_ENOMEM) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    if (sig) {
        fprintf(stderr, "%s: interrupted: %" PRIu64 " of %" PRIu64 " runs "
                "finished\n", prog, runs, o->run.runs);
        return -sig;
    }
    return no ? EXIT_OVERFLOW
           : nl && !o->run.exact_steps ? EXIT_LIMIT
                                       : CLI_OK;
}

/* ---- one run ------------------------------------------------------------ */

static int one_run(const pn_net_t *net, const pn_engine_t *engine,
                   const opts_t *o)
{
    pn_sim_t *sim = pn_sim_new(engine, o->run.seed, o->run.sem, o->reference);
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
        pn_trace_write_header(tf, net, o->run.seed, o->run.sem);
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
    if (o->fmt != CLI_TEXT) {
        /* the measures: steps, firings, the counts, the marking */
        size_t nmark = 0;
        for (size_t p = 0; o->marking && p < np; p++)
            nmark += m[p] != 0;
        size_t nm = o->ncount + 2;
        char **names = measure_names(net, o);
        const char **all = calloc(nm + nmark, sizeof *all);
        double *v = calloc(nm + nmark, sizeof *v);
        char **mark = calloc(nmark + 1, sizeof *mark);
        pn_status_t st = names && all && v && mark ? PN_OK : PN_ENOMEM;
        for (size_t k = 0; !st && k < nm; k++)
            all[k] = names[k];
        v[0] = (double)steps;
        v[1] = (double)pn_sim_firings(sim);
        for (size_t k = 0; !st && k < o->ncount; k++)
            v[k + 2] = (double)c[o->count_idx[k]];
        size_t j = 0;
        for (size_t p = 0; !st && o->marking && p < np; p++) {
            if (!m[p])
                continue;
            const char *id = pn_net_place(net, p)->id;
            size_t len = strlen(id) + 9;
            if (!(mark[j] = malloc(len))) {
                st = PN_ENOMEM;
                break;
            }
            snprintf(mark[j], len, "marking:%s", id);
            all[nm + j] = mark[j];
            v[nm + j] = (double)m[p];
            j++;
        }
        if (!st) {
            pn_results_layout_t lay = {
                o->fmt == CLI_CSV ? PN_RESULTS_CSV : PN_RESULTS_JSONL, 0,
                NULL};
            pn_results_point_t pt = {
                .point = 0, .seed = o->run.seed, .requested = 1, .runs = 1,
                .nmeasures = nm + nmark, .measures = all, .values = v,
                .ends = &end, .seeds = &o->run.seed};
            st = pn_results_write_header(stdout, &lay);
            if (!st)
                st = pn_results_write_runs(stdout, &lay, &pt);
        }
        for (size_t k = 0; k < nmark && mark; k++)
            free(mark[k]);
        free(mark);
        free(v);
        free(all);
        free_measures(names, nm);
        if (st == PN_ENOMEM) {
            fprintf(stderr, "%s: out of memory\n", prog);
            pn_sim_free(sim);
            return CLI_EINPUT;
        }
    } else {
        printf("steps: %" PRIu64 "\n", steps);
        printf("end: %s\n", end == PN_END_DEAD ? "dead marking"
                            : o->run.exact_steps
                                ? "step limit reached (--steps)"
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
    if (end == PN_END_LIMIT && !o->run.exact_steps) {
        fprintf(stderr, "%s: no dead marking within %" PRIu64 " steps "
                "(pn-reach says whether one is reachable at all)\n", prog,
                o->run.max_steps);
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
    for (size_t i = 0; i < o->run.ncounts; i++)
        room += strlen(o->run.counts[i]) + 1;
    o->count_idx = calloc(room, sizeof *o->count_idx);
    if (o->all_counts)
        for (size_t i = 0; i < nt; i++)
            o->count_idx[o->ncount++] = i;
    for (size_t i = 0; i < o->run.ncounts && !o->all_counts; i++)
        if (add_counts(o, net, o->run.counts[i]) < 0)
            return CLI_EUSAGE;
    return CLI_OK;
}

static int compile(const pn_net_t *net, const char *file, pn_engine_t **engine)
{
    if (pn_engine_compile(net, engine) != PN_OK) {
        fprintf(stderr, "%s: %s: the net is too large to compile\n", prog,
                cli_input_name(file));
        return CLI_EINPUT;
    }
    return CLI_OK;
}

/* ---- the command line --------------------------------------------------- */

/* Takes option c with its argument.  Returns an exit code, or -1 to go on. */
static int set_option(opts_t *o, cli_common_t *cc, int c, const char *arg)
{
    uint64_t v;
    int rc = stoch_option(&o->st, c, arg);
    if (rc != -2)
        return rc;
    rc = cli_run_option(&o->run, c, arg);
    if (rc != -2)
        return rc;
    switch (c) {
    case OPT_COUNTS: o->all_counts = 1; break;
    case OPT_MARKING: o->marking = 1; break;
    case 't': o->trace = arg; break;
    case OPT_SNAPSHOT:
        if (cli_uint("--snapshot", arg, 1, UINT64_MAX, &v))
            return CLI_EUSAGE;
        o->snapshot = v;
        break;
    case OPT_REFERENCE: o->reference = 1; break;
    case OPT_NET: o->ro.net_id = arg; break;
    default: return cli_option(cc, c, arg);
    }
    return -1;
}

/* The options that go with --semantics stochastic, and those that do not.
 * Returns CLI_EUSAGE after a message, or -1. */
static int check_stochastic(const opts_t *o)
{
    if (!o->st.on && o->st.given) {
        fprintf(stderr, "%s: --time, --confidence, --accuracy and "
                "--condition need --semantics stochastic\n", prog);
        return CLI_EUSAGE;
    }
    if (o->st.on && (o->trace || o->run.exact_steps || o->reference ||
                     o->run.per_run || o->run.include_limited ||
                     o->all_counts || o->run.ncounts || o->marking)) {
        fprintf(stderr, "%s: --semantics stochastic prints every "
                "transition and place: leave out --trace, --steps, "
                "--reference, --per-run, --include-limited, --count, "
                "--counts and --marking\n", prog);
        return CLI_EUSAGE;
    }
    return -1;
}

/* Reads the command line into o (o->run.counts: room for argc lists).
 * Returns an exit code, or -1 to go on. */
static int parse_options(int argc, char **argv, opts_t *o)
{
    static const struct option longopts[] = {
        CLI_RUN_LONGOPTS,
        {"counts", no_argument, NULL, OPT_COUNTS},
        {"marking", no_argument, NULL, OPT_MARKING},
        {"trace", required_argument, NULL, 't'},
        {"snapshot", required_argument, NULL, OPT_SNAPSHOT},
        CLI_LONGOPT_FORMAT,
        {"reference", no_argument, NULL, OPT_REFERENCE},
        {"net", required_argument, NULL, OPT_NET},
        STOCH_LONGOPTS,
        CLI_LONGOPTS_COMMON};
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_TEXT) | CLI_FMT(CLI_CSV) |
                                  CLI_FMT(CLI_JSON),
                       .format = CLI_TEXT};
    int c, rc;
    while ((c = getopt_long(argc, argv, CLI_RUN_SHORTOPTS "t:f:qhV", longopts,
                            NULL)) != -1)
        if ((rc = set_option(o, &cc, c, optarg)) >= 0)
            return rc;
    o->fmt = cc.format;
    o->quiet = cli_quiet();
    if (!(o->file = cli_one_file(prog, argc, argv, optind)))
        return CLI_EUSAGE;
    if ((rc = cli_run_finish(&o->run)) >= 0)
        return rc;
    if (o->trace && o->run.runs) {
        fprintf(stderr, "%s: --trace records one run; leave out --runs\n",
                prog);
        return CLI_EUSAGE;
    }
    if (o->run.per_run && (!o->run.runs || o->fmt == CLI_TEXT)) {
        fprintf(stderr, "%s: --per-run needs --runs and --format csv or "
                "json\n", prog);
        return CLI_EUSAGE;
    }
    if (o->snapshot && !o->trace) {
        fprintf(stderr, "%s: --snapshot needs --trace\n", prog);
        return CLI_EUSAGE;
    }
    return check_stochastic(o);
}

int main(int argc, char **argv)
{
    /* on the stack: every early return below stays leak-free */
    const char *count_args[argc + 1], *time_args[argc + 1],
        *cond_args[argc + 1];
    opts_t o = {0};
    cli_run_init(&o.run, count_args);
    o.st.times = time_args;
    o.st.conds = cond_args;
    cli_init(prog, argc, argv);
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    pn_net_t *net;
    if (o.st.on)
        cli_timing_used();
    if ((rc = cli_read_net(prog, o.file, &o.ro, &net)) != CLI_OK)
        return rc;
    if (o.st.on) {
        rc = run_stochastic(prog, net, &o.run, &o.st, o.fmt);
        pn_net_free(net);
        return rc;
    }
    /* what the file says that the run cannot take into account (timing,
     * transport arcs, ...) was said by cli_read_net(), before the results */
    pn_engine_t *engine = NULL;
    rc = pick_counts(&o, net);
    if (rc == CLI_OK)
        rc = compile(net, o.file, &engine);
    if (rc == CLI_OK)
        rc = o.run.runs ? many_runs(net, engine, &o) : one_run(net, engine, &o);
    pn_engine_free(engine);
    free(o.count_idx);
    pn_net_free(net);
    if (rc < 0) /* --runs stopped by a signal: dies of it, as asked */
        cli_die_of_signal(-rc);
    return rc;
}
