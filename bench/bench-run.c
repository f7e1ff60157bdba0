/*
 * Engine benchmark, all figures measured in one run:
 *  - for the 64-warp WPNM (s = 4, xa = 2000, xs = 500, xg = 500, default
 *    latencies) and the given PNML files: firings per second, ns per firing
 *    and per arc touched (inputs, resets and outputs of the fired
 *    transitions) of the incremental engine, and its time as a ratio
 *    against two peers: the hand-written loop of bench/loop.c (time per
 *    firing; "same run" when it made the engine's very run) and the
 *    engine's reference mode (time per step: on big nets the reference is
 *    slow by design);
 *  - wall time of `pn-run --runs 200` with --jobs 2 against --jobs 1;
 *  - peak memory (resident set) of the engine's run.
 * Each measurement runs in a child process of its own, pinned to one CPU,
 * timed by the CPU time of its step loop alone; the three are alternated
 * round by round and the medians of ROUNDS rounds are compared (the CPUs
 * of a shared machine differ in speed from minute to minute).
 *   bench-run PN_RUN_PATH [FILE...]
 */
#define _GNU_SOURCE
#include <config.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "pn.h"
#include "cli.h"
#include "loop.h"

#define ROUNDS 5

enum { ENGINE, LOOP, REFERENCE, NKIND };

typedef struct {
    double secs;      /* CPU time of the run loop alone */
    double steps, firings, arcs;
    long maxrss_kb;
    int ok;
} fig_t;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static pn_net_t *load(const char *file)
{
    pn_net_t *net = NULL;
    if (file) {
        if (pn_pnml_read_file(file, NULL, &net, NULL) != PN_OK)
            return NULL;
    } else {
        pn_gpu_params_t p = {.warps = 64, .schedulers = 4, .l1 = 20,
            .l2 = 2, .uniform = {2000, 500, 500}};
        if (pn_gpu_net(&p, &net) != PN_OK)
            return NULL;
    }
    return net;
}

/* Runs the net in a child pinned to CPU 0; the child reports its figures
 * through a pipe. */
static fig_t measure(const char *file, int kind, uint64_t max_steps)
{
    fig_t f = {0, 0, 0, 0, 0, 0};
    int fd[2];
    if (pipe(fd) != 0)
        return f;
    fflush(stdout); /* the child must not print it again */
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        (void)sched_setaffinity(0, sizeof set, &set);
        pn_net_t *net = load(file);
        if (!net)
            _exit(1);
        double out[4];
        if (kind == LOOP) {
            loop_result_t r;
            if (bench_loop_run(net, 1, max_steps, &r) != 0)
                _exit(1);
            out[0] = r.secs;
            out[1] = (double)r.steps;
            out[2] = (double)r.firings;
            out[3] = (double)r.arcs;
        } else {
            pn_engine_t *e;
            if (pn_engine_compile(net, &e) != PN_OK)
                _exit(1);
            pn_sim_t *s = pn_sim_new(e, 1, PN_SEM_MAXIMAL, kind == REFERENCE);
            double t0 = cpu_now();
            pn_sim_run(s, max_steps);
            out[0] = cpu_now() - t0;
            out[1] = (double)pn_sim_steps(s);
            out[2] = (double)pn_sim_firings(s);
            out[3] = 0;
        }
        if (write(fd[1], out, sizeof out) != (ssize_t)sizeof out)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    double in[4];
    ssize_t got = pid > 0 ? read(fd[0], in, sizeof in) : -1;
    close(fd[0]);
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return f;
    if (got == (ssize_t)sizeof in && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0) {
        f.secs = in[0];
        f.steps = in[1];
        f.firings = in[2];
        f.arcs = in[3];
        f.ok = 1;
    }
    f.maxrss_kb = ru.ru_maxrss;
    return f;
}

static double run_cmd(char *const argv[], long *maxrss_kb)
{
    double t0 = cli_now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    *maxrss_kb = ru.ru_maxrss;
    return cli_now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void row(const char *name, uint64_t max_steps, const char *file)
{
    fig_t last[NKIND];
    double secs[NKIND][ROUNDS];
    int have_loop = 1;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < NKIND; i++) {
            int k = (i + r) % NKIND; /* each kind first in turn */
            if (k == LOOP && !have_loop)
                continue;
            fig_t f = measure(file, k, max_steps);
            if (!f.ok) {
                if (k != LOOP) {
                    printf("%-30.30s (failed)\n", name);
                    return;
                }
                have_loop = 0;
                continue;
            }
            secs[k][r] = f.secs;
            last[k] = f;
        }
    double te = median(secs[ENGINE], ROUNDS),
           tr = median(secs[REFERENCE], ROUNDS);
    const fig_t *e = &last[ENGINE], *ref = &last[REFERENCE];
    printf("%-30.30s %8.0f %10.0f %8.2f %7.1f", name, e->steps, e->firings,
           e->firings / te / 1e6, te / e->firings * 1e9);
    if (have_loop) {
        double tl = median(secs[LOOP], ROUNDS);
        const fig_t *l = &last[LOOP];
        int same = l->steps == e->steps && l->firings == e->firings;
        printf(" %6.2f %7.3fx %-4s", te / l->arcs * 1e9,
               (te / e->firings) / (tl / l->firings), same ? "yes" : "no");
    } else {
        printf(" %6s %8s %-4s", "-", "-", "-");
    }
    printf(" %7.3fx %7.1f\n", (te / e->steps) / (tr / ref->steps),
           e->maxrss_kb / 1024.0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench-run PN_RUN [FILE...]\n");
        return 2;
    }
    printf("Medians of %d rounds, CPU time of each run loop, pinned to CPU 0."
           "\nvs loop: engine time per firing / the hand-written loop's "
           "(bench/loop.c; same: it made the very same run;\n"
           "  no on nets with stars, where the engine draws another stream "
           "with the same distribution);\n"
           "vs ref: engine time per step / the reference mode's "
           "(below 1: the engine is faster).\n", ROUNDS);
    printf("%-30s %8s %10s %8s %7s %6s %8s %-4s %8s %7s\n", "net", "steps",
           "firings", "Mfire/s", "ns/fire", "ns/arc", "vs loop", "same",
           "vs ref", "peak MB");
    row("wpnm W=64 s=4 2000/500/500", UINT64_MAX, NULL);
    for (int i = 2; i < argc; i++) {
        const char *base = strrchr(argv[i], '/');
        row(base ? base + 1 : argv[i], 20000, argv[i]);
    }
    /* --jobs 2 against --jobs 1, 200 runs of the default 32-warp net */
    char net[] = "/tmp/pn-bench-XXXXXX";
    int fd = mkstemp(net);
    if (fd < 0)
        return 1;
    close(fd);
    /* runs long enough (tens of ms) that thread start-up and the serial
     * read of the net do not dominate */
    pn_gpu_params_t p = {.warps = 32, .schedulers = 2, .l1 = 20, .l2 = 2,
        .uniform = {100, 40, 40}};
    pn_net_t *n;
    if (pn_gpu_net(&p, &n) != PN_OK ||
        pn_pnml_write_file(n, net, NULL, NULL) != PN_OK)
        return 1;
    pn_net_free(n);
    char *a1[] = {argv[1], "--runs", "200", "--jobs", "1", "-q", net, NULL};
    char *a2[] = {argv[1], "--runs", "200", "--jobs", "2", "-q", net, NULL};
    long m1 = 0, m2 = 0;
    fflush(stdout);
    double t1 = run_cmd(a1, &m1), t2 = run_cmd(a2, &m2);
    unlink(net);
    if (t1 < 0 || t2 < 0) {
        printf("pn-run --runs 200: failed\n");
        return 1;
    }
    printf("pn-run --runs 200 (32 warps, 100/40/40): --jobs 1 %.3f s, --jobs 2 %.3f s: "
           "speed-up %.2fx on %ld cores (peak %.1f / %.1f MB)\n", t1, t2,
           t1 / t2, sysconf(_SC_NPROCESSORS_ONLN), m1 / 1024.0, m2 / 1024.0);
    return 0;
}
