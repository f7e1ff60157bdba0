/* The tangible reachability graph of a GSPN, vanishing markings eliminated
 * as they are met, and its Markov chain solved (pn/gspn.h). */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gspn.h"
#include "gspn_private.h"
#include "lib_private.h"

int pn_gspn_has_lu(void)
{
#ifdef HAVE_UMFPACK
    return 1;
#else
    return 0;
#endif
}

void pn_gspn_result_free(pn_gspn_result_t *r)
{
    if (!r)
        return;
    free(r->throughput);
    free(r->mean_tokens);
    free(r->dead_probability);
    free(r->dead_marking);
    free(r->times);
    free(r->tr_throughput);
    free(r->tr_mean_tokens);
    free(r->tr_dead);
    free(r);
}

/* ---- the net's arcs by transition --------------------------------------- */

static pn_status_t index_arcs(pni_gspn_t *g)
{
    const pn_net_t *net = g->net;
    size_t na = pn_net_arc_count(net);
    g->aoff = calloc(g->nt + 1, sizeof *g->aoff);
    g->arcs = malloc((na ? na : 1) * sizeof *g->arcs);
    if (!g->aoff || !g->arcs)
        return PN_ENOMEM;
    for (size_t a = 0; a < na; a++)
        g->aoff[pn_net_arc(net, a)->transition + 1]++;
    for (size_t t = 0; t < g->nt; t++)
        g->aoff[t + 1] += g->aoff[t];
    size_t *at = calloc(g->nt + 1, sizeof *at);
    if (!at)
        return PN_ENOMEM;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        g->arcs[g->aoff[arc->transition] + at[arc->transition]++] = arc;
    }
    free(at);
    return PN_OK;
}

/* Fires t at m into out: 1, or 0 when t is not enabled (or a capacity
 * forbids it), -1 when a place would pass PN_TOKENS_MAX. */
int pni_gspn_fire(const pni_gspn_t *g, size_t t, const uint64_t *m,
                  uint64_t *out)
{
    const pn_arc_t *const *a = g->arcs + g->aoff[t];
    size_t n = g->aoff[t + 1] - g->aoff[t];
    for (size_t k = 0; k < n; k++) {
        uint64_t v = m[a[k]->place];
        if (a[k]->dir != PN_DIR_PT)
            continue;
        if ((a[k]->kind == PN_ARC_NORMAL || a[k]->kind == PN_ARC_READ) &&
            v < a[k]->weight)
            return 0;
        if (a[k]->kind == PN_ARC_INHIBITOR && v >= a[k]->weight)
            return 0;
    }
    memcpy(out, m, g->np * sizeof *out);
    for (size_t k = 0; k < n; k++)
        if (a[k]->dir == PN_DIR_PT && a[k]->kind == PN_ARC_NORMAL)
            out[a[k]->place] -= a[k]->weight;
        else if (a[k]->kind == PN_ARC_RESET)
            out[a[k]->place] = 0;
    for (size_t k = 0; k < n; k++)
        if (a[k]->dir == PN_DIR_TP) {
            size_t p = a[k]->place;
            if (out[p] > PN_TOKENS_MAX - a[k]->weight)
                return -1;
            out[p] += a[k]->weight;
            uint64_t cap = pn_net_place(g->net, p)->capacity;
            if (cap && out[p] > cap)
                return 0;
        }
    return 1;
}

/* The rate of timed transition t at m: its rate, times its enabling
 * degree (the firings its normal input arcs allow at once) under
 * infinite-server semantics, times the degree but k at most with k
 * servers. */
double pni_gspn_weight(const pni_gspn_t *g, size_t t, const uint64_t *m)
{
    const pn_transition_t *tr = pn_net_transition(g->net, t);
    if (g->expr && g->expr[t])
        return pni_rate_eval(g->expr[t], g->net, m);
    return tr->timing == PN_TIMING_NONE ? PN_DEFAULT_RATE : tr->rate;
}

pn_status_t pni_gspn_bad_rate(const pni_gspn_t *g, size_t t,
                              const uint64_t *m, double v)
{
    if (isfinite(v) && v >= 0)
        return PN_OK;
    const pn_transition_t *tr = pn_net_transition(g->net, t);
    char mk[200] = "";
    size_t n = 0;
    for (size_t p = 0; p < g->np && n + 1 < sizeof mk; p++)
        if (m[p])
            n += (size_t)snprintf(mk + n, sizeof mk - n, "%s%s=%llu",
                                  n ? ", " : "", pn_net_place(g->net, p)->id,
                                  (unsigned long long)m[p]);
    if (n >= sizeof mk)
        memcpy(mk + sizeof mk - 4, "...", 4);
    return pni_error(g->err, PN_EINVAL, 0, 0,
                     "transition %s: its rate '%s' is %g, not a finite "
                     "number >= 0, at the reachable marking {%s}",
                     tr->id, tr->rate_expr ? tr->rate_expr : "?", v, mk);
}

double pni_gspn_rate(const pni_gspn_t *g, size_t t, const uint64_t *m)
{
    const pn_transition_t *tr = pn_net_transition(g->net, t);
    double rate = pni_gspn_weight(g, t, m);
    if (tr->server == PN_SERVER_SINGLE)
        return rate;
    uint64_t deg = UINT64_MAX;
    for (size_t k = g->aoff[t]; k < g->aoff[t + 1]; k++) {
        const pn_arc_t *a = g->arcs[k];
        if (a->dir == PN_DIR_PT && a->kind == PN_ARC_NORMAL &&
            m[a->place] / a->weight < deg)
            deg = m[a->place] / a->weight;
    }
    if (deg == UINT64_MAX) /* no input: one firing at a time */
        return rate;
    if (tr->server == PN_SERVER_K && deg > tr->servers)
        deg = tr->servers;
    return rate * (double)deg;
}

/* ---- the store of markings ----------------------------------------------- */

static uint64_t hash_marking(const uint64_t *m, size_t np)
{
    uint64_t h = 1469598103934665603u;
    for (size_t p = 0; p < np; p++) {
        h ^= m[p];
        h *= 1099511628211u;
        h ^= h >> 29;
    }
    return h;
}

static pn_status_t rehash(pni_gspn_t *g)
{
    size_t cap = g->tabcap ? 2 * g->tabcap : 1024;
    size_t *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return PN_ENOMEM;
    for (size_t i = 0; i < g->nm; i++) {
        size_t h = (size_t)hash_marking(g->marks + i * g->np, g->np);
        while (tab[h & (cap - 1)])
            h++;
        tab[h & (cap - 1)] = i + 1;
    }
    free(g->tab);
    g->tab = tab;
    g->tabcap = cap;
    return PN_OK;
}

/* Whether m enables an immediate transition. */
static int is_vanishing(const pni_gspn_t *g, const uint64_t *m)
{
    for (size_t t = 0; t < g->nt; t++)
        if (pn_net_transition(g->net, t)->timing == PN_TIMING_IMMEDIATE &&
            pni_gspn_fire(g, t, m, g->probe) != 0)
            return 1;
    return 0;
}

/* The index of marking m, stored when new (*idx). */
pn_status_t pni_gspn_find(pni_gspn_t *g, const uint64_t *m, size_t *idx)
{
    if (2 * (g->nm + 1) > g->tabcap && rehash(g))
        return PN_ENOMEM;
    size_t h = (size_t)hash_marking(m, g->np);
    for (;; h++) {
        size_t e = g->tab[h & (g->tabcap - 1)];
        if (!e)
            break;
        if (!memcmp(g->marks + (e - 1) * g->np, m, g->np * sizeof *m)) {
            *idx = e - 1;
            return PN_OK;
        }
    }
    if (g->nm >= g->max_states)
        return pni_error(g->err, PN_ETOOBIG, 0, 0,
                         "more than %zu markings: the net is too large or "
                         "not bounded", g->max_states);
    if (pni_grow((void **)&g->marks, &g->capm, (g->nm + 1) * g->np,
                 sizeof *g->marks) ||
        pni_grow((void **)&g->tid, &g->captid, g->nm + 1, sizeof *g->tid) ||
        pni_grow((void **)&g->stamp, &g->capstamp, g->nm + 1,
                 sizeof *g->stamp) ||
        pni_grow((void **)&g->lpos, &g->caplpos, g->nm + 1,
                 sizeof *g->lpos))
        return PN_ENOMEM;
    memcpy(g->marks + g->nm * g->np, m, g->np * sizeof *m);
    g->tab[h & (g->tabcap - 1)] = g->nm + 1;
    g->stamp[g->nm] = 0;
    g->tid[g->nm] = SIZE_MAX;
    if (is_vanishing(g, m)) {
        g->nvan++;
    } else {
        if (pni_grow((void **)&g->tang, &g->captang, g->ntang + 1,
                     sizeof *g->tang))
            return PN_ENOMEM;
        g->tid[g->nm] = g->ntang;
        g->tang[g->ntang++] = g->nm;
    }
    *idx = g->nm++;
    return PN_OK;
}

void pni_gspn_free(pni_gspn_t *g)
{
    for (size_t t = 0; g->expr && t < g->nt; t++)
        pni_rate_free(g->expr[t]);
    free(g->expr);
    free(g->aoff);
    free(g->arcs);
    free(g->marks);
    free(g->tab);
    free(g->tid);
    free(g->stamp);
    free(g->tang);
    free(g->edges);
    free(g->imm);
    free(g->scratch);
    free(g->scratch2);
    free(g->probe);
    free(g->cur);
    free(g->lpos);
    free(g->lsb);
    free(g->good);
    free(g->lv);
    free(g->lpend);
    free(g->lsucc);
}

pn_status_t pni_gspn_init(pni_gspn_t *g, const pn_net_t *net,
                          size_t max_states, pn_error_t *err)
{
    memset(g, 0, sizeof *g);
    g->net = net;
    g->err = err;
    g->np = pn_net_place_count(net);
    g->nt = pn_net_transition_count(net);
    g->max_states = max_states;
    for (size_t t = 0; t < g->nt; t++) {
        const pn_transition_t *tr = pn_net_transition(net, t);
        if (tr->timing == PN_TIMING_DETERMINISTIC)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "transition %s is deterministic: the Markov "
                             "chain of a GSPN has exponential and immediate "
                             "transitions only", tr->id);
        if (tr->timing_lost)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "transition %s: its file gave a timing that was "
                             "not read (a rate or priority that is not a number)",
                             tr->id);
    }
    g->expr = calloc(g->nt + 1, sizeof *g->expr);
    if (!g->expr)
        return PN_ENOMEM;
    for (size_t t = 0; t < g->nt; t++) {
        const pn_transition_t *tr = pn_net_transition(net, t);
        char why[200];
        size_t pos;
        pn_status_t st = tr->rate_expr
                             ? pni_rate_compile(net, tr->rate_expr,
                                                &g->expr[t], &pos, why,
                                                sizeof why)
                             : PN_OK;
        if (st == PN_ENOMEM)
            return st;
        if (st)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "transition %s: rate '%s': %s", tr->id,
                             tr->rate_expr, why);
    }
    g->scratch = malloc((g->np + 1) * sizeof *g->scratch);
    g->scratch2 = malloc((g->np + 1) * sizeof *g->scratch2);
    g->probe = malloc((g->np + 1) * sizeof *g->probe);
    g->cur = malloc((g->np + 1) * sizeof *g->cur);
    if (!g->scratch || !g->scratch2 || !g->probe || !g->cur || index_arcs(g))
        return PN_ENOMEM;
    return PN_OK;
}

/* The nonzero off-diagonal rates: distinct pairs of states.  The graph
 * adds one entry per path, so a state reached from another by two
 * transitions, or through a vanishing loop, has several; explore() adds
 * a state's entries together, so a stamp per target finds the repeats. */
static pn_status_t count_edges(const pni_gspn_t *g, size_t *count)
{
    size_t *seen = malloc((g->ntang ? g->ntang : 1) * sizeof *seen);
    if (!seen)
        return PN_ENOMEM;
    for (size_t i = 0; i < g->ntang; i++)
        seen[i] = SIZE_MAX;
    *count = 0;
    for (size_t e = 0; e < g->nedges; e++) {
        const pni_gspn_edge_t *ed = &g->edges[e];
        if (ed->from == SIZE_MAX || seen[ed->to] == ed->from)
            continue;
        seen[ed->to] = ed->from;
        ++*count;
    }
    free(seen);
    return PN_OK;
}

pn_status_t pn_gspn_solve(const pn_net_t *net, const pn_gspn_options_t *opt,
                          pn_gspn_result_t **out, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (out)
        *out = NULL;
    if (!net || !out)
        return pni_error(err, PN_EINVAL, 0, 0, "net or out is NULL");
    pn_gspn_options_t o = opt ? *opt : (pn_gspn_options_t){0};
    if (!o.max_states)
        o.max_states = PN_GSPN_MAX_STATES;
    if (!o.direct_max)
        o.direct_max = PN_GSPN_DIRECT_MAX;
    if (!(o.tolerance > 0))
        o.tolerance = 1e-12;
    if (!o.max_iter)
        o.max_iter = 100000;
    if (!(o.epsilon > 0))
        o.epsilon = 1e-12;
    for (size_t i = 0; i < o.ntimes; i++)
        if (!o.times || !(o.times[i] >= 0) || !isfinite(o.times[i]))
            return pni_error(err, PN_EINVAL, 0, 0,
                             "a time is negative or not a number");
    pn_gspn_result_t *r = calloc(1, sizeof *r);
    if (!r)
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    r->places = pn_net_place_count(net);
    r->transitions = pn_net_transition_count(net);
    r->solver = "none";
    pni_gspn_t g;
    pn_status_t st = pni_gspn_init(&g, net, o.max_states, err);
    if (!st)
        st = pni_gspn_explore(&g);
    if (!st) {
        r->tangible = g.ntang;
        r->vanishing = g.nvan;
        st = count_edges(&g, &r->edges);
    }
    if (!st) {
        st = pni_gspn_ctmc(&g, &o, r);
        if (!st && o.ntimes)
            st = pni_gspn_transient(&g, &o, r);
    }
    pni_gspn_free(&g);
    if (st) {
        pn_gspn_result_free(r);
        return st == PN_ENOMEM ? pni_error(err, st, 0, 0, "out of memory")
                               : st;
    }
    *out = r;
    return PN_OK;
}
