/* Internals of the PNML reader and writer (not installed). */
#ifndef PN_PNML_PRIVATE_H
#define PN_PNML_PRIVATE_H

#include <stddef.h>
#include <sys/types.h>
#include <libxml/xmlwriter.h>
#include "net.h"
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

/* What the start of a document looks like (pnml/sniff.c): NULL when it
 * may be XML (libxml2 then says what is wrong), else the message that
 * names what it is instead ("not XML: this is a gzip file; ...").  Only
 * the first PNI_SNIFF_WINDOW bytes of buf (n bytes) are looked at. */
#define PNI_SNIFF_WINDOW 1024
const char *pni_pnml_sniff(const char *buf, size_t n);

/* Reads from fd into block (size bytes, at least PNI_SNIFF_WINDOW), as
 * read() does but retrying on EINTR; the first block of a document
 * (first != 0) is read on until pni_pnml_sniff() can judge it as it
 * would the whole document.  The bytes read, 0 at the end, -1 on an
 * error (errno set). */
ssize_t pni_pnml_read_head(int fd, char *block, size_t size, int first);

/* GreatSPN's PNPRO project (pnpro_write.c): whether id is a GreatSPN
 * name as it is; the net refused (PN_EDIALECT) when PNPRO cannot say it;
 * the document, with the ids and positions the writer planned.  -1 on a
 * write error. */
int pni_pnpro_name_ok(const char *id);
pn_status_t pni_pnpro_check(const pn_net_t *net, pn_error_t *err);
int pni_pnpro_write(xmlTextWriterPtr w, const pn_net_t *net,
                    const char *const *pid, const char *const *tid,
                    const double *px, const double *py, const double *tx,
                    const double *ty);

#endif
