/* The Kanban system's steady state computed apart from pn-solve, for
 * make bench-solve (tests/gspn/kanban-reference.py does the same in
 * Python for the small N of the tests): the chain is built from PRISM's
 * module text of the model (prism-examples/kanban/kanban.sm in
 * prismmodelchecker/prism), each cell's w, x, y, z in four bits of one
 * 64-bit key, not from the net, and solved by Gauss-Seidel down to a
 * relative residual of 1e-15.  Prints the states, the throughput of [in]
 * and each cell's tokens x + y + z.  Usage: kanban-reference N (N < 16) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W, X, Y, Z };
static int N;
static uint64_t *keys, *states;
static uint32_t *vals;
static size_t cap, nst;
typedef struct {
    uint32_t from, to;
    double rate;
    int in; /* the [in] action */
} edge_t;
static edge_t *edges;
static size_t ne, cape;

static void *xalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p) {
        fprintf(stderr, "kanban-reference: out of memory\n");
        exit(1);
    }
    return p;
}

static uint32_t find(uint64_t k)
{
    size_t h = (size_t)((k * 0x9e3779b97f4a7c15u) >> 20) & (cap - 1);
    for (; keys[h] != UINT64_MAX; h = (h + 1) & (cap - 1))
        if (keys[h] == k)
            return vals[h];
    if (2 * nst >= cap) {
        fprintf(stderr, "kanban-reference: too many states\n");
        exit(1);
    }
    keys[h] = k;
    vals[h] = (uint32_t)nst;
    states[nst] = k;
    return (uint32_t)nst++;
}

static int get(uint64_t s, int c, int v)
{
    return (int)((s >> (4 * (4 * c + v))) & 15);
}

static uint64_t add(uint64_t s, int c, int v, int d)
{
    return s + ((uint64_t)(int64_t)d << (4 * (4 * c + v)));
}

static void edge(uint32_t from, uint64_t to, double rate, int in)
{
    if (ne == cape) {
        cape = cape ? 2 * cape : 1 << 20;
        edges = realloc(edges, cape * sizeof *edges);
        if (!edges)
            exit(1);
    }
    uint32_t t = find(to);
    edges[ne++] = (edge_t){from, t, rate, in};
}

/* PRISM's commands out of state i; [s1] and [s2] synchronize cells. */
static void successors(uint32_t i)
{
    static const double redo[4] = {0.36, 0.42, 0.39, 0.33};
    static const double ok[4] = {0.84, 0.98, 0.91, 0.77};
    uint64_t s = states[i], n;
    if (get(s, 0, W) < N && get(s, 0, X) < N)
        edge(i, add(add(s, 0, W, 1), 0, X, 1), 1.0, 1);
    for (int c = 0; c < 4; c++) {
        if (get(s, c, X) > 0 && get(s, c, Y) < N)
            edge(i, add(add(s, c, X, -1), c, Y, 1), redo[c], 0);
        if (get(s, c, X) > 0 && get(s, c, Z) < N)
            edge(i, add(add(s, c, X, -1), c, Z, 1), ok[c], 0);
        if (get(s, c, Y) > 0 && get(s, c, X) < N)
            edge(i, add(add(s, c, Y, -1), c, X, 1), 0.3, 0);
    }
    if (get(s, 0, Z) > 0 && get(s, 0, W) > 0 && get(s, 1, W) < N &&
        get(s, 1, X) < N && get(s, 2, W) < N && get(s, 2, X) < N) {
        n = add(add(s, 0, Z, -1), 0, W, -1);
        n = add(add(n, 1, W, 1), 1, X, 1);
        edge(i, add(add(n, 2, W, 1), 2, X, 1), 0.4, 0);
    }
    if (get(s, 1, Z) > 0 && get(s, 1, W) > 0 && get(s, 2, Z) > 0 &&
        get(s, 2, W) > 0 && get(s, 3, W) < N && get(s, 3, X) < N) {
        n = add(add(s, 1, Z, -1), 1, W, -1);
        n = add(add(n, 2, Z, -1), 2, W, -1);
        edge(i, add(add(n, 3, W, 1), 3, X, 1), 0.5, 0);
    }
    if (get(s, 3, Z) > 0 && get(s, 3, W) > 0)
        edge(i, add(add(s, 3, Z, -1), 3, W, -1), 0.9, 0);
}

int main(int argc, char **argv)
{
    N = argc > 1 ? atoi(argv[1]) : 0;
    if (N < 1 || N > 15) {
        fprintf(stderr, "usage: kanban-reference N (1 to 15)\n");
        return 2;
    }
    cap = (size_t)1 << 24;
    keys = xalloc(cap * sizeof *keys);
    memset(keys, 0xff, cap * sizeof *keys);
    vals = xalloc(cap * sizeof *vals);
    states = xalloc(cap / 2 * sizeof *states);
    find(0);
    for (size_t i = 0; i < nst; i++)
        successors((uint32_t)i);
    size_t n = nst, *off = xalloc((n + 1) * sizeof *off);
    size_t *at = xalloc(n * sizeof *at);
    double *d = xalloc(n * sizeof *d), *x = xalloc(n * sizeof *x);
    uint32_t *src = xalloc(ne * sizeof *src);
    double *rate = xalloc(ne * sizeof *rate);
    for (size_t k = 0; k < ne; k++) {
        d[edges[k].from] += edges[k].rate;
        off[edges[k].to + 1]++;
    }
    for (size_t j = 0; j < n; j++)
        off[j + 1] += off[j];
    for (size_t k = 0; k < ne; k++) {
        size_t p = off[edges[k].to] + at[edges[k].to]++;
        src[p] = edges[k].from;
        rate[p] = edges[k].rate;
    }
    for (size_t j = 0; j < n; j++)
        x[j] = 1.0 / (double)n;
    double rel = 1;
    int sweeps = 0;
    while (rel > 1e-15 && sweeps < 100000) {
        double sum = 0;
        for (size_t j = 0; j < n; j++) {
            double v = 0;
            for (size_t p = off[j]; p < off[j + 1]; p++)
                v += x[src[p]] * rate[p];
            sum += x[j] = v / d[j];
        }
        for (size_t j = 0; j < n; j++)
            x[j] /= sum;
        if (++sweeps % 10)
            continue;
        double res = 0, flow = 0;
        for (size_t j = 0; j < n; j++) {
            double v = x[j] * d[j];
            flow += v;
            for (size_t p = off[j]; p < off[j + 1]; p++)
                v -= x[src[p]] * rate[p];
            res += fabs(v);
        }
        rel = res / flow;
    }
    double thr = 0, cell[4] = {0};
    for (size_t k = 0; k < ne; k++)
        if (edges[k].in)
            thr += x[edges[k].from] * edges[k].rate;
    for (size_t j = 0; j < n; j++)
        for (int c = 0; c < 4; c++)
            cell[c] += x[j] * (get(states[j], c, X) + get(states[j], c, Y) +
                               get(states[j], c, Z));
    printf("states %zu\nsweeps %d\nrelative %.3g\nthroughput %.15g\n", n,
           sweeps, rel, thr);
    for (int c = 0; c < 4; c++)
        printf("cell%d %.15g\n", c + 1, cell[c]);
    return 0;
}
