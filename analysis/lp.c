/*
 * The state equation by integer linear programming (GLPK): every marking
 * m reachable from m0 is m0 + C.x for some integer x >= 0 (x: how often
 * each transition fired), with m >= 0.  A formula whose atoms no such m
 * meets holds in no reachable marking; the largest value of a sum of
 * places over those m bounds it over the reachable ones.
 *
 * The equation holds for normal arcs; read and inhibitor arcs only
 * restrict which transitions fire, so it still over-approximates; reset
 * arcs and capacities break it (a reset removes tokens C does not count; a
 * capacity is a bound the engine enforces by refusing, which is fine, but
 * the engine's capacity rule is left out for safety): pni_lp_sound() says
 * no there.  A solver that does not finish in time is no conclusion.
 */
#include <config.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"

/* A linear constraint over the marking: sum a[i] * M(p[i]) (LE or GE) k. */
typedef struct {
    size_t n;
    size_t *p;
    int64_t *a;
    int ge;
    int64_t k;
} lin_t;

/* A conjunction of constraints; a formula becomes a disjunction of them
 * (its DNF, weakened where it would grow past DNF_CAP: see dnf_and). */
typedef struct {
    size_t n;
    lin_t *c;
} conj_t;

typedef struct {
    size_t n;
    conj_t *d;
    int oom;
} dnf_t;

#define DNF_CAP 32

struct pni_lp {
    const pn_net_t *net;
    size_t np, nt;
    /* the incidence matrix by place: (tr[k], c[k]) for k in off[p] ..
     * off[p + 1], the transitions that change p and by how much */
    size_t *off, *tr;
    int64_t *c;
    uint64_t *m0;
    /* per transition: its enabling arcs (normal and read inputs, and
     * inhibitors) from en_off[t] to en_off[t + 1] */
    size_t *en_off, *en_p;
    uint64_t *en_w;
    unsigned char *en_inh;
    pni_traps_t *traps; /* the trap cuts (traps.c; NULL: none) */
};

int pni_lp_sound(const pn_net_t *net)
{
    for (size_t p = 0; p < pn_net_place_count(net); p++)
        if (pn_net_place(net, p)->capacity)
            return 0;
    for (size_t a = 0; a < pn_net_arc_count(net); a++)
        if (pn_net_arc(net, a)->kind == PN_ARC_RESET)
            return 0;
    return 1;
}

void pni_lp_free(pni_lp_t *lp)
{
    if (!lp)
        return;
    free(lp->off);
    free(lp->tr);
    free(lp->c);
    free(lp->m0);
    free(lp->en_off);
    free(lp->en_p);
    free(lp->en_w);
    free(lp->en_inh);
    pni_traps_free(lp->traps);
    free(lp);
}

/* The incidence matrix by place, summed over the arcs (an arc in and one
 * out of the same place cancel). */
static int build_incidence(pni_lp_t *lp)
{
    const pn_net_t *net = lp->net;
    size_t na = pn_net_arc_count(net);
    lp->off = calloc(lp->np + 1, sizeof *lp->off);
    lp->tr = malloc((na + 1) * sizeof *lp->tr);
    lp->c = malloc((na + 1) * sizeof *lp->c);
    if (!lp->off || !lp->tr || !lp->c)
        return -1;
    for (size_t a = 0; a < na; a++)
        if (pn_net_arc(net, a)->kind == PN_ARC_NORMAL)
            lp->off[pn_net_arc(net, a)->place + 1]++;
    for (size_t p = 0; p < lp->np; p++)
        lp->off[p + 1] += lp->off[p];
    size_t *fill = calloc(lp->np + 1, sizeof *fill);
    if (!fill)
        return -1;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind != PN_ARC_NORMAL)
            continue;
        size_t base = lp->off[arc->place], k;
        int64_t d = arc->dir == PN_DIR_PT ? -(int64_t)arc->weight
                                                       : (int64_t)arc->weight;
        for (k = base; k < base + fill[arc->place]; k++)
            if (lp->tr[k] == arc->transition)
                break;
        if (k == base + fill[arc->place]) {
            lp->tr[k] = arc->transition;
            lp->c[k] = 0;
            fill[arc->place]++;
        }
        lp->c[k] += d;
    }
    /* compact: the places' lists end where fill says */
    size_t w = 0;
    for (size_t p = 0; p < lp->np; p++) {
        size_t base = lp->off[p], n = fill[p];
        lp->off[p] = w;
        for (size_t k = base; k < base + n; k++)
            if (lp->c[k]) {
                lp->tr[w] = lp->tr[k];
                lp->c[w++] = lp->c[k];
            }
    }
    lp->off[lp->np] = w;
    free(fill);
    return 0;
}

static int build_enabling(pni_lp_t *lp)
{
    const pn_net_t *net = lp->net;
    size_t na = pn_net_arc_count(net);
    lp->en_off = calloc(lp->nt + 1, sizeof *lp->en_off);
    lp->en_p = malloc((na + 1) * sizeof *lp->en_p);
    lp->en_w = malloc((na + 1) * sizeof *lp->en_w);
    lp->en_inh = malloc(na + 1);
    if (!lp->en_off || !lp->en_p || !lp->en_w || !lp->en_inh)
        return -1;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir == PN_DIR_PT)
            lp->en_off[arc->transition + 1]++;
    }
    for (size_t t = 0; t < lp->nt; t++)
        lp->en_off[t + 1] += lp->en_off[t];
    size_t *fill = calloc(lp->nt + 1, sizeof *fill);
    if (!fill)
        return -1;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->dir != PN_DIR_PT)
            continue;
        size_t k = lp->en_off[arc->transition] + fill[arc->transition]++;
        lp->en_p[k] = arc->place;
        lp->en_w[k] = arc->weight;
        lp->en_inh[k] = arc->kind == PN_ARC_INHIBITOR;
    }
    free(fill);
    return 0;
}

pni_lp_t *pni_lp_new(const pn_net_t *net)
{
    pni_lp_t *lp = calloc(1, sizeof *lp);
    if (!lp)
        return NULL;
    lp->net = net;
    lp->np = pn_net_place_count(net);
    lp->nt = pn_net_transition_count(net);
    lp->m0 = malloc((lp->np + 1) * sizeof *lp->m0);
    if (!lp->m0 || build_incidence(lp) || build_enabling(lp)) {
        pni_lp_free(lp);
        return NULL;
    }
    for (size_t p = 0; p < lp->np; p++)
        lp->m0[p] = pn_net_place(net, p)->marking;
    lp->traps = pni_traps_new(net); /* (none: the plain equation) */
    return lp;
}

/* ---- formulas as disjunctions of conjunctions of constraints ---------- */

static void conj_free(conj_t *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->c[i].p);
        free(c->c[i].a);
    }
    free(c->c);
    c->c = NULL;
    c->n = 0;
}

static void dnf_free(dnf_t *d)
{
    for (size_t i = 0; i < d->n; i++)
        conj_free(&d->d[i]);
    free(d->d);
    d->d = NULL;
    d->n = 0;
}

/* The formula "true": one empty conjunction. */
static dnf_t dnf_true(void)
{
    dnf_t d = {0, NULL, 0};
    d.d = calloc(1, sizeof *d.d);
    if (d.d)
        d.n = 1;
    else
        d.oom = 1;
    return d;
}

static int lin_copy(lin_t *to, const lin_t *from)
{
    *to = *from;
    to->p = malloc((from->n + 1) * sizeof *to->p);
    to->a = malloc((from->n + 1) * sizeof *to->a);
    if (!to->p || !to->a) {
        free(to->p);
        free(to->a);
        to->p = NULL;
        to->a = NULL;
        return -1;
    }
    if (from->n) {
        memcpy(to->p, from->p, from->n * sizeof *to->p);
        memcpy(to->a, from->a, from->n * sizeof *to->a);
    }
    return 0;
}

/* a && b: every pair of their disjuncts joined. */
static dnf_t dnf_product(const dnf_t *a, const dnf_t *b)
{
    dnf_t d = {0, calloc(a->n * b->n + 1, sizeof(conj_t)), 0};
    if (!d.d) {
        d.oom = 1;
        return d;
    }
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++) {
            conj_t *c = &d.d[d.n++];
            size_t n = a->d[i].n + b->d[j].n;
            c->c = calloc(n + 1, sizeof *c->c);
            if (!c->c) {
                d.oom = 1;
                return d;
            }
            for (size_t k = 0; k < n; k++) {
                const lin_t *l = k < a->d[i].n ? &a->d[i].c[k]
                                               : &b->d[j].c[k - a->d[i].n];
                if (lin_copy(&c->c[c->n], l)) {
                    d.oom = 1;
                    return d;
                }
                c->n++;
            }
        }
    return d;
}

/* a || b, into a (b emptied). */
static void dnf_concat(dnf_t *a, dnf_t *b)
{
    conj_t *d = realloc(a->d, (a->n + b->n + 1) * sizeof *d);
    if (!d) {
        a->oom = 1;
        dnf_free(b);
        return;
    }
    a->d = d;
    if (b->n) /* b->d is NULL when b is false */
        memcpy(a->d + a->n, b->d, b->n * sizeof *d);
    a->n += b->n;
    free(b->d);
    b->d = NULL;
    b->n = 0;
}

/* One constraint: sum of (places, coefficients) ge/le k, as a formula. */
static dnf_t dnf_atom(const size_t *p, const int64_t *a, size_t n, int ge,
                      int64_t k)
{
    dnf_t d = dnf_true();
    if (d.oom)
        return d;
    lin_t l = {n, (size_t *)p, (int64_t *)a, ge, k};
    d.d[0].c = calloc(1, sizeof *d.d[0].c);
    if (!d.d[0].c || lin_copy(&d.d[0].c[0], &l)) {
        d.oom = 1;
        return d;
    }
    d.d[0].n = 1;
    return d;
}

/* lhs - rhs as places and coefficients; *k: rhs.constant - lhs.constant
 * (so that the comparison reads sum (op) k).  -1 on overflow or out of
 * memory. */
static int cmp_terms(const pn_qformula_t *f, size_t **p, int64_t **a,
                     size_t *n, int64_t *k)
{
    size_t m = f->lhs.nplaces + f->rhs.nplaces;
    *p = malloc((m + 1) * sizeof **p);
    *a = malloc((m + 1) * sizeof **a);
    *n = 0;
    if (!*p || !*a || f->lhs.constant > INT64_MAX / 2 ||
        f->rhs.constant > INT64_MAX / 2)
        return -1;
    for (size_t i = 0; i < m; i++) {
        size_t q = i < f->lhs.nplaces ? f->lhs.places[i]
                                      : f->rhs.places[i - f->lhs.nplaces];
        int64_t s = i < f->lhs.nplaces ? 1 : -1;
        size_t j;
        for (j = 0; j < *n && (*p)[j] != q; j++)
            ;
        if (j == *n) {
            (*p)[j] = q;
            (*a)[j] = 0;
            (*n)++;
        }
        (*a)[j] += s;
    }
    *k = (int64_t)f->rhs.constant - (int64_t)f->lhs.constant;
    return 0;
}

/* A comparison, negated when neg. */
static dnf_t dnf_cmp(const pn_qformula_t *f, int neg)
{
    size_t *p, n;
    int64_t *a, k;
    dnf_t d = {0, NULL, 0};
    if (cmp_terms(f, &p, &a, &n, &k)) {
        free(p);
        free(a);
        d.oom = 1;
        return d;
    }
    static const pn_qcmp_t negated[] = {PN_QCMP_GE, PN_QCMP_GT, PN_QCMP_NE,
                                        PN_QCMP_EQ, PN_QCMP_LT, PN_QCMP_LE};
    pn_qcmp_t op = neg ? negated[f->op] : f->op;
    switch (op) {
    case PN_QCMP_LT: d = dnf_atom(p, a, n, 0, k - 1); break;
    case PN_QCMP_LE: d = dnf_atom(p, a, n, 0, k); break;
    case PN_QCMP_GT: d = dnf_atom(p, a, n, 1, k + 1); break;
    case PN_QCMP_GE: d = dnf_atom(p, a, n, 1, k); break;
    case PN_QCMP_EQ: {
        dnf_t le = dnf_atom(p, a, n, 0, k), ge = dnf_atom(p, a, n, 1, k);
        d = dnf_product(&le, &ge);
        d.oom |= le.oom | ge.oom;
        dnf_free(&le);
        dnf_free(&ge);
        break;
    }
    default: {
        d = dnf_atom(p, a, n, 0, k - 1);
        dnf_t gt = dnf_atom(p, a, n, 1, k + 1);
        d.oom |= gt.oom;
        dnf_concat(&d, &gt);
    }
    }
    free(p);
    free(a);
    return d;
}

/* Transition t enabled (neg: not enabled).  Enabled: every input (normal
 * or read) place holds its weight, every inhibitor place less than its
 * weight.  Not enabled: one of those fails; a place's inputs are summed
 * there, which only weakens the disjunct. */
static dnf_t dnf_enabled(const pni_lp_t *lp, size_t t, int neg)
{
    dnf_t d = neg ? (dnf_t){0, NULL, 0} : dnf_true();
    for (size_t k = lp->en_off[t]; !d.oom && k < lp->en_off[t + 1]; k++) {
        int64_t one = 1, w = (int64_t)lp->en_w[k];
        if (!lp->en_inh[k] && neg)
            for (size_t j = lp->en_off[t]; j < lp->en_off[t + 1]; j++)
                if (j != k && !lp->en_inh[j] && lp->en_p[j] == lp->en_p[k])
                    w += (int64_t)lp->en_w[j];
        /* enabled: M(p) >= w (input), M(p) <= w - 1 (inhibitor); the
         * reverse for not enabled */
        int ge = lp->en_inh[k] ? neg : !neg;
        dnf_t at = dnf_atom(&lp->en_p[k], &one, 1, ge, ge ? w : w - 1);
        if (neg) {
            d.oom |= at.oom;
            dnf_concat(&d, &at);
        } else {
            dnf_t both = dnf_product(&d, &at);
            both.oom |= at.oom | d.oom;
            dnf_free(&d);
            dnf_free(&at);
            d = both;
        }
    }
    return d;
}

static dnf_t dnf_of(const pni_lp_t *lp, const pn_qformula_t *f, int neg);

/* A conjunction of n formulas (kids, or the transitions of a deadlock):
 * each one's DNF, joined smallest first; one that would take the result
 * past DNF_CAP disjuncts is left out (a weaker formula: what it cannot
 * meet, the full one cannot either). */
static dnf_t dnf_and(const pni_lp_t *lp, const pn_qformula_t *f, size_t n,
                     int neg)
{
    dnf_t *parts = calloc(n + 1, sizeof *parts), d = dnf_true();
    unsigned char *used = calloc(n + 1, 1);
    if (!parts || !used) {
        free(parts);
        free(used);
        d.oom = 1;
        return d;
    }
    for (size_t i = 0; i < n && !d.oom; i++) {
        parts[i] = f->kind == PN_QF_DEADLOCK ? dnf_enabled(lp, i, 1)
                                             : dnf_of(lp, f->kids[i], neg);
        d.oom |= parts[i].oom;
    }
    for (size_t round = 0; round < n && !d.oom; round++) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!used[i] && (best == n || parts[i].n < parts[best].n))
                best = i;
        used[best] = 1;
        if (parts[best].n == 0) { /* false: the whole is false */
            dnf_free(&d);
            break;
        }
        if (d.n * parts[best].n <= DNF_CAP) {
            dnf_t both = dnf_product(&d, &parts[best]);
            dnf_free(&d);
            d = both;
        }
    }
    for (size_t i = 0; i < n; i++)
        dnf_free(&parts[i]);
    free(parts);
    free(used);
    return d;
}

/* f (neg: !f) as a disjunction of conjunctions of constraints, weakened
 * where it would grow past DNF_CAP. */
static dnf_t dnf_of(const pni_lp_t *lp, const pn_qformula_t *f, int neg)
{
    int conj = (f->kind == PN_QF_AND) != neg;
    switch (f->kind) {
    case PN_QF_TRUE:
    case PN_QF_FALSE:
        return (f->kind == PN_QF_TRUE) != neg ? dnf_true()
                                              : (dnf_t){0, NULL, 0};
    case PN_QF_CMP: return dnf_cmp(f, neg);
    case PN_QF_NOT: return dnf_of(lp, f->kids[0], !neg);
    case PN_QF_DEADLOCK:
        if (neg) /* some transition enabled */
            break;
        return dnf_and(lp, f, lp->nt, 0);
    case PN_QF_FIREABLE:
        if (neg) {
            dnf_t d = dnf_true();
            /* none of the items enabled: a conjunction, as for deadlock */
            for (size_t i = 0; i < f->nitems && !d.oom; i++) {
                dnf_t e = dnf_enabled(lp, f->items[i], 1);
                if (d.n * e.n <= DNF_CAP) {
                    dnf_t both = dnf_product(&d, &e);
                    both.oom |= e.oom;
                    dnf_free(&d);
                    d = both;
                }
                dnf_free(&e);
            }
            return d;
        }
        break;
    default:
        if (conj)
            return dnf_and(lp, f, f->nkids, neg);
        break;
    }
    /* a disjunction: of the kids, of the items enabled, of the
     * transitions enabled */
    dnf_t d = {0, NULL, 0};
    size_t n = f->kind == PN_QF_DEADLOCK ? lp->nt
               : f->kind == PN_QF_FIREABLE ? f->nitems : f->nkids;
    for (size_t i = 0; i < n && !d.oom; i++) {
        dnf_t e = f->kind == PN_QF_DEADLOCK ? dnf_enabled(lp, i, 0)
                  : f->kind == PN_QF_FIREABLE
                      ? dnf_enabled(lp, f->items[i], 0)
                      : dnf_of(lp, f->kids[i], neg);
        d.oom |= e.oom;
        dnf_concat(&d, &e);
        if (d.n > DNF_CAP) { /* too wide: true, the weakest */
            dnf_free(&d);
            return dnf_true();
        }
    }
    return d;
}

/* ---- the solver -------------------------------------------------------- */

/* The problem of the state equation: one column per transition (x >= 0,
 * integer), one row per place that some transition changes (m >= 0),
 * and the objective sum a[i] * M(p[i]) when n > 0 (maximised). */
static glp_prob *equation(const pni_lp_t *lp, const size_t *p,
                          const int64_t *a, size_t n)
{
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    if (lp->nt)
        glp_add_cols(P, (int)lp->nt);
    for (size_t t = 0; t < lp->nt; t++) {
        glp_set_col_bnds(P, (int)t + 1, GLP_LO, 0.0, 0.0);
        glp_set_col_kind(P, (int)t + 1, GLP_IV);
    }
    int *ind = malloc((lp->nt + 1) * sizeof *ind);
    double *val = malloc((lp->nt + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        glp_delete_prob(P);
        return NULL;
    }
    for (size_t q = 0; q < lp->np; q++) {
        int len = 0;
        for (size_t k = lp->off[q]; k < lp->off[q + 1]; k++) {
            ind[++len] = (int)lp->tr[k] + 1;
            val[len] = (double)lp->c[k];
        }
        if (!len)
            continue;
        int row = glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, GLP_LO, -(double)lp->m0[q], 0.0);
        glp_set_mat_row(P, row, len, ind, val);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = lp->off[p[i]]; k < lp->off[p[i] + 1]; k++) {
            int col = (int)lp->tr[k] + 1;
            glp_set_obj_coef(P, col, glp_get_obj_coef(P, col) +
                                         (double)a[i] * (double)lp->c[k]);
        }
    free(ind);
    free(val);
    return P;
}

/* Adds constraint l as a row; 1 when it is a constant that fails (the
 * conjunction is then unsatisfiable), -1 out of memory. */
static int add_row(const pni_lp_t *lp, glp_prob *P, const lin_t *l,
                   double *dense, int *ind, double *val)
{
    double k = (double)l->k;
    int len = 0;
    for (size_t i = 0; i < l->n; i++) {
        k -= (double)l->a[i] * (double)lp->m0[l->p[i]];
        for (size_t j = lp->off[l->p[i]]; j < lp->off[l->p[i] + 1]; j++) {
            size_t t = lp->tr[j];
            if (dense[t] == 0.0)
                ind[++len] = (int)t + 1;
            dense[t] += (double)l->a[i] * (double)lp->c[j];
        }
    }
    int n = 0;
    for (int i = 1; i <= len; i++) {
        size_t t = (size_t)ind[i] - 1;
        if (dense[t] != 0.0) {
            ind[++n] = (int)t + 1;
            val[n] = dense[t];
        }
        dense[t] = 0.0;
    }
    if (n == 0) /* 0 (ge: >=, else <=) k */
        return l->ge ? 0.0 < k : 0.0 > k;
    int row = glp_add_rows(P, 1);
    glp_set_row_bnds(P, row, l->ge ? GLP_LO : GLP_UP, k, k);
    glp_set_mat_row(P, row, n, ind, val);
    return 0;
}

static int ms_of(double seconds)
{
    return seconds <= 0.001 ? 1 : seconds > 1e6 ? 1000000000
                                                : (int)(seconds * 1000);
}

/* The branch and bound's own clock: GLPK's tm_lim is not looked at
 * everywhere, its callback is called often. */
static void on_tree(glp_tree *T, void *info)
{
    if (pni_clock() > *(const double *)info)
        glp_ios_terminate(T);
}

/* After an optimal relaxation: whether the integer problem has no
 * solution, proven by the branch and bound before deadline. */
static int integer_infeasible(glp_prob *P, double deadline)
{
    glp_iocp ip;
    glp_init_iocp(&ip);
    ip.msg_lev = GLP_MSG_OFF;
    ip.tm_lim = ms_of(deadline - pni_clock());
    ip.cb_func = on_tree;
    ip.cb_info = &deadline;
    int rc = glp_intopt(P, &ip);
    return rc == 0 && glp_mip_status(P) == GLP_NOFEAS;
}

/* Whether no integer x >= 0 meets the state equation and conjunction c:
 * 1 proven (the relaxation or the integer problem has no solution), 2
 * proven with trap cuts, 0 not proven (a solution, or no answer in
 * time). */
static int conj_impossible(const pni_lp_t *lp, const conj_t *c,
                           double seconds)
{
    glp_prob *P = equation(lp, NULL, NULL, 0);
    /* a row lists a transition once per place of the constraint at
     * most (it may cancel out and come back) */
    size_t room = (lp->nt > lp->off[lp->np] ? lp->nt : lp->off[lp->np]) + 1;
    double *dense = calloc(lp->nt + 1, sizeof *dense);
    int *ind = malloc(room * sizeof *ind);
    double *val = malloc(room * sizeof *val);
    int verdict = 0, fail = !P || !dense || !ind || !val;
    for (size_t i = 0; !fail && i < c->n && !verdict; i++)
        verdict = add_row(lp, P, &c->c[i], dense, ind, val) == 1;
    if (!fail && !verdict) {
        double t0 = pni_clock();
        glp_smcp sp;
        glp_init_smcp(&sp);
        sp.msg_lev = GLP_MSG_OFF;
        sp.presolve = GLP_ON;
        sp.tm_lim = ms_of(seconds / 2);
        int rc = glp_simplex(P, &sp);
        if (rc == GLP_ENOPFS || (rc == 0 && glp_get_status(P) == GLP_NOFEAS))
            verdict = 1;
        else if (rc == 0 && glp_get_status(P) == GLP_OPT)
            verdict = lp->traps
                          ? pni_traps_infeasible(lp->traps, P, t0 + seconds)
                          : integer_infeasible(P, t0 + seconds);
    }
    if (P)
        glp_delete_prob(P);
    free(dense);
    free(ind);
    free(val);
    return verdict;
}

int pni_lp_impossible(const pni_lp_t *lp, const pn_qformula_t *f, int neg,
                      double seconds)
{
    glp_term_out(GLP_OFF); /* standard output is the answers' */
    double t0 = pni_clock();
    /* deadlock alone (EF deadlock, AG !deadlock): its disjunctive form
     * first (half the time: often enough, and quick), then the
     * disjunction of disabled transitions whole and the siphons
     * (traps.c) */
    const pn_qformula_t *g = f;
    int gneg = neg;
    for (; g->kind == PN_QF_NOT; g = g->kids[0])
        gneg = !gneg;
    int dead = lp->traps && g->kind == PN_QF_DEADLOCK && !gneg;
    double share = dead ? seconds / 2 : seconds;
    dnf_t d = dnf_of(lp, f, neg);
    int verdict = !d.oom, cuts = 0;
    for (size_t i = 0; verdict && i < d.n; i++) {
        double left = share - (pni_clock() - t0);
        verdict = left > 0 ? conj_impossible(lp, &d.d[i],
                                             left / (double)(d.n - i))
                           : 0;
        cuts |= verdict == 2;
    }
    dnf_free(&d);
    if (verdict)
        return 1 + cuts;
    double left = seconds - (pni_clock() - t0);
    return dead && left > 0 ? pni_traps_no_deadlock(lp->traps, left) : 0;
}

pni_traps_t *pni_lp_set_traps(pni_lp_t *lp, pni_traps_t *traps)
{
    pni_traps_t *old = lp->traps;
    lp->traps = traps;
    return old;
}

unsigned pni_lp_tech(int verdict)
{
    return verdict == 3   ? PN_TECH_SIPHON_TRAP
           : verdict == 2 ? PN_TECH_STATE_EQUATION | PN_TECH_TRAPS
                          : PN_TECH_STATE_EQUATION;
}

int pni_lp_bound(const pni_lp_t *lp, const pn_qsum_t *s, double seconds,
                 uint64_t *ub)
{
    glp_term_out(GLP_OFF);
    int64_t *a = malloc((s->nplaces + 1) * sizeof *a);
    if (!a)
        return 0;
    double m0 = (double)s->constant;
    for (size_t i = 0; i < s->nplaces; i++) {
        a[i] = 1;
        m0 += (double)lp->m0[s->places[i]];
    }
    glp_prob *P = equation(lp, s->places, a, s->nplaces);
    free(a);
    if (!P)
        return 0;
    int found = 0;
    double t0 = pni_clock(), best = 0;
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.presolve = GLP_ON;
    sp.tm_lim = ms_of(seconds / 2);
    if (glp_simplex(P, &sp) == 0 && glp_get_status(P) == GLP_OPT) {
        best = floor(glp_get_obj_val(P) + m0 + 1e-6);
        found = 1;
        glp_iocp ip;
        glp_init_iocp(&ip);
        ip.msg_lev = GLP_MSG_OFF;
        ip.tm_lim = ms_of(seconds - (pni_clock() - t0));
        double deadline = t0 + seconds;
        ip.cb_func = on_tree;
        ip.cb_info = &deadline;
        /* the integer optimum, when found in time, is tighter */
        if (glp_intopt(P, &ip) == 0 && glp_mip_status(P) == GLP_OPT) {
            double v = floor(glp_mip_obj_val(P) + m0 + 1e-6);
            if (v < best)
                best = v;
        }
    }
    glp_delete_prob(P);
    if (!found || best < 0 || best >= 9.2e18)
        return 0;
    *ub = (uint64_t)best;
    return 1;
}

/* The smallest firing counts of the state equation with conjunction c,
 * into x: 1 when found in time. */
static int conj_parikh(const pni_lp_t *lp, const conj_t *c, double seconds,
                       uint64_t *x)
{
    glp_prob *P = equation(lp, NULL, NULL, 0);
    size_t room = (lp->nt > lp->off[lp->np] ? lp->nt : lp->off[lp->np]) + 1;
    double *dense = calloc(lp->nt + 1, sizeof *dense);
    int *ind = malloc(room * sizeof *ind);
    double *val = malloc(room * sizeof *val);
    int found = 0, fail = !P || !dense || !ind || !val;
    for (size_t i = 0; !fail && i < c->n; i++)
        fail = add_row(lp, P, &c->c[i], dense, ind, val) != 0;
    if (!fail) {
        double t0 = pni_clock(), deadline = t0 + seconds;
        glp_set_obj_dir(P, GLP_MIN); /* short walks: the fewest firings */
        for (size_t t = 0; t < lp->nt; t++)
            glp_set_obj_coef(P, (int)t + 1, 1.0);
        glp_smcp sp;
        glp_init_smcp(&sp);
        sp.msg_lev = GLP_MSG_OFF;
        sp.presolve = GLP_ON;
        sp.tm_lim = ms_of(seconds / 2);
        if (glp_simplex(P, &sp) == 0 && glp_get_status(P) == GLP_OPT) {
            glp_iocp ip;
            glp_init_iocp(&ip);
            ip.msg_lev = GLP_MSG_OFF;
            ip.tm_lim = ms_of(deadline - pni_clock());
            ip.cb_func = on_tree;
            ip.cb_info = &deadline;
            int mip = glp_intopt(P, &ip) == 0 &&
                      (glp_mip_status(P) == GLP_OPT ||
                       glp_mip_status(P) == GLP_FEAS);
            for (size_t t = 0; t < lp->nt; t++) {
                double v = mip ? glp_mip_col_val(P, (int)t + 1)
                               : glp_get_col_prim(P, (int)t + 1);
                v = ceil(v - 1e-6);
                x[t] = v <= 0 ? 0 : v >= 9.2e18 ? UINT64_MAX : (uint64_t)v;
            }
            found = 1;
        }
    }
    if (P)
        glp_delete_prob(P);
    free(dense);
    free(ind);
    free(val);
    return found;
}

int pni_lp_parikh(const pni_lp_t *lp, const pn_qformula_t *f, int neg,
                  double seconds, uint64_t *x)
{
    glp_term_out(GLP_OFF);
    dnf_t d = dnf_of(lp, f, neg);
    int found = 0;
    double t0 = pni_clock();
    for (size_t i = 0; !d.oom && !found && i < d.n; i++) {
        double left = seconds - (pni_clock() - t0);
        if (left <= 0)
            break;
        found = conj_parikh(lp, &d.d[i], left / (double)(d.n - i), x);
    }
    dnf_free(&d);
    return found;
}
