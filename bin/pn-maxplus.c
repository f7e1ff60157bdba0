/* pn-maxplus: the max-plus kernel-time model on a kernel graph (DOT). */
#include <config.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lib_private.h"
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
        "      --set NAME=VALUE[,...]  bind symbols used in times (repeatable)\n"
        "  -m, --model M        naive (memory times only), ops (with operation\n"
        "                       loops; default) or serialized (global memory\n"
        "                       served executor by executor)\n"
        "  -N, --elements N     elements to process (default 1)\n"
        "      --executors n    parallel executors (default 1)\n"
        "      --dt DT          serialized: time between two global reads\n"
        "      --dT DT          serialized: time between two global writes\n"
        "      --cached-read T  a repeated read of the same input costs T\n"
        "      --method M       graph (default: longest path, linear time) or\n"
        "                       matrix (the paper's: height k and Z^k)\n"
        "      --matrix         print the kernel matrix Z and its powers\n"
        "      --path           print the critical path\n"
        "      --pnml FILE      write the kernel's timed event graph as PNML\n"
        "                       (pn-run takes r + 1 steps on it; at most\n"
        "                       1,000,000 places and transitions)\n"
        "  -f, --format FMT     text (default) or json\n",
        prog);
    cli_usage_common(out, 23);
    fprintf(out,
        "\n"
        "Exit status: 0 success, 1 the graph could not be read or is not a\n"
        "kernel graph (cycle, missing or negative time, unbound symbol, no\n"
        "input or output) or a time or result overflows (beyond 1.8e308),\n"
        "2 bad command line, 3 an output could not be written.\n");
}

enum { OPT_DT = 128, OPT_DTW, OPT_CACHED, OPT_METHOD, OPT_MATRIX, OPT_PATH,
       OPT_PNML, OPT_SET, OPT_EXECUTORS };

typedef struct {
    pn_mp_params_t p;
    double elements;
    int matrix_method, show_matrix, show_path, json;
    const char *pnml;
    const char *file;    /* the kernel graph ('-': standard input) */
    const char **sets;   /* the --set values, joined once parsed */
    size_t nsets;
} opts_t;

/* What the model gives for the kernel. */
typedef struct {
    unsigned h;                 /* height k */
    double r, paper, rounds, total;
    char rs[64], ts[64], ps[64]; /* r, total and paper as printed */
    size_t *path, np;           /* the critical path (--path) */
} result_t;

static const char *models[] = {"naive", "ops", "serialized"};

static void fmt(char *buf, size_t size, double v)
{
    if (v == PN_MP_EPS)
        snprintf(buf, size, "eps");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.6g", v);
}

/* ---- the command line --------------------------------------------------- */

/* A number >= 1 that is whole, for --elements and --executors (1e6 is
 * one). */
static int whole(const char *opt, const char *s, double *out)
{
    if (cli_real(opt, s, 1, INFINITY, out))
        return -1;
    if (*out != floor(*out)) {
        fprintf(stderr, "%s: %s: '%s' is not a whole number\n", prog, opt, s);
        return -1;
    }
    return 0;
}

/* Takes option c with its argument.  Returns an exit code, or -1 to go on. */
static int set_option(opts_t *o, cli_common_t *cc, int c, const char *arg)
{
    int bad = 0;
    switch (c) {
    case OPT_SET: o->sets[o->nsets++] = arg; break;
    case 'm':
        if (pn_mp_model_parse(arg, &o->p.model)) {
            fprintf(stderr, "%s: --model: '%s' is not naive, ops or "
                    "serialized\n", prog, arg);
            bad = 1;
        }
        break;
    case 'N': bad = whole("--elements", arg, &o->elements); break;
    case OPT_EXECUTORS: bad = whole("--executors", arg, &o->p.executors); break;
    case OPT_DT: bad = cli_real("--dt", arg, 0, INFINITY, &o->p.dt); break;
    case OPT_DTW: bad = cli_real("--dT", arg, 0, INFINITY, &o->p.dT); break;
    case OPT_CACHED:
        bad = cli_real("--cached-read", arg, 0, INFINITY, &o->p.cached_read);
        o->p.cached = 1;
        break;
    case OPT_METHOD:
        if (!strcmp(arg, "matrix"))
            o->matrix_method = 1;
        else if (!strcmp(arg, "graph"))
            o->matrix_method = 0;
        else {
            fprintf(stderr, "%s: --method: '%s' is not graph or matrix\n",
                    prog, arg);
            bad = 1;
        }
        break;
    case OPT_MATRIX: o->show_matrix = 1; break;
    case OPT_PATH: o->show_path = 1; break;
    case OPT_PNML: o->pnml = arg; break;
    default: return cli_option(cc, c, arg);
    }
    return bad ? CLI_EUSAGE : -1;
}

/* Reads the command line into o (o->sets: room for argc values).  Returns
 * an exit code, or -1 to go on. */
static int parse_options(int argc, char **argv, opts_t *o)
{
    static const struct option longopts[] = {
        {"set", required_argument, NULL, OPT_SET},
        {"model", required_argument, NULL, 'm'},
        {"elements", required_argument, NULL, 'N'},
        {"executors", required_argument, NULL, OPT_EXECUTORS},
        {"dt", required_argument, NULL, OPT_DT},
        {"dT", required_argument, NULL, OPT_DTW},
        {"cached-read", required_argument, NULL, OPT_CACHED},
        {"method", required_argument, NULL, OPT_METHOD},
        {"matrix", no_argument, NULL, OPT_MATRIX},
        {"path", no_argument, NULL, OPT_PATH},
        {"pnml", required_argument, NULL, OPT_PNML},
        CLI_LONGOPT_FORMAT,
        CLI_LONGOPTS_COMMON};
    pn_mp_params_init(&o->p);
    o->elements = 1;
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_TEXT) | CLI_FMT(CLI_JSON),
                       .format = CLI_TEXT};
    int c, rc;
    while ((c = getopt_long(argc, argv, "m:N:f:qhV", longopts, NULL)) != -1)
        if ((rc = set_option(o, &cc, c, optarg)) >= 0)
            return rc;
    o->json = cc.format == CLI_JSON;
    if (!(o->file = cli_one_file(prog, argc, argv, optind)))
        return CLI_EUSAGE;
    if ((o->p.dt || o->p.dT) && o->p.model != PN_MP_SERIALIZED) {
        fprintf(stderr, "%s: --dt and --dT belong to --model serialized\n",
                prog);
        return CLI_EUSAGE;
    }
    return -1;
}

/* ---- load, compute ------------------------------------------------------ */

/* Reads the kernel graph with the --set bindings. */
static int load_kernel(const opts_t *o, pn_kernel_t **k)
{
    size_t blen = 1;
    for (size_t i = 0; i < o->nsets; i++)
        blen += strlen(o->sets[i]) + 1;
    char *bindings = calloc(blen, 1);
    if (!bindings)
        return CLI_EUSAGE;
    for (size_t i = 0; i < o->nsets; i++) {
        if (i)
            strcat(bindings, ",");
        strcat(bindings, o->sets[i]);
    }
    pn_error_t err;
    pn_status_t st = pn_kernel_read_dot(o->file, bindings, k, &err);
    free(bindings);
    if (st) {
        cli_error(prog, &err);
        if (st == PN_EVALUE && strstr(err.text, "unbound symbol"))
            fprintf(stderr, "%s: give symbols their values with --set "
                    "NAME=VALUE\n", prog);
        return st == PN_EINVAL ? CLI_EUSAGE : CLI_EINPUT;
    }
    return CLI_OK;
}

/* The first power Z^e, e <= h, with an entry beyond the doubles (loops
 * repeat in the powers), or 0 when there is none. */
static unsigned matrix_overflow(const pn_kernel_t *k, const pn_mp_params_t *p,
                                unsigned h)
{
    pn_mp_t *z = pn_kernel_matrix(k, p);
    unsigned bad = 0;
    for (unsigned e = 1; z && !bad && e <= (h ? h : 1); e++) {
        pn_mp_t *ze = pn_mp_power(z, e);
        for (size_t i = 0; ze && !bad && i < ze->rows * ze->cols; i++)
            if (isinf(ze->a[i]) > 0)
                bad = e;
        pn_mp_free(ze);
    }
    pn_mp_free(z);
    return bad;
}

/* An overflow is an input error: the times add up beyond a double. */
static int overflow(const opts_t *o, const char *what)
{
    fprintf(stderr, "%s: %s: %s overflows: the times add up beyond about "
            "1.8e308 (the largest double)\n", prog, cli_input_name(o->file),
            what);
    return CLI_EINPUT;
}

/* The kernel's time r by the chosen method, the total for the elements,
 * and the critical path when asked. */
static int compute(const pn_kernel_t *k, const opts_t *o, result_t *res)
{
    res->paper = PN_MP_EPS;
    res->h = pn_kernel_height(k, &o->p);
    pn_status_t st = o->matrix_method
                         ? pn_kernel_time_matrix(k, &o->p, &res->r, &res->paper)
                         : pn_kernel_time_graph(k, &o->p, &res->r);
    if (st == PN_ERANGE)
        return overflow(o, isinf(res->r) ? "the time r"
                                         : "the paper's <1_o, Z^k 1_i>");
    if (st) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CLI_EINPUT;
    }
    if (o->show_matrix) {
        unsigned e = matrix_overflow(k, &o->p, res->h);
        char what[64];
        snprintf(what, sizeof what, "an entry of Z^%u", e);
        if (e)
            return overflow(o, what);
    }
    res->rounds = ceil(o->elements / o->p.executors);
    res->total = res->rounds * res->r;
    if (isinf(res->total))
        return overflow(o, "the total ceil(N/n) * r");
    fmt(res->rs, sizeof res->rs, res->r);
    fmt(res->ts, sizeof res->ts, res->total);
    fmt(res->ps, sizeof res->ps, res->paper);
    res->np = 0;
    res->path = NULL;
    if (o->show_path) {
        res->path = malloc((pn_kernel_node_count(k) + 1) * sizeof *res->path);
        if (res->path)
            pn_kernel_critical_path(k, &o->p, res->path, &res->np);
    }
    return CLI_OK;
}

/* ---- print -------------------------------------------------------------- */

static void print_json(const pn_kernel_t *k, const opts_t *o,
                       const result_t *res)
{
    printf("{\"model\": \"%s\", \"method\": \"%s\", \"nodes\": %zu, "
           "\"arcs\": %zu, \"height\": %u, \"r\": %s, \"elements\": %.0f, "
           "\"executors\": %.0f, \"rounds\": %.0f, \"total\": %s",
           models[o->p.model], o->matrix_method ? "matrix" : "graph",
           pn_kernel_node_count(k), pn_kernel_arc_count(k), res->h, res->rs,
           o->elements, o->p.executors, res->rounds, res->ts);
    if (o->matrix_method)
        printf(", \"paper_r\": %s", res->ps);
    if (o->show_path) {
        printf(", \"path\": [");
        for (size_t i = 0; i < res->np; i++) {
            printf(i ? ", " : "");
            pni_json_string(stdout, pn_kernel_node_name(k, res->path[i]), 0);
        }
        printf("]");
    }
    printf("}\n");
}

/* The nodes with role bit (1: input, 2: output), after label. */
static void print_role(const pn_kernel_t *k, const char *label, int bit)
{
    printf("%s", label);
    for (size_t v = 0; v < pn_kernel_node_count(k); v++)
        if (pn_kernel_node_role(k, v) & bit)
            printf(" %s", pn_kernel_node_name(k, v));
}

/* The kernel matrix Z and its powers up to the height h. */
static void print_matrix(const pn_kernel_t *k, const pn_mp_params_t *p,
                         unsigned h)
{
    pn_mp_t *z = pn_kernel_matrix(k, p);
    printf("nodes in matrix order:");
    for (size_t v = 0; v < pn_kernel_node_count(k); v++)
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

static void print_path(const pn_kernel_t *k, const opts_t *o,
                       const result_t *res)
{
    printf("critical path:");
    for (size_t i = 0; i < res->np; i++) {
        double loop = pn_kernel_loop(k, res->path[i]);
        printf("%s %s", i ? " ->" : "", pn_kernel_node_name(k, res->path[i]));
        if (loop > 0 && o->p.model != PN_MP_NAIVE) {
            char ls[64];
            fmt(ls, sizeof ls, loop);
            printf(" (op %s)", ls);
        }
    }
    printf("\n");
}

static void print_text(const pn_kernel_t *k, const opts_t *o,
                       const result_t *res)
{
    printf("model: %s (%s method)\n", models[o->p.model],
           o->matrix_method ? "matrix" : "graph");
    printf("nodes: %zu, arcs: %zu, height k: %u\n", pn_kernel_node_count(k),
           pn_kernel_arc_count(k), res->h);
    print_role(k, "inputs:", 1);
    print_role(k, "\noutputs:", 2);
    printf("\n");
    if (o->show_matrix)
        print_matrix(k, &o->p, res->h);
    if (o->matrix_method)
        printf("<1_o, Z^%u 1_i>: %s\n", res->h, res->ps);
    printf("r: %s\n", res->rs);
    printf("rounds: ceil(%.0f / %.0f) = %.0f\n", o->elements, o->p.executors,
           res->rounds);
    printf("total: %s\n", res->ts);
    if (o->show_path)
        print_path(k, o, res);
}

/* --pnml: the kernel's timed event graph, written as PNML. */
static int write_pnml(const pn_kernel_t *k, const opts_t *o)
{
    pn_net_t *net;
    pn_error_t err;
    if (pn_kernel_event_graph(k, &o->p, &net, &err)) {
        /* the library's errors here are about the graph read from file */
        snprintf(err.file, sizeof err.file, "%s", o->file);
        cli_error(prog, &err);
        return CLI_EUSAGE;
    }
    int rc = cli_write_net(net, o->pnml, NULL);
    pn_net_free(net);
    return rc;
}

int main(int argc, char **argv)
{
    const char *sets[argc + 1]; /* --set values, joined after parsing */
    opts_t o = {.sets = sets};
    cli_init(prog, argc, argv);
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    pn_kernel_t *k;
    if ((rc = load_kernel(&o, &k)) != CLI_OK)
        return rc;
    result_t res;
    if ((rc = compute(k, &o, &res)) != CLI_OK) {
        pn_kernel_free(k);
        return rc;
    }
    if (o.json)
        print_json(k, &o, &res);
    else
        print_text(k, &o, &res);
    free(res.path);
    if (o.pnml)
        rc = write_pnml(k, &o);
    pn_kernel_free(k);
    return rc; /* standard output is checked at exit (cli_init()) */
}
