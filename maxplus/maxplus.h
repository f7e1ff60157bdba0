/*
 * pn/maxplus.h - max-plus algebra and the max-plus kernel-time model of
 * Antonyuk and Mikheev (doc/maxplus.md).
 *
 * Ownership: every pn_mp_* and pn_kernel_* constructor returns an object
 * the caller frees with the matching *_free(); getters return borrowed
 * pointers.  Matrices are dense, values are doubles, eps is -infinity.
 */
#ifndef PN_MAXPLUS_H
#define PN_MAXPLUS_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* eps, the max-plus zero (-infinity); printed "." */
#define PN_MP_EPS (-INFINITY)

typedef struct pn_mp {
    size_t rows, cols;
    double *a; /* row-major */
} pn_mp_t;

/* A rows x cols matrix of eps; NULL when out of memory. */
pn_mp_t *pn_mp_new(size_t rows, size_t cols);
/* The n x n identity: 0 on the diagonal, eps elsewhere. */
pn_mp_t *pn_mp_identity(size_t n);
void pn_mp_free(pn_mp_t *m);
static inline double pn_mp_get(const pn_mp_t *m, size_t i, size_t j)
{
    return m->a[i * m->cols + j];
}
static inline void pn_mp_set(pn_mp_t *m, size_t i, size_t j, double v)
{
    m->a[i * m->cols + j] = v;
}
/* (A (.) B)_ij = max_k (a_ik + b_kj).  NULL when the sizes do not fit or
 * out of memory.  Cost: O(rows * inner * cols). */
pn_mp_t *pn_mp_mul(const pn_mp_t *a, const pn_mp_t *b);
/* A^(.)k by repeated squaring (k = 0: the identity); A square. */
pn_mp_t *pn_mp_power(const pn_mp_t *a, unsigned k);
/* A (+) B, elementwise max; same sizes. */
pn_mp_t *pn_mp_add(const pn_mp_t *a, const pn_mp_t *b);
/* The max-plus Kronecker product: (A (x) B)[(i,k),(j,l)] = a_ij + b_kl. */
pn_mp_t *pn_mp_kron(const pn_mp_t *a, const pn_mp_t *b);
/* Whether two matrices are equal (eps equal to eps; other values within
 * tol). */
int pn_mp_equal(const pn_mp_t *a, const pn_mp_t *b, double tol);
/* Prints the matrix in the paper's notation: a dot for eps, numbers
 * without needless decimals, columns aligned. */
void pn_mp_print(FILE *out, const pn_mp_t *m);

/* ---- kernel graphs ----------------------------------------------------- */

typedef struct pn_kernel pn_kernel_t;

typedef enum {
    PN_MP_NAIVE = 0,     /* memory times only: operation loops left out */
    PN_MP_OPS = 1,       /* operation loops included */
    PN_MP_SERIALIZED = 2 /* ops, and global reads/writes served executor by
                            executor (section 9) */
} pn_mp_model_t;

/* Parses "naive", "ops", "serialized". */
pn_status_t pn_mp_model_parse(const char *name, pn_mp_model_t *model);

/* Reads a kernel graph from a Graphviz DOT file (path "-": standard input)
 * through libcgraph: nodes are data states, arcs carry a `time` attribute
 * (a number, a symbol or an arithmetic expression of numbers and symbols
 * with + - * / and parentheses), a loop is the operation time of its node,
 * node attribute role=input|output (else inferred: no incoming arc means
 * input, no outgoing arc means output).  bindings: "t=400,T=400,tau=4" or
 * NULL.  Returns PN_OK, or PN_EIO, PN_EXML (not DOT, or text after the
 * graph that is not DOT), PN_EVALUE (missing, negative, unparsable,
 * hexadecimal or overflowing time, nested deeper than 200; unbound symbol,
 * named), PN_EARC (a cycle other than a loop: a node on it is named),
 * PN_ESTRUCT (no input or no output, a bad role; an undirected graph or a
 * second graph in the file, its line in err), PN_ENOMEM; err says which
 * node or arc. */
pn_status_t pn_kernel_read_dot(const char *path, const char *bindings,
                               pn_kernel_t **out, pn_error_t *err);
void pn_kernel_free(pn_kernel_t *k);

size_t pn_kernel_node_count(const pn_kernel_t *k);
const char *pn_kernel_node_name(const pn_kernel_t *k, size_t node);
/* 1: input, 2: output, 3: both, 0: inner */
int pn_kernel_node_role(const pn_kernel_t *k, size_t node);
/* Loop (operation) time of a node, 0 when it has none. */
double pn_kernel_loop(const pn_kernel_t *k, size_t node);

typedef struct pn_mp_params {
    pn_mp_model_t model;
    double executors;  /* n >= 1 */
    double dt, dT;     /* serialized: gap between reads, between writes */
    int cached;        /* use cached_read for repeated reads of an input */
    double cached_read;
    uint64_t reserved[4]; /* zero (the init function sets it): room for
                             fields of later versions */
} pn_mp_params_t;

/* Fills the defaults: the ops model, 1 executor, no gaps, no cache (what
 * pn-maxplus(1) uses when given no option). */
void pn_mp_params_init(pn_mp_params_t *p);

/* The kernel matrix Z under the model (column = source, row = target, eps
 * where there is no arc; loops on the diagonal unless naive). */
pn_mp_t *pn_kernel_matrix(const pn_kernel_t *k, const pn_mp_params_t *p);

/* The height k with the paper's procedure (loops counted once, in the
 * model's Z: naive has no loops). */
unsigned pn_kernel_height(const pn_kernel_t *k, const pn_mp_params_t *p);

/* r, the time of one kernel instance.
 * matrix: the paper's method: k, Z^k; r is read from (E (+) Zh)^k where Zh
 * folds each node's loop into the arcs entering it, which is
 * <1_o, Z^k 1_i> on the paper's graphs and counts every loop once on any
 * graph.  *paper (may be NULL) gets <1_o, Z^k 1_i> itself.
 * graph: the longest input-to-output path, each loop counted once, in
 * O(nodes + arcs).
 * Both return PN_OK, PN_ENOMEM, or PN_ERANGE when r (or *paper, when
 * asked) overflows: the times along a path add up beyond the largest
 * double (r and *paper are then set, +infinity). */
pn_status_t pn_kernel_time_matrix(const pn_kernel_t *k,
                                  const pn_mp_params_t *p, double *r,
                                  double *paper);
pn_status_t pn_kernel_time_graph(const pn_kernel_t *k,
                                 const pn_mp_params_t *p, double *r);

/* The critical path of the graph method: the nodes from an input to the
 * output that realise r, in order, into path (room for every node); *n
 * gets their count. */
pn_status_t pn_kernel_critical_path(const pn_kernel_t *k,
                                    const pn_mp_params_t *p, size_t *path,
                                    size_t *n);

/* The ends of arc a (file order, loops excluded); PN_NONE for a bad a. */
size_t pn_kernel_arc_count(const pn_kernel_t *k);
void pn_kernel_arc_ends(const pn_kernel_t *k, size_t a, size_t *from,
                        size_t *to);
/* The time of every arc under the model, into times (pn_kernel_arc_count()
 * entries): the serialized model adds each read's and write's wait.
 * Returns PN_OK or PN_EINVAL.  Cost: O(nodes + arcs). */
pn_status_t pn_kernel_arc_times(const pn_kernel_t *k, const pn_mp_params_t *p,
                                double *times);

#ifdef __cplusplus
}
#endif
#endif
