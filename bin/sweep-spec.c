/* pn-sweep --spec FILE: the sweep as a YAML document, read with libyaml
 * (every node keeps its line, so every refusal names FILE:LINE). */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "cli.h"
#include "sweep.h"

typedef struct {
    sweep_t *s;
    const char *path;
    yaml_document_t *doc;
} spec_t;

static int fail(const spec_t *sp, const yaml_node_t *n, const char *fmt,
                const char *a)
{
    fprintf(stderr, "%s: %s:%lu: ", sp->s->prog, sp->path,
            n ? (unsigned long)n->start_mark.line + 1 : 1UL);
    fprintf(stderr, fmt, a);
    fputc('\n', stderr);
    return CLI_EINPUT;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                            : NULL;
}

/* A whole number into *out.  Returns -1, or an exit code. */
static int number(const spec_t *sp, const yaml_node_t *n, const char *key,
                  uint64_t min, uint64_t max, uint64_t *out)
{
    const char *v = scalar(n);
    if (!v || cli_parse_u64(v, 0, out) || *out < min || *out > max)
        return fail(sp, n, "%s: a whole number in range", key);
    return -1;
}

static int boolean(const spec_t *sp, const yaml_node_t *n, const char *key,
                   int *out)
{
    const char *v = scalar(n);
    if (v && !strcmp(v, "true"))
        *out = 1;
    else if (v && !strcmp(v, "false"))
        *out = 0;
    else
        return fail(sp, n, "%s: true or false", key);
    return -1;
}

/* The values of a parameter: a scalar (v1,v2 or A:B:STEP) or a list. */
static int param(spec_t *sp, const char *name, const yaml_node_t *n)
{
    unsigned long line = (unsigned long)n->start_mark.line + 1;
    if (n->type == YAML_SCALAR_NODE) {
        size_t len = strlen(name) + strlen(scalar(n)) + 2;
        char *arg = malloc(len);
        if (!arg)
            return CLI_EINPUT;
        snprintf(arg, len, "%s=%s", name, scalar(n));
        int r = sweep_add_param(sp->s, arg, sp->path, line);
        free(arg);
        return r ? CLI_EINPUT : -1;
    }
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(sp, n, "%s: a value, a range or a list of values", name);
    size_t count = (size_t)(n->data.sequence.items.top -
                            n->data.sequence.items.start);
    const char **v = calloc(count + 1, sizeof *v);
    if (!v)
        return CLI_EINPUT;
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *item = yaml_document_get_node(
            sp->doc, n->data.sequence.items.start[i]);
        if (!(v[i] = scalar(item))) {
            free(v);
            return fail(sp, item, "%s: a list of plain values", name);
        }
    }
    int r = count ? sweep_add_param_values(sp->s, name, v, count, sp->path,
                                           line)
                  : (fail(sp, n, "%s: an empty list", name), -2);
    free(v);
    return r ? CLI_EINPUT : -1;
}

static int key_value(spec_t *sp, const char *key, const yaml_node_t *v)
{
    sweep_t *s = sp->s;
    uint64_t x;
    int rc;
    if (!strcmp(key, "runs"))
        return number(sp, v, key, 1, 100000000, &s->runs);
    if (!strcmp(key, "seed"))
        return number(sp, v, key, 0, UINT64_MAX, &s->seed);
    if (!strcmp(key, "max-steps")) {
        s->max_steps_given = 1;
        return number(sp, v, key, 0, UINT64_MAX, &s->max_steps);
    }
    if (!strcmp(key, "steps")) {
        s->exact_steps = 1;
        return number(sp, v, key, 0, UINT64_MAX, &s->steps);
    }
    if (!strcmp(key, "jobs") || !strcmp(key, "threads")) {
        if ((rc = number(sp, v, key, 1, 1024, &x)) < 0)
            s->threads = (unsigned)x;
        return rc;
    }
    if (!strcmp(key, "include-limited"))
        return boolean(sp, v, key, &s->include_limited);
    if (!strcmp(key, "per-run"))
        return boolean(sp, v, key, &s->per_run);
    if (!strcmp(key, "semantics")) {
        if (!scalar(v) || pn_semantics_parse(scalar(v), &s->sem))
            return fail(sp, v, "%s: maximal or interleaving", key);
        return -1;
    }
    if (!strcmp(key, "format")) {
        if (!scalar(v) || pn_results_format_parse(scalar(v), &s->fmt))
            return fail(sp, v, "%s: csv or json", key);
        return -1;
    }
    if (!strcmp(key, "count")) {
        if (scalar(v))
            return sweep_add_counts(s, scalar(v)) ? fail(sp, v, "%s: bad ids",
                                                         key)
                                                  : -1;
        if (v->type != YAML_SEQUENCE_NODE)
            return fail(sp, v, "%s: transition ids", key);
        for (yaml_node_item_t *i = v->data.sequence.items.start;
             i < v->data.sequence.items.top; i++) {
            yaml_node_t *item = yaml_document_get_node(sp->doc, *i);
            if (!scalar(item) || sweep_add_counts(s, scalar(item)))
                return fail(sp, item, "%s: transition ids", key);
        }
        return -1;
    }
    if (!strcmp(key, "params")) {
        if (v->type != YAML_MAPPING_NODE)
            return fail(sp, v, "%s: a mapping of names to values", key);
        for (yaml_node_pair_t *p = v->data.mapping.pairs.start;
             p < v->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(sp->doc, p->key);
            yaml_node_t *val = yaml_document_get_node(sp->doc, p->value);
            if (!scalar(k))
                return fail(sp, k, "%s: a parameter name", key);
            if ((rc = param(sp, scalar(k), val)) >= 0)
                return rc;
        }
        return -1;
    }
    return fail(sp, v, "'%s' is not a setting of a sweep (runs, seed, "
                "semantics, max-steps, steps, include-limited, count, "
                "per-run, format, threads, params)", key);
}

int sweep_read_spec(sweep_t *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", s->prog, path, strerror(errno));
        return CLI_EINPUT;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    spec_t sp = {s, path, &doc};
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    int rc = -1;
    if (!yaml_parser_load(&parser, &doc)) {
        fprintf(stderr, "%s: %s:%lu: %s\n", s->prog, path,
                (unsigned long)parser.problem_mark.line + 1,
                parser.problem ? parser.problem : "not YAML");
        yaml_parser_delete(&parser);
        fclose(f);
        return CLI_EINPUT;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root || root->type != YAML_MAPPING_NODE)
        rc = fail(&sp, root, "%s", "a sweep is a mapping (runs: 100, "
                  "params: {warps: [8, 16]}, ...)");
    for (yaml_node_pair_t *p = root && root->type == YAML_MAPPING_NODE
                                   ? root->data.mapping.pairs.start
                                   : NULL;
         p && rc < 0 && p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&doc, p->value);
        if (!scalar(k))
            rc = fail(&sp, k, "%s", "a setting's name");
        else
            rc = key_value(&sp, scalar(k), v);
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}
