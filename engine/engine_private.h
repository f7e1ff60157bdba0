/*
 * engine/engine_private.h - internals of the engine shared with the
 * folders above it and the tests (not installed, never exported).
 */
#ifndef PN_ENGINE_PRIVATE_H
#define PN_ENGINE_PRIVATE_H

#include <stdint.h>

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
