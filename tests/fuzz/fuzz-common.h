/*
 * What the libFuzzer harnesses (tests/fuzz/fuzz-*.c) share: the readers
 * that take only a path get the input through an in-memory file, and
 * every refusal is held to the error-record contract of pn/status.h.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

/* Puts data into the process's one in-memory file (a memfd, truncated
 * first) and returns a path that opens it from the start
 * ("/proc/self/fd/N"): a regular file, never on disk.  Aborts when the
 * system cannot give one. */
const char *fuzz_memfile(const uint8_t *data, size_t size);

/* Fills err with garbage, so that a reader that does not clear its record
 * on entry is caught by fuzz_check_error(). */
void fuzz_dirty_error(pn_error_t *err);

/* Aborts unless err is what a call that returned st must leave: on
 * success code PN_OK; on failure code == st, a known status, a non-empty
 * NUL-terminated text and a NUL-terminated file name. */
void fuzz_check_error(pn_status_t st, const pn_error_t *err);

/* A NUL-terminated copy of data (the caller frees it); aborts when out of
 * memory. */
char *fuzz_strndup(const uint8_t *data, size_t size);

#endif
