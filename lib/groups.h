/*
 * pn/groups.h - groups of nodes and classes of transitions: what a picture
 * or a report needs to know about a net beyond its arcs (the warps of a
 * GPU net, the instruction kind of each transition), given as data by
 * whoever knows the net (a generator, or an id rule) so that the renderer
 * needs to know no net family.
 *
 * Ownership: a pn_groups_t and every array and string in it belong to it;
 * pn_groups_free() frees them all.  The arrays are plain data: callers may
 * read them directly.
 */
#ifndef PN_GROUPS_H
#define PN_GROUPS_H

#include <stddef.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_groups {
    size_t ngroups;
    char **group_names;        /* in drawing order (clusters, timeline rows) */
    size_t nclasses;
    char **class_names;        /* legend words, weakest first: a timeline
                                  cell shows the strongest class fired */
    char **class_colors;       /* "#rrggbb" */
    size_t nplaces, ntransitions;
    size_t *place_group;       /* per place: a group, or PN_NONE */
    size_t *transition_group;  /* per transition: a group, or PN_NONE */
    size_t *transition_class;  /* per transition: a class, or PN_NONE */
} pn_groups_t;

/* A new record for a net of this size: no groups, no classes, every node
 * in none.  NULL when out of memory. */
pn_groups_t *pn_groups_new(size_t places, size_t transitions);
void pn_groups_free(pn_groups_t *g);

/* Appends a group or a class (the strings are copied); *index gets its
 * number.  PN_OK, PN_EINVAL or PN_ENOMEM. */
pn_status_t pn_groups_add_group(pn_groups_t *g, const char *name,
                                size_t *index);
pn_status_t pn_groups_add_class(pn_groups_t *g, const char *name,
                                const char *color, size_t *index);

/* Groups by id prefix: a node whose id has sep after at least one
 * character is in the group named by the part before it ("w3_p1" with
 * "_": "w3"); groups sorted by name, numbers inside names compared as
 * numbers (w2 before w10).  No classes.  Cost: O(nodes log groups). */
pn_status_t pn_groups_by_prefix(const pn_net_t *net, const char *sep,
                                pn_groups_t **out);

#ifdef __cplusplus
}
#endif
#endif
