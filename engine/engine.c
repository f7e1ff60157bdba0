/*
 * The step engine: a net compiled into flat arrays, an enabled set kept
 * incrementally as a bitset (only transitions next to places that changed
 * are re-checked), and a reference mode that recomputes it every step.
 * Both build the enabled set in transition order and draw the same random
 * numbers, so for one seed they give the same trace.
 */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "engine_private.h"

uint64_t pn_run_seed(uint64_t seed, uint64_t i)
{
    uint64_t x = seed ^ (i * UINT64_C(0xD1B54A32D192ED03));
    pni_splitmix64(&x);
    return pni_splitmix64(&x);
}

const char *pn_end_name(pn_end_t end)
{
    switch (end) {
    case PN_END_DEAD: return "dead";
    case PN_END_LIMIT: return "limit";
    case PN_END_OVERFLOW: return "overflow";
    default: return "running";
    }
}

pn_status_t pn_semantics_parse(const char *name, pn_semantics_t *sem)
{
    if (name && !strcmp(name, "maximal")) {
        *sem = PN_SEM_MAXIMAL;
        return PN_OK;
    }
    if (name && !strcmp(name, "interleaving")) {
        *sem = PN_SEM_INTERLEAVING;
        return PN_OK;
    }
    return PN_EINVAL;
}

/* ---- the compiled net -------------------------------------------------- */

typedef struct {
    uint32_t *off; /* nt + 1 (or np + 1) offsets */
    uint32_t *idx;
    uint64_t *w;   /* NULL for reset arcs and dependents */
} csr_t;

struct pn_engine {
    uint32_t np, nt;
    uint64_t *m0;
    uint64_t *cap;     /* 0: unbounded */
    int has_cap;
    csr_t in, rd, ih, rs, out;
    uint64_t *out_self; /* for capacity: what t takes from its output place */
    /* Enabledness as conditions on single places, for the incremental mode:
     * per place, "m >= th" conditions (normal and read inputs) and "m < th"
     * conditions (inhibitors, capacity outputs), each sorted by threshold,
     * so that a change of m(p) from a to b visits only the conditions whose
     * threshold lies between a and b. */
    csr_t lo, up;       /* idx: transition or WIDE | class, w: threshold */
    uint32_t *never;    /* per transition: conditions that never hold */
    /* Wide classes: the conditions of one place with one threshold and one
     * sense, shared by many transitions in few words of the enabled set.
     * They flip together, so they are kept as masks over the words of the
     * enabled set rather than as one counter update per transition. */
    uint32_t nclass;
    uint32_t *cls_off;  /* nclass + 1 offsets into cls_word, cls_mask */
    uint32_t *cls_word;
    uint64_t *cls_mask;
    uint32_t planes;    /* bits of the per-transition count of failing
                         * wide classes */
};

/* In lo.idx and up.idx: the entry stands for a wide class. */
#define WIDE UINT32_C(0x80000000)

static void csr_free(csr_t *c)
{
    free(c->off);
    free(c->idx);
    free(c->w);
}

size_t pn_engine_place_count(const pn_engine_t *e) { return e ? e->np : 0; }
size_t pn_engine_transition_count(const pn_engine_t *e)
{
    return e ? e->nt : 0;
}

void pn_engine_free(pn_engine_t *e)
{
    if (!e)
        return;
    free(e->m0);
    free(e->cap);
    csr_free(&e->in);
    csr_free(&e->rd);
    csr_free(&e->ih);
    csr_free(&e->rs);
    csr_free(&e->out);
    free(e->out_self);
    csr_free(&e->lo);
    csr_free(&e->up);
    free(e->never);
    free(e->cls_off);
    free(e->cls_word);
    free(e->cls_mask);
    free(e);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Which CSR an arc of the net goes to. */
static csr_t *arc_csr(pn_engine_t *e, const pn_arc_t *a)
{
    if (a->dir == PN_DIR_TP)
        return &e->out;
    switch (a->kind) {
    case PN_ARC_NORMAL: return &e->in;
    case PN_ARC_READ: return &e->rd;
    case PN_ARC_INHIBITOR: return &e->ih;
    case PN_ARC_RESET: return &e->rs;
    }
    return NULL;
}

/* Builds the per-transition CSRs; normal inputs and outputs between the
 * same place and transition are merged (weights added). */
static pn_status_t build_arcs(pn_engine_t *e, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    csr_t *all[5] = {&e->in, &e->rd, &e->ih, &e->rs, &e->out};
    for (int k = 0; k < 5; k++) {
        all[k]->off = calloc((size_t)e->nt + 1, sizeof(uint32_t));
        all[k]->idx = malloc((na + 1) * sizeof(uint32_t));
        all[k]->w = k == 3 ? NULL : malloc((na + 1) * sizeof(uint64_t));
        if (!all[k]->off || !all[k]->idx || (k != 3 && !all[k]->w))
            return PN_ENOMEM;
    }
    /* count per transition, then prefix sums, then fill */
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        arc_csr(e, a)->off[a->transition + 1]++;
    }
    for (int k = 0; k < 5; k++)
        for (uint32_t t = 0; t < e->nt; t++)
            all[k]->off[t + 1] += all[k]->off[t];
    uint32_t *fill[5];
    for (int k = 0; k < 5; k++) {
        fill[k] = malloc(((size_t)e->nt + 1) * sizeof(uint32_t));
        if (!fill[k]) {
            for (int j = 0; j < k; j++)
                free(fill[j]);
            return PN_ENOMEM;
        }
        memcpy(fill[k], all[k]->off, (size_t)e->nt * sizeof(uint32_t));
    }
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        csr_t *c = arc_csr(e, a);
        int k = 0;
        while (all[k] != c)
            k++;
        uint32_t at = fill[k][a->transition]++;
        c->idx[at] = (uint32_t)a->place;
        if (c->w)
            c->w[at] = a->weight;
    }
    for (int k = 0; k < 5; k++)
        free(fill[k]);
    /* merge duplicate normal inputs and outputs (in place, per transition) */
    uint32_t *seen = malloc(((size_t)e->np + 1) * sizeof(uint32_t));
    if (!seen)
        return PN_ENOMEM;
    csr_t *merge[2] = {&e->in, &e->out};
    for (int k = 0; k < 2; k++) {
        csr_t *c = merge[k];
        for (uint32_t p = 0; p < e->np; p++)
            seen[p] = UINT32_MAX;
        uint32_t w = 0, start = 0;
        for (uint32_t t = 0; t < e->nt; t++) {
            uint32_t end = c->off[t + 1];
            uint32_t first = w;
            for (uint32_t j = start; j < end; j++) {
                uint32_t p = c->idx[j];
                if (seen[p] != UINT32_MAX && seen[p] >= first) {
                    c->w[seen[p]] = sat_add(c->w[seen[p]], c->w[j]);
                    continue;
                }
                seen[p] = w;
                c->idx[w] = p;
                c->w[w] = c->w[j];
                w++;
            }
            start = end;
            c->off[t + 1] = w;
        }
    }
    free(seen);
    return PN_OK;
}

/* The threshold of a capacity condition: firing t keeps m(p) - self + w
 * within cap iff m(p) < cap + self - w + 1.  0: never holds. */
static uint64_t cap_threshold(uint64_t cap, uint64_t self, uint64_t w)
{
    uint64_t room = sat_add(cap, self);
    if (w > room)
        return 0;
    return sat_add(room - w, 1);
}

typedef struct {
    uint64_t th;
    uint32_t t;
} cond_t;

static int cmp_cond(const void *a, const void *b)
{
    const cond_t *x = a, *y = b;
    if (x->th != y->th)
        return x->th < y->th ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* Builds one per-place condition CSR from (place, transition, threshold)
 * triples of the compiled arcs. */
static pn_status_t build_conds(pn_engine_t *e, csr_t *c, int upper)
{
    /* pass 0 counts, pass 1 fills */
    c->off = calloc((size_t)e->np + 2, sizeof(uint32_t));
    if (!c->off)
        return PN_ENOMEM;
    cond_t *all = NULL;
    uint32_t *fill = NULL;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t t = 0; t < e->nt; t++) {
            const csr_t *src[2] = {upper ? &e->ih : &e->in,
                                   upper ? &e->out : &e->rd};
            for (int k = 0; k < 2; k++)
                for (uint32_t j = src[k]->off[t]; j < src[k]->off[t + 1];
                     j++) {
                    uint32_t p = src[k]->idx[j];
                    uint64_t th = src[k]->w[j];
                    if (upper && k == 1) {
                        if (!e->cap[p])
                            continue;
                        th = cap_threshold(e->cap[p], e->out_self[j], th);
                    }
                    if (th == 0) {
                        /* "m < 0" never holds ("m >= 0" always does and
                         * does not occur: weights are >= 1) */
                        if (pass == 0)
                            e->never[t]++;
                        continue;
                    }
                    if (pass == 0) {
                        c->off[p + 1]++;
                    } else {
                        cond_t cd = {th, t};
                        all[fill[p]++] = cd;
                    }
                }
        }
        if (pass == 0) {
            for (uint32_t p = 0; p < e->np; p++)
                c->off[p + 1] += c->off[p];
            size_t n = c->off[e->np];
            all = malloc((n + 1) * sizeof *all);
            fill = malloc(((size_t)e->np + 1) * sizeof *fill);
            c->idx = malloc((n + 1) * sizeof *c->idx);
            c->w = malloc((n + 1) * sizeof *c->w);
            if (!all || !fill || !c->idx || !c->w) {
                free(all);
                free(fill);
                return PN_ENOMEM;
            }
            memcpy(fill, c->off, (size_t)e->np * sizeof *fill);
        }
    }
    for (uint32_t p = 0; p < e->np; p++) {
        uint32_t a = c->off[p], b = c->off[p + 1];
        qsort(all + a, b - a, sizeof *all, cmp_cond);
        for (uint32_t j = a; j < b; j++) {
            c->idx[j] = all[j].t;
            c->w[j] = all[j].th;
        }
    }
    free(all);
    free(fill);
    return PN_OK;
}

/* Replaces, in c, each run of conditions of one place with one threshold
 * that is worth a wide class by one entry WIDE | class: a run of at least
 * 8 transitions, at least 2 per word of the enabled set it touches.
 * nwide[t]: the wide classes t is in. */
static void group_wide(pn_engine_t *e, csr_t *c, uint32_t *nwide)
{
    uint32_t out = 0, start = 0;
    for (uint32_t p = 0; p < e->np; p++) {
        uint32_t end = c->off[p + 1];
        for (uint32_t a = start, b; a < end; a = b) {
            uint32_t n = 1, words = 1;
            for (b = a + 1; b < end && c->w[b] == c->w[a]; b++) {
                /* sorted by transition within a threshold */
                n += c->idx[b] != c->idx[b - 1];
                words += c->idx[b] >> 6 != c->idx[b - 1] >> 6;
            }
            if (e->nt >= WIDE || n < 8 || 2 * words > n) {
                for (uint32_t j = a; j < b; j++) {
                    c->idx[out] = c->idx[j];
                    c->w[out++] = c->w[j];
                }
                continue;
            }
            uint32_t k = e->nclass++, at = e->cls_off[k];
            for (uint32_t j = a; j < b; j++) {
                uint32_t t = c->idx[j];
                if (j > a && t == c->idx[j - 1])
                    continue;
                nwide[t]++;
                if (j == a || t >> 6 != c->idx[j - 1] >> 6) {
                    e->cls_word[at] = t >> 6;
                    e->cls_mask[at++] = 0;
                }
                e->cls_mask[at - 1] |= UINT64_C(1) << (t & 63);
            }
            e->cls_off[k + 1] = at;
            c->idx[out] = WIDE | k;
            c->w[out++] = c->w[a];
        }
        start = end;
        c->off[p + 1] = out;
    }
}

static pn_status_t build_deps(pn_engine_t *e)
{
    e->never = calloc((size_t)e->nt + 1, sizeof *e->never);
    if (!e->never)
        return PN_ENOMEM;
    pn_status_t st = build_conds(e, &e->lo, 0);
    if (!st)
        st = build_conds(e, &e->up, 1);
    if (st)
        return st;
    size_t n = (size_t)e->lo.off[e->np] + e->up.off[e->np];
    uint32_t *nwide = calloc((size_t)e->nt + 1, sizeof *nwide);
    e->cls_off = calloc(n + 1, sizeof *e->cls_off);
    e->cls_word = malloc((n + 1) * sizeof *e->cls_word);
    e->cls_mask = malloc((n + 1) * sizeof *e->cls_mask);
    if (!nwide || !e->cls_off || !e->cls_word || !e->cls_mask) {
        free(nwide);
        return PN_ENOMEM;
    }
    group_wide(e, &e->lo, nwide);
    group_wide(e, &e->up, nwide);
    uint32_t most = 0;
    for (uint32_t t = 0; t < e->nt; t++)
        most = nwide[t] > most ? nwide[t] : most;
    while (e->planes < 32 && most >> e->planes)
        e->planes++;
    free(nwide);
    return PN_OK;
}

pn_status_t pn_engine_compile(const pn_net_t *net, pn_engine_t **out)
{
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net),
           na = pn_net_arc_count(net);
    if (np >= UINT32_MAX || nt >= UINT32_MAX || na >= UINT32_MAX)
        return PN_ERANGE;
    pn_engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return PN_ENOMEM;
    e->np = (uint32_t)np;
    e->nt = (uint32_t)nt;
    e->m0 = malloc((np + 1) * sizeof *e->m0);
    e->cap = malloc((np + 1) * sizeof *e->cap);
    pn_status_t st = PN_ENOMEM;
    if (!e->m0 || !e->cap)
        goto fail;
    for (size_t p = 0; p < np; p++) {
        const pn_place_t *pl = pn_net_place(net, p);
        e->m0[p] = pl->marking;
        e->cap[p] = pl->capacity;
        e->has_cap |= pl->capacity != 0;
    }
    if ((st = build_arcs(e, net)) != PN_OK)
        goto fail;
    if (e->has_cap) {
        /* what each transition takes from each of its output places */
        uint32_t no = e->out.off[e->nt];
        e->out_self = calloc((size_t)no + 1, sizeof *e->out_self);
        if (!e->out_self) {
            st = PN_ENOMEM;
            goto fail;
        }
        for (uint32_t t = 0; t < e->nt; t++)
            for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
                for (uint32_t k = e->in.off[t]; k < e->in.off[t + 1]; k++)
                    if (e->in.idx[k] == e->out.idx[j])
                        e->out_self[j] = e->in.w[k];
    }
    if ((st = build_deps(e)) != PN_OK)
        goto fail;
    *out = e;
    return PN_OK;
fail:
    pn_engine_free(e);
    return st;
}

/* ---- runs -------------------------------------------------------------- */

struct pn_sim {
    const pn_engine_t *e;
    pni_rng_t rng;
    pn_semantics_t sem;
    int reference;
    uint64_t *m, *counts;
    uint64_t steps, firings;
    uint64_t *bits; /* enabled set (incremental mode) */
    size_t nwords;
    uint32_t *E, *fired, *changed;
    uint32_t nfired, nchanged;
    uint64_t *pend;     /* tokens promised to capacity places in a step */
    uint64_t *old;      /* m(p) before the step, for the places it changed */
    uint32_t *unsat;    /* per transition: conditions that do not hold,
                         * wide classes aside */
    /* per word of the enabled set: the count of failing wide classes of
     * each transition, as e->planes bit planes (plane i of word w at
     * wfail[w * planes + i]), and their union: the transitions a failing
     * wide class blocks.  Enabled: bits & ~blocked. */
    uint64_t *wfail, *blocked;
    uint64_t *pstamp, stamp;
    uint64_t *tstamp, tstamp_now; /* per transition, for pn_sim_fire() */
    size_t overflow_place;
};

static int enabled(const pn_engine_t *e, const uint64_t *m, uint32_t t)
{
    for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
        if (m[e->in.idx[j]] < e->in.w[j])
            return 0;
    for (uint32_t j = e->rd.off[t]; j < e->rd.off[t + 1]; j++)
        if (m[e->rd.idx[j]] < e->rd.w[j])
            return 0;
    for (uint32_t j = e->ih.off[t]; j < e->ih.off[t + 1]; j++)
        if (m[e->ih.idx[j]] >= e->ih.w[j])
            return 0;
    if (e->has_cap)
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++) {
            uint32_t p = e->out.idx[j];
            if (e->cap[p] &&
                sat_add(m[p] - e->out_self[j], e->out.w[j]) > e->cap[p])
                return 0;
        }
    return 1;
}

static void set_bit(pn_sim_t *s, uint32_t t, int on)
{
    uint64_t mask = UINT64_C(1) << (t & 63);
    if (on)
        s->bits[t >> 6] |= mask;
    else
        s->bits[t >> 6] &= ~mask;
}

/* Wide class k (x = WIDE | k) now fails: one more failing class for each
 * of its transitions (a carry through the bit planes). */
static void class_fails(pn_sim_t *s, uint32_t x)
{
    const pn_engine_t *e = s->e;
    uint32_t k = x & ~WIDE, np = e->planes;
    for (uint32_t j = e->cls_off[k]; j < e->cls_off[k + 1]; j++) {
        uint32_t w = e->cls_word[j];
        uint64_t c = e->cls_mask[j], *pl = s->wfail + (size_t)w * np;
        s->blocked[w] |= c;
        for (uint32_t i = 0; c; i++) {
            uint64_t v = pl[i];
            pl[i] = v ^ c;
            c &= v;
        }
    }
}

/* Wide class k now holds: one failing class fewer (a borrow). */
static void class_holds(pn_sim_t *s, uint32_t x)
{
    const pn_engine_t *e = s->e;
    uint32_t k = x & ~WIDE, np = e->planes;
    for (uint32_t j = e->cls_off[k]; j < e->cls_off[k + 1]; j++) {
        uint32_t w = e->cls_word[j];
        uint64_t c = e->cls_mask[j], *pl = s->wfail + (size_t)w * np;
        for (uint32_t i = 0; c; i++) {
            uint64_t v = pl[i];
            pl[i] = v ^ c;
            c &= ~v;
        }
        uint64_t any = 0;
        for (uint32_t i = 0; i < np; i++)
            any |= pl[i];
        s->blocked[w] = any;
    }
}

static inline void cond_holds(pn_sim_t *s, uint32_t t)
{
    if (t & WIDE)
        class_holds(s, t);
    else if (--s->unsat[t] == 0)
        set_bit(s, t, 1);
}

static inline void cond_fails(pn_sim_t *s, uint32_t t)
{
    if (t & WIDE)
        class_fails(s, t);
    else if (s->unsat[t]++ == 0)
        set_bit(s, t, 0);
}

void pn_sim_free(pn_sim_t *s)
{
    if (!s)
        return;
    free(s->m);
    free(s->counts);
    free(s->bits);
    free(s->E);
    free(s->fired);
    free(s->changed);
    free(s->pend);
    free(s->pstamp);
    free(s->tstamp);
    free(s->old);
    free(s->unsat);
    free(s->wfail);
    free(s->blocked);
    free(s);
}

pn_sim_t *pn_sim_new(const pn_engine_t *e, uint64_t seed, pn_semantics_t sem,
                     int reference)
{
    if (!e)
        return NULL;
    pn_sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->e = e;
    s->sem = sem;
    s->reference = reference;
    pni_rng_seed(&s->rng, seed);
    size_t np = e->np, nt = e->nt;
    s->nwords = (nt + 63) / 64;
    s->m = malloc((np + 1) * sizeof *s->m);
    s->counts = calloc(nt + 1, sizeof *s->counts);
    s->bits = calloc(s->nwords + 1, sizeof *s->bits);
    s->E = malloc((nt + 1) * sizeof *s->E);
    s->fired = malloc((nt + 1) * sizeof *s->fired);
    s->changed = malloc((np + 1) * sizeof *s->changed);
    s->pend = calloc(np + 1, sizeof *s->pend);
    s->pstamp = calloc(np + 1, sizeof *s->pstamp);
    s->tstamp = calloc(nt + 1, sizeof *s->tstamp);
    s->old = calloc(np + 1, sizeof *s->old);
    s->unsat = calloc(nt + 1, sizeof *s->unsat);
    s->wfail = calloc(s->nwords * e->planes + 1, sizeof *s->wfail);
    s->blocked = calloc(s->nwords + 1, sizeof *s->blocked);
    if (!s->m || !s->counts || !s->bits || !s->E || !s->fired ||
        !s->changed || !s->pend || !s->pstamp || !s->tstamp || !s->old ||
        !s->unsat || !s->wfail || !s->blocked) {
        pn_sim_free(s);
        return NULL;
    }
    memcpy(s->m, e->m0, np * sizeof *s->m);
    if (!reference) {
        /* count the conditions that do not hold at the initial marking */
        for (uint32_t t = 0; t < e->nt; t++)
            s->unsat[t] = e->never[t];
        for (uint32_t p = 0; p < e->np; p++) {
            for (uint32_t j = e->lo.off[p]; j < e->lo.off[p + 1]; j++)
                if (!(s->m[p] >= e->lo.w[j]))
                    cond_fails(s, e->lo.idx[j]);
            for (uint32_t j = e->up.off[p]; j < e->up.off[p + 1]; j++)
                if (!(s->m[p] < e->up.w[j]))
                    cond_fails(s, e->up.idx[j]);
        }
        for (uint32_t t = 0; t < e->nt; t++)
            set_bit(s, t, s->unsat[t] == 0);
    }
    s->overflow_place = PN_NONE;
    return s;
}

/* Call before changing m(p): remembers the value the step started from. */
static inline void touch(pn_sim_t *s, uint32_t p)
{
    if (s->pstamp[p] != s->stamp) {
        s->pstamp[p] = s->stamp;
        s->old[p] = s->m[p];
        s->changed[s->nchanged++] = p;
    }
}

/* First index in [a, b) whose threshold is above v. */
static inline uint32_t above(const uint64_t *th, uint32_t a, uint32_t b,
                             uint64_t v)
{
    if (a == b || th[a] > v)
        return a; /* the common case: below every threshold */
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (th[mid] <= v)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}


/* m(p) went from a to b: flip exactly the conditions whose threshold lies
 * in (min, max]. */
static void place_changed(pn_sim_t *s, uint32_t p, uint64_t a, uint64_t b)
{
    const pn_engine_t *e = s->e;
    if (a == b)
        return;
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    const csr_t *c = &e->lo;
    uint32_t end = c->off[p + 1];
    for (uint32_t j = above(c->w, c->off[p], end, lo); j < end && c->w[j] <= hi;
         j++) {
        if (b > a)
            cond_holds(s, c->idx[j]);
        else
            cond_fails(s, c->idx[j]);
    }
    c = &e->up;
    end = c->off[p + 1];
    for (uint32_t j = above(c->w, c->off[p], end, lo); j < end && c->w[j] <= hi;
         j++) {
        if (b > a)
            cond_fails(s, c->idx[j]);
        else
            cond_holds(s, c->idx[j]);
    }
}

/* Collects the enabled set in transition order. */
static uint32_t collect(pn_sim_t *s)
{
    const pn_engine_t *e = s->e;
    uint32_t n = 0;
    if (s->reference) {
        for (uint32_t t = 0; t < e->nt; t++)
            if (enabled(e, s->m, t))
                s->E[n++] = t;
        return n;
    }
    uint32_t *E = s->E;
    const uint64_t *bits = s->bits, *blocked = s->blocked;
    for (size_t w = 0, nw = s->nwords; w < nw; w++) {
        uint64_t b = bits[w] & ~blocked[w];
        uint32_t base = (uint32_t)(w * 64);
        while (b) {
            E[n++] = base + (uint32_t)__builtin_ctzll(b);
            b &= b - 1;
        }
    }
    return n;
}

/* ---- the firing rule, one transition at a time --------------------------
 * The one copy of the step rule: pn_sim_step(), pn_sim_fire() and the
 * state-space explorer all go through these. */

int pni_engine_enabled(const pn_engine_t *e, const uint64_t *m, uint32_t t)
{
    return enabled(e, m, t);
}

/* Whether t still fits the budget b (normal inputs, and room in capacity
 * places given what the step already promised them, pend). */
static inline int fits(const pn_engine_t *e, const uint64_t *b,
                       const uint64_t *pend, uint32_t t)
{
    for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
        if (b[e->in.idx[j]] < e->in.w[j])
            return 0;
    if (e->has_cap)
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++) {
            uint32_t p = e->out.idx[j];
            if (e->cap[p] &&
                sat_add(sat_add(b[p] - e->out_self[j], pend[p]),
                        e->out.w[j]) > e->cap[p])
                return 0;
        }
    return 1;
}

int pni_engine_fits(const pn_engine_t *e, const uint64_t *b,
                    const uint64_t *pend, uint32_t t)
{
    return fits(e, b, pend, t);
}

static inline void take(const pn_engine_t *e, uint64_t *b, uint64_t *pend,
                        uint32_t t)
{
    if (e->has_cap)
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
            if (e->cap[e->out.idx[j]])
                pend[e->out.idx[j]] += e->out.w[j];
    for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
        b[e->in.idx[j]] -= e->in.w[j];
    for (uint32_t j = e->rs.off[t]; j < e->rs.off[t + 1]; j++)
        b[e->rs.idx[j]] = 0;
}

static inline int give(const pn_engine_t *e, uint64_t *m, uint32_t t)
{
    for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++) {
        uint32_t p = e->out.idx[j];
        if (e->out.w[j] > PN_TOKENS_MAX || m[p] > PN_TOKENS_MAX - e->out.w[j])
            return (int)p + 1;
        m[p] += e->out.w[j];
    }
    return 0;
}

void pni_engine_take(const pn_engine_t *e, uint64_t *b, uint64_t *pend,
                     uint32_t t)
{
    take(e, b, pend, t);
}

int pni_engine_give(const pn_engine_t *e, uint64_t *m, uint32_t t)
{
    return give(e, m, t);
}

int pni_engine_has_capacity(const pn_engine_t *e) { return e->has_cap; }

void pni_engine_competing(const pn_engine_t *e, const uint32_t *en, size_t ne,
                          uint32_t *use, unsigned char *competes)
{
    /* use[p]: enabled transitions that take from p (normal input, reset)
     * or put into p when p has a capacity */
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = en[k];
        for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
            use[e->in.idx[j]]++;
        for (uint32_t j = e->rs.off[t]; j < e->rs.off[t + 1]; j++)
            use[e->rs.idx[j]]++;
        if (e->has_cap)
            for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
                if (e->cap[e->out.idx[j]])
                    use[e->out.idx[j]]++;
    }
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = en[k];
        int c = 0;
        for (uint32_t j = e->in.off[t]; !c && j < e->in.off[t + 1]; j++)
            c = use[e->in.idx[j]] > 1;
        for (uint32_t j = e->rs.off[t]; !c && j < e->rs.off[t + 1]; j++)
            c = use[e->rs.idx[j]] > 1;
        for (uint32_t j = e->out.off[t];
             e->has_cap && !c && j < e->out.off[t + 1]; j++)
            c = e->cap[e->out.idx[j]] && use[e->out.idx[j]] > 1;
        competes[k] = (unsigned char)c;
    }
    /* leave use[] zeroed for the next call */
    for (size_t k = 0; k < ne; k++) {
        uint32_t t = en[k];
        for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
            use[e->in.idx[j]] = 0;
        for (uint32_t j = e->rs.off[t]; j < e->rs.off[t + 1]; j++)
            use[e->rs.idx[j]] = 0;
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
            use[e->out.idx[j]] = 0;
    }
}

/* Walks order[0..n) with the budget B = M: a transition fires when its
 * normal inputs are still within B and its capacity outputs still fit
 * (inhibitor and read arcs were tested on M when the set was built).
 * strict (replay): a transition that does not fit stops the walk, and its
 * position is returned; else it is skipped.  Returns n when the walk is
 * done.  The marking is only committed by finish_step(). */
static uint32_t walk(pn_sim_t *s, const uint32_t *order, uint32_t n,
                     int strict)
{
    const pn_engine_t *e = s->e;
    uint64_t *m = s->m; /* the budget B while walking */
    s->stamp++;
    s->nchanged = 0;
    s->nfired = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = order[i];
        /* an earlier transition took its tokens, or the room left in a
         * capacity place */
        if (!fits(e, m, s->pend, t)) {
            if (strict)
                return i;
            continue;
        }
        for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
            touch(s, e->in.idx[j]);
        for (uint32_t j = e->rs.off[t]; j < e->rs.off[t + 1]; j++)
            touch(s, e->rs.idx[j]);
        take(e, m, s->pend, t);
        s->fired[s->nfired++] = t;
    }
    return n;
}

/* Takes back a walk that was stopped: the marking before the step. */
static void undo_walk(pn_sim_t *s)
{
    for (uint32_t i = 0; i < s->nchanged; i++) {
        uint32_t p = s->changed[i];
        s->m[p] = s->old[p];
    }
    if (s->e->has_cap)
        memset(s->pend, 0, s->e->np * sizeof *s->pend);
    s->nfired = 0;
    s->nchanged = 0;
}

/* Adds the outputs of the fired transitions (visible from the next step),
 * counts the step and updates the enabled set. */
static pn_status_t finish_step(pn_sim_t *s, pn_end_t *end)
{
    const pn_engine_t *e = s->e;
    uint64_t *m = s->m;
    for (uint32_t i = 0; i < s->nfired; i++) {
        uint32_t t = s->fired[i];
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
            touch(s, e->out.idx[j]);
        int over = give(e, m, t);
        if (over) {
            s->overflow_place = (size_t)over - 1;
            *end = PN_END_OVERFLOW;
            return PN_ERANGE;
        }
        s->counts[t]++;
    }
    if (e->has_cap)
        for (uint32_t i = 0; i < s->nchanged; i++)
            s->pend[s->changed[i]] = 0;
    s->firings += s->nfired;
    s->steps++;
    if (!s->reference)
        for (uint32_t i = 0; i < s->nchanged; i++) {
            uint32_t p = s->changed[i];
            place_changed(s, p, s->old[p], m[p]);
        }
    return PN_OK;
}

pn_status_t pn_sim_step(pn_sim_t *s, pn_end_t *end)
{
    *end = PN_END_NONE;
    s->nfired = 0;
    uint32_t n = collect(s);
    if (n == 0) {
        *end = PN_END_DEAD;
        return PN_OK;
    }
    if (s->sem == PN_SEM_INTERLEAVING) {
        s->E[0] = s->E[pni_rng_below(&s->rng, n)];
        n = 1;
    } else {
        /* Fisher-Yates from the top; the stream in a local, which stays
         * in registers (through s, every store to E would reload it) */
        pni_rng_t rng = s->rng;
        uint32_t *E = s->E;
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = pni_rng_below(&rng, i);
            uint32_t tmp = E[i - 1];
            E[i - 1] = E[j];
            E[j] = tmp;
        }
        s->rng = rng;
    }
    walk(s, s->E, n, 0);
    return finish_step(s, end);
}

pn_status_t pn_sim_fire(pn_sim_t *s, const uint32_t *step, size_t n,
                        size_t *bad)
{
    const pn_engine_t *e = s->e;
    pn_end_t end = PN_END_NONE;
    if (bad)
        *bad = 0;
    if (!step && n)
        return PN_EINVAL;
    if (s->sem == PN_SEM_INTERLEAVING && n > 1) {
        if (bad)
            *bad = 1;
        return PN_EINVAL;
    }
    /* every transition once, and enabled at M (all its arc kinds and
     * capacities), before anything is taken */
    s->tstamp_now++;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = step[i];
        if (t >= e->nt || s->tstamp[t] == s->tstamp_now ||
            !enabled(e, s->m, t)) {
            if (bad)
                *bad = i;
            return PN_EINVAL;
        }
        s->tstamp[t] = s->tstamp_now;
    }
    uint32_t stop = walk(s, step, (uint32_t)n, 1);
    if (stop < n) {
        undo_walk(s);
        if (bad)
            *bad = stop;
        return PN_EINVAL;
    }
    return finish_step(s, &end);
}

pn_end_t pn_sim_run(pn_sim_t *s, uint64_t max_steps)
{
    pn_end_t end = PN_END_NONE;
    while (end == PN_END_NONE) {
        if (s->steps >= max_steps) {
            /* the limit is only reached if something is still enabled */
            if (collect(s) == 0)
                return PN_END_DEAD;
            return PN_END_LIMIT;
        }
        pn_sim_step(s, &end);
    }
    return end;
}

uint64_t pn_sim_steps(const pn_sim_t *s) { return s->steps; }
uint64_t pn_sim_firings(const pn_sim_t *s) { return s->firings; }
const uint64_t *pn_sim_marking(const pn_sim_t *s) { return s->m; }
const uint64_t *pn_sim_counts(const pn_sim_t *s) { return s->counts; }
const uint32_t *pn_sim_fired(const pn_sim_t *s, size_t *n)
{
    if (n)
        *n = s->nfired;
    return s->fired;
}
size_t pn_sim_overflow_place(const pn_sim_t *s) { return s->overflow_place; }

/* ---- statistics -------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Two-sided 95% quantile of Student's t with df degrees of freedom. */
static double t95(size_t df)
{
    static const double table[] = {
        0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
        2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
        2.042};
    if (df < sizeof table / sizeof *table)
        return table[df];
    if (df <= 40)
        return 2.021;
    if (df <= 60)
        return 2.000;
    if (df <= 120)
        return 1.980;
    return 1.960;
}

pn_status_t pn_stats_compute(const double *v, size_t n, pn_stats_t *out)
{
    if (!out || (!v && n))
        return PN_EINVAL;
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 0)
        return PN_OK;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return PN_ENOMEM;
    memcpy(sorted, v, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    out->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - out->mean) * (v[i] - out->mean);
    out->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = n % 2 ? sorted[n / 2]
                        : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double half = n > 1 ? t95(n - 1) * out->sd / sqrt((double)n) : 0;
    out->ci_low = out->mean - half;
    out->ci_high = out->mean + half;
    free(sorted);
    return PN_OK;
}
