/* The Model Checking Contest's property files (UpperBounds,
 * ReachabilityCardinality, ReachabilityFireability, CTLCardinality,
 * CTLFireability, LTLCardinality, LTLFireability) into query trees
 * (pn/query.h), via libxml2's tree: they are small. */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "lib_private.h"
#include "pnml_private.h"
#include "mcc.h"

/* nesting deeper than this is refused (the recursion's stack) */
#define DEPTH_MAX 1000

typedef struct {
    const pn_net_t *net;
    pn_error_t *err;
    const char *id;   /* the property being read */
    int ltl;          /* reading the path formula of an LTL property */
} reader_t;

static int is(const xmlNode *e, const char *name)
{
    return e->type == XML_ELEMENT_NODE && !strcmp((const char *)e->name, name);
}

static const char *nm(const xmlNode *e) { return (const char *)e->name; }

static unsigned long line_of(const xmlNode *e)
{
    long l = xmlGetLineNo(e);
    return l > 0 ? (unsigned long)l : 0;
}

static xmlNode *child(const xmlNode *e, const char *name)
{
    for (xmlNode *c = e->children; c; c = c->next)
        if (is(c, name))
            return c;
    return NULL;
}

/* The element children of e, in order. */
static size_t elements(const xmlNode *e, xmlNode **out, size_t max)
{
    size_t n = 0;
    for (xmlNode *c = e->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) {
            if (n < max)
                out[n] = c;
            n++;
        }
    return n;
}

static pn_status_t oom(reader_t *rd)
{
    return pni_error(rd->err, PN_ENOMEM, 0, 0, "out of memory");
}

/* The element's text, trimmed, into a new string (NULL: out of memory). */
static char *text_of(const xmlNode *e)
{
    xmlChar *t = xmlNodeGetContent(e);
    if (!t)
        return NULL;
    const char *s = (const char *)t;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                 s[n - 1] == '\r'))
        n--;
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = '\0';
    }
    xmlFree(t);
    return r;
}

/* Every <place> (kind PN_PLACE) or <transition> child of e, into a sum
 * or a formula's items. */
static pn_status_t node_list(reader_t *rd, const xmlNode *e, pn_object_t kind,
                             pn_qsum_t *sum, pn_qformula_t *f)
{
    const char *want = kind == PN_PLACE ? "place" : "transition";
    size_t count = 0;
    for (xmlNode *c = e->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!is(c, want))
            return pni_error(rd->err, PN_EQUERY, line_of(c), 0,
                             "property '%s': <%s> inside <%s> (only <%s>)",
                             rd->id, nm(c), nm(e), want);
        char *s = text_of(c);
        if (!s)
            return oom(rd);
        size_t i;
        int found = pni_query_find(rd->net, s, kind, &i);
        if (found) {
            pn_status_t st = pni_error(rd->err, PN_EUNKNOWN, line_of(c), 0,
                                       found == -2
                                           ? "property '%s': '%s' is the "
                                             "name of several %ss, the id "
                                             "of none"
                                           : "property '%s': '%s' is not a "
                                             "%s of the net",
                                       rd->id, s, want);
            free(s);
            return st;
        }
        free(s);
        if (sum ? pni_qsum_add(sum, i) : pni_qformula_add_item(f, i))
            return oom(rd);
        count++;
    }
    /* A sum over no place is the empty sum, 0: the contest writes
     * <place-bound/> so (Sudoku-PT-AN*); an empty set of transitions has
     * no such reading and stays refused. */
    if (!count && !sum)
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': <%s> names no %s", rd->id, nm(e),
                         want);
    return PN_OK;
}

/* An integer expression: <tokens-count> or <integer-constant>. */
static pn_status_t int_expr(reader_t *rd, const xmlNode *e, pn_qsum_t *s)
{
    if (is(e, "tokens-count"))
        return node_list(rd, e, PN_PLACE, s, NULL);
    if (is(e, "integer-constant")) {
        char *t = text_of(e);
        if (!t)
            return oom(rd);
        const char *what;
        pn_status_t st = pni_parse_u64(t, strlen(t), &s->constant, &what);
        if (st)
            st = pni_error(rd->err, st == PN_ERANGE ? PN_ERANGE : PN_EQUERY,
                           line_of(e), 0, "property '%s': <integer-constant> "
                           "'%s' is not an integer from 0 to 2^63-1", rd->id,
                           t);
        free(t);
        return st;
    }
    return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                     "property '%s': <%s> where an integer expression "
                     "(<tokens-count>, <integer-constant>) was expected",
                     rd->id, nm(e));
}

static pn_status_t formula(reader_t *rd, const xmlNode *e, unsigned depth,
                           pn_qformula_t **out);

static pn_status_t formula_kids(reader_t *rd, const xmlNode *e,
                                unsigned depth, pn_qformula_t *f)
{
    for (xmlNode *c = e->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        pn_qformula_t *k = NULL;
        pn_status_t st = formula(rd, c, depth + 1, &k);
        if (st)
            return st;
        if (pni_qformula_add(f, k)) {
            pn_qformula_free(k);
            return oom(rd);
        }
    }
    return PN_OK;
}

/* The one element inside e (a <finally>, a <before>...) as a formula. */
static pn_status_t only_formula(reader_t *rd, const xmlNode *e,
                                unsigned depth, pn_qformula_t *f)
{
    xmlNode *in[2];
    size_t n = elements(e, in, 2);
    if (n != 1)
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': <%s> holds %zu elements, not one",
                         rd->id, nm(e), n);
    pn_qformula_t *k = NULL;
    pn_status_t st = formula(rd, in[0], depth + 1, &k);
    if (!st && pni_qformula_add(f, k)) {
        pn_qformula_free(k);
        st = oom(rd);
    }
    return st;
}

/* <exists-path> or <all-paths> (e) around one of <next>, <finally>,
 * <globally>, <until> (<before> f </before><reach> g </reach>). */
static pn_status_t path_formula(reader_t *rd, const xmlNode *e,
                                unsigned depth, pn_qformula_t **out)
{
    static const struct { const char *name; pn_qf_kind_t e, a; } ops[] = {
        {"next", PN_QF_EX, PN_QF_AX}, {"finally", PN_QF_EF, PN_QF_AF},
        {"globally", PN_QF_EG, PN_QF_AG}, {"until", PN_QF_EU, PN_QF_AU}};
    xmlNode *op[2];
    size_t i = 0;
    if (elements(e, op, 2) == 1)
        while (i < sizeof ops / sizeof *ops && !is(op[0], ops[i].name))
            i++;
    if (elements(e, op, 2) != 1 || i == sizeof ops / sizeof *ops)
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': <%s> needs one of <next>, "
                         "<finally>, <globally>, <until> inside", rd->id,
                         nm(e));
    pn_qformula_t *f = pn_qformula_new(is(e, "exists-path") ? ops[i].e
                                                             : ops[i].a);
    if (!f)
        return oom(rd);
    pn_status_t st;
    if (i < 3) {
        st = only_formula(rd, op[0], depth + 1, f);
    } else {
        xmlNode *b = child(op[0], "before"), *r = child(op[0], "reach");
        xmlNode *all[3];
        if (!b || !r || elements(op[0], all, 3) != 2)
            st = pni_error(rd->err, PN_EQUERY, line_of(op[0]), 0,
                           "property '%s': <until> needs <before> and "
                           "<reach>, and nothing else", rd->id);
        else if (!(st = only_formula(rd, b, depth + 1, f)))
            st = only_formula(rd, r, depth + 1, f);
    }
    if (st)
        pn_qformula_free(f);
    else
        *out = f;
    return st;
}

/* Which of <next> <finally> <globally> <until> e is (0 to 3), -1 none. */
static int bare_temporal(const xmlNode *e)
{
    static const char *const names[] = {"next", "finally", "globally",
                                        "until"};
    for (int i = 0; i < 4; i++)
        if (is(e, names[i]))
            return i;
    return -1;
}

/* Whether e has a temporal operator with no path quantifier around it
 * (an LTL path formula's operator) below it. */
static int has_bare(const xmlNode *e, unsigned depth)
{
    if (depth > DEPTH_MAX)
        return 0;
    for (xmlNode *c = e->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (bare_temporal(c) >= 0 && !is(e, "exists-path") &&
            !is(e, "all-paths"))
            return 1;
        if (has_bare(c, depth + 1))
            return 1;
    }
    return 0;
}

/* <next>, <finally>, <globally>, <until> in an LTL formula. */
static pn_status_t ltl_operator(reader_t *rd, const xmlNode *e,
                                unsigned depth, pn_qformula_t **out)
{
    static const pn_qf_kind_t kinds[] = {PN_QF_X, PN_QF_F, PN_QF_G,
                                         PN_QF_U};
    int i = bare_temporal(e);
    if (!rd->ltl)
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': <%s> outside <all-paths> or "
                         "<exists-path> in a CTL formula", rd->id, nm(e));
    pn_qformula_t *f = pn_qformula_new(kinds[i]);
    if (!f)
        return oom(rd);
    pn_status_t st;
    if (i < 3) {
        st = only_formula(rd, e, depth + 1, f);
    } else {
        xmlNode *b = child(e, "before"), *r = child(e, "reach");
        xmlNode *all[3];
        if (!b || !r || elements(e, all, 3) != 2)
            st = pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                           "property '%s': <until> needs <before> and "
                           "<reach>, and nothing else", rd->id);
        else if (!(st = only_formula(rd, b, depth + 1, f)))
            st = only_formula(rd, r, depth + 1, f);
    }
    if (st)
        pn_qformula_free(f);
    else
        *out = f;
    return st;
}

static pn_status_t formula(reader_t *rd, const xmlNode *e, unsigned depth,
                           pn_qformula_t **out)
{
    static const struct { const char *name; pn_qcmp_t op; } cmps[] = {
        {"integer-le", PN_QCMP_LE}, {"integer-lt", PN_QCMP_LT},
        {"integer-eq", PN_QCMP_EQ}, {"integer-ne", PN_QCMP_NE},
        {"integer-ge", PN_QCMP_GE}, {"integer-gt", PN_QCMP_GT}};
    static const struct { const char *name; pn_qf_kind_t kind; } kinds[] = {
        {"true", PN_QF_TRUE}, {"false", PN_QF_FALSE},
        {"deadlock", PN_QF_DEADLOCK}, {"is-fireable", PN_QF_FIREABLE},
        {"negation", PN_QF_NOT}, {"conjunction", PN_QF_AND},
        {"disjunction", PN_QF_OR}};
    *out = NULL;
    if (depth > DEPTH_MAX)
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': nested deeper than %d", rd->id,
                         DEPTH_MAX);
    if (is(e, "exists-path") || is(e, "all-paths")) {
        if (rd->ltl)
            return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                             "property '%s': <%s> inside an LTL formula "
                             "(no path quantifier below <all-paths>)",
                             rd->id, nm(e));
        return path_formula(rd, e, depth, out);
    }
    if (bare_temporal(e) >= 0)
        return ltl_operator(rd, e, depth, out);
    xmlNode *kid[3];
    size_t nk = elements(e, kid, 3);
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++) {
        if (!is(e, cmps[i].name))
            continue;
        if (nk != 2)
            return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                             "property '%s': <%s> needs two integer "
                             "expressions, has %zu element%s", rd->id,
                             nm(e), nk, nk == 1 ? "" : "s");
        pn_qformula_t *f = pn_qformula_new(PN_QF_CMP);
        if (!f)
            return oom(rd);
        f->op = cmps[i].op;
        pn_status_t st = int_expr(rd, kid[0], &f->lhs);
        if (!st)
            st = int_expr(rd, kid[1], &f->rhs);
        if (st)
            pn_qformula_free(f);
        else
            *out = f;
        return st;
    }
    size_t i = 0;
    while (i < sizeof kinds / sizeof *kinds && !is(e, kinds[i].name))
        i++;
    if (i == sizeof kinds / sizeof *kinds)
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': <%s> is not a formula pn-reach "
                         "answers (exists-path, all-paths, negation, "
                         "conjunction, disjunction, integer-le, "
                         "is-fireable, true, false, deadlock)", rd->id,
                         nm(e));
    pn_qf_kind_t k = kinds[i].kind;
    if ((k == PN_QF_NOT && nk != 1) ||
        ((k == PN_QF_AND || k == PN_QF_OR) && nk < 1) ||
        ((k == PN_QF_TRUE || k == PN_QF_FALSE || k == PN_QF_DEADLOCK) &&
         nk != 0))
        return pni_error(rd->err, PN_EQUERY, line_of(e), 0,
                         "property '%s': <%s> with %zu element%s inside",
                         rd->id, nm(e), nk, nk == 1 ? "" : "s");
    if ((k == PN_QF_AND || k == PN_QF_OR) && nk == 1)
        return formula(rd, kid[0], depth + 1, out); /* a group of one */
    pn_qformula_t *f = pn_qformula_new(k);
    if (!f)
        return oom(rd);
    pn_status_t st = PN_OK;
    if (k == PN_QF_FIREABLE)
        st = node_list(rd, e, PN_TRANSITION, NULL, f);
    else if (k == PN_QF_NOT || k == PN_QF_AND || k == PN_QF_OR)
        st = formula_kids(rd, e, depth, f);
    if (st)
        pn_qformula_free(f);
    else
        *out = f;
    return st;
}

static pn_status_t read_property(reader_t *rd, const xmlNode *prop,
                                 pn_query_t *q)
{
    xmlNode *id = child(prop, "id"), *f = child(prop, "formula");
    q->line = line_of(prop);
    if (!id || !f)
        return pni_error(rd->err, PN_EQUERY, q->line, 0,
                         "a <property> without <id> or <formula>");
    if (!(q->id = text_of(id)))
        return oom(rd);
    rd->id = q->id;
    xmlNode *top[2];
    size_t nt = elements(f, top, 2);
    if (nt != 1)
        return pni_error(rd->err, PN_EQUERY, line_of(f), 0,
                         "property '%s': <formula> holds %zu elements, not "
                         "one", q->id, nt);
    if (is(top[0], "place-bound")) {
        q->kind = PN_QUERY_BOUND;
        return node_list(rd, top[0], PN_PLACE, &q->bound, NULL);
    }
    /* an LTL formula: <all-paths> around a path formula, with a temporal
     * operator under another one (or under a connective); <all-paths>
     * around one operator over state formulas is read as CTL (the same
     * answer, but for <next> at a dead marking) */
    xmlNode *in[2];
    if (is(top[0], "all-paths") && elements(top[0], in, 2) == 1 &&
        (bare_temporal(in[0]) < 0 || has_bare(in[0], 0))) {
        q->kind = PN_QUERY_LTL;
        rd->ltl = 1;
        pn_status_t st = formula(rd, in[0], 1, &q->formula);
        rd->ltl = 0;
        return st;
    }
    /* a CTL formula, at the initial marking: EF f and AG f with no
     * temporal operator in f are the reachability queries */
    pn_status_t st = formula(rd, top[0], 0, &q->formula);
    if (!st)
        pni_query_classify(q);
    return st;
}

pn_status_t pn_mcc_queries_read(const char *path, const pn_net_t *net,
                                pn_query_set_t **out, pn_error_t *err)
{
    pni_error_begin(err, path);
    if (!path || !net || !out)
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    *out = NULL;
    if (access(path, R_OK) != 0)
        return pni_error(err, PN_EIO, 0, 0, "cannot read: %s",
                         strerror(errno));
    pni_xml_init();
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                          XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *xe = xmlGetLastError();
        const char *msg = xe && xe->message ? xe->message : "";
        int len = (int)strcspn(msg, "\n"); /* libxml2 ends it with one */
        return pni_error(err, PN_EXML, xe && xe->line > 0 ?
                         (unsigned long)xe->line : 0, 0, "malformed XML%s%.*s",
                         *msg ? ": " : "", len, msg);
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    reader_t rd = {net, err, "", 0};
    pn_status_t st = PN_OK;
    pn_query_set_t *s = pn_query_set_new();
    if (!s)
        st = oom(&rd);
    else if (!root || !is(root, "property-set"))
        st = pni_error(err, PN_EQUERY, root ? line_of(root) : 0, 0,
                       "not a <property-set>");
    for (xmlNode *c = root ? root->children : NULL; !st && c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!is(c, "property")) {
            st = pni_error(err, PN_EQUERY, line_of(c), 0, "<%s> in a "
                           "<property-set> (only <property>)", nm(c));
            break;
        }
        pn_query_t *q = pni_query_append(s);
        if (!q) {
            st = oom(&rd);
            break;
        }
        st = read_property(&rd, c, q);
    }
    xmlFreeDoc(doc);
    if (st) {
        pn_query_set_free(s);
        return st;
    }
    *out = s;
    return PN_OK;
}
