/*
 * GreatSPN's PNPRO project files, read as GreatSPN's editor reads them
 * (greatspn/SOURCES, JavaGUI/Editor/src/editor/domain/io/PnProFormat.java,
 * loadXML): a <project> holds pages; each <gspn> page is a net, its
 * <nodes> (places, transitions, constants, template parameters) and its
 * <edges> (arcs, head and tail named).  The document's events are sax.c's,
 * as for PNML; this file reads the objects and finishes what waits for
 * the constants (markings, multiplicities and rates may name them, and a
 * constant may come after its use).
 *
 * Read: uncoloured places and their initial markings, transitions of the
 * types EXP (exponential: delay is the rate), IMM (weight, priority) and
 * GEN with a deterministic delay I[d], their servers, input, output and
 * inhibitor arcs with their multiplicities, INTEGER and REAL constants,
 * and template parameters at their last binding (said in a warning).
 * Refused: coloured nets and fluid places.  Timing that is a function of
 * the marking or a general distribution is not read: the transition is
 * marked timing_lost and the reader's warning counts it.
 */
#include <config.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reader_private.h"

/* A constant or a template parameter: its expression, evaluated once
 * when first used. */
typedef struct {
    const char *name, *expr;
    int is_int, is_template, state; /* state: 0 not yet, 1 being, 2 done */
    double value;
    at_t at;
} pp_const_t;

/* A number of the net that waits for the constants. */
enum { PEND_MARKING, PEND_MULT, PEND_RATE, PEND_PRIORITY, PEND_SERVERS };
typedef struct {
    int what;          /* PEND_* */
    size_t index;      /* the place, the arc (rd->arcs), the transition */
    const char *expr;
    at_t at;
} pp_pend_t;

/* A transition's timing as the file gives it, set when the constants
 * are known. */
typedef struct {
    size_t index;
    pn_timing_t timing;
    double rate;
    int priority;
    unsigned servers;
    int lost;
} pp_timing_t;

struct pni_pnpro {
    pp_const_t *consts;
    size_t nconsts, cap_consts;
    pp_pend_t *pend;
    size_t npend, cap_pend;
    pp_timing_t *timings;
    size_t ntimings, cap_timings;
    char templates[200];   /* the template parameters used, for the
                              warning */
};

int pni_pnpro_root(rd_t *rd)
{
    rd->pnpro = calloc(1, sizeof *rd->pnpro);
    if (!rd->pnpro)
        return pni_rd_nomem(rd);
    return pni_rd_push_frame(rd, F_ROOT, PN_NONE);
}

void pni_pnpro_free(rd_t *rd)
{
    if (!rd->pnpro)
        return;
    free(rd->pnpro->consts);
    free(rd->pnpro->pend);
    free(rd->pnpro->timings);
    free(rd->pnpro);
    rd->pnpro = NULL;
}

/* A page of the project: a <gspn> is a net, read when it is the one
 * asked for (by its name); the others (measures, DTAs, compositions) are
 * not nets. */
int pni_pnpro_start_in_root(rd_t *rd, const char *name)
{
    if (strcmp(name, "gspn") != 0) {
        rd->xml.skipping = 1;
        return 0;
    }
    const char *id = pni_rd_attr(rd, "name");
    size_t n = strlen(rd->netids);
    if (n + 8 < sizeof rd->netids)
        snprintf(rd->netids + n, sizeof rd->netids - n, "%s'%s'",
                 rd->nnets ? ", " : "", id ? id : "");
    rd->nnets++;
    if (rd->found || (rd->want && (!id || strcmp(id, rd->want)))) {
        rd->xml.skipping = 1;
        return 0;
    }
    rd->found = 1;
    rd->net = pn_net_new(id && *id ? id : NULL);
    if (!rd->net)
        return pni_rd_nomem(rd);
    return pni_rd_push_frame(rd, F_NET, PN_NONE);
}

/* In a <gspn>: <nodes> and <edges> hold the objects; the rest (the view
 * settings) says nothing of the net. */
int pni_pnpro_start_in_content(rd_t *rd, const char *name)
{
    if (!strcmp(name, "nodes") || !strcmp(name, "edges"))
        return pni_rd_push_frame(rd, F_GROUP, rd->page);
    rd->xml.skipping = 1;
    return 0;
}

int pni_pnpro_is_object(const char *name)
{
    static const char *const names[] = {
        "place", "transition", "arc", "constant", "template", "color-class",
        "color-var"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

static int pend(rd_t *rd, int what, size_t index, const char *expr,
                const char *needle)
{
    struct pni_pnpro *pp = rd->pnpro;
    if (pni_grow((void **)&pp->pend, &pp->cap_pend, pp->npend + 1,
                 sizeof *pp->pend))
        return pni_rd_nomem(rd);
    pp_pend_t p = {what, index, pni_rd_keep(rd, expr),
                   pni_rd_where(rd->tree.cur, needle)};
    if (!p.expr)
        return -1;
    pp->pend[pp->npend++] = p;
    return 0;
}

static int coloured(rd_t *rd, const char *what)
{
    return pni_rd_fail_at(rd, PN_EUNSUPPORTED, rd->tree.cur, "<",
                          "%s: coloured GreatSPN nets are not read (only "
                          "place/transition nets)", what);
}

static int read_place(rd_t *rd)
{
    static const char *const names[] = {"name", "marking", "domain", "type"};
    const char *v[4];
    pni_rd_attrs(rd, names, v, 4);
    if (v[2] && *v[2])
        return coloured(rd, "a place with a colour domain");
    /* Place.exchangeXML: type DISCRETE by default, CONTINUOUS for fluid
     * places */
    if (v[3] && strcmp(v[3], "DISCRETE"))
        return pni_rd_fail_at(rd, PN_EUNSUPPORTED, rd->tree.cur, "type=",
                              "place type '%s' is not read (only discrete "
                              "places)", v[3]);
    if (!v[0] || !*v[0])
        return pni_rd_fail_at(rd, PN_ENOID, rd->tree.cur, "<",
                              "<place> has no name");
    size_t idx;
    pn_status_t st = pn_net_add_place(rd->net, v[0], NULL, 0, &idx);
    if (st == PN_EDUPID)
        return pni_rd_fail_at(rd, st, rd->tree.cur, "name=",
                              "duplicate name '%s'", v[0]);
    if (st)
        return st == PN_ENOMEM ? pni_rd_nomem(rd)
                               : pni_rd_fail_at(rd, st, rd->tree.cur, "<",
                                                "place '%s': %s", v[0],
                                                pn_strstatus(st));
    /* marking "" (Place's default) is no token */
    if (v[1] && *v[1] && pend(rd, PEND_MARKING, idx, v[1], "marking="))
        return -1;
    return pni_rd_skip(rd);
}

/* GEN's deterministic delay I[d], as Transition.getSimpleDeterministicDelay
 * finds it: d, or NULL for any other general function. */
static const char *dirac(rd_t *rd, const char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    while (n && isspace((unsigned char)*s))
        s++, n--;
    if (n < 4 || s[0] != 'I' || s[1] != '[' || s[n - 1] != ']')
        return NULL;
    return pni_rd_tstrndup(rd, s + 2, n - 3);
}

static int read_transition(rd_t *rd)
{
    static const char *const names[] = {"name", "type", "delay", "weight",
                                        "priority", "nservers", "guard"};
    const char *v[7];
    pni_rd_attrs(rd, names, v, 7);
    if (!v[0] || !*v[0])
        return pni_rd_fail_at(rd, PN_ENOID, rd->tree.cur, "<",
                              "<transition> has no name");
    size_t idx;
    pn_status_t st = pn_net_add_transition(rd->net, v[0], NULL, &idx);
    if (st == PN_EDUPID)
        return pni_rd_fail_at(rd, st, rd->tree.cur, "name=",
                              "duplicate name '%s'", v[0]);
    if (st)
        return st == PN_ENOMEM ? pni_rd_nomem(rd)
                               : pni_rd_fail_at(rd, st, rd->tree.cur, "<",
                                                "transition '%s': %s", v[0],
                                                pn_strstatus(st));
    if (v[6] && strcmp(v[6], "True"))
        pni_rd_ignore(rd, IGN_GUARD);
    struct pni_pnpro *pp = rd->pnpro;
    if (pni_grow((void **)&pp->timings, &pp->cap_timings, pp->ntimings + 1,
                 sizeof *pp->timings))
        return pni_rd_nomem(rd);
    pp_timing_t t = {idx, PN_TIMING_EXPONENTIAL, 1.0, PN_DEFAULT_PRIORITY,
                     0, 0};
    /* Transition.exchangeXML: type EXP unless said; delay "1.0", weight
     * "1.0", priority "1" and nservers "Infinite" when left out (so a
     * missing nservers is an infinite server) */
    const char *type = v[1] ? v[1] : "EXP";
    if (!strcmp(type, "EXP")) {
        if (v[2] && pend(rd, PEND_RATE, pp->ntimings, v[2], "delay="))
            return -1;
        if (v[5] && strcmp(v[5], "Infinite") &&
            pend(rd, PEND_SERVERS, pp->ntimings, v[5], "nservers="))
            return -1;
    } else if (!strcmp(type, "IMM")) {
        t.timing = PN_TIMING_IMMEDIATE;
        t.servers = 1;
        if (v[3] && pend(rd, PEND_RATE, pp->ntimings, v[3], "weight="))
            return -1;
        if (v[4] && pend(rd, PEND_PRIORITY, pp->ntimings, v[4], "priority="))
            return -1;
    } else if (!strcmp(type, "GEN")) {
        /* GreatSpnFormat writes a general transition with enabling degree
         * 0 (infinite server) and its I[d] as a deterministic delay */
        const char *d = dirac(rd, v[2] ? v[2] : "1.0");
        t.timing = PN_TIMING_DETERMINISTIC;
        if (!d)
            t.lost = 1;
        else if (pend(rd, PEND_RATE, pp->ntimings, d, "delay="))
            return -1;
    } else if (!strcmp(type, "CONT")) {
        t.lost = 1;
    } else {
        return pni_rd_fail_at(rd, PN_EVALUE, rd->tree.cur, "type=",
                              "transition type '%s' is not one of EXP, IMM, "
                              "GEN, CONT", type);
    }
    pp->timings[pp->ntimings++] = t;
    return pni_rd_skip(rd);
}

static int read_arc(rd_t *rd)
{
    /* before file version 110 the kind is in type=, before 120 the
     * multiplicity in multiplicity= (PnProFormat.loadXML) */
    static const char *const names[] = {"head", "tail", "kind", "type",
                                        "mult", "multiplicity"};
    const char *v[6];
    pni_rd_attrs(rd, names, v, 6);
    const char *kind = v[2] ? v[2] : v[3], *mult = v[4] ? v[4] : v[5];
    const el_t *e = rd->tree.cur;
    if (!v[0] || !v[1])
        return pni_rd_fail_at(rd, PN_ESTRUCT, e, "<",
                              "<arc> needs head and tail attributes");
    rd_arc_t a = {0};
    a.weight = 1;
    if (!kind || (strcmp(kind, "INPUT") && strcmp(kind, "OUTPUT") &&
                  strcmp(kind, "INHIBITOR")))
        return pni_rd_fail_at(rd, PN_EVALUE, e, v[2] ? "kind=" : "<",
                              "arc kind '%s' is not one of INPUT, OUTPUT, "
                              "INHIBITOR", kind ? kind : "");
    a.kind = !strcmp(kind, "INHIBITOR") ? PN_ARC_INHIBITOR : PN_ARC_NORMAL;
    a.source = pni_rd_keep(rd, v[1]);
    a.target = pni_rd_keep(rd, v[0]);
    a.at_src = pni_rd_where(e, "tail=");
    a.at_tgt = pni_rd_where(e, "head=");
    a.at_id = a.at_src;
    if (!a.source || !a.target)
        return -1;
    if (pni_grow((void **)&rd->arcs, &rd->cap_arcs, rd->narcs + 1,
                 sizeof *rd->arcs))
        return pni_rd_nomem(rd);
    rd->arcs[rd->narcs] = a;
    if (mult && pend(rd, PEND_MULT, rd->narcs, mult,
                     v[4] ? "mult=" : "multiplicity="))
        return -1;
    rd->narcs++;
    return pni_rd_skip(rd);
}

static int read_const(rd_t *rd, int is_template)
{
    static const char *const names[] = {"name", "consttype", "type", "value",
                                        "last-binding", "domain"};
    const char *v[6];
    pni_rd_attrs(rd, names, v, 6);
    if (v[5] && *v[5])
        return coloured(rd, "a constant with a colour domain");
    if (!v[0] || !*v[0])
        return pni_rd_fail_at(rd, PN_ENOID, rd->tree.cur, "<",
                              "<%s> has no name",
                              is_template ? "template" : "constant");
    const char *type = is_template ? v[2] : v[1];
    struct pni_pnpro *pp = rd->pnpro;
    if (pni_grow((void **)&pp->consts, &pp->cap_consts, pp->nconsts + 1,
                 sizeof *pp->consts))
        return pni_rd_nomem(rd);
    pp_const_t c = {0};
    c.name = pni_rd_keep(rd, v[0]);
    c.expr = pni_rd_keep(rd, (is_template ? v[4] : v[3]) ? (is_template ? v[4]
                                                                : v[3])
                                                         : "");
    c.is_int = !type || strcmp(type, "REAL");
    c.is_template = is_template;
    c.at = pni_rd_where(rd->tree.cur, is_template ? "last-binding=" : "value=");
    if (!c.name || !c.expr)
        return -1;
    pp->consts[pp->nconsts++] = c;
    return pni_rd_skip(rd);
}

int pni_pnpro_read_object(rd_t *rd, const char *name)
{
    if (!strcmp(name, "place"))
        return read_place(rd);
    if (!strcmp(name, "transition"))
        return read_transition(rd);
    if (!strcmp(name, "arc"))
        return read_arc(rd);
    if (!strcmp(name, "constant"))
        return read_const(rd, 0);
    if (!strcmp(name, "template"))
        return read_const(rd, 1);
    return coloured(rd, name[6] == 'c' ? "a colour class" : "a colour "
                                                            "variable");
}

/* ---- expressions: numbers, constants, + - * /, parentheses ------------- */

/* The parse of one expression.  markdep: it names a place's marking
 * (#P) or calls a function (Min[...]): not a number of the net. */
typedef struct {
    rd_t *rd;
    const char *s, *p;
    at_t at;
    int markdep;
    int depth;
} ex_t;

static int eval(rd_t *rd, const char *s, at_t at, double *out, int *markdep);

static void blank(ex_t *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
}

static int ex_fail(ex_t *x, const char *why)
{
    return pni_rd_fail(x->rd, PN_EVALUE, x->at, "expression '%s': %s", x->s,
                       why);
}

static int ex_sum(ex_t *x, double *v);

/* A constant's value, evaluated once; a template parameter at its last
 * binding, said once in the warning. */
static int constant(ex_t *x, pp_const_t *c, double *v)
{
    struct pni_pnpro *pp = x->rd->pnpro;
    if (c->state == 1)
        return pni_rd_fail(x->rd, PN_EREFCYCLE, c->at, "constant '%s' is "
                           "defined through itself", c->name);
    if (c->state == 0) {
        if (c->is_template && !*c->expr)
            return pni_rd_fail(x->rd, PN_EVALUE, x->at, "template parameter "
                               "'%s' has no value in the net (GreatSPN binds "
                               "it in a measure page)", c->name);
        c->state = 1;
        int md = 0;
        if (eval(x->rd, c->expr, c->at, &c->value, &md) < 0)
            return -1;
        if (md)
            return pni_rd_fail(x->rd, PN_EUNSUPPORTED, c->at, "constant "
                               "'%s' = '%s' is not a number", c->name,
                               c->expr);
        if (c->is_int && c->value != floor(c->value))
            return pni_rd_fail(x->rd, PN_EVALUE, c->at, "INTEGER constant "
                               "'%s' is %g, not a whole number", c->name,
                               c->value);
        c->state = 2;
        size_t n = strlen(pp->templates);
        if (c->is_template && n + strlen(c->name) + 40 < sizeof pp->templates)
            snprintf(pp->templates + n, sizeof pp->templates - n,
                     "%s'%s' = %s", n ? ", " : "", c->name, c->expr);
    }
    *v = c->value;
    return 0;
}

static int ex_atom(ex_t *x, double *v)
{
    blank(x);
    if (++x->depth > 200)
        return ex_fail(x, "nested too deeply");
    const char *p = x->p;
    if (*p == '(') {
        x->p++;
        if (ex_sum(x, v) < 0)
            return -1;
        blank(x);
        if (*x->p != ')')
            return ex_fail(x, "')' expected");
        x->p++;
    } else if (*p == '-' || *p == '+') {
        x->p++;
        if (ex_atom(x, v) < 0)
            return -1;
        if (*p == '-')
            *v = -*v;
    } else if (isdigit((unsigned char)*p) || *p == '.') {
        char *end;
        *v = strtod(p, &end);
        if (end == p)
            return ex_fail(x, "a number is malformed");
        x->p = end;
    } else if (*p == '#' || isalpha((unsigned char)*p) || *p == '_') {
        const char *q = p + (*p == '#');
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        size_t n = (size_t)(q - p);
        x->p = q;
        *v = 1;
        blank(x);
        if (*p == '#' || *x->p == '[') {
            /* a place's marking, or one of GreatSPN's functions: a number
             * of the marking, not of the net */
            x->markdep = 1;
            if (*x->p == '[') {
                int depth = 0;
                for (; *x->p; x->p++) {
                    depth += *x->p == '[';
                    if (*x->p == ']' && --depth == 0)
                        break;
                }
                if (*x->p != ']')
                    return ex_fail(x, "']' expected");
                x->p++;
            }
            x->depth--;
            return 0;
        }
        struct pni_pnpro *pp = x->rd->pnpro;
        for (size_t i = 0; i < pp->nconsts; i++)
            if (strlen(pp->consts[i].name) == n &&
                !memcmp(pp->consts[i].name, p, n)) {
                x->depth--;
                return constant(x, &pp->consts[i], v);
            }
        pn_object_t k;
        char *id = pni_rd_tstrndup(x->rd, p, n);
        if (!id)
            return -1;
        if (pn_net_find(x->rd->net, id, &k, NULL) == PN_OK && k == PN_PLACE) {
            x->markdep = 1;
            x->depth--;
            return 0;
        }
        return pni_rd_fail(x->rd, PN_EUNKNOWN, x->at, "expression '%s': '%s' "
                           "names no constant", x->s, id);
    } else {
        return ex_fail(x, *p ? "a number or a name expected"
                             : "it ends too early");
    }
    x->depth--;
    return 0;
}

static int ex_product(ex_t *x, double *v)
{
    if (ex_atom(x, v) < 0)
        return -1;
    for (;;) {
        blank(x);
        char op = *x->p;
        if (op != '*' && op != '/')
            return 0;
        x->p++;
        double r;
        if (ex_atom(x, &r) < 0)
            return -1;
        *v = op == '*' ? *v * r : *v / r;
    }
}

static int ex_sum(ex_t *x, double *v)
{
    if (ex_product(x, v) < 0)
        return -1;
    for (;;) {
        blank(x);
        char op = *x->p;
        if (op != '+' && op != '-')
            return 0;
        x->p++;
        double r;
        if (ex_product(x, &r) < 0)
            return -1;
        *v = op == '+' ? *v + r : *v - r;
    }
}

/* s evaluated: 0 and *out, or -1 (recorded).  *markdep is set when s
 * depends on the marking (its value is then meaningless). */
static int eval(rd_t *rd, const char *s, at_t at, double *out, int *markdep)
{
    ex_t x = {rd, s, s, at, 0, 0};
    if (ex_sum(&x, out) < 0)
        return -1;
    blank(&x);
    if (*x.p)
        return ex_fail(&x, "unexpected text after the expression");
    *markdep = x.markdep;
    if (!x.markdep && !isfinite(*out))
        return ex_fail(&x, "its value is not a finite number");
    return 0;
}

/* ---- the net finished -------------------------------------------------- */

/* A whole number >= min from an expression of constants. */
static int whole(rd_t *rd, const pp_pend_t *p, double v, double min,
                 double max, const char *what)
{
    if (v != floor(v) || v < min || v > max)
        return pni_rd_fail(rd, v != floor(v) ? PN_EVALUE : PN_ERANGE, p->at,
                           "%s '%s' is %.17g, not a whole number between %g "
                           "and %g", what, p->expr, v, min, max);
    return 0;
}

static int settle(rd_t *rd, const pp_pend_t *p)
{
    struct pni_pnpro *pp = rd->pnpro;
    double v;
    int md = 0;
    if (eval(rd, p->expr, p->at, &v, &md) < 0)
        return -1;
    pp_timing_t *t = p->what >= PEND_RATE ? &pp->timings[p->index] : NULL;
    if (md) {
        if (t) {
            t->lost = 1;
            return 0;
        }
        return pni_rd_fail(rd, PN_EUNSUPPORTED, p->at, "'%s' depends on the "
                           "marking: only numbers and constants are read "
                           "here", p->expr);
    }
    switch (p->what) {
    case PEND_MARKING:
        if (whole(rd, p, v, 0, (double)PN_TOKENS_MAX, "marking"))
            return -1;
        return pn_net_set_marking(rd->net, p->index, (uint64_t)v) ? pni_rd_fail(
                   rd, PN_ERANGE, p->at, "marking '%s' is too large", p->expr)
                                                                  : 0;
    case PEND_MULT:
        if (whole(rd, p, v, 1, (double)PN_TOKENS_MAX, "multiplicity"))
            return -1;
        rd->arcs[p->index].weight = (uint64_t)v;
        return 0;
    case PEND_RATE:
        if (v < 0 || (v == 0 && t->timing == PN_TIMING_EXPONENTIAL))
            return pni_rd_fail(rd, PN_EVALUE, p->at, "'%s' is %g: a %s must "
                               "be %s", p->expr, v,
                               t->timing == PN_TIMING_EXPONENTIAL ? "rate"
                               : t->timing == PN_TIMING_IMMEDIATE ? "weight"
                                                                  : "delay",
                               t->timing == PN_TIMING_EXPONENTIAL ? "above 0"
                                                                  : ">= 0");
        t->rate = v;
        return 0;
    case PEND_PRIORITY:
        if (whole(rd, p, v, 0, INT_MAX, "priority"))
            return -1;
        t->priority = (int)v;
        return 0;
    default:
        if (whole(rd, p, v, 1, UINT_MAX, "nservers"))
            return -1;
        t->servers = (unsigned)v;
        return 0;
    }
}

/* Called when the <gspn> ends, before its arcs are added: every number
 * that names a constant evaluated, the timing set. */
int pni_pnpro_finish(rd_t *rd)
{
    struct pni_pnpro *pp = rd->pnpro;
    for (size_t i = 0; i < pp->npend; i++)
        if (settle(rd, &pp->pend[i]) < 0)
            return -1;
    for (size_t i = 0; i < pp->ntimings; i++) {
        const pp_timing_t *t = &pp->timings[i];
        if (t->lost) {
            pni_rd_ignore(rd, IGN_TIMING);
            pni_net_timing_lost(rd->net, t->index);
            continue;
        }
        pn_server_t sv = t->servers == 0   ? PN_SERVER_INFINITE
                         : t->servers == 1 ? PN_SERVER_SINGLE
                                           : PN_SERVER_K;
        if (pn_net_set_timing(rd->net, t->index, t->timing, t->rate,
                              t->priority, sv) ||
            pn_net_set_servers(rd->net, t->index, t->servers))
            return pni_rd_fail(rd, PN_EVALUE, (at_t){0, 0}, "transition "
                               "'%s': timing refused",
                               pn_net_transition(rd->net, t->index)->id);
    }
    if (pp->templates[0]) {
        char w[400];
        snprintf(w, sizeof w, "%s: template parameters read at their last "
                 "binding in GreatSPN: %s", rd->diag.name, pp->templates);
        if (pn_net_add_warning(rd->net, w))
            return pni_rd_nomem(rd);
    }
    return 0;
}
