/* Rates that are expressions of the marking, as PIPE writes them: its
 * grammar is PIPECore's RateGrammar.g4 (sjdayday/PIPECore,
 * src/main/antlr4/uk/ac/imperial/pipe/parsers/RateGrammar.g4):
 *
 *   expression : '(' expression ')' | expression ('*'|'/') expression
 *              | expression ('+'|'-') expression | 'ceil(' expression ')'
 *              | 'floor(' expression ')' | 'cap(' ID ')' | '#(' ID ')'
 *              | '#(' ID ',' ID ')' | INT | DOUBLE
 *   ID: [a-zA-Z][a-zA-Z0-9]*   INT: [0-9]+   DOUBLE: [0-9]+ '.' [0-9]+
 *
 * ANTLR gives the earlier alternative the higher precedence, so '*' and
 * '/' bind tighter than '+' and '-', all left-associative; there is no
 * unary minus.  'ceil(', 'floor(', 'cap(' and '#(' are single tokens (no
 * space before their parenthesis).  Values are computed as its
 * StateEvalVisitor does, in doubles: #(P) the tokens on P, cap(P) its
 * capacity (0: unbounded).  '#(P,colour)' counts one token colour, which a
 * place/transition net does not keep: it is refused. */
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"

enum { R_NUM, R_TOKENS, R_CAP, R_ADD, R_SUB, R_MUL, R_DIV, R_CEIL, R_FLOOR };

typedef struct {
    unsigned char op;
    size_t place;
    double num;
} rate_op_t;

struct pni_rate {
    rate_op_t *code;
    size_t n, cap;
    size_t depth, maxdepth;
};

/* The deepest stack an expression may need (its nesting). */
#define RATE_STACK 64

typedef struct {
    const pn_net_t *net;
    const char *s;
    size_t pos;        /* the current token's start */
    pni_rate_t *e;
    size_t errpos;
    char *why;
    size_t whylen;
    int failed;
} rate_parser_t;

static int fail(rate_parser_t *p, size_t at, const char *fmt, const char *arg)
{
    if (!p->failed) {
        p->failed = 1;
        p->errpos = at;
        snprintf(p->why, p->whylen, fmt, arg);
    }
    return -1;
}

static int emit(rate_parser_t *p, unsigned char op, size_t place, double num)
{
    pni_rate_t *e = p->e;
    if (pni_grow((void **)&e->code, &e->cap, e->n + 1, sizeof *e->code))
        return fail(p, p->pos, "%s", "out of memory");
    e->code[e->n++] = (rate_op_t){op, place, num};
    /* operands push one value, operators pop two and push one */
    if (op == R_NUM || op == R_TOKENS || op == R_CAP)
        e->depth++;
    else if (op != R_CEIL && op != R_FLOOR)
        e->depth--;
    if (e->depth > e->maxdepth)
        e->maxdepth = e->depth;
    if (e->maxdepth > RATE_STACK)
        return fail(p, p->pos, "%s", "the expression is nested too deeply");
    return 0;
}

static void skip_ws(rate_parser_t *p)
{
    p->pos += strspn(p->s + p->pos, " \t\n\r");
}

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The length of the ID at the current token, 0 when none. */
static size_t id_len(const rate_parser_t *p)
{
    const char *t = p->s + p->pos;
    if (!is_alpha(*t))
        return 0;
    size_t n = 1;
    while (is_alpha(t[n]) || is_digit(t[n]))
        n++;
    return n;
}

/* Takes the literal token lit when it is the current one (the lexer's
 * longest match: 'cap(' over the ID 'cap'). */
static int take(rate_parser_t *p, const char *lit)
{
    skip_ws(p);
    size_t n = strlen(lit);
    if (strncmp(p->s + p->pos, lit, n))
        return 0;
    p->pos += n;
    return 1;
}

static int unexpected(rate_parser_t *p, const char *wanted)
{
    skip_ws(p);
    char got[24];
    const char *t = p->s + p->pos;
    if (!*t)
        return fail(p, p->pos, "%s, not the end of the expression", wanted);
    size_t n = id_len(p);
    if (!n)
        while (is_digit(t[n]) || t[n] == '.')
            n++;
    n = n ? n : 1;
    snprintf(got, sizeof got, "%.*s", (int)(n < 20 ? n : 20), t);
    char msg[160];
    snprintf(msg, sizeof msg, "%s, not '%s'", wanted, got);
    return fail(p, p->pos, "%s", msg);
}

static int expect(rate_parser_t *p, const char *lit)
{
    if (take(p, lit))
        return 0;
    char want[16];
    snprintf(want, sizeof want, "'%s'", lit);
    return unexpected(p, want);
}

/* The place of '#(' ID ')' or 'cap(' ID ')'. */
static int place_ref(rate_parser_t *p, unsigned char op)
{
    skip_ws(p);
    size_t n = id_len(p), at = p->pos;
    if (!n)
        return unexpected(p, "a place id");
    char *id = malloc(n + 1);
    if (!id)
        return fail(p, at, "%s", "out of memory");
    memcpy(id, p->s + at, n);
    id[n] = '\0';
    p->pos += n;
    size_t place;
    int found = pni_query_find(p->net, id, PN_PLACE, &place);
    int r = 0;
    if (found)
        r = fail(p, at, "'%s' names no place", id);
    else if (op == R_TOKENS && take(p, ","))
        r = fail(p, at, "'#(%s, colour)' counts tokens of one colour, which "
                        "a place/transition net does not keep", id);
    free(id);
    if (r)
        return r;
    return emit(p, op, place, 0) || expect(p, ")");
}

static int expression(rate_parser_t *p);

static int primary(rate_parser_t *p)
{
    skip_ws(p);
    const char *t = p->s + p->pos;
    if (take(p, "ceil(") || take(p, "floor(")) {
        unsigned char op = *t == 'c' ? R_CEIL : R_FLOOR;
        return expression(p) || expect(p, ")") || emit(p, op, 0, 0);
    }
    if (take(p, "cap("))
        return place_ref(p, R_CAP);
    if (take(p, "#("))
        return place_ref(p, R_TOKENS);
    if (take(p, "("))
        return expression(p) || expect(p, ")");
    if (!is_digit(*t))
        return unexpected(p, "a number, '#(', 'cap(', 'ceil(', 'floor(' or "
                             "'('");
    size_t n = 0;
    while (is_digit(t[n]))
        n++;
    if (t[n] == '.' && is_digit(t[n + 1]))
        for (n++; is_digit(t[n]); n++)
            ;
    p->pos += n;
    return emit(p, R_NUM, 0, strtod(t, NULL));
}

static int term(rate_parser_t *p)
{
    if (primary(p))
        return -1;
    for (;;) {
        unsigned char op;
        if (take(p, "*"))
            op = R_MUL;
        else if (take(p, "/"))
            op = R_DIV;
        else
            return 0;
        if (primary(p) || emit(p, op, 0, 0))
            return -1;
    }
}

static int expression(rate_parser_t *p)
{
    if (term(p))
        return -1;
    for (;;) {
        unsigned char op;
        if (take(p, "+"))
            op = R_ADD;
        else if (take(p, "-"))
            op = R_SUB;
        else
            return 0;
        if (term(p) || emit(p, op, 0, 0))
            return -1;
    }
}

pn_status_t pni_rate_compile(const pn_net_t *net, const char *text,
                             pni_rate_t **out, size_t *errpos, char *why,
                             size_t whylen)
{
    *out = NULL;
    pni_rate_t *e = calloc(1, sizeof *e);
    if (!e)
        return PN_ENOMEM;
    rate_parser_t p = {net, text, 0, e, 0, why, whylen, 0};
    if (!expression(&p)) {
        skip_ws(&p);
        if (text[p.pos])
            unexpected(&p, "an operator");
    }
    if (p.failed) {
        *errpos = p.errpos;
        pni_rate_free(e);
        return PN_EVALUE;
    }
    *out = e;
    return PN_OK;
}

void pni_rate_free(pni_rate_t *e)
{
    if (e)
        free(e->code);
    free(e);
}

double pni_rate_eval(const pni_rate_t *e, const pn_net_t *net,
                     const uint64_t *m)
{
    double st[RATE_STACK];
    size_t sp = 0;
    for (size_t i = 0; i < e->n; i++) {
        const rate_op_t *o = &e->code[i];
        switch (o->op) {
        case R_NUM: st[sp++] = o->num; break;
        case R_TOKENS: st[sp++] = (double)m[o->place]; break;
        case R_CAP:
            st[sp++] = (double)pn_net_place(net, o->place)->capacity;
            break;
        case R_CEIL: st[sp - 1] = ceil(st[sp - 1]); break;
        case R_FLOOR: st[sp - 1] = floor(st[sp - 1]); break;
        default: {
            double b = st[--sp], a = st[sp - 1];
            st[sp - 1] = o->op == R_ADD   ? a + b
                         : o->op == R_SUB ? a - b
                         : o->op == R_MUL ? a * b
                                          : a / b;
        }
        }
    }
    return sp ? st[0] : NAN;
}

int pni_rate_reads(const pni_rate_t *e, size_t place)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->code[i].op == R_TOKENS && e->code[i].place == place)
            return 1;
    return 0;
}

int pni_rate_constant(const pni_rate_t *e)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->code[i].op == R_TOKENS)
            return 0;
    return 1;
}
