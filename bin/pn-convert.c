/* pn-convert: read any PNML net, write it as standard PNML (or in the
 * dialect of PIPE, TAPAAL or WoPeD). */
#include <config.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "pn.h"

static const char *prog = "pn-convert";

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: %s [OPTION]... FILE\n"
            "Read the PNML net in FILE ('-' reads standard input), as written\n"
            "by PIPE, TAPAAL, GreatSPN, ePNK, WoPeD, ProM/pm4py, the MCC or\n"
            "this toolkit, or a <gspn> of a GreatSPN PNPRO project, and\n"
            "write it again as PNML (or as a GreatSPN project).\n"
            "\n"
            "  -o, --output FILE  write to FILE, atomically (default: standard\n"
            "                     output)\n"
            "  -d, --dialect D    standard (default): PNML 2009 for P/T nets,\n"
            "                     inhibitor arcs marked both ways;\n"
            "                     strict: valid against the official grammar,\n"
            "                     refuses nets with special arcs;\n"
            "                     pipe: PIPE's dialect;\n"
            "                     tapaal: standard, with the names as ids\n"
            "                     (TAPAAL shows ids), on TAPAAL's grid;\n"
            "                     woped: WoPeD's dialect (label positions\n"
            "                     absolute);\n"
            "                     pnpro: not PNML, a GreatSPN project (PNPRO)\n"
            "      --net ID       read the <net> with this id (default: the first)\n",
            prog);
    cli_usage_common(out, 21);
    fprintf(out,
            "\n"
            "Exit status: 0 success, 1 the input could not be read, 2 bad\n"
            "command line, 3 the output could not be written or the dialect\n"
            "cannot express the net.\n");
}

enum { OPT_NET = 128 };

/* What the dialect leaves out of a net written whole, said in one note
 * line each: tool-specific blocks (all in PIPE's dialect; in the strict
 * one those whose attributes the grammar does not allow), the net's name
 * (PIPE's <net> has none), what an untimed transition of a timed net
 * becomes in PIPE's dialect. */
static void notes(const pn_net_t *net, pn_dialect_t d)
{
    if (cli_quiet())
        return;
    if (d == PN_DIALECT_PIPE && pn_net_name(net))
        fprintf(stderr, "%s: note: the net's name '%s' left out (PIPE's "
                "dialect has no place for it)\n", prog, pn_net_name(net));
    /* PIPE has no untimed transitions: in a timed net they are written
     * as PIPE's default, and read back so */
    size_t c[PN_TIMING_KINDS];
    pn_net_count_timing(net, c);
    if (d == PN_DIALECT_PIPE && c[PN_TIMING_NONE] &&
        c[PN_TIMING_NONE] < pn_net_transition_count(net))
        fprintf(stderr, "%s: note: %zu untimed transition%s written as "
                "PIPE's default (immediate, weight 1, priority 1)\n", prog,
                c[PN_TIMING_NONE], c[PN_TIMING_NONE] > 1 ? "s" : "");
    size_t dropped = 0;
    for (size_t i = 0; i < pn_net_toolspecific_count(net); i++)
        dropped += !pn_dialect_keeps_toolspecific(d,
                                                  pn_net_toolspecific(net, i));
    if (dropped)
        fprintf(stderr, "%s: note: %zu tool-specific block%s left out (%s)\n",
                prog, dropped, dropped > 1 ? "s" : "",
                d == PN_DIALECT_PIPE
                    ? "PIPE's dialect has none"
                    : "the grammar allows no attributes on <toolspecific> "
                      "but tool and version");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_LONGOPT_OUTPUT,
        {"dialect", required_argument, NULL, 'd'},
        {"net", required_argument, NULL, OPT_NET},
        CLI_LONGOPTS_COMMON};
    cli_init(prog, argc, argv);
    cli_common_t cc = {.prog = prog, .usage = usage, .output = "-"};
    pn_read_options_t ro = {0};
    pn_write_options_t wo = {.dialect = PN_DIALECT_STANDARD};
    int c, rc;
    while ((c = getopt_long(argc, argv, "o:d:qhV", longopts, NULL)) != -1) {
        if (c == 'd')
            rc = cli_dialect(optarg, &wo.dialect) ? CLI_EUSAGE : -1;
        else if (c == OPT_NET) {
            ro.net_id = optarg;
            rc = -1;
        } else
            rc = cli_option(&cc, c, optarg);
        if (rc >= 0)
            return rc;
    }
    const char *path = cli_one_file(prog, argc, argv, optind);
    if (!path)
        return CLI_EUSAGE;
    const char *output = cc.output;
    pn_net_t *net;
    rc = cli_read_net(prog, path, &ro, &net);
    if (rc != CLI_OK)
        return rc;
    rc = cli_write_net(net, output, &wo);
    if (rc == CLI_OK)
        notes(net, wo.dialect);
    pn_net_free(net);
    return rc;
}
