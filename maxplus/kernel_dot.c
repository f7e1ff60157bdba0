/*
 * Reading kernel graphs from Graphviz DOT through libcgraph: the only file
 * of maxplus/ that calls Graphviz.
 */
#include <config.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include "lib_private.h"
#include "maxplus_private.h"

#define kfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

/* A node on a cycle among the nodes Kahn's algorithm could not remove. */
static size_t node_on_cycle(const pn_kernel_t *k, const unsigned char *left)
{
    size_t v = 0;
    while (v < k->n && !left[v])
        v++;
    /* walk predecessors inside the remaining set: after n steps the walk is
     * on a cycle */
    for (size_t step = 0; step < k->n; step++) {
        for (size_t a = 0; a < k->na; a++)
            if (k->to[a] == v && left[k->from[a]]) {
                v = k->from[a];
                break;
            }
    }
    return v;
}

typedef struct {
    Agedge_t *e;
    IDTYPE seq;
} edge_ref_t;

static int cmp_edge(const void *a, const void *b)
{
    IDTYPE x = ((const edge_ref_t *)a)->seq, y = ((const edge_ref_t *)b)->seq;
    return x < y ? -1 : x > y;
}

pn_status_t pn_kernel_read_dot(const char *path, const char *bindings,
                               pn_kernel_t **out, pn_error_t *err)
{
    pni_error_begin(err, path);
    if (!path || !out)
        return kfail(err, PN_EINVAL, "invalid argument");
    *out = NULL;
    pni_binding_t *b = NULL;
    char badb[128] = "";
    long nb = pni_bindings_parse(bindings, &b, badb, sizeof badb);
    if (nb == -1)
        return kfail(err, PN_EINVAL, "binding '%s' is not NAME=NUMBER", badb);
    if (nb < 0)
        return kfail(err, PN_ENOMEM, "out of memory");
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        free(b);
        return kfail(err, PN_EIO, "cannot read: %s", strerror(errno));
    }
    /* cgraph's error level is process-wide: quiet only while reading */
    agerrlevel_t level = agseterr(AGMAX);
    Agraph_t *g = agread(f, NULL);
    agseterr(level);
    if (f != stdin)
        fclose(f);
    if (!g) {
        char *why = aglasterr();
        free(b);
        return kfail(err, PN_EXML, "not a Graphviz DOT graph%s%s",
                     why ? ": " : "", why ? why : "");
    }
    pn_status_t st = PN_OK;
    pn_kernel_t *k = calloc(1, sizeof *k);
    size_t n = (size_t)agnnodes(g), ne = (size_t)agnedges(g);
    edge_ref_t *edges = malloc((ne + 1) * sizeof *edges);
    size_t *index_of = NULL;
    unsigned char *left = NULL;
    size_t *queue = NULL;
    if (!k || !edges) {
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    k->n = n;
    k->names = calloc(n + 1, sizeof *k->names);
    k->role = calloc(n + 1, sizeof *k->role);
    k->has_loop = calloc(n + 1, sizeof *k->has_loop);
    k->loop = calloc(n + 1, sizeof *k->loop);
    k->from = malloc((ne + 1) * sizeof *k->from);
    k->to = malloc((ne + 1) * sizeof *k->to);
    k->time = malloc((ne + 1) * sizeof *k->time);
    if (!k->names || !k->role || !k->has_loop || !k->loop || !k->from ||
        !k->to || !k->time) {
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    /* nodes in file order: their sequence numbers index them */
    size_t i = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v), i++) {
        k->names[i] = strdup(agnameof(v));
        if (!k->names[i]) {
            st = kfail(err, PN_ENOMEM, "out of memory");
            goto done;
        }
        char *role = agget(v, "role");
        if (role && *role) {
            if (!strcmp(role, "input"))
                k->role[i] = 1;
            else if (!strcmp(role, "output"))
                k->role[i] = 2;
            else if (!strcmp(role, "inner"))
                k->role[i] = 4; /* given: never inferred */
            else {
                st = kfail(err, PN_ESTRUCT, "node '%s': role '%s' (input, "
                           "output or inner)", k->names[i], role);
                goto done;
            }
        }
    }
    /* node index from its sequence number */
    IDTYPE maxseq = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        if (AGSEQ(v) > maxseq)
            maxseq = AGSEQ(v);
    index_of = malloc(((size_t)maxseq + 2) * sizeof *index_of);
    if (!index_of) {
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    i = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        index_of[AGSEQ(v)] = i++;
    size_t m = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        for (Agedge_t *e = agfstout(g, v); e; e = agnxtout(g, e)) {
            edges[m].e = e;
            edges[m].seq = AGSEQ(e);
            m++;
        }
    qsort(edges, m, sizeof *edges, cmp_edge);
    for (size_t j = 0; j < m; j++) {
        Agedge_t *e = edges[j].e;
        Agnode_t *tail = agtail(e), *head = aghead(e);
        size_t from = index_of[AGSEQ(tail)], to = index_of[AGSEQ(head)];
        char *tm = agget(e, "time");
        if (!tm || !*tm) {
            st = kfail(err, PN_EVALUE, "arc '%s' -> '%s' has no time "
                       "attribute", k->names[from], k->names[to]);
            goto done;
        }
        double v;
        char unbound[64];
        pni_expr_status_t es = pni_expr_eval(tm, b, (size_t)(nb > 0 ? nb : 0),
                                             &v, unbound, sizeof unbound);
        if (es == PNI_EXPR_UNBOUND) {
            st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': time '%s' uses the "
                       "unbound symbol '%s' (give it a value: %s=VALUE)",
                       k->names[from], k->names[to], tm, unbound, unbound);
            goto done;
        }
        if (es == PNI_EXPR_DEEP) {
            st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': the time nests "
                       "parentheses or signs deeper than %d",
                       k->names[from], k->names[to], PNI_EXPR_MAX_DEPTH);
            goto done;
        }
        if (es != PNI_EXPR_OK || !isfinite(v)) {
            st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': cannot read the "
                       "time '%s'", k->names[from], k->names[to], tm);
            goto done;
        }
        if (v < 0) {
            st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': negative time "
                       "'%s' = %g", k->names[from], k->names[to], tm, v);
            goto done;
        }
        if (from == to) {
            if (k->has_loop[from]) {
                st = kfail(err, PN_ESTRUCT, "node '%s' has two loops",
                           k->names[from]);
                goto done;
            }
            k->has_loop[from] = 1;
            k->loop[from] = v;
            continue;
        }
        k->from[k->na] = from;
        k->to[k->na] = to;
        k->time[k->na] = v;
        k->na++;
    }
    /* roles inferred from degrees (loops do not count) */
    size_t *outdeg = calloc(n + 1, sizeof *outdeg);
    size_t *indeg = calloc(n + 1, sizeof *indeg);
    if (!outdeg || !indeg) {
        free(outdeg);
        free(indeg);
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t a = 0; a < k->na; a++) {
        outdeg[k->from[a]]++;
        indeg[k->to[a]]++;
    }
    int nin = 0, nout = 0;
    for (size_t v = 0; v < n; v++) {
        if (k->role[v] == 0)
            k->role[v] = (indeg[v] == 0 ? 1 : 0) | (outdeg[v] == 0 ? 2 : 0);
        if (k->role[v] == 4)
            k->role[v] = 0;
        nin += (k->role[v] & 1) != 0;
        nout += (k->role[v] & 2) != 0;
    }
    free(outdeg);
    free(indeg);
    /* no cycles other than loops */
    queue = malloc((n + 1) * sizeof *queue);
    size_t ordered = queue ? pni_kernel_topo_order(k, queue) : (size_t)-1;
    if (ordered == (size_t)-1) {
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    if (ordered < n) {
        /* a node left over that has a left-over predecessor lies on or
         * after a cycle; walking predecessors n times lands on one */
        left = calloc(n + 1, 1);
        if (!left) {
            st = kfail(err, PN_ENOMEM, "out of memory");
            goto done;
        }
        memset(left, 1, n);
        for (size_t j = 0; j < ordered; j++)
            left[queue[j]] = 0;
        st = kfail(err, PN_EARC, "node '%s' is on a cycle: kernel graphs have "
                   "no loops but a node's own (no data-dependent loops)",
                   k->names[node_on_cycle(k, left)]);
        goto done;
    }
    if (n == 0 || !nin || !nout) {
        st = kfail(err, PN_ESTRUCT, "the graph has no %s node",
                   n == 0 || !nin ? "input" : "output");
        goto done;
    }
done:
    free(index_of);
    free(edges);
    free(left);
    free(queue);
    free(b);
    agclose(g);
    if (st) {
        pn_kernel_free(k);
        return st;
    }
    *out = k;
    return PN_OK;
}

