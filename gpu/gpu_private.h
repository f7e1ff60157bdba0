/* Internals of gpu/ shared by model.c and eval.c (never installed). */
#ifndef PN_GPU_PRIVATE_H
#define PN_GPU_PRIVATE_H

#include <stddef.h>
#include "predict.h"

/* One row to fit: the model's components at unit scales, in seconds. */
typedef struct {
    double net, dram, l2, lsu;
    double strided;
    double measured;
} pni_gpu_row_t;

#define PNI_GPU_PARAMS 6

/* Fits log(overhead), log(net scale), log(DRAM scale), log(L2 scale),
 * log(LSU scale) and, when np is 6, log(strided DRAM scale) to rows (mean
 * absolute log error; components that are 0 leave their scale free and
 * harmless).  With np 5 the last parameter stays at log 1 and the search
 * is the five-dimensional one the baselines were always fitted with. */
void pni_gpu_fit_rows(const pni_gpu_row_t *rows, size_t n, int np,
                      double p[PNI_GPU_PARAMS]);
double pni_gpu_row_pred(const double p[PNI_GPU_PARAMS],
                        const pni_gpu_row_t *row);

/* The components of a shape at unit scales (no overhead). */
pn_status_t pni_gpu_components(const pn_gpu_shape_t *shape,
                               pn_gpu_cache_t *cache, pni_gpu_row_t *row);

#endif
