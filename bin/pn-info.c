/* pn-info: what a PNML file holds (counts, tokens, warnings). */
#include <config.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lib_private.h"
#include "pn.h"

static const char *prog = "pn-info";

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: %s [OPTION]... FILE\n"
            "Print what the PNML net in FILE holds ('-' reads standard input):\n"
            "its name, type, counts of places, transitions and arcs by kind,\n"
            "total initial tokens, and warnings.\n"
            "\n"
            "  -f, --format FMT  text (default) or json\n"
            "      --net ID      read the <net> with this id (default: the first)\n"
            "      --dump        print the canonical dump of the net instead\n",
            prog);
    cli_usage_common(out, 20);
    fprintf(out,
            "\n"
            "The warnings are listed on standard output (--quiet keeps them).\n"
            "\n"
            "Exit status: 0 success, 1 the file could not be read or is not a\n"
            "valid net, 2 bad command line, 3 the output could not be written.\n");
}

enum { OPT_NET = 128, OPT_DUMP };

typedef struct {
    char **text;
    size_t n, cap;
} warns_t;

static void warn_add(warns_t *w, const char *fmt, const char *a)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        char **t = realloc(w->text, w->cap * sizeof *t);
        if (!t)
            return;
        w->text = t;
    }
    size_t len = strlen(fmt) + strlen(a) + 1;
    char *s = malloc(len);
    if (!s)
        return;
    snprintf(s, len, fmt, a);
    w->text[w->n++] = s;
}

static const char *label(const char *name, const char *id)
{
    return name ? name : id;
}

/* Structural warnings: places on no arc, transitions that consume nothing. */
static void structural(const pn_net_t *net, warns_t *w)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    unsigned char *pused = calloc(np + 1, 1), *tin = calloc(nt + 1, 1),
                  *tinh = calloc(nt + 1, 1);
    if (!pused || !tin || !tinh)
        goto out;
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        pused[a->place] = 1;
        if (a->dir == PN_DIR_PT && (a->kind == PN_ARC_NORMAL ||
                                    a->kind == PN_ARC_READ))
            tin[a->transition] = 1;
        if (a->dir == PN_DIR_PT && a->kind == PN_ARC_INHIBITOR)
            tinh[a->transition] = 1;
    }
    for (size_t i = 0; i < np; i++)
        if (!pused[i])
            warn_add(w, "place '%s' is on no arc (unused)",
                     pn_net_place(net, i)->id);
    for (size_t i = 0; i < nt; i++) {
        const pn_transition_t *t = pn_net_transition(net, i);
        if (!tin[i] && !tinh[i])
            warn_add(w, "transition '%s' has no input place: it never stops "
                        "being enabled", t->id);
        else if (!tin[i])
            warn_add(w, "transition '%s' consumes no tokens (only inhibitor "
                        "arcs): it stays enabled until an inhibitor place "
                        "fills", t->id);
    }
out:
    free(pused);
    free(tin);
    free(tinh);
}

/* "21 timed (exponential), 13 immediate": the transitions of each timing kind
 * the net gives (none: an untimed net), into buf. */
static int timing_summary(const pn_net_t *net, char *buf, size_t size)
{
    size_t c[PN_TIMING_KINDS];
    pn_net_count_timing(net, c);
    static const pn_timing_t order[] = {
        PN_TIMING_EXPONENTIAL, PN_TIMING_DETERMINISTIC, PN_TIMING_IMMEDIATE,
        PN_TIMING_NONE};
    size_t n = 0;
    buf[0] = '\0';
    if (c[PN_TIMING_NONE] == pn_net_transition_count(net))
        return 0;
    for (size_t k = 0; k < sizeof order / sizeof *order && n < size; k++)
        if (c[order[k]])
            n += (size_t)snprintf(buf + n, size - n, "%s%zu %s",
                                  n ? ", " : "", c[order[k]],
                                  order[k] == PN_TIMING_NONE ? "untimed"
                                  : order[k] == PN_TIMING_EXPONENTIAL
                                      ? "timed (exponential)"
                                  : order[k] == PN_TIMING_DETERMINISTIC
                                      ? "timed (deterministic)"
                                      : "immediate");
    return 1;
}

/* The generator's parameters, when pn-gen-gpu made the net: the
 * attributes of the <gpu/> element in its <toolspecific tool="pn-gen-gpu">
 * block on the net (pn-gen-gpu(1)), as JSON members or text.  Returns the
 * number written (0: not a generated net). */
static int generator(const pn_net_t *net, int json)
{
    const char *g = NULL;
    for (size_t i = 0; i < pn_net_toolspecific_count(net) && !g; i++) {
        const pn_toolspecific_t *t = pn_net_toolspecific(net, i);
        if (t->owner == PN_NET && t->tool && !strcmp(t->tool, "pn-gen-gpu") &&
            t->xml)
            g = strstr(t->xml, "<gpu ");
    }
    if (!g)
        return 0;
    const char *end = strchr(g, '>');
    if (!end)
        return 0;
    printf(json ? ", \"generator\": {\"family\": \"gpu\"" : "generator:   gpu");
    int n = 0;
    for (const char *p = g + 5; p < end;) {
        p += strspn(p, " \t\r\n");
        const char *eq = strchr(p, '=');
        if (!eq || eq > end || eq[1] != '"')
            break;
        const char *v = eq + 2, *q = strchr(v, '"');
        if (!q || q > end)
            break;
        int name_len = (int)(eq - p), val_len = (int)(q - v);
        int number = val_len > 0 && val_len < 20 &&
                     (int)strspn(v, "0123456789") == val_len;
        if (json) {
            printf(", \"%.*s\": ", name_len, p);
            printf(number ? "%.*s" : "\"%.*s\"", val_len, v);
        } else
            printf("%s%.*s %.*s", n ? ", " : " (", name_len, p, val_len, v);
        n++;
        p = q + 1;
    }
    printf(json ? "}" : "%s\n", n ? ")" : "");
    return n + 1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_LONGOPT_FORMAT,
        {"net", required_argument, NULL, OPT_NET},
        {"dump", no_argument, NULL, OPT_DUMP},
        CLI_LONGOPTS_COMMON};
    cli_init(prog, argc, argv);
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_TEXT) | CLI_FMT(CLI_JSON),
                       .format = CLI_TEXT};
    int dump = 0, c, rc;
    pn_read_options_t ro = {0};
    while ((c = getopt_long(argc, argv, "f:qhV", longopts, NULL)) != -1) {
        rc = -1;
        if (c == OPT_NET)
            ro.net_id = optarg;
        else if (c == OPT_DUMP)
            dump = 1;
        else
            rc = cli_option(&cc, c, optarg);
        if (rc >= 0)
            return rc;
    }
    int json = cc.format == CLI_JSON;
    const char *path = cli_one_file(prog, argc, argv, optind);
    if (!path)
        return CLI_EUSAGE;
    pn_net_t *net;
    pn_error_t err;
    if (pn_pnml_read_file(path, &ro, &net, &err)) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    if (dump) {
        pn_status_t st = pn_net_dump(net, stdout, PN_DUMP_ALL);
        pn_net_free(net);
        return st ? CLI_EOUTPUT : CLI_OK;
    }
    warns_t w = {0};
    for (size_t i = 0; i < pn_net_warning_count(net); i++)
        warn_add(&w, "%s", pn_net_warning(net, i));
    structural(net, &w);
    size_t k[4];
    pn_net_count_arcs(net, k);
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net),
           na = pn_net_arc_count(net);
    uint64_t tokens = pn_net_total_tokens(net);
    const char *file = cli_input_name(path);
    if (json) {
        printf("{\"file\": ");
        pni_json_string(stdout, file, 0);
        printf(", \"id\": ");
        pni_json_string(stdout, pn_net_id(net), 0);
        printf(", \"name\": ");
        pni_json_string(stdout, pn_net_name(net), 0);
        printf(", \"type\": ");
        pni_json_string(stdout, pn_net_type(net), 0);
        printf(", \"pages\": %zu, \"places\": %zu, \"transitions\": %zu, "
               "\"arcs\": %zu, \"arcs_by_kind\": {\"normal\": %zu, "
               "\"inhibitor\": %zu, \"read\": %zu, \"reset\": %zu}, "
               "\"tokens\": %" PRIu64,
               pn_net_page_count(net), np, nt, na, k[0], k[1], k[2], k[3],
               tokens);
        size_t tk[PN_TIMING_KINDS];
        pn_net_count_timing(net, tk);
        printf(", \"timing\": {\"none\": %zu, \"immediate\": %zu, "
               "\"exponential\": %zu, \"deterministic\": %zu}",
               tk[PN_TIMING_NONE], tk[PN_TIMING_IMMEDIATE],
               tk[PN_TIMING_EXPONENTIAL], tk[PN_TIMING_DETERMINISTIC]);
        generator(net, 1); /* a generated net: the generator's parameters */
        printf(", \"warnings\": [");
        for (size_t i = 0; i < w.n; i++) {
            if (i)
                fputs(", ", stdout);
            pni_json_string(stdout, w.text[i], 0);
        }
        printf("]}\n");
    } else {
        printf("file:        %s\n", file);
        printf("net:         %s\n", label(pn_net_id(net), "-"));
        printf("name:        %s\n", label(pn_net_name(net), "-"));
        printf("type:        %s\n", label(pn_net_type(net), "-"));
        printf("pages:       %zu\n", pn_net_page_count(net));
        printf("places:      %zu\n", np);
        printf("transitions: %zu\n", nt);
        char timing[200];
        if (timing_summary(net, timing, sizeof timing))
            printf("timing:      %s\n", timing);
        printf("arcs:        %zu (normal %zu, inhibitor %zu, read %zu, "
               "reset %zu)\n", na, k[0], k[1], k[2], k[3]);
        printf("tokens:      %" PRIu64 "\n", tokens);
        generator(net, 0);
        printf("warnings:    %zu\n", w.n);
        for (size_t i = 0; i < w.n; i++)
            printf("  warning: %s\n", w.text[i]);
    }
    for (size_t i = 0; i < w.n; i++)
        free(w.text[i]);
    free(w.text);
    pn_net_free(net);
    return CLI_OK; /* standard output is checked at exit (cli_init()) */
}
