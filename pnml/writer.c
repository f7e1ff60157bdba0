/*
 * PNML writer (libxml2's xmlTextWriter): standard PNML 2009 for ptnet, a
 * strict variant that the official grammar accepts, and the dialects of
 * PIPE, TAPAAL and WoPeD.
 */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/xmlwriter.h>
#include "lib_private.h"
#include "pnml.h"
#include "pnml_private.h"

#define PNML_NS "http://www.pnml.org/version-2009/grammar/pnml"
#define PTNET_TYPE "http://www.pnml.org/version-2009/grammar/ptnet"
#define WOPED_TYPE "http://www.informatik.hu-berlin.de/top/pntd/ptNetb"

/* PIPE and TAPAAL snap nodes to a grid of half a node (15 pixels) when they
 * save, and draw a name label ending at its node's position plus offset, in
 * a font about 7 pixels a character wide. */
#define EDITOR_GRID 15.0
#define EDITOR_CHAR 7.0

void pn_write_options_init(pn_write_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->dialect = PN_DIALECT_STANDARD;
}

pn_status_t pn_dialect_parse(const char *name, pn_dialect_t *dialect)
{
    static const char *names[] = {"standard", "strict", "pipe", "tapaal",
                                  "woped", "pnpro"};
    for (int i = 0; name && i < 6; i++)
        if (!strcmp(name, names[i])) {
            *dialect = (pn_dialect_t)i;
            return PN_OK;
        }
    return PN_EINVAL;
}

static int id_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static int id_char(unsigned char c)
{
    return id_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

static int valid_id(const char *id)
{
    if (!id || !id_start((unsigned char)*id))
        return 0;
    for (const char *p = id + 1; *p; p++)
        if (!id_char((unsigned char)*p))
            return 0;
    return 1;
}

void pni_pnml_sanitize_id(const char *id, char *buf, size_t size)
{
    if (!size)
        return;
    size_t n = 0;
    if (!id || !*id)
        id = "_";
    if (!id_start((unsigned char)*id) && n + 1 < size)
        buf[n++] = '_';
    for (const char *p = id; *p && n + 1 < size; p++)
        buf[n++] = id_char((unsigned char)*p) ? *p : '_';
    buf[n] = '\0';
}

typedef struct {
    xmlTextWriterPtr w;
    const pn_net_t *net;
    pn_dialect_t dialect;
    pn_error_t *err;
    pni_arena_t arena;
    pni_hash_t used;
    const char **pid, **tid, **aid; /* ids written */
    const char *netid, *pageid;
    double *px, *py, *tx, *ty;      /* positions written */
    int page_block;                 /* pages kept in our block */
    int grid;                       /* nodes without a position get one */
} wr_t;

/* TAPAAL's identifiers, [A-Za-z_][A-Za-z0-9_]*, with no run of '_' (TAPAAL
 * shows a node's id as its name, and rewrites any other character, ' ' as
 * "_space_", '.' as "_dot_"): other characters become one '_', none at
 * either end. */
static void tapaal_ident(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    int gap = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : "");
         *p && n + 3 < size; p++) {
        int ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                 (*p >= '0' && *p <= '9');
        if (!ok) {
            gap = n > 0;
            continue;
        }
        if (gap)
            buf[n++] = '_';
        else if (n == 0 && *p >= '0' && *p <= '9')
            buf[n++] = '_';
        gap = 0;
        buf[n++] = (char)*p;
    }
    if (n == 0)
        buf[n++] = 'n';
    buf[n] = '\0';
}

/* An id that is valid and not yet used, derived from want. */
static const char *unique_id(wr_t *w, const char *want)
{
    char base[256], buf[300];
    pni_pnml_sanitize_id(want, base, sizeof base);
    snprintf(buf, sizeof buf, "%s", base);
    for (unsigned long k = 2; pni_hash_get(&w->used, buf); k++)
        snprintf(buf, sizeof buf, "%s_%lu", base, k);
    const char *c = pni_arena_strdup(&w->arena, buf);
    if (!c || pni_hash_put(&w->used, c, 0, 0))
        return NULL;
    return c;
}

static pn_status_t plan_ids(wr_t *w)
{
    const pn_net_t *net = w->net;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net),
           na = pn_net_arc_count(net);
    w->pid = calloc(np + 1, sizeof *w->pid);
    w->tid = calloc(nt + 1, sizeof *w->tid);
    w->aid = calloc(na + 1, sizeof *w->aid);
    if (!w->pid || !w->tid || !w->aid)
        return PN_ENOMEM;
    if (w->dialect == PN_DIALECT_PNPRO) {
        /* GreatSPN names its nodes by identifiers: ids kept when they are
         * one, made into one otherwise */
        for (size_t i = 0; i < np + nt; i++) {
            const char *id = i < np ? pn_net_place(net, i)->id
                                    : pn_net_transition(net, i - np)->id;
            const char **slot = i < np ? &w->pid[i] : &w->tid[i - np];
            if (pni_pnpro_name_ok(id) && !pni_hash_get(&w->used, id)) {
                *slot = id;
                if (pni_hash_put(&w->used, id, 0, 0) == PN_ENOMEM)
                    return PN_ENOMEM;
            }
        }
        char buf[256];
        for (size_t i = 0; i < np + nt; i++) {
            const char **slot = i < np ? &w->pid[i] : &w->tid[i - np];
            if (*slot)
                continue;
            tapaal_ident(i < np ? pn_net_place(net, i)->id
                                : pn_net_transition(net, i - np)->id,
                         buf, sizeof buf);
            if (!(*slot = unique_id(w, buf)))
                return PN_ENOMEM;
        }
    }
    if (w->dialect == PN_DIALECT_TAPAAL) {
        /* TAPAAL shows ids, not names: the ids are made of the names */
        char buf[256];
        for (size_t i = 0; i < np; i++) {
            const pn_place_t *p = pn_net_place(net, i);
            tapaal_ident(p->name ? p->name : p->id, buf, sizeof buf);
            if (!(w->pid[i] = unique_id(w, buf)))
                return PN_ENOMEM;
        }
        for (size_t i = 0; i < nt; i++) {
            const pn_transition_t *t = pn_net_transition(net, i);
            tapaal_ident(t->name ? t->name : t->id, buf, sizeof buf);
            if (!(w->tid[i] = unique_id(w, buf)))
                return PN_ENOMEM;
        }
    }
    /* valid ids are kept as they are: reserve them first */
    for (size_t i = 0; i < np; i++)
        if (!w->pid[i] && valid_id(pn_net_place(net, i)->id)) {
            w->pid[i] = pn_net_place(net, i)->id;
            if (pni_hash_put(&w->used, w->pid[i], 0, 0) == PN_ENOMEM)
                return PN_ENOMEM;
        }
    for (size_t i = 0; i < nt; i++)
        if (!w->tid[i] && valid_id(pn_net_transition(net, i)->id)) {
            w->tid[i] = pn_net_transition(net, i)->id;
            if (pni_hash_put(&w->used, w->tid[i], 0, 0) == PN_ENOMEM)
                return PN_ENOMEM;
        }
    for (size_t i = 0; i < na; i++)
        if (valid_id(pn_net_arc(net, i)->id) &&
            !pni_hash_get(&w->used, pn_net_arc(net, i)->id)) {
            w->aid[i] = pn_net_arc(net, i)->id;
            if (pni_hash_put(&w->used, w->aid[i], 0, 0) == PN_ENOMEM)
                return PN_ENOMEM;
        }
    for (size_t i = 0; i < np; i++)
        if (!w->pid[i] && !(w->pid[i] = unique_id(w, pn_net_place(net, i)->id)))
            return PN_ENOMEM;
    for (size_t i = 0; i < nt; i++)
        if (!w->tid[i] &&
            !(w->tid[i] = unique_id(w, pn_net_transition(net, i)->id)))
            return PN_ENOMEM;
    for (size_t i = 0; i < na; i++) {
        if (w->aid[i])
            continue;
        const pn_arc_t *a = pn_net_arc(net, i);
        char buf[64];
        if (!a->id)
            snprintf(buf, sizeof buf, "a%zu", i);
        if (!(w->aid[i] = unique_id(w, a->id ? a->id : buf)))
            return PN_ENOMEM;
    }
    const char *nid = pn_net_id(net);
    if (!(w->netid = valid_id(nid) && !pni_hash_get(&w->used, nid)
                         ? nid
                         : unique_id(w, nid ? nid : "net")))
        return PN_ENOMEM;
    if (w->netid == nid && pni_hash_put(&w->used, nid, 0, 0) == PN_ENOMEM)
        return PN_ENOMEM;
    /* one page: the net's own when it has exactly one holding every node */
    size_t npg = pn_net_page_count(net);
    int simple = npg == 1;
    for (size_t i = 0; simple && i < np; i++)
        simple = pn_net_place(net, i)->page == 0;
    for (size_t i = 0; simple && i < nt; i++)
        simple = pn_net_transition(net, i)->page == 0;
    w->page_block = !simple;
    if (w->dialect == PN_DIALECT_WOPED) {
        /* WoPeD's files have no <page>: a net without pages is written as
         * one with a single plain page (which then reads back as none);
         * what a page says beyond that goes into our block */
        int plain = simple && !pn_net_page(net, 0)->name;
        for (size_t i = 0; plain && i < pn_net_toolspecific_count(net); i++)
            plain = pn_net_toolspecific(net, i)->owner != PN_PAGE;
        w->page_block = npg > 0 && !plain;
    }
    const char *pgid = simple ? pn_net_page(net, 0)->id : NULL;
    if (!(w->pageid = pgid && valid_id(pgid) && !pni_hash_get(&w->used, pgid)
                          ? pgid
                          : unique_id(w, pgid ? pgid : "page")))
        return PN_ENOMEM;
    return PN_OK;
}

/* The text PIPE or TAPAAL shows as a node's name: TAPAAL its id, PIPE its
 * name (the id when it has none). */
static size_t shown_len(const wr_t *w, pn_object_t kind, size_t i)
{
    const char *nm, *id;
    if (kind == PN_PLACE) {
        nm = pn_net_place(w->net, i)->name;
        id = w->pid[i];
    } else {
        nm = pn_net_transition(w->net, i)->name;
        id = w->tid[i];
    }
    return strlen(w->dialect == PN_DIALECT_TAPAAL || !nm ? id : nm);
}

static double snap(double v)
{
    return round(v / EDITOR_GRID) * EDITOR_GRID;
}

/* PIPE and TAPAAL: every node on their grid (where they would put it when
 * saving, so that a save leaves it there), and the drawing moved right and
 * down by whole grid steps until every name label is inside it (they clip
 * a label that ends left of its width). */
static void editor_layout(wr_t *w)
{
    const pn_net_t *net = w->net;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    double need_x = 0, need_y = 0;
    for (size_t k = 0; k < np + nt; k++) {
        int pl = k < np;
        size_t i = pl ? k : k - np;
        double *x = pl ? &w->px[i] : &w->tx[i];
        double *y = pl ? &w->py[i] : &w->ty[i];
        int has;
        double dx, dy;
        if (pl) {
            const pn_place_t *p = pn_net_place(net, i);
            has = p->has_label, dx = p->label_dx, dy = p->label_dy;
        } else {
            const pn_transition_t *t = pn_net_transition(net, i);
            has = t->has_label, dx = t->label_dx, dy = t->label_dy;
        }
        if (!has)
            dx = dy = 0;
        *x = snap(*x);
        *y = snap(*y);
        double width = EDITOR_CHAR * (double)shown_len(w, pl ? PN_PLACE
                                                           : PN_TRANSITION, i);
        if (width - (*x + dx) > need_x)
            need_x = width - (*x + dx);
        if (EDITOR_GRID - (*y + dy) > need_y)
            need_y = EDITOR_GRID - (*y + dy);
        if (-*x > need_x)
            need_x = -*x;
        if (-*y > need_y)
            need_y = -*y;
    }
    double sx = ceil(need_x / EDITOR_GRID) * EDITOR_GRID;
    double sy = ceil(need_y / EDITOR_GRID) * EDITOR_GRID;
    for (size_t i = 0; i < np; i++)
        w->px[i] += sx, w->py[i] += sy;
    for (size_t i = 0; i < nt; i++)
        w->tx[i] += sx, w->ty[i] += sy;
}

/* Positions: the net's own, and a grid below them for nodes without. */
static pn_status_t plan_positions(wr_t *w)
{
    const pn_net_t *net = w->net;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    w->px = calloc(np + 1, sizeof *w->px);
    w->py = calloc(np + 1, sizeof *w->py);
    w->tx = calloc(nt + 1, sizeof *w->tx);
    w->ty = calloc(nt + 1, sizeof *w->ty);
    if (!w->px || !w->py || !w->tx || !w->ty)
        return PN_ENOMEM;
    double maxy = 0;
    int any = 0;
    for (size_t i = 0; i < np; i++) {
        const pn_place_t *p = pn_net_place(net, i);
        if (p->has_position && (!any || p->y > maxy)) {
            maxy = p->y;
            any = 1;
        }
    }
    for (size_t i = 0; i < nt; i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        if (t->has_position && (!any || t->y > maxy)) {
            maxy = t->y;
            any = 1;
        }
    }
    /* the grid is on the editors' grid when the drawing above is */
    double y0 = any ? maxy + 105 : 45;
    size_t k = 0;
    const size_t cols = 20;
    for (size_t i = 0; i < np; i++) {
        const pn_place_t *p = pn_net_place(net, i);
        if (p->has_position) {
            w->px[i] = p->x;
            w->py[i] = p->y;
        } else {
            w->px[i] = 45 + (double)(k % cols) * 90;
            w->py[i] = y0 + (double)(k / cols) * 180;
            k++;
        }
    }
    /* transitions without a position go between the rows of places */
    k = 0;
    for (size_t i = 0; i < nt; i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        if (t->has_position) {
            w->tx[i] = t->x;
            w->ty[i] = t->y;
        } else {
            w->tx[i] = 45 + (double)(k % cols) * 90;
            w->ty[i] = y0 + 90 + (double)(k / cols) * 180;
            k++;
        }
    }
    if (w->dialect == PN_DIALECT_PIPE || w->dialect == PN_DIALECT_TAPAAL)
        editor_layout(w);
    return PN_OK;
}

#define W(call)                                                                \
    do {                                                                       \
        if ((call) < 0)                                                        \
            return -1;                                                         \
    } while (0)
#define S(x) ((const xmlChar *)(x))

static int start(wr_t *w, const char *name) { return xmlTextWriterStartElement(w->w, S(name)); }
static int end(wr_t *w) { return xmlTextWriterEndElement(w->w); }
static int att(wr_t *w, const char *name, const char *value)
{
    return xmlTextWriterWriteAttribute(w->w, S(name), S(value));
}
static int att_u64(wr_t *w, const char *name, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return att(w, name, buf);
}

/* A number as PIPE writes coordinates: always with a decimal point
 * ("60.0", "20.5"). */
static void pipe_decimal(char *buf, size_t size, double v)
{
    pni_format_decimal(buf, size, v);
    if (!strchr(buf, '.') && strlen(buf) + 3 <= size)
        strcat(buf, ".0");
}

/* <elem x=".." y=".."/>, the numbers as the dialect writes them. */
static int xy(wr_t *w, const char *elem, double x, double y)
{
    char bx[64], by[64];
    void (*fmt)(char *, size_t, double) =
        w->dialect == PN_DIALECT_PIPE ? pipe_decimal : pni_format_decimal;
    fmt(bx, sizeof bx, x);
    fmt(by, sizeof by, y);
    W(start(w, elem));
    W(att(w, "x", bx));
    W(att(w, "y", by));
    return end(w);
}

/* <name><text>s</text></name>, or PIPE's <value>, with the label's offset
 * when it has one (PIPE puts one, 0 0 by default, on every such label). */
static int label_at(wr_t *w, const char *name, const char *text, int has,
                    double dx, double dy)
{
    int pipe = w->dialect == PN_DIALECT_PIPE;
    W(start(w, name));
    W(xmlTextWriterWriteElement(w->w, S(pipe ? "value" : "text"), S(text)));
    if (has || pipe) {
        W(start(w, "graphics"));
        W(xy(w, "offset", has ? dx : 0, has ? dy : 0));
        W(end(w));
    }
    return end(w);
}

static int label(wr_t *w, const char *name, const char *text)
{
    return label_at(w, name, text, 0, 0, 0);
}

/* PIPE's plain attribute labels: <capacity><value>0</value></capacity>, no
 * graphics (as PIPE itself writes them). */
static int pipe_value(wr_t *w, const char *name, const char *value)
{
    W(start(w, name));
    W(xmlTextWriterWriteElement(w->w, S("value"), S(value)));
    return end(w);
}

static int label_u64(wr_t *w, const char *name, uint64_t v)
{
    char buf[48];
    if (w->dialect == PN_DIALECT_PIPE)
        snprintf(buf, sizeof buf, "Default,%" PRIu64, v);
    else
        snprintf(buf, sizeof buf, "%" PRIu64, v);
    return label(w, name, buf);
}

static int position(wr_t *w, double x, double y)
{
    W(start(w, "graphics"));
    W(xy(w, "position", x, y));
    if (w->dialect != PN_DIALECT_PIPE) {
        /* pm4py keeps a position only with a size beside it */
        W(start(w, "dimension"));
        W(att(w, "x", "40"));
        W(att(w, "y", "40"));
        W(end(w));
    }
    return end(w);
}

/* Whether the root tag of a kept <toolspecific> has only the attributes
 * the grammar allows there (tool, version, namespace declarations). */
static int grammar_allows(const char *xml)
{
    const char *p = strchr(xml, '<');
    if (!p)
        return 0;
    p += strcspn(p, " \t\r\n/>");
    for (;;) {
        p += strspn(p, " \t\r\n");
        if (*p == '>' || *p == '/' || !*p)
            return 1;
        size_t n = strcspn(p, "= \t\r\n");
        if (!((n == 4 && !strncmp(p, "tool", 4)) ||
              (n == 7 && !strncmp(p, "version", 7)) ||
              (n >= 5 && !strncmp(p, "xmlns", 5))))
            return 0;
        p = strchr(p, '=');
        if (!p)
            return 0;
        p++;
        p += strspn(p, " \t\r\n");
        char q = *p;
        if (q != '"' && q != '\'')
            return 0;
        p = strchr(p + 1, q);
        if (!p)
            return 0;
        p++;
    }
}

int pn_dialect_keeps_toolspecific(pn_dialect_t dialect,
                                  const pn_toolspecific_t *t)
{
    if (!t)
        return 0;
    /* PIPE keeps its own transition blocks (a rateDefinition) */
    if (dialect == PN_DIALECT_PIPE)
        return t->owner == PN_TRANSITION && t->tool && !strcmp(t->tool, "PIPE");
    /* strict output is valid: blocks the grammar does not allow (ProM
     * puts attributes of its own on <toolspecific>) are left out */
    return dialect != PN_DIALECT_STRICT || grammar_allows(t->xml);
}

static int tools_of(wr_t *w, pn_object_t owner, size_t index)
{
    if (w->dialect == PN_DIALECT_PIPE)
        return 0;
    const pn_net_t *net = w->net;
    for (size_t i = 0; i < pn_net_toolspecific_count(net); i++) {
        const pn_toolspecific_t *t = pn_net_toolspecific(net, i);
        pn_object_t o = t->owner;
        /* with the page block, page data goes into the block (pagetool) */
        if (o == PN_PAGE && w->page_block && owner != PN_PAGE)
            continue;
        if (!pn_dialect_keeps_toolspecific(w->dialect, t))
            continue;
        if (o == owner && (owner == PN_NET || t->index == index))
            W(xmlTextWriterWriteRaw(w->w, S(t->xml)));
    }
    return 0;
}

/* A name for a node: its own, or the original id when the id was rewritten
 * (so that nothing the file said is lost). */
static const char *node_name(const char *name, const char *id,
                             const char *written)
{
    if (name)
        return name;
    return strcmp(id, written) ? id : NULL;
}

static int write_place(wr_t *w, size_t i)
{
    const pn_place_t *p = pn_net_place(w->net, i);
    const char *nm = node_name(p->name, p->id, w->pid[i]);
    const char *shown = nm ? nm : w->pid[i];
    W(start(w, "place"));
    W(att(w, "id", w->pid[i]));
    if (w->dialect == PN_DIALECT_PIPE) {
        W(position(w, w->px[i], w->py[i]));
        W(label_at(w, "name", shown, p->has_label, p->label_dx,
                   p->label_dy));
        W(label_u64(w, "initialMarking", p->marking));
        char cap[32];
        snprintf(cap, sizeof cap, "%" PRIu64, p->capacity);
        W(pipe_value(w, "capacity", cap));
    } else if (w->dialect == PN_DIALECT_WOPED) {
        /* WoPeD's name offset is where the label is */
        W(label_at(w, "name", shown, p->has_label, w->px[i] + p->label_dx,
                   w->py[i] + p->label_dy));
        W(position(w, w->px[i], w->py[i]));
        if (p->marking)
            W(label_u64(w, "initialMarking", p->marking));
        W(tools_of(w, PN_PLACE, i));
    } else {
        if (nm || p->has_label)
            W(label_at(w, "name", shown, p->has_label, p->label_dx,
                       p->label_dy));
        if (w->grid || p->has_position)
            W(position(w, w->px[i], w->py[i]));
        if (p->marking)
            W(label_u64(w, "initialMarking", p->marking));
        W(tools_of(w, PN_PLACE, i));
    }
    return end(w);
}

/* An element kept as read, on a line of its own at depth `depth` (the
 * writer indents only what it writes itself). */
static int raw_line(wr_t *w, int depth, const char *xml)
{
    for (int i = 0; i < depth; i++)
        W(xmlTextWriterWriteRaw(w->w, S("  ")));
    W(xmlTextWriterWriteRaw(w->w, S(xml)));
    W(xmlTextWriterWriteRaw(w->w, S("\n")));
    return 0;
}

/* PIPE's own blocks of transition i (its rateDefinition), as read. */
static int pipe_blocks(wr_t *w, size_t i)
{
    int any = 0;
    for (size_t k = 0; k < pn_net_toolspecific_count(w->net); k++) {
        const pn_toolspecific_t *t = pn_net_toolspecific(w->net, k);
        if (t->owner == PN_TRANSITION && t->index == i && t->tool &&
            !strcmp(t->tool, "PIPE")) {
            W(raw_line(w, 3, t->xml));
            any = 1;
        }
    }
    /* the end tag that follows, indented as the writer would */
    return any ? xmlTextWriterWriteRaw(w->w, S("    ")) : 0;
}

/* PIPE's rate parameters, as read (PIPECore writes them first in the
 * net). */
static int write_definition(wr_t *w, size_t i, int depth)
{
    const char *id, *name, *expr, *xml;
    pni_net_rate_param(w->net, i, &id, &name, &expr, &xml);
    if (xml)
        return raw_line(w, depth, xml);
    W(start(w, "definition"));
    if (name)
        W(att(w, "name", name));
    W(att(w, "expression", expr));
    if (id)
        W(att(w, "id", id));
    W(att(w, "defType", "real"));
    W(att(w, "type", "text"));
    return end(w);
}

static int pipe_definitions(wr_t *w)
{
    for (size_t i = 0; i < pni_net_rate_param_count(w->net); i++)
        W(write_definition(w, i, 2));
    return 0;
}

static int write_transition(wr_t *w, size_t i)
{
    const pn_transition_t *t = pn_net_transition(w->net, i);
    const char *nm = node_name(t->name, t->id, w->tid[i]);
    const char *shown = nm ? nm : w->tid[i];
    W(start(w, "transition"));
    W(att(w, "id", w->tid[i]));
    if (w->dialect == PN_DIALECT_PIPE) {
        W(position(w, w->tx[i], w->ty[i]));
        W(label_at(w, "name", shown, t->has_label, t->label_dx,
                   t->label_dy));
        /* an untimed transition as PIPE's default: immediate, weight 1,
         * priority 1, single server (the fields' defaults) */
        char rate[PNI_EXACT_SIZE], prio[16];
        pni_format_exact(rate, sizeof rate, t->rate, 1);
        snprintf(prio, sizeof prio, "%d", t->priority);
        W(pipe_value(w, "orientation", "0"));
        W(pipe_value(w, "rate", t->rate_expr ? t->rate_expr : rate));
        W(pipe_value(w, "timed", t->timing == PN_TIMING_EXPONENTIAL
                                     ? "true" : "false"));
        W(pipe_value(w, "infiniteServer", t->server == PN_SERVER_INFINITE
                                              ? "true" : "false"));
        W(pipe_value(w, "priority", prio));
        W(pipe_blocks(w, i));
    } else if (w->dialect == PN_DIALECT_WOPED) {
        W(label_at(w, "name", shown, t->has_label, w->tx[i] + t->label_dx,
                   w->ty[i] + t->label_dy));
        W(position(w, w->tx[i], w->ty[i]));
        W(tools_of(w, PN_TRANSITION, i));
    } else {
        if (nm || t->has_label)
            W(label_at(w, "name", shown, t->has_label, t->label_dx,
                       t->label_dy));
        if (w->grid || t->has_position)
            W(position(w, w->tx[i], w->ty[i]));
        W(tools_of(w, PN_TRANSITION, i));
    }
    return end(w);
}

/* A point of an arc's path: PIPE writes whole pixels. */
static int arcpath(wr_t *w, const char *id, double x, double y)
{
    char bx[64], by[64];
    snprintf(bx, sizeof bx, "%.0f", x);
    snprintf(by, sizeof by, "%.0f", y);
    W(start(w, "arcpath"));
    W(att(w, "id", id));
    W(att(w, "x", bx));
    W(att(w, "y", by));
    W(att(w, "curvePoint", "false"));
    return end(w);
}

static int write_arc(wr_t *w, size_t i)
{
    const pn_arc_t *a = pn_net_arc(w->net, i);
    int pt = a->dir == PN_DIR_PT;
    const char *src = pt ? w->pid[a->place] : w->tid[a->transition];
    const char *tgt = pt ? w->tid[a->transition] : w->pid[a->place];
    const char *kind = pn_arc_kind_name(a->kind);
    W(start(w, "arc"));
    W(att(w, "id", w->aid[i]));
    W(att(w, "source", src));
    W(att(w, "target", tgt));
    if (w->dialect == PN_DIALECT_PIPE) {
        /* <graphics/>, then the weight with an empty <graphics/>: as PIPE */
        W(start(w, "graphics"));
        W(end(w));
        char wt[48];
        snprintf(wt, sizeof wt, "Default,%" PRIu64, a->weight);
        W(start(w, "inscription"));
        W(xmlTextWriterWriteElement(w->w, S("value"), S(wt)));
        W(start(w, "graphics"));
        W(end(w));
        W(end(w));
        W(pipe_value(w, "tagged", "false"));
        double sx = pt ? w->px[a->place] : w->tx[a->transition];
        double sy = pt ? w->py[a->place] : w->ty[a->transition];
        double tx = pt ? w->tx[a->transition] : w->px[a->place];
        double ty = pt ? w->ty[a->transition] : w->py[a->place];
        W(arcpath(w, "000", sx, sy));
        W(arcpath(w, "001", tx, ty));
        W(start(w, "type"));
        W(att(w, "value", kind));
        W(end(w));
        return end(w);
    }
    if (w->dialect == PN_DIALECT_WOPED) {
        /* WoPeD reads an inscription on every arc (as it writes them) */
        char wt[32];
        snprintf(wt, sizeof wt, "%" PRIu64, a->weight);
        W(label(w, "inscription", wt));
        W(start(w, "graphics"));
        W(end(w));
        W(tools_of(w, PN_ARC, i));
        return end(w);
    }
    /* the three encodings tools read for special arcs: the attribute
     * (TAPAAL, verifypn), the <type value=.../> child (PIPE, GreatSPN) and
     * pm4py's <arctype> label (inhibitor and reset only); each tool's
     * parser matches its own names and passes over the others */
    if (a->kind != PN_ARC_NORMAL)
        W(att(w, "type", kind));
    if (a->weight > 1)
        W(label_u64(w, "inscription", a->weight));
    if (a->kind != PN_ARC_NORMAL) {
        W(start(w, "type"));
        W(att(w, "value", kind));
        W(end(w));
    }
    if (a->kind == PN_ARC_INHIBITOR || a->kind == PN_ARC_RESET)
        W(label(w, "arctype", kind));
    W(tools_of(w, PN_ARC, i));
    return end(w);
}

/* A transition's timing in our block: kind, rate, priority, server. */
static int write_timing(wr_t *w, size_t i)
{
    const pn_transition_t *t = pn_net_transition(w->net, i);
    char rate[PNI_EXACT_SIZE], prio[16];
    pni_format_exact(rate, sizeof rate, t->rate, 0);
    snprintf(prio, sizeof prio, "%d", t->priority);
    W(start(w, "timing"));
    W(att(w, "node", w->tid[i]));
    W(att(w, "kind", pn_timing_name(t->timing)));
    W(att(w, "rate", rate));
    W(att(w, "priority", prio));
    W(att(w, "server", pn_server_name(t->server)));
    if (t->rate_expr)
        W(att(w, "expression", t->rate_expr));
    if (t->server == PN_SERVER_K) {
        char k[16];
        snprintf(k, sizeof k, "%u", t->servers);
        W(att(w, "servers", k));
    }
    return end(w);
}

/* Our block: capacities, transitions' timing (which PNML has no label
 * for), PIPE's rate parameters and the page structure the single <page>
 * loses. */
static int write_block(wr_t *w)
{
    const pn_net_t *net = w->net;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    int caps = 0, timing = 0;
    for (size_t i = 0; i < np; i++)
        caps |= pn_net_place(net, i)->capacity != 0;
    for (size_t i = 0; i < nt; i++)
        timing |= pn_net_transition(net, i)->timing != PN_TIMING_NONE;
    size_t nparams = pni_net_rate_param_count(net);
    if (!caps && !timing && !nparams && !w->page_block)
        return 0;
    W(start(w, "toolspecific"));
    W(att(w, "tool", PNI_TOOL_NAME));
    W(att(w, "version", PNI_TOOL_VERSION));
    for (size_t i = 0; i < np; i++)
        if (pn_net_place(net, i)->capacity) {
            W(start(w, "capacity"));
            W(att(w, "node", w->pid[i]));
            W(att_u64(w, "value", pn_net_place(net, i)->capacity));
            W(end(w));
        }
    for (size_t i = 0; i < nt; i++)
        if (pn_net_transition(net, i)->timing != PN_TIMING_NONE)
            W(write_timing(w, i));
    /* PIPE's rate parameters, as read, so that the transitions' PIPE
     * blocks that name them still find them when written back as PIPE */
    for (size_t i = 0; i < nparams; i++)
        W(write_definition(w, i, 3));
    if (w->page_block) {
        W(start(w, "pages"));
        W(end(w));
        for (size_t i = 0; i < pn_net_page_count(net); i++) {
            const pn_page_t *pg = pn_net_page(net, i);
            W(start(w, "page"));
            if (pg->id)
                W(att(w, "id", pg->id));
            if (pg->name)
                W(att(w, "name", pg->name));
            if (pg->parent != PN_NONE)
                W(att_u64(w, "parent", pg->parent));
            W(end(w));
        }
        for (size_t i = 0; i < pn_net_page_count(net); i++) {
            int any = 0;
            for (size_t k = 0; k < pn_net_toolspecific_count(net); k++) {
                const pn_toolspecific_t *t = pn_net_toolspecific(net, k);
                any |= t->owner == PN_PAGE && t->index == i;
            }
            if (!any)
                continue;
            W(start(w, "pagetool"));
            W(att_u64(w, "page", i));
            W(tools_of(w, PN_PAGE, i));
            W(end(w));
        }
        for (size_t i = 0; i < np; i++)
            if (pn_net_place(net, i)->page != PN_NONE) {
                W(start(w, "member"));
                W(att(w, "node", w->pid[i]));
                W(att_u64(w, "page", pn_net_place(net, i)->page));
                W(end(w));
            }
        for (size_t i = 0; i < nt; i++)
            if (pn_net_transition(net, i)->page != PN_NONE) {
                W(start(w, "member"));
                W(att(w, "node", w->tid[i]));
                W(att_u64(w, "page", pn_net_transition(net, i)->page));
                W(end(w));
            }
    }
    return end(w);
}

static int write_doc(wr_t *w)
{
    const pn_net_t *net = w->net;
    int pipe = w->dialect == PN_DIALECT_PIPE;
    int woped = w->dialect == PN_DIALECT_WOPED;
    W(xmlTextWriterSetIndent(w->w, 1));
    W(xmlTextWriterSetIndentString(w->w, S("  ")));
    W(xmlTextWriterStartDocument(w->w, NULL, "UTF-8", NULL));
    W(start(w, "pnml"));
    if (!pipe && !woped)
        W(att(w, "xmlns", PNML_NS));
    W(start(w, "net"));
    W(att(w, "id", w->netid));
    W(att(w, "type", pipe ? "P/T net" : woped ? WOPED_TYPE : PTNET_TYPE));
    if (pipe) {
        W(start(w, "token"));
        W(att(w, "id", "Default"));
        W(att(w, "enabled", "true"));
        W(att(w, "red", "0"));
        W(att(w, "green", "0"));
        W(att(w, "blue", "0"));
        W(end(w));
        W(pipe_definitions(w));
    } else if (woped) {
        /* WoPeD's own files: the nodes right inside the net */
        if (pn_net_name(net))
            W(label(w, "name", pn_net_name(net)));
    } else {
        if (pn_net_name(net) && w->dialect == PN_DIALECT_TAPAAL) {
            /* TAPAAL takes the net's name for an identifier too */
            char buf[256];
            tapaal_ident(pn_net_name(net), buf, sizeof buf);
            W(label(w, "name", buf));
        } else if (pn_net_name(net))
            W(label(w, "name", pn_net_name(net)));
        W(start(w, "page"));
        W(att(w, "id", w->pageid));
        if (!w->page_block && pn_net_page(net, 0)->name)
            W(label(w, "name", pn_net_page(net, 0)->name));
    }
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        W(write_place(w, i));
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        W(write_transition(w, i));
    for (size_t i = 0; i < pn_net_arc_count(net); i++)
        W(write_arc(w, i));
    if (woped) {
        W(tools_of(w, PN_NET, 0));
        W(write_block(w));
    } else if (!pipe) {
        if (!w->page_block)
            W(tools_of(w, PN_PAGE, 0));
        /* (with the page block, page data is written in the block) */
        W(end(w)); /* page */
        W(tools_of(w, PN_NET, 0));
        W(write_block(w));
    }
    W(end(w)); /* net */
    W(end(w)); /* pnml */
    W(xmlTextWriterEndDocument(w->w));
    return xmlTextWriterFlush(w->w);
}

#define werr(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

/* Whether the timing of transition i, not read, is written all the same:
 * the tool block it came from (pm4py's StochasticPetriNet) is kept in
 * dialect d. */
static int lost_but_kept(const pn_net_t *net, size_t i, pn_dialect_t d)
{
    for (size_t k = 0; k < pn_net_toolspecific_count(net); k++) {
        const pn_toolspecific_t *t = pn_net_toolspecific(net, k);
        if (t->owner == PN_TRANSITION && t->index == i && t->tool &&
            !strcmp(t->tool, "StochasticPetriNet") &&
            pn_dialect_keeps_toolspecific(d, t))
            return 1;
    }
    return 0;
}

/* Refuses what the dialect cannot say, before anything is written. */
static pn_status_t check_dialect(const pn_net_t *net, pn_dialect_t d,
                                 pn_error_t *err)
{
    if (d == PN_DIALECT_PNPRO)
        return pni_pnpro_check(net, err);
    /* every dialect has a place for timing (PIPE's labels, our block):
     * timing that was not read, or that PIPE cannot say, is refused, never
     * dropped */
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        if (t->timing_lost && !lost_but_kept(net, i, d))
            return werr(err, PN_EDIALECT,
                        "the timing of transition '%s' was not read (its "
                        "rate or priority is not a number, such as PIPE's "
                        "expressions of the marking): writing the net would "
                        "change it", t->id);
        if (d == PN_DIALECT_PIPE && t->timing == PN_TIMING_DETERMINISTIC)
            return werr(err, PN_EDIALECT,
                        "PIPE has no deterministic transitions (only "
                        "immediate and exponential ones): transition '%s'",
                        t->id);
        if (d == PN_DIALECT_PIPE && t->server == PN_SERVER_K)
            return werr(err, PN_EDIALECT,
                        "PIPE has single and infinite servers only: "
                        "transition '%s' has %u servers", t->id, t->servers);
    }
    if (d == PN_DIALECT_STANDARD || d == PN_DIALECT_TAPAAL)
        return PN_OK;
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        const char *id = a->id ? a->id : "(no id)";
        if (d == PN_DIALECT_STRICT && a->kind != PN_ARC_NORMAL)
            return werr(err, PN_EDIALECT,
                        "the strict dialect cannot express %s arcs (the PNML "
                        "grammar for P/T nets has none): arc '%s'; use the "
                        "standard dialect",
                        pn_arc_kind_name(a->kind), id);
        if (d == PN_DIALECT_PIPE &&
            (a->kind == PN_ARC_READ || a->kind == PN_ARC_RESET))
            return werr(err, PN_EDIALECT,
                        "PIPE has no %s arcs: arc '%s'",
                        pn_arc_kind_name(a->kind), id);
        if (d == PN_DIALECT_WOPED && a->kind != PN_ARC_NORMAL)
            return werr(err, PN_EDIALECT,
                        "WoPeD has no %s arcs (it would read them as normal "
                        "arcs): arc '%s'",
                        pn_arc_kind_name(a->kind), id);
        if (d == PN_DIALECT_PIPE && a->kind == PN_ARC_INHIBITOR &&
            a->weight > 1)
            return werr(err, PN_EDIALECT,
                        "PIPE's inhibitor arcs test for an empty place and "
                        "ignore weights: arc '%s' has weight %" PRIu64,
                        id, a->weight);
    }
    return PN_OK;
}

/* Where libxml2 writes: the FILE, with the first write error kept here.
 * libxml2 is told that every write succeeded, so that it prints nothing of
 * its own ("I/O error : ...") on standard error: the caller reports the
 * error, once. */
typedef struct {
    FILE *f;
    int err;
} sink_t;

static int sink_write(void *ctx, const char *buf, int len)
{
    sink_t *s = ctx;
    if (len > 0 && !s->err) {
        errno = 0;
        if (fwrite(buf, 1, (size_t)len, s->f) != (size_t)len)
            s->err = errno ? errno : EIO;
    }
    return len;
}

/* The body of both writers: err was begun by the caller. */
static pn_status_t write_stream(const pn_net_t *net, FILE *out,
                                const pn_write_options_t *opts,
                                pn_error_t *err)
{
    if (!net || !out)
        return werr(err, PN_EINVAL, "invalid argument");
    wr_t w = {0};
    w.net = net;
    w.dialect = opts ? opts->dialect : PN_DIALECT_STANDARD;
    /* the editors' dialects: every node drawn where the editor would */
    w.grid = (opts && opts->grid) || w.dialect == PN_DIALECT_PIPE ||
             w.dialect == PN_DIALECT_PNPRO ||
             w.dialect == PN_DIALECT_TAPAAL || w.dialect == PN_DIALECT_WOPED;
    w.err = err;
    pn_status_t st = check_dialect(net, w.dialect, err);
    if (st)
        return st;
    pni_arena_init(&w.arena);
    pni_hash_init(&w.used);
    st = plan_ids(&w);
    if (!st)
        st = plan_positions(&w);
    sink_t sink = {out, 0};
    int e = 0;
    if (!st) {
        pni_xml_init();
        xmlOutputBufferPtr ob =
            xmlOutputBufferCreateIO(sink_write, NULL, &sink, NULL);
        w.w = ob ? xmlNewTextWriter(ob) : NULL;
        if (!w.w) {
            if (ob)
                xmlOutputBufferClose(ob);
            st = PN_ENOMEM;
        } else {
            if ((w.dialect == PN_DIALECT_PNPRO
                     ? pni_pnpro_write(w.w, net, w.pid, w.tid, w.px, w.py,
                                       w.tx, w.ty)
                     : write_doc(&w)) < 0)
                st = PN_EIO, e = sink.err ? sink.err : EIO;
            xmlFreeTextWriter(w.w); /* flushes into the sink */
            if (!st && sink.err)
                st = PN_EIO, e = sink.err;
            else if (!st && fflush(out) != 0)
                st = PN_EIO, e = errno;
            else if (!st && ferror(out))
                st = PN_EIO, e = EIO;
        }
    }
    if (st == PN_ENOMEM)
        werr(err, st, "out of memory");
    else if (st == PN_EIO)
        werr(err, st, "write error: %s", strerror(e));
    pni_arena_free(&w.arena);
    pni_hash_free(&w.used);
    free(w.pid);
    free(w.tid);
    free(w.aid);
    free(w.px);
    free(w.py);
    free(w.tx);
    free(w.ty);
    if (st == PN_EIO)
        errno = e;
    return st;
}

pn_status_t pn_pnml_write_stream(const pn_net_t *net, FILE *out,
                                 const pn_write_options_t *opts,
                                 pn_error_t *err)
{
    pni_error_begin(err, NULL);
    return write_stream(net, out, opts, err);
}

pn_status_t pn_pnml_write_file(const pn_net_t *net, const char *path,
                               const pn_write_options_t *opts, pn_error_t *err)
{
    pni_error_begin(err, path && !strcmp(path, "-") ? "<stdout>" : path);
    if (!path)
        return werr(err, PN_EINVAL, "invalid argument");
    if (!strcmp(path, "-"))
        return write_stream(net, stdout, opts, err);
    pn_status_t st = check_dialect(net, opts ? opts->dialect
                                             : PN_DIALECT_STANDARD, err);
    if (st)
        return st;
    char *tmp;
    FILE *f = pni_output_open(path, &tmp);
    int e = errno;
    if (!f) {
        werr(err, PN_EIO, "cannot write: %s", strerror(e));
        errno = e;
        return PN_EIO;
    }
    st = write_stream(net, f, opts, err);
    e = errno;
    int ok = st == PN_OK;
    if (pni_output_close(f, tmp, ok) != PN_OK && ok) {
        e = errno;
        st = werr(err, PN_EIO, "write error: %s", strerror(e));
    }
    errno = e;
    return st;
}
