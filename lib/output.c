/* Output files for every writer.  A regular file, or a new one, is written
 * atomically: a temporary file beside it, renamed over it only when
 * everything was written.  A symbolic link is followed to its final target,
 * which is written that way (the link stays a link).  Anything else that
 * exists (a device, a FIFO, a socket) cannot be replaced: it is opened and
 * written directly. */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib_private.h"

/* The suffix of temporary files; mkstemp() fills the Xs. */
#define TMP_SUFFIX ".tmpXXXXXX"
#define TMP_SUFFIX_LEN (sizeof TMP_SUFFIX - 1)
/* Links followed before giving up with ELOOP (as Linux does). */
#define MAX_LINKS 40

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

/* The link's target read, relative to the folder of link when it is a
 * relative one; NULL with errno set. */
static char *link_target(const char *link, size_t size)
{
    char *to = malloc(size + 1);
    if (!to)
        return NULL;
    ssize_t n = readlink(link, to, size + 1);
    if (n < 0 || (size_t)n > size) {
        int e = n < 0 ? errno : EAGAIN; /* the link changed under us */
        free(to);
        errno = e;
        return NULL;
    }
    to[n] = '\0';
    const char *slash = strrchr(link, '/');
    if (to[0] == '/' || !slash)
        return to;
    size_t dir = (size_t)(slash - link) + 1;
    char *full = malloc(dir + (size_t)n + 1);
    if (full) {
        memcpy(full, link, dir);
        memcpy(full + dir, to, (size_t)n + 1);
    } else
        errno = ENOMEM;
    free(to);
    return full;
}

/* path with its chain of symbolic links followed to the first name that
 * is not one (which may not exist yet); NULL with errno set. */
static char *resolve(const char *path)
{
    char *cur = strdup(path);
    if (!cur) {
        errno = ENOMEM;
        return NULL;
    }
    for (int hops = 0;; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0) {
            if (errno == ENOENT)
                return cur; /* a new file (maybe through a dangling link) */
            break;
        }
        if (!S_ISLNK(sb.st_mode))
            return cur;
        if (hops == MAX_LINKS) {
            errno = ELOOP;
            break;
        }
        char *next = link_target(cur, sb.st_size > 0 ? (size_t)sb.st_size
                                                      : 4096);
        if (!next)
            break;
        free(cur);
        cur = next;
    }
    int e = errno;
    free(cur);
    errno = e;
    return NULL;
}

/* Opens what cannot or should not be replaced, as it is. */
static FILE *open_direct(const char *path, int flags)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | flags);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

FILE *pni_output_open(const char *path, char **tmp_out)
{
    *tmp_out = NULL;
    struct stat sb, tb;
    int exists = stat(path, &sb) == 0;
    if (!exists && errno != ENOENT)
        return NULL;
    if (exists && !S_ISREG(sb.st_mode))
        return open_direct(path, 0); /* a device, a FIFO, a folder (fails) */
    char *target = resolve(path);
    if (!target)
        return NULL;
    /* a name that leads elsewhere than its links say (/dev/stdout and the
     * like, through /proc): written where it leads, in place */
    if (exists && (stat(target, &tb) != 0 || tb.st_dev != sb.st_dev ||
                   tb.st_ino != sb.st_ino)) {
        free(target);
        return open_direct(path, O_TRUNC);
    }
    size_t n = strlen(target);
    char *tmp = realloc(target, n + TMP_SUFFIX_LEN + 1);
    if (!tmp) {
        free(target);
        errno = ENOMEM;
        return NULL;
    }
    memcpy(tmp + n, TMP_SUFFIX, TMP_SUFFIX_LEN + 1);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return NULL;
    }
    mode_t mode = exists ? (sb.st_mode & 07777) : (0666 & ~current_umask());
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

pn_status_t pni_output_close(FILE *f, char *tmp, int ok)
{
    int e = 0;
    if (fflush(f) != 0)
        ok = 0, e = errno;
    else if (ferror(f)) /* an earlier write failed; its errno is gone */
        ok = 0, e = EIO;
    /* fsync: EINVAL from what cannot sync (pipes, devices) is no error */
    if (ok && fsync(fileno(f)) != 0 && errno != EINVAL)
        ok = 0, e = errno;
    if (fclose(f) != 0 && ok)
        ok = 0, e = errno;
    if (tmp) {
        /* the target's name is the temporary one less its suffix */
        size_t n = strlen(tmp) - TMP_SUFFIX_LEN;
        char *target = malloc(n + 1);
        if (ok && !target)
            ok = 0, e = ENOMEM;
        if (target) {
            memcpy(target, tmp, n);
            target[n] = '\0';
        }
        if (ok && rename(tmp, target) != 0)
            ok = 0, e = errno;
        if (!ok)
            unlink(tmp);
        free(target);
        free(tmp);
    }
    if (!ok) {
        errno = e;
        return PN_EIO;
    }
    return PN_OK;
}

void pni_csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}
