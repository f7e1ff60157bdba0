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

/* ---- the file: one digraph ------------------------------------------- */

/* The file in memory, handed to cgraph a line at a time (as its own
 * reader does): cgraph stops after the first graph, and a second read
 * from the same place finds what follows it. */
typedef struct {
    const char *p, *end;
} dot_chan_t;

static int dot_read(void *chan, char *buf, int bufsize)
{
    dot_chan_t *c = chan;
    size_t left = (size_t)(c->end - c->p);
    size_t room = bufsize > 1 ? (size_t)bufsize - 1 : 0;
    const char *nl = memchr(c->p, '\n', left);
    size_t n = nl ? (size_t)(nl + 1 - c->p) : left;
    if (n > room)
        n = room;
    memcpy(buf, c->p, n);
    buf[n] = '\0';
    c->p += n;
    return (int)n;
}

static int dot_putstr(void *chan, const char *str)
{
    (void)chan;
    (void)str;
    return EOF; /* never written through */
}

static int dot_flush(void *chan)
{
    (void)chan;
    return 0;
}

/* The file's text and what cgraph reads it through; it outlives the
 * graph (the graph keeps the discipline). */
typedef struct {
    char *text;
    size_t len;
    dot_chan_t chan;
    Agiodisc_t io;
    Agdisc_t disc;
} dot_input_t;

/* Skips white space and comments (C and C++ style, and lines starting
 * with #) from p in the text that starts at start; counts the lines
 * passed into *line. */
static const char *dot_skip(const char *start, const char *p,
                            const char *end, unsigned long *line)
{
    int bol = p == start || p[-1] == '\n';
    while (p < end) {
        if (*p == '\n') {
            ++*line;
            bol = 1;
            p++;
        } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' ||
                   *p == '\v')
            p++;
        else if (*p == '#' && bol)
            while (p < end && *p != '\n')
                p++;
        else if (*p == '/' && p + 1 < end && p[1] == '/')
            while (p < end && *p != '\n')
                p++;
        else if (*p == '/' && p + 1 < end && p[1] == '*') {
            for (p += 2; p < end && !(*p == '*' && p + 1 < end && p[1] == '/');
                 p++)
                if (*p == '\n')
                    ++*line;
            p = p < end ? p + 2 : end;
        } else
            return p;
    }
    return end;
}

/* Where the first graph of text ends (after its closing brace: quoted
 * and HTML strings and comments skipped), with *line the line it ends
 * on; NULL when no end is found.  Only for naming a line. */
static const char *dot_graph_end(const char *start, const char *end,
                                 unsigned long *line)
{
    const char *p = start;
    int depth = 0;
    *line = 1;
    while ((p = dot_skip(start, p, end, line)) < end) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++) {
                if (*p == '\\' && p + 1 < end)
                    p++;
                if (*p == '\n')
                    ++*line;
            }
            p += p < end;
        } else if (*p == '<' && depth > 0) {
            int html = 0;
            for (; p < end; p++) {
                html += *p == '<' ? 1 : *p == '>' ? -1 : 0;
                if (*p == '\n')
                    ++*line;
                if (!html)
                    break;
            }
            p += p < end;
        } else if (*p == '{') {
            depth++;
            p++;
        } else if (*p == '}') {
            p++;
            if (--depth == 0)
                return p;
        } else
            p++;
    }
    return NULL;
}

/* The line where the first token of text after the first graph is, 0
 * when it cannot be told. */
static unsigned long second_graph_line(const dot_input_t *in)
{
    unsigned long line;
    const char *end = in->text + in->len;
    const char *p = dot_graph_end(in->text, end, &line);
    if (!p)
        return 0;
    p = dot_skip(in->text, p, end, &line);
    return p < end ? line : 0;
}

/* cgraph's last message, on one line and safe to show (it may quote the
 * file: 80 bytes of a long string).  aglasterr() returns a new string. */
static const char *cgraph_why(char *buf, size_t size)
{
    char *why = aglasterr();
    char line[256];
    size_t n = 0;
    for (; why && why[n] && n < sizeof line; n++)
        line[n] = why[n] == '\n' ? ' ' : why[n];
    free(why);
    while (n && line[n - 1] == ' ')
        n--;
    return pni_quote(buf, size, line, n, 200);
}

/* Reads the file and parses its one graph, a digraph.  cgraph's error
 * level is process-wide: it is quiet only while reading. */
static pn_status_t read_graph(const char *path, dot_input_t *in,
                              Agraph_t **out, pn_error_t *err)
{
    if (pni_slurp(strcmp(path, "-") ? path : NULL, &in->text, &in->len))
        return kfail(err, errno == ENOMEM ? PN_ENOMEM : PN_EIO,
                     "cannot read: %s", strerror(errno));
    in->chan = (dot_chan_t){in->text, in->text + in->len};
    in->io = (Agiodisc_t){dot_read, dot_putstr, dot_flush};
    in->disc = (Agdisc_t){&AgMemDisc, &AgIdDisc, &in->io};
    char why[1024];
    /* quiet while reading; cgraph's error tally (agerrors()) tells a
     * failed read from the end of the file, and is left at 0 */
    agerrlevel_t level = agseterr(AGMAX);
    agreseterrors();
    Agraph_t *g = agread(&in->chan, &in->disc);
    int bad = agerrors() >= AGERR;
    if (bad)
        cgraph_why(why, sizeof why);
    /* what follows the graph: nothing, or it is refused */
    Agraph_t *g2 = NULL;
    int bad2 = 0;
    if (g && !bad) {
        agreseterrors();
        g2 = agread(&in->chan, &in->disc);
        bad2 = agerrors() >= AGERR;
        if (bad2)
            cgraph_why(why, sizeof why);
    }
    agreseterrors();
    agseterr(level);
    if (g2)
        agclose(g2);
    if (!g || bad) {
        if (g)
            agclose(g);
        return kfail(err, PN_EXML, "not a Graphviz DOT graph%s%s",
                     bad ? ": " : "", bad ? why : "");
    }
    *out = g;
    if (bad2)
        return kfail(err, PN_EXML, "after the graph: not a Graphviz DOT "
                     "graph: %s", why);
    if (g2)
        return pni_error(err, PN_ESTRUCT, second_graph_line(in), 0,
                         "a second graph: a kernel graph file holds one "
                         "digraph");
    if (!agisdirected(g)) {
        unsigned long line = 1;
        dot_skip(in->text, in->text, in->text + in->len, &line);
        return pni_error(err, PN_ESTRUCT, line, 0, "an undirected graph "
                         "('graph', arcs a -- b): a kernel graph is a "
                         "'digraph' (arcs a -> b)");
    }
    return PN_OK;
}

/* A kernel with room for n nodes and ne arcs (loops included). */
static pn_status_t kernel_new(size_t n, size_t ne, pn_kernel_t **out,
                              pn_error_t *err)
{
    pn_kernel_t *k = calloc(1, sizeof *k);
    *out = k;
    if (!k)
        return kfail(err, PN_ENOMEM, "out of memory");
    k->n = n;
    k->names = calloc(n + 1, sizeof *k->names);
    k->role = calloc(n + 1, sizeof *k->role);
    k->has_loop = calloc(n + 1, sizeof *k->has_loop);
    k->loop = calloc(n + 1, sizeof *k->loop);
    k->from = malloc((ne + 1) * sizeof *k->from);
    k->to = malloc((ne + 1) * sizeof *k->to);
    k->time = malloc((ne + 1) * sizeof *k->time);
    if (!k->names || !k->role || !k->has_loop || !k->loop || !k->from ||
        !k->to || !k->time)
        return kfail(err, PN_ENOMEM, "out of memory");
    return PN_OK;
}

/* The role attribute as the kernel's role bits; 4 is a given "inner",
 * never inferred; -1 for an unknown word. */
static int role_bits(const char *role)
{
    if (!role || !*role)
        return 0;
    if (!strcmp(role, "input"))
        return 1;
    if (!strcmp(role, "output"))
        return 2;
    if (!strcmp(role, "inner"))
        return 4;
    return -1;
}

/* Names and given roles of the nodes, in file order: their sequence
 * numbers index them. */
static pn_status_t read_nodes(Agraph_t *g, pn_kernel_t *k, pn_error_t *err)
{
    size_t i = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v), i++) {
        k->names[i] = strdup(agnameof(v));
        if (!k->names[i])
            return kfail(err, PN_ENOMEM, "out of memory");
        char *role = agget(v, "role");
        int bits = role_bits(role);
        if (bits < 0)
            return kfail(err, PN_ESTRUCT, "node '%s': role '%s' (input, "
                         "output or inner)", k->names[i], role);
        k->role[i] = bits;
    }
    return PN_OK;
}

/* Node index from a node's sequence number (the caller frees it). */
static size_t *node_indices(Agraph_t *g)
{
    IDTYPE maxseq = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        if (AGSEQ(v) > maxseq)
            maxseq = AGSEQ(v);
    size_t *index_of = malloc(((size_t)maxseq + 2) * sizeof *index_of);
    if (!index_of)
        return NULL;
    size_t i = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        index_of[AGSEQ(v)] = i++;
    return index_of;
}

/* The edges in file order (cgraph lists them by tail node); returns their
 * count. */
static size_t edges_in_file_order(Agraph_t *g, edge_ref_t *edges)
{
    size_t m = 0;
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        for (Agedge_t *e = agfstout(g, v); e; e = agnxtout(g, e)) {
            edges[m].e = e;
            edges[m].seq = AGSEQ(e);
            m++;
        }
    qsort(edges, m, sizeof *edges, cmp_edge);
    return m;
}

/* The symbols times may use. */
typedef struct {
    const pni_binding_t *b;
    size_t n;
} bindings_t;

/* Evaluates the time attribute tm of the arc from -> to into *v. */
static pn_status_t arc_time(const pn_kernel_t *k, size_t from, size_t to,
                            const char *tm, const bindings_t *bind,
                            double *v, pn_error_t *err)
{
    if (!tm || !*tm)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s' has no time "
                     "attribute", k->names[from], k->names[to]);
    char unbound[64], q[256];
    pni_expr_status_t es = pni_expr_eval(tm, bind->b, bind->n, v, unbound,
                                         sizeof unbound);
    /* the time as shown: DOT strings may be long and hold any byte */
    pni_quote(q, sizeof q, tm, strlen(tm), 60);
    if (es == PNI_EXPR_UNBOUND)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': time '%s' uses the "
                     "unbound symbol '%s' (give it a value: %s=VALUE)",
                     k->names[from], k->names[to], q, unbound, unbound);
    if (es == PNI_EXPR_DEEP)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': the time nests "
                     "parentheses or signs deeper than %d",
                     k->names[from], k->names[to], PNI_EXPR_MAX_DEPTH);
    if (es == PNI_EXPR_HEX)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': time '%s': a "
                     "hexadecimal number (times are decimal)",
                     k->names[from], k->names[to], q);
    if (es == PNI_EXPR_DIVZERO)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': the time '%s' "
                     "divides by zero", k->names[from], k->names[to], q);
    if (es == PNI_EXPR_OVERFLOW)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': the time '%s' "
                     "overflows (beyond about 1.8e308, the largest double)",
                     k->names[from], k->names[to], q);
    if (es != PNI_EXPR_OK || !isfinite(*v))
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': cannot read the "
                     "time '%s'", k->names[from], k->names[to], q);
    if (*v < 0)
        return kfail(err, PN_EVALUE, "arc '%s' -> '%s': negative time "
                     "'%s' = %g", k->names[from], k->names[to], q, *v);
    return PN_OK;
}

/* Adds an arc, or the node's loop when from == to. */
static pn_status_t add_arc(pn_kernel_t *k, size_t from, size_t to, double v,
                           pn_error_t *err)
{
    if (from == to) {
        if (k->has_loop[from])
            return kfail(err, PN_ESTRUCT, "node '%s' has two loops",
                         k->names[from]);
        k->has_loop[from] = 1;
        k->loop[from] = v;
        return PN_OK;
    }
    k->from[k->na] = from;
    k->to[k->na] = to;
    k->time[k->na] = v;
    k->na++;
    return PN_OK;
}

/* One arc of the file, with its evaluated time. */
static pn_status_t read_arc(pn_kernel_t *k, Agedge_t *e,
                            const size_t *index_of, const bindings_t *bind,
                            pn_error_t *err)
{
    size_t from = index_of[AGSEQ(agtail(e))], to = index_of[AGSEQ(aghead(e))];
    double v;
    pn_status_t st = arc_time(k, from, to, agget(e, "time"), bind, &v, err);
    return st ? st : add_arc(k, from, to, v, err);
}

/* The arcs in file order with their evaluated times. */
static pn_status_t read_arcs(Agraph_t *g, pn_kernel_t *k,
                             const bindings_t *bind, pn_error_t *err)
{
    edge_ref_t *edges = malloc(((size_t)agnedges(g) + 1) * sizeof *edges);
    size_t *index_of = node_indices(g);
    pn_status_t st = PN_OK;
    if (!edges || !index_of)
        st = kfail(err, PN_ENOMEM, "out of memory");
    else {
        size_t m = edges_in_file_order(g, edges);
        for (size_t j = 0; !st && j < m; j++)
            st = read_arc(k, edges[j].e, index_of, bind, err);
    }
    free(index_of);
    free(edges);
    return st;
}

/* Roles inferred from degrees (loops do not count): a node without
 * in-arcs is an input, one without out-arcs an output, unless its role
 * is given.  Counts the inputs and outputs. */
static pn_status_t infer_roles(pn_kernel_t *k, int *nin, int *nout,
                               pn_error_t *err)
{
    size_t *outdeg = calloc(k->n + 1, sizeof *outdeg);
    size_t *indeg = calloc(k->n + 1, sizeof *indeg);
    if (!outdeg || !indeg) {
        free(outdeg);
        free(indeg);
        return kfail(err, PN_ENOMEM, "out of memory");
    }
    for (size_t a = 0; a < k->na; a++) {
        outdeg[k->from[a]]++;
        indeg[k->to[a]]++;
    }
    *nin = *nout = 0;
    for (size_t v = 0; v < k->n; v++) {
        if (k->role[v] == 0)
            k->role[v] = (indeg[v] == 0 ? 1 : 0) | (outdeg[v] == 0 ? 2 : 0);
        if (k->role[v] == 4)
            k->role[v] = 0;
        *nin += (k->role[v] & 1) != 0;
        *nout += (k->role[v] & 2) != 0;
    }
    free(outdeg);
    free(indeg);
    return PN_OK;
}

/* The error for a graph whose topological order holds only `ordered`
 * nodes: a node left over that has a left-over predecessor lies on or
 * after a cycle; walking predecessors n times lands on one. */
static pn_status_t cycle_error(const pn_kernel_t *k, const size_t *order,
                               size_t ordered, pn_error_t *err)
{
    unsigned char *left = calloc(k->n + 1, 1);
    if (!left)
        return kfail(err, PN_ENOMEM, "out of memory");
    memset(left, 1, k->n);
    for (size_t j = 0; j < ordered; j++)
        left[order[j]] = 0;
    pn_status_t st = kfail(err, PN_EARC, "node '%s' is on a cycle: kernel "
                           "graphs have no loops but a node's own (no "
                           "data-dependent loops)",
                           k->names[node_on_cycle(k, left)]);
    free(left);
    return st;
}

/* No cycles other than loops. */
static pn_status_t check_acyclic(const pn_kernel_t *k, pn_error_t *err)
{
    size_t *order = malloc((k->n + 1) * sizeof *order);
    size_t ordered = order ? pni_kernel_topo_order(k, order) : (size_t)-1;
    pn_status_t st = PN_OK;
    if (ordered == (size_t)-1)
        st = kfail(err, PN_ENOMEM, "out of memory");
    else if (ordered < k->n)
        st = cycle_error(k, order, ordered, err);
    free(order);
    return st;
}

/* A kernel graph has inputs and outputs. */
static pn_status_t check_ends(const pn_kernel_t *k, int nin, int nout,
                              pn_error_t *err)
{
    if (k->n == 0 || !nin || !nout)
        return kfail(err, PN_ESTRUCT, "the graph has no %s node",
                     k->n == 0 || !nin ? "input" : "output");
    return PN_OK;
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
    bindings_t bind = {b, (size_t)(nb > 0 ? nb : 0)};
    Agraph_t *g = NULL;
    dot_input_t in = {0};
    pn_kernel_t *k = NULL;
    int nin = 0, nout = 0;
    /* each step runs only when the ones before it succeeded */
    pn_status_t st = read_graph(path, &in, &g, err);
    if (!st)
        st = kernel_new((size_t)agnnodes(g), (size_t)agnedges(g), &k, err);
    if (!st)
        st = read_nodes(g, k, err);
    if (!st)
        st = read_arcs(g, k, &bind, err);
    if (!st)
        st = infer_roles(k, &nin, &nout, err);
    if (!st)
        st = check_acyclic(k, err);
    if (!st)
        st = check_ends(k, nin, nout, err);
    /* the one cleanup path */
    free(b);
    if (g)
        agclose(g);
    free(in.text);
    if (st) {
        pn_kernel_free(k);
        return st;
    }
    *out = k;
    return PN_OK;
}
