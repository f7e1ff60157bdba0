/*
 * State-space benchmark: for each file, one child process explores the
 * interleaving state space (pn-reach's search, without the edges) and
 * reports markings, edges, wall and processor seconds, markings per
 * processor second and peak memory
 * per marking (the resident set of the child over its markings, net and
 * program included), and the search's own tables per marking
 * (pn_reach_memory(): packed markings, hash index; parents only where
 * the unboundedness check needs them), as pn-reach --mcc StateSpace
 * explores.
 *   bench-reach FILE...
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pn.h"
#include "cli.h"

static int measure(const char *file)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0) {
        int status = 0;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    pn_net_t *net;
    pn_error_t err;
    if (pn_pnml_read_file(file, NULL, &net, &err)) {
        fprintf(stderr, "%s: %s\n", file, err.text);
        _exit(1);
    }
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.no_paths = 1; /* as pn-reach --mcc StateSpace: no parents */
    struct rusage ru0;
    getrusage(RUSAGE_SELF, &ru0);
    double cpu0 = (double)ru0.ru_utime.tv_sec + ru0.ru_utime.tv_usec / 1e6 +
                  (double)ru0.ru_stime.tv_sec + ru0.ru_stime.tv_usec / 1e6;
    double t0 = cli_now();
    pn_reach_t *r;
    if (pn_reach_explore(net, &o, &r)) {
        fprintf(stderr, "%s: out of memory\n", file);
        _exit(1);
    }
    double secs = cli_now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    /* processor time too: the wall time of a loaded machine says little */
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6 -
                 cpu0;
    /* an MCC instance is named by its folder */
    const char *base = file, *slash = strrchr(file, '/');
    if (slash && !strcmp(slash, "/model.pnml")) {
        const char *p = slash;
        while (p > file && p[-1] != '/')
            p--;
        static char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(slash - p), p);
        base = name;
    } else if (slash)
        base = slash + 1;
    double n = (double)pn_reach_states(r);
    printf("  %-32.32s %10.0f %11.0f %7.2f s %7.2f s %10.0f/s %6.1f B/state "
           "%6.1f B/state\n", base, n, (double)pn_reach_edges(r), secs, cpu,
           cpu > 0 ? n / cpu : 0,
           (double)ru.ru_maxrss * 1024.0 / (n > 0 ? n : 1),
           (double)pn_reach_memory(r) / (n > 0 ? n : 1));
    fflush(stdout);
    pn_reach_free(r);
    pn_net_free(net);
    _exit(0);
}

int main(int argc, char **argv)
{
    printf("  %-32s %10s %11s %9s %9s %12s %14s %14s\n", "file", "states",
           "edges", "wall", "cpu", "states/cpu-s", "peak/state",
           "tables/state");
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= measure(argv[i]);
    return rc;
}
