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

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]...\n"
        "Write the GPU warp Petri net (WPNM) of one streaming multiprocessor as\n"
        "standard PNML: W warps, S warp schedulers, per-warp instruction counts.\n"
        "\n"
        "  -w, --warps W              warps on the SM (default 32, at most\n"
        "                             16384)\n"
        "  -s, --schedulers S         warp schedulers (default 2)\n"
        "  -a, --arith XA             arithmetic instructions per warp (default 10)\n"
        "      --shared XS            shared-memory accesses per warp (default 4)\n"
        "  -g, --global XG            global-memory accesses per warp (default 4)\n"
        "      --l1 L1                global-memory latency in steps (default 20)\n"
        "      --l2 L2                shared-memory latency in steps (default 2)\n"
        "      --pipelined            pipelined issue: an arithmetic or shared\n"
        "                             instruction gives its scheduler back when it\n"
        "                             is issued, not when it is finished\n"
        "      --la LA                with --pipelined: arithmetic latency in\n"
        "                             steps (default 0)\n"
        "      --workload FILE        per-warp counts: lines warp,arith,shared,global\n"
        "      --threads-per-block T  with --blocks and --sms: warps per SM =\n"
        "      --blocks B               ceil(T/32) * ceil(B/N) (one SM, one wave)\n"
        "      --sms N\n"
        "  -o, --output FILE          write to FILE, atomically (default: standard\n"
        "                             output)\n"
        "  -d, --dialect D            standard (default), strict or pipe\n"
        "  -q, --quiet                no warnings\n"
        "  -h, --help                 show this help and exit\n"
        "  -V, --version              show the version and exit\n"
        "\n"
        "Exit status: 0 success, 1 the workload file could not be read or is\n"
        "invalid, 2 bad command line or value, 3 the output could not be written\n"
        "or the dialect cannot express the net.\n",
        prog);
}

enum { OPT_SHARED = 128, OPT_L1, OPT_L2, OPT_WORKLOAD, OPT_TPB, OPT_BLOCKS,
       OPT_SMS, OPT_PIPELINED, OPT_LA };

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
    static const struct option longopts[] = {
        {"warps", required_argument, NULL, 'w'},
        {"schedulers", required_argument, NULL, 's'},
        {"arith", required_argument, NULL, 'a'},
        {"shared", required_argument, NULL, OPT_SHARED},
        {"global", required_argument, NULL, 'g'},
        {"l1", required_argument, NULL, OPT_L1},
        {"l2", required_argument, NULL, OPT_L2},
        {"pipelined", no_argument, NULL, OPT_PIPELINED},
        {"la", required_argument, NULL, OPT_LA},
        {"workload", required_argument, NULL, OPT_WORKLOAD},
        {"threads-per-block", required_argument, NULL, OPT_TPB},
        {"blocks", required_argument, NULL, OPT_BLOCKS},
        {"sms", required_argument, NULL, OPT_SMS},
        {"output", required_argument, NULL, 'o'},
        {"dialect", required_argument, NULL, 'd'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    cli_init(prog);
    uint64_t warps = 32, tpb = 0, blocks = 0, sms = 0;
    int warps_given = 0, quiet = 0;
    pn_gpu_params_t p;
    pn_gpu_params_init(&p); /* the defaults --help states */
    const char *output = "-", *workload = NULL;
    pn_write_options_t wo = {.dialect = PN_DIALECT_STANDARD};
    int c;
    while ((c = getopt_long(argc, argv, "w:s:a:g:o:d:qhV", longopts, NULL)) !=
           -1) {
        int bad = 0;
        switch (c) {
        case 'w':
            bad = number("--warps", optarg, &warps, 0);
            warps_given = 1;
            break;
        case 's': bad = number("--schedulers", optarg, &p.schedulers, 0); break;
        case 'a': bad = number("--arith", optarg, &p.uniform.arith, 1); break;
        case OPT_SHARED:
            bad = number("--shared", optarg, &p.uniform.shared, 1);
            break;
        case 'g': bad = number("--global", optarg, &p.uniform.global, 1); break;
        case OPT_L1: bad = number("--l1", optarg, &p.l1, 1); break;
        case OPT_L2: bad = number("--l2", optarg, &p.l2, 1); break;
        case OPT_PIPELINED: p.pipelined = 1; break;
        case OPT_LA: bad = number("--la", optarg, &p.la, 1); break;
        case OPT_WORKLOAD: workload = optarg; break;
        case OPT_TPB: bad = number("--threads-per-block", optarg, &tpb, 0); break;
        case OPT_BLOCKS: bad = number("--blocks", optarg, &blocks, 0); break;
        case OPT_SMS: bad = number("--sms", optarg, &sms, 0); break;
        case 'o': output = optarg; break;
        case 'd':
            if (pn_dialect_parse(optarg, &wo.dialect)) {
                fprintf(stderr, "%s: --dialect: '%s' (standard, strict or "
                        "pipe)\n", prog, optarg);
                bad = 1;
            }
            break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return CLI_OK;
        case 'V': cli_version(prog); return CLI_OK;
        default:
            fprintf(stderr, "Try '%s --help'.\n", prog);
            return CLI_EUSAGE;
        }
        if (bad)
            return CLI_EUSAGE;
    }
    if (optind != argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\nTry '%s --help'.\n",
                prog, argv[optind], prog);
        return CLI_EUSAGE;
    }
    if (p.la && !p.pipelined) {
        fprintf(stderr, "%s: --la needs --pipelined (the paper's net has no "
                "arithmetic latency)\n", prog);
        return CLI_EUSAGE;
    }
    int launch = (tpb != 0) + (blocks != 0) + (sms != 0);
    if (launch && launch != 3) {
        fprintf(stderr, "%s: --threads-per-block, --blocks and --sms go "
                "together\n", prog);
        return CLI_EUSAGE;
    }
    if (launch) {
        if (warps_given || workload) {
            fprintf(stderr, "%s: give the warps once: --warps, --workload or "
                    "a launch (--threads-per-block, --blocks, --sms)\n", prog);
            return CLI_EUSAGE;
        }
        if (pn_gpu_launch_warps(tpb, blocks, sms, &warps) != PN_OK) {
            fprintf(stderr, "%s: the launch gives too many warps\n", prog);
            return CLI_EUSAGE;
        }
    }
    pn_gpu_warp_t *work = NULL;
    if (workload) {
        size_t n;
        pn_error_t err;
        if (pn_gpu_workload_read(workload, &work, &n, &err) != PN_OK) {
            cli_error(prog, &err);
            return CLI_EINPUT;
        }
        if (warps_given && warps != n) {
            fprintf(stderr, "%s: --warps %llu but the workload %s has %zu "
                    "warps\n", prog, (unsigned long long)warps, workload, n);
            free(work);
            return CLI_EUSAGE;
        }
        warps = n;
        p.work = work;
    }
    if (warps > PN_GPU_MAX_WARPS) {
        fprintf(stderr, "%s: %llu warps: at most %d (real SMs hold at most "
                "%d resident warps)\n", prog, (unsigned long long)warps,
                PN_GPU_MAX_WARPS, PN_GPU_MAX_RESIDENT_WARPS);
        free(work);
        return CLI_EUSAGE;
    }
    p.warps = (size_t)warps;
    if (warps > PN_GPU_MAX_RESIDENT_WARPS && !quiet)
        fprintf(stderr, "%s: warning: %llu warps on one SM; real SMs hold at "
                "most %d resident warps\n", prog, (unsigned long long)warps,
                PN_GPU_MAX_RESIDENT_WARPS);
    pn_net_t *net;
    pn_status_t st = pn_gpu_net(&p, &net);
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
