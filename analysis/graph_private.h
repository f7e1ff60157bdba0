/*
 * What the graph writer (graph.c) takes from the reachability and the
 * coverability graphs (coverability.c): the nodes' markings and the edges
 * with their transitions.
 */
#ifndef PN_GRAPH_PRIVATE_H
#define PN_GRAPH_PRIVATE_H

#include <stdint.h>
#include <stdio.h>
#include "graph.h"

typedef struct {
    const char *kind;       /* "reachability" or "coverability" */
    const pn_net_t *net;
    size_t nnodes, np;
    /* the marking of node i into m (np counts, PN_OMEGA allowed) */
    void (*marking)(const void *src, size_t i, uint64_t *m);
    const void *src;
    /* edge e: from[e] -> to[e], its transitions lab[loff[e] ..
     * loff[e + 1]) */
    size_t nedges;
    uint32_t *from, *to, *loff, *lab;
    size_t cap_e, cap_l;
} pni_gview_t;

/* Appends edge from -> to with transitions set[0..n).  PN_ENOMEM. */
pn_status_t pni_gview_edge(pni_gview_t *g, uint32_t from, uint32_t to,
                           const uint32_t *set, size_t n);
void pni_gview_free(pni_gview_t *g);
/* Writes g in fmt: its strongly connected components computed, dead
 * nodes (no edge out) and the initial node (0) marked. */
pn_status_t pni_gview_write(const pni_gview_t *g, FILE *out,
                            pn_graph_format_t fmt);

#endif
