#include <config.h>
#include <stdio.h>
#include "cli.h"

void cli_version(const char *prog)
{
    printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
}

void cli_error(const char *prog, const pn_error_t *err)
{
    char buf[PN_ERROR_FILE_MAX + PN_ERROR_TEXT_MAX + 64];
    fprintf(stderr, "%s: %s [%s]\n", prog, pn_error_format(err, buf, sizeof buf),
            pn_status_name(err->code));
}

void cli_json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}
