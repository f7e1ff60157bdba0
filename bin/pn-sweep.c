/* pn-sweep: parameter sweeps of the GPU generator or of PNML nets, many
 * runs a point, tidy results (the result schema of engine/results.h). */
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
#include "sweep.h"

static const char *prog = "pn-sweep";

/* Writes text from column col, its words wrapped before column 78. */
static void wrap(FILE *out, int col, const char *text)
{
    int at = col;
    for (const char *w = text; *w;) {
        size_t len = strcspn(w, " ");
        if (at > col && at + 1 + (int)len > 78) {
            fprintf(out, "\n%*s", col, "");
            at = col;
        }
        at += fprintf(out, "%s%.*s", at > col ? " " : "", (int)len, w);
        w += len;
        w += strspn(w, " ");
    }
    fputc('\n', out);
}

/* --param's help: every row of the generator's table by name (the table
 * the parser takes them from), then the parameters of net FILEs. */
static void param_help(FILE *out)
{
    size_t n, len = 0;
    const pn_gpu_option_t *t = pn_gpu_option_table(&n);
    for (size_t i = 0; i < n; i++)
        len += strlen(t[i].name) + 2;
    const char *head = "a parameter and its values: v1,v2,... or A:B (A to "
                       "B) or A:B:STEP; NAME is a pn-gen-gpu option (";
    const char *tail = "), or with FILEs p_init:ID (initial tokens of place "
                       "ID) or arc:ID (weight of arc ID)";
    char *text = malloc(strlen(head) + len + strlen(tail) + 1);
    if (!text)
        return;
    char *e = text + sprintf(text, "%s", head);
    for (size_t i = 0; i < n; i++)
        e += sprintf(e, "%s%s", i ? ", " : "", t[i].name);
    strcpy(e, tail);
    fprintf(out, "%-27s", "  -p, --param NAME=VALUES");
    wrap(out, 27, text);
    free(text);
}

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... [FILE]...\n"
        "Run every point of a grid of parameters many times and write one row\n"
        "of statistics a point and measure (CSV or JSON Lines).  Without FILE\n"
        "the nets come from the GPU generator (pn-gen-gpu); with FILEs, the\n"
        "PNML nets are a parameter \"net\" of their own.\n"
        "\n", prog);
    param_help(out);
    fprintf(out,
        "      --spec FILE          the sweep from a YAML file (see pn-sweep(1))\n"
        "  -n, --runs N             runs a point (default 10)\n"
        "  -s, --seed S             seed (default 1); run r of point k has the seed\n"
        "                           pn_run_seed(pn_point_seed(S, k), r)\n"
        "      --semantics SEM      maximal (default) or interleaving; stochastic:\n"
        "                           the net's timing (GSPN) in continuous time,\n"
        "                           each point simulated as pn-run --semantics\n"
        "                           stochastic does (seed pn_point_seed(S, k)),\n"
        "                           a row an estimate with its interval\n"
        "      --time T1,T2,...     stochastic: the transient at these times\n"
        "      --confidence C       stochastic: of the intervals (default 0.95)\n"
        "      --accuracy R         stochastic: half-widths within R times the\n"
        "                           mean (default 0.05)\n"
        "      --condition F        stochastic: the probability of F, a condition\n"
        "                           on the marking (may be repeated)\n"
        "      --max-steps N        stop a run after N steps (default 100000000)\n"
        "      --steps N            run exactly N steps (limited runs in the\n"
        "                           statistics)\n"
        "      --include-limited    step-limit runs in the statistics too\n"
        "  -c, --count ID           a measure: the firings of transition ID (may\n"
        "                           be repeated, or IDs separated by commas)\n"
        "      --per-run            a row for each run too\n"
        "  -f, --format FMT         csv (default) or json (JSON Lines; jsonl too)\n"
        "  -o, --output FILE        write to FILE, a point at a time (default:\n"
        "                           standard output)\n"
        "      --resume             skip the points FILE (-o) already holds\n"
        "  -j, --jobs N             threads (default: the number of cores; under\n"
        "                           mpirun, 1 a rank); the output is the same\n"
        "                           for any N (--threads N too)\n"
        "      --shard K/N          only the points k with k mod N = K (0 <= K < N)\n"
        "      --merge              FILEs are shard outputs: write them as one\n"
        "      --plot FILE          draw the mean steps, and the firings of each\n"
        "                           --count (95%% band), against the first\n"
        "                           numeric parameter, a line per value of the\n"
        "                           others (a net file each), into FILE.svg,\n"
        "                           .png or .pdf (gnuplot; needs --output FILE\n"
        "                           and csv)\n"
        "      --progress           a progress line on standard error even when it\n"
        "                           is not a terminal\n");
    cli_usage_common(out, 27);
    fprintf(out,
        "\n"
        "Under mpirun (-np N), the points are spread over N ranks: rank 0 hands\n"
        "out chunks of runs, computes and writes; the output is the same for any\n"
        "N.  %s\n"
        "\n"
        "Exit status: 0 success, 1 a net, workload, spec or results file could\n"
        "not be read or is invalid, 2 bad command line, 3 the output could not\n"
        "be written, 4 stochastic: some point's accuracy was not reached.  SIGINT or SIGTERM: the points finished are written, the\n"
        "file stays valid (--resume goes on), status 130 or 143.\n",
#ifdef HAVE_MPI
        "This pn-sweep is built with MPI."
#else
        "This pn-sweep is built without MPI (configure found no Open MPI)."
#endif
        );
}

enum { OPT_SPEC = 128, OPT_RESUME, OPT_SHARD, OPT_MERGE, OPT_PROGRESS,
       OPT_PLOT };

/* The run options as the spec left them, for the command line to change. */
static void run_from_sweep(cli_run_t *r, const sweep_t *s)
{
    r->seed = s->seed;
    r->sem = s->sem;
    r->max_steps = s->max_steps;
    r->steps = s->steps;
    r->max_steps_given = s->max_steps_given;
    r->exact_steps = s->exact_steps;
    r->include_limited = s->include_limited;
    r->per_run = s->per_run;
    r->runs = s->runs;
    r->jobs = s->threads;
}

/* The run options back into the sweep (sweep_run() checks them whole, as
 * a spec also gives them).  Returns -1, or an exit code. */
static int run_to_sweep(sweep_t *s, const cli_run_t *r)
{
    s->seed = r->seed;
    s->sem = r->sem;
    s->max_steps = r->max_steps;
    s->steps = r->steps;
    s->max_steps_given = r->max_steps_given;
    s->exact_steps = r->exact_steps;
    s->include_limited = r->include_limited;
    s->per_run = r->per_run;
    s->runs = r->runs;
    s->threads = r->jobs;
    s->threads_given |= r->jobs_given;
    for (size_t i = 0; i < r->ncounts; i++)
        if (sweep_add_counts(s, r->counts[i]) != 0)
            return CLI_EUSAGE;
    return -1;
}

static int set_option(sweep_t *s, cli_run_t *r, cli_common_t *cc, int c,
                      const char *arg)
{
    int rc = stoch_option(&s->st, c, arg);
    if (rc != -2)
        return rc;
    s->runs_given |= c == 'n';
    rc = cli_run_option(r, c, arg);
    if (rc != -2)
        return rc;
    switch (c) {
    case 'p':
        if (sweep_add_param(s, arg, NULL, 0) != 0)
            return CLI_EUSAGE;
        break;
    case OPT_SPEC: s->spec = arg; break;
    case OPT_RESUME: s->resume = 1; break;
    case OPT_SHARD: {
        uint64_t k, n;
        const char *slash = strchr(arg, '/');
        char kbuf[32];
        if (!slash || (size_t)(slash - arg) >= sizeof kbuf) {
            fprintf(stderr, "%s: --shard: '%s' is not K/N\n", prog, arg);
            return CLI_EUSAGE;
        }
        memcpy(kbuf, arg, (size_t)(slash - arg));
        kbuf[slash - arg] = '\0';
        if (cli_parse_u64(kbuf, 0, &k) || cli_parse_u64(slash + 1, 1, &n) ||
            k >= n) {
            fprintf(stderr, "%s: --shard: '%s' is not K/N with 0 <= K < N\n",
                    prog, arg);
            return CLI_EUSAGE;
        }
        s->shard_k = k;
        s->shard_n = n;
        break;
    }
    case OPT_MERGE: s->merge = 1; break;
    case OPT_PROGRESS: s->progress = 1; break;
    case OPT_PLOT: s->plot = arg; break;
    case 'V':
        cli_version(prog);
#ifdef HAVE_MPI
        printf("MPI: %s (mpirun -np N %s spreads the points over N ranks)\n",
               sweep_mpi_library(), prog);
#else
        printf("MPI: not built in (configure found no Open MPI)\n");
#endif
        return CLI_OK;
    default: return cli_option(cc, c, arg);
    }
    return -1;
}

/* The options that go with --semantics stochastic, and those that do
 * not.  Returns CLI_EUSAGE after a message, or -1. */
static int check_stochastic(const sweep_t *s)
{
    if (!s->st.on && s->st.given) {
        fprintf(stderr, "%s: --time, --confidence, --accuracy and "
                "--condition need --semantics stochastic\n", prog);
        return CLI_EUSAGE;
    }
    if (s->st.on && (s->resume || s->merge || s->plot || s->per_run ||
                     s->ncounts || s->exact_steps || s->include_limited ||
                     sweep_mpi_size() > 1)) {
        fprintf(stderr, "%s: --semantics stochastic writes every estimate "
                "of each point: leave out --resume, --merge, --plot, "
                "--per-run, --count, --steps and --include-limited, and "
                "mpirun\n", prog);
        return CLI_EUSAGE;
    }
    return -1;
}

/* Reads the command line (after the spec) into s.  Returns an exit code,
 * or -1 to go on. */
static int parse_options(int argc, char **argv, sweep_t *s)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        {"spec", required_argument, NULL, OPT_SPEC},
        CLI_RUN_LONGOPTS,
        {"threads", required_argument, NULL, 'j'},
        CLI_LONGOPT_FORMAT,
        CLI_LONGOPT_OUTPUT,
        {"resume", no_argument, NULL, OPT_RESUME},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"merge", no_argument, NULL, OPT_MERGE},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"plot", required_argument, NULL, OPT_PLOT},
        STOCH_LONGOPTS,
        CLI_LONGOPTS_COMMON};
    const char *counts[argc + 1];
    cli_run_t r;
    cli_run_init(&r, counts);
    run_from_sweep(&r, s);
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_CSV) | CLI_FMT(CLI_JSON),
                       .format = s->fmt == PN_RESULTS_CSV ? CLI_CSV : CLI_JSON,
                       .output = s->output};
    int c, rc = -1;
    while (rc < 0 && (c = getopt_long(argc, argv, "p:" CLI_RUN_SHORTOPTS
                                      "f:o:qhV", longopts, NULL)) != -1)
        rc = set_option(s, &r, &cc, c, optarg);
    if (rc >= 0)
        return rc;
    s->fmt = cc.format == CLI_CSV ? PN_RESULTS_CSV : PN_RESULTS_JSONL;
    s->output = cc.output;
    s->quiet = cli_quiet();
    rc = run_to_sweep(s, &r);
    return rc < 0 ? check_stochastic(s) : rc;
}

int main(int argc, char **argv)
{
    cli_init(prog, argc, argv);
    /* under mpirun: the ranks beyond 0 compute what rank 0 hands out and
     * say nothing (rank 0 reports everything, once) */
    sweep_mpi_init(&argc, &argv);
#ifndef HAVE_MPI
    /* each rank would write the whole sweep: say so once, and stop */
    const char *ranks = getenv("OMPI_COMM_WORLD_SIZE");
    if (ranks && strcmp(ranks, "1")) {
        const char *me = getenv("OMPI_COMM_WORLD_RANK");
        if (!me || !strcmp(me, "0"))
            fprintf(stderr, "%s: started by mpirun with %s ranks, but built "
                    "without MPI (configure found no Open MPI): run it "
                    "alone, or build it with libopenmpi-dev\n", prog, ranks);
        return CLI_EUSAGE;
    }
#endif
    int worker = sweep_mpi_rank() > 0;
    if (worker && (!freopen("/dev/null", "w", stdout) ||
                   !freopen("/dev/null", "w", stderr)))
        return CLI_EOUTPUT;
    sweep_t s;
    sweep_init(&s, prog);
    /* room for every --time and --condition */
    const char **stoch_args = calloc(2 * (size_t)argc + 2, sizeof *stoch_args);
    if (!stoch_args)
        return CLI_EINPUT;
    s.st.times = stoch_args;
    s.st.conds = stoch_args + argc + 1;
    int rc = -1;
    /* the spec first: the command line's options then change it */
    for (int i = 1; i < argc && rc < 0; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--spec") && i + 1 < argc)
            rc = sweep_read_spec(&s, argv[i + 1]);
        else if (!strncmp(argv[i], "--spec=", 7))
            rc = sweep_read_spec(&s, argv[i] + 7);
    }
    if (rc < 0)
        rc = parse_options(argc, argv, &s);
    /* every rank parsed the same command line: all go on or none */
    if (!sweep_mpi_agree(rc < 0) && rc < 0)
        rc = CLI_EUSAGE;
    if (rc < 0 && worker) {
        s.files = (const char **)argv + optind;
        s.nfiles = (size_t)(argc - optind);
        rc = sweep_mpi_worker(&s);
    } else if (rc < 0) {
        s.files = (const char **)argv + optind;
        s.nfiles = (size_t)(argc - optind);
        if (s.plot && (!strcmp(s.output, "-") || s.fmt != PN_RESULTS_CSV)) {
            fprintf(stderr, "%s: --plot draws the results file: give "
                    "--output FILE and the csv format\n", prog);
            rc = CLI_EUSAGE;
        } else {
            if (s.st.on)
                cli_timing_used();
            rc = s.merge ? sweep_merge(&s) : sweep_run(&s);
        }
        if (rc == CLI_OK && s.plot && !s.signal)
            rc = sweep_plot(&s, s.output, s.plot);
    }
    rc = sweep_mpi_end(rc);
    int sig = s.signal;
    sweep_free(&s);
    free(stoch_args);
    if (sig)
        cli_die_of_signal(sig);
    return rc;
}
