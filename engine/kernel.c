/*
 * Kernel graphs of the max-plus model: reading DOT through libcgraph,
 * symbolic times, the three models, the paper's height and matrix method,
 * the longest-path method, and the timed event graph for the engine.
 */
#include <config.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include "maxplus.h"

struct pn_kernel {
    size_t n;
    char **names;
    int *role;      /* bit 1 input, bit 2 output */
    int *has_loop;
    double *loop;
    size_t na;      /* arcs other than loops, in file order */
    size_t *from, *to;
    double *time;
};

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
    for (size_t i = 0; i < k->n; i++)
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

static pn_status_t kfail(pn_error_t *err, pn_status_t code, const char *fmt,
                         ...)
{
    if (err && !err->code) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* ---- symbolic times ---------------------------------------------------- */

typedef struct {
    char name[64];
    double value;
} binding_t;

typedef struct {
    const char *s;
    const binding_t *b;
    size_t nb;
    char unbound[64];
    int bad;
} expr_t;

static void skip_ws(expr_t *e)
{
    while (isspace((unsigned char)*e->s))
        e->s++;
}

static double expr_sum(expr_t *e);

static double expr_factor(expr_t *e)
{
    skip_ws(e);
    if (*e->s == '(') {
        e->s++;
        double v = expr_sum(e);
        skip_ws(e);
        if (*e->s != ')')
            e->bad = 1;
        else
            e->s++;
        return v;
    }
    if (*e->s == '-') {
        e->s++;
        return -expr_factor(e);
    }
    if (isdigit((unsigned char)*e->s) || *e->s == '.') {
        char *end;
        double v = strtod(e->s, &end);
        if (end == e->s)
            e->bad = 1;
        e->s = end;
        return v;
    }
    if (isalpha((unsigned char)*e->s) || *e->s == '_') {
        const char *start = e->s;
        while (isalnum((unsigned char)*e->s) || *e->s == '_')
            e->s++;
        size_t n = (size_t)(e->s - start);
        for (size_t i = 0; i < e->nb; i++)
            if (strlen(e->b[i].name) == n && !strncmp(e->b[i].name, start, n))
                return e->b[i].value;
        if (!e->unbound[0])
            snprintf(e->unbound, sizeof e->unbound, "%.*s", (int)n, start);
        return 0;
    }
    e->bad = 1;
    return 0;
}

static double expr_term(expr_t *e)
{
    double v = expr_factor(e);
    for (;;) {
        skip_ws(e);
        if (*e->s == '*') {
            e->s++;
            v *= expr_factor(e);
        } else if (*e->s == '/') {
            e->s++;
            v /= expr_factor(e);
        } else
            return v;
    }
}

static double expr_sum(expr_t *e)
{
    double v = expr_term(e);
    for (;;) {
        skip_ws(e);
        if (*e->s == '+') {
            e->s++;
            v += expr_term(e);
        } else if (*e->s == '-') {
            e->s++;
            v -= expr_term(e);
        } else
            return v;
    }
}

/* Parses "a=1,b=2.5"; returns the count or -1 (a bad item in *bad). */
static long parse_bindings(const char *s, binding_t **out, char *bad,
                           size_t badsize)
{
    *out = NULL;
    if (!s || !*s)
        return 0;
    size_t cap = 8, n = 0;
    binding_t *b = malloc(cap * sizeof *b);
    char *copy = strdup(s), *save = NULL;
    if (!b || !copy) {
        free(b);
        free(copy);
        return -2;
    }
    for (char *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        char *end = NULL;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || eq == item || (size_t)(eq - item) >= sizeof b->name ||
            !end || end == eq + 1 || *end || !isfinite(v)) {
            snprintf(bad, badsize, "%s", item);
            free(b);
            free(copy);
            return -1;
        }
        if (n == cap) {
            cap *= 2;
            binding_t *nb = realloc(b, cap * sizeof *b);
            if (!nb) {
                free(b);
                free(copy);
                return -2;
            }
            b = nb;
        }
        snprintf(b[n].name, sizeof b[n].name, "%.*s", (int)(eq - item), item);
        b[n].value = v;
        n++;
    }
    free(copy);
    *out = b;
    return (long)n;
}

/* ---- reading ----------------------------------------------------------- */

typedef struct {
    Agedge_t *e;
    IDTYPE seq;
} edge_ref_t;

static int cmp_edge(const void *a, const void *b)
{
    IDTYPE x = ((const edge_ref_t *)a)->seq, y = ((const edge_ref_t *)b)->seq;
    return x < y ? -1 : x > y;
}

/* Out-arcs of every node (CSR over arc indices): off has n + 1 entries. */
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

pn_status_t pn_kernel_read_dot(const char *path, const char *bindings,
                               pn_kernel_t **out, pn_error_t *err)
{
    pn_error_t dummy;
    if (!err)
        err = &dummy;
    pn_error_clear(err);
    if (!path || !out)
        return kfail(err, PN_EINVAL, "invalid argument");
    *out = NULL;
    snprintf(err->file, sizeof err->file, "%s", path);
    binding_t *b = NULL;
    char badb[128] = "";
    long nb = parse_bindings(bindings, &b, badb, sizeof badb);
    if (nb == -1)
        return kfail(err, PN_EINVAL, "--set: '%s' is not NAME=NUMBER", badb);
    if (nb < 0)
        return kfail(err, PN_ENOMEM, "out of memory");
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        free(b);
        return kfail(err, PN_EIO, "cannot read: %s", strerror(errno));
    }
    agseterr(AGMAX);
    Agraph_t *g = agread(f, NULL);
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
    size_t *indeg = NULL, *queue = NULL;
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
        expr_t ex = {tm, b, (size_t)(nb > 0 ? nb : 0), "", 0};
        double v = expr_sum(&ex);
        skip_ws(&ex);
        if (ex.unbound[0]) {
            st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': time '%s' uses the "
                       "unbound symbol '%s' (bind it: --set %s=VALUE)",
                       k->names[from], k->names[to], tm, ex.unbound,
                       ex.unbound);
            goto done;
        }
        if (ex.bad || *ex.s || !isfinite(v)) {
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
    indeg = calloc(n + 1, sizeof *indeg);
    if (!outdeg || !indeg) {
        free(outdeg);
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
    /* no cycles other than loops (Kahn) */
    left = malloc(n + 1);
    queue = malloc((n + 1) * sizeof *queue);
    if (!left || !queue) {
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    memset(left, 1, n);
    size_t qh = 0, qt = 0, *aoff, *adj;
    if (out_arcs(k, &aoff, &adj)) {
        st = kfail(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t v = 0; v < n; v++)
        if (indeg[v] == 0)
            queue[qt++] = v;
    while (qh < qt) {
        size_t v = queue[qh++];
        left[v] = 0;
        for (size_t j = aoff[v]; j < aoff[v + 1]; j++)
            if (--indeg[k->to[adj[j]]] == 0)
                queue[qt++] = k->to[adj[j]];
    }
    free(aoff);
    free(adj);
    if (qt < n) {
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
    free(indeg);
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

void pn_kernel_arc(const pn_kernel_t *k, const pn_mp_params_t *p, size_t a,
                   size_t *from, size_t *to, double *time)
{
    double *t = malloc((k->na + 1) * sizeof *t);
    if (t)
        model_times(k, p, t);
    *from = k->from[a];
    *to = k->to[a];
    *time = t ? t[a] : k->time[a];
    free(t);
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
    size_t *indeg = calloc(n + 1, sizeof *indeg);
    size_t *off = calloc(n + 2, sizeof *off), *adj = malloc((k->na + 1) *
                                                            sizeof *adj);
    size_t *queue = malloc((n + 1) * sizeof *queue);
    pn_status_t st = PN_OK;
    if (!t || !indeg || !off || !adj || !queue) {
        st = PN_ENOMEM;
        goto out;
    }
    model_times(k, p, t);
    /* out-arcs of each node (CSR), so the whole pass is O(nodes + arcs) */
    for (size_t a = 0; a < k->na; a++) {
        off[k->from[a] + 1]++;
        indeg[k->to[a]]++;
    }
    for (size_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    {
        size_t *fill = malloc((n + 1) * sizeof *fill);
        if (!fill) {
            st = PN_ENOMEM;
            goto out;
        }
        memcpy(fill, off, n * sizeof *fill);
        for (size_t a = 0; a < k->na; a++)
            adj[fill[k->from[a]]++] = a;
        free(fill);
    }
    int loops = uses_loops(p);
    for (size_t v = 0; v < n; v++) {
        dist[v] = (k->role[v] & 1) ? 0 : PN_MP_EPS;
        pred[v] = (size_t)-1;
    }
    size_t qh = 0, qt = 0;
    for (size_t v = 0; v < n; v++)
        if (indeg[v] == 0)
            queue[qt++] = v;
    while (qh < qt) {
        size_t v = queue[qh++];
        /* every arc into v is done: add v's own operation time */
        if (dist[v] != PN_MP_EPS && loops && k->has_loop[v])
            dist[v] += k->loop[v];
        for (size_t j = off[v]; j < off[v + 1]; j++) {
            size_t a = adj[j], w = k->to[a];
            if (dist[v] != PN_MP_EPS && dist[v] + t[a] > dist[w]) {
                dist[w] = dist[v] + t[a];
                pred[w] = a;
            }
            if (--indeg[w] == 0)
                queue[qt++] = w;
        }
    }
out:
    free(t);
    free(indeg);
    free(off);
    free(adj);
    free(queue);
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

/* ---- the timed event graph --------------------------------------------- */

static int is_int(double v) { return v == floor(v) && v < 1e7; }

pn_status_t pn_kernel_event_graph(const pn_kernel_t *k,
                                  const pn_mp_params_t *p, pn_net_t **out,
                                  pn_error_t *err)
{
    pn_error_t dummy;
    if (!err)
        err = &dummy;
    *out = NULL;
    if (p && p->model == PN_MP_SERIALIZED)
        return kfail(err, PN_EINVAL, "the event graph is built for the naive "
                     "and ops models");
    double *t = malloc((k->na + 1) * sizeof *t);
    if (!t)
        return kfail(err, PN_ENOMEM, "out of memory");
    model_times(k, p, t);
    int loops = uses_loops(p);
    for (size_t a = 0; a < k->na; a++)
        if (!is_int(t[a]) || t[a] < 1) {
            pn_status_t st = kfail(err, PN_EVALUE, "arc '%s' -> '%s': time "
                                   "%g: the event graph needs integer arc "
                                   "times >= 1", k->names[k->from[a]],
                                   k->names[k->to[a]], t[a]);
            free(t);
            return st;
        }
    for (size_t v = 0; loops && v < k->n; v++)
        if (k->has_loop[v] && !is_int(k->loop[v])) {
            free(t);
            return kfail(err, PN_EVALUE, "node '%s': operation time %g: the "
                         "event graph needs integer times", k->names[v],
                         k->loop[v]);
        }
    pn_net_t *net = pn_net_new("kernel");
    pn_status_t st = net ? PN_OK : PN_ENOMEM;
    char id[96], id2[96], name[300];
    size_t *first = malloc((k->n + 1) * sizeof *first);
    size_t *last = malloc((k->n + 1) * sizeof *last);
    if (!first || !last)
        st = PN_ENOMEM;
    /* each node: transitions n<v>_0 .. n<v>_tau (its operation time) */
    for (size_t v = 0; !st && v < k->n; v++) {
        size_t tau = loops && k->has_loop[v] ? (size_t)k->loop[v] : 0;
        for (size_t s = 0; !st && s <= tau; s++) {
            snprintf(id, sizeof id, "n%zu_%zu", v, s);
            if (s == 0)
                snprintf(name, sizeof name, "%s", k->names[v]);
            else
                snprintf(name, sizeof name, "%s (operation, step %zu)",
                         k->names[v], s);
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
        if (!st && (k->role[v] & 1)) {
            snprintf(id, sizeof id, "start%zu", v);
            snprintf(name, sizeof name, "start of %s", k->names[v]);
            size_t pi;
            st = pn_net_add_place(net, id, name, 1, &pi);
            if (!st)
                st = pn_net_add_arc_at(net, NULL, PN_DIR_PT, pi, first[v], 1,
                                       PN_ARC_NORMAL, NULL);
        }
    }
    /* each arc of time d: d places with d - 1 transitions between them */
    for (size_t a = 0; !st && a < k->na; a++) {
        size_t d = (size_t)t[a];
        size_t prev = last[k->from[a]];
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
                         k->names[k->from[a]], k->names[k->to[a]], s);
                st = pn_net_add_transition(net, id, name, &next);
            } else
                next = first[k->to[a]];
            if (!st)
                st = pn_net_add_arc_at(net, NULL, PN_DIR_PT, pi, next, 1,
                                       PN_ARC_NORMAL, NULL);
            prev = next;
        }
    }
    free(first);
    free(last);
    free(t);
    if (st) {
        pn_net_free(net);
        return kfail(err, st, "cannot build the event graph: %s",
                     pn_strstatus(st));
    }
    *out = net;
    return PN_OK;
}
