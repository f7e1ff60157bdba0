/*
 * Structural reductions on the Model Checking Contest's instances: for
 * each folder given (a copy of an instance's model.pnml and property
 * files, never an oracle file), every ReachabilityCardinality,
 * ReachabilityFireability and UpperBounds formula and EF deadlock
 * answered by the full search on the net and on the net reduced for it;
 * the answers must be the same, and a witness found on a reduced net
 * must replay on the net.  Prints what was compared; exit 1 on a
 * difference.  Run by tests/cli-reduce.sh.
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "engine_private.h"
#include "analysis_private.h"

static int fails;

static void answer(const pn_net_t *net, const pn_query_set_t *qs,
                   pn_query_answer_t *a, pn_reach_t **r)
{
    pn_reach_options_t o;
    pn_reach_options_init(&o);
    o.max_states = 2000000;
    if (pn_reach_query(net, &o, qs, a, r)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
}

/* Query q on net and on its reduction. */
static void compare(const char *dir, const pn_net_t *net,
                    const pn_engine_t *e, const pn_query_t *q,
                    size_t *compared, size_t *smaller)
{
    pn_query_set_t one = {1, (pn_query_t *)q};
    pn_query_answer_t a, b;
    pni_reduced_t *d;
    pn_reach_t *r, *rr;
    if (pni_reduce(net, q, 0, &d)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    answer(net, &one, &a, &r);
    answer(d->net, d->qs, &b, &rr);
    *smaller += pn_net_place_count(d->net) < pn_net_place_count(net) ||
                pn_net_transition_count(d->net) <
                    pn_net_transition_count(net);
    if (a.known && b.known) {
        (*compared)++;
        if (q->kind == PN_QUERY_BOUND ? a.bound != b.bound
                                      : a.value != b.value) {
            printf("FAIL %s %s: %llu, reduced %llu\n", dir, q->id,
                   (unsigned long long)(q->kind == PN_QUERY_BOUND
                                            ? a.bound : (uint64_t)a.value),
                   (unsigned long long)(q->kind == PN_QUERY_BOUND
                                            ? b.bound : (uint64_t)b.value));
            fails++;
        }
    }
    if (b.known && b.state != PN_REACH_NO_STATE) {
        uint64_t *m = malloc((pn_net_place_count(net) + 1) * sizeof *m);
        int bad = !m || pni_reduced_replay(d, e, rr, b.state, m) != 0;
        if (!bad && q->kind == PN_QUERY_BOUND)
            bad = pni_query_value(&q->bound, m) != b.bound;
        else if (!bad)
            bad = pni_formula_holds(e, (uint32_t)pn_net_transition_count(net),
                                    q->formula, m) != (q->kind ==
                                                       PN_QUERY_EF);
        if (bad) {
            printf("FAIL %s %s: the reduced witness does not replay\n", dir,
                   q->id);
            fails++;
        }
        free(m);
    }
    pn_reach_free(r);
    pn_reach_free(rr);
    pni_reduced_free(d);
}

static void instance(const char *dir)
{
    static const char *const exams[] = {"ReachabilityCardinality",
                                        "ReachabilityFireability",
                                        "UpperBounds", NULL};
    char path[4096];
    pn_net_t *net;
    pn_error_t err;
    pn_engine_t *e;
    snprintf(path, sizeof path, "%s/model.pnml", dir);
    if (pn_pnml_read_file(path, NULL, &net, &err) ||
        pn_engine_compile(net, &e)) {
        printf("FAIL %s: cannot read the net\n", dir);
        fails++;
        return;
    }
    size_t compared = 0, smaller = 0, total = 0;
    for (int k = 0; exams[k]; k++) {
        pn_query_set_t *qs;
        snprintf(path, sizeof path, "%s/%s.xml", dir, exams[k]);
        if (pn_mcc_queries_read(path, net, &qs, &err))
            continue;
        for (size_t i = 0; i < qs->n; i++, total++)
            compare(dir, net, e, &qs->q[i], &compared, &smaller);
        pn_query_set_free(qs);
    }
    pn_query_set_t *dl = pn_query_set_new();
    if (dl && !pn_query_parse(dl, "EF deadlock", net, &err)) {
        compare(dir, net, e, &dl->q[0], &compared, &smaller);
        total++;
    }
    pn_query_set_free(dl);
    printf("%s: %zu of %zu compared, %zu on a smaller net\n", dir, compared,
           total, smaller);
    pn_engine_free(e);
    pn_net_free(net);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        instance(argv[i]);
    return fails ? 1 : 0;
}
