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
static const char *const place_meaning[20] = {
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
};

static const char *const transition_meaning[19] = {
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
};

/* The class of each warp transition: what kind of instruction work its
 * firing is (t0, the idle step, is the class "idle"). */
enum { C_CONTROL, C_ARITH, C_SHARED, C_GLOBAL, C_IDLE, C_COUNT };
static const unsigned char transition_class[19] = {
    [1] = C_CONTROL, [2] = C_CONTROL, [3] = C_CONTROL, [4] = C_CONTROL,
    [5] = C_GLOBAL, [6] = C_SHARED, [7] = C_ARITH, [8] = C_GLOBAL,
    [9] = C_GLOBAL, [11] = C_GLOBAL, [12] = C_SHARED, [14] = C_SHARED,
    [15] = C_ARITH, [16] = C_CONTROL, [17] = C_SHARED, [18] = C_ARITH,
};
/* weakest first: a timeline cell shows the strongest class fired there */
static const char *const class_name[C_COUNT] = {"control", "arithmetic",
                                                "shared", "global", "idle"};
static const char *const class_color[C_COUNT] = {"#d9d9d9", "#4e79a7",
                                                 "#59a14f", "#f28e2b",
                                                 "#bab0ac"};

/* Positions inside one warp's box: the paper's Figure 2, selection row on
 * top, then the arithmetic, shared and global frames side by side. */
static const double place_xy[20][2] = {
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
};

static const double transition_xy[19][2] = {
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
static const double column_x[] = {45, 120, 300, 405, 480, 585};
#define NCOLS 6

static int column_of(double x)
{
    for (int c = 0; c < NCOLS; c++)
        if (column_x[c] == x)
            return c;
    return 0;
}

typedef struct {
    double col[NCOLS]; /* x of each column inside a warp's box */
    double box_w, origin_x;
} layout_t;

typedef struct {
    pn_net_t *net;
    char buf[3][96];
    layout_t lay;
} gen_t;

/* Column widths from the longest label of each column (for the warp with
 * the longest number). */
static void plan_layout(layout_t *lay, size_t warps)
{
    double width[NCOLS] = {0};
    char name[200];
    size_t w = warps - 1;
    for (int k = 1; k <= 18; k++) {
        int c = column_of(place_xy[k][0]);
        snprintf(name, sizeof name, "w%zu p%d %s", w, k, place_meaning[k]);
        double need = LABEL_DX + LABEL_CHAR * (double)strlen(name) + 40;
        if (need > width[c])
            width[c] = need;
    }
    for (int k = 1; k <= 17; k++) {
        if (!transition_meaning[k])
            continue;
        int c = column_of(transition_xy[k][0]);
        snprintf(name, sizeof name, "w%zu t%d %s", w, k,
                 transition_meaning[k]);
        double need = LABEL_DX + LABEL_CHAR * (double)strlen(name) + 40;
        if (need > width[c])
            width[c] = need;
    }
    double x = 45;
    for (int c = 0; c < NCOLS; c++) {
        lay->col[c] = x;
        x += ceil(width[c] / GRID) * GRID;
    }
    lay->box_w = x + 60;
    lay->origin_x = ceil((SHARED_X + LABEL_DX +
                          LABEL_CHAR * (double)strlen(
                                           "SM (free warp schedulers)") +
                          80) / GRID) * GRID;
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

/* in: (place, weight) pairs into t; out: (place, weight) pairs from t */
static pn_status_t flow(gen_t *g, size_t w, int t, const int *in,
                        const uint64_t *inw, int nin, const int *out,
                        const uint64_t *outw, int nout)
{
    char tname[96];
    snprintf(tname, sizeof tname, "%s", tid(g, 2, w, t));
    for (int i = 0; i < nin; i++) {
        const char *src = in[i] == 0 ? "p0" : in[i] < 0 ? "active"
                                                       : pid(g, 0, w, in[i]);
        TRY(arc(g, src, tname, inw ? inw[i] : 1, PN_ARC_NORMAL));
    }
    for (int i = 0; i < nout; i++) {
        const char *dst = out[i] == 0 ? "p0" : pid(g, 0, w, out[i]);
        TRY(arc(g, tname, dst, outw ? outw[i] : 1, PN_ARC_NORMAL));
    }
    return PN_OK;
}

static pn_status_t warp(gen_t *g, size_t w, const pn_gpu_warp_t *x,
                        const pn_gpu_params_t *p, size_t cols)
{
    uint64_t l1 = p->l1, l2 = p->l2, la = p->la;
    int pipe = p->pipelined != 0;
    int nplaces = pipe && la ? 19 : 18;
    pn_net_t *net = g->net;
    const layout_t *L = &g->lay;
    double ox = L->origin_x + (double)(w % cols) * L->box_w;
    double oy = ORIGIN_Y + (double)(w / cols) * BOX_H;
    for (int k = 1; k <= nplaces; k++) {
        uint64_t m = 0;
        if (k == 1 || k == 2 || k == 3)
            m = 1;
        else if (k == 5)
            m = x->arith;
        else if (k == 7)
            m = x->shared;
        else if (k == 9)
            m = x->global;
        char name[160];
        snprintf(name, sizeof name, "w%zu p%d %s", w, k, place_meaning[k]);
        size_t idx;
        TRY(pn_net_add_place(net, pid(g, 0, w, k), name, m, &idx));
        TRY(pn_net_set_position(net, PN_PLACE, idx,
                                ox + L->col[column_of(place_xy[k][0])],
                                oy + place_xy[k][1]));
        TRY(pn_net_set_label_offset(net, PN_PLACE, idx, LABEL_DX, LABEL_DY));
    }
    static const int tnums[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16,
                                17};
    size_t ntr = sizeof tnums / sizeof *tnums;
    for (size_t i = 0; i <= ntr; i++) {
        if (i == ntr && !(pipe && la))
            break;
        int k = i < ntr ? tnums[i] : 18;
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
    TRY(flow(g, w, 5, (int[]){11, 10}, NULL, 2, (int[]){0, 12},
             (uint64_t[]){1, l1 + 1}, 2));
    /* pipelined issue: the scheduler comes back when the instruction is
     * issued (t6, t7), not when it is finished (t14, t15) */
    TRY(flow(g, w, 6, (int[]){11, 8}, NULL, 2, (int[]){0, 15},
             (uint64_t[]){pipe, l2 + 1}, 2));
    TRY(flow(g, w, 7, (int[]){11, 6}, NULL, 2, (int[]){0, 17},
             (uint64_t[]){pipe, pipe ? la + 1 : 1}, 2));
    TRY(flow(g, w, 8, (int[]){12}, (uint64_t[]){2}, 1, (int[]){12, 13}, NULL,
             2));
    TRY(flow(g, w, 9, (int[]){12, 13}, (uint64_t[]){1, l1}, 2, (int[]){14},
             NULL, 1));
    TRY(flow(g, w, 11, (int[]){14}, NULL, 1, (int[]){2, 3}, NULL, 2));
    TRY(flow(g, w, 12, (int[]){15, 18}, (uint64_t[]){1, l2}, 2, (int[]){16},
             NULL, 1));
    TRY(flow(g, w, 14, (int[]){16}, NULL, 1, (int[]){0, 2, 3},
             (uint64_t[]){!pipe, 1, 1}, 3));
    TRY(flow(g, w, 15, (int[]){17, 19}, (uint64_t[]){1, pipe ? la : 0}, 2,
             (int[]){0, 2, 3}, (uint64_t[]){!pipe, 1, 1}, 3));
    if (pipe && la)   /* the arithmetic latency counter, as t8 for global */
        TRY(flow(g, w, 18, (int[]){17}, (uint64_t[]){2}, 1, (int[]){17, 19},
                 NULL, 2));
    TRY(flow(g, w, 16, (int[]){1, 2, 3, -1}, NULL, 4, NULL, NULL, 0));
    char t16[96];
    snprintf(t16, sizeof t16, "%s", tid(g, 2, w, 16));
    TRY(arc(g, pid(g, 0, w, 5), t16, 1, PN_ARC_INHIBITOR));
    TRY(arc(g, pid(g, 0, w, 7), t16, 1, PN_ARC_INHIBITOR));
    TRY(arc(g, pid(g, 0, w, 9), t16, 1, PN_ARC_INHIBITOR));
    TRY(flow(g, w, 17, (int[]){15}, (uint64_t[]){2}, 1, (int[]){15, 18}, NULL,
             2));
    /* every p2 has an inhibitor arc to t0 */
    TRY(arc(g, pid(g, 0, w, 2), "t0", 1, PN_ARC_INHIBITOR));
    return PN_OK;
}

pn_status_t pn_gpu_net(const pn_gpu_params_t *p, pn_net_t **out)
{
    if (!p || !out)
        return PN_EINVAL;
    *out = NULL;
    if (p->warps == 0 || p->schedulers == 0 || p->warps > PN_GPU_MAX_WARPS)
        return PN_EINVAL;
    if (p->schedulers > PN_TOKENS_MAX || p->l1 >= PN_TOKENS_MAX ||
        p->l2 >= PN_TOKENS_MAX || p->la >= PN_TOKENS_MAX)
        return PN_ERANGE;
    for (size_t w = 0; w < p->warps; w++) {
        const pn_gpu_warp_t *x = p->work ? &p->work[w] : &p->uniform;
        if (x->arith > PN_TOKENS_MAX || x->shared > PN_TOKENS_MAX ||
            x->global > PN_TOKENS_MAX)
            return PN_ERANGE;
    }
    gen_t g;
    plan_layout(&g.lay, p->warps);
    g.net = pn_net_new("wpnm");
    if (!g.net)
        return PN_ENOMEM;
    char name[128];
    snprintf(name, sizeof name, "GPU warp net: %zu warps, %llu schedulers%s",
             p->warps, (unsigned long long)p->schedulers,
             p->pipelined ? ", pipelined issue" : "");
    pn_status_t st = pn_net_set_name(g.net, name);
    /* the parameters, for pn-info and pn-sweep to read back: a
     * <toolspecific tool="pn-gen-gpu"> block holding one <gpu/> element */
    char tool[400];
    if (p->work)
        snprintf(tool, sizeof tool,
                 "<toolspecific tool=\"pn-gen-gpu\" version=\"1\"><gpu "
                 "warps=\"%zu\" schedulers=\"%llu\" l1=\"%llu\" "
                 "l2=\"%llu\" workload=\"per-warp\"/></toolspecific>",
                 p->warps, (unsigned long long)p->schedulers,
                 (unsigned long long)p->l1, (unsigned long long)p->l2);
    else
        snprintf(tool, sizeof tool,
                 "<toolspecific tool=\"pn-gen-gpu\" version=\"1\"><gpu "
                 "warps=\"%zu\" schedulers=\"%llu\" arith=\"%llu\" "
                 "shared=\"%llu\" global=\"%llu\" l1=\"%llu\" "
                 "l2=\"%llu\"/></toolspecific>",
                 p->warps, (unsigned long long)p->schedulers,
                 (unsigned long long)p->uniform.arith,
                 (unsigned long long)p->uniform.shared,
                 (unsigned long long)p->uniform.global,
                 (unsigned long long)p->l1, (unsigned long long)p->l2);
    if (!st)
        st = pn_net_add_toolspecific(g.net, PN_NET, 0, "pn-gen-gpu", "1",
                                     tool);
    size_t idx;
    if (!st)
        st = pn_net_add_place(g.net, "p0", "SM (free warp schedulers)",
                              p->schedulers, &idx);
    if (!st)
        st = pn_net_set_position(g.net, PN_PLACE, idx, SHARED_X, 45);
    if (!st)
        st = pn_net_set_label_offset(g.net, PN_PLACE, idx, LABEL_DX, LABEL_DY);
    if (!st)
        st = pn_net_add_place(g.net, "active", "active warps", p->warps, &idx);
    if (!st)
        st = pn_net_set_position(g.net, PN_PLACE, idx, SHARED_X, 195);
    if (!st)
        st = pn_net_set_label_offset(g.net, PN_PLACE, idx, LABEL_DX, LABEL_DY);
    if (!st)
        st = pn_net_add_transition(g.net, "t0", "waiting (idle step)", &idx);
    if (!st)
        st = pn_net_set_position(g.net, PN_TRANSITION, idx, SHARED_X, 120);
    if (!st)
        st = pn_net_set_label_offset(g.net, PN_TRANSITION, idx, LABEL_DX,
                                     LABEL_DY);
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
    size_t cols = (size_t)ceil(sqrt((double)p->warps));
    for (size_t w = 0; !st && w < p->warps; w++)
        st = warp(&g, w, p->work ? &p->work[w] : &p->uniform, p, cols);
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

/* ---- the parameters, as data ------------------------------------------- */

#define U PN_GPU_OPT_UINT
#define MAXN (PN_TOKENS_MAX - 1)
#define OFF(f) offsetof(pn_gpu_options_t, f)
static const pn_gpu_option_t option_table[] = {
    {"warps", 'w', U, OFF(warps), 1, MAXN, 32, "W", "warps",
     "warps on the SM (default 32, at most\n16384)"},
    {"schedulers", 's', U, OFF(schedulers), 1, MAXN, 2, "S", "schedulers",
     "warp schedulers (default 2)"},
    {"arith", 'a', U, OFF(arith), 0, MAXN, 10, "XA", "instructions",
     "arithmetic instructions per warp (default 10)"},
    {"shared", 0, U, OFF(shared), 0, MAXN, 4, "XS", "accesses",
     "shared-memory accesses per warp (default 4)"},
    {"global", 'g', U, OFF(global), 0, MAXN, 4, "XG", "accesses",
     "global-memory accesses per warp (default 4)"},
    {"l1", 0, U, OFF(l1), 0, MAXN, 20, "L1", "steps",
     "global-memory latency in steps (default 20)"},
    {"l2", 0, U, OFF(l2), 0, MAXN, 2, "L2", "steps",
     "shared-memory latency in steps (default 2)"},
    {"pipelined", 0, PN_GPU_OPT_FLAG, OFF(pipelined), 0, 1, 0, "", "flag",
     "pipelined issue: an arithmetic or shared\ninstruction gives its "
     "scheduler back when it\nis issued, not when it is finished"},
    {"la", 0, U, OFF(la), 0, MAXN, 0, "LA", "steps",
     "with --pipelined: arithmetic latency in\nsteps (default 0)"},
    {"workload", 0, PN_GPU_OPT_FILE, OFF(workload), 0, 0, 0, "FILE", "file",
     "per-warp counts: lines warp,arith,shared,global"},
    {"threads-per-block", 0, U, OFF(threads_per_block), 1, MAXN, 0, "T",
     "threads", "with --blocks and --sms: warps per SM =\n"
     "ceil(T/32) * ceil(B/N) (one SM, one wave)"},
    {"blocks", 0, U, OFF(blocks), 1, MAXN, 0, "B", "blocks",
     "blocks of the launch (with --threads-per-block)"},
    {"sms", 0, U, OFF(sms), 1, MAXN, 0, "N", "SMs",
     "SMs of the launch (with --threads-per-block)"},
};
#undef U
#undef MAXN
#undef OFF
#define NOPTIONS (sizeof option_table / sizeof *option_table)

const pn_gpu_option_t *pn_gpu_option_table(size_t *n)
{
    if (n)
        *n = NOPTIONS;
    return option_table;
}

long pn_gpu_option_find(const char *name)
{
    for (size_t i = 0; name && i < NOPTIONS; i++)
        if (!strcmp(option_table[i].name, name))
            return (long)i;
    return -1;
}

void pn_gpu_options_init(pn_gpu_options_t *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < NOPTIONS; i++)
        if (option_table[i].type == PN_GPU_OPT_UINT)
            *(uint64_t *)((char *)o + option_table[i].offset) =
                option_table[i].def;
}

pn_status_t pn_gpu_option_set(pn_gpu_options_t *o, size_t row,
                              const char *text, pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!o || !text || row >= NOPTIONS)
        return pni_error(err, PN_EINVAL, 0, 0, "no such parameter");
    const pn_gpu_option_t *r = &option_table[row];
    if (r->type == PN_GPU_OPT_FILE) {
        *(const char **)((char *)o + r->offset) = text;
    } else {
        char q[80];
        pni_quote(q, sizeof q, text, strlen(text), 40);
        if (*text < '0' || *text > '9')
            return pni_error(err, PN_EVALUE, 0, 0,
                             "%s: '%s' is not a whole number", r->name, q);
        char *end;
        errno = 0;
        unsigned long long v = strtoull(text, &end, 10);
        if (*end)
            return pni_error(err, PN_EVALUE, 0, 0,
                             "%s: '%s' is not a whole number", r->name, q);
        if (errno == ERANGE || v < r->min || v > r->max)
            return pni_error(err, PN_ERANGE, 0, 0,
                             "%s: %s is out of range (%llu to %llu)",
                             r->name, q, (unsigned long long)r->min,
                             (unsigned long long)r->max);
        *(uint64_t *)((char *)o + r->offset) = v;
    }
    o->given |= UINT64_C(1) << row;
    return PN_OK;
}

static int given(const pn_gpu_options_t *o, const char *name)
{
    long i = pn_gpu_option_find(name);
    return i >= 0 && (o->given >> i & 1);
}

pn_status_t pn_gpu_options_resolve(const pn_gpu_options_t *o,
                                   pn_gpu_params_t *p, pn_gpu_warp_t **work,
                                   pn_error_t *err)
{
    pni_error_begin(err, NULL);
    if (!o || !p || !work)
        return pni_error(err, PN_EINVAL, 0, 0, "no options");
    *work = NULL;
    pn_gpu_params_init(p);
    p->schedulers = o->schedulers;
    p->l1 = o->l1;
    p->l2 = o->l2;
    p->uniform.arith = o->arith;
    p->uniform.shared = o->shared;
    p->uniform.global = o->global;
    p->pipelined = o->pipelined != 0;
    p->la = o->la;
    if (o->la && !o->pipelined)
        return pni_error(err, PN_EINVAL, 0, 0,
                         "la needs pipelined (the paper's net has no "
                         "arithmetic latency)");
    uint64_t warps = o->warps;
    int launch = given(o, "threads-per-block") + given(o, "blocks") +
                 given(o, "sms");
    if (launch && launch != 3)
        return pni_error(err, PN_EINVAL, 0, 0,
                         "threads-per-block, blocks and sms go together");
    if (launch) {
        if (given(o, "warps") || o->workload)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "give the warps once: warps, workload or a "
                             "launch (threads-per-block, blocks, sms)");
        if (pn_gpu_launch_warps(o->threads_per_block, o->blocks, o->sms,
                                &warps) != PN_OK)
            return pni_error(err, PN_ERANGE, 0, 0,
                             "the launch gives too many warps");
    }
    if (o->workload) {
        size_t n;
        pn_status_t st = pn_gpu_workload_read(o->workload, work, &n, err);
        if (st)
            return st;
        if (given(o, "warps") && warps != n) {
            free(*work);
            *work = NULL;
            pni_error_begin(err, NULL); /* not an error of the file */
            return pni_error(err, PN_EINVAL, 0, 0,
                             "warps %llu but the workload %s has %zu warps",
                             (unsigned long long)warps, o->workload, n);
        }
        warps = n;
        p->work = *work;
    }
    p->warps = warps > SIZE_MAX ? SIZE_MAX : (size_t)warps;
    return PN_OK;
}

pn_status_t pn_gpu_launch_warps(uint64_t tpb, uint64_t blocks, uint64_t sms,
                                uint64_t *warps)
{
    if (!tpb || !blocks || !sms || !warps)
        return PN_EINVAL;
    uint64_t per_block = tpb / 32 + (tpb % 32 != 0);
    uint64_t per_sm = blocks / sms + (blocks % sms != 0);
    if (per_sm && per_block > UINT64_MAX / per_sm)
        return PN_ERANGE;
    *warps = per_block * per_sm;
    return PN_OK;
}

static pn_status_t wl_fail(pn_error_t *err, pn_status_t code,
                           unsigned long line, const char *fmt, const char *a)
{
    if (err) {
        err->code = code;
        err->line = line;
        err->column = 0;
        snprintf(err->text, sizeof err->text, fmt, a);
    }
    return code;
}

/* Reads one line, without its newline, into line (room for cap bytes and
 * a NUL) and its length into *len.  Returns 1 for a line, 0 at the end of
 * the file, -1 for a line longer than cap bytes. */
static int read_line(FILE *f, char *line, size_t cap, size_t *len)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n == cap)
            return -1;
        line[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return 0;
    line[n] = '\0';
    *len = n;
    return 1;
}

/* Text of the file shown in a message: at most 60 bytes, escaped. */
#define WL_SHOW(q, s) pni_quote(q, sizeof q, s, strlen(s), 60)

pn_status_t pn_gpu_workload_read(const char *path, pn_gpu_warp_t **work_out,
                                 size_t *warps_out, pn_error_t *err)
{
    pn_error_clear(err);
    if (err)
        snprintf(err->file, sizeof err->file, "%s", path ? path : "-");
    *work_out = NULL;
    *warps_out = 0;
    FILE *f = path && strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f)
        return wl_fail(err, PN_EIO, 0, "cannot read: %s", strerror(errno));
    pn_gpu_warp_t *work = NULL;
    unsigned char *seen = NULL;
    size_t n = 0, cap = 0;
    char line[1024], q[256];
    size_t len;
    unsigned long ln = 0;
    pn_status_t st = PN_OK;
    int got;
    while ((got = read_line(f, line, sizeof line - 1, &len)) != 0) {
        ln++;
        if (got < 0) {
            st = wl_fail(err, PN_EVALUE, ln, "line longer than %s bytes",
                         "1023");
            break;
        }
        if (memchr(line, '\0', len)) {
            st = wl_fail(err, PN_EVALUE, ln, "a NUL byte in the line (a "
                         "workload is a text file)%s", "");
            break;
        }
        while (len && strchr(" \t\r", line[len - 1]))
            line[--len] = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = line + strspn(line, " \t\r\n");
        if (!*s)
            continue;
        if (!strncmp(s, "warp", 4))
            continue; /* header */
        uint64_t v[4];
        int k = 0;
        char *p = s;
        for (; k < 4; k++) {
            p += strspn(p, " \t");
            if (*p < '0' || *p > '9') {
                st = wl_fail(err, PN_EVALUE, ln,
                             k < 4 && (*p == '-')
                                 ? "negative count in '%s' (counts are "
                                   "integers >= 0)"
                                 : "expected warp,arith,shared,global "
                                   "(integers >= 0), got '%s'",
                             WL_SHOW(q, s));
                break;
            }
            char *end;
            errno = 0;
            unsigned long long x = strtoull(p, &end, 10);
            if (errno == ERANGE || x > PN_TOKENS_MAX) {
                st = wl_fail(err, PN_ERANGE, ln,
                             "number above 2^63-1 in '%s'", WL_SHOW(q, s));
                break;
            }
            v[k] = x;
            p = end + strspn(end, " \t\r\n");
            if (k < 3) {
                if (*p != ',') {
                    st = wl_fail(err, PN_EVALUE, ln,
                                 "expected 4 comma-separated fields "
                                 "(warp,arith,shared,global), got '%s'",
                                 WL_SHOW(q, s));
                    break;
                }
                p++;
            }
        }
        if (st)
            break;
        if (*p) {
            st = wl_fail(err, PN_EVALUE, ln,
                         "trailing text after the 4 fields: '%s'",
                         WL_SHOW(q, p));
            break;
        }
        if (v[0] >= PN_GPU_MAX_WARPS) {
            st = wl_fail(err, PN_ERANGE, ln, "warp number above 16383 (at "
                         "most 16384 warps) in '%s'", WL_SHOW(q, s));
            break;
        }
        size_t w = (size_t)v[0];
        if (w >= cap) {
            size_t nc = cap ? cap : 64;
            while (nc <= w)
                nc *= 2;
            pn_gpu_warp_t *nw = realloc(work, nc * sizeof *nw);
            unsigned char *ns = realloc(seen, nc);
            if (!nw || !ns) {
                free(nw ? nw : work);
                free(ns ? ns : seen);
                work = NULL;
                seen = NULL;
                st = wl_fail(err, PN_ENOMEM, ln, "out of memory%s", "");
                break;
            }
            memset(ns + cap, 0, nc - cap);
            work = nw;
            seen = ns;
            cap = nc;
        }
        if (seen[w]) {
            char num[32];
            snprintf(num, sizeof num, "%zu", w);
            st = wl_fail(err, PN_EVALUE, ln, "warp %s is given twice", num);
            break;
        }
        seen[w] = 1;
        work[w].arith = v[1];
        work[w].shared = v[2];
        work[w].global = v[3];
        if (w + 1 > n)
            n = w + 1;
    }
    if (!st && ferror(f))
        st = wl_fail(err, PN_EIO, ln, "read error: %s", strerror(errno));
    if (f != stdin)
        fclose(f);
    if (!st && n == 0)
        st = wl_fail(err, PN_EVALUE, ln, "no warps in the workload%s", "");
    for (size_t w = 0; !st && w < n; w++)
        if (!seen[w]) {
            char num[32];
            snprintf(num, sizeof num, "%zu", w);
            st = wl_fail(err, PN_EVALUE, 0,
                         "warp %s is missing (warps are numbered from 0 "
                         "without gaps)", num);
        }
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
    if (*end2 || k < 1 || k > 19)
        return 0;
    *warp = (size_t)w;
    *kind = end[1];
    *num = (int)k;
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
        if (!strcmp(id, "p0") || !strcmp(id, "active"))
            continue;
        if (!warp_id(id, &w, &kind, &k) || kind != 'p' || w >= PN_GPU_MAX_WARPS)
            return PN_EINVAL;
        if (w + 1 > warps)
            warps = w + 1;
    }
    int idle = 0;
    for (size_t i = 0; i < nt; i++) {
        const char *id = pn_net_transition(net, i)->id;
        if (!strcmp(id, "t0")) {
            idle = 1;
            continue;
        }
        if (!warp_id(id, &w, &kind, &k) || kind != 't' || k > 18 ||
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
    for (int c = 0; !st && c < C_COUNT; c++)
        st = pn_groups_add_class(g, class_name[c], class_color[c], NULL);
    for (size_t i = 0; !st && i < np; i++)
        if (warp_id(pn_net_place(net, i)->id, &w, &kind, &k))
            g->place_group[i] = w + 1;
    for (size_t i = 0; !st && i < nt; i++) {
        const char *id = pn_net_transition(net, i)->id;
        if (!strcmp(id, "t0")) {
            g->transition_group[i] = 0;
            g->transition_class[i] = C_IDLE;
        } else if (warp_id(id, &w, &kind, &k)) {
            g->transition_group[i] = w + 1;
            g->transition_class[i] = transition_class[k];
        }
    }
    if (st) {
        pn_groups_free(g);
        return st;
    }
    *out = g;
    return PN_OK;
}
