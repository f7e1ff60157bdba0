/*
 * Workflow nets (van der Aalst): one source place, one sink place, every
 * node on a path from the one to the other; and their soundness, through
 * the state space of the net short-circuited by a transition from the
 * sink back to the source.
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reach.h"
#include "struct.h"

/* Marks in seen[] (places first, then transitions) every node reached
 * from node start along the normal arcs, forward or (back) backward:
 * adj[off[v] .. off[v + 1]) are the arcs' ends next to node v, in the
 * direction asked. */
static void walk(size_t start, const size_t *off, const size_t *adj,
                 unsigned char *seen, size_t *stack)
{
    size_t n = 0;
    seen[start] = 1;
    stack[n++] = start;
    while (n) {
        size_t v = stack[--n];
        for (size_t k = off[v]; k < off[v + 1]; k++)
            if (!seen[adj[k]]) {
                seen[adj[k]] = 1;
                stack[n++] = adj[k];
            }
    }
}

/* The arcs as lists per node (places first, then transitions): from
 * each node to the next ones (back: to the ones before).  0, -1 out of
 * memory. */
static int lists(const pn_net_t *net, int back, size_t **off, size_t **adj)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t na = pn_net_arc_count(net), nv = np + nt;
    *off = calloc(nv + 2, sizeof **off);
    *adj = malloc((na + 1) * sizeof **adj);
    if (!*off || !*adj)
        return -1;
    for (int pass = 0; pass < 2; pass++)
        for (size_t a = 0; a < na; a++) {
            const pn_arc_t *arc = pn_net_arc(net, a);
            size_t p = arc->place, t = np + arc->transition;
            int fwd = (arc->dir == PN_DIR_PT) != back;
            size_t from = fwd ? p : t, to = fwd ? t : p;
            if (!pass)
                (*off)[from + 2]++;
            else
                (*adj)[(*off)[from + 1]++] = to;
            if (!pass && a == na - 1)
                for (size_t v = 0; v < nv; v++)
                    (*off)[v + 2] += (*off)[v + 1];
        }
    return 0;
}

/* Whether net is a workflow net: *source and *sink its two places. */
static int is_workflow(const pn_net_t *net, size_t *source, size_t *sink)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t counts[PN_ARC_KINDS];
    pn_net_count_arcs(net, counts);
    if (!np || !nt || counts[PN_ARC_NORMAL] != pn_net_arc_count(net))
        return 0;
    unsigned char *in = calloc(np, 1), *out = calloc(np, 1),
                  *fw = calloc(np + nt, 1), *bw = calloc(np + nt, 1);
    size_t *stack = malloc((np + nt) * sizeof *stack);
    int ok = in && out && fw && bw && stack;
    size_t ns = 0, nk = 0;
    for (size_t a = 0; ok && a < pn_net_arc_count(net); a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        (arc->dir == PN_DIR_TP ? in : out)[arc->place] = 1;
    }
    for (size_t p = 0; ok && p < np; p++) {
        if (!in[p] && ns++ == 0)
            *source = p;
        if (!out[p] && nk++ == 0)
            *sink = p;
    }
    ok = ok && ns == 1 && nk == 1 && *source != *sink;
    for (int back = 0; ok && back < 2; back++) {
        size_t *off = NULL, *adj = NULL;
        if ((ok = !lists(net, back, &off, &adj)))
            walk(back ? *sink : *source, off, adj, back ? bw : fw, stack);
        free(off);
        free(adj);
    }
    for (size_t v = 0; ok && v < np + nt; v++)
        ok = fw[v] && bw[v];
    free(in);
    free(out);
    free(fw);
    free(bw);
    free(stack);
    return ok;
}

/* The net short-circuited (a transition from the sink to the source),
 * marked [source]. */
static pn_net_t *short_circuit(const pn_net_t *net, size_t source,
                               size_t sink)
{
    pn_net_t *s = pn_net_new("short-circuited");
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    int bad = !s;
    for (size_t p = 0; !bad && p < np; p++)
        bad = pn_net_add_place(s, pn_net_place(net, p)->id, NULL,
                               p == source, NULL) != PN_OK;
    for (size_t t = 0; !bad && t < nt; t++)
        bad = pn_net_add_transition(s, pn_net_transition(net, t)->id, NULL,
                                    NULL) != PN_OK;
    for (size_t a = 0; !bad && a < pn_net_arc_count(net); a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        bad = pn_net_add_arc_at(s, NULL, arc->dir, arc->place,
                                arc->transition, arc->weight, arc->kind,
                                NULL) != PN_OK;
    }
    /* an id no node has */
    char id[64];
    unsigned k = 0;
    do
        snprintf(id, sizeof id, "short-circuit%u", k++);
    while (!bad && pn_net_find(s, id, NULL, NULL) == PN_OK);
    size_t t;
    if (bad || pn_net_add_transition(s, id, NULL, &t) ||
        pn_net_add_arc_at(s, NULL, PN_DIR_PT, sink, t, 1, PN_ARC_NORMAL,
                          NULL) ||
        pn_net_add_arc_at(s, NULL, PN_DIR_TP, source, t, 1, PN_ARC_NORMAL,
                          NULL)) {
        pn_net_free(s);
        return NULL;
    }
    return s;
}

/* Whether a marking found in r marks the sink and holds other tokens
 * (w->witness: its state).  The first such marking on a path of the
 * short-circuited net comes before the short-circuit fires with other
 * tokens left: the net itself reaches it from [source]. */
static int improper(const pn_reach_t *r, const pn_net_t *net,
                    pn_workflow_t *w)
{
    size_t np = pn_net_place_count(net);
    uint64_t *m = malloc((np + 1) * sizeof *m);
    int found = 0;
    for (uint64_t i = 0; m && !found && i < pn_reach_states(r); i++) {
        uint64_t others = 0;
        pn_reach_marking(r, i, m);
        for (size_t p = 0; p < np; p++)
            others += p != w->sink ? m[p] : 0;
        if (m[w->sink] && (others || m[w->sink] > 1)) {
            w->witness = i;
            found = 1;
        }
    }
    free(m);
    return found;
}

/* Why the net is not sound, from the short-circuited net's state space
 * (complete, not live). */
static void why_unsound(const pn_reach_t *r, const pn_net_t *net,
                        pn_workflow_t *w)
{
    w->reason = PN_WORKFLOW_NO_COMPLETION;
    if (improper(r, net, w)) {
        w->reason = PN_WORKFLOW_IMPROPER;
        return;
    }
    /* the short-circuit transition is the last: not the net's own */
    for (size_t t = 0; t < pn_net_transition_count(net); t++)
        if (!pn_reach_transition_fires(r, t)) {
            w->reason = PN_WORKFLOW_DEAD;
            w->witness = t;
            return;
        }
}

pn_status_t pn_workflow_check(const pn_net_t *net, uint64_t max_states,
                              pn_workflow_t *w)
{
    if (!net || !w)
        return PN_EINVAL;
    memset(w, 0, sizeof *w);
    w->sound = -1;
    if (!is_workflow(net, &w->source, &w->sink))
        return PN_OK;
    w->workflow = 1;
    pn_net_t *s = short_circuit(net, w->source, w->sink);
    if (!s)
        return PN_ENOMEM;
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = max_states ? max_states : PN_WORKFLOW_MAX_STATES;
    o.graph = 1;
    pn_reach_t *r = NULL;
    pn_status_t st = pn_reach_explore(s, &o, &r);
    if (st == PN_OK) {
        pn_reach_end_t e = pn_reach_end(r);
        w->states = pn_reach_states(r);
        int live = 0;
        if (e == PN_REACH_UNBOUNDED) {
            w->sound = 0;
            w->reason = improper(r, net, w) ? PN_WORKFLOW_IMPROPER
                                            : PN_WORKFLOW_UNBOUNDED;
        } else if (e == PN_REACH_COMPLETE &&
                   (st = pn_reach_live(r, &live)) == PN_OK) {
            /* van der Aalst: sound exactly when the short-circuited net
             * is live and bounded from [source] */
            w->sound = live;
            if (!live)
                why_unsound(r, net, w);
        }
    }
    pn_reach_free(r);
    pn_net_free(s);
    return st;
}
