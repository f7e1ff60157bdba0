/*
 * maxplus/maxplus_private.h - internals of the max-plus folder (not
 * installed): the kernel graph's layout, symbolic times, graph helpers.
 */
#ifndef PN_MAXPLUS_PRIVATE_H
#define PN_MAXPLUS_PRIVATE_H

#include <stddef.h>
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

/* ---- symbolic times (expr.c) ------------------------------------------ */

typedef struct pni_binding {
    char name[64];
    double value;
} pni_binding_t;

/* Parses "a=1,b=2.5" into a new array (*out, the caller frees it);
 * returns the count, -1 for a bad item (copied into bad), -2 when out of
 * memory. */
long pni_bindings_parse(const char *s, pni_binding_t **out, char *bad,
                        size_t badsize);

/* How deep parentheses and unary minus signs may nest in a time. */
#define PNI_EXPR_MAX_DEPTH 200

typedef enum {
    PNI_EXPR_OK = 0,
    PNI_EXPR_SYNTAX,   /* not an expression of numbers, symbols, + - * / ( ) */
    PNI_EXPR_UNBOUND,  /* a symbol has no value: *unbound names it */
    PNI_EXPR_DEEP,     /* nested deeper than PNI_EXPR_MAX_DEPTH */
    PNI_EXPR_DIVZERO,  /* a division by zero */
    PNI_EXPR_OVERFLOW, /* a number or a partial result beyond a double */
    PNI_EXPR_HEX       /* a hexadecimal number (numbers are decimal) */
} pni_expr_status_t;

/* Evaluates a time expression with the bindings. */
pni_expr_status_t pni_expr_eval(const char *s, const pni_binding_t *b,
                                size_t nb, double *value, char *unbound,
                                size_t unbound_size);

/* ---- graph helpers (kernel.c) ----------------------------------------- */

/* A topological order of the nodes (Kahn) into order (room for n);
 * returns how many nodes it holds: fewer than n when there is a cycle
 * other than a loop.  (size_t)-1 when out of memory. */
size_t pni_kernel_topo_order(const pn_kernel_t *k, size_t *order);

#endif
