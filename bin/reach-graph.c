/* pn-reach's graph of markings: the reachability graph written as DOT or
 * JSON, every dead marking listed, and the coverability graph of a net
 * that may not be bounded. */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lib_private.h"
#include "reach-graph.h"

/* Over the default memory of --coverability, nodes are refused: their
 * markings take 8 bytes a place each. */
#define COVER_MEMORY_DEFAULT (UINT64_C(1) << 30)
#define COVER_NODES_DEFAULT UINT64_C(1000000)

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

int reach_graph_format(const char *prog, reach_graph_t *g)
{
    if (ends_with(g->graph, ".dot") || ends_with(g->graph, ".gv"))
        g->fmt = PN_GRAPH_DOT;
    else if (ends_with(g->graph, ".json"))
        g->fmt = PN_GRAPH_JSON;
    else {
        fprintf(stderr, "%s: --graph %s: the name must end in .dot, .gv "
                "(Graphviz) or .json\n", prog, g->graph);
        return CLI_EUSAGE;
    }
    return -1;
}

/* The refusal of a graph over the limit. */
static int too_large(const char *prog, const reach_graph_t *g,
                     const char *what)
{
    fprintf(stderr, "%s: %s: the %s graph has more than %" PRIu64
            " markings: too large to write or draw; not written "
            "(--graph-limit N raises the limit)\n", prog, g->graph, what,
            g->limit);
    return EXIT_TOO_LARGE;
}

int reach_graph_write(const char *prog, const reach_graph_t *g,
                      const pn_net_t *net, const pn_reach_t *r, int capped)
{
    pn_reach_end_t end = pn_reach_end(r);
    if (capped && end == PN_REACH_MAX_STATES)
        return too_large(prog, g, "reachability");
    if (end != PN_REACH_COMPLETE) {
        fprintf(stderr, "%s: %s: %s: no graph written\n", prog, g->graph,
                end == PN_REACH_UNBOUNDED || end == PN_REACH_OVERFLOW
                    ? "the net is not bounded (pn-reach --coverability "
                      "writes its coverability graph)"
                    : "the search did not finish");
        return 4;
    }
    char *tmp;
    FILE *f = cli_output_open(g->graph, &tmp);
    if (!f)
        return CLI_EOUTPUT;
    pn_status_t st = pn_reach_graph_write(r, net, f, g->fmt);
    if (st == PN_ENOMEM)
        fprintf(stderr, "%s: %s: out of memory\n", prog, g->graph);
    return cli_output_close(f, tmp, g->graph, st == PN_OK);
}

/* A marking as place=count for its non-zero counts (omega as ω), or as a
 * JSON object. */
static void print_marking(const pn_net_t *net, const uint64_t *m, int json)
{
    size_t k = 0;
    fputs(json ? "{" : "", stdout);
    for (size_t p = 0; p < pn_net_place_count(net); p++) {
        if (!m[p])
            continue;
        fputs(k++ ? ", " : "", stdout);
        if (json) {
            pni_json_string(stdout, pn_net_place(net, p)->id, 0);
            fputs(": ", stdout);
        } else
            printf("%s=", pn_net_place(net, p)->id);
        if (m[p] == PN_OMEGA)
            fputs(json ? "\"\xcf\x89\"" : "\xcf\x89", stdout);
        else
            printf("%" PRIu64, m[p]);
    }
    fputs(json ? "}" : !k ? "(empty)" : "", stdout);
}

void reach_all_dead(const pn_net_t *net, const pn_reach_t *r, int json)
{
    uint64_t *m = malloc((pn_net_place_count(net) + 1) * sizeof *m);
    if (!m)
        return;
    if (json)
        printf(", \"dead_markings\": [");
    for (uint64_t s = 0, k = 0; s < pn_reach_states(r); s++) {
        if (!pn_reach_dead_state(r, s) || pn_reach_marking(r, s, m))
            continue;
        if (json)
            printf("%s", k ? ", " : "");
        else
            printf("dead marking %" PRIu64 ": ", k + 1);
        print_marking(net, m, json);
        k++;
        if (!json)
            printf("\n");
    }
    if (json)
        printf("]");
    free(m);
}

/* ---- --coverability ------------------------------------------------------- */

static void cover_text(const pn_net_t *net, const pn_cover_t *c,
                       const reach_graph_t *g, size_t unbounded)
{
    size_t np = pn_net_place_count(net);
    printf("net:         %s\n", pn_net_id(net) ? pn_net_id(net) : "-");
    printf("graph:       coverability (Karp-Miller, interleaving)\n");
    printf("search:      %s\n", pn_cover_complete(c)
                                    ? "complete"
                                    : "incomplete: the node limit was "
                                      "reached");
    printf("nodes:       %" PRIu64 "\n", pn_cover_nodes(c));
    printf("edges:       %" PRIu64 "\n", pn_cover_edges(c));
    if (!unbounded)
        printf("bounded:     %s\n", pn_cover_complete(c)
                   ? "yes (the graph is the reachability graph)"
                   : "unknown (the search did not finish)");
    else {
        printf("bounded:     no; unbounded (\xcf\x89):");
        for (size_t p = 0; p < np; p++)
            if (pn_cover_place_bound(c, p) == PN_OMEGA)
                printf(" %s", pn_net_place(net, p)->id);
        printf("\n");
    }
    uint64_t dead = 0;
    for (uint64_t i = 0; i < pn_cover_nodes(c); i++)
        dead += pn_cover_dead(c, i) != 0;
    printf("dead:        %" PRIu64 " dead node%s%s\n", dead,
           dead == 1 ? "" : "s",
           pn_cover_complete(c) ? "" : " (in the nodes found)");
    for (size_t p = 0; p < np; p++) {
        uint64_t b = pn_cover_place_bound(c, p);
        printf("bound:       %s ", pn_net_place(net, p)->id);
        if (b == PN_OMEGA)
            printf("\xcf\x89 (unbounded)\n");
        else
            printf("%s%" PRIu64 "\n", pn_cover_complete(c) ? "" : ">= ", b);
    }
    for (uint64_t i = 0, k = 0; g->all_dead && i < pn_cover_nodes(c); i++)
        if (pn_cover_dead(c, i)) {
            printf("dead marking %" PRIu64 ": ", ++k);
            print_marking(net, pn_cover_marking(c, i), 0);
            printf("\n");
        }
}

static void cover_json(const pn_net_t *net, const pn_cover_t *c,
                       const reach_graph_t *g, size_t unbounded)
{
    size_t np = pn_net_place_count(net);
    int full = pn_cover_complete(c);
    printf("{\"net\": ");
    pni_json_string(stdout, pn_net_id(net), 0);
    printf(", \"graph\": \"coverability\", \"complete\": %s, \"nodes\": %"
           PRIu64 ", \"edges\": %" PRIu64, full ? "true" : "false",
           pn_cover_nodes(c), pn_cover_edges(c));
    if (full || unbounded)
        printf(", \"bounded\": %s", unbounded ? "false" : "true");
    printf(", \"unbounded\": [");
    for (size_t p = 0, k = 0; p < np; p++)
        if (pn_cover_place_bound(c, p) == PN_OMEGA) {
            printf("%s", k++ ? ", " : "");
            pni_json_string(stdout, pn_net_place(net, p)->id, 0);
        }
    printf("], \"%s\": {", full ? "bounds" : "bounds_so_far");
    for (size_t p = 0; p < np; p++) {
        uint64_t b = pn_cover_place_bound(c, p);
        printf("%s", p ? ", " : "");
        pni_json_string(stdout, pn_net_place(net, p)->id, 0);
        if (b == PN_OMEGA)
            printf(": \"\xcf\x89\"");
        else
            printf(": %" PRIu64, b);
    }
    uint64_t dead = 0;
    for (uint64_t i = 0; i < pn_cover_nodes(c); i++)
        dead += pn_cover_dead(c, i) != 0;
    printf("}, \"%s\": %" PRIu64, full ? "dead" : "dead_found", dead);
    if (g->all_dead) {
        printf(", \"dead_markings\": [");
        for (uint64_t i = 0, k = 0; i < pn_cover_nodes(c); i++)
            if (pn_cover_dead(c, i)) {
                printf("%s", k++ ? ", " : "");
                print_marking(net, pn_cover_marking(c, i), 1);
            }
        printf("]");
    }
    printf("}\n");
}

int reach_coverability(const char *prog, const reach_graph_t *g,
                       const pn_net_t *net, uint64_t max_nodes,
                       uint64_t max_memory)
{
    size_t np = pn_net_place_count(net);
    uint64_t mem = max_memory ? max_memory : COVER_MEMORY_DEFAULT;
    uint64_t by_mem = mem / (8 * ((uint64_t)np + 1) + 32);
    uint64_t cap = max_nodes ? max_nodes : COVER_NODES_DEFAULT;
    if (by_mem < cap)
        cap = by_mem ? by_mem : 1;
    int capped = 0;
    if (g->graph && g->limit < cap) {
        cap = g->limit;
        capped = 1;
    }
    pn_cover_t *c = NULL;
    pn_status_t st = pn_cover_build(net, cap, &c);
    if (st == PN_EUNSUPPORTED) {
        fprintf(stderr, "%s: --coverability: the net has an inhibitor or "
                "reset arc or a capacity: Karp and Miller's construction is "
                "not sound there (pn-reach without --coverability explores "
                "its markings)\n", prog);
        return CLI_EUSAGE;
    }
    if (st) {
        fprintf(stderr, "%s: out of memory building the coverability "
                "graph\n", prog);
        return CLI_EINPUT;
    }
    if (capped && !pn_cover_complete(c)) {
        pn_cover_free(c);
        return too_large(prog, g, "coverability");
    }
    size_t unbounded = 0;
    for (size_t p = 0; p < np; p++)
        unbounded += pn_cover_place_bound(c, p) == PN_OMEGA;
    if (g->json)
        cover_json(net, c, g, unbounded);
    else
        cover_text(net, c, g, unbounded);
    int rc = pn_cover_complete(c) ? CLI_OK : 4;
    if (g->graph && !rc) {
        char *tmp;
        FILE *f = cli_output_open(g->graph, &tmp);
        if (!f)
            rc = CLI_EOUTPUT;
        else {
            st = pn_cover_graph_write(c, net, f, g->fmt);
            rc = cli_output_close(f, tmp, g->graph, st == PN_OK);
        }
    } else if (g->graph) {
        fprintf(stderr, "%s: %s: the search did not finish: no graph "
                "written\n", prog, g->graph);
    }
    pn_cover_free(c);
    return rc;
}
