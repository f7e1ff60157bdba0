/* Traces of pn-run: reading, checking against the net, replaying. */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "trace.h"

struct pn_trace {
    uint64_t nsteps;
    uint64_t *off;   /* nsteps + 1 offsets into fired */
    uint32_t *fired;
    size_t nfired, cap_fired, cap_off;
};

void pn_trace_free(pn_trace_t *t)
{
    if (!t)
        return;
    free(t->off);
    free(t->fired);
    free(t);
}

uint64_t pn_trace_steps(const pn_trace_t *t) { return t ? t->nsteps : 0; }

const uint32_t *pn_trace_fired(const pn_trace_t *t, uint64_t step, size_t *n)
{
    if (!t || step == 0 || step > t->nsteps) {
        if (n)
            *n = 0;
        return NULL;
    }
    if (n)
        *n = (size_t)(t->off[step] - t->off[step - 1]);
    return t->fired + t->off[step - 1];
}

/* The replay: a run of the engine on the net, fed the recorded steps. */
typedef struct {
    pn_engine_t *engine;
    pn_sim_t *sim;
} replay_t;

static pn_status_t replay_open(replay_t *r, const pn_net_t *net)
{
    r->sim = NULL;
    pn_status_t st = pn_engine_compile(net, &r->engine);
    if (st)
        return st;
    /* seed and semantics do not matter: steps are given, not drawn */
    r->sim = pn_sim_new(r->engine, 0, PN_SEM_MAXIMAL, 0);
    return r->sim ? PN_OK : PN_ENOMEM;
}

static void replay_close(replay_t *r)
{
    pn_sim_free(r->sim);
    pn_engine_free(r->engine);
}

pn_status_t pn_trace_marking(const pn_trace_t *t, const pn_net_t *net,
                             uint64_t step, uint64_t *m)
{
    if (!t || !net || !m || step > t->nsteps)
        return PN_EINVAL;
    replay_t r;
    pn_status_t st = replay_open(&r, net);
    for (uint64_t s = 1; !st && s <= step; s++) {
        size_t n, bad;
        const uint32_t *f = pn_trace_fired(t, s, &n);
        st = pn_sim_fire(r.sim, f, n, &bad);
    }
    if (!st)
        memcpy(m, pn_sim_marking(r.sim),
               pn_net_place_count(net) * sizeof *m);
    replay_close(&r);
    return st == PN_EINVAL ? PN_ETRACE : st;
}

#define tfail(err, code, line, ...) pni_error(err, code, line, 0, __VA_ARGS__)

/* What reading a trace keeps between its lines. */
typedef struct {
    const pn_net_t *net;
    pn_trace_t *t;
    replay_t r;
    uint64_t *snap;    /* a snapshot's marking, np entries */
    size_t np;
    unsigned long ln;  /* the line being read */
    int ended;         /* the end record was read */
    pn_error_t *err;
} reader_t;

/* "E END STEPS": how the run ended, and its step count. */
static pn_status_t read_end(reader_t *rd, const char *end, char **save)
{
    char *steps = strtok_r(NULL, " \t", save);
    if (strcmp(end, "dead") && strcmp(end, "limit") &&
        strcmp(end, "overflow"))
        return tfail(rd->err, PN_ETRACE, rd->ln, "unknown end '%s'", end);
    if (!steps || strtoull(steps, NULL, 10) != rd->t->nsteps)
        return tfail(rd->err, PN_ETRACE, rd->ln,
                     "the end record says %s steps, the trace has %" PRIu64,
                     steps ? steps : "no", rd->t->nsteps);
    rd->ended = 1;
    return PN_OK;
}

/* "M K PLACE=TOKENS...": a snapshot after step K, which must match the
 * replay. */
static pn_status_t check_snapshot(reader_t *rd, unsigned long long k,
                                  char **save)
{
    pn_trace_t *t = rd->t;
    if (k != t->nsteps)
        return tfail(rd->err, PN_ETRACE, rd->ln,
                     "snapshot of step %llu after step %" PRIu64, k,
                     t->nsteps);
    if (!rd->snap && !(rd->snap = malloc((rd->np + 1) * sizeof *rd->snap)))
        return tfail(rd->err, PN_ENOMEM, rd->ln, "out of memory");
    memset(rd->snap, 0, rd->np * sizeof *rd->snap);
    for (char *tok = strtok_r(NULL, " \t", save); tok;
         tok = strtok_r(NULL, " \t", save)) {
        char *eq = strrchr(tok, '=');
        pn_object_t ok;
        size_t idx;
        if (!eq)
            return tfail(rd->err, PN_ETRACE, rd->ln,
                         "bad marking entry '%s'", tok);
        *eq = '\0';
        if (pn_net_find(rd->net, tok, &ok, &idx) || ok != PN_PLACE)
            return tfail(rd->err, PN_ETRACE, rd->ln,
                         "'%s' is not a place of the net: the trace "
                         "belongs to another net", tok);
        rd->snap[idx] = strtoull(eq + 1, NULL, 10);
    }
    const uint64_t *m = pn_sim_marking(rd->r.sim);
    for (size_t p = 0; p < rd->np; p++)
        if (rd->snap[p] != m[p])
            return tfail(rd->err, PN_ETRACE, rd->ln,
                         "the snapshot after step %llu gives place '%s' "
                         "%" PRIu64 " tokens, the replay %" PRIu64
                         ": the trace belongs to another net", k,
                         pn_net_place(rd->net, p)->id, rd->snap[p], m[p]);
    return PN_OK;
}

/* Appends the transitions named on the rest of the line to t->fired. */
static pn_status_t append_fired(reader_t *rd, char **save)
{
    pn_trace_t *t = rd->t;
    for (char *tok = strtok_r(NULL, " \t", save); tok;
         tok = strtok_r(NULL, " \t", save)) {
        pn_object_t ok;
        size_t idx;
        if (pn_net_find(rd->net, tok, &ok, &idx) || ok != PN_TRANSITION)
            return tfail(rd->err, PN_ETRACE, rd->ln,
                         "'%s' is not a transition of the net: the trace "
                         "belongs to another net", tok);
        if (pni_grow((void **)&t->fired, &t->cap_fired, t->nfired + 1,
                     sizeof *t->fired))
            return tfail(rd->err, PN_ENOMEM, rd->ln, "out of memory");
        t->fired[t->nfired++] = (uint32_t)idx;
    }
    return PN_OK;
}

/* "S K TRANSITION...": step K, fired in the replay through the engine's
 * own firing rule, then appended to the trace. */
static pn_status_t read_step(reader_t *rd, unsigned long long k, char **save)
{
    pn_trace_t *t = rd->t;
    if (k != t->nsteps + 1)
        return tfail(rd->err, PN_ETRACE, rd->ln, "step %llu where step %"
                     PRIu64 " was expected", k, t->nsteps + 1);
    size_t first = t->nfired, bad;
    pn_status_t st = append_fired(rd, save);
    if (st)
        return st;
    pn_status_t fs = pn_sim_fire(rd->r.sim, t->fired + first,
                                 t->nfired - first, &bad);
    if (fs == PN_ERANGE)
        return tfail(rd->err, PN_ETRACE, rd->ln, "step %llu: a count would "
                     "exceed 2^63-1", k);
    if (fs)
        return tfail(rd->err, PN_ETRACE, rd->ln,
                     "step %llu: transition '%s' cannot fire there: the "
                     "trace belongs to another net (or another initial "
                     "marking)", k,
                     pn_net_transition(rd->net, t->fired[first + bad])->id);
    if (pni_grow((void **)&t->off, &t->cap_off, t->nsteps + 2,
                 sizeof *t->off))
        return tfail(rd->err, PN_ENOMEM, rd->ln, "out of memory");
    t->nsteps++;
    t->off[t->nsteps] = t->nfired;
    return PN_OK;
}

/* One record line (S, M or E), its line end removed. */
static pn_status_t read_record(reader_t *rd, char *line)
{
    if (rd->ended)
        return tfail(rd->err, PN_ETRACE, rd->ln, "text after the end record");
    char *save = NULL;
    char *kind = strtok_r(line, " \t", &save);
    char *num = strtok_r(NULL, " \t", &save);
    if (!kind || strlen(kind) != 1 || !strchr("SME", kind[0]) || !num)
        return tfail(rd->err, PN_ETRACE, rd->ln,
                     "not a trace record (S, M or E lines): is this a "
                     "pn-run trace?");
    if (kind[0] == 'E')
        return read_end(rd, num, &save);
    char *end;
    errno = 0;
    unsigned long long k = strtoull(num, &end, 10);
    if (*end || errno)
        return tfail(rd->err, PN_ETRACE, rd->ln, "bad step number '%s'", num);
    if (kind[0] == 'M')
        return check_snapshot(rd, k, &save);
    return read_step(rd, k, &save);
}

/* Every line of f; blank lines and '#' comments are skipped. */
static pn_status_t read_lines(reader_t *rd, FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    pn_status_t st = PN_OK;
    while (!st && (len = getline(&line, &cap, f)) >= 0) {
        rd->ln++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len > 0 && line[0] != '#')
            st = read_record(rd, line);
    }
    if (!st && ferror(f))
        st = tfail(rd->err, PN_EIO, rd->ln, "read error: %s",
                   strerror(errno));
    else if (!st && !rd->ended && rd->t->nsteps == 0)
        st = tfail(rd->err, PN_ETRACE, rd->ln, "no steps: an empty or "
                   "unfinished trace");
    free(line);
    return st;
}

pn_status_t pn_trace_read(const char *path, const pn_net_t *net,
                          pn_trace_t **out, pn_error_t *err)
{
    pni_error_begin(err, path);
    if (!path || !net || !out)
        return tfail(err, PN_EINVAL, 0, "invalid argument");
    *out = NULL;
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f)
        return tfail(err, PN_EIO, 0, "cannot read: %s", strerror(errno));
    reader_t rd = {.net = net, .np = pn_net_place_count(net), .err = err};
    rd.t = calloc(1, sizeof *rd.t);
    pn_status_t st = PN_OK;
    if (!rd.t || replay_open(&rd.r, net) ||
        pni_grow((void **)&rd.t->off, &rd.t->cap_off, 1, sizeof *rd.t->off))
        st = tfail(err, PN_ENOMEM, 0, "out of memory");
    else {
        rd.t->off[0] = 0;
        st = read_lines(&rd, f);
    }
    if (f != stdin)
        fclose(f);
    free(rd.snap);
    replay_close(&rd.r);
    if (st) {
        pn_trace_free(rd.t);
        return st;
    }
    *out = rd.t;
    return PN_OK;
}

/* ---- writing ----------------------------------------------------------- */

int pn_trace_write_header(FILE *f, const pn_net_t *net, uint64_t seed,
                          pn_semantics_t sem)
{
    return fprintf(f, "# pn-run trace 1\n# net %s\n# seed %" PRIu64
                   "\n# semantics %s\n",
                   pn_net_id(net) ? pn_net_id(net) : "-", seed,
                   sem == PN_SEM_MAXIMAL ? "maximal" : "interleaving") < 0
               ? -1 : 0;
}

int pn_trace_write_step(FILE *f, const pn_net_t *net, uint64_t step,
                        const uint32_t *fired, size_t n)
{
    fprintf(f, "S %" PRIu64, step);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s", pn_net_transition(net, fired[i])->id);
    return fputc('\n', f) == EOF ? -1 : 0;
}

int pn_trace_write_marking(FILE *f, const pn_net_t *net, uint64_t step,
                           const uint64_t *m)
{
    fprintf(f, "M %" PRIu64, step);
    for (size_t p = 0; p < pn_net_place_count(net); p++)
        if (m[p])
            fprintf(f, " %s=%" PRIu64, pn_net_place(net, p)->id, m[p]);
    return fputc('\n', f) == EOF ? -1 : 0;
}

int pn_trace_write_end(FILE *f, pn_end_t end, uint64_t steps)
{
    return fprintf(f, "E %s %" PRIu64 "\n", pn_end_name(end), steps) < 0 ? -1
                                                                       : 0;
}
