/* PIPE's rates that are expressions of the marking ("#(P0)*2", the grammar
 * of lib/rate.c) and its rate parameters.  PIPECore (sjdayday/PIPECore)
 * writes a parameter as <definition name id defType="real" type="text"
 * expression="..."/> right in the net (io/adapters/model/
 * AdaptedRateParameter.java), and a transition that uses one as
 * <toolspecific tool="PIPE" version="5" rateDefinition="id"/> beside its
 * <rate>, which holds the parameter's expression
 * (io/adapters/modelAdapter/TransitionAdapter.java: on reading, the
 * parameter wins over <rate>).  A rate is checked once the net is whole,
 * since its places may come after it. */
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reader_private.h"

struct pni_rd_rate {
    size_t transition;
    const char *text;  /* the rate as read */
    const char *def;   /* the rateDefinition it names, NULL: none */
    at_t at;           /* where text starts */
};

int pni_rd_rate_add(rd_t *rd, size_t transition, const char *text,
                    const char *def, at_t at)
{
    text = pni_rd_keep(rd, text);
    def = def ? pni_rd_keep(rd, def) : NULL;
    if (!text ||
        pni_grow((void **)&rd->rates, &rd->cap_rates, rd->nrates + 1,
                 sizeof *rd->rates))
        return pni_rd_nomem(rd);
    rd->rates[rd->nrates++] = (struct pni_rd_rate){transition, text, def, at};
    return 0;
}

void pni_rd_rates_free(rd_t *rd)
{
    free(rd->rates);
    free(rd->def_at);
}

/* <definition name="rate0" id="rate0" expression="5.0" .../>: kept whole,
 * to be written back as read. */
int pni_rd_definition(rd_t *rd)
{
    static const char *const names[] = {"id", "name", "expression", "type"};
    const char *v[4];
    const el_t *e = rd->tree.cur;
    if (pni_rd_attrs(rd, names, v, 4) < 0)
        return -1;
    if (!v[0] && !v[1])
        return pni_rd_fail_at(rd, PN_ESTRUCT, e, "definition",
                              "<definition> has neither id nor name");
    const char *xml = pni_rd_serialized(rd, e);
    size_t n = pni_net_rate_param_count(rd->net);
    if (!xml ||
        pni_grow((void **)&rd->def_at, &rd->cap_def_at, n + 1,
                 sizeof *rd->def_at) ||
        pni_net_add_rate_param(rd->net, v[0], v[1], v[2], xml))
        return pni_rd_nomem(rd);
    at_t at = pni_rd_where(e, v[2] ? "expression=" : "definition");
    if (v[2])
        at.col += strlen("expression=\"");
    rd->def_at[n] = at;
    return pni_rd_skip(rd);
}

/* The position of byte k of text, which starts at `at`. */
static at_t at_offset(at_t at, const char *text, size_t k)
{
    for (size_t i = 0; i < k && text[i]; i++) {
        if (text[i] == '\n') {
            at.line++;
            at.col = 1;
        } else if (at.col) {
            at.col++;
        }
    }
    return at;
}

/* A rate: a finite number >= 0, or an expression that compiles and, when
 * it reads no marking, is such a number.  Its value at the initial
 * marking in *value. */
static int check(rd_t *rd, const char *what, const char *text, at_t at,
                 pni_rate_t **out, double *value)
{
    char *end;
    double d = strtod(text, &end);
    if (end != text && !end[strspn(end, " \t\r\n")]) {
        /* a number, in any notation C reads (PIPE's own rates, such as
         * 1.0E-4, are read by Java's Double.valueOf()) */
        *out = NULL;
        *value = d;
        if (isfinite(d) && d >= 0)
            return 0;
        return pni_rd_fail(rd, PN_EVALUE, at, "%s: rate '%s' is not a "
                           "finite number >= 0", what, text);
    }
    char why[256];
    size_t pos = 0;
    pn_status_t st = pni_rate_compile(rd->net, text, out, &pos, why,
                                      sizeof why);
    if (st == PN_ENOMEM)
        return pni_rd_nomem(rd);
    if (st) {
        at_t p = at_offset(at, text, pos);
        return pni_rd_fail(rd, PN_EVALUE, p, "%s: rate '%s': %s", what,
                           text, why);
    }
    size_t np = pn_net_place_count(rd->net);
    uint64_t *m = malloc((np + 1) * sizeof *m);
    if (!m)
        return pni_rd_nomem(rd);
    for (size_t p = 0; p < np; p++)
        m[p] = pn_net_place(rd->net, p)->marking;
    *value = pni_rate_eval(*out, rd->net, m);
    free(m);
    if (pni_rate_constant(*out) && !(isfinite(*value) && *value >= 0))
        return pni_rd_fail(rd, PN_EVALUE, at, "%s: rate '%s' is %g, not a "
                           "finite number >= 0", what, text, *value);
    return 0;
}

/* The parameter a rateDefinition names: by id, else by name (older PIPE
 * files give only a name); -1 none. */
static long find_param(const pn_net_t *net, const char *def)
{
    size_t n = pni_net_rate_param_count(net);
    for (int by_name = 0; by_name < 2; by_name++)
        for (size_t i = 0; i < n; i++) {
            const char *id, *name, *expr, *xml;
            pni_net_rate_param(net, i, &id, &name, &expr, &xml);
            const char *key = by_name ? name : id;
            if (key && !strcmp(key, def))
                return (long)i;
        }
    return -1;
}

static int set_rate(rd_t *rd, const struct pni_rd_rate *r)
{
    const pn_transition_t *t = pn_net_transition(rd->net, r->transition);
    char what[300];
    snprintf(what, sizeof what, "transition '%.200s'", t->id);
    const char *text = r->text;
    at_t at = r->at;
    if (r->def) {
        long i = find_param(rd->net, r->def);
        if (i < 0)
            return pni_rd_fail(rd, PN_EUNKNOWN, r->at, "%s: rateDefinition "
                               "'%s' names no <definition>", what, r->def);
        const char *id, *name, *xml;
        pni_net_rate_param(rd->net, (size_t)i, &id, &name, &text, &xml);
        at = rd->def_at[i];
    }
    pni_rate_t *e = NULL;
    double v = 0;
    int bad = check(rd, what, text, at, &e, &v);
    int number = !e;
    pni_rate_free(e);
    if (bad)
        return -1;
    /* the rate field holds the value at the initial marking, for those
     * that read no expression */
    unsigned servers = t->servers;
    if (pn_net_set_timing(rd->net, r->transition, t->timing,
                          isfinite(v) && v >= 0 ? v : 0, t->priority,
                          t->server) ||
        pn_net_set_servers(rd->net, r->transition, servers))
        return pni_rd_fail(rd, PN_EVALUE, at, "%s: bad timing", what);
    /* a number: no expression to keep */
    if (number)
        return 0;
    if (pni_net_set_rate_expr(rd->net, r->transition, text))
        return pni_rd_nomem(rd);
    return 0;
}

int pni_rd_rates_finish(rd_t *rd)
{
    size_t n = pni_net_rate_param_count(rd->net);
    for (size_t i = 0; i < n; i++) {
        const char *id, *name, *expr, *xml;
        pni_net_rate_param(rd->net, i, &id, &name, &expr, &xml);
        char what[300];
        snprintf(what, sizeof what, "<definition> '%.200s'", id ? id : name);
        pni_rate_t *e = NULL;
        double v;
        int bad = check(rd, what, expr, rd->def_at[i], &e, &v);
        pni_rate_free(e);
        if (bad)
            return -1;
    }
    for (size_t i = 0; i < rd->nrates; i++)
        if (set_rate(rd, &rd->rates[i]))
            return -1;
    return 0;
}
