/*
 * The objects of a PNML net or page, each read from the tree collected for
 * it (sax.c): places and transitions, reference nodes, arcs, their labels
 * in the dialects of the tools we read, and our own tool-specific block.
 * Nodes are added to the net as they are read, and so are arcs whose ends
 * are known; the rest waits for the end of the net (reader.c).
 */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "reader_private.h"

/* A copy of s that lasts as long as the reader. */
const char *pni_rd_keep(rd_t *rd, const char *s)
{
    if (!s)
        return NULL;
    const char *c = pni_arena_strdup(&rd->arena, s);
    if (!c)
        pni_rd_nomem(rd);
    return c;
}

/* id qualified by the subprocess scope, lasting as long as the reader. */
static const char *qual(rd_t *rd, const char *id)
{
    if (!id)
        return NULL;
    if (!*rd->prefix)
        return pni_rd_keep(rd, id);
    size_t a = strlen(rd->prefix), b = strlen(id);
    char *tmp = malloc(a + b + 1);
    if (!tmp) {
        pni_rd_nomem(rd);
        return NULL;
    }
    memcpy(tmp, rd->prefix, a);
    memcpy(tmp + a, id, b + 1);
    const char *c = pni_arena_strndup(&rd->arena, tmp, a + b);
    free(tmp);
    if (!c)
        pni_rd_nomem(rd);
    return c;
}

/* id qualified by the subprocess scope, valid as long as the tree. */
const char *pni_rd_scoped(rd_t *rd, const char *id)
{
    if (!id || !*rd->prefix)
        return id;
    size_t a = strlen(rd->prefix), b = strlen(id);
    char *c = pni_rd_talloc(rd, a + b + 1);
    if (!c) {
        pni_rd_nomem(rd);
        return NULL;
    }
    memcpy(c, rd->prefix, a);
    memcpy(c + a, id, b + 1);
    return c;
}

/* ---- labels and numbers ------------------------------------------------ */

typedef struct {
    const char *text;    /* NULL when the label has no <text>/<value> */
    int pipe;            /* the text came from PIPE's <value> */
    const char *kind;    /* SNAKES: the arc kind of its annotation
                            (<inhibitor>, <test>, <flush>); NULL: none */
    const el_t *el;      /* the <text>/<value> element */
    int has_offset;      /* <graphics><offset x y/> of the label */
    double ox, oy;
} label_t;

static int parse_double(const char *s, double *out);
static int number(rd_t *rd, const char *s, const el_t *line,
                  const char *needle, const char *what, uint64_t *out);

static int offset_child(rd_t *rd, void *ctx, const char *name)
{
    label_t *lb = ctx;
    if (!strcmp(name, "offset") && !lb->has_offset) {
        static const char *const names[] = {"x", "y"};
        const char *v[2];
        if (pni_rd_attrs(rd, names, v, 2) < 0)
            return -1;
        /* a missing coordinate is 0 (ePNK writes offsets without x) */
        lb->ox = lb->oy = 0;
        if ((!v[0] || parse_double(v[0], &lb->ox) == 0) &&
            (!v[1] || parse_double(v[1], &lb->oy) == 0) && (v[0] || v[1]))
            lb->has_offset = 1;
    }
    return pni_rd_skip(rd);
}

/* ---- SNAKES's labels ----------------------------------------------------
 * SNAKES (snakes/nets.py, snakes/data.py) writes what a P/T net says as
 * standard labels: the marking of a place of type tBlackToken as <text>,
 * an arc of n black tokens as <text>n</text>.  The rest it writes as its
 * objects, a black token as <token/> (BlackToken.__pnmltag__): the marking
 * of any other place as a multiset,
 *   <multiset><item><value><token/></value><multiplicity>3</multiplicity>
 *   </item></multiset>
 * a test arc as <test>A</test>, an inhibitor arc as <inhibitor><annotation>
 * A</annotation><condition><expression>True</expression></condition>
 * </inhibitor>, a flush arc as <flush>x</flush>, with A a <value><token/>
 * </value> or a <multiarc> of them.  Black tokens are counted, and so
 * are variables: one is bound to a token of its place, and every token
 * read is a black token.  Any other value (<object type="int">, a tuple)
 * or an <expression> is a high-level net, refused where it is.
 * (<object type="dot"/> is read as a black token too.) */

typedef struct {
    uint64_t count;       /* black tokens so far */
    const char *where;    /* what holds the values, for errors */
    const char *mult;     /* the current item's multiplicity */
    const el_t *value;    /* the current item's value */
} snakes_t;

static const char *el_attr(const el_t *e, const char *name)
{
    for (int i = 0; i < e->nattr; i++)
        if (!strcmp(e->att[4 * i], name))
            return e->att[4 * i + 3];
    return NULL;
}

static int snakes_black(const el_t *e)
{
    const char *type = strcmp(e->name, "object") ? NULL : el_attr(e, "type");
    return !strcmp(e->name, "token") || (type && !strcmp(type, "dot"));
}

/* e as an error shows it, <object type="int">5</object>: its name, type
 * and text (its first 40 characters, blanks folded), or ... for elements. */
static void snakes_shown(const el_t *e, char *buf, size_t size)
{
    const char *type = el_attr(e, "type");
    int n = snprintf(buf, size, "<%s%s%.40s%s", e->name,
                     type ? " type=\"" : "", type ? type : "",
                     type ? "\"" : "");
    char text[48];
    size_t k = 0;
    int elements = 0;
    for (const el_t *c = e->first; c; c = c->next) {
        elements |= c->name != NULL;
        for (size_t i = 0; !c->name && i < c->ntext && k < 44; i++) {
            int blank = strchr(" \t\r\n", c->text[i]) != NULL;
            if (!blank || (k && text[k - 1] != ' '))
                text[k++] = blank ? ' ' : c->text[i];
        }
    }
    while (k && text[k - 1] == ' ')
        k--;
    if (k > 40)
        memcpy(text + (k = 40) - 3, "...", 3);
    text[k] = '\0';
    if (n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, elements ? ">...</%s>"
                 : k ? ">%s</%s>" : "/>", elements ? e->name : text, e->name);
}

/* Refuses e, a value, variable or expression of a high-level net. */
static int snakes_refuse(rd_t *rd, const el_t *e, const char *where)
{
    char shown[128];
    snakes_shown(e, shown, sizeof shown);
    return pni_rd_fail_at(rd, PN_EUNSUPPORTED, e, e->name,
                          "unsupported net type: %s %s (a high-level net: "
                          "only black tokens, <token/>, are read)", where,
                          shown);
}

/* A <value>: refused unless it holds a black token. */
static int snakes_value(rd_t *rd, const snakes_t *s)
{
    const el_t *v = rd->tree.cur, *one = NULL;
    for (const el_t *c = v->first; c; c = c->next)
        if (c->name && (one || !snakes_black(c)))
            return snakes_refuse(rd, c, s->where);
        else if (c->name)
            one = c;
    return one ? 0 : snakes_refuse(rd, v, s->where);
}

static int snakes_add(rd_t *rd, snakes_t *s, uint64_t n, const el_t *e)
{
    if (n > PN_TOKENS_MAX - s->count)
        return pni_rd_fail_at(rd, PN_ERANGE, e, e->name,
                              "a multiset of more than 2^63-1 tokens");
    s->count += n;
    return 0;
}

static int snakes_item_child(rd_t *rd, void *ctx, const char *name)
{
    snakes_t *s = ctx;
    if (!strcmp(name, "value")) {
        s->value = rd->tree.cur;
        return snakes_value(rd, s);
    }
    if (!strcmp(name, "multiplicity")) {
        if (pni_rd_text_of(rd) < 0)
            return -1;
        s->mult = rd->tree.text;
        return s->mult ? 0 : pni_rd_nomem(rd);
    }
    return pni_rd_skip(rd);
}

static int snakes_multiset_child(rd_t *rd, void *ctx, const char *name)
{
    snakes_t *s = ctx;
    if (strcmp(name, "item"))
        return pni_rd_skip(rd);
    const el_t *item = rd->tree.cur;
    s->mult = NULL;
    s->value = NULL;
    if (pni_rd_children(rd, snakes_item_child, s) < 0)
        return -1;
    if (!s->value)
        return snakes_refuse(rd, item, s->where);
    uint64_t m = 1;
    if (s->mult && number(rd, s->mult, item, s->mult, "multiplicity",
                          &m) < 0)
        return -1;
    return snakes_add(rd, s, m, item);
}

/* A count of black tokens as the text of lb, as a <text> would give it. */
static int snakes_count(rd_t *rd, label_t *lb, uint64_t count)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, count);
    lb->text = pni_rd_tstrndup(rd, buf, strlen(buf));
    lb->el = rd->tree.cur;
    return lb->text ? 0 : pni_rd_nomem(rd);
}

/* A multiset of black tokens as the count it stands for, in lb->text. */
static int read_snakes_multiset(rd_t *rd, label_t *lb)
{
    snakes_t s = {0};
    s.where = "a marking holding";
    if (pni_rd_children(rd, snakes_multiset_child, &s) < 0)
        return -1;
    return snakes_count(rd, lb, s.count);
}

/* An arc annotation: the black tokens it stands for, added to s. */
static int snakes_annotation_child(rd_t *rd, void *ctx, const char *name)
{
    snakes_t *s = ctx;
    const el_t *e = rd->tree.cur;
    if (!strcmp(name, "value"))
        return snakes_value(rd, s) < 0 ? -1 : snakes_add(rd, s, 1, e);
    if (!strcmp(name, "multiarc"))
        return pni_rd_children(rd, snakes_annotation_child, s);
    /* a multiset of black tokens */
    if (!strcmp(name, "multiset"))
        return pni_rd_children(rd, snakes_multiset_child, s);
    /* a variable is bound to a token of the place, and every token read
     * is a black token: one black token */
    if (!strcmp(name, "variable"))
        return snakes_add(rd, s, 1, e);
    return snakes_refuse(rd, e, s->where);
}

static int snakes_condition_child(rd_t *rd, void *ctx, const char *name)
{
    (void)ctx;
    const el_t *e = rd->tree.cur;
    if (strcmp(name, "expression"))
        return snakes_refuse(rd, e, "an inhibitor arc with the condition");
    if (pni_rd_text_of(rd) < 0)
        return -1;
    const char *t = rd->tree.text + strspn(rd->tree.text, " \t\r\n");
    size_t n = strlen(t);
    while (n && strchr(" \t\r\n", t[n - 1]))
        n--;
    if (n == 4 && !strncmp(t, "True", 4))
        return 0;
    return snakes_refuse(rd, e, "an inhibitor arc with the condition");
}

static int snakes_inhibitor_child(rd_t *rd, void *ctx, const char *name)
{
    if (!strcmp(name, "annotation"))
        return pni_rd_children(rd, snakes_annotation_child, ctx);
    if (!strcmp(name, "condition"))
        return pni_rd_children(rd, snakes_condition_child, ctx);
    return pni_rd_skip(rd);
}

/* Whether <name> in an arc's <inscription> is an annotation of SNAKES's:
 * its own elements, and a <value> that holds an object (PIPE's holds a
 * number). */
static int snakes_annotation(const el_t *e, const char *name)
{
    static const char *const names[] = {"inhibitor", "test", "flush",
                                        "multiarc", "variable",
                                        "expression", "tuple"};
    if (!strcmp(name, "inhibitor"))
        return 1;
    if (!e->parent || !e->parent->name ||
        strcmp(e->parent->name, "inscription"))
        return 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return 1;
    for (const el_t *c = e->first; !strcmp(name, "value") && c; c = c->next)
        if (c->name)
            return 1;
    return 0;
}

/* An arc annotation of SNAKES's: its weight in lb->text, its kind in
 * lb->kind. */
static int read_snakes_annotation(rd_t *rd, label_t *lb, const char *name)
{
    snakes_t s = {0};
    if (!strcmp(name, "inhibitor")) {
        lb->kind = "inhibitor";
        s.where = "an inhibitor arc on";
        if (pni_rd_children(rd, snakes_inhibitor_child, &s) < 0)
            return -1;
    } else if (!strcmp(name, "test")) {
        lb->kind = "read";
        s.where = "a test arc on";
        if (pni_rd_children(rd, snakes_annotation_child, &s) < 0)
            return -1;
    } else if (!strcmp(name, "flush")) {
        /* all the tokens of the place consumed: a reset arc (SNAKES's flush
         * to a place, which produces a multiset, is refused as a reset arc
         * that goes from a transition) */
        lb->kind = "reset";
        lb->el = rd->tree.cur;
        return 0;
    } else {
        s.where = "an arc of";
        if (snakes_annotation_child(rd, &s, name) < 0)
            return -1;
    }
    return snakes_count(rd, lb, s.count);
}

static int label_child(rd_t *rd, void *ctx, const char *name)
{
    label_t *lb = ctx;
    if (!strcmp(name, "multiset"))
        return read_snakes_multiset(rd, lb);
    if (snakes_annotation(rd->tree.cur, name))
        return read_snakes_annotation(rd, lb, name);
    if (!strcmp(name, "text") || !strcmp(name, "value")) {
        lb->el = rd->tree.cur;
        lb->pipe = name[0] == 'v';
        if (pni_rd_text_of(rd) < 0)
            return -1;
        lb->text = rd->tree.text;
        if (!lb->text)
            return pni_rd_nomem(rd);
        return 0;
    }
    if (!strcmp(name, "graphics"))
        return pni_rd_children(rd, offset_child, lb);
    /* toolspecific inside a label: reported (the net has no place for
     * it); structure: skipped */
    if (!strcmp(name, "toolspecific"))
        pni_rd_ignore(rd, IGN_LABELTOOL);
    return pni_rd_skip(rd);
}

static int read_label(rd_t *rd, label_t *lb);
/* A label a node or arc has at most once (its marking, inscription,
 * capacity, name): a second one is refused, not let win over the first. */
static int read_once(rd_t *rd, label_t *lb, const el_t **first,
                     const char *name)
{
    if (*first)
        return pni_rd_fail_at(rd, PN_ESTRUCT, rd->tree.cur, name,
                              "second <%s> in <%s> (the first is at line "
                              "%lu): which one holds is not said", name,
                              rd->tree.cur->parent &&
                                      rd->tree.cur->parent->name
                                  ? rd->tree.cur->parent->name
                                  : "?",
                              (*first)->line);
    *first = rd->tree.cur;
    return read_label(rd, lb);
}

static int read_label(rd_t *rd, label_t *lb)
{
    lb->text = NULL;
    lb->pipe = 0;
    lb->kind = NULL;
    lb->has_offset = 0;
    lb->el = rd->tree.cur;
    if (pni_rd_children(rd, label_child, lb) < 0)
        return -1;
    /* PIPE writes an empty <value/> for "the default" (weight 1, no
     * tokens); an empty standard <text> stays an error */
    if (lb->text && lb->pipe && lb->text[strspn(lb->text, " \t\r\n")] == '\0')
        lb->text = NULL;
    return 0;
}

/* A number of a label: a decimal integer, or PIPE's token list
 * "Default,3" / "Default,1,Red,2" (the counts of all token classes are
 * added: the P/T view of a coloured PIPE net). */
static int number(rd_t *rd, const char *s, const el_t *line,
                  const char *needle, const char *what, uint64_t *out)
{
    const char *why = NULL;
    pn_status_t st;
    if (strchr(s, ',')) {
        uint64_t sum = 0;
        const char *p = s;
        int field = 0;
        st = PN_OK;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t n = comma ? (size_t)(comma - p) : strlen(p);
            if (field % 2 == 1) {
                uint64_t v;
                st = pni_parse_u64(p, n, &v, &why);
                if (st)
                    break;
                if (v > PN_TOKENS_MAX - sum) {
                    st = PN_ERANGE;
                    why = "number above 2^63 - 1";
                    break;
                }
                sum += v;
            }
            field++;
            if (!comma)
                break;
            p = comma + 1;
        }
        if (st == PN_OK && field % 2 != 0) {
            st = PN_EVALUE;
            why = "not an integer";
        }
        if (st == PN_OK) {
            *out = sum;
            return 0;
        }
    } else {
        st = pni_parse_u64(s, strlen(s), out, &why);
        if (st == PN_OK)
            return 0;
    }
    if (needle && !*needle)
        needle = "<text";
    return pni_rd_fail(rd, st,
                       needle == s ? pni_rd_where_text(line, s)
                                   : pni_rd_where(line, needle),
                       "%s '%s': %s", what, s, why);
}

/* ---- graphics ---------------------------------------------------------- */

typedef struct {
    int has;
    double x, y;
} pos_t;

/* A decimal or scientific number: 0, -1 when it is none, -2 when it is
 * not finite (inf, nan, or beyond the range of a double). */
static int parse_double(const char *s, double *out)
{
    if (!s)
        return -1;
    /* a whole number of up to 15 digits (most coordinates): exact in a
     * double, the value strtod() gives */
    const char *q = s + (*s == '-');
    size_t nd = 0;
    uint64_t iv = 0;
    while (nd < 16 && q[nd] >= '0' && q[nd] <= '9')
        iv = iv * 10 + (uint64_t)(q[nd++] - '0');
    if (nd && nd < 16 && !q[nd]) {
        *out = *s == '-' ? -(double)iv : (double)iv;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
        end++;
    if (end == s || *end)
        return -1;
    if (errno == ERANGE && fabs(v) < 1)
        v = 0; /* underflow: as near 0 as a double gets */
    else if (errno == ERANGE || !isfinite(v))
        return -2;
    *out = v;
    return 0;
}

static int graphics_child(rd_t *rd, void *ctx, const char *name)
{
    pos_t *p = ctx;
    if (!strcmp(name, "position") && !p->has) {
        static const char *const names[] = {"x", "y"};
        const char *v[2];
        if (pni_rd_attrs(rd, names, v, 2) < 0)
            return -1;
        int rx = parse_double(v[0], &p->x), ry = parse_double(v[1], &p->y);
        /* a coordinate that is no finite number is refused: it cannot be
         * drawn, and would be written back as "inf" */
        if (rx == -2 || ry == -2)
            return pni_rd_fail_at(rd, PN_EVALUE, rd->tree.cur,
                                  rx == -2 ? "x=" : "y=",
                                  "position %s='%s' is not a finite number",
                                  rx == -2 ? "x" : "y",
                                  rx == -2 ? v[0] : v[1]);
        if (rx == 0 && ry == 0)
            p->has = 1;
    }
    return pni_rd_skip(rd);
}

/* ---- nodes ------------------------------------------------------------- */

typedef struct {
    pn_object_t kind;
    label_t name, marking, capacity;
    pos_t pos;
    size_t tool0; /* first buffered toolspecific of this node */
    const el_t *once[3]; /* the <name>, <initialMarking>, <capacity> */
    /* PIPE's timing labels <timed>, <rate>, <priority>, <infiniteServer>
     * (absent ones: PIPE's defaults) */
    int timing;   /* any of them seen */
    int timed, infinite, priority;
    double rate;
    int lost;     /* a priority that is not a number */
    const char *rate_text; /* a rate that is not a plain number, and */
    at_t rate_at;          /* where it starts */
    const char *rate_def;  /* PIPE's rateDefinition, NULL: none */
    pni_spn_t spn; /* pm4py's StochasticPetriNet block */
} node_ctx_t;

int pni_rd_unsupported_label(rd_t *rd, const char *name)
{
    return pni_rd_fail_at(rd, PN_EUNSUPPORTED, rd->tree.cur, name,
                          "unsupported net type: high-level label <%s> (only "
                          "place/transition nets are read)", name);
}

/* Labels that only say how a node is drawn or how a tool runs it without
 * changing its P/T meaning. */
static int presentation_label(const char *name)
{
    static const char *const names[] = {"orientation", "rate", "type",
                                        "dimension"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

/* PIPE's booleans, as Java's Boolean.valueOf() reads them: "true" in any
 * case is true, anything else false. */
static int pipe_true(const char *t, size_t n)
{
    return n == 4 && !strncasecmp(t, "true", 4);
}

/* PIPE's timing labels: the transition is timed (exponential) or
 * immediate, its rate (an immediate transition's weight), priority and
 * server semantics.  A rate or priority that is not a number (PIPE's
 * rates may be expressions of the marking, "#(P0)*2") is kept as not
 * read. */
static int pipe_timing_label(rd_t *rd, node_ctx_t *n, const char *name)
{
    label_t lb;
    if (read_label(rd, &lb) < 0)
        return -1;
    if (!n->timing) {
        n->timing = 1;
        n->rate = PN_DEFAULT_RATE;
        n->priority = PN_DEFAULT_PRIORITY;
    }
    const char *t = lb.text ? lb.text + strspn(lb.text, " \t\r\n") : "";
    size_t len = strlen(t);
    while (len && strchr(" \t\r\n", t[len - 1]))
        len--;
    if (!len)
        return 0; /* an empty label says nothing: the default holds */
    if (!strcmp(name, "timed"))
        n->timed = pipe_true(t, len);
    else if (!strcmp(name, "infiniteServer"))
        n->infinite = pipe_true(t, len);
    else if (!strcmp(name, "rate")) {
        double r;
        int pr = parse_double(t, &r);
        const el_t *v = lb.el->first;
        while (v && (!v->name || (strcmp(v->name, "value") &&
                                  strcmp(v->name, "text"))))
            v = v->next;
        at_t at = pni_rd_where_text(v ? v : lb.el, t);
        if (pr == 0 && r >= 0)
            n->rate = r;
        else if (pr != -1)
            return pni_rd_fail(rd, PN_EVALUE, at, "transition rate '%.*s' "
                               "is not a finite number >= 0", (int)len, t);
        else if (!(n->rate_text = pni_arena_strndup(&rd->arena, t, len)))
            return pni_rd_nomem(rd);
        else
            n->rate_at = at;
    } else {
        char *end;
        errno = 0;
        long v = strtol(t, &end, 10);
        if (end == t + len && !errno && v >= 0 && v <= INT_MAX)
            n->priority = (int)v;
        else
            n->lost = 1;
    }
    return 0;
}

/* The transition's timing, from PIPE's labels. */
static int pipe_timing_set(rd_t *rd, const node_ctx_t *n, size_t index)
{
    if (!n->timing)
        return 0;
    pn_timing_t kind = n->timed ? PN_TIMING_EXPONENTIAL : PN_TIMING_IMMEDIATE;
    int lost = pn_net_set_timing(rd->net, index, kind, n->rate, n->priority,
                                 n->infinite ? PN_SERVER_INFINITE
                                             : PN_SERVER_SINGLE) != PN_OK;
    if (n->lost || lost) {
        pni_rd_ignore(rd, IGN_TIMING);
        pni_net_timing_lost(rd->net, index);
    }
    if ((n->rate_text || n->rate_def) &&
        pni_rd_rate_add(rd, index, n->rate_text ? n->rate_text : "1",
                        n->rate_def, n->rate_at))
        return -1;
    if (n->rate_text || n->rate_def || n->lost || lost || n->timed ||
        n->infinite || n->rate != PN_DEFAULT_RATE ||
        n->priority != PN_DEFAULT_PRIORITY)
        rd->timing_special++;
    return 0;
}

/* SNAKES's place types: <type domain="universal"/> (tAll, any token; the
 * marking and the arcs are checked for black tokens on their own) and
 * OneOf(dot), <type domain="enum"><token/></type>, are P/T places; so is
 * <type domain="instance"><object type="class" name="...BlackToken"/>
 * </type> (SNAKES writes a place of tBlackToken with a <text> marking and
 * no type).  Any other domain (int, intersection, set, ...) types the place
 * with values: a high-level net. */
static int snakes_class_child(rd_t *rd, void *ctx, const char *name)
{
    int *black = ctx;
    if (!strcmp(name, "object")) {
        const char *type = pni_rd_attr(rd, "type");
        const char *cls = pni_rd_attr(rd, "name");
        size_t n = cls ? strlen(cls) : 0;
        if (rd->diag.st)
            return -1;
        if (type && !strcmp(type, "class") && n >= 10 &&
            !strcmp(cls + n - 10, "BlackToken") &&
            (n == 10 || cls[n - 11] == '.'))
            *black = 1;
    }
    return pni_rd_skip(rd);
}

static int snakes_place_type(rd_t *rd)
{
    const el_t *line = rd->tree.cur;
    const char *domain = pni_rd_attr(rd, "domain");
    if (rd->diag.st)
        return -1;
    if (!domain || !strcmp(domain, "universal"))
        return pni_rd_skip(rd);
    int black = 0;
    if (!strcmp(domain, "enum")) {
        black = 1;
        for (const el_t *c = line->first; c; c = c->next)
            black &= !c->name || snakes_black(c);
        if (black)
            return 0;
    }
    if (!strcmp(domain, "instance")) {
        if (pni_rd_children(rd, snakes_class_child, &black) < 0)
            return -1;
        if (black)
            return 0;
    }
    return pni_rd_fail_at(rd, PN_EUNSUPPORTED, line, "domain=",
                          "unsupported net type: a place of type "
                          "domain=\"%s\" holds values other than black "
                          "tokens (a high-level net)", domain);
}

/* SNAKES's guard of a transition, <guard><expression>x==1</expression>
 * </guard> (it writes none for True), or any other guard but how it is
 * drawn: a high-level net. */
static int snakes_guard_child(rd_t *rd, void *ctx, const char *name)
{
    (void)ctx;
    if (!strcmp(name, "graphics") || !strcmp(name, "toolspecific"))
        return pni_rd_skip(rd);
    if (!strcmp(name, "expression")) {
        if (pni_rd_text_of(rd) < 0)
            return -1;
        const char *t = rd->tree.text + strspn(rd->tree.text, " \t\r\n");
        if (!strncmp(t, "True", 4) && !t[4 + strspn(t + 4, " \t\r\n")])
            return 0;
    }
    return snakes_refuse(rd, rd->tree.cur, "a transition guard");
}

static int node_child(rd_t *rd, void *ctx, const char *name)
{
    node_ctx_t *n = ctx;
    if (n->kind == PN_PLACE && !strcmp(name, "type"))
        return snakes_place_type(rd);
    if (n->kind == PN_TRANSITION && !strcmp(name, "guard"))
        return pni_rd_children(rd, snakes_guard_child, NULL);
    if (!strcmp(name, "name"))
        return read_once(rd, &n->name, &n->once[0], name);
    if (n->kind == PN_TRANSITION &&
        (!strcmp(name, "timed") || !strcmp(name, "priority") ||
         !strcmp(name, "rate") || !strcmp(name, "infiniteServer")))
        return pipe_timing_label(rd, n, name);
    if (!strcmp(name, "graphics"))
        return pni_rd_children(rd, graphics_child, &n->pos);
    if (!strcmp(name, "toolspecific")) {
        const char *tool = pni_rd_attr(rd, "tool");
        if (n->kind == PN_TRANSITION && tool &&
            !strcmp(tool, "StochasticPetriNet") && !n->spn.seen &&
            pni_rd_spn_block(rd, &n->spn) < 0)
            return -1;
        const char *def = n->kind == PN_TRANSITION && tool &&
                                  !strcmp(tool, "PIPE")
                              ? pni_rd_attr(rd, "rateDefinition")
                              : NULL;
        if (def) {
            if (!(n->rate_def = pni_rd_keep(rd, def)))
                return pni_rd_nomem(rd);
            n->rate_at = pni_rd_where(rd->tree.cur, "rateDefinition=");
        }
        return pni_rd_keep_tool(rd, n->kind, PN_NONE);
    }
    if (n->kind == PN_PLACE) {
        if (!strcmp(name, "initialMarking"))
            return read_once(rd, &n->marking, &n->once[1], name);
        if (!strcmp(name, "capacity"))
            return read_once(rd, &n->capacity, &n->once[2], name);
        if (!strcmp(name, "hlinitialMarking"))
            return pni_rd_unsupported_label(rd, name);
    }
    if (!presentation_label(name))
        pni_rd_ignore_label(rd, name);
    return pni_rd_skip(rd);
}

/* WoPeD's net type (ptNetb, the pre-2009 P/T type of HU Berlin) marks
 * files whose label offsets are absolute positions: WoPeD writes a name at
 * offset y=150 for a place at y=110. */
static int absolute_offsets(rd_t *rd)
{
    const char *type = pn_net_type(rd->net);
    size_t n = type ? strlen(type) : 0;
    return n >= 6 && !strcmp(type + n - 6, "ptNetb");
}

static int read_node(rd_t *rd, pn_object_t kind, const char *elem)
{
    const el_t *line = rd->tree.cur;
    /* with the attribute forms of TAPAAL's .tapn and old verifytapn XML */
    static const char *const names[] = {"id", "name", "initialMarking",
                                        "positionX", "positionY",
                                        "invariant", "urgent", "priority",
                                        "guard", "player"};
    const char *v[10];
    if (pni_rd_attrs(rd, names, v, 10) < 0)
        return -1;
    /* pm4py's data Petri nets: a guard other than "true"; TAPAAL's
     * games: a transition of the second player */
    if (v[8] && strcmp(v[8] + strspn(v[8], " \t\r\n"), "true") != 0 &&
        v[8][strspn(v[8], " \t\r\n")])
        pni_rd_ignore(rd, IGN_GUARD);
    if (v[9] && strcmp(v[9], "0") != 0)
        pni_rd_ignore(rd, IGN_PLAYER);
    /* TAPAAL's timing: an age invariant other than "< inf", urgency, a
     * priority other than 0 */
    if (v[5] && strcmp(v[5], "< inf") != 0)
        pni_rd_ignore(rd, IGN_INVARIANT);
    if (v[6] && !strcmp(v[6], "true"))
        pni_rd_ignore(rd, IGN_URGENT);
    if (v[7] && strcmp(v[7], "0") != 0)
        pni_rd_ignore(rd, IGN_PRIORITY);
    const char *raw = v[0], *aname = v[1];
    const char *amark = kind == PN_PLACE ? v[2] : NULL;
    const char *px = v[3], *py = v[4];
    const char *id = pni_rd_scoped(rd, raw);
    if (rd->diag.st)
        return -1;
    if (!raw || !*raw)
        return pni_rd_fail_at(rd, PN_ENOID, line, elem, "<%s> has no id",
                              elem);
    node_ctx_t n = {0};
    n.kind = kind;
    n.tool0 = rd->ntools;
    if (pni_rd_children(rd, node_child, &n) < 0)
        return -1;
    const char *nm = n.name.text ? n.name.text : aname;
    uint64_t marking = 0, capacity = 0;
    if (n.marking.text &&
        number(rd, n.marking.text, n.marking.el, n.marking.text,
               "initial marking", &marking) < 0)
        return -1;
    if (!n.marking.text && amark &&
        number(rd, amark, line, "initialMarking=", "initial marking",
               &marking) < 0)
        return -1;
    if (n.capacity.text &&
        number(rd, n.capacity.text, n.capacity.el, n.capacity.text,
               "capacity", &capacity) < 0)
        return -1;
    size_t index;
    pn_status_t st = kind == PN_PLACE
                         ? pn_net_add_place(rd->net, id, nm, marking, &index)
                         : pn_net_add_transition(rd->net, id, nm, &index);
    if (st == PN_EDUPID || (st == PN_OK && pni_hash_get(&rd->refids, id))) {
        char needle[300];
        snprintf(needle, sizeof needle, "id=\"%s\"", raw);
        return pni_rd_fail_at(rd, PN_EDUPID, line, needle,
                              "duplicate id '%s'", id);
    }
    if (st)
        return pni_rd_fail_at(rd, st, line, elem, "<%s id=\"%s\">: %s", elem,
                              id, pn_strstatus(st));
    if (kind == PN_PLACE && capacity)
        pn_net_set_capacity(rd->net, index, capacity);
    if (kind == PN_TRANSITION && pipe_timing_set(rd, &n, index) < 0)
        return -1;
    if (kind == PN_TRANSITION && pni_rd_spn_set(rd, &n.spn, index) < 0)
        return -1;
    if (!n.pos.has && px && py) {
        int rx = parse_double(px, &n.pos.x), ry = parse_double(py, &n.pos.y);
        if (rx == -2 || ry == -2)
            return pni_rd_fail_at(rd, PN_EVALUE, line,
                                  rx == -2 ? "positionX=" : "positionY=",
                                  "position %s='%s' is not a finite number",
                                  rx == -2 ? "positionX" : "positionY",
                                  rx == -2 ? px : py);
        n.pos.has = rx == 0 && ry == 0;
    }
    if (n.pos.has)
        pn_net_set_position(rd->net, kind, index, n.pos.x, n.pos.y);
    if (n.name.has_offset && n.pos.has && absolute_offsets(rd)) {
        /* WoPeD's name offset is where the label is, not how far from
         * its node */
        n.name.ox -= n.pos.x;
        n.name.oy -= n.pos.y;
    }
    if (n.name.has_offset)
        pn_net_set_label_offset(rd->net, kind, index, n.name.ox, n.name.oy);
    pn_net_set_page(rd->net, kind, index, rd->page);
    for (size_t i = n.tool0; i < rd->ntools; i++)
        if (rd->tools[i].index == PN_NONE && rd->tools[i].owner == kind)
            rd->tools[i].index = index;
    return 0;
}

static int read_ref(rd_t *rd, int is_place, const char *elem)
{
    const el_t *line = rd->tree.cur;
    const char *raw = pni_rd_attr(rd, "id");
    const char *id = qual(rd, raw);
    const char *ref = qual(rd, pni_rd_attr(rd, "ref"));
    if (rd->diag.st)
        return -1;
    if (!raw || !*raw)
        return pni_rd_fail_at(rd, PN_ENOID, line, elem, "<%s> has no id",
                              elem);
    if (!ref)
        return pni_rd_fail_at(rd, PN_ESTRUCT, line, elem,
                              "<%s id=\"%s\"> has no ref attribute", elem, id);
    pn_object_t k;
    if (pn_net_find(rd->net, id, &k, NULL) == PN_OK ||
        pni_hash_put(&rd->refids, id, 0, rd->nrefs) == PN_EDUPID) {
        char needle[300];
        snprintf(needle, sizeof needle, "id=\"%s\"", raw);
        return pni_rd_fail_at(rd, PN_EDUPID, line, needle,
                              "duplicate id '%s'", id);
    }
    if (pni_grow((void **)&rd->refs, &rd->cap_refs, rd->nrefs + 1,
                 sizeof *rd->refs))
        return pni_rd_nomem(rd);
    rd_ref_t r = {id, ref, is_place, pni_rd_where(line, id),
                  pni_rd_where(line, "ref="), 0, PN_PLACE, 0};
    rd->refs[rd->nrefs++] = r;
    return pni_rd_skip(rd);
}

/* ---- arcs -------------------------------------------------------------- */

typedef struct {
    label_t inscription;
    int kind; /* -1: not given */
    const char *kind_text;
    size_t tool0;
    const el_t *once; /* the <inscription> */
    size_t arcpath; /* PIPE's <arcpath> points: the first and last are the
                       ends, those between bend points */
} arc_ctx_t;

/* The <position>s of an arc's graphics: bend points, reported. */
static int arc_graphics_child(rd_t *rd, void *ctx, const char *name)
{
    (void)ctx;
    if (!strcmp(name, "position"))
        pni_rd_ignore(rd, IGN_BEND);
    return pni_rd_skip(rd);
}

/* Maps an arc type word of any of the tools we read to a kind; -1 unknown. */
static int arc_kind_word(const char *w)
{
    static const struct {
        const char *word;
        pn_arc_kind_t kind;
    } words[] = {
        {"normal", PN_ARC_NORMAL},       {"timed", PN_ARC_NORMAL},
        {"transport", PN_ARC_NORMAL},    {"regular", PN_ARC_NORMAL},
        {"inhibitor", PN_ARC_INHIBITOR}, {"inhibit", PN_ARC_INHIBITOR},
        {"tapnInhibitor", PN_ARC_INHIBITOR},
        {"read", PN_ARC_READ},           {"test", PN_ARC_READ},
        {"reset", PN_ARC_RESET},
    };
    if (!w)
        return -1;
    while (*w == ' ' || *w == '\n' || *w == '\t' || *w == '\r')
        w++;
    size_t n = strlen(w);
    while (n && (w[n - 1] == ' ' || w[n - 1] == '\n' || w[n - 1] == '\t' ||
                 w[n - 1] == '\r'))
        n--;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i].word) == n && !strncmp(words[i].word, w, n))
            return (int)words[i].kind;
    return -2;
}

static void set_kind(rd_t *rd, arc_ctx_t *a, const char *word)
{
    int k = arc_kind_word(word);
    if (k == -2) {
        a->kind_text = word;
        return;
    }
    /* several encodings on one arc (our own writer emits two): a special
     * kind wins over "normal" */
    if (k >= 0 && (a->kind <= 0 || k != PN_ARC_NORMAL))
        a->kind = k;
}

static int arc_child(rd_t *rd, void *ctx, const char *name)
{
    arc_ctx_t *a = ctx;
    if (!strcmp(name, "inscription"))
        return read_once(rd, &a->inscription, &a->once, name);
    if (!strcmp(name, "type") || !strcmp(name, "arctype")) {
        const char *v = pni_rd_attr(rd, "value");
        if (rd->diag.st)
            return -1;
        if (v) {
            set_kind(rd, a, v);
            return pni_rd_skip(rd);
        }
        label_t lb;
        if (read_label(rd, &lb) < 0)
            return -1;
        if (lb.text)
            set_kind(rd, a, lb.text);
        return 0;
    }
    if (!strcmp(name, "toolspecific"))
        return pni_rd_keep_tool(rd, PN_ARC, rd->narcs);
    if (!strcmp(name, "hlinscription"))
        return pni_rd_unsupported_label(rd, name);
    /* how the arc is drawn (<graphics>, PIPE's <arcpath>, <tagged>): bend
     * points reported */
    if (!strcmp(name, "graphics"))
        return pni_rd_children(rd, arc_graphics_child, a);
    if (!strcmp(name, "arcpath"))
        a->arcpath++;
    if (!strcmp(name, "name"))
        pni_rd_ignore(rd, IGN_ARCNAME);
    else if (strcmp(name, "graphics") && strcmp(name, "arcpath") &&
             strcmp(name, "tagged"))
        pni_rd_ignore_label(rd, name);
    return pni_rd_skip(rd);
}

static int read_arc(rd_t *rd, const char *elem)
{
    const el_t *line = rd->tree.cur;
    int legacy = strcmp(elem, "arc") != 0; /* inputArc, outputArc, ... */
    static const char *const names[] = {"id", "source", "target", "type",
                                        "inscription", "weight"};
    const char *v[6];
    if (pni_rd_attrs(rd, names, v, 6) < 0)
        return -1;
    const char *raw = v[0], *type = v[3], *ains = v[4], *aweight = v[5];
    const char *id = pni_rd_scoped(rd, raw);
    const char *src = pni_rd_scoped(rd, v[1]);
    const char *tgt = pni_rd_scoped(rd, v[2]);
    if (rd->diag.st)
        return -1;
    if (!legacy && (!raw || !*raw))
        return pni_rd_fail_at(rd, PN_ENOID, line, elem, "<%s> has no id",
                              elem);
    if (!src || !tgt)
        return pni_rd_fail_at(rd, PN_ESTRUCT, line, elem,
                              "<%s%s%s%s> has no %s attribute", elem,
                              raw ? " id=\"" : "", raw ? raw : "",
                              raw ? "\"" : "", src ? "target" : "source");
    arc_ctx_t a = {0};
    a.kind = -1;
    a.tool0 = rd->ntools;
    if (!strcmp(elem, "inhibitorArc"))
        a.kind = PN_ARC_INHIBITOR;
    if (type)
        set_kind(rd, &a, type);
    if (pni_rd_children(rd, arc_child, &a) < 0)
        return -1;
    if (a.arcpath > 2)
        rd->diag.ignored[IGN_BEND] += a.arcpath - 2;
    /* TAPAAL: a time interval other than [0,inf), a transport arc */
    if (ains && ains[0] == '[' &&
        !(strncmp(ains, "[0,inf)", 7) == 0 && (!ains[7] || ains[7] == ':')))
        pni_rd_ignore(rd, IGN_INTERVAL);
    if (type && !strcmp(type, "transport"))
        pni_rd_ignore(rd, IGN_TRANSPORT);
    if (a.inscription.kind)
        set_kind(rd, &a, a.inscription.kind);
    if (a.kind < 0)
        a.kind = PN_ARC_NORMAL;
    if (a.kind_text) {
        char w[300];
        snprintf(w, sizeof w, "%s:%lu: arc '%s': unknown arc type '%s' read "
                 "as %s", rd->diag.name, line->line, id ? id : "?",
                 a.kind_text, pn_arc_kind_name((pn_arc_kind_t)a.kind));
        if (pn_net_add_warning(rd->net, w))
            return pni_rd_nomem(rd);
    }
    uint64_t weight = 1;
    if (a.inscription.text) {
        if (number(rd, a.inscription.text, a.inscription.el,
                   a.inscription.text, "arc weight", &weight) < 0)
            return -1;
        /* PIPE tests its inhibitor arcs for M(p) = 0 whatever the weight
         * says: a PIPE-style (<value>) inhibitor weight is read as 1 */
        if (a.inscription.pipe && a.kind == PN_ARC_INHIBITOR)
            weight = 1;
    } else if (aweight) {
        if (number(rd, aweight, line, "weight=", "arc weight", &weight) < 0)
            return -1;
    } else if (ains && ains[0] != '[' && ains[0] != '(') {
        /* old verifytapn XML: "1" on output arcs, "[0,inf)" (a time
         * interval, weight 1) on input arcs */
        if (number(rd, ains, line, "inscription=", "arc weight", &weight) < 0)
            return -1;
    }
    if (weight == 0 && a.kind != PN_ARC_RESET)
        return pni_rd_fail_at(rd, PN_EVALUE,
                              a.inscription.text ? a.inscription.el : line,
                              a.inscription.text ? a.inscription.text : elem,
                              "arc weight '0': an arc weight must be at "
                              "least 1");
    rd_arc_t r = {raw ? id : NULL, src, tgt, (pn_arc_kind_t)a.kind, weight,
                  {0, 0}, {0, 0}, {0, 0}};
    if (!rd->deferring) {
        /* both ends are known nodes (the usual order: nodes, then arcs):
         * the arc is added now */
        pn_object_t ks, kt;
        size_t is, it;
        if (pn_net_find(rd->net, src, &ks, &is) == PN_OK && ks != PN_ARC &&
            pn_net_find(rd->net, tgt, &kt, &it) == PN_OK && kt != PN_ARC)
            return pni_rd_add_arc(rd, &r, line, ks, is, kt, it);
        /* from here on, arcs wait for the end of the net, so that they
         * stay in the order of the document */
        rd->deferring = 1;
    }
    r.id = pni_rd_keep(rd, r.id);
    r.source = pni_rd_keep(rd, src);
    r.target = pni_rd_keep(rd, tgt);
    r.at_id = pni_rd_where(line, "id=");
    r.at_src = pni_rd_where(line, "source=");
    r.at_tgt = pni_rd_where(line, "target=");
    if (rd->diag.st || pni_grow((void **)&rd->arcs, &rd->cap_arcs,
                                rd->narcs + 1, sizeof *rd->arcs))
        return rd->diag.st ? -1 : pni_rd_nomem(rd);
    rd->arcs[rd->narcs++] = r;
    return 0;
}

/* ---- our own tool-specific block --------------------------------------- */

static int own_tool_child(rd_t *rd, void *ctx, const char *name)
{
    if (!strcmp(name, "toolspecific"))
        return pni_rd_keep_tool(rd, PN_PAGE, *(size_t *)ctx);
    return pni_rd_skip(rd);
}

/* <timing node="t" kind="exponential" rate="2.5" priority="1"
 * server="single"/>: a transition's timing (pn-convert(1)); rate,
 * priority and server may be left out (the defaults); expression="#(P0)*2"
 * a rate that is an expression of the marking (rate the value at the
 * initial marking).  server="k" comes
 * with servers="K", K >= 2. */
static int own_timing(rd_t *rd)
{
    const el_t *line = rd->tree.cur;
    static const char *const names[] = {"node", "kind", "rate", "priority",
                                        "server", "servers", "expression"};
    const char *v[7];
    if (pni_rd_attrs(rd, names, v, 7) < 0)
        return -1;
    rd_extra_t e = {0};
    e.what = EXTRA_TIMING;
    e.node = qual(rd, v[0]);
    e.page = PN_NONE;
    e.rate = PN_DEFAULT_RATE;
    e.priority = PN_DEFAULT_PRIORITY;
    e.server = PN_SERVER_SINGLE;
    e.at = pni_rd_where(line, "node=");
    if (v[6]) {
        /* a rate that is an expression of the marking (PIPE's) */
        e.expr = pni_rd_keep(rd, v[6]);
        e.expr_at = pni_rd_where(line, "expression=");
        e.expr_at.col += e.expr_at.col ? strlen("expression=\"") : 0;
    }
    if (rd->diag.st)
        return -1;
    if (!e.node || !v[1])
        return pni_rd_fail_at(rd, PN_ESTRUCT, line, "timing",
                              "<timing> needs node and kind attributes");
    if (pn_timing_parse(v[1], &e.timing))
        return pni_rd_fail_at(rd, PN_EVALUE, line, "kind=",
                              "timing kind '%s' is not one of none, "
                              "immediate, exponential, deterministic", v[1]);
    if (v[2] && (parse_double(v[2], &e.rate) != 0 || e.rate < 0))
        return pni_rd_fail_at(rd, PN_EVALUE, line, "rate=",
                              "rate '%s' is not a finite number >= 0", v[2]);
    if (v[3]) {
        uint64_t p;
        if (number(rd, v[3], line, "priority=", "priority", &p) < 0)
            return -1;
        if (p > INT_MAX)
            return pni_rd_fail_at(rd, PN_ERANGE, line, "priority=",
                                  "priority %s is above %d", v[3], INT_MAX);
        e.priority = (int)p;
    }
    if (v[4] && pn_server_parse(v[4], &e.server))
        return pni_rd_fail_at(rd, PN_EVALUE, line, "server=",
                              "server '%s' is not single, infinite or k",
                              v[4]);
    e.servers = e.server == PN_SERVER_INFINITE ? 0 : 1;
    if (e.server == PN_SERVER_K) {
        uint64_t k;
        if (!v[5])
            return pni_rd_fail_at(rd, PN_ESTRUCT, line, "server=",
                                  "server=\"k\" needs a servers attribute");
        if (number(rd, v[5], line, "servers=", "servers", &k) < 0)
            return -1;
        if (k < 2 || k > UINT_MAX)
            return pni_rd_fail_at(rd, PN_ERANGE, line, "servers=",
                                  "servers %s is not between 2 and %u",
                                  v[5], UINT_MAX);
        e.servers = (unsigned)k;
    }
    if (pni_grow((void **)&rd->extras, &rd->cap_extras, rd->nextras + 1,
                 sizeof *rd->extras))
        return pni_rd_nomem(rd);
    rd->extras[rd->nextras++] = e;
    return pni_rd_skip(rd);
}

static int own_child(rd_t *rd, void *ctx, const char *name)
{
    const el_t *line = rd->tree.cur;
    if (!strcmp(name, "pages")) {
        /* the page structure is given here, not by the <page> elements */
        rd->own_pages = 1;
    } else if (!strcmp(name, "page")) {
        const char *id = pni_rd_keep(rd, pni_rd_attr(rd, "id"));
        const char *nm = pni_rd_keep(rd, pni_rd_attr(rd, "name"));
        const char *parent = pni_rd_attr(rd, "parent");
        if (rd->diag.st)
            return -1;
        size_t par = PN_NONE;
        if (parent) {
            uint64_t v;
            if (number(rd, parent, line, "parent=", "page parent", &v) < 0)
                return -1;
            if (v >= rd->nownpages)
                return pni_rd_fail_at(rd, PN_ESTRUCT, line, "parent=",
                                      "page parent %s is not an earlier page",
                                      parent);
            par = (size_t)v;
        }
        if (pni_grow((void **)&rd->ownpages, &rd->cap_ownpages,
                     rd->nownpages + 1, sizeof *rd->ownpages))
            return pni_rd_nomem(rd);
        rd_page_t pg = {id, nm, par};
        rd->ownpages[rd->nownpages++] = pg;
    } else if (!strcmp(name, "pagetool")) {
        const char *pg = pni_rd_attr(rd, "page");
        uint64_t v;
        if (rd->diag.st)
            return -1;
        if (!pg)
            return pni_rd_fail_at(rd, PN_ESTRUCT, line, name,
                                  "<pagetool> needs a page attribute");
        if (number(rd, pg, line, "page=", "page", &v) < 0)
            return -1;
        if (v >= rd->nownpages)
            return pni_rd_fail_at(rd, PN_ESTRUCT, line, "page=",
                                  "<pagetool> names page %s, which is not "
                                  "declared", pg);
        size_t page = (size_t)v;
        return pni_rd_children(rd, own_tool_child, &page);
    } else if (!strcmp(name, "timing")) {
        return own_timing(rd);
    } else if (!strcmp(name, "definition")) {
        /* a PIPE rate parameter, carried for PIPE's transition blocks */
        return pni_rd_definition(rd);
    } else if (!strcmp(name, "capacity") || !strcmp(name, "member")) {
        const char *node = qual(rd, pni_rd_attr(rd, "node"));
        const char *val = pni_rd_attr(rd, name[0] == 'c' ? "value" : "page");
        if (rd->diag.st)
            return -1;
        if (!node || !val)
            return pni_rd_fail_at(rd, PN_ESTRUCT, line, name,
                                  "<%s> needs node and %s attributes", name,
                                  name[0] == 'c' ? "value" : "page");
        rd_extra_t e = {0};
        e.node = node;
        e.what = name[0] == 'c' ? EXTRA_CAPACITY : EXTRA_MEMBER;
        e.page = PN_NONE;
        e.at = pni_rd_where(line, "node=");
        uint64_t v;
        if (number(rd, val, line, val, name, &v) < 0)
            return -1;
        if (name[0] == 'c')
            e.capacity = v;
        else if (v < rd->nownpages)
            e.page = (size_t)v;
        else
            return pni_rd_fail_at(rd, PN_ESTRUCT, line, "page=",
                                  "<member> names page %s, which is not "
                                  "declared", val);
        if (pni_grow((void **)&rd->extras, &rd->cap_extras, rd->nextras + 1,
                     sizeof *rd->extras))
            return pni_rd_nomem(rd);
        rd->extras[rd->nextras++] = e;
    }
    return pni_rd_skip(rd);
}

/* ---- the objects of a net or page -------------------------------------- */

/* A whole child of a net or page, collected; page: the page its content
 * goes to (PN_NONE for the net itself). */
int pni_rd_read_object(rd_t *rd, size_t page, const char *name)
{
    if (rd->pnpro)
        return pni_pnpro_read_object(rd, name);
    switch (name[0]) {
    case 'p':
        if (!strcmp(name, "place"))
            return read_node(rd, PN_PLACE, name);
        break;
    case 't':
        if (!strcmp(name, "transition"))
            return read_node(rd, PN_TRANSITION, name);
        if (!strcmp(name, "toolspecific")) {
            const char *tool = pni_rd_attr(rd, "tool");
            if (tool && !strcmp(tool, PNI_TOOL_NAME) && page == PN_NONE)
                return pni_rd_children(rd, own_child, NULL);
            return pni_rd_keep_tool(rd, page == PN_NONE ? PN_NET : PN_PAGE,
                                    page == PN_NONE ? 0 : page);
        }
        break;
    case 'a':
        if (!strcmp(name, "arc"))
            return read_arc(rd, name);
        break;
    case 'd':
        if (!strcmp(name, "definition"))
            return pni_rd_definition(rd);
        break;
    case 'r':
        if (!strcmp(name, "referencePlace"))
            return read_ref(rd, 1, name);
        if (!strcmp(name, "referenceTransition"))
            return read_ref(rd, 0, name);
        break;
    case 'i':
        if (!strcmp(name, "inputArc") || !strcmp(name, "inhibitorArc"))
            return read_arc(rd, name);
        break;
    case 'o':
        if (!strcmp(name, "outputArc"))
            return read_arc(rd, name);
        break;
    case 'n':
        if (!strcmp(name, "name")) {
            size_t k = page == PN_NONE ? 0 : page + 1;
            if (k >= rd->cap_name_line) {
                size_t old = rd->cap_name_line;
                if (pni_grow((void **)&rd->name_line, &rd->cap_name_line,
                             k + 1, sizeof *rd->name_line))
                    return pni_rd_nomem(rd);
                memset(rd->name_line + old, 0,
                       (rd->cap_name_line - old) * sizeof *rd->name_line);
            }
            if (rd->name_line[k])
                return pni_rd_fail_at(rd, PN_ESTRUCT, rd->tree.cur, name,
                                      "second <name> in <%s> (the first is "
                                      "at line %lu): which one holds is not "
                                      "said",
                                      page == PN_NONE ? "net" : "page",
                                      rd->name_line[k]);
            rd->name_line[k] = rd->tree.cur->line ? rd->tree.cur->line : 1;
            label_t lb;
            if (read_label(rd, &lb) < 0)
                return -1;
            if (lb.text && (page != PN_NONE
                                ? pn_net_set_node_name(rd->net, PN_PAGE, page,
                                                       lb.text)
                                : pn_net_set_name(rd->net, lb.text)))
                return pni_rd_nomem(rd);
            return 0;
        }
        break;
    }
    return pni_rd_skip(rd);
}
