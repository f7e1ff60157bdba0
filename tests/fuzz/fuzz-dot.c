/*
 * libFuzzer harness for the kernel-graph reader (pn_kernel_read_dot(),
 * Graphviz DOT through libcgraph, as pn-maxplus reads it): every input is
 * read or refused with an error record, never a crash, leak or hang; a
 * kernel graph that is read gets its time by both methods under the three
 * models, and the two methods agree.
 *
 * Bindings: "t=400,T=400,tau=4", or the rest of a first line
 * "//set NAME=VALUE,..." (a DOT comment, so the file stays DOT).
 *
 * Seeds: the .dot files of share/examples/, tests/fuzz/seeds/dot/.
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS dot.
 */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "maxplus.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The matrix method costs O(n^3 log n): small graphs only. */
#define MATRIX_NODES_MAX 32

static int same_time(double a, double b)
{
    if (a == b) /* eps, inf */
        return 1;
    if (!isfinite(a) || !isfinite(b))
        return 0;
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static void check_kernel(const pn_kernel_t *k, size_t size)
{
    size_t n = pn_kernel_node_count(k), na = pn_kernel_arc_count(k);
    int nin = 0, nout = 0;
    for (size_t v = 0; v < n; v++) {
        int role = pn_kernel_node_role(k, v);
        if (!pn_kernel_node_name(k, v) || role < 0 || role > 3 ||
            !(pn_kernel_loop(k, v) >= 0))
            abort();
        nin += role & 1;
        nout += (role & 2) != 0;
    }
    if (n == 0 || !nin || !nout)
        abort(); /* the reader promises inputs and outputs */
    double *times = malloc((na + 1) * sizeof *times);
    size_t *path = malloc((n + 1) * sizeof *path);
    if (!times || !path)
        abort();
    for (size_t a = 0; a < na; a++) {
        size_t from, to;
        pn_kernel_arc_ends(k, a, &from, &to);
        if (from >= n || to >= n || from == to)
            abort();
    }
    for (int m = 0; m < 3; m++) {
        pn_mp_params_t p = {.model = (pn_mp_model_t)m,
                            .executors = 1 + (double)(size % 3),
                            .dt = 4, .dT = 4, .cached = (int)(size & 1),
                            .cached_read = 1};
        if (pn_kernel_arc_times(k, &p, times) != PN_OK)
            abort();
        double rg, rm, paper;
        size_t len;
        if (pn_kernel_time_graph(k, &p, &rg) != PN_OK ||
            pn_kernel_critical_path(k, &p, path, &len) != PN_OK ||
            len > n)
            abort();
        for (size_t i = 0; i < len; i++)
            if (path[i] >= n)
                abort();
        if (n <= MATRIX_NODES_MAX) {
            if (pn_kernel_time_matrix(k, &p, &rm, &paper) != PN_OK)
                abort();
            if (!same_time(rm, rg)) {
                fprintf(stderr, "model %d: matrix method %.17g, graph "
                        "method %.17g\n", m, rm, rg);
                abort();
            }
        }
    }
    free(times);
    free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *bindings = NULL;
    if (size >= 6 && !memcmp(data, "//set ", 6)) {
        const uint8_t *nl = memchr(data, '\n', size);
        bindings = fuzz_strndup(data + 6, (nl ? (size_t)(nl - data) : size) -
                                              6);
    }
    static char junk;
    pn_kernel_t *k = (pn_kernel_t *)(void *)&junk; /* the reader resets it */
    pn_error_t err;
    fuzz_dirty_error(&err);
    pn_status_t st = pn_kernel_read_dot(fuzz_memfile(data, size),
                                        bindings ? bindings
                                                 : "t=400,T=400,tau=4",
                                        &k, &err);
    free(bindings);
    fuzz_check_error(st, &err);
    if (st != PN_OK) {
        if (k || (st != PN_EINVAL && st != PN_EXML && st != PN_EVALUE &&
                  st != PN_EARC && st != PN_ESTRUCT && st != PN_ENOMEM))
            abort(); /* the header's list */
        return 0;
    }
    check_kernel(k, size);
    pn_kernel_free(k);
    return 0;
}
