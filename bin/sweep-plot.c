/* pn-sweep --plot FILE: mean steps with their 95% confidence band against
 * the first parameter, one line per value of the second, drawn by gnuplot
 * (a program, fed a script on its standard input; its picture goes to the
 * output file through cli_output_open(), so a failed plot leaves no file). */
#include <config.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "gpu.h"
#include "sweep.h"

/* "warps" -> "warps (warps)" with the generator's unit when there is one */
static void axis_label(char *buf, size_t size, const char *name)
{
    long row = pn_gpu_option_find(name);
    size_t n;
    const pn_gpu_option_t *t = pn_gpu_option_table(&n);
    if (row >= 0 && strcmp(t[row].unit, name))
        snprintf(buf, size, "%s (%s)", name, t[row].unit);
    else if (!strncmp(name, "p_init:", 7))
        snprintf(buf, size, "%s (tokens)", name);
    else if (!strncmp(name, "arc:", 4))
        snprintf(buf, size, "%s (weight)", name);
    else
        snprintf(buf, size, "%s", name);
}

/* a string for gnuplot: double quotes, with \ and " escaped */
static void gp_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s != '\n')
            fputc(*s, f);
    }
    fputc('"', f);
}

/* The gnuplot script of the plot into gp: the terminal, the axes, one
 * data block a value of the second parameter (gname; NULL: none) in the
 * order met, and a band and a line for each.  data holds dlen bytes of
 * rows "group TAB x TAB mean TAB low TAB high", cut here in place. */
static void plot_script(FILE *gp, const char *term, const char *xname,
                        const char *gname, char *data, size_t dlen)
{
    char xl[300];
    axis_label(xl, sizeof xl, xname);
    fprintf(gp, "set terminal %s\nset xlabel ", term);
    gp_string(gp, xl);
    fprintf(gp, "\nset ylabel \"mean steps (95%% confidence band)\"\n"
            "set grid\nset key outside right title ");
    gp_string(gp, gname ? gname : "");
    fputc('\n', gp);
    /* one data block a value of the second parameter, in order met */
    char *groups[4096];
    size_t ng = 0;
    for (char *p = data; p && *p;) {
        char *nl = strchr(p, '\n');
        *nl = '\0';
        char *tab = strchr(p, '\t');
        *tab = '\0';
        size_t g = 0;
        while (g < ng && strcmp(groups[g], p))
            g++;
        if (g == ng && ng < 4096)
            groups[ng++] = p;
        p = nl + 1;
    }
    for (size_t g = 0; g < ng; g++) {
        fprintf(gp, "$G%zu << EOD\n", g);
        for (char *p = data; p < data + dlen;) {
            char *rest = p + strlen(p) + 1;
            if (!strcmp(p, groups[g]))
                fprintf(gp, "%s\n", rest);
            p = rest + strlen(rest) + 1;
        }
        fprintf(gp, "EOD\n");
    }
    fprintf(gp, "plot ");
    for (size_t g = 0; g < ng; g++) {
        fprintf(gp, "%s$G%zu using 1:3:4 with filledcurves lc %zu fs "
                "transparent solid 0.2 notitle, $G%zu using 1:2 with "
                "linespoints lc %zu pt 7 title ", g ? ", " : "", g,
                g + 1, g, g + 1);
        gp_string(gp, gname ? groups[g] : "mean steps");
    }
    fputc('\n', gp);
}

int sweep_plot(const sweep_t *s, const char *results, const char *path)
{
    const char *ext = strrchr(path, '.');
    const char *term = !ext ? NULL
                       : !strcmp(ext, ".svg") ? "svg size 800,500 dynamic noenhanced"
                       : !strcmp(ext, ".png") ? "pngcairo size 800,500 noenhanced"
                       : !strcmp(ext, ".pdf") ? "pdfcairo size 8in,5in noenhanced"
                       : NULL;
    if (!term) {
        fprintf(stderr, "%s: --plot: %s: the name must end in .svg, .png or "
                ".pdf\n", s->prog, path);
        return CLI_EUSAGE;
    }
#ifndef GNUPLOT
    fprintf(stderr, "%s: --plot: built without gnuplot (install it and run "
            "configure again)\n", s->prog);
    return CLI_EOUTPUT;
#else
    FILE *in = fopen(results, "r");
    if (!in) {
        fprintf(stderr, "%s: %s: %s\n", s->prog, results, strerror(errno));
        return CLI_EINPUT;
    }
    /* the steps rows: x (first parameter), group (second), mean, ci; the
     * header names the parameters */
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    pn_results_row_t head = {0}, row = {0};
    char *data = NULL;
    size_t dlen = 0;
    FILE *d = open_memstream(&data, &dlen);
    int rc = -1;
    while (d && (got = getline(&line, &cap, in)) > 0) {
        if (!head.mem) {
            if (pn_results_row_parse(PN_RESULTS_CSV, line, (size_t)got, &head,
                                     NULL) != PN_OK ||
                head.kind != PN_RESULTS_HEADER || head.nparams == 0) {
                fprintf(stderr, "%s: --plot: %s is not a CSV sweep result "
                        "with a parameter\n", s->prog, results);
                rc = CLI_EUSAGE;
                break;
            }
            continue;
        }
        if (pn_results_row_parse(PN_RESULTS_CSV, line, (size_t)got, &row,
                                 NULL) != PN_OK ||
            row.kind != PN_RESULTS_POINT || row.nparams != head.nparams ||
            strcmp(row.measure, "steps") || isnan(row.stats.mean))
            continue;
        const char *x = row.param_values[0];
        char *end;
        strtod(x, &end);
        if (*end || !*x) {
            fprintf(stderr, "%s: --plot: the first parameter, %s, is not a "
                    "number ('%s')\n", s->prog, head.params[0], x);
            rc = CLI_EUSAGE;
            break;
        }
        /* as the writer wrote them: 6 decimals */
        const pn_stats_t *st = &row.stats;
        fprintf(d, "%s\t%s\t%.6f\t%.6f\t%.6f\n",
                head.nparams > 1 ? row.param_values[1] : "-", x, st->mean,
                isnan(st->ci_low) ? st->mean : st->ci_low,
                isnan(st->ci_high) ? st->mean : st->ci_high);
    }
    pn_results_row_free(&row);
    fclose(in);
    if (d)
        fclose(d);
    if (rc < 0 && (!data || !dlen)) {
        fprintf(stderr, "%s: --plot: no point with a mean number of steps in "
                "%s\n", s->prog, results);
        rc = CLI_EINPUT;
    }
    char *tmp = NULL;
    FILE *out = rc < 0 ? cli_output_open(path, &tmp) : NULL;
    if (rc < 0 && !out)
        rc = CLI_EOUTPUT;
    int fds[2] = {-1, -1};
    pid_t pid = -1;
    if (rc < 0 && pipe(fds) == 0) {
        fflush(out);
        pid = fork();
        if (pid == 0) {
            dup2(fds[0], 0);
            dup2(fileno(out), 1);
            close(fds[0]);
            close(fds[1]);
            execl(GNUPLOT, "gnuplot", (char *)NULL);
            _exit(127);
        }
    }
    if (rc < 0 && pid < 0) {
        fprintf(stderr, "%s: --plot: cannot start %s: %s\n", s->prog, GNUPLOT,
                strerror(errno));
        rc = CLI_EOUTPUT;
    }
    if (rc < 0) {
        close(fds[0]);
        /* gnuplot stopping early is its exit status, not our death */
        struct sigaction ign, old;
        memset(&ign, 0, sizeof ign);
        ign.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ign, &old);
        FILE *gp = fdopen(fds[1], "w");
        plot_script(gp, term, head.params[0],
                    head.nparams > 1 ? head.params[1] : NULL, data, dlen);
        int werr = fclose(gp) != 0;
        int st;
        waitpid(pid, &st, 0);
        sigaction(SIGPIPE, &old, NULL);
        if (werr || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "%s: --plot: gnuplot failed\n", s->prog);
            rc = CLI_EOUTPUT;
        }
    }
    if (out) {
        int r = cli_output_close(out, tmp, path, rc < 0);
        if (rc < 0)
            rc = r;
    }
    free(line);
    pn_results_row_free(&head);
    free(data);
    return rc < 0 ? CLI_OK : rc;
#endif
}
