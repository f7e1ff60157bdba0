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
 * launch, metric names such as `smsp__inst_executed.sum`).  A device is
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
    double measured_s;        /* measured time in seconds (mean of the repeats), NAN if unknown */
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
    char file[256];           /* where the launch was read */
    unsigned long line;
} pn_gpu_launch_t;

/* Reads one profile (either layout, told apart by its header).  Rows with
 * the same (gpu, kernel, input size, grid, block) are merged into one
 * launch: the measured time is their mean, counts their mean, `repeats`
 * their number.  Returns PN_OK with *out, *n (rows in file order of first
 * appearance), or PN_EIO / PN_EVALUE (file, line, column and what is
 * wrong in err) / PN_ENOMEM. */
pn_status_t pn_gpu_profile_read(const char *path, pn_gpu_launch_t **out,
                                size_t *n, pn_error_t *err);

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

#ifdef __cplusplus
}
#endif
#endif
