/* pn-sweep's parts: the sweep, its parameters, the runner, the spec file,
 * resuming and merging result files.  Not part of libpn. */
#ifndef PN_SWEEP_H
#define PN_SWEEP_H

#include <stdint.h>
#include <stdio.h>
#include "pn.h"

typedef enum {
    PARAM_GPU,  /* a row of the generator's table */
    PARAM_INIT, /* p_init:ID, initial tokens of a place */
    PARAM_ARC,  /* arc:ID, weight of an arc */
    PARAM_NET   /* the net files */
} param_kind_t;

typedef struct {
    char *name;
    param_kind_t kind;
    size_t row;      /* PARAM_GPU */
    const char *id;  /* PARAM_INIT, PARAM_ARC: inside name */
    char **values;
    size_t nvalues;
    size_t *index;   /* PARAM_INIT, PARAM_ARC: the place or arc in each net */
} param_t;

typedef struct {
    const char *prog;
    param_t *params;
    size_t nparams;
    const char **files; /* net files (the parameter "net"), or none */
    size_t nfiles;
    const char *spec;
    uint64_t runs, seed, max_steps, steps, shard_k, shard_n;
    int max_steps_given, exact_steps, include_limited, per_run;
    pn_semantics_t sem;
    char **counts;      /* transition ids */
    size_t ncounts;
    pn_results_format_t fmt;
    const char *output;
    const char *plot;   /* --plot FILE, or NULL */
    unsigned threads;
    int resume, merge, progress, quiet;
    int signal;         /* stopped by this signal */
} sweep_t;

void sweep_init(sweep_t *s, const char *prog);
void sweep_free(sweep_t *s);
/* NAME=VALUES; file/line name where it comes from (a spec) or NULL.
 * Returns 0, or -1 after a message. */
int sweep_add_param(sweep_t *s, const char *arg, const char *file,
                    unsigned long line);
/* A parameter whose values are given one by one (a spec's list). */
int sweep_add_param_values(sweep_t *s, const char *name,
                           const char *const *values, size_t n,
                           const char *file, unsigned long line);
/* IDs separated by commas.  Returns 0, or -1 after a message. */
int sweep_add_counts(sweep_t *s, const char *list);
/* Reads a YAML spec (sweep-spec.c).  Returns -1 to go on, or an exit code
 * after "FILE:LINE: message". */
int sweep_read_spec(sweep_t *s, const char *path);
/* Runs the sweep; returns the exit code (s->signal set when a signal
 * stopped it). */
int sweep_run(sweep_t *s);
/* --plot: the CSV results file drawn into path (.svg, .png, .pdf) by
 * gnuplot (sweep-plot.c).  Returns an exit code. */
int sweep_plot(const sweep_t *s, const char *results, const char *path);
/* --merge: the files are shard outputs. */
int sweep_merge(sweep_t *s);

#endif
