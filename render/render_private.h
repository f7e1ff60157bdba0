/*
 * render/render_private.h - what the files of the Graphviz export share
 * (not installed): the context, Graphviz's attributes and text, the
 * options' checks and the rendering, and the folded groups.
 *
 *   dot.c       the context, nets (nodes, arcs, clusters, shared nodes,
 *               the legend) and pn_dot_render(); the helpers below
 *   fold.c      folded groups: the boxes and the arcs bundled into them
 *   timeline.c  traces as space-time diagrams: pn_dot_timeline()
 *   ids.c       object ids in the order made, for graphs dot packs
 *   route.c     nets at their positions: copies of shared nodes, arcs
 *               bent around nodes
 */
#ifndef PN_RENDER_PRIVATE_H
#define PN_RENDER_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include "dot.h"
#include "lib_private.h"

#define dfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

struct pn_dot_context {
    GVC_t *gvc;
    double dpi;   /* the last drawing's bitmap resolution (0: none) */
};

/* Sets attribute name of a graph, node or edge to value. */
static inline void pni_dot_set(void *obj, const char *name,
                               const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, "");
}

/* Whether group k is one drawn as a box. */
static inline int pni_dot_in_folded(const unsigned char *folded,
                                    const pn_groups_t *gr, size_t k)
{
    return folded && gr && k < gr->ngroups && folded[k];
}

static inline int pni_dot_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Each function below is described where it is defined.  They are hidden
 * (neither exported nor interposable): calls within a file stay direct. */
#pragma GCC visibility push(hidden)

/* ---- dot.c: text, attributes, options, rendering ----------------------- */
void pni_dot_sb_escaped(pni_sb_t *b, const char *s);
void pni_dot_html_escape(pni_sb_t *b, const char *s);
void pni_dot_set_text(void *obj, const char *name, const char *text);
const char *pni_dot_short_of(const char *id, const char *group);
void pni_dot_set_arc_style(Agedge_t *e, pn_arc_kind_t kind);
int pni_dot_groups_fit(const pn_groups_t *g, const pn_net_t *net);
void pni_dot_set_dpi(Agraph_t *g, const char *format, double dpi);
pn_dot_options_t pni_dot_options_or_defaults(const pn_dot_options_t *opts);
pn_status_t pni_dot_check_format(const char *format, double dpi,
                                 pn_error_t *err);
pn_status_t pni_dot_render(pn_dot_context_t *ctx, Agraph_t *g,
                           const char *layout, const char *format,
                           uint64_t max_side, char **data, size_t *len,
                           pn_error_t *err);

/* ---- fold.c: folded groups ---------------------------------------------- */
size_t *pni_dot_group_sizes(const pn_net_t *net, const pn_groups_t *gr);
size_t pni_dot_fold_plan(const pn_groups_t *gr, const size_t *size,
                         unsigned char *folded);
size_t pni_dot_folded_elements(const pn_net_t *net, const pn_groups_t *gr,
                               const unsigned char *folded, size_t boxes);
void pni_dot_add_fold_boxes(Agraph_t *g, const pn_net_t *net,
                            const pn_dot_options_t *o, const size_t *size,
                            const unsigned char *folded, size_t nboxes,
                            Agnode_t **box);
void pni_dot_add_fold_arcs(Agraph_t *g, const pn_net_t *net,
                           const pn_dot_options_t *o,
                           const unsigned char *folded, Agnode_t **box,
                           Agnode_t **pn, Agnode_t **tn);

/* ---- measures.c: timing and a solution's measures beside nodes -------- */
void pni_dot_timing_label(Agnode_t *n, const pn_transition_t *t);
void pni_dot_measure_label(Agnode_t *n, const char *symbol,
                           const char *words, double v);
void pni_dot_dark_bar_text(Agnode_t *n, const char *shortname);
int pni_dot_measures_shown(const pn_net_t *net, const pn_dot_options_t *o);

/* ---- route.c: nets at their positions ----------------------------------- */
void pni_dot_place_copies(Agraph_t *g, Agnode_t **copies, size_t ncopies);
void pni_dot_route_arcs(GVC_t *gvc, Agraph_t *g);

/* ---- ids.c: object ids in the order made -------------------------------- */
typedef struct {
    Agdisc_t disc; /* first: the discipline's state is found from it */
    Agiddisc_t id;
    Agraph_t *g;   /* the root graph, whose strings the names are */
    char **names;  /* by id / 2 (NULL: unnamed) */
    size_t n, cap;
    size_t *slots; /* a hash table of names: 1 + their index, 0 empty */
    size_t nslots;
} pni_seq_ids_t;
void pni_dot_seq_ids_init(pni_seq_ids_t *t);

#pragma GCC visibility pop

#endif
