/*
 * PNML reader: a streaming walk over libxml2's xmlTextReader.
 *
 * Elements are matched by local name, so documents with no namespace, the
 * 2009 namespace or a prefix all read.  Each handler is called with the
 * reader on a start tag and consumes that element's whole subtree.
 * Arcs and reference nodes are collected and resolved when the net ends
 * (PNML lets an arc come before its nodes).  Nothing half-built is returned.
 */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/xmlreader.h>
#include "lib_private.h"
#include "pnml.h"
#include "pnml_private.h"

typedef struct {
    const char *id, *source, *target; /* qualified, in the reader's arena */
    pn_arc_kind_t kind;
    uint64_t weight;
    unsigned long line;
} rd_arc_t;

typedef struct {
    const char *id, *ref;
    int is_place;
    unsigned long line;
    int state; /* 0 unresolved, 1 resolving, 2 done */
    pn_object_t kind;
    size_t index;
} rd_ref_t;

typedef struct {
    pn_object_t owner;
    size_t index;
    const char *tool, *version, *xml;
} rd_tool_t;

typedef struct {
    const char *node;
    uint64_t capacity;
    size_t page; /* PN_NONE when the entry is a capacity */
    unsigned long line;
} rd_extra_t;

typedef struct {
    const char *id, *name;
    size_t parent;
} rd_page_t;

/* What a file may say that a P/T net with inhibitor, read and reset arcs
 * cannot: counted while reading, reported in one warning at the end. */
enum {
    IGN_INTERVAL, IGN_INVARIANT, IGN_TRANSPORT, IGN_URGENT, IGN_TIMED,
    IGN_PRIORITY, IGN_QUERY, IGN_ARCNAME, IGN_LABEL, IGN_COUNT
};

typedef struct {
    xmlTextReaderPtr r;
    const char *buf;
    size_t len;
    const char *path; /* streamed from this file (buf loaded on error) */
    char *owned;
    const char *name;
    pn_error_t *err;
    pn_status_t st;
    pn_net_t *net;
    const char *want;
    int found;
    size_t nnets;        /* <net> elements of the document */
    char netids[200];    /* their ids, for the warning when there are two+ */
    pni_arena_t arena;
    rd_arc_t *arcs;
    size_t narcs, cap_arcs;
    rd_ref_t *refs;
    size_t nrefs, cap_refs;
    pni_hash_t refids;
    rd_tool_t *tools;
    size_t ntools, cap_tools;
    rd_extra_t *extras;
    size_t nextras, cap_extras;
    rd_page_t *ownpages; /* pages of our own block */
    size_t nownpages, cap_ownpages;
    int own_pages;
    const char *prefix; /* id scope of WoPeD subprocess nets ("" at top) */
    size_t page;        /* current page, PN_NONE directly in the net */
    char *text;         /* label text buffer */
    size_t ntext, cap_text;
    size_t ignored[IGN_COUNT]; /* what the net cannot say (IGN_*) */
    char unknown[160];  /* names of labels we do not understand */
} rd_t;

static const char *const ignored_what[IGN_COUNT][2] = {
    {"time interval", "time intervals"},
    {"age invariant", "age invariants"},
    {"transport arc read as a pair of normal arcs (an approximation: the "
     "token's age is lost)", "transport arcs read as pairs of normal arcs "
     "(an approximation: the tokens' ages are lost)"},
    {"urgent transition", "urgent transitions"},
    {"timed transition (rates and delays)", "timed transitions (rates and "
     "delays)"},
    {"priority", "priorities"},
    {"query", "queries"},
    {"arc name", "arc names"},
    {"label we do not understand", "labels we do not understand"},
};

static void ignore(rd_t *rd, int what)
{
    rd->ignored[what]++;
}

/* A label we do not understand: counted, and its name kept for the
 * report (the first few distinct names). */
static void ignore_label(rd_t *rd, const char *name)
{
    rd->ignored[IGN_LABEL]++;
    char quoted[80];
    snprintf(quoted, sizeof quoted, "<%s>", name);
    size_t n = strlen(rd->unknown);
    if (strstr(rd->unknown, quoted) || n + strlen(quoted) + 8 >
                                           sizeof rd->unknown)
        return;
    snprintf(rd->unknown + n, sizeof rd->unknown - n, "%s%s", n ? ", " : "",
             quoted);
}

/* ---- errors and locations ---------------------------------------------- */

/* Column (1-based, bytes) of needle on the given line, or of the first
 * non-blank byte when the needle is not there. */
static unsigned long locate(rd_t *rd, unsigned long line,
                            const char *needle)
{
    if (!line)
        return 0;
    if (!rd->buf && rd->path) {
        /* streamed from a file: read it once more, only to find the
         * column of an error */
        char *b;
        size_t n;
        if (pni_slurp(rd->path, &b, &n) != PN_OK)
            return 0;
        rd->owned = b;
        rd->buf = b;
        rd->len = n;
    }
    if (!rd->buf)
        return 0;
    const char *p = rd->buf, *end = rd->buf + rd->len;
    for (unsigned long l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        eol = end;
    if (needle) {
        size_t n = strlen(needle);
        for (const char *q = p; q + n <= eol; q++)
            if (memcmp(q, needle, n) == 0)
                return (unsigned long)(q - p) + 1;
    }
    const char *q = p;
    while (q < eol && (*q == ' ' || *q == '\t'))
        q++;
    return (unsigned long)(q - p) + 1;
}

static int failv(rd_t *rd, pn_status_t code, unsigned long line,
                 unsigned long col, const char *fmt, va_list ap)
{
    if (rd->st != PN_OK)
        return -1;
    rd->st = code;
    char text[PN_ERROR_TEXT_MAX];
    vsnprintf(text, sizeof text, fmt, ap);
    pni_error(rd->err, code, line, line ? (col ? col : 1) : 0, "%s", text);
    return -1;
}

static int fail_at(rd_t *rd, pn_status_t code, unsigned long line,
                   const char *needle, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failv(rd, code, line, locate(rd, line, needle), fmt, ap);
    va_end(ap);
    return -1;
}

static unsigned long cur_line(rd_t *rd)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(rd->r);
    long l = n ? xmlGetLineNo(n) : -1;
    if (l <= 0)
        l = xmlTextReaderGetParserLineNumber(rd->r);
    return l > 0 ? (unsigned long)l : 0;
}

static int nomem(rd_t *rd)
{
    return fail_at(rd, PN_ENOMEM, 0, NULL, "out of memory");
}

static void on_xml_error(void *arg, xmlErrorPtr e)
{
    rd_t *rd = arg;
    if (!e || e->level == XML_ERR_WARNING || rd->st != PN_OK)
        return;
    char msg[400];
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "XML error");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    rd->st = PN_EXML;
    unsigned long line = e->line > 0 ? (unsigned long)e->line : 0;
    pni_error(rd->err, PN_EXML, line,
              e->int2 > 0 ? (unsigned long)e->int2 : (line ? 1 : 0),
              "malformed XML: %s", msg);
}

/* ---- reader primitives ------------------------------------------------- */

static const char *lname(rd_t *rd)
{
    const xmlChar *n = xmlTextReaderConstLocalName(rd->r);
    return n ? (const char *)n : "";
}

/* Advances; returns 1 on a node, -1 on error (recorded). */
static int next(rd_t *rd)
{
    int ret = xmlTextReaderRead(rd->r);
    if (ret == 1) {
        if (xmlTextReaderNodeType(rd->r) == XML_READER_TYPE_ENTITY_REFERENCE)
            return fail_at(rd, PN_ESTRUCT, cur_line(rd), "&",
                           "entity reference '&%s;' (entities are not "
                           "expanded)", lname(rd));
        return 1;
    }
    if (rd->st == PN_OK)
        fail_at(rd, PN_EXML, (unsigned long)xmlTextReaderGetParserLineNumber(
                                 rd->r), NULL,
                ret == 0 ? "malformed XML: premature end of document"
                         : "malformed XML");
    return -1;
}

typedef int (*child_fn)(rd_t *rd, void *ctx, const char *name);

/* Calls fn on each child element of the current element; fn must consume
 * the child.  Text is handed to ctx only through text_of(). */
static int children(rd_t *rd, child_fn fn, void *ctx)
{
    if (xmlTextReaderIsEmptyElement(rd->r))
        return 0;
    int depth = xmlTextReaderDepth(rd->r);
    for (;;) {
        if (next(rd) < 0)
            return -1;
        int type = xmlTextReaderNodeType(rd->r);
        if (type == XML_READER_TYPE_END_ELEMENT &&
            xmlTextReaderDepth(rd->r) == depth)
            return 0;
        if (type == XML_READER_TYPE_ELEMENT && fn(rd, ctx, lname(rd)) < 0)
            return -1;
    }
}

static int skip(rd_t *rd)
{
    if (xmlTextReaderIsEmptyElement(rd->r))
        return 0;
    int depth = xmlTextReaderDepth(rd->r);
    for (;;) {
        if (next(rd) < 0)
            return -1;
        if (xmlTextReaderNodeType(rd->r) == XML_READER_TYPE_END_ELEMENT &&
            xmlTextReaderDepth(rd->r) == depth)
            return 0;
    }
}

/* The text content of the current element (its text and CDATA children,
 * nested elements skipped) into rd->text. */
static int text_of(rd_t *rd)
{
    rd->ntext = 0;
    if (rd->cap_text == 0 &&
        pni_grow((void **)&rd->text, &rd->cap_text, 64, 1))
        return nomem(rd);
    rd->text[0] = '\0';
    if (xmlTextReaderIsEmptyElement(rd->r))
        return 0;
    int depth = xmlTextReaderDepth(rd->r);
    for (;;) {
        if (next(rd) < 0)
            return -1;
        int type = xmlTextReaderNodeType(rd->r);
        if (type == XML_READER_TYPE_END_ELEMENT &&
            xmlTextReaderDepth(rd->r) == depth)
            return 0;
        if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
             type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE ||
             type == XML_READER_TYPE_WHITESPACE) &&
            xmlTextReaderDepth(rd->r) == depth + 1) {
            const char *v = (const char *)xmlTextReaderConstValue(rd->r);
            size_t n = v ? strlen(v) : 0;
            if (pni_grow((void **)&rd->text, &rd->cap_text, rd->ntext + n + 1,
                         1))
                return nomem(rd);
            memcpy(rd->text + rd->ntext, v, n);
            rd->ntext += n;
            rd->text[rd->ntext] = '\0';
        }
    }
}

static const char *attr(rd_t *rd, const char *name)
{
    /* attribute values are only valid until the next read: copy */
    xmlChar *v = xmlTextReaderGetAttribute(rd->r, (const xmlChar *)name);
    if (!v)
        return NULL;
    const char *c = pni_arena_strdup(&rd->arena, (const char *)v);
    xmlFree(v);
    if (!c)
        nomem(rd);
    return c;
}

/* Several attributes in one pass over the element's attributes (no
 * allocation but the copies): out[k] gets the value of names[k] or NULL. */
static int attrs(rd_t *rd, const char *const *names, const char **out, int n)
{
    for (int k = 0; k < n; k++)
        out[k] = NULL;
    int ret = xmlTextReaderMoveToFirstAttribute(rd->r);
    while (ret == 1) {
        const char *name = (const char *)xmlTextReaderConstLocalName(rd->r);
        for (int k = 0; name && k < n; k++)
            if (!out[k] && name[0] == names[k][0] && !strcmp(name, names[k])) {
                const char *v = (const char *)xmlTextReaderConstValue(rd->r);
                if (!(out[k] = pni_arena_strdup(&rd->arena, v ? v : "")))
                    return nomem(rd);
                break;
            }
        ret = xmlTextReaderMoveToNextAttribute(rd->r);
    }
    xmlTextReaderMoveToElement(rd->r);
    return ret < 0 ? fail_at(rd, PN_EXML, cur_line(rd), NULL,
                             "malformed XML in attributes")
                   : 0;
}

/* id qualified by the subprocess scope. */
static const char *qual(rd_t *rd, const char *id)
{
    if (!id || !*rd->prefix)
        return id;
    size_t a = strlen(rd->prefix), b = strlen(id);
    char *tmp = malloc(a + b + 1);
    if (!tmp) {
        nomem(rd);
        return NULL;
    }
    memcpy(tmp, rd->prefix, a);
    memcpy(tmp + a, id, b + 1);
    const char *c = pni_arena_strndup(&rd->arena, tmp, a + b);
    free(tmp);
    if (!c)
        nomem(rd);
    return c;
}

static int keep_tool(rd_t *rd, pn_object_t owner, size_t index)
{
    const char *tool = attr(rd, "tool");
    const char *version = attr(rd, "version");
    xmlChar *xml = xmlTextReaderReadOuterXml(rd->r);
    if (rd->st != PN_OK) {
        xmlFree(xml);
        return -1;
    }
    /* the PNML namespace that the element inherits is declared again on the
     * copy: drop that declaration, the writer puts the copy back inside a
     * PNML document (and a file without a namespace then reads the same) */
    if (xml) {
        static const char decl[] =
            " xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\"";
        char *gt = strchr((char *)xml, '>');
        char *d = strstr((char *)xml, decl);
        if (d && gt && d < gt)
            memmove(d, d + sizeof decl - 1, strlen(d + sizeof decl - 1) + 1);
    }
    const char *c = xml ? pni_arena_strdup(&rd->arena, (const char *)xml) : "";
    xmlFree(xml);
    if (!c ||
        pni_grow((void **)&rd->tools, &rd->cap_tools, rd->ntools + 1,
                 sizeof *rd->tools))
        return nomem(rd);
    rd_tool_t t = {owner, index, tool, version, c};
    rd->tools[rd->ntools++] = t;
    return skip(rd);
}

/* ---- labels and numbers ------------------------------------------------ */

typedef struct {
    const char *text;    /* NULL when the label has no <text>/<value> */
    int pipe;            /* the text came from PIPE's <value> */
    int inhibitor;       /* SNAKES: <inscription><inhibitor>... */
    unsigned long line;  /* line of the <text>/<value> element */
    int has_offset;      /* <graphics><offset x y/> of the label */
    double ox, oy;
} label_t;

static int parse_double(const char *s, double *out);
static int number(rd_t *rd, const char *s, unsigned long line,
                  const char *needle, const char *what, uint64_t *out);
static int attrs(rd_t *rd, const char *const *names, const char **out, int n);

static int offset_child(rd_t *rd, void *ctx, const char *name)
{
    label_t *lb = ctx;
    if (!strcmp(name, "offset") && !lb->has_offset) {
        static const char *const names[] = {"x", "y"};
        const char *v[2];
        if (attrs(rd, names, v, 2) < 0)
            return -1;
        /* a missing coordinate is 0 (ePNK writes offsets without x) */
        lb->ox = lb->oy = 0;
        if ((!v[0] || parse_double(v[0], &lb->ox) == 0) &&
            (!v[1] || parse_double(v[1], &lb->oy) == 0) && (v[0] || v[1]))
            lb->has_offset = 1;
    }
    return skip(rd);
}

/* ---- SNAKES's labels ----------------------------------------------------
 * Markings as multisets, <multiset><item><value><object type="dot"/>
 * </value><multiplicity>3</multiplicity></item></multiset>, and inhibitor
 * arcs as <inscription><inhibitor><annotation>...</annotation><condition>
 * <expression>True</expression></condition></inhibitor>.  Black tokens
 * are counted; any other value is a high-level net. */

typedef struct {
    uint64_t count;       /* black tokens so far */
    int dot;              /* the current value is a black token */
    int other;            /* some value is not a black token */
    const char *mult;     /* the current item's multiplicity */
    unsigned long line;   /* of the current item */
} snakes_t;

static int snakes_value_child(rd_t *rd, void *ctx, const char *name)
{
    snakes_t *s = ctx;
    const char *type = strcmp(name, "object") ? NULL : attr(rd, "type");
    if (type && !strcmp(type, "dot"))
        s->dot = 1;
    else
        s->other = 1;
    return rd->st ? -1 : skip(rd);
}

static int snakes_item_child(rd_t *rd, void *ctx, const char *name)
{
    snakes_t *s = ctx;
    if (!strcmp(name, "value"))
        return children(rd, snakes_value_child, s);
    if (!strcmp(name, "multiplicity")) {
        if (text_of(rd) < 0)
            return -1;
        s->mult = pni_arena_strndup(&rd->arena, rd->text, rd->ntext);
        return s->mult ? 0 : nomem(rd);
    }
    return skip(rd);
}

static int snakes_multiset_child(rd_t *rd, void *ctx, const char *name)
{
    snakes_t *s = ctx;
    if (strcmp(name, "item"))
        return skip(rd);
    s->dot = 0;
    s->mult = NULL;
    s->line = cur_line(rd);
    if (children(rd, snakes_item_child, s) < 0)
        return -1;
    if (!s->dot)
        s->other = 1;
    uint64_t m = 1;
    if (s->mult && number(rd, s->mult, s->line, s->mult, "multiplicity",
                          &m) < 0)
        return -1;
    if (m > PN_TOKENS_MAX - s->count)
        return fail_at(rd, PN_ERANGE, s->line, "multiplicity",
                       "a multiset of more than 2^63-1 tokens");
    s->count += m;
    return 0;
}

/* A multiset of black tokens as the count it stands for, in lb->text. */
static int read_snakes_multiset(rd_t *rd, label_t *lb)
{
    snakes_t s = {0};
    unsigned long line = cur_line(rd);
    if (children(rd, snakes_multiset_child, &s) < 0)
        return -1;
    if (s.other)
        return fail_at(rd, PN_EUNSUPPORTED, line, "multiset",
                       "unsupported net type: a multiset of values other "
                       "than black tokens (a high-level net)");
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, s.count);
    lb->text = pni_arena_strdup(&rd->arena, buf);
    lb->line = line;
    return lb->text ? 0 : nomem(rd);
}

static int snakes_annotation_child(rd_t *rd, void *ctx, const char *name)
{
    label_t *lb = ctx;
    unsigned long line = cur_line(rd);
    if (!strcmp(name, "multiset"))
        return read_snakes_multiset(rd, lb);
    /* a variable: no token at all; a black token: no black token */
    if (!strcmp(name, "variable"))
        return skip(rd);
    if (!strcmp(name, "value")) {
        snakes_t s = {0};
        if (children(rd, snakes_value_child, &s) < 0)
            return -1;
        if (s.dot && !s.other)
            return 0;
    }
    return fail_at(rd, PN_EUNSUPPORTED, line, name,
                   "unsupported net type: an inhibitor arc on <%s> values "
                   "(a high-level net)", name);
}

static int snakes_condition_child(rd_t *rd, void *ctx, const char *name)
{
    unsigned long line = cur_line(rd);
    if (strcmp(name, "expression"))
        return skip(rd);
    if (text_of(rd) < 0)
        return -1;
    const char *t = rd->text + strspn(rd->text, " \t\r\n");
    size_t n = strlen(t);
    while (n && strchr(" \t\r\n", t[n - 1]))
        n--;
    if (n == 4 && !strncmp(t, "True", 4))
        return 0;
    return fail_at(rd, PN_EUNSUPPORTED, line, "expression",
                   "unsupported net type: an inhibitor arc with a condition "
                   "(a high-level net)");
}

static int snakes_inhibitor_child(rd_t *rd, void *ctx, const char *name)
{
    if (!strcmp(name, "annotation"))
        return children(rd, snakes_annotation_child, ctx);
    if (!strcmp(name, "condition"))
        return children(rd, snakes_condition_child, ctx);
    return skip(rd);
}

static int label_child(rd_t *rd, void *ctx, const char *name)
{
    label_t *lb = ctx;
    if (!strcmp(name, "multiset"))
        return read_snakes_multiset(rd, lb);
    if (!strcmp(name, "inhibitor")) {
        lb->inhibitor = 1;
        lb->line = cur_line(rd);
        return children(rd, snakes_inhibitor_child, lb);
    }
    if (!strcmp(name, "text") || !strcmp(name, "value")) {
        lb->line = cur_line(rd);
        lb->pipe = name[0] == 'v';
        if (text_of(rd) < 0)
            return -1;
        lb->text = pni_arena_strndup(&rd->arena, rd->text, rd->ntext);
        if (!lb->text)
            return nomem(rd);
        return 0;
    }
    if (!strcmp(name, "graphics"))
        return children(rd, offset_child, lb);
    /* toolspecific inside a label, structure: skipped */
    return skip(rd);
}

static int read_label(rd_t *rd, label_t *lb)
{
    lb->text = NULL;
    lb->pipe = 0;
    lb->inhibitor = 0;
    lb->has_offset = 0;
    lb->line = cur_line(rd);
    if (children(rd, label_child, lb) < 0)
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
static int number(rd_t *rd, const char *s, unsigned long line,
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
    return fail_at(rd, st, line, needle, "%s '%s': %s", what, s, why);
}

/* ---- graphics ---------------------------------------------------------- */

typedef struct {
    int has;
    double x, y;
} pos_t;

static int parse_double(const char *s, double *out)
{
    if (!s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
        end++;
    if (end == s || *end || errno == ERANGE || v != v)
        return -1;
    *out = v;
    return 0;
}

static int graphics_child(rd_t *rd, void *ctx, const char *name)
{
    pos_t *p = ctx;
    if (!strcmp(name, "position") && !p->has) {
        static const char *const names[] = {"x", "y"};
        const char *v[2];
        if (attrs(rd, names, v, 2) < 0)
            return -1;
        const char *x = v[0], *y = v[1];
        if (parse_double(x, &p->x) == 0 && parse_double(y, &p->y) == 0)
            p->has = 1;
    }
    return skip(rd);
}

/* ---- nodes ------------------------------------------------------------- */

typedef struct {
    pn_object_t kind;
    label_t name, marking, capacity;
    pos_t pos;
    size_t tool0; /* first buffered toolspecific of this node */
} node_ctx_t;

static int unsupported_label(rd_t *rd, const char *name)
{
    return fail_at(rd, PN_EUNSUPPORTED, cur_line(rd), name,
                   "unsupported net type: high-level label <%s> (only "
                   "place/transition nets are read)", name);
}

/* Labels that only say how a node is drawn or how a tool runs it without
 * changing its P/T meaning. */
static int presentation_label(const char *name)
{
    static const char *const names[] = {"orientation", "infiniteServer",
                                        "rate", "type", "dimension"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

/* PIPE's <timed> and <priority> labels: reported when they say more than
 * an untimed transition of the default priority. */
static int pipe_timing_label(rd_t *rd, const char *name)
{
    label_t lb;
    if (read_label(rd, &lb) < 0)
        return -1;
    const char *t = lb.text ? lb.text + strspn(lb.text, " \t\r\n") : "";
    if (!strcmp(name, "timed") && !strncmp(t, "true", 4))
        ignore(rd, IGN_TIMED);
    if (!strcmp(name, "priority") && *t && strncmp(t, "1", 1) != 0)
        ignore(rd, IGN_PRIORITY);
    return 0;
}

static int node_child(rd_t *rd, void *ctx, const char *name)
{
    node_ctx_t *n = ctx;
    if (!strcmp(name, "name"))
        return read_label(rd, &n->name);
    if (n->kind == PN_TRANSITION &&
        (!strcmp(name, "timed") || !strcmp(name, "priority")))
        return pipe_timing_label(rd, name);
    if (!strcmp(name, "graphics"))
        return children(rd, graphics_child, &n->pos);
    if (!strcmp(name, "toolspecific"))
        return keep_tool(rd, n->kind, PN_NONE);
    if (n->kind == PN_PLACE) {
        if (!strcmp(name, "initialMarking"))
            return read_label(rd, &n->marking);
        if (!strcmp(name, "capacity"))
            return read_label(rd, &n->capacity);
        if (!strcmp(name, "hlinitialMarking"))
            return unsupported_label(rd, name);
    }
    if (!presentation_label(name))
        ignore_label(rd, name);
    return skip(rd);
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
    unsigned long line = cur_line(rd);
    /* with the attribute forms of TAPAAL's .tapn and old verifytapn XML */
    static const char *const names[] = {"id", "name", "initialMarking",
                                        "positionX", "positionY",
                                        "invariant", "urgent", "priority"};
    const char *v[8];
    if (attrs(rd, names, v, 8) < 0)
        return -1;
    /* TAPAAL's timing: an age invariant other than "< inf", urgency, a
     * priority other than 0 */
    if (v[5] && strcmp(v[5], "< inf") != 0)
        ignore(rd, IGN_INVARIANT);
    if (v[6] && !strcmp(v[6], "true"))
        ignore(rd, IGN_URGENT);
    if (v[7] && strcmp(v[7], "0") != 0)
        ignore(rd, IGN_PRIORITY);
    const char *raw = v[0], *aname = v[1];
    const char *amark = kind == PN_PLACE ? v[2] : NULL;
    const char *px = v[3], *py = v[4];
    const char *id = qual(rd, raw);
    if (rd->st)
        return -1;
    if (!raw || !*raw)
        return fail_at(rd, PN_ENOID, line, elem, "<%s> has no id", elem);
    node_ctx_t n = {0};
    n.kind = kind;
    n.tool0 = rd->ntools;
    if (children(rd, node_child, &n) < 0)
        return -1;
    const char *nm = n.name.text ? n.name.text : aname;
    uint64_t marking = 0, capacity = 0;
    if (n.marking.text &&
        number(rd, n.marking.text, n.marking.line, n.marking.text,
               "initial marking", &marking) < 0)
        return -1;
    if (!n.marking.text && amark &&
        number(rd, amark, line, "initialMarking=", "initial marking",
               &marking) < 0)
        return -1;
    if (n.capacity.text &&
        number(rd, n.capacity.text, n.capacity.line, n.capacity.text,
               "capacity", &capacity) < 0)
        return -1;
    size_t index;
    pn_status_t st = kind == PN_PLACE
                         ? pn_net_add_place(rd->net, id, nm, marking, &index)
                         : pn_net_add_transition(rd->net, id, nm, &index);
    if (st == PN_EDUPID || (st == PN_OK && pni_hash_get(&rd->refids, id))) {
        char needle[300];
        snprintf(needle, sizeof needle, "id=\"%s\"", raw);
        return fail_at(rd, PN_EDUPID, line, needle, "duplicate id '%s'", id);
    }
    if (st)
        return fail_at(rd, st, line, elem, "<%s id=\"%s\">: %s", elem, id,
                       pn_strstatus(st));
    if (kind == PN_PLACE && capacity)
        pn_net_set_capacity(rd->net, index, capacity);
    if (!n.pos.has && px && py &&
        parse_double(px, &n.pos.x) == 0 && parse_double(py, &n.pos.y) == 0)
        n.pos.has = 1;
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
    unsigned long line = cur_line(rd);
    const char *raw = attr(rd, "id");
    const char *id = qual(rd, raw);
    const char *ref = qual(rd, attr(rd, "ref"));
    if (rd->st)
        return -1;
    if (!raw || !*raw)
        return fail_at(rd, PN_ENOID, line, elem, "<%s> has no id", elem);
    if (!ref)
        return fail_at(rd, PN_ESTRUCT, line, elem,
                       "<%s id=\"%s\"> has no ref attribute", elem, id);
    pn_object_t k;
    if (pn_net_find(rd->net, id, &k, NULL) == PN_OK ||
        pni_hash_put(&rd->refids, id, 0, rd->nrefs) == PN_EDUPID) {
        char needle[300];
        snprintf(needle, sizeof needle, "id=\"%s\"", raw);
        return fail_at(rd, PN_EDUPID, line, needle, "duplicate id '%s'", id);
    }
    if (pni_grow((void **)&rd->refs, &rd->cap_refs, rd->nrefs + 1,
                 sizeof *rd->refs))
        return nomem(rd);
    rd_ref_t r = {id, ref, is_place, line, 0, PN_PLACE, 0};
    rd->refs[rd->nrefs++] = r;
    return skip(rd);
}

/* ---- arcs -------------------------------------------------------------- */

typedef struct {
    label_t inscription;
    int kind; /* -1: not given */
    const char *kind_text;
    size_t tool0;
} arc_ctx_t;

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
        return read_label(rd, &a->inscription);
    if (!strcmp(name, "type") || !strcmp(name, "arctype")) {
        const char *v = attr(rd, "value");
        if (rd->st)
            return -1;
        if (v) {
            set_kind(rd, a, v);
            return skip(rd);
        }
        label_t lb;
        if (read_label(rd, &lb) < 0)
            return -1;
        if (lb.text)
            set_kind(rd, a, lb.text);
        return 0;
    }
    if (!strcmp(name, "toolspecific"))
        return keep_tool(rd, PN_ARC, rd->narcs);
    if (!strcmp(name, "hlinscription"))
        return unsupported_label(rd, name);
    /* how the arc is drawn (<graphics>, PIPE's <arcpath>, <tagged>) */
    if (!strcmp(name, "name"))
        ignore(rd, IGN_ARCNAME);
    else if (strcmp(name, "graphics") && strcmp(name, "arcpath") &&
             strcmp(name, "tagged"))
        ignore_label(rd, name);
    return skip(rd);
}

static int read_arc(rd_t *rd, const char *elem)
{
    unsigned long line = cur_line(rd);
    int legacy = strcmp(elem, "arc") != 0; /* inputArc, outputArc, ... */
    static const char *const names[] = {"id", "source", "target", "type",
                                        "inscription", "weight"};
    const char *v[6];
    if (attrs(rd, names, v, 6) < 0)
        return -1;
    const char *raw = v[0], *type = v[3], *ains = v[4], *aweight = v[5];
    const char *id = qual(rd, raw);
    const char *src = qual(rd, v[1]);
    const char *tgt = qual(rd, v[2]);
    if (rd->st)
        return -1;
    if (!legacy && (!raw || !*raw))
        return fail_at(rd, PN_ENOID, line, elem, "<%s> has no id", elem);
    if (!src || !tgt)
        return fail_at(rd, PN_ESTRUCT, line, elem,
                       "<%s%s%s%s> has no %s attribute", elem,
                       raw ? " id=\"" : "", raw ? raw : "", raw ? "\"" : "",
                       src ? "target" : "source");
    arc_ctx_t a = {0};
    a.kind = -1;
    a.tool0 = rd->ntools;
    if (!strcmp(elem, "inhibitorArc"))
        a.kind = PN_ARC_INHIBITOR;
    if (type)
        set_kind(rd, &a, type);
    if (children(rd, arc_child, &a) < 0)
        return -1;
    /* TAPAAL: a time interval other than [0,inf), a transport arc */
    if (ains && ains[0] == '[' &&
        !(strncmp(ains, "[0,inf)", 7) == 0 && (!ains[7] || ains[7] == ':')))
        ignore(rd, IGN_INTERVAL);
    if (type && !strcmp(type, "transport"))
        ignore(rd, IGN_TRANSPORT);
    if (a.inscription.inhibitor)
        set_kind(rd, &a, "inhibitor");
    if (a.kind < 0)
        a.kind = PN_ARC_NORMAL;
    if (a.kind_text) {
        char w[300];
        snprintf(w, sizeof w, "%s:%lu: arc '%s': unknown arc type '%s' read "
                 "as %s", rd->name, line, id ? id : "?", a.kind_text,
                 pn_arc_kind_name((pn_arc_kind_t)a.kind));
        if (pn_net_add_warning(rd->net, w))
            return nomem(rd);
    }
    uint64_t weight = 1;
    if (a.inscription.text) {
        if (number(rd, a.inscription.text, a.inscription.line,
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
        return fail_at(rd, PN_EVALUE,
                       a.inscription.text ? a.inscription.line : line,
                       a.inscription.text ? a.inscription.text : elem,
                       "arc weight '0': an arc weight must be at least 1");
    if (pni_grow((void **)&rd->arcs, &rd->cap_arcs, rd->narcs + 1,
                 sizeof *rd->arcs))
        return nomem(rd);
    rd_arc_t r = {raw ? id : NULL, src, tgt, (pn_arc_kind_t)a.kind, weight,
                  line};
    rd->arcs[rd->narcs++] = r;
    return 0;
}

/* ---- our own tool-specific block --------------------------------------- */

static int own_tool_child(rd_t *rd, void *ctx, const char *name)
{
    if (!strcmp(name, "toolspecific"))
        return keep_tool(rd, PN_PAGE, *(size_t *)ctx);
    return skip(rd);
}

static int own_child(rd_t *rd, void *ctx, const char *name)
{
    unsigned long line = cur_line(rd);
    if (!strcmp(name, "pages")) {
        /* the page structure is given here, not by the <page> elements */
        rd->own_pages = 1;
    } else if (!strcmp(name, "page")) {
        const char *id = attr(rd, "id"), *nm = attr(rd, "name");
        const char *parent = attr(rd, "parent");
        if (rd->st)
            return -1;
        size_t par = PN_NONE;
        if (parent) {
            uint64_t v;
            if (number(rd, parent, line, "parent=", "page parent", &v) < 0)
                return -1;
            if (v >= rd->nownpages)
                return fail_at(rd, PN_ESTRUCT, line, "parent=",
                               "page parent %s is not an earlier page",
                               parent);
            par = (size_t)v;
        }
        if (pni_grow((void **)&rd->ownpages, &rd->cap_ownpages,
                     rd->nownpages + 1, sizeof *rd->ownpages))
            return nomem(rd);
        rd_page_t pg = {id, nm, par};
        rd->ownpages[rd->nownpages++] = pg;
    } else if (!strcmp(name, "pagetool")) {
        const char *pg = attr(rd, "page");
        uint64_t v;
        if (rd->st)
            return -1;
        if (!pg)
            return fail_at(rd, PN_ESTRUCT, line, name,
                           "<pagetool> needs a page attribute");
        if (number(rd, pg, line, "page=", "page", &v) < 0)
            return -1;
        if (v >= rd->nownpages)
            return fail_at(rd, PN_ESTRUCT, line, "page=",
                           "<pagetool> names page %s, which is not declared",
                           pg);
        size_t page = (size_t)v;
        return children(rd, own_tool_child, &page);
    } else if (!strcmp(name, "capacity") || !strcmp(name, "member")) {
        const char *node = qual(rd, attr(rd, "node"));
        const char *val = attr(rd, name[0] == 'c' ? "value" : "page");
        if (rd->st)
            return -1;
        if (!node || !val)
            return fail_at(rd, PN_ESTRUCT, line, name,
                           "<%s> needs node and %s attributes", name,
                           name[0] == 'c' ? "value" : "page");
        rd_extra_t e = {node, 0, PN_NONE, line};
        uint64_t v;
        if (number(rd, val, line, val, name, &v) < 0)
            return -1;
        if (name[0] == 'c')
            e.capacity = v;
        else if (v < rd->nownpages)
            e.page = (size_t)v;
        else
            return fail_at(rd, PN_ESTRUCT, line, "page=",
                           "<member> names page %s, which is not declared",
                           val);
        if (pni_grow((void **)&rd->extras, &rd->cap_extras, rd->nextras + 1,
                     sizeof *rd->extras))
            return nomem(rd);
        rd->extras[rd->nextras++] = e;
    }
    return skip(rd);
}

/* ---- pages and nets ---------------------------------------------------- */

static int content_child(rd_t *rd, void *ctx, const char *name);

static int read_page(rd_t *rd)
{
    const char *id = qual(rd, attr(rd, "id"));
    if (rd->st)
        return -1;
    size_t idx, saved = rd->page;
    if (pn_net_add_page(rd->net, id, NULL, rd->page, &idx))
        return nomem(rd);
    rd->page = idx;
    int ret = children(rd, content_child, &idx);
    rd->page = saved;
    return ret;
}

/* A <net> inside a <page>: a WoPeD subprocess.  Its ids get the scope
 * "<page id>/" so that the copies of boundary places it carries do not
 * clash with the parent net's. */
static int read_subnet(rd_t *rd)
{
    const pn_page_t *pg = pn_net_page(rd->net, rd->page);
    const char *pid = pg && pg->id ? pg->id : "sub";
    size_t n = strlen(pid);
    char *scope = malloc(n + 2);
    if (!scope)
        return nomem(rd);
    memcpy(scope, pid, n);
    scope[n] = '/';
    scope[n + 1] = '\0';
    const char *s = pni_arena_strdup(&rd->arena, scope);
    free(scope);
    if (!s)
        return nomem(rd);
    const char *saved = rd->prefix;
    rd->prefix = s;
    size_t page = rd->page;
    int ret = children(rd, content_child, &page);
    rd->prefix = saved;
    return ret;
}

/* Children of a net or page.  ctx: the page index (PN_NONE for the net). */
static int content_child(rd_t *rd, void *ctx, const char *name)
{
    size_t page = *(size_t *)ctx;
    switch (name[0]) {
    case 'p':
        if (!strcmp(name, "place"))
            return read_node(rd, PN_PLACE, name);
        if (!strcmp(name, "page"))
            return read_page(rd);
        break;
    case 't':
        if (!strcmp(name, "transition"))
            return read_node(rd, PN_TRANSITION, name);
        if (!strcmp(name, "toolspecific")) {
            const char *tool = attr(rd, "tool");
            if (rd->st)
                return -1;
            if (tool && !strcmp(tool, PNI_TOOL_NAME) && page == PN_NONE)
                return children(rd, own_child, NULL);
            return keep_tool(rd, page == PN_NONE ? PN_NET : PN_PAGE,
                             page == PN_NONE ? 0 : page);
        }
        break;
    case 'a':
        if (!strcmp(name, "arc"))
            return read_arc(rd, name);
        break;
    case 'q':
        if (!strcmp(name, "query"))
            ignore(rd, IGN_QUERY);
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
        if (!strcmp(name, "name") && page != PN_NONE) {
            label_t lb;
            if (read_label(rd, &lb) < 0)
                return -1;
            if (lb.text && pn_net_set_node_name(rd->net, PN_PAGE, page,
                                                lb.text))
                return nomem(rd);
            return 0;
        }
        if (!strcmp(name, "name")) {
            label_t lb;
            if (read_label(rd, &lb) < 0)
                return -1;
            if (lb.text && pn_net_set_name(rd->net, lb.text))
                return nomem(rd);
            return 0;
        }
        if (!strcmp(name, "net") && page != PN_NONE)
            return read_subnet(rd);
        break;
    case 'd':
        if (!strcmp(name, "declaration") || !strcmp(name, "declarations"))
            return unsupported_label(rd, name);
        break;
    }
    return skip(rd);
}

/* The node an id (node or reference node) stands for. */
static int resolve(rd_t *rd, const char *id, pn_object_t *kind, size_t *index)
{
    if (pn_net_find(rd->net, id, kind, index) == PN_OK)
        return *kind == PN_ARC ? 1 : 0;
    const pni_hentry_t *e = pni_hash_get(&rd->refids, id);
    if (!e)
        return 1;
    rd_ref_t *r = &rd->refs[e->index];
    if (r->state == 2) {
        *kind = r->kind;
        *index = r->index;
        return 0;
    }
    if (r->state == 1)
        return fail_at(rd, PN_EREFCYCLE, r->line, r->id,
                       "reference node '%s' is part of a cycle of references",
                       r->id);
    r->state = 1;
    int ret = resolve(rd, r->ref, kind, index);
    if (ret < 0)
        return -1;
    if (ret > 0)
        return fail_at(rd, PN_EUNKNOWN, r->line, "ref=",
                       "reference node '%s' refers to '%s', which is no "
                       "node", r->id, r->ref);
    if ((*kind == PN_PLACE) != (r->is_place != 0))
        return fail_at(rd, PN_EARC, r->line, "ref=",
                       "%s '%s' refers to '%s', which is a %s",
                       r->is_place ? "referencePlace" : "referenceTransition",
                       r->id, r->ref,
                       *kind == PN_PLACE ? "place" : "transition");
    r->state = 2;
    r->kind = *kind;
    r->index = *index;
    return 0;
}

/* Whether an earlier arc has this id.  Nothing refers to arc ids, and real
 * exports reuse them (WoPeD's), so a repeated arc id is renamed with a
 * warning; an arc id that a node has stays an error. */
static int arc_id_taken(rd_t *rd, const char *id)
{
    pn_object_t k;
    return pn_net_find(rd->net, id, &k, NULL) == PN_OK && k == PN_ARC;
}

/* A fresh id for a later arc with a repeated id ("a25" -> "a25_2"), and
 * the warning that says so; NULL (rd->st set) when out of memory. */
static const char *renamed_arc_id(rd_t *rd, const rd_arc_t *a)
{
    char buf[512];
    for (unsigned long k = 2;; k++) {
        snprintf(buf, sizeof buf, "%s_%lu", a->id, k);
        if (pn_net_find(rd->net, buf, NULL, NULL) != PN_OK)
            break;
    }
    char w[1200];
    snprintf(w, sizeof w, "%s:%lu: arc id '%s' is used by an earlier arc: "
             "this arc is renamed '%s'", rd->name, a->line, a->id, buf);
    const char *id = pni_arena_strdup(&rd->arena, buf);
    if (!id || pn_net_add_warning(rd->net, w)) {
        nomem(rd);
        return NULL;
    }
    return id;
}

static int finish_net(rd_t *rd)
{
    pn_object_t k;
    size_t idx;
    /* reference chains are checked even when no arc uses them; the walk is
     * iterative per chain through the state marks, so depth is bounded by
     * the number of reference nodes */
    for (size_t i = 0; i < rd->nrefs; i++)
        if (rd->refs[i].state != 2 && resolve(rd, rd->refs[i].id, &k, &idx))
            return -1;
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
            char needle[300];
            snprintf(needle, sizeof needle, "%s=", which);
            return fail_at(rd, PN_EUNKNOWN, a->line, needle,
                           "arc%s%s%s: %s '%s' is no place or transition",
                           a->id ? " '" : "", a->id ? a->id : "",
                           a->id ? "'" : "", which, rs ? a->source : a->target);
        }
        if (ks == kt)
            return fail_at(rd, PN_EARC, a->line, "source=",
                           "arc%s%s%s joins two %s ('%s' and '%s')",
                           a->id ? " '" : "", a->id ? a->id : "",
                           a->id ? "'" : "",
                           ks == PN_PLACE ? "places" : "transitions",
                           a->source, a->target);
        pn_arc_dir_t dir = ks == PN_PLACE ? PN_DIR_PT : PN_DIR_TP;
        if (a->kind != PN_ARC_NORMAL && dir != PN_DIR_PT)
            return fail_at(rd, PN_EARC, a->line, "source=",
                           "%s arc%s%s%s goes from a transition to a place; "
                           "it must go from a place to a transition",
                           pn_arc_kind_name(a->kind), a->id ? " '" : "",
                           a->id ? a->id : "", a->id ? "'" : "");
        const char *id = a->id;
        if (id && arc_id_taken(rd, id) && !(id = renamed_arc_id(rd, a)))
            return -1;
        pn_status_t st = pn_net_add_arc_at(
            rd->net, id, dir, dir == PN_DIR_PT ? is : it,
            dir == PN_DIR_PT ? it : is, a->weight, a->kind, NULL);
        if (st == PN_EDUPID)
            return fail_at(rd, PN_EDUPID, a->line, "id=",
                           "duplicate id '%s'", a->id);
        if (st)
            return fail_at(rd, st, a->line, "<", "arc: %s", pn_strstatus(st));
    }
    if (rd->own_pages) {
        pni_net_clear_pages(rd->net);
        for (size_t i = 0; i < rd->nownpages; i++)
            if (pn_net_add_page(rd->net, rd->ownpages[i].id,
                                rd->ownpages[i].name, rd->ownpages[i].parent,
                                NULL))
                return nomem(rd);
    }
    for (size_t i = 0; i < rd->nextras; i++) {
        rd_extra_t *e = &rd->extras[i];
        if (pn_net_find(rd->net, e->node, &k, &idx) || k == PN_ARC ||
            (e->page == PN_NONE && k != PN_PLACE))
            return fail_at(rd, PN_EUNKNOWN, e->line, "node=",
                           "'%s' names no %s", e->node,
                           e->page == PN_NONE ? "place" : "node");
        if (e->page == PN_NONE)
            pn_net_set_capacity(rd->net, idx, e->capacity);
        else if (rd->own_pages)
            pn_net_set_page(rd->net, k, idx, e->page);
    }
    for (size_t i = 0; i < rd->ntools; i++) {
        rd_tool_t *t = &rd->tools[i];
        if (t->index == PN_NONE)
            continue;
        if (pn_net_add_toolspecific(rd->net, t->owner, t->index, t->tool,
                                    t->version, t->xml))
            return nomem(rd);
    }
    return 0;
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

static int read_net(rd_t *rd)
{
    unsigned long line = cur_line(rd);
    const char *id = attr(rd, "id"), *type = attr(rd, "type");
    if (rd->st)
        return -1;
    /* a net without an id is accepted (PIPE writes some): it is only a
     * name for the whole document */
    if (high_level_type(type))
        return fail_at(rd, PN_EUNSUPPORTED, line, "type=",
                       "unsupported net type '%s' (only place/transition "
                       "nets are read)", type);
    rd->net = pn_net_new(id && *id ? id : NULL);
    if (!rd->net || (type && pn_net_set_type(rd->net, type)))
        return nomem(rd);
    if (!id || !*id) {
        char w[PN_ERROR_FILE_MAX + 64];
        snprintf(w, sizeof w, "%s:%lu: <net> has no id", rd->name, line);
        if (pn_net_add_warning(rd->net, w))
            return nomem(rd);
    }
    size_t page = PN_NONE;
    if (children(rd, content_child, &page) < 0)
        return -1;
    return finish_net(rd);
}

static int pnml_child(rd_t *rd, void *ctx, const char *name)
{
    if (!strcmp(name, "query"))
        ignore(rd, IGN_QUERY);
    if (strcmp(name, "net") != 0)
        return skip(rd);
    xmlChar *id = xmlTextReaderGetAttribute(rd->r, (const xmlChar *)"id");
    size_t n = strlen(rd->netids);
    if (n + 8 < sizeof rd->netids)
        snprintf(rd->netids + n, sizeof rd->netids - n, "%s'%s'",
                 rd->nnets ? ", " : "", id ? (const char *)id : "");
    rd->nnets++;
    int match = !rd->found && (!rd->want || (id && !strcmp((const char *)id,
                                                           rd->want)));
    xmlFree(id);
    if (!match)
        return skip(rd);
    rd->found = 1;
    return read_net(rd);
}

/* "ignored: 12 time intervals, 1 query": what the net read does not say. */
static int warn_ignored(rd_t *rd)
{
    char w[1200];
    size_t n = (size_t)snprintf(w, sizeof w, "%s: ignored:", rd->name);
    int any = 0;
    for (int k = 0; k < IGN_COUNT && n < sizeof w; k++) {
        if (!rd->ignored[k])
            continue;
        n += (size_t)snprintf(w + n, sizeof w - n, "%s %zu %s%s%s%s",
                              any ? "," : "", rd->ignored[k],
                              ignored_what[k][rd->ignored[k] > 1],
                              k == IGN_LABEL ? " (" : "",
                              k == IGN_LABEL ? rd->unknown : "",
                              k == IGN_LABEL ? ")" : "");
        any = 1;
    }
    if (!any)
        return 0;
    return pn_net_add_warning(rd->net, w) ? nomem(rd) : 0;
}

/* A document with several nets: say which one was read, so that nobody
 * takes it for the whole file. */
static int warn_other_nets(rd_t *rd)
{
    if (rd->nnets < 2 || !rd->net)
        return 0;
    char w[600];
    snprintf(w, sizeof w, "%s: the document holds %zu nets (%s); this is "
             "'%s', read the others by their ids", rd->name, rd->nnets,
             rd->netids, pn_net_id(rd->net) ? pn_net_id(rd->net) : "");
    return pn_net_add_warning(rd->net, w) ? nomem(rd) : 0;
}

static void rd_free(rd_t *rd)
{
    pni_arena_free(&rd->arena);
    pni_hash_free(&rd->refids);
    free(rd->arcs);
    free(rd->refs);
    free(rd->tools);
    free(rd->extras);
    free(rd->ownpages);
    free(rd->text);
    free(rd->owned);
}

/* Reads from buf (len bytes) or, when path is given, streams that file. */
static pn_status_t read_doc(const char *buf, size_t len, const char *path,
                            const char *name, const pn_read_options_t *opts,
                            pn_net_t **net_out, pn_error_t *err)
{
    rd_t rd = {0};
    rd.buf = buf;
    rd.len = len;
    rd.path = path;
    rd.name = err->file;
    rd.err = err;
    rd.want = opts ? opts->net_id : NULL;
    rd.prefix = "";
    rd.page = PN_NONE;
    pni_arena_init(&rd.arena);
    pni_hash_init(&rd.refids);
    const int options = XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                        XML_PARSE_COMPACT;
    int fd = -1;
    if (path) {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat sb;
        if (fd < 0 || fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode)) {
            int e = fd < 0 ? errno : EISDIR;
            fail_at(&rd, PN_EIO, 0, NULL, "cannot read: %s", strerror(e));
            goto done;
        }
        if (sb.st_size == 0 && S_ISREG(sb.st_mode)) {
            fail_at(&rd, PN_EXML, 1, NULL,
                    "malformed XML: the document is empty");
            goto done;
        }
        rd.r = xmlReaderForFd(fd, NULL, NULL, options);
    } else {
        size_t lead = 0;
        while (lead < len && (buf[lead] == ' ' || buf[lead] == '\t' ||
                              buf[lead] == '\r' || buf[lead] == '\n'))
            lead++;
        if (lead == len) {
            fail_at(&rd, PN_EXML, 1, NULL,
                    "malformed XML: the document is empty");
            goto done;
        }
        rd.r = xmlReaderForMemory(buf, (int)len, NULL, NULL, options);
    }
    if (!rd.r) {
        fail_at(&rd, PN_ENOMEM, 0, NULL, "out of memory");
        goto done;
    }
    xmlTextReaderSetStructuredErrorHandler(rd.r, on_xml_error, &rd);
    /* the root element */
    for (;;) {
        int ret = xmlTextReaderRead(rd.r);
        if (ret != 1) {
            if (rd.st == PN_OK)
                fail_at(&rd, PN_EXML, 1, NULL,
                        ret == 0 ? "malformed XML: no root element"
                                 : "malformed XML");
            goto done;
        }
        if (xmlTextReaderNodeType(rd.r) == XML_READER_TYPE_ELEMENT)
            break;
    }
    if (strcmp(lname(&rd), "pnml") != 0) {
        fail_at(&rd, PN_ESTRUCT, cur_line(&rd), "<",
                "root element is <%s>, not <pnml>", lname(&rd));
        goto done;
    }
    if (children(&rd, pnml_child, NULL) < 0)
        goto done;
    /* the rest of the document must be well-formed too */
    while (rd.st == PN_OK) {
        int ret = xmlTextReaderRead(rd.r);
        if (ret == 0)
            break;
        if (ret < 0 && rd.st == PN_OK)
            fail_at(&rd, PN_EXML, (unsigned long)
                    xmlTextReaderGetParserLineNumber(rd.r), NULL,
                    "malformed XML");
    }
    if (rd.st == PN_OK && rd.found)
        warn_other_nets(&rd);
    if (rd.st == PN_OK && rd.found)
        warn_ignored(&rd);
    if (rd.st == PN_OK && !rd.found) {
        if (rd.want)
            fail_at(&rd, PN_ENONET, 0, NULL, "no <net> with id '%s'", rd.want);
        else
            fail_at(&rd, PN_ENONET, 0, NULL, "the document has no <net>");
    }
done:
    if (rd.r)
        xmlFreeTextReader(rd.r);
    if (fd >= 0)
        close(fd);
    if (rd.st == PN_OK) {
        *net_out = rd.net;
        rd.net = NULL;
    }
    pn_net_free(rd.net);
    rd_free(&rd);
    return rd.st;
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
    if (len > INT32_MAX)
        return pni_error(err, PN_EIO, 0, 0, "file too large (2 GiB at most)");
    return read_doc(buf ? buf : "", len, NULL, name, opts, net_out, err);
}

pn_status_t pn_pnml_read_file(const char *path, const pn_read_options_t *opts,
                              pn_net_t **net_out, pn_error_t *err)
{
    pn_error_t dummy;
    if (!err)
        err = &dummy;
    if (net_out)
        *net_out = NULL;
    pni_error_begin(err, path && !strcmp(path, "-") ? "<stdin>" : path);
    if (!path || !net_out)
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    if (strcmp(path, "-") != 0)
        return read_doc(NULL, 0, path, path, opts, net_out, err);
    /* standard input is read whole: it cannot be read twice */
    char *buf = NULL;
    size_t len = 0;
    pn_status_t st = pni_slurp(NULL, &buf, &len);
    if (st)
        return pni_error(err, st, 0, 0, "cannot read: %s",
                         st == PN_ENOMEM ? "out of memory" : strerror(errno));
    st = pn_pnml_read_memory(buf, len, "<stdin>", opts, net_out, err);
    free(buf);
    return st;
}
