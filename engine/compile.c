/*
 * The net compiler: a pn_net_t into the flat arrays of struct pn_engine
 * (engine_private.h) that the runs of engine.c walk.  The arcs per
 * transition (CSR, normal inputs and outputs merged), each transition's
 * record for the walk, the stars (see "the order of a step" in engine.c)
 * and the positions they give the transitions, and enabledness as
 * conditions on single places, narrow and wide.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "engine_private.h"
#include "compiled.h"

/* The fewest members of a star (see "the order of a step"), and the most
 * users of another place of a member */
#define STAR_MIN 16
#define SPOIL_USERS 256

static void csr_free(csr_t *c)
{
    free(c->off);
    free(c->idx);
    free(c->w);
}

size_t pn_engine_place_count(const pn_engine_t *e) { return e ? e->np : 0; }
size_t pn_engine_transition_count(const pn_engine_t *e)
{
    return e ? e->nt : 0;
}

void pn_engine_free(pn_engine_t *e)
{
    if (!e)
        return;
    free(e->m0);
    free(e->cap);
    csr_free(&e->in);
    csr_free(&e->rd);
    csr_free(&e->ih);
    csr_free(&e->rs);
    csr_free(&e->out);
    free(e->out_self);
    free(e->in_shared);
    free(e->ns);
    free(e->tr);
    free(e->farc);
    free(e->pinfo);
    free(e->conds);
    free(e->never);
    free(e->ct);
    free(e->wconds);
    free(e->cls_off);
    free(e->cls_word);
    free(e->cls_mask);
    free(e->pos);
    free(e->tat);
    free(e->wr);
    free(e->splace);
    free(e->sw);
    free(e->sa);
    free(e->um_off);
    free(e->um_word);
    free(e->um_mask);
    free(e->star_of);
    free(e->rel_off);
    free(e->rel);
    free(e->use_off);
    free(e->use);
    free(e);
}

/* Which CSR an arc of the net goes to. */
static csr_t *arc_csr(pn_engine_t *e, const pn_arc_t *a)
{
    if (a->dir == PN_DIR_TP)
        return &e->out;
    switch (a->kind) {
    case PN_ARC_NORMAL: return &e->in;
    case PN_ARC_READ: return &e->rd;
    case PN_ARC_INHIBITOR: return &e->ih;
    case PN_ARC_RESET: return &e->rs;
    }
    return NULL;
}

/* Builds the per-transition CSRs; normal inputs and outputs between the
 * same place and transition are merged (weights added). */
static pn_status_t build_arcs(pn_engine_t *e, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    csr_t *all[5] = {&e->in, &e->rd, &e->ih, &e->rs, &e->out};
    for (int k = 0; k < 5; k++) {
        all[k]->off = calloc((size_t)e->nt + 1, sizeof(uint32_t));
        all[k]->idx = malloc((na + 1) * sizeof(uint32_t));
        all[k]->w = k == 3 ? NULL : malloc((na + 1) * sizeof(uint64_t));
        if (!all[k]->off || !all[k]->idx || (k != 3 && !all[k]->w))
            return PN_ENOMEM;
    }
    /* count per transition, then prefix sums, then fill */
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        arc_csr(e, a)->off[a->transition + 1]++;
    }
    for (int k = 0; k < 5; k++)
        for (uint32_t t = 0; t < e->nt; t++)
            all[k]->off[t + 1] += all[k]->off[t];
    uint32_t *fill[5];
    for (int k = 0; k < 5; k++) {
        fill[k] = malloc(((size_t)e->nt + 1) * sizeof(uint32_t));
        if (!fill[k]) {
            for (int j = 0; j < k; j++)
                free(fill[j]);
            return PN_ENOMEM;
        }
        memcpy(fill[k], all[k]->off, (size_t)e->nt * sizeof(uint32_t));
    }
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        csr_t *c = arc_csr(e, a);
        int k = 0;
        while (all[k] != c)
            k++;
        uint32_t at = fill[k][a->transition]++;
        c->idx[at] = (uint32_t)a->place;
        if (c->w)
            c->w[at] = a->weight;
    }
    for (int k = 0; k < 5; k++)
        free(fill[k]);
    /* merge duplicate normal inputs and outputs (in place, per transition) */
    uint32_t *seen = malloc(((size_t)e->np + 1) * sizeof(uint32_t));
    if (!seen)
        return PN_ENOMEM;
    csr_t *merge[2] = {&e->in, &e->out};
    for (int k = 0; k < 2; k++) {
        csr_t *c = merge[k];
        for (uint32_t p = 0; p < e->np; p++)
            seen[p] = UINT32_MAX;
        uint32_t w = 0, start = 0;
        for (uint32_t t = 0; t < e->nt; t++) {
            uint32_t end = c->off[t + 1];
            uint32_t first = w;
            for (uint32_t j = start; j < end; j++) {
                uint32_t p = c->idx[j];
                if (seen[p] != UINT32_MAX && seen[p] >= first) {
                    c->w[seen[p]] = sat_add(c->w[seen[p]], c->w[j]);
                    continue;
                }
                seen[p] = w;
                c->idx[w] = p;
                c->w[w] = c->w[j];
                w++;
            }
            start = end;
            c->off[t + 1] = w;
        }
    }
    free(seen);
    return PN_OK;
}

/* The threshold of a capacity condition: firing t keeps m(p) - self + w
 * within cap iff m(p) < cap + self - w + 1.  0: never holds. */
static uint64_t cap_threshold(uint64_t cap, uint64_t self, uint64_t w)
{
    uint64_t room = sat_add(cap, self);
    if (w > room)
        return 0;
    return sat_add(room - w, 1);
}

static int cmp_cond(const void *a, const void *b)
{
    const cond_t *x = a, *y = b;
    if (x->th != y->th)
        return x->th < y->th ? -1 : 1;
    if (x->up != y->up)
        return x->up < y->up ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* Collects every condition of the compiled arcs per place, sorted by
 * threshold (then sense, then transition). */
static pn_status_t collect_conds(pn_engine_t *e, uint32_t **offp,
                                 cond_t **allp)
{
    /* pass 0 counts, pass 1 fills */
    uint32_t *off = calloc((size_t)e->np + 2, sizeof *off);
    cond_t *all = NULL;
    uint32_t *fill = NULL;
    *offp = off;
    *allp = NULL;
    if (!off)
        return PN_ENOMEM;
    const csr_t *src[4] = {&e->in, &e->rd, &e->ih, &e->out};
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t t = 0; t < e->nt; t++)
            for (uint32_t k = 0; k < 4; k++) {
                if (k == 3 && !e->has_cap)
                    break;
                uint32_t up = k >= 2;
                for (uint32_t j = src[k]->off[t]; j < src[k]->off[t + 1];
                     j++) {
                    uint32_t p = src[k]->idx[j];
                    uint64_t th = src[k]->w[j];
                    if (k == 3) {
                        if (!e->cap[p])
                            continue;
                        th = cap_threshold(e->cap[p], e->out_self[j], th);
                    }
                    if (th == 0) {
                        /* "m < 0" never holds; "m >= 0" always does (and
                         * does not occur: weights are >= 1) */
                        if (pass == 0 && up)
                            e->never[e->pos[t]]++;
                        continue;
                    }
                    if (pass == 0) {
                        off[p + 1]++;
                    } else {
                        cond_t c = {th, e->pos[t], up};
                        all[fill[p]++] = c;
                    }
                }
            }
        if (pass == 0) {
            for (uint32_t p = 0; p < e->np; p++)
                off[p + 1] += off[p];
            size_t n = off[e->np];
            all = malloc((n + 1) * sizeof *all);
            fill = malloc(((size_t)e->np + 1) * sizeof *fill);
            if (!all || !fill) {
                free(all);
                free(fill);
                return PN_ENOMEM;
            }
            memcpy(fill, off, (size_t)e->np * sizeof *fill);
        }
    }
    free(fill);
    for (uint32_t p = 0; p < e->np; p++)
        qsort(all + off[p], off[p + 1] - off[p], sizeof *all, cmp_cond);
    *allp = all;
    return PN_OK;
}

/* Splits the sorted conditions of each place into the narrow ones (conds)
 * and wide classes (wconds): a run of conditions with one threshold and
 * one sense is a wide class when it has at least 8 transitions and at
 * least 2 per word of the enabled set it touches. */
static pn_status_t build_conds(pn_engine_t *e)
{
    uint32_t *off;
    cond_t *all;
    e->never = calloc((size_t)e->nt + 1, sizeof *e->never);
    if (!e->never)
        return PN_ENOMEM;
    pn_status_t st = collect_conds(e, &off, &all);
    size_t n = off ? off[e->np] : 0;
    uint32_t *nwide = calloc((size_t)e->nt + 1, sizeof *nwide);
    /* whole cache lines */
    size_t pbytes = ((size_t)e->np + 2) * sizeof *e->pinfo;
    e->pinfo = aligned_alloc(64, (pbytes + 63) / 64 * 64);
    if (e->pinfo)
        memset(e->pinfo, 0, pbytes);
    e->conds = malloc((n + 1) * sizeof *e->conds);
    e->wconds = malloc((n + 1) * sizeof *e->wconds);
    e->cls_off = calloc(n + 1, sizeof *e->cls_off);
    e->cls_word = malloc((n + 1) * sizeof *e->cls_word);
    e->cls_mask = malloc((n + 1) * sizeof *e->cls_mask);
    if (!st && (!nwide || !e->pinfo || !e->conds ||
                !e->wconds || !e->cls_off || !e->cls_word || !e->cls_mask))
        st = PN_ENOMEM;
    if (st) {
        free(off);
        free(all);
        free(nwide);
        return st;
    }
    uint32_t nn = 0, nw = 0;
    for (uint32_t p = 0; p < e->np; p++) {
        uint32_t end = off[p + 1];
        pinfo_t *pi = &e->pinfo[p];
        pi->cond = nn;
        pi->wide = nw;
        for (uint32_t a = off[p], b; a < end; a = b) {
            uint32_t count = 1, words = 1;
            for (b = a + 1; b < end && all[b].th == all[a].th &&
                            all[b].up == all[a].up;
                 b++) {
                count += all[b].t != all[b - 1].t;
                words += all[b].t >> 6 != all[b - 1].t >> 6;
            }
            if (count < 8 || 2 * words > count) {
                while (a < b)
                    e->conds[nn++] = all[a++];
                continue;
            }
            uint32_t k = e->nclass++, at = e->cls_off[k];
            for (uint32_t j = a; j < b; j++) {
                uint32_t t = all[j].t;
                if (j > a && t == all[j - 1].t)
                    continue;
                nwide[t]++;
                if (j == a || t >> 6 != all[j - 1].t >> 6) {
                    e->cls_word[at] = t >> 6;
                    e->cls_mask[at++] = 0;
                }
                e->cls_mask[at - 1] |= UINT64_C(1) << (t & 63);
            }
            e->cls_off[k + 1] = at;
            e->wconds[nw] = all[a];
            e->wconds[nw++].t = k;
        }
        pi->ncond = nn - pi->cond;
        pi->nwide = nw - pi->wide;
        pi->min_th = pi->ncond ? e->conds[pi->cond].th : UINT64_MAX;
        pi->max_th = pi->ncond ? e->conds[nn - 1].th : 0;
    }
    e->ct = malloc(((size_t)nn + 1) * sizeof *e->ct);
    if (!e->ct) {
        free(off);
        free(all);
        free(nwide);
        return PN_ENOMEM;
    }
    for (uint32_t j = 0; j < nn; j++)
        e->ct[j] = e->conds[j].t;
    uint32_t most = 0;
    for (uint32_t t = 0; t < e->nt; t++)
        most = nwide[t] > most ? nwide[t] : most;
    while (e->planes < 32 && most >> e->planes)
        e->planes++;
    free(off);
    free(all);
    free(nwide);
    return PN_OK;
}

typedef struct {
    uint32_t takers, p;
    uint64_t w;
} input_t;

static int cmp_input(const void *a, const void *b)
{
    const input_t *x = a, *y = b;
    if (x->takers != y->takers)
        return x->takers > y->takers ? -1 : 1;
    return x->p < y->p ? -1 : x->p > y->p;
}

/* Orders each transition's normal inputs, the places other transitions
 * also take from first, the most taken first (in_shared), and builds the
 * transition records. */
static pn_status_t build_walk(pn_engine_t *e)
{
    size_t ni = e->in.off[e->nt], no = e->out.off[e->nt];
    uint32_t *takers = calloc((size_t)e->np + 1, sizeof *takers);
    input_t *in = malloc((ni + 1) * sizeof *in);
    e->in_shared = malloc(((size_t)e->nt + 1) * sizeof *e->in_shared);
    e->tr = calloc((size_t)e->nt + 1, sizeof *e->tr);
    e->ns = calloc((size_t)e->nt + 1, sizeof *e->ns);
    e->farc = malloc((ni + no + 1) * sizeof *e->farc);
    if (!takers || !in || !e->in_shared || !e->tr || !e->ns || !e->farc) {
        free(takers);
        free(in);
        return PN_ENOMEM;
    }
    for (size_t j = 0; j < ni; j++)
        takers[e->in.idx[j]]++;
    for (uint32_t j = 0; j < e->rs.off[e->nt]; j++)
        takers[e->rs.idx[j]]++;
    for (size_t j = 0; j < ni; j++) {
        in[j].takers = takers[e->in.idx[j]];
        in[j].p = e->in.idx[j];
        in[j].w = e->in.w[j];
    }
    uint32_t n = 0;
    for (uint32_t t = 0; t < e->nt; t++) {
        uint32_t a = e->in.off[t], b = e->in.off[t + 1];
        qsort(in + a, b - a, sizeof *in, cmp_input);
        e->in_shared[t] = a;
        for (uint32_t j = a; j < b; j++) {
            e->in.idx[j] = in[j].p;
            e->in.w[j] = in[j].w;
            if (in[j].takers > 1)
                e->in_shared[t] = j + 1;
        }
        /* the record */
        trec_t *r = &e->tr[t];
        uint32_t ns = e->in_shared[t] - a, oa = e->out.off[t],
                 ob = e->out.off[t + 1];
        r->p1 = e->np;
        int slow = e->rs.off[t + 1] > e->rs.off[t] ||
                   b - a >= SLOW || ob - oa >= SLOW;
        for (uint32_t j = a; j < b; j++)
            slow |= e->in.w[j] > UINT32_MAX;
        for (uint32_t j = oa; j < ob; j++)
            slow |= e->out.w[j] > UINT32_MAX ||
                    (e->has_cap && e->cap[e->out.idx[j]]);
        r->arc = n;
        if (slow) {
            r->nin = SLOW;
            continue;
        }
        if (ns >= 1) {
            r->p1 = e->in.idx[a];
            r->w1 = (uint32_t)e->in.w[a];
        }
        e->ns[t] = (uint16_t)ns;
        r->nin = (uint16_t)(b - a);
        r->nout = (uint16_t)(ob - oa);
        for (uint32_t j = a; j < b; j++) {
            farc_t f = {e->in.idx[j], (uint32_t)e->in.w[j]};
            e->farc[n++] = f;
        }
        for (uint32_t j = oa; j < ob; j++) {
            farc_t f = {e->out.idx[j], (uint32_t)e->out.w[j]};
            e->farc[n++] = f;
        }
    }
    free(takers);
    free(in);
    return PN_OK;
}

/* The places each transition can compete for in a step (rel) and, per
 * place, the transitions that can (users): a place that two transitions
 * take from (normal input, reset) or fill up to a capacity. */
static pn_status_t build_rel(pn_engine_t *e)
{
    uint32_t nt = e->nt, np = e->np;
    uint32_t *cnt = calloc((size_t)np + 1, sizeof *cnt),
             *seen = malloc(((size_t)np + 1) * sizeof *seen);
    e->rel_off = calloc((size_t)nt + 1, sizeof *e->rel_off);
    e->use_off = calloc((size_t)np + 2, sizeof *e->use_off);
    pn_status_t st = PN_ENOMEM;
    if (!cnt || !seen || !e->rel_off || !e->use_off)
        goto out;
    for (uint32_t p = 0; p < np; p++)
        seen[p] = UINT32_MAX;
    /* pass 0: the users of each place (each transition once); pass 1: rel
     * (the places of two users or more); pass 2: users */
    for (int pass = 0; pass < 3; pass++) {
        uint32_t n = 0;
        for (uint32_t t = 0; t < nt; t++) {
            if (pass == 1)
                e->rel_off[t] = n;
            const csr_t *c[3] = {&e->in, &e->rs, &e->out};
            for (int k = 0; k < 3; k++)
                for (uint32_t j = c[k]->off[t]; j < c[k]->off[t + 1]; j++) {
                    uint32_t p = c[k]->idx[j];
                    if (k == 2 && !(e->has_cap && e->cap[p]))
                        continue;
                    if (seen[p] == t)
                        continue;
                    seen[p] = t;
                    if (pass == 0)
                        cnt[p]++;
                    else if (pass == 1 && cnt[p] > 1)
                        e->rel[n++] = p;
                    else if (pass == 2 && cnt[p] > 1)
                        e->use[e->use_off[p + 1]++] = t;
                }
        }
        if (pass == 0) {
            uint32_t tot = 0;
            for (uint32_t p = 0; p < np; p++)
                tot += cnt[p] > 1 ? cnt[p] : 0;
            e->rel = malloc(((size_t)tot + 1) * sizeof *e->rel);
            e->use = malloc(((size_t)tot + 1) * sizeof *e->use);
            if (!e->rel || !e->use)
                goto out;
        } else if (pass == 1) {
            e->rel_off[nt] = n;
            /* use_off[p + 1] counts while filling: start at use_off[p] */
            uint32_t at = 0;
            for (uint32_t p = 0; p < np; p++) {
                e->use_off[p + 1] = at;
                at += cnt[p] > 1 ? cnt[p] : 0;
            }
            for (uint32_t p = 0; p < np; p++)
                seen[p] = UINT32_MAX;
        } else {
            e->use_off[0] = 0;
        }
        if (pass == 0)
            for (uint32_t p = 0; p < np; p++)
                seen[p] = UINT32_MAX;
    }
    st = PN_OK;
out:
    free(cnt);
    free(seen);
    return st;
}

/* The scratch of build_stars(): per transition, its main place (main_of;
 * UINT32_MAX: none), the weight it takes from it (mw), a mark (stamp) and
 * the transitions by main place (byp); per place, its candidates while
 * they are counted (members), their one weight (weight; 0: they differ),
 * its star (star; UINT32_MAX: none) and where its candidates start in byp
 * (first). */
typedef struct {
    uint32_t *main_of, *mw, *stamp, *byp;
    uint32_t *members, *weight, *star, *first;
} stars_work_t;

/* Phase 1: each transition of the fast rule its main place and weight,
 * each place its candidates and their weight. */
static void stars_main(pn_engine_t *e, stars_work_t *wk)
{
    uint32_t *main_of = wk->main_of, *mw = wk->mw, *members = wk->members,
             *weight = wk->weight;
    for (uint32_t t = 0; t < e->nt; t++) {
        main_of[t] = UINT32_MAX;
        e->star_of[t] = UINT32_MAX;
        if (e->tr[t].nin == SLOW)
            continue;
        uint32_t best = UINT32_MAX, most = 0;
        for (uint32_t j = e->rel_off[t]; j < e->rel_off[t + 1]; j++) {
            uint32_t p = e->rel[j], u = e->use_off[p + 1] - e->use_off[p];
            if (u > most || (u == most && p < best)) {
                most = u;
                best = p;
            }
        }
        if (best == UINT32_MAX)
            continue;
        /* a member's other places must be quick to look at (spoils()) */
        int small = 1;
        for (uint32_t j = e->rel_off[t]; j < e->rel_off[t + 1]; j++)
            small &= e->rel[j] == best ||
                     e->use_off[e->rel[j] + 1] - e->use_off[e->rel[j]] <=
                         SPOIL_USERS;
        if (!small)
            continue;
        /* fast rule: every rel place is a normal input (weight < 2^32) */
        for (uint32_t j = e->in.off[t]; j < e->in.off[t + 1]; j++)
            if (e->in.idx[j] == best)
                mw[t] = (uint32_t)e->in.w[j];
        main_of[t] = best;
        if (members[best] == 0)
            weight[best] = mw[t];
        else if (weight[best] != mw[t])
            weight[best] = 0; /* weights differ: no star */
        members[best]++;
    }
}

/* Phase 2: the candidates by main place, each place's in transition order
 * (a counting sort: byp[first[p] .. first[p + 1])). */
static void stars_group(pn_engine_t *e, stars_work_t *wk)
{
    uint32_t nt = e->nt, np = e->np;
    uint32_t *main_of = wk->main_of, *members = wk->members,
             *byp = wk->byp, *first = wk->first;
    for (uint32_t t = 0; t < nt; t++)
        if (main_of[t] != UINT32_MAX)
            first[main_of[t] + 1]++;
    for (uint32_t p = 0; p < np; p++)
        first[p + 1] += first[p];
    for (uint32_t t = 0; t < nt; t++)
        if (main_of[t] != UINT32_MAX)
            byp[first[main_of[t]] + --members[main_of[t]]] = t;
    /* byp[first[p] ..] is now in falling transition order: reverse */
    for (uint32_t p = 0; p < np; p++)
        for (uint32_t i = first[p], j = first[p + 1]; i + 1 < j; i++, j--) {
            uint32_t x = byp[i];
            byp[i] = byp[j - 1];
            byp[j - 1] = x;
        }
}

/* Phase 3: the stars among the candidates (star, e->nstar).  A candidate
 * of kmin members or more and one weight is a star when it can be told
 * clean cheaply: at most twice as many transitions as members can spoil
 * it (compete for p without being members, or with a member for another
 * place; none of the members' other places has more than SPOIL_USERS
 * users). */
static void stars_choose(pn_engine_t *e, stars_work_t *wk, uint32_t kmin)
{
    uint32_t *main_of = wk->main_of, *stamp = wk->stamp, *byp = wk->byp,
             *first = wk->first;
    for (uint32_t t = 0; t < e->nt; t++)
        stamp[t] = UINT32_MAX;
    e->nstar = 0;
    for (uint32_t p = 0; p < e->np; p++) {
        wk->star[p] = UINT32_MAX;
        uint32_t nm = first[p + 1] - first[p];
        if (nm < kmin || kmin == 0 || !wk->weight[p])
            continue;
        uint32_t spoilers = 0, ok = 1;
        for (uint32_t j = e->use_off[p]; j < e->use_off[p + 1]; j++)
            if (main_of[e->use[j]] != p && stamp[e->use[j]] != p) {
                stamp[e->use[j]] = p;
                spoilers++;
            }
        for (uint32_t i = first[p]; ok && i < first[p + 1]; i++) {
            uint32_t t = byp[i];
            for (uint32_t r = e->rel_off[t]; ok && r < e->rel_off[t + 1];
                 r++) {
                uint32_t q = e->rel[r];
                if (q == p)
                    continue;
                if (e->use_off[q + 1] - e->use_off[q] > SPOIL_USERS) {
                    ok = 0;
                    break;
                }
                for (uint32_t j = e->use_off[q]; j < e->use_off[q + 1]; j++)
                    if (e->use[j] != t && stamp[e->use[j]] != p) {
                        stamp[e->use[j]] = p;
                        spoilers++;
                    }
            }
            ok &= spoilers <= 2 * nm;
        }
        if (ok)
            wk->star[p] = e->nstar++;
    }
}

/* Phase 4: the positions (pos, tat: the members of the stars, then the
 * rest), each star's place, weight and range (splace, sw, sa), and the
 * walk's record of each position (wr). */
static pn_status_t stars_number(pn_engine_t *e, const stars_work_t *wk)
{
    uint32_t nt = e->nt, np = e->np, ns = e->nstar;
    e->splace = malloc(((size_t)ns + 1) * sizeof *e->splace);
    e->sw = malloc(((size_t)ns + 1) * sizeof *e->sw);
    e->sa = calloc((size_t)ns + 2, sizeof *e->sa);
    if (!e->splace || !e->sw || !e->sa)
        return PN_ENOMEM;
    uint32_t n = 0;
    for (uint32_t p = 0; p < np; p++)
        if (wk->star[p] != UINT32_MAX) {
            uint32_t k = wk->star[p];
            e->splace[k] = p;
            e->sw[k] = wk->weight[p];
            e->sa[k] = n;
            for (uint32_t i = wk->first[p]; i < wk->first[p + 1]; i++) {
                uint32_t t = wk->byp[i];
                e->star_of[t] = k;
                e->pos[t] = n;
                e->tat[n++] = t;
            }
        }
    e->sa[ns] = n;
    for (uint32_t t = 0; t < nt; t++)
        if (e->star_of[t] == UINT32_MAX) {
            e->pos[t] = n;
            e->tat[n++] = t;
        }
    e->identity = 1;
    for (uint32_t t = 0; t < nt; t++)
        e->identity &= e->pos[t] == t;
    e->wr = malloc(((size_t)nt + 1) * sizeof *e->wr);
    if (!e->wr)
        return PN_ENOMEM;
    for (uint32_t i = 0; i < nt; i++) {
        const trec_t *r = &e->tr[e->tat[i]];
        wrec_t w = {r->p1, r->w1, r->arc, e->tat[i], r->nin,
                    e->ns[e->tat[i]]};
        e->wr[i] = w;
    }
    return PN_OK;
}

/* Phase 5: per star, the transitions that can spoil it as (word, mask)
 * pairs over the positions (um_off, um_word, um_mask), the words in rising
 * order (twice: count, then fill; the words touched listed in byp, which
 * is free now). */
static pn_status_t stars_spoilers(pn_engine_t *e, stars_work_t *wk)
{
    uint32_t ns = e->nstar;
    size_t nwords = ((size_t)e->nt + 63) / 64;
    uint64_t *set = calloc(nwords + 1, sizeof *set);
    e->um_off = calloc((size_t)ns + 2, sizeof *e->um_off);
    if (!set || !e->um_off) {
        free(set);
        return PN_ENOMEM;
    }
    uint32_t *words = wk->byp;
    pn_status_t st = PN_OK;
    e->swords_max = 0;
    for (int fill = 0; fill < 2; fill++) {
        uint32_t at = 0;
        for (uint32_t k = 0; k < ns; k++) {
            uint32_t p = e->splace[k], nw = 0;
            uint32_t w0 = e->sa[k] / 64, w1 = (e->sa[k + 1] + 63) / 64;
            if (w1 - w0 > e->swords_max)
                e->swords_max = w1 - w0;
#define SPOILER(t)                                                        \
    do {                                                                  \
        uint32_t i_ = e->pos[t];                                          \
        if (!set[i_ / 64])                                                \
            words[nw++] = i_ / 64;                                        \
        set[i_ / 64] |= UINT64_C(1) << (i_ % 64);                         \
    } while (0)
            for (uint32_t j = e->use_off[p]; j < e->use_off[p + 1]; j++)
                if (e->star_of[e->use[j]] != k)
                    SPOILER(e->use[j]);
            for (uint32_t i = e->sa[k]; i < e->sa[k + 1]; i++) {
                uint32_t t = e->tat[i];
                for (uint32_t r = e->rel_off[t]; r < e->rel_off[t + 1]; r++) {
                    uint32_t q = e->rel[r];
                    if (q == p)
                        continue;
                    for (uint32_t j = e->use_off[q]; j < e->use_off[q + 1];
                         j++)
                        if (e->use[j] != t)
                            SPOILER(e->use[j]);
                }
            }
#undef SPOILER
            qsort(words, nw, sizeof *words, cmp_u32);
            for (uint32_t i = 0; i < nw; i++) {
                if (fill) {
                    e->um_word[at + i] = words[i];
                    e->um_mask[at + i] = set[words[i]];
                }
                set[words[i]] = 0;
            }
            e->um_off[k] = at;
            at += nw;
        }
        e->um_off[ns] = at;
        if (!fill) {
            e->um_word = malloc(((size_t)at + 1) * sizeof *e->um_word);
            e->um_mask = malloc(((size_t)at + 1) * sizeof *e->um_mask);
            if (!e->um_word || !e->um_mask) {
                st = PN_ENOMEM;
                break;
            }
        }
    }
    free(set);
    return st;
}

/* The stars: a place p that is the main place (of its places that others
 * compete for, the one of most users; the first of them) of at least kmin
 * transitions of the fast rule (no reset, no capacity output; no other
 * place of more than SPOIL_USERS users), all taking the same weight from
 * p, and of at most twice as many possible spoilers as members.  Numbers
 * the positions: the members of each star in one range, in the order of
 * the stars' places, then the other transitions, each group in transition
 * order. */
static pn_status_t build_stars(pn_engine_t *e, uint32_t kmin)
{
    size_t nt = e->nt, np = e->np;
    pn_status_t st = build_rel(e);
    if (st)
        return st;
    stars_work_t wk = {
        .main_of = malloc((nt + 1) * sizeof(uint32_t)),
        .mw = malloc((nt + 1) * sizeof(uint32_t)),
        .stamp = malloc((nt + 1) * sizeof(uint32_t)),
        .byp = malloc((nt + 1) * sizeof(uint32_t)),
        .members = calloc(np + 1, sizeof(uint32_t)),
        .weight = calloc(np + 1, sizeof(uint32_t)),
        .star = malloc((np + 1) * sizeof(uint32_t)),
        .first = calloc(np + 2, sizeof(uint32_t)),
    };
    e->pos = malloc((nt + 1) * sizeof *e->pos);
    e->tat = malloc((nt + 1) * sizeof *e->tat);
    e->star_of = malloc((nt + 1) * sizeof *e->star_of);
    st = PN_ENOMEM;
    if (wk.main_of && wk.mw && wk.stamp && wk.byp && wk.members &&
        wk.weight && wk.star && wk.first && e->pos && e->tat && e->star_of) {
        stars_main(e, &wk);
        stars_group(e, &wk);
        stars_choose(e, &wk, kmin);
        if ((st = stars_number(e, &wk)) == PN_OK)
            st = stars_spoilers(e, &wk);
    }
    free(wk.main_of);
    free(wk.mw);
    free(wk.stamp);
    free(wk.byp);
    free(wk.members);
    free(wk.weight);
    free(wk.star);
    free(wk.first);
    return st;
}

pn_status_t pni_engine_compile_stars(const pn_net_t *net, uint32_t kmin,
                                     pn_engine_t **out)
{
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net),
           na = pn_net_arc_count(net);
    /* transitions: positions << 1 in 32 bits */
    if (np >= UINT32_MAX || nt >= UINT32_MAX / 2 || na >= UINT32_MAX)
        return PN_ERANGE;
    pn_engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return PN_ENOMEM;
    e->np = (uint32_t)np;
    e->nt = (uint32_t)nt;
    pni_engine_set_popcnt(e, 1); /* where the processor has it */
    e->m0 = malloc((np + 1) * sizeof *e->m0);
    e->cap = malloc((np + 1) * sizeof *e->cap);
    pn_status_t st = PN_ENOMEM;
    if (!e->m0 || !e->cap)
        goto fail;
    for (size_t p = 0; p < np; p++) {
        const pn_place_t *pl = pn_net_place(net, p);
        e->m0[p] = pl->marking;
        e->cap[p] = pl->capacity;
        e->has_cap |= pl->capacity != 0;
    }
    if ((st = build_arcs(e, net)) != PN_OK)
        goto fail;
    if (e->has_cap) {
        /* what each transition takes from each of its output places */
        uint32_t no = e->out.off[e->nt];
        e->out_self = calloc((size_t)no + 1, sizeof *e->out_self);
        if (!e->out_self) {
            st = PN_ENOMEM;
            goto fail;
        }
        for (uint32_t t = 0; t < e->nt; t++)
            for (uint32_t j = e->out.off[t]; j < e->out.off[t + 1]; j++)
                for (uint32_t k = e->in.off[t]; k < e->in.off[t + 1]; k++)
                    if (e->in.idx[k] == e->out.idx[j])
                        e->out_self[j] = e->in.w[k];
    }
    if ((st = build_walk(e)) != PN_OK ||
        (st = build_stars(e, kmin)) != PN_OK ||
        (st = build_conds(e)) != PN_OK)
        goto fail;
    /* a transition, and about a quarter of its tests (the first that
     * fails ends them) */
    e->scan_cost = e->nt + ((uint64_t)e->in.off[e->nt] + e->rd.off[e->nt] +
                            e->ih.off[e->nt]) / 4 + 1;
    *out = e;
    return PN_OK;
fail:
    pn_engine_free(e);
    return st;
}

pn_status_t pn_engine_compile(const pn_net_t *net, pn_engine_t **out)
{
    return pni_engine_compile_stars(net, STAR_MIN, out);
}
