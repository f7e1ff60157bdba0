/* pn-gpu: kernel time from profiler metrics (predict, fit, eval). */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "lib_private.h" /* pni_csv_field() */
#include "pn.h"
#include "predict.h"

static const char *prog = "pn-gpu";

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s predict [OPTION]... [PROFILE]...\n"
        "       %s fit --device-info DEV.csv -o CAL.json PROFILE...\n"
        "       %s eval [OPTION]... DIR\n"
        "Predict how long CUDA kernel launches take from their profiles, with\n"
        "the GPU warp net of one SM run for each wave of blocks and the memory\n"
        "bandwidth bounds (doc/gpu.md).  Profiles: nvprof CSV or Nsight\n"
        "Compute's raw CSV page (ncu --csv --page raw).\n"
        "\n"
        "  -D, --device-info FILE  the GPUs (deviceInfo.csv layout); eval's\n"
        "                          default: DIR/deviceInfo.csv\n"
        "  -C, --calibration FILE  predict: a calibration written by fit\n"
        "                          (without: from the specification alone)\n"
        "  -o, --output FILE       fit: the calibration (JSON); predict, eval:\n"
        "                          the table (default: standard output)\n"
        "  -f, --format FMT        predict, eval: csv (default) or json;\n"
        "                          predict also text (a report per launch)\n"
        "      --explain           predict: where the time goes, what bounds\n"
        "                          it, occupancy, waves, and what if each\n"
        "                          limit of the resident blocks were lifted\n"
        "      --gpu NAME          predict: the device of a launch given by\n"
        "                          the options below, or of every profile row\n"
        "      --grid X[,Y[,Z]]    a hypothetical launch: its grid,\n"
        "      --block X[,Y[,Z]]   its block,\n"
        "      --arith N           arithmetic, shared and global warp\n"
        "      --shared N          instructions per warp (default 0),\n"
        "      --global N\n"
        "      --transactions N    transactions per global access (default 1,\n"
        "                          128 bytes)\n"
        "      --regs N            registers per thread (default 32)\n"
        "      --smem BYTES        shared memory per block (default 0)\n",
        prog, prog, prog);
    cli_usage_common(out, 26);
    fprintf(out,
        "\n"
        "An option that does not apply to the command is refused.\n"
        "\n"
        "Exit status: 0 success, 1 a profile, device file or calibration\n"
        "could not be read or a launch could not be predicted (predict writes\n"
        "its row with empty predictions, and every other row), 2 bad command\n"
        "line, 3 an output could not be written.\n");
}

enum { OPT_EXPLAIN = 128, OPT_GPU, OPT_GRID, OPT_BLOCK, OPT_ARITH, OPT_SHARED,
       OPT_GLOBAL, OPT_TRANS, OPT_REGS, OPT_SMEM };

typedef struct {
    const char *cmd, *devinfo, *calib, *output, *gpu;
    int json, text, explain, hypo;
    unsigned grid[3], block[3];
    double arith, shared, global, trans, regs, smem;
} opts_t;

/* X[,Y[,Z]] within CUDA's limits: a grid's x up to 2^31 - 1, y and z up
 * to 65535; a block's x and y up to 1024, z up to 64. */
static int dims(const char *opt, const char *s, unsigned d[3], int grid)
{
    static const uint64_t gmax[3] = {2147483647, 65535, 65535},
                          bmax[3] = {1024, 1024, 64};
    const uint64_t *max = grid ? gmax : bmax;
    d[0] = d[1] = d[2] = 1;
    char buf[64];
    int ok = strlen(s) < sizeof buf;
    if (ok)
        strcpy(buf, s);
    char *p = buf;
    for (int i = 0; ok && i < 3; i++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        uint64_t v;
        ok = !cli_parse_u64(p, 1, &v) && v <= max[i];
        d[i] = (unsigned)v;
        if (!comma)
            break;
        ok = ok && i < 2;
        p = comma + 1;
    }
    if (ok)
        return 0;
    fprintf(stderr, "%s: %s: '%s': expected X[,Y[,Z]], whole numbers: X "
            "from 1 to %" PRIu64 ", Y from 1 to %" PRIu64 ", Z from 1 to %"
            PRIu64 " (CUDA's limits)\n", prog, opt, s, max[0], max[1],
            max[2]);
    return -1;
}

static int count(const char *opt, const char *s, double *out)
{
    return cli_real(opt, s, 0, INFINITY, out);
}

/* ---- calibration files ------------------------------------------------------ */

static int calib_write(const char *path, const pn_gpu_calib_t *c, size_t n)
{
    char *tmp;
    FILE *f = cli_output_open(path, &tmp);
    if (!f) return CLI_EOUTPUT;
    fprintf(f, "{\n  \"format\": \"pn-gpu calibration\",\n  \"version\": 1,\n  \"gpus\": [");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"gpu\": ", i ? "," : "");
        pni_json_string(f, c[i].gpu, 0);
        fprintf(f, ", \"overhead_s\": %.9g, \"issue_scale\": %.9g, "
                "\"dram_scale\": %.9g, \"l2_scale\": %.9g, \"lsu_scale\": %.9g, "
                "\"strided_scale\": %.9g, "
                "\"log_lo\": %.9g, \"log_hi\": %.9g, \"train_mape\": %.3f, "
                "\"train_rows\": %zu}",
                c[i].overhead_s, c[i].issue_scale, c[i].dram_scale,
                c[i].l2_scale, c[i].lsu_scale, c[i].strided_scale,
                c[i].log_lo, c[i].log_hi, c[i].train_mape, c[i].train_n);
    }
    fprintf(f, "\n  ]\n}\n");
    return cli_output_close(f, tmp, path, 1);
}

/* "prog: path: what [PN_Ecode]" for a calibration file. */
static int calib_fail(const char *path, pn_status_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int calib_fail(const char *path, pn_status_t code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", prog, path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " [%s]\n", pn_status_name(code));
    return CLI_EINPUT;
}

static const char *json_kind(const json_t *v)
{
    if (!v) return "missing";
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: case JSON_REAL: return "a number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* One number of GPU i: what is wrong with it, or NULL (*dst set).
 * sign: 0 any finite number, 1 >= 0, -1 <= 0. */
static const char *calib_number(const json_t *v, int sign, double *dst, char *buf, size_t len)
{
    if (!json_is_number(v)) {
        snprintf(buf, len, "expected a number, found %s", json_kind(v));
        return buf;
    }
    double x = json_number_value(v);
    if (!isfinite(x)) return "not a finite number";
    if (sign > 0 && x < 0) { snprintf(buf, len, "%g is negative (expected >= 0)", x); return buf; }
    if (sign < 0 && x > 0) { snprintf(buf, len, "%g is positive (expected <= 0: the interval holds the prediction)", x); return buf; }
    *dst = x;
    return NULL;
}

static int calib_read(const char *path, pn_gpu_calib_t **out, size_t *n)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return calib_fail(path, PN_EIO, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        return calib_fail(path, PN_EIO, "cannot read: %s", strerror(EISDIR));
    }
    json_error_t je;
    json_t *root = json_loadf(fp, 0, &je);
    int rerr = ferror(fp);
    fclose(fp);
    if (!root) {
        if (rerr) return calib_fail(path, PN_EIO, "cannot read");
        fprintf(stderr, "%s: %s:%d:%d: %s [%s]\n", prog, path, je.line, je.column,
                je.text, pn_status_name(PN_ESTRUCT));
        return CLI_EINPUT;
    }
    int rc = CLI_OK;
    pn_gpu_calib_t *c = NULL;
    json_t *gpus = json_object_get(root, "gpus");
    const char *fmt = json_string_value(json_object_get(root, "format"));
    json_t *ver = json_object_get(root, "version");
    if (!json_is_object(root) || !fmt || strcmp(fmt, "pn-gpu calibration")) {
        rc = calib_fail(path, PN_ESTRUCT, "not a pn-gpu calibration (its \"format\" is not \"pn-gpu calibration\")");
        goto done;
    }
    if (!json_is_number(ver)) {
        rc = calib_fail(path, PN_ESTRUCT, "\"version\": expected a number, found %s", json_kind(ver));
        goto done;
    }
    if (json_number_value(ver) != 1) {   /* 1.0 is 1 */
        rc = calib_fail(path, PN_EUNSUPPORTED, "version %g: only version 1 is read", json_number_value(ver));
        goto done;
    }
    if (!json_is_array(gpus)) {
        rc = calib_fail(path, PN_ESTRUCT, "\"gpus\": expected an array, found %s", json_kind(gpus));
        goto done;
    }
    size_t k = json_array_size(gpus);
    c = calloc(k ? k : 1, sizeof *c);
    if (!c) { rc = calib_fail(path, PN_ENOMEM, "out of memory"); goto done; }
    static const char *keys[] = {"overhead_s", "issue_scale", "dram_scale", "l2_scale",
                                 "lsu_scale", "log_lo", "log_hi", "strided_scale"};
    static const int sign[] = {1, 1, 1, 1, 1, -1, 1, 1};
    for (size_t i = 0; i < k; i++) {
        json_t *g = json_array_get(gpus, i);
        if (!json_is_object(g)) {
            rc = calib_fail(path, PN_EVALUE, "GPU %zu of \"gpus\": expected an object, found %s", i + 1, json_kind(g));
            goto done;
        }
        json_t *gv = json_object_get(g, "gpu");
        const char *name = json_string_value(gv);
        if (!name || !*name) {
            rc = calib_fail(path, PN_EVALUE, "GPU %zu of \"gpus\": \"gpu\": expected the GPU's name, found %s",
                            i + 1, name ? "an empty string" : json_kind(gv));
            goto done;
        }
        pn_gpu_calib_init(&c[i], name);
        /* a GPU twice: which calibration applies is not known */
        for (size_t j = 0; j < i; j++) {
            pn_gpu_device_t a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            snprintf(a.name, sizeof a.name, "%s", c[j].gpu);
            snprintf(b.name, sizeof b.name, "%s", c[i].gpu);
            if (pn_gpu_device_find(&a, 1, b.name) || pn_gpu_device_find(&b, 1, a.name)) {
                rc = calib_fail(path, PN_EVALUE, "GPU %zu of \"gpus\" (\"%s\") is GPU %zu "
                                "(\"%s\") again: which calibration applies is not known",
                                i + 1, name, j + 1, c[j].gpu);
                goto done;
            }
        }
        double *dst[] = {&c[i].overhead_s, &c[i].issue_scale, &c[i].dram_scale,
                         &c[i].l2_scale, &c[i].lsu_scale, &c[i].log_lo, &c[i].log_hi,
                         &c[i].strided_scale};
        for (int q = 0; q < 8; q++) {
            json_t *v = json_object_get(g, keys[q]);
            /* strided_scale came later: a calibration without it keeps
             * the default (1) */
            if (!v && q == 7) continue;
            char buf[160];
            const char *why = calib_number(v, sign[q], dst[q], buf, sizeof buf);
            if (why) {
                rc = calib_fail(path, PN_EVALUE, "GPU %zu of \"gpus\" (\"%s\"): \"%s\": %s",
                                i + 1, name, keys[q], why);
                goto done;
            }
        }
        c[i].train_mape = json_number_value(json_object_get(g, "train_mape"));
    }
    *out = c;
    *n = k;
    c = NULL;
done:
    free(c);
    json_decref(root);
    return rc;
}

/* ---- inputs ------------------------------------------------------------------ */

typedef struct {
    pn_gpu_launch_t *l;
    size_t n;
} launches_t;

static int add_profile(launches_t *all, const char *path)
{
    pn_gpu_launch_t *l;
    size_t n;
    pn_error_t err;
    if (pn_gpu_profile_read(path, &l, &n, &err) != PN_OK) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    pn_gpu_launch_t *v = realloc(all->l, (all->n + n + 1) * sizeof *v);
    if (!v) { pn_gpu_launches_free(l); fprintf(stderr, "%s: out of memory\n", prog); return CLI_EINPUT; }
    memcpy(v + all->n, l, n * sizeof *l);
    all->l = v;
    all->n += n;
    pn_gpu_launches_free(l);
    return CLI_OK;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.csv of DIR/SUB, in name order. */
static int add_dir(launches_t *all, const char *dir, const char *sub)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    DIR *d = opendir(path);
    if (!d) { fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno)); return CLI_EINPUT; }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".csv")) continue;
        char **v = realloc(names, (n + 1) * sizeof *v);
        if (!v) break;
        names = v;
        names[n] = strdup(de->d_name);
        if (names[n]) n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_name);
    int rc = CLI_OK;
    for (size_t i = 0; i < n; i++) {
        if (rc == CLI_OK) {
            snprintf(path, sizeof path, "%s/%s/%s", dir, sub, names[i]);
            rc = add_profile(all, path);
        }
        free(names[i]);
    }
    free(names);
    if (rc == CLI_OK && all->n == 0) {
        fprintf(stderr, "%s: %s/%s: no profile (*.csv)\n", prog, dir, sub);
        rc = CLI_EINPUT;
    }
    return rc;
}

static int read_devices(const char *path, pn_gpu_device_t **d, size_t *n)
{
    pn_error_t err;
    if (pn_gpu_devices_read(path, d, n, &err) != PN_OK) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    return CLI_OK;
}

/* "the GPU is not in the device file": where (file:line of a launch, or
 * the option that named it), and the GPUs the file has. */
static void gpu_missing(const char *file, unsigned long line, const char *name,
                        int from_option, const char *devinfo,
                        const pn_gpu_device_t *devs, size_t nd, int can_use_gpu)
{
    size_t k = strspn(name, "0123456789");
    if (from_option)
        fprintf(stderr, "%s: --gpu: the GPU '%s' is not in %s, which has ", prog, name, devinfo);
    else if (name[0] && !name[k])   /* Nsight Compute's Device: an index */
        fprintf(stderr, "%s: %s:%lu: the profile names no GPU (only the device index %s)%s; %s has ",
                prog, file, line, name, can_use_gpu ? ": give its name with --gpu" : "", devinfo);
    else
        fprintf(stderr, "%s: %s:%lu: the GPU '%s' is not in %s, which has ", prog, file, line, name, devinfo);
    for (size_t i = 0; i < nd; i++)
        fprintf(stderr, "%s'%s'", i == 0 ? "" : i + 1 == nd ? " and " : ", ", devs[i].name);
    fprintf(stderr, "%s\n", nd ? "" : "no GPU");
}

/* ---- predict ------------------------------------------------------------------ */

/* A number, or nothing when it is unknown (an empty CSV cell). */
static void put_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
}

/* ---- what if: one line per limit of the resident blocks ------------------------ */

static const char *const limit_name[PN_GPU_LIMITS] = {"blocks", "warps", "registers", "shared memory"};

typedef struct {
    char text[200];       /* "with 32 registers a thread: 2 more blocks an SM, ..." */
    double value;         /* the changed quantity (NAN: no change tried) */
    int more_blocks;      /* resident blocks gained */
    double predicted_s;   /* NAN: no change tried */
} whatif_t;

typedef struct {
    const pn_gpu_device_t *d;
    const pn_gpu_calib_t *c;
    pn_gpu_cache_t *cache;
} ctx_t;

/* The change of limit q that would let one more block reside, as a
 * launch; 0 when there is none to try (w->text says why). */
static int whatif_launch(const pn_gpu_launch_t *l, const pn_gpu_shape_t *s,
                         const pn_gpu_arch_t *a, int q, pn_gpu_launch_t *t,
                         whatif_t *w)
{
    unsigned r = s->resident_blocks, by = s->blocks_by[q], target = r + 1;
    unsigned wpb = s->warps_per_block;
    *t = *l;
    if (by == UINT_MAX) {
        snprintf(w->text, sizeof w->text, "%s: the launch uses none that limits", limit_name[q]);
        return 0;
    }
    if (by > r || strcmp(s->limited_by, limit_name[q])) {
        snprintf(w->text, sizeof w->text, "%s: allow %u blocks an SM: not the limit", limit_name[q], by);
        return 0;
    }
    if (q == PN_GPU_LIMIT_REGS) {
        double per_warp = floor(a->regs / ((double)target * wpb) / a->reg_unit) * a->reg_unit;
        unsigned pt = (unsigned)floor(per_warp / 32);
        if (pt < 1) return 0;
        t->regs_per_thread = pt;
        w->value = pt;
        snprintf(w->text, sizeof w->text, "registers: with %u a thread (now %u)", pt, l->regs_per_thread);
    } else if (q == PN_GPU_LIMIT_SMEM) {
        double unit = a->smem_unit ? a->smem_unit : 1;
        unsigned pb = (unsigned)(floor(a->smem / (double)target / unit) * unit);
        t->smem_per_block = pb;
        w->value = pb;
        snprintf(w->text, sizeof w->text, "shared memory: with %u bytes a block (now %u)", pb, l->smem_per_block);
    } else if (q == PN_GPU_LIMIT_BLOCKS) {
        /* fewer, larger blocks: the block's x doubled, the grid's x halved */
        double threads = (double)l->block[0] * l->block[1] * l->block[2];
        if (threads * 2 > 1024) {
            snprintf(w->text, sizeof w->text, "blocks: the SM's %u blocks are resident; "
                     "a block of %.0f threads cannot grow", by, threads * 2);
            return 0;
        }
        t->block[0] *= 2;
        t->grid[0] = (l->grid[0] + 1) / 2;
        w->value = threads * 2;
        snprintf(w->text, sizeof w->text, "blocks: with blocks of %.0f threads (grid x %u)", threads * 2, t->grid[0]);
    } else {
        if (r * wpb == s->max_warps)
            snprintf(w->text, sizeof w->text, "warps: the SM's %u warps are resident (full occupancy)", s->max_warps);
        else
            snprintf(w->text, sizeof w->text, "warps: %u of the SM's %u warps resident: blocks of "
                     "%u warps fit %u times (smaller blocks would fill it)", r * wpb, s->max_warps, wpb, r);
        return 0;
    }
    return 1;
}

static void whatifs(const pn_gpu_launch_t *l, const pn_gpu_shape_t *s,
                    const pn_gpu_prediction_t *p, const ctx_t *x, whatif_t w[PN_GPU_LIMITS])
{
    const pn_gpu_arch_t *a = pn_gpu_arch_find(x->d->cc_major, x->d->cc_minor);
    for (int q = 0; q < PN_GPU_LIMITS; q++) {
        w[q].value = w[q].predicted_s = NAN;
        w[q].more_blocks = 0;
        pn_gpu_launch_t t;
        if (!a || !whatif_launch(l, s, a, q, &t, &w[q])) {
            if (!a) snprintf(w[q].text, sizeof w[q].text, "%s: no limits known", limit_name[q]);
            continue;
        }
        pn_gpu_shape_t s2;
        pn_gpu_prediction_t p2;
        size_t len = strlen(w[q].text);
        if (pn_gpu_shape(&t, x->d, &s2, NULL) != PN_OK ||
            pn_gpu_predict(&s2, x->c, x->cache, &p2, NULL) != PN_OK) {
            snprintf(w[q].text + len, sizeof w[q].text - len, ": not predicted");
            continue;
        }
        w[q].more_blocks = (int)s2.resident_blocks - (int)s->resident_blocks;
        w[q].predicted_s = p2.predicted_s;
        double gain = p->predicted_s / p2.predicted_s - 1;
        snprintf(w[q].text + len, sizeof w[q].text - len,
                 ": %d more block%s an SM, predicted %.0f%% %s", w[q].more_blocks,
                 w[q].more_blocks == 1 || w[q].more_blocks == -1 ? "" : "s",
                 fabs(gain) * 100, gain >= 0 ? "faster" : "slower");
    }
}

/* The report of one launch (predict -f text). */
static void print_text(FILE *f, const opts_t *o, const pn_gpu_launch_t *l,
                       const pn_gpu_shape_t *s, const pn_gpu_prediction_t *p,
                       const ctx_t *x, int calibrated)
{
    fprintf(f, "%s %s", l->gpu, l->kernel);
    if (isfinite(l->input_size)) fprintf(f, " size %.17g", l->input_size);
    fprintf(f, " grid %ux%ux%u block %ux%ux%u", l->grid[0], l->grid[1], l->grid[2],
            l->block[0], l->block[1], l->block[2]);
    if (!p) { fputs(": not predicted\n", f); return; }
    fprintf(f, ": predicted %.6g s (%.6g .. %.6g)", p->predicted_s, p->low_s, p->high_s);
    if (isfinite(l->measured_s)) fprintf(f, ", measured %.6g s", l->measured_s);
    fputc('\n', f);
    if (!o->explain) return;
    fprintf(f, "  bound: %s\n", p->decides);
    fprintf(f, "  time: overhead %.3g s, net %.3g s, DRAM %.3g s, L2 %.3g s, L1/shared %.3g s, strided DRAM %.3g s\n",
            p->overhead_s, p->issue_s, p->dram_s, p->l2_s, p->lsu_s, p->strided_s);
    fprintf(f, "  wave: busy %.0f%%, waiting on global %.0f%%, on shared %.0f%%, idle %.0f%% (loads in flight: %.3g)\n",
            100 * p->busy, 100 * p->wait_global, 100 * p->wait_shared, 100 * p->idle, s->mlp);
    fprintf(f, "  occupancy: %u of %u warps (%.0f%%), %u blocks an SM, limited by %s\n",
            s->resident_blocks * s->warps_per_block, s->max_warps, 100 * s->occupancy,
            s->resident_blocks, s->limited_by);
    fprintf(f, "  waves: %.3g (the last, partial wave: %.0f%% of the net's time)\n",
            s->waves, 100 * p->tail_share);
    whatif_t w[PN_GPU_LIMITS];
    whatifs(l, s, p, x, w);
    for (int q = 0; q < PN_GPU_LIMITS; q++) fprintf(f, "  what if: %s\n", w[q].text);
    if (!calibrated)
        fputs("  guessed: the overhead and scales (no calibration of this GPU: its specification's defaults)\n", f);
    if (s->arch_guessed) fprintf(f, "  guessed: %s\n", s->arch_guessed);
}

/* One launch; p (and s) NULL: it could not be predicted (empty cells,
 * nulls in JSON). */
static void print_row(FILE *f, const opts_t *o, const pn_gpu_launch_t *l,
                      const pn_gpu_shape_t *s, const pn_gpu_prediction_t *p,
                      int first, const ctx_t *x, int calibrated)
{
    if (o->text) { print_text(f, o, l, s, p, x, calibrated); return; }
    whatif_t w[PN_GPU_LIMITS];
    if (o->explain && p) whatifs(l, s, p, x, w);
    if (o->json) {
        fputs(first ? "[\n  {" : ",\n  {", f);
        fputs("\"gpu\": ", f); pni_json_string(f, l->gpu, 0);
        fputs(", \"kernel\": ", f); pni_json_string(f, l->kernel, 0);
        fprintf(f, ", \"input_size\": ");
        if (isfinite(l->input_size)) fprintf(f, "%.17g", l->input_size); else fputs("null", f);
        fprintf(f, ", \"block_x\": %u, \"block_y\": %u, ", l->block[0], l->block[1]);
        if (p)
            fprintf(f, "\"predicted_s\": %.6g, \"low_s\": %.6g, \"high_s\": %.6g",
                    p->predicted_s, p->low_s, p->high_s);
        else
            fputs("\"predicted_s\": null, \"low_s\": null, \"high_s\": null", f);
        fputs(", \"measured_s\": ", f);
        if (isfinite(l->measured_s)) fprintf(f, "%.6g", l->measured_s); else fputs("null", f);
        if (o->explain && !p) {
            static const char *const ex[] = {"bound", "overhead_s", "net_s", "dram_s",
                "l2_s", "lsu_s", "waves", "resident_warps", "limited_by", "busy",
                "wait_global", "wait_shared", "idle", "strided_s", "mlp", "decides", "occupancy",
                "tail_share", "whatif", "guessed"};
            for (size_t q = 0; q < sizeof ex / sizeof *ex; q++) fprintf(f, ", \"%s\": null", ex[q]);
        } else if (o->explain) {
            fprintf(f, ", \"bound\": \"%s\", \"overhead_s\": %.6g, \"net_s\": %.6g, "
                    "\"dram_s\": %.6g, \"l2_s\": %.6g, \"lsu_s\": %.6g, \"waves\": %.6g, "
                    "\"resident_warps\": %u, \"limited_by\": \"%s\", "
                    "\"busy\": %.4f, \"wait_global\": %.4f, \"wait_shared\": %.4f, "
                    "\"idle\": %.4f, \"strided_s\": %.6g, \"mlp\": %.4g",
                    p->bound, p->overhead_s, p->issue_s,
                    p->dram_s, p->l2_s, p->lsu_s, s->waves, s->resident_warps,
                    s->limited_by, p->busy, p->wait_global, p->wait_shared, p->idle,
                    p->strided_s, s->mlp);
            fprintf(f, ", \"decides\": \"%s\", \"occupancy\": %.4f, \"tail_share\": %.4f, \"whatif\": [",
                    p->decides, s->occupancy, p->tail_share);
            for (int q = 0; q < PN_GPU_LIMITS; q++) {
                fprintf(f, "%s{\"limit\": \"%s\", \"text\": ", q ? ", " : "", limit_name[q]);
                pni_json_string(f, w[q].text, 0);
                if (isfinite(w[q].value))
                    fprintf(f, ", \"value\": %.6g, \"more_blocks\": %d, \"predicted_s\": %.6g",
                            w[q].value, w[q].more_blocks, w[q].predicted_s);
                fputc('}', f);
            }
            fputs("], \"guessed\": [", f);
            if (!calibrated) fputs("\"overhead and scales\"", f);
            if (s->arch_guessed) fprintf(f, "%s\"limits and latencies\"", calibrated ? "" : ", ");
            fputc(']', f);
        }
        fputc('}', f);
        return;
    }
    if (first) {
        fputs("gpu,kernel,input_size,block_x,block_y,predicted_s,low_s,high_s,measured_s", f);
        if (o->explain)
            fputs(",bound,overhead_s,net_s,dram_s,l2_s,lsu_s,waves,resident_warps,"
                  "limited_by,busy,wait_global,wait_shared,idle,strided_s,mlp,"
                  "decides,occupancy,tail_share,whatif", f);
        fputc('\n', f);
    }
    pni_csv_field(f, l->gpu);
    fputc(',', f);
    pni_csv_field(f, l->kernel);
    fputc(',', f);
    if (isfinite(l->input_size)) fprintf(f, "%.17g", l->input_size);
    fprintf(f, ",%u,%u,", l->block[0], l->block[1]);
    if (p) fprintf(f, "%.6g,%.6g,%.6g,", p->predicted_s, p->low_s, p->high_s);
    else fputs(",,,", f);
    put_num(f, l->measured_s);
    if (o->explain && !p)
        fputs(",,,,,,,,,,,,,,,,,,,", f);
    else if (o->explain)
        fprintf(f, ",%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%u,%s,%.4f,%.4f,%.4f,%.4f,%.6g,%.4g",
                p->bound, p->overhead_s, p->issue_s, p->dram_s, p->l2_s,
                p->lsu_s, s->waves, s->resident_warps, s->limited_by, p->busy,
                p->wait_global, p->wait_shared, p->idle, p->strided_s, s->mlp);
    if (o->explain && p) {
        char all[4 * 210] = "";
        for (int q = 0; q < PN_GPU_LIMITS; q++) {
            if (q) strcat(all, "; ");
            strcat(all, w[q].text);
        }
        fprintf(f, ",%s,%.4f,%.4f,", p->decides, s->occupancy, p->tail_share);
        pni_csv_field(f, all);
    }
    fputc('\n', f);
}

/* The calibration of gpu in c, or spec filled with the defaults (*found
 * 0). */
static const pn_gpu_calib_t *calib_for(const pn_gpu_calib_t *c, size_t n,
                                       const char *gpu, pn_gpu_calib_t *spec,
                                       int *found)
{
    *found = 1;
    for (size_t i = 0; i < n; i++) {
        pn_gpu_device_t a, b;
        memset(&a, 0, sizeof a);
        snprintf(a.name, sizeof a.name, "%s", c[i].gpu);
        snprintf(b.name, sizeof b.name, "%s", gpu);
        if (pn_gpu_device_find(&a, 1, b.name)) return &c[i];
    }
    *found = 0;
    pn_gpu_calib_init(spec, gpu);
    return spec;
}

static int cmd_predict(const opts_t *o, launches_t *in)
{
    pn_gpu_device_t *devs = NULL;
    size_t nd = 0, nc = 0;
    pn_gpu_calib_t *cal = NULL;
    int rc = CLI_OK;
    if (!o->devinfo) {
        fprintf(stderr, "%s: predict needs --device-info\nTry '%s --help'.\n", prog, prog);
        return CLI_EUSAGE;
    }
    if ((rc = read_devices(o->devinfo, &devs, &nd)) != CLI_OK) return rc;
    if (o->calib && (rc = calib_read(o->calib, &cal, &nc)) != CLI_OK) { free(devs); return rc; }
    if (o->hypo) {
        pn_gpu_launch_t l;
        memset(&l, 0, sizeof l);
        snprintf(l.gpu, sizeof l.gpu, "%s", o->gpu);
        snprintf(l.kernel, sizeof l.kernel, "launch");
        l.input_size = NAN;
        l.measured_s = NAN;
        memcpy(l.grid, o->grid, sizeof l.grid);
        memcpy(l.block, o->block, sizeof l.block);
        l.regs_per_thread = (unsigned)o->regs;
        l.smem_per_block = (unsigned)o->smem;
        l.repeats = 1;
        double threads = (double)l.block[0] * l.block[1] * l.block[2];
        l.warps = ceil(threads / 32) * l.grid[0] * l.grid[1] * l.grid[2];
        l.inst = (o->arith + o->shared + o->global) * l.warps;
        l.shared_ld = o->shared * l.warps;
        l.global_ld = o->global * l.warps;
        l.shared_st = l.global_st = 0;
        l.global_st_trans = 0;
        const pn_gpu_device_t *d = pn_gpu_device_find(devs, nd, o->gpu);
        l.global_ld_trans = l.global_ld * o->trans * (d && d->cc_major >= 5 ? 4 : 1);
        l.dram_read = l.global_ld_trans * (d && d->cc_major >= 5 ? 1 : 4);
        l.dram_write = 0;
        l.l2_read = l.dram_read;
        l.l2_write = 0;
        l.l1_hit = l.l2_hit = NAN;
        /* not given: unknown, never 0 (no shared wavefront would reach
         * the L1/shared pipe) */
        l.shared_ld_trans = l.shared_st_trans = l.branches = NAN;
        pn_gpu_launch_t *v = realloc(in->l, (in->n + 1) * sizeof *v);
        if (!v) { free(devs); free(cal); return CLI_EINPUT; }
        in->l = v;
        in->l[in->n++] = l;
    }
    if (in->n == 0) {
        fprintf(stderr, "%s: predict: no profile and no --grid/--block launch\nTry '%s --help'.\n", prog, prog);
        free(devs); free(cal);
        return CLI_EUSAGE;
    }
    char *tmp = NULL;
    const char *out = o->output ? o->output : "-";
    FILE *f = cli_output_open(out, &tmp);
    if (!f) { free(devs); free(cal); return CLI_EOUTPUT; }
    pn_gpu_cache_t *cache = pn_gpu_cache_new();
    char *warned = calloc(nd ? nd : 1, 1);   /* GPUs said to lack a calibration */
    if (!warned) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = CLI_EINPUT;
    }
    size_t unpredicted = 0;
    int rc2_input = 0;
    for (size_t i = 0; i < in->n && rc == CLI_OK; i++) {
        pn_gpu_launch_t *l = &in->l[i];
        const char *gname = o->gpu ? o->gpu : l->gpu;
        const pn_gpu_device_t *d = pn_gpu_device_find(devs, nd, gname);
        if (!d) {
            gpu_missing(l->file, l->line, gname, o->gpu != NULL, o->devinfo, devs, nd, 1);
            rc = CLI_EINPUT;
            break;
        }
        if (o->gpu) snprintf(l->gpu, sizeof l->gpu, "%s", d->name);
        pn_gpu_shape_t s;
        pn_gpu_prediction_t p;
        pn_gpu_calib_t spec;
        pn_error_t err;
        pn_status_t st = pn_gpu_shape(l, d, &s, &err);
        int found;
        const pn_gpu_calib_t *cd = calib_for(cal, nc, d->name, &spec, &found);
        if (o->calib && !found && !warned[d - devs] && !cli_quiet()) {
            warned[d - devs] = 1;
            fprintf(stderr, "%s: %s: warning: no calibration of the GPU '%s': "
                    "predicted from its specification alone\n", prog, o->calib, d->name);
        }
        if (st == PN_OK)
            st = pn_gpu_predict(&s, cd, cache, &p, &err);
        if (st == PN_ENOMEM) {
            cli_error(prog, &err);
            rc = CLI_EINPUT;
            break;
        }
        if (st != PN_OK) {
            /* a count missing, a block that fits no SM: the launch's row
             * has no prediction, and the others go on */
            cli_error(prog, &err);
            unpredicted++;
        }
        ctx_t x = {d, cd, cache};
        print_row(f, o, l, &s, st == PN_OK ? &p : NULL, i == 0, &x,
                  found);
    }
    if (o->json && rc == CLI_OK) fputs("\n]\n", f);
    if (rc == CLI_OK && unpredicted) {
        fprintf(stderr, "%s: %zu of %zu launches could not be predicted (empty predicted_s)\n",
                prog, unpredicted, in->n);
        rc2_input = 1;
    }
    pn_gpu_cache_free(cache);
    free(warned);
    int rc2 = cli_output_close(f, tmp, out, rc == CLI_OK);
    free(devs);
    free(cal);
    if (rc != CLI_OK) return rc;
    return rc2 != CLI_OK ? rc2 : rc2_input ? CLI_EINPUT : CLI_OK;
}

/* ---- fit ---------------------------------------------------------------------- */

static int cmd_fit(const opts_t *o, launches_t *in)
{
    if (!o->devinfo || !o->output || in->n == 0) {
        fprintf(stderr, "%s: fit needs --device-info, -o CAL.json and profiles\n"
                "Try '%s --help'.\n", prog, prog);
        return CLI_EUSAGE;
    }
    pn_gpu_device_t *devs;
    size_t nd;
    int rc = read_devices(o->devinfo, &devs, &nd);
    if (rc != CLI_OK) return rc;
    pn_gpu_shape_t *sh = calloc(in->n, sizeof *sh);
    double *ms = calloc(in->n, sizeof *ms);
    int *done = calloc(in->n, sizeof *done);
    pn_gpu_calib_t *cal = calloc(in->n, sizeof *cal);
    size_t nc = 0, skipped = 0;
    pn_gpu_cache_t *cache = pn_gpu_cache_new();
    if (!sh || !ms || !done || !cal || !cache) { rc = CLI_EINPUT; fprintf(stderr, "%s: out of memory\n", prog); goto out; }
    /* one calibration per GPU, in order of first appearance */
    for (size_t i = 0; i < in->n && rc == CLI_OK; i++) {
        if (done[i]) continue;
        const pn_gpu_device_t *d = pn_gpu_device_find(devs, nd, in->l[i].gpu);
        if (!d) {
            gpu_missing(in->l[i].file, in->l[i].line, in->l[i].gpu, 0, o->devinfo, devs, nd, 0);
            rc = CLI_EINPUT;
            break;
        }
        size_t m = 0;
        for (size_t j = i; j < in->n; j++) {
            if (done[j] || pn_gpu_device_find(d, 1, in->l[j].gpu) == NULL) continue;
            done[j] = 1;
            pn_error_t err;
            if (!(in->l[j].measured_s > 0) || pn_gpu_shape(&in->l[j], d, &sh[m], &err) != PN_OK) {
                skipped++;
                continue;
            }
            ms[m++] = in->l[j].measured_s;
        }
        pn_error_t err;
        pn_gpu_calib_init(&cal[nc], d->name);
        if (m == 0) {
            fprintf(stderr, "%s: %s: no launch of this GPU has a measured time and every count the model needs\n",
                    prog, d->name);
            rc = CLI_EINPUT;
            break;
        }
        if (pn_gpu_fit(sh, ms, m, cache, &cal[nc], &err) != PN_OK) {
            fprintf(stderr, "%s: %s: %s [%s]\n", prog, d->name, err.text,
                    pn_status_name(err.code));
            rc = CLI_EINPUT;
            break;
        }
        if (!cli_quiet())
            fprintf(stderr, "%s: %s: %zu launches, training error %.1f%%\n",
                    prog, d->name, m, cal[nc].train_mape);
        nc++;
    }
    if (skipped && !cli_quiet())
        fprintf(stderr, "%s: %zu launches left out (no measured time, or a count missing)\n", prog, skipped);
    if (rc == CLI_OK) rc = calib_write(o->output, cal, nc);
out:
    pn_gpu_cache_free(cache);
    free(sh); free(ms); free(done); free(cal); free(devs);
    return rc;
}

/* ---- eval --------------------------------------------------------------------- */

/* The folder of real application kernels that eval predicts, when DIR has
 * it, with a calibration on DIR/profiles only (doc/gpu.md). */
#define UNSEEN_DIR "rodinia"

static void eval_print(FILE *f, const opts_t *o, const pn_gpu_eval_line_t *lines,
                       size_t nl)
{
    static const char *names[] = {"model", "inst_per_sm", "roofline", "linreg"};
    if (!o->json) {
        fputs("split,group,n", f);
        for (int q = 0; q < PN_GPU_METHODS; q++) fprintf(f, ",%s", names[q]);
        fputc('\n', f);
    } else fputs("[", f);
    for (size_t i = 0; i < nl; i++) {
        if (o->json) {
            fprintf(f, "%s\n  {\"split\": \"%s\", \"group\": ", i ? "," : "", lines[i].split);
            pni_json_string(f, lines[i].group, 0);
            fprintf(f, ", \"n\": %zu", lines[i].n);
            for (int q = 0; q < PN_GPU_METHODS; q++) {
                fprintf(f, ", \"%s\": ", names[q]);
                if (lines[i].n) fprintf(f, "%.2f", lines[i].mape[q]); else fputs("null", f);
            }
            fputc('}', f);
        } else {
            fprintf(f, "%s,", lines[i].split);
            pni_csv_field(f, lines[i].group);
            fprintf(f, ",%zu", lines[i].n);
            for (int q = 0; q < PN_GPU_METHODS; q++)
                if (lines[i].n) fprintf(f, ",%.1f", lines[i].mape[q]); else fputc(',', f);
            fputc('\n', f);
        }
    }
    if (o->json) fputs("\n]\n", f);
}

/* DIR/rodinia's splits appended to *lines; CLI_OK also when DIR has none. */
static int eval_unseen(const char *dir, const launches_t *train,
                       const pn_gpu_device_t *devs, size_t nd,
                       pn_gpu_cache_t *cache, pn_gpu_eval_line_t **lines,
                       size_t *nl)
{
    char path[4096];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, UNSEEN_DIR);
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) return CLI_OK;
    launches_t un = {0};
    int rc = add_dir(&un, dir, UNSEEN_DIR);
    pn_gpu_eval_line_t *more = NULL;
    size_t nm = 0, skipped = 0;
    pn_error_t err;
    if (rc == CLI_OK &&
        pn_gpu_eval_unseen(train->l, train->n, un.l, un.n, UNSEEN_DIR, devs, nd,
                           cache, &more, &nm, &skipped, &err) != PN_OK) {
        cli_error(prog, &err);
        rc = CLI_EINPUT;
    }
    if (rc == CLI_OK && !cli_quiet())
        fprintf(stderr, "%s: %s: %zu launches of kernels the calibration never "
                "sees, %zu left out (no measured time, or a count missing, in "
                "either set)\n", prog, UNSEEN_DIR, un.n, skipped);
    pn_gpu_eval_line_t *v = rc == CLI_OK ? realloc(*lines, (*nl + nm) * sizeof *v) : NULL;
    if (rc == CLI_OK && !v && nm) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = CLI_EINPUT;
    } else if (rc == CLI_OK && nm) {
        memcpy(v + *nl, more, nm * sizeof *v);
        *lines = v;
        *nl += nm;
    }
    free(more);
    free(un.l);
    return rc;
}

static int cmd_eval(const opts_t *o, const char *dir)
{
    launches_t in = {0};
    char dev[4096];
    snprintf(dev, sizeof dev, "%s/deviceInfo.csv", dir);
    pn_gpu_device_t *devs = NULL;
    size_t nd = 0;
    int rc = read_devices(o->devinfo ? o->devinfo : dev, &devs, &nd);
    if (rc == CLI_OK) rc = add_dir(&in, dir, "profiles");
    if (rc != CLI_OK) { free(devs); free(in.l); return rc; }
    pn_gpu_cache_t *cache = pn_gpu_cache_new();
    pn_gpu_eval_line_t *lines = NULL;
    size_t nl = 0, skipped = 0;
    pn_error_t err;
    if (pn_gpu_eval(in.l, in.n, devs, nd, cache, &lines, &nl, &skipped, &err) != PN_OK) {
        cli_error(prog, &err);
        rc = CLI_EINPUT;
    }
    if (rc == CLI_OK && !cli_quiet())
        fprintf(stderr, "%s: %zu launches, %zu left out (no measured time, or a count missing)\n",
                prog, in.n, skipped);
    if (rc == CLI_OK) rc = eval_unseen(dir, &in, devs, nd, cache, &lines, &nl);
    pn_gpu_cache_free(cache);
    if (rc == CLI_OK) {
        /* the splits of a GPU that had nothing to train on */
        for (size_t i = 0; i < nl && !cli_quiet(); i++)
            if (lines[i].n == 0 && !strncmp(lines[i].group, "gpu:", 4))
                fprintf(stderr, "%s: %s split of %s: no launch to train on (%s): not scored\n",
                        prog, lines[i].split, lines[i].group + 4,
                        strstr(lines[i].split, "new-gpu") ? "no other GPU" :
                        !strcmp(lines[i].split, "kernel") ? "its only kernel" : "none left");
        char *tmp = NULL;
        const char *out = o->output ? o->output : "-";
        FILE *f = cli_output_open(out, &tmp);
        if (!f) rc = CLI_EOUTPUT;
        else {
            eval_print(f, o, lines, nl);
            rc = cli_output_close(f, tmp, out, 1);
        }
    }
    free(lines);
    free(devs);
    free(in.l);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(prog, argc, argv);
    static const struct option lo[] = {
        {"device-info", required_argument, 0, 'D'},
        {"calibration", required_argument, 0, 'C'},
        CLI_LONGOPT_OUTPUT,
        CLI_LONGOPT_FORMAT,
        {"explain", no_argument, 0, OPT_EXPLAIN},
        {"gpu", required_argument, 0, OPT_GPU},
        {"grid", required_argument, 0, OPT_GRID},
        {"block", required_argument, 0, OPT_BLOCK},
        {"arith", required_argument, 0, OPT_ARITH},
        {"shared", required_argument, 0, OPT_SHARED},
        {"global", required_argument, 0, OPT_GLOBAL},
        {"transactions", required_argument, 0, OPT_TRANS},
        {"regs", required_argument, 0, OPT_REGS},
        {"smem", required_argument, 0, OPT_SMEM},
        CLI_LONGOPTS_COMMON};
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_CSV) | CLI_FMT(CLI_JSON) | CLI_FMT(CLI_TEXT),
                       .format = CLI_CSV};
    opts_t o;
    memset(&o, 0, sizeof o);
    o.trans = 1;
    o.regs = 32;
    int grid = 0, block = 0, c;
    /* the options given, to refuse those that do not apply to the command */
    enum { G_CAL, G_FMT, G_EXPLAIN, G_GPU, G_GRID, G_BLOCK, G_ARITH, G_SHARED,
           G_GLOBAL, G_TRANS, G_REGS, G_SMEM, G_COUNT };
    static const char *const gname[G_COUNT] = {
        "--calibration", "--format", "--explain", "--gpu", "--grid", "--block",
        "--arith", "--shared", "--global", "--transactions", "--regs", "--smem"};
    int given[G_COUNT] = {0};
    /* the command first; options anywhere after it (GNU order) */
    if (argc > 1 && argv[1][0] != '-') {
        o.cmd = argv[1];
        optind = 2;
    }
    int rc;
    while ((c = getopt_long(argc, argv, "D:C:o:f:qhV", lo, NULL)) != -1) {
        switch (c) {
        case 'D': o.devinfo = optarg; break;
        case 'C': o.calib = optarg; given[G_CAL] = 1; break;
        case OPT_EXPLAIN: o.explain = 1; given[G_EXPLAIN] = 1; break;
        case OPT_GPU: o.gpu = optarg; given[G_GPU] = 1; break;
        case OPT_GRID: if (dims("--grid", optarg, o.grid, 1)) return CLI_EUSAGE; grid = 1; given[G_GRID] = 1; break;
        case OPT_BLOCK: if (dims("--block", optarg, o.block, 0)) return CLI_EUSAGE; block = 1; given[G_BLOCK] = 1; break;
        case OPT_ARITH: if (count("--arith", optarg, &o.arith)) return CLI_EUSAGE; given[G_ARITH] = 1; break;
        case OPT_SHARED: if (count("--shared", optarg, &o.shared)) return CLI_EUSAGE; given[G_SHARED] = 1; break;
        case OPT_GLOBAL: if (count("--global", optarg, &o.global)) return CLI_EUSAGE; given[G_GLOBAL] = 1; break;
        case OPT_TRANS: if (count("--transactions", optarg, &o.trans)) return CLI_EUSAGE; given[G_TRANS] = 1; break;
        case OPT_REGS: if (count("--regs", optarg, &o.regs)) return CLI_EUSAGE; given[G_REGS] = 1; break;
        case OPT_SMEM: if (count("--smem", optarg, &o.smem)) return CLI_EUSAGE; given[G_SMEM] = 1; break;
        default:
            if ((rc = cli_option(&cc, c, optarg)) >= 0)
                return rc;
        }
    }
    given[G_FMT] = cc.format_given;
    o.json = cc.format == CLI_JSON;
    o.text = cc.format == CLI_TEXT;
    o.output = cc.output;
    if (!o.cmd && optind < argc)
        o.cmd = argv[optind++];
    if (!o.cmd) {
        fprintf(stderr, "%s: expected a command: predict, fit or eval\nTry '%s --help'.\n", prog, prog);
        return CLI_EUSAGE;
    }
    int is_predict = !strcmp(o.cmd, "predict"), is_fit = !strcmp(o.cmd, "fit"),
        is_eval = !strcmp(o.cmd, "eval");
    if (!is_predict && !is_fit && !is_eval) {
        fprintf(stderr, "%s: unknown command '%s' (predict, fit or eval)\nTry '%s --help'.\n", prog, o.cmd, prog);
        return CLI_EUSAGE;
    }
    for (int g = 0; g < G_COUNT; g++) {
        /* fit takes -D and -o; eval also -f; predict all, the launch's
         * counts only with --grid and --block */
        int applies = is_predict ? (g < G_ARITH || grid || block)
                    : is_eval ? g == G_FMT : 0;
        if (given[g] && !applies) {
            if (is_predict)
                fprintf(stderr, "%s: %s does not apply to predict without --grid and --block "
                        "(it gives a launch with no profile)\nTry '%s --help'.\n", prog, gname[g], prog);
            else
                fprintf(stderr, "%s: %s does not apply to %s\nTry '%s --help'.\n", prog, gname[g], o.cmd, prog);
            return CLI_EUSAGE;
        }
    }
    if (o.text && !is_predict) {
        fprintf(stderr, "%s: --format text applies to predict only\nTry '%s --help'.\n", prog, prog);
        return CLI_EUSAGE;
    }
    if (grid != block || ((grid || block) && !o.gpu)) {
        fprintf(stderr, "%s: a launch needs --grid, --block and --gpu together\nTry '%s --help'.\n", prog, prog);
        return CLI_EUSAGE;
    }
    if (o.global > 0 && o.trans == 0) {
        fprintf(stderr, "%s: --transactions 0 with --global %g: a global access moves "
                "at least one transaction\nTry '%s --help'.\n", prog, o.global, prog);
        return CLI_EUSAGE;
    }
    o.hypo = grid;
    launches_t in = {0};
    rc = CLI_OK;
    if (!strcmp(o.cmd, "eval")) {
        if (optind + 1 != argc) {
            fprintf(stderr, "%s: eval: expected one DIR\nTry '%s --help'.\n", prog, prog);
            return CLI_EUSAGE;
        }
        return cmd_eval(&o, argv[optind]);
    }
    for (int i = optind; i < argc && rc == CLI_OK; i++) rc = add_profile(&in, argv[i]);
    if (rc == CLI_OK) pn_gpu_launches_impute(in.l, in.n);
    if (rc == CLI_OK) rc = !strcmp(o.cmd, "fit") ? cmd_fit(&o, &in) : cmd_predict(&o, &in);
    free(in.l);
    return rc; /* standard output is checked at exit (cli_init()) */
}
