/* The threads contract of pn/net.h, exercised: four threads at once, each
 * with its own objects, read PNML (files and memory), write it, compile
 * nets, run them and read the written files back, while one shared engine
 * is run by every thread (an engine is read-only once compiled).  Built
 * with -fsanitize=thread when the compiler has it (tests/local.mk), so a
 * data race in the library (libxml2's set-up included) fails the test.
 * A plain program, not a Check suite: Check forks, and ThreadSanitizer
 * wants the threads in the process it watches. */
#include <config.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pn.h"

#define THREADS 4
#define ROUNDS 6

static const char *fixtures[] = {"sample", "pipe-dialect", "nested-pages-refs",
                                 "old-tapaal", "tapaal-inhibitor", "minimal"};
static char dir[4096];
static const pn_engine_t *shared_engine;

static int failed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(int id, const char *what, const pn_error_t *err)
{
    char msg[1200] = "";
    if (err)
        pn_error_format(err, msg, sizeof msg);
    pthread_mutex_lock(&lock);
    fprintf(stderr, "FAIL: thread %d: %s %s\n", id, what, msg);
    failed++;
    pthread_mutex_unlock(&lock);
}

static char *dump(const pn_net_t *net)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    pn_net_dump(net, f, PN_DUMP_ALL);
    fclose(f);
    return buf;
}

static void *work(void *arg)
{
    int id = (int)(intptr_t)arg;
    pn_error_t err;
    char path[4200], out[64];
    for (int r = 0; r < ROUNDS; r++) {
        const char *fx = fixtures[(id + r) % (sizeof fixtures / sizeof *fixtures)];
        snprintf(path, sizeof path, "%s/pnml/valid/%s/net.pnml", dir, fx);
        pn_net_t *net;
        if (pn_pnml_read_file(path, NULL, &net, &err) != PN_OK) {
            fail(id, "read", &err);
            continue;
        }
        /* write to a file of our own, and to memory; read both back */
        snprintf(out, sizeof out, "/tmp/pn-threads-%ld-%d.pnml",
                 (long)getpid(), id);
        if (pn_pnml_write_file(net, out, NULL, &err) != PN_OK)
            fail(id, "write", &err);
        char *xml = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&xml, &len);
        if (!m || pn_pnml_write_stream(net, m, NULL, &err) != PN_OK)
            fail(id, "write to memory", &err);
        if (m)
            fclose(m);
        pn_net_t *back = NULL, *back2 = NULL;
        if (pn_pnml_read_file(out, NULL, &back, &err) != PN_OK)
            fail(id, "read back", &err);
        if (xml && pn_pnml_read_memory(xml, len, "memory", NULL, &back2,
                                       &err) != PN_OK)
            fail(id, "read back from memory", &err);
        if (back && back2) {
            char *a = dump(back), *b = dump(back2);
            if (!a || !b || strcmp(a, b))
                fail(id, "the two written forms differ", NULL);
            free(a);
            free(b);
        }
        free(xml);
        unlink(out);
        /* compile and run our own net */
        pn_engine_t *engine;
        if (pn_engine_compile(net, &engine) != PN_OK) {
            fail(id, "compile", NULL);
        } else {
            pn_sim_t *sim = pn_sim_new(engine, pn_run_seed(1, (uint64_t)id),
                                       PN_SEM_MAXIMAL, 0);
            if (!sim)
                fail(id, "pn_sim_new", NULL);
            else
                pn_sim_run(sim, 2000);
            pn_sim_free(sim);
            pn_engine_free(engine);
        }
        /* and the shared engine, with a run of our own */
        pn_sim_t *sim = pn_sim_new(shared_engine, (uint64_t)(id * 100 + r),
                                   PN_SEM_INTERLEAVING, 0);
        if (!sim || pn_sim_run(sim, 500) == PN_END_NONE)
            fail(id, "shared engine run", NULL);
        pn_sim_free(sim);
        pn_net_free(back);
        pn_net_free(back2);
        pn_net_free(net);
    }
    return NULL;
}

int main(void)
{
    const char *src = getenv("srcdir");
    snprintf(dir, sizeof dir, "%s", src ? src : "tests");
    /* one shared engine: a GPU net, compiled once, run by every thread */
    pn_gpu_params_t p;
    pn_gpu_params_init(&p);
    p.warps = 4;
    pn_net_t *gpu;
    pn_engine_t *engine;
    if (pn_gpu_net(&p, &gpu) != PN_OK || pn_engine_compile(gpu, &engine)) {
        fprintf(stderr, "FAIL: the shared engine\n");
        return 1;
    }
    shared_engine = engine;
    /* no read happens first in this thread: the library sets libxml2 up
     * itself, once, whichever thread comes first */
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, work, (void *)(intptr_t)i)) {
            fprintf(stderr, "FAIL: pthread_create\n");
            return 1;
        }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pn_engine_free(engine);
    pn_net_free(gpu);
    printf("%d threads x %d rounds: %s\n", THREADS, ROUNDS,
           failed ? "FAILED" : "passed");
    return failed ? 1 : 0;
}
