/*
 * pnml/reader_private.h - what the files of the PNML reader share (not
 * installed): the reader's state, cut by the file that works on each part,
 * and the functions one file gives the others.
 *
 *   sax.c           libxml2's events and errors, the per-object trees
 *                   collected from the events, errors and positions
 *   toolspecific.c  tool-specific blocks written back as text, from a
 *                   tree or streamed from the events
 *   objects.c       each collected object read: nodes, arcs, reference
 *                   nodes, labels, our own block
 *   reader.c        the structure of the document, the net finished from
 *                   what was collected, the entry points
 *   pnpro.c         GreatSPN's PNPRO project files: their objects
 *   pm4py.c         pm4py's stochastic block of a transition
 */
#ifndef PN_READER_PRIVATE_H
#define PN_READER_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <libxml/parser.h>
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

/* An entry of our own block that names a node: a capacity, a page member
 * or a transition's timing. */
enum { EXTRA_CAPACITY, EXTRA_MEMBER, EXTRA_TIMING };
typedef struct {
    const char *node;
    int what;    /* EXTRA_* */
    uint64_t capacity;
    size_t page;
    pn_timing_t timing;
    double rate;
    int priority;
    pn_server_t server;
    unsigned servers;
    at_t at;
    const char *expr;  /* our block's expression= (NULL: none) */
    at_t expr_at;
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
enum { F_ROOT, F_NET, F_PAGE, F_SUBNET, F_GROUP }; /* F_GROUP: PNPRO's
                                                  <nodes>, <edges> */
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
    IGN_INTERVAL, IGN_INVARIANT, IGN_TRANSPORT, IGN_URGENT, IGN_TIMING,
    IGN_PRIORITY, IGN_QUERY, IGN_ARCNAME, IGN_BEND, IGN_LABELTOOL,
    IGN_GUARD, IGN_PLAYER, IGN_DISTRIBUTION, IGN_LABEL, IGN_COUNT
};

/* Errors and what the net cannot say (sax.c reports, every file counts). */
typedef struct {
    const char *name;   /* the document, as messages name it */
    pn_error_t *err;
    pn_status_t st;     /* the first error; PN_OK while there is none */
    size_t ignored[IGN_COUNT]; /* what the net cannot say (IGN_*) */
    char unknown[160];  /* names of labels we do not understand */
} rd_diag_t;

/* The parser and the document's elements as it reports them (sax.c). */
typedef struct {
    xmlParserCtxtPtr ctxt;
    int in_xml_error;   /* inside libxml2's error report */
    int root_seen;
    unsigned long skipping; /* depth inside an element skipped whole */
    int fast_end;       /* the next end tag is that of an arc added at its
                           start (fast_arc()) */
    /* the elements open in the document, outermost first: said when the
     * file ends before they are closed */
    rd_open_t *opened;
    size_t nopened, cap_opened;
    int at_end;         /* the parser is given the end of the input */
    size_t nopened_end; /* nopened then */
} rd_xml_t;

/* The object being collected, and the handlers' place in it (sax.c). */
typedef struct {
    el_t *top, *open;       /* the object being collected; its open element */
    tchunk_t *tchunks, *tcur, *tbig;
    size_t tused;
    pni_sb_t run;           /* the text run of the open element */
    int run_cdata;
    el_t *cur;          /* the element a handler is on */
    const char *text;   /* pni_rd_text_of(): the text of cur */
    size_t ntext;
} rd_tree_t;

/* Tool-specific blocks written back as text (toolspecific.c). */
typedef struct {
    pni_sb_t sbuf;          /* serialized tool-specific XML */
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
} rd_ts_t;

/* The reader: the net being built and what waits for the net's end
 * (reader.c and objects.c), then the parts the other files keep. */
typedef struct rd {
    pn_net_t *net;
    const char *want;
    int found;
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
    /* transitions whose PIPE timing says more than PIPE's default (an
     * immediate transition of weight 1 and priority 1, single server):
     * while there are none, the net is read untimed */
    size_t timing_special;
    struct pni_rd_rate *rates; /* rates that are expressions (pipe_rate.c) */
    size_t nrates, cap_rates;
    at_t *def_at;              /* where each rate parameter was read */
    size_t cap_def_at;
    struct pni_pnpro *pnpro; /* a GreatSPN project (pnpro.c); NULL: PNML */
    int deferring;      /* an arc waits: the later ones wait too */
    const char *prefix; /* id scope of WoPeD subprocess nets ("" at top) */
    size_t page;        /* current page, PN_NONE directly in the net */
    frame_t *frames;    /* the structure elements open */
    size_t nframes, cap_frames;
    /* the line of the <name> of the net (name_line[0]) and of each page
     * (name_line[1 + page]), 0 when none yet: a second one is refused */
    unsigned long *name_line;
    size_t cap_name_line;
    rd_diag_t diag;
    rd_xml_t xml;
    rd_tree_t tree;
    rd_ts_t ts;
} rd_t;

/* Something the net cannot say, counted for the warning at the end. */
static inline void pni_rd_ignore(rd_t *rd, int what)
{
    rd->diag.ignored[what]++;
}

/* Calls fn on each child element of the current element, with
 * rd->tree.cur on it (inline: a handler's callbacks are inlined into it). */
typedef int (*child_fn)(rd_t *rd, void *ctx, const char *name);
static inline int pni_rd_children(rd_t *rd, child_fn fn, void *ctx)
{
    el_t *e = rd->tree.cur;
    for (el_t *c = e->first; c; c = c->next) {
        if (!c->name)
            continue;
        rd->tree.cur = c;
        int ret = fn(rd, ctx, c->name);
        rd->tree.cur = e;
        if (ret < 0 || rd->diag.st)
            return -1;
    }
    return 0;
}

/* The handlers "consume" an element by returning: nothing to skip. */
static inline int pni_rd_skip(rd_t *rd)
{
    return rd->diag.st ? -1 : 0;
}

/* Each function below is described where it is defined.  They are hidden
 * (neither exported nor interposable), so that calls within a file are
 * direct and may be inlined, as when they were one file's static
 * functions: the reader runs as fast as it did then. */
#pragma GCC visibility push(hidden)

/* ---- sax.c: the parser, errors and positions, the collected tree ------- */

int pni_rd_parse(rd_t *rd, const char *buf, size_t len, int fd);
void pni_rd_parse_free(rd_t *rd);

/* errors (the first one holds; each returns -1) and where they are */
int pni_rd_fail(rd_t *rd, pn_status_t code, at_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int pni_rd_fail_at(rd_t *rd, pn_status_t code, const el_t *e,
                   const char *needle, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int pni_rd_nomem(rd_t *rd);
at_t pni_rd_where(const el_t *e, const char *needle);
at_t pni_rd_where_text(const el_t *e, const char *needle);

/* the tree of the object being read: memory that lasts until the object
 * is read, and the handlers' walk over it (rd->tree.cur) */
void *pni_rd_talloc(rd_t *rd, size_t n);
char *pni_rd_tstrndup(rd_t *rd, const char *s, size_t n);
int pni_rd_text_of(rd_t *rd);
const char *pni_rd_attr(rd_t *rd, const char *name);
int pni_rd_attrs(rd_t *rd, const char *const *names, const char **out,
                 int n);

/* ---- toolspecific.c: tool-specific blocks kept as text ----------------- */

int pni_rd_keep_tool(rd_t *rd, pn_object_t owner, size_t index);
int pni_rd_stream_start(rd_t *rd, int in_content, const xmlChar *localname,
                        const xmlChar *prefix, const xmlChar *uri,
                        int nb_namespaces, const xmlChar **namespaces,
                        int nb_attributes, const xmlChar **attributes);
int pni_rd_stream_text(rd_t *rd, const xmlChar *ch, int len, int cdata);
int pni_rd_stream_end(rd_t *rd, const xmlChar *localname,
                      const xmlChar *prefix);
void pni_rd_tool_free(rd_t *rd);

/* ---- objects.c: each collected object read ----------------------------- */

int pni_rd_read_object(rd_t *rd, size_t page, const char *name);
const char *pni_rd_keep(rd_t *rd, const char *s);
const char *pni_rd_scoped(rd_t *rd, const char *id);
int pni_rd_unsupported_label(rd_t *rd, const char *name);

/* ---- reader.c: the structure of the document, the net finished --------- */

void pni_rd_ignore_label(rd_t *rd, const char *name);
int pni_rd_add_arc(rd_t *rd, const rd_arc_t *a, const el_t *e,
                   pn_object_t ks, size_t is, pn_object_t kt, size_t it);
int pni_rd_push_frame(rd_t *rd, int kind, size_t page);
int pni_rd_start_in_root(rd_t *rd, const char *name);
int pni_rd_start_in_content(rd_t *rd, const frame_t *f, const char *name);
int pni_rd_end_frame(rd_t *rd);

/* ---- pm4py.c: pm4py's StochasticPetriNet block of a transition -------- */

/* The block's properties as text (NULL: not given), where each is. */
typedef struct {
    int seen;
    const char *type, *params, *priority, *weight;
    at_t at[4];
} pni_spn_t;
int pni_rd_spn_block(rd_t *rd, pni_spn_t *s);
int pni_rd_spn_set(rd_t *rd, const pni_spn_t *s, size_t index);

/* ---- pnpro.c: GreatSPN's PNPRO project files ------------------------- */

/* PIPE's rates that are expressions of the marking and its <definition>s
 * (pipe_rate.c): a transition's rate text (def: the rateDefinition of its
 * PIPE block, NULL none) at `at`, checked when the net is whole; a
 * <definition>; the pending rates checked and set. */
int pni_rd_rate_add(rd_t *rd, size_t transition, const char *text,
                    const char *def, at_t at);
int pni_rd_definition(rd_t *rd);
int pni_rd_rates_finish(rd_t *rd);
void pni_rd_rates_free(rd_t *rd);
/* The <toolspecific> element e as XML text, in rd's arena (NULL: out of
 * memory). */
const char *pni_rd_serialized(rd_t *rd, const el_t *e);
int pni_pnpro_root(rd_t *rd);
int pni_pnpro_start_in_root(rd_t *rd, const char *name);
int pni_pnpro_start_in_content(rd_t *rd, const char *name);
int pni_pnpro_is_object(const char *name);
int pni_pnpro_read_object(rd_t *rd, const char *name);
int pni_pnpro_finish(rd_t *rd);
void pni_pnpro_free(rd_t *rd);

#pragma GCC visibility pop

#endif
