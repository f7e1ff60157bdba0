/*
 * pn-gpu's model (gpu/model.c, gpu/eval.c): occupancy and waves from the
 * limits of a compute capability, missing counts refused by name, the
 * scaling law of the simulated wave against the full simulation, the fit
 * recovering the parameters it was given on data the model made itself,
 * and the evaluation's splits.
 */
#include <config.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "predict.h"

/* A Maxwell GPU like the GTX-970 of the data set. */
static pn_gpu_device_t maxwell(void)
{
    pn_gpu_device_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "GTX-970");
    d.cc_major = 5;
    d.cc_minor = 2;
    d.clock_mhz = 1076;
    d.sms = 13;
    d.cores_per_sm = 128;
    d.bandwidth_gbs = 224.32;
    d.l2_mb = 1.75;
    return d;
}

/* A launch of `blocks` blocks of `threads` threads with per-warp counts;
 * coalesced global accesses (4 sectors each), every one from DRAM. */
static pn_gpu_launch_t launch(unsigned blocks, unsigned threads, double arith,
                              double shared, double global)
{
    pn_gpu_launch_t l;
    memset(&l, 0, sizeof l);
    snprintf(l.gpu, sizeof l.gpu, "GTX-970");
    snprintf(l.kernel, sizeof l.kernel, "k");
    l.input_size = blocks;
    l.grid[0] = blocks;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = threads;
    l.block[1] = l.block[2] = 1;
    l.regs_per_thread = 16;
    l.measured_s = NAN;
    l.repeats = 1;
    l.warps = (double)blocks * ceil(threads / 32.0);
    l.inst = (arith + shared + global) * l.warps;
    l.shared_ld = shared * l.warps;
    l.shared_st = 0;
    l.global_ld = global * l.warps;
    l.global_st = 0;
    l.global_ld_trans = 4 * l.global_ld;
    l.global_st_trans = 0;
    l.dram_read = l.global_ld_trans;
    l.dram_write = 0;
    l.l2_read = l.global_ld_trans;
    l.l2_write = 0;
    l.l1_hit = l.l2_hit = NAN;
    return l;
}

START_TEST(occupancy_and_waves)
{
    pn_gpu_device_t d = maxwell();
    pn_gpu_shape_t s;
    /* 1024 threads: 32 warps a block, 64 warps an SM: 2 blocks */
    pn_gpu_launch_t l = launch(130, 1024, 10, 0, 1);
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert_uint_eq(s.warps_per_block, 32);
    ck_assert_uint_eq(s.resident_blocks, 2);
    ck_assert_str_eq(s.limited_by, "warps");
    ck_assert(s.blocks_sm == 10);           /* ceil(130 / 13) */
    ck_assert(fabs(s.waves - 5) < 1e-12);
    ck_assert_uint_eq(s.resident_warps, 64);
    ck_assert_uint_eq(s.schedulers, 4);
    /* 64 registers a thread, 256 threads: 16384 registers a block, 4 blocks */
    l = launch(26, 256, 10, 0, 1);
    l.regs_per_thread = 64;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert_uint_eq(s.resident_blocks, 4);
    ck_assert_str_eq(s.limited_by, "registers");
    ck_assert(s.blocks_sm == 2 && s.resident_warps == 16);
    /* 40,000 bytes of shared memory a block: 2 of 96 KiB */
    l = launch(26, 64, 10, 2, 1);
    l.smem_per_block = 40000;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert_uint_eq(s.resident_blocks, 2);
    ck_assert_str_eq(s.limited_by, "shared memory");
    /* small blocks: the block limit (32 on 5.2) */
    l = launch(13 * 40, 32, 10, 0, 1);
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert_uint_eq(s.resident_blocks, 32);
    ck_assert_str_eq(s.limited_by, "blocks");
    ck_assert(fabs(s.waves - 40.0 / 32) < 1e-12);
    /* per-warp counts */
    ck_assert(fabs(s.arith - 10) < 1e-9 && fabs(s.global - 1) < 1e-9);
    ck_assert(fabs(s.replays) < 1e-9);   /* 4 sectors: one line, no replay */
    ck_assert(fabs(s.miss - 1) < 1e-9);
    /* a block that fits nowhere */
    l = launch(13, 256, 10, 0, 1);
    l.smem_per_block = 200000;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, &err), PN_EVALUE);
    ck_assert_ptr_nonnull(strstr(err.text, "does not fit"));
}
END_TEST

START_TEST(missing_counts_are_named)
{
    pn_gpu_device_t d = maxwell();
    pn_gpu_shape_t s;
    pn_error_t err;
    pn_gpu_launch_t l = launch(26, 256, 10, 0, 1);
    l.inst = NAN;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, &err), PN_EVALUE);
    ck_assert_ptr_nonnull(strstr(err.text, "instructions executed"));
    l = launch(26, 256, 10, 0, 1);
    l.global_st = NAN;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, &err), PN_EVALUE);
    ck_assert_ptr_nonnull(strstr(err.text, "global stores"));
    /* every count the row lacks is named, not only the first */
    l.shared_ld = NAN;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, &err), PN_EVALUE);
    ck_assert_ptr_nonnull(strstr(err.text, "shared loads, global stores (NA)"));
    /* transactions and DRAM missing: the documented fallbacks */
    l = launch(26, 256, 10, 0, 1);
    l.global_ld_trans = l.dram_read = NAN;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, &err), PN_OK);
    ck_assert(fabs(s.miss - 1) < 1e-9);
    ck_assert(s.dram_bytes > 0);
    d.cc_major = 2;   /* Fermi is not in the table */
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, &err), PN_EUNSUPPORTED);
}
END_TEST

/* The simulated wave scales counts above PN_GPU_SIM_CAP down and the steps
 * back up: against the full net (pipelined, same latencies) it stays
 * within 3% for counts 10 and 40 times the cap. */
START_TEST(scaling_law)
{
    pn_gpu_device_t d = maxwell();
    const double mix[][3] = {{0.8, 0.1, 0.1}, {0.5, 0.4, 0.1}, {0.9, 0, 0.1}};
    const unsigned warps[] = {2, 16, 64};
    for (size_t m = 0; m < 3; m++)
        for (size_t w = 0; w < 3; w++)
            for (int f = 10; f <= 40; f *= 4) {
                double n = PN_GPU_SIM_CAP * f;
                pn_gpu_launch_t l = launch(13 * warps[w] / 2, 64, n * mix[m][0],
                                           n * mix[m][1], n * mix[m][2]);
                pn_gpu_shape_t s;
                ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
                pn_gpu_calib_t c;
                pn_gpu_calib_init(&c, NULL);
                pn_gpu_prediction_t p;
                ck_assert_int_eq(pn_gpu_predict(&s, &c, NULL, &p, NULL), PN_OK);
                ck_assert(p.net_scale > 1 && p.net_scale <= f);
                /* the full net */
                pn_gpu_params_t g;
                memset(&g, 0, sizeof g);
                g.warps = s.resident_warps;
                g.schedulers = s.schedulers;
                g.pipelined = 1;
                g.uniform.arith = (uint64_t)llround(s.arith + s.replays);
                g.uniform.shared = (uint64_t)llround(s.shared);
                g.uniform.global = (uint64_t)llround(s.global);
                g.l1 = (uint64_t)llround(2 * s.lat_global - 5);
                g.l2 = (uint64_t)llround(2 * s.lat_shared - 5);
                g.la = (uint64_t)llround(2 * s.lat_arith - 4);
                pn_net_t *net;
                ck_assert_int_eq(pn_gpu_net(&g, &net), PN_OK);
                pn_engine_t *e;
                ck_assert_int_eq(pn_engine_compile(net, &e), PN_OK);
                pn_sim_t *sim = pn_sim_new(e, 1, PN_SEM_MAXIMAL, 0);
                ck_assert_int_eq(pn_sim_run(sim, UINT64_C(1) << 40), PN_END_DEAD);
                double full = (double)pn_sim_steps(sim) / PN_GPU_STEPS_PER_CYCLE;
                double err = fabs(p.wave_cycles - full) / full;
                ck_assert_msg(err < 0.03, "mix %zu, %u warps, x%d: scaled %.0f, full %.0f",
                              m, warps[w], f, p.wave_cycles, full);
                pn_sim_free(sim);
                pn_engine_free(e);
                pn_net_free(net);
            }
}
END_TEST

/* Times made by the model with known parameters are fitted back. */
START_TEST(fit_recovers_parameters)
{
    pn_gpu_device_t d = maxwell();
    pn_gpu_calib_t truth;
    pn_gpu_calib_init(&truth, "GTX-970");
    truth.overhead_s = 4e-6;
    truth.issue_scale = 1.3;
    truth.dram_scale = 0.8;
    truth.l2_scale = 0.6;
    truth.strided_scale = 4;
    enum { N = 60 };
    pn_gpu_shape_t s[N];
    double t[N];
    pn_gpu_cache_t *cache = pn_gpu_cache_new();
    for (int i = 0; i < N; i++) {
        /* compute-heavy, memory-heavy and tiny launches */
        double a = i % 3 == 0 ? 400 : i % 3 == 1 ? 10 : 40;
        double g = i % 3 == 1 ? 8 : 1;
        pn_gpu_launch_t l = launch(13u * (1u + (unsigned)i * 7u), 256, a, i % 2 ? 4 : 0, g);
        if (i % 3 == 1 && i % 2) {
            /* L2-heavy: L2 serves each line 12 times */
            l.l2_read = 3 * l.global_ld_trans;
            l.dram_read = l.l2_read / 12;
        } else if (i % 3 == 1)
            l.l2_read = 2 * l.dram_read;          /* strided: each line twice */
        if (i % 5 == 0)
            l.dram_read *= 4;
        ck_assert_int_eq(pn_gpu_shape(&l, &d, &s[i], NULL), PN_OK);
        pn_gpu_prediction_t p;
        ck_assert_int_eq(pn_gpu_predict(&s[i], &truth, cache, &p, NULL), PN_OK);
        t[i] = p.predicted_s;
    }
    pn_gpu_calib_t c;
    pn_gpu_calib_init(&c, "GTX-970");
    ck_assert_int_eq(pn_gpu_fit(s, t, N, cache, &c, NULL), PN_OK);
    ck_assert_msg(c.train_mape < 1.0, "training error %.2f%%", c.train_mape);
    ck_assert_msg(fabs(c.overhead_s / truth.overhead_s - 1) < 0.05, "overhead %g", c.overhead_s);
    ck_assert_msg(fabs(c.issue_scale / truth.issue_scale - 1) < 0.05, "issue %g", c.issue_scale);
    ck_assert_msg(fabs(c.dram_scale / truth.dram_scale - 1) < 0.05, "dram %g", c.dram_scale);
    ck_assert_msg(fabs(c.l2_scale / truth.l2_scale - 1) < 0.05, "l2 %g", c.l2_scale);
    ck_assert_msg(fabs(c.strided_scale / truth.strided_scale - 1) < 0.05, "strided %g", c.strided_scale);
    ck_assert_uint_eq(c.train_n, N);
    /* the fit is exact: the interval is 0 up to rounding */
    ck_assert_msg(c.log_lo <= 1e-9 && c.log_hi >= -1e-9, "interval %g %g", c.log_lo, c.log_hi);
    /* the cache changes nothing */
    pn_gpu_prediction_t p1, p2;
    ck_assert_int_eq(pn_gpu_predict(&s[5], &c, cache, &p1, NULL), PN_OK);
    ck_assert_int_eq(pn_gpu_predict(&s[5], &c, NULL, &p2, NULL), PN_OK);
    ck_assert(p1.predicted_s == p2.predicted_s);
    pn_gpu_cache_free(cache);
    /* nothing to fit */
    pn_error_t err;
    double zero = 0;
    ck_assert_int_eq(pn_gpu_fit(s, &zero, 1, NULL, &c, &err), PN_EINVAL);
    /* six launches for six parameters: an exact fit that says nothing */
    pn_gpu_calib_init(&c, "GTX-970");
    ck_assert_int_eq(pn_gpu_fit(s, t, 6, NULL, &c, &err), PN_EINVAL);
    ck_assert_msg(strstr(err.text, "6 launches with a measured time") &&
                  strstr(err.text, "at least 7"), "%s", err.text);
    ck_assert(c.issue_scale == 1 && c.log_lo < 0);   /* left as it was */
    ck_assert_int_eq(pn_gpu_fit(s, t, 7, NULL, &c, &err), PN_OK);
}
END_TEST

/* Two GPUs made by the model itself: every split of the evaluation
 * predicts its test rows exactly for the model (the baselines do not). */
START_TEST(eval_splits)
{
    pn_gpu_device_t d[2] = {maxwell(), maxwell()};
    snprintf(d[1].name, sizeof d[1].name, "Other");
    d[1].sms = 16;
    d[1].clock_mhz = 1216;
    pn_gpu_calib_t truth;
    pn_gpu_calib_init(&truth, NULL);
    truth.overhead_s = 3e-6;
    /* two kernels of each kind (issue-bound, memory-bound), so that a
     * held-out kernel's binding unit is one a training kernel reaches too:
     * the time is the largest of the scaled bounds, and the scale of a
     * unit no training row is bound by is not identified by the rows */
    static const unsigned kind[4][3] = {
        {200, 8, 1}, {30, 0, 6}, {150, 4, 1}, {20, 0, 9}};
    enum { K = 4, N = 2 * K * 2 * 6 };
    pn_gpu_launch_t l[N];
    size_t n = 0;
    for (int g = 0; g < 2; g++)
        for (int k = 0; k < K; k++)
            for (int b = 0; b < 2; b++)
                for (int sz = 1; sz <= 6; sz++) {
                    l[n] = launch(40u * (unsigned)sz * (unsigned)sz, b ? 256 : 128,
                                  kind[k][0], kind[k][1], kind[k][2]);
                    l[n].input_size = sz;
                    memcpy(l[n].gpu, d[g].name, sizeof l[n].gpu);
                    snprintf(l[n].kernel, sizeof l[n].kernel, "k%d", k);
                    pn_gpu_shape_t s;
                    pn_gpu_prediction_t p;
                    ck_assert_int_eq(pn_gpu_shape(&l[n], &d[g], &s, NULL), PN_OK);
                    ck_assert_int_eq(pn_gpu_predict(&s, &truth, NULL, &p, NULL), PN_OK);
                    l[n].measured_s = p.predicted_s;
                    n++;
                }
    l[0].inst = NAN;   /* left out */
    pn_gpu_eval_line_t *lines;
    size_t nl, skipped;
    ck_assert_int_eq(pn_gpu_eval(l, n, d, 2, NULL, &lines, &nl, &skipped, NULL), PN_OK);
    ck_assert_uint_eq(skipped, 1);
    const char *splits[] = {"sizes", "kernel", "gpu-kernel", "new-gpu"};
    for (int q = 0; q < 4; q++) {
        int found = 0;
        for (size_t i = 0; i < nl; i++) {
            if (strcmp(lines[i].split, splits[q]) || strcmp(lines[i].group, "all"))
                continue;
            found = 1;
            ck_assert_msg(lines[i].mape[PN_GPU_MODEL] < 1.0, "%s: model %.2f%%",
                          splits[q], lines[i].mape[PN_GPU_MODEL]);
            /* sizes: odd ranks of 6 sizes, per gpu, kernel and block */
            if (q == 0 || q == 2)
                ck_assert_uint_eq(lines[i].n, 2 * K * 2 * 3 - 1);  /* l[0] left out */
            else
                ck_assert_uint_eq(lines[i].n, N - 1);
        }
        ck_assert_msg(found, "no line for %s", splits[q]);
    }
    free(lines);
}
END_TEST

/* A Kepler GPU like the Titan of the data set. */
static pn_gpu_device_t kepler(void)
{
    pn_gpu_device_t d = maxwell();
    snprintf(d.name, sizeof d.name, "Titan");
    d.cc_major = 3;
    d.cc_minor = 5;
    d.clock_mhz = 876;
    d.sms = 14;
    d.cores_per_sm = 192;
    d.bandwidth_gbs = 288.384;
    return d;
}

/* Kepler replays an uncoalesced request in the issue stage; from Maxwell
 * on the L1/texture pipe splits it: no issue slots, only wavefronts (the
 * LSU bound). */
START_TEST(replays_by_architecture)
{
    pn_gpu_device_t m = maxwell(), k = kepler();
    pn_gpu_shape_t s, c;
    pn_gpu_prediction_t p, q;
    pn_gpu_calib_t unit;
    pn_gpu_calib_init(&unit, NULL);
    /* Maxwell: 16 sectors a request, 13 wavefronts; coalesced: 4 sectors, 1 */
    pn_gpu_launch_t l = launch(13 * 64, 256, 40, 0, 4);
    pn_gpu_launch_t u = l;
    u.global_ld_trans = 16 * u.global_ld;
    ck_assert_int_eq(pn_gpu_shape(&u, &m, &s, NULL), PN_OK);
    ck_assert_int_eq(pn_gpu_shape(&l, &m, &c, NULL), PN_OK);
    ck_assert(fabs(s.replays) < 1e-9);
    ck_assert_msg(fabs(s.wavefronts - 4 * 13) < 1e-9, "wavefronts %g", s.wavefronts);
    ck_assert(fabs(c.wavefronts - 4) < 1e-9);
    ck_assert(s.lsu_sm > 10 * c.lsu_sm);
    ck_assert_int_eq(pn_gpu_predict(&s, &unit, NULL, &p, NULL), PN_OK);
    ck_assert_int_eq(pn_gpu_predict(&c, &unit, NULL, &q, NULL), PN_OK);
    ck_assert(p.wave_cycles == q.wave_cycles);   /* the same issue */
    ck_assert(p.lsu_s > q.lsu_s);
    /* Kepler: 128-byte lines, 8 a request: 7 replays a request */
    u.global_ld_trans = 8 * u.global_ld;
    ck_assert_int_eq(pn_gpu_shape(&u, &k, &s, NULL), PN_OK);
    ck_assert_msg(fabs(s.replays - 7 * 4) < 1e-9, "replays %g", s.replays);
    ck_assert(fabs(s.wavefronts - 8 * 4) < 1e-9);
}
END_TEST

/* Loads in flight: global loads per control-flow instruction (1 to
 * PN_GPU_MLP_MAX) divide the global latency the wave's net waits.  A
 * latency-bound wave gets faster, an issue-bound one does not change. */
START_TEST(mlp_from_branches)
{
    pn_gpu_device_t d = maxwell();
    pn_gpu_calib_t unit;
    pn_gpu_calib_init(&unit, NULL);
    /* one block of 2 warps on an SM: 32 loads a warp, latency-bound */
    pn_gpu_launch_t l = launch(13, 64, 16, 0, 32);
    pn_gpu_shape_t s1, s4, s;
    pn_gpu_prediction_t p1, p4;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s1, NULL), PN_OK);
    ck_assert(s1.mlp == 1);                 /* no control-flow count (0) */
    l.branches = NAN;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert(s.mlp == 1);
    l.branches = 2 * l.global_ld;           /* fewer loads than branches */
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert(s.mlp == 1);
    l.branches = l.global_ld / 100;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert(s.mlp == PN_GPU_MLP_MAX);
    l.branches = l.global_ld / 4;           /* 4 loads a loop iteration */
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s4, NULL), PN_OK);
    ck_assert_msg(fabs(s4.mlp - 4) < 1e-9, "mlp %g", s4.mlp);
    ck_assert(s4.lat_global == s1.lat_global);   /* the latency itself stays */
    ck_assert_int_eq(pn_gpu_predict(&s1, &unit, NULL, &p1, NULL), PN_OK);
    ck_assert_int_eq(pn_gpu_predict(&s4, &unit, NULL, &p4, NULL), PN_OK);
    ck_assert_msg(p4.wave_cycles < 0.4 * p1.wave_cycles, "cycles %g against %g",
                  p4.wave_cycles, p1.wave_cycles);
    ck_assert(p4.wait_global / p4.busy < p1.wait_global / p1.busy);
    /* 8 blocks of 8 warps, 400 arithmetic instructions a warp: near the
     * issue bound already; the loads in flight bring it closer, never
     * below issuing every instruction (64 warps * 404 / 4 schedulers) */
    pn_gpu_launch_t h = launch(13 * 8, 256, 400, 0, 4);
    ck_assert_int_eq(pn_gpu_shape(&h, &d, &s1, NULL), PN_OK);
    h.branches = h.global_ld / 4;
    ck_assert_int_eq(pn_gpu_shape(&h, &d, &s4, NULL), PN_OK);
    ck_assert_int_eq(pn_gpu_predict(&s1, &unit, NULL, &p1, NULL), PN_OK);
    ck_assert_int_eq(pn_gpu_predict(&s4, &unit, NULL, &p4, NULL), PN_OK);
    ck_assert_msg(p4.wave_cycles <= p1.wave_cycles &&
                  p4.wave_cycles >= 0.98 * 64 * 404 / 4,
                  "cycles %g against %g", p4.wave_cycles, p1.wave_cycles);
}
END_TEST

/* Strided DRAM: the DRAM bytes of lines L2 serves more than once, with a
 * scale of their own. */
START_TEST(strided_dram)
{
    pn_gpu_device_t d = maxwell();
    pn_gpu_launch_t l = launch(13 * 64, 256, 10, 0, 2);
    pn_gpu_shape_t s, c;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &c, NULL), PN_OK);
    ck_assert(c.strided_bytes == 0);        /* every L2 access from DRAM */
    l.l2_read = 4 * l.dram_read;            /* each line 4 times from L2 */
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert(fabs(s.miss - 0.25) < 1e-12);
    ck_assert(fabs(s.strided_bytes - 0.75 * s.dram_bytes) < 1e-6 * s.dram_bytes);
    pn_gpu_calib_t cal;
    pn_gpu_calib_init(&cal, NULL);
    ck_assert(cal.strided_scale == 1);
    pn_gpu_prediction_t p;
    ck_assert_int_eq(pn_gpu_predict(&s, &cal, NULL, &p, NULL), PN_OK);
    ck_assert(p.strided_s <= p.dram_s);     /* at scale 1 never above DRAM */
    ck_assert_str_ne(p.bound, "strided DRAM");
    cal.strided_scale = 20;
    ck_assert_int_eq(pn_gpu_predict(&s, &cal, NULL, &p, NULL), PN_OK);
    ck_assert_str_eq(p.bound, "strided DRAM");
    double want = 20 * 0.75 * s.dram_bytes / s.bandwidth;
    ck_assert_msg(fabs(p.strided_s / want - 1) < 1e-9, "strided %g", p.strided_s);
    ck_assert(fabs(p.predicted_s - (cal.overhead_s + want)) < 1e-12);
}
END_TEST

/* Missing memory counts come from the same GPU, kernel and block at the
 * nearest size, as ratios per request. */
START_TEST(impute_from_nearest_size)
{
    enum { N = 7 };
    pn_gpu_launch_t l[N];
    const double size[N] = {1, 2, 4, 8, 8, 16, 2};
    for (int i = 0; i < N; i++) {
        l[i] = launch(13u * (unsigned)size[i], 256, 40, 0, 2);
        l[i].input_size = size[i];
        l[i].global_ld_trans = 6 * l[i].global_ld;   /* 6 sectors a request */
        l[i].l2_read = 5 * l[i].global_ld;
        l[i].dram_read = size[i] * l[i].global_ld;   /* grows with the size */
        l[i].l1_hit = 0.25 * size[i];
    }
    /* l[4]: another block shape; l[6]: another kernel, coalesced */
    l[4].block[0] = 128;
    snprintf(l[6].kernel, sizeof l[6].kernel, "other");
    l[6].global_ld_trans = 4 * l[6].global_ld;
    /* nvprof's NA for the largest size: transactions, L2, DRAM, hit rate */
    l[5].global_ld_trans = l[5].l2_read = l[5].dram_read = l[5].l1_hit = NAN;
    /* and a group with no size that knows its transactions */
    l[4].global_ld_trans = NAN;
    size_t filled = pn_gpu_launches_impute(l, N);
    ck_assert_uint_eq(filled, 4);
    /* from size 8 of its own block shape, not size 8 of the other */
    ck_assert(fabs(l[5].global_ld_trans / l[5].global_ld - 6) < 1e-9);
    ck_assert(fabs(l[5].l2_read / l[5].global_ld - 5) < 1e-9);
    ck_assert(fabs(l[5].dram_read / l[5].global_ld - 8) < 1e-9);
    ck_assert(fabs(l[5].l1_hit - 2) < 1e-9);   /* copied as it is */
    ck_assert_uint_eq(l[5].imputed, PN_GPU_IMPUTED_TRANS | PN_GPU_IMPUTED_L2 |
                                    PN_GPU_IMPUTED_DRAM | PN_GPU_IMPUTED_L1);
    ck_assert(isnan(l[4].global_ld_trans) && l[4].imputed == 0);
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(l[i].imputed, 0);
    ck_assert_uint_eq(pn_gpu_launches_impute(l, N), 0);   /* nothing left */
    ck_assert_uint_eq(pn_gpu_launches_impute(NULL, 0), 0);
    /* the filled launch predicts as uncoalesced, not as the fallback */
    pn_gpu_device_t d = maxwell();
    pn_gpu_shape_t s;
    ck_assert_int_eq(pn_gpu_shape(&l[5], &d, &s, NULL), PN_OK);
    ck_assert(fabs(s.wavefronts - 2 * 3) < 1e-9);   /* 6 - 3 a request */
}
END_TEST

/* A GPU with no training rows takes the calibrations of the GPUs of its
 * own architecture: two Maxwell GPUs made with one calibration and a
 * Kepler GPU with another; the Maxwell ones are predicted exactly. */
/* One GPU with one kernel: the kernel and new-gpu splits have nothing to
 * train on and are not scored (n 0, NAN), never with the sizes fit. */
START_TEST(eval_nothing_to_train)
{
    pn_gpu_device_t d = maxwell();
    pn_gpu_launch_t l[4];
    for (int i = 0; i < 4; i++) {
        l[i] = launch(40u * (unsigned)(i + 1), 128, 100, 4, 2);
        l[i].input_size = i + 1;
        memcpy(l[i].gpu, d.name, sizeof l[i].gpu);
        snprintf(l[i].kernel, sizeof l[i].kernel, "k");
        l[i].measured_s = 1e-5 * (i + 1);
    }
    pn_gpu_eval_line_t *lines;
    size_t nl, skipped;
    ck_assert_int_eq(pn_gpu_eval(l, 4, &d, 1, NULL, &lines, &nl, &skipped, NULL), PN_OK);
    int kernel = 0, newgpu = 0, sizes = 0;
    for (size_t i = 0; i < nl; i++) {
        if (!strcmp(lines[i].split, "sizes") || !strcmp(lines[i].split, "gpu-kernel")) {
            sizes++;
            ck_assert_uint_gt(lines[i].n, 0);
            continue;
        }
        ck_assert_uint_eq(lines[i].n, 0);
        ck_assert(isnan(lines[i].mape[PN_GPU_MODEL]) && isnan(lines[i].mape[PN_GPU_LINREG]));
        kernel += !strcmp(lines[i].split, "kernel");
        newgpu += !strcmp(lines[i].split, "new-gpu");
    }
    ck_assert_int_eq(sizes, 6);   /* all, the GPU, the kernel: twice */
    ck_assert_int_eq(kernel, 2);  /* all, the GPU */
    ck_assert_int_eq(newgpu, 2);
    free(lines);
}
END_TEST

START_TEST(eval_new_gpu_same_architecture)
{
    pn_gpu_device_t d[3] = {maxwell(), maxwell(), kepler()};
    snprintf(d[1].name, sizeof d[1].name, "GTX-980");
    d[1].sms = 16;
    d[1].clock_mhz = 1216;
    pn_gpu_calib_t truth[2];
    pn_gpu_calib_init(&truth[0], NULL);
    pn_gpu_calib_init(&truth[1], NULL);
    truth[0].overhead_s = 3e-6;
    truth[1].overhead_s = 9e-6;
    truth[1].issue_scale = 3;
    truth[1].dram_scale = 2.5;
    enum { N = 3 * 2 * 6 };
    pn_gpu_launch_t l[N];
    size_t n = 0;
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < 2; k++)
            for (int sz = 1; sz <= 6; sz++) {
                l[n] = launch(40u * (unsigned)sz * (unsigned)sz, 256,
                              k ? 30 : 200, k ? 0 : 8, k ? 6 : 1);
                l[n].input_size = sz;
                memcpy(l[n].gpu, d[g].name, sizeof l[n].gpu);
                snprintf(l[n].kernel, sizeof l[n].kernel, "k%d", k);
                pn_gpu_shape_t s;
                pn_gpu_prediction_t p;
                ck_assert_int_eq(pn_gpu_shape(&l[n], &d[g], &s, NULL), PN_OK);
                ck_assert_int_eq(pn_gpu_predict(&s, &truth[g == 2], NULL, &p, NULL), PN_OK);
                l[n].measured_s = p.predicted_s;
                n++;
            }
    pn_gpu_eval_line_t *lines;
    size_t nl, skipped;
    ck_assert_int_eq(pn_gpu_eval(l, n, d, 3, NULL, &lines, &nl, &skipped, NULL), PN_OK);
    int found = 0;
    for (size_t i = 0; i < nl; i++) {
        if (strcmp(lines[i].split, "new-gpu")) continue;
        if (!strcmp(lines[i].group, "gpu:GTX-970") || !strcmp(lines[i].group, "gpu:GTX-980")) {
            found++;
            ck_assert_msg(lines[i].mape[PN_GPU_MODEL] < 1.0, "%s: %.2f%%",
                          lines[i].group, lines[i].mape[PN_GPU_MODEL]);
        }
        if (!strcmp(lines[i].group, "gpu:Titan")) {   /* no Kepler to learn from */
            found++;
            ck_assert_msg(lines[i].mape[PN_GPU_MODEL] > 20.0, "Titan: %.2f%%",
                          lines[i].mape[PN_GPU_MODEL]);
        }
    }
    ck_assert_int_eq(found, 3);
    free(lines);
}
END_TEST

/* Kernels the calibration never sees: two GPUs made by the model itself,
 * trained on two kernels, tested on a third of the same kinds: predicted
 * exactly on each GPU and from the other's calibration; "all" is the
 * mean of the kernels' errors; a bad label is refused. */
START_TEST(eval_unseen_kernels)
{
    pn_gpu_device_t d[2] = {maxwell(), maxwell()};
    snprintf(d[1].name, sizeof d[1].name, "Other");
    d[1].sms = 16;
    pn_gpu_calib_t truth;
    pn_gpu_calib_init(&truth, NULL);
    truth.overhead_s = 3e-6;
    static const unsigned kind[4][3] = {{200, 8, 1}, {30, 0, 6}, {150, 4, 1}, {20, 0, 9}};
    enum { N = 2 * 4 * 6 };
    pn_gpu_launch_t l[N];
    size_t n = 0;
    for (int g = 0; g < 2; g++)
        for (int k = 0; k < 4; k++)
            for (int sz = 1; sz <= 6; sz++) {
                l[n] = launch(40u * (unsigned)sz * (unsigned)sz, 256,
                              kind[k][0], kind[k][1], kind[k][2]);
                l[n].input_size = sz;
                memcpy(l[n].gpu, d[g].name, sizeof l[n].gpu);
                snprintf(l[n].kernel, sizeof l[n].kernel, "k%d", k);
                pn_gpu_shape_t s;
                pn_gpu_prediction_t p;
                ck_assert_int_eq(pn_gpu_shape(&l[n], &d[g], &s, NULL), PN_OK);
                ck_assert_int_eq(pn_gpu_predict(&s, &truth, NULL, &p, NULL), PN_OK);
                l[n].measured_s = p.predicted_s;
                n++;
            }
    /* kernels 0 and 1 train; 2 and 3 are unseen (sorted by GPU, kernel) */
    pn_gpu_launch_t train[N], un[N];
    size_t nt = 0, nu = 0;
    for (size_t i = 0; i < n; i++) {
        if (l[i].kernel[1] < '2') train[nt++] = l[i];
        else un[nu++] = l[i];
    }
    un[0].measured_s = NAN;   /* left out */
    pn_gpu_eval_line_t *lines;
    size_t nl, skipped;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_eval_unseen(train, nt, un, nu, "apps", d, 2, NULL,
                                        &lines, &nl, &skipped, &err), PN_OK);
    ck_assert_uint_eq(skipped, 1);
    int found = 0;
    for (size_t i = 0; i < nl; i++) {
        ck_assert_msg(!strcmp(lines[i].split, "apps") || !strcmp(lines[i].split, "apps-new-gpu"),
                      "%s", lines[i].split);
        ck_assert_msg(lines[i].mape[PN_GPU_MODEL] < 1.0, "%s %s: %.2f%%", lines[i].split,
                      lines[i].group, lines[i].mape[PN_GPU_MODEL]);
        if (!strcmp(lines[i].group, "all")) {
            found++;
            ck_assert_uint_eq(lines[i].n, nu - 1);
            /* the mean of the two kernels' lines of the split */
            double sum = 0;
            for (size_t j = 0; j < nl; j++)
                if (!strcmp(lines[j].split, lines[i].split) && !strncmp(lines[j].group, "kernel:", 7))
                    sum += lines[j].mape[PN_GPU_INST_SM];
            ck_assert_double_eq_tol(lines[i].mape[PN_GPU_INST_SM], sum / 2, 1e-9);
        }
    }
    ck_assert_int_eq(found, 2);
    /* "apps" comes before "apps-new-gpu", "all" first in each */
    ck_assert_str_eq(lines[0].split, "apps");
    ck_assert_str_eq(lines[0].group, "all");
    ck_assert_str_eq(lines[nl - 1].split, "apps-new-gpu");
    free(lines);
    ck_assert_int_eq(pn_gpu_eval_unseen(train, nt, un, nu, "rodinia2", d, 2, NULL,
                                        &lines, &nl, &skipped, &err), PN_EINVAL);
    ck_assert_int_eq(pn_gpu_eval_unseen(train, nt, un, 0, "apps", d, 2, NULL,
                                        &lines, &nl, &skipped, &err), PN_EINVAL);
}
END_TEST

/* Pascal GP100 (cc 6.0) as NVIDIA documents it: 32 blocks, 64 warps,
 * 65536 registers and 64 KB of shared memory an SM (CUDA C++ Programming
 * Guide, compute capability table), two processing blocks with one warp
 * scheduler each (64 FP32 cores an SM, the Pascal whitepaper); 6.1 has
 * four schedulers and 96 KB.  A P100 launch is shaped from them. */
START_TEST(pascal_limits)
{
    const pn_gpu_arch_t *a = pn_gpu_arch_find(6, 0);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(a->max_blocks, 32);
    ck_assert_uint_eq(a->max_warps, 64);
    ck_assert_uint_eq(a->regs, 65536);
    ck_assert_uint_eq(a->smem, 65536);
    ck_assert_uint_eq(a->schedulers, 2);
    ck_assert_str_eq(a->name, "Pascal");
    ck_assert_uint_eq(pn_gpu_arch_find(6, 1)->schedulers, 4);
    pn_gpu_device_t d = maxwell();
    snprintf(d.name, sizeof d.name, "Tesla-P100");
    d.cc_major = 6;
    d.cc_minor = 0;
    d.sms = 56;
    d.cores_per_sm = 64;
    pn_gpu_launch_t l = launch(4096, 256, 40, 0, 4);
    l.smem_per_block = 20000;   /* 3 blocks of 64 KB */
    pn_gpu_shape_t s;
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert_uint_eq(s.resident_blocks, 3);
    ck_assert_str_eq(s.limited_by, "shared memory");
    ck_assert_uint_eq(s.schedulers, 2);
    ck_assert_uint_eq(s.blocks_by[PN_GPU_LIMIT_WARPS], 8);
    ck_assert_uint_eq(s.blocks_by[PN_GPU_LIMIT_SMEM], 3);
    ck_assert_double_eq_tol(s.occupancy, 24.0 / 64, 1e-12);
    ck_assert_ptr_null(s.arch_guessed);
    d.cc_minor = 4;             /* not in the table: 6.0's row, said so */
    ck_assert_int_eq(pn_gpu_shape(&l, &d, &s, NULL), PN_OK);
    ck_assert_ptr_nonnull(s.arch_guessed);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu-model");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, occupancy_and_waves);
    tcase_add_test(tc, missing_counts_are_named);
    tcase_add_test(tc, scaling_law);
    tcase_add_test(tc, fit_recovers_parameters);
    tcase_add_test(tc, eval_splits);
    tcase_add_test(tc, replays_by_architecture);
    tcase_add_test(tc, mlp_from_branches);
    tcase_add_test(tc, strided_dram);
    tcase_add_test(tc, impute_from_nearest_size);
    tcase_add_test(tc, eval_new_gpu_same_architecture);
    tcase_add_test(tc, eval_nothing_to_train);
    tcase_add_test(tc, eval_unseen_kernels);
    tcase_add_test(tc, pascal_limits);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
