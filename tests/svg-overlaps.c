/*
 * svg-overlaps [--wiggle MEAN,MOST] [--crossed PCT] FILE...: the
 * readability check of tests/test_dot.c on SVG files: for each, the text
 * covered by other text, by nodes and by arcs, the share of labels (every
 * text but the legend's) that an arc crosses, and how much the arcs
 * wiggle: the points of their curves, on average and the most of one arc
 * (a straight arc has 4, a smooth bend 7 to 10).  PN_SVGCHECK_VERBOSE=1
 * names every overlap.
 *
 * --wiggle MEAN,MOST: a file whose arcs have more than MEAN curve points
 * on average or an arc with more than MOST fails; --crossed PCT: a file
 * with more than PCT percent of its labels crossed by an arc fails.  Exit
 * status 0 when every file was read and passed, 1 when one could not be
 * read or failed, 2 on a bad command line.
 */
#include <config.h>
#include "svgcheck.h"

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 65536 > cap) {
            cap = cap ? 2 * cap : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The limits a file is held to (negative: none), and whether it passes. */
typedef struct {
    double mean, most, crossed;
} limits_t;

static int check(const char *path, const overlaps_t *r, const limits_t *l)
{
    double mean = r->arcs ? (double)r->arc_points / (double)r->arcs : 0;
    double pct = r->labels ? 100.0 * (double)r->labels_crossed /
                                 (double)r->labels
                           : 0;
    printf("%s: %zu text/text, %zu text/node, %zu text/arc; %zu of %zu "
           "labels crossed by an arc (%.1f%%); %zu arcs, %.1f curve points "
           "an arc, at most %zu\n",
           path, r->text_text, r->text_node, r->text_arc, r->labels_crossed,
           r->labels, pct, r->arcs, mean, r->arc_points_max);
    int ok = 1;
    if (l->mean >= 0 && (mean > l->mean || (double)r->arc_points_max > l->most)) {
        fprintf(stderr, "svg-overlaps: %s: the arcs wiggle: %.1f curve "
                "points an arc (at most %g), %zu in the longest (at most "
                "%g)\n", path, mean, l->mean, r->arc_points_max, l->most);
        ok = 0;
    }
    if (l->crossed >= 0 && pct > l->crossed) {
        fprintf(stderr, "svg-overlaps: %s: %.1f%% of the labels crossed by "
                "an arc (at most %g%%)\n", path, pct, l->crossed);
        ok = 0;
    }
    return ok;
}

int main(int argc, char **argv)
{
    int rc = 0, i = 1;
    limits_t l = {-1, -1, -1};
    for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
        char *end;
        int bad;
        if (!strcmp(argv[i], "--wiggle")) {
            l.mean = strtod(argv[i + 1], &end);
            bad = *end != ',' || l.mean < 0;
            if (!bad)
                l.most = strtod(end + 1, &end);
            bad = bad || *end || l.most < 0;
        } else if (!strcmp(argv[i], "--crossed")) {
            l.crossed = strtod(argv[i + 1], &end);
            bad = *end || l.crossed < 0;
        } else
            break;
        if (bad) {
            fprintf(stderr, "svg-overlaps: %s: bad value '%s'\n", argv[i],
                    argv[i + 1]);
            return 2;
        }
    }
    if (i >= argc || !strncmp(argv[i], "--", 2)) {
        fprintf(stderr, "usage: svg-overlaps [--wiggle MEAN,MOST] "
                "[--crossed PCT] FILE.svg...\n");
        return 2;
    }
    for (; i < argc; i++) {
        size_t n = 0;
        char *buf = read_all(argv[i], &n);
        overlaps_t r;
        if (!buf || svg_overlaps_of(buf, n, &r)) {
            fprintf(stderr, "svg-overlaps: %s: cannot read it as SVG\n",
                    argv[i]);
            rc = 1;
        } else if (!check(argv[i], &r, &l))
            rc = 1;
        free(buf);
    }
    return rc;
}
