/* Filling the caller's error record (the one rule of pn/status.h).  Private
 * to the library, and compiled into each installed library that fills
 * records (libpn, libpn-render), so that no pni_ name is exported. */
#include <config.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "lib_private.h"

void pni_error_begin(pn_error_t *err, const char *file)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
}

pn_status_t pni_error(pn_error_t *err, pn_status_t code, unsigned long line,
                      unsigned long column, const char *fmt, ...)
{
    if (!err || err->code != PN_OK)
        return code;
    err->code = code;
    err->line = line;
    err->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
    return code;
}
