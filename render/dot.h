/*
 * pn/dot.h - drawing nets and traces with Graphviz (libcgraph builds the
 * graph, libgvc lays it out and renders it).  The renderer knows no net
 * family: groups (clusters, timeline rows) and classes (colours) come as
 * data (pn/groups.h), from a generator or an id rule.
 *
 * Ownership: the caller owns the context (pn_dot_context_new() /
 * pn_dot_context_free()) and *data returned by the render functions
 * (free()).  Create one context per process and keep it until the end:
 * Graphviz 2.42's text layout keeps a pointer into a freed context's font
 * cache, so rendering after a context was freed reads freed memory.
 * Graphviz is not thread-safe: render from one thread at a time.
 */
#ifndef PN_DOT_H
#define PN_DOT_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"
#include "trace.h"
#include "groups.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A Graphviz context: NULL when out of memory. */
typedef struct pn_dot_context pn_dot_context_t;
pn_dot_context_t *pn_dot_context_new(void);
void pn_dot_context_free(pn_dot_context_t *ctx);

/* What is written on or beside each node. */
typedef enum {
    PN_LABELS_SHORT = 0, /* the id, less its group's prefix ("w3_p1": "p1"),
                            inside the node; the names in a legend beside
                            the net and in tooltips */
    PN_LABELS_NAME,      /* the name beside the node (the id without one) */
    PN_LABELS_ID,        /* the id beside the node */
    PN_LABELS_NONE       /* nothing; names and ids in tooltips */
} pn_dot_labels_t;

typedef struct pn_dot_options {
    const char *layout;      /* dot (the default; NULL: dot), neato, fdp,
                                sfdp */
    int positions;           /* place nodes where the PNML says (no layout) */
    int ids;                 /* PN_LABELS_NAME: ids beside the names */
    int no_clusters;         /* 0 (the default): nodes in clusters by
                                group (or page); 1: no clusters */
    const pn_groups_t *groups; /* clusters and timeline rows by group,
                                transition colours by class; NULL: clusters
                                by page, one timeline row per transition */
    const uint64_t *marking; /* tokens to show; NULL: the initial marking */
    const unsigned char *fired; /* per transition: highlight; NULL: none */
    const char *title;       /* graph label; NULL: none */
    size_t max_elements;     /* nodes + arcs above which dot, neato and fdp
                                are refused (PN_ETOOBIG); 0: the default */
    double dpi;              /* pixels per inch of a bitmap (png), up to
                                PN_DOT_MAX_DPI; 0: Graphviz's 96 */
    pn_dot_labels_t labels;  /* PN_LABELS_SHORT when zeroed */
    const char *rankdir;     /* TB (NULL), LR, BT or RL: the direction of
                                the dot layout */
    const char *rows_title;  /* a timeline's title over its rows' names;
                                NULL: "group" (or "transition") */
    uint64_t fold;           /* nonzero, with groups: the first group of two
                                or more nodes drawn in full, every later
                                one as a single box (its name, its marked
                                places and the transitions fired), the
                                boxes in a grid joined to the rest by one
                                arc per node and kind */
    uint64_t max_side;       /* nonzero: the most pixels a side of a bitmap
                                (png) may have; a drawing larger at the
                                dpi asked is drawn at the highest whole
                                dpi at which it fits (pn_dot_last_dpi()
                                says which); 0: no limit on a side (only
                                PN_DOT_MAX_PIXELS in all) */
    const int64_t *weight;   /* nodes to highlight with a coefficient
                                (an invariant): the places' weights, then
                                the transitions' (place count + transition
                                count entries), 0 for a node not
                                highlighted; NULL: none */
    uint64_t rates;          /* nonzero: each transition with timing has
                                it written beside it: an exponential one
                                its rate (lambda=2, or the expression the
                                file gave, lambda=#(P0)*2) and its servers
                                when not single (inf. server, 3 servers),
                                a deterministic one its delay (d=5), an
                                immediate one its weight and priority
                                (w=1 pi=1); the same in words in its
                                tooltip.  0: nothing of timing drawn.
                                Transitions without timing are drawn
                                alike either way */
    const double *throughput; /* per transition: a throughput (firings per
                                unit of time) written beside it (X=0.8333,
                                four digits); NaN: none; NULL: none */
    const double *mean_tokens; /* per place: a mean number of tokens
                                written beside it (N=1.234); NaN: none;
                                NULL: none */
    uint64_t reserved[1];    /* zero (the init function sets it): room for
                                fields of later versions */
} pn_dot_options_t;

/* Parses "short", "name", "id", "none"; PN_EINVAL for anything else. */
pn_status_t pn_dot_labels_parse(const char *name, pn_dot_labels_t *labels);

#define PN_DOT_MAX_DPI 10000
/* A bitmap's side past which ImageMagick and common image viewers refuse
 * to open it: what pn-dot gives as max_side. */
#define PN_DOT_MAX_SIDE 16384

/* Fills defaults: dot layout, clusters on, no highlight (pn/status.h on
 * option structs).  A zeroed struct means the same. */
void pn_dot_options_init(pn_dot_options_t *o);

/* Renders the net in format ("svg", "png", "pdf", "dot") into *data.
 * With positions, every position must be finite and within
 * PN_DOT_MAX_POSITION points in x and y (Graphviz aborts beyond).  A
 * bitmap (png) is reckoned from the laid-out drawing before it is
 * rendered: with max_side, a side above it lowers the dpi; then above
 * PN_DOT_MAX_PIXELS pixels it is refused.  Returns PN_OK, PN_EINVAL
 * (unknown layout or format, a dpi out of range, fold without groups or
 * with positions), PN_ETOOBIG (too large
 * for the layout: the message suggests sfdp or the positions; a position
 * out of range: the message names the node; a bitmap too large: the
 * message suggests svg or pdf, or the dpi at which it fits), PN_ERENDER,
 * PN_ENOMEM; err->text says why. */
#define PN_DOT_MAX_POSITION 1e6
#define PN_DOT_MAX_PIXELS 100000000
pn_status_t pn_dot_render(pn_dot_context_t *ctx, const pn_net_t *net,
                          const pn_dot_options_t *o, const char *format,
                          char **data, size_t *len, pn_error_t *err);

/* The resolution, in pixels per inch, of the bitmap that the last
 * pn_dot_render() or pn_dot_timeline() with ctx drew: the options' dpi
 * (96 for 0), or lower where max_side lowered it; 0 when that call drew
 * another format or failed, before any call, and for a NULL ctx. */
double pn_dot_last_dpi(const pn_dot_context_t *ctx);

/* Renders steps first..last of a trace as a space-time diagram: one row
 * per group of the options' groups (when clusters are on; else one per
 * transition), one column per step, a mark per firing coloured by the
 * strongest class fired (pn_gpu_groups(): arithmetic, shared, global,
 * idle, control).  PN_EINVAL for a bad window, PN_ETOOBIG beyond
 * PN_TIMELINE_MAX_CELLS cells (the message says which window fits) or, as
 * a bitmap, beyond PN_DOT_MAX_PIXELS pixels. */
#define PN_TIMELINE_MAX_CELLS 400000
pn_status_t pn_dot_timeline(pn_dot_context_t *ctx, const pn_net_t *net,
                            const pn_trace_t *trace, uint64_t first,
                            uint64_t last, const pn_dot_options_t *o,
                            const char *format, char **data, size_t *len,
                            pn_error_t *err);

/* A self-contained HTML page that replays a trace: svg (svg_len bytes;
 * NULL: none), the net as pn_dot_render() draws it in SVG (best with no
 * tokens: the page draws them), a step slider, play and pause, the marking
 * of every place at the step (beside the places of the SVG and in a
 * table), the transitions fired in the step highlighted, and the timeline
 * (rows and colours as pn_dot_timeline()) with a cursor on the step.  The
 * page fetches nothing.  Of the options it uses groups, clusters, labels,
 * title and rows_title.  The run is replayed through the engine and
 * stored compactly (per step the transitions fired and the places
 * changed); PN_ETOOBIG when that data passes PN_HTML_MAX_DATA bytes (the
 * message says at which step), the SVG PN_HTML_MAX_SVG bytes, or a token
 * count PN_HTML_MAX_TOKENS (what a browser's numbers hold exactly);
 * PN_ETRACE when the trace does not fire on net; PN_EINVAL, PN_ENOMEM.
 * Cost: O(size of the net + size of the trace + arcs of the fired
 * transitions). */
#define PN_HTML_MAX_DATA (64 << 20)
#define PN_HTML_MAX_SVG (64 << 20)
#define PN_HTML_MAX_TOKENS 9007199254740991ULL
/* the full markings the page's script keeps, in numbers */
#define PN_HTML_MAX_KEPT 8000000
pn_status_t pn_dot_html(const pn_net_t *net, const pn_trace_t *trace,
                        const char *svg, size_t svg_len,
                        const pn_dot_options_t *o, char **data, size_t *len,
                        pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
