/*
 * pn/net.h - the in-memory place/transition net of libpn.
 *
 * Ownership, once for the whole API: a pn_net_t owns every place,
 * transition, arc, page and string in it; the functions that take strings
 * copy them.  Pointers a getter returns (const char *, const pn_place_t *,
 * ...) are borrowed: valid until the net is changed or freed.  What a
 * function allocates for the caller is said where it is declared: nets
 * (pn_net_new(), the readers, the generators: pn_net_free()), compiled
 * nets and simulators (pn_engine_compile(), pn_sim_new()), rendered
 * buffers and workload arrays, each with its own free function.
 *
 * The library never prints and never exits.  Each object may be used by
 * one thread at a time, and distinct objects from distinct threads at the
 * same time.  The only state shared between calls is libxml2's, which the
 * PNML functions set up once themselves (thread-safe), and Graphviz's,
 * which is not thread-safe: render from one thread at a time (pn/dot.h).
 * tests/test_threads.c reads, writes, compiles and runs nets on four
 * threads at once under ThreadSanitizer.
 */
#ifndef PN_NET_H
#define PN_NET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest marking, weight or capacity a net holds: 2^63 - 1, the largest
 * value of a signed 64-bit integer, so that Java tools (PIPE, TAPAAL) can
 * read every number we write.  2^63 and above are rejected (PN_ERANGE). */
#define PN_TOKENS_MAX UINT64_C(9223372036854775807)

/* "No index": a node on no page, a page with no parent. */
#define PN_NONE ((size_t)-1)

typedef enum {
    PN_ARC_NORMAL = 0,    /* consume (place->transition) or produce */
    PN_ARC_INHIBITOR = 1, /* enabled only while M(p) < weight */
    PN_ARC_READ = 2,      /* test arc: enabled only while M(p) >= weight,
                             tokens are not consumed */
    PN_ARC_RESET = 3      /* firing empties the place; never disables */
} pn_arc_kind_t;
/* How many arc kinds there are (the size of pn_net_count_arcs()'s array). */
#define PN_ARC_KINDS 4

/* "normal", "inhibitor", "read", "reset". */
const char *pn_arc_kind_name(pn_arc_kind_t kind);

typedef enum { PN_PLACE = 0, PN_TRANSITION = 1, PN_ARC = 2, PN_PAGE = 3,
               PN_NET = 4 } pn_object_t;

typedef enum {
    PN_DIR_PT = 0,  /* from place to transition */
    PN_DIR_TP = 1   /* from transition to place */
} pn_arc_dir_t;

typedef struct pn_place {
    const char *id;
    const char *name;     /* NULL when the net gives none */
    uint64_t marking;     /* initial marking */
    uint64_t capacity;    /* 0: unbounded */
    int has_position;
    int has_label;        /* the name label has an offset from the node */
    double x, y;
    size_t page;          /* PN_NONE: directly in the net */
    double label_dx, label_dy;
} pn_place_t;

/* How a transition fires in time: the transition kinds of generalized
 * stochastic Petri nets (GSPN), as PIPE and GreatSPN have them. */
typedef enum {
    PN_TIMING_NONE = 0,        /* the net says nothing: a P/T transition */
    PN_TIMING_IMMEDIATE = 1,   /* fires in zero time, before any timed one;
                                  rate is its weight among the enabled
                                  immediate transitions of its priority */
    PN_TIMING_EXPONENTIAL = 2, /* fires after a delay drawn from an
                                  exponential distribution of rate `rate`
                                  (mean delay 1/rate) */
    PN_TIMING_DETERMINISTIC = 3 /* fires after a fixed delay: rate holds the
                                   delay itself, not a rate */
} pn_timing_t;
/* How many timing kinds there are (the size of pn_net_count_timing()'s
 * array). */
#define PN_TIMING_KINDS 4

/* Server semantics of a timed transition enabled several times over. */
typedef enum {
    PN_SERVER_SINGLE = 0,   /* one firing under way at a time (PIPE's
                               default, infiniteServer false) */
    PN_SERVER_INFINITE = 1, /* one firing under way per enabling: the rate
                               grows with the enabling degree */
    PN_SERVER_K = 2         /* at most `servers` firings under way (k >= 2,
                               GreatSPN's nservers=k): the rate grows with
                               the enabling degree up to k */
} pn_server_t;

/* The defaults of a transition the net says nothing about: weight 1,
 * priority 1 (PIPE's and GreatSPN's default), single server. */
#define PN_DEFAULT_RATE 1.0
#define PN_DEFAULT_PRIORITY 1

/* "none", "immediate", "exponential", "deterministic"; "single",
 * "infinite", "k". */
const char *pn_timing_name(pn_timing_t timing);
const char *pn_server_name(pn_server_t server);
/* The reverse of the two above: PN_OK, or PN_EINVAL for any other name. */
pn_status_t pn_timing_parse(const char *name, pn_timing_t *timing);
pn_status_t pn_server_parse(const char *name, pn_server_t *server);

typedef struct pn_transition {
    const char *id;
    const char *name;
    int has_position;
    int has_label;        /* the name label has an offset from the node */
    double x, y;
    size_t page;
    double label_dx, label_dy;
    /* Timing (pn_net_set_timing()).  The other three fields hold the
     * defaults while timing is PN_TIMING_NONE. */
    pn_timing_t timing;
    double rate;          /* exponential: the rate; immediate: the weight;
                             deterministic: the delay; finite, >= 0 */
    int priority;         /* among enabled immediate transitions, the
                             highest priority fires first */
    pn_server_t server;
    unsigned servers;     /* firings under way at most: k for PN_SERVER_K
                             (>= 2), 1 single server, 0 infinite */
    const char *rate_expr; /* the rate (weight) as an expression of the
                             marking, as PIPE writes it ("#(P0)*2"), NULL
                             when it is the number in rate; rate then
                             holds its value at the initial marking */
    int timing_lost;      /* the file gave timing the net cannot hold:
                             the fields above are not the file's, and the
                             writers refuse the net (PN_EDIALECT) until
                             pn_net_set_timing() sets them */
} pn_transition_t;

typedef struct pn_arc {
    const char *id;       /* NULL when the file gave none */
    pn_arc_kind_t kind;
    pn_arc_dir_t dir;
    size_t place;         /* index of the place end */
    size_t transition;    /* index of the transition end */
    uint64_t weight;      /* >= 1 (1 for reset arcs) */
} pn_arc_t;

typedef struct pn_page {
    const char *id;       /* may be NULL (some tools omit page ids) */
    const char *name;
    size_t parent;        /* PN_NONE for a top-level page */
} pn_page_t;

/* Opaque tool-specific data: the tool and version attributes and the whole
 * <toolspecific> element as XML text, kept so that a round trip keeps it. */
typedef struct pn_toolspecific {
    pn_object_t owner;    /* PN_NET, PN_PAGE, PN_PLACE, PN_TRANSITION, PN_ARC */
    size_t index;         /* index of the owner (0 for PN_NET) */
    const char *tool;
    const char *version;
    const char *xml;
} pn_toolspecific_t;

typedef struct pn_net pn_net_t;

/* The PNML type of a place/transition net, which pn_net_new() sets. */
#define PN_PTNET_TYPE "http://www.pnml.org/version-2009/grammar/ptnet"

/* A new, empty place/transition net (type PN_PTNET_TYPE).  id may be NULL.
 * Returns NULL when out of memory. */
pn_net_t *pn_net_new(const char *id);
/* Frees the net and everything in it; NULL is allowed. */
void pn_net_free(pn_net_t *net);

pn_status_t pn_net_set_id(pn_net_t *net, const char *id);
pn_status_t pn_net_set_name(pn_net_t *net, const char *name);
/* The PNML type URI, kept as read (PN_PTNET_TYPE; NULL when a file gave
 * none). */
pn_status_t pn_net_set_type(pn_net_t *net, const char *type);
const char *pn_net_id(const pn_net_t *net);
const char *pn_net_name(const pn_net_t *net);
const char *pn_net_type(const pn_net_t *net);

/*
 * Construction.  Each returns PN_OK and stores the new index in *index
 * (index may be NULL), or:
 *   PN_EINVAL  id is NULL or empty, or a weight is 0 (normal, inhibitor,
 *              read), or a number is above PN_TOKENS_MAX (PN_ERANGE then);
 *   PN_EDUPID  the id is already used by a place, transition or arc
 *              (one namespace, as in PNML; pages are outside it);
 *   PN_EUNKNOWN an arc end names no node;
 *   PN_EARC    the arc joins two places or two transitions, or a special
 *              arc (inhibitor, read, reset) does not go place -> transition;
 *   PN_ENOMEM.
 * On error the net is unchanged.  Cost: amortised O(1) each.
 */
pn_status_t pn_net_add_place(pn_net_t *net, const char *id, const char *name,
                             uint64_t marking, size_t *index);
pn_status_t pn_net_add_transition(pn_net_t *net, const char *id,
                                  const char *name, size_t *index);
/* An arc between the nodes with ids source and target; id may be NULL.
 * For a reset arc the weight is ignored and stored as 1. */
pn_status_t pn_net_add_arc(pn_net_t *net, const char *id, const char *source,
                           const char *target, uint64_t weight,
                           pn_arc_kind_t kind, size_t *index);
/* The same with node indices; dir says which end is the source. */
pn_status_t pn_net_add_arc_at(pn_net_t *net, const char *id, pn_arc_dir_t dir,
                              size_t place, size_t transition, uint64_t weight,
                              pn_arc_kind_t kind, size_t *index);
/* A page; id may be NULL, parent is a page index or PN_NONE. */
pn_status_t pn_net_add_page(pn_net_t *net, const char *id, const char *name,
                            size_t parent, size_t *index);
pn_status_t pn_net_add_toolspecific(pn_net_t *net, pn_object_t owner,
                                    size_t index, const char *tool,
                                    const char *version, const char *xml);

/* Setters on existing nodes: PN_EINVAL for a bad index or value. */
pn_status_t pn_net_set_marking(pn_net_t *net, size_t place, uint64_t marking);
pn_status_t pn_net_set_capacity(pn_net_t *net, size_t place, uint64_t capacity);
/* An arc's weight, >= 1 (not of a reset arc): PN_EINVAL, PN_ERANGE above
 * PN_TOKENS_MAX. */
pn_status_t pn_net_set_arc_weight(pn_net_t *net, size_t arc, uint64_t weight);
pn_status_t pn_net_set_position(pn_net_t *net, pn_object_t kind, size_t index,
                                double x, double y);
pn_status_t pn_net_set_page(pn_net_t *net, pn_object_t kind, size_t index,
                            size_t page);
/* A transition's timing: its kind, rate (weight, delay: see
 * pn_transition_t), priority and server semantics.  PN_EINVAL for a bad
 * index, an unknown kind or server, a rate that is not a finite number
 * >= 0, or a priority below 0.  PN_TIMING_NONE stores the defaults
 * whatever rate, priority and server say.  Clears timing_lost. */
pn_status_t pn_net_set_timing(pn_net_t *net, size_t transition,
                              pn_timing_t timing, double rate, int priority,
                              pn_server_t server);
/* A timed transition's number of servers: 0 infinite server, 1 single
 * server, k >= 2 PN_SERVER_K with k servers.  Call it after
 * pn_net_set_timing() (which takes PN_SERVER_K as 2 servers).  PN_EINVAL
 * for a bad index or a transition that is not timed (an immediate or
 * untimed transition has one server). */
pn_status_t pn_net_set_servers(pn_net_t *net, size_t transition,
                               unsigned servers);
/* Where the name label is drawn, relative to the node (PNML's
 * <name><graphics><offset>). */
pn_status_t pn_net_set_label_offset(pn_net_t *net, pn_object_t kind,
                                    size_t index, double dx, double dy);
pn_status_t pn_net_set_node_name(pn_net_t *net, pn_object_t kind,
                                 size_t index, const char *name);

/* Counts and access in document (insertion) order; indices run from 0 to
 * count - 1.  A bad index returns NULL. */
size_t pn_net_place_count(const pn_net_t *net);
size_t pn_net_transition_count(const pn_net_t *net);
size_t pn_net_arc_count(const pn_net_t *net);
size_t pn_net_page_count(const pn_net_t *net);
size_t pn_net_toolspecific_count(const pn_net_t *net);
const pn_place_t *pn_net_place(const pn_net_t *net, size_t index);
const pn_transition_t *pn_net_transition(const pn_net_t *net, size_t index);
const pn_arc_t *pn_net_arc(const pn_net_t *net, size_t index);
const pn_page_t *pn_net_page(const pn_net_t *net, size_t index);
const pn_toolspecific_t *pn_net_toolspecific(const pn_net_t *net, size_t index);

/* Finds an id in O(1).  Returns PN_OK and fills *kind (PN_PLACE,
 * PN_TRANSITION or PN_ARC) and *index, or PN_EUNKNOWN.  Page ids are not
 * looked up: pages are a grouping, outside the node namespace. */
pn_status_t pn_net_find(const pn_net_t *net, const char *id,
                        pn_object_t *kind, size_t *index);

/* Number of arcs of each kind; counts[k] for pn_arc_kind_t k (array of 4). */
void pn_net_count_arcs(const pn_net_t *net, size_t counts[PN_ARC_KINDS]);
/* Number of transitions of each timing kind; counts[k] for pn_timing_t k
 * (array of PN_TIMING_KINDS). */
void pn_net_count_timing(const pn_net_t *net,
                         size_t counts[PN_TIMING_KINDS]);
/* Sum of the initial marking; saturates at UINT64_MAX. */
uint64_t pn_net_total_tokens(const pn_net_t *net);

/* Diagnostics a reader attached to the net (not errors: "arc type 'x' read
 * as normal").  They survive nothing but the net itself. */
size_t pn_net_warning_count(const pn_net_t *net);
const char *pn_net_warning(const pn_net_t *net, size_t index);
pn_status_t pn_net_add_warning(pn_net_t *net, const char *text);

#ifdef __cplusplus
}
#endif
#endif
