/*
 * pn/dump.h - the canonical text form of a net: what the tests compare and
 * `pn-info --dump` prints.
 *
 * Ownership: nothing is allocated; out is the caller's.
 */
#ifndef PN_DUMP_H
#define PN_DUMP_H

#include <stdio.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of pn_net_dump(). */
enum {
    PN_DUMP_IDS = 1,        /* print ids (else nodes are named by label) */
    PN_DUMP_POSITIONS = 2,  /* print positions */
    PN_DUMP_PAGES = 4,      /* print pages and the page of each node */
    PN_DUMP_TOOLSPECIFIC = 8,
    PN_DUMP_ALL = 15
};
/* Writes a canonical, line-based text form of the net: one line per net,
 * page, place, transition, arc (in document order).  Two nets with the same
 * dump are the same net.  Returns PN_EIO on a write error. */
pn_status_t pn_net_dump(const pn_net_t *net, FILE *out, int flags);

#ifdef __cplusplus
}
#endif
#endif
