/* Internals of the PNML reader and writer (not installed). */
#ifndef PN_PNML_PRIVATE_H
#define PN_PNML_PRIVATE_H

#include <stddef.h>
#include "status.h"

/* The tool name of our own <toolspecific> block (capacities, pages). */
#define PNI_TOOL_NAME "pn-toolkit"
#define PNI_TOOL_VERSION "1"

/* Reads a whole file (path NULL: standard input) into a new buffer.
 * Returns PN_OK, PN_EIO (errno set) or PN_ENOMEM. */
pn_status_t pni_slurp(const char *path, char **buf, size_t *len);

#endif
