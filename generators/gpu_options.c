/* The GPU warp net's parameters as data (pn-gen-gpu's options, pn-sweep's
 * parameters) and their resolution into the net's parameters. */
#include <config.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu.h"
#include "lib_private.h"

/* ---- the parameters, as data ------------------------------------------- */

#define U PN_GPU_OPT_UINT
#define MAXN (PN_TOKENS_MAX - 1)
#define OFF(f) offsetof(pn_gpu_options_t, f)
static const pn_gpu_option_t option_table[] = {
    {"warps", U, OFF(warps), 1, MAXN, 32, "W", "warps",
     "warps on the SM (default 32, at most\n16384)"},
    {"schedulers", U, OFF(schedulers), 1, MAXN, 2, "S", "schedulers",
     "warp schedulers (default 2)"},
    {"arith", U, OFF(arith), 0, MAXN, 10, "XA", "instructions",
     "arithmetic instructions per warp (default 10)"},
    {"shared", U, OFF(shared), 0, MAXN, 4, "XS", "accesses",
     "shared-memory accesses per warp (default 4)"},
    {"global", U, OFF(global), 0, MAXN, 4, "XG", "accesses",
     "global-memory accesses per warp (default 4)"},
    {"l1", U, OFF(l1), 0, MAXN, 20, "L1", "steps",
     "global-memory latency in steps (default 20)"},
    {"l2", U, OFF(l2), 0, MAXN, 2, "L2", "steps",
     "shared-memory latency in steps (default 2)"},
    {"pipelined", PN_GPU_OPT_FLAG, OFF(pipelined), 0, 1, 0, "", "flag",
     "pipelined issue: an arithmetic or shared\ninstruction gives its "
     "scheduler back when it\nis issued, not when it is finished"},
    {"la", U, OFF(la), 0, MAXN, 0, "LA", "steps",
     "with {pipelined}: arithmetic latency in\nsteps (default 0)"},
    {"workload", PN_GPU_OPT_FILE, OFF(workload), 0, 0, 0, "FILE", "file",
     "per-warp counts: lines warp,arith,shared,global"},
    {"threads-per-block", U, OFF(threads_per_block), 1, MAXN, 0, "T",
     "threads", "with {blocks} and {sms}: warps per SM =\n"
     "ceil(T/32) * ceil(B/N) (one SM, one wave)"},
    {"blocks", U, OFF(blocks), 1, MAXN, 0, "B", "blocks",
     "blocks of the launch (with {threads-per-block})"},
    {"sms", U, OFF(sms), 1, MAXN, 0, "N", "SMs",
     "SMs of the launch (with {threads-per-block})"},
    {"resident", U, OFF(resident), 1, PN_GPU_MAX_WARPS, 0, "R", "blocks",
     "block scheduler: R blocks resident at once;\nthe SM's blocks "
     "ceil(B/N) ({blocks}, {sms},\nN = 1 if not given) enter as slots "
     "free up"},
    {"warps-per-block", U, OFF(warps_per_block), 1, PN_GPU_MAX_WARPS, 0,
     "WB", "warps", "with {resident}: warps of a block (or\n"
     "{threads-per-block})"},
    {"transactions", U, OFF(transactions), 1, MAXN, 1, "T",
     "transactions", "memory transactions per DRAM access, sent\none a "
     "step (default 1)"},
    {"inflight", U, OFF(inflight), 1, MAXN, 0, "K", "transactions",
     "bandwidth: at most K DRAM transactions in\nflight on the SM "
     "(K >= T)"},
    {"l1-hits", U, OFF(l1_hits), 0, MAXN, 0, "H1", "accesses",
     "of each warp's global accesses, H1 hit in\nL1 (default 0)"},
    {"l1-hit-latency", U, OFF(l1_hit_latency), 0, MAXN, 5, "LH1", "steps",
     "latency of an L1 hit in steps (default 5)"},
    {"l2-hits", U, OFF(l2_hits), 0, MAXN, 0, "H2", "accesses",
     "of each warp's global accesses, H2 hit in\nL2 (default 0)"},
    {"l2-hit-latency", U, OFF(l2_hit_latency), 0, MAXN, 10, "LH2", "steps",
     "latency of an L2 hit in steps (default 10)"},
    {"mlp", U, OFF(mlp), 1, PN_GPU_MAX_MLP, 1, "K", "slots",
     "load slots: a warp issues up to K global\naccesses before it waits "
     "for the first\n(default 1: it waits for each)"},
    {"barriers", U, OFF(barriers), 0, MAXN, 0, "B", "barriers",
     "barriers a warp meets: its instructions\nrun in B + 1 phases, and the "
     "warps of\na block ({warps-per-block}, else all)\nstart each phase "
     "together (default 0)"},
    {"stochastic", PN_GPU_OPT_FLAG, OFF(stochastic), 0, 1, 0, "", "flag",
     "the net with time (GSPN): a step an\nexponential delay of mean 1, a "
     "latency L\nan Erlang chain of mean L, for pn-solve(1)\nand "
     "pn-run(1)'s stochastic semantics"},
    {"stages", U, OFF(stages), 1, MAXN, 0, "K", "stages",
     "with {stochastic}: a latency L as min(K, L)\nstages (default: L, "
     "one a step; 1: an\nexponential delay of mean L)"},
    {"arch", PN_GPU_OPT_TEXT, OFF(arch), 0, 0, 0, "CC", "architecture",
     "defaults of compute capability CC (sm_80,\n8.0): schedulers; l1, l2, "
     "la and hit\nlatencies in cycles, one step a cycle"},
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
    if (r->type == PN_GPU_OPT_FILE || r->type == PN_GPU_OPT_TEXT) {
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

/* A number or flag row's value (0 for a file or a word). */
static uint64_t value(const pn_gpu_options_t *o, const char *name)
{
    long i = pn_gpu_option_find(name);
    if (i < 0 || option_table[i].type == PN_GPU_OPT_FILE ||
        option_table[i].type == PN_GPU_OPT_TEXT)
        return 0;
    return *(const uint64_t *)((const char *)o + option_table[i].offset);
}

/* Parameters that mean something only with another one set. */
static const struct {
    const char *opt, *needs, *why;
} needs_table[] = {
    {"la", "pipelined", "the paper's net has no arithmetic latency"},
    {"stages", "stochastic", "the step net counts a latency in steps"},
};

static pn_status_t check_needs(const pn_gpu_options_t *o, pn_error_t *err)
{
    for (size_t i = 0; i < sizeof needs_table / sizeof *needs_table; i++)
        if (value(o, needs_table[i].opt) && !value(o, needs_table[i].needs))
            return pni_error(err, PN_EINVAL, 0, 0, "%s needs %s (%s)",
                             needs_table[i].opt, needs_table[i].needs,
                             needs_table[i].why);
    if (o->stochastic && (o->mlp >= 2 || o->l1_hits || o->l2_hits))
        return pni_error(err, PN_EINVAL, 0, 0,
                         "stochastic goes with the paper's global frame "
                         "only (not with mlp or hits: their issue choices "
                         "would race)");
    return PN_OK;
}

/* Drops the workload read so far, before an error that is not the
 * file's. */
static void drop_work(pn_gpu_params_t *p, pn_gpu_warp_t **work,
                      pn_error_t *err)
{
    free(*work);
    *work = NULL;
    p->work = NULL;
    pni_error_begin(err, NULL);
}

/* The barriers (doc/wpnm.md): their blocks are warps-per-block warps
 * without the block scheduler (its slots with it), and not with hits. */
static pn_status_t resolve_barriers(const pn_gpu_options_t *o,
                                    pn_gpu_params_t *p, int resident,
                                    pn_error_t *err)
{
    if (given(o, "warps-per-block") && !resident && !o->barriers)
        return pni_error(err, PN_EINVAL, 0, 0,
                         "warps-per-block needs resident (the block "
                         "scheduler) or barriers");
    p->barriers = o->barriers;
    if (o->barriers && (o->l1_hits || o->l2_hits))
        return pni_error(err, PN_EINVAL, 0, 0,
                         "barriers do not go with l1-hits or l2-hits");
    if (!resident && o->barriers && given(o, "warps-per-block")) {
        if (!o->warps_per_block || o->warps % o->warps_per_block)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "with barriers the warps (%llu) are whole "
                             "blocks of warps-per-block (%llu)",
                             (unsigned long long)o->warps,
                             (unsigned long long)o->warps_per_block);
        p->warps_per_block = (size_t)o->warps_per_block;
    }
    return PN_OK;
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
    if (o->arch && !o->arch_applied)
        return pni_error(err, PN_EINVAL, 0, 0,
                         "arch %s: its defaults need pn_gpu_options_arch() "
                         "before resolving", o->arch);
    p->schedulers = o->schedulers;
    p->l1 = o->l1;
    p->l2 = o->l2;
    p->uniform.arith = o->arith;
    p->uniform.shared = o->shared;
    p->uniform.global = o->global;
    p->pipelined = o->pipelined != 0;
    p->la = o->la;
    p->stochastic = o->stochastic != 0;
    p->stages = o->stages;
    pn_status_t nst = check_needs(o, err);
    if (nst)
        return nst;
    p->transactions = o->transactions;
    p->inflight = o->inflight;
    p->l1_hits = o->l1_hits;
    p->l2_hits = o->l2_hits;
    p->l1_hit_latency = o->l1_hit_latency;
    p->l2_hit_latency = o->l2_hit_latency;
    p->mlp = o->mlp;
    if (o->mlp >= 2 && ((o->transactions > 1) || o->inflight || o->l1_hits ||
                        o->l2_hits))
        return pni_error(err, PN_EINVAL, 0, 0,
                         "mlp %llu goes with the paper's global frame only "
                         "(not with transactions, inflight or hits)",
                         (unsigned long long)o->mlp);
    if (o->inflight && o->inflight < (o->transactions ? o->transactions : 1))
        return pni_error(err, PN_EINVAL, 0, 0,
                         "inflight %llu is below transactions %llu (an "
                         "access takes all its transactions' bandwidth at "
                         "once)", (unsigned long long)o->inflight,
                         (unsigned long long)o->transactions);
    uint64_t warps = o->warps;
    int resident = given(o, "resident");
    pn_status_t bst = resolve_barriers(o, p, resident, err);
    if (bst)
        return bst;
    if (resident) {
        /* the block scheduler: the SM's blocks, ceil(B/N), through min(R,
         * B) slots of WB warp parts each */
        if (!given(o, "blocks"))
            return pni_error(err, PN_EINVAL, 0, 0,
                             "resident needs blocks (the blocks of the "
                             "launch, or of the SM without sms)");
        if (given(o, "warps"))
            return pni_error(err, PN_EINVAL, 0, 0,
                             "with resident the warps are min(resident, "
                             "blocks) x warps-per-block: give "
                             "warps-per-block, not warps");
        int wpb = given(o, "warps-per-block"),
            tpb = given(o, "threads-per-block");
        if (wpb + tpb != 1)
            return pni_error(err, PN_EINVAL, 0, 0,
                             "resident needs the warps of a block: "
                             "warps-per-block or threads-per-block (one "
                             "of them)");
        uint64_t wb = wpb ? o->warps_per_block
                          : o->threads_per_block / 32 +
                                (o->threads_per_block % 32 != 0);
        uint64_t n = given(o, "sms") ? o->sms : 1;
        uint64_t b = o->blocks / n + (o->blocks % n != 0);
        uint64_t slots = o->resident < b ? o->resident : b;
        if (wb > PN_GPU_MAX_WARPS || slots * wb > PN_GPU_MAX_WARPS)
            return pni_error(err, PN_ERANGE, 0, 0,
                             "%llu resident blocks of %llu warps: more than "
                             "%d warps", (unsigned long long)slots,
                             (unsigned long long)wb, PN_GPU_MAX_WARPS);
        if (b > PN_TOKENS_MAX / wb)
            return pni_error(err, PN_ERANGE, 0, 0,
                             "the launch gives too many warps");
        p->resident = o->resident;
        p->blocks = b;
        p->warps_per_block = (size_t)wb;
        warps = slots * wb;
    } else {
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
    }
    if (o->workload) {
        size_t n;
        pn_status_t st = pn_gpu_workload_read(o->workload, work, &n, err);
        if (st)
            return st;
        if ((given(o, "warps") || resident) && warps != n) {
            drop_work(p, work, err);
            return pni_error(err, PN_EINVAL, 0, 0,
                             "%s %llu but the workload %s has %zu warps",
                             resident ? "resident slots give warps" : "warps",
                             (unsigned long long)warps, o->workload, n);
        }
        warps = n;
        p->work = *work;
    }
    for (uint64_t w = 0; w < warps; w++) {
        uint64_t g = p->work ? p->work[w].global : p->uniform.global;
        if (o->l1_hits > g || o->l2_hits > g - o->l1_hits) {
            drop_work(p, work, err);
            return pni_error(err, PN_EINVAL, 0, 0,
                             "l1-hits %llu and l2-hits %llu are more than "
                             "the %llu global accesses of warp %llu",
                             (unsigned long long)o->l1_hits,
                             (unsigned long long)o->l2_hits,
                             (unsigned long long)g, (unsigned long long)w);
        }
        if (!p->work)
            break;   /* every warp the same */
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
