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
 * With --peer CMD, each file is also given to another tool (CMD, split at
 * spaces, {} the file, {dir} its folder; e.g. TAPAAL's verifypn -e), whose
 * "STATE_SPACE STATES n" line, time and peak resident set are printed on
 * the line below ours.
 *   bench-reach [--peer CMD] FILE...
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

/* The peer's command for file: cmd with each {} replaced by file and each
 * {dir} by its folder, split at spaces into argv (at most 63 words). */
static char **peer_argv(const char *cmd, const char *file)
{
    static char buf[8192];
    static char *argv[64];
    const char *slash = strrchr(file, '/');
    int dirlen = slash ? (int)(slash - file) : 1;
    const char *dir = slash ? file : ".";
    size_t o = 0;
    for (const char *c = cmd; *c && o + 1 < sizeof buf; c++) {
        int n = 0;
        if (!strncmp(c, "{dir}", 5)) {
            n = snprintf(buf + o, sizeof buf - o, "%.*s", dirlen, dir);
            c += 4;
        } else if (!strncmp(c, "{}", 2)) {
            n = snprintf(buf + o, sizeof buf - o, "%s", file);
            c += 1;
        } else {
            buf[o] = *c;
            n = 1;
        }
        o = o + (size_t)n < sizeof buf ? o + (size_t)n : sizeof buf - 1;
    }
    buf[o] = '\0';
    int n = 0;
    for (char *t = strtok(buf, " "); t && n < 63; t = strtok(NULL, " "))
        argv[n++] = t;
    argv[n] = NULL;
    return n ? argv : NULL;
}

/* Runs the peer on file: its states (its "STATE_SPACE STATES n" line, the
 * Model Checking Contest's), wall and processor time and peak resident
 * set, on a line of the same columns. */
static int measure_peer(const char *cmd, const char *file)
{
    char **argv = peer_argv(cmd, file);
    int fd[2];
    if (!argv || pipe(fd)) {
        fprintf(stderr, "--peer: bad command\n");
        return 1;
    }
    fflush(stdout);
    double t0 = cli_now();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    char line[1024];
    double states = -1;
    while (in && fgets(line, sizeof line, in)) {
        const char *k = strstr(line, "STATE_SPACE STATES ");
        if (k)
            states = strtod(k + 19, NULL);
    }
    if (in)
        fclose(in);
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return 1;
    double secs = cli_now() - t0;
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    if (!WIFEXITED(status) || states < 0) {
        printf("  %-32.32s peer: no STATE_SPACE STATES line (exit %d)\n",
               argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 1;
    }
    const char *base = strrchr(argv[0], '/');
    printf("  %-32.32s %10.0f %11s %7.2f s %7.2f s %10.0f/s %6.1f B/state\n",
           base ? base + 1 : argv[0], states, "-", secs, cpu,
           cpu > 0 ? states / cpu : 0,
           (double)ru.ru_maxrss * 1024.0 / (states > 0 ? states : 1));
    return 0;
}

int main(int argc, char **argv)
{
    const char *peer = NULL;
    int first = 1;
    if (argc > 2 && !strcmp(argv[1], "--peer")) {
        peer = argv[2];
        first = 3;
    }
    printf("  %-32s %10s %11s %9s %9s %12s %14s %14s\n", "file", "states",
           "edges", "wall", "cpu", "states/cpu-s", "peak/state",
           "tables/state");
    int rc = 0;
    for (int i = first; i < argc; i++) {
        rc |= measure(argv[i]);
        if (peer)
            rc |= measure_peer(peer, argv[i]);
    }
    return rc;
}
