/*
 * pm4py's stochastic Petri nets: the <toolspecific tool="StochasticPetriNet"
 * version="0.2"> block pm4py writes in a transition (pm4py-core,
 * pm4py/objects/petri_net/exporter/variants/pnml.py), read as its importer
 * and its random variables read it:
 *
 *   <property key="distributionType">EXPONENTIAL</property>
 *   <property key="distributionParameters">0.5</property>  (not IMMEDIATE)
 *   <property key="priority">0</property>
 *   <property key="invisible">false</property>
 *   <property key="weight">1.0</property>
 *
 * EXPONENTIAL's parameter is the rate (Exponential.read_from_string sets
 * scale = 1 / it), DETERMINISTIC's the delay, IMMEDIATE has none; weight
 * and priority are an immediate transition's.  The other distributions
 * (UNIFORM, NORMAL, LOGNORMAL, GAMMA) are not read: counted in the
 * reader's warning, the transition's timing not held (timing_lost).  The
 * block itself is kept (the dialects that keep tool-specific blocks write
 * it back as it was).
 */
#include <config.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reader_private.h"

/* The text of the current element, trimmed: a copy in the tree's memory,
 * or NULL (recorded) when out of memory. */
static const char *trimmed(rd_t *rd)
{
    if (pni_rd_text_of(rd) < 0)
        return NULL;
    const char *t = rd->tree.text + strspn(rd->tree.text, " \t\r\n");
    size_t n = strlen(t);
    while (n && strchr(" \t\r\n", t[n - 1]))
        n--;
    return pni_rd_tstrndup(rd, t, n);
}

static int property(rd_t *rd, void *ctx, const char *name)
{
    pni_spn_t *s = ctx;
    if (strcmp(name, "property"))
        return pni_rd_skip(rd);
    const char *key = pni_rd_attr(rd, "key");
    if (!key)
        return pni_rd_skip(rd);
    const char **slot = !strcmp(key, "distributionType")         ? &s->type
                        : !strcmp(key, "distributionParameters") ? &s->params
                        : !strcmp(key, "priority")               ? &s->priority
                        : !strcmp(key, "weight")                 ? &s->weight
                                                                 : NULL;
    if (slot) {
        *slot = trimmed(rd);
        if (!*slot)
            return -1;
        s->at[slot - &s->type] = pni_rd_where(rd->tree.cur, ">");
    }
    return pni_rd_skip(rd);
}

int pni_rd_spn_block(rd_t *rd, pni_spn_t *s)
{
    s->seen = 1;
    return pni_rd_children(rd, property, s);
}

/* A number of the block: as Python's float() reads it, finite. */
static int spn_number(rd_t *rd, const char *t, at_t at, const char *what,
                      double *out)
{
    char *end;
    double v = t ? strtod(t, &end) : NAN;
    if (!t || end == t || *end || !isfinite(v) || v < 0)
        return pni_rd_fail(rd, PN_EVALUE, at, "StochasticPetriNet %s '%s' is "
                           "not a finite number >= 0", what, t ? t : "");
    *out = v;
    return 0;
}

int pni_rd_spn_set(rd_t *rd, const pni_spn_t *s, size_t index)
{
    if (!s->seen)
        return 0;
    rd->timing_special++;
    const char *type = s->type ? s->type : "";
    pn_timing_t kind = !strcmp(type, "IMMEDIATE")       ? PN_TIMING_IMMEDIATE
                       : !strcmp(type, "EXPONENTIAL")   ? PN_TIMING_EXPONENTIAL
                       : !strcmp(type, "DETERMINISTIC") ? PN_TIMING_DETERMINISTIC
                                                        : PN_TIMING_NONE;
    if (kind == PN_TIMING_NONE) {
        /* pm4py's RandomVariable.read_from_string knows these too */
        static const char *const known[] = {"UNIFORM", "NORMAL", "LOGNORMAL",
                                            "GAMMA"};
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (!strcmp(type, known[i])) {
                pni_rd_ignore(rd, IGN_DISTRIBUTION);
                pni_net_timing_lost(rd->net, index);
                return 0;
            }
        return pni_rd_fail(rd, PN_EVALUE, s->at[0], "StochasticPetriNet "
                           "distributionType '%s' is not one of pm4py's",
                           type);
    }
    double rate = 1, weight = 1, prio = PN_DEFAULT_PRIORITY;
    if (kind != PN_TIMING_IMMEDIATE &&
        spn_number(rd, s->params, s->at[1], "distributionParameters", &rate))
        return -1;
    if (kind == PN_TIMING_EXPONENTIAL && rate == 0)
        return pni_rd_fail(rd, PN_EVALUE, s->at[1], "StochasticPetriNet "
                           "rate 0: an exponential rate must be above 0");
    if (s->weight && spn_number(rd, s->weight, s->at[3], "weight", &weight))
        return -1;
    if (s->priority) {
        char *end;
        long p = strtol(s->priority, &end, 10);
        if (end == s->priority || *end || p < 0 || p > INT_MAX)
            return pni_rd_fail(rd, PN_EVALUE, s->at[2], "StochasticPetriNet "
                               "priority '%s' is not a whole number >= 0",
                               s->priority);
        prio = (double)p;
    }
    pn_net_set_timing(rd->net, index, kind,
                      kind == PN_TIMING_IMMEDIATE ? weight : rate, (int)prio,
                      PN_SERVER_SINGLE);
    return 0;
}
