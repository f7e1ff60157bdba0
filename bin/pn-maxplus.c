/* pn-maxplus: the max-plus kernel-time model on a kernel graph (DOT). */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pn.h"

static const char *prog = "pn-maxplus";

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Estimate a GPU kernel's time with the max-plus model of Antonyuk and\n"
        "Mikheev from its kernel graph, a Graphviz DOT file ('-': standard\n"
        "input): nodes are data states, arcs carry a time attribute, a loop on a\n"
        "node is its operation time, role=input|output marks the ends.\n"
        "\n"
        "  -s, --set NAME=VALUE[,...]  bind symbols used in times (repeatable)\n"
        "  -m, --model M        naive (memory times only), ops (with operation\n"
        "                       loops; default) or serialized (global memory\n"
        "                       served executor by executor)\n"
        "  -N, --elements N     elements to process (default 1)\n"
        "  -n, --executors n    parallel executors (default 1)\n"
        "      --dt DT          serialized: time between two global reads\n"
        "      --dT DT          serialized: time between two global writes\n"
        "      --cached-read T  a repeated read of the same input costs T\n"
        "      --method M       graph (default: longest path, linear time) or\n"
        "                       matrix (the paper's: height k and Z^k)\n"
        "      --matrix         print the kernel matrix Z and its powers\n"
        "      --path           print the critical path\n"
        "      --pnml FILE      write the kernel's timed event graph as PNML\n"
        "                       (pn-run takes r + 1 steps on it)\n"
        "  -f, --format FMT     text (default) or json\n"
        "  -h, --help           show this help and exit\n"
        "  -V, --version        show the version and exit\n"
        "\n"
        "Exit status: 0 success, 1 the graph could not be read or is not a\n"
        "kernel graph (cycle, missing or negative time, unbound symbol, no\n"
        "input or output), 2 bad command line, 3 an output could not be\n"
        "written.\n",
        prog);
}

enum { OPT_DT = 128, OPT_DTW, OPT_CACHED, OPT_METHOD, OPT_MATRIX, OPT_PATH,
       OPT_PNML };

static int number(const char *opt, const char *s, double *out, double min)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < min) {
        fprintf(stderr, "%s: %s: '%s' is not a number >= %g\n", prog, opt, s,
                min);
        return -1;
    }
    *out = v;
    return 0;
}

static void fmt(char *buf, size_t size, double v)
{
    if (v == PN_MP_EPS)
        snprintf(buf, size, "eps");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.6g", v);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"set", required_argument, NULL, 's'},
        {"model", required_argument, NULL, 'm'},
        {"elements", required_argument, NULL, 'N'},
        {"executors", required_argument, NULL, 'n'},
        {"dt", required_argument, NULL, OPT_DT},
        {"dT", required_argument, NULL, OPT_DTW},
        {"cached-read", required_argument, NULL, OPT_CACHED},
        {"method", required_argument, NULL, OPT_METHOD},
        {"matrix", no_argument, NULL, OPT_MATRIX},
        {"path", no_argument, NULL, OPT_PATH},
        {"pnml", required_argument, NULL, OPT_PNML},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    pn_mp_params_t p = {PN_MP_OPS, 1, 0, 0, 0, 0};
    double elements = 1;
    int matrix_method = 0, show_matrix = 0, show_path = 0, json = 0;
    const char *pnml = NULL;
    const char *sets[argc + 1]; /* --set values, joined after parsing */
    size_t nsets = 0;
    int c;
    while ((c = getopt_long(argc, argv, "s:m:N:n:f:hV", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 's': sets[nsets++] = optarg; break;
        case 'm':
            if (pn_mp_model_parse(optarg, &p.model)) {
                fprintf(stderr, "%s: --model: '%s' (naive, ops or "
                        "serialized)\n", prog, optarg);
                bad = 1;
            }
            break;
        case 'N':
            bad = number("--elements", optarg, &elements, 1);
            if (!bad && elements != floor(elements)) {
                fprintf(stderr, "%s: --elements: a whole number\n", prog);
                bad = 1;
            }
            break;
        case 'n':
            bad = number("--executors", optarg, &p.executors, 1);
            if (!bad && p.executors != floor(p.executors)) {
                fprintf(stderr, "%s: --executors: a whole number\n", prog);
                bad = 1;
            }
            break;
        case OPT_DT: bad = number("--dt", optarg, &p.dt, 0); break;
        case OPT_DTW: bad = number("--dT", optarg, &p.dT, 0); break;
        case OPT_CACHED:
            bad = number("--cached-read", optarg, &p.cached_read, 0);
            p.cached = 1;
            break;
        case OPT_METHOD:
            if (!strcmp(optarg, "matrix"))
                matrix_method = 1;
            else if (!strcmp(optarg, "graph"))
                matrix_method = 0;
            else {
                fprintf(stderr, "%s: --method: '%s' (graph or matrix)\n",
                        prog, optarg);
                bad = 1;
            }
            break;
        case OPT_MATRIX: show_matrix = 1; break;
        case OPT_PATH: show_path = 1; break;
        case OPT_PNML: pnml = optarg; break;
        case 'f':
            if (!strcmp(optarg, "json"))
                json = 1;
            else if (strcmp(optarg, "text")) {
                fprintf(stderr, "%s: --format: '%s' (text or json)\n", prog,
                        optarg);
                bad = 1;
            }
            break;
        case 'h': usage(stdout); return CLI_OK;
        case 'V': cli_version(prog); return CLI_OK;
        default:
            fprintf(stderr, "Try '%s --help'.\n", prog);
            return CLI_EUSAGE;
        }
        if (bad)
            return CLI_EUSAGE;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "%s: expected one FILE (or '-')\nTry '%s --help'.\n",
                prog, prog);
        return CLI_EUSAGE;
    }
    if ((p.dt || p.dT) && p.model != PN_MP_SERIALIZED) {
        fprintf(stderr, "%s: --dt and --dT belong to --model serialized\n",
                prog);
        return CLI_EUSAGE;
    }
    size_t blen = 1;
    for (size_t i = 0; i < nsets; i++)
        blen += strlen(sets[i]) + 1;
    char *bindings = calloc(blen, 1);
    if (!bindings)
        return CLI_EUSAGE;
    for (size_t i = 0; i < nsets; i++) {
        if (i)
            strcat(bindings, ",");
        strcat(bindings, sets[i]);
    }
    pn_kernel_t *k;
    pn_error_t err;
    pn_status_t st = pn_kernel_read_dot(argv[optind], bindings, &k, &err);
    free(bindings);
    if (st) {
        cli_error(prog, &err);
        if (st == PN_EVALUE && strstr(err.text, "unbound symbol"))
            fprintf(stderr, "%s: give symbols their values with --set "
                    "NAME=VALUE\n", prog);
        return st == PN_EINVAL ? CLI_EUSAGE : CLI_EINPUT;
    }
    double r, paper = PN_MP_EPS;
    unsigned h = pn_kernel_height(k, &p);
    st = matrix_method ? pn_kernel_time_matrix(k, &p, &r, &paper)
                       : pn_kernel_time_graph(k, &p, &r);
    if (st) {
        fprintf(stderr, "%s: out of memory\n", prog);
        pn_kernel_free(k);
        return CLI_EINPUT;
    }
    double rounds = ceil(elements / p.executors);
    double total = rounds * r;
    static const char *models[] = {"naive", "ops", "serialized"};
    char rs[64], ts[64], ps[64];
    fmt(rs, sizeof rs, r);
    fmt(ts, sizeof ts, total);
    fmt(ps, sizeof ps, paper);
    size_t n = pn_kernel_node_count(k);
    size_t *path = malloc((n + 1) * sizeof *path), np = 0;
    if (show_path && path)
        pn_kernel_critical_path(k, &p, path, &np);
    if (json) {
        printf("{\"model\": \"%s\", \"method\": \"%s\", \"nodes\": %zu, "
               "\"arcs\": %zu, \"height\": %u, \"r\": %s, \"elements\": %.0f, "
               "\"executors\": %.0f, \"rounds\": %.0f, \"total\": %s",
               models[p.model], matrix_method ? "matrix" : "graph", n,
               pn_kernel_arc_count(k), h, rs, elements, p.executors, rounds,
               ts);
        if (matrix_method)
            printf(", \"paper_r\": %s", ps);
        if (show_path) {
            printf(", \"path\": [");
            for (size_t i = 0; i < np; i++) {
                printf(i ? ", " : "");
                cli_json_string(stdout, pn_kernel_node_name(k, path[i]));
            }
            printf("]");
        }
        printf("}\n");
    } else {
        printf("model: %s (%s method)\n", models[p.model],
               matrix_method ? "matrix" : "graph");
        printf("nodes: %zu, arcs: %zu, height k: %u\n", n,
               pn_kernel_arc_count(k), h);
        printf("inputs:");
        for (size_t v = 0; v < n; v++)
            if (pn_kernel_node_role(k, v) & 1)
                printf(" %s", pn_kernel_node_name(k, v));
        printf("\noutputs:");
        for (size_t v = 0; v < n; v++)
            if (pn_kernel_node_role(k, v) & 2)
                printf(" %s", pn_kernel_node_name(k, v));
        printf("\n");
        if (show_matrix) {
            pn_mp_t *z = pn_kernel_matrix(k, &p);
            printf("nodes in matrix order:");
            for (size_t v = 0; v < n; v++)
                printf(" %zu=%s", v + 1, pn_kernel_node_name(k, v));
            printf("\nZ =\n");
            if (z)
                pn_mp_print(stdout, z);
            for (unsigned e = 2; z && e <= h; e++) {
                pn_mp_t *ze = pn_mp_power(z, e);
                if (!ze)
                    break;
                printf("Z^%u =\n", e);
                pn_mp_print(stdout, ze);
                pn_mp_free(ze);
            }
            pn_mp_free(z);
        }
        if (matrix_method)
            printf("<1_o, Z^%u 1_i>: %s\n", h, ps);
        printf("r: %s\n", rs);
        printf("rounds: ceil(%.0f / %.0f) = %.0f\n", elements, p.executors,
               rounds);
        printf("total: %s\n", ts);
        if (show_path) {
            printf("critical path:");
            for (size_t i = 0; i < np; i++) {
                double loop = pn_kernel_loop(k, path[i]);
                printf("%s %s", i ? " ->" : "", pn_kernel_node_name(k, path[i]));
                if (loop > 0 && p.model != PN_MP_NAIVE) {
                    char ls[64];
                    fmt(ls, sizeof ls, loop);
                    printf(" (op %s)", ls);
                }
            }
            printf("\n");
        }
    }
    free(path);
    int rc = CLI_OK;
    if (pnml) {
        pn_net_t *net;
        pn_error_clear(&err);
        snprintf(err.file, sizeof err.file, "%s", argv[optind]);
        if (pn_kernel_event_graph(k, &p, &net, &err)) {
            cli_error(prog, &err);
            rc = CLI_EUSAGE;
        } else {
            if (pn_pnml_write_file(net, pnml, NULL, &err)) {
                cli_error(prog, &err);
                rc = CLI_EOUTPUT;
            }
            pn_net_free(net);
        }
    }
    pn_kernel_free(k);
    if (fflush(stdout) != 0)
        return CLI_EOUTPUT;
    return rc;
}
