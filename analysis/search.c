/*
 * The state space: breadth-first search over the store, with its limits,
 * progress report and unboundedness check; paths to states.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

void pn_reach_options_init(pn_reach_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->semantics = PN_SEM_INTERLEAVING;
    o->unbounded = 1;
}

void pn_reach_free(pn_reach_t *r)
{
    if (!r)
        return;
    pn_engine_free(r->engine);
    free(r->store.data);
    free(r->lay.bits);
    free(r->lay.lim);
    free(r->lay.off);
    free(r->lay.kind);
    free(r->lay.grp);
    free(r->lay.gidx);
    free(r->lay.g_off);
    free(r->lay.g_pl);
    free(r->lay.g_w);
    free(r->lay.g_exact);
    free(r->lay.g_bit);
    free(r->lay.d_place);
    free(r->lay.d_off);
    free(r->lay.d_q);
    free(r->lay.d_a);
    free(r->lay.d_c);
    free(r->lay.d_div);
    free(r->lay.changed);
    free(r->gen.chg_off);
    free(r->gen.chg_idx);
    free(r->store.pkey);
    free(r->gen.undo);
    free(r->store.cmp);
    free(r->graph.parent);
    free(r->store.slots);
    free(r->graph.succ_off);
    free(r->graph.succ);
    free(r->found.bound);
    free(r->found.lowest);
    free(r->found.fires);
    free(r->gen.m);
    free(r->gen.pend);
    free(r->gen.next);
    free(r->gen.tmp);
    free(r->store.key);
    free(r->gen.en);
    free(r->gen.set);
    free(r->gen.use);
    free(r->gen.competes);
    free(r->gen.stack);
    free(r->gen.ni_off);
    free(r->gen.ni_idx);
    free(r->gen.ni_w);
    free(r->gen.rs_off);
    free(r->gen.rs_idx);
    free(r->gen.ucons);
    free(r->gen.order);
    free(r->gen.last);
    free(r->gen.cl_off);
    free(r->gen.cl_idx);
    free(r->gen.skipped);
    free(r->gen.rz);
    free(r->cov.delta);
    free(r->cov.record);
    pni_por_free(r->por);
    pni_ltl_lassos_free(r);
    pni_sym_free(r->sym);
    free(r->sym_m);
    free(r);
}

/* ---- breadth-first search ------------------------------------------------
 */

typedef struct {
    uint32_t from;
    size_t nsucc0;   /* graph: where this state's successors start */
    pn_status_t st;
    uint64_t nedges; /* successors of this state */
} expand_t;

/* Whether state s holds at most m in every place (m strictly covers it
 * when they differ). */
static int covered_by(const pn_reach_t *r, uint32_t s, const uint64_t *m)
{
    uint64_t *c = r->store.cmp;
    pni_store_marking(r, s, c);
    for (uint32_t p = 0; p < r->np; p++)
        if (c[p] > m[p])
            return 0;
    return 1;
}

static uint64_t total_of(const pn_reach_t *r, uint32_t s)
{
    uint64_t *c = r->store.cmp, t = 0;
    pni_store_marking(r, s, c);
    for (uint32_t p = 0; p < r->np; p++)
        t += c[p];
    return t;
}

/* The new state 'to' (marking m, reached by firing set): when it is a
 * record of the total along its path, does it strictly cover one of the
 * records before it? */
static void check_cover(pn_reach_t *r, uint32_t to, const uint64_t *m,
                        const uint32_t *set, size_t n)
{
    uint32_t from = r->graph.parent[to];
    if (from == NO_STATE) {
        r->cov.record[to] = to;
        return;
    }
    uint32_t last = r->cov.record[from];
    r->cov.record[to] = last;
    int64_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += r->cov.delta[set[i]];
    if (d <= 0)
        return; /* no more than its parent: no record */
    uint64_t t = 0;
    for (uint32_t p = 0; p < r->np; p++)
        t += m[p];
    if (t <= total_of(r, last))
        return;
    r->cov.record[to] = to;
    for (uint32_t s = last; s != NO_STATE;
         s = r->graph.parent[s] == NO_STATE
                 ? NO_STATE
                 : r->cov.record[r->graph.parent[s]])
        if (covered_by(r, s, m)) {
            r->cov.cover = to;
            r->cov.covered = s;
            return;
        }
}

int pni_search_visit(pn_reach_t *r, const uint32_t *set, size_t n,
                        const uint64_t *next, void *ctx)
{
    expand_t *x = ctx;
    for (size_t i = 0; i < n; i++)
        r->found.fires[set[i]] = 1;
    uint32_t to;
    int added;
    if (r->sem == PN_SEM_INTERLEAVING) /* differs in set[0]'s places */
        x->st = pni_store_find_or_add(
            r, next, x->from, r->gen.chg_idx + r->gen.chg_off[set[0]],
            r->gen.chg_off[set[0] + 1] - r->gen.chg_off[set[0]], &to, &added);
    else
        x->st = pni_store_find_or_add(r, next, x->from, NULL, 0, &to, &added);
    if (x->st)
        return 1;
    if (r->sem == PN_SEM_INTERLEAVING)
        pni_tick(r);
    /* a search that stops at a marking just stored counts its edge */
    if (added && r->limits.token_bound &&
        r->found.max_place > r->limits.token_bound) {
        r->limits.limit = PN_REACH_TOKEN_BOUND;
        x->nedges++;
        return 1;
    }
    if (added && r->cov.check) {
        check_cover(r, to, next, set, n);
        if (r->cov.cover != NO_STATE) {
            x->nedges++;
            return 1;
        }
    }
    if (added && r->limits.hook &&
        r->limits.hook(r, to, next, r->limits.hook_ctx)) {
        r->limits.stopped = 1;
        x->nedges++;
        return 1;
    }
    if (r->graph.keep_graph) {
        /* maximal: distinct successor markings (several sets may reach the
         * same one; a marking just added is new); interleaving: one edge
         * per transition */
        if (r->sem == PN_SEM_MAXIMAL && !added)
            for (size_t k = x->nsucc0; k < r->graph.nsucc; k++)
                if (r->graph.succ[k] == to)
                    return 0;
        if (r->graph.nsucc == r->graph.cap_succ &&
            pni_over_memory(r, 4 * (r->graph.cap_succ + 16))) {
            x->st = PN_ETOOBIG;
            return 1;
        }
        if (pni_grow((void **)&r->graph.succ, &r->graph.cap_succ,
                     r->graph.nsucc + 1, sizeof *r->graph.succ)) {
            x->st = PN_ENOMEM;
            return 1;
        }
        r->graph.succ[r->graph.nsucc++] = to;
    }
    x->nedges++;
    return 0;
}

static pn_status_t setup(pn_reach_t *r, const pn_net_t *net,
                         const pn_reach_options_t *o)
{
    pn_status_t st = pn_engine_compile(net, &r->engine);
    if (st)
        return st;
    r->np = (uint32_t)pn_net_place_count(net);
    r->nt = (uint32_t)pn_net_transition_count(net);
    r->sem = o->semantics;
    r->graph.keep_graph = o->graph || o->semantics == PN_SEM_MAXIMAL;
    r->found.first_dead = NO_STATE;
    size_t np = r->np + 1, nt = r->nt + 1;
    r->found.bound = calloc(np, sizeof *r->found.bound);
    r->found.lowest = malloc(np * sizeof *r->found.lowest);
    r->found.fires = calloc(nt, 1);
    r->gen.m = malloc(np * sizeof *r->gen.m);
    r->gen.pend = calloc(np, sizeof *r->gen.pend);
    r->gen.next = malloc(np * sizeof *r->gen.next);
    r->gen.tmp = malloc(np * sizeof *r->gen.tmp);
    r->store.key = malloc(np * sizeof(uint64_t));
    r->store.cmp = malloc(np * sizeof *r->store.cmp);
    r->lay.bits = malloc(np);
    r->lay.lim = malloc(np * sizeof *r->lay.lim);
    r->lay.off = malloc(np * sizeof *r->lay.off);
    r->store.pkey = malloc(np * sizeof *r->store.pkey);
    r->gen.undo = malloc(np * sizeof *r->gen.undo);
    r->store.pkey_for = NO_STATE;
    r->gen.en = malloc(nt * sizeof *r->gen.en);
    r->gen.set = malloc(nt * sizeof *r->gen.set);
    r->gen.use = calloc(np, sizeof *r->gen.use);
    r->gen.competes = malloc(nt);
    if (!r->found.bound || !r->found.lowest || !r->found.fires || !r->gen.m ||
        !r->gen.pend || !r->gen.next || !r->gen.tmp || !r->store.key ||
        !r->gen.en || !r->gen.set || !r->gen.use || !r->gen.competes ||
        !r->store.cmp || !r->lay.bits || !r->lay.lim || !r->lay.off ||
        !r->store.pkey || !r->gen.undo)
        return PN_ENOMEM;
    if ((st = pni_store_first_layout(r, net)))
        return st;
    if (r->sem == PN_SEM_MAXIMAL) {
        /* a budget and its promises for each level of the search */
        size_t words = 2 * (nt + 1) * np;
        if (words / np != 2 * (nt + 1) ||
            !(r->gen.stack = malloc(words * sizeof *r->gen.stack)))
            return PN_ENOMEM;
        if ((st = pni_successors_setup(r, net)))
            return st;
    }
    for (size_t p = 0; p < np; p++)
        r->found.lowest[p] = UINT64_MAX;
    r->limits.max_memory = o->max_memory;
    r->limits.max_states = o->max_states;
    r->limits.token_bound = o->token_bound;
    r->limits.progress = o->progress;
    r->limits.progress_ctx = o->progress_ctx;
    r->limits.ticks = TICKS;
    r->cov.cover = r->cov.covered = NO_STATE;
    if (o->unbounded && o->semantics == PN_SEM_INTERLEAVING) {
        /* monotone nets only: normal and read arcs, no capacities */
        int monotone = 1;
        if (!(r->cov.delta = calloc(nt, sizeof *r->cov.delta)))
            return PN_ENOMEM;
        for (size_t a = 0; a < pn_net_arc_count(net); a++) {
            const pn_arc_t *arc = pn_net_arc(net, a);
            if (arc->kind == PN_ARC_INHIBITOR || arc->kind == PN_ARC_RESET)
                monotone = 0;
            else if (arc->kind == PN_ARC_NORMAL) {
                int64_t w = arc->weight > INT64_MAX / 4 ? INT64_MAX / 4
                                                        : (int64_t)arc->weight;
                r->cov.delta[arc->transition] +=
                    arc->dir == PN_DIR_TP ? w : -w;
            }
        }
        for (size_t p = 0; p < r->np; p++)
            if (pn_net_place(net, p)->capacity)
                monotone = 0;
        int grows = 0;
        for (size_t t = 0; t < r->nt; t++)
            grows |= r->cov.delta[t] > 0;
        /* no transition adds tokens: the total never grows, bounded;
         * every place within a semiflow's bound: bounded */
        r->cov.check = monotone && grows && !r->cov.bounded;
    }
    r->graph.keep_parent = !o->no_paths || r->cov.check;
    return pni_store_rehash(r, 1024);
}

/* A search stopped because every query was decided leaves the markings
 * from state from on unexpanded (from itself partly).  Looking at what
 * they enable (no successor is stored) makes the dead markings and the
 * transitions that fire those of every marking found, the answers'
 * witnesses among them: a dead witness of EF deadlock is counted, and a
 * transition fireable there is not left "not fired". */
static void look_at_unexpanded(pn_reach_t *r, size_t from)
{
    for (size_t s = from; s < r->store.nstates; s++) {
        pni_store_marking(r, s, r->gen.tmp);
        int any = 0;
        for (uint32_t t = 0; t < r->nt; t++)
            if (pni_engine_enabled(r->engine, r->gen.tmp, t))
                any = r->found.fires[t] = 1;
        if (!any) {
            if (r->found.first_dead == NO_STATE)
                r->found.first_dead = (uint32_t)s;
            r->found.dead++;
        }
    }
}

/* Symmetry (symmetry.c): the store keeps one marking per orbit.  A
 * marking covering an ancestor in the quotient is no path of the net:
 * no unboundedness check. */
static pn_status_t sym_setup(pn_reach_t *r, const pn_net_t *net,
                             const pn_query_set_t *qs)
{
    r->sym_asked = 1;
    pn_status_t st = pni_sym_new(net, qs, &r->sym);
    if (st || !r->sym)
        return st;
    r->cov.check = 0;
    r->sym_m = malloc(((size_t)r->np + 1) * sizeof *r->sym_m);
    return r->sym_m ? PN_OK : PN_ENOMEM;
}

/* What the representatives say of every marking (symmetry). */
static void sym_close(pn_reach_t *r)
{
    if (r->sym)
        pni_sym_close(r->sym, r->found.bound, r->found.lowest,
                      r->found.fires);
}

uint64_t pn_reach_symmetry(const pn_reach_t *r)
{
    return !r || !r->sym_asked ? 0 : pni_sym_order(r->sym);
}

void pni_fly_options(const pn_reach_options_t *o, pn_reach_options_t *oc)
{
    if (o)
        *oc = *o;
    else
        pn_reach_options_init(oc);
    oc->graph = 0;
    oc->no_paths = 1;
    oc->unbounded = 0;
    oc->stubborn = 0;
    oc->progress = NULL;
}

pn_status_t pni_search(const pn_net_t *net, const pn_reach_options_t *o,
                           int (*hook)(pn_reach_t *, uint32_t,
                                       const uint64_t *, void *),
                           void *ctx, pn_reach_t **out)
{
    return pni_search_queries(net, o, NULL, NULL, hook, ctx, out);
}

pn_status_t pni_search_queries(const pn_net_t *net,
                               const pn_reach_options_t *o,
                               const pn_query_set_t *qs,
                               const pn_query_answer_t *answers,
                               int (*hook)(pn_reach_t *, uint32_t,
                                           const uint64_t *, void *),
                               void *ctx, pn_reach_t **out)
{
    pn_reach_options_t defaults;
    if (!o) {
        pn_reach_options_init(&defaults);
        o = &defaults;
    }
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    pn_reach_t *r = calloc(1, sizeof *r);
    if (!r)
        return PN_ENOMEM;
    r->limits.hook = hook;
    r->limits.hook_ctx = ctx;
    pn_status_t st = setup(r, net, o);
    if (!st && o->symmetry)
        st = sym_setup(r, net, qs);
    /* NULL (a CTL query, no memory): every successor */
    if (!st && qs && o->stubborn && r->sem == PN_SEM_INTERLEAVING && !r->sym)
        r->por = pni_por_new(r, net, qs, answers);
    uint32_t first;
    int added;
    for (size_t p = 0; !st && p < r->np; p++)
        r->gen.m[p] = pn_net_place(net, p)->marking;
    if (!st)
        st = pni_store_find_or_add(r, r->gen.m, NO_STATE, NULL, 0, &first,
                                   &added);
    if (!st && r->cov.check)
        r->cov.record[0] = 0;
    if (st == PN_ETOOBIG) {
        st = PN_OK;
        r->found.end = PN_REACH_MAX_MEMORY;
        *out = r;
        return PN_OK;
    }
    if (!st && hook && hook(r, 0, r->gen.m, ctx)) {
        r->found.end = r->limits.timed_out ? PN_REACH_TIME_LIMIT
                                           : PN_REACH_DECIDED;
        if (!r->limits.timed_out)
            look_at_unexpanded(r, 0);
        sym_close(r);
        *out = r;
        return PN_OK;
    }
    if (!st && pni_grow((void **)&r->graph.succ_off, &r->graph.cap_off, 1,
                        sizeof *r->graph.succ_off))
        st = PN_ENOMEM;
    if (!st)
        r->graph.succ_off[0] = 0;
    for (size_t i = 0; !st && i < r->store.nstates; i++) {
        pni_store_marking(r, i, r->gen.m);
        expand_t x = {(uint32_t)i, r->graph.nsucc, PN_OK, 0};
        int ret = pni_successors(r, r->gen.m, pni_search_visit, &x);
        if (ret < 0) {
            r->found.end = PN_REACH_OVERFLOW;
            break;
        }
        if (ret > 0) {
            /* the edges to the markings stored before the search stopped
             * within this one's successors */
            r->found.edges += x.nedges;
            if (r->limits.limit != PN_REACH_COMPLETE) {
                r->found.end = r->limits.limit;
                break;
            }
            if (r->cov.cover != NO_STATE) {
                r->found.end = PN_REACH_UNBOUNDED;
                break;
            }
            if (r->limits.stopped && r->limits.timed_out) {
                r->found.end = PN_REACH_TIME_LIMIT;
                break;
            }
            if (r->limits.stopped) {
                r->found.end = PN_REACH_DECIDED;
                look_at_unexpanded(r, i);
                break;
            }
            st = x.st ? x.st : PN_ENOMEM;
            if (st == PN_ERANGE) {
                st = PN_OK;
                r->found.end = PN_REACH_MAX_STATES;
            } else if (st == PN_ETOOBIG) {
                st = PN_OK;
                r->found.end = PN_REACH_MAX_MEMORY;
            }
            break;
        }
        if (r->graph.keep_graph) {
            if (pni_grow((void **)&r->graph.succ_off, &r->graph.cap_off, i + 2,
                         sizeof *r->graph.succ_off)) {
                st = PN_ENOMEM;
                break;
            }
            r->graph.succ_off[i + 1] = r->graph.nsucc;
        }
        r->found.edges += x.nedges;
        r->found.expanded = i + 1;
        /* a stubborn set may fire nothing where transitions are enabled */
        if (r->por ? r->gen.enabled == 0 : x.nedges == 0) {
            if (r->found.first_dead == NO_STATE)
                r->found.first_dead = (uint32_t)i;
            r->found.dead++;
        }
        if (o->token_bound && r->found.max_place > o->token_bound) {
            r->found.end = PN_REACH_TOKEN_BOUND;
            break;
        }
        pni_tick(r);
    }
    if (st) {
        pn_reach_free(r);
        return st;
    }
    sym_close(r);
    *out = r;
    return PN_OK;
}

pn_status_t pn_reach_explore(const pn_net_t *net, const pn_reach_options_t *o,
                             pn_reach_t **out)
{
    return pni_search(net, o, NULL, NULL, out);
}

void pn_reach_path_free(pn_reach_path_t *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nsteps; i++)
        free(p->steps[i]);
    free(p->steps);
    free(p->n_in_step);
    free(p);
}

typedef struct {
    const uint64_t *want;
    uint32_t *found;
    size_t n;
    uint64_t *reached;  /* symmetry: the marking the step reaches */
} match_t;

static int on_match(pn_reach_t *r, const uint32_t *set, size_t n,
                    const uint64_t *next, void *ctx)
{
    match_t *mt = ctx;
    const uint64_t *m = next;
    if (r->sym) {
        /* the state stands for its orbit: a step to any of it */
        pni_sym_canon(r->sym, next, r->sym_m);
        m = r->sym_m;
    }
    if (memcmp(m, mt->want, r->np * sizeof *next))
        return 0;
    if (mt->reached)
        memcpy(mt->reached, next, r->np * sizeof *next);
    mt->found = malloc((n + 1) * sizeof *mt->found);
    if (mt->found)
        memcpy(mt->found, set, n * sizeof *set);
    mt->n = n;
    return 1;
}

/* The path through the states chain[0..len) (each a successor of the one
 * before): the step between each pair is found again by recomputing the
 * pni_successors, so no step is stored per state.  With symmetry the
 * path follows the net's markings, each in the orbit of its state (the
 * first one, the initial marking, is its own orbit's
 * representative). */
pn_status_t pni_path_of(const pn_reach_t *rc, const uint32_t *chain,
                           size_t len, pn_reach_path_t **out)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    pn_reach_path_t *p = calloc(1, sizeof *p);
    if (!p)
        return PN_ENOMEM;
    size_t n = len ? len - 1 : 0;
    p->steps = calloc(n + 1, sizeof *p->steps);
    p->n_in_step = calloc(n + 1, sizeof *p->n_in_step);
    if (!p->steps || !p->n_in_step) {
        pn_reach_path_free(p);
        return PN_ENOMEM;
    }
    uint64_t *want = malloc((r->np + 1) * sizeof *want);
    uint64_t *at = malloc((r->np + 1) * sizeof *at);
    if (!want || !at) {
        free(want);
        free(at);
        pn_reach_path_free(p);
        return PN_ENOMEM;
    }
    if (len)
        pni_store_marking(r, chain[0], at);
    for (size_t i = 0; i < n; i++) {
        pni_store_marking(r, chain[i + 1], want);
        if (r->sym)
            memcpy(r->gen.m, at, r->np * sizeof *at);
        else
            pni_store_marking(r, chain[i], r->gen.m);
        match_t mt = {want, NULL, 0, r->sym ? at : NULL};
        pni_successors(r, r->gen.m, on_match, &mt);
        if (!mt.found) {
            free(want);
            free(at);
            pn_reach_path_free(p);
            return PN_ENOMEM;
        }
        p->steps[i] = mt.found;
        p->n_in_step[i] = mt.n;
        p->nsteps++;
    }
    free(want);
    free(at);
    *out = p;
    return PN_OK;
}

pn_status_t pn_reach_path(const pn_reach_t *r, uint64_t state,
                          pn_reach_path_t **out)
{
    if (!r || !out || state >= r->store.nstates || !r->graph.keep_parent)
        return PN_EINVAL;
    size_t len = 0;
    for (uint32_t s = (uint32_t)state; s != NO_STATE; s = r->graph.parent[s])
        len++;
    uint32_t *chain = malloc((len + 1) * sizeof *chain);
    if (!chain)
        return PN_ENOMEM;
    size_t k = len;
    for (uint32_t s = (uint32_t)state; s != NO_STATE; s = r->graph.parent[s])
        chain[--k] = s;
    pn_status_t st = pni_path_of(r, chain, len, out);
    free(chain);
    return st;
}

pn_status_t pn_reach_dead_path(const pn_reach_t *r, pn_reach_path_t **out)
{
    if (!r || !out || r->found.first_dead == NO_STATE)
        return PN_EINVAL;
    return pn_reach_path(r, r->found.first_dead, out);
}

uint64_t pn_reach_depth(const pn_reach_t *r, uint64_t state)
{
    uint64_t d = 0;
    if (!r || state >= r->store.nstates || !r->graph.keep_parent)
        return 0;
    for (uint32_t s = r->graph.parent[state]; s != NO_STATE;
         s = r->graph.parent[s])
        d++;
    return d;
}

int pn_reach_unbounded(const pn_reach_t *r, uint64_t *cover,
                       uint64_t *covered)
{
    if (!r || r->found.end != PN_REACH_UNBOUNDED)
        return 0;
    if (cover)
        *cover = r->cov.cover;
    if (covered)
        *covered = r->cov.covered;
    return 1;
}

int pn_reach_dead_state(const pn_reach_t *r, uint64_t state)
{
    if (!r || state >= r->store.nstates)
        return 0;
    pn_reach_t *w = (pn_reach_t *)r; /* scratch buffer only */
    pni_store_marking(w, (size_t)state, w->gen.tmp);
    for (uint32_t t = 0; t < r->nt; t++)
        if (pni_engine_enabled(r->engine, w->gen.tmp, t))
            return 0;
    return 1;
}
