/*
 * pn/dot.h - drawing nets and traces with Graphviz (libcgraph builds the
 * graph, libgvc lays it out and renders it).
 *
 * Ownership: *data returned by the render functions is the caller's
 * (free()).  One Graphviz context is kept for the life of the process
 * (Graphviz 2.42 cannot free one and render again safely); Graphviz is not
 * thread-safe, so render from one thread at a time.
 */
#ifndef PN_DOT_H
#define PN_DOT_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_dot_options {
    const char *layout;      /* dot (default), neato, fdp, sfdp */
    int positions;           /* place nodes where the PNML says (no layout) */
    int ids;                 /* show ids beside the names */
    int clusters;            /* 1 (default when zeroed by pn_dot_defaults):
                                group nodes, 0: no clusters */
    const char *cluster_by;  /* cluster = id up to this separator; NULL:
                                pages, or the GPU net's warps */
    const uint64_t *marking; /* tokens to show; NULL: the initial marking */
    const unsigned char *fired; /* per transition: highlight; NULL: none */
    const char *title;       /* graph label; NULL: none */
    size_t max_elements;     /* nodes + arcs above which dot, neato and fdp
                                are refused (PN_ETOOBIG); 0: the default */
} pn_dot_options_t;

/* Fills defaults: dot layout, clusters on, no highlight. */
void pn_dot_defaults(pn_dot_options_t *o);

/* The cluster key of an id under the options (the part before the
 * separator), written into buf; returns 0 when the node is in no cluster.
 * With cluster_by NULL: a GPU warp net's ids w<i>_... give "w<i>". */
int pn_dot_cluster_key(const char *id, const char *cluster_by, char *buf,
                       size_t size);

/* Renders the net in format ("svg", "png", "pdf", "dot") into *data.
 * Returns PN_OK, PN_EINVAL (unknown layout or format), PN_ETOOBIG (too
 * large for the layout: the message suggests sfdp or --positions),
 * PN_ERENDER, PN_ENOMEM; err->text says why. */
pn_status_t pn_dot_render(const pn_net_t *net, const pn_dot_options_t *o,
                          const char *format, char **data, size_t *len,
                          pn_error_t *err);

/* Renders steps first..last of a trace as a space-time diagram: one row
 * per cluster (per warp for GPU nets; "idle" for t0), one column per step,
 * a mark per firing, coloured by kind (GPU nets: arithmetic, shared,
 * global, idle, control).  PN_EINVAL for a bad window, PN_ETOOBIG beyond
 * PN_TIMELINE_MAX_CELLS cells (the message says which window fits). */
#define PN_TIMELINE_MAX_CELLS 400000
pn_status_t pn_dot_timeline(const pn_net_t *net, const pn_trace_t *trace,
                            uint64_t first, uint64_t last,
                            const pn_dot_options_t *o, const char *format,
                            char **data, size_t *len, pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
