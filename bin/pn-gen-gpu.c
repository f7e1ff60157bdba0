/* pn-gen-gpu: emit the GPU warp Petri net (WPNM) as PNML. */
#include <config.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pn.h"
#include "gpu.h"

static const char *prog = "pn-gen-gpu";

/* The short options of the generator's parameters (the library names
 * parameters, not options). */
static const struct {
    const char *name;
    char letter;
} letters[] = {{"warps", 'w'}, {"arith", 'a'}, {"global", 'g'}};

static char letter_of(const char *name)
{
    for (size_t i = 0; i < sizeof letters / sizeof *letters; i++)
        if (!strcmp(letters[i].name, name))
            return letters[i].letter;
    return 0;
}

/* A row's help, the parameters it names ({blocks}) as options (--blocks),
 * its lines from column 29. */
static void row_help(FILE *out, const char *h)
{
    fputc(' ', out);
    for (; *h; h++) {
        if (*h == '{')
            fputs("--", out);
        else if (*h == '\n')
            fprintf(out, "\n%29s", "");
        else if (*h != '}')
            fputc(*h, out);
    }
    fputc('\n', out);
}

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
        char c = letter_of(t[i].name);
        if (c)
            snprintf(head, sizeof head, "  -%c, --%s %s", c, t[i].name,
                     t[i].arg);
        else
            snprintf(head, sizeof head, "      --%s %s", t[i].name, t[i].arg);
        fprintf(out, "%-28s", head);
        if (strlen(head) >= 28)
            fprintf(out, "\n%28s", "");
        row_help(out, t[i].help);
    }
    fprintf(out,
        "  -o, --output FILE          write to FILE, atomically (default: standard\n"
        "                             output)\n"
        "  -d, --dialect D            standard (default), strict, pipe, tapaal,\n"
        "                             woped or pnpro (pn-convert(1) says what\n"
        "                             each writes)\n");
    cli_usage_common(out, 29);
    fprintf(out,
        "\n"
        "Exit status: 0 success, 1 the workload file could not be read or is\n"
        "invalid, 2 bad command line or value, 3 the output could not be written\n"
        "or the dialect cannot express the net.\n");
}

/* getopt codes of the table's rows without a short option */
enum { OPT_ROW = 256 };

/* Sets row (a number checked by the one parser of every program).
 * Returns -1 to go on, or CLI_EUSAGE after the message. */
static int set_row(pn_gpu_options_t *go, const pn_gpu_option_t *rows,
                   size_t row, const char *arg)
{
    const pn_gpu_option_t *r = &rows[row];
    char opt[80], text[32];
    snprintf(opt, sizeof opt, "--%s", r->name);
    const char *val = arg;
    if (r->type == PN_GPU_OPT_FLAG) {
        val = "1";
    } else if (r->type == PN_GPU_OPT_UINT) {
        uint64_t v;
        if (cli_uint(opt, arg, r->min, r->max, &v))
            return CLI_EUSAGE;
        snprintf(text, sizeof text, "%llu", (unsigned long long)v);
        val = text;
    }
    pn_error_t err;
    if (pn_gpu_option_set(go, row, val, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.text);
        return CLI_EUSAGE;
    }
    return -1;
}

int main(int argc, char **argv)
{
    size_t nrows;
    const pn_gpu_option_t *rows = pn_gpu_option_table(&nrows);
    /* the table's rows, then the program's own options */
    static const struct option own[] = {
        CLI_LONGOPT_OUTPUT,
        {"dialect", required_argument, NULL, 'd'},
        CLI_LONGOPTS_COMMON};
    size_t nown = sizeof own / sizeof *own;
    struct option longopts[nrows + nown];
    char shortopts[2 * nrows + 16];
    size_t ns = 0;
    for (size_t i = 0; i < nrows; i++) {
        char c = letter_of(rows[i].name);
        longopts[i].name = rows[i].name;
        longopts[i].has_arg = rows[i].type == PN_GPU_OPT_FLAG ? no_argument
                                                              : required_argument;
        longopts[i].flag = NULL;
        longopts[i].val = c ? c : OPT_ROW + (int)i;
        if (c) {
            shortopts[ns++] = c;
            shortopts[ns++] = ':';
        }
    }
    memcpy(longopts + nrows, own, sizeof own);
    snprintf(shortopts + ns, sizeof shortopts - ns, "o:d:qhV");
    cli_init(prog, argc, argv);
    pn_gpu_options_t go;
    pn_gpu_options_init(&go);
    cli_common_t cc = {.prog = prog, .usage = usage, .output = "-"};
    pn_write_options_t wo = {PN_DIALECT_STANDARD};
    int c, rc;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        /* a row of the generator's table */
        long row = c >= OPT_ROW ? c - OPT_ROW : -1;
        for (size_t i = 0; row < 0 && i < nrows; i++)
            if (letter_of(rows[i].name) == c)
                row = (long)i;
        if (row >= 0 && (size_t)row < nrows)
            rc = set_row(&go, rows, (size_t)row, optarg);
        else if (c == 'd')
            rc = cli_dialect(optarg, &wo.dialect) ? CLI_EUSAGE : -1;
        else
            rc = cli_option(&cc, c, optarg);
        if (rc >= 0)
            return rc;
    }
    const char *output = cc.output;
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
    if (p.warps > PN_GPU_MAX_RESIDENT_WARPS)
        cli_warning("%zu warps on one SM; real SMs hold at most %d resident "
                    "warps", p.warps, PN_GPU_MAX_RESIDENT_WARPS);
    pn_net_t *net;
    st = pn_gpu_net(&p, &net);
    free(work);
    if (st) {
        fprintf(stderr, "%s: cannot build the net: %s\n", prog,
                pn_strstatus(st));
        return st == PN_ENOMEM ? CLI_EOUTPUT : CLI_EUSAGE;
    }
    rc = cli_write_net(net, output, &wo);
    pn_net_free(net);
    return rc;
}
