/*
 * libFuzzer harness for the readers of queries (lib/query.c:
 * pn_query_parse(), pn-reach --query; pnml/mcc.c: pn_mcc_queries_read(),
 * the Model Checking Contest's property files, CTL and LTL): never a crash, leak, hang
 * or deep recursion, every refusal keeps the error record's contract, and
 * what is read is written back as text that reads as the same query.
 *
 * Input: the inline query up to the first newline, then a property file.
 * The net has places named the way users name them (a quoted name, an id
 * of digits, a name two places share) and transitions.
 *
 * Seeds: tests/fuzz/seeds/query/.
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS query.
 */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "query.h"
#include "mcc.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pn_net_t *the_net(void)
{
    static const struct {
        const char *id, *name;
    } places[] = {
        {"p1", NULL}, {"p2", "my place"}, {"1", NULL},
        {"y", "dup"}, {"z", "dup"}, {"AG", NULL},
    };
    static const char *const transitions[] = {"t1", "t2", "deadlock_t"};
    pn_net_t *net = pn_net_new("fuzz-query");
    int bad = !net;
    for (size_t i = 0; !bad && i < sizeof places / sizeof *places; i++)
        bad = pn_net_add_place(net, places[i].id, places[i].name, i, NULL) !=
              PN_OK;
    for (size_t i = 0; !bad && i < sizeof transitions / sizeof *transitions;
         i++)
        bad = pn_net_add_transition(net, transitions[i], NULL, NULL) !=
              PN_OK;
    if (bad)
        abort();
    return net;
}

static int sum_same(const pn_qsum_t *a, const pn_qsum_t *b)
{
    return a->constant == b->constant && a->nplaces == b->nplaces &&
           (!a->nplaces ||
            !memcmp(a->places, b->places, a->nplaces * sizeof *a->places));
}

/* text read as one query into a new set (*out; NULL when out of memory),
 * the error record held to its contract. */
static pn_status_t parse(const char *text, const pn_net_t *net,
                         pn_query_set_t **out, pn_error_t *err)
{
    *out = pn_query_set_new();
    fuzz_dirty_error(err);
    pn_status_t st = *out ? pn_query_parse(*out, text, net, err) : PN_ENOMEM;
    fuzz_check_error(st, err);
    return st;
}

/* q written as text reads back as the same query. */
static void round_trip(const pn_query_t *q, const pn_net_t *net)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        abort();
    pn_query_write(mem, q, net);
    if (fclose(mem) || !text || strlen(text) != len)
        abort();
    pn_query_set_t *s;
    pn_error_t err;
    pn_status_t st = parse(text, net, &s, &err);
    if (st == PN_ENOMEM) {
        free(text);
        pn_query_set_free(s);
        return;
    }
    if (st != PN_OK) {
        fprintf(stderr, "written '%s' does not read back: %s\n", text,
                err.text);
        abort();
    }
    const pn_query_t *r = &s->q[0];
    if (s->n != 1 || r->kind != q->kind ||
        (q->kind == PN_QUERY_BOUND ? !sum_same(&r->bound, &q->bound)
                                   : !pn_qformula_equal(r->formula,
                                                        q->formula))) {
        fprintf(stderr, "written '%s' reads back as another query\n", text);
        abort();
    }
    free(text);
    pn_query_set_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pn_net_t *net;
    if (!net)
        net = the_net();
    const uint8_t *nl = memchr(data, '\n', size);
    size_t n = nl ? (size_t)(nl - data) : size;

    /* the inline form */
    char *text = fuzz_strndup(data, n);
    pn_query_set_t *s;
    pn_error_t err;
    pn_status_t st = parse(text, net, &s, &err);
    if (st == PN_OK) {
        if (s->n != 1)
            abort();
        round_trip(&s->q[0], net);
    }
    pn_query_set_free(s);
    free(text);

    /* the property file */
    if (!nl)
        return 0;
    const char *path = fuzz_memfile(nl + 1, size - n - 1);
    pn_query_set_t *qs = NULL;
    fuzz_dirty_error(&err);
    st = pn_mcc_queries_read(path, net, &qs, &err);
    fuzz_check_error(st, &err);
    if (st == PN_OK) {
        if (!qs)
            abort();
        for (size_t i = 0; i < qs->n; i++)
            round_trip(&qs->q[i], net);
    } else if (qs) {
        abort(); /* nothing half-built is returned */
    }
    pn_query_set_free(qs);
    return 0;
}
