/* pn-dot: draw a PNML net, a step of a run, or a run's timeline. */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "pn.h"

static const char *prog = "pn-dot";

enum { EXIT_TOOBIG = 4 };

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
        "  -T, --format FMT     svg, png, pdf or dot\n"
        "  -l, --layout L       dot (default), neato, fdp or sfdp\n"
        "      --positions      draw nodes where the PNML places them (no layout)\n"
        "      --ids            show ids beside the names\n"
        "      --cluster-by SEP group nodes by the part of their id before SEP\n"
        "                       (default: PNML pages; warps for GPU nets)\n"
        "      --no-clusters    no groups\n"
        "      --trace FILE     a trace written by pn-run --trace\n"
        "      --step K         with --trace: the marking after step K, the\n"
        "                       transitions fired in step K highlighted\n"
        "      --timeline       with --trace: the run as a space-time diagram\n"
        "      --steps A-B      with --timeline: the window of steps to draw\n"
        "      --net ID         read the <net> with this id\n"
        "  -h, --help           show this help and exit\n"
        "  -V, --version        show the version and exit\n"
        "\n"
        "Exit status: 0 success, 1 the net or the trace could not be read (or\n"
        "the trace belongs to another net), 2 bad command line (also: a step\n"
        "out of range), 3 the output could not be rendered or written, 4 too\n"
        "large to draw that way (the message says what to do instead).\n",
        prog);
}

enum { OPT_POSITIONS = 128, OPT_IDS, OPT_CLUSTER_BY, OPT_NO_CLUSTERS,
       OPT_TRACE, OPT_STEP, OPT_TIMELINE, OPT_STEPS, OPT_NET };

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

static int write_out(const char *path, const char *data, size_t len)
{
    if (!path || !strcmp(path, "-")) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "%s: cannot write the output: %s\n", prog,
                    strerror(errno));
            return CLI_EOUTPUT;
        }
        return CLI_OK;
    }
    char *tmp;
    FILE *f = cli_output_open(path, &tmp);
    int ok = f && fwrite(data, 1, len, f) == len;
    if (!f || cli_output_close(f, tmp, path, ok) != PN_OK || !ok) {
        fprintf(stderr, "%s: %s: cannot write: %s\n", prog, path,
                strerror(errno));
        return CLI_EOUTPUT;
    }
    return CLI_OK;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'T'},
        {"layout", required_argument, NULL, 'l'},
        {"positions", no_argument, NULL, OPT_POSITIONS},
        {"ids", no_argument, NULL, OPT_IDS},
        {"cluster-by", required_argument, NULL, OPT_CLUSTER_BY},
        {"no-clusters", no_argument, NULL, OPT_NO_CLUSTERS},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"step", required_argument, NULL, OPT_STEP},
        {"timeline", no_argument, NULL, OPT_TIMELINE},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"net", required_argument, NULL, OPT_NET},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    pn_dot_options_t o;
    pn_dot_defaults(&o);
    const char *output = NULL, *format = NULL, *trace_path = NULL;
    const char *steps_arg = NULL, *cluster_by = NULL;
    uint64_t step = 0;
    int has_step = 0, timeline = 0;
    pn_read_options_t ro = {0};
    int c;
    while ((c = getopt_long(argc, argv, "o:T:l:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'T': format = optarg; break;
        case 'l': o.layout = optarg; break;
        case OPT_POSITIONS: o.positions = 1; break;
        case OPT_IDS: o.ids = 1; break;
        case OPT_CLUSTER_BY:
            if (!*optarg) {
                fprintf(stderr, "%s: --cluster-by: an empty separator\n", prog);
                return CLI_EUSAGE;
            }
            cluster_by = optarg;
            break;
        case OPT_NO_CLUSTERS: o.clusters = 0; break;
        case OPT_TRACE: trace_path = optarg; break;
        case OPT_STEP:
            if (cli_parse_u64(optarg, 0, &step)) {
                fprintf(stderr, "%s: --step: '%s' is not a step number\n",
                        prog, optarg);
                return CLI_EUSAGE;
            }
            has_step = 1;
            break;
        case OPT_TIMELINE: timeline = 1; break;
        case OPT_STEPS: steps_arg = optarg; break;
        case OPT_NET: ro.net_id = optarg; break;
        case 'h': usage(stdout); return CLI_OK;
        case 'V': cli_version(prog); return CLI_OK;
        default:
            fprintf(stderr, "Try '%s --help'.\n", prog);
            return CLI_EUSAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "%s: expected one FILE (or '-')\nTry '%s --help'.\n",
                prog, prog);
        return CLI_EUSAGE;
    }
    if (!format)
        format = output && strcmp(output, "-") ? format_of(output) : "svg";
    if (!format) {
        fprintf(stderr, "%s: cannot tell the format from '%s': use -T svg, "
                "png, pdf or dot\n", prog, output);
        return CLI_EUSAGE;
    }
    if ((has_step || timeline || steps_arg) && !trace_path) {
        fprintf(stderr, "%s: --step, --timeline and --steps need --trace\n",
                prog);
        return CLI_EUSAGE;
    }
    if (has_step && timeline) {
        fprintf(stderr, "%s: --step draws one step, --timeline a window: "
                "choose one\n", prog);
        return CLI_EUSAGE;
    }
    if (steps_arg && !timeline) {
        fprintf(stderr, "%s: --steps goes with --timeline\n", prog);
        return CLI_EUSAGE;
    }
    uint64_t first = 1, last = 0;
    if (steps_arg) {
        char *dash = strchr(steps_arg, '-');
        char a[32] = "", b[32] = "";
        if (dash && (size_t)(dash - steps_arg) < sizeof a &&
            strlen(dash + 1) < sizeof b) {
            memcpy(a, steps_arg, (size_t)(dash - steps_arg));
            strcpy(b, dash + 1);
        }
        if (!dash || cli_parse_u64(a, 0, &first) || cli_parse_u64(b, 0, &last) ||
            first == 0 || last < first) {
            fprintf(stderr, "%s: --steps: '%s' is not a window A-B with "
                    "1 <= A <= B\n", prog, steps_arg);
            return CLI_EUSAGE;
        }
    }
    pn_net_t *net;
    pn_error_t err;
    if (pn_pnml_read_file(argv[optind], &ro, &net, &err)) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    pn_trace_t *trace = NULL;
    pn_groups_t *groups = NULL;
    pn_dot_context_t *ctx = NULL;
    int rc = CLI_OK;
    uint64_t *marking = NULL;
    unsigned char *fired = NULL;
    char *data = NULL;
    size_t len = 0;
    pn_status_t st = PN_OK;
    if (trace_path) {
        if (pn_trace_read(trace_path, net, &trace, &err)) {
            cli_error(prog, &err);
            rc = CLI_EINPUT;
            goto done;
        }
        uint64_t n = pn_trace_steps(trace);
        if (has_step && step > n) {
            fprintf(stderr, "%s: --step %" PRIu64 ": the trace has steps 0-%"
                    PRIu64 "\n", prog, step, n);
            rc = CLI_EUSAGE;
            goto done;
        }
        if (timeline && n == 0) {
            fprintf(stderr, "%s: the trace has no steps to draw\n", prog);
            rc = CLI_EUSAGE;
            goto done;
        }
        if (timeline && steps_arg && last > n) {
            fprintf(stderr, "%s: --steps %s: the trace has steps 1-%" PRIu64
                    "\n", prog, steps_arg, n);
            rc = CLI_EUSAGE;
            goto done;
        }
        if (timeline && !steps_arg)
            last = n;
    }
    /* clusters and colours: an id rule when asked, else the GPU net's own
     * groups and classes when the net is one (else none: pages) */
    st = cluster_by ? pn_groups_by_prefix(net, cluster_by, &groups)
                    : pn_gpu_groups(net, &groups);
    if (st == PN_ENOMEM || !(ctx = pn_dot_context_new())) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = CLI_EOUTPUT;
        goto done;
    }
    o.groups = groups;
    if (timeline) {
        st = pn_dot_timeline(ctx, net, trace, first, last, &o, format, &data,
                             &len, &err);
    } else {
        if (trace) {
            size_t np = pn_net_place_count(net), nt =
                pn_net_transition_count(net);
            marking = malloc((np + 1) * sizeof *marking);
            fired = calloc(nt + 1, 1);
            if (!marking || !fired ||
                pn_trace_marking(trace, net, step, marking)) {
                fprintf(stderr, "%s: out of memory\n", prog);
                rc = CLI_EOUTPUT;
                goto done;
            }
            size_t nf;
            const uint32_t *f = pn_trace_fired(trace, step, &nf);
            for (size_t i = 0; i < nf; i++)
                fired[f[i]] = 1;
            o.marking = marking;
            o.fired = fired;
        }
        st = pn_dot_render(ctx, net, &o, format, &data, &len, &err);
    }
    if (st) {
        fprintf(stderr, "%s: %s\n", prog, err.text);
        if (st == PN_ETOOBIG)
            fprintf(stderr, "%s: %s\n", prog, timeline
                    ? "draw a smaller window with --steps A-B"
                    : "use --positions to draw it where the PNML places it, "
                      "or --layout sfdp");
        rc = st == PN_ETOOBIG ? EXIT_TOOBIG
             : st == PN_EINVAL ? CLI_EUSAGE
                               : CLI_EOUTPUT;
        goto done;
    }
    rc = write_out(output, data, len);
done:
    free(data);
    free(marking);
    free(fired);
    pn_dot_context_free(ctx);
    pn_groups_free(groups);
    pn_trace_free(trace);
    pn_net_free(net);
    return rc;
}
