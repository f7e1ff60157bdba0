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

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... [FILE]...\n"
        "Run every point of a grid of parameters many times and write one row\n"
        "of statistics a point and measure (CSV or JSON Lines).  Without FILE\n"
        "the nets come from the GPU generator (pn-gen-gpu); with FILEs, the\n"
        "PNML nets are a parameter \"net\" of their own.\n"
        "\n"
        "  -p, --param NAME=VALUES  a parameter and its values: v1,v2,... or\n"
        "                           A:B (A to B) or A:B:STEP; NAME is a\n"
        "                           pn-gen-gpu option (warps, schedulers, arith,\n"
        "                           shared, global, l1, l2, workload,\n"
        "                           threads-per-block, blocks, sms), or with\n"
        "                           FILEs p_init:ID (initial tokens of place ID)\n"
        "                           or arc:ID (weight of arc ID)\n"
        "      --spec FILE          the sweep from a YAML file (see pn-sweep(1))\n"
        "  -n, --runs N             runs a point (default 10)\n"
        "  -s, --seed S             seed (default 1); run r of point k has the seed\n"
        "                           pn_run_seed(pn_point_seed(S, k), r)\n"
        "      --semantics SEM      maximal (default) or interleaving\n"
        "      --max-steps N        stop a run after N steps (default 100000000)\n"
        "      --steps N            run exactly N steps (limited runs in the\n"
        "                           statistics)\n"
        "      --include-limited    step-limit runs in the statistics too\n"
        "  -c, --count ID           a measure: the firings of transition ID (may\n"
        "                           be repeated, or IDs separated by commas)\n"
        "      --per-run            a row for each run too\n"
        "  -f, --format FMT         csv (default) or json (JSON Lines; also jsonl)\n"
        "  -o, --output FILE        write to FILE, a point at a time (default:\n"
        "                           standard output)\n"
        "      --resume             skip the points FILE (-o) already holds\n"
        "  -j, --threads N          threads (default: the number of cores; under\n"
        "                           mpirun, 1 a rank); the output is the same\n"
        "                           for any N\n"
        "      --shard K/N          only the points k with k mod N = K (0 <= K < N)\n"
        "      --merge              FILEs are shard outputs: write them as one\n"
        "      --plot FILE          draw the mean steps (95%% band) against the\n"
        "                           first parameter, a line per value of the\n"
        "                           second, into FILE.svg, .png or .pdf (gnuplot;\n"
        "                           needs --output FILE and csv)\n"
        "      --progress           a progress line on standard error even when it\n"
        "                           is not a terminal\n"
        "  -q, --quiet              no progress line\n"
        "  -h, --help               show this help and exit\n"
        "  -V, --version            show the version and exit\n"
        "\n"
        "\n"
        "Under mpirun (-np N), the points are spread over N ranks: rank 0 hands\n"
        "out chunks of runs, computes and writes; the output is the same for any\n"
        "N.  %s\n"
        "\n"
        "Exit status: 0 success, 1 a net, workload, spec or results file could\n"
        "not be read or is invalid, 2 bad command line, 3 the output could not\n"
        "be written.  SIGINT or SIGTERM: the points finished are written, the\n"
        "file stays valid (--resume goes on), status 130 or 143.\n",
        prog,
#ifdef HAVE_MPI
        "This pn-sweep is built with MPI."
#else
        "This pn-sweep is built without MPI (configure found no Open MPI)."
#endif
        );
}

enum { OPT_SPEC = 128, OPT_SEMANTICS, OPT_MAX_STEPS, OPT_STEPS,
       OPT_INCLUDE_LIMITED, OPT_PER_RUN, OPT_RESUME, OPT_SHARD, OPT_MERGE,
       OPT_PROGRESS, OPT_PLOT };

static int number(const char *opt, const char *arg, uint64_t min,
                  uint64_t max, uint64_t *out)
{
    if (cli_parse_u64(arg, 0, out) || *out < min || *out > max) {
        fprintf(stderr, "%s: %s: '%s' is not allowed: a number from %" PRIu64
                " to %" PRIu64 "\n", prog, opt, arg, min, max);
        return CLI_EUSAGE;
    }
    return -1;
}

static int set_option(sweep_t *s, int c, const char *arg)
{
    uint64_t v;
    int rc;
    switch (c) {
    case 'p':
        if (sweep_add_param(s, arg, NULL, 0) != 0)
            return CLI_EUSAGE;
        break;
    case OPT_SPEC: s->spec = arg; break;
    case 'n': return number("--runs", arg, 1, 100000000, &s->runs);
    case 's': return number("--seed", arg, 0, UINT64_MAX, &s->seed);
    case OPT_SEMANTICS:
        if (pn_semantics_parse(arg, &s->sem)) {
            fprintf(stderr, "%s: --semantics: '%s' (maximal or "
                    "interleaving)\n", prog, arg);
            return CLI_EUSAGE;
        }
        break;
    case OPT_MAX_STEPS:
        s->max_steps_given = 1;
        return number("--max-steps", arg, 0, UINT64_MAX, &s->max_steps);
    case OPT_STEPS:
        s->exact_steps = 1;
        return number("--steps", arg, 0, UINT64_MAX, &s->steps);
    case OPT_INCLUDE_LIMITED: s->include_limited = 1; break;
    case 'c':
        if (sweep_add_counts(s, arg) != 0)
            return CLI_EUSAGE;
        break;
    case OPT_PER_RUN: s->per_run = 1; break;
    case 'f':
        if (pn_results_format_parse(arg, &s->fmt)) {
            fprintf(stderr, "%s: --format: '%s' (csv or json)\n", prog, arg);
            return CLI_EUSAGE;
        }
        break;
    case 'o': s->output = arg; break;
    case OPT_RESUME: s->resume = 1; break;
    case 'j':
        if ((rc = number("--threads", arg, 1, 1024, &v)) < 0) {
            s->threads = (unsigned)v;
            s->threads_given = 1;
        }
        return rc;
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
    case 'q': s->quiet = 1; break;
    case 'V':
        cli_version(prog);
#ifdef HAVE_MPI
        printf("MPI: %s (mpirun -np N %s spreads the points over N ranks)\n",
               sweep_mpi_library(), prog);
#else
        printf("MPI: not built in (configure found no Open MPI)\n");
#endif
        return CLI_OK;
    default: return cli_common_option(prog, c, usage);
    }
    return -1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        {"spec", required_argument, NULL, OPT_SPEC},
        {"runs", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},
        {"semantics", required_argument, NULL, OPT_SEMANTICS},
        {"max-steps", required_argument, NULL, OPT_MAX_STEPS},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"include-limited", no_argument, NULL, OPT_INCLUDE_LIMITED},
        {"count", required_argument, NULL, 'c'},
        {"per-run", no_argument, NULL, OPT_PER_RUN},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"threads", required_argument, NULL, 'j'},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"merge", no_argument, NULL, OPT_MERGE},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
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
    int c, rc = -1;
    /* the spec first: the command line's options then change it */
    for (int i = 1; i < argc && rc < 0; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--spec") && i + 1 < argc)
            rc = sweep_read_spec(&s, argv[i + 1]);
        else if (!strncmp(argv[i], "--spec=", 7))
            rc = sweep_read_spec(&s, argv[i] + 7);
    }
    while (rc < 0 &&
           (c = getopt_long(argc, argv, "p:n:s:c:f:o:j:qhV", longopts,
                            NULL)) != -1)
        rc = set_option(&s, c, optarg);
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
        } else
            rc = s.merge ? sweep_merge(&s) : sweep_run(&s);
        if (rc == CLI_OK && s.plot && !s.signal)
            rc = sweep_plot(&s, s.output, s.plot);
    }
    rc = sweep_mpi_end(rc);
    int sig = s.signal;
    sweep_free(&s);
    if (sig)
        cli_die_of_signal(sig);
    return rc;
}
