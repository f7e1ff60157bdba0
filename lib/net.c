/* The net model: places, transitions, arcs, pages, tool-specific data. */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"

struct pn_net {
    pni_arena_t strings;
    pni_hash_t ids;
    const char *id, *name, *type;
    pn_place_t *places;
    size_t nplaces, cap_places;
    pn_transition_t *transitions;
    size_t ntransitions, cap_transitions;
    pn_arc_t *arcs;
    size_t narcs, cap_arcs;
    pn_page_t *pages;
    size_t npages, cap_pages;
    pn_toolspecific_t *tools;
    size_t ntools, cap_tools;
    const char **warnings;
    size_t nwarnings, cap_warnings;
};

const char *pn_arc_kind_name(pn_arc_kind_t kind)
{
    switch (kind) {
    case PN_ARC_NORMAL: return "normal";
    case PN_ARC_INHIBITOR: return "inhibitor";
    case PN_ARC_READ: return "read";
    case PN_ARC_RESET: return "reset";
    }
    return "?";
}

pn_net_t *pn_net_new(const char *id)
{
    pn_net_t *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    pni_arena_init(&net->strings);
    pni_hash_init(&net->ids);
    if ((id && pn_net_set_id(net, id) != PN_OK) ||
        pn_net_set_type(net, PN_PTNET_TYPE) != PN_OK) {
        pn_net_free(net);
        return NULL;
    }
    return net;
}

void pn_net_free(pn_net_t *net)
{
    if (!net)
        return;
    pni_arena_free(&net->strings);
    pni_hash_free(&net->ids);
    free(net->places);
    free(net->transitions);
    free(net->arcs);
    free(net->pages);
    free(net->tools);
    free(net->warnings);
    free(net);
}

static pn_status_t set_str(pn_net_t *net, const char **field, const char *s)
{
    if (!s) {
        *field = NULL;
        return PN_OK;
    }
    const char *c = pni_arena_strdup(&net->strings, s);
    if (!c)
        return PN_ENOMEM;
    *field = c;
    return PN_OK;
}

pn_status_t pn_net_set_id(pn_net_t *net, const char *id)
{
    return net ? set_str(net, &net->id, id) : PN_EINVAL;
}
pn_status_t pn_net_set_name(pn_net_t *net, const char *name)
{
    return net ? set_str(net, &net->name, name) : PN_EINVAL;
}
pn_status_t pn_net_set_type(pn_net_t *net, const char *type)
{
    return net ? set_str(net, &net->type, type) : PN_EINVAL;
}
const char *pn_net_id(const pn_net_t *net) { return net ? net->id : NULL; }
const char *pn_net_name(const pn_net_t *net) { return net ? net->name : NULL; }
const char *pn_net_type(const pn_net_t *net) { return net ? net->type : NULL; }

/* Copies id into the arena and reserves it; *out gets the copy. */
static pn_status_t reserve_id(pn_net_t *net, const char *id, pn_object_t kind,
                              size_t index, const char **out)
{
    if (!id || !*id)
        return PN_EINVAL;
    const char *c = pni_arena_strdup(&net->strings, id);
    if (!c)
        return PN_ENOMEM;
    /* on PN_EDUPID the copy stays in the arena until the net is freed */
    pn_status_t st = pni_hash_put(&net->ids, c, kind, index);
    if (st)
        return st;
    *out = c;
    return PN_OK;
}

pn_status_t pn_net_add_place(pn_net_t *net, const char *id, const char *name,
                             uint64_t marking, size_t *index)
{
    if (!net)
        return PN_EINVAL;
    if (marking > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (pni_grow((void **)&net->places, &net->cap_places, net->nplaces + 1,
                 sizeof *net->places))
        return PN_ENOMEM;
    pn_place_t p = {0};
    p.marking = marking;
    p.page = PN_NONE;
    if (name && !(p.name = pni_arena_strdup(&net->strings, name)))
        return PN_ENOMEM;
    pn_status_t st = reserve_id(net, id, PN_PLACE, net->nplaces, &p.id);
    if (st)
        return st;
    net->places[net->nplaces] = p;
    if (index)
        *index = net->nplaces;
    net->nplaces++;
    return PN_OK;
}

pn_status_t pn_net_add_transition(pn_net_t *net, const char *id,
                                  const char *name, size_t *index)
{
    if (!net)
        return PN_EINVAL;
    if (pni_grow((void **)&net->transitions, &net->cap_transitions,
                 net->ntransitions + 1, sizeof *net->transitions))
        return PN_ENOMEM;
    pn_transition_t t = {0};
    t.page = PN_NONE;
    if (name && !(t.name = pni_arena_strdup(&net->strings, name)))
        return PN_ENOMEM;
    pn_status_t st = reserve_id(net, id, PN_TRANSITION, net->ntransitions,
                                &t.id);
    if (st)
        return st;
    net->transitions[net->ntransitions] = t;
    if (index)
        *index = net->ntransitions;
    net->ntransitions++;
    return PN_OK;
}

pn_status_t pn_net_add_arc_at(pn_net_t *net, const char *id, pn_arc_dir_t dir,
                              size_t place, size_t transition, uint64_t weight,
                              pn_arc_kind_t kind, size_t *index)
{
    if (!net || (dir != PN_DIR_PT && dir != PN_DIR_TP) ||
        (unsigned)kind > PN_ARC_RESET)
        return PN_EINVAL;
    if (place >= net->nplaces || transition >= net->ntransitions)
        return PN_EUNKNOWN;
    if (kind != PN_ARC_NORMAL && dir != PN_DIR_PT)
        return PN_EARC;
    if (kind == PN_ARC_RESET)
        weight = 1;
    if (weight == 0)
        return PN_EINVAL;
    if (weight > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (pni_grow((void **)&net->arcs, &net->cap_arcs, net->narcs + 1,
                 sizeof *net->arcs))
        return PN_ENOMEM;
    pn_arc_t a = {0};
    a.kind = kind;
    a.dir = dir;
    a.place = place;
    a.transition = transition;
    a.weight = weight;
    if (id) {
        pn_status_t st = reserve_id(net, id, PN_ARC, net->narcs, &a.id);
        if (st)
            return st;
    }
    net->arcs[net->narcs] = a;
    if (index)
        *index = net->narcs;
    net->narcs++;
    return PN_OK;
}

pn_status_t pn_net_add_arc(pn_net_t *net, const char *id, const char *source,
                           const char *target, uint64_t weight,
                           pn_arc_kind_t kind, size_t *index)
{
    if (!net || !source || !target)
        return PN_EINVAL;
    const pni_hentry_t *s = pni_hash_get(&net->ids, source);
    const pni_hentry_t *t = pni_hash_get(&net->ids, target);
    if (!s || !t || (s->kind != PN_PLACE && s->kind != PN_TRANSITION) ||
        (t->kind != PN_PLACE && t->kind != PN_TRANSITION))
        return PN_EUNKNOWN;
    if (s->kind == t->kind)
        return PN_EARC;
    if (s->kind == PN_PLACE)
        return pn_net_add_arc_at(net, id, PN_DIR_PT, s->index, t->index,
                                 weight, kind, index);
    return pn_net_add_arc_at(net, id, PN_DIR_TP, t->index, s->index, weight,
                             kind, index);
}

pn_status_t pn_net_add_page(pn_net_t *net, const char *id, const char *name,
                            size_t parent, size_t *index)
{
    if (!net || (parent != PN_NONE && parent >= net->npages))
        return PN_EINVAL;
    if (pni_grow((void **)&net->pages, &net->cap_pages, net->npages + 1,
                 sizeof *net->pages))
        return PN_ENOMEM;
    pn_page_t pg = {0};
    pg.parent = parent;
    if (name && !(pg.name = pni_arena_strdup(&net->strings, name)))
        return PN_ENOMEM;
    /* page ids are a grouping only: kept, but outside the node namespace
     * (tools reuse them, e.g. WoPeD names a subprocess page after its
     * transition) */
    if (id && !(pg.id = pni_arena_strdup(&net->strings, id)))
        return PN_ENOMEM;
    net->pages[net->npages] = pg;
    if (index)
        *index = net->npages;
    net->npages++;
    return PN_OK;
}

static int owner_ok(const pn_net_t *net, pn_object_t kind, size_t index)
{
    switch (kind) {
    case PN_NET: return 1;
    case PN_PAGE: return index < net->npages;
    case PN_PLACE: return index < net->nplaces;
    case PN_TRANSITION: return index < net->ntransitions;
    case PN_ARC: return index < net->narcs;
    }
    return 0;
}

pn_status_t pn_net_add_toolspecific(pn_net_t *net, pn_object_t owner,
                                    size_t index, const char *tool,
                                    const char *version, const char *xml)
{
    if (!net || !xml || !owner_ok(net, owner, index))
        return PN_EINVAL;
    if (pni_grow((void **)&net->tools, &net->cap_tools, net->ntools + 1,
                 sizeof *net->tools))
        return PN_ENOMEM;
    pn_toolspecific_t t = {0};
    t.owner = owner;
    t.index = owner == PN_NET ? 0 : index;
    if ((tool && !(t.tool = pni_arena_strdup(&net->strings, tool))) ||
        (version && !(t.version = pni_arena_strdup(&net->strings, version))) ||
        !(t.xml = pni_arena_strdup(&net->strings, xml)))
        return PN_ENOMEM;
    net->tools[net->ntools++] = t;
    return PN_OK;
}

pn_status_t pn_net_set_marking(pn_net_t *net, size_t place, uint64_t marking)
{
    if (!net || place >= net->nplaces)
        return PN_EINVAL;
    if (marking > PN_TOKENS_MAX)
        return PN_ERANGE;
    net->places[place].marking = marking;
    return PN_OK;
}

pn_status_t pn_net_set_arc_weight(pn_net_t *net, size_t arc, uint64_t weight)
{
    if (!net || arc >= net->narcs || weight == 0)
        return PN_EINVAL;
    if (weight > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (net->arcs[arc].kind == PN_ARC_RESET)
        return PN_EINVAL;
    net->arcs[arc].weight = weight;
    return PN_OK;
}

pn_status_t pn_net_set_capacity(pn_net_t *net, size_t place, uint64_t capacity)
{
    if (!net || place >= net->nplaces)
        return PN_EINVAL;
    if (capacity > PN_TOKENS_MAX)
        return PN_ERANGE;
    net->places[place].capacity = capacity;
    return PN_OK;
}

pn_status_t pn_net_set_position(pn_net_t *net, pn_object_t kind, size_t index,
                                double x, double y)
{
    if (!net || !(x == x) || !(y == y)) /* NaN is no position */
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces) {
        net->places[index].has_position = 1;
        net->places[index].x = x;
        net->places[index].y = y;
    } else if (kind == PN_TRANSITION && index < net->ntransitions) {
        net->transitions[index].has_position = 1;
        net->transitions[index].x = x;
        net->transitions[index].y = y;
    } else
        return PN_EINVAL;
    return PN_OK;
}

pn_status_t pn_net_set_label_offset(pn_net_t *net, pn_object_t kind,
                                    size_t index, double dx, double dy)
{
    if (!net || !(dx == dx) || !(dy == dy))
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces) {
        net->places[index].has_label = 1;
        net->places[index].label_dx = dx;
        net->places[index].label_dy = dy;
    } else if (kind == PN_TRANSITION && index < net->ntransitions) {
        net->transitions[index].has_label = 1;
        net->transitions[index].label_dx = dx;
        net->transitions[index].label_dy = dy;
    } else
        return PN_EINVAL;
    return PN_OK;
}

pn_status_t pn_net_set_page(pn_net_t *net, pn_object_t kind, size_t index,
                            size_t page)
{
    if (!net || (page != PN_NONE && page >= net->npages))
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces)
        net->places[index].page = page;
    else if (kind == PN_TRANSITION && index < net->ntransitions)
        net->transitions[index].page = page;
    else
        return PN_EINVAL;
    return PN_OK;
}

pn_status_t pn_net_set_node_name(pn_net_t *net, pn_object_t kind,
                                 size_t index, const char *name)
{
    if (!net)
        return PN_EINVAL;
    if (kind == PN_PLACE && index < net->nplaces)
        return set_str(net, &net->places[index].name, name);
    if (kind == PN_TRANSITION && index < net->ntransitions)
        return set_str(net, &net->transitions[index].name, name);
    if (kind == PN_PAGE && index < net->npages)
        return set_str(net, &net->pages[index].name, name);
    return PN_EINVAL;
}

size_t pn_net_place_count(const pn_net_t *net) { return net ? net->nplaces : 0; }
size_t pn_net_transition_count(const pn_net_t *net)
{
    return net ? net->ntransitions : 0;
}
size_t pn_net_arc_count(const pn_net_t *net) { return net ? net->narcs : 0; }
size_t pn_net_page_count(const pn_net_t *net) { return net ? net->npages : 0; }
size_t pn_net_toolspecific_count(const pn_net_t *net)
{
    return net ? net->ntools : 0;
}

const pn_place_t *pn_net_place(const pn_net_t *net, size_t i)
{
    return net && i < net->nplaces ? &net->places[i] : NULL;
}
const pn_transition_t *pn_net_transition(const pn_net_t *net, size_t i)
{
    return net && i < net->ntransitions ? &net->transitions[i] : NULL;
}
const pn_arc_t *pn_net_arc(const pn_net_t *net, size_t i)
{
    return net && i < net->narcs ? &net->arcs[i] : NULL;
}
const pn_page_t *pn_net_page(const pn_net_t *net, size_t i)
{
    return net && i < net->npages ? &net->pages[i] : NULL;
}
const pn_toolspecific_t *pn_net_toolspecific(const pn_net_t *net, size_t i)
{
    return net && i < net->ntools ? &net->tools[i] : NULL;
}

pn_status_t pn_net_find(const pn_net_t *net, const char *id,
                        pn_object_t *kind, size_t *index)
{
    if (!net || !id)
        return PN_EINVAL;
    const pni_hentry_t *e = pni_hash_get(&net->ids, id);
    if (!e)
        return PN_EUNKNOWN;
    if (kind)
        *kind = (pn_object_t)e->kind;
    if (index)
        *index = e->index;
    return PN_OK;
}

void pn_net_count_arcs(const pn_net_t *net, size_t counts[PN_ARC_KINDS])
{
    for (int k = 0; k < PN_ARC_KINDS; k++)
        counts[k] = 0;
    for (size_t i = 0; net && i < net->narcs; i++)
        counts[net->arcs[i].kind]++;
}

uint64_t pn_net_total_tokens(const pn_net_t *net)
{
    uint64_t sum = 0;
    for (size_t i = 0; net && i < net->nplaces; i++) {
        uint64_t m = net->places[i].marking;
        sum = sum > UINT64_MAX - m ? UINT64_MAX : sum + m;
    }
    return sum;
}

size_t pn_net_warning_count(const pn_net_t *net)
{
    return net ? net->nwarnings : 0;
}
const char *pn_net_warning(const pn_net_t *net, size_t i)
{
    return net && i < net->nwarnings ? net->warnings[i] : NULL;
}
pn_status_t pn_net_add_warning(pn_net_t *net, const char *text)
{
    if (!net || !text)
        return PN_EINVAL;
    if (pni_grow((void **)&net->warnings, &net->cap_warnings,
                 net->nwarnings + 1, sizeof *net->warnings))
        return PN_ENOMEM;
    const char *c = pni_arena_strdup(&net->strings, text);
    if (!c)
        return PN_ENOMEM;
    net->warnings[net->nwarnings++] = c;
    return PN_OK;
}

void pni_net_clear_pages(pn_net_t *net)
{
    net->npages = 0;
    for (size_t i = 0; i < net->nplaces; i++)
        net->places[i].page = PN_NONE;
    for (size_t i = 0; i < net->ntransitions; i++)
        net->transitions[i].page = PN_NONE;
    for (size_t i = 0; i < net->ntools; i++)
        if (net->tools[i].owner == PN_PAGE) {
            net->tools[i].owner = PN_NET;
            net->tools[i].index = 0;
        }
}
