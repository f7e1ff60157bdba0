/*
 * pn/eventgraph.h - the timed event graph of a max-plus kernel graph, as a
 * place/transition net for the engine (doc/maxplus.md, last section).
 *
 * Ownership: pn_kernel_event_graph() returns a net the caller frees
 * (pn_net_free()).
 */
#ifndef PN_EVENTGRAPH_H
#define PN_EVENTGRAPH_H

#include "net.h"
#include "maxplus.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The timed event graph of the kernel: each node v becomes transitions
 * n<v>_0 .. n<v>_tau (tau its operation time), each arc of time d a chain
 * of d places a<a>_p<s> and d - 1 transitions a<a>_t<s>, each input a
 * marked place start<v>.  Run with maximal steps it takes exactly r + 1
 * steps.  Arc times must be integers >= 1 and loop times integers >= 0
 * (PN_EVALUE, with err naming the arc or node); models naive and ops only
 * (PN_EINVAL); the net has at most PN_EVENT_GRAPH_MAX_NODES places and
 * transitions in all (PN_ETOOBIG, checked before anything is built).
 * Cost: O(nodes + arcs + the sum of the times). */
/* The most places and transitions an event graph may have (about 270 MB
 * of PNML). */
#define PN_EVENT_GRAPH_MAX_NODES 1000000

pn_status_t pn_kernel_event_graph(const pn_kernel_t *k,
                                  const pn_mp_params_t *p, pn_net_t **out,
                                  pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
