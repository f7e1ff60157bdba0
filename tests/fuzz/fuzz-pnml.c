/*
 * libFuzzer harness for the PNML reader: every input must be read or
 * refused with an error record, never crash, leak or hang; a net that is
 * read must write in every dialect that accepts it and read back.
 * Built by `make fuzz` (clang); run by bench/fuzz.sh.
 */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib_private.h"
#include "pnml.h"
#include "dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_net_t *net = NULL;
    pn_error_t err;
    pn_status_t st = pn_pnml_read_memory((const char *)data, size, "fuzz",
                                         NULL, &net, &err);
    if (st != PN_OK) {
        if (net || err.code != st || !memchr(err.text, '\0', sizeof err.text))
            abort();
        return 0;
    }
    for (int d = 0; d < 3; d++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        pn_write_options_t wo = {(pn_dialect_t)d};
        pn_error_t werr;
        pn_error_clear(&werr);
        pn_status_t ws = pn_pnml_write_stream(net, f, &wo, &werr);
        fclose(f);
        if (ws == PN_OK) {
            pn_net_t *back = NULL;
            if (pn_pnml_read_memory(buf, len, "back", NULL, &back, &err) !=
                    PN_OK ||
                pn_net_place_count(back) != pn_net_place_count(net) ||
                pn_net_arc_count(back) != pn_net_arc_count(net))
                abort(); /* what we write, we read back */
            pn_net_free(back);
        } else if (ws != PN_EDIALECT) {
            abort();
        }
        free(buf);
    }
    pn_net_free(net);
    return 0;
}
