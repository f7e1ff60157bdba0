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
    /* the "# loop:" comment: PN_TRACE_NO_LOOP, or a cycle or dead
     * marking from the marking after step loop_from on */
    int loop;
    uint64_t loop_from;
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

int pn_trace_loop(const pn_trace_t *t, uint64_t *from)
{
    if (from)
        *from = t && t->loop ? t->loop_from : 0;
    return t ? t->loop : PN_TRACE_NO_LOOP;
}

const uint32_t *pn_trace_fired(const pn_trace_t *t, uint64_t step, size_t *n)
{
    if (!t || step == 0 || step > t->nsteps) {
        if (n)
            *n = 0;
        return NULL;
    }
    if (n)
        *n = (size_t)(t->off[step] - t->off[step - 1]);
    /* no array yet while every step so far was empty */
    return t->fired ? t->fired + t->off[step - 1] : NULL;
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
    int version;       /* of the format: 1 (ids as they are) or 2 (encoded) */
    int ended;         /* the end record was read */
    int dead;          /* ... and it says dead */
    unsigned long loop_ln; /* the line of the "# loop:" comment */
    char *id;          /* an id decoded (version 2) */
    size_t cap_id;
    pn_error_t *err;
} reader_t;

/* A number of the trace (a step, a step count, a token count): digits
 * only, at most 2^63-1.  what names it in the message ("step number
 * '-5': negative number"). */
static pn_status_t read_number(reader_t *rd, const char *tok, const char *what,
                               uint64_t *v)
{
    if (!tok)
        return tfail(rd->err, PN_ETRACE, rd->ln, "no %s", what);
    const char *why = "not an integer";
    pn_status_t st = (tok[0] >= '0' && tok[0] <= '9') || tok[0] == '-'
                         ? pni_parse_u64(tok, strlen(tok), v, &why)
                         : PN_EVALUE;
    if (st == PN_OK)
        return PN_OK;
    return tfail(rd->err, PN_ETRACE, rd->ln, "%s '%s': %s", what, tok, why);
}

static int hex(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The id a token of the trace stands for, into *id: in version 2, "\\\\"
 * is a backslash and "\\xHH" the byte HH (not 0); in version 1, the token
 * as it is. */
static pn_status_t read_id(reader_t *rd, const char *tok, const char **id)
{
    *id = tok;
    if (rd->version < 2 || !strchr(tok, '\\'))
        return PN_OK;
    if (pni_grow((void **)&rd->id, &rd->cap_id, strlen(tok) + 1, 1))
        return tfail(rd->err, PN_ENOMEM, rd->ln, "out of memory");
    char *p = rd->id;
    for (const char *s = tok; *s; s++) {
        int hi = s[0] == '\\' && s[1] == 'x' ? hex(s[2]) : -1;
        int lo = hi >= 0 ? hex(s[3]) : -1;
        if (*s != '\\')
            *p++ = *s;
        else if (s[1] == '\\')
            *p++ = *++s;
        else if (lo >= 0 && (hi || lo)) {
            *p++ = (char)(hi * 16 + lo);
            s += 3;
        } else
            return tfail(rd->err, PN_ETRACE, rd->ln, "bad escape in the id "
                         "'%s' (a backslash is written \\\\, other bytes "
                         "\\xHH, not \\x00)", tok);
    }
    *p = '\0';
    *id = rd->id;
    return PN_OK;
}

/* "E END STEPS": how the run ended, and its step count. */
static pn_status_t read_end(reader_t *rd, const char *end, char **save)
{
    char *steps = strtok_r(NULL, " \t", save);
    uint64_t n;
    if (strcmp(end, "dead") && strcmp(end, "limit") &&
        strcmp(end, "overflow"))
        return tfail(rd->err, PN_ETRACE, rd->ln, "unknown end '%s'", end);
    pn_status_t st = read_number(rd, steps, "step count", &n);
    if (st)
        return st;
    const char *more = strtok_r(NULL, " \t", save);
    if (more)
        return tfail(rd->err, PN_ETRACE, rd->ln, "'%s' after the end record "
                     "(E END STEPS)", more);
    if (n != rd->t->nsteps)
        return tfail(rd->err, PN_ETRACE, rd->ln,
                     "the end record says %s steps, the trace has %" PRIu64,
                     steps, rd->t->nsteps);
    rd->ended = 1;
    rd->dead = !strcmp(end, "dead");
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
        const char *id;
        pn_status_t st = read_id(rd, tok, &id);
        if (st)
            return st;
        if (pn_net_find(rd->net, id, &ok, &idx) || ok != PN_PLACE)
            return tfail(rd->err, PN_ETRACE, rd->ln,
                         "'%s' is not a place of the net: the trace "
                         "belongs to another net", tok);
        st = read_number(rd, eq + 1, "token count", &rd->snap[idx]);
        if (st)
            return st;
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
        const char *id;
        pn_status_t st = read_id(rd, tok, &id);
        if (st)
            return st;
        if (pn_net_find(rd->net, id, &ok, &idx) || ok != PN_TRANSITION)
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
    pn_status_t fs = pn_sim_fire(rd->r.sim, t->fired ? t->fired + first : NULL,
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
    uint64_t k;
    pn_status_t st = read_number(rd, num, "step number", &k);
    if (st)
        return st;
    if (kind[0] == 'M')
        return check_snapshot(rd, k, &save);
    return read_step(rd, k, &save);
}

/* "# pn-run trace N", the first line: the format's version.  A trace
 * without it is of version 1. */
#define VERSION_LINE "# pn-run trace"

static pn_status_t read_version(reader_t *rd, const char *line)
{
    const char *v = line + strlen(VERSION_LINE);
    while (*v == ' ' || *v == '\t')
        v++;
    if (!strcmp(v, "1") || !strcmp(v, "2")) {
        rd->version = v[0] - '0';
        return PN_OK;
    }
    return tfail(rd->err, PN_ETRACE, rd->ln, "trace format version %.40s is "
                 "not known (versions 1 to %d are): written by a newer "
                 "pn-run?", v, PN_TRACE_VERSION);
}

/* The comment of a lasso (pn-reach --witness): "# loop: from the marking
 * after step K round to it again, for ever" or "# loop: the dead marking
 * after step K repeats for ever".  A comment of other words is only a
 * comment. */
#define LOOP_CYCLE "# loop: from the marking after step %" SCNu64 \
                   " round to it again, for ever%n"
#define LOOP_DEAD "# loop: the dead marking after step %" SCNu64 \
                  " repeats for ever%n"

static pn_status_t read_loop(reader_t *rd, const char *line)
{
    uint64_t k;
    int end = -1, kind = PN_TRACE_NO_LOOP;
    if (sscanf(line, LOOP_CYCLE, &k, &end) == 1 && end > 0 && !line[end])
        kind = PN_TRACE_CYCLE;
    else if ((end = -1, sscanf(line, LOOP_DEAD, &k, &end) == 1) && end > 0 &&
             !line[end])
        kind = PN_TRACE_DEAD_END;
    if (kind == PN_TRACE_NO_LOOP)
        return PN_OK;
    if (rd->loop_ln)
        return tfail(rd->err, PN_ETRACE, rd->ln, "a second loop comment "
                     "(the first is on line %lu)", rd->loop_ln);
    rd->t->loop = kind;
    rd->t->loop_from = k;
    rd->loop_ln = rd->ln;
    return PN_OK;
}

/* The loop said, checked on the replay once every step is read: a cycle
 * comes back to the marking after its step, a dead end is the last step
 * and the trace ends dead. */
static pn_status_t check_loop(reader_t *rd)
{
    pn_trace_t *t = rd->t;
    uint64_t k = t->loop_from;
    if (t->loop == PN_TRACE_DEAD_END && (k != t->nsteps || !rd->dead))
        return tfail(rd->err, PN_ETRACE, rd->loop_ln, "the loop comment "
                     "says the dead marking after step %" PRIu64 " repeats,"
                     " the trace has %" PRIu64 " steps and ends %s", k,
                     t->nsteps, rd->dead ? "dead" : "alive");
    if (t->loop != PN_TRACE_CYCLE)
        return PN_OK;
    if (k >= t->nsteps)
        return tfail(rd->err, PN_ETRACE, rd->loop_ln, "the loop comment "
                     "starts after step %" PRIu64 ", the trace has %" PRIu64
                     " steps: no step to go round", k, t->nsteps);
    uint64_t *m = malloc((rd->np + 1) * sizeof *m);
    if (!m || pn_trace_marking(t, rd->net, k, m)) {
        free(m);
        return tfail(rd->err, PN_ENOMEM, rd->loop_ln, "out of memory");
    }
    int same = !memcmp(m, pn_sim_marking(rd->r.sim), rd->np * sizeof *m);
    free(m);
    if (!same)
        return tfail(rd->err, PN_ETRACE, rd->loop_ln, "the loop comment "
                     "says the run comes back to the marking after step %"
                     PRIu64 ", the replay ends elsewhere", k);
    return PN_OK;
}

/* One line, its line end removed: the version line, a comment, a blank
 * line or a record. */
static pn_status_t read_line(reader_t *rd, char *line)
{
    if (rd->ln == 1 && !strncmp(line, VERSION_LINE, strlen(VERSION_LINE)))
        return read_version(rd, line);
    if (!strncmp(line, "# loop:", 7))
        return read_loop(rd, line);
    if (!line[0] || line[0] == '#')
        return PN_OK;
    return read_record(rd, line);
}

/* A last line without a line end, read on its own error record: when it
 * is not a whole record (and not text after the end), the trace was cut
 * there. */
static pn_status_t read_cut_line(reader_t *rd, char *line)
{
    if (rd->ended)
        return read_line(rd, line);
    pn_error_t mine, *theirs = rd->err;
    pni_error_begin(&mine, NULL);
    rd->err = &mine;
    pn_status_t st = read_line(rd, line);
    rd->err = theirs;
    if (st == PN_ETRACE)
        return tfail(rd->err, PN_ETRACE, rd->ln, "the trace is truncated: "
                     "line %lu stops without a line end, in the middle of a "
                     "record (after step %" PRIu64 ")", rd->ln,
                     rd->t->nsteps);
    if (st)
        return tfail(rd->err, st, rd->ln, "%s", mine.text);
    return PN_OK;
}

/* Every line of f, up to the end record, which must be there. */
static pn_status_t read_lines(reader_t *rd, FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    pn_status_t st = PN_OK;
    while (!st && (len = getline(&line, &cap, f)) > 0) {
        rd->ln++;
        int cut = line[len - 1] != '\n';
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        st = cut ? read_cut_line(rd, line) : read_line(rd, line);
    }
    if (!st && ferror(f))
        st = tfail(rd->err, PN_EIO, rd->ln, "read error: %s",
                   strerror(errno));
    else if (!st && rd->ln == 0)
        st = tfail(rd->err, PN_ETRACE, 0, "an empty file, no steps: is this "
                   "a pn-run trace?");
    else if (!st && !rd->ended)
        st = tfail(rd->err, PN_ETRACE, rd->ln, "the trace is truncated: it "
                   "stops after step %" PRIu64 ", without its end record "
                   "(E)", rd->t->nsteps);
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
    reader_t rd = {.net = net, .np = pn_net_place_count(net), .version = 1,
                   .err = err};
    rd.t = calloc(1, sizeof *rd.t);
    pn_status_t st = PN_OK;
    if (!rd.t || replay_open(&rd.r, net) ||
        pni_grow((void **)&rd.t->off, &rd.t->cap_off, 1, sizeof *rd.t->off))
        st = tfail(err, PN_ENOMEM, 0, "out of memory");
    else {
        rd.t->off[0] = 0;
        st = read_lines(&rd, f);
        if (!st)
            st = check_loop(&rd);
    }
    if (f != stdin)
        fclose(f);
    free(rd.snap);
    free(rd.id);
    replay_close(&rd.r);
    if (st) {
        pn_trace_free(rd.t);
        return st;
    }
    *out = rd.t;
    return PN_OK;
}

/* ---- writing ----------------------------------------------------------- */

/* Whether byte c of an id is written escaped: blanks, control bytes and
 * the backslash (bytes from 0x80, UTF-8, are written as they are). */
static int escaped(unsigned char c)
{
    return c <= ' ' || c == 0x7f || c == '\\';
}

/* Writes id so that it is one token of a line: "\\\\" for a backslash,
 * "\\xHH" for a blank or a control byte. */
static void write_id(FILE *f, const char *id)
{
    const char *s = id;
    while (*s && !escaped((unsigned char)*s))
        s++;
    if (!*s) {
        fputs(id, f);
        return;
    }
    for (s = id; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\')
            fputs("\\\\", f);
        else if (escaped(c))
            fprintf(f, "\\x%02x", c);
        else
            putc(c, f);
    }
}

int pn_trace_write_header(FILE *f, const pn_net_t *net, uint64_t seed,
                          pn_semantics_t sem)
{
    fprintf(f, VERSION_LINE " %d\n# net ", PN_TRACE_VERSION);
    write_id(f, pn_net_id(net) ? pn_net_id(net) : "-");
    return fprintf(f, "\n# seed %" PRIu64 "\n# semantics %s\n", seed,
                   sem == PN_SEM_MAXIMAL ? "maximal" : "interleaving") < 0
               ? -1 : 0;
}

int pn_trace_write_step(FILE *f, const pn_net_t *net, uint64_t step,
                        const uint32_t *fired, size_t n)
{
    fprintf(f, "S %" PRIu64, step);
    for (size_t i = 0; i < n; i++) {
        putc(' ', f);
        write_id(f, pn_net_transition(net, fired[i])->id);
    }
    return fputc('\n', f) == EOF ? -1 : 0;
}

int pn_trace_write_marking(FILE *f, const pn_net_t *net, uint64_t step,
                           const uint64_t *m)
{
    fprintf(f, "M %" PRIu64, step);
    for (size_t p = 0; p < pn_net_place_count(net); p++)
        if (m[p]) {
            putc(' ', f);
            write_id(f, pn_net_place(net, p)->id);
            fprintf(f, "=%" PRIu64, m[p]);
        }
    return fputc('\n', f) == EOF ? -1 : 0;
}

int pn_trace_write_end(FILE *f, pn_end_t end, uint64_t steps)
{
    return fprintf(f, "E %s %" PRIu64 "\n", pn_end_name(end), steps) < 0 ? -1
                                                                       : 0;
}
