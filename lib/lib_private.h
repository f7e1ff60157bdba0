/*
 * lib/lib_private.h - the private helpers of lib/, shared with every folder
 * above it (not installed; names pni_, never exported from libpn).
 */
#ifndef PN_LIB_PRIVATE_H
#define PN_LIB_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "net.h"

/* How many status codes there are (one past the last): for the tables of
 * status.c and the tests.  Not public: a new status must not change a
 * public constant. */
#define PNI_STATUS_COUNT (PN_EQUERY + 1)

/* A bump allocator for strings: freed all at once.  alloc, when set (after
 * pni_arena_init()), gives the chunks after the first, but those for a
 * single big string: memory the arena never frees (it belongs to ctx's
 * owner); NULL from it means malloc(). */
typedef struct pni_chunk pni_chunk_t;
typedef struct pni_arena {
    pni_chunk_t *head;
    void *(*alloc)(void *ctx, size_t n);
    void *ctx;
} pni_arena_t;

void pni_arena_init(pni_arena_t *a);
void pni_arena_free(pni_arena_t *a);
char *pni_arena_strdup(pni_arena_t *a, const char *s);
char *pni_arena_strndup(pni_arena_t *a, const char *s, size_t n);

/* An open-addressing map from string keys (borrowed: the caller keeps them
 * alive) to (kind, index).  The probed table holds only each key's hash and
 * the place of its entry, 8 bytes a slot, so a probe touches one cache line
 * and a key is compared only when its hash matches; the entries are kept
 * in insertion order beside it. */
typedef struct pni_hentry {
    const char *key;
    uint32_t hash;
    uint32_t kind;
    size_t index;
} pni_hentry_t;

typedef struct pni_hslot {
    uint32_t hash;
    uint32_t entry; /* 1 + index in entries; 0: empty */
} pni_hslot_t;

typedef struct pni_hash {
    pni_hslot_t *slots;
    size_t cap;    /* power of two or 0 */
    size_t used;
    pni_hentry_t *entries;
    size_t cap_entries;
} pni_hash_t;

void pni_hash_init(pni_hash_t *h);
void pni_hash_free(pni_hash_t *h);
/* Empties h, keeping its memory for the next keys. */
void pni_hash_clear(pni_hash_t *h);
uint32_t pni_hash_str(const char *s);
/* Returns the entry for key or NULL (valid until the next put). */
const pni_hentry_t *pni_hash_get(const pni_hash_t *h, const char *key);
/* Inserts; returns PN_EDUPID if present, PN_ENOMEM. */
pn_status_t pni_hash_put(pni_hash_t *h, const char *key, uint32_t kind,
                         size_t index);

/* Grows *buf (of *cap elements of size elem) to hold at least need. */
pn_status_t pni_grow(void **buf, size_t *cap, size_t need, size_t elem);

/* The greatest common divisor of |a| and |b| (0 when both are 0); both
 * must be above INT64_MIN. */
int64_t pni_gcd64(int64_t a, int64_t b);

/* Parses a non-negative decimal integer <= PN_TOKENS_MAX, with XML white
 * space around it.  Returns PN_OK, PN_EVALUE (empty, sign, not a number) or
 * PN_ERANGE; *what says which ("negative", "not an integer", "empty"). */
pn_status_t pni_parse_u64(const char *s, size_t len, uint64_t *out,
                          const char **what);

/* A decimal with at most 6 digits after the point, no exponent, no
 * trailing zeros ("20.5", "-3", "0"): what PNML positions and the dump
 * use, so that written numbers read back equal. */
void pni_format_decimal(char *buf, size_t size, double v);

/* The shortest text that reads back as exactly v (strtod()): rates and
 * weights, which must survive a round trip digit for digit.  plain: no
 * exponent and at least one digit after the point ("482.1600771",
 * "1.0"), as PIPE's rate grammar needs; else the shortest %g form
 * ("1e-09").  v finite; buf of PNI_EXACT_SIZE bytes holds every case. */
#define PNI_EXACT_SIZE 400
void pni_format_exact(char *buf, size_t size, double v, int plain);

/* Shows the n bytes of s safely in a message: printable ASCII as it is, a
 * backslash doubled, every other byte as \xHH; after max bytes (or when
 * buf is full) the text is cut and "..." follows.  Into buf (size >= 4:
 * 4 * max + 4 holds every case); returns buf. */
char *pni_quote(char *buf, size_t size, const char *s, size_t n, size_t max);

/* ---- strings ----------------------------------------------------------- */

/* A growing string: s[0..n) and a NUL after it (s is NULL until the first
 * append).  Zeroed is empty.  A growth that fails sets oom and returns
 * PN_ENOMEM; every later append then does nothing and returns PN_ENOMEM, so
 * a writer may test oom once at the end.  (lib/strbuf.c; compiled into
 * each installed library and program that uses it, as lib/error.c.) */
typedef struct pni_sb {
    char *s;
    size_t n, cap;
    int oom;
} pni_sb_t;

/* pni_sb_put() where b has no room for n more bytes (or is oom). */
pn_status_t pni_sb_grow_put(pni_sb_t *b, const char *s, size_t n);

/* Appends s[0..n).  Inline, as are pni_sb_puts(), pni_sb_putc() and
 * pni_sb_truncate(), for the PNML reader, which writes every text run and
 * every piece of a tool-specific block through them: a call each time
 * shows in its timings. */
static inline pn_status_t pni_sb_put(pni_sb_t *b, const char *s, size_t n)
{
    if (b->oom || !b->s || n >= b->cap - b->n)
        return pni_sb_grow_put(b, s, n);
    if (n)
        memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
    return PN_OK;
}

static inline pn_status_t pni_sb_puts(pni_sb_t *b, const char *s)
{
    return pni_sb_put(b, s, strlen(s));
}

static inline pn_status_t pni_sb_putc(pni_sb_t *b, char c)
{
    return pni_sb_put(b, &c, 1);
}

pn_status_t pni_sb_printf(pni_sb_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Inserts s[0..n) at offset at (at most b->n), the rest moved after it;
 * s must not point into b. */
pn_status_t pni_sb_insert(pni_sb_t *b, size_t at, const char *s, size_t n);
/* Cuts the string to its first n bytes (nothing when n >= b->n); the
 * memory is kept for what is appended next. */
static inline void pni_sb_truncate(pni_sb_t *b, size_t n)
{
    if (n < b->n) {
        b->n = n;
        b->s[n] = '\0';
    }
}
/* Hands the string over to the caller (free() it; "" when nothing was
 * appended), its length in *len (when len is not NULL), and leaves b
 * empty.  NULL after a failed growth (b is freed then). */
char *pni_sb_take(pni_sb_t *b, size_t *len);
void pni_sb_free(pni_sb_t *b);

/* s as a JSON string (RFC 8259), with its quotes: '"' and '\\' escaped,
 * the control characters below 0x20 as \b \f \n \r \t or \u00XX, valid
 * UTF-8 as it is, and each byte that is not part of valid UTF-8 as
 * \ufffd (the replacement character), so that the text is always valid
 * JSON.  NULL s writes null.  PNI_JSON_SCRIPT also escapes '<', '>' and
 * '&' (\u003c...): the text is then safe inside an HTML <script> element.
 * (lib/json.c; compiled in as lib/strbuf.c.) */
#define PNI_JSON_SCRIPT 1u
void pni_json_string(FILE *out, const char *s, unsigned flags);
void pni_sb_json(pni_sb_t *b, const char *s, unsigned flags);

/* ---- the error record: one rule for the whole library ---------------- */

/* Starts a call that reports through err: clears the record and, when
 * file is not NULL, names the file every later error of the call is in.
 * NULL err is allowed (nothing is recorded). */
void pni_error_begin(pn_error_t *err, const char *file);

/* Records an error and returns code.  The first error of a call wins: a
 * record that already holds one is left as it is.  line and column are 0
 * when unknown; file NULL keeps the file named by pni_error_begin(). */
pn_status_t pni_error(pn_error_t *err, pn_status_t code, unsigned long line,
                      unsigned long column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* ---- queries (query.h) ---------------------------------------------------- */

#include "query.h"
/* Appends an empty query to s: NULL when out of memory. */
pn_query_t *pni_query_append(pn_query_set_t *s);
/* Appends to a sum, a formula's children, its transitions: PN_ENOMEM. */
pn_status_t pni_qsum_add(pn_qsum_t *s, size_t place);
pn_status_t pni_qformula_add(pn_qformula_t *f, pn_qformula_t *kid);
pn_status_t pni_qformula_add_item(pn_qformula_t *f, size_t item);
/* A place or transition (kind) named s: by id, else by name.  Returns 0
 * found, -1 none, -2 no id but the name of several (none is taken). */
int pni_query_find(const pn_net_t *net, const char *s, pn_object_t kind,
                   size_t *index);
/* Whether f has a temporal operator (CTL) in it. */
int pni_qformula_temporal(const pn_qformula_t *f);
/* Sets q's kind from its CTL formula (q->formula, read at the initial
 * marking): EF f or AG f with no temporal operator in f become those
 * queries (f alone kept), anything else a CTL query. */
void pni_query_classify(pn_query_t *q);

/* ---- files ------------------------------------------------------------ */

/* Reads a whole file (path NULL: standard input) into a new buffer.
 * Returns PN_OK, PN_EIO (errno set) or PN_ENOMEM. */
pn_status_t pni_slurp(const char *path, char **buf, size_t *len);

/* Output files.  pni_output_open() opens path for writing:
 *  - a regular file, or one that does not exist yet, atomically: a
 *    temporary file beside it (its name, path followed by ".tmpXXXXXX", is
 *    stored in *tmp), renamed over it by pni_output_close() when ok is
 *    nonzero and everything was written, else removed.  The file gets the
 *    mode of the file it replaces, or 0666 less the umask.
 *  - a symbolic link: followed to its final target, which is then written
 *    as above (the temporary file is in the target's folder; the link
 *    stays a link);
 *  - anything else (a device, a FIFO, a socket), or a name that leads
 *    elsewhere than its links say (/dev/stdout): directly, *tmp NULL.
 * pni_output_close() closes the file and frees tmp.  Returns NULL (errno
 * set) / PN_EIO (errno set) on failure. */
FILE *pni_output_open(const char *path, char **tmp);
/* Writes s as one CSV field (RFC 4180: quoted, its quotes doubled, when it
 * holds a comma, a double quote or a line break). */
void pni_csv_field(FILE *out, const char *s);
pn_status_t pni_output_close(FILE *f, char *tmp, int ok);

/* ---- CSV and lines (lib/csv.c) ----------------------------------------- */

/* RFC 4180: cells separated by commas, records by CRLF or LF (a lone CR
 * also ends a record); a cell that starts with a double quote runs to the
 * next lone double quote and may hold commas, line breaks and doubled
 * quotes (""), which stand for one.  A UTF-8 byte order mark at the start
 * is skipped.  Records and cells may be of any length: the whole text is
 * in memory and cells point into it (quoted cells are unescaped in
 * place).
 *
 * Two settings, made after opening, read files of lines that are not
 * quite CSV: plain (a double quote and a carriage return are ordinary
 * bytes: each line, ended by LF alone, is cut at its commas, the cells
 * are the bytes as written) and comment (from that byte, outside a quoted
 * cell, to the end of the line is left out).
 *
 * Errors name the file, line and column (1-based, bytes): an unterminated
 * quoted cell (where it opened), text after a closing quote, a quote
 * inside an unquoted cell, more than 100,000 cells in a record. */

/* One cell: s[0..len) (not NUL-terminated), where it starts. */
typedef struct pni_csv_cell {
    const char *s;
    size_t len;
    unsigned long line, column;
    int quoted;           /* it was written in double quotes */
} pni_csv_cell_t;

typedef struct pni_csv {
    char *buf;           /* the whole text */
    size_t len, pos;
    unsigned long line;  /* line of buf[pos] */
    size_t line_start;   /* offset of the first byte of that line */
    pn_error_t *err;
    int plain;           /* setting: no quoting, lines end at LF alone */
    char comment;        /* setting: the byte that starts a comment; 0 none */
    /* the last record read */
    pni_csv_cell_t *cells;
    size_t n, cap;
    unsigned long rec_line;    /* the line it starts on */
    unsigned long end_line, end_column; /* just after its last cell */
    /* offsets in buf: its first byte, where its text stops (its comment,
     * line break or the end of the text), the line break that ends it (or
     * len); buf[rec_start..rec_end) is the record as written when plain */
    size_t rec_start, rec_end, line_end;
} pni_csv_t;

/* Reads path ("-" or NULL: standard input) whole.  err names the file (it
 * must have been started with pni_error_begin()).  what, when not NULL,
 * names the kind of file ("a profile") in the message that refuses a NUL
 * byte; NULL leaves NUL bytes to the caller (they are then ordinary bytes
 * of cells).  Returns PN_OK, PN_EIO (with the system's reason), PN_ENOMEM,
 * or PN_EVALUE for a NUL byte. */
pn_status_t pni_csv_open(pni_csv_t *c, const char *path, const char *what,
                         pn_error_t *err);
/* Reads s[0..len) (copied). */
pn_status_t pni_csv_open_text(pni_csv_t *c, const char *s, size_t len,
                              pn_error_t *err);

/* Reads the next record into c->cells, c->n.  Returns PN_OK with *got 1, or
 * 0 at the end of the text; PN_EVALUE (err filled) or PN_ENOMEM.  Empty
 * lines (and, with comment, lines of a comment alone) are records of one
 * empty cell: the caller decides. */
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

/* ---- nets ------------------------------------------------------------- */

/* Forgets every page: nodes go back to no page, tool-specific data of
 * pages is given to the net. */
void pni_net_clear_pages(pn_net_t *net);
/* Marks the transition's timing as not read whole (timing_lost): the
 * writers refuse the net until pn_net_set_timing() sets it. */
void pni_net_timing_lost(pn_net_t *net, size_t transition);
/* The transition's rate as an expression of the marking (rate.c), kept as
 * written (NULL: the rate is the number in rate); PN_EINVAL for a bad
 * index, PN_ENOMEM. */
pn_status_t pni_net_set_rate_expr(pn_net_t *net, size_t transition,
                                  const char *expr);
/* PIPE's rate parameters, its <definition>s, kept to be written back:
 * id, name (either may be NULL), expression and the element as read (XML,
 * NULL when none). */
pn_status_t pni_net_add_rate_param(pn_net_t *net, const char *id,
                                   const char *name, const char *expr,
                                   const char *xml);
size_t pni_net_rate_param_count(const pn_net_t *net);
void pni_net_rate_param(const pn_net_t *net, size_t i, const char **id,
                        const char **name, const char **expr,
                        const char **xml);

/* ---- rate expressions (rate.c) ------------------------------------------ */

/* A rate that is an expression of the marking, compiled. */
typedef struct pni_rate pni_rate_t;
/* Compiles text (PIPE's grammar, rate.c), its place ids looked up in net:
 * PN_OK with *out, PN_EVALUE with *errpos (the byte of text where it went
 * wrong) and why (a message), or PN_ENOMEM. */
pn_status_t pni_rate_compile(const pn_net_t *net, const char *text,
                             pni_rate_t **out, size_t *errpos, char *why,
                             size_t whylen);
void pni_rate_free(pni_rate_t *e);
/* The value at marking m (m[p]: tokens on place p): any double, NaN and
 * negative ones included, for the caller to judge. */
double pni_rate_eval(const pni_rate_t *e, const pn_net_t *net,
                     const uint64_t *m);
/* Whether the expression reads the tokens of place; whether it reads no
 * marking at all. */
int pni_rate_reads(const pni_rate_t *e, size_t place);
int pni_rate_constant(const pni_rate_t *e);

#endif
