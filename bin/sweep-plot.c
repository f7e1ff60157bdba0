/* pn-sweep --plot FILE: the mean of each point with its 95% confidence
 * band against the sweep's first numeric parameter, one line per value of
 * the others (the net files of a PNML sweep, the second GPU parameter):
 * the steps in one panel and, with --count, the firings counted in a
 * second.  Drawn by gnuplot (a program, fed a script on its standard
 * input; its picture goes to the output file through cli_output_open(),
 * so a failed plot leaves no file). */
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

#ifdef GNUPLOT
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

/* One point row drawn: its panel (0 steps, 1 a count), its line, its x
 * (as written and as a number) and its mean with the band. */
typedef struct {
    int panel;
    size_t line;
    char *x;
    double xv, mean, low, high;
} dot_t;

/* What the plot draws: the rows kept, the lines (each a panel and a
 * title), the parameter along the axis and the key's title. */
typedef struct {
    dot_t *dots;
    size_t ndots, cap;
    char **titles;
    int *line_panel;
    size_t nlines;
    char *xname, *key, *count_id; /* count_id: the only count, or NULL */
    int counts, many_counts;
} plot_t;

static void plot_free(plot_t *p)
{
    for (size_t i = 0; i < p->ndots; i++)
        free(p->dots[i].x);
    for (size_t i = 0; i < p->nlines; i++)
        free(p->titles[i]);
    free(p->dots);
    free(p->titles);
    free(p->line_panel);
    free(p->xname);
    free(p->key);
    free(p->count_id);
}

/* A point row's values as read, kept until the axis is chosen. */
typedef struct {
    char *measure;
    char **values;
    double mean, low, high;
} kept_t;

static void kept_free(kept_t *k, size_t n, size_t nparams)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; k[i].values && j < nparams; j++)
            free(k[i].values[j]);
        free(k[i].values);
        free(k[i].measure);
    }
    free(k);
}

static int is_number(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    strtod(s, &end);
    return !*end;
}

/* A value in a line's title: a net file by its name alone, unless
 * another file of the sweep has that name too. */
static const char *shown_value(const char *name, const char *v,
                               const kept_t *k, size_t n, size_t j)
{
    const char *base = strrchr(v, '/');
    if (strcmp(name, "net") || !base)
        return v;
    base++;
    for (size_t i = 0; i < n; i++) {
        const char *o = k[i].values[j], *ob = strrchr(o, '/');
        if (strcmp(o, v) && !strcmp(ob ? ob + 1 : o, base))
            return v;
    }
    return base;
}

/* The title of row i's line: the values of the parameters other than
 * the axis (one: its value; more: name=value, ...), after the count's
 * transition when there are several counts. */
static char *line_title(const kept_t *k, size_t n, size_t i,
                        const char *const *params, size_t nparams, size_t x,
                        int many_counts)
{
    char *t = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&t, &len);
    if (!f)
        return NULL;
    int parts = 0;
    if (many_counts && !strncmp(k[i].measure, "count:", 6))
        parts += fprintf(f, "%s", k[i].measure + 6) > 0;
    for (size_t j = 0; j < nparams; j++) {
        if (j == x)
            continue;
        const char *v = shown_value(params[j], k[i].values[j], k, n, j);
        if (nparams > 2)
            fprintf(f, "%s%s=%s", parts ? ", " : "", params[j], v);
        else
            fprintf(f, "%s%s", parts ? ", " : "", v);
        parts++;
    }
    if (!parts)
        fprintf(f, "%s", !strncmp(k[i].measure, "count:", 6)
                             ? k[i].measure + 6 : "mean steps");
    fclose(f);
    return t;
}

/* The lines of the kept rows, x the axis.  0, or -1 (out of memory). */
static int plot_lines(plot_t *p, const kept_t *k, size_t n,
                      const char *const *params, size_t nparams, size_t x)
{
    p->dots = calloc(n + 1, sizeof *p->dots);
    p->titles = calloc(n + 1, sizeof *p->titles);
    p->line_panel = calloc(n + 1, sizeof *p->line_panel);
    if (!p->dots || !p->titles || !p->line_panel)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int panel = strncmp(k[i].measure, "count:", 6) == 0;
        char *t = line_title(k, n, i, params, nparams, x, p->many_counts);
        if (!t)
            return -1;
        size_t l = 0;
        while (l < p->nlines &&
               (p->line_panel[l] != panel || strcmp(p->titles[l], t)))
            l++;
        if (l == p->nlines) {
            p->titles[p->nlines] = t;
            p->line_panel[p->nlines++] = panel;
        } else {
            free(t);
        }
        dot_t *d = &p->dots[p->ndots++];
        d->panel = panel;
        d->line = l;
        if (!(d->x = strdup(k[i].values[x])))
            return -1;
        d->xv = strtod(d->x, NULL);
        d->mean = k[i].mean;
        d->low = k[i].low;
        d->high = k[i].high;
    }
    /* the key's title: the one parameter the lines are the values of */
    p->key = strdup(nparams == 2 ? params[x == 0] : "");
    return p->key && (p->xname = strdup(params[x])) ? 0 : -1;
}

/* Along a line, by x (the order of the values given need not be). */
static int by_x(const void *a, const void *b)
{
    const dot_t *u = *(const dot_t *const *)a, *v = *(const dot_t *const *)b;
    return u->xv < v->xv ? -1 : u->xv > v->xv ? 1 : u < v ? -1 : u > v;
}

/* The panel's data blocks ($L<line>) and its plot command. */
static int plot_panel(FILE *gp, const plot_t *p, int panel)
{
    const dot_t **line = malloc((p->ndots + 1) * sizeof *line);
    if (!line)
        return -1;
    for (size_t l = 0; l < p->nlines; l++) {
        if (p->line_panel[l] != panel)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < p->ndots; i++)
            if (p->dots[i].line == l)
                line[n++] = &p->dots[i];
        qsort(line, n, sizeof *line, by_x);
        fprintf(gp, "$L%zu << EOD\n", l);
        /* as the writer wrote them: 6 decimals */
        for (size_t i = 0; i < n; i++)
            fprintf(gp, "%s\t%.6f\t%.6f\t%.6f\n", line[i]->x, line[i]->mean,
                    line[i]->low, line[i]->high);
        fprintf(gp, "EOD\n");
    }
    free(line);
    char xl[300];
    axis_label(xl, sizeof xl, p->xname);
    fprintf(gp, "set xlabel ");
    gp_string(gp, xl);
    fprintf(gp, "\nset ylabel ");
    if (!panel)
        gp_string(gp, "mean steps (95% confidence band)");
    else {
        char yl[300];
        snprintf(yl, sizeof yl, "mean firings%s%s (95%% confidence band)",
                 p->count_id ? " of " : "", p->count_id ? p->count_id : "");
        gp_string(gp, yl);
    }
    /* the counts' key names the transition first when they are several */
    char key[300];
    snprintf(key, sizeof key, "%s%s%s",
             panel && p->many_counts ? "transition" : "",
             panel && p->many_counts && *p->key ? ", " : "", p->key);
    fprintf(gp, "\nset key outside right title ");
    gp_string(gp, key);
    fprintf(gp, "\nplot ");
    for (size_t l = 0, k = 0; l < p->nlines; l++) {
        if (p->line_panel[l] != panel)
            continue;
        fprintf(gp, "%s$L%zu using 1:3:4 with filledcurves lc %zu fs "
                "transparent solid 0.2 notitle, $L%zu using 1:2 with "
                "linespoints lc %zu pt 7 title ", k ? ", " : "", l, k + 1, l,
                k + 1);
        gp_string(gp, p->titles[l]);
        k++;
    }
    fputc('\n', gp);
    return 0;
}

/* The gnuplot script: the terminal (term: svg, pngcairo or pdfcairo;
 * taller with two panels), then the steps and the counts, each a panel. */
static int plot_script(FILE *gp, const char *term, const plot_t *p)
{
    int steps = 0;
    for (size_t l = 0; l < p->nlines; l++)
        steps |= !p->line_panel[l];
    int two = steps && p->counts, pdf = !strcmp(term, "pdfcairo");
    fprintf(gp, "set terminal %s size %s%s noenhanced\nset grid\n", term,
            pdf ? (two ? "8in,9in" : "8in,5in") : two ? "800,900" : "800,500",
            strcmp(term, "svg") ? "" : " dynamic");
    if (two)
        fprintf(gp, "set multiplot layout 2,1\n");
    int rc = steps ? plot_panel(gp, p, 0) : 0;
    if (!rc && p->counts)
        rc = plot_panel(gp, p, 1);
    if (two)
        fprintf(gp, "unset multiplot\n");
    return rc;
}

/* The point rows of the steps and of each count in results, drawn as p.
 * Returns -1 to go on, or an exit code after a message. */
static int plot_read(const sweep_t *s, const char *results, plot_t *p)
{
    FILE *in = fopen(results, "r");
    if (!in) {
        fprintf(stderr, "%s: %s: %s\n", s->prog, results, strerror(errno));
        return CLI_EINPUT;
    }
    char *line = NULL;
    size_t cap = 0, n = 0, kcap = 0;
    ssize_t got;
    pn_results_row_t head = {0}, row = {0};
    kept_t *k = NULL;
    int rc = -1;
    while ((got = getline(&line, &cap, in)) > 0) {
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
            (strcmp(row.measure, "steps") &&
             strncmp(row.measure, "count:", 6)) || isnan(row.stats.mean))
            continue;
        if (n == kcap) {
            kept_t *g = realloc(k, (kcap = kcap * 2 + 16) * sizeof *k);
            if (!g)
                break;
            k = g;
        }
        kept_t *e = &k[n];
        const pn_stats_t *st = &row.stats;
        e->mean = st->mean;
        e->low = isnan(st->ci_low) ? st->mean : st->ci_low;
        e->high = isnan(st->ci_high) ? st->mean : st->ci_high;
        e->measure = strdup(row.measure);
        e->values = calloc(head.nparams, sizeof *e->values);
        for (size_t j = 0; e->values && j < head.nparams; j++)
            e->values[j] = strdup(row.param_values[j]);
        n++;
        if (!e->measure || !e->values || !e->values[head.nparams - 1])
            break;
        if (strncmp(e->measure, "count:", 6))
            continue;
        /* the counts: their panel says which transition when only one */
        if (!p->counts && !(p->count_id = strdup(e->measure + 6)))
            break;
        p->many_counts |= strcmp(p->count_id, e->measure + 6) != 0;
        p->counts = 1;
    }
    int eof = got <= 0;
    pn_results_row_free(&row);
    free(line);
    fclose(in);
    if (rc < 0 && !eof) {
        fprintf(stderr, "%s: out of memory\n", s->prog);
        rc = CLI_EINPUT;
    }
    if (rc < 0 && !n) {
        fprintf(stderr, "%s: --plot: no point with a mean in %s\n", s->prog,
                results);
        rc = CLI_EINPUT;
    }
    /* the axis: the first parameter whose every value is a number */
    size_t x = 0;
    while (rc < 0 && x < head.nparams) {
        size_t i = 0;
        while (i < n && is_number(k[i].values[x]))
            i++;
        if (i == n)
            break;
        x++;
    }
    if (rc < 0 && x == head.nparams) {
        fprintf(stderr, "%s: --plot: no parameter of the sweep is a number "
                "to put along the axis (%s%s): sweep p_init:ID or arc:ID "
                "too\n", s->prog, head.params[0],
                head.nparams > 1 ? ", ..." : "");
        rc = CLI_EUSAGE;
    }
    if (p->many_counts) {
        free(p->count_id);
        p->count_id = NULL;
    }
    if (rc < 0 && plot_lines(p, k, n, head.params, head.nparams, x)) {
        fprintf(stderr, "%s: out of memory\n", s->prog);
        rc = CLI_EINPUT;
    }
    kept_free(k, n, head.nparams);
    pn_results_row_free(&head);
    return rc;
}
#endif

int sweep_plot(const sweep_t *s, const char *results, const char *path)
{
    const char *ext = strrchr(path, '.');
    const char *term = !ext ? NULL
                       : !strcmp(ext, ".svg") ? "svg"
                       : !strcmp(ext, ".png") ? "pngcairo"
                       : !strcmp(ext, ".pdf") ? "pdfcairo"
                       : NULL;
    if (!term) {
        fprintf(stderr, "%s: --plot: %s: the name must end in .svg, .png or "
                ".pdf\n", s->prog, path);
        return CLI_EUSAGE;
    }
#ifndef GNUPLOT
    (void)results;
    fprintf(stderr, "%s: --plot: built without gnuplot (install it and run "
            "configure again)\n", s->prog);
    return CLI_EOUTPUT;
#else
    plot_t p = {0};
    int rc = plot_read(s, results, &p);
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
        int werr = plot_script(gp, term, &p) != 0;
        werr |= fclose(gp) != 0;
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
    plot_free(&p);
    return rc < 0 ? CLI_OK : rc;
#endif
}
