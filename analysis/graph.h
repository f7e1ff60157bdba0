/*
 * pn/graph.h - the graph of markings as data: the reachability graph of a
 * finished search (pn/reach.h) and the coverability graph of a net that
 * may not be bounded (Karp and Miller's, with omega counts), written as
 * Graphviz DOT or JSON, with the dead markings, the initial marking and
 * the strongly connected components marked.
 *
 * Ownership: pn_cover_build() returns a graph the caller frees with
 * pn_cover_free(); pointers from getters are borrowed from it.
 */
#ifndef PN_GRAPH_H
#define PN_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "net.h"
#include "reach.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PN_GRAPH_DOT = 0,   /* Graphviz: 'dot -Tsvg' draws it */
    PN_GRAPH_JSON = 1   /* {"nodes": [...], "edges": [...]} */
} pn_graph_format_t;

/* Writes the reachability graph of r: one node per marking (its label the
 * places with a non-zero count, place=count), one edge per edge of the
 * search, labelled by its transition (maximal steps: by one step that
 * reaches it, its transitions joined by '+').  The initial marking is drawn
 * with a double border, dead markings red, the markings of the other
 * terminal strongly connected components blue, those of the other cycles
 * yellow.  PN_EINVAL when the search is incomplete or kept no graph
 * (pn_reach_options_t.graph), PN_ENOMEM, PN_EIO when out fails. */
pn_status_t pn_reach_graph_write(const pn_reach_t *r, const pn_net_t *net,
                                 FILE *out, pn_graph_format_t fmt);

/* ---- the coverability graph ---------------------------------------------
 * Karp and Miller's construction, its tree folded into a graph: a marking
 * reached that strictly covers one of its ancestors in the tree gets
 * PN_OMEGA in every place where it has more (the steps between can repeat
 * forever there).  A place is bounded exactly when no node has PN_OMEGA in
 * it, and the graph of a bounded net is its reachability graph
 * (interleaving).  Sound for normal and read arcs only: a net with an
 * inhibitor or reset arc or a capacity is refused (PN_EUNSUPPORTED). */

#define PN_OMEGA UINT64_MAX

typedef struct pn_cover pn_cover_t;

/* Builds the graph of net, with at most max_nodes nodes (0: no limit; past
 * it the graph is incomplete: pn_cover_complete()).  Returns PN_OK with
 * *out, PN_EUNSUPPORTED (an inhibitor or reset arc or a capacity),
 * PN_EINVAL, PN_ENOMEM. */
pn_status_t pn_cover_build(const pn_net_t *net, uint64_t max_nodes,
                           pn_cover_t **out);
void pn_cover_free(pn_cover_t *c);

/* 1 when every node was expanded; 0 when the node limit stopped it, or a
 * count would pass PN_TOKENS_MAX. */
int pn_cover_complete(const pn_cover_t *c);
uint64_t pn_cover_nodes(const pn_cover_t *c);
uint64_t pn_cover_edges(const pn_cover_t *c);
/* The marking of node i (0: the initial one), one count per place
 * (PN_OMEGA: unbounded there), or NULL for a bad i. */
const uint64_t *pn_cover_marking(const pn_cover_t *c, uint64_t i);
/* The largest count of place p over the nodes: PN_OMEGA when it is not
 * bounded. */
uint64_t pn_cover_place_bound(const pn_cover_t *c, size_t p);
/* Whether node i enables no transition (an omega count enables every
 * arc's weight). */
int pn_cover_dead(const pn_cover_t *c, uint64_t i);
/* Writes the graph as pn_reach_graph_write() does, omega counts as
 * "p=ω" (DOT) and "p": "ω" (JSON).  PN_EINVAL when it is incomplete. */
pn_status_t pn_cover_graph_write(const pn_cover_t *c, const pn_net_t *net,
                                 FILE *out, pn_graph_format_t fmt);

#ifdef __cplusplus
}
#endif
#endif
