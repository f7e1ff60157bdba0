/*
 * PNML reader on libxml2's SAX2 interface: the entry points, the structure
 * elements of the document (<pnml>, <net>, <page>, a WoPeD subnet) as
 * their tags arrive, and the net finished from what was collected.
 *
 * The events and the per-object trees collected from them are sax.c's,
 * the tool-specific blocks toolspecific.c's, and each collected object is
 * read by objects.c (reader_private.h says who does what).
 *
 * Elements are matched by local name, so documents with no namespace, the
 * 2009 namespace or a prefix all read.  Arcs and reference nodes are
 * collected and resolved when the net ends (PNML lets an arc come before
 * its nodes).  Nothing half-built is returned.
 */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "reader_private.h"

static const char *const ignored_what[IGN_COUNT][2] = {
    {"time interval", "time intervals"},
    {"age invariant", "age invariants"},
    {"transport arc read as a pair of normal arcs (an approximation: the "
     "token's age is lost)", "transport arcs read as pairs of normal arcs "
     "(an approximation: the tokens' ages are lost)"},
    {"urgent transition", "urgent transitions"},
    {"rate or priority that is not a number (not read: the net is not "
     "written without it)", "rates or priorities that are not numbers (not "
     "read: the net is not written without them)"},
    {"priority", "priorities"},
    {"query", "queries"},
    {"arc name", "arc names"},
    {"arc bend point", "arc bend points"},
    {"tool-specific block inside a label", "tool-specific blocks inside "
     "labels"},
    {"transition guard", "transition guards"},
    {"transition of a game's second player", "transitions of a game's "
     "second player"},
    {"delay distribution other than exponential and deterministic (pm4py's "
     "UNIFORM, NORMAL, LOGNORMAL, GAMMA: not read, its block kept)",
     "delay distributions other than exponential and deterministic "
     "(pm4py's UNIFORM, NORMAL, LOGNORMAL, GAMMA: not read, their blocks "
     "kept)"},
    {"label we do not understand", "labels we do not understand"},
};

/* A label we do not understand: counted, and its name kept for the
 * report (the first few distinct names). */
void pni_rd_ignore_label(rd_t *rd, const char *name)
{
    rd->diag.ignored[IGN_LABEL]++;
    char quoted[80];
    snprintf(quoted, sizeof quoted, "<%s>", name);
    size_t n = strlen(rd->diag.unknown);
    if (strstr(rd->diag.unknown, quoted) || n + strlen(quoted) + 8 >
                                                sizeof rd->diag.unknown)
        return;
    snprintf(rd->diag.unknown + n, sizeof rd->diag.unknown - n, "%s%s",
             n ? ", " : "", quoted);
}

/* ---- resolution -------------------------------------------------------- */

/* The node an id (node or reference node) stands for: 0, 1 when the id
 * names no node, -1 on error (recorded).  Chains of reference nodes are
 * followed in a loop, so their length is bounded by memory only. */
static int resolve(rd_t *rd, const char *id, pn_object_t *kind, size_t *index)
{
    if (pn_net_find(rd->net, id, kind, index) == PN_OK)
        return *kind == PN_ARC ? 1 : 0;
    const pni_hentry_t *e = pni_hash_get(&rd->refids, id);
    if (!e)
        return 1;
    size_t n = 0, i = e->index;
    for (;;) {
        rd_ref_t *r = &rd->refs[i];
        if (r->state == 2) {
            *kind = r->kind;
            *index = r->index;
            break;
        }
        if (r->state == 1)
            return pni_rd_fail(rd, PN_EREFCYCLE, r->at_id,
                               "reference node '%s' is part of a cycle of "
                               "references", r->id);
        r->state = 1;
        if (pni_grow((void **)&rd->chain, &rd->cap_chain, n + 1,
                     sizeof *rd->chain))
            return pni_rd_nomem(rd);
        rd->chain[n++] = i;
        if (pn_net_find(rd->net, r->ref, kind, index) == PN_OK &&
            *kind != PN_ARC)
            break;
        e = pni_hash_get(&rd->refids, r->ref);
        if (!e)
            return pni_rd_fail(rd, PN_EUNKNOWN, r->at_ref,
                               "reference node '%s' refers to '%s', which is "
                               "no node", r->id, r->ref);
        i = e->index;
    }
    /* the chain, from the node back: each reference must be of its kind */
    while (n--) {
        rd_ref_t *r = &rd->refs[rd->chain[n]];
        if ((*kind == PN_PLACE) != (r->is_place != 0))
            return pni_rd_fail(rd, PN_EARC, r->at_ref,
                               "%s '%s' refers to '%s', which is a %s",
                               r->is_place ? "referencePlace"
                                    : "referenceTransition",
                               r->id, r->ref,
                               *kind == PN_PLACE ? "place" : "transition");
        r->state = 2;
        r->kind = *kind;
        r->index = *index;
    }
    return 0;
}

/* Whether an earlier arc has this id.  Nothing refers to arc ids, and real
 * exports reuse them (WoPeD's), so a repeated arc id is renamed with a
 * warning; an arc id that a node or a reference node has stays an
 * error. */
static int arc_id_taken(rd_t *rd, const char *id)
{
    pn_object_t k;
    return pn_net_find(rd->net, id, &k, NULL) == PN_OK && k == PN_ARC;
}

/* A fresh id for a later arc with a repeated id ("a25" -> "a25_2"), and
 * the warning that says so; NULL (rd->diag.st set) when out of memory. */
static const char *renamed_arc_id(rd_t *rd, const rd_arc_t *a,
                                  unsigned long line)
{
    char buf[512];
    for (unsigned long k = 2;; k++) {
        snprintf(buf, sizeof buf, "%s_%lu", a->id, k);
        if (pn_net_find(rd->net, buf, NULL, NULL) != PN_OK)
            break;
    }
    char w[1200];
    snprintf(w, sizeof w, "%s:%lu: arc id '%s' is used by an earlier arc: "
             "this arc is renamed '%s'", rd->diag.name, line, a->id, buf);
    const char *id = pni_arena_strdup(&rd->arena, buf);
    if (!id || pn_net_add_warning(rd->net, w)) {
        pni_rd_nomem(rd);
        return NULL;
    }
    return id;
}

/* Places whose initial marking is above their capacity: the net starts
 * in a marking its own capacities forbid. */
static int warn_capacities(rd_t *rd)
{
    size_t n = pn_net_place_count(rd->net), bad = 0, first = PN_NONE;
    for (size_t i = 0; i < n; i++) {
        const pn_place_t *p = pn_net_place(rd->net, i);
        if (p->capacity && p->marking > p->capacity && bad++ == 0)
            first = i;
    }
    if (!bad)
        return 0;
    const pn_place_t *p = pn_net_place(rd->net, first);
    char w[600];
    snprintf(w, sizeof w, "%s: place '%s' has an initial marking of %" PRIu64
             " above its capacity %" PRIu64 "%s", rd->diag.name, p->id,
             p->marking, p->capacity,
             bad > 1 ? " (and more places: see pn-info)" : "");
    return pn_net_add_warning(rd->net, w) ? pni_rd_nomem(rd) : 0;
}

/* Adds an arc whose ends are resolved; e: its element when it is read
 * now (positions are found in it), NULL when it waited. */
enum { AT_ID, AT_SRC, AT_TGT };
static at_t arc_at(const rd_arc_t *a, const el_t *e, int which)
{
    static const char *const needles[] = {"id=", "source=", "target="};
    if (e)
        return pni_rd_where(e, needles[which]);
    return which == AT_ID ? a->at_id : which == AT_SRC ? a->at_src
                                                       : a->at_tgt;
}

int pni_rd_add_arc(rd_t *rd, const rd_arc_t *a, const el_t *e,
                   pn_object_t ks, size_t is, pn_object_t kt, size_t it)
{
    if (ks == kt)
        return pni_rd_fail(rd, PN_EARC, arc_at(a, e, AT_SRC),
                           "arc%s%s%s joins two %s ('%s' and '%s')",
                           a->id ? " '" : "", a->id ? a->id : "",
                           a->id ? "'" : "",
                           ks == PN_PLACE ? "places" : "transitions",
                           a->source, a->target);
    pn_arc_dir_t dir = ks == PN_PLACE ? PN_DIR_PT : PN_DIR_TP;
    if (a->kind != PN_ARC_NORMAL && dir != PN_DIR_PT)
        return pni_rd_fail(rd, PN_EARC, arc_at(a, e, AT_SRC),
                           "%s arc%s%s%s goes from a transition to a place; "
                           "it must go from a place to a transition",
                           pn_arc_kind_name(a->kind), a->id ? " '" : "",
                           a->id ? a->id : "", a->id ? "'" : "");
    const char *id = a->id;
    if (id && pni_hash_get(&rd->refids, id))
        return pni_rd_fail(rd, PN_EDUPID, arc_at(a, e, AT_ID),
                           "duplicate id '%s' (a reference node has it)", id);
    pn_status_t st = pn_net_add_arc_at(
        rd->net, id, dir, dir == PN_DIR_PT ? is : it,
        dir == PN_DIR_PT ? it : is, a->weight, a->kind, NULL);
    if (st == PN_EDUPID && arc_id_taken(rd, id)) {
        /* an earlier arc has the id: this one gets a fresh one */
        if (!(id = renamed_arc_id(rd, a, arc_at(a, e, AT_ID).line)))
            return -1;
        st = pn_net_add_arc_at(rd->net, id, dir, dir == PN_DIR_PT ? is : it,
                               dir == PN_DIR_PT ? it : is, a->weight, a->kind,
                               NULL);
    }
    if (st == PN_EDUPID)
        return pni_rd_fail(rd, PN_EDUPID, arc_at(a, e, AT_ID),
                           "duplicate id '%s'", a->id);
    if (st) {
        at_t at = {arc_at(a, e, AT_SRC).line, 0};
        return pni_rd_fail(rd, st, at, "arc: %s", pn_strstatus(st));
    }
    return 0;
}

static int finish_net(rd_t *rd)
{
    pn_object_t k;
    size_t idx;
    if (rd->pnpro && pni_pnpro_finish(rd))
        return -1;
    /* reference chains are checked even when no arc uses them */
    for (size_t i = 0; i < rd->nrefs; i++)
        if (rd->refs[i].state != 2 && resolve(rd, rd->refs[i].id, &k, &idx))
            return rd->diag.st
                       ? -1
                       : pni_rd_fail(rd, PN_EUNKNOWN, rd->refs[i].at_ref,
                                     "reference node '%s' refers to '%s', "
                                     "which is no node", rd->refs[i].id,
                                     rd->refs[i].ref);
    for (size_t i = 0; i < rd->narcs; i++) {
        rd_arc_t *a = &rd->arcs[i];
        pn_object_t ks, kt;
        size_t is, it;
        int rs = resolve(rd, a->source, &ks, &is);
        if (rs < 0)
            return -1;
        int rt = rs ? 0 : resolve(rd, a->target, &kt, &it);
        if (rt < 0)
            return -1;
        if (rs || rt) {
            const char *which = rs ? "source" : "target";
            return pni_rd_fail(rd, PN_EUNKNOWN, rs ? a->at_src : a->at_tgt,
                               "arc%s%s%s: %s '%s' is no place or transition",
                               a->id ? " '" : "", a->id ? a->id : "",
                               a->id ? "'" : "", which,
                               rs ? a->source : a->target);
        }
        if (pni_rd_add_arc(rd, a, NULL, ks, is, kt, it))
            return -1;
    }
    if (rd->own_pages) {
        pni_net_clear_pages(rd->net);
        for (size_t i = 0; i < rd->nownpages; i++)
            if (pn_net_add_page(rd->net, rd->ownpages[i].id,
                                rd->ownpages[i].name, rd->ownpages[i].parent,
                                NULL))
                return pni_rd_nomem(rd);
    }
    /* a PIPE net whose transitions all say PIPE's default (immediate,
     * weight 1, priority 1) says nothing a P/T net cannot: read untimed,
     * as it is written back */
    size_t nt = rd->timing_special || rd->pnpro
                    ? 0
                    : pn_net_transition_count(rd->net);
    for (size_t i = 0; i < nt; i++)
        if (pn_net_transition(rd->net, i)->timing == PN_TIMING_IMMEDIATE)
            pn_net_set_timing(rd->net, i, PN_TIMING_NONE, PN_DEFAULT_RATE,
                              PN_DEFAULT_PRIORITY, PN_SERVER_SINGLE);
    for (size_t i = 0; i < rd->nextras; i++) {
        rd_extra_t *e = &rd->extras[i];
        /* what each entry names (PN_NET: a place or a transition) */
        static const pn_object_t want[] = {
            [EXTRA_CAPACITY] = PN_PLACE, [EXTRA_MEMBER] = PN_NET,
            [EXTRA_TIMING] = PN_TRANSITION};
        static const char *const what[] = {
            [EXTRA_CAPACITY] = "place", [EXTRA_MEMBER] = "node",
            [EXTRA_TIMING] = "transition"};
        if (pn_net_find(rd->net, e->node, &k, &idx) || k == PN_ARC ||
            (want[e->what] != PN_NET && k != want[e->what]))
            return pni_rd_fail(rd, PN_EUNKNOWN, e->at, "'%s' names no %s",
                               e->node, what[e->what]);
        if (e->what == EXTRA_CAPACITY)
            pn_net_set_capacity(rd->net, idx, e->capacity);
        else if (e->what == EXTRA_TIMING)
        {
            pn_net_set_timing(rd->net, idx, e->timing, e->rate, e->priority,
                              e->server);
            pn_net_set_servers(rd->net, idx, e->servers);
            if (e->expr && pni_rd_rate_add(rd, idx, e->expr, NULL, e->expr_at))
                return -1;
        }
        else if (rd->own_pages)
            pn_net_set_page(rd->net, k, idx, e->page);
    }
    for (size_t i = 0; i < rd->ntools; i++) {
        rd_tool_t *t = &rd->tools[i];
        if (t->index == PN_NONE)
            continue;
        if (t->owner == PN_PAGE && rd->own_pages && t->index >= rd->nownpages) {
            /* our own <pages> block replaced the document's pages and
             * declares fewer: kept on the net, as pn_net_clear_pages()
             * keeps the blocks of pages it removes, and said */
            char w[600];
            snprintf(w, sizeof w, "%s:%lu: a tool-specific block of page %zu "
                     "is kept on the net: the pn-toolkit <pages> block "
                     "declares %zu page%s", rd->diag.name, t->at.line,
                     t->index + 1, rd->nownpages,
                     rd->nownpages == 1 ? "" : "s");
            if (pn_net_add_warning(rd->net, w))
                return pni_rd_nomem(rd);
            t->owner = PN_NET;
            t->index = 0;
        }
        if (pn_net_add_toolspecific(rd->net, t->owner, t->index, t->tool,
                                    t->version, t->xml))
            return pni_rd_nomem(rd);
    }
    if (pni_rd_rates_finish(rd))
        return -1;
    return warn_capacities(rd);
}

static int high_level_type(const char *type)
{
    static const char *hl[] = {"symmetricnet", "highlevelnet", "pt-hlpng",
                               "hlcorestructure", "coloured", "colored"};
    for (size_t i = 0; type && i < sizeof hl / sizeof *hl; i++)
        if (strstr(type, hl[i]))
            return 1;
    return 0;
}

/* Whether a net type is one of place/transition nets: PNML's ptnet and
 * core model (pm4py), the pre-2009 ptNet and WoPeD's ptNetb, PIPE's "P/T
 * net", ePNK's empty type (no labels at all). */
static int pt_type(const char *type)
{
    static const char *const ends[] = {"ptnet", "ptnetb", "pnmlcoremodel",
                                        "p/t net", "grammar/empty",
                                        "ptnet.pntd"};
    size_t n = strlen(type);
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t k = strlen(ends[i]);
        if (n >= k && !strcasecmp(type + n - k, ends[i]))
            return 1;
    }
    return 0;
}

/* "ignored: 12 time intervals, 1 query": what the net read does not say. */
static int warn_ignored(rd_t *rd)
{
    char w[1200];
    size_t n = (size_t)snprintf(w, sizeof w, "%s: ignored:", rd->diag.name);
    int any = 0;
    for (int k = 0; k < IGN_COUNT && n < sizeof w; k++) {
        if (!rd->diag.ignored[k])
            continue;
        n += (size_t)snprintf(w + n, sizeof w - n, "%s %zu %s%s%s%s",
                              any ? "," : "", rd->diag.ignored[k],
                              ignored_what[k][rd->diag.ignored[k] > 1],
                              k == IGN_LABEL ? " (" : "",
                              k == IGN_LABEL ? rd->diag.unknown : "",
                              k == IGN_LABEL ? ")" : "");
        any = 1;
    }
    if (!any)
        return 0;
    return pn_net_add_warning(rd->net, w) ? pni_rd_nomem(rd) : 0;
}

/* A document with several nets: say which one was read, so that nobody
 * takes it for the whole file. */
static int warn_other_nets(rd_t *rd)
{
    if (rd->nnets < 2 || !rd->net)
        return 0;
    char w[600];
    snprintf(w, sizeof w, "%s: the document holds %zu nets (%s); this is "
             "'%s', read the others by their ids", rd->diag.name, rd->nnets,
             rd->netids, pn_net_id(rd->net) ? pn_net_id(rd->net) : "");
    return pn_net_add_warning(rd->net, w) ? pni_rd_nomem(rd) : 0;
}

/* ---- the structure elements, as their tags arrive ---------------------- */

int pni_rd_push_frame(rd_t *rd, int kind, size_t page)
{
    if (pni_grow((void **)&rd->frames, &rd->cap_frames, rd->nframes + 1,
                 sizeof *rd->frames))
        return pni_rd_nomem(rd);
    frame_t f = {kind, page, rd->page, rd->prefix};
    rd->frames[rd->nframes++] = f;
    return 0;
}

static int start_net(rd_t *rd)
{
    const el_t *e = rd->tree.cur;
    const char *id = pni_rd_attr(rd, "id"), *type = pni_rd_attr(rd, "type");
    /* a net without an id is accepted (PIPE writes some): it is only a
     * name for the whole document */
    if (high_level_type(type))
        return pni_rd_fail_at(rd, PN_EUNSUPPORTED, e, "type=",
                              "unsupported net type '%s' (only "
                              "place/transition nets are read)", type);
    rd->net = pn_net_new(id && *id ? id : NULL);
    /* the type as read: none when the file gives none */
    if (!rd->net || pn_net_set_type(rd->net, type))
        return pni_rd_nomem(rd);
    if (!id || !*id) {
        char w[PN_ERROR_FILE_MAX + 64];
        snprintf(w, sizeof w, "%s:%lu: <net> has no id", rd->diag.name,
                 e->line);
        if (pn_net_add_warning(rd->net, w))
            return pni_rd_nomem(rd);
    }
    /* a type we do not know is read as P/T, and said (none at all is what
     * PIPE's older files and SNAKES write: read as P/T, silently) */
    if (type && !pt_type(type)) {
        char w[PN_ERROR_FILE_MAX + 160];
        snprintf(w, sizeof w, "%s:%lu: unknown net type '%.80s%s': read as "
                 "a P/T net", rd->diag.name, e->line, type,
                 strlen(type) > 80 ? "..." : "");
        if (pn_net_add_warning(rd->net, w))
            return pni_rd_nomem(rd);
    }
    return pni_rd_push_frame(rd, F_NET, PN_NONE);
}

/* A child of <pnml>: a net is read when it is the one asked for. */
int pni_rd_start_in_root(rd_t *rd, const char *name)
{
    if (rd->pnpro)
        return pni_pnpro_start_in_root(rd, name);
    if (!strcmp(name, "query"))
        pni_rd_ignore(rd, IGN_QUERY);
    if (strcmp(name, "net") != 0) {
        rd->xml.skipping = 1;
        return 0;
    }
    const char *id = pni_rd_attr(rd, "id");
    size_t n = strlen(rd->netids);
    if (n + 8 < sizeof rd->netids)
        snprintf(rd->netids + n, sizeof rd->netids - n, "%s'%s'",
                 rd->nnets ? ", " : "", id ? id : "");
    rd->nnets++;
    int match = !rd->found && (!rd->want || (id && !strcmp(id, rd->want)));
    if (!match) {
        rd->xml.skipping = 1;
        return 0;
    }
    rd->found = 1;
    return start_net(rd);
}

/* A child of a net or page that is not collected: a page, a WoPeD
 * subnet, or something skipped whole. */
int pni_rd_start_in_content(rd_t *rd, const frame_t *f, const char *name)
{
    if (rd->pnpro)
        return pni_pnpro_start_in_content(rd, name);
    if (!strcmp(name, "page")) {
        const char *raw = pni_rd_attr(rd, "id");
        const char *id = pni_rd_scoped(rd, raw);
        size_t idx;
        if (rd->diag.st)
            return -1;
        /* accepted, as a net without one is, and said as it is */
        if (!raw || !*raw) {
            char w[PN_ERROR_FILE_MAX + 64];
            snprintf(w, sizeof w, "%s:%lu: <page> has no id", rd->diag.name,
                     rd->tree.cur->line);
            if (pn_net_add_warning(rd->net, w))
                return pni_rd_nomem(rd);
        }
        if (pn_net_add_page(rd->net, id, NULL, rd->page, &idx))
            return pni_rd_nomem(rd);
        if (pni_rd_push_frame(rd, F_PAGE, idx))
            return -1;
        rd->page = idx;
        return 0;
    }
    if (!strcmp(name, "net") && f->page != PN_NONE) {
        /* a <net> inside a <page>: a WoPeD subprocess.  Its ids get the
         * scope "<page id>/" so that the copies of boundary places it
         * carries do not clash with the parent net's. */
        const pn_page_t *pg = pn_net_page(rd->net, rd->page);
        const char *pid = pg && pg->id ? pg->id : "sub";
        size_t n = strlen(pid);
        char *scope = malloc(n + 2);
        if (!scope)
            return pni_rd_nomem(rd);
        memcpy(scope, pid, n);
        memcpy(scope + n, "/", 2);
        const char *s = pni_arena_strdup(&rd->arena, scope);
        free(scope);
        if (!s || pni_rd_push_frame(rd, F_SUBNET, rd->page))
            return s ? -1 : pni_rd_nomem(rd);
        rd->prefix = s;
        return 0;
    }
    if (!strcmp(name, "query"))
        pni_rd_ignore(rd, IGN_QUERY);
    else if (!strcmp(name, "declaration") || !strcmp(name, "declarations"))
        return pni_rd_unsupported_label(rd, name);
    /* what else a net or page holds is reported by name (pm4py's final
     * markings and variables, PIPE's notes, rate definitions and state
     * groups), but for its graphics and PIPE's token classes */
    else if (strcmp(name, "graphics") && strcmp(name, "token") &&
             strcmp(name, "tokenclass"))
        pni_rd_ignore_label(rd, name);
    rd->xml.skipping = 1;
    return 0;
}

int pni_rd_end_frame(rd_t *rd)
{
    frame_t f = rd->frames[--rd->nframes];
    switch (f.kind) {
    case F_NET:
        return finish_net(rd);
    case F_PAGE:
        rd->page = f.saved_page;
        break;
    case F_SUBNET:
        rd->prefix = f.saved_prefix;
        break;
    case F_GROUP:
        break;
    }
    return 0;
}

/* ---- documents --------------------------------------------------------- */

static void rd_free(rd_t *rd)
{
    pni_arena_free(&rd->arena);
    pni_hash_free(&rd->refids);
    free(rd->arcs);
    free(rd->refs);
    free(rd->chain);
    for (size_t i = 0; i < rd->ntools; i++)
        free(rd->tools[i].own);
    free(rd->tools);
    free(rd->name_line);
    free(rd->extras);
    pni_rd_rates_free(rd);
    free(rd->ownpages);
    free(rd->frames);
    pni_rd_tool_free(rd);
    pni_pnpro_free(rd);
    pni_rd_parse_free(rd);
}

/* Reads the document from buf (len bytes) or, when fd >= 0, streams it
 * from fd in blocks. */
static pn_status_t read_doc(const char *buf, size_t len, int fd,
                            const pn_read_options_t *opts,
                            pn_net_t **net_out, pn_error_t *err)
{
    rd_t rd = {0};
    rd.diag.name = err->file;
    rd.diag.err = err;
    rd.want = opts ? opts->net_id : NULL;
    rd.prefix = "";
    rd.page = PN_NONE;
    pni_arena_init(&rd.arena);
    pni_hash_init(&rd.refids);
    if (pni_rd_parse(&rd, buf, len, fd) == 0) {
        if (rd.found)
            warn_other_nets(&rd);
        if (rd.diag.st == PN_OK && rd.found)
            warn_ignored(&rd);
        if (rd.diag.st == PN_OK && !rd.found) {
            if (rd.want)
                pni_rd_fail(&rd, PN_ENONET, (at_t){0, 0},
                            "no <net> with id '%s'", rd.want);
            else
                pni_rd_fail(&rd, PN_ENONET, (at_t){0, 0},
                            rd.pnpro ? "the project has no <gspn> page"
                                     : "the document has no <net>");
        }
    }
    if (rd.diag.st == PN_OK) {
        *net_out = rd.net;
        rd.net = NULL;
    }
    pn_net_free(rd.net);
    rd_free(&rd);
    return rd.diag.st;
}

pn_status_t pn_pnml_read_memory(const char *buf, size_t len, const char *name,
                                const pn_read_options_t *opts,
                                pn_net_t **net_out, pn_error_t *err)
{
    if (net_out)
        *net_out = NULL;
    pn_error_t dummy;
    if (!err)
        err = &dummy;
    pni_error_begin(err, name ? name : "<memory>");
    if (!net_out || (!buf && len))
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    return read_doc(buf ? buf : "", len, -1, opts, net_out, err);
}

void pn_read_options_init(pn_read_options_t *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

pn_status_t pn_pnml_read_file(const char *path, const pn_read_options_t *opts,
                              pn_net_t **net_out, pn_error_t *err)
{
    pn_error_t dummy;
    if (!err)
        err = &dummy;
    if (net_out)
        *net_out = NULL;
    int in = path && !strcmp(path, "-");
    pni_error_begin(err, in ? "<stdin>" : path);
    if (!path || !net_out)
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    if (in)
        return read_doc(NULL, 0, 0, opts, net_out, err);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode)) {
        int e = fd < 0 ? errno : EISDIR;
        if (fd >= 0)
            close(fd);
        return pni_error(err, PN_EIO, 0, 0, "cannot read: %s", strerror(e));
    }
    pn_status_t st = read_doc(NULL, 0, fd, opts, net_out, err);
    close(fd);
    return st;
}
