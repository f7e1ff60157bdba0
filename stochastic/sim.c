/* One run of a GSPN in continuous time (pn/sim_gspn.h): the net compiled
 * into flat tests and effects, the race with enabling memory, and the
 * random stream (Philox4x32-10). */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "sim_private.h"

/* ---- the random stream ------------------------------------------------- */

/* Philox4x32-10 as Random123 defines it (philox.h): ten rounds, the key
 * bumped by the Weyl constants between rounds. */
void pni_philox4x32(const uint32_t key[2], const uint32_t ctr[4],
                    uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int i = 0; i < 10; i++) {
        uint64_t p0 = (uint64_t)UINT32_C(0xD2511F53) * c0;
        uint64_t p1 = (uint64_t)UINT32_C(0xCD9E8D57) * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c0 = n0;
        c1 = (uint32_t)p1;
        c2 = n2;
        c3 = (uint32_t)p0;
        k0 += UINT32_C(0x9E3779B9);
        k1 += UINT32_C(0xBB67AE85);
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* A uniform number in (0, 1), never 0 (its log is taken): 53 bits. */
static inline double uniform(pni_sim_run_t *r)
{
    if (r->nbuf == 0) {
        pni_philox4x32(r->key, r->ctr, r->buf);
        if (++r->ctr[0] == 0)
            r->ctr[1]++;
        r->nbuf = 4;
    }
    uint64_t x = (uint64_t)r->buf[r->nbuf - 1] << 32 | r->buf[r->nbuf - 2];
    r->nbuf -= 2;
    return ((double)(x >> 11) + 0.5) * 0x1p-53;
}

/* ---- the net compiled --------------------------------------------------- */

void pni_sim_model_free(pni_sim_model_t *md)
{
    free(md->m0);
    free(md->toff);
    free(md->tests);
    free(md->never);
    free(md->eoff);
    free(md->eff);
    free(md->doff);
    free(md->dep);
    free(md->kind);
    free(md->rate);
    for (size_t t = 0; md->expr && t < md->nt; t++)
        pni_rate_free(md->expr[t]);
    free(md->expr);
    free(md->inf);
    free(md->pos);
    free(md->exps);
    free(md->imms);
    free(md->iprio);
    free(md->dets);
    memset(md, 0, sizeof *md);
}

/* The tests and effects of transition t appended (arcs of t in a). */
static void compile_transition(pni_sim_model_t *md, size_t t,
                               const pn_arc_t *const *a, size_t na,
                               size_t *nt_, size_t *ne_)
{
    const pn_net_t *net = md->net;
    size_t ntest = *nt_, neff = *ne_;
    for (size_t k = 0; k < na; k++) {
        const pn_arc_t *arc = a[k];
        if (arc->dir != PN_DIR_PT || arc->kind == PN_ARC_RESET)
            continue;
        md->tests[ntest++] = (pni_sim_test_t){
            (uint32_t)arc->place,
            arc->kind == PN_ARC_INHIBITOR ? PNI_SIM_LT : PNI_SIM_GE,
            arc->weight, arc->kind == PN_ARC_NORMAL};
    }
    /* the effect on each place the transition touches, once a place */
    for (size_t k = 0; k < na; k++) {
        const pn_arc_t *arc = a[k];
        if (arc->kind == PN_ARC_INHIBITOR || arc->kind == PN_ARC_READ)
            continue;
        size_t e = *ne_;
        while (e < neff && md->eff[e].place != arc->place)
            e++;
        if (e == neff)
            md->eff[neff++] = (pni_sim_effect_t){(uint32_t)arc->place, 0, 0,
                                                 0};
        if (arc->kind == PN_ARC_RESET)
            md->eff[e].reset = 1;
        else if (arc->dir == PN_DIR_PT)
            md->eff[e].pre += arc->weight;
        else
            md->eff[e].post += arc->weight;
    }
    /* capacities: the place after firing within its capacity */
    for (size_t e = *ne_; e < neff; e++) {
        pni_sim_effect_t *f = &md->eff[e];
        uint64_t cap = pn_net_place(net, f->place)->capacity;
        if (!cap || (!f->reset && f->post <= f->pre))
            continue;
        if (f->reset) {
            if (f->post > cap)
                md->never[t] = 1;
        } else if (cap + f->pre < f->post) {
            md->never[t] = 1;
        } else {
            md->tests[ntest++] = (pni_sim_test_t){
                f->place, PNI_SIM_LE, cap + f->pre - f->post, 0};
        }
    }
    *nt_ = ntest;
    *ne_ = neff;
}

/* The transitions whose rate is an expression reading a place t changes:
 * looked at again after t fires too.  -1 when out of memory. */
static int add_rate_deps(pni_sim_model_t *md, size_t t, size_t *stamp,
                         size_t mark, size_t *cap, size_t *n)
{
    for (size_t u = 0; u < md->nt; u++) {
        if (!md->expr[u] || stamp[u] == mark)
            continue;
        for (size_t e = md->eoff[t]; e < md->eoff[t + 1]; e++) {
            const pni_sim_effect_t *f = &md->eff[e];
            if ((!f->reset && f->pre == f->post) ||
                !pni_rate_reads(md->expr[u], f->place))
                continue;
            stamp[u] = mark;
            if (pni_grow((void **)&md->dep, cap, *n + 1, sizeof *md->dep))
                return -1;
            md->dep[(*n)++] = (uint32_t)u;
            break;
        }
    }
    return 0;
}

/* The transitions to look at again after t fires: those that test a place
 * t changes, and t itself (a deterministic clock starts again). */
static pn_status_t compile_deps(pni_sim_model_t *md)
{
    size_t np = md->np, nt = md->nt;
    size_t *roff = calloc(np + 1, sizeof *roff);
    uint32_t *rd = malloc((md->toff[nt] + 1) * sizeof *rd);
    size_t *stamp = calloc(nt, sizeof *stamp);
    size_t cap = 0, n = 0;
    md->doff = calloc(nt + 1, sizeof *md->doff);
    pn_status_t st = roff && rd && stamp && md->doff ? PN_OK : PN_ENOMEM;
    for (size_t i = 0; !st && i < md->toff[nt]; i++)
        roff[md->tests[i].place + 1]++;
    for (size_t p = 0; !st && p < np; p++)
        roff[p + 1] += roff[p];
    /* the readers of each place (a reader may repeat: the stamps below
     * take each once) */
    size_t *fill = st ? NULL : calloc(np + 1, sizeof *fill);
    if (!st && !fill)
        st = PN_ENOMEM;
    for (size_t t = 0; !st && t < nt; t++)
        for (size_t i = md->toff[t]; i < md->toff[t + 1]; i++) {
            size_t p = md->tests[i].place;
            rd[roff[p] + fill[p]++] = (uint32_t)t;
        }
    for (size_t t = 0; !st && t < nt; t++) {
        size_t mark = t + 1;
        if (pni_grow((void **)&md->dep, &cap, n + 1, sizeof *md->dep)) {
            st = PN_ENOMEM;
            break;
        }
        md->dep[n++] = (uint32_t)t;
        stamp[t] = mark;
        for (size_t e = md->eoff[t]; !st && e < md->eoff[t + 1]; e++) {
            const pni_sim_effect_t *f = &md->eff[e];
            if (!f->reset && f->pre == f->post)
                continue;
            for (size_t j = roff[f->place]; j < roff[f->place] + fill[f->place];
                 j++) {
                if (stamp[rd[j]] == mark)
                    continue;
                stamp[rd[j]] = mark;
                if (pni_grow((void **)&md->dep, &cap, n + 1,
                             sizeof *md->dep)) {
                    st = PN_ENOMEM;
                    break;
                }
                md->dep[n++] = rd[j];
            }
        }
        if (!st && add_rate_deps(md, t, stamp, mark, &cap, &n))
            st = PN_ENOMEM;
        md->doff[t + 1] = n;
    }
    free(fill);
    free(roff);
    free(rd);
    free(stamp);
    return st;
}

/* Sorts the immediate transitions by decreasing priority (stable). */
static void sort_immediate(pni_sim_model_t *md)
{
    for (uint32_t i = 1; i < md->nimm; i++) {
        uint32_t t = md->imms[i];
        int p = md->iprio[i];
        uint32_t j = i;
        for (; j > 0 && md->iprio[j - 1] < p; j--) {
            md->imms[j] = md->imms[j - 1];
            md->iprio[j] = md->iprio[j - 1];
        }
        md->imms[j] = t;
        md->iprio[j] = p;
    }
    for (uint32_t i = 0; i < md->nimm; i++)
        md->pos[md->imms[i]] = i;
}

/* The timing of each transition, in the lists of its kind. */
static pn_status_t compile_timing(pni_sim_model_t *md, pn_error_t *err)
{
    for (size_t t = 0; t < md->nt; t++) {
        const pn_transition_t *tr = pn_net_transition(md->net, t);
        if (tr->timing_lost)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "transition %s: its file gave a timing that was "
                             "not read (a rate or priority that is not a number)",
                             tr->id);
        pn_timing_t k = tr->timing == PN_TIMING_NONE ? PN_TIMING_EXPONENTIAL
                                                     : tr->timing;
        md->kind[t] = (unsigned char)k;
        md->rate[t] = tr->timing == PN_TIMING_NONE ? PN_DEFAULT_RATE
                                                   : tr->rate;
        if (tr->rate_expr) {
            char why[200];
            size_t at;
            pn_status_t st = pni_rate_compile(md->net, tr->rate_expr,
                                              &md->expr[t], &at, why,
                                              sizeof why);
            if (st)
                return st == PN_ENOMEM
                           ? st
                           : pni_error(err, PN_EINVAL, 0, 0,
                                       "transition %s: rate '%s': %s",
                                       tr->id, tr->rate_expr, why);
        }
        md->inf[t] = tr->server == PN_SERVER_INFINITE ? UINT64_MAX
                     : tr->server == PN_SERVER_K ? tr->servers : 1;
        if (k == PN_TIMING_DETERMINISTIC && md->inf[t] != 1)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "transition %s: a deterministic delay with "
                             "more than one server is not simulated (which "
                             "clock a disabling stops is not defined)",
                             tr->id);
        if (k == PN_TIMING_EXPONENTIAL) {
            md->pos[t] = md->nexp;
            md->exps[md->nexp++] = (uint32_t)t;
        } else if (k == PN_TIMING_IMMEDIATE) {
            md->iprio[md->nimm] = tr->priority;
            md->imms[md->nimm++] = (uint32_t)t;
        } else {
            md->pos[t] = md->ndet;
            md->dets[md->ndet++] = (uint32_t)t;
        }
    }
    sort_immediate(md);
    return PN_OK;
}

pn_status_t pni_sim_model_init(pni_sim_model_t *md, const pn_net_t *net,
                               const pn_gspn_sim_options_t *o,
                               pn_error_t *err)
{
    memset(md, 0, sizeof *md);
    md->net = net;
    md->np = pn_net_place_count(net);
    md->nt = pn_net_transition_count(net);
    md->nc = o->nconditions;
    md->conds = o->conditions;
    size_t np = md->np, nt = md->nt, na = pn_net_arc_count(net);
    if (np >= UINT32_MAX || nt >= UINT32_MAX)
        return pni_error(err, PN_ETOOBIG, 0, 0, "the net is too large");
    md->m0 = malloc((np + 1) * sizeof *md->m0);
    md->toff = calloc(nt + 1, sizeof *md->toff);
    md->eoff = calloc(nt + 1, sizeof *md->eoff);
    md->tests = malloc((2 * na + 1) * sizeof *md->tests);
    md->eff = malloc((na + 1) * sizeof *md->eff);
    md->never = calloc(nt + 1, 1);
    md->kind = calloc(nt + 1, 1);
    md->inf = calloc(nt + 1, sizeof *md->inf);
    md->rate = calloc(nt + 1, sizeof *md->rate);
    md->expr = calloc(nt + 1, sizeof *md->expr);
    md->pos = calloc(nt + 1, sizeof *md->pos);
    md->exps = malloc((nt + 1) * sizeof *md->exps);
    md->imms = malloc((nt + 1) * sizeof *md->imms);
    md->iprio = malloc((nt + 1) * sizeof *md->iprio);
    md->dets = malloc((nt + 1) * sizeof *md->dets);
    /* the arcs of each transition */
    size_t *aoff = calloc(nt + 2, sizeof *aoff);
    const pn_arc_t **arcs = malloc((na + 1) * sizeof *arcs);
    if (!md->m0 || !md->toff || !md->eoff || !md->tests || !md->eff ||
        !md->never || !md->kind || !md->inf || !md->rate || !md->expr || !md->pos ||
        !md->exps || !md->imms || !md->iprio || !md->dets || !aoff ||
        !arcs) {
        free(aoff);
        free(arcs);
        return PN_ENOMEM;
    }
    for (size_t p = 0; p < np; p++)
        md->m0[p] = pn_net_place(net, p)->marking;
    for (size_t a = 0; a < na; a++)
        aoff[pn_net_arc(net, a)->transition + 2]++;
    for (size_t t = 0; t < nt; t++)
        aoff[t + 2] += aoff[t + 1];
    for (size_t a = 0; a < na; a++)
        arcs[aoff[pn_net_arc(net, a)->transition + 1]++] = pn_net_arc(net, a);
    size_t ntest = 0, neff = 0;
    for (size_t t = 0; t < nt; t++) {
        compile_transition(md, t, arcs + aoff[t], aoff[t + 1] - aoff[t],
                           &ntest, &neff);
        md->toff[t + 1] = ntest;
        md->eoff[t + 1] = neff;
    }
    free(aoff);
    free(arcs);
    pn_status_t st = compile_timing(md, err);
    if (!st)
        st = compile_deps(md);
    return st == PN_ENOMEM ? pni_error(err, st, 0, 0, "out of memory") : st;
}

/* ---- one run ------------------------------------------------------------ */

/* Whether t is enabled at r->m, and its enabling degree in *deg. */
static inline int enabled(const pni_sim_run_t *r, size_t t, uint64_t *deg)
{
    const pni_sim_model_t *md = r->md;
    uint64_t d = UINT64_MAX;
    if (md->never[t])
        return 0;
    for (size_t i = md->toff[t]; i < md->toff[t + 1]; i++) {
        const pni_sim_test_t *x = &md->tests[i];
        uint64_t v = r->m[x->place];
        if (x->kind == PNI_SIM_GE) {
            if (v < x->w)
                return 0;
            if (x->degree && v / x->w < d)
                d = v / x->w;
        } else if (x->kind == PNI_SIM_LT ? v >= x->w : v > x->w) {
            return 0;
        }
    }
    *deg = d;
    return 1;
}

/* t's rate, weight or delay now: its number, or its expression's value
 * at the marking (a value that is not a finite number >= 0 stops the run,
 * PNI_SIM_BADRATE, and counts as 0 until then). */
static inline double rate_of(pni_sim_run_t *r, size_t t)
{
    const pni_sim_model_t *md = r->md;
    if (!md->expr[t])
        return md->rate[t];
    double v = pni_rate_eval(md->expr[t], md->net, r->m);
    if (isfinite(v) && v >= 0)
        return v;
    if (!r->bad) {
        r->bad = 1;
        r->overflow_place = t;
    }
    return 0;
}

/* Looks at t again: its enabling, rate or clock. */
static inline void update(pni_sim_run_t *r, size_t t)
{
    const pni_sim_model_t *md = r->md;
    uint64_t deg = 1;
    int on = enabled(r, t, &deg);
    int was = r->on[t];
    r->on[t] = (unsigned char)on;
    switch (md->kind[t]) {
    case PN_TIMING_EXPONENTIAL: {
        /* k servers: as many firings under way as the enabling degree
         * allows, k at most */
        double base = on ? rate_of(r, t) : 0;
        double rate = !on ? 0
                      : md->inf[t] > 1 && deg != UINT64_MAX
                          ? base *
                                (double)(deg < md->inf[t] ? deg : md->inf[t])
                          : base;
        uint32_t i = md->pos[t];
        r->tot += rate - r->er[i];
        r->bs[i >> PNI_SIM_BLOCK] += rate - r->er[i];
        r->er[i] = rate;
        r->nexp_on += on - was;
        break;
    }
    case PN_TIMING_IMMEDIATE:
        if (on && md->expr[t])
            rate_of(r, t); /* checked now, drawn by pick_immediate() */
        r->nimm_on += on - was;
        break;
    default:
        if (on && !was)
            r->dl[md->pos[t]] = r->now + rate_of(r, t);
        else if (!on)
            r->dl[md->pos[t]] = INFINITY;
        r->ndet_on += on - was;
        break;
    }
}

void pni_sim_run_free(pni_sim_run_t *r)
{
    free(r->m);
    free(r->on);
    free(r->er);
    free(r->bs);
    free(r->dl);
    free(r->counts);
    free(r->area);
    free(r->last);
    free(r->cv);
    free(r->carea);
    memset(r, 0, sizeof *r);
}

static int eval_sum(const pni_sim_run_t *r, const pn_qsum_t *s, uint64_t *v)
{
    uint64_t x = s->constant;
    for (size_t i = 0; i < s->nplaces; i++)
        x += r->m[s->places[i]];
    *v = x;
    return 0;
}

static int eval(const pni_sim_run_t *r, const pn_qformula_t *f)
{
    uint64_t a, b;
    switch (f->kind) {
    case PN_QF_TRUE: return 1;
    case PN_QF_DEADLOCK:
        return r->nexp_on + r->nimm_on + r->ndet_on == 0;
    case PN_QF_FIREABLE:
        for (size_t i = 0; i < f->nitems; i++)
            if (r->on[f->items[i]])
                return 1;
        return 0;
    case PN_QF_CMP:
        eval_sum(r, &f->lhs, &a);
        eval_sum(r, &f->rhs, &b);
        switch (f->op) {
        case PN_QCMP_LT: return a < b;
        case PN_QCMP_LE: return a <= b;
        case PN_QCMP_EQ: return a == b;
        case PN_QCMP_NE: return a != b;
        case PN_QCMP_GE: return a >= b;
        default: return a > b;
        }
    case PN_QF_NOT: return !eval(r, f->kids[0]);
    case PN_QF_AND:
        for (size_t i = 0; i < f->nkids; i++)
            if (!eval(r, f->kids[i]))
                return 0;
        return 1;
    case PN_QF_OR:
        for (size_t i = 0; i < f->nkids; i++)
            if (eval(r, f->kids[i]))
                return 1;
        return 0;
    default: return 0; /* FALSE; temporal operators are refused before */
    }
}

int pni_sim_cond(const pni_sim_run_t *r, size_t c)
{
    return r->cv[c];
}

static void eval_conds(pni_sim_run_t *r)
{
    for (size_t c = 0; c < r->md->nc; c++)
        r->cv[c] = (unsigned char)eval(r, r->md->conds[c]);
}

pn_status_t pni_sim_run_init(pni_sim_run_t *r, const pni_sim_model_t *md,
                             uint64_t seed, uint64_t stream)
{
    memset(r, 0, sizeof *r);
    r->md = md;
    r->key[0] = (uint32_t)seed;
    r->key[1] = (uint32_t)(seed >> 32);
    r->ctr[2] = (uint32_t)stream;
    r->ctr[3] = (uint32_t)(stream >> 32);
    size_t np = md->np, nt = md->nt;
    r->m = malloc((np + 1) * sizeof *r->m);
    r->on = calloc(nt + 1, 1);
    r->er = calloc(md->nexp + 1, sizeof *r->er);
    r->bs = calloc((md->nexp >> PNI_SIM_BLOCK) + 1, sizeof *r->bs);
    r->dl = malloc((md->ndet + 1) * sizeof *r->dl);
    r->counts = calloc(nt + 1, sizeof *r->counts);
    r->area = calloc(np + 1, sizeof *r->area);
    r->last = calloc(np + 1, sizeof *r->last);
    r->cv = calloc(md->nc + 1, 1);
    r->carea = calloc(md->nc + 1, sizeof *r->carea);
    if (!r->m || !r->on || !r->er || !r->bs || !r->dl || !r->counts || !r->area ||
        !r->last || !r->cv || !r->carea) {
        pni_sim_run_free(r);
        return PN_ENOMEM;
    }
    memcpy(r->m, md->m0, np * sizeof *r->m);
    for (uint32_t i = 0; i < md->ndet; i++)
        r->dl[i] = INFINITY;
    for (size_t t = 0; t < nt; t++)
        update(r, t);
    eval_conds(r);
    return PN_OK;
}

/* Fires t at r->now.  Returns 0, PNI_SIM_OVERFLOW or PNI_SIM_BADRATE. */
static int fire(pni_sim_run_t *r, size_t t)
{
    const pni_sim_model_t *md = r->md;
    const pni_sim_effect_t *f = md->eff + md->eoff[t],
                           *end = md->eff + md->eoff[t + 1];
    for (const pni_sim_effect_t *e = f; e < end; e++)
        if (!e->reset && e->post > e->pre &&
            r->m[e->place] > PN_TOKENS_MAX - (e->post - e->pre)) {
            r->overflow_place = e->place;
            return PNI_SIM_OVERFLOW;
        }
    for (const pni_sim_effect_t *e = f; e < end; e++) {
        uint32_t p = e->place;
        r->area[p] += (double)r->m[p] * (r->now - r->last[p]);
        r->last[p] = r->now;
        r->m[p] = (e->reset ? 0 : r->m[p] - e->pre) + e->post;
    }
    r->counts[t]++;
    r->firings++;
    if (md->kind[t] == PN_TIMING_DETERMINISTIC)
        r->on[t] = 0; /* its clock ran out: a new one if still enabled */
    for (size_t i = md->doff[t]; i < md->doff[t + 1]; i++)
        update(r, md->dep[i]);
    if (md->nc)
        eval_conds(r);
    return r->bad ? PNI_SIM_BADRATE : 0;
}

/* The immediate transition to fire: the highest priority first, then by
 * weight (uniformly when their weights are all 0). */
static size_t pick_immediate(pni_sim_run_t *r)
{
    const pni_sim_model_t *md = r->md;
    uint32_t i = 0;
    while (!r->on[md->imms[i]])
        i++;
    int prio = md->iprio[i];
    double sum = 0;
    uint32_t n = 0, j = i;
    for (; j < md->nimm && md->iprio[j] == prio; j++)
        if (r->on[md->imms[j]]) {
            sum += rate_of(r, md->imms[j]);
            n++;
        }
    double u = uniform(r);
    if (!(sum > 0)) {
        uint32_t k = (uint32_t)(u * n);
        for (; i < j; i++)
            if (r->on[md->imms[i]] && k-- == 0)
                return md->imms[i];
    }
    double x = u * sum;
    size_t lastok = md->imms[i];
    for (; i < j; i++) {
        size_t t = md->imms[i];
        if (!r->on[t])
            continue;
        lastok = t;
        x -= rate_of(r, t);
        if (x < 0)
            return t;
    }
    return lastok; /* rounding */
}

/* The exponential transition to fire, by rate: the block of 2^BLOCK
 * rates by the block sums, then the rate in it, so that a net of many
 * transitions costs their square root a firing. */
static size_t pick_exponential(pni_sim_run_t *r)
{
    const pni_sim_model_t *md = r->md;
    double x = uniform(r) * r->tot;
    size_t lastok = SIZE_MAX;
    uint32_t nb = ((md->nexp - 1) >> PNI_SIM_BLOCK) + 1;
    for (uint32_t b = 0; b < nb; b++) {
        if (!(r->bs[b] > 0))
            continue;
        if (x >= r->bs[b] && b + 1 < nb) {
            x -= r->bs[b];
            continue;
        }
        uint32_t end = (b + 1) << PNI_SIM_BLOCK;
        for (uint32_t i = b << PNI_SIM_BLOCK; i < end && i < md->nexp; i++) {
            if (r->er[i] <= 0)
                continue;
            lastok = i;
            x -= r->er[i];
            if (x < 0)
                return md->exps[i];
        }
        if (lastok != SIZE_MAX)
            return md->exps[lastok]; /* rounding */
    }
    /* rounding past the last block with a rate: the last rate there is */
    for (uint32_t i = md->nexp; i-- > 0;)
        if (r->er[i] > 0)
            return md->exps[i];
    return md->exps[0];
}

/* Time moves on to t: the conditions' times grow. */
static inline void advance(pni_sim_run_t *r, double t)
{
    for (size_t c = 0; c < r->md->nc; c++)
        if (r->cv[c])
            r->carea[c] += t - r->now;
    r->now = t;
}

int pni_sim_until(pni_sim_run_t *r, double t_end, uint64_t max_firings)
{
    const pni_sim_model_t *md = r->md;
    if (r->bad)
        return PNI_SIM_BADRATE;
    while (r->firings < max_firings) {
        size_t t;
        if (r->nimm_on) {
            if (++r->zero > UINT64_C(10000000))
                return PNI_SIM_LOOP;
            t = pick_immediate(r);
        } else {
            r->zero = 0;
            if (++r->since_sum >= 65536) {
                /* the running sum drifts by rounding: summed afresh */
                double s = 0;
                for (uint32_t i = 0; i < md->nexp; i++) {
                    if (!(i & ((1u << PNI_SIM_BLOCK) - 1)))
                        r->bs[i >> PNI_SIM_BLOCK] = 0;
                    r->bs[i >> PNI_SIM_BLOCK] += r->er[i];
                    s += r->er[i];
                }
                r->tot = s;
                r->since_sum = 0;
            }
            double te = INFINITY, td = INFINITY;
            if (r->nexp_on)
                te = r->now - log(uniform(r)) / r->tot;
            uint32_t di = 0;
            for (uint32_t i = 0; r->ndet_on && i < md->ndet; i++)
                if (r->dl[i] < td) {
                    td = r->dl[i];
                    di = i;
                }
            if (te == INFINITY && td == INFINITY)
                return PNI_SIM_DEAD;
            if (te > t_end && td > t_end) {
                /* an exponential clock has no memory: drawn again later */
                advance(r, t_end);
                return PNI_SIM_TIME;
            }
            if (te < td) {
                advance(r, te);
                t = pick_exponential(r);
            } else {
                advance(r, td);
                t = md->dets[di];
            }
        }
        int rc = fire(r, t);
        if (rc)
            return rc;
    }
    return PNI_SIM_LIMIT;
}

void pni_sim_flush(pni_sim_run_t *r)
{
    for (size_t p = 0; p < r->md->np; p++) {
        r->area[p] += (double)r->m[p] * (r->now - r->last[p]);
        r->last[p] = r->now;
    }
}
