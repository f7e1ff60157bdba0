/* The net model's construction API, lookup, iteration and dump. */
#include <config.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pn.h"
#include "lib_private.h"

static pn_net_t *two_nodes(void)
{
    pn_net_t *net = pn_net_new("n");
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(pn_net_add_place(net, "p", "P", 3, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "t", NULL, NULL), PN_OK);
    return net;
}

START_TEST(add_and_find)
{
    pn_net_t *net = two_nodes();
    size_t i;
    ck_assert_int_eq(pn_net_add_place(net, "q", NULL, 0, &i), PN_OK);
    ck_assert_int_eq(i, 1);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "t", 2, PN_ARC_NORMAL, &i),
                     PN_OK);
    ck_assert_int_eq(i, 0);
    ck_assert_int_eq(pn_net_add_arc(net, "b", "t", "q", 1, PN_ARC_NORMAL, &i),
                     PN_OK);
    const pn_arc_t *b = pn_net_arc(net, 1);
    ck_assert_int_eq(b->dir, PN_DIR_TP);
    ck_assert_int_eq(b->place, 1);
    ck_assert_int_eq(b->transition, 0);
    pn_object_t k;
    ck_assert_int_eq(pn_net_find(net, "q", &k, &i), PN_OK);
    ck_assert_int_eq(k, PN_PLACE);
    ck_assert_int_eq(i, 1);
    ck_assert_int_eq(pn_net_find(net, "t", &k, &i), PN_OK);
    ck_assert_int_eq(k, PN_TRANSITION);
    ck_assert_int_eq(pn_net_find(net, "a", &k, &i), PN_OK);
    ck_assert_int_eq(k, PN_ARC);
    ck_assert_int_eq(pn_net_find(net, "zz", &k, &i), PN_EUNKNOWN);
    ck_assert_str_eq(pn_net_place(net, 0)->name, "P");
    ck_assert_ptr_null(pn_net_place(net, 2));
    ck_assert_ptr_null(pn_net_transition(net, 1));
    ck_assert_ptr_null(pn_net_arc(net, 2));
    ck_assert_int_eq(pn_net_total_tokens(net), 3);
    pn_net_free(net);
}
END_TEST

START_TEST(construction_checks)
{
    pn_net_t *net = two_nodes();
    ck_assert_int_eq(pn_net_add_place(net, "p", NULL, 0, NULL), PN_EDUPID);
    ck_assert_int_eq(pn_net_add_transition(net, "p", NULL, NULL), PN_EDUPID);
    ck_assert_int_eq(pn_net_add_place(net, NULL, NULL, 0, NULL), PN_EINVAL);
    ck_assert_int_eq(pn_net_add_place(net, "", NULL, 0, NULL), PN_EINVAL);
    ck_assert_int_eq(pn_net_add_place(net, "q", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "q", 1, PN_ARC_NORMAL, NULL),
                     PN_EARC);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "x", 1, PN_ARC_NORMAL, NULL),
                     PN_EUNKNOWN);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "t", 0, PN_ARC_NORMAL, NULL),
                     PN_EINVAL);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "p", "t", 0,
                                    PN_ARC_INHIBITOR, NULL), PN_EINVAL);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "t", "p", 1,
                                    PN_ARC_INHIBITOR, NULL), PN_EARC);
    ck_assert_int_eq(pn_net_add_arc(net, "a", "t", "p", 1, PN_ARC_READ, NULL),
                     PN_EARC);
    /* reset arcs carry no weight */
    ck_assert_int_eq(pn_net_add_arc(net, "r", "q", "t", 0, PN_ARC_RESET, NULL),
                     PN_OK);
    ck_assert_int_eq(pn_net_arc(net, 0)->weight, 1);
    /* an arc id may not reuse a node id */
    ck_assert_int_eq(pn_net_add_arc(net, "p", "p", "t", 1, PN_ARC_NORMAL, NULL),
                     PN_EDUPID);
    ck_assert_int_eq(pn_net_add_arc_at(net, NULL, PN_DIR_PT, 9, 0, 1,
                                       PN_ARC_NORMAL, NULL), PN_EUNKNOWN);
    /* failed calls left nothing behind */
    ck_assert_int_eq(pn_net_place_count(net), 2);
    ck_assert_int_eq(pn_net_transition_count(net), 1);
    ck_assert_int_eq(pn_net_arc_count(net), 1);
    ck_assert_int_eq(pn_net_find(net, "a", NULL, NULL), PN_EUNKNOWN);
    pn_net_free(net);
}
END_TEST

START_TEST(token_boundaries)
{
    pn_net_t *net = two_nodes();
    ck_assert_int_eq(pn_net_add_place(net, "max", NULL, PN_TOKENS_MAX, NULL),
                     PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "over", NULL, PN_TOKENS_MAX + 1,
                                      NULL), PN_ERANGE);
    ck_assert_int_eq(pn_net_add_place(net, "huge", NULL, UINT64_MAX, NULL),
                     PN_ERANGE);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "p", "t", PN_TOKENS_MAX,
                                    PN_ARC_NORMAL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, NULL, "t", "p", PN_TOKENS_MAX + 1,
                                    PN_ARC_NORMAL, NULL), PN_ERANGE);
    ck_assert_int_eq(pn_net_set_marking(net, 0, PN_TOKENS_MAX + 1), PN_ERANGE);
    ck_assert_int_eq(pn_net_set_capacity(net, 0, PN_TOKENS_MAX), PN_OK);
    /* the total saturates instead of wrapping */
    ck_assert_int_eq(pn_net_add_place(net, "max2", NULL, PN_TOKENS_MAX, NULL),
                     PN_OK);
    ck_assert(pn_net_total_tokens(net) == UINT64_MAX);
    pn_net_free(net);
}
END_TEST

START_TEST(lookup_many)
{
    /* O(1) lookup: 200000 ids go in and are all found again */
    pn_net_t *net = pn_net_new(NULL);
    char id[32];
    for (int i = 0; i < 100000; i++) {
        snprintf(id, sizeof id, "p%d", i);
        ck_assert_int_eq(pn_net_add_place(net, id, NULL, 0, NULL), PN_OK);
        snprintf(id, sizeof id, "t%d", i);
        ck_assert_int_eq(pn_net_add_transition(net, id, NULL, NULL), PN_OK);
    }
    for (int i = 0; i < 100000; i += 7) {
        size_t idx;
        pn_object_t k;
        snprintf(id, sizeof id, "t%d", i);
        ck_assert_int_eq(pn_net_find(net, id, &k, &idx), PN_OK);
        ck_assert_int_eq(k, PN_TRANSITION);
        ck_assert_int_eq(idx, (size_t)i);
        ck_assert_str_eq(pn_net_transition(net, idx)->id, id);
    }
    pn_net_free(net);
}
END_TEST

/* Checks inside long loops: Check records the place of every ck_assert
 * (a write each), these only a failure (at: the loop's counter). */
#define OK(c) \
    do { \
        if (!(c)) \
            ck_abort_msg("%s (at %d)", #c, at); \
    } while (0)
#define OK_EQ(a, b) OK((a) == (b))
#define OK_STR(a, b) OK(strcmp((a), (b)) == 0)

START_TEST(arrays_grow_together)
{
    /* places, transitions, arcs and both kinds of id index grow side by
     * side through the three homes of an array (heap, the net's shared
     * pool, a mapping of its own), moving and leaving holes that later
     * arrays reuse: everything written reads back */
    pn_net_t *net = pn_net_new(NULL);
    char id[48], name[48];
    const int n = 40000;
    for (int at = 0; at < n; at++) {
        const int i = at;
        snprintf(id, sizeof id, "p%d", i);
        snprintf(name, sizeof name, "place %d", i);
        OK_EQ(pn_net_add_place(net, id, name, (uint64_t)i, NULL), PN_OK);
        snprintf(id, sizeof id, "t%d_x", i); /* not numbered: hashed */
        OK_EQ(pn_net_add_transition(net, id, NULL, NULL), PN_OK);
        /* arc ids numbered from far on, two ranges apart: arrays based at
         * their first numbers */
        snprintf(id, sizeof id, "a%d", 70000 + i + (i / 100) * 50);
        OK_EQ(pn_net_add_arc_at(net, id, PN_DIR_PT, (size_t)i,
                                (size_t)i, (uint64_t)i + 1,
                                PN_ARC_NORMAL, NULL), PN_OK);
        snprintf(id, sizeof id, "ra%d", 300000 + i);
        OK_EQ(pn_net_add_arc_at(net, id, PN_DIR_TP, (size_t)i,
                                (size_t)(i / 2), 1,
                                PN_ARC_NORMAL, NULL), PN_OK);
    }
    ck_assert_int_eq(pn_net_arc_count(net), 2 * (size_t)n);
    for (int at = 0; at < n; at++) {
        const int i = at;
        size_t idx;
        pn_object_t k;
        const pn_place_t *p = pn_net_place(net, (size_t)i);
        snprintf(id, sizeof id, "p%d", i);
        snprintf(name, sizeof name, "place %d", i);
        OK_STR(p->id, id);
        OK_STR(p->name, name);
        OK_EQ(p->marking, (uint64_t)i);
        OK_EQ(pn_net_find(net, id, &k, &idx), PN_OK);
        OK(k == PN_PLACE && idx == (size_t)i);
        snprintf(id, sizeof id, "t%d_x", i);
        OK_STR(pn_net_transition(net, (size_t)i)->id, id);
        OK_EQ(pn_net_find(net, id, &k, &idx), PN_OK);
        OK(k == PN_TRANSITION && idx == (size_t)i);
        OK_EQ(pn_net_add_place(net, id, NULL, 0, NULL), PN_EDUPID);
        snprintf(id, sizeof id, "a%d", 70000 + i + (i / 100) * 50);
        const pn_arc_t *a = pn_net_arc(net, 2 * (size_t)i);
        OK_STR(a->id, id);
        OK(a->place == (size_t)i && a->transition == (size_t)i &&
                  a->weight == (uint64_t)i + 1 && a->dir == PN_DIR_PT);
        OK_EQ(pn_net_find(net, id, &k, &idx), PN_OK);
        OK(k == PN_ARC && idx == 2 * (size_t)i);
        snprintf(id, sizeof id, "ra%d", 300000 + i);
        a = pn_net_arc(net, 2 * (size_t)i + 1);
        OK_STR(a->id, id);
        OK(a->place == (size_t)i && a->transition == (size_t)(i / 2) &&
                  a->dir == PN_DIR_TP);
        OK_EQ(pn_net_find(net, id, &k, &idx), PN_OK);
        OK(k == PN_ARC && idx == 2 * (size_t)i + 1);
        OK_EQ(pn_net_add_transition(net, id, NULL, NULL), PN_EDUPID);
    }
    /* numbers below an array's base and in its gaps are still free */
    ck_assert_int_eq(pn_net_find(net, "a69999", NULL, NULL), PN_EUNKNOWN);
    ck_assert_int_eq(pn_net_find(net, "a70100", NULL, NULL), PN_EUNKNOWN);
    ck_assert_int_eq(pn_net_add_place(net, "a12", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "a70100", NULL, 0, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_place(net, "a12", NULL, 0, NULL), PN_EDUPID);
    ck_assert_int_eq(pn_net_find(net, "a12", NULL, NULL), PN_OK);
    pn_net_free(net);
}
END_TEST

START_TEST(numbered_ids)
{
    /* numbered ids live in arrays by number, the others (and numbers far
     * ahead of their family) in the hash table: every way in must find
     * duplicates and ids again */
    pn_net_t *net = pn_net_new(NULL);
    size_t idx;
    pn_object_t k;
    char id[48];
    /* far ahead of its (new) family: hashed, the family spilled */
    ck_assert_int_eq(pn_net_add_place(net, "p500", NULL, 0, NULL), PN_OK);
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "p%d", i);
        ck_assert_int_eq(pn_net_add_place(net, id, NULL, 0, NULL),
                         i == 500 ? PN_EDUPID : PN_OK);
    }
    ck_assert_int_eq(pn_net_place_count(net), 1000);
    ck_assert_int_eq(pn_net_find(net, "p500", &k, &idx), PN_OK);
    ck_assert_int_eq(idx, 0);
    ck_assert_int_eq(pn_net_find(net, "p999", &k, &idx), PN_OK);
    ck_assert_int_eq(idx, 999);
    ck_assert_int_eq(pn_net_find(net, "p1000", &k, &idx), PN_EUNKNOWN);
    /* leading zeros, a bare number, an empty prefix, long numbers: all
     * distinct ids */
    const char *odd[] = {"p07", "p007", "7", "07", "p1234567890",
                         "p12345678901234567890", "x-3", "3x", "p 7"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
        ck_assert_int_eq(pn_net_add_transition(net, odd[i], NULL, &idx), PN_OK);
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        ck_assert_int_eq(pn_net_add_transition(net, odd[i], NULL, NULL),
                         PN_EDUPID);
        ck_assert_int_eq(pn_net_find(net, odd[i], &k, &idx), PN_OK);
        ck_assert_int_eq(k, PN_TRANSITION);
        ck_assert_int_eq(idx, i);
        ck_assert_str_eq(pn_net_transition(net, idx)->id, odd[i]);
    }
    ck_assert_int_eq(pn_net_find(net, "p7", &k, &idx), PN_OK);
    ck_assert_int_eq(k, PN_PLACE);
    /* so many prefixes that families stop being made: their ids are
     * hashed, and still one namespace with the arrays */
    for (int i = 0; i < 3000; i++) {
        snprintf(id, sizeof id, "n%d_%d", i, i % 3);
        ck_assert_int_eq(pn_net_add_transition(net, id, NULL, NULL), PN_OK);
    }
    for (int i = 0; i < 3000; i++) {
        snprintf(id, sizeof id, "n%d_%d", i, i % 3);
        ck_assert_int_eq(pn_net_add_place(net, id, NULL, 0, NULL), PN_EDUPID);
        ck_assert_int_eq(pn_net_find(net, id, &k, &idx), PN_OK);
        ck_assert_int_eq(k, PN_TRANSITION);
        ck_assert_str_eq(pn_net_transition(net, idx)->id, id);
    }
    /* arcs share the namespace; a name equal to the id reads back */
    ck_assert_int_eq(pn_net_add_arc(net, "n5_2", "p1", "p07", 1,
                                    PN_ARC_NORMAL, NULL), PN_EDUPID);
    ck_assert_int_eq(pn_net_add_arc(net, "a1", "p1", "p07", 1,
                                    PN_ARC_NORMAL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_arc(net, "a1", "p1", "p07", 1,
                                    PN_ARC_NORMAL, NULL), PN_EDUPID);
    ck_assert_int_eq(pn_net_find(net, "a1", &k, &idx), PN_OK);
    ck_assert_int_eq(k, PN_ARC);
    ck_assert_int_eq(pn_net_add_place(net, "q1", "q1", 0, &idx), PN_OK);
    ck_assert_str_eq(pn_net_place(net, idx)->name, "q1");
    ck_assert_int_eq(pn_net_add_place(net, "q1", "other", 0, NULL), PN_EDUPID);
    pn_net_free(net);
}
END_TEST

START_TEST(pages_positions_tools)
{
    pn_net_t *net = two_nodes();
    size_t top, sub;
    ck_assert_int_eq(pn_net_add_page(net, "top", "Top", PN_NONE, &top), PN_OK);
    ck_assert_int_eq(pn_net_add_page(net, "sub", NULL, top, &sub), PN_OK);
    ck_assert_int_eq(pn_net_add_page(net, "bad", NULL, 7, NULL), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_page(net, PN_PLACE, 0, sub), PN_OK);
    ck_assert_int_eq(pn_net_set_page(net, PN_PLACE, 5, sub), PN_EINVAL);
    ck_assert_int_eq(pn_net_page(net, sub)->parent, top);
    ck_assert_int_eq(pn_net_set_position(net, PN_TRANSITION, 0, 1.5, -2),
                     PN_OK);
    ck_assert(pn_net_transition(net, 0)->has_position);
    ck_assert(!pn_net_place(net, 0)->has_position);
    ck_assert_int_eq(pn_net_add_toolspecific(net, PN_PLACE, 0, "x", "1",
                                             "<toolspecific/>"), PN_OK);
    ck_assert_int_eq(pn_net_add_toolspecific(net, PN_PLACE, 3, "x", "1",
                                             "<toolspecific/>"), PN_EINVAL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(pn_net_dump(net, f, PN_DUMP_ALL), PN_OK);
    fclose(f);
    ck_assert_str_eq(buf,
        "net id=\"n\" type=\"" PN_PTNET_TYPE "\" name=-\n"
        "page #0 id=\"top\" parent=- name=\"Top\"\n"
        "page #1 id=\"sub\" parent=top name=-\n"
        "place p0 id=\"p\" label=\"P\" marking=3 page=sub\n"
        "transition t0 id=\"t\" label=\"t\" pos=1.5,-2 page=-\n"
        "toolspecific place 0 tool=\"x\" version=\"1\" bytes=15\n");
    free(buf);
    pn_net_free(net);
}
END_TEST

/* every byte of an option struct set (0xA5) before its init function */
#define DIRTY(x) memset(&(x), 0xA5, sizeof(x))
static int all_zero(const uint64_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (w[i])
            return 0;
    return 1;
}

/* the init functions give the documented defaults, zero the reserved room,
 * and agree with the functions' first names */
/* Timing: the defaults of a new transition, the setter's checks, the
 * names, the counts, and the exact numbers the writers and the dump use. */
START_TEST(transition_timing)
{
    pn_net_t *net = two_nodes();
    const pn_transition_t *t = pn_net_transition(net, 0);
    ck_assert_int_eq(t->timing, PN_TIMING_NONE);
    ck_assert(t->rate == PN_DEFAULT_RATE);
    ck_assert_int_eq(t->priority, PN_DEFAULT_PRIORITY);
    ck_assert_int_eq(t->server, PN_SERVER_SINGLE);
    ck_assert_int_eq(t->timing_lost, 0);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_EXPONENTIAL, 482.16,
                                       3, PN_SERVER_INFINITE), PN_OK);
    t = pn_net_transition(net, 0);
    ck_assert_int_eq(t->timing, PN_TIMING_EXPONENTIAL);
    ck_assert(t->rate == 482.16);
    ck_assert_int_eq(t->priority, 3);
    ck_assert_int_eq(t->server, PN_SERVER_INFINITE);
    ck_assert_uint_eq(t->servers, 0);
    /* k servers, then back to one and to infinitely many */
    ck_assert_int_eq(pn_net_set_servers(net, 0, 3), PN_OK);
    ck_assert_int_eq(t->server, PN_SERVER_K);
    ck_assert_uint_eq(t->servers, 3);
    ck_assert_int_eq(pn_net_set_servers(net, 0, 1), PN_OK);
    ck_assert_int_eq(t->server, PN_SERVER_SINGLE);
    ck_assert_int_eq(pn_net_set_servers(net, 0, 0), PN_OK);
    ck_assert_int_eq(t->server, PN_SERVER_INFINITE);
    ck_assert_int_eq(pn_net_set_servers(net, 1, 3), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_servers(NULL, 0, 3), PN_EINVAL);
    /* refused, the transition unchanged */
    double inf = INFINITY;
    ck_assert_int_eq(pn_net_set_timing(net, 1, PN_TIMING_IMMEDIATE, 1, 1,
                                       PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(net, 0, (pn_timing_t)4, 1, 1,
                                       PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_IMMEDIATE, -1, 1,
                                       PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_IMMEDIATE, inf, 1,
                                       PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_IMMEDIATE, NAN,
                                       1, PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_IMMEDIATE, 1, -1,
                                       PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_IMMEDIATE, 1, 1,
                                       (pn_server_t)3), PN_EINVAL);
    ck_assert_int_eq(pn_net_set_timing(NULL, 0, PN_TIMING_IMMEDIATE, 1, 1,
                                       PN_SERVER_SINGLE), PN_EINVAL);
    ck_assert(pn_net_transition(net, 0)->rate == 482.16);
    size_t c[PN_TIMING_KINDS];
    ck_assert_int_eq(pn_net_add_transition(net, "u", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_add_transition(net, "v", NULL, NULL), PN_OK);
    ck_assert_int_eq(pn_net_set_timing(net, 2, PN_TIMING_DETERMINISTIC, 0, 0,
                                       PN_SERVER_SINGLE), PN_OK);
    pn_net_count_timing(net, c);
    ck_assert_uint_eq(c[PN_TIMING_NONE], 1);
    ck_assert_uint_eq(c[PN_TIMING_IMMEDIATE], 0);
    ck_assert_uint_eq(c[PN_TIMING_EXPONENTIAL], 1);
    ck_assert_uint_eq(c[PN_TIMING_DETERMINISTIC], 1);
    /* none: the defaults, whatever was given */
    ck_assert_int_eq(pn_net_set_timing(net, 0, PN_TIMING_NONE, 5, 9,
                                       PN_SERVER_INFINITE), PN_OK);
    t = pn_net_transition(net, 0);
    ck_assert(t->rate == PN_DEFAULT_RATE);
    ck_assert_int_eq(t->priority, PN_DEFAULT_PRIORITY);
    ck_assert_int_eq(t->server, PN_SERVER_SINGLE);
    /* a lost timing is cleared by setting it */
    pni_net_timing_lost(net, 1);
    ck_assert_int_eq(pn_net_transition(net, 1)->timing_lost, 1);
    ck_assert_int_eq(pn_net_set_timing(net, 1, PN_TIMING_IMMEDIATE, 2, 1,
                                       PN_SERVER_SINGLE), PN_OK);
    ck_assert_int_eq(pn_net_transition(net, 1)->timing_lost, 0);
    pn_net_free(net);
    pn_net_count_timing(NULL, c);
    ck_assert_uint_eq(c[PN_TIMING_NONE], 0);
    /* names both ways */
    for (int k = 0; k < PN_TIMING_KINDS; k++) {
        pn_timing_t back;
        ck_assert_int_eq(pn_timing_parse(pn_timing_name((pn_timing_t)k),
                                         &back), PN_OK);
        ck_assert_int_eq(back, k);
    }
    ck_assert_str_eq(pn_timing_name(PN_TIMING_EXPONENTIAL), "exponential");
    ck_assert_int_eq(pn_timing_parse("erlang", NULL), PN_EINVAL);
    ck_assert_int_eq(pn_timing_parse(NULL, NULL), PN_EINVAL);
    pn_server_t sv;
    ck_assert_int_eq(pn_server_parse("infinite", &sv), PN_OK);
    ck_assert_int_eq(sv, PN_SERVER_INFINITE);
    ck_assert_str_eq(pn_server_name(PN_SERVER_SINGLE), "single");
    ck_assert_int_eq(pn_server_parse("double", &sv), PN_EINVAL);
    ck_assert_int_eq(pn_server_parse("k", &sv), PN_OK);
    ck_assert_int_eq(sv, PN_SERVER_K);
    /* exact numbers: the shortest text that reads back the same */
    static const double v[] = {1, 0.1, 482.1600771, 12820.51282, 1.0 / 3,
                               1e-9, 5e-324, 1e300, 123456789012345678.0,
                               0};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        for (int plain = 0; plain <= 1; plain++) {
            char buf[PNI_EXACT_SIZE];
            pni_format_exact(buf, sizeof buf, v[i], plain);
            ck_assert_msg(strtod(buf, NULL) == v[i], "%s is not %.17g", buf,
                          v[i]);
            if (plain)
                ck_assert_msg(!strchr(buf, 'e') && strchr(buf, '.'),
                              "%s is not a plain decimal", buf);
        }
    char buf[PNI_EXACT_SIZE];
    pni_format_exact(buf, sizeof buf, 482.1600771, 1);
    ck_assert_str_eq(buf, "482.1600771");
    pni_format_exact(buf, sizeof buf, 1, 1);
    ck_assert_str_eq(buf, "1.0");
    pni_format_exact(buf, sizeof buf, 1, 0);
    ck_assert_str_eq(buf, "1");
    pni_format_exact(buf, sizeof buf, -0.0, 0);
    ck_assert_str_eq(buf, "0");
}
END_TEST

START_TEST(option_inits)
{
    pn_read_options_t ro;
    DIRTY(ro);
    pn_read_options_init(&ro);
    ck_assert_ptr_null(ro.net_id);
    ck_assert(all_zero(ro.reserved, sizeof ro.reserved / sizeof *ro.reserved));
    pn_write_options_t wo;
    DIRTY(wo);
    pn_write_options_init(&wo);
    ck_assert_int_eq(wo.dialect, PN_DIALECT_STANDARD);
    ck_assert(all_zero(wo.reserved, sizeof wo.reserved / sizeof *wo.reserved));
    pn_reach_options_t a;
    DIRTY(a);
    pn_reach_options_init(&a);
    ck_assert_int_eq(a.semantics, PN_SEM_INTERLEAVING);
    ck_assert_uint_eq(a.max_states, 0);
    ck_assert_int_eq(a.unbounded, 1);
    ck_assert(!a.graph && !a.no_paths && !a.progress && !a.token_bound &&
              !a.max_memory);
    ck_assert(all_zero(a.reserved, sizeof a.reserved / sizeof *a.reserved));
    pn_mp_params_t mp;
    DIRTY(mp);
    pn_mp_params_init(&mp);
    ck_assert_int_eq(mp.model, PN_MP_OPS);
    ck_assert(mp.executors == 1 && mp.dt == 0 && mp.dT == 0 && !mp.cached);
    ck_assert(all_zero(mp.reserved, sizeof mp.reserved / sizeof *mp.reserved));
    pn_gpu_params_t g;
    DIRTY(g);
    pn_gpu_params_init(&g);
    ck_assert_uint_eq(g.warps, 32);
    ck_assert_uint_eq(g.schedulers, 2);
    ck_assert_uint_eq(g.l1, 20);
    ck_assert_uint_eq(g.l2, 2);
    ck_assert_ptr_null(g.work);
    ck_assert(g.uniform.arith == 10 && g.uniform.shared == 4 &&
              g.uniform.global == 4);
    ck_assert(g.stochastic == 0 && g.stages == 0);
    pn_read_options_init(NULL);
    pn_write_options_init(NULL);
    pn_reach_options_init(NULL);
    pn_mp_params_init(NULL);
    pn_gpu_params_init(NULL);
}
END_TEST

/* the compile-time version is the run-time one, and the hex packs it */
START_TEST(version_macros)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", PN_VERSION_MAJOR, PN_VERSION_MINOR,
             PN_VERSION_PATCH);
    ck_assert_str_eq(buf, pn_version());
    ck_assert_str_eq(PN_VERSION_STRING, pn_version());
    ck_assert_int_eq(PN_VERSION_HEX, (PN_VERSION_MAJOR << 16) |
                                         (PN_VERSION_MINOR << 8) |
                                         PN_VERSION_PATCH);
#if PN_VERSION_HEX < 0x000100
#error "PN_VERSION_HEX is not usable in #if"
#endif
}
END_TEST

START_TEST(status_texts)
{
    for (int s = 0; s < PNI_STATUS_COUNT; s++) {
        ck_assert_str_ne(pn_strstatus((pn_status_t)s), "unknown status");
        ck_assert_int_eq(strncmp(pn_status_name((pn_status_t)s), "PN_", 3), 0);
    }
    pn_error_t e;
    pn_error_clear(&e);
    e.code = PN_EDUPID;
    strcpy(e.file, "f.pnml");
    e.line = 3;
    e.column = 9;
    strcpy(e.text, "duplicate id 'p'");
    char buf[256];
    ck_assert_str_eq(pn_error_format(&e, buf, sizeof buf),
                     "f.pnml:3:9: duplicate id 'p'");
    ck_assert_str_eq(pn_version(), PACKAGE_VERSION);
    pn_net_free(NULL);
}
END_TEST

/* The private helpers every folder shares: the growing string and the
 * JSON escaper. */
START_TEST(string_buffer)
{
    pni_sb_t b = {0};
    ck_assert_int_eq(pni_sb_puts(&b, "ab"), PN_OK);
    ck_assert_int_eq(pni_sb_putc(&b, 'c'), PN_OK);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(pni_sb_printf(&b, "%03d", i % 1000), PN_OK);
    ck_assert_uint_eq(b.n, 3 + 3000);
    ck_assert_int_eq(strncmp(b.s + b.n - 6, "998999", 6), 0);
    pni_sb_truncate(&b, 3);
    ck_assert_str_eq(b.s, "abc");
    ck_assert_int_eq(pni_sb_insert(&b, 1, "XY", 2), PN_OK);
    ck_assert_str_eq(b.s, "aXYbc");
    ck_assert_int_eq(pni_sb_insert(&b, 5, "!", 1), PN_OK);
    size_t n;
    char *s = pni_sb_take(&b, &n);
    ck_assert_str_eq(s, "aXYbc!");
    ck_assert_uint_eq(n, 6);
    ck_assert_ptr_null(b.s);
    free(s);
    s = pni_sb_take(&b, &n); /* nothing appended: "" */
    ck_assert_str_eq(s, "");
    free(s);
    b.oom = 1; /* a failed growth: appends do nothing, take gives NULL */
    ck_assert_int_eq(pni_sb_puts(&b, "x"), PN_ENOMEM);
    ck_assert_ptr_null(pni_sb_take(&b, &n));
    ck_assert_uint_eq(n, 0);
    pni_sb_free(&b);
}
END_TEST

START_TEST(json_strings)
{
    static const struct {
        const char *in;
        unsigned flags;
        const char *out;
    } cases[] = {
        {"plain", 0, "\"plain\""},
        {"q\"b\\", 0, "\"q\\\"b\\\\\""},
        {"\b\f\n\r\t\x01\x1f\x7f", 0, "\"\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\""},
        {"</script>&", 0, "\"</script>&\""},
        {"</script>&", PNI_JSON_SCRIPT, "\"\\u003c/script\\u003e\\u0026\""},
        /* valid UTF-8 as it is: 2, 3 and 4 bytes */
        {"\xc3\xa9\xe2\x80\xa2\xf0\x9f\x98\x80", 0,
         "\"\xc3\xa9\xe2\x80\xa2\xf0\x9f\x98\x80\""},
        /* not UTF-8: a lone continuation byte, Latin-1, an overlong '/', a
         * surrogate, a cut sequence at the end */
        {"a\x80" "b\xe9" "c\xc0\xaf" "d\xed\xa0\x80" "e\xe2\x80", 0,
         "\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde\\ufffd"
         "\\ufffd\""},
        {NULL, 0, "null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pni_sb_t b = {0};
        pni_sb_json(&b, cases[i].in, cases[i].flags);
        ck_assert_str_eq(b.s, cases[i].out);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(f);
        pni_json_string(f, cases[i].in, cases[i].flags);
        fclose(f);
        ck_assert_str_eq(text, cases[i].out);
        free(text);
        pni_sb_free(&b);
    }
}
END_TEST

/* The CSV reader: RFC 4180 quoting, and the plain lines with comments of
 * the workload files. */
START_TEST(csv_reader)
{
    pni_csv_t c;
    pn_error_t err;
    int got;
    static const char text[] = "\xEF\xBB\xBF" "a,\"b,\"\"c\"\"\n2\"\r\n,x\r\n";
    pni_error_begin(&err, "t.csv");
    ck_assert_int_eq(pni_csv_open_text(&c, text, sizeof text - 1, &err), PN_OK);
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert_int_eq(got, 1);
    ck_assert_uint_eq(c.n, 2);
    ck_assert(pni_csv_is(&c.cells[0], "a"));
    ck_assert(pni_csv_is(&c.cells[1], "b,\"c\"\n2"));
    ck_assert(c.cells[1].quoted);
    ck_assert_uint_eq(c.rec_line, 1);
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert_uint_eq(c.rec_line, 3);
    ck_assert_uint_eq(c.n, 2);
    ck_assert(pni_csv_is(&c.cells[1], "x"));
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert_int_eq(got, 0);
    pni_csv_close(&c);
    /* plain, with comments: quotes and CR are bytes, '#' ends the line */
    static const char lines[] = "1,\"2\" # a, \"b\"\n\n# c\n3,4\r\n";
    ck_assert_int_eq(pni_csv_open_text(&c, lines, sizeof lines - 1, &err),
                     PN_OK);
    c.plain = 1;
    c.comment = '#';
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert_uint_eq(c.n, 2);
    ck_assert(pni_csv_is(&c.cells[1], "\"2\" "));
    ck_assert_int_eq(c.buf[c.rec_end], '#');
    ck_assert_uint_eq(c.line_end - c.rec_start, 14);
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert(pni_csv_blank(&c));
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert(pni_csv_blank(&c));
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert_uint_eq(c.rec_line, 4);
    ck_assert(pni_csv_is(&c.cells[1], "4\r"));
    pni_csv_close(&c);
    /* errors name the place */
    static const char bad[] = "a,b\nc,\"d\n";
    ck_assert_int_eq(pni_csv_open_text(&c, bad, sizeof bad - 1, &err), PN_OK);
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_OK);
    ck_assert_int_eq(pni_csv_next(&c, &got), PN_EVALUE);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.column, 3);
    ck_assert_ptr_nonnull(strstr(err.text, "never closed"));
    pni_csv_close(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("net");
    TCase *tc = tcase_create("model");
    /* lookup_many and arrays_grow_together build nets of 10^5 ids: slow
     * under the sanitizers on a loaded machine */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, add_and_find);
    tcase_add_test(tc, construction_checks);
    tcase_add_test(tc, token_boundaries);
    tcase_add_test(tc, lookup_many);
    tcase_add_test(tc, arrays_grow_together);
    tcase_add_test(tc, numbered_ids);
    tcase_add_test(tc, pages_positions_tools);
    tcase_add_test(tc, version_macros);
    tcase_add_test(tc, transition_timing);
    tcase_add_test(tc, option_inits);
    tcase_add_test(tc, status_texts);
    tcase_add_test(tc, string_buffer);
    tcase_add_test(tc, json_strings);
    tcase_add_test(tc, csv_reader);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
