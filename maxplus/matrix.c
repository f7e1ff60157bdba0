/* Dense max-plus matrices: product, power, sum, Kronecker product. */
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "maxplus.h"

pn_mp_t *pn_mp_new(size_t rows, size_t cols)
{
    if (rows && cols > SIZE_MAX / sizeof(double) / rows)
        return NULL;
    pn_mp_t *m = malloc(sizeof *m);
    if (!m)
        return NULL;
    m->rows = rows;
    m->cols = cols;
    m->a = malloc((rows * cols + 1) * sizeof *m->a);
    if (!m->a) {
        free(m);
        return NULL;
    }
    for (size_t i = 0; i < rows * cols; i++)
        m->a[i] = PN_MP_EPS;
    return m;
}

pn_mp_t *pn_mp_identity(size_t n)
{
    pn_mp_t *m = pn_mp_new(n, n);
    for (size_t i = 0; m && i < n; i++)
        pn_mp_set(m, i, i, 0);
    return m;
}

void pn_mp_free(pn_mp_t *m)
{
    if (m) {
        free(m->a);
        free(m);
    }
}

pn_mp_t *pn_mp_mul(const pn_mp_t *a, const pn_mp_t *b)
{
    if (!a || !b || a->cols != b->rows)
        return NULL;
    pn_mp_t *c = pn_mp_new(a->rows, b->cols);
    if (!c)
        return NULL;
    for (size_t i = 0; i < a->rows; i++)
        for (size_t k = 0; k < a->cols; k++) {
            double x = pn_mp_get(a, i, k);
            if (x == PN_MP_EPS)
                continue;
            const double *brow = b->a + k * b->cols;
            double *crow = c->a + i * c->cols;
            for (size_t j = 0; j < b->cols; j++) {
                double v = x + brow[j];
                if (v > crow[j])
                    crow[j] = v;
            }
        }
    return c;
}

pn_mp_t *pn_mp_power(const pn_mp_t *a, unsigned k)
{
    if (!a || a->rows != a->cols)
        return NULL;
    pn_mp_t *result = pn_mp_identity(a->rows);
    pn_mp_t *base = pn_mp_new(a->rows, a->cols);
    if (!result || !base) {
        pn_mp_free(result);
        pn_mp_free(base);
        return NULL;
    }
    memcpy(base->a, a->a, a->rows * a->cols * sizeof *a->a);
    while (k) {
        if (k & 1) {
            pn_mp_t *r = pn_mp_mul(result, base);
            pn_mp_free(result);
            result = r;
        }
        k >>= 1;
        if (k) {
            pn_mp_t *b = pn_mp_mul(base, base);
            pn_mp_free(base);
            base = b;
        }
        if (!result || !base) {
            pn_mp_free(result);
            pn_mp_free(base);
            return NULL;
        }
    }
    pn_mp_free(base);
    return result;
}

pn_mp_t *pn_mp_add(const pn_mp_t *a, const pn_mp_t *b)
{
    if (!a || !b || a->rows != b->rows || a->cols != b->cols)
        return NULL;
    pn_mp_t *c = pn_mp_new(a->rows, a->cols);
    for (size_t i = 0; c && i < a->rows * a->cols; i++)
        c->a[i] = a->a[i] > b->a[i] ? a->a[i] : b->a[i];
    return c;
}

pn_mp_t *pn_mp_kron(const pn_mp_t *a, const pn_mp_t *b)
{
    if (!a || !b)
        return NULL;
    pn_mp_t *c = pn_mp_new(a->rows * b->rows, a->cols * b->cols);
    if (!c)
        return NULL;
    for (size_t i = 0; i < a->rows; i++)
        for (size_t j = 0; j < a->cols; j++) {
            double x = pn_mp_get(a, i, j);
            for (size_t k = 0; k < b->rows; k++)
                for (size_t l = 0; l < b->cols; l++)
                    pn_mp_set(c, i * b->rows + k, j * b->cols + l,
                              x + pn_mp_get(b, k, l));
        }
    return c;
}

int pn_mp_equal(const pn_mp_t *a, const pn_mp_t *b, double tol)
{
    if (!a || !b || a->rows != b->rows || a->cols != b->cols)
        return 0;
    for (size_t i = 0; i < a->rows * a->cols; i++) {
        double x = a->a[i], y = b->a[i];
        if (x == PN_MP_EPS || y == PN_MP_EPS) {
            if (x != y)
                return 0;
        } else if (fabs(x - y) > tol)
            return 0;
    }
    return 1;
}

static void cell(char *buf, size_t size, double v)
{
    if (v == PN_MP_EPS)
        snprintf(buf, size, ".");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%g", v);
}

void pn_mp_print(FILE *out, const pn_mp_t *m)
{
    size_t width = 1;
    char buf[64];
    for (size_t i = 0; i < m->rows * m->cols; i++) {
        cell(buf, sizeof buf, m->a[i]);
        if (strlen(buf) > width)
            width = strlen(buf);
    }
    for (size_t i = 0; i < m->rows; i++) {
        fputs("  (", out);
        for (size_t j = 0; j < m->cols; j++) {
            cell(buf, sizeof buf, pn_mp_get(m, i, j));
            fprintf(out, " %*s", (int)width, buf);
        }
        fputs(" )\n", out);
    }
}
