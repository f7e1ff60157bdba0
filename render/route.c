/*
 * Nets drawn at their positions (--positions): where the copies of the
 * shared nodes go in each cluster, and arcs bent around what lies on their
 * straight line.  An editor's layout has nodes in columns and rows, and an
 * arc between two nodes of a column passes through the nodes between
 * them, over their labels (a 4-warp GPU net: 11% of its labels crossed).
 * Graphviz's own router avoids nodes, but takes seconds for a few hundred
 * (11 s for 4 warps); here each arc is tried straight, then as a curve
 * bowed ever further to one side or the other until it clears every node
 * and label, and given to Graphviz as its spline.
 */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_private.h"

typedef struct {
    double x, y;
} pt_t;

/* Something an arc must not cross (a node, or a label), or a node's centre
 * (a box of no size) when copies are placed. */
typedef struct {
    double x0, y0, x1, y1;
    const void *owner;
} obstacle_t;

typedef struct {
    size_t item, next; /* next: 1 + the next link of the cell, 0 none */
} link_t;

/* Boxes, and a grid over them, so that what lies near a curve is found
 * without looking at every node of a large net: each cell lists the boxes
 * that overlap it. */
typedef struct {
    obstacle_t *o;
    size_t n, cap;
    double gx, gy, cell; /* the grid's corner and cells' side */
    size_t nx, ny;
    size_t *head;        /* per cell: 1 + its first link, 0 none */
    link_t *link;
    size_t nlink, linkcap;
    unsigned *seen;      /* per box: the query that last found it */
    unsigned stamp;
    size_t *hits, nhits; /* what the last query found */
} obstacles_t;

/* The cells of box b (clamped to the grid). */
static void cells_of(const obstacles_t *s, const obstacle_t *b, size_t *cx0,
                     size_t *cy0, size_t *cx1, size_t *cy1)
{
    double v[4] = {(b->x0 - s->gx) / s->cell, (b->y0 - s->gy) / s->cell,
                   (b->x1 - s->gx) / s->cell, (b->y1 - s->gy) / s->cell};
    size_t *out[4] = {cx0, cy0, cx1, cy1};
    for (int i = 0; i < 4; i++) {
        double lim = (double)((i % 2 ? s->ny : s->nx) - 1);
        *out[i] = (size_t)fmin(fmax(v[i], 0), lim);
    }
}

/* Lists box i in the cells it overlaps (out of memory: not listed, and
 * the grid is given up: every query then looks at every box). */
static void grid_insert(obstacles_t *s, size_t i)
{
    size_t cx0, cy0, cx1, cy1;
    cells_of(s, &s->o[i], &cx0, &cy0, &cx1, &cy1);
    for (size_t y = cy0; s->head && y <= cy1; y++)
        for (size_t x = cx0; s->head && x <= cx1; x++) {
            if (s->nlink == s->linkcap) {
                size_t cap = s->linkcap ? 2 * s->linkcap : 1024;
                link_t *l = realloc(s->link, cap * sizeof *l);
                if (!l) {
                    free(s->head);
                    s->head = NULL;
                    break;
                }
                s->link = l;
                s->linkcap = cap;
            }
            size_t c = y * s->nx + x;
            s->link[s->nlink] = (link_t){i, s->head[c]};
            s->head[c] = ++s->nlink;
        }
}

/* Adds a box (listed in the grid once it is made). */
static void add_obstacle(obstacles_t *s, obstacle_t b)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        obstacle_t *o = realloc(s->o, cap * sizeof *o);
        unsigned *seen = realloc(s->seen, cap * sizeof *seen);
        size_t *hits = realloc(s->hits, cap * sizeof *hits);
        if (o)
            s->o = o;
        if (seen)
            s->seen = seen;
        if (hits)
            s->hits = hits;
        if (!o || !seen || !hits)
            return; /* out of memory: that one is not avoided */
        s->cap = cap;
    }
    s->seen[s->n] = 0;
    s->o[s->n++] = b;
    if (s->head)
        grid_insert(s, s->n - 1);
}

/* The grid over the boxes added so far: about one cell a box, at least
 * 20 points a side. */
static void grid_make(obstacles_t *s)
{
    if (!s->n)
        return;
    double x0 = s->o[0].x0, y0 = s->o[0].y0, x1 = s->o[0].x1,
           y1 = s->o[0].y1;
    for (size_t i = 1; i < s->n; i++) {
        x0 = fmin(x0, s->o[i].x0), y0 = fmin(y0, s->o[i].y0);
        x1 = fmax(x1, s->o[i].x1), y1 = fmax(y1, s->o[i].y1);
    }
    s->gx = x0;
    s->gy = y0;
    s->cell = fmax(20, sqrt((x1 - x0) * (y1 - y0) / (double)s->n));
    s->nx = (size_t)((x1 - x0) / s->cell) + 1;
    s->ny = (size_t)((y1 - y0) / s->cell) + 1;
    s->head = calloc(s->nx * s->ny, sizeof *s->head);
    for (size_t i = 0; s->head && i < s->n; i++)
        grid_insert(s, i);
}

/* The boxes that overlap box q, into s->hits (s->nhits of them). */
static void query(obstacles_t *s, obstacle_t q)
{
    s->nhits = 0;
    if (++s->stamp == 0) { /* wrapped: start again */
        for (size_t i = 0; i < s->n; i++)
            s->seen[i] = 0;
        s->stamp = 1;
    }
    if (!s->head) {
        for (size_t i = 0; i < s->n; i++)
            s->hits[s->nhits++] = i;
        return;
    }
    size_t cx0, cy0, cx1, cy1;
    cells_of(s, &q, &cx0, &cy0, &cx1, &cy1);
    for (size_t y = cy0; y <= cy1; y++)
        for (size_t x = cx0; x <= cx1; x++)
            for (size_t l = s->head[y * s->nx + x]; l; l = s->link[l - 1].next) {
                size_t i = s->link[l - 1].item;
                const obstacle_t *b = &s->o[i];
                if (s->seen[i] == s->stamp || b->x1 < q.x0 || b->x0 > q.x1 ||
                    b->y1 < q.y0 || b->y0 > q.y1)
                    continue;
                s->seen[i] = s->stamp;
                s->hits[s->nhits++] = i;
            }
}

static void obstacles_free(obstacles_t *s)
{
    free(s->o);
    free(s->head);
    free(s->link);
    free(s->seen);
    free(s->hits);
}

/* ---- where the copies of shared nodes go ---------------------------------
 * Near the nodes the copy has arcs with in its cluster: the free point of
 * a 15-point grid around their centre (no node within 45 points) whose
 * straight arcs to them pass through the fewest nodes, then the nearest. */
#define COPY_STEP 15.0
#define COPY_REACH 20 /* grid steps each way */
#define COPY_ROOM 45.0
#define NODE_R 20.0

static int pos_of(Agnode_t *n, pt_t *p)
{
    const char *s = agget(n, "pos");
    return s && sscanf(s, "%lf,%lf", &p->x, &p->y) == 2;
}

/* Nodes (other than a and b) whose centre lies within NODE_R of the
 * segment from a to b. */
static int through(obstacles_t *c, pt_t a, pt_t b)
{
    double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    int k = 0;
    query(c, (obstacle_t){fmin(a.x, b.x) - NODE_R, fmin(a.y, b.y) - NODE_R,
                          fmax(a.x, b.x) + NODE_R, fmax(a.y, b.y) + NODE_R,
                          NULL});
    for (size_t i = 0; i < c->nhits; i++) {
        const obstacle_t *o = &c->o[c->hits[i]];
        double t = l2 > 0 ? ((o->x0 - a.x) * dx + (o->y0 - a.y) * dy) / l2
                          : 0;
        if (t <= 0.05 || t >= 0.95)
            continue;
        double ex = a.x + t * dx - o->x0, ey = a.y + t * dy - o->y0;
        k += ex * ex + ey * ey < NODE_R * NODE_R;
    }
    return k;
}

/* Whether a node's centre lies within COPY_ROOM of p. */
static int crowded(obstacles_t *c, pt_t p)
{
    query(c, (obstacle_t){p.x - COPY_ROOM, p.y - COPY_ROOM, p.x + COPY_ROOM,
                          p.y + COPY_ROOM, NULL});
    for (size_t i = 0; i < c->nhits; i++) {
        const obstacle_t *o = &c->o[c->hits[i]];
        if (hypot(o->x0 - p.x, o->y0 - p.y) < COPY_ROOM)
            return 1;
    }
    return 0;
}

/* The place of one copy, given the centres of the nodes placed (c) and
 * of its neighbours (nb, nn). */
static pt_t copy_place(obstacles_t *c, const pt_t *nb, size_t nn)
{
    pt_t m = {0, 0}, best = {0, 0};
    for (size_t i = 0; i < nn; i++)
        m.x += nb[i].x / (double)nn, m.y += nb[i].y / (double)nn;
    m.x = round(m.x / COPY_STEP) * COPY_STEP;
    m.y = round(m.y / COPY_STEP) * COPY_STEP;
    double best_cost = HUGE_VAL;
    for (int i = -COPY_REACH; i <= COPY_REACH; i++)
        for (int j = -COPY_REACH; j <= COPY_REACH; j++) {
            pt_t p = {m.x + i * COPY_STEP, m.y + j * COPY_STEP};
            double cost = hypot(p.x - m.x, p.y - m.y);
            if (cost >= best_cost || crowded(c, p))
                continue;
            for (size_t q = 0; q < nn && cost < best_cost; q++)
                cost += 1000.0 * through(c, p, nb[q]);
            if (cost < best_cost)
                best_cost = cost, best = p;
        }
    if (best_cost == HUGE_VAL) /* no room: beside the centre */
        best = (pt_t){m.x + COPY_ROOM, m.y};
    return best;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a,
              y = (uintptr_t) * (void *const *)b;
    return x < y ? -1 : x > y;
}

/* Gives each copy (it has its original's position) a place of its own in
 * its cluster, near the nodes it has arcs with. */
void pni_dot_place_copies(Agraph_t *g, Agnode_t **copies, size_t ncopies)
{
    if (!ncopies)
        return;
    obstacles_t c = {0};
    size_t n = (size_t)agnnodes(g);
    pt_t *nb = malloc((n + 1) * sizeof *nb), p;
    Agnode_t **sorted = malloc(ncopies * sizeof *sorted);
    if (!nb || !sorted)
        goto done;
    memcpy(sorted, copies, ncopies * sizeof *sorted);
    qsort(sorted, ncopies, sizeof *sorted, cmp_ptr);
    for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
        if (!bsearch(&v, sorted, ncopies, sizeof *sorted, cmp_ptr) &&
            pos_of(v, &p))
            add_obstacle(&c, (obstacle_t){p.x, p.y, p.x, p.y, v});
    grid_make(&c);
    for (size_t i = 0; i < ncopies; i++) {
        size_t nn = 0;
        for (Agedge_t *e = agfstedge(g, copies[i]); e && nn <= n;
             e = agnxtedge(g, e, copies[i])) {
            Agnode_t *o = agtail(e) == copies[i] ? aghead(e) : agtail(e);
            nn += pos_of(o, &nb[nn]);
        }
        if (!nn)
            continue;
        p = copy_place(&c, nb, nn);
        char buf[64];
        snprintf(buf, sizeof buf, "%.2f,%.2f!", p.x, p.y);
        pni_dot_set(copies[i], "pos", buf);
        add_obstacle(&c, (obstacle_t){p.x, p.y, p.x, p.y, copies[i]});
    }
done:
    obstacles_free(&c);
    free(sorted);
    free(nb);
}

/* ---- arcs bent around what lies in their way ---------------------------- */

static pt_t bez(const pt_t c[4], double t)
{
    double u = 1 - t;
    return (pt_t){u * u * u * c[0].x + 3 * u * u * t * c[1].x +
                      3 * u * t * t * c[2].x + t * t * t * c[3].x,
                  u * u * u * c[0].y + 3 * u * u * t * c[1].y +
                      3 * u * t * t * c[2].y + t * t * t * c[3].y};
}

/* The part of curve c from t = 0 to t (de Casteljau), into l. */
static void bez_left(const pt_t c[4], double t, pt_t l[4])
{
    pt_t a = {c[0].x + t * (c[1].x - c[0].x), c[0].y + t * (c[1].y - c[0].y)},
         b = {c[1].x + t * (c[2].x - c[1].x), c[1].y + t * (c[2].y - c[1].y)},
         d = {c[2].x + t * (c[3].x - c[2].x), c[2].y + t * (c[3].y - c[2].y)},
         ab = {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)},
         bd = {b.x + t * (d.x - b.x), b.y + t * (d.y - b.y)};
    l[0] = c[0];
    l[1] = a;
    l[2] = ab;
    l[3] = (pt_t){ab.x + t * (bd.x - ab.x), ab.y + t * (bd.y - ab.y)};
}

/* The part of curve c from t0 to t1, into r. */
static void bez_part(const pt_t c[4], double t0, double t1, pt_t r[4])
{
    pt_t l[4], rev[4], part[4];
    bez_left(c, t1, l);
    /* l from t0 / t1 to 1: the left part of l reversed */
    for (int i = 0; i < 4; i++)
        rev[i] = l[3 - i];
    bez_left(rev, 1 - t0 / t1, part);
    for (int i = 0; i < 4; i++)
        r[i] = part[3 - i];
}

/* Whether p lies inside node n's shape (a box, or else an ellipse). */
static int in_node(Agnode_t *n, pt_t p)
{
    double dx = p.x - ND_coord(n).x, dy = p.y - ND_coord(n).y,
           rx = ND_width(n) * 36, ry = ND_height(n) * 36;
    const char *shape = ND_shape(n) ? ND_shape(n)->name : "";
    if (!strcmp(shape, "box") || !strcmp(shape, "plain") ||
        !strcmp(shape, "rect") || !strcmp(shape, "rectangle"))
        return fabs(dx) <= rx && fabs(dy) <= ry;
    return rx > 0 && ry > 0 && (dx * dx) / (rx * rx) + (dy * dy) / (ry * ry) <= 1;
}

/* The parameter where curve c leaves node n (from the start when from0,
 * else from the end), by bisection. */
static double leave(const pt_t c[4], Agnode_t *n, int from0)
{
    double in = from0 ? 0 : 1, out = 0.5;
    if (in_node(n, bez(c, out)))
        return out;
    for (int i = 0; i < 30; i++) {
        double m = (in + out) / 2;
        if (in_node(n, bez(c, m)))
            in = m;
        else
            out = m;
    }
    return out;
}

/* Whether curve c passes through an obstacle other than those of its own
 * ends and label (the curve sampled every 3 points or so). */
static int blocked(obstacles_t *s, const pt_t c[4], const void *tail,
                   const void *head, const void *edge)
{
    obstacle_t q = {c[0].x, c[0].y, c[0].x, c[0].y, NULL};
    double len = 0;
    for (int i = 1; i < 4; i++) {
        q.x0 = fmin(q.x0, c[i].x), q.x1 = fmax(q.x1, c[i].x);
        q.y0 = fmin(q.y0, c[i].y), q.y1 = fmax(q.y1, c[i].y);
        len += hypot(c[i].x - c[i - 1].x, c[i].y - c[i - 1].y);
    }
    pt_t pts[400];
    int steps = (int)fmin(400, fmax(16, len / 3));
    for (int k = 1; k < steps; k++)
        pts[k] = bez(c, (double)k / steps);
    query(s, q);
    for (size_t i = 0; i < s->nhits; i++) {
        const obstacle_t *b = &s->o[s->hits[i]];
        if (b->owner == tail || b->owner == head || b->owner == edge)
            continue;
        for (int k = 1; k < steps; k++)
            if (pts[k].x > b->x0 && pts[k].x < b->x1 && pts[k].y > b->y0 &&
                pts[k].y < b->y1)
                return 1;
    }
    return 0;
}

/* The length of an arc's arrowhead (Graphviz's: 10 points a "normal",
 * 8 a "dot"). */
static double arrow_length(Agedge_t *e)
{
    const char *a = agget(e, "arrowhead");
    if (!a || !*a)
        return 10;
    double len = 0;
    for (const char *p = a; (p = strstr(p, "normal")); p += 6)
        len += 10;
    for (const char *p = a; (p = strstr(p, "dot")); p += 3)
        len += 8;
    return len;
}

/* The spline of an arc along curve c, clipped to its nodes, as Graphviz
 * reads it ("e,x,y" the arrow's tip, then the curve to the arrow's base),
 * and its label's place beside the curve's middle, on the side it bows
 * to (normal n). */
static void set_spline(Agedge_t *e, const pt_t c[4], pt_t n)
{
    double t0 = leave(c, agtail(e), 1), t1 = leave(c, aghead(e), 0);
    double arrow = arrow_length(e), te = t1;
    pt_t tip = bez(c, t1), part[4];
    if (t1 <= t0)
        return;
    if (arrow > 0) {
        /* the base: arrow points from the tip back along the curve */
        double lo = t0, hi = t1;
        for (int i = 0; i < 30; i++) {
            double m = (lo + hi) / 2;
            pt_t p = bez(c, m);
            if (hypot(p.x - tip.x, p.y - tip.y) > arrow)
                lo = m;
            else
                hi = m;
        }
        te = lo;
    }
    bez_part(c, t0, te, part);
    char buf[256];
    int k = arrow > 0 ? snprintf(buf, sizeof buf, "e,%.2f,%.2f ", tip.x,
                                 tip.y)
                      : 0;
    snprintf(buf + k, sizeof buf - (size_t)k,
             "%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f", part[0].x, part[0].y,
             part[1].x, part[1].y, part[2].x, part[2].y, part[3].x,
             part[3].y);
    pni_dot_set(e, "pos", buf);
    textlabel_t *l = ED_label(e);
    if (l) {
        pt_t m = bez(c, 0.5);
        double off = fmax(l->dimen.x, l->dimen.y) / 2 + 2;
        snprintf(buf, sizeof buf, "%.2f,%.2f", m.x + n.x * off,
                 m.y + n.y * off);
        pni_dot_set(e, "lp", buf);
    }
}

/* Bends arc e when its straight line is blocked: the first of curves
 * bowed 15, 30, ... points to one side or the other that is clear (an
 * arc of a two-way pair only to its left, so that the two bow apart). */
static void route(obstacles_t *s, Agedge_t *e, int pair)
{
    Agnode_t *t = agtail(e), *h = aghead(e);
    pt_t a = {ND_coord(t).x, ND_coord(t).y}, b = {ND_coord(h).x,
                                                   ND_coord(h).y};
    double dx = b.x - a.x, dy = b.y - a.y, len = hypot(dx, dy);
    pt_t c[4] = {a, {a.x + dx / 3, a.y + dy / 3},
                 {a.x + 2 * dx / 3, a.y + 2 * dy / 3}, b};
    if (len < 1 || !blocked(s, c, t, h, e))
        return;
    pt_t n = {-dy / len, dx / len};
    for (int k = 1; k <= 24; k++)
        for (int side = 1; side >= -1; side -= 2) {
            if (pair && side < 0)
                continue;
            /* control points 4/3 out: the curve's middle k * 15 out */
            double d = side * k * 15.0 * 4 / 3;
            pt_t q[4] = {a,
                         {a.x + dx / 3 + n.x * d, a.y + dy / 3 + n.y * d},
                         {a.x + 2 * dx / 3 + n.x * d,
                          a.y + 2 * dy / 3 + n.y * d},
                         b};
            if (!blocked(s, q, t, h, e)) {
                set_spline(e, q, (pt_t){n.x * side, n.y * side});
                return;
            }
        }
}

static void add_label(obstacles_t *s, const textlabel_t *l, const void *owner)
{
    if (l && l->set)
        add_obstacle(s, (obstacle_t){l->pos.x - l->dimen.x / 2,
                                     l->pos.y - l->dimen.y / 2,
                                     l->pos.x + l->dimen.x / 2,
                                     l->pos.y + l->dimen.y / 2, owner});
}

static void add_cluster_labels(obstacles_t *s, Agraph_t *g)
{
    for (int i = 1; i <= GD_n_cluster(g); i++) {
        add_label(s, GD_label(GD_clust(g)[i]), GD_clust(g)[i]);
        add_cluster_labels(s, GD_clust(g)[i]);
    }
}

/* Lays g out at its nodes' positions ("nop") and gives every arc whose
 * straight line crosses a node or a label a curve around them (its "pos",
 * which the layout "nop2" keeps); the layout is then freed. */
void pni_dot_route_arcs(GVC_t *gvc, Agraph_t *g)
{
    if (gvLayout(gvc, g, "nop") != 0)
        return; /* the drawing itself says why */
    obstacles_t s = {0};
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
        double rx = ND_width(n) * 36 + 3, ry = ND_height(n) * 36 + 3;
        add_obstacle(&s, (obstacle_t){ND_coord(n).x - rx, ND_coord(n).y - ry,
                                      ND_coord(n).x + rx, ND_coord(n).y + ry,
                                      n});
        add_label(&s, ND_xlabel(n), n);
        for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e))
            add_label(&s, ED_label(e), e);
    }
    add_cluster_labels(&s, g);
    add_label(&s, GD_label(g), g);
    grid_make(&s);
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
        for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e))
            route(&s, e, agedge(g, aghead(e), n, NULL, 0) != NULL);
    obstacles_free(&s);
    gvFreeLayout(gvc, g);
}
