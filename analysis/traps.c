/*
 * Traps against the state equation (lp.c).  A trap Q (every transition
 * that takes a token from Q puts one back into Q) marked at m0 stays
 * marked in every reachable marking, under interleaving and maximal
 * steps alike (each transition of a step that takes from Q gives back),
 * so sum over Q of M(p) >= 1 is a valid cut, one the state equation does
 * not know.  When the solver finds a solution m that empties such a
 * trap, the cut goes in and the problem is solved again, until no
 * solution is left (proven) or one empties no marked trap (no
 * conclusion): the refinement of Esparza and Melzer, "Verification of
 * safety properties using integer programming: beyond the state
 * equation" (Formal Methods in System Design 16(2), 2000).  The trap to
 * cut is the largest one inside the places m leaves empty: every trap m
 * empties lies inside it, so when it is not marked at m0 none is.
 *
 * No reachable marking is dead when (1) every siphon contains a trap
 * marked at m0, on an ordinary net (Commoner: the places a dead marking
 * of an ordinary net leaves empty form a siphon, and a marked trap in it
 * cannot be empty; TAPAAL's verifypn calls it the siphon-trap property),
 * or (2) the state equation with every transition disabled (for each,
 * some input place below its weight or some inhibitor place at its
 * weight: a disjunction, one binary variable a disjunct) and the trap
 * cuts has no integer solution.
 *
 * Where traps are used: a reset arc takes tokens from a trap without
 * giving any back, so no cut there; capacities only forbid firings, but
 * nets with them are left out as the state equation leaves them out
 * (pni_lp_sound()).  Read and inhibitor arcs take nothing, so a trap on
 * the normal arcs stays one.  Commoner's argument needs each disabled
 * transition to lack a token in an input place it consumes from: only
 * nets of normal arcs of weight 1 and no capacities qualify (an
 * inhibitor, a read arc or a weight disables a transition another way).
 * A solver that does not finish in time decides nothing.
 */
#include <config.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include "analysis_private.h"
#include "struct.h"

/* the largest bound a disjunct's coefficient may take: past it the
 * relaxation is too ill-conditioned to trust a verdict of floating
 * point, and the transition is left out (a weaker problem) */
#define BIG_M UINT64_C(1000000)

struct pni_traps {
    const pn_net_t *net;
    pni_flowrel_t g;
    uint64_t *m0;
    unsigned char *x;      /* a set of places */
    uint32_t *cnt, *queue; /* pni_largest_trap()'s room */
    double *xv, *coef;     /* per transition */
    int *ind;
    double *val;
    int commoner;          /* -2 not asked yet; else 1 every siphon holds
                              a marked trap (ordinary net), 0 not known */
};

void pni_traps_free(pni_traps_t *t)
{
    if (!t)
        return;
    pni_flowrel_close(&t->g);
    free(t->m0);
    free(t->x);
    free(t->cnt);
    free(t->queue);
    free(t->xv);
    free(t->coef);
    free(t->ind);
    free(t->val);
    free(t);
}

pni_traps_t *pni_traps_new(const pn_net_t *net)
{
    if (!pni_lp_sound(net))
        return NULL;
    pni_traps_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (pni_flowrel_open(net, &t->g)) {
        free(t);
        return NULL;
    }
    size_t np = t->g.np, nt = t->g.nt;
    t->net = net;
    t->commoner = -2;
    t->m0 = malloc((np + 1) * sizeof *t->m0);
    t->x = malloc(np + 1);
    t->cnt = malloc((nt + 1) * sizeof *t->cnt);
    t->queue = malloc((nt + 1) * sizeof *t->queue);
    t->xv = malloc((nt + 1) * sizeof *t->xv);
    t->coef = calloc(nt + 1, sizeof *t->coef);
    /* a row: each transition once and a binary column, or a binary
     * column per enabling arc of a transition */
    size_t room = nt + pn_net_arc_count(net) + 2;
    t->ind = malloc(room * sizeof *t->ind);
    t->val = malloc(room * sizeof *t->val);
    if (!t->m0 || !t->x || !t->cnt || !t->queue || !t->xv || !t->coef ||
        !t->ind || !t->val) {
        pni_traps_free(t);
        return NULL;
    }
    for (size_t p = 0; p < np; p++)
        t->m0[p] = pn_net_place(net, p)->marking;
    return t;
}

/* The marking of the solution in P (mip: its integer one) at place p. */
static double marking_at(const pni_traps_t *t, size_t p)
{
    const pni_flowrel_t *g = &t->g;
    double m = (double)t->m0[p];
    for (size_t k = g->pin.off[p]; k < g->pin.off[p + 1]; k++)
        m += (double)g->pin.w[k] * t->xv[g->pin.idx[k]];
    for (size_t k = g->pout.off[p]; k < g->pout.off[p + 1]; k++)
        m -= (double)g->pout.w[k] * t->xv[g->pout.idx[k]];
    return m;
}

/* When the solution in P (mip: its integer one) leaves empty a trap
 * marked at m0, the cut sum over it of M(p) >= 1 as a row of P: 1; else
 * 0. */
static int add_cut(pni_traps_t *t, glp_prob *P, int mip)
{
    const pni_flowrel_t *g = &t->g;
    size_t np = g->np, nt = g->nt;
    for (size_t tr = 0; tr < nt; tr++)
        t->xv[tr] = mip ? glp_mip_col_val(P, (int)tr + 1)
                        : glp_get_col_prim(P, (int)tr + 1);
    /* empty: below one token in an integer solution, zero up to the
     * solver's tolerance in a relaxed one */
    double empty = mip ? 0.5 : 1e-7, inside = 0, marked = 0;
    for (size_t p = 0; p < np; p++)
        t->x[p] = marking_at(t, p) < empty;
    if (!pni_largest_trap(g, t->x, t->cnt, t->queue))
        return 0;
    for (size_t p = 0; p < np; p++)
        if (t->x[p]) {
            marked += (double)t->m0[p];
            inside += marking_at(t, p);
        }
    if (marked < 1 || inside >= 1 - 1e-7)
        return 0; /* not marked at m0, or the cut would not cut */
    /* sum over Q of (C x)(p) >= 1 - m0(Q) */
    int len = 0;
    for (size_t p = 0; p < np; p++) {
        if (!t->x[p])
            continue;
        for (size_t k = g->pin.off[p]; k < g->pin.off[p + 1]; k++)
            t->coef[g->pin.idx[k]] += (double)g->pin.w[k];
        for (size_t k = g->pout.off[p]; k < g->pout.off[p + 1]; k++)
            t->coef[g->pout.idx[k]] -= (double)g->pout.w[k];
    }
    for (size_t tr = 0; tr < nt; tr++)
        if (t->coef[tr] != 0) {
            t->ind[++len] = (int)tr + 1;
            t->val[len] = t->coef[tr];
            t->coef[tr] = 0;
        }
    if (!len) /* a constant sum: m0(Q) >= 1 already says it */
        return 0;
    int row = glp_add_rows(P, 1);
    glp_set_row_bnds(P, row, GLP_LO, 1 - marked, 0.0);
    glp_set_mat_row(P, row, len, t->ind, t->val);
    return 1;
}

static int ms_until(double deadline)
{
    double s = deadline - pni_clock();
    return s <= 0.001 ? 1 : s > 1e6 ? 1000000000 : (int)(s * 1000);
}

/* The relaxation of P solved (fresh: from an advanced basis, else from
 * the last one, which a cut leaves valid): 1 no solution, 0 an optimum,
 * -1 no answer in time. */
static int relax(glp_prob *P, double deadline, int fresh)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.tm_lim = ms_until(deadline);
    /* no presolver: its time is not limited */
    if (fresh)
        glp_adv_basis(P, 0);
    int rc = glp_simplex(P, &sp);
    if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
        /* the last basis did not survive (the presolver keeps none) */
        glp_adv_basis(P, 0);
        sp.tm_lim = ms_until(deadline);
        rc = glp_simplex(P, &sp);
    }
    if (rc == GLP_ENOPFS || (rc == 0 && glp_get_status(P) == GLP_NOFEAS))
        return 1;
    return rc == 0 && glp_get_status(P) == GLP_OPT ? 0 : -1;
}

/* The branch and bound's own clock (GLPK's tm_lim is not looked at
 * everywhere). */
static void on_tree(glp_tree *T, void *info)
{
    if (pni_clock() > *(const double *)info)
        glp_ios_terminate(T);
}

/* After an optimal relaxation: 1 no integer solution, 0 one (its values
 * in P), -1 no answer in time. */
static int integer(glp_prob *P, double deadline)
{
    glp_iocp ip;
    glp_init_iocp(&ip);
    ip.msg_lev = GLP_MSG_OFF;
    ip.tm_lim = ms_until(deadline);
    ip.cb_func = on_tree;
    ip.cb_info = &deadline;
    int rc = glp_intopt(P, &ip), st = glp_mip_status(P);
    if (rc == 0 && st == GLP_NOFEAS)
        return 1;
    return st == GLP_OPT || st == GLP_FEAS ? 0 : -1;
}

int pni_traps_infeasible(pni_traps_t *t, glp_prob *P, double deadline)
{
    int cuts = 0;
    while (pni_clock() < deadline) {
        /* the relaxation's solution first (cheap), the integer one when
         * it empties no marked trap */
        if (!add_cut(t, P, 0)) {
            int r = integer(P, deadline);
            if (r)
                return r > 0 ? 1 + (cuts > 0) : 0;
            if (!add_cut(t, P, 1))
                return 0;
        }
        cuts++;
        int r = relax(P, deadline, 0);
        if (r)
            return r > 0 ? 2 : 0;
    }
    return 0;
}

/* ---- deadlock ------------------------------------------------------------ */

/* Commoner's property on an ordinary net (normal arcs only, each input
 * of weight 1, no capacities: pni_lp_sound() said so already) whose
 * every transition has an input place; 1 when every siphon holds an
 * initially marked trap. */
static int commoner(pni_traps_t *t, double seconds)
{
    if (t->commoner != -2)
        return t->commoner;
    const pn_net_t *net = t->net;
    const pni_flowrel_t *g = &t->g;
    /* (parallel arcs add up: tin's weights are the sums; the weights
     * of output arcs do not matter) */
    int ordinary = !g->other_arcs && g->nt > 0;
    for (size_t k = 0; ordinary && k < g->tin.off[g->nt]; k++)
        ordinary = g->tin.w[k] == 1;
    for (size_t tr = 0; ordinary && tr < g->nt; tr++)
        ordinary = g->tin.off[tr + 1] > g->tin.off[tr];
    /* the siphons' search does about 2^28 steps a second; past its
     * budget it says no, and is not asked again */
    t->commoner = ordinary &&
                  pni_siphons_commoner(net, (uint64_t)(seconds * 0x1p28));
    return t->commoner;
}

/* Each transition's enabling arcs (those from a place: normal, read,
 * inhibitor), by transition: arc numbers from off[t] to off[t + 1]. */
static int enabling_arcs(const pn_net_t *net, size_t nt, size_t **off,
                         size_t **arc)
{
    size_t na = pn_net_arc_count(net);
    *off = calloc(nt + 2, sizeof **off);
    *arc = malloc((na + 1) * sizeof **arc);
    if (!*off || !*arc)
        return -1;
    for (size_t a = 0; a < na; a++)
        if (pn_net_arc(net, a)->dir == PN_DIR_PT)
            (*off)[pn_net_arc(net, a)->transition + 2]++;
    for (size_t tr = 0; tr < nt; tr++)
        (*off)[tr + 2] += (*off)[tr + 1];
    for (size_t a = 0; a < na; a++)
        if (pn_net_arc(net, a)->dir == PN_DIR_PT)
            (*arc)[(*off)[pn_net_arc(net, a)->transition + 1]++] = a;
    return 0;
}

/* The row c.x (place p's incidence) + bcoef * column b (lo: >= k, else
 * <= k) added to P. */
static void place_row(pni_traps_t *t, glp_prob *P, size_t p, int b,
                      double bcoef, int lo, double k)
{
    const pni_flowrel_t *g = &t->g;
    int len = 0;
    for (size_t i = g->pin.off[p]; i < g->pin.off[p + 1]; i++)
        t->coef[g->pin.idx[i]] += (double)g->pin.w[i];
    for (size_t i = g->pout.off[p]; i < g->pout.off[p + 1]; i++)
        t->coef[g->pout.idx[i]] -= (double)g->pout.w[i];
    for (size_t i = g->pin.off[p]; i < g->pin.off[p + 1]; i++)
        if (t->coef[g->pin.idx[i]] != 0) {
            t->ind[++len] = (int)g->pin.idx[i] + 1;
            t->val[len] = t->coef[g->pin.idx[i]];
            t->coef[g->pin.idx[i]] = 0;
        }
    for (size_t i = g->pout.off[p]; i < g->pout.off[p + 1]; i++)
        if (t->coef[g->pout.idx[i]] != 0) {
            t->ind[++len] = (int)g->pout.idx[i] + 1;
            t->val[len] = t->coef[g->pout.idx[i]];
            t->coef[g->pout.idx[i]] = 0;
        }
    if (b) {
        t->ind[++len] = b;
        t->val[len] = bcoef;
    }
    if (!len)
        return;
    int row = glp_add_rows(P, 1);
    glp_set_row_bnds(P, row, lo ? GLP_LO : GLP_UP, k, k);
    glp_set_mat_row(P, row, len, t->ind, t->val);
}

/* The disjuncts met so far, shared by the transitions that have them:
 * per place a list (head, next) of (w, inhibitor) and the binary column
 * that stands for "M(p) <= w - 1" (an input) or "M(p) >= w" (an
 * inhibitor). */
typedef struct {
    int *head, *next, *col;
    uint64_t *w;
    unsigned char *inh;
    size_t n, cap;
} disj_t;

/* The column of disjunct (p, w, inh), its rows added to P the first time:
 * an input, M(p) <= w - 1 + (u - w + 1)(1 - b), u >= w an upper bound
 * of M(p); an inhibitor, M(p) >= w b.  0 out of memory. */
static int disjunct(pni_traps_t *t, glp_prob *P, disj_t *d, size_t p,
                    uint64_t w, int inh, uint64_t u)
{
    for (int k = d->head[p]; k >= 0; k = d->next[k])
        if (d->w[k] == w && d->inh[k] == inh)
            return d->col[k];
    if (d->n == d->cap) {
        size_t cap = 2 * d->cap + 16;
        int *nx = realloc(d->next, cap * sizeof *nx);
        if (nx)
            d->next = nx;
        int *col = realloc(d->col, cap * sizeof *col);
        if (col)
            d->col = col;
        uint64_t *wv = realloc(d->w, cap * sizeof *wv);
        if (wv)
            d->w = wv;
        unsigned char *iv = realloc(d->inh, cap);
        if (iv)
            d->inh = iv;
        if (!nx || !col || !wv || !iv)
            return 0;
        d->cap = cap;
    }
    int b = glp_add_cols(P, 1);
    glp_set_col_kind(P, b, GLP_BV);
    double m0 = (double)t->m0[p];
    if (inh) /* C x - w b >= -m0 */
        place_row(t, P, p, b, -(double)w, 1, -m0);
    else /* C x + (u - w + 1) b <= u - m0 */
        place_row(t, P, p, b, (double)(u - w + 1), 0, (double)u - m0);
    size_t k = d->n++;
    d->w[k] = w;
    d->inh[k] = (unsigned char)inh;
    d->col[k] = b;
    d->next[k] = d->head[p];
    d->head[p] = (int)k;
    return b;
}

/* Transition tr disabled: the sum of its disjuncts' binaries >= 1 (an
 * input place p, normal and read arcs summed to w, below w; an
 * inhibitor place at its weight).  An input needs a bound ub(p) (none,
 * or one past BIG_M: the transition is left out, *dropped counted).  0; 1 when tr is
 * enabled in every marking (no deadlock at all); -1 out of memory. */
static int disabled(pni_traps_t *t, glp_prob *P, disj_t *d, size_t tr,
                    const size_t *off, const size_t *arc,
                    const uint64_t *ub, size_t *dropped)
{
    const pn_net_t *net = t->net;
    size_t n = 0;
    for (size_t i = off[tr]; i < off[tr + 1]; i++) {
        const pn_arc_t *a = pn_net_arc(net, arc[i]);
        if (a->kind != PN_ARC_INHIBITOR && ub[a->place] > BIG_M) {
            (*dropped)++;
            return 0;
        }
    }
    /* the row's own room: disjunct() writes its rows in t->ind, t->val */
    int *ind = malloc((off[tr + 1] - off[tr] + 2) * sizeof *ind);
    double *val = malloc((off[tr + 1] - off[tr] + 2) * sizeof *val);
    int r = ind && val ? 0 : -1;
    for (size_t i = off[tr]; !r && i < off[tr + 1]; i++) {
        const pn_arc_t *a = pn_net_arc(net, arc[i]);
        uint64_t w = a->weight;
        int inh = a->kind == PN_ARC_INHIBITOR;
        if (!inh) {
            /* a place's inputs summed, once, at its first arc */
            size_t j = off[tr];
            while (j < i && (pn_net_arc(net, arc[j])->kind ==
                                 PN_ARC_INHIBITOR ||
                             pn_net_arc(net, arc[j])->place != a->place))
                j++;
            if (j < i)
                continue;
            for (j = i + 1; j < off[tr + 1]; j++)
                if (pn_net_arc(net, arc[j])->kind != PN_ARC_INHIBITOR &&
                    pn_net_arc(net, arc[j])->place == a->place)
                    w += pn_net_arc(net, arc[j])->weight;
        }
        uint64_t u = ub[a->place] < w ? w : ub[a->place];
        int b = disjunct(t, P, d, a->place, w, inh, u);
        size_t k = 1;
        while (k <= n && ind[k] != b) /* (twice the same inhibitor) */
            k++;
        if (!b)
            r = -1;
        else if (k > n) {
            ind[++n] = b;
            val[n] = 1;
        }
    }
    if (!r && !n)
        r = 1;
    else if (!r) {
        int row = glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, GLP_LO, 1, 0);
        glp_set_mat_row(P, row, (int)n, ind, val);
    }
    free(ind);
    free(val);
    return r;
}

/* The state equation with every transition disabled (ub NULL: the
 * equation alone): columns the transitions (x >= 0, integer) and the
 * disjuncts' binaries.  *trivial: some transition is never disabled. */
static glp_prob *dead_problem(pni_traps_t *t, const uint64_t *ub,
                              size_t *dropped, int *trivial)
{
    const pni_flowrel_t *g = &t->g;
    size_t *off = NULL, *arc = NULL;
    glp_prob *P = NULL;
    *trivial = 0;
    if (enabling_arcs(t->net, g->nt, &off, &arc))
        goto out;
    P = glp_create_prob();
    if (g->nt)
        glp_add_cols(P, (int)g->nt);
    for (size_t tr = 0; tr < g->nt; tr++) {
        glp_set_col_bnds(P, (int)tr + 1, GLP_LO, 0.0, 0.0);
        glp_set_col_kind(P, (int)tr + 1, GLP_IV);
    }
    /* M(p) >= 0: C x >= -m0 */
    for (size_t p = 0; p < g->np; p++)
        place_row(t, P, p, 0, 0, 1, -(double)t->m0[p]);
    disj_t d = {malloc((g->np + 1) * sizeof(int)), NULL, NULL, NULL, NULL,
                0, 0};
    int r = d.head ? 0 : -1;
    for (size_t p = 0; d.head && p < g->np; p++)
        d.head[p] = -1;
    for (size_t tr = 0; ub && !r && tr < g->nt; tr++)
        r = disabled(t, P, &d, tr, off, arc, ub, dropped);
    *trivial = r == 1;
    free(d.head);
    free(d.next);
    free(d.col);
    free(d.w);
    free(d.inh);
    if (r < 0) {
        glp_delete_prob(P);
        P = NULL;
    }
out:
    free(off);
    free(arc);
    return P;
}

/* An upper bound of every place: the largest number of tokens in all
 * over the relaxed state equation (P, the problem of dead_problem(), its
 * objective set for this and cleared again), UINT64_MAX when none in
 * time.  One linear program where each place's own bound takes one. */
static uint64_t total_bound(pni_traps_t *t, glp_prob *P, double deadline)
{
    const pni_flowrel_t *g = &t->g;
    double m0 = 0;
    for (size_t p = 0; p < g->np; p++) {
        m0 += (double)t->m0[p];
        for (size_t k = g->pin.off[p]; k < g->pin.off[p + 1]; k++)
            t->coef[g->pin.idx[k]] += (double)g->pin.w[k];
        for (size_t k = g->pout.off[p]; k < g->pout.off[p + 1]; k++)
            t->coef[g->pout.idx[k]] -= (double)g->pout.w[k];
    }
    glp_set_obj_dir(P, GLP_MAX);
    for (size_t tr = 0; tr < g->nt; tr++) {
        glp_set_obj_coef(P, (int)tr + 1, t->coef[tr]);
        t->coef[tr] = 0;
    }
    uint64_t ub = UINT64_MAX;
    if (!relax(P, deadline, 1)) {
        double v = floor(glp_get_obj_val(P) + m0 + 1e-6);
        if (v >= 0 && v < 1e15)
            ub = (uint64_t)v;
    }
    for (size_t tr = 0; tr < g->nt; tr++)
        glp_set_obj_coef(P, (int)tr + 1, 0.0);
    return ub;
}

/* The deadlock problem with bounds ub solved before deadline: 0 not
 * proven, 1 or 2 proven (pni_traps_infeasible()'s), -1 no room. */
static int no_dead_marking(pni_traps_t *t, const uint64_t *ub,
                           double deadline)
{
    size_t dropped = 0;
    int trivial, verdict = 0;
    glp_prob *P = dead_problem(t, ub, &dropped, &trivial);
    if (!P)
        return -1;
    if (trivial) { /* a transition enabled in every marking */
        glp_delete_prob(P);
        return 1;
    }
    int r = relax(P, deadline, 1);
    if (r == 1)
        verdict = 1;
    else if (r == 0)
        verdict = pni_traps_infeasible(t, P, deadline);
    glp_delete_prob(P);
    return verdict;
}

int pni_traps_no_deadlock(pni_traps_t *t, double seconds)
{
    double t0 = pni_clock(), deadline = t0 + seconds;
    if (commoner(t, seconds / 4))
        return 3;
    /* the places' bounds for the disjuncts: the tokens in all first (one
     * linear program), with half the time left; then each place's own
     * (a quarter of what is left: tighter coefficients make a tighter
     * relaxation, though not always a quicker branch and bound) */
    size_t dropped = 0, np = t->g.np;
    int trivial, verdict = 0;
    uint64_t *ub = malloc((np + 1) * sizeof *ub);
    glp_prob *P = ub ? dead_problem(t, NULL, &dropped, &trivial) : NULL;
    uint64_t total = P ? total_bound(t, P, deadline) : UINT64_MAX;
    if (P)
        glp_delete_prob(P);
    for (size_t p = 0; ub && p < np; p++)
        ub[p] = total;
    if (ub && total < UINT64_MAX)
        verdict = no_dead_marking(t, ub, (pni_clock() + deadline) / 2);
    pn_lp_bounds_t *b = NULL;
    double left = deadline - pni_clock();
    if (ub && !verdict && left > 0 &&
        !pn_lp_bounds_compute(t->net, left / 4, &b)) {
        for (size_t p = 0; p < np; p++)
            if (b->state[p] == 1 && b->bound[p] < total)
                ub[p] = b->bound[p];
        verdict = no_dead_marking(t, ub, deadline);
    }
    pn_lp_bounds_free(b);
    free(ub);
    return verdict > 0 ? verdict : 0;
}
