/* pn-gen-gpu: emit the GPU warp Petri net (WPNM) as PNML. */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pn.h"
#include "gpu.h"

static const char *prog = "pn-gen-gpu";

/* "  -w, --warps W" then the help, both from the generator's table */
static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]...\n"
        "Write the GPU warp Petri net (WPNM) of one streaming multiprocessor as\n"
        "standard PNML: W warps, S warp schedulers, per-warp instruction counts.\n"
        "\n", prog);
    size_t n;
    const pn_gpu_option_t *t = pn_gpu_option_table(&n);
    for (size_t i = 0; i < n; i++) {
        char head[64];
        if (t[i].short_name)
            snprintf(head, sizeof head, "  -%c, --%s %s", t[i].short_name,
                     t[i].name, t[i].arg);
        else
            snprintf(head, sizeof head, "      --%s %s", t[i].name, t[i].arg);
        fprintf(out, "%-28s", head);
        if (strlen(head) >= 28)
            fprintf(out, "\n%28s", "");
        for (const char *h = t[i].help; *h; h++) {
            fputc(' ', out);
            const char *nl = strchr(h, '\n');
            size_t len = nl ? (size_t)(nl - h) : strlen(h);
            fprintf(out, "%.*s\n", (int)len, h);
            if (!nl)
                break;
            fprintf(out, "%28s", "");
            h = nl;
        }
    }
    fprintf(out,
        "  -o, --output FILE          write to FILE, atomically (default: standard\n"
        "                             output)\n"
        "  -d, --dialect D            standard (default), strict or pipe\n"
        "  -q, --quiet                no warnings\n"
        "  -h, --help                 show this help and exit\n"
        "  -V, --version              show the version and exit\n"
        "\n"
        "Exit status: 0 success, 1 the workload file could not be read or is\n"
        "invalid, 2 bad command line or value, 3 the output could not be written\n"
        "or the dialect cannot express the net.\n");
}

/* getopt codes of the table's rows without a short option */
enum { OPT_ROW = 256 };

static int number(const char *opt, const char *s, uint64_t *out, int zero_ok)
{
    const char *p = s;
    while (*p == ' ')
        p++;
    if (*p == '-') {
        fprintf(stderr, "%s: %s: '%s' is negative\n", prog, opt, s);
        return -1;
    }
    if (*p < '0' || *p > '9') {
        fprintf(stderr, "%s: %s: '%s' is not a number\n", prog, opt, s);
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (*end) {
        fprintf(stderr, "%s: %s: '%s' is not a whole number\n", prog, opt, s);
        return -1;
    }
    if (errno == ERANGE || v > PN_TOKENS_MAX - 1) {
        fprintf(stderr, "%s: %s: '%s' is too large\n", prog, opt, s);
        return -1;
    }
    if (!zero_ok && v == 0) {
        fprintf(stderr, "%s: %s: must be at least 1\n", prog, opt);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    size_t nrows;
    const pn_gpu_option_t *rows = pn_gpu_option_table(&nrows);
    /* the table's rows, then the program's own options */
    static const struct option own[] = {
        {"output", required_argument, NULL, 'o'},
        {"dialect", required_argument, NULL, 'd'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    size_t nown = sizeof own / sizeof *own;
    struct option longopts[nrows + nown];
    char shortopts[2 * nrows + 16];
    size_t ns = 0;
    for (size_t i = 0; i < nrows; i++) {
        longopts[i].name = rows[i].name;
        longopts[i].has_arg = rows[i].type == PN_GPU_OPT_FLAG ? no_argument
                                                              : required_argument;
        longopts[i].flag = NULL;
        longopts[i].val = rows[i].short_name ? rows[i].short_name
                                             : OPT_ROW + (int)i;
        if (rows[i].short_name) {
            shortopts[ns++] = rows[i].short_name;
            shortopts[ns++] = ':';
        }
    }
    memcpy(longopts + nrows, own, sizeof own);
    snprintf(shortopts + ns, sizeof shortopts - ns, "o:d:qhV");
    cli_init(prog, argc, argv);
    int quiet = 0;
    pn_gpu_options_t go;
    pn_gpu_options_init(&go);
    const char *output = "-";
    pn_write_options_t wo = {PN_DIALECT_STANDARD};
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        /* a row of the generator's table */
        long row = c >= OPT_ROW ? c - OPT_ROW : -1;
        for (size_t i = 0; row < 0 && i < nrows; i++)
            if (rows[i].short_name && rows[i].short_name == c)
                row = (long)i;
        if (row >= 0 && (size_t)row < nrows) {
            const pn_gpu_option_t *r = &rows[row];
            char opt[80], text[32];
            snprintf(opt, sizeof opt, "--%s", r->name);
            const char *val = optarg;
            if (r->type == PN_GPU_OPT_FLAG) {
                val = "1";
            } else if (r->type == PN_GPU_OPT_UINT) {
                uint64_t v;
                if (number(opt, optarg, &v, r->min == 0))
                    return CLI_EUSAGE;
                if (v > r->max) {
                    fprintf(stderr, "%s: %s: '%s' is too large\n", prog, opt,
                            optarg);
                    return CLI_EUSAGE;
                }
                snprintf(text, sizeof text, "%llu", (unsigned long long)v);
                val = text;
            }
            pn_error_t err;
            if (pn_gpu_option_set(&go, (size_t)row, val, &err)) {
                fprintf(stderr, "%s: %s\n", prog, err.text);
                return CLI_EUSAGE;
            }
            continue;
        }
        switch (c) {
        case 'o': output = optarg; break;
        case 'd':
            if (pn_dialect_parse(optarg, &wo.dialect)) {
                fprintf(stderr, "%s: --dialect: '%s' (standard, strict or "
                        "pipe)\n", prog, optarg);
                return CLI_EUSAGE;
            }
            break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return CLI_OK;
        case 'V': cli_version(prog); return CLI_OK;
        default:
            fprintf(stderr, "Try '%s --help'.\n", prog);
            return CLI_EUSAGE;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\nTry '%s --help'.\n",
                prog, argv[optind], prog);
        return CLI_EUSAGE;
    }
    pn_gpu_params_t p;
    pn_gpu_warp_t *work = NULL;
    pn_error_t err;
    pn_status_t st = pn_gpu_options_arch(&go, &err);
    if (st) {
        fprintf(stderr, "%s: %s\n", prog, err.text);
        return CLI_EUSAGE;
    }
    st = pn_gpu_options_resolve(&go, &p, &work, &err);
    if (st) {
        /* a workload file's errors name it (exit 1); the rest is usage */
        if (err.file[0]) {
            cli_error(prog, &err);
            return CLI_EINPUT;
        }
        fprintf(stderr, "%s: %s\n", prog, err.text);
        return CLI_EUSAGE;
    }
    if (p.warps > PN_GPU_MAX_WARPS) {
        fprintf(stderr, "%s: %zu warps: at most %d (real SMs hold at most "
                "%d resident warps)\n", prog, p.warps, PN_GPU_MAX_WARPS,
                PN_GPU_MAX_RESIDENT_WARPS);
        free(work);
        return CLI_EUSAGE;
    }
    if (p.warps > PN_GPU_MAX_RESIDENT_WARPS && !quiet)
        fprintf(stderr, "%s: warning: %zu warps on one SM; real SMs hold at "
                "most %d resident warps\n", prog, p.warps,
                PN_GPU_MAX_RESIDENT_WARPS);
    pn_net_t *net;
    st = pn_gpu_net(&p, &net);
    free(work);
    if (st) {
        fprintf(stderr, "%s: cannot build the net: %s\n", prog,
                pn_strstatus(st));
        return st == PN_ENOMEM ? CLI_EOUTPUT : CLI_EUSAGE;
    }
    int rc = cli_write_net(net, output, &wo);
    pn_net_free(net);
    return rc;
}
