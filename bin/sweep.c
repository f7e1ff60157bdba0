/* pn-sweep's runner: the grid, the points built and run on threads, the
 * results written a point at a time in point order, --resume, --merge. */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "pn.h"
#include "gpu.h"
#include "sweep.h"
#include "lib_private.h"

#define MAX_VALUES 1000000

void sweep_init(sweep_t *s, const char *prog)
{
    memset(s, 0, sizeof *s);
    s->prog = prog;
    s->runs = 10;
    s->seed = 1;
    s->max_steps = UINT64_C(100000000);
    s->fmt = PN_RESULTS_CSV;
    s->output = "-";
    s->shard_n = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->threads = cores > 0 ? (unsigned)cores : 1;
}

void sweep_free(sweep_t *s)
{
    for (size_t i = 0; i < s->nparams; i++) {
        param_t *p = &s->params[i];
        free(p->name);
        for (size_t k = 0; k < p->nvalues; k++)
            free(p->values[k]);
        free(p->values);
        free(p->index);
    }
    free(s->params);
    for (size_t i = 0; i < s->ncounts; i++)
        free(s->counts[i]);
    free(s->counts);
}

/* "prog: " or "prog: FILE:LINE: " before a message */
static void where(const sweep_t *s, const char *file, unsigned long line)
{
    if (file)
        fprintf(stderr, "%s: %s:%lu: ", s->prog, file, line);
    else
        fprintf(stderr, "%s: ", s->prog);
}

static int push_value(param_t *p, const char *v, size_t len)
{
    if (p->nvalues >= MAX_VALUES)
        return -1;
    char **nv = realloc(p->values, (p->nvalues + 1) * sizeof *nv);
    if (!nv)
        return -1;
    p->values = nv;
    if (!(nv[p->nvalues] = strndup(v, len)))
        return -1;
    p->nvalues++;
    return 0;
}

/* One element of a numeric list: N, A:B or A:B:STEP. */
static int expand(const sweep_t *s, param_t *p, const char *e, size_t len,
                  const char *file, unsigned long line)
{
    char buf[96];
    if (len == 0 || len >= sizeof buf)
        goto bad;
    memcpy(buf, e, len);
    buf[len] = '\0';
    char *f[3] = {buf, NULL, NULL};
    int nf = 1;
    for (char *c = buf; *c; c++)
        if (*c == ':') {
            if (nf == 3)
                goto bad;
            *c = '\0';
            f[nf++] = c + 1;
        }
    uint64_t a, b = 0, step = 1;
    if (cli_parse_u64(f[0], 0, &a) || (nf > 1 && cli_parse_u64(f[1], 0, &b)) ||
        (nf > 2 && cli_parse_u64(f[2], 1, &step)))
        goto bad;
    if (nf == 1)
        b = a;
    if (b < a) {
        where(s, file, line);
        fprintf(stderr, "%s: the range %.*s goes down\n", p->name, (int)len,
                e);
        return -1;
    }
    for (uint64_t v = a;; v += step) {
        char t[32];
        int n = snprintf(t, sizeof t, "%" PRIu64, v);
        if (push_value(p, t, (size_t)n) != 0) {
            where(s, file, line);
            fprintf(stderr, "%s: more than %d values\n", p->name, MAX_VALUES);
            return -1;
        }
        if (b - v < step)
            break;
    }
    return 0;
bad:
    where(s, file, line);
    fprintf(stderr, "%s: '%.*s' is not a whole number or a range A:B[:STEP]\n",
            p->name, (int)len, e);
    return -1;
}

/* The parameter named name, added when new.  NULL after a message. */
static param_t *param_named(sweep_t *s, const char *name, size_t len,
                            const char *file, unsigned long line)
{
    for (size_t i = 0; i < s->nparams; i++)
        if (strlen(s->params[i].name) == len &&
            !strncmp(s->params[i].name, name, len)) {
            where(s, file, line);
            fprintf(stderr, "parameter '%.*s' given twice\n", (int)len, name);
            return NULL;
        }
    char *n = strndup(name, len);
    param_t *ps = n ? realloc(s->params, (s->nparams + 1) * sizeof *ps) : NULL;
    if (!ps) {
        free(n);
        where(s, file, line);
        fprintf(stderr, "out of memory\n");
        return NULL;
    }
    s->params = ps;
    param_t *p = &ps[s->nparams];
    memset(p, 0, sizeof *p);
    p->name = n;
    long row = pn_gpu_option_find(n);
    if (row >= 0) {
        p->kind = PARAM_GPU;
        p->row = (size_t)row;
    } else if (!strncmp(n, "p_init:", 7) && n[7]) {
        p->kind = PARAM_INIT;
        p->id = n + 7;
    } else if (!strncmp(n, "arc:", 4) && n[4]) {
        p->kind = PARAM_ARC;
        p->id = n + 4;
    } else {
        where(s, file, line);
        fprintf(stderr, "'%s' is not a parameter (a pn-gen-gpu option such as "
                "warps, or p_init:ID, arc:ID)\n", n);
        free(n);
        return NULL;
    }
    if (!pn_results_param_ok(n) || strlen(n) > 200) {
        where(s, file, line);
        fprintf(stderr, "'%s' cannot be a column name\n", n);
        free(n);
        return NULL;
    }
    s->nparams++;
    return p;
}

static int is_numeric(const param_t *p)
{
    if (p->kind != PARAM_GPU)
        return 1;
    size_t n;
    pn_gpu_opt_type_t t = pn_gpu_option_table(&n)[p->row].type;
    return t != PN_GPU_OPT_FILE && t != PN_GPU_OPT_TEXT;
}

int sweep_add_param(sweep_t *s, const char *arg, const char *file,
                    unsigned long line)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) {
        where(s, file, line);
        fprintf(stderr, "--param: '%s' is not NAME=VALUES\n", arg);
        return -1;
    }
    param_t *p = param_named(s, arg, (size_t)(eq - arg), file, line);
    if (!p)
        return -1;
    for (const char *e = eq + 1;;) {
        const char *comma = strchr(e, ',');
        size_t len = comma ? (size_t)(comma - e) : strlen(e);
        int r = is_numeric(p) ? expand(s, p, e, len, file, line)
                              : (len ? push_value(p, e, len) : -1);
        if (r != 0) {
            if (!is_numeric(p)) {
                where(s, file, line);
                fprintf(stderr, "%s: an empty value\n", p->name);
            }
            return -1;
        }
        if (!comma)
            break;
        e = comma + 1;
    }
    return 0;
}

int sweep_add_param_values(sweep_t *s, const char *name,
                           const char *const *values, size_t n,
                           const char *file, unsigned long line)
{
    param_t *p = param_named(s, name, strlen(name), file, line);
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int r = is_numeric(p) ? expand(s, p, values[i], strlen(values[i]),
                                       file, line)
                              : push_value(p, values[i], strlen(values[i]));
        if (r != 0)
            return -1;
    }
    return 0;
}

int sweep_add_counts(sweep_t *s, const char *list)
{
    for (const char *e = list;;) {
        const char *comma = strchr(e, ',');
        size_t len = comma ? (size_t)(comma - e) : strlen(e);
        if (len == 0) {
            fprintf(stderr, "%s: --count: an empty id in '%s'\n", s->prog,
                    list);
            return -1;
        }
        char **c = realloc(s->counts, (s->ncounts + 1) * sizeof *c);
        if (!c)
            return -1;
        s->counts = c;
        if (!(c[s->ncounts] = strndup(e, len)))
            return -1;
        s->ncounts++;
        if (!comma)
            break;
        e = comma + 1;
    }
    return 0;
}

/* ---- the grid ---------------------------------------------------------- */

typedef struct {
    sweep_t *s;
    size_t ndims;          /* the "net" parameter first when there are files */
    uint64_t npoints;
    const char **names;    /* ndims column names */
    char **measures;       /* steps, firings, count:ID... */
    size_t nmeasures;
    pn_net_t **nets;       /* the files, read once */
    pthread_mutex_t net_lock; /* the nets are changed point by point */
    pn_results_layout_t layout;
} grid_t;

/* The values of point k, one a dimension (borrowed). */
static void point_values(const grid_t *g, uint64_t k, const char **v,
                         size_t *file)
{
    const sweep_t *s = g->s;
    *file = 0;
    for (size_t d = g->ndims; d-- > 0;) {
        if (d == 0 && s->nfiles) {
            *file = (size_t)(k % s->nfiles);
            v[0] = s->files[*file];
            k /= s->nfiles;
            break;
        }
        const param_t *p = &s->params[d - (s->nfiles ? 1 : 0)];
        v[d] = p->values[k % p->nvalues];
        k /= p->nvalues;
    }
}

/* The generator's net of point k, whose values are v.  Returns 0, or -1
 * with msg filled. */
static int gpu_net(const sweep_t *s, uint64_t k, const char **v,
                   pn_net_t **out, char *msg, size_t msgsize)
{
    pn_error_t err;
    pn_net_t *net = NULL;
    pn_gpu_options_t o;
    pn_gpu_options_init(&o);
    for (size_t i = 0; i < s->nparams; i++)
        if (pn_gpu_option_set(&o, s->params[i].row, v[i], &err)) {
            snprintf(msg, msgsize, "point %" PRIu64 ": %s", k, err.text);
            return -1;
        }
    /* simulated in time: the net with time, unless the sweep says */
    long row = pn_gpu_option_find("stochastic");
    if (s->st.on && row >= 0 && !(o.given >> row & 1))
        pn_gpu_option_set(&o, (size_t)row, "1", &err);
    pn_gpu_params_t gp;
    pn_gpu_warp_t *work;
    if (pn_gpu_options_arch(&o, &err) ||
        pn_gpu_options_resolve(&o, &gp, &work, &err)) {
        char buf[PN_ERROR_FILE_MAX + PN_ERROR_TEXT_MAX + 64];
        snprintf(msg, msgsize, "point %" PRIu64 ": %s", k,
                 cli_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (gp.warps > PN_GPU_MAX_WARPS) {
        snprintf(msg, msgsize, "point %" PRIu64 ": %zu warps: at most %d",
                 k, gp.warps, PN_GPU_MAX_WARPS);
        free(work);
        return -1;
    }
    pn_status_t st = pn_gpu_net(&gp, &net);
    free(work);
    if (st) {
        snprintf(msg, msgsize, "point %" PRIu64 ": cannot build the net: "
                 "%s", k, pn_strstatus(st));
        return -1;
    }
    *out = net;
    return 0;
}

/* The net of point k: a file's with the point's values (returned with
 * the nets' lock held, for point_net_done()) or the generator's.  Returns
 * 0, or -1 with msg filled. */
static int point_net(grid_t *g, uint64_t k, pn_net_t **out, char *msg,
                     size_t msgsize)
{
    sweep_t *s = g->s;
    const char *v[g->ndims + 1];
    size_t file;
    point_values(g, k, v, &file);
    size_t off = s->nfiles ? 1 : 0;
    if (!s->nfiles)
        return gpu_net(s, k, v, out, msg, msgsize);
    pthread_mutex_lock(&g->net_lock);
    pn_net_t *net = g->nets[file];
    for (size_t i = 0; i < s->nparams; i++) {
        const param_t *p = &s->params[i];
        uint64_t x = 0; /* checked when the parameter was read */
        cli_parse_u64(v[i + off], 0, &x);
        pn_status_t st = p->kind == PARAM_INIT
            ? pn_net_set_marking(net, p->index[file], x)
            : pn_net_set_arc_weight(net, p->index[file], x);
        if (st) {
            snprintf(msg, msgsize, "point %" PRIu64 ": %s=%s is not "
                     "allowed (%s)", k, p->name, v[i + off],
                     pn_strstatus(st));
            pthread_mutex_unlock(&g->net_lock);
            return -1;
        }
    }
    *out = net;
    return 0;
}

static void point_net_done(grid_t *g, pn_net_t *net)
{
    if (g->s->nfiles)
        pthread_mutex_unlock(&g->net_lock);
    else
        pn_net_free(net);
}

/* The compiled net of point k (and the counted transitions' indexes).
 * Returns 0, or -1 with msg filled. */
static int build_point(grid_t *g, uint64_t k, pn_engine_t **engine,
                       size_t *count_idx, char *msg, size_t msgsize)
{
    sweep_t *s = g->s;
    pn_net_t *net = NULL;
    int rc = -1;
    if (point_net(g, k, &net, msg, msgsize) != 0)
        return -1;
    for (size_t i = 0; i < s->ncounts; i++) {
        pn_object_t kind;
        if (pn_net_find(net, s->counts[i], &kind, &count_idx[i]) != PN_OK ||
            kind != PN_TRANSITION) {
            snprintf(msg, msgsize, "point %" PRIu64 ": --count: '%s' is not "
                     "a transition of the net", k, s->counts[i]);
            goto done;
        }
    }
    if (pn_engine_compile(net, engine) != PN_OK) {
        snprintf(msg, msgsize, "point %" PRIu64 ": the net is too large to "
                 "compile", k);
        goto done;
    }
    rc = 0;
done:
    point_net_done(g, net);
    return rc;
}

/* ---- the stochastic semantics: a simulation a point --------------------- */

/* A value in a CSV field (commas and quotes as '_', as pn-run's ids) or a
 * JSON member (a whole number as a number, else a string). */
static void put_value(FILE *m, const char *v, int json)
{
    if (!json) {
        for (const char *c = v; *c; c++)
            fputc(*c == ',' || *c == '"' ? '_' : *c, m);
        return;
    }
    size_t n = strlen(v);
    if (n && n < 19 && strspn(v, "0123456789") == n)
        fputs(v, m);
    else
        pni_json_string(m, v, 0);
}

/* Point k's prefix of its rows: the columns before "measure" (CSV) or
 * the members before it (JSON), malloc'd. */
static char *stoch_prefix(const grid_t *g, uint64_t k, uint64_t seed,
                          int json)
{
    const char *v[g->ndims + 1];
    size_t file;
    point_values(g, k, v, &file);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    fprintf(m, json ? "\"schema\":1,\"kind\":\"estimate\",\"point\":%" PRIu64
                      ",\"seed\":%" PRIu64 ",\"params\":{"
                    : "1,estimate,%" PRIu64 ",%" PRIu64 ",", k, seed);
    for (size_t d = 0; d < g->ndims; d++) {
        if (json) {
            fprintf(m, "%s", d ? "," : "");
            pni_json_string(m, g->names[d], 0);
            fputc(':', m);
        }
        put_value(m, v[d], json);
        if (!json)
            fputc(',', m);
    }
    fputs(json ? "}," : "", m);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Each point of todo simulated in turn (the simulation has its threads),
 * its estimates written as they come.  Returns -1 (done), 4 (some point
 * short of its accuracy) or an exit code. */
static int stochastic_sweep(sweep_t *s, grid_t *g, FILE *out,
                            const uint64_t *todo, uint64_t ntodo)
{
    int json = s->fmt != PN_RESULTS_CSV, rc = -1, short_of = 0;
    if (!json) {
        fprintf(out, "schema,kind,point,seed");
        for (size_t d = 0; d < g->ndims; d++)
            fprintf(out, ",%s", g->names[d]);
        fprintf(out, ",measure,id,time,mean,low,high\n");
    }
    cli_defer_signals();
    for (uint64_t i = 0; i < ntodo && rc < 0; i++) {
        if ((s->signal = cli_signal_pending()))
            break;
        uint64_t k = todo[i];
        char msg[600], where[64];
        pn_net_t *net;
        if (point_net(g, k, &net, msg, sizeof msg) != 0) {
            fprintf(stderr, "%s: %s\n", s->prog, msg);
            return CLI_EINPUT;
        }
        cli_run_t run;
        cli_run_init(&run, NULL);
        run.seed = pn_point_seed(s->seed, k);
        run.runs = s->runs_given ? s->runs : 0;
        run.max_steps = s->max_steps;
        run.jobs = s->threads;
        char *prefix = stoch_prefix(g, k, run.seed, json);
        snprintf(where, sizeof where, "point %" PRIu64 ": ", k);
        s->st.out = out;
        s->st.csv_prefix = json ? NULL : prefix;
        s->st.json_prefix = json ? prefix : NULL;
        s->st.where = where;
        int r = prefix ? run_stochastic(s->prog, net, &run, &s->st,
                                        json ? CLI_JSON : CLI_CSV)
                       : CLI_EINPUT;
        free(prefix);
        point_net_done(g, net);
        if (r == 4)
            short_of = 1;
        else if (r != CLI_OK)
            rc = r;
        if (fflush(out) != 0 && rc < 0)
            rc = CLI_EOUTPUT;
    }
    if (s->signal && !s->quiet)
        fprintf(stderr, "%s: interrupted\n", s->prog);
    return rc >= 0 ? rc : short_of ? 4 : -1;
}

/* Writes point k's rows into a memory buffer (*buf, *len; free()). */
static int format_point(const grid_t *g, uint64_t k, uint64_t runs,
                        const double *values, const pn_end_t *ends,
                        const uint64_t *seeds, char **buf, size_t *len)
{
    const sweep_t *s = g->s;
    const char *v[g->ndims + 1];
    size_t file;
    point_values(g, k, v, &file);
    FILE *m = open_memstream(buf, len);
    if (!m)
        return -1;
    pn_results_point_t pt = {
        .point = k, .param_values = v, .seed = s->seed,
        .requested = s->runs, .runs = runs, .nmeasures = g->nmeasures,
        .measures = (const char *const *)g->measures, .values = values,
        .ends = ends, .seeds = seeds, .include_limited = s->include_limited};
    pn_status_t st = PN_OK;
    if (s->per_run)
        st = pn_results_write_runs(m, &g->layout, &pt);
    if (!st)
        st = pn_results_write_point(m, &g->layout, &pt);
    if (fclose(m) != 0 || st) {
        free(*buf);
        *buf = NULL;
        return -1;
    }
    return 0;
}

/* ---- running: points on threads, written in order ---------------------- */

typedef struct {
    uint64_t ti;           /* which entry of todo */
    int state;             /* 0 free, 2 open (its arrays), 3 failed */
    int building;          /* a thread is compiling its net */
    pn_engine_t *engine;   /* compiled by the first local thread to need it */
    size_t *count_idx;
    double *values;        /* runs x nmeasures */
    pn_end_t *ends;
    uint64_t *seeds;
    uint64_t done;
} slot_t;

struct sweep_pool {
    grid_t *g;
    const uint64_t *todo;  /* the points to run, in order */
    uint64_t ntodo;
    uint64_t next;         /* next task: todo index * runs + run */
    uint64_t written;      /* todo entries written */
    uint64_t window;
    slot_t *slots;         /* window of them, todo index mod window */
    int stop;              /* a signal or a failure: no new task */
    char msg[600];         /* the failure */
    int failed;
    uint64_t runs_done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};
typedef struct sweep_pool pool_t;

/* Under the lock: the failure msg, the first one kept. */
static void pool_fail_locked(pool_t *pl, const char *msg)
{
    if (!pl->failed) {
        pl->failed = 1;
        snprintf(pl->msg, sizeof pl->msg, "%s", msg);
    }
    pl->stop = 1;
    pthread_cond_broadcast(&pl->cond);
}

/* Under the lock: slot sl opened for todo entry ti (its arrays; the net is
 * compiled later, where it runs).  0, or -1 after pool_fail_locked(). */
static int slot_open(pool_t *pl, slot_t *sl, uint64_t ti)
{
    const sweep_t *s = pl->g->s;
    sl->ti = ti;
    sl->done = 0;
    sl->building = 0;
    sl->engine = NULL;
    if (!(sl->count_idx = calloc(s->ncounts + 1, sizeof *sl->count_idx)) ||
        !(sl->values = calloc(s->runs * pl->g->nmeasures,
                              sizeof *sl->values)) ||
        !(sl->ends = calloc(s->runs, sizeof *sl->ends)) ||
        !(sl->seeds = calloc(s->runs, sizeof *sl->seeds))) {
        sl->state = 3;
        pool_fail_locked(pl, "out of memory");
        return -1;
    }
    sl->state = 2;
    return 0;
}

/* One run of a compiled point into row (nmeasures values), *end, *seed. */
static int run_one(const grid_t *g, const pn_engine_t *engine,
                   const size_t *count_idx, uint64_t point, uint64_t r,
                   double *row, pn_end_t *end, uint64_t *seed_out)
{
    const sweep_t *s = g->s;
    uint64_t seed = pn_run_seed(pn_point_seed(s->seed, point), r);
    pn_sim_t *sim = pn_sim_new(engine, seed, s->sem, 0);
    if (!sim)
        return -1;
    *end = pn_sim_run(sim, s->max_steps);
    row[0] = (double)pn_sim_steps(sim);
    row[1] = (double)pn_sim_firings(sim);
    const uint64_t *c = pn_sim_counts(sim);
    for (size_t i = 0; i < s->ncounts; i++)
        row[i + 2] = (double)c[count_idx[i]];
    *seed_out = seed;
    pn_sim_free(sim);
    return 0;
}

static void *worker(void *arg)
{
    pool_t *pl = arg;
    grid_t *g = pl->g;
    sweep_t *s = g->s;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        uint64_t ti = pl->next / s->runs, r = pl->next % s->runs;
        while (!pl->stop && ti < pl->ntodo && ti >= pl->written + pl->window) {
            pthread_cond_wait(&pl->cond, &pl->lock);
            ti = pl->next / s->runs;
            r = pl->next % s->runs;
        }
        if (pl->stop || ti >= pl->ntodo)
            break;
        slot_t *sl = &pl->slots[ti % pl->window];
        /* a run at a time, or (when points are many and runs few) the
         * point's runs left at once: fewer trips through the lock */
        uint64_t r1 = r + 1;
        if (pl->ntodo - ti > 2 * pl->window)
            r1 = s->runs;
        pl->next = ti * s->runs + r1;
        if (r == 0 && slot_open(pl, sl, ti) != 0)
            break;
        if (sl->state == 3)
            break;
        if (!sl->engine) {
            if (sl->building) {
                while (sl->building && sl->state == 2)
                    pthread_cond_wait(&pl->cond, &pl->lock);
            } else {
                char msg[sizeof pl->msg];
                pn_engine_t *e = NULL;
                sl->building = 1;
                pthread_mutex_unlock(&pl->lock);
                int bad = build_point(g, pl->todo[ti], &e, sl->count_idx,
                                      msg, sizeof msg) != 0;
                pthread_mutex_lock(&pl->lock);
                sl->building = 0;
                sl->engine = e;
                if (bad) {
                    sl->state = 3;
                    pool_fail_locked(pl, msg);
                }
                pthread_cond_broadcast(&pl->cond);
            }
            if (!sl->engine)
                break;
        }
        pthread_mutex_unlock(&pl->lock);
        /* the runs, outside the lock */
        int bad = 0;
        for (uint64_t x = r; x < r1 && !bad; x++)
            bad = run_one(g, sl->engine, sl->count_idx, pl->todo[ti], x,
                          sl->values + x * g->nmeasures, &sl->ends[x],
                          &sl->seeds[x]) != 0;
        pthread_mutex_lock(&pl->lock);
        if (bad) {
            pool_fail_locked(pl, "out of memory");
            break;
        }
        sl->done += r1 - r;
        pl->runs_done += r1 - r;
        if (sl->done == s->runs)
            pthread_cond_broadcast(&pl->cond);
    }
    pthread_cond_broadcast(&pl->cond);
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

int sweep_pool_claim(sweep_pool_t *pl, unsigned parts, uint64_t *ti_out,
                     uint64_t *point, uint64_t *r0, uint64_t *r1)
{
    const sweep_t *s = pl->g->s;
    uint64_t n;
    int rc;
    pthread_mutex_lock(&pl->lock);
    uint64_t ti = pl->next / s->runs, r = pl->next % s->runs;
    if (pl->stop || ti >= pl->ntodo)
        rc = -1;
    else if (ti >= pl->written + pl->window)
        rc = 0;
    else {
        slot_t *sl = &pl->slots[ti % pl->window];
        /* guided: a share of what is left, smaller toward the end so that
         * the ranks finish together */
        uint64_t left = pl->ntodo * s->runs - pl->next;
        n = left / (2 * (parts ? parts : 1));
        n = n < 4 ? 4 : n > 4096 ? 4096 : n;
        uint64_t e = n < s->runs - r ? r + n : s->runs;
        pl->next = ti * s->runs + e;
        if (r == 0 && slot_open(pl, sl, ti) != 0)
            rc = -1;
        else {
            *ti_out = ti;
            *point = pl->todo[ti];
            *r0 = r;
            *r1 = e;
            rc = 1;
        }
    }
    pthread_mutex_unlock(&pl->lock);
    return rc;
}

int sweep_pool_deliver(sweep_pool_t *pl, uint64_t ti, uint64_t r0,
                       uint64_t r1, const double *values,
                       const pn_end_t *ends, const uint64_t *seeds)
{
    const sweep_t *s = pl->g->s;
    size_t nm = pl->g->nmeasures;
    int rc = -1;
    pthread_mutex_lock(&pl->lock);
    slot_t *sl = &pl->slots[ti % pl->window];
    if (ti < pl->ntodo && sl->ti == ti && sl->state == 2 && r0 < r1 &&
        r1 <= s->runs) {
        memcpy(sl->values + r0 * nm, values, (r1 - r0) * nm * sizeof *values);
        memcpy(sl->ends + r0, ends, (r1 - r0) * sizeof *ends);
        memcpy(sl->seeds + r0, seeds, (r1 - r0) * sizeof *seeds);
        sl->done += r1 - r0;
        pl->runs_done += r1 - r0;
        pthread_cond_broadcast(&pl->cond);
        rc = 0;
    }
    pthread_mutex_unlock(&pl->lock);
    return rc;
}

void sweep_pool_fail(sweep_pool_t *pl, const char *msg)
{
    pthread_mutex_lock(&pl->lock);
    pool_fail_locked(pl, msg);
    pthread_mutex_unlock(&pl->lock);
}

size_t sweep_pool_nmeasures(const sweep_pool_t *pl)
{
    return pl->g->nmeasures;
}

static void slot_clear(slot_t *sl)
{
    pn_engine_free(sl->engine);
    free(sl->count_idx);
    free(sl->values);
    free(sl->ends);
    free(sl->seeds);
    sl->engine = NULL;
    sl->count_idx = NULL;
    sl->values = NULL;
    sl->ends = NULL;
    sl->seeds = NULL;
    sl->state = 0;
}

/* the progress line */
typedef struct {
    int on, tty;
    double t0, last;
    uint64_t total_runs;
    int shown;
} progress_t;

static void progress_show(progress_t *pr, const pool_t *pl, int force)
{
    if (!pr->on)
        return;
    double t = cli_now();
    if (!force && t - pr->last < (pr->tty ? 0.25 : 1.0))
        return;
    pr->last = t;
    double rate = t > pr->t0 ? (double)pl->runs_done / (t - pr->t0) : 0;
    uint64_t left = pr->total_runs - pl->runs_done;
    double eta = rate > 0 ? (double)left / rate : 0;
    fprintf(stderr, "%s%s: %" PRIu64 "/%" PRIu64 " points, %.1f runs/s, ETA "
            "%dm%02ds%s", pr->tty ? "\r" : "", pl->g->s->prog, pl->written,
            pl->ntodo, rate, (int)(eta / 60), (int)eta % 60,
            pr->tty ? "   " : "\n");
    pr->shown = 1;
}

/* ---- result files: lines, points, --resume ----------------------------- */

/* The point and kind of a row of ours (pn_results_row_parse(), row reused
 * from line to line); 0, or -1 for a line that is not one (a header). */
static int row_point(pn_results_row_t *row, const char *line, size_t len,
                     pn_results_format_t fmt, uint64_t *point, int *is_point)
{
    if (pn_results_row_parse(fmt, line, len, row, NULL) != PN_OK ||
        row->kind == PN_RESULTS_HEADER)
        return -1;
    *point = row->point;
    *is_point = row->kind == PN_RESULTS_POINT;
    return 0;
}

/* A results file's blocks: the lines of each point, in the file's order. */
typedef struct {
    uint64_t point;
    char *text;        /* its lines */
    size_t len;
    size_t point_rows; /* rows of kind point */
    long end;          /* the file offset after it */
} block_t;

typedef struct {
    char *header;      /* CSV: the first line */
    block_t *b;
    size_t n;
} rfile_t;

static void rfile_free(rfile_t *f)
{
    free(f->header);
    for (size_t i = 0; i < f->n; i++)
        free(f->b[i].text);
    free(f->b);
    memset(f, 0, sizeof *f);
}

/* Reads a results file written in fmt.  A last line without its newline
 * is left out (an interrupted write).  Returns 0, or -1 after a message
 * naming the file and line. */
static int rfile_read(const sweep_t *s, const char *path, FILE *f,
                      pn_results_format_t fmt, rfile_t *out)
{
    memset(out, 0, sizeof *out);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long lineno = 0;
    pn_results_row_t row = {0};
    while ((n = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[n - 1] != '\n')
            break; /* cut short */
        if (lineno == 1 && fmt == PN_RESULTS_CSV) {
            out->header = strdup(line);
            continue;
        }
        uint64_t point;
        int is_point;
        if (row_point(&row, line, (size_t)n, fmt, &point, &is_point) != 0) {
            fprintf(stderr, "%s: %s:%lu: not a row of result schema %d in "
                    "%s\n", s->prog, path, lineno, PN_RESULTS_SCHEMA,
                    fmt == PN_RESULTS_CSV ? "CSV" : "JSON Lines");
            free(line);
            pn_results_row_free(&row);
            rfile_free(out);
            return -1;
        }
        block_t *b = out->n ? &out->b[out->n - 1] : NULL;
        if (!b || b->point != point) {
            block_t *nb = realloc(out->b, (out->n + 1) * sizeof *nb);
            if (!nb)
                break;
            out->b = nb;
            b = &nb[out->n++];
            memset(b, 0, sizeof *b);
            b->point = point;
        }
        char *t = realloc(b->text, b->len + (size_t)n + 1);
        if (!t)
            break;
        memcpy(t + b->len, line, (size_t)n + 1);
        b->text = t;
        b->len += (size_t)n;
        b->point_rows += is_point;
        b->end = ftell(f);
    }
    free(line);
    pn_results_row_free(&row);
    return 0;
}

/* ---- the sweep ---------------------------------------------------------- */

static char *dup_measure(const char *prefix, const char *id)
{
    size_t len = strlen(prefix) + strlen(id) + 1;
    char *m = malloc(len);
    if (m)
        snprintf(m, len, "%s%s", prefix, id);
    return m;
}

/* The grid: dimensions, points, measures, nets.  Returns -1 to go on, or
 * an exit code after a message. */
static int grid_setup(grid_t *g, sweep_t *s)
{
    memset(g, 0, sizeof *g);
    g->s = s;
    pthread_mutex_init(&g->net_lock, NULL);
    g->ndims = s->nparams + (s->nfiles ? 1 : 0);
    g->names = calloc(g->ndims + 1, sizeof *g->names);
    g->nmeasures = s->ncounts + 2;
    g->measures = calloc(g->nmeasures, sizeof *g->measures);
    if (!g->names || !g->measures)
        goto nomem;
    g->measures[0] = strdup("steps");
    g->measures[1] = strdup("firings");
    for (size_t i = 0; i < s->ncounts; i++)
        g->measures[i + 2] = dup_measure("count:", s->counts[i]);
    for (size_t i = 0; i < g->nmeasures; i++)
        if (!g->measures[i])
            goto nomem;
    size_t d = 0;
    if (s->nfiles)
        g->names[d++] = "net";
    g->npoints = s->nfiles ? s->nfiles : 1;
    for (size_t i = 0; i < s->nparams; i++) {
        const param_t *p = &s->params[i];
        if (s->nfiles && p->kind == PARAM_GPU) {
            fprintf(stderr, "%s: %s is a parameter of the GPU generator: not "
                    "with net FILEs\n", s->prog, p->name);
            return CLI_EUSAGE;
        }
        if (!s->nfiles && p->kind != PARAM_GPU) {
            fprintf(stderr, "%s: %s needs net FILEs\n", s->prog, p->name);
            return CLI_EUSAGE;
        }
        if (p->nvalues && g->npoints > UINT64_MAX / p->nvalues) {
            fprintf(stderr, "%s: too many points\n", s->prog);
            return CLI_EUSAGE;
        }
        g->npoints *= p->nvalues;
        g->names[d++] = p->name;
    }
    g->layout.format = s->fmt;
    g->layout.nparams = g->ndims;
    g->layout.params = g->names;
    /* the nets: read once, the ids of the parameters found in each */
    if (s->nfiles) {
        g->nets = calloc(s->nfiles, sizeof *g->nets);
        if (!g->nets)
            goto nomem;
        for (size_t f = 0; f < s->nfiles; f++) {
            if (cli_read_net(s->prog, s->files[f], NULL, &g->nets[f]) !=
                CLI_OK)
                return CLI_EINPUT;
            for (size_t i = 0; i < s->nparams; i++) {
                param_t *p = &s->params[i];
                if (!p->index && !(p->index = calloc(s->nfiles,
                                                     sizeof *p->index)))
                    goto nomem;
                pn_object_t kind;
                pn_object_t want = p->kind == PARAM_INIT ? PN_PLACE : PN_ARC;
                if (pn_net_find(g->nets[f], p->id, &kind, &p->index[f]) !=
                        PN_OK || kind != want) {
                    fprintf(stderr, "%s: %s: %s: '%s' is not %s of the net\n",
                            s->prog, cli_input_name(s->files[f]), p->name,
                            p->id,
                            want == PN_PLACE ? "a place" : "an arc");
                    return CLI_EUSAGE;
                }
            }
        }
    } else {
        /* every value of every generator parameter, as the generator takes
         * it; point 0's combination too (a launch needs all three) */
        pn_error_t err;
        for (size_t i = 0; i < s->nparams; i++) {
            pn_gpu_options_t o;
            pn_gpu_options_init(&o);
            for (size_t k = 0; k < s->params[i].nvalues; k++)
                if (pn_gpu_option_set(&o, s->params[i].row,
                                      s->params[i].values[k], &err)) {
                    fprintf(stderr, "%s: --param %s\n", s->prog, err.text);
                    return CLI_EUSAGE;
                }
        }
    }
    return -1;
nomem:
    fprintf(stderr, "%s: out of memory\n", s->prog);
    return CLI_EINPUT;
}

static void grid_free(grid_t *g)
{
    for (size_t i = 0; g->measures && i < g->nmeasures; i++)
        free(g->measures[i]);
    free(g->measures);
    free(g->names);
    for (size_t f = 0; g->nets && f < g->s->nfiles; f++)
        pn_net_free(g->nets[f]);
    free(g->nets);
    pthread_mutex_destroy(&g->net_lock);
}

/* The first --count id that is not a transition of net, or NULL. */
static const char *unknown_count(const sweep_t *s, const pn_net_t *net)
{
    for (size_t i = 0; i < s->ncounts; i++) {
        pn_object_t kind;
        size_t idx;
        if (pn_net_find(net, s->counts[i], &kind, &idx) != PN_OK ||
            kind != PN_TRANSITION)
            return s->counts[i];
    }
    return NULL;
}

/* Every --count id a transition of every net the sweep runs (as pn-run
 * checks it), before any output: each file, or the generator's net of each
 * point of this shard (a point whose net cannot be built is left to the
 * run, which says why).  Returns -1 to go on, or CLI_EUSAGE after a
 * message. */
static int check_counts(grid_t *g)
{
    const sweep_t *s = g->s;
    const char *bad = NULL, *where = NULL;
    char wbuf[64];
    for (size_t f = 0; f < s->nfiles && !bad; f++)
        if ((bad = unknown_count(s, g->nets[f])))
            where = cli_input_name(s->files[f]);
    for (uint64_t k = s->shard_k; !s->nfiles && s->ncounts && !bad &&
                                  k < g->npoints; k += s->shard_n) {
        const char *v[g->ndims + 1];
        size_t file;
        char msg[600];
        pn_net_t *net;
        point_values(g, k, v, &file);
        if (gpu_net(s, k, v, &net, msg, sizeof msg) != 0)
            continue;
        if ((bad = unknown_count(s, net))) {
            snprintf(wbuf, sizeof wbuf, "point %" PRIu64, k);
            where = wbuf;
        }
        pn_net_free(net);
    }
    if (!bad)
        return -1;
    fprintf(stderr, "%s: --count: '%s' is not a transition of the net (%s)\n",
            s->prog, bad, where);
    return CLI_EUSAGE;
}

/* The header a results file of this sweep starts with (CSV), malloc'd. */
static char *header_text(const grid_t *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    pn_results_write_header(m, &g->layout);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* --resume: the points the file holds whole (done[k] = 1), and the file cut
 * after the last of them.  Returns -1 to go on, or an exit code. */
static int resume_file(const grid_t *g, FILE *f, unsigned char *done,
                       int *empty)
{
    const sweep_t *s = g->s;
    rfile_t rf;
    if (rfile_read(s, s->output, f, s->fmt, &rf) != 0)
        return CLI_EINPUT;
    int rc = -1;
    long keep = 0;
    char *want = header_text(g);
    if (rf.header && (!want || strcmp(rf.header, want))) {
        fprintf(stderr, "%s: %s:1: the header is not this sweep's (other "
                "parameters or format): cannot resume\n", s->prog, s->output);
        rc = CLI_EINPUT;
        goto out;
    }
    if (rf.header)
        keep = (long)strlen(rf.header);
    for (size_t i = 0; i < rf.n; i++) {
        block_t *b = &rf.b[i];
        if (b->point_rows != g->nmeasures || b->point >= g->npoints)
            break; /* cut short by a crash: run again */
        done[b->point] = 1;
        keep = b->end;
    }
    *empty = keep == 0;
    fflush(f);
    if (ftruncate(fileno(f), keep) != 0 || fseek(f, keep, SEEK_SET) != 0) {
        fprintf(stderr, "%s: %s: cannot write: %s\n", s->prog, s->output,
                strerror(errno));
        rc = CLI_EOUTPUT;
    }
out:
    free(want);
    rfile_free(&rf);
    return rc;
}

/* The writer: each point in order, once its runs are done, until every
 * point is written, a run fails or a signal comes (the pool's lock is
 * held on entry and on return).  Returns rc, or the exit code of an
 * output that failed. */
static int write_in_order(sweep_t *s, const grid_t *g, pool_t *pl, FILE *out,
                          const uint64_t *todo, uint64_t ntodo, int mpi,
                          progress_t *pr, int rc)
{
    while (rc < 0 && pl->written < ntodo) {
        slot_t *sl = &pl->slots[pl->written % pl->window];
        if (sl->ti == pl->written && sl->state == 2 && sl->done == s->runs) {
            pthread_mutex_unlock(&pl->lock);
            char *buf;
            size_t len;
            int bad = format_point(g, todo[pl->written], s->runs, sl->values,
                                   sl->ends, sl->seeds, &buf, &len) != 0;
            if (!bad) {
                bad = fwrite(buf, 1, len, out) != len || fflush(out) != 0;
                free(buf);
                if (bad) {
                    fprintf(stderr, "%s: %s: cannot write: %s\n", s->prog,
                            strcmp(s->output, "-") ? s->output
                                                   : "standard output",
                            strerror(errno));
                    rc = CLI_EOUTPUT;
                }
            } else {
                fprintf(stderr, "%s: out of memory\n", s->prog);
                rc = CLI_EINPUT;
            }
            pthread_mutex_lock(&pl->lock);
            slot_clear(sl);
            pl->written++;
            pthread_cond_broadcast(&pl->cond);
            progress_show(pr, pl, 0);
            continue;
        }
        if (pl->failed || cli_signal_pending())
            break;
        if (mpi) {
            pthread_mutex_unlock(&pl->lock);
            sweep_mpi_serve(pl);
            pthread_mutex_lock(&pl->lock);
            if (pl->failed)
                break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += mpi ? 1000000 : 100000000; /* the other ranks polled */
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&pl->cond, &pl->lock, &ts);
        progress_show(pr, pl, 0);
    }
    return rc;
}

int sweep_run(sweep_t *s)
{
    if (s->exact_steps && s->max_steps_given) {
        fprintf(stderr, "%s: --steps and --max-steps: give one\n", s->prog);
        return CLI_EUSAGE;
    }
    if (s->exact_steps) {
        s->max_steps = s->steps;
        s->include_limited = 1;
    }
    if (s->resume && !strcmp(s->output, "-")) {
        fprintf(stderr, "%s: --resume needs --output FILE\n", s->prog);
        return CLI_EUSAGE;
    }
    int mpi = sweep_mpi_size() > 1;
    if (mpi && !s->threads_given)
        s->threads = 1; /* a rank a core: mpirun starts as many as asked */
    grid_t g;
    int rc = grid_setup(&g, s);
    if (rc < 0)
        rc = check_counts(&g);
    if (rc >= 0) {
        grid_free(&g);
        return rc;
    }
    unsigned char *done = calloc(g.npoints ? g.npoints : 1, 1);
    uint64_t *todo = calloc(g.npoints ? g.npoints : 1, sizeof *todo);
    if (!done || !todo) {
        fprintf(stderr, "%s: out of memory (%" PRIu64 " points)\n", s->prog,
                g.npoints);
        free(done);
        free(todo);
        grid_free(&g);
        return CLI_EINPUT;
    }
    /* the output: appended to a point at a time */
    FILE *out = stdout;
    int empty = 1;
    if (strcmp(s->output, "-")) {
        out = fopen(s->output, s->resume ? "r+" : "w");
        int fresh = !s->resume;
        if (!out && s->resume && errno == ENOENT) {
            out = fopen(s->output, "w");
            fresh = 1;
        }
        if (!out) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", s->prog, s->output,
                    strerror(errno));
            rc = CLI_EOUTPUT;
        } else if (!fresh)
            rc = resume_file(&g, out, done, &empty);
    }
    uint64_t ntodo = 0;
    for (uint64_t k = 0; k < g.npoints; k++)
        if (k % s->shard_n == s->shard_k && !done[k])
            todo[ntodo++] = k;
    if (s->st.on && rc < 0)
        rc = stochastic_sweep(s, &g, out, todo, ntodo);
    if (s->st.on)
        ntodo = 0;  /* done: no pool of runs */
    if (rc < 0 && empty && !s->st.on &&
        pn_results_write_header(out, &g.layout) != PN_OK)
        rc = CLI_EOUTPUT;
    pool_t pl = {0};
    pl.g = &g;
    pl.todo = todo;
    pl.ntodo = ntodo;
    pl.window = 2 * ((uint64_t)s->threads + (uint64_t)sweep_mpi_size()) + 2;
    pl.slots = calloc(pl.window, sizeof *pl.slots);
    for (uint64_t i = 0; pl.slots && i < pl.window; i++)
        pl.slots[i].ti = UINT64_MAX;
    pthread_mutex_init(&pl.lock, NULL);
    pthread_cond_init(&pl.cond, NULL);
    if (!pl.slots && rc < 0) {
        fprintf(stderr, "%s: out of memory\n", s->prog);
        rc = CLI_EINPUT;
    }
    pthread_t *th = calloc(s->threads, sizeof *th);
    unsigned started = 0;
    if (rc < 0 && th) {
        cli_defer_signals();
        for (; started < s->threads; started++)
            if (pthread_create(&th[started], NULL, worker, &pl) != 0)
                break;
    }
    if (rc < 0 && started == 0) {
        fprintf(stderr, "%s: cannot start a thread\n", s->prog);
        rc = CLI_EINPUT;
    }
    progress_t pr = {0};
    pr.tty = isatty(2);
    pr.on = !s->quiet && (s->progress || pr.tty);
    pr.t0 = pr.last = cli_now();
    pr.total_runs = ntodo * s->runs;
    /* the writer: each point in order, once its runs are done */
    pthread_mutex_lock(&pl.lock);
    rc = write_in_order(s, &g, &pl, out, todo, ntodo, mpi, &pr, rc);
    pl.stop = 1;
    pthread_cond_broadcast(&pl.cond);
    pthread_mutex_unlock(&pl.lock);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (mpi)
        sweep_mpi_stop();
    free(th);
    if (pr.shown) {
        progress_show(&pr, &pl, 1);
        if (pr.tty)
            fputc('\n', stderr);
    }
    if (pl.failed && rc < 0) {
        fprintf(stderr, "%s: %s\n", s->prog, pl.msg);
        rc = CLI_EINPUT;
    }
    int sig = cli_signal_pending();
    if (sig && rc < 0 && pl.written < ntodo) {
        fprintf(stderr, "%s: interrupted: %" PRIu64 " of %" PRIu64 " points "
                "written%s\n", s->prog, pl.written, ntodo,
                strcmp(s->output, "-") ? "; --resume goes on" : "");
        s->signal = sig;
    }
    for (uint64_t i = 0; pl.slots && i < pl.window; i++)
        slot_clear(&pl.slots[i]);
    free(pl.slots);
    pthread_mutex_destroy(&pl.lock);
    pthread_cond_destroy(&pl.cond);
    if (out && out != stdout && fclose(out) != 0 && rc < 0) {
        fprintf(stderr, "%s: %s: cannot write: %s\n", s->prog, s->output,
                strerror(errno));
        rc = CLI_EOUTPUT;
    }
    free(done);
    free(todo);
    grid_free(&g);
    return rc < 0 ? CLI_OK : rc;
}

/* ---- a worker rank's side --------------------------------------------- */

struct sweep_point {
    uint64_t point;
    pn_engine_t *engine;
    size_t *count_idx;
};

int sweep_worker_setup(sweep_t *s)
{
    if (s->exact_steps) {
        s->max_steps = s->steps;
        s->include_limited = 1;
    }
    grid_t *g = calloc(1, sizeof *g);
    if (!g)
        return CLI_EINPUT;
    int rc = grid_setup(g, s);
    if (rc >= 0) {
        grid_free(g);
        free(g);
        return rc;
    }
    s->grid = g;
    return -1;
}

void sweep_worker_free(sweep_t *s)
{
    if (s->grid) {
        grid_free(s->grid);
        free(s->grid);
        s->grid = NULL;
    }
}

size_t sweep_worker_nmeasures(const sweep_t *s)
{
    return ((const grid_t *)s->grid)->nmeasures;
}

void sweep_point_free(sweep_point_t *p)
{
    if (p) {
        pn_engine_free(p->engine);
        free(p->count_idx);
        free(p);
    }
}

int sweep_worker_runs(sweep_t *s, sweep_point_t **cache, uint64_t point,
                      uint64_t r0, uint64_t r1, double *values,
                      pn_end_t *ends, uint64_t *seeds, char *msg,
                      size_t msgsize)
{
    grid_t *g = s->grid;
    sweep_point_t *p = *cache;
    if (!p || p->point != point) {
        sweep_point_free(p);
        *cache = p = calloc(1, sizeof *p);
        if (!p || !(p->count_idx = calloc(s->ncounts + 1,
                                          sizeof *p->count_idx))) {
            snprintf(msg, msgsize, "out of memory");
            return -1;
        }
        p->point = point;
        if (build_point(g, point, &p->engine, p->count_idx, msg, msgsize))
            return -1;
    }
    if (!p->engine) {
        snprintf(msg, msgsize, "point %" PRIu64 ": not compiled", point);
        return -1;
    }
    for (uint64_t r = r0; r < r1; r++)
        if (run_one(g, p->engine, p->count_idx, point, r,
                    values + (r - r0) * g->nmeasures, &ends[r - r0],
                    &seeds[r - r0]) != 0) {
            snprintf(msg, msgsize, "out of memory");
            return -1;
        }
    return 0;
}

/* ---- --merge ------------------------------------------------------------ */

static int cmp_block(const void *a, const void *b)
{
    const block_t *x = *(const block_t *const *)a, *y = *(const block_t *const *)b;
    return x->point < y->point ? -1 : x->point > y->point;
}

int sweep_merge(sweep_t *s)
{
    if (s->nfiles == 0) {
        fprintf(stderr, "%s: --merge: no files\n", s->prog);
        return CLI_EUSAGE;
    }
    rfile_t *rf = calloc(s->nfiles, sizeof *rf);
    if (!rf)
        return CLI_EINPUT;
    int rc = -1;
    size_t nblocks = 0;
    for (size_t i = 0; i < s->nfiles && rc < 0; i++) {
        FILE *f = fopen(s->files[i], "r");
        if (!f) {
            fprintf(stderr, "%s: %s: %s\n", s->prog, s->files[i],
                    strerror(errno));
            rc = CLI_EINPUT;
            break;
        }
        /* the format: JSON Lines start with '{' */
        int c0 = getc(f);
        if (c0 != EOF)
            ungetc(c0, f);
        if (i == 0)
            s->fmt = c0 == '{' ? PN_RESULTS_JSONL : PN_RESULTS_CSV;
        if (rfile_read(s, s->files[i], f, s->fmt, &rf[i]) != 0)
            rc = CLI_EINPUT;
        fclose(f);
        if (rc < 0 && s->fmt == PN_RESULTS_CSV && !rf[i].header) {
            fprintf(stderr, "%s: %s: no header line\n", s->prog,
                    s->files[i]);
            rc = CLI_EINPUT;
        }
        if (rc < 0 && i && s->fmt == PN_RESULTS_CSV &&
            strcmp(rf[i].header, rf[0].header)) {
            fprintf(stderr, "%s: %s:1: not the header of %s: not shards of "
                    "one sweep\n", s->prog, s->files[i], s->files[0]);
            rc = CLI_EINPUT;
        }
        nblocks += rf[i].n;
    }
    block_t **all = rc < 0 ? calloc(nblocks ? nblocks : 1, sizeof *all) : NULL;
    if (rc < 0 && !all)
        rc = CLI_EINPUT;
    size_t n = 0;
    for (size_t i = 0; rc < 0 && i < s->nfiles; i++)
        for (size_t k = 0; k < rf[i].n; k++)
            all[n++] = &rf[i].b[k];
    if (rc < 0)
        qsort(all, n, sizeof *all, cmp_block);
    for (size_t k = 0; rc < 0 && k < n; k++)
        if (all[k]->point != k) {
            if (all[k]->point < k)
                fprintf(stderr, "%s: point %" PRIu64 " is in two files\n",
                        s->prog, all[k]->point);
            else
                fprintf(stderr, "%s: point %zu is in no file (a shard is "
                        "missing or unfinished)\n", s->prog, k);
            rc = CLI_EINPUT;
        }
    if (rc < 0) {
        char *tmp;
        FILE *out = cli_output_open(s->output, &tmp);
        if (!out)
            rc = CLI_EOUTPUT;
        else {
            if (s->fmt == PN_RESULTS_CSV)
                fputs(rf[0].header, out);
            for (size_t k = 0; k < n; k++)
                fwrite(all[k]->text, 1, all[k]->len, out);
            rc = cli_output_close(out, tmp, s->output, 1);
        }
    }
    free(all);
    for (size_t i = 0; i < s->nfiles; i++)
        rfile_free(&rf[i]);
    free(rf);
    return rc < 0 ? CLI_OK : rc;
}
