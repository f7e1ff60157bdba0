/* The run options of pn-run and pn-sweep, parsed in one place. */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

void cli_run_init(cli_run_t *r, const char **counts)
{
    memset(r, 0, sizeof *r);
    r->seed = 1;
    r->sem = PN_SEM_MAXIMAL;
    r->max_steps = UINT64_C(100000000);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    r->jobs = cores > 0 ? (unsigned)cores : 1;
    r->counts = counts;
}

/* A --count list: IDs separated by commas, none empty. */
static int count_list(const char *list)
{
    size_t len = strlen(list);
    if (len && list[0] != ',' && list[len - 1] != ',' && !strstr(list, ",,"))
        return 0;
    fprintf(stderr, "%s: --count: an empty id in '%s'\n", cli_program(),
            list);
    return -1;
}

int cli_run_option(cli_run_t *r, int c, const char *arg)
{
    uint64_t v;
    switch (c) {
    case 's':
        return cli_uint("--seed", arg, 0, UINT64_MAX, &r->seed) ? CLI_EUSAGE
                                                                : -1;
    case CLI_OPT_SEMANTICS:
        return cli_semantics(arg, &r->sem) ? CLI_EUSAGE : -1;
    case CLI_OPT_MAX_STEPS:
        r->max_steps_given = 1;
        return cli_uint("--max-steps", arg, 0, UINT64_MAX, &r->max_steps)
                   ? CLI_EUSAGE : -1;
    case CLI_OPT_STEPS:
        r->exact_steps = 1;
        return cli_uint("--steps", arg, 0, UINT64_MAX, &r->steps)
                   ? CLI_EUSAGE : -1;
    case CLI_OPT_INCLUDE_LIMITED: r->include_limited = 1; return -1;
    case CLI_OPT_PER_RUN: r->per_run = 1; return -1;
    case 'n':
        return cli_uint("--runs", arg, 1, 100000000, &r->runs) ? CLI_EUSAGE
                                                               : -1;
    case 'c':
        if (count_list(arg))
            return CLI_EUSAGE;
        r->counts[r->ncounts++] = arg;
        return -1;
    case 'j':
        if (cli_uint("--jobs", arg, 1, 1024, &v))
            return CLI_EUSAGE;
        r->jobs = (unsigned)v;
        r->jobs_given = 1;
        return -1;
    default: return -2;
    }
}

int cli_run_finish(cli_run_t *r)
{
    if (r->exact_steps && r->max_steps_given) {
        fprintf(stderr, "%s: --steps and --max-steps: give one\n",
                cli_program());
        return CLI_EUSAGE;
    }
    if (r->exact_steps) {
        r->max_steps = r->steps;
        r->include_limited = 1;
    }
    return -1;
}
