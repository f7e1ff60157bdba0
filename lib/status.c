/* Status codes and error records. */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include <stdio.h>
#include "lib_private.h"

static const struct {
    const char *name, *text;
} status_table[PNI_STATUS_COUNT] = {
    [PN_OK] = {"PN_OK", "success"},
    [PN_ENOMEM] = {"PN_ENOMEM", "out of memory"},
    [PN_EINVAL] = {"PN_EINVAL", "invalid argument"},
    [PN_EIO] = {"PN_EIO", "input/output error"},
    [PN_EXML] = {"PN_EXML", "malformed XML"},
    [PN_EDUPID] = {"PN_EDUPID", "duplicate id"},
    [PN_ENOID] = {"PN_ENOID", "missing id"},
    [PN_EUNKNOWN] = {"PN_EUNKNOWN", "unknown node"},
    [PN_EARC] = {"PN_EARC", "invalid arc"},
    [PN_EVALUE] = {"PN_EVALUE", "invalid number"},
    [PN_ERANGE] = {"PN_ERANGE", "number out of range"},
    [PN_EREFCYCLE] = {"PN_EREFCYCLE", "cycle of reference nodes"},
    [PN_EUNSUPPORTED] = {"PN_EUNSUPPORTED", "unsupported net type"},
    [PN_ENONET] = {"PN_ENONET", "no such net"},
    [PN_EDIALECT] = {"PN_EDIALECT", "not expressible in this dialect"},
    [PN_ESTRUCT] = {"PN_ESTRUCT", "invalid PNML structure"},
    [PN_ERENDER] = {"PN_ERENDER", "rendering failed"},
    [PN_ETOOBIG] = {"PN_ETOOBIG", "too large"},
    [PN_ETRACE] = {"PN_ETRACE", "invalid trace"},
    [PN_EQUERY] = {"PN_EQUERY", "invalid query"},
};

const char *pn_strstatus(pn_status_t s)
{
    return (unsigned)s < PNI_STATUS_COUNT ? status_table[s].text
                                          : "unknown status";
}

const char *pn_status_name(pn_status_t s)
{
    return (unsigned)s < PNI_STATUS_COUNT ? status_table[s].name
                                          : "PN_E?";
}

void pn_error_clear(pn_error_t *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

char *pn_error_format(const pn_error_t *err, char *buf, unsigned long size)
{
    if (!size)
        return buf;
    buf[0] = '\0';
    if (!err)
        return buf;
    size_t n = 0;
    if (err->file[0]) {
        if (err->line && err->column)
            n = (size_t)snprintf(buf, size, "%s:%lu:%lu: ", err->file,
                                 err->line, err->column);
        else if (err->line)
            n = (size_t)snprintf(buf, size, "%s:%lu: ", err->file, err->line);
        else
            n = (size_t)snprintf(buf, size, "%s: ", err->file);
    }
    if (n < size)
        snprintf(buf + n, size - n, "%s",
                 err->text[0] ? err->text : pn_strstatus(err->code));
    return buf;
}

const char *pn_version(void) { return PACKAGE_VERSION; }
