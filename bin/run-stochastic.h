/* pn-run --semantics stochastic: the GSPN simulated in continuous time
 * (pn/sim_gspn.h), its estimates printed. */
#ifndef PN_RUN_STOCHASTIC_H
#define PN_RUN_STOCHASTIC_H

#include <stdio.h>
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
    /* pn-sweep: the estimates of one point of a sweep, to out (NULL:
     * standard output), each row after the prefix of its format (CSV:
     * the columns before "measure", no header; JSON: members ending in a
     * comma), messages after where ("point 3: ") */
    FILE *out;
    const char *csv_prefix, *json_prefix, *where;
} stoch_opts_t;

/* The options of the stochastic semantics, pn-run's and pn-sweep's. */
enum { STOCH_OPT_TIME = 400, STOCH_OPT_CONFIDENCE, STOCH_OPT_ACCURACY,
       STOCH_OPT_CONDITION };
#define STOCH_LONGOPTS                                                         \
    {"time", required_argument, NULL, STOCH_OPT_TIME},                         \
    {"confidence", required_argument, NULL, STOCH_OPT_CONFIDENCE},             \
    {"accuracy", required_argument, NULL, STOCH_OPT_ACCURACY},                 \
    {"condition", required_argument, NULL, STOCH_OPT_CONDITION}

/* Takes option c (--semantics too: "stochastic" turns it on, any other
 * off, and gives back -2 for the run options to read it).  Returns -1 to
 * go on, an exit code after a message, or -2: not one of these. */
int stoch_option(stoch_opts_t *st, int c, const char *arg);

/* Simulates net with the run options (seed, jobs, runs, max steps) and
 * so; prints the estimates in fmt.  Returns the exit code: 0 every
 * interval within the accuracy, 1 the simulation failed (the message
 * said why), 2 a bad --time or --condition, 4 the limit came first. */
int run_stochastic(const char *prog, const pn_net_t *net,
                   const cli_run_t *run, const stoch_opts_t *so,
                   cli_format_t fmt);

#endif
