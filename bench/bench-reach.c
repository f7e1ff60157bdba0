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
 * the line below ours, and a line of ratios: states per processor second
 * and peak memory per state, ours over the peer's.  With --baseline NET
 * too, both tools first run on NET (a net of a few states) and the
 * ratios also compare the memory per state above each one's peak there:
 * what the states cost, without the program, its libraries and parser.
 *   bench-reach [--peer CMD [--baseline NET]] FILE...
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

/* What one run measured: states, processor seconds, peak resident set
 * in bytes. */
typedef struct {
    double states, cpu, peak;
} res_t;

/* Explores file in a child process (its peak resident set its own) and
 * prints a line; *out gets its figures. */
static int measure(const char *file, int quiet, res_t *out)
{
    int fd[2];
    if (pipe(fd))
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0) {
        close(fd[1]);
        int status = 0;
        ssize_t got = pid > 0 ? read(fd[0], out, sizeof *out) : -1;
        close(fd[0]);
        if (pid > 0)
            waitpid(pid, &status, 0);
        return got == (ssize_t)sizeof *out && WIFEXITED(status)
                   ? WEXITSTATUS(status) : 1;
    }
    close(fd[0]);
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
    res_t res = {n, cpu, (double)ru.ru_maxrss * 1024.0};
    if (write(fd[1], &res, sizeof res) != (ssize_t)sizeof res)
        _exit(1);
    if (!quiet)
        printf("  %-32.32s %10.0f %11.0f %7.2f s %7.2f s %10.0f/s "
               "%6.1f B/state %6.1f B/state\n", base, n,
               (double)pn_reach_edges(r), secs, cpu, cpu > 0 ? n / cpu : 0,
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
static int measure_peer(const char *cmd, const char *file, int quiet,
                        res_t *out)
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
    out->states = states;
    out->cpu = cpu;
    out->peak = (double)ru.ru_maxrss * 1024.0;
    if (quiet)
        return 0;
    const char *base = strrchr(argv[0], '/');
    printf("  %-32.32s %10.0f %11s %7.2f s %7.2f s %10.0f/s %6.1f B/state\n",
           base ? base + 1 : argv[0], states, "-", secs, cpu,
           cpu > 0 ? states / cpu : 0,
           (double)ru.ru_maxrss * 1024.0 / (states > 0 ? states : 1));
    return 0;
}

/* The two tools' ratios on one file: processor time per state, and
 * peak memory per state, whole and above each tool's baseline (its peak
 * on the --baseline net: the program, its libraries, the parser). */
static void ratios(const res_t *a, const res_t *b, const res_t *base)
{
    double sa = a->cpu > 0 ? a->states / a->cpu : 0;
    double sb = b->cpu > 0 ? b->states / b->cpu : 0;
    printf("  %-32s %10s %11s speed %.2fx, peak/state %.2fx", "ratio", "", "",
           sb > 0 ? sa / sb : 0,
           b->peak > 0 && a->states > 0 ? (a->peak / a->states) /
                                              (b->peak / b->states)
                                        : 0);
    if (base) {
        double ma = (a->peak - base[0].peak) / a->states;
        double mb = (b->peak - base[1].peak) / b->states;
        printf(", above baseline %.1f vs %.1f B/state %.2fx", ma, mb,
               mb > 0 ? ma / mb : 0);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *peer = NULL, *basefile = NULL;
    int first = 1;
    while (first + 1 < argc) {
        if (!strcmp(argv[first], "--peer"))
            peer = argv[first + 1];
        else if (!strcmp(argv[first], "--baseline"))
            basefile = argv[first + 1];
        else
            break;
        first += 2;
    }
    printf("  %-32s %10s %11s %9s %9s %12s %14s %14s\n", "file", "states",
           "edges", "wall", "cpu", "states/cpu-s", "peak/state",
           "tables/state");
    int rc = 0;
    res_t base[2] = {{0, 0, 0}, {0, 0, 0}};
    int have_base = 0;
    if (peer && basefile) {
        have_base = !measure(basefile, 1, &base[0]) &&
                    !measure_peer(peer, basefile, 1, &base[1]);
        if (have_base)
            printf("  baseline (%s): %.1f MB ours, %.1f MB the peer's\n",
                   basefile, base[0].peak / 1048576.0,
                   base[1].peak / 1048576.0);
    }
    for (int i = first; i < argc; i++) {
        res_t a = {0, 0, 0}, b = {0, 0, 0};
        int ra = measure(argv[i], 0, &a);
        rc |= ra;
        if (peer) {
            int rb = measure_peer(peer, argv[i], 0, &b);
            rc |= rb;
            if (!ra && !rb)
                ratios(&a, &b, have_base ? base : NULL);
        }
    }
    return rc;
}
