#include <config.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "lib_private.h"

/* The program, for the messages of what runs at exit and on signals. */
static const char *cli_prog = "pn";

void cli_version(const char *prog)
{
    printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
}

const char *cli_error_format(const pn_error_t *err, char *buf, size_t size)
{
    /* the libraries' readers name standard input "-" */
    if (strcmp(err->file, "-"))
        return pn_error_format(err, buf, size);
    pn_error_t e = *err;
    snprintf(e.file, sizeof e.file, "%s", cli_input_name("-"));
    return pn_error_format(&e, buf, size);
}

void cli_error(const char *prog, const pn_error_t *err)
{
    char buf[PN_ERROR_FILE_MAX + PN_ERROR_TEXT_MAX + 64];
    fprintf(stderr, "%s: %s [%s]\n", prog,
            cli_error_format(err, buf, sizeof buf), pn_status_name(err->code));
}

/* -q, --quiet */
static int cli_is_quiet;

int cli_quiet(void)
{
    return cli_is_quiet;
}

/* The names of cli_format_t, and the older names still taken. */
static const cli_choice_t cli_formats[] = {
    {"text", CLI_TEXT, 0}, {"csv", CLI_CSV, 0}, {"json", CLI_JSON, 0},
    {"svg", CLI_SVG, 0},   {"png", CLI_PNG, 0}, {"pdf", CLI_PDF, 0},
    {"dot", CLI_DOT, 0},   {"jsonl", CLI_JSON, 1}, {NULL, 0, 0}};

int cli_option(cli_common_t *cc, int c, const char *arg)
{
    switch (c) {
    case 'h': cc->usage(stdout); return CLI_OK;
    case 'V': cli_version(cc->prog); return CLI_OK;
    case 'q': cli_is_quiet = 1; return -1;
    case 'o': cc->output = arg; return -1;
    case 'f': {
        if (!cc->formats)
            break;
        /* the program's formats only, named as every program names them */
        cli_choice_t mine[sizeof cli_formats / sizeof *cli_formats];
        size_t n = 0;
        for (const cli_choice_t *f = cli_formats; f->name; f++)
            if (cc->formats & CLI_FMT(f->value))
                mine[n++] = *f;
        mine[n].name = NULL;
        int v;
        if (cli_choice("--format", arg, mine, &v))
            return CLI_EUSAGE;
        cc->format = (cli_format_t)v;
        cc->format_given = 1;
        return -1;
    }
    default: break;
    }
    fprintf(stderr, "Try '%s --help'.\n", cc->prog);
    return CLI_EUSAGE;
}

void cli_usage_common(FILE *out, int col)
{
    fprintf(out, "%-*s%s\n%*s%s\n", col, "  -q, --quiet",
            "no progress line and no warnings on", col, "",
            "standard error (errors are still shown)");
    fprintf(out, "%-*s%s\n", col, "  -h, --help", "show this help and exit");
    fprintf(out, "%-*s%s\n", col, "  -V, --version",
            "show the version and exit");
}

int cli_choice(const char *opt, const char *arg, const cli_choice_t *choices,
               int *value)
{
    size_t n = 0;
    for (const cli_choice_t *c = choices; c->name; c++) {
        if (!strcmp(arg, c->name)) {
            *value = c->value;
            return 0;
        }
        n += !c->alias;
    }
    fprintf(stderr, "%s: %s: '%s' is not ", cli_prog, opt, arg);
    size_t k = 0;
    for (const cli_choice_t *c = choices; c->name; c++) {
        if (c->alias)
            continue;
        k++;
        fprintf(stderr, "%s%s", c->name, k == n ? "\n"
                                         : k == n - 1 ? " or " : ", ");
    }
    return -1;
}

int cli_semantics(const char *arg, pn_semantics_t *sem)
{
    static const cli_choice_t names[] = {
        {"maximal", PN_SEM_MAXIMAL, 0},
        {"interleaving", PN_SEM_INTERLEAVING, 0},
        {NULL, 0, 0}};
    int v;
    if (cli_choice("--semantics", arg, names, &v))
        return -1;
    *sem = (pn_semantics_t)v;
    return 0;
}

int cli_dialect(const char *arg, pn_dialect_t *dialect)
{
    static const cli_choice_t names[] = {
        {"standard", PN_DIALECT_STANDARD, 0}, {"strict", PN_DIALECT_STRICT, 0},
        {"pipe", PN_DIALECT_PIPE, 0},         {"tapaal", PN_DIALECT_TAPAAL, 0},
        {"woped", PN_DIALECT_WOPED, 0},       {"pnpro", PN_DIALECT_PNPRO, 0},
        {NULL, 0, 0}};
    int v;
    if (cli_choice("--dialect", arg, names, &v))
        return -1;
    *dialect = (pn_dialect_t)v;
    return 0;
}

const char *cli_one_file(const char *prog, int argc, char **argv, int next)
{
    if (next != argc - 1) {
        fprintf(stderr, "%s: expected one FILE (or '-')\nTry '%s --help'.\n",
                prog, prog);
        return NULL;
    }
    return argv[next];
}

/* Set by cli_timing_used(): the program runs the net with its timing. */
static int timing_used;

void cli_timing_used(void)
{
    timing_used = 1;
}

int cli_read_net(const char *prog, const char *path,
                 const pn_read_options_t *ro, pn_net_t **net)
{
    pn_error_t err;
    if (pn_pnml_read_file(path, ro, net, &err)) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    cli_net_warnings(prog, *net);
    /* the net keeps its transitions' timing, but only pn-convert (it
     * writes it) and pn-solve (it solves it) use it: the programs that
     * run, explore or draw the net take it untimed, and say so as the
     * reader said it before it kept it */
    size_t c[PN_TIMING_KINDS];
    pn_net_count_timing(*net, c);
    if (strcmp(prog, "pn-convert") != 0 && strcmp(prog, "pn-solve") != 0 &&
        !timing_used && c[PN_TIMING_NONE] < pn_net_transition_count(*net))
        cli_warning("%s: %zu timed and %zu immediate transitions: their "
                    "timing is not used here (the net is taken untimed)",
                    cli_input_name(path),
                    c[PN_TIMING_EXPONENTIAL] + c[PN_TIMING_DETERMINISTIC],
                    c[PN_TIMING_IMMEDIATE]);
    return CLI_OK;
}

void cli_net_warnings(const char *prog, const pn_net_t *net)
{
    for (size_t i = 0; i < pn_net_warning_count(net) && !cli_is_quiet; i++)
        fprintf(stderr, "%s: warning: %s\n", prog, pn_net_warning(net, i));
}

void cli_warning(const char *fmt, ...)
{
    if (cli_is_quiet)
        return;
    va_list ap;
    fprintf(stderr, "%s: warning: ", cli_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *cli_input_name(const char *path)
{
    return path && strcmp(path, "-") ? path : "<stdin>";
}

int cli_parse_u64(const char *s, uint64_t min, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || v < min)
        return -1;
    *out = v;
    return 0;
}

int cli_uint(const char *opt, const char *arg, uint64_t min, uint64_t max,
             uint64_t *out)
{
    uint64_t v;
    if (cli_parse_u64(arg, min, &v) || v > max) {
        fprintf(stderr, "%s: %s: '%s' is not a whole number from %" PRIu64
                " to %" PRIu64 "\n", cli_prog, opt, arg, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_real(const char *opt, const char *arg, double min, double max,
             double *out)
{
    /* strtod's decimal form only: no space, hexadecimal, inf or nan */
    int ok = arg && (isdigit((unsigned char)*arg) || *arg == '.' ||
                     ((*arg == '-' || *arg == '+') &&
                      (isdigit((unsigned char)arg[1]) || arg[1] == '.')));
    for (const char *p = arg; ok && *p; p++)
        ok = !strchr("xXnNiI", *p);
    char *end = NULL;
    errno = 0;
    double v = ok ? strtod(arg, &end) : 0;
    if (!ok || end == arg || *end || errno || !isfinite(v) || v < min ||
        v > max) {
        if (isinf(max))
            fprintf(stderr, "%s: %s: '%s' is not a number >= %g\n", cli_prog,
                    opt, arg, min);
        else
            fprintf(stderr, "%s: %s: '%s' is not a number from %g to %g\n",
                    cli_prog, opt, arg, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- outputs and signals ------------------------------------------------ */

/* The temporary files of the outputs now open, removed by a signal.  Only
 * changed with the signals blocked, so the handler sees a whole entry. */
#define CLI_TMP_MAX 8
static char *volatile cli_tmp[CLI_TMP_MAX];
/* cli_defer_signals(): the first signal is only recorded, here */
static volatile sig_atomic_t cli_defer, cli_pending;
/* standard output's failure was reported (once is enough) */
static int cli_stdout_reported;

static const int cli_signals[] = {SIGHUP, SIGINT, SIGTERM, SIGPIPE};
#define CLI_NSIGNALS (sizeof cli_signals / sizeof cli_signals[0])

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < CLI_NSIGNALS; i++)
        sigaddset(&set, cli_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Async-signal-safe: unlink() only. */
static void remove_temporaries(void)
{
    for (size_t i = 0; i < CLI_TMP_MAX; i++) {
        char *t = cli_tmp[i];
        if (t)
            unlink(t);
    }
}

static void die_of(int sig)
{
    remove_temporaries();
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    raise(sig); /* blocked in a handler: delivered when it returns */
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void on_signal(int sig)
{
    if (cli_defer && !cli_pending && sig != SIGPIPE) {
        cli_pending = sig;
        return;
    }
    die_of(sig);
}

/* "prog: NAME: cannot write: reason" (e 0: no reason known); path "-" or
 * NULL is standard output. */
static void report(const char *path, int e)
{
    int out = !path || !strcmp(path, "-");
    if (out)
        cli_stdout_reported = 1;
    fprintf(stderr, "%s: %s: cannot write%s%s\n", cli_prog,
            out ? "standard output" : path, e ? ": " : "",
            e ? strerror(e) : "");
}

/* Flushes standard output; returns 0, or -1 after reporting it (once). */
static int flush_stdout(void)
{
    errno = 0;
    int e = fflush(stdout) != 0 ? (errno ? errno : -1)
            : ferror(stdout)    ? -1
                                : 0;
    if (!e)
        return 0;
    if (!cli_stdout_reported)
        report(NULL, e > 0 ? e : 0);
    return -1;
}

static void close_stdout(void)
{
    int bad = flush_stdout() != 0;
    /* closed before the program started (>&-) with nothing written: EBADF */
    if (fclose(stdout) != 0 && !bad && errno != EBADF) {
        report(NULL, errno);
        bad = 1;
    }
    if (bad)
        _exit(CLI_EOUTPUT);
}

void cli_init(const char *prog, int argc, char **argv)
{
    cli_prog = prog;
    if (argc > 0)
        argv[0] = (char *)prog;
    atexit(close_stdout);
    for (size_t i = 0; i < CLI_NSIGNALS; i++) {
        struct sigaction sa;
        /* a signal ignored by who started us stays ignored */
        if (sigaction(cli_signals[i], NULL, &sa) == 0 &&
            sa.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(cli_signals[i], &sa, NULL);
    }
}

const char *cli_program(void)
{
    return cli_prog;
}

void cli_defer_signals(void)
{
    cli_defer = 1;
}

int cli_signal_pending(void)
{
    return cli_pending;
}

void cli_die_of_signal(int sig)
{
    flush_stdout();
    die_of(sig);
    _exit(128 + sig); /* not reached */
}

FILE *cli_output_open(const char *path, char **tmp)
{
    *tmp = NULL;
    if (!strcmp(path, "-"))
        return stdout;
    sigset_t old;
    block_signals(&old);
    FILE *f = pni_output_open(path, tmp);
    int e = errno;
    size_t i = 0;
    while (f && *tmp && i < CLI_TMP_MAX && cli_tmp[i])
        i++;
    if (f && *tmp && i < CLI_TMP_MAX)
        cli_tmp[i] = *tmp;
    sigprocmask(SIG_SETMASK, &old, NULL);
    struct stat sb;
    if (!f && e && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        /* an existing file is replaced whole by a temporary one of its
         * folder, renamed over it: say that this one could not be made */
        fprintf(stderr, "%s: %s: cannot write: no temporary file can be made "
                "beside it (it is replaced whole): %s\n", cli_prog, path,
                strerror(e));
    } else if (!f) {
        report(path, e);
    }
    return f;
}

int cli_output_close(FILE *f, char *tmp, const char *path, int ok)
{
    if (f == stdout)
        return ok && flush_stdout() != 0 ? CLI_EOUTPUT : CLI_OK;
    sigset_t old;
    block_signals(&old);
    for (size_t i = 0; tmp && i < CLI_TMP_MAX; i++)
        if (cli_tmp[i] == tmp)
            cli_tmp[i] = NULL;
    pn_status_t st = pni_output_close(f, tmp, ok);
    int e = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (st != PN_OK && ok) {
        report(path, e);
        return CLI_EOUTPUT;
    }
    return CLI_OK;
}

int cli_write_net(const pn_net_t *net, const char *path,
                  const pn_write_options_t *wo)
{
    char *tmp;
    FILE *f = cli_output_open(path, &tmp);
    if (!f)
        return CLI_EOUTPUT;
    /* the programs write nets for editors: every node gets a position */
    pn_write_options_t o;
    if (wo)
        o = *wo;
    else
        pn_write_options_init(&o);
    o.grid = 1;
    pn_error_t err;
    pn_status_t st = pn_pnml_write_stream(net, f, &o, &err);
    int e = errno;
    int rc = cli_output_close(f, tmp, path, st == PN_OK);
    if (st == PN_EIO)
        report(path, e);
    else if (st) {
        snprintf(err.file, sizeof err.file, "%s",
                 strcmp(path, "-") ? path : "standard output");
        cli_error(cli_prog, &err);
    }
    return st ? CLI_EOUTPUT : rc;
}
