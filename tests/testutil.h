/* Helpers shared by the Check programs: the inline ones here, and the
 * random nets, random formulas and brute force of tests/testutil.c, linked
 * into the programs that compare against brute force (tests/local.mk). */
#ifndef PN_TESTUTIL_H
#define PN_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pn.h"

/* A new file under /tmp holding text; the caller unlinks and frees the
 * returned path.  ("XXXXXX" is mkstemp's template, replaced by it.) */
static inline char *tmp_file_with(const char *text)
{
    char *path = strdup("/tmp/pn-test-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

/* How many random nets a comparison draws: quick under make check, full
 * when PN_TEST_FULL is set (make check-mcc runs the programs so).  The
 * quick run's nets are the first ones of the full run. */
static inline int tu_count(int quick, int full)
{
    const char *f = getenv("PN_TEST_FULL");
    return f && *f && strcmp(f, "0") ? full : quick;
}

struct pni_rng;
struct pn_qformula;
struct pn_qsum;

/* ---- tests/testutil.c --------------------------------------------------- */

/* The shape of a random net, places p0.. and transitions t0..:
 * p_min + below(p_span) places, each with below(tokens) tokens;
 * t_min + below(t_span) transitions; capacities cap_min + below(cap_span)
 * in every net (caps_in 1), one net in caps_in, or none (0), on every
 * place or on half of them (caps_half); a_min + below(a_mul * nt) arcs
 * (every_t: nt + below(a_mul * nt), the first one a transition), each
 * normal below normal of ten, inhibitor below inh, read below read, else
 * reset (ends_last: the arc's place and transition drawn after its kind,
 * way and weight).  The same shape and random stream give the same net. */
typedef struct {
    const char *id;
    uint64_t p_min, p_span, t_min, t_span, tokens;
    uint64_t caps_in, cap_min, cap_span;
    int caps_half;
    uint64_t a_min, a_mul;
    int every_t, ends_last;
    uint64_t normal, inh, read;
} tu_shape_t;

/* A random net of shape sh; kinds 0: normal arcs only, 1: no reset arc
 * (a read instead), 2: every kind. */
pn_net_t *tu_random_net(struct pni_rng *rng, const tu_shape_t *sh,
                        int kinds);
/* One random arc between place p and transition t, as tu_random_net()
 * draws them. */
void tu_random_arc(struct pni_rng *rng, pn_net_t *net, const tu_shape_t *sh,
                   int kinds, size_t p, size_t t);

/* The shape of a random state formula's text over p0.. and t0..: r =
 * below(top) (below(leaf) at depth 0) picks a constant (0: often, else one
 * in odds rare[0], or a coin between rare[0] and rare[1]), fireable(...)
 * of one or two transitions (1), a comparison (up to cmp_end: p [+ p]
 * op [p +] c, c below consts), a negation (up to not_end), an or (the
 * next), else an and. */
typedef struct {
    uint64_t top, leaf;
    const char *often, *rare[2];
    uint64_t odds;
    int fireable, two_places, rhs_place;
    uint64_t cmp_end, not_end, consts;
} tu_fshape_t;

/* Appends a random formula of shape fs, at most depth operators deep, to
 * buf (size bytes). */
void tu_random_formula(struct pni_rng *rng, const tu_fshape_t *fs,
                       size_t np, size_t nt, int depth, char *buf,
                       size_t size);

/* n counters that grow for ever: places p0 .. p(n-1), empty, each filled
 * by its own transition t0 .. t(n-1) with no input. */
pn_net_t *tu_counters_net(size_t n);
/* A ring of n places p0 .. p(n-1), one token in p0, each t_k moving it
 * from p_k to the next. */
pn_net_t *tu_ring_net(size_t n);

/* pn_reach_query() with its defaults but a limit of markings (a limit
 * keeps unbounded nets short: what it leaves unknown is not compared)
 * and stubborn sets or not; the caller frees the search. */
pn_reach_t *tu_search(const pn_net_t *net, const pn_query_set_t *qs,
                      pn_query_answer_t *ans, uint64_t max_states,
                      int stubborn);

/* The firing rule from the semantics' text (not the engine's): whether t
 * is enabled at m; the marking after firing it (inputs taken, reset
 * places emptied, outputs added); whether nothing is enabled; a sum's
 * value at m; whether a state formula (atoms, !, &&, ||) holds at m. */
int tu_bf_enabled(const pn_net_t *net, const uint64_t *m, size_t t);
void tu_bf_fire(const pn_net_t *net, const uint64_t *m, size_t t,
                uint64_t *out);
int tu_bf_dead(const pn_net_t *net, const uint64_t *m);
uint64_t tu_bf_sum(const struct pn_qsum *s, const uint64_t *m);
int tu_bf_holds(const pn_net_t *net, const struct pn_qformula *f,
                const uint64_t *m);

/* The reachability graph by brute force: n markings of np places, and
 * the successor of each enabled transition of marking i, in order:
 * succ[i * nt + k], k < nsucc[i]. */
typedef struct {
    const pn_net_t *net;
    size_t np, nt, n;
    uint64_t *m;
    size_t *succ, *nsucc;
} tu_graph_t;

/* Every marking reachable, breadth first: 0 when there are more than
 * limit (the graph is then partial).  tu_graph_free() either way. */
int tu_bf_graph(tu_graph_t *g, const pn_net_t *net, size_t limit);
void tu_graph_free(tu_graph_t *g);

#endif
