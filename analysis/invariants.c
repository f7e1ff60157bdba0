/*
 * Invariants for the state space: P-semiflows (Farkas' algorithm with
 * the minimal-support rule), a basis of the exact invariants, and what
 * they let the store leave out.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

/* the budget: matrix entries held at once (4 MB: the search's own tables
 * on a net of a few 100,000 states are not much more), and steps of
 * work (a tenth of a second) */
#define SF_CELLS ((size_t)1 << 19)
#define SF_WORK ((uint64_t)1 << 25)
/* a coefficient past this gives up (no overflow on the next step) */
#define SF_BIG ((int64_t)1 << 40)
/* the same for the minimal semiflows, whose steps are computed in 128
 * bits: two products of 62-bit numbers and their sum fit */
#define SF_WIDE ((int64_t)1 << 62)

/* Both searches below work on the rows [C(p) | y] of the incidence
 * matrix C and combine two rows fraction-free: these are the two steps
 * they share. */

/* The incidence matrix of the normal arcs (the other kinds move no
 * token, or take them only: resets) added into row[p][t] (by_transition:
 * its transpose, row[t][p]): the tokens t puts in p less those it takes,
 * each arc's weight taken as big at most.  over[r] (when not NULL) is set
 * when a cell of row r reaches limit in absolute value on the way;
 * returns whether any did. */
static int incidence(const pn_net_t *net, int64_t *const *row, int64_t big,
                     int64_t limit, unsigned char *over, int by_transition)
{
    int any = 0;
    for (size_t a = 0; a < pn_net_arc_count(net); a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind != PN_ARC_NORMAL)
            continue;
        int64_t w = arc->weight > (uint64_t)big ? big : (int64_t)arc->weight;
        size_t r = by_transition ? arc->transition : arc->place;
        int64_t *c = &row[r][by_transition ? arc->place : arc->transition];
        *c += arc->dir == PN_DIR_TP ? w : -w;
        if (*c >= limit || *c <= -limit) {
            any = 1;
            if (over)
                over[r] = 1;
        }
    }
    return any;
}

/* out[c] = ca a[c] + cb b[c] for c in [from, cols) (out may be a), then
 * divided by the gcd of those results.  Returns 0, or 1 when a product,
 * the sum or a result passes big in absolute value (out is then partly
 * written). */
static int combine(int64_t *out, int64_t ca, const int64_t *a, int64_t cb,
                   const int64_t *b, size_t from, size_t cols, int64_t big)
{
    int64_t g = 0;
    for (size_t c = from; c < cols; c++) {
        int64_t x, y;
        if (__builtin_mul_overflow(ca, a[c], &x) ||
            __builtin_mul_overflow(cb, b[c], &y) ||
            __builtin_add_overflow(x, y, &out[c]) || out[c] > big ||
            out[c] < -big)
            return 1;
        g = pni_gcd64(g, out[c]);
    }
    if (g > 1)
        for (size_t c = from; c < cols; c++)
            out[c] /= g;
    return 0;
}

static __int128 gcd128(__int128 a, __int128 b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        __int128 r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* combine() in 128 bits (tmp: cols cells): out[c] = (ca a[c] + cb b[c])
 * / g, g the gcd of those sums, so that a row whose sums pass 64 bits
 * but whose primitive form does not is kept.  ca, cb, a and b within
 * 2^62 in absolute value.  0, or 1 when a result passes big. */
static int combine_wide(int64_t *out, int64_t ca, const int64_t *a,
                        int64_t cb, const int64_t *b, size_t cols,
                        int64_t big, __int128 *tmp)
{
    __int128 g = 0;
    for (size_t c = 0; c < cols; c++) {
        tmp[c] = (__int128)ca * a[c] + (__int128)cb * b[c];
        if (tmp[c] && g != 1)
            g = gcd128(g, tmp[c]);
    }
    if (!g)
        g = 1;
    for (size_t c = 0; c < cols; c++) {
        __int128 x = tmp[c] / g;
        if (x > big || x < -big)
            return 1;
        out[c] = (int64_t)x;
    }
    return 0;
}

/* why a search below stopped short (eliminate(), sf_solve()) */
enum { SF_ROWS = 1, SF_WORK_OVER = 2, SF_TOO_BIG = 3 };

typedef struct {
    size_t nt, np, cols, words; /* cols = nt + np; words of a support
                                   (nt: columns to clear, np: rows of y) */
    int64_t **v;                /* rows: incidence part, then y */
    uint64_t **sup;             /* the rows of y where y > 0 */
    size_t n, cap;
    uint64_t work;
    size_t max_rows;            /* 0: the rows a step could make, held
                                   under SF_CELLS cells at once; else at
                                   most this many rows kept */
    uint64_t max_work;
    int adjacency;              /* keep only the combinations of adjacent
                                   rows (adjacent()), so that the rows are
                                   the minimal ones after every step */
    int64_t big;                /* a coefficient past this stops (SF_BIG;
                                   SF_WIDE with 128-bit steps) */
    size_t planes;              /* the hyperplanes the rows lie on so far
                                   (columns cleared, prunings): with
                                   adjacency, a minimal row's support has
                                   planes + 1 rows of y at most */
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

/* The combinatorial test of adjacency (Fukuda and Prodon): when the rows
 * are the minimal-support ones of the columns cleared so far, rows a and
 * b (of opposite signs in the column being cleared) make a minimal one
 * exactly when no other row's support lies within theirs, rs.  The rows
 * whose column is zero have left s->v already; the caller checks those
 * (with the rows made so far). */
static int adjacent(sf_t *s, size_t a, size_t b, const uint64_t *rs)
{
    s->work += s->n * s->words;
    for (size_t c = 0; c < s->n; c++)
        if (c != a && c != b && s->v[c] && contains(rs, s->sup[c], s->words))
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
    size_t nzero = s->n - npos - nneg, cap;
    if (s->max_rows) {
        if (nzero > s->max_rows)
            return SF_ROWS;
        cap = npos && nneg > (s->max_rows - nzero) / npos
                  ? s->max_rows
                  : nzero + npos * nneg;
    } else if ((npos && nneg > SF_CELLS / s->cols / npos) ||
               nzero + npos * nneg > SF_CELLS / s->cols)
        return SF_ROWS;
    else
        cap = nzero + npos * nneg;
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
    __int128 *wide = NULL;
    s->planes++;
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
            if (!wide && s->big > SF_BIG &&
                !(wide = malloc(s->cols * sizeof *wide))) {
                ret = -1;
                break;
            }
            size_t width = 0;
            for (size_t k = 0; k < s->words; k++) {
                rs[k] = s->sup[a][k] | s->sup[b][k];
                width += (size_t)__builtin_popcountll(rs[k]);
            }
            /* an extreme ray of {y >= 0 on planes hyperplanes} has a
             * support of rank planes at most, so planes + 1 rows: a wider
             * pair is not adjacent (a cheap test before the others) */
            if (s->adjacency && width > s->planes + 1)
                continue;
            /* the minimal-support rule, against the rows zero at t and
             * (without the adjacency test, which makes each new row
             * minimal) the rows made so far */
            int keep = 1;
            size_t against = s->adjacency ? nzero : n;
            s->work += against * s->words + s->cols;
            if (s->work > s->max_work) {
                ret = SF_WORK_OVER;
                break;
            }
            for (size_t k = 0; keep && k < against; k++)
                if (contains(rs, sup[k], s->words))
                    keep = 0;
            if (!keep || (s->adjacency && !adjacent(s, a, b, rs)))
                continue;
            int64_t ca = -s->v[b][t], cb = s->v[a][t], g = pni_gcd64(ca, cb);
            ca /= g;
            cb /= g;
            if (s->big > SF_BIG
                    ? combine_wide(row, ca, s->v[a], cb, s->v[b], s->cols,
                                   s->big, wide)
                    : combine(row, ca, s->v[a], cb, s->v[b], 0, s->cols,
                              s->big)) {
                ret = SF_TOO_BIG;
                break;
            }
            if (n == cap) {
                ret = SF_ROWS;
                break;
            }
            v[n] = row;
            sup[n++] = rs;
            row = NULL;
            rs = NULL;
        }
    }
    free(row);
    free(rs);
    free(wide);
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

/* s's rows: n identity rows over cols columns to clear (row i: y = e_i,
 * 1 at column cols + i), none with more than max_cells cells in all.  0,
 * SF_ROWS past max_cells, -1 out of memory (sf_close() frees what was
 * made either way). */
static int sf_open(sf_t *s, size_t n, size_t cols, size_t max_cells)
{
    sf_t z = {cols, n, cols + n, (n + 63) / 64, NULL, NULL, 0, 0, 0, 0,
              SF_WORK, 0, SF_BIG, 0};
    *s = z;
    if (!n)
        return 0;
    if (s->cols > max_cells / n)
        return SF_ROWS;
    s->v = calloc(n, sizeof *s->v);
    s->sup = calloc(n, sizeof *s->sup);
    if (!s->v || !s->sup)
        return -1;
    for (; s->n < n; s->n++) {
        size_t i = s->n;
        s->v[i] = calloc(s->cols, sizeof **s->v);
        s->sup[i] = calloc(s->words, sizeof **s->sup);
        if (!s->v[i] || !s->sup[i]) {
            s->n++;
            return -1;
        }
        s->v[i][cols + i] = 1;
        s->sup[i][i / 64] = UINT64_C(1) << (i % 64);
    }
    return 0;
}

static void sf_close(sf_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        sf_drop(s, i);
    free(s->v);
    free(s->sup);
    s->v = NULL;
    s->sup = NULL;
    s->n = 0;
}

/* Drops the rows that no solution can use, by the certificate x = 1 over
 * the columns left: every solution is a non-negative combination of the
 * rows that is zero on those columns, so it is zero on their sum too;
 * when no row's sum is negative, each row whose sum is positive has a
 * zero coefficient in every solution (and the same with the signs
 * swapped).  A row of positive weights over the places (the tokens, for
 * T-semiflows) often shows at once that most transitions are in no
 * T-semiflow, where the elimination would make rows by the million on
 * the way.  done[c]: column c is cleared (zero in every row). */
static void sf_prune(sf_t *s, const unsigned char *done)
{
    size_t npos = 0, nneg = 0;
    signed char *sign = malloc(s->n + 1);
    if (!sign)
        return; /* only an optimisation */
    for (size_t i = 0; i < s->n; i++) {
        __int128 sum = 0;
        for (size_t c = 0; c < s->nt; c++)
            if (!done[c])
                sum += s->v[i][c];
        sign[i] = (signed char)(sum > 0 ? 1 : sum < 0 ? -1 : 0);
        npos += sum > 0;
        nneg += sum < 0;
    }
    s->work += s->n * s->nt;
    if ((npos && nneg) || (!npos && !nneg)) {
        free(sign);
        return;
    }
    size_t n = 0;
    s->planes++; /* the face of the rows whose sum is zero */
    for (size_t i = 0; i < s->n; i++) {
        if (sign[i]) {
            sf_drop(s, i);
            continue;
        }
        s->v[n] = s->v[i];
        s->sup[n++] = s->sup[i];
    }
    s->n = n;
    free(sign);
}

/* Clears every column of s (its first nt), the cheapest first (the fewest
 * rows made): the rows left are the semiflows.  0, SF_ROWS, SF_WORK_OVER
 * or SF_TOO_BIG past the budget, -1 out of memory. */
static int sf_solve(sf_t *s)
{
    size_t nt = s->nt;
    unsigned char *done = calloc(nt + 1, 1);
    if (!done)
        return -1;
    int ret = 0;
    while (!ret) {
        if (s->adjacency)
            sf_prune(s, done);
        size_t best = nt;
        double cost = 0;
        for (size_t t = 0; t < nt; t++) {
            if (done[t])
                continue;
            size_t pos = 0, neg = 0;
            for (size_t i = 0; i < s->n; i++) {
                pos += s->v[i][t] > 0;
                neg += s->v[i][t] < 0;
            }
            s->work += s->n;
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
        if (s->work > s->max_work)
            ret = SF_WORK_OVER;
        else
            ret = eliminate(s, best);
        done[best] = 1;
    }
    free(done);
    return ret;
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
    sf_t s;
    int ret = sf_open(&s, np + nt, nt, SF_CELLS);
    for (size_t t = 0; !ret && t < nt; t++)
        s.v[np + t][t] = 1;
    if (!ret && incidence(net, s.v, SF_BIG, SF_BIG + 1, NULL, 0))
        ret = 1;
    if (!ret)
        ret = sf_solve(&s);
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
    sf_close(&s);
    if (ret > 0)
        ret = 1;
    if (ret)
        for (size_t p = 0; p < np; p++)
            bound[p] = UINT64_MAX;
    return ret;
}

typedef struct {
    size_t size, row;
} sized_t;

static int by_size(const void *a, const void *b)
{
    const sized_t *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The rows of s (every column cleared) whose support contains no other
 * kept row's: the minimal ones, each once (a minimal support has one
 * primitive semiflow), narrowest first, into out (dim coefficients a
 * row).  0, SF_WORK_OVER, -1. */
static int sf_minimal(sf_t *s, size_t dim, pni_flows_t *out)
{
    sized_t *ord = malloc((s->n + 1) * sizeof *ord);
    size_t nk = 0;
    out->y = calloc(s->n + 1, sizeof *out->y);
    out->exact = calloc(s->n + 1, 1);
    if (!ord || !out->y || !out->exact) {
        free(ord);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++) {
        ord[i].row = i;
        ord[i].size = 0;
        for (size_t k = 0; k < s->words; k++)
            ord[i].size += (size_t)__builtin_popcountll(s->sup[i][k]);
    }
    qsort(ord, s->n, sizeof *ord, by_size);
    int ret = 0;
    for (size_t i = 0; !ret && i < s->n; i++) {
        const uint64_t *si = s->sup[ord[i].row];
        int keep = 1;
        /* the adjacency test made each row minimal already: checked here
         * only without it */
        size_t against = s->adjacency ? 0 : nk;
        s->work += against * s->words + dim;
        if (s->work > s->max_work) {
            ret = SF_WORK_OVER;
            break;
        }
        /* ord[0 .. nk): the rows kept so far, none wider than this one */
        for (size_t k = 0; keep && k < against; k++)
            if (contains(si, s->sup[ord[k].row], s->words))
                keep = 0;
        if (!keep)
            continue;
        size_t r = ord[i].row;
        ord[i] = ord[nk];
        ord[nk].row = r;
        if (!(out->y[nk] = malloc((dim + 1) * sizeof **out->y))) {
            ret = -1;
            break;
        }
        memcpy(out->y[nk], s->v[r] + s->nt, dim * sizeof **out->y);
        out->exact[nk] = 1;
        out->n = ++nk;
    }
    free(ord);
    return ret;
}

int pni_minimal_flows(const pn_net_t *net, int by_transition,
                      size_t max_rows, uint64_t max_cells,
                      uint64_t max_work, pni_flows_t *out)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t n = by_transition ? nt : np, cols = by_transition ? np : nt;
    out->n = 0;
    out->y = NULL;
    out->exact = NULL;
    sf_t s;
    int ret = sf_open(&s, n, cols, max_cells);
    if (s.cols && (uint64_t)max_rows > max_cells / s.cols)
        max_rows = (size_t)(max_cells / s.cols);
    s.max_rows = max_rows ? max_rows : 1;
    s.max_work = max_work;
    s.adjacency = 1;
    s.big = SF_WIDE;
    if (!ret && incidence(net, s.v, SF_BIG, SF_BIG + 1, NULL, by_transition))
        ret = SF_TOO_BIG;
    if (!ret)
        ret = sf_solve(&s);
    if (!ret)
        ret = sf_minimal(&s, n, out);
    sf_close(&s);
    if (ret)
        pni_flows_free(out);
    return ret;
}

/* ---- invariants: groups and derived places ------------------------------ */

typedef struct {
    const pn_net_t *net;
    size_t *aoff, *aidx;    /* normal arcs of place p: aidx[aoff[p] ..
                               aoff[p + 1]) */
    unsigned char *reset;   /* per place: a reset arc */
    __int128 *acc;          /* per transition, zero between calls */
    unsigned char *seen;    /* per transition, zero between calls */
    uint32_t *touched;
} flowck_t;

/* Whether the weights y over places pl[0..n) (none zero) make a subflow
 * of the net: y C_t <= 0 for every transition t over the normal arcs (no
 * firing raises y M: resets only take tokens), or, exact, y C_t = 0 with
 * no reset arc on those places (no firing changes y M).  Checked here on
 * the arcs themselves, whatever found y. */
static int flow_holds(flowck_t *f, const uint32_t *pl, const int64_t *y,
                      size_t n, int exact)
{
    size_t nt = 0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = pl[i];
        if (f->reset[p] && exact)
            ok = 0;
        for (size_t k = f->aoff[p]; k < f->aoff[p + 1]; k++) {
            const pn_arc_t *arc = pn_net_arc(f->net, f->aidx[k]);
            size_t t = arc->transition;
            __int128 w = (__int128)arc->weight * y[i];
            if (!f->seen[t]) {
                f->seen[t] = 1;
                f->touched[nt++] = (uint32_t)t;
            }
            f->acc[t] += arc->dir == PN_DIR_TP ? w : -w;
        }
    }
    for (size_t k = 0; k < nt; k++) {
        size_t t = f->touched[k];
        if (f->acc[t] > 0 || (exact && f->acc[t] != 0))
            ok = 0;
        f->acc[t] = 0;
        f->seen[t] = 0;
    }
    return ok;
}

typedef struct {
    size_t row, n;
    unsigned width, saving;
    int exact;
} cand_t;

static int by_saving(const void *a, const void *b)
{
    const cand_t *x = a, *y = b;
    if (x->saving != y->saving)
        return x->saving > y->saving ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* a coefficient past this leaves its row out */
#define ELIM_BIG ((int64_t)1 << 40)

/* kernel(): matrix cells and steps of work at most */
#define KER_CELLS ((uint64_t)1 << 20)
#define KER_WORK ((uint64_t)1 << 27)

/* A basis of the exact invariants (y C = 0 over the places with no reset
 * arc), by fraction-free Gaussian elimination over the rows [C(p) | e_p]:
 * each transition's column is cleared with one pivot row, which leaves
 * (its place stored); the rows left have C-part zero: y, with y(p) != 0
 * for its own place p and its other places pivots, so p = (y M0 - the
 * rest) / y(p) in every reachable marking.  The pivots are group members
 * first (stored anyway), then the narrowest places.  *rows (np + nt
 * columns a row, y at nt) and kp[0..*nk) their places; 0, 1 past the
 * budget, -1 out of memory. */
static int kernel(const pn_reach_t *r, const pn_net_t *net,
                  const flowck_t *f, const uint8_t *nb, int64_t **rows,
                  uint32_t *kp, size_t *nk)
{
    size_t np = r->np, nt = r->nt, cols = nt + np;
    *rows = NULL;
    *nk = 0;
    if (!np || (uint64_t)np * cols > KER_CELLS)
        return 1;
    int64_t *a = calloc(np * cols, sizeof *a);
    int64_t **row = malloc(np * sizeof *row);
    unsigned char *big = calloc(np, 1), *live = malloc(np);
    if (!a || !row || !big || !live) {
        free(a);
        free(row);
        free(big);
        free(live);
        return -1;
    }
    int ret = 0;
    for (size_t p = 0; p < np; p++) {
        row[p] = a + p * cols;
        a[p * cols + nt + p] = 1;
    }
    incidence(net, row, ELIM_BIG, ELIM_BIG, big, 0);
    for (size_t p = 0; p < np; p++)
        live[p] = !f->reset[p] && !big[p]; /* big: in no invariant */
    free(row);
    free(big);
    uint64_t work = 0;
    for (size_t t = 0; !ret && t < nt; t++) {
        size_t best = np;
        for (size_t p = 0; p < np; p++) {
            int64_t v = a[p * cols + t];
            if (!live[p] || !v)
                continue;
            if (best == np) {
                best = p;
                continue;
            }
            int gp = r->lay.kind[p] == PK_GROUP,
                gb = r->lay.kind[best] == PK_GROUP;
            int64_t vb = a[best * cols + t];
            if (gp != gb ? gp
                         : nb[p] != nb[best] ? nb[p] < nb[best]
                                             : llabs(v) < llabs(vb))
                best = p;
        }
        if (best == np)
            continue;
        live[best] = 0;
        const int64_t *pr = a + best * cols;
        int64_t x = pr[t];
        for (size_t q = 0; q < np; q++) {
            int64_t *z = a + q * cols, v = z[t];
            if (!live[q] || !v)
                continue;
            work += cols - t;
            if (work > KER_WORK) {
                ret = 1;
                break;
            }
            /* the columns before t are zero in every live row */
            if (combine(z, x, z, -v, pr, t, cols, ELIM_BIG))
                live[q] = 0; /* too large: in no invariant */
        }
    }
    if (!ret)
        for (size_t p = 0; p < np; p++)
            if (live[p])
                kp[(*nk)++] = (uint32_t)p;
    free(live);
    if (ret)
        free(a);
    else
        *rows = a;
    return ret;
}

/* The flow checker's tables: the normal arcs of each place, its reset
 * arcs, zeroed sums per transition. */
static int flowck_open(flowck_t *f, const pn_net_t *net, size_t np,
                       size_t nt)
{
    size_t na = pn_net_arc_count(net);
    flowck_t z = {net, calloc(np + 2, sizeof(size_t)),
                  malloc((na + 1) * sizeof(size_t)), calloc(np + 1, 1),
                  calloc(nt + 1, sizeof(__int128)), calloc(nt + 1, 1),
                  malloc((nt + 1) * sizeof(uint32_t))};
    *f = z;
    if (!f->aoff || !f->aidx || !f->reset || !f->acc || !f->seen ||
        !f->touched)
        return -1;
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind == PN_ARC_RESET)
            f->reset[arc->place] = 1;
        else if (arc->kind == PN_ARC_NORMAL)
            f->aoff[arc->place + 1]++;
    }
    for (size_t p = 0; p < np; p++)
        f->aoff[p + 1] += f->aoff[p];
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        if (arc->kind == PN_ARC_NORMAL)
            f->aidx[f->aoff[arc->place]++] = a;
    }
    for (size_t p = np; p > 0; p--)
        f->aoff[p] = f->aoff[p - 1];
    f->aoff[0] = 0;
    return 0;
}

static void flowck_close(flowck_t *f)
{
    free(f->aoff);
    free(f->aidx);
    free(f->reset);
    free(f->acc);
    free(f->seen);
    free(f->touched);
}

/* The one-hot groups: places holding one token at most together (the
 * unit subflows of y M0 = 1), each stored as one code (r->lay.grp, gidx
 * and the g_ tables); their members' widths in nb set to 0. */
static pn_status_t find_groups(pn_reach_t *r, const pn_net_t *net,
                               const pni_flows_t *fl, flowck_t *f,
                               uint8_t *nb)
{
    size_t np = r->np;
    pn_status_t st = PN_ENOMEM;
    cand_t *cand = malloc((fl->n + 1) * sizeof *cand);
    uint32_t *pl = malloc((np + 1) * sizeof *pl);
    int64_t *co = malloc((np + 1) * sizeof *co);
    r->lay.grp = malloc((np + 1) * sizeof *r->lay.grp);
    r->lay.gidx = malloc((np + 1) * sizeof *r->lay.gidx);
    if (!cand || !pl || !co || !r->lay.grp || !r->lay.gidx)
        goto out;
    /* groups: the unit subflows with y M0 = 1, the most bits saved first,
     * each on places no group chosen before has */
    size_t nc = 0;
    for (size_t i = 0; i < fl->n; i++) {
        const int64_t *y = fl->y[i];
        size_t n = 0;
        uint64_t sum = 0;
        int unit = 1, exact = fl->exact[i];
        for (size_t p = 0; unit && p < np; p++) {
            if (!y[p])
                continue;
            if (y[p] != 1 || !r->lay.changed[p] || nb[p] != 1)
                unit = 0;
            sum += pn_net_place(net, p)->marking;
            if (f->reset[p])
                exact = 0;
            n++;
        }
        if (!unit || sum != 1 || n < 2)
            continue;
        unsigned width = pni_bits_for(exact ? n - 1 : n);
        if (width >= n)
            continue;
        cand_t c = {i, n, width, (unsigned)n - width, exact};
        cand[nc++] = c;
    }
    qsort(cand, nc, sizeof *cand, by_saving);
    size_t ng = 0, nmem = 0;
    for (size_t c = 0; c < nc; c++) {
        const int64_t *y = fl->y[cand[c].row];
        size_t n = 0;
        int free_ = 1;
        for (size_t p = 0; free_ && p < np; p++)
            if (y[p]) {
                if (r->lay.kind[p] != PK_PLAIN)
                    free_ = 0;
                pl[n] = (uint32_t)p;
                co[n++] = 1;
            }
        if (!free_ || !flow_holds(f, pl, co, n, cand[c].exact))
            continue;
        for (size_t k = 0; k < n; k++) {
            r->lay.kind[pl[k]] = PK_GROUP;
            r->lay.grp[pl[k]] = (uint32_t)ng;
            r->lay.gidx[pl[k]] = (uint32_t)k;
            nb[pl[k]] = 0;
        }
        cand[ng++] = cand[c];
        nmem += n;
    }
    r->lay.g_off = malloc((ng + 1) * sizeof *r->lay.g_off);
    r->lay.g_pl = malloc((nmem + 1) * sizeof *r->lay.g_pl);
    r->lay.g_w = malloc(ng + 1);
    r->lay.g_exact = malloc(ng + 1);
    r->lay.g_bit = malloc((ng + 1) * sizeof *r->lay.g_bit);
    if (!r->lay.g_off || !r->lay.g_pl || !r->lay.g_w || !r->lay.g_exact ||
        !r->lay.g_bit)
        goto out;
    r->lay.ngroups = (uint32_t)ng;
    r->lay.g_off[0] = 0;
    for (size_t g = 0; g < ng; g++) {
        r->lay.g_w[g] = (uint8_t)cand[g].width;
        r->lay.g_exact[g] = (unsigned char)cand[g].exact;
        r->lay.g_off[g + 1] = r->lay.g_off[g] + (uint32_t)cand[g].n;
    }
    for (size_t p = 0; p < np; p++)
        if (r->lay.kind[p] == PK_GROUP)
            r->lay.g_pl[r->lay.g_off[r->lay.grp[p]] + r->lay.gidx[p]] =
                (uint32_t)p;

    st = PN_OK;
out:
    free(cand);
    free(pl);
    free(co);
    return st;
}

/* The derived places: a basis of the exact invariants (kernel()), each
 * row giving its own place from the stored ones (r->lay.d_ tables); their
 * widths in nb set to 0. */
static pn_status_t find_derived(pn_reach_t *r, const pn_net_t *net,
                                flowck_t *f, uint8_t *nb)
{
    size_t np = r->np, nt = r->nt;
    pn_status_t st = PN_ENOMEM;
    uint32_t *pl = malloc((np + 1) * sizeof *pl);
    int64_t *co = malloc((np + 1) * sizeof *co);
    uint32_t *piv = malloc((np + 1) * sizeof *piv);
    int64_t **prow = malloc((np + 1) * sizeof *prow);
    int64_t *kbuf = NULL;
    if (!pl || !co || !piv || !prow)
        goto out;
    /* derived: a basis of the exact invariants (kernel()), each row giving
     * its own place from stored ones; past kernel()'s budget, the places
     * no transition changes only */
    size_t nconst = 0, npiv = 0, nterms = 0, nk = 0;
    int kst = kernel(r, net, f, nb, &kbuf, piv, &nk);
    if (kst < 0)
        goto out;
    for (size_t i = 0; !kst && i < nk; i++) {
        /* a basis of the exact invariants: each its own place, from the
         * stored ones */
        uint32_t p = piv[i];
        const int64_t *y = kbuf + (size_t)p * (np + nt) + nt;
        size_t n = 0;
        __int128 c = 0;
        if (r->lay.kind[p] != PK_PLAIN)
            continue;
        for (size_t q = 0; q < np; q++)
            if (y[q]) {
                pl[n] = (uint32_t)q;
                co[n++] = y[q];
                c += (__int128)y[q] * pn_net_place(net, q)->marking;
            }
        if (c > ((__int128)1 << 62) || c < -((__int128)1 << 62) ||
            !flow_holds(f, pl, co, n, 1))
            continue;
        r->lay.kind[p] = PK_DERIVED;
        nb[p] = 0;
        piv[npiv] = p;
        prow[npiv++] = (int64_t *)y;
        nterms += n - 1;
    }
    for (size_t p = 0; kst && p < np; p++)
        if (!r->lay.changed[p] && r->lay.kind[p] == PK_PLAIN) {
            r->lay.kind[p] = PK_DERIVED;
            nb[p] = 0;
            nconst++;
        }
    size_t nd = nconst + npiv;
    r->lay.d_place = malloc((nd + 1) * sizeof *r->lay.d_place);
    r->lay.d_off = malloc((nd + 1) * sizeof *r->lay.d_off);
    r->lay.d_q = malloc((nterms + 1) * sizeof *r->lay.d_q);
    r->lay.d_a = malloc((nterms + 1) * sizeof *r->lay.d_a);
    r->lay.d_c = malloc((nd + 1) * sizeof *r->lay.d_c);
    r->lay.d_div = malloc((nd + 1) * sizeof *r->lay.d_div);
    if (!r->lay.d_place || !r->lay.d_off || !r->lay.d_q || !r->lay.d_a ||
        !r->lay.d_c || !r->lay.d_div)
        goto out;
    size_t k = 0, t = 0;
    r->lay.d_off[0] = 0;
    for (size_t p = 0; nconst && p < np; p++)
        if (!r->lay.changed[p] && r->lay.kind[p] == PK_DERIVED) {
            r->lay.d_place[k] = (uint32_t)p;
            r->lay.d_c[k] = (int64_t)pn_net_place(net, p)->marking;
            r->lay.d_div[k] = 1;
            r->lay.d_off[++k] = (uint32_t)t;
        }
    for (size_t i = npiv; i-- > 0;) {
        const int64_t *y = prow[i];
        uint32_t p = piv[i];
        int64_t sign = y[p] < 0 ? -1 : 1;
        __int128 c = 0;
        for (size_t q = 0; q < np; q++) {
            if (!y[q])
                continue;
            c += (__int128)y[q] * pn_net_place(net, q)->marking;
            if (q != p) {
                r->lay.d_q[t] = (uint32_t)q;
                r->lay.d_a[t++] = sign * y[q];
            }
        }
        r->lay.d_place[k] = p;
        r->lay.d_c[k] = (int64_t)(sign * c);
        r->lay.d_div[k] = sign * y[p];
        r->lay.d_off[++k] = (uint32_t)t;
    }
    r->lay.nder = (uint32_t)nd;
    st = PN_OK;
out:
    free(pl);
    free(co);
    free(piv);
    free(prow);
    free(kbuf);
    return st;
}

/* What the net's invariants let go unstored, on the first widths nb
 * (set to 0 for what is not stored as a count), in three steps: the flow
 * checker's tables; groups of places holding one token at most together
 * (from the unit subflows of y M0 = 1), stored as one code; places that
 * an exact invariant gives from the stored ones (a basis of them,
 * kernel(); a place no transition changes is one), not stored.  Every
 * flow used is checked on the net's arcs. */
pn_status_t pni_compress(pn_reach_t *r, const pn_net_t *net,
                         const pni_flows_t *fl, uint8_t *nb)
{
    flowck_t f;
    pn_status_t st = PN_ENOMEM;
    if (!flowck_open(&f, net, r->np, r->nt) &&
        !(st = find_groups(r, net, fl, &f, nb)))
        st = find_derived(r, net, &f, nb);
    flowck_close(&f);
    return st;
}
