/*
 * pn/query.h - reachability queries over a net's markings, as data: the
 * formula tree that both the Model Checking Contest's property files
 * (pn_mcc_queries_read(), pn/mcc.h) and the short inline form
 * (pn_query_parse()) compile to, and its canonical text.  The state-space
 * explorer answers them (pn_reach_query(), pn/reach.h).
 *
 * A query is one of
 *   EF f        some reachable marking satisfies f
 *   AG f        every reachable marking satisfies f
 *   bound(E)    the largest value of the sum of places E over the
 *               reachable markings (the contest's place-bound)
 *   a CTL formula, true or false at the initial marking: f with the
 *               temporal operators EX AX EF AF EG AG (prefixes) and
 *               E [ f U g ], A [ f U g ] anywhere in it (an EF or AG query
 *               is one whose formula has no temporal operator below it)
 *   an LTL formula, true when every path from the initial marking
 *               satisfies it: f with the path operators X F G (prefixes)
 *               and [ f U g ], [ f R g ] anywhere in it, no path
 *               quantifier.  A path is infinite: a maximal path that ends
 *               at a dead marking stays there for ever (X f at a dead
 *               marking is f there), as in the Model Checking Contest.
 * and a formula f is built from
 *   true, false, deadlock (no transition is enabled),
 *   fireable(t1, t2, ...) (one of them is enabled),
 *   E1 op E2 with op one of < <= == != >= > and E a sum of places and
 *   constants ("p1 + p2 + 3"),
 *   !f, f && g, f || g, ( f ).
 *
 * Inline grammar (pn_query_parse()), by increasing precedence:
 *   query   := 'bound' '(' places ')'
 *            | formula        (with no temporal operator: EF formula)
 *            | 'CTL' formula  (at the initial marking, even with none)
 *            | 'LTL' path     (every path satisfies it)
 *            | 'A' path       (the same, when path starts with X F G ( !)
 *   formula := or [ '->' formula ]   (f -> g is read as !f || g)
 *   or      := and { '||' and }
 *   and     := not { '&&' not }
 *   not     := '!' not | '(' formula ')' | 'true' | 'false' | 'deadlock'
 *            | 'fireable' '(' transitions ')' | sum op sum
 *            | T formula      (T: EX AX EF AF EG AG; it takes everything
 *                              to its right: AG p && q is AG (p && q))
 *            | 'E' '[' formula 'U' formula ']'
 *            | 'A' '[' formula 'U' formula ']'
 *   sum     := term { '+' term };  term := number | place
 *   path    := a formula whose temporal operators are
 *              T path (T: X F G) and '[' path ('U' | 'R') path ']'
 * A name is a place or transition id (else its name): letters, digits and
 * _ . - : after a letter or _, or any text in double quotes ("a b",
 * backslash escapes " and \).  Keywords are names when quoted; a
 * temporal operator's word followed by a comparison or '+' is a place.
 *
 * Ownership: the reader and the parser return a set the caller frees
 * with pn_query_set_free(); everything in it belongs to the set.  The
 * error record follows pn/status.h.
 */
#ifndef PN_QUERY_H
#define PN_QUERY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A sum of places and a constant: constant + M(places[0]) + ... */
typedef struct pn_qsum {
    uint64_t constant;
    size_t nplaces;
    size_t *places;      /* place indices (a place may repeat) */
} pn_qsum_t;

typedef enum {
    PN_QF_TRUE = 0,
    PN_QF_FALSE = 1,
    PN_QF_DEADLOCK = 2,  /* no transition is enabled */
    PN_QF_FIREABLE = 3,  /* one of items[0..nitems) (transitions) enabled */
    PN_QF_CMP = 4,       /* lhs op rhs */
    PN_QF_NOT = 5,       /* !kids[0] */
    PN_QF_AND = 6,       /* every one of kids[0..nkids) */
    PN_QF_OR = 7,        /* one of kids[0..nkids) */
    /* CTL (PN_QUERY_CTL): path quantifier and temporal operator, over
     * kids[0] (and kids[1] for the untils) */
    PN_QF_EX = 8,        /* some successor satisfies kids[0] */
    PN_QF_AX = 9,        /* there is a successor and every one does */
    PN_QF_EF = 10,       /* some path reaches a kids[0] marking */
    PN_QF_AF = 11,       /* every maximal path does */
    PN_QF_EG = 12,       /* kids[0] all along some maximal path */
    PN_QF_AG = 13,       /* kids[0] in every reachable marking */
    PN_QF_EU = 14,       /* E [ kids[0] U kids[1] ] */
    PN_QF_AU = 15,       /* A [ kids[0] U kids[1] ] */
    /* LTL (PN_QUERY_LTL): path operators, over the path from the current
     * position on (no path quantifier) */
    PN_QF_X = 16,        /* kids[0] at the next position */
    PN_QF_F = 17,        /* kids[0] at some position from this one */
    PN_QF_G = 18,        /* kids[0] at every position from this one */
    PN_QF_U = 19,        /* [ kids[0] U kids[1] ]: kids[1] at some
                            position, kids[0] at every one before it */
    PN_QF_R = 20         /* [ kids[0] R kids[1] ]: kids[1] up to and
                            including the first kids[0] position, or for
                            ever (not (!kids[0] U !kids[1])) */
} pn_qf_kind_t;

typedef enum {
    PN_QCMP_LT = 0, PN_QCMP_LE = 1, PN_QCMP_EQ = 2,
    PN_QCMP_NE = 3, PN_QCMP_GE = 4, PN_QCMP_GT = 5
} pn_qcmp_t;

typedef struct pn_qformula {
    pn_qf_kind_t kind;
    pn_qcmp_t op;                 /* PN_QF_CMP */
    pn_qsum_t lhs, rhs;           /* PN_QF_CMP */
    size_t nitems;
    size_t *items;                /* PN_QF_FIREABLE: transition indices */
    size_t nkids;
    struct pn_qformula **kids;    /* PN_QF_NOT, PN_QF_AND, PN_QF_OR */
} pn_qformula_t;

typedef enum {
    PN_QUERY_EF = 0,     /* some reachable marking satisfies formula */
    PN_QUERY_AG = 1,     /* every reachable marking satisfies formula */
    PN_QUERY_BOUND = 2,  /* the largest value of bound */
    PN_QUERY_CTL = 3,    /* the CTL formula holds at the initial marking */
    PN_QUERY_LTL = 4     /* every path from the initial marking satisfies
                            the LTL formula */
} pn_query_kind_t;

typedef struct pn_query {
    char *id;                /* the property's id, or "q<N>" inline */
    pn_query_kind_t kind;
    pn_qformula_t *formula;  /* EF, AG, CTL, LTL */
    pn_qsum_t bound;         /* BOUND (its constant is 0) */
    unsigned long line;      /* where it was read (0: inline) */
} pn_query_t;

typedef struct pn_query_set {
    size_t n;
    pn_query_t *q;
} pn_query_set_t;

/* An empty set (pn_query_parse() appends to it). */
pn_query_set_t *pn_query_set_new(void);
void pn_query_set_free(pn_query_set_t *s);

/* Parses one inline query (the grammar above) against net and appends it
 * to s with the id "q<k>" (k: its position, from 1).  Returns PN_OK,
 * PN_EQUERY (err: column = 1-based byte position, text what was
 * expected), PN_EUNKNOWN (a name the net does not have), PN_ERANGE (a
 * constant above PN_TOKENS_MAX), PN_ENOMEM, PN_EINVAL. */
pn_status_t pn_query_parse(pn_query_set_t *s, const char *text,
                           const pn_net_t *net, pn_error_t *err);

/* Writes query q in the inline form above, with the net's ids (quoted
 * where they are not plain names): parsing the text gives the same tree.
 * n-ary conjunctions and disjunctions are written flat, a comparison as
 * written (a place list is kept in its order). */
void pn_query_write(FILE *f, const pn_query_t *q, const pn_net_t *net);

/* Whether two formula trees are the same (same kinds, operators, places,
 * transitions and constants, in the same order). */
int pn_qformula_equal(const pn_qformula_t *a, const pn_qformula_t *b);

/* Internal building blocks for the readers (pn/mcc.h): a node of kind k
 * with nothing in it, and freeing one tree.  NULL when out of memory. */
pn_qformula_t *pn_qformula_new(pn_qf_kind_t k);
void pn_qformula_free(pn_qformula_t *f);

#ifdef __cplusplus
}
#endif
#endif
