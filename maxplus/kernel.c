/*
 * Kernel graphs of the max-plus model: the three models' arc times, the
 * paper's height and matrix method, and the longest-path method.
 */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "maxplus_private.h"

void pn_mp_params_init(pn_mp_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->model = PN_MP_OPS;
    p->executors = 1;
}

pn_status_t pn_mp_model_parse(const char *name, pn_mp_model_t *model)
{
    static const char *names[] = {"naive", "ops", "serialized"};
    for (int i = 0; name && i < 3; i++)
        if (!strcmp(name, names[i])) {
            *model = (pn_mp_model_t)i;
            return PN_OK;
        }
    return PN_EINVAL;
}

void pn_kernel_free(pn_kernel_t *k)
{
    if (!k)
        return;
    for (size_t i = 0; k->names && i < k->n; i++)
        free(k->names[i]);
    free(k->names);
    free(k->role);
    free(k->has_loop);
    free(k->loop);
    free(k->from);
    free(k->to);
    free(k->time);
    free(k);
}

size_t pn_kernel_node_count(const pn_kernel_t *k) { return k->n; }
const char *pn_kernel_node_name(const pn_kernel_t *k, size_t i)
{
    return i < k->n ? k->names[i] : NULL;
}
int pn_kernel_node_role(const pn_kernel_t *k, size_t i)
{
    return i < k->n ? k->role[i] : 0;
}
double pn_kernel_loop(const pn_kernel_t *k, size_t i)
{
    return i < k->n && k->has_loop[i] ? k->loop[i] : 0;
}
size_t pn_kernel_arc_count(const pn_kernel_t *k) { return k->na; }

/* Out-arcs of every node (CSR over arc indices): off has n + 1 entries;
 * the caller frees both.  Returns 0, or -1 when out of memory. */
static int out_arcs(const pn_kernel_t *k, size_t **off_out, size_t **adj_out)
{
    size_t *off = calloc(k->n + 2, sizeof *off);
    size_t *adj = malloc((k->na + 1) * sizeof *adj);
    size_t *fill = malloc((k->n + 1) * sizeof *fill);
    if (!off || !adj || !fill) {
        free(off);
        free(adj);
        free(fill);
        return -1;
    }
    for (size_t a = 0; a < k->na; a++)
        off[k->from[a] + 1]++;
    for (size_t v = 0; v < k->n; v++)
        off[v + 1] += off[v];
    memcpy(fill, off, k->n * sizeof *fill);
    for (size_t a = 0; a < k->na; a++)
        adj[fill[k->from[a]]++] = a;
    free(fill);
    *off_out = off;
    *adj_out = adj;
    return 0;
}

size_t pni_kernel_topo_order(const pn_kernel_t *k, size_t *order)
{
    size_t *indeg = calloc(k->n + 1, sizeof *indeg), *off, *adj;
    if (!indeg || out_arcs(k, &off, &adj)) {
        free(indeg);
        return (size_t)-1;
    }
    for (size_t a = 0; a < k->na; a++)
        indeg[k->to[a]]++;
    size_t qh = 0, qt = 0;
    for (size_t v = 0; v < k->n; v++)
        if (indeg[v] == 0)
            order[qt++] = v;
    while (qh < qt) {
        size_t v = order[qh++];
        for (size_t j = off[v]; j < off[v + 1]; j++)
            if (--indeg[k->to[adj[j]]] == 0)
                order[qt++] = k->to[adj[j]];
    }
    free(indeg);
    free(off);
    free(adj);
    return qt;
}

/* ---- the models -------------------------------------------------------- */

/* Arc times under the model, into t (k->na entries). */
static void model_times(const pn_kernel_t *k, const pn_mp_params_t *p,
                        double *t)
{
    double n = p && p->executors >= 1 ? p->executors : 1;
    size_t reads = 0, writes = 0;
    unsigned char *seen = calloc(k->n + 1, 1);
    for (size_t a = 0; a < k->na; a++)
        t[a] = k->time[a];
    if (p && p->cached && seen)
        for (size_t a = 0; a < k->na; a++) {
            size_t u = k->from[a];
            if (!(k->role[u] & 1))
                continue;
            if (seen[u])
                t[a] = p->cached_read; /* a repeated read of that input */
            seen[u] = 1;
        }
    if (p && p->model == PN_MP_SERIALIZED) {
        /* count the global reads and writes; cached repeats are no reads */
        if (seen)
            memset(seen, 0, k->n);
        int *is_read = calloc(k->na + 1, sizeof *is_read);
        for (size_t a = 0; is_read && a < k->na; a++) {
            size_t u = k->from[a];
            if (k->role[u] & 1) {
                is_read[a] = !(p->cached && seen && seen[u]);
                if (seen)
                    seen[u] = 1;
            }
            reads += is_read[a] != 0;
            writes += (k->role[k->to[a]] & 2) != 0;
        }
        size_t r = 0, w = 0;
        for (size_t a = 0; is_read && a < k->na; a++) {
            if (is_read[a]) {
                r++;
                t[a] += ((n - 1) * (double)reads + (double)r - 1) * p->dt;
            }
            if (k->role[k->to[a]] & 2) {
                w++;
                t[a] += ((n - 1) * (double)writes + (double)w - 1) * p->dT;
            }
        }
        free(is_read);
    }
    free(seen);
}

static int uses_loops(const pn_mp_params_t *p)
{
    return !p || p->model != PN_MP_NAIVE;
}

void pn_kernel_arc_ends(const pn_kernel_t *k, size_t a, size_t *from,
                        size_t *to)
{
    *from = a < k->na ? k->from[a] : PN_NONE;
    *to = a < k->na ? k->to[a] : PN_NONE;
}

pn_status_t pn_kernel_arc_times(const pn_kernel_t *k, const pn_mp_params_t *p,
                                double *times)
{
    if (!k || !times)
        return PN_EINVAL;
    model_times(k, p, times);
    return PN_OK;
}

pn_mp_t *pn_kernel_matrix(const pn_kernel_t *k, const pn_mp_params_t *p)
{
    pn_mp_t *z = pn_mp_new(k->n, k->n);
    double *t = malloc((k->na + 1) * sizeof *t);
    if (!z || !t) {
        pn_mp_free(z);
        free(t);
        return NULL;
    }
    model_times(k, p, t);
    for (size_t a = 0; a < k->na; a++)
        if (t[a] > pn_mp_get(z, k->to[a], k->from[a]))
            pn_mp_set(z, k->to[a], k->from[a], t[a]);
    if (uses_loops(p))
        for (size_t v = 0; v < k->n; v++)
            if (k->has_loop[v])
                pn_mp_set(z, v, v, k->loop[v]);
    free(t);
    return z;
}

unsigned pn_kernel_height(const pn_kernel_t *k, const pn_mp_params_t *p)
{
    /* the paper's procedure: in each round, first the nodes whose only
     * incoming arc is their own loop lose it; else the nodes without
     * incoming arcs are struck out */
    size_t n = k->n;
    size_t *indeg = calloc(n + 1, sizeof *indeg);
    unsigned char *loop = calloc(n + 1, 1), *gone = calloc(n + 1, 1);
    size_t *off = NULL, *adj = NULL, *cur = malloc((n + 1) * sizeof *cur);
    size_t *next = malloc((n + 1) * sizeof *next);
    unsigned rounds = 0;
    if (!indeg || !loop || !gone || !cur || !next || out_arcs(k, &off, &adj))
        goto out;
    for (size_t a = 0; a < k->na; a++)
        indeg[k->to[a]]++;
    if (uses_loops(p))
        for (size_t v = 0; v < n; v++)
            loop[v] = (unsigned char)k->has_loop[v];
    /* the current frontier: nodes without incoming arcs, not yet gone;
     * each round takes O(frontier + their arcs) */
    size_t ncur = 0;
    for (size_t v = 0; v < n; v++)
        if (indeg[v] == 0)
            cur[ncur++] = v;
    size_t remaining = n;
    while (remaining) {
        int any = 0;
        for (size_t i = 0; i < ncur; i++)
            if (loop[cur[i]]) {
                loop[cur[i]] = 0;
                any = 1;
            }
        if (!any) {
            if (ncur == 0)
                break; /* cannot happen: the graph was checked acyclic */
            size_t nnext = 0;
            for (size_t i = 0; i < ncur; i++) {
                size_t v = cur[i];
                gone[v] = 1;
                remaining--;
                for (size_t j = off[v]; j < off[v + 1]; j++)
                    if (--indeg[k->to[adj[j]]] == 0)
                        next[nnext++] = k->to[adj[j]];
            }
            size_t *tmp = cur;
            cur = next;
            next = tmp;
            ncur = nnext;
        }
        rounds++;
    }
out:
    free(indeg);
    free(loop);
    free(gone);
    free(off);
    free(adj);
    free(cur);
    free(next);
    return rounds ? rounds - 1 : 0;
}

pn_status_t pn_kernel_time_matrix(const pn_kernel_t *k,
                                  const pn_mp_params_t *p, double *r,
                                  double *paper)
{
    unsigned h = pn_kernel_height(k, p);
    pn_mp_t *z = pn_kernel_matrix(k, p);
    pn_mp_t *zk = z ? pn_mp_power(z, h) : NULL;
    /* Zh: loops folded into the arcs entering their node, plus E */
    pn_mp_t *a = z ? pn_mp_identity(k->n) : NULL;
    pn_status_t st = PN_OK;
    if (!z || !zk || !a) {
        st = PN_ENOMEM;
        goto out;
    }
    int loops = uses_loops(p);
    for (size_t i = 0; i < k->n; i++)
        for (size_t j = 0; j < k->n; j++)
            if (i != j && pn_mp_get(z, i, j) != PN_MP_EPS)
                pn_mp_set(a, i, j,
                          pn_mp_get(z, i, j) +
                              (loops && k->has_loop[i] ? k->loop[i] : 0));
    pn_mp_t *ak = pn_mp_power(a, h);
    if (!ak) {
        st = PN_ENOMEM;
        goto out;
    }
    double best = PN_MP_EPS, pbest = PN_MP_EPS;
    for (size_t o = 0; o < k->n; o++) {
        if (!(k->role[o] & 2))
            continue;
        for (size_t i = 0; i < k->n; i++) {
            if (!(k->role[i] & 1))
                continue;
            double start = loops && k->has_loop[i] ? k->loop[i] : 0;
            double v = pn_mp_get(ak, o, i) + start;
            if (v > best)
                best = v;
            if (pn_mp_get(zk, o, i) > pbest)
                pbest = pn_mp_get(zk, o, i);
        }
    }
    pn_mp_free(ak);
    *r = best;
    if (paper)
        *paper = pbest;
    /* times are finite: only a sum along a path can leave the doubles */
    if (isinf(best) > 0 || (paper && isinf(pbest) > 0))
        st = PN_ERANGE;
out:
    pn_mp_free(z);
    pn_mp_free(zk);
    pn_mp_free(a);
    return st;
}

/* Longest paths in topological order; pred[v] = arc realising dist[v]. */
static pn_status_t longest(const pn_kernel_t *k, const pn_mp_params_t *p,
                           double *dist, size_t *pred)
{
    size_t n = k->n;
    double *t = malloc((k->na + 1) * sizeof *t);
    size_t *order = malloc((n + 1) * sizeof *order);
    size_t *off = NULL, *adj = NULL;
    pn_status_t st = PN_OK;
    if (!t || !order || out_arcs(k, &off, &adj) ||
        pni_kernel_topo_order(k, order) == (size_t)-1) {
        st = PN_ENOMEM;
        goto out;
    }
    model_times(k, p, t);
    int loops = uses_loops(p);
    for (size_t v = 0; v < n; v++) {
        dist[v] = (k->role[v] & 1) ? 0 : PN_MP_EPS;
        pred[v] = (size_t)-1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t v = order[i];
        /* every arc into v is done: add v's own operation time */
        if (dist[v] != PN_MP_EPS && loops && k->has_loop[v])
            dist[v] += k->loop[v];
        for (size_t j = off[v]; j < off[v + 1]; j++) {
            size_t a = adj[j], w = k->to[a];
            if (dist[v] != PN_MP_EPS && dist[v] + t[a] > dist[w]) {
                dist[w] = dist[v] + t[a];
                pred[w] = a;
            }
        }
    }
out:
    free(t);
    free(order);
    free(off);
    free(adj);
    return st;
}

pn_status_t pn_kernel_time_graph(const pn_kernel_t *k,
                                 const pn_mp_params_t *p, double *r)
{
    double *dist = malloc((k->n + 1) * sizeof *dist);
    size_t *pred = malloc((k->n + 1) * sizeof *pred);
    pn_status_t st = dist && pred ? longest(k, p, dist, pred) : PN_ENOMEM;
    if (!st) {
        double best = PN_MP_EPS;
        for (size_t o = 0; o < k->n; o++)
            if ((k->role[o] & 2) && dist[o] > best)
                best = dist[o];
        *r = best;
        /* times are finite: only a sum along a path can leave the doubles */
        if (isinf(best) > 0)
            st = PN_ERANGE;
    }
    free(dist);
    free(pred);
    return st;
}

pn_status_t pn_kernel_critical_path(const pn_kernel_t *k,
                                    const pn_mp_params_t *p, size_t *path,
                                    size_t *n)
{
    double *dist = malloc((k->n + 1) * sizeof *dist);
    size_t *pred = malloc((k->n + 1) * sizeof *pred);
    pn_status_t st = dist && pred ? longest(k, p, dist, pred) : PN_ENOMEM;
    *n = 0;
    if (!st) {
        size_t best = (size_t)-1;
        for (size_t o = 0; o < k->n; o++)
            if ((k->role[o] & 2) &&
                (best == (size_t)-1 || dist[o] > dist[best]))
                best = o;
        size_t len = 0;
        for (size_t v = best; v != (size_t)-1 && len < k->n;
             v = pred[v] == (size_t)-1 ? (size_t)-1 : k->from[pred[v]])
            path[len++] = v;
        for (size_t i = 0; i < len / 2; i++) {
            size_t tmp = path[i];
            path[i] = path[len - 1 - i];
            path[len - 1 - i] = tmp;
        }
        *n = len;
    }
    free(dist);
    free(pred);
    return st;
}

