/*
 * Devices: deviceInfo.csv rows, and the built-in table of what each compute
 * capability allows on one SM.  doc/gpu.md ("Devices") has the columns and
 * the table with its sources.
 */
#include <config.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "predict.h"
#include "lib_private.h"

/*
 * The limits per SM are those of the CUDA C++ Programming Guide (table
 * "Technical Specifications per Compute Capability") and of the CUDA
 * Occupancy Calculator (cuda_occupancy.h: registers are given to a warp in
 * units of 256, shared memory to a block in units of 256 bytes up to cc
 * 7.x and 128 bytes from cc 8.0; from cc 8.0 the system also reserves 1 KB
 * of shared memory per block, which is not in smem_per_block).
 *
 * The latencies are cycles of one dependent access as pointer-chasing
 * microbenchmarks measure them, rounded; they are starting values, which a
 * calibration may refit:
 *  - Kepler, Maxwell: X. Mei and X. Chu, "Dissecting GPU Memory Hierarchy
 *    through Microbenchmarking", IEEE TPDS 28(1), 2017 (arXiv:1509.02308):
 *    global memory with a TLB hit about 300 (Kepler) and 350 (Maxwell)
 *    cycles, shared memory 47 (Kepler) and 28 (Maxwell);
 *  - K80, M60, P100, V100, T4: Z. Jia, M. Maggioni, B. Staiger, D. P.
 *    Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via
 *    Microbenchmarking", arXiv:1804.06826, 2018, and Z. Jia, M. Maggioni,
 *    J. Smith, D. P. Scarpazza, "Dissecting the NVidia Turing T4 GPU via
 *    Microbenchmarking", arXiv:1903.07486, 2019: L2 hit about 200 (K80),
 *    207 (M60), 234 (P100), 193 (V100), 188 (T4); shared memory 19 on
 *    Volta and Turing, about 24 on Pascal;
 *  - Ampere, Ada, Hopper: H. Abdelkhalik, Y. Arafa, N. Santhi, A.-H. Badawy,
 *    "Demystifying the Nvidia Ampere Architecture through
 *    Microbenchmarking and Instruction-level Analysis", HPEC 2022, and
 *    W. Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
 *    Architecture", IPDPS 2024 (arXiv:2402.13499): L2 hit about 200-270,
 *    global memory about 450-550, shared memory about 30.
 * Dependent arithmetic (a single-precision add or FMA waiting for the one
 * before): 9 cycles on Kepler, 6 on Maxwell and Pascal, 4 from Volta on
 * (Jia et al. 2018, table 3.1; the Hopper paper above).
 * An L1 hit of a global load: about 35 cycles on Kepler (which caches
 * global loads in L1 only when asked), 82 on Maxwell and Pascal (the
 * unified L1/texture cache), 28 on Volta, 32 on Turing, 33 from Ampere on
 * (the same papers).
 * Where a paper does not cover a capability (3.0, 3.2, 5.0, 5.3, 6.1, 6.2,
 * 8.6, 8.9) the row takes the figures of its architecture's measured chip.
 */
static const pn_gpu_arch_t arch_table[] = {
    /* cc  blocks warps regs  unit smem    unit sch  DRAM  L2  shared  name  arith  L1 */
    {3, 0, 16, 64, 65536, 256, 49152, 256, 4, 300, 200, 47, "Kepler", 9, 35},
    {3, 2, 16, 64, 65536, 256, 49152, 256, 4, 300, 200, 47, "Kepler", 9, 35},
    {3, 5, 16, 64, 65536, 256, 49152, 256, 4, 300, 200, 47, "Kepler", 9, 35},
    {3, 7, 16, 64, 131072, 256, 114688, 256, 4, 300, 200, 47, "Kepler", 9, 35},
    {5, 0, 32, 64, 65536, 256, 65536, 256, 4, 350, 210, 28, "Maxwell", 6, 82},
    {5, 2, 32, 64, 65536, 256, 98304, 256, 4, 350, 210, 28, "Maxwell", 6, 82},
    {5, 3, 32, 64, 65536, 256, 65536, 256, 4, 350, 210, 28, "Maxwell", 6, 82},
    {6, 0, 32, 64, 65536, 256, 65536, 256, 2, 400, 234, 24, "Pascal", 6, 82},
    {6, 1, 32, 64, 65536, 256, 98304, 256, 4, 400, 216, 24, "Pascal", 6, 82},
    {6, 2, 32, 64, 65536, 256, 65536, 256, 4, 400, 216, 24, "Pascal", 6, 82},
    {7, 0, 32, 64, 65536, 256, 98304, 256, 4, 400, 193, 19, "Volta", 4, 28},
    {7, 5, 16, 32, 65536, 256, 65536, 256, 4, 450, 188, 19, "Turing", 4, 32},
    {8, 0, 32, 64, 65536, 256, 167936, 128, 4, 450, 200, 29, "Ampere", 4, 33},
    {8, 6, 16, 48, 65536, 256, 102400, 128, 4, 500, 250, 30, "Ampere", 4, 33},
    {8, 9, 24, 48, 65536, 256, 102400, 128, 4, 550, 270, 30, "Ada", 4, 33},
    {9, 0, 32, 64, 65536, 256, 233472, 128, 4, 480, 260, 29, "Hopper", 4, 33},
};

const pn_gpu_arch_t *pn_gpu_arch_find(int major, int minor)
{
    const pn_gpu_arch_t *best = NULL;
    for (size_t i = 0; i < sizeof arch_table / sizeof *arch_table; i++) {
        const pn_gpu_arch_t *a = &arch_table[i];
        if (a->cc_major != major || a->cc_minor > minor)
            continue;
        if (!best || a->cc_minor > best->cc_minor)
            best = a;
    }
    return best;
}

/* Names compare without case, '-', '_' and ' ' being the same. */
static int name_char(char ch)
{
    if (ch == '-' || ch == '_')
        return ' ';
    return tolower((unsigned char)ch);
}

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (name_char(*a) != name_char(*b))
            return 0;
    return !*a && !*b;
}

/* Whether name holds dev's name as whole words ("NVIDIA H100 80GB HBM3"
 * holds "H100"; "Tesla K40c" does not hold "Tesla-K40"). */
static int holds_words(const char *name, const char *dev)
{
    size_t n = strlen(name), d = strlen(dev);
    if (!d || d > n)
        return 0;
    for (size_t i = 0; i + d <= n; i++) {
        if (i && isalnum((unsigned char)name[i - 1]))
            continue;
        if (i + d < n && isalnum((unsigned char)name[i + d]))
            continue;
        size_t k = 0;
        while (k < d && name_char(name[i + k]) == name_char(dev[k]))
            k++;
        if (k == d)
            return 1;
    }
    return 0;
}

const pn_gpu_device_t *pn_gpu_device_find(const pn_gpu_device_t *devs,
                                          size_t n, const char *name)
{
    if (!devs || !name)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (same_name(devs[i].name, name))
            return &devs[i];
    /* else the longest device name the given one holds as whole words */
    const pn_gpu_device_t *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (holds_words(name, devs[i].name) &&
            (!best || strlen(devs[i].name) > strlen(best->name)))
            best = &devs[i];
    return best;
}

/* ---- deviceInfo.csv ---------------------------------------------------- */

enum { D_CC, D_NAME, D_CLOCK, D_SMS, D_CORES, D_BW, D_L2, D_COUNT };
static const char *const dev_cols[D_COUNT][2] = {
    {"compute_version", NULL}, {"gpu_name", NULL},
    {"max_clock_rate", NULL},  {"num_sm", NULL},
    {"num_cores_sm", NULL},    {"bandwith", "bandwidth"},
    {"L2", NULL},
};

static pn_status_t dev_bad(pn_error_t *err, const pni_csv_cell_t *hdr,
                           const pni_csv_cell_t *cell, const char *what)
{
    char q[256], name[256];
    return pni_error(err, PN_EVALUE, cell->line, cell->column,
                     "column '%s': '%s' %s",
                     pni_quote(name, sizeof name, hdr->s, hdr->len, 60),
                     pni_quote(q, sizeof q, cell->s, cell->len, 40), what);
}

/* "5.2" or "3" -> 5, 2 */
static int parse_cc(const pni_csv_cell_t *cell, int *major, int *minor)
{
    char t[32];
    pni_csv_copy(t, sizeof t, cell);
    const char *s = t;
    int v[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (*s < '0' || *s > '9')
            return -1;
        for (; *s >= '0' && *s <= '9'; s++) {
            v[k] = v[k] * 10 + (*s - '0');
            if (v[k] > 99)
                return -1;
        }
        if (!*s)
            break;
        if (k || *s != '.')
            return -1;
        s++;
    }
    if (*s)
        return -1;
    *major = v[0];
    *minor = v[1];
    return 0;
}

pn_status_t pn_gpu_devices_read(const char *path, pn_gpu_device_t **out,
                                size_t *n, pn_error_t *err)
{
    const char *fname = path && strcmp(path, "-") ? path : "-";
    pni_error_begin(err, fname);
    if (!out || !n)
        return pni_error(err, PN_EINVAL, 0, 0, "no place for the result");
    *out = NULL;
    *n = 0;
    pni_csv_t c;
    pn_status_t st = pni_csv_open(&c, path, "a profile", err);
    if (st)
        return st;
    pn_gpu_device_t *devs = NULL;
    unsigned long *lines = NULL; /* where each device was read */
    size_t nd = 0, cap = 0, cap_lines = 0;
    pni_csv_cell_t *hdr = NULL;
    long col[D_COUNT];
    int got;
    while (!(st = pni_csv_next(&c, &got)) && got && pni_csv_blank(&c))
        ;
    if (st)
        goto done;
    if (!got) {
        st = pni_error(err, PN_EVALUE, 0, 0, "an empty file (no header row)");
        goto done;
    }
    unsigned long hline = c.rec_line;
    size_t ncols = c.n;
    hdr = malloc(ncols * sizeof *hdr);
    if (!hdr) {
        st = pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
        goto done;
    }
    memcpy(hdr, c.cells, ncols * sizeof *hdr);
    for (int k = 0; k < D_COUNT; k++) {
        col[k] = pni_csv_find(hdr, ncols, dev_cols[k][0]);
        if (col[k] < 0 && dev_cols[k][1])
            col[k] = pni_csv_find(hdr, ncols, dev_cols[k][1]);
        if (col[k] < 0 && k <= D_CORES) {
            st = pni_error(err, PN_EVALUE, hline, 0,
                           "no column %s in the header (a deviceInfo.csv "
                           "has compute_version, gpu_name, max_clock_rate, "
                           "num_sm, num_cores_sm)", dev_cols[k][0]);
            goto done;
        }
    }
    if ((st = pni_csv_unique(hdr, ncols, col, D_COUNT, err)))
        goto done;
    for (;;) {
        while (!(st = pni_csv_next(&c, &got)) && got && pni_csv_blank(&c))
            ;
        if (st)
            goto done;
        if (!got)
            break;
        if (c.n != ncols) {
            int more = c.n > ncols;
            st = pni_error(err, PN_EVALUE,
                           more ? c.cells[ncols].line : c.end_line,
                           more ? c.cells[ncols].column : c.end_column,
                           "a row of %zu cells, but the header (line %lu) "
                           "has %zu", c.n, hline, ncols);
            goto done;
        }
        pn_gpu_device_t d;
        memset(&d, 0, sizeof d);
        const pni_csv_cell_t *row = c.cells;
        if (parse_cc(&row[col[D_CC]], &d.cc_major, &d.cc_minor)) {
            st = dev_bad(err, &hdr[col[D_CC]], &row[col[D_CC]],
                         "is not a compute capability (such as 5.2)");
            goto done;
        }
        pni_csv_copy(d.name, sizeof d.name, &row[col[D_NAME]]);
        if (!d.name[0]) {
            st = dev_bad(err, &hdr[col[D_NAME]], &row[col[D_NAME]],
                         "is empty: a device needs a name");
            goto done;
        }
        for (size_t i = 0; i < nd; i++)
            if (same_name(devs[i].name, d.name)) {
                char q[256];
                st = pni_error(err, PN_EVALUE, row[col[D_NAME]].line,
                               row[col[D_NAME]].column,
                               "GPU '%s' is described twice (first on line "
                               "%lu)", pni_quote(q, sizeof q, d.name,
                                                 strlen(d.name), 60),
                               lines[i]);
                goto done;
            }
        double v[D_COUNT];
        for (int k = D_CLOCK; k < D_COUNT; k++) {
            v[k] = NAN;
            if (col[k] < 0)
                continue;
            const pni_csv_cell_t *cell = &row[col[k]];
            int r = pni_csv_number(cell, &v[k]);
            int needed = k <= D_CORES;
            const char *what = r == 1 && needed ? "is missing: a device needs it"
                             : r == -1 ? "is not a number (nor NA)"
                             : r == -2 ? "is out of range"
                             : r == 0 && (v[k] < 0 || ((needed || k == D_BW) && v[k] == 0))
                                 ? "is not a positive number"   /* a bandwidth of 0 divides */
                             : r == 0 && k >= D_SMS && k <= D_CORES &&
                                       (v[k] != floor(v[k]) || v[k] > UINT_MAX)
                                 ? "is not a whole number"
                                 : NULL;
            if (what) {
                st = dev_bad(err, &hdr[col[k]], cell, what);
                goto done;
            }
        }
        d.clock_mhz = v[D_CLOCK];
        d.sms = (unsigned)v[D_SMS];
        d.cores_per_sm = (unsigned)v[D_CORES];
        d.bandwidth_gbs = v[D_BW];
        d.l2_mb = v[D_L2];
        if (pni_grow((void **)&devs, &cap, nd + 1, sizeof *devs) ||
            pni_grow((void **)&lines, &cap_lines, nd + 1, sizeof *lines)) {
            st = pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
            goto done;
        }
        lines[nd] = c.rec_line;
        devs[nd++] = d;
    }
    if (!nd) {
        st = pni_error(err, PN_EVALUE, hline, 0, "a header but no devices");
        goto done;
    }
    *out = devs;
    *n = nd;
    devs = NULL;
done:
    free(devs);
    free(lines);
    free(hdr);
    pni_csv_close(&c);
    return st;
}

/* ---- the generator's options from a specification ---------------------- */

static int opt_given(const pn_gpu_options_t *o, const char *name)
{
    long i = pn_gpu_option_find(name);
    return i >= 0 && (o->given >> i & 1);
}

pn_status_t pn_gpu_options_arch(pn_gpu_options_t *o, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!o)
        return pni_error(err, PN_EINVAL, 0, 0, "no options");
    if (!o->arch || o->arch_applied)
        return PN_OK;
    /* sm_80, sm80, 8.0 */
    const char *s = o->arch;
    int major = -1, minor = -1;
    char q[64];
    pni_quote(q, sizeof q, s, strlen(s), 20);
    if (!strncmp(s, "sm_", 3) || !strncmp(s, "sm", 2)) {
        s += s[2] == '_' ? 3 : 2;
        if (isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
            !s[2]) {
            major = s[0] - '0';
            minor = s[1] - '0';
        } else if (isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1])
                   && isdigit((unsigned char)s[2]) && !s[3]) {
            major = (s[0] - '0') * 10 + (s[1] - '0');
            minor = s[2] - '0';
        }
    } else if (isdigit((unsigned char)s[0])) {
        char *end;
        long a = strtol(s, &end, 10);
        if (*end == '.' && isdigit((unsigned char)end[1])) {
            char *end2;
            long b = strtol(end + 1, &end2, 10);
            if (!*end2 && a < 100 && b < 10) {
                major = (int)a;
                minor = (int)b;
            }
        }
    }
    if (major < 0)
        return pni_error(err, PN_EVALUE, 0, 0,
                         "arch: '%s' is not a compute capability (sm_80, "
                         "sm80 or 8.0)", q);
    const pn_gpu_arch_t *a = pn_gpu_arch_find(major, minor);
    if (!a)
        return pni_error(err, PN_EINVAL, 0, 0,
                         "arch: no row for compute capability %d.%d in the "
                         "built-in table", major, minor);
    if (!opt_given(o, "schedulers"))
        o->schedulers = a->schedulers;
    if (!opt_given(o, "l1"))
        o->l1 = a->lat_global;
    if (!opt_given(o, "l2"))
        o->l2 = a->lat_shared;
    if (!opt_given(o, "l1-hit-latency"))
        o->l1_hit_latency = a->lat_l1;
    if (!opt_given(o, "l2-hit-latency"))
        o->l2_hit_latency = a->lat_l2;
    if (o->pipelined && !opt_given(o, "la"))
        o->la = a->lat_arith;
    o->arch_applied = 1;
    return PN_OK;
}
