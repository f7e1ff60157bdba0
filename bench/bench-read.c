/*
 * The PNML reader's time and peak memory beside `xmllint --stream --noout`
 * on the same files, measured in one run: REPS pairs, the two in turn,
 * each in its own child process pinned to CPU 0 (so that peak memory is
 * per run); the time is the child's CPU time (user + system: the page
 * faults of a first touch of memory are much of a reader's cost), the
 * ratio the median of the pairs' ratios.
 * With -p PROG, the reader's side is PROG FILE (pn-info: a whole process,
 * as xmllint's is, its start-up included); without, the library's
 * pn_pnml_read_file() in a forked child (no start-up: a ratio that
 * flatters the reader by xmllint's start-up, some 10 ms).
 *   bench-read [-r REPS] [-p PROG] FILE...
 */
#include <config.h>
#define _GNU_SOURCE 1
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "pn.h"
#include "cli.h"

typedef struct {
    double secs;
    long maxrss_kb;
    int ok;
} run_t;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *prog; /* -p */

static run_t measure(const char *file, int ours)
{
    run_t r = {0, 0, 0};
    fflush(stdout); /* the child must not print what is buffered */
    pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        (void)sched_setaffinity(0, sizeof set, &set);
        if (ours && prog) {
            if (!freopen("/dev/null", "w", stdout))
                _exit(127);
            execl(prog, prog, file, (char *)NULL);
            _exit(127);
        }
        if (ours) {
            pn_net_t *net;
            pn_error_t err;
            pn_status_t st = pn_pnml_read_file(file, NULL, &net, &err);
            pn_net_free(net);
            _exit(st == PN_OK ? 0 : 1);
        }
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execlp("xmllint", "xmllint", "--stream", "--noout", file, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return r;
    r.secs = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
             (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    r.maxrss_kb = ru.ru_maxrss;
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return r;
}

int main(int argc, char **argv)
{
    int reps = 3, i = 1;
    for (;;) {
        if (i + 1 < argc && !strcmp(argv[i], "-r")) {
            reps = atoi(argv[i + 1]);
            i += 2;
        } else if (i + 1 < argc && !strcmp(argv[i], "-p")) {
            prog = argv[i + 1];
            i += 2;
        } else {
            break;
        }
    }
    if (i >= argc || reps < 1) {
        fprintf(stderr, "usage: bench-read [-r REPS] [-p PROG] FILE...\n");
        return 2;
    }
    printf("%-44s %8s %9s %9s %7s %9s %9s %7s\n", "file", "MB", "pn s",
           "xmllint s", "ratio", "pn MB", "xmllint MB", "ratio");
    int bad = 0;
    for (; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "bench-read: %s: cannot stat\n", argv[i]);
            bad = 1;
            continue;
        }
        run_t best[2] = {{0, 0, 1}, {0, 0, 1}};
        double *secs = calloc(2 * (size_t)reps, sizeof *secs);
        double *ratio = calloc((size_t)reps, sizeof *ratio);
        if (!secs || !ratio) {
            fprintf(stderr, "bench-read: out of memory\n");
            return 1;
        }
        for (int k = 0; k < reps; k++) {
            for (int who = 0; who < 2; who++) {
                run_t r = measure(argv[i], who == 0);
                if (!r.ok)
                    best[who].ok = 0;
                secs[who * reps + k] = r.secs;
                if (r.maxrss_kb > best[who].maxrss_kb)
                    best[who].maxrss_kb = r.maxrss_kb;
            }
            ratio[k] = secs[reps + k] > 0 ? secs[k] / secs[reps + k] : 0;
        }
        best[0].secs = median(secs, reps);
        best[1].secs = median(secs + reps, reps);
        double time_ratio = median(ratio, reps);
        free(secs);
        free(ratio);
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        printf("%-44.44s %8.1f %9.3f %9.3f %6.2fx %9.1f %9.1f %6.2fx%s\n", base,
               (double)sb.st_size / 1048576.0, best[0].secs, best[1].secs,
               time_ratio, best[0].maxrss_kb / 1024.0,
               best[1].maxrss_kb / 1024.0,
               (double)best[0].maxrss_kb / (double)best[1].maxrss_kb,
               best[0].ok && best[1].ok ? "" : "  (a run failed)");
        if (!best[0].ok || !best[1].ok)
            bad = 1;
    }
    printf("ratio: pn-toolkit reader / xmllint --stream (time: CPU seconds "
           "on CPU 0, medians of %d alternating pairs, the ratio the median "
           "of the pairs'; memory: peak)\n", reps);
    return bad;
}
