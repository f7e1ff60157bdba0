/*
 * PNML reader and writer: data-driven fixtures (tests/pnml/valid and
 * tests/pnml/invalid), every file of the third-party corpus against its
 * manifest, and read -> write -> read round trips in every dialect.
 *
 * PN_REGEN=1 rewrites the expected files of the fixtures (review the diff).
 * The net.pnml of the snakes-* fixtures but snakes-multisets are SNAKES's
 * own output: tests/pnml/snakes-fixtures.py writes them with SNAKES.
 */
#include <config.h>
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "pn.h"
#include "lib_private.h"
#include "pnml_private.h"

static const char *srcdir(void)
{
    const char *s = getenv("srcdir");
    return s ? s : ".";
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t got;
    while ((got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            b = realloc(b, cap);
        }
    }
    fclose(f);
    b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

static char *dump_str(const pn_net_t *net, int flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pn_net_dump(net, f, flags), PN_OK);
    fclose(f);
    return buf;
}

/* The dump without its first line (the net line carries the type URI,
 * which the writer normalises). */
static const char *body(const char *dump)
{
    const char *nl = strchr(dump, '\n');
    return nl ? nl + 1 : dump;
}

static char *write_str(const pn_net_t *net, pn_dialect_t d, pn_status_t *st,
                       size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    pn_write_options_t wo = {.dialect = d};
    pn_error_t err;
    pn_error_clear(&err);
    *st = pn_pnml_write_stream(net, f, &wo, &err);
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

/* Whether transition i keeps pm4py's StochasticPetriNet block in dialect
 * d: its timing, not read, is written in it all the same. */
static int spn_kept(const pn_net_t *net, size_t i, pn_dialect_t d)
{
    for (size_t k = 0; k < pn_net_toolspecific_count(net); k++) {
        const pn_toolspecific_t *t = pn_net_toolspecific(net, k);
        if (t->owner == PN_TRANSITION && t->index == i &&
            !strcmp(t->tool, "StochasticPetriNet") &&
            pn_dialect_keeps_toolspecific(d, t))
            return 1;
    }
    return 0;
}

static int writable_in(const pn_net_t *net, pn_dialect_t d)
{
    /* timing not read is written nowhere (but in the block it came
     * from); PIPE has no deterministic transitions */
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        if ((t->timing_lost && !spn_kept(net, i, d)) ||
            (d == PN_DIALECT_PIPE && (t->timing == PN_TIMING_DETERMINISTIC ||
                                      t->server == PN_SERVER_K)))
            return 0;
    }
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        if (d == PN_DIALECT_STRICT && a->kind != PN_ARC_NORMAL)
            return 0;
        if (d == PN_DIALECT_PIPE &&
            (a->kind == PN_ARC_READ || a->kind == PN_ARC_RESET ||
             (a->kind == PN_ARC_INHIBITOR && a->weight > 1)))
            return 0;
        if (d == PN_DIALECT_WOPED && a->kind != PN_ARC_NORMAL)
            return 0;
    }
    return 1;
}

/* PIPE's and TAPAAL's grid */
static double snap15(double v) { return round(v / 15) * 15; }

/* Where a node's position went in dialect d: the same, or for PIPE and
 * TAPAAL on their 15-pixel grid, the whole drawing moved by (*sx, *sy),
 * whole grid steps that are the same for every node (set by the first). */
static void check_moved(pn_dialect_t d, double ax, double ay, double bx,
                        double by, double *sx, double *sy, int *have,
                        const char *what, const char *id)
{
    if (d != PN_DIALECT_PIPE && d != PN_DIALECT_TAPAAL) {
        ck_assert_msg(fabs(ax - bx) < 1e-6 && fabs(ay - by) < 1e-6,
                      "%s: position of %s changed", what, id);
        return;
    }
    ck_assert_msg(fabs(bx - snap15(bx)) < 1e-6 && fabs(by - snap15(by)) < 1e-6,
                  "%s: %s (%g, %g) is off the 15-pixel grid", what, id, bx, by);
    if (!*have) {
        *sx = bx - snap15(ax);
        *sy = by - snap15(ay);
        *have = 1;
        ck_assert_msg(*sx >= 0 && *sy >= 0 && fabs(*sx - snap15(*sx)) < 1e-6,
                      "%s: moved by (%g, %g)", what, *sx, *sy);
    }
    ck_assert_msg(fabs(bx - snap15(ax) - *sx) < 1e-6 &&
                      fabs(by - snap15(ay) - *sy) < 1e-6,
                  "%s: %s moved otherwise than the drawing", what, id);
}

/* read -> write(d) -> read gives the same net: same dump (without ids,
 * which the writer may rewrite, and the type URI), same positions where the
 * original had them, and every id that was valid PNML kept. */
/* ---- the shape of PIPE's own files --------------------------------------
 * Every element path, attribute and value pattern our PIPE dialect writes
 * must occur in the files PIPE 5 writes itself (the corpus's PIPE files
 * with a <token> class: PIPE's own examples and its unit-test fixtures). */

enum { V_INT = 1, V_DEC = 2, V_TOKENS = 4, V_BOOL = 8, V_TEXT = 16 };

static unsigned value_class(const char *v)
{
    size_t n = strlen(v), d = strspn(v + (v[0] == '-'), "0123456789");
    if (d && d + (v[0] == '-') == n)
        return V_INT;
    if (d && v[d + (v[0] == '-')] == '.' &&
        strspn(v + d + (v[0] == '-') + 1, "0123456789") ==
            n - d - (v[0] == '-') - 1 && n > d + 1 + (v[0] == '-'))
        return V_DEC;
    if (!strcmp(v, "true") || !strcmp(v, "false"))
        return V_BOOL;
    const char *comma = strrchr(v, ',');
    if (comma && comma > v && comma[1] && strspn(comma + 1, "0123456789") ==
                                              strlen(comma + 1))
        return V_TOKENS;
    return V_TEXT;
}

typedef struct {
    char **path;
    unsigned *cls;
    size_t n;
} shape_t;

static void shape_add(shape_t *s, const char *path, unsigned cls)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->path[i], path)) {
            s->cls[i] |= cls;
            return;
        }
    s->path = realloc(s->path, (s->n + 1) * sizeof *s->path);
    s->cls = realloc(s->cls, (s->n + 1) * sizeof *s->cls);
    s->path[s->n] = strdup(path);
    s->cls[s->n++] = cls;
}

static void shape_free(shape_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->path[i]);
    free(s->path);
    free(s->cls);
}

/* Names and ids are free text in any tool: only their presence counts. */
static int free_text(const char *path)
{
    size_t n = strlen(path);
    return (n > 12 && !strcmp(path + n - 12, "/name/value#")) ||
           (n > 3 && (!strcmp(path + n - 3, "@id") ||
                      !strcmp(path + n - 7, "@source") ||
                      !strcmp(path + n - 7, "@target")));
}

static void shape_of(xmlNode *e, const char *parent, shape_t *s)
{
    char path[1024], key[1100];
    snprintf(path, sizeof path, "%s/%s", parent, (const char *)e->name);
    shape_add(s, path, 0);
    for (xmlAttr *a = e->properties; a; a = a->next) {
        xmlChar *v = xmlNodeGetContent((xmlNode *)a);
        snprintf(key, sizeof key, "%s@%s", path, (const char *)a->name);
        shape_add(s, key, free_text(key) ? 0 : value_class((char *)v));
        xmlFree(v);
    }
    int leaf = 1;
    for (xmlNode *c = e->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) {
            leaf = 0;
            shape_of(c, path, s);
        }
    xmlChar *t = leaf ? xmlNodeGetContent(e) : NULL;
    if (t && *t) {
        snprintf(key, sizeof key, "%s#", path);
        shape_add(s, key, free_text(key) ? 0 : value_class((char *)t));
    }
    xmlFree(t);
}

static void shape_of_doc(const char *buf, size_t len, const char *file,
                         shape_t *s)
{
    xmlDoc *doc = buf ? xmlReadMemory(buf, (int)len, "mem", NULL, XML_PARSE_NONET)
                      : xmlReadFile(file, NULL, XML_PARSE_NONET);
    ck_assert_msg(doc != NULL, "cannot parse %s", file ? file : "output");
    shape_of(xmlDocGetRootElement(doc), "", s);
    xmlFreeDoc(doc);
}

/* PIPE's own shape, from the corpus (NULL without it). */
static shape_t *pipe_shape(void)
{
    static shape_t ref;
    static int loaded;
    static const char *const files[] = {
        "PIPECore_petriNet.xml", "Simple_Coloured_Net.xml",
        "simple_vanishing.xml", "ClassicGSPN.xml"};
    const char *c = getenv("PN_CORPUS");
    if (!c || !*c)
        return NULL;
    if (!loaded) {
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/pipe/%s", c, files[i]);
            shape_of_doc(NULL, 0, path, &ref);
        }
        loaded = 1;
    }
    return &ref;
}

/* Our PIPE output has PIPE's shape: the first difference fails. */
static void check_pipe_shape(const char *xml, size_t len, const char *what)
{
    shape_t *ref = pipe_shape();
    if (!ref)
        return;
    shape_t ours = {0};
    shape_of_doc(xml, len, NULL, &ours);
    for (size_t i = 0; i < ours.n; i++) {
        size_t j;
        for (j = 0; j < ref->n && strcmp(ref->path[j], ours.path[i]); j++)
            ;
        ck_assert_msg(j < ref->n, "%s: PIPE's own files have no %s", what,
                      ours.path[i]);
        ck_assert_msg((ours.cls[i] & ~ref->cls[j]) == 0,
                      "%s: %s has values of class %#x, PIPE writes %#x", what,
                      ours.path[i], ours.cls[i], ref->cls[j]);
    }
    shape_free(&ours);
}

/* PIPE and TAPAAL draw a name label ending at the node's position plus
 * offset, in about 7 pixels a character, and clip what is left of 0: every
 * label fits.  TAPAAL shows the id, which is an identifier of its own. */
static void check_editor_labels(const pn_net_t *net, pn_dialect_t d,
                                const char *what)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    for (size_t k = 0; k < np + nt; k++) {
        const char *id, *name;
        double x, dx;
        int has;
        if (k < np) {
            const pn_place_t *p = pn_net_place(net, k);
            id = p->id, name = p->name, x = p->x, dx = p->label_dx,
            has = p->has_label;
        } else {
            const pn_transition_t *t = pn_net_transition(net, k - np);
            id = t->id, name = t->name, x = t->x, dx = t->label_dx,
            has = t->has_label;
        }
        const char *shown = d == PN_DIALECT_TAPAAL || !name ? id : name;
        ck_assert_msg(x + (has ? dx : 0) >= 7.0 * (double)strlen(shown),
                      "%s: the label of %s is clipped at x=%g", what, id, x);
        if (d == PN_DIALECT_TAPAAL)
            ck_assert_msg(id[strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHI"
                                    "JKLMNOPQRSTUVWXYZ0123456789_")] == '\0' &&
                              !strstr(id, "__") && !(*id >= '0' && *id <= '9'),
                          "%s: TAPAAL would rewrite the id '%s'", what, id);
    }
}

static void round_trip(const pn_net_t *net, pn_dialect_t d, const char *what)
{
    pn_status_t st;
    size_t len;
    char *xml = write_str(net, d, &st, &len);
    if (!writable_in(net, d)) {
        ck_assert_msg(st == PN_EDIALECT, "%s: dialect %d should refuse", what,
                      d);
        free(xml);
        return;
    }
    ck_assert_msg(st == PN_OK, "%s: write failed (%d)", what, st);
    if (d == PN_DIALECT_PIPE)
        check_pipe_shape(xml, len, what);
    double sx = 0, sy = 0;
    int moved = 0;
    pn_net_t *back;
    pn_error_t err;
    st = pn_pnml_read_memory(xml, len, what, NULL, &back, &err);
    ck_assert_msg(st == PN_OK, "%s: re-read failed in dialect %d: %s:%lu:%lu "
                  "%s", what, d, err.file, err.line, err.column, err.text);
    /* PIPE has no pages and no tool-specific data; strict leaves out the
     * tool-specific blocks that the grammar does not allow */
    int flags = d == PN_DIALECT_PIPE     ? 0
                : d == PN_DIALECT_STRICT ? PN_DUMP_PAGES
                : d == PN_DIALECT_WOPED  ? PN_DUMP_TOOLSPECIFIC
                                         : PN_DUMP_PAGES | PN_DUMP_TOOLSPECIFIC;
    char *d1 = dump_str(net, flags), *d2 = dump_str(back, flags);
    ck_assert_msg(strcmp(body(d1), body(d2)) == 0,
                  "%s: round trip (dialect %d) changed the net:\n--- before\n"
                  "%.2000s\n--- after\n%.2000s", what, d, d1, d2);
    if (d != PN_DIALECT_PIPE && d != PN_DIALECT_TAPAAL)
        ck_assert_str_eq(pn_net_name(net) ? pn_net_name(net) : "-",
                         pn_net_name(back) ? pn_net_name(back) : "-");
    if (d == PN_DIALECT_TAPAAL && pn_net_name(back)) {
        /* a name TAPAAL shows as it is: an identifier */
        const char *n = pn_net_name(back);
        ck_assert_msg(n[strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                               "QRSTUVWXYZ0123456789_")] == '\0' &&
                          !strstr(n, "__"),
                      "%s: net name '%s' is not one TAPAAL shows", what, n);
    }
    for (size_t i = 0; i < pn_net_place_count(net); i++) {
        const pn_place_t *a = pn_net_place(net, i), *b = pn_net_place(back, i);
        /* the writer's defaults invent no position (the editors' dialects do) */
        ck_assert(b->has_position ==
                  (a->has_position || d == PN_DIALECT_PIPE ||
                   d == PN_DIALECT_TAPAAL || d == PN_DIALECT_WOPED));
        if (a->has_label)
            ck_assert_msg(b->has_label && fabs(a->label_dx - b->label_dx) < 1e-6 &&
                              fabs(a->label_dy - b->label_dy) < 1e-6,
                          "%s: label offset of place %s changed", what, a->id);
        if (a->has_position)
            check_moved(d, a->x, a->y, b->x, b->y, &sx, &sy, &moved, what,
                        a->id);
    }
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        const pn_transition_t *a = pn_net_transition(net, i),
                              *b = pn_net_transition(back, i);
        /* the writer's defaults invent no position (the editors' dialects do) */
        ck_assert(b->has_position ==
                  (a->has_position || d == PN_DIALECT_PIPE ||
                   d == PN_DIALECT_TAPAAL || d == PN_DIALECT_WOPED));
        if (a->has_label)
            ck_assert_msg(b->has_label && fabs(a->label_dx - b->label_dx) < 1e-6 &&
                              fabs(a->label_dy - b->label_dy) < 1e-6,
                          "%s: label offset of transition %s changed", what,
                          a->id);
        if (a->has_position)
            check_moved(d, a->x, a->y, b->x, b->y, &sx, &sy, &moved, what,
                        a->id);
        char buf[512];
        pni_pnml_sanitize_id(a->id, buf, sizeof buf);
        if (!strcmp(buf, a->id) && d != PN_DIALECT_TAPAAL)
            ck_assert_str_eq(a->id, b->id);
    }
    if (d == PN_DIALECT_PIPE || d == PN_DIALECT_TAPAAL)
        check_editor_labels(back, d, what);
    /* writing the re-read net again gives the same bytes */
    char *xml2 = write_str(back, d, &st, NULL);
    ck_assert_int_eq(st, PN_OK);
    ck_assert_msg(strcmp(xml, xml2) == 0, "%s: second write differs", what);
    free(xml2);
    free(d1);
    free(d2);
    free(xml);
    pn_net_free(back);
}

/* ---- fixtures ---------------------------------------------------------- */

static int regen(void)
{
    const char *r = getenv("PN_REGEN");
    return r && *r && strcmp(r, "0");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static char *path_in(const char *dir, const char *name, const char *file)
{
    size_t n = strlen(dir) + strlen(name) + strlen(file) + 3;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s/%s", dir, name, file);
    return p;
}

static char *net_id_of(const char *dir, const char *name)
{
    char *p = path_in(dir, name, "net-id");
    char *id = slurp(p, NULL);
    free(p);
    if (id)
        id[strcspn(id, "\n")] = '\0';
    return id;
}

typedef void (*case_fn)(const char *dir, const char *name);

static int each_case(const char *sub, case_fn fn)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/pnml/%s", srcdir(), sub);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        fn(dir, e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* The reader's warnings, one a line with the fixture's path written
 * "net.pnml", against the case's "warnings" file (none: no warnings). */
static void check_warnings(const pn_net_t *net, const char *dir,
                           const char *name, const char *file)
{
    size_t cap = 1, n = 0, flen = strlen(file);
    char *got = calloc(1, 1);
    for (size_t i = 0; i < pn_net_warning_count(net); i++) {
        const char *w = pn_net_warning(net, i);
        const char *rest = strncmp(w, file, flen) ? w : w + flen;
        const char *pre = rest == w ? "" : "net.pnml";
        size_t need = n + strlen(pre) + strlen(rest) + 2;
        if (need > cap)
            got = realloc(got, cap = 2 * need);
        n += (size_t)sprintf(got + n, "%s%s\n", pre, rest);
    }
    char *path = path_in(dir, name, "warnings");
    if (regen() && n)
        write_file(path, got);
    char *want = slurp(path, NULL);
    ck_assert_msg(strcmp(want ? want : "", got) == 0,
                  "%s: warnings differ\n--- expected\n%s--- got\n%s", name,
                  want ? want : "", got);
    free(want);
    free(path);
    free(got);
}

static void valid_case(const char *dir, const char *name)
{
    char *file = path_in(dir, name, "net.pnml");
    char *id = net_id_of(dir, name);
    pn_read_options_t ro = {.net_id = id};
    pn_net_t *net;
    pn_error_t err;
    pn_status_t st = pn_pnml_read_file(file, &ro, &net, &err);
    ck_assert_msg(st == PN_OK, "%s: %s:%lu:%lu: %s", name, err.file, err.line,
                  err.column, err.text);
    char *dump = dump_str(net, PN_DUMP_ALL);
    char *exp_path = path_in(dir, name, "expected");
    if (regen())
        write_file(exp_path, dump);
    char *expected = slurp(exp_path, NULL);
    ck_assert_msg(expected != NULL, "%s: no expected file (PN_REGEN=1)", name);
    ck_assert_msg(strcmp(expected, dump) == 0,
                  "%s: dump differs\n--- expected\n%s--- got\n%s", name,
                  expected, dump);
    check_warnings(net, dir, name, file);
    round_trip(net, PN_DIALECT_STANDARD, name);
    round_trip(net, PN_DIALECT_STRICT, name);
    round_trip(net, PN_DIALECT_PIPE, name);
    round_trip(net, PN_DIALECT_TAPAAL, name);
    round_trip(net, PN_DIALECT_WOPED, name);
    pn_net_free(net);
    free(expected);
    free(exp_path);
    free(dump);
    free(file);
    free(id);
}

START_TEST(fixtures_valid)
{
    ck_assert_int_ge(each_case("valid", valid_case), 15);
}
END_TEST

static void invalid_case(const char *dir, const char *name)
{
    char *file = path_in(dir, name, "net.pnml");
    char *id = net_id_of(dir, name);
    pn_read_options_t ro = {.net_id = id};
    pn_net_t *net = (pn_net_t *)1;
    pn_error_t err;
    pn_status_t st = pn_pnml_read_file(file, &ro, &net, &err);
    ck_assert_msg(st != PN_OK, "%s: accepted", name);
    ck_assert_ptr_null(net);
    ck_assert_int_eq(err.code, st);
    char got[1024];
    snprintf(got, sizeof got, "%s %lu:%lu\n%s\n", pn_status_name(st), err.line,
             err.column, err.text);
    char *exp_path = path_in(dir, name, "error");
    if (regen())
        write_file(exp_path, got);
    char *expected = slurp(exp_path, NULL);
    ck_assert_msg(expected != NULL, "%s: no error file (PN_REGEN=1)", name);
    ck_assert_msg(strcmp(expected, got) == 0,
                  "%s: error differs\n--- expected\n%s--- got\n%s", name,
                  expected, got);
    /* the file name is the one given */
    ck_assert_str_eq(err.file, file);
    free(expected);
    free(exp_path);
    free(file);
    free(id);
}

START_TEST(fixtures_invalid)
{
    ck_assert_int_ge(each_case("invalid", invalid_case), 25);
}
END_TEST

/* ---- the corpus -------------------------------------------------------- */

static const char *corpus(void)
{
    const char *c = getenv("PN_CORPUS");
    return c && *c ? c : NULL;
}

/* Files of the corpus that must be refused, and why. */
static const struct {
    const char *file;
    pn_status_t status;
} refused[] = {
    {"pnmlframework/ClientServer.pnml", PN_EUNSUPPORTED},  /* symmetric net */
    {"mcc/Philosophers-COL-000005.pnml", PN_EUNSUPPORTED}, /* colored */
    {"epnk/illegal_CyclicReferences.pnml", PN_EREFCYCLE},
    {"epnk/illegal_samplePTnet-WithoutIDs.pnml", PN_ENOID},
};

static pn_status_t refusal(const char *file)
{
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (!strcmp(refused[i].file, file))
            return refused[i].status;
    return PN_OK;
}

typedef struct {
    char file[512];
    size_t places, transitions, arcs, inhibitors;
} row_t;

static size_t read_manifest(row_t **rows_out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", corpus());
    char *text = slurp(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    row_t *rows = NULL;
    size_t n = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[16] = {0};
        int k = 0;
        for (char *p = line; k < 16;) {
            f[k++] = p;
            char *tab = strchr(p, '\t');
            if (!tab)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        if (k < 9 || !strcmp(f[0], "local_file") || !strncmp(f[0], "NOT-", 4) ||
            !strncmp(f[0], "grammar/", 8) || !*f[5])
            continue;
        rows = realloc(rows, (n + 1) * sizeof *rows);
        row_t *r = &rows[n++];
        snprintf(r->file, sizeof r->file, "%s", f[0]);
        r->places = strtoul(f[5], NULL, 10);
        r->transitions = strtoul(f[6], NULL, 10);
        r->arcs = strtoul(f[7], NULL, 10);
        r->inhibitors = f[8][0] == 'y' ? strtoul(f[8] + 3, NULL, 10) : 0;
    }
    free(text);
    *rows_out = rows;
    return n;
}

/* Generated GPU nets in PIPE's dialect: PIPE's own shape, and they read
 * back the same (the corpus loop checks every corpus net the same way). */
START_TEST(pipe_dialect_has_pipes_shape)
{
    if (!pipe_shape()) {
        fprintf(stderr, "PN_CORPUS not set: PIPE shape test skipped\n");
        return;
    }
    pn_gpu_params_t params[] = {
        {.warps = 1, .schedulers = 1, .uniform = {1, 1, 1}},
        {.warps = 3, .schedulers = 2, .l1 = 20, .l2 = 2, .uniform = {2, 1, 3}}};
    for (size_t i = 0; i < sizeof params / sizeof *params; i++) {
        pn_net_t *net;
        ck_assert_int_eq(pn_gpu_net(&params[i], &net), PN_OK);
        round_trip(net, PN_DIALECT_PIPE, "gpu net");
        pn_net_free(net);
    }
    /* the check can fail: a label PIPE never writes */
    static const char bad[] = "<pnml><net id=\"n\" type=\"P/T net\"><place "
                              "id=\"p\"><capacity><value>Default,0</value>"
                              "<graphics><offset x=\"0\" y=\"0\"/></graphics>"
                              "</capacity></place></net></pnml>";
    shape_t ours = {0};
    shape_of_doc(bad, sizeof bad - 1, NULL, &ours);
    shape_t *ref = pipe_shape();
    int missing = 0;
    for (size_t k = 0; k < ours.n; k++) {
        size_t j;
        for (j = 0; j < ref->n && strcmp(ref->path[j], ours.path[k]); j++)
            ;
        missing += j == ref->n || (ours.cls[k] & ~ref->cls[j]) != 0;
    }
    /* capacity's value class, its graphics and offset, offset x and y as
     * integers */
    ck_assert_int_eq(missing, 5);
    shape_free(&ours);
}
END_TEST

START_TEST(corpus_counts_and_round_trips)
{
    if (!corpus()) {
        fprintf(stderr, "PN_CORPUS not set: corpus test skipped\n");
        return;
    }
    row_t *rows;
    size_t n = read_manifest(&rows);
    ck_assert_int_ge(n, 60);
    size_t accepted = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", corpus(), rows[i].file);
        pn_net_t *net;
        pn_error_t err;
        pn_status_t st = pn_pnml_read_file(path, NULL, &net, &err);
        pn_status_t want = refusal(rows[i].file);
        if (want) {
            ck_assert_msg(st == want, "%s: expected %s, got %s (%s)",
                          rows[i].file, pn_status_name(want),
                          pn_status_name(st), err.text);
            ck_assert(err.line > 0);
            continue;
        }
        ck_assert_msg(st == PN_OK, "%s: %s:%lu:%lu: %s", rows[i].file,
                      err.file, err.line, err.column, err.text);
        size_t k[4];
        pn_net_count_arcs(net, k);
        size_t p = pn_net_place_count(net), t = pn_net_transition_count(net),
               a = pn_net_arc_count(net);
        if (!strcmp(rows[i].file, "epnk/My10_two_nets.pnml")) {
            /* the manifest counts both nets of the document; the first one
             * (read by default) has 2 places, 1 transition, 1 arc, and the
             * second (type "empty", an arc to nodes of the first) is not a
             * P/T net of its own */
            ck_assert(p == 2 && t == 1 && a == 1);
        } else {
            if (!strcmp(rows[i].file, "misc/perpetuum_netin.pnml")) {
                /* the manifest counts 49 inhibitor encodings, but arc
                 * place11:trans24 carries <type value="inhibitor"/> twice:
                 * 48 inhibitor arcs */
                ck_assert_int_eq(rows[i].inhibitors, 49);
                rows[i].inhibitors = 48;
            }
            ck_assert_msg(p == rows[i].places && t == rows[i].transitions &&
                              a == rows[i].arcs && k[1] == rows[i].inhibitors,
                          "%s: got %zu/%zu/%zu/%zu inhibitors, manifest says "
                          "%zu/%zu/%zu/%zu", rows[i].file, p, t, a, k[1],
                          rows[i].places, rows[i].transitions, rows[i].arcs,
                          rows[i].inhibitors);
        }
        round_trip(net, PN_DIALECT_STANDARD, rows[i].file);
        round_trip(net, PN_DIALECT_STRICT, rows[i].file);
        round_trip(net, PN_DIALECT_PIPE, rows[i].file);
        round_trip(net, PN_DIALECT_TAPAAL, rows[i].file);
        round_trip(net, PN_DIALECT_WOPED, rows[i].file);
        pn_net_free(net);
        accepted++;
    }
    ck_assert_int_ge(accepted, 60);
    free(rows);
}
END_TEST

/* ---- writer details ---------------------------------------------------- */

/* A net built in code (pn_net_new(), no positions) round-trips unchanged
 * through the writer's defaults: its type is set, and no position is
 * invented unless the grid is asked for. */
START_TEST(built_net_round_trips)
{
    pn_net_t *net = pn_net_new("built");
    ck_assert_ptr_nonnull(net);
    ck_assert_str_eq(pn_net_type(net), PN_PTNET_TYPE);
    ck_assert_int_eq(pn_net_add_place(net, "p", "P", 2, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "q", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "t", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a1", "p", "t", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a2", "t", "q", 3, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    for (int d = PN_DIALECT_STANDARD; d <= PN_DIALECT_STRICT; d++) {
        pn_status_t st;
        size_t len;
        char *xml = write_str(net, (pn_dialect_t)d, &st, &len);
        ck_assert_int_eq(st, PN_OK);
        ck_assert_ptr_null(strstr(xml, "<position"));
        pn_net_t *back;
        pn_error_t err;
        ck_assert_int_eq(pn_pnml_read_memory(xml, len, "built", NULL, &back,
                                             &err), PN_OK);
        char *a = dump_str(net, PN_DUMP_ALL);
        char *b = dump_str(back, PN_DUMP_ALL);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
        pn_net_free(back);
        free(xml);
    }
    /* asked for: every node placed */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    pn_write_options_t wo;
    pn_write_options_init(&wo);
    wo.grid = 1;
    ck_assert_int_eq(pn_pnml_write_stream(net, f, &wo, NULL), PN_OK);
    fclose(f);
    size_t count = 0;
    for (const char *s = buf; (s = strstr(s, "<position")); s++)
        count++;
    ck_assert_uint_eq(count, 3);
    free(buf);
    pn_net_free(net);
}
END_TEST

/* ---- transitions' timing ----------------------------------------------- */

/* Timing survives every writer that has a place for it, digit for digit:
 * PIPE's labels, our own block in the others.  What a dialect cannot say
 * (PIPE: deterministic delays) is refused, never dropped. */
START_TEST(timing_round_trips)
{
    pn_net_t *net = pn_net_new("timed");
    static const struct {
        const char *id;
        pn_timing_t timing;
        double rate;
        int priority;
        pn_server_t server;
    } t[] = {
        {"exp", PN_TIMING_EXPONENTIAL, 482.1600771, 1, PN_SERVER_SINGLE},
        {"inf", PN_TIMING_EXPONENTIAL, 1.0 / 3, 0, PN_SERVER_INFINITE},
        {"imm", PN_TIMING_IMMEDIATE, 0.1, 7, PN_SERVER_SINGLE},
        {"tiny", PN_TIMING_EXPONENTIAL, 1e-9, 2, PN_SERVER_SINGLE},
        {"det", PN_TIMING_DETERMINISTIC, 2.5, 1, PN_SERVER_SINGLE},
    };
    size_t n = sizeof t / sizeof *t;
    ck_assert_int_eq(pn_net_add_place(net, "p", NULL, 1, NULL), PN_OK);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(pn_net_add_transition(net, t[i].id, NULL, NULL),
                         PN_OK);
        ck_assert_int_eq(pn_net_set_timing(net, i, t[i].timing, t[i].rate,
                                           t[i].priority, t[i].server),
                         PN_OK);
        ck_assert_int_eq(pn_net_add_arc(net, NULL, "p", t[i].id, 1,
                                        PN_ARC_NORMAL, NULL), PN_OK);
    }
    for (int d = PN_DIALECT_STANDARD; d <= PN_DIALECT_WOPED; d++)
        round_trip(net, (pn_dialect_t)d, "timed net");
    pn_status_t st;
    char *xml = write_str(net, PN_DIALECT_STANDARD, &st, NULL);
    ck_assert_int_eq(st, PN_OK);
    ck_assert_ptr_nonnull(strstr(xml, "<timing node=\"exp\" kind=\"exponential"
                                      "\" rate=\"482.1600771\" priority=\"1\""
                                      " server=\"single\"/>"));
    free(xml);
    /* PIPE: refused with the deterministic transition, and without it its
     * own labels, the rates as its rate grammar reads them */
    pn_error_t err;
    FILE *f = fopen("/dev/null", "w");
    pn_write_options_t wo = {.dialect = PN_DIALECT_PIPE};
    ck_assert_int_eq(pn_pnml_write_stream(net, f, &wo, &err), PN_EDIALECT);
    ck_assert_ptr_nonnull(strstr(err.text, "deterministic"));
    ck_assert_ptr_nonnull(strstr(err.text, "'det'"));
    ck_assert_int_eq(pn_net_set_timing(net, 4, PN_TIMING_NONE, 1, 1,
                                       PN_SERVER_SINGLE), PN_OK);
    xml = write_str(net, PN_DIALECT_PIPE, &st, NULL);
    ck_assert_int_eq(st, PN_OK);
    ck_assert_ptr_nonnull(strstr(xml, "<value>482.1600771</value>"));
    ck_assert_ptr_nonnull(strstr(xml, "<value>0.000000001</value>"));
    ck_assert_ptr_nonnull(strstr(xml, "<value>0.3333333333333333</value>"));
    ck_assert_ptr_nonnull(strstr(xml, "<infiniteServer>\n        <value>true"));
    ck_assert_ptr_nonnull(strstr(xml, "<priority>\n        <value>7"));
    free(xml);
    /* timing that was not read is written nowhere */
    pni_net_timing_lost(net, 2);
    for (int d = PN_DIALECT_STANDARD; d <= PN_DIALECT_WOPED; d++) {
        wo.dialect = (pn_dialect_t)d;
        ck_assert_int_eq(pn_pnml_write_stream(net, f, &wo, &err),
                         PN_EDIALECT);
        ck_assert_ptr_nonnull(strstr(err.text, "'imm' was not read"));
    }
    fclose(f);
    pn_net_free(net);
}
END_TEST

/* k servers (GreatSPN's nservers=k): kept in our block, refused by PIPE,
 * which has single and infinite servers only. */
START_TEST(k_servers_round_trip)
{
    pn_net_t *net = pn_net_new("k");
    ck_assert_int_eq(pn_net_add_place(net, "p", NULL, 4, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "t", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "p", "t", 1, PN_ARC_NORMAL,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_EXPONENTIAL, 2.5, 1,
                                       PN_SERVER_SINGLE), PN_OK);
    ck_assert_int_eq(pn_net_set_servers(net, 0, 3), PN_OK);
    for (int d = PN_DIALECT_STANDARD; d <= PN_DIALECT_WOPED; d++)
        round_trip(net, (pn_dialect_t)d, "k-server net");
    pn_status_t st;
    char *xml = write_str(net, PN_DIALECT_STANDARD, &st, NULL);
    ck_assert_int_eq(st, PN_OK);
    ck_assert_ptr_nonnull(strstr(xml, "server=\"k\" servers=\"3\""));
    free(xml);
    pn_error_t err;
    pn_write_options_t wo = {.dialect = PN_DIALECT_PIPE};
    FILE *f = fopen("/dev/null", "w");
    ck_assert_int_eq(pn_pnml_write_stream(net, f, &wo, &err), PN_EDIALECT);
    ck_assert_ptr_nonnull(strstr(err.text, "3 servers"));
    fclose(f);
    pn_net_free(net);
    /* server="k" without a count, or with one below 2, is refused */
    static const char *const bad[] = {"server=\"k\"",
                                      "server=\"k\" servers=\"1\""};
    for (size_t i = 0; i < 2; i++) {
        char doc[600];
        snprintf(doc, sizeof doc,
                 "<pnml><net id=\"n\"><transition id=\"t\"/>"
                 "<toolspecific tool=\"pn-toolkit\" version=\"1\">"
                 "<timing node=\"t\" kind=\"exponential\" %s/>"
                 "</toolspecific></net></pnml>", bad[i]);
        pn_net_t *n2;
        ck_assert_int_ne(pn_pnml_read_memory(doc, strlen(doc), "k.pnml", NULL,
                                             &n2, &err), PN_OK);
        ck_assert_ptr_nonnull(strstr(err.text, "servers"));
    }
}
END_TEST

/* PIPE's labels: a rate that is an expression of the marking (PIPE's rate
 * grammar: "#(P0)*2") cannot be held: said, and the net is not written;
 * a net whose transitions all say PIPE's default is an untimed net, one
 * with any other timing keeps every transition's. */
START_TEST(timing_from_pipe_labels)
{
#define PIPE_T(id, rate, timed)                                                \
    "<transition id=\"" id "\"><name><value>" id "</value></name>"              \
    "<rate><value>" rate "</value></rate><timed><value>" timed "</value>"     \
    "</timed></transition>"
    static const char functional[] =
        "<pnml><net id=\"n\" type=\"P/T net\"><place id=\"P0\"/>"
        PIPE_T("T0", "#(P0)*2", "true") PIPE_T("T1", "1.0", "false")
        "</net></pnml>";
    static const char plain[] =
        "<pnml><net id=\"n\" type=\"P/T net\">"
        PIPE_T("T0", "1.0", "false") PIPE_T("T1", "1", "FALSE")
        "</net></pnml>";
    static const char mixed[] =
        "<pnml><net id=\"n\" type=\"P/T net\">"
        PIPE_T("T0", "1.0", "false") PIPE_T("T1", "2", "True")
        "</net></pnml>";
#undef PIPE_T
    pn_net_t *net;
    pn_error_t err;
    ck_assert_int_eq(pn_pnml_read_memory(functional, sizeof functional - 1,
                                         "f", NULL, &net, &err), PN_OK);
    /* a rate that is an expression of the marking: kept as written, its
     * value at the initial marking (no token on P0) in rate */
    ck_assert_int_eq(pn_net_transition(net, 0)->timing_lost, 0);
    ck_assert_str_eq(pn_net_transition(net, 0)->rate_expr, "#(P0)*2");
    ck_assert_double_eq(pn_net_transition(net, 0)->rate, 0);
    ck_assert_int_eq(pn_net_transition(net, 0)->timing,
                     PN_TIMING_EXPONENTIAL);
    ck_assert_ptr_null(pn_net_transition(net, 1)->rate_expr);
    ck_assert_int_eq(pn_net_transition(net, 1)->timing, PN_TIMING_IMMEDIATE);
    ck_assert_uint_eq(pn_net_warning_count(net), 0);
    pn_status_t st;
    char *xml = write_str(net, PN_DIALECT_PIPE, &st, NULL);
    ck_assert_int_eq(st, PN_OK);
    ck_assert_ptr_nonnull(strstr(xml, "<value>#(P0)*2</value>"));
    free(xml);
    pn_net_free(net);
    ck_assert_int_eq(pn_pnml_read_memory(plain, sizeof plain - 1, "p", NULL,
                                         &net, &err), PN_OK);
    size_t c[PN_TIMING_KINDS];
    pn_net_count_timing(net, c);
    ck_assert_uint_eq(c[PN_TIMING_NONE], 2);
    pn_net_free(net);
    ck_assert_int_eq(pn_pnml_read_memory(mixed, sizeof mixed - 1, "m", NULL,
                                         &net, &err), PN_OK);
    pn_net_count_timing(net, c);
    ck_assert_uint_eq(c[PN_TIMING_IMMEDIATE], 1);
    ck_assert_uint_eq(c[PN_TIMING_EXPONENTIAL], 1);
    ck_assert(pn_net_transition(net, 1)->rate == 2);
    pn_net_free(net);
}
END_TEST

START_TEST(writer_marks_inhibitors_every_way)
{
    pn_net_t *net = pn_net_new("n");
    ck_assert_int_eq(pn_net_add_place(net, "p", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "t", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "t", 2, PN_ARC_INHIBITOR,
                                    NULL), PN_OK);
    ck_assert_int_eq(pn_net_set_position(net, PN_PLACE, 0, 10, 10), PN_OK);
    ck_assert_int_eq(pn_net_set_position(net, PN_TRANSITION, 0, 90, 10),
                     PN_OK);
    pn_status_t st;
    char *xml = write_str(net, PN_DIALECT_STANDARD, &st, NULL);
    ck_assert_int_eq(st, PN_OK);
    ck_assert_ptr_nonnull(strstr(xml, "type=\"inhibitor\""));
    ck_assert_ptr_nonnull(strstr(xml, "<type value=\"inhibitor\"/>"));
    /* pm4py's label, and the dimension pm4py needs to keep a position */
    ck_assert_ptr_nonnull(strstr(xml, "<arctype>"));
    ck_assert_ptr_nonnull(strstr(xml, "<text>inhibitor</text>"));
    ck_assert_ptr_nonnull(strstr(xml, "<dimension x=\"40\" y=\"40\"/>"));
    ck_assert_ptr_nonnull(strstr(xml, "<text>2</text>"));
    ck_assert_ptr_nonnull(strstr(xml, "<graphics>"));
    /* pm4py's encoding alone reads as an inhibitor arc of the same weight */
    pn_net_t *back;
    pn_error_t rerr;
    static const char pm4py[] =
        "<pnml><net id=\"n\" type=\"http://www.pnml.org/version-2009/"
        "grammar/pnmlcoremodel\"><page id=\"g\"><place id=\"p\"/>"
        "<transition id=\"t\"/><arc id=\"a\" source=\"p\" target=\"t\">"
        "<inscription><text>2</text></inscription><arctype><text>inhibitor"
        "</text></arctype></arc></page></net></pnml>";
    ck_assert_int_eq(pn_pnml_read_memory(pm4py, sizeof pm4py - 1, "pm4py",
                                         NULL, &back, &rerr), PN_OK);
    ck_assert_int_eq(pn_net_arc(back, 0)->kind, PN_ARC_INHIBITOR);
    ck_assert_int_eq(pn_net_arc(back, 0)->weight, 2);
    pn_net_free(back);
    free(xml);
    pn_error_t err;
    pn_error_clear(&err);
    pn_write_options_t wo = {.dialect = PN_DIALECT_STRICT};
    FILE *f = fopen("/dev/null", "w");
    ck_assert_int_eq(pn_pnml_write_stream(net, f, &wo, &err), PN_EDIALECT);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(err.text, "inhibitor"));
    wo.dialect = PN_DIALECT_PIPE;
    f = fopen("/dev/null", "w");
    ck_assert_int_eq(pn_pnml_write_stream(net, f, &wo, &err), PN_EDIALECT);
    fclose(f);
    pn_net_free(net);
}
END_TEST

START_TEST(writer_weights_only_above_one)
{
    pn_net_t *net = pn_net_new("n");
    pn_net_add_place(net, "p", NULL, 1, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, "a", "p", "t", 1, PN_ARC_NORMAL, NULL);
    pn_status_t st;
    char *xml = write_str(net, PN_DIALECT_STANDARD, &st, NULL);
    ck_assert_ptr_null(strstr(xml, "<inscription>"));
    ck_assert_ptr_nonnull(strstr(xml, "<page id="));
    ck_assert_ptr_nonnull(strstr(xml,
        "xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\""));
    free(xml);
    pn_net_free(net);
}
END_TEST

START_TEST(writer_file_is_atomic)
{
    char dir[] = "/tmp/pn-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.pnml", dir);
    write_file(path, "old contents\n");
    pn_net_t *net = pn_net_new("n");
    pn_net_add_place(net, "p", NULL, 0, NULL);
    pn_net_add_transition(net, "t", NULL, NULL);
    pn_net_add_arc(net, "a", "p", "t", 1, PN_ARC_RESET, NULL);
    pn_write_options_t wo = {.dialect = PN_DIALECT_STRICT};
    pn_error_t err;
    /* refused: the old file is untouched, no temporary file is left */
    ck_assert_int_eq(pn_pnml_write_file(net, path, &wo, &err), PN_EDIALECT);
    char *old = slurp(path, NULL);
    ck_assert_str_eq(old, "old contents\n");
    free(old);
    wo.dialect = PN_DIALECT_STANDARD;
    ck_assert_int_eq(pn_pnml_write_file(net, path, &wo, &err), PN_OK);
    pn_net_t *back;
    ck_assert_int_eq(pn_pnml_read_file(path, NULL, &back, &err), PN_OK);
    ck_assert_int_eq(pn_net_arc(back, 0)->kind, PN_ARC_RESET);
    pn_net_free(back);
    DIR *d = opendir(dir);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            files++;
    closedir(d);
    ck_assert_int_eq(files, 1);
    /* a folder that does not exist */
    snprintf(path, sizeof path, "%s/no/such/out.pnml", dir);
    ck_assert_int_eq(pn_pnml_write_file(net, path, &wo, &err), PN_EIO);
    ck_assert_str_eq(err.file, path);
    snprintf(path, sizeof path, "%s/out.pnml", dir);
    unlink(path);
    rmdir(dir);
    pn_net_free(net);
}
END_TEST

START_TEST(writer_file_follows_links)
{
    char dir[] = "/tmp/pn-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char real[256], link[256], got[256];
    snprintf(real, sizeof real, "%s/real.pnml", dir);
    snprintf(link, sizeof link, "%s/link.pnml", dir);
    write_file(real, "old contents\n");
    ck_assert_int_eq(symlink("real.pnml", link), 0);
    pn_net_t *net = pn_net_new("n");
    pn_net_add_place(net, "p", NULL, 0, NULL);
    pn_error_t err;
    /* through the link: the target is written, the link stays */
    ck_assert_int_eq(pn_pnml_write_file(net, link, NULL, &err), PN_OK);
    ssize_t n = readlink(link, got, sizeof got - 1);
    ck_assert_int_eq(n, 9);
    got[n] = '\0';
    ck_assert_str_eq(got, "real.pnml");
    pn_net_t *back;
    ck_assert_int_eq(pn_pnml_read_file(real, NULL, &back, &err), PN_OK);
    ck_assert_int_eq(pn_net_place_count(back), 1);
    pn_net_free(back);
    DIR *d = opendir(dir);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            files++;
    closedir(d);
    ck_assert_int_eq(files, 2);
    /* a device is written, never replaced */
    ck_assert_int_eq(pn_pnml_write_file(net, "/dev/null", NULL, &err), PN_OK);
    struct stat sb;
    ck_assert_int_eq(stat("/dev/null", &sb), 0);
    ck_assert(S_ISCHR(sb.st_mode));
    unlink(link);
    unlink(real);
    rmdir(dir);
    pn_net_free(net);
}
END_TEST

START_TEST(writer_write_error_is_reported)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f)
        return; /* no /dev/full here */
    pn_net_t *net = pn_net_new("n");
    pn_net_add_place(net, "p", NULL, 0, NULL);
    pn_error_t err;
    /* libxml2 is told nothing of the error (it would print its own
     * "I/O error" lines): the writer reports it, with errno */
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    int saved = dup(2);
    dup2(fileno(log), 2);
    errno = 0;
    pn_status_t st = pn_pnml_write_stream(net, f, NULL, &err);
    int e = errno;
    pn_status_t st2 = pn_pnml_write_file(net, "/dev/full", NULL, &err);
    int e2 = errno;
    dup2(saved, 2);
    close(saved);
    ck_assert_int_eq(st, PN_EIO);
    ck_assert_int_eq(e, ENOSPC);
    ck_assert_int_eq(st2, PN_EIO);
    ck_assert_int_eq(e2, ENOSPC);
    ck_assert_ptr_nonnull(strstr(err.text, strerror(ENOSPC)));
    ck_assert_int_eq(fseek(log, 0, SEEK_END), 0);
    ck_assert_int_eq(ftell(log), 0); /* nothing on stderr */
    fclose(log);
    fclose(f);
    pn_net_free(net);
}
END_TEST

START_TEST(writer_rewrites_bad_ids)
{
    pn_net_t *net = pn_net_new("1 net");
    pn_net_add_place(net, "Place 0", NULL, 0, NULL);
    pn_net_add_place(net, "Place_0", NULL, 0, NULL);
    pn_net_add_transition(net, "9", "nine", NULL);
    pn_net_add_arc(net, NULL, "Place 0", "9", 1, PN_ARC_NORMAL, NULL);
    pn_status_t st;
    size_t len;
    char *xml = write_str(net, PN_DIALECT_STANDARD, &st, &len);
    ck_assert_int_eq(st, PN_OK);
    pn_net_t *back;
    pn_error_t err;
    ck_assert_int_eq(pn_pnml_read_memory(xml, len, "x", NULL, &back, &err),
                     PN_OK);
    /* the valid id is kept, the invalid one avoids it */
    ck_assert_str_eq(pn_net_place(back, 1)->id, "Place_0");
    ck_assert_str_eq(pn_net_place(back, 0)->id, "Place_0_2");
    ck_assert_str_eq(pn_net_place(back, 0)->name, "Place 0");
    ck_assert_str_eq(pn_net_transition(back, 0)->id, "_9");
    ck_assert_str_eq(pn_net_transition(back, 0)->name, "nine");
    ck_assert_str_eq(pn_net_id(back), "_1_net");
    ck_assert_ptr_nonnull(pn_net_arc(back, 0)->id);
    pn_net_free(back);
    free(xml);
    pn_net_free(net);
}
END_TEST

START_TEST(reader_net_option)
{
    const char *doc = "<pnml><net id=\"a\"><place id=\"p\"/></net>"
                      "<net id=\"b\"><place id=\"q\"/><place id=\"r\"/></net>"
                      "</pnml>";
    pn_net_t *net;
    pn_error_t err;
    pn_read_options_t ro = {.net_id = "b"};
    ck_assert_int_eq(pn_pnml_read_memory(doc, strlen(doc), "m", &ro, &net,
                                         &err), PN_OK);
    ck_assert_int_eq(pn_net_place_count(net), 2);
    pn_net_free(net);
    ro.net_id = "c";
    ck_assert_int_eq(pn_pnml_read_memory(doc, strlen(doc), "m", &ro, &net,
                                         &err), PN_ENONET);
    ck_assert_ptr_nonnull(strstr(err.text, "'c'"));
    /* malformed XML after the net still fails */
    const char *bad = "<pnml><net id=\"a\"/><oops></pnml>";
    ck_assert_int_eq(pn_pnml_read_memory(bad, strlen(bad), "m", NULL, &net,
                                         &err), PN_EXML);
    ck_assert_ptr_null(net);
}
END_TEST

START_TEST(reader_deep_nesting)
{
    /* deep element nesting inside a label must not exhaust the stack */
    size_t depth = 100000;
    size_t cap = depth * 8 + 256;
    char *doc = malloc(cap);
    size_t n = (size_t)sprintf(doc, "<pnml><net id=\"n\"><place id=\"p\">"
                                    "<name>");
    for (size_t i = 0; i < depth; i++)
        n += (size_t)sprintf(doc + n, "<x>");
    for (size_t i = 0; i < depth; i++)
        n += (size_t)sprintf(doc + n, "</x>");
    n += (size_t)sprintf(doc + n, "</name></place></net></pnml>");
    pn_net_t *net;
    pn_error_t err;
    pn_status_t st = pn_pnml_read_memory(doc, n, "deep", NULL, &net, &err);
    /* libxml2 refuses depth beyond its limit: a clear XML error */
    ck_assert(st == PN_OK || st == PN_EXML);
    pn_net_free(net);
    free(doc);
}
END_TEST

START_TEST(reader_tool_blocks_verbatim)
{
    /* a block of a net or page is written out as its events arrive; of
     * a node, from a tree: both give the same text.  Namespaces used but
     * declared above the block go on its root, after its own ones */
    const char *doc =
        "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\" "
        "xmlns:x=\"urn:x\" xmlns:y=\"urn:y\"><net id=\"n\">"
        "<page id=\"g\"><place id=\"p\"><toolspecific tool=\"w\" "
        "xmlns:k=\"urn:k\"><x:in k:a=\"1\"/></toolspecific></place>"
        "<toolspecific tool=\"t&amp;1\" version=\"v\" x:a=\"q&#10;r\">"
        "<x:f y:b=\"1\"><![CDATA[a<b]]><![CDATA[c]]>t&amp;u<e></e>"
        "<z:q xmlns:z=\"urn:z\" z:k=\"2\"/> </x:f>"
        "<o xmlns=\"urn:o\"><d a=\"&quot;&#9;\"/>s</o></toolspecific>"
        "</page></net></pnml>";
    static const char *const want[] = {
        "<toolspecific xmlns:k=\"urn:k\" xmlns:x=\"urn:x\" tool=\"w\">"
        "<x:in k:a=\"1\"/></toolspecific>",
        "<toolspecific xmlns:x=\"urn:x\" xmlns:y=\"urn:y\" tool=\"t&amp;1\" "
        "version=\"v\" x:a=\"q&#10;r\"><x:f y:b=\"1\"><![CDATA[a<bc]]>"
        "t&amp;u<e/><z:q xmlns:z=\"urn:z\" z:k=\"2\"/> </x:f>"
        "<o xmlns=\"urn:o\"><d a=\"&quot;&#9;\"/>s</o></toolspecific>"};
    pn_net_t *net;
    pn_error_t err;
    ck_assert_int_eq(pn_pnml_read_memory(doc, strlen(doc), "m", NULL, &net,
                                         &err), PN_OK);
    ck_assert_uint_eq(pn_net_toolspecific_count(net), 2);
    for (size_t i = 0; i < 2; i++)
        ck_assert_str_eq(pn_net_toolspecific(net, i)->xml, want[i]);
    ck_assert_str_eq(pn_net_toolspecific(net, 1)->tool, "t&1");
    ck_assert_int_eq(pn_net_toolspecific(net, 1)->owner, PN_PAGE);
    /* what the writers keep: the strict dialect not the block with an
     * attribute of its own (x:a), PIPE's none */
    const pn_toolspecific_t *plain = pn_net_toolspecific(net, 0),
                            *own = pn_net_toolspecific(net, 1);
    ck_assert(pn_dialect_keeps_toolspecific(PN_DIALECT_STANDARD, own));
    ck_assert(pn_dialect_keeps_toolspecific(PN_DIALECT_STRICT, plain));
    ck_assert(!pn_dialect_keeps_toolspecific(PN_DIALECT_STRICT, own));
    ck_assert(!pn_dialect_keeps_toolspecific(PN_DIALECT_PIPE, plain));
    ck_assert(!pn_dialect_keeps_toolspecific(PN_DIALECT_STANDARD, NULL));
    pn_net_free(net);
}
END_TEST

START_TEST(reader_own_pages_fewer_than_tool_blocks)
{
    /* our own <pages> block replaces the document's pages; a block of a
     * page it does not declare (one a block node or page streamed) is kept
     * on the net with a warning naming its line, not a false "out of
     * memory" */
    const char *doc =
        "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n"
        "<net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/"
        "ptnet\">\n"
        "<toolspecific tool=\"pn-toolkit\" version=\"1\"><pages/>"
        "</toolspecific>\n"
        "<page id=\"g\">\n"
        "<toolspecific tool=\"a\"><x/></toolspecific>\n"
        "<place id=\"p\"/>\n"
        "</page></net></pnml>";
    pn_net_t *net;
    pn_error_t err;
    ck_assert_int_eq(pn_pnml_read_memory(doc, strlen(doc), "m", NULL, &net,
                                         &err), PN_OK);
    ck_assert_uint_eq(pn_net_page_count(net), 0);
    ck_assert_uint_eq(pn_net_toolspecific_count(net), 1);
    ck_assert_int_eq(pn_net_toolspecific(net, 0)->owner, PN_NET);
    ck_assert_str_eq(pn_net_toolspecific(net, 0)->tool, "a");
    int seen = 0;
    for (size_t i = 0; i < pn_net_warning_count(net); i++)
        seen += strstr(pn_net_warning(net, i), "m:5: a tool-specific block "
                       "of page 1 is kept on the net") != NULL;
    ck_assert_int_eq(seen, 1);
    pn_net_free(net);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("pnml");
    TCase *tc = tcase_create("fixtures");
    tcase_add_test(tc, fixtures_valid);
    tcase_add_test(tc, fixtures_invalid);
    suite_add_tcase(s, tc);
    tc = tcase_create("corpus");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, corpus_counts_and_round_trips);
    tcase_add_test(tc, pipe_dialect_has_pipes_shape);
    suite_add_tcase(s, tc);
    tc = tcase_create("writer");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, writer_marks_inhibitors_every_way);
    tcase_add_test(tc, timing_round_trips);
    tcase_add_test(tc, k_servers_round_trip);
    tcase_add_test(tc, timing_from_pipe_labels);
    tcase_add_test(tc, built_net_round_trips);
    tcase_add_test(tc, writer_weights_only_above_one);
    tcase_add_test(tc, writer_file_is_atomic);
    tcase_add_test(tc, writer_file_follows_links);
    tcase_add_test(tc, writer_write_error_is_reported);
    tcase_add_test(tc, writer_rewrites_bad_ids);
    tcase_add_test(tc, reader_net_option);
    tcase_add_test(tc, reader_deep_nesting);
    tcase_add_test(tc, reader_tool_blocks_verbatim);
    tcase_add_test(tc, reader_own_pages_fewer_than_tool_blocks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
