/*
 * Place bounds from the P-semiflows of a net (Farkas' algorithm with the
 * minimal-support rule, within a budget), for the state-space explorer:
 * the first width of each place in a packed marking, and a proof that the
 * net is bounded.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "engine_private.h"
#include "lib_private.h"

/* the budget: matrix entries held at once (4 MB: the search's own tables
 * on a net of a few 100,000 states are not much more), and steps of
 * work (a tenth of a second) */
#define SF_CELLS ((size_t)1 << 19)
#define SF_WORK ((uint64_t)1 << 25)
/* a coefficient past this gives up (no overflow on the next step) */
#define SF_BIG ((int64_t)1 << 40)

typedef struct {
    size_t nt, np, cols, words; /* cols = nt + np; words of a support */
    int64_t **v;                /* rows: incidence part, then y */
    uint64_t **sup;             /* the places where y > 0 */
    size_t n, cap;
    uint64_t work;
} sf_t;

static void sf_drop(sf_t *s, size_t i)
{
    free(s->v[i]);
    free(s->sup[i]);
    s->v[i] = NULL;
    s->sup[i] = NULL;
}

/* Whether support a contains support b. */
static int contains(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t k = 0; k < words; k++)
        if (b[k] & ~a[k])
            return 0;
    return 1;
}

/* Eliminates column t: the rows zero there stay, each pair of rows of
 * opposite signs there gives their positive combination that is zero
 * there (unless its support contains another row's).  0, 1 over budget,
 * -1 out of memory. */
static int eliminate(sf_t *s, size_t t)
{
    size_t npos = 0, nneg = 0;
    for (size_t i = 0; i < s->n; i++) {
        npos += s->v[i][t] > 0;
        nneg += s->v[i][t] < 0;
    }
    size_t nzero = s->n - npos - nneg;
    if ((npos && nneg > SF_CELLS / s->cols / npos) ||
        nzero + npos * nneg > SF_CELLS / s->cols)
        return 1;
    size_t cap = nzero + npos * nneg;
    int64_t **v = malloc((cap + 1) * sizeof *v);
    uint64_t **sup = malloc((cap + 1) * sizeof *sup);
    if (!v || !sup) {
        free(v);
        free(sup);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->v[i][t]) {
            v[n] = s->v[i];
            sup[n++] = s->sup[i];
            s->v[i] = NULL;
            s->sup[i] = NULL;
        }
    int ret = 0;
    int64_t *row = NULL;
    uint64_t *rs = NULL;
    for (size_t a = 0; !ret && a < s->n; a++) {
        if (!s->v[a] || s->v[a][t] <= 0)
            continue;
        for (size_t b = 0; !ret && b < s->n; b++) {
            if (!s->v[b] || s->v[b][t] >= 0)
                continue;
            if (!row && (!(row = malloc(s->cols * sizeof *row)) ||
                         !(rs = malloc(s->words * sizeof *rs)))) {
                ret = -1;
                break;
            }
            for (size_t k = 0; k < s->words; k++)
                rs[k] = s->sup[a][k] | s->sup[b][k];
            /* the minimal-support rule */
            int keep = 1;
            s->work += n * s->words + s->cols;
            if (s->work > SF_WORK) {
                ret = 1;
                break;
            }
            for (size_t k = 0; keep && k < n; k++)
                if (contains(rs, sup[k], s->words))
                    keep = 0;
            if (!keep)
                continue;
            int64_t ca = -s->v[b][t], cb = s->v[a][t], g = pni_gcd64(ca, cb);
            ca /= g;
            cb /= g;
            int64_t all = 0;
            for (size_t c = 0; c < s->cols; c++) {
                int64_t x, y;
                if (__builtin_mul_overflow(ca, s->v[a][c], &x) ||
                    __builtin_mul_overflow(cb, s->v[b][c], &y) ||
                    __builtin_add_overflow(x, y, &row[c]) ||
                    row[c] > SF_BIG || row[c] < -SF_BIG) {
                    ret = 1;
                    break;
                }
                all = pni_gcd64(all, row[c]);
            }
            if (ret)
                break;
            if (all > 1)
                for (size_t c = 0; c < s->cols; c++)
                    row[c] /= all;
            v[n] = row;
            sup[n++] = rs;
            row = NULL;
            rs = NULL;
        }
    }
    free(row);
    free(rs);
    for (size_t i = 0; i < s->n; i++)
        sf_drop(s, i);
    free(s->v);
    free(s->sup);
    s->v = v;
    s->sup = sup;
    s->n = n;
    return ret;
}

void pni_flows_free(pni_flows_t *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->y[i]);
    free(f->y);
    free(f->exact);
    f->y = NULL;
    f->exact = NULL;
    f->n = 0;
}

int pni_semiflow_bounds(const pn_net_t *net, uint64_t *bound)
{
    return pni_semiflows(net, bound, NULL);
}

int pni_semiflows(const pn_net_t *net, uint64_t *bound, pni_flows_t *flows)
{
    if (flows) {
        flows->n = 0;
        flows->y = NULL;
        flows->exact = NULL;
    }
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    for (size_t p = 0; p < np; p++)
        bound[p] = UINT64_MAX;
    if (!np)
        return 0;
    /* rows: one per place (y) and one per transition (a slack z(t) >= 0
     * with y C + z = 0: y C <= 0, firings never raise y M) */
    size_t nr = np + nt;
    sf_t s = {nt, np, nt + nr, (nr + 63) / 64, NULL, NULL, 0, 0, 0};
    if (s.cols > SF_CELLS / nr)
        return 1;
    s.v = calloc(nr, sizeof *s.v);
    s.sup = calloc(nr, sizeof *s.sup);
    unsigned char *done = calloc(nt + 1, 1);
    int ret = s.v && s.sup && done ? 0 : -1;
    for (size_t p = 0; !ret && p < nr; p++) {
        s.v[p] = calloc(s.cols, sizeof **s.v);
        s.sup[p] = calloc(s.words, sizeof **s.sup);
        if (!s.v[p] || !s.sup[p])
            ret = -1;
        else {
            s.v[p][nt + p] = 1;
            s.sup[p][p / 64] = UINT64_C(1) << (p % 64);
            if (p >= np)
                s.v[p][p - np] = 1;
        }
    }
    s.n = nr;
    /* the incidence matrix (normal arcs; the other kinds move no token,
     * or take them only: resets) */
    for (size_t a = 0; !ret && a < pn_net_arc_count(net); a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind != PN_ARC_NORMAL)
            continue;
        int64_t w = arc->weight > (uint64_t)SF_BIG ? SF_BIG
                                                   : (int64_t)arc->weight;
        int64_t *c = &s.v[arc->place][arc->transition];
        *c += arc->dir == PN_DIR_TP ? w : -w;
        if (*c > SF_BIG || *c < -SF_BIG)
            ret = 1;
    }
    /* the columns, cheapest first (the fewest rows made) */
    for (;;) {
        if (ret)
            break;
        size_t best = nt;
        double cost = 0;
        for (size_t t = 0; t < nt; t++) {
            if (done[t])
                continue;
            size_t pos = 0, neg = 0;
            for (size_t i = 0; i < s.n; i++) {
                pos += s.v[i][t] > 0;
                neg += s.v[i][t] < 0;
            }
            s.work += s.n;
            if (!pos && !neg) {
                done[t] = 1;
                continue;
            }
            double c = (double)pos * (double)neg - (double)pos - (double)neg;
            if (best == nt || c < cost) {
                best = t;
                cost = c;
            }
        }
        if (best == nt)
            break;
        if (s.work > SF_WORK)
            ret = 1;
        else
            ret = eliminate(&s, best);
        done[best] = 1;
    }
    /* every row left is a subflow y (y >= 0, y C <= 0): for every
     * reachable M, y M <= y M0 (resets only take tokens; read arcs,
     * inhibitors and capacities only forbid firings), so M(p) <=
     * y M0 / y(p) */
    for (size_t i = 0; !ret && i < s.n; i++) {
        const int64_t *y = s.v[i] + nt;
        uint64_t sum = 0;
        for (size_t p = 0; p < np; p++) {
            uint64_t m = pn_net_place(net, p)->marking, x;
            if (y[p] && (__builtin_mul_overflow((uint64_t)y[p], m, &x) ||
                         __builtin_add_overflow(sum, x, &sum)))
                sum = UINT64_MAX;
            if (sum == UINT64_MAX)
                break;
        }
        if (sum == UINT64_MAX)
            continue;
        for (size_t p = 0; p < np; p++)
            if (y[p] > 0 && sum / (uint64_t)y[p] < bound[p])
                bound[p] = sum / (uint64_t)y[p];
    }
    /* the rows themselves, for the caller: y, and whether y C = 0 (every
     * slack zero) */
    if (!ret && flows && s.n) {
        flows->y = calloc(s.n, sizeof *flows->y);
        flows->exact = calloc(s.n, 1);
        if (!flows->y || !flows->exact)
            ret = -1;
        for (size_t i = 0; !ret && i < s.n; i++) {
            if (!(flows->y[i] = malloc(np * sizeof **flows->y))) {
                ret = -1;
                break;
            }
            flows->n++;
            memcpy(flows->y[i], s.v[i] + nt, np * sizeof **flows->y);
            int exact = 1;
            for (size_t t = 0; t < nt; t++)
                if (s.v[i][nt + np + t])
                    exact = 0;
            flows->exact[i] = (unsigned char)exact;
        }
        if (ret)
            pni_flows_free(flows);
    }
    for (size_t i = 0; i < s.n; i++)
        sf_drop(&s, i);
    free(s.v);
    free(s.sup);
    free(done);
    if (ret)
        for (size_t p = 0; p < np; p++)
            bound[p] = UINT64_MAX;
    return ret;
}
