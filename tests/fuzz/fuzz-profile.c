/*
 * libFuzzer harness for the readers of gpu/: profiles (nvprof CSV and
 * Nsight Compute's raw page, pn_gpu_profile_read()) and devices
 * (deviceInfo.csv, pn_gpu_devices_read()).  The first byte picks the
 * reader (even: profile, odd: devices); every input is read or refused with
 * an error record, never a crash, leak or hang.  A profile that is read has
 * launches with grids and blocks of at least 1, at most as many as it has
 * lines, repeats of at least 1 adding up to no more than its lines, rates
 * in 0..1 and no negative count; every device found by its own name is
 * itself and has a capability the table knows or NULL.
 *
 * Seeds: tests/data/gpu/ (and bad/), tests/fuzz/seeds/profile/.
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS profile.
 */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "predict.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bad_count(double v) { return !isnan(v) && !(v >= 0 && isfinite(v)); }
static int bad_rate(double v) { return !isnan(v) && !(v >= 0 && v <= 1); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int devices = data[0] & 1;
    data++;
    size--;
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n' || data[i] == '\r';
    pn_error_t err;
    fuzz_dirty_error(&err);
    if (devices) {
        pn_gpu_device_t *d = (pn_gpu_device_t *)&err;
        size_t n = 7;
        pn_status_t st = pn_gpu_devices_read(fuzz_memfile(data, size), &d,
                                             &n, &err);
        fuzz_check_error(st, &err);
        if (st != PN_OK) {
            if (d || n || (st != PN_EVALUE && st != PN_ENOMEM))
                abort();
            return 0;
        }
        if (!d || n == 0 || n >= lines)
            abort();
        for (size_t i = 0; i < n; i++) {
            if (!d[i].name[0] || d[i].sms == 0 || d[i].cores_per_sm == 0 ||
                !(d[i].clock_mhz > 0) || bad_count(d[i].bandwidth_gbs) ||
                bad_count(d[i].l2_mb))
                abort();
            if (pn_gpu_device_find(d, n, d[i].name) != &d[i])
                abort(); /* names are unique */
            const pn_gpu_arch_t *a = pn_gpu_arch_find(d[i].cc_major,
                                                      d[i].cc_minor);
            if (a && (a->cc_major != d[i].cc_major ||
                      a->cc_minor > d[i].cc_minor))
                abort();
        }
        free(d);
        return 0;
    }
    pn_gpu_launch_t *l = (pn_gpu_launch_t *)&err;
    size_t n = 7;
    pn_status_t st = pn_gpu_profile_read(fuzz_memfile(data, size), &l, &n,
                                         &err);
    fuzz_check_error(st, &err);
    if (st != PN_OK) {
        if (l || n || (st != PN_EVALUE && st != PN_ENOMEM))
            abort();
        return 0;
    }
    if (!l || n == 0 || n >= lines)
        abort();
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        const pn_gpu_launch_t *x = &l[i];
        for (int k = 0; k < 3; k++)
            if (x->grid[k] == 0 || x->block[k] == 0)
                abort();
        if (!x->gpu[0] || !x->kernel[0] || x->repeats == 0 ||
            x->line == 0 || x->line > lines)
            abort();
        rows += x->repeats;
        double counts[] = {x->input_size, x->measured_s, x->warps, x->inst,
                           x->shared_ld, x->shared_st, x->global_ld,
                           x->global_st, x->global_ld_trans,
                           x->global_st_trans, x->dram_read, x->dram_write,
                           x->l2_read, x->l2_write};
        for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
            if (bad_count(counts[k]))
                abort();
        if (bad_rate(x->l1_hit) || bad_rate(x->l2_hit))
            abort();
    }
    if (rows >= lines)
        abort();
    pn_gpu_launches_free(l);
    return 0;
}
