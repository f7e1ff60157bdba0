/* Symbolic times of kernel graphs: "T + 31*dT", with bindings "T=400". */
#include <config.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "maxplus_private.h"

typedef struct {
    const char *s;
    const pni_binding_t *b;
    size_t nb;
    char unbound[64];
    int bad;
    int depth;   /* parentheses and unary minus signs open now */
    int deep;    /* the depth limit was passed */
    int over;    /* a number or a result was beyond a double */
    int divzero; /* a division by zero */
    int hex;     /* a hexadecimal number (strtod would read it) */
} expr_t;

/* Where the decimal number at s ends (digits with an optional point, at
 * least one digit, an optional exponent); s when there is none.  strtod
 * reads more (hexadecimal, inf, nan): only this is a number here. */
static const char *decimal_end(const char *s)
{
    const char *p = s;
    int digits = 0;
    for (; isdigit((unsigned char)*p); p++)
        digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return s;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (isdigit((unsigned char)*q)) {
            while (isdigit((unsigned char)*q))
                q++;
            p = q;
        }
    }
    return p;
}

/* A decimal number alone, with white space and a sign before it, as
 * strtod reads it: 1 when s is one (*v its value, +-inf beyond a
 * double), else 0. */
static int decimal(const char *s, double *v)
{
    while (isspace((unsigned char)*s))
        s++;
    const char *digits = s + (*s == '+' || *s == '-');
    const char *end = decimal_end(digits);
    char *send;
    if (end == digits)
        return 0;
    *v = strtod(s, &send);
    return send == end && !*end;
}

/* Flags a result that left the doubles (inf, or nan from inf - inf). */
static double checked(expr_t *e, double v)
{
    if (!isfinite(v))
        e->over = 1;
    return v;
}

static void skip_ws(expr_t *e)
{
    while (isspace((unsigned char)*e->s))
        e->s++;
}

static double expr_sum(expr_t *e);

static double expr_factor(expr_t *e)
{
    skip_ws(e);
    if (*e->s == '(' || *e->s == '-') {
        /* the recursion is bounded: no stack overflow on hostile input */
        if (e->depth >= PNI_EXPR_MAX_DEPTH) {
            e->deep = e->bad = 1;
            e->s += strlen(e->s);
            return 0;
        }
        e->depth++;
        double v;
        if (*e->s++ == '-')
            v = -expr_factor(e);
        else {
            v = expr_sum(e);
            skip_ws(e);
            if (*e->s != ')')
                e->bad = 1;
            else
                e->s++;
        }
        e->depth--;
        return v;
    }
    if (isdigit((unsigned char)*e->s) || *e->s == '.') {
        if (e->s[0] == '0' && (e->s[1] == 'x' || e->s[1] == 'X')) {
            e->hex = e->bad = 1;
            e->s += strlen(e->s);
            return 0;
        }
        const char *end = decimal_end(e->s);
        char *send;
        double v = strtod(e->s, &send);
        if (end == e->s || send != end)
            e->bad = 1;
        e->s = end == e->s ? e->s + 1 : end;
        return checked(e, v);
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
            v = checked(e, v * expr_factor(e));
        } else if (*e->s == '/') {
            e->s++;
            double d = expr_factor(e);
            if (d == 0)
                e->divzero = 1;
            else
                v = checked(e, v / d);
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
            v = checked(e, v + expr_term(e));
        } else if (*e->s == '-') {
            e->s++;
            v = checked(e, v - expr_term(e));
        } else
            return v;
    }
}

/* Parses "a=1,b=2.5"; returns the count or -1 (a bad item in *bad). */
long pni_bindings_parse(const char *s, pni_binding_t **out, char *bad,
                           size_t badsize)
{
    *out = NULL;
    if (!s || !*s)
        return 0;
    size_t cap = 8, n = 0;
    pni_binding_t *b = malloc(cap * sizeof *b);
    char *copy = strdup(s), *save = NULL;
    if (!b || !copy) {
        free(b);
        free(copy);
        return -2;
    }
    for (char *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        double v = 0;
        if (!eq || eq == item || (size_t)(eq - item) >= sizeof b->name ||
            !decimal(eq + 1, &v) || !isfinite(v)) {
            snprintf(bad, badsize, "%s", item);
            free(b);
            free(copy);
            return -1;
        }
        if (n == cap) {
            cap *= 2;
            pni_binding_t *nb = realloc(b, cap * sizeof *b);
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

pni_expr_status_t pni_expr_eval(const char *s, const pni_binding_t *b,
                                size_t nb, double *value, char *unbound,
                                size_t unbound_size)
{
    expr_t ex = {s, b, nb, "", 0, 0, 0, 0, 0, 0};
    double v = expr_sum(&ex);
    skip_ws(&ex);
    *value = v;
    if (ex.deep)
        return PNI_EXPR_DEEP;
    if (ex.hex)
        return PNI_EXPR_HEX;
    if (ex.unbound[0]) {
        snprintf(unbound, unbound_size, "%s", ex.unbound);
        return PNI_EXPR_UNBOUND;
    }
    if (ex.bad || *ex.s)
        return PNI_EXPR_SYNTAX;
    if (ex.divzero)
        return PNI_EXPR_DIVZERO;
    if (ex.over)
        return PNI_EXPR_OVERFLOW;
    return PNI_EXPR_OK;
}
