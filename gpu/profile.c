/*
 * Profiles: nvprof's CSV as in the data set of Amaris et al., and Nsight
 * Compute's raw CSV page.  Every column mapping is in doc/gpu.md
 * ("Profiles"); the tables below are that list.
 */
#include <config.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "predict.h"
#include "lib_private.h"

enum layout { NVPROF, NCU };

/* The launch's numbers that are averaged over repeated rows. */
enum {
    F_TIME, F_WARPS, F_INST, F_SHLD, F_SHST, F_GLD, F_GST, F_GLDT, F_GSTT,
    F_DRAMR, F_DRAMW, F_L2R, F_L2W, F_L1HIT, F_L2HIT, F_SHLDT, F_SHSTT,
    F_BRANCH, F_COUNT
};

static const size_t field_off[F_COUNT] = {
    offsetof(pn_gpu_launch_t, measured_s),
    offsetof(pn_gpu_launch_t, warps),
    offsetof(pn_gpu_launch_t, inst),
    offsetof(pn_gpu_launch_t, shared_ld),
    offsetof(pn_gpu_launch_t, shared_st),
    offsetof(pn_gpu_launch_t, global_ld),
    offsetof(pn_gpu_launch_t, global_st),
    offsetof(pn_gpu_launch_t, global_ld_trans),
    offsetof(pn_gpu_launch_t, global_st_trans),
    offsetof(pn_gpu_launch_t, dram_read),
    offsetof(pn_gpu_launch_t, dram_write),
    offsetof(pn_gpu_launch_t, l2_read),
    offsetof(pn_gpu_launch_t, l2_write),
    offsetof(pn_gpu_launch_t, l1_hit),
    offsetof(pn_gpu_launch_t, l2_hit),
    offsetof(pn_gpu_launch_t, shared_ld_trans),
    offsetof(pn_gpu_launch_t, shared_st_trans),
    offsetof(pn_gpu_launch_t, branches),
};

#define ALIASES 5

/* Each field's columns, in order of preference: the first of them that the
 * header has is the field's column (one column for every row: a row whose
 * cell is NA has NAN there, never another column's value).  Percentages are marked: they become 0..1.  The
 * nvprof names are the data set's (R's make.names of nvprof's headers) and
 * nvprof's own event and metric names, Kepler's and Maxwell's and the
 * metrics that replace them from Pascal on (inst_executed_shared_loads,
 * l2_tex_read_hit_rate, ...); the Nsight Compute names are metric names of
 * `ncu --page raw` (never its sass__inst_executed_* ones: they count
 * threads, not warps). */
static const struct field_names {
    const char *names[ALIASES];
    int pct;
} nvprof_fields[F_COUNT] = {
    [F_TIME] = {{"Duration"}, 0},
    [F_WARPS] = {{"warps_launched"}, 0},
    [F_INST] = {{"inst_executed"}, 0},
    [F_SHLD] = {{"shared_load", "shared_ld_inst", "inst_executed_shared_loads"}, 0},
    [F_SHST] = {{"shared_store", "shared_st_inst", "inst_executed_shared_stores"}, 0},
    [F_GLD] = {{"global_load", "gld_request", "inst_executed_global_loads"}, 0},
    [F_GST] = {{"global_store", "gst_request", "inst_executed_global_stores"}, 0},
    [F_GLDT] = {{"Global.Load.Transactions", "gld_transactions"}, 0},
    [F_GSTT] = {{"Global.Store.Transactions", "gst_transactions"}, 0},
    [F_DRAMR] = {{"Device.Memory.Read.Transactions", "dram_read_transactions"}, 0},
    [F_DRAMW] = {{"Device.Memory.Write.Transactions", "dram_write_transactions"}, 0},
    [F_L2R] = {{"L2.Read.Transactions", "l2_read_transactions"}, 0},
    [F_L2W] = {{"L2.Write.Transactions", "l2_write_transactions"}, 0},
    [F_L1HIT] = {{"Global.Hit.Rate", "L1.Global.Hit.Rate", "global_hit_rate",
                  "l1_cache_global_hit_rate"}, 1},
    [F_L2HIT] = {{"L2.Hit.Rate..L1.Reads.", "L2.Hit.Rate..Texture.Reads.",
                  "l2_l1_read_hit_rate", "l2_texture_read_hit_rate",
                  "l2_tex_read_hit_rate"}, 1},
    [F_SHLDT] = {{"Shared.Load.Transactions", "shared_load_transactions"}, 0},
    [F_SHSTT] = {{"Shared.Store.Transactions", "shared_store_transactions"}, 0},
    [F_BRANCH] = {{"Executed.Control.Flow.Instructions", "cf_executed"}, 0},
}, ncu_fields[F_COUNT] = {
    [F_TIME] = {{NULL}, 0}, /* "Duration", else gpu__time_duration: below */
    [F_WARPS] = {{"smsp__warps_launched.sum", "sm__warps_launched.sum"}, 0},
    [F_INST] = {{"smsp__inst_executed.sum", "sm__inst_executed.sum"}, 0},
    [F_SHLD] = {{"smsp__inst_executed_op_shared_ld.sum",
                 "sm__sass_inst_executed_op_shared_ld.sum"}, 0},
    [F_SHST] = {{"smsp__inst_executed_op_shared_st.sum",
                 "sm__sass_inst_executed_op_shared_st.sum"}, 0},
    [F_GLD] = {{"smsp__inst_executed_op_global_ld.sum",
                "sm__sass_inst_executed_op_global_ld.sum"}, 0},
    [F_GST] = {{"smsp__inst_executed_op_global_st.sum",
                "sm__sass_inst_executed_op_global_st.sum"}, 0},
    [F_GLDT] = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}, 0},
    [F_GSTT] = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}, 0},
    [F_DRAMR] = {{"dram__sectors_read.sum"}, 0},
    [F_DRAMW] = {{"dram__sectors_write.sum"}, 0},
    [F_L2R] = {{"lts__t_sectors_op_read.sum"}, 0},
    [F_L2W] = {{"lts__t_sectors_op_write.sum"}, 0},
    [F_L1HIT] = {{"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                  "l1tex__t_sector_hit_rate.pct"}, 1},
    [F_L2HIT] = {{"lts__t_sector_hit_rate.pct"}, 1},
    [F_SHLDT] = {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}, 0},
    [F_SHSTT] = {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}, 0},
    [F_BRANCH] = {{"smsp__inst_executed_op_branch.sum",
                   "sm__sass_inst_executed_op_branch.sum"}, 0},
};

/* The unsigned numbers of a launch. */
enum { U_GX, U_GY, U_GZ, U_BX, U_BY, U_BZ, U_REGS, U_SMS, U_SMD, U_COUNT };
static const char *const nvprof_unsigned[U_COUNT] = {
    "Grid.X", "Grid.Y", "Grid.Z", "Block.X", "Block.Y", "Block.Z",
    "Registers.Per.Thread", "Static.SMem", "Dynamic.SMem"};
static const char *const ncu_unsigned[U_COUNT] = {
    "launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z",
    "launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z",
    "launch__registers_per_thread", "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic"};

/* Where each value of a row is. */
typedef struct {
    enum layout layout;
    const pni_csv_cell_t *hdr;  /* names, for messages */
    size_t ncols;
    unsigned long hline;        /* the header's line */
    long gpu[3], kernel[3], size;
    long field[F_COUNT];
    long uns[U_COUNT];
    long grid_size, block_size; /* ncu "(x, y, z)" cells, when no dims */
    long duration, time;        /* ncu: "Duration" (s), gpu__time_duration */
    double time_scale;          /* seconds per unit of `time` */
    double nv_time_scale;       /* nvprof: seconds per unit of Duration */
    double smem_scale[2];       /* nvprof: bytes per unit of Static SMem and
                                 * Dynamic SMem */
    int spaced;                 /* nvprof's own header ("Grid X") */
} cols_t;

typedef struct {
    pni_csv_t csv;
    pn_error_t *err;
    const char *path;
} reader_t;

/* "the column 'Grid.X'" in messages */
static const char *colname(const cols_t *m, long i, char *buf, size_t size)
{
    const pni_csv_cell_t *h = &m->hdr[i];
    return pni_quote(buf, size, h->s, h->len, 60);
}

static pn_status_t bad_cell(reader_t *r, const cols_t *m, long i,
                            const pni_csv_cell_t *cell, const char *what)
{
    char q[256], name[256];
    return pni_error(r->err, PN_EVALUE, cell->line, cell->column,
                     "column '%s': '%s' %s", colname(m, i, name, sizeof name),
                     pni_quote(q, sizeof q, cell->s, cell->len, 40), what);
}

/* A count or time: >= 0, or NAN when the cell is a missing value.
 * pct: a percentage in 0..100, returned as 0..1. */
static pn_status_t get_double(reader_t *r, const cols_t *m, long i,
                              const pni_csv_cell_t *row, int pct, double *out)
{
    const pni_csv_cell_t *cell = &row[i];
    int k = pni_csv_number(cell, out);
    if (k == 1)
        return PN_OK;
    if (k == -1)
        return bad_cell(r, m, i, cell, "is not a number (nor NA)");
    if (k == -2)
        return bad_cell(r, m, i, cell, "is out of range");
    if (*out < 0)
        return bad_cell(r, m, i, cell,
                        pct ? "is a negative percentage"
                            : "is negative (counts and times are >= 0)");
    if (pct) /* nvprof's hit rates exceed 100% at times (Maxwell's L2
              * texture reads, up to about 117%): a rate is at most 1 */
        *out = *out > 100 ? 1 : *out / 100;
    return PN_OK;
}

/* An unsigned integer the launch needs; min is its least value. */
static pn_status_t get_unsigned(reader_t *r, const cols_t *m, long i,
                                const pni_csv_cell_t *row, unsigned min,
                                unsigned *out)
{
    double v;
    const pni_csv_cell_t *cell = &row[i];
    int k = pni_csv_number(cell, &v);
    if (k == 1)
        return bad_cell(r, m, i, cell,
                        "is missing: a launch needs this value");
    if (k != 0 || v != floor(v))
        return bad_cell(r, m, i, cell, "is not a whole number");
    if (v < min || v > UINT_MAX) {
        char what[80];
        snprintf(what, sizeof what, "is out of range (%u to %u)", min,
                 UINT_MAX);
        return bad_cell(r, m, i, cell, what);
    }
    *out = (unsigned)v;
    return PN_OK;
}

/* "(64, 1, 1)" */
static pn_status_t get_dim3(reader_t *r, const cols_t *m, long i,
                            const pni_csv_cell_t *row, unsigned out[3])
{
    const pni_csv_cell_t *cell = &row[i];
    const char *s = cell->s, *e = s + cell->len;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    if (s == e || *s != '(')
        goto bad;
    s++;
    for (int k = 0; k < 3; k++) {
        while (s < e && *s == ' ')
            s++;
        unsigned long long v = 0;
        const char *d = s;
        while (s < e && *s >= '0' && *s <= '9') {
            v = v * 10 + (unsigned)(*s - '0');
            if (v > UINT_MAX)
                goto bad;
            s++;
        }
        if (s == d || v == 0)
            goto bad;
        out[k] = (unsigned)v;
        while (s < e && *s == ' ')
            s++;
        if (s == e || *s != (k < 2 ? ',' : ')'))
            goto bad;
        s++;
    }
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    if (s == e)
        return PN_OK;
bad:
    return bad_cell(r, m, i, cell,
                    "is not a size '(x, y, z)' of whole numbers from 1");
}

/* The kernel's name without its parameter list, return type or space:
 * "void k<(int)2>(float *, int)" -> "k<(int)2>". */
static void kernel_name(char *buf, size_t size, const pni_csv_cell_t *cell)
{
    char tmp[1024];
    pni_csv_copy(tmp, sizeof tmp, cell);
    char *s = tmp;
    if (!strncmp(s, "void ", 5))
        s += 5;
    int depth = 0;
    char *p = s;
    for (; *p; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>' && depth)
            depth--;
        else if (*p == '(' && !depth)
            break;
    }
    *p = '\0';
    while (p > s && p[-1] == ' ')
        *--p = '\0';
    size_t k = (size_t)(p - s);
    if (k >= size)
        k = size - 1;
    memcpy(buf, s, k);
    buf[k] = '\0';
}

/* A column by name; nvprof writes its own headers with spaces ("Grid X",
 * "Registers Per Thread") where the data set has dots (R's names), so a
 * name with dots also finds the name with spaces. */
static long find_col(const pni_csv_cell_t *h, size_t n, const char *name)
{
    long c = pni_csv_find(h, n, name);
    if (c >= 0 || !strchr(name, '.'))
        return c;
    char sp[128];
    snprintf(sp, sizeof sp, "%s", name);
    for (char *q = sp; *q; q++)
        if (*q == '.')
            *q = ' ';
    return pni_csv_find(h, n, sp);
}

static long find_any(const pni_csv_cell_t *h, size_t n, const char *const *names,
                     size_t k)
{
    for (size_t i = 0; i < k && names[i]; i++) {
        long c = find_col(h, n, names[i]);
        if (c >= 0)
            return c;
    }
    return -1;
}

/* The time unit of Nsight Compute's units row, in seconds. */
static int time_unit(const pni_csv_cell_t *cell, double *scale)
{
    static const struct {
        const char *name;
        double s;
    } units[] = {
        {"", 1e-9},       {"ns", 1e-9},          {"nsecond", 1e-9},
        {"nanosecond", 1e-9}, {"us", 1e-6},      {"usecond", 1e-6},
        {"microsecond", 1e-6}, {"\xC2\xB5s", 1e-6}, {"ms", 1e-3},
        {"msecond", 1e-3}, {"millisecond", 1e-3}, {"s", 1},
        {"second", 1},
    };
    char u[32];
    pni_csv_copy(u, sizeof u, cell);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (!strcmp(u, units[i].name)) {
            *scale = units[i].s;
            return 0;
        }
    return -1;
}

static pn_status_t missing(reader_t *r, const cols_t *m, const char *what)
{
    char sp[128];
    if (m->spaced && strchr(what, '.') && !strchr(what, ' ')) {
        /* a column of nvprof's own header is named with spaces */
        snprintf(sp, sizeof sp, "%s", what);
        for (char *q = sp; *q; q++)
            if (*q == '.')
                *q = ' ';
        what = sp;
    }
    return pni_error(r->err, PN_EVALUE, m->hline, 0,
                     "no column %s in the header", what);
}

/* The column map of a header. */
static pn_status_t map_columns(reader_t *r, const pni_csv_t *c, cols_t *m)
{
    const pni_csv_cell_t *h = c->cells;
    size_t n = c->n;
    memset(m, 0, sizeof *m);
    m->hdr = h;
    m->ncols = n;
    m->hline = c->rec_line;
    m->time_scale = 1e-9;
    int metrics = 0; /* columns named after Nsight Compute's metrics */
    for (size_t i = 0; i < n && !metrics; i++)
        if ((h[i].len > 5 && !memcmp(h[i].s, "gpu__", 5)) ||
            (h[i].len > 8 && !memcmp(h[i].s, "launch__", 8)))
            metrics = 1;
    int is_ncu = metrics || pni_csv_find(h, n, "Kernel Name") >= 0;
    int is_nvprof = pni_csv_find(h, n, "gpu_name") >= 0 ||
                    find_col(h, n, "Grid.X") >= 0;
    m->spaced = pni_csv_find(h, n, "Grid.X") < 0 &&
                pni_csv_find(h, n, "Grid X") >= 0;
    m->nv_time_scale = m->smem_scale[0] = m->smem_scale[1] = 1;
    /* nvprof's summary of metrics or events: one a row, over a kernel's
     * invocations, with no launch's grid, block or time */
    long per_row = pni_csv_find(h, n, "Metric Name");
    if (per_row < 0) per_row = pni_csv_find(h, n, "Event Name");
    if (!metrics && per_row >= 0 && pni_csv_find(h, n, "Invocations") >= 0)
        return pni_error(r->err, PN_EVALUE, c->rec_line,
                         h[per_row].column,
                         "an nvprof summary (one metric or event a row, "
                         "averaged over a kernel's invocations): it has no "
                         "launch's grid, block or duration; profile with "
                         "nvprof --print-gpu-trace --csv and the metrics "
                         "(one row a launch)");
    if (!metrics && pni_csv_find(h, n, "Metric Name") >= 0 &&
        pni_csv_find(h, n, "Metric Value") >= 0)
        return pni_error(r->err, PN_EVALUE, c->rec_line, 0,
                         "an Nsight Compute details page (one metric a row): "
                         "export the raw page (ncu --csv --page raw)");
    if (!is_ncu && !is_nvprof)
        return pni_error(r->err, PN_EVALUE, c->rec_line, 0,
                         "neither an nvprof profile (no column gpu_name or "
                         "Grid.X) nor an Nsight Compute raw page (no column "
                         "Kernel Name, gpu__* or launch__*)");
    m->layout = is_ncu ? NCU : NVPROF;
    static const char *const nv_gpu[] = {"gpu_name", "Device"},
        *const nv_kernel[] = {"AppName", "Kernel", "Name"},
        *const ncu_gpu[] = {"gpu_name", "device__attribute_display_name",
                            "Device"},
        *const ncu_kernel[] = {"AppName", "Kernel Name", "Function Name"};
    const char *const *gpu = is_ncu ? ncu_gpu : nv_gpu;
    const char *const *kern = is_ncu ? ncu_kernel : nv_kernel;
    size_t ngpu = is_ncu ? 3 : 2;
    for (size_t k = 0; k < 3; k++) {
        m->gpu[k] = k < ngpu ? pni_csv_find(h, n, gpu[k]) : -1;
        m->kernel[k] = pni_csv_find(h, n, kern[k]);
    }
    if (m->gpu[0] < 0 && m->gpu[1] < 0 && m->gpu[2] < 0)
        return missing(r, m, is_ncu ? "naming the GPU (gpu_name, "
                                   "device__attribute_display_name or Device)"
                                 : "gpu_name (the GPU)");
    if (m->kernel[0] < 0 && m->kernel[1] < 0 && m->kernel[2] < 0)
        return missing(r, m, is_ncu ? "naming the kernel (AppName, Kernel Name "
                                   "or Function Name)"
                                 : "naming the kernel (AppName, Kernel or "
                                   "Name)");
    m->size = find_col(h, n, "Input.Size");
    const struct field_names *f = is_ncu ? ncu_fields : nvprof_fields;
    for (int k = 0; k < F_COUNT; k++)
        m->field[k] = find_any(h, n, f[k].names, ALIASES);
    const char *const *un = is_ncu ? ncu_unsigned : nvprof_unsigned;
    for (int k = 0; k < U_COUNT; k++)
        m->uns[k] = is_ncu ? pni_csv_find(h, n, un[k]) : find_col(h, n, un[k]);
    m->grid_size = m->block_size = -1;
    if (is_ncu) {
        static const char *const dur[] = {"gpu__time_duration.sum",
                                          "gpu__time_duration.avg",
                                          "gpu__time_duration"};
        m->duration = pni_csv_find(h, n, "Duration");
        m->time = find_any(h, n, dur, 3);
        if (m->uns[U_GX] < 0 || m->uns[U_GY] < 0 || m->uns[U_GZ] < 0) {
            m->grid_size = pni_csv_find(h, n, "Grid Size");
            if (m->grid_size < 0)
                return missing(r, m, "giving the grid (Grid Size, or "
                                  "launch__grid_dim_x, _y and _z)");
        }
        if (m->uns[U_BX] < 0 || m->uns[U_BY] < 0 || m->uns[U_BZ] < 0) {
            m->block_size = pni_csv_find(h, n, "Block Size");
            if (m->block_size < 0)
                return missing(r, m, "giving the block (Block Size, or "
                                  "launch__block_dim_x, _y and _z)");
        }
    } else {
        for (int k = U_GX; k <= U_BZ; k++)
            if (m->uns[k] < 0)
                return missing(r, m, un[k]);
    }
    if (m->uns[U_REGS] < 0)
        return missing(r, m, un[U_REGS]);
    if (m->uns[U_SMS] < 0)
        return missing(r, m, un[U_SMS]);
    /* every column read, once */
    long used[2 + 1 + F_COUNT + U_COUNT + 4];
    size_t nu = 0;
    /* of the names of the GPU and the kernel, the first found (the
     * others are read only when it is empty: nvprof's data sets repeat
     * Kernel and Device beside AppName and gpu_name) */
    for (int k = 0, g = 0, kk = 0; k < 3; k++) {
        if (!g && m->gpu[k] >= 0) { used[nu++] = m->gpu[k]; g = 1; }
        if (!kk && m->kernel[k] >= 0) { used[nu++] = m->kernel[k]; kk = 1; }
    }
    used[nu++] = m->size;
    for (int k = 0; k < F_COUNT; k++) used[nu++] = m->field[k];
    for (int k = 0; k < U_COUNT; k++) used[nu++] = m->uns[k];
    used[nu++] = m->grid_size;
    used[nu++] = m->block_size;
    if (is_ncu) {   /* nvprof's Duration is one of the fields */
        used[nu++] = m->duration;
        used[nu++] = m->time;
    }
    return pni_csv_unique(h, n, used, nu, r->err);
}

/* One row into l. */
static pn_status_t read_row(reader_t *r, const cols_t *m,
                            const pni_csv_t *c, pn_gpu_launch_t *l)
{
    const pni_csv_cell_t *row = c->cells;
    pn_status_t st;
    memset(l, 0, sizeof *l);
    snprintf(l->file, sizeof l->file, "%s", r->path);
    l->line = c->rec_line;
    l->repeats = 1;
    long first = -1; /* the first column that could have named it */
    for (int k = 0; k < 3 && !l->gpu[0]; k++)
        if (m->gpu[k] >= 0) {
            pni_csv_copy(l->gpu, sizeof l->gpu, &row[m->gpu[k]]);
            first = first < 0 ? m->gpu[k] : first;
        }
    if (!l->gpu[0])
        return bad_cell(r, m, first, &row[first],
                        "is empty: a launch needs its GPU's name");
    /* nvprof's Device: "GeForce GTX 970 (0)", the device's number after */
    size_t gl = strlen(l->gpu);
    if (gl > 4 && l->gpu[gl - 1] == ')') {
        size_t q = gl - 2;
        while (q > 0 && l->gpu[q] >= '0' && l->gpu[q] <= '9')
            q--;
        if (q + 2 < gl && q >= 2 && l->gpu[q] == '(' && l->gpu[q - 1] == ' ')
            l->gpu[q - 1] = '\0';
    }
    first = -1;
    for (int k = 0; k < 3 && !l->kernel[0]; k++)
        if (m->kernel[k] >= 0) {
            kernel_name(l->kernel, sizeof l->kernel, &row[m->kernel[k]]);
            first = first < 0 ? m->kernel[k] : first;
        }
    if (!l->kernel[0])
        return bad_cell(r, m, first, &row[first],
                        "is empty: a launch needs its kernel's name");
    l->input_size = NAN;
    if (m->size >= 0 &&
        (st = get_double(r, m, m->size, row, 0, &l->input_size)))
        return st;
    const struct field_names *f = m->layout == NCU ? ncu_fields : nvprof_fields;
    static const struct { int field; unsigned bit; } needed[] = {
        {F_WARPS, PN_GPU_NOCOL_WARPS}, {F_INST, PN_GPU_NOCOL_INST},
        {F_SHLD, PN_GPU_NOCOL_SHARED_LD}, {F_SHST, PN_GPU_NOCOL_SHARED_ST},
        {F_GLD, PN_GPU_NOCOL_GLOBAL_LD}, {F_GST, PN_GPU_NOCOL_GLOBAL_ST}};
    l->header_line = m->hline;
    for (size_t k = 0; k < sizeof needed / sizeof *needed; k++)
        if (m->field[needed[k].field] < 0)
            l->no_column |= needed[k].bit;
    for (int k = 0; k < F_COUNT; k++) {
        double v = NAN;
        if (m->field[k] >= 0 &&
            (st = get_double(r, m, m->field[k], row, f[k].pct, &v)))
            return st;
        *(double *)((char *)l + field_off[k]) = v;
    }
    /* where a refused prediction points: the first NA a count it needs */
    for (size_t k = 0; k < sizeof needed / sizeof *needed && !l->na_column; k++) {
        long i = m->field[needed[k].field];
        if (i >= 0 && isnan(*(double *)((char *)l + field_off[needed[k].field])))
            l->na_column = row[i].column;
    }
    if (m->layout == NCU) {
        double v = NAN;
        if (m->duration >= 0 &&
            (st = get_double(r, m, m->duration, row, 0, &v)))
            return st;
        if (isnan(v) && m->time >= 0) {
            if ((st = get_double(r, m, m->time, row, 0, &v)))
                return st;
            v *= m->time_scale;
        }
        l->measured_s = v;
    } else {
        l->measured_s *= m->nv_time_scale;
    }
    /* a time of 0, or one that underflows to a subnormal, is not a
     * measurement (a launch takes some time): unknown, as fit and eval
     * have always taken it, and not averaged into the repeats */
    if (!(l->measured_s >= DBL_MIN))
        l->measured_s = NAN;
    unsigned *dst[U_COUNT] = {&l->grid[0], &l->grid[1], &l->grid[2],
                              &l->block[0], &l->block[1], &l->block[2],
                              &l->regs_per_thread, &l->smem_per_block, NULL};
    unsigned dyn = 0;
    dst[U_SMD] = &dyn;
    for (int k = 0; k < U_COUNT; k++) {
        if (m->uns[k] < 0)
            continue;
        if ((k <= U_BZ && ((k <= U_GZ && m->grid_size >= 0) ||
                           (k >= U_BX && m->block_size >= 0))))
            continue;
        if ((st = get_unsigned(r, m, m->uns[k], row, k <= U_BZ ? 1 : 0,
                               dst[k])))
            return st;
    }
    if (m->grid_size >= 0 && (st = get_dim3(r, m, m->grid_size, row, l->grid)))
        return st;
    if (m->block_size >= 0 &&
        (st = get_dim3(r, m, m->block_size, row, l->block)))
        return st;
    if (m->smem_scale[0] != 1 || m->smem_scale[1] != 1) {
        /* nvprof's units row gave KB or MB */
        double b = l->smem_per_block * m->smem_scale[0],
               d = dyn * m->smem_scale[1];
        if (b + d > UINT_MAX)
            return pni_error(r->err, PN_EVALUE, c->rec_line, 0,
                             "the shared memory of a block is more than %u "
                             "bytes", UINT_MAX);
        l->smem_per_block = (unsigned)b;
        dyn = (unsigned)d;
    }
    if (dyn > UINT_MAX - l->smem_per_block)
        return pni_error(r->err, PN_EVALUE, c->rec_line, 0,
                         "static and dynamic shared memory add up to more "
                         "than %u bytes", UINT_MAX);
    l->smem_per_block += dyn;
    return PN_OK;
}

/* The merge: launches with their sums and numbers of values per field. */
typedef struct {
    pn_gpu_launch_t *v;
    double (*sum)[F_COUNT];
    unsigned (*cnt)[F_COUNT];
    size_t n, cap, cap_sum, cap_cnt;
    pni_hash_t index;
    pni_arena_t keys;
} merge_t;

static pn_status_t merge_add(merge_t *g, reader_t *r, const pn_gpu_launch_t *l)
{
    char key[512];
    snprintf(key, sizeof key, "%s\x1f%s\x1f%.17g\x1f%u,%u,%u\x1f%u,%u,%u",
             l->gpu, l->kernel, l->input_size, l->grid[0], l->grid[1],
             l->grid[2], l->block[0], l->block[1], l->block[2]);
    const pni_hentry_t *e = pni_hash_get(&g->index, key);
    size_t i;
    if (e) {
        i = e->index;
        if (g->v[i].repeats == UINT_MAX)
            return pni_error(r->err, PN_EVALUE, l->line, 0,
                             "more than %u repeats of one launch", UINT_MAX);
        g->v[i].repeats++;
    } else {
        i = g->n;
        if (pni_grow((void **)&g->v, &g->cap, i + 1, sizeof *g->v) ||
            pni_grow((void **)&g->sum, &g->cap_sum, i + 1, sizeof *g->sum) ||
            pni_grow((void **)&g->cnt, &g->cap_cnt, i + 1, sizeof *g->cnt))
            return pni_error(r->err, PN_ENOMEM, 0, 0, "out of memory");
        const char *k = pni_arena_strdup(&g->keys, key);
        if (!k || pni_hash_put(&g->index, k, 0, i))
            return pni_error(r->err, PN_ENOMEM, 0, 0, "out of memory");
        g->v[i] = *l;
        memset(g->sum[i], 0, sizeof g->sum[i]);
        memset(g->cnt[i], 0, sizeof g->cnt[i]);
        g->n++;
    }
    for (int k = 0; k < F_COUNT; k++) {
        double v = *(const double *)((const char *)l + field_off[k]);
        if (!isnan(v)) {
            g->sum[i][k] += v;
            g->cnt[i][k]++;
        }
    }
    return PN_OK;
}

static void merge_free(merge_t *g)
{
    free(g->v);
    free(g->sum);
    free(g->cnt);
    pni_hash_free(&g->index);
    pni_arena_free(&g->keys);
}

/* Skips blank lines and Nsight Compute's "==PROF==" messages before the
 * header; *got 0 at the end of the file. */
static pn_status_t next_header(pni_csv_t *c, int *got)
{
    pn_status_t st;
    while (!(st = pni_csv_next(c, got)) && *got) {
        if (pni_csv_blank(c))
            continue;
        const pni_csv_cell_t *h = &c->cells[0];
        if (!h->quoted && h->len >= 2 && h->s[0] == '=' && h->s[1] == '=')
            continue;
        break;
    }
    return st;
}

/* A row with the header's number of cells, or *got 0 at the end. */
static pn_status_t next_row(reader_t *r, size_t ncols, unsigned long hline,
                            int *got)
{
    pni_csv_t *c = &r->csv;
    pn_status_t st;
    while (!(st = pni_csv_next(c, got)) && *got && pni_csv_blank(c))
        ;
    if (st || !*got || c->n == ncols)
        return st;
    if (c->n > ncols)
        return pni_error(r->err, PN_EVALUE, c->cells[ncols].line,
                         c->cells[ncols].column,
                         "a row of %zu cells, but the header (line %lu) "
                         "has %zu", c->n, hline, ncols);
    return pni_error(r->err, PN_EVALUE, c->end_line, c->end_column,
                     "a row of %zu cells, but the header (line %lu) has %zu",
                     c->n, hline, ncols);
}

/* nvprof's units row (no cell a number): the unit of Duration (s, ms,
 * us, ns) and of the shared memory columns (B, KB, MB). *got: it was one. */
static pn_status_t nvprof_units(reader_t *r, cols_t *m, const pni_csv_t *c,
                                int *got)
{
    *got = 0;
    for (size_t i = 0; i < c->n; i++) {
        double v;
        if (pni_csv_number(&c->cells[i], &v) == 0)
            return PN_OK;
    }
    *got = 1;
    long d = m->field[F_TIME];
    char q[256];
    if (d >= 0 && c->cells[d].len && time_unit(&c->cells[d], &m->nv_time_scale)) {
        const pni_csv_cell_t *u = &c->cells[d];
        return pni_error(r->err, PN_EVALUE, u->line, u->column,
                         "unknown time unit '%s' of Duration (s, ms, us, ns)",
                         pni_quote(q, sizeof q, u->s, u->len, 40));
    }
    static const struct { const char *name; double b; } bytes[] = {
        {"", 1}, {"B", 1}, {"KB", 1024}, {"MB", 1024 * 1024}};
    for (int k = U_SMS; k <= U_SMD; k++) {
        long i = m->uns[k];
        if (i < 0)
            continue;
        char u[16];
        pni_csv_copy(u, sizeof u, &c->cells[i]);
        size_t j = 0;
        while (j < 4 && strcmp(u, bytes[j].name))
            j++;
        if (j == 4)
            return pni_error(r->err, PN_EVALUE, c->cells[i].line,
                             c->cells[i].column,
                             "unknown unit '%s' of shared memory (B, KB, MB)",
                             pni_quote(q, sizeof q, c->cells[i].s,
                                       c->cells[i].len, 40));
        m->smem_scale[k - U_SMS] = bytes[j].b;
    }
    return PN_OK;
}

/* A row of nvprof's trace that is not a kernel launch: its name is in
 * brackets ("[CUDA memcpy HtoD]", "[CUDA memset]"). */
static int api_row(const cols_t *m, const pni_csv_t *c)
{
    for (int k = 0; k < 3; k++) {
        long i = m->kernel[k];
        if (i >= 0 && c->cells[i].len)
            return c->cells[i].s[0] == '[';
    }
    return 0;
}

pn_status_t pn_gpu_profile_read(const char *path, pn_gpu_launch_t **out,
                                size_t *n, pn_error_t *err)
{
    const char *name = path && strcmp(path, "-") ? path : "-";
    pni_error_begin(err, name);
    if (!out || !n)
        return pni_error(err, PN_EINVAL, 0, 0, "no place for the result");
    *out = NULL;
    *n = 0;
    reader_t r = {.err = err, .path = name};
    pn_status_t st = pni_csv_open(&r.csv, path, "a profile", err);
    if (st)
        return st;
    pni_csv_t *c = &r.csv;
    merge_t g;
    memset(&g, 0, sizeof g);
    pni_hash_init(&g.index);
    pni_arena_init(&g.keys);
    pni_csv_cell_t *hdr = NULL;
    int got;
    if ((st = next_header(c, &got)))
        goto done;
    if (!got) {
        st = pni_error(err, PN_EVALUE, 0, 0, "an empty file (no header row)");
        goto done;
    }
    unsigned long hline = c->rec_line;
    size_t ncols = c->n;
    /* the header is kept: the next record reuses the cell array */
    hdr = malloc(ncols * sizeof *hdr);
    if (!hdr) {
        st = pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
        goto done;
    }
    memcpy(hdr, c->cells, ncols * sizeof *hdr);
    pni_csv_t hc = *c;
    hc.cells = hdr;
    cols_t m;
    if ((st = map_columns(&r, &hc, &m)))
        goto done;
    int first = 1;
    for (;;) {
        if ((st = next_row(&r, ncols, hline, &got)))
            goto done;
        if (!got)
            break;
        if (first && m.layout == NVPROF && m.spaced) {
            first = 0;
            if ((st = nvprof_units(&r, &m, c, &got)))
                goto done;
            if (got)
                continue;
        }
        /* nvprof's trace has a row for each memory copy and set too
         * ("[CUDA memcpy HtoD]"): not a kernel launch */
        if (m.layout == NVPROF && m.spaced && api_row(&m, c))
            continue;
        if (first && m.layout == NCU) {
            first = 0;
            /* the units row: no cell of it is a number */
            int units = 1;
            for (size_t i = 0; i < c->n && units; i++) {
                double v;
                if (pni_csv_number(&c->cells[i], &v) == 0)
                    units = 0;
            }
            if (units) {
                if (m.time >= 0 &&
                    time_unit(&c->cells[m.time], &m.time_scale)) {
                    char q[256];
                    const pni_csv_cell_t *u = &c->cells[m.time];
                    st = pni_error(err, PN_EVALUE, u->line, u->column,
                                   "unknown time unit '%s' of %s (ns, us, "
                                   "ms, s, nsecond, usecond, msecond, "
                                   "second)",
                                   pni_quote(q, sizeof q, u->s, u->len, 40),
                                   "gpu__time_duration");
                    goto done;
                }
                continue;
            }
        }
        first = 0;
        pn_gpu_launch_t l;
        if ((st = read_row(&r, &m, c, &l)) || (st = merge_add(&g, &r, &l)))
            goto done;
    }
    if (!g.n) {
        st = pni_error(err, PN_EVALUE, hline, 0,
                       "a header but no launch rows");
        goto done;
    }
    for (size_t i = 0; i < g.n; i++)
        for (int k = 0; k < F_COUNT; k++)
            *(double *)((char *)&g.v[i] + field_off[k]) =
                g.cnt[i][k] ? g.sum[i][k] / g.cnt[i][k] : NAN;
    *out = g.v;
    *n = g.n;
    g.v = NULL;
done:
    free(hdr);
    merge_free(&g);
    pni_csv_close(c);
    return st;
}

void pn_gpu_launches_free(pn_gpu_launch_t *launches) { free(launches); }

/* ---- missing counts from the same kernel at other sizes ------------------ */

/* The per-request ratios that describe a kernel's access pattern: global
 * load and store transactions per request, L2 read and write transactions
 * per request, DRAM read and write transactions per request, and the L1
 * hit rate.  An index into the table of pn_gpu_launches_impute(). */
typedef struct {
    size_t off;              /* the count's field */
    size_t per;              /* the field it is a ratio of (0: copied as it is) */
    unsigned flag;
} imp_field_t;

#define OFF(f) offsetof(pn_gpu_launch_t, f)
static const imp_field_t imp_fields[] = {
    {OFF(global_ld_trans), OFF(global_ld), PN_GPU_IMPUTED_TRANS},
    {OFF(global_st_trans), OFF(global_st), PN_GPU_IMPUTED_TRANS},
    {OFF(l2_read), OFF(global_ld), PN_GPU_IMPUTED_L2},
    {OFF(l2_write), OFF(global_st), PN_GPU_IMPUTED_L2},
    {OFF(dram_read), OFF(global_ld), PN_GPU_IMPUTED_DRAM},
    {OFF(dram_write), OFF(global_st), PN_GPU_IMPUTED_DRAM},
    {OFF(l1_hit), 0, PN_GPU_IMPUTED_L1},
};
#undef OFF

static double fld(const pn_gpu_launch_t *l, size_t off)
{
    double v;
    memcpy(&v, (const char *)l + off, sizeof v);
    return v;
}

static int same_pattern(const pn_gpu_launch_t *a, const pn_gpu_launch_t *b)
{
    return !strcmp(a->gpu, b->gpu) && !strcmp(a->kernel, b->kernel) &&
           !memcmp(a->block, b->block, sizeof a->block);
}

typedef struct {
    pn_gpu_launch_t *l;
    size_t i;                /* its place in the array: file order in a group */
} imp_ref_t;

static int imp_cmp(const void *pa, const void *pb)
{
    const imp_ref_t *x = pa, *y = pb;
    int c = strcmp(x->l->gpu, y->l->gpu);
    if (!c) c = strcmp(x->l->kernel, y->l->kernel);
    if (!c) c = memcmp(x->l->block, y->l->block, sizeof x->l->block);
    if (!c) c = (x->i > y->i) - (x->i < y->i);
    return c;
}

/* Fills the launches of one (gpu, kernel, block) group. */
static size_t impute_group(const imp_ref_t *g, size_t m)
{
    size_t filled = 0;
    for (size_t f = 0; f < sizeof imp_fields / sizeof *imp_fields; f++) {
        const imp_field_t *F = &imp_fields[f];
        for (size_t a = 0; a < m; a++) {
            pn_gpu_launch_t *l = g[a].l;
            if (fld(l, F->off) == fld(l, F->off)) continue;       /* known */
            double per = F->per ? fld(l, F->per) : 1.0;
            if (!(per >= 0)) continue;
            /* the nearest size (by the ratio of sizes) that had both */
            const pn_gpu_launch_t *best = NULL;
            double bd = INFINITY;
            for (size_t b = 0; b < m; b++) {
                const pn_gpu_launch_t *o = g[b].l;
                if (b == a || (o->imputed & F->flag)) continue;
                double v = fld(o, F->off), p = F->per ? fld(o, F->per) : 1.0;
                if (!(v >= 0) || !(p > 0)) continue;
                double d = (l->input_size > 0 && o->input_size > 0)
                         ? fabs(log(l->input_size / o->input_size)) : 0;
                if (d < bd) { bd = d; best = o; }
            }
            if (!best) continue;
            double v = fld(best, F->off) / (F->per ? fld(best, F->per) : 1.0) * per;
            memcpy((char *)l + F->off, &v, sizeof v);
            l->imputed |= F->flag;
            filled++;
        }
    }
    return filled;
}

size_t pn_gpu_launches_impute(pn_gpu_launch_t *ls, size_t n)
{
    if (!ls || n == 0) return 0;
    imp_ref_t *r = malloc(n * sizeof *r);
    if (!r) return 0;            /* out of memory: nothing filled */
    for (size_t i = 0; i < n; i++) r[i] = (imp_ref_t){&ls[i], i};
    qsort(r, n, sizeof *r, imp_cmp);
    size_t filled = 0;
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && same_pattern(r[a].l, r[b].l); b++) {}
        filled += impute_group(r + a, b - a);
    }
    free(r);
    return filled;
}
