/*
 * The PNML reader's time and peak memory beside `xmllint --stream --noout`
 * on the same files, measured in one run (best of REPS, interleaved, each
 * in its own child process so that peak memory is per run).
 *   bench-read [-r REPS] FILE...
 */
#include <config.h>
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

static run_t measure(const char *file, int ours)
{
    run_t r = {0, 0, 0};
    fflush(stdout); /* the child must not print what is buffered */
    double t0 = cli_now();
    pid_t pid = fork();
    if (pid == 0) {
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
    r.secs = cli_now() - t0;
    r.maxrss_kb = ru.ru_maxrss;
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return r;
}

int main(int argc, char **argv)
{
    int reps = 3, i = 1;
    if (argc > 2 && !strcmp(argv[1], "-r")) {
        reps = atoi(argv[2]);
        i = 3;
    }
    if (i >= argc || reps < 1) {
        fprintf(stderr, "usage: bench-read [-r REPS] FILE...\n");
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
        run_t best[2] = {{1e30, 0, 1}, {1e30, 0, 1}};
        for (int k = 0; k < reps; k++)
            for (int who = 0; who < 2; who++) {
                run_t r = measure(argv[i], who == 0);
                if (!r.ok)
                    best[who].ok = 0;
                if (r.secs < best[who].secs)
                    best[who].secs = r.secs;
                if (r.maxrss_kb > best[who].maxrss_kb)
                    best[who].maxrss_kb = r.maxrss_kb;
            }
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        printf("%-44.44s %8.1f %9.3f %9.3f %6.2fx %9.1f %9.1f %6.2fx%s\n", base,
               (double)sb.st_size / 1048576.0, best[0].secs, best[1].secs,
               best[0].secs / best[1].secs, best[0].maxrss_kb / 1024.0,
               best[1].maxrss_kb / 1024.0,
               (double)best[0].maxrss_kb / (double)best[1].maxrss_kb,
               best[0].ok && best[1].ok ? "" : "  (a run failed)");
        if (!best[0].ok || !best[1].ok)
            bad = 1;
    }
    printf("ratio: pn-toolkit reader / xmllint --stream (time: best of %d; "
           "memory: peak)\n", reps);
    return bad;
}
