/*
 * pn/trace.h - the trace format: writing the steps of a run, reading them
 * back, and replaying them on their net through the engine.
 *
 * Ownership: pn_trace_read() returns a trace the caller frees with
 * pn_trace_free(); pointers from getters are borrowed from the trace.  A
 * trace keeps no pointer to the net it was read against.
 *
 * Format (pn-run(1)), version PN_TRACE_VERSION: the first line "# pn-run
 * trace 2"; "#" comments; "S step id..." the transitions fired in step
 * `step` (1, 2, ... in order); "M step id=n..." a marking snapshot after
 * `step`; "E dead|limit|overflow steps" the end, always there.  Ids are
 * written with "\\" for a backslash and "\xHH" for a blank or a control
 * byte, so that any id is one token.  Version 1 (the first line "# pn-run
 * trace 1", or none) wrote ids as they are, and is still read.
 */
#ifndef PN_TRACE_H
#define PN_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "net.h"
#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_trace pn_trace_t;

/* The version pn_trace_write_header() writes. */
#define PN_TRACE_VERSION 2

/* Reads a trace (version 1 or 2) and checks it against net: every id is a
 * transition of the net, steps are numbered 1, 2, ..., every fired set
 * can fire at its step (pn_sim_fire(): every arc kind and capacity is
 * checked when the steps are replayed from the initial marking), every
 * snapshot matches the replay, and the end record is there.  Returns
 * PN_OK, PN_EIO, PN_ENOMEM, or PN_ETRACE with err naming file, line and
 * what is wrong (an unknown version, a truncated trace, a negative
 * number, a trace of another net).
 * Cost: O(size of the net + size of the trace + arcs of the fired
 * transitions). */
pn_status_t pn_trace_read(const char *path, const pn_net_t *net,
                          pn_trace_t **out, pn_error_t *err);
void pn_trace_free(pn_trace_t *trace);

/* Number of steps in the trace. */
uint64_t pn_trace_steps(const pn_trace_t *trace);
/* The loop the trace says its run goes round for ever (the comment
 * "# loop: from the marking after step K round to it again, for ever" of
 * a lasso, which pn-reach --witness writes: PN_TRACE_CYCLE, the marking
 * after the last step is the one after step K, and steps K+1 .. last
 * repeat; "# loop: the dead marking after step K repeats for ever":
 * PN_TRACE_DEAD_END, K is the last step and the run ends dead), K into
 * *from (when not NULL; 0 with no loop); PN_TRACE_NO_LOOP without such a
 * comment.  pn_trace_read() refuses a trace whose replay does not do
 * what its loop comment says. */
#define PN_TRACE_NO_LOOP 0
#define PN_TRACE_CYCLE 1
#define PN_TRACE_DEAD_END 2
int pn_trace_loop(const pn_trace_t *trace, uint64_t *from);
/* The transitions fired in step (1-based), in firing order. */
const uint32_t *pn_trace_fired(const pn_trace_t *trace, uint64_t step,
                               size_t *n);
/* The marking after step (0: the initial marking) into m (one count per
 * place of the net), by replaying steps 1..step.  PN_EINVAL when step is
 * beyond the trace, PN_ETRACE when the trace does not fit net. */
pn_status_t pn_trace_marking(const pn_trace_t *trace, const pn_net_t *net,
                             uint64_t step, uint64_t *m);

/* Writing a trace, record by record (what pn-run --trace does): the
 * header comment, one "S" line per step, "M" snapshots, the "E" end.  Each
 * returns 0, or -1 on a write error (errno set). */
int pn_trace_write_header(FILE *f, const pn_net_t *net, uint64_t seed,
                          pn_semantics_t sem);
int pn_trace_write_step(FILE *f, const pn_net_t *net, uint64_t step,
                        const uint32_t *fired, size_t n);
int pn_trace_write_marking(FILE *f, const pn_net_t *net, uint64_t step,
                           const uint64_t *m);
int pn_trace_write_end(FILE *f, pn_end_t end, uint64_t steps);

#ifdef __cplusplus
}
#endif
#endif
