/* Atomic output files for every writer: a temporary file beside the
 * target, renamed over it only when everything was written. */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib_private.h"

/* The process umask, read without changing it (Linux); 022 elsewhere. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    mode_t m = 022;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Umask:", 6)) {
            m = (mode_t)strtoul(line + 6, NULL, 8);
            break;
        }
    if (f)
        fclose(f);
    return m;
}

FILE *pni_output_open(const char *path, char **tmp_out)
{
    *tmp_out = NULL;
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmpXXXXXX", 11);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return NULL;
    }
    struct stat sb;
    mode_t mode = stat(path, &sb) == 0 ? (sb.st_mode & 07777)
                                       : (0666 & ~current_umask());
    (void)fchmod(fd, mode);
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        errno = e;
        return NULL;
    }
    *tmp_out = tmp;
    return f;
}

pn_status_t pni_output_close(FILE *f, char *tmp, const char *path, int ok)
{
    int e = 0;
    if (fflush(f) != 0 || ferror(f))
        ok = 0, e = errno;
    if (ok && fsync(fileno(f)) != 0 && errno != EINVAL)
        ok = 0, e = errno;
    if (fclose(f) != 0 && ok)
        ok = 0, e = errno;
    if (ok && rename(tmp, path) != 0)
        ok = 0, e = errno;
    if (!ok)
        unlink(tmp);
    free(tmp);
    if (!ok) {
        errno = e;
        return PN_EIO;
    }
    return PN_OK;
}
