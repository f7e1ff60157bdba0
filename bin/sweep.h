/* pn-sweep's parts: the sweep, its parameters, the runner, the spec file,
 * resuming and merging result files.  Not part of libpn. */
#ifndef PN_SWEEP_H
#define PN_SWEEP_H

#include <stdint.h>
#include <stdio.h>
#include "pn.h"
#include "run-stochastic.h"

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
    int threads_given;  /* --threads (else under mpirun: 1 a rank) */
    int resume, merge, progress, quiet;
    int signal;         /* stopped by this signal */
    void *grid;         /* an MPI worker's grid (sweep_worker_setup) */
    stoch_opts_t st;    /* --semantics stochastic: a simulation a point */
    int runs_given;     /* --runs (stochastic: else the simulation's own
                         * limit) */
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

/* ---- the pool of runs (sweep.c), for the MPI module ------------------- */

/* The runs of the points being swept, handed out in todo order; rank 0's
 * own threads take them a run at a time, other ranks a chunk at a time. */
typedef struct sweep_pool sweep_pool_t;
/* Claims runs of the next point for another rank: a share of the runs
 * left (those over parts, halved: guided scheduling, 4 to 4096 runs, never
 * past the point's end).  1 with *ti (the entry of the todo list, to give
 * back to sweep_pool_deliver), *point and the runs [*r0, *r1); 0 when none
 * may be claimed yet (the points ahead of the writer are many); -1 when
 * none are left (or the sweep stops). */
int sweep_pool_claim(sweep_pool_t *pl, unsigned parts, uint64_t *ti,
                     uint64_t *point, uint64_t *r0, uint64_t *r1);
/* The results of runs [r0, r1) of todo entry ti (rows of nmeasures
 * values, ends, seeds).  0, or -1 when they are not ones claimed. */
int sweep_pool_deliver(sweep_pool_t *pl, uint64_t ti, uint64_t r0,
                       uint64_t r1, const double *values,
                       const pn_end_t *ends, const uint64_t *seeds);
/* Stops the sweep with msg (the first failure is the one reported). */
void sweep_pool_fail(sweep_pool_t *pl, const char *msg);
size_t sweep_pool_nmeasures(const sweep_pool_t *pl);

/* A point compiled once and run chunk by chunk (an MPI worker rank). */
typedef struct sweep_point sweep_point_t;
/* The sweep's grid for a worker: its nets read, its parameters checked.
 * Returns -1 to go on, or an exit code after a message. */
int sweep_worker_setup(sweep_t *s);
void sweep_worker_free(sweep_t *s);
size_t sweep_worker_nmeasures(const sweep_t *s);
/* Runs [r0, r1) of point into values (rows of nmeasures), ends, seeds;
 * *cache keeps the last point's compiled net (sweep_point_free it).
 * 0, or -1 with msg filled. */
int sweep_worker_runs(sweep_t *s, sweep_point_t **cache, uint64_t point,
                      uint64_t r0, uint64_t r1, double *values,
                      pn_end_t *ends, uint64_t *seeds, char *msg,
                      size_t msgsize);
void sweep_point_free(sweep_point_t *p);

/* ---- MPI (sweep-mpi.c, built when configure finds Open MPI) ----------- */

#ifdef HAVE_MPI
/* MPI_Init when started by mpirun (several ranks); returns the ranks (1
 * when alone). */
int sweep_mpi_init(int *argc, char ***argv);
int sweep_mpi_rank(void);
int sweep_mpi_size(void);
/* Every rank's ok (nonzero) and'ed: whether all parsed the command line. */
int sweep_mpi_agree(int ok);
/* Rank 0, between its own runs: answers the other ranks (requests,
 * results, failures), handing out chunks of the pool. */
void sweep_mpi_serve(sweep_pool_t *pl);
/* Rank 0: every other rank told to stop (their last results dropped). */
void sweep_mpi_stop(void);
/* Ranks > 0: asks rank 0 for chunks of runs until told to stop. */
int sweep_mpi_worker(sweep_t *s);
/* Rank 0 stops the others; MPI_Finalize.  Returns rc. */
int sweep_mpi_end(int rc);
/* "Open MPI X.Y.Z" the library in use, for --version. */
const char *sweep_mpi_library(void);
#else
static inline int sweep_mpi_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 1;
}
static inline int sweep_mpi_rank(void) { return 0; }
static inline int sweep_mpi_size(void) { return 1; }
static inline int sweep_mpi_agree(int ok) { return ok; }
static inline void sweep_mpi_serve(sweep_pool_t *pl) { (void)pl; }
static inline void sweep_mpi_stop(void) {}
static inline int sweep_mpi_worker(sweep_t *s) { (void)s; return 0; }
static inline int sweep_mpi_end(int rc) { return rc; }
#endif

#endif
