/* The CSV and line reader of lib_private.h (pni_csv_t). */
#include <config.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib_private.h"

/* More cells than this in one record is not a table of ours (Nsight
 * Compute's largest raw pages have a few thousand columns); it bounds the
 * memory a line of commas can make us take. */
#define CSV_MAX_CELLS 100000

/* Starts reading buf[0..len) (malloc'd, now c's). */
static void csv_start(pni_csv_t *c, char *buf, size_t len, pn_error_t *err)
{
    memset(c, 0, sizeof *c);
    c->err = err;
    c->line = 1;
    c->buf = buf;
    c->len = len;
    if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
        c->pos = c->line_start = 3;
}

pn_status_t pni_csv_open(pni_csv_t *c, const char *path, const char *what,
                         pn_error_t *err)
{
    memset(c, 0, sizeof *c);
    const char *name = path && strcmp(path, "-") ? path : NULL;
    char *buf = NULL;
    size_t len = 0;
    pn_status_t st = pni_slurp(name, &buf, &len);
    if (st == PN_ENOMEM)
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory reading the file");
    if (st)
        return pni_error(err, PN_EIO, 0, 0, "cannot read: %s", strerror(errno));
    const char *nul = what && len ? memchr(buf, '\0', len) : NULL;
    if (nul) {
        size_t at = (size_t)(nul - buf), ls = 0;
        unsigned long line = 1;
        for (size_t i = 0; i < at; i++)
            if (buf[i] == '\n' || (buf[i] == '\r' && buf[i + 1] != '\n')) {
                line++;
                ls = i + 1;
            }
        free(buf);
        return pni_error(err, PN_EVALUE, line, (unsigned long)(at - ls + 1),
                         "a NUL byte (%s is a text file)", what);
    }
    csv_start(c, buf, len, err);
    return PN_OK;
}

pn_status_t pni_csv_open_text(pni_csv_t *c, const char *s, size_t len,
                              pn_error_t *err)
{
    memset(c, 0, sizeof *c);
    char *buf = malloc(len + 1);
    if (!buf)
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    if (len)
        memcpy(buf, s, len);
    buf[len] = '\0';
    csv_start(c, buf, len, err);
    return PN_OK;
}

void pni_csv_close(pni_csv_t *c)
{
    free(c->buf);
    free(c->cells);
    c->buf = NULL;
    c->cells = NULL;
    c->n = c->cap = 0;
}

static unsigned long col(const pni_csv_t *c, size_t pos)
{
    return (unsigned long)(pos - c->line_start + 1);
}

/* Whether buf[pos] ends an unquoted cell: a comma, a line break, the
 * comment byte. */
static int cell_end(const pni_csv_t *c, size_t pos)
{
    char ch = c->buf[pos];
    return ch == ',' || ch == '\n' || (ch == '\r' && !c->plain) ||
           (c->comment && ch == c->comment);
}

/* A quoted cell from its opening quote at c->pos, unescaped in place. */
static pn_status_t quoted_cell(pni_csv_t *c, pni_csv_cell_t *cell)
{
    char *b = c->buf;
    unsigned long oline = c->line, ocol = cell->column;
    size_t w = ++c->pos, start = w;
    for (;;) {
        if (c->pos >= c->len)
            return pni_error(c->err, PN_EVALUE, oline, ocol,
                             "a quoted cell opened here is never "
                             "closed (a double quote missing)");
        char ch = b[c->pos];
        if (ch == '"') {
            if (c->pos + 1 < c->len && b[c->pos + 1] == '"') {
                b[w++] = '"';
                c->pos += 2;
                continue;
            }
            c->pos++;
            break;
        }
        b[w++] = ch;
        c->pos++;
        if (ch == '\n' || (ch == '\r' && (c->pos >= c->len ||
                                          b[c->pos] != '\n'))) {
            c->line++;
            c->line_start = c->pos;
        }
    }
    cell->s = b + start;
    cell->len = w - start;
    cell->quoted = 1;
    if (c->pos < c->len && !cell_end(c, c->pos))
        return pni_error(c->err, PN_EVALUE, c->line, col(c, c->pos),
                         "text after the closing quote of a quoted "
                         "cell (a comma or the end of the line must "
                         "follow it; a quote inside a cell is "
                         "written twice)");
    return PN_OK;
}

pn_status_t pni_csv_next(pni_csv_t *c, int *got)
{
    *got = 0;
    c->n = 0;
    if (c->pos >= c->len)
        return PN_OK;
    char *b = c->buf;
    c->rec_line = c->line;
    c->rec_start = c->pos;
    for (;;) {
        pni_csv_cell_t cell = {NULL, 0, c->line, col(c, c->pos), 0};
        pn_status_t st;
        if (!c->plain && c->pos < c->len && b[c->pos] == '"') {
            if ((st = quoted_cell(c, &cell)))
                return st;
        } else {
            size_t start = c->pos;
            for (; c->pos < c->len && !cell_end(c, c->pos); c->pos++)
                if (b[c->pos] == '"' && !c->plain)
                    return pni_error(c->err, PN_EVALUE, c->line,
                                     col(c, c->pos),
                                     "a double quote inside an unquoted cell "
                                     "(quote the whole cell and write the "
                                     "quote twice)");
            cell.s = b + start;
            cell.len = c->pos - start;
        }
        if (c->n >= CSV_MAX_CELLS)
            return pni_error(c->err, PN_EVALUE, cell.line, cell.column,
                             "more than %d cells in one record",
                             CSV_MAX_CELLS);
        if (pni_grow((void **)&c->cells, &c->cap, c->n + 1, sizeof *c->cells))
            return pni_error(c->err, PN_ENOMEM, 0, 0, "out of memory");
        c->cells[c->n++] = cell;
        if (c->pos < c->len && b[c->pos] == ',') {
            c->pos++;
            continue;
        }
        c->end_line = c->line;
        c->end_column = col(c, c->pos);
        c->rec_end = c->pos;
        while (c->pos < c->len && b[c->pos] != '\n' &&
               (b[c->pos] != '\r' || c->plain))
            c->pos++; /* a comment */
        c->line_end = c->pos;
        if (c->pos < c->len) { /* a line break */
            if (b[c->pos] == '\r' && c->pos + 1 < c->len &&
                b[c->pos + 1] == '\n')
                c->pos++;
            c->pos++;
            c->line++;
            c->line_start = c->pos;
        }
        break;
    }
    *got = 1;
    return PN_OK;
}

int pni_csv_blank(const pni_csv_t *c)
{
    return c->n == 1 && c->cells[0].len == 0 && !c->cells[0].quoted;
}

int pni_csv_is(const pni_csv_cell_t *cell, const char *name)
{
    size_t n = strlen(name);
    return cell->len == n && !memcmp(cell->s, name, n);
}

long pni_csv_find(const pni_csv_cell_t *hdr, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (pni_csv_is(&hdr[i], name))
            return (long)i;
    return -1;
}

pn_status_t pni_csv_unique(const pni_csv_cell_t *hdr, size_t n,
                           const long *cols, size_t ncols, pn_error_t *err)
{
    for (size_t k = 0; k < ncols; k++) {
        if (cols[k] < 0 || (size_t)cols[k] >= n)
            continue;
        const pni_csv_cell_t *a = &hdr[cols[k]];
        for (size_t j = 0; j < n; j++) {
            const pni_csv_cell_t *b = &hdr[j];
            if (j == (size_t)cols[k] || b->len != a->len || memcmp(a->s, b->s, a->len))
                continue;
            const pni_csv_cell_t *second = j > (size_t)cols[k] ? b : a;
            char q[256];
            return pni_error(err, PN_EVALUE, second->line, second->column,
                             "the column '%s' is in the header twice (fields "
                             "%zu and %zu): which one to read is not known",
                             pni_quote(q, sizeof q, a->s, a->len, 60),
                             (j < (size_t)cols[k] ? j : (size_t)cols[k]) + 1,
                             (j < (size_t)cols[k] ? (size_t)cols[k] : j) + 1);
        }
    }
    return PN_OK;
}

static int space(char ch) { return ch == ' ' || ch == '\t'; }

/* The cell's text without the blanks around it: *s, *n. */
static void trimmed(const pni_csv_cell_t *cell, const char **s, size_t *n)
{
    const char *b = cell->s;
    size_t len = cell->len;
    while (len && space(*b)) {
        b++;
        len--;
    }
    while (len && space(b[len - 1]))
        len--;
    *s = b;
    *n = len;
}

void pni_csv_copy(char *buf, size_t size, const pni_csv_cell_t *cell)
{
    const char *s;
    size_t n;
    trimmed(cell, &s, &n);
    if (n > size - 1)
        n = size - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

static int digit(char ch) { return ch >= '0' && ch <= '9'; }

int pni_csv_number(const pni_csv_cell_t *cell, double *out)
{
    char t[128];
    *out = NAN;
    const char *s;
    size_t n;
    trimmed(cell, &s, &n);
    if (n == 0)
        return 1;
    if ((n == 2 && !strncasecmp(s, "na", 2)) ||
        (n == 3 && (!strncasecmp(s, "n/a", 3) || !strncasecmp(s, "nan", 3))))
        return 1;
    if (n >= sizeof t)
        return -1;
    /* [+-] digits with optional thousands groups [. digits] [e [+-] digits] */
    size_t i = 0, o = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-')
        t[o++] = s[i++];
    size_t group = 0;  /* digits since the last comma */
    int commas = 0;
    for (; i < n && (digit(s[i]) || s[i] == ','); i++) {
        if (s[i] == ',') {
            /* a comma follows 1-3 digits (the first group) or exactly 3 */
            if (group == 0 || group > 3 || (commas && group != 3))
                return -1;
            commas = 1;
            group = 0;
            continue;
        }
        t[o++] = s[i];
        group++;
        digits++;
    }
    if (commas && group != 3)
        return -1;
    if (i < n && s[i] == '.') {
        t[o++] = s[i++];
        for (; i < n && digit(s[i]); i++, digits++)
            t[o++] = s[i];
    }
    if (!digits)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        t[o++] = s[i++];
        if (i < n && (s[i] == '+' || s[i] == '-'))
            t[o++] = s[i++];
        size_t e = 0;
        for (; i < n && digit(s[i]); i++, e++)
            t[o++] = s[i];
        if (!e)
            return -1;
    }
    if (i != n)
        return -1;
    t[o] = '\0';
    errno = 0;
    double v = strtod(t, NULL);
    if (!isfinite(v))
        return -2;
    *out = v;
    return 0;
}
