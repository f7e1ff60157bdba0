/*
 * Folded groups (pn_dot_options_t's fold): the groups drawn as boxes in
 * one cluster and the arcs into them bundled, for pn_dot_render()
 * (dot.c).
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "render_private.h"

/* ---- folded groups --------------------------------------------------------
 * With o->fold, the first group of two or more nodes is drawn in full and
 * every later one as a single box: its name, its marked places by short
 * label (":n" for more than one token) and the transitions fired, in a
 * grid of boxes in one cluster.  The arcs between a folded group and a
 * node outside it are drawn once per node, direction and kind, from the
 * cluster's edge (Graphviz's compound edges), labelled with the number of
 * arcs they stand for: a 64-warp GPU net is one warp, 63 boxes and four
 * arcs into the scheduler part. */

/* Nodes per group (ngroups + 1 entries); NULL when out of memory. */
size_t *pni_dot_group_sizes(const pn_net_t *net, const pn_groups_t *gr)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t *size = calloc(gr->ngroups + 1, sizeof *size);
    for (size_t i = 0; size && i < np + nt; i++) {
        size_t k = i < np ? gr->place_group[i] : gr->transition_group[i - np];
        if (k < gr->ngroups)
            size[k]++;
    }
    return size;
}

/* Marks the groups folded (one flag per group); returns how many. */
size_t pni_dot_fold_plan(const pn_groups_t *gr, const size_t *size,
                         unsigned char *folded)
{
    size_t n = 0;
    int full = 0;
    for (size_t k = 0; k < gr->ngroups; k++) {
        folded[k] = 0;
        if (size[k] < 2)
            continue;
        if (!full)
            full = 1; /* the first: drawn in full */
        else {
            folded[k] = 1;
            n++;
        }
    }
    return n;
}

/* The nodes and arcs drawn when the groups marked are folded: the boxes,
 * the other nodes, the arcs with an end outside every box (an upper
 * bound of what is drawn: arcs into the boxes are drawn once per node). */
size_t pni_dot_folded_elements(const pn_net_t *net, const pn_groups_t *gr,
                               const unsigned char *folded, size_t boxes)
{
    size_t n = boxes;
    for (size_t i = 0; i < pn_net_place_count(net); i++)
        n += !pni_dot_in_folded(folded, gr, gr->place_group[i]);
    for (size_t i = 0; i < pn_net_transition_count(net); i++)
        n += !pni_dot_in_folded(folded, gr, gr->transition_group[i]);
    for (size_t i = 0; i < pn_net_arc_count(net); i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t pg = gr->place_group[a->place],
               tg = gr->transition_group[a->transition];
        n += !pni_dot_in_folded(folded, gr, pg) ||
             !pni_dot_in_folded(folded, gr, tg) || pg != tg;
    }
    return n;
}

/* A box's text: the group's name, then its marked places (four to a
 * line), then "fired" and the transitions fired; "no tokens" when none
 * is marked. */
typedef struct {
    pni_sb_t text;
    size_t items; /* on the current line */
    int marked, fired;
} box_text_t;

static void box_item(box_text_t *bt, const char *shortname, uint64_t count)
{
    pni_sb_printf(&bt->text, bt->items % 4 ? " " : "\\n");
    pni_dot_sb_escaped(&bt->text, shortname);
    if (count > 1)
        pni_sb_printf(&bt->text, ":%" PRIu64, count);
    bt->items++;
}

#define FOLD_COLOR "#e4572e"

/* The boxes of the folded groups, in a grid in one cluster (invisible
 * arcs down the columns and along the rows keep the groups' order); box[k]
 * gets group k's box. */
void pni_dot_add_fold_boxes(Agraph_t *g, const pn_net_t *net,
                            const pn_dot_options_t *o, const size_t *size,
                            const unsigned char *folded, size_t nboxes,
                            Agnode_t **box)
{
    const pn_groups_t *gr = o->groups;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    box_text_t *bt = calloc(gr->ngroups + 1, sizeof *bt);
    if (!bt)
        return;
    const char *firstname = NULL, *lastname = NULL;
    for (size_t k = 0; k < gr->ngroups; k++)
        if (folded[k]) {
            pni_dot_sb_escaped(&bt[k].text, gr->group_names[k]);
            firstname = firstname ? firstname : gr->group_names[k];
            lastname = gr->group_names[k];
        }
    for (size_t i = 0; i < np; i++) {
        size_t k = gr->place_group[i];
        const pn_place_t *p = pn_net_place(net, i);
        uint64_t m = o->marking ? o->marking[i] : p->marking;
        if (pni_dot_in_folded(folded, gr, k) && m) {
            box_item(&bt[k], pni_dot_short_of(p->id, gr->group_names[k]), m);
            bt[k].marked = 1;
        }
    }
    for (size_t i = 0; o->fired && i < nt; i++) {
        size_t k = gr->transition_group[i];
        if (!pni_dot_in_folded(folded, gr, k) || !o->fired[i])
            continue;
        if (!bt[k].fired) {
            if (!bt[k].marked)
                pni_sb_printf(&bt[k].text, "\\nno tokens");
            bt[k].items = 0;
            pni_sb_printf(&bt[k].text, "\\nfired");
            bt[k].items = 1;
            bt[k].fired = 1;
        }
        box_item(&bt[k], pni_dot_short_of(pn_net_transition(net, i)->id,
                                          gr->group_names[k]), 1);
    }
    char name[300];
    pni_sb_t label = {0};
    pni_sb_printf(&label, "folded: ");
    pni_dot_sb_escaped(&label, firstname ? firstname : "");
    if (nboxes > 1) {
        pni_sb_printf(&label, " \xe2\x80\xa6 ");
        pni_dot_sb_escaped(&label, lastname);
    }
    Agraph_t *c = agsubg(g, "cluster_folded", 1);
    if (!label.oom)
        pni_dot_set(c, "label", label.s);
    free(label.s);
    pni_dot_set(c, "style", "rounded,dashed");
    pni_dot_set(c, "color", "#999999");
    pni_dot_set(c, "id", "folded");
    /* a grid about as wide as it is high */
    size_t cols = 1;
    while (cols * cols < nboxes)
        cols++;
    Agraph_t *row = NULL;
    Agnode_t *prev = NULL;
    Agnode_t **above = calloc(cols + 1, sizeof *above);
    size_t j = 0;
    for (size_t k = 0; k < gr->ngroups; k++) {
        if (!folded[k])
            continue;
        snprintf(name, sizeof name, "fold%zu", k);
        Agnode_t *n = agnode(c, name, 1);
        box[k] = n;
        if (!bt[k].marked && !bt[k].fired)
            pni_sb_printf(&bt[k].text, "\\nno tokens");
        if (!bt[k].text.oom)
            pni_dot_set(n, "label", bt[k].text.s);
        pni_dot_set(n, "shape", "box");
        pni_dot_set(n, "style", "rounded,filled");
        pni_dot_set(n, "fillcolor", "#f2f2f2");
        pni_dot_set(n, "fontsize", "9");
        pni_dot_set(n, "margin", "0.06,0.03");
        if (bt[k].fired) {
            pni_dot_set(n, "color", FOLD_COLOR);
            pni_dot_set(n, "penwidth", "2");
        }
        snprintf(name, sizeof name, "fold-%s", gr->group_names[k]);
        pni_dot_set_text(n, "id", name);
        pni_sb_t tip = {0};
        pni_dot_sb_escaped(&tip, gr->group_names[k]);
        pni_sb_printf(&tip, ": %zu nodes folded", size[k]);
        if (!tip.oom)
            pni_dot_set(n, "tooltip", tip.s);
        free(tip.s);
        if (j % cols == 0) {
            snprintf(name, sizeof name, "fold_row%zu", j / cols);
            row = agsubg(c, name, 1);
            pni_dot_set(row, "rank", "same");
            prev = NULL;
        }
        agsubnode(row, n, 1);
        if (prev)
            pni_dot_set(agedge(row, prev, n, NULL, 1), "style", "invis");
        if (above && above[j % cols])
            pni_dot_set(agedge(c, above[j % cols], n, NULL, 1), "style",
                        "invis");
        if (above)
            above[j % cols] = n;
        prev = n;
        j++;
    }
    free(above);
    for (size_t k = 0; k < gr->ngroups; k++)
        free(bt[k].text.s);
    free(bt);
}

/* One bundle of arcs between the folded groups and a node outside them. */
typedef struct {
    uint64_t key; /* (outside node << 3 | kind << 1 | into the boxes) */
    size_t count;
    uint64_t weight;
    int fired;
} bundle_t;

static int cmp_bundle(const void *a, const void *b)
{
    return pni_dot_cmp_u64(&((const bundle_t *)a)->key,
                           &((const bundle_t *)b)->key);
}

/* The arcs with an end in a folded group: between two boxes, one arc per
 * pair and kind; between the boxes and another node, one compound arc per
 * node, direction and kind, from the cluster's edge, labelled with the
 * number of arcs it stands for. */
void pni_dot_add_fold_arcs(Agraph_t *g, const pn_net_t *net,
                           const pn_dot_options_t *o,
                           const unsigned char *folded, Agnode_t **box,
                           Agnode_t **pn, Agnode_t **tn)
{
    const pn_groups_t *gr = o->groups;
    size_t np = pn_net_place_count(net), na = pn_net_arc_count(net), nb = 0;
    bundle_t *bundles = malloc((na + 1) * sizeof *bundles);
    if (!bundles)
        return;
    for (size_t i = 0; i < na; i++) {
        const pn_arc_t *a = pn_net_arc(net, i);
        size_t pg = gr->place_group[a->place],
               tg = gr->transition_group[a->transition];
        int pf = pni_dot_in_folded(folded, gr, pg),
            tf = pni_dot_in_folded(folded, gr, tg);
        int hot = o->fired && o->fired[a->transition];
        if (pf && tf) {
            Agnode_t *from = box[a->dir == PN_DIR_PT ? pg : tg],
                     *to = box[a->dir == PN_DIR_PT ? tg : pg];
            if (pg == tg || !from || !to || agedge(g, from, to, NULL, 0))
                continue;
            Agedge_t *e = agedge(g, from, to, NULL, 1);
            pni_dot_set_arc_style(e, a->kind);
            if (hot)
                pni_dot_set(e, "color", FOLD_COLOR);
        } else if (pf || tf) {
            uint64_t node = pf ? np + a->transition : a->place;
            int into = (a->dir == PN_DIR_PT) == (pf == 0);
            bundles[nb++] = (bundle_t){
                node << 3 | (uint64_t)a->kind << 1 | (uint64_t)into, 1,
                a->weight, hot};
        }
    }
    qsort(bundles, nb, sizeof *bundles, cmp_bundle);
    /* the box the compound arcs leave from: the first (one further along
     * its row is drawn first in it) */
    Agnode_t *rep = NULL;
    for (size_t k = 0; k < gr->ngroups && !rep; k++)
        if (folded[k])
            rep = box[k];
    char buf[64];
    for (size_t i = 0; rep && i < nb;) {
        size_t k = i;
        bundle_t b = bundles[i++];
        for (; i < nb && bundles[i].key == b.key; i++) {
            b.count++;
            b.fired |= bundles[i].fired;
        }
        uint64_t node = b.key >> 3;
        int into = (int)(b.key & 1);
        Agnode_t *other = node < np ? pn[node] : tn[node - np];
        if (!other)
            continue;
        Agedge_t *e = into ? agedge(g, other, rep, NULL, 1)
                           : agedge(g, rep, other, NULL, 1);
        pni_dot_set(e, into ? "lhead" : "ltail", "cluster_folded");
        pni_dot_set_arc_style(e, (pn_arc_kind_t)(b.key >> 1 & 3));
        pni_dot_set(e, "class",
                    (char *)pn_arc_kind_name((pn_arc_kind_t)(b.key >> 1 & 3)));
        if (b.count > 1) {
            snprintf(buf, sizeof buf, "%zu arcs", b.count);
            pni_dot_set(e, "label", buf);
        } else if (bundles[k].weight > 1) {
            snprintf(buf, sizeof buf, "%" PRIu64, bundles[k].weight);
            pni_dot_set(e, "label", buf);
        }
        if (b.fired)
            pni_dot_set(e, "color", FOLD_COLOR);
    }
    free(bundles);
}
