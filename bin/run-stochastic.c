/* pn-run --semantics stochastic: the GSPN simulated in continuous time,
 * its estimates printed with their confidence intervals. */
#include <config.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "run-stochastic.h"

enum { EXIT_LIMIT = 4 };

/* The --time lists read into times (room: the commas + 1 a list). */
static int read_times(const char *prog, const stoch_opts_t *so,
                      double **times, size_t *n)
{
    size_t room = 1;
    for (size_t i = 0; i < so->ntimes; i++)
        for (const char *c = so->times[i]; *c; c++)
            room += *c == ',';
    *times = malloc((room + so->ntimes) * sizeof **times);
    *n = 0;
    if (!*times)
        return CLI_EINPUT;
    for (size_t i = 0; i < so->ntimes; i++) {
        char *copy = strdup(so->times[i]), *save = NULL;
        if (!copy)
            return CLI_EINPUT;
        for (char *w = strtok_r(copy, ",", &save); w;
             w = strtok_r(NULL, ",", &save)) {
            double t;
            if (cli_real("--time", w, 0, INFINITY, &t)) {
                free(copy);
                return CLI_EUSAGE;
            }
            if (!(t > 0) || (*n && !(t > (*times)[*n - 1]))) {
                fprintf(stderr, "%s: --time: the times must be above 0 and "
                        "increasing ('%s')\n", prog, w);
                free(copy);
                return CLI_EUSAGE;
            }
            (*times)[(*n)++] = t;
        }
        free(copy);
    }
    return CLI_OK;
}

static void text_est(FILE *f, const char *id, pn_gspn_estimate_t e)
{
    if (e.mean != e.mean)
        fprintf(f, "  %-24s -\n", id);
    else if (isinf(e.half))
        fprintf(f, "  %-24s %.6g  (no interval)\n", id, e.mean);
    else
        fprintf(f, "  %-24s %.6g  +- %.3g  [%.6g, %.6g]\n", id, e.mean, e.half,
               e.mean - e.half, e.mean + e.half);
}

/* A number in JSON or CSV: null (empty) when it is not finite. */
static void num(FILE *f, double v, int json)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else if (json)
        fprintf(f, "null");
}

static void row(FILE *f, const stoch_opts_t *so, cli_format_t fmt,
                const char *measure, const char *id, double time,
                pn_gspn_estimate_t e)
{
    int json = fmt != CLI_CSV;
    if (json) {
        fprintf(f, "{%s\"measure\":\"%s\",\"id\":",
                so->json_prefix ? so->json_prefix : "", measure);
        pni_json_string(f, id, 0);
    } else {
        fprintf(f, "%s%s,", so->csv_prefix ? so->csv_prefix : "", measure);
        for (const char *c = id; *c; c++)
            fputc(*c == ',' || *c == '"' ? '_' : *c, f);
    }
    static const char *const names[] = {"time", "mean", "low", "high"};
    double v[] = {time, e.mean, e.mean - e.half, e.mean + e.half};
    for (size_t i = 0; i < 4; i++) {
        if (json)
            fprintf(f, ",\"%s\":", names[i]);
        else
            fputc(',', f);
        num(f, v[i], json);
    }
    fputs(json ? "}\n" : "\n", f);
}

/* The estimates of one time (k; time NAN: the steady state). */
static void print_block(FILE *f, const pn_net_t *net,
                        const pn_gspn_sim_result_t *r,
                        const stoch_opts_t *so, size_t k, double time,
                        cli_format_t fmt)
{
    size_t nt = r->transitions, np = r->places, nc = r->conditions;
    int steady = time != time;
    if (fmt == CLI_TEXT) {
        if (!steady)
            fprintf(f, "at time %g:\n", time);
        fprintf(f, steady ? "throughput (firings per unit of time):\n"
                      : "firings since time 0 (mean):\n");
    }
    for (size_t t = 0; t < nt; t++) {
        const char *id = pn_net_transition(net, t)->id;
        if (fmt == CLI_TEXT)
            text_est(f, id, r->throughput[k * nt + t]);
        else
            row(f, so, fmt, steady ? "throughput" : "firings", id, time,
                r->throughput[k * nt + t]);
    }
    if (fmt == CLI_TEXT)
        fprintf(f, steady ? "mean tokens:\n" : "tokens (mean):\n");
    for (size_t p = 0; p < np; p++) {
        const char *id = pn_net_place(net, p)->id;
        if (fmt == CLI_TEXT)
            text_est(f, id, r->mean_tokens[k * np + p]);
        else
            row(f, so, fmt, "tokens", id, time, r->mean_tokens[k * np + p]);
    }
    if (nc && fmt == CLI_TEXT)
        fprintf(f, steady ? "probability (fraction of the time):\n"
                      : "probability:\n");
    for (size_t c = 0; c < nc; c++) {
        if (fmt == CLI_TEXT)
            text_est(f, so->conds[c], r->probability[k * nc + c]);
        else
            row(f, so, fmt, "probability", so->conds[c], time,
                r->probability[k * nc + c]);
    }
}

static void print_result(FILE *f, const pn_net_t *net,
                         const pn_gspn_sim_result_t *r,
                         const pn_gspn_sim_options_t *o,
                         const stoch_opts_t *so, cli_format_t fmt)
{
    if (fmt == CLI_CSV && !so->csv_prefix)
        fprintf(f, "measure,id,time,mean,low,high\n");
    if (fmt == CLI_TEXT) {
        fprintf(f, "semantics: stochastic (race, enabling memory), seed %" PRIu64
               "\n", o->seed);
        fprintf(f, "confidence %g, accuracy %g: %s\n", o->confidence,
               o->accuracy, r->accurate ? "reached"
                                        : "NOT reached (limit first)");
    }
    if (r->absorbing) {
        if (fmt == CLI_TEXT) {
            fprintf(f, "no steady state: the run reached a dead marking at time "
                   "%g\n", r->sim_time);
            fprintf(f, "absorbed: %" PRIu64 " of %" PRIu64 " runs (%" PRIu64
                   " firings)\n", r->absorbed, r->runs, r->firings);
            text_est(f, "mean time to absorption", r->absorption);
        } else {
            row(f, so, fmt, "absorption", "time", NAN, r->absorption);
        }
        return;
    }
    if (!o->ntimes) {
        if (fmt == CLI_TEXT)
            fprintf(f, "steady state: %" PRIu64 " firings in time %g, warm-up "
                   "%g deleted (MSER-5), %d batches of %g, lag-1 "
                   "correlation %.3f\n", r->firings, r->sim_time, r->warmup,
                   30, r->batch_time, r->lag1);
        print_block(f, net, r, so, 0, NAN, fmt);
        return;
    }
    if (fmt == CLI_TEXT)
        fprintf(f, "transient: %" PRIu64 " runs, %" PRIu64 " firings\n",
               r->runs, r->firings);
    for (size_t k = 0; k < o->ntimes; k++)
        print_block(f, net, r, so, k, o->times[k], fmt);
}

/* The conditions parsed against net into set (their formulas in f). */
static int read_conditions(const char *prog, const pn_net_t *net,
                           const stoch_opts_t *so, pn_query_set_t *set,
                           const pn_qformula_t **f)
{
    for (size_t c = 0; c < so->nconds; c++) {
        pn_error_t err;
        if (pn_query_parse(set, so->conds[c], net, &err)) {
            fprintf(stderr, "%s: --condition '%s': column %lu: %s\n", prog,
                    so->conds[c], err.column, err.text);
            return CLI_EUSAGE;
        }
        const pn_query_t *q = &set->q[set->n - 1];
        if (q->kind != PN_QUERY_EF) {
            fprintf(stderr, "%s: --condition '%s': a condition on the "
                    "marking, without temporal operators or bound()\n",
                    prog, so->conds[c]);
            return CLI_EUSAGE;
        }
        f[c] = q->formula;
    }
    return CLI_OK;
}

int stoch_option(stoch_opts_t *st, int c, const char *arg)
{
    switch (c) {
    case CLI_OPT_SEMANTICS:
        st->on = !strcmp(arg, "stochastic");
        return st->on ? -1 : -2;
    case STOCH_OPT_TIME: st->times[st->ntimes++] = arg; break;
    case STOCH_OPT_CONDITION: st->conds[st->nconds++] = arg; break;
    case STOCH_OPT_CONFIDENCE:
        st->given = 1;
        return cli_real("--confidence", arg, 0, 1, &st->confidence) ||
                       !(st->confidence > 0 && st->confidence < 1)
                   ? (st->confidence = 0, CLI_EUSAGE) : -1;
    case STOCH_OPT_ACCURACY:
        st->given = 1;
        return cli_real("--accuracy", arg, 1e-9, 1e9, &st->accuracy)
                   ? CLI_EUSAGE : -1;
    default: return -2;
    }
    st->given = 1;
    return -1;
}

int run_stochastic(const char *prog, const pn_net_t *net,
                   const cli_run_t *run, const stoch_opts_t *so,
                   cli_format_t fmt)
{
    pn_gspn_sim_options_t o = {0};
    o.seed = run->seed;
    o.confidence = so->confidence;
    o.accuracy = so->accuracy;
    o.max_firings = run->max_steps;
    o.max_runs = run->runs;
    o.jobs = run->jobs;
    double *times = NULL;
    pn_query_set_t *set = pn_query_set_new();
    const pn_qformula_t **f = calloc(so->nconds + 1, sizeof *f);
    int rc = set && f ? read_times(prog, so, &times, &o.ntimes) : CLI_EINPUT;
    if (!rc)
        rc = read_conditions(prog, net, so, set, f);
    o.times = times;
    o.conditions = f;
    o.nconditions = so->nconds;
    pn_gspn_sim_result_t *r = NULL;
    if (!rc) {
        pn_error_t err;
        if (pn_gspn_simulate(net, &o, &r, &err)) {
            fprintf(stderr, "%s: %s%s\n", prog, so->where ? so->where : "",
                    err.text);
            rc = CLI_EINPUT;
        }
    }
    if (!rc) {
        if (o.confidence == 0)
            o.confidence = 0.95;
        if (o.accuracy == 0)
            o.accuracy = 0.05;
        print_result(so->out ? so->out : stdout, net, r, &o, so, fmt);
        if (!r->accurate)
            fprintf(stderr, "%s: %sthe accuracy %g was not reached within "
                    "the limits (--max-steps, --runs)\n", prog,
                    so->where ? so->where : "", o.accuracy);
        rc = r->accurate ? CLI_OK : EXIT_LIMIT;
    }
    pn_gspn_sim_result_free(r);
    pn_query_set_free(set);
    free(f);
    free(times);
    return rc;
}
