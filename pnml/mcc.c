/* The Model Checking Contest's property files (UpperBounds), via libxml2's
 * tree: they are small. */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "lib_private.h"
#include "pnml_private.h"
#include "mcc.h"

typedef struct {
    char *id;
    size_t n;
    size_t *places;
} bound_t;

struct pn_mcc_bounds {
    bound_t *v;
    size_t n, cap;
};

void pn_mcc_bounds_free(pn_mcc_bounds_t *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++) {
        free(b->v[i].id);
        free(b->v[i].places);
    }
    free(b->v);
    free(b);
}

size_t pn_mcc_bounds_count(const pn_mcc_bounds_t *b) { return b ? b->n : 0; }

const char *pn_mcc_bound_id(const pn_mcc_bounds_t *b, size_t i)
{
    return b && i < b->n ? b->v[i].id : NULL;
}

const size_t *pn_mcc_bound_places(const pn_mcc_bounds_t *b, size_t i,
                                  size_t *n)
{
    *n = b && i < b->n ? b->v[i].n : 0;
    return b && i < b->n ? b->v[i].places : NULL;
}

static int is(const xmlNode *e, const char *name)
{
    return e->type == XML_ELEMENT_NODE && !strcmp((const char *)e->name, name);
}

static xmlNode *child(const xmlNode *e, const char *name)
{
    for (xmlNode *c = e->children; c; c = c->next)
        if (is(c, name))
            return c;
    return NULL;
}

/* A place named in a formula: by id, else by name. */
static int find_place(const pn_net_t *net, const char *s, size_t *index)
{
    pn_object_t k;
    if (pn_net_find(net, s, &k, index) == PN_OK && k == PN_PLACE)
        return 0;
    for (size_t p = 0; p < pn_net_place_count(net); p++) {
        const char *nm = pn_net_place(net, p)->name;
        if (nm && !strcmp(nm, s)) {
            *index = p;
            return 0;
        }
    }
    return -1;
}

static pn_status_t read_property(const xmlNode *prop, const pn_net_t *net,
                                 bound_t *b, pn_error_t *err)
{
    xmlNode *id = child(prop, "id"), *f = child(prop, "formula");
    xmlNode *pb = f ? child(f, "place-bound") : NULL;
    unsigned long line = (unsigned long)xmlGetLineNo(prop);
    if (!id || !f)
        return pni_error(err, PN_ESTRUCT, line, 0, "a <property> without "
                         "<id> or <formula>");
    if (!pb)
        return pni_error(err, PN_EUNSUPPORTED, line, 0, "only place-bound "
                         "formulas (UpperBounds) are read");
    xmlChar *idt = xmlNodeGetContent(id);
    b->id = idt ? strdup((const char *)idt) : NULL;
    xmlFree(idt);
    if (!b->id)
        return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    for (xmlNode *c = pb->children; c; c = c->next) {
        if (!is(c, "place"))
            continue;
        xmlChar *name = xmlNodeGetContent(c);
        size_t p;
        int bad = !name || find_place(net, (const char *)name, &p);
        if (bad) {
            pn_status_t st = pni_error(err, PN_EUNKNOWN,
                                       (unsigned long)xmlGetLineNo(c), 0,
                                       "property '%s': '%s' is not a place "
                                       "of the net", b->id,
                                       name ? (const char *)name : "");
            xmlFree(name);
            return st;
        }
        xmlFree(name);
        size_t *v = realloc(b->places, (b->n + 1) * sizeof *v);
        if (!v)
            return pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
        b->places = v;
        b->places[b->n++] = p;
    }
    return PN_OK;
}

pn_status_t pn_mcc_bounds_read(const char *path, const pn_net_t *net,
                               pn_mcc_bounds_t **out, pn_error_t *err)
{
    pni_error_begin(err, path);
    if (!path || !net || !out)
        return pni_error(err, PN_EINVAL, 0, 0, "invalid argument");
    *out = NULL;
    if (access(path, R_OK) != 0)
        return pni_error(err, PN_EIO, 0, 0, "cannot read: %s",
                         strerror(errno));
    pni_xml_init();
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                          XML_PARSE_NOWARNING);
    if (!doc)
        return pni_error(err, PN_EXML, 0, 0, "malformed XML");
    xmlNode *root = xmlDocGetRootElement(doc);
    pn_status_t st = PN_OK;
    pn_mcc_bounds_t *b = calloc(1, sizeof *b);
    if (!b)
        st = pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
    else if (!root || !is(root, "property-set"))
        st = pni_error(err, PN_ESTRUCT, root ? (unsigned long)
                       xmlGetLineNo(root) : 0, 0, "not a <property-set>");
    for (xmlNode *c = root ? root->children : NULL; !st && c; c = c->next) {
        if (!is(c, "property"))
            continue;
        if (pni_grow((void **)&b->v, &b->cap, b->n + 1, sizeof *b->v)) {
            st = pni_error(err, PN_ENOMEM, 0, 0, "out of memory");
            break;
        }
        memset(&b->v[b->n], 0, sizeof *b->v);
        b->n++;
        st = read_property(c, net, &b->v[b->n - 1], err);
    }
    xmlFreeDoc(doc);
    if (st) {
        pn_mcc_bounds_free(b);
        return st;
    }
    *out = b;
    return PN_OK;
}
