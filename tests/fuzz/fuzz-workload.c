/*
 * libFuzzer harness for the GPU generator's workload reader
 * (pn_gpu_workload_read(), pn-gen-gpu --workload FILE): every input is
 * read or refused with an error record, never a crash, leak or hang; a
 * workload that is read numbers its warps 0..W-1 and, when small, builds
 * its warp net and the net's groups.
 *
 * Seeds: the .csv files of share/examples/, tests/fuzz/seeds/workload/.
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS workload.
 */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "gpu.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The nets of larger workloads cost more than they find. */
#define NET_WARPS_MAX 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pn_gpu_warp_t junk;
    pn_gpu_warp_t *work = &junk; /* the reader resets both */
    size_t warps = 1;
    pn_error_t err;
    fuzz_dirty_error(&err);
    pn_status_t st = pn_gpu_workload_read(fuzz_memfile(data, size), &work,
                                          &warps, &err);
    fuzz_check_error(st, &err);
    if (st != PN_OK) {
        if (work || warps ||
            (st != PN_EVALUE && st != PN_ERANGE && st != PN_ENOMEM))
            abort();
        return 0;
    }
    if (!work || warps == 0 || warps > ((size_t)1 << 20) ||
        warps > size / 8 + 1) /* a warp takes a line of at least 8 bytes */
        abort();
    if (warps <= NET_WARPS_MAX) {
        pn_gpu_params_t p = {.warps = warps, .schedulers = 1 + size % 4,
                             .l1 = 400, .l2 = 4, .work = work};
        pn_net_t *net = NULL;
        pn_status_t ns = pn_gpu_net(&p, &net);
        if (ns == PN_OK) {
            pn_groups_t *g = NULL;
            if (!net || pn_gpu_groups(net, &g) != PN_OK || !g)
                abort(); /* the generator's own net has its groups */
            pn_groups_free(g);
            pn_net_free(net);
        } else if (ns != PN_ERANGE || net) {
            abort();
        }
    }
    free(work);
    return 0;
}
