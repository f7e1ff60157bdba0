/*
 * The profile and device readers of gpu/ against fixtures of both layouts
 * (tests/data/gpu: rows cut from real profiles, and hand-made files): every
 * mapped column, NA cells, repeated rows, thousands separators, units,
 * quoted cells, each error with its file, line and column; the device
 * table, name lookups and the compute capability fallback.  The values
 * expected here are read off the fixtures by eye, not from the reader.
 */
#include <config.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pn.h"
#include "testutil.h"

static char *data(const char *name)
{
    const char *s = getenv("srcdir");
    char *p = malloc(4096);
    snprintf(p, 4096, "%s/data/gpu/%s", s ? s : ".", name);
    return p;
}

/* Reads a fixture that must read well. */
static pn_gpu_launch_t *read_ok(const char *name, size_t *n)
{
    char *path = data(name);
    pn_gpu_launch_t *l = NULL;
    pn_error_t err;
    char buf[1200];
    pn_status_t st = pn_gpu_profile_read(path, &l, n, &err);
    ck_assert_msg(st == PN_OK, "%s: %s", name,
                  pn_error_format(&err, buf, sizeof buf));
    ck_assert_int_eq(err.code, PN_OK);
    ck_assert_ptr_nonnull(l);
    ck_assert_str_eq(l[0].file, path);
    free(path);
    return l;
}

/* Relative equality (the fixtures' numbers are decimal text). */
#define NEAR(a, b)                                                     \
    ck_assert_msg(fabs((double)(a) - (double)(b)) <=                       \
                      1e-12 * fabs((double)(b)),                           \
                  "%s = %.17g, not %.17g", #a, (double)(a), (double)(b))

static void dims(const pn_gpu_launch_t *l, unsigned gx, unsigned gy,
                 unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
    ck_assert_uint_eq(l->grid[0], gx);
    ck_assert_uint_eq(l->grid[1], gy);
    ck_assert_uint_eq(l->grid[2], gz);
    ck_assert_uint_eq(l->block[0], bx);
    ck_assert_uint_eq(l->block[1], by);
    ck_assert_uint_eq(l->block[2], bz);
}

/* Kepler (GTX-680): gld_request/gst_request, L1.Global.Hit.Rate and
 * L2.Hit.Rate..L1.Reads.; NA cells. */
START_TEST(nvprof_kepler)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-kepler.csv", &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(l[0].gpu, "GTX-680");
    ck_assert_str_eq(l[0].kernel, "matMul_gpu_uncoalesced"); /* AppName */
    ck_assert_uint_eq(l[0].line, 2);
    NEAR(l[0].input_size, 256);
    dims(&l[0], 32, 32, 1, 8, 8, 1);
    ck_assert_uint_eq(l[0].regs_per_thread, 17);
    ck_assert_uint_eq(l[0].smem_per_block, 0);
    ck_assert_uint_eq(l[0].repeats, 1);
    NEAR(l[0].measured_s, 0.00124207);
    NEAR(l[0].warps, 2048);
    NEAR(l[0].inst, 6088704);
    NEAR(l[0].shared_ld, 0);
    NEAR(l[0].shared_st, 0);
    NEAR(l[0].global_ld, 1048576);
    NEAR(l[0].global_st, 2048);
    NEAR(l[0].global_ld_trans, 4718592);
    NEAR(l[0].global_st_trans, 16384);
    NEAR(l[0].dram_read, 13527);
    NEAR(l[0].dram_write, 16250);
    NEAR(l[0].l2_read, 4718722);
    NEAR(l[0].l2_write, 16732);
    NEAR(l[0].l1_hit, 0);
    NEAR(l[0].l2_hit, 0.99710592);
    NEAR(l[0].branches, 540672);   /* Executed.Control.Flow.Instructions */
    /* line 4: inst_executed, Global.Load.Transactions, L2.Read.Transactions
     * and L2.Hit.Rate..L1.Reads. are NA; the texture hit rate beside it (0)
     * is not taken instead */
    ck_assert_uint_eq(l[2].line, 4);
    ck_assert(isnan(l[2].inst));
    ck_assert(isnan(l[2].global_ld_trans));
    ck_assert(isnan(l[2].l2_read));
    ck_assert(isnan(l[2].l2_hit));
    NEAR(l[2].warps, 1722368);
    NEAR(l[2].global_ld, 25573720064.0);
    NEAR(l[2].dram_read, 12314981162.0);
    NEAR(l[2].measured_s, 29.710652);
    /* line 5: DRAM reads NA too */
    ck_assert(isnan(l[3].dram_read));
    NEAR(l[3].dram_write, 21354084);
    NEAR(l[3].inst, 132402020352.0);
    dims(&l[3], 448, 448, 1, 16, 16, 1);
    pn_gpu_launches_free(l);
}
END_TEST

/* Maxwell (GTX-970): global_load/global_store, Global.Hit.Rate and
 * L2.Hit.Rate..Texture.Reads., a rate above 100% taken as 1. */
START_TEST(nvprof_maxwell)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-maxwell.csv", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(l[0].gpu, "GTX-970");
    ck_assert_str_eq(l[0].kernel, "matrix_sum_normal");
    NEAR(l[0].global_ld, 4096);
    NEAR(l[0].global_st, 2048);
    NEAR(l[0].global_ld_trans, 65536);
    NEAR(l[0].l1_hit, 0.5);
    NEAR(l[0].l2_hit, 1);
    NEAR(l[0].dram_read, 0);
    NEAR(l[0].branches, 4096);
    NEAR(l[1].l2_hit, 1); /* 102.082898 % */
    NEAR(l[1].l1_hit, 0);
    NEAR(l[1].measured_s, 0.005050065);
    dims(&l[1], 128, 128, 1, 32, 32, 1);
    pn_gpu_launches_free(l);
}
END_TEST

/* Quadro: rows 2 and 4, 3 and 5 repeat a launch: their mean, in the order
 * of first appearance. */
START_TEST(nvprof_repeats)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-repeats.csv", &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(l[0].repeats, 2);
    ck_assert_uint_eq(l[1].repeats, 2);
    ck_assert_uint_eq(l[2].repeats, 1);
    ck_assert_uint_eq(l[0].line, 2);
    ck_assert_uint_eq(l[1].line, 3);
    ck_assert_uint_eq(l[2].line, 6);
    NEAR(l[0].input_size, 256);
    NEAR(l[1].input_size, 512);
    NEAR(l[2].input_size, 768);
    NEAR(l[0].measured_s, 7.328e-06);
    NEAR(l[1].measured_s, (2.944e-05 + 2.9056e-05) / 2);
    NEAR(l[2].measured_s, 6.2337e-05);
    NEAR(l[1].inst, 204800);
    pn_gpu_launches_free(l);
}
END_TEST

/* A hand-made nvprof file: the kernel from "Kernel" without its
 * parameters, no Dynamic.SMem column (0), an exponent, both global load
 * columns (global_load is taken, for every row, even where it is NA), a
 * blank last line. */
START_TEST(nvprof_handmade)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-handmade.csv", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(l[0].kernel, "k");
    NEAR(l[0].input_size, 1000);
    NEAR(l[1].input_size, 2000);
    ck_assert_uint_eq(l[0].smem_per_block, 0);
    ck_assert_uint_eq(l[0].regs_per_thread, 10);
    ck_assert(isnan(l[0].inst));
    NEAR(l[1].inst, 640);
    NEAR(l[0].global_ld, 7);
    ck_assert(isnan(l[1].global_ld));
    ck_assert(isnan(l[0].warps)); /* no such column */
    ck_assert(isnan(l[0].l2_hit));
    NEAR(l[0].measured_s, 1.5e-6);
    pn_gpu_launches_free(l);
}
END_TEST

/* nvprof's own trace (--print-gpu-trace --csv with metrics): spaced
 * headers, a units row (Duration in us, shared memory in KB), the
 * device's number after its name, memory copies that are not launches. */
START_TEST(nvprof_trace)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-trace.csv", &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(l[0].gpu, "GeForce GTX 970");
    ck_assert_str_eq(l[0].kernel, "stencil");
    dims(&l[0], 64, 64, 1, 16, 16, 1);
    ck_assert_uint_eq(l[0].regs_per_thread, 32);
    ck_assert_uint_eq(l[0].smem_per_block, 2 * 1024 + 256);
    ck_assert_uint_eq(l[0].repeats, 2);
    ck_assert_uint_eq(l[0].line, 7);
    NEAR(l[0].measured_s, 45.056e-6);
    NEAR(l[0].warps, 32768);
    NEAR(l[0].inst, 2621440);
    NEAR(l[0].shared_ld, 196608);
    NEAR(l[0].global_st, 32768);
    NEAR(l[0].branches, 98304);   /* Executed Control Flow Instructions */
    ck_assert(isnan(l[0].input_size));
    ck_assert(isnan(l[0].global_ld_trans));
    ck_assert_uint_eq(l[0].no_column, 0);
    pn_gpu_launches_free(l);
}
END_TEST

/* Pascal's nvprof metric names map to the same fields as Kepler's and
 * Maxwell's events; an NA cell stays unknown. */
START_TEST(nvprof_pascal)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-pascal.csv", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(l[0].gpu, "Tesla-P100");
    ck_assert_str_eq(l[0].kernel, "stencil");
    dims(&l[0], 64, 64, 1, 16, 16, 1);
    ck_assert_uint_eq(l[0].smem_per_block, 2048);
    NEAR(l[0].warps, 32768);
    NEAR(l[0].inst, 2621440);
    NEAR(l[0].shared_ld, 196608);    /* inst_executed_shared_loads */
    NEAR(l[0].shared_st, 32768);     /* inst_executed_shared_stores */
    NEAR(l[0].global_ld, 65536);     /* inst_executed_global_loads */
    NEAR(l[0].global_st, 32768);     /* inst_executed_global_stores */
    NEAR(l[0].global_ld_trans, 262144);
    NEAR(l[0].global_st_trans, 131072);
    NEAR(l[0].dram_read, 200000);
    NEAR(l[0].dram_write, 131072);
    NEAR(l[0].l2_read, 262144);
    NEAR(l[0].l2_write, 131072);
    NEAR(l[0].l1_hit, 0.255);        /* global_hit_rate */
    NEAR(l[0].l2_hit, 0.125);        /* l2_tex_read_hit_rate */
    NEAR(l[0].branches, 98304);      /* cf_executed */
    ck_assert_uint_eq(l[0].no_column, 0);
    ck_assert_uint_eq(l[0].header_line, 1);
    ck_assert(isnan(l[1].global_st));
    ck_assert(isnan(l[1].l2_hit));
    /* a row with an NA count the model needs: refused at its line, the
     * count named */
    pn_gpu_device_t d;
    memset(&d, 0, sizeof d);
    strcpy(d.name, "Tesla-P100");
    d.cc_major = 6;
    d.clock_mhz = 1328;
    d.sms = 56;
    d.cores_per_sm = 64;
    d.bandwidth_gbs = 732;
    pn_gpu_shape_t s;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_shape(&l[0], &d, &s, &err), PN_OK);
    ck_assert_int_eq(pn_gpu_shape(&l[1], &d, &s, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 3);
    ck_assert_msg(strstr(err.text, "the profile has no global stores (NA)"),
                  "%s", err.text);
    pn_gpu_launches_free(l);
}
END_TEST

/* Columns a prediction needs that the file lacks: the file reads (a
 * column may be absent), the counts are unknown, never 0, and a
 * prediction is refused at the header, naming every missing one. */
START_TEST(nvprof_no_counts)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-no-counts.csv", &n);
    ck_assert_uint_eq(n, 1);
    ck_assert(isnan(l[0].warps));
    ck_assert(isnan(l[0].shared_st));
    ck_assert(isnan(l[0].global_st));
    ck_assert_uint_eq(l[0].no_column, PN_GPU_NOCOL_WARPS |
                                      PN_GPU_NOCOL_SHARED_ST |
                                      PN_GPU_NOCOL_GLOBAL_ST);
    pn_gpu_device_t d;
    memset(&d, 0, sizeof d);
    strcpy(d.name, "Tesla-P100");
    d.cc_major = 6;
    d.clock_mhz = 1328;
    d.sms = 56;
    d.bandwidth_gbs = 732;
    pn_gpu_shape_t s;
    pn_error_t err;
    char buf[1200];
    ck_assert_int_eq(pn_gpu_shape(&l[0], &d, &s, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 1);
    ck_assert_uint_eq(err.column, 0);
    pn_error_format(&err, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "nvprof-no-counts.csv:1"), "%s", buf);
    const char *want[] = {"warps launched (warps_launched",
                          "shared stores (shared_store",
                          "global stores (gst_request"};
    for (int k = 0; k < 3; k++)
        ck_assert_msg(strstr(err.text, want[k]), "'%s' lacks '%s'", err.text,
                      want[k]);
    ck_assert_ptr_null(strstr(err.text, "instructions executed"));
    ck_assert_ptr_null(strstr(err.text, "shared loads"));
    pn_gpu_launches_free(l);
}
END_TEST

/* Nsight Compute on an H100 (rows of a real raw page, units row "ns",
 * thousands separators). */
START_TEST(ncu_real)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("ncu-h100.csv", &n);
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(l[0].gpu, "NVIDIA H100 80GB HBM3");
    ck_assert_str_eq(l[0].kernel, "vectorAdd");
    ck_assert_uint_eq(l[0].line, 3);
    ck_assert(isnan(l[0].input_size));
    dims(&l[0], 2048, 1, 1, 64, 1, 1);
    ck_assert_uint_eq(l[0].regs_per_thread, 16);
    ck_assert_uint_eq(l[0].smem_per_block, 0);
    NEAR(l[0].measured_s, 3904e-9);
    NEAR(l[0].warps, 4096);
    NEAR(l[0].inst, 81920);
    NEAR(l[0].shared_ld, 0);
    NEAR(l[0].global_ld, 8192);
    NEAR(l[0].global_st, 4096);
    NEAR(l[0].global_ld_trans, 32768);
    NEAR(l[0].global_st_trans, 16384);
    NEAR(l[0].dram_read, 32856);
    NEAR(l[0].dram_write, 0);
    ck_assert(isnan(l[0].l2_read)); /* lts__t_sectors_op_read: not profiled */
    ck_assert(isnan(l[0].l2_write));
    NEAR(l[0].l1_hit, 0);
    NEAR(l[0].l2_hit, 0.5892);
    ck_assert(isnan(l[0].branches)); /* smsp__inst_executed_op_branch: not profiled */
    ck_assert_str_eq(l[2].kernel, "dotProd");
    NEAR(l[2].shared_ld, 51200);
    NEAR(l[2].shared_st, 28672);
    ck_assert_str_eq(l[3].kernel, "subSeqMax");
    ck_assert_uint_eq(l[3].smem_per_block, 4096); /* "4,096" */
    ck_assert_uint_eq(l[3].regs_per_thread, 32);
    NEAR(l[3].measured_s, 6464e-9);
    ck_assert_str_eq(l[4].kernel, "matMul_gpu_sharedmem");
    dims(&l[4], 32, 32, 1, 8, 8, 1);
    NEAR(l[4].measured_s, 22208e-9);
    pn_gpu_launches_free(l);
}
END_TEST

/* The same rows with AppName, Input.Size and Duration appended: these
 * win. */
START_TEST(ncu_joined)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("ncu-h100-joined.csv", &n);
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(l[0].kernel, "vectorAdd");
    NEAR(l[0].input_size, 131072);
    NEAR(l[0].measured_s, 8.28799978e-06);
    NEAR(l[4].input_size, 256);
    NEAR(l[4].measured_s, 2.12159995e-05);
    ck_assert_str_eq(l[4].kernel, "matMul_gpu_sharedmem");
    pn_gpu_launches_free(l);
}
END_TEST

/* Nsight Compute's standard output on an H200 as it is (the "==PROF=="
 * lines before the header), with other metric names: the sm__sass_ shared
 * load count, the L2 sectors read and written. */
START_TEST(ncu_stdout)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("ncu-h200-stdout.csv", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(l[0].gpu, "NVIDIA H200");
    ck_assert_str_eq(l[0].kernel, "vectorAdd");
    ck_assert_uint_eq(l[0].line, 5);
    dims(&l[1], 512, 1, 1, 256, 1, 1);
    NEAR(l[0].measured_s, 3648e-9);
    NEAR(l[1].measured_s, 2816e-9);
    NEAR(l[0].inst, 81920);
    NEAR(l[0].shared_ld, 0);         /* sm__sass_inst_executed_op_shared_ld */
    ck_assert(isnan(l[0].shared_st)); /* not profiled */
    NEAR(l[0].l2_read, 50125);
    NEAR(l[0].l2_write, 24364);
    NEAR(l[1].l2_hit, 0.4178);
    pn_gpu_launches_free(l);
}
END_TEST

/* A hand-made raw page: byte order mark, "==PROF==" lines, CRLF, "Grid
 * Size"/"Block Size" only, usecond, thousands separators, a template
 * kernel, a quoted cell with a comma and doubled quotes, one spanning two
 * lines, n/a and empty cells, two rows of one launch. */
START_TEST(ncu_handmade)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("ncu-handmade.csv", &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(l[0].kernel, "scale<(int)2>");
    ck_assert_uint_eq(l[0].line, 5);
    ck_assert_uint_eq(l[0].repeats, 2);
    dims(&l[0], 1024, 2, 1, 256, 1, 1);
    ck_assert_uint_eq(l[0].regs_per_thread, 32);
    ck_assert_uint_eq(l[0].smem_per_block, 1024 + 2048);
    NEAR(l[0].measured_s, 1250e-6);      /* (1,234.5 + 1,265.5) / 2 us */
    NEAR(l[0].inst, 1234568);            /* (1,234,567 + 1,234,569) / 2 */
    NEAR(l[0].warps, 8192);
    NEAR(l[0].dram_read, 100);           /* n/a and 100: the one value */
    NEAR(l[0].l2_hit, 0.6);              /* (58.5 + 61.5) / 2 % */
    ck_assert(isnan(l[0].shared_ld));
    ck_assert(isnan(l[0].input_size));
    ck_assert_str_eq(l[1].kernel, "copy");
    ck_assert_uint_eq(l[1].line, 7);     /* its Host Name spans 7 and 8 */
    ck_assert_uint_eq(l[2].line, 9);
    NEAR(l[1].measured_s, 2e-6);
    NEAR(l[2].measured_s, 0.5e-6);
    NEAR(l[2].dram_read, 32);
    ck_assert(isnan(l[2].l2_hit));       /* an empty cell */
    pn_gpu_launches_free(l);
}
END_TEST

typedef struct {
    const char *file;
    unsigned long line, column;
    const char *text;
} bad_t;

static const bad_t bad_profiles[] = {
    {"unterminated.csv", 2, 9, "never closed"},
    {"after-quote.csv", 2, 20, "text after the closing quote"},
    {"quote-inside.csv", 2, 15, "a double quote inside an unquoted cell"},
    {"short-row.csv", 3, 40, "a row of 11 cells, but the header (line 1) has 12"},
    {"long-row.csv", 3, 43, "a row of 13 cells, but the header (line 1) has 12"},
    {"not-a-number.csv", 3, 41, "column 'warps_launched': '12x' is not a number"},
    {"negative.csv", 2, 36, "column 'Duration': '-1e-6' is negative"},
    {"na-grid.csv", 2, 19, "column 'Grid.X': 'NA' is missing"},
    {"zero-block.csv", 2, 25, "column 'Block.X': '0' is out of range"},
    {"fraction.csv", 2, 32, "'Registers.Per.Thread': '8.5' is not a whole number"},
    {"no-gpu-name.csv", 3, 1, "column 'gpu_name': '' is empty"},
    {"no-grid-column.csv", 1, 0, "no column Grid.Z in the header"},
    {"neither.csv", 1, 0, "neither an nvprof profile"},
    {"details-page.csv", 1, 0, "export the raw page (ncu --csv --page raw)"},
    {"empty.csv", 0, 0, "an empty file"},
    {"header-only.csv", 1, 0, "a header but no launch rows"},
    {"ncu-unit.csv", 2, 47, "unknown time unit 'furlong'"},
    {"ncu-no-block.csv", 1, 0, "no column giving the block (Block Size"},
    {"ncu-dim.csv", 3, 27, "'Grid Size': '(2048, 1)' is not a size"},
    {"ncu-thousands.csv", 3, 63, "'8,19,20' is not a number"},
    {"nvprof-summary.csv", 3, 33, "an nvprof summary (one metric or event a row"},
    {"nvprof-unit.csv", 2, 4, "unknown time unit 'fortnight' of Duration"},
    {"nvprof-no-regs.csv", 1, 0, "no column Registers Per Thread in the header"},
    {"nvprof-smem-unit.csv", 2, 14, "unknown unit 'GB' of shared memory"},
};

static void check_error(const char *what, pn_status_t st, const pn_error_t *err,
                        const char *path, const bad_t *b)
{
    char buf[1200];
    pn_error_format(err, buf, sizeof buf);
    ck_assert_msg(st == PN_EVALUE, "%s: status %s (%s)", what,
                  pn_status_name(st), buf);
    ck_assert_int_eq(err->code, PN_EVALUE);
    ck_assert_str_eq(err->file, path);
    ck_assert_msg(err->line == b->line && err->column == b->column,
                  "%s: at %lu:%lu, not %lu:%lu (%s)", what, err->line,
                  err->column, b->line, b->column, buf);
    ck_assert_msg(strstr(err->text, b->text), "%s: '%s' lacks '%s'", what,
                  err->text, b->text);
}

START_TEST(profile_errors)
{
    for (size_t i = 0; i < sizeof bad_profiles / sizeof *bad_profiles; i++) {
        const bad_t *b = &bad_profiles[i];
        char name[256];
        snprintf(name, sizeof name, "bad/%s", b->file);
        char *path = data(name);
        pn_gpu_launch_t *l = (pn_gpu_launch_t *)1;
        size_t n = 7;
        pn_error_t err;
        pn_status_t st = pn_gpu_profile_read(path, &l, &n, &err);
        check_error(b->file, st, &err, path, b);
        ck_assert_ptr_null(l);
        ck_assert_uint_eq(n, 0);
        free(path);
    }
}
END_TEST

START_TEST(profile_io_errors)
{
    pn_gpu_launch_t *l;
    size_t n;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_profile_read("/nonexistent/p.csv", &l, &n, &err),
                     PN_EIO);
    ck_assert_str_eq(err.file, "/nonexistent/p.csv");
    ck_assert_ptr_nonnull(strstr(err.text, "cannot read"));
    ck_assert_int_eq(pn_gpu_profile_read("/", &l, &n, &err), PN_EIO);
    ck_assert_int_eq(pn_gpu_profile_read("x.csv", NULL, &n, &err), PN_EINVAL);
    ck_assert_int_eq(pn_gpu_profile_read("x.csv", &l, NULL, NULL), PN_EINVAL);
    pn_gpu_launches_free(NULL);
    /* a NUL byte, named where it is */
    char *path = tmp_file_with("gpu_name,Grid.X\nGTX-970,4\nGTX-970,");
    FILE *f = fopen(path, "ab");
    fputc('\0', f);
    fputs("\n", f);
    fclose(f);
    ck_assert_int_eq(pn_gpu_profile_read(path, &l, &n, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 3);
    ck_assert_uint_eq(err.column, 9);
    ck_assert_ptr_nonnull(strstr(err.text, "NUL"));
    unlink(path);
    free(path);
}
END_TEST

/* Hostile input: a cell of a megabyte (the name is cut, the file read);
 * more cells than a record may have; random damage to a real profile never
 * crashes and every failure names a line. */
START_TEST(profile_hostile)
{
    const char *hdr = "gpu_name,AppName,Grid.X,Grid.Y,Grid.Z,Block.X,Block.Y,"
                      "Block.Z,Registers.Per.Thread,Static.SMem\n";
    size_t big = 1 << 20;
    char *text = malloc(strlen(hdr) + big + 64);
    strcpy(text, hdr);
    char *p = text + strlen(text);
    strcpy(p, "GTX-970,");
    p += strlen(p);
    memset(p, 'k', big);
    p += big;
    strcpy(p, ",1,1,1,32,1,1,8,0\n");
    char *path = tmp_file_with(text);
    pn_gpu_launch_t *l;
    size_t n;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_profile_read(path, &l, &n, &err), PN_OK);
    ck_assert_uint_eq(strlen(l[0].kernel), sizeof l[0].kernel - 1);
    pn_gpu_launches_free(l);
    unlink(path);
    free(path);
    /* 200,000 cells in the header */
    free(text);
    text = malloc(400010);
    for (size_t i = 0; i < 200000; i++)
        memcpy(text + 2 * i, "a,", 2);
    strcpy(text + 400000, "a\n");
    path = tmp_file_with(text);
    ck_assert_int_eq(pn_gpu_profile_read(path, &l, &n, &err), PN_EVALUE);
    ck_assert_ptr_nonnull(strstr(err.text, "more than 100000 cells"));
    ck_assert_uint_eq(err.line, 1);
    unlink(path);
    free(path);
    free(text);
    /* damage: bytes of a real nvprof and a real ncu file overwritten */
    const char *names[] = {"nvprof-repeats.csv", "ncu-handmade.csv"};
    const char junk[] = "\",\r\n\"NA-9e99x( ";
    unsigned seed = 12345;
    for (int k = 0; k < 2; k++) {
        char *src = data(names[k]);
        FILE *f = fopen(src, "rb");
        ck_assert_ptr_nonnull(f);
        static char orig[65536];
        size_t len = fread(orig, 1, sizeof orig - 1, f);
        fclose(f);
        free(src);
        for (int round = 0; round < 300; round++) {
            char *copy = malloc(len + 1);
            memcpy(copy, orig, len);
            copy[len] = '\0';
            for (int d = 0; d < 1 + round % 5; d++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % len;
                copy[at] = junk[(seed >> 4) % (sizeof junk - 1)];
            }
            path = tmp_file_with(copy);
            pn_status_t st = pn_gpu_profile_read(path, &l, &n, &err);
            ck_assert_msg(st == PN_OK || st == PN_EVALUE, "status %d", st);
            if (st == PN_OK) {
                ck_assert_uint_ge(n, 1);
                pn_gpu_launches_free(l);
            } else {
                ck_assert_uint_ge(err.line, 1);
            }
            unlink(path);
            free(path);
            free(copy);
        }
    }
}
END_TEST

/* ---- devices ----------------------------------------------------------- */

START_TEST(devices_read)
{
    char *path = data("deviceInfo.csv");
    pn_gpu_device_t *d;
    size_t n;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_OK);
    ck_assert_uint_eq(n, 9);
    ck_assert_str_eq(d[0].name, "GTX-680");
    ck_assert_int_eq(d[0].cc_major, 3);
    ck_assert_int_eq(d[0].cc_minor, 0);
    const pn_gpu_device_t *g = pn_gpu_device_find(d, n, "gtx 970");
    ck_assert_ptr_nonnull(g);
    ck_assert_str_eq(g->name, "GTX-970");
    ck_assert_int_eq(g->cc_major, 5);
    ck_assert_int_eq(g->cc_minor, 2);
    NEAR(g->clock_mhz, 1076);
    ck_assert_uint_eq(g->sms, 13);
    ck_assert_uint_eq(g->cores_per_sm, 128);
    NEAR(g->bandwidth_gbs, 224.32);
    NEAR(g->l2_mb, 1.75);
    ck_assert_ptr_eq(pn_gpu_device_find(d, n, "GTX_970"), g);
    ck_assert_ptr_eq(pn_gpu_device_find(d, n, "NVIDIA GeForce GTX 970"), g);
    ck_assert_str_eq(pn_gpu_device_find(d, n, "tesla k40")->name, "Tesla-K40");
    /* a word only: "Tesla K40c" is another board */
    ck_assert_ptr_null(pn_gpu_device_find(d, n, "Tesla K40c"));
    ck_assert_str_eq(pn_gpu_device_find(d, n, "TitanX")->name, "TitanX");
    ck_assert_str_eq(pn_gpu_device_find(d, n, "Titan")->name, "Titan");
    ck_assert_ptr_null(pn_gpu_device_find(d, n, "GTX-1080"));
    ck_assert_ptr_null(pn_gpu_device_find(d, n, NULL));
    ck_assert_ptr_null(pn_gpu_device_find(NULL, 0, "GTX-970"));
    /* every GPU of the data set has its capability in the table */
    for (size_t i = 0; i < n; i++) {
        const pn_gpu_arch_t *a = pn_gpu_arch_find(d[i].cc_major, d[i].cc_minor);
        ck_assert_ptr_nonnull(a);
        ck_assert_int_eq(a->cc_minor, d[i].cc_minor);
    }
    free(d);
    free(path);
    path = data("deviceInfo-h100.csv");
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(d[0].cc_major, 9);
    ck_assert_uint_eq(d[0].sms, 132);
    NEAR(d[0].bandwidth_gbs, 3352.32);
    NEAR(d[0].l2_mb, 50);
    /* Nsight Compute's display name finds it */
    ck_assert_ptr_eq(pn_gpu_device_find(d, n, "NVIDIA H100 80GB HBM3"), &d[0]);
    free(d);
    free(path);
}
END_TEST

static const bad_t bad_devices[] = {
    {"devices-cc.csv", 3, 1, "'5.x' is not a compute capability"},
    {"devices-dup.csv", 4, 7, "GPU 'gtx 970' is described twice (first on line 2)"},
    {"devices-no-sm.csv", 1, 0, "no column num_sm"},
    {"devices-zero-sm.csv", 2, 50, "column 'num_sm': '0' is not a positive number"},
    {"devices-clock.csv", 2, 17, "'max_clock_rate': 'fast' is not a number"},
    {"empty.csv", 0, 0, "an empty file"},
    {"short-row.csv", 1, 0, "no column compute_version"},
};

START_TEST(devices_errors)
{
    for (size_t i = 0; i < sizeof bad_devices / sizeof *bad_devices; i++) {
        const bad_t *b = &bad_devices[i];
        char name[256];
        snprintf(name, sizeof name, "bad/%s", b->file);
        char *path = data(name);
        pn_gpu_device_t *d = (pn_gpu_device_t *)1;
        size_t n = 7;
        pn_error_t err;
        pn_status_t st = pn_gpu_devices_read(path, &d, &n, &err);
        check_error(b->file, st, &err, path, b);
        ck_assert_ptr_null(d);
        ck_assert_uint_eq(n, 0);
        free(path);
    }
    pn_gpu_device_t *d;
    size_t n;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_devices_read("/nonexistent", &d, &n, &err), PN_EIO);
    ck_assert_int_eq(pn_gpu_devices_read("x", NULL, &n, &err), PN_EINVAL);
    /* a row of another length */
    char *path = tmp_file_with("compute_version,gpu_name,max_clock_rate,num_sm,"
                               "num_cores_sm\n5.2,GTX-970,1076,13\n");
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.column, 20);
    ck_assert_ptr_nonnull(strstr(err.text, "a row of 4 cells"));
    unlink(path);
    free(path);
    /* a bandwidth of 0, refused at its cell like a negative one */
    path = tmp_file_with("compute_version,gpu_name,max_clock_rate,num_sm,"
                         "num_cores_sm,bandwith\n3,K,700,2,192,0\n");
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.column, 15);
    ck_assert_msg(strstr(err.text, "column 'bandwith': '0' is not a positive number"), "%s", err.text);
    unlink(path);
    free(path);
    /* the least columns, and NA where a value may be missing */
    path = tmp_file_with("compute_version,gpu_name,max_clock_rate,num_sm,"
                         "num_cores_sm,bandwith\n3,K,700,2,192,NA\n");
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_OK);
    ck_assert_int_eq(d[0].cc_major, 3);
    ck_assert_int_eq(d[0].cc_minor, 0);
    ck_assert(isnan(d[0].bandwidth_gbs));
    ck_assert(isnan(d[0].l2_mb));
    free(d);
    unlink(path);
    free(path);
}
END_TEST

/* A column the reader uses, twice in the header: refused at the second,
 * with its name (which one to read is not known); a repeated column it
 * does not read is no matter. */
START_TEST(duplicate_columns)
{
    pn_gpu_device_t *d;
    size_t n;
    pn_error_t err;
    char *path = tmp_file_with("compute_version,gpu_name,max_clock_rate,num_sm,"
                               "num_cores_sm,num_sm\n5.2,GTX-970,1076,13,128,14\n");
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 1);
    ck_assert_uint_eq(err.column, 61);
    ck_assert_msg(strstr(err.text, "the column 'num_sm' is in the header twice (fields 4 and 6)"), "%s", err.text);
    unlink(path);
    free(path);
    path = tmp_file_with("compute_version,gpu_name,max_clock_rate,num_sm,"
                         "num_cores_sm,other,other\n5.2,GTX-970,1076,13,128,1,2\n");
    ck_assert_int_eq(pn_gpu_devices_read(path, &d, &n, &err), PN_OK);
    free(d);
    unlink(path);
    free(path);
    /* a profile with Duration twice */
    path = tmp_file_with(
        "gpu_name,AppName,Grid.X,Grid.Y,Grid.Z,Block.X,Block.Y,Block.Z,"
        "Registers.Per.Thread,Static.SMem,Dynamic.SMem,Duration,Duration\n"
        "GTX-970,k,1,1,1,32,1,1,8,0,0,0.001,0.002\n");
    pn_gpu_launch_t *l;
    ck_assert_int_eq(pn_gpu_profile_read(path, &l, &n, &err), PN_EVALUE);
    ck_assert_uint_eq(err.line, 1);
    ck_assert_msg(strstr(err.text, "the column 'Duration' is in the header twice (fields 12 and 13)"), "%s", err.text);
    unlink(path);
    free(path);
}
END_TEST

/* A duration of 0, or one that underflows, is no measurement: NAN, and a
 * repeat with it leaves the mean of the others. */
START_TEST(zero_duration)
{
    char *path = tmp_file_with(
        "gpu_name,AppName,Input.Size,Grid.X,Grid.Y,Grid.Z,Block.X,Block.Y,Block.Z,"
        "Registers.Per.Thread,Static.SMem,Duration\n"
        "GTX-970,k,1,1,1,1,32,1,1,8,0,0\n"
        "GTX-970,k,2,1,1,1,32,1,1,8,0,1e-320\n"
        "GTX-970,k,3,1,1,1,32,1,1,8,0,0.002\n"
        "GTX-970,k,3,1,1,1,32,1,1,8,0,0\n");
    pn_gpu_launch_t *l;
    size_t n;
    pn_error_t err;
    ck_assert_int_eq(pn_gpu_profile_read(path, &l, &n, &err), PN_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert(isnan(l[0].measured_s));
    ck_assert(isnan(l[1].measured_s));
    NEAR(l[2].measured_s, 0.002);
    ck_assert_uint_eq(l[2].repeats, 2);
    pn_gpu_launches_free(l);
    unlink(path);
    free(path);
}
END_TEST

/* The table against the CUDA Programming Guide's figures, and the
 * fallback to the nearest lower capability of the same major number. */
START_TEST(arch_table)
{
    const pn_gpu_arch_t *a = pn_gpu_arch_find(3, 5);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(a->max_blocks, 16);
    ck_assert_uint_eq(a->max_warps, 64);
    ck_assert_uint_eq(a->regs, 65536);
    ck_assert_uint_eq(a->smem, 48 * 1024);
    ck_assert_uint_eq(a->schedulers, 4);
    ck_assert_str_eq(a->name, "Kepler");
    a = pn_gpu_arch_find(3, 7);
    ck_assert_uint_eq(a->regs, 131072);
    ck_assert_uint_eq(a->smem, 112 * 1024);
    a = pn_gpu_arch_find(5, 2);
    ck_assert_uint_eq(a->max_blocks, 32);
    ck_assert_uint_eq(a->smem, 96 * 1024);
    ck_assert_str_eq(a->name, "Maxwell");
    ck_assert_uint_eq(pn_gpu_arch_find(6, 0)->schedulers, 2);
    a = pn_gpu_arch_find(7, 5);
    ck_assert_uint_eq(a->max_blocks, 16);
    ck_assert_uint_eq(a->max_warps, 32);
    a = pn_gpu_arch_find(8, 9);
    ck_assert_uint_eq(a->max_blocks, 24);
    ck_assert_uint_eq(a->max_warps, 48);
    a = pn_gpu_arch_find(9, 0);
    ck_assert_uint_eq(a->smem, 228 * 1024);
    ck_assert_uint_eq(a->smem_unit, 128);
    ck_assert_str_eq(a->name, "Hopper");
    /* the fallback */
    ck_assert_ptr_eq(pn_gpu_arch_find(7, 2), pn_gpu_arch_find(7, 0));
    ck_assert_ptr_eq(pn_gpu_arch_find(8, 7), pn_gpu_arch_find(8, 6));
    ck_assert_ptr_eq(pn_gpu_arch_find(3, 1), pn_gpu_arch_find(3, 0));
    ck_assert_ptr_eq(pn_gpu_arch_find(5, 1), pn_gpu_arch_find(5, 0));
    ck_assert_ptr_eq(pn_gpu_arch_find(6, 9), pn_gpu_arch_find(6, 2));
    ck_assert_ptr_null(pn_gpu_arch_find(2, 0));
    ck_assert_ptr_null(pn_gpu_arch_find(4, 0));
    ck_assert_ptr_null(pn_gpu_arch_find(10, 0));
    ck_assert_ptr_null(pn_gpu_arch_find(-1, 0));
    ck_assert_ptr_null(pn_gpu_arch_find(3, -1));
    /* every row: its own key, the common units, latencies in order */
    static const int ccs[][2] = {{3, 0}, {3, 2}, {3, 5}, {3, 7}, {5, 0},
                                 {5, 2}, {5, 3}, {6, 0}, {6, 1}, {6, 2},
                                 {7, 0}, {7, 5}, {8, 0}, {8, 6}, {8, 9},
                                 {9, 0}};
    for (size_t i = 0; i < sizeof ccs / sizeof *ccs; i++) {
        a = pn_gpu_arch_find(ccs[i][0], ccs[i][1]);
        ck_assert_ptr_nonnull(a);
        ck_assert_int_eq(a->cc_major, ccs[i][0]);
        ck_assert_int_eq(a->cc_minor, ccs[i][1]);
        ck_assert_uint_eq(a->reg_unit, 256);
        ck_assert_uint_eq(a->smem_unit, ccs[i][0] >= 8 ? 128 : 256);
        ck_assert_uint_le(a->max_warps, 64);
        ck_assert_uint_ge(a->max_blocks, 16);
        ck_assert_uint_gt(a->lat_global, a->lat_l2);
        ck_assert_uint_gt(a->lat_l2, a->lat_shared);
        ck_assert_uint_gt(a->lat_shared, 0);
    }
}
END_TEST

/* A launch whose cell of a count the model needs is NA is refused at that
 * cell (file:line:column), the count named; a launch given without a
 * file (all counts known) has no such column. */
START_TEST(na_count_column)
{
    size_t n;
    pn_gpu_launch_t *l = read_ok("nvprof-pascal.csv", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(l[0].na_column, 0);
    ck_assert_uint_eq(l[1].na_column, 105);   /* inst_executed_global_stores */
    pn_gpu_device_t d;
    memset(&d, 0, sizeof d);
    strcpy(d.name, "Tesla-P100");
    d.cc_major = 6;
    d.clock_mhz = 1126;
    d.sms = 56;
    d.cores_per_sm = 64;
    d.bandwidth_gbs = 549;
    pn_gpu_shape_t s;
    pn_error_t err;
    char buf[1200];
    ck_assert_int_eq(pn_gpu_shape(&l[1], &d, &s, &err), PN_EVALUE);
    pn_error_format(&err, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "nvprof-pascal.csv:3:105: "), "%s", buf);
    ck_assert_msg(strstr(buf, "the profile has no global stores (NA)"), "%s", buf);
    pn_gpu_launches_free(l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_profile");
    TCase *tc = tcase_create("gpu_profile");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, nvprof_kepler);
    tcase_add_test(tc, nvprof_maxwell);
    tcase_add_test(tc, nvprof_repeats);
    tcase_add_test(tc, nvprof_handmade);
    tcase_add_test(tc, nvprof_pascal);
    tcase_add_test(tc, nvprof_trace);
    tcase_add_test(tc, nvprof_no_counts);
    tcase_add_test(tc, ncu_real);
    tcase_add_test(tc, ncu_joined);
    tcase_add_test(tc, ncu_stdout);
    tcase_add_test(tc, ncu_handmade);
    tcase_add_test(tc, profile_errors);
    tcase_add_test(tc, profile_io_errors);
    tcase_add_test(tc, profile_hostile);
    tcase_add_test(tc, devices_read);
    tcase_add_test(tc, devices_errors);
    tcase_add_test(tc, arch_table);
    tcase_add_test(tc, duplicate_columns);
    tcase_add_test(tc, zero_duration);
    tcase_add_test(tc, na_count_column);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
