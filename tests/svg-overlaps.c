/*
 * svg-overlaps FILE...: the readability check of tests/test_dot.c on SVG
 * files: for each, the text covered by other text, by nodes and by arcs
 * ("FILE: T text/text, N text/node, A text/arc"); PN_SVGCHECK_VERBOSE=1
 * names every overlap.  Exit status 0 when every file was read (whatever
 * the counts), 1 when one could not be.
 */
#include <config.h>
#include "svgcheck.h"

int main(int argc, char **argv)
{
    int rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: svg-overlaps FILE.svg...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        char *buf = NULL;
        size_t n = 0, cap = 0;
        if (f) {
            for (;;) {
                if (n + 65536 > cap) {
                    cap = cap ? 2 * cap : 1 << 20;
                    char *nb = realloc(buf, cap);
                    if (!nb)
                        break;
                    buf = nb;
                }
                size_t k = fread(buf + n, 1, cap - n, f);
                n += k;
                if (k == 0)
                    break;
            }
            fclose(f);
        }
        overlaps_t r;
        if (!f || !buf || svg_overlaps_of(buf, n, &r)) {
            fprintf(stderr, "svg-overlaps: %s: cannot read it as SVG\n",
                    argv[i]);
            rc = 1;
        } else
            printf("%s: %zu text/text, %zu text/node, %zu text/arc\n",
                   argv[i], r.text_text, r.text_node, r.text_arc);
        free(buf);
    }
    return rc;
}
