/*
 * Minimal siphons and traps (pn/struct.h), on the normal arcs.
 *
 * The largest siphon inside a set of places is found by a fixpoint: a
 * transition with no input place in the set cannot feed it, so its
 * output places leave, and so on.  The minimal siphons are searched by
 * splitting: a node asks for the minimal siphons containing the places I
 * and none of E; it takes the largest siphon outside E, shrinks it to a
 * minimal one M (keeping I when it can), records M when M contains I,
 * and splits what is left over the places q1 .. qk of M not in I: every
 * other minimal siphon misses one of them, and child i asks for those
 * missing qi and holding q1 .. q(i-1).  The children's sets of answers do
 * not meet, so each minimal siphon is found once.  Traps are the same
 * with every arc turned round.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_private.h"
#include "struct.h"

/* the budget: steps of work, each an arc or a place looked at (a second
 * or two) */
#define SIPHON_WORK ((uint64_t)1 << 29)

typedef struct {
    const pni_flowrel_t *g;
    /* siphons: a transition counts its inputs (need) in the set, and when
     * none is left its outputs (feed) leave; a place leaving lowers the
     * counts of the transitions it is an input of (uses).  Traps: turned
     * round. */
    const pni_adj_t *need, *feed, *uses;
    uint32_t *cnt, *queue;
    unsigned char *in_i, *in_e, *x, *y;
    uint64_t work, max_work;
    uint32_t *q;          /* the places each level splits on */
    size_t nq, capq;
    struct frame {
        size_t qoff, k, i;
    } *stack;
    size_t depth, capdepth;
    pn_siphons_t *out;
    size_t cap;           /* room for answers in out */
    uint32_t *tmp;        /* a set as places */
    uint32_t *log;        /* the places take_out() removed */
    const pn_net_t *net;
    int over;             /* the limit or the budget was passed */
    int stop_unmarked;    /* stop at the first siphon without a marked
                             trap (Commoner's property fails) */
} sip_t;

/* x becomes the largest siphon (trap) inside it; returns its size. */
static size_t largest(sip_t *s, unsigned char *x)
{
    const pni_flowrel_t *g = s->g;
    size_t nq = 0, left = 0;
    s->work += g->np + g->nt + s->need->off[g->nt] + s->feed->off[g->nt];
    for (size_t t = 0; t < g->nt; t++) {
        uint32_t c = 0;
        for (size_t k = s->need->off[t]; k < s->need->off[t + 1]; k++)
            c += x[s->need->idx[k]];
        s->cnt[t] = c;
        if (!c)
            s->queue[nq++] = (uint32_t)t;
    }
    while (nq) {
        uint32_t t = s->queue[--nq];
        for (size_t k = s->feed->off[t]; k < s->feed->off[t + 1]; k++) {
            uint32_t p = s->feed->idx[k];
            if (!x[p])
                continue;
            x[p] = 0;
            for (size_t j = s->uses->off[p]; j < s->uses->off[p + 1]; j++)
                if (--s->cnt[s->uses->idx[j]] == 0)
                    s->queue[nq++] = s->uses->idx[j];
        }
    }
    for (size_t p = 0; p < g->np; p++)
        left += x[p];
    return left;
}

/* Whether every place of I is in x. */
static int holds_i(const sip_t *s, const unsigned char *x)
{
    for (size_t p = 0; p < s->g->np; p++)
        if (s->in_i[p] && !x[p])
            return 0;
    return 1;
}

/* s->x (a siphon of left places, the counts cnt its own) less place p
 * and what leaves with it, in place, each place that leaves written to
 * s->log: the largest siphon inside x without p.  1 when that is not
 * empty and (keep_i) still holds I; else 0, x and cnt then half done
 * (undo() restores them).  *n: the places logged. */
static int take_out(sip_t *s, size_t left, size_t p, int keep_i, size_t *n)
{
    size_t nq = 0, k = 0;
    int ok = 1;
    for (;;) {
        s->x[p] = 0;
        s->log[k++] = (uint32_t)p;
        for (size_t j = s->uses->off[p]; j < s->uses->off[p + 1]; j++)
            if (--s->cnt[s->uses->idx[j]] == 0)
                s->queue[nq++] = s->uses->idx[j];
        s->work += s->uses->off[p + 1] - s->uses->off[p] + 1;
        if (k == left || (keep_i && s->in_i[p])) {
            ok = 0;
            break;
        }
        /* the next place to leave: an output of a transition no longer
         * fed */
        p = s->g->np;
        while (nq && p == s->g->np) {
            uint32_t t = s->queue[nq - 1];
            size_t a = s->feed->off[t];
            while (a < s->feed->off[t + 1] && !s->x[s->feed->idx[a]])
                a++;
            s->work += a - s->feed->off[t] + 1;
            if (a == s->feed->off[t + 1])
                nq--;
            else
                p = s->feed->idx[a];
        }
        if (p == s->g->np)
            break;
    }
    *n = k;
    return ok;
}

/* Puts back the n places take_out() logged, and their counts. */
static void undo(sip_t *s, size_t n)
{
    while (n-- > 0) {
        uint32_t p = s->log[n];
        s->x[p] = 1;
        for (size_t j = s->uses->off[p]; j < s->uses->off[p + 1]; j++)
            s->cnt[s->uses->idx[j]]++;
        s->work += s->uses->off[p + 1] - s->uses->off[p] + 1;
    }
}

/* s->x, a nonempty siphon, shrunk to a minimal one: each place whose
 * leaving still leaves a nonempty siphon (keep_i: one holding I) leaves
 * with what it takes along, tried in place and undone when it fails
 * (the work is what moves, not the net's size).  One pass is enough: a
 * place that could leave later could have left when tried, from the
 * larger set. */
static void shrink(sip_t *s, int keep_i)
{
    size_t np = s->g->np;
    size_t left = largest(s, s->x); /* and the counts of s->x */
    for (size_t p = 0; p < np && s->work <= s->max_work; p++) {
        if (!s->x[p] || (keep_i && s->in_i[p]))
            continue;
        size_t n;
        if (take_out(s, left, p, keep_i, &n))
            left -= n;
        else
            undo(s, n);
    }
}

/* Appends the set s->x to the answers, with whether it holds a marked
 * trap (siphons) or is marked (traps).  0, -1 out of memory. */
static int record(sip_t *s)
{
    pn_siphons_t *o = s->out;
    size_t np = s->g->np, n = 0;
    int marked = 0;
    for (size_t p = 0; p < np; p++)
        if (s->x[p])
            s->tmp[n++] = (uint32_t)p;
    if (o->traps)
        for (size_t i = 0; i < n && !marked; i++)
            marked = pn_net_place(s->net, s->tmp[i])->marking > 0;
    else {
        /* the largest trap inside: marked when some trap inside is */
        sip_t t = *s;
        t.need = &s->g->tout;
        t.feed = &s->g->tin;
        t.uses = &s->g->pin;
        memcpy(s->y, s->x, np);
        largest(&t, s->y);
        s->work = t.work;
        for (size_t i = 0; i < n && !marked; i++)
            marked = s->y[s->tmp[i]] &&
                     pn_net_place(s->net, s->tmp[i])->marking > 0;
    }
    if (o->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        uint32_t **pl = realloc(o->place, cap * sizeof *pl);
        if (pl)
            o->place = pl;
        size_t *len = realloc(o->len, cap * sizeof *len);
        if (len)
            o->len = len;
        unsigned char *m = realloc(o->marked, cap);
        if (m)
            o->marked = m;
        if (!pl || !len || !m)
            return -1;
        s->cap = cap;
    }
    uint32_t *set = malloc((n + 1) * sizeof *set);
    if (!set)
        return -1;
    memcpy(set, s->tmp, n * sizeof *set);
    o->place[o->n] = set;
    o->len[o->n] = n;
    o->marked[o->n++] = (unsigned char)marked;
    if (!marked && s->stop_unmarked)
        s->over = PN_STRUCT_MAX;
    return 0;
}

/* The node at s->in_i, s->in_e: records its minimal siphon when it holds
 * I, and pushes the places to split on (none: a leaf).  0, -1 out of
 * memory. */
static int expand(sip_t *s)
{
    size_t np = s->g->np;
    for (size_t p = 0; p < np; p++)
        s->x[p] = !s->in_e[p];
    if (!largest(s, s->x) || !holds_i(s, s->x))
        return 0;
    shrink(s, 1);
    shrink(s, 0);
    if (s->work > s->max_work) {
        s->over = PN_STRUCT_WORK;
        return 0;
    }
    if (holds_i(s, s->x)) {
        if (s->out->n == s->out->limit) {
            s->over = PN_STRUCT_MAX;
            return 0;
        }
        if (record(s))
            return -1;
    }
    if (s->depth == s->capdepth) {
        size_t cap = s->capdepth ? 2 * s->capdepth : 64;
        struct frame *f = realloc(s->stack, cap * sizeof *f);
        if (!f)
            return -1;
        s->stack = f;
        s->capdepth = cap;
    }
    size_t k = 0;
    for (size_t p = 0; p < np; p++)
        if (s->x[p] && !s->in_i[p]) {
            if (s->nq + k == s->capq) {
                size_t cap = 2 * s->capq + np;
                uint32_t *q = realloc(s->q, cap * sizeof *q);
                if (!q)
                    return -1;
                s->q = q;
                s->capq = cap;
            }
            s->q[s->nq + k++] = (uint32_t)p;
        }
    if (!k)
        return 0;
    struct frame f = {s->nq, k, 0};
    s->stack[s->depth++] = f;
    s->nq += k;
    s->in_e[s->q[f.qoff]] = 1; /* the first child */
    return 1;
}

/* The search, depth first over the children (the sets I and E changed in
 * place on the way down and back).  0, -1 out of memory. */
static int search(sip_t *s)
{
    int fresh = 1; /* the node at in_i, in_e is not expanded yet */
    while (!s->over) {
        if (fresh) {
            int r = expand(s);
            if (r < 0)
                return -1;
            fresh = r == 1;
            continue;
        }
        if (!s->depth)
            break;
        struct frame *f = &s->stack[s->depth - 1];
        uint32_t q = s->q[f->qoff + f->i];
        s->in_e[q] = 0;
        s->in_i[q] = 1;
        if (++f->i < f->k) {
            s->in_e[s->q[f->qoff + f->i]] = 1;
            fresh = 1;
            continue;
        }
        for (size_t j = 0; j < f->k; j++)
            s->in_i[s->q[f->qoff + j]] = 0;
        s->nq = f->qoff;
        s->depth--;
    }
    return 0;
}

static pn_status_t compute(const pn_net_t *net, int traps, size_t max,
                           uint64_t max_work, int stop_unmarked,
                           pn_siphons_t **out)
{
    if (!out)
        return PN_EINVAL;
    *out = NULL;
    if (!net)
        return PN_EINVAL;
    pni_flowrel_t g;
    pn_status_t st = pni_flowrel_open(net, &g);
    if (st)
        return st;
    pn_siphons_t *o = calloc(1, sizeof *o);
    sip_t s = {0};
    size_t np = g.np;
    s.g = &g;
    s.net = net;
    s.out = o;
    s.max_work = max_work;
    s.stop_unmarked = stop_unmarked;
    s.need = traps ? &g.tout : &g.tin;
    s.feed = traps ? &g.tin : &g.tout;
    s.uses = traps ? &g.pin : &g.pout;
    st = PN_ENOMEM;
    if (!o)
        goto out;
    o->traps = !!traps;
    o->limit = max ? max : PN_STRUCT_MAX_DEFAULT;
    o->commoner = -1;
    s.cnt = malloc((g.nt + 1) * sizeof *s.cnt);
    s.queue = malloc((g.nt + 1) * sizeof *s.queue);
    s.tmp = malloc((np + 1) * sizeof *s.tmp);
    s.log = malloc((np + 1) * sizeof *s.log);
    s.in_i = calloc(np + 1, 1);
    s.in_e = calloc(np + 1, 1);
    s.x = malloc(np + 1);
    s.y = malloc(np + 1);
    if (!s.cnt || !s.queue || !s.tmp || !s.log || !s.in_i ||
        !s.in_e || !s.x || !s.y || search(&s))
        goto out;
    o->end = s.over ? (pn_struct_end_t)s.over : PN_STRUCT_COMPLETE;
    if (!traps) {
        int all = 1;
        for (size_t i = 0; i < o->n; i++)
            all &= o->marked[i];
        o->commoner = !all ? 0 : o->end == PN_STRUCT_COMPLETE ? 1 : -1;
    }
    st = PN_OK;
out:
    free(s.cnt);
    free(s.queue);
    free(s.tmp);
    free(s.log);
    free(s.in_i);
    free(s.in_e);
    free(s.x);
    free(s.y);
    free(s.q);
    free(s.stack);
    pni_flowrel_close(&g);
    if (st)
        pn_siphons_free(o);
    else
        *out = o;
    return st;
}

void pn_siphons_free(pn_siphons_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->place[i]);
    free(s->place);
    free(s->len);
    free(s->marked);
    free(s);
}

size_t pni_largest_trap(const pni_flowrel_t *g, unsigned char *x,
                        uint32_t *cnt, uint32_t *queue)
{
    sip_t s = {0};
    s.g = g;
    s.need = &g->tout;
    s.feed = &g->tin;
    s.uses = &g->pin;
    s.cnt = cnt;
    s.queue = queue;
    return largest(&s, x);
}

pn_status_t pn_siphons_compute(const pn_net_t *net, int traps, size_t max,
                               pn_siphons_t **out)
{
    return compute(net, traps, max, SIPHON_WORK, 0, out);
}

int pni_siphons_commoner(const pn_net_t *net, uint64_t max_work)
{
    pn_siphons_t *s = NULL;
    int yes = !compute(net, 0, 0, max_work, 1, &s) && s->commoner == 1;
    pn_siphons_free(s);
    return yes;
}
