/*
 * Runs a libFuzzer harness (tests/fuzz/fuzz-*.c) once on each input file,
 * without libFuzzer: so that `make check` (and the sanitizer build of CI)
 * replays the seeds and the regressions of every harness with the
 * compiler at hand.  A folder stands for the regular files in it (not
 * below), in name order.  Each input is given in a buffer of exactly its
 * size, as libFuzzer gives it, so that AddressSanitizer sees a read past
 * its end.  The harness aborts on a finding; this program exits 0 after
 * printing how many inputs it ran, 1 when one cannot be read.
 *   replay-HARNESS FILE|DIR...
 */
#include <config.h>
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input now running, named on a fatal signal (a harness's finding) */
static const char *volatile current;

static void on_fatal(int sig)
{
    const char *p = current;
    if (p) {
        static const char pre[] = "replay: the input that failed: ";
        (void)!write(2, pre, sizeof pre - 1);
        (void)!write(2, p, strlen(p));
        (void)!write(2, "\n", 1);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Runs the harness on the file at path (a regular file: its size is
 * known); 0, or -1 after a message. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat sb;
    if (!f || fstat(fileno(f), &sb) != 0) {
        perror(path);
        if (f)
            fclose(f);
        return -1;
    }
    /* exactly its size, none to spare (1 byte allocated for an empty
     * input, none readable to the harness) */
    size_t size = (size_t)sb.st_size;
    uint8_t *in = malloc(size ? size : 1);
    int bad = !in || fread(in, 1, size, f) != size;
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: %s\n", path, in ? "read error" : "out of memory");
        free(in);
        return -1;
    }
    current = path;
    LLVMFuzzerTestOneInput(in, size);
    current = NULL;
    free(in);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the harness on path, a file or a folder's files; adds the inputs
 * run to *n.  0, or -1. */
static int run_path(const char *path, unsigned long *n)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (run_file(path))
            return -1;
        ++*n;
        return 0;
    }
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(len);
        if (!full) {
            rc = -1;
            break;
        }
        snprintf(full, len, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || stat(full, &sb) != 0 ||
            !S_ISREG(sb.st_mode)) {
            free(full);
            continue;
        }
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                free(full);
                rc = -1;
                break;
            }
            names = nn;
        }
        names[count++] = full;
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        if (rc == 0 && run_file(names[i]) == 0)
            ++*n;
        else
            rc = -1;
        free(names[i]);
    }
    free(names);
    if (rc)
        fprintf(stderr, "%s: not every input could be run\n", path);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long n = 0;
    int rc = 0;
    signal(SIGABRT, on_fatal);
    signal(SIGSEGV, on_fatal);
    signal(SIGBUS, on_fatal);
    signal(SIGFPE, on_fatal);
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &n))
            rc = 1;
    printf("%s: %lu input%s run\n", argc ? argv[0] : "replay", n,
           n == 1 ? "" : "s");
    return rc;
}
