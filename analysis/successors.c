/*
 * The successors of a marking under interleaving and maximal-step
 * semantics, with the engine's own firing rule (engine_private.h).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

/* Each successor of m is reported to a visitor with the transitions fired
 * (in a firing order the engine could take) and the marking reached. */

/* Fires set[0..n) from m (each fits when its turn comes): r->gen.next. */
static int step_to(pn_reach_t *r, const uint64_t *m, const uint32_t *set,
                   size_t n)
{
    memcpy(r->gen.next, m, r->np * sizeof *m);
    if (pni_engine_has_capacity(r->engine)) /* pend is only used then */
        memset(r->gen.pend, 0, r->np * sizeof *r->gen.pend);
    for (size_t i = 0; i < n; i++)
        pni_engine_take(r->engine, r->gen.next, r->gen.pend, set[i]);
    for (size_t i = 0; i < n; i++) {
        int over = pni_engine_give(r->engine, r->gen.next, set[i]);
        if (over)
            return over;
    }
    return 0;
}

/* The cut of the search without capacities: a transition left out of the
 * set must not fit the budget at the end of the walk.  Once every
 * transition that competes with it for a place has been decided (at
 * position last[k] of the list), its places keep their final budget: if
 * it fits then, every set below the branch is not maximal.  Computes
 * last[] and the lists cl_* for en[0..ne); r->gen.use is left zeroed. */
static void cut_setup(pn_reach_t *r, size_t ne)
{
    uint32_t *lu = r->gen.use; /* the last position + 1 that uses p */
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = r->gen.en[k];
        for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
            lu[r->gen.ni_idx[j]] = (uint32_t)k + 1;
        for (uint32_t j = r->gen.rs_off[t]; j < r->gen.rs_off[t + 1]; j++)
            lu[r->gen.rs_idx[j]] = (uint32_t)k + 1;
    }
    memset(r->gen.cl_off, 0, (ne + 2) * sizeof *r->gen.cl_off);
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = r->gen.en[k], l = (uint32_t)k + 1;
        for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
            if (lu[r->gen.ni_idx[j]] > l)
                l = lu[r->gen.ni_idx[j]];
        for (uint32_t j = r->gen.rs_off[t]; j < r->gen.rs_off[t + 1]; j++)
            if (lu[r->gen.rs_idx[j]] > l)
                l = lu[r->gen.rs_idx[j]];
        r->gen.last[k] = l - 1;
        r->gen.cl_off[l + 1]++;
    }
    for (size_t i = 0; i < ne; i++)
        r->gen.cl_off[i + 1] += r->gen.cl_off[i];
    for (size_t k = 0; k < ne; k++)
        r->gen.cl_idx[r->gen.cl_off[r->gen.last[k] + 1]++] = (uint32_t)k;
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = r->gen.en[k];
        for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
            lu[r->gen.ni_idx[j]] = 0;
        for (uint32_t j = r->gen.rs_off[t]; j < r->gen.rs_off[t + 1]; j++)
            lu[r->gen.rs_idx[j]] = 0;
    }
}

/* Whether a transition left out before position i (all its competitors
 * decided) fits the final budget: b, with the places the set empties at 0
 * (rz). */
static int cut(const pn_reach_t *r, size_t i, const uint64_t *b)
{
    for (uint32_t c = r->gen.cl_off[i]; c < r->gen.cl_off[i + 1]; c++) {
        uint32_t k = r->gen.cl_idx[c];
        if (!r->gen.skipped[k])
            continue;
        uint32_t t = r->gen.en[k];
        int fits = 1;
        for (uint32_t j = r->gen.ni_off[t]; fits && j < r->gen.ni_off[t + 1];
             j++)
            fits = !r->gen.rz[r->gen.ni_idx[j]] &&
                   b[r->gen.ni_idx[j]] >= r->gen.ni_w[j];
        if (fits)
            return 1;
    }
    return 0;
}

/* Maximal steps: the sets S of enabled transitions that fit m together
 * and leave no other enabled transition room (every conflict order of the
 * engine's walk ends in one, and each is the result of the order that
 * fires S first; without reset arcs the order within S does not matter,
 * with them see maximal_sets_rs()).  Depth-first over the enabled list:
 * include or skip; a transition that competes with no other is always included
 * (it fits whatever the others take).  level: the depth, for the scratch
 * stack. */
static int maximal_sets(pn_reach_t *r, const uint64_t *m, size_t ne,
                        size_t i, size_t nset, const uint64_t *b,
                        const uint64_t *pend, pni_visit_fn fn, void *ctx)
{
    size_t np = r->np;
    if (i == ne) {
        pni_tick(r);
        for (size_t k = 0, j = 0; k < ne; k++) {
            if (j < nset && r->gen.set[j] == r->gen.en[k]) {
                j++;
                continue;
            }
            if (pni_engine_fits(r->engine, b, pend, r->gen.en[k]))
                return 0; /* not maximal: en[k] still fits */
        }
        int over = step_to(r, m, r->gen.set, nset);
        if (over)
            return -over;
        return fn(r, r->gen.set, nset, r->gen.next, ctx);
    }
    if (i > 0 && cut(r, i - 1, b))
        return 0;
    uint32_t t = r->gen.en[i];
    if (pni_engine_fits(r->engine, b, pend, t)) {
        uint64_t *b2 = r->gen.stack + 2 * (i + 1) * np, *p2 = b2 + np;
        memcpy(b2, b, np * sizeof *b);
        memcpy(p2, pend, np * sizeof *pend);
        pni_engine_take(r->engine, b2, p2, t);
        r->gen.set[nset] = t;
        int ret = maximal_sets(r, m, ne, i + 1, nset + 1, b2, p2, fn, ctx);
        if (ret || !r->gen.competes[i])
            return ret;
    }
    r->gen.skipped[i] = 1;
    int ret = maximal_sets(r, m, ne, i + 1, nset, b, pend, fn, ctx);
    r->gen.skipped[i] = 0;
    return ret;
}

/* Maximal steps with reset arcs.  The engine's walk takes a transition's
 * inputs and empties its reset places as it goes, so a set that fits in
 * one order may not fit in another: a transition that takes from p must
 * come before one that empties p (every weight is at least 1), and a
 * cycle of such constraints (t takes from p and empties q, u takes from q
 * and empties p) makes the set impossible.  So the search includes or
 * skips each enabled transition against a budget b of the normal inputs
 * alone (the inputs of the set within m, whatever the order), and at the
 * end of the list orders the set: the transitions that empty no place
 * first, then those that do, each once every other transition of the set
 * that takes from the places it empties has fired (none: the set fits in
 * no order).  Every order that fits leaves the same budget (the places
 * the set empties at 0, the others at b), and the set is maximal when no
 * other enabled transition fits it: one that did would have fitted at its
 * turn too, whatever the order (the budget only shrinks). */
static int rs_fits(const pn_reach_t *r, const uint64_t *b, uint32_t t)
{
    for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
        if (b[r->gen.ni_idx[j]] < r->gen.ni_w[j])
            return 0;
    return 1;
}

/* Orders set[0..n) for the walk into r->gen.order; 0 when no order fits. */
static int rs_order(pn_reach_t *r, size_t n)
{
    size_t k = 0, nr = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = r->gen.set[i];
        if (r->gen.rs_off[t] == r->gen.rs_off[t + 1])
            r->gen.order[k++] = t;
    }
    /* the transitions that empty a place, after the others: ucons[p]
     * counts those of them not yet ordered that take from p */
    uint32_t *rest = r->gen.order + n; /* room for n more */
    for (size_t i = 0; i < n; i++) {
        uint32_t t = r->gen.set[i];
        if (r->gen.rs_off[t] == r->gen.rs_off[t + 1])
            continue;
        rest[nr++] = t;
        for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
            r->gen.ucons[r->gen.ni_idx[j]]++;
    }
    int progress = 1;
    while (nr && progress) {
        progress = 0;
        for (size_t i = 0; i < nr; i++) {
            uint32_t t = rest[i];
            int ready = 1;
            for (uint32_t j = r->gen.rs_off[t];
                 ready && j < r->gen.rs_off[t + 1]; j++) {
                uint32_t p = r->gen.rs_idx[j], own = 0;
                for (uint32_t q = r->gen.ni_off[t]; q < r->gen.ni_off[t + 1];
                     q++)
                    own += r->gen.ni_idx[q] == p;
                ready = r->gen.ucons[p] == own;
            }
            if (!ready)
                continue;
            for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
                r->gen.ucons[r->gen.ni_idx[j]]--;
            r->gen.order[k++] = t;
            rest[i--] = rest[--nr];
            progress = 1;
        }
    }
    /* a cycle: leave the counters zeroed */
    for (size_t i = 0; i < nr; i++)
        for (uint32_t j = r->gen.ni_off[rest[i]];
             j < r->gen.ni_off[rest[i] + 1]; j++)
            r->gen.ucons[r->gen.ni_idx[j]] = 0;
    return nr == 0;
}

static int maximal_sets_rs(pn_reach_t *r, const uint64_t *m, size_t ne,
                           size_t i, size_t nset, const uint64_t *b,
                           pni_visit_fn fn, void *ctx)
{
    size_t np = r->np;
    if (i == ne) {
        pni_tick(r);
        if (!rs_order(r, nset))
            return 0;
        uint64_t *f = r->gen.tmp; /* the budget at the end of the walk */
        memcpy(f, b, np * sizeof *b);
        for (size_t k = 0; k < nset; k++)
            for (uint32_t j = r->gen.rs_off[r->gen.set[k]];
                 j < r->gen.rs_off[r->gen.set[k] + 1]; j++)
                f[r->gen.rs_idx[j]] = 0;
        for (size_t k = 0, j = 0; k < ne; k++) {
            if (j < nset && r->gen.set[j] == r->gen.en[k]) {
                j++;
                continue;
            }
            if (rs_fits(r, f, r->gen.en[k]))
                return 0; /* not maximal: en[k] still fits */
        }
        int over = step_to(r, m, r->gen.order, nset);
        if (over)
            return -over;
        return fn(r, r->gen.order, nset, r->gen.next, ctx);
    }
    if (i > 0 && cut(r, i - 1, b))
        return 0;
    uint32_t t = r->gen.en[i];
    if (rs_fits(r, b, t)) {
        uint64_t *b2 = r->gen.stack + 2 * (i + 1) * np;
        memcpy(b2, b, np * sizeof *b);
        for (uint32_t j = r->gen.ni_off[t]; j < r->gen.ni_off[t + 1]; j++)
            b2[r->gen.ni_idx[j]] -= r->gen.ni_w[j];
        r->gen.set[nset] = t;
        for (uint32_t j = r->gen.rs_off[t]; j < r->gen.rs_off[t + 1]; j++)
            r->gen.rz[r->gen.rs_idx[j]]++;
        int ret = maximal_sets_rs(r, m, ne, i + 1, nset + 1, b2, fn, ctx);
        for (uint32_t j = r->gen.rs_off[t]; j < r->gen.rs_off[t + 1]; j++)
            r->gen.rz[r->gen.rs_idx[j]]--;
        if (ret || !r->gen.competes[i])
            return ret;
    }
    r->gen.skipped[i] = 1;
    int ret = maximal_sets_rs(r, m, ne, i + 1, nset, b, fn, ctx);
    r->gen.skipped[i] = 0;
    return ret;
}

/* With capacities, a transition that found no room at its turn may find
 * room later (another one emptied the place), so the engine's greedy walk
 * need not end in a maximal set: every order is tried.  taken[k]: en[k]
 * has had its turn.  Cost: up to ne! orders (nets with capacities and
 * many conflicting transitions enabled together are slow to pni_search). */
static int greedy_orders(pn_reach_t *r, const uint64_t *m, size_t ne,
                         size_t level, size_t nset, unsigned char *taken,
                         const uint64_t *b, const uint64_t *pend,
                         pni_visit_fn fn, void *ctx)
{
    size_t np = r->np;
    if (level == ne) {
        pni_tick(r);
        int over = step_to(r, m, r->gen.set, nset);
        if (over)
            return -over;
        return fn(r, r->gen.set, nset, r->gen.next, ctx);
    }
    for (size_t k = 0; k < ne; k++) {
        if (taken[k])
            continue;
        taken[k] = 1;
        int ret;
        if (pni_engine_fits(r->engine, b, pend, r->gen.en[k])) {
            uint64_t *b2 = r->gen.stack + 2 * (level + 1) * np, *p2 = b2 + np;
            memcpy(b2, b, np * sizeof *b);
            memcpy(p2, pend, np * sizeof *pend);
            pni_engine_take(r->engine, b2, p2, r->gen.en[k]);
            r->gen.set[nset] = r->gen.en[k];
            ret = greedy_orders(r, m, ne, level + 1, nset + 1, taken, b2, p2,
                                fn, ctx);
        } else {
            ret = greedy_orders(r, m, ne, level + 1, nset, taken, b, pend,
                                fn, ctx);
        }
        taken[k] = 0;
        if (ret)
            return ret;
    }
    return 0;
}

/* Calls fn for every successor of m; returns 0, fn's nonzero return, or
 * -(1 + place) when a count would pass PN_TOKENS_MAX. */
int pni_successors(pn_reach_t *r, const uint64_t *m, pni_visit_fn fn,
                      void *ctx)
{
    size_t ne = 0;
    for (uint32_t t = 0; t < r->nt; t++)
        if (pni_engine_enabled(r->engine, m, t))
            r->gen.en[ne++] = t;
    r->gen.enabled = ne;
    /* the search's own successors: a stubborn set's (paths to states
     * recompute every successor, to find the edge taken) */
    if (r->por && fn == pni_search_visit)
        ne = pni_por_filter(r->por, r, m, r->gen.en, ne);
    if (r->sem == PN_SEM_INTERLEAVING && fn == pni_search_visit &&
        !pni_engine_has_capacity(r->engine)) {
        /* each transition fired on m itself and undone (only the places it
         * changes: undo keeps their counts), with no copy of the marking;
         * without capacities, pend is not touched */
        for (size_t k = 0; k < ne; k++) {
            uint32_t t = r->gen.en[k];
            const uint32_t *chg = r->gen.chg_idx + r->gen.chg_off[t];
            size_t nchg = r->gen.chg_off[t + 1] - r->gen.chg_off[t];
            uint64_t *mm = (uint64_t *)m;
            for (size_t j = 0; j < nchg; j++)
                r->gen.undo[j] = mm[chg[j]];
            pni_engine_take(r->engine, mm, r->gen.pend, t);
            int over = pni_engine_give(r->engine, mm, t);
            int ret =
                over ? 0 : pni_search_visit(r, &r->gen.en[k], 1, mm, ctx);
            for (size_t j = 0; j < nchg; j++)
                mm[chg[j]] = r->gen.undo[j];
            if (over)
                return -over;
            if (ret)
                return ret;
        }
        return 0;
    }
    if (r->sem == PN_SEM_INTERLEAVING) {
        for (size_t k = 0; k < ne; k++) {
            int over = step_to(r, m, &r->gen.en[k], 1);
            if (over)
                return -over;
            int ret = fn(r, &r->gen.en[k], 1, r->gen.next, ctx);
            if (ret)
                return ret;
        }
        return 0;
    }
    if (ne == 0)
        return 0;
    uint64_t *b = r->gen.stack, *pend = b + r->np;
    memcpy(b, m, r->np * sizeof *m);
    memset(pend, 0, r->np * sizeof *pend);
    if (pni_engine_has_capacity(r->engine)) {
        memset(r->gen.competes, 0, ne);
        return greedy_orders(r, m, ne, 0, 0, r->gen.competes, b, pend, fn,
                             ctx);
    }
    /* without capacities the budget only shrinks: a transition that did
     * not fit at its turn fits no later, and the walk ends in a maximal
     * set */
    pni_engine_competing(r->engine, r->gen.en, ne, r->gen.use,
                         r->gen.competes);
    cut_setup(r, ne);
    if (r->gen.resets)
        return maximal_sets_rs(r, m, ne, 0, 0, b, fn, ctx);
    return maximal_sets(r, m, ne, 0, 0, b, pend, fn, ctx);
}

int pni_successor_by(pn_reach_t *r, const uint64_t *m, uint32_t t,
                     pni_visit_fn fn, void *ctx)
{
    int over = step_to(r, m, &t, 1);
    if (over)
        return -over;
    return fn(r, &t, 1, r->gen.next, ctx);
}

/* Maximal steps on a net without capacities (see maximal_sets() and
 * maximal_sets_rs()): the normal inputs and reset places of each
 * transition, and the scratch of the search's cut. */
pn_status_t pni_successors_setup(pn_reach_t *r, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net), nt = r->nt;
    if (pni_engine_has_capacity(r->engine))
        return PN_OK;
    for (size_t a = 0; a < na && !r->gen.resets; a++)
        r->gen.resets = pn_net_arc(net, a)->kind == PN_ARC_RESET;
    r->gen.last = malloc((nt + 1) * sizeof *r->gen.last);
    r->gen.cl_off = malloc((nt + 2) * sizeof *r->gen.cl_off);
    r->gen.cl_idx = malloc((nt + 1) * sizeof *r->gen.cl_idx);
    r->gen.skipped = calloc(nt + 1, 1);
    r->gen.rz = calloc((size_t)r->np + 1, sizeof *r->gen.rz);
    if (!r->gen.last || !r->gen.cl_off || !r->gen.cl_idx || !r->gen.skipped ||
        !r->gen.rz)
        return PN_ENOMEM;
    r->gen.ni_off = calloc(nt + 2, sizeof *r->gen.ni_off);
    r->gen.rs_off = calloc(nt + 2, sizeof *r->gen.rs_off);
    r->gen.ni_idx = malloc((na + 1) * sizeof *r->gen.ni_idx);
    r->gen.ni_w = malloc((na + 1) * sizeof *r->gen.ni_w);
    r->gen.rs_idx = malloc((na + 1) * sizeof *r->gen.rs_idx);
    r->gen.ucons = calloc((size_t)r->np + 1, sizeof *r->gen.ucons);
    r->gen.order = malloc(2 * (nt + 1) * sizeof *r->gen.order);
    if (!r->gen.ni_off || !r->gen.rs_off || !r->gen.ni_idx || !r->gen.ni_w ||
        !r->gen.rs_idx || !r->gen.ucons || !r->gen.order)
        return PN_ENOMEM;
    /* count, place, then merge each transition's arcs in place */
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir != PN_DIR_PT)
            continue;
        if (arc->kind == PN_ARC_NORMAL)
            r->gen.ni_off[arc->transition + 2]++;
        else if (arc->kind == PN_ARC_RESET)
            r->gen.rs_off[arc->transition + 2]++;
    }
    for (size_t t = 0; t < nt; t++) {
        r->gen.ni_off[t + 2] += r->gen.ni_off[t + 1];
        r->gen.rs_off[t + 2] += r->gen.rs_off[t + 1];
    }
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir != PN_DIR_PT)
            continue;
        if (arc->kind == PN_ARC_NORMAL) {
            uint32_t j = r->gen.ni_off[arc->transition + 1]++;
            r->gen.ni_idx[j] = (uint32_t)arc->place;
            r->gen.ni_w[j] = arc->weight;
        } else if (arc->kind == PN_ARC_RESET) {
            r->gen.rs_idx[r->gen.rs_off[arc->transition + 1]++] =
                (uint32_t)arc->place;
        }
    }
    uint32_t ni = 0, nr = 0;
    for (size_t t = 0; t < nt; t++) {
        uint32_t i0 = r->gen.ni_off[t], i1 = r->gen.ni_off[t + 1];
        uint32_t r0 = r->gen.rs_off[t], r1 = r->gen.rs_off[t + 1];
        r->gen.ni_off[t] = ni;
        r->gen.rs_off[t] = nr;
        for (uint32_t j = i0; j < i1; j++) {
            uint32_t k = r->gen.ni_off[t];
            while (k < ni && r->gen.ni_idx[k] != r->gen.ni_idx[j])
                k++;
            if (k == ni) {
                r->gen.ni_idx[ni] = r->gen.ni_idx[j];
                r->gen.ni_w[ni++] = r->gen.ni_w[j];
            } else {
                r->gen.ni_w[k] = r->gen.ni_w[k] > UINT64_MAX - r->gen.ni_w[j]
                                     ? UINT64_MAX
                                     : r->gen.ni_w[k] + r->gen.ni_w[j];
            }
        }
        for (uint32_t j = r0; j < r1; j++) {
            uint32_t k = r->gen.rs_off[t];
            while (k < nr && r->gen.rs_idx[k] != r->gen.rs_idx[j])
                k++;
            if (k == nr)
                r->gen.rs_idx[nr++] = r->gen.rs_idx[j];
        }
    }
    r->gen.ni_off[nt] = ni;
    r->gen.rs_off[nt] = nr;
    return PN_OK;
}
