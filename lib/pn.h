/*
 * pn/pn.h - umbrella header of libpn, the Petri net toolkit library.
 *
 * Ownership: see pn/net.h (the net owns what is in it, getters return
 * borrowed pointers, pn_*_new/pn_*_free pairs for what the caller owns).
 */
#ifndef PN_PN_H
#define PN_PN_H

#include "status.h"
#include "net.h"
#include "pnml.h"
#include "engine.h"
#include "gpu.h"
#include "trace.h"
#include "dot.h"
#include "maxplus.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library version ("0.1.0"). */
const char *pn_version(void);

#ifdef __cplusplus
}
#endif
#endif
