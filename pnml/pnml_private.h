/* Internals of the PNML reader and writer (not installed). */
#ifndef PN_PNML_PRIVATE_H
#define PN_PNML_PRIVATE_H

#include <stddef.h>
#include "status.h"

/* The tool name of our own <toolspecific> block (capacities, pages). */
#define PNI_TOOL_NAME "pn-toolkit"
#define PNI_TOOL_VERSION "1"

/* The id the writer gives to an id: itself when it already has the form
 * [A-Za-z_][A-Za-z0-9_.-]*; else a rewritten one.  Writes at most size
 * bytes into buf. */
void pni_pnml_sanitize_id(const char *id, char *buf, size_t size);

/* Sets up libxml2's global state once (thread-safe); every entry point
 * of pnml/ that uses libxml2 calls it first. */
void pni_xml_init(void);

#endif
