/*
 * libFuzzer harness for the trace reader (pn_trace_read(), the format
 * pn-run --trace writes and pn-dot --trace reads): every input is read
 * against a fixed small net or refused with an error record, never a
 * crash, leak or hang; a trace that is read must replay to every step.
 *
 * The net has every arc kind, a capacity and a place two tokens below
 * PN_TOKENS_MAX, so that the replay reaches each refusal of the firing
 * rule (not enabled, inhibited, over capacity, overflow):
 *
 *   p0 (3) -> t0 -> 2 p1 (capacity 4); 2 p1 -> t1 -> p2, p0
 *   t2 reads p2, is inhibited by p4, puts p4; t3 resets p4, takes p2
 *   t4 reads p4, takes p3 (2^63 - 3) and puts 2 back: + 1 per firing
 *
 * Seeds: tests/fuzz/seeds/trace/ (pn-run traces of this net).
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS trace.
 */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "trace.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pn_net_t *the_net(void)
{
    static const struct {
        const char *id;
        uint64_t marking, capacity;
    } places[] = {
        {"p0", 3, 0}, {"p1", 0, 4}, {"p2", 1, 0},
        {"p3", PN_TOKENS_MAX - 2, 0}, {"p4", 0, 0},
    };
    static const struct {
        const char *from, *to;
        uint64_t weight;
        pn_arc_kind_t kind;
    } arcs[] = {
        {"p0", "t0", 1, PN_ARC_NORMAL},    {"t0", "p1", 2, PN_ARC_NORMAL},
        {"p1", "t1", 2, PN_ARC_NORMAL},    {"t1", "p2", 1, PN_ARC_NORMAL},
        {"t1", "p0", 1, PN_ARC_NORMAL},    {"p2", "t2", 1, PN_ARC_READ},
        {"p4", "t2", 1, PN_ARC_INHIBITOR}, {"t2", "p4", 1, PN_ARC_NORMAL},
        {"p4", "t3", 1, PN_ARC_RESET},     {"p2", "t3", 1, PN_ARC_NORMAL},
        {"p4", "t4", 1, PN_ARC_READ},      {"p3", "t4", 1, PN_ARC_NORMAL},
        {"t4", "p3", 2, PN_ARC_NORMAL},
    };
    pn_net_t *net = pn_net_new("fuzz-trace");
    int bad = !net;
    for (size_t i = 0; !bad && i < sizeof places / sizeof *places; i++) {
        size_t at;
        bad = pn_net_add_place(net, places[i].id, NULL, places[i].marking,
                               &at) ||
              (places[i].capacity &&
               pn_net_set_capacity(net, at, places[i].capacity));
    }
    for (int i = 0; !bad && i < 5; i++) {
        char id[16];
        snprintf(id, sizeof id, "t%d", i);
        bad = pn_net_add_transition(net, id, NULL, NULL) != PN_OK;
    }
    for (size_t i = 0; !bad && i < sizeof arcs / sizeof *arcs; i++)
        bad = pn_net_add_arc(net, NULL, arcs[i].from, arcs[i].to,
                             arcs[i].weight, arcs[i].kind, NULL) != PN_OK;
    if (bad)
        abort();
    return net;
}

/* A trace that was read: its steps partition the fired transitions, and
 * it replays to its last step and no further. */
static void check_trace(const pn_trace_t *t, const pn_net_t *net)
{
    uint64_t n = pn_trace_steps(t); /* 0: "E dead 0", a dead start */
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    for (uint64_t s = 1; s <= n; s++) {
        size_t k;
        const uint32_t *f = pn_trace_fired(t, s, &k);
        if (k && !f)
            abort();
        for (size_t i = 0; i < k; i++)
            if (f[i] >= nt)
                abort();
    }
    size_t k = 1;
    if (pn_trace_fired(t, 0, &k) || k || pn_trace_fired(t, n + 1, &k) || k)
        abort();
    uint64_t *m = malloc(np * sizeof *m);
    if (!m)
        abort();
    if (pn_trace_marking(t, net, n, m) != PN_OK ||
        pn_trace_marking(t, net, n + 1, m) != PN_EINVAL)
        abort();
    for (size_t p = 0; p < np; p++) {
        uint64_t cap = pn_net_place(net, p)->capacity;
        if (m[p] > PN_TOKENS_MAX || (cap && m[p] > cap))
            abort();
    }
    free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pn_net_t *net;
    if (!net)
        net = the_net(); /* kept for the whole run: never changed */
    static char junk;
    pn_trace_t *t = (pn_trace_t *)(void *)&junk; /* the reader resets it */
    pn_error_t err;
    fuzz_dirty_error(&err);
    pn_status_t st = pn_trace_read(fuzz_memfile(data, size), net, &t, &err);
    fuzz_check_error(st, &err);
    if (st != PN_OK) {
        if (t || (st != PN_ETRACE && st != PN_ENOMEM))
            abort();
        return 0;
    }
    check_trace(t, net);
    pn_trace_free(t);
    return 0;
}
