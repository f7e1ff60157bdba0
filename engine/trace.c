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
    pn_trace_t *t = calloc(1, sizeof *t);
    size_t np = pn_net_place_count(net);
    uint64_t *snap = NULL;
    replay_t r = {NULL, NULL};
    char *line = NULL;
    size_t cap = 0;
    pn_status_t st = PN_OK;
    unsigned long ln = 0;
    int ended = 0;
    if (!t || replay_open(&r, net) ||
        pni_grow((void **)&t->off, &t->cap_off, 1, sizeof *t->off)) {
        st = tfail(err, PN_ENOMEM, 0, "out of memory");
        goto done;
    }
    t->off[0] = 0;
    const uint64_t *m = pn_sim_marking(r.sim);
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        ln++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        if (ended) {
            st = tfail(err, PN_ETRACE, ln, "text after the end record");
            goto done;
        }
        char *save = NULL;
        char *kind = strtok_r(line, " \t", &save);
        char *num = strtok_r(NULL, " \t", &save);
        if (!kind || strlen(kind) != 1 || !strchr("SME", kind[0]) || !num) {
            st = tfail(err, PN_ETRACE, ln,
                       "not a trace record (S, M or E lines): is this a "
                       "pn-run trace?");
            goto done;
        }
        if (kind[0] == 'E') {
            char *steps = strtok_r(NULL, " \t", &save);
            if (strcmp(num, "dead") && strcmp(num, "limit") &&
                strcmp(num, "overflow")) {
                st = tfail(err, PN_ETRACE, ln, "unknown end '%s'", num);
                goto done;
            }
            if (!steps || strtoull(steps, NULL, 10) != t->nsteps) {
                st = tfail(err, PN_ETRACE, ln,
                           "the end record says %s steps, the trace has %"
                           PRIu64, steps ? steps : "no", t->nsteps);
                goto done;
            }
            ended = 1;
            continue;
        }
        char *end;
        errno = 0;
        unsigned long long k = strtoull(num, &end, 10);
        if (*end || errno) {
            st = tfail(err, PN_ETRACE, ln, "bad step number '%s'", num);
            goto done;
        }
        if (kind[0] == 'M') {
            /* a snapshot must match the replay */
            if (k != t->nsteps) {
                st = tfail(err, PN_ETRACE, ln,
                           "snapshot of step %llu after step %" PRIu64, k,
                           t->nsteps);
                goto done;
            }
            if (!snap && !(snap = malloc((np + 1) * sizeof *snap))) {
                st = tfail(err, PN_ENOMEM, ln, "out of memory");
                goto done;
            }
            memset(snap, 0, np * sizeof *snap);
            for (char *tok = strtok_r(NULL, " \t", &save); tok;
                 tok = strtok_r(NULL, " \t", &save)) {
                char *eq = strrchr(tok, '=');
                pn_object_t ok;
                size_t idx;
                if (!eq) {
                    st = tfail(err, PN_ETRACE, ln, "bad marking entry '%s'",
                               tok);
                    goto done;
                }
                *eq = '\0';
                if (pn_net_find(net, tok, &ok, &idx) || ok != PN_PLACE) {
                    st = tfail(err, PN_ETRACE, ln,
                               "'%s' is not a place of the net: the trace "
                               "belongs to another net", tok);
                    goto done;
                }
                snap[idx] = strtoull(eq + 1, NULL, 10);
            }
            for (size_t p = 0; p < np; p++)
                if (snap[p] != m[p]) {
                    st = tfail(err, PN_ETRACE, ln,
                               "the snapshot after step %llu gives place '%s' "
                               "%" PRIu64 " tokens, the replay %" PRIu64
                               ": the trace belongs to another net", k,
                               pn_net_place(net, p)->id, snap[p], m[p]);
                    goto done;
                }
            continue;
        }
        if (k != t->nsteps + 1) {
            st = tfail(err, PN_ETRACE, ln, "step %llu where step %" PRIu64
                       " was expected", k, t->nsteps + 1);
            goto done;
        }
        size_t first = t->nfired;
        for (char *tok = strtok_r(NULL, " \t", &save); tok;
             tok = strtok_r(NULL, " \t", &save)) {
            pn_object_t ok;
            size_t idx;
            if (pn_net_find(net, tok, &ok, &idx) || ok != PN_TRANSITION) {
                st = tfail(err, PN_ETRACE, ln,
                           "'%s' is not a transition of the net: the trace "
                           "belongs to another net", tok);
                goto done;
            }
            if (pni_grow((void **)&t->fired, &t->cap_fired, t->nfired + 1,
                         sizeof *t->fired)) {
                st = tfail(err, PN_ENOMEM, ln, "out of memory");
                goto done;
            }
            t->fired[t->nfired++] = (uint32_t)idx;
        }
        size_t bad;
        pn_status_t fs = pn_sim_fire(r.sim, t->fired + first,
                                     t->nfired - first, &bad);
        if (fs == PN_ERANGE) {
            st = tfail(err, PN_ETRACE, ln, "step %llu: a count would exceed "
                       "2^63-1", k);
            goto done;
        }
        if (fs) {
            st = tfail(err, PN_ETRACE, ln,
                       "step %llu: transition '%s' cannot fire there: the "
                       "trace belongs to another net (or another initial "
                       "marking)", k,
                       pn_net_transition(net, t->fired[first + bad])->id);
            goto done;
        }
        if (pni_grow((void **)&t->off, &t->cap_off, t->nsteps + 2,
                     sizeof *t->off)) {
            st = tfail(err, PN_ENOMEM, ln, "out of memory");
            goto done;
        }
        t->nsteps++;
        t->off[t->nsteps] = t->nfired;
    }
    if (ferror(f))
        st = tfail(err, PN_EIO, ln, "read error: %s", strerror(errno));
    else if (!ended && t->nsteps == 0)
        st = tfail(err, PN_ETRACE, ln, "no steps: an empty or unfinished "
                   "trace");
done:
    if (f != stdin)
        fclose(f);
    free(line);
    free(snap);
    replay_close(&r);
    if (st) {
        pn_trace_free(t);
        return st;
    }
    *out = t;
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
