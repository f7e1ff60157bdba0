/*
 * The max-plus model: the matrix API (product, power, Kronecker, identity,
 * and (I_n (x) K)^m = I_n (x) K^m as a property), the paper's worked
 * examples exactly (Z1, Z2, the serialized vector addition, Table 1) with
 * symbolic times bound to several values, matrix == graph on random DAGs
 * with loops, the PNML bridge (pn-run steps = r + 1), and bad graphs.
 */
#include <config.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pn.h"
#include "engine_private.h"
#include "testutil.h"

static pn_kernel_t *kernel(const char *text, const char *bindings)
{
    char *path = tmp_file_with(text);
    pn_kernel_t *k;
    pn_error_t err;
    pn_status_t st = pn_kernel_read_dot(path, bindings, &k, &err);
    ck_assert_msg(st == PN_OK, "%s", err.text);
    unlink(path);
    free(path);
    return k;
}

static double r_of(const pn_kernel_t *k, const pn_mp_params_t *p, int matrix)
{
    double r, paper;
    if (matrix)
        ck_assert_int_eq(pn_kernel_time_matrix(k, p, &r, &paper), PN_OK);
    else
        ck_assert_int_eq(pn_kernel_time_graph(k, p, &r), PN_OK);
    return r;
}

/* ---- matrices ---------------------------------------------------------- */

static pn_mp_t *from(size_t r, size_t c, const double *v)
{
    pn_mp_t *m = pn_mp_new(r, c);
    memcpy(m->a, v, r * c * sizeof *v);
    return m;
}

#define E PN_MP_EPS

START_TEST(matrix_operations)
{
    pn_mp_t *a = from(2, 2, (double[]){1, E, 3, 0});
    pn_mp_t *b = from(2, 2, (double[]){E, 2, 5, E});
    pn_mp_t *ab = pn_mp_mul(a, b);
    /* [max(1+E, E+5), max(1+2, E+E); max(3+E, 0+5), max(3+2, 0+E)] */
    pn_mp_t *want = from(2, 2, (double[]){E, 3, 5, 5});
    ck_assert(pn_mp_equal(ab, want, 0));
    pn_mp_t *i2 = pn_mp_identity(2);
    pn_mp_t *ai = pn_mp_mul(a, i2);
    ck_assert(pn_mp_equal(ai, a, 0));
    pn_mp_t *a0 = pn_mp_power(a, 0);
    ck_assert(pn_mp_equal(a0, i2, 0));
    pn_mp_t *a3 = pn_mp_power(a, 3);
    pn_mp_t *aa = pn_mp_mul(a, a), *aaa = pn_mp_mul(aa, a);
    ck_assert(pn_mp_equal(a3, aaa, 0));
    pn_mp_t *sum = pn_mp_add(a, b);
    pn_mp_t *want_sum = from(2, 2, (double[]){1, 2, 5, 0});
    ck_assert(pn_mp_equal(sum, want_sum, 0));
    pn_mp_t *k = pn_mp_kron(i2, b);
    ck_assert_int_eq(k->rows, 4);
    ck_assert(pn_mp_get(k, 0, 1) == 2 && pn_mp_get(k, 2, 3) == 2);
    ck_assert(pn_mp_get(k, 0, 3) == E);
    pn_mp_t *col = pn_mp_new(3, 1);
    ck_assert_ptr_null(pn_mp_mul(a, col));
    pn_mp_free(col);
    pn_mp_t *m[] = {a, b, ab, want, i2, ai, a0, a3, aa, aaa, sum, want_sum, k};
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        pn_mp_free(m[i]);
}
END_TEST

START_TEST(kronecker_power_identity)
{
    /* section 7: (I_n (x) K)^m = I_n (x) K^m, on random K */
    pni_rng_t rng;
    pni_rng_seed(&rng, 7);
    for (int trial = 0; trial < 40; trial++) {
        size_t s = 1 + (size_t)pni_rng_below(&rng, 4);
        size_t n = 1 + (size_t)pni_rng_below(&rng, 4);
        unsigned m = (unsigned)pni_rng_below(&rng, 5);
        pn_mp_t *kk = pn_mp_new(s, s);
        for (size_t i = 0; i < s * s; i++)
            kk->a[i] = pni_rng_below(&rng, 3) ? (double)pni_rng_below(&rng, 50)
                                             : E;
        pn_mp_t *in = pn_mp_identity(n);
        pn_mp_t *big = pn_mp_kron(in, kk);
        pn_mp_t *lhs = pn_mp_power(big, m);
        pn_mp_t *km = pn_mp_power(kk, m);
        pn_mp_t *rhs = pn_mp_kron(in, km);
        ck_assert_msg(pn_mp_equal(lhs, rhs, 1e-9), "s=%zu n=%zu m=%u", s, n, m);
        pn_mp_free(kk);
        pn_mp_free(in);
        pn_mp_free(big);
        pn_mp_free(lhs);
        pn_mp_free(km);
        pn_mp_free(rhs);
    }
}
END_TEST

/* ---- the paper's examples ---------------------------------------------- */

static const char *vadd =
    "digraph v { c [role=output]; sum; a [role=input]; b [role=input];\n"
    "  sum -> c [time=\"T\"]; sum -> sum [time=\"tau\"];\n"
    "  a -> sum [time=\"t\"]; b -> sum [time=\"t\"]; }\n";

START_TEST(z1_and_z2)
{
    static const double vals[][3] = {{400, 400, 4}, {1, 2, 3}, {10, 0.5, 7},
                                     {0, 0, 0}, {123, 45, 0.25}};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        double t = vals[i][0], T = vals[i][1], tau = vals[i][2];
        char b[128];
        snprintf(b, sizeof b, "t=%g,T=%g,tau=%g", t, T, tau);
        pn_kernel_t *k = kernel(vadd, b);
        pn_mp_params_t naive = {.model = PN_MP_NAIVE, .executors = 1};
        pn_mp_params_t ops = {.model = PN_MP_OPS, .executors = 1};
        /* Z1: k = 2, r = T + t; its square as in the paper */
        ck_assert_int_eq(pn_kernel_height(k, &naive), 2);
        double r, paper;
        ck_assert_int_eq(pn_kernel_time_matrix(k, &naive, &r, &paper), PN_OK);
        ck_assert_double_eq_tol(r, T + t, 1e-9);
        ck_assert_double_eq_tol(paper, T + t, 1e-9);
        ck_assert_double_eq_tol(r_of(k, &naive, 0), T + t, 1e-9);
        pn_mp_t *z1 = pn_kernel_matrix(k, &naive);
        pn_mp_t *want1 = from(4, 4, (double[]){E, T, E, E, E, E, t, t,
                                                E, E, E, E, E, E, E, E});
        ck_assert(pn_mp_equal(z1, want1, 1e-9));
        pn_mp_t *z1sq = pn_mp_power(z1, 2);
        pn_mp_t *want1sq = from(4, 4, (double[]){E, E, T + t, T + t, E, E, E,
                                                  E, E, E, E, E, E, E, E, E});
        ck_assert(pn_mp_equal(z1sq, want1sq, 1e-9));
        /* Z2: k = 3, r = T + tau + t; Z2^3 as in the paper */
        ck_assert_int_eq(pn_kernel_height(k, &ops), 3);
        ck_assert_int_eq(pn_kernel_time_matrix(k, &ops, &r, &paper), PN_OK);
        ck_assert_double_eq_tol(r, T + tau + t, 1e-9);
        ck_assert_double_eq_tol(paper, T + tau + t, 1e-9);
        ck_assert_double_eq_tol(r_of(k, &ops, 0), T + tau + t, 1e-9);
        pn_mp_t *z2 = pn_kernel_matrix(k, &ops);
        pn_mp_t *z2c = pn_mp_power(z2, 3);
        pn_mp_t *want2c = from(4, 4, (double[]){
            E, T + 2 * tau, T + tau + t, T + tau + t,
            E, 3 * tau, 2 * tau + t, 2 * tau + t,
            E, E, E, E, E, E, E, E});
        ck_assert(pn_mp_equal(z2c, want2c, 1e-9));
        pn_mp_t *m[] = {z1, want1, z1sq, want1sq, z2, z2c, want2c};
        for (size_t j = 0; j < 7; j++)
            pn_mp_free(m[j]);
        pn_kernel_free(k);
    }
}
END_TEST

START_TEST(serialized_vector_addition)
{
    /* ceil(N/n) (T + (n-1) dT + tau + t + (2n-1) dt) */
    static const double cases[][7] = {
        /* t, T, tau, N, n, dt, dT */
        {400, 400, 4, 1000, 32, 2, 3},
        {400, 400, 4, 1, 1, 5, 5},
        {10, 20, 1, 100, 7, 0.5, 1.5},
        {1, 1, 0, 64, 64, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const double *c = cases[i];
        char b[128];
        snprintf(b, sizeof b, "t=%g,T=%g,tau=%g", c[0], c[1], c[2]);
        pn_kernel_t *k = kernel(vadd, b);
        pn_mp_params_t p = {.model = PN_MP_SERIALIZED, .executors = c[4],
            .dt = c[5], .dT = c[6]};
        double n = c[4];
        double want = ceil(c[3] / n) *
                      (c[1] + (n - 1) * c[6] + c[2] + c[0] + (2 * n - 1) * c[5]);
        for (int method = 0; method < 2; method++)
            ck_assert_double_eq_tol(ceil(c[3] / n) * r_of(k, &p, method), want,
                                    1e-6);
        /* Z3 as in the paper */
        pn_mp_t *z3 = pn_kernel_matrix(k, &p);
        ck_assert_double_eq_tol(pn_mp_get(z3, 0, 1), c[1] + (n - 1) * c[6],
                                1e-9);
        ck_assert_double_eq_tol(pn_mp_get(z3, 1, 2),
                                c[0] + (2 * n - 2) * c[5], 1e-9);
        ck_assert_double_eq_tol(pn_mp_get(z3, 1, 3),
                                c[0] + (2 * n - 1) * c[5], 1e-9);
        pn_mp_free(z3);
        pn_kernel_free(k);
    }
}
END_TEST

START_TEST(table_1)
{
    static const double vals[][2] = {{3, 5}, {7, 2}, {4, 4}, {0.5, 9}};
    for (size_t i = 0; i < 4; i++) {
        double t1 = vals[i][0], t2 = vals[i][1];
        char b[64];
        snprintf(b, sizeof b, "t1=%g,t2=%g", t1, t2);
        /* row 1: node 3 feeds outputs 1 and 2: k = 1, max{t1, t2} */
        pn_kernel_t *k = kernel("digraph g { n1; n2; n3; n3 -> n1 [time=t1];"
                                " n3 -> n2 [time=t2]; }", b);
        pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
        ck_assert_int_eq(pn_kernel_height(k, &p), 1);
        for (int method = 0; method < 2; method++)
            ck_assert_double_eq_tol(r_of(k, &p, method), fmax(t1, t2), 1e-9);
        pn_kernel_free(k);
        /* row 2: a chain 3 -> 2 -> 1: k = 2, t1 + t2 */
        k = kernel("digraph g { n1; n2; n3; n2 -> n1 [time=t1];"
                   " n3 -> n2 [time=t2]; }", b);
        ck_assert_int_eq(pn_kernel_height(k, &p), 2);
        double r, paper;
        ck_assert_int_eq(pn_kernel_time_matrix(k, &p, &r, &paper), PN_OK);
        ck_assert_double_eq_tol(r, t1 + t2, 1e-9);
        ck_assert_double_eq_tol(paper, t1 + t2, 1e-9);
        ck_assert_double_eq_tol(r_of(k, &p, 0), t1 + t2, 1e-9);
        pn_kernel_free(k);
    }
}
END_TEST

/* A random DAG with loops as DOT text: arcs only from lower to higher
 * numbers, so no cycles. */
static char *random_dag(pni_rng_t *rng, size_t n, int integer)
{
    size_t cap = 64 + n * 200;
    char *s = malloc(cap);
    size_t len = (size_t)snprintf(s, cap, "digraph r {\n");
    for (size_t v = 0; v < n; v++)
        len += (size_t)snprintf(s + len, cap - len, " v%zu;\n", v);
    for (size_t v = 0; v < n; v++) {
        for (int e = 0; e < 3; e++) {
            if (v + 1 >= n || pni_rng_below(rng, 3) == 0)
                continue;
            size_t w = v + 1 + (size_t)pni_rng_below(rng, n - v - 1);
            double t = integer ? (double)(1 + pni_rng_below(rng, 9))
                               : (double)pni_rng_below(rng, 1000) / 8;
            len += (size_t)snprintf(s + len, cap - len,
                                    " v%zu -> v%zu [time=\"%g\"];\n", v, w, t);
        }
        if (pni_rng_below(rng, 3) == 0)
            len += (size_t)snprintf(s + len, cap - len,
                                    " v%zu -> v%zu [time=\"%d\"];\n", v, v,
                                    (int)pni_rng_below(rng, 6));
    }
    snprintf(s + len, cap - len, "}\n");
    return s;
}

START_TEST(matrix_equals_graph)
{
    pni_rng_t rng;
    pni_rng_seed(&rng, 2022);
    for (int trial = 0; trial < 200; trial++) {
        size_t n = 1 + (size_t)pni_rng_below(&rng, 14);
        char *text = random_dag(&rng, n, 0);
        pn_kernel_t *k = kernel(text, NULL);
        for (int model = 0; model < 3; model++) {
            pn_mp_params_t p = {.model = (pn_mp_model_t)model,
                .executors = 1 + (double)pni_rng_below(&rng, 4), .dt = 0.5,
                .dT = 0.25};
            double a = r_of(k, &p, 1), b = r_of(k, &p, 0);
            ck_assert_msg(fabs(a - b) < 1e-9, "trial %d model %d: matrix %g, "
                          "graph %g\n%s", trial, model, a, b, text);
        }
        pn_kernel_free(k);
        free(text);
    }
}
END_TEST

START_TEST(pnml_bridge)
{
    /* the timed event graph takes exactly r + 1 maximal steps */
    pni_rng_t rng;
    pni_rng_seed(&rng, 5);
    int checked = 0;
    for (int trial = 0; trial < 40; trial++) {
        char *text = trial == 0 ? strdup(vadd)
                                : random_dag(&rng, 2 + (size_t)pni_rng_below(&rng, 8), 1);
        pn_kernel_t *k = kernel(text, "t=5,T=7,tau=3");
        for (int model = 0; model < 2; model++) {
            pn_mp_params_t p = {.model = (pn_mp_model_t)model, .executors = 1};
            double r = r_of(k, &p, 0);
            pn_net_t *net;
            pn_error_t err;
            pn_error_clear(&err);
            ck_assert_msg(pn_kernel_event_graph(k, &p, &net, &err) == PN_OK,
                          "%s", err.text);
            pn_engine_t *e;
            ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
            for (uint64_t seed = 1; seed <= 3; seed++) {
                pn_sim_t *s = pn_sim_new(e, seed, PN_SEM_MAXIMAL, 0);
                ck_assert_int_eq(pn_sim_run(s, 1000000), PN_END_DEAD);
                ck_assert_msg(pn_sim_steps(s) == (uint64_t)r + 1,
                              "steps %llu, r %g\n%s",
                              (unsigned long long)pn_sim_steps(s), r, text);
                /* every transition fired exactly once */
                for (size_t t = 0; t < pn_net_transition_count(net); t++)
                    ck_assert_int_eq(pn_sim_counts(s)[t], 1);
                pn_sim_free(s);
            }
            pn_engine_free(e);
            pn_net_free(net);
            checked++;
        }
        pn_kernel_free(k);
        free(text);
    }
    ck_assert_int_ge(checked, 80);
    /* serialized and non-integer times are refused */
    pn_kernel_t *k = kernel(vadd, "t=5,T=7.5,tau=3");
    pn_net_t *net;
    pn_error_t err;
    pn_error_clear(&err);
    pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
    ck_assert_int_eq(pn_kernel_event_graph(k, &p, &net, &err), PN_EVALUE);
    ck_assert_ptr_nonnull(strstr(err.text, "'sum' -> 'c'"));
    p.model = PN_MP_SERIALIZED;
    ck_assert_int_eq(pn_kernel_event_graph(k, &p, &net, &err), PN_EINVAL);
    pn_kernel_free(k);
}
END_TEST

START_TEST(bad_graphs)
{
    static const struct {
        const char *text, *bindings;
        pn_status_t st;
        const char *msg;
    } bad[] = {
        {"digraph g { a -> b [time=1]; b -> c [time=1]; c -> b [time=1]; "
         "a -> d [time=1]; }", NULL, PN_EARC, "is on a cycle"},
        {"digraph g { a -> b; }", NULL, PN_EVALUE, "has no time"},
        {"digraph g { a -> b [time=\"-3\"]; }", NULL, PN_EVALUE,
         "negative time"},
        {"digraph g { a -> b [time=\"t + u\"]; }", "t=1", PN_EVALUE,
         "unbound symbol 'u'"},
        {"digraph g { a -> b [time=\"2 +\"]; }", NULL, PN_EVALUE,
         "cannot read the time"},
        {"digraph g { a [role=output]; b [role=output]; a -> b [time=1]; }",
         NULL, PN_ESTRUCT, "no input"},
        {"digraph g { a [role=input]; b [role=input]; a -> b [time=1]; }",
         NULL, PN_ESTRUCT, "no output"},
        {"digraph g { a [role=boss]; a -> b [time=1]; }", NULL, PN_ESTRUCT,
         "role 'boss'"},
        {"digraph g { a -> a [time=1]; a -> a [time=2]; }", NULL, PN_ESTRUCT,
         "two loops"},
        {"this is not dot", NULL, PN_EXML, "not a Graphviz DOT graph"},
        /* beyond a double: a number, a product, a partial result */
        {"digraph g { a -> b [time=\"1e999\"]; }", NULL, PN_EVALUE,
         "time '1e999' overflows"},
        {"digraph g { a -> b [time=\"1e308*10\"]; }", NULL, PN_EVALUE,
         "time '1e308*10' overflows"},
        {"digraph g { a -> b [time=\"1e300*1e300*0 + 1\"]; }", NULL,
         PN_EVALUE, "overflows"},
        {"digraph g { a -> b [time=\"t/(t-t)\"]; }", "t=2", PN_EVALUE,
         "divides by zero"},
        /* numbers are decimal: strtod would read 0x1p3 as 8 */
        {"digraph g { a -> b [time=\"0x1p3\"]; }", NULL, PN_EVALUE,
         "time '0x1p3': a hexadecimal number"},
        {"digraph g { a -> b [time=t]; }", "t=0x10", PN_EINVAL,
         "'t=0x10' is not NAME=NUMBER"},
        /* one digraph per file */
        {"graph g { a -- b [time=1]; }", NULL, PN_ESTRUCT,
         "an undirected graph"},
        {"digraph g { a -> b [time=1]; }\ndigraph h { c -> d [time=1]; }",
         NULL, PN_ESTRUCT, "a second graph"},
        {"digraph g { a -> b [time=1]; } x", NULL, PN_EXML,
         "after the graph"},
        {"digraph g { a -> b [time=1]; }", "t=x", PN_EINVAL,
         "'t=x' is not NAME=NUMBER"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *path = tmp_file_with(bad[i].text);
        pn_kernel_t *k = (pn_kernel_t *)1;
        pn_error_t err;
        pn_status_t st = pn_kernel_read_dot(path, bad[i].bindings, &k, &err);
        ck_assert_msg(st == bad[i].st, "%s: status %d (%s)", bad[i].text, st,
                      err.text);
        ck_assert_ptr_null(k);
        ck_assert_msg(strstr(err.text, bad[i].msg), "%s: '%s'", bad[i].text,
                      err.text);
        ck_assert_str_eq(err.file, path);
        unlink(path);
        free(path);
    }
    pn_kernel_t *k;
    pn_error_t err;
    ck_assert_int_eq(pn_kernel_read_dot("/nonexistent.dot", NULL, &k, &err),
                     PN_EIO);
    /* the line of an undirected graph's header, of a second graph's start
     * (braces in strings and comments skipped) */
    static const struct {
        const char *text;
        unsigned long line;
    } where[] = {
        {"/* a\n */\n\n  graph g { a -- b [time=1]; }", 4},
        {"digraph g { a -> b [time=1, label=\"}\\\"}\"];\n}\n# x\n"
         "// }\n/* }\n } */ digraph h { }", 6},
    };
    for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
        char *path = tmp_file_with(where[i].text);
        ck_assert_int_eq(pn_kernel_read_dot(path, NULL, &k, &err), PN_ESTRUCT);
        ck_assert_msg(err.line == where[i].line, "%s: line %lu",
                      where[i].text, err.line);
        unlink(path);
        free(path);
    }
    /* a time nested 50,000 deep (DOT's "a" + "b" concatenation passes any
     * length limit): refused by depth, not a stack overflow; 100 deep reads */
    for (int deep = 0; deep < 2; deep++) {
        size_t n = deep ? 50000 : 100;
        size_t cap = 8 * n + 64, col = 0;
        char *text = malloc(cap), *at = text;
        at += sprintf(at, "digraph g { a -> b [time=\"");
        /* pieces of at most 8000 characters, joined with DOT's + */
#define PUT(c) do { if (++col % 8000 == 0) at += sprintf(at, "\" + \""); \
                     *at++ = (c); } while (0)
        for (size_t i = 0; i < n; i++)
            PUT(i % 2 ? '(' : '-');
        PUT('1');
        for (size_t i = 0; i < n; i++)
            if (i % 2)
                PUT(')');
#undef PUT
        sprintf(at, "\"]; }");
        char *path = tmp_file_with(text);
        pn_status_t st = pn_kernel_read_dot(path, NULL, &k, &err);
        if (deep) {
            ck_assert_int_eq(st, PN_EVALUE);
            ck_assert_ptr_nonnull(strstr(err.text, "deeper than"));
        } else {
            ck_assert_msg(st == PN_OK, "%s", err.text);
            pn_kernel_free(k);
        }
        unlink(path);
        free(path);
        free(text);
    }
}
END_TEST

START_TEST(critical_path_and_cache)
{
    pn_kernel_t *k = kernel("digraph g { a -> m [time=1]; b -> m [time=9];"
                            " m -> m [time=2]; m -> out [time=3];"
                            " a -> out [time=4]; }", NULL);
    pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
    size_t path[8], n;
    ck_assert_int_eq(pn_kernel_critical_path(k, &p, path, &n), PN_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(pn_kernel_node_name(k, path[0]), "b");
    ck_assert_str_eq(pn_kernel_node_name(k, path[1]), "m");
    ck_assert_str_eq(pn_kernel_node_name(k, path[2]), "out");
    ck_assert_double_eq(r_of(k, &p, 0), 9 + 2 + 3);
    pn_kernel_free(k);
    /* a repeated read of the same input costs the cached time */
    k = kernel("digraph g { x -> p [time=10]; x -> q [time=10];"
               " p -> o [time=1]; q -> o [time=1]; }", NULL);
    p.cached = 1;
    p.cached_read = 2;
    ck_assert_double_eq(r_of(k, &p, 0), 11);
    p.cached = 0;
    p.model = PN_MP_SERIALIZED;
    p.executors = 2;
    p.dt = 1;
    /* R = 2 reads: ((2-1)*2 + 2 - 1) dt = 3 for the second read */
    ck_assert_double_eq(r_of(k, &p, 0), 10 + 3 + 1);
    /* waits beyond a double: r overflows, PN_ERANGE */
    p.dt = 1e308;
    double r, paper;
    ck_assert_int_eq(pn_kernel_time_graph(k, &p, &r), PN_ERANGE);
    ck_assert_int_eq(pn_kernel_time_matrix(k, &p, &r, &paper), PN_ERANGE);
    pn_kernel_free(k);
}
END_TEST

START_TEST(signed_bindings)
{
    /* bindings are decimal numbers with an optional sign */
    static const struct {
        const char *bindings;
        double r;
    } cases[] = {{"t=-3", 2}, {"t=+2.5", 7.5}, {"t= 1e1", 15}};
    pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pn_kernel_t *k = kernel("digraph g { a -> b [time=\"t + 5\"]; }",
                                cases[i].bindings);
        ck_assert_double_eq(r_of(k, &p, 0), cases[i].r);
        pn_kernel_free(k);
    }
}
END_TEST

START_TEST(event_graph_limit)
{
    /* a -> b of time d: 2 transitions, an input place, d places and d - 1
     * transitions: 2d + 2 in all; the limit is 1,000,000 */
    static const struct {
        const char *time;
        pn_status_t st;
    } cases[] = {{"499999", PN_OK}, {"500000", PN_ETOOBIG},
                 {"1e300", PN_ETOOBIG}};
    pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[128];
        snprintf(text, sizeof text, "digraph g { a -> b [time=\"%s\"]; }",
                 cases[i].time);
        pn_kernel_t *k = kernel(text, NULL);
        pn_net_t *net = (pn_net_t *)1;
        pn_error_t err;
        ck_assert_int_eq(pn_kernel_event_graph(k, &p, &net, &err),
                         cases[i].st);
        if (cases[i].st == PN_OK) {
            ck_assert_int_eq(pn_net_place_count(net) +
                                 pn_net_transition_count(net),
                             PN_EVENT_GRAPH_MAX_NODES);
            pn_net_free(net);
        } else {
            ck_assert_ptr_null(net);
            ck_assert_ptr_nonnull(strstr(err.text, "more than the limit"));
        }
        pn_kernel_free(k);
    }
}
END_TEST

START_TEST(sums_that_overflow)
{
    /* finite times whose sum along a path is beyond a double */
    pn_kernel_t *k = kernel("digraph g { a -> b [time=\"1e308\"]; "
                            "b -> c [time=\"1e308\"]; a -> c [time=1]; }",
                            NULL);
    pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
    double r = 0, paper = 0;
    ck_assert_int_eq(pn_kernel_time_graph(k, &p, &r), PN_ERANGE);
    ck_assert(isinf(r) && r > 0);
    ck_assert_int_eq(pn_kernel_time_matrix(k, &p, &r, &paper), PN_ERANGE);
    ck_assert(isinf(r) && r > 0);
    pn_kernel_free(k);
    /* the same times side by side: no sum overflows */
    k = kernel("digraph g { a -> c [time=\"1e308\"]; "
               "b -> c [time=\"1e308\"]; }", NULL);
    ck_assert_int_eq(pn_kernel_time_graph(k, &p, &r), PN_OK);
    ck_assert_double_eq(r, 1e308);
    ck_assert_int_eq(pn_kernel_time_matrix(k, &p, &r, &paper), PN_OK);
    ck_assert_double_eq(paper, 1e308);
    pn_kernel_free(k);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("maxplus");
    TCase *tc = tcase_create("maxplus");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, matrix_operations);
    tcase_add_test(tc, kronecker_power_identity);
    tcase_add_test(tc, z1_and_z2);
    tcase_add_test(tc, serialized_vector_addition);
    tcase_add_test(tc, table_1);
    tcase_add_test(tc, matrix_equals_graph);
    tcase_add_test(tc, pnml_bridge);
    tcase_add_test(tc, bad_graphs);
    tcase_add_test(tc, critical_path_and_cache);
    tcase_add_test(tc, sums_that_overflow);
    tcase_add_test(tc, event_graph_limit);
    tcase_add_test(tc, signed_bindings);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
