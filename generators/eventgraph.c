/*
 * The timed event graph of a max-plus kernel graph as a P/T net: run with
 * maximal steps it takes exactly r + 1 steps (doc/maxplus.md).  Built
 * through the public kernel and net APIs.
 */
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "eventgraph.h"
#include "lib_private.h"

#define kfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)


static int is_int(double v) { return isfinite(v) && v == floor(v); }

/* Places and transitions of the event graph, in a double (exact below
 * 2^53, and far above the limit beyond): each node n + tau transitions and
 * tau places, each input a place, each arc of time d d places and d - 1
 * transitions. */
static double event_graph_size(const pn_kernel_t *k, const double *t,
                               int loops)
{
    double size = 0;
    for (size_t v = 0; v < pn_kernel_node_count(k); v++) {
        double tau = loops ? pn_kernel_loop(k, v) : 0;
        size += 1 + 2 * tau + ((pn_kernel_node_role(k, v) & 1) != 0);
    }
    for (size_t a = 0; a < pn_kernel_arc_count(k); a++)
        size += 2 * t[a] - 1;
    return size;
}

pn_status_t pn_kernel_event_graph(const pn_kernel_t *k,
                                  const pn_mp_params_t *p, pn_net_t **out,
                                  pn_error_t *err)
{
    pni_error_begin(err, NULL);
    *out = NULL;
    if (p && p->model == PN_MP_SERIALIZED)
        return kfail(err, PN_EINVAL, "the event graph is built for the naive "
                     "and ops models");
    size_t nn = pn_kernel_node_count(k), na = pn_kernel_arc_count(k);
    double *t = malloc((na + 1) * sizeof *t);
    size_t *from = malloc((na + 1) * sizeof *from);
    size_t *to = malloc((na + 1) * sizeof *to);
    if (!t || !from || !to || pn_kernel_arc_times(k, p, t)) {
        free(t);
        free(from);
        free(to);
        return kfail(err, PN_ENOMEM, "out of memory");
    }
    for (size_t a = 0; a < na; a++)
        pn_kernel_arc_ends(k, a, &from[a], &to[a]);
    int loops = !p || p->model != PN_MP_NAIVE;
    for (size_t a = 0; a < na; a++)
        if (!is_int(t[a]) || t[a] < 1) {
            pn_status_t st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': time "
                                   "%g: the event graph needs integer arc "
                                   "times >= 1", pn_kernel_node_name(k, from[a]),
                                   pn_kernel_node_name(k, to[a]), t[a]);
            free(t);
            free(from);
            free(to);
            return st;
        }
    for (size_t v = 0; loops && v < nn; v++)
        if (!is_int(pn_kernel_loop(k, v))) {
            free(t);
            free(from);
            free(to);
            return kfail(err, PN_EVALUE, "node '%s': operation time %g: the "
                         "event graph needs integer times", pn_kernel_node_name(k, v),
                         pn_kernel_loop(k, v));
        }
    double size = event_graph_size(k, t, loops);
    if (size > PN_EVENT_GRAPH_MAX_NODES) {
        free(t);
        free(from);
        free(to);
        return kfail(err, PN_ETOOBIG, "the event graph would have %.4g "
                     "places and transitions, more than the limit of %d (a "
                     "place and a transition per unit of time)", size,
                     PN_EVENT_GRAPH_MAX_NODES);
    }
    pn_net_t *net = pn_net_new("kernel");
    pn_status_t st = net ? PN_OK : PN_ENOMEM;
    char id[96], id2[96], name[300];
    size_t *first = malloc((nn + 1) * sizeof *first);
    size_t *last = malloc((nn + 1) * sizeof *last);
    if (!first || !last)
        st = PN_ENOMEM;
    /* each node: transitions n<v>_0 .. n<v>_tau (its operation time) */
    for (size_t v = 0; !st && v < nn; v++) {
        size_t tau = loops ? (size_t)pn_kernel_loop(k, v) : 0;
        for (size_t s = 0; !st && s <= tau; s++) {
            snprintf(id, sizeof id, "n%zu_%zu", v, s);
            if (s == 0)
                snprintf(name, sizeof name, "%s", pn_kernel_node_name(k, v));
            else
                snprintf(name, sizeof name, "%s (operation, step %zu)",
                         pn_kernel_node_name(k, v), s);
            size_t ti;
            st = pn_net_add_transition(net, id, name, &ti);
            if (s == 0)
                first[v] = ti;
            last[v] = ti;
            if (!st && s > 0) {
                snprintf(id2, sizeof id2, "n%zu_op%zu", v, s);
                size_t pi;
                st = pn_net_add_place(net, id2, NULL, 0, &pi);
                if (!st)
                    st = pn_net_add_arc_at(net, NULL, PN_DIR_TP, pi, ti - 1, 1,
                                           PN_ARC_NORMAL, NULL);
                if (!st)
                    st = pn_net_add_arc_at(net, NULL, PN_DIR_PT, pi, ti, 1,
                                           PN_ARC_NORMAL, NULL);
            }
        }
        if (!st && (pn_kernel_node_role(k, v) & 1)) {
            snprintf(id, sizeof id, "start%zu", v);
            snprintf(name, sizeof name, "start of %s", pn_kernel_node_name(k, v));
            size_t pi;
            st = pn_net_add_place(net, id, name, 1, &pi);
            if (!st)
                st = pn_net_add_arc_at(net, NULL, PN_DIR_PT, pi, first[v], 1,
                                       PN_ARC_NORMAL, NULL);
        }
    }
    /* each arc of time d: d places with d - 1 transitions between them */
    for (size_t a = 0; !st && a < na; a++) {
        size_t d = (size_t)t[a];
        size_t prev = last[from[a]];
        for (size_t s = 1; !st && s <= d; s++) {
            snprintf(id, sizeof id, "a%zu_p%zu", a, s);
            size_t pi;
            st = pn_net_add_place(net, id, NULL, 0, &pi);
            if (!st)
                st = pn_net_add_arc_at(net, NULL, PN_DIR_TP, pi, prev, 1,
                                       PN_ARC_NORMAL, NULL);
            size_t next;
            if (!st && s < d) {
                snprintf(id, sizeof id, "a%zu_t%zu", a, s);
                snprintf(name, sizeof name, "%s -> %s (step %zu)",
                         pn_kernel_node_name(k, from[a]), pn_kernel_node_name(k, to[a]), s);
                st = pn_net_add_transition(net, id, name, &next);
            } else
                next = first[to[a]];
            if (!st)
                st = pn_net_add_arc_at(net, NULL, PN_DIR_PT, pi, next, 1,
                                       PN_ARC_NORMAL, NULL);
            prev = next;
        }
    }
    free(first);
    free(last);
    free(t);
    free(from);
    free(to);
    if (st) {
        pn_net_free(net);
        return kfail(err, st, "cannot build the event graph: %s",
                     pn_strstatus(st));
    }
    *out = net;
    return PN_OK;
}
