/*
 * engine/engine_private.h - internals of the engine shared with the
 * folders above it and the tests (not installed, never exported).
 */
#ifndef PN_ENGINE_PRIVATE_H
#define PN_ENGINE_PRIVATE_H

#include <stdint.h>
#include "engine.h"

/* ---- the firing rule, for the state-space explorer ---------------------
 * The same functions pn_sim_step() and pn_sim_fire() use. */

/* Whether t is enabled at m: normal and read inputs, inhibitors, room in
 * capacity places. */
int pni_engine_enabled(const pn_engine_t *e, const uint64_t *m, uint32_t t);
/* Whether t still fits the budget b of a step (normal inputs; capacity
 * places, given pend, the tokens the step already promised them). */
int pni_engine_fits(const pn_engine_t *e, const uint64_t *b,
                    const uint64_t *pend, uint32_t t);
/* Takes t's normal inputs from b, empties its reset places, promises its
 * capacity outputs in pend (all zero when the net has no capacities). */
void pni_engine_take(const pn_engine_t *e, uint64_t *b, uint64_t *pend,
                     uint32_t t);
/* Adds t's outputs to m; returns 0, or 1 + the place whose count would
 * pass PN_TOKENS_MAX. */
int pni_engine_give(const pn_engine_t *e, uint64_t *m, uint32_t t);
int pni_engine_has_capacity(const pn_engine_t *e);
/* Of the enabled transitions en[0..ne), which compete with another for
 * tokens (a normal input or reset place another one also takes from) or
 * for room (a capacity place another one also fills): competes[k].  A
 * transition that competes with none is in every maximal step.  use: one
 * zeroed counter per place, left zeroed. */
void pni_engine_competing(const pn_engine_t *e, const uint32_t *en, size_t ne,
                          uint32_t *use, unsigned char *competes);

/* pn_engine_compile() with stars of at least kmin members (see "the order
 * of a step" in engine.c; pn_engine_compile(): 16; 0: none), for the tests
 * of the distribution of steps on small nets. */
pn_status_t pni_engine_compile_stars(const pn_net_t *net, uint32_t kmin,
                                     pn_engine_t **out);
/* The number of stars of e. */
size_t pni_engine_stars(const pn_engine_t *e);
/* For the tests: whether e counts bits with the popcnt instruction (on,
 * where the processor has it; the default) or without (off); the run is
 * the same either way.  Returns whether it uses the instruction now. */
int pni_engine_set_popcnt(pn_engine_t *e, int on);

/* For the tests: from the next step on, the incremental run s keeps its
 * enabled set (scan 0) or computes it from scratch (scan 1), as the
 * reference mode does, whatever each costs; -1: it chooses again.  The run
 * is the same either way. */
void pni_sim_set_scan(pn_sim_t *s, int scan);

/* The random stream of the toolkit (xoshiro256** seeded by splitmix64):
 * the same seed gives the same numbers on every machine.  Inline: the step
 * loop draws one number per enabled transition. */
typedef struct pni_rng {
    uint64_t s[4];
} pni_rng_t;

static inline uint64_t pni_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline void pni_rng_seed(pni_rng_t *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = pni_splitmix64(&x);
}

static inline uint64_t pni_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t pni_rng_next(pni_rng_t *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = pni_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = pni_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias (Lemire's
 * multiply-and-reject: exact, and the same on every machine). */
static inline uint64_t pni_rng_below(pni_rng_t *rng, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)pni_rng_next(rng) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (unsigned __int128)pni_rng_next(rng) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

#endif
