/*
 * The step engine: a net compiled into flat arrays, an enabled set kept
 * incrementally, and a reference mode that recomputes it every step.
 * Incremental: enabledness is a set of threshold conditions on single
 * places ("m(p) >= w" for normal inputs and read arcs, "m(p) < w" for
 * inhibitors and the room in capacity places), counted per transition.
 * A change of a count within the gap between two thresholds of its place
 * costs a comparison; a count that crosses the one threshold of its
 * place (most places) flips that threshold's conditions at once, and one
 * that leaves the gap of a place of a few thresholds flips those it passed
 * at once; any other place whose count leaves its gap in a step is
 * visited once at the end of the step, and only the conditions whose
 * threshold its count passed flip.  Conditions that many transitions share
 * on one place are kept as masks (wide classes).  When keeping the set
 * costs more than computing it (steps that fire much of a big net), the
 * incremental mode computes it from scratch, as the reference mode does,
 * until that changes.  Both modes build the enabled set in transition order
 * and draw the same random numbers, so for one seed they give the same
 * trace.  The net is compiled into the arrays of struct pn_engine
 * (engine_private.h) by compile.c.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "engine_private.h"
#include "compiled.h"

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

/* The step's walk and finish, compiled once keeping the enabled set and
 * once not. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
#include <cpuid.h>
#define HW_POPCNT 1
#endif

/* Whether the processor has the popcnt instruction (the build may not
 * assume it: x86-64 before SSE4.2 lacks it); for popcount64(). */
static int hw_popcnt(void)
{
#if defined(HW_POPCNT)
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_POPCNT);
#else
    return 0;
#endif
}

/* Set bits of x: the popcnt instruction where the build assumes it, or
 * where hw (hw_popcnt(), asked once an engine) says the processor has it;
 * else a few operations (not __builtin_popcountll: a call into the
 * compiler's library).  The same count either way. */
static inline uint32_t popcount64(int hw, uint64_t x)
{
#if defined(__POPCNT__)
    (void)hw;
    return (uint32_t)__builtin_popcountll(x);
#else
#if defined(HW_POPCNT)
    if (hw) {
        uint64_t r;
        __asm__("popcnt %1, %0" : "=r"(r) : "r"(x) : "cc");
        return (uint32_t)r;
    }
#else
    (void)hw;
#endif
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* The most conditions of a place whose changes are followed at once
 * (stepped()) rather than at the end of the step */
#define SMALL_CONDS 8

/* A star is worth its test when it takes at least STAR_GAIN members a step
 * out of the rest, over windows of STAR_WINDOW steps (plan()) */
#define STAR_WINDOW 64
#define STAR_GAIN 4

/* ---- runs -------------------------------------------------------------- */

struct pn_sim {
    const pn_engine_t *e;
    pni_rng_t rng;
    pn_semantics_t sem;
    int reference;
    uint64_t *m, *counts;
    uint64_t steps, firings;
    uint64_t *bits; /* incremental mode: the transitions whose narrow
                     * conditions all hold */
    size_t nwords;
    uint32_t *E, *fired, *changed;
    uint32_t nfired, nchanged;
    uint64_t *pend;     /* tokens promised to capacity places in a step */
    uint32_t *unsat;    /* per transition: narrow conditions that fail */
    /* per word of the enabled set: the count of failing wide classes of
     * each transition, as e->planes bit planes (plane i of word w at
     * wfail[w * planes + i]), and their union: the transitions a failing
     * wide class blocks.  Enabled: bits & ~blocked. */
    uint64_t *wfail, *blocked;
    /* per place, the thresholds of its narrow conditions around its count:
     * [lo, hi) holds no other; a change within it flips nothing.  A place
     * with wide classes has lo = UINT64_MAX, hi = 0 (every change is looked
     * at).  A place of one threshold and no wide class (crossed()) keeps
     * its conditions here too, conds[cond .. cond + ncond) (else ncond 0),
     * the nge conditions "m >= th" first (conds are sorted by sense after
     * threshold): a change that leaves the gap needs nothing else of the
     * place.  A place of a few thresholds (up to SMALL_CONDS conditions)
     * and no wide class has its nsmall conditions from cond (stepped()). */
    struct gap {
        uint64_t lo, hi;
        uint32_t cond, ncond, nge, nsmall;
    } *gap;
    struct mark {
        uint64_t old, stamp; /* m(p) before the step, if stamp is now */
    } *mark;
    uint64_t stamp;
    uint64_t *tstamp, tstamp_now; /* per transition, for pn_sim_fire() */
    /* The incremental mode computes the enabled set from scratch (scan),
     * as the reference mode does, while keeping it would cost more: over
     * each window of steps, the transitions fired and the conditions they
     * flipped; ratio: 16 times the conditions flipped a transition fired,
     * as last measured. */
    int scan, forced;
    /* the enabled set of the step by position (en); per star, its enabled
     * members (sc) and whether it is clean (scl); a star's words while
     * drawing (sdraw) */
    uint64_t *en, *sdraw;
    uint32_t *rest, nrest; /* collect_en() */
    uint32_t *sc;
    unsigned char *scl;
    /* per star, for the choice of the stars worth their test (plan()):
     * the members it took out of the rest in this window of STAR_WINDOW
     * steps, the steps it is left out for, the windows it was found not
     * worth it in a row; the steps left in the window */
    uint32_t *sgain, *soff, *sstrike, sleft;
    uint32_t window, left, trips;
    uint64_t fired_sum, flips, ratio;
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

/* Whether condition c fails at m. */
static inline uint32_t cond_fails_at(const cond_t *c, uint64_t m)
{
    return (uint32_t)(m < c->th) ^ c->up;
}

/* Transition t's count of failing narrow conditions is now u: its bit
 * follows (without a branch). */
static inline void set_unsat(pn_sim_t *s, uint32_t t, uint32_t u)
{
    s->unsat[t] = u;
    uint64_t mask = UINT64_C(1) << (t & 63), *w = &s->bits[t >> 6];
    *w = (*w & ~mask) | (mask & (0 - (uint64_t)(u == 0)));
}

/* Wide class k now fails: one more failing class for each of its
 * transitions (a carry through the bit planes). */
static void class_fails(pn_sim_t *s, uint32_t k)
{
    const pn_engine_t *e = s->e;
    uint32_t np = e->planes;
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
static void class_holds(pn_sim_t *s, uint32_t k)
{
    const pn_engine_t *e = s->e;
    uint32_t np = e->planes;
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

static void set_gap(pn_sim_t *s, uint32_t p, uint64_t v);

/* The incremental state from the marking alone. */
static void rebuild(pn_sim_t *s)
{
    const pn_engine_t *e = s->e;
    memset(s->bits, 0, s->nwords * sizeof *s->bits);
    memset(s->blocked, 0, s->nwords * sizeof *s->blocked);
    memset(s->wfail, 0, s->nwords * e->planes * sizeof *s->wfail);
    for (uint32_t t = 0; t < e->nt; t++)
        s->unsat[t] = e->never[t];
    for (uint32_t p = 0; p < e->np; p++) {
        const pinfo_t *pi = &e->pinfo[p];
        for (uint32_t j = pi->cond; j < pi->cond + pi->ncond; j++)
            s->unsat[e->conds[j].t] += cond_fails_at(&e->conds[j], s->m[p]);
        for (uint32_t j = pi->wide; j < pi->wide + pi->nwide; j++)
            if (cond_fails_at(&e->wconds[j], s->m[p]))
                class_fails(s, e->wconds[j].t);
        set_gap(s, p, s->m[p]);
    }
    for (uint32_t t = 0; t < e->nt; t++)
        if (s->unsat[t] == 0)
            s->bits[t >> 6] |= UINT64_C(1) << (t & 63);
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
    free(s->mark);
    free(s->tstamp);
    free(s->unsat);
    free(s->wfail);
    free(s->blocked);
    free(s->gap);
    free(s->en);
    free(s->rest);
    free(s->sdraw);
    free(s->sc);
    free(s->scl);
    free(s->sgain);
    free(s->soff);
    free(s->sstrike);
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
    s->bits = calloc(s->nwords + 4, sizeof *s->bits);
    s->E = malloc((nt + 2) * sizeof *s->E);
    s->fired = malloc((nt + 1) * sizeof *s->fired);
    s->changed = malloc((np + 1) * sizeof *s->changed);
    s->pend = calloc(np + 1, sizeof *s->pend);
    s->mark = calloc(np + 1, sizeof *s->mark);
    s->tstamp = calloc(nt + 1, sizeof *s->tstamp);
    s->unsat = calloc(nt + 1, sizeof *s->unsat);
    s->wfail = calloc(s->nwords * e->planes + 1, sizeof *s->wfail);
    s->blocked = calloc(s->nwords + 4, sizeof *s->blocked);
    s->gap = calloc(np + 1, sizeof *s->gap);
    s->en = calloc(s->nwords + 4, sizeof *s->en);
    s->rest = malloc((nt + 2) * sizeof *s->rest);
    s->sdraw = calloc((size_t)e->swords_max + 1, sizeof *s->sdraw);
    s->sc = calloc((size_t)e->nstar + 1, sizeof *s->sc);
    s->scl = calloc((size_t)e->nstar + 1, sizeof *s->scl);
    s->sgain = calloc((size_t)e->nstar + 1, sizeof *s->sgain);
    s->soff = calloc((size_t)e->nstar + 1, sizeof *s->soff);
    s->sstrike = calloc((size_t)e->nstar + 1, sizeof *s->sstrike);
    s->sleft = STAR_WINDOW;
    if (!s->m || !s->counts || !s->bits || !s->E || !s->fired ||
        !s->changed || !s->pend || !s->mark || !s->tstamp ||
        !s->unsat || !s->wfail || !s->blocked || !s->gap || !s->en || !s->rest ||
        !s->sdraw || !s->sc || !s->scl || !s->sgain || !s->soff ||
        !s->sstrike) {
        pn_sim_free(s);
        return NULL;
    }
    memcpy(s->m, e->m0, np * sizeof *s->m);
    s->m[np] = 0; /* the place (np, 0) of the transition records */
    if (!reference)
        rebuild(s);
    s->window = s->left = 64;
    s->overflow_place = PN_NONE;
    return s;
}

/* First index in [a, b) whose threshold is above v. */
static inline uint32_t above(const cond_t *c, uint32_t a, uint32_t b,
                             uint64_t v)
{
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (c[mid].th <= v)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

/* m(p) went from a to b: the wide classes of p whose threshold lies in
 * (lo, hi] flip. */
static void wide_changed(pn_sim_t *s, uint32_t p, uint64_t a, uint64_t b)
{
    const pn_engine_t *e = s->e;
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    const pinfo_t *pi = &e->pinfo[p];
    for (uint32_t j = pi->wide; j < pi->wide + pi->nwide; j++) {
        const cond_t *c = &e->wconds[j];
        if (c->th > lo && c->th <= hi) {
            if (cond_fails_at(c, b))
                class_fails(s, c->t);
            else
                class_holds(s, c->t);
        }
    }
}

/* Remembers m(p) = a before the step changes it (the first time). */
static inline void touch(pn_sim_t *s, uint32_t p, uint64_t a)
{
    if (s->mark[p].stamp != s->stamp) {
        s->mark[p].stamp = s->stamp;
        s->mark[p].old = a;
        s->changed[s->nchanged++] = p;
    }
}

/* The gap of p around v. */
static void set_gap(pn_sim_t *s, uint32_t p, uint64_t v)
{
    const pn_engine_t *e = s->e;
    const pinfo_t *pi = &e->pinfo[p];
    struct gap *g = &s->gap[p];
    uint32_t a = pi->cond, b = a + pi->ncond, j = above(e->conds, a, b, v);
    g->lo = j > a ? e->conds[j - 1].th : 0;
    g->hi = j < b ? e->conds[j].th : UINT64_MAX;
    g->cond = pi->cond;
    g->ncond = pi->min_th == pi->max_th && !pi->nwide ? pi->ncond : 0;
    g->nge = 0;
    while (g->nge < g->ncond && !e->conds[g->cond + g->nge].up)
        g->nge++;
    g->nsmall = !g->ncond && !pi->nwide && pi->ncond <= SMALL_CONDS
                    ? pi->ncond
                    : 0;
    if (pi->nwide) {
        g->lo = UINT64_MAX;
        g->hi = 0;
    }
}

/* m(p) went from a to b: the conditions on p whose threshold lies in
 * (min(a, b), max(a, b)] flip, and the gap of p moves around b. */
static void place_changed(pn_sim_t *s, uint32_t p, uint64_t a, uint64_t b)
{
    const pn_engine_t *e = s->e;
    const pinfo_t *pi = &e->pinfo[p];
    struct gap *g = &s->gap[p];
    uint32_t j = pi->cond, end = j + pi->ncond;
    uint64_t th = pi->min_th;
    if (th == pi->max_th) {
        /* one threshold: all its conditions flip, or none */
        uint32_t x = b < th;
        if (x != (a < th))
            for (s->flips += end - j; j < end; j++) {
                const cond_t *c = &e->conds[j];
                set_unsat(s, c->t, s->unsat[c->t] + 2 * (x ^ c->up) - 1);
            }
        g->lo = x ? 0 : th;
        g->hi = x ? th : UINT64_MAX;
    } else if (j < end) {
        if (end - j > 8) {
            j = above(e->conds, j, end, a < b ? a : b);
            end = above(e->conds, j, end, a < b ? b : a);
        }
        /* a condition outside (lo, hi] adds 0 */
        for (s->flips += end - j; j < end; j++) {
            const cond_t *c = &e->conds[j];
            set_unsat(s, c->t,
                      s->unsat[c->t] + cond_fails_at(c, b) -
                          cond_fails_at(c, a));
        }
        set_gap(s, p, b);
    }
    if (pi->nwide) {
        wide_changed(s, p, a, b);
        g->lo = UINT64_MAX;
        g->hi = 0;
    }
}

/* The conditions of transitions ct[a .. b) now fail: one more failing
 * condition each, none of them enabled. */
static ALWAYS_INLINE void conds_fail(pn_sim_t *s, const uint32_t *ct,
                                     uint32_t a, uint32_t b)
{
    uint32_t *unsat = s->unsat;
    uint64_t *bits = s->bits;
    for (uint32_t j = a; j < b; j++) {
        uint32_t t = ct[j];
        unsat[t]++;
        bits[t >> 6] &= ~(UINT64_C(1) << (t & 63));
    }
}

/* The conditions of transitions ct[a .. b) now hold: one failing condition
 * fewer each, enabled at none left. */
static ALWAYS_INLINE void conds_hold(pn_sim_t *s, const uint32_t *ct,
                                     uint32_t a, uint32_t b)
{
    uint32_t *unsat = s->unsat;
    uint64_t *bits = s->bits;
    for (uint32_t j = a; j < b; j++) {
        uint32_t t = ct[j], u = --unsat[t];
        bits[t >> 6] |= (uint64_t)(u == 0) << (t & 63);
    }
}

/* The count of p, a place of one threshold th and no wide class, crossed
 * th, downwards (down: it is below th now; its conditions "m >= th" fail,
 * "m < th" hold) or upwards: all its conditions flip, its gap moves to the
 * other side. */
static ALWAYS_INLINE void crossed(pn_sim_t *s, struct gap *g, int down)
{
    uint64_t th = down ? g->lo : g->hi;
    uint32_t a = g->cond, mid = a + g->nge, b = a + g->ncond;
    const uint32_t *ct = s->e->ct;
    s->flips += g->ncond;
    if (down) {
        conds_fail(s, ct, a, mid);
        conds_hold(s, ct, mid, b);
    } else {
        conds_hold(s, ct, a, mid);
        conds_fail(s, ct, mid, b);
    }
    g->lo = down ? 0 : th;
    g->hi = down ? th : UINT64_MAX;
}

/* m(p) of a place of a few thresholds (nsmall > 0) went from a to b, out
 * of its gap: the conditions whose threshold lies between flip, and the
 * gap moves around b, in one pass over the place's conditions. */
static void stepped(pn_sim_t *s, struct gap *g, uint64_t a, uint64_t b)
{
    const cond_t *c = s->e->conds + g->cond;
    uint32_t *unsat = s->unsat;
    uint64_t *bits = s->bits;
    uint64_t lo = 0, hi = UINT64_MAX;
    for (uint32_t j = 0, n = g->nsmall; j < n; j++) {
        uint64_t th = c[j].th;
        uint32_t xa = a < th, xb = b < th;
        if (xa != xb) {
            /* the threshold lies between: "m >= th" fails below it, "m <
             * th" (up) holds */
            uint32_t t = c[j].t;
            uint64_t mask = UINT64_C(1) << (t & 63);
            s->flips++;
            if (xb ^ c[j].up) {
                unsat[t]++;
                bits[t >> 6] &= ~mask;
            } else if (--unsat[t] == 0) {
                bits[t >> 6] |= mask;
            }
        }
        if (!xb)
            lo = th;
        else if (th < hi)
            hi = th;
    }
    g->lo = lo;
    g->hi = hi;
}

/* m(p) goes from a to b in a step of the incremental mode, down (b <= a)
 * or up (b >= a).  A change within the gap of p flips nothing; starting
 * within it, a change down can only leave it below, one up only above.
 * One that leaves it, of a place of one threshold and no wide class (most
 * places), flips its conditions at once, as one of a place of at most
 * SMALL_CONDS conditions and no wide class flips those whose threshold it
 * passed (stepped()): the counts of failing conditions follow every
 * change, so a count that goes down and up again in a step flips them
 * twice, and they are right.  Any other place is marked by the
 * first change of the step that leaves its gap (any change of a place
 * with wide classes): its conditions follow at the end of the step, from
 * a to its count then (a place with wide classes, in particular, is taken
 * from and given back to by many transitions in a step).  A marked place
 * may be out of its gap until then: it is marked already. */
static ALWAYS_INLINE void moved_dir(pn_sim_t *s, uint32_t p, uint64_t a,
                                    uint64_t b, int down)
{
    struct gap *g = &s->gap[p];
    if (down ? b < g->lo : b >= g->hi) {
        if (g->ncond)
            crossed(s, g, down);
        else if (g->nsmall)
            stepped(s, g, a, b);
        else
            touch(s, p, a);
    }
}

static ALWAYS_INLINE void moved_down(pn_sim_t *s, uint32_t p, uint64_t a,
                                     uint64_t b)
{
    moved_dir(s, p, a, b, 1);
}

static ALWAYS_INLINE void moved_up(pn_sim_t *s, uint32_t p, uint64_t a,
                                   uint64_t b)
{
    moved_dir(s, p, a, b, 0);
}

/* Appends the positions of x, a word of the enabled set whose first
 * position is base, to E from n on; returns the new length.  A word holds
 * few: the first two are written whatever its count (E has room for two
 * more than the transitions; what lies past the new length is nothing), so
 * that the count decides no branch unless it is above two. */
static ALWAYS_INLINE uint32_t extract_word(uint64_t x, uint32_t base,
                                           uint32_t *E, uint32_t n)
{
    const uint64_t top = UINT64_C(1) << 63;
    uint64_t x1 = x & (x - 1), x2 = x1 & (x1 - 1);
    E[n] = base + (uint32_t)__builtin_ctzll(x | top);
    E[n + 1] = base + (uint32_t)__builtin_ctzll(x1 | top);
    n += (x != 0) + (x1 != 0);
    for (; x2; x2 &= x2 - 1)
        E[n++] = base + (uint32_t)__builtin_ctzll(x2);
    return n;
}

/* The enabled set of the step by position, in s->en, and its positions
 * past the stars' members, in position order, in s->rest (s->nrest of
 * them: plan() takes them as they are); returns whether the set is not
 * empty. */
static int collect_en(pn_sim_t *s)
{
    const pn_engine_t *e = s->e;
    uint64_t *en = s->en, any = 0;
    size_t nw = s->nwords;
    uint32_t sb = e->sa[e->nstar], bw = sb >> 6, nr = 0, *rest = s->rest;
    if (s->reference || s->scan) {
        memset(en, 0, nw * sizeof *en);
        for (uint32_t t = 0; t < e->nt; t++)
            if (enabled(e, s->m, t)) {
                uint32_t i = e->pos[t];
                en[i >> 6] |= UINT64_C(1) << (i & 63);
                any = 1;
            }
        for (size_t w = bw; w < nw; w++)
            nr = extract_word(en[w] & (w == bw ? ~UINT64_C(0) << (sb & 63)
                                                : ~UINT64_C(0)),
                              (uint32_t)w * 64, rest, nr);
        s->nrest = nr;
        return any != 0;
    }
    const uint64_t *bits = s->bits, *blocked = s->blocked;
    size_t w = 0;
    for (; w < bw; w++) {
        en[w] = bits[w] & ~blocked[w];
        any |= en[w];
    }
    if (w < nw) {
        /* the word where the stars' members end */
        uint64_t x = bits[w] & ~blocked[w];
        en[w] = x;
        any |= x;
        nr = extract_word(x & ~UINT64_C(0) << (sb & 63), (uint32_t)w * 64,
                          rest, nr);
        w++;
    }
    for (; w < nw; w++) {
        uint64_t x = bits[w] & ~blocked[w];
        en[w] = x;
        any |= x;
        nr = extract_word(x, (uint32_t)w * 64, rest, nr);
    }
    s->nrest = nr;
    return any != 0;
}

/* Appends the transitions of the words a & ~blk (blk: NULL for none) to E
 * from n on, in position order (tat: NULL for the identity); returns the
 * new length.  Four words at a time (the arrays are padded with zero
 * words): a big net has many words without an enabled transition. */
static ALWAYS_INLINE uint32_t extract_words(const uint64_t *a,
                                            const uint64_t *blk, size_t nw,
                                            const uint32_t *tat, uint32_t *E,
                                            uint32_t n)
{
    for (size_t w = 0; w < nw; w += 4) {
        uint64_t b[4];
        for (int k = 0; k < 4; k++)
            b[k] = a[w + k] & (blk ? ~blk[w + k] : ~UINT64_C(0));
        if (!(b[0] | b[1] | b[2] | b[3]))
            continue;
        for (int k = 0; k < 4; k++) {
            uint32_t base = (uint32_t)((w + k) * 64);
            while (b[k]) {
                uint32_t i = base + (uint32_t)__builtin_ctzll(b[k]);
                E[n++] = tat ? tat[i] : i;
                b[k] &= b[k] - 1;
            }
        }
    }
    return n;
}

/* Appends the positions of en to E from n on: those of the stars' members
 * left in en, then s->rest (collect_en()). */
static uint32_t extract(const pn_sim_t *s, uint32_t *E, uint32_t n)
{
    uint32_t sb = s->e->sa[s->e->nstar];
    for (uint32_t w = 0; w < (sb + 63) >> 6; w++)
        n = extract_word(s->en[w] & (w == sb >> 6
                                         ? ~(~UINT64_C(0) << (sb & 63))
                                         : ~UINT64_C(0)),
                         w * 64, E, n);
    memcpy(E + n, s->rest, s->nrest * sizeof *E);
    return n + s->nrest;
}

/* The enabled set of the incremental mode straight from its bits, as
 * positions (tat: NULL) or transitions (tat: e->tat), in position order. */
static uint32_t extract_kept(const pn_sim_t *s, uint32_t *E,
                             const uint32_t *tat)
{
    if (tat && !s->e->identity)
        return extract_words(s->bits, s->blocked, s->nwords, tat, E, 0);
    return extract_words(s->bits, s->blocked, s->nwords, NULL, E, 0);
}

/* Collects the enabled set in transition order. */
static uint32_t collect(pn_sim_t *s)
{
    const pn_engine_t *e = s->e;
    uint32_t n = 0, *E = s->E;
    if (s->reference || s->scan) {
        for (uint32_t t = 0; t < e->nt; t++)
            if (enabled(e, s->m, t))
                E[n++] = t;
        return n;
    }
    n = extract_kept(s, E, e->tat);
    if (!e->identity)
        qsort(E, n, sizeof *E, cmp_u32);
    return n;
}

/* ---- the firing rule, one transition at a time --------------------------
 * The one copy of the step rule: pn_sim_step(), pn_sim_fire() and the
 * state-space explorer all go through these. */

int pni_engine_enabled(const pn_engine_t *e, const uint64_t *m, uint32_t t)
{
    return enabled(e, m, t);
}

/* Whether t still fits the budget b (normal inputs in.idx[in.off[t] ..
 * in_end), and room in capacity places given what the step already
 * promised them, pend). */
static inline int fits_upto(const pn_engine_t *e, const uint64_t *b,
                            const uint64_t *pend, uint32_t t, uint32_t in_end)
{
    for (uint32_t j = e->in.off[t]; j < in_end; j++)
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

/* Whether t still fits the budget b (all its normal inputs). */
static inline int fits(const pn_engine_t *e, const uint64_t *b,
                       const uint64_t *pend, uint32_t t)
{
    return fits_upto(e, b, pend, t, e->in.off[t + 1]);
}

int pni_engine_fits(const pn_engine_t *e, const uint64_t *b,
                    const uint64_t *pend, uint32_t t)
{
    return fits(e, b, pend, t);
}

/* Takes t's normal inputs from b, empties its reset places, promises its
 * capacity outputs in pend; with s, the conditions follow each change. */
static inline void take_tracked(const pn_engine_t *e, uint64_t *b,
                                uint64_t *pend, uint32_t t, pn_sim_t *s)
{
    if (e->has_cap)
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
            if (e->cap[e->out.idx[j]])
                pend[e->out.idx[j]] += e->out.w[j];
    for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++) {
        uint32_t p = e->in.idx[j];
        uint64_t a = b[p];
        b[p] = a - e->in.w[j];
        if (s)
            moved_down(s, p, a, b[p]);
    }
    for (uint32_t j = e->rs.off[t]; j < e->rs.off[t + 1]; j++) {
        uint32_t p = e->rs.idx[j];
        uint64_t a = b[p];
        b[p] = 0;
        if (s)
            moved_down(s, p, a, 0);
    }
}

/* Adds t's outputs to m (the conditions following each change, with s);
 * returns 0, or 1 + the place whose count would pass PN_TOKENS_MAX (the
 * outputs before it are added). */
static inline int give_tracked(const pn_engine_t *e, uint64_t *m, uint32_t t,
                               pn_sim_t *s)
{
    for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++) {
        uint32_t p = e->out.idx[j];
        uint64_t a = m[p];
        if (e->out.w[j] > PN_TOKENS_MAX || a > PN_TOKENS_MAX - e->out.w[j])
            return (int)p + 1;
        m[p] = a + e->out.w[j];
        if (s)
            moved_up(s, p, a, m[p]);
    }
    return 0;
}

void pni_engine_take(const pn_engine_t *e, uint64_t *b, uint64_t *pend,
                     uint32_t t)
{
    take_tracked(e, b, pend, t, NULL);
}

int pni_engine_give(const pn_engine_t *e, uint64_t *m, uint32_t t)
{
    return give_tracked(e, m, t, NULL);
}

int pni_engine_has_capacity(const pn_engine_t *e) { return e->has_cap; }

size_t pni_engine_stars(const pn_engine_t *e) { return e->nstar; }

int pni_engine_set_popcnt(pn_engine_t *e, int on)
{
    e->popcnt = on && hw_popcnt();
    return e->popcnt;
}

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

/* ---- steps ---------------------------------------------------------------
 * A step walks the shuffled enabled set with the budget B = M: a
 * transition fires when its normal inputs are still within B and its
 * capacity outputs still fit (inhibitor and read arcs were tested on M when
 * the set was built), and takes them from B; the outputs are added after
 * the walk.  Every transition walked is enabled at M, so of its normal
 * inputs only the places another transition also takes from can have run
 * short: the incremental mode tests only those. */

/* The walk of pn_sim_step() in the incremental mode: the enabled set
 * follows every change of the marking as it is made (a change of m(p) from
 * a to b to c passes the same thresholds as one from a to c). */
static ALWAYS_INLINE void walk_tracked(pn_sim_t *s, const uint32_t *order,
                                       uint32_t n, int track)
{
    const pn_engine_t *e = s->e;
    uint64_t *m = s->m; /* the budget B while walking */
    uint32_t nf = 0, *fired = s->fired;
    s->stamp++;
    s->nchanged = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = order[i], t;
        const wrec_t *r = &e->wr[at];
        if (r->nin != SLOW) {
            /* an earlier transition took its tokens */
            if (m[r->p1] < r->w1)
                continue;
            const farc_t *f = e->farc + r->arc;
            uint32_t ns = r->ns, j = 1;
            while (j < ns && m[f[j].p] >= f[j].w)
                j++;
            if (j < ns)
                continue;
            for (uint32_t k = 0; k < r->nin; k++) {
                uint64_t a = m[f[k].p];
                m[f[k].p] = a - f[k].w;
                if (track)
                    moved_down(s, f[k].p, a, a - f[k].w);
            }
            t = r->t;
        } else {
            /* or the room left in a capacity place */
            t = e->tat[at];
            if (!fits_upto(e, m, s->pend, t, e->in_shared[t]))
                continue;
            take_tracked(e, m, s->pend, t, track ? s : NULL);
        }
        fired[nf++] = t;
    }
    s->nfired = nf;
}

/* The outputs of t the general way, one by one (give_tracked()): a slow
 * transition, or one whose outputs the fast way added though one of its
 * places was at 2^62 or more (taken back first).  Returns 0, or 1 + the
 * place that would pass PN_TOKENS_MAX.  Out of line: the loop of
 * finish_tracked() keeps fewer values live across its own. */
static __attribute__((noinline)) int finish_slow(pn_sim_t *s, uint32_t t,
                                                 int track)
{
    const pn_engine_t *e = s->e;
    const trec_t *r = &e->tr[t];
    uint64_t *m = s->m;
    if (r->nin != SLOW) {
        const farc_t *f = e->farc + r->arc + r->nin;
        for (uint32_t k = r->nout; k-- > 0;) {
            uint64_t b = m[f[k].p];
            m[f[k].p] = b - f[k].w;
            if (track)
                moved_down(s, f[k].p, b, b - f[k].w);
        }
    }
    int over = give_tracked(e, m, t, track ? s : NULL);
    if (e->has_cap)
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
            s->pend[e->out.idx[j]] = 0;
    return over;
}

/* Adds the outputs of the fired transitions (visible from the next step),
 * the enabled set following (track); counts the step. */
static ALWAYS_INLINE pn_status_t finish_tracked(pn_sim_t *s, pn_end_t *end,
                                                int track)
{
    const pn_engine_t *e = s->e;
    uint64_t *m = s->m;
    const uint32_t *fired = s->fired;
    uint64_t *counts = s->counts;
    for (uint32_t i = 0, nf = s->nfired; i < nf; i++) {
        uint32_t t = fired[i];
        const trec_t *r = &e->tr[t];
        if (r->nin != SLOW) {
            const farc_t *f = e->farc + r->arc + r->nin;
            uint64_t any = 0;
            for (uint32_t k = 0, n = r->nout; k < n; k++) {
                uint64_t a = m[f[k].p];
                any |= a;
                m[f[k].p] = a + f[k].w;
                if (track)
                    moved_up(s, f[k].p, a, a + f[k].w);
            }
            /* below 2^62, adding less than 2^32 cannot pass 2^63 - 1 */
            if (any < UINT64_C(1) << 62) {
                counts[t]++;
                continue;
            }
        }
        int over = finish_slow(s, t, track);
        if (over) {
            s->overflow_place = (size_t)over - 1;
            *end = PN_END_OVERFLOW;
            return PN_ERANGE;
        }
        counts[t]++;
    }
    s->firings += s->nfired;
    s->steps++;
    for (uint32_t i = 0; track && i < s->nchanged; i++) {
        uint32_t p = s->changed[i];
        place_changed(s, p, s->mark[p].old, m[p]);
    }
    return PN_OK;
}

/* After a step of the incremental mode: at the end of a window, whether
 * to compute the enabled set from scratch from now on, or to keep it
 * again.  Keeping it costs about a step's transitions and the conditions
 * they flip (measured while keeping it, estimated from the last measure
 * while not); a scan, scan_cost.  A window ends at once after a change,
 * and a mode left too soon comes back with a longer window. */
static void choose_mode(pn_sim_t *s)
{
    s->fired_sum += s->nfired;
    if (--s->left > 0 || s->forced)
        return;
    uint64_t n = s->window, fired = s->fired_sum, work;
    if (!s->scan) {
        work = fired + s->flips;
        s->ratio = 16 * s->flips / (fired + 1);
    } else {
        work = fired + fired * s->ratio / 16;
    }
    s->fired_sum = s->flips = 0;
    uint64_t scan = n * s->e->scan_cost;
    if (!s->scan && 3 * work > scan) {
        s->scan = 1;
    } else if (s->scan && 6 * work < scan) {
        rebuild(s);
        s->scan = 0;
        /* back and forth: longer windows */
        if (s->trips < 8)
            s->trips++;
    }
    s->window = s->left = 64u << s->trips;
}

/* The walk of the reference mode and of pn_sim_fire(): every normal input
 * tested; the places changed are remembered with the value they had.
 * strict (replay): a transition that does not fit stops the walk, and its
 * position is returned; else it is skipped.  Returns n when the walk is
 * done. */
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
        if (!fits(e, m, s->pend, t)) {
            if (strict)
                return i;
            continue;
        }
        for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
            touch(s, e->in.idx[j], m[e->in.idx[j]]);
        for (uint32_t j = e->rs.off[t]; j < e->rs.off[t + 1]; j++)
            touch(s, e->rs.idx[j], m[e->rs.idx[j]]);
        take_tracked(e, m, s->pend, t, NULL);
        s->fired[s->nfired++] = t;
    }
    return n;
}

/* Takes back a walk that was stopped: the marking before the step. */
static void undo_walk(pn_sim_t *s)
{
    for (uint32_t i = 0; i < s->nchanged; i++) {
        uint32_t p = s->changed[i];
        s->m[p] = s->mark[p].old;
    }
    if (s->e->has_cap)
        memset(s->pend, 0, s->e->np * sizeof *s->pend);
    s->nfired = 0;
    s->nchanged = 0;
}

/* finish_tracked() after walk(): the enabled set (incremental mode)
 * follows each place from the value it had before the step. */
static pn_status_t finish_step(pn_sim_t *s, pn_end_t *end)
{
    const pn_engine_t *e = s->e;
    uint64_t *m = s->m;
    for (uint32_t i = 0; i < s->nfired; i++) {
        uint32_t t = s->fired[i];
        for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
            touch(s, e->out.idx[j], m[e->out.idx[j]]);
        int over = give_tracked(e, m, t, NULL);
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
    if (!s->reference && !s->scan)
        for (uint32_t i = 0; i < s->nchanged; i++) {
            uint32_t p = s->changed[i];
            place_changed(s, p, s->mark[p].old, m[p]);
        }
    return PN_OK;
}

/* ---- the order of a step -------------------------------------------------
 * A maximal step of the marking M is defined by a uniform random order of
 * the enabled set E, walked with the budget B = M: a transition fires when
 * its normal inputs are still within B and its capacity outputs still fit
 * (room left given what the step already promised them), and takes its
 * normal inputs from B and empties its reset places in B; outputs are added
 * after the walk.  Inhibitor and read arcs, and enabledness as a whole,
 * are tested on M alone when E is built: nothing a transition does in the
 * walk changes them for a later one.  So a transition walked fails only on
 * a place that an earlier one in the walk took from, emptied or filled up
 * to its capacity: on a place it can compete for (rel).
 *
 * Drawing the whole order costs a random number per enabled transition,
 * and a walk full of unpredictable skips, though in many nets one place
 * (a pool of resources) feeds many enabled transitions of which few fire.
 * plan() draws an order with the same distribution of fired sets:
 *
 * A star k is a place p and its members: the transitions of the fast rule
 * (no reset, no capacity output) whose main place is p, all taking the
 * same weight w from p (build_stars()).  The star is clean in a step when
 * no enabled transition other than its members competes for p, and no
 * other enabled transition competes with an enabled member for any of its
 * other places.  Then the enabled members S compete with nobody outside
 * S, and among themselves only for p: any other input of a member is
 * within B whenever it is walked (it is enabled at M and nobody else in
 * the walk takes from that place), and B(p) falls by w with each member
 * that fires, only through members.  So in a uniform order of E, which of
 * S fire depends only on the relative order of S: the first
 * min(|S|, floor(M(p) / w)) members of it.  And the fate of every other
 * transition (the rest R = E minus the clean stars) depends only on the
 * relative order of R: whoever can take its places or room is in R (a
 * transition of R competing with a member of a clean star would make
 * that star unclean).  The restrictions of a uniform order of E to
 * disjoint parts are independent uniform orders of the parts, so drawing
 * for each part its own uniform order gives exactly the distribution of
 * the fired set of the whole.  For a clean star only the first
 * floor(M(p) / w) of its order matter: they are drawn one at a time, each
 * uniform among the members not yet drawn (a partial Fisher-Yates), or
 * when all fit, all fire and nothing is drawn.  The rest is shuffled whole
 * (Fisher-Yates from the top, the order of the earlier versions) and
 * walked with its tests.  A star that is not clean joins the rest; so may
 * a clean one, in any step, without changing the distribution (the
 * argument above holds for any set of clean stars taken apart): stars
 * that take few members out of the rest are left out for a while
 * (stars_end()), their test costing more than it saves.
 *
 * The enabled set is kept by position, the members of each star in one
 * range, so a star costs a few words and a draw per member that fires,
 * not a random number per enabled member.  Both modes plan each step this
 * way from the same enabled set (same draws: the same run for a seed);
 * tests/test_engine.c compares the distribution of steps with the walk of
 * a whole uniform order.  The order is kept as positions (s->E). */

/* The position of the r-th set bit of x (r < popcount(x)): halving the
 * window six times, the half chosen without a branch. */
static inline uint32_t select_bit(int hw, uint64_t x, uint32_t r)
{
    uint32_t base = 0;
#define HALVE(h)                                                          \
    do {                                                                  \
        uint32_t c_ = popcount64(hw, x & ((UINT64_C(1) << (h)) - 1));     \
        uint32_t up_ = 0 - (uint32_t)(r >= c_); /* the upper half */      \
        r -= c_ & up_;                                                    \
        x >>= (h) & up_;                                                  \
        base += (h) & up_;                                                \
    } while (0)
    HALVE(32);
    HALVE(16);
    HALVE(8);
    HALVE(4);
    HALVE(2);
    HALVE(1);
#undef HALVE
    return base;
}

/* The bits of positions [a, b) in word w. */
static inline uint64_t range_mask(uint32_t w, uint32_t a, uint32_t b)
{
    uint64_t m = ~UINT64_C(0);
    if (a > w * 64)
        m &= ~UINT64_C(0) << (a - w * 64);
    if (b < w * 64 + 64)
        m &= ~(~UINT64_C(0) << (b - w * 64));
    return m;
}

/* Whether the enabled transition u makes star k unclean. */
static int spoils(const pn_engine_t *e, const uint64_t *en, uint32_t k,
                  uint32_t u)
{
    uint32_t p = e->splace[k];
    for (uint32_t r = e->rel_off[u]; r < e->rel_off[u + 1]; r++) {
        uint32_t q = e->rel[r];
        if (q == p) {
            if (e->star_of[u] != k)
                return 1;
            continue;
        }
        for (uint32_t j = e->use_off[q]; j < e->use_off[q + 1]; j++) {
            uint32_t v = e->use[j], i = e->pos[v];
            if (v != u && e->star_of[v] == k &&
                (en[i >> 6] >> (i & 63) & 1))
                return 1;
        }
    }
    return 0;
}

/* At the start of a maximal step: which stars are left out in this step
 * (soff), the stars coming back; returns how many are tested. */
static uint32_t stars_begin(pn_sim_t *s)
{
    uint32_t on = 0;
    for (uint32_t k = 0; k < s->e->nstar; k++) {
        s->scl[k] = 0;
        if (s->soff[k]) {
            s->sc[k] = UINT32_MAX; /* left out */
            /* back at the end of this window, judged after the next */
            if (--s->soff[k] == 0)
                s->sgain[k] = UINT32_MAX;
            continue;
        }
        s->sc[k] = 0;
        on++;
    }
    return on;
}

/* At the end of a maximal step: at the end of a window, the stars that
 * took too few members out of the rest are left out (a star left out is
 * part of the rest: the distribution is the same either way), for a
 * window, then twice as long each time again, up to 2^10 windows.  The
 * same in both modes: it depends on the enabled sets and markings only. */
static void stars_end(pn_sim_t *s)
{
    if (--s->sleft)
        return;
    s->sleft = STAR_WINDOW;
    for (uint32_t k = 0; k < s->e->nstar; k++) {
        if (s->soff[k])
            continue;
        if (s->sgain[k] == UINT32_MAX) {
            s->sgain[k] = 0;
            continue;
        }
        if (s->sgain[k] < STAR_GAIN * STAR_WINDOW) {
            s->soff[k] = STAR_WINDOW << s->sstrike[k];
            s->sstrike[k] += s->sstrike[k] < 10;
        } else {
            s->sstrike[k] = 0;
        }
        s->sgain[k] = 0;
    }
}

/* The order of a maximal step in s->E from the enabled set en; returns its
 * length. */
static uint32_t plan(pn_sim_t *s)
{
    const pn_engine_t *e = s->e;
    uint64_t *en = s->en;
    uint32_t *E = s->E, n = 0, ns = e->nstar;
    int hw = e->popcnt;
    pni_rng_t rng = s->rng;
    /* which stars are clean, on the whole enabled set */
    for (uint32_t k = 0; k < ns; k++) {
        if (s->sc[k] == UINT32_MAX)
            continue;
        uint32_t a = e->sa[k], b = e->sa[k + 1], c = 0;
        for (uint32_t w = a >> 6; w < (b + 63) >> 6; w++)
            c += (uint32_t)popcount64(hw, en[w] & range_mask(w, a, b));
        s->sc[k] = c;
        if (c == 0)
            continue;
        /* most steps, no transition that can spoil it is enabled */
        uint64_t some = 0;
        for (uint32_t j = e->um_off[k]; j < e->um_off[k + 1]; j++)
            some |= en[e->um_word[j]] & e->um_mask[j];
        int clean = 1;
        for (uint32_t j = e->um_off[k]; some && clean && j < e->um_off[k + 1];
             j++) {
            uint64_t x = en[e->um_word[j]] & e->um_mask[j];
            while (x && clean) {
                uint32_t i = e->um_word[j] * 64 + (uint32_t)__builtin_ctzll(x);
                clean = !spoils(e, en, k, e->tat[i]);
                x &= x - 1;
            }
        }
        s->scl[k] = (unsigned char)clean;
        s->sgain[k] += clean ? c : 0;
    }
    /* the clean stars: the members that fire, taken out of en */
    for (uint32_t k = 0; k < ns; k++) {
        if (!s->scl[k])
            continue;
        uint32_t a = e->sa[k], b = e->sa[k + 1], c = s->sc[k];
        uint32_t w0 = a >> 6, w1 = (b + 63) >> 6;
        uint64_t fit = s->m[e->splace[k]] / e->sw[k];
        uint64_t *d = s->sdraw;
        for (uint32_t w = w0; w < w1; w++) {
            uint64_t r = range_mask(w, a, b);
            d[w - w0] = en[w] & r;
            en[w] &= ~r;
        }
        if (fit >= c) {
            for (uint32_t w = w0; w < w1; w++)
                for (uint64_t x = d[w - w0]; x; x &= x - 1)
                    E[n++] = w * 64 + (uint32_t)__builtin_ctzll(x);
            continue;
        }
        for (uint32_t i = 0; i < fit; i++) {
            uint32_t r = (uint32_t)pni_rng_below(&rng, c - i), w = 0, pc;
            while (r >= (pc = (uint32_t)popcount64(hw, d[w]))) {
                r -= pc;
                w++;
            }
            uint32_t bit = select_bit(hw, d[w], r);
            d[w] &= ~(UINT64_C(1) << bit);
            E[n++] = (w0 + w) * 64 + bit;
        }
    }
    /* the rest: a uniform order, walked with its tests */
    uint32_t first = n;
    n = extract(s, E, n);
    uint32_t *R = E + first;
    for (uint64_t i = n - first; i > 1; i--) {
        uint64_t j = pni_rng_below(&rng, i);
        uint32_t tmp = R[i - 1];
        R[i - 1] = R[j];
        R[j] = tmp;
    }
    s->rng = rng;
    return n;
}

pn_status_t pn_sim_step(pn_sim_t *s, pn_end_t *end)
{
    *end = PN_END_NONE;
    s->nfired = 0;
    uint32_t n, *E = s->E;
    if (s->sem == PN_SEM_INTERLEAVING) {
        if ((n = collect(s)) == 0) {
            *end = PN_END_DEAD;
            return PN_OK;
        }
        E[0] = E[pni_rng_below(&s->rng, n)];
        n = 1;
        if (!s->reference)
            E[0] = s->e->pos[E[0]];
    } else if (stars_begin(s) == 0 &&
               (s->e->identity || (!s->reference && !s->scan))) {
        /* no star tested: the whole set, shuffled (plan() would do the
         * same), straight from the bits or the scan (positions are
         * transitions there) */
        n = s->reference || s->scan ? collect(s) : extract_kept(s, E, NULL);
        if (n == 0) {
            *end = PN_END_DEAD;
            return PN_OK;
        }
        pni_rng_t rng = s->rng;
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = pni_rng_below(&rng, i);
            uint32_t tmp = E[i - 1];
            E[i - 1] = E[j];
            E[j] = tmp;
        }
        s->rng = rng;
        stars_end(s);
    } else {
        if (!collect_en(s)) {
            *end = PN_END_DEAD;
            return PN_OK;
        }
        n = plan(s);
        stars_end(s);
    }
    if (s->reference) {
        /* E: transitions (interleaving) or positions */
        if (s->sem != PN_SEM_INTERLEAVING && !s->e->identity)
            for (uint32_t i = 0; i < n; i++)
                E[i] = s->e->tat[E[i]];
        walk(s, E, n, 0);
        return finish_step(s, end);
    }
    pn_status_t st;
    if (s->scan) {
        walk_tracked(s, E, n, 0);
        st = finish_tracked(s, end, 0);
    } else {
        walk_tracked(s, E, n, 1);
        st = finish_tracked(s, end, 1);
    }
    if (st == PN_OK)
        choose_mode(s);
    return st;
}

void pni_sim_set_scan(pn_sim_t *s, int scan)
{
    if (s->reference)
        return;
    s->forced = scan >= 0;
    if (scan < 0)
        return;
    if (s->scan && !scan)
        rebuild(s);
    s->scan = scan;
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
