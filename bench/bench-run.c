/*
 * Engine benchmark, all figures measured in one run:
 *  - transitions fired per second and steps per second for the 64-warp
 *    WPNM (s = 4, xa = 2000, xs = 500, xg = 500, default latencies) and for
 *    the given PNML files, incremental engine and reference mode, and their
 *    ratio;
 *  - wall time of `pn-run --runs 200` with --jobs 2 against --jobs 1;
 *  - peak memory (resident set) of each measured child process.
 * Each measurement runs in its own child process.
 *   bench-run PN_RUN_PATH [FILE...]
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "pn.h"
#include "cli.h"

typedef struct {
    double secs;      /* time of the run loop alone */
    double steps, firings;
    long maxrss_kb;
    int ok;
} fig_t;

/* Runs the net in a child; the child reports its figures through a pipe. */
static fig_t measure(const char *file, int reference, uint64_t max_steps)
{
    fig_t f = {0, 0, 0, 0, 0};
    int fd[2];
    if (pipe(fd) != 0)
        return f;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        pn_net_t *net = NULL;
        if (file) {
            if (pn_pnml_read_file(file, NULL, &net, NULL) != PN_OK)
                _exit(1);
        } else {
            pn_gpu_params_t p = {.warps = 64, .schedulers = 4, .l1 = 20,
                .l2 = 2, .uniform = {2000, 500, 500}};
            if (pn_gpu_net(&p, &net) != PN_OK)
                _exit(1);
        }
        pn_engine_t *e;
        if (pn_engine_compile(net, &e) != PN_OK)
            _exit(1);
        pn_sim_t *s = pn_sim_new(e, 1, PN_SEM_MAXIMAL, reference);
        double t0 = cli_now();
        pn_sim_run(s, max_steps);
        double t = cli_now() - t0;
        double out[3] = {t, (double)pn_sim_steps(s), (double)pn_sim_firings(s)};
        if (write(fd[1], out, sizeof out) != (ssize_t)sizeof out)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    double in[3];
    ssize_t got = read(fd[0], in, sizeof in);
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return f;
    if (got == (ssize_t)sizeof in && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0) {
        f.secs = in[0];
        f.steps = in[1];
        f.firings = in[2];
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

static void row(const char *name, uint64_t max_steps, const char *file)
{
    fflush(stdout); /* the children must not print it again */
    fig_t inc = measure(file, 0, max_steps);
    /* the reference mode is slow by design: give it fewer steps on big nets
     * and compare rates, not totals */
    fig_t ref = measure(file, 1, max_steps);
    if (!inc.ok || !ref.ok) {
        printf("%-34s (failed)\n", name);
        return;
    }
    double ratio = (ref.secs / ref.steps) / (inc.secs / inc.steps);
    printf("%-34.34s %9.0f %11.0f %12.3g %12.3g %12.3g %8.1fx %8.1f\n", name,
           inc.steps, inc.firings, inc.firings / inc.secs,
           inc.steps / inc.secs, ref.steps / ref.secs, ratio,
           inc.maxrss_kb / 1024.0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench-run PN_RUN [FILE...]\n");
        return 2;
    }
    printf("%-34s %9s %11s %12s %12s %12s %9s %8s\n", "net", "steps",
           "firings", "firings/s", "steps/s", "ref steps/s", "inc/ref",
           "peak MB");
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
