/*
 * GreatSPN's PNPRO project files written: one <gspn> page holding the net,
 * as GreatSPN's editor saves it (greatspn/SOURCES, JavaGUI/Editor/src/
 * editor/domain/io/PnProFormat.java, saveXML: <project name version>,
 * then each page with its <nodes> and <edges>) and reads it back
 * (exchangeXML of each element):
 *  - Place.exchangeXML: name, marking (default ""), x, y;
 *  - Transition.exchangeXML: name, type (EXP, IMM, GEN), x, y; delay
 *    (default "1.0") when timed, priority (default "1") and weight
 *    (default "1.0") when immediate, nservers (default "Infinite": a
 *    missing nservers is an infinite server) when exponential;
 *  - GspnEdge.exchangeXML: head, tail, kind (INPUT, OUTPUT, INHIBITOR),
 *    mult (default "1").
 * A deterministic delay d is GEN's I[d], which pnpro.c reads back (GEN is
 * an infinite-server transition there).  What PNPRO cannot say is refused
 * before anything is written: capacities, read and reset arcs, rates that
 * are expressions of PIPE's grammar, and deterministic transitions that
 * are not infinite-server.
 */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "lib_private.h"
#include "pnml_private.h"

/* The file version GreatSPN writes (PnProFormat's
 * CURRENT_FILE_VERSION_NUMBER). */
#define PNPRO_VERSION "121"
/* GreatSPN's coordinates are in units of about a node's size. */
#define PNPRO_SCALE 10.0

int pni_pnpro_name_ok(const char *id)
{
    if (!id || !((*id >= 'A' && *id <= 'Z') || (*id >= 'a' && *id <= 'z') ||
                 *id == '_'))
        return 0;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

pn_status_t pni_pnpro_check(const pn_net_t *net, pn_error_t *err)
{
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        if (pn_net_place(net, i)->capacity)
            return pni_error(err, PN_EDIALECT, 0, 0,
                             "PNPRO has no place capacities: place '%s'",
                             pn_net_place(net, i)->id);
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        if (t->timing_lost)
            return pni_error(err, PN_EDIALECT, 0, 0,
                             "the timing of transition '%s' was not read: "
                             "writing the net would change it", t->id);
        if (t->rate_expr)
            return pni_error(err, PN_EDIALECT, 0, 0,
                             "transition '%s': its rate '%s' is an "
                             "expression of PIPE's grammar, not of "
                             "GreatSPN's", t->id, t->rate_expr);
        if (t->timing == PN_TIMING_DETERMINISTIC &&
            t->server != PN_SERVER_INFINITE)
            return pni_error(err, PN_EDIALECT, 0, 0,
                             "transition '%s': GreatSPN's deterministic "
                             "transitions (GEN, I[d]) are infinite-server",
                             t->id);
    }
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (a->kind == PN_ARC_READ || a->kind == PN_ARC_RESET)
            return pni_error(err, PN_EDIALECT, 0, 0,
                             "PNPRO has no %s arcs: arc from %s",
                             a->kind == PN_ARC_READ ? "read" : "reset",
                             pn_net_place(net, a->place)->id);
    }
    return PN_OK;
}

#define W(call)                                                               \
    do {                                                                      \
        if ((call) < 0)                                                       \
            return -1;                                                        \
    } while (0)
#define S(s) ((const xmlChar *)(s))

static int att(xmlTextWriterPtr w, const char *name, const char *value)
{
    return xmlTextWriterWriteAttribute(w, S(name), S(value));
}

static int att_num(xmlTextWriterPtr w, const char *name, double v)
{
    char buf[PNI_EXACT_SIZE];
    pni_format_exact(buf, sizeof buf, v, 0);
    return att(w, name, buf);
}

static int att_u64(xmlTextWriterPtr w, const char *name, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return att(w, name, buf);
}

static int xy(xmlTextWriterPtr w, double x, double y)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f", x / PNPRO_SCALE);
    W(att(w, "x", buf));
    snprintf(buf, sizeof buf, "%.2f", y / PNPRO_SCALE);
    return att(w, "y", buf);
}

/* A transition: its type and the attributes GreatSPN reads for it.  An
 * untimed transition is GreatSPN's default, exponential of rate 1, with
 * our single server. */
static int transition(xmlTextWriterPtr w, const pn_transition_t *t,
                      const char *name, double x, double y)
{
    W(xmlTextWriterStartElement(w, S("transition")));
    W(att(w, "name", name));
    switch (t->timing) {
    case PN_TIMING_IMMEDIATE:
        W(att(w, "type", "IMM"));
        W(att_num(w, "weight", t->rate));
        W(att_u64(w, "priority", (uint64_t)t->priority));
        break;
    case PN_TIMING_DETERMINISTIC: {
        char d[PNI_EXACT_SIZE + 4], v[PNI_EXACT_SIZE];
        pni_format_exact(v, sizeof v, t->rate, 0);
        snprintf(d, sizeof d, "I[%s]", v);
        W(att(w, "type", "GEN"));
        W(att(w, "delay", d));
        break;
    }
    default:
        W(att(w, "type", "EXP"));
        W(att_num(w, "delay", t->timing == PN_TIMING_NONE ? PN_DEFAULT_RATE
                                                          : t->rate));
        if (t->server != PN_SERVER_INFINITE)
            W(att_u64(w, "nservers", t->server == PN_SERVER_K ? t->servers
                                                              : 1));
        break;
    }
    W(xy(w, x, y));
    return xmlTextWriterEndElement(w);
}

int pni_pnpro_write(xmlTextWriterPtr w, const pn_net_t *net,
                    const char *const *pid, const char *const *tid,
                    const double *px, const double *py, const double *tx,
                    const double *ty)
{
    const char *id = pn_net_id(net) ? pn_net_id(net) : "net";
    const char *name = pn_net_name(net) ? pn_net_name(net) : id;
    W(xmlTextWriterSetIndent(w, 1));
    W(xmlTextWriterSetIndentString(w, S("  ")));
    W(xmlTextWriterStartDocument(w, NULL, "UTF-8", "no"));
    W(xmlTextWriterStartElement(w, S("project")));
    W(att(w, "name", name));
    W(att(w, "version", PNPRO_VERSION));
    W(xmlTextWriterStartElement(w, S("gspn")));
    W(att(w, "name", id));
    W(xmlTextWriterStartElement(w, S("nodes")));
    for (size_t i = 0; i < pn_net_place_count(net); i++) {
        const pn_place_t *p = pn_net_place(net, i);
        W(xmlTextWriterStartElement(w, S("place")));
        if (p->marking)
            W(att_u64(w, "marking", p->marking));
        W(att(w, "name", pid[i]));
        W(xy(w, px[i], py[i]));
        W(xmlTextWriterEndElement(w));
    }
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        W(transition(w, pn_net_transition(net, i), tid[i], tx[i], ty[i]));
    W(xmlTextWriterEndElement(w)); /* nodes */
    W(xmlTextWriterStartElement(w, S("edges")));
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        int in = a->dir == PN_DIR_PT;
        W(xmlTextWriterStartElement(w, S("arc")));
        W(att(w, "head", in ? tid[a->transition] : pid[a->place]));
        W(att(w, "kind", a->kind == PN_ARC_INHIBITOR ? "INHIBITOR"
                         : in                       ? "INPUT"
                                                    : "OUTPUT"));
        if (a->weight != 1)
            W(att_u64(w, "mult", a->weight));
        W(att(w, "tail", in ? pid[a->place] : tid[a->transition]));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w)); /* edges */
    W(xmlTextWriterEndElement(w)); /* gspn */
    W(xmlTextWriterEndElement(w)); /* project */
    W(xmlTextWriterEndDocument(w));
    return xmlTextWriterFlush(w);
}
