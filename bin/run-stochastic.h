/* pn-run --semantics stochastic: the GSPN simulated in continuous time
 * (pn/sim_gspn.h), its estimates printed. */
#ifndef PN_RUN_STOCHASTIC_H
#define PN_RUN_STOCHASTIC_H

#include "cli.h"
#include "pn.h"

typedef struct {
    int on;                   /* --semantics stochastic */
    int given;                /* one of the options below was given */
    double confidence, accuracy;
    const char **times;       /* --time lists (room for argc) */
    size_t ntimes;
    const char **conds;       /* --condition formulas (room for argc) */
    size_t nconds;
} stoch_opts_t;

/* Simulates net with the run options (seed, jobs, runs, max steps) and
 * so; prints the estimates in fmt.  Returns the exit code: 0 every
 * interval within the accuracy, 1 the simulation failed (the message
 * said why), 2 a bad --time or --condition, 4 the limit came first. */
int run_stochastic(const char *prog, const pn_net_t *net,
                   const cli_run_t *run, const stoch_opts_t *so,
                   cli_format_t fmt);

#endif
