/*
 * Stubborn sets (partial-order reduction, interleaving only): the search
 * fires at each marking only the enabled transitions of a stubborn set,
 * one that keeps every answer of the queries still open.
 *
 * The set St(m) of a marking m satisfies two conditions (Valmari's D1,
 * and the condition R of Bønneland, Jensen, Larsen, Muñiz and Srba,
 * "Stubborn versus structural reductions for Petri nets", 2019):
 *   W  for every sequence w of transitions outside St(m) and every t in
 *      St(m): m -w t-> m' implies m -t w-> m' (t commutes to the front);
 *   R  for every open query, every path from m to a marking that decides
 *      it (EF f: f holds; AG f: f fails; a bound: its sum passes the
 *      largest value found) fires some transition of St(m).
 * Why the reduced search finds what the full one finds: take a marking m
 * the reduced search expands, and a shortest path w from m to a marking g
 * that decides an open query.  By R, w fires a transition of St(m); let
 * t be the first, w = u t v.  By W, m -t u v-> g: t is enabled at m, the
 * reduced search stores m' = m.t, and from m' a path of |w| - 1 steps
 * leads to g itself.  By induction on |w|, the reduced search stores g.
 * The length of the path shrinks at each step, so no cycle can make the
 * search ignore g: these questions need no cycle proviso (the classic
 * "ignoring problem" belongs to stubborn sets that only keep the
 * formula's transitions visible; R names the transitions that lead to the
 * goal at each marking instead).  The induction holds with any number of
 * queries (R for each open one: a query decided later drops out, its
 * seeds no longer needed) and with a bound whose largest value found
 * grows (the goal only shrinks).  Deadlocks are the goal of EF deadlock:
 * every dead marking reachable stays reachable (g itself is stored).
 *
 * St(m) is the closure of seeds (R, below) under two rules (W).  A
 * transition u "can lower" place p when firing it may leave fewer tokens
 * there (a normal arc in heavier than out, or a reset arc), "can raise" p
 * when it may leave more (out heavier than in; a reset with an arc out);
 * t "needs p high" when it has a normal arc in or a read arc from p, "needs
 * p low" with an inhibitor arc from p or an arc out to p when p has a
 * capacity (enabled() of the engine: the count after firing within it).
 *   Disabled t in St: a reason it is disabled at m that only the set's
 *   transitions can take away: a normal or read arc from p short of
 *   tokens (add every transition that can raise p), an inhibitor arc or
 *   a full capacity place p (add every transition that can lower p).
 *   While the reason holds t stays disabled, so no w outside St enables
 *   it: m -w t-> never happens.  The reason with the fewest transitions
 *   not yet in the set is taken; a disabled t with no reason found (not
 *   expected) stops the reduction: every enabled transition is fired.
 *   Enabled t in St: every u that t may disable or not commute with: t
 *   can lower p and u needs p high; t can raise p and u needs p low (an
 *   inhibitor, a capacity); one of them resets p and the other changes p
 *   (a reset and an addition do not commute; two additions do).  Read
 *   arcs change nothing and inhibitor arcs only disable.  Proof of W: let
 *   w = u1 .. un outside St, m_i = m.u1..ui, and t enabled at m and m_n.
 *   Without resets t adds a fixed vector D: each u(i+1), enabled at m_i,
 *   is enabled at m_i + D (every place it needs high t does not lower,
 *   every place it needs low t does not raise), and reaches m_(i+1) + D
 *   (no u resets a place t changes); so m -t w-> m_n + D = m_n.t = m'.
 *   With a reset of p in t, no u changes p (they would be in St), so
 *   every m_i holds m(p) there and t leaves post(t, p) in it whenever it
 *   fires; every u that needs p high or low is in St (a reset can lower,
 *   and with an arc out raise); the same steps hold.  Whether u may
 *   disable t does not matter: t is enabled at m_n, which W assumes
 *   (Valmari's rule adds those too, for his key transition; R needs no
 *   key transition).
 * Seeds for a query whose goal g fails at m (every path to g fires a
 * seed, because some transition must change what makes g fail):
 *   e1 < e2, e1 <= e2: a transition that can lower e1 - e2 (the first
 *   step that makes it true lowers it); >, >=: one that can raise it;
 *   ==: lower when e1 > e2 now, else raise (the first step that crosses
 *   the gap's sign moves it that way); !=: either.  A transition's effect
 *   on e1 - e2 is the sum of its arcs' (out - in) over the places, each
 *   counted as often as e1 names it less as often as e2 does; a reset on a
 *   counted place may do either.
 *   fireable(ts) false: for each t of ts, its disabled rule's reason;
 *   !fireable(ts) false: the transitions that can disable one enabled t
 *   of ts (lower a place it needs high, raise one it needs low);
 *   deadlock false: those of one enabled transition, the one with the
 *   fewest; !deadlock false: m is dead, nothing to fire;
 *   a conjunction: the seeds of one false member; a disjunction: of each;
 *   a bound: the transitions that can raise its sum.
 * Maximal steps are not reduced (nothing here proves that a set of
 * maximal steps keeps their deadlocks or answers).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"

/* What transition t does to place p (its arcs there merged). */
typedef struct {
    uint32_t p;
    unsigned char f;   /* F_* below */
    uint64_t pre, post; /* normal arcs in and out, weights added */
    uint64_t rd;       /* the heaviest read arc (0: none) */
    uint64_t ih;       /* the lightest inhibitor arc (UINT64_MAX: none) */
    uint64_t cap;      /* the place's capacity (0: none) */
    int reset;
} tarc_t;

enum { F_HIGH = 1, F_LOW = 2, F_RAISE = 4, F_LOWER = 8, F_RESET = 16 };
/* the transitions of each place that need it high, low, can raise it,
 * can lower it, reset it */
enum { L_HIGH, L_LOW, L_RAISE, L_LOWER, L_RESET, L_N };

typedef struct {
    uint32_t *t;
    size_t n;
} tlist_t;

/* A query's formula, mirrored with what each comparison's sides can do. */
typedef struct pnode {
    const pn_qformula_t *f;
    struct pnode *kids;
    size_t nkids;
    tlist_t up, down;  /* comparison: can raise, lower lhs - rhs */
} pnode_t;

struct pni_por {
    uint32_t np, nt;
    uint32_t *ta_off;  /* t's arcs: ta[ta_off[t] .. ta_off[t + 1]) */
    tarc_t *ta;
    uint32_t *pl_off[L_N], *pl_t[L_N];
    uint64_t *ndis;    /* transitions that can disable t (with repeats) */
    const pn_query_set_t *qs;
    const pn_query_answer_t *ans;
    pnode_t *roots;    /* per query (a bound: its sum's up list); the
                          set outlives the queries: freeing reads none */
    size_t nq;
    uint32_t *mark, gen;
    uint32_t *stack;
    size_t ns, nen_in, ne;
    unsigned char *en;
    unsigned char *vis; /* LTL: the transitions that can change an atom */
    const uint32_t *en_list;
    uint64_t reduced;  /* markings where the set left an enabled one out */
    pnode_t *atoms;    /* the automaton's atoms (sets it guides) */
    size_t natoms;
};

static void free_node(pnode_t *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nkids; i++)
        free_node(&n->kids[i]);
    free(n->kids);
    free(n->up.t);
    free(n->down.t);
}

void pni_por_free(pni_por_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->roots && i < s->nq; i++)
        free_node(&s->roots[i]);
    free(s->roots);
    for (size_t i = 0; i < s->natoms; i++)
        free_node(&s->atoms[i]);
    free(s->atoms);
    free(s->ta_off);
    free(s->ta);
    for (int k = 0; k < L_N; k++) {
        free(s->pl_off[k]);
        free(s->pl_t[k]);
    }
    free(s->ndis);
    free(s->mark);
    free(s->stack);
    free(s->en);
    free(s->vis);
    free(s);
}

/* t's arcs, merged per place (ta, ta_off). */
static int merge_arcs(pni_por_t *s, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    uint32_t *cnt = calloc(s->nt + 1, sizeof *cnt);
    uint32_t *byt = malloc((na + 1) * sizeof *byt);
    uint32_t *slot = malloc((s->np + 1) * sizeof *slot);
    s->ta_off = calloc(s->nt + 1, sizeof *s->ta_off);
    s->ta = malloc((na + 1) * sizeof *s->ta);
    int ok = cnt && byt && slot && s->ta_off && s->ta;
    for (size_t a = 0; ok && a < na; a++)
        cnt[pn_net_arc(net, a)->transition]++;
    for (uint32_t t = 0, sum = 0; ok && t < s->nt; t++) {
        uint32_t c = cnt[t];
        cnt[t] = sum; /* where t's arcs start in byt */
        sum += c;
    }
    for (size_t a = 0; ok && a < na; a++)
        byt[cnt[pn_net_arc(net, a)->transition]++] = (uint32_t)a;
    for (uint32_t p = 0; ok && p < s->np; p++)
        slot[p] = UINT32_MAX;
    uint32_t n = 0;
    for (uint32_t t = 0, a0 = 0; ok && t < s->nt; t++) {
        s->ta_off[t] = n;
        for (uint32_t k = a0; k < cnt[t]; k++) {
            const pn_arc_t *arc = pn_net_arc(net, byt[k]);
            uint32_t p = (uint32_t)arc->place;
            if (slot[p] == UINT32_MAX || slot[p] < s->ta_off[t]) {
                slot[p] = n;
                tarc_t *x = &s->ta[n++];
                memset(x, 0, sizeof *x);
                x->p = p;
                x->ih = UINT64_MAX;
                x->cap = pn_net_place(net, p)->capacity;
            }
            tarc_t *x = &s->ta[slot[p]];
            if (arc->kind == PN_ARC_NORMAL && arc->dir == PN_DIR_PT)
                x->pre += arc->weight;
            else if (arc->kind == PN_ARC_NORMAL)
                x->post += arc->weight;
            else if (arc->kind == PN_ARC_READ && arc->weight > x->rd)
                x->rd = arc->weight;
            else if (arc->kind == PN_ARC_INHIBITOR && arc->weight < x->ih)
                x->ih = arc->weight;
            else if (arc->kind == PN_ARC_RESET)
                x->reset = 1;
        }
        a0 = cnt[t];
    }
    if (ok)
        s->ta_off[s->nt] = n;
    free(cnt);
    free(byt);
    free(slot);
    return ok ? 0 : -1;
}

/* The flags of each merged arc, and the lists of each place. */
static int place_lists(pni_por_t *s)
{
    uint32_t n = s->ta_off[s->nt];
    for (uint32_t j = 0; j < n; j++) {
        tarc_t *x = &s->ta[j];
        x->f = (unsigned char)(
            (x->pre || x->rd ? F_HIGH : 0) |
            (x->ih != UINT64_MAX || (x->cap && x->post) ? F_LOW : 0) |
            ((x->reset ? x->post > 0 : x->post > x->pre) ? F_RAISE : 0) |
            (x->reset || x->pre > x->post ? F_LOWER : 0) |
            (x->reset ? F_RESET : 0));
    }
    for (int k = 0; k < L_N; k++) {
        uint32_t *off = calloc(s->np + 2, sizeof *off);
        uint32_t *lt = malloc((n + 1) * sizeof *lt);
        s->pl_off[k] = off;
        s->pl_t[k] = lt;
        if (!off || !lt)
            return -1;
        for (uint32_t j = 0; j < n; j++)
            if (s->ta[j].f & (1u << k))
                off[s->ta[j].p + 2]++;
        for (uint32_t p = 0; p < s->np; p++)
            off[p + 2] += off[p + 1];
        for (uint32_t t = 0; t < s->nt; t++)
            for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1]; j++)
                if (s->ta[j].f & (1u << k))
                    lt[off[s->ta[j].p + 1]++] = t;
    }
    for (uint32_t t = 0; t < s->nt; t++)
        for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1]; j++) {
            uint32_t p = s->ta[j].p;
            if (s->ta[j].f & F_HIGH)
                s->ndis[t] += s->pl_off[L_LOWER][p + 1] -
                              s->pl_off[L_LOWER][p];
            if (s->ta[j].f & F_LOW)
                s->ndis[t] += s->pl_off[L_RAISE][p + 1] -
                              s->pl_off[L_RAISE][p];
        }
    return 0;
}

/* The transitions that can raise (up) and lower (down) lhs - rhs (rhs:
 * NULL for a bound's sum); c: np zeroed scratch, left zeroed. */
static int sum_lists(const pni_por_t *s, const pn_qsum_t *lhs,
                     const pn_qsum_t *rhs, int64_t *c, tlist_t *up,
                     tlist_t *down)
{
    for (size_t i = 0; i < lhs->nplaces; i++)
        c[lhs->places[i]]++;
    for (size_t i = 0; rhs && i < rhs->nplaces; i++)
        c[rhs->places[i]]--;
    up->t = malloc((s->nt + 1) * sizeof *up->t);
    down->t = malloc((s->nt + 1) * sizeof *down->t);
    for (uint32_t t = 0; up->t && down->t && t < s->nt; t++) {
        __int128 d = 0;
        int either = 0;
        for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1]; j++) {
            const tarc_t *x = &s->ta[j];
            if (!c[x->p])
                continue;
            if (x->reset)
                either = 1;
            d += (__int128)c[x->p] * ((__int128)x->post - (__int128)x->pre);
        }
        if (either || d > 0)
            up->t[up->n++] = t;
        if (either || d < 0)
            down->t[down->n++] = t;
    }
    for (size_t i = 0; i < lhs->nplaces; i++)
        c[lhs->places[i]] = 0;
    for (size_t i = 0; rhs && i < rhs->nplaces; i++)
        c[rhs->places[i]] = 0;
    return up->t && down->t ? 0 : -1;
}

static int build_node(const pni_por_t *s, const pn_qformula_t *f,
                      int64_t *c, pnode_t *n)
{
    n->f = f;
    if (f->kind == PN_QF_CMP)
        return sum_lists(s, &f->lhs, &f->rhs, c, &n->up, &n->down);
    if (!f->nkids)
        return 0;
    if (!(n->kids = calloc(f->nkids, sizeof *n->kids)))
        return -1;
    n->nkids = f->nkids;
    for (size_t i = 0; i < f->nkids; i++)
        if (build_node(s, f->kids[i], c, &n->kids[i]))
            return -1;
    return 0;
}

/* The tables of net's arcs, room for nq queries; NULL out of memory. */
static pni_por_t *por_base(const pn_reach_t *r, const pn_net_t *net,
                           size_t nq)
{
    pni_por_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->np = r->np;
    s->nt = r->nt;
    s->ndis = calloc(s->nt + 1, sizeof *s->ndis);
    s->mark = calloc(s->nt + 1, sizeof *s->mark);
    s->stack = malloc((s->nt + 1) * sizeof *s->stack);
    s->en = calloc(s->nt + 1, 1);
    s->vis = calloc(s->nt + 1, 1);
    s->roots = calloc(nq + 1, sizeof *s->roots);
    s->nq = nq;
    if (!s->ndis || !s->mark || !s->stack || !s->en || !s->vis ||
        !s->roots || merge_arcs(s, net) || place_lists(s)) {
        pni_por_free(s);
        return NULL;
    }
    return s;
}

pni_por_t *pni_por_new(const pn_reach_t *r, const pn_net_t *net,
                       const pn_query_set_t *qs,
                       const pn_query_answer_t *ans)
{
    /* no query: the search is the state space itself */
    if (!qs->n)
        return NULL;
    for (size_t i = 0; i < qs->n; i++)
        if (qs->q[i].kind == PN_QUERY_CTL || qs->q[i].kind == PN_QUERY_LTL)
            return NULL; /* paths, not markings: the full graph */
    pni_por_t *s = por_base(r, net, qs->n);
    if (!s)
        return NULL;
    s->qs = qs;
    s->ans = ans;
    int64_t *c = calloc(s->np + 1, sizeof *c);
    int bad = !c;
    for (size_t i = 0; !bad && i < qs->n; i++) {
        const pn_query_t *q = &qs->q[i];
        if (q->kind == PN_QUERY_BOUND) {
            s->roots[i].f = NULL;
            bad = sum_lists(s, &q->bound, NULL, c, &s->roots[i].up,
                            &s->roots[i].down);
        } else {
            bad = build_node(s, q->formula, c, &s->roots[i]);
        }
    }
    free(c);
    if (bad) {
        pni_por_free(s);
        return NULL;
    }
    return s;
}

/* ---- the set at a marking ------------------------------------------------
 */

static inline void add(pni_por_t *s, uint32_t t)
{
    if (s->mark[t] == s->gen)
        return;
    s->mark[t] = s->gen;
    s->stack[s->ns++] = t;
    s->nen_in += s->en[t];
}

static void add_list(pni_por_t *s, int k, uint32_t p)
{
    for (uint32_t j = s->pl_off[k][p]; j < s->pl_off[k][p + 1]; j++)
        add(s, s->pl_t[k][j]);
}

static void add_list_of(pni_por_t *s, const tlist_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        add(s, l->t[i]);
}

/* Every u that enabled t can disable or fails to commute with (the rule
 * above). */
static void add_dependents(pni_por_t *s, uint32_t t)
{
    for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1]; j++) {
        unsigned f = s->ta[j].f;
        uint32_t p = s->ta[j].p;
        if (f & F_LOWER)
            add_list(s, L_HIGH, p);
        if (f & F_RAISE)
            add_list(s, L_LOW, p);
        if (f & F_RESET) {
            add_list(s, L_RAISE, p);
            add_list(s, L_LOWER, p);
        }
        if (f & (F_RAISE | F_LOWER))
            add_list(s, L_RESET, p);
    }
}

/* The transitions that can disable enabled t. */
static void add_disablers(pni_por_t *s, uint32_t t)
{
    for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1]; j++) {
        if (s->ta[j].f & F_HIGH)
            add_list(s, L_LOWER, s->ta[j].p);
        if (s->ta[j].f & F_LOW)
            add_list(s, L_RAISE, s->ta[j].p);
    }
}

/* A reason disabled t stays disabled at m: adds the transitions that can
 * take it away (the one with the fewest new).  -1 when none is found. */
static int add_enablers(pni_por_t *s, const uint64_t *m, uint32_t t)
{
    int best = -1;
    uint32_t bp = 0;
    size_t bn = SIZE_MAX;
    for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1] && bn; j++) {
        const tarc_t *x = &s->ta[j];
        uint64_t v = m[x->p];
        int k = -1;
        if (v < x->pre || v < x->rd)
            k = L_RAISE;
        else if (v >= x->ih ||
                 (x->cap && x->post && v - x->pre + x->post > x->cap))
            k = L_LOWER;
        if (k < 0)
            continue;
        size_t n = 0;
        for (uint32_t i = s->pl_off[k][x->p];
             i < s->pl_off[k][x->p + 1] && n < bn; i++)
            n += s->mark[s->pl_t[k][i]] != s->gen;
        if (n < bn) {
            bn = n;
            best = k;
            bp = x->p;
        }
    }
    if (best >= 0)
        add_list(s, best, bp);
    return best;
}

/* The enabled transition of items (all of them: NULL) that the fewest
 * transitions can disable; UINT32_MAX when none is enabled. */
static uint32_t key_transition(const pni_por_t *s,
                               const pn_qformula_t *items)
{
    uint32_t best = UINT32_MAX;
    if (!items) {
        for (size_t k = 0; k < s->ne; k++) {
            uint32_t t = s->en_list[k];
            if (best == UINT32_MAX || s->ndis[t] < s->ndis[best])
                best = t;
        }
        return best;
    }
    for (size_t i = 0; i < items->nitems; i++) {
        uint32_t t = (uint32_t)items->items[i];
        if (s->en[t] && (best == UINT32_MAX || s->ndis[t] < s->ndis[best]))
            best = t;
    }
    return best;
}

static unsigned __int128 sum_at(const pn_qsum_t *e, const uint64_t *m)
{
    unsigned __int128 v = e->constant;
    for (size_t i = 0; i < e->nplaces; i++)
        v += m[e->places[i]];
    return v;
}

/* The seeds of goal f (neg: !f), false at m: every path from m to where
 * it holds fires one of them.  Returns 0, or 1 when it cannot tell (every
 * enabled transition is then fired). */
static int seed(pni_por_t *s, const pn_reach_t *r, const pnode_t *n,
                int neg, const uint64_t *m)
{
    const pn_qformula_t *f = n->f;
    switch (f->kind) {
    case PN_QF_TRUE:
    case PN_QF_FALSE:
        return 0; /* false at m and everywhere: nothing leads there */
    case PN_QF_NOT:
        return seed(s, r, &n->kids[0], !neg, m);
    case PN_QF_AND:
    case PN_QF_OR:
        if ((f->kind == PN_QF_OR) != neg) {
            /* a disjunction of goals, each false: seeds of each */
            for (size_t i = 0; i < f->nkids; i++)
                if (seed(s, r, &n->kids[i], neg, m))
                    return 1;
            return 0;
        }
        /* a conjunction: one false member's */
        for (size_t i = 0; i < f->nkids; i++)
            if (pni_formula_holds(r->engine, r->nt, f->kids[i], m) == neg)
                return seed(s, r, &n->kids[i], neg, m);
        return 1;
    case PN_QF_CMP: {
        unsigned __int128 a = sum_at(&f->lhs, m), b = sum_at(&f->rhs, m);
        pn_qcmp_t op = f->op;
        if (neg)
            op = op == PN_QCMP_LT   ? PN_QCMP_GE
                 : op == PN_QCMP_LE ? PN_QCMP_GT
                 : op == PN_QCMP_EQ ? PN_QCMP_NE
                 : op == PN_QCMP_NE ? PN_QCMP_EQ
                 : op == PN_QCMP_GE ? PN_QCMP_LT
                                    : PN_QCMP_LE;
        int down = op == PN_QCMP_LT || op == PN_QCMP_LE ||
                   op == PN_QCMP_NE || (op == PN_QCMP_EQ && a > b);
        int up = op == PN_QCMP_GT || op == PN_QCMP_GE ||
                 op == PN_QCMP_NE || (op == PN_QCMP_EQ && a < b);
        if (down)
            add_list_of(s, &n->down);
        if (up)
            add_list_of(s, &n->up);
        return 0;
    }
    case PN_QF_FIREABLE:
        if (neg) {
            uint32_t t = key_transition(s, f);
            if (t == UINT32_MAX)
                return 1;
            add_disablers(s, t);
            return 0;
        }
        for (size_t i = 0; i < f->nitems; i++)
            if (add_enablers(s, m, (uint32_t)f->items[i]) < 0)
                return 1;
        return 0;
    case PN_QF_DEADLOCK:
        if (!neg) {
            uint32_t t = key_transition(s, NULL);
            if (t != UINT32_MAX)
                add_disablers(s, t);
        }
        return 0;
    default:
        return 1;
    }
}

/* The seeds of every open query. */
static int seeds(pni_por_t *s, const pn_reach_t *r, const uint64_t *m)
{
    for (size_t i = 0; i < s->qs->n; i++) {
        const pn_query_t *q = &s->qs->q[i];
        if (s->ans[i].known)
            continue;
        if (q->kind == PN_QUERY_BOUND)
            add_list_of(s, &s->roots[i].up);
        else if (q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL ||
                 seed(s, r, &s->roots[i], q->kind == PN_QUERY_AG, m))
            return 1;
    }
    return 0;
}

/* A new set, empty, at a marking whose enabled transitions are en[0..ne). */
static void set_begin(pni_por_t *s, const uint32_t *en, size_t ne)
{
    if (++s->gen == 0) {
        memset(s->mark, 0, s->nt * sizeof *s->mark);
        s->gen = 1;
    }
    for (size_t k = 0; k < ne; k++)
        s->en[en[k]] = 1;
    s->ns = s->nen_in = 0;
    s->ne = ne;
    s->en_list = en;
}

/* The set's enabled transitions kept in en[0..ne), in order, their number
 * returned: ne when full (every one is fired) or the set holds them all. */
static size_t set_end(pni_por_t *s, uint32_t *en, size_t ne, int full)
{
    for (size_t k = 0; k < ne; k++)
        s->en[en[k]] = 0;
    if (full || s->nen_in >= ne)
        return ne;
    size_t k2 = 0;
    for (size_t k = 0; k < ne; k++)
        if (s->mark[en[k]] == s->gen)
            en[k2++] = en[k];
    s->reduced++;
    return k2;
}

size_t pni_por_filter(pni_por_t *s, const pn_reach_t *r, const uint64_t *m,
                      uint32_t *en, size_t ne)
{
    if (ne <= 1)
        return ne;
    set_begin(s, en, ne);
    int full = seeds(s, r, m);
    while (!full && s->ns && s->nen_in < ne) {
        uint32_t t = s->stack[--s->ns];
        if (s->en[t])
            add_dependents(s, t);
        else if (add_enablers(s, m, t) < 0)
            full = 1;
    }
    return set_end(s, en, ne, full);
}

/* ---- sets that keep LTL without next -------------------------------------
 *
 * The LTL product on the fly (ltl.c) fires at a marking m a set St(m)
 * with Valmari's conditions for LTL without next ("A stubborn attack on
 * state explosion", 1990; Peled's ample sets C0-C3 in another form),
 * as verifypn's LTL engine (src/LTL/Stubborn/LTLStubbornSet.cpp: a key
 * transition, its rule V', a closure when a cycle closes):
 *   D1  every t of St(m) commutes to the front of a sequence w outside
 *       St(m) (W above: the same closure, dependents of an enabled t,
 *       a reason of a disabled one);
 *   D2  St(m) holds an enabled key transition that no sequence outside
 *       St(m) disables (every transition that can disable it is added):
 *       so no path outside St(m) ends in a dead marking, and no infinite
 *       path outside St(m) leaves the key out for ever unless it could
 *       be fired first (m is dead only when St(m) fires nothing);
 *   V'  St(m) holds no enabled visible transition, one that can change
 *       the value of an atom of the formula (a compared sum that it moves;
 *       fireable(t): it changes a place t needs high or low, so it may
 *       enable or disable t); else every enabled transition is fired.
 *       Or V itself, where the search asks for it (all_visible): St(m)
 *       holds every visible transition, closed under D1 as the rest;
 *   I   the key is invisible (an invisible key whenever one is
 *       enabled): a marking whose enabled transitions are all visible is
 *       fully expanded;
 *   L   every cycle of the reduced product holds, for every visible
 *       transition, a state whose set holds it: the cycle proviso, kept
 *       by the search (ltl.c) with all_visible.
 * A formula with deadlock (every transition may make a marking dead) or
 * next (stuttering changes its value) is not reduced.
 */

/* The transitions that can change the value of f's atoms into s->vis: 0,
 * or -1 when f has next, a deadlock atom or a state formula not known
 * here (then no reduction), or out of memory. */
static int visible(pni_por_t *s, const pn_qformula_t *f, int64_t *c)
{
    switch (f->kind) {
    case PN_QF_TRUE:
    case PN_QF_FALSE:
        return 0;
    case PN_QF_CMP: {
        tlist_t up = {0}, down = {0};
        int bad = sum_lists(s, &f->lhs, &f->rhs, c, &up, &down);
        for (size_t i = 0; !bad && i < up.n; i++)
            s->vis[up.t[i]] = 1;
        for (size_t i = 0; !bad && i < down.n; i++)
            s->vis[down.t[i]] = 1;
        free(up.t);
        free(down.t);
        return bad ? -1 : 0;
    }
    case PN_QF_FIREABLE:
        for (size_t i = 0; i < f->nitems; i++) {
            uint32_t t = (uint32_t)f->items[i];
            for (uint32_t j = s->ta_off[t]; j < s->ta_off[t + 1]; j++) {
                if (!(s->ta[j].f & (F_HIGH | F_LOW)))
                    continue;
                for (int k = L_RAISE; k <= L_LOWER; k++)
                    for (uint32_t x = s->pl_off[k][s->ta[j].p];
                         x < s->pl_off[k][s->ta[j].p + 1]; x++)
                        s->vis[s->pl_t[k][x]] = 1;
            }
        }
        return 0;
    case PN_QF_NOT:
    case PN_QF_AND:
    case PN_QF_OR:
    case PN_QF_F:
    case PN_QF_G:
    case PN_QF_U:
    case PN_QF_R:
        for (size_t i = 0; i < f->nkids; i++)
            if (visible(s, f->kids[i], c))
                return -1;
        return 0;
    default:
        return -1;
    }
}

pni_por_t *pni_por_ltl_new(const pn_reach_t *r, const pn_net_t *net)
{
    return por_base(r, net, 0);
}

int pni_por_ltl_formula(pni_por_t *s, const pn_qformula_t *f)
{
    memset(s->vis, 0, s->nt);
    int64_t *c = calloc(s->np + 1, sizeof *c);
    int ret = c ? visible(s, f, c) : -1;
    free(c);
    return ret;
}

size_t pni_por_ltl_filter(pni_por_t *s, const uint64_t *m, uint32_t *en,
                          size_t ne, int all_visible)
{
    if (ne <= 1)
        return ne;
    set_begin(s, en, ne);
    /* the key: an invisible enabled transition, the fewest disablers */
    uint32_t key = UINT32_MAX;
    for (size_t k = 0; k < ne; k++)
        if (!s->vis[en[k]] && (key == UINT32_MAX ||
                               s->ndis[en[k]] < s->ndis[key]))
            key = en[k];
    int full = key == UINT32_MAX;
    if (!full) {
        add(s, key);
        add_disablers(s, key);
    }
    /* V instead of V': every visible transition in the set */
    for (uint32_t t = 0; !full && all_visible && t < s->nt; t++)
        if (s->vis[t])
            add(s, t);
    while (!full && s->ns && s->nen_in < ne) {
        uint32_t t = s->stack[--s->ns];
        if (s->en[t] && s->vis[t] && !all_visible)
            full = 1;
        else if (s->en[t])
            add_dependents(s, t);
        else if (add_enablers(s, m, t) < 0)
            full = 1;
    }
    return set_end(s, en, ne, full || s->ns);
}

/* ---- sets the automaton guides ------------------------------------------
 *
 * The LTL product on the fly fires, at a product state (m, q) where the
 * automaton can only stay in q, a set St(m, q) that keeps every way out
 * of q (the reduction driven by the automaton of Jensen, Srba, Ulrik and
 * Virenfeldt, 2022, as verifypn's SafeAutStubbornSet; the argument below
 * is ours, for transition-based marks).  Of q's self-loops, those with
 * the fewest marks A "stay" (their labels' disjunction ret(q)); prog(q)
 * is the disjunction of the labels of q's other transitions (to other
 * states, or self-loops with other marks).  q qualifies when it has a
 * self-loop and ret(q) no deadlock atom; (m, q) is reduced when prog(q)
 * is false at m and ret(q) true.  St(m, q) is closed under W (as above),
 * holds the seeds of prog(q) (R: for each transition of prog, those of
 * one false literal of its label), and no enabled transition that can
 * change an atom of ret(q) (else every enabled transition is fired);
 * when A is every mark it also holds an enabled transition (invisible
 * then, as every enabled one) whose disablers it holds (D2).
 *
 * Why an accepting run of the product from (m, q) has one in the reduced
 * product.  (1) A run that reaches a marking T where prog(q) holds,
 * staying in q on m, m1, .., m(k-1) by transitions t1 .. tk (so ret(q)
 * holds there; take the first such T): the reduced product goes from
 * (m, q) to (T, q) in k steps, each staying (marks A).  Induction on k:
 * at a state fully expanded, follow t1.  Else by R some ti is in St(m, q)
 * (the path reaches prog), the first one; by W it is enabled and
 * m -ti t1 .. t(i-1) t(i+1) .. tk-> T.  The markings the new sequence
 * passes differ from m, .., m(i-1) only by what ti does, which changes
 * the value of no atom of ret(q) (ti is enabled in St), so ret(q) holds:
 * k - 1 steps from m.ti to T, staying.  From (T, q), fully expanded, the
 * run goes on as before.  (2) A run that stays in q for ever and meets
 * prog(q) only finitely often: after the last time it stays with marks
 * A, accepting only when A is every mark.  Then from every state (m, q)
 * the reduced product expands with an infinite path w from m along which
 * ret(q) holds, it has a successor with one: fully expanded, by w's
 * first transition; else if w fires a transition of St(m, q), the first,
 * ti, moves to the front as in (1); else D2's transition t stays enabled
 * along all of w (no transition outside St disables it), so w is not
 * finite (no dead end) and m.t has w shifted by t (W), ret(q) again
 * unchanged.  On a bounded net the reduced product is finite, so that
 * infinite path closes a cycle of marks A (an unbounded one may run into a
 * limit instead: no answer, never a wrong one).  Every segment of an
 * accepting run maps to one of the same length and marks, so the reduced
 * product has an accepting run too, hence an accepting cycle; the reverse
 * holds since it is part of the full product.  Dead markings fit: one
 * where prog(q) fails stays in q for ever, as (2).  Nothing here asks the
 * formula to be without next (each segment keeps its length), and no
 * proviso is needed for cycles: (1) shortens the path at each step, and
 * (2) needs no fairness, any cycle in q accepting. */

static int aut_atoms(pni_por_t *s, const pn_qformula_t *const *atoms,
                     size_t n)
{
    for (size_t i = 0; i < s->natoms; i++)
        free_node(&s->atoms[i]);
    free(s->atoms);
    s->natoms = 0;
    s->atoms = calloc(n + 1, sizeof *s->atoms);
    int64_t *c = calloc(s->np + 1, sizeof *c);
    int bad = !s->atoms || !c;
    for (size_t i = 0; !bad && i < n; i++) {
        s->natoms = i + 1;
        bad = build_node(s, atoms[i], c, &s->atoms[i]);
    }
    free(c);
    return bad ? -1 : 0;
}

/* The transitions that can change the value of f's atoms, added to vis:
 * 0, or -1 (as visible()). */
static int visible_into(pni_por_t *s, const pn_qformula_t *f,
                        unsigned char *vis)
{
    unsigned char *keep = s->vis;
    int64_t *c = calloc(s->np + 1, sizeof *c);
    s->vis = vis;
    int ret = c ? visible(s, f, c) : -1;
    s->vis = keep;
    free(c);
    return ret;
}

/* The closure of the set under W, none enabled in vis: nonzero when an
 * enabled transition of vis joins it (or a disabled one with no reason). */
static int aut_closure(pni_por_t *s, const uint64_t *m,
                       const unsigned char *vis)
{
    while (s->ns && s->nen_in < s->ne) {
        uint32_t t = s->stack[--s->ns];
        if (s->en[t] && vis[t])
            return 1;
        if (s->en[t])
            add_dependents(s, t);
        else if (add_enablers(s, m, t) < 0)
            return 1;
    }
    return 0;
}

/* The transitions of en[0..ne) (enabled at m) that St(m, q) keeps, in
 * order, their number returned (ne: every one): the seeds of lits (each
 * an atom * 2 + 1 when negated, false at m), closed under W, none
 * enabled in vis; with key, an enabled one that no sequence outside the
 * set disables (D2: every transition that can is added): one of the set
 * if it has one, the one with the fewest transitions that can. */
static size_t aut_filter(pni_por_t *s, const pn_reach_t *r,
                         const uint64_t *m, uint32_t *en, size_t ne,
                         const uint32_t *lits, size_t nlits,
                         const unsigned char *vis, int key)
{
    if (!ne)
        return 0;
    set_begin(s, en, ne);
    int full = 0;
    for (size_t i = 0; !full && i < nlits; i++)
        full = lits[i] / 2 >= s->natoms ||
               seed(s, r, &s->atoms[lits[i] / 2], (int)(lits[i] & 1), m);
    full = full || aut_closure(s, m, vis);
    if (!full && key) {
        /* one of the set's enabled transitions, else an invisible one */
        uint32_t k = UINT32_MAX;
        int in = 0;
        for (size_t i = 0; i < ne; i++) {
            uint32_t t = en[i];
            int tin = s->mark[t] == s->gen;
            if (vis[t] || (in && !tin))
                continue;
            if (k == UINT32_MAX || tin > in || s->ndis[t] < s->ndis[k]) {
                k = t;
                in = tin;
            }
        }
        full = k == UINT32_MAX;
        if (!full) {
            add(s, k);
            add_disablers(s, k);
            full = aut_closure(s, m, vis);
        }
    }
    return set_end(s, en, ne, full);
}

struct pni_aut {
    pni_por_t *s;
    const pni_buchi_t *b;
    unsigned char **vis;   /* per automaton state that qualifies: the
                              transitions that can change an atom of its
                              self-loops (NULL: it does not qualify) */
    uint64_t *stay;        /* per state: the marks of the self-loops that
                              stay (every mark: its sets hold a key) */
    uint32_t *lits;        /* room for a literal per transition */
};

void pni_por_aut_free(pni_aut_t *a)
{
    if (!a)
        return;
    /* (the atoms' nodes point into the formula) */
    for (size_t i = 0; i < a->s->natoms; i++)
        free_node(&a->s->atoms[i]);
    free(a->s->atoms);
    a->s->atoms = NULL;
    a->s->natoms = 0;
    for (size_t q = 0; a->vis && q < a->b->nstates; q++)
        free(a->vis[q]);
    free(a->vis);
    free(a->stay);
    free(a->lits);
    free(a);
}

/* The marks of q's self-loops that stay (*acc: the fewest marks of any);
 * the transitions that can change an atom of those self-loops into vis
 * (nt).  Nonzero when q does not qualify (no self-loop, a deadlock atom). */
static int retarding(pni_por_t *s, const pni_buchi_t *b, uint32_t q,
                     unsigned char *vis, uint64_t *acc)
{
    int fewest = 65;
    for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
        uint64_t a = b->t[i].acc & b->all;
        if (b->t[i].dst == q && __builtin_popcountll(a) < fewest) {
            fewest = __builtin_popcountll(a);
            *acc = a;
        }
    }
    if (fewest == 65)
        return 1; /* no self-loop */
    for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
        const pni_btrans_t *t = &b->t[i];
        if (t->dst != q || (t->acc & b->all) != *acc)
            continue;
        for (uint32_t k = 0; k < t->nlits; k++)
            if (visible_into(s, b->atoms[b->lits[t->lit_off + k] / 2], vis))
                return -1;
    }
    return 0;
}

pni_aut_t *pni_por_aut_new(pni_por_t *s, const pni_buchi_t *b)
{
    /* a table of nt bytes per state: none past 256 MiB */
    if ((uint64_t)b->nstates * (s->nt + 1) > (UINT64_C(1) << 28))
        return NULL;
    pni_aut_t *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->s = s;
    a->b = b;
    a->vis = calloc(b->nstates + 1, sizeof *a->vis);
    a->stay = calloc(b->nstates + 1, sizeof *a->stay);
    a->lits = malloc((b->t_off[b->nstates] + 1) * sizeof *a->lits);
    int any = 0;
    if (!a->vis || !a->stay || !a->lits ||
        aut_atoms(s, b->atoms, b->natoms)) {
        pni_por_aut_free(a);
        return NULL;
    }
    for (uint32_t q = 0; q < b->nstates; q++) {
        unsigned char *v = calloc(s->nt + 1, 1);
        if (!v) {
            pni_por_aut_free(a);
            return NULL;
        }
        if (!retarding(s, b, q, v, &a->stay[q])) {
            a->vis[q] = v;
            any = 1;
        } else {
            free(v);
        }
    }
    if (!any) {
        pni_por_aut_free(a);
        return NULL;
    }
    return a;
}

size_t pni_por_aut_set(pni_aut_t *a, const pn_reach_t *r, const uint64_t *m,
                       uint32_t q, const unsigned char *value, uint32_t *en,
                       size_t ne)
{
    const pni_buchi_t *b = a->b;
    if (!a->vis[q] || !ne)
        return ne;
    size_t nl = 0;
    int stay = 0;
    for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
        const pni_btrans_t *t = &b->t[i];
        int ret = t->dst == q && (t->acc & b->all) == a->stay[q];
        if (pni_buchi_label(b, t, value)) {
            if (!ret)
                return ne; /* prog(q) holds: every successor */
            stay = 1;
            continue;
        }
        if (ret)
            continue;
        /* a false literal of the label: every path out passes its seeds */
        for (uint32_t k = 0; k < t->nlits; k++) {
            uint32_t l = b->lits[t->lit_off + k];
            if ((value[l / 2] != 0) == (l & 1)) {
                a->lits[nl++] = l;
                break;
            }
        }
    }
    if (!stay)
        return ne; /* no successor in q: nothing to keep */
    return aut_filter(a->s, r, m, en, ne, a->lits, nl, a->vis[q],
                      a->stay[q] == b->all);
}

uint64_t pn_reach_stubborn(const pn_reach_t *r)
{
    return r && r->por ? r->por->reduced : 0;
}

unsigned pni_search_tech(const pn_reach_t *r)
{
    return PN_TECH_EXPLICIT |
           (r->por && r->por->reduced ? PN_TECH_STUBBORN : 0u);
}
