/*
 * pn/gpu.h - the GPU warp Petri net (WPNM) generator.
 *
 * Builds, through the net API, exactly the net of doc/wpnm.md (Gogolinska,
 * Mikulski, Piatkowski, PNSE'17): one SM, W warps, s schedulers, per-warp
 * instruction counts, global latency l1 and shared latency l2.
 *
 * Ownership: pn_gpu_net() returns a net the caller frees (pn_net_free());
 * pn_gpu_workload_read() returns an array the caller frees (free()).
 */
#ifndef PN_GPU_H
#define PN_GPU_H

#include <stddef.h>
#include <stdint.h>
#include "net.h"
#include "groups.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Instructions of one warp. */
typedef struct pn_gpu_warp {
    uint64_t arith, shared, global;
} pn_gpu_warp_t;

typedef struct pn_gpu_params {
    size_t warps;            /* W >= 1 */
    uint64_t schedulers;     /* s >= 1 */
    uint64_t l1, l2;         /* global and shared latency, >= 0 */
    const pn_gpu_warp_t *work; /* W entries, or NULL: every warp `uniform` */
    pn_gpu_warp_t uniform;
    int pipelined;           /* 0: the paper's net; 1: pipelined issue (doc/wpnm.md) */
    uint64_t la;             /* pipelined: arithmetic latency, >= 0 */
    /* The constructs of doc/wpnm.md beyond the paper's net; all zero: the
     * paper's net. */
    uint64_t resident;       /* block scheduler: resident block slots R
                              * (0: none, every warp starts at once) */
    uint64_t blocks;         /* with resident: blocks B of the SM, >= 1 */
    size_t warps_per_block;  /* with resident: warps of a block; then
                              * warps = min(R, B) * warps_per_block */
    uint64_t transactions;   /* T memory transactions per DRAM access
                              * (0 or 1: one, the paper's frame) */
    uint64_t inflight;       /* K: DRAM transactions in flight on the SM
                              * (0: no bandwidth place); K >= T */
    uint64_t l1_hits, l2_hits; /* of each warp's global accesses, these
                              * many hit in L1 and in L2 (h1 + h2 <= xg) */
    uint64_t l1_hit_latency, l2_hit_latency; /* their latencies, steps */
    uint64_t mlp;            /* K >= 2: each warp has K global-access
                              * frames (load slots) and goes on after an
                              * issue (doc/wpnm.md); 0 or 1: the paper's
                              * frame, the warp waits for every access */
    uint64_t barriers;       /* B: barriers a warp meets (__syncthreads):
                              * its instructions run in B + 1 phases and
                              * the warps of a block (warps_per_block, or
                              * all warps without it) start a phase
                              * together (doc/wpnm.md); 0: none */
    /* Time (doc/wpnm.md, "The net with time"): stochastic 1 gives every
     * transition a GSPN timing, a step becoming an exponential delay of
     * mean 1; a latency L becomes min(stages, L) exponential stages of
     * mean L / min(stages, L) (an Erlang chain of mean L), stages 0 one
     * stage per step of L (the countdown of the step net, rate 1).
     * 0: the step net, no timing. */
    uint64_t stochastic;     /* 0 or 1 */
    uint64_t stages;         /* with stochastic: stages of a latency, or 0 */
} pn_gpu_params_t;

/* Fills the defaults of pn-gen-gpu(1): 32 warps, 2 schedulers, l1 = 20,
 * l2 = 2, every warp 10 arithmetic, 4 shared, 4 global instructions. */
void pn_gpu_params_init(pn_gpu_params_t *p);


/* The node numbers of the barrier (--barriers, doc/wpnm.md): above every
 * number of the load slots' frames. */
#define PN_GPU_BAR_WAIT 100   /* place: the warp waits at the barrier */
#define PN_GPU_BAR_LEFT 101   /* place: barriers still to meet */
#define PN_GPU_BAR_ARRIVE 120 /* transition: the warp reaches the barrier */

/* The most load slots a warp may have (--mlp). */
#define PN_GPU_MAX_MLP 32

/* Real SMs hold at most this many resident warps. */
#define PN_GPU_MAX_RESIDENT_WARPS 64

/* The most warps a net may have (the net grows by about 70 nodes and a
 * few kilobytes of PNML per warp: 16384 warps make 280 MB of PNML). */
#define PN_GPU_MAX_WARPS 16384

/* Builds the WPNM.  Returns PN_OK, PN_EINVAL (0 warps or schedulers, or
 * more than PN_GPU_MAX_WARPS warps; with resident, blocks 0, warps_per_block
 * 0 or warps not min(resident, blocks) * warps_per_block; inflight below
 * transactions; l1_hits + l2_hits above a warp's global accesses; mlp
 * above PN_GPU_MAX_MLP, or mlp >= 2 with transactions, inflight or hits;
 * barriers with hits, or warps not a multiple of warps_per_block;
 * stochastic with mlp >= 2 or hits, whose issue choices would race, or
 * stages without stochastic), PN_ERANGE (a count or latency + 1 above
 * PN_TOKENS_MAX) or PN_ENOMEM.  Ids: p0, active, t0, w<i>_p<k>, w<i>_t<k>;
 * every node has a position (the paper's Figure 2 for each warp, warps in
 * a grid) and a name label offset to its right, with columns wide enough
 * that no label overlaps a node or another label.  Cost: O(W). */
pn_status_t pn_gpu_net(const pn_gpu_params_t *params, pn_net_t **out);

/* Reads a workload file: lines "warp,arith,shared,global" (warps numbered
 * 0..W-1, each once, in any order, W <= PN_GPU_MAX_WARPS), '#' comments, blank lines, and an
 * optional header line "warp,arith,shared,global".  Returns PN_OK with
 * *work (W entries) and *warps, or PN_EIO / PN_EVALUE / PN_ERANGE /
 * PN_ENOMEM with err filled (file, line, text).  Lines are at most 1023
 * bytes without NUL bytes; text quoted from the file in err shows bytes
 * outside printable ASCII as \xHH and is cut after 60 bytes. */
pn_status_t pn_gpu_workload_read(const char *path, pn_gpu_warp_t **work,
                                 size_t *warps, pn_error_t *err);

/* Warps per SM of a launch: ceil(T / 32) * ceil(B / N) for T threads per
 * block, B blocks and N SMs, assuming one wave (every block of an SM
 * resident at once).  Returns PN_OK, PN_EINVAL (a zero) or PN_ERANGE. */
pn_status_t pn_gpu_launch_warps(uint64_t threads_per_block, uint64_t blocks,
                                uint64_t sms, uint64_t *warps);

/* The groups and classes of a GPU warp net, as data for pictures and
 * reports: group "idle" (t0), then one group per warp (w0, w1, ...: the
 * nodes w<i>_...); transition classes, weakest first: control, arithmetic,
 * shared, global, idle (the paper's frames).  p0 and active are in no
 * group.  Returns PN_OK with *out (pn_groups_free()), PN_EINVAL when some
 * id is not one the generator gives (not a GPU warp net), PN_ENOMEM.
 * Cost: O(nodes). */
pn_status_t pn_gpu_groups(const pn_net_t *net, pn_groups_t **out);

/* ---- the generator's parameters, as data -------------------------------
 *
 * Everything pn-gen-gpu(1) takes to describe a net, one row of
 * pn_gpu_option_table() a parameter: pn-gen-gpu makes its options of the
 * rows (--NAME), pn-sweep(1) sweeps them (--param NAME=...).  A new
 * parameter is a field here, a row in the table (generators/gpu.c), and
 * its use in pn_gpu_options_resolve(). */
typedef struct pn_gpu_options {
    uint64_t warps, schedulers, arith, shared, global, l1, l2;
    uint64_t threads_per_block, blocks, sms; /* a launch: all three or none */
    uint64_t pipelined, la; /* pipelined issue (0 or 1) and its arithmetic latency */
    uint64_t resident, warps_per_block;  /* the block scheduler */
    uint64_t transactions, inflight;     /* coalescing and bandwidth */
    uint64_t l1_hits, l2_hits, l1_hit_latency, l2_hit_latency; /* caches */
    const char *workload; /* a workload file (borrowed), or NULL */
    uint64_t given;       /* bit i: row i was set (pn_gpu_option_set()) */
    const char *arch;     /* a compute capability ("sm_80", borrowed), or
                           * NULL; its defaults are filled in by
                           * pn_gpu_options_arch() (gpu/predict.h) */
    uint64_t arch_applied; /* 1 once pn_gpu_options_arch() did so */
    uint64_t mlp;          /* load slots of a warp (1: the paper's frame) */
    uint64_t barriers;     /* barriers a warp meets (0: none) */
    uint64_t stochastic;   /* 1: the net with time (doc/wpnm.md) */
    uint64_t stages;       /* with stochastic: stages of a latency (0: one
                            * a step) */
} pn_gpu_options_t;

typedef enum {
    PN_GPU_OPT_UINT = 0, /* a whole number in [min, max] */
    PN_GPU_OPT_FILE = 1, /* a file name (const char *) */
    PN_GPU_OPT_FLAG = 2, /* 0 or 1; pn-gen-gpu's option takes no argument */
    PN_GPU_OPT_TEXT = 3  /* a word (const char *), such as "sm_80" */
} pn_gpu_opt_type_t;

typedef struct pn_gpu_option {
    const char *name;       /* the parameter's name */
    pn_gpu_opt_type_t type;
    size_t offset;          /* of its field in pn_gpu_options_t */
    uint64_t min, max;      /* the range of a number */
    uint64_t def;           /* the default of a number */
    const char *arg;        /* the argument in usage lines ("W") */
    const char *unit;       /* what it counts ("warps", "steps") */
    const char *help;       /* one sentence, lines broken with '\n';
                             * another parameter is named in braces
                             * ("with {blocks}"), for a program to write
                             * as its own option */
} pn_gpu_option_t;

/* The rows (static storage) and their count.  At most 64 rows. */
const pn_gpu_option_t *pn_gpu_option_table(size_t *n);
/* The row named name, or -1. */
long pn_gpu_option_find(const char *name);
/* Every number at its default, no workload, nothing given. */
void pn_gpu_options_init(pn_gpu_options_t *o);
/* Sets row `row` from text (a number: digits only, within the row's
 * range; a file or a word: the text itself, borrowed).  Returns PN_OK, PN_EINVAL (no
 * such row), PN_EVALUE (not a whole number) or PN_ERANGE (out of range),
 * with err's text naming the parameter. */
pn_status_t pn_gpu_option_set(pn_gpu_options_t *o, size_t row,
                              const char *text, pn_error_t *err);
/* The parameters of the net the options describe: a launch gives the
 * warps (threads-per-block, blocks and sms go together, and not with warps
 * or a workload); a workload file is read (*work: its warps, the caller
 * frees it; NULL without one) and gives the warps, which a given warps must
 * match.  An arch must have been applied (pn_gpu_options_arch()) first.
 * Returns PN_OK, PN_EINVAL (options that do not go together),
 * PN_ERANGE (a launch too large), or pn_gpu_workload_read()'s errors; err
 * says which.  The warps are not checked against PN_GPU_MAX_WARPS here
 * (pn_gpu_net() does). */
pn_status_t pn_gpu_options_resolve(const pn_gpu_options_t *o,
                                   pn_gpu_params_t *params,
                                   pn_gpu_warp_t **work, pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
