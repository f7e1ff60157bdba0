/*
 * Query simplification: each open formula rewritten into a smaller one
 * with the same answer, so that the methods after it (walks, reductions,
 * stubborn sets, CTL and LTL on the fly, the search) see the smallest
 * question.
 *
 * Every position of every path, and every marking a CTL operator looks
 * at, is a reachable marking; so a state subformula (an atom, a boolean
 * combination of them) that the state equation (lp.c) proves false at
 * every solution m = m0 + C.x is false wherever it stands, under any
 * temporal operator, and one whose negation it proves so is true.  Then
 * the constants are propagated by the rules of boolean logic and by
 * temporal identities exact under the conventions of pn-reach(1) (a
 * maximal path is infinite or ends at a dead marking, where CTL's EX f is
 * false and AX f true, and LTL's X f is f), and a few rules without the
 * net: a comparison whose sides share places, or whose constant decides
 * it (every place holds 0 or more), duplicate operands, f && !f.  The
 * temporal rules are those of TAPAAL's verifypn (Jensen, Nielsen,
 * Østergaard, Tollund: PetriEngine/PQL/PushNegation.cpp, with its
 * Simplifier.cpp for the linear programs), the ones exact here.
 *
 * Bounds are not formulas: they are copied as they are.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

/* an atom's verdict, kept for the next formula that asks (the contest's
 * formulas share many atoms) */
typedef struct {
    pn_qformula_t *f;
    signed char value;  /* 1 true, 0 false, -1 no conclusion */
} known_t;

typedef struct {
    const pni_lp_t *lp;  /* NULL: no state equation */
    double deadline;
    size_t lps;          /* state subformulas still to ask about */
    int lp_used;         /* an LP's conclusion is in this formula */
    int oom;
    known_t *known;
    size_t nknown, capknown;
} simp_t;

static int is_const(const pn_qformula_t *f)
{
    return f->kind == PN_QF_TRUE || f->kind == PN_QF_FALSE;
}

static pn_qformula_t *constant(simp_t *s, int v)
{
    pn_qformula_t *f = pn_qformula_new(v ? PN_QF_TRUE : PN_QF_FALSE);
    if (!f)
        s->oom = 1;
    return f;
}

/* f replaced by the constant v (f freed). */
static pn_qformula_t *becomes(simp_t *s, pn_qformula_t *f, int v)
{
    pn_qformula_free(f);
    return constant(s, v);
}

static int sum_copy(pn_qsum_t *to, const pn_qsum_t *from)
{
    *to = *from;
    to->places = NULL;
    if (!from->nplaces)
        return 0;
    to->places = malloc(from->nplaces * sizeof *to->places);
    if (!to->places)
        return -1;
    memcpy(to->places, from->places, from->nplaces * sizeof *to->places);
    return 0;
}

static pn_qformula_t *copy(const pn_qformula_t *f)
{
    pn_qformula_t *c = pn_qformula_new(f->kind);
    if (!c)
        return NULL;
    c->op = f->op;
    int bad = sum_copy(&c->lhs, &f->lhs) | sum_copy(&c->rhs, &f->rhs);
    for (size_t i = 0; !bad && i < f->nitems; i++)
        bad = pni_qformula_add_item(c, f->items[i]) != PN_OK;
    for (size_t i = 0; !bad && i < f->nkids; i++) {
        pn_qformula_t *k = copy(f->kids[i]);
        bad = !k || pni_qformula_add(c, k) != PN_OK;
        if (bad)
            pn_qformula_free(k);
    }
    if (bad) {
        pn_qformula_free(c);
        return NULL;
    }
    return c;
}

/* A new node of kind k over kids a (and b), which it takes; NULL (both
 * freed) when out of memory. */
static pn_qformula_t *node(simp_t *s, pn_qf_kind_t k, pn_qformula_t *a,
                           pn_qformula_t *b)
{
    pn_qformula_t *f = pn_qformula_new(k);
    if (!f || pni_qformula_add(f, a) || (b && pni_qformula_add(f, b))) {
        if (f && f->nkids == 1)
            a = NULL; /* freed with f */
        pn_qformula_free(f);
        pn_qformula_free(a);
        pn_qformula_free(b);
        s->oom = 1;
        return NULL;
    }
    return f;
}

/* How many state subformulas the state equation will be asked about
 * (twice per atom, once per conjunction or disjunction), for the shares
 * of the time. */
static size_t count_lps(const pn_qformula_t *f)
{
    size_t n = f->kind == PN_QF_CMP || f->kind == PN_QF_DEADLOCK ||
                       f->kind == PN_QF_FIREABLE
                   ? 2
               : f->kind == PN_QF_AND || f->kind == PN_QF_OR ? 1 : 0;
    for (size_t i = 0; i < f->nkids; i++)
        n += count_lps(f->kids[i]);
    return n;
}

/* Whether the state equation proves f (neg: !f) unsatisfiable, within
 * this question's share of the time left. */
static int impossible(simp_t *s, const pn_qformula_t *f, int neg)
{
    double left = s->deadline - pni_clock();
    size_t n = s->lps ? s->lps : 1;
    if (s->lps)
        s->lps--;
    if (!s->lp || left <= 0.0005)
        return 0;
    return pni_lp_impossible(s->lp, f, neg, left / (double)n);
}

/* An atom's value over every reachable marking (1, 0), or -1: asked of
 * the state equation once, both ways. */
static int atom_value(simp_t *s, const pn_qformula_t *f)
{
    for (size_t i = 0; i < s->nknown; i++)
        if (pn_qformula_equal(s->known[i].f, f)) {
            if (s->lps >= 2)
                s->lps -= 2;
            return s->known[i].value;
        }
    int v = impossible(s, f, 0) ? 0 : impossible(s, f, 1) ? 1 : -1;
    if (s->nknown == s->capknown) {
        size_t cap = s->capknown ? 2 * s->capknown : 16;
        known_t *k = realloc(s->known, cap * sizeof *k);
        if (!k)
            return v;
        s->known = k;
        s->capknown = cap;
    }
    pn_qformula_t *c = copy(f);
    if (c)
        s->known[s->nknown++] = (known_t){c, (signed char)v};
    return v;
}

/* A state formula (an atom, or one with no temporal operator) settled by
 * the state equation when it can be. */
static pn_qformula_t *by_equation(simp_t *s, pn_qformula_t *f)
{
    int v = -1;
    if (f->kind == PN_QF_AND)
        v = impossible(s, f, 0) ? 0 : -1;
    else if (f->kind == PN_QF_OR)
        v = impossible(s, f, 1) ? 1 : -1;
    else if (!is_const(f) && f->kind != PN_QF_NOT)
        v = atom_value(s, f);
    if (v < 0)
        return f;
    s->lp_used = 1;
    return becomes(s, f, v);
}

/* Removes one place from each side for each place they share. */
static void cancel(pn_qsum_t *a, pn_qsum_t *b)
{
    for (size_t i = 0; i < a->nplaces;) {
        size_t j;
        for (j = 0; j < b->nplaces && b->places[j] != a->places[i]; j++)
            ;
        if (j == b->nplaces) {
            i++;
            continue;
        }
        a->places[i] = a->places[--a->nplaces];
        b->places[j] = b->places[--b->nplaces];
    }
}

/* A comparison without the net: the places both sides hold cancelled,
 * the smaller constant taken from both; then the value, 1 or 0, when
 * the constants alone decide it (a sum of places is 0 or more), else
 * -1. */
static int comparison(pn_qformula_t *f)
{
    cancel(&f->lhs, &f->rhs);
    uint64_t c = f->lhs.constant < f->rhs.constant ? f->lhs.constant
                                                    : f->rhs.constant;
    f->lhs.constant -= c;
    f->rhs.constant -= c;
    uint64_t l = f->lhs.constant, r = f->rhs.constant;
    int lp = f->lhs.nplaces > 0, rp = f->rhs.nplaces > 0;
    pn_qcmp_t op = f->op;
    if (!lp && !rp) {
        switch (op) {
        case PN_QCMP_LT: return l < r;
        case PN_QCMP_LE: return l <= r;
        case PN_QCMP_EQ: return l == r;
        case PN_QCMP_NE: return l != r;
        case PN_QCMP_GE: return l >= r;
        default: return l > r;
        }
    }
    if (lp && rp)
        return -1;
    if (!lp) { /* l op (r + places): turned around */
        static const pn_qcmp_t flip[] = {PN_QCMP_GT, PN_QCMP_GE, PN_QCMP_EQ,
                                         PN_QCMP_NE, PN_QCMP_LE, PN_QCMP_LT};
        op = flip[op];
        uint64_t t = l;
        l = r;
        r = t;
    }
    /* (l + places) op r, the places' sum anything from 0 up */
    switch (op) {
    case PN_QCMP_LT: return l >= r ? 0 : -1;
    case PN_QCMP_LE: return l > r ? 0 : -1;
    case PN_QCMP_EQ: return l > r ? 0 : -1;
    case PN_QCMP_NE: return l > r ? 1 : -1;
    case PN_QCMP_GE: return l >= r ? 1 : -1;
    default: return l > r ? 1 : -1;
    }
}

static pn_qformula_t *simp(simp_t *s, const pn_qformula_t *f);

/* Whether a is !b or b is !a. */
static int complement(const pn_qformula_t *a, const pn_qformula_t *b)
{
    return (a->kind == PN_QF_NOT && pn_qformula_equal(a->kids[0], b)) ||
           (b->kind == PN_QF_NOT && pn_qformula_equal(b->kids[0], a));
}

/* f's operand k (simplified) added to g, the conjunction or disjunction
 * being built: flattened, the neutral constant left out, a duplicate
 * dropped; 1 when it decides g (the absorbing constant, or the
 * complement of an operand). */
static int operand(simp_t *s, pn_qformula_t *g, pn_qformula_t *k)
{
    int absorbing = g->kind == PN_QF_OR; /* true absorbs a disjunction */
    if (k->kind == g->kind) {
        int done = 0;
        for (size_t i = 0; i < k->nkids && !done; i++) {
            done = operand(s, g, k->kids[i]);
            k->kids[i] = NULL;
        }
        for (size_t i = 0; i < k->nkids; i++)
            pn_qformula_free(k->kids[i]);
        k->nkids = 0;
        pn_qformula_free(k);
        return done;
    }
    if (is_const(k)) {
        int v = k->kind == PN_QF_TRUE;
        pn_qformula_free(k);
        return v == absorbing;
    }
    for (size_t i = 0; i < g->nkids; i++) {
        if (pn_qformula_equal(g->kids[i], k)) {
            pn_qformula_free(k);
            return 0;
        }
        if (complement(g->kids[i], k)) {
            pn_qformula_free(k);
            return 1;
        }
    }
    if (pni_qformula_add(g, k)) {
        pn_qformula_free(k);
        s->oom = 1;
        return 1;
    }
    return 0;
}

/* A conjunction or disjunction. */
static pn_qformula_t *junction(simp_t *s, const pn_qformula_t *f)
{
    int absorbing = f->kind == PN_QF_OR;
    pn_qformula_t *g = pn_qformula_new(f->kind);
    if (!g) {
        s->oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < f->nkids; i++) {
        pn_qformula_t *k = simp(s, f->kids[i]);
        if (!k) {
            pn_qformula_free(g);
            return NULL;
        }
        if (operand(s, g, k)) {
            /* the others are not asked about */
            for (size_t j = i + 1; j < f->nkids; j++) {
                size_t n = count_lps(f->kids[j]);
                s->lps = s->lps > n ? s->lps - n : 0;
            }
            return s->oom ? (pn_qformula_free(g), NULL)
                          : becomes(s, g, absorbing);
        }
    }
    if (g->nkids == 0)
        return becomes(s, g, !absorbing);
    if (g->nkids == 1) {
        pn_qformula_t *k = g->kids[0];
        g->nkids = 0;
        pn_qformula_free(g);
        return k;
    }
    return pni_qformula_temporal(g) ? g : by_equation(s, g);
}

/* !a, a simplified (taken). */
static pn_qformula_t *negation(simp_t *s, pn_qformula_t *a)
{
    if (is_const(a))
        return becomes(s, a, a->kind == PN_QF_FALSE);
    if (a->kind == PN_QF_NOT) {
        pn_qformula_t *k = a->kids[0];
        a->nkids = 0;
        pn_qformula_free(a);
        return k;
    }
    return node(s, PN_QF_NOT, a, NULL);
}

/* The operand k of a (taken, a freed). */
static pn_qformula_t *take(pn_qformula_t *a, size_t k)
{
    pn_qformula_t *r = a->kids[k];
    a->kids[k] = NULL;
    pn_qformula_free(a);
    return r;
}

/* deadlock (neg: !deadlock), settled by the state equation if it can. */
static pn_qformula_t *dead(simp_t *s, int neg)
{
    pn_qformula_t *d = pn_qformula_new(PN_QF_DEADLOCK);
    if (!d) {
        s->oom = 1;
        return NULL;
    }
    d = by_equation(s, d);
    return d && neg ? negation(s, d) : d;
}

/* A unary temporal operator k over a, simplified (taken). */
static pn_qformula_t *unary(simp_t *s, pn_qf_kind_t k, pn_qformula_t *a)
{
    switch (k) {
    case PN_QF_EX: /* EX false = false; EX true: a successor */
        if (is_const(a))
            return a->kind == PN_QF_FALSE ? a
                                          : (pn_qformula_free(a), dead(s, 1));
        break;
    case PN_QF_AX: /* AX true = true; AX false: no successor */
        if (is_const(a))
            return a->kind == PN_QF_TRUE ? a
                                         : (pn_qformula_free(a), dead(s, 0));
        break;
    case PN_QF_EF: /* EF EF f = EF AF f = EF E[g U f] = EF A[g U f] = EF f */
        if (a->kind == PN_QF_AF || a->kind == PN_QF_EU ||
            a->kind == PN_QF_AU)
            return unary(s, k, take(a, a->kind == PN_QF_AF ? 0 : 1));
        break;
    case PN_QF_AG: /* AG AG f = AG EG f = AG f */
        if (a->kind == PN_QF_EG)
            return unary(s, k, take(a, 0));
        break;
    case PN_QF_AF: /* AF EF f = EF f; AF A[g U f] = AF f */
        if (a->kind == PN_QF_EF)
            return a;
        if (a->kind == PN_QF_AU)
            return unary(s, k, take(a, 1));
        break;
    case PN_QF_EG: /* EG AG f = AG f */
        if (a->kind == PN_QF_AG)
            return a;
        break;
    case PN_QF_F: /* F [g U f] = F f; F G F f = G F f */
        if (a->kind == PN_QF_U)
            return unary(s, k, take(a, 1));
        if (a->kind == PN_QF_G && a->kids[0]->kind == PN_QF_F)
            return a;
        break;
    case PN_QF_G: /* G F G f = F G f */
        if (a->kind == PN_QF_F && a->kids[0]->kind == PN_QF_G)
            return a;
        break;
    default: /* X */
        break;
    }
    /* a constant stays (X c = c: a path is infinite); EF, AG, AF, EG,
     * F and G over themselves are themselves (not the nexts) */
    int idem = k != PN_QF_EX && k != PN_QF_AX && k != PN_QF_X;
    if (is_const(a) || (idem && a->kind == k))
        return a;
    return node(s, k, a, NULL);
}

/* A binary temporal operator k (EU, AU, U, R) over a and b, simplified
 * (taken). */
static pn_qformula_t *binary(simp_t *s, pn_qf_kind_t k, pn_qformula_t *a,
                             pn_qformula_t *b)
{
    int ctl = k == PN_QF_EU || k == PN_QF_AU;
    pn_qf_kind_t eventually = k == PN_QF_EU ? PN_QF_EF
                              : k == PN_QF_AU ? PN_QF_AF : PN_QF_F;
    if (k == PN_QF_R) {
        /* [a R c] = c for a constant c; [false R b] = G b; [true R b] =
         * b */
        if (is_const(b) || a->kind == PN_QF_TRUE) {
            pn_qformula_free(a);
            return b;
        }
        if (a->kind == PN_QF_FALSE) {
            pn_qformula_free(a);
            return unary(s, PN_QF_G, b);
        }
        return node(s, k, a, b);
    }
    /* [a U c] = c for a constant c, and so is [false U b]; with b the
     * eventually of the same quantifier, [a U b] = b (b holds now once
     * it holds later); [deadlock U b] = b (no step out of a dead
     * marking) */
    int dead_a = ctl && a->kind == PN_QF_DEADLOCK;
    if (is_const(b) || a->kind == PN_QF_FALSE || dead_a ||
        b->kind == eventually || (ctl && b->kind == PN_QF_EF)) {
        pn_qformula_free(a);
        return b;
    }
    /* [true U b] = F b; E[!deadlock U b] = EF b: the markings before
     * the goal all have a successor */
    if (a->kind == PN_QF_TRUE ||
        (ctl && a->kind == PN_QF_NOT &&
         a->kids[0]->kind == PN_QF_DEADLOCK)) {
        pn_qformula_free(a);
        return unary(s, eventually, b);
    }
    return node(s, k, a, b);
}

static pn_qformula_t *simp(simp_t *s, const pn_qformula_t *f)
{
    if (s->oom)
        return NULL;
    switch (f->kind) {
    case PN_QF_TRUE:
    case PN_QF_FALSE:
        return constant(s, f->kind == PN_QF_TRUE);
    case PN_QF_CMP:
    case PN_QF_DEADLOCK:
    case PN_QF_FIREABLE: {
        pn_qformula_t *g = copy(f);
        if (!g) {
            s->oom = 1;
            return NULL;
        }
        int v = g->kind == PN_QF_CMP ? comparison(g)
                : g->kind == PN_QF_FIREABLE && !g->nitems ? 0 : -1;
        if (v >= 0) {
            if (s->lps >= 2)
                s->lps -= 2;
            return becomes(s, g, v);
        }
        return by_equation(s, g);
    }
    case PN_QF_NOT: {
        pn_qformula_t *a = simp(s, f->kids[0]);
        return a ? negation(s, a) : NULL;
    }
    case PN_QF_AND:
    case PN_QF_OR:
        return junction(s, f);
    default:
        break;
    }
    pn_qformula_t *a = simp(s, f->kids[0]);
    if (!a)
        return NULL;
    if (f->nkids < 2)
        return unary(s, f->kind, a);
    pn_qformula_t *b = simp(s, f->kids[1]);
    if (!b) {
        pn_qformula_free(a);
        return NULL;
    }
    return binary(s, f->kind, a, b);
}

/* q copied into c, its formula simplified when open; *tech gets
 * PN_TECH_QUERY_REDUCTION when the formula changed or became a
 * reachability query, and
 * PN_TECH_STATE_EQUATION when a conclusion of the state equation is in
 * it. */
static pn_status_t query(simp_t *s, const pn_query_t *q, int open,
                         pn_query_t *c, unsigned *tech)
{
    *c = *q;
    c->formula = NULL;
    c->id = NULL;
    c->bound.places = NULL;
    if (sum_copy(&c->bound, &q->bound) ||
        !(c->id = malloc(strlen(q->id ? q->id : "") + 1)))
        return PN_ENOMEM;
    strcpy(c->id, q->id ? q->id : "");
    if (!q->formula)
        return PN_OK;
    s->lp_used = 0;
    c->formula = open ? simp(s, q->formula) : copy(q->formula);
    if (!c->formula)
        return PN_ENOMEM;
    if (!open)
        return PN_OK;
    if (!pn_qformula_equal(c->formula, q->formula))
        *tech |= PN_TECH_QUERY_REDUCTION |
                 (s->lp_used ? PN_TECH_STATE_EQUATION : 0);
    /* a CTL formula that became EF or AG of a state formula, or its
     * negation (!AG s is EF !s): a reachability query, for the walks and
     * the reductions too (its marking a witness of the formula only where
     * it stood under that EF or AG at the top: pni_simplified_witness()) */
    pn_qformula_t *f = c->formula;
    int neg = f->kind == PN_QF_NOT;
    pn_qformula_t *g = neg ? f->kids[0] : f;
    if (q->kind == PN_QUERY_CTL &&
        (g->kind == PN_QF_EF || g->kind == PN_QF_AG) &&
        !pni_qformula_temporal(g->kids[0])) {
        c->kind = (g->kind == PN_QF_EF) != neg ? PN_QUERY_EF : PN_QUERY_AG;
        if (neg)
            g = take(f, 0);
        c->formula = take(g, 0);
        if (neg && !(c->formula = negation(s, c->formula)))
            return PN_ENOMEM;
        *tech |= PN_TECH_QUERY_REDUCTION;
    }
    return PN_OK;
}

pn_status_t pni_simplify(const pn_net_t *net, const pn_query_set_t *qs,
                         const pn_query_answer_t *answers, int use_lp,
                         double deadline, unsigned *tech,
                         pn_query_set_t **out)
{
    simp_t s = {NULL, deadline, 0, 0, 0, NULL, 0, 0};
    pni_lp_t *lp = NULL;
    *out = pn_query_set_new();
    if (!*out)
        return PN_ENOMEM;
    for (size_t i = 0; i < qs->n; i++)
        if (!answers[i].known && qs->q[i].formula)
            s.lps += count_lps(qs->q[i].formula);
    if (use_lp && s.lps && pni_lp_sound(net))
        s.lp = lp = pni_lp_new(net);
    pn_status_t st = PN_OK;
    for (size_t i = 0; !st && i < qs->n; i++) {
        pn_query_t *c = pni_query_append(*out);
        if (!c) {
            st = PN_ENOMEM;
            break;
        }
        st = query(&s, &qs->q[i], !answers[i].known, c, &tech[i]);
        if (!st && s.oom)
            st = PN_ENOMEM;
    }
    for (size_t i = 0; i < s.nknown; i++)
        pn_qformula_free(s.known[i].f);
    free(s.known);
    pni_lp_free(lp);
    if (st) {
        pn_query_set_free(*out);
        *out = NULL;
    }
    return st;
}

int pni_simplified_witness(const pn_query_t *q, const pn_query_t *sq)
{
    if (q->kind != PN_QUERY_CTL || sq->kind == PN_QUERY_CTL)
        return 1;
    return q->formula->kind ==
           (sq->kind == PN_QUERY_EF ? PN_QF_EF : PN_QF_AG);
}

int pni_simplified_value(const pn_query_t *q, int *value)
{
    if (q->kind == PN_QUERY_BOUND || !q->formula || !is_const(q->formula))
        return 0;
    /* EF true, AG true, true at the initial marking, true all along
     * every path: true; false likewise */
    *value = q->formula->kind == PN_QF_TRUE;
    return 1;
}
