/*
 * bench/loop.c - the peer of the engine benchmark: a flat, hand-written
 * loop of the step engine's algorithm as it was before the engine's own
 * tuning (maximal steps; the enabled set kept as a bit set through
 * per-place threshold conditions, visited when a place's count changes at
 * the end of a step; the whole enabled set shuffled by Fisher-Yates from
 * the top and walked with the budget B = M; outputs added after the walk).
 * It draws the toolkit's random stream as the engine did before stars
 * (see "the order of a step" in engine/engine.c), so for one seed it makes
 * the very same run as pn_sim_run() on nets without a star: the benchmark
 * checks that; on nets with stars, runs of the same distribution.
 * Normal, read, inhibitor and reset arcs; no capacities (a net with one
 * is refused).  Written for the benchmark alone, in one file, without the
 * engine's code.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pn.h"
#include "engine_private.h" /* the random stream only */
#include "loop.h"

typedef struct {
    uint64_t th;
    uint32_t t, up; /* up: "m < th" (inhibitor), else "m >= th" */
} lcond_t;

typedef struct {
    uint32_t p;
    uint64_t w;
} larc_t;

static int cmp_larc(const void *a, const void *b)
{
    const larc_t *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p;
}

static int cmp_lcond(const void *a, const void *b)
{
    const lcond_t *x = a, *y = b;
    return x->th < y->th ? -1 : x->th > y->th;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int bench_loop_run(const pn_net_t *net, uint64_t seed, uint64_t max_steps,
                   loop_result_t *r)
{
    memset(r, 0, sizeof *r);
    uint32_t np = (uint32_t)pn_net_place_count(net),
             nt = (uint32_t)pn_net_transition_count(net),
             na = (uint32_t)pn_net_arc_count(net);
    for (uint32_t p = 0; p < np; p++)
        if (pn_net_place(net, p)->capacity)
            return -1;
    /* per transition: normal inputs (merged), resets, outputs (merged) */
    uint32_t *ioff = calloc(nt + 2, sizeof *ioff),
             *ooff = calloc(nt + 2, sizeof *ooff),
             *roff = calloc(nt + 2, sizeof *roff),
             *coff = calloc(np + 2, sizeof *coff);
    larc_t *in = malloc((na + 1) * sizeof *in),
           *out = malloc((na + 1) * sizeof *out);
    uint32_t *rs = malloc((na + 1) * sizeof *rs);
    lcond_t *cond = malloc((na + 1) * sizeof *cond);
    uint64_t *m = malloc((np + 1) * sizeof *m), *old = NULL, *bits = NULL;
    uint32_t *unsat = calloc(nt + 1, sizeof *unsat), *E = NULL, *fired = NULL,
             *changed = NULL;
    unsigned char *seen = calloc(np + 1, 1);
    int rc = -1;
    if (!ioff || !ooff || !roff || !coff || !in || !out || !rs || !cond ||
        !m || !unsat || !seen)
        goto done;
    for (uint32_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        uint32_t t = (uint32_t)arc->transition;
        if (arc->dir == PN_DIR_TP)
            ooff[t + 2]++;
        else if (arc->kind == PN_ARC_NORMAL)
            ioff[t + 2]++;
        else if (arc->kind == PN_ARC_RESET)
            roff[t + 2]++;
    }
    for (uint32_t t = 0; t < nt; t++) {
        ioff[t + 2] += ioff[t + 1];
        ooff[t + 2] += ooff[t + 1];
        roff[t + 2] += roff[t + 1];
    }
    for (uint32_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        uint32_t t = (uint32_t)arc->transition, p = (uint32_t)arc->place;
        if (arc->dir == PN_DIR_TP)
            out[ooff[t + 1]++] = (larc_t){p, arc->weight};
        else if (arc->kind == PN_ARC_NORMAL)
            in[ioff[t + 1]++] = (larc_t){p, arc->weight};
        else if (arc->kind == PN_ARC_RESET)
            rs[roff[t + 1]++] = p;
    }
    /* merge a transition's arcs from or to one place */
    for (int k = 0; k < 2; k++) {
        uint32_t *off = k ? ooff : ioff;
        larc_t *v = k ? out : in;
        uint32_t n = 0;
        for (uint32_t t = 0; t < nt; t++) {
            uint32_t a = off[t], b = off[t + 1];
            qsort(v + a, b - a, sizeof *v, cmp_larc);
            off[t] = n;
            for (uint32_t j = a; j < b; j++) {
                if (n > off[t] && v[n - 1].p == v[j].p)
                    v[n - 1].w += v[j].w;
                else
                    v[n++] = v[j];
            }
        }
        off[nt] = n;
    }
    /* the conditions, per place sorted by threshold */
    uint32_t nc = 0;
    for (int fill = 0; fill < 2; fill++) {
        for (uint32_t t = 0; t < nt; t++) {
            for (uint32_t j = ioff[t]; j < ioff[t + 1]; j++) {
                if (fill)
                    cond[coff[in[j].p + 1]++] = (lcond_t){in[j].w, t, 0};
                else
                    coff[in[j].p + 2]++;
            }
        }
        for (uint32_t a = 0; a < na; a++) {
            const pn_arc_t *arc = pn_net_arc(net, a);
            if (arc->dir == PN_DIR_TP || (arc->kind != PN_ARC_READ &&
                                          arc->kind != PN_ARC_INHIBITOR))
                continue;
            uint32_t p = (uint32_t)arc->place;
            if (fill)
                cond[coff[p + 1]++] = (lcond_t){arc->weight,
                    (uint32_t)arc->transition,
                    arc->kind == PN_ARC_INHIBITOR};
            else
                coff[p + 2]++;
        }
        if (!fill)
            for (uint32_t p = 0; p < np; p++)
                coff[p + 2] += coff[p + 1];
    }
    nc = coff[np];
    (void)nc;
    for (uint32_t p = 0; p < np; p++)
        qsort(cond + coff[p], coff[p + 1] - coff[p], sizeof *cond,
              cmp_lcond);
    size_t nw = (nt + 63) / 64;
    bits = calloc(nw + 1, sizeof *bits);
    old = malloc((np + 1) * sizeof *old);
    E = malloc((nt + 1) * sizeof *E);
    fired = malloc((nt + 1) * sizeof *fired);
    changed = malloc((np + 1) * sizeof *changed);
    if (!bits || !old || !E || !fired || !changed)
        goto done;
    for (uint32_t p = 0; p < np; p++)
        m[p] = pn_net_place(net, p)->marking;
    for (uint32_t p = 0; p < np; p++)
        for (uint32_t j = coff[p]; j < coff[p + 1]; j++)
            unsat[cond[j].t] += (m[p] < cond[j].th) ^ cond[j].up;
    for (uint32_t t = 0; t < nt; t++)
        if (!unsat[t])
            bits[t >> 6] |= UINT64_C(1) << (t & 63);

    pni_rng_t rng;
    pni_rng_seed(&rng, seed);
    uint64_t steps = 0, firings = 0, arcs = 0;
    double t0 = cpu_now();
    for (;;) {
        uint32_t n = 0;
        for (size_t w = 0; w < nw; w++)
            for (uint64_t b = bits[w]; b; b &= b - 1)
                E[n++] = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(b));
        if (n == 0 || steps >= max_steps)
            break;
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = pni_rng_below(&rng, i);
            uint32_t x = E[i - 1];
            E[i - 1] = E[j];
            E[j] = x;
        }
        uint32_t nf = 0, nch = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = E[i], j;
            for (j = ioff[t]; j < ioff[t + 1]; j++)
                if (m[in[j].p] < in[j].w)
                    break;
            if (j < ioff[t + 1])
                continue;
            for (j = ioff[t]; j < ioff[t + 1]; j++) {
                uint32_t p = in[j].p;
                if (!seen[p]) {
                    seen[p] = 1;
                    old[p] = m[p];
                    changed[nch++] = p;
                }
                m[p] -= in[j].w;
            }
            for (j = roff[t]; j < roff[t + 1]; j++) {
                uint32_t p = rs[j];
                if (!seen[p]) {
                    seen[p] = 1;
                    old[p] = m[p];
                    changed[nch++] = p;
                }
                m[p] = 0;
            }
            arcs += ioff[t + 1] - ioff[t] + roff[t + 1] - roff[t];
            fired[nf++] = t;
        }
        for (uint32_t i = 0; i < nf; i++) {
            uint32_t t = fired[i];
            for (uint32_t j = ooff[t]; j < ooff[t + 1]; j++) {
                uint32_t p = out[j].p;
                if (!seen[p]) {
                    seen[p] = 1;
                    old[p] = m[p];
                    changed[nch++] = p;
                }
                m[p] += out[j].w;
            }
            arcs += ooff[t + 1] - ooff[t];
        }
        /* the conditions whose threshold the count passed */
        for (uint32_t i = 0; i < nch; i++) {
            uint32_t p = changed[i];
            uint64_t a = old[p], b = m[p], lo = a < b ? a : b,
                     hi = a < b ? b : a;
            seen[p] = 0;
            for (uint32_t j = coff[p]; j < coff[p + 1] && cond[j].th <= hi;
                 j++) {
                if (cond[j].th <= lo)
                    continue;
                uint32_t t = cond[j].t;
                /* fails at b now iff it held at a */
                uint32_t fb = (b < cond[j].th) ^ cond[j].up;
                unsat[t] = fb ? unsat[t] + 1 : unsat[t] - 1;
                uint64_t mask = UINT64_C(1) << (t & 63);
                bits[t >> 6] = unsat[t] ? bits[t >> 6] & ~mask
                                        : bits[t >> 6] | mask;
            }
        }
        steps++;
        firings += nf;
    }
    r->secs = cpu_now() - t0;
    r->steps = steps;
    r->firings = firings;
    r->arcs = arcs;
    rc = 0;
done:
    free(ioff);
    free(ooff);
    free(roff);
    free(coff);
    free(in);
    free(out);
    free(rs);
    free(cond);
    free(m);
    free(old);
    free(bits);
    free(unsat);
    free(E);
    free(fired);
    free(changed);
    free(seen);
    return rc;
}
