#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "cli.h"
#include "lib_private.h"

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

int cli_common_option(const char *prog, int c, void (*usage)(FILE *))
{
    switch (c) {
    case 'h': usage(stdout); return CLI_OK;
    case 'V': cli_version(prog); return CLI_OK;
    default:
        fprintf(stderr, "Try '%s --help'.\n", prog);
        return CLI_EUSAGE;
    }
}

const char *cli_one_file(const char *prog, int argc, char **argv, int next)
{
    if (next != argc - 1) {
        fprintf(stderr, "%s: expected one FILE (or '-')\nTry '%s --help'.\n",
                prog, prog);
        return NULL;
    }
    return argv[next];
}

int cli_read_net(const char *prog, const char *path,
                 const pn_read_options_t *ro, pn_net_t **net)
{
    pn_error_t err;
    if (pn_pnml_read_file(path, ro, net, &err)) {
        cli_error(prog, &err);
        return CLI_EINPUT;
    }
    return CLI_OK;
}

int cli_parse_u64(const char *s, uint64_t min, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || v < min)
        return -1;
    *out = v;
    return 0;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

FILE *cli_output_open(const char *path, char **tmp)
{
    return pni_output_open(path, tmp);
}

pn_status_t cli_output_close(FILE *f, char *tmp, const char *path, int ok)
{
    return pni_output_close(f, tmp, ok);
}
