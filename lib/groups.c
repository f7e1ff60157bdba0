/* Groups of nodes and classes of transitions, as data. */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "groups.h"
#include "lib_private.h"

pn_groups_t *pn_groups_new(size_t places, size_t transitions)
{
    pn_groups_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->nplaces = places;
    g->ntransitions = transitions;
    g->place_group = malloc((places + 1) * sizeof *g->place_group);
    g->transition_group = malloc((transitions + 1) *
                                 sizeof *g->transition_group);
    g->transition_class = malloc((transitions + 1) *
                                 sizeof *g->transition_class);
    if (!g->place_group || !g->transition_group || !g->transition_class) {
        pn_groups_free(g);
        return NULL;
    }
    for (size_t i = 0; i < places; i++)
        g->place_group[i] = PN_NONE;
    for (size_t i = 0; i < transitions; i++)
        g->transition_group[i] = g->transition_class[i] = PN_NONE;
    return g;
}

void pn_groups_free(pn_groups_t *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->ngroups; i++)
        free(g->group_names[i]);
    for (size_t i = 0; i < g->nclasses; i++) {
        free(g->class_names[i]);
        free(g->class_colors[i]);
    }
    free(g->group_names);
    free(g->class_names);
    free(g->class_colors);
    free(g->place_group);
    free(g->transition_group);
    free(g->transition_class);
    free(g);
}

/* Appends a copy of s to the array *v of n strings. */
static pn_status_t push(char ***v, size_t n, const char *s)
{
    char **nv = realloc(*v, (n + 1) * sizeof *nv);
    if (!nv)
        return PN_ENOMEM;
    *v = nv;
    nv[n] = strdup(s);
    return nv[n] ? PN_OK : PN_ENOMEM;
}

pn_status_t pn_groups_add_group(pn_groups_t *g, const char *name,
                                size_t *index)
{
    if (!g || !name)
        return PN_EINVAL;
    pn_status_t st = push(&g->group_names, g->ngroups, name);
    if (st)
        return st;
    if (index)
        *index = g->ngroups;
    g->ngroups++;
    return PN_OK;
}

pn_status_t pn_groups_add_class(pn_groups_t *g, const char *name,
                                const char *color, size_t *index)
{
    if (!g || !name || !color)
        return PN_EINVAL;
    pn_status_t st = push(&g->class_names, g->nclasses, name);
    if (!st) {
        st = push(&g->class_colors, g->nclasses, color);
        if (st)
            free(g->class_names[g->nclasses]);
    }
    if (st)
        return st;
    if (index)
        *index = g->nclasses;
    g->nclasses++;
    return PN_OK;
}

/* Names compared with the digit runs inside them as numbers. */
static int natural_cmp(const char *x, const char *y)
{
    while (*x && *y) {
        if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
            while (*x == '0')
                x++;
            while (*y == '0')
                y++;
            size_t nx = strspn(x, "0123456789"), ny = strspn(y, "0123456789");
            if (nx != ny)
                return nx < ny ? -1 : 1;
            int c = strncmp(x, y, nx);
            if (c)
                return c;
            x += nx;
            y += ny;
            continue;
        }
        if (*x != *y)
            return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
        x++;
        y++;
    }
    return *x ? 1 : *y ? -1 : 0;
}

static int cmp_name(const void *a, const void *b)
{
    return natural_cmp(*(char *const *)a, *(char *const *)b);
}

/* The group key of id under sep, into a new string (NULL: no group). */
static char *prefix_of(const char *id, const char *sep)
{
    const char *at = sep && *sep ? strstr(id, sep) : NULL;
    if (!at || at == id)
        return NULL;
    return strndup(id, (size_t)(at - id));
}

pn_status_t pn_groups_by_prefix(const pn_net_t *net, const char *sep,
                                pn_groups_t **out)
{
    if (!net || !sep || !*sep || !out)
        return PN_EINVAL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    pn_groups_t *g = pn_groups_new(np, nt);
    pni_hash_t seen;
    pni_hash_init(&seen);
    pn_status_t st = g ? PN_OK : PN_ENOMEM;
    /* the distinct keys, then sorted, then each node's group */
    for (size_t i = 0; !st && i < np + nt; i++) {
        const char *id = i < np ? pn_net_place(net, i)->id
                                : pn_net_transition(net, i - np)->id;
        char *key = prefix_of(id, sep);
        if (key && !pni_hash_get(&seen, key)) {
            st = pn_groups_add_group(g, key, NULL);
            if (!st)
                st = pni_hash_put(&seen, g->group_names[g->ngroups - 1], 0, 0);
        }
        free(key);
    }
    if (!st && g->ngroups)
        qsort(g->group_names, g->ngroups, sizeof *g->group_names, cmp_name);
    pni_hash_free(&seen);
    pni_hash_init(&seen);
    for (size_t k = 0; !st && k < g->ngroups; k++)
        st = pni_hash_put(&seen, g->group_names[k], 0, k);
    for (size_t i = 0; !st && i < np + nt; i++) {
        const char *id = i < np ? pn_net_place(net, i)->id
                                : pn_net_transition(net, i - np)->id;
        char *key = prefix_of(id, sep);
        const pni_hentry_t *e = key ? pni_hash_get(&seen, key) : NULL;
        if (e) {
            if (i < np)
                g->place_group[i] = e->index;
            else
                g->transition_group[i - np] = e->index;
        }
        free(key);
    }
    pni_hash_free(&seen);
    if (st) {
        pn_groups_free(g);
        return st;
    }
    *out = g;
    return PN_OK;
}
