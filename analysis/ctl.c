/*
 * CTL over the explored graph: each subformula's set of states by a global
 * fixed point (the textbook algorithm, with a counter per state for the
 * universal operators), on a complete exploration that kept its edges.
 *
 * Paths are maximal: infinite, or finite and ending at a dead marking (no
 * successor).  So at a dead marking EG f holds when f does, AF f and
 * A [ f U g ] only when their goal does; EX f is false there (no
 * successor has f) and AX f, its dual (not EX not f), true.  AG and EF
 * are over the reachable markings.  This is the Model Checking Contest's
 * convention: every CTL answer of its oracle on nets with dead markings
 * agrees with it, and with no other reading of EX and AX there.
 *
 * On a graph a limit cut short (the markings from `nf` on found but not
 * expanded: their successors unknown), each subformula gets two sets: the
 * states where it surely holds (must) and those where it may (may), by
 * the same fixed points with the unexpanded markings taken at their
 * worst, resp. best: EX f, AX f, EG f and the untils are unknown there
 * beyond what f and the goal say.  Negation swaps the two.  A formula
 * must-true at the initial marking is true, may-false false, and any
 * other is left unknown: an answer from a partial graph is never a guess.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

struct pni_ctl {
    pn_reach_t *r;
    size_t n;
    /* states [0, nf) were expanded (their edges are all in the graph);
     * from nf on, found only (nf == n: a complete graph) */
    size_t nf;
    /* the predecessors of state i: pred[pred_off[i] .. pred_off[i + 1]),
     * one per edge (built on the first operator that needs them) */
    uint64_t *pred_off;
    uint32_t *pred;
    uint32_t *queue, *cnt;
    /* the formula's atoms (its greatest subformulas with no temporal
     * operator) and their values, natoms * n bytes: every marking is
     * unpacked once */
    const pn_qformula_t **atoms;
    size_t natoms;
    unsigned char *values;
};
typedef struct pni_ctl ctl_t;

static size_t count_atoms(const pn_qformula_t *f, const pn_qformula_t **out,
                          size_t k)
{
    if (!pni_qformula_temporal(f)) {
        if (out)
            out[k] = f;
        return k + 1;
    }
    for (size_t i = 0; i < f->nkids; i++)
        k = count_atoms(f->kids[i], out, k);
    return k;
}

static pn_status_t eval_atoms(ctl_t *c, const pn_qformula_t *f)
{
    c->natoms = count_atoms(f, NULL, 0);
    c->atoms = malloc(c->natoms * sizeof *c->atoms);
    c->values = malloc(c->natoms * c->n + 1);
    if (!c->atoms || !c->values)
        return PN_ENOMEM;
    count_atoms(f, c->atoms, 0);
    for (size_t i = 0; i < c->n; i++) {
        pni_store_marking(c->r, i, c->r->gen.m);
        for (size_t k = 0; k < c->natoms; k++)
            c->values[k * c->n + i] = (unsigned char)pni_query_holds(
                c->r, c->atoms[k], c->r->gen.m);
    }
    return PN_OK;
}

/* The number of edges out of state i: 0 for a state not expanded, so
 * that the fixed points below see it as a state with no known edge (each
 * operator then sets its value there itself). */
static uint64_t outdeg(const ctl_t *c, size_t i)
{
    if (i >= c->nf)
        return 0;
    return c->r->graph.succ_off[i + 1] - c->r->graph.succ_off[i];
}

static pn_status_t predecessors(ctl_t *c)
{
    if (c->pred)
        return PN_OK;
    const pni_graph_t *g = &c->r->graph;
    c->pred_off = calloc(c->n + 2, sizeof *c->pred_off);
    c->pred = malloc((g->nsucc + 1) * sizeof *c->pred);
    c->queue = malloc((c->n + 1) * sizeof *c->queue);
    c->cnt = malloc((c->n + 1) * sizeof *c->cnt);
    if (!c->pred_off || !c->pred || !c->queue || !c->cnt)
        return PN_ENOMEM;
    /* the edges of the expanded states only (a state the limit stopped
     * in the middle of has some of its edges stored past succ_off[nf]) */
    uint64_t nedges = c->nf ? g->succ_off[c->nf] : 0;
    for (uint64_t k = 0; k < nedges; k++)
        c->pred_off[g->succ[k] + 2]++;
    for (size_t i = 0; i < c->n; i++)
        c->pred_off[i + 2] += c->pred_off[i + 1];
    /* pred_off[v + 1] is v's fill position, then its end */
    for (size_t u = 0; u < c->nf; u++)
        for (uint64_t k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
            c->pred[c->pred_off[g->succ[k] + 1]++] = (uint32_t)u;
    return PN_OK;
}

/* E [ a U b ] (a NULL: true), into b: backwards from b through a. */
static void eu(ctl_t *c, const unsigned char *a, unsigned char *b)
{
    size_t qt = 0;
    for (size_t i = 0; i < c->n; i++)
        if (b[i])
            c->queue[qt++] = (uint32_t)i;
    for (size_t qh = 0; qh < qt; qh++) {
        uint32_t s = c->queue[qh];
        for (uint64_t k = c->pred_off[s]; k < c->pred_off[s + 1]; k++) {
            uint32_t p = c->pred[k];
            if (!b[p] && (!a || a[p])) {
                b[p] = 1;
                c->queue[qt++] = p;
            }
        }
    }
}

/* A [ a U b ] (a NULL: true), into b: a state joins when it has a
 * successor and all of them have joined. */
static void au(ctl_t *c, const unsigned char *a, unsigned char *b)
{
    size_t qt = 0;
    for (size_t i = 0; i < c->n; i++) {
        c->cnt[i] = (uint32_t)outdeg(c, i);
        if (b[i])
            c->queue[qt++] = (uint32_t)i;
    }
    for (size_t qh = 0; qh < qt; qh++) {
        uint32_t s = c->queue[qh];
        for (uint64_t k = c->pred_off[s]; k < c->pred_off[s + 1]; k++) {
            uint32_t p = c->pred[k];
            if (!b[p] && (!a || a[p]) && --c->cnt[p] == 0) {
                b[p] = 1;
                c->queue[qt++] = p;
            }
        }
    }
}

/* EG a, into a: a state leaves when it has successors and none is left;
 * a dead marking in a stays (its path ends there). */
static void eg(ctl_t *c, unsigned char *a)
{
    const pni_graph_t *g = &c->r->graph;
    size_t qt = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (!a[i])
            continue;
        uint32_t k = 0;
        for (uint64_t e = outdeg(c, i) ? g->succ_off[i] : 0;
             outdeg(c, i) && e < g->succ_off[i + 1]; e++)
            k += a[g->succ[e]] != 0;
        c->cnt[i] = k;
    }
    for (size_t i = 0; i < c->n; i++)
        if (a[i] && outdeg(c, i) && !c->cnt[i]) {
            a[i] = 0;
            c->queue[qt++] = (uint32_t)i;
        }
    for (size_t qh = 0; qh < qt; qh++) {
        uint32_t s = c->queue[qh];
        for (uint64_t k = c->pred_off[s]; k < c->pred_off[s + 1]; k++) {
            uint32_t p = c->pred[k];
            if (a[p] && --c->cnt[p] == 0) {
                a[p] = 0;
                c->queue[qt++] = p;
            }
        }
    }
}

/* EX a (all 0) or AX a (all 1) into out, over the expanded states: at a
 * dead marking, EX a is false and AX a true (no successor, all of none). */
static void next(const ctl_t *c, const unsigned char *a, int all,
                 unsigned char *out)
{
    const pni_graph_t *g = &c->r->graph;
    for (size_t i = 0; i < c->nf; i++) {
        int v = all;
        for (uint64_t e = g->succ_off[i]; e < g->succ_off[i + 1]; e++)
            if ((a[g->succ[e]] != 0) != all) {
                v = !all;
                break;
            }
        out[i] = (unsigned char)v;
    }
}

/* A subformula's value: v[0, n) the states where it surely holds (must),
 * v[n, 2n) those where it may; the same on a complete graph. */
static void set_unexpanded(const ctl_t *c, unsigned char *v, int must,
                           int may)
{
    for (size_t i = c->nf; i < c->n; i++) {
        v[i] = (unsigned char)must;
        v[c->n + i] = (unsigned char)may;
    }
}

/* not: must is not may, may is not must */
static void negate(const ctl_t *c, unsigned char *v)
{
    for (size_t i = 0; i < c->n; i++) {
        unsigned char t = v[i];
        v[i] = !v[c->n + i];
        v[c->n + i] = !t;
    }
}

/* The may half: the must half again on a complete graph (no state's
 * value is unknown there), else the fixed point op once more on it. */
static int partial(const ctl_t *c, unsigned char *v)
{
    if (c->nf < c->n)
        return 1;
    memcpy(v + c->n, v, c->n);
    return 0;
}

/* The untils (a NULL: true), into v holding the goal's pair: a state not
 * expanded may lead to the goal when a may hold there, never surely. */
static void until(ctl_t *c, const unsigned char *a, int all, unsigned char *v)
{
    void (*op)(ctl_t *, const unsigned char *, unsigned char *) =
        all ? au : eu;
    op(c, a, v);
    if (partial(c, v)) {
        for (size_t i = c->nf; i < c->n; i++)
            v[c->n + i] |= !a || a[c->n + i];
        op(c, a ? a + c->n : NULL, v + c->n);
    }
}

/* The states satisfying f as a must/may pair (NULL: out of memory). */
static unsigned char *sat(ctl_t *c, const pn_qformula_t *f)
{
    size_t n = c->n;
    unsigned char *v = malloc(2 * n + 1), *a = NULL;
    if (!v)
        return NULL;
    if (!pni_qformula_temporal(f)) {
        size_t k = 0;
        while (c->atoms[k] != f) /* it is one of them */
            k++;
        memcpy(v, c->values + k * n, n);
        memcpy(v + n, v, n);
        return v;
    }
    if ((f->kind >= PN_QF_EX && predecessors(c)) ||
        !(a = sat(c, f->kids[0]))) {
        free(v);
        return NULL;
    }
    switch (f->kind) {
    case PN_QF_NOT:
        memcpy(v, a, 2 * n);
        negate(c, v);
        break;
    case PN_QF_AND:
    case PN_QF_OR:
        memcpy(v, a, 2 * n);
        for (size_t k = 1; k < f->nkids; k++) {
            free(a);
            if (!(a = sat(c, f->kids[k]))) {
                free(v);
                return NULL;
            }
            for (size_t i = 0; i < 2 * n; i++)
                v[i] = f->kind == PN_QF_AND ? v[i] && a[i] : v[i] || a[i];
        }
        break;
    case PN_QF_EX:
    case PN_QF_AX:
        next(c, a, f->kind == PN_QF_AX, v);
        next(c, a + n, f->kind == PN_QF_AX, v + n);
        set_unexpanded(c, v, 0, 1);
        break;
    case PN_QF_EF:
    case PN_QF_AF:
        memcpy(v, a, 2 * n);
        until(c, NULL, f->kind == PN_QF_AF, v);
        break;
    case PN_QF_AG: /* not EF not */
        memcpy(v, a, 2 * n);
        negate(c, v);
        until(c, NULL, 0, v);
        negate(c, v);
        break;
    case PN_QF_EG:
        /* an unexpanded state has no known edge: eg() keeps it as it
         * keeps a dead one, which is right for may and not for must */
        memcpy(v, a, 2 * n);
        set_unexpanded(c, v, 0, 1);
        for (size_t i = c->nf; i < n; i++)
            v[n + i] = a[n + i];
        eg(c, v);
        if (partial(c, v))
            eg(c, v + n);
        break;
    default: { /* the untils */
        unsigned char *b = sat(c, f->kids[1]);
        if (!b) {
            free(a);
            free(v);
            return NULL;
        }
        memcpy(v, b, 2 * n);
        free(b);
        until(c, a, f->kind == PN_QF_AU, v);
    }
    }
    free(a);
    return v;
}

pni_ctl_t *pni_ctl_new(pn_reach_t *r)
{
    if (!r->graph.keep_graph || !r->store.nstates)
        return NULL;
    ctl_t *c = calloc(1, sizeof *c);
    if (c) {
        c->r = r;
        c->n = r->store.nstates;
        c->nf = r->found.end == PN_REACH_COMPLETE ? c->n : r->found.expanded;
        /* a search stopped at its first marking has no edge table yet */
        if (!r->graph.succ_off)
            c->nf = 0;
    }
    return c;
}

void pni_ctl_free(pni_ctl_t *c)
{
    if (!c)
        return;
    free(c->pred_off);
    free(c->pred);
    free(c->queue);
    free(c->cnt);
    free(c);
}

pn_status_t pni_ctl_holds(pni_ctl_t *c, const pn_qformula_t *f, int *known,
                          int *value, uint64_t *state)
{
    *state = PN_REACH_NO_STATE;
    *known = *value = 0;
    /* EF g and AG g: the nearest marking where g surely holds (resp.
     * surely fails) is a witness (a counterexample); states are numbered
     * breadth first.  With none, only a complete graph says the other
     * answer. */
    int reach = f->kind == PN_QF_EF || f->kind == PN_QF_AG;
    const pn_qformula_t *g = reach ? f->kids[0] : f;
    unsigned char *v = eval_atoms(c, g) ? NULL : sat(c, g);
    if (v && reach) {
        int ef = f->kind == PN_QF_EF;
        /* EF: a must state; AG: a state outside may */
        const unsigned char *in = ef ? v : v + c->n;
        size_t i = 0;
        while (i < c->n && (in[i] != 0) != ef)
            i++;
        *known = i < c->n || c->nf == c->n;
        *value = (i < c->n) == ef;
        if (i < c->n)
            *state = i;
    } else if (v) {
        *known = v[0] || !v[c->n];
        *value = v[0];
    }
    free(v);
    free(c->atoms);
    free(c->values);
    c->atoms = NULL;
    c->values = NULL;
    return v ? PN_OK : PN_ENOMEM;
}

/* ---- a path for the answer at the top operator ------------------------- */

/* How the answer's path is found: to a goal through markings in `in`
 * (REACH; in NULL: any), one step to a goal (NEXT), or within `in`
 * (LASSO) to a goal, a dead marking or a cycle. */
enum { W_REACH, W_NEXT, W_LASSO };

typedef struct {
    ctl_t *c;
    const pn_qformula_t *f;
    int mode, value;
    /* the top formula's and its operands' must/may pairs (b: EU, AU) */
    unsigned char *v, *a, *b;
    /* the sets the search follows, n bytes each (in NULL: every one;
     * goal NULL: none) */
    unsigned char *in, *goal;
} wit_t;

static void wit_free(wit_t *w)
{
    free(w->v);
    free(w->a);
    free(w->b);
    free(w->in);
    free(w->goal);
}

/* A set from a must/may pair: the states where it surely holds (want 1)
 * or surely fails (want 0). */
static unsigned char *surely(const ctl_t *c, const unsigned char *v, int want)
{
    unsigned char *s = malloc(c->n + 1);
    for (size_t i = 0; s && i < c->n; i++)
        s[i] = want ? v[i] : !v[c->n + i];
    return s;
}

/* The plan of the path for f's answer at the initial marking: PN_EINVAL
 * when the answer is unknown or has no path (a tree shows it, not one
 * path: EF false, AG true, EX false, AX true, AF true, EG false, EU
 * false, AU true). */
static pn_status_t plan(wit_t *w)
{
    ctl_t *c = w->c;
    const pn_qformula_t *f = w->f;
    if (!(w->v = sat(c, f)) || !(w->a = sat(c, f->kids[0])) ||
        (f->nkids > 1 && !(w->b = sat(c, f->kids[1]))))
        return PN_ENOMEM;
    if (!w->v[0] && w->v[c->n])
        return PN_EINVAL; /* unknown on a partial graph */
    w->value = w->v[0];
    int k = f->kind, val = w->value;
    if ((k == PN_QF_EX || k == PN_QF_EF) && val)
        w->goal = surely(c, w->a, 1);
    else if ((k == PN_QF_AX || k == PN_QF_AG) && !val)
        w->goal = surely(c, w->a, 0);
    else if (k == PN_QF_EU && val) {
        w->in = surely(c, w->a, 1);
        w->goal = surely(c, w->b, 1);
    } else if ((k == PN_QF_AF || k == PN_QF_AU) && !val) {
        w->mode = W_LASSO;
        w->in = surely(c, w->v, 0);
        /* A [ f U g ]: a marking with neither ends it */
        if (k == PN_QF_AU && !(w->goal = surely(c, w->a, 0)))
            return PN_ENOMEM;
    } else if (k == PN_QF_EG && val) {
        w->mode = W_LASSO;
        w->in = surely(c, w->v, 1);
    } else
        return PN_EINVAL;
    if (k == PN_QF_EX || k == PN_QF_AX)
        w->mode = W_NEXT;
    if (w->mode == W_LASSO ? !w->in : !w->goal || (k == PN_QF_EU && !w->in))
        return PN_ENOMEM;
    return PN_OK;
}

/* The chain of states from the initial one to `to`, by parent links. */
static pn_status_t chain_to(const uint32_t *parent, uint32_t to,
                            uint32_t **chain, size_t *len)
{
    size_t k = 1;
    for (uint32_t s = to; s != 0; s = parent[s])
        k++;
    if (!(*chain = malloc((k + 1) * sizeof **chain)))
        return PN_ENOMEM;
    *len = k;
    for (uint32_t s = to;; s = parent[s]) {
        (*chain)[--k] = s;
        if (s == 0)
            break;
    }
    return PN_OK;
}

static int dead_state(const ctl_t *c, size_t s)
{
    return s < c->nf && outdeg(c, s) == 0;
}

/* Breadth first from the initial marking through w->in, to the nearest
 * goal (LASSO: or dead marking).  *to: the one found, UINT32_MAX: none. */
static void nearest(const wit_t *w, uint32_t *parent, uint32_t *to)
{
    const ctl_t *c = w->c;
    const pni_graph_t *g = &c->r->graph;
    uint32_t *queue = c->queue;
    for (size_t i = 0; i < c->n; i++)
        parent[i] = UINT32_MAX;
    size_t qt = 0;
    parent[0] = 0;
    queue[qt++] = 0;
    *to = UINT32_MAX;
    for (size_t qh = 0; qh < qt; qh++) {
        uint32_t s = queue[qh];
        if ((w->goal && w->goal[s]) ||
            (w->mode == W_LASSO && dead_state(c, s))) {
            *to = s;
            return;
        }
        if (w->in && !w->in[s])
            continue;
        for (uint64_t e = outdeg(c, s) ? g->succ_off[s] : 0;
             outdeg(c, s) && e < g->succ_off[s + 1]; e++) {
            uint32_t t = g->succ[e];
            if (parent[t] == UINT32_MAX &&
                (w->mode != W_LASSO || w->in[t])) {
                parent[t] = s;
                queue[qt++] = t;
            }
        }
    }
}

/* A walk within w->in from the initial marking, each state followed by
 * one of its successors in it, up to the first state met twice: the
 * chain ends with that state, at *loop on the chain too. */
static pn_status_t walk_round(const wit_t *w, uint32_t **chain, size_t *len,
                              size_t *loop)
{
    const ctl_t *c = w->c;
    const pni_graph_t *g = &c->r->graph;
    uint32_t *pos = c->cnt;
    for (size_t i = 0; i < c->n; i++)
        pos[i] = UINT32_MAX;
    uint32_t *ch = malloc((c->n + 2) * sizeof *ch);
    if (!ch)
        return PN_ENOMEM;
    size_t k = 0;
    uint32_t s = 0;
    while (pos[s] == UINT32_MAX) {
        pos[s] = (uint32_t)k;
        ch[k++] = s;
        uint32_t next = UINT32_MAX;
        for (uint64_t e = outdeg(c, s) ? g->succ_off[s] : 0;
             outdeg(c, s) && e < g->succ_off[s + 1] && next == UINT32_MAX;
             e++)
            if (w->in[g->succ[e]])
                next = g->succ[e];
        if (next == UINT32_MAX) { /* the fixed point says it cannot be */
            free(ch);
            return PN_EINVAL;
        }
        s = next;
    }
    ch[k++] = s;
    *loop = pos[s];
    *chain = ch;
    *len = k;
    return PN_OK;
}

/* The states of the path: *loop as pn_reach_ctl_path() says. */
static pn_status_t find_chain(const wit_t *w, uint32_t **chain, size_t *len,
                              size_t *loop)
{
    const ctl_t *c = w->c;
    const pni_graph_t *g = &c->r->graph;
    *loop = PN_REACH_NO_LOOP;
    if (w->mode == W_NEXT) {
        for (uint64_t e = outdeg(c, 0) ? g->succ_off[0] : 0;
             outdeg(c, 0) && e < g->succ_off[1]; e++)
            if (w->goal[g->succ[e]]) {
                if (!(*chain = malloc(3 * sizeof **chain)))
                    return PN_ENOMEM;
                (*chain)[0] = 0;
                (*chain)[1] = g->succ[e];
                *len = 2;
                return PN_OK;
            }
        return PN_EINVAL;
    }
    uint32_t *parent = malloc((c->n + 1) * sizeof *parent), to;
    if (!parent)
        return PN_ENOMEM;
    nearest(w, parent, &to);
    pn_status_t st;
    if (to != UINT32_MAX) {
        st = chain_to(parent, to, chain, len);
        /* a dead marking ends the path for ever (no goal there) */
        if (!st && w->mode == W_LASSO && !(w->goal && w->goal[to]))
            *loop = *len - 1;
    } else
        st = w->mode == W_LASSO ? walk_round(w, chain, len, loop) : PN_EINVAL;
    free(parent);
    return st;
}

/* A path being checked: the formula, its answer, the operands' values
 * (kid()) where they are temporal. */
typedef struct {
    pn_reach_t *r;
    const pn_qformula_t *f;
    int value;
    pni_ctl_kid_fn kid;
    void *ctx;
} check_t;

/* Whether operand k is surely `want` at state s, marking m: an operand
 * with no temporal operator is read on the marking itself. */
static int claim(const check_t *ck, size_t k, int want, uint32_t s,
                 const uint64_t *m)
{
    if (!pni_qformula_temporal(ck->f->kids[k]))
        return pni_formula_holds(ck->r->engine, ck->r->nt, ck->f->kids[k],
                                 m) == want;
    return ck->kid(ck->ctx, k, s, want);
}

/* Whether marking position i of a path of len (the chain's states, m the
 * marking replayed) says what the answer claims there. */
static int claims_at(const check_t *ck, const uint32_t *chain, size_t len,
                     size_t loop, size_t i, const uint64_t *m)
{
    uint32_t s = chain[i];
    int last = i + 1 == len;
    switch (ck->f->kind) {
    case PN_QF_EX:
    case PN_QF_AX:
        return !i || claim(ck, 0, ck->value, s, m);
    case PN_QF_EF:
    case PN_QF_AG:
        return !last || claim(ck, 0, ck->value, s, m);
    case PN_QF_EU:
        return last ? claim(ck, 1, 1, s, m) : claim(ck, 0, 1, s, m);
    case PN_QF_EG:
        return claim(ck, 0, 1, s, m);
    case PN_QF_AF:
        return claim(ck, 0, 0, s, m);
    default: /* A [ f U g ] false: never g, and f fails where it ends */
        return claim(ck, 1, 0, s, m) &&
               (!last || loop != PN_REACH_NO_LOOP || claim(ck, 0, 0, s, m));
    }
}

pn_status_t pni_ctl_path_check(pn_reach_t *r, const pn_qformula_t *f,
                               int value, const uint32_t *chain, size_t len,
                               const pn_reach_path_t *p, size_t loop,
                               pni_ctl_kid_fn kid, void *ctx)
{
    check_t ck = {r, f, value, kid, ctx};
    size_t np = r->np;
    pn_sim_t *sim = pn_sim_new(r->engine, 1, r->sem, 0);
    uint64_t *m = malloc((len + 1) * (np + 1) * sizeof *m);
    uint64_t *at = malloc((np + 1) * sizeof *at);
    pn_status_t st = sim && m && at ? PN_OK : PN_ENOMEM;
    /* AF and EG go on for ever; the others (but A [ f U g ], when f
     * fails where it ends) end where the answer is decided */
    int looped = loop != PN_REACH_NO_LOOP;
    int must_loop = f->kind == PN_QF_AF || f->kind == PN_QF_EG;
    int may_loop = must_loop || f->kind == PN_QF_AU;
    if (!st && (!len || p->nsteps + 1 != len ||
                (looped && (loop >= len || !may_loop)) ||
                (must_loop && !looped)))
        st = PN_ETRACE;
    for (size_t i = 0; !st && i < len; i++) {
        size_t bad;
        if (i && pn_sim_fire(sim, p->steps[i - 1], p->n_in_step[i - 1],
                             &bad) != PN_OK)
            st = PN_ETRACE;
        if (st)
            break;
        memcpy(m + i * np, pn_sim_marking(sim), np * sizeof *m);
        /* with symmetry the store holds the orbit's representative */
        if (!r->sym) {
            pni_store_marking(r, chain[i], at);
            if (memcmp(at, m + i * np, np * sizeof *m))
                st = PN_ETRACE;
        }
        if (!st && !claims_at(&ck, chain, len, loop, i, m + i * np))
            st = PN_ETRACE;
    }
    if (!st && loop != PN_REACH_NO_LOOP && loop + 1 == len) {
        for (uint32_t t = 0; t < r->nt; t++)
            if (pni_engine_enabled(r->engine, m + loop * np, t))
                st = PN_ETRACE;
    } else if (!st && loop != PN_REACH_NO_LOOP &&
               memcmp(m + loop * np, m + (len - 1) * np, np * sizeof *m))
        st = PN_ETRACE;
    free(m);
    free(at);
    pn_sim_free(sim);
    return st;
}

/* Operand k's value at s over the graph: surely `want`. */
static int graph_kid(void *ctx, size_t k, uint32_t s, int want)
{
    const wit_t *w = ctx;
    const unsigned char *v = k ? w->b : w->a;
    return want ? v[s] != 0 : !v[w->c->n + s];
}

pn_status_t pn_reach_ctl_path(const pn_reach_t *rc, const pn_qformula_t *f,
                              pn_reach_path_t **out, size_t *loop)
{
    pn_reach_t *r = (pn_reach_t *)rc; /* scratch buffers only */
    if (!r || !f || !out || !loop || f->kind < PN_QF_EX ||
        f->kind > PN_QF_AU)
        return PN_EINVAL;
    *out = NULL;
    *loop = PN_REACH_NO_LOOP;
    /* the one the local algorithm found, when it answered f */
    pn_status_t st = pni_kept_path(r, f, out, loop);
    if (st != PN_EINVAL)
        return st;
    if (!r->graph.keep_graph || !r->store.nstates)
        return PN_EINVAL;
    ctl_t *c = pni_ctl_new(r);
    if (!c)
        return PN_ENOMEM;
    wit_t w = {c, f, W_REACH, 0, NULL, NULL, NULL, NULL, NULL};
    uint32_t *chain = NULL;
    size_t len = 0, at = 0;
    st = eval_atoms(c, f);
    if (!st)
        st = predecessors(c);
    if (!st)
        st = plan(&w);
    if (!st)
        st = find_chain(&w, &chain, &len, &at);
    if (!st)
        st = pni_path_of(r, chain, len, out);
    if (!st && (st = pni_ctl_path_check(r, f, w.value, chain, len, *out, at,
                                        graph_kid, &w))) {
        pn_reach_path_free(*out);
        *out = NULL;
    }
    if (!st)
        *loop = at;
    free(chain);
    wit_free(&w);
    free(c->atoms);
    free(c->values);
    pni_ctl_free(c);
    return st;
}
