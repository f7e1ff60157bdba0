/*
 * pn/predict.h - kernel time from profiler metrics: profiles, devices,
 * the mapping of a launch onto the GPU warp net, prediction, calibration.
 *
 * A launch is one row of a profile: the kernel, its grid and block, its
 * registers and shared memory, the totals the profiler counted and the
 * measured time.  Two profile layouts are read: nvprof's CSV as in the
 * data set of Amaris et al. (one row per launch, columns such as
 * `inst_executed`, `warps_launched`, `Duration`) and Nsight Compute's raw
 * CSV page (`ncu --csv --page raw`: a header row, a units row, one row per
 * launch, metric names such as `smsp__inst_executed.sum`).  A header
 * that repeats a column the readers use is refused (PN_EVALUE).  A device is
 * one row of a `deviceInfo.csv` (clock, SMs, bandwidth, compute
 * capability); the limits of each compute capability (resident blocks and
 * warps, registers, shared memory, schedulers, latencies) come from a
 * built-in table.
 *
 * Counts the profiler did not give are NAN in the launch, never 0: a
 * prediction that needs one fails with PN_EVALUE and a message naming the
 * launch and the metric (see doc/gpu.md for the fallbacks that exist).
 *
 * Ownership: pn_gpu_profile_read() and pn_gpu_devices_read() return
 * arrays the caller frees with pn_gpu_launches_free() and free().
 * Threads: the functions keep no state; different objects may be used
 * from different threads at once.
 */
#ifndef PN_PREDICT_H
#define PN_PREDICT_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One GPU, as a deviceInfo.csv row describes it. */
typedef struct pn_gpu_device {
    char name[64];          /* gpu_name, e.g. "GTX-970" */
    int cc_major, cc_minor; /* compute capability */
    double clock_mhz;       /* SM clock (max_clock_rate) */
    unsigned sms;           /* num_sm */
    unsigned cores_per_sm;  /* num_cores_sm */
    double bandwidth_gbs;   /* DRAM bandwidth, GB/s */
    double l2_mb;           /* L2 size, MB */
} pn_gpu_device_t;

/* What a compute capability allows on one SM, and its latencies. */
typedef struct pn_gpu_arch {
    int cc_major, cc_minor;
    unsigned max_blocks;      /* resident blocks per SM */
    unsigned max_warps;       /* resident warps per SM */
    unsigned regs;            /* 32-bit registers per SM */
    unsigned reg_unit;        /* registers are given to warps in units of this many */
    unsigned smem;            /* shared memory per SM, bytes */
    unsigned smem_unit;       /* shared memory is given to blocks in units of this many bytes */
    unsigned schedulers;      /* warp schedulers per SM */
    unsigned lat_global;      /* DRAM access, cycles */
    unsigned lat_l2;          /* L2 hit, cycles */
    unsigned lat_shared;      /* shared-memory access, cycles */
    const char *name;         /* "Kepler", "Maxwell", ... */
    unsigned lat_arith;       /* dependent arithmetic instruction, cycles */
    unsigned lat_l1;          /* L1 hit of a global load, cycles */
} pn_gpu_arch_t;

/* One kernel launch of a profile.  Totals over the whole launch; NAN where
 * the profile has no value (an `NA` cell, a missing column). */
typedef struct pn_gpu_launch {
    char gpu[64];             /* GPU name as the profile gives it */
    char kernel[96];          /* kernel name, without its parameter list */
    double input_size;        /* the application's input size, NAN if unknown */
    unsigned grid[3], block[3];
    unsigned regs_per_thread;
    unsigned smem_per_block;  /* static + dynamic, bytes */
    double measured_s;        /* measured time in seconds (mean of the repeats), NAN if
                               * unknown (no duration, or 0 or one that
                               * underflows: not averaged in) */
    unsigned repeats;         /* measurements merged into this launch (>= 1) */
    double warps;             /* warps launched */
    double inst;              /* warp instructions executed */
    double shared_ld, shared_st;   /* shared-memory warp instructions */
    double global_ld, global_st;   /* global-memory warp instructions (requests) */
    double global_ld_trans, global_st_trans; /* their L1/L2 transactions */
    double dram_read, dram_write;  /* DRAM transactions (32 bytes each) */
    double l2_read, l2_write;      /* L2 transactions */
    double l1_hit;            /* global load hit rate in L1, 0..1 */
    double l2_hit;            /* hit rate in L2, 0..1 */
    double shared_ld_trans, shared_st_trans; /* shared-memory transactions
                                * (wavefronts): more than the instructions
                                * when banks conflict */
    double branches;          /* control-flow warp instructions executed */
    char file[256];           /* where the launch was read */
    unsigned long line;
    unsigned imputed;         /* PN_GPU_IMPUTED_* of the counts that
                               * pn_gpu_launches_impute() filled in */
    unsigned no_column;       /* PN_GPU_NOCOL_* of the counts a prediction
                               * needs that the file has no column for */
    unsigned long header_line; /* the line of the file's header */
    unsigned long na_column;  /* the column (bytes from the line's start,
                               * 1-based) of the first cell of `line` that
                               * leaves a count every prediction needs
                               * unknown (NA); 0 when none does */
} pn_gpu_launch_t;

/* The counts every prediction needs (pn_gpu_launch_t.no_column): a file
 * without a column for one of them is refused by pn_gpu_shape() at its
 * header, with every such column named, never taken as 0. */
enum {
    PN_GPU_NOCOL_WARPS = 1,
    PN_GPU_NOCOL_INST = 2,
    PN_GPU_NOCOL_SHARED_LD = 4,
    PN_GPU_NOCOL_SHARED_ST = 8,
    PN_GPU_NOCOL_GLOBAL_LD = 16,
    PN_GPU_NOCOL_GLOBAL_ST = 32
};

/* What pn_gpu_launches_impute() filled in (pn_gpu_launch_t.imputed). */
enum {
    PN_GPU_IMPUTED_TRANS = 1,  /* global load / store transactions */
    PN_GPU_IMPUTED_L2 = 2,     /* L2 read / write transactions */
    PN_GPU_IMPUTED_DRAM = 4,   /* DRAM read / write transactions */
    PN_GPU_IMPUTED_L1 = 8      /* the L1 hit rate of global loads */
};

/* Reads one profile (either layout, told apart by its header).  Rows with
 * the same (gpu, kernel, input size, grid, block) are merged into one
 * launch: the measured time is their mean, counts their mean, `repeats`
 * their number.  Returns PN_OK with *out, *n (rows in file order of first
 * appearance), or PN_EIO / PN_EVALUE (file, line, column and what is
 * wrong in err) / PN_ENOMEM. */
pn_status_t pn_gpu_profile_read(const char *path, pn_gpu_launch_t **out,
                                size_t *n, pn_error_t *err);

/* Fills in missing (NAN) memory counts of launches from the same GPU,
 * kernel and block shape at the nearest input size that has them, as
 * ratios per request: global load (store) transactions, L2 read (write)
 * and DRAM read (write) transactions per global load (store) request, and
 * the L1 hit rate as it is.  A kernel's access pattern, and so its
 * transactions per request, does not change with the input size; nvprof
 * leaves these counters NA for the largest launches of some kernels.
 * Launches it used are never filled ones.  Sets the PN_GPU_IMPUTED_* bits
 * of each filled launch; returns the number of counts filled (0 also when
 * memory runs out: then nothing is filled).  Cost O(n log n + the sum of
 * the squares of the group sizes). */
size_t pn_gpu_launches_impute(pn_gpu_launch_t *launches, size_t n);

/* Frees what pn_gpu_profile_read() returned (NULL is allowed). */
void pn_gpu_launches_free(pn_gpu_launch_t *launches);

/* Reads a deviceInfo.csv.  Returns PN_OK with *out (free()), *n, or
 * PN_EIO / PN_EVALUE (file:line) / PN_ENOMEM. */
pn_status_t pn_gpu_devices_read(const char *path, pn_gpu_device_t **out,
                                size_t *n, pn_error_t *err);

/* The device called `name` in devs (names compare without case, and '-',
 * '_' and ' ' are the same); when none is, the device with the longest
 * name that `name` holds as whole words ("NVIDIA H100 80GB HBM3" holds
 * "H100"); or NULL. */
const pn_gpu_device_t *pn_gpu_device_find(const pn_gpu_device_t *devs,
                                          size_t n, const char *name);

/* The limits of compute capability major.minor, or NULL when the table has
 * no row for it (the nearest lower capability of the same major number is
 * used when the exact one is missing). */
const pn_gpu_arch_t *pn_gpu_arch_find(int major, int minor);

/* The generator's options for a device's specification (pn-gen-gpu
 * --arch): when o->arch names a compute capability ("sm_80", "sm80" or
 * "8.0"), the rows not given explicitly take its values from the table of
 * pn_gpu_arch_find(): schedulers; l1 (DRAM), l2 (shared), l1-hit-latency,
 * l2-hit-latency and, with pipelined, la, its latencies in cycles (one step
 * of the net a cycle).  Sets o->arch_applied.  Returns PN_OK (also when
 * o->arch is NULL), PN_EVALUE (not a capability) or PN_EINVAL (no row for
 * it) with err's text naming it. */
pn_status_t pn_gpu_options_arch(pn_gpu_options_t *o, pn_error_t *err);


/* ---- the model --------------------------------------------------------- */

/* What limits the resident blocks of an SM (pn_gpu_shape_t.blocks_by). */
enum {
    PN_GPU_LIMIT_BLOCKS = 0,   /* the capability's resident blocks */
    PN_GPU_LIMIT_WARPS = 1,    /* its resident warps */
    PN_GPU_LIMIT_REGS = 2,     /* its registers */
    PN_GPU_LIMIT_SMEM = 3,     /* its shared memory */
    PN_GPU_LIMITS = 4
};

/* A launch mapped onto the model (pn_gpu_shape()). */
typedef struct pn_gpu_shape {
    unsigned warps_per_block;   /* ceil(threads per block / 32) */
    unsigned resident_blocks;   /* blocks one SM holds at once */
    const char *limited_by;     /* "blocks", "warps", "registers", "shared memory" */
    double blocks_sm;           /* blocks of the busiest SM: ceil(blocks / SMs) */
    double waves;               /* blocks_sm / resident_blocks (>= 1 when several) */
    unsigned resident_warps;    /* warps of a full wave on the SM */
    unsigned schedulers;        /* warp schedulers of the SM */
    double arith, shared, global; /* warp instructions per warp, by kind */
    double replays;             /* extra issue slots per warp (uncoalesced accesses) */
    double wavefronts;          /* L1 wavefronts of global accesses per warp
                                 * (>= global; more when uncoalesced) */
    double l1_hit;              /* fraction of global load transactions that hit L1 */
    double miss;                /* fraction of L2 transactions that reach DRAM */
    double lat_global;          /* mean global latency, cycles (L1, L2 and DRAM mixed) */
    double mlp;                 /* global loads a warp keeps in flight (>= 1) */
    double lat_shared;          /* shared latency, cycles */
    double lat_arith;           /* dependent arithmetic latency, cycles */
    double dram_bytes, l2_bytes;  /* traffic of the whole launch */
    double strided_bytes;       /* DRAM bytes of lines L2 serves more than
                                 * once: dram_bytes * (1 - miss) */
    double lsu_sm;              /* 128-byte wavefronts of the L1/shared data
                                 * pipe (global and shared) on the busiest SM */
    double clock_hz, bandwidth;   /* of the device */
    double occupancy;           /* resident warps of a full wave / the SM's warp limit */
    unsigned max_warps;         /* the SM's warp limit */
    unsigned blocks_by[PN_GPU_LIMITS]; /* resident blocks each limit allows
                                 * (PN_GPU_LIMIT_*; UINT_MAX: it does not
                                 * limit, as registers or shared memory
                                 * the launch does not use) */
    const char *arch_guessed;   /* NULL, or why the limits and latencies are
                                 * another capability's (a capability the
                                 * table lacks takes its nearest lower one) */
} pn_gpu_shape_t;

/* Maps a launch on a device onto the model: occupancy against the limits
 * of the device's compute capability, waves, per-warp counts, transactions
 * and the latency mix.  Returns PN_OK; PN_EVALUE when a count the model
 * needs is missing (NAN) or the launch cannot run on the device (a block
 * that fits no SM), naming the launch and the metric; PN_EUNSUPPORTED when
 * the compute capability is not in the table. */
pn_status_t pn_gpu_shape(const pn_gpu_launch_t *launch,
                         const pn_gpu_device_t *dev, pn_gpu_shape_t *shape,
                         pn_error_t *err);

/* The free parameters of one GPU (pn_gpu_fit()); spec-only defaults from
 * pn_gpu_calib_init(). */
typedef struct pn_gpu_calib {
    char gpu[64];
    double overhead_s;     /* fixed cost of a launch */
    double issue_scale;    /* seconds per modelled SM cycle, over 1/clock */
    double dram_scale;     /* DRAM time over bytes / bandwidth */
    double l2_scale;       /* L2 time over L2 bytes / DRAM bandwidth */
    double lsu_scale;      /* L1/shared pipe time over wavefronts / clock */
    double strided_scale;  /* strided DRAM time over strided bytes / bandwidth */
    double log_lo, log_hi; /* 10th and 90th percentile of log(measured/predicted)
                            * in training; log_lo <= 0 <= log_hi */
    double train_mape;     /* mean absolute percentage error on the training rows, % */
    size_t train_n;        /* training rows */
} pn_gpu_calib_t;

/* The calibration of a GPU nobody measured: one cycle = 1/clock, the full
 * bandwidth, a 5 us launch overhead, and an interval of a factor 2. */
void pn_gpu_calib_init(pn_gpu_calib_t *calib, const char *gpu);

/* A cache of simulated wave lengths shared by predictions (the net of a
 * wave depends on the shape only, not on the calibration). */
typedef struct pn_gpu_cache pn_gpu_cache_t;
pn_gpu_cache_t *pn_gpu_cache_new(void);
void pn_gpu_cache_free(pn_gpu_cache_t *cache);

/* A prediction and where its time goes. */
typedef struct pn_gpu_prediction {
    double predicted_s, low_s, high_s;
    double overhead_s;     /* launch overhead */
    double issue_s;        /* the warp net: issuing and latency, all waves */
    double dram_s;         /* DRAM bandwidth bound */
    double l2_s;           /* L2 bandwidth bound */
    double lsu_s;          /* L1/shared data pipe bound of the busiest SM */
    double strided_s;      /* DRAM bound of the strided traffic */
    const char *bound;     /* "net" (issue and latency), "DRAM", "L2", "LSU",
                            * "strided DRAM" */
    double wave_cycles;    /* cycles of one full wave (net steps / PN_GPU_STEPS_PER_CYCLE) */
    double net_scale;      /* counts were divided by this before simulating */
    /* shares of the wave's scheduler time, from the net's firings */
    double busy, wait_global, wait_shared, idle;
    /* what decides the time: "issue" (the net, and the schedulers issue
     * half a full wave's cycles or more), "latency" (the net, the warps
     * mostly waiting),
     * "L1/shared", "L2", "DRAM" (with strided DRAM), "launch overhead"
     * (larger than every bound), "tail wave" (the net, and the last,
     * partial wave takes half its time or more: a grid that does not fill
     * the GPU) */
    const char *decides;
    double tail_share;     /* share of the net's time in the last, partial wave */
} pn_gpu_prediction_t;

/* A wave is the warp net with pipelined issue (doc/wpnm.md): a scheduler
 * issues an instruction every 2 steps (t1, then t5, t6 or t7), so one SM
 * cycle is 2 steps; an instruction of one warp takes 4 steps plus its
 * latency counter, so a latency of L cycles enters the net as 2L - 4 steps
 * for arithmetic and 2L - 5 for memory (whose frames take one step
 * more). */
#define PN_GPU_STEPS_PER_CYCLE 2

/* Per-warp instruction counts above this are scaled down before the wave
 * is simulated (keeping each kind at 16 or more, within 4 times the cap),
 * and the steps scaled back up (doc/gpu.md: the
 * scaling law and its measured error). */
#define PN_GPU_SIM_CAP 96

/* The most global loads a warp is taken to keep in flight (shape's mlp:
 * global loads per control-flow instruction, doc/gpu.md). */
#define PN_GPU_MLP_MAX 8

/* Predicts a launch: overhead + max(issue_scale * waves * wave_cycles /
 * clock, dram_scale * DRAM time, l2_scale * L2 time, lsu_scale * LSU
 * wavefronts / clock, strided_scale * strided DRAM bytes / bandwidth).
 * cache may be NULL.
 * Returns PN_OK, PN_ENOMEM. */
pn_status_t pn_gpu_predict(const pn_gpu_shape_t *shape,
                           const pn_gpu_calib_t *calib, pn_gpu_cache_t *cache,
                           pn_gpu_prediction_t *out, pn_error_t *err);

/* Fits calib's overhead and scales to n shapes with measured times
 * (minimising the mean absolute log error), and fills its interval and
 * training error.  Needs more measured times (> 0) than the six free
 * parameters: with 6 or fewer the fit goes through every one and its
 * interval would be a false 0, and PN_EINVAL says how many there were.
 * Returns PN_OK, PN_EINVAL, PN_ENOMEM. */
pn_status_t pn_gpu_fit(const pn_gpu_shape_t *shapes, const double *measured,
                       size_t n, pn_gpu_cache_t *cache, pn_gpu_calib_t *calib,
                       pn_error_t *err);


/* ---- evaluation ------------------------------------------------------------ */

/* The methods an evaluation compares, in this order: the model, then the
 * baselines computed by the same code on the same rows. */
enum {
    PN_GPU_MODEL = 0,      /* this model (the warp net, waves, memory bounds) */
    PN_GPU_INST_SM = 1,    /* overhead + scale * warp instructions per SM / clock */
    PN_GPU_ROOFLINE = 2,   /* overhead + max(compute, DRAM bytes / bandwidth), scaled */
    PN_GPU_LINREG = 3,     /* least relative squares on per-SM counts and transactions */
    PN_GPU_METHODS = 4
};

/* One line of an evaluation: a split, a group (a GPU, a kernel, or "all"),
 * the test rows and each method's MAPE in percent (NAN: no prediction). */
typedef struct pn_gpu_eval_line {
    char split[16];        /* "sizes", "kernel", "gpu-kernel", "new-gpu" */
    char group[112];       /* "all", "gpu:NAME" or "kernel:NAME" */
    size_t n;
    double mape[PN_GPU_METHODS];
} pn_gpu_eval_line_t;

/* Runs the splits of doc/gpu.md on launches with measured times: held-out
 * sizes (per GPU, even size ranks of each kernel and block shape train, odd
 * ranks test), leave one kernel out (per GPU), per (GPU, kernel), and each
 * GPU predicted from the calibrations of the others.  Launches whose device
 * is not in devs, or that the model cannot shape (a missing count), are
 * left out and counted in *skipped.  A split of a GPU with no launch to
 * train on (the kernel split of a GPU with one kernel, new-gpu with one
 * GPU) is not scored: its line of the GPU (and "all", when nothing else
 * scored it) has n 0 and NAN errors.  Returns PN_OK with *out (free()),
 * *nout; PN_EINVAL when nothing is left; PN_ENOMEM. */
pn_status_t pn_gpu_eval(const pn_gpu_launch_t *launches, size_t n,
                        const pn_gpu_device_t *devs, size_t ndev,
                        pn_gpu_cache_t *cache, pn_gpu_eval_line_t **out,
                        size_t *nout, size_t *skipped, pn_error_t *err);

/* Kernels the calibration never saw: each GPU of `unseen` is calibrated
 * on its launches in `train` (all of them) and predicts its launches in
 * `unseen` (split `label`, 1 to 7 characters), and is predicted from the
 * mean of the calibrations of the other GPUs of train, as in the new-gpu
 * split (split "LABEL-new-gpu").  The baselines are fitted by the same
 * code on the same rows.  The "all" line of each split is the mean of its
 * kernels' errors (n: all its test launches); the "gpu:" and "kernel:"
 * lines pool their launches.  Skipped launches and errors as
 * pn_gpu_eval(); PN_EINVAL also for a label of another length. */
pn_status_t pn_gpu_eval_unseen(const pn_gpu_launch_t *train, size_t ntrain,
                               const pn_gpu_launch_t *unseen, size_t nunseen,
                               const char *label,
                               const pn_gpu_device_t *devs, size_t ndev,
                               pn_gpu_cache_t *cache, pn_gpu_eval_line_t **out,
                               size_t *nout, size_t *skipped, pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
