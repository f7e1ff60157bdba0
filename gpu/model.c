/*
 * The time model of pn-gpu: a launch mapped onto the GPU warp net, the
 * net of one wave simulated, the waves and the memory bounds added up,
 * and the per-GPU calibration.  doc/gpu.md describes every step.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"
#include "gpu.h"
#include "engine.h"
#include "lib_private.h"
#include "gpu_private.h"

/* ---- shape --------------------------------------------------------------- */

static int missing(double x) { return !(x == x) || x < 0; }

/* The counts every prediction needs: a file with no column for some of
 * them is refused at its header, naming each (with the columns that give
 * it); a row with NA cells at its line, naming each count it lacks. */
static pn_status_t need_counts(const pn_gpu_launch_t *l, pn_error_t *err)
{
    static const struct {
        unsigned bit;
        size_t off;
        const char *what, *cols;
    } need[] = {
        {PN_GPU_NOCOL_WARPS, offsetof(pn_gpu_launch_t, warps), "warps launched",
         "warps_launched, smsp__warps_launched.sum"},
        {PN_GPU_NOCOL_INST, offsetof(pn_gpu_launch_t, inst),
         "instructions executed", "inst_executed, smsp__inst_executed.sum"},
        {PN_GPU_NOCOL_SHARED_LD, offsetof(pn_gpu_launch_t, shared_ld),
         "shared loads", "shared_load, inst_executed_shared_loads, "
         "smsp__inst_executed_op_shared_ld.sum"},
        {PN_GPU_NOCOL_SHARED_ST, offsetof(pn_gpu_launch_t, shared_st),
         "shared stores", "shared_store, inst_executed_shared_stores, "
         "smsp__inst_executed_op_shared_st.sum"},
        {PN_GPU_NOCOL_GLOBAL_LD, offsetof(pn_gpu_launch_t, global_ld),
         "global loads", "gld_request, global_load, "
         "inst_executed_global_loads, smsp__inst_executed_op_global_ld.sum"},
        {PN_GPU_NOCOL_GLOBAL_ST, offsetof(pn_gpu_launch_t, global_st),
         "global stores", "gst_request, global_store, "
         "inst_executed_global_stores, smsp__inst_executed_op_global_st.sum"},
    };
    char cols[1024] = "", cells[256] = "";
    size_t nc = 0, nn = 0;
    for (size_t k = 0; k < sizeof need / sizeof *need; k++) {
        double v;
        memcpy(&v, (const char *)l + need[k].off, sizeof v);
        if (l->no_column & need[k].bit)
            nc += (size_t)snprintf(cols + nc, nc < sizeof cols ? sizeof cols - nc : 0,
                                   "%s%s (%s)", nc ? "; " : "", need[k].what,
                                   need[k].cols);
        else if (missing(v) || (need[k].bit == PN_GPU_NOCOL_WARPS && v <= 0))
            nn += (size_t)snprintf(cells + nn, nn < sizeof cells ? sizeof cells - nn : 0,
                                   "%s%s", nn ? ", " : "", need[k].what);
    }
    if (nc)
        return pni_error(err, PN_EVALUE, l->header_line, 0,
                         "no column for %s: every prediction needs them",
                         cols);
    if (nn)
        return pni_error(err, PN_EVALUE, l->line, l->na_column,
                         "%s (size %g, block %ux%u): the profile has no %s "
                         "(NA)", l->kernel, l->input_size, l->block[0],
                         l->block[1], cells);
    return PN_OK;
}

pn_status_t pn_gpu_shape(const pn_gpu_launch_t *l, const pn_gpu_device_t *dev,
                         pn_gpu_shape_t *s, pn_error_t *err)
{
    pn_status_t st;
    pni_error_begin(err, l ? l->file : NULL);
    if (!l || !dev || !s)
        return pni_error(err, PN_EINVAL, 0, 0, "no launch, device or result");
    memset(s, 0, sizeof *s);
    const pn_gpu_arch_t *a = pn_gpu_arch_find(dev->cc_major, dev->cc_minor);
    if (!a)
        return pni_error(err, PN_EUNSUPPORTED, l->line, 0,
                         "%s: compute capability %d.%d of %s is not in the "
                         "device table", l->kernel, dev->cc_major,
                         dev->cc_minor, dev->name);
    double threads = (double)l->block[0] * l->block[1] * l->block[2];
    double blocks = (double)l->grid[0] * l->grid[1] * l->grid[2];
    if (threads < 1 || blocks < 1 || dev->sms < 1)
        return pni_error(err, PN_EVALUE, l->line, 0,
                         "%s: empty grid or block", l->kernel);
    if (threads > 1024)
        return pni_error(err, PN_EVALUE, l->line, 0,
                         "%s: a block of %.0f threads: CUDA allows at most "
                         "1024", l->kernel, threads);
    unsigned wpb = (unsigned)ceil(threads / 32.0);
    unsigned r = a->max_blocks;
    s->limited_by = "blocks";
    s->blocks_by[PN_GPU_LIMIT_BLOCKS] = a->max_blocks;
    s->blocks_by[PN_GPU_LIMIT_REGS] = s->blocks_by[PN_GPU_LIMIT_SMEM] = UINT_MAX;
    unsigned rw = a->max_warps / wpb;
    s->blocks_by[PN_GPU_LIMIT_WARPS] = rw;
    if (rw < r) { r = rw; s->limited_by = "warps"; }
    if (l->regs_per_thread > 0 && a->reg_unit > 0) {
        double per_warp = ceil(l->regs_per_thread * 32.0 / a->reg_unit) * a->reg_unit;
        unsigned rr = (unsigned)(a->regs / (per_warp * wpb));
        s->blocks_by[PN_GPU_LIMIT_REGS] = rr;
        if (rr < r) { r = rr; s->limited_by = "registers"; }
    }
    if (l->smem_per_block > 0) {
        double unit = a->smem_unit ? a->smem_unit : 1;
        double per_block = ceil(l->smem_per_block / unit) * unit;
        unsigned rs = (unsigned)(a->smem / per_block);
        s->blocks_by[PN_GPU_LIMIT_SMEM] = rs;
        if (rs < r) { r = rs; s->limited_by = "shared memory"; }
    }
    s->max_warps = a->max_warps;
    if (a->cc_major != dev->cc_major || a->cc_minor != dev->cc_minor)
        s->arch_guessed = "the table has no row for this compute capability: "
                          "its nearest lower one's limits and latencies";
    if (r == 0)
        return pni_error(err, PN_EVALUE, l->line, 0,
                         "%s: a block of %.0f threads does not fit on an SM "
                         "of %s (limited by %s)", l->kernel, threads,
                         dev->name, s->limited_by);
    s->warps_per_block = wpb;
    s->resident_blocks = r;
    s->blocks_sm = ceil(blocks / dev->sms);
    s->waves = s->blocks_sm / r;
    s->resident_warps = (unsigned)(fmin(s->blocks_sm, r) * wpb);
    s->occupancy = (double)r * wpb / a->max_warps;
    s->schedulers = a->schedulers;

    if ((st = need_counts(l, err)) != PN_OK)
        return st;
    double w = l->warps;
    s->shared = (l->shared_ld + l->shared_st) / w;
    s->global = (l->global_ld + l->global_st) / w;
    s->arith = fmax(0.0, l->inst / w - s->shared - s->global);
    /* transactions: a missing count means one per access (coalesced) */
    double trans = l->global_ld_trans + l->global_st_trans;
    if (missing(trans)) trans = (l->global_ld + l->global_st) * (dev->cc_major >= 5 ? 4 : 1);
    /* wavefronts of the L1 pipe: Kepler counts 128-byte lines, one each;
     * later GPUs count 32-byte sectors: 4 in one line make one wavefront,
     * and beyond 4 a request is taken as scattered, a line per sector
     * (max(requests, sectors - 3 requests)) */
    double req = l->global_ld + l->global_st;
    double wave_g = dev->cc_major >= 5 ? fmax(req, trans - 3 * req) : trans;
    /* Kepler replays an uncoalesced request in the issue stage: each
     * extra wavefront takes an issue slot.  From Maxwell on, global
     * accesses go through the L1/texture pipe, which splits a request
     * into its wavefronts itself: the instruction issues once, and the
     * wavefronts cost L1 pipe cycles only (the LSU bound). */
    s->wavefronts = fmax(s->global, wave_g / w);
    s->replays = dev->cc_major >= 5 ? 0.0 : fmax(0.0, wave_g / w - s->global);
    /* loads that hit L1 go no further; stores always reach L2 */
    s->l1_hit = missing(l->l1_hit) ? 0.0 : fmin(1.0, l->l1_hit);
    double ld = missing(l->global_ld_trans) ? trans : l->global_ld_trans;
    double l2_in = trans - s->l1_hit * ld;
    double l2 = l->l2_read + l->l2_write;
    if (missing(l2)) l2 = l2_in;
    double dram = l->dram_read + l->dram_write;
    s->miss = 1.0;
    if (!missing(dram) && l2 > 0) s->miss = fmin(1.0, dram / l2);
    if (missing(dram)) dram = l2;     /* nothing known hits L2 */
    s->lat_global = s->l1_hit * a->lat_l1 + (1 - s->l1_hit) *
                    (s->miss * a->lat_global + (1 - s->miss) * a->lat_l2);
    /* loads in flight: a warp waits for a load only where its value is
     * used, so the loads between two control-flow instructions (a loop
     * iteration, unrolled or not) are in flight together; 1 without the
     * count */
    s->mlp = 1.0;
    if (!missing(l->branches) && l->branches > 0 && l->global_ld > l->branches)
        s->mlp = fmin(PN_GPU_MLP_MAX, l->global_ld / l->branches);
    s->lat_shared = a->lat_shared;
    s->lat_arith = a->lat_arith;
    s->dram_bytes = dram * 32.0;
    s->l2_bytes = l2 * 32.0;
    /* DRAM traffic of lines that L2 serves more than once: a warp that
     * takes a sector of each of many lines leaves the rest of each line to
     * later warps (L2 hits), and DRAM serves those lines scattered over its
     * rows and partitions */
    s->strided_bytes = s->dram_bytes * (1 - s->miss);
    /* the L1/shared data pipe: a wavefront a cycle per SM; shared
     * wavefronts count bank conflicts, else one per instruction */
    double shw = l->shared_ld_trans + l->shared_st_trans;
    if (missing(shw)) shw = l->shared_ld + l->shared_st;
    s->lsu_sm = (wave_g + shw) * (s->blocks_sm / blocks);
    s->clock_hz = dev->clock_mhz * 1e6;
    s->bandwidth = dev->bandwidth_gbs * 1e9;
    if (!(s->clock_hz > 0) || !(s->bandwidth > 0))
        return pni_error(err, PN_EVALUE, l->line, 0,
                         "%s: the device %s has no clock or bandwidth",
                         l->kernel, dev->name);
    return PN_OK;
}

/* ---- calibration defaults ------------------------------------------------- */

void pn_gpu_calib_init(pn_gpu_calib_t *c, const char *gpu)
{
    memset(c, 0, sizeof *c);
    if (gpu) {
        strncpy(c->gpu, gpu, sizeof c->gpu - 1);
    }
    c->overhead_s = 5e-6;
    c->issue_scale = 1.0;
    c->dram_scale = 1.0;
    c->l2_scale = 0.5;
    c->lsu_scale = 1.0;
    c->strided_scale = 1.0;
    c->log_lo = -log(2.0);
    c->log_hi = log(2.0);
    c->train_mape = NAN;
}

/* ---- the simulated wave ---------------------------------------------------- */

typedef struct {
    uint64_t warps, sched, a, s, g, l1, l2, la;
} wave_key_t;

typedef struct {
    wave_key_t key;
    int used;
    double steps, idle;
} wave_slot_t;

struct pn_gpu_cache {
    wave_slot_t *slot;
    size_t cap, used;
};

pn_gpu_cache_t *pn_gpu_cache_new(void)
{
    pn_gpu_cache_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->cap = 1024;
    c->slot = calloc(c->cap, sizeof *c->slot);
    if (!c->slot) { free(c); return NULL; }
    return c;
}

void pn_gpu_cache_free(pn_gpu_cache_t *c)
{
    if (!c) return;
    free(c->slot);
    free(c);
}

static uint64_t key_hash(const wave_key_t *k)
{
    uint64_t h = 1469598103934665603ULL;
    const uint64_t v[8] = {k->warps, k->sched, k->a, k->s, k->g, k->l1, k->l2, k->la};
    for (int i = 0; i < 8; i++) {
        h ^= v[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static wave_slot_t *cache_find(pn_gpu_cache_t *c, const wave_key_t *k)
{
    size_t i = key_hash(k) & (c->cap - 1);
    while (c->slot[i].used && memcmp(&c->slot[i].key, k, sizeof *k))
        i = (i + 1) & (c->cap - 1);
    return &c->slot[i];
}

static int cache_grow(pn_gpu_cache_t *c)
{
    pn_gpu_cache_t n = {calloc(c->cap * 2, sizeof *c->slot), c->cap * 2, 0};
    if (!n.slot) return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slot[i].used) {
            *cache_find(&n, &c->slot[i].key) = c->slot[i];
            n.used++;
        }
    free(c->slot);
    *c = n;
    return 0;
}

/* Runs the warp net with pipelined issue for one wave; steps and idle steps (firings of t0). */
static pn_status_t simulate(const wave_key_t *k, double *steps, double *idle)
{
    pn_gpu_params_t p;
    memset(&p, 0, sizeof p);
    p.warps = k->warps;
    p.schedulers = k->sched;
    p.l1 = k->l1;
    p.l2 = k->l2;
    p.pipelined = 1;
    p.la = k->la;
    p.uniform.arith = k->a;
    p.uniform.shared = k->s;
    p.uniform.global = k->g;
    pn_net_t *net = NULL;
    pn_status_t st = pn_gpu_net(&p, &net);
    if (st != PN_OK) return st;
    pn_engine_t *eng = NULL;
    st = pn_engine_compile(net, &eng);
    pn_net_free(net);
    if (st != PN_OK) return st;
    pn_sim_t *sim = pn_sim_new(eng, 1, PN_SEM_MAXIMAL, 0);
    if (!sim) { pn_engine_free(eng); return PN_ENOMEM; }
    pn_end_t end = pn_sim_run(sim, UINT64_C(1) << 40);
    *steps = (double)pn_sim_steps(sim);
    const uint64_t *counts = pn_sim_counts(sim);
    *idle = counts ? (double)counts[0] : 0.0;   /* t0 is the first transition */
    pn_sim_free(sim);
    pn_engine_free(eng);
    return end == PN_END_DEAD ? PN_OK : PN_ERANGE;
}

/* A latency in cycles as the net's counter (see PN_GPU_STEPS_PER_CYCLE). */
static uint64_t steps_of(double cycles, double frame)
{
    double v = cycles * PN_GPU_STEPS_PER_CYCLE - frame;
    return v > 0 ? (uint64_t)llround(v) : 0;
}

/* Cycles of a wave of `warps` warps of the shape, with the idle share. */
static pn_status_t wave_cycles(const pn_gpu_shape_t *s, unsigned warps,
                               pn_gpu_cache_t *cache, double *cycles,
                               double *idle_share, double *scale)
{
    double a = s->arith + s->replays, sh = s->shared, g = s->global;
    double total = a + sh + g;
    /* scale to about PN_GPU_SIM_CAP instructions a warp, but keep every
     * kind of instruction at 16 or more (rounding a count of 10 by half an
     * instruction would move it 5%), within 4 times the cap */
    double k = total / PN_GPU_SIM_CAP, least = total;
    if (a > 0 && a < least) least = a;
    if (sh > 0 && sh < least) least = sh;
    if (g > 0 && g < least) least = g;
    if (least / 16 < k) k = least / 16;
    if (k < total / (4.0 * PN_GPU_SIM_CAP)) k = total / (4.0 * PN_GPU_SIM_CAP);
    if (k < 1) k = 1;
    wave_key_t key = {
        warps, s->schedulers,
        (uint64_t)llround(a / k), (uint64_t)llround(sh / k), (uint64_t)llround(g / k),
        steps_of(s->lat_global / s->mlp, 5), steps_of(s->lat_shared, 5),
        steps_of(s->lat_arith, 4),
    };
    if (key.a + key.s + key.g == 0) key.a = 1;
    double steps = 0, idle = 0;
    wave_slot_t *slot = cache ? cache_find(cache, &key) : NULL;
    if (slot && slot->used) {
        steps = slot->steps;
        idle = slot->idle;
    } else {
        pn_status_t st = simulate(&key, &steps, &idle);
        if (st != PN_OK) return st;
        if (cache) {
            if ((cache->used + 1) * 2 > cache->cap && cache_grow(cache) != 0)
                return PN_ENOMEM;
            slot = cache_find(cache, &key);
            slot->key = key;
            slot->used = 1;
            slot->steps = steps;
            slot->idle = idle;
            cache->used++;
        }
    }
    *cycles = steps * k / PN_GPU_STEPS_PER_CYCLE;
    *idle_share = steps > 0 ? idle / steps : 0;
    *scale = k;
    return PN_OK;
}

/* The net part of a launch in cycles: full waves, then the last partial one. */
static pn_status_t launch_cycles(const pn_gpu_shape_t *s, pn_gpu_cache_t *cache,
                                 double *cycles, double *full_wave,
                                 double *idle_share, double *scale, double *tail)
{
    double full = floor(s->blocks_sm / s->resident_blocks);
    double rest = s->blocks_sm - full * s->resident_blocks;
    double c_full = 0, c_rest = 0, idle = 0, k = 1;
    pn_status_t st;
    if (full > 0) {
        st = wave_cycles(s, s->resident_blocks * s->warps_per_block, cache,
                         &c_full, &idle, &k);
        if (st != PN_OK) return st;
    }
    if (rest > 0) {
        double i2, k2;
        st = wave_cycles(s, (unsigned)rest * s->warps_per_block, cache,
                         &c_rest, &i2, &k2);
        if (st != PN_OK) return st;
        if (full == 0) { idle = i2; k = k2; }
    }
    *cycles = full * c_full + c_rest;
    *tail = *cycles > 0 ? c_rest / *cycles : 0;
    *full_wave = full > 0 ? c_full : c_rest;
    *idle_share = idle;
    *scale = k;
    return PN_OK;
}

pn_status_t pn_gpu_predict(const pn_gpu_shape_t *s, const pn_gpu_calib_t *c,
                           pn_gpu_cache_t *cache, pn_gpu_prediction_t *o,
                           pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!s || !c || !o)
        return pni_error(err, PN_EINVAL, 0, 0, "no shape, calibration or result");
    memset(o, 0, sizeof *o);
    double cycles, wave, idle, k, tail;
    pn_status_t st = launch_cycles(s, cache, &cycles, &wave, &idle, &k, &tail);
    if (st != PN_OK)
        return pni_error(err, st, 0, 0, "the wave's net could not be run (%s)",
                         pn_strstatus(st));
    o->wave_cycles = wave;
    o->net_scale = k;
    o->overhead_s = c->overhead_s;
    o->issue_s = c->issue_scale * cycles / s->clock_hz;
    o->dram_s = c->dram_scale * s->dram_bytes / s->bandwidth;
    o->l2_s = c->l2_scale * s->l2_bytes / s->bandwidth;
    o->lsu_s = c->lsu_scale * s->lsu_sm / s->clock_hz;
    o->strided_s = c->strided_scale * s->strided_bytes / s->bandwidth;
    double m = o->issue_s;
    o->bound = "net";
    if (o->dram_s > m) { m = o->dram_s; o->bound = "DRAM"; }
    if (o->l2_s > m) { m = o->l2_s; o->bound = "L2"; }
    if (o->lsu_s > m) { m = o->lsu_s; o->bound = "LSU"; }
    if (o->strided_s > m) { m = o->strided_s; o->bound = "strided DRAM"; }
    o->predicted_s = c->overhead_s + m;
    o->tail_share = tail;
    if (c->overhead_s >= m) o->decides = "launch overhead";
    else if (!strcmp(o->bound, "net"))
    {
        /* the schedulers' share of a full wave spent issuing */
        double issue = (s->arith + s->replays + s->shared + s->global) *
                       s->resident_warps / (s->schedulers ? s->schedulers : 1);
        o->decides = tail >= 0.5 ? "tail wave" : issue >= 0.5 * wave ? "issue" : "latency";
    }
    else if (!strcmp(o->bound, "LSU")) o->decides = "L1/shared";
    else if (!strcmp(o->bound, "L2")) o->decides = "L2";
    else o->decides = "DRAM";
    o->low_s = o->predicted_s * exp(c->log_lo);
    o->high_s = o->predicted_s * exp(c->log_hi);
    /* a warp's own time: issuing, and waiting on each memory */
    double busy = s->arith + s->replays + s->global + s->shared;
    double wg = s->global * s->lat_global / s->mlp, ws = s->shared * s->lat_shared;
    double tot = busy + wg + ws;
    o->idle = idle;
    if (tot > 0) {
        o->busy = (1 - idle) * busy / tot;
        o->wait_global = (1 - idle) * wg / tot;
        o->wait_shared = (1 - idle) * ws / tot;
    }
    return PN_OK;
}

/* ---- fit ------------------------------------------------------------------- */

typedef pni_gpu_row_t fit_row_t;

double pni_gpu_row_pred(const double p[PNI_GPU_PARAMS], const pni_gpu_row_t *r)
{
    double m = exp(p[1]) * r->net;
    double d = exp(p[2]) * r->dram, l = exp(p[3]) * r->l2, u = exp(p[4]) * r->lsu;
    if (d > m) m = d;
    if (l > m) m = l;
    if (u > m) m = u;
    if (exp(p[5]) * r->strided > m) m = exp(p[5]) * r->strided;
    return exp(p[0]) + m;
}

/* The mean absolute log error (pni_gpu_row_pred() with the parameters'
 * exponentials taken once, not once a row). */
static double fit_loss(const double *p, const fit_row_t *rows, size_t n)
{
    double o = exp(p[0]), a = exp(p[1]), d = exp(p[2]), l = exp(p[3]),
           u = exp(p[4]), q = exp(p[5]), s = 0;
    for (size_t i = 0; i < n; i++) {
        const fit_row_t *r = &rows[i];
        double m = a * r->net;
        if (d * r->dram > m) m = d * r->dram;
        if (l * r->l2 > m) m = l * r->l2;
        if (u * r->lsu > m) m = u * r->lsu;
        if (q * r->strided > m) m = q * r->strided;
        { double x = (o + m) / r->measured; s += fabs(log(x)) + fabs(x - 1); }
    }
    return s / (double)n;
}

/* Nelder-Mead on the first D log-parameters (the others stay as given). */
static void nelder_mead(double *x, int D, const fit_row_t *rows, size_t n,
                        int iters)
{
    enum { DM = PNI_GPU_PARAMS };
    double pt[DM + 1][DM], v[DM + 1];
    for (int i = 0; i <= D; i++) {
        memcpy(pt[i], x, sizeof pt[i]);
        if (i > 0) pt[i][i - 1] += 0.7;
        v[i] = fit_loss(pt[i], rows, n);
    }
    for (int it = 0; it < iters; it++) {
        /* order: best first */
        for (int i = 1; i <= D; i++)
            for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
                double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
                for (int q = 0; q < D; q++) {
                    double u = pt[j][q]; pt[j][q] = pt[j - 1][q]; pt[j - 1][q] = u;
                }
            }
        double c[DM] = {0}, xr[DM], xe[DM], xc[DM];
        memcpy(xr, x, sizeof xr);
        memcpy(xe, x, sizeof xe);
        memcpy(xc, x, sizeof xc);
        for (int i = 0; i < D; i++)
            for (int q = 0; q < D; q++) c[q] += pt[i][q] / D;
        for (int q = 0; q < D; q++) xr[q] = c[q] + (c[q] - pt[D][q]);
        double fr = fit_loss(xr, rows, n);
        if (fr < v[0]) {
            for (int q = 0; q < D; q++) xe[q] = c[q] + 2 * (c[q] - pt[D][q]);
            double fe = fit_loss(xe, rows, n);
            if (fe < fr) { memcpy(pt[D], xe, sizeof xe); v[D] = fe; }
            else { memcpy(pt[D], xr, sizeof xr); v[D] = fr; }
        } else if (fr < v[D - 1]) {
            memcpy(pt[D], xr, sizeof xr); v[D] = fr;
        } else {
            for (int q = 0; q < D; q++) xc[q] = c[q] + 0.5 * (pt[D][q] - c[q]);
            double fc = fit_loss(xc, rows, n);
            if (fc < v[D]) { memcpy(pt[D], xc, sizeof xc); v[D] = fc; }
            else
                for (int i = 1; i <= D; i++) {
                    for (int q = 0; q < D; q++) pt[i][q] = pt[0][q] + 0.5 * (pt[i][q] - pt[0][q]);
                    v[i] = fit_loss(pt[i], rows, n);
                }
        }
    }
    int b = 0;
    for (int i = 1; i <= D; i++) if (v[i] < v[b]) b = i;
    memcpy(x, pt[b], sizeof pt[b]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pni_gpu_fit_rows(const pni_gpu_row_t *rows, size_t m, int np,
                      double best[PNI_GPU_PARAMS])
{
    double bestv = INFINITY;
    const double starts[3][PNI_GPU_PARAMS] = {
        {log(3e-6), 0, 0, log(0.5), 0, 0},
        {log(1e-6), log(2.0), log(1.5), log(1.5), log(2.0), log(2.0)},
        {log(1e-5), log(0.5), log(0.7), log(0.2), log(0.5), log(0.5)},
    };
    if (np < 1 || np > PNI_GPU_PARAMS) np = PNI_GPU_PARAMS;
    for (int s = 0; s < 3; s++) {
        double x[PNI_GPU_PARAMS];
        memcpy(x, starts[s], sizeof x);
        for (int q = np; q < PNI_GPU_PARAMS; q++) x[q] = 0;
        nelder_mead(x, np, rows, m, 800);
        double v = fit_loss(x, rows, m);
        if (v < bestv) { bestv = v; memcpy(best, x, sizeof x); }
    }
}

pn_status_t pni_gpu_components(const pn_gpu_shape_t *s, pn_gpu_cache_t *cache,
                               pni_gpu_row_t *row)
{
    pn_gpu_calib_t unit;
    pn_gpu_calib_init(&unit, NULL);
    unit.overhead_s = 0;
    unit.issue_scale = unit.dram_scale = unit.l2_scale = unit.lsu_scale = 1;
    unit.strided_scale = 1;
    pn_gpu_prediction_t o;
    pn_status_t st = pn_gpu_predict(s, &unit, cache, &o, NULL);
    if (st != PN_OK) return st;
    row->net = o.issue_s;
    row->dram = o.dram_s;
    row->l2 = o.l2_s;
    row->lsu = o.lsu_s;
    row->strided = o.strided_s;
    return PN_OK;
}

pn_status_t pn_gpu_fit(const pn_gpu_shape_t *shapes, const double *measured,
                       size_t n, pn_gpu_cache_t *cache, pn_gpu_calib_t *c,
                       pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!shapes || !measured || !c || n == 0)
        return pni_error(err, PN_EINVAL, 0, 0, "nothing to fit");
    fit_row_t *rows = malloc(n * sizeof *rows);
    double *lr = malloc(n * sizeof *lr);
    if (!rows || !lr) {
        free(rows); free(lr);
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(measured[i] > 0)) continue;
        pn_status_t st = pni_gpu_components(&shapes[i], cache, &rows[m]);
        if (st != PN_OK) {
            free(rows); free(lr);
            return pni_error(err, st, 0, 0, "the wave's net could not be run");
        }
        rows[m].measured = measured[i];
        m++;
    }
    if (m == 0) {
        free(rows); free(lr);
        return pni_error(err, PN_EINVAL, 0, 0, "no measured time to fit");
    }
    /* no more launches than free parameters: the fit passes through every
     * one of them and says nothing about its error (an interval of 0) */
    if (m <= PNI_GPU_PARAMS) {
        free(rows); free(lr);
        return pni_error(err, PN_EINVAL, 0, 0,
                         "%zu launch%s with a measured time: fitting the %d "
                         "parameters needs at least %d", m, m == 1 ? "" : "es",
                         PNI_GPU_PARAMS, PNI_GPU_PARAMS + 1);
    }
    double best[PNI_GPU_PARAMS];
    pni_gpu_fit_rows(rows, m, PNI_GPU_PARAMS, best);
    c->overhead_s = exp(best[0]);
    c->issue_scale = exp(best[1]);
    c->dram_scale = exp(best[2]);
    c->l2_scale = exp(best[3]);
    c->lsu_scale = exp(best[4]);
    c->strided_scale = exp(best[5]);
    double ape = 0;
    for (size_t i = 0; i < m; i++) {
        double p = pni_gpu_row_pred(best, &rows[i]);
        lr[i] = log(rows[i].measured / p);
        ape += fabs(p - rows[i].measured) / rows[i].measured;
    }
    qsort(lr, m, sizeof *lr, cmp_double);
    /* the interval holds the prediction itself (a calibration whose
     * percentiles fall on one side, or round off 0, is read back) */
    c->log_lo = fmin(lr[(size_t)floor(0.1 * (double)(m - 1))], 0);
    c->log_hi = fmax(lr[(size_t)ceil(0.9 * (double)(m - 1))], 0);
    c->train_mape = 100.0 * ape / (double)m;
    c->train_n = m;
    free(rows);
    free(lr);
    return PN_OK;
}
