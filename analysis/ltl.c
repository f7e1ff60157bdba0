/*
 * LTL over the explored graph: the product of the graph with the Büchi
 * automaton of the negated formula (buchi.c), built as it is searched,
 * and Couvreur's check for a strongly connected component whose
 * transitions carry every acceptance mark, stopped at the first.  Such a
 * component is a path that violates the formula; its lasso (a path to
 * the component and a cycle through every mark) is the counterexample.
 *
 * Two sources of the net's markings: the graph of a complete exploration
 * (pni_ltl_holds()), or the net itself, on the fly (pni_ltl_fly()): a
 * marking's successors are computed the first time the product reaches
 * it (successors.c, stored in a search record of its own, store.c) and
 * kept, so that only the part of the state space the product visits
 * before its answer is built.  Under interleaving a marking's enabled
 * transitions are listed then, and each is fired the first time the
 * product follows its edge: a stubborn set (below) stores only the
 * markings its transitions reach.
 *
 * The order in which the search follows a product state's successors (a
 * heuristic towards acceptance, the sets the automaton guides) is
 * ltlorder.c's; ltl_private.h holds what the two files share.
 *
 * Paths are infinite: a dead marking is repeated for ever (its only
 * successor is itself), so X f there is f there.  This is the Model
 * Checking Contest's convention for LTL: every LTL answer of its oracle
 * agrees with it (tests/mcc-small.sh, make check-mcc).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"
#include "ltl_private.h"

/* The successors product state p of marking s follows. */
static uint64_t nsucc(const prod_t *c, uint32_t p, uint32_t s)
{
    if (pni_ltl_is_dead(c, s))
        return 1; /* a dead marking: itself */
    if (c->g)
        return !c->por         ? c->g->s_cnt[s]
               : c->how[p] == 1 ? c->red[s]
               : c->how[p] == 3 ? c->red2[s]
                                : c->g->s_cnt[s];
    return c->r->graph.succ_off[s + 1] - c->r->graph.succ_off[s];
}

/* ---- the markings on the fly ------------------------------------------ */

/* The per-marking arrays grown to the markings stored. */
static int fly_fit(pni_fly_t *g)
{
    size_t n = g->r->store.nstates;
    if (n <= g->n)
        return 0;
    size_t cap = g->n ? g->n : 1024;
    while (cap < n)
        cap *= 2;
    uint64_t *off = realloc(g->s_off, cap * sizeof *off);
    if (off)
        g->s_off = off;
    uint32_t *cnt = off ? realloc(g->s_cnt, cap * sizeof *cnt) : NULL;
    if (cnt)
        g->s_cnt = cnt;
    uint32_t *fired = cnt ? realloc(g->s_fired, cap * sizeof *fired) : NULL;
    if (!fired)
        return -1;
    g->s_fired = fired;
    memset(cnt + g->n, 0xff, (cap - g->n) * sizeof *cnt);
    g->n = cap;
    return 0;
}

/* The values grown to the markings stored. */
static int values_fit(prod_t *c)
{
    size_t na = c->b->natoms;
    if (c->g->n <= c->n)
        return 0;
    unsigned char *v = realloc(c->values, c->g->n * na + 1);
    if (!v)
        return -1;
    memset(v + c->n * na, 2, (c->g->n - c->n) * na + 1);
    c->values = v;
    if (c->por) {
        uint32_t *red = realloc(c->red, c->g->n * sizeof *red);
        if (red)
            c->red = red;
        uint32_t *red2 = red ? realloc(c->red2, c->g->n * sizeof *red2)
                             : NULL;
        if (!red2)
            return -1;
        c->red2 = red2;
        memset(red + c->n, 0xff, (c->g->n - c->n) * sizeof *red);
        memset(red2 + c->n, 0xff, (c->g->n - c->n) * sizeof *red2);
    }
    c->n = c->g->n;
    return 0;
}

typedef struct {
    prod_t *c;
    uint32_t from;
    uint64_t first;         /* where from's successors start in edge */
} visit_t;

/* A maximal step's successor: stored, and added to from's edges when it
 * is not among them yet (distinct successor markings). */
static int on_successor(pn_reach_t *r, const uint32_t *set, size_t n,
                        const uint64_t *next, void *ctx)
{
    visit_t *x = ctx;
    pni_fly_t *g = x->c->g;
    uint32_t to;
    int added;
    (void)set;
    (void)n;
    pn_status_t st = pni_store_find_or_add(r, next, x->from, NULL, 0, &to,
                                           &added);
    if (st) {
        x->c->err = st == PN_ENOMEM ? PN_ENOMEM : PN_ERANGE;
        return 1;
    }
    if (!added)
        for (size_t k = x->first; k < g->nedge; k++)
            if (g->edge[k] == to)
                return 0;
    if (pni_grow((void **)&g->edge, &g->cap_edge, g->nedge + 1,
                 sizeof *g->edge)) {
        x->c->err = PN_ENOMEM;
        return 1;
    }
    g->edge[g->nedge++] = to;
    return 0;
}

/* Under interleaving: the successor by the transition of edge x->first,
 * stored, its target set. */
static int on_fired(pn_reach_t *r, const uint32_t *set, size_t n,
                    const uint64_t *next, void *ctx)
{
    visit_t *x = ctx;
    int added;
    (void)n; /* differs from the marking fired in set[0]'s places */
    pn_status_t st = pni_store_find_or_add(
        r, next, x->from, r->gen.chg_idx + r->gen.chg_off[set[0]],
        r->gen.chg_off[set[0] + 1] - r->gen.chg_off[set[0]],
        &x->c->g->edge[x->first], &added);
    if (st) {
        x->c->err = st == PN_ENOMEM ? PN_ENOMEM : PN_ERANGE;
        return 1;
    }
    return 0;
}

/* Under interleaving: marking s's edges, one per enabled transition,
 * none fired yet.  Nonzero out of memory. */
static int enabled_edges(pni_fly_t *g, uint32_t s)
{
    pn_reach_t *r = g->r;
    uint64_t first = g->nedge;
    pni_store_marking(r, s, r->gen.m);
    for (uint32_t t = 0; t < r->nt; t++) {
        if (!pni_engine_enabled(r->engine, r->gen.m, t))
            continue;
        if (pni_grow((void **)&g->edge, &g->cap_edge, g->nedge + 1,
                     sizeof *g->edge) ||
            pni_grow((void **)&g->etr, &g->cap_etr, g->nedge + 1,
                     sizeof *g->etr))
            return -1;
        g->etr[g->nedge] = t;
        g->edge[g->nedge++] = UINT32_MAX;
    }
    g->s_off[s] = first;
    g->s_cnt[s] = (uint32_t)(g->nedge - first);
    g->s_fired[s] = 0;
    return 0;
}

/* The tables grown to the markings stored, within the memory limit:
 * nonzero (and c->err) when they cannot be. */
static int fit(prod_t *c)
{
    pni_fly_t *g = c->g;
    if (fly_fit(g) || values_fit(c)) {
        if (!c->err)
            c->err = PN_ENOMEM;
        return 1;
    }
    /* the memory limit counts the product's tables too */
    uint64_t extra = (uint64_t)c->cap * (sizeof *c->key + 1 + sizeof *c->stk +
                                         sizeof *c->roots + 4) +
                     c->nslots * 4 + g->cap_edge * 4 + g->cap_etr * 4 +
                     g->n * (16 + c->b->natoms + (c->por ? 8 : 0)) +
                     c->cap_ord * sizeof *c->ord +
                     c->cap_sc * sizeof *c->sc +
                     c->cap_pairs * sizeof *c->pairs;
    if (pni_over_memory(g->r, extra)) {
        c->err = PN_ERANGE;
        return 1;
    }
    return 0;
}

/* Under interleaving: the transitions of marking s's edges js[0..k) (js
 * NULL: its first k) fired (those not fired yet), their successors
 * stored: nonzero (and c->err) when they cannot be. */
int pni_ltl_fire(prod_t *c, uint32_t s, const uint32_t *js, uint32_t k)
{
    pni_fly_t *g = c->g;
    if (!g || g->r->sem != PN_SEM_INTERLEAVING ||
        g->s_fired[s] == g->s_cnt[s])
        return 0;
    pn_reach_t *r = g->r;
    int loaded = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint64_t e = g->s_off[s] + (js ? js[i] : i);
        if (g->edge[e] != UINT32_MAX)
            continue;
        if (!loaded)
            pni_store_marking(r, s, r->gen.m);
        loaded = 1;
        visit_t x = {c, s, e};
        int ret = pni_successor_by(r, r->gen.m, g->etr[e], on_fired, &x);
        if (ret) {
            if (ret < 0) /* a count past PN_TOKENS_MAX */
                c->err = PN_ERANGE;
            else if (!c->err)
                c->err = PN_ENOMEM;
            g->edge[e] = UINT32_MAX;
            return 1;
        }
        g->s_fired[s]++;
    }
    return loaded && fit(c);
}

/* On the fly: marking s's successors computed when they are not yet, and
 * the values grown to every marking: nonzero (and c->err) when they
 * cannot be. */
static int expand(prod_t *c, uint32_t s)
{
    pni_fly_t *g = c->g;
    if (!g || (g->s_cnt[s] != UINT32_MAX && s < c->n))
        return 0;
    pn_reach_t *r = g->r;
    int ret = 0;
    if (g->s_cnt[s] == UINT32_MAX && r->sem == PN_SEM_INTERLEAVING) {
        /* the transitions fired when the product needs them
         * (pni_ltl_fire()) */
        ret = enabled_edges(g, s);
    } else if (g->s_cnt[s] == UINT32_MAX) {
        visit_t x = {c, s, g->nedge};
        pni_store_marking(r, s, r->gen.m);
        ret = pni_successors(r, r->gen.m, on_successor, &x);
        if (ret < 0) /* a count past PN_TOKENS_MAX */
            c->err = PN_ERANGE;
        if (!ret && !fly_fit(g)) {
            g->s_off[s] = x.first;
            g->s_cnt[s] = (uint32_t)(g->nedge - x.first);
            g->s_fired[s] = g->s_cnt[s];
        } else if (!ret) {
            ret = 1;
        }
    }
    if (ret) {
        if (!c->err)
            c->err = PN_ENOMEM;
        return 1;
    }
    return fit(c);
}

static size_t hash(uint64_t k, size_t mask)
{
    k ^= k >> 31;
    k *= UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(k >> 17) & mask;
}

/* The product state of key k: its number, or UINT32_MAX when it is not
 * there (and add is 0). */
uint32_t pni_ltl_find(prod_t *c, uint64_t k, int add)
{
    if (add && (c->np + 1) * 2 > c->nslots) {
        size_t ns = c->nslots ? c->nslots * 2 : 1024;
        uint32_t *sl = malloc(ns * sizeof *sl);
        if (!sl || c->np >= STATES_MAX) {
            free(sl);
            c->oom = 1;
            return UINT32_MAX;
        }
        memset(sl, 0xff, ns * sizeof *sl);
        for (size_t i = 0; i < c->np; i++) {
            size_t h = hash(c->key[i], ns - 1);
            while (sl[h] != UINT32_MAX)
                h = (h + 1) & (ns - 1);
            sl[h] = (uint32_t)i;
        }
        free(c->slot);
        c->slot = sl;
        c->nslots = ns;
    }
    if (!c->nslots)
        return UINT32_MAX;
    size_t h = hash(k, c->nslots - 1);
    for (; c->slot[h] != UINT32_MAX; h = (h + 1) & (c->nslots - 1))
        if (c->key[c->slot[h]] == k)
            return c->slot[h];
    if (!add)
        return UINT32_MAX;
    if (c->np == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        uint64_t *key = realloc(c->key, cap * sizeof *key);
        if (key)
            c->key = key;
        unsigned char *d = key ? realloc(c->dead, cap) : NULL;
        if (d)
            c->dead = d;
        frame_t *st = d ? realloc(c->stk, cap * sizeof *st) : NULL;
        if (st)
            c->stk = st;
        root_t *ro = st ? realloc(c->roots, cap * sizeof *ro) : NULL;
        if (ro)
            c->roots = ro;
        uint32_t *li = ro ? realloc(c->live, cap * sizeof *li) : NULL;
        if (li)
            c->live = li;
        unsigned char *hw = li ? realloc(c->how, cap) : NULL;
        if (!hw) {
            c->oom = 1;
            return UINT32_MAX;
        }
        c->how = hw;
        c->cap = cap;
    }
    c->key[c->np] = k;
    c->dead[c->np] = 0;
    c->how[c->np] = 0;
    c->slot[h] = (uint32_t)c->np;
    return (uint32_t)c->np++;
}

/* ---- stubborn sets ---------------------------------------------------- */

/* Marking s's stubborn set for the formula (stubborn.c): its edges moved
 * to the front of s's list, in order, and their number into red[s]; with
 * all_visible, the set with every visible transition joined to it, its
 * edges next, the number of both into red2[s] (a union of such sets is
 * one).  Nonzero out of memory. */
static int reduce(prod_t *c, uint32_t s, int all_visible)
{
    pni_fly_t *g = c->g;
    uint32_t *cnt = all_visible ? c->red2 : c->red;
    if (cnt[s] != UINT32_MAX)
        return 0;
    uint32_t n = g->s_cnt[s], from = all_visible ? c->red[s] : 0;
    uint64_t off = g->s_off[s];
    if (pni_grow((void **)&c->tmp, &c->cap_tmp, 3 * (size_t)n + 1,
                 sizeof *c->tmp))
        return -1;
    uint32_t *en = c->tmp, *rt = en + n, *re = rt + n;
    memcpy(en, g->etr + off, n * sizeof *en);
    pni_store_marking(g->r, s, g->r->gen.m);
    size_t k = pni_por_ltl_filter(c->por, g->r->gen.m, en, n, all_visible);
    if (k == n) {
        cnt[s] = n;
        return 0;
    }
    /* en keeps the edges' order: a stable partition of those after from */
    size_t a = from, b = 0, ki = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t t = g->etr[off + j], d = g->edge[off + j];
        int in = ki < k && en[ki] == t;
        ki += in;
        if (j < from)
            continue;
        if (in) {
            g->etr[off + a] = t;
            g->edge[off + a++] = d;
        } else {
            rt[b] = t;
            re[b++] = d;
        }
    }
    memcpy(g->etr + off + a, rt, b * sizeof *rt);
    memcpy(g->edge + off + a, re, b * sizeof *re);
    cnt[s] = (uint32_t)a;
    return 0;
}

/* Whether one of the first n successors of product state p's marking s
 * through automaton state q is live (found, its component still open). */
static int leads_to_live(prod_t *c, uint32_t s, uint32_t q, uint32_t n)
{
    pni_fly_t *g = c->g;
    const pni_buchi_t *b = c->b;
    const unsigned char *v = pni_ltl_values_at(c, s);
    for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
        if (!pni_buchi_label(b, &b->t[i], v))
            continue;
        for (uint32_t j = 0; j < n; j++) {
            uint64_t k = (uint64_t)g->edge[g->s_off[s] + j] << 32 |
                         b->t[i].dst;
            uint32_t w = pni_ltl_find(c, k, 0);
            if (w != UINT32_MAX && !c->dead[w])
                return 1;
        }
    }
    return 0;
}

/* What product state p (marking s, automaton state q), expanded now,
 * fires: s's stubborn set (how[p] 1), that set with every visible
 * transition joined (3), or every successor (2).
 *
 * The cycle proviso (L): p fires a set with every visible transition
 * when one of the product states its stubborn set leads to is live (in a
 * component still open, which every state on the search stack is).
 * Then every cycle C of the product as searched holds such a state.  A
 * state's edges are fixed when it is first expanded, before any of them
 * is followed, so the search is a depth-first search of a fixed graph.
 * Let v be the state of C pushed first: when it is, the other states of
 * C are not yet found, and each is pushed and expanded while v is on the
 * stack (the white path theorem).  So is v's predecessor u on C (u = v
 * for a loop): when u is expanded v is live, and had u fired its
 * stubborn set alone, v among its successors would have made it join
 * every visible transition.
 *
 * With L and D1, D2, V and I (stubborn.c), an accepting cycle of the full
 * product has one in the reduced product: every path of the net has a
 * stutter-equivalent one that the reduced search follows (Valmari's
 * theorem for LTL without next; Peled's, "Combining partial order
 * reductions with on-the-fly model-checking", 1994, for the product
 * searched depth first with the proviso on its stack, as verifypn's
 * StubbornTarjanModelChecker does with Tarjan's live states and
 * generateAll()), and the automaton of a formula without next accepts a
 * word if and only if it accepts every stutter-equivalent one.  The
 * other way holds anyway: the reduced product is part of the full one.
 * A dead marking (repeated for ever) is one whose set fires nothing
 * (D2's key is enabled), and no path outside a set reaches one (the key
 * stays enabled), so the finite maximal paths are kept with the infinite
 * ones. */
static void decide(prod_t *c, uint32_t p, uint32_t s, uint32_t q)
{
    uint32_t n = c->g->s_cnt[s];
    c->how[p] = 2;
    if (reduce(c, s, 0)) {
        c->err = PN_ENOMEM;
        return;
    }
    if (c->red[s] >= n)
        return;
    if (pni_ltl_fire(c, s, NULL, c->red[s]))
        return;
    if (leads_to_live(c, s, q, c->red[s])) {
        if (reduce(c, s, 1)) {
            c->err = PN_ENOMEM;
            return;
        }
        if (c->red2[s] >= n)
            return;
        c->how[p] = 3;
    } else {
        c->how[p] = 1;
    }
    c->reduced++;
}

/* The next edge out of f's state (target key *k, marks *acc): 0 when
 * there is none left. */
static int next_edge(prod_t *c, frame_t *f, uint64_t *k, uint64_t *acc)
{
    uint32_t s = (uint32_t)(c->key[f->p] >> 32);
    uint32_t q = (uint32_t)c->key[f->p];
    const pni_buchi_t *b = c->b;
    if (expand(c, s))
        return 0;
    if (c->por && !c->how[f->p] && !pni_ltl_is_dead(c, s)) {
        decide(c, f->p, s, q);
        if (c->err)
            return 0;
    }
    /* a frame's first call: the order of its edges chosen (each edge's
     * transition is fired when the search first follows it) */
    if (f->ord == ORD_NONE) {
        f->ord = ORD_NATURAL;
        if (!pni_ltl_is_dead(c, s) &&
            !(c->aut && pni_ltl_aut_order(c, f, s, q)))
            pni_ltl_order(c, f, s, q, NULL, nsucc(c, f->p, s));
        if (c->err)
            return 0;
    }
    uint32_t d;
    if (f->ord < ORD_NATURAL) {
        if (f->ei >= f->nsel)
            return 0;
        opair_t x = c->ord[f->ord + f->ei++];
        const pni_btrans_t *t = &b->t[b->t_off[q] + x.ti];
        if ((d = pni_ltl_target(c, s, x.j)) == UINT32_MAX && c->err)
            return 0;
        *k = (uint64_t)d << 32 | t->dst;
        *acc = t->acc;
        return 1;
    }
    uint32_t end = b->t_off[q + 1] - b->t_off[q];
    while (f->ti < end) {
        const pni_btrans_t *t = &b->t[b->t_off[q] + f->ti];
        if (f->ei < nsucc(c, f->p, s) &&
            (f->ei || pni_buchi_label(b, t, pni_ltl_values_at(c, s)))) {
            if ((d = pni_ltl_target(c, s, f->ei++)) == UINT32_MAX && c->err)
                return 0;
            *k = (uint64_t)d << 32 | t->dst;
            *acc = t->acc;
            return 1;
        }
        f->ti++;
        f->ei = 0;
    }
    return 0;
}

static void push(prod_t *c, uint32_t p, uint64_t in)
{
    c->stk[c->ns++] = (frame_t){p, 0, 0, ORD_NONE, 0};
    c->roots[c->nr++] = (root_t){p, 0, in};
    c->live[c->nl++] = p;
}

/* The automaton states that accept every word: a self-loop that asks no
 * literal and carries every mark.  A product state that reaches one is a
 * counterexample whatever follows, since every marking has an infinite
 * path (a dead one repeats for ever): the search stops there, as
 * verifypn's Tarjan search stops at an accepting state with an invariant
 * self-loop (TarjanModelChecker::push, has_invariant_self_loop).  NULL
 * when none does, or out of memory (then the search goes on to a cycle,
 * as before). */
static unsigned char *universal_states(const pni_buchi_t *b)
{
    unsigned char *u = NULL;
    for (uint32_t q = 0; q < b->nstates; q++)
        for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
            const pni_btrans_t *t = &b->t[i];
            if (t->dst != q || t->nlits || (t->acc & b->all) != b->all)
                continue;
            if (!u && !(u = calloc(b->nstates, 1)))
                return NULL;
            u[q] = 1;
        }
    return u;
}

/* Whether the search stops at product state p: its automaton state
 * accepts every word. */
static int at_universal(prod_t *c, uint32_t p)
{
    if (!c->univ || c->no_univ || !c->univ[(uint32_t)c->key[p]])
        return 0;
    return c->univ_hit = 1;
}

/* Couvreur's search from the initial product state: 1 when an accepting
 * component is found (the stack leads to it, the top root its first
 * state) or a state whose automaton state accepts every word (c->univ_hit;
 * the stack leads to it, a lasso not yet found: called again with
 * c->no_univ, the search goes on from there to one), 0 when there is
 * none, -1 out of memory, -2 past the deadline or a limit (-1 and -2 also
 * when c->err says so). */
static int search(prod_t *c)
{
    if (!c->np) {
        uint32_t p0 = pni_ltl_find(c, 0, 1);
        if (c->oom)
            return -1;
        push(c, p0, 0);
        if (at_universal(c, p0))
            return 1;
    }
    while (c->ns) {
        /* the clock every 64 steps: one step may expand a marking with
         * thousands of successors */
        if (c->deadline > 0 && (++c->ticks & 63) == 0 &&
            pni_clock() > c->deadline)
            return -2;
        frame_t *f = &c->stk[c->ns - 1];
        uint64_t k, acc;
        if (next_edge(c, f, &k, &acc)) {
            uint32_t w = pni_ltl_find(c, k, 0);
            if (w == UINT32_MAX) {
                if ((w = pni_ltl_find(c, k, 1)) == UINT32_MAX)
                    return -1;
                push(c, w, acc);
                if (at_universal(c, w))
                    return 1;
            } else if (!c->dead[w]) {
                /* a cycle: merge the components down to w's */
                uint64_t m = acc;
                while (c->roots[c->nr - 1].p > w) {
                    m |= c->roots[c->nr - 1].acc | c->roots[c->nr - 1].in;
                    c->nr--;
                }
                c->roots[c->nr - 1].acc |= m;
                if ((c->roots[c->nr - 1].acc & c->b->all) == c->b->all)
                    return 1;
            }
            continue;
        }
        if (c->err)
            return c->err == PN_ENOMEM ? -1 : -2;
        uint32_t p = f->p;
        if (f->ord < ORD_NATURAL)
            c->nord = f->ord;
        c->ns--;
        if (c->roots[c->nr - 1].p == p) {
            c->nr--;
            while (c->nl && c->live[c->nl - 1] >= p)
                c->dead[c->live[--c->nl]] = 1;
        }
    }
    return 0;
}

/* ---- the lasso -------------------------------------------------------- */

typedef struct {
    uint32_t *v;
    size_t n, cap;
} path_t;

static int append(path_t *pa, uint32_t s)
{
    if (pa->n == pa->cap) {
        size_t cap = pa->cap ? pa->cap * 2 : 64;
        uint32_t *v = realloc(pa->v, cap * sizeof *v);
        if (!v)
            return -1;
        pa->v = v;
        pa->cap = cap;
    }
    pa->v[pa->n++] = s;
    return 0;
}

/* Breadth first from product state from, through the component of the
 * states numbered root and above that are not dead, to the first edge
 * with one of the marks m (m 0: the first edge into target): the states
 * after from up to that edge's end appended to pa, its marks returned
 * (UINT64_MAX when out of memory or none is found). */
static uint64_t bfs(prod_t *c, uint32_t from, uint64_t m, uint32_t target,
                    uint32_t root, path_t *pa)
{
    uint32_t *par = malloc(c->np * sizeof *par);
    uint32_t *q = malloc(c->np * sizeof *q);
    uint64_t found = UINT64_MAX;
    uint32_t x = 0, y = 0;
    if (!par || !q)
        goto out;
    memset(par, 0xff, c->np * sizeof *par);
    size_t qt = 0;
    q[qt++] = from;
    par[from] = from;
    for (size_t qh = 0; qh < qt && found == UINT64_MAX; qh++) {
        frame_t f = {q[qh], 0, 0, ORD_NATURAL, 0};
        uint64_t k, acc;
        while (next_edge(c, &f, &k, &acc)) {
            /* (an edge not fired: not followed by the search) */
            uint32_t w =
                k >> 32 == UINT32_MAX ? UINT32_MAX : pni_ltl_find(c, k, 0);
            if (w == UINT32_MAX || w < root || c->dead[w])
                continue;
            if (m ? (acc & m) != 0 : w == target) {
                x = q[qh];
                y = w;
                found = acc;
                break;
            }
            if (par[w] == UINT32_MAX) {
                par[w] = q[qh];
                q[qt++] = w;
            }
        }
    }
    if (found != UINT64_MAX) {
        /* from .. x, backwards into q, then forwards */
        size_t len = 0;
        for (uint32_t s = x; s != from; s = par[s])
            q[len++] = s;
        while (len)
            if (append(pa, q[--len]))
                found = UINT64_MAX;
        if (append(pa, y))
            found = UINT64_MAX;
    }
out:
    free(par);
    free(q);
    return found;
}

/* The lasso of the accepting component search() found: the stack's
 * states to its root, then a cycle through every mark back to it, as
 * graph states; a dead marking ends it. */
static pn_status_t lasso_of(prod_t *c, uint32_t **out, size_t *len,
                            size_t *loop)
{
    uint32_t root = c->roots[c->nr - 1].p;
    path_t pa = {0};
    pn_status_t st = PN_OK;
    size_t i = 0;
    c->tracing = 1;
    for (; i < c->ns && c->stk[i].p != root; i++)
        if (append(&pa, c->stk[i].p))
            st = PN_ENOMEM;
    if (!st && append(&pa, root))
        st = PN_ENOMEM;
    size_t at = pa.n - 1;
    uint64_t m = c->b->all;
    uint32_t cur = root;
    while (!st && m) {
        uint64_t got = bfs(c, cur, m, 0, root, &pa);
        if (got == UINT64_MAX)
            st = PN_ENOMEM; /* (the component has every mark) */
        m &= ~got;
        cur = pa.v[pa.n - 1];
    }
    if (!st && (cur != root || pa.n == at + 1) &&
        bfs(c, cur, 0, root, root, &pa) == UINT64_MAX)
        st = PN_ENOMEM;
    if (st) {
        free(pa.v);
        return st;
    }
    /* product states to graph states, cut at the first dead marking */
    size_t n = 0;
    for (size_t k = 0; k < pa.n; k++) {
        uint32_t s = (uint32_t)(c->key[pa.v[k]] >> 32);
        pa.v[n++] = s;
        if (pni_ltl_is_dead(c, s)) {
            at = n - 1;
            break;
        }
    }
    *out = pa.v;
    *len = n;
    *loop = at;
    return PN_OK;
}

int pni_ltl_formula(const pn_qformula_t *f)
{
    if (f->kind >= PN_QF_EX && f->kind <= PN_QF_AU)
        return 0;
    if (f->kind >= PN_QF_X &&
        (f->kind > PN_QF_R ||
         f->nkids != (f->kind >= PN_QF_U ? 2u : 1u)))
        return 0;
    for (size_t i = 0; i < f->nkids; i++)
        if (!pni_ltl_formula(f->kids[i]))
            return 0;
    return 1;
}

/* The product's tables freed. */
static void run_free(prod_t *c)
{
    free(c->values);
    free(c->key);
    free(c->slot);
    free(c->dead);
    free(c->stk);
    free(c->roots);
    free(c->live);
    free(c->red);
    free(c->red2);
    free(c->how);
    free(c->tmp);
    free(c->univ);
    free(c->heur);
    free(c->tw);
    free(c->ord);
    free(c->sc);
    free(c->pairs);
    free(c->sel);
}

/* The product c searched: *value, and when one is found and lasso is not
 * NULL, the lasso (*lasso NULL when the search stopped at a state that
 * accepts every word and found no cycle from there before the deadline:
 * the answer stands, with no lasso); c's tables freed. */
static pn_status_t run(prod_t *c, int *value, uint32_t **lasso, size_t *len,
                       size_t *loop)
{
    pn_status_t st = PN_OK;
    c->univ = universal_states(c->b);
    pni_ltl_heuristic_init(c);
    int found = search(c);
    if (found < 0)
        st = found == -2 ? PN_ERANGE : PN_ENOMEM;
    else
        *value = !found;
    if (found > 0 && lasso && c->univ_hit) {
        /* any cycle on from there is accepting */
        c->no_univ = 1;
        found = search(c);
    }
    if (found > 0 && lasso)
        st = lasso_of(c, lasso, len, loop);
    run_free(c);
    return st;
}

pn_status_t pni_ltl_holds(pn_reach_t *r, const pn_qformula_t *f,
                          double deadline, int *value, uint32_t **lasso,
                          size_t *len, size_t *loop)
{
    if (lasso)
        *lasso = NULL;
    if (!pni_ltl_formula(f) || r->found.end != PN_REACH_COMPLETE ||
        !r->graph.keep_graph || !r->store.nstates)
        return PN_EINVAL;
    pni_buchi_t *b;
    pn_status_t st = pni_buchi_new(f, 1, &b);
    if (st)
        return st;
    prod_t c = {0};
    c.r = r;
    c.b = b;
    c.n = r->store.nstates;
    c.deadline = deadline;
    c.values = malloc(c.n * b->natoms + 1);
    if (!c.values) {
        pni_buchi_free(b);
        return PN_ENOMEM;
    }
    memset(c.values, 2, c.n * b->natoms + 1);
    st = run(&c, value, lasso, len, loop);
    pni_buchi_free(b);
    return st;
}

/* The search's hook that stops it at the initial marking: the record is
 * then a store and a successor generator, set up for the net. */
static int stop_at_first(pn_reach_t *r, uint32_t s, const uint64_t *m,
                         void *ctx)
{
    (void)r;
    (void)s;
    (void)m;
    (void)ctx;
    return 1;
}

pn_status_t pni_fly_new(const pn_net_t *net, const pn_reach_options_t *o,
                        pni_fly_t **out)
{
    *out = NULL;
    pni_fly_t *g = calloc(1, sizeof *g);
    if (!g)
        return PN_ENOMEM;
    pn_reach_options_t oc;
    pni_fly_options(o, &oc);
    pn_status_t st = pni_search(net, &oc, stop_at_first, NULL, &g->r);
    if (!st && g->r->found.end != PN_REACH_DECIDED)
        st = PN_ERANGE; /* no room for the initial marking */
    if (!st && fly_fit(g))
        st = PN_ENOMEM;
    if (!st)
        g->r->store.eager = 1;
    /* the stubborn sets of LTL without next: interleaving only (out of
     * memory: every successor) */
    if (!st && o && o->stubborn && g->r->sem == PN_SEM_INTERLEAVING &&
        !g->r->sym)
        g->por = pni_por_ltl_new(g->r, net);
    /* the heuristic's distances (out of memory: none, the listed order) */
    if (!st && !(g->hm = calloc(pn_net_place_count(net) + 1,
                                sizeof *g->hm)))
        st = PN_ENOMEM;
    if (!st && pni_dist_init(&g->dist, net, g->r->engine))
        g->dist.in = NULL;
    if (st) {
        pni_fly_free(g);
        return st;
    }
    *out = g;
    return PN_OK;
}

void pni_fly_free(pni_fly_t *g)
{
    if (!g)
        return;
    pn_reach_free(g->r);
    pni_por_free(g->por);
    pni_dist_free(&g->dist);
    free(g->hm);
    free(g->etr);
    free(g->s_fired);
    free(g->s_off);
    free(g->s_cnt);
    free(g->edge);
    free(g);
}

pn_status_t pni_ltl_fly(pni_fly_t *g, const pn_qformula_t *f,
                        double deadline, int *value, pn_reach_path_t **path,
                        size_t *loop)
{
    if (path)
        *path = NULL;
    if (!g || !f || !value || !pni_ltl_formula(f))
        return PN_EINVAL;
    g->states = 0;
    g->reduced = 0;
    pni_buchi_t *b;
    pn_status_t st = pni_buchi_new(f, 1, &b);
    if (st)
        return st;
    prod_t c = {0};
    c.r = g->r;
    c.b = b;
    c.g = g;
    c.deadline = deadline;
    pni_por_t *por = g->plain ? NULL : g->por;
    if (por && !g->aut_always && !pni_por_ltl_formula(por, f))
        c.por = por;
    if (por && !c.por)
        c.aut = pni_por_aut_new(por, b);
    uint32_t *chain = NULL;
    size_t len = 0, at = 0;
    st = run(&c, value, path ? &chain : NULL, &len, &at);
    g->states = c.np;
    g->reduced = c.reduced;
    pni_por_aut_free(c.aut);
    if (!st && path && !*value && chain) {
        st = pni_path_of(g->r, chain, len, path);
        *loop = at;
    }
    free(chain);
    pni_buchi_free(b);
    return st;
}

void pni_fly_aut_always(pni_fly_t *g, int on)
{
    g->aut_always = on;
}

void pni_fly_plain(pni_fly_t *g, int on)
{
    g->plain = on;
}

void pni_fly_last(const pni_fly_t *g, size_t *states, uint64_t *reduced)
{
    *states = g->states;
    *reduced = g->reduced;
}

const pn_reach_t *pni_fly_store(const pni_fly_t *g)
{
    return g->r;
}

/* ---- counterexamples kept with a result ------------------------------- */

pn_status_t pni_ltl_keep(pn_reach_t *r, const pn_qformula_t *f,
                         pn_reach_path_t *path, size_t loop)
{
    pni_lasso_t *l = realloc(r->lassos, (r->nlassos + 1) * sizeof *l);
    if (!l) {
        pn_reach_path_free(path);
        return PN_ENOMEM;
    }
    r->lassos = l;
    l[r->nlassos++] = (pni_lasso_t){f, path, loop};
    return PN_OK;
}

void pni_ltl_lassos_free(pn_reach_t *r)
{
    for (size_t i = 0; i < r->nlassos; i++)
        pn_reach_path_free(r->lassos[i].path);
    free(r->lassos);
    r->lassos = NULL;
    r->nlassos = 0;
}

static pn_status_t path_copy(const pn_reach_path_t *p, pn_reach_path_t **out)
{
    pn_reach_path_t *c = calloc(1, sizeof *c);
    if (!c)
        return PN_ENOMEM;
    c->steps = calloc(p->nsteps + 1, sizeof *c->steps);
    c->n_in_step = calloc(p->nsteps + 1, sizeof *c->n_in_step);
    if (!c->steps || !c->n_in_step) {
        pn_reach_path_free(c);
        return PN_ENOMEM;
    }
    for (; c->nsteps < p->nsteps; c->nsteps++) {
        size_t n = p->n_in_step[c->nsteps];
        c->steps[c->nsteps] = malloc((n + 1) * sizeof **c->steps);
        if (!c->steps[c->nsteps]) {
            pn_reach_path_free(c);
            return PN_ENOMEM;
        }
        memcpy(c->steps[c->nsteps], p->steps[c->nsteps],
               n * sizeof **c->steps);
        c->n_in_step[c->nsteps] = n;
    }
    *out = c;
    return PN_OK;
}

pn_status_t pni_kept_path(const pn_reach_t *r, const pn_qformula_t *f,
                          pn_reach_path_t **out, size_t *loop)
{
    for (size_t i = 0; i < r->nlassos; i++)
        if (r->lassos[i].f == f || pn_qformula_equal(r->lassos[i].f, f)) {
            *loop = r->lassos[i].loop;
            return path_copy(r->lassos[i].path, out);
        }
    return PN_EINVAL;
}

pn_status_t pn_reach_lasso(const pn_reach_t *rc, const pn_qformula_t *f,
                           pn_reach_path_t **out, size_t *loop)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    if (!r || !f || !out || !loop)
        return PN_EINVAL;
    *out = NULL;
    /* the one the search on the fly found, when it answered f */
    pn_status_t st = pni_kept_path(r, f, out, loop);
    if (st != PN_EINVAL)
        return st;
    int value;
    uint32_t *lasso;
    size_t len, at;
    st = pni_ltl_holds(r, f, 0, &value, &lasso, &len, &at);
    if (st)
        return st;
    if (value)
        return PN_EINVAL;
    if (!lasso) /* (a complete graph closes a cycle: never so) */
        return PN_ERANGE;
    st = pni_path_of(r, lasso, len, out);
    free(lasso);
    *loop = at;
    return st;
}
