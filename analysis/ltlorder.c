/*
 * The order in which the LTL product on the fly (ltl.c) follows a product
 * state's successors: towards a transition of the automaton with every
 * mark (a heuristic, as verifypn's AutomatonHeuristic), the states still
 * on the search first at an accepting self-loop, and the orders of the
 * sets the automaton guides (stubborn.c).  It decides which path the
 * depth-first search tries first, not what it finds.  The product's
 * record and frames are ltl_private.h's.
 */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"
#include "ltl_private.h"

/* ---- the heuristic order ---------------------------------------------- */

/* The order of the successors a product state follows first: those whose
 * marking is nearest to a transition of the automaton towards
 * acceptance, as verifypn's AutomatonHeuristic orders them (the distance
 * of the marking to the transition's literals, times the automaton
 * steps from there to a transition with every mark; an automaton state
 * with such a self-loop is left in the listed order).  It decides which
 * path the depth-first search tries first, not what it finds: a
 * counterexample far down the list comes first when the formula's
 * automaton points at it.  Per automaton state and transition (heur,
 * tw); NULL heur when no state is ordered, or out of memory. */
void pni_ltl_heuristic_init(prod_t *c)
{
    const pni_buchi_t *b = c->b;
    size_t nq = b->nstates, ntr = b->t_off[nq];
    uint32_t *bd = malloc((nq + 1) * sizeof *bd);
    c->tw = calloc(ntr + 1, sizeof *c->tw);
    c->heur = calloc(nq + 1, 1);
    if (!bd || !c->tw || !c->heur || !c->g || !c->g->dist.in) {
        free(c->heur);
        c->heur = NULL;
        free(bd);
        return;
    }
    /* bd[q]: the automaton steps from q to a transition with every mark */
    for (size_t q = 0; q < nq; q++) {
        bd[q] = UINT32_MAX;
        for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++)
            if ((b->t[i].acc & b->all) == b->all)
                bd[q] = 1;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t q = 0; q < nq; q++)
            for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
                uint32_t d = b->t[i].dst;
                if (bd[d] != UINT32_MAX && bd[d] + 1 < bd[q]) {
                    bd[q] = bd[d] + 1;
                    changed = 1;
                }
            }
    }
    int any = 0;
    for (uint32_t q = 0; q < nq; q++) {
        int accepting = 0, progressing = 0, guarded = 0;
        for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
            const pni_btrans_t *t = &b->t[i];
            int all = (t->acc & b->all) == b->all;
            if (t->dst == q) {
                accepting |= all;
                /* a self-loop with every mark and a condition */
                guarded |= all && t->nlits;
                continue;
            }
            if (all || bd[t->dst] != UINT32_MAX) {
                c->tw[i] = all ? 1 : bd[t->dst] + 1;
                progressing = 1;
            }
        }
        c->heur[q] = (unsigned char)(progressing && !accepting);
        if (accepting && guarded) {
            /* its order: towards the conditions of those self-loops
             * (G F p's automaton is one state, its self-loop on p
             * accepting, and its cycles need a marking where p holds);
             * a self-loop with every mark and none needs no order */
            int free_loop = 0;
            for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
                const pni_btrans_t *t = &b->t[i];
                int all = (t->acc & b->all) == b->all;
                c->tw[i] = t->dst == q && all;
                free_loop |= t->dst == q && all && !t->nlits;
            }
            c->heur[q] = free_loop ? 0 : 2;
        }
        any |= c->heur[q];
    }
    free(bd);
    if (!any) {
        free(c->heur);
        c->heur = NULL;
    }
}

/* The heuristic's value at marking m for automaton state q: the least,
 * over q's transitions towards acceptance, of its weight times m's
 * distance to its literals. */
static double heuristic(prod_t *c, uint32_t q, const uint64_t *m)
{
    const pni_buchi_t *b = c->b;
    double best = INFINITY;
    for (uint32_t i = b->t_off[q]; i < b->t_off[q + 1]; i++) {
        const pni_btrans_t *t = &b->t[i];
        if (!c->tw[i])
            continue;
        double d = 0;
        for (uint32_t k = 0; k < t->nlits && d < best; k++) {
            uint32_t l = b->lits[t->lit_off + k];
            d += pni_distance(&c->g->dist, b->atoms[l / 2], (int)(l & 1), m);
        }
        d *= (double)c->tw[i];
        if (d < best)
            best = d;
    }
    return best;
}

static int by_score(const void *a, const void *b)
{
    const struct scored *x = a, *y = b;
    return x->s < y->s ? -1 : x->s > y->s ? 1 : x->k < y->k ? -1 : x->k > y->k;
}

/* What the search gains going to automaton state q at marking m: -1 where
 * q accepts every word, 0 where it has no order of its own (a self-loop
 * with every mark), else the heuristic's value. */
static double gain(prod_t *c, uint32_t q, const uint64_t *m)
{
    if (c->univ && c->univ[q])
        return -1;
    return c->heur[q] == 1 ? heuristic(c, q, m) : 0;
}

/* The target of marking s's edge j, its transition fired when it is not
 * yet (not while a lasso is traced: the search followed every edge it
 * needs).  UINT32_MAX when it is not fired (or on an error, c->err). */
uint32_t pni_ltl_target(prod_t *c, uint32_t s, uint32_t j)
{
    uint32_t d = pni_ltl_succ(c, s, j);
    if (d == UINT32_MAX && !c->tracing && !pni_ltl_fire(c, s, &j, 1))
        d = pni_ltl_succ(c, s, j);
    return d;
}

static int on_copy(pn_reach_t *r, const uint32_t *set, size_t n,
                   const uint64_t *next, void *ctx)
{
    (void)set;
    (void)n;
    memcpy(ctx, next, r->np * sizeof *next);
    return 0;
}

typedef struct {
    uint32_t from, to;
} look_t;

static int on_lookup(pn_reach_t *r, const uint32_t *set, size_t n,
                     const uint64_t *next, void *ctx)
{
    look_t *x = ctx;
    (void)n;
    x->to = pni_store_find_child(
        r, next, x->from, r->gen.chg_idx + r->gen.chg_off[set[0]],
        r->gen.chg_off[set[0] + 1] - r->gen.chg_off[set[0]]);
    return 0;
}

/* Marking s's successor by the transition of its edge j (not fired yet),
 * computed and handed to fn with ctx, not stored (*loaded says whether s
 * is in the generator's marking): pni_successor_by()'s value. */
static int unfired(prod_t *c, uint32_t s, uint32_t j, int *loaded,
                   pni_visit_fn fn, void *ctx)
{
    pn_reach_t *r = c->g->r;
    if (!*loaded)
        pni_store_marking(r, s, r->gen.m);
    *loaded = 1;
    return pni_successor_by(r, r->gen.m, c->g->etr[c->g->s_off[s] + j], fn,
                            ctx);
}

/* The number of the marking s's edge j leads to, looked up when its
 * transition is not fired yet (UINT32_MAX: not stored, or past the
 * largest count, for the order only). */
static uint32_t succ_lookup(prod_t *c, uint32_t s, uint32_t j, int *loaded)
{
    look_t x = {s, pni_ltl_succ(c, s, j)};
    if (x.to == UINT32_MAX && unfired(c, s, j, loaded, on_lookup, &x))
        return UINT32_MAX;
    return x.to;
}

/* The marking s's edge j leads to, into out, computed when its transition
 * is not fired yet.  Nonzero (and c->err) on a count past the largest. */
static int succ_marking(prod_t *c, uint32_t s, uint32_t j, uint64_t *out,
                        int *loaded)
{
    uint32_t d = pni_ltl_succ(c, s, j);
    if (d != UINT32_MAX) {
        pni_store_marking(c->g->r, d, out);
        return 0;
    }
    if (unfired(c, s, j, loaded, on_copy, out)) {
        c->err = PN_ERANGE;
        return 1;
    }
    return 0;
}

/* Frame f's order over its marking s's first n edges (js: the edges
 * js[0..n) only, a set the automaton guides): the successors of its
 * product state, each a pair of an automaton transition of q whose
 * literals hold at s and an edge (the markings of edges not fired yet
 * computed, not stored).  Where q has an order of its
 * own, nearest first by the heuristic at the edge's marking for the
 * transition's target (so that a branch of the automaton that is about
 * to accept comes before one that needs a long search).  Where it has a
 * self-loop with every mark (verifypn leaves such a state's successors
 * as listed), those still on the search first: a cycle there is closed
 * before the search dives into new markings, where a large net rarely
 * comes back; then, where that self-loop has a condition (heur 2), the
 * nearest to it.  ORD_NATURAL when neither reorders anything, or when the
 * orders on the stack are too many or there is no room (with js, an order
 * always, or -1 returned). */
int pni_ltl_order(prod_t *c, frame_t *f, uint32_t s, uint32_t q,
                  const uint32_t *js, uint64_t n)
{
    const pni_buchi_t *b = c->b;
    uint32_t t0 = b->t_off[q], nt = b->t_off[q + 1] - t0, ns = 0;
    f->ord = ORD_NATURAL;
    if ((!js && (!c->heur || !n)) ||
        pni_grow((void **)&c->sel, &c->cap_sel, nt + 1, sizeof *c->sel))
        return js ? -1 : 0;
    const unsigned char *v = pni_ltl_values_at(c, s);
    for (uint32_t i = 0; i < nt; i++)
        if (pni_buchi_label(b, &b->t[t0 + i], v))
            c->sel[ns++] = i;
    uint64_t np = (uint64_t)ns * n;
    if ((!js && np < 2) || c->nord + np > (js ? ORD_MAX : ORD_MAX / 2) ||
        pni_grow((void **)&c->ord, &c->cap_ord, c->nord + np + 1,
                 sizeof *c->ord) ||
        pni_grow((void **)&c->sc, &c->cap_sc, np + 1, sizeof *c->sc) ||
        pni_grow((void **)&c->pairs, &c->cap_pairs, np + 1,
                 sizeof *c->pairs))
        return js ? -1 : 0;
    int any = 0, hq = c->heur && c->heur[q] == 1, loaded = 0;
    int ha = c->heur && c->heur[q] == 2;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t e = js ? js[j] : j, d = pni_ltl_succ(c, s, e);
        if ((hq || ha) && succ_marking(c, s, e, c->g->hm, &loaded))
            return js ? -1 : 0;
        if (ha && d == UINT32_MAX) /* (its marking is computed) */
            d = pni_store_find(c->g->r, c->g->hm);
        else if (!hq && c->heur && d == UINT32_MAX)
            d = succ_lookup(c, s, e, &loaded);
        for (uint32_t x = 0; x < ns; x++) {
            uint32_t k = x * (uint32_t)n + j; /* ties: the listed order */
            uint32_t dst = b->t[t0 + c->sel[x]].dst;
            double g = 0;
            if (hq) {
                g = gain(c, dst, c->g->hm);
            } else if (c->heur) {
                /* on the search: first; then (ha) nearest to a
                 * condition of the accepting self-loops */
                uint32_t w = pni_ltl_find(c, (uint64_t)d << 32 | dst, 0);
                g = w != UINT32_MAX && !c->dead[w] ? -1
                    : ha && c->heur[dst] == 2 ? heuristic(c, dst, c->g->hm)
                                              : 0;
            }
            any |= g != 0;
            c->pairs[k] = (opair_t){c->sel[x], e};
            c->sc[k] = (struct scored){g, k};
        }
    }
    if (!any && !hq && !js)
        return 0;
    if (any || hq)
        qsort(c->sc, np, sizeof *c->sc, by_score);
    f->ord = (uint32_t)c->nord;
    f->nsel = (uint32_t)np;
    for (uint64_t k = 0; k < np; k++)
        c->ord[c->nord++] = c->pairs[c->sc[k].k];
    return 0;
}

/* The set the automaton guides at product state p (marking s, automaton
 * state q), when it leaves a successor out: its transitions fired, f's
 * order made of them (how[p] 4).  Returns 1 then (or on an error, in
 * c->err), 0 when every successor is to be followed. */
int pni_ltl_aut_order(prod_t *c, frame_t *f, uint32_t s, uint32_t q)
{
    pni_fly_t *g = c->g;
    uint32_t n = g->s_cnt[s];
    uint64_t off = g->s_off[s];
    if (pni_grow((void **)&c->tmp, &c->cap_tmp, 2 * (size_t)n + 1,
                 sizeof *c->tmp)) {
        c->err = PN_ENOMEM;
        return 1;
    }
    uint32_t *en = c->tmp, *js = en + n;
    memcpy(en, g->etr + off, n * sizeof *en);
    const unsigned char *v = pni_ltl_values_at(c, s);
    pni_store_marking(g->r, s, g->r->gen.m);
    size_t k = pni_por_aut_set(c->aut, g->r, g->r->gen.m, q, v, en, n);
    if (k >= n)
        return 0;
    /* the set's edges (en keeps their order) */
    for (uint32_t j = 0, ki = 0; j < n && ki < k; j++)
        if (g->etr[off + j] == en[ki])
            js[ki++] = j;
    if (pni_ltl_order(c, f, s, q, js, k))
        return 0; /* no room for the order: every successor */
    c->how[f->p] = 4;
    c->reduced++;
    return 1;
}
