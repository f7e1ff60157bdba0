/*
 * pn/pnml.h - reading and writing PNML (ISO/IEC 15909-2) place/transition
 * nets.
 *
 * Ownership: a net returned through *net_out belongs to the caller
 * (pn_net_free()); nothing is returned on error (*net_out is set to NULL).
 * The error record follows pn/status.h: cleared on entry, the first error
 * of the call wins; NULL is allowed.
 */
#ifndef PN_PNML_H
#define PN_PNML_H

#include <stddef.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_read_options {
    const char *net_id;   /* read the <net> with this id; NULL: the first */
    uint64_t reserved[4];     /* zero (the init function sets it): room for
                                 fields of later versions */
} pn_read_options_t;

/* Fills the defaults (the first net).  Passing NULL options to a reader is
 * the same. */
void pn_read_options_init(pn_read_options_t *o);

/*
 * Reads a PNML document.  path "-" reads standard input (named "<stdin>"
 * in errors).  pn_pnml_read_memory() reads len bytes of buf, named name in
 * errors (NULL: "<memory>").  opts may be NULL.
 *
 * Returns PN_OK, or a status with err filled (file, line, column, text):
 * PN_EIO, PN_EXML, PN_EDUPID, PN_ENOID, PN_EUNKNOWN, PN_EARC, PN_EVALUE,
 * PN_ERANGE, PN_EREFCYCLE, PN_EUNSUPPORTED, PN_ENONET, PN_ESTRUCT, PN_ENOMEM.
 * Files, named pipes and standard input are streamed through libxml2's
 * SAX2 parser in blocks and read once: memory is the net plus the largest
 * single element (a place, an arc, a tool-specific block), whatever the
 * file's size.  Positions (line, column: columns count characters) come
 * from the parser.  Network access, DTD loading and entity substitution are
 * off; an entity reference is an error.  Safe to call from several threads
 * at once (each with its own net and error record).
 */
pn_status_t pn_pnml_read_file(const char *path, const pn_read_options_t *opts,
                              pn_net_t **net_out, pn_error_t *err);
pn_status_t pn_pnml_read_memory(const char *buf, size_t len, const char *name,
                                const pn_read_options_t *opts,
                                pn_net_t **net_out, pn_error_t *err);

typedef enum {
    PN_DIALECT_STANDARD = 0, /* PNML 2009 ptnet; special arcs marked both ways */
    PN_DIALECT_STRICT = 1,   /* valid against the official grammar, or refused */
    PN_DIALECT_PIPE = 2,     /* PIPE's dialect: no namespace, no page, <value> */
    PN_DIALECT_TAPAAL = 3,   /* standard, ids made of the names (TAPAAL shows
                                ids), laid on TAPAAL's 15-pixel grid */
    PN_DIALECT_WOPED = 4,    /* WoPeD's: ptNetb, absolute label positions */
    PN_DIALECT_PNPRO = 5     /* GreatSPN's PNPRO project (not PNML): one
                                <gspn> page */
} pn_dialect_t;

/* Parses "standard", "strict", "pipe", "tapaal", "woped", "pnpro"; returns
 * PN_EINVAL for anything else. */
pn_status_t pn_dialect_parse(const char *name, pn_dialect_t *dialect);

typedef struct pn_write_options {
    pn_dialect_t dialect;
    int grid;             /* 1: nodes without a position get one, on a grid
                             below the others (PIPE's dialect always does:
                             PIPE needs them); 0: only the net's own
                             positions are written */
    uint64_t reserved[4];     /* zero (the init function sets it): room for
                                 fields of later versions */
} pn_write_options_t;

/* Whether the writers keep tool-specific block t in dialect's output: PIPE's
 * keeps none, the strict one those whose <toolspecific> has no attributes
 * but tool, version and namespace declarations (the grammar's), the others
 * all.  What a program tells its user it left out. */
int pn_dialect_keeps_toolspecific(pn_dialect_t dialect,
                                  const pn_toolspecific_t *t);

/* Fills the defaults (the standard dialect, no positions invented).  Passing NULL options to a
 * writer is the same. */
void pn_write_options_init(pn_write_options_t *o);

/*
 * Writes the net as PNML.  path "-" writes standard output; any other path
 * is written atomically (a temporary file in the same folder, then renamed),
 * so a failed write leaves an existing file untouched.  A symbolic link is
 * followed: its final target is written that way, and the link stays.  What
 * is not a regular file (a device, a FIFO) cannot be replaced: it is written
 * directly.  opts may be NULL.  Neither writer lets libxml2 print anything.
 *
 * Ids that are not of the form [A-Za-z_][A-Za-z0-9_.-]* are rewritten to
 * that form (the original id becomes the name when the node has none).  A
 * node's position is written when it has one; with the option grid (and
 * always in the editors' dialects: pipe, tapaal, woped) every node gets
 * one, those without laid on a grid below the others.  A net built with pn_net_new() and written with
 * the defaults reads back unchanged (the same pn_net_dump()).
 * Transitions' timing is kept in every dialect: PIPE's own labels, our
 * <toolspecific tool="pn-toolkit"> block in the others; a net whose
 * timing the dialect cannot say (PIPE: a deterministic transition) or
 * whose timing was not read (timing_lost) is refused (PN_EDIALECT), never
 * written without it.
 * Returns PN_OK, PN_EDIALECT (with err->text saying why), PN_EIO (errno
 * set), PN_ENOMEM.
 */
pn_status_t pn_pnml_write_file(const pn_net_t *net, const char *path,
                               const pn_write_options_t *opts, pn_error_t *err);
pn_status_t pn_pnml_write_stream(const pn_net_t *net, FILE *out,
                                 const pn_write_options_t *opts,
                                 pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
