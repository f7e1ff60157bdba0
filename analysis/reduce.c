/*
 * Structural reductions that keep a query's answer (interleaving only):
 * a smaller net whose reachable markings, restricted to the places the
 * query looks at, are those of the original net, and a map back (each
 * transition of the reduced net stands for a sequence of the original's).
 *
 * Rules, applied until none fires (Berthelot's and Murata's; those the
 * contest's tools apply):
 *   constant places   no transition changes the place: its arcs that
 *                     always hold are dropped, the transitions whose arc
 *                     never holds are dead; an unobserved one goes
 *   dead transitions  an input (normal or read) asks more than a place
 *                     that never grows ever holds
 *   sink places       an unobserved place that no transition tests or
 *                     takes from, without a capacity
 *   duplicates        two transitions with the same arcs: one goes
 *   null transitions  a transition that changes nothing (left out when
 *                     the formula asks about deadlocks)
 *   parallel places   two places with the same arcs, initial count and
 *                     capacity: an unobserved one goes
 *   post-agglomeration  a place p, empty at first, whose consumers F take
 *                     only from p, each as many as each producer puts
 *                     there: each producer h and consumer f become one
 *                     transition h.f (f can always fire right after h)
 *   pre-agglomeration  a place p, empty at first, whose one producer h
 *                     puts only there and takes only from places nothing
 *                     tests or resets: h waits until just before each
 *                     consumer f, h.f replaces f
 *   implicit places   an unobserved place that never is the only one to
 *                     disable a transition, by linear programming
 *                     (implicit.c): it goes with its arcs
 * The others (implicit places too: the net without one enables the same
 * transitions at every marking) keep the reachability graph up to the
 * observed places (deadlocks and enabled transitions included); null
 * transitions and the agglomerations keep only the observed places'
 * markings, so they are left out when the formula asks about deadlocks.
 * Transitions the formula names (fireable) and their places are
 * observed.  Each rule checks its arcs' kinds and capacities:
 * where an inhibitor, read or reset arc or a capacity could make it
 * unsound, it does not fire.
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"

/* One place's arcs to a transition, merged by kind. */
typedef pni_rarc_t rarc_t;

typedef struct {
    rarc_t *a;
    size_t n;                 /* arcs, by increasing place */
    uint32_t *seq;
    size_t nseq;              /* the original transitions it stands for */
    unsigned char alive, vis;
} rtrans_t;

enum { R_CONST, R_DEAD, R_SINK, R_DUP, R_PAR, R_POST, R_NULL, R_PRE,
       R_IMPLICIT, R_RULES };

/* with no deadline, the most seconds the implicit places may take */
#define IMPLICIT_SECONDS 10.0

typedef struct {
    size_t np;
    uint64_t *m0, *cap;
    unsigned char *palive, *pvis;
    rtrans_t *t;
    size_t nt, cap_t;
    int deadlock;             /* the formula looks at every transition */
    size_t rules[R_RULES];
    /* each place's arcs, rebuilt each pass: transition adj[k] at arc
     * pos[k], k from off[p] to off[p + 1] */
    size_t *off;
    uint32_t *adj, *pos;
    unsigned char *dirty;     /* per place: its arcs changed this pass (an
                                 agglomeration), the index is stale there */
    unsigned char *tried;     /* per place: tried as an implicit place */
    unsigned char *learnt;    /* per place: found not implicit for another
                                 query (NULL: not kept) */
    double implicit_end;      /* when the implicit places stop (0: not
                                 started) */
} red_t;

static void red_free(red_t *r)
{
    for (size_t t = 0; t < r->nt; t++) {
        free(r->t[t].a);
        free(r->t[t].seq);
    }
    free(r->t);
    free(r->m0);
    free(r->cap);
    free(r->palive);
    free(r->pvis);
    free(r->off);
    free(r->adj);
    free(r->pos);
    free(r->dirty);
    free(r->tried);
}

static int cmp_arc(const void *a, const void *b)
{
    uint32_t x = ((const rarc_t *)a)->p, y = ((const rarc_t *)b)->p;
    return x < y ? -1 : x > y;
}

/* The arc of t on p, added when missing (t's arcs are sorted after). */
static rarc_t *arc_of(rtrans_t *t, uint32_t p, size_t *cap)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->a[i].p == p)
            return &t->a[i];
    if (t->n == *cap) {
        size_t c = *cap ? *cap * 2 : 4;
        rarc_t *v = realloc(t->a, c * sizeof *v);
        if (!v)
            return NULL;
        t->a = v;
        *cap = c;
    }
    memset(&t->a[t->n], 0, sizeof *t->a);
    t->a[t->n].p = p;
    return &t->a[t->n++];
}

static pn_status_t red_load(red_t *r, const pn_net_t *net)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    r->np = np;
    r->nt = r->cap_t = nt;
    r->m0 = malloc((np + 1) * sizeof *r->m0);
    r->cap = malloc((np + 1) * sizeof *r->cap);
    r->palive = malloc(np + 1);
    r->pvis = calloc(np + 1, 1);
    r->dirty = calloc(np + 1, 1);
    r->t = calloc(nt + 1, sizeof *r->t);
    size_t *acap = calloc(nt + 1, sizeof *acap);
    if (!r->m0 || !r->cap || !r->palive || !r->pvis || !r->dirty ||
        !r->t || !acap) {
        free(acap);
        return PN_ENOMEM;
    }
    for (size_t p = 0; p < np; p++) {
        const pn_place_t *pl = pn_net_place(net, p);
        r->m0[p] = pl->marking;
        r->cap[p] = pl->capacity;
        r->palive[p] = 1;
    }
    for (size_t t = 0; t < nt; t++) {
        r->t[t].alive = 1;
        if (!(r->t[t].seq = malloc(sizeof(uint32_t)))) {
            free(acap);
            return PN_ENOMEM;
        }
        r->t[t].seq[0] = (uint32_t)t;
        r->t[t].nseq = 1;
    }
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        rarc_t *x = arc_of(&r->t[a->transition], (uint32_t)a->place,
                           &acap[a->transition]);
        if (!x) {
            free(acap);
            return PN_ENOMEM;
        }
        if (a->kind == PN_ARC_RESET)
            x->reset = 1;
        else if (a->kind == PN_ARC_READ)
            x->rd = x->rd > a->weight ? x->rd : a->weight;
        else if (a->kind == PN_ARC_INHIBITOR)
            x->ih = x->ih && x->ih < a->weight ? x->ih : a->weight;
        else if (a->dir == PN_DIR_PT)
            x->in += a->weight;
        else
            x->out += a->weight;
    }
    free(acap);
    for (size_t t = 0; t < nt; t++)
        if (r->t[t].n > 1)
            qsort(r->t[t].a, r->t[t].n, sizeof *r->t[t].a, cmp_arc);
    return PN_OK;
}

/* Every place t touches is observed (fireable(t): its enabling). */
static void see_transition(red_t *r, size_t t)
{
    r->t[t].vis = 1;
    for (size_t i = 0; i < r->t[t].n; i++)
        r->pvis[r->t[t].a[i].p] = 1;
}

static void see_formula(red_t *r, const pn_qformula_t *f)
{
    if (!f)
        return;
    if (f->kind == PN_QF_DEADLOCK || f->kind >= PN_QF_EX)
        r->deadlock = 1; /* paths, or every transition: the graph kept */
    for (size_t i = 0; i < f->lhs.nplaces; i++)
        r->pvis[f->lhs.places[i]] = 1;
    for (size_t i = 0; i < f->rhs.nplaces; i++)
        r->pvis[f->rhs.places[i]] = 1;
    for (size_t i = 0; i < f->nitems; i++)
        see_transition(r, f->items[i]);
    for (size_t i = 0; i < f->nkids; i++)
        see_formula(r, f->kids[i]);
}

/* Each live place's arcs (off, adj, pos). */
static pn_status_t red_index(red_t *r)
{
    free(r->off);
    free(r->adj);
    free(r->pos);
    r->adj = r->pos = NULL;
    if (!(r->off = calloc(r->np + 2, sizeof *r->off)))
        return PN_ENOMEM;
    for (size_t t = 0; t < r->nt; t++)
        for (size_t i = 0; r->t[t].alive && i < r->t[t].n; i++)
            r->off[r->t[t].a[i].p + 2]++;
    for (size_t p = 0; p < r->np; p++)
        r->off[p + 2] += r->off[p + 1];
    size_t n = r->off[r->np + 1];
    r->adj = malloc((n + 1) * sizeof *r->adj);
    r->pos = malloc((n + 1) * sizeof *r->pos);
    if (!r->adj || !r->pos)
        return PN_ENOMEM;
    for (size_t t = 0; t < r->nt; t++)
        for (size_t i = 0; r->t[t].alive && i < r->t[t].n; i++) {
            size_t k = r->off[r->t[t].a[i].p + 1]++;
            r->adj[k] = (uint32_t)t;
            r->pos[k] = (uint32_t)i;
        }
    return PN_OK;
}

static rarc_t *at(const red_t *r, size_t k)
{
    return &r->t[r->adj[k]].a[r->pos[k]];
}

/* Drops the arcs marked gone (place UINT32_MAX). */
static void drop_arcs(red_t *r)
{
    for (size_t t = 0; t < r->nt; t++) {
        size_t j = 0;
        for (size_t i = 0; i < r->t[t].n; i++)
            if (r->t[t].a[i].p != UINT32_MAX)
                r->t[t].a[j++] = r->t[t].a[i];
        r->t[t].n = j;
    }
}

/* A transition found dead goes, unless the formula names it. */
static int kill(red_t *r, size_t t)
{
    if (r->t[t].vis || !r->t[t].alive)
        return 0;
    r->t[t].alive = 0;
    r->rules[R_DEAD]++;
    return 1;
}

/* Constant places: no arc changes the count (and no capacity, which
 * the engine checks on outputs). */
static int rule_constant(red_t *r)
{
    int changed = 0;
    for (size_t p = 0; p < r->np; p++) {
        if (!r->palive[p] || r->cap[p])
            continue;
        int constant = 1;
        for (size_t k = r->off[p]; constant && k < r->off[p + 1]; k++)
            if (r->t[r->adj[k]].alive &&
                (at(r, k)->in != at(r, k)->out || at(r, k)->reset))
                constant = 0;
        if (!constant)
            continue;
        uint64_t m = r->m0[p];
        for (size_t k = r->off[p]; k < r->off[p + 1]; k++) {
            rtrans_t *t = &r->t[r->adj[k]];
            rarc_t *a = at(r, k);
            if (!t->alive || a->p == UINT32_MAX)
                continue;
            if (a->in > m || a->rd > m || (a->ih && m >= a->ih))
                changed |= kill(r, r->adj[k]);
            else if (!t->vis) {
                a->p = UINT32_MAX; /* always holds: dropped below */
                changed = 1;
            }
        }
        if (!r->pvis[p]) {
            int used = 0;
            for (size_t k = r->off[p]; k < r->off[p + 1]; k++)
                used |= r->t[r->adj[k]].alive && at(r, k)->p == p;
            if (!used) {
                r->palive[p] = 0;
                r->rules[R_CONST]++;
                changed = 1;
            }
        }
    }
    drop_arcs(r);
    return changed;
}

/* Dead transitions: p never grows (every arc puts back at most what it
 * takes, a reset puts nothing back), so an input asking more than
 * M0(p) never holds. */
static int rule_dead(red_t *r)
{
    int changed = 0;
    for (size_t p = 0; p < r->np; p++) {
        if (!r->palive[p])
            continue;
        int grows = 0;
        for (size_t k = r->off[p]; !grows && k < r->off[p + 1]; k++) {
            const rarc_t *a = at(r, k);
            grows = r->t[r->adj[k]].alive &&
                    (a->out > a->in || (a->reset && a->out));
        }
        if (grows)
            continue;
        for (size_t k = r->off[p]; k < r->off[p + 1]; k++) {
            const rarc_t *a = at(r, k);
            if (r->t[r->adj[k]].alive &&
                (a->in > r->m0[p] || a->rd > r->m0[p]))
                changed |= kill(r, r->adj[k]);
        }
    }
    return changed;
}

/* Sink places: unobserved, no capacity, nothing tests or takes from
 * them (so they never disable anything): they go with their arcs. */
static int rule_sink(red_t *r)
{
    int changed = 0;
    for (size_t p = 0; p < r->np; p++) {
        if (!r->palive[p] || r->pvis[p] || r->cap[p])
            continue;
        int sink = 1;
        for (size_t k = r->off[p]; sink && k < r->off[p + 1]; k++) {
            const rarc_t *a = at(r, k);
            sink = !r->t[r->adj[k]].alive ||
                   (!a->in && !a->rd && !a->ih && !a->reset);
        }
        if (!sink)
            continue;
        r->palive[p] = 0;
        r->rules[R_SINK]++;
        changed = 1;
        for (size_t k = r->off[p]; k < r->off[p + 1]; k++)
            at(r, k)->p = UINT32_MAX;
    }
    if (changed)
        drop_arcs(r);
    return changed;
}

/* Transitions that change nothing (each arc puts back what it takes, no
 * reset): firing one leaves the marking as it was, so it reaches nothing
 * new; it goes unless the formula looks at enabled transitions (it
 * keeps a marking from being dead). */
static int rule_null(red_t *r)
{
    int changed = 0;
    for (size_t t = 0; !r->deadlock && t < r->nt; t++) {
        const rtrans_t *x = &r->t[t];
        int null = x->alive && !x->vis;
        for (size_t i = 0; null && i < x->n; i++)
            null = x->a[i].in == x->a[i].out && !x->a[i].reset;
        if (null) {
            r->t[t].alive = 0;
            r->rules[R_NULL]++;
            changed = 1;
        }
    }
    return changed;
}

/* ---- duplicates: transitions, places ------------------------------------ */

typedef struct {
    uint64_t h;
    uint32_t i;
} hkey_t;

static int cmp_key(const void *a, const void *b)
{
    const hkey_t *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0xff51afd7ed558ccd);
}

static uint64_t arc_hash(uint64_t h, const rarc_t *a, uint32_t who)
{
    h = mix(h, who);
    h = mix(h, a->in);
    h = mix(h, a->out);
    h = mix(h, a->rd);
    h = mix(h, a->ih);
    return mix(h, a->reset);
}

static int arc_same(const rarc_t *a, const rarc_t *b)
{
    return a->in == b->in && a->out == b->out && a->rd == b->rd &&
           a->ih == b->ih && a->reset == b->reset;
}

static int trans_same(const rtrans_t *x, const rtrans_t *y)
{
    if (x->n != y->n)
        return 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->a[i].p != y->a[i].p || !arc_same(&x->a[i], &y->a[i]))
            return 0;
    return 1;
}

/* Two transitions with the same arcs: same enabling, same effect; the
 * one the formula does not name goes (the later one when neither). */
static int rule_dup_trans(red_t *r)
{
    hkey_t *k = malloc((r->nt + 1) * sizeof *k);
    size_t n = 0;
    int changed = 0;
    if (!k)
        return 0;
    for (size_t t = 0; t < r->nt; t++) {
        if (!r->t[t].alive)
            continue;
        uint64_t h = r->t[t].n;
        for (size_t i = 0; i < r->t[t].n; i++)
            h = arc_hash(h, &r->t[t].a[i], r->t[t].a[i].p);
        k[n].h = h;
        k[n++].i = (uint32_t)t;
    }
    qsort(k, n, sizeof *k, cmp_key);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n && k[j].h == k[i].h; j++) {
            rtrans_t *a = &r->t[k[i].i], *b = &r->t[k[j].i];
            if (!a->alive || !b->alive || !trans_same(a, b))
                continue;
            rtrans_t *gone = b->vis ? a : b;
            if (gone->vis)
                continue;
            gone->alive = 0;
            r->rules[R_DUP]++;
            changed = 1;
        }
    free(k);
    return changed;
}

static int place_same(const red_t *r, size_t p, size_t q)
{
    if (r->m0[p] != r->m0[q] || r->cap[p] != r->cap[q])
        return 0;
    size_t i = r->off[p], j = r->off[q];
    for (;;) {
        while (i < r->off[p + 1] && !r->t[r->adj[i]].alive)
            i++;
        while (j < r->off[q + 1] && !r->t[r->adj[j]].alive)
            j++;
        if (i == r->off[p + 1] || j == r->off[q + 1])
            return i == r->off[p + 1] && j == r->off[q + 1];
        if (r->adj[i] != r->adj[j] || !arc_same(at(r, i), at(r, j)))
            return 0;
        i++;
        j++;
    }
}

/* Two places with the same arcs, initial count and capacity hold the
 * same count in every reachable marking: an unobserved one goes. */
static int rule_parallel(red_t *r)
{
    hkey_t *k = malloc((r->np + 1) * sizeof *k);
    size_t n = 0;
    int changed = 0;
    if (!k)
        return 0;
    for (size_t p = 0; p < r->np; p++) {
        if (!r->palive[p])
            continue;
        uint64_t h = mix(r->m0[p], r->cap[p]);
        for (size_t j = r->off[p]; j < r->off[p + 1]; j++)
            if (r->t[r->adj[j]].alive)
                h = arc_hash(h, at(r, j), r->adj[j]);
        k[n].h = h;
        k[n++].i = (uint32_t)p;
    }
    qsort(k, n, sizeof *k, cmp_key);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n && k[j].h == k[i].h; j++) {
            size_t p = k[i].i, q = k[j].i;
            if (!r->palive[p] || !r->palive[q] || !place_same(r, p, q))
                continue;
            size_t gone = r->pvis[q] ? p : q;
            if (r->pvis[gone])
                continue;
            r->palive[gone] = 0;
            r->rules[R_PAR]++;
            changed = 1;
            for (size_t x = r->off[gone]; x < r->off[gone + 1]; x++)
                at(r, x)->p = UINT32_MAX;
        }
    if (changed)
        drop_arcs(r);
    free(k);
    return changed;
}

/* ---- post-agglomeration -------------------------------------------------- */

/* Whether place q only ever gains tokens harmlessly: unobserved, no
 * capacity, no inhibitor or reset arc (a token added earlier then never
 * disables a transition nor changes what one does). */
static int harmless_output(const red_t *r, size_t q)
{
    if (r->pvis[q] || r->cap[q] || r->dirty[q])
        return 0;
    for (size_t k = r->off[q]; k < r->off[q + 1]; k++)
        if (r->t[r->adj[k]].alive && (at(r, k)->ih || at(r, k)->reset))
            return 0;
    return 1;
}

/* f takes w from p and nothing else, tests nothing, puts only in
 * harmless places, is not observed. */
static int local_consumer(const red_t *r, size_t f, size_t p, uint64_t w)
{
    const rtrans_t *t = &r->t[f];
    if (t->vis)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        const rarc_t *a = &t->a[i];
        if (a->rd || a->ih || a->reset)
            return 0;
        if (a->p == p ? (a->in != w || a->out) :
                        (a->in || !harmless_output(r, a->p)))
            return 0;
    }
    return 1;
}

/* Transition h.f: h's arcs with its output to p left out, f's arcs but
 * its input from p added. */
static pn_status_t merge(red_t *r, size_t h, size_t f, size_t p)
{
    if (r->nt == r->cap_t) {
        size_t c = r->cap_t * 2 + 8;
        rtrans_t *v = realloc(r->t, c * sizeof *v);
        if (!v)
            return PN_ENOMEM;
        r->t = v;
        r->cap_t = c;
    }
    rtrans_t *a = &r->t[h], *b = &r->t[f], *m = &r->t[r->nt];
    memset(m, 0, sizeof *m);
    m->a = malloc((a->n + b->n + 1) * sizeof *m->a);
    m->seq = malloc((a->nseq + b->nseq) * sizeof *m->seq);
    if (!m->a || !m->seq) {
        free(m->a);
        free(m->seq);
        return PN_ENOMEM;
    }
    memcpy(m->seq, a->seq, a->nseq * sizeof *m->seq);
    memcpy(m->seq + a->nseq, b->seq, b->nseq * sizeof *m->seq);
    m->nseq = a->nseq + b->nseq;
    size_t cap = a->n + b->n + 1;
    for (size_t i = 0; i < a->n; i++)
        if (a->a[i].p != p)
            m->a[m->n++] = a->a[i];
    /* f's arcs added: outputs (post-agglomeration), or inputs on places
     * h does not put in (pre-agglomeration); cap never grows, room was
     * made */
    for (size_t i = 0; i < b->n; i++)
        if (b->a[i].p != p) {
            const rarc_t *y = &b->a[i];
            rarc_t *x = arc_of(m, y->p, &cap);
            x->in += y->in;
            x->out += y->out;
            x->rd = x->rd > y->rd ? x->rd : y->rd;
            if (y->ih && (!x->ih || y->ih < x->ih))
                x->ih = y->ih;
            x->reset |= y->reset;
        }
    qsort(m->a, m->n, sizeof *m->a, cmp_arc);
    m->alive = 1;
    r->nt++;
    return PN_OK;
}

/* One place p: its producers H and consumers F as the rule asks, then
 * every h.f.  1 when it fired, 0 when not, -1 out of memory. */
static int post_place(red_t *r, size_t p, uint32_t *hs, uint32_t *fs)
{
    size_t nh = 0, nf = 0;
    uint64_t w = 0;
    if (!r->palive[p] || r->pvis[p] || r->cap[p] || r->m0[p] ||
        r->dirty[p])
        return 0;
    for (size_t k = r->off[p]; k < r->off[p + 1]; k++) {
        const rarc_t *a = at(r, k);
        if (!r->t[r->adj[k]].alive)
            continue;
        if (a->rd || a->ih || a->reset || (a->in && a->out))
            return 0;
        if (w && (a->in ? a->in : a->out) != w)
            return 0;
        w = a->in ? a->in : a->out;
        if (a->in)
            fs[nf++] = r->adj[k];
        else
            hs[nh++] = r->adj[k];
    }
    /* as many new transitions as old ones at most */
    if (!nh || !nf || nh * nf > nh + nf)
        return 0;
    for (size_t i = 0; i < nh; i++) {
        if (r->t[hs[i]].vis)
            return 0;
        for (size_t j = 0; j < r->t[hs[i]].n; j++)
            if (r->dirty[r->t[hs[i]].a[j].p])
                return 0;
    }
    for (size_t i = 0; i < nf; i++)
        if (!local_consumer(r, fs[i], p, w))
            return 0;
    for (size_t i = 0; i < nh; i++)
        for (size_t j = 0; j < nf; j++)
            if (merge(r, hs[i], fs[j], p))
                return -1;
    for (size_t i = 0; i < nh + nf; i++) {
        rtrans_t *t = &r->t[i < nh ? hs[i] : fs[i - nh]];
        t->alive = 0;
        for (size_t j = 0; j < t->n; j++)
            r->dirty[t->a[j].p] = 1;
    }
    r->palive[p] = 0;
    r->rules[R_POST]++;
    return 1;
}

/* Whether h can wait: it puts w in p and nothing elsewhere, takes only
 * by normal arcs from unobserved places without capacity that nothing
 * reads, inhibits or resets.  Held back, h leaves more tokens there than
 * the run it stands for did, which disables nothing (normal inputs only),
 * so the run fires as before and h with it, later. */
static int delayable(const red_t *r, size_t h, size_t p, uint64_t w)
{
    const rtrans_t *t = &r->t[h];
    if (t->vis)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        const rarc_t *a = &t->a[i];
        if (a->p == p) {
            if (a->out != w || a->in)
                return 0;
            continue;
        }
        if (a->out || a->rd || a->ih || a->reset || r->pvis[a->p] ||
            r->cap[a->p] || r->dirty[a->p])
            return 0;
        for (size_t k = r->off[a->p]; k < r->off[a->p + 1]; k++) {
            const rarc_t *b = at(r, k);
            if (r->t[r->adj[k]].alive &&
                (b->rd || b->ih || b->reset))
                return 0;
        }
    }
    return 1;
}

/* Pre-agglomeration on place p, empty at first and unobserved: its one
 * producer h can wait (delayable()) and every consumer f takes what h
 * puts there, w, and nothing else from p.  Firing h just before each f
 * reaches every marking of the observed places, so h.f replaces each f,
 * and h and p go.  1 when it fired, 0 when not, -1 out of memory. */
static int pre_place(red_t *r, size_t p, uint32_t *fs)
{
    size_t nf = 0, h = SIZE_MAX;
    uint64_t w = 0;
    if (!r->palive[p] || r->pvis[p] || r->cap[p] || r->m0[p] ||
        r->dirty[p])
        return 0;
    for (size_t k = r->off[p]; k < r->off[p + 1]; k++) {
        const rarc_t *a = at(r, k);
        if (!r->t[r->adj[k]].alive)
            continue;
        if (a->rd || a->ih || a->reset || (a->in && a->out))
            return 0;
        if (a->out) {
            if (h != SIZE_MAX)
                return 0;
            h = r->adj[k];
            w = a->out;
        } else {
            fs[nf++] = r->adj[k];
        }
    }
    if (h == SIZE_MAX || !nf || !delayable(r, h, p, w))
        return 0;
    for (size_t i = 0; i < nf; i++) {
        const rtrans_t *f = &r->t[fs[i]];
        if (f->vis)
            return 0;
        for (size_t j = 0; j < f->n; j++)
            if (f->a[j].p == p ? f->a[j].in != w : r->dirty[f->a[j].p])
                return 0;
    }
    for (size_t i = 0; i < nf; i++)
        if (merge(r, h, fs[i], p))
            return -1;
    for (size_t i = 0; i <= nf; i++) {
        rtrans_t *t = &r->t[i < nf ? fs[i] : h];
        t->alive = 0;
        for (size_t j = 0; j < t->n; j++)
            r->dirty[t->a[j].p] = 1;
    }
    r->palive[p] = 0;
    r->rules[R_PRE]++;
    return 1;
}

/* Agglomerations on places apart from one another (the index is then
 * stale where they were). */
static int rule_post(red_t *r, int *oom)
{
    size_t most = 0;
    for (size_t p = 0; p < r->np; p++)
        if (r->off[p + 1] - r->off[p] > most)
            most = r->off[p + 1] - r->off[p];
    uint32_t *hs = malloc((most + 1) * sizeof *hs);
    uint32_t *fs = malloc((most + 1) * sizeof *fs);
    int done = 0, one = 0;
    memset(r->dirty, 0, r->np);
    for (size_t p = 0; hs && fs && one >= 0 && p < r->np; p++)
        if ((one = post_place(r, p, hs, fs)) > 0 ||
            (!one && (one = pre_place(r, p, fs)) > 0))
            done = 1;
    if (!hs || !fs || one < 0)
        *oom = 1;
    free(hs);
    free(fs);
    return done;
}

/* Implicit places (implicit.c), once the other rules are done: each
 * found goes with its arcs; half the time left to deadline (0: none,
 * IMPLICIT_SECONDS) in all, each place tried once. */
static int rule_implicit(red_t *r, double deadline)
{
    double now = pni_clock();
    if (!r->implicit_end)
        r->implicit_end = now + (deadline > 0 ? (deadline - now) / 2
                                              : IMPLICIT_SECONDS);
    if (now >= r->implicit_end)
        return 0;
    pni_rarc_t **arcs = malloc((r->nt + 1) * sizeof *arcs);
    size_t *narcs = malloc((r->nt + 1) * sizeof *narcs);
    if (!r->tried && (r->tried = calloc(r->np + 1, 1)) && r->learnt)
        memcpy(r->tried, r->learnt, r->np);
    if (!arcs || !narcs || !r->tried) {
        free(arcs);
        free(narcs);
        return 0;
    }
    for (size_t t = 0; t < r->nt; t++) {
        arcs[t] = r->t[t].alive ? r->t[t].a : NULL;
        narcs[t] = r->t[t].n;
    }
    pni_implicit_net_t n = {r->np, r->nt, r->m0, r->cap, r->pvis,
                            r->palive, r->tried, arcs, narcs, r->off,
                            r->adj};
    size_t found = pni_implicit_places(&n, r->implicit_end);
    free(arcs);
    free(narcs);
    for (size_t p = 0; r->learnt && p < r->np; p++)
        r->learnt[p] |= r->tried[p] && r->palive[p];
    if (!found)
        return 0;
    r->rules[R_IMPLICIT] += found;
    for (size_t t = 0; t < r->nt; t++)
        for (size_t i = 0; i < r->t[t].n; i++)
            if (!r->palive[r->t[t].a[i].p])
                r->t[t].a[i].p = UINT32_MAX;
    drop_arcs(r);
    return 1;
}

/* Every rule until none fires (or the clock: deadline, 0 none). */
static pn_status_t red_run(red_t *r, double deadline)
{
    for (;;) {
        if (deadline > 0 && pni_clock() > deadline)
            return PN_OK;
        int oom = 0;
        if (red_index(r))
            return PN_ENOMEM;
        /* each rule that moves arcs is followed by a new index */
        if (rule_constant(r) || rule_dead(r) || rule_sink(r) ||
            rule_null(r) || rule_dup_trans(r))
            continue;
        if (rule_parallel(r))
            continue;
        if (!r->deadlock && rule_post(r, &oom))
            continue;
        if (!oom && rule_implicit(r, deadline))
            continue;
        return oom ? PN_ENOMEM : PN_OK;
    }
}

/* ---- the reduced net ---------------------------------------------------- */

/* A transition's id: the ids of its sequence joined by '.', made
 * unique. */
static pn_status_t add_transition(pn_net_t *out, const pn_net_t *net,
                                  const rtrans_t *t, size_t *index)
{
    char id[256];
    size_t k = 0;
    for (size_t i = 0; i < t->nseq && k < 200; i++)
        k += (size_t)snprintf(id + k, sizeof id - k, "%s%s", i ? "." : "",
                              pn_net_transition(net, t->seq[i])->id);
    if (k >= 200)
        snprintf(id + 200, sizeof id - 200, "...");
    pn_status_t st = pn_net_add_transition(out, id,
        t->nseq == 1 ? pn_net_transition(net, t->seq[0])->name : NULL,
        index);
    size_t len = strlen(id);
    for (unsigned n = 2; st == PN_EDUPID && n < 1000000; n++) {
        snprintf(id + len, sizeof id - len, "_%u", n);
        st = pn_net_add_transition(out, id, NULL, index);
    }
    return st;
}

static pn_status_t add_arcs(pn_net_t *out, const rarc_t *a, size_t t,
                            const size_t *pnew)
{
    pn_status_t st = PN_OK;
    size_t p = pnew[a->p];
    if (!st && a->in)
        st = pn_net_add_arc_at(out, NULL, PN_DIR_PT, p, t, a->in,
                               PN_ARC_NORMAL, NULL);
    if (!st && a->out)
        st = pn_net_add_arc_at(out, NULL, PN_DIR_TP, p, t, a->out,
                               PN_ARC_NORMAL, NULL);
    if (!st && a->rd)
        st = pn_net_add_arc_at(out, NULL, PN_DIR_PT, p, t, a->rd,
                               PN_ARC_READ, NULL);
    if (!st && a->ih)
        st = pn_net_add_arc_at(out, NULL, PN_DIR_PT, p, t, a->ih,
                               PN_ARC_INHIBITOR, NULL);
    if (!st && a->reset)
        st = pn_net_add_arc_at(out, NULL, PN_DIR_PT, p, t, 1,
                               PN_ARC_RESET, NULL);
    return st;
}

static pn_status_t red_build(const red_t *r, const pn_net_t *net,
                             pni_reduced_t *d)
{
    size_t nt = 0, nseq = 0;
    for (size_t t = 0; t < r->nt; t++)
        if (r->t[t].alive) {
            nt++;
            nseq += r->t[t].nseq;
        }
    d->place_new = malloc((r->np + 1) * sizeof *d->place_new);
    d->trans_new = malloc((r->nt + 1) * sizeof *d->trans_new);
    d->seq_off = malloc((nt + 1) * sizeof *d->seq_off);
    d->seq = malloc((nseq + 1) * sizeof *d->seq);
    d->net = pn_net_new(pn_net_id(net));
    if (!d->place_new || !d->trans_new || !d->seq_off || !d->seq || !d->net)
        return PN_ENOMEM;
    pn_status_t st = pn_net_name(net) ? pn_net_set_name(d->net,
                                                        pn_net_name(net))
                                      : PN_OK;
    for (size_t p = 0; !st && p < r->np; p++) {
        d->place_new[p] = PN_NONE;
        if (!r->palive[p])
            continue;
        const pn_place_t *pl = pn_net_place(net, p);
        st = pn_net_add_place(d->net, pl->id, pl->name, pl->marking,
                              &d->place_new[p]);
        if (!st && pl->capacity)
            st = pn_net_set_capacity(d->net, d->place_new[p], pl->capacity);
    }
    size_t k = 0;
    d->seq_off[0] = 0;
    for (size_t t = 0; !st && t < r->nt; t++) {
        const rtrans_t *x = &r->t[t];
        d->trans_new[t] = PN_NONE;
        if (!x->alive)
            continue;
        st = add_transition(d->net, net, x, &d->trans_new[t]);
        for (size_t i = 0; !st && i < x->n; i++)
            st = add_arcs(d->net, &x->a[i], d->trans_new[t], d->place_new);
        memcpy(d->seq + d->seq_off[k], x->seq, x->nseq * sizeof *d->seq);
        d->seq_off[k + 1] = d->seq_off[k] + x->nseq;
        k++;
    }
    d->np = r->np;
    d->nt = pn_net_transition_count(net);
    memcpy(d->rules, r->rules, sizeof d->rules);
    return st;
}

void pni_reduced_free(pni_reduced_t *d)
{
    if (!d)
        return;
    pn_net_free(d->net);
    pn_query_set_free(d->qs);
    free(d->place_new);
    free(d->trans_new);
    free(d->seq_off);
    free(d->seq);
    free(d);
}

/* ---- the query on the reduced net, the map back ------------------------- */

static pn_status_t copy_sum(pn_qsum_t *to, const pn_qsum_t *from,
                            const size_t *pnew)
{
    to->constant = from->constant;
    to->nplaces = from->nplaces;
    to->places = malloc((from->nplaces + 1) * sizeof *to->places);
    if (!to->places)
        return PN_ENOMEM;
    for (size_t i = 0; i < from->nplaces; i++)
        to->places[i] = pnew[from->places[i]];
    return PN_OK;
}

static pn_qformula_t *copy_formula(const pn_qformula_t *f,
                                   const pni_reduced_t *d)
{
    pn_qformula_t *g = pn_qformula_new(f->kind);
    if (!g)
        return NULL;
    g->op = f->op;
    int bad = copy_sum(&g->lhs, &f->lhs, d->place_new) ||
              copy_sum(&g->rhs, &f->rhs, d->place_new);
    g->items = malloc((f->nitems + 1) * sizeof *g->items);
    g->kids = calloc(f->nkids + 1, sizeof *g->kids);
    if (bad || !g->items || !g->kids) {
        pn_qformula_free(g);
        return NULL;
    }
    g->nitems = f->nitems;
    for (size_t i = 0; i < f->nitems; i++)
        g->items[i] = d->trans_new[f->items[i]];
    for (g->nkids = 0; g->nkids < f->nkids; g->nkids++)
        if (!(g->kids[g->nkids] = copy_formula(f->kids[g->nkids], d))) {
            pn_qformula_free(g);
            return NULL;
        }
    return g;
}

static pn_status_t copy_query(pni_reduced_t *d, const pn_query_t *q)
{
    if (!(d->qs = pn_query_set_new()))
        return PN_ENOMEM;
    if (!q)
        return PN_OK;
    pn_query_t *c = calloc(1, sizeof *c);
    if (!c)
        return PN_ENOMEM;
    d->qs->q = c;
    d->qs->n = 1;
    c->kind = q->kind;
    c->line = q->line;
    if (!(c->id = strdup(q->id ? q->id : "q")))
        return PN_ENOMEM;
    if (q->kind == PN_QUERY_BOUND)
        return copy_sum(&c->bound, &q->bound, d->place_new);
    return (c->formula = copy_formula(q->formula, d)) ? PN_OK : PN_ENOMEM;
}

pn_status_t pni_reduce(const pn_net_t *net, const pn_query_t *q,
                       double deadline, pni_reduced_t **out)
{
    return pni_reduce_tried(net, q, deadline, NULL, out);
}

pn_status_t pni_reduce_tried(const pn_net_t *net, const pn_query_t *q,
                             double deadline, unsigned char *tried,
                             pni_reduced_t **out)
{
    red_t r;
    memset(&r, 0, sizeof r);
    r.learnt = tried;
    pni_reduced_t *d = calloc(1, sizeof *d);
    pn_status_t st = d ? red_load(&r, net) : PN_ENOMEM;
    *out = NULL;
    if (!st && !q) {
        /* nothing named: every place and transition observed */
        memset(r.pvis, 1, r.np);
        for (size_t t = 0; t < r.nt; t++)
            r.t[t].vis = 1;
        r.deadlock = 1;
    } else if (!st && q->kind == PN_QUERY_BOUND) {
        for (size_t i = 0; i < q->bound.nplaces; i++)
            r.pvis[q->bound.places[i]] = 1;
    } else if (!st) {
        see_formula(&r, q->formula);
        if (q->kind == PN_QUERY_CTL || q->kind == PN_QUERY_LTL)
            r.deadlock = 1;
    }
    if (!st)
        st = red_run(&r, deadline);
    if (!st)
        st = red_build(&r, net, d);
    if (!st)
        st = copy_query(d, q);
    red_free(&r);
    if (st) {
        pni_reduced_free(d);
        return st;
    }
    *out = d;
    return PN_OK;
}

pn_status_t pni_reduced_expand(const pni_reduced_t *d,
                               const pn_reach_path_t *path, uint32_t **out,
                               size_t *n)
{
    size_t len = 0;
    for (size_t i = 0; i < path->nsteps; i++)
        for (size_t j = 0; j < path->n_in_step[i]; j++) {
            uint32_t t = path->steps[i][j];
            len += d->seq_off[t + 1] - d->seq_off[t];
        }
    *n = 0;
    if (!(*out = malloc((len + 1) * sizeof **out)))
        return PN_ENOMEM;
    for (size_t i = 0; i < path->nsteps; i++)
        for (size_t j = 0; j < path->n_in_step[i]; j++) {
            uint32_t t = path->steps[i][j];
            for (size_t k = d->seq_off[t]; k < d->seq_off[t + 1]; k++)
                (*out)[(*n)++] = d->seq[k];
        }
    return PN_OK;
}

pn_status_t pn_reach_reduce(const pn_net_t *net, const pn_query_t *q,
                            pn_net_t **out)
{
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    if (q) {
        pn_query_set_t one = {1, (pn_query_t *)q};
        pn_status_t st = pni_check_queries(net, &one);
        if (st)
            return st;
    }
    pni_reduced_t *d;
    pn_status_t st = pni_reduce(net, q, 0, &d);
    if (st)
        return st;
    *out = d->net;
    d->net = NULL;
    pni_reduced_free(d);
    return PN_OK;
}

int pni_reduced_replay(const pni_reduced_t *d, const pn_engine_t *e,
                       const pn_reach_t *rr, uint64_t state, uint64_t *m)
{
    pn_reach_path_t *path;
    uint32_t *trace = NULL;
    size_t n = 0;
    if (pn_reach_path(rr, state, &path))
        return -1;
    pn_status_t st = pni_reduced_expand(d, path, &trace, &n);
    pn_reach_path_free(path);
    pn_sim_t *s = st ? NULL : pn_sim_new(e, 1, PN_SEM_INTERLEAVING, 0);
    int rc = s ? 0 : -1;
    for (size_t i = 0; s && !rc && i < n; i++)
        if (pn_sim_fire(s, &trace[i], 1, NULL) != PN_OK)
            rc = 1;
    if (!rc)
        memcpy(m, pn_sim_marking(s), d->np * sizeof *m);
    pn_sim_free(s);
    free(trace);
    return rc;
}
