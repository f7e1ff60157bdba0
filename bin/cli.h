/* Helpers shared by the command-line programs (not part of libpn). */
#ifndef PN_CLI_H
#define PN_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include "pn.h"

/* Exit codes of every program (listed in each man page). */
enum {
    CLI_OK = 0,
    CLI_EINPUT = 1,  /* the input could not be read or is not a valid net */
    CLI_EUSAGE = 2,  /* bad command line */
    CLI_EOUTPUT = 3  /* the output could not be written or expressed */
};

/* "prog (pn-toolkit) 0.1.0" and the licence line, to stdout. */
void cli_version(const char *prog);
/* "prog: file:line:column: message [PN_ECODE]" to stderr. */
void cli_error(const char *prog, const pn_error_t *err);
/* pn_error_format() with standard input named "<stdin>". */
const char *cli_error_format(const pn_error_t *err, char *buf, size_t size);
/* The one FILE operand left after the options (next: getopt's optind):
 * argv[next], or NULL when there is not exactly one ("expected one FILE"
 * and the --help hint to stderr; exit with CLI_EUSAGE). */
const char *cli_one_file(const char *prog, int argc, char **argv, int next);
/* Reads the PNML net in path ('-': standard input).  Returns CLI_OK after
 * printing the net's warnings (cli_net_warnings()) and, but in pn-convert,
 * that the transitions' timing is not used, or CLI_EINPUT after printing
 * the error (cli_error()). */
int cli_read_net(const char *prog, const char *path,
                 const pn_read_options_t *ro, pn_net_t **net);
/* The program uses the timing (pn-run --semantics stochastic): no word
 * that it is not used. */
void cli_timing_used(void);
/* The reader's warnings (what the file says that the net cannot, what was
 * ignored), one "PROG: warning: ..." line each on standard error: every
 * program that reads a net says them, as pn-info lists them (none with
 * --quiet). */
void cli_net_warnings(const char *prog, const pn_net_t *net);
/* "PROG: warning: ..." on standard error, unless --quiet. */
void cli_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* path as messages name it: "-" is "<stdin>" (in every program). */
const char *cli_input_name(const char *path);
/* Seconds on the monotonic clock (for rates and progress). */
double cli_now(void);

/* ---- the command line --------------------------------------------------- */

/* The options every program has, at the end of its long options:
 * -q/--quiet, -h/--help, -V/--version (short options "qhV").  A program
 * with output formats adds CLI_LONGOPT_FORMAT ("f:"), one that writes a
 * file CLI_LONGOPT_OUTPUT ("o:"). */
#define CLI_LONGOPTS_COMMON                                                 \
    {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},   \
        {"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0}
#define CLI_LONGOPT_FORMAT {"format", required_argument, NULL, 'f'}
#define CLI_LONGOPT_OUTPUT {"output", required_argument, NULL, 'o'}

/* The output formats, each with one name in every program (--format). */
typedef enum {
    CLI_TEXT, CLI_CSV, CLI_JSON, /* "jsonl" is also taken for json */
    CLI_SVG, CLI_PNG, CLI_PDF, CLI_DOT,
    CLI_NFORMATS
} cli_format_t;
#define CLI_FMT(f) (1u << (f))

/* What the options every program shares set (cli_option()). */
typedef struct {
    const char *prog;
    void (*usage)(FILE *);
    unsigned formats;    /* the --format values the program writes: CLI_FMT()s */
    cli_format_t format; /* the one asked for (preset: the program's default) */
    int format_given;
    const char *output;  /* -o, --output FILE (preset: the default) */
                         /* (-f and -o: for the programs that have them) */
} cli_common_t;

/* Takes c, one of the options every program shares: -h prints the usage
 * to stdout and -V the version (CLI_OK); -q makes cli_quiet() true; -f
 * FMT and -o FILE fill cc; anything else is a bad option ("Try --help" to
 * stderr, CLI_EUSAGE).  Returns an exit code, or -1 to go on. */
int cli_option(cli_common_t *cc, int c, const char *arg);
/* -q, --quiet: nothing on standard error but errors (no progress line, no
 * warnings, no notes). */
int cli_quiet(void);
/* The help lines of -q, -h and -V, their text from column col. */
void cli_usage_common(FILE *out, int col);

/* One word an option takes (--semantics, --dialect, ...). */
typedef struct {
    const char *name;
    int value;
    int alias; /* an older name: taken, but not listed in messages */
} cli_choice_t;
/* arg among choices (ended by a NULL name) into *value.  Returns 0, or -1
 * after "PROG: OPT: 'ARG' is not a, b or c". */
int cli_choice(const char *opt, const char *arg, const cli_choice_t *choices,
               int *value);
/* --semantics: maximal or interleaving. */
int cli_semantics(const char *arg, pn_semantics_t *sem);
/* --dialect: every dialect the PNML writer has. */
int cli_dialect(const char *arg, pn_dialect_t *dialect);

/* Numbers.  cli_parse_u64(): a whole decimal number in [min, UINT64_MAX],
 * digits only (no sign, no space), no overflow; 0, or -1 for anything
 * else, silently.  cli_uint() and cli_real() take an option's argument:
 * 0, or -1 after the one message of every program for a bad number,
 * "PROG: OPT: 'ARG' is not a whole number from MIN to MAX", or for a
 * real number (finite, strtod's decimal form) "... is not a number from
 * MIN to MAX" ("... >= MIN" when max is infinite). */
int cli_parse_u64(const char *s, uint64_t min, uint64_t *out);
int cli_uint(const char *opt, const char *arg, uint64_t min, uint64_t max,
             uint64_t *out);
int cli_real(const char *opt, const char *arg, double min, double max,
             double *out);

/* ---- the run options of pn-run and pn-sweep (cli-run.c) ---------------- */

typedef struct {
    uint64_t seed;        /* -s, --seed (default 1) */
    pn_semantics_t sem;   /* --semantics (default maximal) */
    uint64_t max_steps;   /* --max-steps (default 100000000) */
    uint64_t steps;       /* --steps N: the limit is the goal */
    int max_steps_given, exact_steps;
    int include_limited;  /* --include-limited */
    int per_run;          /* --per-run */
    uint64_t runs;        /* -n, --runs (preset: the program's default) */
    unsigned jobs;        /* -j, --jobs (--threads), default: the cores */
    int jobs_given;
    const char **counts;  /* the -c, --count lists (caller's room: argc) */
    size_t ncounts;
} cli_run_t;

/* The long options (before CLI_LONGOPTS_COMMON) and short ones. */
#define CLI_RUN_SHORTOPTS "s:n:c:j:"
#define CLI_RUN_LONGOPTS                                                    \
    {"seed", required_argument, NULL, 's'},                                \
        {"semantics", required_argument, NULL, CLI_OPT_SEMANTICS},         \
        {"max-steps", required_argument, NULL, CLI_OPT_MAX_STEPS},         \
        {"steps", required_argument, NULL, CLI_OPT_STEPS},                 \
        {"include-limited", no_argument, NULL, CLI_OPT_INCLUDE_LIMITED},   \
        {"per-run", no_argument, NULL, CLI_OPT_PER_RUN},                   \
        {"runs", required_argument, NULL, 'n'},                            \
        {"count", required_argument, NULL, 'c'},                           \
        {"jobs", required_argument, NULL, 'j'}
/* the codes of the long-only run options (above a program's own) */
enum { CLI_OPT_SEMANTICS = 1000, CLI_OPT_MAX_STEPS, CLI_OPT_STEPS,
       CLI_OPT_INCLUDE_LIMITED, CLI_OPT_PER_RUN };

/* The defaults (runs 0, jobs: the cores); counts: room for argc lists. */
void cli_run_init(cli_run_t *r, const char **counts);
/* Takes c if it is a run option.  Returns -1 to go on, an exit code after
 * a message, or -2 when c is not a run option. */
int cli_run_option(cli_run_t *r, int c, const char *arg);
/* After the options: --steps N becomes the step limit, with the limited
 * runs in the statistics.  Returns -1, or CLI_EUSAGE after a message
 * (--steps with --max-steps). */
int cli_run_finish(cli_run_t *r);

/* ---- outputs and signals ------------------------------------------------ */

/* Called first in main.  At exit, standard output is flushed and closed;
 * when that fails, "prog: standard output: cannot write: reason" goes to
 * stderr and the exit status becomes CLI_EOUTPUT, whatever main returned.
 * SIGHUP, SIGINT, SIGTERM and SIGPIPE (those not ignored when the program
 * started) remove the temporary files of the outputs still open, and the
 * program dies of the signal (the shell reports 128 + its number).
 * argv[0] becomes prog, so that getopt's messages name the program (under
 * libtool's wrapper argv[0] is bin/.libs/PROG). */
void cli_init(const char *prog, int argc, char **argv);
/* The program cli_init() was given. */
const char *cli_program(void);
/* From now on the first SIGHUP, SIGINT or SIGTERM is only recorded
 * (cli_signal_pending() returns it); a second one acts at once. */
void cli_defer_signals(void);
int cli_signal_pending(void);
/* Flushes standard output (reporting a failure), removes the temporary
 * files, and dies of sig. */
void cli_die_of_signal(int sig);

/* Output files: path "-" is standard output; any other is opened with
 * pni_output_open() (lib/lib_private.h): a regular or new file atomically
 * (a temporary file beside it, renamed over it when everything was
 * written), a symbolic link's final target that way, a device or a FIFO
 * directly.  Returns NULL after "prog: path: cannot write: reason". */
FILE *cli_output_open(const char *path, char **tmp);
/* Closes what cli_output_open() opened (standard output: flushes it).
 * ok 0 discards the output (the caller says why).  Returns CLI_OK, or
 * CLI_EOUTPUT after "prog: path: cannot write: reason". */
int cli_output_close(FILE *f, char *tmp, const char *path, int ok);
/* Writes net as PNML (pn_pnml_write_stream(), wo's options and every
 * node placed: grid on) to path through the two above.  Returns CLI_OK, or CLI_EOUTPUT after the message. */
int cli_write_net(const pn_net_t *net, const char *path,
                  const pn_write_options_t *wo);

#endif
