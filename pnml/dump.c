/* The canonical text dump of a net (fixtures, round trips, pn-info --dump). */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dump.h"
#include "lib_private.h"

static void put_quoted(FILE *out, const char *s)
{
    if (!s) {
        fputc('-', out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void put_number(FILE *out, double v)
{
    char buf[64];
    pni_format_decimal(buf, sizeof buf, v);
    fputs(buf, out);
}

static void put_page(FILE *out, const pn_net_t *net, size_t page, int flags)
{
    if (page == PN_NONE) {
        fputc('-', out);
        return;
    }
    const pn_page_t *pg = pn_net_page(net, page);
    if (pg->id && (flags & PN_DUMP_IDS))
        fputs(pg->id, out);
    else
        fprintf(out, "#%zu", page);
}

/* Tool-specific data in a canonical order: by owner (net, pages, places,
 * transitions, arcs), then by owner index, then as stored. */
static int owner_rank(pn_object_t o)
{
    static const int rank[] = {[PN_NET] = 0, [PN_PAGE] = 1, [PN_PLACE] = 2,
                               [PN_TRANSITION] = 3, [PN_ARC] = 4};
    return rank[o];
}
static int cmp_tools(const pn_net_t *net, size_t i, size_t j)
{
    const pn_toolspecific_t *x = pn_net_toolspecific(net, i),
                            *y = pn_net_toolspecific(net, j);
    int rx = owner_rank(x->owner), ry = owner_rank(y->owner);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Insertion sort: tool-specific lists are short per owner and already
 * nearly ordered; O(n^2) worst case is bounded by dumps being for humans
 * and tests. */
static void sort_tools(const pn_net_t *net, size_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t x = v[i], j = i;
        while (j > 0 && cmp_tools(net, v[j - 1], x) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

pn_status_t pn_net_dump(const pn_net_t *net, FILE *out, int flags)
{
    fputs("net", out);
    if (flags & PN_DUMP_IDS) {
        fputs(" id=", out);
        put_quoted(out, pn_net_id(net));
    }
    fputs(" type=", out);
    put_quoted(out, pn_net_type(net));
    fputs(" name=", out);
    put_quoted(out, pn_net_name(net));
    fputc('\n', out);
    if (flags & PN_DUMP_PAGES) {
        for (size_t i = 0; i < pn_net_page_count(net); i++) {
            const pn_page_t *pg = pn_net_page(net, i);
            fprintf(out, "page #%zu", i);
            if (flags & PN_DUMP_IDS) {
                fputs(" id=", out);
                put_quoted(out, pg->id);
            }
            fputs(" parent=", out);
            put_page(out, net, pg->parent, flags);
            fputs(" name=", out);
            put_quoted(out, pg->name);
            fputc('\n', out);
        }
    }
    for (size_t i = 0; i < pn_net_place_count(net); i++) {
        const pn_place_t *p = pn_net_place(net, i);
        fprintf(out, "place p%zu", i);
        if (flags & PN_DUMP_IDS) {
            fputs(" id=", out);
            put_quoted(out, p->id);
        }
        fputs(" label=", out);
        put_quoted(out, p->name ? p->name : p->id);
        fprintf(out, " marking=%" PRIu64, p->marking);
        if (p->capacity)
            fprintf(out, " capacity=%" PRIu64, p->capacity);
        if ((flags & PN_DUMP_POSITIONS) && p->has_position) {
            fputs(" pos=", out);
            put_number(out, p->x);
            fputc(',', out);
            put_number(out, p->y);
        }
        if ((flags & PN_DUMP_POSITIONS) && p->has_label) {
            fputs(" label_at=", out);
            put_number(out, p->label_dx);
            fputc(',', out);
            put_number(out, p->label_dy);
        }
        if (flags & PN_DUMP_PAGES) {
            fputs(" page=", out);
            put_page(out, net, p->page, flags);
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        fprintf(out, "transition t%zu", i);
        if (flags & PN_DUMP_IDS) {
            fputs(" id=", out);
            put_quoted(out, t->id);
        }
        fputs(" label=", out);
        put_quoted(out, t->name ? t->name : t->id);
        if (t->timing != PN_TIMING_NONE) {
            char rate[PNI_EXACT_SIZE];
            pni_format_exact(rate, sizeof rate, t->rate, 0);
            fprintf(out, " timing=%s rate=%s priority=%d server=%s",
                    pn_timing_name(t->timing), rate, t->priority,
                    pn_server_name(t->server));
            if (t->server == PN_SERVER_K)
                fprintf(out, " servers=%u", t->servers);
            if (t->rate_expr) {
                fputs(" expression=", out);
                put_quoted(out, t->rate_expr);
            }
        }
        if (t->timing_lost)
            fputs(" timing_lost", out);
        if ((flags & PN_DUMP_POSITIONS) && t->has_position) {
            fputs(" pos=", out);
            put_number(out, t->x);
            fputc(',', out);
            put_number(out, t->y);
        }
        if ((flags & PN_DUMP_POSITIONS) && t->has_label) {
            fputs(" label_at=", out);
            put_number(out, t->label_dx);
            fputc(',', out);
            put_number(out, t->label_dy);
        }
        if (flags & PN_DUMP_PAGES) {
            fputs(" page=", out);
            put_page(out, net, t->page, flags);
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        fprintf(out, "arc a%zu", i);
        if (flags & PN_DUMP_IDS) {
            fputs(" id=", out);
            put_quoted(out, a->id);
        }
        if (a->dir == PN_DIR_PT)
            fprintf(out, " p%zu -> t%zu", a->place, a->transition);
        else
            fprintf(out, " t%zu -> p%zu", a->transition, a->place);
        fprintf(out, " %s weight=%" PRIu64 "\n", pn_arc_kind_name(a->kind),
                a->weight);
    }
    if (flags & PN_DUMP_TOOLSPECIFIC) {
        static const char *owners[] = {"place", "transition", "arc", "page",
                                       "net"};
        size_t n = pn_net_toolspecific_count(net);
        size_t *order = malloc((n + 1) * sizeof *order);
        if (!order)
            return PN_ENOMEM;
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        sort_tools(net, order, n);
        for (size_t k = 0; k < n; k++) {
            const pn_toolspecific_t *t = pn_net_toolspecific(net, order[k]);
            fprintf(out, "toolspecific %s %zu tool=", owners[t->owner],
                    t->index);
            put_quoted(out, t->tool);
            fputs(" version=", out);
            put_quoted(out, t->version);
            fprintf(out, " bytes=%zu\n", strlen(t->xml));
        }
        free(order);
    }
    return ferror(out) ? PN_EIO : PN_OK;
}
