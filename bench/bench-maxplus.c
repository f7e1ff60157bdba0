/*
 * The graph method of pn-maxplus on a 10^5-node kernel graph (random DAG
 * with loops, about three arcs a node): time to read the DOT file through
 * libcgraph and time of the longest-path computation, in one run.
 *   bench-maxplus [NODES]
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "pn.h"
#include "cli.h"
#include "engine_private.h"

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 100000;
    char path[] = "/tmp/pn-bench-kernel-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return 1;
    pni_rng_t rng;
    pni_rng_seed(&rng, 1);
    size_t arcs = 0;
    fprintf(f, "digraph big {\n");
    for (size_t v = 0; v < n; v++) {
        for (int e = 0; e < 3 && v + 1 < n; e++) {
            size_t span = n - v - 1 < 1000 ? n - v - 1 : 1000;
            size_t w = v + 1 + (size_t)pni_rng_below(&rng, span);
            fprintf(f, "n%zu -> n%zu [time=\"t*%d\"];\n", v, w,
                    1 + (int)pni_rng_below(&rng, 9));
            arcs++;
        }
        if (pni_rng_below(&rng, 4) == 0)
            fprintf(f, "n%zu -> n%zu [time=\"tau\"];\n", v, v);
    }
    fprintf(f, "}\n");
    fclose(f);
    double t0 = cli_now();
    pn_kernel_t *k;
    pn_error_t err;
    if (pn_kernel_read_dot(path, "t=2,tau=3", &k, &err) != PN_OK) {
        fprintf(stderr, "bench-maxplus: %s\n", err.text);
        unlink(path);
        return 1;
    }
    double t1 = cli_now();
    pn_mp_params_t p = {.model = PN_MP_OPS, .executors = 1};
    double r;
    pn_kernel_time_graph(k, &p, &r);
    double t2 = cli_now();
    printf("pn-maxplus graph method: %zu nodes, %zu arcs: read (libcgraph) "
           "%.3f s, longest path %.4f s (r = %g)\n", n, arcs, t1 - t0,
           t2 - t1, r);
    pn_kernel_free(k);
    unlink(path);
    return 0;
}
