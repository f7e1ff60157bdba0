/*
 * Tool-specific blocks of a PNML document, kept as the text libxml2 would
 * write of them: from the tree collected for an object (serialize()), or,
 * for a block of a net or a page, streamed from the SAX events as they
 * arrive (a block of thousands of lines needs no tree).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include "reader_private.h"

/* ---- tool-specific blocks, written back as read ------------------------ */

/* s escaped as libxml2 writes text (attr 0) or attribute values (1). */
static int sescape(pni_sb_t *b, const char *s, size_t n, int attr)
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
        if (pni_sb_put(b, s + from, i - from) || pni_sb_puts(b, rep))
            return -1;
        from = i + 1;
    }
    return pni_sb_put(b, s + from, n - from);
}

static int sqname(pni_sb_t *b, const char *prefix, const char *name)
{
    if (prefix && (pni_sb_puts(b, prefix) || pni_sb_put(b, ":", 1)))
        return -1;
    return pni_sb_puts(b, name);
}

static int sns(pni_sb_t *b, const char *prefix, const char *uri)
{
    if (pni_sb_puts(b, " xmlns") ||
        (prefix && (pni_sb_put(b, ":", 1) || pni_sb_puts(b, prefix))) ||
        pni_sb_put(b, "=\"", 2) || sescape(b, uri, strlen(uri), 1))
        return -1;
    return pni_sb_put(b, "\"", 1);
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
    pni_sb_t *b = &rd->ts.sbuf;
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
            if (e->cdata ? pni_sb_puts(b, "<![CDATA[") ||
                               pni_sb_put(b, e->text, e->ntext) ||
                               pni_sb_puts(b, "]]>")
                         : sescape(b, e->text, e->ntext, 0))
                return -1;
        } else {
            if (pni_sb_put(b, "<", 1) || sqname(b, e->prefix, e->name))
                return -1;
            for (int i = 0; i < e->nns; i++)
                if (!(e == root && !e->ns[2 * i] &&
                      !strcmp(e->ns[2 * i + 1], PNML_NS)) &&
                    sns(b, e->ns[2 * i], e->ns[2 * i + 1]))
                    return -1;
            if (e == root)
                for (size_t i = 0; i < rd->ts.nsused; i++)
                    if (sns(b, rd->ts.sused[i].prefix, rd->ts.sused[i].uri))
                        return -1;
            for (int i = 0; i < e->nattr; i++) {
                const char *v = e->att[4 * i + 3];
                if (pni_sb_put(b, " ", 1) ||
                    sqname(b, e->att[4 * i + 1], e->att[4 * i]) ||
                    pni_sb_put(b, "=\"", 2) || sescape(b, v, strlen(v), 1) ||
                    pni_sb_put(b, "\"", 1))
                    return -1;
            }
            if (e->first) {
                if (pni_sb_put(b, ">", 1))
                    return -1;
                e = e->first;
                continue;
            }
            if (pni_sb_put(b, "/>", 2))
                return -1;
        }
        /* up to the next sibling, closing the elements left */
        while (e != root && !e->next) {
            e = e->parent;
            if (pni_sb_put(b, "</", 2) || sqname(b, e->prefix, e->name) ||
                pni_sb_put(b, ">", 1))
                return -1;
        }
        e = e == root ? NULL : e->next;
    }
    s_forget(rd);
    return 0;
}

/* The current element, a tool-specific block collected as a tree, kept
 * for the end of the net as its text, for owner and index (PN_NONE: a
 * node's, set once the node is added). */
const char *pni_rd_serialized(rd_t *rd, const el_t *e)
{
    pni_sb_truncate(&rd->ts.sbuf, 0);
    if (serialize(rd, e))
        return NULL;
    return pni_arena_strndup(&rd->arena, rd->ts.sbuf.s, rd->ts.sbuf.n);
}

int pni_rd_keep_tool(rd_t *rd, pn_object_t owner, size_t index)
{
    const char *tool = pni_rd_keep(rd, pni_rd_attr(rd, "tool"));
    const char *version = pni_rd_keep(rd, pni_rd_attr(rd, "version"));
    if (rd->diag.st)
        return -1;
    pni_sb_truncate(&rd->ts.sbuf, 0);
    if (serialize(rd, rd->tree.cur))
        return pni_rd_nomem(rd);
    const char *c =
        pni_arena_strndup(&rd->arena, rd->ts.sbuf.s, rd->ts.sbuf.n);
    if (!c ||
        pni_grow((void **)&rd->tools, &rd->cap_tools, rd->ntools + 1,
                 sizeof *rd->tools))
        return pni_rd_nomem(rd);
    rd_tool_t t = {owner, index, tool, version, c, NULL,
                   pni_rd_where(rd->tree.cur, NULL)};
    rd->tools[rd->ntools++] = t;
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
    const pni_hentry_t *e = pni_hash_get(&rd->ts.sdecl, s_key(prefix));
    return e ? &rd->ts.sdcount[e->index] : NULL;
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
    pn_status_t st = pni_hash_put(&rd->ts.sseen, s_key(prefix), 0, 0);
    if (st == PN_EDUPID)
        return 0;
    if (st || pni_grow((void **)&rd->ts.sused, &rd->ts.cap_sused,
                       rd->ts.nsused + 1, sizeof *rd->ts.sused))
        return -1;
    rd->ts.sused[rd->ts.nsused].prefix = prefix;
    rd->ts.sused[rd->ts.nsused++].uri = uri;
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
    size_t k = rd->ts.sdecl.used;
    if (pni_grow((void **)&rd->ts.sdcount, &rd->ts.cap_sdcount, k + 1,
                 sizeof *rd->ts.sdcount) ||
        pni_hash_put(&rd->ts.sdecl, s_key(prefix), 0, k))
        return -1;
    rd->ts.sdcount[k] = 1;
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
    rd->ts.nsused = 0;
    rd->ts.nsdstack = 0;
    pni_hash_clear(&rd->ts.sdecl);
    pni_hash_clear(&rd->ts.sseen);
}

/* Ends a CDATA section and the open start tag: content follows. */
static int s_content(rd_t *rd)
{
    pni_sb_t *b = &rd->ts.sbuf;
    if (rd->ts.scdata) {
        rd->ts.scdata = 0;
        if (pni_sb_put(b, "]]>", 3))
            return -1;
    }
    if (rd->ts.sopen) {
        rd->ts.sopen = 0;
        return pni_sb_put(b, ">", 1);
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
    *d = xmlStringLenDecodeEntities(rd->xml.ctxt, a[3], (int)*n,
                                    XML_SUBSTITUTE_REF, 0, 0, 0);
    if (!*d) {
        if (!rd->diag.st)
            pni_rd_nomem(rd);
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
    pni_sb_t *b = &rd->ts.sbuf;
    int root = rd->ts.sdepth == 0;
    if (s_content(rd) || pni_sb_put(b, "<", 1) ||
        sqname(b, (const char *)prefix, (const char *)localname))
        return pni_rd_nomem(rd);
    /* the declarations of this element, in scope until its end */
    if (pni_grow((void **)&rd->ts.sdmark, &rd->ts.cap_sdmark,
                 rd->ts.sdepth + 1, sizeof *rd->ts.sdmark) ||
        pni_grow((void **)&rd->ts.sdstack, &rd->ts.cap_sdstack,
                 rd->ts.nsdstack + (size_t)(nb_namespaces > 0 ? nb_namespaces
                                                              : 0) + 1,
                 sizeof *rd->ts.sdstack))
        return pni_rd_nomem(rd);
    rd->ts.sdmark[rd->ts.sdepth] = rd->ts.nsdstack;
    for (int i = 0; i < nb_namespaces; i++) {
        const char *p = (const char *)namespaces[2 * i];
        const char *u = (const char *)namespaces[2 * i + 1];
        if (s_declare(rd, p))
            return pni_rd_nomem(rd);
        rd->ts.sdstack[rd->ts.nsdstack++] = p;
        if (!(root && !p && !strcmp(u, PNML_NS)) && sns(b, p, u))
            return pni_rd_nomem(rd);
    }
    if (root)
        rd->ts.sroot = b->n;
    if (s_used(rd, (const char *)prefix, (const char *)uri))
        return pni_rd_nomem(rd);
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attributes + 5 * i;
        if (a[1] && s_used(rd, (const char *)a[1], (const char *)a[2]))
            return pni_rd_nomem(rd);
        size_t n;
        xmlChar *d;
        const char *v = attr_value(rd, a, &n, &d);
        if (!v)
            return -1;
        const char **keep_as = NULL;
        if (root && !strcmp((const char *)a[0], "tool") && !rd->ts.stool.tool)
            keep_as = &rd->ts.stool.tool;
        if (root && !strcmp((const char *)a[0], "version") &&
            !rd->ts.stool.version)
            keep_as = &rd->ts.stool.version;
        int bad = keep_as &&
                  !(*keep_as = pni_arena_strndup(&rd->arena, v, n));
        bad = bad || pni_sb_put(b, " ", 1) ||
                  sqname(b, (const char *)a[1], (const char *)a[0]) ||
                  pni_sb_put(b, "=\"", 2) || sescape(b, v, n, 1) ||
                  pni_sb_put(b, "\"", 1);
        xmlFree(d);
        if (bad)
            return pni_rd_nomem(rd);
    }
    rd->ts.sopen = 1;
    rd->ts.sdepth++;
    return 0;
}

int pni_rd_stream_text(rd_t *rd, const xmlChar *ch, int len, int cdata)
{
    pni_sb_t *b = &rd->ts.sbuf;
    if (len <= 0)
        return 0;
    if (rd->ts.scdata != cdata && s_content(rd))
        return pni_rd_nomem(rd);
    if (rd->ts.sopen && s_content(rd))
        return pni_rd_nomem(rd);
    if (!cdata)
        return sescape(b, (const char *)ch, (size_t)len, 0) ? pni_rd_nomem(rd)
                                                            : 0;
    if (!rd->ts.scdata && pni_sb_put(b, "<![CDATA[", 9))
        return pni_rd_nomem(rd);
    rd->ts.scdata = 1;
    return pni_sb_put(b, (const char *)ch, (size_t)len) ? pni_rd_nomem(rd) : 0;
}

int pni_rd_stream_end(rd_t *rd, const xmlChar *localname,
                      const xmlChar *prefix)
{
    pni_sb_t *b = &rd->ts.sbuf;
    if (rd->ts.scdata) {
        rd->ts.scdata = 0;
        if (pni_sb_put(b, "]]>", 3))
            return pni_rd_nomem(rd);
    }
    if (rd->ts.sopen) {
        rd->ts.sopen = 0;
        if (pni_sb_put(b, "/>", 2))
            return pni_rd_nomem(rd);
    } else if (pni_sb_put(b, "</", 2) ||
               sqname(b, (const char *)prefix, (const char *)localname) ||
               pni_sb_put(b, ">", 1)) {
        return pni_rd_nomem(rd);
    }
    /* the element's declarations leave scope */
    while (rd->ts.nsdstack > rd->ts.sdmark[rd->ts.sdepth - 1])
        s_undeclare(rd, rd->ts.sdstack[--rd->ts.nsdstack]);
    if (--rd->ts.sdepth)
        return 0;
    /* the block is whole: the namespaces it uses out of the scope of its
     * own declarations go on its root, after the root's own ones */
    if (rd->ts.nsused) {
        pni_sb_t decl = {0};
        for (size_t i = 0; i < rd->ts.nsused; i++)
            sns(&decl, rd->ts.sused[i].prefix, rd->ts.sused[i].uri);
        int bad = decl.oom || pni_sb_insert(b, rd->ts.sroot, decl.s, decl.n);
        pni_sb_free(&decl);
        if (bad)
            return pni_rd_nomem(rd);
    }
    s_forget(rd);
    if (pni_grow((void **)&rd->tools, &rd->cap_tools, rd->ntools + 1,
                 sizeof *rd->tools))
        return pni_rd_nomem(rd);
    /* the text is handed over whole, not copied */
    rd_tool_t t = rd->ts.stool;
    if (!(t.xml = t.own = pni_sb_take(b, NULL)))
        return pni_rd_nomem(rd);
    rd->tools[rd->ntools++] = t;
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

/* A start tag in a streamed block, or that of a block to stream (in
 * content: directly in a net or a page), written out: 1; else 0. */
int pni_rd_stream_start(rd_t *rd, int in_content, const xmlChar *localname,
                        const xmlChar *prefix, const xmlChar *uri,
                        int nb_namespaces, const xmlChar **namespaces,
                        int nb_attributes, const xmlChar **attributes)
{
    if (!rd->ts.sdepth) {
        if (!in_content ||
            !streamed_tool(rd, localname, nb_attributes, attributes))
            return 0;
        size_t page = rd->frames[rd->nframes - 1].page;
        xmlParserInputPtr in = rd->xml.ctxt->input;
        rd_tool_t t = {page == PN_NONE ? PN_NET : PN_PAGE,
                       page == PN_NONE ? 0 : page, NULL, NULL, NULL, NULL,
                       {in->line > 0 ? (unsigned long)in->line : 0, 0}};
        rd->ts.stool = t;
        pni_sb_truncate(&rd->ts.sbuf, 0);
    }
    s_start(rd, localname, prefix, uri, nb_namespaces, namespaces,
            nb_attributes, attributes);
    return 1;
}

void pni_rd_tool_free(rd_t *rd)
{
    free(rd->ts.sused);
    pni_hash_free(&rd->ts.sdecl);
    pni_hash_free(&rd->ts.sseen);
    free(rd->ts.sdcount);
    free(rd->ts.sdstack);
    free(rd->ts.sdmark);
    pni_sb_free(&rd->ts.sbuf);
}
