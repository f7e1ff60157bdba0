/* Traces of pn-run: reading, checking against the net, replaying. */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "net_private.h"
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

/* Applies one step's firings to m; returns the index (into the step's list)
 * of a transition that cannot fire, or -1.  Normal inputs are taken in
 * firing order, resets empty, outputs are added after: the step semantics
 * of the engine. */
static long apply_step(const pn_net_t *net, uint64_t *m, const uint32_t *f,
                       size_t n, const size_t *arc_off, const size_t *arcs)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t t = f[i];
        for (size_t k = arc_off[t]; k < arc_off[t + 1]; k++) {
            const pn_arc_t *a = pn_net_arc(net, arcs[k]);
            if (a->dir == PN_DIR_PT && a->kind == PN_ARC_NORMAL &&
                m[a->place] < a->weight)
                return (long)i;
        }
        for (size_t k = arc_off[t]; k < arc_off[t + 1]; k++) {
            const pn_arc_t *a = pn_net_arc(net, arcs[k]);
            if (a->dir == PN_DIR_PT && a->kind == PN_ARC_NORMAL)
                m[a->place] -= a->weight;
            else if (a->kind == PN_ARC_RESET)
                m[a->place] = 0;
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t t = f[i];
        for (size_t k = arc_off[t]; k < arc_off[t + 1]; k++) {
            const pn_arc_t *a = pn_net_arc(net, arcs[k]);
            if (a->dir == PN_DIR_TP)
                m[a->place] = m[a->place] > PN_TOKENS_MAX - a->weight
                                  ? PN_TOKENS_MAX
                                  : m[a->place] + a->weight;
        }
    }
    return -1;
}

/* Arcs of each transition (CSR over arc indices). */
static int arcs_by_transition(const pn_net_t *net, size_t **off_out,
                              size_t **arcs_out)
{
    size_t nt = pn_net_transition_count(net), na = pn_net_arc_count(net);
    size_t *off = calloc(nt + 2, sizeof *off);
    size_t *arcs = malloc((na + 1) * sizeof *arcs);
    if (!off || !arcs) {
        free(off);
        free(arcs);
        return -1;
    }
    for (size_t i = 0; i < na; i++)
        off[pn_net_arc(net, i)->transition + 1]++;
    for (size_t t = 0; t < nt; t++)
        off[t + 1] += off[t];
    size_t *fill = malloc((nt + 1) * sizeof *fill);
    if (!fill) {
        free(off);
        free(arcs);
        return -1;
    }
    memcpy(fill, off, nt * sizeof *fill);
    for (size_t i = 0; i < na; i++)
        arcs[fill[pn_net_arc(net, i)->transition]++] = i;
    free(fill);
    *off_out = off;
    *arcs_out = arcs;
    return 0;
}

pn_status_t pn_trace_marking(const pn_trace_t *t, const pn_net_t *net,
                             uint64_t step, uint64_t *m)
{
    if (!t || !net || !m || step > t->nsteps)
        return PN_EINVAL;
    for (size_t p = 0; p < pn_net_place_count(net); p++)
        m[p] = pn_net_place(net, p)->marking;
    size_t *off, *arcs;
    if (arcs_by_transition(net, &off, &arcs))
        return PN_ENOMEM;
    for (uint64_t s = 1; s <= step; s++) {
        size_t n;
        const uint32_t *f = pn_trace_fired(t, s, &n);
        apply_step(net, m, f, n, off, arcs);
    }
    free(off);
    free(arcs);
    return PN_OK;
}

static pn_status_t tfail(pn_error_t *err, pn_status_t code, unsigned long line,
                         const char *fmt, ...)
{
    if (err && !err->code) {
        err->code = code;
        err->line = line;
        err->column = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return code;
}

pn_status_t pn_trace_read(const char *path, const pn_net_t *net,
                          pn_trace_t **out, pn_error_t *err)
{
    pn_error_t dummy;
    if (!err)
        err = &dummy;
    pn_error_clear(err);
    if (!path || !net || !out)
        return tfail(err, PN_EINVAL, 0, "invalid argument");
    *out = NULL;
    snprintf(err->file, sizeof err->file, "%s", path);
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f)
        return tfail(err, PN_EIO, 0, "cannot read: %s", strerror(errno));
    pn_trace_t *t = calloc(1, sizeof *t);
    size_t np = pn_net_place_count(net);
    uint64_t *m = malloc((np + 1) * sizeof *m), *snap = NULL;
    size_t *off = NULL, *arcs = NULL;
    char *line = NULL;
    size_t cap = 0;
    pn_status_t st = PN_OK;
    unsigned long ln = 0;
    int ended = 0;
    if (!t || !m || arcs_by_transition(net, &off, &arcs) ||
        pni_grow((void **)&t->off, &t->cap_off, 1, sizeof *t->off)) {
        st = tfail(err, PN_ENOMEM, 0, "out of memory");
        goto done;
    }
    t->off[0] = 0;
    for (size_t p = 0; p < np; p++)
        m[p] = pn_net_place(net, p)->marking;
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
        long bad = apply_step(net, m, t->fired + first, t->nfired - first,
                              off, arcs);
        if (bad >= 0) {
            st = tfail(err, PN_ETRACE, ln,
                       "step %llu: transition '%s' cannot fire there: the "
                       "trace belongs to another net (or another initial "
                       "marking)", k,
                       pn_net_transition(net, t->fired[first + (size_t)bad])->id);
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
    free(m);
    free(snap);
    free(off);
    free(arcs);
    if (st) {
        pn_trace_free(t);
        return st;
    }
    *out = t;
    return PN_OK;
}
