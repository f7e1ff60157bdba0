/*
 * gpu/csv_private.h - the CSV reader shared by the profile and device
 * readers of gpu/ (not installed; names pni_, never exported).
 *
 * RFC 4180: cells separated by commas, records by CRLF or LF (a lone CR
 * also ends a record); a cell that starts with a double quote runs to the
 * next lone double quote and may hold commas, line breaks and doubled
 * quotes (""), which stand for one.  A UTF-8 byte order mark at the start
 * is skipped.  Records and cells may be of any length: the whole file is
 * read into memory and cells point into it (quoted cells are unescaped in
 * place).
 *
 * Errors name the file, line and column (1-based, bytes): a NUL byte, an
 * unterminated quoted cell (where it opened), text after a closing quote,
 * a quote inside an unquoted cell.
 */
#ifndef PN_GPU_CSV_PRIVATE_H
#define PN_GPU_CSV_PRIVATE_H

#include <stddef.h>
#include "status.h"

/* One cell: s[0..len) (not NUL-terminated), where it starts. */
typedef struct pni_csv_cell {
    const char *s;
    size_t len;
    unsigned long line, column;
    int quoted;           /* it was written in double quotes */
} pni_csv_cell_t;

typedef struct pni_csv {
    char *buf;           /* the whole file */
    size_t len, pos;
    unsigned long line;  /* line of buf[pos] */
    size_t line_start;   /* offset of the first byte of that line */
    pn_error_t *err;
    /* the last record read */
    pni_csv_cell_t *cells;
    size_t n, cap;
    unsigned long rec_line;    /* the line it starts on */
    unsigned long end_line, end_column; /* just after its last cell */
} pni_csv_t;

/* Reads path ("-" or NULL: standard input) whole.  err names the file (it
 * must have been started with pni_error_begin()).  Returns PN_OK, PN_EIO
 * (with the system's reason), PN_ENOMEM, or PN_EVALUE for a NUL byte. */
pn_status_t pni_csv_open(pni_csv_t *c, const char *path, pn_error_t *err);

/* Reads the next record into c->cells, c->n.  Returns PN_OK with *got 1, or
 * 0 at the end of the file; PN_EVALUE (err filled) or PN_ENOMEM.  Empty
 * lines are records of one empty cell: the caller decides. */
pn_status_t pni_csv_next(pni_csv_t *c, int *got);

/* True when the record is one empty cell (an empty line). */
int pni_csv_blank(const pni_csv_t *c);

void pni_csv_close(pni_csv_t *c);

/* Whether cell equals the NUL-terminated name (case-sensitive). */
int pni_csv_is(const pni_csv_cell_t *cell, const char *name);

/* The index of the first header cell named name, or -1. */
long pni_csv_find(const pni_csv_cell_t *hdr, size_t n, const char *name);

/* Refuses a header that repeats the name of a column the reader uses:
 * cols[0..ncols) are indices from pni_csv_find() (-1: not used).  Returns
 * PN_OK, or PN_EVALUE naming the later cell's line and column and the
 * name (which of the two to read is not known). */
pn_status_t pni_csv_unique(const pni_csv_cell_t *hdr, size_t n,
                           const long *cols, size_t ncols, pn_error_t *err);

/* Copies cell into buf (size >= 1), NUL-terminated, cut at size - 1 bytes,
 * without white space at either end. */
void pni_csv_copy(char *buf, size_t size, const pni_csv_cell_t *cell);

/* Numbers of profiles.  A cell is a missing value when it is empty or reads
 * NA, N/A, n/a, nan (any case): pni_csv_number() returns 1 then, with
 * *out NAN.  Else it must be a decimal number, optionally signed, with an
 * optional fraction and exponent, whose integer part may group thousands
 * with commas ("32,856", "1,234.5"); white space around it is allowed.
 * Returns 0 with *out set; -1 when it is not such a number, -2 when it is
 * out of the range of a double. */
int pni_csv_number(const pni_csv_cell_t *cell, double *out);

#endif
