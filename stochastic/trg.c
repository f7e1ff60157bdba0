/* The tangible reachability graph: breadth-first over the tangible
 * markings; each timed firing that lands on a vanishing marking is
 * followed through the immediate firings to the tangible markings they
 * reach, with their probabilities (the vanishing markings eliminated on
 * the fly, never states of the chain). */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gspn_private.h"
#include "lib_private.h"

/* A rate from tangible state src (SIZE_MAX: the initial distribution) to
 * tangible state to; a self-loop changes no state and is left out. */
static pn_status_t add_edge(pni_gspn_t *g, size_t src, size_t to, double w)
{
    if (src == to)
        return PN_OK;
    if (pni_grow((void **)&g->edges, &g->capedges, g->nedges + 1,
                 sizeof *g->edges))
        return PN_ENOMEM;
    g->edges[g->nedges++] = (pni_gspn_edge_t){src, to, w};
    return PN_OK;
}

static pn_status_t add_imm(pni_gspn_t *g, size_t src, size_t t, double w)
{
    if (src == SIZE_MAX)
        return PN_OK;
    if (pni_grow((void **)&g->imm, &g->capimm, g->nimm + 1, sizeof *g->imm))
        return PN_ENOMEM;
    g->imm[g->nimm++] = (pni_gspn_imm_t){src, t, w};
    return PN_OK;
}

static pn_status_t too_many_tokens(pni_gspn_t *g, size_t t)
{
    return pni_error(g->err, PN_ETOOBIG, 0, 0,
                     "firing %s puts more than 2^63 - 1 tokens on a place: "
                     "the net is not bounded",
                     pn_net_transition(g->net, t)->id);
}

/* "p1=2 p3=1" for marking m (at most 200 characters). */
static void name_marking(const pni_gspn_t *g, const uint64_t *m, char *buf,
                         size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < g->np && n + 40 < size; p++)
        if (m[p])
            n += (size_t)snprintf(buf + n, size - n, "%s%s=%llu",
                                  n ? " " : "", pn_net_place(g->net, p)->id,
                                  (unsigned long long)m[p]);
    if (!n)
        snprintf(buf, size, "(empty)");
}

/* The steps out of vanishing marking lv[i]: the enabled immediate
 * transitions of the highest priority, each with weight / sum. */
static pn_status_t expand(pni_gspn_t *g, size_t i)
{
    memcpy(g->scratch2, g->marks + g->lv[i] * g->np,
           g->np * sizeof *g->scratch2);
    int top = -1;
    double sum = 0;
    size_t count = 0;
    for (size_t t = 0; t < g->nt; t++) {
        const pn_transition_t *tr = pn_net_transition(g->net, t);
        if (tr->timing != PN_TIMING_IMMEDIATE ||
            pni_gspn_fire(g, t, g->scratch2, g->scratch) == 0)
            continue;
        if (tr->priority > top) {
            top = tr->priority;
            sum = 0;
            count = 0;
        }
        if (tr->priority == top) {
            double wt = pni_gspn_weight(g, t, g->scratch2);
            pn_status_t st = pni_gspn_bad_rate(g, t, g->scratch2, wt);
            if (st)
                return st;
            sum += wt;
            count++;
        }
    }
    for (size_t t = 0; t < g->nt; t++) {
        const pn_transition_t *tr = pn_net_transition(g->net, t);
        if (tr->timing != PN_TIMING_IMMEDIATE || tr->priority != top)
            continue;
        int f = pni_gspn_fire(g, t, g->scratch2, g->scratch);
        if (f < 0)
            return too_many_tokens(g, t);
        /* weights all 0: the enabled ones equally likely */
        double prob = sum > 0 ? pni_gspn_weight(g, t, g->scratch2) / sum
                              : 1.0 / (double)count;
        if (!f || prob == 0)
            continue;
        size_t j;
        pn_status_t st = pni_gspn_find(g, g->scratch, &j);
        if (st)
            return st;
        if (pni_grow((void **)&g->lsucc, &g->caplsucc, g->nlsucc + 1,
                     sizeof *g->lsucc))
            return PN_ENOMEM;
        g->lsucc[g->nlsucc++] = (pni_gspn_step_t){i, j, t, prob};
        if (g->tid[j] == SIZE_MAX && g->stamp[j] != g->search) {
            if (pni_grow((void **)&g->lv, &g->caplv, g->nlv + 1,
                         sizeof *g->lv))
                return PN_ENOMEM;
            g->stamp[j] = g->search;
            g->lpos[j] = g->nlv;
            g->lv[g->nlv++] = j;
        }
    }
    return PN_OK;
}

/* Every vanishing marking of the local search reaches a tangible one, or
 * the error that names one that does not (with its transitions). */
static pn_status_t check_loops(pni_gspn_t *g)
{
    memset(g->good, 0, g->nlv);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t s = 0; s < g->nlsucc; s++) {
            const pni_gspn_step_t *st = &g->lsucc[s];
            if (!g->good[st->from] &&
                (g->tid[st->to] != SIZE_MAX || g->good[g->lpos[st->to]]))
                g->good[st->from] = changed = 1;
        }
    }
    for (size_t i = 0; i < g->nlv; i++) {
        if (g->good[i])
            continue;
        char mk[256], ts[256];
        size_t n = 0;
        name_marking(g, g->marks + g->lv[i] * g->np, mk, sizeof mk);
        ts[0] = '\0';
        for (size_t s = g->lsb[i]; s < g->lsb[i + 1] && n + 40 < sizeof ts;
             s++)
            n += (size_t)snprintf(ts + n, sizeof ts - n, "%s%s", n ? ", " : "",
                                  pn_net_transition(g->net,
                                                    g->lsucc[s].transition)->id);
        return pni_error(g->err, PN_EINVAL, 0, 0,
                         "an absorbing vanishing loop: from marking %s the "
                         "immediate transitions (%s) fire forever and no "
                         "timed transition is ever enabled", mk, ts);
    }
    return PN_OK;
}

/* Mass `mass` (a rate, or a probability for the initial marking) arriving
 * at marking idx from tangible state src: spread over the tangible
 * markings the immediate firings lead to. */
static pn_status_t resolve(pni_gspn_t *g, size_t idx, double mass, size_t src)
{
    if (g->tid[idx] != SIZE_MAX)
        return add_edge(g, src, g->tid[idx], mass);
    pn_status_t st;
    g->search++;
    g->nlv = g->nlsucc = 0;
    if (pni_grow((void **)&g->lv, &g->caplv, 1, sizeof *g->lv))
        return PN_ENOMEM;
    g->stamp[idx] = g->search;
    g->lpos[idx] = 0;
    g->lv[g->nlv++] = idx;
    for (size_t i = 0; i < g->nlv; i++) {
        if (pni_grow((void **)&g->lsb, &g->caplsb, i + 2, sizeof *g->lsb))
            return PN_ENOMEM;
        g->lsb[i] = g->nlsucc;
        if ((st = expand(g, i)))
            return st;
        g->lsb[i + 1] = g->nlsucc;
    }
    if (pni_grow((void **)&g->lpend, &g->caplpend, g->nlv, sizeof *g->lpend) ||
        pni_grow((void **)&g->good, &g->capgood, g->nlv, 1))
        return PN_ENOMEM;
    if ((st = check_loops(g)))
        return st;
    memset(g->lpend, 0, g->nlv * sizeof *g->lpend);
    g->lpend[0] = mass;
    /* sweeps in the search's order: exact after as many sweeps as the
     * longest path on an acyclic graph; a loop that is left with
     * probability one loses its mass geometrically */
    double left = mass;
    for (size_t sweep = 0; left > 1e-15 * mass; sweep++) {
        if (sweep == 1000000)
            return pni_error(g->err, PN_ETOOBIG, 0, 0,
                             "the immediate transitions out of a vanishing "
                             "marking loop so long that their probabilities "
                             "do not settle");
        left = 0;
        for (size_t i = 0; i < g->nlv; i++) {
            double d = g->lpend[i];
            if (d == 0)
                continue;
            g->lpend[i] = 0;
            for (size_t s = g->lsb[i]; s < g->lsb[i + 1]; s++) {
                const pni_gspn_step_t *sp = &g->lsucc[s];
                double w = d * sp->prob;
                if ((st = add_imm(g, src, sp->transition, w)))
                    return st;
                if (g->tid[sp->to] != SIZE_MAX)
                    st = add_edge(g, src, g->tid[sp->to], w);
                else
                    g->lpend[g->lpos[sp->to]] += w;
                if (st)
                    return st;
            }
        }
        for (size_t i = 0; i < g->nlv; i++)
            left += g->lpend[i];
    }
    return PN_OK;
}

pn_status_t pni_gspn_explore(pni_gspn_t *g)
{
    size_t idx;
    pn_status_t st;
    for (size_t p = 0; p < g->np; p++)
        g->cur[p] = pn_net_place(g->net, p)->marking;
    if ((st = pni_gspn_find(g, g->cur, &idx)) ||
        (st = resolve(g, idx, 1.0, SIZE_MAX)))
        return st;
    for (size_t s = 0; s < g->ntang; s++) {
        memcpy(g->cur, g->marks + g->tang[s] * g->np, g->np * sizeof *g->cur);
        for (size_t t = 0; t < g->nt; t++) {
            pn_timing_t k = pn_net_transition(g->net, t)->timing;
            if (k != PN_TIMING_NONE && k != PN_TIMING_EXPONENTIAL)
                continue;
            int f = pni_gspn_fire(g, t, g->cur, g->scratch);
            if (f < 0)
                return too_many_tokens(g, t);
            double rate = f ? pni_gspn_rate(g, t, g->cur) : 0;
            if ((st = pni_gspn_bad_rate(g, t, g->cur, rate)))
                return st;
            if (rate <= 0)
                continue;
            if ((st = pni_gspn_find(g, g->scratch, &idx)) ||
                (st = resolve(g, idx, rate, s)))
                return st;
        }
    }
    return PN_OK;
}
