/* The result schema (results.h): tidy rows in CSV or JSON Lines. */
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
