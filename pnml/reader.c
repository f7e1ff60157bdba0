/*
 * PNML reader on libxml2's SAX2 interface.
 *
 * The document goes through libxml2's push parser in blocks: files, named
 * pipes and standard input are streamed, and nothing is read twice.  The
 * structure elements (<pnml>, <net>, <page>, a WoPeD subnet) are handled
 * as their tags arrive, and so is a tool-specific block of a net or a page
 * (written out as its events come: the NUPN blocks of MCC models run to
 * thousands of lines).  Every other child of a net or a page (a place, a
 * transition, an arc, a reference node, our own block, a label) is
 * collected as a small tree of its own and handed, when its end tag
 * arrives, to the handlers below, which walk it with children(), attrs()
 * and text_of().  The tree is dropped right after: the memory used is the
 * net's and that of the largest such element.
 *
 * Memory is time here: on the machines this is measured on, a first touch
 * of a 4 KiB page costs some 17 us (the parse of 4 KiB of PNML costs less),
 * so the reader reads in small blocks and keeps no copy it can avoid.
 *
 * Elements are matched by local name, so documents with no namespace, the
 * 2009 namespace or a prefix all read.  Arcs and reference nodes are
 * collected and resolved when the net ends (PNML lets an arc come before
 * its nodes).  Nothing half-built is returned.
 *
 * Positions come from the parser: the line and column of an element's '<',
 * or of a word inside its start tag or its text (columns count
 * characters).  Entities are never expanded and nothing is fetched.
 */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include "lib_private.h"
#include "pnml.h"
#include "pnml_private.h"

/* A position in the document: line, column (1-based; 0: unknown). */
typedef struct {
    unsigned long line, col;
} at_t;

typedef struct {
    const char *id, *source, *target; /* qualified, in the reader's arena */
    pn_arc_kind_t kind;
    uint64_t weight;
    at_t at_id, at_src, at_tgt; /* of id=, source=, target= */
} rd_arc_t;

typedef struct {
    const char *id, *ref;
    int is_place;
    at_t at_id, at_ref;
    int state; /* 0 unresolved, 1 on the chain being resolved, 2 done */
    pn_object_t kind;
    size_t index;
} rd_ref_t;

typedef struct {
    pn_object_t owner;
    size_t index;
    const char *tool, *version, *xml;
    char *own; /* xml when it is the reader's to free */
    at_t at;   /* the block's start tag */
} rd_tool_t;

/* An element open in the document: its name and the line of its start
 * tag. */
typedef struct {
    const char *name;
    unsigned long line;
} rd_open_t;

/* A namespace prefix used or declared in a streamed tool-specific block. */
typedef struct {
    const char *prefix, *uri;
} rd_ns_t;

typedef struct {
    const char *node;
    uint64_t capacity;
    size_t page; /* PN_NONE when the entry is a capacity */
    at_t at;
} rd_extra_t;

typedef struct {
    const char *id, *name;
    size_t parent;
} rd_page_t;

/* An element of the object being collected, or a text node (name NULL). */
typedef struct el el_t;
struct el {
    const char *name;   /* local name (the parser's dictionary) */
    const char *prefix; /* of the name; NULL when none */
    const char *uri;    /* its namespace; NULL when none */
    const char **att;   /* nattr entries of 4: name, prefix, uri, value */
    const char **ns;    /* nns entries of 2: prefix (NULL: default), uri */
    int nattr, nns;
    const char *text;   /* a text node's text; an element's raw start tag */
    size_t ntext;
    el_t *first, *last, *next, *parent;
    unsigned long line, col;   /* of the element's '<' (col 0: see ccol) */
    unsigned long ccol;        /* col 0: the column at text + coff */
    size_t coff;
    unsigned long tline, tcol; /* just after its start tag */
    int cdata;                 /* a CDATA section */
};

/* A structure element open around the objects being read. */
enum { F_ROOT, F_NET, F_PAGE, F_SUBNET };
typedef struct {
    int kind;
    size_t page;          /* the page its content goes to (PN_NONE: net) */
    size_t saved_page;    /* F_PAGE: the page to go back to */
    const char *saved_prefix; /* F_SUBNET: the scope to go back to */
} frame_t;

/* Memory of the tree being collected: reused from object to object. */
typedef struct tchunk {
    struct tchunk *next;
    size_t size;
    char data[];
} tchunk_t;
#define TCHUNK 65536

/* What a file may say that a P/T net with inhibitor, read and reset arcs
 * cannot: counted while reading, reported in one warning at the end. */
enum {
    IGN_INTERVAL, IGN_INVARIANT, IGN_TRANSPORT, IGN_URGENT, IGN_TIMED,
    IGN_PRIORITY, IGN_QUERY, IGN_ARCNAME, IGN_BEND, IGN_LABELTOOL,
    IGN_WEIGHT, IGN_GUARD, IGN_PLAYER, IGN_LABEL, IGN_COUNT
};

typedef struct {
    xmlParserCtxtPtr ctxt;
    const char *name;
    pn_error_t *err;
    pn_status_t st;
    int in_xml_error;   /* inside libxml2's error report */
    pn_net_t *net;
    const char *want;
    int found;
    int root_seen;
    size_t nnets;        /* <net> elements of the document */
    char netids[200];    /* their ids, for the warning when there are two+ */
    pni_arena_t arena;   /* what outlives an object: ids of arcs, refs... */
    rd_arc_t *arcs;
    size_t narcs, cap_arcs;
    rd_ref_t *refs;
    size_t nrefs, cap_refs;
    pni_hash_t refids;
    size_t *chain;       /* reference nodes on the chain being resolved */
    size_t cap_chain;
    rd_tool_t *tools;
    size_t ntools, cap_tools;
    rd_extra_t *extras;
    size_t nextras, cap_extras;
    rd_page_t *ownpages; /* pages of our own block */
    size_t nownpages, cap_ownpages;
    int own_pages;
    int deferring;      /* an arc waits: the later ones wait too */
    int fast_end;       /* the next end tag is that of an arc added at its
                           start (fast_arc()) */
    const char *prefix; /* id scope of WoPeD subprocess nets ("" at top) */
    size_t page;        /* current page, PN_NONE directly in the net */
    /* the SAX side */
    frame_t *frames;
    size_t nframes, cap_frames;
    unsigned long skipping; /* depth inside an element skipped whole */
    el_t *top, *open;       /* the object being collected; its open element */
    tchunk_t *tchunks, *tcur, *tbig;
    size_t tused;
    char *run;              /* the text run of the open element */
    size_t nrun, cap_run;
    int run_cdata;
    char *sbuf;             /* serialized tool-specific XML */
    size_t nsbuf, cap_sbuf;
    /* a tool-specific block of a net or page, written out as its events
     * arrive (no tree) */
    unsigned long sdepth;   /* depth inside it; 0: none */
    int sopen;              /* the open element's start tag is unfinished */
    int scdata;             /* inside a CDATA section */
    size_t sroot;           /* where the inherited declarations go */
    rd_tool_t stool;        /* owner, index, tool, version */
    rd_ns_t *sused;         /* prefixes used, first use first */
    size_t nsused, cap_sused;
    pni_hash_t sdecl;       /* prefixes declared in the block ("": the
                               default namespace), each with sdcount[its
                               index]: its declarations now in scope */
    uint32_t *sdcount;
    size_t cap_sdcount;
    const char **sdstack;   /* streamed: the prefixes declared, innermost
                               last, sdmark[d] of them above depth d */
    size_t nsdstack, cap_sdstack;
    size_t *sdmark;
    size_t cap_sdmark;
    pni_hash_t sseen;       /* the prefixes of sused */
    /* the handlers' side */
    el_t *cur;          /* the element a handler is on */
    const char *text;   /* text_of(): the text of rd->cur */
    size_t ntext;
    size_t ignored[IGN_COUNT]; /* what the net cannot say (IGN_*) */
    /* the line of the <name> of the net (name_line[0]) and of each page
     * (name_line[1 + page]), 0 when none yet: a second one is refused */
    unsigned long *name_line;
    size_t cap_name_line;
    /* the elements open in the document, outermost first: said when the
     * file ends before they are closed */
    rd_open_t *opened;
    size_t nopened, cap_opened;
    int at_end;         /* the parser is given the end of the input */
    size_t nopened_end; /* nopened then */
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
    {"arc bend point", "arc bend points"},
    {"tool-specific block inside a label", "tool-specific blocks inside "
     "labels"},
    {"firing weight of an immediate transition", "firing weights of "
     "immediate transitions"},
    {"transition guard", "transition guards"},
    {"transition of a game's second player", "transitions of a game's "
     "second player"},
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
static at_t where(const el_t *e, const char *needle)
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

/* Where needle is in e's leading text, else as where() finds it: for
 * errors about the text itself. */
static at_t where_text(const el_t *e, const char *needle)
{
    const el_t *t = e ? e->first : NULL;
    const char *hit;
    if (t && !t->name && needle && *needle &&
        (hit = find(t->text, t->ntext, needle))) {
        at_t a = {e->tline, e->tcol};
        return advance(a, t->text, hit);
    }
    return where(e, needle);
}

static int failv(rd_t *rd, pn_status_t code, at_t at, const char *fmt,
                 va_list ap)
{
    if (rd->st != PN_OK)
        return -1;
    rd->st = code;
    char text[PN_ERROR_TEXT_MAX];
    vsnprintf(text, sizeof text, fmt, ap);
    pni_error(rd->err, code, at.line, at.line ? (at.col ? at.col : 1) : 0,
              "%s", text);
    /* stop the parser, unless libxml2 itself is reporting: it may still be
     * using its input (stopping it frees that) and stops on its own */
    if (rd->ctxt && !rd->in_xml_error)
        xmlStopParser(rd->ctxt);
    return -1;
}

static int fail(rd_t *rd, pn_status_t code, at_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failv(rd, code, at, fmt, ap);
    va_end(ap);
    return -1;
}

/* An error at needle in e (see where()). */
static int fail_at(rd_t *rd, pn_status_t code, const el_t *e,
                   const char *needle, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failv(rd, code, where(e, needle), fmt, ap);
    va_end(ap);
    return -1;
}

static int nomem(rd_t *rd)
{
    return fail_at(rd, PN_ENOMEM, NULL, NULL, "out of memory");
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

static void on_xml_error(void *arg, xmlErrorPtr e)
{
    xmlParserCtxtPtr ctxt = arg;
    rd_t *rd = ctxt ? ctxt->_private : NULL;
    if (!rd || !e || e->level == XML_ERR_WARNING || rd->st != PN_OK)
        return;
    char msg[400];
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "XML error");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    /* libxml2's wording where it is jargon, on one line */
    static const char utf8[] = "Input is not proper UTF-8";
    const char *bytes = strstr(msg, "Bytes: ");
    if (!strncmp(msg, utf8, sizeof utf8 - 1)) {
        char b[40] = "";
        if (bytes)
            snprintf(b, sizeof b, " (%.*s)", (int)strcspn(bytes + 7, "\n"),
                     bytes + 7);
        snprintf(msg, sizeof msg, "the text is not valid UTF-8%s and the "
                 "file declares no other encoding", b);
    } else if (e->code == XML_ERR_ENTITY_LOOP) {
        /* in an element's text, the element is said (in a start tag, the
         * element is not reported yet: the position says where) */
        int named = rd->nopened && ctxt->instate == XML_PARSER_CONTENT;
        snprintf(msg, sizeof msg, "an entity%s%.60s%s expands without end "
                 "or past what is allowed (an entity bomb): refused",
                 named ? " used in <" : "",
                 named ? rd->opened[rd->nopened - 1].name : "",
                 named ? ">" : "");
    } else if (e->code == XML_ERR_NAME_REQUIRED &&
               strstr(msg, "EntityRef")) {
        snprintf(msg, sizeof msg, "a '&' that starts no entity reference "
                 "(write &amp; for the character &)");
    } else if (e->code == XML_ERR_ENTITYREF_SEMICOL_MISSING) {
        snprintf(msg, sizeof msg, "an entity reference without its ';' "
                 "(write &amp; for the character &)");
    } else if (strstr(msg, "Huge input lookup")) {
        snprintf(msg, sizeof msg, "a single value, text or name longer than "
                 "10,000,000 bytes (the most the reader takes)");
    }
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
    if (e->code == XML_ERR_ENTITY_LOOP && rd->nopened &&
        ctxt->instate == XML_PARSER_CONTENT)
        at = (at_t){rd->opened[rd->nopened - 1].line, 0};
    rd->in_xml_error = 1;
    /* an error met only once the input has ended, with elements still
     * open, that says the document is unfinished is a file cut short:
     * libxml2 says "Extra content at the end of the document", "Premature
     * end of data", or "Couldn't find end of Start Tag" when the cut is
     * in a start tag (the element was opened at the end of the input);
     * other errors met then (the parser holds back a '&' and what follows
     * it until the end) are said as they are */
    if (rd->at_end && cut_short(e->code)) {
        /* cut in a start tag: libxml2 has reported the element opened,
         * at the end of the input */
        int in_tag = e->code == XML_ERR_GT_REQUIRED &&
                     rd->nopened > rd->nopened_end;
        const rd_open_t *t = in_tag ? &rd->opened[rd->nopened - 1] : NULL;
        const rd_open_t *o = rd->nopened > (size_t)in_tag
                                 ? &rd->opened[rd->nopened - 1 - in_tag]
                                 : NULL;
        char what[160] = ":";
        if (t)
            snprintf(what, sizeof what, " in the start tag of <%.60s>%s",
                     t->name, o ? ";" : "");
        if (o)
            fail(rd, PN_EXML, at, "malformed XML: unexpected end of "
                 "file%s <%s> opened at line %lu is not closed", what,
                 o->name, o->line);
        else
            fail(rd, PN_EXML, at, "malformed XML: unexpected end of file%s",
                 in_tag ? what : "");
    } else {
        fail(rd, PN_EXML, at, "malformed XML: %s", msg);
    }
    rd->in_xml_error = 0;
}

/* ---- the collected tree, as the handlers see it ------------------------ */

static void *talloc(rd_t *rd, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > TCHUNK / 4) {
        tchunk_t *b = malloc(sizeof *b + n);
        if (!b)
            return NULL;
        b->size = n;
        b->next = rd->tbig;
        rd->tbig = b;
        return b->data;
    }
    if (!rd->tcur || TCHUNK - rd->tused < n) {
        tchunk_t *c = rd->tcur ? rd->tcur->next : rd->tchunks;
        if (!c) {
            if (!(c = malloc(sizeof *c + TCHUNK)))
                return NULL;
            c->size = TCHUNK;
            c->next = NULL;
            if (rd->tcur)
                rd->tcur->next = c;
            else
                rd->tchunks = c;
        }
        rd->tcur = c;
        rd->tused = 0;
    }
    void *p = rd->tcur->data + rd->tused;
    rd->tused += n;
    return p;
}

static char *tstrndup(rd_t *rd, const char *s, size_t n)
{
    char *p = talloc(rd, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Drops the tree (its memory is kept for the next one). */
static void treset(rd_t *rd)
{
    while (rd->tbig) {
        tchunk_t *n = rd->tbig->next;
        free(rd->tbig);
        rd->tbig = n;
    }
    rd->tcur = NULL;
    rd->tused = 0;
    rd->top = rd->open = NULL;
}

static void tfree(rd_t *rd)
{
    treset(rd);
    while (rd->tchunks) {
        tchunk_t *n = rd->tchunks->next;
        free(rd->tchunks);
        rd->tchunks = n;
    }
}

typedef int (*child_fn)(rd_t *rd, void *ctx, const char *name);

/* Calls fn on each child element of the current element, with rd->cur on
 * it. */
static int children(rd_t *rd, child_fn fn, void *ctx)
{
    el_t *e = rd->cur;
    for (el_t *c = e->first; c; c = c->next) {
        if (!c->name)
            continue;
        rd->cur = c;
        int ret = fn(rd, ctx, c->name);
        rd->cur = e;
        if (ret < 0 || rd->st)
            return -1;
    }
    return 0;
}

/* The handlers "consume" an element by returning: nothing to skip. */
static int skip(rd_t *rd)
{
    return rd->st ? -1 : 0;
}

/* The text content of the current element (its text and CDATA children,
 * nested elements left out) in rd->text, valid as long as the tree. */
static int text_of(rd_t *rd)
{
    const el_t *e = rd->cur;
    size_t n = 0, pieces = 0;
    const el_t *one = NULL;
    for (const el_t *c = e->first; c; c = c->next)
        if (!c->name) {
            n += c->ntext;
            pieces++;
            one = c;
        }
    if (pieces <= 1) {
        rd->text = one ? one->text : "";
        rd->ntext = one ? one->ntext : 0;
        return 0;
    }
    char *t = talloc(rd, n + 1);
    if (!t)
        return nomem(rd);
    size_t k = 0;
    for (const el_t *c = e->first; c; c = c->next)
        if (!c->name) {
            memcpy(t + k, c->text, c->ntext);
            k += c->ntext;
        }
    t[k] = '\0';
    rd->text = t;
    rd->ntext = k;
    return 0;
}

/* The value of an attribute of the current element, valid as long as the
 * tree (keep() what must last). */
static const char *attr(rd_t *rd, const char *name)
{
    const el_t *e = rd->cur;
    for (int i = 0; i < e->nattr; i++)
        if (!strcmp(e->att[4 * i], name))
            return e->att[4 * i + 3];
    return NULL;
}

/* Several attributes in one pass: out[k] gets the value of names[k] or
 * NULL. */
static int attrs(rd_t *rd, const char *const *names, const char **out, int n)
{
    const el_t *e = rd->cur;
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

/* A copy of s that lasts as long as the reader. */
static const char *keep(rd_t *rd, const char *s)
{
    if (!s)
        return NULL;
    const char *c = pni_arena_strdup(&rd->arena, s);
    if (!c)
        nomem(rd);
    return c;
}

/* id qualified by the subprocess scope, lasting as long as the reader. */
static const char *qual(rd_t *rd, const char *id)
{
    if (!id)
        return NULL;
    if (!*rd->prefix)
        return keep(rd, id);
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

/* id qualified by the subprocess scope, valid as long as the tree. */
static const char *scoped(rd_t *rd, const char *id)
{
    if (!id || !*rd->prefix)
        return id;
    size_t a = strlen(rd->prefix), b = strlen(id);
    char *c = talloc(rd, a + b + 1);
    if (!c) {
        nomem(rd);
        return NULL;
    }
    memcpy(c, rd->prefix, a);
    memcpy(c + a, id, b + 1);
    return c;
}

/* ---- tool-specific blocks, written back as read ------------------------ */

static int sput(rd_t *rd, const char *s, size_t n)
{
    if (pni_grow((void **)&rd->sbuf, &rd->cap_sbuf, rd->nsbuf + n + 1, 1))
        return -1;
    memcpy(rd->sbuf + rd->nsbuf, s, n);
    rd->nsbuf += n;
    rd->sbuf[rd->nsbuf] = '\0';
    return 0;
}

static int sputs(rd_t *rd, const char *s)
{
    return sput(rd, s, strlen(s));
}

/* s escaped as libxml2 writes text (attr 0) or attribute values (1). */
static int sescape(rd_t *rd, const char *s, size_t n, int attr)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '\r': rep = "&#13;"; break;
        case '"': rep = attr ? "&quot;" : NULL; break;
        case '\n': rep = attr ? "&#10;" : NULL; break;
        case '\t': rep = attr ? "&#9;" : NULL; break;
        }
        if (!rep)
            continue;
        if (sput(rd, s + from, i - from) || sputs(rd, rep))
            return -1;
        from = i + 1;
    }
    return sput(rd, s + from, n - from);
}

static int sqname(rd_t *rd, const char *prefix, const char *name)
{
    if (prefix && (sputs(rd, prefix) || sput(rd, ":", 1)))
        return -1;
    return sputs(rd, name);
}

static int sns(rd_t *rd, const char *prefix, const char *uri)
{
    if (sputs(rd, " xmlns") || (prefix && (sput(rd, ":", 1) ||
                                          sputs(rd, prefix))) ||
        sput(rd, "=\"", 2) || sescape(rd, uri, strlen(uri), 1))
        return -1;
    return sput(rd, "\"", 1);
}

static const char PNML_NS[] = "http://www.pnml.org/version-2009/grammar/pnml";

static int s_used(rd_t *rd, const char *prefix, const char *uri);
static int s_declare(rd_t *rd, const char *prefix);
static void s_undeclare(rd_t *rd, const char *prefix);
static void s_forget(rd_t *rd);

/* The text of the subtree root as libxml2 writes a copy of it: the
 * namespaces used in it where no declaration of the block is in scope
 * (declared above it) are declared on the copy's root, first use first,
 * as libxml2 does when it copies a node; the PNML default namespace is
 * left out (the block goes back into a PNML document). The tree is walked
 * without recursion (the nesting is the file's) and each prefix is looked
 * up in a hash, so that any depth and any number of prefixes take linear
 * time. */
static int serialize(rd_t *rd, const el_t *root)
{
    s_forget(rd);
    /* first the prefixes used out of the scope of the block's own
     * declarations */
    for (const el_t *e = root; e;) {
        if (e->name) {
            for (int i = 0; i < e->nns; i++)
                if (s_declare(rd, e->ns[2 * i]))
                    return -1;
            if (s_used(rd, e->prefix, e->uri))
                return -1;
            for (int k = 0; k < e->nattr; k++)
                if (e->att[4 * k + 1] &&
                    s_used(rd, e->att[4 * k + 1], e->att[4 * k + 2]))
                    return -1;
        }
        if (e->name && e->first) {
            e = e->first;
            continue;
        }
        /* e is done: its declarations leave scope, and those of each
         * parent whose last child it is */
        for (;;) {
            for (int i = 0; e->name && i < e->nns; i++)
                s_undeclare(rd, e->ns[2 * i]);
            if (e == root) {
                e = NULL;
                break;
            }
            if (e->next) {
                e = e->next;
                break;
            }
            e = e->parent;
        }
    }
    for (const el_t *e = root; e;) {
        if (!e->name) {
            if (e->cdata ? sputs(rd, "<![CDATA[") ||
                               sput(rd, e->text, e->ntext) ||
                               sputs(rd, "]]>")
                         : sescape(rd, e->text, e->ntext, 0))
                return -1;
        } else {
            if (sput(rd, "<", 1) || sqname(rd, e->prefix, e->name))
                return -1;
            for (int i = 0; i < e->nns; i++)
                if (!(e == root && !e->ns[2 * i] &&
                      !strcmp(e->ns[2 * i + 1], PNML_NS)) &&
                    sns(rd, e->ns[2 * i], e->ns[2 * i + 1]))
                    return -1;
            if (e == root)
                for (size_t i = 0; i < rd->nsused; i++)
                    if (sns(rd, rd->sused[i].prefix, rd->sused[i].uri))
                        return -1;
            for (int i = 0; i < e->nattr; i++) {
                const char *v = e->att[4 * i + 3];
                if (sput(rd, " ", 1) ||
                    sqname(rd, e->att[4 * i + 1], e->att[4 * i]) ||
                    sput(rd, "=\"", 2) || sescape(rd, v, strlen(v), 1) ||
                    sput(rd, "\"", 1))
                    return -1;
            }
            if (e->first) {
                if (sput(rd, ">", 1))
                    return -1;
                e = e->first;
                continue;
            }
            if (sput(rd, "/>", 2))
                return -1;
        }
        /* up to the next sibling, closing the elements left */
        while (e != root && !e->next) {
            e = e->parent;
            if (sput(rd, "</", 2) || sqname(rd, e->prefix, e->name) ||
                sput(rd, ">", 1))
                return -1;
        }
        e = e == root ? NULL : e->next;
    }
    s_forget(rd);
    return 0;
}

static int keep_tool(rd_t *rd, pn_object_t owner, size_t index)
{
    const char *tool = keep(rd, attr(rd, "tool"));
    const char *version = keep(rd, attr(rd, "version"));
    if (rd->st)
        return -1;
    rd->nsbuf = 0;
    if (serialize(rd, rd->cur))
        return nomem(rd);
    const char *c = pni_arena_strndup(&rd->arena, rd->sbuf, rd->nsbuf);
    if (!c ||
        pni_grow((void **)&rd->tools, &rd->cap_tools, rd->ntools + 1,
                 sizeof *rd->tools))
        return nomem(rd);
    rd_tool_t t = {owner, index, tool, version, c, NULL, where(rd->cur, NULL)};
    rd->tools[rd->ntools++] = t;
    return 0;
}
/* ---- labels and numbers ------------------------------------------------ */

typedef struct {
    const char *text;    /* NULL when the label has no <text>/<value> */
    int pipe;            /* the text came from PIPE's <value> */
    int inhibitor;       /* SNAKES: <inscription><inhibitor>... */
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
    const el_t *item;    /* the current item */
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
        s->mult = rd->text;
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
    s->item = rd->cur;
    if (children(rd, snakes_item_child, s) < 0)
        return -1;
    if (!s->dot)
        s->other = 1;
    uint64_t m = 1;
    if (s->mult && number(rd, s->mult, s->item, s->mult, "multiplicity",
                          &m) < 0)
        return -1;
    if (m > PN_TOKENS_MAX - s->count)
        return fail_at(rd, PN_ERANGE, s->item, "multiplicity",
                       "a multiset of more than 2^63-1 tokens");
    s->count += m;
    return 0;
}

/* A multiset of black tokens as the count it stands for, in lb->text. */
static int read_snakes_multiset(rd_t *rd, label_t *lb)
{
    snakes_t s = {0};
    const el_t *line = rd->cur;
    if (children(rd, snakes_multiset_child, &s) < 0)
        return -1;
    if (s.other)
        return fail_at(rd, PN_EUNSUPPORTED, line, "multiset",
                       "unsupported net type: a multiset of values other "
                       "than black tokens (a high-level net)");
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, s.count);
    lb->text = tstrndup(rd, buf, strlen(buf));
    lb->el = line;
    return lb->text ? 0 : nomem(rd);
}

static int snakes_annotation_child(rd_t *rd, void *ctx, const char *name)
{
    label_t *lb = ctx;
    const el_t *line = rd->cur;
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
    const el_t *line = rd->cur;
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
        lb->el = rd->cur;
        return children(rd, snakes_inhibitor_child, lb);
    }
    if (!strcmp(name, "text") || !strcmp(name, "value")) {
        lb->el = rd->cur;
        lb->pipe = name[0] == 'v';
        if (text_of(rd) < 0)
            return -1;
        lb->text = rd->text;
        if (!lb->text)
            return nomem(rd);
        return 0;
    }
    if (!strcmp(name, "graphics"))
        return children(rd, offset_child, lb);
    /* toolspecific inside a label: reported (the net has no place for
     * it); structure: skipped */
    if (!strcmp(name, "toolspecific"))
        ignore(rd, IGN_LABELTOOL);
    return skip(rd);
}

static int read_label(rd_t *rd, label_t *lb);
/* A label a node or arc has at most once (its marking, inscription,
 * capacity, name): a second one is refused, not let win over the first. */
static int read_once(rd_t *rd, label_t *lb, const el_t **first,
                     const char *name)
{
    if (*first)
        return fail_at(rd, PN_ESTRUCT, rd->cur, name,
                       "second <%s> in <%s> (the first is at line %lu): "
                       "which one holds is not said", name,
                       rd->cur->parent && rd->cur->parent->name
                           ? rd->cur->parent->name : "?",
                       (*first)->line);
    *first = rd->cur;
    return read_label(rd, lb);
}

static int read_label(rd_t *rd, label_t *lb)
{
    lb->text = NULL;
    lb->pipe = 0;
    lb->inhibitor = 0;
    lb->has_offset = 0;
    lb->el = rd->cur;
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
    return fail(rd, st, needle == s ? where_text(line, s) : where(line, needle),
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
        if (attrs(rd, names, v, 2) < 0)
            return -1;
        int rx = parse_double(v[0], &p->x), ry = parse_double(v[1], &p->y);
        /* a coordinate that is no finite number is refused: it cannot be
         * drawn, and would be written back as "inf" */
        if (rx == -2 || ry == -2)
            return fail_at(rd, PN_EVALUE, rd->cur, rx == -2 ? "x=" : "y=",
                           "position %s='%s' is not a finite number",
                           rx == -2 ? "x" : "y", rx == -2 ? v[0] : v[1]);
        if (rx == 0 && ry == 0)
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
    const el_t *once[3]; /* the <name>, <initialMarking>, <capacity> */
    int timed;    /* PIPE: <timed> true */
    int weighted; /* PIPE: a <rate> other than 1 (an immediate
                     transition's firing weight) */
} node_ctx_t;

static int unsupported_label(rd_t *rd, const char *name)
{
    return fail_at(rd, PN_EUNSUPPORTED, rd->cur, name,
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
static int pipe_timing_label(rd_t *rd, node_ctx_t *n, const char *name)
{
    label_t lb;
    if (read_label(rd, &lb) < 0)
        return -1;
    const char *t = lb.text ? lb.text + strspn(lb.text, " \t\r\n") : "";
    if (!strcmp(name, "timed") && !strncmp(t, "true", 4)) {
        ignore(rd, IGN_TIMED);
        n->timed = 1;
    }
    /* the rate of an immediate transition is its firing weight */
    if (!strcmp(name, "rate")) {
        double r;
        n->weighted = *t && !(parse_double(t, &r) == 0 && r == 1.0);
    }
    if (!strcmp(name, "priority") && *t && strncmp(t, "1", 1) != 0)
        ignore(rd, IGN_PRIORITY);
    return 0;
}

/* SNAKES's place types: <type domain="universal"/> (any token; the
 * marking and the arcs are checked for black tokens on their own) and the
 * type of black tokens, <type domain="instance"><object type="class"
 * name="...BlackToken"/></type>, are P/T places; any other domain (int,
 * intersection, set, ...) types the place with values: a high-level net. */
static int snakes_class_child(rd_t *rd, void *ctx, const char *name)
{
    int *black = ctx;
    if (!strcmp(name, "object")) {
        const char *type = attr(rd, "type"), *cls = attr(rd, "name");
        size_t n = cls ? strlen(cls) : 0;
        if (rd->st)
            return -1;
        if (type && !strcmp(type, "class") && n >= 10 &&
            !strcmp(cls + n - 10, "BlackToken") &&
            (n == 10 || cls[n - 11] == '.'))
            *black = 1;
    }
    return skip(rd);
}

static int snakes_place_type(rd_t *rd)
{
    const el_t *line = rd->cur;
    const char *domain = attr(rd, "domain");
    if (rd->st)
        return -1;
    if (!domain || !strcmp(domain, "universal"))
        return skip(rd);
    int black = 0;
    if (!strcmp(domain, "instance")) {
        if (children(rd, snakes_class_child, &black) < 0)
            return -1;
        if (black)
            return 0;
    }
    return fail_at(rd, PN_EUNSUPPORTED, line, "domain=",
                   "unsupported net type: a place of type domain=\"%s\" "
                   "holds values other than black tokens (a high-level net)",
                   domain);
}

static int node_child(rd_t *rd, void *ctx, const char *name)
{
    node_ctx_t *n = ctx;
    if (n->kind == PN_PLACE && !strcmp(name, "type"))
        return snakes_place_type(rd);
    if (!strcmp(name, "name"))
        return read_once(rd, &n->name, &n->once[0], name);
    if (n->kind == PN_TRANSITION &&
        (!strcmp(name, "timed") || !strcmp(name, "priority") ||
         !strcmp(name, "rate")))
        return pipe_timing_label(rd, n, name);
    if (!strcmp(name, "graphics"))
        return children(rd, graphics_child, &n->pos);
    if (!strcmp(name, "toolspecific"))
        return keep_tool(rd, n->kind, PN_NONE);
    if (n->kind == PN_PLACE) {
        if (!strcmp(name, "initialMarking"))
            return read_once(rd, &n->marking, &n->once[1], name);
        if (!strcmp(name, "capacity"))
            return read_once(rd, &n->capacity, &n->once[2], name);
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
    const el_t *line = rd->cur;
    /* with the attribute forms of TAPAAL's .tapn and old verifytapn XML */
    static const char *const names[] = {"id", "name", "initialMarking",
                                        "positionX", "positionY",
                                        "invariant", "urgent", "priority",
                                        "guard", "player"};
    const char *v[10];
    if (attrs(rd, names, v, 10) < 0)
        return -1;
    /* pm4py's data Petri nets: a guard other than "true"; TAPAAL's
     * games: a transition of the second player */
    if (v[8] && strcmp(v[8] + strspn(v[8], " \t\r\n"), "true") != 0 &&
        v[8][strspn(v[8], " \t\r\n")])
        ignore(rd, IGN_GUARD);
    if (v[9] && strcmp(v[9], "0") != 0)
        ignore(rd, IGN_PLAYER);
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
    const char *id = scoped(rd, raw);
    if (rd->st)
        return -1;
    if (!raw || !*raw)
        return fail_at(rd, PN_ENOID, line, elem, "<%s> has no id", elem);
    node_ctx_t n = {0};
    n.kind = kind;
    n.tool0 = rd->ntools;
    if (children(rd, node_child, &n) < 0)
        return -1;
    if (n.weighted && !n.timed)
        ignore(rd, IGN_WEIGHT);
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
        return fail_at(rd, PN_EDUPID, line, needle, "duplicate id '%s'", id);
    }
    if (st)
        return fail_at(rd, st, line, elem, "<%s id=\"%s\">: %s", elem, id,
                       pn_strstatus(st));
    if (kind == PN_PLACE && capacity)
        pn_net_set_capacity(rd->net, index, capacity);
    if (!n.pos.has && px && py) {
        int rx = parse_double(px, &n.pos.x), ry = parse_double(py, &n.pos.y);
        if (rx == -2 || ry == -2)
            return fail_at(rd, PN_EVALUE, line,
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
    const el_t *line = rd->cur;
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
    rd_ref_t r = {id, ref, is_place, where(line, id), where(line, "ref="), 0,
                  PN_PLACE, 0};
    rd->refs[rd->nrefs++] = r;
    return skip(rd);
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
        ignore(rd, IGN_BEND);
    return skip(rd);
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
    /* how the arc is drawn (<graphics>, PIPE's <arcpath>, <tagged>): bend
     * points reported */
    if (!strcmp(name, "graphics"))
        return children(rd, arc_graphics_child, a);
    if (!strcmp(name, "arcpath"))
        a->arcpath++;
    if (!strcmp(name, "name"))
        ignore(rd, IGN_ARCNAME);
    else if (strcmp(name, "graphics") && strcmp(name, "arcpath") &&
             strcmp(name, "tagged"))
        ignore_label(rd, name);
    return skip(rd);
}

static int add_arc(rd_t *rd, const rd_arc_t *a, const el_t *e,
                   pn_object_t ks, size_t is, pn_object_t kt, size_t it);

static int read_arc(rd_t *rd, const char *elem)
{
    const el_t *line = rd->cur;
    int legacy = strcmp(elem, "arc") != 0; /* inputArc, outputArc, ... */
    static const char *const names[] = {"id", "source", "target", "type",
                                        "inscription", "weight"};
    const char *v[6];
    if (attrs(rd, names, v, 6) < 0)
        return -1;
    const char *raw = v[0], *type = v[3], *ains = v[4], *aweight = v[5];
    const char *id = scoped(rd, raw);
    const char *src = scoped(rd, v[1]);
    const char *tgt = scoped(rd, v[2]);
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
    if (a.arcpath > 2)
        rd->ignored[IGN_BEND] += a.arcpath - 2;
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
                 "as %s", rd->name, line->line, id ? id : "?", a.kind_text,
                 pn_arc_kind_name((pn_arc_kind_t)a.kind));
        if (pn_net_add_warning(rd->net, w))
            return nomem(rd);
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
        return fail_at(rd, PN_EVALUE,
                       a.inscription.text ? a.inscription.el : line,
                       a.inscription.text ? a.inscription.text : elem,
                       "arc weight '0': an arc weight must be at least 1");
    rd_arc_t r = {raw ? id : NULL, src, tgt, (pn_arc_kind_t)a.kind, weight,
                  {0, 0}, {0, 0}, {0, 0}};
    if (!rd->deferring) {
        /* both ends are known nodes (the usual order: nodes, then arcs):
         * the arc is added now */
        pn_object_t ks, kt;
        size_t is, it;
        if (pn_net_find(rd->net, src, &ks, &is) == PN_OK && ks != PN_ARC &&
            pn_net_find(rd->net, tgt, &kt, &it) == PN_OK && kt != PN_ARC)
            return add_arc(rd, &r, line, ks, is, kt, it);
        /* from here on, arcs wait for the end of the net, so that they
         * stay in the order of the document */
        rd->deferring = 1;
    }
    r.id = keep(rd, r.id);
    r.source = keep(rd, src);
    r.target = keep(rd, tgt);
    r.at_id = where(line, "id=");
    r.at_src = where(line, "source=");
    r.at_tgt = where(line, "target=");
    if (rd->st || pni_grow((void **)&rd->arcs, &rd->cap_arcs, rd->narcs + 1,
                           sizeof *rd->arcs))
        return rd->st ? -1 : nomem(rd);
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
    const el_t *line = rd->cur;
    if (!strcmp(name, "pages")) {
        /* the page structure is given here, not by the <page> elements */
        rd->own_pages = 1;
    } else if (!strcmp(name, "page")) {
        const char *id = keep(rd, attr(rd, "id"));
        const char *nm = keep(rd, attr(rd, "name"));
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
        rd_extra_t e = {node, 0, PN_NONE, where(line, "node=")};
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

/* ---- the objects of a net or page -------------------------------------- */

/* A whole child of a net or page, collected; page: the page its content
 * goes to (PN_NONE for the net itself). */
static int read_object(rd_t *rd, size_t page, const char *name)
{
    switch (name[0]) {
    case 'p':
        if (!strcmp(name, "place"))
            return read_node(rd, PN_PLACE, name);
        break;
    case 't':
        if (!strcmp(name, "transition"))
            return read_node(rd, PN_TRANSITION, name);
        if (!strcmp(name, "toolspecific")) {
            const char *tool = attr(rd, "tool");
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
                    return nomem(rd);
                memset(rd->name_line + old, 0,
                       (rd->cap_name_line - old) * sizeof *rd->name_line);
            }
            if (rd->name_line[k])
                return fail_at(rd, PN_ESTRUCT, rd->cur, name,
                               "second <name> in <%s> (the first is at line "
                               "%lu): which one holds is not said",
                               page == PN_NONE ? "net" : "page",
                               rd->name_line[k]);
            rd->name_line[k] = rd->cur->line ? rd->cur->line : 1;
            label_t lb;
            if (read_label(rd, &lb) < 0)
                return -1;
            if (lb.text && (page != PN_NONE
                                ? pn_net_set_node_name(rd->net, PN_PAGE, page,
                                                       lb.text)
                                : pn_net_set_name(rd->net, lb.text)))
                return nomem(rd);
            return 0;
        }
        break;
    }
    return skip(rd);
}

/* Whether a child of a net or page is collected and read as a whole. */
static int is_object(const char *name)
{
    static const char *const names[] = {
        "place", "transition", "arc", "referencePlace", "referenceTransition",
        "inputArc", "inhibitorArc", "outputArc", "toolspecific", "name"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (name[0] == names[i][0] && !strcmp(name, names[i]))
            return 1;
    return 0;
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
            return fail(rd, PN_EREFCYCLE, r->at_id,
                        "reference node '%s' is part of a cycle of "
                        "references", r->id);
        r->state = 1;
        if (pni_grow((void **)&rd->chain, &rd->cap_chain, n + 1,
                     sizeof *rd->chain))
            return nomem(rd);
        rd->chain[n++] = i;
        if (pn_net_find(rd->net, r->ref, kind, index) == PN_OK &&
            *kind != PN_ARC)
            break;
        e = pni_hash_get(&rd->refids, r->ref);
        if (!e)
            return fail(rd, PN_EUNKNOWN, r->at_ref,
                        "reference node '%s' refers to '%s', which is no "
                        "node", r->id, r->ref);
        i = e->index;
    }
    /* the chain, from the node back: each reference must be of its kind */
    while (n--) {
        rd_ref_t *r = &rd->refs[rd->chain[n]];
        if ((*kind == PN_PLACE) != (r->is_place != 0))
            return fail(rd, PN_EARC, r->at_ref,
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
 * the warning that says so; NULL (rd->st set) when out of memory. */
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
             "this arc is renamed '%s'", rd->name, line, a->id, buf);
    const char *id = pni_arena_strdup(&rd->arena, buf);
    if (!id || pn_net_add_warning(rd->net, w)) {
        nomem(rd);
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
             " above its capacity %" PRIu64 "%s", rd->name, p->id, p->marking,
             p->capacity, bad > 1 ? " (and more places: see pn-info)" : "");
    return pn_net_add_warning(rd->net, w) ? nomem(rd) : 0;
}

/* Adds an arc whose ends are resolved; e: its element when it is read
 * now (positions are found in it), NULL when it waited. */
enum { AT_ID, AT_SRC, AT_TGT };
static at_t arc_at(const rd_arc_t *a, const el_t *e, int which)
{
    static const char *const needles[] = {"id=", "source=", "target="};
    if (e)
        return where(e, needles[which]);
    return which == AT_ID ? a->at_id : which == AT_SRC ? a->at_src
                                                       : a->at_tgt;
}

static int add_arc(rd_t *rd, const rd_arc_t *a, const el_t *e,
                   pn_object_t ks, size_t is, pn_object_t kt, size_t it)
{
    if (ks == kt)
        return fail(rd, PN_EARC, arc_at(a, e, AT_SRC),
                    "arc%s%s%s joins two %s ('%s' and '%s')",
                    a->id ? " '" : "", a->id ? a->id : "",
                    a->id ? "'" : "",
                    ks == PN_PLACE ? "places" : "transitions",
                    a->source, a->target);
    pn_arc_dir_t dir = ks == PN_PLACE ? PN_DIR_PT : PN_DIR_TP;
    if (a->kind != PN_ARC_NORMAL && dir != PN_DIR_PT)
        return fail(rd, PN_EARC, arc_at(a, e, AT_SRC),
                    "%s arc%s%s%s goes from a transition to a place; "
                    "it must go from a place to a transition",
                    pn_arc_kind_name(a->kind), a->id ? " '" : "",
                    a->id ? a->id : "", a->id ? "'" : "");
    const char *id = a->id;
    if (id && pni_hash_get(&rd->refids, id))
        return fail(rd, PN_EDUPID, arc_at(a, e, AT_ID), "duplicate id '%s' (a "
                    "reference node has it)", id);
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
        return fail(rd, PN_EDUPID, arc_at(a, e, AT_ID), "duplicate id '%s'", a->id);
    if (st) {
        at_t at = {arc_at(a, e, AT_SRC).line, 0};
        return fail(rd, st, at, "arc: %s", pn_strstatus(st));
    }
    return 0;
}

static int finish_net(rd_t *rd)
{
    pn_object_t k;
    size_t idx;
    /* reference chains are checked even when no arc uses them */
    for (size_t i = 0; i < rd->nrefs; i++)
        if (rd->refs[i].state != 2 && resolve(rd, rd->refs[i].id, &k, &idx))
            return rd->st ? -1
                          : fail(rd, PN_EUNKNOWN, rd->refs[i].at_ref,
                                 "reference node '%s' refers to '%s', which "
                                 "is no node", rd->refs[i].id,
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
            return fail(rd, PN_EUNKNOWN, rs ? a->at_src : a->at_tgt,
                        "arc%s%s%s: %s '%s' is no place or transition",
                        a->id ? " '" : "", a->id ? a->id : "",
                        a->id ? "'" : "", which, rs ? a->source : a->target);
        }
        if (add_arc(rd, a, NULL, ks, is, kt, it))
            return -1;
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
            return fail(rd, PN_EUNKNOWN, e->at, "'%s' names no %s", e->node,
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
        if (t->owner == PN_PAGE && rd->own_pages && t->index >= rd->nownpages) {
            /* our own <pages> block replaced the document's pages and
             * declares fewer: kept on the net, as pn_net_clear_pages()
             * keeps the blocks of pages it removes, and said */
            char w[600];
            snprintf(w, sizeof w, "%s:%lu: a tool-specific block of page %zu "
                     "is kept on the net: the pn-toolkit <pages> block "
                     "declares %zu page%s", rd->name, t->at.line, t->index + 1,
                     rd->nownpages, rd->nownpages == 1 ? "" : "s");
            if (pn_net_add_warning(rd->net, w))
                return nomem(rd);
            t->owner = PN_NET;
            t->index = 0;
        }
        if (pn_net_add_toolspecific(rd->net, t->owner, t->index, t->tool,
                                    t->version, t->xml))
            return nomem(rd);
    }
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

/* ---- the structure elements, as their tags arrive ---------------------- */

static int push_frame(rd_t *rd, int kind, size_t page)
{
    if (pni_grow((void **)&rd->frames, &rd->cap_frames, rd->nframes + 1,
                 sizeof *rd->frames))
        return nomem(rd);
    frame_t f = {kind, page, rd->page, rd->prefix};
    rd->frames[rd->nframes++] = f;
    return 0;
}

static int start_net(rd_t *rd)
{
    const el_t *e = rd->cur;
    const char *id = attr(rd, "id"), *type = attr(rd, "type");
    /* a net without an id is accepted (PIPE writes some): it is only a
     * name for the whole document */
    if (high_level_type(type))
        return fail_at(rd, PN_EUNSUPPORTED, e, "type=",
                       "unsupported net type '%s' (only place/transition "
                       "nets are read)", type);
    rd->net = pn_net_new(id && *id ? id : NULL);
    /* the type as read: none when the file gives none */
    if (!rd->net || pn_net_set_type(rd->net, type))
        return nomem(rd);
    if (!id || !*id) {
        char w[PN_ERROR_FILE_MAX + 64];
        snprintf(w, sizeof w, "%s:%lu: <net> has no id", rd->name, e->line);
        if (pn_net_add_warning(rd->net, w))
            return nomem(rd);
    }
    /* a type we do not know is read as P/T, and said (none at all is what
     * PIPE's older files and SNAKES write: read as P/T, silently) */
    if (type && !pt_type(type)) {
        char w[PN_ERROR_FILE_MAX + 160];
        snprintf(w, sizeof w, "%s:%lu: unknown net type '%.80s%s': read as "
                 "a P/T net", rd->name, e->line, type,
                 strlen(type) > 80 ? "..." : "");
        if (pn_net_add_warning(rd->net, w))
            return nomem(rd);
    }
    return push_frame(rd, F_NET, PN_NONE);
}

/* A child of <pnml>: a net is read when it is the one asked for. */
static int start_in_root(rd_t *rd, const char *name)
{
    if (!strcmp(name, "query"))
        ignore(rd, IGN_QUERY);
    if (strcmp(name, "net") != 0) {
        rd->skipping = 1;
        return 0;
    }
    const char *id = attr(rd, "id");
    size_t n = strlen(rd->netids);
    if (n + 8 < sizeof rd->netids)
        snprintf(rd->netids + n, sizeof rd->netids - n, "%s'%s'",
                 rd->nnets ? ", " : "", id ? id : "");
    rd->nnets++;
    int match = !rd->found && (!rd->want || (id && !strcmp(id, rd->want)));
    if (!match) {
        rd->skipping = 1;
        return 0;
    }
    rd->found = 1;
    return start_net(rd);
}

/* A child of a net or page that is not collected: a page, a WoPeD
 * subnet, or something skipped whole. */
static int start_in_content(rd_t *rd, const frame_t *f, const char *name)
{
    if (!strcmp(name, "page")) {
        const char *raw = attr(rd, "id");
        const char *id = scoped(rd, raw);
        size_t idx;
        if (rd->st)
            return -1;
        /* accepted, as a net without one is, and said as it is */
        if (!raw || !*raw) {
            char w[PN_ERROR_FILE_MAX + 64];
            snprintf(w, sizeof w, "%s:%lu: <page> has no id", rd->name,
                     rd->cur->line);
            if (pn_net_add_warning(rd->net, w))
                return nomem(rd);
        }
        if (pn_net_add_page(rd->net, id, NULL, rd->page, &idx))
            return nomem(rd);
        if (push_frame(rd, F_PAGE, idx))
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
            return nomem(rd);
        memcpy(scope, pid, n);
        memcpy(scope + n, "/", 2);
        const char *s = pni_arena_strdup(&rd->arena, scope);
        free(scope);
        if (!s || push_frame(rd, F_SUBNET, rd->page))
            return s ? -1 : nomem(rd);
        rd->prefix = s;
        return 0;
    }
    if (!strcmp(name, "query"))
        ignore(rd, IGN_QUERY);
    else if (!strcmp(name, "declaration") || !strcmp(name, "declarations"))
        return unsupported_label(rd, name);
    /* what else a net or page holds is reported by name (pm4py's final
     * markings and variables, PIPE's notes, rate definitions and state
     * groups), but for its graphics and PIPE's token classes */
    else if (strcmp(name, "graphics") && strcmp(name, "token") &&
             strcmp(name, "tokenclass"))
        ignore_label(rd, name);
    rd->skipping = 1;
    return 0;
}

static int end_frame(rd_t *rd)
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
    }
    return 0;
}

/* ---- tool-specific blocks of a net or page, written as they arrive ----
 * The same text serialize() writes from a tree, produced from the SAX
 * events: a block of thousands of lines (the NUPN unit structure of MCC
 * models) needs no tree.  The namespaces a block uses but does not declare
 * go on its root's start tag, as serialize() puts them; the set is known
 * only at the end, so they are inserted there. */

/* A prefix as a hash key: "" for the default namespace (no prefix is
 * empty). */
static const char *s_key(const char *prefix)
{
    return prefix ? prefix : "";
}

/* The number of prefix's declarations in scope, or NULL when it has
 * none in the block. */
static uint32_t *s_count(rd_t *rd, const char *prefix)
{
    const pni_hentry_t *e = pni_hash_get(&rd->sdecl, s_key(prefix));
    return e ? &rd->sdcount[e->index] : NULL;
}

/* A use of prefix (bound to uri there): one of the block's declarations
 * is in scope, or the first use of one declared above the block is
 * noted, to be declared on the block's root. */
static int s_used(rd_t *rd, const char *prefix, const char *uri)
{
    if (!uri || (!prefix && !strcmp(uri, PNML_NS)))
        return 0;
    const uint32_t *in_scope = s_count(rd, prefix);
    if (in_scope && *in_scope)
        return 0;
    pn_status_t st = pni_hash_put(&rd->sseen, s_key(prefix), 0, 0);
    if (st == PN_EDUPID)
        return 0;
    if (st || pni_grow((void **)&rd->sused, &rd->cap_sused, rd->nsused + 1,
                       sizeof *rd->sused))
        return -1;
    rd->sused[rd->nsused].prefix = prefix;
    rd->sused[rd->nsused++].uri = uri;
    return 0;
}

/* A declaration of prefix comes into scope. */
static int s_declare(rd_t *rd, const char *prefix)
{
    uint32_t *n = s_count(rd, prefix);
    if (n) {
        ++*n;
        return 0;
    }
    size_t k = rd->sdecl.used;
    if (pni_grow((void **)&rd->sdcount, &rd->cap_sdcount, k + 1,
                 sizeof *rd->sdcount) ||
        pni_hash_put(&rd->sdecl, s_key(prefix), 0, k))
        return -1;
    rd->sdcount[k] = 1;
    return 0;
}

/* A declaration of prefix leaves scope. */
static void s_undeclare(rd_t *rd, const char *prefix)
{
    uint32_t *n = s_count(rd, prefix);
    if (n && *n)
        --*n;
}

/* Forgets the prefixes of a block (the tables are kept for the next). */
static void s_forget(rd_t *rd)
{
    rd->nsused = 0;
    rd->nsdstack = 0;
    pni_hash_clear(&rd->sdecl);
    pni_hash_clear(&rd->sseen);
}

/* Ends a CDATA section and the open start tag: content follows. */
static int s_content(rd_t *rd)
{
    if (rd->scdata) {
        rd->scdata = 0;
        if (sput(rd, "]]>", 3))
            return -1;
    }
    if (rd->sopen) {
        rd->sopen = 0;
        return sput(rd, ">", 1);
    }
    return 0;
}

/* The value of a SAX2 attribute (5 pointers: name, prefix, uri, value,
 * end) with the references the parser left in replaced; *d gets what the
 * caller frees (NULL when nothing). */
static const char *attr_value(rd_t *rd, const xmlChar **a, size_t *n,
                              xmlChar **d)
{
    *n = (size_t)(a[4] - a[3]);
    *d = NULL;
    if (!memchr(a[3], '&', *n))
        return (const char *)a[3];
    *d = xmlStringLenDecodeEntities(rd->ctxt, a[3], (int)*n,
                                    XML_SUBSTITUTE_REF, 0, 0, 0);
    if (!*d) {
        if (!rd->st)
            nomem(rd);
        return NULL;
    }
    *n = strlen((const char *)*d);
    return (const char *)*d;
}

static int s_start(rd_t *rd, const xmlChar *localname, const xmlChar *prefix,
                   const xmlChar *uri, int nb_namespaces,
                   const xmlChar **namespaces, int nb_attributes,
                   const xmlChar **attributes)
{
    int root = rd->sdepth == 0;
    if (s_content(rd) || sput(rd, "<", 1) ||
        sqname(rd, (const char *)prefix, (const char *)localname))
        return nomem(rd);
    /* the declarations of this element, in scope until its end */
    if (pni_grow((void **)&rd->sdmark, &rd->cap_sdmark, rd->sdepth + 1,
                 sizeof *rd->sdmark) ||
        pni_grow((void **)&rd->sdstack, &rd->cap_sdstack,
                 rd->nsdstack + (size_t)(nb_namespaces > 0 ? nb_namespaces
                                                           : 0) + 1,
                 sizeof *rd->sdstack))
        return nomem(rd);
    rd->sdmark[rd->sdepth] = rd->nsdstack;
    for (int i = 0; i < nb_namespaces; i++) {
        const char *p = (const char *)namespaces[2 * i];
        const char *u = (const char *)namespaces[2 * i + 1];
        if (s_declare(rd, p))
            return nomem(rd);
        rd->sdstack[rd->nsdstack++] = p;
        if (!(root && !p && !strcmp(u, PNML_NS)) && sns(rd, p, u))
            return nomem(rd);
    }
    if (root)
        rd->sroot = rd->nsbuf;
    if (s_used(rd, (const char *)prefix, (const char *)uri))
        return nomem(rd);
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attributes + 5 * i;
        if (a[1] && s_used(rd, (const char *)a[1], (const char *)a[2]))
            return nomem(rd);
        size_t n;
        xmlChar *d;
        const char *v = attr_value(rd, a, &n, &d);
        if (!v)
            return -1;
        const char **keep_as = NULL;
        if (root && !strcmp((const char *)a[0], "tool") && !rd->stool.tool)
            keep_as = &rd->stool.tool;
        if (root && !strcmp((const char *)a[0], "version") &&
            !rd->stool.version)
            keep_as = &rd->stool.version;
        int bad = keep_as &&
                  !(*keep_as = pni_arena_strndup(&rd->arena, v, n));
        bad = bad || sput(rd, " ", 1) ||
                  sqname(rd, (const char *)a[1], (const char *)a[0]) ||
                  sput(rd, "=\"", 2) || sescape(rd, v, n, 1) ||
                  sput(rd, "\"", 1);
        xmlFree(d);
        if (bad)
            return nomem(rd);
    }
    rd->sopen = 1;
    rd->sdepth++;
    return 0;
}

static int s_text(rd_t *rd, const xmlChar *ch, int len, int cdata)
{
    if (len <= 0)
        return 0;
    if (rd->scdata != cdata && s_content(rd))
        return nomem(rd);
    if (rd->sopen && s_content(rd))
        return nomem(rd);
    if (!cdata)
        return sescape(rd, (const char *)ch, (size_t)len, 0) ? nomem(rd) : 0;
    if (!rd->scdata && sput(rd, "<![CDATA[", 9))
        return nomem(rd);
    rd->scdata = 1;
    return sput(rd, (const char *)ch, (size_t)len) ? nomem(rd) : 0;
}

static int s_end(rd_t *rd, const xmlChar *localname, const xmlChar *prefix)
{
    if (rd->scdata) {
        rd->scdata = 0;
        if (sput(rd, "]]>", 3))
            return nomem(rd);
    }
    if (rd->sopen) {
        rd->sopen = 0;
        if (sput(rd, "/>", 2))
            return nomem(rd);
    } else if (sput(rd, "</", 2) ||
               sqname(rd, (const char *)prefix, (const char *)localname) ||
               sput(rd, ">", 1)) {
        return nomem(rd);
    }
    /* the element's declarations leave scope */
    while (rd->nsdstack > rd->sdmark[rd->sdepth - 1])
        s_undeclare(rd, rd->sdstack[--rd->nsdstack]);
    if (--rd->sdepth)
        return 0;
    /* the block is whole: the namespaces it uses out of the scope of its
     * own declarations go on its root, after the root's own ones */
    size_t end = rd->nsbuf;
    for (size_t i = 0; i < rd->nsused; i++)
        if (sns(rd, rd->sused[i].prefix, rd->sused[i].uri))
            return nomem(rd);
    size_t k = rd->nsbuf - end;
    if (k) {
        char *decl = malloc(k);
        if (!decl)
            return nomem(rd);
        memcpy(decl, rd->sbuf + end, k);
        memmove(rd->sbuf + rd->sroot + k, rd->sbuf + rd->sroot,
                end - rd->sroot);
        memcpy(rd->sbuf + rd->sroot, decl, k);
        free(decl);
    }
    s_forget(rd);
    if (pni_grow((void **)&rd->tools, &rd->cap_tools, rd->ntools + 1,
                 sizeof *rd->tools))
        return nomem(rd);
    /* the text is handed over whole, not copied */
    rd_tool_t t = rd->stool;
    t.xml = t.own = rd->sbuf;
    rd->tools[rd->ntools++] = t;
    rd->sbuf = NULL;
    rd->nsbuf = rd->cap_sbuf = 0;
    return 0;
}

/* Whether a child of a net or page is a tool-specific block to stream:
 * any but our own block of the net (read by own_child() from a tree). */
static int streamed_tool(rd_t *rd, const xmlChar *localname, int nb_attributes,
                         const xmlChar **attributes)
{
    if (strcmp((const char *)localname, "toolspecific") != 0)
        return 0;
    if (rd->frames[rd->nframes - 1].page != PN_NONE)
        return 1;
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attributes + 5 * i;
        if (!strcmp((const char *)a[0], "tool"))
            return (size_t)(a[4] - a[3]) != strlen(PNI_TOOL_NAME) ||
                   memcmp(a[3], PNI_TOOL_NAME, strlen(PNI_TOOL_NAME)) != 0;
    }
    return 1;
}

/* ---- SAX2 events ------------------------------------------------------- */

/* The reader behind a parser context; NULL for the contexts libxml2 makes
 * to check an entity's text (their events are not the document's). */
static rd_t *reader_of(void *ctx)
{
    xmlParserCtxtPtr ctxt = ctx;
    rd_t *rd = ctxt ? ctxt->_private : NULL;
    return rd && rd->ctxt == ctxt && rd->st == PN_OK ? rd : NULL;
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
    xmlParserInputPtr in = rd->ctxt->input;
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
    e->text = tstrndup(rd, (const char *)lt, e->ntext);
    return e->text ? 0 : nomem(rd);
}

/* The text run of the open element, as a text node. */
static int close_run(rd_t *rd)
{
    if (!rd->nrun || !rd->open)
        return 0;
    el_t *t = talloc(rd, sizeof *t);
    if (!t || !(t->text = tstrndup(rd, rd->run, rd->nrun)))
        return nomem(rd);
    memset(t, 0, offsetof(el_t, text));
    t->ntext = rd->nrun;
    t->first = t->last = t->next = NULL;
    t->parent = rd->open;
    t->line = t->col = t->tline = t->tcol = 0;
    t->cdata = rd->run_cdata;
    if (rd->open->last)
        rd->open->last->next = t;
    else
        rd->open->first = t;
    rd->open->last = t;
    rd->nrun = 0;
    return 0;
}

/* The common arc, <arc id="a" source="p" target="t"/> with both ends
 * known, added as its start tag arrives: no tree, no copies.  Anything
 * else (other attributes that matter, an entity in a value, children, a
 * scope, an end that is not known yet or is an arc, a reference node, a
 * repeated id, any error) returns 0 and nothing is done: the arc is then
 * collected and read by read_arc() as usual, which says what is wrong
 * where.  1: the arc is added (its end tag is to be ignored). */
static int fast_arc(rd_t *rd, const xmlChar *localname, int nb_namespaces,
                    int nb_attributes, const xmlChar **attributes)
{
    if (localname[0] != 'a' || strcmp((const char *)localname, "arc") ||
        nb_namespaces || rd->deferring || rd->nrefs || *rd->prefix)
        return 0;
    xmlParserInputPtr in = rd->ctxt->input;
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
    rd->fast_end = 1;
    return 1;
}

static el_t *new_element(rd_t *rd, const xmlChar *localname,
                         const xmlChar *prefix, const xmlChar *uri,
                         int nb_namespaces, const xmlChar **namespaces,
                         int nb_attributes, const xmlChar **attributes)
{
    el_t *e = talloc(rd, sizeof *e);
    if (!e) {
        nomem(rd);
        return NULL;
    }
    memset(e, 0, sizeof *e);
    e->name = (const char *)localname;
    e->prefix = (const char *)prefix;
    e->uri = (const char *)uri;
    if (nb_namespaces > 0) {
        if (!(e->ns = talloc(rd, 2 * (size_t)nb_namespaces * sizeof *e->ns))) {
            nomem(rd);
            return NULL;
        }
        for (int i = 0; i < 2 * nb_namespaces; i++)
            e->ns[i] = (const char *)namespaces[i];
        e->nns = nb_namespaces;
    }
    if (nb_attributes > 0) {
        if (!(e->att = talloc(rd, 4 * (size_t)nb_attributes *
                                      sizeof *e->att))) {
            nomem(rd);
            return NULL;
        }
        for (int i = 0; i < nb_attributes; i++) {
            const xmlChar **a = attributes + 5 * i;
            size_t n = (size_t)(a[4] - a[3]);
            const char *v;
            if (memchr(a[3], '&', n)) {
                /* character and entity references the parser left in */
                xmlChar *d = xmlStringLenDecodeEntities(
                    rd->ctxt, a[3], (int)n, XML_SUBSTITUTE_REF, 0, 0, 0);
                v = d ? tstrndup(rd, (const char *)d, strlen((char *)d))
                      : NULL;
                xmlFree(d);
                if (!d && rd->st)
                    return NULL;
            } else {
                v = tstrndup(rd, (const char *)a[3], n);
            }
            if (!v) {
                nomem(rd);
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
    if (rd->nopened == rd->cap_opened &&
        pni_grow((void **)&rd->opened, &rd->cap_opened, rd->nopened + 1,
                 sizeof *rd->opened)) {
        nomem(rd);
        return;
    }
    rd->opened[rd->nopened].name = (const char *)localname;
    rd->opened[rd->nopened++].line =
        rd->ctxt->input->line > 0 ? (unsigned long)rd->ctxt->input->line : 0;
    if (rd->skipping) {
        rd->skipping++;
        return;
    }
    if (rd->sdepth) {
        s_start(rd, localname, prefix, uri, nb_namespaces, namespaces,
                nb_attributes, attributes);
        return;
    }
    if (!rd->top && rd->nframes && rd->frames[rd->nframes - 1].kind != F_ROOT &&
        streamed_tool(rd, localname, nb_attributes, attributes)) {
        size_t page = rd->frames[rd->nframes - 1].page;
        xmlParserInputPtr in = rd->ctxt->input;
        rd_tool_t t = {page == PN_NONE ? PN_NET : PN_PAGE,
                       page == PN_NONE ? 0 : page, NULL, NULL, NULL, NULL,
                       {in->line > 0 ? (unsigned long)in->line : 0, 0}};
        rd->stool = t;
        rd->nsbuf = 0;
        s_start(rd, localname, prefix, uri, nb_namespaces, namespaces,
                nb_attributes, attributes);
        return;
    }
    if (!rd->top && rd->nframes && rd->frames[rd->nframes - 1].kind != F_ROOT &&
        fast_arc(rd, localname, nb_namespaces, nb_attributes, attributes))
        return;
    if (rd->top && close_run(rd))
        return;
    el_t *e = new_element(rd, localname, prefix, uri, nb_namespaces,
                          namespaces, nb_attributes, attributes);
    if (!e)
        return;
    const char *name = e->name;
    if (rd->top) {
        e->parent = rd->open;
        if (rd->open->last)
            rd->open->last->next = e;
        else
            rd->open->first = e;
        rd->open->last = e;
        rd->open = e;
        return;
    }
    rd->cur = e;
    if (!rd->nframes) {
        rd->root_seen = 1;
        /* a start tag cut by the end of the input is reported as such
         * by the parser next, its name perhaps cut too */
        if (strcmp(name, "pnml") != 0 && !rd->at_end)
            fail_at(rd, PN_ESTRUCT, e, "<", "root element is <%s>, not "
                    "<pnml>", name);
        else
            push_frame(rd, F_ROOT, PN_NONE);
    } else {
        const frame_t *f = &rd->frames[rd->nframes - 1];
        if (f->kind == F_ROOT) {
            start_in_root(rd, name);
        } else if (is_object(name)) {
            rd->top = rd->open = e;
            return; /* the tree is read when it ends */
        } else {
            start_in_content(rd, f, name);
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
    if (rd->nopened)
        rd->nopened--;
    if (rd->skipping) {
        rd->skipping--;
        return;
    }
    if (rd->sdepth) {
        s_end(rd, localname, prefix);
        return;
    }
    if (rd->fast_end) {
        rd->fast_end = 0;
        return;
    }
    if (rd->top) {
        if (close_run(rd))
            return;
        el_t *e = rd->open;
        rd->open = e->parent;
        if (e == rd->top) {
            rd->cur = e;
            read_object(rd, rd->frames[rd->nframes - 1].page, e->name);
            treset(rd);
        }
        return;
    }
    if (rd->nframes)
        end_frame(rd);
}

static void on_text(rd_t *rd, const xmlChar *ch, int len, int cdata)
{
    if (!rd->open || len <= 0)
        return;
    if (rd->nrun && rd->run_cdata != cdata && close_run(rd))
        return;
    rd->run_cdata = cdata;
    if (pni_grow((void **)&rd->run, &rd->cap_run, rd->nrun + (size_t)len + 1,
                 1)) {
        nomem(rd);
        return;
    }
    memcpy(rd->run + rd->nrun, ch, (size_t)len);
    rd->nrun += (size_t)len;
}

static void on_characters(void *ctx, const xmlChar *ch, int len)
{
    rd_t *rd = reader_of(ctx);
    if (rd && rd->sdepth)
        s_text(rd, ch, len, 0);
    else if (rd && !rd->skipping)
        on_text(rd, ch, len, 0);
}

static void on_cdata(void *ctx, const xmlChar *ch, int len)
{
    rd_t *rd = reader_of(ctx);
    if (rd && rd->sdepth)
        s_text(rd, ch, len, 1);
    else if (rd && !rd->skipping)
        on_text(rd, ch, len, 1);
}

/* An entity reference the parser does not expand (all but the five
 * predefined ones and character references): refused. */
static void on_reference(void *ctx, const xmlChar *name)
{
    rd_t *rd = reader_of(ctx);
    if (!rd)
        return;
    xmlParserInputPtr in = rd->ctxt->input;
    long col = (long)in->col - (long)strlen((const char *)name) - 2;
    at_t at = {in->line > 0 ? (unsigned long)in->line : 0,
               col > 0 ? (unsigned long)col : 1};
    fail(rd, PN_ESTRUCT, at, "entity reference '&%s;' (entities are not "
         "expanded)", name);
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
    free(rd->sused);
    free(rd->opened);
    free(rd->name_line);
    pni_hash_free(&rd->sdecl);
    pni_hash_free(&rd->sseen);
    free(rd->sdcount);
    free(rd->sdstack);
    free(rd->sdmark);
    free(rd->extras);
    free(rd->ownpages);
    free(rd->frames);
    free(rd->run);
    free(rd->sbuf);
    tfree(rd);
}

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

/* Reads the document from buf (len bytes) or, when fd >= 0, streams it
 * from fd in blocks. */
static pn_status_t read_doc(const char *buf, size_t len, int fd,
                            const pn_read_options_t *opts,
                            pn_net_t **net_out, pn_error_t *err)
{
    rd_t rd = {0};
    rd.name = err->file;
    rd.err = err;
    rd.want = opts ? opts->net_id : NULL;
    rd.prefix = "";
    rd.page = PN_NONE;
    pni_arena_init(&rd.arena);
    pni_hash_init(&rd.refids);
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
    size_t off = 0;   /* of buf, fed so far */
    int blank = 1;    /* nothing but white space so far */
    if (fd >= 0 && !(block = malloc(BLOCK))) {
        nomem(&rd);
        goto done;
    }
    rd.ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    if (!rd.ctxt) {
        nomem(&rd);
        goto done;
    }
    rd.ctxt->_private = &rd;
    xmlCtxtUseOptions(rd.ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    /* errors libxml2 raises without the parser context (input encoding,
     * I/O) come here too, not to standard error; the handler is the
     * thread's own and is put back afterwards */
    xmlSetStructuredErrorFunc(rd.ctxt, on_xml_error);
    for (;;) {
        const char *chunk;
        size_t n;
        if (fd >= 0) {
            ssize_t r;
            do
                r = read(fd, block, BLOCK);
            while (r < 0 && errno == EINTR);
            if (r < 0) {
                int e = errno;
                fail(&rd, PN_EIO, (at_t){0, 0}, "cannot read: %s",
                     strerror(e));
                goto done;
            }
            chunk = block;
            n = (size_t)r;
        } else {
            chunk = buf + off;
            n = len - off < BLOCK ? len - off : BLOCK;
            off += n;
        }
        for (size_t i = 0; blank && i < n; i++)
            blank = chunk[i] == ' ' || chunk[i] == '\t' || chunk[i] == '\r' ||
                    chunk[i] == '\n';
        if (n == 0 && blank) {
            fail(&rd, PN_EXML, (at_t){1, 1},
                 "malformed XML: the document is empty");
            goto done;
        }
        rd.at_end = n == 0;
        rd.nopened_end = rd.nopened;
        xmlParseChunk(rd.ctxt, chunk, (int)n, n == 0);
        if (rd.st || n == 0)
            break;
    }
    xmlSetStructuredErrorFunc(saved_sctx, saved_serror);
    if (rd.st == PN_OK && !rd.root_seen)
        fail(&rd, PN_EXML, (at_t){1, 1}, "malformed XML: no root element");
    if (rd.st == PN_OK && rd.ctxt->wellFormed == 0)
        fail(&rd, PN_EXML, (at_t){(unsigned long)rd.ctxt->input->line, 0},
             "malformed XML");
    if (rd.st == PN_OK && rd.found)
        warn_other_nets(&rd);
    if (rd.st == PN_OK && rd.found)
        warn_ignored(&rd);
    if (rd.st == PN_OK && !rd.found) {
        if (rd.want)
            fail(&rd, PN_ENONET, (at_t){0, 0}, "no <net> with id '%s'",
                 rd.want);
        else
            fail(&rd, PN_ENONET, (at_t){0, 0}, "the document has no <net>");
    }
done:
    if (rd.ctxt && xmlStructuredErrorContext == rd.ctxt)
        xmlSetStructuredErrorFunc(saved_sctx, saved_serror);
    if (rd.ctxt) {
        if (rd.ctxt->myDoc)
            xmlFreeDoc(rd.ctxt->myDoc);
        rd.ctxt->myDoc = NULL;
        xmlFreeParserCtxt(rd.ctxt);
    }
    free(block);
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
