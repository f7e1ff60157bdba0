/*
 * libFuzzer harness for the PNML reader: every input must be read or
 * refused with an error record, never crash, leak or hang; a net that is
 * read must write in every dialect that accepts it and read back.
 *
 * The first byte picks the way in:
 *   0x01  the rest is a file, read with pn_pnml_read_file();
 *   0x02  the rest (after one more byte, the seed of the block sizes) goes
 *         through a pipe, read with pn_pnml_read_file() while a thread
 *         writes it in blocks of 1 to 4096 bytes, each read on its own:
 *         the document arrives cut at places the fuzzer chooses;
 *   else  the whole input is read from memory (pn_pnml_read_memory()).
 * A file or a pipe must give what memory gives for the same bytes: the
 * same status, and the same error line, column and text or a net of the
 * same size.  A document the reader accepts must be well-formed to
 * libxml2's own parser.  Documents in another encoding than UTF-8 are
 * spared both: libxml2 reports a failed conversion through its global
 * handler, which the reader does not see, so it may accept the document,
 * or refuse it for another reason than memory does when the conversion
 * fails in a later block (tests/fuzz/regressions/encoding-error-*); drop
 * the exception once the reader catches those.
 *
 * Built by `make fuzz` (clang); run by bench/fuzz.sh SECONDS pnml.
 */
#include <config.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <libxml/parser.h>
#include "lib_private.h"
#include "pnml.h"
#include "dump.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FROM_FILE = 1, FROM_PIPE = 2 };

/* Whether libxml2 parses the document as well-formed XML (no network, no
 * messages). */
static int well_formed(const uint8_t *doc, size_t len)
{
    xmlDocPtr d = xmlReadMemory((const char *)doc, (int)len, NULL, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR |
                                    XML_PARSE_NOWARNING | XML_PARSE_HUGE);
    xmlFreeDoc(d);
    return d != NULL;
}

/* Whether libxml2 may convert the document from another encoding than
 * UTF-8: a start that is not ASCII (UTF-16, UCS-4, EBCDIC), or an
 * encoding declaration near the start that names another. */
static int other_encoding(const uint8_t *doc, size_t len)
{
    if (len >= 2 && (doc[0] == 0 || doc[1] == 0 || doc[0] == 0xfe ||
                     doc[0] == 0xff || doc[0] == 0x4c))
        return 1;
    size_t n = len < 512 ? len : 512;
    const uint8_t *p = memmem(doc, n, "encoding", 8);
    if (!p)
        return 0;
    const uint8_t *end = doc + n;
    for (p += 8; p < end && strchr(" \t\r\n=\"'", *p) && *p; p++)
        ;
    return end - p < 6 || strncasecmp((const char *)p, "utf-8", 5) ||
           (p[5] != '"' && p[5] != '\'');
}

/* Reads the input as before: from memory, then writes it back. */
static int from_memory(const uint8_t *data, size_t size)
{
    pn_net_t *net = NULL;
    pn_error_t err;
    fuzz_dirty_error(&err);
    pn_status_t st = pn_pnml_read_memory((const char *)data, size, "fuzz",
                                         NULL, &net, &err);
    fuzz_check_error(st, &err);
    if (st != PN_OK) {
        if (net)
            abort();
        return 0;
    }
    if (size <= INT32_MAX && !other_encoding(data, size) &&
        !well_formed(data, size))
        abort(); /* a net read from what is not XML */
    for (int d = 0; d < 3; d++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        pn_write_options_t wo;
        pn_write_options_init(&wo);
        wo.dialect = (pn_dialect_t)d;
        pn_error_t werr;
        pn_error_clear(&werr);
        pn_status_t ws = pn_pnml_write_stream(net, f, &wo, &werr);
        fclose(f);
        if (ws == PN_OK) {
            pn_net_t *back = NULL;
            if (pn_pnml_read_memory(buf, len, "back", NULL, &back, &err) !=
                    PN_OK ||
                pn_net_place_count(back) != pn_net_place_count(net) ||
                pn_net_arc_count(back) != pn_net_arc_count(net))
                abort(); /* what we write, we read back */
            pn_net_free(back);
        } else if (ws != PN_EDIALECT) {
            abort();
        }
        free(buf);
    }
    pn_net_free(net);
    return 0;
}

/* The same bytes from memory: the path (file or pipe) gave st, net, err. */
static void same_as_memory(const uint8_t *doc, size_t len, pn_status_t st,
                           const pn_net_t *net, const pn_error_t *err)
{
    if (other_encoding(doc, len))
        return;
    pn_net_t *mnet = NULL;
    pn_error_t merr;
    pn_status_t ms = pn_pnml_read_memory((const char *)doc, len, "fuzz",
                                         NULL, &mnet, &merr);
    if (ms != st) {
        fprintf(stderr, "memory: %s (%s), path: %s (%s)\n",
                pn_status_name(ms), merr.text, pn_status_name(st),
                err->text);
        abort();
    }
    if (st == PN_OK) {
        if (pn_net_place_count(net) != pn_net_place_count(mnet) ||
            pn_net_transition_count(net) != pn_net_transition_count(mnet) ||
            pn_net_arc_count(net) != pn_net_arc_count(mnet) ||
            pn_net_page_count(net) != pn_net_page_count(mnet) ||
            pn_net_warning_count(net) != pn_net_warning_count(mnet))
            abort();
    } else if (err->line != merr.line || err->column != merr.column ||
               strcmp(err->text, merr.text)) {
        fprintf(stderr, "memory: %lu:%lu: %s\npath: %lu:%lu: %s\n",
                merr.line, merr.column, merr.text, err->line, err->column,
                err->text);
        abort();
    }
    pn_net_free(mnet);
}

/* Reads path with pn_pnml_read_file() and compares with memory. */
static void read_path(const char *path, const uint8_t *doc, size_t len)
{
    pn_net_t *net = NULL;
    pn_error_t err;
    fuzz_dirty_error(&err);
    pn_status_t st = pn_pnml_read_file(path, NULL, &net, &err);
    fuzz_check_error(st, &err);
    if ((st == PN_OK) != (net != NULL))
        abort();
    same_as_memory(doc, len, st, net, &err);
    pn_net_free(net);
}

/* The pipe's writer: one block at a time, each only once the reader has
 * taken the one before, so that every read() returns exactly one block
 * (blocks up to PIPE_BUF are written whole).  It stops early when the
 * reader is done. */
typedef struct {
    int fd;
    const uint8_t *doc;
    size_t len;
    uint32_t seed;
    atomic_int done;
} writer_t;

#define PIECE_MAX 4096

static size_t piece(uint32_t *x)
{
    /* xorshift32, then a size between 1 and 4096, small ones likelier */
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    uint32_t bits = 1 + *x % 12;
    return 1 + (*x >> 4) % (1u << bits);
}

static void *writer(void *arg)
{
    writer_t *w = arg;
    uint32_t x = w->seed * 2654435761u + 1;
    for (size_t off = 0; off < w->len && !atomic_load(&w->done);) {
        size_t n = piece(&x);
        if (n > w->len - off)
            n = w->len - off;
        ssize_t r = write(w->fd, w->doc + off, n);
        if (r < 0)
            break;
        off += (size_t)r;
        int queued = 1;
        while (!atomic_load(&w->done) &&
               ioctl(w->fd, FIONREAD, &queued) == 0 && queued > 0)
            sched_yield();
    }
    close(w->fd); /* the reader sees the end */
    return NULL;
}

static int from_pipe(uint8_t seed, const uint8_t *doc, size_t len)
{
    int p[2];
    if (pipe(p) != 0)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
    writer_t w = {.fd = p[1], .doc = doc, .len = len, .seed = seed};
    atomic_init(&w.done, 0);
    pthread_t th;
    if (pthread_create(&th, NULL, writer, &w) != 0)
        abort();
    read_path(path, doc, len);
    atomic_store(&w.done, 1);
    pthread_join(th, NULL);
    close(p[0]);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 1 && data[0] == FROM_FILE) {
        read_path(fuzz_memfile(data + 1, size - 1), data + 1, size - 1);
        return 0;
    }
    if (size >= 2 && data[0] == FROM_PIPE)
        return from_pipe(data[1], data + 2, size - 2);
    return from_memory(data, size);
}
