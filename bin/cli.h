/* Helpers shared by the command-line programs (not part of libpn). */
#ifndef PN_CLI_H
#define PN_CLI_H

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
/* Prints s as a JSON string (with quotes). */
void cli_json_string(FILE *out, const char *s);

#endif
