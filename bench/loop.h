/*
 * bench/loop.h - the hand-written step loop the engine benchmark measures
 * the engine against (bench/loop.c).
 */
#ifndef PN_BENCH_LOOP_H
#define PN_BENCH_LOOP_H

#include <stdint.h>
#include "pn.h"

typedef struct {
    double secs;     /* CPU time of the step loop alone */
    uint64_t steps, firings;
    uint64_t arcs;   /* arcs of the fired transitions: inputs, resets,
                      * outputs */
} loop_result_t;

/* Runs net with maximal steps from its initial marking, seed seed, until
 * no transition is enabled or max_steps steps.  Returns 0, or -1 for a net
 * with capacities (not supported) or without memory. */
int bench_loop_run(const pn_net_t *net, uint64_t seed, uint64_t max_steps,
                   loop_result_t *r);

#endif
