/*
 * Object ids in the order the objects are made, for graphs that dot packs
 * (pni_dot_seq_ids_init()).  cgraph gives a named object the address of
 * its name as id and keeps subgraphs in the order of their ids, which is
 * the order dot packs the parts of a graph in: addresses would put the
 * warps of a net in any order.  Here a name's id is its rank among the
 * names made (odd, as cgraph's own counter of unnamed objects, so that no
 * id is taken for the address of a name), and the names stay until the
 * graph is closed: dot gives the copy of a cluster it lays out the
 * cluster's id, and deletes the copy after.  The names are cgraph's own
 * strings (agstrdup()), which its writers ask whether they are HTML, and
 * which it frees with the graph.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "render_private.h"

static size_t hash(const char *s)
{
    size_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The slot of name s in the table (empty: 0 there). */
static size_t *slot_of(pni_seq_ids_t *t, const char *s)
{
    size_t mask = t->nslots - 1;
    for (size_t i = hash(s) & mask;; i = (i + 1) & mask)
        if (!t->slots[i] || !strcmp(t->names[t->slots[i] - 1], s))
            return &t->slots[i];
}

/* Room for one more id (and name): 0 when out of memory. */
static int grow(pni_seq_ids_t *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        char **names = realloc(t->names, cap * sizeof *names);
        if (!names)
            return 0;
        t->names = names;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->nslots) {
        size_t n = t->nslots ? 2 * t->nslots : 512;
        size_t *slots = calloc(n, sizeof *slots), *old = t->slots;
        if (!slots)
            return 0;
        size_t nold = t->nslots;
        t->slots = slots;
        t->nslots = n;
        for (size_t i = 0; i < nold; i++)
            if (old[i])
                *slot_of(t, t->names[old[i] - 1]) = old[i];
        free(old);
    }
    return 1;
}

static void *ids_open(Agraph_t *g, Agdisc_t *disc)
{
    pni_seq_ids_t *t = (pni_seq_ids_t *)disc; /* its first member */
    t->g = g;
    return t;
}

/* A name's id (made when createflag); an unnamed object's new id. */
static long ids_map(void *state, int objtype, char *str, IDTYPE *id,
                    int createflag)
{
    pni_seq_ids_t *t = state;
    (void)objtype;
    size_t *slot = NULL;
    if (str && t->nslots && *(slot = slot_of(t, str))) {
        *id = 2 * (IDTYPE)(*slot - 1) + 1;
        return 1;
    }
    if ((str && !createflag) || !grow(t))
        return 0;
    char *name = NULL;
    if (str && !(name = agstrdup(t->g, str)))
        return 0;
    t->names[t->n] = name;
    if (str)
        *slot_of(t, str) = t->n + 1;
    *id = 2 * (IDTYPE)t->n++ + 1;
    return 1;
}

/* Ids asked for by number: the even ones, as cgraph's own. */
static long ids_alloc(void *state, int objtype, IDTYPE id)
{
    (void)state, (void)objtype;
    return !(id & 1);
}

static void ids_free(void *state, int objtype, IDTYPE id)
{
    (void)state, (void)objtype, (void)id;
}

static char *ids_print(void *state, int objtype, IDTYPE id)
{
    pni_seq_ids_t *t = state;
    (void)objtype;
    return id & 1 && id / 2 < t->n ? t->names[id / 2] : NULL;
}

static void ids_close(void *state)
{
    pni_seq_ids_t *t = state;
    free(t->names);
    free(t->slots);
}

static void ids_register(void *state, int objtype, void *obj)
{
    (void)state, (void)objtype, (void)obj;
}

/* t->disc is then the discipline to open a graph with; closing the graph
 * frees what t holds. */
void pni_dot_seq_ids_init(pni_seq_ids_t *t)
{
    memset(t, 0, sizeof *t);
    t->id = (Agiddisc_t){ids_open, ids_map, ids_alloc, ids_free, ids_print,
                         ids_close, ids_register};
    t->disc = (Agdisc_t){&AgMemDisc, &t->id, &AgIoDisc};
}
