/*
 * pn/mcc.h - property files of the Model Checking Contest (the XML that
 * its harness gives a tool beside model.pnml).  Only UpperBounds is read
 * so far: each property asks for the largest number of tokens a set of
 * places holds together in a reachable marking.
 *
 * Ownership: pn_mcc_bounds_read() returns a list the caller frees with
 * pn_mcc_bounds_free(); pointers from getters are borrowed from it.  The
 * error record follows pn/status.h.
 */
#ifndef PN_MCC_H
#define PN_MCC_H

#include <stddef.h>
#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_mcc_bounds pn_mcc_bounds_t;

/* Reads an UpperBounds.xml file against net (place names resolved as ids,
 * then as names).  Returns PN_OK, PN_EIO, PN_EXML, PN_ESTRUCT (not a
 * property set), PN_EUNSUPPORTED (a formula other than place-bound),
 * PN_EUNKNOWN (a place the net does not have; err names file and line),
 * PN_ENOMEM. */
pn_status_t pn_mcc_bounds_read(const char *path, const pn_net_t *net,
                               pn_mcc_bounds_t **out, pn_error_t *err);
void pn_mcc_bounds_free(pn_mcc_bounds_t *b);
size_t pn_mcc_bounds_count(const pn_mcc_bounds_t *b);
/* The id of property i, and its places (indices into the net). */
const char *pn_mcc_bound_id(const pn_mcc_bounds_t *b, size_t i);
const size_t *pn_mcc_bound_places(const pn_mcc_bounds_t *b, size_t i,
                                  size_t *n);

#ifdef __cplusplus
}
#endif
#endif
