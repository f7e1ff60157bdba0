/* Helpers shared by the Check programs (header only: each program is one
 * file). */
#ifndef PN_TESTUTIL_H
#define PN_TESTUTIL_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A new file under /tmp holding text; the caller unlinks and frees the
 * returned path.  ("XXXXXX" is mkstemp's template, replaced by it.) */
static inline char *tmp_file_with(const char *text)
{
    char *path = strdup("/tmp/pn-test-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

#endif
