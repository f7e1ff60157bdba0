/* Helpers shared by the command-line programs (not part of libpn). */
#ifndef PN_CLI_H
#define PN_CLI_H

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
/* The options every program shares, and the rest: -h prints usage to
 * stdout, -V the version (CLI_OK); anything else is a bad option ("Try
 * --help" to stderr, CLI_EUSAGE).  Returns the exit code. */
int cli_common_option(const char *prog, int c, void (*usage)(FILE *));
/* The one FILE operand left after the options (next: getopt's optind):
 * argv[next], or NULL when there is not exactly one ("expected one FILE"
 * and the --help hint to stderr; exit with CLI_EUSAGE). */
const char *cli_one_file(const char *prog, int argc, char **argv, int next);
/* Reads the PNML net in path ('-': standard input).  Returns CLI_OK after
 * printing the net's warnings (cli_net_warnings()), or CLI_EINPUT after
 * printing the error (cli_error()). */
int cli_read_net(const char *prog, const char *path,
                 const pn_read_options_t *ro, pn_net_t **net);
/* The reader's warnings (what the file says that the net cannot, what was
 * ignored), one "PROG: warning: ..." line each on standard error: every
 * program that reads a net says them, as pn-info lists them. */
void cli_net_warnings(const char *prog, const pn_net_t *net);
/* A whole decimal number in [min, UINT64_MAX]: digits only (no sign, no
 * space), no overflow.  Returns 0, or -1 for anything else. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t *out);
/* Seconds on the monotonic clock (for rates and progress). */
double cli_now(void);

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
