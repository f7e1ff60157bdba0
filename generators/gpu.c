/* The GPU warp Petri net (doc/wpnm.md), built through the net API. */
#include <config.h>
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu.h"
#include "lib_private.h"

/* The layout assumes editors draw a name about this many pixels wide per
 * character, to the right of its node. */
#define LABEL_CHAR 7.0

/* Names: Table 1 of the paper for what it describes (p1-p10, t1-t17), the
 * meanings of doc/wpnm.md for the places the table leaves out. */
static const char *const place_meaning[31] = {
    NULL,
    "active warp",
    "the previous instruction is finished and the warp is ready for the "
    "next one",
    "check the next instruction",
    "next instruction is ready",
    "arithmetic operations",
    "instruction - arithmetic calculation",
    "access to the shared memory",
    "instruction - shared memory access",
    "access to the global memory",
    "instruction - global memory access",
    "warp issued on the SM",
    "global access in flight (latency countdown)",
    "global latency steps elapsed",
    "global access done",
    "shared access in flight (latency countdown)",
    "shared access done",
    "arithmetic in execution",
    "shared latency steps elapsed",
    "arithmetic latency steps elapsed",   /* pipelined issue only */
    /* memory transactions, bandwidth, cache hits (doc/wpnm.md) */
    "DRAM access waiting for bandwidth",
    "transactions in flight",
    "transactions still to send",
    "L1 hits left",
    "L1 hit in flight (latency countdown)",
    "L1 hit latency steps elapsed",
    "L2 hits left",
    "L2 hit in flight (latency countdown)",
    "L2 hit latency steps elapsed",
    "DRAM accesses left",
    "free load slots",   /* --mlp K >= 2 */
};

static const char *const transition_meaning[27] = {
    NULL,
    "the warp is executed on SM",
    "selection of a calculation for the next instruction",
    "selection of an access to the shared memory for the next instruction",
    "selection of an access to the global memory for the next instruction",
    "execution of the access to the global memory",
    "execution of the access to the shared memory",
    "execution of arithmetic operation",
    "waiting for the global memory access",
    "access to the global memory",
    NULL,
    "access to the global memory is finished",
    "access to the shared memory",
    NULL,
    "access to the shared memory is finished",
    "calculation is finished",
    "termination of the warp",
    "waiting for the shared memory access",
    "waiting for the arithmetic result",   /* pipelined issue only */
    "take bandwidth for the transactions",
    "send a transaction",
    "issue an L1 hit",
    "waiting for the L1 hit",
    "L1 hit done",
    "issue an L2 hit",
    "waiting for the L2 hit",
    "L2 hit done",
};

/* The class of each warp transition: what kind of instruction work its
 * firing is (t0, the idle step, is the class "idle"). */
enum { C_CONTROL, C_ARITH, C_SHARED, C_GLOBAL, C_IDLE, C_COUNT };
static const unsigned char transition_class[27] = {
    [1] = C_CONTROL, [2] = C_CONTROL, [3] = C_CONTROL, [4] = C_CONTROL,
    [5] = C_GLOBAL, [6] = C_SHARED, [7] = C_ARITH, [8] = C_GLOBAL,
    [9] = C_GLOBAL, [11] = C_GLOBAL, [12] = C_SHARED, [14] = C_SHARED,
    [15] = C_ARITH, [16] = C_CONTROL, [17] = C_SHARED, [18] = C_ARITH,
    [19] = C_GLOBAL, [20] = C_GLOBAL, [21] = C_GLOBAL, [22] = C_GLOBAL,
    [23] = C_GLOBAL, [24] = C_GLOBAL, [25] = C_GLOBAL, [26] = C_GLOBAL,
};
/* The class of warp transition k: the load-slot frames' transitions
 * (t27 and above, --mlp) are global-memory work. */
static int class_of(int k)
{
    if (k == PN_GPU_BAR_ARRIVE)
        return C_CONTROL;
    return k > 26 ? C_GLOBAL : transition_class[k];
}
/* weakest first: a timeline cell shows the strongest class fired there */
static const char *const class_name[C_COUNT] = {"control", "arithmetic",
                                                "shared", "global", "idle"};
static const char *const class_color[C_COUNT] = {"#d9d9d9", "#4e79a7",
                                                 "#59a14f", "#f28e2b",
                                                 "#bab0ac"};

/* Positions inside one warp's box: the paper's Figure 2, selection row on
 * top, then the arithmetic, shared and global frames side by side. */
static const double place_xy[31][2] = {
    {0, 0},
    {45, 45},    /* p1 */
    {480, 45},   /* p2 */
    {300, 45},   /* p3 */
    {45, 285},   /* p4 */
    {120, 120},  /* p5 */
    {120, 285},  /* p6 */
    {300, 120},  /* p7 */
    {300, 285},  /* p8 */
    {480, 120},  /* p9 */
    {480, 285},  /* p10 */
    {300, 420},  /* p11 */
    {480, 585},  /* p12 */
    {585, 660},  /* p13 */
    {480, 735},  /* p14 */
    {300, 585},  /* p15 */
    {300, 735},  /* p16 */
    {120, 585},  /* p17 */
    {405, 660},  /* p18 */
    {45, 660},   /* p19 */
    {690, 420},  /* p20 */
    {690, 735},  /* p21 */
    {690, 585},  /* p22 */
    {795, 120},  /* p23 */
    {795, 585},  /* p24 */
    {900, 660},  /* p25 */
    {1005, 120}, /* p26 */
    {1005, 585}, /* p27 */
    {1110, 660}, /* p28 */
    {585, 120},  /* p29 */
    {585, 45},   /* p30 */
};

static const double transition_xy[27][2] = {
    {0, 0},
    {300, 360},  /* t1 */
    {120, 195},  /* t2 */
    {300, 195},  /* t3 */
    {480, 195},  /* t4 */
    {480, 495},  /* t5 */
    {300, 495},  /* t6 */
    {120, 495},  /* t7 */
    {585, 585},  /* t8 */
    {480, 660},  /* t9 */
    {0, 0},
    {480, 825},  /* t11 */
    {300, 660},  /* t12 */
    {0, 0},
    {300, 825},  /* t14 */
    {120, 660},  /* t15 */
    {45, 120},   /* t16 */
    {405, 585},  /* t17 */
    {45, 585},   /* t18 */
    {690, 495},  /* t19 */
    {690, 660},  /* t20 */
    {795, 495},  /* t21 */
    {900, 585},  /* t22 */
    {795, 660},  /* t23 */
    {1005, 495}, /* t24 */
    {1110, 585}, /* t25 */
    {1005, 660}, /* t26 */
};

/* Every position and label offset is a multiple of 15 pixels: PIPE and
 * TAPAAL snap nodes and labels to that grid when they save, so a drawing
 * on it survives a save unchanged. */
#define GRID 15.0
#define BOX_H 960.0
#define ORIGIN_Y 45.0

/* Labels: names go to the right of their node.  Editors draw them in a
 * font about 7 pixels a character wide; the columns of a warp's drawing
 * are made wide enough for the longest name in each, so that no label
 * overlaps a node or another label.  PN_GPU_LABEL_* are the numbers the
 * tests check the layout with. */
#define LABEL_DX 30.0
/* The shared part's column: far enough right that PIPE and TAPAAL, which
 * draw a name ending where ours begins, do not clip its longest label. */
#define SHARED_X 150.0
#define LABEL_DY 0.0

/* The column of each x of the figure above: the drawing keeps its rows and
 * columns, only the columns are widened. */
static const double column_x[] = {45, 120, 300, 405, 480, 585, 690, 795,
                                  900, 1005, 1110};
#define NCOLS 11

static int column_of(double x)
{
    for (int c = 0; c < NCOLS; c++)
        if (column_x[c] == x)
            return c;
    return 0;
}

typedef struct {
    double col[NCOLS]; /* x of each column inside a warp's box */
    double box_w, box_h, origin_x;
} layout_t;

/* Which warp nodes a net has: bit k of places for p<k>, of trans for t<k>;
 * mlp >= 2: the load slots p30 and frames 1 ... mlp - 1 (frame_node()). */
typedef struct {
    uint32_t places, trans;
    uint64_t mlp;
} nodes_t;

/* Load slots (--mlp K >= 2): frame 0 is the paper's global frame (t5, p12,
 * p13, t8, t9), frame j >= 1 has its copies p<29+2j> (countdown),
 * p<30+2j> (steps elapsed), t<24+3j> (issue), t<25+3j> (count), t<26+3j>
 * (end).  role: 0 issue, 1 countdown place / count transition, 2 elapsed
 * place / end transition; returns the node's number. */
static int frame_node(int j, char kind, int role)
{
    static const int place0[3] = {0, 12, 13}, trans0[3] = {5, 8, 9};
    if (j == 0)
        return kind == 'p' ? place0[role] : trans0[role];
    return kind == 'p' ? 28 + 2 * j + role : 24 + 3 * j + role;
}
/* The row of frame j >= 1 below the paper's drawing. */
#define FRAME_Y(j) (900.0 + 240.0 * (double)((j) - 1))

static nodes_t nodes_of(const pn_gpu_params_t *p)
{
    nodes_t n = {0, 0, 0};
    for (int k = 1; k <= 18; k++)
        n.places |= UINT32_C(1) << k;
    static const int tnums[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16,
                                17};
    for (size_t i = 0; i < sizeof tnums / sizeof *tnums; i++)
        n.trans |= UINT32_C(1) << tnums[i];
    if (p->pipelined && p->la) {
        n.places |= UINT32_C(1) << 19;
        n.trans |= UINT32_C(1) << 18;
    }
    if (p->inflight) {
        n.places |= UINT32_C(1) << 20;
        n.trans |= UINT32_C(1) << 19;
    }
    if (p->inflight || p->transactions > 1)
        n.places |= UINT32_C(1) << 21;
    if (p->transactions > 1) {
        n.places |= UINT32_C(1) << 22;
        n.trans |= UINT32_C(1) << 20;
    }
    if (p->l1_hits) {
        n.places |= UINT32_C(7) << 23;
        n.trans |= UINT32_C(7) << 21;
    }
    if (p->l2_hits) {
        n.places |= UINT32_C(7) << 26;
        n.trans |= UINT32_C(7) << 24;
    }
    if (p->l1_hits || p->l2_hits)
        n.places |= UINT32_C(1) << 29;
    if (p->mlp >= 2) {   /* load slots: the frames give p30, not p14 */
        n.mlp = p->mlp;
        n.places |= UINT32_C(1) << 30;
        n.places &= ~(UINT32_C(1) << 14);
        n.trans &= ~(UINT32_C(1) << 11);
    }
    return n;
}

#define HAS(set, k) ((set) >> (k) & 1)

typedef struct {
    pn_net_t *net;
    char buf[3][96];
    layout_t lay;
    nodes_t nodes;
} gen_t;

/* The longest name of the shared column (p0, t0, active, the block
 * scheduler's nodes), for the warps' origin. */
#define SHARED_LONGEST "b9999 done: warps of the block finished"
#define DRAM_NAME "dram: DRAM transactions that may start"
/* The rows of the block slots in the shared column: slot j from
 * SLOT_Y + SLOT_H j, its five nodes 75 pixels apart. */
#define SLOT_Y 360.0
#define SLOT_H 375.0

/* Column widths from the longest label of each column (for the warp with
 * the longest number). */
static void plan_layout(layout_t *lay, size_t warps, nodes_t nodes,
                        int blocks, int dram)
{
    double width[NCOLS] = {0};
    char name[200];
    size_t w = warps - 1;
    for (int k = 1; k <= 30; k++) {
        if (!HAS(nodes.places, k) || k == 19)
            continue;   /* p19's column is sized without it, as before */
        int c = column_of(place_xy[k][0]);
        snprintf(name, sizeof name, "w%zu p%d %s", w, k, place_meaning[k]);
        double need = LABEL_DX + LABEL_CHAR * (double)strlen(name) + 40;
        if (need > width[c])
            width[c] = need;
    }
    for (int k = 1; k <= 26; k++) {
        if (!transition_meaning[k] || !HAS(nodes.trans, k) || k == 18)
            continue;
        int c = column_of(transition_xy[k][0]);
        snprintf(name, sizeof name, "w%zu t%d %s", w, k,
                 transition_meaning[k]);
        double need = LABEL_DX + LABEL_CHAR * (double)strlen(name) + 40;
        if (need > width[c])
            width[c] = need;
    }
    if (nodes.mlp >= 2) {   /* the last frame has the longest numbers */
        int j = (int)nodes.mlp - 1;
        for (int r = 0; r < 3; r++) {
            int t = frame_node(j, 't', r), k0 = frame_node(0, 't', r);
            snprintf(name, sizeof name, "w%zu t%d %s", w, t,
                     transition_meaning[k0]);
            int c = column_of(transition_xy[k0][0]);
            double need = LABEL_DX + LABEL_CHAR * (double)strlen(name) + 40;
            if (need > width[c])
                width[c] = need;
            if (r == 0)
                continue;
            int k = frame_node(j, 'p', r), q0 = frame_node(0, 'p', r);
            snprintf(name, sizeof name, "w%zu p%d %s", w, k,
                     place_meaning[q0]);
            c = column_of(place_xy[q0][0]);
            need = LABEL_DX + LABEL_CHAR * (double)strlen(name) + 40;
            if (need > width[c])
                width[c] = need;
        }
    }
    lay->box_h = BOX_H + (nodes.mlp >= 2 ? 240.0 * (double)(nodes.mlp - 1)
                                         : 0);
    double x = 45;
    for (int c = 0; c < NCOLS; c++) {
        lay->col[c] = x;
        x += ceil(width[c] / GRID) * GRID;
    }
    lay->box_w = x + 60;
    const char *longest = blocks ? SHARED_LONGEST
                          : dram ? DRAM_NAME
                                 : "SM (free warp schedulers)";
    lay->origin_x = ceil((SHARED_X + LABEL_DX +
                          LABEL_CHAR * (double)strlen(longest) + 80) / GRID) *
                    GRID;
}

static const char *pid(gen_t *g, int slot, size_t w, int k)
{
    snprintf(g->buf[slot], sizeof g->buf[slot], "w%zu_p%d", w, k);
    return g->buf[slot];
}
static const char *tid(gen_t *g, int slot, size_t w, int k)
{
    snprintf(g->buf[slot], sizeof g->buf[slot], "w%zu_t%d", w, k);
    return g->buf[slot];
}

/* An arc named a_<source>_<target> (i_ for inhibitors); weight 0 leaves
 * the arc out, as the model says for latency 0. */
static pn_status_t arc(gen_t *g, const char *src, const char *dst,
                       uint64_t weight, pn_arc_kind_t kind)
{
    if (weight == 0)
        return PN_OK;
    char id[200];
    snprintf(id, sizeof id, "%s_%s_%s", kind == PN_ARC_INHIBITOR ? "i" : "a",
             src, dst);
    return pn_net_add_arc(g->net, id, src, dst, weight, kind, NULL);
}

#define TRY(x)                                                                 \
    do {                                                                       \
        pn_status_t st_ = (x);                                                 \
        if (st_ != PN_OK)                                                      \
            return st_;                                                        \
    } while (0)

/* Shared places in flow(): 0 is p0, -1 active, -2 dram. */
static const char *shared_place(int k)
{
    return k == 0 ? "p0" : k == -1 ? "active" : "dram";
}

/* in: (place, weight) pairs into t; out: (place, weight) pairs from t */
static pn_status_t flow(gen_t *g, size_t w, int t, const int *in,
                        const uint64_t *inw, int nin, const int *out,
                        const uint64_t *outw, int nout)
{
    char tname[96];
    snprintf(tname, sizeof tname, "%s", tid(g, 2, w, t));
    for (int i = 0; i < nin; i++) {
        const char *src = in[i] <= 0 ? shared_place(in[i])
                                     : pid(g, 0, w, in[i]);
        TRY(arc(g, src, tname, inw ? inw[i] : 1, PN_ARC_NORMAL));
    }
    for (int i = 0; i < nout; i++) {
        const char *dst = out[i] <= 0 ? shared_place(out[i])
                                      : pid(g, 0, w, out[i]);
        TRY(arc(g, tname, dst, outw ? outw[i] : 1, PN_ARC_NORMAL));
    }
    return PN_OK;
}

/* A cache-hit frame of warp w, as the global one with latency h: t issues
 * a hit (counted down in place c) into the frame f, t + 1 counts a step,
 * t + 2 ends it after h steps (place c + 2) and gives p14. */
static pn_status_t hit_frame(gen_t *g, size_t w, int t, int c, uint64_t h)
{
    int f = c + 1, e = c + 2;
    TRY(flow(g, w, t, (int[]){11, 10, c}, NULL, 3, (int[]){0, f},
             (uint64_t[]){1, h + 1}, 2));
    TRY(flow(g, w, t + 1, (int[]){f}, (uint64_t[]){2}, 1, (int[]){f, e},
             NULL, 2));
    TRY(flow(g, w, t + 2, (int[]){f, e}, (uint64_t[]){1, h}, 2,
             (int[]){14}, NULL, 1));
    return PN_OK;
}

/* With B barriers a warp's count x runs in B + 1 phases: each barrier
 * gives the next phase x / (B + 1), the first phase has the rest. */
static uint64_t phase_count(uint64_t x, uint64_t B)
{
    return x / (B + 1);
}
static uint64_t first_phase(uint64_t x, uint64_t B)
{
    return x - B * phase_count(x, B);
}

/* The marking a warp starts with in place k: the initial marking of the
 * paper's net, or what its block's start transition puts there. */
static uint64_t warp_start(const pn_gpu_warp_t *x, const pn_gpu_params_t *p,
                           int k)
{
    switch (k) {
    case 1: case 2: case 3: return 1;
    case 5: return first_phase(x->arith, p->barriers);
    case 7: return first_phase(x->shared, p->barriers);
    case 9: return first_phase(x->global, p->barriers);
    case PN_GPU_BAR_LEFT: return p->barriers;
    case 23: return p->l1_hits;
    case 26: return p->l2_hits;
    case 29: return x->global - p->l1_hits - p->l2_hits;
    case 30: return p->mlp;
    default: return 0;
    }
}

/* The nodes of load-slot frame j >= 1 of warp w (box at ox, oy): the
 * copies of t5, p12, t8, p13, t9 in a row of their own below. */
static pn_status_t frame_nodes(gen_t *g, size_t w, int j, double ox,
                               double oy)
{
    const layout_t *L = &g->lay;
    double y = oy + FRAME_Y(j);
    for (int r = 0; r < 3; r++) {
        int k0 = frame_node(0, 't', r), k = frame_node(j, 't', r);
        char name[160];
        size_t idx;
        snprintf(name, sizeof name, "w%zu t%d %s", w, k, transition_meaning[k0]);
        TRY(pn_net_add_transition(g->net, tid(g, 0, w, k), name, &idx));
        /* issue, count, end: as t5 (480), t8 (585), t9 (480) */
        TRY(pn_net_set_position(g->net, PN_TRANSITION, idx,
                                ox + L->col[column_of(r == 1 ? 585 : 480)],
                                y + (r == 0 ? 0 : r == 1 ? 75 : 150)));
        TRY(pn_net_set_label_offset(g->net, PN_TRANSITION, idx, LABEL_DX,
                                    LABEL_DY));
        if (r == 0)
            continue;
        int q0 = frame_node(0, 'p', r), q = frame_node(j, 'p', r);
        snprintf(name, sizeof name, "w%zu p%d %s", w, q, place_meaning[q0]);
        TRY(pn_net_add_place(g->net, pid(g, 0, w, q), name, 0, &idx));
        /* countdown (480, +75), elapsed (585, +150) */
        TRY(pn_net_set_position(g->net, PN_PLACE, idx,
                                ox + L->col[column_of(r == 1 ? 480 : 585)],
                                y + (r == 1 ? 75 : 150)));
        TRY(pn_net_set_label_offset(g->net, PN_PLACE, idx, LABEL_DX,
                                    LABEL_DY));
    }
    return PN_OK;
}

/* A shared node in the left column, at row y. */
static pn_status_t shared_node(gen_t *g, pn_object_t kind, const char *id,
                               const char *name, uint64_t m, double y);

/* The warp's part of a barrier: p101 counts the barriers still to meet;
 * t120 fires once the phase's instructions are done (inhibitors from p5,
 * p7, p9; with load slots, all slots back) and puts the warp at the
 * barrier (p100), where its block's b<j>_sync takes it; t16 waits until
 * no barrier is left. */
static pn_status_t barrier_warp(gen_t *g, size_t w, const pn_gpu_params_t *p,
                                double ox, double oy, int blocks)
{
    static const char *const meaning[3] = {
        "waiting at the barrier", "barriers left",
        "arrival at the barrier"};
    const layout_t *L = &g->lay;
    double y = oy + BOX_H - 105;
    size_t idx;
    char name[160];
    for (int i = 0; i < 2; i++) {
        int k = i ? PN_GPU_BAR_LEFT : PN_GPU_BAR_WAIT;
        snprintf(name, sizeof name, "w%zu p%d %s", w, k, meaning[i]);
        TRY(pn_net_add_place(g->net, pid(g, 0, w, k), name,
                             i && !blocks ? p->barriers : 0, &idx));
        TRY(pn_net_set_position(g->net, PN_PLACE, idx,
                                ox + L->col[column_of(i ? 45 : 300)], y));
        TRY(pn_net_set_label_offset(g->net, PN_PLACE, idx, LABEL_DX,
                                    LABEL_DY));
    }
    snprintf(name, sizeof name, "w%zu t%d %s", w, PN_GPU_BAR_ARRIVE,
             meaning[2]);
    TRY(pn_net_add_transition(g->net, tid(g, 0, w, PN_GPU_BAR_ARRIVE), name,
                              &idx));
    TRY(pn_net_set_position(g->net, PN_TRANSITION, idx,
                            ox + L->col[column_of(120)], y + 45));
    TRY(pn_net_set_label_offset(g->net, PN_TRANSITION, idx, LABEL_DX,
                                LABEL_DY));
    uint64_t mlp = p->mlp >= 2 ? p->mlp : 0;
    TRY(flow(g, w, PN_GPU_BAR_ARRIVE, (int[]){2, 3, PN_GPU_BAR_LEFT, 30},
             (uint64_t[]){1, 1, 1, mlp}, mlp ? 4 : 3,
             (int[]){PN_GPU_BAR_WAIT, 30}, (uint64_t[]){1, mlp}, mlp ? 2 : 1));
    char t[96];
    snprintf(t, sizeof t, "%s", tid(g, 2, w, PN_GPU_BAR_ARRIVE));
    for (int k = 5; k <= 9; k += 2)
        TRY(arc(g, pid(g, 0, w, k), t, 1, PN_ARC_INHIBITOR));
    snprintf(t, sizeof t, "%s", tid(g, 2, w, 16));
    return arc(g, pid(g, 0, w, PN_GPU_BAR_LEFT), t, 1, PN_ARC_INHIBITOR);
}

static pn_status_t warp(gen_t *g, size_t w, const pn_gpu_warp_t *x,
                        const pn_gpu_params_t *p, size_t cols)
{
    uint64_t l1 = p->l1, l2 = p->l2, la = p->la;
    uint64_t T = p->transactions > 1 ? p->transactions : 1, K = p->inflight;
    int pipe = p->pipelined != 0, tx = K || T > 1;
    int hits = p->l1_hits || p->l2_hits;
    int blocks = p->resident != 0; /* t16 -> b<j>_done: block_slots() */
    uint64_t mlp = p->mlp >= 2 ? p->mlp : 0;
    pn_net_t *net = g->net;
    const layout_t *L = &g->lay;
    double ox = L->origin_x + (double)(w % cols) * L->box_w;
    double oy = ORIGIN_Y + (double)(w / cols) * L->box_h;
    for (int k = 1; k <= 30; k++) {
        if (!HAS(g->nodes.places, k))
            continue;
        uint64_t m = blocks ? 0 : warp_start(x, p, k);
        char name[160];
        snprintf(name, sizeof name, "w%zu p%d %s", w, k, place_meaning[k]);
        size_t idx;
        TRY(pn_net_add_place(net, pid(g, 0, w, k), name, m, &idx));
        TRY(pn_net_set_position(net, PN_PLACE, idx,
                                ox + L->col[column_of(place_xy[k][0])],
                                oy + place_xy[k][1]));
        TRY(pn_net_set_label_offset(net, PN_PLACE, idx, LABEL_DX, LABEL_DY));
    }
    /* transitions in the paper's order, then t18 ... t26 */
    static const int tnums[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
    for (size_t i = 0; i < sizeof tnums / sizeof *tnums; i++) {
        int k = tnums[i];
        if (!HAS(g->nodes.trans, k))
            continue;
        char name[160];
        snprintf(name, sizeof name, "w%zu t%d %s", w, k, transition_meaning[k]);
        size_t idx;
        TRY(pn_net_add_transition(net, tid(g, 0, w, k), name, &idx));
        TRY(pn_net_set_position(net, PN_TRANSITION, idx,
                                ox + L->col[column_of(transition_xy[k][0])],
                                oy + transition_xy[k][1]));
        TRY(pn_net_set_label_offset(net, PN_TRANSITION, idx, LABEL_DX,
                                    LABEL_DY));
    }
    /* arcs, transition by transition, as in the table of wpnm.md */
    TRY(flow(g, w, 1, (int[]){2, 4, 0}, NULL, 3, (int[]){11}, NULL, 1));
    TRY(flow(g, w, 2, (int[]){3, 5}, NULL, 2, (int[]){4, 6}, NULL, 2));
    TRY(flow(g, w, 3, (int[]){3, 7}, NULL, 2, (int[]){4, 8}, NULL, 2));
    TRY(flow(g, w, 4, (int[]){3, 9}, NULL, 2, (int[]){4, 10}, NULL, 2));
    /* t5 issues a DRAM access: with cache hits it takes one of the warp's
     * DRAM accesses (p29); with transactions it waits for bandwidth (p20)
     * or puts its first transaction in flight (p21) and the others to be
     * sent (p22) */
    if (!mlp)
        TRY(flow(g, w, 5, (int[]){11, 10, 29}, NULL, hits ? 3 : 2,
                 (int[]){0, 12, K ? 20 : 21, 22},
                 (uint64_t[]){1, l1 + 1, tx, K ? 0 : T - 1}, 4));
    /* pipelined issue: the scheduler comes back when the instruction is
     * issued (t6, t7), not when it is finished (t14, t15) */
    TRY(flow(g, w, 6, (int[]){11, 8}, NULL, 2, (int[]){0, 15},
             (uint64_t[]){pipe, l2 + 1}, 2));
    TRY(flow(g, w, 7, (int[]){11, 6}, NULL, 2, (int[]){0, 17},
             (uint64_t[]){pipe, pipe ? la + 1 : 1}, 2));
    /* t8 counts only once the access's T transactions are all sent: it
     * tests p21 for T tokens */
    TRY(flow(g, w, 8, (int[]){12, 21}, (uint64_t[]){2, tx ? T : 0}, 2,
             (int[]){12, 13, 21}, (uint64_t[]){1, 1, tx ? T : 0}, 3));
    if (!mlp) {
        TRY(flow(g, w, 9, (int[]){12, 13, 21},
                 (uint64_t[]){1, l1, tx ? T : 0}, 3, (int[]){14, -2},
                 (uint64_t[]){1, K ? T : 0}, 2));
        TRY(flow(g, w, 11, (int[]){14}, NULL, 1, (int[]){2, 3}, NULL, 2));
    }
    /* load slots: an issue takes a slot and a free frame (no token in its
     * countdown place) and gives the warp back at once (p2, p3); the
     * frame counts as the paper's (t8) and its end gives the slot back */
    for (uint64_t j = 0; mlp && j < mlp; j++) {
        int c = frame_node((int)j, 'p', 1), e = frame_node((int)j, 'p', 2);
        int ti = frame_node((int)j, 't', 0), tc = frame_node((int)j, 't', 1);
        int te = frame_node((int)j, 't', 2);
        if (j > 0)
            TRY(frame_nodes(g, w, (int)j, ox, oy));
        TRY(flow(g, w, ti, (int[]){11, 10, 30}, NULL, 3,
                 (int[]){0, c, 2, 3}, (uint64_t[]){1, l1 + 1, 1, 1}, 4));
        char tn[96];
        snprintf(tn, sizeof tn, "%s", tid(g, 2, w, ti));
        TRY(arc(g, pid(g, 0, w, c), tn, 1, PN_ARC_INHIBITOR));
        if (j > 0)
            TRY(flow(g, w, tc, (int[]){c}, (uint64_t[]){2}, 1,
                     (int[]){c, e}, NULL, 2));
        TRY(flow(g, w, te, (int[]){c, e}, (uint64_t[]){1, l1}, 2,
                 (int[]){30}, NULL, 1));
    }
    TRY(flow(g, w, 12, (int[]){15, 18}, (uint64_t[]){1, l2}, 2, (int[]){16},
             NULL, 1));
    TRY(flow(g, w, 14, (int[]){16}, NULL, 1, (int[]){0, 2, 3},
             (uint64_t[]){!pipe, 1, 1}, 3));
    TRY(flow(g, w, 15, (int[]){17, 19}, (uint64_t[]){1, pipe ? la : 0}, 2,
             (int[]){0, 2, 3}, (uint64_t[]){!pipe, 1, 1}, 3));
    if (pipe && la)   /* the arithmetic latency counter, as t8 for global */
        TRY(flow(g, w, 18, (int[]){17}, (uint64_t[]){2}, 1, (int[]){17, 19},
                 NULL, 2));
    /* with load slots the warp ends once all its slots are back */
    TRY(flow(g, w, 16, (int[]){1, 2, 3, -1, 30},
             (uint64_t[]){1, 1, 1, 1, mlp}, 5, NULL, NULL, 0));
    char t16[96];
    snprintf(t16, sizeof t16, "%s", tid(g, 2, w, 16));
    TRY(arc(g, pid(g, 0, w, 5), t16, 1, PN_ARC_INHIBITOR));
    TRY(arc(g, pid(g, 0, w, 7), t16, 1, PN_ARC_INHIBITOR));
    TRY(arc(g, pid(g, 0, w, 9), t16, 1, PN_ARC_INHIBITOR));
    TRY(flow(g, w, 17, (int[]){15}, (uint64_t[]){2}, 1, (int[]){15, 18}, NULL,
             2));
    /* bandwidth: all T transactions of an access at once, the first one
     * in flight, the others to be sent */
    if (K)
        TRY(flow(g, w, 19, (int[]){20, -2}, (uint64_t[]){1, T}, 2,
                 (int[]){21, 22}, (uint64_t[]){1, T - 1}, 2));
    if (T > 1)   /* one more transaction a step */
        TRY(flow(g, w, 20, (int[]){22}, NULL, 1, (int[]){21}, NULL, 1));
    /* cache hits: frames as the global one, with their own latencies */
    if (p->l1_hits)
        TRY(hit_frame(g, w, 21, 23, p->l1_hit_latency));
    if (p->l2_hits)
        TRY(hit_frame(g, w, 24, 26, p->l2_hit_latency));
    if (p->barriers)
        TRY(barrier_warp(g, w, p, ox, oy, blocks));
    /* every p2 has an inhibitor arc to t0 */
    TRY(arc(g, pid(g, 0, w, 2), "t0", 1, PN_ARC_INHIBITOR));
    return PN_OK;
}

/* The barrier's transition of block (or slot) j: it takes each warp of
 * the block from the barrier (p100) and gives it its next phase (p2, p3
 * and the phase's counts; a zero count leaves its arc out). */
static pn_status_t barrier_sync(gen_t *g, const pn_gpu_params_t *p, size_t j,
                                size_t WB)
{
    char id[64], name[96];
    snprintf(id, sizeof id, "b%zu_sync", j);
    snprintf(name, sizeof name, "b%zu sync: the block's warps meet", j);
    TRY(shared_node(g, PN_TRANSITION, id, name, 0,
                    (p->resident ? SLOT_Y + SLOT_H * (double)p->resident
                                 : SLOT_Y) + 75.0 * (double)j));
    uint64_t B = p->barriers;
    for (size_t w = j * WB; w < (j + 1) * WB; w++) {
        const pn_gpu_warp_t *x = p->work ? &p->work[w] : &p->uniform;
        const int to[5] = {2, 3, 5, 7, 9};
        const uint64_t n[5] = {1, 1, phase_count(x->arith, B),
                               phase_count(x->shared, B),
                               phase_count(x->global, B)};
        TRY(arc(g, pid(g, 0, w, PN_GPU_BAR_WAIT), id, 1, PN_ARC_NORMAL));
        for (int i = 0; i < 5; i++)
            TRY(arc(g, id, pid(g, 0, w, to[i]), n[i], PN_ARC_NORMAL));
    }
    return PN_OK;
}

/* A shared node in the left column, at row y. */
static pn_status_t shared_node(gen_t *g, pn_object_t kind, const char *id,
                               const char *name, uint64_t m, double y)
{
    size_t idx;
    if (kind == PN_PLACE)
        TRY(pn_net_add_place(g->net, id, name, m, &idx));
    else
        TRY(pn_net_add_transition(g->net, id, name, &idx));
    TRY(pn_net_set_position(g->net, kind, idx, SHARED_X, y));
    return pn_net_set_label_offset(g->net, kind, idx, LABEL_DX, LABEL_DY);
}

/* The block scheduler: slot j (warps j*WB ... j*WB+WB-1) is free (b<j>_free)
 * or runs a block (b<j>_run); b<j>_start takes a pending block into a free
 * slot and puts its warps' start markings, b<j>_end frees the slot once
 * its WB warps have ended (b<j>_done). */
static pn_status_t block_slots(gen_t *g, const pn_gpu_params_t *p,
                               size_t slots)
{
    TRY(shared_node(g, PN_PLACE, "pending", "pending: blocks not yet started",
                    p->blocks, 285));
    size_t WB = p->warps_per_block;
    for (size_t j = 0; j < slots; j++) {
        double y = SLOT_Y + SLOT_H * (double)j;
        char id[4][64], name[4][96];
        snprintf(id[0], sizeof id[0], "b%zu_free", j);
        snprintf(id[1], sizeof id[1], "b%zu_start", j);
        snprintf(id[2], sizeof id[2], "b%zu_run", j);
        snprintf(id[3], sizeof id[3], "b%zu_done", j);
        snprintf(name[0], sizeof name[0], "b%zu free: the slot is free", j);
        snprintf(name[1], sizeof name[1], "b%zu start: a block enters", j);
        snprintf(name[2], sizeof name[2], "b%zu run: the slot runs a block", j);
        snprintf(name[3], sizeof name[3],
                 "b%zu done: warps of the block finished", j);
        TRY(shared_node(g, PN_PLACE, id[0], name[0], 1, y));
        TRY(shared_node(g, PN_TRANSITION, id[1], name[1], 0, y + 75));
        TRY(shared_node(g, PN_PLACE, id[2], name[2], 0, y + 150));
        TRY(shared_node(g, PN_PLACE, id[3], name[3], 0, y + 225));
        char end[64], endname[96];
        snprintf(end, sizeof end, "b%zu_end", j);
        snprintf(endname, sizeof endname, "b%zu end: the slot is freed", j);
        TRY(shared_node(g, PN_TRANSITION, end, endname, 0, y + 300));
        TRY(arc(g, id[0], id[1], 1, PN_ARC_NORMAL));
        TRY(arc(g, "pending", id[1], 1, PN_ARC_NORMAL));
        TRY(arc(g, id[1], id[2], 1, PN_ARC_NORMAL));
        for (size_t w = j * WB; w < (j + 1) * WB; w++) {
            const pn_gpu_warp_t *x = p->work ? &p->work[w] : &p->uniform;
            for (int k = 1; k <= 30; k++)
                if (HAS(g->nodes.places, k))
                    TRY(arc(g, id[1], pid(g, 0, w, k), warp_start(x, p, k),
                            PN_ARC_NORMAL));
            if (p->barriers)
                TRY(arc(g, id[1], pid(g, 0, w, PN_GPU_BAR_LEFT), p->barriers,
                        PN_ARC_NORMAL));
            /* the warp's end (t16) is counted in the slot's done place */
            char t16[64];
            snprintf(t16, sizeof t16, "w%zu_t16", w);
            TRY(arc(g, t16, id[3], 1, PN_ARC_NORMAL));
        }
        TRY(arc(g, id[2], end, 1, PN_ARC_NORMAL));
        TRY(arc(g, id[3], end, WB, PN_ARC_NORMAL));
        TRY(arc(g, end, id[0], 1, PN_ARC_NORMAL));
    }
    return PN_OK;
}

/* The parameters, for pn-info and pn-sweep to read back: a
 * <toolspecific tool="pn-gen-gpu"> block holding one <gpu/> element whose
 * attributes are named as the options; the constructs beyond the paper's
 * net only when they are used. */
static void tool_block(char *tool, size_t cap, const pn_gpu_params_t *p)
{
    size_t n = 0;
#define PUT(...)                                                               \
    do {                                                                       \
        int r_ = snprintf(tool + n, cap - n, __VA_ARGS__);                     \
        if (r_ > 0 && (size_t)r_ < cap - n)                                    \
            n += (size_t)r_;                                                   \
    } while (0)
#define ULL(v) ((unsigned long long)(v))
    PUT("<toolspecific tool=\"pn-gen-gpu\" version=\"1\"><gpu warps=\"%zu\" "
        "schedulers=\"%llu\"", p->warps, ULL(p->schedulers));
    if (p->work)
        PUT(" l1=\"%llu\" l2=\"%llu\" workload=\"per-warp\"", ULL(p->l1),
            ULL(p->l2));
    else
        PUT(" arith=\"%llu\" shared=\"%llu\" global=\"%llu\" l1=\"%llu\" "
            "l2=\"%llu\"", ULL(p->uniform.arith), ULL(p->uniform.shared),
            ULL(p->uniform.global), ULL(p->l1), ULL(p->l2));
    if (p->pipelined)
        PUT(" pipelined=\"1\" la=\"%llu\"", ULL(p->la));
    if (p->resident)
        PUT(" resident=\"%llu\" sm-blocks=\"%llu\" warps-per-block=\"%zu\"",
            ULL(p->resident), ULL(p->blocks), p->warps_per_block);
    if (p->transactions > 1)
        PUT(" transactions=\"%llu\"", ULL(p->transactions));
    if (p->inflight)
        PUT(" inflight=\"%llu\"", ULL(p->inflight));
    if (p->l1_hits)
        PUT(" l1-hits=\"%llu\" l1-hit-latency=\"%llu\"", ULL(p->l1_hits),
            ULL(p->l1_hit_latency));
    if (p->l2_hits)
        PUT(" l2-hits=\"%llu\" l2-hit-latency=\"%llu\"", ULL(p->l2_hits),
            ULL(p->l2_hit_latency));
    if (p->mlp >= 2)
        PUT(" mlp=\"%llu\"", ULL(p->mlp));
    if (p->barriers)
        PUT(" barriers=\"%llu\" barrier-warps=\"%zu\"", ULL(p->barriers),
            p->warps_per_block ? p->warps_per_block : p->warps);
    if (p->stochastic)
        PUT(" stochastic=\"1\" stages=\"%llu\"", ULL(p->stages));
    PUT("/></toolspecific>");
#undef PUT
#undef ULL
}

/* The net with time (doc/wpnm.md): each latency L of the step net as
 * min(stages, L) stages (stages 0: L, one a step); set_timing() gives
 * their count transitions the rate that makes the chain's mean L. */
static uint64_t stage_count(uint64_t stages, uint64_t L)
{
    return stages && stages < L ? stages : L;
}
static pn_gpu_params_t stage_latencies(const pn_gpu_params_t *p)
{
    pn_gpu_params_t q = *p;
    if (p->stochastic) {
        q.l1 = stage_count(p->stages, p->l1);
        q.l2 = stage_count(p->stages, p->l2);
        q.la = stage_count(p->stages, p->la);
    }
    return q;
}
static pn_status_t set_timing(pn_net_t *net, const pn_gpu_params_t *p,
                              const pn_gpu_params_t *q);

pn_status_t pn_gpu_net(const pn_gpu_params_t *p, pn_net_t **out)
{
    if (!p || !out)
        return PN_EINVAL;
    *out = NULL;
    if (p->warps == 0 || p->schedulers == 0 || p->warps > PN_GPU_MAX_WARPS)
        return PN_EINVAL;
    if (p->schedulers > PN_TOKENS_MAX || p->l1 >= PN_TOKENS_MAX ||
        p->l2 >= PN_TOKENS_MAX || p->la >= PN_TOKENS_MAX ||
        p->l1_hit_latency >= PN_TOKENS_MAX ||
        p->l2_hit_latency >= PN_TOKENS_MAX || p->blocks > PN_TOKENS_MAX ||
        p->transactions > PN_TOKENS_MAX || p->inflight > PN_TOKENS_MAX)
        return PN_ERANGE;
    size_t slots = 0;
    if (p->resident) {
        if (!p->blocks || !p->warps_per_block)
            return PN_EINVAL;
        slots = p->resident < p->blocks ? (size_t)p->resident
                                        : (size_t)p->blocks;
        if (p->warps / p->warps_per_block != slots ||
            p->warps % p->warps_per_block)
            return PN_EINVAL;
        /* every warp of every block is active until it ends */
        if (p->blocks > PN_TOKENS_MAX / p->warps_per_block)
            return PN_ERANGE;
    }
    uint64_t T = p->transactions > 1 ? p->transactions : 1;
    if (p->inflight && p->inflight < T)
        return PN_EINVAL;
    if (p->mlp > PN_GPU_MAX_MLP ||
        (p->mlp >= 2 && (T > 1 || p->inflight || p->l1_hits || p->l2_hits)))
        return PN_EINVAL;
    for (size_t w = 0; w < p->warps; w++) {
        const pn_gpu_warp_t *x = p->work ? &p->work[w] : &p->uniform;
        if (x->arith > PN_TOKENS_MAX || x->shared > PN_TOKENS_MAX ||
            x->global > PN_TOKENS_MAX)
            return PN_ERANGE;
        if (p->l1_hits > x->global || p->l2_hits > x->global - p->l1_hits)
            return PN_EINVAL;
    }
    /* barriers: the warps of a block meet (all warps without a block) */
    size_t bar_wb = p->warps_per_block ? p->warps_per_block : p->warps;
    if (p->barriers > PN_TOKENS_MAX)
        return PN_ERANGE;
    if (p->barriers && (p->l1_hits || p->l2_hits || p->warps % bar_wb))
        return PN_EINVAL;
    /* time: the issue choices of load slots and hits would race */
    if ((p->stages && !p->stochastic) || p->stochastic > 1 ||
        (p->stochastic && (p->mlp >= 2 || p->l1_hits || p->l2_hits)))
        return PN_EINVAL;
    pn_gpu_params_t q = stage_latencies(p);
    gen_t g;
    g.nodes = nodes_of(p);
    plan_layout(&g.lay, p->warps, g.nodes, slots != 0, p->inflight != 0);
    g.net = pn_net_new("wpnm");
    if (!g.net)
        return PN_ENOMEM;
    char name[200];
    snprintf(name, sizeof name, "GPU warp net: %zu warps, %llu schedulers%s",
             p->warps, (unsigned long long)p->schedulers,
             p->pipelined ? ", pipelined issue" : "");
    if (p->stochastic)
        snprintf(name + strlen(name), sizeof name - strlen(name), ", timed");
    if (slots)
        snprintf(name + strlen(name), sizeof name - strlen(name),
                 ", %llu blocks of %zu warps, %zu resident",
                 (unsigned long long)p->blocks, p->warps_per_block, slots);
    pn_status_t st = pn_net_set_name(g.net, name);
    char tool[800];
    tool_block(tool, sizeof tool, p);
    if (!st)
        st = pn_net_add_toolspecific(g.net, PN_NET, 0, "pn-gen-gpu", "1",
                                     tool);
    uint64_t active = slots ? p->blocks * p->warps_per_block : p->warps;
    if (!st)
        st = shared_node(&g, PN_PLACE, "p0", "SM (free warp schedulers)",
                         p->schedulers, 45);
    if (!st)
        st = shared_node(&g, PN_PLACE, "active", "active warps", active, 195);
    if (!st)
        st = shared_node(&g, PN_TRANSITION, "t0", "waiting (idle step)", 0,
                         120);
    if (!st)
        st = pn_net_add_arc(g.net, "a_p0_t0", "p0", "t0", 1, PN_ARC_NORMAL,
                            NULL);
    if (!st)
        st = pn_net_add_arc(g.net, "a_active_t0", "active", "t0", 1,
                            PN_ARC_NORMAL, NULL);
    if (!st)
        st = pn_net_add_arc(g.net, "a_t0_p0", "t0", "p0", 1, PN_ARC_NORMAL,
                            NULL);
    if (!st)
        st = pn_net_add_arc(g.net, "a_t0_active", "t0", "active", 1,
                            PN_ARC_NORMAL, NULL);
    /* the bandwidth place: K DRAM transactions in flight at most */
    if (!st && p->inflight)
        st = shared_node(&g, PN_PLACE, "dram",
                         DRAM_NAME, p->inflight,
                         slots ? SLOT_Y + SLOT_H * (double)slots : 285);
    size_t cols = (size_t)ceil(sqrt((double)p->warps));
    /* the warps first: the block slots' arcs go to their places */
    for (size_t w = 0; !st && w < p->warps; w++)
        st = warp(&g, w, p->work ? &p->work[w] : &p->uniform, &q, cols);
    if (!st && slots)
        st = block_slots(&g, p, slots);
    for (size_t j = 0; !st && p->barriers && j < p->warps / bar_wb; j++)
        st = barrier_sync(&g, p, j, bar_wb);
    if (!st && p->stochastic)
        st = set_timing(g.net, p, &q);
    /* one page holding everything: the written PNML then needs no block of
     * ours to say that the net has no page */
    size_t page;
    if (!st)
        st = pn_net_add_page(g.net, "sm", "streaming multiprocessor", PN_NONE,
                             &page);
    for (size_t i = 0; !st && i < pn_net_place_count(g.net); i++)
        st = pn_net_set_page(g.net, PN_PLACE, i, page);
    for (size_t i = 0; !st && i < pn_net_transition_count(g.net); i++)
        st = pn_net_set_page(g.net, PN_TRANSITION, i, page);
    if (st) {
        pn_net_free(g.net);
        return st;
    }
    *out = g.net;
    return PN_OK;
}

void pn_gpu_params_init(pn_gpu_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->warps = 32;
    p->schedulers = 2;
    p->l1 = 20;
    p->l2 = 2;
    p->uniform.arith = 10;
    p->uniform.shared = 4;
    p->uniform.global = 4;
}

/* A workload line, as the CSV reader of lib/ reads it (plain: no quoting;
 * '#' starts a comment): text[0..len) is the line less its comment and the
 * white space around it, for messages. */
typedef struct {
    const pni_csv_t *c;
    const char *text;
    size_t len;
} wl_line_t;

/* Text of the file shown in a message: at most 60 bytes, escaped. */
#define WL_SHOW(q, s, n) pni_quote(q, sizeof q, s, n, 60)

/* White space: before a count (tab), and around the line or after a
 * count (tab, CR: what the reader of lines took, a CR left of CRLF). */
static int wl_space(char ch) { return ch == ' ' || ch == '\t'; }
static int wl_white(char ch) { return wl_space(ch) || ch == '\r'; }

/* The four counts of a line.  Returns PN_OK, or an error naming the line. */
static pn_status_t wl_counts(const wl_line_t *l, uint64_t v[4], pn_error_t *err)
{
    const pni_csv_t *c = l->c;
    unsigned long ln = c->rec_line;
    char q[256];
    const char *end = l->text + l->len;
    for (size_t k = 0; k < 4; k++) {
        const char *p = k < c->n ? c->cells[k].s : end;
        const char *ce = k < c->n ? p + c->cells[k].len : end;
        if (p < l->text)
            p = l->text; /* the white space the line starts with */
        while (p < ce && wl_space(*p))
            p++;
        if (p == ce || *p < '0' || *p > '9')
            return pni_error(err, PN_EVALUE, ln, 0,
                             p < ce && *p == '-'
                                 ? "negative count in '%s' (counts are "
                                   "integers >= 0)"
                                 : "expected warp,arith,shared,global "
                                   "(integers >= 0), got '%s'",
                             WL_SHOW(q, l->text, l->len));
        uint64_t x = 0;
        for (; p < ce && *p >= '0' && *p <= '9'; p++) {
            x = x * 10 + (uint64_t)(*p - '0');
            if (x > PN_TOKENS_MAX)
                return pni_error(err, PN_ERANGE, ln, 0,
                                 "number above 2^63-1 in '%s'",
                                 WL_SHOW(q, l->text, l->len));
        }
        v[k] = x;
        while (p < ce && wl_white(*p))
            p++;
        if (k < 3 && (p < ce || k + 1 >= c->n))
            return pni_error(err, PN_EVALUE, ln, 0,
                             "expected 4 comma-separated fields "
                             "(warp,arith,shared,global), got '%s'",
                             WL_SHOW(q, l->text, l->len));
        if (k == 3 && p < end && (p < ce || c->n > 4))
            return pni_error(err, PN_EVALUE, ln, 0,
                             "trailing text after the 4 fields: '%s'",
                             WL_SHOW(q, p, (size_t)(end - p)));
    }
    return PN_OK;
}

/* The line of the record just read, or a message: longer than the
 * reader ever took, or holding a NUL byte.  *skip: blank or the header. */
static pn_status_t wl_line(const pni_csv_t *c, wl_line_t *l, int *skip,
                           pn_error_t *err)
{
    const char *b = c->buf;
    if (c->line_end - c->rec_start > 1023)
        return pni_error(err, PN_EVALUE, c->rec_line, 0,
                         "line longer than 1023 bytes");
    if (memchr(b + c->rec_start, '\0', c->line_end - c->rec_start))
        return pni_error(err, PN_EVALUE, c->rec_line, 0,
                         "a NUL byte in the line (a workload is a text file)");
    size_t s = c->rec_start, e = c->rec_end;
    if (e == c->line_end) /* no comment: no white space at the end */
        while (e > s && wl_white(b[e - 1]))
            e--;
    while (s < e && wl_white(b[s]))
        s++;
    l->c = c;
    l->text = b + s;
    l->len = e - s;
    *skip = l->len == 0 || (l->len >= 4 && !memcmp(l->text, "warp", 4));
    return PN_OK;
}

/* Records warp v[0]'s counts in *work (growing it and *seen). */
static pn_status_t wl_put(const wl_line_t *l, const uint64_t v[4],
                          pn_gpu_warp_t **work, unsigned char **seen,
                          size_t *n, size_t *cap, pn_error_t *err)
{
    unsigned long ln = l->c->rec_line;
    char q[256];
    if (v[0] >= PN_GPU_MAX_WARPS)
        return pni_error(err, PN_ERANGE, ln, 0, "warp number above 16383 (at "
                         "most 16384 warps) in '%s'",
                         WL_SHOW(q, l->text, l->len));
    size_t w = (size_t)v[0];
    if (w >= *cap) {
        size_t nc = *cap ? *cap : 64;
        while (nc <= w)
            nc *= 2;
        pn_gpu_warp_t *nw = realloc(*work, nc * sizeof *nw);
        if (nw)
            *work = nw;
        unsigned char *ns = nw ? realloc(*seen, nc) : NULL;
        if (!ns)
            return pni_error(err, PN_ENOMEM, ln, 0, "out of memory");
        memset(ns + *cap, 0, nc - *cap);
        *seen = ns;
        *cap = nc;
    }
    if ((*seen)[w])
        return pni_error(err, PN_EVALUE, ln, 0, "warp %zu is given twice", w);
    (*seen)[w] = 1;
    (*work)[w].arith = v[1];
    (*work)[w].shared = v[2];
    (*work)[w].global = v[3];
    if (w + 1 > *n)
        *n = w + 1;
    return PN_OK;
}

pn_status_t pn_gpu_workload_read(const char *path, pn_gpu_warp_t **work_out,
                                 size_t *warps_out, pn_error_t *err)
{
    pni_error_begin(err, path ? path : "-");
    *work_out = NULL;
    *warps_out = 0;
    pni_csv_t c;
    pn_status_t st = pni_csv_open(&c, path, NULL, err);
    c.plain = 1;
    c.comment = '#';
    pn_gpu_warp_t *work = NULL;
    unsigned char *seen = NULL;
    size_t n = 0, cap = 0;
    unsigned long ln = 0;
    int got;
    while (!st && !(st = pni_csv_next(&c, &got)) && got) {
        ln = c.rec_line;
        wl_line_t l = {NULL, NULL, 0};
        int skip;
        uint64_t v[4];
        if (!(st = wl_line(&c, &l, &skip, err)) && !skip &&
            !(st = wl_counts(&l, v, err)))
            st = wl_put(&l, v, &work, &seen, &n, &cap, err);
    }
    pni_csv_close(&c);
    if (!st && n == 0)
        st = pni_error(err, PN_EVALUE, ln, 0, "no warps in the workload");
    for (size_t w = 0; !st && w < n; w++)
        if (!seen[w])
            st = pni_error(err, PN_EVALUE, 0, 0, "warp %zu is missing (warps "
                           "are numbered from 0 without gaps)", w);
    free(seen);
    if (st) {
        free(work);
        return st;
    }
    *work_out = work;
    *warps_out = n;
    return PN_OK;
}

/* ---- groups and classes ------------------------------------------------ */

/* "w12_t3" -> warp 12, kind 't', number 3; 0 when id is not of that form. */
static int warp_id(const char *id, size_t *warp, char *kind, int *num)
{
    if (id[0] != 'w' || id[1] < '0' || id[1] > '9')
        return 0;
    char *end;
    errno = 0;
    unsigned long long w = strtoull(id + 1, &end, 10);
    if (errno || end[0] != '_' || (end[1] != 'p' && end[1] != 't') ||
        end[2] < '0' || end[2] > '9')
        return 0;
    char *end2;
    long k = strtol(end + 2, &end2, 10);
    if (*end2 || k < 1 ||
        (k > 26 + 3 * (PN_GPU_MAX_MLP - 1) + 2 && k != PN_GPU_BAR_WAIT &&
         k != PN_GPU_BAR_LEFT && k != PN_GPU_BAR_ARRIVE))
        return 0;
    *warp = (size_t)w;
    *kind = end[1];
    *num = (int)k;
    return 1;
}

/* The net with time: a step of the step net becomes an exponential delay
 * of mean 1, so that one warp alone takes on average as long as its steps.
 * The selection of an instruction (t2, t3, t4) is the one choice the step
 * net makes among transitions of one warp: racing, the enabled ones would
 * end it k times sooner, so it is immediate (weight 1: a uniform choice,
 * as the step net's random order) and its step goes to the issue t1
 * (mean 2).  A latency's count transition (t8, t17, t18) fires q's
 * stages at rate stages / L (p: the latencies asked for). */
static pn_status_t set_timing(pn_net_t *net, const pn_gpu_params_t *p,
                              const pn_gpu_params_t *q)
{
    for (size_t i = 0; i < pn_net_transition_count(net); i++) {
        size_t w;
        char kind;
        int k = 0;
        pn_timing_t timing = PN_TIMING_EXPONENTIAL;
        double rate = 1.0;
        if (!warp_id(pn_net_transition(net, i)->id, &w, &kind, &k))
            k = 0;
        if (k >= 2 && k <= 4)
            timing = PN_TIMING_IMMEDIATE;
        else if (k == 1)
            rate = 0.5;
        else if (k == 8 || k == 17 || k == 18) {
            /* latency 0: the count transition is there but never fires */
            uint64_t L = k == 8 ? p->l1 : k == 17 ? p->l2 : p->la;
            uint64_t n = k == 8 ? q->l1 : k == 17 ? q->l2 : q->la;
            rate = L ? (double)n / (double)L : 1.0;
        }
        TRY(pn_net_set_timing(net, i, timing, rate, PN_DEFAULT_PRIORITY,
                              PN_SERVER_SINGLE));
    }
    return PN_OK;
}

/* The block scheduler's nodes: b<j>_free, _run, _done (places), b<j>_start,
 * _end (transitions); kind 'p' or 't', 0 when id is not one of them. */
static int block_id(const char *id, char *kind)
{
    if (id[0] != 'b' || id[1] < '0' || id[1] > '9')
        return 0;
    const char *u = id + 1 + strspn(id + 1, "0123456789");
    if (!strcmp(u, "_free") || !strcmp(u, "_run") || !strcmp(u, "_done"))
        *kind = 'p';
    else if (!strcmp(u, "_start") || !strcmp(u, "_end") || !strcmp(u, "_sync"))
        *kind = 't';
    else
        return 0;
    return 1;
}

pn_status_t pn_gpu_groups(const pn_net_t *net, pn_groups_t **out)
{
    if (!net || !out)
        return PN_EINVAL;
    *out = NULL;
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    size_t warps = 0, w;
    char kind;
    int k;
    /* every id must be one the generator gives */
    for (size_t i = 0; i < np; i++) {
        const char *id = pn_net_place(net, i)->id;
        if (!strcmp(id, "p0") || !strcmp(id, "active") ||
            !strcmp(id, "pending") || !strcmp(id, "dram"))
            continue;
        if (block_id(id, &kind)) {
            if (kind != 'p')
                return PN_EINVAL;
            continue;
        }
        if (!warp_id(id, &w, &kind, &k) || kind != 'p' ||
            (k > 30 + 2 * (PN_GPU_MAX_MLP - 1) && k != PN_GPU_BAR_WAIT &&
             k != PN_GPU_BAR_LEFT) || w >= PN_GPU_MAX_WARPS)
            return PN_EINVAL;
        if (w + 1 > warps)
            warps = w + 1;
    }
    int idle = 0, blocks = 0;
    for (size_t i = 0; i < nt; i++) {
        const char *id = pn_net_transition(net, i)->id;
        if (!strcmp(id, "t0")) {
            idle = 1;
            continue;
        }
        if (block_id(id, &kind)) {
            if (kind != 't')
                return PN_EINVAL;
            blocks = 1;
            continue;
        }
        if (!warp_id(id, &w, &kind, &k) || kind != 't' ||
            w >= PN_GPU_MAX_WARPS)
            return PN_EINVAL;
        if (w + 1 > warps)
            warps = w + 1;
    }
    if (!idle)
        return PN_EINVAL;
    pn_groups_t *g = pn_groups_new(np, nt);
    pn_status_t st = g ? PN_OK : PN_ENOMEM;
    /* groups: "idle" (t0) first, then the warps in order */
    if (!st)
        st = pn_groups_add_group(g, "idle", NULL);
    for (size_t i = 0; !st && i < warps; i++) {
        char name[32];
        snprintf(name, sizeof name, "w%zu", i);
        st = pn_groups_add_group(g, name, NULL);
    }
    /* the block scheduler's nodes: a group after the warps */
    if (!st && blocks)
        st = pn_groups_add_group(g, "blocks", NULL);
    for (int c = 0; !st && c < C_COUNT; c++)
        st = pn_groups_add_class(g, class_name[c], class_color[c], NULL);
    for (size_t i = 0; !st && i < np; i++) {
        const char *id = pn_net_place(net, i)->id;
        if (warp_id(id, &w, &kind, &k))
            g->place_group[i] = w + 1;
        else if (blocks && block_id(id, &kind))
            g->place_group[i] = warps + 1;
    }
    for (size_t i = 0; !st && i < nt; i++) {
        const char *id = pn_net_transition(net, i)->id;
        if (!strcmp(id, "t0")) {
            g->transition_group[i] = 0;
            g->transition_class[i] = C_IDLE;
        } else if (warp_id(id, &w, &kind, &k)) {
            g->transition_group[i] = w + 1;
            g->transition_class[i] = (unsigned char)class_of(k);
        } else if (block_id(id, &kind)) {
            g->transition_group[i] = warps + 1;
            g->transition_class[i] = C_CONTROL;
        }
    }
    if (st) {
        pn_groups_free(g);
        return st;
    }
    *out = g;
    return PN_OK;
}
