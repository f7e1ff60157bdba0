/*
 * The PNML reader's side of libxml2: the SAX2 events, the per-object trees
 * collected from them, errors and positions, and libxml2's errors in the
 * reader's words.
 *
 * The document goes through libxml2's push parser in blocks: files, named
 * pipes and standard input are streamed, and nothing is read twice.  The
 * structure elements (<pnml>, <net>, <page>, a WoPeD subnet) are handed to
 * reader.c as their tags arrive, and so is a tool-specific block of a net
 * or a page, to toolspecific.c (written out as its events come: the NUPN
 * blocks of MCC models run to thousands of lines).  Every other child of a
 * net or a page (a place, a transition, an arc, a reference node, our own
 * block, a label) is collected as a small tree of its own and handed, when
 * its end tag arrives, to objects.c, which walks it with
 * pni_rd_children(), pni_rd_attrs() and pni_rd_text_of().  The tree is
 * dropped right after: the memory used is the net's and that of the
 * largest such element.
 *
 * Memory is time here: on the machines this is measured on, a first touch
 * of a 4 KiB page costs some 17 us (the parse of 4 KiB of PNML costs less),
 * so the reader reads in small blocks and keeps no copy it can avoid.
 *
 * Positions come from the parser: the line and column of an element's '<',
 * or of a word inside its start tag or its text (columns count
 * characters).  Entities are never expanded and nothing is fetched.
 */
#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include "reader_private.h"

/* ---- errors and positions ---------------------------------------------- */

/* at moved over the characters [from, to). */
static at_t advance(at_t at, const char *from, const char *to)
{
    for (; from < to; from++) {
        if (*from == '\n') {
            at.line++;
            at.col = 1;
        } else if (((unsigned char)*from & 0xC0) != 0x80) {
            at.col++;
        }
    }
    return at;
}

static const char *find(const char *hay, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; k && i + k <= n; i++)
        if (hay[i] == needle[0] && !memcmp(hay + i, needle, k))
            return hay + i;
    return NULL;
}

static int chars(const xmlChar *a, const xmlChar *b);

/* The column of e's '<': counted back from a known column only when an
 * error asks for it. */
static unsigned long el_col(const el_t *e)
{
    if (e->col || !e->text)
        return e->col;
    const xmlChar *t = (const xmlChar *)e->text;
    long c = (long)e->ccol - chars(t, t + e->coff);
    return c > 0 ? (unsigned long)c : 1;
}

/* Where needle is in e's start tag, else in its leading text, else e's
 * '<' (e NULL: no position). */
at_t pni_rd_where(const el_t *e, const char *needle)
{
    at_t none = {0, 0};
    if (!e)
        return none;
    at_t at = {e->line, el_col(e)};
    if (!needle || !*needle || !e->text)
        return at;
    const char *hit = find(e->text, e->ntext, needle);
    if (hit)
        return advance(at, e->text, hit);
    const el_t *t = e->first;
    if (t && !t->name && (hit = find(t->text, t->ntext, needle))) {
        at_t a = {e->tline, e->tcol};
        return advance(a, t->text, hit);
    }
    return at;
}

/* Where needle is in e's leading text, else as pni_rd_where() finds it: for
 * errors about the text itself. */
at_t pni_rd_where_text(const el_t *e, const char *needle)
{
    const el_t *t = e ? e->first : NULL;
    const char *hit;
    if (t && !t->name && needle && *needle &&
        (hit = find(t->text, t->ntext, needle))) {
        at_t a = {e->tline, e->tcol};
        return advance(a, t->text, hit);
    }
    return pni_rd_where(e, needle);
}

static int failv(rd_t *rd, pn_status_t code, at_t at, const char *fmt,
                 va_list ap)
{
    if (rd->diag.st != PN_OK)
        return -1;
    rd->diag.st = code;
    char text[PN_ERROR_TEXT_MAX];
    vsnprintf(text, sizeof text, fmt, ap);
    pni_error(rd->diag.err, code, at.line, at.line ? (at.col ? at.col : 1) : 0,
              "%s", text);
    /* stop the parser, unless libxml2 itself is reporting: it may still be
     * using its input (stopping it frees that) and stops on its own */
    if (rd->xml.ctxt && !rd->xml.in_xml_error)
        xmlStopParser(rd->xml.ctxt);
    return -1;
}

int pni_rd_fail(rd_t *rd, pn_status_t code, at_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failv(rd, code, at, fmt, ap);
    va_end(ap);
    return -1;
}

/* An error at needle in e (see pni_rd_where()). */
int pni_rd_fail_at(rd_t *rd, pn_status_t code, const el_t *e,
                   const char *needle, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failv(rd, code, pni_rd_where(e, needle), fmt, ap);
    va_end(ap);
    return -1;
}

int pni_rd_nomem(rd_t *rd)
{
    return pni_rd_fail_at(rd, PN_ENOMEM, NULL, NULL, "out of memory");
}

/* Whether an error the parser meets only at the end of the input says
 * that the document stops unfinished: in a start or end tag, an
 * attribute, the XML declaration, a comment, a CDATA section, or between
 * elements.  (Complete constructs are parsed before the end; what the
 * parser holds back to the end is text, whose errors are not these.) */
static int cut_short(int code)
{
    switch (code) {
    case XML_ERR_DOCUMENT_END:
    case XML_ERR_DOCUMENT_EMPTY:
    case XML_ERR_TAG_NOT_FINISHED:
    case XML_ERR_GT_REQUIRED:
    case XML_ERR_LTSLASH_REQUIRED:
    case XML_ERR_TAG_NAME_MISMATCH:
    case XML_ERR_EQUAL_REQUIRED:
    case XML_ERR_SPACE_REQUIRED:
    case XML_ERR_ATTRIBUTE_NOT_STARTED:
    case XML_ERR_ATTRIBUTE_NOT_FINISHED:
    case XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
    case XML_ERR_LITERAL_NOT_FINISHED:
    case XML_ERR_STRING_NOT_STARTED:
    case XML_ERR_STRING_NOT_CLOSED:
    case XML_ERR_XMLDECL_NOT_FINISHED:
    case XML_ERR_VERSION_MISSING:
    case XML_ERR_COMMENT_NOT_FINISHED:
    case XML_ERR_CDATA_NOT_FINISHED:
    case XML_ERR_PI_NOT_FINISHED:
    case XML_ERR_DOCTYPE_NOT_FINISHED:
        return 1;
    default:
        return 0;
    }
}

/* The error libxml2 gives its structured-error handler: const from
 * libxml2 2.12 on. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_t;
#else
typedef xmlErrorPtr xml_error_t;
#endif

/* libxml2's error in plain words where libxml2's are jargon: msg, which
 * holds libxml2's text, is rewritten.  The errors are told apart by their
 * code, and where a code stands for other errors as well, by what libxml2
 * gives with it: its detail, or, where nothing else differs, its text
 * (said at each). */
static void plain_words(const rd_t *rd, xmlParserCtxtPtr ctxt, xml_error_t e,
                        char *msg, size_t size)
{
    static const char utf8[] = "Input is not proper UTF-8";
    switch (e->code) {
    case XML_ERR_INVALID_CHAR:
        /* input that is not UTF-8 has the code of a character XML forbids
         * ("Char 0x0 out of allowed range"), and near the end of the input
         * the same fields: only the text tells them apart.  The bytes, when
         * given, are the detail ("Bytes: 0xFF 0xFE 0x62 0x3C"). */
        if (!strncmp(msg, utf8, sizeof utf8 - 1)) {
            const char *bytes = e->str1 ? strstr(e->str1, "0x") : NULL;
            char b[40] = "";
            if (bytes)
                snprintf(b, sizeof b, " (%.*s)", (int)strcspn(bytes, "\n"),
                         bytes);
            snprintf(msg, size, "the text is not valid UTF-8%s and the "
                     "file declares no other encoding", b);
        }
        break;
    case XML_ERR_ENTITY_LOOP: {
        /* in an element's text, the element is said (in a start tag, the
         * element is not reported yet: the position says where) */
        int named = rd->xml.nopened && ctxt->instate == XML_PARSER_CONTENT;
        snprintf(msg, size, "an entity%s%.60s%s expands without end "
                 "or past what is allowed (an entity bomb): refused",
                 named ? " used in <" : "",
                 named ? rd->xml.opened[rd->xml.nopened - 1].name : "",
                 named ? ">" : "");
        break;
    }
    case XML_ERR_NAME_REQUIRED:
        /* the code of every missing name (of an element, an attribute, a
         * processing instruction, an entity...), with no detail: only the
         * text says that it is an entity reference's
         * ("xmlParseEntityRef: no name") */
        if (strstr(msg, "EntityRef"))
            snprintf(msg, size, "a '&' that starts no entity reference "
                     "(write &amp; for the character &)");
        break;
    case XML_ERR_ENTITYREF_SEMICOL_MISSING:
        snprintf(msg, size, "an entity reference without its ';' "
                 "(write &amp; for the character &)");
        break;
    case XML_ERR_INTERNAL_ERROR:
    case XML_ERR_NO_MEMORY:
        /* the input's limit has the code of libxml2's own faults (and in
         * 2.12, in one place, that of running out of memory): only its
         * detail says that it is the limit */
        if (e->str1 && !strcmp(e->str1, "Huge input lookup"))
            snprintf(msg, size, "a single value, text or name longer than "
                     "10,000,000 bytes (the most the reader takes)");
        break;
    default:
        break;
    }
}

static void on_xml_error(void *arg, xml_error_t e)
{
    xmlParserCtxtPtr ctxt = arg;
    rd_t *rd = ctxt ? ctxt->_private : NULL;
    if (!rd || !e || e->level == XML_ERR_WARNING || rd->diag.st != PN_OK)
        return;
    char msg[400];
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "XML error");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    /* libxml2's wording where it is jargon, on one line */
    plain_words(rd, ctxt, e, msg, sizeof msg);
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    at_t at = {e->line > 0 ? (unsigned long)e->line : 0,
               e->int2 > 0 ? (unsigned long)e->int2 : 0};
    /* in an entity's text: where the document refers to it */
    if (ctxt->inputNr > 1 && ctxt->inputTab[0]) {
        xmlParserInputPtr in = ctxt->inputTab[0];
        at.line = in->line > 0 ? (unsigned long)in->line : 0;
        at.col = in->col > 0 ? (unsigned long)in->col : 0;
    }
    /* an entity bomb is found while its text is expanded, with the
     * position of that text: the element where it is used is said */
    if (e->code == XML_ERR_ENTITY_LOOP && rd->xml.nopened &&
        ctxt->instate == XML_PARSER_CONTENT)
        at = (at_t){rd->xml.opened[rd->xml.nopened - 1].line, 0};
    rd->xml.in_xml_error = 1;
    /* an error met only once the input has ended, with elements still
     * open, that says the document is unfinished is a file cut short:
     * libxml2 says "Extra content at the end of the document", "Premature
     * end of data", or "Couldn't find end of Start Tag" when the cut is
     * in a start tag (the element was opened at the end of the input);
     * other errors met then (the parser holds back a '&' and what follows
     * it until the end) are said as they are */
    if (rd->xml.at_end && cut_short(e->code)) {
        /* cut in a start tag: libxml2 has reported the element opened,
         * at the end of the input */
        int in_tag = e->code == XML_ERR_GT_REQUIRED &&
                     rd->xml.nopened > rd->xml.nopened_end;
        const rd_open_t *t =
            in_tag ? &rd->xml.opened[rd->xml.nopened - 1] : NULL;
        const rd_open_t *o =
            rd->xml.nopened > (size_t)in_tag
                ? &rd->xml.opened[rd->xml.nopened - 1 - in_tag]
                : NULL;
        char what[160] = ":";
        if (t)
            snprintf(what, sizeof what, " in the start tag of <%.60s>%s",
                     t->name, o ? ";" : "");
        if (o)
            pni_rd_fail(rd, PN_EXML, at, "malformed XML: unexpected end of "
                        "file%s <%s> opened at line %lu is not closed", what,
                        o->name, o->line);
        else
            pni_rd_fail(rd, PN_EXML, at, "malformed XML: unexpected end of "
                        "file%s", in_tag ? what : "");
    } else {
        pni_rd_fail(rd, PN_EXML, at, "malformed XML: %s", msg);
    }
    rd->xml.in_xml_error = 0;
}

/* ---- the collected tree, as the handlers see it ------------------------ */

void *pni_rd_talloc(rd_t *rd, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > TCHUNK / 4) {
        tchunk_t *b = malloc(sizeof *b + n);
        if (!b)
            return NULL;
        b->size = n;
        b->next = rd->tree.tbig;
        rd->tree.tbig = b;
        return b->data;
    }
    if (!rd->tree.tcur || TCHUNK - rd->tree.tused < n) {
        tchunk_t *c = rd->tree.tcur ? rd->tree.tcur->next : rd->tree.tchunks;
        if (!c) {
            if (!(c = malloc(sizeof *c + TCHUNK)))
                return NULL;
            c->size = TCHUNK;
            c->next = NULL;
            if (rd->tree.tcur)
                rd->tree.tcur->next = c;
            else
                rd->tree.tchunks = c;
        }
        rd->tree.tcur = c;
        rd->tree.tused = 0;
    }
    void *p = rd->tree.tcur->data + rd->tree.tused;
    rd->tree.tused += n;
    return p;
}

char *pni_rd_tstrndup(rd_t *rd, const char *s, size_t n)
{
    char *p = pni_rd_talloc(rd, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Drops the tree (its memory is kept for the next one). */
static void treset(rd_t *rd)
{
    while (rd->tree.tbig) {
        tchunk_t *n = rd->tree.tbig->next;
        free(rd->tree.tbig);
        rd->tree.tbig = n;
    }
    rd->tree.tcur = NULL;
    rd->tree.tused = 0;
    rd->tree.top = rd->tree.open = NULL;
}

static void tfree(rd_t *rd)
{
    treset(rd);
    while (rd->tree.tchunks) {
        tchunk_t *n = rd->tree.tchunks->next;
        free(rd->tree.tchunks);
        rd->tree.tchunks = n;
    }
}

/* The text content of the current element (its text and CDATA children,
 * nested elements left out) in rd->tree.text, valid as long as the tree. */
int pni_rd_text_of(rd_t *rd)
{
    const el_t *e = rd->tree.cur;
    size_t n = 0, pieces = 0;
    const el_t *one = NULL;
    for (const el_t *c = e->first; c; c = c->next)
        if (!c->name) {
            n += c->ntext;
            pieces++;
            one = c;
        }
    if (pieces <= 1) {
        rd->tree.text = one ? one->text : "";
        rd->tree.ntext = one ? one->ntext : 0;
        return 0;
    }
    char *t = pni_rd_talloc(rd, n + 1);
    if (!t)
        return pni_rd_nomem(rd);
    size_t k = 0;
    for (const el_t *c = e->first; c; c = c->next)
        if (!c->name) {
            memcpy(t + k, c->text, c->ntext);
            k += c->ntext;
        }
    t[k] = '\0';
    rd->tree.text = t;
    rd->tree.ntext = k;
    return 0;
}

/* The value of an attribute of the current element, valid as long as the
 * tree (pni_rd_keep() what must last). */
const char *pni_rd_attr(rd_t *rd, const char *name)
{
    const el_t *e = rd->tree.cur;
    for (int i = 0; i < e->nattr; i++)
        if (!strcmp(e->att[4 * i], name))
            return e->att[4 * i + 3];
    return NULL;
}

/* Several attributes in one pass: out[k] gets the value of names[k] or
 * NULL. */
int pni_rd_attrs(rd_t *rd, const char *const *names, const char **out, int n)
{
    const el_t *e = rd->tree.cur;
    for (int k = 0; k < n; k++)
        out[k] = NULL;
    for (int i = 0; i < e->nattr; i++) {
        const char *name = e->att[4 * i];
        for (int k = 0; k < n; k++)
            if (!out[k] && name[0] == names[k][0] && !strcmp(name, names[k])) {
                out[k] = e->att[4 * i + 3];
                break;
            }
    }
    return 0;
}


/* ---- SAX2 events ------------------------------------------------------- */

/* The reader behind a parser context; NULL for the contexts libxml2 makes
 * to check an entity's text (their events are not the document's). */
static rd_t *reader_of(void *ctx)
{
    xmlParserCtxtPtr ctxt = ctx;
    rd_t *rd = ctxt ? ctxt->_private : NULL;
    return rd && rd->xml.ctxt == ctxt && rd->diag.st == PN_OK ? rd : NULL;
}

/* Characters (not bytes) of UTF-8 text in [a, b): the bytes less the
 * continuation bytes (10xxxxxx), counted 8 bytes at a time. */
static int chars(const xmlChar *a, const xmlChar *b)
{
    size_t n = (size_t)(b - a), cont = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, a + i, 8);
        cont += (size_t)__builtin_popcountll(w & ~(w << 1) &
                                             UINT64_C(0x8080808080808080));
    }
    for (; i < n; i++)
        cont += (a[i] & 0xC0) == 0x80;
    return (int)(n - cont);
}

/* The start tag the parser stands on (at its '>' or '/>'): copied, with
 * the position of its '<' and of what follows it. */
static int take_tag(rd_t *rd, el_t *e)
{
    xmlParserInputPtr in = rd->xml.ctxt->input;
    const xmlChar *cur = in->cur, *base = in->base, *end = in->end;
    /* the last '<' at or before cur (base when none) */
    const xmlChar *lt = memrchr(base, '<', (size_t)(cur - base) + (cur < end));
    if (!lt)
        lt = base;
    const xmlChar *stop = cur;
    if (stop < end && *stop == '/')
        stop++;
    if (stop < end && *stop == '>')
        stop++;
    unsigned long line = in->line > 0 ? (unsigned long)in->line : 0;
    unsigned long col = in->col > 0 ? (unsigned long)in->col : 1;
    e->tline = line;
    e->tcol = col + (unsigned long)(stop - cur);
    if (*lt != '<') {
        e->text = "";
        e->ntext = 0;
        e->line = line;
        e->col = col;
        return 0;
    }
    unsigned long nl = 0;
    if (memchr(lt, '\n', (size_t)(cur - lt)))
        for (const xmlChar *p = lt; p < cur; p++)
            nl += *p == '\n';
    e->line = line > nl ? line - nl : 1;
    if (!nl) {
        /* the column of '<' is col less the characters up to cur: counted
         * in the copy when needed */
        e->col = 0;
        e->ccol = col;
        e->coff = (size_t)(cur - lt);
    } else {
        const xmlChar *q = lt;
        while (q > base && q[-1] != '\n')
            q--;
        e->col = 1 + (unsigned long)chars(q, lt);
    }
    e->ntext = (size_t)(stop - lt);
    e->text = pni_rd_tstrndup(rd, (const char *)lt, e->ntext);
    return e->text ? 0 : pni_rd_nomem(rd);
}

/* The text run of the open element, as a text node. */
static int close_run(rd_t *rd)
{
    if (!rd->tree.run.n || !rd->tree.open)
        return 0;
    el_t *t = pni_rd_talloc(rd, sizeof *t);
    if (!t ||
        !(t->text = pni_rd_tstrndup(rd, rd->tree.run.s, rd->tree.run.n)))
        return pni_rd_nomem(rd);
    memset(t, 0, offsetof(el_t, text));
    t->ntext = rd->tree.run.n;
    t->first = t->last = t->next = NULL;
    t->parent = rd->tree.open;
    t->line = t->col = t->tline = t->tcol = 0;
    t->cdata = rd->tree.run_cdata;
    if (rd->tree.open->last)
        rd->tree.open->last->next = t;
    else
        rd->tree.open->first = t;
    rd->tree.open->last = t;
    pni_sb_truncate(&rd->tree.run, 0);
    return 0;
}

/* The common arc, <arc id="a" source="p" target="t"/> with both ends
 * known, added as its start tag arrives: no tree, no copies.  Anything
 * else (other attributes that matter, an entity in a value, children, a
 * scope, an end that is not known yet or is an arc, a reference node, a
 * repeated id, any error) returns 0 and nothing is done: the arc is then
 * collected and read by read_arc() (objects.c) as usual, which says what
 * is wrong where.  1: the arc is added (its end tag is to be ignored). */
static int fast_arc(rd_t *rd, const xmlChar *localname, int nb_namespaces,
                    int nb_attributes, const xmlChar **attributes)
{
    if (localname[0] != 'a' || strcmp((const char *)localname, "arc") ||
        nb_namespaces || rd->deferring || rd->nrefs || *rd->prefix)
        return 0;
    xmlParserInputPtr in = rd->xml.ctxt->input;
    if (!(in->cur < in->end && *in->cur == '/'))
        return 0; /* not an empty element: it may have labels */
    const xmlChar *v[3][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attributes + 5 * i;
        const char *name = (const char *)a[0];
        int k = !strcmp(name, "id")       ? 0
                : !strcmp(name, "source") ? 1
                : !strcmp(name, "target") ? 2
                : -1;
        if (k < 0) {
            if (!strcmp(name, "type") || !strcmp(name, "inscription") ||
                !strcmp(name, "weight"))
                return 0;
            continue;
        }
        if (!v[k][0]) {
            v[k][0] = a[3];
            v[k][1] = a[4];
        }
    }
    char buf[3][128];
    for (int k = 0; k < 3; k++) {
        size_t n = v[k][0] ? (size_t)(v[k][1] - v[k][0]) : 0;
        if (!v[k][0] || !n || n >= sizeof buf[k] || memchr(v[k][0], '&', n))
            return 0;
        memcpy(buf[k], v[k][0], n);
        buf[k][n] = '\0';
    }
    pn_object_t ks, kt;
    size_t is, it;
    if (pn_net_find(rd->net, buf[1], &ks, &is) != PN_OK || ks == PN_ARC ||
        pn_net_find(rd->net, buf[2], &kt, &it) != PN_OK || kt == PN_ARC ||
        ks == kt)
        return 0;
    pn_arc_dir_t dir = ks == PN_PLACE ? PN_DIR_PT : PN_DIR_TP;
    if (pn_net_add_arc_at(rd->net, buf[0], dir, dir == PN_DIR_PT ? is : it,
                          dir == PN_DIR_PT ? it : is, 1, PN_ARC_NORMAL,
                          NULL) != PN_OK)
        return 0;
    rd->xml.fast_end = 1;
    return 1;
}

static el_t *new_element(rd_t *rd, const xmlChar *localname,
                         const xmlChar *prefix, const xmlChar *uri,
                         int nb_namespaces, const xmlChar **namespaces,
                         int nb_attributes, const xmlChar **attributes)
{
    el_t *e = pni_rd_talloc(rd, sizeof *e);
    if (!e) {
        pni_rd_nomem(rd);
        return NULL;
    }
    memset(e, 0, sizeof *e);
    e->name = (const char *)localname;
    e->prefix = (const char *)prefix;
    e->uri = (const char *)uri;
    if (nb_namespaces > 0) {
        if (!(e->ns = pni_rd_talloc(rd, 2 * (size_t)nb_namespaces *
                                            sizeof *e->ns))) {
            pni_rd_nomem(rd);
            return NULL;
        }
        for (int i = 0; i < 2 * nb_namespaces; i++)
            e->ns[i] = (const char *)namespaces[i];
        e->nns = nb_namespaces;
    }
    if (nb_attributes > 0) {
        if (!(e->att = pni_rd_talloc(rd, 4 * (size_t)nb_attributes *
                                             sizeof *e->att))) {
            pni_rd_nomem(rd);
            return NULL;
        }
        for (int i = 0; i < nb_attributes; i++) {
            const xmlChar **a = attributes + 5 * i;
            size_t n = (size_t)(a[4] - a[3]);
            const char *v;
            if (memchr(a[3], '&', n)) {
                /* character and entity references the parser left in */
                xmlChar *d = xmlStringLenDecodeEntities(
                    rd->xml.ctxt, a[3], (int)n, XML_SUBSTITUTE_REF, 0, 0, 0);
                v = d ? pni_rd_tstrndup(rd, (const char *)d, strlen((char *)d))
                      : NULL;
                xmlFree(d);
                if (!d && rd->diag.st)
                    return NULL;
            } else {
                v = pni_rd_tstrndup(rd, (const char *)a[3], n);
            }
            if (!v) {
                pni_rd_nomem(rd);
                return NULL;
            }
            e->att[4 * i] = (const char *)a[0];
            e->att[4 * i + 1] = (const char *)a[1];
            e->att[4 * i + 2] = (const char *)a[2];
            e->att[4 * i + 3] = v;
        }
        e->nattr = nb_attributes;
    }
    return take_tag(rd, e) ? NULL : e;
}

/* Whether a child of a net or page is collected and read as a whole. */
static int is_object(const char *name)
{
    static const char *const names[] = {
        "place", "transition", "arc", "referencePlace", "referenceTransition",
        "inputArc", "inhibitorArc", "outputArc", "toolspecific", "name",
        "definition"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (name[0] == names[i][0] && !strcmp(name, names[i]))
            return 1;
    return 0;
}

static void on_start(void *ctx, const xmlChar *localname,
                     const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes)
{
    (void)nb_defaulted;
    rd_t *rd = reader_of(ctx);
    if (!rd)
        return;
    if (rd->xml.nopened == rd->xml.cap_opened &&
        pni_grow((void **)&rd->xml.opened, &rd->xml.cap_opened,
                 rd->xml.nopened + 1, sizeof *rd->xml.opened)) {
        pni_rd_nomem(rd);
        return;
    }
    rd->xml.opened[rd->xml.nopened].name = (const char *)localname;
    rd->xml.opened[rd->xml.nopened++].line =
        rd->xml.ctxt->input->line > 0
            ? (unsigned long)rd->xml.ctxt->input->line
            : 0;
    if (rd->xml.skipping) {
        rd->xml.skipping++;
        return;
    }
    /* directly in a net or a page, not in an object being collected */
    int in_content = !rd->tree.top && rd->nframes &&
                     rd->frames[rd->nframes - 1].kind != F_ROOT;
    if ((rd->ts.sdepth || in_content) &&
        pni_rd_stream_start(rd, in_content, localname, prefix, uri,
                            nb_namespaces, namespaces, nb_attributes,
                            attributes))
        return;
    if (in_content && !rd->pnpro &&
        fast_arc(rd, localname, nb_namespaces, nb_attributes, attributes))
        return;
    if (rd->tree.top && close_run(rd))
        return;
    el_t *e = new_element(rd, localname, prefix, uri, nb_namespaces,
                          namespaces, nb_attributes, attributes);
    if (!e)
        return;
    const char *name = e->name;
    if (rd->tree.top) {
        e->parent = rd->tree.open;
        if (rd->tree.open->last)
            rd->tree.open->last->next = e;
        else
            rd->tree.open->first = e;
        rd->tree.open->last = e;
        rd->tree.open = e;
        return;
    }
    rd->tree.cur = e;
    if (!rd->nframes) {
        rd->xml.root_seen = 1;
        /* a start tag cut by the end of the input is reported as such
         * by the parser next, its name perhaps cut too */
        if (!strcmp(name, "project"))
            pni_pnpro_root(rd);
        else if (strcmp(name, "pnml") != 0 && !rd->xml.at_end)
            pni_rd_fail_at(rd, PN_ESTRUCT, e, "<", "root element is <%s>, not "
                           "<pnml>", name);
        else
            pni_rd_push_frame(rd, F_ROOT, PN_NONE);
    } else {
        const frame_t *f = &rd->frames[rd->nframes - 1];
        if (f->kind == F_ROOT) {
            pni_rd_start_in_root(rd, name);
        } else if (rd->pnpro ? pni_pnpro_is_object(name)
                             : is_object(name)) {
            rd->tree.top = rd->tree.open = e;
            return; /* the tree is read when it ends */
        } else {
            pni_rd_start_in_content(rd, f, name);
        }
    }
    treset(rd);
}

static void on_end(void *ctx, const xmlChar *localname,
                   const xmlChar *prefix, const xmlChar *uri)
{
    (void)uri;
    rd_t *rd = reader_of(ctx);
    if (!rd)
        return;
    if (rd->xml.nopened)
        rd->xml.nopened--;
    if (rd->xml.skipping) {
        rd->xml.skipping--;
        return;
    }
    if (rd->ts.sdepth) {
        pni_rd_stream_end(rd, localname, prefix);
        return;
    }
    if (rd->xml.fast_end) {
        rd->xml.fast_end = 0;
        return;
    }
    if (rd->tree.top) {
        if (close_run(rd))
            return;
        el_t *e = rd->tree.open;
        rd->tree.open = e->parent;
        if (e == rd->tree.top) {
            rd->tree.cur = e;
            pni_rd_read_object(rd, rd->frames[rd->nframes - 1].page, e->name);
            treset(rd);
        }
        return;
    }
    if (rd->nframes)
        pni_rd_end_frame(rd);
}

static void on_text(rd_t *rd, const xmlChar *ch, int len, int cdata)
{
    if (!rd->tree.open || len <= 0)
        return;
    if (rd->tree.run.n && rd->tree.run_cdata != cdata && close_run(rd))
        return;
    rd->tree.run_cdata = cdata;
    if (pni_sb_put(&rd->tree.run, (const char *)ch, (size_t)len))
        pni_rd_nomem(rd);
}

static void on_characters(void *ctx, const xmlChar *ch, int len)
{
    rd_t *rd = reader_of(ctx);
    if (rd && rd->ts.sdepth)
        pni_rd_stream_text(rd, ch, len, 0);
    else if (rd && !rd->xml.skipping)
        on_text(rd, ch, len, 0);
}

static void on_cdata(void *ctx, const xmlChar *ch, int len)
{
    rd_t *rd = reader_of(ctx);
    if (rd && rd->ts.sdepth)
        pni_rd_stream_text(rd, ch, len, 1);
    else if (rd && !rd->xml.skipping)
        on_text(rd, ch, len, 1);
}

/* An entity reference the parser does not expand (all but the five
 * predefined ones and character references): refused. */
static void on_reference(void *ctx, const xmlChar *name)
{
    rd_t *rd = reader_of(ctx);
    if (!rd)
        return;
    xmlParserInputPtr in = rd->xml.ctxt->input;
    long col = (long)in->col - (long)strlen((const char *)name) - 2;
    at_t at = {in->line > 0 ? (unsigned long)in->line : 0,
               col > 0 ? (unsigned long)col : 1};
    pni_rd_fail(rd, PN_ESTRUCT, at, "entity reference '&%s;' (entities are "
                "not expanded)", name);
}

static void on_nothing(void *ctx, const xmlChar *a, const xmlChar *b)
{
    (void)ctx;
    (void)a;
    (void)b;
}

static void on_comment(void *ctx, const xmlChar *value)
{
    (void)ctx;
    (void)value;
}

/* ---- the document ------------------------------------------------------ */

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static void xml_init(void)
{
    xmlInitParser();
}

/* libxml2's global state, set up once before any thread reads. */
void pni_xml_init(void)
{
    pthread_once(&xml_once, xml_init);
}

/* Blocks of 16 KiB: libxml2's push parser keeps the unparsed part of what
 * it is given in a buffer of its own, which grows to a few blocks; with
 * 256 KiB blocks that buffer was 1 MiB of pages touched for nothing. */
#define BLOCK (16 * 1024)

/* Feeds the parser the document from buf (len bytes) or, when fd >= 0,
 * from fd in blocks. */
static void feed(rd_t *rd, const char *buf, size_t len, int fd, char *block)
{
    size_t off = 0;   /* of buf, fed so far */
    int blank = 1;    /* nothing but white space so far */
    for (int first = 1;; first = 0) {
        const char *chunk;
        size_t n;
        if (fd >= 0) {
            ssize_t r = pni_pnml_read_head(fd, block, BLOCK, first);
            if (r < 0) {
                int e = errno;
                pni_rd_fail(rd, PN_EIO, (at_t){0, 0}, "cannot read: %s",
                            strerror(e));
                return;
            }
            chunk = block;
            n = (size_t)r;
        } else {
            chunk = buf + off;
            n = len - off < BLOCK ? len - off : BLOCK;
            off += n;
        }
        /* a file that is not XML at all is named as what it is */
        const char *what = first ? pni_pnml_sniff(chunk, n) : NULL;
        if (what) {
            pni_rd_fail(rd, PN_EXML, (at_t){1, 1}, "%s", what);
            return;
        }
        for (size_t i = 0; blank && i < n; i++)
            blank = chunk[i] == ' ' || chunk[i] == '\t' || chunk[i] == '\r' ||
                    chunk[i] == '\n';
        if (n == 0 && blank) {
            pni_rd_fail(rd, PN_EXML, (at_t){1, 1},
                        "malformed XML: the document is empty");
            return;
        }
        rd->xml.at_end = n == 0;
        rd->xml.nopened_end = rd->xml.nopened;
        xmlParseChunk(rd->xml.ctxt, chunk, (int)n, n == 0);
        if (rd->diag.st || n == 0)
            break;
    }
}

/* Parses the document from buf (len bytes) or, when fd >= 0, streams it
 * from fd in blocks, the net being built as the events arrive: 0, or -1
 * when an error is recorded.  The parser is gone when it returns. */
int pni_rd_parse(rd_t *rd, const char *buf, size_t len, int fd)
{
    pni_xml_init();
    xmlStructuredErrorFunc saved_serror = xmlStructuredError;
    void *saved_sctx = xmlStructuredErrorContext;
    xmlSAXHandler sax;
    xmlSAXVersion(&sax, 2);
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.startElement = NULL;
    sax.endElement = NULL;
    sax.characters = on_characters;
    sax.ignorableWhitespace = on_characters;
    sax.cdataBlock = on_cdata;
    sax.reference = on_reference;
    sax.comment = on_comment;
    sax.processingInstruction = on_nothing;
    sax.serror = on_xml_error;
    sax.warning = NULL;
    sax.error = NULL;
    sax.fatalError = NULL;
    char *block = NULL;
    if (fd >= 0 && !(block = malloc(BLOCK))) {
        pni_rd_nomem(rd);
        goto done;
    }
    rd->xml.ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    if (!rd->xml.ctxt) {
        pni_rd_nomem(rd);
        goto done;
    }
    rd->xml.ctxt->_private = rd;
    xmlCtxtUseOptions(rd->xml.ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    /* errors libxml2 raises without the parser context (input encoding,
     * I/O) come here too, not to standard error; the handler is the
     * thread's own and is put back afterwards */
    xmlSetStructuredErrorFunc(rd->xml.ctxt, on_xml_error);
    feed(rd, buf, len, fd, block);
    xmlSetStructuredErrorFunc(saved_sctx, saved_serror);
    if (rd->diag.st == PN_OK && !rd->xml.root_seen)
        pni_rd_fail(rd, PN_EXML, (at_t){1, 1},
                    "malformed XML: no root element");
    if (rd->diag.st == PN_OK && rd->xml.ctxt->wellFormed == 0)
        pni_rd_fail(rd, PN_EXML,
                    (at_t){(unsigned long)rd->xml.ctxt->input->line, 0},
                    "malformed XML");
done:
    if (rd->xml.ctxt && xmlStructuredErrorContext == rd->xml.ctxt)
        xmlSetStructuredErrorFunc(saved_sctx, saved_serror);
    if (rd->xml.ctxt) {
        if (rd->xml.ctxt->myDoc)
            xmlFreeDoc(rd->xml.ctxt->myDoc);
        rd->xml.ctxt->myDoc = NULL;
        xmlFreeParserCtxt(rd->xml.ctxt);
        rd->xml.ctxt = NULL;
    }
    free(block);
    return rd->diag.st == PN_OK ? 0 : -1;
}

/* Frees what the parse kept (the open elements, the tree's memory). */
void pni_rd_parse_free(rd_t *rd)
{
    free(rd->xml.opened);
    pni_sb_free(&rd->tree.run);
    tfree(rd);
}
