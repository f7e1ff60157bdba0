/* Reachability queries: the formula tree, the inline parser, the
 * canonical text. */
#include <config.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "query.h"

/* ---- the tree ------------------------------------------------------------ */

pn_qformula_t *pn_qformula_new(pn_qf_kind_t k)
{
    pn_qformula_t *f = calloc(1, sizeof *f);
    if (f)
        f->kind = k;
    return f;
}

void pn_qformula_free(pn_qformula_t *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nkids; i++)
        pn_qformula_free(f->kids[i]);
    free(f->kids);
    free(f->items);
    free(f->lhs.places);
    free(f->rhs.places);
    free(f);
}

pn_query_set_t *pn_query_set_new(void)
{
    return calloc(1, sizeof(pn_query_set_t));
}

void pn_query_set_free(pn_query_set_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->q[i].id);
        pn_qformula_free(s->q[i].formula);
        free(s->q[i].bound.places);
    }
    free(s->q);
    free(s);
}

pn_query_t *pni_query_append(pn_query_set_t *s)
{
    pn_query_t *v = realloc(s->q, (s->n + 1) * sizeof *v);
    if (!v)
        return NULL;
    s->q = v;
    memset(&v[s->n], 0, sizeof *v);
    return &v[s->n++];
}

pn_status_t pni_qsum_add(pn_qsum_t *s, size_t place)
{
    size_t *v = realloc(s->places, (s->nplaces + 1) * sizeof *v);
    if (!v)
        return PN_ENOMEM;
    s->places = v;
    s->places[s->nplaces++] = place;
    return PN_OK;
}

pn_status_t pni_qformula_add(pn_qformula_t *f, pn_qformula_t *kid)
{
    pn_qformula_t **v = realloc(f->kids, (f->nkids + 1) * sizeof *v);
    if (!v)
        return PN_ENOMEM;
    f->kids = v;
    f->kids[f->nkids++] = kid;
    return PN_OK;
}

pn_status_t pni_qformula_add_item(pn_qformula_t *f, size_t item)
{
    size_t *v = realloc(f->items, (f->nitems + 1) * sizeof *v);
    if (!v)
        return PN_ENOMEM;
    f->items = v;
    f->items[f->nitems++] = item;
    return PN_OK;
}

int pni_query_find(const pn_net_t *net, const char *s, pn_object_t kind,
                   size_t *index)
{
    pn_object_t k;
    if (pn_net_find(net, s, &k, index) == PN_OK && k == kind)
        return 0;
    size_t n = kind == PN_PLACE ? pn_net_place_count(net)
                                : pn_net_transition_count(net);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        const char *nm = kind == PN_PLACE ? pn_net_place(net, i)->name
                                          : pn_net_transition(net, i)->name;
        if (nm && !strcmp(nm, s)) {
            if (found)
                return -2; /* the name of two: which one is meant? */
            *index = i;
            found = 1;
        }
    }
    return found ? 0 : -1;
}

static int sum_equal(const pn_qsum_t *a, const pn_qsum_t *b)
{
    return a->constant == b->constant && a->nplaces == b->nplaces &&
           (!a->nplaces ||
            !memcmp(a->places, b->places, a->nplaces * sizeof *a->places));
}

int pn_qformula_equal(const pn_qformula_t *a, const pn_qformula_t *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->nkids != b->nkids || a->nitems != b->nitems)
        return 0;
    if (a->kind == PN_QF_CMP &&
        (a->op != b->op || !sum_equal(&a->lhs, &b->lhs) ||
         !sum_equal(&a->rhs, &b->rhs)))
        return 0;
    if (a->nitems &&
        memcmp(a->items, b->items, a->nitems * sizeof *a->items))
        return 0;
    for (size_t i = 0; i < a->nkids; i++)
        if (!pn_qformula_equal(a->kids[i], b->kids[i]))
            return 0;
    return 1;
}

int pni_qformula_temporal(const pn_qformula_t *f)
{
    if (f->kind >= PN_QF_EX)
        return 1;
    for (size_t i = 0; i < f->nkids; i++)
        if (pni_qformula_temporal(f->kids[i]))
            return 1;
    return 0;
}

void pni_query_classify(pn_query_t *q)
{
    pn_qformula_t *f = q->formula;
    q->kind = PN_QUERY_CTL;
    if ((f->kind == PN_QF_EF || f->kind == PN_QF_AG) &&
        !pni_qformula_temporal(f->kids[0])) {
        q->kind = f->kind == PN_QF_EF ? PN_QUERY_EF : PN_QUERY_AG;
        q->formula = f->kids[0];
        f->nkids = 0;
        pn_qformula_free(f);
    }
}

/* ---- the inline parser ------------------------------------------------------ */

typedef struct {
    const char *text, *p;
    const pn_net_t *net;
    pn_error_t *err;
    pn_status_t st;
    unsigned depth;
    int ltl;          /* reading an LTL path formula */
} parser_t;

/* nesting deeper than this is refused (the recursion's stack) */
#define DEPTH_MAX 1000

static unsigned long col(const parser_t *ps, const char *at)
{
    return (unsigned long)(at - ps->text) + 1;
}

static void skip(parser_t *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
           *ps->p == '\r')
        ps->p++;
}

static pn_status_t fail(parser_t *ps, const char *at, const char *what)
{
    if (!ps->st) {
        char near[80];
        if (*at)
            pni_quote(near, sizeof near, at, strlen(at), 16);
        ps->st = pni_error(ps->err, PN_EQUERY, 1, col(ps, at),
                           "expected %s, found %s", what,
                           *at ? near : "the end");
    }
    return ps->st;
}

static int name_start(int c) { return isalpha(c) || c == '_'; }
static int name_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '-' || c == ':';
}

/* A plain word at p (no quotes): its length, 0 when none. */
static size_t word_len(const char *p)
{
    if (!name_start((unsigned char)*p))
        return 0;
    size_t n = 1;
    while (name_char((unsigned char)p[n]))
        n++;
    return n;
}

/* Whether the next token is keyword kw (a plain word, not quoted). */
static int keyword(parser_t *ps, const char *kw)
{
    size_t n = word_len(ps->p);
    if (n == strlen(kw) && !strncmp(ps->p, kw, n)) {
        ps->p += n;
        skip(ps);
        return 1;
    }
    return 0;
}

static int punct(parser_t *ps, const char *s)
{
    size_t n = strlen(s);
    if (!strncmp(ps->p, s, n)) {
        ps->p += n;
        skip(ps);
        return 1;
    }
    return 0;
}

/* A name (plain or quoted) into a new string; NULL when none is there
 * (ps->st set when out of memory or a quote is not closed). */
static char *name(parser_t *ps)
{
    const char *at = ps->p;
    char *s;
    if (*at == '"') {
        size_t cap = strlen(at) + 1, n = 0;
        s = malloc(cap);
        if (!s) {
            ps->st = pni_error(ps->err, PN_ENOMEM, 0, 0, "out of memory");
            return NULL;
        }
        const char *q = at + 1;
        for (; *q && *q != '"'; q++) {
            if (*q == '\\' && (q[1] == '"' || q[1] == '\\'))
                q++;
            s[n++] = *q;
        }
        if (*q != '"') {
            free(s);
            fail(ps, at, "a closing '\"'");
            return NULL;
        }
        s[n] = '\0';
        ps->p = q + 1;
    } else {
        /* a word, or an id of digits: a sum reads a number first, so
         * only a list of names (bound, fireable) gets here with one */
        size_t n = word_len(at);
        if (!n && isdigit((unsigned char)*at))
            while (name_char((unsigned char)at[n]))
                n++;
        if (!n)
            return NULL;
        s = malloc(n + 1);
        if (!s) {
            ps->st = pni_error(ps->err, PN_ENOMEM, 0, 0, "out of memory");
            return NULL;
        }
        memcpy(s, at, n);
        s[n] = '\0';
        ps->p = at + n;
    }
    skip(ps);
    return s;
}

/* A name of the given kind into *index. */
static pn_status_t node(parser_t *ps, pn_object_t kind, size_t *index)
{
    const char *at = ps->p;
    char *s = name(ps);
    if (!s)
        return ps->st ? ps->st
                      : fail(ps, at, kind == PN_PLACE ? "a place"
                                                      : "a transition");
    int found = pni_query_find(ps->net, s, kind, index);
    if (found == -2)
        ps->st = pni_error(ps->err, PN_EUNKNOWN, 1, col(ps, at),
                           "'%s' is the name of several %ss: name it by "
                           "its id", s,
                           kind == PN_PLACE ? "place" : "transition");
    else if (found)
        ps->st = pni_error(ps->err, PN_EUNKNOWN, 1, col(ps, at),
                           "'%s' is not a %s of the net", s,
                           kind == PN_PLACE ? "place" : "transition");
    if (found) {
        free(s);
        return ps->st;
    }
    free(s);
    return PN_OK;
}

/* name { ',' name } ')' after the '(' */
static pn_status_t name_list(parser_t *ps, pn_object_t kind,
                             pn_qsum_t *sum, pn_qformula_t *f)
{
    /* bound(): the empty sum, 0, as the contest's <place-bound/> */
    if (sum && punct(ps, ")"))
        return PN_OK;
    do {
        size_t i;
        if (node(ps, kind, &i))
            return ps->st;
        if ((sum ? pni_qsum_add(sum, i) : pni_qformula_add_item(f, i)))
            return ps->st = pni_error(ps->err, PN_ENOMEM, 0, 0,
                                      "out of memory");
    } while (punct(ps, ","));
    if (!punct(ps, ")"))
        return fail(ps, ps->p, "',' or ')'");
    return PN_OK;
}

/* term { '+' term } */
static pn_status_t sum(parser_t *ps, pn_qsum_t *s)
{
    do {
        const char *at = ps->p;
        if (isdigit((unsigned char)*at)) {
            size_t n = 0;
            while (isdigit((unsigned char)at[n]))
                n++;
            uint64_t v;
            const char *what;
            pn_status_t st = pni_parse_u64(at, n, &v, &what);
            if (st || s->constant > PN_TOKENS_MAX - v)
                return ps->st = pni_error(ps->err, PN_ERANGE, 1, col(ps, at),
                                          "a constant above 2^63-1");
            s->constant += v;
            ps->p = at + n;
            skip(ps);
        } else {
            size_t i;
            if (!word_len(at) && *at != '"')
                return fail(ps, at, "a place or a number");
            if (node(ps, PN_PLACE, &i))
                return ps->st;
            if (pni_qsum_add(s, i))
                return ps->st = pni_error(ps->err, PN_ENOMEM, 0, 0,
                                          "out of memory");
        }
    } while (punct(ps, "+"));
    return PN_OK;
}

static pn_qformula_t *implication(parser_t *ps);

static pn_qformula_t *oom(parser_t *ps, pn_qformula_t *f)
{
    pn_qformula_free(f);
    if (!ps->st)
        ps->st = pni_error(ps->err, PN_ENOMEM, 0, 0, "out of memory");
    return NULL;
}

static pn_qformula_t *leaf(parser_t *ps, pn_qf_kind_t k)
{
    pn_qformula_t *f = pn_qformula_new(k);
    return f ? f : oom(ps, NULL);
}

/* The temporal operators, as plain words; E and A only before '['. */
static const struct {
    const char *word;
    pn_qf_kind_t kind;
} temporal[] = {{"EX", PN_QF_EX}, {"AX", PN_QF_AX}, {"EF", PN_QF_EF},
                {"AF", PN_QF_AF}, {"EG", PN_QF_EG}, {"AG", PN_QF_AG},
                {"E", PN_QF_EU}, {"A", PN_QF_AU}};
/* LTL's, in a path formula (the untils there are '[' f U g ']') */
static const struct {
    const char *word;
    pn_qf_kind_t kind;
} path_ops[] = {{"X", PN_QF_X}, {"F", PN_QF_F}, {"G", PN_QF_G}};

/* Whether what follows p (after blanks) continues a sum or a comparison:
 * the word before it was a place. */
static int sum_follows(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == '<' || *p == '>' || *p == '+' || !strncmp(p, "==", 2) ||
           !strncmp(p, "!=", 2);
}

/* Whether a temporal operator is at ps->p (*k its kind): one of the words
 * above, as a plain word, not followed by a comparison or '+' (then it is
 * a place so named); E and A followed by '['.  In a path formula, the
 * words X F G instead (*k a CTL kind: a path quantifier, refused). */
static int temporal_at(const parser_t *ps, pn_qf_kind_t *k)
{
    size_t n = word_len(ps->p);
    const char *after = ps->p + n;
    while (*after == ' ' || *after == '\t' || *after == '\n' ||
           *after == '\r')
        after++;
    for (size_t i = 0; ps->ltl && i < sizeof path_ops / sizeof *path_ops;
         i++)
        if (n == 1 && *ps->p == *path_ops[i].word && !sum_follows(after)) {
            *k = path_ops[i].kind;
            return 1;
        }
    for (size_t i = 0; i < sizeof temporal / sizeof *temporal; i++) {
        if (n != strlen(temporal[i].word) ||
            strncmp(ps->p, temporal[i].word, n))
            continue;
        if (n == 1 ? *after != '[' : sum_follows(after))
            return 0;
        *k = temporal[i].kind;
        return 1;
    }
    return 0;
}

/* A temporal operator at ps->p (temporal_at() said which) and what it
 * applies to: a whole formula to its right, or E [ f U g ]. */
static pn_qformula_t *temporal_op(parser_t *ps, pn_qf_kind_t k)
{
    if (ps->ltl && k < PN_QF_X) {
        fail(ps, ps->p, "X, F, G, '[' or a state formula (an LTL "
                        "formula has no path quantifier)");
        return NULL;
    }
    pn_qformula_t *f = pn_qformula_new(k);
    if (!f)
        return oom(ps, NULL);
    ps->p += word_len(ps->p);
    skip(ps);
    int until = k == PN_QF_EU || k == PN_QF_AU;
    if (until)
        punct(ps, "["); /* temporal_at() saw it */
    for (int i = 0; i <= until; i++) {
        if (i && !keyword(ps, "U")) {
            fail(ps, ps->p, "'U'");
            pn_qformula_free(f);
            return NULL;
        }
        pn_qformula_t *kid = implication(ps);
        if (!kid) {
            if (!ps->st)
                fail(ps, ps->p, "a formula");
            pn_qformula_free(f);
            return NULL;
        }
        if (pni_qformula_add(f, kid))
            return pn_qformula_free(kid), oom(ps, f);
    }
    if (until && !punct(ps, "]")) {
        fail(ps, ps->p, "']'");
        pn_qformula_free(f);
        return NULL;
    }
    return f;
}

/* '[' f ('U' | 'R') g ']' in a path formula, after the '['. */
static pn_qformula_t *path_until(parser_t *ps)
{
    pn_qformula_t *f = implication(ps), *g = NULL, *u = NULL;
    pn_qf_kind_t k = PN_QF_U;
    if (!f)
        return ps->st ? NULL : (fail(ps, ps->p, "a formula"), NULL);
    if (!keyword(ps, "U")) {
        k = PN_QF_R;
        if (!keyword(ps, "R")) {
            fail(ps, ps->p, "'U' or 'R'");
            pn_qformula_free(f);
            return NULL;
        }
    }
    if (!(g = implication(ps))) {
        if (!ps->st)
            fail(ps, ps->p, "a formula");
        pn_qformula_free(f);
        return NULL;
    }
    if (!punct(ps, "]")) {
        fail(ps, ps->p, "']'");
        pn_qformula_free(f);
        pn_qformula_free(g);
        return NULL;
    }
    if (!(u = pn_qformula_new(k)) || pni_qformula_add(u, f)) {
        pn_qformula_free(g);
        pn_qformula_free(u);
        return oom(ps, f);
    }
    if (pni_qformula_add(u, g)) {
        pn_qformula_free(g);
        return oom(ps, u);
    }
    return u;
}

static pn_qformula_t *atom(parser_t *ps)
{
    const char *at = ps->p;
    pn_qformula_t *f;
    if (punct(ps, "!")) {
        if (!(f = pn_qformula_new(PN_QF_NOT)))
            return oom(ps, NULL);
        pn_qformula_t *k = atom(ps);
        if (!k || pni_qformula_add(f, k))
            return k ? (pn_qformula_free(k), oom(ps, f)) : oom(ps, f);
        return f;
    }
    if (ps->ltl && punct(ps, "["))
        return path_until(ps);
    if (punct(ps, "(")) {
        f = implication(ps);
        if (f && !punct(ps, ")")) {
            fail(ps, ps->p, "')'");
            pn_qformula_free(f);
            return NULL;
        }
        return f;
    }
    if (keyword(ps, "true"))
        return leaf(ps, PN_QF_TRUE);
    if (keyword(ps, "false"))
        return leaf(ps, PN_QF_FALSE);
    if (keyword(ps, "deadlock"))
        return leaf(ps, PN_QF_DEADLOCK);
    const char *kw = ps->p;
    if (keyword(ps, "fireable")) {
        if (punct(ps, "(")) {
            if (!(f = pn_qformula_new(PN_QF_FIREABLE)))
                return oom(ps, NULL);
            if (name_list(ps, PN_TRANSITION, NULL, f)) {
                pn_qformula_free(f);
                return NULL;
            }
            return f;
        }
        ps->p = kw; /* a place called fireable */
    }
    pn_qf_kind_t tk;
    if (temporal_at(ps, &tk))
        return temporal_op(ps, tk);
    if (!(f = pn_qformula_new(PN_QF_CMP)))
        return oom(ps, NULL);
    if (sum(ps, &f->lhs)) {
        pn_qformula_free(f);
        if (ps->p == at)
            fail(ps, at, "a formula");
        return NULL;
    }
    static const struct { const char *s; pn_qcmp_t op; } ops[] = {
        {"<=", PN_QCMP_LE}, {">=", PN_QCMP_GE}, {"==", PN_QCMP_EQ},
        {"!=", PN_QCMP_NE}, {"<", PN_QCMP_LT}, {">", PN_QCMP_GT}};
    size_t k = 0;
    for (; k < sizeof ops / sizeof *ops; k++)
        if (punct(ps, ops[k].s))
            break;
    if (k == sizeof ops / sizeof *ops) {
        fail(ps, ps->p, "a comparison (< <= == != >= >)");
        pn_qformula_free(f);
        return NULL;
    }
    f->op = ops[k].op;
    if (sum(ps, &f->rhs)) {
        pn_qformula_free(f);
        return NULL;
    }
    return f;
}

/* one { sep one }, flattened into one n-ary node */
static pn_qformula_t *chain(parser_t *ps, const char *sep, pn_qf_kind_t kind,
                            pn_qformula_t *(*one)(parser_t *))
{
    if (++ps->depth > DEPTH_MAX) {
        ps->depth--;
        if (!ps->st)
            ps->st = pni_error(ps->err, PN_EQUERY, 1, col(ps, ps->p),
                               "nested deeper than %d", DEPTH_MAX);
        return NULL;
    }
    pn_qformula_t *first = one(ps), *f = NULL;
    while (first && punct(ps, sep)) {
        if (!f) {
            if (!(f = pn_qformula_new(kind)) || pni_qformula_add(f, first))
                return pn_qformula_free(first), ps->depth--, oom(ps, f);
        }
        pn_qformula_t *k = one(ps);
        if (!k || pni_qformula_add(f, k)) {
            ps->depth--;
            return k ? (pn_qformula_free(k), oom(ps, f))
                     : (pn_qformula_free(f), (pn_qformula_t *)NULL);
        }
    }
    ps->depth--;
    return f ? f : first;
}

static pn_qformula_t *conjunction(parser_t *ps)
{
    return chain(ps, "&&", PN_QF_AND, atom);
}

static pn_qformula_t *disjunction(parser_t *ps)
{
    return chain(ps, "||", PN_QF_OR, conjunction);
}

/* disjunction [ '->' implication ]: f -> g is read as !f || g */
static pn_qformula_t *implication(parser_t *ps)
{
    pn_qformula_t *f = disjunction(ps);
    if (!f || !punct(ps, "->"))
        return f;
    pn_qformula_t *n = pn_qformula_new(PN_QF_NOT), *g = NULL, *o = NULL;
    if (!n || pni_qformula_add(n, f)) {
        pn_qformula_free(n);
        return oom(ps, f);
    }
    if (!(g = implication(ps))) {
        pn_qformula_free(n);
        return NULL;
    }
    if (!(o = pn_qformula_new(PN_QF_OR)) || pni_qformula_add(o, n)) {
        pn_qformula_free(g);
        pn_qformula_free(o);
        return oom(ps, n);
    }
    if (pni_qformula_add(o, g)) {
        pn_qformula_free(g);
        return oom(ps, o);
    }
    return o;
}

/* Whether an LTL formula starts at ps->p: the word LTL, or A before one of
 * X F G ( ! (not a place so named); either is passed. */
static int ltl_start(parser_t *ps)
{
    const char *kw = ps->p;
    if (keyword(ps, "LTL")) {
        if (!sum_follows(kw + 3))
            return 1;
    } else if (keyword(ps, "A")) {
        size_t n = word_len(ps->p);
        if ((*ps->p == '(' || *ps->p == '!' ||
             (n == 1 && strchr("XFG", *ps->p) && !sum_follows(ps->p + 1))))
            return 1;
    }
    ps->p = kw;
    return 0;
}

pn_status_t pn_query_parse(pn_query_set_t *s, const char *text,
                           const pn_net_t *net, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!s || !text || !net)
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    parser_t ps = {text, text, net, err, PN_OK, 0, 0};
    skip(&ps);
    pn_query_t q = {0};
    const char *kw = ps.p;
    if (keyword(&ps, "bound")) {
        if (punct(&ps, "(")) {
            q.kind = PN_QUERY_BOUND;
            if (name_list(&ps, PN_PLACE, &q.bound, NULL)) {
                free(q.bound.places);
                return ps.st;
            }
        } else {
            ps.p = kw;
        }
    }
    if (q.kind != PN_QUERY_BOUND) {
        /* CTL: the formula at the initial marking (a place so named when
         * a comparison follows); LTL: every path */
        int ctl = keyword(&ps, "CTL");
        if (ctl && sum_follows(kw + 3)) {
            ps.p = kw;
            ctl = 0;
        }
        if (!ctl)
            ps.ltl = ltl_start(&ps);
        q.formula = implication(&ps);
        if (!q.formula)
            return ps.st ? ps.st : fail(&ps, ps.p, "a formula");
        if (ps.ltl)
            q.kind = PN_QUERY_LTL;
        else if (!ctl && !pni_qformula_temporal(q.formula))
            q.kind = PN_QUERY_EF;
        else
            pni_query_classify(&q);
    }
    if (*ps.p) {
        fail(&ps, ps.p, q.kind == PN_QUERY_BOUND ? "the end"
                        : "'&&', '||', '->' or the end");
        pn_qformula_free(q.formula);
        free(q.bound.places);
        return ps.st;
    }
    char id[32];
    snprintf(id, sizeof id, "q%zu", s->n + 1);
    pn_query_t *slot = pni_query_append(s);
    if (!slot || !(q.id = strdup(id))) {
        pn_qformula_free(q.formula);
        free(q.bound.places);
        if (slot)
            s->n--;
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    }
    *slot = q;
    return PN_OK;
}

/* ---- the canonical text ------------------------------------------------- */

static const char *const keywords[] = {"EF", "AG", "EX", "AX", "AF", "EG",
                                       "E", "A", "U", "CTL", "bound", "true",
                                       "X", "F", "G", "R", "LTL",
                                       "false", "deadlock", "fireable",
                                       NULL};

static void write_name(FILE *f, const char *s)
{
    size_t n = word_len(s);
    int plain = n && !s[n];
    for (int k = 0; plain && keywords[k]; k++)
        if (!strcmp(s, keywords[k]))
            plain = 0;
    if (plain) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_sum(FILE *f, const pn_qsum_t *s, const pn_net_t *net)
{
    for (size_t i = 0; i < s->nplaces; i++) {
        if (i)
            fputs(" + ", f);
        write_name(f, pn_net_place(net, s->places[i])->id);
    }
    if (s->constant || !s->nplaces)
        fprintf(f, "%s%llu", s->nplaces ? " + " : "",
                (unsigned long long)s->constant);
}

static void write_formula(FILE *f, const pn_qformula_t *q,
                          const pn_net_t *net, int inner)
{
    static const char *const ops[] = {"<", "<=", "==", "!=", ">=", ">"};
    switch (q->kind) {
    case PN_QF_TRUE: fputs("true", f); break;
    case PN_QF_FALSE: fputs("false", f); break;
    case PN_QF_DEADLOCK: fputs("deadlock", f); break;
    case PN_QF_FIREABLE:
        fputs("fireable(", f);
        for (size_t i = 0; i < q->nitems; i++) {
            if (i)
                fputs(", ", f);
            write_name(f, pn_net_transition(net, q->items[i])->id);
        }
        fputc(')', f);
        break;
    case PN_QF_CMP:
        write_sum(f, &q->lhs, net);
        fprintf(f, " %s ", ops[q->op]);
        write_sum(f, &q->rhs, net);
        break;
    case PN_QF_EU:
    case PN_QF_AU:
        fputs(q->kind == PN_QF_EU ? "E [ " : "A [ ", f);
        write_formula(f, q->kids[0], net, 0);
        fputs(" U ", f);
        write_formula(f, q->kids[1], net, 0);
        fputs(" ]", f);
        break;
    case PN_QF_U:
    case PN_QF_R:
        fputs("[ ", f);
        write_formula(f, q->kids[0], net, 0);
        fputs(q->kind == PN_QF_U ? " U " : " R ", f);
        write_formula(f, q->kids[1], net, 0);
        fputs(" ]", f);
        break;
    case PN_QF_EX: case PN_QF_AX: case PN_QF_EF:
    case PN_QF_AF: case PN_QF_EG: case PN_QF_AG:
    case PN_QF_X: case PN_QF_F: case PN_QF_G:
        /* it takes everything to its right: in a group, parentheses */
        if (inner)
            fputc('(', f);
        fputs(q->kind >= PN_QF_X ? path_ops[q->kind - PN_QF_X].word
                                 : temporal[q->kind - PN_QF_EX].word, f);
        fputc(' ', f);
        write_formula(f, q->kids[0], net, 0);
        if (inner)
            fputc(')', f);
        break;
    case PN_QF_NOT:
        fputc('!', f);
        if (q->kids[0]->kind == PN_QF_CMP)
            fputc('(', f);
        write_formula(f, q->kids[0], net, 1);
        if (q->kids[0]->kind == PN_QF_CMP)
            fputc(')', f);
        break;
    default:
        /* (the readers never make a conjunction or disjunction of one) */
        if (inner)
            fputc('(', f);
        for (size_t i = 0; i < q->nkids; i++) {
            if (i)
                fputs(q->kind == PN_QF_AND ? " && " : " || ", f);
            write_formula(f, q->kids[i], net, 1);
        }
        if (inner)
            fputc(')', f);
    }
}

void pn_query_write(FILE *f, const pn_query_t *q, const pn_net_t *net)
{
    if (q->kind == PN_QUERY_BOUND) {
        fputs("bound(", f);
        for (size_t i = 0; i < q->bound.nplaces; i++) {
            if (i)
                fputs(", ", f);
            write_name(f, pn_net_place(net, q->bound.places[i])->id);
        }
        fputc(')', f);
        return;
    }
    if (q->kind == PN_QUERY_LTL) {
        fputs("LTL ", f);
        write_formula(f, q->formula, net, 0);
        return;
    }
    if (q->kind == PN_QUERY_CTL) {
        /* with no temporal operator it would read as EF f */
        if (!pni_qformula_temporal(q->formula))
            fputs("CTL ", f);
        write_formula(f, q->formula, net, 0);
        return;
    }
    fputs(q->kind == PN_QUERY_AG ? "AG " : "EF ", f);
    write_formula(f, q->formula, net, 1);
}
