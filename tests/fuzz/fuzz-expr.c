/*
 * libFuzzer harness for the max-plus time expressions (maxplus/expr.c:
 * pni_bindings_parse(), pni_expr_eval(), the `time` of a kernel graph's
 * arcs and pn-maxplus --set): never a crash, leak, hang or deep
 * recursion, and what is refused says why.
 *
 * Input: bindings "NAME=NUMBER,..." up to the first newline, then the
 * expression.  A valid expression e must also be valid as (e) and -(e),
 * with the same value and its negation.
 *
 * Seeds: tests/fuzz/seeds/expr/.
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS expr.
 */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "maxplus_private.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* Evaluates s, holding the result to pni_expr_eval()'s contract. */
static pni_expr_status_t eval(const char *s, const pni_binding_t *b,
                              size_t nb, double *v)
{
    char unbound[64];
    memset(unbound, 0x5a, sizeof unbound);
    pni_expr_status_t st = pni_expr_eval(s, b, nb, v, unbound,
                                         sizeof unbound);
    if (st < PNI_EXPR_OK || st > PNI_EXPR_HEX)
        abort();
    /* a value is finite: what overflows is PNI_EXPR_OVERFLOW */
    if (st == PNI_EXPR_OK && !isfinite(*v))
        abort();
    if (st == PNI_EXPR_UNBOUND) {
        /* a symbol of the text, which no binding names */
        if (!memchr(unbound, '\0', sizeof unbound) || !unbound[0] ||
            !strstr(s, unbound))
            abort();
        for (size_t i = 0; strlen(unbound) < sizeof unbound - 1 && i < nb;
             i++) /* (a name cut to fit may well be bound) */
            if (!strcmp(b[i].name, unbound))
                abort();
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t blen = nl ? (size_t)(nl - data) : 0;
    char *bs = fuzz_strndup(data, blen);
    char *expr = fuzz_strndup(nl ? nl + 1 : data, nl ? size - blen - 1
                                                     : size);
    pni_binding_t *b = NULL;
    char bad[128];
    memset(bad, 0x5a, sizeof bad);
    long nb = pni_bindings_parse(bs, &b, bad, sizeof bad);
    if (nb == -1) {
        if (b || !memchr(bad, '\0', sizeof bad))
            abort();
    } else if (nb < 0 || (nb > 0 && !b)) {
        abort(); /* -2 (out of memory) cannot happen here */
    }
    for (long i = 0; i < nb; i++)
        if (!memchr(b[i].name, '\0', sizeof b[i].name) || !b[i].name[0] ||
            !isfinite(b[i].value))
            abort();
    size_t n = nb > 0 ? (size_t)nb : 0;
    double v;
    if (eval(expr, b, n, &v) == PNI_EXPR_OK) {
        size_t len = strlen(expr);
        char *w = malloc(len + 4);
        if (!w)
            abort();
        double wv;
        snprintf(w, len + 4, "(%s)", expr);
        pni_expr_status_t ws = eval(w, b, n, &wv);
        if (ws != PNI_EXPR_DEEP && (ws != PNI_EXPR_OK || !same(wv, v)))
            abort();
        snprintf(w, len + 4, "-(%s)", expr);
        ws = eval(w, b, n, &wv);
        if (ws != PNI_EXPR_DEEP && (ws != PNI_EXPR_OK || !same(wv, -v)))
            abort();
        free(w);
    }
    free(b);
    free(bs);
    free(expr);
    return 0;
}
