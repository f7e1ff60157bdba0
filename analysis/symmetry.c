/*
 * Symmetry between identical parts of a net (the warps of one program on a
 * GPU net, the copies of a component): markings stored in a canonical form
 * under the net's automorphisms that permute such parts.
 *
 * The parts are found from the net's structure: the places and
 * transitions are coloured by refinement (initial marking and capacity,
 * then the colours of their neighbours through each kind, direction and
 * weight of arc, until the colouring is stable); the nodes whose colour
 * is shared by others are cut into connected components, and components
 * with the same colours are the candidate blocks of one class, matched
 * node to node by colour (by a backtracking search that keeps the arcs
 * where a colour repeats within a block).  The colours and the matching
 * only propose: the swap of the first block with each other one is checked
 * to be an automorphism of the net (same initial marking and capacity
 * place by place, the same arcs with their kinds and weights) before the
 * class is used.  Those swaps generate every permutation of the blocks,
 * so a marking's orbit is the set of its block permutations, and sorting
 * the blocks' markings gives one representative per orbit.
 *
 * A class is used only when every query is invariant under each of its
 * swaps (its formula mapped is the same formula, up to the order of the
 * operands of && and ||): the quotient graph is then bisimilar to the
 * graph, so reachability, deadlock, CTL and the lengths of paths to dead
 * markings are the same on it.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "lib_private.h"

typedef struct {
    uint32_t k;         /* blocks */
    uint32_t plen, tlen; /* places, transitions of a block */
    uint32_t *pl, *tr;  /* block b: pl[b * plen ..], tr[b * tlen ..] */
} sym_class_t;

struct pni_sym {
    uint32_t np, nt;
    size_t ncl;
    sym_class_t *cl;
    uint32_t *order;    /* scratch: blocks sorted */
    uint64_t *tmp;      /* scratch: a marking */
};

void pni_sym_free(pni_sym_t *s)
{
    if (!s)
        return;
    for (size_t c = 0; c < s->ncl; c++) {
        free(s->cl[c].pl);
        free(s->cl[c].tr);
    }
    free(s->cl);
    free(s->order);
    free(s->tmp);
    free(s);
}

/* ---- the check: is this permutation an automorphism? -------------------- */

typedef struct {
    size_t p, t;
    uint64_t w;
    int kind, dir;
} arc_key_t;

static int arc_cmp(const void *a, const void *b)
{
    const arc_key_t *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->dir != y->dir)
        return x->dir < y->dir ? -1 : 1;
    return x->w < y->w ? -1 : x->w > y->w;
}

static int is_permutation(const uint32_t *perm, size_t n, unsigned char *seen)
{
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
        if (perm[i] >= n || seen[perm[i]])
            return 0;
        seen[perm[i]] = 1;
    }
    return 1;
}

int pni_sym_verify(const pn_net_t *net, const uint32_t *pp,
                   const uint32_t *tp)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t na = pn_net_arc_count(net);
    unsigned char *seen = malloc(np > nt ? np + 1 : nt + 1);
    arc_key_t *a = malloc((na + 1) * sizeof *a);
    arc_key_t *b = malloc((na + 1) * sizeof *b);
    int ok = seen && a && b && is_permutation(pp, np, seen) &&
             is_permutation(tp, nt, seen);
    for (size_t p = 0; ok && p < np; p++) {
        const pn_place_t *x = pn_net_place(net, p);
        const pn_place_t *y = pn_net_place(net, pp[p]);
        ok = x->marking == y->marking && x->capacity == y->capacity;
    }
    for (size_t i = 0; ok && i < na; i++) {
        const pn_arc_t *arc = pn_net_arc(net, i);
        a[i] = (arc_key_t){arc->place, arc->transition, arc->weight,
                           (int)arc->kind, (int)arc->dir};
        b[i] = (arc_key_t){pp[arc->place], tp[arc->transition], arc->weight,
                           (int)arc->kind, (int)arc->dir};
    }
    if (ok && na) {
        /* the same arcs, parallel ones counted */
        qsort(a, na, sizeof *a, arc_cmp);
        qsort(b, na, sizeof *b, arc_cmp);
        for (size_t i = 0; ok && i < na; i++)
            ok = !arc_cmp(&a[i], &b[i]);
    }
    free(seen);
    free(a);
    free(b);
    return ok;
}

/* ---- colour refinement ----------------------------------------------------
 */

static uint64_t mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t distinct(const uint64_t *col, size_t n, uint64_t *tmp)
{
    memcpy(tmp, col, n * sizeof *col);
    qsort(tmp, n, sizeof *tmp, u64_cmp);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || tmp[i] != tmp[i - 1];
    return d;
}

/* The stable colouring of the places (0 .. np) and transitions (np ..):
 * a node's new colour is its own with the multiset of its arcs (kind,
 * direction, weight, the other end's colour) hashed in; a collision can
 * only join classes, which the check of each swap catches. */
static int refine(const pn_net_t *net, size_t np, size_t nt, uint64_t *col)
{
    size_t n = np + nt, na = pn_net_arc_count(net);
    uint64_t *next = malloc((n + 1) * sizeof *next);
    uint64_t *tmp = malloc((n + 1) * sizeof *tmp);
    if (!next || !tmp) {
        free(next);
        free(tmp);
        return -1;
    }
    for (size_t p = 0; p < np; p++)
        col[p] = mix(mix(pn_net_place(net, p)->marking) ^
                     pn_net_place(net, p)->capacity);
    for (size_t t = 0; t < nt; t++)
        col[np + t] = mix(UINT64_C(0x5bd1e995));
    size_t classes = distinct(col, n, tmp);
    for (size_t round = 0; round < n; round++) {
        for (size_t v = 0; v < n; v++)
            next[v] = mix(col[v]);
        for (size_t i = 0; i < na; i++) {
            const pn_arc_t *a = pn_net_arc(net, i);
            uint64_t lab = mix(((uint64_t)a->kind << 1 | a->dir) ^
                               mix(a->weight));
            size_t p = a->place, t = np + a->transition;
            next[p] += mix(lab ^ col[t] ^ UINT64_C(1));
            next[t] += mix(lab ^ col[p] ^ UINT64_C(2));
        }
        size_t d = distinct(next, n, tmp);
        memcpy(col, next, n * sizeof *col);
        if (d == classes)
            break;
        classes = d;
    }
    free(next);
    free(tmp);
    return 0;
}

/* ---- the blocks ----------------------------------------------------------- */

static uint32_t uf_find(uint32_t *up, uint32_t v)
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

typedef struct {
    const uint64_t *col;
    uint32_t *nodes;    /* every component's nodes, colour by colour */
    size_t *off;        /* component c: nodes[off[c] .. off[c + 1]) */
} comps_t;

/* A node or a component with the key it is sorted by (no sort context:
 * the search may run in several threads at once). */
typedef struct {
    uint64_t key;
    uint32_t v;
} keyed_t;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Sorts the nodes of each component by colour. */
static int sort_nodes(comps_t *cs, size_t nc)
{
    size_t n = cs->off[nc];
    keyed_t *k = malloc((n + 1) * sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed_t){cs->col[cs->nodes[i]], cs->nodes[i]};
    for (size_t c = 0; c < nc; c++)
        qsort(k + cs->off[c], cs->off[c + 1] - cs->off[c], sizeof *k,
              keyed_cmp);
    for (size_t i = 0; i < n; i++)
        cs->nodes[i] = k[i].v;
    free(k);
    return 0;
}

static int same_colours(const comps_t *cs, uint32_t x, uint32_t y)
{
    size_t lx = cs->off[x + 1] - cs->off[x], ly = cs->off[y + 1] - cs->off[y];
    if (lx != ly)
        return 0;
    for (size_t i = 0; i < lx; i++)
        if (cs->col[cs->nodes[cs->off[x] + i]] !=
            cs->col[cs->nodes[cs->off[y] + i]])
            return 0;
    return 1;
}

/* The components of the nodes whose colour is not theirs alone, joined by
 * arcs between two such nodes, each sorted by colour. */
static int components(const pn_net_t *net, size_t n, size_t np,
                      const uint64_t *col, comps_t *cs, size_t *ncomp)
{
    uint64_t *tmp = malloc((n + 1) * sizeof *tmp);
    uint32_t *up = malloc((n + 1) * sizeof *up);
    uint32_t *id = malloc((n + 1) * sizeof *id);
    unsigned char *shared = calloc(n + 1, 1);
    cs->nodes = malloc((n + 1) * sizeof *cs->nodes);
    cs->off = calloc(n + 2, sizeof *cs->off);
    int ok = tmp && up && id && shared && cs->nodes && cs->off;
    if (ok) {
        memcpy(tmp, col, n * sizeof *col);
        qsort(tmp, n, sizeof *tmp, u64_cmp);
        for (size_t v = 0; v < n; v++) {
            /* is col[v] in tmp more than once? */
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (tmp[mid] < col[v])
                    lo = mid + 1;
                else
                    hi = mid;
            }
            shared[v] = lo + 1 < n && tmp[lo + 1] == col[v];
            up[v] = (uint32_t)v;
        }
        for (size_t i = 0; i < pn_net_arc_count(net); i++) {
            const pn_arc_t *a = pn_net_arc(net, i);
            uint32_t p = (uint32_t)a->place, t = (uint32_t)(np + a->transition);
            if (shared[p] && shared[t])
                up[uf_find(up, p)] = uf_find(up, t);
        }
        size_t nc = 0;
        for (size_t v = 0; v < n; v++)
            id[v] = shared[v] && uf_find(up, (uint32_t)v) == v ? (uint32_t)nc++
                                                               : UINT32_MAX;
        for (size_t v = 0; v < n; v++)
            if (shared[v])
                cs->off[id[uf_find(up, (uint32_t)v)] + 1]++;
        for (size_t c = 0; c < nc; c++)
            cs->off[c + 1] += cs->off[c];
        size_t *fill = calloc(nc + 1, sizeof *fill);
        ok = fill != NULL;
        for (size_t v = 0; ok && v < n; v++)
            if (shared[v]) {
                uint32_t c = id[uf_find(up, (uint32_t)v)];
                cs->nodes[cs->off[c] + fill[c]++] = (uint32_t)v;
            }
        free(fill);
        cs->col = col;
        ok = ok && !sort_nodes(cs, nc);
        *ncomp = nc;
    }
    free(tmp);
    free(up);
    free(id);
    free(shared);
    return ok ? 0 : -1;
}

/* ---- a block onto another where colours repeat within a block --------- */

/* The search for a bijection f from block a's nodes onto block b's that
 * keeps colours and the arcs between the nodes mapped so far (and to the
 * nodes outside both, which stay), by backtracking on a step budget. */
typedef struct {
    const pn_net_t *net;
    size_t np;
    const uint64_t *col;
    const size_t *aoff;      /* the arcs at node v: aidx[aoff[v] ..) */
    const uint32_t *aidx;
    const uint32_t *blk;     /* node -> its component */
    uint32_t ca, cb;         /* the two components */
    const uint32_t *order;   /* a's nodes, each after a neighbour if any */
    const uint32_t *via;     /* that neighbour, or UINT32_MAX */
    size_t len;
    uint32_t *f, *finv;      /* UINT32_MAX: not mapped */
    const uint32_t *bnodes;  /* b's nodes */
    uint64_t budget;
} bmatch_t;

static uint32_t other_end(const bmatch_t *m, uint32_t a, uint32_t v)
{
    const pn_arc_t *arc = pn_net_arc(m->net, a);
    return v < m->np ? (uint32_t)(m->np + arc->transition)
                     : (uint32_t)arc->place;
}

static int same_label(const bmatch_t *m, uint32_t a, uint32_t b)
{
    const pn_arc_t *x = pn_net_arc(m->net, a), *y = pn_net_arc(m->net, b);
    return x->kind == y->kind && x->dir == y->dir && x->weight == y->weight;
}

/* The end w of an arc at a node of block from, seen from block to: its
 * image (f: from a to b; else finv), itself outside both blocks, or
 * UINT32_MAX when not mapped yet. */
static uint32_t seen_as(const bmatch_t *m, uint32_t w, int forward)
{
    if (m->blk[w] == (forward ? m->ca : m->cb))
        return forward ? m->f[w] : m->finv[w];
    return w;
}

/* Arcs of u going to w' (seen from the other side) like arc a: counted. */
static size_t count_like(const bmatch_t *m, uint32_t u, uint32_t a,
                         uint32_t target, int forward)
{
    size_t n = 0;
    for (size_t k = m->aoff[u]; k < m->aoff[u + 1]; k++) {
        uint32_t w = other_end(m, m->aidx[k], u);
        if (same_label(m, m->aidx[k], a) &&
            (forward ? seen_as(m, w, 1) : w) == target)
            n++;
    }
    return n;
}

/* Whether u (of a) onto x (of b) keeps the arcs to the nodes mapped. */
static int consistent(const bmatch_t *m, uint32_t u, uint32_t x)
{
    for (size_t k = m->aoff[u]; k < m->aoff[u + 1]; k++) {
        uint32_t a = m->aidx[k], t = seen_as(m, other_end(m, a, u), 1);
        if (t != UINT32_MAX &&
            count_like(m, u, a, t, 1) != count_like(m, x, a, t, 0))
            return 0;
    }
    for (size_t k = m->aoff[x]; k < m->aoff[x + 1]; k++) {
        uint32_t a = m->aidx[k], y = other_end(m, a, x);
        uint32_t pre = seen_as(m, y, 0);
        if (pre != UINT32_MAX &&
            count_like(m, x, a, y, 0) != count_like(m, u, a, y, 1))
            return 0;
    }
    return 1;
}

static int try_candidate(bmatch_t *m, size_t i, uint32_t u, uint32_t x);

static int extend(bmatch_t *m, size_t i)
{
    if (i == m->len)
        return 1;
    uint32_t u = m->order[i];
    if (m->via[i] != UINT32_MAX) {
        /* next to the image of an earlier node: few candidates */
        uint32_t fv = m->f[m->via[i]];
        for (size_t k = m->aoff[fv]; k < m->aoff[fv + 1]; k++)
            if (try_candidate(m, i, u, other_end(m, m->aidx[k], fv)))
                return 1;
        return 0;
    }
    for (size_t k = 0; k < m->len; k++)
        if (try_candidate(m, i, u, m->bnodes[k]))
            return 1;
    return 0;
}

static int try_candidate(bmatch_t *m, size_t i, uint32_t u, uint32_t x)
{
    if (!m->budget || m->blk[x] != m->cb || m->finv[x] != UINT32_MAX ||
        m->col[x] != m->col[u] || (x < m->np) != (u < m->np))
        return 0;
    m->budget--;
    if (!consistent(m, u, x))
        return 0;
    m->f[u] = x;
    m->finv[x] = u;
    if (extend(m, i + 1))
        return 1;
    m->f[u] = m->finv[x] = UINT32_MAX;
    return 0;
}

/* The order in which block 0's nodes are matched: breadth first over its
 * arcs, each node after a neighbour (via) where it has one. */
static void bfs_order(bmatch_t *m, const uint32_t *n0, uint32_t *order,
                      uint32_t *via, unsigned char *seen, uint32_t *pos)
{
    for (size_t i = 0; i < m->len; i++)
        pos[n0[i]] = (uint32_t)i;
    size_t head = 0, tail = 0;
    for (size_t s = 0; s < m->len; s++) {
        if (seen[s])
            continue;
        seen[s] = 1;
        order[tail] = n0[s];
        via[tail++] = UINT32_MAX;
        while (head < tail) {
            uint32_t v = order[head++];
            for (size_t k = m->aoff[v]; k < m->aoff[v + 1]; k++) {
                uint32_t w = other_end(m, m->aidx[k], v);
                if (m->blk[w] != m->ca)
                    continue;
                size_t lo = pos[w];
                if (!seen[lo]) {
                    seen[lo] = 1;
                    order[tail] = w;
                    via[tail++] = v;
                }
            }
        }
    }
}

/* Where a colour repeats within a block: *img gets, for each block b,
 * the images of block 0's nodes (in their order) in b.  1 found for
 * every block, 0 not, -1 out of memory. */
static int match_blocks(const pn_net_t *net, const comps_t *cs,
                        const uint32_t *comp, uint32_t k, size_t np,
                        uint32_t **img)
{
    size_t n = np + pn_net_transition_count(net), na = pn_net_arc_count(net);
    size_t len = cs->off[comp[0] + 1] - cs->off[comp[0]];
    const uint32_t *n0 = cs->nodes + cs->off[comp[0]];
    size_t *aoff = calloc(n + 2, sizeof *aoff);
    uint32_t *aidx = malloc((2 * na + 1) * sizeof *aidx);
    uint32_t *blk = malloc((n + 1) * sizeof *blk);
    uint32_t *f = malloc((n + 1) * sizeof *f), *fi = malloc((n + 1) * 4);
    uint32_t *order = malloc((len + 1) * 4), *via = malloc((len + 1) * 4);
    unsigned char *seen = calloc(len + 1, 1);
    *img = malloc(((size_t)k * len + 1) * sizeof **img);
    int ok = aoff && aidx && blk && f && fi && order && via && seen && *img
                 ? 1 : -1;
    if (ok > 0) {
        for (size_t i = 0; i < na; i++) {
            aoff[pn_net_arc(net, i)->place + 2]++;
            aoff[np + pn_net_arc(net, i)->transition + 2]++;
        }
        for (size_t v = 0; v < n; v++)
            aoff[v + 2] += aoff[v + 1];
        for (size_t i = 0; i < na; i++) {
            aidx[aoff[pn_net_arc(net, i)->place + 1]++] = (uint32_t)i;
            aidx[aoff[np + pn_net_arc(net, i)->transition + 1]++] =
                (uint32_t)i;
        }
        for (size_t v = 0; v < n; v++)
            blk[v] = f[v] = fi[v] = UINT32_MAX;
        for (uint32_t b = 0; b < k; b++)
            for (size_t i = cs->off[comp[b]]; i < cs->off[comp[b] + 1]; i++)
                blk[cs->nodes[i]] = b;
        memcpy(*img, n0, len * sizeof *n0);
    }
    bmatch_t m = {net, np, cs->col, aoff, aidx, blk, 0, 0, order, via, len,
                  f, fi, NULL, 0};
    if (ok > 0)
        bfs_order(&m, n0, order, via, seen, fi); /* fi: scratch here */
    for (size_t v = 0; ok > 0 && v < n; v++)
        fi[v] = UINT32_MAX;
    for (uint32_t b = 1; ok > 0 && b < k; b++) {
        m.cb = b;
        m.bnodes = cs->nodes + cs->off[comp[b]];
        m.budget = 100000;
        for (size_t i = 0; i < len; i++)
            f[n0[i]] = fi[m.bnodes[i]] = UINT32_MAX;
        /* the search recurses once per node: small blocks only */
        ok = len <= 20000 && extend(&m, 0);
        for (size_t i = 0; ok && i < len; i++)
            (*img)[(size_t)b * len + i] = f[n0[i]];
        for (size_t i = 0; i < len; i++)
            f[n0[i]] = UINT32_MAX, fi[m.bnodes[i]] = UINT32_MAX;
    }
    free(aoff);
    free(aidx);
    free(blk);
    free(f);
    free(fi);
    free(order);
    free(via);
    free(seen);
    if (ok <= 0) {
        free(*img);
        *img = NULL;
    }
    return ok;
}

/* A class from the components comp[0 .. k) (the same colours): its
 * blocks, each node of the first matched with one of each other block
 * (colour to colour; by backtracking where a colour repeats in a block),
 * when the swap of the first with each other one is an automorphism.
 * 1 kept, 0 not, -1 out of memory. */
static int make_class(const pn_net_t *net, const comps_t *cs,
                      const uint32_t *comp, uint32_t k, size_t np,
                      sym_class_t *out)
{
    size_t len = cs->off[comp[0] + 1] - cs->off[comp[0]];
    const uint32_t *n0 = cs->nodes + cs->off[comp[0]];
    int repeats = 0;
    for (size_t i = 1; i < len; i++)
        repeats |= cs->col[n0[i]] == cs->col[n0[i - 1]];
    uint32_t *img = NULL;
    if (repeats) {
        int got = match_blocks(net, cs, comp, k, np, &img);
        if (got <= 0)
            return got;
    }
    uint32_t plen = 0, tlen = 0;
    for (size_t i = 0; i < len; i++)
        n0[i] < np ? plen++ : tlen++;
    size_t nt = pn_net_transition_count(net);
    sym_class_t c = {k, plen, tlen, malloc(((size_t)k * plen + 1) * 4),
                     malloc(((size_t)k * tlen + 1) * 4)};
    uint32_t *pp = malloc((np + 1) * sizeof *pp);
    uint32_t *tp = malloc((nt + 1) * sizeof *tp);
    int ok = c.pl && c.tr && pp && tp ? 1 : -1;
    for (uint32_t b = 0; ok > 0 && b < k; b++) {
        const uint32_t *nb = img ? img + (size_t)b * len
                                 : cs->nodes + cs->off[comp[b]];
        uint32_t ip = 0, it = 0;
        for (size_t i = 0; i < len; i++) {
            if (nb[i] < np)
                c.pl[(size_t)b * plen + ip++] = nb[i];
            else
                c.tr[(size_t)b * tlen + it++] = (uint32_t)(nb[i] - np);
        }
    }
    for (uint32_t b = 1; ok > 0 && b < k; b++) {
        for (size_t p = 0; p < np; p++)
            pp[p] = (uint32_t)p;
        for (size_t t = 0; t < nt; t++)
            tp[t] = (uint32_t)t;
        for (uint32_t i = 0; i < plen; i++) {
            pp[c.pl[i]] = c.pl[(size_t)b * plen + i];
            pp[c.pl[(size_t)b * plen + i]] = c.pl[i];
        }
        for (uint32_t i = 0; i < tlen; i++) {
            tp[c.tr[i]] = c.tr[(size_t)b * tlen + i];
            tp[c.tr[(size_t)b * tlen + i]] = c.tr[i];
        }
        ok = pni_sym_verify(net, pp, tp);
    }
    free(pp);
    free(tp);
    free(img);
    if (ok <= 0 || plen == 0) {
        free(c.pl);
        free(c.tr);
        return ok < 0 ? -1 : 0;
    }
    *out = c;
    return 1;
}

/* The classes of blocks of net into s (none found: s->ncl == 0). */
static int find_classes(const pn_net_t *net, pni_sym_t *s)
{
    size_t np = s->np, nt = s->nt, n = np + nt, nc = 0;
    uint64_t *col = malloc((n + 1) * sizeof *col);
    comps_t cs = {col, NULL, NULL};
    uint32_t *comp = NULL;
    keyed_t *key = NULL;
    int rc = col && !refine(net, np, nt, col) &&
                     !components(net, n, np, col, &cs, &nc)
                 ? 0
                 : -1;
    if (!rc && nc >= 2 &&
        (!(comp = malloc(nc * sizeof *comp)) ||
         !(key = malloc(nc * sizeof *key)) ||
         !(s->cl = calloc(nc / 2 + 1, sizeof *s->cl))))
        rc = -1;
    if (!rc && nc >= 2) {
        /* components with the same colours come together (a collision of
         * the hashes can only split a class) */
        for (size_t c = 0; c < nc; c++) {
            uint64_t h = mix(cs.off[c + 1] - cs.off[c]);
            for (size_t i = cs.off[c]; i < cs.off[c + 1]; i++)
                h = mix(h ^ col[cs.nodes[i]]);
            key[c] = (keyed_t){h, (uint32_t)c};
        }
        qsort(key, nc, sizeof *key, keyed_cmp);
        for (size_t c = 0; c < nc; c++)
            comp[c] = key[c].v;
        for (size_t i = 0, j; !rc && i < nc; i = j) {
            for (j = i + 1; j < nc && same_colours(&cs, comp[i], comp[j]);)
                j++;
            if (j - i < 2)
                continue;
            int k = make_class(net, &cs, comp + i, (uint32_t)(j - i), np,
                               &s->cl[s->ncl]);
            if (k < 0)
                rc = -1;
            else
                s->ncl += (size_t)k;
        }
    }
    free(comp);
    free(key);
    free(cs.nodes);
    free(cs.off);
    free(col);
    return rc;
}

/* ---- the queries ---------------------------------------------------------- */

static int size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether the items a (mapped by perm) and b are the same multiset
 * (uniq: the same set). */
static int same_items(const size_t *a, size_t na, const size_t *b, size_t nb,
                      const uint32_t *perm, int uniq)
{
    size_t *x = malloc((na + 1) * sizeof *x), *y = malloc((nb + 1) * sizeof *y);
    int ok = x && y;
    for (size_t i = 0; ok && i < na; i++)
        x[i] = perm[a[i]];
    if (ok) {
        if (nb) /* (b may be NULL then) */
            memcpy(y, b, nb * sizeof *b);
        qsort(x, na, sizeof *x, size_cmp);
        qsort(y, nb, sizeof *y, size_cmp);
    }
    size_t i = 0, j = 0;
    while (ok && (i < na || j < nb)) {
        if (i == na || j == nb || x[i] != y[j]) {
            ok = 0;
            break;
        }
        size_t v = x[i];
        i++, j++;
        while (uniq && i < na && x[i] == v)
            i++;
        while (uniq && j < nb && y[j] == v)
            j++;
    }
    free(x);
    free(y);
    return ok;
}

static int same_sum(const pn_qsum_t *a, const pn_qsum_t *b, const uint32_t *pp)
{
    return a->constant == b->constant &&
           same_items(a->places, a->nplaces, b->places, b->nplaces, pp, 0);
}

static int mapped_equal(const pn_qformula_t *a, const pn_qformula_t *b,
                        const uint32_t *pp, const uint32_t *tp);

/* The operands of a commutative && or ||: a[i..) matched one to one with
 * the operands of b not yet used, by backtracking. */
static int match_kids(const pn_qformula_t *a, const pn_qformula_t *b,
                      size_t i, unsigned char *used, const uint32_t *pp,
                      const uint32_t *tp, unsigned *budget)
{
    if (i == a->nkids)
        return 1;
    for (size_t j = 0; j < b->nkids; j++) {
        if (used[j] || !*budget)
            continue;
        (*budget)--;
        if (!mapped_equal(a->kids[i], b->kids[j], pp, tp))
            continue;
        used[j] = 1;
        if (match_kids(a, b, i + 1, used, pp, tp, budget))
            return 1;
        used[j] = 0;
    }
    return 0;
}

/* Whether formula a mapped by the permutation is formula b, up to the
 * order of the operands of && and || (no: when unsure). */
static int mapped_equal(const pn_qformula_t *a, const pn_qformula_t *b,
                        const uint32_t *pp, const uint32_t *tp)
{
    if (a->kind != b->kind || a->nkids != b->nkids)
        return 0;
    switch (a->kind) {
    case PN_QF_CMP:
        return a->op == b->op && same_sum(&a->lhs, &b->lhs, pp) &&
               same_sum(&a->rhs, &b->rhs, pp);
    case PN_QF_FIREABLE:
        return same_items(a->items, a->nitems, b->items, b->nitems, tp, 1);
    case PN_QF_AND:
    case PN_QF_OR: {
        unsigned char *used = calloc(a->nkids + 1, 1);
        unsigned budget = 100000;
        int ok = used && match_kids(a, b, 0, used, pp, tp, &budget);
        free(used);
        return ok;
    }
    default:
        for (size_t i = 0; i < a->nkids; i++)
            if (!mapped_equal(a->kids[i], b->kids[i], pp, tp))
                return 0;
        return 1;
    }
}

/* Whether every query of qs is the same after the swap pp, tp. */
static int queries_kept(const pn_query_set_t *qs, const uint32_t *pp,
                        const uint32_t *tp)
{
    for (size_t i = 0; qs && i < qs->n; i++) {
        const pn_query_t *q = &qs->q[i];
        if (q->kind == PN_QUERY_LTL)
            return 0; /* its lasso would not close on the net */
        if (q->kind == PN_QUERY_BOUND ? !same_sum(&q->bound, &q->bound, pp)
                                      : !mapped_equal(q->formula, q->formula,
                                                      pp, tp))
            return 0;
    }
    return 1;
}

/* Keeps the classes whose swaps keep every query. */
static int keep_symmetric(pni_sym_t *s, const pn_query_set_t *qs)
{
    uint32_t *pp = malloc((s->np + 1) * sizeof *pp);
    uint32_t *tp = malloc((s->nt + 1) * sizeof *tp);
    if (!pp || !tp) {
        free(pp);
        free(tp);
        return -1;
    }
    size_t kept = 0;
    for (size_t c = 0; c < s->ncl; c++) {
        sym_class_t *cl = &s->cl[c];
        int ok = 1;
        for (uint32_t b = 1; ok && b < cl->k; b++) {
            for (uint32_t p = 0; p < s->np; p++)
                pp[p] = p;
            for (uint32_t t = 0; t < s->nt; t++)
                tp[t] = t;
            for (uint32_t i = 0; i < cl->plen; i++) {
                pp[cl->pl[i]] = cl->pl[(size_t)b * cl->plen + i];
                pp[cl->pl[(size_t)b * cl->plen + i]] = cl->pl[i];
            }
            for (uint32_t i = 0; i < cl->tlen; i++) {
                tp[cl->tr[i]] = cl->tr[(size_t)b * cl->tlen + i];
                tp[cl->tr[(size_t)b * cl->tlen + i]] = cl->tr[i];
            }
            ok = queries_kept(qs, pp, tp);
        }
        if (ok)
            s->cl[kept++] = *cl;
        else {
            free(cl->pl);
            free(cl->tr);
        }
    }
    s->ncl = kept;
    free(pp);
    free(tp);
    return 0;
}

pn_status_t pni_sym_new(const pn_net_t *net, const pn_query_set_t *qs,
                        pni_sym_t **out)
{
    *out = NULL;
    pni_sym_t *s = calloc(1, sizeof *s);
    if (!s)
        return PN_ENOMEM;
    s->np = (uint32_t)pn_net_place_count(net);
    s->nt = (uint32_t)pn_net_transition_count(net);
    if (find_classes(net, s) || keep_symmetric(s, qs)) {
        pni_sym_free(s);
        return PN_ENOMEM;
    }
    if (s->ncl == 0) {
        pni_sym_free(s);
        return PN_OK;
    }
    uint32_t kmax = 0;
    for (size_t c = 0; c < s->ncl; c++)
        kmax = s->cl[c].k > kmax ? s->cl[c].k : kmax;
    s->order = malloc(((size_t)kmax + 1) * sizeof *s->order);
    s->tmp = malloc(((size_t)s->np + 1) * sizeof *s->tmp);
    if (!s->order || !s->tmp) {
        pni_sym_free(s);
        return PN_ENOMEM;
    }
    *out = s;
    return PN_OK;
}

uint64_t pni_sym_order(const pni_sym_t *s)
{
    unsigned __int128 n = 1;
    for (size_t c = 0; s && c < s->ncl; c++)
        for (uint32_t i = 2; i <= s->cl[c].k && n <= UINT64_MAX; i++)
            n *= i;
    return pni_saturated(n);
}

/* ---- the canonical form --------------------------------------------------- */

/* Block x of class c before block y in m (lexicographically)? */
static int block_cmp(const sym_class_t *c, const uint64_t *m, uint32_t x,
                     uint32_t y)
{
    const uint32_t *a = c->pl + (size_t)x * c->plen;
    const uint32_t *b = c->pl + (size_t)y * c->plen;
    for (uint32_t i = 0; i < c->plen; i++)
        if (m[a[i]] != m[b[i]])
            return m[a[i]] < m[b[i]] ? -1 : 1;
    return 0;
}

void pni_sym_canon(pni_sym_t *s, const uint64_t *m, uint64_t *out)
{
    if (out != m)
        memcpy(out, m, s->np * sizeof *m);
    for (size_t ci = 0; ci < s->ncl; ci++) {
        const sym_class_t *c = &s->cl[ci];
        uint32_t *ord = s->order;
        int sorted = 1;
        for (uint32_t b = 0; b < c->k; b++) {
            /* insertion sort: a few blocks, often sorted already */
            uint32_t j = b;
            while (j > 0 && block_cmp(c, m, ord[j - 1], b) > 0) {
                ord[j] = ord[j - 1];
                j--;
            }
            ord[j] = b;
            sorted &= j == b;
        }
        if (sorted)
            continue;
        for (uint32_t b = 0; b < c->k; b++) {
            const uint32_t *from = c->pl + (size_t)ord[b] * c->plen;
            const uint32_t *to = c->pl + (size_t)b * c->plen;
            for (uint32_t i = 0; i < c->plen; i++)
                s->tmp[to[i]] = m[from[i]];
        }
        for (uint32_t b = 0; b < c->k; b++) {
            const uint32_t *to = c->pl + (size_t)b * c->plen;
            for (uint32_t i = 0; i < c->plen; i++)
                out[to[i]] = s->tmp[to[i]];
        }
    }
}

/* A place's counts over every marking are those of the places of its
 * orbit over the representatives (M(g p) = (g^-1 M)(p)): the same for the
 * transitions that fire. */
void pni_sym_close(const pni_sym_t *s, uint64_t *bound, uint64_t *lowest,
                   unsigned char *fires)
{
    for (size_t ci = 0; s && ci < s->ncl; ci++) {
        const sym_class_t *c = &s->cl[ci];
        for (uint32_t i = 0; i < c->plen; i++) {
            uint64_t hi = 0, lo = UINT64_MAX;
            for (uint32_t b = 0; b < c->k; b++) {
                uint32_t p = c->pl[(size_t)b * c->plen + i];
                hi = bound[p] > hi ? bound[p] : hi;
                lo = lowest[p] < lo ? lowest[p] : lo;
            }
            for (uint32_t b = 0; b < c->k; b++) {
                bound[c->pl[(size_t)b * c->plen + i]] = hi;
                lowest[c->pl[(size_t)b * c->plen + i]] = lo;
            }
        }
        for (uint32_t i = 0; i < c->tlen; i++) {
            unsigned char any = 0;
            for (uint32_t b = 0; b < c->k; b++)
                any |= fires[c->tr[(size_t)b * c->tlen + i]];
            for (uint32_t b = 0; b < c->k; b++)
                fires[c->tr[(size_t)b * c->tlen + i]] = any;
        }
    }
}
