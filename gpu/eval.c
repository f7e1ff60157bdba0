/*
 * pn_gpu_eval(): the splits of doc/gpu.md, the model against three
 * baselines, each fitted by the same code on the same training rows.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"
#include "lib_private.h"
#include "gpu_private.h"

typedef struct {
    const pn_gpu_launch_t *l;
    int gpu;                 /* index into the GPU list */
    int kernel;              /* index into the kernel list */
    int odd;                 /* odd size rank within (gpu, kernel, block) */
    pni_gpu_row_t row[3];    /* model, inst/SM, roofline components */
    double x[5];             /* linear regression features (per SM) */
} ev_t;

/* Least relative squares: minimise sum ((b.x - t) / t)^2 over [1, x]. */
#define NF 6
static void linreg_fit(const ev_t *e, const int *use, size_t n, double b[NF])
{
    double a[NF][NF + 1];
    memset(a, 0, sizeof a);
    for (size_t i = 0; i < n; i++) {
        if (!use[i]) continue;
        double t = e[i].l->measured_s, v[NF] = {1, e[i].x[0], e[i].x[1], e[i].x[2], e[i].x[3], e[i].x[4]};
        for (int r = 0; r < NF; r++) {
            for (int c = 0; c < NF; c++) a[r][c] += v[r] * v[c] / (t * t);
            a[r][NF] += v[r] / t;
        }
    }
    for (int r = 0; r < NF; r++) a[r][r] += 1e-12 * (a[r][r] + 1);   /* ridge against empty columns */
    for (int c = 0; c < NF; c++) {
        int p = c;
        for (int r = c + 1; r < NF; r++) if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        for (int k = 0; k <= NF; k++) { double t = a[c][k]; a[c][k] = a[p][k]; a[p][k] = t; }
        if (a[c][c] == 0) continue;
        for (int r = 0; r < NF; r++) {
            if (r == c) continue;
            double f = a[r][c] / a[c][c];
            for (int k = c; k <= NF; k++) a[r][k] -= f * a[c][k];
        }
    }
    for (int r = 0; r < NF; r++) b[r] = a[r][r] != 0 ? a[r][NF] / a[r][r] : 0;
}

static double linreg_pred(const double b[NF], const ev_t *e)
{
    double p = b[0];
    for (int k = 0; k < 5; k++) p += b[k + 1] * e->x[k];
    return p > 1e-9 ? p : 1e-9;    /* a time is positive */
}

typedef struct {
    double p[3][PNI_GPU_PARAMS]; /* fitted log parameters of the three fitted methods */
    double b[NF];
} fit_t;

/* Fits the methods on the rows in use; returns how many there were (0:
 * nothing was fitted and f holds zeros: the caller scores nothing). */
static size_t fit_on(const ev_t *e, const int *use, size_t n, fit_t *f)
{
    memset(f, 0, sizeof *f);
    size_t nuse = 0;
    for (size_t i = 0; i < n; i++) nuse += use[i] != 0;
    if (!nuse) return 0;
    pni_gpu_row_t *rows = malloc((n ? n : 1) * sizeof *rows);
    for (int m = 0; m < 3; m++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (use[i]) { rows[k] = e[i].row[m]; rows[k].measured = e[i].l->measured_s; k++; }
        /* the baselines have no strided component: their fit keeps the
         * five parameters it always had */
        if (rows && k) pni_gpu_fit_rows(rows, k, m == 0 ? PNI_GPU_PARAMS : 5, f->p[m]);
    }
    free(rows);
    linreg_fit(e, use, n, f->b);
    return nuse;
}

static double predict_with(const fit_t *f, int m, const ev_t *e)
{
    if (m == PN_GPU_LINREG) return linreg_pred(f->b, e);
    return pni_gpu_row_pred(f->p[m], &e->row[m]);
}

typedef struct {
    pn_gpu_eval_line_t *v;
    size_t n, cap;
    int oom;
} lines_t;

static pn_gpu_eval_line_t *line_get(lines_t *L, const char *split, const char *group)
{
    for (size_t i = 0; i < L->n; i++)
        if (!strcmp(L->v[i].split, split) && !strcmp(L->v[i].group, group))
            return &L->v[i];
    if (L->n == L->cap) {
        size_t c = L->cap ? L->cap * 2 : 32;
        pn_gpu_eval_line_t *v = realloc(L->v, c * sizeof *v);
        if (!v) { L->oom = 1; return NULL; }
        L->v = v;
        L->cap = c;
    }
    pn_gpu_eval_line_t *x = &L->v[L->n++];
    memset(x, 0, sizeof *x);
    snprintf(x->split, sizeof x->split, "%s", split);
    snprintf(x->group, sizeof x->group, "%s", group);
    return x;
}

/* Adds the absolute percentage errors of the test rows (sums; divided at the end). */
static void score(lines_t *L, const char *split, const ev_t *e, const int *test,
                  size_t n, const fit_t *f, char names[][112], char kern[][112])
{
    for (size_t i = 0; i < n; i++) {
        if (!test[i]) continue;
        const char *groups[3] = {"all", names[e[i].gpu], kern[e[i].kernel]};
        for (int g = 0; g < 3; g++) {
            pn_gpu_eval_line_t *x = line_get(L, split, groups[g]);
            if (!x) return;
            x->n++;
            for (int m = 0; m < PN_GPU_METHODS; m++) {
                double p = predict_with(f, m, &e[i]), t = e[i].l->measured_s;
                x->mape[m] += fabs(p - t) / t;
            }
        }
    }
}

/* A split of GPU g with no training rows: its line is there with no rows
 * (n 0, NAN errors), never scored with another split's fit. */
static void unscored(lines_t *L, const char *split, char names[][112], int g)
{
    line_get(L, split, "all");
    line_get(L, split, names[g]);
}

static int split_rank(const char *s)
{
    static const char *order[] = {"sizes", "kernel", "gpu-kernel", "new-gpu"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, order[i])) return i;
    return 4;
}

/* Lines in split order, then "all", the GPUs and the kernels by name. */
static int cmp_line(const void *pa, const void *pb)
{
    const pn_gpu_eval_line_t *a = pa, *b = pb;
    int c = split_rank(a->split) - split_rank(b->split);
    if (!c) c = strcmp(a->split, b->split);   /* "apps" before "apps-new-gpu" */
    if (c) return c;
    int ga = strcmp(a->group, "all") != 0, gb = strcmp(b->group, "all") != 0;
    if (ga != gb) return ga - gb;
    ga = strncmp(a->group, "gpu:", 4) != 0;
    gb = strncmp(b->group, "gpu:", 4) != 0;
    if (ga != gb) return ga - gb;
    return strcmp(a->group, b->group);
}

static int same_group(const pn_gpu_launch_t *a, const pn_gpu_launch_t *b)
{
    return !strcmp(a->gpu, b->gpu) && !strcmp(a->kernel, b->kernel) &&
           !memcmp(a->block, b->block, sizeof a->block);
}

static const ev_t *sort_base;   /* qsort has no context argument */

static int cmp_rank(const void *pa, const void *pb)
{
    const pn_gpu_launch_t *a = sort_base[*(const size_t *)pa].l;
    const pn_gpu_launch_t *b = sort_base[*(const size_t *)pb].l;
    int c = strcmp(a->gpu, b->gpu);
    if (!c) c = strcmp(a->kernel, b->kernel);
    if (!c) c = memcmp(a->block, b->block, sizeof a->block);
    if (!c) c = (a->input_size > b->input_size) - (a->input_size < b->input_size);
    return c;
}

/* The model's components of every launch, on two threads (each with its
 * own cache of waves: the values do not depend on who computed them). */
typedef struct {
    const pn_gpu_launch_t *ls;
    size_t n, first, step;
    const pn_gpu_device_t *devs;
    size_t ndev;
    pn_gpu_cache_t *cache;
    pn_gpu_shape_t *shapes;
    pni_gpu_row_t *rows;
    int *ok;
} pre_t;

static void *precompute(void *arg)
{
    pre_t *p = arg;
    for (size_t i = p->first; i < p->n; i += p->step) {
        const pn_gpu_launch_t *l = &p->ls[i];
        const pn_gpu_device_t *d = pn_gpu_device_find(p->devs, p->ndev, l->gpu);
        p->ok[i] = d && l->measured_s > 0 &&
                   pn_gpu_shape(l, d, &p->shapes[i], NULL) == PN_OK &&
                   pni_gpu_components(&p->shapes[i], p->cache, &p->rows[i]) == PN_OK;
    }
    return NULL;
}

/* Size ranks within (gpu, kernel, block): sort, then count sizes; the
 * odd ranks are the held-out sizes (e[i].odd).  -1 out of memory. */
static int mark_odd_sizes(ev_t *e, size_t m)
{
    size_t *ix = malloc(m * sizeof *ix);
    if (!ix) return -1;
    for (size_t i = 0; i < m; i++) ix[i] = i;
    sort_base = e;
    qsort(ix, m, sizeof *ix, cmp_rank);
    int rank = 0;
    for (size_t i = 0; i < m; i++) {
        const pn_gpu_launch_t *a = e[ix[i]].l, *b = i ? e[ix[i - 1]].l : NULL;
        if (!b || !same_group(a, b)) rank = 0;
        else if (a->input_size != b->input_size) rank++;
        e[ix[i]].odd = rank & 1;
    }
    free(ix);
    return 0;
}

/* The launches of an evaluation with their components: the training
 * launches first, then (for pn_gpu_eval_unseen()) the unseen ones, each
 * set with its own counts filled (pn_gpu_launches_impute()). */
typedef struct {
    pn_gpu_launch_t *ls;     /* the copy the rows point into */
    ev_t *e;
    size_t m, ng, nk;
    char (*gname)[112], (*kname)[112];
    int *garch;              /* cc major of each GPU */
    int *unseen;             /* per row: from the second set */
} evset_t;

static void evset_free(evset_t *S)
{
    free(S->ls); free(S->e); free(S->gname); free(S->kname);
    free(S->garch); free(S->unseen);
}

/* The model's and the baselines' components of every launch that can be
 * predicted; the others are counted in *skipped. */
static pn_status_t evset_build(evset_t *S, const pn_gpu_launch_t *a, size_t na,
                               const pn_gpu_launch_t *b, size_t nb,
                               const pn_gpu_device_t *devs, size_t ndev,
                               pn_gpu_cache_t *cache, size_t *skipped)
{
    memset(S, 0, sizeof *S);
    size_t n = na + nb, z = n ? n : 1;
    S->ls = malloc(z * sizeof *S->ls);
    S->e = calloc(z, sizeof *S->e);
    S->gname = calloc(z, sizeof *S->gname);
    S->kname = calloc(z, sizeof *S->kname);
    S->garch = calloc(z, sizeof *S->garch);
    S->unseen = calloc(z, sizeof *S->unseen);
    pni_gpu_row_t *pre = calloc(z, sizeof *pre);
    pn_gpu_shape_t *shapes = calloc(z, sizeof *shapes);
    int *pre_ok = calloc(z, sizeof *pre_ok);
    pn_status_t st = PN_OK;
    if (!S->ls || !S->e || !S->gname || !S->kname || !S->garch || !S->unseen ||
        !pre || !shapes || !pre_ok) { st = PN_ENOMEM; goto done; }
    /* counts nvprof left NA, from the same kernel at other sizes; the
     * unseen launches only from each other */
    if (na) memcpy(S->ls, a, na * sizeof *a);
    if (nb) memcpy(S->ls + na, b, nb * sizeof *b);
    pn_gpu_launches_impute(S->ls, na);
    pn_gpu_launches_impute(S->ls + na, nb);
    {
        pn_gpu_cache_t *own = pn_gpu_cache_new();
        pre_t job[2] = {{S->ls, n, 0, 2, devs, ndev, cache, shapes, pre, pre_ok},
                        {S->ls, n, 1, 2, devs, ndev, own, shapes, pre, pre_ok}};
        pthread_t th;
        int threaded = own && pthread_create(&th, NULL, precompute, &job[1]) == 0;
        if (!threaded) job[0].step = 1;   /* one thread does all */
        precompute(&job[0]);
        if (threaded) pthread_join(th, NULL);
        pn_gpu_cache_free(own);
    }
    for (size_t i = 0; i < n; i++) {
        const pn_gpu_launch_t *l = &S->ls[i];
        if (!pre_ok[i]) {
            (*skipped)++;
            continue;
        }
        const pn_gpu_device_t *d = pn_gpu_device_find(devs, ndev, l->gpu);
        const pn_gpu_shape_t s = shapes[i];
        ev_t *x = &S->e[S->m];
        S->unseen[S->m] = i >= na;
        x->l = l;
        x->row[0] = pre[i];
        double per_sm = 1.0 / d->sms, clk = d->clock_mhz * 1e6;
        double lanes = (d->cores_per_sm ? d->cores_per_sm : 128) * (double)d->sms;
        x->row[1] = (pni_gpu_row_t){.net = l->inst * per_sm / clk};
        x->row[2] = (pni_gpu_row_t){.net = l->inst * 32.0 / (lanes * clk),
                                    .dram = s.dram_bytes / s.bandwidth};
        double trans = s.wavefronts;
        x->x[0] = s.arith * l->warps * per_sm / clk;
        x->x[1] = s.shared * l->warps * per_sm / clk;
        x->x[2] = s.global * l->warps * per_sm / clk;
        x->x[3] = trans * l->warps * per_sm / clk;
        x->x[4] = s.dram_bytes / s.bandwidth;
        char g[112], k[112];
        snprintf(g, sizeof g, "gpu:%s", l->gpu);
        snprintf(k, sizeof k, "kernel:%s", l->kernel);
        size_t j;
        for (j = 0; j < S->ng && strcmp(S->gname[j], g); j++) {}
        if (j == S->ng) { S->garch[S->ng] = d->cc_major; memcpy(S->gname[S->ng++], g, sizeof g); }
        x->gpu = (int)j;
        for (j = 0; j < S->nk && strcmp(S->kname[j], k); j++) {}
        if (j == S->nk) memcpy(S->kname[S->nk++], k, sizeof k);
        x->kernel = (int)j;
        S->m++;
    }
done:
    free(pre); free(pre_ok); free(shapes);
    return st;
}

/* The mean (of the logarithms) of the fits of the GPUs other than g that
 * have rows in `pool`: those of g's architecture (compute capability
 * major) when there are any, since the scales absorb what the
 * architecture does, else all.  0: no other GPU. */
static size_t fit_others(const evset_t *S, const int *pool, size_t g, int *use,
                         fit_t *avg)
{
    memset(avg, 0, sizeof *avg);
    int *has = calloc(S->ng ? S->ng : 1, sizeof *has);
    if (!has) return 0;
    for (size_t i = 0; i < S->m; i++) if (pool[i]) has[S->e[i].gpu] = 1;
    size_t same = 0, other = 0;
    for (size_t o = 0; o < S->ng; o++) {
        if (o == g || !has[o]) continue;
        other++;
        same += S->garch[o] == S->garch[g];
    }
    double k = same ? (double)same : (double)other;
    fit_t f;
    for (size_t o = 0; o < S->ng && other; o++) {
        if (o == g || !has[o] || (same && S->garch[o] != S->garch[g])) continue;
        for (size_t i = 0; i < S->m; i++) use[i] = pool[i] && S->e[i].gpu == (int)o;
        fit_on(S->e, use, S->m, &f);
        for (int q = 0; q < 3; q++)
            for (int r = 0; r < PNI_GPU_PARAMS; r++) avg->p[q][r] += f.p[q][r] / k;
        for (int r = 0; r < NF; r++) avg->b[r] += f.b[r] / k;
    }
    free(has);
    return other;
}

/* The sums of score() into means, in the order of cmp_line(). */
static void lines_finish(lines_t *L)
{
    for (size_t i = 0; i < L->n; i++)
        for (int q = 0; q < PN_GPU_METHODS; q++)
            L->v[i].mape[q] = L->v[i].n ? 100.0 * L->v[i].mape[q] / (double)L->v[i].n : NAN;
    qsort(L->v, L->n, sizeof *L->v, cmp_line);
}

pn_status_t pn_gpu_eval(const pn_gpu_launch_t *given, size_t n,
                        const pn_gpu_device_t *devs, size_t ndev,
                        pn_gpu_cache_t *cache, pn_gpu_eval_line_t **out,
                        size_t *nout, size_t *skipped, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    *out = NULL;
    *nout = 0;
    *skipped = 0;
    evset_t S;
    pn_status_t st = evset_build(&S, given, n, NULL, 0, devs, ndev, cache, skipped);
    size_t m = S.m, ng = S.ng, nk = S.nk;
    ev_t *e = S.e;
    int *use = calloc(n ? n : 1, sizeof *use), *test = calloc(n ? n : 1, sizeof *test);
    int *all = calloc(n ? n : 1, sizeof *all);
    lines_t L = {0};
    if (st == PN_OK && (!use || !test || !all)) st = PN_ENOMEM;
    if (st != PN_OK) goto done;
    if (m == 0) { st = pni_error(err, PN_EINVAL, 0, 0, "no launch with a measured time could be predicted"); goto done; }
    if (mark_odd_sizes(e, m)) { st = PN_ENOMEM; goto done; }
    for (size_t i = 0; i < m; i++) all[i] = 1;
    fit_t f;
    for (size_t g = 0; g < ng; g++) {
        /* held-out sizes */
        for (size_t i = 0; i < m; i++) { use[i] = e[i].gpu == (int)g && !e[i].odd; test[i] = e[i].gpu == (int)g && e[i].odd; }
        if (fit_on(e, use, m, &f)) score(&L, "sizes", e, test, m, &f, S.gname, S.kname);
        else unscored(&L, "sizes", S.gname, (int)g);
        /* leave one kernel out, and per (gpu, kernel) */
        for (size_t k = 0; k < nk; k++) {
            size_t nt = 0;
            for (size_t i = 0; i < m; i++) {
                use[i] = e[i].gpu == (int)g && e[i].kernel != (int)k;
                test[i] = e[i].gpu == (int)g && e[i].kernel == (int)k;
                nt += test[i];
            }
            if (!nt) continue;
            /* a GPU with this kernel alone: nothing to train on */
            if (fit_on(e, use, m, &f)) score(&L, "kernel", e, test, m, &f, S.gname, S.kname);
            else unscored(&L, "kernel", S.gname, (int)g);
            for (size_t i = 0; i < m; i++) {
                use[i] = test[i] && !e[i].odd;
                test[i] = test[i] && e[i].odd;
            }
            if (fit_on(e, use, m, &f)) score(&L, "gpu-kernel", e, test, m, &f, S.gname, S.kname);
            else unscored(&L, "gpu-kernel", S.gname, (int)g);
        }
        /* a GPU with no training rows: the others' fits, averaged */
        fit_t avg;
        if (fit_others(&S, all, g, use, &avg)) {
            for (size_t i = 0; i < m; i++) test[i] = e[i].gpu == (int)g;
            score(&L, "new-gpu", e, test, m, &avg, S.gname, S.kname);
        } else unscored(&L, "new-gpu", S.gname, (int)g);   /* no other GPU */
    }
    if (L.oom) { st = PN_ENOMEM; goto done; }
    lines_finish(&L);
    *out = L.v;
    *nout = L.n;
    L.v = NULL;
done:
    if (st == PN_ENOMEM) pni_error(err, st, 0, 0, "out of memory");
    free(L.v);
    free(use); free(test); free(all);
    evset_free(&S);
    return st;
}

pn_status_t pn_gpu_eval_unseen(const pn_gpu_launch_t *train, size_t ntrain,
                               const pn_gpu_launch_t *unseen, size_t nunseen,
                               const char *label,
                               const pn_gpu_device_t *devs, size_t ndev,
                               pn_gpu_cache_t *cache, pn_gpu_eval_line_t **out,
                               size_t *nout, size_t *skipped, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    *out = NULL;
    *nout = 0;
    *skipped = 0;
    char split[2][16];
    if (!label || !*label || strlen(label) > 7)
        return pni_error(err, PN_EINVAL, 0, 0, "the label of the unseen launches "
                         "must have 1 to 7 characters");
    snprintf(split[0], sizeof split[0], "%s", label);
    snprintf(split[1], sizeof split[1], "%s-new-gpu", label);
    evset_t S;
    pn_status_t st = evset_build(&S, train, ntrain, unseen, nunseen, devs, ndev,
                                 cache, skipped);
    size_t n = ntrain + nunseen, m = S.m;
    int *use = calloc(n ? n : 1, sizeof *use), *test = calloc(n ? n : 1, sizeof *test);
    int *pool = calloc(n ? n : 1, sizeof *pool);
    lines_t L = {0};
    if (st == PN_OK && (!use || !test || !pool)) st = PN_ENOMEM;
    if (st != PN_OK) goto done;
    size_t nu = 0;
    for (size_t i = 0; i < m; i++) { pool[i] = !S.unseen[i]; nu += S.unseen[i]; }
    if (nu == 0) { st = pni_error(err, PN_EINVAL, 0, 0, "no unseen launch with a measured time could be predicted"); goto done; }
    fit_t f;
    for (size_t g = 0; g < S.ng; g++) {
        size_t nt = 0;
        for (size_t i = 0; i < m; i++) {
            use[i] = pool[i] && S.e[i].gpu == (int)g;
            test[i] = S.unseen[i] && S.e[i].gpu == (int)g;
            nt += test[i];
        }
        if (!nt) continue;
        /* calibrated on the GPU's other kernels, never on these */
        if (fit_on(S.e, use, m, &f)) score(&L, split[0], S.e, test, m, &f, S.gname, S.kname);
        else unscored(&L, split[0], S.gname, (int)g);
        fit_t avg;
        if (fit_others(&S, pool, g, use, &avg)) {
            for (size_t i = 0; i < m; i++) test[i] = S.unseen[i] && S.e[i].gpu == (int)g;
            score(&L, split[1], S.e, test, m, &avg, S.gname, S.kname);
        } else unscored(&L, split[1], S.gname, (int)g);
    }
    if (L.oom) { st = PN_ENOMEM; goto done; }
    lines_finish(&L);
    /* "all" is the mean of the kernels' errors: a kernel profiled at many
     * sizes weighs no more than one profiled at few */
    for (size_t i = 0; i < L.n; i++) {
        if (strcmp(L.v[i].group, "all") || !L.v[i].n) continue;
        double sum[PN_GPU_METHODS] = {0};
        size_t nk = 0;
        for (size_t j = 0; j < L.n; j++)
            if (!strcmp(L.v[j].split, L.v[i].split) && L.v[j].n &&
                !strncmp(L.v[j].group, "kernel:", 7)) {
                for (int q = 0; q < PN_GPU_METHODS; q++) sum[q] += L.v[j].mape[q];
                nk++;
            }
        for (int q = 0; q < PN_GPU_METHODS && nk; q++) L.v[i].mape[q] = sum[q] / (double)nk;
    }
    *out = L.v;
    *nout = L.n;
    L.v = NULL;
done:
    if (st == PN_ENOMEM) pni_error(err, st, 0, 0, "out of memory");
    free(L.v);
    free(use); free(test); free(pool);
    evset_free(&S);
    return st;
}
