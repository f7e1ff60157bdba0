/*
 * pn/status.h - status codes and the error record of libpn.
 *
 * Ownership: a pn_error_t is owned by the caller and filled by the library;
 * it holds no pointers, so it needs no cleanup.
 */
#ifndef PN_STATUS_H
#define PN_STATUS_H

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every fallible libpn function returns one of these.  The numbers are part
 * of the API (programs print them and tests compare them): never renumber. */
typedef enum {
    PN_OK = 0,
    PN_ENOMEM = 1,       /* out of memory */
    PN_EINVAL = 2,       /* invalid argument (NULL, empty id, weight 0, ...) */
    PN_EIO = 3,          /* cannot open, read or write a file */
    PN_EXML = 4,         /* malformed XML */
    PN_EDUPID = 5,       /* an id is used twice */
    PN_ENOID = 6,        /* a required id is missing */
    PN_EUNKNOWN = 7,     /* an arc or reference names no node */
    PN_EARC = 8,         /* arc joins two places or two transitions, or its
                            kind does not fit its direction */
    PN_EVALUE = 9,       /* a number is not a non-negative integer, or is 0
                            where 0 is not allowed */
    PN_ERANGE = 10,      /* a number is above PN_TOKENS_MAX */
    PN_EREFCYCLE = 11,   /* reference places/transitions form a cycle */
    PN_EUNSUPPORTED = 12,/* not a place/transition net (high-level, colored) */
    PN_ENONET = 13,      /* no <net> in the document, or not the one asked */
    PN_EDIALECT = 14,    /* the output dialect cannot express this net */
    PN_ESTRUCT = 15,     /* PNML structure is wrong (element out of place,
                            entity reference, missing attribute) */
    PN_ERENDER = 16,     /* Graphviz could not lay out or render */
    PN_ETOOBIG = 17,     /* too large for what was asked (a layout, a
                            timeline): the message says what to do */
    PN_ETRACE = 18,      /* a trace is malformed or belongs to another net */
    PN_EQUERY = 19       /* a query (pn/query.h) is malformed */
} pn_status_t;

/* A short human text for a status ("duplicate id").  Static storage. */
const char *pn_strstatus(pn_status_t status);

/* A stable symbolic name for a status ("PN_EDUPID").  Static storage. */
const char *pn_status_name(pn_status_t status);

#define PN_ERROR_FILE_MAX 512
#define PN_ERROR_TEXT_MAX 512

/* Where and what the first error was.  line and column are 1-based; 0 means
 * "not known" (an I/O error, or an error about the net as a whole).  The
 * column counts characters from the start of the line in a PNML document
 * (a UTF-8 character of several bytes is one column; pn/pnml.h), and bytes
 * in an inline query (pn/query.h) and a GPU profile or device file
 * (pn/predict.h). */
typedef struct pn_error {
    pn_status_t code;
    unsigned long line;
    unsigned long column;
    char file[PN_ERROR_FILE_MAX];
    char text[PN_ERROR_TEXT_MAX];
} pn_error_t;

/* The error record's contract, for every function of libpn and
 * libpn-render that takes one (stated here once; tests/test_errors.c
 * checks each function):
 *  - the record may be NULL: then nothing is recorded;
 *  - it need not be initialised: the function resets the whole record on
 *    entry (every byte), so nothing of an earlier call survives, whether
 *    this one succeeds or fails;
 *  - on failure it is filled once, with the first error met: code (the
 *    status returned), file (the file the call reads or writes, when there
 *    is one), line and column when known, text;
 *  - on success it holds code PN_OK, no line, column or text (file may
 *    name the file the call read or wrote). */

/* Option structs (pn_read_options_t, pn_write_options_t,
 * pn_reach_options_t, pn_mp_params_t, pn_gpu_params_t, pn_dot_options_t)
 * are the caller's, and each has an init function that fills its defaults
 * (pn_read_options_init(), ...).  Set them with that function, or with a
 * designated initializer ({.dialect = PN_DIALECT_STRICT}; a field left out
 * is zero) only where the struct's header says that zero means the
 * default in every field; never with a positional initializer: each ends
 * with a reserved array that later versions take fields from, so that the
 * struct keeps its size and a program built against one version runs
 * unchanged with the next (README.md, "ABI policy"). */

/* Clears an error record to "no error". */
void pn_error_clear(pn_error_t *err);

/* Formats "file:line:column: text" (parts that are unknown are left out)
 * into buf; returns buf. */
char *pn_error_format(const pn_error_t *err, char *buf, unsigned long size);

/* The version of the library running ("0.1.0"); PN_VERSION_STRING
 * (pn/version.h) is that of the headers a program was compiled with. */
const char *pn_version(void);

#ifdef __cplusplus
}
#endif
#endif
