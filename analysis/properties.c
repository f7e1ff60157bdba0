/*
 * What the state space answers: the global properties of the markings
 * found, queries on each marking, run lengths over the graph, liveness
 * (Tarjan's strongly connected components).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

/* ---- results -------------------------------------------------------------
 */

pn_reach_end_t pn_reach_end(const pn_reach_t *r) { return r->found.end; }
uint64_t pn_reach_states(const pn_reach_t *r) { return r->store.nstates; }
uint64_t pn_reach_edges(const pn_reach_t *r) { return r->found.edges; }
uint64_t pn_reach_dead(const pn_reach_t *r) { return r->found.dead; }
uint64_t pn_reach_max_tokens_in_place(const pn_reach_t *r)
{
    return r->found.max_place;
}
uint64_t pn_reach_max_tokens_per_marking(const pn_reach_t *r)
{
    return r->found.max_total;
}
uint64_t pn_reach_place_bound(const pn_reach_t *r, size_t p)
{
    return p < r->np ? r->found.bound[p] : 0;
}
int pn_reach_transition_fires(const pn_reach_t *r, size_t t)
{
    return t < r->nt && r->found.fires[t];
}
int pn_reach_stable_place(const pn_reach_t *r)
{
    for (uint32_t p = 0; p < r->np; p++)
        if (r->found.bound[p] == r->found.lowest[p])
            return 1;
    return 0;
}

/* ---- queries -------------------------------------------------------------
 */

int pni_query_holds(const pn_reach_t *r, const pn_qformula_t *f,
                    const uint64_t *m)
{
    return pni_formula_holds(r->engine, r->nt, f, m);
}

typedef struct {
    const pn_query_set_t *qs;
    pn_query_answer_t *a;
    size_t open;       /* EF and AG queries not decided yet */
    int bounds;        /* some query is a bound or CTL: every marking is
                          needed */
} query_ctx_t;

static int on_state(pn_reach_t *r, uint32_t state, const uint64_t *m,
                    void *ctx)
{
    query_ctx_t *c = ctx;
    for (size_t i = 0; i < c->qs->n; i++) {
        const pn_query_t *q = &c->qs->q[i];
        pn_query_answer_t *a = &c->a[i];
        if (q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL) {
            continue; /* over the whole graph, at the end */
        } else if (q->kind == PN_QUERY_BOUND) {
            uint64_t v = pni_query_value(&q->bound, m);
            if (a->state == PN_REACH_NO_STATE || v > a->bound) {
                a->bound = v;
                a->state = state;
            }
        } else if (!a->known &&
                   pni_query_holds(r, q->formula, m) ==
                       (q->kind == PN_QUERY_EF)) {
            a->known = 1;
            a->value = q->kind == PN_QUERY_EF;
            a->state = state;
            c->open--;
        }
    }
    return c->open == 0 && !c->bounds;
}

static int formula_fits(const pn_qformula_t *f, size_t np, size_t nt)
{
    if (!f)
        return 0;
    for (size_t i = 0; i < f->lhs.nplaces; i++)
        if (f->lhs.places[i] >= np)
            return 0;
    for (size_t i = 0; i < f->rhs.nplaces; i++)
        if (f->rhs.places[i] >= np)
            return 0;
    for (size_t i = 0; i < f->nitems; i++)
        if (f->items[i] >= nt)
            return 0;
    if (f->kind == PN_QF_NOT && f->nkids != 1)
        return 0;
    if (f->kind >= PN_QF_EX && f->kind <= PN_QF_AU &&
        f->nkids != (f->kind >= PN_QF_EU ? 2u : 1u))
        return 0;
    if (f->kind > PN_QF_R)
        return 0;
    for (size_t i = 0; i < f->nkids; i++)
        if (!formula_fits(f->kids[i], np, nt))
            return 0;
    return 1;
}

/* Whether f has no LTL operator. */
static int ctl_formula(const pn_qformula_t *f)
{
    if (f->kind >= PN_QF_X)
        return 0;
    for (size_t i = 0; i < f->nkids; i++)
        if (!ctl_formula(f->kids[i]))
            return 0;
    return 1;
}

pn_status_t pn_reach_query(const pn_net_t *net, const pn_reach_options_t *o,
                           const pn_query_set_t *qs,
                           pn_query_answer_t *answers, pn_reach_t **out)
{
    if (!net || !qs || (!answers && qs->n) || !out)
        return PN_EINVAL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    query_ctx_t c = {qs, answers, 0, 0};
    pn_reach_options_t oc = *o; /* CTL needs the graph */
    for (size_t i = 0; i < qs->n; i++) {
        const pn_query_t *q = &qs->q[i];
        if (q->kind == PN_QUERY_BOUND) {
            for (size_t k = 0; k < q->bound.nplaces; k++)
                if (q->bound.places[k] >= np)
                    return PN_EINVAL;
            c.bounds = 1;
        } else if (!formula_fits(q->formula, np, nt) ||
                   (q->kind != PN_QUERY_CTL && q->kind != PN_QUERY_LTL &&
                    pni_qformula_temporal(q->formula)) ||
                   (q->kind == PN_QUERY_LTL &&
                    !pni_ltl_formula(q->formula)) ||
                   (q->kind == PN_QUERY_CTL && !ctl_formula(q->formula))) {
            return PN_EINVAL;
        } else if (q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL) {
            c.bounds = 1;
            oc.graph = 1;
        } else {
            c.open++;
        }
        answers[i].known = answers[i].value = 0;
        answers[i].bound = 0;
        answers[i].state = PN_REACH_NO_STATE;
    }
    pn_status_t st = pni_search_queries(net, &oc, qs, answers, on_state, &c,
                                        out);
    if (st)
        return st;
    /* a search a limit stopped: the CTL queries its graph decides */
    int complete = (*out)->found.end == PN_REACH_COMPLETE;
    int graph = (*out)->graph.keep_graph && (*out)->store.nstates;
    pni_ctl_t *ctl = NULL;
    for (size_t i = 0; !st && i < qs->n; i++) {
        pn_query_answer_t *a = &answers[i];
        if (qs->q[i].kind == PN_QUERY_CTL && !graph) {
            continue;
        } else if (qs->q[i].kind == PN_QUERY_CTL) {
            if (!ctl && !(ctl = pni_ctl_new(*out)))
                st = PN_ENOMEM;
            else
                st = pni_ctl_holds(ctl, qs->q[i].formula, &a->known,
                                   &a->value, &a->state);
        } else if (qs->q[i].kind == PN_QUERY_LTL) {
            /* over a complete graph only: a marking not expanded would
             * read as a dead one */
            if (!complete || !graph)
                continue;
            st = pni_ltl_holds(*out, qs->q[i].formula, 0, &a->value, NULL,
                               NULL, NULL);
            a->known = !st;
            if (st == PN_ERANGE)
                st = PN_OK; /* an automaton too large: unknown */
        } else if (!a->known && complete) {
            a->known = 1;
            a->value = qs->q[i].kind == PN_QUERY_AG;
        }
    }
    pni_ctl_free(ctl);
    if (st) {
        pn_reach_free(*out);
        *out = NULL;
    }
    return st;
}

/* Longest distances from the initial state over the graph, in a
 * topological order (Kahn); *acyclic = 0 when a cycle remains.  dist and
 * via get one entry per state. */
static pn_status_t longest(const pn_reach_t *r, uint64_t *dist,
                           uint32_t *via, int *acyclic)
{
    size_t n = r->store.nstates;
    uint32_t *indeg = calloc(n + 1, sizeof *indeg);
    uint32_t *queue = malloc((n + 1) * sizeof *queue);
    if (!indeg || !queue) {
        free(indeg);
        free(queue);
        return PN_ENOMEM;
    }
    for (size_t k = 0; k < r->graph.nsucc; k++)
        indeg[r->graph.succ[k]]++;
    size_t qh = 0, qt = 0;
    for (size_t i = 0; i < n; i++) {
        dist[i] = 0;
        via[i] = NO_STATE;
        if (indeg[i] == 0)
            queue[qt++] = (uint32_t)i;
    }
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint64_t k = r->graph.succ_off[u]; k < r->graph.succ_off[u + 1];
             k++) {
            uint32_t v = r->graph.succ[k];
            if (dist[u] + 1 > dist[v]) {
                dist[v] = dist[u] + 1;
                via[v] = u;
            }
            if (--indeg[v] == 0)
                queue[qt++] = v;
        }
    }
    *acyclic = qt == n;
    free(indeg);
    free(queue);
    return PN_OK;
}

pn_status_t pn_reach_run_lengths(const pn_reach_t *r, int *terminates,
                                 uint64_t *min_steps, uint64_t *max_steps)
{
    *terminates = 0;
    if (!r || r->found.end != PN_REACH_COMPLETE || !r->graph.keep_graph)
        return PN_EINVAL;
    uint64_t *dist = malloc((r->store.nstates + 1) * sizeof *dist);
    uint32_t *via = malloc((r->store.nstates + 1) * sizeof *via);
    int acyclic = 0;
    pn_status_t st = dist && via ? longest(r, dist, via, &acyclic) : PN_ENOMEM;
    if (!st && acyclic) {
        /* BFS found states by depth: the first dead one is the nearest */
        uint64_t lo = 0, hi = 0;
        for (size_t i = 0; i < r->store.nstates; i++)
            if (r->graph.succ_off[i] == r->graph.succ_off[i + 1] &&
                dist[i] > hi)
                hi = dist[i];
        if (r->graph.keep_parent) {
            for (uint32_t s = r->found.first_dead;
                 s != NO_STATE && r->graph.parent[s] != NO_STATE;
                 s = r->graph.parent[s])
                lo++;
        } else if (r->found.first_dead != NO_STATE) {
            /* no parents: the BFS depths again, from the graph (a state
             * was found by the first state before it with an edge to
             * it) */
            for (size_t i = 0; i < r->store.nstates; i++)
                dist[i] = UINT64_MAX;
            dist[0] = 0;
            for (size_t u = 0; u < r->store.nstates; u++)
                for (uint64_t k = r->graph.succ_off[u];
                     k < r->graph.succ_off[u + 1]; k++)
                    if (dist[r->graph.succ[k]] == UINT64_MAX)
                        dist[r->graph.succ[k]] = dist[u] + 1;
            lo = dist[r->found.first_dead];
        }
        *terminates = 1;
        *min_steps = lo;
        *max_steps = hi;
    }
    free(dist);
    free(via);
    if (st)
        return st;
    return acyclic ? PN_OK : PN_EINVAL;
}

pn_status_t pn_reach_longest_path(const pn_reach_t *r, pn_reach_path_t **out)
{
    if (!r || !out || r->found.end != PN_REACH_COMPLETE ||
        !r->graph.keep_graph)
        return PN_EINVAL;
    uint64_t *dist = malloc((r->store.nstates + 1) * sizeof *dist);
    uint32_t *via = malloc((r->store.nstates + 1) * sizeof *via);
    int acyclic = 0;
    pn_status_t st = dist && via ? longest(r, dist, via, &acyclic) : PN_ENOMEM;
    uint32_t end = NO_STATE;
    for (size_t i = 0; !st && acyclic && i < r->store.nstates; i++)
        if (r->graph.succ_off[i] == r->graph.succ_off[i + 1] &&
            (end == NO_STATE || dist[i] > dist[end]))
            end = (uint32_t)i;
    if (!st && (!acyclic || end == NO_STATE))
        st = PN_EINVAL;
    uint32_t *chain = NULL;
    if (!st) {
        size_t len = (size_t)dist[end] + 1, k = len;
        chain = malloc((len + 1) * sizeof *chain);
        if (!chain)
            st = PN_ENOMEM;
        for (uint32_t s = end; !st && s != NO_STATE; s = via[s])
            chain[--k] = s;
        if (!st)
            st = pni_path_of(r, chain, len, out);
    }
    free(chain);
    free(dist);
    free(via);
    return st;
}

/* ---- liveness: strongly connected components (Tarjan, iterative) -------- */

typedef struct {
    uint32_t *index, *low, *stack, *comp, *call;
    uint64_t *pos;
    unsigned char *on;
} tarjan_t;

static void tarjan_free(tarjan_t *t)
{
    free(t->index);
    free(t->low);
    free(t->stack);
    free(t->comp);
    free(t->call);
    free(t->pos);
    free(t->on);
}

/* comp[v]: the component of each state; returns the number of components,
 * or -1 when out of memory. */
static long components(const pn_reach_t *r, tarjan_t *t)
{
    size_t n = r->store.nstates;
    t->index = malloc((n + 1) * sizeof *t->index);
    t->low = malloc((n + 1) * sizeof *t->low);
    t->stack = malloc((n + 1) * sizeof *t->stack);
    t->comp = malloc((n + 1) * sizeof *t->comp);
    t->call = malloc((n + 1) * sizeof *t->call);
    t->pos = malloc((n + 1) * sizeof *t->pos);
    t->on = calloc(n + 1, 1);
    if (!t->index || !t->low || !t->stack || !t->comp || !t->call ||
        !t->pos || !t->on)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->index[i] = NO_STATE;
    uint32_t next = 0, ncomp = 0;
    size_t sp = 0;
    for (size_t root = 0; root < n; root++) {
        if (t->index[root] != NO_STATE)
            continue;
        size_t depth = 0;
        t->call[depth] = (uint32_t)root;
        t->index[root] = t->low[root] = next++;
        t->pos[root] = r->graph.succ_off[root];
        t->stack[sp++] = (uint32_t)root;
        t->on[root] = 1;
        for (;;) {
            uint32_t v = t->call[depth];
            if (t->pos[v] < r->graph.succ_off[v + 1]) {
                uint32_t w = r->graph.succ[t->pos[v]++];
                if (t->index[w] == NO_STATE) {
                    t->index[w] = t->low[w] = next++;
                    t->pos[w] = r->graph.succ_off[w];
                    t->stack[sp++] = w;
                    t->on[w] = 1;
                    t->call[++depth] = w;
                } else if (t->on[w] && t->index[w] < t->low[v]) {
                    t->low[v] = t->index[w];
                }
                continue;
            }
            if (t->low[v] == t->index[v]) {
                uint32_t w;
                do {
                    w = t->stack[--sp];
                    t->on[w] = 0;
                    t->comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            if (depth == 0)
                break;
            uint32_t u = t->call[--depth];
            if (t->low[v] < t->low[u])
                t->low[u] = t->low[v];
        }
    }
    return (long)ncomp;
}

pn_status_t pn_reach_live(const pn_reach_t *rc, int *live)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    *live = 0;
    if (!r || r->found.end != PN_REACH_COMPLETE || !r->graph.keep_graph)
        return PN_EINVAL;
    /* a quotient graph's components are not the graph's: only a dead
     * marking (nothing fires after it) says */
    if (r->sym)
        return r->found.dead ? PN_OK : PN_EINVAL;
    tarjan_t t = {0};
    long nc = components(r, &t);
    size_t n = r->store.nstates;
    /* exits[c]: an edge leaves component c (it is not terminal); first and
     * order: the states grouped by component (counting sort) */
    unsigned char *exits = nc >= 0 ? calloc((size_t)nc + 1, 1) : NULL;
    size_t *first = nc >= 0 ? calloc((size_t)nc + 2, sizeof *first) : NULL;
    uint32_t *order = malloc((n + 1) * sizeof *order);
    unsigned char *enabled = calloc((size_t)r->nt + 1, 1);
    pn_status_t st = exits && first && order && enabled ? PN_OK : PN_ENOMEM;
    if (!st) {
        for (size_t v = 0; v < n; v++) {
            first[t.comp[v] + 1]++;
            for (uint64_t k = r->graph.succ_off[v];
                 k < r->graph.succ_off[v + 1]; k++)
                if (t.comp[r->graph.succ[k]] != t.comp[v])
                    exits[t.comp[v]] = 1;
        }
        for (long c = 0; c < nc; c++)
            first[c + 1] += first[c];
        /* t.low is free now: the fill position of each component */
        for (long c = 0; c < nc; c++)
            t.low[c] = (uint32_t)first[c];
        for (size_t v = 0; v < n; v++)
            order[t.low[t.comp[v]]++] = (uint32_t)v;
        /* live: every terminal component enables every transition */
        int ok = 1;
        for (long c = 0; ok && c < nc; c++) {
            if (exits[c])
                continue;
            memset(enabled, 0, r->nt);
            size_t count = 0;
            for (size_t k = first[c]; k < first[c + 1]; k++) {
                pni_store_marking(r, order[k], r->gen.m);
                for (uint32_t tr = 0; tr < r->nt; tr++)
                    if (!enabled[tr] &&
                        pni_engine_enabled(r->engine, r->gen.m, tr)) {
                        enabled[tr] = 1;
                        count++;
                    }
            }
            ok = count == r->nt;
        }
        *live = ok;
    }
    free(exits);
    free(first);
    free(order);
    free(enabled);
    tarjan_free(&t);
    return st;
}
