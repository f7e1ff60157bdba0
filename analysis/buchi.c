/*
 * LTL to a transition-based generalized Büchi automaton, by the tableau
 * of Gerth, Peled, Vardi and Wolper in Couvreur's on-the-fly form (the
 * one LTL2BA and Spot start from): a state is a set of obligations (path
 * formulas in negation normal form, to hold from the current position);
 * its transitions are the ways of meeting them now, each a conjunction of
 * literals over the formula's atoms (its greatest subformulas with no
 * temporal operator) and the set of obligations left for the next
 * position.  An until f U g met by postponing it (f now, f U g next) is
 * marked as not fulfilled on that transition; a run is accepting when,
 * for every until, infinitely many of its transitions fulfil it.
 *
 * Simplifications: the formula rewritten as it is put in negation normal
 * form (mk(): constants folded, equal operands one node, and the
 * rewritings of Spot's basic simplifier and of Somenzi and Bloem, which
 * the contest's formulas need: they nest F, G and X where these change
 * nothing); literals that contradict each other drop their transition; a
 * transition is dropped when another one to the same state asks no more
 * literals and fulfils at least its untils; and the states that accept
 * the same words for the same reasons (bisimilar) made one (merge()).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

/* nodes of the negation normal form */
enum { L_TRUE, L_FALSE, L_LIT, L_AND, L_OR, L_X, L_U, L_R };

typedef struct {
    int op;
    uint32_t a, b;      /* L_LIT: atom, negated; else the operands */
    unsigned char ev, un; /* eventual, universal (node()) */
} lnode_t;

/* the most untils (one acceptance mark each, in a 64-bit mask) and
 * automaton states */
#define MARKS_MAX 64
#define STATES_MAX_B 100000

typedef struct {
    lnode_t *node;
    size_t n, cap;
    const pn_qformula_t **atoms;
    size_t natoms, cap_atoms;
    int *mark;          /* per node: the until's mark, -1 */
    size_t nmarks;
    size_t words;       /* 64-bit words of a set of nodes */
    /* the automaton as it is built: states (sets of nodes, words each) */
    uint64_t *sets;
    size_t nstates, cap_states;
    pni_btrans_t *t;
    size_t nt, cap_t;
    uint32_t *lits;
    size_t nlits, cap_lits;
    size_t first_t;     /* the first transition of the state expanded */
    int oom;
} tab_t;

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *v = realloc(*p, c * size);
    if (!v)
        return -1;
    *p = v;
    *cap = c;
    return 0;
}

/* The node (op, a, b), made once.  Two properties of its language come
 * with it (Etessami and Holzmann; Somenzi and Bloem): eventual, when a
 * word satisfies it as soon as some suffix does (f is F f: F g, X e,
 * e and e', e or e', f U e, e R e'), and universal, when every suffix of
 * a word that satisfies it does (f is G f: G g, X u, u and u', u or u',
 * u U u', f R u).  A formula both is decided by any suffix of the word
 * (F G p, G F p): X, F and G leave it as it is. */
static uint32_t node(tab_t *tb, int op, uint32_t a, uint32_t b)
{
    for (size_t i = 0; i < tb->n; i++)
        if (tb->node[i].op == op && tb->node[i].a == a && tb->node[i].b == b)
            return (uint32_t)i;
    if (grow((void **)&tb->node, &tb->cap, tb->n + 1, sizeof *tb->node)) {
        tb->oom = 1;
        return L_FALSE;
    }
    lnode_t nd = {op, a, b, 1, 1};
    if (op == L_LIT) {
        nd.ev = nd.un = 0;
    } else if (op != L_TRUE && op != L_FALSE) {
        const lnode_t *x = &tb->node[a], *y = &tb->node[op == L_X ? a : b];
        nd.ev = x->ev && y->ev;
        nd.un = x->un && y->un;
        if (op == L_U && a == L_TRUE)
            nd.ev = 1;
        else if (op == L_R && a == L_FALSE)
            nd.un = 1;
    }
    tb->node[tb->n] = nd;
    return (uint32_t)tb->n++;
}

static int both(const tab_t *tb, uint32_t f)
{
    return tb->node[f].ev && tb->node[f].un;
}

/* Whether f implies g, by the syntactic rules of Somenzi and Bloem
 * (0: not shown, within budget steps). */
static int implies(const tab_t *tb, uint32_t f, uint32_t g, int *budget)
{
    if (f == g || g == L_TRUE || f == L_FALSE)
        return 1;
    if (--*budget <= 0)
        return 0;
    lnode_t x = tb->node[f], y = tb->node[g];
    if (y.op == L_AND)
        return implies(tb, f, y.a, budget) && implies(tb, f, y.b, budget);
    if (x.op == L_OR)
        return implies(tb, x.a, g, budget) && implies(tb, x.b, g, budget);
    if (y.op == L_OR &&
        (implies(tb, f, y.a, budget) || implies(tb, f, y.b, budget)))
        return 1;
    if (x.op == L_AND &&
        (implies(tb, x.a, g, budget) || implies(tb, x.b, g, budget)))
        return 1;
    /* g U h follows from h; f R g implies g */
    if ((y.op == L_U && implies(tb, f, y.b, budget)) ||
        (x.op == L_R && implies(tb, x.b, g, budget)))
        return 1;
    /* f U g implies h when f and g do; h implies f R g when it implies
     * both */
    if ((x.op == L_U && implies(tb, x.a, g, budget) &&
         implies(tb, x.b, g, budget)) ||
        (y.op == L_R && implies(tb, f, y.a, budget) &&
         implies(tb, f, y.b, budget)))
        return 1;
    /* operand by operand */
    if (x.op == y.op && (x.op == L_U || x.op == L_R) &&
        implies(tb, x.a, y.a, budget) && implies(tb, x.b, y.b, budget))
        return 1;
    if (x.op == L_X && y.op == L_X)
        return implies(tb, x.a, y.a, budget);
    /* a universal f holds next too; an eventual g held next holds now */
    if (y.op == L_X && x.un && implies(tb, f, y.a, budget))
        return 1;
    return x.op == L_X && y.ev && implies(tb, x.a, g, budget);
}

static int implied(const tab_t *tb, uint32_t f, uint32_t g)
{
    int budget = 2000;
    return implies(tb, f, g, &budget);
}

/* The node (op, a, b) simplified, a and b simplified already: constants
 * folded, equal operands made one node, and the rewritings of Spot's
 * basic simplifier and of Somenzi and Bloem that make fewer states and
 * fewer untils (fewer acceptance marks), each an equivalence:
 *   f and g = f, f or g = g, g U h = h, f R g = g when f implies g (and h
 *   implies g); X f and X g = X (f and g) (or, U, R alike);
 *   F f or F g = F (f or g), G f and G g = G (f and g), G F f or G F g =
 *   G F (f or g), F G f and F G g = F G (f and g);
 *   f U e = e for an eventual e, f R u = u for a universal u, X s = s
 *   when s is both;
 *   F X f = X F f, F (f U g) = F g, F (e or f) = e or F f for an
 *   eventual e, F (s and f) = s and F f for s both, and G likewise. */
static uint32_t mk(tab_t *tb, int op, uint32_t a, uint32_t b)
{
    /* (copies: the calls below may move the nodes) */
    lnode_t xc = tb->node[a], yc = tb->node[op == L_X ? a : b];
    const lnode_t *x = &xc, *y = &yc;
    if (op == L_AND || op == L_OR) {
        int and = op == L_AND;
        uint32_t unit = and ? L_TRUE : L_FALSE;
        uint32_t zero = and ? L_FALSE : L_TRUE;
        if (a == zero || b == zero)
            return zero;
        if (a == unit || a == b)
            return b;
        if (b == unit)
            return a;
        if (x->op == L_LIT && y->op == L_LIT && x->a == y->a)
            return zero; /* a literal and its negation */
        if (implied(tb, a, b))
            return and ? a : b;
        if (implied(tb, b, a))
            return and ? b : a;
        if (x->op == L_X && y->op == L_X)
            return mk(tb, L_X, mk(tb, op, x->a, y->a), 0);
        int fo = and ? L_R : L_U;    /* G f and G g; F f or F g */
        uint32_t u = and ? L_FALSE : L_TRUE;
        if (x->op == fo && y->op == fo && x->a == u && y->a == u)
            return mk(tb, fo, u, mk(tb, op, x->b, y->b));
        int in = and ? L_R : L_U;    /* F G f and F G g; G F f or G F g */
        int out = and ? L_U : L_R;
        uint32_t v = and ? L_TRUE : L_FALSE;
        if (x->op == out && y->op == out && x->a == v && y->a == v) {
            lnode_t xi = tb->node[x->b], yi = tb->node[y->b];
            if (xi.op == in && yi.op == in && xi.a == u && yi.a == u)
                return mk(tb, out, v, mk(tb, in, u, mk(tb, op, xi.b, yi.b)));
        }
        if (a > b) { /* commutative: one order */
            uint32_t s = a;
            a = b;
            b = s;
        }
        return node(tb, op, a, b);
    }
    if (op == L_X)
        return a == L_TRUE || a == L_FALSE || both(tb, a) ? a
                                                          : node(tb, L_X, a, 0);
    if (op != L_U && op != L_R)
        return node(tb, op, a, b);
    int until = op == L_U;
    /* f U true, f R true: true; f U false, f R false: false; false U g,
     * true R g: g; f U e: e; f R u: u; g when f implies g (U) or g
     * implies f (R) */
    if (b == L_TRUE || b == L_FALSE || a == (until ? L_FALSE : L_TRUE) ||
        (until ? y->ev : y->un) ||
        (until ? implied(tb, a, b) : implied(tb, b, a)))
        return b;
    if (x->op == L_X && y->op == L_X)
        return mk(tb, L_X, mk(tb, op, x->a, y->a), 0);
    if (until ? a == L_TRUE : a == L_FALSE) {
        /* F g, G g */
        if (y->op == L_X)
            return mk(tb, L_X, mk(tb, op, a, y->a), 0);
        if (y->op == op)
            return mk(tb, op, a, y->b);
        /* F (e or f) = e or F f for an eventual e, F (s and f) = s and
         * F f for s both; G (u and f) = u and G f for a universal u, G (s
         * or f) = s or G f */
        int in = y->op;
        if (in == L_AND || in == L_OR) {
            int wide = (in == L_OR) == until; /* e, u: enough */
            const lnode_t *ya = &tb->node[y->a], *yb = &tb->node[y->b];
            int sa = wide ? (until ? ya->ev : ya->un) : both(tb, y->a);
            int sb = wide ? (until ? yb->ev : yb->un) : both(tb, y->b);
            if (sa || sb) {
                uint32_t s = sa ? y->a : y->b, f = sa ? y->b : y->a;
                return mk(tb, in, s, mk(tb, op, a, f));
            }
        }
    }
    return node(tb, op, a, b);
}

static uint32_t atom(tab_t *tb, const pn_qformula_t *f, int neg)
{
    size_t k = 0;
    while (k < tb->natoms && !pn_qformula_equal(tb->atoms[k], f))
        k++;
    if (k == tb->natoms) {
        if (grow((void **)&tb->atoms, &tb->cap_atoms, k + 1,
                 sizeof *tb->atoms)) {
            tb->oom = 1;
            return L_FALSE;
        }
        tb->atoms[tb->natoms++] = f;
        /* both literals, so that a set of nodes holds either */
        node(tb, L_LIT, (uint32_t)k, 0);
        node(tb, L_LIT, (uint32_t)k, 1);
    }
    return node(tb, L_LIT, (uint32_t)k, (uint32_t)neg);
}

/* f (its negation when neg) in negation normal form. */
static uint32_t nnf(tab_t *tb, const pn_qformula_t *f, int neg,
                    unsigned depth)
{
    if (tb->oom || depth > 2000) {
        tb->oom = 1;
        return L_FALSE;
    }
    if (f->kind == PN_QF_TRUE || f->kind == PN_QF_FALSE)
        return (f->kind == PN_QF_TRUE) != neg ? L_TRUE : L_FALSE;
    if (!pni_qformula_temporal(f))
        return atom(tb, f, neg);
    uint32_t a = 0, b = 0;
    switch (f->kind) {
    case PN_QF_NOT:
        return nnf(tb, f->kids[0], !neg, depth + 1);
    case PN_QF_AND:
    case PN_QF_OR: {
        int op = (f->kind == PN_QF_AND) != neg ? L_AND : L_OR;
        uint32_t r = op == L_AND ? L_TRUE : L_FALSE;
        for (size_t i = 0; i < f->nkids; i++)
            r = mk(tb, op, r, nnf(tb, f->kids[i], neg, depth + 1));
        return r;
    }
    case PN_QF_X: /* on infinite paths, not X f is X not f */
        return mk(tb, L_X, nnf(tb, f->kids[0], neg, depth + 1), 0);
    case PN_QF_F: /* true U f; not: false R not f */
    case PN_QF_G: /* false R f; not: true U not f */
        b = nnf(tb, f->kids[0], neg, depth + 1);
        if ((f->kind == PN_QF_F) != neg)
            return mk(tb, L_U, L_TRUE, b);
        return mk(tb, L_R, L_FALSE, b);
    default: /* the untils, dual under not */
        a = nnf(tb, f->kids[0], neg, depth + 1);
        b = nnf(tb, f->kids[1], neg, depth + 1);
        return mk(tb, (f->kind == PN_QF_U) != neg ? L_U : L_R, a, b);
    }
}

/* ---- the tableau -------------------------------------------------------- */

static int has(const uint64_t *s, uint32_t i)
{
    return (s[i / 64] >> (i % 64)) & 1;
}

static void put(uint64_t *s, uint32_t i)
{
    s[i / 64] |= (uint64_t)1 << (i % 64);
}

/* The state whose obligations are set, made when new. */
static uint32_t state_of(tab_t *tb, const uint64_t *set)
{
    size_t w = tb->words;
    for (size_t i = 0; i < tb->nstates; i++)
        if (!memcmp(tb->sets + i * w, set, w * sizeof *set))
            return (uint32_t)i;
    if (tb->nstates >= STATES_MAX_B ||
        grow((void **)&tb->sets, &tb->cap_states, (tb->nstates + 1) * w,
             sizeof *tb->sets)) {
        tb->oom = 1;
        return 0;
    }
    memcpy(tb->sets + tb->nstates * w, set, w * sizeof *set);
    return (uint32_t)tb->nstates++;
}

static int subset_lits(const tab_t *tb, const pni_btrans_t *a,
                       const pni_btrans_t *b)
{
    for (uint32_t i = 0; i < a->nlits; i++) {
        uint32_t j = 0;
        while (j < b->nlits && tb->lits[b->lit_off + j] !=
                                   tb->lits[a->lit_off + i])
            j++;
        if (j == b->nlits)
            return 0;
    }
    return 1;
}

/* A transition met by the literals in lits (nodes), to the obligations in
 * next, fulfilling the untils not postponed; dropped when one already
 * made from this state is as good. */
static void emit(tab_t *tb, const uint64_t *lits, const uint64_t *next,
                 uint64_t postponed)
{
    uint32_t dst = state_of(tb, next);
    size_t off = tb->nlits;
    for (uint32_t i = 0; i < tb->n && !tb->oom; i++)
        if (has(lits, i) && tb->node[i].op == L_LIT) {
            if (grow((void **)&tb->lits, &tb->cap_lits, tb->nlits + 1,
                     sizeof *tb->lits)) {
                tb->oom = 1;
                return;
            }
            tb->lits[tb->nlits++] = tb->node[i].a * 2 + tb->node[i].b;
        }
    uint64_t all = tb->nmarks == 64 ? UINT64_MAX
                                    : ((uint64_t)1 << tb->nmarks) - 1;
    pni_btrans_t t = {dst, all & ~postponed, (uint32_t)off,
                      (uint32_t)(tb->nlits - off)};
    for (size_t k = tb->first_t; k < tb->nt; k++) {
        pni_btrans_t *o = &tb->t[k];
        if (o->dst != dst || o->nlits == UINT32_MAX)
            continue;
        if ((o->acc | t.acc) == o->acc && subset_lits(tb, o, &t)) {
            tb->nlits = off; /* o is as good */
            return;
        }
        if ((o->acc | t.acc) == t.acc && subset_lits(tb, &t, o))
            o->nlits = UINT32_MAX; /* t is better: o goes */
    }
    if (grow((void **)&tb->t, &tb->cap_t, tb->nt + 1, sizeof *tb->t)) {
        tb->oom = 1;
        return;
    }
    tb->t[tb->nt++] = t;
}

/* The ways of meeting todo now (done: the nodes already taken on). */
static void expand(tab_t *tb, uint64_t *todo, uint64_t *done, uint64_t *next,
                   uint64_t postponed, unsigned depth)
{
    size_t w = tb->words;
    uint32_t i = 0;
    while (i < tb->n && !has(todo, i))
        i++;
    if (tb->oom)
        return;
    if (i == tb->n) {
        emit(tb, done, next, postponed);
        return;
    }
    todo[i / 64] &= ~((uint64_t)1 << (i % 64));
    lnode_t nd = tb->node[i];
    if (has(done, i) || nd.op == L_TRUE) {
        expand(tb, todo, done, next, postponed, depth);
        return;
    }
    if (nd.op == L_FALSE)
        return;
    /* the copies of a branch */
    uint64_t *c = malloc(3 * w * sizeof *c);
    if (!c) {
        tb->oom = 1;
        return;
    }
    uint64_t *t2 = c, *d2 = c + w, *n2 = c + 2 * w;
    memcpy(t2, todo, w * sizeof *c);
    memcpy(d2, done, w * sizeof *c);
    memcpy(n2, next, w * sizeof *c);
    put(done, i);
    put(d2, i);
    switch (nd.op) {
    case L_LIT: {
        /* its complement is the node made just before or after it */
        uint32_t other = node(tb, L_LIT, nd.a, !nd.b);
        if (!has(done, other))
            expand(tb, todo, done, next, postponed, depth + 1);
        break;
    }
    case L_AND:
        put(todo, nd.a);
        put(todo, nd.b);
        expand(tb, todo, done, next, postponed, depth + 1);
        break;
    case L_OR:
        put(todo, nd.a);
        expand(tb, todo, done, next, postponed, depth + 1);
        put(t2, nd.b);
        expand(tb, t2, d2, n2, postponed, depth + 1);
        break;
    case L_X:
        put(next, nd.a);
        expand(tb, todo, done, next, postponed, depth + 1);
        break;
    case L_U: /* g now; or f now and f U g next, postponed */
        put(todo, nd.b);
        expand(tb, todo, done, next, postponed, depth + 1);
        put(t2, nd.a);
        put(n2, i);
        expand(tb, t2, d2, n2, postponed | (uint64_t)1 << tb->mark[i],
               depth + 1);
        break;
    default: /* L_R: f and g now; or g now and f R g next */
        put(todo, nd.a);
        put(todo, nd.b);
        expand(tb, todo, done, next, postponed, depth + 1);
        put(t2, nd.b);
        put(n2, i);
        expand(tb, t2, d2, n2, postponed, depth + 1);
    }
    free(c);
}

/* Every state's transitions, breadth first from the initial one. */
static pn_status_t build(tab_t *tb, pni_buchi_t *b)
{
    size_t w = tb->words;
    uint64_t *s = calloc(4 * w, sizeof *s);
    if (!s)
        return PN_ENOMEM;
    b->t_off = malloc((STATES_MAX_B + 1) * sizeof *b->t_off);
    if (!b->t_off) {
        free(s);
        return PN_ENOMEM;
    }
    for (size_t q = 0; q < tb->nstates && !tb->oom; q++) {
        memcpy(s, tb->sets + q * w, w * sizeof *s);
        memset(s + w, 0, 3 * w * sizeof *s);
        b->t_off[q] = (uint32_t)tb->nt;
        tb->first_t = tb->nt;
        expand(tb, s, s + w, s + 2 * w, 0, 0);
        /* the transitions a better one replaced */
        size_t k = tb->first_t;
        for (size_t j = tb->first_t; j < tb->nt; j++)
            if (tb->t[j].nlits != UINT32_MAX)
                tb->t[k++] = tb->t[j];
        tb->nt = k;
    }
    free(s);
    if (tb->oom)
        return tb->nstates >= STATES_MAX_B ? PN_ERANGE : PN_ENOMEM;
    b->t_off[tb->nstates] = (uint32_t)tb->nt;
    return PN_OK;
}

/* ---- the automaton's states merged ------------------------------------ */

/* the most states merged (the comparisons are quadratic) */
#define MERGE_MAX 512

static int same_trans(const pni_buchi_t *b, const uint32_t *cls,
                      const pni_btrans_t *x, const pni_btrans_t *y)
{
    return cls[x->dst] == cls[y->dst] && x->acc == y->acc &&
           x->nlits == y->nlits &&
           (!x->nlits || !memcmp(b->lits + x->lit_off, b->lits + y->lit_off,
                                 x->nlits * sizeof *b->lits));
}

/* Whether every transition of q has one of r's alike, under cls. */
static int covered(const pni_buchi_t *b, const uint32_t *cls, uint32_t q,
                   uint32_t r)
{
    for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
        uint32_t j = b->t_off[r];
        while (j < b->t_off[r + 1] &&
               !same_trans(b, cls, &b->t[i], &b->t[j]))
            j++;
        if (j == b->t_off[r + 1])
            return 0;
    }
    return 1;
}

/* The quotient of b by its greatest bisimulation: states whose
 * transitions read the same literals, carry the same marks and lead to
 * states of one class make one state (the tableau makes many such: sets
 * of obligations that differ and mean the same).  Found by refining one
 * class until no class splits; state 0 stays the initial one. */
static pn_status_t merge(pni_buchi_t *b)
{
    size_t n = b->nstates;
    if (n < 2 || n > MERGE_MAX)
        return PN_OK;
    uint32_t *cls = calloc(2 * n, sizeof *cls), *next = cls + n;
    pni_btrans_t *t = malloc((b->t_off[n] + 1) * sizeof *t);
    if (!cls || !t) {
        free(cls);
        free(t);
        return PN_ENOMEM;
    }
    size_t ncls = 1;
    for (;;) {
        size_t k = 0;
        for (uint32_t q = 0; q < n; q++) {
            uint32_t r = 0;
            while (r < q && !(cls[r] == cls[q] && covered(b, cls, q, r) &&
                              covered(b, cls, r, q)))
                r++;
            next[q] = r < q ? next[r] : (uint32_t)k++;
        }
        memcpy(cls, next, n * sizeof *cls);
        if (k == ncls)
            break;
        ncls = k;
    }
    /* each class's first state, its transitions to classes, those alike
     * made one */
    size_t nt = 0, c = 0;
    for (uint32_t q = 0; q < n; q++) {
        if (cls[q] != c)
            continue; /* (a class first met at q is numbered c) */
        uint32_t first = (uint32_t)nt;
        for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
            pni_btrans_t x = b->t[i];
            x.dst = cls[x.dst];
            uint32_t j = first;
            while (j < nt && !(t[j].dst == x.dst && t[j].acc == x.acc &&
                               t[j].nlits == x.nlits &&
                               (!x.nlits ||
                                !memcmp(b->lits + x.lit_off,
                                        b->lits + t[j].lit_off,
                                        x.nlits * sizeof *b->lits))))
                j++;
            if (j == nt)
                t[nt++] = x;
        }
        b->t_off[c++] = first;
    }
    b->t_off[c] = (uint32_t)nt;
    memcpy(b->t, t, nt * sizeof *t);
    b->nstates = c;
    free(cls);
    free(t);
    return PN_OK;
}

pn_status_t pni_buchi_new(const pn_qformula_t *f, int negate,
                          pni_buchi_t **out)
{
    *out = NULL;
    tab_t tb = {0};
    /* the constants first: L_TRUE and L_FALSE are nodes 0 and 1 */
    node(&tb, L_TRUE, 0, 0);
    node(&tb, L_FALSE, 0, 0);
    uint32_t root = nnf(&tb, f, negate, 0);
    pni_buchi_t *b = calloc(1, sizeof *b);
    tb.mark = malloc((tb.n + 1) * sizeof *tb.mark);
    pn_status_t st = tb.oom || !b || !tb.mark ? PN_ENOMEM : PN_OK;
    /* the untils the formula keeps (the simplifications leave others
     * behind), operands made before the nodes that use them: -2 */
    for (size_t i = 0; !st && i < tb.n; i++)
        tb.mark[i] = i == root ? -2 : -1;
    for (size_t i = tb.n; !st && i-- > 0;) {
        const lnode_t *nd = &tb.node[i];
        if (tb.mark[i] == -2 && nd->op >= L_AND)
            tb.mark[nd->a] = tb.mark[nd->op == L_X ? nd->a : nd->b] = -2;
    }
    for (size_t i = 0; !st && i < tb.n; i++) {
        tb.mark[i] = tb.node[i].op == L_U && tb.mark[i] == -2
                         ? (int)tb.nmarks++ : -1;
        if (tb.nmarks > MARKS_MAX)
            st = PN_ERANGE;
    }
    tb.words = (tb.n + 63) / 64;
    if (!st) {
        uint64_t *init = calloc(tb.words, sizeof *init);
        if (!init)
            st = PN_ENOMEM;
        else
            put(init, root);
        if (!st)
            state_of(&tb, init);
        free(init);
        st = st ? st : tb.oom ? PN_ENOMEM : build(&tb, b);
    }
    free(tb.node);
    free(tb.mark);
    free(tb.sets);
    if (st) {
        free(tb.atoms);
        free(tb.t);
        free(tb.lits);
        pni_buchi_free(b);
        return st;
    }
    b->nstates = tb.nstates;
    b->t = tb.t;
    b->lits = tb.lits;
    b->atoms = tb.atoms;
    /* the atoms the transitions read, in their order (the simplified
     * formula may have dropped some) */
    uint32_t *to = calloc(tb.natoms + 1, sizeof *to);
    if (to) {
        for (size_t i = 0; i < tb.nlits; i++)
            to[tb.lits[i] / 2] = 1;
        for (size_t k = 0; k < tb.natoms; k++)
            if (to[k]) {
                tb.atoms[b->natoms] = tb.atoms[k];
                to[k] = (uint32_t)b->natoms++;
            }
        for (size_t i = 0; i < tb.nlits; i++)
            tb.lits[i] = to[tb.lits[i] / 2] * 2 + (tb.lits[i] & 1);
        free(to);
    } else {
        b->natoms = tb.natoms;
    }
    b->all = tb.nmarks == 64 ? UINT64_MAX : ((uint64_t)1 << tb.nmarks) - 1;
    merge(b); /* (out of memory: b as it is) */
    *out = b;
    return PN_OK;
}

void pni_buchi_free(pni_buchi_t *b)
{
    if (!b)
        return;
    free(b->t_off);
    free(b->t);
    free(b->lits);
    free(b->atoms);
    free(b);
}

int pni_buchi_label(const pni_buchi_t *b, const pni_btrans_t *t,
                    const unsigned char *value)
{
    for (uint32_t i = 0; i < t->nlits; i++) {
        uint32_t l = b->lits[t->lit_off + i];
        if ((value[l / 2] != 0) == (l & 1))
            return 0;
    }
    return 1;
}
