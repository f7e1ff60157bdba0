/*
 * CTL on the fly: a local algorithm that computes a formula's value at
 * the initial marking only, exploring the markings as its operators ask
 * for them, and stops as soon as that value is known.
 *
 * Each subformula has a value per marking, unknown until a search fixes
 * it for good.  The least fixed points are searched depth first from the
 * marking asked about: E [ a U b ] (EF: a true) stops at the first b
 * marking reached through a markings, and the markings on the path to it
 * are true; when the search runs out, every marking it visited is false
 * (no b is reachable from them through a).  A [ a U b ] (AF: a true)
 * stops at the first marking that refutes it: one where neither a nor b
 * holds, a dead one where b fails, or a cycle through markings where b
 * fails (a path that never meets b); the markings on the search's stack
 * all reach it and are false (the certain zeros), and a marking whose
 * successors all came back true is true.  EX and AX look at the
 * successors (at a dead marking EX f is false and AX f true), EG f is not
 * AF not f and AG f not EF not f: the deadlock convention of ctl.c, whose
 * global fixed points this algorithm is tested against.  Negation and
 * the connectives take their operands' values, computed first (the
 * operands are the lower strata: a search never waits on itself).
 *
 * The markings are those of one search (pn_reach_t), opened at the
 * initial marking and never run: the local algorithm stores each
 * successor it computes there, so every formula of a run shares them and
 * their edges.  The clock and the search's limits stop it; the formula is
 * then unknown.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

enum { V_UNKNOWN = 0, V_FALSE = 1, V_TRUE = 2, V_BUSY = 3 };
enum { L_ATOM = 100 }; /* a node with no temporal operator */
#define NO_NODE UINT32_MAX
#define NOT_EXPANDED UINT64_MAX
/* the clock is read every this many steps of a search */
#define CLOCK_EVERY 1024

/* A node of the formula: an atom, a connective, or EX AX EF AF EU AU
 * (EG and AG are written with AF and EF). */
typedef struct {
    int kind;
    const pn_qformula_t *atom;
    uint32_t *kids;
    size_t nkids;
    unsigned char *val;    /* per marking: V_* */
    size_t cap;
} lnode_t;

/* A frame of a depth-first search: a marking and its next edge. */
typedef struct {
    uint32_t s, k;
} frame_t;

struct pni_lctl {
    pn_reach_t *r;
    /* the successors of marking s: succ[off[s] .. off[s] + deg[s])
     * (off[s] NOT_EXPANDED until computed) */
    uint64_t *off;
    uint32_t *deg;
    size_t cap_states;
    uint32_t *succ;
    size_t nsucc, cap_succ;
    uint64_t *m;           /* scratch: a marking whose atoms are read */
    pn_status_t err;       /* what stopped a successor's storing */
    int stop;              /* the clock or a limit: unknown */
    double deadline;
    uint32_t ticks;
    uint64_t expanded;
    /* the formula being checked */
    lnode_t *nodes;
    size_t nnodes, cap_nodes;
    /* the path of its answer at the top operator: the node whose
     * decision at the initial marking shows one (NO_NODE: none), the
     * states of the path when it did, its loop (pn_reach_ctl_path()) */
    uint32_t path_node;
    uint32_t *chain;
    size_t len, loop;
};
typedef struct pni_lctl lctl_t;

/* ---- the markings and their successors ---------------------------------- */

static int opened(pn_reach_t *r, uint32_t s, const uint64_t *m, void *ctx)
{
    (void)r, (void)s, (void)m, (void)ctx;
    return 1; /* the initial marking only: the rest on demand */
}

pn_status_t pni_lctl_new(const pn_net_t *net, const pn_reach_options_t *o,
                         pni_lctl_t **out)
{
    pn_reach_options_t oc;
    pni_fly_options(o, &oc);
    *out = NULL;
    lctl_t *c = calloc(1, sizeof *c);
    if (!c)
        return PN_ENOMEM;
    pn_status_t st = pni_search(net, &oc, opened, NULL, &c->r);
    if (!st && !(c->m = malloc((c->r->np + 1) * sizeof *c->m)))
        st = PN_ENOMEM;
    if (st) {
        pni_lctl_free(c);
        return st;
    }
    c->r->limits.hook = NULL;
    *out = c;
    return PN_OK;
}

void pni_lctl_free(pni_lctl_t *c)
{
    if (!c)
        return;
    pn_reach_free(c->r);
    free(c->off);
    free(c->deg);
    free(c->succ);
    free(c->m);
    free(c->chain);
    free(c);
}

uint64_t pni_lctl_states(const pni_lctl_t *c)
{
    return c->r->store.nstates;
}

/* The clock, every CLOCK_EVERY steps: 1 when it is past the deadline. */
static int late(lctl_t *c)
{
    if (c->stop)
        return 1;
    if ((c->ticks++ & (CLOCK_EVERY - 1)) == 0 && c->deadline > 0 &&
        pni_clock() > c->deadline)
        c->stop = 1;
    return c->stop;
}

static int store_succ(pn_reach_t *r, const uint32_t *set, size_t n,
                      const uint64_t *next, void *ctx)
{
    (void)set, (void)n;
    lctl_t *c = ctx;
    uint32_t to;
    int added;
    pn_status_t st = pni_store_find_or_add(r, next, NO_STATE, NULL, 0, &to,
                                           &added);
    if (!st && pni_grow((void **)&c->succ, &c->cap_succ, c->nsucc + 1,
                        sizeof *c->succ))
        st = PN_ENOMEM;
    if (st) {
        c->err = st;
        return 1;
    }
    c->succ[c->nsucc++] = to;
    return 0;
}

/* Computes the successors of s (once): 0, or -1 when stopped (the clock,
 * a limit, an overflow, out of memory: c->err). */
static int expand(lctl_t *c, uint32_t s)
{
    if (s < c->cap_states && c->off[s] != NOT_EXPANDED)
        return 0;
    if (late(c))
        return -1;
    pn_reach_t *r = c->r;
    size_t need = r->store.nstates + 1;
    if (need > c->cap_states) {
        size_t cap = need + need / 2 + 1024;
        uint64_t *off = realloc(c->off, cap * sizeof *off);
        if (off)
            c->off = off;
        uint32_t *deg = realloc(c->deg, cap * sizeof *deg);
        if (deg)
            c->deg = deg;
        if (!off || !deg) {
            c->err = PN_ENOMEM;
            return c->stop = -1;
        }
        for (size_t i = c->cap_states; i < cap; i++)
            c->off[i] = NOT_EXPANDED;
        c->cap_states = cap;
    }
    size_t first = c->nsucc;
    pni_store_marking(r, s, r->gen.m);
    int ret = pni_successors(r, r->gen.m, store_succ, c);
    if (ret) {
        /* an overflow, the state or memory limit, no memory */
        c->nsucc = first;
        c->stop = 1;
        return -1;
    }
    c->off[s] = first;
    c->deg[s] = (uint32_t)(c->nsucc - first);
    c->expanded++;
    return 0;
}

/* ---- the formula's nodes ------------------------------------------------ */

static long add_node(lctl_t *c, int kind, const pn_qformula_t *atom,
                     size_t nkids)
{
    if (pni_grow((void **)&c->nodes, &c->cap_nodes, c->nnodes + 1,
                 sizeof *c->nodes))
        return -1;
    lnode_t *n = &c->nodes[c->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->atom = atom;
    n->nkids = nkids;
    if (nkids && !(n->kids = calloc(nkids, sizeof *n->kids)))
        return -1;
    return (long)c->nnodes++;
}

/* The nodes of f (EG f: not AF not f, AG f: not EF not f); its index, or
 * -1 out of memory. */
static long build(lctl_t *c, const pn_qformula_t *f)
{
    if (!pni_qformula_temporal(f))
        return add_node(c, L_ATOM, f, 0);
    int kind = (int)f->kind;
    int dual = kind == PN_QF_EG || kind == PN_QF_AG;
    long top = -1, n;
    if (dual) {
        if ((top = add_node(c, PN_QF_NOT, NULL, 1)) < 0)
            return -1;
        kind = kind == PN_QF_EG ? PN_QF_AF : PN_QF_EF;
    }
    if ((n = add_node(c, kind, NULL, f->nkids)) < 0)
        return -1;
    if (dual)
        c->nodes[top].kids[0] = (uint32_t)n;
    for (size_t i = 0; i < f->nkids; i++) {
        long k = -1, neg = -1;
        if (dual && (neg = add_node(c, PN_QF_NOT, NULL, 1)) < 0)
            return -1;
        if ((k = build(c, f->kids[i])) < 0)
            return -1;
        if (dual) {
            c->nodes[neg].kids[0] = (uint32_t)k;
            k = neg;
        }
        c->nodes[n].kids[i] = (uint32_t)k;
    }
    return dual ? top : n;
}

static void free_nodes(lctl_t *c)
{
    for (size_t i = 0; i < c->nnodes; i++) {
        free(c->nodes[i].kids);
        free(c->nodes[i].val);
    }
    free(c->nodes);
    c->nodes = NULL;
    c->nnodes = c->cap_nodes = 0;
}

static unsigned char get(const lctl_t *c, uint32_t node, uint32_t s)
{
    const lnode_t *n = &c->nodes[node];
    return s < n->cap ? n->val[s] : V_UNKNOWN;
}

/* Sets node's value at s: 0, or -1 out of memory. */
static int set(lctl_t *c, uint32_t node, uint32_t s, unsigned char v)
{
    lnode_t *n = &c->nodes[node];
    if (s >= n->cap) {
        size_t cap = c->r->store.nstates + c->r->store.nstates / 2 + 1024;
        unsigned char *val = realloc(n->val, cap);
        if (!val) {
            c->err = PN_ENOMEM;
            return c->stop = -1;
        }
        memset(val + n->cap, V_UNKNOWN, cap - n->cap);
        n->val = val;
        n->cap = cap;
    }
    n->val[s] = v;
    return 0;
}

/* ---- the evaluation ------------------------------------------------------ */

/* A search's stack and the markings it visited. */
typedef struct {
    frame_t *f;
    size_t n, cap;
    uint32_t *seen;
    size_t nseen, cap_seen;
} dfs_t;

static void dfs_free(dfs_t *d)
{
    free(d->f);
    free(d->seen);
}

static int eval(lctl_t *c, uint32_t node, uint32_t s);

/* Whether the node's until is refuted (AU), resp. met (EU), at once at
 * u, or u goes on the stack: 0 refuted or pruned, 1 met, 2 pushed, -1
 * stopped. */
static int enter(lctl_t *c, uint32_t node, uint32_t u, dfs_t *d)
{
    const lnode_t *n = &c->nodes[node];
    int all = n->kind == PN_QF_AF || n->kind == PN_QF_AU;
    unsigned char v = get(c, node, u);
    if (v != V_UNKNOWN)
        return v == V_TRUE; /* busy: a cycle (AU), seen already (EU) */
    int x = eval(c, n->kids[n->nkids - 1], u);
    if (x)
        return x < 0 || set(c, node, u, V_TRUE) ? -1 : 1;
    if (n->nkids == 2 && (x = eval(c, n->kids[0], u)) <= 0)
        return x < 0 || set(c, node, u, V_FALSE) ? -1 : 0;
    if (expand(c, u))
        return -1;
    if (all && c->deg[u] == 0) /* a path ends here short of the goal */
        return set(c, node, u, V_FALSE) ? -1 : 0;
    if (set(c, node, u, V_BUSY) ||
        pni_grow((void **)&d->f, &d->cap, d->n + 1, sizeof *d->f) ||
        pni_grow((void **)&d->seen, &d->cap_seen, d->nseen + 1,
                 sizeof *d->seen)) {
        c->err = PN_ENOMEM;
        return c->stop = -1;
    }
    d->f[d->n].s = u;
    d->f[d->n++].k = 0;
    d->seen[d->nseen++] = u;
    return 2;
}

/* Sets the value of every marking on the stack. */
static int settle_stack(lctl_t *c, uint32_t node, const dfs_t *d,
                        unsigned char v)
{
    for (size_t i = 0; i < d->n; i++)
        if (set(c, node, d->f[i].s, v))
            return -1;
    return 0;
}

/* The path of the top operator's decision: the stack, then u, the
 * marking that decided (EU: it meets the goal; AU: it is on the stack, a
 * cycle, or neither operand holds there, or it is dead).  Without memory
 * or time to say which, no path. */
static void keep_chain(lctl_t *c, uint32_t node, const dfs_t *d, uint32_t u,
                       int all)
{
    free(c->chain);
    c->len = 0;
    if (!(c->chain = malloc((d->n + 2) * sizeof *c->chain)))
        return;
    size_t k = 0, at = PN_REACH_NO_LOOP;
    for (size_t i = 0; i < d->n; i++) {
        if (d->f[i].s == u && all)
            at = i;
        c->chain[k++] = d->f[i].s;
    }
    c->chain[k++] = u;
    if (all && at == PN_REACH_NO_LOOP) {
        const lnode_t *n = &c->nodes[node];
        int x = n->nkids == 2 ? eval(c, n->kids[0], u) : 1;
        if (x < 0)
            return;
        if (x) /* a dead end: the left holds, the goal fails */
            at = k - 1;
    }
    c->len = k;
    c->loop = at;
}

/* Whether node's value at u is known to decide the search that reaches
 * it: AU refuted there (false, or on the stack: a cycle), EU met (true).
 * Values only, no evaluation. */
static int decisive(const lctl_t *c, uint32_t node, uint32_t u, int all)
{
    unsigned char v = get(c, node, u);
    return all ? v == V_FALSE || v == V_BUSY : v == V_TRUE;
}

/* The successors of the frame just pushed at s: one whose value already
 * decides the search moved first (AU: a cycle back onto the stack, or a
 * marking known false; EU: one known true), so that it closes the search
 * before a dive away from it.  The order of a marking's successors means
 * nothing to the other nodes. */
static void decisive_first(lctl_t *c, uint32_t node, uint32_t s, int all)
{
    uint32_t *u = c->succ + c->off[s];
    for (uint32_t k = 1; k < c->deg[s]; k++)
        if (decisive(c, node, u[k], all) && !decisive(c, node, u[0], all)) {
            uint32_t x = u[0];
            u[0] = u[k];
            u[k] = x;
            return;
        }
}

/* EU and EF (all 0), AU and AF (all 1) at s, depth first. */
static int until(lctl_t *c, uint32_t node, uint32_t s, int all)
{
    dfs_t d = {0};
    uint32_t last = s; /* the marking entered last */
    int r = enter(c, node, s, &d);
    while (r == 2 && d.n) {
        frame_t *t = &d.f[d.n - 1];
        if (t->k == c->deg[t->s]) {
            /* AU: every successor is true; EU: none met the goal */
            if (all && set(c, node, t->s, V_TRUE))
                r = -1;
            d.n--;
            continue;
        }
        if (t->k == 0)
            decisive_first(c, node, t->s, all);
        uint32_t u = c->succ[c->off[t->s] + t->k++];
        last = u;
        int x = late(c) ? -1 : enter(c, node, u, &d);
        if (x < 0 || x == !all) {
            /* AU refuted, EU met: every marking on the stack leads
             * there */
            r = x < 0 || settle_stack(c, node, &d, all ? V_FALSE : V_TRUE)
                    ? -1 : !all;
        }
    }
    if (r == !all && node == c->path_node)
        keep_chain(c, node, &d, last, all);
    if (r == 2) { /* ran out: AU true at s, EU false everywhere seen */
        r = all;
        for (size_t i = 0; !all && i < d.nseen; i++)
            if (set(c, node, d.seen[i], V_FALSE))
                r = -1;
    } else if (r >= 0 && !all) {
        /* the markings seen off the witness's path are not known */
        for (size_t i = 0; i < d.nseen; i++)
            if (get(c, node, d.seen[i]) == V_BUSY)
                set(c, node, d.seen[i], V_UNKNOWN);
    }
    dfs_free(&d);
    return r;
}

/* EX (all 0) and AX (all 1) at s. */
static int next(lctl_t *c, uint32_t node, uint32_t s, int all)
{
    if (expand(c, s))
        return -1;
    int v = all;
    for (uint32_t k = 0; k < c->deg[s] && v == all; k++) {
        uint32_t u = c->succ[c->off[s] + k];
        int x = eval(c, c->nodes[node].kids[0], u);
        if (x < 0)
            return -1;
        if (x != all)
            v = !all;
        /* the top operator's decision: one step to u */
        if (x != all && node == c->path_node &&
            (c->chain = malloc(3 * sizeof *c->chain))) {
            c->chain[0] = s;
            c->chain[1] = u;
            c->len = 2;
            c->loop = PN_REACH_NO_LOOP;
        }
    }
    return set(c, node, s, v ? V_TRUE : V_FALSE) ? -1 : v;
}

/* Node's value at marking s: 1 true, 0 false, -1 stopped. */
static int eval(lctl_t *c, uint32_t node, uint32_t s)
{
    const lnode_t *n = &c->nodes[node];
    unsigned char v = get(c, node, s);
    if (v == V_TRUE || v == V_FALSE)
        return v == V_TRUE;
    int x;
    switch (n->kind) {
    case L_ATOM:
        pni_store_marking(c->r, s, c->m);
        x = pni_query_holds(c->r, n->atom, c->m);
        return set(c, node, s, x ? V_TRUE : V_FALSE) ? -1 : x;
    case PN_QF_NOT:
        x = eval(c, n->kids[0], s);
        return x < 0 ? x : !x;
    case PN_QF_AND:
    case PN_QF_OR:
        for (size_t i = 0; i < n->nkids; i++) {
            x = eval(c, n->kids[i], s);
            if (x < 0 || x == (n->kind == PN_QF_OR))
                return x;
        }
        return n->kind == PN_QF_AND;
    case PN_QF_EX:
    case PN_QF_AX:
        return next(c, node, s, n->kind == PN_QF_AX);
    default:
        return until(c, node, s, n->kind == PN_QF_AF || n->kind == PN_QF_AU);
    }
}

/* Operand k of the top operator at s: surely want (pni_ctl_path_check()). */
typedef struct {
    lctl_t *c;
    int dual; /* EG and AG: the node's operand is not f's */
} kid_t;

static int local_kid(void *ctx, size_t k, uint32_t s, int want)
{
    const kid_t *kc = ctx;
    int x = eval(kc->c, kc->c->nodes[kc->c->path_node].kids[k], s);
    if (x < 0)
        return 0;
    return (kc->dual ? !x : x) == want;
}

/* The path of f's answer value when its decision kept one: replayed and
 * checked, else none. */
static pn_status_t local_path(lctl_t *c, const pn_qformula_t *f, int value,
                              pn_reach_path_t **path, size_t *loop)
{
    kid_t kc = {c, f->kind == PN_QF_EG || f->kind == PN_QF_AG};
    pn_status_t st = pni_path_of(c->r, c->chain, c->len, path);
    if (!st)
        st = pni_ctl_path_check(c->r, f, value, c->chain, c->len, *path,
                                c->loop, local_kid, &kc);
    if (st) {
        pn_reach_path_free(*path);
        *path = NULL;
        return st == PN_ENOMEM ? st : PN_OK;
    }
    *loop = c->loop;
    return PN_OK;
}

pn_status_t pni_lctl_holds(pni_lctl_t *c, const pn_qformula_t *f,
                           double deadline, int *known, int *value,
                           pn_reach_path_t **path, size_t *loop)
{
    *known = *value = 0;
    if (path)
        *path = NULL;
    if (!c->r->store.nstates) /* the memory limit at the first marking */
        return PN_OK;
    c->deadline = deadline;
    c->stop = 0;
    c->err = PN_OK;
    c->len = 0;
    c->path_node = NO_NODE;
    long root = build(c, f);
    /* the top operator's node (EG and AG: under their not) */
    if (root >= 0 && path && f->kind >= PN_QF_EX && f->kind <= PN_QF_AU)
        c->path_node = f->kind == PN_QF_EG || f->kind == PN_QF_AG
                           ? c->nodes[root].kids[0]
                           : (uint32_t)root;
    int x = root < 0 ? -1 : eval(c, (uint32_t)root, 0);
    pn_status_t st = PN_OK;
    if (x >= 0 && c->len && c->err != PN_ENOMEM)
        st = local_path(c, f, x > 0, path, loop);
    free_nodes(c);
    free(c->chain);
    c->chain = NULL;
    c->len = 0;
    if (root < 0 || c->err == PN_ENOMEM || st == PN_ENOMEM) {
        if (path) {
            pn_reach_path_free(*path);
            *path = NULL;
        }
        return PN_ENOMEM;
    }
    *known = x >= 0;
    *value = x > 0;
    return PN_OK;
}
