/* Helpers of the libFuzzer harnesses: see fuzz-common.h. */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz-common.h"
#include "lib_private.h"

/* Every harness stops at the first undefined behaviour, also where a
 * check is built recoverable so that a known finding can be suppressed
 * (bench/fuzz.sh: UBSAN_OPTIONS=suppressions=...). */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}

const char *fuzz_memfile(const uint8_t *data, size_t size)
{
    /* one file for the process, reused: the harness runs one input at a
     * time, and each reader opens the path afresh (offset 0) */
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("fuzz-input", MFD_CLOEXEC);
        if (fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t w = pwrite(fd, data + off, size - off, (off_t)off);
        if (w <= 0)
            abort();
        off += (size_t)w;
    }
    return path;
}

void fuzz_dirty_error(pn_error_t *err)
{
    memset(err, 0x5a, sizeof *err);
}

void fuzz_check_error(pn_status_t st, const pn_error_t *err)
{
    if (!memchr(err->file, '\0', sizeof err->file) ||
        !memchr(err->text, '\0', sizeof err->text))
        abort(); /* not NUL-terminated: a record left uncleared */
    if (st == PN_OK) {
        if (err->code != PN_OK)
            abort();
        return;
    }
    if ((unsigned)st >= PNI_STATUS_COUNT || err->code != st ||
        !err->text[0])
        abort();
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}
