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
 * Simplifications: constants folded, a node made once for equal operands
 * (F F f is F f, G G f is G f), literals that contradict each other drop
 * their transition, and a transition is dropped when another one to the
 * same state asks no more literals and fulfils at least its untils.
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

static uint32_t mk(tab_t *tb, int op, uint32_t a, uint32_t b)
{
    if (op == L_AND || op == L_OR) {
        uint32_t unit = op == L_AND ? L_TRUE : L_FALSE;
        uint32_t zero = op == L_AND ? L_FALSE : L_TRUE;
        if (a == zero || b == zero)
            return zero;
        if (a == unit || a == b)
            return b;
        if (b == unit)
            return a;
        if (a > b) { /* commutative: one order */
            uint32_t s = a;
            a = b;
            b = s;
        }
    } else if (op == L_X && (a == L_TRUE || a == L_FALSE)) {
        return a;
    } else if (op == L_U || op == L_R) {
        /* f U true, f R true: true; f U false, f R false: false;
         * false U g, true R g: g; F F g = F g, G G g = G g */
        if (b == L_TRUE || b == L_FALSE)
            return b;
        if (a == (op == L_U ? L_FALSE : L_TRUE))
            return b;
        if (tb->node[b].op == op && tb->node[b].a == a &&
            (a == L_TRUE || a == L_FALSE))
            return b;
    }
    for (size_t i = 0; i < tb->n; i++)
        if (tb->node[i].op == op && tb->node[i].a == a && tb->node[i].b == b)
            return (uint32_t)i;
    if (grow((void **)&tb->node, &tb->cap, tb->n + 1, sizeof *tb->node)) {
        tb->oom = 1;
        return L_FALSE;
    }
    tb->node[tb->n] = (lnode_t){op, a, b};
    return (uint32_t)tb->n++;
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
        mk(tb, L_LIT, (uint32_t)k, 1);
    }
    return mk(tb, L_LIT, (uint32_t)k, (uint32_t)neg);
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
        uint32_t other = mk(tb, L_LIT, nd.a, !nd.b);
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

pn_status_t pni_buchi_new(const pn_qformula_t *f, int negate,
                          pni_buchi_t **out)
{
    *out = NULL;
    tab_t tb = {0};
    /* the constants first: L_TRUE and L_FALSE are nodes 0 and 1 */
    mk(&tb, L_TRUE, 0, 0);
    mk(&tb, L_FALSE, 0, 0);
    uint32_t root = nnf(&tb, f, negate, 0);
    pni_buchi_t *b = calloc(1, sizeof *b);
    tb.mark = malloc((tb.n + 1) * sizeof *tb.mark);
    pn_status_t st = tb.oom || !b || !tb.mark ? PN_ENOMEM : PN_OK;
    for (size_t i = 0; !st && i < tb.n; i++) {
        tb.mark[i] = tb.node[i].op == L_U ? (int)tb.nmarks++ : -1;
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
    b->natoms = tb.natoms;
    b->all = tb.nmarks == 64 ? UINT64_MAX : ((uint64_t)1 << tb.nmarks) - 1;
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
