/* pn-sweep under mpirun: rank 0 hands out chunks of runs (a point's runs,
 * or a part of them when the points are few) to the ranks that ask, writes
 * the results in point order and computes with its own threads between
 * answers; the other ranks compute.  Only rank 0's main thread calls MPI
 * (MPI_THREAD_FUNNELED).  Built only when configure finds Open MPI.
 *
 * The messages, all MPI_BYTE under one tag:
 *   worker -> 0: a header of 4 uint64 (type, ti, r0, r1) then, for a
 *                RESULT, (r1 - r0) rows of nmeasures doubles, r1 - r0
 *                pn_end_t and r1 - r0 seeds; for a FAIL, the message text.
 *                REQUEST (the first) and RESULT ask for more work.
 *   0 -> worker: WORK (type, ti, point, r0, r1) or STOP.
 * Each worker alternates send and receive, so rank 0 always owes it one
 * answer or waits for one message from it: sweep_mpi_stop() drains that
 * message and answers STOP. */
#include <config.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sweep.h"

enum { TAG = 16 };
enum { REQUEST = 1, RESULT = 2, FAIL = 3, WORK = 4, STOP = 5 };
enum { W_BUSY = 0, W_OWED = 1, W_STOPPED = 2 }; /* what rank 0 knows */

static int started, finalized, going, rank, size = 1;
static unsigned char *wstate; /* size entries */

int sweep_mpi_init(int *argc, char ***argv)
{
    /* alone (not under mpirun): no MPI at all, no start-up cost */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") &&
        !getenv("PMI_RANK"))
        return 1;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
        return 1;
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1 && !(wstate = calloc((size_t)size, 1))) {
        fprintf(stderr, "pn-sweep: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, CLI_EINPUT);
    }
    return size;
}

int sweep_mpi_rank(void) { return rank; }
int sweep_mpi_size(void) { return size; }

int sweep_mpi_agree(int ok)
{
    if (size < 2)
        return ok;
    int all = 0;
    ok = ok != 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    going = all; /* then every worker sends its first message */
    return all;
}

const char *sweep_mpi_library(void)
{
    static char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len);
    char *nl = strpbrk(v, ",\n");
    if (nl)
        *nl = '\0';
    return v;
}

static void send_u64(const uint64_t *h, int n, int to)
{
    MPI_Send(h, n * (int)sizeof *h, MPI_BYTE, to, TAG, MPI_COMM_WORLD);
}

/* The message waiting from `from` (any rank when MPI_ANY_SOURCE), malloc'd
 * into *buf; its length, and *src. */
static size_t receive(int from, unsigned char **buf, int *src)
{
    MPI_Status st;
    int count = 0;
    MPI_Probe(from, TAG, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    *buf = malloc(count > 0 ? (size_t)count : 1);
    if (!*buf) {
        fprintf(stderr, "pn-sweep: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, CLI_EINPUT);
    }
    MPI_Recv(*buf, count, MPI_BYTE, st.MPI_SOURCE, TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    *src = st.MPI_SOURCE;
    return count > 0 ? (size_t)count : 0;
}

/* A worker's message: results delivered, a failure reported. */
static void take(sweep_pool_t *pl, int src, const unsigned char *buf,
                 size_t len)
{
    uint64_t h[4];
    char msg[700];
    if (len < sizeof h) {
        snprintf(msg, sizeof msg, "rank %d: a short message", src);
        sweep_pool_fail(pl, msg);
        return;
    }
    memcpy(h, buf, sizeof h);
    if (h[0] == RESULT) {
        size_t nm = sweep_pool_nmeasures(pl);
        uint64_t n = h[3] - h[2];
        size_t want = sizeof h + n * (nm * sizeof(double) + sizeof(pn_end_t) +
                                      sizeof(uint64_t));
        if (h[3] <= h[2] || len != want) {
            snprintf(msg, sizeof msg, "rank %d: a result of the wrong size",
                     src);
            sweep_pool_fail(pl, msg);
            return;
        }
        /* copied out: the payload has no alignment of its own */
        double *v = malloc(n * nm * sizeof *v + 1);
        pn_end_t *e = malloc(n * sizeof *e + 1);
        uint64_t *sd = malloc(n * sizeof *sd + 1);
        const unsigned char *p = buf + sizeof h;
        if (v && e && sd) {
            memcpy(v, p, n * nm * sizeof *v);
            p += n * nm * sizeof *v;
            memcpy(e, p, n * sizeof *e);
            p += n * sizeof *e;
            memcpy(sd, p, n * sizeof *sd);
            if (sweep_pool_deliver(pl, h[1], h[2], h[3], v, e, sd) != 0) {
                snprintf(msg, sizeof msg, "rank %d: results of runs not "
                         "asked for", src);
                sweep_pool_fail(pl, msg);
            }
        } else
            sweep_pool_fail(pl, "out of memory");
        free(v);
        free(e);
        free(sd);
    } else if (h[0] == FAIL) {
        snprintf(msg, sizeof msg, "%.*s", (int)(len - sizeof h),
                 (const char *)buf + sizeof h);
        sweep_pool_fail(pl, msg);
    }
}

void sweep_mpi_serve(sweep_pool_t *pl)
{
    if (size < 2)
        return;
    int flag;
    MPI_Status st;
    for (;;) {
        MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            break;
        unsigned char *buf;
        int src;
        size_t len = receive(st.MPI_SOURCE, &buf, &src);
        take(pl, src, buf, len);
        free(buf);
        if (wstate[src] == W_BUSY)
            wstate[src] = W_OWED;
    }
    for (int w = 1; w < size; w++) {
        if (wstate[w] != W_OWED)
            continue;
        uint64_t h[5] = {WORK, 0, 0, 0, 0};
        int got = sweep_pool_claim(pl, (unsigned)size, &h[1],
                                   &h[2], &h[3], &h[4]);
        if (got == 0)
            break; /* the window is full: ask again later */
        if (got < 0) {
            h[0] = STOP;
            send_u64(h, 1, w);
            wstate[w] = W_STOPPED;
        } else {
            send_u64(h, 5, w);
            wstate[w] = W_BUSY;
        }
    }
}

void sweep_mpi_stop(void)
{
    if (!going)
        return; /* the workers stopped at the command line */
    for (int w = 1; w < size; w++) {
        if (wstate[w] == W_STOPPED)
            continue;
        if (wstate[w] == W_BUSY) {
            unsigned char *buf;
            int src;
            receive(w, &buf, &src); /* its last results: dropped */
            free(buf);
        }
        uint64_t h = STOP;
        send_u64(&h, 1, w);
        wstate[w] = W_STOPPED;
    }
}

int sweep_mpi_worker(sweep_t *s)
{
    /* --merge: rank 0's work alone; this rank waits for its STOP */
    int rc = s->merge ? CLI_OK : sweep_worker_setup(s);
    size_t nm = rc < 0 ? sweep_worker_nmeasures(s) : 0;
    sweep_point_t *cache = NULL;
    uint64_t h[5] = {REQUEST, 0, 0, 0, 0};
    unsigned char *out = NULL;
    size_t outlen = sizeof(uint64_t) * 4;
    if (rc >= 0 && !s->merge) {
        char text[] = "a rank could not set the sweep up (run it alone to "
                      "see why)";
        h[0] = FAIL;
        out = malloc(sizeof(uint64_t) * 4 + sizeof text);
        if (out) {
            memcpy(out, h, sizeof(uint64_t) * 4);
            memcpy(out + sizeof(uint64_t) * 4, text, sizeof text - 1);
            outlen += sizeof text - 1;
        }
    }
    for (;;) {
        if (out)
            MPI_Send(out, (int)outlen, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        else
            send_u64(h, 4, 0); /* the first request */
        free(out);
        out = NULL;
        unsigned char *buf;
        int src;
        size_t len = receive(0, &buf, &src);
        uint64_t w[5] = {STOP, 0, 0, 0, 0};
        memcpy(w, buf, len < sizeof w ? len : sizeof w);
        free(buf);
        if (w[0] != WORK)
            break;
        /* WORK: ti, point, r0, r1 (a chunk is at most 4096 runs) */
        uint64_t n = w[4] > w[3] && w[4] - w[3] <= 4096 ? w[4] - w[3] : 0;
        size_t vbytes = n * nm * sizeof(double), ebytes = n * sizeof(pn_end_t),
               sbytes = n * sizeof(uint64_t);
        double *v = malloc(vbytes + 1);
        pn_end_t *e = malloc(ebytes + 1);
        uint64_t *sd = malloc(sbytes + 1);
        char msg[600];
        int bad = !v || !e || !sd;
        if (bad)
            snprintf(msg, sizeof msg, "out of memory");
        else if (n == 0) {
            bad = 1;
            snprintf(msg, sizeof msg, "rank %d: a chunk of no runs", rank);
        } else
            bad = sweep_worker_runs(s, &cache, w[2], w[3], w[4], v, e, sd,
                                    msg, sizeof msg) != 0;
        uint64_t hr[4] = {bad ? FAIL : RESULT, w[1], w[3], w[4]};
        size_t body = bad ? strlen(msg) : vbytes + ebytes + sbytes;
        outlen = sizeof hr + body;
        out = malloc(outlen);
        if (!out) {
            fprintf(stderr, "pn-sweep: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, CLI_EINPUT);
            return CLI_EINPUT;
        }
        unsigned char *p = out;
        memcpy(p, hr, sizeof hr);
        p += sizeof hr;
        if (bad)
            memcpy(p, msg, body);
        else {
            memcpy(p, v, vbytes);
            memcpy(p + vbytes, e, ebytes);
            memcpy(p + vbytes + ebytes, sd, sbytes);
        }
        free(v);
        free(e);
        free(sd);
    }
    sweep_point_free(cache);
    if (!s->merge)
        sweep_worker_free(s);
    return CLI_OK;
}

int sweep_mpi_end(int rc)
{
    if (!started || finalized)
        return rc;
    if (rank == 0)
        sweep_mpi_stop();
    /* the exit status of rank 0 is the job's: the others agree with it */
    int r = rc;
    MPI_Bcast(&r, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(wstate);
    wstate = NULL;
    MPI_Finalize();
    finalized = 1;
    return r;
}
