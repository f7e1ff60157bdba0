/* pn-reach's graph of markings: --graph, --all-dead and --coverability
 * (bin/reach-graph.c). */
#ifndef PN_BIN_REACH_GRAPH_H
#define PN_BIN_REACH_GRAPH_H

#include <stdint.h>
#include "pn.h"

/* Exit status when the graph has more markings than --graph-limit. */
#define EXIT_TOO_LARGE 5
/* --graph-limit's default */
#define GRAPH_LIMIT_DEFAULT 10000
/* the most markings one search holds */
#define GRAPH_LIMIT_MAX (UINT32_MAX - 1)

typedef struct {
    const char *graph;      /* --graph FILE, or NULL */
    pn_graph_format_t fmt;  /* from its name: .dot/.gv, .json */
    uint64_t limit;         /* --graph-limit */
    int all_dead;           /* --all-dead */
    int json;               /* --format json */
} reach_graph_t;

/* The format of --graph FILE from its name.  CLI_EUSAGE after a message,
 * or -1. */
int reach_graph_format(const char *prog, reach_graph_t *g);
/* Writes the graph of a finished search to g->graph.  Returns an exit
 * status: CLI_OK, CLI_EOUTPUT, or EXIT_TOO_LARGE / the search's status
 * after a message when no graph can be written. */
int reach_graph_write(const char *prog, const reach_graph_t *g,
                      const pn_net_t *net, const pn_reach_t *r,
                      int capped);
/* --all-dead: every dead marking found, one line each (text) or the
 * report's "dead_markings" array (json). */
void reach_all_dead(const pn_net_t *net, const pn_reach_t *r, int json);
/* --coverability: builds the coverability graph, prints the report, writes
 * the graph.  max_nodes, max_memory: the --max-states and --max-memory
 * limits (0: the defaults).  Returns an exit status. */
int reach_coverability(const char *prog, const reach_graph_t *g,
                       const pn_net_t *net, uint64_t max_nodes,
                       uint64_t max_memory);

#endif
