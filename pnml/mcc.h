/*
 * pn/mcc.h - property files of the Model Checking Contest (the XML that
 * its harness gives a tool beside model.pnml): UpperBounds.xml,
 * ReachabilityCardinality.xml and ReachabilityFireability.xml, read into
 * the query trees of pn/query.h.
 *
 * Ownership: pn_mcc_queries_read() returns a set the caller frees with
 * pn_query_set_free().  The error record follows pn/status.h.
 */
#ifndef PN_MCC_H
#define PN_MCC_H

#include <stddef.h>
#include "net.h"
#include "query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a property set against net: each <property> (its <id>, the line
 * it starts on) with a <formula> of <exists-path><finally> f (EF),
 * <all-paths><globally> f (AG) or <place-bound> (a bound query), where f
 * is built from <negation>, <conjunction>, <disjunction> (a group of one
 * is its member), <integer-le> (and -lt, -eq, -ne, -ge, -gt) over
 * <tokens-count> and <integer-constant>, <is-fireable>, <true>, <false>
 * and <deadlock>.  Places and transitions are resolved as ids, then as
 * names.  Returns PN_OK, PN_EIO, PN_EXML, PN_EQUERY (an element out of
 * place or not understood; err names file and line), PN_EUNKNOWN (a
 * place or transition the net does not have; file and line), PN_ERANGE
 * (a constant above PN_TOKENS_MAX), PN_ENOMEM. */
pn_status_t pn_mcc_queries_read(const char *path, const pn_net_t *net,
                                pn_query_set_t **out, pn_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
