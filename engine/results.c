/* The result schema (results.h): tidy rows in CSV or JSON Lines, and the
 * summary statistics of a sample they carry (pn_stats_compute(), engine.h). */
#include <config.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"
#include "lib_private.h"

/* The schema's own columns, in order; the parameters go after "seed". */
static const char *const head[] = {"schema", "kind", "point", "run", "seed"};
static const char *const tail[] = {
    "measure", "end", "value", "requested", "runs", "dead", "limit",
    "overflow", "n", "mean", "sd", "min", "median", "max", "ci_low",
    "ci_high"};
#define NHEAD (sizeof head / sizeof *head)
#define NTAIL (sizeof tail / sizeof *tail)

pn_status_t pn_results_format_parse(const char *name, pn_results_format_t *f)
{
    if (name && !strcmp(name, "csv"))
        *f = PN_RESULTS_CSV;
    else if (name && (!strcmp(name, "jsonl") || !strcmp(name, "json")))
        *f = PN_RESULTS_JSONL;
    else
        return PN_EINVAL;
    return PN_OK;
}

int pn_results_param_ok(const char *name)
{
    if (!name || !*name)
        return 0;
    for (const char *c = name; *c; c++)
        if (*c < 0x21 || *c > 0x7e || *c == '"' || *c == '\\' || *c == ',')
            return 0;
    for (size_t i = 0; i < NHEAD; i++)
        if (!strcmp(name, head[i]))
            return 0;
    for (size_t i = 0; i < NTAIL; i++)
        if (!strcmp(name, tail[i]))
            return 0;
    return !!strcmp(name, "params");
}

uint64_t pn_point_seed(uint64_t seed, uint64_t point)
{
    return seed + point * UINT64_C(0x9E3779B97F4A7C15);
}

/* ---- text of fields ----------------------------------------------------- */

/* A parameter value: a JSON number when it is a plain whole number. */
static void json_value(FILE *out, const char *s)
{
    size_t n = strlen(s);
    int number = n > 0 && n < 16 && strspn(s, "0123456789") == n &&
                 (s[0] != '0' || n == 1);
    if (number)
        fputs(s, out);
    else
        pni_json_string(out, s, 0);
}

/* A row: the fields in column order, each written by the caller between
 * field() calls.  CSV: commas between; JSON: "name": before each. */
typedef struct {
    FILE *out;
    const pn_results_layout_t *l;
    int first;
} row_t;

static void row_begin(row_t *r, FILE *out, const pn_results_layout_t *l)
{
    r->out = out;
    r->l = l;
    r->first = 1;
    if (l->format == PN_RESULTS_JSONL)
        fputc('{', out);
}

/* Starts field name; returns 1 when its value is to be written. present 0:
 * the field does not apply (CSV: empty; JSON: left out). */
static int field(row_t *r, const char *name, int present)
{
    if (r->l->format == PN_RESULTS_CSV) {
        if (!r->first)
            fputc(',', r->out);
        r->first = 0;
        return present;
    }
    if (!present)
        return 0;
    fprintf(r->out, "%s\"%s\": ", r->first ? "" : ", ", name);
    r->first = 0;
    return 1;
}

static void row_end(row_t *r)
{
    fputs(r->l->format == PN_RESULTS_JSONL ? "}\n" : "\n", r->out);
}

static void u64_field(row_t *r, const char *name, int present, uint64_t v)
{
    if (field(r, name, present))
        fprintf(r->out, "%llu", (unsigned long long)v);
}

static void str_field(row_t *r, const char *name, int present, const char *s)
{
    if (!field(r, name, present))
        return;
    if (r->l->format == PN_RESULTS_CSV)
        pni_csv_field(r->out, s);
    else
        pni_json_string(r->out, s, 0);
}

/* A number (fmt: "%.6f" or "%.17g"); NaN: CSV empty, JSON null. */
static void num_field(row_t *r, const char *name, int present, double v,
                      const char *fmt)
{
    if (!field(r, name, present))
        return;
    if (isnan(v)) {
        if (r->l->format == PN_RESULTS_JSONL)
            fputs("null", r->out);
        return;
    }
    if (v == 0)
        v = 0; /* no "-0" */
    fprintf(r->out, fmt, v);
}

/* schema kind point run seed <params> */
static void row_head(row_t *r, const pn_results_point_t *p, const char *kind,
                     int has_run, uint64_t run, uint64_t seed)
{
    const pn_results_layout_t *l = r->l;
    u64_field(r, "schema", 1, PN_RESULTS_SCHEMA);
    str_field(r, "kind", 1, kind);
    u64_field(r, "point", 1, p->point);
    u64_field(r, "run", has_run, run);
    u64_field(r, "seed", 1, seed);
    if (l->format == PN_RESULTS_CSV) {
        for (size_t i = 0; i < l->nparams; i++) {
            fputc(',', r->out);
            pni_csv_field(r->out, p->param_values[i]);
        }
    } else if (l->nparams) {
        fputs(", \"params\": {", r->out);
        for (size_t i = 0; i < l->nparams; i++) {
            fprintf(r->out, "%s", i ? ", " : "");
            pni_json_string(r->out, l->params[i], 0);
            fputs(": ", r->out);
            json_value(r->out, p->param_values[i]);
        }
        fputc('}', r->out);
    }
}

static pn_status_t finish(FILE *out)
{
    return ferror(out) ? PN_EIO : PN_OK;
}

pn_status_t pn_results_write_header(FILE *out, const pn_results_layout_t *l)
{
    if (!out || !l)
        return PN_EINVAL;
    if (l->format != PN_RESULTS_CSV)
        return PN_OK;
    for (size_t i = 0; i < NHEAD; i++)
        fprintf(out, "%s%s", i ? "," : "", head[i]);
    for (size_t i = 0; i < l->nparams; i++) {
        fputc(',', out);
        pni_csv_field(out, l->params[i]);
    }
    for (size_t i = 0; i < NTAIL; i++)
        fprintf(out, ",%s", tail[i]);
    fputc('\n', out);
    return finish(out);
}

pn_status_t pn_results_write_runs(FILE *out, const pn_results_layout_t *l,
                                  const pn_results_point_t *p)
{
    if (!out || !l || !p)
        return PN_EINVAL;
    for (uint64_t i = 0; i < p->runs; i++)
        for (size_t k = 0; k < p->nmeasures; k++) {
            row_t r;
            row_begin(&r, out, l);
            row_head(&r, p, "run", 1, i, p->seeds[i]);
            str_field(&r, "measure", 1, p->measures[k]);
            str_field(&r, "end", 1, pn_end_name(p->ends[i]));
            num_field(&r, "value", 1, p->values[i * p->nmeasures + k],
                      "%.17g");
            for (size_t t = 3; t < NTAIL; t++)
                field(&r, tail[t], 0);
            row_end(&r);
        }
    return finish(out);
}

/* ---- statistics -------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Two-sided 95% quantile of Student's t with df degrees of freedom. */
static double t95(size_t df)
{
    static const double table[] = {
        0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
        2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
        2.042};
    if (df < sizeof table / sizeof *table)
        return table[df];
    if (df <= 40)
        return 2.021;
    if (df <= 60)
        return 2.000;
    if (df <= 120)
        return 1.980;
    return 1.960;
}

pn_status_t pn_stats_compute(const double *v, size_t n, pn_stats_t *out)
{
    if (!out || (!v && n))
        return PN_EINVAL;
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 0)
        return PN_OK;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return PN_ENOMEM;
    memcpy(sorted, v, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    out->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - out->mean) * (v[i] - out->mean);
    out->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = n % 2 ? sorted[n / 2]
                        : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double half = n > 1 ? t95(n - 1) * out->sd / sqrt((double)n) : 0;
    out->ci_low = out->mean - half;
    out->ci_high = out->mean + half;
    free(sorted);
    return PN_OK;
}

pn_status_t pn_results_stats(const pn_results_point_t *p, size_t measure,
                             pn_stats_t *out)
{
    if (!p || !out || measure >= p->nmeasures)
        return PN_EINVAL;
    double *v = calloc(p->runs ? p->runs : 1, sizeof *v);
    if (!v)
        return PN_ENOMEM;
    size_t n = 0;
    for (uint64_t i = 0; i < p->runs; i++)
        if (p->ends[i] == PN_END_DEAD ||
            (p->include_limited && p->ends[i] == PN_END_LIMIT))
            v[n++] = p->values[i * p->nmeasures + measure];
    pn_status_t st = pn_stats_compute(v, n, out);
    free(v);
    if (st)
        return st;
    if (n < 2) {
        out->ci_low = out->ci_high = NAN;
        if (n == 0)
            out->mean = out->min = out->median = out->max = NAN;
        out->sd = NAN;
    } else if (out->ci_low < 0)
        out->ci_low = 0;
    return PN_OK;
}

pn_status_t pn_results_write_point(FILE *out, const pn_results_layout_t *l,
                                   const pn_results_point_t *p)
{
    if (!out || !l || !p)
        return PN_EINVAL;
    uint64_t dead = 0, limit = 0, overflow = 0;
    for (uint64_t i = 0; i < p->runs; i++) {
        dead += p->ends[i] == PN_END_DEAD;
        limit += p->ends[i] == PN_END_LIMIT;
        overflow += p->ends[i] == PN_END_OVERFLOW;
    }
    for (size_t k = 0; k < p->nmeasures; k++) {
        pn_stats_t s;
        pn_status_t st = pn_results_stats(p, k, &s);
        if (st)
            return st;
        row_t r;
        row_begin(&r, out, l);
        row_head(&r, p, "point", 0, 0, p->seed);
        str_field(&r, "measure", 1, p->measures[k]);
        field(&r, "end", 0);
        field(&r, "value", 0);
        u64_field(&r, "requested", 1, p->requested);
        u64_field(&r, "runs", 1, p->runs);
        u64_field(&r, "dead", 1, dead);
        u64_field(&r, "limit", 1, limit);
        u64_field(&r, "overflow", 1, overflow);
        u64_field(&r, "n", 1, s.n);
        num_field(&r, "mean", 1, s.mean, "%.6f");
        num_field(&r, "sd", 1, s.sd, "%.6f");
        num_field(&r, "min", 1, s.min, "%.17g");
        num_field(&r, "median", 1, s.median, "%.17g");
        num_field(&r, "max", 1, s.max, "%.17g");
        num_field(&r, "ci_low", 1, s.ci_low, "%.6f");
        num_field(&r, "ci_high", 1, s.ci_high, "%.6f");
        row_end(&r);
    }
    return finish(out);
}

/* ---- reading rows back -------------------------------------------------- */

/* A field of a row as read, before its meaning is checked: the schema's
 * own columns are fields[0..NHEAD + NTAIL) (head, then tail). */
typedef struct {
    const char *s;  /* NUL-terminated; NULL: empty (CSV), absent or null */
    char type;      /* 's' a JSON string, 'n' a JSON number, 't' CSV text */
    unsigned long column;
} rfield_t;

#define NFIELDS (NHEAD + NTAIL)

/* What a parse keeps: the line's text, the cells, the names and values. */
typedef struct {
    pni_csv_t csv;
    char *text;
    const char **names, **values;
    size_t cap;
} rmem_t;

static void rmem_free(rmem_t *m)
{
    if (!m)
        return;
    pni_csv_close(&m->csv);
    free(m->text);
    free(m->names);
    free(m->values);
    free(m);
}

void pn_results_row_free(pn_results_row_t *row)
{
    if (!row)
        return;
    rmem_free(row->mem);
    memset(row, 0, sizeof *row);
}

/* Adds a parameter (name NULL for CSV rows). */
static pn_status_t add_param(rmem_t *m, size_t *n, const char *name,
                             const char *value)
{
    if (*n >= m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 8;
        const char **a = realloc(m->names, cap * sizeof *a);
        if (!a)
            return PN_ENOMEM;
        m->names = a;
        const char **b = realloc(m->values, cap * sizeof *b);
        if (!b)
            return PN_ENOMEM;
        m->values = b;
        m->cap = cap;
    }
    m->names[*n] = name;
    m->values[*n] = value;
    (*n)++;
    return PN_OK;
}

static long field_index(const char *name)
{
    for (size_t i = 0; i < NHEAD; i++)
        if (!strcmp(name, head[i]))
            return (long)i;
    for (size_t i = 0; i < NTAIL; i++)
        if (!strcmp(name, tail[i]))
            return (long)(NHEAD + i);
    return -1;
}

static const char *field_name(size_t i)
{
    return i < NHEAD ? head[i] : tail[i - NHEAD];
}

#define rbad(err, col, ...) pni_error(err, PN_EVALUE, 0, col, __VA_ARGS__)

/* A whole number of a field (digits only, up to UINT64_MAX). */
static pn_status_t get_u64(const rfield_t *f, size_t i, uint64_t *out,
                           pn_error_t *err)
{
    const char *s = f[i].s;
    uint64_t v = 0;
    int ok = s && *s && f[i].type != 's';
    for (; ok && *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            ok = 0;
        else
            v = v * 10 + d;
    }
    if (!ok)
        return rbad(err, f[i].column, "%s: %s", field_name(i),
                    f[i].s ? "not a whole number" : "missing");
    *out = v;
    return PN_OK;
}

/* A number of a field; NaN when it is empty or null. */
static pn_status_t get_double(const rfield_t *f, size_t i, double *out,
                              pn_error_t *err)
{
    const char *s = f[i].s;
    *out = NAN;
    if (!s)
        return PN_OK;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (f[i].type == 's' || !*s || *end || s[strspn(s, "0123456789+-.eE")] ||
        !isfinite(v))
        return rbad(err, f[i].column, "%s: not a number", field_name(i));
    *out = v;
    return PN_OK;
}

/* Fields that do not apply to the row's kind are empty. */
static pn_status_t none_of(const rfield_t *f, size_t from, size_t to,
                           const char *kind, pn_error_t *err)
{
    for (size_t i = from; i < to; i++)
        if (f[i].s)
            return rbad(err, f[i].column, "%s: a row of kind %s has none",
                        field_name(i), kind);
    return PN_OK;
}

/* The meaning of a row's fields (both formats). */
static pn_status_t fill_row(const rfield_t *f, pn_results_row_t *row,
                            pn_error_t *err)
{
    uint64_t schema;
    pn_status_t st = get_u64(f, 0, &schema, err);
    if (st)
        return st;
    if (schema != PN_RESULTS_SCHEMA)
        return rbad(err, f[0].column, "schema %llu: this library reads "
                    "schema %d", (unsigned long long)schema,
                    PN_RESULTS_SCHEMA);
    const char *kind = f[1].type != 'n' ? f[1].s : NULL;
    if (!kind || (strcmp(kind, "point") && strcmp(kind, "run")))
        return rbad(err, f[1].column, "kind: \"point\" or \"run\"");
    row->kind = strcmp(kind, "run") ? PN_RESULTS_POINT : PN_RESULTS_RUN;
    if ((st = get_u64(f, 2, &row->point, err)) ||
        (st = get_u64(f, 4, &row->seed, err)))
        return st;
    row->measure = f[NHEAD].type != 'n' ? f[NHEAD].s : NULL;
    if (!row->measure)
        return rbad(err, f[NHEAD].column, "measure: missing");
    row->value = NAN;
    row->stats.mean = row->stats.sd = row->stats.min = NAN;
    row->stats.median = row->stats.max = NAN;
    row->stats.ci_low = row->stats.ci_high = NAN;
    if (row->kind == PN_RESULTS_RUN) {
        const char *e = f[NHEAD + 1].type != 'n' ? f[NHEAD + 1].s : NULL;
        pn_end_t ends[] = {PN_END_DEAD, PN_END_LIMIT, PN_END_OVERFLOW,
                           PN_END_NONE};
        size_t k = 0;
        while (k < 4 && (!e || strcmp(e, pn_end_name(ends[k]))))
            k++;
        if (k == 4)
            return rbad(err, f[NHEAD + 1].column, "end: \"dead\", \"limit\", "
                        "\"overflow\" or \"running\"");
        row->end = ends[k];
        if ((st = get_u64(f, 3, &row->run, err)) ||
            (st = get_double(f, NHEAD + 2, &row->value, err)))
            return st;
        return none_of(f, NHEAD + 3, NFIELDS, "run", err);
    }
    if ((st = none_of(f, 3, 4, "point", err)) ||
        (st = none_of(f, NHEAD + 1, NHEAD + 3, "point", err)))
        return st;
    uint64_t *u[] = {&row->requested, &row->runs, &row->dead, &row->limit,
                     &row->overflow};
    for (size_t k = 0; k < 5; k++)
        if ((st = get_u64(f, NHEAD + 3 + k, u[k], err)))
            return st;
    uint64_t n;
    if ((st = get_u64(f, NHEAD + 8, &n, err)))
        return st;
    row->stats.n = (size_t)n;
    double *d[] = {&row->stats.mean, &row->stats.sd, &row->stats.min,
                   &row->stats.median, &row->stats.max, &row->stats.ci_low,
                   &row->stats.ci_high};
    for (size_t k = 0; k < 7; k++)
        if ((st = get_double(f, NHEAD + 9 + k, d[k], err)))
            return st;
    return PN_OK;
}

/* CSV: the header, or a row whose fields are the header's columns. */
static pn_status_t parse_csv(rmem_t *m, const char *line, size_t len,
                             pn_results_row_t *row, pn_error_t *err)
{
    pni_csv_t *c = &m->csv;
    int got = 0;
    pn_status_t st = pni_csv_open_text(c, line, len, err);
    if (!st)
        st = pni_csv_next(c, &got);
    if (st || !got)
        return st ? st : rbad(err, 0, "an empty line");
    if (c->pos < c->len)
        return rbad(err, 0, "more than one line");
    if (c->n < NFIELDS)
        return rbad(err, 0, "%zu fields: a row has %zu and one a parameter",
                    c->n, (size_t)NFIELDS);
    /* the cells as strings: each ends where its comma or quote was */
    for (size_t i = 0; i < c->n; i++)
        ((char *)c->cells[i].s)[c->cells[i].len] = '\0';
    size_t np = c->n - NFIELDS, n = 0;
    rfield_t f[NFIELDS];
    for (size_t i = 0; i < NFIELDS; i++) {
        const pni_csv_cell_t *cell = &c->cells[i < NHEAD ? i : i + np];
        f[i].s = cell->len ? cell->s : NULL;
        f[i].type = 't';
        f[i].column = cell->column;
    }
    int header = f[0].s && !strcmp(f[0].s, "schema");
    for (size_t i = 0; i < NFIELDS && header; i++)
        if (!f[i].s || strcmp(f[i].s, field_name(i)))
            return rbad(err, f[i].column, "a header whose column %zu is "
                        "not %s", i < NHEAD ? i + 1 : i + np + 1,
                        field_name(i));
    for (size_t i = 0; i < np; i++) {
        const char *s = c->cells[NHEAD + i].s;
        if ((st = add_param(m, &n, header ? s : NULL, header ? NULL : s)))
            return pni_error(err, st, 0, 0, "out of memory");
    }
    row->nparams = n;
    row->params = header ? m->names : NULL;
    row->param_values = header ? NULL : m->values;
    if (header) {
        row->kind = PN_RESULTS_HEADER;
        return PN_OK;
    }
    return fill_row(f, row, err);
}

/* ---- JSON Lines: one object a line -------------------------------------- */

typedef struct {
    const char *s;  /* the line */
    size_t len, pos;
    char *out;      /* where the next string or number is written */
    pn_error_t *err;
} jp_t;

static void jws(jp_t *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]))
        p->pos++;
}

static pn_status_t jbad(jp_t *p, const char *what)
{
    return rbad(p->err, (unsigned long)p->pos + 1, "%s", what);
}

static int jlit(jp_t *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
        return 0;
    p->pos += n;
    return 1;
}

static long jhex4(jp_t *p)
{
    if (p->len - p->pos < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p->s[p->pos++];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* One JSON escape of a code point (a backslash, 'u' and four hex digits;
 * two of them for a surrogate pair), read after its backslash and 'u',
 * written as UTF-8. */
static pn_status_t jescape_u(jp_t *p)
{
    long c = jhex4(p);
    if (c >= 0xD800 && c <= 0xDBFF) {
        long lo = jlit(p, "\\u") ? jhex4(p) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF)
            return jbad(p, "a lone surrogate in a \\u escape");
        c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
    } else if (c >= 0xDC00 && c <= 0xDFFF) {
        return jbad(p, "a lone surrogate in a \\u escape");
    }
    if (c <= 0)
        return jbad(p, c ? "a bad \\u escape" : "a NUL character (\\u0000)");
    char *o = p->out;
    if (c < 0x80) {
        *o++ = (char)c;
    } else if (c < 0x800) {
        *o++ = (char)(0xC0 | (c >> 6));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (char)(0xE0 | (c >> 12));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (c >> 18));
        *o++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    }
    p->out = o;
    return PN_OK;
}

/* A string, unescaped into p->out. */
static pn_status_t jstring(jp_t *p, const char **out)
{
    if (!jlit(p, "\""))
        return jbad(p, "a string expected");
    *out = p->out;
    for (;;) {
        if (p->pos >= p->len)
            return jbad(p, "a string not closed");
        unsigned char ch = (unsigned char)p->s[p->pos++];
        if (ch == '"')
            break;
        if (ch < 0x20)
            return jbad(p, "a control character in a string");
        if (ch != '\\') {
            *p->out++ = (char)ch;
            continue;
        }
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *e = p->pos < p->len ? strchr(from, p->s[p->pos]) : NULL;
        if (e && *e) {
            *p->out++ = to[e - from];
            p->pos++;
        } else if (jlit(p, "u")) {
            pn_status_t st = jescape_u(p);
            if (st)
                return st;
        } else {
            return jbad(p, "a bad escape in a string");
        }
    }
    *p->out++ = '\0';
    return PN_OK;
}

/* A number, its text as written copied to p->out. */
static pn_status_t jnumber(jp_t *p, const char **out)
{
    const char *s = p->s;
    size_t i = p->pos, n = p->len;
#define JDIGITS(i) while (i < n && s[i] >= '0' && s[i] <= '9') i++
    if (i < n && s[i] == '-')
        i++;
    size_t d = i;
    JDIGITS(i);
    if (i == d || (s[d] == '0' && i > d + 1))
        return jbad(p, "a value expected (a string, a number or null)");
    if (i < n && s[i] == '.') {
        d = ++i;
        JDIGITS(i);
        if (i == d)
            return jbad(p, "a digit expected after the point");
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        d = i;
        JDIGITS(i);
        if (i == d)
            return jbad(p, "a digit expected in the exponent");
    }
#undef JDIGITS
    *out = p->out;
    memcpy(p->out, s + p->pos, i - p->pos);
    p->out += i - p->pos;
    *p->out++ = '\0';
    p->pos = i;
    return PN_OK;
}

/* A value of a field: a string, a number or null. */
static pn_status_t jvalue(jp_t *p, rfield_t *f)
{
    f->column = (unsigned long)p->pos + 1;
    f->s = NULL;
    f->type = 0;
    if (jlit(p, "null"))
        return PN_OK;
    if (p->pos < p->len && p->s[p->pos] == '"') {
        f->type = 's';
        return jstring(p, &f->s);
    }
    f->type = 'n';
    return jnumber(p, &f->s);
}

/* "params": {"name": value, ...}; a value is a string or a number. */
static pn_status_t jparams(jp_t *p, rmem_t *m, size_t *n)
{
    if (!jlit(p, "{"))
        return jbad(p, "params: an object expected");
    jws(p);
    if (jlit(p, "}"))
        return PN_OK;
    for (;;) {
        const char *name;
        rfield_t v;
        pn_status_t st = jstring(p, &name);
        jws(p);
        if (!st && !jlit(p, ":"))
            st = jbad(p, "':' expected");
        jws(p);
        if (!st && !(st = jvalue(p, &v)) && !v.s)
            st = jbad(p, "params: a value is a string or a number");
        if (!st && add_param(m, n, name, v.s))
            st = pni_error(p->err, PN_ENOMEM, 0, 0, "out of memory");
        if (st)
            return st;
        jws(p);
        if (jlit(p, "}"))
            return PN_OK;
        if (!jlit(p, ","))
            return jbad(p, "',' or '}' expected");
        jws(p);
    }
}

static pn_status_t parse_json(rmem_t *m, const char *line, size_t len,
                              pn_results_row_t *row, pn_error_t *err)
{
    /* the strings, unescaped, never take more than the line and a NUL
     * each */
    if (len > (SIZE_MAX - 2) / 2 || !(m->text = malloc(2 * len + 2)))
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    jp_t p = {line, len, 0, m->text, err};
    rfield_t f[NFIELDS];
    memset(f, 0, sizeof f);
    uint32_t seen = 0;
    size_t n = 0;
    int params = 0;
    pn_status_t st = PN_OK;
    jws(&p);
    if (!jlit(&p, "{"))
        return jbad(&p, "a JSON object expected");
    jws(&p);
    if (jlit(&p, "}"))
        return rbad(err, 0, "an empty object");
    for (;;) {
        const char *name;
        size_t at = p.pos + 1;
        if ((st = jstring(&p, &name)))
            return st;
        jws(&p);
        if (!jlit(&p, ":"))
            return jbad(&p, "':' expected");
        jws(&p);
        long i = field_index(name);
        char q[256];
        pni_quote(q, sizeof q, name, strlen(name), 60);
        if (i < 0 && strcmp(name, "params"))
            return rbad(err, (unsigned long)at, "unknown field \"%s\"", q);
        if (i < 0 ? params : (int)(seen >> i & 1))
            return rbad(err, (unsigned long)at, "\"%s\" given twice", q);
        if (i < 0) {
            params = 1;
            st = jparams(&p, m, &n);
        } else {
            seen |= (uint32_t)1 << i;
            st = jvalue(&p, &f[i]);
        }
        if (st)
            return st;
        jws(&p);
        if (jlit(&p, "}"))
            break;
        if (!jlit(&p, ","))
            return jbad(&p, "',' or '}' expected");
        jws(&p);
    }
    jws(&p);
    if (p.pos < p.len)
        return jbad(&p, "text after the object");
    row->nparams = n;
    row->params = n ? m->names : NULL;
    row->param_values = n ? m->values : NULL;
    return fill_row(f, row, err);
}

pn_status_t pn_results_row_parse(pn_results_format_t format, const char *line,
                                 size_t len, pn_results_row_t *row,
                                 pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!row || (!line && len) ||
        (format != PN_RESULTS_CSV && format != PN_RESULTS_JSONL))
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    rmem_free(row->mem);
    memset(row, 0, sizeof *row);
    if (!line)
        line = "";
    const char *nul = memchr(line, '\0', len);
    if (nul)
        return rbad(err, (unsigned long)(nul - line) + 1, "a NUL byte");
    rmem_t *m = calloc(1, sizeof *m);
    if (!m)
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    row->mem = m;
    pn_status_t st = format == PN_RESULTS_CSV ? parse_csv(m, line, len, row, err)
                                              : parse_json(m, line, len, row, err);
    if (st)
        pn_results_row_free(row);
    return st;
}
