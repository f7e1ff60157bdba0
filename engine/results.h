/*
 * pn/results.h - the result schema shared by pn-run (one run and many) and
 * pn-sweep: tidy rows, CSV or JSON Lines, versioned.
 *
 * Schema version PN_RESULTS_SCHEMA (pn-sweep(1), section RESULT SCHEMA, is
 * the reference).  One row per (point, measure) of kind "point" (the
 * statistics of the point's runs) and, when asked, one row per (point,
 * run, measure) of kind "run".  A measure is "steps", "firings",
 * "count:ID" (firings of transition ID) or "marking:ID" (final tokens of
 * place ID).  CSV columns, in this order:
 *
 *   schema kind point run seed <parameters...> measure end value
 *   requested runs dead limit overflow n mean sd min median max
 *   ci_low ci_high
 *
 * A field that does not apply to the row's kind is empty (CSV) or absent
 * (JSON).  JSON Lines: one object a row with the same names, in the same
 * order, the parameters in an object "params"; numbers as JSON numbers,
 * a statistic that does not exist (sd of one value, anything of none) as
 * null.
 *
 * The statistics of a point are over its runs that reached a dead marking
 * (n = dead), or over dead and step-limit runs when include_limited is set
 * (n = dead + limit); runs that overflowed are never in them.  sd is the
 * sample standard deviation (n - 1); [ci_low, ci_high] is the 95% Student-t
 * interval of the mean, truncated at 0 (every measure counts something, so
 * its mean is never negative); it needs n >= 2.
 *
 * Writers take a caller's stream and never close it; they return PN_OK or
 * PN_EIO (a write failed: errno says why).  Thread safety: none is needed,
 * nothing is shared.
 */
#ifndef PN_RESULTS_H
#define PN_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PN_RESULTS_SCHEMA 1

typedef enum {
    PN_RESULTS_CSV = 0,  /* RFC 4180, a header line first */
    PN_RESULTS_JSONL = 1 /* JSON Lines, no header */
} pn_results_format_t;

/* "csv", "jsonl" (or "json"); PN_EINVAL otherwise. */
pn_status_t pn_results_format_parse(const char *name, pn_results_format_t *f);

/* What every row of one output shares: the format and the names of the
 * parameter columns (0 or more). */
typedef struct pn_results_layout {
    pn_results_format_t format;
    size_t nparams;
    const char *const *params;
} pn_results_layout_t;

/* Whether name may be a parameter: not empty, printable ASCII without
 * '"', '\\' or ',', and not one of the schema's own column names.
 * Returns 1 or 0. */
int pn_results_param_ok(const char *name);

/* The runs of one point: run r's measure k is values[r * nmeasures + k]. */
typedef struct pn_results_point {
    uint64_t point;             /* index of the point in its sweep */
    const char *const *param_values; /* layout's nparams values, as text */
    uint64_t seed;              /* the seed the sweep was started with */
    uint64_t requested;         /* runs asked for */
    uint64_t runs;              /* runs done (rows of values) */
    size_t nmeasures;
    const char *const *measures;
    const double *values;
    const pn_end_t *ends;       /* runs entries */
    const uint64_t *seeds;      /* runs entries: each run's own seed */
    int include_limited;        /* step-limit runs in the statistics too */
} pn_results_point_t;

/* The CSV header line (nothing for JSON Lines). */
pn_status_t pn_results_write_header(FILE *out, const pn_results_layout_t *l);
/* The rows of kind "run": each run, each measure. */
pn_status_t pn_results_write_runs(FILE *out, const pn_results_layout_t *l,
                                  const pn_results_point_t *p);
/* The rows of kind "point": each measure's statistics (nmeasures rows).
 * Returns PN_OK, PN_EIO, or PN_ENOMEM. */
pn_status_t pn_results_write_point(FILE *out, const pn_results_layout_t *l,
                                   const pn_results_point_t *p);

/* The statistics of one measure of a point, as pn_results_write_point()
 * writes them (n: the runs in them). */
pn_status_t pn_results_stats(const pn_results_point_t *p, size_t measure,
                             pn_stats_t *out);

/* The seed of the runs of point `point` of a sweep started with seed
 * (point 0: seed itself, so that a one-point sweep is pn-run --runs):
 * run r of the point uses pn_run_seed(pn_point_seed(seed, point), r). */
uint64_t pn_point_seed(uint64_t seed, uint64_t point);

/* ---- reading rows back ------------------------------------------------ */

typedef enum {
    PN_RESULTS_HEADER = 0, /* the CSV header line */
    PN_RESULTS_POINT = 1,  /* a row of kind "point" */
    PN_RESULTS_RUN = 2     /* a row of kind "run" */
} pn_results_kind_t;

/* A line of a results file, read back by pn_results_row_parse().  The
 * strings are the row's own, valid until the next parse into it or
 * pn_results_row_free(). */
typedef struct pn_results_row {
    pn_results_kind_t kind;
    size_t nparams;
    const char *const *params;       /* the parameters' names: the CSV
                                        header's, or a JSON row's "params"
                                        (NULL for a CSV row) */
    const char *const *param_values; /* a row's values, as text (a JSON
                                        number as written; NULL for the
                                        header) */
    uint64_t point, seed;
    uint64_t run;                    /* kind run */
    const char *measure;
    pn_end_t end;                    /* kind run */
    double value;                    /* kind run; NaN: none */
    uint64_t requested, runs, dead, limit, overflow; /* kind point */
    pn_stats_t stats;                /* kind point; NaN: none */
    void *mem;                       /* private: the row's memory */
} pn_results_row_t;

/* Reads one line (len bytes, with or without its line break) that
 * pn_results_write_header(), pn_results_write_point() or
 * pn_results_write_runs() wrote in format: the CSV header, or a row of
 * schema PN_RESULTS_SCHEMA, every field checked (a field that does not
 * apply to the row's kind must be empty, absent or null).  CSV fields are
 * RFC 4180 (a quoted value may hold commas, quotes and line breaks); a
 * CSV row has one column a parameter between seed and measure.  A JSON
 * Lines row is any JSON object with the schema's members, in any order.
 * row must be zeroed before its first parse; each parse reuses it.
 * Returns PN_OK, PN_EVALUE (err->text says what is wrong, err->column
 * where in the line), PN_EINVAL, PN_ENOMEM; on failure row is empty. */
pn_status_t pn_results_row_parse(pn_results_format_t format, const char *line,
                                 size_t len, pn_results_row_t *row,
                                 pn_error_t *err);
/* Frees what the row holds and zeroes it (NULL: nothing). */
void pn_results_row_free(pn_results_row_t *row);

#ifdef __cplusplus
}
#endif
#endif
